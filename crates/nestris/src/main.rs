//! `nestris`: NES Tetris (NTSC, 1989) in the terminal: a bit-exact engine, an AI that plays it
//! under the game's real timing, a benchmark, and conformance checks against the original.

mod bench;
mod options;
mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// NES Tetris: bit-exact engine, AI, terminal UI and benchmark.
#[derive(Debug, Parser)]
#[command(name = "nestris", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Replay reference traces against the engine; prints `ok` or the first divergence per
    /// file, then `N passed, M failed` (exit 1 if any failed, 2 on unreadable input).
    Verify(verify::VerifyArgs),
    /// Headless AI games on all cores, reported as the field reports bots (mean score,
    /// percentiles, lines, Tetris rate, decision times).
    Bench(bench::BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Verify(args)) => verify::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        None => {
            use clap::CommandFactory;
            Cli::command().print_help().ok();
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
