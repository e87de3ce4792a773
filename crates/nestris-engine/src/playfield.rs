//! The playfield as the game keeps it: one 256-byte page (`$0400`-`$04FF`), rows 0..19 of ten
//! cells in bytes 0..199, and 56 more bytes after them.
//!
//! original game: the page index of a cell is `(y * 10 + x) mod 256`, so the two rows above the
//! visible field (y = -1, -2) alias bytes 236..255. Minos locked there are written into those
//! bytes and block pieces afterwards, and a top-row clear shifts the whole page down by ten
//! bytes (bytes 246..255 leave the page).
//!
//! Kept as bits: an occupancy bit per byte plus one more bit plane for which of the three
//! block tiles the byte shows, so the whole page costs 64 bytes.

use crate::piece::Tile;

/// Number of bytes in the page.
pub const PAGE: usize = 256;
/// Visible cells (rows 0..19).
pub const VISIBLE: usize = 200;

/// The playfield page: bit `i` of `lo`/`hi` is the tile of byte `i`
/// (`lo | hi` set = occupied; `Tile` value = `lo + 2*hi`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Playfield {
    lo: [u64; 4],
    hi: [u64; 4],
}

impl std::fmt::Debug for Playfield {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Playfield(")?;
        for y in 0..20 {
            let row: String = (0..10)
                .map(|x| if self.occupied_at(x, y) { '#' } else { '.' })
                .collect();
            writeln!(f, "  {row}")?;
        }
        write!(f, ")")
    }
}

impl Playfield {
    /// An empty page (every byte `$EF`).
    pub const fn new() -> Self {
        Playfield {
            lo: [0; 4],
            hi: [0; 4],
        }
    }

    /// Whether byte `i` holds a block.
    #[inline(always)]
    pub fn occupied(&self, i: u8) -> bool {
        let (w, b) = ((i >> 6) as usize, i & 63);
        ((self.lo[w] | self.hi[w]) >> b) & 1 != 0
    }

    /// Whether the visible cell (x 0..9, y 0..19) holds a block.
    #[inline]
    pub fn occupied_at(&self, x: usize, y: usize) -> bool {
        self.occupied((y * 10 + x) as u8)
    }

    /// The tile in byte `i`.
    #[inline]
    pub fn tile(&self, i: u8) -> Tile {
        let (w, b) = ((i >> 6) as usize, i & 63);
        match ((self.lo[w] >> b) & 1) | (((self.hi[w] >> b) & 1) << 1) {
            0 => Tile::Empty,
            1 => Tile::Hollow,
            2 => Tile::Solid2,
            _ => Tile::Solid1,
        }
    }

    /// The tile of a visible cell.
    pub fn tile_at(&self, x: usize, y: usize) -> Tile {
        self.tile((y * 10 + x) as u8)
    }

    /// Writes a tile into byte `i`.
    #[inline(always)]
    pub fn set(&mut self, i: u8, tile: Tile) {
        let (w, b) = ((i >> 6) as usize, i & 63);
        let m = 1u64 << b;
        let t = tile as u8;
        if t & 1 != 0 {
            self.lo[w] |= m;
        } else {
            self.lo[w] &= !m;
        }
        if t & 2 != 0 {
            self.hi[w] |= m;
        } else {
            self.hi[w] &= !m;
        }
    }

    /// Clears bytes `0..=last` (as the game's `memset`-style loops do).
    pub fn clear_through(&mut self, last: u8) {
        for i in 0..=last {
            self.set(i, Tile::Empty);
        }
    }

    /// Whether all ten bytes of row `row` (bytes `row*10 .. row*10+9`, mod 256) are occupied.
    pub fn row_complete(&self, row: u8) -> bool {
        let start = row.wrapping_mul(10);
        (0..10u8).all(|k| self.occupied(start.wrapping_add(k)))
    }

    /// Removes row `row` the way the game does: every byte below `row * 10` moves ten bytes
    /// further (bytes pushed past 255 leave the page), then bytes 0..9 are cleared.
    ///
    /// original game: for row 0 the copy loop starts at byte 255 and moves the whole page.
    pub fn remove_row(&mut self, row: u8) {
        let start = (row as usize * 10) % PAGE;
        let count = if start == 0 { PAGE } else { start };
        // Shift bits [0, count) up by 10 positions; bits at and above count+10 are kept.
        let keep_from = count + 10;
        let shift = |plane: &[u64; 4]| -> [u64; 4] {
            let as_u256 = *plane;
            let mut shifted = [0u64; 4];
            // shifted = plane << 10 (within 256 bits)
            for w in 0..4 {
                shifted[w] = as_u256[w] << 10;
                if w > 0 {
                    shifted[w] |= as_u256[w - 1] >> 54;
                }
            }
            let mut out = [0u64; 4];
            for w in 0..4 {
                let lo_bit = w * 64;
                // mask for bits in [10, keep_from) within this word: new shifted content
                let mut m_new = 0u64;
                let mut m_keep = 0u64;
                for b in 0..64 {
                    let i = lo_bit + b;
                    if (10..keep_from).contains(&i) {
                        m_new |= 1 << b;
                    } else if i >= keep_from {
                        m_keep |= 1 << b;
                    }
                }
                out[w] = (shifted[w] & m_new) | (as_u256[w] & m_keep);
            }
            out
        };
        self.lo = shift(&self.lo);
        self.hi = shift(&self.hi);
    }

