//! Reference traces of the original game (format `nes-trace-1`, see `tests/data/traces/FORMAT.md`)
//! and their replay against the engine.
//!
//! A trace is gzip-compressed JSON Lines: a header with the starting state, then one line per
//! frame with the controller byte and the fields that changed. [`Trace::parse`] reads one into
//! a list of expected states; [`replay`] runs the engine over the same inputs and reports the
//! first frame and field where they differ.
#![warn(missing_docs)]

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use nestris_engine::{Game, GameType, Playfield, Snapshot, StartConfig};
use serde_json::{Map, Value};

/// What can be wrong with a trace file.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// File.
        path: String,
        /// Cause.
        source: std::io::Error,
    },
    /// Not gzip data, or the compressed stream is damaged or cut short.
    #[error("{path}: line {line}: {msg}")]
    Gzip {
        /// File.
        path: String,
        /// Line reached before the stream broke (1-based).
        line: usize,
        /// What the decoder said.
        msg: String,
    },
    /// A line is not valid JSON, or a value has the wrong type or range.
    #[error("{path}: line {line}: {msg}")]
    Malformed {
        /// File.
        path: String,
        /// Line (1-based).
        line: usize,
        /// What is wrong.
        msg: String,
    },
    /// The file has no header line.
    #[error("{path}: empty file (no header line)")]
    Empty {
        /// File.
        path: String,
    },
}

/// How the trace begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceKind {
    /// At the game's initialisation (Start pressed on the level menu).
    Start,
    /// In the middle of a game.
    Resume,
}

/// One recorded frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Frame number (1-based).
    pub f: u32,
    /// Controller byte held during the frame.
    pub input: u8,
    /// The state after the frame.
    pub expected: Snapshot,
}

/// A parsed trace.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Start or resume.
    pub kind: TraceKind,
    /// What the trace exercises.
    pub note: String,
    /// Frames whose logic overran into the next frame.
    pub lag_frames: Vec<u32>,
    /// The header's state.
    pub header: Snapshot,
    /// The frames.
    pub frames: Vec<Frame>,
}

/// Fields a trace line may carry besides `f` and `in`.
pub const FIELDS: [&str; 22] = [
    "rng",
    "spawn_id",
    "spawn_count",
    "frame_counter",
    "game_type",
    "start_height",
    "level",
    "lines",
    "score",
    "piece",
    "next",
    "x",
    "y",
    "play_state",
    "fall_timer",
    "das",
    "ary",
    "hold_down_points",
    "vram_row",
    "game_over",
    "paused",
    "field",
];

/// Fields the format requires to match on every compared frame.
pub const REQUIRED: [&str; 14] = [
    "piece",
    "next",
    "x",
    "y",
    "level",
    "lines",
    "score",
    "field",
    "hidden",
    "game_over",
    "paused",
    "rng",
    "spawn_id",
    "spawn_count",
];

fn malformed(path: &str, line: usize, msg: impl Into<String>) -> TraceError {
    TraceError::Malformed {
        path: path.to_string(),
        line,
        msg: msg.into(),
    }
}

fn int_in(v: &Value, min: i64, max: i64) -> Option<i64> {
    let n = v.as_i64()?;
    (min..=max).contains(&n).then_some(n)
}

