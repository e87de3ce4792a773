//! One abstraction over the rule sets: a game stepped one frame at a time with one
//! controller byte ([`RuleSet`]). The game loop ([`crate::run::Run`]), the headless games and
//! the benchmark ([`crate::bench`]) work over it, so a new rule set is one implementation.

use nestris_engine::buttons;

/// The rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// NES Tetris (1989), the bit-exact engine.
    Nes,
    /// The relay computer's Tetris (`nestris_classic::Relaytris`).
    Relaytris,
    /// The QBasic tutorial Tetris (`nestris_classic::Qbasic`).
    Qbasic,
}

impl Rules {
    /// Its name (`nes`, `relaytris`, `qbasic`).
    pub fn name(self) -> &'static str {
        match self {
            Rules::Nes => "nes",
            Rules::Relaytris => "relaytris",
            Rules::Qbasic => "qbasic",
        }
    }
}

/// What happened in one frame (tick).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tick {
    /// A piece counted in this frame: on the NES, a piece spawned; in the classic games, a
    /// piece locked.
    pub piece: bool,
    /// Lines cleared in this frame (counted when the clear is scored).
    pub cleared: u32,
    /// Gravity moved the piece (the classic games; the NES AI follows gravity itself).
    pub gravity: bool,
    /// Points the lock scored in this frame for soft-dropping (the NES's `addHoldDownPoints`;
    /// 0 in the classic games).
    pub soft_drop: u64,
}

/// A game of some rule set, stepped one frame (or tick) at a time with one controller byte
/// (the NES bit order, [`nestris_engine::buttons`]; the classic games read it as moves, see
/// [`crate::classic`]).
pub trait RuleSet {
    /// The rule set.
    fn rules(&self) -> Rules;
    /// Runs one frame with `input` held.
    fn step(&mut self, input: u8) -> Tick;
    /// Whether play is over: topped out, or the game ended (a B-type goal reached).
    fn over(&self) -> bool;
    /// Whether the screen's game has ended (on the NES, after the curtain when Start is
    /// pressed; elsewhere when play is over).
    fn ended(&self) -> bool {
        self.over()
    }
    /// The input a person gives once play is over, to leave the game (on the NES, Start
    /// every other frame once the curtain is down).
    fn leave_input(&self, frames: u64) -> u8 {
        let _ = frames;
        0
    }
    /// Whether the game ended by topping out.
    fn topped_out(&self) -> bool;
    /// The exact score (no cap).
    fn score(&self) -> u64;
    /// The score as the game shows it (the NES caps it at 999,999).
    fn shown_score(&self) -> u64 {
        self.score()
    }
    /// Lines cleared (B-type: cleared so far, not the lines left).
    fn lines(&self) -> u32;
    /// The level (0 for rule sets without levels).
    fn level(&self) -> u8 {
        0
    }
    /// Whether this is a B-type game (25 lines to clear): no line cap, no level milestones.
    fn b_type(&self) -> bool {
        false
    }
    /// Whether a B-type game reached its goal.
    fn goal_reached(&self) -> bool {
        false
    }
    /// How the game stands, as a recording keeps it.
    fn outcome(&self) -> Option<crate::replayfile::Outcome> {
        None
    }
    /// A classic rule set's game as a recording keeps it: the rule set and the pieces dealt
    /// so far (`None` for the NES game, whose start configuration says it all).
    fn classic_start(&self) -> Option<crate::replayfile::ClassicStart> {
        None
    }
    /// The game as a position file keeps it ([`crate::position::Position`]), while a piece
    /// is under control (`None` otherwise, and for rule sets without positions).
    fn position(&self) -> Option<crate::position::Position> {
        None
    }
    /// The departures from the original game this game runs with, as a suffix for a
    /// one-line report (`""` for none).
    fn departure_suffix(&self) -> String {
        String::new()
    }
}

/// The controller byte that stands for a classic move (see [`crate::classic`]).
pub fn move_button(mv: nestris_classic::Move) -> u8 {
    use nestris_classic::Move;
    match mv {
        Move::Left => buttons::LEFT,
        Move::Right => buttons::RIGHT,
        Move::Down => buttons::DOWN,
        Move::RotateCw => buttons::A,
        Move::RotateCcw => buttons::B,
        Move::HardDrop => buttons::SELECT,
    }
}
