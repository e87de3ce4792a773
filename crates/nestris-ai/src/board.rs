//! The AI's compact board: one `u16` per row, bit `x` = column `x`, with the two hidden rows
//! above the field.
//!
//! Chosen over a column-major `[u32; 10]` after measuring both for the two hot operations:
//! collision tests during move search (a piece touches at most four rows, so row masks need four
//! loads and four ANDs; columns need four too but with per-column shifts) and line clears
//! (rows: test one word per touched row and move whole words; columns: a bit-deposit per column).
//! Column features (heights, holes) are computed once per evaluated board by a transpose.
//!
//! The engine's playfield is the faithful one (a 256-byte page with the game's aliasing);
//! [`Board::from_playfield`] converts, and a test checks that both agree on every collision.

use nestris_engine::{Orientation, Playfield};

/// Rows in the board: 2 hidden rows (y = -2, -1) and the 20 visible ones.
pub const ROWS: usize = 22;
/// A full row.
pub const FULL: u16 = 0x3FF;

/// The board: `rows[y + 2]` holds row `y` (y = -2..=19), bit `x` = column `x`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// Rows, top (y = -2) first.
    pub rows: [u16; ROWS],
}

/// A board literal, bottom-aligned: each string is a row of ten `#`/`.` (or `X`/`_`) cells; the
/// last string is row 19.
///
/// ```
/// use nestris_ai::board;
/// let b = board![
///     "#.........",
///     "#########.",
/// ];
/// assert_eq!(b.height(0), 2);
/// ```
#[macro_export]
macro_rules! board {
    ($($row:expr),* $(,)?) => {{
        $crate::board::Board::from_rows_bottom(&[$($row),*])
    }};
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "board![")?;
        let first = self.rows.iter().position(|&r| r != 0).unwrap_or(ROWS);
        for r in &self.rows[first..] {
            let s: String = (0..10)
                .map(|x| if r >> x & 1 != 0 { '#' } else { '.' })
                .collect();
            writeln!(f, "    \"{s}\",")?;
        }
        write!(f, "]")
    }
}

/// Per-orientation row masks: `MASKS[o][k]` holds the minos with `dy = k - 2` as bits
/// `dx + 2`.
pub const MASKS: [[u16; 4]; 19] = {
    let mut out = [[0u16; 4]; 19];
    let mut o = 0;
    while o < 19 {
        let mut i = 0;
        while i < 4 {
            let (dx, dy) = nestris_engine::piece::MINOS[o][i];
            out[o][(dy + 2) as usize] |= 1 << (dx + 2);
            i += 1;
        }
        o += 1;
    }
    out
};

impl Board {
    /// An empty board.
    pub const fn new() -> Board {
        Board { rows: [0; ROWS] }
    }

    /// From strings, bottom-aligned (the last string is row 19). Panics on a malformed literal
    /// (for tests and doc examples; use [`Board::parse`] for input).
    pub fn from_rows_bottom(rows: &[&str]) -> Board {
        Board::parse(&rows.join("\n")).expect("malformed board literal")
    }

