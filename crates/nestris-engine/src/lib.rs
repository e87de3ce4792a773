//! Bit-exact engine of NES Tetris (NTSC, US, 1989).
//!
//! The engine steps one frame at a time from a controller byte and reproduces the original
//! game's state on every frame, quirks included (each is marked `original game:` where it
//! happens). It has no I/O. Start a game with [`Game::start`] (the game's own start-up, frame
//! by frame) or [`Game::resume`] (from a position), then call [`Game::step`] once per frame.
#![warn(missing_docs)]

pub mod bcd;
pub mod colors;
pub mod display;
pub mod game;
pub mod piece;
pub mod playfield;
pub mod rng;

pub use game::{buttons, Ending, Game, GameType, PlayState, Snapshot, SnapshotError, StartConfig};
pub use piece::{Orientation, PieceKind, Tile};
pub use playfield::Playfield;
