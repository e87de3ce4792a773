//! The terminal screens as text snapshots (rendered by the binary through ratatui's
//! `TestBackend` via `nestris replay --screen`), replay round trips and damaged replays.
//!
//! `UPDATE_SNAPSHOTS=1 cargo test -p nestris --test tui_screens` rewrites the snapshots.

mod tui_support;

use nestris_engine::{GameType, PlayState, StartConfig};
use tui_support::replayfile::{Departures, Replay, DEPARTURES_OFFSET, MAGIC, VERSION_1};
use tui_support::*;

#[test]
fn start_screen() {
    let dir = scratch("start");
    let file = dir.join("start.rep");
    let start = StartConfig::from_seed(1, 18, GameType::A, 0);
    write_replay(&file, start, &[0]);
    let text = screen(&file, 1, "80x24");
    for word in [
        "LINES-000",
        "STATISTICS",
        "SCORE",
        "TOP",
        "NEXT",
        "LEVEL",
        "A-TYPE",
    ] {
        assert!(text.contains(word), "{word} missing:\n{text}");
    }
    assert_snapshot("start_80x24", &text);
    // More room: blocks four characters wide and two rows high.
    let big = screen(&file, 1, "120x46");
    assert_snapshot("start_120x46", &big);
    // Small terminals get a message, not a panic.
    let tiny = screen(&file, 1, "30x10");
    assert!(tiny.contains("too small"), "{tiny}");
}

#[test]
fn line_clear_animation() {
    let dir = scratch("clear");
    let file = dir.join("clear.rep");
    let start = StartConfig::from_seed(3, 0, GameType::A, 0);
    let inputs = scripted_game(
        start,
        |g| g.play_state == PlayState::LineClearAnimation && g.row_y == 2,
        60_000,
    );
    let g = replay_game(start, &inputs);
    assert_eq!(
        g.play_state,
        PlayState::LineClearAnimation,
        "no line clear reached"
    );
    write_replay(&file, start, &inputs);
    let text = screen(&file, inputs.len() as u64, "80x24");
    assert_snapshot("line_clear_80x24", &text);
}

#[test]
fn game_over_curtain() {
    let dir = scratch("curtain");
    let file = dir.join("curtain.rep");
    let start = StartConfig::from_seed(5, 18, GameType::A, 0);
    let mut g = nestris_engine::Game::start(start);
    let mut inputs = Vec::new();
    while !(g.game_over() && g.curtain_row >= 10) {
        g.step(0);
        inputs.push(0);
        assert!(inputs.len() < 100_000, "no game over");
    }
    write_replay(&file, start, &inputs);
    let text = screen(&file, inputs.len() as u64, "80x24");
    assert_snapshot("curtain_80x24", &text);
}

#[test]
fn b_type_ending() {
    let dir = scratch("btype");
    let file = dir.join("btype.rep");
    let start = StartConfig::from_seed(1, 5, GameType::B, 2);
    let inputs = scripted_game(start, |_| false, 200_000);
    let g = replay_game(start, &inputs);
    assert_eq!(
        g.ending,
        nestris_engine::Ending::BTypeCleared,
        "the scripted player did not clear the B-type game"
    );
    write_replay(&file, start, &inputs);
    // 200 frames into the ending.
    let text = screen(&file, inputs.len() as u64 + 200, "80x24");
    assert!(text.contains("B-TYPE ENDING"), "{text}");
    assert!(text.contains("BONUS"), "{text}");
    assert!(text.contains("7000"), "bonus 5 x 1000 + 2 x 1000:\n{text}");
    assert_snapshot("btype_ending_80x24", &text);
}