/// Applies one JSON object's fields onto `s`. `field`/`hidden` strings are kept in `vis`/`hid`
/// until both are known.
fn apply(
    path: &str,
    line: usize,
    obj: &Map<String, Value>,
    s: &mut Snapshot,
    vis: &mut String,
    hid: &mut String,
    skip: &[&str],
) -> Result<(), TraceError> {
    for (k, v) in obj {
        if skip.contains(&k.as_str()) {
            continue;
        }
        let bad = |what: &str| malformed(path, line, format!("field {k:?}: {what}, found {v}"));
        macro_rules! num {
            ($min:expr, $max:expr) => {
                int_in(v, $min, $max).ok_or_else(|| {
                    bad(concat!(
                        "expected an integer in ",
                        stringify!($min),
                        "..=",
                        stringify!($max)
                    ))
                })?
            };
        }
        match k.as_str() {
            "rng" => s.rng = num!(0, 65535) as u16,
            "spawn_id" => s.spawn_id = num!(0, 255) as u8,
            "spawn_count" => s.spawn_count = num!(0, 255) as u8,
            "frame_counter" => s.frame_counter = num!(0, 65535) as u16,
            "game_type" => s.game_type = num!(0, 1) as u8,
            "start_height" => s.start_height = num!(0, 5) as u8,
            "level" => s.level = num!(0, 255) as u8,
            "lines" => s.lines = num!(0, 65535) as u16,
            "score" => s.score = num!(0, 0xFF_FFFF) as u32,
            "piece" => s.piece = num!(0, 19) as u8,
            "next" => s.next = num!(0, 18) as u8,
            "x" => s.x = num!(0, 255) as u8,
            "y" => s.y = num!(0, 255) as u8,
            "play_state" => s.play_state = num!(0, 11) as u8,
            "fall_timer" => s.fall_timer = num!(0, 255) as u8,
            "das" => s.das = num!(0, 255) as u8,
            "ary" => s.ary = num!(-128, 127) as i8,
            "hold_down_points" => s.hold_down_points = num!(0, 255) as u8,
            "vram_row" => s.vram_row = num!(0, 255) as u8,
            "game_over" => {
                s.game_over = v.as_bool().ok_or_else(|| bad("expected true or false"))?
            }
            "paused" => s.paused = v.as_bool().ok_or_else(|| bad("expected true or false"))?,
            "field" => {
                *vis = v
                    .as_str()
                    .ok_or_else(|| bad("expected a string"))?
                    .to_string()
            }
            "hidden" => {
                *hid = v
                    .as_str()
                    .ok_or_else(|| bad("expected a string"))?
                    .to_string()
            }
            other => return Err(malformed(path, line, format!("unknown field {other:?}"))),
        }
    }
    Ok(())
}

/// Largest trace file read (compressed): the reference traces are well under 1 MiB.
pub const MAX_FILE_BYTES: u64 = 256 << 20;
/// Longest line of a trace (decompressed): a frame line is well under 1 KiB.
pub const MAX_LINE_BYTES: u64 = 1 << 20;
/// Most lines in a trace (about 9 hours of play; the longest reference trace has 20,000
/// frames).
pub const MAX_LINES: usize = 2_000_000;
/// Most bytes of a trace once decompressed (the reference traces take 1 to 3 MB).
pub const MAX_TEXT_BYTES: u64 = 1 << 30;

