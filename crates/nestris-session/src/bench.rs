//! Headless games to the end ([`play`]), the benchmark runner on all cores ([`run_games`])
//! and its report in the field's format ([`report`]), for every rule set.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::gamecsv::{parse_bool, parse_num, CsvError, CsvRow, DecisionTimes, GamesCsv};
use crate::player::Player;
use crate::rules::RuleSet;

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
    /// The game topped out (rather than reaching a cap or its goal).
    pub topped_out: bool,
    /// Decision times.
    pub decisions: DecisionTimes,
    /// The same decisions by the level they were made at ([`crate::gamecsv::BANDS`]);
    /// `None` for a game read from a CSV written before those columns, and for a game
    /// continued ([`GameResult::continued`]) from one.
    pub bands: Option<[DecisionTimes; 4]>,
    /// Points scored for soft drops (the NES's `addHoldDownPoints`; part of `score`). `None`
    /// for a game read from a CSV written before the column.
    pub soft_drop: Option<u64>,
    /// The lines the game had when it started: a position's (`bench --position`), 0 for a
    /// game from its start; `lines - start_lines` are the lines it cleared, which the Tetris
    /// rate is over. 0 for a game read from a CSV written before the column.
    pub start_lines: u32,
    /// The position saved at [`Limits::save_at_lines`] (not in the CSV line).
    pub position: Option<crate::position::Position>,
}

impl CsvRow for GameResult {
    const COLUMNS: &'static str = "game,score,capped_score,lines,level,pieces,frames,tetrises,tetris_lines,before_19,before_29,before_39,cleared,decisions,decision_ns,decision_hist,soft_drop,start_lines,decisions_18,decisions_19,decisions_29,decisions_39";
    const OLD_COLUMNS: &'static [&'static str] = &[
        "game,score,capped_score,lines,level,pieces,frames,tetrises,tetris_lines,before_19,before_29,before_39,cleared,decisions,decision_ns,decision_hist",
        "game,score,capped_score,lines,level,pieces,frames,tetrises,tetris_lines,before_19,before_29,before_39,cleared,decisions,decision_ns,decision_hist,soft_drop",
        "game,score,capped_score,lines,level,pieces,frames,tetrises,tetris_lines,before_19,before_29,before_39,cleared,decisions,decision_ns,decision_hist,soft_drop,start_lines",
    ];

    fn index(&self) -> u64 {
        self.index
    }

    fn score(&self) -> f64 {
        self.score as f64
    }

    fn to_line(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
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
            self.decisions.csv_fields(),
            self.soft_drop.unwrap_or(0),
            self.start_lines,
            self.bands
                .as_ref()
                .map(|b| b.iter().map(DecisionTimes::csv_field).collect::<Vec<_>>())
                // No bands (a game continued from a run written before those columns):
                // four empty fields, which `parse` reads back as `None`.
                .unwrap_or_else(|| vec![String::new(); 4])
                .join(",")
        )
    }

    fn parse(f: &[&str]) -> Result<GameResult, String> {
        let decisions = DecisionTimes::parse(f[13], f[14], f[15])?;
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
            bands: parse_bands(f, decisions.count)?,
            decisions,
            soft_drop: f.get(16).map(|s| parse_num(s, "soft_drop")).transpose()?,
            start_lines: f
                .get(17)
                .map(|s| parse_num(s, "start_lines"))
                .transpose()?
                .unwrap_or(0),
            topped_out: false,
            position: None,
        })
    }
}

