//! The board value: the points a board is worth over the pieces to come, learned from the
//! AI's own games (a table of weights, fitted by ridge least squares).
//!
//! # Why
//!
//! The hand-made features price a board's shape; none of them knows what a board is *worth*.
//! Under the double killscreen (two rows a frame from level 39, a departure) that is what the
//! AI lacked: every change to its weights moved lines between survival and Tetrises at nearly
//! the same points, because the features cannot tell a stack worth waiting on from one that
//! dies. The value is fitted to what followed each board in self-play: the discounted points
//! the game scored from that board on (a top-out scores nothing more). Added to the
//! evaluation as one more feature (`board_value`, in thousands of points), it tells the
//! search what the shape is worth at this speed. It is fitted on the boards the games
//! reached, so it knows nothing of boards they never reached.
//!
//! # The table
//!
//! A board reads [`ACTIVE`] entries of [`ENTRIES`], and its value is their sum (an n-tuple
//! network, linear in one-hot features):
//! - for each run of three neighbouring columns (eight runs), their heights, each clamped to
//!   0..=7 (8^3 entries a run): at two rows a frame, how high a column stands decides which
//!   pieces still reach it;
//! - the holes (clamped to 0..=7) by the tallest column (clamped to 0..=10);
//! - the Tetris-ready rows above the well's bottom (full but for the well; clamped to 0..=7);
//! - a constant.
//!
//! [`fit`] solves the ridge normal equations by conjugate gradients, in a fixed order: the
//! same samples give the same table on any machine. The shipped table
//! (`tables/dks-value.txt`) says in its header the commands that made it.

use std::sync::OnceLock;

use crate::board::{Board, ROWS};

/// Runs of three neighbouring columns.
pub const WINDOWS: usize = 8;
/// The height at which a column's height is clamped in the runs.
pub const HEIGHT_CAP: u32 = 7;
const RUN_ENTRIES: usize = 512;
const HOLES_AT: usize = WINDOWS * RUN_ENTRIES;
const HOLES_CAP: u32 = 7;
const TALL_CAP: u32 = 10;
const READY_AT: usize = HOLES_AT + (HOLES_CAP as usize + 1) * (TALL_CAP as usize + 1);
const READY_CAP: usize = 7;
const BIAS_AT: usize = READY_AT + READY_CAP + 1;
/// Entries in a table.
pub const ENTRIES: usize = BIAS_AT + 1;
/// Entries a board reads.
pub const ACTIVE: usize = WINDOWS + 3;

/// The entries a board reads, its well in column `well`. `cols` and `heights` are the board's
/// own ([`Board::columns`], [`Board::heights`]).
pub fn entries(board: &Board, cols: &[u32; 10], heights: &[u32; 10], well: usize) -> [u16; ACTIVE] {
    let mut e = [0u16; ACTIVE];
    let hc = heights.map(|h| h.min(HEIGHT_CAP) as usize);
    for w in 0..WINDOWS {
        e[w] = (w * RUN_ENTRIES + hc[w] * 64 + hc[w + 1] * 8 + hc[w + 2]) as u16;
    }
    let mask = (1u32 << ROWS) - 1;
    let mut holes = 0u32;
    for &c in cols {
        if c != 0 {
            let below = mask & !((1u32 << c.trailing_zeros()) - 1);
            holes += (!c & below).count_ones();
        }
    }
    let tallest = heights.iter().copied().max().unwrap_or(0);
    e[WINDOWS] = (HOLES_AT
        + holes.min(HOLES_CAP) as usize * (TALL_CAP as usize + 1)
        + tallest.min(TALL_CAP) as usize) as u16;
    let ready = board.ready_rows(well, heights[well]);
    e[WINDOWS + 1] = (READY_AT + ready.min(READY_CAP)) as u16;
    e[WINDOWS + 2] = BIAS_AT as u16;
    e
}

/// A value table: one weight per entry, in points.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueTable {
    weights: Vec<f32>,
}

/// What is wrong with a value table's text.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ValueTableError {
    /// A line is not a number.
    #[error("value table line {line}: {what}")]
    Line {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        what: String,
    },
    /// The table has the wrong number of entries.
    #[error("a value table has {ENTRIES} entries, this one {0}")]
    Count(usize),
}

/// The largest weight a table may hold, in points (a game scores a few million).
pub const MAX_WEIGHT: f32 = 1e8;

impl ValueTable {
    /// The board's value, in points.
    pub fn value(&self, board: &Board, cols: &[u32; 10], heights: &[u32; 10], well: usize) -> f64 {
        self.value_of(&entries(board, cols, heights, well))
    }

    /// The value of a board that reads `e`, in points.
    pub fn value_of(&self, e: &[u16; ACTIVE]) -> f64 {
        e.iter().map(|&i| self.weights[i as usize]).sum::<f32>() as f64
    }

