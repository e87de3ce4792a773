//! The relay-computer game.
//!
//! A 10-column, 16-row board; pieces come in the fixed cycle I O T S J Z L;
//! the player moves left, right, down, rotates left or right, or hard
//! drops. There is no gravity: the game waits for each move. A `Down` that
//! is blocked locks the piece, as does a hard drop. Each cleared row scores
//! one point. The game is over when a new piece cannot be placed.
//!
//! Rotation states are those of the Super Rotation System without its wall
//! kicks (a blocked rotation does nothing): J L S T Z turn in a 3x3 box, I
//! in a 4x4 box, and O has a single state in a 2x2 box. The reference point
//! `(x, y)` of [`ActivePiece`] is the top-left corner of
//! the box. Pieces spawn in state 0 with the box in row 0, horizontally
//! centred: the 3-wide boxes and the I's box start at column 3, the O's at
//! column 4. (So the I spawns flat in row 1, the second row of its box.)
//!
//! The console showed the board with `~` for empty and `#` for filled
//! cells; [`Relaytris::render`] reproduces that.

use super::mechanics::{delegate_classic_game, Core, Rules};
use super::{ActivePiece, GameError, Move};
use crate::board::{Board, Cell};
use crate::piece::Piece;
use crate::randomizer::{AnyRandomizer, Cycle};

/// Board width.
pub const WIDTH: usize = 10;
/// Board height.
pub const HEIGHT: usize = 16;

/// The moves of the relay-computer game.
pub const MOVES: [Move; 6] = [
    Move::Left,
    Move::Right,
    Move::Down,
    Move::RotateCcw,
    Move::RotateCw,
    Move::HardDrop,
];

#[derive(Debug, Clone, Copy)]
pub(crate) struct RelayRules;

/// SRS states: [piece][rotation] cell offsets in the box, (x, y).
const T: [[Cell; 4]; 4] = [
    [(1, 0), (0, 1), (1, 1), (2, 1)],
    [(1, 0), (1, 1), (2, 1), (1, 2)],
    [(0, 1), (1, 1), (2, 1), (1, 2)],
    [(1, 0), (0, 1), (1, 1), (1, 2)],
];
const J: [[Cell; 4]; 4] = [
    [(0, 0), (0, 1), (1, 1), (2, 1)],
    [(1, 0), (2, 0), (1, 1), (1, 2)],
    [(0, 1), (1, 1), (2, 1), (2, 2)],
    [(1, 0), (1, 1), (0, 2), (1, 2)],
];
const L: [[Cell; 4]; 4] = [
    [(2, 0), (0, 1), (1, 1), (2, 1)],
    [(1, 0), (1, 1), (1, 2), (2, 2)],
    [(0, 1), (1, 1), (2, 1), (0, 2)],
    [(0, 0), (1, 0), (1, 1), (1, 2)],
];
const S: [[Cell; 4]; 4] = [
    [(1, 0), (2, 0), (0, 1), (1, 1)],
    [(1, 0), (1, 1), (2, 1), (2, 2)],
    [(1, 1), (2, 1), (0, 2), (1, 2)],
    [(0, 0), (0, 1), (1, 1), (1, 2)],
];
const Z: [[Cell; 4]; 4] = [
    [(0, 0), (1, 0), (1, 1), (2, 1)],
    [(2, 0), (1, 1), (2, 1), (1, 2)],
    [(0, 1), (1, 1), (1, 2), (2, 2)],
    [(1, 0), (0, 1), (1, 1), (0, 2)],
];
const I: [[Cell; 4]; 4] = [
    [(0, 1), (1, 1), (2, 1), (3, 1)],
    [(2, 0), (2, 1), (2, 2), (2, 3)],
    [(0, 2), (1, 2), (2, 2), (3, 2)],
    [(1, 0), (1, 1), (1, 2), (1, 3)],
];
const O: [Cell; 4] = [(0, 0), (1, 0), (0, 1), (1, 1)];

impl Rules for RelayRules {
    const WIDTH: usize = WIDTH;
    const HEIGHT: usize = HEIGHT;
    const MOVES: &'static [Move] = &MOVES;

    fn rotations(piece: Piece) -> u8 {
        if piece == Piece::O {
            1
        } else {
            4
        }
    }

    fn offsets(piece: Piece, rotation: u8) -> [Cell; 4] {
        let r = usize::from(rotation % 4);
        match piece {
            Piece::T => T[r],
            Piece::J => J[r],
            Piece::L => L[r],
            Piece::S => S[r],
            Piece::Z => Z[r],
            Piece::I => I[r],
            Piece::O => O,
        }
    }

