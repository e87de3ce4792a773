//! The QBasic tutorial game.
//!
//! A 10-column, 20-row well. Each piece has four rotation states given as
//! 4x4 bit patterns (bit 15 = top-left, rows read left to right, top to
//! bottom), in this order:
//!
//! | group | patterns              | shape                          |
//! |-------|-----------------------|--------------------------------|
//! | 0     | `0660 0660 0660 0660` | O (2x2 in the middle)          |
//! | 1     | `2222 0F00 2222 0F00` | I (vertical in column 2 / flat in row 1) |
//! | 2     | `0360 4620 0360 4620` | S (`.##` over `##.`)           |
//! | 3     | `0630 2640 0630 2640` | Z (`##.` over `.##`)           |
//! | 4     | `4460 0740 0622 02E0` | L (upright L, then clockwise)  |
//! | 5     | `2260 0470 0644 0E20` | J (upright J, then clockwise)  |
//! | 6     | `0270 0464 0E40 2620` | T (pointing up, right, down, left) |
//!
//! For instance `0360` has rows `0000 0011 0110 0000`, the S; `4460` has
//! rows `0100 0100 0110 0000`, an L standing on its foot; `0270` has rows
//! `0000 0010 0111 0000`, a T pointing up. The next pattern of a group is
//! always the previous one turned clockwise, so "rotate" steps forward
//! through the group; there is no counter-clockwise rotation and no wall
//! kick.
//!
//! The reference point `(x, y)` of [`ActivePiece`] is
//! the bottom-right cell of the 4x4 box. A new piece appears in rotation 0
//! with its box in rows 0..=3 and columns 3..=6 (anchor `(6, 3)`); if it
//! overlaps the stack the game is over.
//!
//! Moves are left, right, rotate and soft down; gravity moves the piece
//! down one row every 60 frames (one second at 60 Hz, see
//! [`Qbasic::step_frame`]). A piece locks when it should move down (by
//! gravity or by the player) and cannot. Pieces are independent and uniform
//! ([`Uniform`]). Each cleared row scores one point.
//!
//! For [`ClassicGame::placements`] gravity
//! is assumed slow enough that any sequence of left/right/rotate/down moves
//! fits between two gravity steps: the search is over those four moves, and
//! a piece locks only by a blocked `Down`.

use super::mechanics::{delegate_classic_game, Core, Rules};
use super::{ActivePiece, GameError, LockResult, Move};
use crate::board::{Board, Cell};
use crate::piece::Piece;
use crate::randomizer::{AnyRandomizer, Uniform};

/// Well width.
pub const WIDTH: usize = 10;
/// Well height.
pub const HEIGHT: usize = 20;
/// Frames between gravity steps by default (one second at 60 Hz).
pub const GRAVITY_EVERY: u32 = 60;

/// The moves of the QBasic game.
pub const MOVES: [Move; 4] = [Move::Left, Move::Right, Move::RotateCw, Move::Down];

/// The 28 patterns: seven groups (O I S Z L J T) of four rotations.
pub const PATTERNS: [[u16; 4]; 7] = [
    [0x0660, 0x0660, 0x0660, 0x0660],
    [0x2222, 0x0F00, 0x2222, 0x0F00],
    [0x0360, 0x4620, 0x0360, 0x4620],
    [0x0630, 0x2640, 0x0630, 0x2640],
    [0x4460, 0x0740, 0x0622, 0x02E0],
    [0x2260, 0x0470, 0x0644, 0x0E20],
    [0x0270, 0x0464, 0x0E40, 0x2620],
];

/// The piece of each group of [`PATTERNS`].
pub const GROUP_PIECES: [Piece; 7] = [
    Piece::O,
    Piece::I,
    Piece::S,
    Piece::Z,
    Piece::L,
    Piece::J,
    Piece::T,
];

/// Cells of a 4x4 pattern relative to its bottom-right cell, in reading
/// order. Patterns with other than four bits give `None`.
pub const fn decode_pattern(pattern: u16) -> Option<[Cell; 4]> {
    let mut cells = [(0, 0); 4];
    let mut n = 0;
    let mut i: i32 = 0;
    while i < 16 {
        if pattern & (0x8000 >> i) != 0 {
            if n == 4 {
                return None;
            }
            cells[n] = (i % 4 - 3, i / 4 - 3);
            n += 1;
        }
        i += 1;
    }
    if n == 4 {
        Some(cells)
    } else {
        None
    }
}