    /// The share of the targets' variance the table explains on `samples` (R²; 0 for
    /// samples without variance, negative when the table predicts worse than their mean).
    pub fn r2(&self, samples: &[Sample]) -> f64 {
        let mean = samples.iter().map(|s| s.target).sum::<f64>() / samples.len().max(1) as f64;
        let (mut sse, mut sst) = (0.0, 0.0);
        for s in samples {
            sse += (self.value_of(&s.entries) - s.target).powi(2);
            sst += (s.target - mean).powi(2);
        }
        if sst > 0.0 {
            1.0 - sse / sst
        } else {
            0.0
        }
    }

    /// The weights, one per entry.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// Reads a table: `#` comment lines, then one number a line, [`ENTRIES`] of them.
    pub fn parse(text: &str) -> Result<ValueTable, ValueTableError> {
        let mut weights = Vec::with_capacity(ENTRIES);
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            if weights.len() == ENTRIES {
                return Err(ValueTableError::Count(ENTRIES + 1));
            }
            let v: f32 = t.parse().map_err(|_| ValueTableError::Line {
                line: i + 1,
                what: format!("{t:?} is not a number"),
            })?;
            if !v.is_finite() || v.abs() > MAX_WEIGHT {
                return Err(ValueTableError::Line {
                    line: i + 1,
                    what: format!("{t} is not a finite number within ±{MAX_WEIGHT:e}"),
                });
            }
            weights.push(v);
        }
        if weights.len() != ENTRIES {
            return Err(ValueTableError::Count(weights.len()));
        }
        Ok(ValueTable { weights })
    }

    /// The table as text [`parse`](Self::parse) reads, after the `header` lines (each written
    /// as a `#` comment).
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for l in header.lines() {
            out.push_str("# ");
            out.push_str(l);
            out.push('\n');
        }
        for w in &self.weights {
            out.push_str(&format!("{w}\n"));
        }
        out
    }
}

/// The shipped table: fitted on the double killscreen's boards (well in column 5).
pub fn shipped() -> &'static ValueTable {
    static TABLE: OnceLock<ValueTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        ValueTable::parse(include_str!("../tables/dks-value.txt"))
            .expect("the shipped value table parses (a test checks it)")
    })
}

/// One board of a game and what followed it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The game the board came from (to hold whole games out of a fit).
    pub game: u64,
    /// The entries the board reads.
    pub entries: [u16; ACTIVE],
    /// The discounted points the game scored from this board on.
    pub target: f64,
}

/// The discounted points to come after each of a game's boards: `scores[k]` is the score when
/// the board `k` was faced, the last one the score the game ended with (one more than the
/// boards). Board `k`'s return is `sum over j >= k of gamma^(j-k) (scores[j+1] - scores[j])`.
pub fn returns(scores: &[u64], gamma: f64) -> Vec<f64> {
    let n = scores.len().saturating_sub(1);
    let mut out = vec![0.0; n];
    let mut g = 0.0;
    for k in (0..n).rev() {
        g = scores[k + 1].saturating_sub(scores[k]) as f64 + gamma * g;
        out[k] = g;
    }
    out
}

/// How a fit went.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    /// Conjugate-gradient iterations run.
    pub iterations: usize,
    /// The share of the targets' variance the table explains on its samples (R²).
    pub r2: f64,
}