/// The four band columns of a CSV line (from field 18), given the game's decision count.
/// `None` where the line has no band columns (a CSV written before them), where all four are
/// empty (a game without bands, as [`GameResult`]'s line writes it), and where all four count
/// no decision while the game made some: that is how versions before stop 85 wrote a game
/// without bands, and reading it as four empty bands would count it among the banded games.
fn parse_bands(f: &[&str], decisions: u64) -> Result<Option<[DecisionTimes; 4]>, String> {
    if f.len() <= 18 || f[18..].iter().take(4).all(|s| s.trim().is_empty()) {
        return Ok(None);
    }
    let mut b: [DecisionTimes; 4] = Default::default();
    for (i, t) in b.iter_mut().enumerate() {
        let field = f.get(18 + i).copied().unwrap_or_default();
        *t = DecisionTimes::parse_field(field, crate::gamecsv::BANDS[i])?;
    }
    if decisions > 0 && b.iter().all(|t| t.count == 0) {
        return Ok(None);
    }
    Ok(Some(b))
}

impl GameResult {
    /// The whole game of `prefix` (a game stopped where its position was saved, see
    /// [`Limits::save_at_lines`]) and `rest` (the game played on from that position): the
    /// end as `rest` has it, the counts of both parts added, and the scores at levels 19, 29
    /// and 39 from the part that reached them first. `frames` leaves out the few frames
    /// between the prefix's last clear and the saved spawn.
    pub fn continued(prefix: &GameResult, rest: &GameResult) -> GameResult {
        let mut before = rest.before;
        for (i, lv) in [19u8, 29, 39].iter().enumerate() {
            if prefix.level >= *lv {
                before[i] = prefix.before[i];
            }
        }
        let mut decisions = prefix.decisions.clone();
        decisions.merge(&rest.decisions);
        let bands = prefix
            .bands
            .clone()
            .zip(rest.bands.as_ref())
            .map(|(mut a, b)| {
                for (a, b) in a.iter_mut().zip(b) {
                    a.merge(b);
                }
                a
            });
        GameResult {
            index: prefix.index,
            score: rest.score,
            capped_score: rest.capped_score,
            lines: rest.lines,
            level: rest.level,
            pieces: prefix.pieces + rest.pieces,
            frames: prefix.frames + rest.frames,
            tetrises: prefix.tetrises + rest.tetrises,
            tetris_lines: prefix.tetris_lines + rest.tetris_lines,
            before,
            cleared: rest.cleared,
            topped_out: rest.topped_out,
            decisions,
            bands,
            soft_drop: prefix.soft_drop.zip(rest.soft_drop).map(|(a, b)| a + b),
            start_lines: prefix.start_lines,
            position: rest.position.clone(),
        }
    }
}

/// When a headless game stops early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop at this many lines (A-type and the classic games; 0: no cap).
    pub lines: u32,
    /// Stop after this many pieces (0: no cap).
    pub pieces: u32,
    /// Stop after this many frames (0: no limit).
    pub frames: u64,
    /// Save the position at the first spawn once the game has this many lines
    /// ([`GameResult::position`]; 0: none). A game that reaches its line cap first plays on
    /// to that spawn before it stops (without the lines or points of another lock).
    pub save_at_lines: u32,
}

/// Frames after which a game is stopped whatever the limits (a player that never locks).
pub const MAX_FRAMES: u64 = 50_000_000;

