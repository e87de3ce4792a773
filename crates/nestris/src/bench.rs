//! `nestris bench`: headless AI games on all cores, reported the way the field reports bots.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::bail;
use nestris_ai::Ai;
use nestris_engine::{Ending, GameType};
use rayon::prelude::*;

use crate::departure::Departure;
use crate::gamecsv::{parse_bool, parse_num, CsvRow, DecisionTimes, GamesCsv};
use crate::options::{AiOptions, GameOptions, RulesOptions, TypeArg};

/// Options of `nestris bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// A whole format at once. `field`: the field's AI format (level 18, 30 Hz, 18-frame
    /// reaction, double killscreen from level 39 — a departure from the original — and the
    /// game stopped at 430 lines); `vanilla`: the same on the original game (no double
    /// killscreen). Options that the format sets may not be given with it.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Stop a game when it reaches this many lines (the field's format uses 430); 0 = no cap.
    #[arg(long, default_value_t = 430)]
    pub line_cap: u32,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also write one line per game (CSV) to this file, as games finish: everything the
    /// report needs (scores, lines, levels, Tetrises, decision times as a histogram), after a
    /// line recording the options.
    #[arg(long, value_name = "FILE")]
    pub games_csv: Option<std::path::PathBuf>,
    /// With --games-csv: resume an interrupted run. The games already in FILE (written by a
    /// run with the same options, checked) are not played again, an incomplete last line is
    /// dropped, the other games are played and appended, and the report covers all games.
    #[arg(long, requires = "games_csv")]
    pub resume: bool,
    #[command(flatten)]
    pub game: GameOptions,
    #[command(flatten)]
    pub ai: AiOptions,
    #[command(flatten)]
    pub rules: RulesOptions,
}

/// A benchmark format (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The field's AI format: level 18, 30 Hz, 18-frame reaction, double killscreen from
    /// level 39 (a departure from the original), 430-line cap.
    Field,
    /// The same on the original game: no double killscreen.
    Vanilla,
}

impl Format {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Format::Field => "field",
            Format::Vanilla => "vanilla",
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, Default)]
pub struct GameResult {
    /// Game index.
    pub index: u64,
    /// Exact score (no cap).
    pub score: u64,
    /// The game's own (capped) score.
    pub capped_score: u64,
    /// Lines.
    pub lines: u32,
    /// Final level.
    pub level: u8,
    /// Pieces placed.
    pub pieces: u32,
    /// Frames played.
    pub frames: u64,
    /// Four-line clears.
    pub tetrises: u32,
    /// Lines cleared by four-line clears.
    pub tetris_lines: u32,
    /// Uncapped score when level 19, 29 and 39 were first reached (final score if never).
    pub before: [u64; 3],
    /// B-type: goal reached.
    pub cleared: bool,
    /// Decision times.
    pub decisions: DecisionTimes,
}

impl CsvRow for GameResult {
    const COLUMNS: &'static str = "game,score,capped_score,lines,level,pieces,frames,tetrises,tetris_lines,before_19,before_29,before_39,cleared,decisions,decision_ns,decision_hist";

    fn index(&self) -> u64 {
        self.index
    }

    fn score(&self) -> f64 {
        self.score as f64
    }

    fn to_line(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            self.index,
            self.score,
            self.capped_score,
            self.lines,
            self.level,
            self.pieces,
            self.frames,
            self.tetrises,
            self.tetris_lines,
            self.before[0],
            self.before[1],
            self.before[2],
            self.cleared,
            self.decisions.csv_fields()
        )
    }

    fn parse(f: &[&str]) -> Result<GameResult, String> {
        Ok(GameResult {
            index: parse_num(f[0], "game")?,
            score: parse_num(f[1], "score")?,
            capped_score: parse_num(f[2], "capped_score")?,
            lines: parse_num(f[3], "lines")?,
            level: parse_num(f[4], "level")?,
            pieces: parse_num(f[5], "pieces")?,
            frames: parse_num(f[6], "frames")?,
            tetrises: parse_num(f[7], "tetrises")?,
            tetris_lines: parse_num(f[8], "tetris_lines")?,
            before: [
                parse_num(f[9], "before_19")?,
                parse_num(f[10], "before_29")?,
                parse_num(f[11], "before_39")?,
            ],
            cleared: parse_bool(f[12], "cleared")?,
            decisions: DecisionTimes::parse(f[13], f[14], f[15])?,
        })
    }
}

