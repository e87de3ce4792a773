//! `bench --games-csv FILE`: one line per finished game with everything the report needs, so
//! an interrupted run can be resumed (`--resume`) and its report covers every game.
//!
//! The file is
//!
//! ```text
//! # nestris bench {"ai":"preset default","double_killscreen":true,...}
//! game,score,capped_score,lines,...
//! 0,1234560,999999,430,...
//! ```
//!
//! The first line records the options that decide the games (a resumed run must have the
//! same), the second names the columns, then one line per game in the order the games end.
//! Each line is written with a single write, so a process killed mid-write leaves at most
//! one incomplete last line (no newline); resuming drops it and plays that game again.
//!
//! Decision times are kept per game as a count, an exact sum and a fixed log-spaced
//! histogram ([`DecisionTimes`]): the median and p99 over all decisions are read from the
//! merged histogram, to within one bucket (6%).

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What went wrong with a `--games-csv` file.
#[derive(Debug, thiserror::Error)]
pub enum CsvError {
    /// The file could not be read or written (`what` says which and how far it got).
    #[error("{what}")]
    Io {
        /// What was being done, naming the file.
        what: String,
        /// The error of the system.
        #[source]
        source: std::io::Error,
    },
    /// The file is not one this run can resume (the message names the file, the line and
    /// the problem).
    #[error("{0}")]
    Invalid(String),
}

fn io(what: String) -> impl FnOnce(std::io::Error) -> CsvError {
    move |source| CsvError::Io { what, source }
}

macro_rules! bail {
    ($($t:tt)*) => {
        return Err(CsvError::Invalid(format!($($t)*)))
    };
}

/// Histogram buckets per factor of ten.
pub const BUCKETS_PER_DECADE: u32 = 40;
/// Bucket 0 holds times below 1 µs; bucket `b >= 1` holds times in
/// `[1 µs · 10^((b-1)/40), 1 µs · 10^(b/40))`; the last bucket also holds everything above.
pub const BUCKETS: usize = 1 + 9 * BUCKETS_PER_DECADE as usize;

/// Decision times of one or more games, compactly: count, exact sum, log-spaced histogram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecisionTimes {
    /// Decisions.
    pub count: u64,
    /// Sum of their times in nanoseconds.
    pub sum_ns: u64,
    /// Decisions per bucket (see [`BUCKETS`]).
    pub hist: Vec<u32>,
}

impl Default for DecisionTimes {
    fn default() -> Self {
        DecisionTimes {
            count: 0,
            sum_ns: 0,
            hist: vec![0; BUCKETS],
        }
    }
}

/// The bucket of a time in nanoseconds.
pub fn bucket(ns: u64) -> usize {
    if ns < 1000 {
        return 0;
    }
    let b = (BUCKETS_PER_DECADE as f64 * (ns as f64 / 1000.0).log10()).floor() as usize + 1;
    b.min(BUCKETS - 1)
}

/// The lower and upper bound of bucket `b` in milliseconds.
fn bounds_ms(b: usize) -> (f64, f64) {
    let at = |k: usize| 1e-3 * 10f64.powf(k as f64 / BUCKETS_PER_DECADE as f64);
    if b == 0 {
        (0.0, 1e-3)
    } else {
        (at(b - 1), at(b))
    }
}

impl DecisionTimes {
    /// Adds one decision.
    pub fn record(&mut self, d: Duration) {
        let ns = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.count += 1;
        self.sum_ns = self.sum_ns.saturating_add(ns);
        self.hist[bucket(ns)] += 1;
    }

    /// Adds another set of decisions.
    pub fn merge(&mut self, other: &DecisionTimes) {
        self.count += other.count;
        self.sum_ns = self.sum_ns.saturating_add(other.sum_ns);
        for (a, b) in self.hist.iter_mut().zip(&other.hist) {
            *a += b;
        }
    }

    /// Total time in seconds.
    pub fn total_seconds(&self) -> f64 {
        self.sum_ns as f64 / 1e9
    }

    /// The value of the `k`-th smallest decision (0-based), estimated within its bucket:
    /// the bucket's decisions are taken as spread evenly (on a log scale) over it.
    fn nth_ms(&self, k: u64) -> f64 {
        let mut before = 0u64;
        for (b, &c) in self.hist.iter().enumerate() {
            let c = c as u64;
            if c == 0 {
                continue;
            }
            if k < before + c {
                let (lo, hi) = bounds_ms(b);
                let t = ((k - before) as f64 + 0.5) / c as f64;
                return if b == 0 {
                    hi * t
                } else {
                    lo * (hi / lo).powf(t)
                };
            }
            before += c;
        }
        0.0
    }

