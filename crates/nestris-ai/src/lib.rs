//! An AI for NES Tetris that plays the bit-exact engine through the controller, under the
//! game's real timing (gravity, tap rate, reaction time).
#![warn(missing_docs)]

pub mod board;
pub mod classic;
pub mod eval;
pub mod input;
pub mod nes_reach;
pub mod player;
pub mod reach;
pub mod search;
pub mod surface;
pub mod surface_vi;
pub mod tune;
pub mod value;

pub use board::{Board, BoardError};
pub use eval::{Evaluator, MoveSummary, Weights, WeightsError};
pub use input::{InputModel, InputModelError};
pub use nes_reach::{NesLock, NesReach};
pub use player::next_piece_probabilities;
pub use player::{Ai, AiConfig, Decision, Placement};
pub use reach::{best_lock, lock_values, Landing, Reach};
pub use search::{Search, Timing};
