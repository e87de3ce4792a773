//! Tetriminos as the game keeps them: 19 orientation ids in the order of the game's
//! orientation table, the rotation table, the spawn table and the tile each piece is drawn with.

/// One of the 19 orientations, numbered as the game's orientation table numbers them
/// (the value stored in `currentPiece`, RAM `$62`, and `nextPiece`, `$BF`).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Orientation {
    Tu = 0,
    Tr = 1,
    /// T spawn orientation.
    Td = 2,
    Tl = 3,
    Jl = 4,
    Ju = 5,
    Jr = 6,
    /// J spawn orientation.
    Jd = 7,
    /// Z spawn orientation.
    Zh = 8,
    Zv = 9,
    /// O (spawn and only orientation).
    O = 10,
    /// S spawn orientation.
    Sh = 11,
    Sv = 12,
    Lr = 13,
    /// L spawn orientation.
    Ld = 14,
    Ll = 15,
    Lu = 16,
    Iv = 17,
    /// I spawn orientation.
    Ih = 18,
}

/// The id the game stores for "no piece" (`currentPiece` during a line clear).
pub const NO_PIECE: u8 = 19;

/// The seven piece types, in the order of the game's spawn table (T J Z O S L I).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum PieceKind {
    T = 0,
    J = 1,
    Z = 2,
    O = 3,
    S = 4,
    L = 5,
    I = 6,
}

/// The tile a mino is drawn with. The game uses three block tiles; which of the level's colours
/// each shows is decided by the palette (see [`crate::colors`]).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// No block (`$EF`).
    Empty = 0,
    /// Tile `$7B`: a colour-1 centre (white up to level 137) in a colour-3 frame (T, O, I).
    Hollow = 1,
    /// Tile `$7C`: filled with colour 2, a colour-1 shine (Z, L).
    Solid2 = 2,
    /// Tile `$7D`: filled with colour 3, a colour-1 shine (J, S).
    Solid1 = 3,
}

impl PieceKind {
    /// All seven, in spawn-table order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::T,
        PieceKind::J,
        PieceKind::Z,
        PieceKind::O,
        PieceKind::S,
        PieceKind::L,
        PieceKind::I,
    ];

    /// From the spawn-table index 0..7.
    pub fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i % 7]
    }

    /// Spawn orientation (the game's `spawnTable`).
    pub fn spawn(self) -> Orientation {
        SPAWN_TABLE[self as usize]
    }

    /// The letter players use for it.
    pub fn letter(self) -> char {
        b"TJZOSLI"[self as usize] as char
    }

    /// Parses a piece letter (case-insensitive).
    pub fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'T' => Some(PieceKind::T),
            'J' => Some(PieceKind::J),
            'Z' => Some(PieceKind::Z),
            'O' => Some(PieceKind::O),
            'S' => Some(PieceKind::S),
            'L' => Some(PieceKind::L),
            'I' => Some(PieceKind::I),
            _ => None,
        }
    }

    /// The tile this piece is drawn with.
    pub fn tile(self) -> Tile {
        match self {
            PieceKind::T | PieceKind::O | PieceKind::I => Tile::Hollow,
            PieceKind::Z | PieceKind::L => Tile::Solid2,
            PieceKind::J | PieceKind::S => Tile::Solid1,
        }
    }

    /// Number of distinct orientations (1, 2 or 4).
    pub fn orientation_count(self) -> usize {
        match self {
            PieceKind::O => 1,
            PieceKind::Z | PieceKind::S | PieceKind::I => 2,
            _ => 4,
        }
    }

    /// The orientations of this piece, spawn orientation first.
    pub fn orientations(self) -> &'static [Orientation] {
        use Orientation::*;
        match self {
            PieceKind::T => &[Td, Tl, Tu, Tr],
            PieceKind::J => &[Jd, Jl, Ju, Jr],
            PieceKind::Z => &[Zh, Zv],
            PieceKind::O => &[O],
            PieceKind::S => &[Sh, Sv],
            PieceKind::L => &[Ld, Ll, Lu, Lr],
            PieceKind::I => &[Ih, Iv],
        }
    }
}

/// The game's spawn table (`spawnTable`): the spawn orientation of each piece type, in the
/// randomizer's index order.
pub const SPAWN_TABLE: [Orientation; 7] = [
    Orientation::Td,
    Orientation::Jd,
    Orientation::Zh,
    Orientation::O,
    Orientation::Sh,
    Orientation::Ld,
    Orientation::Ih,
];