    /// Parses a board from text: up to 22 lines of ten cells (`#`, `X` or `x` filled; `.`, `_`
    /// or space empty), bottom-aligned. Errors name the line and column.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
            .collect();
        if lines.len() > ROWS {
            return Err(BoardError::TooManyRows(lines.len()));
        }
        let mut b = Board::new();
        let offset = ROWS - lines.len();
        for (i, line) in lines.iter().enumerate() {
            let line = line
                .trim_start_matches(['"', ' '])
                .trim_end_matches([',', '"']);
            let cells: Vec<char> = line.chars().collect();
            if cells.len() != 10 {
                return Err(BoardError::RowWidth {
                    line: i + 1,
                    width: cells.len(),
                });
            }
            for (x, c) in cells.iter().enumerate() {
                match c {
                    '#' | 'X' | 'x' => b.rows[offset + i] |= 1 << x,
                    '.' | '_' | ' ' => {}
                    other => {
                        return Err(BoardError::Cell {
                            line: i + 1,
                            column: x + 1,
                            found: *other,
                        })
                    }
                }
            }
        }
        Ok(b)
    }

    /// From the engine's playfield: the 20 visible rows plus the hidden bytes the game reads
    /// for rows -1 and -2 (page bytes 246..255 and 236..245).
    pub fn from_playfield(p: &Playfield) -> Board {
        let mut b = Board::new();
        for y in -2i32..20 {
            let mut row = 0u16;
            for x in 0..10i32 {
                let i = ((y * 10 + x).rem_euclid(256)) as u8;
                if p.occupied(i) {
                    row |= 1 << x;
                }
            }
            b.rows[(y + 2) as usize] = row;
        }
        b
    }

    /// Whether cell (x, y) is filled (y = -2..=19).
    #[inline]
    pub fn filled(&self, x: i32, y: i32) -> bool {
        (0..10).contains(&x) && (-2..20).contains(&y) && self.rows[(y + 2) as usize] >> x & 1 != 0
    }

    /// Whether orientation `o` fits with its centre at (x, y): every mino inside rows -2..19,
    /// columns 0..9 and on an empty cell (the game's `isPositionValid`).
    #[inline(always)]
    pub fn fits(&self, o: u8, x: i8, y: i8) -> bool {
        let m = &MASKS[o as usize];
        let mut k = 0;
        while k < 4 {
            if m[k] != 0 {
                let row = y as i32 + k as i32 - 2;
                if !(-2..20).contains(&row) {
                    return false;
                }
                // Shift the mask so that bit dx+2 lands on column x+dx.
                let s = x as i32 - 2;
                let cols: u32 = if s >= 0 {
                    (m[k] as u32) << s
                } else {
                    (m[k] as u32) >> (-s)
                };
                // Minos shifted out to the left (x + dx < 0) or past column 9 are invalid.
                if s < 0 && (m[k] as u32) & ((1 << (-s)) - 1) != 0 {
                    return false;
                }
                if cols & !(FULL as u32) != 0 {
                    return false;
                }
                if self.rows[(row + 2) as usize] as u32 & cols != 0 {
                    return false;
                }
            }
            k += 1;
        }
        true
    }

    /// Writes the piece's minos (no checks) and clears full rows. Returns the number of rows
    /// cleared.
    pub fn lock(&mut self, o: u8, x: i8, y: i8) -> u32 {
        let m = &MASKS[o as usize];
        let s = x as i32 - 2;
        for (k, &mask) in m.iter().enumerate() {
            if mask != 0 {
                let row = y as i32 + k as i32 - 2;
                if (-2..20).contains(&row) {
                    let cols = if s >= 0 {
                        (mask as u32) << s
                    } else {
                        (mask as u32) >> (-s)
                    };
                    self.rows[(row + 2) as usize] |= (cols as u16) & FULL;
                }
            }
        }
        self.clear_lines()
    }

    /// Removes full rows, moving the rows above down. Returns how many.
    pub fn clear_lines(&mut self) -> u32 {
        // Most locks clear nothing: one pass to look before moving rows.
        if !self.rows.iter().fold(false, |any, &r| any | (r == FULL)) {
            return 0;
        }
        let mut write = ROWS;
        let mut cleared = 0;
        for read in (0..ROWS).rev() {
            let r = self.rows[read];
            if r == FULL {
                cleared += 1;
            } else {
                write -= 1;
                self.rows[write] = r;
            }
        }
        for r in &mut self.rows[..write] {
            *r = 0;
        }
        cleared
    }

    /// Height of column x: 20 minus the row of its highest block (0 when empty; up to 22 with
    /// blocks in the hidden rows).
    pub fn height(&self, x: usize) -> u32 {
        for (i, r) in self.rows.iter().enumerate() {
            if r >> x & 1 != 0 {
                return (ROWS - i) as u32;
            }
        }
        0
    }

    /// The Tetris-ready rows beside the well in column `well` whose height is `well_height`:
    /// the rows full but for the well, counted from the well's bottom (its lowest empty cell
    /// above its top block) up, while they last.
    pub fn ready_rows(&self, well: usize, well_height: u32) -> usize {
        let ready_row = FULL & !(1u16 << well);
        (0..ROWS.saturating_sub(well_height as usize))
            .rev()
            .take_while(|&i| self.rows[i] == ready_row)
            .count()
    }

    /// All column heights.
    pub fn heights(&self) -> [u32; 10] {
        let mut h = [0u32; 10];
        let mut seen = 0u16;
        for (i, &r) in self.rows.iter().enumerate() {
            let new = r & !seen;
            if new != 0 {
                let mut bits = new;
                while bits != 0 {
                    let x = bits.trailing_zeros() as usize;
                    h[x] = (ROWS - i) as u32;
                    bits &= bits - 1;
                }
                seen |= new;
                if seen == FULL {
                    break;
                }
            }
        }
        h
    }

    /// The board as columns: bit `r` of `cols[x]` = row index `r` (0 = y -2) of column x.
    pub fn columns(&self) -> [u32; 10] {
        // Three 8x8 bit-matrix transposes per byte of the rows (the low 8 columns and the top
        // 2): a few dozen word operations instead of one per cell.
        let mut cols = [0u32; 10];
        for (g, chunk) in self.rows.chunks(8).enumerate() {
            let (mut lo, mut hi) = (0u64, 0u64);
            for (j, &r) in chunk.iter().enumerate() {
                lo |= u64::from(r & 0xFF) << (8 * j);
                hi |= u64::from(r >> 8) << (8 * j);
            }
            let (lo, hi) = (transpose8(lo), transpose8(hi));
            for (x, c) in cols.iter_mut().enumerate() {
                let byte = if x < 8 {
                    lo >> (8 * x)
                } else {
                    hi >> (8 * (x - 8))
                };
                *c |= ((byte & 0xFF) as u32) << (8 * g);
            }
        }
        cols
    }

    /// [`Board::columns`] of this board after [`Board::lock`] of `(o, x, y)` when the lock
    /// clears no line, from this board's columns `cols`: the piece's cells added.
    #[inline]
    pub fn columns_with_piece(cols: &[u32; 10], o: u8, x: i8, y: i8) -> [u32; 10] {
        let mut out = *cols;
        for &(dx, dy) in &nestris_engine::piece::MINOS[o as usize] {
            let (c, row) = (x as i32 + dx as i32, y as i32 + dy as i32);
            if (0..10).contains(&c) && (-2..20).contains(&row) {
                out[c as usize] |= 1 << (row + 2);
            }
        }
        out
    }

    /// Number of filled cells.
    pub fn cell_count(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }

    /// Whether the board is empty.
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }
}

