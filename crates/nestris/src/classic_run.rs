//! The classic rule sets (relaytris, qbasic) in the commands: a headless game loop for `bench`
//! and headless `watch`, and a simple full-screen view for `watch` and `play`.
//!
//! Headless games play placement by placement ([`ClassicGame::apply_placement`]): relaytris
//! has no gravity, and for qbasic gravity (one row a second) is taken as slow enough that the
//! AI's moves fit between two steps, as [`ClassicGame::placements`] assumes. On screen, qbasic
//! runs frame by frame with its gravity ([`Qbasic::step_frame`]) and the AI moves the piece one
//! input every few frames, re-planning its path to the chosen cells when gravity has moved
//! the piece.

use std::collections::VecDeque;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use nestris_ai::Evaluator;
use nestris_classic::{
    ActivePiece, AnyRandomizer, Board, Cell, ClassicGame, GameError, LockResult, Move, Piece,
    Placement, Qbasic, Relaytris,
};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::bench::{percentile, BenchArgs, GameResult};
use crate::classic_ai;
use crate::gamecsv::{parse_bool, parse_num, CsvRow, DecisionTimes};
use crate::options::{AiOptions, GameOptions, RulesArg, RulesOptions};

/// Headless `watch` of a classic rule set ends a game at this many lines (as `bench`'s
/// default line cap): a good player never tops out with some randomizers.
pub const HEADLESS_LINE_CAP: u32 = 430;

/// A game of either classic rule set.
#[derive(Debug, Clone)]
pub enum Classic {
    /// The relay computer's game.
    Relaytris(Relaytris),
    /// The QBasic tutorial game.
    Qbasic(Qbasic),
}

macro_rules! with_game {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            Classic::Relaytris($g) => $body,
            Classic::Qbasic($g) => $body,
        }
    };
}

impl Classic {
    /// A new game of `rules` (not nes) dealing from `randomizer`.
    pub fn new(rules: RulesArg, randomizer: AnyRandomizer) -> anyhow::Result<Classic> {
        Ok(match rules {
            RulesArg::Relaytris => Classic::Relaytris(Relaytris::with_randomizer(randomizer)),
            RulesArg::Qbasic => Classic::Qbasic(Qbasic::with_randomizer(randomizer)),
            RulesArg::Nes => bail!("the nes rule set is the engine, not a classic game"),
        })
    }

    /// One tick of real time: qbasic runs a frame (input, then gravity); relaytris, which
    /// waits for the player, applies the input. Returns whether gravity acted.
    pub fn tick(&mut self, input: Option<Move>) -> bool {
        match self {
            Classic::Qbasic(g) => g.step_frame(input).gravity,
            Classic::Relaytris(g) => {
                if let Some(mv) = input {
                    g.apply_move(mv);
                }
                false
            }
        }
    }
}

impl ClassicGame for Classic {
    fn name(&self) -> &'static str {
        with_game!(self, g => g.name())
    }
    fn board(&self) -> &Board {
        with_game!(self, g => g.board())
    }
    fn allowed_moves(&self) -> &'static [Move] {
        with_game!(self, g => g.allowed_moves())
    }
    fn current(&self) -> Option<ActivePiece> {
        with_game!(self, g => g.current())
    }
    fn current_cells(&self) -> Option<[Cell; 4]> {
        with_game!(self, g => g.current_cells())
    }
    fn piece_cells(&self, piece: Piece, rotation: u8, x: i32, y: i32) -> Option<[Cell; 4]> {
        with_game!(self, g => g.piece_cells(piece, rotation, x, y))
    }
    fn next_piece(&self) -> Piece {
        with_game!(self, g => g.next_piece())
    }
    fn apply_move(&mut self, mv: Move) -> bool {
        with_game!(self, g => g.apply_move(mv))
    }
    fn drop_and_lock(&mut self) -> Result<LockResult, GameError> {
        with_game!(self, g => g.drop_and_lock())
    }
    fn lines_cleared(&self) -> u32 {
        with_game!(self, g => g.lines_cleared())
    }
    fn score(&self) -> u64 {
        with_game!(self, g => g.score())
    }
    fn pieces_locked(&self) -> u32 {
        with_game!(self, g => g.pieces_locked())
    }
    fn placements(&self) -> Vec<Placement> {
        with_game!(self, g => g.placements())
    }
    fn apply_placement(&mut self, placement: &Placement) -> Result<LockResult, GameError> {
        with_game!(self, g => g.apply_placement(placement))
    }
}

