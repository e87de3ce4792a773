//! The classic rule sets (relaytris, qbasic) as a [`RuleSet`]: [`Classic`], stepped one tick
//! at a time (a qbasic frame with its gravity; relaytris waits for the player, so a tick is
//! a move or nothing), and their AI as a [`Player`] ([`ClassicAi`]).
//!
//! # Controller bytes
//!
//! A tick takes the same controller byte as a NES frame. A button counts when it goes down
//! (and, held, repeats after [`REPEAT_DELAY`] ticks every [`REPEAT_EVERY`], like the NES's
//! DAS); one move a tick, in this order: Select = hard drop, A or Up = rotate clockwise, B =
//! rotate counter-clockwise, Left, Right, Down (one row down; locks against the stack). A
//! rule set ignores the moves it lacks (qbasic has no hard drop and rotates clockwise only).
//!
//! The AI plays the same way ([`ClassicAi`]): it chooses a placement when a piece appears
//! (`nestris_ai::classic`) and presses one move every [`Classic::ai_pace`] ticks, so the
//! games a screen shows and the headless games are the same games.

use std::time::Duration;

use nestris_ai::classic::ClassicPlayer;
use nestris_ai::Evaluator;
use nestris_classic::Randomizer;
use nestris_classic::{
    ActivePiece, AnyRandomizer, Board, Cell, ClassicGame, GameError, LockResult, Move, Piece,
    Placement, Qbasic, Relaytris,
};
use nestris_engine::{bcd, buttons};

use crate::bench::GameResult;
use crate::gamecsv::{parse_bool, parse_num, CsvRow, DecisionTimes};
use crate::player::{DecisionView, Player};
use crate::replayfile::{ClassicStart, Outcome};
use crate::rules::{move_button, RuleSet, Rules, Tick};

/// Ticks per second on screen (qbasic frames; relaytris ticks).
pub const TICKS_PER_SECOND: f64 = 60.0;
/// Headless games of a classic rule set end at this many lines unless told otherwise (as
/// `bench`'s default line cap): a good player never tops out with some randomizers.
pub const HEADLESS_LINE_CAP: u32 = 430;
/// A held button repeats its move after this many ticks...
pub const REPEAT_DELAY: u32 = 16;
/// ... every this many ticks.
pub const REPEAT_EVERY: u32 = 6;

/// The buttons in the order they are read, with their moves.
const BUTTON_MOVES: [(u8, Move); 7] = [
    (buttons::SELECT, Move::HardDrop),
    (buttons::A, Move::RotateCw),
    (buttons::UP, Move::RotateCw),
    (buttons::B, Move::RotateCcw),
    (buttons::LEFT, Move::Left),
    (buttons::RIGHT, Move::Right),
    (buttons::DOWN, Move::Down),
];

/// The first move among `bits` (see the module docs).
pub fn button_move(bits: u8) -> Option<Move> {
    BUTTON_MOVES
        .iter()
        .find(|(b, _)| bits & b != 0)
        .map(|&(_, m)| m)
}

/// A classic game and its controller port (which buttons were down on the last tick), and
/// the pieces it has dealt (for a recording).
#[derive(Debug, Clone)]
pub struct ClassicRun {
    /// The game.
    pub game: Classic,
    held: u8,
    held_ticks: u32,
    /// A copy of the randomizer as the game got it: it deals the same pieces again.
    dealer: AnyRandomizer,
    dealt: Vec<u8>,
}

impl ClassicRun {
    /// A new game of `rules` dealing from `randomizer`; `None` for [`Rules::Nes`].
    pub fn new(rules: Rules, randomizer: AnyRandomizer) -> Option<ClassicRun> {
        let dealer = randomizer.clone();
        Classic::new(rules, randomizer).map(|game| {
            let mut run = ClassicRun {
                game,
                held: 0,
                held_ticks: 0,
                dealer,
                dealt: Vec::new(),
            };
            run.deal_record();
            run
        })
    }

