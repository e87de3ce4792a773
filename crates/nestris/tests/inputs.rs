//! Every input checked: the defects found by trying the commands as a new user would and with
//! a mutation fuzzer, each with its test. Bad input gets a clear error naming the file, line or
//! option and the problem, a non-zero exit, and no panic, hang or unbounded allocation.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn nestris(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nestris"))
        .args(args)
        .output()
        .expect("run nestris");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("nestris-inputs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn no_panic(err: &str) {
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "panic: {err}"
    );
}

#[test]
fn sequence_count_is_bounded_and_streamed() {
    for count in ["18446744073709551615", "1000000000000", "1000000001"] {
        let (code, out, err) = nestris(&["sequence", "--count", count]);
        assert_eq!(code, 2, "--count {count}: {out}{err}");
        assert!(
            err.contains("--count") && err.contains("too large"),
            "{err}"
        );
        no_panic(&err);
    }
    let (code, _, err) = nestris(&["sequence", "--count", "600000000", "--games", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("in all"), "{err}");
    // Streamed: a closed pipe stops it at once, quietly, with success.
    for randomizer in ["nes", "bag7"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nestris"))
            .args([
                "sequence",
                "--randomizer",
                randomizer,
                "--count",
                "1000000000",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let mut first = [0u8; 4096];
        child
            .stdout
            .as_mut()
            .expect("stdout")
            .read_exact(&mut first)
            .expect("the first pieces come before the whole line is made");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{randomizer}: {err}");
        no_panic(&err);
        assert!(err.is_empty(), "{err}");
    }
}

#[test]
fn sequence_gaps_use_the_period() {
    let dir = scratch("gaps");
    let gaps = dir.join("gaps.txt");
    std::fs::write(&gaps, "4294967295 4294967294\n").expect("write");
    let (code, out, err) = nestris(&[
        "sequence",
        "--gaps",
        gaps.to_str().expect("utf-8"),
        "--count",
        "2000",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim().len(), 2000);
}

fn traces_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/traces"
    ))
}

fn read_trace(name: &str) -> Vec<String> {
    let bytes = std::fs::read(traces_dir().join(name)).expect("trace");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .expect("gunzip");
    text.lines().map(str::to_string).collect()
}

fn write_trace(path: &std::path::Path, lines: &[String]) {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(lines.join("\n").as_bytes()).expect("gzip");
    std::fs::write(path, enc.finish().expect("gzip")).expect("write");
}

/// A trace ending in a game over, by its note.
fn game_over_trace() -> (String, Vec<String>) {
    for e in std::fs::read_dir(traces_dir()).expect("traces") {
        let name = e.expect("entry").file_name().to_string_lossy().into_owned();
        if !name.ends_with(".jsonl.gz") {
            continue;
        }
        let lines = read_trace(&name);
        if lines[0].contains("ended: game over") && !lines[0].contains("LAG") {
            return (name, lines);
        }
    }
    panic!("no game-over trace");
}

#[test]
fn verify_refuses_traces_that_compare_nothing_or_end_unlike_their_note() {
    let dir = scratch("verify");
    let (_, lines) = game_over_trace();
    let verify = |lines: &[String], file: &str| -> (i32, String) {
        let path = dir.join(file);
        write_trace(&path, lines);
        let (code, out, err) = nestris(&["verify", path.to_str().expect("utf-8")]);
        no_panic(&err);
        (code, out)
    };
    // The original passes.
    let (code, out) = verify(&lines, "ok.jsonl.gz");
    assert_eq!(code, 0, "{out}");
    // Cut well before the game over: the note still says game over.
    let (code, out) = verify(&lines[..lines.len() / 2], "cut.jsonl.gz");
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("game over") && out.contains("game_over true"),
        "{out}"
    );
    // Only the header: nothing to compare.
    let (code, out) = verify(&lines[..1], "header.jsonl.gz");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no frames"), "{out}");
    // A header that is already over.
    let mut over = lines.clone();
    over[0] = over[0].replacen("\"game_over\":false", "\"game_over\":true", 1);
    assert_ne!(over[0], lines[0], "the header has game_over");
    let (code, out) = verify(&over, "over.jsonl.gz");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("already game_over"), "{out}");
    // Every frame a lag frame.
    let all: Vec<String> = (1..lines.len()).map(|f| f.to_string()).collect();
    let mut lag = lines.clone();
    lag[0] = lag[0].replacen(
        "\"lag_frames\":[]",
        &format!("\"lag_frames\":[{}]", all.join(",")),
        1,
    );
    assert_ne!(lag[0], lines[0], "the header has an empty lag list");
    let (code, out) = verify(&lag, "lag.jsonl.gz");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("in a row"), "{out}");
    // A lag frame past the end.
    let mut lag = lines.clone();
    lag[0] = lag[0].replacen("\"lag_frames\":[]", "\"lag_frames\":[999999]", 1);
    let (code, out) = verify(&lag, "lag2.jsonl.gz");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("999999"), "{out}");
    // No ending in the note.
    let mut note = lines.clone();
    note[0] = note[0].replacen("ended: game over", "finished", 1);
    let (code, out) = verify(&note, "note.jsonl.gz");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("does not say how the trace ended"), "{out}");
}

