//! `nestris bench`: headless AI games on all cores, reported the way the field reports bots.
//! The games, the runner and the report are `nestris_session::bench`'s; this module reads
//! the options, shows the progress and prints the table.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{bail, Context};
use nestris_ai::{Ai, Evaluator};
use nestris_session::bench::{self, Event, GameResult, Limits, ReportSetup, RunSpec};
use nestris_session::boards::BoardRecorder;
use nestris_session::classic::{ClassicAi, ClassicRow, ClassicRun};
use nestris_session::gamecsv::CsvRow;
use nestris_session::nes::NesAi;
use nestris_session::Rules;

use crate::options::{AiOptions, GameOptions, RulesOptions, TypeArg};

/// Options of `nestris bench`.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Start at game N of the seed's sequence (0-based): the run plays games N to N +
    /// --games - 1, each the very game a run from game 0 plays under that number, and
    /// numbers them so in its CSV, saved positions and recorded boards. `--first-game 318
    /// --games 1` replays game 318 of a 1000-game run alone (with `--record-boards`, to
    /// look at it). A `--resume` keeps the games of FILE in the range. NES rules.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub first_game: u64,
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
    /// Save each game's position at its first spawn once it has `--save-positions-at`
    /// lines (board, current and next piece, level, lines, score) as a file in FOLDER
    /// (`game-000012.txt` for game 12; the folder is made if need be), for `--position
    /// FOLDER` to start games from: phase positions, to play only the part of a game an
    /// experiment changes. A game that `--line-cap` stops at that count plays on to the spawn
    /// (its counts stay those at the cap). NES rules, A-type.
    #[arg(long, value_name = "FOLDER", requires = "save_positions_at")]
    pub save_positions: Option<std::path::PathBuf>,
    /// The line count of `--save-positions` (1..=9999).
    #[arg(long, value_name = "LINES", requires = "save_positions")]
    pub save_positions_at: Option<u32>,
    /// Also write every board the AI faced at a spawn to FILE (CSV: the game, the piece's
    /// number, level, lines, score, the current and next piece, the board as 20 rows of 3
    /// hex digits), and a last line per game saying how it ended: a self-play dataset, to fit
    /// evaluations to what followed each board. Each game's lines are written when it
    /// finishes. NES rules; not with --resume (FILE is started afresh).
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub record_boards: Option<std::path::PathBuf>,
    /// Go on with the games a `--save-positions FOLDER` run stopped at its line cap, each
    /// from its saved state (the generator and timers included), so that game i here is game
    /// i of that run played on: with the same AI, exactly the game a run without the cap
    /// plays. The report covers whole games: the counts of the saved part (FOLDER's
    /// results.csv) are added. For experiments on late phases: change the AI from there and
    /// compare whole games, playing only what differs. With `--save-positions` (at a later
    /// line count), the games are saved again there with their whole counts: a chain of
    /// phase positions (at 230 lines, then from there at 330). Games dealt by another
    /// randomizer (a departure, such as `nes-seeded`) continue with the saving run's
    /// `--randomizer` and `--seed`: their pieces are dealt again from the start.
    #[arg(long = "continue", value_name = "FOLDER", conflicts_with_all = ["position", "level"])]
    pub continue_from: Option<std::path::PathBuf>,
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
            ("--level", self.game.level() == 18, "18"),
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
            "level": self.game.level(),
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
            "fourth_ply": self.ai.fourth_ply_label(),
            "playouts": self.ai.playouts_label(),
            "rules": self.rules.rules_name(),
            "randomizer": self.rules.randomizer_spec().to_string(),
            "sega_next_game": format!("{:?}", self.rules.sega_next_game).to_lowercase(),
        });
        if let Some(cap) = self.ai.ai_line_cap {
            // Only when given, so that CSVs made before the option still resume.
            v["ai_line_cap"] = cap.into();
        }
        if self.ai.blind_commit_margin != nestris_ai::AiConfig::default().blind_commit_margin {
            // Likewise only when not the default.
            v["blind_commit_margin"] = self.ai.blind_commit_margin.into();
        }
        if self.ai.pushdown {
            // Only when on, so that CSVs made before the option still resume (and do not
            // resume with it).
            v["pushdown"] = true.into();
        }
        if let Some(rows) = self.ai.blind_playouts_above {
            v["blind_playouts_above"] = rows.into();
        }
        if let Some(crc) = self.game.position_crc32()? {
            // The same file (or folder) name with other positions gives other games.
            let path = self.game.position.as_ref().expect("a position");
            v["position"] = path.display().to_string().into();
            v["position_crc32"] = format!("{crc:08x}").into();
        }
        if let Some(dir) = &self.continue_from {
            let results = dir.join(RESULTS_CSV);
            let bytes = crate::readlimit::read(&results, crate::readlimit::max::LARGE)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", results.display()))?;
            v["continue"] = dir.display().to_string().into();
            // The games' lines, not the options line above them: a chain resumed from its
            // first stage rewrites that line in each later folder (`carry_over_grown_folder`).
            v["continue_crc32"] =
                format!("{:08x}", crc32fast::hash(after_first_line(&bytes))).into();
        }
        if let Some(path) = &self.ai.weights {
            // The same file name with other weights gives other games.
            let bytes = crate::readlimit::read(path, crate::readlimit::max::SMALL)
                .map_err(|e| anyhow::anyhow!("cannot read weights file {}: {e}", path.display()))?;
            v["weights_crc32"] = format!("{:08x}", crc32fast::hash(&bytes)).into();
        }
        Ok(v)
    }

    /// What the report says about the run beside its games.
    pub fn setup(&self) -> ReportSetup {
        ReportSetup {
            rules: self.rules.rules(),
            randomizer: self.rules.randomizer_spec().to_string(),
            departure: self.rules.is_departure(),
            level: self.game.level(),
            b_type: self.game.game_type == TypeArg::B,
            height: self.game.height,
            hz: self.ai.hz.clone(),
            reaction: self.ai.reaction,
            ai: self.ai.label(),
            line_cap: self.line_cap,
            format: self.format_name().to_string(),
            double_killscreen: self.game.double_killscreen,
            seed: self.game.seed,
            first_game: self.first_game,
            widths: [
                self.ai.deep_locks,
                self.ai.deep_next,
                self.ai.blind_locks,
                self.ai.blind_next,
            ],
            fourth_ply: self.ai.fourth_ply_label(),
            playouts: self.ai.playouts_label(),
            pushdown: self.ai.pushdown,
            position: self.game.position.as_ref().map(|p| p.display().to_string()),
            continued_from: self.continue_from.as_ref().map(|p| p.display().to_string()),
            position_departure: self
                .game
                .position()
                .ok()
                .flatten()
                .is_some_and(|p| p.is_departure()),
        }
    }

    /// How to run the games.
    pub fn spec(&self) -> anyhow::Result<RunSpec> {
        Ok(RunSpec {
            first: self.first_game,
            games: self.games,
            threads: self.threads,
            games_csv: self.games_csv.clone(),
            resume: self.resume,
            csv_options: if self.games_csv.is_some() {
                self.csv_options()?
            } else {
                serde_json::Value::Null
            },
        })
    }
}

