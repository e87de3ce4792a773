//! The AI for the classic rule sets (relaytris, qbasic): the NES AI's evaluation
//! ([`crate::Evaluator`] with the chosen weights, on [`crate::Board`]) over the
//! placements each rule set's own moves reach ([`ClassicGame::placements`]), with the same
//! two-piece look-ahead over the known next piece as the NES AI ([`crate::reach::best_lock`]
//! over [`ClassicReach`]).
//!
//! The classic board (10 columns, 16 or 20 rows, row 0 at the top) is placed at the bottom of
//! the AI's 22-row board, so heights count from the floor as on the NES. Scores use level 0
//! for the `points` feature. The evaluator has no tap speed (`Evaluator::with_input` is not
//! called): these games have no DAS limit, so `unreachable_columns` is 0.
//!
//! A placement after which the next piece cannot appear loses the game and is taken only
//! when every placement does; after the second piece, each of the seven pieces that could not
//! appear adds a seventh of that cost (the AI does not know the third piece).
//!
//! [`ClassicPlayer`] plays a game move by move in real time: it chooses a placement when a
//! piece appears and follows its moves, finding a new path to the same cells when gravity
//! has moved the piece.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::reach::{best_lock, Landing, Reach};
use crate::{Board as AiBoard, Evaluator};
use nestris_classic::{Board, Cell, ClassicGame, Move, Piece, Placement};
/// Places a classic board (width up to 10) at the bottom of the AI's board.
pub fn to_ai_board(board: &Board) -> AiBoard {
    let mut b = AiBoard::new();
    let h = board.height().min(crate::board::ROWS);
    let rows = board.rows();
    let skip = rows.len() - h;
    for (r, &row) in rows[skip..].iter().enumerate() {
        b.rows[crate::board::ROWS - h + r] = row & crate::board::FULL;
    }
    b
}

/// Rows between the floor and the placement's lowest cell (0 on the floor).
fn lock_height(p: &Placement, height: usize) -> u32 {
    let lowest = p.cells.iter().map(|c| c.1).max().unwrap_or(0);
    (height as i32 - 1 - lowest).max(0) as u32
}

/// Where a rule set brings a new piece in (its module docs), to test whether the board
/// leaves room for it; `None` for an unknown rule set.
fn spawn_cells(game: &impl ClassicGame, piece: Piece) -> Option<[Cell; 4]> {
    match game.name() {
        "relaytris" => game.piece_cells(piece, 0, if piece == Piece::O { 4 } else { 3 }, 0),
        "qbasic" => game.piece_cells(piece, 0, 6, 3),
        _ => None,
    }
}

/// How many of the seven pieces would not fit where they appear on `board`.
fn blocked(game: &impl ClassicGame, board: &Board) -> u32 {
    Piece::ALL
        .iter()
        .filter(|&&p| spawn_cells(game, p).is_some_and(|cells| !board.fits(&cells)))
        .count() as u32
}

/// A classic game as the AI sees it ([`Reach`]): its placements, the board each leaves, and
/// the game after it. The spawn test for the unknown third piece uses the first game's rule
/// set.
#[derive(Clone, Debug)]
pub struct ClassicReach<G>(pub G);

impl<G: ClassicGame + Clone> Reach for ClassicReach<G> {
    type Lock = Placement;

    fn locks(&self) -> Vec<Placement> {
        self.0.placements()
    }

    fn landing(&self, p: &Placement) -> Landing {
        let (board, lines) = self.0.board_after(p);
        Landing {
            board: to_ai_board(&board),
            lines,
            lock_height: lock_height(p, self.0.height()),
            blocked: blocked(&self.0, &board),
            level: 0,
        }
    }

    fn after(&self, p: &Placement) -> Option<Self> {
        let mut after = self.0.clone();
        match after.apply_placement(p) {
            Ok(lock) if !lock.game_over => Some(ClassicReach(after)),
            _ => None,
        }
    }
}

/// The placement the AI plays for the current piece, with its cost; `None` when the game is
/// over.
pub fn choose_with_cost<G: ClassicGame + Clone>(
    game: &G,
    eval: &Evaluator,
) -> Option<(Placement, f64)> {
    best_lock(&ClassicReach(game.clone()), eval)
}

/// The placement the AI plays for the current piece; `None` when the game is over.
pub fn choose<G: ClassicGame + Clone>(game: &G, eval: &Evaluator) -> Option<Placement> {
    choose_with_cost(game, eval).map(|(p, _)| p)
}

/// What [`ClassicPlayer`] decided for one piece.
#[derive(Clone, Debug)]
pub struct ClassicDecision {
    /// The cells the piece will lock on.
    pub target: [Cell; 4],
    /// The evaluation of the chosen line (lower is better).
    pub cost: f64,
    /// The moves planned from the decision on.
    pub plan: Vec<Move>,
    /// Time the decision took.
    pub elapsed: Duration,
}

