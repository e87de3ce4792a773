//! The game as a reinforcement-learning environment (what the Python package wraps): one
//! game ([`Env`]) or many stepped together on all cores ([`Batch`]), in two modes:
//!
//! - **frame mode**: one action a frame (an index into a named set of controller bytes,
//!   [`ActionSet`]), repeated for `frame_skip` frames;
//! - **placement mode**: one action a piece, an index ([`placement_action`]) into the locks the
//!   frame-exact move search ([`nestris_ai::search::Search`]) finds reachable at the chosen tap
//!   speed; the lock's frame-by-frame inputs are played through the engine, so every episode
//!   is a real game that replays exactly ([`Env::replay`]).
//!
//! Everything here is deterministic: the same seed gives the same game on any machine
//! ([`crate::nes::start_config`]).

use nestris_ai::search::Search;
use nestris_ai::{Board, InputModel};
use nestris_engine::{buttons, Game, GameType, Orientation, PieceKind, PlayState, StartConfig};
use rayon::prelude::*;

use crate::replayfile::{Departures, Meta, Replay, Source};

/// Placement actions: 4 orientation slots x 10 columns x 20 rows ([`placement_action`]).
pub const PLACEMENT_ACTIONS: usize = 4 * 10 * 20;
/// Cells of the board observation (20 rows x 10 columns, top row first).
pub const BOARD_LEN: usize = 200;
/// Length of the piece observation ([`write_obs`]).
pub const PIECE_LEN: usize = 6;
/// Length of the counters observation ([`write_obs`]).
pub const STATS_LEN: usize = 3;
/// Length of the frame-timers observation ([`write_obs`]).
pub const TIMERS_LEN: usize = 9;
/// The highest B-type height.
pub const MAX_HEIGHT: u8 = 5;
/// Levels the level menu offers (0-19 with A held); higher start levels are an experiment.
pub const MENU_LEVELS: u8 = 19;
/// Frames the curtain may take when a replay is finished after a top-out.
const CURTAIN_FRAMES: usize = 2_000;

/// One action a frame or one a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One controller byte a frame (repeated `frame_skip` times).
    Frame,
    /// One reachable lock a piece.
    Placement,
}

/// What the reward counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// Points scored in the step, without the game's 999,999 cap.
    Score,
    /// Lines cleared in the step.
    Lines,
    /// 1 for every step after which the game goes on.
    Survival,
}

/// The controller bytes a frame-mode action index stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionSet {
    /// Nothing, A, B, Right, Left, Down.
    Simple,
    /// [`ActionSet::Simple`] and each shift or Down with each rotation (12 actions).
    Movement,
    /// Every controller byte (256): Start pauses, Select hides the preview, A+B+Select+Start
    /// resets the game, as on the console.
    Full,
}

const SIMPLE: [u8; 6] = [
    0,
    buttons::A,
    buttons::B,
    buttons::RIGHT,
    buttons::LEFT,
    buttons::DOWN,
];
const MOVEMENT: [u8; 12] = [
    0,
    buttons::A,
    buttons::B,
    buttons::RIGHT,
    buttons::LEFT,
    buttons::DOWN,
    buttons::RIGHT | buttons::A,
    buttons::RIGHT | buttons::B,
    buttons::LEFT | buttons::A,
    buttons::LEFT | buttons::B,
    buttons::DOWN | buttons::A,
    buttons::DOWN | buttons::B,
];
const FULL: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

impl ActionSet {
    /// The controller byte of each action index.
    pub fn bytes(self) -> &'static [u8] {
        match self {
            ActionSet::Simple => &SIMPLE,
            ActionSet::Movement => &MOVEMENT,
            ActionSet::Full => &FULL,
        }
    }
}

/// What a placement-mode action that the mask rules out does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InvalidAction {
    /// The episode ends (terminated) with this reward; the game is left as it was.
    Terminate(f64),
    /// The step is refused with [`EnvError::Masked`] (the game is left as it was).
    Error,
}

/// Why an environment cannot be made or stepped as asked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EnvError {
    /// An option with a value outside its range or choices.
    #[error("bad option {name}={value}: {expected}")]
    Option {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
        /// What it may be.
        expected: String,
    },
    /// Two options that do not go together.
    #[error("{0}")]
    Conflict(String),
    /// An action index outside the action space.
    #[error("action {action} is outside the action space (0..{size}){which}")]
    OutOfSpace {
        /// The index given.
        action: i64,
        /// The number of actions.
        size: usize,
        /// Which environment of a batch (empty for one game).
        which: String,
    },
    /// A placement the mask rules out, refused ([`InvalidAction::Error`]).
    #[error("action {0} is masked out: no reachable lock of the current piece has that index (see info[\"action_mask\"])")]
    Masked(i64),
    /// `step` before `reset` or after the episode ended.
    #[error("the episode is over (or was never started): call reset() first")]
    NotRunning,
    /// An array of the wrong size.
    #[error("{name} has {got} elements, expected {expected}")]
    Shape {
        /// The array.
        name: &'static str,
        /// Its size.
        got: usize,
        /// The size expected.
        expected: usize,
    },
}

