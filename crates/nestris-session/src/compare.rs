//! Paired comparison of two benchmark runs (`nestris compare BASE NEW`): the per-game
//! differences of the games both runs played, for the ablation tables.
//!
//! Game `i` of a seed is the same game in every run (the same pieces, the same start), so two
//! runs of one seed differ only by what the AI did. The standard error of a gain is that of the
//! per-game differences, which is far smaller than the two means' own errors: the hard and easy
//! piece sequences cancel.

use crate::bench::GameResult;
use crate::gamecsv::{option_differences, read_run, CsvError};

/// How a compared column is read from a game.
type Column = (&'static str, fn(&GameResult) -> f64);

/// The columns compared, with how to read each from a game. A file written before the
/// `soft_drop` column counts none: the AI never soft-dropped before it. `from_29` is not a
/// CSV column: it is the score made from level 29 on (`score - before_29`), the part a change
/// made only from level 29 can move.
const COLUMNS: [Column; 10] = [
    ("score", |g| g.score as f64),
    ("lines", |g| g.lines as f64),
    ("before_19", |g| g.before[0] as f64),
    ("before_29", |g| g.before[1] as f64),
    ("from_29", |g| g.score.saturating_sub(g.before[1]) as f64),
    ("before_39", |g| g.before[2] as f64),
    ("tetrises", |g| g.tetrises as f64),
    ("tetris_lines", |g| g.tetris_lines as f64),
    ("pieces", |g| g.pieces as f64),
    ("soft_drop", |g| g.soft_drop.unwrap_or(0) as f64),
];

/// Line counts under which games are counted as lost (levels 19, 29 and 39 from level 18).
pub const BELOW: [u32; 3] = [130, 230, 330];

/// One column's paired statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnGain {
    /// The CSV column.
    pub name: &'static str,
    /// The mean in the base run over the paired games.
    pub base: f64,
    /// The mean in the new run over the paired games.
    pub new: f64,
    /// The mean per-game difference (new minus base).
    pub gain: f64,
    /// The standard error of that mean (sample standard deviation of the differences over
    /// the square root of the number of games).
    pub standard_error: f64,
}

/// Two runs compared game by game.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Games both runs played.
    pub games: usize,
    /// Games only the base run played.
    pub only_base: usize,
    /// Games only the new run played.
    pub only_new: usize,
    /// Each column's gain.
    pub columns: Vec<ColumnGain>,
    /// For each of [`BELOW`]: the paired games that ended below that many lines, in the base
    /// run and in the new one.
    pub below: Vec<(u32, usize, usize)>,
    /// The options that differ between the runs (from their first lines).
    pub option_differences: Vec<String>,
}

/// What is wrong with a comparison's input.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A file is not a readable `--games-csv` file (the message names it, the line and why).
    #[error(transparent)]
    Csv(#[from] CsvError),
    /// The runs have fewer than two games in common: no standard error can be given.
    #[error("the two runs have {common} game(s) in common (by game index); a paired comparison needs at least 2")]
    TooFewCommon {
        /// Games in common.
        common: usize,
    },
}

/// One `--games-csv` file's name (for messages) and bytes.
pub type NamedFile<'a> = (&'a str, &'a [u8]);

/// Reads two runs' `--games-csv` files (their names, for messages, and bytes; a run may be
/// several files, one per range of games) and compares the games both hold, by game index.
/// The options compared are those of each run's first file.
pub fn compare_files(base: &[NamedFile], new: &[NamedFile]) -> Result<Comparison, CompareError> {
    let (base_options, base_games) = read_run::<GameResult>("compare", base)?;
    let (new_options, new_games) = read_run::<GameResult>("compare", new)?;
    let mut c = compare(&base_games, &new_games)?;
    // Each file's options are a JSON object (the reader refuses others); a run of no file has
    // none, which is named rather than read as "the same".
    let first = |o: &[serde_json::Value]| o.first().cloned().unwrap_or_default();
    c.option_differences = option_differences(
        &first(&base_options),
        &first(&new_options),
        "in BASE",
        "in NEW",
    )
    .unwrap_or_else(|e| vec![format!("cannot be compared: {e}")]);
    Ok(c)
}

