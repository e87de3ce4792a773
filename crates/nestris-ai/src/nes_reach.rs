//! The NES rule set as the AI's [`Reach`]: the locks the frame-exact search finds under the
//! game's timing ([`Search`]), each with the controller bytes that reach it, the board each
//! leaves, and the position after it (the next piece spawned at the level after the clear).
//! The analysis (`nestris best`) ranks these locks with [`crate::reach::lock_values`].

use nestris_engine::{Orientation, PieceKind};

use crate::board::Board;
use crate::eval::MoveSummary;
use crate::input::InputModel;
use crate::reach::{Landing, Reach};
use crate::search::{Search, Timing};

/// A NES position: the board, the falling piece where it is, its timing, and the next piece
/// when it is known.
#[derive(Clone, Debug)]
pub struct NesReach {
    /// The settled cells.
    pub board: Board,
    /// The falling piece's orientation.
    pub piece: Orientation,
    /// Its column.
    pub x: i8,
    /// Its row.
    pub y: i8,
    /// Gravity after the root frame.
    pub timing: Timing,
    /// Tap speed.
    pub input: InputModel,
    /// The buttons held on the root frame (a press needs a release first).
    pub prev_input: u8,
    /// The line counter as the game keeps it (for the level after a clear).
    pub lines: u16,
    /// The next piece, if known. [`Reach::after`] needs it.
    pub next: Option<PieceKind>,
}

/// A lock of the falling piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NesLock {
    /// Orientation at lock.
    pub orientation: Orientation,
    /// Column.
    pub x: i8,
    /// Row.
    pub y: i8,
    /// The frame (after the root) on which it locks.
    pub frame: u32,
    /// Whether the lock tops out (it leaves minos in the hidden rows).
    pub tops_out: bool,
    /// Its index in the search.
    pub index: usize,
}

/// Rows between the floor and the piece's lowest mino.
fn lock_height(o: Orientation, y: i8) -> u32 {
    let max_dy = o.minos().iter().map(|m| m.1).max().unwrap_or(0);
    (19 - (y as i32 + max_dy as i32)).max(0) as u32
}

impl NesReach {
    /// A piece just spawned at `level` (the spawn frame done), on `board`.
    pub fn spawned(
        board: Board,
        piece: PieceKind,
        level: u8,
        lines: u16,
        input: InputModel,
        double_killscreen: bool,
        next: Option<PieceKind>,
    ) -> NesReach {
        NesReach {
            board,
            piece: piece.spawn(),
            x: 5,
            y: 0,
            timing: Timing::spawn(level).with_double_killscreen(double_killscreen),
            input,
            prev_input: 0,
            lines,
            next,
        }
    }

    fn search(&self) -> Search {
        Search::run(
            &self.board,
            self.x,
            self.piece as u8,
            self.y,
            self.timing,
            &self.input,
            self.prev_input,
        )
    }

    /// The controller bytes for frames 1..=lock.frame after the root that reach `lock`,
    /// pressing every move as early as it can be pressed (as a player does).
    pub fn inputs(&self, lock: &NesLock) -> Vec<u8> {
        self.search().plan_eager(lock.index)
    }

    /// The board, line counter and level after `lock`.
    pub fn place(&self, lock: &NesLock) -> (Board, u32, u16, u8) {
        let mut board = self.board;
        let cleared = board.lock(lock.orientation as u8, lock.x, lock.y);
        let (mut lines, mut level) = (self.lines, self.timing.level);
        for _ in 0..cleared {
            (lines, level) = nestris_engine::game::increment_lines(lines, level);
        }
        (board, cleared, lines, level)
    }
}

impl Reach for NesReach {
    type Lock = NesLock;

    fn locks(&self) -> Vec<NesLock> {
        self.search()
            .locks
            .iter()
            .enumerate()
            .filter_map(|(index, l)| {
                Some(NesLock {
                    orientation: Orientation::from_id(l.o)?,
                    x: l.x,
                    y: l.y,
                    frame: l.frame,
                    tops_out: l.tops_out,
                    index,
                })
            })
            .collect()
    }

    fn landing(&self, lock: &NesLock) -> Landing {
        let (board, lines, _, _) = self.place(lock);
        let blocked = PieceKind::ALL
            .iter()
            .filter(|k| !board.fits(k.spawn() as u8, 5, 0))
            .count() as u32;
        Landing {
            board,
            lines,
            lock_height: lock_height(lock.orientation, lock.y),
            blocked,
            level: self.timing.level,
        }
    }

    fn after(&self, lock: &NesLock) -> Option<NesReach> {
        let next = self.next?;
        if lock.tops_out {
            return None;
        }
        let (board, _, lines, level) = self.place(lock);
        let spawn = next.spawn();
        if !board.fits(spawn as u8, 5, 0) {
            return None;
        }
        Some(NesReach {
            board,
            piece: spawn,
            x: 5,
            y: 0,
            timing: Timing::spawn(level).with_double_killscreen(self.timing.double_killscreen),
            input: self.input.clone(),
            prev_input: 0,
            lines,
            next: None,
        })
    }

    fn summary(&self) -> MoveSummary {
        MoveSummary {
            double_killscreen: self.timing.double_killscreen,
            ..MoveSummary::default()
        }
    }
}
