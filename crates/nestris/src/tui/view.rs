//! The screen, laid out like the NES game: game type and statistics on the left, the 10x20
//! playfield with LINES above it in the middle, TOP/SCORE, NEXT and LEVEL on the right, and a
//! side panel (AI decisions or controls) and a status line.
//!
//! The playfield is drawn the way the game draws it: from a copy of the screen's tiles
//! ([`Vram`]) that the game's interrupt updates four rows a frame, with the active piece as a
//! sprite on top. That copy is what makes the line-clear animation (columns cleared from the
//! centre outwards while the rows are already gone from the game's RAM) and the game-over
//! curtain appear exactly as in the original.

use nestris_engine::display;
use nestris_engine::{bcd, Game, Orientation, PieceKind, PlayState, Tile};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};
use ratatui::Frame;

use super::endings::{self, EndingKind};
use super::palette::{self, LevelColors};

/// The tiles on screen, as the game's nametable holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vram {
    /// Rows 0..19 of ten tiles.
    pub cells: [[Tile; 10]; 20],
    /// Whether the Tetris flash is on (palette entry `$3F0E` white, see
    /// [`nestris_engine::display`]).
    pub flash: bool,
}

impl Default for Vram {
    fn default() -> Self {
        Vram::new()
    }
}

impl Vram {
    /// A blank playfield.
    pub fn new() -> Vram {
        Vram {
            cells: [[Tile::Empty; 10]; 20],
            flash: false,
        }
    }

    /// The screen update the game's interrupt performs at the start of the next frame, given
    /// the game before that frame. Call it before every [`Game::step`].
    pub fn before_step(&mut self, g: &Game) {
        self.flash = false;
        if g.ended() || g.paused() {
            return;
        }
        self.flash = display::tetris_flash(g);
        if g.play_state == PlayState::LineClearAnimation {
            // original game: one step every fourth frame; step k clears columns 4-k and 5+k of
            // every completed row (a completed row 0 is recorded as "none" and not animated).
            if g.frame_counter & 3 == 0 && g.row_y < 5 {
                let k = g.row_y as usize;
                for &r in &g.completed_row {
                    if r != 0 && (r as usize) < 20 {
                        self.cells[r as usize][4 - k] = Tile::Empty;
                        self.cells[r as usize][5 + k] = Tile::Empty;
                    }
                }
            }
        } else {
            // copyPlayfieldRowToVRAM, four times.
            let mut vr = g.vram_row;
            for _ in 0..4 {
                if (vr as i8) < 21 {
                    if vr < 20 {
                        self.copy_row(g, vr as usize);
                    }
                    vr += 1;
                    if vr >= 20 {
                        vr = 32;
                    }
                }
            }
        }
    }

    fn copy_row(&mut self, g: &Game, y: usize) {
        for x in 0..10 {
            self.cells[y][x] = g.playfield.tile_at(x, y);
        }
    }
}

/// What the screen shows besides the game itself.
#[derive(Clone, Debug, Default)]
pub struct Hud {
    /// The top score box: the high-score table's first entry when this game started (decimal;
    /// the box shows at least the game's initial entry, 010000 for A-type and 002000 for
    /// B-type). original game: it is not updated while the game runs.
    pub top_score: u64,
    /// Title of the side panel.
    pub panel_title: String,
    /// Side panel text.
    pub panel: Vec<Line<'static>>,
    /// Bottom line (keys).
    pub status: Line<'static>,
    /// Lines shown over the playfield (e.g. "PRESS START").
    pub overlay: Vec<String>,
    /// Outline of a placement (the AI's hint): orientation id, x, y.
    pub ghost: Option<(u8, u8, u8)>,
    /// An ending to draw instead of the game, with its tick.
    pub ending: Option<(EndingKind, u32)>,
}

/// The layout chosen for a terminal size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Characters per cell horizontally.
    pub cw: u16,
    /// Rows per cell.
    pub ch: u16,
    /// Statistics column.
    pub left: Rect,
    /// Playfield box (with border).
    pub field: Rect,
    /// Score/next/level column.
    pub right: Rect,
    /// Side panel, if there is room.
    pub panel: Option<Rect>,
    /// Status line.
    pub status: Rect,
}

const LEFT_W: u16 = 14;
const PANEL_MIN: u16 = 22;
const PANEL_MAX: u16 = 44;