/// Transposes an 8x8 bit matrix held as 8 bytes (byte `i` is row `i`, bit `j` of it column
/// `j`): byte `j` of the result is column `j`, bit `i` of it row `i`.
fn transpose8(mut m: u64) -> u64 {
    let t = (m ^ (m >> 7)) & 0x00AA_00AA_00AA_00AA;
    m ^= t ^ (t << 7);
    let t = (m ^ (m >> 14)) & 0x0000_CCCC_0000_CCCC;
    m ^= t ^ (t << 14);
    let t = (m ^ (m >> 28)) & 0x0000_0000_F0F0_F0F0;
    m ^ t ^ (t << 28)
}

/// A board text that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// More than 22 rows.
    #[error("a board has at most 22 rows (20 visible and 2 hidden), found {0}")]
    TooManyRows(usize),
    /// A row that is not ten cells wide.
    #[error("line {line}: a row must have 10 cells, found {width}")]
    RowWidth {
        /// Line number (1-based).
        line: usize,
        /// Cells found.
        width: usize,
    },
    /// A character that is not a cell.
    #[error("line {line}, column {column}: expected '#' or '.', found {found:?}")]
    Cell {
        /// Line number (1-based).
        line: usize,
        /// Column (1-based).
        column: usize,
        /// The character.
        found: char,
    },
}