/// Plays `game` (not stepped yet) with `player` until play is over or a limit is reached;
/// `None` when `stop` is raised first.
pub fn play<G: RuleSet, P: Player<G> + ?Sized>(
    game: G,
    player: &mut P,
    index: u64,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<GameResult> {
    let mut run = crate::Run::new(game, index);
    let mut r = GameResult {
        index,
        soft_drop: Some(0),
        start_lines: run.game.lines(),
        bands: Some(Default::default()),
        ..GameResult::default()
    };
    let mut seen: [bool; 3] = [false; 3];
    let mut decisions = player.decisions();
    let save_at = if limits.save_at_lines > 0 && limits.lines > 0 {
        limits.save_at_lines.min(limits.lines)
    } else {
        limits.save_at_lines
    };
    let mut cap_counts: Option<(u64, u32)> = None;
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if limits.pieces > 0 && run.pieces >= limits.pieces {
            break;
        }
        let input = player.input(&run.game);
        if player.decisions() != decisions {
            decisions = player.decisions();
            if let Some(d) = player.last_elapsed() {
                r.decisions.record(d);
                if let Some(b) = &mut r.bands {
                    b[crate::gamecsv::band(run.game.level())].record(d);
                }
            }
        }
        let tick = run.step(input);
        player.after(&tick);
        if cap_counts.is_none() {
            if let Some(s) = &mut r.soft_drop {
                *s += tick.soft_drop;
            }
        }
        if tick.cleared >= 4 {
            r.tetrises += 1;
            r.tetris_lines += 4;
        }
        let g = &run.game;
        for (i, lv) in [19u8, 29, 39].iter().enumerate() {
            if !seen[i] && g.level() >= *lv && !g.b_type() {
                seen[i] = true;
                r.before[i] = g.score();
            }
        }
        let saving = save_at > 0 && r.position.is_none() && !g.b_type() && g.lines() >= save_at;
        if saving && tick.piece {
            r.position = g.position();
        }
        // A game at its cap that still has to save its position plays on to the next
        // spawn (no lock comes before it); its counts are those at the cap.
        let at_cap = limits.lines > 0 && !g.b_type() && g.lines() >= limits.lines;
        if at_cap && cap_counts.is_none() {
            cap_counts = Some((run.frames, run.pieces));
        }
        let capped = at_cap && !(saving && r.position.is_none());
        if g.over() || capped || (limits.frames > 0 && run.frames >= limits.frames) {
            break;
        }
        if run.frames > MAX_FRAMES {
            break;
        }
    }
    let g = &run.game;
    r.cleared = g.goal_reached();
    // A game that reached its cap did not top out, whatever came while it played on to save
    // its position.
    r.topped_out = g.topped_out() && cap_counts.is_none();
    (r.frames, r.pieces) = cap_counts.unwrap_or((run.frames, run.pieces));
    r.score = g.score();
    r.capped_score = g.shown_score();
    r.lines = g.lines();
    r.level = g.level();
    for (i, s) in seen.iter().enumerate() {
        if !s {
            r.before[i] = r.score;
        }
    }
    Some(r)
}