/// Compares the games both lists hold (by game index).
pub fn compare(base: &[GameResult], new: &[GameResult]) -> Result<Comparison, CompareError> {
    let by_index: std::collections::HashMap<u64, &GameResult> =
        base.iter().map(|g| (g.index, g)).collect();
    let mut pairs: Vec<(&GameResult, &GameResult)> = new
        .iter()
        .filter_map(|n| by_index.get(&n.index).map(|b| (*b, n)))
        .collect();
    pairs.sort_by_key(|(b, _)| b.index);
    let n = pairs.len();
    if n < 2 {
        return Err(CompareError::TooFewCommon { common: n });
    }
    let columns = COLUMNS
        .iter()
        .map(|&(name, get)| {
            let d: Vec<f64> = pairs.iter().map(|(b, x)| get(x) - get(b)).collect();
            let mean = |v: &mut dyn Iterator<Item = f64>| v.sum::<f64>() / n as f64;
            let gain = mean(&mut d.iter().copied());
            let var = d.iter().map(|x| (x - gain) * (x - gain)).sum::<f64>() / (n - 1) as f64;
            ColumnGain {
                name,
                base: mean(&mut pairs.iter().map(|(b, _)| get(b))),
                new: mean(&mut pairs.iter().map(|(_, x)| get(x))),
                gain,
                standard_error: (var / n as f64).sqrt(),
            }
        })
        .collect();
    let below = BELOW
        .iter()
        .map(|&cap| {
            let count = |pick: fn(&(&GameResult, &GameResult)) -> u32| {
                pairs.iter().filter(|p| pick(p) < cap).count()
            };
            (cap, count(|p| p.0.lines), count(|p| p.1.lines))
        })
        .collect();
    Ok(Comparison {
        games: n,
        only_base: base.len() - n,
        only_new: new.len() - n,
        columns,
        below,
        option_differences: Vec::new(),
    })
}

impl Comparison {
    /// The report as a table (numbers rounded to whole units, lines and counts to tenths).
    pub fn table(&self) -> String {
        let mut out = format!(
            "paired games       {} (only in BASE: {}, only in NEW: {})\n",
            self.games, self.only_base, self.only_new
        );
        out.push_str(&format!(
            "{:<14} {:>14} {:>14} {:>14} {:>12}\n",
            "column", "BASE mean", "NEW mean", "gain", "± s.e."
        ));
        for c in &self.columns {
            let prec = if c.base.abs() >= 10_000.0 { 0 } else { 2 };
            out.push_str(&format!(
                "{:<14} {:>14.*} {:>14.*} {:>+14.*} {:>12.*}\n",
                c.name, prec, c.base, prec, c.new, prec, c.gain, prec, c.standard_error
            ));
        }
        for (cap, b, n) in &self.below {
            out.push_str(&format!(
                "ended below {cap:>3} lines: {b} -> {n} of {}\n",
                self.games
            ));
        }
        if self.option_differences.is_empty() {
            out.push_str("options            the same\n");
        } else {
            for d in &self.option_differences {
                out.push_str(&format!("option differs     {d}\n"));
            }
        }
        out
    }