impl Trace {
    /// Reads and parses a `.jsonl.gz` trace file (at most [`MAX_FILE_BYTES`]).
    pub fn read(path: &Path) -> Result<Trace, TraceError> {
        let name = path.display().to_string();
        let io = |source| TraceError::Io {
            path: name.clone(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let mut bytes = Vec::new();
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(TraceError::Malformed {
                path: name,
                line: 1,
                msg: format!("the file is larger than a trace may be ({MAX_FILE_BYTES} bytes)"),
            });
        }
        Trace::parse(&name, &bytes[..])
    }

    /// Parses a gzip-compressed trace from a reader; `name` is used in error messages.
    pub fn parse(name: &str, mut reader: impl Read) -> Result<Trace, TraceError> {
        let mut magic = [0u8; 2];
        let mut got = 0;
        while got < 2 {
            match reader.read(&mut magic[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) => {
                    return Err(TraceError::Io {
                        path: name.to_string(),
                        source: e,
                    })
                }
            }
        }
        if got == 0 {
            return Err(TraceError::Empty {
                path: name.to_string(),
            });
        }
        if magic[..got] != [0x1f, 0x8b][..got] || got < 2 {
            return Err(TraceError::Gzip {
                path: name.to_string(),
                line: 1,
                msg: "not gzip data (the file does not start with the gzip magic bytes 1f 8b)"
                    .into(),
            });
        }
        let reader = std::io::Cursor::new(magic).chain(reader);
        let gz = flate2::read::MultiGzDecoder::new(reader);
        let mut lines = BufReader::new(gz);
        let mut buf = String::new();
        let mut line_no = 0usize;
        let mut text_bytes = 0u64;
        let mut next_line = |buf: &mut String| -> Result<Option<usize>, TraceError> {
            buf.clear();
            line_no += 1;
            if line_no > MAX_LINES {
                return Err(TraceError::Malformed {
                    path: name.to_string(),
                    line: line_no,
                    msg: format!("more than {MAX_LINES} lines: longer than a trace may be"),
                });
            }
            if text_bytes > MAX_TEXT_BYTES {
                return Err(TraceError::Malformed {
                    path: name.to_string(),
                    line: line_no,
                    msg: format!(
                        "more than {MAX_TEXT_BYTES} bytes once decompressed: larger than a trace may be"
                    ),
                });
            }
            match (&mut lines).take(MAX_LINE_BYTES + 1).read_line(buf) {
                Ok(0) => Ok(None),
                Ok(n) if n as u64 > MAX_LINE_BYTES => Err(TraceError::Malformed {
                    path: name.to_string(),
                    line: line_no,
                    msg: format!("line longer than {MAX_LINE_BYTES} bytes"),
                }),
                Ok(n) => {
                    text_bytes += n as u64;
                    Ok(Some(line_no))
                }
                Err(e) => Err(TraceError::Gzip {
                    path: name.to_string(),
                    line: line_no,
                    msg: format!("damaged or truncated gzip stream ({e})"),
                }),
            }
        };
        let Some(hl) = next_line(&mut buf)? else {
            return Err(TraceError::Empty {
                path: name.to_string(),
            });
        };
        let header: Value = serde_json::from_str(buf.trim_end())
            .map_err(|e| malformed(name, hl, format!("invalid JSON: {e}")))?;
        let h = header
            .as_object()
            .ok_or_else(|| malformed(name, hl, "header is not a JSON object"))?;
        match h.get("format").and_then(Value::as_str) {
            Some("nes-trace-1") => {}
            other => {
                return Err(malformed(
                    name,
                    hl,
                    format!("format must be \"nes-trace-1\", found {other:?}"),
                ))
            }
        }
        let kind = match h.get("kind").and_then(Value::as_str) {
            Some("start") => TraceKind::Start,
            Some("resume") => TraceKind::Resume,
            other => {
                return Err(malformed(
                    name,
                    hl,
                    format!("kind must be \"start\" or \"resume\", found {other:?}"),
                ))
            }
        };
        let note = h
            .get("note")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let lag_frames = match h.get("lag_frames") {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| {
                    int_in(v, 1, u32::MAX as i64)
                        .map(|n| n as u32)
                        .ok_or_else(|| {
                            malformed(name, hl, format!("lag_frames: bad frame number {v}"))
                        })
                })
                .collect::<Result<_, _>>()?,
            Some(v) => {
                return Err(malformed(
                    name,
                    hl,
                    format!("lag_frames must be an array, found {v}"),
                ))
            }
        };
        let state = h
            .get("state")
            .and_then(Value::as_object)
            .ok_or_else(|| malformed(name, hl, "header has no \"state\" object"))?;
        for f in FIELDS.iter().chain(["hidden"].iter()) {
            if !state.contains_key(*f) {
                return Err(malformed(
                    name,
                    hl,
                    format!("header state is missing {f:?}"),
                ));
            }
        }
        let mut s = Snapshot {
            rng: 0,
            spawn_id: 0,
            spawn_count: 0,
            frame_counter: 0,
            game_type: 0,
            start_height: 0,
            level: 0,
            lines: 0,
            score: 0,
            piece: 0,
            next: 0,
            x: 0,
            y: 0,
            play_state: 0,
            fall_timer: 0,
            das: 0,
            ary: 0,
            hold_down_points: 0,
            vram_row: 0,
            game_over: false,
            paused: false,
            playfield: Playfield::new(),
        };
        let (mut vis, mut hid) = (String::new(), String::new());
        apply(name, hl, state, &mut s, &mut vis, &mut hid, &[])?;
        s.playfield =
            Playfield::from_strings(&vis, &hid).map_err(|e| malformed(name, hl, e.to_string()))?;
        let header_state = s;
        let mut frames = Vec::new();
        while let Some(ln) = next_line(&mut buf)? {
            let text = buf.trim_end();
            if text.is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(text)
                .map_err(|e| malformed(name, ln, format!("invalid JSON: {e}")))?;
            let o = v
                .as_object()
                .ok_or_else(|| malformed(name, ln, "frame line is not a JSON object"))?;
            let expected_f = frames.len() as u32 + 1;
            let f = o
                .get("f")
                .and_then(|v| int_in(v, 0, u32::MAX as i64))
                .ok_or_else(|| malformed(name, ln, "missing or bad frame number \"f\""))?
                as u32;
            if f != expected_f {
                return Err(malformed(
                    name,
                    ln,
                    format!("frame number {f} out of sequence (expected {expected_f})"),
                ));
            }
            let input = o.get("in").and_then(|v| int_in(v, 0, 255)).ok_or_else(|| {
                malformed(name, ln, "missing or bad controller byte \"in\" (0..=255)")
            })? as u8;
            let (mut v2, mut h2) = (String::new(), String::new());
            apply(name, ln, o, &mut s, &mut v2, &mut h2, &["f", "in"])?;
            if !v2.is_empty() || !h2.is_empty() {
                let vis_s = if v2.is_empty() {
                    s.playfield.visible_string()
                } else {
                    v2
                };
                let hid_s = if h2.is_empty() {
                    s.playfield.hidden_string()
                } else {
                    h2
                };
                s.playfield = Playfield::from_strings(&vis_s, &hid_s)
                    .map_err(|e| malformed(name, ln, e.to_string()))?;
            }
            frames.push(Frame {
                f,
                input,
                expected: s,
            });
        }
        Ok(Trace {
            kind,
            note,
            lag_frames,
            header: header_state,
            frames,
        })
    }

