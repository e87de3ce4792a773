//! The game, one frame at a time.
//!
//! # Design
//!
//! [`Game`] mirrors the game's RAM for one player: every field is named after the game's
//! variable and carries its address. [`Game::step`] runs one NTSC frame exactly as the original
//! does it:
//!
//! 1. the interrupt (NMI): `render` (four playfield rows copied to the screen from `vramRow`, or
//!    one step of the line-clear animation), `frameCounter + 1`, one generator step, and the
//!    controller read (`newly = input & !held`);
//! 2. the main loop's game-mode states for that frame: 2 (`fallTimer + 1`, Select), 3 (game
//!    over), 4 (one `playState` handler), 6 (reset combination), 7 (Start: pause) and 8 (wait
//!    for the next interrupt).
//!
//! Delays are not counted with timers of our own: the entry delay and the line-clear delay come
//! out of the same mechanism as in the original (the lock, row-check and spawn handlers wait for
//! `vramRow` to reach 32, the row check tests one row a frame, and the animation steps only on
//! frames whose counter is a multiple of four), so they agree with the original in every case,
//! including pauses and lag that shift them.
//!
//! The state is `Copy`, at most 128 bytes (the playfield page kept as two bit planes), and a
//! frame cannot fail: every input byte is a valid controller state.

use crate::bcd;
use crate::piece::{Orientation, Tile, MINOS, NO_PIECE};
use crate::playfield::Playfield;
use crate::rng;

/// Controller bits, as the game reads them (bit 7 to bit 0: A, B, Select, Start, Up, Down,
/// Left, Right).
pub mod buttons {
    /// Right.
    pub const RIGHT: u8 = 0x01;
    /// Left.
    pub const LEFT: u8 = 0x02;
    /// Down.
    pub const DOWN: u8 = 0x04;
    /// Up (unused by the game in play).
    pub const UP: u8 = 0x08;
    /// Start.
    pub const START: u8 = 0x10;
    /// Select.
    pub const SELECT: u8 = 0x20;
    /// B (rotate counter-clockwise).
    pub const B: u8 = 0x40;
    /// A (rotate clockwise).
    pub const A: u8 = 0x80;
}
use buttons::*;

/// Frames per gravity drop by level, NTSC (`framesPerDropTable`); 1 from level 29 on.
pub const FRAMES_PER_DROP: [u8; 29] = [
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
];

/// Gravity: frames per row at `level` (the game's lookup, including the wrap back to level 0).
#[inline]
pub fn frames_per_drop(level: u8) -> u8 {
    if level < 29 {
        FRAMES_PER_DROP[level as usize]
    } else {
        1
    }
}

/// Line-clear points (`pointsTable`) for 0..4 lines, as packed BCD.
pub const POINTS_TABLE: [u16; 5] = [0x0000, 0x0040, 0x0100, 0x0300, 0x1200];
/// The same in decimal.
pub const POINTS: [u32; 5] = [0, 40, 100, 300, 1200];

/// The player's state handlers (`playState`, RAM `$68`), named after the game's routines.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayState {
    /// 0 `unassignOrientationId`: the game has ended (back to the menus).
    UnassignOrientationId = 0,
    /// 1 `playerControlsActiveTetrimino`: a piece is under control.
    PlayerControlsActiveTetrimino = 1,
    /// 2 `lockTetrimino`.
    LockTetrimino = 2,
    /// 3 `checkForCompletedRows`.
    CheckForCompletedRows = 3,
    /// 4 line-clear animation (runs in the interrupt).
    LineClearAnimation = 4,
    /// 5 `updateLinesAndStatistics`.
    UpdateLinesAndStatistics = 5,
    /// 6 `bTypeGoalCheck`.
    BTypeGoalCheck = 6,
    /// 7 `receiveGarbage` (one player: straight on).
    ReceiveGarbage = 7,
    /// 8 `spawnNextTetrimino`.
    SpawnNextTetrimino = 8,
    /// 9 unused.
    Noop9 = 9,
    /// 10 `updateGameOverCurtain`.
    UpdateGameOverCurtain = 10,
    /// 11 `incrementPlayState` (unused in one-player games).
    IncrementPlayState = 11,
}

impl PlayState {
    /// From the game's value; `None` above 11.
    pub fn from_u8(v: u8) -> Option<PlayState> {
        use PlayState::*;
        Some(match v {
            0 => UnassignOrientationId,
            1 => PlayerControlsActiveTetrimino,
            2 => LockTetrimino,
            3 => CheckForCompletedRows,
            4 => LineClearAnimation,
            5 => UpdateLinesAndStatistics,
            6 => BTypeGoalCheck,
            7 => ReceiveGarbage,
            8 => SpawnNextTetrimino,
            9 => Noop9,
            10 => UpdateGameOverCurtain,
            11 => IncrementPlayState,
            _ => return None,
        })
    }
}

/// A-type (marathon) or B-type (25 lines over garbage).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameType {
    /// A-type.
    A = 0,
    /// B-type.
    B = 1,
}

/// How a game ended.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Still running.
    None = 0,
    /// Topped out; the curtain has fallen and the game went back to the menus.
    ToppedOut = 1,
    /// B-type goal reached (lines counted down to 0).
    BTypeCleared = 2,
    /// A+B+Select+Start held: the game reset to the title screen.
    Reset = 3,
}

/// Everything needed to start a game the way the game starts one (`initGameState`), taken at
/// the moment the player presses Start on the level menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StartConfig {
    /// `rng_seed` ($17-$18).
    pub rng: u16,
    /// `spawnCount` ($1A): pieces picked since power-on (never reset between games).
    pub spawn_count: u8,
    /// `frameCounter` ($B1-$B2).
    pub frame_counter: u16,
    /// `autorepeatX` ($66): the DAS counter is kept between games.
    pub das: u8,
    /// `holdDownPoints` ($6F): also never reset by the game's start.
    pub hold_down_points: u8,
    /// Start level (0..=19 from the menu; any byte is accepted).
    pub level: u8,
    /// A or B.
    pub game_type: GameType,
    /// B-type height 0..=5.
    pub start_height: u8,
}

impl StartConfig {
    /// A-type at `level`, from the power-on generator value.
    pub fn a_type(level: u8) -> StartConfig {
        StartConfig {
            rng: rng::POWER_ON_SEED,
            spawn_count: 0,
            frame_counter: 0,
            das: 0,
            hold_down_points: 0,
            level,
            game_type: GameType::A,
            start_height: 0,
        }
    }

