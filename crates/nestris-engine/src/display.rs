//! What the game writes to the screen for its counters: the level number, the line counter,
//! the piece statistics, the score and the top score, as tile ids of the game's font, and the
//! Tetris flash.
//!
//! The game draws every counter digit as a tile id. In its font (background pattern table
//! `$1000`) tiles `$00-$09` are the digits 0-9 and `$0A-$23` the letters A-Z; see [`glyph`].
//!
//! - **Two digits** (score, lines, statistics, level): the high nibble of a byte, then its low
//!   nibble, each written as a tile id (so a nibble above 9 shows a letter A-F).
//! - **Level**: the byte `levelDisplayTable[level]`, as two digits. original game: the table has
//!   30 entries (`00`-`29` in BCD); from level 30 on the game reads the bytes that follow it
//!   (another table, then code), so level 31 shows `0A` and level 146 shows `E9`
//!   ([`LEVEL_DISPLAY_BYTES`]).
//! - **Lines** and **statistics**: original game: the hundreds byte (a binary count, see
//!   `increment_lines`) is written straight to the screen as a tile id, then the low byte as
//!   two digits. So 1,000 lines (hundreds byte 10) shows `A00`, 2,000 lines `K00`, 3,600
//!   lines `-00`; from 4,200 (hundreds byte `$2A`) the first tile is blank, and from 4,800
//!   (`$30`) it is a piece of the screen's frame graphics, not a character.
//! - **Score**: three bytes of packed BCD as six digits.
//! - **Top score**: original game: written once, when the game screen is set up, from the
//!   first entry of the high-score table of the game type (initially 010000 for A-type and
//!   002000 for B-type), and not updated while the game runs. A game's score enters the table
//!   at its end, if it is at least an entry's.
//! - **Tetris flash**: original game: every frame, the interrupt writes background palette
//!   entry `$3F0E` (colour 2 of the palette of the screen's frame and background pattern):
//!   white `$30` when `completedLines` is 4 and the frame counter (before the interrupt's
//!   increment) is a multiple of 4, dark grey `$00` otherwise. So after a Tetris the
//!   background flashes one frame in four until the line count is applied.
//!
//! Sources: `shared/research/level-display.md` (the level bytes, read back from the original
//! game in an emulator, and the font; the tiles past `$2B` as the game's tileset shows them) and
//! the game's logic as its public disassembly documents it (facts only).

use crate::game::{Game, GameType};

/// The byte whose two nibbles the game writes as the two level tiles (`$22BA-$22BB`),
/// indexed by level.
pub const LEVEL_DISPLAY_BYTES: [u8; 256] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, // 0-7
    0x08, 0x09, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, // 8-15
    0x16, 0x17, 0x18, 0x19, 0x20, 0x21, 0x22, 0x23, // 16-23
    0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x00, 0x0A, // 24-31
    0x14, 0x1E, 0x28, 0x32, 0x3C, 0x46, 0x50, 0x5A, // 32-39
    0x64, 0x6E, 0x78, 0x82, 0x8C, 0x96, 0xA0, 0xAA, // 40-47
    0xB4, 0xBE, 0xC6, 0x20, 0xE6, 0x20, 0x06, 0x21, // 48-55
    0x26, 0x21, 0x46, 0x21, 0x66, 0x21, 0x86, 0x21, // 56-63
    0xA6, 0x21, 0xC6, 0x21, 0xE6, 0x21, 0x06, 0x22, // 64-71
    0x26, 0x22, 0x46, 0x22, 0x66, 0x22, 0x86, 0x22, // 72-79
    0xA6, 0x22, 0xC6, 0x22, 0xE6, 0x22, 0x06, 0x23, // 80-87
    0x26, 0x23, 0x85, 0xA8, 0x29, 0xF0, 0x4A, 0x4A, // 88-95
    0x4A, 0x4A, 0x8D, 0x07, 0x20, 0xA5, 0xA8, 0x29, // 96-103
    0x0F, 0x8D, 0x07, 0x20, 0x60, 0xA6, 0x49, 0xE0, // 104-111
    0x15, 0x10, 0x53, 0xBD, 0xD6, 0x96, 0xA8, 0x8A, // 112-119
    0x0A, 0xAA, 0xE8, 0xBD, 0xEA, 0x96, 0x8D, 0x06, // 120-127
    0x20, 0xCA, 0xA5, 0xBE, 0xC9, 0x01, 0xF0, 0x1E, // 128-135
    0xA5, 0xB9, 0xC9, 0x05, 0xF0, 0x0C, 0xBD, 0xEA, // 136-143
    0x96, 0x38, 0xE9, 0x02, 0x8D, 0x06, 0x20, 0x4C, // 144-151
    0x67, 0x97, 0xBD, 0xEA, 0x96, 0x18, 0x69, 0x0C, // 152-159
    0x8D, 0x06, 0x20, 0x4C, 0x67, 0x97, 0xBD, 0xEA, // 160-167
    0x96, 0x18, 0x69, 0x06, 0x8D, 0x06, 0x20, 0xA2, // 168-175
    0x0A, 0xB1, 0xB8, 0x8D, 0x07, 0x20, 0xC8, 0xCA, // 176-183
    0xD0, 0xF7, 0xE6, 0x49, 0xA5, 0x49, 0xC9, 0x14, // 184-191
    0x30, 0x04, 0xA9, 0x20, 0x85, 0x49, 0x60, 0xA5, // 192-199
    0xB1, 0x29, 0x03, 0xD0, 0x78, 0xA9, 0x00, 0x85, // 200-207
    0xAA, 0xA6, 0xAA, 0xB5, 0x4A, 0xF0, 0x5C, 0x0A, // 208-215
    0xA8, 0xB9, 0xEA, 0x96, 0x85, 0xA8, 0xA5, 0xBE, // 216-223
    0xC9, 0x01, 0xD0, 0x0A, 0xA5, 0xA8, 0x18, 0x69, // 224-231
    0x06, 0x85, 0xA8, 0x4C, 0xBD, 0x97, 0xA5, 0xB9, // 232-239
    0xC9, 0x04, 0xD0, 0x0A, 0xA5, 0xA8, 0x38, 0xE9, // 240-247
    0x02, 0x85, 0xA8, 0x4C, 0xBD, 0x97, 0xA5, 0xA8, // 248-255
];

