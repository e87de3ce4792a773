//! The analysis front-ends ask for: "what is the best move here, at this tap speed?"
//! ([`analyse`]), and "how good was the move the player made?" ([`rate`]).
//!
//! Every lock the current piece can reach under the game's timing (the frame-exact search,
//! tucks and spins included, [`nestris_ai::NesReach`]) is valued by the AI's evaluation over
//! two plies ([`nestris_ai::lock_values`]: the lock, then the best lock of the next piece;
//! when the next piece is not known, the expectation over the seven with the NES picker's
//! probabilities). Lower values are better. Each lock comes with the controller bytes that
//! reach it, frame by frame from the position, pressing every move as early as the tap speed
//! allows, and the board after it.
//!
//! The AI player itself (three plies, reaction time) is also run on the position: the lock it
//! plays is marked ([`Placement::ai_choice`]); it needs the next piece.

use nestris_ai::{AiConfig, Board, Evaluator, NesLock, NesReach, Reach};
use nestris_engine::game::frames_per_drop;
use nestris_engine::{Game, GameType, Orientation, PieceKind, PlayState, StartConfig};

use crate::position::Position;

/// How far the piece has come since it spawned (optional in a [`Query`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Frames since the spawn frame.
    pub frames: u32,
    /// The piece's orientation now.
    pub orientation: Orientation,
    /// Its column now.
    pub x: u8,
    /// Its row now.
    pub y: u8,
}

/// A question.
#[derive(Clone, Debug)]
pub struct Query {
    /// The board, the current and next piece, level, lines, score.
    pub position: Position,
    /// The AI's settings: tap speed, reaction time, weights, search widths.
    pub ai: AiConfig,
    /// The double killscreen (a departure from the original).
    pub double_killscreen: bool,
    /// The piece already moved (it spawned at the top otherwise).
    pub progress: Option<Progress>,
}

/// One lock of the current piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// Orientation at lock.
    pub orientation: Orientation,
    /// Column of the piece's centre.
    pub x: i8,
    /// Row of the piece's centre.
    pub y: i8,
    /// Controller bytes for each frame from the position on; the piece locks on the last.
    pub inputs: Vec<u8>,
    /// The AI's value (lower is better).
    pub value: f64,
    /// Lines the lock clears.
    pub cleared: u32,
    /// Lines after it.
    pub lines: u32,
    /// Level after it.
    pub level: u8,
    /// The board after it (rows top to bottom, bit x = column x).
    pub board: [u16; 20],
    /// Whether it tops out (minos left in the hidden rows).
    pub tops_out: bool,
    /// Whether the AI player plays this lock.
    pub ai_choice: bool,
}

/// The answer: every reachable lock, best first.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The locks, best first (ties in the search's order).
    pub placements: Vec<Placement>,
}

/// How a lock the player made compares ([`rate`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// Its rank among the reachable locks (1 = best).
    pub rank: usize,
    /// Reachable locks.
    pub of: usize,
    /// Its value.
    pub value: f64,
    /// The best value.
    pub best: f64,
    /// The value lost against the best (0 for the best).
    pub lost: f64,
}

/// A question that cannot be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// The piece's progress does not fit the board or the timing.
    #[error("{0}")]
    Progress(String),
    /// The current piece cannot move anywhere (no lock is reachable).
    #[error("no lock is reachable for the {0} piece")]
    NoLock(char),
    /// The lock to rate is not reachable.
    #[error(
        "the lock {orientation:?} x{x} y{y} is not reachable from this position at this tap speed"
    )]
    Unreachable {
        /// Orientation.
        orientation: Orientation,
        /// Column.
        x: i8,
        /// Row.
        y: i8,
    },
}