impl Layout {
    /// The largest cell size that fits `area` (4x2, 2x1 or 1x1 characters); `None` if even
    /// the smallest does not.
    pub fn compute(area: Rect) -> Option<Layout> {
        for &(cw, ch, with_panel) in &[
            (4u16, 2u16, true),
            (2, 1, true),
            (2, 1, false),
            (1, 1, true),
            (1, 1, false),
        ] {
            let field_w = 10 * cw + 2;
            let field_h = 20 * ch + 2;
            let right_w = (4 * cw + 4).max(12);
            let game_w = LEFT_W + field_w + right_w;
            let need_w = game_w + if with_panel { PANEL_MIN } else { 0 };
            if need_w > area.width || field_h + 1 > area.height {
                continue;
            }
            let panel_w = if with_panel {
                (area.width - game_w).clamp(PANEL_MIN, PANEL_MAX)
            } else {
                0
            };
            let spare = area.width - game_w - panel_w;
            let x0 = area.x + spare / 2;
            let top_spare = area.height - 1 - field_h;
            let y0 = area.y + top_spare / 2;
            let left = Rect::new(x0, y0, LEFT_W, field_h);
            let field = Rect::new(x0 + LEFT_W, y0, field_w, field_h);
            let right = Rect::new(field.x + field_w, y0, right_w, field_h);
            let panel = with_panel.then(|| Rect::new(right.x + right_w, y0, panel_w, field_h));
            let status = Rect::new(area.x, area.y + area.height - 1, area.width, 1);
            return Some(Layout {
                cw,
                ch,
                left,
                field,
                right,
                panel,
                status,
            });
        }
        None
    }
}

/// Draws the whole screen.
pub fn draw(f: &mut Frame, game: &Game, vram: &Vram, hud: &Hud) {
    let area = f.area();
    render(area, f.buffer_mut(), game, vram, hud);
}

/// Draws the whole screen into a buffer (also used by the text snapshots).
pub fn render(area: Rect, buf: &mut Buffer, game: &Game, vram: &Vram, hud: &Hud) {
    let Some(l) = Layout::compute(area) else {
        let msg = format!(
            "terminal too small ({}x{}): nestris needs at least 38x23",
            area.width, area.height
        );
        Paragraph::new(msg)
            .wrap(Wrap { trim: true })
            .render(area, buf);
        return;
    };
    let colors = LevelColors::of(game.level);
    if let Some((kind, tick)) = hud.ending {
        let r = Rect::new(
            l.left.x,
            l.left.y,
            l.right.x + l.right.width - l.left.x,
            l.field.height,
        );
        // The B-type bonus is added on the game's first frame after the clear: show the score
        // counting up to it.
        let before = game.score_value();
        let mut after_game = *game;
        after_game.step(0);
        let after = after_game.score_value();
        let shown = before + (after.saturating_sub(before)) * (tick.min(120) as u64) / 120;
        endings::draw(kind, tick, shown, r, buf);
    } else {
        if vram.flash {
            // original game: the Tetris flash turns the dark grey of the screen's frame and
            // background pattern white; the playfield stays black.
            let r = Rect::new(
                l.left.x,
                l.left.y,
                l.right.x + l.right.width - l.left.x,
                l.field.height,
            );
            buf.set_style(
                r,
                Style::default().bg(palette::white()).fg(palette::black()),
            );
        }
        draw_left(l.left, buf, game, &colors);
        draw_field(&l, buf, game, vram, hud, &colors);
        draw_right(&l, buf, game, hud, &colors);
    }
    if let Some(p) = l.panel {
        let block = Block::default()
            .borders(Borders::ALL)
            .title(format!(" {} ", hud.panel_title));
        Paragraph::new(hud.panel.clone())
            .block(block)
            .render(p, buf);
    }
    Paragraph::new(hud.status.clone()).render(l.status, buf);
}

fn title(s: &str) -> Span<'static> {
    Span::styled(
        format!(" {s} "),
        Style::default().add_modifier(Modifier::BOLD),
    )
}

/// The statistics count as the game shows it: the hundreds byte as a tile id, then two
/// digits.
fn stat_text(s: u16) -> String {
    display::text(&display::stat_tiles(s))
}

/// A piece in its spawn orientation as one row of half blocks.
fn icon(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::T => "▀█▀",
        PieceKind::J => "▀▀█",
        PieceKind::Z => "▀█▄",
        PieceKind::O => "██",
        PieceKind::S => "▄█▀",
        PieceKind::L => "█▀▀",
        PieceKind::I => "▀▀▀▀",
    }
}