    /// A start position derived from a 64-bit seed: the generator advanced from its power-on
    /// value by a seed-dependent number of frames (so it stays on the game's own cycle), and a
    /// seed-dependent frame counter and spawn counter. The same seed always gives the same game.
    pub fn from_seed(seed: u64, level: u8, game_type: GameType, start_height: u8) -> StartConfig {
        // SplitMix64 finaliser: spreads consecutive seeds over the whole range.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        StartConfig {
            rng: rng::advance(rng::POWER_ON_SEED, (z % rng::PERIOD as u64) as u32),
            spawn_count: (z >> 20) as u8,
            frame_counter: (z >> 32) as u16 & 0x00FF,
            das: 0,
            hold_down_points: 0,
            level,
            game_type,
            start_height,
        }
    }
}

/// A position, as a trace header records it: every field a trace compares plus the game's
/// internal counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub struct Snapshot {
    pub rng: u16,
    pub spawn_id: u8,
    pub spawn_count: u8,
    pub frame_counter: u16,
    pub game_type: u8,
    pub start_height: u8,
    pub level: u8,
    pub lines: u16,
    pub score: u32,
    pub piece: u8,
    pub next: u8,
    pub x: u8,
    pub y: u8,
    pub play_state: u8,
    pub fall_timer: u8,
    pub das: u8,
    pub ary: i8,
    pub hold_down_points: u8,
    pub vram_row: u8,
    pub game_over: bool,
    pub paused: bool,
    pub playfield: Playfield,
}

/// A snapshot that cannot be a position of the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    /// A field out of its range.
    #[error("{field} = {value} is out of range ({expected})")]
    OutOfRange {
        /// Field name.
        field: &'static str,
        /// Its value.
        value: i64,
        /// What it may be.
        expected: &'static str,
    },
}

// Flag bits of `Game::flags`.
const F_PAUSED: u8 = 1;
const F_GAME_OVER: u8 = 2;
const F_HIDE_NEXT: u8 = 4;
/// original game: holding exactly Down+Left+Right makes state 6 return A = 7 = the next state,
/// so the main loop waits for the interrupt and the next frame runs only states 7 and 8.
const F_RESUME_AT_START_HANDLING: u8 = 8;
const F_BLANK_PENDING: u8 = 16;
const F_INIT_PENDING: u8 = 32;
const F_BONUS_APPLIED: u8 = 64;
/// Departure from the original (off unless asked for): the "double killscreen" of
/// competition ROMs, two gravity drops a frame from [`DOUBLE_KILLSCREEN_LEVEL`] on.
const F_DOUBLE_KILLSCREEN: u8 = 128;

/// The level from which the double killscreen (when switched on) drops the piece two rows a
/// frame: 39, as in the field's AI format.
pub const DOUBLE_KILLSCREEN_LEVEL: u8 = 39;

/// Whether a piece at `level` falls two rows a frame: the double killscreen (a departure, on
/// or off as `double_killscreen` says) from [`DOUBLE_KILLSCREEN_LEVEL`] on.
#[inline]
pub fn two_rows_a_frame(level: u8, double_killscreen: bool) -> bool {
    double_killscreen && level >= DOUBLE_KILLSCREEN_LEVEL
}

/// One player's game, as the original keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    /// `playfield` ($0400-$04FF).
    pub playfield: Playfield,
    /// Exact score without the 999,999 cap (not part of the original; for statistics).
    pub score_uncapped: u64,
    /// `score` ($73-$75), three bytes of packed BCD as `0x00HHMMLL`.
    pub score: u32,
    /// `rng_seed` ($17-$18).
    pub rng: u16,
    /// `frameCounter` ($B1-$B2).
    pub frame_counter: u16,
    /// `lines` ($70-$71): low byte packed BCD, high byte binary hundreds.
    pub lines: u16,
    /// `statsByType` ($03F0..): pieces spawned per type, 3 BCD digits each (T J Z O S L I).
    pub stats: [u16; 7],
    /// `spawnID` ($19).
    pub spawn_id: u8,
    /// `spawnCount` ($1A).
    pub spawn_count: u8,
    /// `gameType` ($C1).
    pub game_type: GameType,
    /// `player1_startHeight`: B-type height 0..5.
    pub start_height: u8,
    /// `levelNumber` ($64).
    pub level: u8,
    /// `currentPiece` ($62): orientation id, 19 = none.
    pub piece: u8,
    /// `nextPiece` ($BF).
    pub next: u8,
    /// `tetriminoX` ($60).
    pub x: u8,
    /// `tetriminoY` ($61).
    pub y: u8,
    /// `playState` ($68).
    pub play_state: PlayState,
    /// `fallTimer` ($65).
    pub fall_timer: u8,
    /// `autorepeatX` ($66): the DAS counter.
    pub autorepeat_x: u8,
    /// `autorepeatY` ($6E): the soft-drop counter (negative during the first piece's hang).
    pub autorepeat_y: i8,
    /// `holdDownPoints` ($6F).
    pub hold_down_points: u8,
    /// `vramRow` ($69).
    pub vram_row: u8,
    /// `completedLines` ($76).
    pub completed_lines: u8,
    /// `lineIndex` ($77).
    pub line_index: u8,
    /// `completedRow` ($6A-$6D), 0 = none.
    pub completed_row: [u8; 4],
    /// `rowY` ($72): line-clear animation step.
    pub row_y: u8,
    /// `curtainRow`: game-over curtain progress (-16..20; a row is drawn every 4 frames from 0).
    pub curtain_row: i8,
    /// `heldButtons_player1` ($F7).
    pub held: u8,
    /// B-type garbage rows still to build during the start-up frames.
    pub garbage_rows_left: u8,
    /// How the game ended.
    pub ending: Ending,
    flags: u8,
}

impl Game {
    /// A game about to start: the first [`Game::step`] runs the game's initialisation (the rest
    /// of the frame in which Start was pressed on the level menu), B-type garbage is built over
    /// the next twelve frames, and play begins.
    pub fn start(cfg: StartConfig) -> Game {
        Game {
            playfield: Playfield::new(),
            score_uncapped: 0,
            score: 0,
            rng: cfg.rng,
            frame_counter: cfg.frame_counter,
            lines: 0,
            stats: [0; 7],
            spawn_id: 0,
            spawn_count: cfg.spawn_count,
            game_type: cfg.game_type,
            start_height: cfg.start_height,
            level: cfg.level,
            piece: 0,
            next: 0,
            x: 0,
            y: 0,
            play_state: PlayState::PlayerControlsActiveTetrimino,
            fall_timer: 0,
            autorepeat_x: cfg.das,
            autorepeat_y: 0,
            hold_down_points: cfg.hold_down_points,
            vram_row: 0,
            completed_lines: 0,
            line_index: 0,
            completed_row: [0; 4],
            row_y: 0,
            curtain_row: 0,
            held: 0,
            garbage_rows_left: 0,
            ending: Ending::None,
            flags: F_INIT_PENDING,
        }
    }