    /// The game a recording holds (version 3): its rule set, dealing its pieces.
    pub fn from_recording(c: &ClassicStart) -> Option<ClassicRun> {
        let rules = match c.rules {
            1 => Rules::Relaytris,
            2 => Rules::Qbasic,
            _ => return None,
        };
        let letters: String = c
            .pieces
            .iter()
            .map(|&p| Piece::ALL.get(p as usize).map_or('?', |p| p.letter()))
            .collect();
        let seq = nestris_classic::randomizer::FileSequence::from_text(&letters).ok()?;
        ClassicRun::new(rules, AnyRandomizer::File(seq))
    }

    /// Extends the record of dealt pieces to what the game has dealt (two at the start, one
    /// a lock) and one more.
    fn deal_record(&mut self) {
        let want = self.game.pieces_locked() as usize + 3;
        while self.dealt.len() < want {
            self.dealt.push(self.dealer.next_piece().index() as u8);
        }
    }

    /// The move `input` makes on this tick (edges and repeats, see the module docs).
    fn read(&mut self, input: u8) -> Option<Move> {
        let pressed = input & !self.held;
        let repeat = if input != 0 && input == self.held {
            self.held_ticks += 1;
            self.held_ticks >= REPEAT_DELAY
                && (self.held_ticks - REPEAT_DELAY).is_multiple_of(REPEAT_EVERY)
        } else {
            self.held_ticks = 0;
            false
        };
        self.held = input;
        button_move(if repeat { input } else { pressed })
    }
}

impl RuleSet for ClassicRun {
    fn rules(&self) -> Rules {
        match self.game {
            Classic::Relaytris(_) => Rules::Relaytris,
            Classic::Qbasic(_) => Rules::Qbasic,
        }
    }

    fn step(&mut self, input: u8) -> Tick {
        let mv = self.read(input);
        let (pieces, lines) = (self.game.pieces_locked(), self.game.lines_cleared());
        let gravity = self.game.tick(mv);
        let piece = self.game.pieces_locked() != pieces;
        if piece {
            self.deal_record();
        }
        Tick {
            piece,
            cleared: self.game.lines_cleared() - lines,
            gravity,
            soft_drop: 0,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        Some(Outcome {
            score: bcd::to_bcd(self.game.score()),
            lines: bcd::lines_encode(self.game.lines_cleared()),
            level: 0,
            ending: u8::from(self.game.is_game_over()),
        })
    }

    fn classic_start(&self) -> Option<ClassicStart> {
        Some(ClassicStart {
            rules: match self.game {
                Classic::Relaytris(_) => 1,
                Classic::Qbasic(_) => 2,
            },
            pieces: self.dealt.clone(),
        })
    }

    fn over(&self) -> bool {
        self.game.is_game_over()
    }

    fn topped_out(&self) -> bool {
        self.game.is_game_over()
    }

    fn score(&self) -> u64 {
        self.game.score()
    }

    fn lines(&self) -> u32 {
        self.game.lines_cleared()
    }
}

/// The classic AI as a player: one move every [`Classic::ai_pace`] ticks.
#[derive(Debug)]
pub struct ClassicAi {
    player: ClassicPlayer,
    eval: Evaluator,
    ticks: u64,
}

impl ClassicAi {
    /// A player evaluating with `eval`.
    pub fn new(eval: Evaluator) -> ClassicAi {
        ClassicAi {
            player: ClassicPlayer::new(),
            eval,
            ticks: 0,
        }
    }

    /// The AI's best placement for the current piece (a hint).
    pub fn hint(&self, game: &ClassicRun) -> Option<Placement> {
        nestris_ai::classic::choose(&game.game, &self.eval)
    }
}

impl Player<ClassicRun> for ClassicAi {
    fn input(&mut self, game: &ClassicRun) -> u8 {
        let t = self.ticks;
        self.ticks += 1;
        if !t.is_multiple_of(game.game.ai_pace()) {
            return 0;
        }
        self.player
            .input(&game.game, &self.eval)
            .map_or(0, move_button)
    }

    fn after(&mut self, tick: &Tick) {
        self.player.after(tick.gravity);
    }