/// Plays one game to its end (or the line cap). With `departure`, that randomizer replaces
/// the game's picker (a departure from the original, see [`Departure`]).
pub fn play_game(
    game_opts: &GameOptions,
    ai: &mut Ai,
    index: u64,
    line_cap: u32,
    stop: &AtomicBool,
    departure: Option<nestris_classic::AnyRandomizer>,
) -> Option<GameResult> {
    let mut game = game_opts.start_game(index);
    let mut departure = departure.map(|r| Departure::new(r, &game));
    let mut r = GameResult {
        index,
        ..GameResult::default()
    };
    let mut seen: [bool; 3] = [false; 3];
    let mut last_lines = if game_opts.game_type == TypeArg::B {
        25
    } else {
        0
    };
    let mut decisions = ai.decision_count();
    let mut spawn_count = None;
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let input = ai.next_input(&game);
        if ai.decision_count() != decisions {
            decisions = ai.decision_count();
            if let Some(d) = ai.last_decision() {
                r.decisions.record(d.elapsed);
            }
        }
        game.step(input);
        if let Some(d) = &mut departure {
            d.after_step(&mut game);
        }
        r.frames += 1;
        if game.piece_active() && spawn_count != Some(game.spawn_count) {
            spawn_count = Some(game.spawn_count);
            r.pieces += 1;
        }
        let lines = game.lines_value();
        // B-type counts down from 25 (and stops at 0).
        let cleared = lines.abs_diff(last_lines);
        if cleared >= 4 {
            r.tetrises += 1;
            r.tetris_lines += 4;
        }
        last_lines = lines;
        for (i, lv) in [19u8, 29, 39].iter().enumerate() {
            if !seen[i] && game.level >= *lv && game.game_type == GameType::A {
                seen[i] = true;
                r.before[i] = game.score_uncapped;
            }
        }
        let capped = line_cap > 0 && game.game_type == GameType::A && lines >= line_cap;
        if game.game_over() || game.ended() || capped {
            r.cleared = game.ending == Ending::BTypeCleared;
            break;
        }
        if r.frames > 50_000_000 {
            break;
        }
    }
    r.score = game.score_uncapped;
    r.capped_score = game.score_value();
    r.lines = if game.game_type == GameType::B {
        25u32.saturating_sub(game.lines_value())
    } else {
        game.lines_value()
    };
    r.level = game.level;
    for (i, s) in seen.iter().enumerate() {
        if !s {
            r.before[i] = r.score;
        }
    }
    Some(r)
}

/// The `p`-th percentile of sorted values (linear interpolation between ranks).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = p / 100.0 * (sorted.len() - 1) as f64;
    let lo = rank.floor() as usize;
    let hi = rank.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo as f64)
}