    /// Continues from a position (a trace's `resume` header): nothing pending beyond what the
    /// snapshot says, and no button held on the frame before.
    pub fn resume(s: &Snapshot) -> Result<Game, SnapshotError> {
        fn check(
            field: &'static str,
            v: i64,
            ok: bool,
            expected: &'static str,
        ) -> Result<(), SnapshotError> {
            if ok {
                Ok(())
            } else {
                Err(SnapshotError::OutOfRange {
                    field,
                    value: v,
                    expected,
                })
            }
        }
        check("game_type", s.game_type as i64, s.game_type <= 1, "0 or 1")?;
        check(
            "start_height",
            s.start_height as i64,
            s.start_height <= 5,
            "0..=5",
        )?;
        check("piece", s.piece as i64, s.piece <= NO_PIECE, "0..=19")?;
        check("next", s.next as i64, s.next < NO_PIECE, "0..=18")?;
        check(
            "spawn_id",
            s.spawn_id as i64,
            s.spawn_id < NO_PIECE,
            "0..=18",
        )?;
        check("x", s.x as i64, s.x < 10, "0..=9")?;
        check("y", s.y as i64, s.y < 20, "0..=19")?;
        let play_state = PlayState::from_u8(s.play_state).ok_or(SnapshotError::OutOfRange {
            field: "play_state",
            value: s.play_state as i64,
            expected: "0..=11",
        })?;
        let mut flags = 0;
        if s.paused {
            flags |= F_PAUSED;
        }
        if s.game_over {
            flags |= F_GAME_OVER;
        }
        let score_uncapped = bcd::from_bcd(s.score);
        Ok(Game {
            playfield: s.playfield,
            score_uncapped,
            score: s.score & 0x00FF_FFFF,
            rng: s.rng,
            frame_counter: s.frame_counter,
            lines: s.lines,
            stats: [0; 7],
            spawn_id: s.spawn_id,
            spawn_count: s.spawn_count,
            game_type: if s.game_type == 0 {
                GameType::A
            } else {
                GameType::B
            },
            start_height: s.start_height,
            level: s.level,
            piece: s.piece,
            next: s.next,
            x: s.x,
            y: s.y,
            play_state,
            fall_timer: s.fall_timer,
            autorepeat_x: s.das,
            autorepeat_y: s.ary,
            hold_down_points: s.hold_down_points,
            vram_row: s.vram_row,
            completed_lines: 0,
            line_index: 0,
            completed_row: [0; 4],
            row_y: 0,
            curtain_row: if play_state == PlayState::UpdateGameOverCurtain {
                -16
            } else {
                0
            },
            held: 0,
            garbage_rows_left: 0,
            ending: Ending::None,
            flags,
        })
    }

