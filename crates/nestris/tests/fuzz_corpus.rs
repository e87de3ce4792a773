//! A short deterministic pass of every file reader over the fuzz corpus (`fuzz/corpus/TARGET/`):
//! the same reader functions the fuzz targets call (`fuzz/readers.rs`), so each finding the
//! fuzzer made, once its input is in the corpus, stays fixed. Run the fuzzer itself with
//! `cargo +nightly fuzz run TARGET` (README.md, "Fuzzing").

#[path = "../../../fuzz/readers.rs"]
mod readers;

use std::path::PathBuf;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/corpus")).join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("corpus entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("corpus file");
            (p, bytes)
        })
        .collect()
}

fn pass(target: &str, read: fn(&[u8])) {
    for (path, bytes) in corpus(target) {
        let r = std::panic::catch_unwind(|| read(&bytes));
        assert!(r.is_ok(), "{target}: {} panics the reader", path.display());
    }
}

#[test]
fn trace_corpus() {
    pass("trace", readers::trace);
}

#[test]
fn replay_corpus() {
    pass("replay", readers::replay);
}

#[test]
fn weights_corpus() {
    pass("weights", readers::weights);
}

#[test]
fn pieces_corpus() {
    pass("pieces", readers::pieces);
}

#[test]
fn gaps_corpus() {
    pass("gaps", readers::gaps);
}

#[test]
fn keys_corpus() {
    pass("keys", readers::keys);
}

#[test]
fn position_corpus() {
    pass("position", readers::position);
}

#[test]
fn http_corpus() {
    pass("http", readers::http);
}

#[test]
fn gamecsv_corpus() {
    pass("gamecsv", readers::gamecsv);
}

#[test]
fn tune_state_corpus() {
    pass("tune_state", readers::tune_state);
}

#[test]
fn http_socket_corpus() {
    pass("http_socket", readers::http_socket);
}
