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
use nestris_ai::tune::{default_slots, slot_from_level, Cem, CemSettings};
use nestris_ai::{Ai, AiConfig, Weights};
use nestris_engine::{Game, GameType};
use rayon::prelude::*;

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
    /// The numbers to tune, comma-separated: feature names, danger_height,
    /// killscreen.<name> (from level 29), double_killscreen.<name> (under the double
    /// killscreen), before_19.<name> (before level 19), endgame.<name> (the last lines
    /// before the line cap, with an [endgame] table in the start weights) or
    /// killscreen_end.<name> (the last lines before the double killscreen's table, with a
    /// [killscreen_end] table in the start weights). Default: every non-zero weight and both danger heights. When every tuned
    /// number acts from a later level, the games are played once to two levels before it
    /// and every candidate goes on from there.
    #[arg(long, value_delimiter = ',')]
    pub params: Vec<String>,
    /// Stop each game at this many lines.
    #[arg(long, default_value_t = 430)]
    pub line_cap: u32,
    /// Points taken from a game's score when it tops out before the line cap: what the rest
    /// of the game is worth, so that a candidate's fitness prices its deaths when the games
    /// stop early (say 1200000 with `--line-cap 130`, what a game that reaches level 19
    /// goes on to score in the field's format). 0..=1e9; 0 leaves the fitness the mean score.
    #[arg(long, default_value_t = 0.0)]
    pub topout_cost: f64,
    /// The tuner's state: created on the first run, resumed on the next ones.
    #[arg(long, default_value = "tune-state.toml")]
    pub state: std::path::PathBuf,
    /// Where to write the distribution's mean as weights (rewritten after every generation).
    #[arg(long, default_value = "tuned.toml")]
    pub out: std::path::PathBuf,
    /// Play the games on from the positions a `bench --save-positions` run saved in FOLDER
    /// (say at 330 lines, to tune the double killscreen's table): generation g takes the
    /// --games positions after the first g x --games, in the order of the games, wrapping
    /// round. The fitness is then the points scored from the saved position on (less
    /// --topout-cost for a game that tops out).
    #[arg(long = "continue", value_name = "FOLDER", conflicts_with_all = ["position", "level"])]
    pub continue_from: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub game: GameOptions,
    #[command(flatten)]
    pub ai: AiOptions,
}

/// Plays `game` with `ai` until it ends, reaches the line cap, or (with `until`) reaches that
/// level with no piece in play (between two pieces, where a fresh AI takes over exactly where
/// the old one was). `None` when interrupted.
fn play_from(
    mut game: Game,
    ai: &mut Ai,
    line_cap: u32,
    until: Option<u8>,
    stop: &AtomicBool,
) -> Option<Game> {
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let capped =
            line_cap > 0 && game.game_type == GameType::A && game.lines_value() >= line_cap;
        if game.game_over() || game.ended() || capped {
            return Some(game);
        }
        if until.is_some_and(|l| game.level >= l && !game.piece_active()) {
            return Some(game);
        }
        let input = ai.next_input(&game);
        game.step(input);
    }
}

/// Where the candidates' games part: the level from which a tuned number can change a
/// decision. A decision looks at most three pieces (12 lines) ahead, and a level lasts at
/// least 10 lines, so a table that starts at level L cannot change a decision before level
/// L - 2. `None` when the tuned numbers act from the start.
fn fork_level(start: &Weights, slots: &[String], start_level: u8) -> Option<u8> {
    let from = slots.iter().map(|s| slot_from_level(start, s)).min()?;
    let fork = from.saturating_sub(2);
    (fork > start_level).then_some(fork)
}

/// The playouts of the default search ([`AiOptions::playouts_label`] with no option given).
fn default_playouts_label() -> String {
    #[derive(clap::Parser)]
    struct Defaults {
        #[command(flatten)]
        ai: AiOptions,
    }
    <Defaults as clap::Parser>::parse_from(["tune"])
        .ai
        .playouts_label()
}

/// The games of generation `generation` from the saved positions of `--continue`: the
/// --games positions after the first `generation` x --games, wrapping round.
fn continued(
    args: &TuneArgs,
    positions: &[nestris_session::position::Position],
    generation: u32,
) -> Vec<Game> {
    let n = positions.len() as u64;
    (0..args.games)
        .map(|j| {
            let k = (u64::from(generation) * args.games + j) % n;
            let mut game = positions[k as usize].game(&args.game.start_config(k));
            game.set_double_killscreen(args.game.double_killscreen);
            game
        })
        .collect()
}