fn bad(name: &'static str, value: impl ToString, expected: impl ToString) -> EnvError {
    EnvError::Option {
        name,
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

impl std::str::FromStr for Mode {
    type Err = EnvError;
    fn from_str(s: &str) -> Result<Mode, EnvError> {
        match s {
            "frame" => Ok(Mode::Frame),
            "placement" => Ok(Mode::Placement),
            _ => Err(bad("mode", s, "'frame' or 'placement'")),
        }
    }
}

impl std::str::FromStr for Reward {
    type Err = EnvError;
    fn from_str(s: &str) -> Result<Reward, EnvError> {
        match s {
            "score" => Ok(Reward::Score),
            "lines" => Ok(Reward::Lines),
            "survival" => Ok(Reward::Survival),
            _ => Err(bad("reward", s, "'score', 'lines' or 'survival'")),
        }
    }
}

impl std::str::FromStr for ActionSet {
    type Err = EnvError;
    fn from_str(s: &str) -> Result<ActionSet, EnvError> {
        match s {
            "simple" => Ok(ActionSet::Simple),
            "movement" => Ok(ActionSet::Movement),
            "full" => Ok(ActionSet::Full),
            _ => Err(bad("action_set", s, "'simple', 'movement' or 'full'")),
        }
    }
}

/// The environment's options (README, "Python"). Build it with [`EnvConfig::default`] and
/// the setters, then [`EnvConfig::check`].
#[derive(Clone, Debug)]
pub struct EnvConfig {
    /// Frame or placement mode.
    pub mode: Mode,
    /// Start level (0..=19 from the menu; up to 255 as an experiment, a departure).
    pub level: u8,
    /// A- or B-type.
    pub game_type: GameType,
    /// B-type height 0..=5.
    pub height: u8,
    /// Tap speed of placement mode (the locks it can reach).
    pub input: InputModel,
    /// Placement mode: frames after a spawn the piece falls untouched before the chosen
    /// lock's inputs start (the decision is made on what is on screen then).
    pub reaction: u32,
    /// The double killscreen (a departure from the original).
    pub double_killscreen: bool,
    /// A-type: the episode is truncated once this many lines are cleared.
    pub line_cap: Option<u32>,
    /// What the reward counts.
    pub reward: Reward,
    /// Frame mode: frames each action is held.
    pub frame_skip: u32,
    /// Frame mode: the controller bytes of the actions.
    pub action_set: ActionSet,
    /// Placement mode: what a masked action does.
    pub invalid_action: InvalidAction,
    /// Keep every frame's input for [`Env::replay`].
    pub record: bool,
}

impl Default for EnvConfig {
    fn default() -> Self {
        EnvConfig {
            mode: Mode::Frame,
            level: 0,
            game_type: GameType::A,
            height: 0,
            input: InputModel::default(),
            reaction: 0,
            double_killscreen: false,
            line_cap: None,
            reward: Reward::Score,
            frame_skip: 1,
            action_set: ActionSet::Simple,
            invalid_action: InvalidAction::Terminate(-1.0),
            record: true,
        }
    }
}

impl EnvConfig {
    /// Checks the options together; the error names the option and what it may be.
    pub fn check(&self) -> Result<(), EnvError> {
        if self.height > MAX_HEIGHT {
            return Err(bad("b_height", self.height, "0..=5"));
        }
        if self.game_type == GameType::A && self.height != 0 {
            return Err(EnvError::Conflict(format!(
                "b_height={} needs game_type='B'",
                self.height
            )));
        }
        if self.game_type == GameType::B && self.line_cap.is_some() {
            return Err(EnvError::Conflict(
                "line_cap applies to A-type games (a B-type game ends at 25 lines)".into(),
            ));
        }
        if self.line_cap == Some(0) {
            return Err(bad("line_cap", 0, "at least 1, or None for no cap"));
        }
        if !(1..=60).contains(&self.frame_skip) {
            return Err(bad("frame_skip", self.frame_skip, "1..=60"));
        }
        if self.reaction > 600 {
            return Err(bad("reaction", self.reaction, "0..=600 frames"));
        }
        Ok(())
    }

    /// The number of actions.
    pub fn actions(&self) -> usize {
        match self.mode {
            Mode::Frame => self.action_set.bytes().len(),
            Mode::Placement => PLACEMENT_ACTIONS,
        }
    }

    /// The departures from the original game these options make, as labels.
    pub fn departures(&self) -> Vec<String> {
        let mut d = Vec::new();
        if self.level > MENU_LEVELS {
            d.push(format!(
                "start level {} (the menu offers 0-19; departure from the original)",
                self.level
            ));
        }
        if self.double_killscreen {
            d.push(crate::nes::DOUBLE_KILLSCREEN_LABEL.to_string());
        }
        d
    }
}

/// The index of the lock `(orientation, x, y)`: `(slot * 10 + x) * 20 + y`, where `slot` is
/// the orientation's place among its piece's orientations (spawn orientation first,
/// [`PieceKind::orientations`]). `None` off the board.
pub fn placement_action(o: Orientation, x: i8, y: i8) -> Option<usize> {
    let slot = o.kind().orientations().iter().position(|&p| p == o)?;
    ((0..10).contains(&x) && (0..20).contains(&y))
        .then(|| (slot * 10 + x as usize) * 20 + y as usize)
}

/// The lock of `kind` an action index stands for: `(orientation, x, y)`, or `None` if the
/// index names an orientation slot the piece does not have.
pub fn action_lock(kind: PieceKind, action: usize) -> Option<(Orientation, i8, i8)> {
    if action >= PLACEMENT_ACTIONS {
        return None;
    }
    let slot = action / 200;
    let o = *kind.orientations().get(slot)?;
    Some((o, (action / 20 % 10) as i8, (action % 20) as i8))
}

/// One reachable lock of the current piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lock {
    /// Its action index ([`placement_action`]).
    pub action: usize,
    /// Orientation at lock.
    pub orientation: Orientation,
    /// Column of the piece's centre.
    pub x: i8,
    /// Row of the piece's centre.
    pub y: i8,
    /// Controller bytes, one a frame from the decision on; the piece locks on the last.
    pub inputs: Vec<u8>,
    /// Whether the lock ends the game (it leaves minos above the board).
    pub tops_out: bool,
    /// Its index in the search.
    pub index: usize,
}

/// Every lock the current piece of `game` can reach at tap speed `input`, each with the
/// inputs that reach it (every move pressed as early as the tap speed allows). Empty when no
/// piece is under control.
pub fn reachable_locks(game: &Game, input: &InputModel) -> Vec<Lock> {
    let Some((search, mut locks)) = search_locks(game, input) else {
        return Vec::new();
    };
    let reach = search.reach_sets_from(0);
    for l in &mut locks {
        l.inputs = plan(&search, &reach, l.index);
    }
    locks
}

/// The search from `game`'s current state and its locks without their inputs.
fn search_locks(game: &Game, input: &InputModel) -> Option<(Search, Vec<Lock>)> {
    if !game.piece_active() {
        return None;
    }
    let board = Board::from_playfield(&game.playfield);
    let timing = nestris_ai::search::Timing {
        level: game.level,
        fall_timer: game.fall_timer,
        ary: game.autorepeat_y,
        double_killscreen: game.double_killscreen(),
    };
    let search = Search::run(
        &board,
        game.x as i8,
        game.piece,
        game.y as i8,
        timing,
        input,
        game.held,
    );
    let locks = search
        .locks
        .iter()
        .enumerate()
        .filter_map(|(index, l)| {
            let o = Orientation::from_id(l.o)?;
            Some(Lock {
                action: placement_action(o, l.x, l.y)?,
                orientation: o,
                x: l.x,
                y: l.y,
                inputs: Vec::new(),
                tops_out: l.tops_out,
                index,
            })
        })
        .collect();
    Some((search, locks))
}

/// The inputs of lock `index`: every move as early as it keeps the lock in reach.
fn plan(search: &Search, reach: &[Vec<nestris_ai::search::ReachSet>], index: usize) -> Vec<u8> {
    search
        .plan_from(0, 0, index, reach)
        .unwrap_or_else(|| search.plan_to_lock(index))
}

/// Lines cleared so far (B-type counts its 25 down).
fn lines_done(g: &Game) -> u32 {
    if g.game_type == GameType::B {
        25u32.saturating_sub(g.lines_value())
    } else {
        g.lines_value()
    }
}

/// The ten cells of each row bit pattern (bit x = column x).
static ROW_CELLS: [[u8; 10]; 1024] = {
    let mut t = [[0u8; 10]; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let mut x = 0;
        while x < 10 {
            t[bits][x] = (bits >> x & 1) as u8;
            x += 1;
        }
        bits += 1;
    }
    t
};

/// Writes the observation of `g`:
///
/// - `board`: 200 cells, row by row from the top, 1 where a block is settled (the falling
///   piece is not part of it);
/// - `piece`: under control (0/1), kind (0-6 = T J Z O S L I, 7 none), orientation id (0-18,
///   19 none; the game's own numbering), x, y (of the piece's centre), next kind (0-6);
/// - `stats`: level, lines (cleared so far; B-type: still to clear), score (uncapped);
/// - `timers`: `fallTimer`, the DAS counter (`autorepeatX`), the soft-drop counter
///   (`autorepeatY`, negative during the first piece's hang), `playState` (1 under control,
///   2-8 lock, row check, line-clear animation, lines update, B-type check, garbage, spawn:
///   the entry delay; 10 curtain), `vramRow` (the display copy the lock and spawn wait for:
///   entry delay), completed lines of the clear under way, the animation step (`rowY`),
///   buttons held on the last frame, the frame counter (the animation steps every 4th frame).
pub fn write_obs(
    g: &Game,
    board: &mut [u8],
    piece: &mut [i32],
    stats: &mut [i64],
    timers: &mut [i32],
) {
    // Row y is bits 10y..10y+9 of the page's occupancy (bit x = column x).
    let occ = g.playfield.occupancy();
    for (y, out) in board.chunks_exact_mut(10).enumerate().take(20) {
        let (w, b) = (y * 10 / 64, y * 10 % 64);
        let mut bits = occ[w] >> b;
        if b > 54 {
            bits |= occ[w + 1] << (64 - b);
        }
        out.copy_from_slice(&ROW_CELLS[(bits & 0x3FF) as usize]);
    }
    let o = Orientation::from_id(g.piece);
    piece[0] = g.piece_active() as i32;
    piece[1] = o.map_or(7, |o| o.kind() as i32);
    piece[2] = g.piece as i32;
    piece[3] = g.x as i32;
    piece[4] = g.y as i32;
    piece[5] = Orientation::from_id(g.next).map_or(7, |o| o.kind() as i32);
    stats[0] = g.level as i64;
    stats[1] = g.lines_value() as i64;
    stats[2] = g.score_uncapped as i64;
    timers[0] = g.fall_timer as i32;
    timers[1] = g.autorepeat_x as i32;
    timers[2] = g.autorepeat_y as i32;
    timers[3] = g.play_state as i32;
    timers[4] = g.vram_row as i32;
    timers[5] = g.completed_lines as i32;
    timers[6] = g.row_y as i32;
    timers[7] = g.held as i32;
    timers[8] = g.frame_counter as i32;
}

/// What one step gave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepResult {
    /// The reward.
    pub reward: f64,
    /// The game ended (topped out, B-type cleared, reset) or a masked action ended it.
    pub terminated: bool,
    /// The line cap was reached.
    pub truncated: bool,
    /// The action was masked out (and ended the episode, [`InvalidAction::Terminate`]).
    pub invalid: bool,
    /// Frames the step played.
    pub frames: u32,
}

