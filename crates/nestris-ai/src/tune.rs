//! Seeded, reproducible weight tuning: a (1+1) evolution strategy with multiplicative
//! perturbations and common random numbers (every candidate plays the same games).
//!
//! The fitness function is the caller's (the CLI plays games on all cores); this module only
//! proposes candidates and keeps the best, so the same seed and the same fitness values give the
//! same sequence of candidates on any machine.

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

/// Which numbers the tuner may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Base(usize),
    Killscreen(usize),
    DangerHeight,
    KillscreenDangerHeight,
}

/// The tuner's state.
#[derive(Clone, Debug)]
pub struct Tuner {
    rng: SplitMix64,
    /// Best weights so far.
    pub best: Weights,
    /// Fitness of the best (higher is better).
    pub best_fitness: f64,
    /// Step size (standard deviation of the log-multiplier).
    pub sigma: f64,
    slots: Vec<Slot>,
}

fn get(w: &Weights, s: Slot) -> f64 {
    match s {
        Slot::Base(i) => w.w[i],
        Slot::Killscreen(i) => w.killscreen.as_ref().map_or(w.w[i], |k| k.w[i]),
        Slot::DangerHeight => w.danger_height,
        Slot::KillscreenDangerHeight => w
            .killscreen
            .as_ref()
            .map_or(w.danger_height, |k| k.danger_height),
    }
}

fn set(w: &mut Weights, s: Slot, v: f64) {
    match s {
        Slot::Base(i) => w.w[i] = v,
        Slot::DangerHeight => w.danger_height = v,
        Slot::Killscreen(_) | Slot::KillscreenDangerHeight => {
            if w.killscreen.is_none() {
                w.killscreen = Some(Box::new(Weights {
                    killscreen: None,
                    ..w.clone()
                }));
            }
            let k = w.killscreen.as_mut().expect("set above");
            match s {
                Slot::Killscreen(i) => k.w[i] = v,
                _ => k.danger_height = v,
            }
        }
    }
}

impl Tuner {
    /// Starts from `start` (its fitness must be measured by the caller and given to
    /// [`Tuner::report`] first... or here as `start_fitness`). Only non-zero weights are tuned
    /// (a zero weight stays zero: its feature stays off).
    pub fn new(start: Weights, start_fitness: f64, seed: u64, sigma: f64) -> Tuner {
        let mut slots = Vec::new();
        for i in 0..FEATURES.len() {
            if start.w[i] != 0.0 {
                slots.push(Slot::Base(i));
            }
            if get(&start, Slot::Killscreen(i)) != 0.0 {
                slots.push(Slot::Killscreen(i));
            }
        }
        slots.push(Slot::DangerHeight);
        slots.push(Slot::KillscreenDangerHeight);
        Tuner {
            rng: SplitMix64(seed),
            best: start,
            best_fitness: start_fitness,
            sigma,
            slots,
        }
    }

    /// The next candidate: the best so far with one to three numbers scaled by
    /// `exp(sigma * N(0,1))` (heights move by `±sigma * 4` rows instead).
    pub fn propose(&mut self) -> Weights {
        let mut w = self.best.clone();
        let n = 1 + (self.rng.next_u64() % 3) as usize;
        for _ in 0..n {
            let s = self.slots[(self.rng.next_u64() % self.slots.len() as u64) as usize];
            let v = get(&w, s);
            let nv = match s {
                Slot::DangerHeight | Slot::KillscreenDangerHeight => {
                    (v + self.sigma * 4.0 * self.rng.normal()).clamp(2.0, 19.0)
                }
                _ => v * (self.sigma * self.rng.normal()).exp(),
            };
            set(&mut w, s, nv);
        }
        w
    }

    /// Reports a candidate's fitness; keeps it if better. Returns whether it was kept.
    pub fn report(&mut self, candidate: Weights, fitness: f64) -> bool {
        if fitness > self.best_fitness {
            self.best = candidate;
            self.best_fitness = fitness;
            self.sigma = (self.sigma * 1.2).min(1.0);
            true
        } else {
            self.sigma = (self.sigma * 0.97).max(0.05);
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_candidates() {
        let mut a = Tuner::new(Weights::default(), 0.0, 7, 0.3);
        let mut b = Tuner::new(Weights::default(), 0.0, 7, 0.3);
        for i in 0..20 {
            let (ca, cb) = (a.propose(), b.propose());
            assert_eq!(ca, cb);
            let f = (i * 37 % 11) as f64;
            assert_eq!(a.report(ca, f), b.report(cb, f));
        }
        assert_eq!(a.best, b.best);
    }

    #[test]
    fn zero_weights_stay_zero() {
        let mut t = Tuner::new(Weights::meatfighter_2014(), 0.0, 1, 0.5);
        for _ in 0..50 {
            let c = t.propose();
            assert_eq!(c.get("holes"), 0.0);
            t.report(c, 1.0);
        }
    }
}