fn tile_fg(tile: Tile, c: &LevelColors) -> Color {
    match tile {
        Tile::Hollow | Tile::Empty => c.c1,
        _ => c.body(tile).unwrap_or(c.c1),
    }
}

fn draw_left(r: Rect, buf: &mut Buffer, game: &Game, colors: &LevelColors) {
    let type_text = match game.game_type {
        nestris_engine::GameType::A => "A-TYPE".to_string(),
        nestris_engine::GameType::B => format!("B-TYPE H{}", game.start_height),
    };
    let type_r = Rect::new(r.x, r.y, r.width, 3.min(r.height));
    Paragraph::new(Line::from(Span::styled(
        format!("{type_text:^w$}", w = (r.width - 2) as usize),
        Style::default().add_modifier(Modifier::BOLD),
    )))
    .block(Block::default().borders(Borders::ALL))
    .render(type_r, buf);
    let rest_h = r.height.saturating_sub(3);
    let spaced = rest_h >= 2 + 14;
    let stats_h = if spaced { 2 + 14 } else { (2 + 7).min(rest_h) };
    let stats_r = Rect::new(r.x, r.y + 3, r.width, stats_h);
    let mut lines = Vec::new();
    for kind in PieceKind::ALL {
        if spaced {
            lines.push(Line::default());
        }
        let fg = tile_fg(kind.tile(), colors);
        lines.push(Line::from(vec![
            Span::raw(" "),
            Span::styled(format!("{:<5}", icon(kind)), Style::default().fg(fg)),
            Span::styled(
                format!("{:>4}", stat_text(game.stats[kind as usize])),
                Style::default().fg(palette::nes(0x16)),
            ),
        ]));
    }
    if spaced {
        lines.remove(0);
    }
    Paragraph::new(lines)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(title("STATISTICS")),
        )
        .render(stats_r, buf);
}

fn put_tile(
    buf: &mut Buffer,
    x: u16,
    y: u16,
    tile: Tile,
    l: &Layout,
    colors: &LevelColors,
    clip: Rect,
) {
    let rows = colors.tile(tile, l.cw, l.ch);
    for (i, row) in rows.iter().enumerate() {
        let yy = y + i as u16;
        let mut xx = x;
        for (style, text) in row {
            if yy >= clip.y + clip.height || xx >= clip.x + clip.width {
                break;
            }
            buf.set_string(xx, yy, text, *style);
            xx += text.chars().count() as u16;
        }
    }
}

fn draw_field(
    l: &Layout,
    buf: &mut Buffer,
    game: &Game,
    vram: &Vram,
    hud: &Hud,
    colors: &LevelColors,
) {
    // original game: the hundreds byte is written as a tile id (1,000 lines shows A00).
    let lines_text = format!("LINES-{}", display::text(&display::lines_tiles(game.lines)));
    let block = Block::default()
        .borders(Borders::ALL)
        .title(title(&lines_text));
    let inner = block.inner(l.field);
    block.render(l.field, buf);
    let bg = Style::default().bg(palette::black());
    buf.set_style(inner, bg);
    let cell = |x: usize, y: usize| -> (u16, u16) {
        (inner.x + x as u16 * l.cw, inner.y + y as u16 * l.ch)
    };
    let mut overlay = hud.overlay.clone();
    if game.paused() {
        // original game: the playfield is hidden while paused.
        overlay.insert(0, "PAUSE".into());
    } else {
        for y in 0..20 {
            for x in 0..10 {
                let t = vram.cells[y][x];
                if t != Tile::Empty {
                    let (cx, cy) = cell(x, y);
                    put_tile(buf, cx, cy, t, l, colors, inner);
                }
            }
        }
        if let Some((o, gx, gy)) = hud.ghost {
            if let Some(o) = Orientation::from_id(o) {
                for &(dx, dy) in o.minos() {
                    let (x, y) = (gx as i32 + dx as i32, gy as i32 + dy as i32);
                    if (0..10).contains(&x) && (0..20).contains(&y) {
                        let (cx, cy) = cell(x as usize, y as usize);
                        let s = "░".repeat(l.cw as usize);
                        for i in 0..l.ch {
                            buf.set_string(
                                cx,
                                cy + i,
                                &s,
                                Style::default().fg(palette::nes(0x10)).bg(palette::black()),
                            );
                        }
                    }
                }
            }
        }
        if !game.ended() && !game.starting() {
            if let Some(o) = game.active_piece() {
                let tile = o.kind().tile();
                for &(dx, dy) in o.minos() {
                    let (x, y) = (game.x as i32 + dx as i32, game.y as i32 + dy as i32);
                    if (0..10).contains(&x) && (0..20).contains(&y) {
                        let (cx, cy) = cell(x as usize, y as usize);
                        put_tile(buf, cx, cy, tile, l, colors, inner);
                    }
                }
            }
        }
    }
    if !overlay.is_empty() {
        let n = overlay.len() as u16;
        let y0 = inner.y + inner.height.saturating_sub(n) / 2;
        for (i, text) in overlay.iter().enumerate() {
            let y = y0 + i as u16;
            if y >= inner.y + inner.height {
                break;
            }
            let w = inner.width as usize;
            let t: String = text.chars().take(w).collect();
            let x = inner.x + (w.saturating_sub(t.chars().count()) / 2) as u16;
            buf.set_string(
                x,
                y,
                &t,
                Style::default()
                    .fg(palette::white())
                    .bg(palette::black())
                    .add_modifier(Modifier::BOLD),
            );
        }
    }
}

