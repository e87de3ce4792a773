//! The replay file: a game's start, its departures from the original, and one controller byte
//! per frame (format: README.md, "Replay files").
//!
//! Because the engine is exact, the start configuration and the inputs reproduce the game to
//! the frame. The file is versioned, run-length encoded and protected by a CRC-32; reading
//! never panics and every failure names the check and the byte offset.
//!
//! This module depends only on the engine and the standard library (plus `crc32fast`), so the
//! tests can include it directly.

#![allow(dead_code)]

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nestris_engine::{Game, GameType, StartConfig};

/// The first eight bytes of every replay.
pub const MAGIC: [u8; 8] = *b"NESTRISR";
/// The format version this code writes (it reads this one and version 1).
pub const VERSION: u16 = 2;
/// The first version, without the departures byte (read as "no departures").
pub const VERSION_1: u16 = 1;
/// The version of a classic rule set's game: version 2 with a rules block after the AI
/// preset (the rule set and the pieces it dealt); its start fields are zero.
pub const VERSION_3: u16 = 3;
/// Most pieces a classic recording may list.
pub const MAX_PIECES: u32 = 1 << 24;
/// Byte offset of the departures byte (version 2 on).
pub const DEPARTURES_OFFSET: usize = 20;
/// Longest option string (the tap speed and the AI preset name).
pub const MAX_STRING: usize = 255;

/// Who played the recorded game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Unknown or a tool.
    Other = 0,
    /// The AI (`nestris watch`).
    Ai = 1,
    /// A person (`nestris play`).
    Person = 2,
}

impl Source {
    fn from_u8(v: u8) -> Option<Source> {
        match v {
            0 => Some(Source::Other),
            1 => Some(Source::Ai),
            2 => Some(Source::Person),
            _ => None,
        }
    }

    /// A word for reports.
    pub fn label(self) -> &'static str {
        match self {
            Source::Other => "other",
            Source::Ai => "AI",
            Source::Person => "person",
        }
    }
}

/// The options the game was recorded with (informational: the start configuration and the
/// inputs alone reproduce the game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    /// Who played.
    pub source: Source,
    /// `--seed`.
    pub seed: u64,
    /// Game number within the session (0-based index given to `start_config`).
    pub game_index: u64,
    /// AI reaction time in frames (0 for a person).
    pub reaction: u32,
    /// AI tap speed (`--hz`), empty for a person.
    pub hz: String,
    /// AI preset or weights label, empty for a person.
    pub preset: String,
}

impl Default for Meta {
    fn default() -> Self {
        Meta {
            source: Source::Other,
            seed: 0,
            game_index: 0,
            reaction: 0,
            hz: String::new(),
            preset: String::new(),
        }
    }
}

/// Departures from the original game the recorded game ran with (version 2's departures
/// byte). Unlike [`Meta`], these change the game: a replay must set them to reproduce it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Departures {
    /// The double killscreen (from level 39 the piece falls two rows a frame): a departure
    /// from the original game, see `Game::set_double_killscreen`.
    pub double_killscreen: bool,
}

impl Departures {
    /// Bit of the double killscreen in the departures byte.
    pub const DOUBLE_KILLSCREEN: u8 = 0x01;
    /// Every bit this version defines.
    pub const KNOWN: u8 = Self::DOUBLE_KILLSCREEN;

    /// The departures `game` runs with.
    pub fn of(game: &Game) -> Departures {
        Departures {
            double_killscreen: game.double_killscreen(),
        }
    }

    /// The byte stored in the file.
    pub fn to_byte(self) -> u8 {
        if self.double_killscreen {
            Self::DOUBLE_KILLSCREEN
        } else {
            0
        }
    }

    /// The departures of a stored byte; `None` when it has bits this version does not know.
    pub fn from_byte(b: u8) -> Option<Departures> {
        (b & !Self::KNOWN == 0).then_some(Departures {
            double_killscreen: b & Self::DOUBLE_KILLSCREEN != 0,
        })
    }

