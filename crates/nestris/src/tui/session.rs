//! One game being played, recorded and shown, plus the pieces every command shares: the
//! frame counter and rates, the speed control, and the texts of the side panel.

use std::time::{Duration, Instant};

use nestris_engine::Game;
use nestris_session::nes::Nes;
use nestris_session::RuleSet;

use super::endings::{self, EndingKind};
use super::view::Vram;

pub use nestris_session::nes::{departure_suffix, pieces};

/// A game being played and shown: the session's game loop ([`nestris_session::Run`]), what
/// the screen shows of the playfield, and how far the ending has been shown.
#[derive(Debug)]
pub struct Run<G = Nes> {
    /// The game, its counters and its recording.
    pub session: nestris_session::Run<G>,
    /// What the screen shows of the playfield (NES games).
    pub vram: Vram,
    /// Ticks of the ending shown so far.
    pub ending_tick: u32,
}

impl<G> std::ops::Deref for Run<G> {
    type Target = nestris_session::Run<G>;
    fn deref(&self) -> &Self::Target {
        &self.session
    }
}

impl<G> std::ops::DerefMut for Run<G> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.session
    }
}

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

/// What the screen needs of a rule set beyond [`RuleSet`].
pub trait Shown: RuleSet + Sized {
    /// Called before each frame (the NES keeps its screen copy of the playfield).
    fn before_step(&self, vram: &mut Vram) {
        let _ = vram;
    }
    /// The ending the game earned (when it has ended).
    fn ending(&self) -> Option<EndingKind> {
        None
    }
    /// Pieces played so far.
    fn pieces_played(&self) -> u32;
    /// The side panel's lines naming the departures from the original (none by default).
    fn departure_lines(&self) -> Vec<ratatui::text::Line<'static>> {
        Vec::new()
    }
    /// The line counter as the screen shows it (B-type: the lines left).
    fn lines_shown(&self) -> u32 {
        self.lines()
    }
    /// Whether a piece is falling (a hint stays shown while the same piece is).
    fn piece_in_play(&self) -> bool;
    /// The DAS counter to show (NES).
    fn das(&self) -> Option<u8> {
        None
    }
    /// Whether the game-over curtain is down (at once where there is none).
    fn curtain_down(&self) -> bool {
        true
    }
    /// The line `replay --check` prints for the game after `frames` frames.
    fn check_line(&self, frames: u64) -> String;
    /// A finished game in one line (after `game N: `), for headless output.
    fn summary(&self, frames: u64) -> String;
    /// Draws the game with `hud`.
    fn draw(f: &mut ratatui::Frame, run: &Run<Self>, hud: &super::view::Hud);
    /// The top-score box for the next game after this one.
    fn top_score_after(&self, top: u64) -> u64 {
        top.max(self.shown_score())
    }
}

impl Shown for Nes {
    fn before_step(&self, vram: &mut Vram) {
        vram.before_step(&self.game);
    }
    fn ending(&self) -> Option<EndingKind> {
        EndingKind::of(&self.game)
    }
    fn pieces_played(&self) -> u32 {
        pieces(&self.game)
    }
    fn departure_lines(&self) -> Vec<ratatui::text::Line<'static>> {
        let mut l = departure_lines(&self.game);
        if self.from_position {
            l.push(ratatui::text::Line::from("started from a position"));
            l.push(ratatui::text::Line::from("(departure from the original)"));
        }
        l
    }
    fn piece_in_play(&self) -> bool {
        self.game.piece_active()
    }
    fn lines_shown(&self) -> u32 {
        self.game.lines_value()
    }
    fn das(&self) -> Option<u8> {
        Some(self.game.autorepeat_x)
    }
    fn curtain_down(&self) -> bool {
        self.game.curtain_row >= 20
    }
    fn top_score_after(&self, top: u64) -> u64 {
        top_score_after(top, &self.game)
    }
    fn check_line(&self, frames: u64) -> String {
        let g = &self.game;
        format!(
            "score {} (capped) true score {} lines {} level {} frames {}{}",
            g.score_value(),
            g.score_uncapped,
            g.lines_value(),
            g.level,
            frames,
            departure_suffix(g)
        )
    }
    fn summary(&self, frames: u64) -> String {
        let g = &self.game;
        format!(
            "score {} (capped) true score {} lines {} level {} pieces {} frames {}{}",
            g.score_value(),
            g.score_uncapped,
            g.lines_value(),
            g.level,
            pieces(g),
            frames,
            self.departure_suffix()
        )
    }
    fn draw(f: &mut ratatui::Frame, run: &Run<Self>, hud: &super::view::Hud) {
        super::view::draw(f, &run.game.game, &run.vram, hud);
    }
}

impl Shown for nestris_session::classic::ClassicRun {
    fn pieces_played(&self) -> u32 {
        use nestris_classic::ClassicGame;
        self.game.pieces_locked()
    }
    fn piece_in_play(&self) -> bool {
        use nestris_classic::ClassicGame;
        self.game.current().is_some()
    }
    fn check_line(&self, frames: u64) -> String {
        use nestris_classic::ClassicGame;
        format!(
            "score {} lines {} pieces {} frames {frames}",
            self.game.score(),
            self.game.lines_cleared(),
            self.game.pieces_locked()
        )
    }
    fn summary(&self, _frames: u64) -> String {
        use nestris_classic::ClassicGame;
        format!(
            "score {} lines {} pieces {}",
            self.game.score(),
            self.game.lines_cleared(),
            self.game.pieces_locked()
        )
    }
    fn draw(f: &mut ratatui::Frame, run: &Run<Self>, hud: &super::view::Hud) {
        super::classic_view::draw(f, &run.game.game, hud);
    }
}

impl Run<Nes> {
    /// `game`, not stepped yet (with the departures it was given, such as the double
    /// killscreen).
    pub fn from_game(game: Game, index: u64) -> Run<Nes> {
        Run::new(Nes::new(game, None), index)
    }

    /// The game `index` of a session (`game`, not stepped yet) with these rules: the NES
    /// picker, or the next game's randomizer from `randomizers` (a departure).
    pub fn with_rules(
        game: &crate::options::GameOptions,
        index: u64,
        randomizers: &mut Option<crate::sequence::GameRandomizers>,
    ) -> Run<Nes> {
        let randomizer = randomizers.as_mut().map(|r| r.next_game());
        Run::new(game.nes(index, randomizer), index)
    }
}

impl<G: Shown> Run<G> {
    /// Game `index` of a session, not stepped yet.
    pub fn new(game: G, index: u64) -> Run<G> {
        Run {
            session: nestris_session::Run::new(game, index),
            vram: Vram::new(),
            ending_tick: 0,
        }
    }

    /// Runs one frame with `input` held.
    pub fn step(&mut self, input: u8) -> nestris_session::Tick {
        self.session.game.before_step(&mut self.vram);
        self.session.step(input)
    }

    /// The ending the game earned (when it has ended).
    pub fn ending(&self) -> Option<EndingKind> {
        self.session.game.ending()
    }

    /// Whether the ending animation has run its course.
    pub fn ending_done(&self) -> bool {
        self.ending_tick >= endings::TICKS
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
        self.session.game.pieces_played() as f64 / (self.frames as f64 / super::FPS)
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

pub use nestris_session::inputs::{input_string, plan_string};

#[cfg(test)]
mod tests {
    use super::*;

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
    use nestris_engine::{Ending, GameType, StartConfig};

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
