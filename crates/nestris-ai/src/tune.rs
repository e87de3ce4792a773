//! Seeded, reproducible weight tuning: the noisy cross-entropy method (CEM; Thiery & Scherrer
//! 2009 used it for Tetris controllers) over log-multipliers of the weights, with common random
//! numbers (every candidate of a generation plays the same games; each generation new ones).
//!
//! # Design
//!
//! A candidate is the start weights with each tuned number `v` replaced by `v * exp(theta)`,
//! `theta ~ N(mean, sigma^2)` per number (so signs never flip and a zero weight stays off).
//! After every candidate of a generation has a fitness, the best `elite` ones set the next
//! mean and standard deviation, plus a small noise floor (the "noisy" CEM: it keeps the
//! search from collapsing on a lucky sample). The distribution's mean is the result: it is an
//! average over many games, unlike the single best sample, which is mostly luck at a standard
//! error of ~6% per 40 games.
//!
//! The whole state (distribution, the current generation's finished fitnesses) is a small TOML
//! file rewritten after every candidate, so a run stopped at any point resumes where it was.
//! Candidates are drawn from `(seed, generation, index)` alone, so the same seed and the same
//! fitnesses give the same run on any machine. The fitness is the caller's (the CLI plays the
//! games on all cores); this module only does the arithmetic.

use serde::{Deserialize, Serialize};

use crate::eval::{Weights, FEATURES};

/// SplitMix64: a small, well-known generator; the tuner's only source of randomness.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.unit().max(1e-300);
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}

/// The phase tables a tuned number can name: before level 29 (no prefix), `killscreen.` (from
/// level 29 on), `double_killscreen.` (under the double killscreen, a departure, from its
/// table's `from_level`), `before_19.` (before level 19), `endgame.` (the last lines before
/// the line cap under the double killscreen) and `killscreen_end.` (the last lines before the
/// double killscreen's table); the start weights must have the last two tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Table {
    Base,
    Killscreen,
    DoubleKillscreen,
    Before19,
    Endgame,
    KillscreenEnd,
}

fn split(slot: &str) -> (Table, &str) {
    if let Some(n) = slot.strip_prefix("killscreen.") {
        (Table::Killscreen, n)
    } else if let Some(n) = slot.strip_prefix("double_killscreen.") {
        (Table::DoubleKillscreen, n)
    } else if let Some(n) = slot.strip_prefix("before_19.") {
        (Table::Before19, n)
    } else if let Some(n) = slot.strip_prefix("endgame.") {
        (Table::Endgame, n)
    } else if let Some(n) = slot.strip_prefix("killscreen_end.") {
        (Table::KillscreenEnd, n)
    } else {
        (Table::Base, slot)
    }
}

/// The first level at which a tuned number is in force in an A-type game: 0 for a number of
/// `[weights]`, 29 for `killscreen.<name>`, and the table's `from_level` for
/// `double_killscreen.<name>` (39 when the start weights have no such table). Below the
/// smallest of these over the tuned numbers, every candidate plays as the start weights do.
pub fn slot_from_level(start: &Weights, slot: &str) -> u8 {
    match split(slot).0 {
        Table::Base | Table::Before19 => 0,
        Table::Killscreen | Table::KillscreenEnd => 29,
        Table::DoubleKillscreen | Table::Endgame => start
            .double_killscreen
            .as_ref()
            .map_or(nestris_engine::game::DOUBLE_KILLSCREEN_LEVEL, |d| {
                d.from_level
            }),
    }
}

/// A tuned number: `name` (a feature, `danger_height` or `drought_top`) before level 29,
/// from level 29 on (`killscreen.name`), or under the double killscreen
/// (`double_killscreen.name`).
fn get(w: &Weights, slot: &str) -> Option<f64> {
    let (table, name) = split(slot);
    let w = match table {
        Table::Base => w,
        Table::Killscreen => w.at_level(29),
        Table::DoubleKillscreen => w.phases()[3],
        Table::Before19 => w.phases()[4],
        Table::Endgame => w.endgame.as_deref()?,
        Table::KillscreenEnd => w.killscreen_end.as_deref()?,
    };
    if name == "danger_height" {
        return Some(w.danger_height);
    }
    if name == "drought_top" {
        return Some(w.drought_ceiling());
    }
    FEATURES
        .iter()
        .position(|(n, _)| *n == name)
        .map(|i| w.w[i])
}