/// The games of one generation, each played with the start weights up to the fork level (see
/// [`fork_level`]); every candidate goes on from there, so the shared part is played once.
fn prefixes(
    args: &TuneArgs,
    start: &Weights,
    fork: Option<u8>,
    seed: u64,
    stop: &AtomicBool,
) -> Option<Vec<Game>> {
    let mut game_opts = args.game.clone();
    game_opts.seed = seed;
    let cfg = args.ai.config_capped(args.line_cap).ok()?;
    (0..args.games)
        .into_par_iter()
        .map(|i| {
            let game = game_opts.start_game(i);
            match fork {
                None => Some(game),
                Some(level) => {
                    let mut ai = Ai::new(AiConfig {
                        weights: start.clone(),
                        ..cfg.clone()
                    });
                    play_from(game, &mut ai, args.line_cap, Some(level), stop)
                }
            }
        })
        .collect()
}

/// A game's fitness: its score, less `--topout-cost` when it topped out before the line cap.
fn game_fitness(end: &Game, topout_cost: f64) -> f64 {
    let score = end.score_uncapped as f64;
    if end.game_over() {
        score - topout_cost
    } else {
        score
    }
}

/// A candidate's mean fitness (see [`game_fitness`]) and lines over the generation's games.
fn fitness(args: &TuneArgs, w: &Weights, games: &[Game], stop: &AtomicBool) -> Option<(f64, f64)> {
    let mut cfg = args.ai.config_capped(args.line_cap).ok()?;
    cfg.weights = w.clone();
    let results: Option<Vec<(f64, f64)>> = games
        .par_iter()
        .map(|g| {
            let mut ai = Ai::new(cfg.clone());
            // From a saved position, the points scored from there on.
            let from = if args.continue_from.is_some() {
                g.score_uncapped as f64
            } else {
                0.0
            };
            play_from(*g, &mut ai, args.line_cap, None, stop).map(|end| {
                (
                    game_fitness(&end, args.topout_cost) - from,
                    end.lines_value() as f64,
                )
            })
        })
        .collect();
    results.map(|v| {
        let n = v.len() as f64;
        (
            v.iter().map(|x| x.0).sum::<f64>() / n,
            v.iter().map(|x| x.1).sum::<f64>() / n,
        )
    })
}

