//! Classic Tetris rule sets and randomizers for nestris.
//!
//! # Design
//!
//! This crate holds no game of the NES engine's; it takes from the engine only its piece
//! picker (`nestris_engine::rng::pick`), for `nes-seeded`. It holds:
//!
//! * [`randomizer`]: the piece sequences of other historical games (Sega
//!   Tetris, Bloxeed, a uniform generator, the relay computer's fixed
//!   cycle, a 7-bag, the NES picker's rule on a seeded generator, and a
//!   sequence read from a file), selected by name via
//!   [`RandomizerSpec`]. `nes` is recognised but left to the engine, and
//!   `file:PATH` is recognised but the caller reads the file and passes its
//!   text, so the crate does no I/O.
//! * [`rules`]: two small games, [`Relaytris`] (turn based, 10x16) and
//!   [`Qbasic`] (gravity, 10x20), behind the [`ClassicGame`] trait. Both
//!   share one generic mechanics core (collision, locking, line clears and
//!   a breadth-first placement search); a rule set only supplies its board
//!   size, its moves, its rotation states and its spawn position.
//! * [`Board`]: the settled cells as `u16` row bitmasks (bit x = column x,
//!   row 0 = top), the form the AI evaluates.
//!
//! Everything is deterministic: pseudo-random choices come from
//! [`randomizer::SplitMix64`] or Sega's `rand()` and depend only on the
//! seed. Bad input is reported through typed errors; nothing panics.
#![warn(missing_docs)]

pub mod board;
pub mod piece;
pub mod randomizer;
pub mod rules;

pub use board::{Board, BoardError, Cell};
pub use piece::Piece;
pub use randomizer::{
    AnyRandomizer, ParseRandomizerError, Randomizer, RandomizerError, RandomizerSpec, SegaNextGame,
};
pub use rules::qbasic::Qbasic;
pub use rules::relaytris::Relaytris;
pub use rules::{perft, ActivePiece, ClassicGame, GameError, LockResult, Move, Placement};