fn set(w: &mut Weights, slot: &str, v: f64) {
    let (table, name) = split(slot);
    let target = match table {
        Table::Base => w,
        Table::Killscreen => {
            if w.killscreen.is_none() {
                w.killscreen = Some(w.table_from(format!("{} (killscreen)", w.name), 29));
            }
            w.killscreen.as_mut().expect("set above")
        }
        Table::DoubleKillscreen => {
            if w.double_killscreen.is_none() {
                w.double_killscreen = Some(w.at_level(29).table_from(
                    format!("{} (double killscreen)", w.name),
                    nestris_engine::game::DOUBLE_KILLSCREEN_LEVEL,
                ));
            }
            w.double_killscreen.as_mut().expect("set above")
        }
        Table::Before19 => {
            if w.before_19.is_none() {
                let from_level = w.from_level;
                w.before_19 =
                    Some(w.table_from(format!("{} (before level 19)", w.name), from_level));
            }
            w.before_19.as_mut().expect("set above")
        }
        // `get` refuses endgame numbers when the start weights have no such table.
        Table::Endgame => match w.endgame.as_mut() {
            Some(e) => e,
            None => return,
        },
        Table::KillscreenEnd => match w.killscreen_end.as_mut() {
            Some(k) => k,
            None => return,
        },
    };
    if name == "danger_height" {
        target.danger_height = v.clamp(2.0, 19.0);
    } else if name == "drought_top" {
        target.drought_top = Some(v.clamp(1.0, 20.0));
    } else if let Some(i) = FEATURES.iter().position(|(n, _)| *n == name) {
        target.w[i] = v;
    }
}

/// A tuning state that cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TuneError {
    /// The state file is not valid.
    #[error("tuning state: {0}")]
    State(String),
    /// A number to tune that is not a feature, or is zero in the start weights.
    #[error("cannot tune {name:?}: {why}")]
    Slot {
        /// The name given.
        name: String,
        /// Why not.
        why: String,
    },
    /// A setting out of range.
    #[error("{0}")]
    Range(String),
}

/// One finished generation, for the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationSummary {
    /// Generation number (0-based).
    pub generation: u32,
    /// Mean fitness over all its candidates.
    pub mean_fitness: f64,
    /// Mean fitness of its elite.
    pub elite_fitness: f64,
    /// Best candidate's fitness.
    pub best_fitness: f64,
    /// Mean standard deviation of the distribution after it.
    pub sigma: f64,
}

/// A candidate's measured fitness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// Candidate index in its generation.
    pub candidate: usize,
    /// Its fitness (higher is better).
    pub fitness: f64,
}

/// The cross-entropy tuner's whole state (written to and read from a TOML file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cem {
    /// Format version of the state file.
    pub version: u32,
    /// Tuner seed.
    pub seed: u64,
    /// Candidates per generation.
    pub population: usize,
    /// Candidates kept to refit the distribution.
    pub elite: usize,
    /// Noise floor added to each variance after a generation.
    pub noise: f64,
    /// What the caller's fitness depends on (options, games), to refuse resuming with others.
    pub context: String,
    /// The start weights, as a weights file.
    pub start: String,
    /// Tuned numbers: feature names, `danger_height`, `killscreen.<name>` or
    /// `double_killscreen.<name>`.
    pub slots: Vec<String>,
    /// Mean log-multiplier per slot.
    pub mean: Vec<f64>,
    /// Standard deviation per slot.
    pub sigma: Vec<f64>,
    /// Current generation.
    pub generation: u32,
    /// Candidates of the current generation measured so far.
    #[serde(default)]
    pub measured: Vec<Measured>,
    /// Finished generations.
    pub history: Vec<GenerationSummary>,
}

