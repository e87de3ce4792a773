//! The surface table's value iteration ([`crate::surface`] says what it computes). This file
//! is also compiled into the crate's build script, which runs it once and embeds the result:
//! it uses nothing but `std`.

/// Height differences between the nine columns beside the well.
pub const DIFFS: usize = 8;
/// The largest height difference kept; larger ones are clamped to it.
pub const CLAMP: i32 = 3;
/// Values per difference (-3..=3).
pub const BASE: usize = 2 * CLAMP as usize + 1;
/// Surfaces in the table: 7^8.
pub const SURFACES: usize = BASE.pow(DIFFS as u32);
/// The pieces the value iteration looks ahead.
pub const HORIZON: u32 = 10;

/// One orientation of a piece, by column: the row of its lowest and the row above its highest
/// cell, from the orientation's lowest row.
struct Orientation {
    width: usize,
    bottom: [i8; 4],
    top: [i8; 4],
}

/// The seven pieces' orientations (T, J, Z, O, S, L, I), as cells (column, row up).
const PIECES: [&[&[(i8, i8)]]; 7] = [
    &[
        &[(0, 1), (1, 1), (2, 1), (1, 0)],
        &[(0, 0), (1, 0), (2, 0), (1, 1)],
        &[(1, 0), (1, 1), (1, 2), (0, 1)],
        &[(0, 0), (0, 1), (0, 2), (1, 1)],
    ],
    &[
        &[(0, 1), (1, 1), (2, 1), (2, 0)],
        &[(0, 0), (0, 1), (1, 0), (2, 0)],
        &[(0, 0), (1, 0), (1, 1), (1, 2)],
        &[(0, 0), (0, 1), (0, 2), (1, 2)],
    ],
    &[
        &[(0, 1), (1, 1), (1, 0), (2, 0)],
        &[(0, 0), (0, 1), (1, 1), (1, 2)],
    ],
    &[&[(0, 0), (1, 0), (0, 1), (1, 1)]],
    &[
        &[(0, 0), (1, 0), (1, 1), (2, 1)],
        &[(0, 1), (0, 2), (1, 0), (1, 1)],
    ],
    &[
        &[(0, 0), (0, 1), (1, 1), (2, 1)],
        &[(0, 0), (1, 0), (2, 0), (2, 1)],
        &[(0, 0), (1, 0), (0, 1), (0, 2)],
        &[(0, 2), (1, 0), (1, 1), (1, 2)],
    ],
    &[
        &[(0, 0), (1, 0), (2, 0), (3, 0)],
        &[(0, 0), (0, 1), (0, 2), (0, 3)],
    ],
];

/// The I piece's index in [`PIECES`].
const I_PIECE: usize = 6;

fn orientations() -> Vec<Vec<Orientation>> {
    PIECES
        .iter()
        .map(|piece| {
            piece
                .iter()
                .map(|cells| {
                    let width = cells.iter().map(|c| c.0).max().unwrap_or(0) as usize + 1;
                    let mut bottom = [i8::MAX; 4];
                    let mut top = [0i8; 4];
                    for &(x, y) in cells.iter() {
                        bottom[x as usize] = bottom[x as usize].min(y);
                        top[x as usize] = top[x as usize].max(y + 1);
                    }
                    Orientation { width, bottom, top }
                })
                .collect()
        })
        .collect()
}

/// The quantum of the embedded table: a value v (0..=HORIZON pieces) is stored as the byte
/// `round(v * QUANTA)`.
pub const QUANTA: f32 = 25.0;

/// The values of every surface after `horizon` steps of value iteration, on all cores (each
/// surface's value depends only on the previous step: the same on any machine).
pub fn compute(horizon: u32) -> Vec<f32> {
    compute_split(horizon, None)
}

/// Surfaces in a split table ([`compute_split`]): 7^7, one difference fewer.
pub const SPLIT_SURFACES: usize = BASE.pow(DIFFS as u32 - 1);