    /// Whether any departure is on.
    pub fn any(self) -> bool {
        self.to_byte() != 0
    }

    /// Sets them on `game` (before its first frame).
    pub fn apply(self, game: &mut Game) {
        game.set_double_killscreen(self.double_killscreen);
    }
}

/// How the recorded game stood when the recording ended (checked by `replay --check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The game's score, packed BCD as the game keeps it.
    pub score: u32,
    /// The game's line counter as it keeps it.
    pub lines: u16,
    /// Level.
    pub level: u8,
    /// `Ending` as its number (0 = still running).
    pub ending: u8,
}

/// A classic rule set's game in a recording (version 3): the rule set and the pieces it
/// dealt, in order, so the replay deals the same.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassicStart {
    /// 1 = relaytris, 2 = qbasic.
    pub rules: u8,
    /// The pieces dealt, as indices in the NES order (T J Z O S L I = 0..=6).
    pub pieces: Vec<u8>,
}

/// A whole replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// How the game started.
    pub start: StartConfig,
    /// Departures from the original it ran with (none in a version-1 file).
    pub departures: Departures,
    /// Options it was recorded with.
    pub meta: Meta,
    /// The final state, when the recorder saw it.
    pub outcome: Option<Outcome>,
    /// One controller byte per frame.
    pub inputs: Vec<u8>,
    /// A classic rule set's game (version 3); `None` for a NES game.
    pub classic: Option<ClassicStart>,
}

/// Why a file is not a readable replay: the check that failed and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// Byte offset in the file.
    pub offset: usize,
    /// The check that failed.
    pub check: &'static str,
    /// Details.
    pub detail: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} check failed at byte {}: {}",
            self.check, self.offset, self.detail
        )
    }
}

impl std::error::Error for ReplayError {}

fn err(offset: usize, check: &'static str, detail: impl Into<String>) -> ReplayError {
    ReplayError {
        offset,
        check,
        detail: detail.into(),
    }
}

/// Run-length encoding of the inputs: `(byte, run length)`.
pub fn runs(inputs: &[u8]) -> Vec<(u8, u32)> {
    let mut out: Vec<(u8, u32)> = Vec::new();
    for &b in inputs {
        match out.last_mut() {
            Some((v, n)) if *v == b && *n < u32::MAX => *n += 1,
            _ => out.push((b, 1)),
        }
    }
    out
}

