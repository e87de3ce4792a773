//! Pictures of a game for front-ends without a terminal: an RGB image of the playfield and the
//! next box in the level's NES colours ([`rgb`], what gymnasium's video recorder takes), and
//! a plain text picture ([`text`]).

use nestris_engine::colors::{rgb as palette_rgb, tile_colors, BLACK};
use nestris_engine::{Game, Orientation, Tile};

/// Pixels of a block (the NES tile size).
const CELL: usize = 8;
/// The image at scale 1: 160 x 176 pixels (multiples of 16, as video encoders like).
pub const WIDTH: usize = 160;
/// See [`WIDTH`].
pub const HEIGHT: usize = 176;
/// The playfield's top-left corner.
const FIELD: (usize, usize) = (8, 8);
/// The next box's top-left corner and size.
const NEXT: (usize, usize, usize, usize) = (104, 8, 48, 40);
/// The frame around the boxes (NES grey `$00`).
const FRAME: u8 = 0x00;

fn fill(img: &mut [u8], scale: usize, x0: usize, y0: usize, w: usize, h: usize, c: [u8; 3]) {
    let width = WIDTH * scale;
    for y in y0 * scale..(y0 + h) * scale {
        for x in x0 * scale..(x0 + w) * scale {
            img[(y * width + x) * 3..(y * width + x) * 3 + 3].copy_from_slice(&c);
        }
    }
}

/// One block at pixel `(px, py)`: the tile's body with the gap row and column of the
/// original's graphics, and its accent (the centre of the hollow tile, the shine of the solid
/// ones).
fn block(img: &mut [u8], scale: usize, px: usize, py: usize, tile: Tile, level: u8) {
    let Some(c) = tile_colors(tile, level) else {
        return;
    };
    let (body, accent) = (palette_rgb(c.body), palette_rgb(c.accent));
    fill(img, scale, px, py, CELL - 1, CELL - 1, body);
    match tile {
        Tile::Hollow => fill(img, scale, px + 1, py + 1, CELL - 3, CELL - 3, accent),
        _ => {
            fill(img, scale, px, py, 1, 1, accent);
            fill(img, scale, px + 1, py + 1, 2, 1, accent);
            fill(img, scale, px + 1, py + 2, 1, 1, accent);
        }
    }
}

/// The piece under control is drawn (the game draws it from `currentPiece` while it moves).
fn shown_piece(g: &Game) -> Option<Orientation> {
    g.piece_active()
        .then(|| Orientation::from_id(g.piece))
        .flatten()
}

/// The game as an RGB image, `HEIGHT * scale` rows of `WIDTH * scale` pixels, 3 bytes each:
/// the playfield with the falling piece, and the next piece (when the game shows it), in the
/// colours the original uses at the current level.
pub fn rgb(g: &Game, scale: usize) -> Vec<u8> {
    let scale = scale.max(1);
    let mut img = vec![0u8; WIDTH * HEIGHT * scale * scale * 3];
    let grey = palette_rgb(FRAME);
    let black = palette_rgb(BLACK);
    fill(&mut img, scale, 0, 0, WIDTH, HEIGHT, grey);
    fill(
        &mut img,
        scale,
        FIELD.0,
        FIELD.1,
        10 * CELL,
        20 * CELL,
        black,
    );
    fill(&mut img, scale, NEXT.0, NEXT.1, NEXT.2, NEXT.3, black);
    for y in 0..20 {
        for x in 0..10 {
            let t = g.playfield.tile_at(x, y);
            block(
                &mut img,
                scale,
                FIELD.0 + x * CELL,
                FIELD.1 + y * CELL,
                t,
                g.level,
            );
        }
    }
    if let Some(o) = shown_piece(g) {
        for &(dx, dy) in o.minos() {
            let (x, y) = (g.x as i32 + dx as i32, g.y as i32 + dy as i32);
            if (0..10).contains(&x) && (0..20).contains(&y) {
                let (px, py) = (FIELD.0 + x as usize * CELL, FIELD.1 + y as usize * CELL);
                block(&mut img, scale, px, py, o.kind().tile(), g.level);
            }
        }
    }
    if g.next_visible() {
        if let Some(n) = Orientation::from_id(g.next) {
            let o = n.kind().spawn();
            for &(dx, dy) in o.minos() {
                let px = (NEXT.0 as i32 + 20 + dx as i32 * CELL as i32) as usize;
                let py = (NEXT.1 as i32 + 16 + dy as i32 * CELL as i32) as usize;
                block(&mut img, scale, px, py, o.kind().tile(), g.level);
            }
        }
    }
    img
}

