//! The one thing the AI needs from a rule set: the locks the current piece can reach from
//! here, and what each leaves behind ([`Reach`]). The placement chooser over it
//! ([`best_lock`]) is the AI of every rule set that is played lock by lock (the classic
//! games, [`crate::classic`]); the NES AI ([`crate::Ai`]) searches the same locks frame by
//! frame under the game's timing.

use crate::board::Board;
use crate::eval::{Evaluator, MoveSummary};

/// Cost of losing the game.
pub const TOP_OUT: f64 = 1.0e9;

/// What a lock leaves: the board as the evaluator sees it (bottom-aligned on the AI's
/// 10x22 board), and the counts the evaluation takes.
#[derive(Clone, Debug)]
pub struct Landing {
    /// The board after the lock and its line clears.
    pub board: Board,
    /// Lines the lock cleared.
    pub lines: u32,
    /// Rows between the floor and the piece's lowest cell (0 on the floor).
    pub lock_height: u32,
    /// How many of the seven pieces could not appear after this lock (the game would end).
    pub blocked: u32,
    /// The level the lock's lines are scored at (0 for rule sets without levels).
    pub level: u8,
}

/// A position of a rule set as the AI sees it: the locks of the current piece reachable from
/// here, what each leaves, and the position after it (with the next piece current).
pub trait Reach: Clone {
    /// A lock and the way to reach it.
    type Lock;
    /// Every lock the current piece can reach from here (empty when the game is over).
    fn locks(&self) -> Vec<Self::Lock>;
    /// What `lock` leaves behind.
    fn landing(&self, lock: &Self::Lock) -> Landing;
    /// The position after `lock`, with the next piece current; `None` when the next piece
    /// cannot appear (the game ends).
    fn after(&self, lock: &Self::Lock) -> Option<Self>;
    /// The move summary the evaluation starts from (the double killscreen on the NES).
    fn summary(&self) -> MoveSummary {
        MoveSummary::default()
    }
}

/// Every lock of the current piece with its value (lower is better), over two plies: each
/// lock is followed by the best lock of the known next piece; after that, each of the seven
/// pieces that could not appear adds a seventh of [`TOP_OUT`] (the third piece is unknown). A
/// lock after which the next piece cannot appear loses the game: [`TOP_OUT`] twice plus its
/// board's cost.
pub fn lock_values<R: Reach>(pos: &R, eval: &Evaluator) -> Vec<(R::Lock, f64)> {
    let base = pos.summary();
    pos.locks()
        .into_iter()
        .map(|l1| {
            let first = pos.landing(&l1);
            let mut m1 = base;
            m1.add(0, first.lines, first.lock_height, first.level);
            let cost = match pos.after(&l1) {
                Some(after) => {
                    // The known next piece, from where it appears.
                    let mut v = f64::INFINITY;
                    for l2 in after.locks() {
                        let second = after.landing(&l2);
                        let mut m2 = m1;
                        m2.add(1, second.lines, second.lock_height, second.level);
                        let c =
                            eval.cost(&second.board, &m2) + second.blocked as f64 * TOP_OUT / 7.0;
                        v = v.min(c);
                    }
                    if v.is_finite() {
                        v
                    } else {
                        eval.cost(&first.board, &m1)
                    }
                }
                // The next piece cannot appear: the game ends.
                None => TOP_OUT * 2.0 + eval.cost(&first.board, &m1),
            };
            (l1, cost)
        })
        .collect()
}

/// The lock the AI plays for the current piece with its cost: the first of the lowest
/// [`lock_values`]. `None` when there is no lock (the game is over).
pub fn best_lock<R: Reach>(pos: &R, eval: &Evaluator) -> Option<(R::Lock, f64)> {
    let mut best: Option<(R::Lock, f64)> = None;
    for (l, cost) in lock_values(pos, eval) {
        if best.as_ref().is_none_or(|(_, b)| cost < *b) {
            best = Some((l, cost));
        }
    }
    best
}