/// Orientation ids of a piece's distinct orientations.
pub fn orientations_of(o: Orientation) -> &'static [Orientation] {
    o.kind().orientations()
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_engine::{piece::Tile, Playfield};

    /// The transposed columns and the heights agree with the cells, on random boards of every
    /// density.
    #[test]
    fn columns_and_heights_match_the_cells() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for n in 0..2000u32 {
            let mut b = Board::new();
            for r in b.rows.iter_mut() {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let density = n % 5;
                let mut v = (seed >> 20) as u16;
                for _ in 0..density {
                    v &= (seed >> 40) as u16 | (seed >> 7) as u16;
                }
                *r = v & FULL;
            }
            let cols = b.columns();
            let h = b.heights();
            for x in 0..10 {
                for (i, &r) in b.rows.iter().enumerate() {
                    assert_eq!(cols[x] >> i & 1 == 1, r >> x & 1 == 1, "row {i} column {x}");
                }
                let top = b.rows.iter().position(|&r| r >> x & 1 == 1);
                assert_eq!(h[x], top.map_or(0, |i| (ROWS - i) as u32));
            }
        }
    }

    /// The AI's board and the engine's playfield agree on every collision test, for random
    /// fields (hidden rows included) and every orientation and position.
    #[test]
    fn agrees_with_engine_collision() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..200 {
            let mut p = Playfield::new();
            for i in 0..=255u8 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if seed.is_multiple_of(5) {
                    p.set(i, Tile::Solid1);
                }
            }
            let b = Board::from_playfield(&p);
            for o in 0..19u8 {
                for x in 0..=255u8 {
                    for y in 0..20u8 {
                        let engine = nestris_engine::game::position_valid(&p, o, x, y);
                        let ai = if x < 12 {
                            b.fits(o, x as i8, y as i8)
                        } else {
                            false
                        };
                        assert_eq!(engine, ai, "o {o} x {x} y {y}\n{b:?}");
                    }
                }
            }
        }
    }

    /// The columns after a lock that clears nothing, from the columns before, are those of
    /// the locked board.
    #[test]
    fn columns_with_piece_match_the_locked_board() {
        let mut seed = 0x7f4a_7c15_9e37_79b9u64;
        let mut checked = 0;
        for n in 0..300u32 {
            let mut b = Board::new();
            for r in (n as usize % 22)..ROWS {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b.rows[r] = (seed >> 40) as u16 & (seed >> 20) as u16 & FULL;
            }
            let cols = b.columns();
            for o in 0..19u8 {
                for x in 0..10i8 {
                    for y in -2..20i8 {
                        let mut locked = b;
                        if !b.fits(o, x, y) || locked.lock(o, x, y) != 0 {
                            continue;
                        }
                        let with = Board::columns_with_piece(&cols, o, x, y);
                        assert_eq!(with, locked.columns(), "o {o} x {x} y {y}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn literal_and_clears() {
        let mut b = board!["#.........", "#########.", "#########.",];
        assert_eq!(b.height(0), 3);
        assert_eq!(b.height(9), 0);
        assert_eq!(b.heights()[1], 2);
        // Vertical I in column 9, bottom at row 19.
        assert!(b.fits(Orientation::Iv as u8, 9, 18));
        assert!(!b.fits(Orientation::Iv as u8, 9, 19));
        assert_eq!(b.lock(Orientation::Iv as u8, 9, 18), 2);
        assert_eq!(b, board![".........#", "#........#"]);
        assert!(Board::parse("#########").is_err());
        assert!(Board::parse("#########?").is_err());
    }
}