/// The engine's game at the query's position (the piece where the progress says), and the
/// search's root for it.
pub fn root(q: &Query) -> Result<(Game, NesReach), AnalysisError> {
    let p = &q.position;
    let start = StartConfig::from_seed(0, p.level, GameType::A, 0);
    let mut game = p.game(&start);
    game.set_double_killscreen(q.double_killscreen);
    let mut reach = NesReach::spawned(
        Board::from_playfield(&game.playfield),
        p.piece,
        p.level,
        game.lines,
        q.ai.input.clone(),
        q.double_killscreen,
        p.next,
    );
    if let Some(pr) = q.progress {
        if pr.orientation.kind() != p.piece {
            return Err(AnalysisError::Progress(format!(
                "the orientation {:?} is not one of the {} piece's",
                pr.orientation,
                p.piece.letter()
            )));
        }
        if pr.x > 9
            || pr.y > 19
            || !reach
                .board
                .fits(pr.orientation as u8, pr.x as i8, pr.y as i8)
        {
            return Err(AnalysisError::Progress(format!(
                "the piece does not fit at x{} y{} in {:?} on this board",
                pr.x, pr.y, pr.orientation
            )));
        }
        let per_frame =
            if q.double_killscreen && p.level >= nestris_engine::game::DOUBLE_KILLSCREEN_LEVEL {
                2
            } else {
                1
            };
        if pr.y as u32 > pr.frames * per_frame {
            return Err(AnalysisError::Progress(format!(
                "after {} frames the piece can have fallen at most {} rows, not {}",
                pr.frames,
                pr.frames * per_frame,
                pr.y
            )));
        }
        let speed = frames_per_drop(p.level) as u32;
        let gravity = pr.y as u32 * speed;
        // Without Down held the piece has fallen one row every `speed` frames; held Down only
        // brings it lower sooner.
        if pr.frames / speed > pr.y as u32 {
            return Err(AnalysisError::Progress(format!(
                "after {} frames at level {} the piece has fallen at least {} rows, not {}",
                pr.frames,
                p.level,
                pr.frames / speed,
                pr.y
            )));
        }
        let fall_timer = pr.frames.saturating_sub(gravity).min(speed - 1) as u8;
        game.piece = pr.orientation as u8;
        game.x = pr.x;
        game.y = pr.y;
        game.fall_timer = fall_timer;
        reach.piece = pr.orientation;
        reach.x = pr.x as i8;
        reach.y = pr.y as i8;
        reach.timing.fall_timer = fall_timer;
    }
    Ok((game, reach))
}

/// The lock the AI player plays from the game (`None` without a next piece or if it does not
/// lock within a few thousand frames).
fn ai_choice(q: &Query, game: &Game) -> Option<(Orientation, i8, i8)> {
    q.position.next?;
    let mut cfg = q.ai.clone();
    cfg.reaction = cfg
        .reaction
        .saturating_sub(q.progress.map_or(0, |p| p.frames));
    let mut ai = nestris_ai::Ai::new(cfg);
    let mut g = *game;
    for _ in 0..6000 {
        if g.play_state != PlayState::PlayerControlsActiveTetrimino {
            break;
        }
        let input = ai.next_input(&g);
        g.step(input);
    }
    (g.play_state == PlayState::LockTetrimino)
        .then(|| Some((Orientation::from_id(g.piece)?, g.x as i8, g.y as i8)))
        .flatten()
}

fn rows_of(board: &Board) -> [u16; 20] {
    let mut rows = [0u16; 20];
    rows.copy_from_slice(&board.rows[2..]);
    rows
}

/// Every lock of `piece` from `reach`, valued by the expectation over the next piece (the
/// NES picker's probabilities after `piece`), in the order of [`nestris_ai::lock_values`].
fn expected_lock_values(
    reach: &NesReach,
    piece: PieceKind,
    eval: &Evaluator,
) -> Vec<(NesLock, f64)> {
    let probs = nestris_ai::next_piece_probabilities(piece);
    let mut sum: Vec<(NesLock, f64)> = Vec::new();
    for (k, &pr) in PieceKind::ALL.iter().zip(probs.iter()) {
        let with = NesReach {
            next: Some(*k),
            ..reach.clone()
        };
        let v = nestris_ai::lock_values(&with, eval);
        if sum.is_empty() {
            sum = v.into_iter().map(|(l, c)| (l, c * pr)).collect();
        } else {
            for (s, (_, c)) in sum.iter_mut().zip(v) {
                s.1 += c * pr;
            }
        }
    }
    sum
}

