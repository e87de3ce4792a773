//! One game being played, recorded and shown, plus the pieces every command shares: the
//! frame counter and rates, the speed control, and the texts of the side panel.

use std::path::Path;
use std::time::{Duration, Instant};

use nestris_engine::{bcd, buttons, Game, StartConfig};

use super::endings::{self, EndingKind};
use super::view::Vram;
use crate::replayfile::{Departures, Meta, Outcome, Recorder};

/// A game with its screen copy, its counters and its recording.
#[derive(Debug)]
pub struct Run {
    /// The game.
    pub game: Game,
    /// What the screen shows of the playfield.
    pub vram: Vram,
    /// Frames stepped.
    pub frames: u64,
    /// Line clears by size (index 1..=4).
    pub clears: [u32; 5],
    /// The recording, if any.
    pub recorder: Option<Recorder>,
    /// Index of the game in its session (0-based).
    pub index: u64,
    /// Another piece randomizer in place of the game's picker (a departure from the
    /// original), if chosen.
    pub departure: Option<crate::departure::Departure>,
    /// Ticks of the ending shown so far.
    pub ending_tick: u32,
}

/// A game's outcome for the recording.
pub fn outcome(g: &Game) -> Outcome {
    Outcome {
        score: g.score,
        lines: g.lines,
        level: g.level,
        ending: g.ending as u8,
    }
}

/// How the double killscreen is named wherever it is on: it is a departure from the original.
pub const DOUBLE_KILLSCREEN_LABEL: &str =
    "double killscreen from level 39 (departure from the original)";

/// The side panel's lines naming the departures from the original `game` runs with (none
/// for the original game).
pub fn departure_lines(game: &Game) -> Vec<ratatui::text::Line<'static>> {
    if game.double_killscreen() {
        vec![
            ratatui::text::Line::from("double killscreen from 39"),
            ratatui::text::Line::from("(departure from the original)"),
        ]
    } else {
        Vec::new()
    }
}

/// The departures `game` runs with, as a suffix for a one-line report (`""` for none).
pub fn departure_suffix(game: &Game) -> String {
    if game.double_killscreen() {
        format!(" · {DOUBLE_KILLSCREEN_LABEL}")
    } else {
        String::new()
    }
}

/// Pieces spawned, from the statistics counters (hundreds kept in binary by the game).
pub fn pieces(g: &Game) -> u32 {
    g.stats
        .iter()
        .map(|&s| (s >> 8) as u32 * 100 + bcd::from_bcd((s & 0xFF) as u32) as u32)
        .sum()
}

impl Run {
    /// `game`, not stepped yet (with the departures it was given, such as the double
    /// killscreen).
    pub fn from_game(game: Game, index: u64) -> Run {
        Run {
            game,
            vram: Vram::new(),
            frames: 0,
            clears: [0; 5],
            recorder: None,
            index,
            departure: None,
            ending_tick: 0,
        }
    }

    /// The game `index` of a session (`game`, not stepped yet) with these rules: the NES
    /// picker, or the next game's randomizer from `randomizers` (a departure).
    pub fn with_rules(
        game: Game,
        index: u64,
        randomizers: &mut Option<crate::sequence::GameRandomizers>,
    ) -> Run {
        let mut run = Run::from_game(game, index);
        if let Some(r) = randomizers {
            run.departure = Some(crate::departure::Departure::new(r.next_game(), &run.game));
        }
        run
    }

    /// Starts recording to `path` (the game started from `start`; its departures, such as
    /// the double killscreen, are recorded from the game itself).
    pub fn record(&mut self, path: &Path, start: StartConfig, meta: Meta) -> anyhow::Result<()> {
        use anyhow::Context;
        let rec = Recorder::create(path, start, Departures::of(&self.game), meta)
            .with_context(|| format!("cannot write the recording {}", path.display()))?;
        self.recorder = Some(rec);
        Ok(())
    }

    /// Runs one frame with `input` held.
    pub fn step(&mut self, input: u8) {
        self.vram.before_step(&self.game);
        let before_cleared = self.game.completed_lines;
        let was_ended = self.game.ended();
        self.game.step(input);
        if let Some(d) = &mut self.departure {
            d.after_step(&mut self.game);
        }
        self.frames += 1;
        // The row check counts completed lines; the statistics update adds them up and
        // resets the count.
        if before_cleared > 0 && self.game.completed_lines == 0 {
            self.clears[(before_cleared as usize).min(4)] += 1;
        }
        if let Some(r) = &mut self.recorder {
            r.push(input);
            if self.game.ended() && !was_ended {
                r.set_outcome(outcome(&self.game));
                let _ = r.save();
            }
        }
    }

    /// Saves the recording with the current state (on quitting mid-game too).
    pub fn save_recording(&mut self) -> anyhow::Result<()> {
        use anyhow::Context;
        let o = outcome(&self.game);
        if let Some(r) = &mut self.recorder {
            r.set_outcome(o);
            r.save()
                .with_context(|| format!("cannot write the recording {}", r.path().display()))?;
        }
        Ok(())
    }