/// The game as text: 20 rows of 10 cells (`#` settled, `@` the falling piece, `.` empty)
/// between walls, with the next piece, level, lines and score beside them.
pub fn text(g: &Game) -> String {
    let mut cells = [[b'.'; 10]; 20];
    for (y, row) in cells.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            if g.playfield.occupied_at(x, y) {
                *c = b'#';
            }
        }
    }
    if let Some(o) = shown_piece(g) {
        for &(dx, dy) in o.minos() {
            let (x, y) = (g.x as i32 + dx as i32, g.y as i32 + dy as i32);
            if (0..10).contains(&x) && (0..20).contains(&y) {
                cells[y as usize][x as usize] = b'@';
            }
        }
    }
    let next = Orientation::from_id(g.next).map_or('-', |o| o.kind().letter());
    let side = [
        format!("next  {next}"),
        format!("level {}", g.level),
        format!("lines {}", g.lines_value()),
        format!("score {}", g.score_uncapped),
    ];
    let mut s = String::new();
    for (y, row) in cells.iter().enumerate() {
        s.push('|');
        s.push_str(std::str::from_utf8(row).unwrap_or(""));
        s.push('|');
        if let Some(t) = side.get(y) {
            s.push_str("  ");
            s.push_str(t);
        }
        s.push('\n');
    }
    s.push_str("+----------+\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_engine::StartConfig;

    fn pixel(img: &[u8], scale: usize, x: usize, y: usize) -> [u8; 3] {
        let i = ((y * scale) * WIDTH * scale + x * scale) * 3;
        [img[i], img[i + 1], img[i + 2]]
    }

    /// The falling piece is drawn in the level's colours, at every scale: at level 0 the T
    /// piece's frame is colour 3 of level 0 and its centre colour 1.
    #[test]
    fn piece_in_level_colours() {
        for (level, scale) in [(0u8, 1usize), (5, 2), (18, 1), (138, 3)] {
            let mut g = Game::start(StartConfig::a_type(level));
            while !g.piece_active() {
                g.step(0);
            }
            let img = rgb(&g, scale);
            assert_eq!(img.len(), WIDTH * HEIGHT * scale * scale * 3);
            let o = Orientation::from_id(g.piece).unwrap();
            let (dx, dy) = o.minos()[1];
            let px = FIELD.0 + (g.x as i32 + dx as i32) as usize * CELL;
            let py = FIELD.1 + (g.y as i32 + dy as i32) as usize * CELL;
            let c = tile_colors(o.kind().tile(), level).unwrap();
            assert_eq!(
                pixel(&img, scale, px + 6, py + 6),
                palette_rgb(c.body),
                "level {level}"
            );
            assert_eq!(
                pixel(&img, scale, px + 1, py + 1),
                palette_rgb(c.accent),
                "level {level}"
            );
            assert_eq!(pixel(&img, scale, px + 7, py + 7), palette_rgb(BLACK));
        }
    }

    #[test]
    fn text_shows_piece_and_counters() {
        let mut g = Game::start(StartConfig::a_type(7));
        while !g.piece_active() {
            g.step(0);
        }
        let t = text(&g);
        assert_eq!(t.matches('@').count(), 4, "{t}");
        assert!(t.contains("level 7"), "{t}");
        assert_eq!(t.lines().count(), 21);
    }
}
