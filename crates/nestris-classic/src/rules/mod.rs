//! Rule sets of the classic games and their common interface.
//!
//! * [`relaytris`]: the relay-computer game, turn based on a 10x16 board.
//! * [`qbasic`]: the QBasic tutorial game, a 10x20 well with gravity.
//!
//! Both implement [`ClassicGame`], which offers move-by-move play and the
//! placement interface used by the AI: [`ClassicGame::placements`]
//! enumerates every final position reachable with the rule set's moves,
//! and [`ClassicGame::apply_placement`] plays one.

use thiserror::Error;

use crate::board::{Board, Cell};
use crate::piece::Piece;

mod mechanics;
pub mod qbasic;
pub mod relaytris;

/// One player input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// One column left.
    Left,
    /// One column right.
    Right,
    /// One row down; locks the piece where it is when it cannot move down.
    Down,
    /// Rotate clockwise ("rotate right").
    RotateCw,
    /// Rotate counter-clockwise ("rotate left").
    RotateCcw,
    /// Drop straight down and lock.
    HardDrop,
}

impl Move {
    /// A one-letter name: `L R D C W H` (C = clockwise, W = widdershins).
    pub fn letter(self) -> char {
        match self {
            Move::Left => 'L',
            Move::Right => 'R',
            Move::Down => 'D',
            Move::RotateCw => 'C',
            Move::RotateCcw => 'W',
            Move::HardDrop => 'H',
        }
    }
}

/// Formats a move list with [`Move::letter`].
pub fn move_letters(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// The falling piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ActivePiece {
    /// Which piece.
    pub piece: Piece,
    /// Rotation state, `0..` the rule set's number of states for the piece.
    pub rotation: u8,
    /// Column of the piece's reference point (rule-set specific).
    pub x: i32,
    /// Row of the piece's reference point (rule-set specific).
    pub y: i32,
}

/// A final (locked) position of the current piece and a way to reach it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The piece.
    pub piece: Piece,
    /// Rotation state when it locks.
    pub rotation: u8,
    /// Reference column when it locks.
    pub x: i32,
    /// Reference row when it locks.
    pub y: i32,
    /// The board cells it occupies, sorted by `(y, x)`.
    pub cells: [Cell; 4],
    /// A shortest move list from the current position, ending in the move
    /// that locks it (`Down` against the stack, or `HardDrop`).
    pub moves: Vec<Move>,
}

/// Errors of the game interface.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    /// The game is over; there is no current piece.
    #[error("the game is over")]
    GameOver,
    /// A placement's moves do not lock the current piece where it says.
    #[error("placement does not match the current piece or board")]
    PlacementMismatch,
    /// A starting board of the wrong size.
    #[error("board is {got_width}x{got_height}, the rule set needs {width}x{height}")]
    BoardSize {
        /// Required width.
        width: usize,
        /// Required height.
        height: usize,
        /// Given width.
        got_width: usize,
        /// Given height.
        got_height: usize,
    },
}

/// What a piece lock did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockResult {
    /// Rows cleared by the lock.
    pub lines: u32,
    /// Whether the next piece could not be placed (the game is now over).
    pub game_over: bool,
}

/// The interface shared by the classic rule sets.
pub trait ClassicGame {
    /// Short rule-set name (`relaytris`, `qbasic`).
    fn name(&self) -> &'static str;
    /// The settled cells.
    fn board(&self) -> &Board;
    /// Board width in columns.
    fn width(&self) -> usize {
        self.board().width()
    }
    /// Board height in rows.
    fn height(&self) -> usize {
        self.board().height()
    }
    /// Whether a settled block is at `(x, y)` (row 0 = top); `false`
    /// outside the board. The falling piece is not included.
    fn is_filled(&self, x: i32, y: i32) -> bool {
        self.board().is_filled(x, y)
    }
    /// Settled cells as rows of booleans, top row first.
    fn cells(&self) -> Vec<Vec<bool>> {
        self.board().cells()
    }
    /// Settled cells as row bitmasks (bit x = column x, row 0 = top).
    fn rows(&self) -> &[u16] {
        self.board().rows()
    }
    /// The moves this rule set accepts; others are ignored.
    fn allowed_moves(&self) -> &'static [Move];
    /// The falling piece, or `None` when the game is over.
    fn current(&self) -> Option<ActivePiece>;
    /// The cells of the falling piece.
    fn current_cells(&self) -> Option<[Cell; 4]>;
    /// The cells `piece` would occupy in `rotation` at `(x, y)` under this
    /// rule set (`None` for a rotation the piece does not have).
    fn piece_cells(&self, piece: Piece, rotation: u8, x: i32, y: i32) -> Option<[Cell; 4]>;
    /// The piece that comes after the current one.
    fn next_piece(&self) -> Piece;
    /// Applies one move; returns whether anything changed (a blocked move,
    /// a move the rule set lacks, or any move after game over returns
    /// `false`). A `Down` that is blocked locks the piece.
    fn apply_move(&mut self, mv: Move) -> bool;
    /// Drops the current piece straight down and locks it.
    fn drop_and_lock(&mut self) -> Result<LockResult, GameError>;
    /// Total rows cleared.
    fn lines_cleared(&self) -> u32;
    /// Score (both rule sets score one point per cleared row).
    fn score(&self) -> u64;
    /// Number of pieces locked so far.
    fn pieces_locked(&self) -> u32;
    /// Whether the game is over.
    fn is_game_over(&self) -> bool {
        self.current().is_none()
    }
    /// Every distinct final placement of the current piece reachable with
    /// the rule set's moves (breadth first over `(x, y, rotation)`), each
    /// with a shortest move list. Placements that cover the same cells are
    /// reported once. Empty when the game is over.
    fn placements(&self) -> Vec<Placement>;
    /// The board after `placement` locks (and rows clear), with the number
    /// of rows cleared; does not check reachability.
    fn board_after(&self, placement: &Placement) -> (Board, u32) {
        let mut board = self.board().clone();
        let lines = board.lock(&placement.cells);
        (board, lines)
    }
    /// Plays `placement`'s moves. Nothing changes if they do not lock the
    /// current piece at `placement.cells`.
    fn apply_placement(&mut self, placement: &Placement) -> Result<LockResult, GameError>;
}

/// Counts the placement sequences of `depth` pieces from `game` (a perft
/// count): 1 at depth 0, else the sum over [`ClassicGame::placements`] of
/// the count one level down.
pub fn perft<G: ClassicGame + Clone>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let placements = game.placements();
    if depth == 1 {
        return placements.len() as u64;
    }
    placements
        .iter()
        .map(|p| {
            let mut child = game.clone();
            match child.apply_placement(p) {
                Ok(_) => perft(&child, depth - 1),
                Err(_) => 0,
            }
        })
        .sum()
}