#[test]
fn replay_round_trip() {
    let dir = scratch("roundtrip");
    let file = dir.join("game.rep");
    let start = StartConfig::from_seed(11, 9, GameType::A, 0);
    let inputs = scripted_game(start, |_| false, 4000);
    let written = write_replay(&file, start, &inputs);
    let bytes = std::fs::read(&file).unwrap();
    let read = Replay::decode(&bytes).expect("decodes");
    assert_eq!(read, written);
    let a = replay_game(start, &inputs);
    let b = replay_game(read.start, &read.inputs);
    assert_eq!(a, b, "same final state");
    // The binary replays it to the same end.
    let out = run(&["replay", "--check", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        line.trim(),
        format!(
            "score {} (capped) true score {} lines {} level {} frames {}",
            a.score_value(),
            a.score_uncapped,
            a.lines_value(),
            a.level,
            inputs.len()
        )
    );
}

#[test]
fn watch_records_and_replays() {
    let dir = scratch("watch");
    let file = dir.join("ai.rep");
    let out = run(&[
        "watch",
        "--headless",
        "--level",
        "18",
        "--seed",
        "9",
        "--max-frames",
        "3000",
        "--record",
        file.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let watch_line = String::from_utf8(out.stdout).unwrap();
    assert!(watch_line.starts_with("game 1: score "), "{watch_line}");
    let out = run(&["replay", "--check", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let check = String::from_utf8(out.stdout).unwrap();
    // "game 1: score S lines L level V pieces P frames F" vs "score S lines L level V frames F".
    let keys = ["score", "lines", "level", "frames"];
    assert_eq!(fields(&watch_line, &keys), fields(&check, &keys));
}

/// The words after each of `keys` in a one-line report.
fn fields(s: &str, keys: &[&str]) -> Vec<String> {
    let w: Vec<&str> = s.split_whitespace().collect();
    keys.iter()
        .map(|k| {
            let i = w
                .iter()
                .position(|x| x == k)
                .unwrap_or_else(|| panic!("{k} in {s}"));
            w[i + 1].to_string()
        })
        .collect()
}

#[test]
fn double_killscreen_games_record_and_replay() {
    let dir = scratch("double-killscreen");
    let file = dir.join("dk.rep");
    let row16 =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../nestris-ai/weights/row16.toml");
    let out = run(&[
        "watch",
        "--headless",
        "--level",
        "39",
        "--double-killscreen",
        "--seed",
        "5",
        "--games",
        "1",
        "--max-frames",
        "20000",
        // Without playouts, and with row 16's double killscreen table rather than the
        // default's, so that the game ends within those frames (with the playouts, or row
        // 18's well in column 2, it lives longer than 20,000 frames here).
        "--rollout-locks",
        "0",
        "--weights",
        row16.to_str().unwrap(),
        "--record",
        file.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let watch_line = String::from_utf8(out.stdout).unwrap();
    assert!(
        watch_line.contains("double killscreen from level 39 (departure from the original)"),
        "{watch_line}"
    );
    let bytes = std::fs::read(&file).unwrap();
    let replay = Replay::decode(&bytes).expect("decodes");
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 2, "version 2");
    assert_eq!(bytes[DEPARTURES_OFFSET], 1, "the double killscreen bit");
    assert!(replay.departures.double_killscreen);
    assert!(
        replay.outcome.is_some_and(|o| o.ending != 0),
        "the game ended"
    );
    // `replay --check` sets the flag and reaches the recorded end.
    let out = run(&["replay", "--check", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let check = String::from_utf8(out.stdout).unwrap();
    let keys = ["score", "lines", "level", "frames"];
    assert_eq!(fields(&watch_line, &keys), fields(&check, &keys));
    assert!(
        check.contains(" · double killscreen from level 39 (departure from the original)"),
        "{check}"
    );
    // The screen replay labels it.
    let text = screen(&file, 100, "100x30");
    assert!(text.contains("double killscreen from 39"), "{text}");
    assert!(text.contains("(departure from the original)"), "{text}");
    // Without the flag the same inputs give another game: the check says so.
    let plain = Replay {
        departures: Departures::default(),
        ..replay
    };
    let plain_file = dir.join("plain.rep");
    std::fs::write(&plain_file, plain.encode()).unwrap();
    let out = run(&["replay", "--check", plain_file.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("diverged"));
}

#[test]
fn version_1_replays_still_play() {
    let dir = scratch("version1");
    let file = dir.join("v1.rep");
    let start = StartConfig::from_seed(11, 9, GameType::A, 0);
    let inputs = scripted_game(start, |_| false, 3000);
    let written = write_replay(&file, start, &inputs);
    // The same file as the first format wrote it: version 1, no departures byte.
    let mut v1 = std::fs::read(&file).unwrap();
    v1[8..10].copy_from_slice(&VERSION_1.to_le_bytes());
    v1.remove(DEPARTURES_OFFSET);
    let n = v1.len() - 4;
    let crc = crc32(&v1[..n]);
    v1[n..].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&file, &v1).unwrap();
    assert_eq!(Replay::decode(&v1).expect("decodes"), written);
    let out = run(&["replay", "--check", file.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let g = replay_game(start, &inputs);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        format!(
            "score {} (capped) true score {} lines {} level {} frames {}",
            g.score_value(),
            g.score_uncapped,
            g.lines_value(),
            g.level,
            inputs.len()
        )
    );
}

fn expect_error(bytes: &[u8], name: &str, needle: &str) {
    let dir = scratch(name);
    let file = dir.join("bad.rep");
    std::fs::write(&file, bytes).unwrap();
    let out = run(&["replay", "--check", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{name}: {err}");
    assert!(!err.contains("panicked"), "{name}: {err}");
    assert!(err.contains(needle), "{name}: expected {needle:?} in {err}");
}

#[test]
fn damaged_replays() {
    let start = StartConfig::from_seed(2, 18, GameType::A, 0);
    let r = Replay {
        start,
        departures: Default::default(),
        meta: Default::default(),
        outcome: None,
        inputs: [0u8, 1, 1, 0, 0x80].repeat(300),
        classic: None,
    };
    let good = r.encode();
    expect_error(&[], "empty", "magic check failed at byte 0");
    expect_error(
        b"PNG\x00garbagegarbage",
        "foreign",
        "magic check failed at byte 0",
    );
    let mut v = good.clone();
    v[8] = 9;
    expect_error(&v, "version", "version check failed at byte 8");
    let cut = &good[..good.len() - 7];
    expect_error(
        cut,
        "truncated",
        &format!("checksum check failed at byte {}", cut.len() - 4),
    );
    let mut flipped = good.clone();
    flipped[40] ^= 0x10;
    expect_error(&flipped, "flipped", "checksum check failed");
    // A consistent checksum over a bad field: the field check names its offset.
    let mut bad_type = good.clone();
    bad_type[18] = 7;
    let n = bad_type.len() - 4;
    let crc = crc32(&bad_type[..n]);
    bad_type[n..].copy_from_slice(&crc.to_le_bytes());
    expect_error(&bad_type, "gametype", "game type check failed at byte 18");
    // An unknown departure bit, under a consistent checksum.
    let mut bad_dep = good.clone();
    bad_dep[DEPARTURES_OFFSET] = 0x40;
    let crc = crc32(&bad_dep[..n]);
    bad_dep[n..].copy_from_slice(&crc.to_le_bytes());
    expect_error(
        &bad_dep,
        "departures",
        "departures check failed at byte 20: departures byte 0x40",
    );
    assert_eq!(&good[..8], &MAGIC);
    // A missing file.
    let out = run(&["replay", "--check", "/nonexistent/nestris.rep"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read replay"));
}

#[test]
fn diverging_replay_is_reported() {
    let dir = scratch("diverge");
    let file = dir.join("d.rep");
    let start = StartConfig::from_seed(4, 18, GameType::A, 0);
    let mut r = write_replay(&file, start, &[0; 500]);
    if let Some(o) = &mut r.outcome {
        o.score ^= 0x10;
    }
    std::fs::write(&file, r.encode()).unwrap();
    let out = run(&["replay", "--check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("diverged"));
}

fn crc32(bytes: &[u8]) -> u32 {
    // Bitwise CRC-32 (IEEE), independent of the implementation under test.
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