    /// The `p`-th percentile in milliseconds (as [`crate::bench::percentile`] over the sorted
    /// times, each time known to within its bucket).
    pub fn percentile_ms(&self, p: f64) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        let rank = p / 100.0 * (self.count - 1) as f64;
        let lo = rank.floor() as u64;
        let hi = rank.ceil() as u64;
        let (a, b) = (self.nth_ms(lo), self.nth_ms(hi));
        a + (b - a) * (rank - lo as f64)
    }

    /// The three CSV fields: count, sum in nanoseconds, and the non-empty buckets as
    /// `bucket:count` separated by spaces.
    pub fn csv_fields(&self) -> String {
        let hist: Vec<String> = self
            .hist
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(b, c)| format!("{b}:{c}"))
            .collect();
        format!("{},{},{}", self.count, self.sum_ns, hist.join(" "))
    }

    /// Parses the three fields of [`DecisionTimes::csv_fields`].
    pub fn parse(count: &str, sum_ns: &str, hist: &str) -> Result<DecisionTimes, String> {
        let mut d = DecisionTimes {
            count: parse_num(count, "decisions")?,
            sum_ns: parse_num(sum_ns, "decision_ns")?,
            ..DecisionTimes::default()
        };
        let mut total = 0u64;
        for pair in hist.split_whitespace() {
            let (b, c) = pair
                .split_once(':')
                .ok_or_else(|| format!("column decision_hist: {pair:?} is not bucket:count"))?;
            let b: usize = parse_num(b, "decision_hist")?;
            let c: u32 = parse_num(c, "decision_hist")?;
            if b >= BUCKETS {
                return Err(format!(
                    "column decision_hist: bucket {b} is out of range 0..{BUCKETS}"
                ));
            }
            d.hist[b] += c;
            total += c as u64;
        }
        if total != d.count {
            return Err(format!(
                "column decision_hist: the buckets hold {total} decisions but column decisions says {}",
                d.count
            ));
        }
        Ok(d)
    }
}

/// The speed bands decision times are also kept by ([`band`]): before level 19, levels
/// 19-28, 29-38 and 39 on, the levels where the piece's fall speeds up (at 39 only with the
/// double killscreen, a departure; the band is kept either way). Each band's column name in
/// a `--games-csv` file.
pub const BANDS: [&str; 4] = [
    "decisions_18",
    "decisions_19",
    "decisions_29",
    "decisions_39",
];

/// The band ([`BANDS`]) of a decision made at `level`.
pub fn band(level: u8) -> usize {
    match level {
        0..=18 => 0,
        19..=28 => 1,
        29..=38 => 2,
        _ => 3,
    }
}

impl DecisionTimes {
    /// One CSV field: [`DecisionTimes::csv_fields`] with `/` in place of its commas.
    pub fn csv_field(&self) -> String {
        self.csv_fields().replace(',', "/")
    }

    /// Parses [`DecisionTimes::csv_field`]'s field of column `column`.
    pub fn parse_field(s: &str, column: &str) -> Result<DecisionTimes, String> {
        let mut parts = s.split('/');
        let (Some(count), Some(ns), Some(hist), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(format!(
                "column {column}: {s:?} is not count/decision_ns/decision_hist"
            ));
        };
        DecisionTimes::parse(count, ns, hist).map_err(|e| format!("column {column}: {e}"))
    }
}

/// Parses one CSV field; the error names the column.
pub fn parse_num<T: std::str::FromStr>(s: &str, column: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("column {column}: {s:?} is not a valid number"))
}

/// Parses a `true`/`false` CSV field.
pub fn parse_bool(s: &str, column: &str) -> Result<bool, String> {
    match s.trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("column {column}: {s:?} is neither true nor false")),
    }
}