/// The report over finished games.
pub fn report(results: &[GameResult], args: &BenchArgs, wall: Duration) -> serde_json::Value {
    let n = results.len().max(1) as f64;
    let mut scores: Vec<f64> = results.iter().map(|r| r.score as f64).collect();
    scores.sort_by(f64::total_cmp);
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n;
    let mut lines: Vec<f64> = results.iter().map(|r| r.lines as f64).collect();
    lines.sort_by(f64::total_cmp);
    let mut pct = serde_json::Map::new();
    for p in [1, 5, 10, 25, 50, 75, 90, 95, 99] {
        pct.insert(
            p.to_string(),
            serde_json::json!(percentile(&scores, p as f64).round()),
        );
    }
    let below = |cap: u32| results.iter().filter(|r| r.lines < cap).count() as f64 / n;
    let before = |i: usize| results.iter().map(|r| r.before[i] as f64).sum::<f64>() / n;
    let total_lines: u64 = results.iter().map(|r| r.lines as u64).sum();
    let tetris_lines: u64 = results.iter().map(|r| r.tetris_lines as u64).sum();
    let mut times = DecisionTimes::default();
    for r in results {
        times.merge(&r.decisions);
    }
    let busy = times.total_seconds();
    let b_runs = results
        .iter()
        .filter(|_| args.game.game_type == TypeArg::B)
        .count();
    let b_ok = results.iter().filter(|r| r.cleared).count();
    let pieces_b: f64 = if b_ok > 0 {
        results
            .iter()
            .filter(|r| r.cleared)
            .map(|r| r.pieces as f64)
            .sum::<f64>()
            / b_ok as f64
    } else {
        0.0
    };
    let mut v = serde_json::json!({
        "games": results.len(),
        "level": args.game.level,
        "type": if args.game.game_type == TypeArg::A { "a" } else { "b" },
        "height": args.game.height,
        "hz": args.ai.hz,
        "reaction": args.ai.reaction,
        "ai": args.ai.label(),
        "line_cap": args.line_cap,
        "format": args.format_name(),
        "double_killscreen": args.game.double_killscreen,
        "seed": args.game.seed,
        "deep_locks": args.ai.deep_locks,
        "deep_next": args.ai.deep_next,
        "blind_locks": args.ai.blind_locks,
        "blind_next": args.ai.blind_next,
        "mean_score": mean.round(),
        "std_score": var.sqrt().round(),
        // Standard error of the mean (sample standard deviation / sqrt(n)).
        "sem_score": if results.len() > 1 {
            (var * n / (n - 1.0)).sqrt() / n.sqrt()
        } else {
            0.0
        }
        .round(),
        "score_percentiles": pct,
        "mean_lines": lines.iter().sum::<f64>() / n,
        "median_lines": percentile(&lines, 50.0),
        "below_130": below(130),
        "below_230": below(230),
        "below_330": below(330),
        "mean_score_before_19": before(0).round(),
        "mean_score_before_29": before(1).round(),
        "mean_score_before_39": before(2).round(),
        "tetris_rate": if total_lines > 0 { tetris_lines as f64 / total_lines as f64 } else { 0.0 },
        "btype_success_rate": if b_runs > 0 { Some(b_ok as f64 / b_runs as f64) } else { None },
        "btype_mean_pieces": if b_ok > 0 { Some(pieces_b) } else { None },
        "decisions": times.count,
        "decisions_per_second": if busy > 0.0 { times.count as f64 / busy } else { 0.0 },
        "decision_ms_median": times.percentile_ms(50.0),
        "decision_ms_p99": times.percentile_ms(99.0),
        "wall_seconds": wall.as_secs_f64(),
    });
    if args.rules.is_departure() {
        // Only for a departure: the original game's report keeps its keys.
        v["rules"] = args.rules.rules_name().into();
        v["randomizer"] = args.rules.randomizer_spec().to_string().into();
        v["departure"] = true.into();
    }
    v
}

fn print_table(v: &serde_json::Value) {
    let f = |k: &str| v[k].as_f64().unwrap_or(0.0);
    println!("games              {}", v["games"]);
    println!(
        "format             {}: level {} type {} hz {} reaction {} line cap {}{} ({})",
        v["format"].as_str().unwrap_or("custom"),
        v["level"],
        v["type"].as_str().unwrap_or(""),
        v["hz"].as_str().unwrap_or(""),
        v["reaction"],
        v["line_cap"],
        if v["double_killscreen"].as_bool() == Some(true) {
            ", double killscreen from level 39 (departure from the original)"
        } else {
            ""
        },
        v["ai"].as_str().unwrap_or("")
    );
    if v["departure"].as_bool() == Some(true) {
        println!(
            "randomizer         {} (departure from the original)",
            v["randomizer"].as_str().unwrap_or("")
        );
    }
    print_score_lines(v, "");
    println!(
        "ended below        130: {:.1}%  230: {:.1}%  330: {:.1}%",
        100.0 * f("below_130"),
        100.0 * f("below_230"),
        100.0 * f("below_330")
    );
    println!(
        "mean score before  19: {:.0}  29: {:.0}  39: {:.0}",
        f("mean_score_before_19"),
        f("mean_score_before_29"),
        f("mean_score_before_39")
    );
    println!("tetris rate        {:.1}%", 100.0 * f("tetris_rate"));
    if let Some(b) = v["btype_success_rate"].as_f64() {
        println!(
            "B-type success     {:.1}%  (mean pieces when cleared {:.1})",
            100.0 * b,
            v["btype_mean_pieces"].as_f64().unwrap_or(0.0)
        );
    }
    println!(
        "decisions          {} at {:.0}/s per core; median {:.2} ms, p99 {:.2} ms",
        v["decisions"],
        f("decisions_per_second"),
        f("decision_ms_median"),
        f("decision_ms_p99")
    );
    print_wall(v);
}

