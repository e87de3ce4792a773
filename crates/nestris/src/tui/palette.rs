//! Colours on the terminal: the game's NES palette as terminal colours (24-bit where the
//! terminal says it has them, the nearest of the 256 xterm colours otherwise) and the style
//! of each block tile.

use std::sync::OnceLock;

use nestris_engine::colors;
use nestris_engine::Tile;
use ratatui::style::{Color, Style};

/// Whether the terminal takes 24-bit colour (`COLORTERM=truecolor` or `24bit`).
pub fn truecolor() -> bool {
    static TC: OnceLock<bool> = OnceLock::new();
    *TC.get_or_init(|| {
        std::env::var("COLORTERM")
            .map(|v| {
                let v = v.to_ascii_lowercase();
                v.contains("truecolor") || v.contains("24bit")
            })
            .unwrap_or(false)
    })
}

/// The nearest xterm-256 colour index to an RGB colour (the 6x6x6 cube or the grey ramp).
pub fn xterm256(rgb: [u8; 3]) -> u8 {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let near = |v: u8| -> usize {
        (0..6)
            .min_by_key(|&i| (LEVELS[i] as i32 - v as i32).abs())
            .unwrap_or(0)
    };
    let (r, g, b) = (near(rgb[0]), near(rgb[1]), near(rgb[2]));
    let cube = 16 + 36 * r + 6 * g + b;
    let cube_rgb = [LEVELS[r], LEVELS[g], LEVELS[b]];
    let avg = (rgb[0] as u32 + rgb[1] as u32 + rgb[2] as u32) / 3;
    let grey_i = if avg < 8 { 0 } else { ((avg - 8) / 10).min(23) };
    let grey_v = (8 + grey_i * 10) as u8;
    let dist = |c: [u8; 3]| -> i32 { (0..3).map(|i| (c[i] as i32 - rgb[i] as i32).pow(2)).sum() };
    if dist([grey_v; 3]) < dist(cube_rgb) {
        232 + grey_i as u8
    } else {
        cube as u8
    }
}

/// A terminal colour for an RGB triple.
pub fn color(rgb: [u8; 3]) -> Color {
    if truecolor() {
        Color::Rgb(rgb[0], rgb[1], rgb[2])
    } else {
        Color::Indexed(xterm256(rgb))
    }
}

/// A terminal colour for an NES palette index.
pub fn nes(index: u8) -> Color {
    color(colors::rgb(index))
}

/// The playfield background.
pub fn black() -> Color {
    color([0, 0, 0])
}

/// The white of hollow tiles and text.
pub fn white() -> Color {
    nes(colors::WHITE)
}

/// The colours of one level: the three piece colours the game shows (see
/// [`nestris_engine::colors`]), as NES palette indices and as terminal colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelColors {
    /// The palette indices of colours 1, 2 and 3 (six bits, as the PPU shows them).
    pub nes: [u8; 3],
    /// Colour 1: the centre of T, O, I and the shine of the others.
    pub c1: Color,
    /// Colour 2: Z and L.
    pub c2: Color,
    /// Colour 3: J and S, the frame of T, O, I.
    pub c3: Color,
}

impl LevelColors {
    /// The colours the game shows at `level`.
    pub fn of(level: u8) -> LevelColors {
        let nes_idx = colors::level_colors(level);
        LevelColors {
            nes: nes_idx,
            c1: nes(nes_idx[0]),
            c2: nes(nes_idx[1]),
            c3: nes(nes_idx[2]),
        }
    }

    /// The main colour of a tile (the fill, or the frame of T, O, I), `None` for an empty
    /// cell; its other colour is colour 1 ([`LevelColors::c1`]).
    pub fn body(&self, tile: Tile) -> Option<Color> {
        match tile {
            Tile::Empty => None,
            Tile::Solid2 => Some(self.c2),
            Tile::Hollow | Tile::Solid1 => Some(self.c3),
        }
    }

    /// The style and glyphs of a tile in a cell `w` characters wide, as the rows of the cell
    /// (`h` rows). Hollow (T, O, I): a colour-1 centre framed by colour 3. Solid: colour 2
    /// (Z, L, drawn `▓`) or colour 3 (J, S, `█`), with a colour-1 shine in the top-left corner
    /// when the cell is at least two characters wide. A black colour (some levels from 138 on)
    /// is drawn black, on the black background, as the game shows it.
    pub fn tile(&self, tile: Tile, w: u16, h: u16) -> Vec<Vec<(Style, String)>> {
        let w = w.max(1) as usize;
        let h = h.max(1) as usize;
        let c1 = self.c1;
        match tile {
            Tile::Empty => vec![vec![(Style::default().bg(black()), " ".repeat(w))]; h],
            Tile::Solid1 | Tile::Solid2 => {
                let (fill, ch) = if tile == Tile::Solid2 {
                    (self.c2, "▓")
                } else {
                    (self.c3, "█")
                };
                let body = Style::default().fg(fill).bg(fill);
                let mut rows = vec![vec![(body, ch.repeat(w))]; h];
                if w >= 2 {
                    rows[0] = vec![
                        (Style::default().fg(c1).bg(fill), "▘".to_string()),
                        (body, ch.repeat(w - 1)),
                    ];
                }
                rows
            }
            Tile::Hollow => {
                let style = Style::default().fg(c1).bg(self.c3);
                let rows = match (w, h) {
                    (1, _) => vec!["▪".to_string(); h],
                    (2, _) => vec!["▐▌".to_string(); h],
                    (_, 1) => vec![format!("▐{}▌", "█".repeat(w - 2))],
                    _ => {
                        let mid = w - 2;
                        let mut rows = vec![format!("▗{}▖", "▄".repeat(mid))];
                        for _ in 2..h {
                            rows.push(format!("▐{}▌", "█".repeat(mid)));
                        }
                        rows.push(format!("▝{}▘", "▀".repeat(mid)));
                        rows
                    }
                };
                rows.into_iter().map(|r| vec![(style, r)]).collect()
            }
        }
    }
}
