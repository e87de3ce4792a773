//! The surface table: how many of the next pieces a stack's surface can take without a hole.
//!
//! The surface is the nine columns beside the well, read as the eight height differences of
//! neighbouring columns, each clamped to -3..=3 (7^8 = 5,764,801 surfaces). A surface's value
//! is computed by value iteration over [`HORIZON`] pieces: the expected number of the next
//! pieces, each drawn from the seven with equal chance, that can be placed flat on the surface
//! (every cell of the piece's underside resting on a column top: no hole), placing each where
//! the rest of the run is longest; the I piece may always go into the well and leave the
//! surface as it was. A surface that cannot take some piece loses that piece's share of the
//! run. The evaluation's `surface` feature is `HORIZON` minus that value: the pieces short of
//! a full run.
//!
//! The idea is StackRabbit's (a table over 7^8 clamped surfaces, filled by value iteration, as
//! in acervus); the code and the piece model here are our own. Line clears do not change a
//! surface (every column falls by the same count), reach and spins are not modelled, and a
//! difference clamped at 3 stands for a cliff of any depth.
//!
//! A well inside the playfield (the double killscreen's middle well) splits the nine columns
//! into two segments with the well between them: no piece lies across it. Four more tables,
//! of 7^7 surfaces each (one difference fewer), serve a well in columns 1-4, and mirrored
//! 8-5 ([`crate::surface_vi::compute_split`]).
//!
//! The table is made by the crate's build script (`build.rs`, running
//! [`surface_vi`](crate::surface_vi)'s value iteration: about 14 s of CPU, 7 s on 2 cores) and
//! embedded in the library, one byte per surface (the value in 25ths of a piece, 5.8 MB):
//! nothing to load or compute at run time. Each surface's value depends only on the
//! previous iteration, so the table is the same on any machine and thread count.

use crate::surface_vi::{split_index, CLAMP, DIFFS};
pub use crate::surface_vi::{HORIZON, QUANTA, SPLIT_SURFACES, SURFACES};

/// The table the build script made: one byte per surface, its value times [`QUANTA`].
static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/surface.bin"));

/// The tables of a well in column 1, 2, 3 or 4 (and, mirrored, 8, 7, 6 or 5): the nine
/// columns are two segments with the well between them, each a surface of its own
/// ([`crate::surface_vi::compute_split`]), one byte per surface as [`TABLE`].
static SPLIT: [&[u8]; 4] = [
    include_bytes!(concat!(env!("OUT_DIR"), "/surface-split0.bin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/surface-split1.bin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/surface-split2.bin")),
    include_bytes!(concat!(env!("OUT_DIR"), "/surface-split3.bin")),
];

/// Expected pieces placed without a hole, out of [`HORIZON`], from a surface
/// ([`surface_index`]).
#[inline]
pub fn value(index: usize) -> f32 {
    TABLE[index] as f32 / QUANTA
}

/// The `surface` feature of a board's column heights: [`HORIZON`] minus the value of the
/// nine columns beside the well (the table is symmetric: the piece set is its own mirror
/// image). A well at an edge reads the nine columns away from it; a well inside the playfield
/// reads the columns on each side as a segment of its own (no piece lies across the well),
/// from the split table of its column.
#[inline]
pub fn shortfall(heights: &[u32; 10], well: usize) -> f64 {
    Entry::locate(heights, well).shortfall()
}

/// A surface's byte in the table that serves its well, located but not yet read: the table
/// (5.8 MB) is read at random, one board at a time, and most reads miss the processor's
/// caches. [`Entry::prefetch`] asks for the byte's cache line as soon as the heights are
/// known, so that the evaluation's other features are computed while it arrives
/// ([`Entry::shortfall`] then reads it).
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    table: &'static [u8],
    index: usize,
}

impl Entry {
    /// The byte [`shortfall`] reads for these heights and well.
    #[inline]
    pub fn locate(heights: &[u32; 10], well: usize) -> Entry {
        match split_of(well) {
            None => Entry {
                table: TABLE,
                index: surface_index(heights, well),
            },
            Some((table, mirrored)) => Entry {
                table: SPLIT[table],
                index: split_surface_index(heights, well, table, mirrored),
            },
        }
    }

