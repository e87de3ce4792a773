//! One test per vendored trace (`tests/data/traces/*.jsonl.gz`): the engine must reproduce
//! every frame.

use std::path::PathBuf;

use libtest_mimic::{Arguments, Failed, Trial};

fn main() {
    let args = Arguments::from_args();
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/traces"
    ));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".jsonl.gz"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no traces in {}", dir.display());
    let trials = files
        .into_iter()
        .map(|path| {
            let name = path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .trim_end_matches(".jsonl.gz")
                .to_string();
            Trial::test(format!("trace::{name}"), move || {
                let trace =
                    nestris_trace::Trace::read(&path).map_err(|e| Failed::from(e.to_string()))?;
                match nestris_trace::replay(&trace).map_err(Failed::from)? {
                    None => Ok(()),
                    Some(d) => Err(Failed::from(format!(
                        "{} ({} frames): {d}",
                        trace.note,
                        trace.frames.len()
                    ))),
                }
            })
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