    /// The visible field as 20 rows of 10 bits (bit x = column x), row 0 on top.
    pub fn visible_rows(&self) -> [u16; 20] {
        let mut rows = [0u16; 20];
        for (y, row) in rows.iter_mut().enumerate() {
            for x in 0..10 {
                if self.occupied_at(x, y) {
                    *row |= 1 << x;
                }
            }
        }
        rows
    }

    /// Parses the trace encoding: 200 (visible) or 256 characters of `.` and `#`, or separate
    /// visible (200) and hidden (56) strings via [`Playfield::from_strings`].
    pub fn from_strings(visible: &str, hidden: &str) -> Result<Playfield, PlayfieldError> {
        if visible.chars().count() != VISIBLE {
            return Err(PlayfieldError::Length {
                what: "field",
                expected: VISIBLE,
                got: visible.chars().count(),
            });
        }
        if hidden.chars().count() != PAGE - VISIBLE {
            return Err(PlayfieldError::Length {
                what: "hidden",
                expected: PAGE - VISIBLE,
                got: hidden.chars().count(),
            });
        }
        let mut p = Playfield::new();
        for (i, c) in visible.chars().chain(hidden.chars()).enumerate() {
            match c {
                '.' => {}
                '#' => p.set(i as u8, Tile::Hollow),
                other => {
                    return Err(PlayfieldError::Char {
                        index: i,
                        found: other,
                    })
                }
            }
        }
        Ok(p)
    }

    /// The trace encoding of the visible field (200 characters).
    pub fn visible_string(&self) -> String {
        (0..VISIBLE)
            .map(|i| if self.occupied(i as u8) { '#' } else { '.' })
            .collect()
    }

    /// The trace encoding of the 56 bytes after the visible field.
    pub fn hidden_string(&self) -> String {
        (VISIBLE..PAGE)
            .map(|i| if self.occupied(i as u8) { '#' } else { '.' })
            .collect()
    }

    /// Occupancy bits of the whole page (bit i = byte i).
    pub fn occupancy(&self) -> [u64; 4] {
        [
            self.lo[0] | self.hi[0],
            self.lo[1] | self.hi[1],
            self.lo[2] | self.hi[2],
            self.lo[3] | self.hi[3],
        ]
    }
}

/// A playfield string that is not 200/56 characters of `.` and `#`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayfieldError {
    /// Wrong length.
    #[error("{what} must have {expected} characters, found {got}")]
    Length {
        /// Which string.
        what: &'static str,
        /// Expected length.
        expected: usize,
        /// Actual length.
        got: usize,
    },
    /// A character other than `.` or `#`.
    #[error("unexpected character {found:?} at cell {index} (expected '.' or '#')")]
    Char {
        /// Cell index in the page.
        index: usize,
        /// The character.
        found: char,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_remove(bytes: &mut [u8; 256], row: u8) {
        let start = row as usize * 10 % 256;
        let mut y: u8 = (start as u8).wrapping_sub(1);
        let mut spill = [0u8; 10];
        loop {
            let dst = y as usize + 10;
            if dst < 256 {
                bytes[dst] = bytes[y as usize];
            } else {
                spill[dst - 256] = bytes[y as usize];
            }
            if y == 0 {
                break;
            }
            y -= 1;
        }
        for b in bytes.iter_mut().take(10) {
            *b = 0;
        }
    }

    #[test]
    fn remove_row_matches_byte_loop() {
        let mut seed = 12345u64;
        for row in 0..=21u8 {
            for _ in 0..20 {
                let mut bytes = [0u8; 256];
                let mut p = Playfield::new();
                for (i, b) in bytes.iter_mut().enumerate() {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let t = (seed >> 60) as u8 & 3;
                    *b = t;
                    let tile = [Tile::Empty, Tile::Hollow, Tile::Solid2, Tile::Solid1][t as usize];
                    p.set(i as u8, tile);
                }
                naive_remove(&mut bytes, row);
                p.remove_row(row);
                for (i, &b) in bytes.iter().enumerate() {
                    assert_eq!(p.tile(i as u8) as u8, b, "row {row} byte {i}");
                }
            }
        }
    }

    #[test]
    fn strings_round_trip() {
        let vis: String = (0..200)
            .map(|i| if i % 3 == 0 { '#' } else { '.' })
            .collect();
        let hid: String = (0..56)
            .map(|i| if i % 5 == 0 { '#' } else { '.' })
            .collect();
        let p = Playfield::from_strings(&vis, &hid).unwrap();
        assert_eq!(p.visible_string(), vis);
        assert_eq!(p.hidden_string(), hid);
        assert!(Playfield::from_strings("..", &hid).is_err());
    }
}
