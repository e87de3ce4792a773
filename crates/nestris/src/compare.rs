//! `nestris compare BASE NEW`: two `bench --games-csv` runs compared game by game (the
//! library's [`nestris_session::compare`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// Compare two benchmark runs game by game: the mean per-game gain of NEW over BASE, with
/// its standard error, for the score, lines, the scores before levels 19, 29 and 39,
/// Tetrises, pieces and soft-drop points, and the games each lost before 130, 230 and 330
/// lines. Games are paired by index (game i of a seed is the same game in every run); games only one run
/// has are left out and counted. Runs still going can be compared: an incomplete last line
/// is left out.
#[derive(Debug, Clone, clap::Args)]
pub struct CompareArgs {
    /// The base run's per-game CSV (`bench --games-csv FILE`).
    pub base: PathBuf,
    /// The new run's per-game CSV.
    pub new: PathBuf,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `nestris compare`.
pub fn run(args: &CompareArgs) -> anyhow::Result<ExitCode> {
    let read = |p: &PathBuf| {
        crate::readlimit::read(p, crate::readlimit::max::LARGE)
            .with_context(|| format!("compare: cannot read {}", p.display()))
    };
    let (base, new) = (read(&args.base)?, read(&args.new)?);
    let c = nestris_session::compare::compare_files(
        &args.base.display().to_string(),
        &base,
        &args.new.display().to_string(),
        &new,
    )?;
    if args.json {
        println!("{}", c.json());
    } else {
        print!("{}", c.table());
    }
    Ok(ExitCode::SUCCESS)
}