fn put_varint(out: &mut Vec<u8>, mut v: u32) {
    loop {
        let b = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    // Cut at a character boundary so the stored string stays valid UTF-8.
    let mut end = s.len().min(MAX_STRING);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    out.push(end as u8);
    out.extend_from_slice(&s.as_bytes()[..end]);
}

/// Encodes a replay whose inputs are already run-length encoded.
#[allow(clippy::too_many_arguments)]
fn encode_runs(
    start: &StartConfig,
    departures: Departures,
    meta: &Meta,
    classic: Option<&ClassicStart>,
    outcome: Option<&Outcome>,
    frames: u32,
    runs: &[(u8, u32)],
) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + runs.len() * 2);
    out.extend_from_slice(&MAGIC);
    let version = if classic.is_some() {
        VERSION_3
    } else {
        VERSION
    };
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&start.rng.to_le_bytes());
    out.push(start.spawn_count);
    out.extend_from_slice(&start.frame_counter.to_le_bytes());
    out.push(start.das);
    out.push(start.hold_down_points);
    out.push(start.level);
    out.push(start.game_type as u8);
    out.push(start.start_height);
    debug_assert_eq!(out.len(), DEPARTURES_OFFSET);
    out.push(departures.to_byte());
    out.push(meta.source as u8);
    out.extend_from_slice(&meta.seed.to_le_bytes());
    out.extend_from_slice(&meta.game_index.to_le_bytes());
    out.extend_from_slice(&meta.reaction.to_le_bytes());
    put_str(&mut out, &meta.hz);
    put_str(&mut out, &meta.preset);
    if let Some(c) = classic {
        out.push(c.rules);
        out.extend_from_slice(&(c.pieces.len() as u32).to_le_bytes());
        out.extend_from_slice(&c.pieces);
    }
    match outcome {
        Some(o) => {
            out.push(1);
            out.extend_from_slice(&o.score.to_le_bytes());
            out.extend_from_slice(&o.lines.to_le_bytes());
            out.push(o.level);
            out.push(o.ending);
        }
        None => {
            out.push(0);
            out.extend_from_slice(&[0; 8]);
        }
    }
    out.extend_from_slice(&frames.to_le_bytes());
    out.extend_from_slice(&(runs.len() as u32).to_le_bytes());
    for &(b, n) in runs {
        out.push(b);
        put_varint(&mut out, n);
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

impl Replay {
    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        encode_runs(
            &self.start,
            self.departures,
            &self.meta,
            self.classic.as_ref(),
            self.outcome.as_ref(),
            self.inputs.len() as u32,
            &runs(&self.inputs),
        )
    }

    /// Parses a file's bytes; every failure says which check failed and at which offset.
    pub fn decode(bytes: &[u8]) -> Result<Replay, ReplayError> {
        /// The most frames a replay may hold: 2^25, about 155 hours at 60.1 frames/s. A run
        /// length is a varint, so a few bytes could otherwise claim billions of frames (gigabytes
        /// of inputs and minutes of replaying).
        const MAX_FRAMES: u32 = 1 << 25;
        let mut r = Reader { bytes, pos: 0 };
        let magic = r.take(8, "magic")?;
        if magic != MAGIC {
            return Err(err(
                0,
                "magic",
                format!(
                    "not a nestris replay: the file starts with {:?}, expected {:?}",
                    String::from_utf8_lossy(magic),
                    String::from_utf8_lossy(&MAGIC)
                ),
            ));
        }
        let version = r.u16("version")?;
        if version != VERSION && version != VERSION_1 && version != VERSION_3 {
            return Err(err(
                8,
                "version",
                format!("format version {version} is not supported (this build reads versions {VERSION_1} to {VERSION_3})"),
            ));
        }
        if bytes.len() < 8 + 2 + 4 {
            return Err(err(bytes.len(), "length", "file too short for a checksum"));
        }
        let body = bytes.len() - 4;
        let stored = u32::from_le_bytes(bytes[body..].try_into().expect("4 bytes"));
        let computed = crc32fast::hash(&bytes[..body]);
        if stored != computed {
            return Err(err(
                body,
                "checksum",
                format!(
                    "stored CRC-32 {stored:#010x} but bytes 0..{body} give {computed:#010x}: the file is damaged or truncated"
                ),
            ));
        }
        let r = &mut Reader {
            bytes: &bytes[..body],
            pos: r.pos,
        };
        let rng = r.u16("start config")?;
        let spawn_count = r.u8("start config")?;
        let frame_counter = r.u16("start config")?;
        let das = r.u8("start config")?;
        let hold_down_points = r.u8("start config")?;
        let level = r.u8("start config")?;
        let at = r.pos;
        let game_type = match r.u8("start config")? {
            0 => GameType::A,
            1 => GameType::B,
            v => {
                return Err(err(
                    at,
                    "game type",
                    format!("{v} is neither 0 (A) nor 1 (B)"),
                ))
            }
        };
        let at = r.pos;
        let start_height = r.u8("start config")?;
        if start_height > 5 {
            return Err(err(
                at,
                "height",
                format!("B-type height {start_height} is out of range 0..=5"),
            ));
        }
        let departures = if version == VERSION_1 {
            Departures::default()
        } else {
            let at = r.pos;
            let b = r.u8("departures")?;
            Departures::from_byte(b).ok_or_else(|| {
                err(
                    at,
                    "departures",
                    format!(
                        "departures byte {b:#04x} has bits this build does not know (known: {:#04x}, the double killscreen)",
                        Departures::KNOWN
                    ),
                )
            })?
        };
        let at = r.pos;
        let source = Source::from_u8(r.u8("options")?)
            .ok_or_else(|| err(at, "source", format!("unknown player kind {}", bytes[at])))?;
        let seed = r.u64("options")?;
        let game_index = r.u64("options")?;
        let reaction = r.u32("options")?;
        let hz = r.string("options")?;
        let preset = r.string("options")?;
        let classic = if version == VERSION_3 {
            let at = r.pos;
            let rules = r.u8("rules")?;
            if !(1..=2).contains(&rules) {
                return Err(err(
                    at,
                    "rules",
                    format!("rule set {rules} is neither 1 (relaytris) nor 2 (qbasic)"),
                ));
            }
            let at = r.pos;
            let count = r.u32("pieces")?;
            if count == 0 || count > MAX_PIECES || count as usize > r.remaining() {
                return Err(err(
                    at,
                    "pieces",
                    format!(
                        "{count} pieces: expected 1..={MAX_PIECES}, within the {} bytes left",
                        r.remaining()
                    ),
                ));
            }
            let mut pieces = Vec::with_capacity(count as usize);
            for _ in 0..count {
                let at = r.pos;
                let p = r.u8("pieces")?;
                if p > 6 {
                    return Err(err(
                        at,
                        "pieces",
                        format!("piece {p} is out of range 0..=6"),
                    ));
                }
                pieces.push(p);
            }
            Some(ClassicStart { rules, pieces })
        } else {
            None
        };
        let at = r.pos;
        let has_outcome = r.u8("outcome")?;
        let score = r.u32("outcome")?;
        let lines = r.u16("outcome")?;
        let out_level = r.u8("outcome")?;
        let ending = r.u8("outcome")?;
        let outcome = match has_outcome {
            0 => None,
            1 => {
                if ending > 3 {
                    return Err(err(
                        at + 8,
                        "outcome",
                        format!("ending {ending} is out of range 0..=3"),
                    ));
                }
                Some(Outcome {
                    score,
                    lines,
                    level: out_level,
                    ending,
                })
            }
            v => return Err(err(at, "outcome", format!("flag {v} is neither 0 nor 1"))),
        };
        let frames_at = r.pos;
        let frames = r.u32("frame count")?;
        if frames > MAX_FRAMES {
            return Err(err(
                frames_at,
                "frame count",
                format!(
                    "{frames} frames is more than a replay may hold ({MAX_FRAMES}, about 155 hours of play)"
                ),
            ));
        }
        let count_at = r.pos;
        let count = r.u32("run count")?;
        if count as usize > r.remaining() / 2 {
            return Err(err(
                count_at,
                "run count",
                format!(
                    "{count} runs cannot fit in the {} bytes left",
                    r.remaining()
                ),
            ));
        }
        let mut inputs = Vec::with_capacity(frames.min(1 << 24) as usize);
        for i in 0..count {
            let b = r.u8("input runs")?;
            let at = r.pos;
            let n = r.varint("input runs")?;
            if n == 0 {
                return Err(err(at, "input runs", format!("run {i} has length 0")));
            }
            if inputs.len() as u64 + n as u64 > frames as u64 {
                return Err(err(
                    at,
                    "frame count",
                    format!(
                        "runs exceed the {frames} frames the header at byte {frames_at} announces"
                    ),
                ));
            }
            inputs.extend(std::iter::repeat_n(b, n as usize));
        }
        if inputs.len() != frames as usize {
            return Err(err(
                r.pos,
                "frame count",
                format!(
                    "runs add up to {} frames but the header at byte {frames_at} says {frames}",
                    inputs.len()
                ),
            ));
        }
        if r.remaining() != 0 {
            return Err(err(
                r.pos,
                "length",
                format!("{} unexpected bytes after the last run", r.remaining()),
            ));
        }
        Ok(Replay {
            start: StartConfig {
                rng,
                spawn_count,
                frame_counter,
                das,
                hold_down_points,
                level,
                game_type,
                start_height,
            },
            departures,
            meta: Meta {
                source,
                seed,
                game_index,
                reaction,
                hz,
                preset,
            },
            outcome,
            inputs,
            classic,
        })
    }

    /// The recorded game before its first frame: its start, with its departures set.
    pub fn start_game(&self) -> Game {
        let mut game = Game::start(self.start);
        self.departures.apply(&mut game);
        game
    }

    /// Reads a replay file.
    pub fn read(path: &Path) -> Result<Replay, ReadError> {
        // At most 256 MiB: the frame cap (2^25 frames) in runs of one frame each is under
        // 200 MiB; a larger file (or `/dev/zero`) is refused before it fills memory.
        const MAX_BYTES: u64 = 256 << 20;
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| {
                std::io::Read::read_to_end(&mut std::io::Read::take(f, MAX_BYTES + 1), &mut bytes)
            })
            .map_err(|e| ReadError::Io(path.to_path_buf(), e))?;
        if bytes.len() as u64 > MAX_BYTES {
            return Err(ReadError::Io(
                path.to_path_buf(),
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("the file is larger than a replay may be ({MAX_BYTES} bytes)"),
                ),
            ));
        }
        Replay::decode(&bytes).map_err(|e| ReadError::Format(path.to_path_buf(), e))
    }
}

