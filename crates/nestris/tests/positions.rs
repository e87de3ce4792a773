//! `--position FILE` through the built binary, driven by the files in tests/data/positions:
//! every `bad-*.txt` is refused with the error its first line names; the good positions
//! start games that are labelled as a departure, the same in both board notations.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn nestris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nestris"))
        .args(args)
        .output()
        .expect("run nestris")
}

/// `nestris ARGS` fails, and its error contains `want`.
fn assert_refused(args: &[&str], want: &str) {
    let out = nestris(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains(want),
        "{args:?}: {err}"
    );
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/positions")
}

fn file(name: &str) -> String {
    dir().join(name).to_string_lossy().into_owned()
}

#[test]
fn bad_position_files_name_the_line_and_the_problem() {
    let mut n = 0;
    for entry in std::fs::read_dir(dir()).expect("positions dir") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if !name.starts_with("bad-") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("read");
        let want = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{name}: first line must be `# expect: ...`"));
        let p = path.to_string_lossy().into_owned();
        for args in [
            vec!["watch", "--headless", "--position", &p],
            vec!["bench", "--games", "1", "--position", &p],
        ] {
            let out = nestris(&args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {err}");
            assert!(out.stdout.is_empty(), "{name}");
            assert!(
                err.contains(&name),
                "{name}: the error names the file: {err}"
            );
            assert!(err.contains(want), "{name}: want {want:?} in {err}");
        }
        n += 1;
    }
    assert!(n >= 10, "{n} bad files");
}