/// When the games of a run from a `--position` folder go past its last file: game i
/// starts from file i modulo their number, so some positions are played twice. Meant for a
/// bench of speed, easy to miss in a run paired game by game with another; said, not
/// refused.
fn position_folder_wraps(args: &BenchArgs) -> anyhow::Result<Option<String>> {
    let Some(path) = args.game.position.as_ref().filter(|p| p.is_dir()) else {
        return Ok(None);
    };
    let files = args.game.start_points()?.map_or(0, |p| p.len() as u64);
    let last = args.first_game.saturating_add(args.games);
    if files == 0 || last <= files {
        return Ok(None);
    }
    let hint = if args.first_game < files {
        format!("--games {} plays each once", files - args.first_game)
    } else {
        format!("--first-game {} is past its last", args.first_game)
    };
    Ok(Some(format!(
        "--position {} holds {files} positions and this run plays games {}-{}: game i starts from position i mod {files}, so games {files} on play its positions again ({hint})",
        path.display(),
        args.first_game,
        last - 1,
    )))
}

/// Runs the benchmark.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let mut args = args.clone();
    args.resolve_format()?;
    let args = &args;
    args.game.check_rules(&args.rules)?;
    args.game.validate()?;
    crate::options::check_games_at_most(args.games, crate::options::MAX_BENCH_GAMES)?;
    crate::options::check_threads(args.threads)?;
    if let Some(warning) = position_folder_wraps(args)? {
        eprintln!("warning: {warning}");
    }
    // A run that saves its games at the cap to go on with them pauses them there: its AI
    // does not play for that cap.
    let paused = args.save_positions_at == Some(args.line_cap);
    let cfg = args
        .ai
        .config_capped(if paused { 0 } else { args.line_cap })?;
    // The randomizer of each game when it is not the NES picker (a departure for the NES
    // rules; the classic games' own).
    let randomizers: Option<Vec<nestris_classic::AnyRandomizer>> = match args
        .rules
        .game_randomizers(args.game.seed)?
    {
        None => None,
        Some(mut g) => {
            if !g.skip(args.first_game) {
                // Sega and Bloxeed chain a game's seed to the game before it.
                bail!("--first-game is not for the {} randomizer, whose games each take their seed from the game before", args.rules.randomizer_spec());
            }
            Some(g.take(args.games))
        }
    };
    if let (true, Some(dir)) = (args.resume, &args.continue_from) {
        // Before either file is resumed: a folder grown since (its saving run resumed for
        // more games) keeps the games already played here.
        let now = args.csv_options()?;
        let mut files: Vec<(std::path::PathBuf, serde_json::Value)> = Vec::new();
        if let Some(csv) = &args.games_csv {
            files.push((csv.clone(), now.clone()));
        }
        if let (Some(saved), Some(at)) = (&args.save_positions, args.save_positions_at) {
            files.push((saved.join(RESULTS_CSV), saved_options(now.clone(), at)));
        }
        let folder = dir.join(RESULTS_CSV);
        let results = crate::readlimit::read(&folder, crate::readlimit::max::LARGE)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", folder.display()))?;
        for (csv, options) in &files {
            if let Some(lines) = carry_over_grown_folder(csv, options, &results)? {
                eprintln!(
                    "resume: {} is not as it was when {} was started (it has grown, its options line was rewritten, or an earlier version recorded it); the games played from its first {lines} lines (unchanged) stand, and the file now records the folder as it is",
                    dir.join(RESULTS_CSV).display(),
                    csv.display()
                );
            }
        }
    }
    let spec = args.spec()?;
    let stop = stop_on_ctrl_c();
    let limits = Limits {
        lines: args.line_cap,
        save_at_lines: args.save_positions_at.unwrap_or(0),
        ..Limits::default()
    };
    let saver = PositionSaver::new(args)?;
    let cont = match &args.continue_from {
        Some(dir) => Some(Continuation::read(dir, args)?),
        None => None,
    };
    let boards = match &args.record_boards {
        Some(path) => {
            if args.rules.rules != crate::options::RulesArg::Nes {
                bail!("--record-boards records NES games (--rules nes)");
            }
            Some(BoardsFile::create(path)?)
        }
        None => None,
    };
    // A continued game is saved with its whole counts, so the new folder can be continued
    // in turn.
    let play_nes = |player: &mut dyn nestris_session::Player<nestris_session::nes::Nes>,
                    i: u64,
                    departure: Option<nestris_classic::AnyRandomizer>,
                    stop: &AtomicBool| match &cont {
        Some(c) => c.play(i, args, departure, player, &limits, stop),
        None => bench::play(args.game.nes(i, departure), player, i, &limits, stop),
    };
    let progress = Progress::new(args.games);
    let setup = args.setup();
    let (v, run_interrupted, table): (_, _, fn(&serde_json::Value)) = match setup.rules {
        Rules::Nes => {
            let run = bench::run_games(
                &spec,
                &stop,
                |i, stop| {
                    let mut ai = NesAi(Ai::new(cfg.clone()));
                    let departure = randomizers
                        .as_ref()
                        .map(|d| d[(i - args.first_game) as usize].clone());
                    let r = match &boards {
                        Some(b) => {
                            let mut rec = BoardRecorder::new(&mut ai, i);
                            let r = play_nes(&mut rec, i, departure, stop)?;
                            b.write(&rec.finish(&r));
                            r
                        }
                        None => play_nes(&mut ai, i, departure, stop)?,
                    };
                    if let Some(s) = &saver {
                        s.save(&r);
                    }
                    Some(r)
                },
                |e| progress.event(e),
            )?;
            progress.finish();
            if let Some(b) = &boards {
                b.finish()?;
            }
            let mut v = bench::report(&run.results, &setup, run.wall);
            run.annotate(&mut v, &spec);
            if let Some(s) = &saver {
                s.annotate(&mut v);
            }
            (v, run.interrupted, print_table)
        }
        rules => {
            let Some(randomizers) = randomizers else {
                bail!("the nes randomizer needs --rules nes");
            };
            let eval = Evaluator::new(cfg.weights.clone());
            let run = bench::run_games(
                &spec,
                &stop,
                |i, stop| {
                    let game = ClassicRun::new(
                        rules,
                        randomizers[(i - args.first_game) as usize].clone(),
                    )?;
                    let mut ai = ClassicAi::new(eval.clone());
                    bench::play(game, &mut ai, i, &limits, stop).map(ClassicRow)
                },
                |e| progress.event(e),
            )?;
            progress.finish();
            let results: Vec<GameResult> = run.results.iter().map(|r| r.0.clone()).collect();
            let mut v = bench::report(&results, &setup, run.wall);
            run.annotate(&mut v, &spec);
            (v, run.interrupted, print_classic_table)
        }
    };
    let code = emit(&v, args.json, table, run_interrupted)?;
    if let Some(s) = &saver {
        s.check()?;
    }
    Ok(code)
}