/// Reading a replay file failed.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read.
    Io(PathBuf, std::io::Error),
    /// The file is not a valid replay.
    Format(PathBuf, ReplayError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(p, e) => write!(f, "cannot read replay {}: {e}", p.display()),
            ReadError::Format(p, e) => write!(f, "{} is not a valid replay: {e}", p.display()),
        }
    }
}

impl std::error::Error for ReadError {}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], ReplayError> {
        if self.remaining() < n {
            return Err(err(
                self.bytes.len(),
                what,
                format!(
                    "file ends {} bytes too early (truncated)",
                    n - self.remaining()
                ),
            ));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn u8(&mut self, what: &'static str) -> Result<u8, ReplayError> {
        Ok(self.take(1, what)?[0])
    }

    fn u16(&mut self, what: &'static str) -> Result<u16, ReplayError> {
        Ok(u16::from_le_bytes(
            self.take(2, what)?.try_into().expect("2"),
        ))
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, ReplayError> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().expect("4"),
        ))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, ReplayError> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().expect("8"),
        ))
    }

    fn varint(&mut self, what: &'static str) -> Result<u32, ReplayError> {
        let at = self.pos;
        let mut v: u64 = 0;
        for i in 0..5 {
            let b = self.u8(what)?;
            v |= ((b & 0x7F) as u64) << (7 * i);
            if b & 0x80 == 0 {
                return u32::try_from(v)
                    .map_err(|_| err(at, what, "run length does not fit in 32 bits"));
            }
        }
        Err(err(at, what, "run length longer than 5 bytes"))
    }

    fn string(&mut self, what: &'static str) -> Result<String, ReplayError> {
        let n = self.u8(what)? as usize;
        let at = self.pos;
        let b = self.take(n, what)?;
        String::from_utf8(b.to_vec()).map_err(|_| err(at, what, "option text is not UTF-8"))
    }
}

