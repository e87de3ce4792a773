//! The AI for the classic rule sets (relaytris, qbasic): the NES AI's evaluation
//! ([`nestris_ai::Evaluator`] with the chosen weights, on [`nestris_ai::Board`]) over the
//! placements each rule set's own moves reach ([`ClassicGame::placements`]), with the same
//! two-piece look-ahead over the known next piece as the NES AI.
//!
//! The classic board (10 columns, 16 or 20 rows, row 0 at the top) is placed at the bottom of
//! the AI's 22-row board, so heights count from the floor as on the NES. Scores use level 0
//! for the `points` feature. The evaluator has no tap speed (`Evaluator::with_input` is not
//! called): these games have no DAS limit, so `unreachable_columns` is 0.
//!
//! A placement after which the next piece cannot appear loses the game and is taken only
//! when every placement does; after the second piece, each of the seven pieces that could not
//! appear adds a seventh of that cost (the AI does not know the third piece).

use nestris_ai::{Board as AiBoard, Evaluator, MoveSummary};
use nestris_classic::{Board, ClassicGame, Piece, Placement};

/// Cost of losing the game.
const TOP_OUT: f64 = 1.0e9;

/// Places a classic board (width up to 10) at the bottom of the AI's board.
pub fn to_ai_board(board: &Board) -> AiBoard {
    let mut b = AiBoard::new();
    let h = board.height().min(nestris_ai::board::ROWS);
    let rows = board.rows();
    let skip = rows.len() - h;
    for (r, &row) in rows[skip..].iter().enumerate() {
        b.rows[nestris_ai::board::ROWS - h + r] = row & nestris_ai::board::FULL;
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
fn spawn_cells(game: &impl ClassicGame, piece: Piece) -> Option<[nestris_classic::Cell; 4]> {
    match game.name() {
        "relaytris" => game.piece_cells(piece, 0, if piece == Piece::O { 4 } else { 3 }, 0),
        "qbasic" => game.piece_cells(piece, 0, 6, 3),
        _ => None,
    }
}

/// Expected top-out cost of the unknown third piece: a seventh of [`TOP_OUT`] per piece
/// that would not fit.
fn blocked_cost(game: &impl ClassicGame, board: &Board) -> f64 {
    let blocked = Piece::ALL
        .iter()
        .filter(|&&p| spawn_cells(game, p).is_some_and(|cells| !board.fits(&cells)))
        .count();
    blocked as f64 * TOP_OUT / 7.0
}

/// The placement the AI plays for the current piece, with its cost; `None` when the game is
/// over.
pub fn choose_with_cost<G: ClassicGame + Clone>(
    game: &G,
    eval: &Evaluator,
) -> Option<(Placement, f64)> {
    let placements = game.placements();
    let height = game.height();
    let mut best: Option<(f64, usize)> = None;
    for (i, p1) in placements.iter().enumerate() {
        let (board1, lines1) = game.board_after(p1);
        let mut m1 = MoveSummary::default();
        m1.add(0, lines1, lock_height(p1, height), 0);
        let mut after = game.clone();
        let cost = match after.apply_placement(p1) {
            Ok(lock) if !lock.game_over => {
                // The known next piece, from where it appears.
                let mut v = f64::INFINITY;
                for p2 in after.placements() {
                    let (board2, lines2) = after.board_after(&p2);
                    let mut m2 = m1;
                    m2.add(1, lines2, lock_height(&p2, height), 0);
                    let c = eval.cost(&to_ai_board(&board2), &m2) + blocked_cost(game, &board2);
                    v = v.min(c);
                }
                if v.is_finite() {
                    v
                } else {
                    eval.cost(&to_ai_board(&board1), &m1)
                }
            }
            // The next piece cannot appear: the game ends.
            _ => TOP_OUT * 2.0 + eval.cost(&to_ai_board(&board1), &m1),
        };
        if best.is_none_or(|(b, _)| cost < b) {
            best = Some((cost, i));
        }
    }
    let (cost, i) = best?;
    placements.into_iter().nth(i).map(|p| (p, cost))
}

/// The placement the AI plays for the current piece; `None` when the game is over.
pub fn choose<G: ClassicGame + Clone>(game: &G, eval: &Evaluator) -> Option<Placement> {
    choose_with_cost(game, eval).map(|(p, _)| p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_ai::Weights;
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