/// Fits a table to `samples` by ridge least squares: minimises the squared error plus `ridge`
/// times the squared weights (the constant entry is not penalised), by conjugate gradients
/// until the residual falls below 1e-9 of the right-hand side or `max_iterations`.
pub fn fit(samples: &[Sample], ridge: f64, max_iterations: usize) -> (ValueTable, FitReport) {
    let n = ENTRIES;
    let apply = |v: &[f64], out: &mut [f64]| {
        out.iter_mut().zip(v).for_each(|(o, &x)| *o = ridge * x);
        out[BIAS_AT] -= ridge * v[BIAS_AT];
        for s in samples {
            let t: f64 = s.entries.iter().map(|&i| v[i as usize]).sum();
            for &i in &s.entries {
                out[i as usize] += t;
            }
        }
    };
    let mut b = vec![0.0; n];
    for s in samples {
        for &i in &s.entries {
            b[i as usize] += s.target;
        }
    }
    let mut x = vec![0.0; n];
    let mut r = b.clone();
    let mut p = r.clone();
    let mut ap = vec![0.0; n];
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let mut rr = dot(&r, &r);
    let stop = dot(&b, &b) * 1e-18;
    let mut iterations = 0;
    while iterations < max_iterations && rr > stop {
        apply(&p, &mut ap);
        let pap = dot(&p, &ap);
        if pap <= 0.0 {
            break;
        }
        let alpha = rr / pap;
        for i in 0..n {
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        let rr2 = dot(&r, &r);
        let beta = rr2 / rr;
        rr = rr2;
        for i in 0..n {
            p[i] = r[i] + beta * p[i];
        }
        iterations += 1;
    }
    let table = ValueTable {
        weights: x.iter().map(|&w| w as f32).collect(),
    };
    let r2 = table.r2(samples);
    (table, FitReport { iterations, r2 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(board: &Board, well: usize) -> [u16; ACTIVE] {
        entries(board, &board.columns(), &board.heights(), well)
    }

    #[test]
    fn an_empty_board_reads_the_zero_heights_and_the_constant() {
        let e = read(&Board::new(), 5);
        for (w, &i) in e[..WINDOWS].iter().enumerate() {
            assert_eq!(i as usize, w * RUN_ENTRIES);
        }
        assert_eq!(e[WINDOWS] as usize, HOLES_AT);
        assert_eq!(e[WINDOWS + 1] as usize, READY_AT);
        assert_eq!(e[WINDOWS + 2] as usize, BIAS_AT);
        assert_eq!(ENTRIES, 4193);
    }

    #[test]
    fn a_board_reads_its_heights_holes_and_ready_rows() {
        // Four rows full but for column 5, a column-0 spire of 9 rows with one hole in it.
        let b = Board::from_rows_bottom(&[
            "#.........",
            "#.........",
            "#.........",
            "..........",
            "#.........",
            "#####.####",
            "#####.####",
            "#####.####",
            "#####.####",
        ]);
        let e = read(&b, 5);
        // Columns 0, 1, 2: heights 9 (clamped to 7), 4, 4.
        assert_eq!(e[0] as usize, 7 * 64 + 4 * 8 + 4);
        // Columns 4, 5, 6: 4, 0, 4.
        assert_eq!(e[4] as usize, 4 * RUN_ENTRIES + 4 * 64 + 4);
        // One hole, tallest column 9.
        assert_eq!(e[WINDOWS] as usize, HOLES_AT + 11 + 9);
        assert_eq!(e[WINDOWS + 1] as usize, READY_AT + 4);
        // Beside another well, no ready rows.
        assert_eq!(read(&b, 9)[WINDOWS + 1] as usize, READY_AT);
    }

    #[test]
    fn returns_discount_the_points_to_come() {
        let r = returns(&[0, 100, 100, 1100], 0.5);
        assert_eq!(r, vec![100.0 + 0.25 * 1000.0, 0.5 * 1000.0, 1000.0]);
        assert!(returns(&[5], 0.9).is_empty());
    }

    #[test]
    fn a_fit_recovers_the_values_a_table_gave() {
        // Targets made by a known table on pseudo-random entries: the fit predicts them.
        let mut state = 12345u64;
        let mut next = |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let truth: Vec<f32> = (0..ENTRIES)
            .map(|i| ((i * 37) % 101) as f32 * 10.0)
            .collect();
        let truth = ValueTable { weights: truth };
        let samples: Vec<Sample> = (0..20_000)
            .map(|_| {
                let mut e = [0u16; ACTIVE];
                for (w, x) in e[..WINDOWS].iter_mut().enumerate() {
                    *x = (w * RUN_ENTRIES + next(RUN_ENTRIES)) as u16;
                }
                e[WINDOWS] = (HOLES_AT + next(READY_AT - HOLES_AT)) as u16;
                e[WINDOWS + 1] = (READY_AT + next(READY_CAP + 1)) as u16;
                e[WINDOWS + 2] = BIAS_AT as u16;
                Sample {
                    game: 0,
                    entries: e,
                    target: truth.value_of(&e),
                }
            })
            .collect();
        let (table, report) = fit(&samples, 1e-3, 5000);
        assert!(report.r2 > 0.9999, "{report:?}");
        for s in samples.iter().take(100) {
            assert!((table.value_of(&s.entries) - s.target).abs() < 1.0);
        }
        // The same samples, the same table.
        assert_eq!(fit(&samples, 1e-3, 5000).0, table);
    }

    #[test]
    fn a_table_reads_back_what_it_wrote_and_bad_text_is_refused() {
        let t = ValueTable {
            weights: (0..ENTRIES).map(|i| i as f32 * 0.5 - 7.25).collect(),
        };
        let text = t.to_text("made by a test\nsecond line");
        assert!(text.starts_with("# made by a test\n# second line\n"));
        assert_eq!(ValueTable::parse(&text).unwrap(), t);
        assert_eq!(
            ValueTable::parse("# only\n1\n2\n"),
            Err(ValueTableError::Count(2))
        );
        let mut long = text.clone();
        long.push_str("3\n");
        assert_eq!(
            ValueTable::parse(&long),
            Err(ValueTableError::Count(ENTRIES + 1))
        );
        let bad = text.replacen("\n-7.25\n", "\nseven\n", 1);
        assert_eq!(
            ValueTable::parse(&bad),
            Err(ValueTableError::Line {
                line: 3,
                what: "\"seven\" is not a number".into()
            })
        );
        let huge = text.replacen("\n-7.25\n", "\n1e30\n", 1);
        assert!(matches!(
            ValueTable::parse(&huge),
            Err(ValueTableError::Line { line: 3, .. })
        ));
        let nan = text.replacen("\n-7.25\n", "\nNaN\n", 1);
        assert!(matches!(
            ValueTable::parse(&nan),
            Err(ValueTableError::Line { line: 3, .. })
        ));
    }

    #[test]
    fn the_shipped_table_parses() {
        assert_eq!(shipped().weights().len(), ENTRIES);
        assert!(shipped().weights().iter().any(|&w| w != 0.0));
    }
}