    /// Asks for the byte's cache line (a hint: it changes no value, and does nothing on
    /// processors other than x86-64).
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(self) {
        #[cfg(target_arch = "x86_64")]
        if let Some(byte) = self.table.get(self.index) {
            // SAFETY: a prefetch reads nothing into the program and cannot fault; the
            // address is that of a byte of the table in any case.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    (byte as *const u8).cast::<i8>(),
                )
            }
        }
    }

    /// [`shortfall`]: [`HORIZON`] minus the surface's value.
    #[inline]
    pub fn shortfall(self) -> f64 {
        let byte = self.table[self.index];
        (HORIZON as f64 * QUANTA as f64 - byte as f64) / QUANTA as f64
    }
}

/// For a well inside the playfield (columns 1-8): the split table that serves it (0-3) and
/// whether the board is read mirrored (a well in 5-8 is the mirror image of one in 4-1).
#[inline]
fn split_of(well: usize) -> Option<(usize, bool)> {
    match well {
        1..=4 => Some((well - 1, false)),
        5..=8 => Some((8 - well, true)),
        _ => None,
    }
}

/// The nine columns beside the well, left to right (a well at 0 reads them right to left:
/// away from it).
#[inline]
fn beside(heights: &[u32; 10], well: usize) -> [i32; 9] {
    let mut cols = [0i32; 9];
    let mut n = 0;
    if well == 0 {
        for x in (1..10).rev() {
            cols[n] = heights[x] as i32;
            n += 1;
        }
    } else {
        for (x, &h) in heights.iter().enumerate() {
            if x != well && n < 9 {
                cols[n] = h as i32;
                n += 1;
            }
        }
    }
    cols
}

/// The clamped height differences of nine columns.
#[inline]
fn diffs(cols: &[i32; 9]) -> [i32; DIFFS] {
    let mut d = [0i32; DIFFS];
    for (j, dj) in d.iter_mut().enumerate() {
        *dj = (cols[j + 1] - cols[j]).clamp(-CLAMP, CLAMP);
    }
    d
}

/// The table index of the nine columns beside a well at an edge (0 or 9; other columns are
/// read as if the columns on both sides of the well were one surface: [`shortfall`] uses the
/// split tables for them).
#[inline]
pub fn surface_index(heights: &[u32; 10], well: usize) -> usize {
    split_index(&diffs(&beside(heights, well)), None)
}

