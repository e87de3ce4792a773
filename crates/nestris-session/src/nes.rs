//! The NES rule set: the bit-exact engine ([`Nes`]), its AI as a [`Player`] ([`NesAi`]), and
//! how a session numbers its games ([`start_config`]).

use std::time::Duration;

use nestris_ai::Ai;
use nestris_classic::AnyRandomizer;
use nestris_engine::{bcd, buttons, Ending, Game, GameType, StartConfig};

use crate::departure::Departure;
use crate::player::{DecisionView, Player};
use crate::replayfile::Outcome;
use crate::rules::{RuleSet, Rules, Tick};

/// How the double killscreen is named wherever it is on: it is a departure from the original.
pub const DOUBLE_KILLSCREEN_LABEL: &str =
    "double killscreen from level 39 (departure from the original)";

/// The start of game number `index` of a session from `seed` (deterministic in seed and
/// index).
pub fn start_config(
    seed: u64,
    index: u64,
    level: u8,
    game_type: GameType,
    height: u8,
) -> StartConfig {
    let mixed = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    StartConfig::from_seed(mixed, level, game_type, height)
}

/// A game's outcome for the recording.
pub fn outcome(g: &Game) -> Outcome {
    Outcome {
        score: g.score,
        lines: g.lines,
        level: g.level,
        ending: g.ending as u8,
    }
}

/// The departures `game` runs with, as a suffix for a one-line report (`""` for none).
pub fn departure_suffix(game: &Game) -> String {
    if game.double_killscreen() {
        format!(" · {DOUBLE_KILLSCREEN_LABEL}")
    } else {
        String::new()
    }
}

/// Pieces spawned, from the statistics counters (hundreds kept in binary by the game).
pub fn pieces(g: &Game) -> u32 {
    g.stats
        .iter()
        .map(|&s| (s >> 8) as u32 * 100 + bcd::from_bcd((s & 0xFF) as u32) as u32)
        .sum()
}

/// The NES engine's game, with another piece randomizer in place of its picker when one is
/// chosen (a departure from the original, [`Departure`]).
#[derive(Debug, Clone)]
pub struct Nes {
    /// The engine's game.
    pub game: Game,
    /// The randomizer that replaces the game's picker, if any.
    pub departure: Option<Departure>,
    /// The game started from a position rather than at the menu (a departure,
    /// [`crate::position`]).
    pub from_position: bool,
    last_spawn: Option<u8>,
}

impl Nes {
    /// `game` (not stepped yet), dealing from `randomizer` instead of its own picker when
    /// given (a departure).
    pub fn new(game: Game, randomizer: Option<AnyRandomizer>) -> Nes {
        let departure = randomizer.map(|r| Departure::new(r, &game));
        Nes {
            game,
            departure,
            from_position: false,
            last_spawn: None,
        }
    }

    /// `game` (a game resumed at a spawn from a saved position, not stepped yet), dealing
    /// the pieces after its next piece from `randomizer` (a departure), which has dealt the
    /// game's pieces up to its next piece ([`Departure::resumed`]).
    pub fn resumed(game: Game, randomizer: AnyRandomizer) -> Nes {
        let mut nes = Nes::new(game, None);
        nes.departure = Some(Departure::resumed(randomizer, &nes.game));
        nes
    }

    /// The engine's game.
    pub fn engine(&self) -> &Game {
        &self.game
    }
}

/// A NES game reads as the engine's game (its fields and queries); it changes only through
/// [`RuleSet::step`].
impl std::ops::Deref for Nes {
    type Target = Game;
    fn deref(&self) -> &Game {
        &self.game
    }
}

impl RuleSet for Nes {
    fn rules(&self) -> Rules {
        Rules::Nes
    }

    fn step(&mut self, input: u8) -> Tick {
        let before_cleared = self.game.completed_lines;
        let (state, held_down, score) = (
            self.game.play_state as u8,
            self.game.hold_down_points,
            self.game.score_uncapped,
        );
        self.game.step(input);
        if let Some(d) = &mut self.departure {
            d.after_step(&mut self.game);
        }
        let mut tick = Tick::default();
        if self.game.piece_active() && self.last_spawn != Some(self.game.spawn_count) {
            self.last_spawn = Some(self.game.spawn_count);
            tick.piece = true;
        }
        // The row check counts completed lines; the statistics update adds them up and
        // resets the count.
        if before_cleared > 0 && self.game.completed_lines == 0 {
            tick.cleared = before_cleared as u32;
        }
        // The score routine (state 5, after the lock's states 2-4, which leave
        // holdDownPoints alone) ran in this frame when the play moved on past it to the
        // B-type check, the garbage, the spawn or the next piece (not to a top-out).
        let after = self.game.play_state as u8;
        if (2..=5).contains(&state)
            && matches!(after, 1 | 6..=8)
            && held_down.wrapping_sub(2) & 0x80 == 0
        {
            tick.soft_drop = nestris_engine::game::soft_drop_award(score, held_down);
        }
        tick
    }

