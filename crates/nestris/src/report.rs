//! `nestris report FILE...`: the benchmark's report of games already played, read back from
//! `bench --games-csv` files (the library's [`nestris_session::bench::report`], as `bench`
//! prints it at the end of a run).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::ValueEnum;
use nestris_classic::RandomizerSpec;
use nestris_session::bench::{self, GameResult, ReportSetup};
use nestris_session::classic::ClassicRow;
use nestris_session::gamecsv::{option_differences, options_of, read_run};

use crate::options::{RulesArg, RulesOptions, SegaNextArg};

/// Print the report of games already played, from `bench --games-csv` files: the table (or
/// JSON) `bench` prints at the end of a run, over all the files' games. A run split into
/// ranges of games (`--first-game`), or continued from several folders of saved positions,
/// is read from all its files at once. The files must record the same options, but for the
/// folder each continues; a game in two files is refused. An incomplete last line (a run
/// still going) is left out. The decision times are those the files recorded; there is no
/// wall time.
#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// The run's per-game CSV files (`bench --games-csv FILE`), one or more.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Options that may differ between the files of one run: the folder of saved positions each
/// range continues, and that folder's checksum.
const PER_FILE: [&str; 2] = ["continue", "continue_crc32"];

/// Runs `nestris report`.
pub fn run(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let files = crate::compare::read_files("report", &args.files)?;
    let named = crate::compare::named(&files);
    // Every file's options first: a file of another run is named as such, whatever games
    // it holds.
    let options: Vec<serde_json::Value> = named
        .iter()
        .map(|(name, bytes)| options_of("report", name, bytes))
        .collect::<Result<_, _>>()?;
    let first = &options[0];
    for (i, o) in options.iter().enumerate().skip(1) {
        let differ: Vec<String> = option_differences(first, o, "in the first", "here")
            .map_err(|e| anyhow::anyhow!("report: {}: {e}", named[i].0))?
            .into_iter()
            .filter(|d| !PER_FILE.iter().any(|k| d.starts_with(&format!("{k}:"))))
            .collect();
        if !differ.is_empty() {
            bail!(
                "report: {} is not a file of {}'s run: its options differ ({})",
                named[i].0,
                named[0].0,
                differ.join("; ")
            );
        }
    }
    let rules = rules_of(first, named[0].0)?;
    let results = if rules.rules == RulesArg::Nes {
        read_run::<GameResult>("report", &named)?.1
    } else {
        let rows = read_run::<ClassicRow>("report", &named)?.1;
        rows.into_iter().map(|r| r.0).collect()
    };
    let mut results = results;
    results.sort_by_key(|g| g.index);
    let mut continued: Vec<&str> = Vec::new();
    for c in options.iter().filter_map(|o| o["continue"].as_str()) {
        // Two ranges may continue one folder.
        if !continued.contains(&c) {
            continued.push(c);
        }
    }
    let setup = setup(first, rules, &results, &continued);
    let mut v = bench::report(&results, &setup, std::time::Duration::ZERO);
    if let Some(m) = v.as_object_mut() {
        // Not a run: no wall time to report.
        m.remove("wall_seconds");
    }
    let table = if setup.rules == nestris_session::Rules::Nes {
        crate::bench::print_table
    } else {
        crate::bench::print_classic_table
    };
    crate::bench::emit(&v, args.json, table, false)
}

/// The rule set and randomizer the options record (the NES and its picker when absent, as
/// files written before those options were).
fn rules_of(o: &serde_json::Value, name: &str) -> anyhow::Result<RulesOptions> {
    let rules = match o["rules"].as_str() {
        None => RulesArg::Nes,
        Some(r) => RulesArg::from_str(r, false)
            .map_err(|_| anyhow::anyhow!("report: {name}: unknown rule set {r:?}"))?,
    };
    let randomizer = match o["randomizer"].as_str() {
        None => None,
        Some(r) => Some(
            r.parse::<RandomizerSpec>()
                .map_err(|e| anyhow::anyhow!("report: {name}: randomizer {r:?}: {e}"))?,
        ),
    };
    let sega_next_game = match o["sega_next_game"].as_str() {
        Some("watch") => SegaNextArg::Watch,
        _ => SegaNextArg::Skip,
    };
    Ok(RulesOptions {
        rules,
        randomizer,
        sega_next_game,
    })
}

/// What the report says about the run, from its options line. `first_game` is the lowest
/// game the files hold when it is not 0.
fn setup(
    o: &serde_json::Value,
    rules: RulesOptions,
    results: &[GameResult],
    continued: &[&str],
) -> ReportSetup {
    let num = |k: &str| o[k].as_u64().unwrap_or(0);
    let text = |k: &str, default: &str| o[k].as_str().unwrap_or(default).to_string();
    let position = o["position"].as_str().map(str::to_string);
    let position_departure = position.as_ref().is_some_and(|p| !is_snapshot(p));
    ReportSetup {
        rules: rules.rules(),
        randomizer: rules.randomizer_spec().to_string(),
        departure: rules.is_departure(),
        level: num("level") as u16,
        b_type: o["type"].as_str() == Some("b"),
        height: num("height") as u8,
        hz: text("hz", ""),
        reaction: num("reaction") as u32,
        ai: text("ai", ""),
        line_cap: num("line_cap") as u32,
        format: text("format", "custom"),
        double_killscreen: o["double_killscreen"].as_bool() == Some(true),
        seed: num("seed"),
        first_game: results.first().map_or(0, |g| g.index),
        widths: ["deep_locks", "deep_next", "blind_locks", "blind_next"].map(|k| num(k) as usize),
        fourth_ply: text("fourth_ply", "off"),
        playouts: text("playouts", "off"),
        pushdown: o["pushdown"].as_bool() == Some(true),
        position,
        position_departure,
        continued_from: (!continued.is_empty()).then(|| continued.join(", ")),
    }
}

/// Whether `path` is an engine snapshot (a gzip-compressed trace, whose games are the
/// original's) rather than a position file. A path that cannot be read now (moved, or a
/// folder) counts as a position: its games are labelled a departure, never left unlabelled.
fn is_snapshot(path: &str) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && magic == [0x1f, 0x8b]
}