/// Records a game as it is played and keeps the file on disk up to date: saved every few
/// seconds, when finished, and when dropped (also during a panic's unwinding), so a long
/// recording loses at most the last few seconds even if the process is killed.
#[derive(Debug)]
pub struct Recorder {
    path: PathBuf,
    start: StartConfig,
    departures: Departures,
    meta: Meta,
    classic: Option<ClassicStart>,
    outcome: Option<Outcome>,
    runs: Vec<(u8, u32)>,
    frames: u32,
    dirty: bool,
    last_save: Instant,
    /// Time between automatic saves.
    pub interval: Duration,
    failed: Option<String>,
}

impl Recorder {
    /// A recording of a game that starts from `start` with `departures`, saved to `path`
    /// (written at once, so a path that cannot be written fails here, before the game).
    pub fn create(
        path: &Path,
        start: StartConfig,
        departures: Departures,
        meta: Meta,
    ) -> std::io::Result<Recorder> {
        let mut r = Recorder {
            path: path.to_path_buf(),
            start,
            departures,
            meta,
            classic: None,
            outcome: None,
            runs: Vec::new(),
            frames: 0,
            dirty: true,
            last_save: Instant::now(),
            interval: Duration::from_secs(5),
            failed: None,
        };
        r.save()?;
        Ok(r)
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Frames recorded so far.
    pub fn frames(&self) -> u32 {
        self.frames
    }

    /// Appends one frame's controller byte; saves when the interval has passed.
    pub fn push(&mut self, input: u8) {
        match self.runs.last_mut() {
            Some((v, n)) if *v == input && *n < u32::MAX => *n += 1,
            _ => self.runs.push((input, 1)),
        }
        self.frames = self.frames.saturating_add(1);
        self.dirty = true;
        if self.frames.is_multiple_of(64) && self.last_save.elapsed() >= self.interval {
            if let Err(e) = self.save() {
                self.failed = Some(e.to_string());
            }
        }
    }

    /// Records a classic rule set's game: its rule set and the pieces dealt so far (the file
    /// becomes version 3; saved with the next save).
    pub fn set_classic(&mut self, classic: ClassicStart) {
        if self.classic.as_ref() != Some(&classic) {
            self.classic = Some(classic);
            self.dirty = true;
        }
    }

    /// Records how the game stands (saved with the next save).
    pub fn set_outcome(&mut self, outcome: Outcome) {
        if self.outcome != Some(outcome) {
            self.outcome = Some(outcome);
            self.dirty = true;
        }
    }

    /// A save error seen during automatic saving, if any.
    pub fn error(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// Writes the file now (to a temporary file first, then renamed over the target).
    pub fn save(&mut self) -> std::io::Result<()> {
        if !self.dirty {
            return Ok(());
        }
        let bytes = encode_runs(
            &self.start,
            self.departures,
            &self.meta,
            self.classic.as_ref(),
            self.outcome.as_ref(),
            self.frames,
            &self.runs,
        );
        write_atomic(&self.path, &bytes)?;
        self.dirty = false;
        self.last_save = Instant::now();
        Ok(())
    }

    /// Saves and ends the recording.
    pub fn finish(mut self) -> std::io::Result<PathBuf> {
        self.save()?;
        Ok(self.path.clone())
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        let _ = self.save();
    }
}

/// Writes `bytes` to `path` as a whole: to `path.part` first, then renamed over `path`, so a
/// process killed mid-write leaves the previous file intact.
pub fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut tmp = path.to_path_buf().into_os_string();
    tmp.push(".part");
    let tmp = PathBuf::from(tmp);
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_data().ok();
    }
    std::fs::rename(&tmp, path)
}