/// The distribution's size and spread.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CemSettings {
    /// Candidates per generation.
    pub population: usize,
    /// Best candidates that refit the distribution.
    pub elite: usize,
    /// Initial standard deviation of the log-multipliers.
    pub sigma: f64,
    /// Noise floor added to each standard deviation after a generation.
    pub noise: f64,
}

/// The numbers tuned by default: every non-zero weight before and from level 29, and both
/// danger heights.
pub fn default_slots(start: &Weights) -> Vec<String> {
    let mut out = Vec::new();
    for (i, (name, _)) in FEATURES.iter().enumerate() {
        if start.w[i] != 0.0 {
            out.push(name.to_string());
        }
    }
    out.push("danger_height".into());
    for (i, (name, _)) in FEATURES.iter().enumerate() {
        if start.at_level(29).w[i] != 0.0 {
            out.push(format!("killscreen.{name}"));
        }
    }
    out.push("killscreen.danger_height".into());
    out
}

impl Cem {
    /// A new run from `start`, tuning `slots` (see [`default_slots`]).
    pub fn new(
        start: &Weights,
        slots: Vec<String>,
        seed: u64,
        settings: CemSettings,
        context: String,
    ) -> Result<Cem, TuneError> {
        let CemSettings {
            population,
            elite,
            sigma,
            noise,
        } = settings;
        if !(2..=1000).contains(&population) || elite == 0 || elite >= population {
            return Err(TuneError::Range(format!(
                "population {population} and elite {elite}: need 2 <= population <= 1000 and 1 <= elite < population"
            )));
        }
        if !(sigma > 0.0 && sigma <= 3.0 && (0.0..=1.0).contains(&noise)) {
            return Err(TuneError::Range(format!(
                "sigma {sigma} must be in (0, 3] and noise {noise} in [0, 1]"
            )));
        }
        for s in &slots {
            match get(start, s) {
                None => {
                    return Err(TuneError::Slot {
                        name: s.clone(),
                        why: "not a feature, danger_height, drought_top, killscreen.<one of those>, double_killscreen.<one of those>, before_19.<one of those>, endgame.<one of those> (with an [endgame] table in the start weights) or killscreen_end.<one of those> (with a [killscreen_end] table)".into(),
                    })
                }
                Some(0.0) => {
                    return Err(TuneError::Slot {
                        name: s.clone(),
                        why: "its start value is 0, and the tuner scales values".into(),
                    })
                }
                Some(_) => {}
            }
        }
        if slots.is_empty() {
            return Err(TuneError::Range("nothing to tune".into()));
        }
        let n = slots.len();
        Ok(Cem {
            version: 1,
            seed,
            population,
            elite,
            noise,
            context,
            start: start.to_toml(),
            slots,
            mean: vec![0.0; n],
            sigma: vec![sigma; n],
            generation: 0,
            measured: Vec::new(),
            history: Vec::new(),
        })
    }

    /// The start weights.
    pub fn start(&self) -> Result<Weights, TuneError> {
        self.start_weights()
    }

    fn start_weights(&self) -> Result<Weights, TuneError> {
        Weights::from_toml(&self.start).map_err(|e| TuneError::State(format!("start weights: {e}")))
    }

    fn weights_at(&self, theta: &[f64], name: String) -> Result<Weights, TuneError> {
        let start = self.start_weights()?;
        let mut w = start.clone();
        w.set_name(name);
        for (s, t) in self.slots.iter().zip(theta) {
            let v = get(&start, s).unwrap_or(0.0) * t.exp();
            set(&mut w, s, v);
        }
        Ok(w)
    }

