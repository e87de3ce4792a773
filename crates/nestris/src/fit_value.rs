//! `nestris fit-value`: fit a board-value table to recorded games (the library's
//! [`nestris_session::boards::value_samples`] and [`nestris_ai::value::fit`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// Fit a board-value table (the `board_value` feature) to the boards of recorded games
/// (`bench --record-boards` files): each board's target is the discounted points its game
/// scored from it on; the table is the ridge least-squares fit. Prints the fit's R², and its
/// R² on every fifth game's boards when the table is fitted on the other games, and writes
/// the table as text, its header the command that made it.
#[derive(Debug, Clone, clap::Args)]
pub struct FitValueArgs {
    /// The boards files (`bench --record-boards FILE`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Where to write the table.
    #[arg(long)]
    pub out: PathBuf,
    /// The discount a piece of the points to come (0..1).
    #[arg(long, default_value_t = 0.98)]
    pub gamma: f64,
    /// Boards at most this many lines into their game (later ones' returns are cut short by
    /// the line cap: the default leaves 50 lines before the field's 430).
    #[arg(long, default_value_t = 380)]
    pub max_lines: u32,
    /// Boards from this level on.
    #[arg(long, default_value_t = 39)]
    pub min_level: u8,
    /// Boards up to this level (the killscreen's table: `--min-level 29 --max-level 38`).
    #[arg(long, default_value_t = 255)]
    pub max_level: u8,
    /// The well's column, 0-9 (the table reads the ready rows beside it).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(0..=9))]
    pub well: u8,
    /// The ridge penalty on the squared weights (on seed 7000's double-killscreen boards, 100
    /// held out best: R² 0.360 / 0.395 / 0.408 / 0.396 at 10 / 30 / 100 / 300).
    #[arg(long, default_value_t = 100.0)]
    pub ridge: f64,
}

/// Runs `nestris fit-value`.
pub fn run(args: &FitValueArgs) -> anyhow::Result<ExitCode> {
    if !(args.gamma > 0.0 && args.gamma < 1.0) {
        anyhow::bail!("fit-value: --gamma {} is not between 0 and 1", args.gamma);
    }
    if !(args.ridge.is_finite() && args.ridge > 0.0 && args.ridge <= 1e9) {
        anyhow::bail!(
            "fit-value: --ridge {} is not a number in (0, 1e9]",
            args.ridge
        );
    }
    if args.max_level < args.min_level {
        anyhow::bail!(
            "fit-value: --max-level {} is below --min-level {}",
            args.max_level,
            args.min_level
        );
    }
    let filter = nestris_session::boards::SampleFilter {
        min_level: args.min_level,
        max_level: args.max_level,
        max_lines: args.max_lines,
        gamma: args.gamma,
        well: args.well as usize,
    };
    let mut samples = Vec::new();
    for f in &args.files {
        let name = f.display().to_string();
        let file = std::fs::File::open(f)
            .map_err(|e| anyhow::anyhow!("fit-value: cannot read {name}: {e}"))?;
        let s =
            nestris_session::boards::value_samples(&name, std::io::BufReader::new(file), &filter)?;
        eprintln!("fit-value: {name}: {} boards kept", s.len());
        samples.extend(s);
    }
    if samples.is_empty() {
        anyhow::bail!(
            "fit-value: no board of the files is at level {}+ within {} lines",
            args.min_level,
            args.max_lines
        );
    }
    // Held out: every fifth game's boards, predicted by a table fitted on the other games.
    let (held, kept): (Vec<_>, Vec<_>) = samples.iter().copied().partition(|s| s.game % 5 == 0);
    let held_r2 = if held.is_empty() || kept.is_empty() {
        None
    } else {
        let (t, _) = nestris_ai::value::fit(&kept, args.ridge, 5000);
        Some(t.r2(&held))
    };
    let (table, report) = nestris_ai::value::fit(&samples, args.ridge, 5000);
    let mean = samples.iter().map(|s| s.target).sum::<f64>() / samples.len() as f64;
    let held_text = match held_r2 {
        Some(r2) => format!("{r2:.4}"),
        None => "- (too few games)".into(),
    };
    println!(
        "samples {}  mean target {:.0}  R² {:.4}  held-out R² {held_text}  ({} iterations)",
        samples.len(),
        mean,
        report.r2,
        report.iterations
    );
    let files: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
    let header = format!(
        "nestris value table ({} entries, nestris_ai::value): made by\n\
         nestris fit-value {} --gamma {} --max-lines {} --min-level {} --max-level {} --well {} --ridge {} --out FILE\n\
         {} boards, mean target {:.0} points, R² {:.4}, held-out R² {held_text} (every fifth game, fitted on the others)",
        nestris_ai::value::ENTRIES,
        files.join(" "),
        args.gamma,
        args.max_lines,
        args.min_level,
        args.max_level,
        args.well,
        args.ridge,
        samples.len(),
        mean,
        report.r2
    );
    std::fs::write(&args.out, table.to_text(&header))
        .with_context(|| format!("fit-value: cannot write {}", args.out.display()))?;
    Ok(ExitCode::SUCCESS)
}
