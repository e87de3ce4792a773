//! Who holds the controller: [`Player`] gives one byte per frame. The AI of each rule set
//! ([`crate::nes::NesAi`], [`crate::classic::ClassicAi`]) and a recording ([`Recording`])
//! are players; a person at a keyboard is the front-end's own (it steps
//! [`crate::Run::step`] with the buttons held).

use std::time::Duration;

/// What a player decided for the current piece, for display.
#[derive(Clone, Debug)]
pub struct DecisionView {
    /// Where the piece will lock, as text.
    pub target: String,
    /// The evaluation of the chosen line (lower is better).
    pub cost: f64,
    /// The controller bytes planned from the decision on (one per frame on the NES, one per
    /// move in the classic games).
    pub plan: Vec<u8>,
    /// Time the decision took.
    pub elapsed: Duration,
}

/// Gives the controller byte for each frame of a game of `G`.
pub trait Player<G: ?Sized> {
    /// The byte to hold during the next frame, given the game after the last one.
    fn input(&mut self, game: &G) -> u8;
    /// How many decisions were made so far (0 for players that do not decide).
    fn decisions(&self) -> u64 {
        0
    }
    /// The time the last decision took.
    fn last_elapsed(&self) -> Option<Duration> {
        None
    }
    /// The last decision, for display.
    fn last_decision(&self) -> Option<DecisionView> {
        None
    }
    /// Called after each frame with what happened in it.
    fn after(&mut self, tick: &crate::Tick) {
        let _ = tick;
    }
}

/// A recording's inputs, played back frame by frame (nothing held after the last).
#[derive(Clone, Debug)]
pub struct Recording {
    inputs: Vec<u8>,
    next: usize,
}

impl Recording {
    /// Plays `inputs` from the first.
    pub fn new(inputs: Vec<u8>) -> Recording {
        Recording { inputs, next: 0 }
    }

    /// Whether every input has been given.
    pub fn done(&self) -> bool {
        self.next >= self.inputs.len()
    }
}

impl<G: ?Sized> Player<G> for Recording {
    fn input(&mut self, _game: &G) -> u8 {
        let b = self.inputs.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        b
    }
}
