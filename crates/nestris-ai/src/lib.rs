//! An AI for NES Tetris that plays the bit-exact engine through the controller, under the
//! game's real timing (gravity, tap rate, reaction time).
#![warn(missing_docs)]

pub mod input;
pub mod player;

pub use input::{InputModel, InputModelError};
pub use player::{Ai, AiConfig, Decision, Placement};
