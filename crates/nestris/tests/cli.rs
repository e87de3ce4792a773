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
    let dir = std::env::temp_dir().join(format!("nestris-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    let dir = std::env::temp_dir().join(format!("nestris-w-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
}

#[test]
fn verify_never_takes_the_double_killscreen() {
    let files = traces();
    let (code, _, err) = nestris(&["verify", "--double-killscreen", &files[0]]);
    assert_ne!(code, 0);
    assert!(err.contains("--double-killscreen"), "{err}");
}
