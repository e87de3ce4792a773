//! A small well of up to 16 columns stored as row bitmasks.

use std::fmt;

use thiserror::Error;

/// Widest supported board (one `u16` per row).
pub const MAX_WIDTH: u8 = 16;

/// A board cell coordinate: `(x, y)` with `x` the column from the left and
/// `y` the row from the top. Signed, as piece cells may be computed outside
/// the board before a collision test.
pub type Cell = (i32, i32);

/// Error from building a [`Board`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    /// Width must be 1..=16 and height at least 1.
    #[error("board size {width}x{height} is not supported (width 1..=16, height 1..=255)")]
    BadSize {
        /// Requested width.
        width: usize,
        /// Requested height.
        height: usize,
    },
    /// A row bitmask had bits at or beyond the board width.
    #[error("row {row} has cells outside the {width}-column board")]
    RowTooWide {
        /// Row index (0 = top).
        row: usize,
        /// Board width.
        width: u8,
    },
    /// A character in a board picture was not a cell.
    #[error("invalid board character {ch:?} at line {line}, column {column}; use '#'/'X' for filled and '.'/'~'/'-' for empty")]
    BadChar {
        /// The character.
        ch: char,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// Board picture lines had different lengths.
    #[error("board picture line {line} has {len} cells, expected {width}")]
    RaggedPicture {
        /// 1-based line (among non-blank lines).
        line: usize,
        /// Its length.
        len: usize,
        /// Length of the first line.
        width: usize,
    },
}

/// The settled cells of a well.
///
/// Row `0` is the top; in each row, bit `x` is column `x`. This is the
/// representation the AI scores.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    width: u8,
    rows: Vec<u16>,
}

impl Board {
    /// An empty `width` x `height` board.
    pub fn new(width: usize, height: usize) -> Result<Self, BoardError> {
        if width == 0 || width > usize::from(MAX_WIDTH) || height == 0 || height > 255 {
            return Err(BoardError::BadSize { width, height });
        }
        Ok(Board {
            width: width as u8,
            rows: vec![0; height],
        })
    }

    /// An empty board; the caller guarantees a supported size.
    pub(crate) fn empty_unchecked(width: u8, height: usize) -> Self {
        Board {
            width,
            rows: vec![0; height],
        }
    }

    /// A board from row bitmasks (row 0 = top).
    pub fn from_rows(width: usize, rows: &[u16]) -> Result<Self, BoardError> {
        let mut board = Board::new(width, rows.len())?;
        let full = board.full_row();
        for (row, &bits) in rows.iter().enumerate() {
            if bits & !full != 0 {
                return Err(BoardError::RowTooWide {
                    row,
                    width: board.width,
                });
            }
        }
        board.rows.copy_from_slice(rows);
        Ok(board)
    }