/// What a font tile shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyph {
    /// A character: a digit, a letter, punctuation, or a blank (`' '`).
    Char(char),
    /// A tile that is not a character (a piece of the frame graphics or the blocks), as the
    /// counters show from hundreds byte `$30` on.
    Graphic(u8),
}

impl Glyph {
    /// The glyph as one character: the character itself, `'▒'` for a graphics tile.
    pub fn to_char(self) -> char {
        match self {
            Glyph::Char(c) => c,
            Glyph::Graphic(_) => '▒',
        }
    }
}

/// What tile `tile` of the game's font shows: `$00-$09` the digits, `$0A-$23` the letters A-Z,
/// `$24` dash, `$25` comma, `$26` apostrophe, `$27` arrow, `$28` `!`, `$29` heart, `$2A-$2F`
/// blank, anything else a graphics tile.
pub fn glyph(tile: u8) -> Glyph {
    match tile {
        0x00..=0x09 => Glyph::Char((b'0' + tile) as char),
        0x0A..=0x23 => Glyph::Char((b'A' + tile - 0x0A) as char),
        0x24 => Glyph::Char('-'),
        0x25 => Glyph::Char(','),
        0x26 => Glyph::Char('\''),
        0x27 => Glyph::Char('→'),
        0x28 => Glyph::Char('!'),
        0x29 => Glyph::Char('♥'),
        0x2A..=0x2F => Glyph::Char(' '),
        _ => Glyph::Graphic(tile),
    }
}

/// The text of a run of tiles (one character per tile, see [`Glyph::to_char`]).
pub fn text(tiles: &[u8]) -> String {
    tiles.iter().map(|&t| glyph(t).to_char()).collect()
}

/// The two tiles the game writes for a byte (`twoDigsToPPU`): its high nibble, then its low
/// nibble.
pub fn two_digits(byte: u8) -> [u8; 2] {
    [byte >> 4, byte & 0x0F]
}

/// The two tiles of the level number at `level` (`$22BA-$22BB`).
pub fn level_tiles(level: u8) -> [u8; 2] {
    two_digits(LEVEL_DISPLAY_BYTES[level as usize])
}

/// The three tiles of a counter kept as a binary hundreds byte and a packed-BCD low byte (the
/// line counter `lines`, each entry of `statsByType`): the hundreds byte as a tile id, then
/// the low byte as two digits.
pub fn hundreds_counter_tiles(counter: u16) -> [u8; 3] {
    // original game: the hundreds byte goes to the screen as it is, a tile id.
    let [a, b] = two_digits(counter as u8);
    [(counter >> 8) as u8, a, b]
}

/// The three tiles of the line counter (`$2073`).
pub fn lines_tiles(lines: u16) -> [u8; 3] {
    hundreds_counter_tiles(lines)
}