/// The mean soft-drop points of the games that count them (`None` when none does: a CSV
/// written before the column).
fn soft_drop_mean(results: &[GameResult]) -> Option<f64> {
    let counted: Vec<u64> = results.iter().filter_map(|r| r.soft_drop).collect();
    (!counted.is_empty()).then(|| counted.iter().sum::<u64>() as f64 / counted.len() as f64)
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

/// What a report says about the run beside its games (the options that decided them).
#[derive(Clone, Debug)]
pub struct ReportSetup {
    /// The rule set.
    pub rules: crate::Rules,
    /// The randomizer's name.
    pub randomizer: String,
    /// Whether the randomizer is not the rule set's own (a departure from the original).
    pub departure: bool,
    /// Start level (NES).
    pub level: u16,
    /// B-type games (NES).
    pub b_type: bool,
    /// B-type garbage height (NES).
    pub height: u8,
    /// Tap speed (NES).
    pub hz: String,
    /// Reaction time in frames (NES).
    pub reaction: u32,
    /// The AI's label (preset or weights file).
    pub ai: String,
    /// Line cap (0: none).
    pub line_cap: u32,
    /// The format's name (`field`, `vanilla`, `custom`).
    pub format: String,
    /// The double killscreen (a departure).
    pub double_killscreen: bool,
    /// The session's seed.
    pub seed: u64,
    /// The first game's number in the seed's sequence (`bench --first-game`; 0 for a run
    /// from its start).
    pub first_game: u64,
    /// The AI's search widths: deep locks, deep next, blind locks, blind next.
    pub widths: [usize; 4],
    /// The AI's fourth ply once the preview is seen, e.g. `8 pairs on stacks of at most 10
    /// rows, before level 29`, or `off`.
    pub fourth_ply: String,
    /// The AI's playouts for blind decisions, e.g. `8 locks x 16 x 6 pieces from level 29`,
    /// or `off`.
    pub playouts: String,
    /// Whether the AI soft-drops after a piece's last move (`nestris_ai::AiConfig::pushdown`).
    pub pushdown: bool,
    /// The position file (or engine snapshot) the games start from, if any.
    pub position: Option<String>,
    /// Whether that is a position file (a departure) rather than an engine snapshot.
    pub position_departure: bool,
    /// The folder of saved games the games continue, if any (`bench --continue`).
    pub continued_from: Option<String>,
}

/// The 1st, 5th, 10th, 25th, 50th, 75th, 90th, 95th and 99th percentiles of sorted values,
/// rounded, keyed by the percentile.
fn percentile_map(sorted: &[f64]) -> serde_json::Map<String, serde_json::Value> {
    [1, 5, 10, 25, 50, 75, 90, 95, 99]
        .into_iter()
        .map(|p| {
            (
                p.to_string(),
                serde_json::json!(percentile(sorted, p as f64).round()),
            )
        })
        .collect()
}

/// The report over finished games.
pub fn report(results: &[GameResult], s: &ReportSetup, wall: Duration) -> serde_json::Value {
    let n = results.len().max(1) as f64;
    let mut scores: Vec<f64> = results.iter().map(|r| r.score as f64).collect();
    scores.sort_by(f64::total_cmp);
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n;
    let mut lines: Vec<f64> = results.iter().map(|r| r.lines as f64).collect();
    lines.sort_by(f64::total_cmp);
    let pct = percentile_map(&scores);
    let below = |cap: u32| results.iter().filter(|r| r.lines < cap).count() as f64 / n;
    let before = |i: usize| results.iter().map(|r| r.before[i] as f64).sum::<f64>() / n;
    // The lines the games cleared (a position's own lines are not theirs).
    let total_lines: u64 = results
        .iter()
        .map(|r| u64::from(r.lines.saturating_sub(r.start_lines)))
        .sum();
    let tetris_lines: u64 = results.iter().map(|r| r.tetris_lines as u64).sum();
    let mut times = DecisionTimes::default();
    for r in results {
        times.merge(&r.decisions);
    }
    let busy = times.total_seconds();
    // By band, over the games that keep them (all but those of a CSV written before the
    // columns), each band with its decisions' count, median and p99.
    let banded: Vec<&[DecisionTimes; 4]> =
        results.iter().filter_map(|r| r.bands.as_ref()).collect();
    let by_band = (!banded.is_empty()).then(|| {
        let mut m = serde_json::Map::new();
        for (i, name) in crate::gamecsv::BANDS.iter().enumerate() {
            let mut t = DecisionTimes::default();
            for b in &banded {
                t.merge(&b[i]);
            }
            if t.count > 0 {
                m.insert(
                    name.trim_start_matches("decisions_").to_string(),
                    serde_json::json!({
                        "decisions": t.count,
                        "median_ms": t.percentile_ms(50.0),
                        "p99_ms": t.percentile_ms(99.0),
                    }),
                );
            }
        }
        serde_json::json!({ "games": banded.len(), "bands": m })
    });
    let b_runs = results.iter().filter(|_| s.b_type).count();
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
        "level": s.level,
        "type": if s.b_type { "b" } else { "a" },
        "height": s.height,
        "hz": s.hz,
        "reaction": s.reaction,
        "ai": s.ai,
        "line_cap": s.line_cap,
        "format": s.format,
        "double_killscreen": s.double_killscreen,
        "seed": s.seed,
        "deep_locks": s.widths[0],
        "deep_next": s.widths[1],
        "blind_locks": s.widths[2],
        "blind_next": s.widths[3],
        "fourth_ply": s.fourth_ply,
        "playouts": s.playouts,
        "pushdown": s.pushdown,
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
        // Over the games that count them (a CSV written before the column does not).
        "mean_soft_drop_points": soft_drop_mean(results),
        "btype_success_rate": if b_runs > 0 { Some(b_ok as f64 / b_runs as f64) } else { None },
        "btype_mean_pieces": if b_ok > 0 { Some(pieces_b) } else { None },
        "decisions": times.count,
        "decisions_per_second": if busy > 0.0 { times.count as f64 / busy } else { 0.0 },
        "decision_ms_median": times.percentile_ms(50.0),
        "decision_ms_p99": times.percentile_ms(99.0),
        "decisions_by_band": by_band,
        "wall_seconds": wall.as_secs_f64(),
    });
    if s.line_cap > 0 && !s.b_type {
        // The share of games stopped at the cap (the field reports it beside the losses);
        // only with a cap, so that the reports of runs without one stay as they were.
        v["reached_line_cap"] =
            (results.iter().filter(|r| r.lines >= s.line_cap).count() as f64 / n).into();
    }
    if s.first_game > 0 {
        // Only when given, so that the reports of runs from game 0 stay as they were.
        v["first_game"] = s.first_game.into();
    }
    if let Some(c) = &s.continued_from {
        v["continued_from"] = c.clone().into();
    }
    if let Some(p) = &s.position {
        v["position"] = p.clone().into();
        if s.position_departure {
            v["departure"] = true.into();
        }
    }
    if s.rules != crate::Rules::Nes {
        classic_keys(&mut v, results, s);
    } else if s.departure {
        // Only for a departure: the original game's report keeps its keys.
        v["rules"] = s.rules.name().into();
        v["randomizer"] = s.randomizer.clone().into();
        v["departure"] = true.into();
    }
    v
}

