//! The AI as a player: one controller byte per frame.

use std::time::Duration;

use nestris_engine::{Game, Orientation};

use crate::input::InputModel;

/// A lock position: orientation and the piece centre's column and row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Orientation at lock.
    pub orientation: Orientation,
    /// Column of the piece's centre.
    pub x: u8,
    /// Row of the piece's centre.
    pub y: u8,
}

/// What the AI decided for one piece.
#[derive(Clone, Debug)]
pub struct Decision {
    /// Where the piece will lock.
    pub target: Placement,
    /// The evaluation of the chosen line (lower is better).
    pub cost: f64,
    /// Controller bytes from the piece's first active frame on.
    pub plan: Vec<u8>,
    /// Time the decision took.
    pub elapsed: Duration,
}

/// The AI's settings.
#[derive(Clone, Debug)]
pub struct AiConfig {
    /// Tap speed.
    pub input: InputModel,
    /// Reaction time in frames.
    pub reaction: u32,
}

impl Default for AiConfig {
    fn default() -> Self {
        AiConfig {
            input: InputModel::default(),
            reaction: 18,
        }
    }
}

/// The AI player.
#[derive(Clone, Debug)]
pub struct Ai {
    cfg: AiConfig,
    last: Option<Decision>,
}

impl Ai {
    /// A player with these settings.
    pub fn new(cfg: AiConfig) -> Ai {
        Ai { cfg, last: None }
    }

    /// The controller byte to hold during the next frame, given the game before that frame.
    pub fn next_input(&mut self, game: &Game) -> u8 {
        let _ = (game, &self.cfg);
        0
    }

    /// The last decision made.
    pub fn last_decision(&self) -> Option<&Decision> {
        self.last.as_ref()
    }
}