/// The file of a `--save-positions` folder with every game's line (the games CSV format).
pub const RESULTS_CSV: &str = "results.csv";

/// The options a `--save-positions` folder's results.csv records: the run's `options`
/// ([`BenchArgs::csv_options`]), with the line count it saves at.
fn saved_options(mut options: serde_json::Value, at: u32) -> serde_json::Value {
    options["save_positions_at"] = at.into();
    options
}

/// Everything after the first line of `bytes` (all of it without a newline).
fn after_first_line(bytes: &[u8]) -> &[u8] {
    bytes
        .iter()
        .position(|&b| b == b'\n')
        .map_or(&bytes[..0], |i| &bytes[i + 1..])
}

/// `--resume` of a `--continue` run whose folder has grown since the run began, its saving
/// run resumed for more games (a chain extended from its first stage). The run's CSV `csv`
/// records the folder's results.csv (`results`, as it is now) by the CRC of its games' lines (all but the options
/// line, which the same carrying over rewrites in a chain's later folders; a CSV written
/// before that records the CRC of the whole file). When that CRC is the one of the folder's
/// first lines now (ended by a newline), and every other option is as `now`, the games the
/// run played came from those lines, unchanged (a saving run only appends), so they stand:
/// the CSV's options line is rewritten with `now`'s CRC and the number of those lines is
/// returned. `None` (nothing done) in every other case: no such file, the same CRC, other
/// options, or a folder whose games' lines changed, which the resume then refuses as before.
fn carry_over_grown_folder(
    csv: &std::path::Path,
    now: &serde_json::Value,
    results: &[u8],
) -> anyhow::Result<Option<usize>> {
    use nestris_session::gamecsv::OPTIONS_PREFIX;
    let Ok(text) = crate::readlimit::read_to_string(csv, crate::readlimit::max::LARGE) else {
        return Ok(None);
    };
    let Some((first, rest)) = text.split_once('\n') else {
        return Ok(None);
    };
    let Some(Ok(mut recorded)) = first
        .strip_prefix(OPTIONS_PREFIX)
        .map(serde_json::from_str::<serde_json::Value>)
    else {
        return Ok(None);
    };
    let (Some(was), Some(is)) = (
        recorded["continue_crc32"].as_str().map(str::to_owned),
        now["continue_crc32"].as_str(),
    ) else {
        return Ok(None);
    };
    if was == is {
        return Ok(None);
    }
    recorded["continue_crc32"] = is.into();
    if &recorded != now {
        return Ok(None);
    }
    // The CRC of the first lines, as this version records it (from the second line on) and
    // as earlier versions did (from the first).
    let mut whole = crc32fast::Hasher::new();
    let mut games = crc32fast::Hasher::new();
    let mut found = None;
    for (n, line) in results.split_inclusive(|&b| b == b'\n').enumerate() {
        if line.last() != Some(&b'\n') {
            break;
        }
        whole.update(line);
        if n > 0 {
            games.update(line);
        }
        let matches = |h: &crc32fast::Hasher| format!("{:08x}", h.clone().finalize()) == was;
        if matches(&whole) || (n > 0 && matches(&games)) {
            found = Some(n + 1);
            break;
        }
    }
    let Some(lines) = found else {
        return Ok(None);
    };
    let updated = format!("{OPTIONS_PREFIX}{}\n{rest}", serde_json::to_string(now)?);
    let tmp = csv.with_extension("csv.carry");
    std::fs::write(&tmp, updated)
        .and_then(|()| std::fs::rename(&tmp, csv))
        .map_err(|e| anyhow::anyhow!("--resume: cannot rewrite {}: {e}", csv.display()))?;
    Ok(Some(lines))
}