    /// The input for the game over phase that a person at the controller gives: Start (every
    /// other frame) once the curtain is down, to leave the game.
    pub fn leave_input(&self) -> u8 {
        if self.frames % 2 == 0 {
            buttons::START
        } else {
            0
        }
    }

    /// The ending the game earned (when it has ended).
    pub fn ending(&self) -> Option<EndingKind> {
        EndingKind::of(&self.game)
    }

    /// Whether the ending animation has run its course.
    pub fn ending_done(&self) -> bool {
        self.ending_tick >= endings::TICKS
    }

    /// Lines cleared in total by clears.
    pub fn cleared_lines(&self) -> u32 {
        (1..=4).map(|n| self.clears[n] * n as u32).sum()
    }

    /// Share of the cleared lines that came from Tetrises.
    pub fn tetris_rate(&self) -> Option<f64> {
        let total = self.cleared_lines();
        (total > 0).then(|| self.clears[4] as f64 * 4.0 / total as f64)
    }

    /// The side panel's rate lines: pieces per second and Tetris rate.
    pub fn rate_lines(&self) -> [ratatui::text::Line<'static>; 2] {
        [
            ratatui::text::Line::from(format!("pieces/s   {:.2}", self.pieces_per_second())),
            ratatui::text::Line::from(format!(
                "tetris rate {}",
                self.tetris_rate()
                    .map(|r| format!("{:.0}%", r * 100.0))
                    .unwrap_or_else(|| "-".into())
            )),
        ]
    }

    /// Pieces per second of game time.
    pub fn pieces_per_second(&self) -> f64 {
        if self.frames < 60 {
            return 0.0;
        }
        pieces(&self.game) as f64 / (self.frames as f64 / super::FPS)
    }
}

/// How fast the game runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    /// This many frames per real frame (1 = real time).
    Times(u32),
    /// As fast as the machine goes.
    Max,
}

impl Speed {
    /// The next faster speed.
    pub fn faster(self) -> Speed {
        match self {
            Speed::Times(n) if n >= 256 => Speed::Max,
            Speed::Times(n) => Speed::Times(n * 2),
            Speed::Max => Speed::Max,
        }
    }

    /// The next slower speed.
    pub fn slower(self) -> Speed {
        match self {
            Speed::Max => Speed::Times(256),
            Speed::Times(n) => Speed::Times((n / 2).max(1)),
        }
    }

    /// A label (`1x`, `8x`, `max`).
    pub fn label(self) -> String {
        match self {
            Speed::Times(n) => format!("{n}x"),
            Speed::Max => "max".into(),
        }
    }
}

/// Paces frames: says how many frames are due at a given moment.
#[derive(Debug)]
pub struct Pacer {
    next: Instant,
    frame: Duration,
}

impl Pacer {
    /// Starting now.
    pub fn new() -> Pacer {
        Pacer {
            next: Instant::now(),
            frame: super::frame_duration(),
        }
    }

    /// Restarts the clock (after a pause).
    pub fn reset(&mut self) {
        self.next = Instant::now();
    }

    /// When the next frame is due.
    pub fn deadline(&self) -> Instant {
        self.next
    }

    /// How many display frames are due now (0 or more); catches up at most a quarter second.
    pub fn due(&mut self) -> u32 {
        let now = Instant::now();
        if now < self.next {
            return 0;
        }
        let behind = now.duration_since(self.next);
        if behind > Duration::from_millis(250) {
            self.next = now + self.frame;
            return 1;
        }
        let n = (behind.as_secs_f64() / self.frame.as_secs_f64()) as u32 + 1;
        self.next += self.frame * n;
        n
    }
}

impl Default for Pacer {
    fn default() -> Self {
        Pacer::new()
    }
}

/// The speed keys shared by `watch` and `replay`: pause, single step, real time, faster,
/// slower, fastest; and how many game frames are due.
#[derive(Debug)]
pub struct Playback {
    /// Current speed.
    pub speed: Speed,
    /// Paused by the viewer (not the game's own pause).
    pub paused: bool,
    /// One frame was requested while paused.
    pub step_once: bool,
    pacer: Pacer,
}

impl Playback {
    /// Running at `speed`.
    pub fn new(speed: Speed) -> Playback {
        Playback {
            speed,
            paused: false,
            step_once: false,
            pacer: Pacer::new(),
        }
    }

    /// How long to wait for a key before the next frame is due.
    pub fn poll_timeout(&self) -> std::time::Duration {
        if self.paused {
            std::time::Duration::from_millis(50)
        } else if self.speed == Speed::Max {
            std::time::Duration::ZERO
        } else {
            self.pacer
                .deadline()
                .saturating_duration_since(Instant::now())
        }
    }

    /// Applies a speed key; `false` when the key is not one of them.
    pub fn key(&mut self, code: crossterm::event::KeyCode) -> bool {
        use crossterm::event::KeyCode::Char;
        match code {
            Char(' ') | Char('p') => {
                self.paused = !self.paused;
                self.pacer.reset();
            }
            Char('.') | Char('s') => {
                self.paused = true;
                self.step_once = true;
            }
            Char('1') => {
                self.speed = Speed::Times(1);
                self.pacer.reset();
            }
            Char('+') | Char('=') | Char(']') => self.speed = self.speed.faster(),
            Char('-') | Char('[') => {
                self.speed = self.speed.slower();
                self.pacer.reset();
            }
            Char('m') | Char('f') => self.speed = Speed::Max,
            _ => return false,
        }
        true
    }

