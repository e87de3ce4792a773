//! `nestris verify`: replays reference traces through the engine.

use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `nestris verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Trace files (`*.jsonl.gz`, format nes-trace-1).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Compare only the fields the format requires (not the internal counters).
    #[arg(long)]
    pub required_only: bool,
}

/// Runs the command: exit 0 when every trace matches, 1 when any diverges, 2 when any file
/// cannot be read or parsed.
pub fn run(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let (mut passed, mut failed, mut unreadable) = (0usize, 0usize, 0usize);
    for path in &args.files {
        let name = path.display();
        let trace = match nestris_trace::Trace::read(path) {
            Ok(t) => t,
            Err(e) => {
                println!("{name}: error: {e}");
                unreadable += 1;
                continue;
            }
        };
        let result = if args.required_only {
            nestris_trace::replay_with(&trace, true)
        } else {
            nestris_trace::replay(&trace)
        };
        match result {
            Ok(None) => {
                println!("{name}: ok ({} frames)", trace.frames.len());
                passed += 1;
            }
            Ok(Some(d)) => {
                println!("{name}: FAIL {d}");
                failed += 1;
            }
            Err(e) => {
                println!("{name}: error: {e}");
                unreadable += 1;
            }
        }
    }
    println!("{passed} passed, {} failed", failed + unreadable);
    Ok(if unreadable > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