/// One game as an environment.
#[derive(Clone, Debug)]
pub struct Env {
    /// The game.
    pub game: Game,
    /// Where it started.
    pub start: StartConfig,
    /// The seed and the game's index in the seed's session.
    pub seed: u64,
    /// See [`Env::seed`].
    pub index: u64,
    /// Every frame's controller byte since the start (when recording).
    pub inputs: Vec<u8>,
    /// Frames played since the start.
    pub frames: u64,
    /// The current piece's reachable locks (placement mode), without their inputs (those
    /// are planned for the chosen lock only; [`Env::placements`] gives them all).
    pub locks: Vec<Lock>,
    search: Option<Box<Search>>,
    /// Whether the episode is running.
    pub running: bool,
}

impl Env {
    /// A new game: `seed`'s game number `index` ([`crate::nes::start_config`]), played to the
    /// first decision: the first frame with a piece under control (placement mode: plus the
    /// reaction time).
    pub fn new(cfg: &EnvConfig, seed: u64, index: u64) -> Env {
        let start = crate::nes::start_config(seed, index, cfg.level, cfg.game_type, cfg.height);
        let mut game = Game::start(start);
        game.set_double_killscreen(cfg.double_killscreen);
        let mut env = Env {
            game,
            start,
            seed,
            index,
            inputs: Vec::new(),
            frames: 0,
            locks: Vec::new(),
            search: None,
            running: true,
        };
        env.advance(cfg, 0);
        env
    }