/// Every lock of the current piece, valued and best first.
pub fn analyse(q: &Query) -> Result<Answer, AnalysisError> {
    let (game, reach) = root(q)?;
    let p = &q.position;
    let eval = evaluator(q, p.level, reach.lines);
    let values: Vec<(NesLock, f64)> = match p.next {
        Some(_) => nestris_ai::lock_values(&reach, &eval),
        None => expected_lock_values(&reach, p.piece, &eval),
    };
    if values.is_empty() {
        return Err(AnalysisError::NoLock(p.piece.letter()));
    }
    let chosen = ai_choice(q, &game);
    let mut placements: Vec<Placement> = values
        .into_iter()
        .map(|(l, value)| {
            let (board, cleared, lines, level) = reach.place(&l);
            Placement {
                orientation: l.orientation,
                x: l.x,
                y: l.y,
                inputs: reach.inputs(&l),
                value,
                cleared,
                lines: nestris_engine::bcd::lines_value(lines),
                level,
                board: rows_of(&board),
                tops_out: l.tops_out,
                ai_choice: chosen == Some((l.orientation, l.x, l.y)),
            }
        })
        .collect();
    // Stable: equal values keep the search's order.
    placements.sort_by(|a, b| a.value.total_cmp(&b.value));
    Ok(Answer { placements })
}

/// How the lock `(orientation, x, y)` compares with the others of `answer`.
pub fn rate(
    answer: &Answer,
    orientation: Orientation,
    x: i8,
    y: i8,
) -> Result<Rating, AnalysisError> {
    let i = answer
        .placements
        .iter()
        .position(|p| (p.orientation, p.x, p.y) == (orientation, x, y))
        .ok_or(AnalysisError::Unreachable { orientation, x, y })?;
    let best = answer.placements[0].value;
    let value = answer.placements[i].value;
    // Ties share the better rank.
    let rank = answer.placements.iter().filter(|p| p.value < value).count() + 1;
    Ok(Rating {
        rank,
        of: answer.placements.len(),
        value,
        best,
        lost: value - best,
    })
}

/// Locks played one after another from the position of a [`Query`] ([`line`]): a move, its
/// follow-up with the next piece, and a playout of further pieces.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The pieces, in order.
    pub pieces: Vec<PieceKind>,
    /// Their locks, in order: orientation, column, row.
    pub locks: Vec<(Orientation, i8, i8)>,
    /// The board after the last lock (rows top to bottom, bit x = column x).
    pub board: [u16; 20],
    /// The evaluation of that board with every lock of the line counted (its clears, lock
    /// heights and points), lower is better; a line that tops out is worth twice
    /// [`nestris_ai::reach::TOP_OUT`] plus the board.
    pub value: f64,
    /// Whether the line ended early: a piece had no lock, or the next could not appear.
    pub topped_out: bool,
}

/// Where a [`Line`] goes: the locks already chosen, then pieces the AI places.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    /// This lock of the current piece (`orientation`, column, row).
    Lock(Orientation, i8, i8),
    /// The lock the AI chooses for this piece: the lowest cost of the board it leaves, this
    /// lock alone counted (one ply, as a playout plays).
    Greedy(PieceKind),
    /// The lock the AI values best for this piece with the piece after it known (two plies,
    /// as [`analyse`] values the current piece's locks).
    Best(PieceKind),
}

/// A [`Line`] being played.
#[derive(Clone)]
struct Walk {
    pos: NesReach,
    prev: Option<NesLock>,
    summaries: Vec<nestris_ai::MoveSummary>,
    last_board: Board,
    last_level: u8,
    /// The line counter (as the game keeps it) where `last_level` was read.
    last_lines: u16,
    out: Line,
}

