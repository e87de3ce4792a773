//! See `fuzz/readers.rs` (`gamecsv`): any bytes in, an error or a value out, never a panic, a hang or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    nestris_readers::gamecsv(data);
});

#[path = "../readers.rs"]
mod nestris_readers;