    /// The position in the trace's terms.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            rng: self.rng,
            spawn_id: self.spawn_id,
            spawn_count: self.spawn_count,
            frame_counter: self.frame_counter,
            game_type: self.game_type as u8,
            start_height: self.start_height,
            level: self.level,
            lines: self.lines,
            score: self.score,
            piece: self.piece,
            next: self.next,
            x: self.x,
            y: self.y,
            play_state: self.play_state as u8,
            fall_timer: self.fall_timer,
            das: self.autorepeat_x,
            ary: self.autorepeat_y,
            hold_down_points: self.hold_down_points,
            vram_row: self.vram_row,
            game_over: self.game_over(),
            paused: self.paused(),
            playfield: self.playfield,
        }
    }

    /// Switches the double killscreen on or off. **A departure from the original game**: from
    /// level 39 ([`DOUBLE_KILLSCREEN_LEVEL`]) the gravity drop runs twice in a frame, as in the
    /// competition ROMs the field's AI format comes from (the second drop locks the piece as
    /// usual if it is blocked). Off by default; a trace never uses it.
    pub fn set_double_killscreen(&mut self, on: bool) {
        if on {
            self.flags |= F_DOUBLE_KILLSCREEN;
        } else {
            self.flags &= !F_DOUBLE_KILLSCREEN;
        }
    }

    /// Whether the double killscreen (a departure, see [`Game::set_double_killscreen`]) is on.
    #[inline]
    pub fn double_killscreen(&self) -> bool {
        self.flags & F_DOUBLE_KILLSCREEN != 0
    }

    /// Whether the game is paused.
    #[inline]
    pub fn paused(&self) -> bool {
        self.flags & F_PAUSED != 0
    }

    /// True from the frame the curtain starts (`playState` 10) on.
    #[inline]
    pub fn game_over(&self) -> bool {
        self.flags & F_GAME_OVER != 0
    }

    /// Whether the next-piece box is shown (Select toggles it).
    #[inline]
    pub fn next_visible(&self) -> bool {
        self.flags & F_HIDE_NEXT == 0
    }

    /// Whether the game is still starting (initialisation or B-type garbage frames).
    pub fn starting(&self) -> bool {
        self.flags & (F_INIT_PENDING | F_BLANK_PENDING) != 0 || self.garbage_rows_left > 0
    }

    /// Whether play has finished (topped out and curtain done, B-type cleared, or reset).
    pub fn ended(&self) -> bool {
        self.ending != Ending::None
    }

    /// The active piece, if one is under control or locking.
    pub fn active_piece(&self) -> Option<Orientation> {
        Orientation::from_id(self.piece)
    }

    /// The next piece.
    pub fn next_piece(&self) -> Option<Orientation> {
        Orientation::from_id(self.next)
    }

    /// Lines as a number (decoding the game's BCD/binary counter).
    pub fn lines_value(&self) -> u32 {
        bcd::lines_value(self.lines)
    }

    /// Score as a number (the game's capped score).
    pub fn score_value(&self) -> u64 {
        bcd::from_bcd(self.score)
    }

    /// Whether a piece is under the player's control this frame.
    pub fn piece_active(&self) -> bool {
        self.play_state == PlayState::PlayerControlsActiveTetrimino
            && !self.starting()
            && self.piece < NO_PIECE
    }

    /// Runs one frame with the controller byte `input` held.
    #[inline]
    pub fn step(&mut self, input: u8) {
        self.frame(input, false);
    }

    /// Runs one frame in which the original's logic is still finishing the previous frame's
    /// pass (lag): the interrupt runs (frame counter, generator, controller), no new logic pass
    /// starts.
    pub fn step_lagged(&mut self, input: u8) {
        self.frame(input, true);
    }

    #[inline(always)]
    fn frame(&mut self, input: u8, lag: bool) {
        if self.flags & F_INIT_PENDING != 0 {
            // original game: the first frame is the rest of the frame in which Start was
            // pressed; it has no interrupt of its own.
            self.flags &= !F_INIT_PENDING;
            self.init_game_state();
            return;
        }
        if self.ended() {
            if self.ending == Ending::BTypeCleared && self.flags & F_BONUS_APPLIED == 0 {
                self.apply_btype_bonus();
            }
            return;
        }
        let newly = self.nmi(input);
        if lag {
            return;
        }
        if self.garbage_rows_left > 0 {
            self.build_garbage_row();
            return;
        }
        if self.flags & F_BLANK_PENDING != 0 {
            self.flags &= !F_BLANK_PENDING;
            self.blank_for_height();
        }
        if self.paused() {
            // original game: the pause loop waits on interrupts and leaves only when the newly
            // pressed byte is exactly Start; the unpause frame runs no player logic and restarts
            // the display copy at row 0, which can delay a lock or spawn that follows.
            if newly == START {
                self.flags &= !F_PAUSED;
                self.vram_row = 0;
            }
            return;
        }
        if self.flags & F_RESUME_AT_START_HANDLING != 0 {
            self.flags &= !F_RESUME_AT_START_HANDLING;
            self.start_button_handling(newly);
            return;
        }
        // gameModeState 2: updateCountersAndNonPlayerState
        self.fall_timer = self.fall_timer.wrapping_add(1);
        if newly & SELECT != 0 {
            self.flags ^= F_HIDE_NEXT;
        }
        // gameModeState 3: handleGameOver
        if self.play_state == PlayState::UnassignOrientationId {
            self.ending = Ending::ToppedOut;
            return;
        }
        // gameModeState 4: updatePlayer1
        self.run_play_state(newly);
        if self.ended() {
            return;
        }
        // gameModeState 6: checkForResetKeyCombo
        if self.held == A | B | SELECT | START {
            self.ending = Ending::Reset;
            return;
        }
        // original game: the handler returns with A = heldButtons; Down+Left+Right = 7 equals
        // the next gameModeState, so the main loop waits for the interrupt here and the next
        // frame resumes at state 7: game logic runs every other frame while they are held.
        if self.held == DOWN | LEFT | RIGHT {
            self.flags |= F_RESUME_AT_START_HANDLING;
            return;
        }
        // gameModeState 7: startButtonHandling
        self.start_button_handling(newly);
    }

    /// The interrupt: render, frame counter, generator, controller. Returns the newly pressed
    /// buttons.
    #[inline]
    fn nmi(&mut self, input: u8) -> u8 {
        if !self.paused() {
            // render_mode_play_and_demo
            if self.play_state == PlayState::LineClearAnimation {
                // updateLineClearingAnimation: a step only on frames whose counter (before this
                // interrupt's increment) is a multiple of four.
                if self.frame_counter & 3 == 0 {
                    self.row_y += 1;
                    if self.row_y >= 5 {
                        self.play_state = PlayState::UpdateLinesAndStatistics;
                    }
                }
                self.vram_row = 0;
            } else {
                // copyPlayfieldRowToVRAM, four times: a row is copied while `vramRow - 21` is
                // negative (8-bit); after the copy, `vramRow - 20` non-negative means done (32).
                if self.vram_row <= 20 {
                    let r = self.vram_row + 4;
                    self.vram_row = if r >= 20 { 32 } else { r };
                } else if self.vram_row != 32 {
                    for _ in 0..4 {
                        let v = self.vram_row;
                        if v.wrapping_sub(21) & 0x80 != 0 {
                            let v = v.wrapping_add(1);
                            self.vram_row = if v.wrapping_sub(20) & 0x80 == 0 {
                                32
                            } else {
                                v
                            };
                        }
                    }
                }
            }
        }
        self.frame_counter = self.frame_counter.wrapping_add(1);
        self.rng = rng::step(self.rng);
        let newly = input & !self.held;
        self.held = input;
        newly
    }

    fn start_button_handling(&mut self, newly: u8) {
        if newly & START != 0 && self.play_state != PlayState::UpdateGameOverCurtain {
            self.flags |= F_PAUSED;
        }
    }

    fn init_game_state(&mut self) {
        self.playfield = Playfield::new();
        self.stats = [0; 7];
        self.x = 5;
        self.y = 0;
        self.vram_row = 0;
        self.fall_timer = 0;
        self.score = 0;
        self.score_uncapped = 0;
        self.lines = 0;
        self.completed_lines = 0;
        self.spawn_id = 0;
        self.play_state = PlayState::PlayerControlsActiveTetrimino;
        self.autorepeat_y = -96;
        self.piece = self.pick_next();
        self.increment_piece_stat();
        self.rng = rng::step(self.rng);
        self.next = self.pick_next();
        if self.game_type == GameType::B {
            self.lines = 0x25;
            self.garbage_rows_left = 12;
        }
    }

    /// original game: B-type garbage, one row per frame from row 8 down to row 19: each cell
    /// (column 9 down to 0) from one generator step through `rngTable`, then a hole column from
    /// a retry loop, then a wait for the next interrupt.
    fn build_garbage_row(&mut self) {
        const RNG_TABLE: [Tile; 8] = [
            Tile::Empty,
            Tile::Hollow,
            Tile::Empty,
            Tile::Solid2,
            Tile::Solid1,
            Tile::Solid1,
            Tile::Empty,
            Tile::Empty,
        ];
        let row = 20 - self.garbage_rows_left;
        self.vram_row = 0;
        for col in (0..10u8).rev() {
            self.rng = rng::step(self.rng);
            let tile = RNG_TABLE[(self.rng >> 8) as usize & 7];
            self.playfield.set(row * 10 + col, tile);
        }
        let hole = loop {
            self.rng = rng::step(self.rng);
            let v = (self.rng >> 8) as u8 & 0x0F;
            if v < 10 {
                break v;
            }
        };
        self.playfield.set(row * 10 + hole, Tile::Empty);
        self.garbage_rows_left -= 1;
        if self.garbage_rows_left == 0 {
            self.flags |= F_BLANK_PENDING;
        }
    }

    /// original game: the blanking loop clears bytes 0..=N inclusive (N = 200, 170, 150, 120,
    /// 100, 80), one byte more than the rows above the garbage, so the leftmost cell of the top
    /// garbage row is always empty (and at height 0 the first hidden byte is cleared too).
    fn blank_for_height(&mut self) {
        const BLANK: [u8; 6] = [0xC8, 0xAA, 0x96, 0x78, 0x64, 0x50];
        let last = BLANK[self.start_height.min(5) as usize];
        self.playfield.clear_through(last);
    }

    fn pick_next(&mut self) -> u8 {
        let p = rng::pick(self.rng, self.spawn_id, self.spawn_count);
        self.rng = p.rng;
        self.spawn_id = p.spawn_id;
        self.spawn_count = p.spawn_count;
        p.spawn_id
    }

    fn increment_piece_stat(&mut self) {
        if let Some(o) = Orientation::from_id(self.piece) {
            let s = &mut self.stats[o.kind() as usize];
            // BCD increment of three digits, as incrementPieceStat does (wraps at 999 -> 000
            // of the low byte with the high byte counting on).
            let mut lo = (*s & 0xFF) as u8;
            let mut hi = (*s >> 8) as u8;
            lo = lo.wrapping_add(1);
            if lo & 0x0F >= 0x0A {
                lo = lo.wrapping_add(6);
                if lo >= 0xA0 {
                    lo = lo.wrapping_add(0x60);
                    hi = hi.wrapping_add(1);
                }
            }
            *s = (hi as u16) << 8 | lo as u16;
        }
    }

    #[inline]
    fn run_play_state(&mut self, newly: u8) {
        match self.play_state {
            PlayState::UnassignOrientationId => self.piece = NO_PIECE,
            PlayState::PlayerControlsActiveTetrimino => {
                self.shift_tetrimino(newly);
                self.rotate_tetrimino(newly);
                self.drop_tetrimino(newly);
            }
            PlayState::LockTetrimino => self.lock_tetrimino(),
            PlayState::CheckForCompletedRows => self.check_for_completed_rows(),
            PlayState::LineClearAnimation | PlayState::Noop9 => {}
            PlayState::UpdateLinesAndStatistics => self.update_lines_and_statistics(),
            PlayState::BTypeGoalCheck => self.b_type_goal_check(),
            PlayState::ReceiveGarbage | PlayState::IncrementPlayState => {
                self.play_state = PlayState::SpawnNextTetrimino
            }
            PlayState::SpawnNextTetrimino => self.spawn_next_tetrimino(),
            PlayState::UpdateGameOverCurtain => self.update_game_over_curtain(newly),
        }
    }

    /// `isPositionValid` for the current piece, position and playfield.
    #[inline(always)]
    pub fn position_valid(&self) -> bool {
        position_valid(&self.playfield, self.piece, self.x, self.y)
    }

    #[inline]
    fn shift_tetrimino(&mut self, newly: u8) {
        let original = self.x;
        if self.held & DOWN != 0 {
            // original game: Down held blocks shifting and leaves the DAS counter untouched.
            return;
        }
        if newly & (LEFT | RIGHT) != 0 {
            self.autorepeat_x = 0;
        } else if self.held & (LEFT | RIGHT) == 0 {
            return;
        } else {
            self.autorepeat_x = self.autorepeat_x.wrapping_add(1);
            if self.autorepeat_x.wrapping_sub(16) & 0x80 != 0 {
                return;
            }
            self.autorepeat_x = 10;
        }
        if self.held & RIGHT != 0 {
            self.x = self.x.wrapping_add(1);
        } else if self.held & LEFT != 0 {
            self.x = self.x.wrapping_sub(1);
        } else {
            return;
        }
        if !self.position_valid() {
            // original game: a blocked shift leaves the counter fully charged ("wall charge").
            self.x = original;
            self.autorepeat_x = 16;
        }
    }

    #[inline]
    fn rotate_tetrimino(&mut self, newly: u8) {
        let original = self.piece;
        let Some(o) = Orientation::from_id(self.piece) else {
            return;
        };
        if newly & A != 0 {
            self.piece = o.cw() as u8;
        } else if newly & B != 0 {
            self.piece = o.ccw() as u8;
        } else {
            return;
        }
        if !self.position_valid() {
            self.piece = original;
        }
    }

    #[inline]
    fn drop_tetrimino(&mut self, newly: u8) {
        if self.autorepeat_y < 0 {
            // original game: the first piece hangs for 96 frames unless Down is pressed.
            if newly & DOWN == 0 {
                self.autorepeat_y = self.autorepeat_y.wrapping_add(1);
                return;
            }
            self.autorepeat_y = 0;
        }
        if self.autorepeat_y == 0 {
            if self.held & (LEFT | RIGHT) == 0 && newly & 0x0F == DOWN {
                self.autorepeat_y = 1;
            }
        } else if self.held & 0x0F == DOWN {
            let a = (self.autorepeat_y as u8).wrapping_add(1);
            self.autorepeat_y = a as i8;
            if a >= 3 {
                self.autorepeat_y = 1;
                self.hold_down_points = self.hold_down_points.wrapping_add(1);
                self.drop();
                return;
            }
        } else {
            self.autorepeat_y = 0;
            self.hold_down_points = 0;
        }
        let speed = frames_per_drop(self.level);
        // original game: a signed compare, so a fall timer 128 or more frames past the speed
        // does not drop.
        if self.fall_timer.wrapping_sub(speed) & 0x80 == 0 {
            self.drop();
            // Departure (double killscreen, off unless asked for): a second gravity drop in the
            // same frame from level 39, which locks the piece if it is blocked.
            if two_rows_a_frame(self.level, self.flags & F_DOUBLE_KILLSCREEN != 0)
                && self.play_state == PlayState::PlayerControlsActiveTetrimino
            {
                self.drop();
            }
        }
    }

    #[inline]
    fn drop(&mut self) {
        self.fall_timer = 0;
        self.y = self.y.wrapping_add(1);
        if !self.position_valid() {
            // original game: no lock delay; the piece locks on the frame its drop fails.
            self.y = self.y.wrapping_sub(1);
            self.play_state = PlayState::LockTetrimino;
            self.update_playfield();
        }
    }

    /// `updatePlayfield`: asks the display copy to start again at the piece's top row.
    fn update_playfield(&mut self) {
        let mut r = self.y.wrapping_sub(2);
        if r & 0x80 != 0 {
            r = 0;
        }
        if r.wrapping_sub(self.vram_row) & 0x80 != 0 {
            self.vram_row = r;
        }
    }

    #[inline]
    fn vram_ready(&self) -> bool {
        self.vram_row.wrapping_sub(0x20) & 0x80 == 0
    }

    fn lock_tetrimino(&mut self) {
        if !self.position_valid() {
            // original game: the only game-over rule: the piece is checked where it stands when
            // it locks (spawn itself checks nothing).
            self.play_state = PlayState::UpdateGameOverCurtain;
            self.curtain_row = -16;
            self.flags |= F_GAME_OVER;
            return;
        }
        if !self.vram_ready() {
            return;
        }
        let o = Orientation::ALL[self.piece as usize];
        let tile = o.kind().tile();
        let base = self.y.wrapping_mul(10).wrapping_add(self.x);
        for &(dx, dy) in &MINOS[self.piece as usize] {
            // original game: 8-bit index, so rows -1 and -2 land in bytes 236..255.
            let i = base
                .wrapping_add((dy as u8).wrapping_mul(10))
                .wrapping_add(dx as u8);
            self.playfield.set(i, tile);
        }
        self.line_index = 0;
        self.update_playfield();
        self.play_state = PlayState::CheckForCompletedRows;
    }

    fn check_for_completed_rows(&mut self) {
        if !self.vram_ready() {
            return;
        }
        let mut top = self.y.wrapping_sub(2);
        if top & 0x80 != 0 {
            top = 0;
        }
        let row = top.wrapping_add(self.line_index);
        if self.playfield.row_complete(row) {
            self.completed_lines += 1;
            self.completed_row[self.line_index as usize & 3] = row;
            // original game: a complete row 0 shifts the whole 256-byte page down a row, so the
            // full row lands in row 1 and the next check clears it again.
            self.playfield.remove_row(row);
            self.piece = NO_PIECE;
        } else {
            self.completed_row[self.line_index as usize & 3] = 0;
        }
        self.line_index += 1;
        if self.line_index >= 4 {
            self.vram_row = 0;
            self.row_y = 0;
            self.play_state = if self.completed_lines == 0 {
                PlayState::UpdateLinesAndStatistics
            } else {
                PlayState::LineClearAnimation
            };
        }
    }

    fn update_lines_and_statistics(&mut self) {
        let cleared = self.completed_lines;
        if cleared != 0 {
            if self.game_type == GameType::B {
                let mut lo = (self.lines as u8).wrapping_sub(cleared);
                if lo & 0x80 != 0 {
                    lo = 0;
                } else if lo & 0x0F >= 0x0A {
                    lo = lo.wrapping_sub(6);
                }
                self.lines = (self.lines & 0xFF00) | lo as u16;
            } else {
                for _ in 0..cleared {
                    self.increment_lines();
                }
            }
        }
        // addHoldDownPoints
        let before = self.score;
        if self.hold_down_points.wrapping_sub(2) & 0x80 == 0 {
            self.score_uncapped += soft_drop_award(self.score_uncapped, self.hold_down_points);
            let mut s0 = (self.score as u8).wrapping_sub(1);
            let mut s1 = (self.score >> 8) as u8;
            let s2 = (self.score >> 16) as u8;
            // original game: holdDownPoints is added in binary onto a BCD byte, fixed up one
            // nibble at a time, and a carry out of the tens digit drops the ones digit.
            s0 = s0.wrapping_add(self.hold_down_points);
            if s0 & 0x0F >= 0x0A {
                s0 = s0.wrapping_add(6);
            }
            if s0 & 0xF0 >= 0xA0 {
                s0 = (s0 & 0xF0).wrapping_add(0x60);
                s1 = s1.wrapping_add(1);
            }
            self.score = (s2 as u32) << 16 | (s1 as u32) << 8 | s0 as u32;
        }
        let _ = before;
        // addLineClearPoints
        self.hold_down_points = 0;
        let idx = (cleared as usize).min(4);
        self.score_uncapped += POINTS[idx] as u64 * (self.level as u64 + 1);
        self.score = add_line_points(self.score, idx, self.level);
        self.completed_lines = 0;
        self.play_state = PlayState::BTypeGoalCheck;
    }

    fn increment_lines(&mut self) {
        (self.lines, self.level) = increment_lines(self.lines, self.level);
    }

    fn b_type_goal_check(&mut self) {
        if self.game_type == GameType::B && self.lines & 0xFF == 0 {
            self.ending = Ending::BTypeCleared;
            return;
        }
        self.play_state = PlayState::ReceiveGarbage;
    }

    /// The B-type ending's bonus, in points: 1000 x (last digit of the level) + 1000 x height.
    pub fn btype_bonus(&self) -> u32 {
        1000 * ((self.level % 10) as u32 + self.start_height as u32)
    }

    /// original game: the ending counts the level digit and the height down, adding 100 each
    /// step to a copy of the score's upper bytes with BCD fix-ups but no cap, then copies it back.
    fn apply_btype_bonus(&mut self) {
        self.flags |= F_BONUS_APPLIED;
        let steps = (self.level % 10) as u32 * 10 + self.start_height as u32 * 10;
        let mut dd = (self.score >> 8) as u8;
        let mut de = (self.score >> 16) as u8;
        for _ in 0..steps {
            dd = dd.wrapping_add(1);
            if dd & 0x0F >= 0x0A {
                dd = dd.wrapping_add(6);
            }
            if dd & 0xF0 >= 0xA0 {
                dd = dd.wrapping_add(0x60);
                de = de.wrapping_add(1);
            }
            if de & 0x0F >= 0x0A {
                de = de.wrapping_add(6);
            }
        }
        self.score = (de as u32) << 16 | (dd as u32) << 8 | (self.score & 0xFF);
        self.score_uncapped += self.btype_bonus() as u64;
    }

    fn spawn_next_tetrimino(&mut self) {
        if !self.vram_ready() {
            return;
        }
        self.fall_timer = 0;
        self.y = 0;
        self.play_state = PlayState::PlayerControlsActiveTetrimino;
        self.x = 5;
        self.piece = Orientation::from_id(self.next)
            .map(|o| o.spawn() as u8)
            .unwrap_or(Orientation::Td as u8);
        self.increment_piece_stat();
        self.next = self.pick_next();
        // original game: a Down held from the previous piece must be pressed again.
        self.autorepeat_y = 0;
    }

    fn update_game_over_curtain(&mut self, newly: u8) {
        if self.curtain_row >= 20 {
            // original game: with 30,000 points or more the A-type ending plays, then the game
            // leaves; otherwise it waits for Start.
            if (self.score >> 16) as u8 >= 3 || newly == START {
                self.play_state = PlayState::UnassignOrientationId;
                self.ending = Ending::ToppedOut;
            }
            return;
        }
        if self.frame_counter & 3 != 0 {
            return;
        }
        if self.curtain_row >= 0 {
            let row = self.curtain_row as u8;
            for c in 0..10 {
                self.playfield.set(row * 10 + c, Tile::Hollow);
            }
            self.piece = NO_PIECE;
            self.vram_row = row;
        }
        self.curtain_row += 1;
    }
}

