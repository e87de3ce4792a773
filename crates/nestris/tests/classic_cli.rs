//! The classic rule sets and randomizers through the built binary: `nestris sequence`
//! outputs and errors, and short `bench` runs of each rule set and of a departure.

use std::path::PathBuf;
use std::process::{Command, Output};

use nestris_engine::{rng, GameType, Orientation, StartConfig};

fn nestris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nestris"))
        .args(args)
        .output()
        .expect("run nestris")
}

/// Stdout of a run that must succeed.
fn ok(args: &[&str]) -> String {
    let out = nestris(args);
    assert!(
        out.status.success(),
        "nestris {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Stderr of a run that must fail (non-zero exit, nothing on stdout).
fn fails(args: &[&str]) -> String {
    let out = nestris(args);
    assert!(!out.status.success(), "nestris {args:?} succeeded");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stderr).expect("utf-8")
}

fn seq(randomizer: &str, seed: &str, count: usize) -> String {
    ok(&[
        "sequence",
        "--randomizer",
        randomizer,
        "--seed",
        seed,
        "--count",
        &count.to_string(),
    ])
    .trim_end()
    .to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("classic_cli");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(format!("{}-{name}", std::process::id()))
}

// Expected sequences: those the nestris-classic crate pins (computed there with an independent
// Python transcription of each rule).

#[test]
fn sega_first_pieces() {
    assert_eq!(seq("sega", "0", 20), "TITIIJILSJOZZJLSJISL");
    assert_eq!(seq("sega", "1", 20), "JJSLJJIJOSOOILJSZZLO");
    assert_eq!(seq("sega", "12345", 20), "LISIIJLSIOZTSOILSTOL");
    // Seed 0 is replaced by 0x2A6D365A before the first rand(); hex seeds are accepted.
    assert_eq!(seq("sega", "0x2A6D365A", 20), "TITIIJILSJOZZJLSJISL");
    assert_eq!(seq("SEGA", "0x2A6D365B", 20), "SJJTJJITJSLOIOTTJIIS");
}

#[test]
fn sega_consecutive_games_carry_the_seed_over() {
    let skip = ok(&[
        "sequence",
        "--randomizer",
        "sega",
        "--seed",
        "0",
        "--games",
        "3",
    ]);
    let lines: Vec<&str> = skip.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], "TITIIJILSJOZZJLSJISL");
    // The next game's seed after a game from 0: 0x2880F2DA (animation skipped) or 0x6190E4EA
    // (watched), as nestris-classic pins.
    assert_eq!(lines[1], seq("sega", "0x2880F2DA", 20));
    let watch = ok(&[
        "sequence",
        "--randomizer",
        "sega",
        "--seed",
        "0",
        "--games",
        "2",
        "--sega-next-game",
        "watch",
    ]);
    assert_eq!(
        watch.lines().nth(1),
        Some(seq("sega", "0x6190E4EA", 20).as_str())
    );
    assert_ne!(lines[1], watch.lines().nth(1).unwrap_or(""));
}

#[test]
fn bloxeed_first_pieces() {
    assert_eq!(seq("bloxeed", "0", 20), "TSJZJJTIJLOOLZITTZJT");
    assert_eq!(seq("bloxeed", "0x2A6D365B", 20), "TSJZJJTIJLOOLZITTZJT");
    assert_eq!(seq("bloxeed", "1", 20), "OOITITJLZOILITZOLLJL");
    assert_eq!(seq("bloxeed", "12345", 20), "LZIJIJOLSJZJSOTTOJIT");
    // The next game starts from the main seed after the piece seed was drawn (0x8010B493).
    let two = ok(&[
        "sequence",
        "--randomizer",
        "bloxeed",
        "--seed",
        "0",
        "--games",
        "2",
    ]);
    assert_eq!(
        two.lines().nth(1),
        Some(seq("bloxeed", "0x8010B493", 20).as_str())
    );
}

