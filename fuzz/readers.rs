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

/// A `bench --games-csv` file that `--resume` reads (`gamecsv::parse`), for the NES and the
/// classic rows: once with the options its own first line records (so the rows are reached),
/// once with options of a run that did not write it.
pub fn gamecsv(data: &[u8]) {
    use nestris_session::bench::GameResult;
    use nestris_session::classic::ClassicRow;
    use nestris_session::gamecsv::{self, CsvRow, OPTIONS_PREFIX};
    let own = std::str::from_utf8(data)
        .ok()
        .and_then(|t| t.lines().next())
        .and_then(|l| l.strip_prefix(OPTIONS_PREFIX))
        .and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok());
    let other = serde_json::json!({"seed": 0, "level": 18});
    for options in own.iter().chain(std::iter::once(&other)) {
        if let Ok(p) = gamecsv::parse::<GameResult>("fuzz.csv", data, options) {
            assert!(p.complete <= data.len());
            for g in &p.games {
                // What was read, written again, reads back the same.
                let line = g.to_line();
                let fields: Vec<&str> = line.split(',').collect();
                let back = GameResult::parse(&fields).expect("a written row reads back");
                assert_eq!(back.to_line(), line);
            }
        }
        let _ = gamecsv::parse::<ClassicRow>("fuzz.csv", data, options);
    }
}

/// The tuner's state file (`tune --state`, TOML): read, and if it reads, its candidates drawn
/// (a few), its mean weights built and its TOML read back.
pub fn tune_state(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mut c) = nestris_ai::tune::Cem::from_toml(text) {
        assert!(c.population <= 1000);
        for k in c.pending().into_iter().take(4) {
            let _ = c.candidate(k);
        }
        let _ = c.mean_weights("fuzz");
        let back = nestris_ai::tune::Cem::from_toml(&c.to_toml());
        assert!(back.is_ok(), "to_toml output does not read back: {back:?}");
        // Finish the generation (small populations: the fuzzer needs quick runs); the state
        // after the refit reads back too.
        if c.population <= 40 {
            for k in c.pending() {
                c.record(k, (k % 7) as f64);
            }
            let back = nestris_ai::tune::Cem::from_toml(&c.to_toml());
            assert!(
                back.is_ok(),
                "the state after a generation does not read back: {back:?}"
            );
        }
    }
}

/// The bytes a client sends to `nestris serve` (`read_request`: request line, headers,
/// body); a request that reads is routed (health and version only: the analysis has its own
/// target, `http`). Never a panic; errors are 4xx or 505.
pub fn http_socket(data: &[u8]) {
    match nestris_http::read_request(data) {
        Ok(r) => {
            assert!(r.body.len() <= nestris_http::MAX_BODY);
            if r.target.starts_with("/v1/health") || r.target.starts_with("/v1/version") {
                let _ = nestris_http::route(&r.method, &r.target, &r.body);
            }
        }
        Err(e) => assert!(
            (400..=505).contains(&e.status),
            "status {}: {}",
            e.status,
            e.body
        ),
    }
}
