//! See `fuzz/readers.rs` (`tune_state`): any bytes in, an error or a value out, never a panic, a hang or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    nestris_readers::tune_state(data);
});

#[path = "../readers.rs"]
mod nestris_readers;
