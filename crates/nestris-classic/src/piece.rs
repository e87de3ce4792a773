//! The seven tetrominoes.

use std::fmt;

/// One of the seven tetrominoes.
///
/// The declaration order (T J Z O S L I) is the NES order; [`Piece::index`]
/// follows it. The classic randomizers use their own orders and map onto
/// this type explicitly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// T tetromino.
    T,
    /// J tetromino.
    J,
    /// Z tetromino.
    Z,
    /// O tetromino.
    O,
    /// S tetromino.
    S,
    /// L tetromino.
    L,
    /// I tetromino.
    I,
}

impl Piece {
    /// All pieces in declaration (NES) order.
    pub const ALL: [Piece; 7] = [
        Piece::T,
        Piece::J,
        Piece::Z,
        Piece::O,
        Piece::S,
        Piece::L,
        Piece::I,
    ];

    /// The upper-case letter naming this piece.
    pub fn letter(self) -> char {
        match self {
            Piece::T => 'T',
            Piece::J => 'J',
            Piece::Z => 'Z',
            Piece::O => 'O',
            Piece::S => 'S',
            Piece::L => 'L',
            Piece::I => 'I',
        }
    }

    /// The piece named by `c` (either case), or `None`.
    pub fn from_letter(c: char) -> Option<Piece> {
        match c.to_ascii_uppercase() {
            'T' => Some(Piece::T),
            'J' => Some(Piece::J),
            'Z' => Some(Piece::Z),
            'O' => Some(Piece::O),
            'S' => Some(Piece::S),
            'L' => Some(Piece::L),
            'I' => Some(Piece::I),
            _ => None,
        }
    }

    /// Position in [`Piece::ALL`] (0..7).
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Formats a piece sequence as a string of letters (test and debug helper).
pub fn letters(pieces: &[Piece]) -> String {
    pieces.iter().map(|p| p.letter()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_round_trip() {
        for p in Piece::ALL {
            assert_eq!(Piece::from_letter(p.letter()), Some(p));
            assert_eq!(Piece::from_letter(p.letter().to_ascii_lowercase()), Some(p));
            assert_eq!(Piece::ALL[p.index()], p);
        }
        assert_eq!(Piece::from_letter('X'), None);
        assert_eq!(letters(&[Piece::T, Piece::I]), "TI");
    }
}