/// A finished game as one line of the CSV.
pub trait CsvRow: Sized {
    /// The column names (the file's second line).
    const COLUMNS: &'static str;
    /// The column lines of earlier versions, each the first columns of [`CsvRow::COLUMNS`]:
    /// their files are read (their rows with fewer fields), not resumed.
    const OLD_COLUMNS: &'static [&'static str] = &[];
    /// The game's index.
    fn index(&self) -> u64;
    /// The game's score (for the running mean).
    fn score(&self) -> f64;
    /// The line (without newline), columns as in [`CsvRow::COLUMNS`].
    fn to_line(&self) -> String;
    /// Parses the fields of a line (as many as there are columns); the error names the column.
    fn parse(fields: &[&str]) -> Result<Self, String>;
}

/// The first line's prefix (the options follow as one JSON object).
pub const OPTIONS_PREFIX: &str = "# nestris bench ";

/// The open `--games-csv` file, ready for the lines of the games still to play.
#[derive(Debug)]
pub struct GamesCsv {
    path: PathBuf,
    file: File,
}

/// A resumed file: the games found in it and the file, open for the remaining games.
#[derive(Debug)]
pub struct Resumed<T> {
    /// The games read, in file order.
    pub games: Vec<T>,
    /// The file, cut after its last complete line.
    pub csv: GamesCsv,
    /// Whether an incomplete last line was dropped.
    pub dropped_partial: bool,
}

/// Opens (or creates) `path` for reading and writing, holding its exclusive lock for as long
/// as the file stays open, so that two runs never write one file: a second run is refused
/// before it reads or cuts anything (a file system without locks is used unlocked).
fn open_locked(path: &Path) -> Result<File, CsvError> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io(format!("cannot open {}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "{} is being written by another run (it holds the file's lock): wait for that run to end, or give this one another file",
            path.display()
        ),
        Err(std::fs::TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
            Ok(file)
        }
        Err(std::fs::TryLockError::Error(e)) => {
            Err(io(format!("cannot lock {}", path.display()))(e))
        }
    }
}

/// Empties the locked `file` (at `path`) and writes the two header lines.
fn write_header<T: CsvRow>(
    path: &Path,
    mut file: File,
    options: &serde_json::Value,
) -> Result<GamesCsv, CsvError> {
    use std::io::Seek;
    let header = format!("{OPTIONS_PREFIX}{options}\n{}\n", T::COLUMNS);
    file.set_len(0)
        .and_then(|_| file.seek(std::io::SeekFrom::Start(0)))
        .and_then(|_| file.write_all(header.as_bytes()))
        .and_then(|_| file.flush())
        .map_err(io(format!("cannot write {}", path.display())))?;
    Ok(GamesCsv {
        path: path.to_path_buf(),
        file,
    })
}

impl GamesCsv {
    /// Creates (or overwrites) `path` with the two header lines. The file stays locked while
    /// the returned value lives; a file another run holds is refused, untouched.
    pub fn create<T: CsvRow>(
        path: &Path,
        options: &serde_json::Value,
    ) -> Result<GamesCsv, CsvError> {
        let file = open_locked(path)?;
        write_header::<T>(path, file, options)
    }

    /// Opens `path` to resume an interrupted run with `options`: checks that the file is a
    /// `--games-csv` file written with the same options, reads its games, drops an incomplete
    /// last line, and leaves the file open for appending. A missing file (or one cut inside
    /// its header) starts over.
    pub fn resume<T: CsvRow>(
        path: &Path,
        options: &serde_json::Value,
    ) -> Result<Resumed<T>, CsvError> {
        let name = path.display();
        if !path.exists() {
            return Ok(Resumed {
                games: Vec::new(),
                csv: GamesCsv::create::<T>(path, options)?,
                dropped_partial: false,
            });
        }
        let mut file = open_locked(path)?;
        let bytes = crate::readlimit::read_from(&mut file, crate::readlimit::max::LARGE)
            .map_err(io(format!("cannot read {name}")))?;
        let Parsed {
            games,
            complete,
            restart,
        } = parse::<T>(&name.to_string(), &bytes, options)?;
        if restart {
            return Ok(Resumed {
                games: Vec::new(),
                csv: write_header::<T>(path, file, options)?,
                dropped_partial: !bytes.is_empty(),
            });
        }
        let dropped_partial = complete < bytes.len();
        if dropped_partial {
            file.set_len(complete as u64)
                .map_err(io(format!("cannot cut the incomplete last line of {name}")))?;
        }
        use std::io::Seek;
        file.seek(std::io::SeekFrom::End(0))
            .map_err(io(format!("cannot append to {name}")))?;
        Ok(Resumed {
            games,
            csv: GamesCsv {
                path: path.to_path_buf(),
                file,
            },
            dropped_partial,
        })
    }