fn stdout(args: &[&str]) -> String {
    let out = nestris(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn games_start_from_the_position_and_say_so() {
    let a = file("well.txt");
    let b = file("well-stackrabbit.txt");
    let args = |p: &str| {
        stdout(&[
            "watch",
            "--headless",
            "--games",
            "2",
            "--max-frames",
            "400",
            "--position",
            p,
        ])
    };
    let out = args(&a);
    assert_eq!(out, args(&b), "the two notations are the same position");
    let first = out.lines().next().unwrap_or_default();
    // The position's lines and score (and level 18) are where the game starts from.
    assert!(first.contains("level 18"), "{out}");
    assert!(
        first.ends_with("· started from a position (departure from the original)"),
        "{out}"
    );
    let lines: u32 = first
        .split("lines ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    // The game goes on from the position's 24 lines (the well is open: it clears some).
    assert!(lines > 24, "{out}");
    let rate_dir = scratch("rate");
    let rate_csv = rate_dir.join("games.csv");
    let json: serde_json::Value = serde_json::from_str(&stdout(&[
        "bench",
        "--games",
        "2",
        "--line-cap",
        "40",
        "--json",
        "--position",
        &a,
        "--games-csv",
        rate_csv.to_str().unwrap(),
    ]))
    .expect("json");
    // Each game's line says it started at the position's 24 lines, and the Tetris rate is
    // over the lines the games cleared from there, not over the position's too.
    let text = std::fs::read_to_string(&rate_csv).expect("csv");
    let mut rows = text.lines().skip(1);
    let columns: Vec<&str> = rows.next().unwrap_or_default().split(',').collect();
    let col = |name: &str| columns.iter().position(|c| *c == name).expect(name);
    let (mut cleared, mut tetris_lines) = (0.0, 0.0);
    for row in rows {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(f[col("start_lines")], "24", "{row}");
        cleared += f[col("lines")].parse::<f64>().unwrap() - 24.0;
        tetris_lines += f[col("tetris_lines")].parse::<f64>().unwrap();
    }
    assert!(cleared >= 32.0, "{text}");
    let rate = json["tetris_rate"].as_f64().unwrap_or(-1.0);
    assert!(
        (rate - tetris_lines / cleared).abs() < 1e-9,
        "{rate} {json}"
    );
    assert_eq!(json["departure"], true, "{json}");
    assert!(
        json["position"]
            .as_str()
            .is_some_and(|p| p.ends_with("well.txt")),
        "{json}"
    );
    assert!(json["mean_lines"].as_f64().unwrap_or(0.0) >= 40.0, "{json}");
    // Options the position decides, or that cannot hold such a game, are refused.
    for (extra, want) in [
        (vec!["--level", "19"], "the position file sets the level"),
        (vec!["--type", "b"], "--position starts A-type games"),
        (
            vec!["--record", "x.nestris"],
            "started from a position would not replay",
        ),
        (vec!["--rules", "qbasic"], "--position is for the NES rules"),
    ] {
        let mut args = vec!["watch", "--headless", "--position", &a];
        args.extend(extra);
        assert_refused(&args, want);
    }
}

/// `nestris best` from a position file and from a StackRabbit board string: the same answer;
/// the JSON has every placement's lock, inputs, value and board; bad input is refused naming
/// the option.
#[test]
fn best_answers_from_a_position() {
    let a = file("well.txt");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["best", "--position", &a, "--top", "3", "--json"]))
            .expect("json");
    let placements = json["placements"].as_array().expect("placements");
    assert_eq!(placements.len(), 3, "{json}");
    let values: Vec<f64> = placements
        .iter()
        .map(|p| p["value"].as_f64().unwrap_or(f64::NAN))
        .collect();
    assert!(values.windows(2).all(|w| w[0] <= w[1]), "{values:?}");
    for p in placements {
        assert_eq!(p["board"].as_array().map(Vec::len), Some(20), "{p}");
        assert_eq!(
            p["inputs"]
                .as_str()
                .map(|s| s.chars().filter(|c| !"[]".contains(*c)).count() > 0),
            Some(true),
            "{p}"
        );
        assert_eq!(
            p["frames"].as_u64(),
            p["input_bytes"].as_array().map(|v| v.len() as u64)
        );
    }
    // The same position as flags (the board as StackRabbit's 200 characters).
    let text = std::fs::read_to_string(file("well-stackrabbit.txt")).expect("read");
    let bits = text
        .lines()
        .find_map(|l| l.strip_prefix("board "))
        .expect("board line");
    let flags: serde_json::Value = serde_json::from_str(&stdout(&[
        "best", "--board", bits, "--piece", "I", "--next", "T", "--level", "18", "--lines", "24",
        "--score", "52000", "--top", "3", "--json",
    ]))
    .expect("json");
    assert_eq!(flags["placements"], json["placements"]);
    // BetaTetris's tap rule (`-spaced`) is read by `best` too; on this clean board at level
    // 18 it reaches what the mask reaches, so the best placements are the same.
    let spaced: serde_json::Value = serde_json::from_str(&stdout(&[
        "best",
        "--board",
        bits,
        "--piece",
        "I",
        "--next",
        "T",
        "--level",
        "18",
        "--lines",
        "24",
        "--score",
        "52000",
        "--top",
        "3",
        "--hz",
        "30-spaced",
        "--json",
    ]))
    .expect("json");
    assert_eq!(spaced["placements"], json["placements"]);
    // Rate the third: its rank and the value lost.
    let third = &placements[2];
    let lock = format!(
        "{},{},{}",
        third["orientation"].as_str().unwrap_or(""),
        third["x"],
        third["y"]
    );
    let rated: serde_json::Value = serde_json::from_str(&stdout(&[
        "best",
        "--position",
        &a,
        "--rate",
        &lock,
        "--json",
    ]))
    .expect("json");
    assert!(
        rated["rate"]["rank"].as_u64().is_some_and(|r| r <= 3),
        "{rated}"
    );
    assert!(
        rated["rate"]["lost"].as_f64().is_some_and(|l| l >= 0.0),
        "{rated}"
    );
    for (args, want) in [
        (
            vec!["best", "--board", "0101", "--piece", "T"],
            "--board: 4 cells, expected 200",
        ),
        (
            vec!["best", "--board", bits, "--piece", "X"],
            "--piece 'X' is not a piece",
        ),
        (
            vec!["best", "--position", &a, "--rate", "Tu,4,18"],
            "not reachable",
        ),
        (
            vec!["best", "--position", &a, "--rate", "Qx,4,18"],
            "unknown orientation",
        ),
        (vec!["best", "--position", &a, "--hz", "7"], "bad tap speed"),
        (
            vec!["best", "--position", &a, "--elapsed", "3", "--at", "Ih,5,9"],
            "at most 3 rows",
        ),
    ] {
        assert_refused(&args, want);
    }
}

/// An engine snapshot (a reference trace's header state) as the start: not a departure, and
/// every game starts from the same state.
#[test]
fn engine_snapshots_are_not_departures() {
    let trace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/traces/r_lines999_s129.jsonl.gz")
        .to_string_lossy()
        .into_owned();
    let out = stdout(&[
        "watch",
        "--headless",
        "--games",
        "2",
        "--max-frames",
        "300",
        "--position",
        &trace,
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(!out.contains("departure"), "{out}");
    assert_eq!(
        lines[0].split_once(": ").map(|x| x.1),
        lines[1].split_once(": ").map(|x| x.1)
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&[
        "bench",
        "--games",
        "1",
        "--line-cap",
        "1005",
        "--json",
        "--position",
        &trace,
    ]))
    .expect("json");
    assert!(json["position"].as_str().is_some(), "{json}");
    assert!(json.get("departure").is_none(), "{json}");
}

/// A game that crosses a speed band keeps its decisions by the level they were made at: the
/// bands' counts add up to the decisions, both bands of a game from 126 lines at level 18 to
/// 134 (level 19 from 130) hold some, and its line says it started at 126 lines.
#[test]
fn decisions_are_kept_by_speed_band() {
    let dir = scratch("bands");
    let position = dir.join("at126.txt");
    let text = std::fs::read_to_string(file("well.txt")).expect("well.txt");
    std::fs::write(&position, text.replace("lines 24", "lines 126")).unwrap();
    let csv = dir.join("games.csv");
    let json: serde_json::Value = serde_json::from_str(&stdout(&[
        "bench",
        "--games",
        "1",
        "--line-cap",
        "134",
        "--json",
        "--position",
        position.to_str().unwrap(),
        "--games-csv",
        csv.to_str().unwrap(),
    ]))
    .expect("json");
    let bands = &json["decisions_by_band"];
    assert_eq!(bands["games"], 1, "{json}");
    let count = |k: &str| bands["bands"][k]["decisions"].as_u64().unwrap_or(0);
    assert!(count("18") > 0 && count("19") > 0, "{json}");
    assert!(bands["bands"].get("29").is_none(), "{json}");
    assert_eq!(
        Some(count("18") + count("19")),
        json["decisions"].as_u64(),
        "{json}"
    );
    let row = std::fs::read_to_string(&csv).expect("csv");
    let f: Vec<&str> = row.lines().nth(2).unwrap_or_default().split(',').collect();
    assert_eq!(f.get(17), Some(&"126"), "{row}");
    assert!(
        f.get(18)
            .is_some_and(|b| b.starts_with(&format!("{}/", count("18")))),
        "{row}"
    );
}

/// A fresh folder under Cargo's scratch directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("nestris-positions-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The game lines of a `--games-csv` file (its options line left out).
fn csv_games(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .expect("csv")
        .lines()
        .skip(2)
        .map(|l| l.split(",decision_ns").next().unwrap_or(l).to_string())
        // The decision times differ from run to run; the games do not.
        .map(|l| l.splitn(15, ',').take(13).collect::<Vec<_>>().join(","))
        .collect()
}

#[test]
fn bench_saves_phase_positions_that_start_games_from_a_folder() {
    let dir = scratch("save");
    let saved = dir.join("at12");
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let (saved_s, a, b) = (s(&saved), s(&dir.join("a.csv")), s(&dir.join("b.csv")));
    let base = [
        "bench",
        "--games",
        "3",
        "--line-cap",
        "12",
        "--threads",
        "1",
    ];
    let out = stdout(
        &[
            &base[..],
            &[
                "--games-csv",
                &a,
                "--save-positions",
                &saved_s,
                "--save-positions-at",
                "12",
            ],
        ]
        .concat(),
    );
    assert!(out.contains("positions saved    3"), "{out}");
    // Saving changes nothing in the games, not even those that stop at the cap.
    stdout(&[&base[..], &["--games-csv", &b]].concat());
    assert_eq!(
        csv_games(dir.join("a.csv").as_path()),
        csv_games(dir.join("b.csv").as_path())
    );
    let mut names: Vec<String> = std::fs::read_dir(&saved)
        .expect("saved")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "game-000000.txt",
            "game-000001.txt",
            "game-000002.txt",
            "results.csv"
        ]
    );
    names.pop();
    for n in &names {
        let text = std::fs::read_to_string(saved.join(n)).expect("read");
        let lines: u32 = text
            .lines()
            .find_map(|l| l.strip_prefix("lines "))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{n}: {text}"));
        assert!((12..16).contains(&lines), "{n}: {lines} lines");
        assert!(text.contains("\nnext "), "{n}");
    }
    // Game i of a folder starts from its i-th file (wrapping), with game i's pieces: game 1
    // and game 4 are those of the file game-000001.txt alone.
    let (c, d) = (s(&dir.join("c.csv")), s(&dir.join("d.csv")));
    let from = ["bench", "--line-cap", "24", "--threads", "1", "--games-csv"];
    let run = nestris(&[&from[..], &[&c, "--games", "5", "--position", &saved_s]].concat());
    assert!(run.status.success());
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(out.contains("(departure from the original)"), "{out}");
    // Playing a folder's positions again is said, not silent.
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("holds 3 positions and this run plays games 0-4")
            && err.contains("--games 3 plays each once"),
        "{err}"
    );
    let one = s(&saved.join("game-000001.txt"));
    stdout(&[&from[..], &[&d, "--games", "5", "--position", &one]].concat());
    let (c, d) = (csv_games(&dir.join("c.csv")), csv_games(&dir.join("d.csv")));
    assert_eq!(c.len(), 5);
    assert_eq!(c[1], d[1]);
    assert_eq!(c[4], d[4]);
    assert_ne!(c[0], d[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_position_folders_and_save_options_are_refused() {
    let tmp = scratch("bad");
    let empty = tmp.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let s = |p: &Path| p.to_string_lossy().into_owned();
    assert_refused(
        &["bench", "--games", "1", "--position", &s(&empty)],
        "no position files (*.txt) in it",
    );
    // A file of the folder that is not a position is refused by name and line (the
    // repository's folder of positions holds bad ones; its README is not a `.txt`).
    assert_refused(
        &["bench", "--games", "1", "--position", &s(&dir())],
        "/bad-",
    );
    let file_path = tmp.join("file.txt");
    std::fs::write(&file_path, "x").unwrap();
    for (args, want) in [
        (
            vec![
                "--save-positions",
                &s(&file_path),
                "--save-positions-at",
                "5",
            ],
            "is a file, not a folder",
        ),
        (
            vec!["--save-positions", &s(&empty), "--save-positions-at", "0"],
            "out of range",
        ),
        (vec!["--save-positions", &s(&empty)], "--save-positions-at"),
        (
            vec![
                "--save-positions",
                &s(&empty),
                "--save-positions-at",
                "5",
                "--type",
                "b",
            ],
            "A-type",
        ),
    ] {
        assert_refused(&[&["bench", "--games", "1"][..], &args[..]].concat(), want);
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The columns of a games CSV line but `frames` (a continued game leaves out the few frames
/// between its saved part's last clear and the saved spawn) and the decision times.
fn without_frames(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            [&f[..6], &f[7..]].concat().join(",")
        })
        .collect()
}

/// A copy of the files of folder `from` in a new folder `to`.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
}

/// `nestris bench` over three default games on one thread, with `extra` options.
fn bench3(extra: &[&str]) -> String {
    stdout(&[&["bench", "--games", "3", "--threads", "1"][..], extra].concat())
}

/// Three default games saved at 20 lines in `dir`/at20 (the folder's path).
fn saved_at_20(dir: &Path) -> String {
    saved_at_20_as(dir, "at20", &[])
}

/// Three games with `extra` options saved at 20 lines in `dir`/`name` (the folder's path).
fn saved_at_20_as(dir: &Path, name: &str, extra: &[&str]) -> String {
    let saved = dir.join(name).to_string_lossy().into_owned();
    let save = [
        "--line-cap",
        "20",
        "--save-positions",
        &saved,
        "--save-positions-at",
        "20",
    ];
    bench3(&[extra, &save[..]].concat());
    saved
}

/// `games` default games saved at 20 lines in `folder`, resuming the run of `csv`.
fn save_at_20_resumed(folder: &str, csv: &str, games: &str) -> String {
    stdout(&[
        "bench",
        "--games",
        games,
        "--threads",
        "1",
        "--line-cap",
        "20",
        "--save-positions",
        folder,
        "--save-positions-at",
        "20",
        "--games-csv",
        csv,
        "--resume",
    ])
}

/// A saving run that is stopped and resumed keeps the saved games' lines: its folder continues
/// as the folder of a run played at once.
#[test]
fn a_resumed_saving_run_keeps_its_saved_games() {
    let dir = scratch("resume-save");
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let saved = saved_at_20(&dir);
    let part = s(&dir.join("part"));
    let csv = s(&dir.join("part.csv"));
    let save = |games: &str| save_at_20_resumed(&part, &csv, games);
    save("1");
    let out = save("3");
    assert!(out.contains("resumed"), "{out}");
    let (a, b) = (dir.join("a.csv"), dir.join("b.csv"));
    bench3(&[
        "--line-cap",
        "30",
        "--continue",
        &saved,
        "--games-csv",
        &s(&a),
    ]);
    bench3(&[
        "--line-cap",
        "30",
        "--continue",
        &part,
        "--games-csv",
        &s(&b),
    ]);
    assert_eq!(
        without_frames(&csv_games(&a)),
        without_frames(&csv_games(&b))
    );
}

/// Three games with `extra` options played to 44 lines, and the games of `saved` (saved at
/// 20 lines with the same options) continued to 44: the same games but for `frames`
/// (`dir`/whole.csv and `dir`/cont.csv); the continued run's output.
fn assert_continued_as_played(dir: &Path, saved: &str, extra: &[&str]) -> String {
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let (whole, cont) = (s(&dir.join("whole.csv")), s(&dir.join("cont.csv")));
    bench3(&[extra, &["--line-cap", "44", "--games-csv", &whole]].concat());
    let out = bench3(
        &[
            extra,
            &[
                "--line-cap",
                "44",
                "--continue",
                saved,
                "--games-csv",
                &cont,
            ],
        ]
        .concat(),
    );
    assert_eq!(
        without_frames(&csv_games(Path::new(&whole))),
        without_frames(&csv_games(Path::new(&cont))),
        "{extra:?}"
    );
    out
}

#[test]
fn continued_games_are_the_games_played_through() {
    let dir = scratch("continue");
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let saved = saved_at_20(&dir);
    let whole = dir.join("whole.csv");
    let out = assert_continued_as_played(&dir, &saved, &[]);
    assert!(out.contains("continued from"), "{out}");
    // A chain: continued from 20 lines and saved again at 32, then continued from there:
    // the same whole games.
    let again = s(&dir.join("at32"));
    let chained = dir.join("chained.csv");
    bench3(&[
        "--line-cap",
        "32",
        "--continue",
        &saved,
        "--save-positions",
        &again,
        "--save-positions-at",
        "32",
    ]);
    bench3(&[
        "--line-cap",
        "44",
        "--continue",
        &again,
        "--games-csv",
        &s(&chained),
    ]);
    assert_eq!(
        without_frames(&csv_games(&whole)),
        without_frames(&csv_games(&chained))
    );
    assert_refused(
        &[
            "bench",
            "--games",
            "1",
            "--line-cap",
            "20",
            "--continue",
            &saved,
            "--save-positions",
            &s(&dir.join("early")),
            "--save-positions-at",
            "20",
        ],
        "start at 20 lines; save them later in the game",
    );
    // A folder saved by an earlier version (the archived positions of results/): its
    // results.csv with the first version's 16 columns, no soft-drop points, start lines or
    // decisions by level. The games go on as they were played (their saved part counts no
    // soft-drop points, so those are left out of the comparison with `csv_games`).
    let old = dir.join("old");
    copy_folder(Path::new(&saved), &old);
    let results = std::fs::read_to_string(old.join("results.csv")).unwrap();
    let first_version: String = results
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                format!("{l}\n")
            } else {
                format!("{}\n", l.split(',').take(16).collect::<Vec<_>>().join(","))
            }
        })
        .collect();
    std::fs::write(old.join("results.csv"), &first_version).unwrap();
    let from_old = dir.join("from-old.csv");
    bench3(&[
        "--line-cap",
        "44",
        "--continue",
        &s(&old),
        "--games-csv",
        &s(&from_old),
    ]);
    assert_eq!(
        without_frames(&csv_games(&whole)),
        without_frames(&csv_games(&from_old))
    );
    // Columns of no version: refused, naming them.
    let bad = first_version.replacen("decision_hist", "decision_histogram", 1);
    std::fs::write(old.join("results.csv"), bad).unwrap();
    assert_refused(
        &["bench", "--games", "1", "--continue", &s(&old)],
        "line 2: not the columns of a bench CSV",
    );
    // Bad folders: no results file; games that went on past their saved positions.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert_refused(
        &["bench", "--games", "1", "--continue", &s(&empty)],
        "results.csv",
    );
    let past = s(&dir.join("past"));
    bench3(&[
        "--line-cap",
        "30",
        "--save-positions",
        &past,
        "--save-positions-at",
        "20",
    ]);
    assert_refused(
        &["bench", "--games", "1", "--continue", &past],
        "were not stopped where they were saved",
    );
    assert_refused(
        &["bench", "--games", "9", "--continue", &saved],
        "has no game 3",
    );
    // A game of the folder without a position ended before the save: it topped out, and the
    // boards file says so.
    let short = dir.join("short");
    copy_folder(Path::new(&saved), &short);
    std::fs::remove_file(short.join("game-000001.txt")).unwrap();
    let boards = dir.join("boards.csv");
    bench3(&[
        "--line-cap",
        "44",
        "--continue",
        &s(&short),
        "--record-boards",
        &s(&boards),
    ]);
    let text = std::fs::read_to_string(&boards).unwrap();
    let game1: Vec<&str> = text.lines().filter(|l| l.starts_with("1,")).collect();
    assert_eq!(game1.len(), 1, "{text}");
    assert!(
        game1[0].starts_with("1,end,") && game1[0].ends_with(",topped_out,,"),
        "{text}"
    );
    assert_refused(
        &[
            "bench",
            "--games",
            "1",
            "--continue",
            &saved,
            "--rules",
            "qbasic",
        ],
        "--continue is for A-type games of the NES rules",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Games dealt by a departure's randomizer from the game's seed (`nes-seeded`, `bag7`)
/// continue as they were played through: the pieces the saved part dealt are dealt again and
/// passed over. A folder continued with another randomizer or another seed is refused.
#[test]
fn continued_departure_games_are_the_games_played_through() {
    let dir = scratch("continue-departure");
    for randomizer in ["nes-seeded", "bag7"] {
        let r = ["--randomizer", randomizer];
        let saved = saved_at_20_as(&dir, &format!("at20-{randomizer}"), &r);
        assert_continued_as_played(&dir, &saved, &r);
        assert_refused(
            &["bench", "--games", "1", "--continue", &saved],
            &format!("dealt by the {randomizer} randomizer; continue them with --randomizer {randomizer}"),
        );
        assert_refused(
            &[
                &["bench", "--games", "1", "--seed", "5", "--continue", &saved][..],
                &r[..],
            ]
            .concat(),
            "continue them with that seed",
        );
    }
    let nes = saved_at_20(&dir);
    assert_refused(
        &[
            "bench",
            "--games",
            "1",
            "--randomizer",
            "nes-seeded",
            "--continue",
            &nes,
        ],
        "dealt by the nes randomizer; continue them with --randomizer nes",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_plays_on_from_saved_positions_and_scores_the_points_from_there() {
    let dir = scratch("tune");
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let saved = saved_at_20(&dir);
    let cont = dir.join("cont.csv");
    bench3(&[
        "--line-cap",
        "32",
        "--continue",
        &saved,
        "--games-csv",
        &s(&cont),
    ]);
    // The points each continued game scored after its saved position.
    let mut gained = 0i64;
    for (i, line) in csv_games(&cont).iter().enumerate() {
        let end: i64 = line.split(',').nth(1).unwrap().parse().unwrap();
        let text = std::fs::read_to_string(dir.join("at20").join(format!("game-{i:06}.txt")))
            .expect("position");
        let at: i64 = text
            .lines()
            .find_map(|l| l.strip_prefix("score "))
            .and_then(|v| v.parse().ok())
            .expect("score line");
        gained += end - at;
    }
    // With a spread of 1e-9 every candidate plays as the start weights do: its fitness is
    // the mean of those points.
    let tune = |games: &str| {
        nestris(&[
            "tune",
            "--continue",
            &saved,
            "--games",
            games,
            "--generations",
            "1",
            "--population",
            "2",
            "--elite",
            "1",
            "--sigma",
            "1e-9",
            "--noise",
            "0",
            "--params",
            "burns",
            "--line-cap",
            "32",
            "--state",
            &s(&dir.join(format!("state-{games}.toml"))),
            "--out",
            &s(&dir.join("out.toml")),
        ])
    };
    let out = tune("3");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let want = format!("fitness {:>10}", (gained as f64 / 3.0).round());
    assert!(err.contains(&want), "want `{want}` in {err}");
    let state = std::fs::read_to_string(dir.join("state-3.toml")).expect("state");
    assert!(state.contains("continue"), "{state}");
    let out = tune("4");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("holds 3 positions, fewer than --games 4"),
        "{err}"
    );
    assert_refused(
        &["tune", "--continue", &s(&dir.join("nowhere"))],
        "--continue: cannot read the folder",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A chain extended from its first stage: the saving run, resumed for more games, grows its
/// folder; the continued runs (which save again, and are continued in turn), resumed, keep
/// the games they played from their folders' unchanged games and play only the others, and
/// their files are those of continued runs of all the games. A folder whose first lines
/// changed is still refused.
#[test]
fn a_continued_run_resumes_after_its_folder_grew() {
    let dir = scratch("grown");
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let (folder, first) = (s(&dir.join("at20")), s(&dir.join("first.csv")));
    let stage1 = |games: &str| save_at_20_resumed(&folder, &first, games);
    // Continues FROM to `cap` lines, saving there in NAME-at (to be continued in turn), and
    // writes NAME.csv.
    let stage = |from: &str, cap: u32, name: &str, games: &str, resume: bool| {
        let mut args = vec![
            "bench".to_string(),
            "--games".into(),
            games.into(),
            "--threads".into(),
            "1".into(),
            "--line-cap".into(),
            cap.to_string(),
            "--continue".into(),
            from.into(),
            "--save-positions".into(),
            s(&dir.join(format!("{name}-at"))),
            "--save-positions-at".into(),
            cap.to_string(),
            "--games-csv".into(),
            s(&dir.join(format!("{name}.csv"))),
        ];
        if resume {
            args.push("--resume".into());
        }
        nestris(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let chain_at = s(&dir.join("chain-at"));
    stage1("2");
    assert!(stage(&folder, 30, "chain", "2", true).status.success());
    assert!(stage(&chain_at, 40, "chain3", "2", true).status.success());
    stage1("3");
    for (from, cap, name) in [(&folder, 30, "chain"), (&chain_at, 40, "chain3")] {
        let out = stage(from, cap, name, "3", true);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {err}");
        assert!(err.contains("is not as it was"), "{name}: {err}");
        assert!(err.contains("2 of 3 games already in"), "{name}: {err}");
    }
    assert!(stage(&folder, 30, "whole", "3", false).status.success());
    let whole_at = s(&dir.join("whole-at"));
    assert!(stage(&whole_at, 40, "whole3", "3", false).status.success());
    let options = |p: &Path| {
        let text = std::fs::read_to_string(p).unwrap();
        let json = text.lines().next().unwrap();
        let json = json.trim_start_matches("# nestris bench ");
        serde_json::from_str::<serde_json::Value>(json).unwrap()
    };
    // The options line but for the folder's name and CRC (its games' decision times differ
    // from run to run).
    let same_games = |p: &Path| {
        let mut v = options(p);
        v["continue"] = serde_json::Value::Null;
        v["continue_crc32"] = serde_json::Value::Null;
        v
    };
    // Each resumed run now records its folder as it is: the CRC of its games' lines.
    for (csv, folder) in [("chain", "at20"), ("chain3", "chain-at")] {
        let results = std::fs::read(dir.join(folder).join("results.csv")).unwrap();
        let games = &results[results.iter().position(|&b| b == b'\n').unwrap() + 1..];
        assert_eq!(
            options(&dir.join(format!("{csv}.csv")))["continue_crc32"],
            format!("{:08x}", crc32fast::hash(games)).as_str(),
            "{csv}"
        );
    }
    for (a, b) in [("chain", "whole"), ("chain3", "whole3")] {
        for (a, b) in [
            (dir.join(format!("{a}.csv")), dir.join(format!("{b}.csv"))),
            (
                dir.join(format!("{a}-at")).join("results.csv"),
                dir.join(format!("{b}-at")).join("results.csv"),
            ),
        ] {
            assert_eq!(csv_games(&a), csv_games(&b), "{}", a.display());
            assert_eq!(same_games(&a), same_games(&b), "{}", a.display());
        }
    }
    // Game 0's line in the folder changed: the games played from it do not stand.
    stage1("4");
    let results = dir.join("at20").join("results.csv");
    let text = std::fs::read_to_string(&results).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[2] = lines[2].replacen(',', ",1", 1);
    std::fs::write(&results, lines.join("\n") + "\n").unwrap();
    let out = stage(&folder, 30, "chain", "4", true);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("continue_crc32"), "{err}");
}
