//! What every nestris front-end shares (the terminal commands, HTTP, Python),
//! so that a front-end only turns its input into these calls and their results into its
//! output:
//!
//! - [`rules`]: one abstraction over the rule sets ([`RuleSet`]): a game stepped one frame
//!   (or tick) at a time with one controller byte, and what happened in it. [`nes::Nes`] is
//!   the bit-exact engine (with another randomizer as a labelled departure,
//!   [`departure`]); [`classic::Classic`] the classic rule sets of `nestris-classic`.
//! - [`player`]: who gives the controller byte ([`Player`]): the AI of each rule set, a
//!   recording.
//! - [`run`]: a game being played, counted and recorded ([`Run`]); [`replayfile`], the
//!   replay format and its recorder.
//! - [`env`]: the game as a reinforcement-learning environment (frame and placement modes,
//!   action masks, N games on all cores, replay export), what the Python package wraps;
//!   [`render`], RGB and text pictures of a game.
//! - [`bench`]: headless games to the end, the benchmark runner on all cores, and its report
//!   in the field's format; [`gamecsv`], the per-game CSV that makes a run resumable;
//!   [`compare`], two runs' CSVs compared game by game (paired gains); [`boards`], every
//!   board a game's player faced at a spawn (a self-play dataset), and its census (where the
//!   lines went: Tetrises, and burns by the board they were made from).
#![warn(missing_docs)]

pub mod analysis;
pub mod bench;
pub mod boards;
pub mod classic;
pub mod compare;
pub mod departure;
pub mod env;
pub mod gamecsv;
pub mod inputs;
pub mod nes;
pub mod player;
pub mod position;
pub mod readlimit;
pub mod render;
pub mod replayfile;
pub mod rules;
pub mod run;

pub use player::{DecisionView, Player};
pub use rules::{RuleSet, Rules, Tick};
pub use run::Run;
