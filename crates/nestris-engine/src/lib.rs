//! Bit-exact engine of NES Tetris (NTSC, US, 1989).
#![warn(missing_docs)]

pub mod piece;