    fn frame(&mut self, cfg: &EnvConfig, input: u8) {
        self.game.step(input);
        self.frames += 1;
        if cfg.record {
            self.inputs.push(input);
        }
    }

    fn over(&self) -> bool {
        self.game.game_over() || self.game.ended()
    }

    fn capped(&self, cfg: &EnvConfig) -> bool {
        cfg.line_cap
            .is_some_and(|cap| lines_done(&self.game) >= cap)
    }

    /// Plays idle frames to the next decision; returns `played` plus the frames played. In
    /// placement mode a piece falls untouched for the reaction time before the decision (it
    /// may lock on its own meanwhile, and the next piece is waited for).
    fn advance(&mut self, cfg: &EnvConfig, mut played: u32) -> u32 {
        let mut idle = 0u32;
        loop {
            if self.over() {
                self.locks.clear();
                return played;
            }
            if self.game.piece_active() {
                if cfg.mode == Mode::Frame {
                    return played;
                }
                if idle >= cfg.reaction {
                    // A piece is under control, so the search has a root.
                    if let Some((search, locks)) = search_locks(&self.game, &cfg.input) {
                        self.search = Some(Box::new(search));
                        self.locks = locks;
                    }
                    return played;
                }
                idle += 1;
            } else {
                idle = 0;
            }
            self.frame(cfg, 0);
            played += 1;
        }
    }

    /// The current piece's reachable locks with their inputs (placement mode).
    pub fn placements(&self) -> Vec<Lock> {
        let Some(search) = &self.search else {
            return Vec::new();
        };
        let reach = search.reach_sets_from(0);
        let mut locks = self.locks.clone();
        for l in &mut locks {
            l.inputs = plan(search, &reach, l.index);
        }
        locks
    }

    /// The action mask of placement mode (1 = a reachable lock), into `mask`
    /// ([`PLACEMENT_ACTIONS`] entries).
    pub fn write_mask(&self, mask: &mut [i8]) {
        mask.fill(0);
        for l in &self.locks {
            mask[l.action] = 1;
        }
    }

    /// One step: `action` is an index into the action set (frame mode) or a placement
    /// ([`placement_action`]).
    pub fn step(&mut self, cfg: &EnvConfig, action: i64) -> Result<StepResult, EnvError> {
        if !self.running {
            return Err(EnvError::NotRunning);
        }
        let size = cfg.actions();
        if action < 0 || action as usize >= size {
            return Err(EnvError::OutOfSpace {
                action,
                size,
                which: String::new(),
            });
        }
        let (score0, lines0) = (self.game.score_uncapped, lines_done(&self.game));
        let mut r = StepResult::default();
        match cfg.mode {
            Mode::Frame => {
                let b = cfg.action_set.bytes()[action as usize];
                for _ in 0..cfg.frame_skip {
                    self.frame(cfg, b);
                    r.frames += 1;
                    if self.over() || self.capped(cfg) {
                        break;
                    }
                }
            }
            Mode::Placement => {
                let Some(i) = self.locks.iter().position(|l| l.action == action as usize) else {
                    return match cfg.invalid_action {
                        InvalidAction::Error => Err(EnvError::Masked(action)),
                        InvalidAction::Terminate(penalty) => {
                            self.running = false;
                            Ok(StepResult {
                                reward: penalty,
                                terminated: true,
                                invalid: true,
                                ..StepResult::default()
                            })
                        }
                    };
                };
                let index = self.locks[i].index;
                let inputs = match self.search.take() {
                    Some(search) => plan(&search, &search.reach_sets_from(0), index),
                    None => Vec::new(),
                };
                self.locks.clear();
                for &b in &inputs {
                    self.frame(cfg, b);
                }
                r.frames = inputs.len() as u32;
                if !self.capped(cfg) {
                    r.frames = self.advance(cfg, r.frames);
                }
            }
        }
        r.terminated = self.over();
        r.truncated = !r.terminated && self.capped(cfg);
        r.reward = match cfg.reward {
            Reward::Score => (self.game.score_uncapped - score0) as f64,
            Reward::Lines => lines_done(&self.game).saturating_sub(lines0) as f64,
            Reward::Survival => {
                if self.game.game_over() {
                    0.0
                } else {
                    1.0
                }
            }
        };
        if r.terminated || r.truncated {
            self.running = false;
            self.locks.clear();
            self.search = None;
        }
        Ok(r)
    }