    /// The engine at the trace's starting point.
    pub fn initial_game(&self) -> Result<Game, String> {
        let h = &self.header;
        match self.kind {
            TraceKind::Start => Ok(Game::start(StartConfig {
                rng: h.rng,
                spawn_count: h.spawn_count,
                frame_counter: h.frame_counter,
                das: h.das,
                hold_down_points: h.hold_down_points,
                level: h.level,
                game_type: if h.game_type == 0 {
                    GameType::A
                } else {
                    GameType::B
                },
                start_height: h.start_height,
            })),
            TraceKind::Resume => Game::resume(h).map_err(|e| format!("header state: {e}")),
        }
    }
}

/// How a trace ended, as its note says (`ended: ...`, see FORMAT.md, "How traces end").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A frame limit: the game is still running on the last frame.
    FrameLimit,
    /// Game over: the last 31 frames have `game_over` true (the frame it turns true and 30
    /// frames of the curtain).
    GameOver,
    /// B-type goal: the last frame has the lines at 0 and `play_state` 6.
    BTypeGoal,
    /// Another reason the note gives (e.g. a level reached, the emulated game crashing); not
    /// checked.
    Other(String),
}

/// Frames with `game_over` true at the end of a trace that ends in a game over.
pub const GAME_OVER_FRAMES: usize = 31;

