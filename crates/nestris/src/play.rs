//! `nestris play`: a person plays with the keyboard as the controller (DAS as the game has
//! it: the engine sees held buttons frame by frame).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use crossterm::event::{self, Event, KeyEventKind};
use nestris_ai::{Ai, Evaluator};
use nestris_engine::buttons;
use nestris_session::classic::{ClassicAi, ClassicRun};
use nestris_session::nes::Nes;
use nestris_session::Rules;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::options::{AiOptions, GameOptions};
use crate::tui::keys::{self, Action, Held, KeyMap};
use crate::tui::session::{input_string, Pacer, Run, Shown};
use crate::tui::term::Tui;
use crate::tui::view::Hud;
use nestris_session::replayfile::{numbered_path, Meta, Source};

/// Play the game yourself.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = KEYS_HELP)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameOptions,
    #[command(flatten)]
    pub ai: AiOptions,
    #[command(flatten)]
    pub rules: crate::options::RulesOptions,
    /// Key map: `name=key|key,...` replacing the defaults of the actions named, or the path
    /// of a TOML file with `name = "key|key"` lines. Actions: left right down up a b start
    /// select hint quit. Keys: a character, or left right up down enter space tab esc
    /// backspace comma pipe equals.
    #[arg(long, value_name = "MAP|FILE")]
    pub keys: Option<String>,
    /// Record the games: the first to FILE, game N to FILE-N.ext (see `nestris replay`).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

const KEYS_HELP: &str = "Default keys: arrows move (Down drops), x or j = A (rotate right), z or k = B (rotate left), Enter = Start (pause), Space or Tab = Select (hide next), h = AI hint, q or Esc = quit.
Example: nestris play --keys 'left=a,right=d,down=s,a=l,b=k'

Where the terminal reports key releases (kitty keyboard protocol: kitty, WezTerm, foot, Ghostty, recent Alacritty), held keys are held buttons, exactly. Elsewhere a key counts as held while it autorepeats; tapping works as usual, but holding a key starts with one tap and then holds after the terminal's autorepeat delay.";

fn load_keys(spec: Option<&str>) -> anyhow::Result<KeyMap> {
    let Some(spec) = spec else {
        return Ok(KeyMap::defaults());
    };
    let path = std::path::Path::new(spec);
    if !path.is_file() && !spec.contains('=') {
        if path.exists() {
            bail!("--keys {spec}: not a key map file (a regular file of name = \"key\" lines)");
        }
        bail!(
            "--keys {spec}: no such key map file, and not a list of entries such as left=a,right=d"
        );
    }
    if path.is_file() {
        let text = crate::readlimit::read_to_string(path, crate::readlimit::max::SMALL)
            .with_context(|| format!("cannot read the key map {}", path.display()))?;
        KeyMap::from_toml(&text).with_context(|| format!("key map {}", path.display()))
    } else {
        KeyMap::parse(spec).context("--keys")
    }
}

/// What the hint key shows: the outline of the AI's placement (NES: orientation id, x, y),
/// or a text.
enum Hint {
    Ghost(u8, u8, u8),
    Text(String),
}

/// The AI's best placement for the current piece of a NES game (the hint key).
fn hint_nes(ai: &Ai, game: &Nes) -> Option<Hint> {
    if !game.piece_active() {
        return None;
    }
    ai.hint(game)
        .map(|p| Hint::Ghost(p.orientation as u8, p.x, p.y))
}

