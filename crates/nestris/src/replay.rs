//! `nestris replay`: plays a recording back on screen, checks it headless (`--check`), or
//! prints chosen frames of it as text (`--screen`).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use crossterm::event::{self, Event, KeyCode, KeyEventKind};
use nestris_engine::bcd;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::Terminal;

use crate::tui::session::{input_string, Playback, Run, Shown, Speed};
use crate::tui::term::Tui;
use crate::tui::view::Hud;
use crate::watch::parse_speed;
use nestris_session::classic::ClassicRun;
use nestris_session::replayfile::Replay;

/// Play a recording back.
#[derive(Debug, Clone, clap::Args)]
pub struct ReplayArgs {
    /// The replay file (written by `watch --record` or `play --record`).
    pub file: PathBuf,
    /// Replay without a screen and print `score S (capped) true score T lines L level V frames
    /// F` for the game's end; exit 1 if it differs from the end the file recorded or the game
    /// ends before the file's last frame. This proves that the file's inputs, played from its
    /// start, reach the end it records; the checksum catches damage, not edits (inputs changed
    /// and the checksum recomputed pass if they reach the same end), and the player and AI
    /// fields are not checked.
    #[arg(long)]
    pub check: bool,
    /// Starting speed on screen: 1 (real time), 2, 4, ... 256 or max.
    #[arg(long, default_value = "1")]
    pub speed: String,
    /// Print the screen as text after these frames (comma-separated; a frame past the end
    /// shows the ending that many frames in), then exit. For bug reports and tests.
    #[arg(long, value_name = "FRAMES")]
    pub screen: Option<String>,
    /// Screen size for --screen, as WIDTHxHEIGHT.
    #[arg(long, default_value = "80x24", value_name = "WxH")]
    pub size: String,
}

/// Runs the command.
pub fn run(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let replay = Replay::read(&args.file)?;
    match &replay.classic {
        None => {
            let index = replay.meta.game_index;
            replay_with(args, &replay, || Run::from_game(replay.start_game(), index))
        }
        Some(c) => {
            // Checked when the file was read: a known rule set and pieces.
            let game = ClassicRun::from_recording(c)
                .context("the recording's rule set and pieces make no game")?;
            replay_with(args, &replay, || {
                Run::new(game.clone(), replay.meta.game_index)
            })
        }
    }
}

fn replay_with<G: Shown>(
    args: &ReplayArgs,
    replay: &Replay,
    new_run: impl Fn() -> Run<G>,
) -> anyhow::Result<ExitCode> {
    if args.check {
        return check(replay, new_run());
    }
    if let Some(frames) = &args.screen {
        return screens(args, replay, new_run(), frames);
    }
    if !std::io::stdout().is_terminal() {
        bail!("nestris replay needs a terminal to show the game; use --check to replay headless");
    }
    let speed = parse_speed(&args.speed)?;
    on_screen(args, replay, new_run(), speed)
}