// ---------------------------------------------------------------------------------------------
// Headless
// ---------------------------------------------------------------------------------------------

/// One finished headless game.
#[derive(Debug, Clone, Default)]
pub struct ClassicResult {
    /// Game index.
    pub index: u64,
    /// Score (one point per line in both rule sets).
    pub score: u64,
    /// Lines.
    pub lines: u32,
    /// Pieces locked.
    pub pieces: u32,
    /// Four-line clears.
    pub tetrises: u32,
    /// Whether the game topped out (rather than reaching a cap).
    pub topped_out: bool,
    /// Decision times.
    pub decisions: DecisionTimes,
}

impl CsvRow for ClassicResult {
    const COLUMNS: &'static str =
        "game,score,lines,pieces,tetrises,topped_out,decisions,decision_ns,decision_hist";

    fn index(&self) -> u64 {
        self.index
    }

    fn score(&self) -> f64 {
        self.score as f64
    }

    fn to_line(&self) -> String {
        format!(
            "{},{},{},{},{},{},{}",
            self.index,
            self.score,
            self.lines,
            self.pieces,
            self.tetrises,
            self.topped_out,
            self.decisions.csv_fields()
        )
    }

    fn parse(f: &[&str]) -> Result<ClassicResult, String> {
        Ok(ClassicResult {
            index: parse_num(f[0], "game")?,
            score: parse_num(f[1], "score")?,
            lines: parse_num(f[2], "lines")?,
            pieces: parse_num(f[3], "pieces")?,
            tetrises: parse_num(f[4], "tetrises")?,
            topped_out: parse_bool(f[5], "topped_out")?,
            decisions: DecisionTimes::parse(f[6], f[7], f[8])?,
        })
    }
}

/// Plays `game` with the AI until it tops out or reaches `line_cap` lines (0: no cap) or
/// `piece_cap` pieces (0: no cap); `None` when `stop` is raised first.
pub fn play_headless(
    mut game: Classic,
    eval: &Evaluator,
    index: u64,
    line_cap: u32,
    piece_cap: u32,
    stop: &AtomicBool,
) -> Option<ClassicResult> {
    let mut r = ClassicResult {
        index,
        ..ClassicResult::default()
    };
    while !game.is_game_over() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if (line_cap > 0 && game.lines_cleared() >= line_cap)
            || (piece_cap > 0 && game.pieces_locked() >= piece_cap)
        {
            break;
        }
        let started = Instant::now();
        let Some(p) = classic_ai::choose(&game, eval) else {
            break;
        };
        r.decisions.record(started.elapsed());
        match game.apply_placement(&p) {
            Ok(lock) => {
                if lock.lines >= 4 {
                    r.tetrises += 1;
                }
            }
            Err(_) => break,
        }
    }
    r.topped_out = game.is_game_over();
    r.score = game.score();
    r.lines = game.lines_cleared();
    r.pieces = game.pieces_locked();
    Some(r)
}

fn evaluator(ai: &AiOptions) -> anyhow::Result<Evaluator> {
    Ok(Evaluator::new(ai.config()?.weights))
}

/// `nestris bench` for a classic rule set: the report of `bench` with the keys that apply
/// (no level, type, timing or level-based keys), plus `rules`, `randomizer` and `pieces`.
pub fn bench_classic(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let rules = &args.rules;
    let eval = evaluator(&args.ai)?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let randomizers = match rules.game_randomizers(args.game.seed)? {
        Some(mut g) => g.take(args.games),
        None => bail!("the nes randomizer needs --rules nes"),
    };
    let run = crate::bench::run_games(args, |i, stop| {
        let game = Classic::new(rules.rules, randomizers[i as usize].clone()).ok()?;
        play_headless(game, &eval, i, args.line_cap, 0, stop)
    })?;
    let mut v = classic_report(&run.results, args, run.wall);
    run.annotate(&mut v, args);
    crate::bench::emit(&v, args.json, print_classic_table, run.interrupted)
}