/// The report's wall-time row, with the games taken from an earlier run (shared with the
/// classic rule sets' table).
pub fn print_wall(v: &serde_json::Value) {
    let wall = v["wall_seconds"].as_f64().unwrap_or(0.0);
    match v["games_resumed"].as_u64() {
        Some(n) if n > 0 => println!(
            "wall time          {wall:.1} s (this run; {n} games resumed from {})",
            v["games_csv"].as_str().unwrap_or("the CSV")
        ),
        _ => println!("wall time          {wall:.1} s"),
    }
}

/// The report's score and lines rows (shared with the classic rule sets' table); `note` goes
/// after the standard deviation.
pub fn print_score_lines(v: &serde_json::Value, note: &str) {
    let f = |k: &str| v[k].as_f64().unwrap_or(0.0);
    println!(
        "mean score         {:.0} ± {:.0} (standard error; std {:.0}{note})",
        f("mean_score"),
        f("sem_score"),
        f("std_score")
    );
    let p = &v["score_percentiles"];
    println!(
        "score percentiles  1%: {}  5%: {}  10%: {}  25%: {}  50%: {}  75%: {}  90%: {}  95%: {}  99%: {}",
        p["1"], p["5"], p["10"], p["25"], p["50"], p["75"], p["90"], p["95"], p["99"]
    );
    println!(
        "lines              mean {:.1}  median {:.1}",
        f("mean_lines"),
        f("median_lines")
    );
}

impl BenchArgs {
    /// Applies `--format`: the options it fixes must be left at their defaults (which are the
    /// field's values) or match; it switches the double killscreen on (`field`) or checks that
    /// it is off (`vanilla`).
    pub fn resolve_format(&mut self) -> anyhow::Result<()> {
        let Some(format) = self.format else {
            return Ok(());
        };
        let name = format.name();
        if self.rules.rules != crate::options::RulesArg::Nes || self.rules.is_departure() {
            bail!("--format {name} is for the NES rules and the game's own picker");
        }
        let fixed = [
            ("--level", self.game.level == 18, "18"),
            ("--type", self.game.game_type == TypeArg::A, "a"),
            (
                "--hz",
                self.ai.hz.trim() == "30" || self.ai.hz.trim() == "X.",
                "30",
            ),
            ("--reaction", self.ai.reaction == 18, "18"),
            ("--line-cap", self.line_cap == 430, "430"),
        ];
        for (opt, ok, value) in fixed {
            if !ok {
                bail!("--format {name} fixes {opt} {value}; leave {opt} out or drop --format");
            }
        }
        match format {
            Format::Field => self.game.double_killscreen = true,
            Format::Vanilla if self.game.double_killscreen => {
                bail!("--format vanilla is the original game: it cannot take --double-killscreen (use --format field)")
            }
            Format::Vanilla => {}
        }
        Ok(())
    }