    /// Writes the observation ([`write_obs`]).
    pub fn write_obs(
        &self,
        board: &mut [u8],
        piece: &mut [i32],
        stats: &mut [i64],
        timers: &mut [i32],
    ) {
        write_obs(&self.game, board, piece, stats, timers);
    }

    /// The episode as a replay (format version 2), `meta` filled in with the seed and index.
    /// A game that topped out is played on (Start pressed every other frame, as a person
    /// leaves the game) until the curtain is down, so the file ends where the game ends.
    pub fn replay(&self, mut meta: Meta) -> Replay {
        let mut game = self.game;
        let mut inputs = self.inputs.clone();
        if game.game_over() {
            let mut k = 0;
            while !game.ended() && k < CURTAIN_FRAMES {
                let b = if k % 2 == 0 { buttons::START } else { 0 };
                game.step(b);
                inputs.push(b);
                k += 1;
            }
        }
        meta.seed = self.seed;
        meta.game_index = self.index;
        Replay {
            start: self.start,
            departures: Departures::of(&self.game),
            meta,
            outcome: Some(crate::nes::outcome(&game)),
            inputs,
            classic: None,
        }
    }
}

/// The default replay options of an environment's episode (no AI played it).
pub fn replay_meta() -> Meta {
    Meta {
        source: Source::Other,
        ..Meta::default()
    }
}

/// Output arrays of a batch step, one row per game, written in place.
#[derive(Debug)]
pub struct BatchOut<'a> {
    /// `n x 200` board cells.
    pub board: &'a mut [u8],
    /// `n x PIECE_LEN`.
    pub piece: &'a mut [i32],
    /// `n x STATS_LEN`.
    pub stats: &'a mut [i64],
    /// `n x TIMERS_LEN`.
    pub timers: &'a mut [i32],
    /// `n` rewards.
    pub reward: &'a mut [f64],
    /// `n` flags.
    pub terminated: &'a mut [bool],
    /// `n` flags.
    pub truncated: &'a mut [bool],
    /// `n x PLACEMENT_ACTIONS` (placement mode; empty in frame mode).
    pub mask: &'a mut [i8],
}

impl BatchOut<'_> {
    fn check(&self, n: usize, placement: bool) -> Result<(), EnvError> {
        let sizes: [(&'static str, usize, usize); 8] = [
            ("board", self.board.len(), n * BOARD_LEN),
            ("piece", self.piece.len(), n * PIECE_LEN),
            ("stats", self.stats.len(), n * STATS_LEN),
            ("timers", self.timers.len(), n * TIMERS_LEN),
            ("reward", self.reward.len(), n),
            ("terminated", self.terminated.len(), n),
            ("truncated", self.truncated.len(), n),
            (
                "action_mask",
                self.mask.len(),
                if placement { n * PLACEMENT_ACTIONS } else { 0 },
            ),
        ];
        for (name, got, expected) in sizes {
            if got != expected {
                return Err(EnvError::Shape {
                    name,
                    got,
                    expected,
                });
            }
        }
        Ok(())
    }
}

/// N games stepped together on all cores, resetting each game on the step after it ends
/// (gymnasium's "next step" autoreset: that step ignores the game's action, returns its new
/// start with reward 0).
#[derive(Debug)]
pub struct Batch {
    /// The options.
    pub cfg: EnvConfig,
    /// The games.
    pub envs: Vec<Env>,
    /// Games played per environment since the last seeding.
    next_index: Vec<u64>,
}

impl Batch {
    /// `n` games (at least 1), game `i` from seed `seed + i`.
    pub fn new(cfg: EnvConfig, n: usize, seed: u64) -> Result<Batch, EnvError> {
        cfg.check()?;
        if n == 0 {
            return Err(bad("num_envs", 0, "at least 1"));
        }
        let mut b = Batch {
            cfg,
            envs: Vec::new(),
            next_index: Vec::new(),
        };
        b.reseed(n, seed);
        Ok(b)
    }

    fn reseed(&mut self, n: usize, seed: u64) {
        let cfg = &self.cfg;
        self.envs = (0..n as u64)
            .into_par_iter()
            .map(|i| Env::new(cfg, seed.wrapping_add(i), 0))
            .collect();
        self.next_index = vec![1; n];
    }