    fn decisions(&self) -> u64 {
        self.player.decision_count()
    }

    fn last_elapsed(&self) -> Option<Duration> {
        self.player.last_decision().map(|d| d.elapsed)
    }

    fn last_decision(&self) -> Option<DecisionView> {
        self.player.last_decision().map(|d| DecisionView {
            target: d
                .target
                .iter()
                .map(|(x, y)| format!("{x},{y}"))
                .collect::<Vec<_>>()
                .join(" "),
            cost: d.cost,
            plan: d.plan.iter().map(|&m| move_button(m)).collect(),
            elapsed: d.elapsed,
        })
    }
}

/// A classic game's line in `bench --games-csv` (its own columns: no levels or frames).
#[derive(Clone, Debug, Default)]
pub struct ClassicRow(pub GameResult);

impl CsvRow for ClassicRow {
    const COLUMNS: &'static str =
        "game,score,lines,pieces,tetrises,topped_out,decisions,decision_ns,decision_hist";

    fn index(&self) -> u64 {
        self.0.index
    }

    fn score(&self) -> f64 {
        self.0.score as f64
    }

    fn to_line(&self) -> String {
        let r = &self.0;
        format!(
            "{},{},{},{},{},{},{}",
            r.index,
            r.score,
            r.lines,
            r.pieces,
            r.tetrises,
            r.topped_out,
            r.decisions.csv_fields()
        )
    }

    fn parse(f: &[&str]) -> Result<ClassicRow, String> {
        let score: u64 = parse_num(f[1], "score")?;
        let tetrises: u32 = parse_num(f[4], "tetrises")?;
        Ok(ClassicRow(GameResult {
            index: parse_num(f[0], "game")?,
            score,
            capped_score: score,
            lines: parse_num(f[2], "lines")?,
            pieces: parse_num(f[3], "pieces")?,
            tetrises,
            tetris_lines: tetrises * 4,
            before: [score; 3],
            topped_out: parse_bool(f[5], "topped_out")?,
            decisions: DecisionTimes::parse(f[6], f[7], f[8])?,
            ..GameResult::default()
        }))
    }
}

/// A game of either classic rule set.
#[derive(Debug, Clone)]
pub enum Classic {
    /// The relay computer's game.
    Relaytris(Relaytris),
    /// The QBasic tutorial game.
    Qbasic(Qbasic),
}

macro_rules! with_game {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            Classic::Relaytris($g) => $body,
            Classic::Qbasic($g) => $body,
        }
    };
}

impl Classic {
    /// A new game of `rules` dealing from `randomizer`; `None` for [`Rules::Nes`] (the
    /// engine's game, [`crate::nes::Nes`]).
    pub fn new(rules: Rules, randomizer: AnyRandomizer) -> Option<Classic> {
        Some(match rules {
            Rules::Relaytris => Classic::Relaytris(Relaytris::with_randomizer(randomizer)),
            Rules::Qbasic => Classic::Qbasic(Qbasic::with_randomizer(randomizer)),
            Rules::Nes => return None,
        })
    }

    /// Ticks between the AI's moves, so that it plays at a pace a screen can follow: 10
    /// moves a second for relaytris, 20 for qbasic (at [`TICKS_PER_SECOND`]).
    pub fn ai_pace(&self) -> u64 {
        match self {
            Classic::Qbasic(_) => 3,
            Classic::Relaytris(_) => 6,
        }
    }

    /// One tick of real time: qbasic runs a frame (input, then gravity); relaytris, which
    /// waits for the player, applies the input. Returns whether gravity acted.
    pub fn tick(&mut self, input: Option<Move>) -> bool {
        match self {
            Classic::Qbasic(g) => g.step_frame(input).gravity,
            Classic::Relaytris(g) => {
                if let Some(mv) = input {
                    g.apply_move(mv);
                }
                false
            }
        }
    }
}