/// The name of game `i`'s saved position in a `--save-positions` folder.
fn saved_name(i: u64) -> String {
    format!("game-{i:06}.txt")
}

/// A position saved by `--save-positions`, with the engine state it goes on from.
fn read_saved(file: &std::path::Path) -> anyhow::Result<nestris_session::position::Position> {
    let text = crate::readlimit::read_to_string(file, crate::readlimit::max::SMALL)
        .map_err(|e| anyhow::anyhow!("--continue: cannot read {}: {e}", file.display()))?;
    let p = nestris_session::position::Position::parse(&text)
        .map_err(|e| anyhow::anyhow!("--continue: position file {}: {e}", file.display()))?;
    if p.state.is_none() || p.next.is_none() {
        bail!("--continue: position file {}: no `state` or `next` line: it cannot go on as the saved game", file.display());
    }
    Ok(p)
}

/// Every position of a `--save-positions` folder (the games that got to its line count), in
/// the order of the games (the files' names); for `tune --continue`.
pub(crate) fn saved_positions(
    dir: &std::path::Path,
) -> anyhow::Result<Vec<nestris_session::position::Position>> {
    crate::options::position_folder_files(dir)
        .with_context(|| format!("--continue: cannot read the folder {}", dir.display()))?
        .iter()
        .map(|f| read_saved(f))
        .collect()
}