/// The same for a classic game: the cells and the moves.
fn hint_classic(ai: &ClassicAi, game: &ClassicRun) -> Option<Hint> {
    ai.hint(game).map(|p| {
        Hint::Text(format!(
            "hint: {} (moves {})",
            p.cells
                .iter()
                .map(|(x, y)| format!("{x},{y}"))
                .collect::<Vec<_>>()
                .join(" "),
            p.moves.iter().map(|m| m.letter()).collect::<String>()
        ))
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for Start.
    Waiting,
    /// Playing.
    Playing,
}

fn meta(args: &PlayArgs, index: u64) -> Meta {
    Meta {
        source: Source::Person,
        seed: args.game.seed,
        game_index: index,
        reaction: 0,
        hz: String::new(),
        preset: String::new(),
    }
}

/// Runs the command.
pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    args.game.check_rules(&args.rules)?;
    args.game.validate()?;
    let rules = args.rules.rules();
    if args.record.is_some() && args.game.position.is_some() {
        bail!("--record: a game started from a position would not replay (recordings start games at the menu)");
    }
    if args.record.is_some() && args.rules.is_departure() && rules == Rules::Nes {
        bail!("--record: a game with another randomizer ({}) would not replay on the original's picker", args.rules.randomizer_label());
    }
    let mut randomizers = args.rules.game_randomizers(args.game.seed)?;
    let map = load_keys(args.keys.as_deref())?;
    let cfg = args.ai.config()?;
    if !std::io::stdout().is_terminal() {
        bail!("nestris play needs a terminal");
    }
    match rules {
        Rules::Nes => {
            let ai = Ai::new(cfg);
            play(
                args,
                map,
                |index| Run::with_rules(&args.game, index, &mut randomizers),
                |run, index| {
                    if let Some(path) = &args.record {
                        let start = args.game.start_config(index);
                        run.record(&numbered_path(path, index), start, meta(args, index))?;
                    }
                    Ok(())
                },
                |game| hint_nes(&ai, game),
            )
        }
        rules => {
            let Some(mut randomizers) = randomizers else {
                bail!("the nes randomizer needs --rules nes");
            };
            let ai = ClassicAi::new(Evaluator::new(cfg.weights));
            play(
                args,
                map,
                |index| {
                    let game = ClassicRun::new(rules, randomizers.next_game())
                        .expect("a classic rule set");
                    Run::new(game, index)
                },
                |run, index| {
                    if let Some(path) = &args.record {
                        run.record(&numbered_path(path, index), meta(args, index))?;
                    }
                    Ok(())
                },
                |game| hint_classic(&ai, game),
            )
        }
    }
}

/// The keyboard plays games of `G` one after the other: `new_game(index)` makes each,
/// `start(run, index)` starts its recording when Start begins it, `hint` answers the hint
/// key.
fn play<G: Shown>(
    args: &PlayArgs,
    map: KeyMap,
    mut new_game: impl FnMut(u64) -> Run<G>,
    start: impl Fn(&mut Run<G>, u64) -> anyhow::Result<()>,
    hint: impl Fn(&G) -> Option<Hint>,
) -> anyhow::Result<ExitCode> {
    let mut tui = Tui::enter(true)?;
    let releases = tui.key_releases;
    let mut held = Held::new(releases);
    let mut index = 0u64;
    let mut top = 0u64;
    let mut run = new_game(index);
    let mut phase = Phase::Waiting;
    let mut start_mask = 0u8;
    let mut ghost: Option<(u8, u8, u8, u32)> = None;
    let mut hint_msg: Option<String> = None;
    let mut last_input = 0u8;
    let mut pacer = Pacer::new();
    loop {
        let timeout = pacer.deadline().saturating_duration_since(Instant::now());
        if event::poll(timeout.min(Duration::from_millis(20)))
            .context("cannot read the terminal")?
        {
            while event::poll(Duration::ZERO)? {
                let Event::Key(k) = event::read()? else {
                    continue;
                };
                let now = Instant::now();
                if keys::is_ctrl_c(&k) {
                    run.save_recording()?;
                    return Ok(ExitCode::SUCCESS);
                }
                let action = map.action(k.code);
                if k.kind == KeyEventKind::Release {
                    if let Some(Action::Button(b)) = action {
                        held.event(&k, b, now);
                    }
                    continue;
                }
                if run.game.ended() {
                    // Skip the ending / start the next game.
                    if action == Some(Action::Quit) {
                        run.save_recording()?;
                        return Ok(ExitCode::SUCCESS);
                    }
                    if run.ending().is_some() && !run.ending_done() {
                        run.ending_tick = crate::tui::endings::TICKS;
                    } else if action == Some(Action::Button(buttons::START)) {
                        run.save_recording()?;
                        top = run.game.top_score_after(top);
                        index += 1;
                        run = new_game(index);
                        phase = Phase::Waiting;
                        ghost = None;
                    }
                    continue;
                }
                match action {
                    Some(Action::Quit) => {
                        run.save_recording()?;
                        return Ok(ExitCode::SUCCESS);
                    }
                    Some(Action::Hint) if phase == Phase::Playing => match hint(&run.game) {
                        Some(Hint::Ghost(o, x, y)) => {
                            ghost = Some((o, x, y, run.game.pieces_played()));
                            hint_msg = None;
                        }
                        Some(Hint::Text(t)) => {
                            ghost = Some((0, 0, 0, run.game.pieces_played()));
                            hint_msg = Some(t);
                        }
                        None => hint_msg = Some("no hint available".into()),
                    },
                    Some(Action::Button(b)) => {
                        if phase == Phase::Waiting {
                            if b == buttons::START {
                                phase = Phase::Playing;
                                held.clear();
                                // The Start that began the game is not a pause.
                                start_mask = buttons::START;
                                start(&mut run, index)?;
                                pacer.reset();
                            }
                        } else {
                            held.event(&k, b, now);
                        }
                    }
                    _ => {}
                }
            }
        }
        let due = pacer.due();
        if run.game.ended() {
            run.ending_tick = run.ending_tick.saturating_add(due);
        } else if phase == Phase::Playing {
            for _ in 0..due {
                let mut input = held.frame(&map, Instant::now());
                if start_mask != 0 {
                    if input & start_mask == 0 {
                        start_mask = 0;
                    } else {
                        input &= !start_mask;
                    }
                }
                last_input = input;
                run.step(input);
                if run.game.ended() {
                    run.save_recording()?;
                    break;
                }
            }
        }
        if let Some(g) = ghost {
            if g.3 != run.game.pieces_played() || !run.game.piece_in_play() {
                ghost = None;
                if matches!(&hint_msg, Some(m) if m.starts_with("hint: ")) {
                    hint_msg = None;
                }
            }
        }
        if due > 0 {
            let hud = hud(
                &run,
                &map,
                releases,
                phase,
                top,
                ghost,
                hint_msg.as_deref(),
                last_input,
                args,
            );
            tui.terminal
                .draw(|f| G::draw(f, &run, &hud))
                .context("cannot draw")?;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn hud<G: Shown>(
    run: &Run<G>,
    map: &KeyMap,
    releases: bool,
    phase: Phase,
    top: u64,
    ghost: Option<(u8, u8, u8, u32)>,
    hint_msg: Option<&str>,
    last_input: u8,
    args: &PlayArgs,
) -> Hud {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let k = |a: Action| map.keys_for(a);
    let b = |m: u8| k(Action::Button(m));
    let mut panel = vec![
        Line::from(Span::styled("CONTROLS", bold)),
        Line::from(format!("move   {} {}", b(buttons::LEFT), b(buttons::RIGHT))),
        Line::from(format!("drop   {}", b(buttons::DOWN))),
        Line::from(format!("A ↻    {}", b(buttons::A))),
        Line::from(format!("B ↺    {}", b(buttons::B))),
        Line::from(format!("start  {}", b(buttons::START))),
        Line::from(format!("select {}", b(buttons::SELECT))),
        Line::from(format!("hint   {}", k(Action::Hint))),
        Line::from(format!("quit   {}", k(Action::Quit))),
        Line::default(),
    ];
    if releases {
        panel.push(Line::from("keys: held = held (kitty)"));
    } else {
        panel.push(Line::from(Span::styled("no key releases here:", bold)));
        panel.push(Line::from("held = autorepeat, 150 ms"));
    }
    panel.push(Line::default());
    panel.push(Line::from(match run.game.das() {
        Some(das) => format!("input {}  DAS {das:>2}", input_string(last_input)),
        None => format!("input {}", input_string(last_input)),
    }));
    panel.extend(run.rate_lines());
    if args.rules.is_departure() || run.game.rules() != Rules::Nes {
        panel.push(Line::from(args.rules.randomizer_label()));
    }
    panel.extend(run.game.departure_lines());
    if let Some(m) = hint_msg {
        panel.push(Line::from(m.to_string()));
    }
    if let Some(r) = &run.recorder {
        panel.push(Line::from(format!("rec {}", r.path().display())));
    }
    let mut hud = Hud {
        top_score: top,
        panel_title: "PLAY".into(),
        panel,
        status: Line::from(format!(
            " {} start/pause · {} quit · {} hint · seed {} game {}",
            b(buttons::START),
            k(Action::Quit),
            k(Action::Hint),
            args.game.seed,
            run.index + 1
        )),
        ghost: ghost
            .filter(|_| run.game.rules() == Rules::Nes)
            .map(|g| (g.0, g.1, g.2)),
        ..Hud::default()
    };
    if run.game.ended() {
        match run.ending() {
            Some(kind) if !run.ending_done() => hud.ending = Some((kind, run.ending_tick)),
            _ => {
                hud.overlay = vec![
                    "GAME OVER".into(),
                    String::new(),
                    "PRESS START".into(),
                    "TO PLAY AGAIN".into(),
                ]
            }
        }
    } else if phase == Phase::Waiting {
        hud.overlay = vec![
            if run.game.rules() == Rules::Nes {
                format!("LEVEL {}", args.game.level())
            } else {
                run.game.rules().name().to_uppercase()
            },
            String::new(),
            "PRESS START".into(),
            format!("({})", b(buttons::START)),
        ];
    } else if run.game.over() && run.game.curtain_down() {
        hud.overlay = vec!["GAME OVER".into(), String::new(), "PRESS START".into()];
    }
    hud
}
