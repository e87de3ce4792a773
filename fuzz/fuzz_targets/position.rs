//! The position-file reader (`--position`): any bytes in, an error or a value out, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    nestris_readers::position(data);
});

#[path = "../readers.rs"]
mod nestris_readers;