/// The games of a `--save-positions` folder, to go on with (`--continue`).
struct Continuation {
    /// Each game's line from the saving run, by game index.
    prefix: std::collections::HashMap<u64, GameResult>,
    /// Each saved position (with its engine state), by game index.
    positions: std::collections::HashMap<u64, nestris_session::position::Position>,
}

impl Continuation {
    /// Reads the folder: its results.csv (from a run stopped at the line count it saved
    /// at) and the position file of every game that got there.
    fn read(dir: &std::path::Path, args: &BenchArgs) -> anyhow::Result<Continuation> {
        use nestris_session::gamecsv::OPTIONS_PREFIX;
        if args.rules.rules != crate::options::RulesArg::Nes || args.game.game_type != TypeArg::A {
            bail!("--continue is for A-type games of the NES rules");
        }
        let name = dir.join(RESULTS_CSV);
        let shown = name.display();
        let text = crate::readlimit::read_to_string(&name, crate::readlimit::max::LARGE)
            .map_err(|e| anyhow::anyhow!("--continue: cannot read {shown}: {e} (a folder written by bench --save-positions)"))?;
        let mut lines = text.lines();
        let options: serde_json::Value = lines
            .next()
            .and_then(|l| l.strip_prefix(OPTIONS_PREFIX))
            .and_then(|j| serde_json::from_str(j).ok())
            .ok_or_else(|| {
                anyhow::anyhow!("--continue: {shown} line 1 is not the options line of a bench CSV")
            })?;
        let at = options["save_positions_at"].as_u64().unwrap_or(0);
        let cap = options["line_cap"].as_u64().unwrap_or(0);
        if at == 0 || cap != at {
            bail!("--continue: {shown}: the games were not stopped where they were saved (line cap {cap}, saved at {at} lines), so they cannot be continued");
        }
        // The pieces after a saved position come from the saved engine's generator, or from
        // a departure's randomizer dealt again from the game's seed: the saving run's.
        let randomizer = args.rules.randomizer_spec().to_string();
        let saved_randomizer = options["randomizer"].as_str().unwrap_or("nes");
        if saved_randomizer != randomizer {
            bail!("--continue: {shown}: the games were dealt by the {saved_randomizer} randomizer; continue them with --randomizer {saved_randomizer}");
        }
        if args.rules.is_departure() && options["seed"].as_u64() != Some(args.game.seed) {
            bail!(
                "--continue: {shown}: the games were played with --seed {}; the {randomizer} randomizer deals their pieces from it, so continue them with that seed",
                options["seed"]
            );
        }
        if let Some(again) = args.save_positions_at.filter(|&a| u64::from(a) <= at) {
            bail!("--save-positions-at {again}: the games of --continue {} start at {at} lines; save them later in the game", dir.display());
        }
        // A folder saved by an earlier version (the archived positions of results/) has
        // fewer columns: the saved part then counts no soft-drop points, starts at 0 lines
        // and keeps no decision times by level, as `compare` reads such a file.
        let header = lines.next().unwrap_or_default();
        if header != GameResult::COLUMNS && !GameResult::OLD_COLUMNS.contains(&header) {
            bail!("--continue: {shown} line 2: not the columns of a bench CSV ({header:?}; this version writes {:?})", GameResult::COLUMNS);
        }
        let columns = header.split(',').count();
        let mut prefix = std::collections::HashMap::new();
        for (n, line) in lines.enumerate() {
            let n = n + 3;
            let fields: Vec<&str> = line.split(',').collect();
            if fields.len() != columns {
                bail!(
                    "--continue: {shown} line {n}: {} fields, expected {columns}",
                    fields.len()
                );
            }
            let r = GameResult::parse(&fields)
                .map_err(|e| anyhow::anyhow!("--continue: {shown} line {n}: {e}"))?;
            if prefix.insert(r.index, r).is_some() {
                bail!("--continue: {shown} line {n}: a game given twice");
            }
        }
        let mut positions = std::collections::HashMap::new();
        for i in args.first_game..args.first_game.saturating_add(args.games) {
            if !prefix.contains_key(&i) {
                bail!("--continue: {shown} has no game {i} (it holds {} games; ask for fewer with --games, or others with --first-game)", prefix.len());
            }
            let file = dir.join(saved_name(i));
            if !file.exists() {
                // The game ended before it got there: its saved part is the whole game.
                continue;
            }
            positions.insert(i, read_saved(&file)?);
        }
        Ok(Continuation { prefix, positions })
    }

