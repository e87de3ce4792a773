//! `nestris census FILE`: where the lines of a `bench --record-boards` file went (the
//! library's [`nestris_session::boards::census`]).

use std::path::PathBuf;
use std::process::ExitCode;

/// Where the lines of recorded games went: per level band (to 18, 19-28, 29-38, 39 on), the
/// pieces, lines, the share of lines cleared by Tetrises, and the burned lines (singles,
/// doubles, triples) by the board the piece that made them spawned on: holes in the stack,
/// the well covered, a tall stack, a second well beside the well, or a clean low stack; then
/// the I pieces, with the share that found no open well and the Tetris-ready rows they found.
/// The well is the rightmost column before level 39 (the default AI's), and `--well-39`
/// from it. Reads a `bench --record-boards FILE` file, checking every line.
#[derive(Debug, Clone, clap::Args)]
pub struct CensusArgs {
    /// The boards file (`bench --record-boards FILE`).
    pub file: PathBuf,
    /// A stack counts as tall from this many rows (its tallest column beside the well).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub tall: u32,
    /// The well's column from level 39 on, 0-9 from the left. The default is the default AI's
    /// well under the double killscreen (the field's format; its weights' `well_column`); 9
    /// reads those boards as the earlier bands are read.
    #[arg(long, default_value_t = default_well_39(), value_parser = clap::value_parser!(u8).range(0..=9))]
    pub well_39: u8,
}

/// The default AI's well under the double killscreen: the `well_column` of the default
/// weights' table in force at level 39 there.
fn default_well_39() -> u8 {
    nestris_ai::Weights::default().at(39, true).well_column
}

/// Runs `nestris census`.
pub fn run(args: &CensusArgs) -> anyhow::Result<ExitCode> {
    let name = args.file.display().to_string();
    let file = std::fs::File::open(&args.file)
        .map_err(|e| anyhow::anyhow!("census: cannot read {name}: {e}"))?;
    let c = nestris_session::boards::census(
        &name,
        std::io::BufReader::new(file),
        args.tall,
        usize::from(args.well_39),
    )?;
    print!("{}", c.table());
    Ok(ExitCode::SUCCESS)
}
