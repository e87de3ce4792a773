//! The trace reader (`nestris verify`): any bytes, gzip-compressed first so the JSON reader is
//! what gets exercised, then parsed, checked and (if it parses) replayed.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    nestris_readers::trace(data);
});

#[path = "../readers.rs"]
mod nestris_readers;