    /// Display frames due now: elapsed real frames when running, one after a single-step
    /// request, none when paused. Clears the single-step request.
    pub fn due(&mut self) -> u32 {
        let real = if self.paused {
            u32::from(self.step_once)
        } else {
            self.pacer.due()
        };
        self.step_once = false;
        real
    }

    /// Game frames to run for `real` display frames (unbounded at the fastest speed).
    pub fn frames(&self, real: u32) -> u64 {
        match (self.paused, self.speed) {
            (true, _) => real as u64,
            (false, Speed::Times(n)) => real as u64 * n as u64,
            (false, Speed::Max) => u64::MAX,
        }
    }

    /// Restarts the clock (a new game).
    pub fn reset(&mut self) {
        self.pacer.reset();
    }
}

/// A controller plan as a compact string: one character per frame (`.` nothing, `L R D U A B`
/// a button, `S`/`s` Start/Select), several buttons in brackets (`[RA]`), a run of more than
/// four idle frames as `.×N`; the idle frames at the end are left out (`…`).
pub fn plan_string(plan: &[u8], max_chars: usize) -> String {
    let mut end = plan.len();
    while end > 0 && plan[end - 1] == 0 {
        end -= 1;
    }
    let mut s = String::new();
    let mut i = 0;
    while i < end {
        if plan[i] == 0 {
            let mut j = i;
            while j < end && plan[j] == 0 {
                j += 1;
            }
            if j - i > 4 {
                s.push_str(&format!(".×{}", j - i));
            } else {
                s.push_str(&".".repeat(j - i));
            }
            i = j;
        } else {
            s.push_str(&input_string(plan[i]));
            i += 1;
        }
    }
    if end < plan.len() {
        s.push('…');
    }
    if s.chars().count() > max_chars && max_chars > 1 {
        let cut: String = s.chars().take(max_chars - 1).collect();
        return cut + "…";
    }
    s
}

/// One controller byte as text (see [`plan_string`]).
pub fn input_string(b: u8) -> String {
    const NAMES: [(u8, char); 8] = [
        (buttons::LEFT, 'L'),
        (buttons::RIGHT, 'R'),
        (buttons::DOWN, 'D'),
        (buttons::UP, 'U'),
        (buttons::A, 'A'),
        (buttons::B, 'B'),
        (buttons::START, 'S'),
        (buttons::SELECT, 's'),
    ];
    let v: String = NAMES
        .iter()
        .filter(|(m, _)| b & m != 0)
        .map(|(_, c)| *c)
        .collect();
    match v.chars().count() {
        0 => ".".into(),
        1 => v,
        _ => format!("[{v}]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans() {
        let p = [buttons::RIGHT, 0, buttons::RIGHT, 0, buttons::A, 0, 0, 0];
        assert_eq!(plan_string(&p, 40), "R.R.A…");
        assert_eq!(
            plan_string(&[buttons::RIGHT | buttons::A, buttons::DOWN], 40),
            "[RA]D"
        );
        assert_eq!(plan_string(&[], 40), "");
        let mut p = vec![0u8; 18];
        p.extend([buttons::LEFT, 0, buttons::LEFT, 0, 0]);
        assert_eq!(plan_string(&p, 40), ".×18L.L…");
    }

    #[test]
    fn speeds() {
        assert_eq!(Speed::Times(1).faster(), Speed::Times(2));
        assert_eq!(Speed::Times(256).faster(), Speed::Max);
        assert_eq!(Speed::Max.slower(), Speed::Times(256));
        assert_eq!(Speed::Times(1).slower(), Speed::Times(1));
    }
}

/// The top-score box of the next game after `game`: original game: a game's score enters the
/// high-score table when it ends (game over or B-type goal), not when it is abandoned or reset,
/// and the box shows the table's first entry from the next game on.
pub fn top_score_after(top: u64, game: &Game) -> u64 {
    match game.ending {
        nestris_engine::Ending::ToppedOut | nestris_engine::Ending::BTypeCleared => {
            top.max(game.score_value())
        }
        _ => top,
    }
}

#[cfg(test)]
mod top_score_tests {
    use super::*;
    use nestris_engine::{Ending, GameType};

    #[test]
    fn only_finished_games_enter_the_table() {
        let mut g = Game::start(StartConfig::from_seed(1, 18, GameType::A, 0));
        g.score = 0x12_34_56;
        assert_eq!(top_score_after(0, &g), 0, "a game still running");
        g.ending = Ending::Reset;
        assert_eq!(top_score_after(0, &g), 0, "a reset");
        g.ending = Ending::ToppedOut;
        assert_eq!(top_score_after(0, &g), 123_456);
        assert_eq!(top_score_after(200_000, &g), 200_000);
    }
}