/// The report of a classic rule set: the keys that apply (no level, type, timing or
/// level-based keys), plus `rules`, `randomizer`, `departure`, the lines' percentiles, the
/// mean pieces and the share of games that topped out.
fn classic_keys(v: &mut serde_json::Value, results: &[GameResult], s: &ReportSetup) {
    let Some(map) = v.as_object_mut() else {
        return;
    };
    for key in [
        "level",
        "type",
        "height",
        "hz",
        "reaction",
        "below_130",
        "below_230",
        "below_330",
        "mean_score_before_19",
        "mean_score_before_29",
        "mean_score_before_39",
        "btype_success_rate",
        "btype_mean_pieces",
    ] {
        map.remove(key);
    }
    let n = results.len().max(1) as f64;
    let mut lines: Vec<f64> = results.iter().map(|r| r.lines as f64).collect();
    lines.sort_by(f64::total_cmp);
    let pct = percentile_map(&lines);
    let pieces: f64 = results.iter().map(|r| r.pieces as f64).sum::<f64>() / n;
    let topped = results.iter().filter(|r| r.topped_out).count() as f64 / n;
    map.insert("rules".into(), s.rules.name().into());
    map.insert("randomizer".into(), s.randomizer.clone().into());
    map.insert("departure".into(), s.departure.into());
    map.insert("lines_percentiles".into(), pct.into());
    map.insert("mean_pieces".into(), pieces.into());
    map.insert("topped_out_rate".into(), topped.into());
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
    /// Adds the resumed-games keys to a report (only for a resumed run).
    pub fn annotate(&self, v: &mut serde_json::Value, spec: &RunSpec) {
        if spec.resume {
            v["games_resumed"] = self.resumed.into();
            if let Some(p) = &spec.games_csv {
                v["games_csv"] = p.display().to_string().into();
            }
        }
    }
}

/// How to run the games of a benchmark.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// The number of the first game (`bench --first-game`): the games are `first..first +
    /// games`, each numbered as in a run from game 0 (so its CSV line, saved position and
    /// recorded boards are that run's).
    pub first: u64,
    /// How many games.
    pub games: u64,
    /// Worker threads (`None`: all cores).
    pub threads: Option<usize>,
    /// Write each game's line to this CSV file as it ends.
    pub games_csv: Option<PathBuf>,
    /// Resume the run the CSV file holds (its games are not played again).
    pub resume: bool,
    /// The options that decide the games, recorded in the CSV (a resumed run must have the
    /// same).
    pub csv_options: serde_json::Value,
}