impl Ending {
    /// The ending a note names (`ended: game over`, `ended: frame limit`, `ended: B-type goal
    /// ...`), `None` if the note does not say how the trace ended.
    pub fn from_note(note: &str) -> Option<Ending> {
        let rest = note.split_once("ended: ")?.1;
        let what = rest.split(';').next().unwrap_or_default().trim();
        Some(if what.starts_with("game over") {
            Ending::GameOver
        } else if what.starts_with("frame limit") {
            Ending::FrameLimit
        } else if what.starts_with("B-type goal") {
            Ending::BTypeGoal
        } else {
            Ending::Other(what.to_string())
        })
    }
}

impl Trace {
    /// Checks that the trace can be compared at all and is consistent with the format: it has
    /// frames, its header is not already over, its lag frames follow the lag rule (sorted, each
    /// a recorded frame, never two in a row: the frame after a lag frame starts no logic, so it
    /// cannot overrun), at least one frame is compared, and it ends as its note says.
    pub fn check(&self) -> Result<(), String> {
        if self.frames.is_empty() {
            return Err("the trace has no frames: nothing to compare".into());
        }
        if self.header.game_over {
            return Err(
                "the header is already game_over: after game over only game_over is compared, so the trace compares nothing"
                    .into(),
            );
        }
        let last = self.frames.len() as u32;
        for w in self.lag_frames.windows(2) {
            if w[1] <= w[0] {
                return Err(format!(
                    "lag_frames must be increasing, found {} after {}",
                    w[1], w[0]
                ));
            }
            if w[1] == w[0] + 1 {
                return Err(format!(
                    "lag_frames lists frames {} and {} in a row: the frame after a lag frame starts no logic, so it cannot lag (FORMAT.md, \"Lag\")",
                    w[0], w[1]
                ));
            }
        }
        if let Some(&l) = self.lag_frames.iter().find(|&&l| l == 0 || l > last) {
            return Err(format!(
                "lag_frames names frame {l}, but the trace has frames 1..={last}"
            ));
        }
        let compared = self
            .frames
            .iter()
            .filter(|f| !f.expected.game_over && self.lag_frames.binary_search(&f.f).is_err())
            .count();
        if compared == 0 {
            return Err(
                "no frame is compared (every frame is a lag sample or after game over)".into(),
            );
        }
        let ending = Ending::from_note(&self.note).ok_or_else(|| {
            format!(
                "the note does not say how the trace ended (\"ended: game over\", \"ended: frame limit\", \"ended: B-type goal ...\"): {:?}",
                self.note
            )
        })?;
        let end = &self.frames[self.frames.len() - 1].expected;
        let over = self
            .frames
            .iter()
            .rev()
            .take_while(|f| f.expected.game_over)
            .count();
        match ending {
            Ending::GameOver => {
                if over != GAME_OVER_FRAMES || over == self.frames.len() {
                    return Err(format!(
                        "the note says the trace ended in a game over, but {over} final frames have game_over true (expected {GAME_OVER_FRAMES}: the frame it turns true and 30 frames of the curtain)"
                    ));
                }
            }
            Ending::FrameLimit => {
                if end.game_over {
                    return Err(
                        "the note says the trace ended at a frame limit, but the game is over on its last frame"
                            .into(),
                    );
                }
            }
            Ending::BTypeGoal => {
                if end.game_type != 1 || end.lines & 0xFF != 0 || end.play_state != 6 {
                    return Err(format!(
                        "the note says the trace ended at the B-type goal, but its last frame has game type {}, lines {:#06x}, play_state {} (expected B-type, lines 0, play_state 6)",
                        end.game_type, end.lines, end.play_state
                    ));
                }
            }
            Ending::Other(_) => {}
        }
        Ok(())
    }
}

/// The first difference between the engine and a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Frame number.
    pub frame: u32,
    /// Field name.
    pub field: &'static str,
    /// The trace's value.
    pub expected: String,
    /// The engine's value.
    pub got: String,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "frame {} field {}: expected {}, got {}",
            self.frame, self.field, self.expected, self.got
        )
    }
}

