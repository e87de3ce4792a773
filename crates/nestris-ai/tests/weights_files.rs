//! Golden check of every weights file the crate ships (`weights/*.toml`, one case per file):
//! each parses, is playable, is named after its file and says how it was made (a comment
//! header), so that a hand edit that breaks a file is caught before a bench runs on it.

use std::path::Path;

use nestris_ai::Weights;

#[test]
fn every_shipped_weights_file_parses_and_is_named_after_its_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("weights");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the weights folder")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "no weights files in {}", dir.display());
    for path in &files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let w = Weights::from_toml(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(w.name, stem, "{}: the name line", path.display());
        assert!(
            text.trim_start().starts_with('#'),
            "{}: no header comment saying how the file was made",
            path.display()
        );
    }
}