/// The three tiles of one piece statistic.
pub fn stat_tiles(stat: u16) -> [u8; 3] {
    hundreds_counter_tiles(stat)
}

/// The six tiles of a packed-BCD score `0x00HHMMLL`.
pub fn score_tiles(score: u32) -> [u8; 6] {
    let [a, b] = two_digits((score >> 16) as u8);
    let [c, d] = two_digits((score >> 8) as u8);
    let [e, f] = two_digits(score as u8);
    [a, b, c, d, e, f]
}

/// The first entry of the high-score table at power-on, packed BCD: 010000 for A-type, 002000
/// for B-type.
pub fn default_top_score(game_type: GameType) -> u32 {
    match game_type {
        GameType::A => 0x01_00_00,
        GameType::B => 0x00_20_00,
    }
}

/// The high-score table's first entry after a game ending with `score` (packed BCD), given the
/// entry before it: the game's score replaces it when it is at least as high (ties go to the new
/// score; the values are the same).
pub fn top_score_after(top: u32, score: u32) -> u32 {
    top.max(score & 0x00FF_FFFF)
}

/// The palette byte the interrupt at the start of the next frame writes to `$3F0E`, given the
/// game before that frame: white `$30` during a Tetris flash, `$00` otherwise.
pub fn flash_palette_byte(g: &Game) -> u8 {
    // original game: the check reads completedLines and the frame counter before the
    // interrupt increments it.
    if g.completed_lines == 4 && g.frame_counter & 3 == 0 {
        0x30
    } else {
        0x00
    }
}

/// Whether the frame after this state shows the Tetris flash (see [`flash_palette_byte`]).
pub fn tetris_flash(g: &Game) -> bool {
    flash_palette_byte(g) == 0x30
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_number_follows_the_games_logic() {
        // 0-29: BCD.
        for level in 0..30u8 {
            assert_eq!(
                LEVEL_DISPLAY_BYTES[level as usize],
                ((level / 10) << 4) | (level % 10)
            );
        }
        // 30-49: the multiply-by-ten table that follows.
        for level in 30..50u8 {
            assert_eq!(LEVEL_DISPLAY_BYTES[level as usize], (level - 30) * 10);
        }
        assert_eq!(text(&level_tiles(29)), "29");
        assert_eq!(text(&level_tiles(31)), "0A");
        assert_eq!(text(&level_tiles(138)), "C9");
        assert_eq!(text(&level_tiles(146)), "E9");
        assert_eq!(text(&level_tiles(191)), "14");
        assert_eq!(text(&level_tiles(255)), "A8");
        for level in 0..=255u8 {
            assert!(level_tiles(level).iter().all(|&t| t < 16));
        }
    }

    #[test]
    fn counters_past_their_digits() {
        use crate::bcd::lines_encode;
        assert_eq!(text(&lines_tiles(lines_encode(0))), "000");
        assert_eq!(text(&lines_tiles(lines_encode(999))), "999");
        assert_eq!(text(&lines_tiles(lines_encode(1000))), "A00");
        assert_eq!(text(&lines_tiles(lines_encode(1234))), "C34");
        assert_eq!(text(&lines_tiles(lines_encode(2000))), "K00");
        assert_eq!(text(&lines_tiles(lines_encode(3599))), "Z99");
        assert_eq!(text(&lines_tiles(lines_encode(3600))), "-00");
        assert_eq!(text(&lines_tiles(lines_encode(4100))), "♥00");
        assert_eq!(text(&lines_tiles(lines_encode(4200))), " 00");
        assert_eq!(glyph(0x2C), Glyph::Char(' '));
        assert_eq!(glyph(0x30), Glyph::Graphic(0x30));
        assert_eq!(text(&lines_tiles(lines_encode(4800))), "▒00");
        assert_eq!(text(&stat_tiles(0x0A05)), "A05");
        assert_eq!(text(&stat_tiles(0x1099)), "G99");
        assert_eq!(text(&score_tiles(0x99_99_99)), "999999");
        assert_eq!(text(&score_tiles(0x01_23_45)), "012345");
        // A nibble above 9 shows a letter.
        assert_eq!(text(&two_digits(0xA5)), "A5");
    }

    #[test]
    fn top_score() {
        assert_eq!(default_top_score(GameType::A), 0x010000);
        assert_eq!(default_top_score(GameType::B), 0x002000);
        assert_eq!(top_score_after(0x010000, 0x009999), 0x010000);
        assert_eq!(top_score_after(0x010000, 0x123456), 0x123456);
    }
}