    fn over(&self) -> bool {
        self.game.game_over() || self.game.ended()
    }

    fn ended(&self) -> bool {
        self.game.ended()
    }

    fn leave_input(&self, frames: u64) -> u8 {
        if frames.is_multiple_of(2) {
            buttons::START
        } else {
            0
        }
    }

    fn topped_out(&self) -> bool {
        self.game.game_over() || self.game.ending == Ending::ToppedOut
    }

    fn score(&self) -> u64 {
        self.game.score_uncapped
    }

    fn shown_score(&self) -> u64 {
        self.game.score_value()
    }

    fn lines(&self) -> u32 {
        if self.game.game_type == GameType::B {
            25u32.saturating_sub(self.game.lines_value())
        } else {
            self.game.lines_value()
        }
    }

    fn level(&self) -> u8 {
        self.game.level
    }

    fn b_type(&self) -> bool {
        self.game.game_type == GameType::B
    }

    fn goal_reached(&self) -> bool {
        self.game.ending == Ending::BTypeCleared
    }

    fn departure_suffix(&self) -> String {
        let mut s = departure_suffix(&self.game);
        if self.from_position {
            s.push_str(" · ");
            s.push_str(crate::position::LABEL);
        }
        s
    }

    fn outcome(&self) -> Option<Outcome> {
        Some(outcome(&self.game))
    }

    fn position(&self) -> Option<crate::position::Position> {
        crate::position::Position::from_game(&self.game)
    }
}

/// The NES AI as a player.
#[derive(Debug, Clone)]
pub struct NesAi(pub Ai);

impl Player<Nes> for NesAi {
    fn input(&mut self, game: &Nes) -> u8 {
        self.0.next_input(&game.game)
    }

    fn decisions(&self) -> u64 {
        self.0.decision_count()
    }

    fn last_elapsed(&self) -> Option<Duration> {
        self.0.last_decision().map(|d| d.elapsed)
    }

    fn last_decision(&self) -> Option<DecisionView> {
        self.0.last_decision().map(|d| DecisionView {
            target: format!("{:?} x{} y{}", d.target.orientation, d.target.x, d.target.y),
            cost: d.cost,
            plan: d.plan.clone(),
            elapsed: d.elapsed,
        })
    }
}

#[cfg(test)]
mod soft_drop_tests {
    use super::*;
    use nestris_engine::{buttons, GameType, StartConfig};

    /// A piece soft-dropped from the spawn to the floor of an empty field: the lock's tick
    /// carries the points the score gained (no line, so they are all the soft drop's), as the
    /// game's routine pays them; a piece left to gravity carries none.
    #[test]
    fn the_lock_tick_counts_the_soft_drop_points() {
        for soft in [true, false] {
            let mut nes = Nes::new(
                Game::start(StartConfig::from_seed(5, 0, GameType::A, 0)),
                None,
            );
            // To the first piece under control.
            while !nes.game.piece_active() {
                nes.step(0);
            }
            let (score, y0) = (nes.game.score_uncapped, nes.game.y);
            let mut points = 0;
            let mut frames = 0;
            let mut rows = 0;
            let mut last_y = y0;
            while nes.game.piece_active() && frames < 5000 {
                // Down pressed anew after one frame released, then held.
                let input = if soft && frames > 0 { buttons::DOWN } else { 0 };
                let tick = nes.step(input);
                points += tick.soft_drop;
                if nes.game.piece_active() && nes.game.y != last_y {
                    rows += 1;
                    last_y = nes.game.y;
                }
                frames += 1;
            }
            while nes.game.score_uncapped == score && frames < 5000 && soft {
                points += nes.step(0).soft_drop;
                frames += 1;
            }
            let gained = nes.game.score_uncapped - score;
            assert_eq!(
                points, gained,
                "soft {soft}: the ticks' points and the score's gain"
            );
            if soft {
                // original game: 18 rows make holdDownPoints 19; 19 - 1 = $12 added in binary
                // reads as BCD 12.
                assert_eq!((rows, points), (18, 12), "rows dropped, points");
            } else {
                assert_eq!(points, 0);
            }
        }
    }
}