    fn spawn(piece: Piece) -> ActivePiece {
        ActivePiece {
            piece,
            rotation: 0,
            x: if piece == Piece::O { 4 } else { 3 },
            y: 0,
        }
    }
}

/// A game of the relay-computer Tetris.
#[derive(Debug, Clone)]
pub struct Relaytris {
    core: Core<RelayRules>,
}

impl Default for Relaytris {
    fn default() -> Self {
        Self::new()
    }
}

impl Relaytris {
    /// A new game on an empty board with the original fixed piece cycle.
    pub fn new() -> Self {
        Self::with_randomizer(AnyRandomizer::Cycle(Cycle::new()))
    }

    /// A new game on an empty board with another piece source.
    pub fn with_randomizer(randomizer: AnyRandomizer) -> Self {
        Relaytris {
            core: Core::new(Core::<RelayRules>::empty_board(), randomizer),
        }
    }

    /// A game starting from `board` (10x16). If the first piece does not
    /// fit, the game is over from the start.
    pub fn with_board(board: Board, randomizer: AnyRandomizer) -> Result<Self, GameError> {
        Core::<RelayRules>::check_size(&board)?;
        Ok(Relaytris {
            core: Core::new(board, randomizer),
        })
    }

    /// The board as the serial console showed it: 16 lines of 10
    /// characters, `#` for a filled cell (settled or falling) and `~` for
    /// an empty one, each line ending in `\n`.
    pub fn render(&self) -> String {
        self.core.picture('#', '~')
    }
}

