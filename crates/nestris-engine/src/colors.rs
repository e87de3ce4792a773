//! The game's colours as data: the NES (2C02) palette as RGB and the block colours of every
//! level, including the wrong colours the game shows from level 138 on.
//!
//! # How the game picks a level's colours
//!
//! The playfield's block palette is two NES palette indices per level, taken from a ten-entry
//! colour table (four bytes per entry) at `(level mod 10) * 4`. The game computes `level mod
//! 10` by subtracting 10 while the result of `level - 10` is non-negative **as a signed byte**.
//!
//! original game: from level 138 on, `level - 10` is already negative as a signed byte
//! (138 - 10 = 128 = `$80`), so the loop exits at once with the level unchanged, and the index
//! becomes `(level * 4) mod 256`. Where that index lands inside the table (levels 192..=201
//! read entries 0..=9 again) the colours are ordinary level colours; everywhere else the game
//! reads whatever bytes follow the table in the cartridge.
//!
//! # Sources
//!
//! - [`LEVEL_COLORS`] (levels 0..=9): the per-level palette pairs as community documentation
//!   of NES Tetris lists them (e.g. level 0 is palette `$21` light blue and `$12` blue, as
//!   public reimplementations of the game also show).
//! - [`NES_PALETTE`]: a common RGB rendering of the NTSC 2C02 palette (the one most NES
//!   emulators of the 2000s shipped with and the NES community's palette tables list).
//! - [`BEYOND_TABLE`]: the colours of the 54 entries read past the table. Public sources
//!   describe what those levels look like (colours change unpredictably from level 138 on,
//!   level 146 is almost invisible, level 255 is red) but no documented per-level list of the
//!   palette indices was available when this table was written, so it holds a **documented
//!   fallback** (see [`BEYOND_TABLE_DOCUMENTED`]): the mechanism (which level reads which
//!   entry) is exact; only the colour values of the entries past the table are stand-ins.
//!   No cartridge bytes are reproduced here.

/// The NES palette: 64 RGB triples, indexed by the 6-bit palette index.
pub const NES_PALETTE: [[u8; 3]; 64] = [
    // $00-$0F
    [0x7C, 0x7C, 0x7C],
    [0x00, 0x00, 0xFC],
    [0x00, 0x00, 0xBC],
    [0x44, 0x28, 0xBC],
    [0x94, 0x00, 0x84],
    [0xA8, 0x00, 0x20],
    [0xA8, 0x10, 0x00],
    [0x88, 0x14, 0x00],
    [0x50, 0x30, 0x00],
    [0x00, 0x78, 0x00],
    [0x00, 0x68, 0x00],
    [0x00, 0x58, 0x00],
    [0x00, 0x40, 0x58],
    [0x00, 0x00, 0x00],
    [0x00, 0x00, 0x00],
    [0x00, 0x00, 0x00],
    // $10-$1F
    [0xBC, 0xBC, 0xBC],
    [0x00, 0x78, 0xF8],
    [0x00, 0x58, 0xF8],
    [0x68, 0x44, 0xFC],
    [0xD8, 0x00, 0xCC],
    [0xE4, 0x00, 0x58],
    [0xF8, 0x38, 0x00],
    [0xE4, 0x5C, 0x10],
    [0xAC, 0x7C, 0x00],
    [0x00, 0xB8, 0x00],
    [0x00, 0xA8, 0x00],
    [0x00, 0xA8, 0x44],
    [0x00, 0x88, 0x88],
    [0x00, 0x00, 0x00],
    [0x00, 0x00, 0x00],
    [0x00, 0x00, 0x00],
    // $20-$2F
    [0xF8, 0xF8, 0xF8],
    [0x3C, 0xBC, 0xFC],
    [0x68, 0x88, 0xFC],
    [0x98, 0x78, 0xF8],
    [0xF8, 0x78, 0xF8],
    [0xF8, 0x58, 0x98],
    [0xF8, 0x78, 0x58],
    [0xFC, 0xA0, 0x44],
    [0xF8, 0xB8, 0x00],
    [0xB8, 0xF8, 0x18],
    [0x58, 0xD8, 0x54],
    [0x58, 0xF8, 0x98],
    [0x00, 0xE8, 0xD8],
    [0x78, 0x78, 0x78],
    [0x00, 0x00, 0x00],
    [0x00, 0x00, 0x00],
    // $30-$3F
    [0xFC, 0xFC, 0xFC],
    [0xA4, 0xE4, 0xFC],
    [0xB8, 0xB8, 0xF8],
    [0xD8, 0xB8, 0xF8],
    [0xF8, 0xB8, 0xF8],
    [0xF8, 0xA4, 0xC0],
    [0xF0, 0xD0, 0xB0],
    [0xFC, 0xE0, 0xA8],
    [0xF8, 0xD8, 0x78],
    [0xD8, 0xF8, 0x78],
    [0xB8, 0xF8, 0xB8],
    [0xB8, 0xF8, 0xD8],
    [0x00, 0xFC, 0xFC],
    [0xF8, 0xD8, 0xF8],
    [0x00, 0x00, 0x00],
    [0x00, 0x00, 0x00],
];