/// [`compute`] for a well inside the playfield: with `bar = Some(b)` the nine columns are
/// two segments, columns 0..=b and b+1..=8 of the nine, with the well between them, so no
/// piece lies across difference `b` and a placement beside it leaves it alone (the well's
/// edge is a wall for each segment). The table then has [`SPLIT_SURFACES`] entries, indexed
/// by the other seven differences ([`split_index`]). `None` is the table of a well at an edge.
pub fn compute_split(horizon: u32, bar: Option<usize>) -> Vec<f32> {
    let orients = orientations();
    let pow = digit_powers(bar);
    let surfaces = if bar.is_some() {
        SPLIT_SURFACES
    } else {
        SURFACES
    };
    let mut value = vec![0f32; surfaces];
    let mut next = vec![0f32; surfaces];
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 16);
    let chunk = surfaces.div_ceil(threads);
    for _ in 0..horizon {
        std::thread::scope(|scope| {
            for (c, out) in next.chunks_mut(chunk).enumerate() {
                let (value, orients, pow) = (&value, &orients, &pow);
                scope.spawn(move || {
                    for (k, o) in out.iter_mut().enumerate() {
                        *o = step(c * chunk + k, value, orients, pow, bar);
                    }
                });
            }
        });
        std::mem::swap(&mut value, &mut next);
    }
    value
}

/// The place value of each difference in a table's index: the differences in order, the
/// first the lowest digit, the split's barrier (if any) skipped (0).
pub fn digit_powers(bar: Option<usize>) -> [isize; DIFFS] {
    let mut pow = [0isize; DIFFS];
    let mut p = 1isize;
    for (j, pj) in pow.iter_mut().enumerate() {
        if Some(j) != bar {
            *pj = p;
            p *= BASE as isize;
        }
    }
    pow
}

/// The index of the differences `d` (each already clamped) in the table of `bar`
/// ([`compute_split`]); the barrier's difference is not read.
pub fn split_index(d: &[i32; DIFFS], bar: Option<usize>) -> usize {
    // The digits of `digit_powers`, highest first (no powers table on the evaluation's path).
    let mut index = 0usize;
    for j in (0..DIFFS).rev() {
        if Some(j) != bar {
            index = index * BASE + (d[j] + CLAMP) as usize;
        }
    }
    index
}

/// [`compute`] as the embedded bytes ([`QUANTA`]).
pub fn quantize(value: &[f32]) -> Vec<u8> {
    value.iter().map(|&v| (v * QUANTA).round() as u8).collect()
}

/// One value-iteration step for surface `s`: the mean over the seven pieces of the best
/// `1 + value` of a flat placement (0 if none). With a barrier `bar`, no placement lies
/// across it and its difference (not in the index) stays as it is.
fn step(
    s: usize,
    value: &[f32],
    orients: &[Vec<Orientation>],
    pow: &[isize; DIFFS],
    bar: Option<usize>,
) -> f32 {
    let mut d = [0i32; DIFFS];
    let mut r = s;
    for (j, dj) in d.iter_mut().enumerate() {
        if Some(j) == bar {
            continue;
        }
        *dj = (r % BASE) as i32 - CLAMP;
        r /= BASE;
    }
    let mut total = 0f32;
    for (p, piece) in orients.iter().enumerate() {
        // The I piece can always go into the well.
        let mut best = if p == I_PIECE { 1.0 + value[s] } else { 0.0 };
        for o in piece {
            let w = o.width;
            'x: for x in 0..=(DIFFS + 1 - w) {
                if let Some(b) = bar {
                    // The piece would lie across the well.
                    if w > 1 && x <= b && b < x + w - 1 {
                        continue 'x;
                    }
                }
                for i in 0..w - 1 {
                    if d[x + i] != (o.bottom[i + 1] - o.bottom[i]) as i32 {
                        continue 'x;
                    }
                }
                let mut ns = s as isize;
                let mut set = |j: usize, nd: i32| {
                    if Some(j) != bar {
                        ns += (nd.clamp(-CLAMP, CLAMP) - d[j]) as isize * pow[j];
                    }
                };
                if x > 0 {
                    set(x - 1, d[x - 1] + (o.top[0] - o.bottom[0]) as i32);
                }
                for i in 0..w - 1 {
                    set(x + i, (o.top[i + 1] - o.top[i]) as i32);
                }
                if x + w - 1 < DIFFS {
                    let j = x + w - 1;
                    set(j, d[j] - (o.top[w - 1] - o.bottom[w - 1]) as i32);
                }
                best = best.max(1.0 + value[ns as usize]);
            }
        }
        total += best;
    }
    total / 7.0
}