const fn decode_all() -> [[[Cell; 4]; 4]; 7] {
    let mut out = [[[(0, 0); 4]; 4]; 7];
    let mut g = 0;
    while g < 7 {
        let mut r = 0;
        while r < 4 {
            out[g][r] = match decode_pattern(PATTERNS[g][r]) {
                Some(cells) => cells,
                None => panic!("pattern without four cells"),
            };
            r += 1;
        }
        g += 1;
    }
    out
}

/// Decoded at compile time (a bad pattern fails the build, not a run).
const SHAPES: [[[Cell; 4]; 4]; 7] = decode_all();

fn group_of(piece: Piece) -> usize {
    match piece {
        Piece::O => 0,
        Piece::I => 1,
        Piece::S => 2,
        Piece::Z => 3,
        Piece::L => 4,
        Piece::J => 5,
        Piece::T => 6,
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct QbasicRules;

impl Rules for QbasicRules {
    const WIDTH: usize = WIDTH;
    const HEIGHT: usize = HEIGHT;
    const MOVES: &'static [Move] = &MOVES;

    fn rotations(_piece: Piece) -> u8 {
        4
    }

    fn offsets(piece: Piece, rotation: u8) -> [Cell; 4] {
        SHAPES[group_of(piece)][usize::from(rotation % 4)]
    }

    fn spawn(piece: Piece) -> ActivePiece {
        ActivePiece {
            piece,
            rotation: 0,
            x: 6,
            y: 3,
        }
    }
}

/// What happened during one frame of [`Qbasic::step_frame`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FrameOutcome {
    /// The input changed the piece (moved, rotated or locked it).
    pub input_applied: bool,
    /// Gravity acted this frame.
    pub gravity: bool,
    /// A piece locked this frame (by input or gravity).
    pub lock: Option<LockResult>,
}

/// A game of the QBasic tutorial Tetris.
#[derive(Debug, Clone)]
pub struct Qbasic {
    core: Core<QbasicRules>,
    gravity_every: u32,
    timer: u32,
    frame: u64,
}

impl Qbasic {
    /// A new game with uniform random pieces from `seed`.
    pub fn new(seed: u64) -> Self {
        Self::with_randomizer(AnyRandomizer::Uniform(Uniform::new(seed)))
    }

    /// A new game on an empty well with another piece source.
    pub fn with_randomizer(randomizer: AnyRandomizer) -> Self {
        Self::from_core(Core::new(Core::<QbasicRules>::empty_board(), randomizer))
    }

    /// A game starting from `board` (10x20). If the first piece does not
    /// fit, the game is over from the start.
    pub fn with_board(board: Board, randomizer: AnyRandomizer) -> Result<Self, GameError> {
        Core::<QbasicRules>::check_size(&board)?;
        Ok(Self::from_core(Core::new(board, randomizer)))
    }

    fn from_core(core: Core<QbasicRules>) -> Self {
        Qbasic {
            core,
            gravity_every: GRAVITY_EVERY,
            timer: 0,
            frame: 0,
        }
    }

    /// Frames between gravity steps.
    pub fn gravity_every(&self) -> u32 {
        self.gravity_every
    }

    /// Sets the frames between gravity steps (0 is taken as 1).
    pub fn set_gravity_every(&mut self, frames: u32) {
        self.gravity_every = frames.max(1);
    }

    /// Frames run so far.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// Runs one frame: applies `input` (if any), then counts the frame
    /// towards gravity; every [`Qbasic::gravity_every`] frames the piece
    /// moves down one row, or locks if it cannot. The gravity timer runs
    /// continuously, like the game's clock, and is not reset by a new
    /// piece. Nothing happens once the game is over.
    pub fn step_frame(&mut self, input: Option<Move>) -> FrameOutcome {
        let mut outcome = FrameOutcome::default();
        if self.core.current.is_none() {
            return outcome;
        }
        if let Some(mv) = input {
            let (changed, lock) = self.core.apply_move(mv);
            outcome.input_applied = changed;
            outcome.lock = lock;
        }
        self.frame += 1;
        self.timer += 1;
        if self.timer >= self.gravity_every {
            self.timer = 0;
            if self.core.current.is_some() {
                outcome.gravity = true;
                let (_, lock) = self.core.apply_move(Move::Down);
                if lock.is_some() {
                    outcome.lock = lock;
                }
            }
        }
        outcome
    }

    /// The well as text: `#` filled (settled or falling), `.` empty, one
    /// line per row ending in `\n`.
    pub fn render(&self) -> String {
        self.core.picture('#', '.')
    }
}

delegate_classic_game!(Qbasic, QbasicRules, "qbasic");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::FileSequence;
    use crate::rules::relaytris::RelayRules;
    use crate::rules::ClassicGame;

    fn pieces(letters: &str) -> AnyRandomizer {
        AnyRandomizer::File(FileSequence::from_text(letters).unwrap_or_else(|e| panic!("{e}")))
    }

    fn bottom(rows: &[&str]) -> Board {
        let mut s = "..........\n".repeat(HEIGHT - rows.len());
        for r in rows {
            s.push_str(r);
            s.push('\n');
        }
        Board::from_picture(&s).unwrap_or_else(|e| panic!("{e}"))
    }

    fn game(rows: &[&str], letters: &str) -> Qbasic {
        Qbasic::with_board(bottom(rows), pieces(letters)).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Cells shifted so the minimum x and y are 0, sorted.
    fn normalize(cells: [Cell; 4]) -> Vec<Cell> {
        let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let mut v: Vec<Cell> = cells.iter().map(|&(x, y)| (x - min_x, y - min_y)).collect();
        v.sort_unstable();
        v
    }

    fn turned_cw(cells: [Cell; 4]) -> [Cell; 4] {
        // (x, y) -> (-y, x) turns clockwise with y pointing down.
        cells.map(|(x, y)| (-y, x))
    }

    #[test]
    fn decode_examples() {
        // 0360 = rows 0000 0011 0110 0000: the S.
        assert_eq!(
            decode_pattern(0x0360),
            Some([(-1, -2), (0, -2), (-2, -1), (-1, -1)])
        );
        assert_eq!(
            decode_pattern(0x0F00),
            Some([(-3, -2), (-2, -2), (-1, -2), (0, -2)])
        );
        assert_eq!(decode_pattern(0x0F0F), None);
        assert_eq!(decode_pattern(0x0007), None);
    }

    /// The letters assigned to the groups agree with the independently
    /// written SRS shapes of the relay game, and each pattern is the
    /// previous one turned clockwise.
    #[test]
    fn groups_are_the_named_pieces_turning_clockwise() {
        for (g, &piece) in GROUP_PIECES.iter().enumerate() {
            assert_eq!(group_of(piece), g);
            let srs: Vec<Vec<Cell>> = (0..RelayRules::rotations(piece))
                .map(|r| normalize(RelayRules::offsets(piece, r)))
                .collect();
            for r in 0..4 {
                let shape = SHAPES[g][r];
                assert!(srs.contains(&normalize(shape)), "{piece} rotation {r}");
                assert_eq!(
                    normalize(turned_cw(shape)),
                    normalize(SHAPES[g][(r + 1) % 4]),
                    "{piece} rotation {r}"
                );
            }
        }
    }

    #[test]
    fn gravity_every_60_frames() {
        let mut g = game(&[], "I");
        // The I spawns vertical in column 5, rows 0-3 (anchor (6, 3)).
        assert_eq!(g.current_cells(), Some([(5, 0), (5, 1), (5, 2), (5, 3)]));
        for _ in 0..59 {
            assert!(!g.step_frame(None).gravity);
        }
        assert_eq!(g.current().map(|p| p.y), Some(3));
        let out = g.step_frame(None);
        assert!(out.gravity && out.lock.is_none());
        assert_eq!(g.current().map(|p| p.y), Some(4));
        // 16 rows to fall in all, the 17th gravity step locks.
        for _ in 0..15 * 60 {
            assert!(g.step_frame(None).lock.is_none());
        }
        assert_eq!(g.current().map(|p| p.y), Some(19));
        for _ in 0..59 {
            g.step_frame(None);
        }
        let out = g.step_frame(None);
        assert_eq!(
            out.lock,
            Some(LockResult {
                lines: 0,
                game_over: false
            })
        );
        assert_eq!(g.pieces_locked(), 1);
        assert_eq!(g.frame(), 17 * 60);
        assert_eq!(g.board().column_heights()[5], 4);

        // Input is applied before gravity in the same frame.
        let mut g = game(&[], "O");
        g.set_gravity_every(1);
        let out = g.step_frame(Some(Move::Left));
        assert!(out.input_applied && out.gravity);
        assert_eq!(g.current().map(|p| (p.x, p.y)), Some((5, 4)));
    }

    #[test]
    fn only_its_own_moves() {
        let mut g = game(&[], "T");
        let before = g.current();
        assert!(!g.apply_move(Move::RotateCcw));
        assert!(!g.apply_move(Move::HardDrop));
        assert_eq!(g.current(), before);
        assert_eq!(g.allowed_moves(), &MOVES);
    }

    #[test]
    fn line_clears() {
        let rows = [
            "#.........",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
        ];
        let mut g = game(&rows, "I");
        for _ in 0..4 {
            assert!(g.apply_move(Move::Right));
        }
        assert!(!g.apply_move(Move::Right));
        let r = g.drop_and_lock().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.lines, 4);
        assert_eq!(g.lines_cleared(), 4);
        assert_eq!(g.score(), 4);
        assert_eq!(g.board().rows()[HEIGHT - 1], 0b1);
        assert_eq!(g.board().stack_height(), 1);
    }

    #[test]
    fn game_over_on_arrival() {
        // The O appears in rows 1-2 (its pattern's middle rows). Nine O's
        // stacked at the spawn column fill rows 2..=19; the tenth overlaps
        // row 2 on arrival.
        let mut g = game(&[], "O");
        for i in 0..9 {
            let r = g.drop_and_lock().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(r.game_over, i == 8);
        }
        assert!(g.is_game_over());
        assert_eq!(g.pieces_locked(), 9);
        assert_eq!(g.board().column_heights()[4], 18);
        assert_eq!(g.step_frame(Some(Move::Left)), FrameOutcome::default());
        assert!(g.placements().is_empty());
    }

    #[test]
    fn rotation_blocked_at_walls() {
        // Vertical I (rotation 0) in column 9: the flat pattern 0F00 would
        // need columns 7..=10.
        let mut g = game(&[], "I");
        while g.apply_move(Move::Right) {}
        assert_eq!(g.current().map(|p| p.x), Some(10));
        assert!(!g.apply_move(Move::RotateCw));
        assert_eq!(g.current().map(|p| p.rotation), Some(0));
        // At the left wall (column 0 is box column 2, anchor x = 1) it
        // would need columns -2..=1.
        while g.apply_move(Move::Left) {}
        assert_eq!(g.current().map(|p| p.x), Some(1));
        assert!(!g.apply_move(Move::RotateCw));
        // Two columns in, it turns.
        assert!(g.apply_move(Move::Right));
        assert!(g.apply_move(Move::Right));
        assert!(g.apply_move(Move::RotateCw));
        assert_eq!(g.current_cells().map(|c| c[0]), Some((0, 1)));
        // The L (4460, columns 1-2 of its box) at the right wall has its
        // box at anchor x = 10, and 0740 (box columns 1-3) would need
        // column 10.
        let mut g = game(&[], "L");
        while g.apply_move(Move::Right) {}
        assert_eq!(g.current().map(|p| p.x), Some(10));
        assert!(!g.apply_move(Move::RotateCw));
    }

    #[test]
    fn placements_on_empty_well() {
        // O: 9 columns pairs. I: 10 vertical + 7 flat. S, Z: 8 flat + 9
        // upright. L, J, T: 2 * (8 + 9). Identical patterns (all of the
        // O's, half of I/S/Z) count once.
        for (letter, count) in [
            ("O", 9),
            ("I", 17),
            ("S", 17),
            ("Z", 17),
            ("J", 34),
            ("L", 34),
            ("T", 34),
        ] {
            let g = game(&[], letter);
            assert_eq!(g.placements().len(), count, "{letter}");
        }
        // Every placement ends in the blocked Down that locks it.
        let g = game(&[], "T");
        for p in g.placements() {
            assert_eq!(p.moves.last(), Some(&Move::Down));
        }
    }
}