fn kind_of(step: &Step) -> PieceKind {
    match *step {
        Step::Lock(o, _, _) => o.kind(),
        Step::Greedy(k) | Step::Best(k) => k,
    }
}

/// The evaluator of the weights' phase the AI player would be in at `level` with `lines`
/// (the line count as the game keeps it) cleared: the table before level 19 until its
/// `until_lines`, and the `[endgame]` table in the last lines before the line cap the AI is
/// told (`AiConfig::line_cap`, a departure), as [`nestris_ai::Ai`] chooses them
/// ([`AiConfig::phase`], [`AiConfig::phase_evaluator`]).
fn evaluator(q: &Query, level: u8, lines: u16) -> Evaluator {
    let lines = nestris_engine::bcd::lines_value(lines);
    q.ai.phase_evaluator(q.ai.phase(level, lines, q.double_killscreen, false))
}

impl Walk {
    fn start(q: &Query) -> Result<Walk, AnalysisError> {
        let (_, reach) = root(q)?;
        Ok(Walk {
            last_board: reach.board,
            last_level: q.position.level,
            last_lines: reach.lines,
            out: Line {
                pieces: Vec::new(),
                locks: Vec::new(),
                board: rows_of(&reach.board),
                value: 0.0,
                topped_out: false,
            },
            pos: reach,
            prev: None,
            summaries: Vec::new(),
        })
    }

    /// Plays one step (`following`: the piece after it, if the line knows it). The first
    /// step's lock must be reachable.
    fn step(
        &mut self,
        q: &Query,
        step: &Step,
        following: Option<PieceKind>,
    ) -> Result<(), AnalysisError> {
        if self.out.topped_out {
            return Ok(());
        }
        let kind = kind_of(step);
        let first = self.prev.is_none();
        if let Some(prev) = &self.prev {
            // The position after the previous lock, with this piece current.
            self.pos.next = Some(kind);
            match self.pos.after(prev) {
                Some(a) => self.pos = a,
                None => {
                    self.out.topped_out = true;
                    return Ok(());
                }
            }
        }
        let pos = &mut self.pos;
        pos.next = following;
        let eval = evaluator(q, pos.timing.level, pos.lines);
        let base = pos.summary();
        let one = |l: &NesLock| {
            let land = pos.landing(l);
            let mut m = base;
            m.add(0, land.lines, land.lock_height, land.level);
            (land, m)
        };
        let chosen = match *step {
            Step::Lock(o, x, y) => {
                let l = pos
                    .locks()
                    .into_iter()
                    .find(|l| (l.orientation, l.x, l.y) == (o, x, y));
                if l.is_none() && first {
                    return Err(AnalysisError::Unreachable {
                        orientation: o,
                        x,
                        y,
                    });
                }
                l
            }
            Step::Greedy(_) => pos
                .locks()
                .into_iter()
                .filter(|l| !l.tops_out)
                .map(|l| {
                    let (land, m) = one(&l);
                    let c = eval.cost(&land.board, &m)
                        + land.blocked as f64 * nestris_ai::reach::TOP_OUT / 7.0;
                    (l, c)
                })
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(l, _)| l),
            Step::Best(_) => {
                if pos.next.is_some() {
                    nestris_ai::best_lock(&*pos, &eval).map(|(l, _)| l)
                } else {
                    // Nothing after it is known: as the analysis does, the expectation over
                    // the seven.
                    expected_lock_values(pos, kind, &eval)
                        .into_iter()
                        .min_by(|a, b| a.1.total_cmp(&b.1))
                        .map(|(l, _)| l)
                }
            }
        };
        let Some(l) = chosen else {
            self.out.topped_out = true;
            return Ok(());
        };
        let (land, m) = one(&l);
        self.summaries.push(m);
        self.out.pieces.push(kind);
        self.out.locks.push((l.orientation, l.x, l.y));
        self.last_board = land.board;
        self.last_level = self.pos.timing.level;
        self.last_lines = self.pos.lines;
        self.out.board = rows_of(&land.board);
        self.prev = Some(l);
        if l.tops_out {
            self.out.topped_out = true;
        }
        Ok(())
    }

    fn steps(&mut self, q: &Query, steps: &[Step]) -> Result<(), AnalysisError> {
        for (i, step) in steps.iter().enumerate() {
            self.step(q, step, steps.get(i + 1).map(kind_of))?;
        }
        Ok(())
    }

    /// The line, valued.
    fn finish(mut self, q: &Query) -> Line {
        // The evaluation is linear in the counts a move summary holds (clears, lock
        // heights, points), so each lock's counts add their own share to the last lock's
        // evaluation.
        let eval = evaluator(q, self.last_level, self.last_lines);
        let mut value = match self.summaries.last() {
            Some(m) => eval.cost(&self.last_board, m),
            None => eval.cost(&self.last_board, &Default::default()),
        };
        for m in self.summaries.iter().rev().skip(1) {
            let bare = nestris_ai::MoveSummary {
                level: m.level,
                double_killscreen: m.double_killscreen,
                ..Default::default()
            };
            value += eval.cost(&self.last_board, m) - eval.cost(&self.last_board, &bare);
        }
        if self.out.topped_out {
            value += nestris_ai::reach::TOP_OUT * 2.0;
        }
        self.out.value = value;
        self.out
    }
}