    /// Appends one game's line (in one write, flushed).
    pub fn append(&mut self, line: &str) -> Result<(), CsvError> {
        let mut buf = String::with_capacity(line.len() + 1);
        buf.push_str(line);
        buf.push('\n');
        self.file
            .write_all(buf.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(io(format!("cannot write {}", self.path.display())))
    }
}

/// What [`parse`] read from a `--games-csv` file.
#[derive(Debug)]
pub struct Parsed<T> {
    /// The games, in file order.
    pub games: Vec<T>,
    /// The length of the complete lines (an incomplete last line follows).
    pub complete: usize,
    /// Whether the file holds no game yet (empty, or cut inside its header): start over.
    pub restart: bool,
}

/// Reads the bytes of a `--games-csv` file named `name` (for messages) that a run with
/// `options` resumes: its header must match, then one game a line; an incomplete last line
/// (no newline) is left out. The file reader of [`GamesCsv::resume`], without the file.
pub fn parse<T: CsvRow>(
    name: &str,
    bytes: &[u8],
    options: &serde_json::Value,
) -> Result<Parsed<T>, CsvError> {
    parse_in("--resume", name, bytes, Some(options)).map(|(parsed, _)| parsed)
}

/// Reads a whole `--games-csv` file named `name` written with any options, for `nestris
/// compare`: the options recorded on its first line and its games (an incomplete last line,
/// a run still going or cut short, is left out). Errors begin with `context`.
pub fn read_any<T: CsvRow>(
    context: &str,
    name: &str,
    bytes: &[u8],
) -> Result<(serde_json::Value, Vec<T>), CsvError> {
    let (parsed, options) = parse_in(context, name, bytes, None)?;
    if parsed.restart {
        bail!("{context}: {name} holds no game (it is empty or cut inside its two header lines)");
    }
    Ok((options, parsed.games))
}

/// One run's `--games-csv` files read together (e.g. its `--first-game 0` and `--first-game
/// 500` ranges): each file's options line (in order) and the games of all. `files` are the
/// files' names (for messages) and bytes. A game index read twice, in two files or in one,
/// is an error naming both files.
pub fn read_run<T: CsvRow>(
    context: &str,
    files: &[(&str, &[u8])],
) -> Result<(Vec<serde_json::Value>, Vec<T>), CsvError> {
    let mut options = Vec::with_capacity(files.len());
    let mut games = Vec::new();
    let mut seen: std::collections::HashMap<u64, &str> = std::collections::HashMap::new();
    for &(name, bytes) in files {
        let (o, g) = read_any::<T>(context, name, bytes)?;
        options.push(o);
        for game in g {
            if let Some(first) = seen.insert(game.index(), name) {
                bail!(
                    "{context}: game {} is in {first} and again in {name}; give each range of games once",
                    game.index()
                );
            }
            games.push(game);
        }
    }
    Ok((options, games))
}

/// The options a `--games-csv` file named `name` records on its first line, read before its
/// games (e.g. to learn which rule set's rows follow). Errors begin with `context` and name
/// the file: empty, not such a file, or options that are not a JSON object.
pub fn options_of(context: &str, name: &str, bytes: &[u8]) -> Result<serde_json::Value, CsvError> {
    if bytes.is_empty() {
        bail!("{context}: {name} holds no game (it is empty)");
    }
    let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let Ok(first) = std::str::from_utf8(first) else {
        bail!("{context}: {name} is not a nestris bench CSV (line 1 is not UTF-8 text)");
    };
    options_line(context, name, first.strip_suffix('\r').unwrap_or(first))
}

/// Line 1 of a `--games-csv` file: [`OPTIONS_PREFIX`], then the run's options as a JSON
/// object.
fn options_line(context: &str, name: &str, line: &str) -> Result<serde_json::Value, CsvError> {
    let Some(json) = line.strip_prefix(OPTIONS_PREFIX) else {
        bail!(
            "{context}: {name} is not a --games-csv file of this version (line 1 does not start with {:?})",
            OPTIONS_PREFIX.trim_end()
        );
    };
    let recorded: serde_json::Value = serde_json::from_str(json).map_err(|e| {
        CsvError::Invalid(format!(
            "{context}: {name} line 1: the options are not valid JSON: {e}"
        ))
    })?;
    if !recorded.is_object() {
        bail!("{context}: {name} line 1: the options are not a JSON object");
    }
    Ok(recorded)
}

/// [`parse`] with the messages' `context`; with `options`, the file's must be the same. Also
/// returns the options the file records (`null` when it has none yet).
fn parse_in<T: CsvRow>(
    context: &str,
    name: &str,
    bytes: &[u8],
    options: Option<&serde_json::Value>,
) -> Result<(Parsed<T>, serde_json::Value), CsvError> {
    // Complete lines end with a newline; anything after the last one is a line cut short.
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text = std::str::from_utf8(&bytes[..complete]).map_err(|e| {
        CsvError::Invalid(format!(
            "{context}: {name} is not a nestris bench CSV (not UTF-8 text at byte {})",
            e.valid_up_to()
        ))
    })?;
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() < 2 {
        // Cut inside the header (or empty): nothing was recorded yet.
        let head = String::from_utf8_lossy(bytes);
        if !head.is_empty() && !head.starts_with(OPTIONS_PREFIX.trim_end()) {
            bail!("{context}: {name} is not a --games-csv file of this version (its first line does not start with {:?})", OPTIONS_PREFIX.trim_end());
        }
        return Ok((
            Parsed {
                games: Vec::new(),
                complete,
                restart: true,
            },
            serde_json::Value::Null,
        ));
    }
    let recorded = options_line(context, name, lines[0])?;
    if let Some(Err(e)) = options.map(|o| check_options(&recorded, o)) {
        bail!("{context}: {name} was written by a run with other options: {e}");
    }
    let header = if lines[1] == T::COLUMNS {
        T::COLUMNS
    } else if let Some(old) = T::OLD_COLUMNS.iter().find(|&&c| c == lines[1]) {
        if options.is_some() {
            bail!(
                "{context}: {name} line 2: the columns are those of an earlier version ({:?}); this version writes {:?} and cannot append to it: start a new file",
                lines[1],
                T::COLUMNS
            );
        }
        old
    } else {
        bail!(
            "{context}: {name} line 2: the columns are {:?}, this version writes {:?}",
            lines[1],
            T::COLUMNS
        );
    };
    let columns = header.split(',').count();
    let mut games = Vec::new();
    let mut seen: HashMap<u64, usize> = HashMap::new();
    for (i, line) in lines.iter().enumerate().skip(2) {
        let n = i + 1;
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != columns {
            bail!(
                "{context}: {name} line {n}: {} fields, expected {columns} ({header})",
                fields.len()
            );
        }
        let row = T::parse(&fields)
            .map_err(|e| CsvError::Invalid(format!("{context}: {name} line {n}: {e}")))?;
        if let Some(first) = seen.insert(row.index(), n) {
            bail!(
                "{context}: {name} line {n}: game {} is already on line {first}",
                row.index()
            );
        }
        games.push(row);
    }
    Ok((
        Parsed {
            games,
            complete,
            restart: false,
        },
        recorded,
    ))
}

/// Compares the options recorded in a file with the current ones; the error lists every
/// option that differs.
fn check_options(recorded: &serde_json::Value, now: &serde_json::Value) -> Result<(), String> {
    let diffs = option_differences(recorded, now, "in the file", "now")?;
    if !diffs.is_empty() {
        return Err(format!(
            "{}; resume with the same options, or leave out --resume to start over",
            diffs.join("; ")
        ));
    }
    Ok(())
}

/// Every option that differs between two options lines (JSON objects), as `key: A's value
/// {a_label}, B's value {b_label}`, in key order; an error if either is not an object.
pub fn option_differences(
    a: &serde_json::Value,
    b: &serde_json::Value,
    a_label: &str,
    b_label: &str,
) -> Result<Vec<String>, String> {
    let (Some(rec), Some(cur)) = (a.as_object(), b.as_object()) else {
        return Err("the options line is not a JSON object".into());
    };
    let mut keys: Vec<&String> = rec.keys().chain(cur.keys()).collect();
    keys.sort();
    keys.dedup();
    let show = |v: Option<&serde_json::Value>| v.map_or("(absent)".to_string(), |v| v.to_string());
    Ok(keys
        .into_iter()
        .filter(|k| rec.get(*k) != cur.get(*k))
        .map(|k| {
            format!(
                "{k}: {} {a_label}, {} {b_label}",
                show(rec.get(k)),
                show(cur.get(k))
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_log_spaced() {
        assert_eq!(bucket(0), 0);
        assert_eq!(bucket(999), 0);
        assert_eq!(bucket(1000), 1);
        assert_eq!(bucket(10_000), 1 + BUCKETS_PER_DECADE as usize);
        assert_eq!(bucket(u64::MAX), BUCKETS - 1);
        for ns in [1_500u64, 250_000, 1_430_000, 3_370_000, 95_000_000] {
            let (lo, hi) = bounds_ms(bucket(ns));
            let ms = ns as f64 / 1e6;
            assert!(
                lo <= ms * 1.000001 && ms < hi * 1.000001,
                "{ns}: {lo}..{hi}"
            );
            assert!(hi / lo < 1.06);
        }
    }

    #[test]
    fn percentiles_within_a_bucket() {
        let mut d = DecisionTimes::default();
        let mut exact = Vec::new();
        for i in 0..1000u64 {
            let ns = 200_000 + (i * i * 37) % 5_000_000;
            d.record(Duration::from_nanos(ns));
            exact.push(ns as f64 / 1e6);
        }
        exact.sort_by(f64::total_cmp);
        for p in [1.0, 50.0, 99.0] {
            let want = crate::bench::percentile(&exact, p);
            let got = d.percentile_ms(p);
            assert!((got / want - 1.0).abs() < 0.06, "p{p}: {got} vs {want}");
        }
        let back = {
            let f = d.csv_fields();
            let v: Vec<&str> = f.split(',').collect();
            DecisionTimes::parse(v[0], v[1], v[2]).unwrap()
        };
        assert_eq!(back, d);
        let mut two = d.clone();
        two.merge(&d);
        assert_eq!(two.count, 2000);
        assert!((two.percentile_ms(50.0) / d.percentile_ms(50.0) - 1.0).abs() < 0.06);
    }

    /// The options line is read alone, before the games; each way it can be wrong is named.
    #[test]
    fn options_of_reads_line_one_and_names_what_is_wrong() {
        let good = format!("{OPTIONS_PREFIX}{{\"seed\":7}}\r\ngame,score\n");
        let o = options_of("report", "a.csv", good.as_bytes()).unwrap();
        assert_eq!(o["seed"], 7);
        for (bytes, want) in [
            (&b""[..], "report: e.csv holds no game (it is empty)"),
            (
                &b"game,score\n1,2\n"[..],
                "report: e.csv is not a --games-csv file",
            ),
            (
                &b"# nestris bench {\"seed\":\n"[..],
                "report: e.csv line 1: the options are not valid JSON",
            ),
            (
                &b"# nestris bench [1]\n"[..],
                "report: e.csv line 1: the options are not a JSON object",
            ),
            (
                &b"\xff\xfe\n"[..],
                "report: e.csv is not a nestris bench CSV",
            ),
        ] {
            let e = options_of("report", "e.csv", bytes)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(want), "{e}");
        }
    }

    #[test]
    fn bad_histograms_name_the_column() {
        let e = DecisionTimes::parse("2", "10", "5:1").unwrap_err();
        assert!(e.contains("decision_hist") && e.contains("hold 1"), "{e}");
        let e = DecisionTimes::parse("1", "10", "999:1").unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = DecisionTimes::parse("x", "10", "").unwrap_err();
        assert!(e.contains("column decisions"), "{e}");
    }

    /// A band's field holds its decisions as the three decision columns do, `/` for the
    /// commas; a malformed one names its band's column.
    #[test]
    fn band_fields_round_trip_and_name_their_column() {
        assert_eq!(
            [18u8, 0, 19, 28, 29, 38, 39, 255].map(band),
            [0, 0, 1, 1, 2, 2, 3, 3]
        );
        let mut d = DecisionTimes::default();
        for us in [700u64, 7_000, 70_000] {
            d.record(Duration::from_micros(us));
        }
        let field = d.csv_field();
        assert!(!field.contains(','), "{field}");
        assert_eq!(DecisionTimes::parse_field(&field, BANDS[2]), Ok(d));
        assert_eq!(
            DecisionTimes::parse_field("0/0/", BANDS[0]),
            Ok(DecisionTimes::default())
        );
        for bad in ["3/10", "3/10/1:3/4", "2/10/150:1"] {
            let e = DecisionTimes::parse_field(bad, BANDS[1]).unwrap_err();
            assert!(e.starts_with("column decisions_19"), "{bad}: {e}");
        }
    }
}