    /// Starts every game again: from seeds `seed + i` when given, otherwise each with its
    /// seed's next game.
    pub fn reset(&mut self, seed: Option<u64>, out: &mut BatchOut) -> Result<(), EnvError> {
        let n = self.envs.len();
        out.check(n, self.cfg.mode == Mode::Placement)?;
        match seed {
            Some(s) => self.reseed(n, s),
            None => {
                let cfg = &self.cfg;
                self.envs
                    .par_iter_mut()
                    .zip(self.next_index.par_iter_mut())
                    .for_each(|(e, k)| {
                        *e = Env::new(cfg, e.seed, *k);
                        *k += 1;
                    });
            }
        }
        out.reward.fill(0.0);
        out.terminated.fill(false);
        out.truncated.fill(false);
        self.write_all(out);
        Ok(())
    }

    fn write_all(&self, out: &mut BatchOut) {
        let placement = self.cfg.mode == Mode::Placement;
        let mask_len = if placement { PLACEMENT_ACTIONS } else { 0 };
        let chunk = (self.envs.len() / (4 * rayon::current_num_threads()).max(1)).max(64);
        self.envs
            .par_iter()
            .with_min_len(chunk)
            .zip(out.board.par_chunks_mut(BOARD_LEN))
            .zip(out.piece.par_chunks_mut(PIECE_LEN))
            .zip(out.stats.par_chunks_mut(STATS_LEN))
            .zip(out.timers.par_chunks_mut(TIMERS_LEN))
            .for_each(|((((e, b), p), s), t)| e.write_obs(b, p, s, t));
        if placement {
            self.envs
                .par_iter()
                .zip(out.mask.par_chunks_mut(mask_len))
                .for_each(|(e, m)| e.write_mask(m));
        }
    }

    /// One step of every game with `actions[i]` for game `i`; a game that ended on the last
    /// step starts its seed's next game instead. Every output row is written. An action
    /// outside the space is refused before any game moves; a masked placement follows
    /// [`EnvConfig::invalid_action`] (with [`InvalidAction::Error`] the step is refused).
    pub fn step(&mut self, actions: &[i64], out: &mut BatchOut) -> Result<(), EnvError> {
        let n = self.envs.len();
        if actions.len() != n {
            return Err(EnvError::Shape {
                name: "actions",
                got: actions.len(),
                expected: n,
            });
        }
        let placement = self.cfg.mode == Mode::Placement;
        out.check(n, placement)?;
        let size = self.cfg.actions() as i64;
        if let Some(i) = actions.iter().position(|&a| a < 0 || a >= size) {
            return Err(EnvError::OutOfSpace {
                action: actions[i],
                size: size as usize,
                which: format!(" (environment {i})"),
            });
        }
        if placement && self.cfg.invalid_action == InvalidAction::Error {
            if let Some(i) = (0..n).find(|&i| {
                let e = &self.envs[i];
                e.running && !e.locks.iter().any(|l| l.action == actions[i] as usize)
            }) {
                return Err(EnvError::Masked(actions[i]));
            }
        }
        let cfg = &self.cfg;
        let mask_len = if placement { PLACEMENT_ACTIONS } else { 0 };
        let chunk = (n / (4 * rayon::current_num_threads()).max(1)).max(16);
        let mut masks: Vec<&mut [i8]> = if placement {
            out.mask.chunks_mut(mask_len).collect()
        } else {
            (0..n).map(|_| &mut [][..]).collect()
        };
        self.envs
            .par_iter_mut()
            .with_min_len(chunk)
            .zip(self.next_index.par_iter_mut())
            .zip(actions.par_iter())
            .zip(out.board.par_chunks_mut(BOARD_LEN))
            .zip(out.piece.par_chunks_mut(PIECE_LEN))
            .zip(out.stats.par_chunks_mut(STATS_LEN))
            .zip(out.timers.par_chunks_mut(TIMERS_LEN))
            .zip(out.reward.par_iter_mut())
            .zip(out.terminated.par_iter_mut())
            .zip(out.truncated.par_iter_mut())
            .zip(masks.par_iter_mut())
            .for_each(|((((((((((e, k), &a), b), p), s), t), rw), te), tr), m)| {
                let r = if e.running {
                    e.step(cfg, a).unwrap_or_default()
                } else {
                    *e = Env::new(cfg, e.seed, *k);
                    *k += 1;
                    StepResult::default()
                };
                *rw = r.reward;
                *te = r.terminated;
                *tr = r.truncated;
                e.write_obs(b, p, s, t);
                if placement {
                    e.write_mask(m);
                }
            });
        Ok(())
    }
}

/// Whether the piece of `game` is locked where `lock` says: the game has left the
/// under-control state with the piece at the lock's place.
pub fn locked_at(game: &Game, o: Orientation, x: i8, y: i8) -> bool {
    game.play_state != PlayState::PlayerControlsActiveTetrimino
        && game.piece == o as u8
        && game.x as i8 == x
        && game.y as i8 == y
}

/// The lock the AI player plays for the current piece of `game` (it sees the next piece at
/// once: its reaction time is taken as 0), with the inputs it holds from this frame on.
/// `None` when no piece is under control or it does not lock within a few thousand frames.
pub fn ai_choice(cfg: &nestris_ai::AiConfig, game: &Game) -> Option<Lock> {
    if !game.piece_active() {
        return None;
    }
    let mut ai = nestris_ai::Ai::new(nestris_ai::AiConfig {
        reaction: 0,
        ..cfg.clone()
    });
    let mut g = *game;
    let mut inputs = Vec::new();
    while g.piece_active() && inputs.len() < 6000 {
        let b = ai.next_input(&g);
        g.step(b);
        inputs.push(b);
    }
    let o = Orientation::from_id(g.piece)?;
    if g.play_state == PlayState::PlayerControlsActiveTetrimino {
        return None;
    }
    let (x, y) = (g.x as i8, g.y as i8);
    Some(Lock {
        action: placement_action(o, x, y)?,
        orientation: o,
        x,
        y,
        inputs,
        tops_out: g.game_over(),
        index: 0,
    })
}

