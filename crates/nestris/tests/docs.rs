//! The project's Markdown documents keep well-formed tables: the README's headline and
//! ablation tables are edited by hand and by the results folders' scripts, and a table that
//! a blank line splits, or a row with a cell too many (an unescaped `|` inside a code span,
//! such as `--first-game 0|500`), renders as loose text or shifts every cell after it.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The documents checked: the README, docs/*.md and every results folder's README.md.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut out = vec![root.join("README.md")];
    for (dir, only) in [("docs", None), ("results", Some("README.md"))] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            match only {
                None if p.extension().is_some_and(|x| x == "md") => out.push(p),
                Some(name) if p.join(name).is_file() => out.push(p.join(name)),
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// The cell separators of a table row: its `|` not escaped by a backslash (GitHub splits
/// cells at these even inside code spans).
fn bars(row: &str) -> usize {
    let b = row.as_bytes();
    (0..b.len())
        .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
        .count()
}

fn is_separator(row: &str) -> bool {
    let inner = row.trim().trim_matches('|');
    !inner.is_empty()
        && inner.split('|').all(|c| {
            let c = c.trim().trim_start_matches(':').trim_end_matches(':');
            !c.is_empty() && c.bytes().all(|x| x == b'-')
        })
}

/// Every problem with the tables of `text` (the document `name`), one line each.
fn table_problems(name: &Path, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut problems = Vec::new();
    let mut fenced = false;
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !lines[i].starts_with('|') {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && lines[i].starts_with('|') {
            i += 1;
        }
        let block = &lines[start..i];
        let at = |k: usize| format!("{} line {}", name.display(), start + k + 1);
        if block.len() < 2 || !is_separator(block[1]) {
            problems.push(format!(
                "{}: a table without its header's separator row (or a table split by a blank line)",
                at(0)
            ));
            continue;
        }
        let n = bars(block[0]);
        for (k, row) in block.iter().enumerate() {
            if bars(row) != n {
                problems.push(format!(
                    "{}: {} cell separators, the header has {n} (escape a `|` in a cell as `\\|`)",
                    at(k),
                    bars(row)
                ));
            }
        }
        if let Some(next) = lines.get(i).filter(|l| !l.trim().is_empty()) {
            problems.push(format!(
                "{} line {}: text right after a table joins it as a row; leave a blank line ({next:.40})",
                name.display(),
                i + 1
            ));
        }
    }
    problems
}

#[test]
fn markdown_tables_are_well_formed() {
    let docs = documents();
    assert!(docs.len() > 3, "found the documents: {docs:?}");
    let mut problems = Vec::new();
    let mut tables = 0;
    for doc in &docs {
        let text = std::fs::read_to_string(doc).expect("readable document");
        tables += text.lines().filter(|l| is_separator(l)).count();
        problems.extend(table_problems(
            doc.strip_prefix(root()).unwrap_or(doc),
            &text,
        ));
    }
    assert!(tables > 10, "the documents hold tables ({tables} found)");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_table_check_finds_what_it_looks_for() {
    let name = Path::new("t.md");
    let good = "| a | b |\n|---|---:|\n| `x\\|y` | 2 |\n\ntext\n";
    assert!(table_problems(name, good).is_empty());
    let split = "| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n";
    assert_eq!(table_problems(name, split).len(), 1, "a table split in two");
    let extra = "| a | b |\n|---|---|\n| `0|500` | 2 |\n";
    assert!(table_problems(name, extra)[0].contains("line 3"));
    let joined = "| a | b |\n|---|---|\n| 1 | 2 |\nmore\n";
    assert!(table_problems(name, joined)[0].contains("blank line"));
    let fenced = "```\n| not a table\n```\n";
    assert!(table_problems(name, fenced).is_empty());
}