    /// The report as one JSON object.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "games": self.games,
            "only_base": self.only_base,
            "only_new": self.only_new,
            "columns": self.columns.iter().map(|c| serde_json::json!({
                "name": c.name, "base": c.base, "new": c.new,
                "gain": c.gain, "standard_error": c.standard_error,
            })).collect::<Vec<_>>(),
            "ended_below": self.below.iter().map(|(cap, b, n)| serde_json::json!({
                "lines": cap, "base": b, "new": n,
            })).collect::<Vec<_>>(),
            "option_differences": self.option_differences,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: u64, score: u64, lines: u32) -> GameResult {
        GameResult {
            index,
            score,
            lines,
            ..GameResult::default()
        }
    }

    #[test]
    fn gains_are_paired_by_game_index() {
        let base = [game(0, 100, 430), game(1, 200, 200), game(2, 300, 330)];
        // Game 3 is only in the new run; the order of the lines does not matter.
        let new = [
            game(3, 9_999, 1),
            game(2, 330, 330),
            game(0, 110, 430),
            game(1, 250, 300),
        ];
        let c = compare(&base, &new).unwrap();
        assert_eq!((c.games, c.only_base, c.only_new), (3, 0, 1));
        let score = &c.columns[0];
        assert_eq!(score.name, "score");
        assert_eq!((score.base, score.new), (200.0, 230.0));
        // Differences 10, 50, 30: mean 30, sample sd 20, s.e. 20 / sqrt 3.
        assert_eq!(score.gain, 30.0);
        assert!((score.standard_error - 20.0 / 3f64.sqrt()).abs() < 1e-12);
        // Game 1 ends at 200 lines in BASE, 300 in NEW: below 230 in BASE only, below 330 in
        // both.
        assert_eq!(c.below, vec![(130, 0, 0), (230, 1, 0), (330, 1, 1)]);
        assert!(c.table().contains("ended below 230 lines: 1 -> 0 of 3"));
        assert_eq!(c.json()["columns"][0]["gain"], 30.0);
    }

    #[test]
    fn one_game_in_common_is_refused() {
        let e = compare(&[game(0, 1, 1), game(1, 1, 1)], &[game(1, 2, 2)]).unwrap_err();
        assert!(e.to_string().contains("1 game(s) in common"), "{e}");
    }

    #[test]
    fn files_are_read_whatever_their_options_and_the_differences_named() {
        let header = |w: &str| {
            format!(
                "# nestris bench {{\"seed\":1,\"weights\":\"{w}\"}}\n{}\n",
                <GameResult as crate::gamecsv::CsvRow>::COLUMNS
            )
        };
        let line = |i: u64, score: u64| {
            let mut g = game(i, score, 230);
            g.decisions.record(std::time::Duration::from_micros(2500));
            crate::gamecsv::CsvRow::to_line(&g)
        };
        let a = format!("{}{}\n{}\n", header("a.toml"), line(0, 10), line(1, 20));
        // A run still going: its cut last line is left out.
        let b = format!("{}{}\n{}\n1,2", header("b.toml"), line(1, 26), line(0, 12));
        let c = compare_files(&[("a.csv", a.as_bytes())], &[("b.csv", b.as_bytes())]).unwrap();
        assert_eq!(c.games, 2);
        assert_eq!(c.columns[0].gain, 4.0);
        assert_eq!(
            c.option_differences,
            vec!["weights: \"a.toml\" in BASE, \"b.toml\" in NEW".to_string()]
        );
        let e = compare_files(
            &[("a.csv", a.as_bytes())],
            &[("x.csv", &b"game,score\n1,2\n"[..])],
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("compare: x.csv is not a --games-csv file"),
            "{e}"
        );
        let odd = a.replacen("{\"seed\":1,\"weights\":\"a.toml\"}", "5", 1);
        let e =
            compare_files(&[("a.csv", a.as_bytes())], &[("odd.csv", odd.as_bytes())]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "compare: odd.csv line 1: the options are not a JSON object"
        );
        let e = compare_files(&[("a.csv", a.as_bytes())], &[("e.csv", &b""[..])]).unwrap_err();
        assert!(e.to_string().contains("e.csv holds no game"), "{e}");
        let bad = format!("{}0,zz{}\n", header("a"), &line(0, 1)[3..]);
        let e =
            compare_files(&[("a.csv", a.as_bytes())], &[("bad.csv", bad.as_bytes())]).unwrap_err();
        assert!(e.to_string().contains("bad.csv line 3"), "{e}");
    }

    #[test]
    fn a_run_may_be_several_files_and_the_part_from_level_29_is_paired() {
        let header = format!(
            "# nestris bench {{\"seed\":1}}\n{}\n",
            <GameResult as crate::gamecsv::CsvRow>::COLUMNS
        );
        let file = |games: &[(u64, u64, u64)]| {
            let mut s = header.clone();
            for &(i, score, before_29) in games {
                let mut g = game(i, score, 300);
                g.before = [0, before_29, 0];
                g.decisions.record(std::time::Duration::from_micros(2500));
                s.push_str(&crate::gamecsv::CsvRow::to_line(&g));
                s.push('\n');
            }
            s
        };
        // BASE is one file; NEW is two ranges of games, as `--first-game` runs write them.
        let base = file(&[(0, 1000, 400), (1, 2000, 900), (2, 3000, 1000)]);
        let (new0, new1) = (
            file(&[(0, 1100, 400), (1, 1900, 1000)]),
            file(&[(2, 3300, 1100)]),
        );
        let c = compare_files(
            &[("base.csv", base.as_bytes())],
            &[("n0.csv", new0.as_bytes()), ("n1.csv", new1.as_bytes())],
        )
        .unwrap();
        assert_eq!(c.games, 3);
        let col = |name: &str| c.columns.iter().find(|x| x.name == name).unwrap().clone();
        // Score differences 100, -100, 300; before level 29 0, 100, 100; from level 29
        // 100, -200, 200.
        assert!((col("score").gain - 100.0).abs() < 1e-9);
        assert!((col("before_29").gain - 200.0 / 3.0).abs() < 1e-9);
        let from = col("from_29");
        // From level 29: BASE 600, 1100, 2000; NEW 700, 900, 2200.
        assert!((from.base - 3700.0 / 3.0).abs() < 1e-9);
        assert!((from.new - 3800.0 / 3.0).abs() < 1e-9);
        assert!((from.gain - 100.0 / 3.0).abs() < 1e-9);
        // Differences 100, -200, 200 about their mean 33.3: squares sum to 260,000 / 3, the
        // sample variance is that over 2, and the s.e. its root over 3 games.
        assert!((from.standard_error - (260_000.0f64 / 3.0 / 2.0 / 3.0).sqrt()).abs() < 1e-9);
        assert!(c.table().contains("from_29"));
        // A game in two of one run's files is refused, naming both.
        let e = compare_files(
            &[("base.csv", base.as_bytes())],
            &[("n0.csv", new0.as_bytes()), ("again.csv", new0.as_bytes())],
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "compare: game 0 is in n0.csv and again in again.csv; give each range of games once"
        );
    }
}