/// Compares two states field by field; `required_only` limits it to the fields the format
/// requires. Returns the first differing field.
pub fn compare(
    expected: &Snapshot,
    got: &Snapshot,
    required_only: bool,
) -> Option<(&'static str, String, String)> {
    macro_rules! cmp {
        ($name:literal, $field:ident) => {
            if (!required_only || REQUIRED.contains(&$name)) && expected.$field != got.$field {
                return Some((
                    $name,
                    format!("{:?}", expected.$field),
                    format!("{:?}", got.$field),
                ));
            }
        };
    }
    if expected.game_over != got.game_over {
        return Some((
            "game_over",
            expected.game_over.to_string(),
            got.game_over.to_string(),
        ));
    }
    if expected.game_over {
        return None;
    }
    cmp!("rng", rng);
    cmp!("spawn_id", spawn_id);
    cmp!("spawn_count", spawn_count);
    cmp!("piece", piece);
    cmp!("next", next);
    cmp!("x", x);
    cmp!("y", y);
    cmp!("level", level);
    cmp!("lines", lines);
    cmp!("score", score);
    cmp!("paused", paused);
    if expected.playfield.visible_string() != got.playfield.visible_string() {
        return Some((
            "field",
            expected.playfield.visible_string(),
            got.playfield.visible_string(),
        ));
    }
    if expected.playfield.hidden_string() != got.playfield.hidden_string() {
        return Some((
            "hidden",
            expected.playfield.hidden_string(),
            got.playfield.hidden_string(),
        ));
    }
    cmp!("frame_counter", frame_counter);
    cmp!("play_state", play_state);
    cmp!("fall_timer", fall_timer);
    cmp!("das", das);
    cmp!("ary", ary);
    cmp!("hold_down_points", hold_down_points);
    cmp!("vram_row", vram_row);
    cmp!("game_type", game_type);
    cmp!("start_height", start_height);
    None
}

/// Replays a trace through the engine. Compares every field (the internal counters too) on
/// every frame except the mid-logic samples of lag frames; after `game_over` turns true only
/// `game_over` is compared. Returns the first divergence, if any; an error when the trace
/// fails [`Trace::check`] (it would compare nothing, breaks the lag rule or ends unlike its
/// note).
pub fn replay(trace: &Trace) -> Result<Option<Divergence>, String> {
    replay_with(trace, false)
}

/// [`replay`], optionally comparing only the fields the format requires ([`REQUIRED`]).
pub fn replay_with(trace: &Trace, required_only: bool) -> Result<Option<Divergence>, String> {
    trace.check()?;
    let mut game = trace.initial_game()?;
    let mut lag_next = false;
    for fr in &trace.frames {
        if lag_next {
            game.step_lagged(fr.input);
            lag_next = false;
        } else {
            game.step(fr.input);
        }
        let lag_here = trace.lag_frames.binary_search(&fr.f).is_ok();
        if lag_here {
            lag_next = true;
            continue;
        }
        if let Some((field, expected, got)) = compare(&fr.expected, &game.snapshot(), required_only)
        {
            return Ok(Some(Divergence {
                frame: fr.f,
                field,
                expected,
                got,
            }));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endings_from_notes() {
        assert_eq!(
            Ending::from_note("A-type level 0, seed 101; ended: game over"),
            Some(Ending::GameOver)
        );
        assert_eq!(
            Ending::from_note("x; ended: frame limit"),
            Some(Ending::FrameLimit)
        );
        assert_eq!(
            Ending::from_note("B; ended: B-type goal reached (ending not recorded)"),
            Some(Ending::BTypeGoal)
        );
        assert_eq!(
            Ending::from_note("level 150; ended: game over; LAG at frames [118]"),
            Some(Ending::GameOver)
        );
        assert_eq!(
            Ending::from_note("y; ended: level reached 155 (stopped)"),
            Some(Ending::Other("level reached 155 (stopped)".into()))
        );
        assert_eq!(Ending::from_note("no ending given"), None);
    }
}