/// Plays `steps` from the query's position: the first step is the current piece's (a
/// [`Step::Lock`] it can reach), each later one the piece after. An error if the first lock
/// is not reachable.
pub fn line(q: &Query, steps: &[Step]) -> Result<Line, AnalysisError> {
    let mut w = Walk::start(q)?;
    w.steps(q, steps)?;
    Ok(w.finish(q))
}

/// The lines that share `head` and go on with each of `tails` ([`line`] of `head` followed
/// by each tail, with `head` played once; its last step sees no following piece).
pub fn lines(q: &Query, head: &[Step], tails: &[Vec<Step>]) -> Result<Vec<Line>, AnalysisError> {
    let mut w = Walk::start(q)?;
    w.steps(q, head)?;
    tails
        .iter()
        .map(|t| {
            let mut b = w.clone();
            b.steps(q, t)?;
            Ok(b.finish(q))
        })
        .collect()
}

/// A board as 20 rows of `.`/`#`, top first.
pub fn board_rows(rows: &[u16; 20]) -> Vec<String> {
    rows.iter()
        .map(|&r| {
            (0..10)
                .map(|x| if r & (1 << x) != 0 { '#' } else { '.' })
                .collect()
        })
        .collect()
}

/// One placement as JSON (`rank` 1 = best).
pub fn placement_json(rank: usize, p: &Placement) -> serde_json::Value {
    serde_json::json!({
        "rank": rank,
        "orientation": format!("{:?}", p.orientation),
        "x": p.x,
        "y": p.y,
        "inputs": crate::inputs::frames_string(&p.inputs),
        "input_bytes": p.inputs,
        "frames": p.inputs.len(),
        "value": p.value,
        "cleared": p.cleared,
        "lines": p.lines,
        "level": p.level,
        "board": board_rows(&p.board),
        "tops_out": p.tops_out,
        "ai_choice": p.ai_choice,
    })
}

/// A rating as JSON.
pub fn rating_json(r: &Rating) -> serde_json::Value {
    serde_json::json!({
        "rank": r.rank,
        "of": r.of,
        "value": r.value,
        "best": r.best,
        "lost": r.lost,
    })
}