    /// The format's name in reports: `field`, `vanilla` or `custom`.
    pub fn format_name(&self) -> &'static str {
        self.format.map_or("custom", Format::name)
    }

    /// The options that decide the games, as `--games-csv` records them (a resumed run must
    /// have the same). `--games`, `--threads` and `--json` are not among them: a resumed run
    /// may ask for more games.
    pub fn csv_options(&self) -> anyhow::Result<serde_json::Value> {
        let mut v = serde_json::json!({
            "seed": self.game.seed,
            "level": self.game.level,
            "type": if self.game.game_type == TypeArg::A { "a" } else { "b" },
            "height": self.game.height,
            "format": self.format_name(),
            "hz": self.ai.hz,
            "reaction": self.ai.reaction,
            "line_cap": self.line_cap,
            "ai": self.ai.label(),
            "double_killscreen": self.game.double_killscreen,
            "deep_locks": self.ai.deep_locks,
            "deep_next": self.ai.deep_next,
            "blind_locks": self.ai.blind_locks,
            "blind_next": self.ai.blind_next,
            "rules": self.rules.rules_name(),
            "randomizer": self.rules.randomizer_spec().to_string(),
            "sega_next_game": format!("{:?}", self.rules.sega_next_game).to_lowercase(),
        });
        if let Some(path) = &self.ai.weights {
            // The same file name with other weights gives other games.
            let bytes = crate::readlimit::read(path, crate::readlimit::max::SMALL)
                .map_err(|e| anyhow::anyhow!("cannot read weights file {}: {e}", path.display()))?;
            v["weights_crc32"] = format!("{:08x}", crc32fast::hash(&bytes)).into();
        }
        Ok(v)
    }
}

/// Runs the benchmark.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let mut args = args.clone();
    args.resolve_format()?;
    let args = &args;
    args.game.check_rules(&args.rules)?;
    if args.rules.rules != crate::options::RulesArg::Nes {
        return crate::classic_run::bench_classic(args);
    }
    args.game.validate()?;
    let cfg = args.ai.config()?;
    // The randomizer of each game when it replaces the game's picker (a departure).
    let departures: Option<Vec<nestris_classic::AnyRandomizer>> = args
        .rules
        .game_randomizers(args.game.seed)?
        .map(|mut g| g.take(args.games));
    let run = run_games(args, |i, stop| {
        let mut ai = Ai::new(cfg.clone());
        let departure = departures.as_ref().map(|d| d[i as usize].clone());
        play_game(&args.game, &mut ai, i, args.line_cap, stop, departure)
    })?;
    let mut v = report(&run.results, args, run.wall);
    run.annotate(&mut v, args);
    emit(&v, args.json, print_table, run.interrupted)
}