/// `bench`'s report over classic games: its keys where they apply.
pub fn classic_report(
    results: &[ClassicResult],
    args: &BenchArgs,
    wall: Duration,
) -> serde_json::Value {
    let as_bench: Vec<GameResult> = results
        .iter()
        .map(|r| GameResult {
            index: r.index,
            score: r.score,
            capped_score: r.score,
            lines: r.lines,
            pieces: r.pieces,
            tetrises: r.tetrises,
            tetris_lines: r.tetrises * 4,
            before: [r.score; 3],
            decisions: r.decisions.clone(),
            ..GameResult::default()
        })
        .collect();
    let mut v = crate::bench::report(&as_bench, args, wall);
    if let Some(map) = v.as_object_mut() {
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
        let mut pct = serde_json::Map::new();
        for p in [1, 5, 10, 25, 50, 75, 90, 95, 99] {
            pct.insert(
                p.to_string(),
                serde_json::json!(percentile(&lines, p as f64).round()),
            );
        }
        let pieces: f64 = results.iter().map(|r| r.pieces as f64).sum::<f64>() / n;
        let topped = results.iter().filter(|r| r.topped_out).count() as f64 / n;
        map.insert("rules".into(), args.rules.rules_name().into());
        map.insert(
            "randomizer".into(),
            args.rules.randomizer_spec().to_string().into(),
        );
        map.insert("departure".into(), args.rules.is_departure().into());
        map.insert("lines_percentiles".into(), pct.into());
        map.insert("mean_pieces".into(), pieces.into());
        map.insert("topped_out_rate".into(), topped.into());
    }
    v
}

fn print_classic_table(v: &serde_json::Value) {
    let f = |k: &str| v[k].as_f64().unwrap_or(0.0);
    let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
    println!("games              {}", v["games"]);
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
    crate::bench::print_score_lines(v, "; one point per line");
    println!(
        "pieces             mean {:.1}; topped out {:.1}% (the rest reached the line cap)",
        f("mean_pieces"),
        100.0 * f("topped_out_rate")
    );
    println!("tetris rate        {:.1}%", 100.0 * f("tetris_rate"));
    println!(
        "decisions          {} at {:.0}/s per core; median {:.2} ms, p99 {:.2} ms",
        v["decisions"],
        f("decisions_per_second"),
        f("decision_ms_median"),
        f("decision_ms_p99")
    );
    crate::bench::print_wall(v);
}

// ---------------------------------------------------------------------------------------------
// On screen
// ---------------------------------------------------------------------------------------------

/// Ticks per second on screen (qbasic frames; relaytris ticks).
const TICKS_PER_SECOND: f64 = 60.0;

/// Parses a speed: 1, 2, 4, ... 256 (ticks per real tick) or max.
fn parse_speed(s: &str) -> anyhow::Result<u32> {
    let t = s.trim().trim_end_matches(['x', 'X']);
    if t.eq_ignore_ascii_case("max") {
        return Ok(0);
    }
    match t.parse::<u32>() {
        Ok(n) if n >= 1 && n.is_power_of_two() && n <= 256 => Ok(n),
        _ => bail!("bad speed {s:?}: use 1, 2, 4, 8, ... 256 or max"),
    }
}

fn speed_label(speed: u32) -> String {
    if speed == 0 {
        "max".into()
    } else {
        format!("{speed}x")
    }
}

/// The AI's pilot on screen: one input every few ticks towards the chosen cells.
#[derive(Debug, Default)]
struct Pilot {
    plan: VecDeque<Move>,
    target: Option<[Cell; 4]>,
    /// Gravity moved the piece since the plan was made.
    moved: bool,
    pieces_seen: u32,
    last_ms: f64,
    last_cost: f64,
}

impl Pilot {
    /// The next input for `game`.
    fn input(&mut self, game: &Classic, eval: &Evaluator) -> Option<Move> {
        game.current()?;
        let new_piece = self.pieces_seen != game.pieces_locked() || self.target.is_none();
        if new_piece || self.plan.is_empty() {
            self.moved = false;
            self.pieces_seen = game.pieces_locked();
            let started = Instant::now();
            let (p, cost) = classic_ai::choose_with_cost(game, eval)?;
            self.last_ms = started.elapsed().as_secs_f64() * 1000.0;
            self.last_cost = cost;
            self.target = Some(p.cells);
            self.plan = p.moves.into();
        } else if self.moved {
            // Gravity moved the piece: find a path from here to the same cells, or choose anew.
            self.moved = false;
            let target = self.target;
            let found = game
                .placements()
                .into_iter()
                .find(|p| Some(p.cells) == target);
            match found {
                Some(p) => self.plan = p.moves.into(),
                None => {
                    let (p, _) = classic_ai::choose_with_cost(game, eval)?;
                    self.target = Some(p.cells);
                    self.plan = p.moves.into();
                }
            }
        }
        self.plan.pop_front()
    }