/// The index, in split table `table`, of the two segments beside a well in columns 1-8
/// (`table` and `mirrored` from [`split_of`]).
#[inline]
fn split_surface_index(heights: &[u32; 10], well: usize, table: usize, mirrored: bool) -> usize {
    let mut cols = beside(heights, well);
    if mirrored {
        cols.reverse();
    }
    split_index(&diffs(&cols), Some(table))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::surface_vi::{compute, BASE};

    fn embedded(h: [u32; 10]) -> f32 {
        value(surface_index(&h, 9))
    }

    #[test]
    fn the_embedded_table_is_the_full_one() {
        assert_eq!(TABLE.len(), SURFACES);
        // A flat surface takes every piece but S and Z (the first piece's 5/7 and the
        // same loss later, less what a run recovers).
        let flat = embedded([4; 10]);
        assert!((6.0..7.5).contains(&flat), "{flat}");
        assert!((shortfall(&[4; 10], 9) - (HORIZON as f32 - flat) as f64).abs() < 1e-5);
    }

    #[test]
    fn a_flat_surface_takes_every_piece_but_s_and_z() {
        // One piece ahead: T, J, O, L and I fit a flat surface; S and Z leave a hole.
        let one = compute(1);
        let flat = surface_index(&[4; 10], 9);
        assert!((one[flat] - 5.0 / 7.0).abs() < 1e-6);
        // Steps for S and Z on the left: every piece fits.
        let steps = surface_index(&[5, 4, 4, 4, 4, 4, 4, 5, 5, 0], 9);
        assert!((one[steps] - 1.0).abs() < 1e-6, "{}", one[steps]);
    }

    #[test]
    fn jagged_surfaces_are_worth_less() {
        let good = embedded([5, 4, 4, 4, 4, 4, 4, 5, 5, 0]);
        let two_wide = embedded([5, 4, 4, 4, 4, 4, 4, 8, 5, 0]);
        let spiky = embedded([0, 6, 0, 6, 0, 6, 0, 6, 0, 0]);
        assert!(
            good > two_wide && two_wide > spiky,
            "{good} {two_wide} {spiky}"
        );
        // Only the I (into the well, or into the pits) fits the spikes: one piece in seven
        // each time, so at most 1/7 of a run of 10 plus change.
        assert!(spiky < 1.0 + 1e-6, "{spiky}");
    }

    #[test]
    fn the_well_side_reads_as_a_mirror() {
        let right = [3, 4, 4, 6, 2, 2, 3, 3, 1, 0];
        let mut left = right;
        left.reverse();
        assert_eq!(surface_index(&right, 9), surface_index(&left, 0));
        // Mirror-image surfaces are worth the same: the piece set is its own mirror.
        let mut mirrored = [0u32; 10];
        for x in 0..9 {
            mirrored[x] = right[8 - x];
        }
        assert_eq!(embedded(right), embedded(mirrored));
    }

    #[test]
    fn clamping_reads_cliffs_as_three() {
        let a = surface_index(&[0, 9, 9, 9, 9, 9, 9, 9, 9, 0], 9);
        let b = surface_index(&[6, 9, 9, 9, 9, 9, 9, 9, 9, 0], 9);
        assert_eq!(a, b);
        assert!(a < SURFACES);
        // The differences are the digits, the first the lowest: 3 x 6, 2, 0 (offset by 3).
        let up = surface_index(&[0, 3, 6, 9, 12, 15, 18, 20, 20, 0], 9);
        let digits = [3, 3, 3, 3, 3, 3, 2, 0].map(|d: i32| (d + CLAMP) as usize);
        assert_eq!(digits.len(), DIFFS);
        assert_eq!(up, digits.iter().rev().fold(0, |i, &d| i * BASE + d));
    }

    #[test]
    fn a_middle_well_splits_the_surface_in_two() {
        use crate::surface_vi::compute_split;
        // Well in column 5: columns 0-4 at 4 rows, 6-9 at 5. Read as one surface, S and Z
        // lie across the well (4, 4 | 5); split, only T, J, O, L and I fit.
        let h = [4, 4, 4, 4, 4, 0, 5, 5, 5, 5];
        let one = compute(1);
        assert!((one[surface_index(&h, 5)] - 1.0).abs() < 1e-6);
        let (table, mirrored) = split_of(5).unwrap();
        assert_eq!((table, mirrored), (3, true));
        let split = compute_split(1, Some(table));
        assert_eq!(split.len(), SPLIT_SURFACES);
        assert!((split[split_surface_index(&h, 5, table, mirrored)] - 5.0 / 7.0).abs() < 1e-6);
        // A step inside a segment still takes them: S on 0-2 of the left, Z on the right.
        let steps = [4, 4, 5, 5, 5, 0, 6, 6, 5, 5];
        assert!((split[split_surface_index(&steps, 5, table, mirrored)] - 1.0).abs() < 1e-6);
        assert_eq!(SPLIT[table].len(), SPLIT_SURFACES);
    }

    #[test]
    fn a_middle_well_reads_as_its_mirror() {
        let h = [3u32, 5, 4, 4, 6, 0, 2, 3, 3, 1];
        let mut m = h;
        m.reverse();
        // Well 5 mirrored is well 4.
        assert_eq!(shortfall(&h, 5), shortfall(&m, 4));
        for well in 1..9 {
            let mut g = [4u32; 10];
            g[well] = 0;
            let mut gm = g;
            gm.reverse();
            assert_eq!(shortfall(&g, well), shortfall(&gm, 9 - well), "well {well}");
            let v = shortfall(&g, well);
            assert!(v > 0.0 && v < HORIZON as f64, "well {well}: {v}");
        }
    }
}