    fn theta(&self, k: usize) -> Vec<f64> {
        let mut rng = SplitMix64(
            self.seed
                ^ (self.generation as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ (k as u64).wrapping_mul(0xD1B5_4A32_D192_ED03),
        );
        self.mean
            .iter()
            .zip(&self.sigma)
            .map(|(m, s)| m + s * rng.normal())
            .collect()
    }

    /// Candidate `k` of the current generation.
    pub fn candidate(&self, k: usize) -> Result<Weights, TuneError> {
        self.weights_at(
            &self.theta(k),
            format!("cem generation {} candidate {k}", self.generation),
        )
    }

    /// The distribution's mean as weights (the run's result).
    pub fn mean_weights(&self, name: &str) -> Result<Weights, TuneError> {
        self.weights_at(&self.mean, name.to_string())
    }

    /// The candidates of this generation still without a fitness.
    pub fn pending(&self) -> Vec<usize> {
        (0..self.population)
            .filter(|&k| !self.measured.iter().any(|m| m.candidate == k))
            .collect()
    }

    /// Records candidate `k`'s fitness (higher is better); when the generation is complete,
    /// refits the distribution to its elite and starts the next one (returns its summary).
    pub fn record(&mut self, k: usize, fitness: f64) -> Option<GenerationSummary> {
        if k >= self.population || !self.pending().contains(&k) {
            return None;
        }
        self.measured.push(Measured {
            candidate: k,
            fitness,
        });
        if !self.pending().is_empty() {
            return None;
        }
        let mut order: Vec<(f64, usize)> = self
            .measured
            .iter()
            .map(|m| (m.fitness, m.candidate))
            .collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let elite: Vec<Vec<f64>> = order[..self.elite]
            .iter()
            .map(|&(_, k)| self.theta(k))
            .collect();
        let e = elite.len() as f64;
        for i in 0..self.mean.len() {
            let m = elite.iter().map(|t| t[i]).sum::<f64>() / e;
            let v = elite.iter().map(|t| (t[i] - m) * (t[i] - m)).sum::<f64>() / e;
            self.mean[i] = m;
            self.sigma[i] = (v + self.noise * self.noise).sqrt();
        }
        let all: Vec<f64> = order.iter().map(|o| o.0).collect();
        let summary = GenerationSummary {
            generation: self.generation,
            mean_fitness: all.iter().sum::<f64>() / all.len() as f64,
            elite_fitness: all[..self.elite].iter().sum::<f64>() / e,
            best_fitness: all[0],
            sigma: self.sigma.iter().sum::<f64>() / self.sigma.len() as f64,
        };
        self.history.push(summary.clone());
        self.generation += 1;
        self.measured.clear();
        Some(summary)
    }

    /// The state as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("the tuning state serialises")
    }

