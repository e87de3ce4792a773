//! `nestris watch`: the AI plays, on screen (speed keys, a panel with its decisions) or
//! headless when stdout is not a terminal (one line per game).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use crossterm::event::{self, Event, KeyCode, KeyEventKind};
use nestris_ai::{Ai, Evaluator};
use nestris_session::classic::{ClassicAi, ClassicRun, HEADLESS_LINE_CAP};
use nestris_session::nes::{Nes, NesAi};
use nestris_session::{Player, Rules};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::options::{AiOptions, GameOptions};
use crate::tui::session::{plan_string, Playback, Run, Shown, Speed};
use crate::tui::term::Tui;
use crate::tui::view::Hud;
use nestris_session::replayfile::{numbered_path, Meta, Source};

/// Watch the AI play.
#[derive(Debug, Clone, clap::Args)]
pub struct WatchArgs {
    #[command(flatten)]
    pub game: GameOptions,
    #[command(flatten)]
    pub ai: AiOptions,
    #[command(flatten)]
    pub rules: crate::options::RulesOptions,
    /// Number of games to play when headless (stdout not a terminal, or --headless); on
    /// screen, games follow each other until you quit.
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// Record the games: the first to FILE, game N to FILE-N.ext (see `nestris replay`).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Starting speed on screen: 1 (real time, 60.0988 frames/s), 2, 4, 8, ... or max.
    #[arg(long, default_value = "1")]
    pub speed: String,
    /// Play headless even when stdout is a terminal.
    #[arg(long)]
    pub headless: bool,
    /// End a game after this many frames (ticks in the classic rule sets; 0: no limit).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub max_frames: u64,
}

/// Parses a speed option (`1`, `8`, `8x`, `max`).
pub fn parse_speed(s: &str) -> anyhow::Result<Speed> {
    let t = s.trim().trim_end_matches(['x', 'X']);
    if t.eq_ignore_ascii_case("max") || t.eq_ignore_ascii_case("ma") {
        return Ok(Speed::Max);
    }
    match t.parse::<u32>() {
        Ok(n) if n >= 1 && n.is_power_of_two() && n <= 256 => Ok(Speed::Times(n)),
        _ => bail!("bad speed {s:?}: use 1, 2, 4, 8, ... 256 or max"),
    }
}

fn meta(args: &WatchArgs, index: u64) -> Meta {
    Meta {
        source: Source::Ai,
        seed: args.game.seed,
        game_index: index,
        reaction: args.ai.reaction,
        hz: args.ai.hz.clone(),
        preset: args.ai.label(),
    }
}

/// Runs the command.
pub fn run(args: &WatchArgs) -> anyhow::Result<ExitCode> {
    crate::options::check_games_at_most(args.games, crate::options::MAX_BENCH_GAMES)?;
    args.game.check_rules(&args.rules)?;
    args.game.validate()?;
    let rules = args.rules.rules();
    if args.record.is_some() && args.game.position.is_some() {
        bail!("--record: a game started from a position would not replay (recordings start games at the menu)");
    }
    if args.record.is_some() && args.rules.is_departure() && rules == Rules::Nes {
        bail!("--record: a game with another randomizer ({}) would not replay on the original's picker", args.rules.randomizer_label());
    }
    let cfg = args.ai.config()?;
    let speed = parse_speed(&args.speed)?;
    let headless = args.headless || !std::io::stdout().is_terminal();
    let mut randomizers = args.rules.game_randomizers(args.game.seed)?;
    match rules {
        Rules::Nes => {
            let new_game = |index: u64| -> anyhow::Result<(Run<Nes>, NesAi)> {
                let start = args.game.start_config(index);
                let mut run = Run::with_rules(&args.game, index, &mut randomizers);
                if let Some(path) = &args.record {
                    run.record(&numbered_path(path, index), start, meta(args, index))?;
                }
                Ok((run, NesAi(Ai::new(cfg.clone()))))
            };
            if headless {
                watch_headless(args, new_game, 0)
            } else {
                on_screen(args, new_game, speed)
            }
        }
        rules => {
            let Some(mut randomizers) = randomizers else {
                bail!("the nes randomizer needs --rules nes");
            };
            let eval = Evaluator::new(cfg.weights.clone());
            let new_game = |index: u64| -> anyhow::Result<(Run<ClassicRun>, ClassicAi)> {
                let game = ClassicRun::new(rules, randomizers.next_game())
                    .context("a classic rule set")?;
                let mut run = Run::new(game, index);
                if let Some(path) = &args.record {
                    run.record(&numbered_path(path, index), meta(args, index))?;
                }
                Ok((run, ClassicAi::new(eval.clone())))
            };
            if headless {
                watch_headless(args, new_game, HEADLESS_LINE_CAP)
            } else {
                on_screen(args, new_game, speed)
            }
        }
    }
}

