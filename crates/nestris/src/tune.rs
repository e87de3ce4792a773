//! `nestris tune`: seeded, resumable tuning of the evaluation weights by the noisy
//! cross-entropy method ([`nestris_ai::tune::Cem`]). Every candidate of a generation plays the
//! same games (common random numbers); each generation plays new ones. The state file is
//! rewritten after every candidate, so an interrupted run (Ctrl-C, a killed session) resumes
//! where it stopped when the same command is run again.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context};
use nestris_ai::tune::{default_slots, Cem, CemSettings};
use nestris_ai::{Ai, Weights};
use rayon::prelude::*;

use crate::bench::play_game;
use crate::options::{AiOptions, GameOptions};

/// Options of `nestris tune`.
#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    /// Games per candidate (the same games for every candidate of a generation).
    #[arg(long, default_value_t = 32)]
    pub games: u64,
    /// Generations to run (counting those already in the state file).
    #[arg(long, default_value_t = 20)]
    pub generations: u32,
    /// Candidates per generation.
    #[arg(long, default_value_t = 12)]
    pub population: usize,
    /// Best candidates that refit the distribution after each generation.
    #[arg(long, default_value_t = 4)]
    pub elite: usize,
    /// Initial standard deviation of the log-multipliers.
    #[arg(long, default_value_t = 0.25)]
    pub sigma: f64,
    /// Noise floor added to each standard deviation after a generation.
    #[arg(long, default_value_t = 0.05)]
    pub noise: f64,
    /// Tuner seed (the games' seed is --seed of the game options; generation g plays games
    /// from seed + g).
    #[arg(long, default_value_t = 1)]
    pub tune_seed: u64,
    /// The numbers to tune, comma-separated: feature names, danger_height, or
    /// killscreen.<name>. Default: every non-zero weight and both danger heights.
    #[arg(long, value_delimiter = ',')]
    pub params: Vec<String>,
    /// Stop each game at this many lines.
    #[arg(long, default_value_t = 430)]
    pub line_cap: u32,
    /// The tuner's state: created on the first run, resumed on the next ones.
    #[arg(long, default_value = "tune-state.toml")]
    pub state: std::path::PathBuf,
    /// Where to write the distribution's mean as weights (rewritten after every generation).
    #[arg(long, default_value = "tuned.toml")]
    pub out: std::path::PathBuf,
    #[command(flatten)]
    pub game: GameOptions,
    #[command(flatten)]
    pub ai: AiOptions,
}

fn fitness(args: &TuneArgs, w: &Weights, seed: u64, stop: &AtomicBool) -> Option<(f64, f64)> {
    let mut cfg = args.ai.config().ok()?;
    cfg.weights = w.clone();
    let mut game = args.game.clone();
    game.seed = seed;
    let results: Vec<Option<(f64, f64)>> = (0..args.games)
        .into_par_iter()
        .map(|i| {
            let mut ai = Ai::new(cfg.clone());
            play_game(&game, &mut ai, i, args.line_cap, stop, None)
                .map(|r| (r.score as f64, r.lines as f64))
        })
        .collect();
    let r: Option<Vec<(f64, f64)>> = results.into_iter().collect();
    r.map(|v| {
        let n = v.len() as f64;
        (
            v.iter().map(|x| x.0).sum::<f64>() / n,
            v.iter().map(|x| x.1).sum::<f64>() / n,
        )
    })
}

fn write_atomic(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    crate::replayfile::write_atomic(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Runs the tuner.
pub fn run(args: &TuneArgs) -> anyhow::Result<ExitCode> {
    args.game.validate()?;
    if args.games == 0 || args.games > 100_000 {
        bail!("--games {} is out of range (1..=100000)", args.games);
    }
    if args.generations == 0 {
        bail!("--generations must be at least 1");
    }
    crate::options::check_writable("--out", &args.out)?;
    crate::options::check_writable("--state", &args.state)?;
    let start = args.ai.config()?.weights;
    let context = format!(
        "games {} line_cap {} seed {} level {} type {:?} height {} double_killscreen {} hz {} reaction {} deep {}x{} blind {}x{}",
        args.games,
        args.line_cap,
        args.game.seed,
        args.game.level,
        args.game.game_type,
        args.game.height,
        args.game.double_killscreen,
        args.ai.hz,
        args.ai.reaction,
        args.ai.deep_locks,
        args.ai.deep_next,
        args.ai.blind_locks,
        args.ai.blind_next
    );
    let mut cem = if args.state.exists() {
        let text = crate::readlimit::read_to_string(&args.state, crate::readlimit::max::MEDIUM)
            .with_context(|| format!("cannot read {}", args.state.display()))?;
        let c = Cem::from_toml(&text).with_context(|| format!("{}", args.state.display()))?;
        if c.context != context {
            bail!(
                "{} was made with other options ({}); this run has ({context}). Use another --state, or the same options",
                args.state.display(),
                c.context
            );
        }
        eprintln!(
            "resuming {}: generation {}, {} of {} candidates measured",
            args.state.display(),
            c.generation,
            c.population - c.pending().len(),
            c.population
        );
        c
    } else {
        let slots = if args.params.is_empty() {
            default_slots(&start)
        } else {
            args.params.clone()
        };
        Cem::new(
            &start,
            slots,
            args.tune_seed,
            CemSettings {
                population: args.population,
                elite: args.elite,
                sigma: args.sigma,
                noise: args.noise,
            },
            context,
        )?
    };
    write_atomic(&args.state, &cem.to_toml())?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || {
            stop.store(true, Ordering::SeqCst);
            eprintln!("\ninterrupted: the state file holds every finished candidate; run the same command to resume");
        });
    }
    let t0 = Instant::now();
    while cem.generation < args.generations {
        let g = cem.generation;
        for k in cem.pending() {
            let cand = cem.candidate(k)?;
            let Some((f, lines)) =
                fitness(args, &cand, args.game.seed.wrapping_add(g as u64), &stop)
            else {
                return Ok(ExitCode::from(130));
            };
            eprintln!(
                "generation {g:3} candidate {k:3}: mean score {f:10.0}, lines {lines:5.1}  ({:.0} s)",
                t0.elapsed().as_secs_f64()
            );
            let done = cem.record(k, f);
            write_atomic(&args.state, &cem.to_toml())?;
            if let Some(s) = done {
                eprintln!(
                    "generation {g:3} done: mean {:.0}, elite mean {:.0}, best {:.0}, sigma {:.3}",
                    s.mean_fitness, s.elite_fitness, s.best_fitness, s.sigma
                );
                let name = format!("cem seed {} generation {}", cem.seed, cem.generation);
                write_atomic(&args.out, &cem.mean_weights(&name)?.to_toml())?;
            }
        }
    }
    println!(
        "{} generations; the distribution's mean is in {}",
        cem.generation,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