    /// Game `i`: the saved game played on and added to its saved part, or the saved part
    /// alone when it ended before the save. With a departure's randomizer (game `i`'s, as
    /// dealt from its start), the pieces the saved part dealt are dealt again and passed
    /// over first.
    fn play(
        &self,
        i: u64,
        args: &BenchArgs,
        departure: Option<nestris_classic::AnyRandomizer>,
        ai: &mut dyn nestris_session::Player<nestris_session::nes::Nes>,
        limits: &Limits,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<GameResult> {
        let prefix = &self.prefix[&i];
        let Some(p) = self.positions.get(&i) else {
            // An A-type game of the saving run stopped before its line cap (where it saved)
            // only by topping out; its CSV line does not say so.
            return Some(GameResult {
                topped_out: true,
                ..prefix.clone()
            });
        };
        let mut game = p.game(&args.game.start_config(i));
        game.set_double_killscreen(args.game.double_killscreen);
        let nes = match departure {
            None => nestris_session::nes::Nes::new(game, None),
            Some(mut r) => {
                // The saved spawn is the game's (pieces + 1)-th: its piece and the next one
                // are dealt.
                let dealt = nestris_session::departure::Departure::dealt_by_spawn(
                    u64::from(prefix.pieces) + 1,
                );
                for _ in 0..dealt {
                    nestris_classic::Randomizer::next_piece(&mut r);
                }
                nestris_session::nes::Nes::resumed(game, r)
            }
        };
        let rest = bench::play(nes, ai, i, limits, stop)?;
        Some(GameResult::continued(prefix, &rest))
    }
}

/// Writes the positions of `--save-positions` as games end.
struct PositionSaver {
    dir: std::path::PathBuf,
    /// Every game's line as it ends ([`RESULTS_CSV`]), for `--continue`.
    results: std::sync::Mutex<nestris_session::gamecsv::GamesCsv>,
    /// `--seed` and `--save-positions-at`, for the files' first line.
    seed: u64,
    at: u32,
    /// Files written, and the first write error.
    written: std::sync::Mutex<(u64, Option<String>)>,
}

impl PositionSaver {
    /// Checks the options and makes the folder; `None` without `--save-positions`.
    fn new(args: &BenchArgs) -> anyhow::Result<Option<PositionSaver>> {
        let (Some(dir), Some(at)) = (&args.save_positions, args.save_positions_at) else {
            return Ok(None);
        };
        if !(1..=9999).contains(&at) {
            bail!("--save-positions-at {at} is out of range (1..=9999 lines)");
        }
        if args.rules.rules != crate::options::RulesArg::Nes || args.game.game_type != TypeArg::A {
            bail!("--save-positions is for A-type games of the NES rules");
        }
        if dir.exists() && !dir.is_dir() {
            bail!(
                "--save-positions {}: is a file, not a folder",
                dir.display()
            );
        }
        std::fs::create_dir_all(dir).map_err(|e| {
            anyhow::anyhow!(
                "--save-positions {}: cannot make the folder: {e}",
                dir.display()
            )
        })?;
        let options = saved_options(args.csv_options()?, at);
        let path = dir.join(RESULTS_CSV);
        // A resumed run keeps the lines of the games it does not play again (they are in its
        // --games-csv, and their positions are in the folder).
        let results = if args.resume {
            nestris_session::gamecsv::GamesCsv::resume::<GameResult>(&path, &options)?.csv
        } else {
            nestris_session::gamecsv::GamesCsv::create::<GameResult>(&path, &options)?
        };
        Ok(Some(PositionSaver {
            dir: dir.clone(),
            results: std::sync::Mutex::new(results),
            seed: args.game.seed,
            at,
            written: std::sync::Mutex::new((0, None)),
        }))
    }

    /// Writes game `r`'s position, if it saved one (a write error is kept for the end).
    fn save(&self, r: &GameResult) {
        let appended = self
            .results
            .lock()
            .expect("results lock")
            .append(&r.to_line());
        if let Err(e) = appended {
            let mut w = self.written.lock().expect("positions lock");
            w.1.get_or_insert(nestris_session::bench::error_chain(&e));
        }
        let Some(p) = &r.position else { return };
        let path = self.dir.join(saved_name(r.index));
        let text = format!(
            "# game {} of a bench run (seed {}), at its first spawn with at least {} lines\n{}",
            r.index,
            self.seed,
            self.at,
            p.to_text()
        );
        let result = std::fs::write(&path, text);
        let mut w = self.written.lock().expect("positions lock");
        match result {
            Ok(()) => w.0 += 1,
            Err(e) => {
                w.1.get_or_insert(format!("cannot write {}: {e}", path.display()));
            }
        }
    }

    /// Adds the count to the report.
    fn annotate(&self, v: &mut serde_json::Value) {
        let w = self.written.lock().expect("positions lock");
        v["positions_saved"] = w.0.into();
        v["positions_folder"] = self.dir.display().to_string().into();
    }