/// `isPositionValid`: every mino inside rows -2..19 and columns 0..9 and on an empty byte of
/// the page.
#[inline(always)]
pub fn position_valid(field: &Playfield, piece: u8, x: u8, y: u8) -> bool {
    let Some(t) = MINO_BYTES.get(piece as usize) else {
        return true;
    };
    let base = y.wrapping_mul(10).wrapping_add(x);
    let mut k = 0;
    while k < 4 {
        let (dx, dy, off) = (t[k][0], t[k][1], t[k][2]);
        if dy.wrapping_add(y).wrapping_add(2) >= 22
            || dx.wrapping_add(x) >= 10
            || field.occupied(base.wrapping_add(off))
        {
            return false;
        }
        k += 1;
    }
    true
}

/// Per orientation and mino: `dx`, `dy` as the game's bytes and the page offset `dy*10 + dx`
/// (mod 256), as `isPositionValid` computes them.
const MINO_BYTES: [[[u8; 3]; 4]; 19] = {
    let mut t = [[[0u8; 3]; 4]; 19];
    let mut o = 0;
    while o < 19 {
        let mut k = 0;
        while k < 4 {
            let (dx, dy) = MINOS[o][k];
            t[o][k] = [
                dx as u8,
                dy as u8,
                (dy as u8).wrapping_mul(10).wrapping_add(dx as u8),
            ];
            k += 1;
        }
        o += 1;
    }
    t
};