fn check<G: Shown>(replay: &Replay, mut run: Run<G>) -> anyhow::Result<ExitCode> {
    for &b in &replay.inputs {
        if run.game.ended() {
            break;
        }
        run.step(b);
    }
    println!("{}", run.game.check_line(run.frames));
    if (run.frames as usize) < replay.inputs.len() {
        eprintln!(
            "replay diverged: the game ended at frame {}, but the recording holds {} frames",
            run.frames,
            replay.inputs.len()
        );
        return Ok(ExitCode::from(1));
    }
    if let (Some(o), Some(got)) = (replay.outcome, run.game.outcome()) {
        if got != o {
            eprintln!(
                "replay diverged: the recording ended with score {} lines {} level {}, the replay gives score {} lines {} level {}",
                bcd::from_bcd(o.score),
                bcd::lines_value(o.lines),
                o.level,
                bcd::from_bcd(got.score),
                bcd::lines_value(got.lines),
                got.level
            );
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn parse_size(s: &str) -> anyhow::Result<(u16, u16)> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .with_context(|| format!("bad --size {s:?}: expected WIDTHxHEIGHT such as 80x24"))?;
    let w: u16 = w
        .trim()
        .parse()
        .with_context(|| format!("bad width in --size {s:?}"))?;
    let h: u16 = h
        .trim()
        .parse()
        .with_context(|| format!("bad height in --size {s:?}"))?;
    if !(10..=1000).contains(&w) || !(5..=1000).contains(&h) {
        bail!("--size {s:?} is out of range (10x5 to 1000x1000)");
    }
    Ok((w, h))
}

/// The panel of a replay (deterministic: it goes into the text snapshots).
fn panel<G: Shown>(
    replay: &Replay,
    run: &Run<G>,
    speed: Speed,
    paused: bool,
) -> Vec<Line<'static>> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let m = &replay.meta;
    let mut l = vec![Line::from(vec![
        Span::styled("player ", bold),
        Span::raw(m.source.label().to_string()),
    ])];
    if !m.preset.is_empty() || !m.hz.is_empty() {
        l.push(Line::from(format!(
            "{} · {} Hz · r{}",
            m.preset, m.hz, m.reaction
        )));
    }
    l.push(Line::from(format!(
        "seed {} · game {}",
        m.seed,
        m.game_index + 1
    )));
    l.extend(run.game.departure_lines());
    l.push(Line::default());
    l.push(Line::from(vec![
        Span::styled("frame ", bold),
        Span::raw(format!("{} / {}", run.frames, replay.inputs.len())),
    ]));
    let held = run
        .frames
        .checked_sub(1)
        .and_then(|i| replay.inputs.get(i as usize))
        .copied()
        .unwrap_or(0);
    l.push(Line::from(vec![
        Span::styled("input ", bold),
        Span::raw(input_string(held)),
    ]));
    l.push(Line::default());
    l.extend(run.rate_lines());
    l.push(Line::default());
    l.push(Line::from(vec![
        Span::styled("speed ", bold),
        Span::raw(speed.label()),
        Span::styled(if paused { "  PAUSED" } else { "" }, bold),
    ]));
    l
}

fn hud<G: Shown>(replay: &Replay, run: &Run<G>, speed: Speed, paused: bool, end_note: bool) -> Hud {
    let mut hud = Hud {
        top_score: 0,
        panel_title: "REPLAY".into(),
        panel: panel(replay, run, speed, paused),
        status: Line::from(" q quit · space pause · . step · 1 real time · +/- speed · m max"),
        ..Hud::default()
    };
    if run.game.ended() {
        if let Some(kind) = run.ending() {
            hud.ending = Some((kind, run.ending_tick));
        } else {
            hud.overlay = vec!["GAME OVER".into()];
        }
    } else if end_note && run.frames as usize >= replay.inputs.len() {
        hud.overlay = vec!["END OF RECORDING".into()];
    }
    hud
}

/// The buffer as text, one line per row, trailing spaces removed.
pub fn buffer_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            line.push_str(buf[(area.x + x, area.y + y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn screens<G: Shown>(
    args: &ReplayArgs,
    replay: &Replay,
    mut run: Run<G>,
    list: &str,
) -> anyhow::Result<ExitCode> {
    let (w, h) = parse_size(&args.size)?;
    let mut wanted: Vec<u64> = list
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<u64>()
                .with_context(|| format!("bad frame number {s:?} in --screen"))
        })
        .collect::<anyhow::Result<_>>()?;
    wanted.sort_unstable();
    let total = replay.inputs.len() as u64;
    let mut terminal = Terminal::new(TestBackend::new(w, h)).context("test backend")?;
    for n in wanted {
        while run.frames < n.min(total) {
            run.step(replay.inputs[run.frames as usize]);
        }
        if n > total {
            run.ending_tick = (n - total).min(u32::MAX as u64) as u32;
        }
        let hud = hud(replay, &run, Speed::Times(1), false, false);
        terminal.clear()?;
        let frame = terminal.draw(|f| G::draw(f, &run, &hud))?;
        println!("--- frame {n} ---");
        print!("{}", buffer_text(frame.buffer));
    }
    Ok(ExitCode::SUCCESS)
}

fn on_screen<G: Shown>(
    args: &ReplayArgs,
    replay: &Replay,
    mut run: Run<G>,
    speed0: Speed,
) -> anyhow::Result<ExitCode> {
    let _ = args;
    let mut tui = Tui::enter(false)?;
    let mut playback = Playback::new(speed0);
    let total = replay.inputs.len() as u64;
    let mut last_draw = Instant::now() - Duration::from_secs(1);
    loop {
        let timeout = playback.poll_timeout();
        if event::poll(timeout).context("cannot read the terminal")? {
            while event::poll(Duration::ZERO)? {
                let Event::Key(k) = event::read()? else {
                    continue;
                };
                if k.kind == KeyEventKind::Release {
                    continue;
                }
                if crate::tui::keys::is_ctrl_c(&k) {
                    return Ok(ExitCode::SUCCESS);
                }
                if run.game.ended() && run.ending().is_some() && !run.ending_done() {
                    run.ending_tick = crate::tui::endings::TICKS;
                    continue;
                }
                match k.code {
                    KeyCode::Char('q') | KeyCode::Esc => return Ok(ExitCode::SUCCESS),
                    code if playback.key(code) => {}
                    _ => {}
                }
            }
        }
        let step_once = playback.step_once;
        let real = playback.due();
        if run.frames >= total || run.game.ended() {
            if run.game.ended() {
                run.ending_tick = run.ending_tick.saturating_add(real);
            }
        } else {
            let frames = playback.frames(real);
            let budget_end = Instant::now() + Duration::from_millis(15);
            let mut done = 0;
            while done < frames && run.frames < total {
                run.step(replay.inputs[run.frames as usize]);
                done += 1;
                if done % 256 == 0 && Instant::now() >= budget_end {
                    break;
                }
            }
        }
        if last_draw.elapsed() >= Duration::from_millis(15) || step_once {
            last_draw = Instant::now();
            let hud = hud(replay, &run, playback.speed, playback.paused, true);
            tui.terminal
                .draw(|f| G::draw(f, &run, &hud))
                .context("cannot draw")?;
        }
    }
}
