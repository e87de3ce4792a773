//! `nestris tune`: seeded, reproducible tuning of the evaluation weights by a (1+1) evolution
//! strategy; every candidate plays the same games (common random numbers).

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use nestris_ai::tune::Tuner;
use nestris_ai::{Ai, Weights};
use rayon::prelude::*;

use crate::bench::play_game;
use crate::options::{AiOptions, GameOptions};

/// Options of `nestris tune`.
#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    /// Games per candidate (the same games for every candidate).
    #[arg(long, default_value_t = 32)]
    pub games: u64,
    /// Candidates to try.
    #[arg(long, default_value_t = 100)]
    pub iterations: u32,
    /// Tuner seed (the games' seed is --seed of the game options).
    #[arg(long, default_value_t = 1)]
    pub tune_seed: u64,
    /// Initial step size (log-scale standard deviation).
    #[arg(long, default_value_t = 0.3)]
    pub sigma: f64,
    /// Stop each game at this many lines.
    #[arg(long, default_value_t = 430)]
    pub line_cap: u32,
    /// Where to write the best weights (rewritten after every improvement).
    #[arg(long, default_value = "tuned.toml")]
    pub out: std::path::PathBuf,
    /// Log of every candidate (CSV: iteration, fitness, kept, sigma).
    #[arg(long)]
    pub log: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub game: GameOptions,
    #[command(flatten)]
    pub ai: AiOptions,
}

fn fitness(args: &TuneArgs, w: &Weights, stop: &AtomicBool) -> Option<f64> {
    let mut cfg = args.ai.config().ok()?;
    cfg.weights = w.clone();
    let scores: Vec<Option<f64>> = (0..args.games)
        .into_par_iter()
        .map(|i| {
            let mut ai = Ai::new(cfg.clone());
            play_game(&args.game, &mut ai, i, args.line_cap, stop, None).map(|r| r.score as f64)
        })
        .collect();
    let s: Option<Vec<f64>> = scores.into_iter().collect();
    s.map(|v| v.iter().sum::<f64>() / v.len() as f64)
}

/// Runs the tuner.
pub fn run(args: &TuneArgs) -> anyhow::Result<ExitCode> {
    args.game.validate()?;
    let start = args.ai.config()?.weights;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || {
            stop.store(true, Ordering::SeqCst);
            eprintln!("\ninterrupted: the best weights so far are in the output file");
        });
    }
    let mut log = match &args.log {
        Some(p) => Some(
            std::fs::File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        ),
        None => None,
    };
    let t0 = Instant::now();
    let Some(f0) = fitness(args, &start, &stop) else {
        return Ok(ExitCode::from(130));
    };
    eprintln!(
        "start: mean score {f0:.0} over {} games ({:.0} s)",
        args.games,
        t0.elapsed().as_secs_f64()
    );
    let mut tuner = Tuner::new(start, f0, args.tune_seed, args.sigma);
    std::fs::write(&args.out, tuner.best.to_toml())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    for it in 1..=args.iterations {
        let cand = tuner.propose();
        let Some(f) = fitness(args, &cand, &stop) else {
            break;
        };
        let kept = tuner.report(cand, f);
        eprintln!(
            "{it:4}  candidate {f:10.0}  best {:10.0}  sigma {:.3}{}  ({:.0} s)",
            tuner.best_fitness,
            tuner.sigma,
            if kept { "  kept" } else { "" },
            t0.elapsed().as_secs_f64()
        );
        if let Some(l) = &mut log {
            writeln!(l, "{it},{f},{kept},{}", tuner.sigma)?;
        }
        if kept {
            let mut best = tuner.best.clone();
            best.name = format!(
                "tuned (seed {}, {} games, iteration {it})",
                args.tune_seed, args.games
            );
            std::fs::write(&args.out, best.to_toml())
                .with_context(|| format!("cannot write {}", args.out.display()))?;
        }
    }
    println!(
        "best mean score {:.0}; weights in {}",
        tuner.best_fitness,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