    /// After each tick: whether gravity acted in it.
    fn after(&mut self, gravity: bool) {
        self.moved |= gravity;
    }
}

/// What the screen shows beside the board.
struct Panel {
    title: String,
    lines: Vec<Line<'static>>,
}

fn board_lines(game: &Classic) -> Vec<Line<'static>> {
    let falling: Vec<Cell> = game.current_cells().map(|c| c.to_vec()).unwrap_or_default();
    let mut out = Vec::new();
    for y in 0..game.height() as i32 {
        let mut spans = Vec::new();
        for x in 0..game.width() as i32 {
            let is_falling = falling.contains(&(x, y));
            let filled = is_falling || game.is_filled(x, y);
            let span = match game {
                // The serial console's characters, one per cell.
                Classic::Relaytris(_) => {
                    Span::raw(if filled { "#" } else { "~" }).style(if is_falling {
                        Style::default().add_modifier(Modifier::BOLD)
                    } else {
                        Style::default()
                    })
                }
                Classic::Qbasic(_) => {
                    if filled {
                        Span::styled(
                            "██",
                            Style::default().fg(if is_falling {
                                Color::Yellow
                            } else {
                                Color::Cyan
                            }),
                        )
                    } else {
                        Span::styled(" .", Style::default().fg(Color::DarkGray))
                    }
                }
            };
            spans.push(span);
        }
        out.push(Line::from(spans));
    }
    out
}

/// The next piece, drawn in its spawn rotation.
fn piece_lines(game: &Classic, piece: Piece) -> Vec<Line<'static>> {
    let Some(cells) = game.piece_cells(piece, 0, 0, 0) else {
        return Vec::new();
    };
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let max_x = cells.iter().map(|c| c.0).max().unwrap_or(0);
    let max_y = cells.iter().map(|c| c.1).max().unwrap_or(0);
    let (on, off) = match game {
        Classic::Relaytris(_) => ("#", "~"),
        Classic::Qbasic(_) => ("██", "  "),
    };
    (min_y..=max_y)
        .map(|y| {
            let s: String = (min_x..=max_x)
                .map(|x| if cells.contains(&(x, y)) { on } else { off })
                .collect();
            Line::from(format!("  {s}"))
        })
        .collect()
}

fn draw(tui: &mut crate::tui::term::Tui, game: &Classic, panel: &Panel) -> anyhow::Result<()> {
    tui.terminal.draw(|f| render(f, game, panel))?;
    Ok(())
}

/// The board on the left, the counters, next piece and `panel` on the right.
fn render(f: &mut ratatui::Frame, game: &Classic, panel: &Panel) {
    let board = board_lines(game);
    let cell_w: u16 = match game {
        Classic::Relaytris(_) => 1,
        Classic::Qbasic(_) => 2,
    };
    let board_w = game.width() as u16 * cell_w + 2;
    let board_h = game.height() as u16 + 2;
    let mut side = vec![
        Line::from(format!("score   {}", game.score())),
        Line::from(format!("lines   {}", game.lines_cleared())),
        Line::from(format!("pieces  {}", game.pieces_locked())),
        Line::from(""),
        Line::from(format!("next    {}", game.next_piece())),
    ];
    side.extend(piece_lines(game, game.next_piece()));
    side.push(Line::from(""));
    side.extend(panel.lines.iter().cloned());
    let area = f.area();
    if area.width < board_w + 20 || area.height < board_h {
        f.render_widget(
            Paragraph::new(format!(
                "terminal too small: need {}x{}",
                board_w + 20,
                board_h
            )),
            area,
        );
        return;
    }
    let [left, right] =
        Layout::horizontal([Constraint::Length(board_w), Constraint::Min(20)]).areas(area);
    let [left, _] = Layout::vertical([Constraint::Length(board_h), Constraint::Min(0)]).areas(left);
    f.render_widget(
        Paragraph::new(board).block(Block::default().borders(Borders::ALL).title(game.name())),
        left,
    );
    f.render_widget(
        Paragraph::new(side).block(
            Block::default()
                .borders(Borders::ALL)
                .title(panel.title.clone()),
        ),
        right,
    );
}

