//! The game's 16-bit pseudo-random generator (`rng_seed`, RAM `$17`-`$18`) and its piece
//! picker (`pickRandomTetrimino`).

use crate::piece::SPAWN_TABLE;

/// The value the game seeds the generator with at power-on.
pub const POWER_ON_SEED: u16 = 0x8988;

/// The generator's period from [`POWER_ON_SEED`].
pub const PERIOD: u32 = 32767;

/// One step of the generator (`generateNextPseudorandomNumber`): a Fibonacci LFSR whose new
/// bit 15 is bit 9 XOR bit 1 of the old value.
#[inline]
pub const fn step(v: u16) -> u16 {
    (((v >> 9) ^ (v >> 1)) & 1) << 15 | (v >> 1)
}

/// The generator value `n` steps after `v`, in at most [`PERIOD`] steps of work.
///
/// A step drops bit 0, so two values that differ only there have the same successor; after
/// one step the value is in the set of 32,768 values the step maps one-to-one onto itself: 0
/// (which stays 0) and one cycle of [`PERIOD`] values. So after the first step only `(n - 1)
/// mod PERIOD` more steps matter.
pub fn advance(mut v: u16, n: u32) -> u16 {
    if n == 0 {
        return v;
    }
    v = step(v);
    for _ in 0..(n - 1) % PERIOD {
        v = step(v);
    }
    v
}

/// The picker's result: the new `rng_seed`, `spawnID` and `spawnCount`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Generator value after the pick (one extra step when the first choice was rerolled).
    pub rng: u16,
    /// Orientation id of the piece picked (also the new `spawnID`).
    pub spawn_id: u8,
    /// The new spawn counter.
    pub spawn_count: u8,
}

/// The game's piece picker, exactly: the spawn counter goes up by one; the first choice is
/// `(high byte of rng + spawnCount) & 7`; a 7 or a repeat of the previous spawn id rerolls once
/// with one extra generator step, as `((high byte & 7) + previous spawn id) mod 7`.
///
/// original game: the reroll adds the previous *orientation id* (not a piece index), and the
/// reroll may return the previous piece again.
#[inline]
pub fn pick(rng: u16, spawn_id: u8, spawn_count: u8) -> Pick {
    let spawn_count = spawn_count.wrapping_add(1);
    let index = ((rng >> 8) as u8).wrapping_add(spawn_count) & 7;
    if index != 7 {
        let id = SPAWN_TABLE[index as usize] as u8;
        if id != spawn_id {
            return Pick {
                rng,
                spawn_id: id,
                spawn_count,
            };
        }
    }
    let rng = step(rng);
    let index = (((rng >> 8) as u8 & 7) + spawn_id) % 7;
    Pick {
        rng,
        spawn_id: SPAWN_TABLE[index as usize] as u8,
        spawn_count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Orientation;

    #[test]
    fn advance_uses_the_period() {
        // Every value: one step onto the cycle, then the period.
        for v in (0..=u16::MAX).step_by(97) {
            let mut slow = v;
            for _ in 0..(PERIOD + 5) {
                slow = step(slow);
            }
            assert_eq!(advance(v, PERIOD + 5), slow, "value {v:#06x}");
            assert_eq!(advance(v, 1), step(v));
            assert_eq!(advance(v, 0), v);
        }
        // A huge gap costs no more than a period.
        assert_eq!(
            advance(POWER_ON_SEED, u32::MAX),
            advance(POWER_ON_SEED, u32::MAX % PERIOD)
        );
    }

    #[test]
    fn period_from_power_on_is_32767() {
        let mut v = step(POWER_ON_SEED);
        let mut n = 1u32;
        while v != POWER_ON_SEED {
            v = step(v);
            n += 1;
            assert!(n <= 65536);
        }
        assert_eq!(n, PERIOD);
    }

    /// The seed article's piece probabilities, with a uniformly random generator value
    /// (taken over the generator's whole cycle), spawn counter and previous piece.
    #[test]
    fn piece_probabilities_match_the_seed_article() {
        let mut cycle = Vec::with_capacity(PERIOD as usize);
        let mut v = POWER_ON_SEED;
        for _ in 0..PERIOD {
            cycle.push(v);
            v = step(v);
        }
        let mut counts = [0u64; 7];
        let mut total = 0u64;
        for prev in crate::piece::SPAWN_TABLE {
            for count in 0..=255u8 {
                for &r in &cycle {
                    let p = pick(r, prev as u8, count);
                    let kind = Orientation::from_id(p.spawn_id).unwrap().kind();
                    counts[kind as usize] += 1;
                    total += 1;
                }
            }
        }
        // T J Z O S L I, as published: 14.73 14.29 14.29 14.29 14.73 13.84 13.84 (%).
        let expected = [14.73, 14.29, 14.29, 14.29, 14.73, 13.84, 13.84];
        for (i, e) in expected.iter().enumerate() {
            let got = counts[i] as f64 * 100.0 / total as f64;
            assert!((got - e).abs() < 0.01, "piece {i}: {got:.3}% vs {e}%");
        }
    }
}