    /// Reads a state written by [`Cem::to_toml`], checking that it is consistent.
    pub fn from_toml(text: &str) -> Result<Cem, TuneError> {
        let c: Cem = toml::from_str(text).map_err(|e| TuneError::State(e.to_string()))?;
        let n = c.slots.len();
        if c.version != 1 {
            return Err(TuneError::State(format!(
                "version {} (this build reads 1)",
                c.version
            )));
        }
        if c.mean.len() != n || c.sigma.len() != n {
            return Err(TuneError::State(format!(
                "{n} slots but {} means and {} sigmas",
                c.mean.len(),
                c.sigma.len(),
            )));
        }
        if let Some(m) = c.measured.iter().find(|m| m.candidate >= c.population) {
            return Err(TuneError::State(format!(
                "measured candidate {} of a population of {}",
                m.candidate, c.population
            )));
        }
        // The limits `Cem::new` sets (a population of billions would never finish a
        // generation, and listing its pending candidates alone would exhaust memory).
        if !(2..=1000).contains(&c.population) || c.elite == 0 || c.elite >= c.population {
            return Err(TuneError::State(format!(
                "population {} and elite {}: need 2 <= population <= 1000 and 1 <= elite < population",
                c.population, c.elite
            )));
        }
        if !(0.0..=1.0).contains(&c.noise) {
            return Err(TuneError::State(format!(
                "noise {} must be in [0, 1]",
                c.noise
            )));
        }
        if n == 0 {
            return Err(TuneError::State("no slot to tune".into()));
        }
        let mut seen = vec![false; c.population];
        for m in &c.measured {
            if m.candidate >= c.population {
                break; // reported below
            }
            if std::mem::replace(&mut seen[m.candidate], true) {
                return Err(TuneError::State(format!(
                    "candidate {} is measured twice",
                    m.candidate
                )));
            }
        }
        if c.mean.iter().chain(&c.sigma).any(|v| !v.is_finite()) {
            return Err(TuneError::State(
                "a mean or sigma is not a finite number".into(),
            ));
        }
        let start = c.start_weights()?;
        for s in &c.slots {
            if get(&start, s).is_none() {
                return Err(TuneError::Slot {
                    name: s.clone(),
                    why: "not a feature of this build".into(),
                });
            }
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(population: usize, elite: usize, sigma: f64, noise: f64) -> CemSettings {
        CemSettings {
            population,
            elite,
            sigma,
            noise,
        }
    }

    fn cem(seed: u64) -> Cem {
        let w = Weights::default();
        Cem::new(
            &w,
            default_slots(&w),
            seed,
            settings(6, 2, 0.3, 0.05),
            "test".into(),
        )
        .unwrap()
    }

    #[test]
    fn states_outside_the_tuners_limits_are_refused() {
        let good = cem(7).to_toml();
        assert!(Cem::from_toml(&good).is_ok());
        for (from, to, says) in [
            ("population = 6", "population = 1000000000000", "population"),
            ("population = 6", "population = 1", "population"),
            ("noise = 0.05", "noise = nan", "noise"),
            ("noise = 0.05", "noise = 2.0", "noise"),
        ] {
            assert!(good.contains(from), "{from}");
            let e = Cem::from_toml(&good.replacen(from, to, 1)).expect_err(to);
            assert!(e.to_string().contains(says), "{to}: {e}");
        }
        let mut twice = cem(7);
        twice.record(1, 1.0);
        let t = twice.to_toml();
        let dup = t.clone() + "\n[[measured]]\ncandidate = 1\nfitness = 2.0\n";
        let e = Cem::from_toml(&dup).expect_err("measured twice");
        assert!(e.to_string().contains("twice"), "{e}");
    }

    #[test]
    fn same_seed_same_run_and_state_round_trips() {
        let (mut a, mut b) = (cem(7), cem(7));
        for g in 0..3 {
            for k in 0..6 {
                assert_eq!(a.candidate(k).unwrap(), b.candidate(k).unwrap());
                let f = ((g * 6 + k) * 37 % 11) as f64;
                a.record(k, f);
                // Resume from the file after every candidate.
                b = Cem::from_toml(&b.to_toml()).unwrap();
                b.record(k, f);
            }
        }
        assert_eq!(a, b);
        assert_eq!(a.generation, 3);
        assert_eq!(a.history.len(), 3);
        assert_ne!(cem(8).candidate(0).unwrap(), cem(7).candidate(0).unwrap());
    }

    #[test]
    fn the_endgame_table_is_tuned_when_the_start_has_one() {
        let w = Weights::default();
        assert_eq!(slot_from_level(&w, "endgame.tetrises"), 39);
        let slots = vec!["endgame.tetrises".to_string()];
        let c = Cem::new(&w, slots.clone(), 5, settings(4, 1, 0.3, 0.05), "t".into()).unwrap();
        let cand = c.candidate(0).unwrap();
        assert_ne!(get(&cand, &slots[0]), get(&w, &slots[0]));
        assert_eq!(cand.phases()[3].w, w.phases()[3].w);
        let back = Weights::from_toml(&cand.to_toml()).unwrap();
        assert_eq!(back.phases(), cand.phases());
        let plain = Weights {
            endgame: None,
            ..Weights::default()
        };
        let e = Cem::new(&plain, slots, 5, settings(4, 1, 0.3, 0.05), "t".into()).unwrap_err();
        assert!(e.to_string().contains("[endgame] table"), "{e}");
    }

    #[test]
    fn each_table_is_tuned_on_its_own() {
        let w = Weights::default();
        let slots: Vec<String> = [
            "burns",
            "killscreen.burns",
            "double_killscreen.burns",
            "before_19.danger_height",
        ]
        .map(String::from)
        .into();
        assert_eq!(
            slots
                .iter()
                .map(|s| slot_from_level(&w, s))
                .collect::<Vec<_>>(),
            [0, 29, 39, 0]
        );
        let c = Cem::new(&w, slots.clone(), 5, settings(4, 1, 0.3, 0.05), "t".into()).unwrap();
        let cand = c.candidate(0).unwrap();
        // Each slot moved its own table only, and the candidate's file reads back the same.
        for s in &slots {
            assert_ne!(get(&cand, s), get(&w, s), "{s}");
        }
        assert_eq!(
            cand.at(29, true).get("tetrises"),
            w.at(29, true).get("tetrises")
        );
        assert_eq!(
            Weights::from_toml(&cand.to_toml()).unwrap().phases(),
            cand.phases()
        );
        // A start without a double-killscreen table gets one from its killscreen weights.
        let plain = Weights {
            double_killscreen: None,
            ..Weights::default()
        };
        let mut t = plain.clone();
        set(&mut t, "double_killscreen.burns", 1.5);
        assert_eq!(t.at(39, true).get("burns"), 1.5);
        assert_eq!(
            t.at(39, false).get("burns"),
            plain.at(39, false).get("burns")
        );
        assert_eq!(
            t.at(39, true).get("tetrises"),
            plain.at(29, false).get("tetrises")
        );
        // A [before_19] table starts from the base weights and acts below level 19 only.
        let mut b = Weights {
            before_19: None,
            ..Weights::default()
        };
        set(&mut b, "before_19.danger_height", 13.0);
        assert_eq!(b.at(18, true).danger_height, 13.0);
        assert_eq!(b.at(18, true).w, b.w);
        assert_eq!(b.at(19, true).danger_height, b.danger_height);
    }

    #[test]
    fn moves_towards_the_elite() {
        // Fitness = minus the holes weight: the mean's holes weight must go down.
        let mut c = cem(3);
        let holes0 = c.mean_weights("m").unwrap().get("holes");
        for _ in 0..6 {
            for k in c.pending() {
                let f = -c.candidate(k).unwrap().get("holes");
                c.record(k, f);
            }
        }
        assert!(c.mean_weights("m").unwrap().get("holes") < holes0 * 0.8);
        // Signs never flip; zero weights stay zero.
        let m = c.mean_weights("m").unwrap();
        assert!(m.get("tetrises") < 0.0);
        assert_eq!(m.get("points"), 0.0);
    }

    #[test]
    fn bad_settings_and_states_are_refused() {
        let w = Weights::default();
        assert!(Cem::new(
            &w,
            vec!["bogus".into()],
            1,
            settings(6, 2, 0.3, 0.0),
            String::new()
        )
        .is_err());
        assert!(Cem::new(
            &w,
            vec!["points".into()],
            1,
            settings(6, 2, 0.3, 0.0),
            String::new()
        )
        .is_err());
        assert!(Cem::new(
            &w,
            default_slots(&w),
            1,
            settings(6, 6, 0.3, 0.0),
            String::new()
        )
        .is_err());
        assert!(Cem::new(
            &w,
            default_slots(&w),
            1,
            settings(6, 2, f64::NAN, 0.0),
            String::new()
        )
        .is_err());
        assert!(Cem::from_toml("").is_err());
        assert!(Cem::from_toml("version = 1").is_err());
        let mut c = cem(1);
        c.mean.pop();
        assert!(Cem::from_toml(&c.to_toml()).is_err());
    }
}
