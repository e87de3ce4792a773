//! The Python bindings of nestris (module `nestris._nestris`, wrapped by the pure-Python
//! package `nestris` in `python/nestris`): a thin front-end that turns Python arguments into
//! calls of `nestris_session::env`, `nestris_session::render`, the replay format and the AI,
//! and their results into Python objects and numpy arrays.
//!
//! Built only with the `python` feature (maturin enables it); without it this crate is empty.
#![warn(missing_docs)]

#[cfg(feature = "python")]
mod py;