/// Headless: one line per game; games end at `line_cap` lines (0: none) or `--max-frames`.
fn watch_headless<G: Shown, P: Player<G>>(
    args: &WatchArgs,
    mut new_game: impl FnMut(u64) -> anyhow::Result<(Run<G>, P)>,
    line_cap: u32,
) -> anyhow::Result<ExitCode> {
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // Ctrl-C: finish the current frame, save the recording, stop.
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    }
    for index in 0..args.games {
        let (mut run, mut player) = new_game(index)?;
        while !run.game.ended() {
            if stop.load(Ordering::SeqCst) {
                run.save_recording()?;
                eprintln!(
                    "game {}: interrupted at frame {} (score {} lines {})",
                    index + 1,
                    run.frames,
                    run.game.shown_score(),
                    run.game.lines_shown()
                );
                return Ok(ExitCode::from(130));
            }
            if args.max_frames > 0 && run.frames >= args.max_frames {
                break;
            }
            if line_cap > 0 && run.game.lines() >= line_cap {
                break;
            }
            let input = if run.game.over() {
                run.leave_input()
            } else {
                player.input(&run.game)
            };
            let tick = run.step(input);
            player.after(&tick);
        }
        run.save_recording()?;
        println!("game {}: {}", index + 1, run.game.summary(run.frames));
    }
    Ok(ExitCode::SUCCESS)
}

/// Decision statistics for the panel.
#[derive(Debug, Default)]
struct DecisionStats {
    seen: u64,
    count: u32,
    total: Duration,
    max: Duration,
}

impl DecisionStats {
    fn observe<G>(&mut self, player: &impl Player<G>) {
        if player.decisions() == self.seen {
            return;
        }
        self.seen = player.decisions();
        if let Some(d) = player.last_elapsed() {
            self.count += 1;
            self.total += d;
            self.max = self.max.max(d);
        }
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn panel<G: Shown>(
    args: &WatchArgs,
    run: &Run<G>,
    player: &impl Player<G>,
    stats: &DecisionStats,
    speed: Speed,
    paused: bool,
) -> Vec<Line<'static>> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let nes = run.game.rules() == Rules::Nes;
    let mut l = vec![Line::from(vec![
        Span::styled("AI ", bold),
        Span::raw(args.ai.label()),
    ])];
    if nes {
        l.push(Line::from(format!(
            "{} Hz · reaction {}",
            args.ai.hz, args.ai.reaction
        )));
    }
    l.push(Line::from(format!(
        "game {} · seed {}",
        run.index + 1,
        args.game.seed
    )));
    if args.rules.is_departure() || !nes {
        l.push(Line::from(args.rules.randomizer_label()));
    }
    l.extend(run.game.departure_lines());
    l.push(Line::default());
    match player.last_decision() {
        Some(d) => {
            l.push(Line::from(vec![
                Span::styled("target ", bold),
                Span::raw(d.target),
            ]));
            l.push(Line::from(vec![
                Span::styled("eval   ", bold),
                Span::raw(format!("{:.2}", d.cost)),
            ]));
            l.push(Line::from(vec![
                Span::styled("plan   ", bold),
                Span::raw(plan_string(&d.plan, 24)),
            ]));
            l.push(Line::from(vec![
                Span::styled("decide ", bold),
                Span::raw(ms(d.elapsed)),
            ]));
        }
        None => l.push(Line::from("no decision yet")),
    }
    if stats.count > 0 {
        l.push(Line::from(format!(
            "  avg {} max {}",
            ms(stats.total / stats.count),
            ms(stats.max)
        )));
    }
    l.push(Line::default());
    l.extend(run.rate_lines());
    l.push(Line::from(format!(
        "clears {} {} {} {}",
        run.clears[1], run.clears[2], run.clears[3], run.clears[4]
    )));
    if run.game.score() > 999_999 && nes {
        l.push(Line::from(format!("true score {}", run.game.score())));
    }
    let secs = run.frames as f64 / crate::tui::FPS;
    l.push(Line::from(format!(
        "frame {} ({}:{:02})",
        run.frames,
        (secs / 60.0) as u64,
        secs as u64 % 60
    )));
    l.push(Line::default());
    l.push(Line::from(vec![
        Span::styled("speed ", bold),
        Span::raw(speed.label()),
        Span::styled(if paused { "  PAUSED" } else { "" }, bold),
    ]));
    if let Some(r) = &run.recorder {
        l.push(Line::from(format!("rec {}", r.path().display())));
        if let Some(e) = r.error() {
            l.push(Line::from(format!("rec error: {e}")));
        }
    }
    l
}

fn status() -> Line<'static> {
    Line::from(" q quit · space pause · . step · 1 real time · +/- speed · m max · n next game")
}