/// Palette index of the white the game uses for the centre of the hollow tile and for text.
pub const WHITE: u8 = 0x30;
/// Palette index of the background black.
pub const BLACK: u8 = 0x0F;

/// The block colours of levels 0..=9 (the colour table's entries), as NES palette indices
/// `[colour 1, colour 2]`. Colour 1 is the hollow tile's border and the `Solid1` tile (J, S);
/// colour 2 is the `Solid2` tile (Z, L).
pub const LEVEL_COLORS: [[u8; 2]; 10] = [
    [0x21, 0x12], // 0
    [0x29, 0x1A], // 1
    [0x24, 0x14], // 2
    [0x2A, 0x12], // 3
    [0x2B, 0x15], // 4
    [0x22, 0x2B], // 5
    [0x00, 0x16], // 6
    [0x05, 0x13], // 7
    [0x16, 0x12], // 8
    [0x27, 0x16], // 9
];

/// Bytes per colour-table entry.
pub const ENTRY_SIZE: u8 = 4;
/// Size of the colour table in bytes (ten entries).
pub const TABLE_SIZE: u8 = 10 * ENTRY_SIZE;

/// Whether [`BEYOND_TABLE`] holds documented colours (`true`) or the fallback (`false`).
pub const BEYOND_TABLE_DOCUMENTED: bool = false;

/// The colours the game reads past the end of the colour table, for table offsets
/// `40, 44, ..., 252` (entry `i` is offset `40 + 4 i`), as `[colour 1, colour 2]`.
///
/// Fallback (see the module documentation): no documented values were available, so every
/// entry holds the same stand-in, dark grey and light grey (`$00`, `$10`), chosen to be
/// visibly "not a normal level" while keeping the blocks legible. Replace the entries with
/// documented values when they are available and set [`BEYOND_TABLE_DOCUMENTED`].
pub const BEYOND_TABLE: [[u8; 2]; 54] = [[0x00, 0x10]; 54];

/// The byte offset into the colour table the game uses at `level`: `(level mod 10) * 4` up to
/// level 137, `(level * 4) mod 256` from 138 on (see the module documentation).
pub fn table_offset(level: u8) -> u8 {
    // original game: the mod-10 loop tests the sign of `a - 10`, so it exits immediately for
    // 138..=255.
    let mut a = level;
    while a.wrapping_sub(10) & 0x80 == 0 {
        a -= 10;
    }
    a.wrapping_mul(ENTRY_SIZE)
}

/// Whether `level` shows colours read past the end of the colour table.
pub fn is_glitched(level: u8) -> bool {
    table_offset(level) >= TABLE_SIZE
}

/// The two palette indices `[colour 1, colour 2]` the game shows at `level`.
pub fn level_palette(level: u8) -> [u8; 2] {
    let off = table_offset(level);
    if off < TABLE_SIZE {
        LEVEL_COLORS[(off / ENTRY_SIZE) as usize]
    } else {
        BEYOND_TABLE[((off - TABLE_SIZE) / ENTRY_SIZE) as usize]
    }
}

/// The RGB colour of a palette index (the upper two bits are ignored, as the PPU does).
pub fn rgb(index: u8) -> [u8; 3] {
    NES_PALETTE[(index & 0x3F) as usize]
}

/// The two block colours of `level` as RGB.
pub fn level_rgb(level: u8) -> [[u8; 3]; 2] {
    let [a, b] = level_palette(level);
    [rgb(a), rgb(b)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mod_ten_loop() {
        for level in 0..=137u8 {
            assert_eq!(table_offset(level), (level % 10) * 4, "level {level}");
            assert_eq!(level_palette(level), LEVEL_COLORS[(level % 10) as usize]);
        }
        // From 138 on: (level * 4) mod 256.
        assert_eq!(table_offset(138), 40);
        assert!(is_glitched(138));
        assert_eq!(table_offset(146), 72);
        assert_eq!(table_offset(255), 252);
        // 192..=201 land inside the table again.
        for level in 192..=201u8 {
            assert!(!is_glitched(level), "level {level}");
            assert_eq!(level_palette(level), LEVEL_COLORS[(level - 192) as usize]);
        }
        assert!(is_glitched(202));
        for level in 0..=255u8 {
            let _ = level_rgb(level);
        }
    }

    #[test]
    fn palette_entries() {
        assert_eq!(rgb(0x12), [0x00, 0x58, 0xF8]);
        assert_eq!(rgb(0x21), [0x3C, 0xBC, 0xFC]);
        assert_eq!(rgb(WHITE), [0xFC, 0xFC, 0xFC]);
        assert_eq!(rgb(0x52), rgb(0x12));
    }
}