/// The answer as the JSON of `nestris best --json` and `/v1/best` (version 1): the position,
/// the timing, the number of reachable locks, the best `top` placements, and the rating when
/// there is one. `hz` is the tap speed as the question gave it.
pub fn to_json(
    q: &Query,
    hz: &str,
    answer: &Answer,
    top: usize,
    rating: Option<&Rating>,
) -> serde_json::Value {
    let p = &q.position;
    let mut v = serde_json::json!({
        "version": 1,
        "position": {
            "piece": p.piece.letter().to_string(),
            "next": p.next.map(|n| n.letter().to_string()),
            "level": p.level,
            "lines": p.lines,
            "score": p.score,
            "board": board_rows(&p.rows),
        },
        "hz": hz,
        "reaction": q.ai.reaction,
        "double_killscreen": q.double_killscreen,
        "locks": answer.placements.len(),
        "placements": answer
            .placements
            .iter()
            .take(top.max(1))
            .enumerate()
            .map(|(i, pl)| placement_json(i + 1, pl))
            .collect::<Vec<_>>(),
    });
    if let Some(r) = rating {
        v["rate"] = rating_json(r);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds a placement's inputs to the engine from `game`: the piece stays under control
    /// until the last input, then locks where the placement says.
    fn assert_locks_where_it_says(game: Game, p: &Placement, context: &str) {
        let mut g = game;
        for (t, &b) in p.inputs.iter().enumerate() {
            assert_eq!(
                g.play_state,
                PlayState::PlayerControlsActiveTetrimino,
                "{context}: locked early at frame {t} for {p:?}"
            );
            g.step(b);
        }
        assert_eq!(g.play_state, PlayState::LockTetrimino, "{context}: {p:?}");
        assert_eq!(
            (g.piece, g.x as i8, g.y as i8),
            (p.orientation as u8, p.x, p.y),
            "{context}: {p:?}"
        );
    }

    fn query(text: &str) -> Query {
        Query {
            position: Position::parse(text).expect("position"),
            ai: AiConfig::default(),
            double_killscreen: false,
            progress: None,
        }
    }

    /// Every answered input sequence, fed to the engine from the position, locks the piece
    /// where the answer says, with the board the answer gives.
    #[test]
    fn every_answer_locks_where_it_says() {
        let mut text = "level 18\nlines 9\npiece I\nnext T\nboard\n".to_string();
        text.push_str(&"..........\n".repeat(16));
        text.push_str("#########.\n#########.\n#########.\n####.####.\n");
        for next in ["next T\n", ""] {
            let q = query(&text.replace("next T\n", next));
            let (game, _) = root(&q).expect("root");
            let a = analyse(&q).expect("answer");
            assert!(a.placements.len() > 10);
            // The I into the well clears three lines and is the best.
            let best = &a.placements[0];
            assert_eq!(
                (best.orientation, best.x, best.cleared),
                (Orientation::Iv, 9, 3)
            );
            assert_eq!(best.lines, 12);
            for p in &a.placements {
                assert_locks_where_it_says(game, p, "");
            }
            assert_eq!(
                a.placements.iter().filter(|p| p.ai_choice).count(),
                usize::from(!next.is_empty())
            );
        }
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// The same over random positions: boards with holes and overhangs, every piece with or
    /// without the next, levels from 0 to 255 (the double killscreen in some), tap speeds,
    /// and pieces already on their way (a prefix of a reachable lock's inputs played first).
    #[test]
    fn random_answers_lock_where_they_say() {
        let mut r = Rng(0x0b57_2026_0008_0001);
        let masks = ["X.", "X..", "X...", "X.....", "X..X...."];
        let (mut checked, mut on_the_way) = (0, 0);
        for case in 0..120 {
            let mut rows = [0u16; 20];
            let base = r.below(12) as usize;
            for x in 0..10 {
                let h = (base + r.below(5) as usize).saturating_sub(2).min(15);
                for row in rows.iter_mut().rev().take(h) {
                    if r.below(6) != 0 {
                        *row |= 1 << x;
                    }
                }
            }
            for row in rows.iter_mut() {
                if *row == 0x3FF {
                    *row &= !(1 << r.below(10));
                }
            }
            let piece = PieceKind::ALL[r.below(7) as usize];
            let next = (r.below(4) != 0).then(|| PieceKind::ALL[r.below(7) as usize]);
            let level = match r.below(4) {
                0 => r.below(19) as u8,
                1 => 18 + r.below(2) as u8,
                2 => 29 + r.below(20) as u8,
                _ => r.below(256) as u8,
            };
            let position = Position {
                rows,
                piece,
                next,
                level,
                lines: r.below(300) as u32,
                score: 0,
                state: None,
            };
            if position.check().is_err() {
                continue;
            }
            let ai = AiConfig {
                input: masks[r.below(masks.len() as u64) as usize]
                    .parse()
                    .expect("mask"),
                deep_locks: 0,
                blind_locks: 0,
                ..AiConfig::default()
            };
            let mut q = Query {
                position,
                ai,
                double_killscreen: r.below(3) == 0,
                progress: None,
            };
            // Sometimes start part of the way along a reachable lock's inputs.
            if r.below(3) == 0 {
                let a = analyse(&q).expect("answer");
                let pl = &a.placements[r.below(a.placements.len() as u64) as usize];
                let k = r.below(pl.inputs.len() as u64) as usize;
                let (mut g, _) = root(&q).expect("root");
                for &b in &pl.inputs[..k] {
                    g.step(b);
                }
                let Some(o) = Orientation::from_id(g.piece) else {
                    continue;
                };
                q.progress = Some(Progress {
                    frames: k as u32,
                    orientation: o,
                    x: g.x,
                    y: g.y,
                });
            }
            let (game, _) = match root(&q) {
                Ok(x) => x,
                // A prefix with Down held can be ahead of gravity: fine to refuse.
                Err(AnalysisError::Progress(_)) => continue,
                Err(e) => panic!("case {case}: {e}"),
            };
            let a = match analyse(&q) {
                Ok(a) => a,
                Err(AnalysisError::NoLock(_)) => continue,
                Err(e) => panic!("case {case}: {e}"),
            };
            on_the_way += usize::from(q.progress.is_some());
            for p in &a.placements {
                assert_locks_where_it_says(game, p, &format!("case {case}: {q:?}"));
                checked += 1;
            }
        }
        assert!(checked > 1500, "only {checked} placements checked");
        assert!(
            on_the_way > 10,
            "only {on_the_way} positions with the piece on its way"
        );
    }

    #[test]
    fn rating_and_progress() {
        let mut text = "level 18\npiece T\nnext I\nboard\n".to_string();
        text.push_str(&"..........\n".repeat(20));
        let q = query(&text);
        let a = analyse(&q).expect("answer");
        let best = &a.placements[0];
        let r = rate(&a, best.orientation, best.x, best.y).expect("reachable");
        assert_eq!((r.rank, r.lost), (1, 0.0));
        let worst = a.placements.last().expect("some");
        let r = rate(&a, worst.orientation, worst.x, worst.y).expect("reachable");
        assert!(r.rank > 1 && r.lost > 0.0, "{r:?}");
        assert!(rate(&a, Orientation::Td, 5, 3).is_err());
        // Twelve frames in at level 29 (a row a frame), far left: the right side is out of
        // reach.
        let mut q = query(&text.replace("level 18", "level 29"));
        let spawned = analyse(&q).expect("answer");
        q.progress = Some(Progress {
            frames: 12,
            orientation: Orientation::Td,
            x: 1,
            y: 12,
        });
        let later = analyse(&q).expect("answer");
        assert!(
            later.placements.len() < spawned.placements.len(),
            "{} {}",
            later.placements.len(),
            spawned.placements.len()
        );
        assert!(later.placements.iter().all(|p| p.x <= 6), "{later:?}");
        q.progress = Some(Progress {
            frames: 12,
            orientation: Orientation::Td,
            x: 1,
            y: 2,
        });
        assert!(matches!(analyse(&q), Err(AnalysisError::Progress(_))));
    }
}