/// The AI playing a classic game move by move: it chooses a placement when a piece appears,
/// follows its moves, and when gravity has moved the piece, finds a path from there to the
/// same cells (or chooses anew).
#[derive(Debug, Default)]
pub struct ClassicPlayer {
    plan: VecDeque<Move>,
    target: Option<[Cell; 4]>,
    /// Gravity moved the piece since the plan was made.
    moved: bool,
    pieces_seen: u32,
    decisions: u64,
    last: Option<ClassicDecision>,
}

impl ClassicPlayer {
    /// A player before its first decision.
    pub fn new() -> ClassicPlayer {
        ClassicPlayer::default()
    }

    /// Decisions made so far (one per piece, plus one when a plan can no longer be followed).
    pub fn decision_count(&self) -> u64 {
        self.decisions
    }

    /// The last decision.
    pub fn last_decision(&self) -> Option<&ClassicDecision> {
        self.last.as_ref()
    }

    fn decide<G: ClassicGame + Clone>(&mut self, game: &G, eval: &Evaluator) -> Option<()> {
        let started = Instant::now();
        let (p, cost) = choose_with_cost(game, eval)?;
        self.decisions += 1;
        self.target = Some(p.cells);
        self.plan = p.moves.clone().into();
        self.last = Some(ClassicDecision {
            target: p.cells,
            cost,
            plan: p.moves,
            elapsed: started.elapsed(),
        });
        Some(())
    }

    /// The next move for `game` (`None`: nothing to do).
    pub fn input<G: ClassicGame + Clone>(&mut self, game: &G, eval: &Evaluator) -> Option<Move> {
        game.current()?;
        let new_piece = self.pieces_seen != game.pieces_locked() || self.target.is_none();
        if new_piece || self.plan.is_empty() {
            self.moved = false;
            self.pieces_seen = game.pieces_locked();
            self.decide(game, eval)?;
        } else if self.moved {
            // Gravity moved the piece: find a path from here to the same cells, or choose anew.
            self.moved = false;
            let target = self.target;
            let found = game
                .placements()
                .into_iter()
                .find(|p| Some(p.cells) == target);
            match found {
                Some(p) => self.plan = p.moves.into(),
                None => self.decide(game, eval)?,
            }
        }
        self.plan.pop_front()
    }

    /// After each tick: whether gravity moved the piece in it.
    pub fn after(&mut self, gravity: bool) {
        self.moved |= gravity;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Weights;
    use nestris_classic::randomizer::FileSequence;
    use nestris_classic::{AnyRandomizer, Qbasic, Relaytris};

    fn pieces(s: &str) -> AnyRandomizer {
        AnyRandomizer::File(FileSequence::from_text(s).unwrap_or_else(|e| panic!("{e}")))
    }

    #[test]
    fn board_is_bottom_aligned() {
        let mut rows = vec![0u16; 16];
        rows[15] = 0b11;
        rows[14] = 0b1;
        let b = to_ai_board(&Board::from_rows(10, &rows).unwrap_or_else(|e| panic!("{e}")));
        assert_eq!(b.rows[21], 0b11);
        assert_eq!(b.rows[20], 0b1);
        assert_eq!(b.height(0), 2);
        assert_eq!(b.height(1), 1);
    }

    #[test]
    fn takes_the_line_clear() {
        // Four bottom rows full but for column 9; an I placed upright there clears them (the
        // default weights take Tetrises and avoid single clears, as on the NES).
        let mut picture = "..........\n".repeat(16);
        picture.push_str(&"#########.\n".repeat(4));
        let board = Board::from_picture(&picture).unwrap_or_else(|e| panic!("{e}"));
        let game = Qbasic::with_board(board, pieces("IO")).unwrap_or_else(|e| panic!("{e}"));
        let eval = Evaluator::new(Weights::default());
        let p = choose(&game, &eval).expect("a placement");
        assert_eq!(p.cells, [(9, 16), (9, 17), (9, 18), (9, 19)], "{p:?}");
        assert_eq!(game.board_after(&p).1, 4);
    }

    #[test]
    fn plays_relaytris_for_a_while() {
        let eval = Evaluator::new(Weights::default());
        let mut game = Relaytris::new();
        for _ in 0..70 {
            let p = choose(&game, &eval).expect("not over");
            game.apply_placement(&p).unwrap_or_else(|e| panic!("{e}"));
        }
        assert!(!game.is_game_over());
        assert!(game.lines_cleared() >= 20, "{}", game.lines_cleared());
    }
}