fn is_quit(k: &KeyEvent) -> bool {
    matches!(
        k.code,
        KeyCode::Char('q') | KeyCode::Char('Q') | KeyCode::Esc
    ) || (k.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(k.code, KeyCode::Char('c') | KeyCode::Char('C')))
}

/// Key presses (and repeats) that arrived within `timeout`.
fn keys(timeout: Duration) -> anyhow::Result<Vec<KeyEvent>> {
    let mut out = Vec::new();
    if event::poll(timeout)? {
        while event::poll(Duration::ZERO)? {
            if let Event::Key(k) = event::read()? {
                if k.kind != KeyEventKind::Release {
                    out.push(k);
                }
            }
        }
    }
    Ok(out)
}

fn check_classic(rules: &RulesOptions, game: &GameOptions) -> anyhow::Result<()> {
    if rules.rules == RulesArg::Nes {
        bail!("--rules nes is the engine's game; classic_run handles relaytris and qbasic");
    }
    rules.validate()?;
    if game.height > 0 || game.game_type != crate::options::TypeArg::A {
        bail!("--type and --height apply to --rules nes only");
    }
    Ok(())
}

/// `nestris watch --rules relaytris|qbasic`: the AI plays; headless (one line per game:
/// `game N: score S lines L pieces P`, games end at [`HEADLESS_LINE_CAP`] lines) or on
/// screen (keys: + faster, - slower, space pause, q quit; games follow each other).
pub fn watch_classic(
    rules: &RulesOptions,
    game_opts: &GameOptions,
    ai: &AiOptions,
    games: u64,
    headless: bool,
    speed: &str,
) -> anyhow::Result<ExitCode> {
    check_classic(rules, game_opts)?;
    let eval = evaluator(ai)?;
    let mut speed = parse_speed(speed)?;
    let Some(mut randomizers) = rules.game_randomizers(game_opts.seed)? else {
        bail!("the nes randomizer needs --rules nes");
    };
    if headless || !std::io::stdout().is_terminal() {
        let stop = Arc::new(AtomicBool::new(false));
        {
            let stop = stop.clone();
            let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
        }
        for index in 0..games {
            let game = Classic::new(rules.rules, randomizers.next_game())?;
            let Some(r) = play_headless(game, &eval, index, HEADLESS_LINE_CAP, 0, &stop) else {
                return Ok(ExitCode::from(130));
            };
            println!(
                "game {}: score {} lines {} pieces {}",
                index + 1,
                r.score,
                r.lines,
                r.pieces
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut tui = crate::tui::term::Tui::enter(false)?;
    let tick = Duration::from_secs_f64(1.0 / TICKS_PER_SECOND);
    // Ticks between the AI's inputs: 10 moves a second for relaytris, 20 for qbasic.
    let every = match rules.rules {
        RulesArg::Qbasic => 3,
        _ => 6,
    };
    for index in 0.. {
        let mut game = Classic::new(rules.rules, randomizers.next_game())?;
        let mut pilot = Pilot::default();
        let mut ticks: u64 = 0;
        let mut paused = false;
        let mut over_at: Option<Instant> = None;
        let mut deadline = Instant::now();
        loop {
            let panel = Panel {
                title: format!("watch: game {}", index + 1),
                lines: vec![
                    Line::from(rules.randomizer_label()),
                    Line::from(format!("AI: {}", ai.label())),
                    Line::from(format!(
                        "last decision {:.1} ms, cost {:.0}",
                        pilot.last_ms, pilot.last_cost
                    )),
                    Line::from(format!(
                        "speed {}{}",
                        speed_label(speed),
                        if paused { " (paused)" } else { "" }
                    )),
                    Line::from(""),
                    Line::from(if game.is_game_over() {
                        "GAME OVER".to_string()
                    } else {
                        String::new()
                    }),
                    Line::from("+ faster  - slower  space pause  q quit"),
                ],
            };
            draw(&mut tui, &game, &panel)?;
            let now = Instant::now();
            let wait = deadline.saturating_duration_since(now);
            for k in keys(wait)? {
                if is_quit(&k) {
                    return Ok(ExitCode::SUCCESS);
                }
                match k.code {
                    KeyCode::Char('+') | KeyCode::Char('=') => {
                        speed = if speed == 0 { 0 } else { (speed * 2).min(256) }
                    }
                    KeyCode::Char('-') => speed = if speed == 0 { 256 } else { (speed / 2).max(1) },
                    KeyCode::Char(' ') => paused = !paused,
                    _ => {}
                }
            }
            if Instant::now() < deadline {
                continue;
            }
            deadline = Instant::now() + tick;
            if paused {
                continue;
            }
            if game.is_game_over() {
                let at = *over_at.get_or_insert_with(Instant::now);
                if at.elapsed() >= Duration::from_secs(3) {
                    break;
                }
                continue;
            }
            // Run this many ticks per real tick (max: as many as fit in one tick's time).
            let budget = Instant::now() + tick;
            let mut n = 0u32;
            loop {
                let input = if ticks % every == 0 {
                    pilot.input(&game, &eval)
                } else {
                    None
                };
                let gravity = game.tick(input);
                pilot.after(gravity);
                ticks += 1;
                n += 1;
                let done = if speed == 0 {
                    Instant::now() >= budget
                } else {
                    n >= speed
                };
                if done || game.is_game_over() {
                    break;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `nestris play --rules relaytris|qbasic`: the keyboard plays. Keys: left/right arrows move,
/// down arrow moves down (locks against the stack), z rotates left and x (or up) right, space
/// hard-drops (relaytris only; qbasic has no hard drop and only rotates right), q or Esc
/// quits, Enter starts a new game after a game over. Relaytris waits for each key; qbasic's
/// gravity moves the piece down once a second.
pub fn play_classic(
    rules: &RulesOptions,
    game_opts: &GameOptions,
    ai: &AiOptions,
) -> anyhow::Result<ExitCode> {
    check_classic(rules, game_opts)?;
    if !std::io::stdout().is_terminal() {
        bail!("nestris play needs a terminal");
    }
    let eval = evaluator(ai)?;
    let Some(mut randomizers) = rules.game_randomizers(game_opts.seed)? else {
        bail!("the nes randomizer needs --rules nes");
    };
    let mut tui = crate::tui::term::Tui::enter(false)?;
    let tick = Duration::from_secs_f64(1.0 / TICKS_PER_SECOND);
    let mut best = 0u64;
    for index in 0.. {
        let mut game = Classic::new(rules.rules, randomizers.next_game())?;
        let mut deadline = Instant::now() + tick;
        let mut hint: Option<String> = None;
        // Qbasic: keys wait for the next frame, one input per frame.
        let mut queued: VecDeque<Move> = VecDeque::new();
        loop {
            best = best.max(game.score());
            let mut lines = vec![
                Line::from(rules.randomizer_label()),
                Line::from(format!("best    {best}")),
                Line::from(""),
            ];
            if game.is_game_over() {
                lines.push(Line::from("GAME OVER: Enter new game, q quit"));
            }
            if let Some(h) = &hint {
                lines.push(Line::from(format!("hint: {h}")));
            }
            lines.push(Line::from(match game {
                Classic::Relaytris(_) => "arrows move, z/x rotate, space drop, h hint, q quit",
                Classic::Qbasic(_) => "arrows move, x/up rotate, h hint, q quit",
            }));
            let panel = Panel {
                title: format!("play: game {}", index + 1),
                lines,
            };
            draw(&mut tui, &game, &panel)?;
            let wait = deadline.saturating_duration_since(Instant::now());
            let mut new_game = false;
            for k in keys(wait)? {
                if is_quit(&k) {
                    return Ok(ExitCode::SUCCESS);
                }
                let mv = match k.code {
                    KeyCode::Left => Some(Move::Left),
                    KeyCode::Right => Some(Move::Right),
                    KeyCode::Down => Some(Move::Down),
                    KeyCode::Up | KeyCode::Char('x') | KeyCode::Char('X') => Some(Move::RotateCw),
                    KeyCode::Char('z') | KeyCode::Char('Z') => Some(Move::RotateCcw),
                    KeyCode::Char(' ') => Some(Move::HardDrop),
                    KeyCode::Char('h') | KeyCode::Char('H') => {
                        hint = classic_ai::choose(&game, &eval).map(|p| {
                            format!(
                                "{} (moves {})",
                                p.cells
                                    .iter()
                                    .map(|(x, y)| format!("{x},{y}"))
                                    .collect::<Vec<_>>()
                                    .join(" "),
                                p.moves.iter().map(|m| m.letter()).collect::<String>()
                            )
                        });
                        None
                    }
                    KeyCode::Enter if game.is_game_over() => {
                        new_game = true;
                        None
                    }
                    _ => None,
                };
                if let Some(mv) = mv {
                    match &mut game {
                        // Relaytris waits for the player: every key is a move.
                        Classic::Relaytris(g) => {
                            if g.apply_move(mv) {
                                hint = None;
                            }
                        }
                        Classic::Qbasic(_) => queued.push_back(mv),
                    }
                }
            }
            if new_game {
                break;
            }
            if Instant::now() >= deadline {
                deadline += tick;
                if Instant::now() > deadline + tick * 10 {
                    deadline = Instant::now() + tick;
                }
                if let Classic::Qbasic(g) = &mut game {
                    let out = g.step_frame(queued.pop_front());
                    if out.lock.is_some() {
                        hint = None;
                        queued.clear();
                    }
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_classic::randomizer::Cycle;

    #[test]
    fn headless_relaytris_reaches_the_cap() {
        let eval = Evaluator::new(nestris_ai::Weights::default());
        let game = Classic::new(RulesArg::Relaytris, AnyRandomizer::Cycle(Cycle::new()))
            .unwrap_or_else(|e| panic!("{e}"));
        let stop = AtomicBool::new(false);
        let r = play_headless(game, &eval, 0, 0, 100, &stop).expect("not stopped");
        assert_eq!(r.pieces, 100);
        assert_eq!(r.score, r.lines as u64);
        assert_eq!(r.decisions.count, 100);
    }

    #[test]
    fn pilot_follows_gravity_in_qbasic() {
        // A fixed preset, so the test does not move with the default's tuning.
        let eval = Evaluator::new(nestris_ai::Weights::meatfighter_2014());
        let mut game = Classic::new(
            RulesArg::Qbasic,
            AnyRandomizer::Uniform(nestris_classic::randomizer::Uniform::new(5)),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        if let Classic::Qbasic(g) = &mut game {
            // Fast gravity so that it interrupts the plans.
            g.set_gravity_every(4);
        }
        let mut pilot = Pilot::default();
        for t in 0..4000u32 {
            if game.is_game_over() {
                break;
            }
            let input = if t % 3 == 0 {
                pilot.input(&game, &eval)
            } else {
                None
            };
            let gravity = game.tick(input);
            pilot.after(gravity);
        }
        assert!(game.lines_cleared() >= 20, "{}", game.lines_cleared());
    }

    fn screen(game: &Classic) -> String {
        let backend = ratatui::backend::TestBackend::new(64, 24);
        let mut term = ratatui::Terminal::new(backend).unwrap_or_else(|e| panic!("{e}"));
        let panel = Panel {
            title: "watch".into(),
            lines: vec![Line::from("randomizer: cycle")],
        };
        term.draw(|f| render(f, game, &panel))
            .unwrap_or_else(|e| panic!("{e}"));
        let buf = term.backend().buffer().clone();
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
                    + "\n"
            })
            .collect()
    }

    #[test]
    fn screens_show_the_boards() {
        let relay = Classic::new(RulesArg::Relaytris, AnyRandomizer::Cycle(Cycle::new()))
            .unwrap_or_else(|e| panic!("{e}"));
        let text = screen(&relay);
        // The I spawns flat in the second row: `~~~####~~~`.
        assert!(text.contains("│~~~~~~~~~~│"), "{text}");
        assert!(text.contains("│~~~####~~~│"), "{text}");
        assert!(text.contains("next    O"), "{text}");
        assert!(text.contains("randomizer: cycle"), "{text}");
        let q = Classic::new(
            RulesArg::Qbasic,
            AnyRandomizer::Uniform(nestris_classic::randomizer::Uniform::new(0)),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let text = screen(&q);
        assert!(text.contains("██"), "{text}");
        assert!(text.contains("qbasic"), "{text}");
        assert_eq!(text.matches(" . . . . . . . . . .").count(), 16, "{text}");
    }
}
