//! Golden requests and answers of the StackRabbit-compatible routes (and the native API's
//! errors): each file of `tests/golden/stackrabbit/` is
//!
//! ```text
//! > GET /get-move?board=...&currentPiece=T&...
//! < 200 text/plain
//! the body, exactly
//! ```
//!
//! The request is answered by the router (no network) and must give that status, content
//! type and body. After a deliberate change (the AI's values, a format), regenerate them with
//! `UPDATE_GOLDEN=1 cargo test -p nestris-http --test golden` and review the diff.

use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/stackrabbit"
    ))
}

#[test]
fn golden_requests_get_their_answers() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("tests/golden/stackrabbit")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "golden"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{} golden files", files.len());
    let mut failures = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("golden file");
        let first = text.lines().next().unwrap_or("");
        let Some((method, target)) = first.strip_prefix("> ").and_then(|r| r.split_once(' '))
        else {
            panic!(
                "{}: the first line is not `> METHOD TARGET`",
                path.display()
            );
        };
        let r = nestris_http::route(method, target, b"");
        let got = format!("{first}\n< {} {}\n{}\n", r.status, r.content_type, r.body);
        if update {
            std::fs::write(&path, &got).expect("write golden file");
        } else if got != text {
            failures.push(format!(
                "{}:\n--- expected\n{text}--- got\n{got}",
                path.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden answers differ (UPDATE_GOLDEN=1 to regenerate after a deliberate change):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
