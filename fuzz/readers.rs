//! Every file reader of nestris, fed arbitrary bytes: shared by the fuzz targets
//! (`fuzz_targets/*.rs`) and by the deterministic pass over the corpus in the test suite
//! (`crates/nestris/tests/fuzz_corpus.rs`). Each function must return (an error or a value)
//! without panicking, hanging or allocating without bound; the work it does after a
//! successful read is bounded too (a replay is replayed, at most `REPLAY_FRAMES` frames).

#![allow(dead_code)]

use nestris_session::replayfile;

#[path = "../crates/nestris/src/tui/keys.rs"]
mod keys;

#[path = "../crates/nestris/src/gaps.rs"]
#[allow(dead_code)]
mod gaps;

/// At most this many frames of a replay that reads are played (the reader caps a replay at
/// 2^25 frames; the fuzzer needs quicker runs).
pub const REPLAY_FRAMES: usize = 20_000;

/// A trace (`nestris verify`): the bytes are gzip-compressed, parsed, checked and replayed.
pub fn trace(data: &[u8]) {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    if enc.write_all(data).is_err() {
        return;
    }
    let Ok(gz) = enc.finish() else { return };
    trace_gz(&gz);
    // The raw bytes too: the gzip layer must refuse them cleanly.
    trace_gz(data);
}

fn trace_gz(gz: &[u8]) {
    if let Ok(t) = nestris_trace::Trace::parse("fuzz.jsonl.gz", gz) {
        let _ = t.check();
        let _ = nestris_trace::replay(&t);
    }
}

/// A replay file (`nestris replay`): decoded, and if it reads, replayed; then the same bytes
/// with their last four replaced by the right CRC-32, so the checks after the checksum are
/// exercised too.
pub fn replay(data: &[u8]) {
    replay_bytes(data);
    if data.len() >= 4 {
        let body = data.len() - 4;
        let mut fixed = data.to_vec();
        fixed[body..].copy_from_slice(&crc32fast::hash(&data[..body]).to_le_bytes());
        replay_bytes(&fixed);
    }
}

fn replay_bytes(data: &[u8]) {
    if let Ok(r) = replayfile::Replay::decode(data) {
        let mut g = r.start_game();
        for &b in r.inputs.iter().take(REPLAY_FRAMES) {
            if g.ended() {
                break;
            }
            g.step(b);
        }
        // What was read, written again, reads back the same.
        let again = replayfile::Replay::decode(&r.encode()).expect("a re-encoded replay reads");
        assert_eq!(again.inputs, r.inputs);
        assert_eq!(again.outcome, r.outcome);
    }
}

/// A weights file (`--weights`).
pub fn weights(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(w) = nestris_ai::Weights::from_toml(text) {
        let _ = w.warnings();
        // What it writes reads back.
        let back = nestris_ai::Weights::from_toml(&w.to_toml());
        assert!(back.is_ok(), "to_toml output does not read back: {back:?}");
    }
}

/// A piece file (`--randomizer file:PATH`): read, then 1,000 pieces dealt.
pub fn pieces(data: &[u8]) {
    use nestris_classic::Randomizer;
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mut f) = nestris_classic::randomizer::FileSequence::from_text(text) {
        for _ in 0..1000 {
            let _ = f.next_piece();
        }
    }
}

/// A gaps file (`sequence --gaps`): read, then 100 NES pieces with those gaps.
pub fn gaps(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(g) = gaps::parse_gaps(text, "fuzz.txt") {
        assert!(!g.is_empty());
        let mut v = nestris_engine::rng::POWER_ON_SEED;
        let (mut id, mut count) = (0u8, 0u8);
        for i in 0..100 {
            v = nestris_engine::rng::advance(v, g[i % g.len()]);
            let p = nestris_engine::rng::pick(v, id, count);
            (v, id, count) = (p.rng, p.spawn_id, p.spawn_count);
        }
    }
}

/// A key map (`play --keys FILE` as TOML, or `--keys` entries).
pub fn keys(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = keys::KeyMap::from_toml(text);
    let _ = keys::KeyMap::parse(text);
}

/// A position file (`--position`): a text position or a gzip-compressed trace.
pub fn position(data: &[u8]) {
    if let Ok(p) = nestris_session::position::StartPoint::parse("fuzz.txt", data) {
        let _ = p.is_departure();
    }
}

/// A request to `nestris serve`: the first line is the target (path and query), the rest the
/// body (POSTed when there is one). Every answer is a status with a body, never a panic; bad
/// input is a 4xx.
pub fn http(data: &[u8]) {
    let (head, body) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Ok(target) = std::str::from_utf8(head) else {
        return;
    };
    let method = if body.is_empty() { "GET" } else { "POST" };
    let r = nestris_http::route(method, target, body);
    assert!((200..600).contains(&r.status), "status {}", r.status);
}
