//! `nestris compare BASE NEW`: two `bench --games-csv` runs compared game by game (the
//! library's [`nestris_session::compare`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// Compare two benchmark runs game by game: the mean per-game gain of NEW over BASE, with
/// its standard error, for the score, lines, the scores before levels 19, 29 and 39, the
/// score made from level 29 on (`from_29`, score minus before_29), Tetrises, pieces and
/// soft-drop points, and the games each lost before 130, 230 and 330 lines. Games are paired
/// by index (game i of a seed is the same game in every run); games only one run has are
/// left out and counted. Runs still going can be compared: an incomplete last line is left
/// out.
#[derive(Debug, Clone, clap::Args)]
pub struct CompareArgs {
    /// The base run's per-game CSV (`bench --games-csv FILE`).
    pub base: PathBuf,
    /// The new run's per-game CSV.
    pub new: PathBuf,
    /// Another file of the base run: another range of its games (e.g. a `--first-game 500`
    /// run). Repeatable. A game in two files of one run is an error.
    #[arg(long, value_name = "FILE")]
    pub base_also: Vec<PathBuf>,
    /// Another file of the new run, as `--base-also`. Repeatable.
    #[arg(long, value_name = "FILE")]
    pub new_also: Vec<PathBuf>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Reads `--games-csv` files for `command`'s messages: each file's name and bytes.
pub(crate) fn read_files<'a>(
    command: &str,
    paths: impl IntoIterator<Item = &'a PathBuf>,
) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    paths
        .into_iter()
        .map(|p| {
            let bytes = crate::readlimit::read(p, crate::readlimit::max::LARGE)
                .with_context(|| format!("{command}: cannot read {}", p.display()))?;
            Ok((p.display().to_string(), bytes))
        })
        .collect()
}

/// A run's files as the library reads them: names and bytes.
pub(crate) fn named(run: &[(String, Vec<u8>)]) -> Vec<(&str, &[u8])> {
    run.iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect()
}

/// Runs `nestris compare`.
pub fn run(args: &CompareArgs) -> anyhow::Result<ExitCode> {
    // Each run's files, named for messages, with their bytes.
    let load = |first: &PathBuf, also: &[PathBuf]| {
        read_files("compare", std::iter::once(first).chain(also))
    };
    let (base, new) = (
        load(&args.base, &args.base_also)?,
        load(&args.new, &args.new_also)?,
    );
    let c = nestris_session::compare::compare_files(&named(&base), &named(&new))?;
    if args.json {
        println!("{}", c.json());
    } else {
        print!("{}", c.table());
    }
    Ok(ExitCode::SUCCESS)
}
