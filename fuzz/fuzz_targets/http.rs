//! The `nestris serve` router (target, query and body parsers, and the answers): any bytes in, a status and a body out, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    nestris_readers::http(data);
});

#[path = "../readers.rs"]
mod nestris_readers;