/// What replaying a recording on the engine gave ([`check_replay`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayCheck {
    /// The game at the end of the replay.
    pub game: Game,
    /// Frames replayed.
    pub frames: u64,
    /// Whether every recorded frame was played (the game did not end early) and the end
    /// is the one the file records.
    pub matches: bool,
}

/// Replays a NES recording headless, as `nestris replay --check` does: its inputs from its
/// start (departures set) until the game ends, and compares the end with the recorded one.
/// `None` for a classic rule set's recording (version 3).
pub fn check_replay(r: &Replay) -> Option<ReplayCheck> {
    if r.classic.is_some() {
        return None;
    }
    let mut game = r.start_game();
    let mut frames = 0u64;
    for &b in &r.inputs {
        if game.ended() {
            break;
        }
        game.step(b);
        frames += 1;
    }
    let matches = frames as usize == r.inputs.len()
        && r.outcome.is_none_or(|o| o == crate::nes::outcome(&game));
    Some(ReplayCheck {
        game,
        frames,
        matches,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placement(level: u8, hz: u32, reaction: u32, kill: bool) -> EnvConfig {
        EnvConfig {
            mode: Mode::Placement,
            level,
            input: InputModel::hz(hz).unwrap(),
            reaction,
            double_killscreen: kill,
            ..EnvConfig::default()
        }
    }

    /// Every unmasked lock, played through the engine from the decision, locks exactly where
    /// its action says; the action index round-trips; over levels, tap speeds, reaction times
    /// and the double killscreen, for the first pieces of a game played by choosing lock
    /// `k mod n`.
    #[test]
    fn every_unmasked_lock_locks_where_it_says() {
        let cases = [
            (0u8, 30u32, 0u32, false, 1u64),
            (9, 15, 0, false, 2),
            (18, 30, 0, false, 3),
            (18, 10, 12, false, 4),
            (19, 20, 0, false, 5),
            (29, 30, 0, false, 6),
            (39, 30, 0, true, 7),
        ];
        let mut checked = 0;
        for (level, hz, reaction, kill, seed) in cases {
            let cfg = placement(level, hz, reaction, kill);
            let mut env = Env::new(&cfg, seed, 0);
            for k in 0..12 {
                if !env.running || env.locks.is_empty() {
                    break;
                }
                for l in &env.placements() {
                    let mut g = env.game;
                    for &b in &l.inputs {
                        assert!(g.piece_active(), "piece left control before the last input");
                        g.step(b);
                    }
                    assert!(
                        locked_at(&g, l.orientation, l.x, l.y),
                        "level {level} hz {hz}: lock {:?} {} {} not reached",
                        l.orientation,
                        l.x,
                        l.y
                    );
                    let kind = l.orientation.kind();
                    assert_eq!(action_lock(kind, l.action), Some((l.orientation, l.x, l.y)));
                    checked += 1;
                }
                let a = env.locks[k * 7 % env.locks.len()].action as i64;
                env.step(&cfg, a).unwrap();
            }
        }
        assert!(checked > 1000, "only {checked} locks checked");
    }

    #[test]
    fn same_seed_same_game_and_masked_actions_follow_the_policy() {
        let cfg = placement(18, 30, 0, false);
        let play = |seed| {
            let mut env = Env::new(&cfg, seed, 0);
            let mut trail = Vec::new();
            while env.running {
                let a = env.locks[0].action as i64;
                trail.push((a, env.step(&cfg, a).unwrap().reward as u64));
            }
            (trail, env.game)
        };
        assert_eq!(play(11), play(11));
        assert_ne!(play(11).0, play(12).0);
        // A masked action: the mask has no index with an orientation slot the piece lacks.
        let mut env = Env::new(&cfg, 3, 0);
        let masked = (0..PLACEMENT_ACTIONS as i64)
            .find(|&a| !env.locks.iter().any(|l| l.action == a as usize))
            .unwrap();
        let before = env.game;
        let r = env.step(&cfg, masked).unwrap();
        assert!(r.terminated && r.invalid && r.reward == -1.0);
        assert_eq!(env.game, before, "a masked action must not move the game");
        assert_eq!(env.step(&cfg, 0), Err(EnvError::NotRunning));
        let strict = EnvConfig {
            invalid_action: InvalidAction::Error,
            ..cfg.clone()
        };
        let mut env = Env::new(&strict, 3, 0);
        assert_eq!(env.step(&strict, masked), Err(EnvError::Masked(masked)));
        assert!(matches!(
            env.step(&strict, PLACEMENT_ACTIONS as i64),
            Err(EnvError::OutOfSpace { .. })
        ));
    }

    /// A batch steps the same games as single environments seeded `seed + i`, and restarts a
    /// game on the step after it ends.
    #[test]
    fn batch_equals_single_games() {
        for mode in [Mode::Frame, Mode::Placement] {
            let cfg = EnvConfig {
                mode,
                level: 19,
                ..EnvConfig::default()
            };
            let n = 5;
            let mut batch = Batch::new(cfg.clone(), n, 40).unwrap();
            let mut singles: Vec<Env> = (0..n as u64).map(|i| Env::new(&cfg, 40 + i, 0)).collect();
            let ml = if mode == Mode::Placement {
                PLACEMENT_ACTIONS
            } else {
                0
            };
            let (mut b, mut p, mut s, mut t) = (
                vec![0; n * 200],
                vec![0; n * 6],
                vec![0; n * 3],
                vec![0; n * 9],
            );
            let (mut rw, mut te, mut tr, mut m) = (
                vec![0.0; n],
                vec![false; n],
                vec![false; n],
                vec![0i8; n * ml],
            );
            let mut ended = 0;
            for step in 0..400 {
                let actions: Vec<i64> = singles
                    .iter()
                    .map(|e| match mode {
                        Mode::Frame => (step % 6) as i64,
                        Mode::Placement => e.locks.first().map_or(0, |l| l.action as i64),
                    })
                    .collect();
                let mut out = BatchOut {
                    board: &mut b,
                    piece: &mut p,
                    stats: &mut s,
                    timers: &mut t,
                    reward: &mut rw,
                    terminated: &mut te,
                    truncated: &mut tr,
                    mask: &mut m,
                };
                batch.step(&actions, &mut out).unwrap();
                for (i, e) in singles.iter_mut().enumerate() {
                    let r = if e.running {
                        e.step(&cfg, actions[i]).unwrap()
                    } else {
                        ended += 1;
                        *e = Env::new(&cfg, e.seed, e.index + 1);
                        StepResult::default()
                    };
                    assert_eq!(batch.envs[i].game, e.game, "{mode:?} step {step} env {i}");
                    assert_eq!((rw[i], te[i]), (r.reward, r.terminated));
                    let mut sb = [0u8; 200];
                    let (mut sp, mut ss, mut st) = ([0; 6], [0; 3], [0; 9]);
                    e.write_obs(&mut sb, &mut sp, &mut ss, &mut st);
                    assert_eq!(&b[i * 200..i * 200 + 200], &sb[..]);
                    assert_eq!(&t[i * 9..i * 9 + 9], &st[..]);
                }
            }
            if mode == Mode::Placement {
                assert!(ended > 0, "no game ended, autoreset untested");
            }
        }
    }

    /// An episode's replay, decoded and played on the engine from its start, ends as the
    /// episode did (topped out, after the curtain).
    #[test]
    fn replay_reproduces_the_episode() {
        for (mode, gt, h) in [
            (Mode::Placement, GameType::A, 0),
            (Mode::Placement, GameType::B, 3),
        ] {
            let cfg = EnvConfig {
                mode,
                level: 15,
                game_type: gt,
                height: h,
                ..EnvConfig::default()
            };
            let mut env = Env::new(&cfg, 9, 0);
            while env.running {
                // The worst lock: the highest, to end soon.
                let a = env.locks.iter().min_by_key(|l| l.y).unwrap().action as i64;
                env.step(&cfg, a).unwrap();
            }
            let replay = Replay::decode(&env.replay(replay_meta()).encode()).unwrap();
            let mut g = replay.start_game();
            for &b in &replay.inputs[..env.inputs.len()] {
                g.step(b);
            }
            assert_eq!(g, env.game);
            for &b in &replay.inputs[env.inputs.len()..] {
                g.step(b);
            }
            assert_eq!(g.ending, nestris_engine::Ending::ToppedOut);
            assert_eq!(Some(crate::nes::outcome(&g)), replay.outcome);
            let c = check_replay(&replay).unwrap();
            assert!(c.matches && c.game == g);
            let mut edited = replay.clone();
            edited.inputs.truncate(env.inputs.len() / 2);
            assert!(!check_replay(&edited).unwrap().matches);
        }
    }

    /// The AI's lock is one of the unmasked actions and its inputs reach it.
    #[test]
    fn ai_choice_is_unmasked() {
        let cfg = placement(18, 30, 0, false);
        let ai = nestris_ai::AiConfig::default();
        let mut env = Env::new(&cfg, 5, 0);
        for _ in 0..20 {
            let l = ai_choice(&ai, &env.game).unwrap();
            assert!(env.locks.iter().any(|m| m.action == l.action), "{l:?}");
            env.step(&cfg, l.action as i64).unwrap();
        }
        assert!(env.running);
    }

    #[test]
    fn bad_options_are_named() {
        let cases: [(EnvConfig, &str); 5] = [
            (
                EnvConfig {
                    height: 6,
                    game_type: GameType::B,
                    ..EnvConfig::default()
                },
                "b_height",
            ),
            (
                EnvConfig {
                    height: 2,
                    ..EnvConfig::default()
                },
                "game_type='B'",
            ),
            (
                EnvConfig {
                    frame_skip: 0,
                    ..EnvConfig::default()
                },
                "frame_skip",
            ),
            (
                EnvConfig {
                    line_cap: Some(0),
                    ..EnvConfig::default()
                },
                "line_cap",
            ),
            (
                EnvConfig {
                    game_type: GameType::B,
                    line_cap: Some(10),
                    ..EnvConfig::default()
                },
                "line_cap",
            ),
        ];
        for (cfg, word) in cases {
            let e = cfg.check().unwrap_err().to_string();
            assert!(e.contains(word), "{e}");
        }
        assert!("placment"
            .parse::<Mode>()
            .unwrap_err()
            .to_string()
            .contains("'placement'"));
    }
}