/// The soft-drop award the game's routine (`addHoldDownPoints`) gives with `hold_down_points`
/// on a score whose last two digits are those of `score` (the uncapped score's award; 0..=
/// 100 points). The routine pays it only when `holdDownPoints` is 2 or more (signed).
pub fn soft_drop_award(score: u64, hold_down_points: u8) -> u64 {
    let low = score % 100;
    let s0 = bcd::to_bcd(low) as u8;
    let mut a = s0.wrapping_sub(1).wrapping_add(hold_down_points);
    let mut carry = 0u64;
    if a & 0x0F >= 0x0A {
        a = a.wrapping_add(6);
    }
    if a & 0xF0 >= 0xA0 {
        a = (a & 0xF0).wrapping_add(0x60);
        carry = 100;
    }
    (bcd::from_bcd(a as u32) + carry).saturating_sub(low)
}

/// `incrementLines` for one A-type line: the line counter (`lines`, low byte packed BCD, high
/// byte binary hundreds) and the level after it. Used by the engine and by players that look
/// ahead across a level change.
pub fn increment_lines(lines: u16, level: u8) -> (u16, u8) {
    let mut lo = lines as u8;
    let mut hi = (lines >> 8) as u8;
    let mut level = level;
    lo = lo.wrapping_add(1);
    if lo & 0x0F >= 0x0A {
        lo = lo.wrapping_add(6);
        if lo & 0xF0 >= 0xA0 {
            lo &= 0x0F;
            // original game: the hundreds byte counts in binary.
            hi = hi.wrapping_add(1);
        }
    }
    if lo & 0x0F == 0 {
        // original game: the level goes up when the binary level, compared (signed) with
        // the BCD line count divided by ten read as hex, is smaller. Hence the first
        // transition at 100 lines for starts 10-15, 110-140 for 16-19, the stall at level
        // 235 from 2290 to 3100 lines, and the wrap from 255 to 0.
        let gc = ((((hi as u16) << 8) | lo as u16) >> 4) as u8;
        if level.wrapping_sub(gc) & 0x80 != 0 {
            level = level.wrapping_add(1);
        }
    }
    ((hi as u16) << 8 | lo as u16, level)
}