#[test]
fn uniform_cycle_bag7_first_pieces() {
    assert_eq!(seq("uniform", "0", 20), "IOTITZJLJIZLOOSOOLJL");
    assert_eq!(seq("uniform", "1", 20), "OLIOOLIOJLZSOOOJSLSI");
    assert_eq!(seq("uniform", "12345", 20), "TJTJOZTOOIJZLIIZLOLZ");
    assert_eq!(seq("bag7", "0", 21), "JLSOTZITZLOISJTSJZLIO");
    assert_eq!(seq("bag7", "1", 21), "TZIJLSOTZSLJOILSJTZIO");
    assert_eq!(seq("bag7", "12345", 21), "ZOLSIJTJSIOLZTTOZJSIL");
    assert_eq!(seq("cycle", "99", 15), "IOTSJZLIOTSJZLI");
    // Consecutive games: seed + 1 for uniform and bag7; the cycle starts over.
    let two = ok(&[
        "sequence",
        "--randomizer",
        "bag7",
        "--seed",
        "0",
        "--games",
        "2",
        "--count",
        "21",
    ]);
    assert_eq!(two.lines().nth(1), Some("TZIJLSOTZSLJOILSJTZIO"));
    let two = ok(&[
        "sequence",
        "--randomizer",
        "cycle",
        "--games",
        "2",
        "--count",
        "3",
    ]);
    assert_eq!(two, "IOT\nIOT\n");
}

#[test]
fn file_pieces() {
    let path = scratch("pieces.txt");
    std::fs::write(&path, "T J\n  zo\n\nI\n").expect("write");
    let name = format!("file:{}", path.display());
    assert_eq!(seq(&name, "0", 7), "TJZOITJ");
    std::fs::write(&path, "TJ\nZ?O").expect("write");
    let err = fails(&["sequence", "--randomizer", &name]);
    assert!(err.contains("line 2, column 2"), "{err}");
    let err = fails(&["sequence", "--randomizer", "file:/nonexistent/pieces"]);
    assert!(err.contains("cannot read the piece file"), "{err}");
    let err = fails(&["sequence", "--randomizer", "file:"]);
    assert!(err.contains("file:PATH"), "{err}");
}

/// The NES picker as documented for `sequence`: from `StartConfig::from_seed(seed, 0, A, 0)`,
/// spawn id 0, the generator stepped once per frame of each gap before each pick.
fn nes_reference(seed: u64, count: usize, gaps: &[u32]) -> String {
    let start = StartConfig::from_seed(seed, 0, GameType::A, 0);
    let (mut value, mut id, mut spawn_count) = (start.rng, 0u8, start.spawn_count);
    (0..count)
        .map(|i| {
            for _ in 0..gaps[i % gaps.len()] {
                value = rng::step(value);
            }
            let p = rng::pick(value, id, spawn_count);
            (value, id, spawn_count) = (p.rng, p.spawn_id, p.spawn_count);
            Orientation::from_id(id).map_or('?', |o| o.kind().letter())
        })
        .collect()
}