delegate_classic_game!(Relaytris, RelayRules, "relaytris");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomizer::FileSequence;
    use crate::rules::{move_letters, ClassicGame, LockResult};

    fn pieces(letters: &str) -> AnyRandomizer {
        AnyRandomizer::File(FileSequence::from_text(letters).unwrap_or_else(|e| panic!("{e}")))
    }

    fn board(picture: &str) -> Board {
        Board::from_picture(picture).unwrap_or_else(|e| panic!("{e}"))
    }

    fn game(picture: &str, letters: &str) -> Relaytris {
        Relaytris::with_board(board(picture), pieces(letters)).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A 10x16 picture: `rows` at the bottom, empty rows above.
    fn bottom(rows: &[&str]) -> String {
        let mut s = "..........\n".repeat(HEIGHT - rows.len());
        for r in rows {
            s.push_str(r);
            s.push('\n');
        }
        s
    }

    #[test]
    fn rotation_states_are_distinct_tetrominoes() {
        for piece in Piece::ALL {
            let n = RelayRules::rotations(piece);
            for r in 0..n {
                let cells = RelayRules::offsets(piece, r);
                // Four distinct cells, edge-connected.
                for (i, a) in cells.iter().enumerate() {
                    assert!(!cells[i + 1..].contains(a));
                    assert!(cells
                        .iter()
                        .any(|b| (a.0 - b.0).abs() + (a.1 - b.1).abs() == 1));
                }
            }
        }
    }

    #[test]
    fn render_initial_and_after_drop() {
        let mut g = Relaytris::new();
        let empty = "~~~~~~~~~~\n";
        let expected = format!("{empty}~~~####~~~\n{}", empty.repeat(14));
        assert_eq!(g.render(), expected);
        assert_eq!(g.current().map(|p| p.piece), Some(Piece::I));
        assert_eq!(g.next_piece(), Piece::O);
        assert!(g.apply_move(Move::HardDrop));
        // The I lies on the floor; the O has appeared at columns 4-5.
        let expected = format!("~~~~##~~~~\n~~~~##~~~~\n{}~~~####~~~\n", empty.repeat(13));
        assert_eq!(g.render(), expected);
        assert_eq!(g.next_piece(), Piece::T);
    }

    #[test]
    fn line_clears() {
        // A single line with the spawn-position I.
        let mut g = game(&bottom(&["###....###"]), "I");
        assert_eq!(
            g.drop_and_lock(),
            Ok(LockResult {
                lines: 1,
                game_over: false
            })
        );
        assert_eq!(g.lines_cleared(), 1);
        assert_eq!(g.score(), 1);
        assert!(g.rows().iter().all(|&r| r == 0));

        // Four lines with a vertical I in the right-hand column.
        let mut g = game(
            &bottom(&[
                "#.........",
                "#########.",
                "#########.",
                "#########.",
                "#########.",
            ]),
            "I",
        );
        assert!(g.apply_move(Move::RotateCw));
        for _ in 0..4 {
            assert!(g.apply_move(Move::Right));
        }
        assert!(!g.apply_move(Move::Right));
        assert!(g.apply_move(Move::HardDrop));
        assert_eq!(g.lines_cleared(), 4);
        assert_eq!(g.board().rows()[HEIGHT - 1], 0b1);
        assert_eq!(g.board().stack_height(), 1);
    }

    #[test]
    fn blocked_down_locks() {
        let mut g = game(&bottom(&[]), "O");
        // The O spawns in rows 0-1 and can move down 14 rows.
        for _ in 0..14 {
            assert!(g.apply_move(Move::Down));
        }
        assert_eq!(g.pieces_locked(), 0);
        assert!(g.apply_move(Move::Down));
        assert_eq!(g.pieces_locked(), 1);
        assert_eq!(g.board().rows()[HEIGHT - 1], 0b11_0000);
    }

    #[test]
    fn game_over_when_spawn_is_blocked() {
        // Each O dropped at spawn adds two rows in columns 4-5; the board
        // has 16 rows, so eight fit and the ninth cannot appear.
        let mut g = game(&bottom(&[]), "O");
        for i in 0..8 {
            assert!(!g.is_game_over(), "piece {i}");
            let r = g.drop_and_lock().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(r.game_over, i == 7);
        }
        assert!(g.is_game_over());
        assert_eq!(g.pieces_locked(), 8);
        assert_eq!(g.current(), None);
        assert!(!g.apply_move(Move::Left));
        assert!(g.placements().is_empty());
        assert_eq!(g.drop_and_lock(), Err(GameError::GameOver));
        // A board whose spawn area is already filled is over at once.
        let mut full = bottom(&[]);
        full.replace_range(0..10, "....#.....");
        assert!(game(&full, "T").is_game_over());
    }

    #[test]
    fn rotation_blocked_at_walls() {
        let mut g = game(&bottom(&[]), "I");
        assert!(g.apply_move(Move::RotateCw)); // vertical, column 5
        for _ in 0..5 {
            assert!(g.apply_move(Move::Left));
        }
        assert!(!g.apply_move(Move::Left));
        let before = g.current();
        assert_eq!(g.current_cells().map(|c| c[0].0), Some(0));
        // Both rotations would put cells at columns -2..=1: no kick.
        assert!(!g.apply_move(Move::RotateCw));
        assert!(!g.apply_move(Move::RotateCcw));
        assert_eq!(g.current(), before);

        // The T in state L occupies box columns 0-1; against the right
        // wall (box at x = 8) states 0 and 2 would need column 10.
        let mut g = game(&bottom(&[]), "T");
        assert!(g.apply_move(Move::RotateCcw));
        while g.apply_move(Move::Right) {}
        assert_eq!(g.current().map(|p| (p.rotation, p.x)), Some((3, 8)));
        assert!(!g.apply_move(Move::RotateCw));
        assert!(!g.apply_move(Move::RotateCcw));
        // One step left, it turns freely.
        assert!(g.apply_move(Move::Left));
        assert!(g.apply_move(Move::RotateCw));
        // The O does not rotate at all.
        let mut g = game(&bottom(&[]), "O");
        assert!(!g.apply_move(Move::RotateCw));
    }

    #[test]
    fn placements_on_empty_board() {
        // Each distinct cell set counts once. On an empty 10-wide floor a
        // piece w columns wide has 11 - w positions per distinct
        // orientation: O 9; I 7 + 10; S, Z 8 + 9; J, L, T 2 * (8 + 9).
        for (letter, count) in [
            ("O", 9),
            ("I", 17),
            ("S", 17),
            ("Z", 17),
            ("J", 34),
            ("L", 34),
            ("T", 34),
        ] {
            let g = game(&bottom(&[]), letter);
            let placements = g.placements();
            assert_eq!(placements.len(), count, "{letter}");
            for p in &placements {
                assert!(p.cells.iter().any(|&(_, y)| y == HEIGHT as i32 - 1));
            }
        }
        // Shortest routes: the spawn position is one hard drop away.
        let g = game(&bottom(&[]), "I");
        let moves: Vec<String> = g
            .placements()
            .iter()
            .map(|p| move_letters(&p.moves))
            .collect();
        assert_eq!(moves[0], "H");
        assert!(moves.contains(&"LLLWLH".to_string()) || moves.contains(&"WLLLLH".to_string()));
    }

    #[test]
    fn bad_board_size() {
        let b = Board::new(10, 20).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            Relaytris::with_board(b, pieces("I")),
            Err(GameError::BoardSize {
                width: 10,
                height: 16,
                ..
            })
        ));
    }
}