impl ClassicGame for Classic {
    fn name(&self) -> &'static str {
        with_game!(self, g => g.name())
    }
    fn board(&self) -> &Board {
        with_game!(self, g => g.board())
    }
    fn allowed_moves(&self) -> &'static [Move] {
        with_game!(self, g => g.allowed_moves())
    }
    fn current(&self) -> Option<ActivePiece> {
        with_game!(self, g => g.current())
    }
    fn current_cells(&self) -> Option<[Cell; 4]> {
        with_game!(self, g => g.current_cells())
    }
    fn piece_cells(&self, piece: Piece, rotation: u8, x: i32, y: i32) -> Option<[Cell; 4]> {
        with_game!(self, g => g.piece_cells(piece, rotation, x, y))
    }
    fn next_piece(&self) -> Piece {
        with_game!(self, g => g.next_piece())
    }
    fn apply_move(&mut self, mv: Move) -> bool {
        with_game!(self, g => g.apply_move(mv))
    }
    fn drop_and_lock(&mut self) -> Result<LockResult, GameError> {
        with_game!(self, g => g.drop_and_lock())
    }
    fn lines_cleared(&self) -> u32 {
        with_game!(self, g => g.lines_cleared())
    }
    fn score(&self) -> u64 {
        with_game!(self, g => g.score())
    }
    fn pieces_locked(&self) -> u32 {
        with_game!(self, g => g.pieces_locked())
    }
    fn placements(&self) -> Vec<Placement> {
        with_game!(self, g => g.placements())
    }
    fn apply_placement(&mut self, placement: &Placement) -> Result<LockResult, GameError> {
        with_game!(self, g => g.apply_placement(placement))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{play, Limits};
    use nestris_classic::randomizer::Cycle;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn headless_relaytris_reaches_the_cap() {
        let eval = Evaluator::new(nestris_ai::Weights::default());
        let game = ClassicRun::new(Rules::Relaytris, AnyRandomizer::Cycle(Cycle::new()))
            .expect("a classic rule set");
        let stop = AtomicBool::new(false);
        let limits = Limits {
            pieces: 100,
            ..Limits::default()
        };
        let r = play(game, &mut ClassicAi::new(eval), 0, &limits, &stop).expect("not stopped");
        assert_eq!(r.pieces, 100);
        assert_eq!(r.score, r.lines as u64);
        assert_eq!(r.decisions.count, 100);
    }

    #[test]
    fn ai_follows_gravity_in_qbasic() {
        // A fixed preset, so the test does not move with the default's tuning.
        let eval = Evaluator::new(nestris_ai::Weights::meatfighter_2014());
        let mut run = ClassicRun::new(
            Rules::Qbasic,
            AnyRandomizer::Uniform(nestris_classic::randomizer::Uniform::new(5)),
        )
        .expect("a classic rule set");
        if let Classic::Qbasic(g) = &mut run.game {
            // Fast gravity so that it interrupts the plans.
            g.set_gravity_every(4);
        }
        let mut ai = ClassicAi::new(eval);
        for _ in 0..4000u32 {
            if run.over() {
                break;
            }
            let input = ai.input(&run);
            let tick = run.step(input);
            ai.after(&tick);
        }
        assert!(
            run.game.lines_cleared() >= 20,
            "{}",
            run.game.lines_cleared()
        );
    }

    #[test]
    fn buttons_are_moves_on_their_edges_and_repeat_when_held() {
        let mut run = ClassicRun::new(Rules::Relaytris, AnyRandomizer::Cycle(Cycle::new()))
            .expect("a classic rule set");
        assert_eq!(run.read(buttons::LEFT), Some(Move::Left));
        assert_eq!(run.read(buttons::LEFT), None);
        assert_eq!(run.read(0), None);
        assert_eq!(run.read(buttons::LEFT | buttons::A), Some(Move::RotateCw));
        let mut moves = 0;
        for _ in 0..REPEAT_DELAY + REPEAT_EVERY {
            moves += usize::from(run.read(buttons::LEFT | buttons::A).is_some());
        }
        assert_eq!(moves, 2);
        assert_eq!(
            button_move(buttons::SELECT | buttons::DOWN),
            Some(Move::HardDrop)
        );
    }
}
