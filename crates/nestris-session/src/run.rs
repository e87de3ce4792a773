//! A game being played: the game of some rule set, its counters and its recording, stepped
//! frame by frame ([`Run`]).

use std::path::Path;

use crate::replayfile::{Departures, Meta, Recorder};
use crate::rules::{RuleSet, Tick};

/// A game with its counters and its recording.
#[derive(Debug)]
pub struct Run<G> {
    /// The game.
    pub game: G,
    /// Frames stepped.
    pub frames: u64,
    /// Line clears by size (index 1..=4).
    pub clears: [u32; 5],
    /// Pieces counted ([`Tick::piece`]).
    pub pieces: u32,
    /// The recording, if any (NES games).
    pub recorder: Option<Recorder>,
    /// Index of the game in its session (0-based).
    pub index: u64,
}

impl<G: RuleSet> Run<G> {
    /// Game `index` of a session, not stepped yet.
    pub fn new(game: G, index: u64) -> Run<G> {
        Run {
            game,
            frames: 0,
            clears: [0; 5],
            pieces: 0,
            recorder: None,
            index,
        }
    }

    /// Runs one frame with `input` held: steps the game, counts, records.
    pub fn step(&mut self, input: u8) -> Tick {
        let was_ended = self.game.ended();
        let tick = self.game.step(input);
        self.frames += 1;
        if tick.cleared > 0 {
            self.clears[(tick.cleared as usize).min(4)] += 1;
        }
        if tick.piece {
            self.pieces += 1;
        }
        if tick.piece && self.recorder.is_some() {
            if let (Some(r), Some(c)) = (&mut self.recorder, self.game.classic_start()) {
                r.set_classic(c);
            }
        }
        let ended_now = self.game.ended() && !was_ended;
        let outcome = if ended_now { self.game.outcome() } else { None };
        if let Some(r) = &mut self.recorder {
            r.push(input);
            if ended_now {
                if let Some(o) = outcome {
                    r.set_outcome(o);
                }
                let _ = r.save();
            }
        }
        tick
    }

    fn outcome(&self) -> Option<crate::replayfile::Outcome> {
        self.game.outcome()
    }

    /// Saves the recording with the current state (on quitting mid-game too).
    pub fn save_recording(&mut self) -> Result<(), RecordError> {
        let o = self.outcome();
        if let Some(r) = &mut self.recorder {
            if let Some(o) = o {
                r.set_outcome(o);
            }
            r.save().map_err(|source| RecordError {
                path: r.path().display().to_string(),
                source,
            })?;
        }
        Ok(())
    }

    /// The input a person gives once play is over, to leave the game.
    pub fn leave_input(&self) -> u8 {
        self.game.leave_input(self.frames)
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
}

impl Run<crate::nes::Nes> {
    /// Starts recording to `path` (the game started from `start`; its departures, such as
    /// the double killscreen, are recorded from the game itself).
    pub fn record(
        &mut self,
        path: &Path,
        start: nestris_engine::StartConfig,
        meta: Meta,
    ) -> Result<(), RecordError> {
        let rec = Recorder::create(path, start, Departures::of(&self.game.game), meta).map_err(
            |source| RecordError {
                path: path.display().to_string(),
                source,
            },
        )?;
        self.recorder = Some(rec);
        Ok(())
    }
}

impl Run<crate::classic::ClassicRun> {
    /// Starts recording to `path` (version 3: the rule set, the pieces dealt, the inputs).
    pub fn record(&mut self, path: &Path, meta: Meta) -> Result<(), RecordError> {
        let zero = nestris_engine::StartConfig {
            rng: 0,
            spawn_count: 0,
            frame_counter: 0,
            das: 0,
            hold_down_points: 0,
            level: 0,
            game_type: nestris_engine::GameType::A,
            start_height: 0,
        };
        let mut rec =
            Recorder::create(path, zero, Departures::default(), meta).map_err(|source| {
                RecordError {
                    path: path.display().to_string(),
                    source,
                }
            })?;
        if let Some(c) = self.game.classic_start() {
            rec.set_classic(c);
        }
        rec.save().map_err(|source| RecordError {
            path: path.display().to_string(),
            source,
        })?;
        self.recorder = Some(rec);
        Ok(())
    }
}

/// A recording could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the recording {path}")]
pub struct RecordError {
    /// The file.
    pub path: String,
    /// The system's error.
    #[source]
    pub source: std::io::Error,
}