fn write_atomic(path: &std::path::Path, text: &str) -> anyhow::Result<()> {
    nestris_session::replayfile::write_atomic(path, text.as_bytes())
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
    if !(0.0..=1e9).contains(&args.topout_cost) {
        bail!(
            "--topout-cost {} is out of range (0..=1000000000 points)",
            args.topout_cost
        );
    }
    crate::options::check_writable("--out", &args.out)?;
    crate::options::check_writable("--state", &args.state)?;
    let start = args.ai.config()?.weights;
    let positions = match &args.continue_from {
        Some(dir) => {
            let p = crate::bench::saved_positions(dir)?;
            if (p.len() as u64) < args.games {
                bail!(
                    "--continue: {} holds {} positions, fewer than --games {}",
                    dir.display(),
                    p.len(),
                    args.games
                );
            }
            p
        }
        None => Vec::new(),
    };
    let mut context = format!(
        "games {} line_cap {} seed {} level {} type {:?} height {} double_killscreen {} hz {} reaction {} deep {}x{} blind {}x{}",
        args.games,
        args.line_cap,
        args.game.seed,
        args.game.level(),
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
    if args.ai.fourth_ply_label() != "off" {
        // Only when on, so that state files made before the fourth ply resume with
        // `--fourth-ply 0` (the search they were made with).
        context.push_str(&format!(" fourth_ply {}", args.ai.fourth_ply_label()));
    }
    if args.ai.pushdown {
        // Only when on (the default since row 29), so that state files made before it
        // resume with `--pushdown false` (the inputs they were played with).
        context.push_str(" pushdown");
    }
    if let Some(cap) = args.ai.ai_line_cap {
        // Only when given, so that state files made before the option still resume.
        context.push_str(&format!(" ai_line_cap {cap}"));
    }
    if args.topout_cost != 0.0 {
        // Only when set, so that state files made before the option still resume.
        context.push_str(&format!(" topout_cost {}", args.topout_cost));
    }
    let playouts = args.ai.playouts_label();
    if playouts != default_playouts_label() {
        // Only when they differ from the defaults, so that state files made before the
        // playouts were part of the context still resume (those were made with the defaults
        // of their time); a run resumed with other playouts is refused.
        context.push_str(&format!(" playouts {playouts}"));
    }
    if let Some(dir) = &args.continue_from {
        context.push_str(&format!(
            " continue {} ({} positions)",
            dir.display(),
            positions.len()
        ));
    }
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
    let start = cem.start()?;
    let fork = if positions.is_empty() {
        fork_level(&start, &cem.slots, args.game.level().min(255) as u8)
    } else {
        None
    };
    if let Some(level) = fork {
        eprintln!(
            "the tuned numbers act from level {}: each game is played once to level {level} with the start weights, and every candidate goes on from there",
            level + 2
        );
    }
    while cem.generation < args.generations {
        let g = cem.generation;
        let seed = args.game.seed.wrapping_add(g as u64);
        let games = if positions.is_empty() {
            let Some(games) = prefixes(args, &start, fork, seed, &stop) else {
                return Ok(ExitCode::from(130));
            };
            games
        } else {
            continued(args, &positions, g)
        };
        for k in cem.pending() {
            let cand = cem.candidate(k)?;
            let Some((f, lines)) = fitness(args, &cand, &games, &stop) else {
                return Ok(ExitCode::from(130));
            };
            eprintln!(
                "generation {g:3} candidate {k:3}: fitness {f:10.0}, lines {lines:5.1}  ({:.0} s)",
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
    // Also when the state was already finished (nothing ran): the result is always written.
    let name = format!("cem seed {} generation {}", cem.seed, cem.generation);
    write_atomic(&args.out, &cem.mean_weights(&name)?.to_toml())?;
    println!(
        "{} generations; the distribution's mean is in {}",
        cem.generation,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(extra: &[&str]) -> TuneArgs {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            tune: TuneArgs,
        }
        let mut argv = vec!["tune"];
        argv.extend_from_slice(extra);
        Cli::parse_from(argv).tune
    }

    #[test]
    fn the_fork_is_two_levels_before_the_first_tuned_table() {
        let w = Weights::default();
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(fork_level(&w, &s(&["killscreen.burns"]), 18), Some(27));
        assert_eq!(
            fork_level(&w, &s(&["double_killscreen.burns", "killscreen.holes"]), 18),
            Some(27)
        );
        assert_eq!(
            fork_level(&w, &s(&["double_killscreen.burns"]), 18),
            Some(37)
        );
        assert_eq!(fork_level(&w, &s(&["killscreen.burns", "burns"]), 18), None);
        assert_eq!(fork_level(&w, &s(&["killscreen.burns"]), 27), None);
    }

    #[test]
    fn a_topout_before_the_cap_costs_the_topout_cost() {
        let a = args(&["--level", "29", "--games", "1"]);
        let mut game = a.game.start_game(0);
        assert_eq!(game_fitness(&game, 1000.0), 0.0);
        // No input at level 29: the pieces stack in the middle until the game is over.
        for _ in 0..20_000 {
            if game.game_over() {
                break;
            }
            game.step(0);
        }
        assert!(game.game_over());
        let score = game.score_uncapped as f64;
        assert_eq!(game_fitness(&game, 1000.0), score - 1000.0);
        assert_eq!(game_fitness(&game, 0.0), score);
    }

    #[test]
    fn a_topout_cost_out_of_range_is_refused() {
        for bad in ["-1", "2e9", "NaN"] {
            let opt = format!("--topout-cost={bad}");
            let a = args(&[&opt, "--games", "1"]);
            let err = run(&a).unwrap_err().to_string();
            assert!(err.contains("--topout-cost"), "{err}");
        }
    }

    #[test]
    fn a_game_resumed_at_the_fork_is_the_game_played_through() {
        // Level 0: the first level comes after 10 lines. A fresh AI taking over between two
        // pieces plays on exactly as the first one would have.
        let a = args(&["--level", "0", "--games", "2", "--seed", "41"]);
        let stop = AtomicBool::new(false);
        let w = Weights::default();
        let whole = prefixes(&a, &w, None, 41, &stop).unwrap();
        let forked = prefixes(&a, &w, Some(1), 41, &stop).unwrap();
        for (g, f) in whole.iter().zip(&forked) {
            assert!(f.level >= 1 && !f.piece_active());
            let cfg = AiConfig {
                weights: w.clone(),
                ..a.ai.config().unwrap()
            };
            let end_whole = play_from(*g, &mut Ai::new(cfg.clone()), 20, None, &stop).unwrap();
            let end_forked = play_from(*f, &mut Ai::new(cfg), 20, None, &stop).unwrap();
            assert_eq!(end_whole.lines_value(), end_forked.lines_value());
            assert_eq!(end_whole.score_uncapped, end_forked.score_uncapped);
            assert_eq!(end_whole.frame_counter, end_forked.frame_counter);
            assert!(end_whole.lines_value() >= 20);
        }
    }
}
