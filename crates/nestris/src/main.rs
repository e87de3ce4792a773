//! `nestris`: NES Tetris (NTSC, 1989) in the terminal: a bit-exact engine, an AI that plays it
//! under the game's real timing, a benchmark, and conformance checks against the original.

mod bench;
mod best;
mod census;
mod compare;
mod fit_value;
mod gaps;
mod options;
mod play;
mod replay;
mod report;
mod sequence;
mod serve;
mod tui;
mod tune;

/// Size-limited file reads (in the session library, which reads replays and games CSVs too).
use nestris_session::readlimit;
mod verify;
mod watch;

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
    /// The best placements of the current piece from a position (board, pieces, level,
    /// lines) at a tap speed and reaction time: the lock, the frame-by-frame inputs, the AI's
    /// value, the board after; `--rate` ranks a placement the player made.
    Best(best::BestArgs),
    /// The analysis of `best` over HTTP/JSON: /v1/best, /v1/rate, /v1/health, /v1/version
    /// (and StackRabbit's /ping), on a worker pool with a time limit per request.
    Serve(serve::ServeArgs),
    /// Tune the evaluation weights (seeded, resumable noisy cross-entropy method; every candidate
    /// of a generation plays the same games).
    Tune(tune::TuneArgs),
    /// Watch the AI play on screen (speed keys, its decisions in a side panel); headless when
    /// stdout is not a terminal: one line per game. The default command in a terminal.
    Watch(watch::WatchArgs),
    /// Play yourself with the keyboard as the controller (DAS as the game has it).
    Play(play::PlayArgs),
    /// Play a recording back on screen, or check it headless (`--check`).
    Replay(replay::ReplayArgs),
    /// Print the pieces a randomizer deals (nes, nes-seeded, sega, bloxeed, uniform, cycle, bag7,
    /// file:PATH): one line of letters per game, the same pieces the other commands deal with
    /// the same --seed.
    Sequence(sequence::SequenceArgs),
    /// Compare two benchmark runs game by game (`bench --games-csv` files): the mean
    /// per-game gain with its standard error, and the games each lost early.
    Compare(compare::CompareArgs),
    /// The report of games already played, from `bench --games-csv` files (a run's ranges
    /// together): mean ± standard error, percentiles, lines, the scores before levels 19, 29
    /// and 39, decision times.
    Report(report::ReportArgs),
    /// Where the lines of recorded games went (`bench --record-boards` files): Tetrises, and
    /// burns by the board they were made from, per level band.
    Census(census::CensusArgs),
    /// Fit a board-value table (the `board_value` feature) to recorded games (`bench
    /// --record-boards` files): the discounted points each board's game scored from it on.
    FitValue(fit_value::FitValueArgs),
}

/// `watch` with its default options (what `nestris` alone runs in a terminal).
#[derive(Debug, Parser)]
struct WatchCli {
    #[command(flatten)]
    args: watch::WatchArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Verify(args)) => verify::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Best(args)) => best::run(&args),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Watch(args)) => watch::run(&args),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Sequence(args)) => sequence::run(&args),
        Some(Command::Compare(args)) => compare::run(&args),
        Some(Command::Report(args)) => report::run(&args),
        Some(Command::Census(args)) => census::run(&args),
        Some(Command::FitValue(args)) => fit_value::run(&args),
        None if std::io::IsTerminal::is_terminal(&std::io::stdout()) => {
            // No subcommand in a terminal: watch the AI with the default options.
            use clap::Parser as _;
            let defaults = WatchCli::parse_from(["nestris"]);
            watch::run(&defaults.args)
        }
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