    /// A board from a picture: one line per row, top first, `#` or `X` for
    /// filled and `.`, `~` or `-` for empty; blank lines and leading or
    /// trailing spaces are ignored.
    pub fn from_picture(text: &str) -> Result<Self, BoardError> {
        let mut rows = Vec::new();
        let mut width = None;
        for (line_index, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.is_empty() {
                continue;
            }
            let lead = line.chars().take_while(|c| c.is_whitespace()).count();
            let mut bits = 0u16;
            let mut len = 0;
            for (i, ch) in trimmed.chars().enumerate() {
                let filled = match ch {
                    '#' | 'X' => true,
                    '.' | '~' | '-' => false,
                    _ => {
                        return Err(BoardError::BadChar {
                            ch,
                            line: line_index + 1,
                            column: lead + i + 1,
                        })
                    }
                };
                if i >= usize::from(MAX_WIDTH) {
                    return Err(BoardError::BadSize {
                        width: trimmed.chars().count(),
                        height: rows.len() + 1,
                    });
                }
                if filled {
                    bits |= 1 << i;
                }
                len = i + 1;
            }
            let w = *width.get_or_insert(len);
            if len != w {
                return Err(BoardError::RaggedPicture {
                    line: rows.len() + 1,
                    len,
                    width: w,
                });
            }
            rows.push(bits);
        }
        Board::from_rows(width.unwrap_or(0), &rows)
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        usize::from(self.width)
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// Row bitmasks, top row first; bit `x` is column `x`.
    pub fn rows(&self) -> &[u16] {
        &self.rows
    }

    /// The bitmask of a completely filled row.
    pub fn full_row(&self) -> u16 {
        ((1u32 << self.width) - 1) as u16
    }

    /// Whether `(x, y)` is inside the board.
    pub fn in_bounds(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width() && (y as usize) < self.height()
    }

    /// Whether `(x, y)` holds a settled block; `false` outside the board.
    pub fn is_filled(&self, x: i32, y: i32) -> bool {
        self.in_bounds(x, y) && self.rows[y as usize] & (1 << x) != 0
    }

    /// Sets or clears one cell; does nothing outside the board.
    pub fn set(&mut self, x: i32, y: i32, filled: bool) {
        if self.in_bounds(x, y) {
            let bit = 1u16 << x;
            if filled {
                self.rows[y as usize] |= bit;
            } else {
                self.rows[y as usize] &= !bit;
            }
        }
    }

    /// Whether all `cells` are inside the board and empty.
    pub fn fits(&self, cells: &[Cell]) -> bool {
        cells
            .iter()
            .all(|&(x, y)| self.in_bounds(x, y) && !self.is_filled(x, y))
    }

    /// Fills `cells` (those inside the board), removes full rows (rows above
    /// fall down) and returns the number removed.
    pub fn lock(&mut self, cells: &[Cell]) -> u32 {
        for &(x, y) in cells {
            self.set(x, y, true);
        }
        self.clear_lines()
    }

    /// Removes full rows, shifting the rows above down, and returns how many.
    pub fn clear_lines(&mut self) -> u32 {
        let full = self.full_row();
        let height = self.rows.len();
        self.rows.retain(|&r| r != full);
        let cleared = height - self.rows.len();
        if cleared > 0 {
            let mut rows = vec![0; cleared];
            rows.append(&mut self.rows);
            self.rows = rows;
        }
        cleared as u32
    }

    /// Filled cells as rows of booleans, top row first.
    pub fn cells(&self) -> Vec<Vec<bool>> {
        self.rows
            .iter()
            .map(|&r| (0..self.width).map(|x| r & (1 << x) != 0).collect())
            .collect()
    }

    /// Height of the stack: the number of rows from the bottom up to and
    /// including the highest filled row (0 for an empty board).
    pub fn stack_height(&self) -> usize {
        self.rows
            .iter()
            .position(|&r| r != 0)
            .map_or(0, |top| self.rows.len() - top)
    }

    /// Height of each column (rows from the bottom to its highest block).
    pub fn column_heights(&self) -> Vec<usize> {
        (0..self.width)
            .map(|x| {
                self.rows
                    .iter()
                    .position(|&r| r & (1 << x) != 0)
                    .map_or(0, |top| self.rows.len() - top)
            })
            .collect()
    }

    /// A picture with `filled` and `empty` characters, one line per row,
    /// each ending in `\n`.
    pub fn picture(&self, filled: char, empty: char) -> String {
        let mut s = String::with_capacity((self.width() + 1) * self.height());
        for &r in &self.rows {
            for x in 0..self.width {
                s.push(if r & (1 << x) != 0 { filled } else { empty });
            }
            s.push('\n');
        }
        s
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}", self.width(), self.height())?;
        f.write_str(&self.picture('#', '.'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picture_round_trip_and_clear() {
        let mut b = Board::from_picture(
            "
            ....
            #..#
            ###.
            ",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(b.rows(), &[0b0000, 0b1001, 0b0111]);
        assert_eq!(b.stack_height(), 2);
        assert_eq!(b.column_heights(), vec![2, 1, 1, 2]);
        assert!(b.is_filled(0, 1));
        assert!(!b.is_filled(-1, 1));
        let cleared = b.lock(&[(3, 2)]);
        assert_eq!(cleared, 1);
        assert_eq!(b.picture('#', '.'), "....\n....\n#..#\n");
    }

    #[test]
    fn bad_boards() {
        assert!(Board::new(0, 4).is_err());
        assert!(Board::new(17, 4).is_err());
        assert!(Board::from_rows(4, &[0b10000]).is_err());
        assert!(matches!(
            Board::from_picture("..\n.?"),
            Err(BoardError::BadChar {
                line: 2,
                column: 2,
                ..
            })
        ));
        assert!(matches!(
            Board::from_picture("..\n..."),
            Err(BoardError::RaggedPicture { .. })
        ));
        assert!(Board::from_picture("").is_err());
    }
}