/// Prints a report as JSON or as a table; exit 130 when the run was interrupted.
pub fn emit(
    v: &serde_json::Value,
    json: bool,
    table: fn(&serde_json::Value),
    interrupted: bool,
) -> anyhow::Result<ExitCode> {
    if json {
        println!("{}", serde_json::to_string_pretty(v)?);
    } else {
        table(v);
    }
    Ok(if interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// What [`run_games`] played.
#[derive(Debug)]
pub struct GamesRun<T> {
    /// Every game's result in game order: those resumed from `--games-csv` and those played.
    pub results: Vec<T>,
    /// Games taken from the CSV of an earlier run (`--resume`).
    pub resumed: usize,
    /// Whether Ctrl-C stopped the run.
    pub interrupted: bool,
    /// Wall time of this run.
    pub wall: Duration,
}

impl<T> GamesRun<T> {
    /// Adds the resumed-games keys to a report (only with `--resume`).
    pub fn annotate(&self, v: &mut serde_json::Value, args: &BenchArgs) {
        if args.resume {
            v["games_resumed"] = self.resumed.into();
            if let Some(p) = &args.games_csv {
                v["games_csv"] = p.display().to_string().into();
            }
        }
    }
}

/// Plays games `0..args.games` on `args.threads` cores with a progress bar (on a terminal;
/// otherwise a plain progress line on stderr every 5%). `play(i, stop)` plays game `i`;
/// with `--games-csv` each game's line is written as it ends, and with `--resume` the games
/// already in the file are taken from it instead of played. Ctrl-C stops the games in
/// progress and keeps those that finished; a second Ctrl-C quits at once.
pub fn run_games<T: CsvRow + Send>(
    args: &BenchArgs,
    play: impl Fn(u64, &AtomicBool) -> Option<T> + Sync,
) -> anyhow::Result<GamesRun<T>> {
    crate::options::check_games_at_most(args.games, crate::options::MAX_BENCH_GAMES)?;
    let start = Instant::now();
    crate::options::check_threads(args.threads)?;
    if args.resume && args.games_csv.is_none() {
        bail!("--resume needs --games-csv FILE (the file of the run to resume)");
    }
    // The CSV: created, or resumed with the games it holds.
    let mut resumed: Vec<T> = Vec::new();
    let csv = match &args.games_csv {
        Some(p) => {
            let options = args.csv_options()?;
            let csv = if args.resume {
                let r = GamesCsv::resume::<T>(p, &options)?;
                if r.dropped_partial {
                    eprintln!(
                        "resume: dropped the incomplete last line of {} (that game is played again)",
                        p.display()
                    );
                }
                resumed = r.games;
                r.csv
            } else {
                GamesCsv::create::<T>(p, &options)?
            };
            Some(Mutex::new(csv))
        }
        None => None,
    };
    // Games of the file beyond --games stay in it but are not this report's.
    resumed.retain(|r| r.index() < args.games);
    let have: std::collections::HashSet<u64> = resumed.iter().map(CsvRow::index).collect();
    let todo: Vec<u64> = (0..args.games).filter(|i| !have.contains(i)).collect();
    if args.resume {
        eprintln!(
            "resume: {} of {} games already in {}, {} to play",
            resumed.len(),
            args.games,
            args.games_csv
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string()),
            todo.len()
        );
    }
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("\ninterrupted: finishing the report over the games completed so far (Ctrl-C again to quit now)");
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let terminal = std::io::stderr().is_terminal();
    let bar = if terminal {
        let b = indicatif::ProgressBar::new(args.games);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})  {msg}",
            )
            .expect("valid template"),
        );
        b.set_position(resumed.len() as u64);
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let csv_error: Mutex<Option<String>> = Mutex::new(None);
    // Games done (resumed ones included) and the sum of their scores, under one lock.
    let progress = Mutex::new((
        resumed.len() as u64,
        resumed.iter().map(CsvRow::score).sum::<f64>(),
    ));
    let mut results: Vec<T> = pool.install(|| {
        todo.par_iter()
            .filter_map(|&i| {
                let r = play(i, &stop)?;
                if let Some(f) = &csv {
                    if let Err(e) = f.lock().expect("csv lock").append(&r.to_line()) {
                        csv_error
                            .lock()
                            .expect("error lock")
                            .get_or_insert(format!("{e:#}"));
                    }
                }
                let mut p = progress.lock().expect("progress lock");
                p.0 += 1;
                p.1 += r.score();
                let (done, sum) = *p;
                let mean = sum / done as f64;
                bar.set_message(format!("mean score {mean:.0}"));
                bar.inc(1);
                // Without a terminal: a plain line every 5% of the games.
                if !terminal && done * 20 / args.games > (done - 1) * 20 / args.games {
                    eprintln!(
                        "bench: {done}/{} games ({:.0}%), mean score {mean:.0}, {:.0} s",
                        args.games,
                        100.0 * done as f64 / args.games as f64,
                        start.elapsed().as_secs_f64()
                    );
                }
                Some(r)
            })
            .collect()
    });
    bar.finish_and_clear();
    if let Some(e) = csv_error.into_inner().expect("error lock") {
        eprintln!("warning: {e}");
    }
    let n_resumed = resumed.len();
    results.extend(resumed);
    if results.is_empty() {
        bail!("no game finished");
    }
    results.sort_by_key(CsvRow::index);
    Ok(GamesRun {
        results,
        resumed: n_resumed,
        interrupted: stop.load(Ordering::Relaxed),
        wall: start.elapsed(),
    })
}