fn on_screen<G: Shown, P: Player<G>>(
    args: &WatchArgs,
    mut new_game: impl FnMut(u64) -> anyhow::Result<(Run<G>, P)>,
    speed0: Speed,
) -> anyhow::Result<ExitCode> {
    let mut tui = Tui::enter(false)?;
    let mut playback = Playback::new(speed0);
    let mut index = 0u64;
    let mut top = 0u64;
    let (mut run, mut player) = new_game(index)?;
    let mut stats = DecisionStats::default();
    let mut last_draw = Instant::now() - Duration::from_secs(1);
    loop {
        // Input.
        let timeout = playback.poll_timeout();
        let mut skip = false;
        if event::poll(timeout).context("cannot read the terminal")? {
            while event::poll(Duration::ZERO)? {
                let ev = event::read()?;
                let Event::Key(k) = ev else { continue };
                if k.kind == KeyEventKind::Release {
                    continue;
                }
                if crate::tui::keys::is_ctrl_c(&k) {
                    run.save_recording()?;
                    return Ok(ExitCode::SUCCESS);
                }
                if run.game.ended() {
                    skip = true;
                }
                match k.code {
                    KeyCode::Char('q') | KeyCode::Esc => {
                        run.save_recording()?;
                        return Ok(ExitCode::SUCCESS);
                    }
                    code if playback.key(code) => {}
                    KeyCode::Char('n') => skip = true,
                    _ => {}
                }
            }
        }
        if args.max_frames > 0 && run.frames >= args.max_frames && !run.game.ended() {
            // The frame limit ends the game: on to the next one.
            skip = true;
        }
        // Time.
        let step_once = playback.step_once;
        let real = playback.due();
        if run.game.ended() {
            run.ending_tick += real;
            let wait = if run.ending().is_some() {
                crate::tui::endings::TICKS + 120
            } else {
                150
            };
            if skip || run.ending_tick >= wait {
                run.save_recording()?;
                top = run.game.top_score_after(top);
                index += 1;
                (run, player) = new_game(index)?;
                stats = DecisionStats::default();
                playback.reset();
            }
        } else if skip {
            run.save_recording()?;
            index += 1;
            (run, player) = new_game(index)?;
            stats = DecisionStats::default();
        } else {
            let budget_end = Instant::now() + Duration::from_millis(15);
            let frames = playback.frames(real);
            let mut done = 0u64;
            while done < frames && !run.game.ended() {
                if args.max_frames > 0 && run.frames >= args.max_frames {
                    break;
                }
                let input = if run.game.over() {
                    run.leave_input()
                } else {
                    player.input(&run.game)
                };
                let tick = run.step(input);
                player.after(&tick);
                stats.observe(&player);
                done += 1;
                if done.is_multiple_of(64) && Instant::now() >= budget_end {
                    break;
                }
            }
        }
        // Draw (at most ~60 times a second).
        if last_draw.elapsed() >= Duration::from_millis(15) || step_once {
            last_draw = Instant::now();
            let mut hud = Hud {
                top_score: top,
                panel_title: "WATCH".into(),
                panel: panel(args, &run, &player, &stats, playback.speed, playback.paused),
                status: status(),
                ..Hud::default()
            };
            if run.game.ended() {
                if let Some(kind) = run.ending() {
                    hud.ending = Some((kind, run.ending_tick));
                } else {
                    hud.overlay = vec!["GAME OVER".into()];
                }
            }
            tui.terminal
                .draw(|f| G::draw(f, &run, &hud))
                .context("cannot draw")?;
        }
    }
}