/// Mino offsets `(dx, dy)` from the piece's centre for each orientation id (y grows downwards),
/// in the order of the game's orientation table.
pub const MINOS: [[(i8, i8); 4]; 19] = [
    [(-1, 0), (0, 0), (1, 0), (0, -1)],  // 00 Tu
    [(0, -1), (0, 0), (1, 0), (0, 1)],   // 01 Tr
    [(-1, 0), (0, 0), (1, 0), (0, 1)],   // 02 Td
    [(0, -1), (-1, 0), (0, 0), (0, 1)],  // 03 Tl
    [(0, -1), (0, 0), (-1, 1), (0, 1)],  // 04 Jl
    [(-1, -1), (-1, 0), (0, 0), (1, 0)], // 05 Ju
    [(0, -1), (1, -1), (0, 0), (0, 1)],  // 06 Jr
    [(-1, 0), (0, 0), (1, 0), (1, 1)],   // 07 Jd
    [(-1, 0), (0, 0), (0, 1), (1, 1)],   // 08 Zh
    [(1, -1), (0, 0), (1, 0), (0, 1)],   // 09 Zv
    [(-1, 0), (0, 0), (-1, 1), (0, 1)],  // 10 O
    [(0, 0), (1, 0), (-1, 1), (0, 1)],   // 11 Sh
    [(0, -1), (0, 0), (1, 0), (1, 1)],   // 12 Sv
    [(0, -1), (0, 0), (0, 1), (1, 1)],   // 13 Lr
    [(-1, 0), (0, 0), (1, 0), (-1, 1)],  // 14 Ld
    [(-1, -1), (0, -1), (0, 0), (0, 1)], // 15 Ll
    [(1, -1), (-1, 0), (0, 0), (1, 0)],  // 16 Lu
    [(0, -2), (0, -1), (0, 0), (0, 1)],  // 17 Iv
    [(-2, 0), (-1, 0), (0, 0), (1, 0)],  // 18 Ih
];

/// The rotation table: `[counter-clockwise (B), clockwise (A)]` for each orientation id.
pub const ROTATION_TABLE: [[u8; 2]; 19] = [
    [3, 1],   // Tu
    [0, 2],   // Tr
    [1, 3],   // Td
    [2, 0],   // Tl
    [7, 5],   // Jl
    [4, 6],   // Ju
    [5, 7],   // Jr
    [6, 4],   // Jd
    [9, 9],   // Zh
    [8, 8],   // Zv
    [10, 10], // O
    [12, 12], // Sh
    [11, 11], // Sv
    [16, 14], // Lr
    [13, 15], // Ld
    [14, 16], // Ll
    [15, 13], // Lu
    [18, 18], // Iv
    [17, 17], // Ih
];

impl Orientation {
    /// All 19 orientations by id.
    pub const ALL: [Orientation; 19] = {
        use Orientation::*;
        [
            Tu, Tr, Td, Tl, Jl, Ju, Jr, Jd, Zh, Zv, O, Sh, Sv, Lr, Ld, Ll, Lu, Iv, Ih,
        ]
    };

    /// From the game's id 0..=18; `None` for anything else (19 is "no piece").
    pub fn from_id(id: u8) -> Option<Orientation> {
        Orientation::ALL.get(id as usize).copied()
    }

    /// The game's id.
    pub fn id(self) -> u8 {
        self as u8
    }

    /// The piece type.
    pub fn kind(self) -> PieceKind {
        match self as u8 {
            0..=3 => PieceKind::T,
            4..=7 => PieceKind::J,
            8 | 9 => PieceKind::Z,
            10 => PieceKind::O,
            11 | 12 => PieceKind::S,
            13..=16 => PieceKind::L,
            _ => PieceKind::I,
        }
    }

    /// Mino offsets `(dx, dy)`.
    pub fn minos(self) -> &'static [(i8, i8); 4] {
        &MINOS[self as usize]
    }

    /// Clockwise rotation (the A button).
    pub fn cw(self) -> Orientation {
        Orientation::ALL[ROTATION_TABLE[self as usize][1] as usize]
    }

    /// Counter-clockwise rotation (the B button).
    pub fn ccw(self) -> Orientation {
        Orientation::ALL[ROTATION_TABLE[self as usize][0] as usize]
    }

    /// The spawn orientation of this orientation's piece (`spawnOrientationFromOrientation`).
    pub fn spawn(self) -> Orientation {
        self.kind().spawn()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_are_inverse() {
        for o in Orientation::ALL {
            assert_eq!(o.cw().ccw(), o);
            assert_eq!(o.ccw().cw(), o);
            assert_eq!(o.cw().kind(), o.kind());
        }
    }

    #[test]
    fn clockwise_matches_geometry() {
        // Rotating the minos by 90 degrees clockwise on screen (y down): (x, y) -> (-y, x).
        for o in Orientation::ALL {
            if matches!(
                o.kind(),
                PieceKind::O | PieceKind::I | PieceKind::S | PieceKind::Z
            ) {
                continue;
            }
            let mut rotated: Vec<(i8, i8)> = o.minos().iter().map(|&(x, y)| (-y, x)).collect();
            let mut target: Vec<(i8, i8)> = o.cw().minos().to_vec();
            rotated.sort();
            target.sort();
            assert_eq!(rotated, target, "{o:?}");
        }
    }

    #[test]
    fn orientation_counts() {
        for k in PieceKind::ALL {
            assert_eq!(k.orientations().len(), k.orientation_count());
            assert_eq!(k.orientations()[0], k.spawn());
            for o in k.orientations() {
                assert_eq!(o.kind(), k);
            }
        }
    }
}