/// The file for game `index` (0-based) of a session recorded to `path`: `path` itself for the
/// first game, `stem-N.ext` (N from 2) for the others.
pub fn numbered_path(path: &Path, index: u64) -> PathBuf {
    if index == 0 {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{}.{}", index + 1, ext.to_string_lossy()),
        None => format!("{stem}-{}", index + 1),
    };
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Replay {
        Replay {
            start: StartConfig::from_seed(7, 18, GameType::A, 0),
            meta: Meta {
                source: Source::Ai,
                seed: 7,
                game_index: 0,
                reaction: 18,
                hz: "30".into(),
                preset: "default".into(),
            },
            outcome: Some(Outcome {
                score: 0x1234,
                lines: 0x12,
                level: 19,
                ending: 1,
            }),
            departures: Departures::default(),
            inputs: [0u8, 0, 0, 1, 1, 0x80, 0, 0, 0, 0].repeat(100),
            classic: None,
        }
    }

    #[test]
    fn classic_games_are_version_3() {
        let mut r = sample();
        r.start = StartConfig {
            rng: 0,
            spawn_count: 0,
            frame_counter: 0,
            das: 0,
            hold_down_points: 0,
            level: 0,
            game_type: GameType::A,
            start_height: 0,
        };
        r.classic = Some(ClassicStart {
            rules: 2,
            pieces: vec![0, 6, 3, 3, 1],
        });
        let bytes = r.encode();
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION_3);
        assert_eq!(Replay::decode(&bytes).unwrap(), r);
        // The rules byte sits after the two option strings.
        let rules_at = 42 + 1 + r.meta.hz.len() + 1 + r.meta.preset.len();
        let mut bad = bytes.clone();
        bad[rules_at] = 7;
        reseal(&mut bad);
        let e = Replay::decode(&bad).unwrap_err();
        assert_eq!((e.offset, e.check), (rules_at, "rules"), "{e}");
        let mut bad = bytes.clone();
        bad[rules_at + 5] = 9;
        reseal(&mut bad);
        let e = Replay::decode(&bad).unwrap_err();
        assert_eq!((e.offset, e.check), (rules_at + 5, "pieces"), "{e}");
    }

    /// Rewrites the stored checksum after an edit, so the field checks are reached.
    fn reseal(bytes: &mut [u8]) {
        let n = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..n]);
        bytes[n..].copy_from_slice(&crc.to_le_bytes());
    }

    /// A version-1 file of `r` (no departures byte), as the first format wrote it.
    fn encode_v1(r: &Replay) -> Vec<u8> {
        assert!(!r.departures.any(), "version 1 has no departures");
        let mut b = r.encode();
        b[8..10].copy_from_slice(&VERSION_1.to_le_bytes());
        b.remove(DEPARTURES_OFFSET);
        reseal(&mut b);
        b
    }

    #[test]
    fn double_killscreen_round_trips() {
        let mut r = sample();
        r.departures.double_killscreen = true;
        let bytes = r.encode();
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), VERSION);
        assert_eq!(bytes[DEPARTURES_OFFSET], Departures::DOUBLE_KILLSCREEN);
        let back = Replay::decode(&bytes).unwrap();
        assert_eq!(back, r);
        assert!(back.start_game().double_killscreen());
        assert!(!sample().start_game().double_killscreen());
    }

    #[test]
    fn version_1_still_reads() {
        let r = sample();
        let v1 = encode_v1(&r);
        assert_eq!(v1.len() + 1, r.encode().len());
        let back = Replay::decode(&v1).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.departures, Departures::default());
        assert!(!back.start_game().double_killscreen());
    }

    #[test]
    fn unknown_departure_bits_are_rejected_at_their_offset() {
        for bad in [0x02u8, 0x80, 0xFF] {
            let mut b = sample().encode();
            b[DEPARTURES_OFFSET] = bad;
            reseal(&mut b);
            let e = Replay::decode(&b).unwrap_err();
            assert_eq!(e.offset, DEPARTURES_OFFSET, "{e}");
            assert_eq!(e.check, "departures", "{e}");
            let text = e.to_string();
            assert!(
                text.starts_with("departures check failed at byte 20:")
                    && text.contains(&format!("{bad:#04x}")),
                "{text}"
            );
        }
    }

    #[test]
    fn recorder_writes_the_departures() {
        let dir = std::env::temp_dir().join(format!("nestris-rec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("dk.rep");
        let start = StartConfig::from_seed(5, 39, GameType::A, 0);
        let dk = Departures {
            double_killscreen: true,
        };
        let mut rec = Recorder::create(&path, start, dk, Meta::default()).unwrap();
        for i in 0..100u8 {
            rec.push(i & 3);
        }
        rec.finish().unwrap();
        let r = Replay::read(&path).unwrap();
        assert_eq!(r.departures, dk);
        assert_eq!(r.inputs.len(), 100);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn round_trip() {
        let r = sample();
        let bytes = r.encode();
        assert_eq!(Replay::decode(&bytes).unwrap(), r);
    }

    #[test]
    fn every_truncation_and_flip_is_an_error() {
        let bytes = sample().encode();
        for n in 0..bytes.len() {
            assert!(Replay::decode(&bytes[..n]).is_err(), "truncated at {n}");
        }
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x20;
            assert!(Replay::decode(&b).is_err(), "flip at {i}");
        }
    }
}