/// `addLineClearPoints`: the points for `lines` added `level + 1` times (an 8-bit count, so
/// 256 times at level 255) with the game's BCD fix-ups.
///
/// original game: every pass checks the cap, so the score is capped at 999,999 on every pass.
fn add_line_points(score: u32, lines: usize, level: u8) -> u32 {
    let mut s0 = score as u8;
    let mut s1 = (score >> 8) as u8;
    let mut s2 = (score >> 16) as u8;
    let pts_lo = POINTS_TABLE[lines] as u8;
    let pts_hi = (POINTS_TABLE[lines] >> 8) as u8;
    let mut counter = level.wrapping_add(1);
    loop {
        s0 = s0.wrapping_add(pts_lo);
        if s0 >= 0xA0 {
            s0 = s0.wrapping_add(0x60);
            s1 = s1.wrapping_add(1);
        }
        s1 = s1.wrapping_add(pts_hi);
        if s1 & 0x0F >= 0x0A {
            s1 = s1.wrapping_add(6);
        }
        if s1 & 0xF0 >= 0xA0 {
            s1 = s1.wrapping_add(0x60);
            s2 = s2.wrapping_add(1);
        }
        if s2 & 0x0F >= 0x0A {
            s2 = s2.wrapping_add(6);
        }
        if s2 & 0xF0 >= 0xA0 {
            s0 = 0x99;
            s1 = 0x99;
            s2 = 0x99;
        }
        counter = counter.wrapping_sub(1);
        if counter == 0 {
            break;
        }
    }
    (s2 as u32) << 16 | (s1 as u32) << 8 | s0 as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_small_and_copy() {
        fn is_copy<T: Copy>() {}
        is_copy::<Game>();
        assert!(
            std::mem::size_of::<Game>() <= 128,
            "{}",
            std::mem::size_of::<Game>()
        );
    }

    fn started(level: u8) -> Game {
        let mut g = Game::start(StartConfig::a_type(level));
        g.step(0);
        g
    }

    /// Rows fallen by the first piece over `frames` frames from its spawn, with the double
    /// killscreen on or off.
    fn rows_fallen(level: u8, double: bool, frames: usize) -> Vec<u8> {
        let mut g = Game::start(StartConfig::a_type(level));
        g.set_double_killscreen(double);
        // Skip the start-up frames and the first piece's hang (Down ends it at once).
        while !g.piece_active() {
            g.step(0);
        }
        g.step(DOWN);
        g.step(0);
        let y0 = g.y;
        (0..frames)
            .map(|_| {
                g.step(0);
                g.y - y0
            })
            .collect()
    }

    #[test]
    fn double_killscreen_is_a_runtime_departure_from_level_39() {
        // Off (the original): one row a frame at 29 and 39.
        assert_eq!(rows_fallen(39, false, 4), vec![1, 2, 3, 4]);
        // On: still one row a frame below 39, two from 39 (also past it).
        assert_eq!(rows_fallen(38, true, 4), vec![1, 2, 3, 4]);
        assert_eq!(rows_fallen(39, true, 4), vec![2, 4, 6, 8]);
        assert_eq!(rows_fallen(120, true, 3), vec![2, 4, 6]);
        let mut g = started(39);
        assert!(!g.double_killscreen(), "off by default");
        g.set_double_killscreen(true);
        assert!(g.double_killscreen());
        // The second drop locks when blocked: an empty board from row y locks at row 18 or 19
        // (the O's centre), never below.
        let mut g = Game::start(StartConfig::a_type(39));
        g.set_double_killscreen(true);
        while !g.piece_active() {
            g.step(0);
        }
        g.step(DOWN);
        let spawned = g.spawn_count;
        let mut frames = 0;
        while g.piece_active() && g.spawn_count == spawned {
            g.step(0);
            frames += 1;
        }
        assert!(
            frames <= 11,
            "a piece crosses the field in about 10 frames: {frames}"
        );
    }

    #[test]
    fn increment_lines_matches_the_level_rule() {
        // 18 start: level 19 at 130 lines, 29 at 230, 39 at 330.
        let (mut lines, mut level) = (0u16, 18u8);
        let mut seen = Vec::new();
        for n in 1..=330u32 {
            let before = level;
            (lines, level) = increment_lines(lines, level);
            if level != before {
                seen.push((n, level));
            }
        }
        assert_eq!(seen.first(), Some(&(130, 19)));
        assert!(seen.contains(&(230, 29)) && seen.contains(&(330, 39)));
        assert_eq!(crate::bcd::lines_value(lines), 330);
    }

    #[test]
    fn reset_combination_ends_the_game() {
        let mut g = started(5);
        g.step(A | B | SELECT | START);
        assert_eq!(g.ending, Ending::Reset);
        let before = g;
        g.step(0);
        assert_eq!(g, before, "an ended game no longer changes");
    }

    #[test]
    fn select_toggles_the_next_box() {
        let mut g = started(5);
        assert!(g.next_visible());
        g.step(SELECT);
        assert!(!g.next_visible());
        g.step(SELECT); // held, not newly pressed
        assert!(!g.next_visible());
        g.step(0);
        g.step(SELECT);
        assert!(g.next_visible());
    }

    #[test]
    fn start_pauses_and_only_a_lone_start_unpauses() {
        let mut g = started(5);
        g.step(START);
        assert!(g.paused());
        let fall = g.fall_timer;
        g.step(0);
        g.step(START | A);
        assert!(g.paused(), "newly pressed must be exactly Start");
        g.step(0);
        g.step(START);
        assert!(!g.paused());
        assert_eq!(
            g.fall_timer, fall,
            "no logic runs while paused or on the unpause frame"
        );
        assert_eq!(g.vram_row, 0, "unpausing restarts the display copy");
    }

    #[test]
    fn down_left_right_halves_the_logic_rate() {
        let mut g = started(5);
        let t0 = g.fall_timer;
        for _ in 0..10 {
            g.step(DOWN | LEFT | RIGHT);
        }
        assert_eq!(g.fall_timer.wrapping_sub(t0), 5);
    }

    #[test]
    fn piece_statistics_count_spawns() {
        let g = started(5);
        assert_eq!(
            g.stats
                .iter()
                .map(|&s| bcd::from_bcd(s as u32))
                .sum::<u64>(),
            1
        );
    }

    #[test]
    fn b_type_ending_bonus() {
        let mut g = Game::start(StartConfig {
            game_type: GameType::B,
            start_height: 5,
            level: 9,
            ..StartConfig::a_type(9)
        });
        g.score = 0x012345;
        g.ending = Ending::BTypeCleared;
        assert_eq!(g.btype_bonus(), 14_000);
        g.flags &= !F_INIT_PENDING;
        g.step(0);
        assert_eq!(g.score, 0x026345);
        assert_eq!(g.score_uncapped, 14_000);
    }

    #[test]
    fn line_points_cap_and_wrap() {
        assert_eq!(add_line_points(0, 4, 18), 0x022800);
        assert_eq!(add_line_points(0x999000, 4, 0), 0x999999);
        assert_eq!(add_line_points(0, 1, 0), 0x40);
        // 256 passes at level 255.
        assert_eq!(bcd::from_bcd(add_line_points(0, 1, 255)), 40 * 256);
    }

    fn first_transition(start: u8) -> u32 {
        let mut g = Game::start(StartConfig::a_type(start));
        g.step(0);
        for n in 1..=400u32 {
            g.increment_lines();
            if g.level != start {
                return n;
            }
        }
        0
    }

    #[test]
    fn first_level_transitions() {
        for s in 0..=9u8 {
            assert_eq!(first_transition(s), 10 * (s as u32 + 1), "start {s}");
        }
        for s in 10..=15u8 {
            assert_eq!(first_transition(s), 100, "start {s}");
        }
        assert_eq!(first_transition(16), 110);
        assert_eq!(first_transition(17), 120);
        assert_eq!(first_transition(18), 130);
        assert_eq!(first_transition(19), 140);
    }

    fn level_history(start: u8, upto: u32) -> Vec<(u32, u8)> {
        let mut g = Game::start(StartConfig::a_type(start));
        g.step(0);
        let mut out = Vec::new();
        for n in 1..=upto {
            let before = g.level;
            g.increment_lines();
            if g.level != before {
                out.push((n, g.level));
            }
        }
        out
    }

    #[test]
    fn level_stalls_and_wrap() {
        // Start 0: the level stalls from 2190 to 2990 lines.
        let h = level_history(0, 3500);
        let at = |lv: u8| h.iter().find(|&&(_, l)| l == lv).map(|&(n, _)| n);
        assert_eq!(at(219), Some(2190));
        // ... and stays at 219 through 2999 lines.
        assert_eq!(at(220), Some(3000));
        // Start 18: level 235 at 2290, stall until 3100; 255 -> 0 at 3300.
        let h = level_history(18, 3400);
        let at = |lv: u8| h.iter().find(|&&(_, l)| l == lv).map(|&(n, _)| n);
        assert_eq!(at(235), Some(2290));
        assert_eq!(at(236), Some(3100));
        assert_eq!(
            h.iter()
                .find(|&&(n, l)| l == 0 && n > 3000)
                .map(|&(n, _)| n),
            Some(3300)
        );
        assert_eq!(frames_per_drop(0), 48);
    }
}