    /// The first write error, if any: the run's error, after its report.
    fn check(&self) -> anyhow::Result<()> {
        match &self.written.lock().expect("positions lock").1 {
            Some(e) => bail!("--save-positions: {e}"),
            None => Ok(()),
        }
    }
}

/// Ctrl-C stops the games in progress and keeps those that finished; a second Ctrl-C quits
/// at once.
fn stop_on_ctrl_c() -> Arc<AtomicBool> {
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
    stop
}

/// The progress of a run: a bar on a terminal, otherwise a plain line every 5% of the games.
struct Progress {
    bar: indicatif::ProgressBar,
    terminal: bool,
}

impl Progress {
    fn new(games: u64) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = if terminal {
            let b = indicatif::ProgressBar::new(games);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})  {msg}",
                )
                .expect("valid template"),
            );
            b
        } else {
            indicatif::ProgressBar::hidden()
        };
        Progress { bar, terminal }
    }

    fn event(&self, e: Event) {
        match e {
            Event::DroppedPartial(p) => eprintln!(
                "resume: dropped the incomplete last line of {} (that game is played again)",
                p.display()
            ),
            Event::Resuming {
                have,
                games,
                path,
                todo,
            } => {
                eprintln!(
                    "resume: {have} of {games} games already in {}, {todo} to play",
                    path.display()
                );
                self.bar.set_position(have as u64);
            }
            Event::Progress {
                done,
                games,
                mean,
                elapsed,
            } => {
                self.bar.set_message(format!("mean score {mean:.0}"));
                self.bar.set_position(done);
                // Without a terminal: a plain line every 5% of the games.
                if !self.terminal && done * 20 / games > (done - 1) * 20 / games {
                    eprintln!(
                        "bench: {done}/{games} games ({:.0}%), mean score {mean:.0}, {:.0} s",
                        100.0 * done as f64 / games as f64,
                        elapsed.as_secs_f64()
                    );
                }
            }
            Event::CsvError(e) => eprintln!("warning: {e}"),
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
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

/// The report's first line: the games, and where in the seed's sequence they start when a
/// run does not start at game 0 (`--first-game`).
fn print_games(v: &serde_json::Value) {
    match v["first_game"].as_u64() {
        Some(first) => println!(
            "games              {} (from game {first} of seed {})",
            v["games"], v["seed"]
        ),
        None => println!("games              {}", v["games"]),
    }
}

/// The report of NES games as a table.
pub(crate) fn print_table(v: &serde_json::Value) {
    let f = |k: &str| v[k].as_f64().unwrap_or(0.0);
    print_games(v);
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
    println!(
        "search             third ply {}x{}, fourth ply {}, blind {}x{}, playouts {}{}",
        v["deep_locks"],
        v["deep_next"],
        v["fourth_ply"].as_str().unwrap_or("off"),
        v["blind_locks"],
        v["blind_next"],
        v["playouts"].as_str().unwrap_or("off"),
        if v["pushdown"].as_bool() == Some(true) {
            "; soft drop after each piece's last move"
        } else {
            ""
        }
    );
    if let Some(p) = v["position"].as_str() {
        if v["departure"].as_bool() == Some(true) {
            println!("position           {p} (departure from the original)");
        } else {
            println!("position           {p} (an engine snapshot: every game starts there)");
        }
    }
    if let Some(c) = v["continued_from"].as_str() {
        println!("continued from     {c} (the saved games played on from their saved states)");
    }
    if let Some(n) = v["positions_saved"].as_u64() {
        println!(
            "positions saved    {n} (this run's games) in {}",
            v["positions_folder"].as_str().unwrap_or("")
        );
    }
    if v["departure"].as_bool() == Some(true) && v.get("randomizer").is_some() {
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
    if let Some(c) = v["reached_line_cap"].as_f64() {
        println!(
            "reached the cap    {:.1}% of games ({} lines)",
            100.0 * c,
            v["line_cap"]
        );
    }
    println!(
        "mean score before  19: {:.0}  29: {:.0}  39: {:.0}",
        f("mean_score_before_19"),
        f("mean_score_before_29"),
        f("mean_score_before_39")
    );
    println!("tetris rate        {:.1}%", 100.0 * f("tetris_rate"));
    if let Some(s) = v["mean_soft_drop_points"].as_f64() {
        println!("soft-drop points   {s:.0} a game (in the score)");
    }
    if let Some(b) = v["btype_success_rate"].as_f64() {
        println!(
            "B-type success     {:.1}%  (mean pieces when cleared {:.1})",
            100.0 * b,
            v["btype_mean_pieces"].as_f64().unwrap_or(0.0)
        );
    }
    print_decisions(v);
    print_wall(v);
}

/// The report's wall-time row, with the games taken from an earlier run (shared with the
/// classic rule sets' table).
fn print_wall(v: &serde_json::Value) {
    // A report of games read back (`nestris report`) has none.
    let Some(wall) = v["wall_seconds"].as_f64() else {
        return;
    };
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
fn print_score_lines(v: &serde_json::Value, note: &str) {
    let f = |k: &str| v[k].as_f64().unwrap_or(0.0);
    println!(
        "mean score         {:.0} ± {:.0} (standard error; std {:.0}{note})",
        f("mean_score"),
        f("sem_score"),
        f("std_score")
    );
    // Whole points (the report keeps them as rounded floats).
    let p = |k: &str| format!("{:.0}", v["score_percentiles"][k].as_f64().unwrap_or(0.0));
    println!(
        "score percentiles  1%: {}  5%: {}  10%: {}  25%: {}  50%: {}  75%: {}  90%: {}  95%: {}  99%: {}",
        p("1"), p("5"), p("10"), p("25"), p("50"), p("75"), p("90"), p("95"), p("99")
    );
    println!(
        "lines              mean {:.1}  median {:.1}",
        f("mean_lines"),
        f("median_lines")
    );
}

/// The decisions line of both tables: how many, how fast, median and p99 time.
fn print_decisions(v: &serde_json::Value) {
    let f = |k: &str| v[k].as_f64().unwrap_or(0.0);
    println!(
        "decisions          {} at {:.0}/s per core; median {:.2} ms, p99 {:.2} ms",
        v["decisions"],
        f("decisions_per_second"),
        f("decision_ms_median"),
        f("decision_ms_p99")
    );
    let by_band = &v["decisions_by_band"];
    if let Some(bands) = by_band["bands"].as_object() {
        let label = |k: &str| match k {
            "18" => "before 19",
            "19" => "19-28",
            "29" => "29-38",
            _ => "39 on",
        };
        let parts: Vec<String> = bands
            .iter()
            .map(|(k, b)| {
                format!(
                    "{}: {}, median {:.2} ms, p99 {:.2} ms",
                    label(k),
                    b["decisions"],
                    b["median_ms"].as_f64().unwrap_or(0.0),
                    b["p99_ms"].as_f64().unwrap_or(0.0)
                )
            })
            .collect();
        let of = match (by_band["games"].as_u64(), v["games"].as_u64()) {
            (Some(a), Some(b)) if a < b => format!(" ({a} of the {b} games)"),
            _ => String::new(),
        };
        println!("  by level{of}         {}", parts.join("; "));
    }
}

pub(crate) fn print_classic_table(v: &serde_json::Value) {
    let f = |k: &str| v[k].as_f64().unwrap_or(0.0);
    let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
    print_games(v);
    println!(
        "format             rules {} randomizer {}{} line cap {} ({})",
        s("rules"),
        s("randomizer"),
        if v["departure"].as_bool() == Some(true) {
            " (departure from the original)"
        } else {
            ""
        },
        v["line_cap"],
        s("ai")
    );
    print_score_lines(v, "; one point per line");
    println!(
        "pieces             mean {:.1}; topped out {:.1}% (the rest reached the line cap)",
        f("mean_pieces"),
        100.0 * f("topped_out_rate")
    );
    println!("tetris rate        {:.1}%", 100.0 * f("tetris_rate"));
    print_decisions(v);
    print_wall(v);
}

/// The file of `--record-boards`: each game's lines appended as it ends.
struct BoardsFile {
    path: std::path::PathBuf,
    /// The file, and the first write error.
    file: std::sync::Mutex<(std::io::BufWriter<std::fs::File>, Option<String>)>,
}

impl BoardsFile {
    /// Starts the file afresh with its header line.
    fn create(path: &std::path::Path) -> anyhow::Result<BoardsFile> {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("--record-boards: cannot create {}", path.display()))?,
        );
        writeln!(f, "{}", nestris_session::boards::HEADER)
            .with_context(|| format!("--record-boards: cannot write {}", path.display()))?;
        Ok(BoardsFile {
            path: path.to_path_buf(),
            file: std::sync::Mutex::new((f, None)),
        })
    }

    /// Appends one game's lines (a write error is kept for [`BoardsFile::finish`]).
    fn write(&self, lines: &str) {
        use std::io::Write;
        let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let (f, err) = &mut *guard;
        if err.is_none() {
            if let Err(e) = f.write_all(lines.as_bytes()).and_then(|()| f.flush()) {
                *err = Some(e.to_string());
            }
        }
    }

    /// The first write error, if any.
    fn finish(&self) -> anyhow::Result<()> {
        let guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        match &guard.1 {
            Some(e) => bail!("--record-boards: cannot write {}: {e}", self.path.display()),
            None => Ok(()),
        }
    }
}