#[path = "tui_support/mod.rs"]
mod tui_support;

#[test]
fn replay_check_is_bounded_by_what_the_file_holds() {
    use nestris_engine::{GameType, StartConfig};
    use tui_support::replayfile::{Meta, Replay};
    let dir = scratch("replay");
    let r = Replay {
        start: StartConfig::from_seed(1, 18, GameType::A, 0),
        departures: Default::default(),
        meta: Meta::default(),
        outcome: None,
        inputs: vec![0],
        classic: None,
    };
    let bytes = r.encode();
    // frames (4), run count (4), one run (byte, varint 1), CRC (4).
    let head = &bytes[..bytes.len() - 14];
    let mut forged = head.to_vec();
    forged.extend_from_slice(&u32::MAX.to_le_bytes());
    forged.extend_from_slice(&1u32.to_le_bytes());
    forged.extend_from_slice(&[0, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
    let crc = crc32fast::hash(&forged);
    forged.extend_from_slice(&crc.to_le_bytes());
    assert!(forged.len() < 100, "a small file: {} bytes", forged.len());
    let file = dir.join("huge.rep");
    std::fs::write(&file, &forged).expect("write");
    let (code, out, err) = nestris(&["replay", "--check", file.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("frame count") && err.contains("more than a replay may hold"),
        "{err}"
    );
    no_panic(&err);
}

#[test]
fn replay_check_refuses_frames_after_the_end() {
    use nestris_engine::{Game, GameType, StartConfig};
    use tui_support::replayfile::{Meta, Outcome, Replay};
    let dir = scratch("trailing");
    let start = StartConfig::from_seed(5, 18, GameType::A, 0);
    let mut g = Game::start(start);
    let mut inputs = Vec::new();
    while !g.ended() {
        let b = if g.game_over() && inputs.len() % 2 == 0 {
            0x10
        } else {
            0
        };
        g.step(b);
        inputs.push(b);
        assert!(inputs.len() < 100_000, "no end");
    }
    let outcome = Some(Outcome {
        score: g.score,
        lines: g.lines,
        level: g.level,
        ending: g.ending as u8,
    });
    let mut r = Replay {
        start,
        departures: Default::default(),
        meta: Meta::default(),
        outcome,
        inputs: inputs.clone(),
        classic: None,
    };
    let file = dir.join("ok.rep");
    std::fs::write(&file, r.encode()).expect("write");
    let (code, out, err) = nestris(&["replay", "--check", file.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}{err}");
    // Both scores, labelled.
    assert!(out.contains("(capped) true score"), "{out}");
    r.inputs.extend([0u8; 100]);
    std::fs::write(&file, r.encode()).expect("write");
    let (code, out, err) = nestris(&["replay", "--check", file.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("ended at frame"), "{err}");
}

#[test]
fn options_are_checked_alike() {
    // --games 0 everywhere.
    for cmd in ["watch", "bench"] {
        let (code, _, err) = nestris(&[cmd, "--games", "0"]);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(err.contains("--games"), "{cmd}: {err}");
    }
    let (code, _, err) = nestris(&["tune", "--games", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--games"), "{err}");
    // --level -1, 300 and x: the same error.
    let mut messages = Vec::new();
    for level in ["-1", "300", "x"] {
        let (code, _, err) = nestris(&["watch", "--headless", "--level", level]);
        assert_eq!(code, 2, "--level {level}: {err}");
        assert!(
            err.contains(&format!(
                "--level {level} is out of range (integers 0..=255"
            )),
            "{err}"
        );
        messages.push(err.replace(level, "L"));
    }
    assert!(messages.windows(2).all(|w| w[0] == w[1]), "{messages:?}");
    // tune --out into a missing folder: refused before any game.
    let dir = scratch("options");
    let missing = dir.join("no-such-folder").join("tuned.toml");
    let state = dir.join("state.toml");
    let (code, _, err) = nestris(&[
        "tune",
        "--games",
        "1",
        "--generations",
        "1",
        "--out",
        missing.to_str().expect("utf-8"),
        "--state",
        state.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--out") && err.contains("does not exist"),
        "{err}"
    );
    assert!(!state.exists(), "no work was done");
    // bench --games beyond what a run can hold: refused at once, not an exhausted memory.
    for cmd in ["bench", "watch"] {
        for games in ["18446744073709551615", "100000000000"] {
            let (code, _, err) = nestris(&[cmd, "--games", games]);
            assert_eq!(code, 2, "{err}");
            assert!(
                err.contains(&format!("--games {games} is out of range")),
                "{err}"
            );
        }
    }
    // bench --threads 10000: refused at once.
    let (code, _, err) = nestris(&["bench", "--games", "1", "--threads", "10000"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--threads 10000 is out of range"), "{err}");
    // The AI's playout settings out of range.
    for (args, says) in [
        (
            ["--rollout-depth", "0"],
            "--rollout-depth 0 is out of range",
        ),
        (
            ["--rollout-locks", "65"],
            "--rollout-locks 65 is out of range",
        ),
        (["--rollouts", "1000"], "--rollouts 1000 is out of range"),
        (
            ["--rollouts-killscreen", "65"],
            "--rollouts-killscreen 65 is out of range",
        ),
        (
            ["--rollouts-double-killscreen", "65"],
            "--rollouts-double-killscreen 65 is out of range",
        ),
        (["--rollout-from-level", "300"], "300 is not in 0..=255"),
        (["--fourth-ply", "65"], "--fourth-ply 65 is out of range"),
        (["--deep-commit", "65"], "--deep-commit 65 is out of range"),
        (
            ["--blind-playouts-above", "21"],
            "--blind-playouts-above 21 is out of range",
        ),
        (
            ["--blind-commit-margin", "601"],
            "--blind-commit-margin 601 is out of range",
        ),
        (
            ["--fourth-ply-max-height", "21"],
            "--fourth-ply-max-height 21 is out of range",
        ),
        (
            ["--fourth-ply-max-height-before-19", "21"],
            "--fourth-ply-max-height-before-19 21 is out of range",
        ),
        (["--fourth-ply-until", "256"], "256 is not in 0..=255"),
        (
            ["--rollout-death", "0"],
            "--rollout-death 0 is out of range",
        ),
        (
            ["--rollout-death", "NaN"],
            "--rollout-death NaN is out of range",
        ),
        (
            ["--rollout-death", "1e10"],
            "--rollout-death 10000000000 is out of range",
        ),
        (
            ["--rollout-refine", "65"],
            "--rollout-refine 65 is out of range",
        ),
        (
            ["--rollout-burns", "101"],
            "--rollout-burns 101 is out of range",
        ),
        (
            ["--rollout-burns", "NaN"],
            "--rollout-burns NaN is out of range",
        ),
        (
            ["--rollout-lookahead-double-killscreen", "65"],
            "--rollout-lookahead-double-killscreen 65 is out of range",
        ),
        (
            ["--rollout-lookahead-before-29", "65"],
            "--rollout-lookahead-before-29 65 is out of range",
        ),
        (
            ["--rollout-lookahead-pieces", "0"],
            "--rollout-lookahead-pieces 0 is out of range",
        ),
        (
            ["--rollout-lookahead-pieces", "65"],
            "--rollout-lookahead-pieces 65 is out of range",
        ),
    ] {
        let (code, _, err) = nestris(&["bench", "--games", "1", args[0], args[1]]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
    // play --keys on a missing file.
    let (code, _, err) = nestris(&["play", "--keys", "no-such-keys.toml"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no such key map file"), "{err}");
}

#[test]
fn weights_that_cannot_play_are_refused_and_suspicious_ones_warned() {
    let dir = scratch("weights");
    for (name, text, needle) in [
        ("empty.toml", "", "cannot play"),
        ("name.toml", "name = \"x\"\n", "cannot play"),
        ("ks.toml", "[killscreen]\nholes = 1.0\n", "cannot play"),
        ("big.toml", "[weights]\nholes = 1e308\n", "out of range"),
        ("nan.toml", "[weights]\nholes = nan\n", "finite"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        let (code, _, err) = nestris(&[
            "watch",
            "--headless",
            "--weights",
            path.to_str().expect("utf-8"),
        ]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(err.contains(name) && err.contains(needle), "{name}: {err}");
    }
    let path = dir.join("one.toml");
    std::fs::write(&path, "[weights]\nholes = 1e9\n").expect("write");
    let (code, out, err) = nestris(&[
        "watch",
        "--headless",
        "--max-frames",
        "100",
        "--weights",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: weights file") && err.contains("very large"),
        "{err}"
    );
    assert!(out.contains("(capped) true score"), "{out}");
}

/// The weights files the README and the experiments' record (docs/experiments.md) name
/// exist, so the commands they quote can be run.
#[test]
fn readme_weights_files_exist() {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    for doc in ["README.md", "docs/experiments.md"] {
        let text = std::fs::read_to_string(root.join(doc)).expect(doc);
        let mut n = 0;
        for w in text.split_whitespace() {
            let w = w.trim_matches(|c: char| "`()\\,;:.\"".contains(c));
            if w.starts_with("crates/") && w.ends_with(".toml") {
                assert!(
                    root.join(w).is_file(),
                    "{doc} names {w}, which does not exist"
                );
                n += 1;
            }
        }
        assert!(n > 0, "{doc} names weights files");
    }
}

#[test]
fn endless_files_are_refused_not_read_into_memory() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    let dir = scratch("endless");
    let out = dir.join("out.toml");
    for args in [
        vec!["verify", "/dev/zero"],
        vec!["replay", "--check", "/dev/zero"],
        vec!["watch", "--headless", "--weights", "/dev/zero"],
        vec!["sequence", "--gaps", "/dev/zero"],
        vec!["sequence", "--randomizer", "file:/dev/zero"],
        vec![
            "tune",
            "--games",
            "1",
            "--state",
            "/dev/zero",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ] {
        let (code, out, err) = nestris(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(
            (out + &err).contains("larger than"),
            "{args:?} must say the file is too large"
        );
    }
    let (code, _, err) = nestris(&["play", "--keys", "/dev/zero"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a key map file"), "{err}");
    // A trace whose one line never ends (a small gzip file, a huge line).
    let mut long = vec![b'{'; 3 << 20];
    long.push(b'\n');
    let path = dir.join("long.jsonl.gz");
    write_trace(&path, &[String::from_utf8(long).expect("ascii")]);
    let (code, out, err) = nestris(&["verify", path.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.contains("line longer than"), "{out}");
}

#[test]
fn key_map_files_bind_one_action_a_line() {
    let dir = scratch("keys");
    // A value cannot smuggle in another entry (the file used to be joined with commas).
    let path = dir.join("keys.toml");
    std::fs::write(&path, "left = \"a,right=b\"\n").expect("write");
    let (code, _, err) = nestris(&["play", "--keys", path.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("keys.toml") && err.contains("a key is one character"),
        "{err}"
    );
    std::fs::write(&path, "left = [1]\n").expect("write");
    let (code, _, err) = nestris(&["play", "--keys", path.to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("must be a string"), "{err}");
}

#[test]
fn compare_pairs_two_runs_and_refuses_what_is_not_one() {
    let dir = scratch("compare");
    let a = dir.join("a.csv");
    let a = a.to_str().expect("utf-8");
    let (code, out, err) = nestris(&[
        "bench",
        "--games",
        "3",
        "--line-cap",
        "8",
        "--seed",
        "5",
        "--games-csv",
        a,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    // A run against itself: every gain 0, the same options.
    let (code, out, err) = nestris(&["compare", a, a]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("paired games       3"), "{out}");
    assert!(out.contains("options            the same"), "{out}");
    let (code, out, err) = nestris(&["compare", "--json", a, a]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["columns"][0]["gain"], 0.0);
    // One game in common, a file that is no run, a line cut to bad fields, a missing file.
    let text = std::fs::read_to_string(a).expect("csv");
    let lines: Vec<&str> = text.lines().collect();
    let one = dir.join("one.csv");
    std::fs::write(&one, format!("{}\n{}\n{}\n", lines[0], lines[1], lines[2])).unwrap();
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, format!("{}\n{}\n1,2,3\n", lines[0], lines[1])).unwrap();
    let trace = traces_dir().join("FORMAT.md");
    for (other, expect) in [
        (one.to_str().unwrap(), "1 game(s) in common"),
        (bad.to_str().unwrap(), "bad.csv line 3"),
        (trace.to_str().unwrap(), "is not a --games-csv file"),
        ("/nonexistent/x.csv", "cannot read /nonexistent/x.csv"),
    ] {
        let (code, out, err) = nestris(&["compare", a, other]);
        assert_eq!(code, 2, "{other}: {out}{err}");
        assert!(err.contains(expect), "{other}: {err}");
        no_panic(&err);
    }
    // A run in two files (its first game written, then the other two) pairs as the whole
    // run; a game given twice in one run is refused, naming both files.
    let rest = dir.join("rest.csv");
    std::fs::write(
        &rest,
        format!("{}\n{}\n{}\n{}\n", lines[0], lines[1], lines[3], lines[4]),
    )
    .unwrap();
    let (one, rest) = (one.to_str().unwrap(), rest.to_str().unwrap());
    let (code, out, err) = nestris(&["compare", a, one, "--new-also", rest]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("paired games       3 (only in BASE: 0"),
        "{out}"
    );
    assert!(out.contains("from_29"), "{out}");
    let (code, out, err) = nestris(&["compare", a, a, "--base-also", one]);
    assert_eq!(code, 2, "{out}{err}");
    // (one.csv's game is whichever the run wrote first: its threads finish in any order.)
    assert!(
        err.contains(" is in ") && err.contains("again in") && err.contains("one.csv"),
        "{err}"
    );
    no_panic(&err);
}

#[test]
fn report_reads_a_run_back_from_its_ranges_and_refuses_what_is_not_one() {
    let dir = scratch("report");
    let path = |n: &str| dir.join(n).to_str().expect("utf-8").to_string();
    let (whole, r0, r2, other) = (
        path("whole.csv"),
        path("r0.csv"),
        path("r2.csv"),
        path("other.csv"),
    );
    let bench = |extra: &[&str], csv: &str| {
        let mut a = vec![
            "bench",
            "--line-cap",
            "8",
            "--seed",
            "5",
            "--games-csv",
            csv,
            "--json",
        ];
        a.extend_from_slice(extra);
        let (code, out, err) = nestris(&a);
        assert_eq!(code, 0, "{out}{err}");
        serde_json::from_str::<serde_json::Value>(&out).expect("JSON")
    };
    let run = bench(&["--games", "3"], &whole);
    bench(&["--games", "2"], &r0);
    bench(&["--games", "1", "--first-game", "2"], &r2);
    bench(&["--games", "2", "--hz", "15"], &other);
    // The run read back, whole or from its two ranges, reports what the run did.
    for files in [vec![whole.as_str()], vec![r2.as_str(), r0.as_str()]] {
        let mut a = vec!["report", "--json"];
        a.extend_from_slice(&files);
        let (code, out, err) = nestris(&a);
        assert_eq!(code, 0, "{files:?}: {out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
        for k in [
            "games",
            "mean_score",
            "sem_score",
            "score_percentiles",
            "mean_lines",
            "decisions",
            "mean_score_before_19",
        ] {
            assert_eq!(v[k], run[k], "{files:?}: {k}");
        }
        assert!(v.get("wall_seconds").is_none(), "{out}");
    }
    let (code, out, err) = nestris(&["report", &r0]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("games              2\n") && out.contains("mean score "),
        "{out}"
    );
    assert!(!out.contains("wall time"), "{out}");
    // A game in two files, a file of another run, a file that is no run, no file at all.
    let trace = traces_dir().join("FORMAT.md");
    let trace = trace.to_str().unwrap();
    for (files, expect) in [
        (vec![whole.as_str(), r2.as_str()], "game 2 is in"),
        (vec![r0.as_str(), other.as_str()], "is not a file of"),
        (vec![trace], "is not a --games-csv file"),
        (vec!["/nonexistent/x.csv"], "cannot read /nonexistent/x.csv"),
        (vec![], "required"),
    ] {
        let mut a = vec!["report"];
        a.extend_from_slice(&files);
        let (code, out, err) = nestris(&a);
        assert_eq!(code, 2, "{files:?}: {out}{err}");
        assert!(err.contains(expect), "{files:?}: {err}");
        no_panic(&err);
    }
}

#[test]
fn record_boards_writes_every_spawn_and_refuses_what_it_cannot_record() {
    let dir = scratch("boards");
    let boards = dir.join("boards.csv");
    let games = dir.join("games.csv");
    let (code, out, err) = nestris(&[
        "bench",
        "--games",
        "2",
        "--line-cap",
        "6",
        "--seed",
        "5",
        "--record-boards",
        boards.to_str().unwrap(),
        "--games-csv",
        games.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let text = std::fs::read_to_string(&boards).expect("boards file");
    assert_eq!(
        text.lines().next(),
        Some("game,piece,level,lines,score,current,next,board")
    );
    // Each game: one board a piece (the games CSV's `pieces`), then its end line.
    let csv = std::fs::read_to_string(&games).expect("games csv");
    for row in csv
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
    {
        let f: Vec<&str> = row.split(',').collect();
        let (game, pieces) = (f[0], f[5].parse::<usize>().unwrap());
        let mine: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with(&format!("{game},")))
            .collect();
        assert_eq!(mine.len(), pieces + 1, "game {game}");
        assert!(
            mine[pieces].starts_with(&format!("{game},end,18,")),
            "{}",
            mine[pieces]
        );
    }
    // The census reads it back: every board, in the first band.
    let pieces: usize = csv
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split(',').nth(5).unwrap().parse::<usize>().unwrap())
        .sum();
    let (code, out, err) = nestris(&["census", boards.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with(&format!("games 2, boards {pieces}, topped out 0;")),
        "{out}"
    );
    assert!(out.contains("levels 0-18"), "{out}");
    let cut = dir.join("cut.csv");
    std::fs::write(&cut, text.lines().take(3).collect::<Vec<_>>().join("\n")).unwrap();
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, text.replacen(",T,", ",Q,", 1)).unwrap();
    for (args, expect) in [
        (
            vec!["/nonexistent/b.csv"],
            "census: cannot read /nonexistent/b.csv",
        ),
        (vec!["/dev/zero"], "line 1: longer than 1024 bytes"),
        (
            vec![cut.to_str().unwrap()],
            "has no end line: the file is cut short",
        ),
        (
            vec![bad.to_str().unwrap()],
            "piece \"Q\" is not one of TJZOSLI",
        ),
        (vec![boards.to_str().unwrap(), "--tall", "0"], "--tall"),
    ] {
        let mut all = vec!["census"];
        all.extend(args);
        let (code, out, err) = nestris(&all);
        assert_eq!(code, 2, "{all:?}: {out}{err}");
        assert!(err.contains(expect), "{all:?}: {err}");
        no_panic(&err);
    }
    // A value table fitted to them: one sample a board, the table written with its command.
    let table = dir.join("value.txt");
    let (code, out, err) = nestris(&[
        "fit-value",
        boards.to_str().unwrap(),
        "--min-level",
        "0",
        "--max-lines",
        "999",
        "--out",
        table.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with(&format!("samples {pieces} ")), "{out}");
    let written = std::fs::read_to_string(&table).expect("value table");
    assert!(written.starts_with("# nestris value table"), "{written}");
    assert_eq!(
        written.lines().filter(|l| !l.starts_with('#')).count(),
        4193
    );
    for (args, expect) in [
        (
            vec!["/nonexistent/b.csv"],
            "fit-value: cannot read /nonexistent/b.csv",
        ),
        (
            vec![bad.to_str().unwrap()],
            "piece \"Q\" is not one of TJZOSLI",
        ),
        (
            vec![boards.to_str().unwrap()],
            "no board of the files is at level 39+",
        ),
        (
            vec![boards.to_str().unwrap(), "--gamma", "1.5"],
            "--gamma 1.5 is not between 0 and 1",
        ),
        (
            vec![boards.to_str().unwrap(), "--ridge", "0"],
            "--ridge 0 is not a number",
        ),
        (vec![boards.to_str().unwrap(), "--well", "10"], "--well"),
        (
            vec![
                boards.to_str().unwrap(),
                "--min-level",
                "30",
                "--max-level",
                "29",
            ],
            "--max-level 29 is below --min-level 30",
        ),
    ] {
        let mut all = vec!["fit-value", "--out", "/nonexistent/dir/t.txt"];
        all.extend(args);
        let (code, out, err) = nestris(&all);
        assert_eq!(code, 2, "{all:?}: {out}{err}");
        assert!(err.contains(expect), "{all:?}: {err}");
        no_panic(&err);
    }
    for (args, expect) in [
        (
            vec!["--record-boards", "/nonexistent/dir/b.csv"],
            "--record-boards: cannot create /nonexistent/dir/b.csv",
        ),
        (
            vec![
                "--record-boards",
                boards.to_str().unwrap(),
                "--rules",
                "relaytris",
            ],
            "--record-boards records NES games",
        ),
        (
            vec![
                "--record-boards",
                boards.to_str().unwrap(),
                "--games-csv",
                games.to_str().unwrap(),
                "--resume",
            ],
            "cannot be used with",
        ),
    ] {
        let mut all = vec!["bench", "--games", "1", "--line-cap", "2"];
        all.extend(args);
        let (code, out, err) = nestris(&all);
        assert_eq!(code, 2, "{all:?}: {out}{err}");
        assert!(err.contains(expect), "{all:?}: {err}");
        no_panic(&err);
    }
}