#[test]
fn nes_pieces() {
    assert_eq!(seq("nes", "0", 20), "ZJILJSZILOTSZJTIISOL");
    assert_eq!(seq("nes", "0", 200), nes_reference(0, 200, &[10]));
    assert_eq!(seq("nes", "12345", 100), nes_reference(12345, 100, &[10]));
    // The default randomizer is nes.
    assert_eq!(
        ok(&["sequence", "--seed", "7", "--count", "50"]).trim_end(),
        nes_reference(7, 50, &[10])
    );
    let gaps = scratch("gaps.txt");
    std::fs::write(&gaps, "5 10\n200\t0\n").expect("write");
    let out = ok(&[
        "sequence",
        "--seed",
        "3",
        "--count",
        "40",
        "--gaps",
        gaps.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(out.trim_end(), nes_reference(3, 40, &[5, 10, 200, 0]));
    // Game i uses seed + i.
    let two = ok(&["sequence", "--seed", "3", "--games", "2", "--count", "30"]);
    assert_eq!(
        two.lines().nth(1),
        Some(nes_reference(4, 30, &[10]).as_str())
    );
    std::fs::write(&gaps, "5 ten").expect("write");
    let err = fails(&["sequence", "--gaps", gaps.to_str().expect("utf-8 path")]);
    assert!(err.contains("`ten`"), "{err}");
    std::fs::write(&gaps, " \n").expect("write");
    let err = fails(&["sequence", "--gaps", gaps.to_str().expect("utf-8 path")]);
    assert!(err.contains("no frame gaps"), "{err}");
    let err = fails(&["sequence", "--randomizer", "bag7", "--gaps", "x"]);
    assert!(
        err.contains("--gaps applies to --randomizer nes only"),
        "{err}"
    );
}

const CHOICES: &str = "nes, nes-seeded, sega, bloxeed, uniform, cycle, bag7, file:PATH";

#[test]
fn unknown_names_and_bad_seeds() {
    let err = fails(&["sequence", "--randomizer", "tgm"]);
    assert!(err.contains("unknown randomizer `tgm`"), "{err}");
    assert!(err.contains(CHOICES), "{err}");
    for big in ["4294967296", "0x100000000"] {
        for r in ["sega", "bloxeed"] {
            let err = fails(&["sequence", "--randomizer", r, "--seed", big]);
            assert!(err.contains("does not fit in 32 bits"), "{err}");
            assert!(err.contains("0..=4294967295"), "{err}");
        }
    }
    // 32 bits is enough for the others.
    assert_eq!(seq("uniform", "4294967296", 3).len(), 3);
    for bad in ["abc", "-1", "18446744073709551616", "0xZZ"] {
        let err = fails(&["sequence", "--seed", bad]);
        assert!(err.contains("valid seeds are integers"), "{err}");
    }
    // The other commands take the same names and check the same seeds.
    let err = fails(&["bench", "--randomizer", "tgm", "--games", "1"]);
    assert!(err.contains(CHOICES), "{err}");
    let err = fails(&["bench", "--rules", "tetrinet", "--games", "1"]);
    assert!(
        err.contains("nes") && err.contains("relaytris") && err.contains("qbasic"),
        "{err}"
    );
    let err = fails(&[
        "bench",
        "--rules",
        "qbasic",
        "--randomizer",
        "sega",
        "--seed",
        "4294967296",
        "--games",
        "1",
    ]);
    assert!(err.contains("0..=4294967295"), "{err}");
    let err = fails(&[
        "bench",
        "--rules",
        "relaytris",
        "--randomizer",
        "nes",
        "--games",
        "1",
    ]);
    assert!(err.contains("needs the NES engine"), "{err}");
}

fn bench_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["bench", "--json", "--threads", "1"];
    all.extend_from_slice(args);
    serde_json::from_str(&ok(&all)).expect("json report")
}

#[test]
fn bench_classic_rule_sets() {
    for rules in ["relaytris", "qbasic"] {
        let v = bench_json(&["--rules", rules, "--games", "2", "--line-cap", "12"]);
        assert_eq!(v["rules"], rules);
        assert_eq!(v["games"], 2);
        assert_eq!(v["departure"], false);
        assert!(v["mean_lines"].as_f64().unwrap_or(0.0) >= 12.0, "{v}");
        // One point per line.
        assert_eq!(
            v["mean_score"].as_f64(),
            v["mean_lines"].as_f64().map(f64::round)
        );
        assert!(v["mean_pieces"].as_f64().unwrap_or(0.0) > 25.0, "{v}");
        assert!(v["decisions"].as_u64().unwrap_or(0) > 50, "{v}");
        assert!(v.get("level").is_none() && v.get("hz").is_none(), "{v}");
    }
    let v = bench_json(&[
        "--rules",
        "relaytris",
        "--randomizer",
        "bag7",
        "--games",
        "1",
        "--line-cap",
        "8",
    ]);
    assert_eq!(v["randomizer"], "bag7");
    assert_eq!(v["departure"], true);
    let table = ok(&[
        "bench",
        "--rules",
        "qbasic",
        "--randomizer",
        "sega",
        "--seed",
        "0",
        "--games",
        "1",
        "--line-cap",
        "4",
        "--threads",
        "1",
    ]);
    assert!(
        table.contains("randomizer sega (departure from the original)"),
        "{table}"
    );
}

#[test]
fn bench_nes_with_a_departure() {
    let v = bench_json(&["--randomizer", "bag7", "--games", "1", "--line-cap", "10"]);
    assert_eq!(v["randomizer"], "bag7");
    assert_eq!(v["departure"], true);
    assert!(v["mean_lines"].as_f64().unwrap_or(0.0) >= 10.0, "{v}");
    // The original game's report has no randomizer keys.
    let v = bench_json(&["--games", "1", "--line-cap", "10"]);
    assert!(v.get("randomizer").is_none(), "{v}");
    let table = ok(&[
        "bench",
        "--randomizer",
        "cycle",
        "--games",
        "1",
        "--line-cap",
        "4",
        "--threads",
        "1",
    ]);
    assert!(
        table.contains("cycle (departure from the original)"),
        "{table}"
    );
}

#[test]
fn bench_classic_resumes() {
    let dir = std::env::temp_dir().join(format!("nestris-classic-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("qbasic.csv");
    let csv = csv.to_str().unwrap();
    let args = [
        "--rules",
        "qbasic",
        "--games",
        "3",
        "--line-cap",
        "8",
        "--games-csv",
        csv,
    ];
    let full = bench_json(&args);
    let text = std::fs::read_to_string(csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[0].contains("\"rules\":\"qbasic\""), "{}", lines[0]);
    // The last game's line cut short.
    std::fs::write(csv, &text[..text.len() - 5]).unwrap();
    let mut resume = args.to_vec();
    resume.push("--resume");
    let v = bench_json(&resume);
    assert_eq!(v["games"], 3);
    assert_eq!(v["games_resumed"], 2);
    assert_eq!(v["mean_score"], full["mean_score"]);
    assert_eq!(v["mean_pieces"], full["mean_pieces"]);
    // Another rule set is another run.
    let mut other = resume.clone();
    other[1] = "relaytris";
    let err = fails(&[&["bench"], &other[..]].concat());
    assert!(
        err.contains("rules: \"qbasic\" in the file, \"relaytris\" now"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The classic rule sets in the shared game loop: `--max-frames` ends their games (in ticks),
/// the options they cannot honour are refused with the reason.
#[test]
fn classic_watch_honours_or_refuses_the_options() {
    let out = ok(&[
        "watch",
        "--headless",
        "--rules",
        "relaytris",
        "--games",
        "2",
        "--max-frames",
        "600",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    // 600 ticks at one move every 6 ticks: 100 moves, a handful of pieces.
    for (i, l) in lines.iter().enumerate() {
        assert!(l.starts_with(&format!("game {}: score ", i + 1)), "{out}");
        let pieces: u32 = l
            .rsplit(' ')
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or(u32::MAX);
        assert!((3..=30).contains(&pieces), "{out}");
    }
    for (args, want) in [
        (
            vec![
                "watch",
                "--headless",
                "--rules",
                "relaytris",
                "--level",
                "5",
            ],
            "--level 5 is for the NES rules",
        ),
        (
            vec![
                "bench", "--rules", "qbasic", "--level", "19", "--games", "1",
            ],
            "--level 19 is for the NES rules",
        ),
        (
            vec!["watch", "--headless", "--rules", "qbasic", "--type", "b"],
            "--type and --height apply to --rules nes only",
        ),
    ] {
        let err = fails(&args);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// Classic games are recorded (format version 3: the rule set, the pieces dealt, the inputs)
/// and replay exactly, with the rule set's own randomizer or another.
#[test]
fn classic_games_record_and_replay() {
    let dir = scratch("classic-replays");
    std::fs::create_dir_all(&dir).expect("dir");
    for (rules, extra) in [
        ("qbasic", vec!["--max-frames", "2500"]),
        (
            "relaytris",
            vec!["--randomizer", "bag7", "--max-frames", "4000"],
        ),
    ] {
        let file = dir.join(format!("{rules}.rep"));
        let file = file.to_str().expect("utf-8 path");
        let mut args = vec![
            "watch",
            "--headless",
            "--rules",
            rules,
            "--games",
            "2",
            "--record",
            file,
        ];
        args.extend(extra);
        let out = ok(&args);
        for (n, path) in [file.to_string(), file.replace(".rep", "-2.rep")]
            .iter()
            .enumerate()
        {
            let game = out.lines().nth(n).expect("a line per game");
            let check = ok(&["replay", "--check", path]);
            // `game N: score S lines L pieces P` and `score S lines L pieces P frames F`.
            let played = game.split_once(": ").map(|x| x.1).unwrap_or("");
            assert!(check.starts_with(played), "{rules}: {game} vs {check}");
            let bytes = std::fs::read(path).expect("read");
            assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 3, "version 3");
        }
        // A different piece list changes the game: the recorded outcome no longer matches.
        let mut bytes = std::fs::read(file).expect("read");
        let r = nestris_session::replayfile::Replay::decode(&bytes).expect("valid");
        let mut c = r.classic.clone().expect("classic");
        c.pieces.reverse();
        let changed = nestris_session::replayfile::Replay {
            classic: Some(c),
            ..r
        };
        bytes = changed.encode();
        let bad = dir.join(format!("{rules}-changed.rep"));
        std::fs::write(&bad, bytes).expect("write");
        let out = nestris(&["replay", "--check", bad.to_str().expect("utf-8")]);
        assert_eq!(out.status.code(), Some(1), "{rules}: the replay diverges");
    }
}