/// What [`run_games`] tells its caller while it runs.
#[derive(Clone, Debug)]
pub enum Event {
    /// Resuming: an incomplete last line of the CSV was dropped (that game is played again).
    DroppedPartial(PathBuf),
    /// Resuming: `have` of `games` games are in the CSV, `todo` to play.
    Resuming {
        /// Games found.
        have: usize,
        /// Games asked for.
        games: u64,
        /// The CSV.
        path: PathBuf,
        /// Games to play.
        todo: usize,
    },
    /// A game finished: `done` of `games` (resumed ones included), their mean score.
    Progress {
        /// Games done.
        done: u64,
        /// Games asked for.
        games: u64,
        /// Mean score so far.
        mean: f64,
        /// Time since the start of this run.
        elapsed: Duration,
    },
    /// The CSV could not be written (the run goes on; said once).
    CsvError(String),
}

/// Why a benchmark run could not run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// No games asked for.
    #[error("--games must be at least 1")]
    NoGames,
    /// `resume` without a CSV.
    #[error("--resume needs --games-csv FILE (the file of the run to resume)")]
    ResumeWithoutCsv,
    /// The last game's number would not fit in 64 bits.
    #[error("--first-game {first} with --games {games}: the last game's number is beyond 2^64")]
    GamesOutOfRange {
        /// The first game.
        first: u64,
        /// How many.
        games: u64,
    },
    /// Stopped before any game finished.
    #[error("no game finished")]
    NoGameFinished,
    /// The CSV file.
    #[error(transparent)]
    Csv(#[from] CsvError),
    /// The worker threads.
    #[error("cannot start the worker threads")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// An error with its causes, as one line (`error: cause: cause`).
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

/// Plays games `spec.first..spec.first + spec.games` on `spec.threads` cores. `play(i, stop)` plays game `i`;
/// with a CSV each game's line is written as it ends, and when resuming the games already
/// in the file are taken from it instead of played. Raising `stop` stops the games in
/// progress and keeps those that finished. `events` hears of the progress.
pub fn run_games<T: CsvRow + Send>(
    spec: &RunSpec,
    stop: &AtomicBool,
    play: impl Fn(u64, &AtomicBool) -> Option<T> + Sync,
    events: impl Fn(Event) + Sync,
) -> Result<GamesRun<T>, BenchError> {
    // The wall time counts from here: starting many worker threads takes time too.
    let start = Instant::now();
    if spec.games == 0 {
        return Err(BenchError::NoGames);
    }
    if spec.resume && spec.games_csv.is_none() {
        return Err(BenchError::ResumeWithoutCsv);
    }
    let Some(end) = spec.first.checked_add(spec.games) else {
        return Err(BenchError::GamesOutOfRange {
            first: spec.first,
            games: spec.games,
        });
    };
    let range = spec.first..end;
    // The CSV: created, or resumed with the games it holds.
    let mut resumed: Vec<T> = Vec::new();
    let csv = match &spec.games_csv {
        Some(p) => {
            let csv = if spec.resume {
                let r = GamesCsv::resume::<T>(p, &spec.csv_options)?;
                if r.dropped_partial {
                    events(Event::DroppedPartial(p.clone()));
                }
                resumed = r.games;
                r.csv
            } else {
                GamesCsv::create::<T>(p, &spec.csv_options)?
            };
            Some(Mutex::new(csv))
        }
        None => None,
    };
    // Games of the file outside the range stay in it but are not this report's.
    resumed.retain(|r| range.contains(&r.index()));
    let have: std::collections::HashSet<u64> = resumed.iter().map(CsvRow::index).collect();
    let todo: Vec<u64> = range.filter(|i| !have.contains(i)).collect();
    if spec.resume {
        events(Event::Resuming {
            have: resumed.len(),
            games: spec.games,
            path: spec.games_csv.clone().unwrap_or_default(),
            todo: todo.len(),
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(spec.threads.unwrap_or(0))
        .build()?;
    let csv_error: Mutex<Option<String>> = Mutex::new(None);
    // Games done (resumed ones included) and the sum of their scores, under one lock.
    let progress = Mutex::new((
        resumed.len() as u64,
        resumed.iter().map(CsvRow::score).sum::<f64>(),
    ));
    let mut results: Vec<T> = pool.install(|| {
        todo.par_iter()
            .filter_map(|&i| {
                let r = play(i, stop)?;
                if let Some(f) = &csv {
                    if let Err(e) = f.lock().expect("csv lock").append(&r.to_line()) {
                        csv_error
                            .lock()
                            .expect("error lock")
                            .get_or_insert(error_chain(&e));
                    }
                }
                let mut p = progress.lock().expect("progress lock");
                p.0 += 1;
                p.1 += r.score();
                let (done, sum) = *p;
                events(Event::Progress {
                    done,
                    games: spec.games,
                    mean: sum / done as f64,
                    elapsed: start.elapsed(),
                });
                Some(r)
            })
            .collect()
    });
    if let Some(e) = csv_error.into_inner().expect("error lock") {
        events(Event::CsvError(e));
    }
    let n_resumed = resumed.len();
    results.extend(resumed);
    if results.is_empty() {
        return Err(BenchError::NoGameFinished);
    }
    results.sort_by_key(CsvRow::index);
    Ok(GamesRun {
        results,
        resumed: n_resumed,
        interrupted: stop.load(Ordering::Relaxed),
        wall: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamecsv::CsvRow;
    use std::time::Duration;

    /// A game of 3 decisions, with or without its bands.
    fn game(bands: bool) -> GameResult {
        let mut decisions = DecisionTimes::default();
        let mut b: [DecisionTimes; 4] = Default::default();
        for (i, us) in [900u64, 4_000, 12_000].into_iter().enumerate() {
            decisions.record(Duration::from_micros(us));
            b[i + 1].record(Duration::from_micros(us));
        }
        GameResult {
            index: 7,
            score: 1_234_560,
            capped_score: 999_999,
            lines: 330,
            level: 38,
            pieces: 800,
            decisions,
            bands: bands.then_some(b),
            soft_drop: Some(0),
            start_lines: 230,
            ..GameResult::default()
        }
    }

    fn read(line: &str) -> GameResult {
        let f: Vec<&str> = line.split(',').collect();
        GameResult::parse(&f).expect("parses")
    }

    #[test]
    fn a_games_bands_survive_its_csv_line_and_their_absence_too() {
        let with = game(true);
        let back = read(&with.to_line());
        assert_eq!(back.bands, with.bands);
        assert_eq!(back.decisions, with.decisions);

        // A game continued from a folder written before the band columns has none: its line
        // leaves the four fields empty and reads back as having none, not four empty bands
        // (which the report's "by level" would count as a banded game).
        let without = game(false);
        let line = without.to_line();
        assert!(line.ends_with("230,,,,"), "{line}");
        let head = line.split(',').take(18).collect::<Vec<_>>().join(",");
        assert_eq!(read(&line).bands, None);
        let banded = |rs: &[GameResult]| rs.iter().filter(|r| r.bands.is_some()).count();
        assert_eq!(banded(&[read(&with.to_line()), read(&line)]), 1);

        // Versions before stop 85 wrote such a game's bands as four zero counts: a game with
        // decisions and no decision in any band is read as one without bands.
        let old = head.clone() + ",0/0/,0/0/,0/0/,0/0/";
        assert_eq!(read(&old).bands, None);
        // A line without the band columns at all (a CSV written before them).
        let older: Vec<&str> = head.split(',').collect();
        assert_eq!(GameResult::parse(&older).unwrap().bands, None);
        // A bad band field is still an error naming its column.
        let bad = head + ",0/0/,x,0/0/,0/0/";
        let f: Vec<&str> = bad.split(',').collect();
        let e = GameResult::parse(&f).unwrap_err();
        assert!(e.contains(crate::gamecsv::BANDS[1]), "{e}");
    }
}