fn draw_right(l: &Layout, buf: &mut Buffer, game: &Game, hud: &Hud, colors: &LevelColors) {
    let r = l.right;
    let w = (r.width - 2) as usize;
    let score_r = Rect::new(r.x, r.y, r.width, 6.min(r.height));
    let top = display::top_score_after(
        display::default_top_score(game.game_type),
        bcd::to_bcd(hud.top_score.min(999_999)),
    );
    Paragraph::new(vec![
        Line::from("TOP"),
        Line::from(display::text(&display::score_tiles(top))),
        Line::from("SCORE"),
        Line::from(display::text(&display::score_tiles(game.score))),
    ])
    .block(Block::default().borders(Borders::ALL))
    .render(score_r, buf);
    let next_h = 2 * l.ch + 4;
    let next_r = Rect::new(
        r.x,
        r.y + 6,
        r.width,
        next_h.min(r.height.saturating_sub(6)),
    );
    let block = Block::default().borders(Borders::ALL).title(title("NEXT"));
    let inner = block.inner(next_r);
    block.render(next_r, buf);
    if game.next_visible() && !game.paused() && !game.starting() {
        if let Some(o) = game.next_piece() {
            let o = o.spawn();
            let minos = o.minos();
            let minx = minos.iter().map(|m| m.0).min().unwrap_or(0);
            let maxx = minos.iter().map(|m| m.0).max().unwrap_or(0);
            let miny = minos.iter().map(|m| m.1).min().unwrap_or(0);
            let pw = (maxx - minx + 1) as u16 * l.cw;
            let x0 = inner.x + inner.width.saturating_sub(pw) / 2;
            let y0 = inner.y + 1;
            let tile = o.kind().tile();
            for &(dx, dy) in minos {
                let x = x0 + (dx - minx) as u16 * l.cw;
                let y = y0 + (dy - miny) as u16 * l.ch;
                put_tile(buf, x, y, tile, l, colors, inner);
            }
        }
    }
    let level_y = next_r.y + next_r.height;
    if level_y + 3 <= r.y + r.height {
        // original game: the two tiles of levelDisplayTable[level], read past the table's end
        // from level 30 on (level 31 shows 0A).
        let shown = display::text(&display::level_tiles(game.level));
        Paragraph::new(Line::from(format!("{shown:^w$}")))
            .block(Block::default().borders(Borders::ALL).title(title("LEVEL")))
            .render(Rect::new(r.x, level_y, r.width, 3), buf);
    }
    // Colour swatch of the level (colours 1, 2 and 3), as the game shows them (black ones
    // black).
    let sw_y = level_y + 3;
    if sw_y < r.y + r.height {
        buf.set_string(r.x + 1, sw_y, "██", Style::default().fg(colors.c1));
        buf.set_string(r.x + 4, sw_y, "██", Style::default().fg(colors.c2));
        buf.set_string(r.x + 7, sw_y, "██", Style::default().fg(colors.c3));
    }
    if game.game_over() && !game.ended() && game.curtain_row >= 20 && sw_y + 2 < r.y + r.height {
        buf.set_string(
            r.x,
            sw_y + 2,
            format!("{:^w$}", "GAME OVER", w = r.width as usize),
            Style::default().add_modifier(Modifier::BOLD),
        );
    }
}
