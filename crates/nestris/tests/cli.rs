//! The binary's `verify` and `bench` commands: outputs, exit codes and errors on bad input.

use std::process::Command;

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

fn traces() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/traces");
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".jsonl.gz"))
        .collect();
    v.sort();
    v
}

#[test]
fn verify_passes_every_trace() {
    let files = traces();
    let args: Vec<&str> = std::iter::once("verify")
        .chain(files.iter().map(String::as_str))
        .collect();
    let (code, out, _) = nestris(&args);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.lines().last().unwrap() == format!("{} passed, 0 failed", files.len()),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.contains(": ok")).count(),
        files.len()
    );
}

#[test]
fn verify_reports_bad_files() {
    let dir = scratch("verify");
    let good = &traces()[0];
    let bytes = std::fs::read(good).unwrap();
    let truncated = dir.join("truncated.jsonl.gz");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let not_gzip = dir.join("plain.jsonl.gz");
    std::fs::write(&not_gzip, b"{\"format\":\"nes-trace-1\"}\n").unwrap();
    let (code, out, _) = nestris(&[
        "verify",
        good,
        truncated.to_str().unwrap(),
        not_gzip.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("truncated.jsonl.gz: error:") && out.contains("line"),
        "{out}"
    );
    assert!(out.contains("not gzip data"), "{out}");
    assert!(out.trim_end().ends_with("1 passed, 2 failed"), "{out}");

    // A trace whose recorded state differs from the engine: exit 1 with the divergence.
    let mut text = String::new();
    flate2_read(&bytes, &mut text);
    let tampered: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 5 {
                l.replacen("\"in\":", "\"x\":1,\"in\":", 1)
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let path = dir.join("tampered.jsonl.gz");
    gzip_write(&path, tampered.as_bytes());
    let (code, out, _) = nestris(&["verify", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL frame 5 field x: expected 1"), "{out}");
}

fn flate2_read(bytes: &[u8], out: &mut String) {
    use std::io::Read;
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(out)
        .unwrap();
}

fn gzip_write(path: &std::path::Path, data: &[u8]) {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    std::fs::write(path, e.finish().unwrap()).unwrap();
}

#[test]
fn bench_rejects_bad_options() {
    let (code, _, err) = nestris(&["bench", "--games", "1", "--ai", "nope"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("unknown AI preset \"nope\"") && err.contains("meatfighter-2014"),
        "{err}"
    );
    let (code, _, err) = nestris(&["bench", "--games", "1", "--weights", "/nonexistent/w.toml"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("cannot read weights file /nonexistent/w.toml"),
        "{err}"
    );
    let (code, _, err) = nestris(&["bench", "--games", "1", "--level", "300"]);
    assert_ne!(code, 0);
    assert!(err.contains("--level 300 is out of range"), "{err}");
    let (code, _, err) = nestris(&["bench", "--games", "1", "--hz", "25"]);
    assert_ne!(code, 0);
    assert!(err.contains("bad tap speed"), "{err}");
    let (code, _, err) = nestris(&["bench", "--games", "1", "--hz", "30-spaced-spaced"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("bad tap speed") && err.contains("-spaced"),
        "{err}"
    );
    // BetaTetris's spaced presses are an option of their own; the field's format keeps the mask.
    let (code, _, err) = nestris(&["bench", "--format", "field", "--hz", "30-spaced"]);
    assert_ne!(code, 0);
    assert!(err.contains("--format field fixes --hz 30"), "{err}");
    let dir = scratch("weights");
    let w = dir.join("bad.toml");
    std::fs::write(&w, "[weights]\nholez = 3\n").unwrap();
    let (code, _, err) = nestris(&["bench", "--games", "1", "--weights", w.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("unknown feature \"holez\""), "{err}");
}

#[test]
fn bench_json_has_the_fields_the_field_reports() {
    let (code, out, err) = nestris(&[
        "bench",
        "--games",
        "4",
        "--line-cap",
        "20",
        "--json",
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    for k in [
        "games",
        "mean_score",
        "std_score",
        "score_percentiles",
        "mean_lines",
        "median_lines",
        "below_130",
        "below_230",
        "below_330",
        "mean_score_before_19",
        "mean_score_before_29",
        "mean_score_before_39",
        "tetris_rate",
        "btype_success_rate",
        "decisions_per_second",
        "decision_ms_median",
        "decision_ms_p99",
    ] {
        assert!(v.get(k).is_some(), "missing {k} in {out}");
    }
    for p in ["1", "5", "10", "25", "50", "75", "90", "95", "99"] {
        assert!(v["score_percentiles"].get(p).is_some());
    }
    assert_eq!(v["games"], 4);
    assert!(v["mean_lines"].as_f64().unwrap() >= 20.0, "{out}");
    // Every game stopped at the 20-line cap (none lost at level 18 so soon).
    assert_eq!(v["reached_line_cap"], 1.0, "{out}");
    // Same seed, same games.
    let (_, out2, _) = nestris(&[
        "bench",
        "--games",
        "4",
        "--line-cap",
        "20",
        "--json",
        "--seed",
        "3",
    ]);
    let v2: serde_json::Value = serde_json::from_str(&out2).unwrap();
    assert_eq!(v["mean_score"], v2["mean_score"]);
    assert_eq!(v["score_percentiles"], v2["score_percentiles"]);
}

#[test]
fn bench_b_type_reports_success() {
    let (code, out, err) = nestris(&[
        "bench", "--games", "2", "--type", "b", "--level", "9", "--height", "5", "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["btype_success_rate"].as_f64().is_some(), "{out}");
    // A B-type game ends at its 25 lines: no line cap to report.
    assert!(v.get("reached_line_cap").is_none(), "{out}");
}

#[test]
fn verify_never_takes_the_double_killscreen() {
    let files = traces();
    let (code, _, err) = nestris(&["verify", "--double-killscreen", &files[0]]);
    assert_ne!(code, 0);
    assert!(err.contains("--double-killscreen"), "{err}");
}

#[test]
fn bench_field_format_names_the_double_killscreen() {
    // A stack 17 rows tall at level 18 (no row full): the one game ends at once, and the
    // report still names the format it ran.
    let position = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/positions/tall-17-rows.txt"
    );
    let (code, out, err) = nestris(&[
        "bench",
        "--format",
        "field",
        "--games",
        "1",
        "--seed",
        "2",
        "--position",
        position,
    ]);
    assert_eq!(code, 0, "{err}");
    let line = out
        .lines()
        .find(|l| l.starts_with("format "))
        .unwrap_or_else(|| panic!("no format line in {out}"));
    assert!(
        line.contains("field: level 18")
            && line.contains("line cap 430")
            && line.contains("double killscreen from level 39 (departure from the original)"),
        "{line}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("lines ") && l.contains("mean 0.0")),
        "the game from the 17-row stack should end at once: {out}"
    );
}

#[test]
fn bench_format_conflicts_are_refused() {
    let (code, out, err) = nestris(&[
        "bench", "--format", "field", "--level", "19", "--games", "1",
    ]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("--format field fixes --level 18"), "{err}");
    let (code, out, err) = nestris(&[
        "bench",
        "--format",
        "vanilla",
        "--double-killscreen",
        "--games",
        "1",
    ]);
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains("--format vanilla") && err.contains("--double-killscreen"),
        "{err}"
    );
    let (code, out, err) = nestris(&["bench", "--format", "bogus", "--games", "1"]);
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains("bogus") && err.contains("field") && err.contains("vanilla"),
        "{err}"
    );
    let (code, _, err) = nestris(&["bench", "--resume", "--games", "1"]);
    assert_ne!(code, 0);
    assert!(err.contains("--games-csv"), "{err}");
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("nestris-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn bench_resumes_an_interrupted_run() {
    let dir = scratch("resume");
    let csv = dir.join("games.csv");
    let csv_arg = csv.to_str().unwrap();
    let bench = |extra: &[&str]| {
        let mut a = vec![
            "bench",
            "--games",
            "4",
            "--line-cap",
            "20",
            "--seed",
            "3",
            "--json",
            "--games-csv",
            csv_arg,
        ];
        a.extend_from_slice(extra);
        nestris(&a)
    };
    let (code, out, err) = bench(&[]);
    assert_eq!(code, 0, "{err}");
    let full: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(full["games"], 4);
    // Without a terminal, plain progress lines.
    assert!(err.contains("bench: 4/4 games (100%)"), "{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "options, columns, 4 games:\n{text}");
    assert!(lines[0].starts_with("# nestris bench {"), "{}", lines[0]);
    assert!(lines[0].contains("\"seed\":3") && lines[0].contains("\"line_cap\":20"));
    assert!(lines[1].starts_with("game,score,capped_score,lines,"));

    // Killed after the first game, in the middle of writing the second.
    let cut = format!(
        "{}\n{}\n{}\n{}",
        lines[0],
        lines[1],
        lines[2],
        &lines[3][..lines[3].len() / 2]
    );
    std::fs::write(&csv, &cut).unwrap();
    let (code, out, err) = bench(&["--resume"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("dropped the incomplete last line"), "{err}");
    assert!(err.contains("1 of 4 games already in"), "{err}");
    let resumed: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(resumed["games"], 4, "{out}");
    assert_eq!(resumed["games_resumed"], 1, "{out}");
    for k in [
        "mean_score",
        "std_score",
        "score_percentiles",
        "mean_lines",
        "mean_score_before_19",
        "tetris_rate",
        "mean_soft_drop_points",
        "decisions",
    ] {
        assert_eq!(resumed[k], full[k], "{k}: {out} vs the uninterrupted run");
    }
    // The decisions by speed band too (their count: the times differ from run to run).
    let before_19 =
        |v: &serde_json::Value| v["decisions_by_band"]["bands"]["18"]["decisions"].clone();
    assert_eq!(before_19(&resumed), full["decisions"], "{out}");
    assert_eq!(before_19(&full), full["decisions"], "{out}");
    // The AI soft-drops by default, and the points are counted.
    assert!(full["pushdown"] == true, "{out}");
    assert!(
        full["mean_soft_drop_points"].as_f64().unwrap() > 0.0,
        "{out}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 6, "{text}");
    assert!(text.ends_with('\n'));
    let mut games: Vec<&str> = text.lines().skip(2).collect();
    let mut want: Vec<&str> = lines[2..].to_vec();
    games.sort();
    want.sort();
    // Same games (the decision times differ from run to run).
    let key = |l: &&str| l.split(',').take(13).collect::<Vec<_>>().join(",");
    assert_eq!(
        games.iter().map(key).collect::<Vec<_>>(),
        want.iter().map(key).collect::<Vec<_>>()
    );

    // Nothing left to play: the report comes from the file alone.
    let (code, out, err) = bench(&["--resume"]);
    assert_eq!(code, 0, "{err}");
    let again: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(again["games_resumed"], 4);
    assert_eq!(again["mean_score"], full["mean_score"]);

    // Other options: refused, the file untouched.
    let (code, _, err) = bench(&["--resume", "--level", "19"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("other options") && err.contains("level: 18 in the file, 19 now"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);

    // A damaged line in the middle: refused, naming the line and column.
    let bad: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 3 {
                format!("x{}\n", &l[l.find(',').unwrap()..])
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(&csv, &bad).unwrap();
    let (code, _, err) = bench(&["--resume"]);
    assert_ne!(code, 0);
    assert!(err.contains("line 4: column game"), "{err}");

    // A file another run is writing (it holds the lock): refused, untouched, with or
    // without --resume.
    {
        let held = std::fs::File::open(&csv).unwrap();
        held.lock().unwrap();
        for extra in [&["--resume"][..], &[][..]] {
            let (code, _, err) = bench(extra);
            assert_ne!(code, 0);
            assert!(err.contains("is being written by another run"), "{err}");
            assert_eq!(std::fs::read_to_string(&csv).unwrap(), bad);
        }
    }

    // A file of the version before the four decisions-by-level columns: compared, not
    // resumed.
    let old: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                format!("{l}\n")
            } else {
                let fields: Vec<&str> = l.split(',').collect();
                format!("{}\n", fields[..fields.len() - 4].join(","))
            }
        })
        .collect();
    std::fs::write(&csv, &old).unwrap();
    let (code, out, err) = nestris(&["compare", csv_arg, csv_arg, "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"games\""), "{out}");
    let (code, _, err) = bench(&["--resume"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("line 2")
            && err.contains("earlier version")
            && err.contains("start a new file"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), old);
}

/// `bench --first-game N`: game N of a run, alone, is that run's game N to the point (the
/// same CSV line but its decision time), numbered as there; a resume keeps the file's games
/// in the range; out-of-range runs and chained randomizers' runs are refused, and a
/// randomizer dealt by seed and game number plays its game N too.
#[test]
fn bench_first_game_replays_one_game_of_a_run() {
    let dir = scratch("first-game");
    let run = |name: &str, extra: &[&str]| {
        let csv = dir.join(name);
        let mut a = vec![
            "bench",
            "--line-cap",
            "20",
            "--seed",
            "11",
            "--json",
            "--threads",
            "1",
        ];
        a.extend_from_slice(&["--games-csv", csv.to_str().unwrap()]);
        a.extend_from_slice(extra);
        let (code, out, err) = nestris(&a);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        (v, std::fs::read_to_string(&csv).unwrap())
    };
    // The first 13 columns: everything but the decision times.
    let games = |text: &str| -> Vec<String> {
        text.lines()
            .skip(2)
            .map(|l| l.split(',').take(13).collect::<Vec<_>>().join(","))
            .collect()
    };
    let (all, all_text) = run("all.csv", &["--games", "4"]);
    assert!(all.get("first_game").is_none(), "only when given: {all}");
    let (one, one_text) = run("one.csv", &["--games", "1", "--first-game", "2"]);
    assert_eq!(one["first_game"], 2);
    assert_eq!(one["games"], 1);
    let mut want = games(&all_text);
    want.sort();
    assert_eq!(games(&one_text), vec![want[2].clone()]);
    assert!(
        games(&one_text)[0].starts_with("2,"),
        "numbered as in the whole run"
    );
    // Resumed with games 1-3: game 2 is taken from the file, 1 and 3 are played.
    let (more, more_text) = run(
        "one.csv",
        &["--games", "3", "--first-game", "1", "--resume"],
    );
    assert_eq!(more["games_resumed"], 1);
    let mut got = games(&more_text);
    got.sort();
    assert_eq!(got, want[1..].to_vec());
    // The table names the range.
    let (code, out, err) = nestris(&[
        "bench",
        "--line-cap",
        "10",
        "--seed",
        "11",
        "--games",
        "1",
        "--first-game",
        "7",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(from game 7 of seed 11)"), "{out}");

    let (code, _, err) = nestris(&[
        "bench",
        "--games",
        "2",
        "--first-game",
        "18446744073709551615",
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("--first-game 18446744073709551615 with --games 2"),
        "{err}"
    );
    // Sega's games chain their seeds: refused.
    let (code, _, err) = nestris(&[
        "bench",
        "--games",
        "1",
        "--first-game",
        "3",
        "--randomizer",
        "sega",
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("--first-game is not for the sega randomizer"),
        "{err}"
    );
    // A randomizer whose games each take seed + number (nes-seeded): game 2 alone is game 2.
    let (_, all_text) = run(
        "seeded.csv",
        &["--games", "3", "--randomizer", "nes-seeded"],
    );
    let (_, one_text) = run(
        "seeded-one.csv",
        &[
            "--games",
            "1",
            "--first-game",
            "2",
            "--randomizer",
            "nes-seeded",
        ],
    );
    let mut want = games(&all_text);
    want.sort();
    assert_eq!(games(&one_text), vec![want[2].clone()]);
    let (code, _, err) = nestris(&["bench", "--games", "1", "--first-game", "x"]);
    assert_ne!(code, 0);
    assert!(err.contains("--first-game"), "{err}");
}

/// `tune`: a run is resumed from its state file; bad settings and damaged or foreign state
/// files are refused with the reason and a non-zero exit.
#[test]
fn tune_resumes_and_refuses_bad_input() {
    let dir = scratch("tune");
    let state = dir.join("state.toml");
    let out = dir.join("tuned.toml");
    let base = [
        "tune",
        "--games",
        "1",
        "--population",
        "3",
        "--elite",
        "1",
        "--level",
        "29",
        "--line-cap",
        "4",
        "--params",
        "holes,killscreen.burns",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter()
            .chain(extra)
            .map(|s| s.to_string())
            .chain([
                "--state".into(),
                state.display().to_string(),
                "--out".into(),
                out.display().to_string(),
            ])
            .collect()
    };
    let run = |args: &[String]| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        nestris(&a)
    };
    // One generation, then a second run resumes it and adds one more.
    let (code, _, err) = run(&with(&["--generations", "1"]));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("generation   0 done"), "{err}");
    let first = std::fs::read_to_string(&state).unwrap();
    assert!(first.contains("generation = 1"), "{first}");
    let (code, _, err) = run(&with(&["--generations", "2"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("resuming") && err.contains("generation   1 done"),
        "{err}"
    );
    assert!(std::fs::read_to_string(&out).unwrap().contains("[weights]"));
    // A finished state, run again: nothing is played, and the result is written all the same.
    std::fs::remove_file(&out).unwrap();
    let (code, _, err) = run(&with(&["--generations", "2"]));
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("done"), "{err}");
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("generation 2"));
    // Other options than the state file's: refused, the file untouched.
    let before = std::fs::read_to_string(&state).unwrap();
    let (code, _, err) = run(&with(&["--generations", "3", "--seed", "9"]));
    assert_ne!(code, 0);
    assert!(err.contains("other options"), "{err}");
    assert_eq!(std::fs::read_to_string(&state).unwrap(), before);
    // Other playouts than the state file's (the search the candidates were measured with).
    let (code, _, err) = run(&with(&["--generations", "3", "--rollouts-killscreen", "8"]));
    assert_ne!(code, 0);
    assert!(
        err.contains("other options") && err.contains("playouts 8 locks x 8 x 6 pieces"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&state).unwrap(), before);
    // A damaged state file.
    std::fs::write(&state, "version = 1\npopulation = \"x\"\n").unwrap();
    let (code, _, err) = run(&with(&["--generations", "3"]));
    assert_ne!(code, 0);
    assert!(err.contains("tuning state"), "{err}");
    let _ = std::fs::remove_file(&state);
    // Bad settings.
    for (extra, what) in [
        (vec!["--params", "bogus"], "bogus"),
        (vec!["--params", "points"], "start value is 0"),
        (vec!["--elite", "3"], "elite"),
        (vec!["--games", "0"], "--games"),
        (vec!["--generations", "0"], "--generations"),
        (vec!["--sigma", "nan"], "sigma"),
    ] {
        let (code, _, err) = run(&with(&extra));
        assert_ne!(code, 0, "{extra:?}");
        assert!(err.contains(what), "{extra:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        let _ = std::fs::remove_file(&state);
    }
}
