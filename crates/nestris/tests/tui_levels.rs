//! The screen at the levels and counts past the game's limits, as text snapshots with the
//! colours of every cell: levels 29, 31, 138, 146, 191 and 255 (colours from the game's table,
//! the level number as the tiles it writes), 1,000 and 2,000 lines (the hundreds byte shown as
//! a tile id), the top-score box and the Tetris flash.
//!
//! The screen is drawn in-process by the terminal UI's own drawing code (the same source files
//! as the binary). `UPDATE_SNAPSHOTS=1 cargo test -p nestris --test tui_levels` rewrites the
//! snapshots.

#![allow(dead_code)]

#[path = "../src/tui/endings.rs"]
mod endings;
#[path = "../src/tui/palette.rs"]
mod palette;
mod tui_support;
#[path = "../src/tui/view.rs"]
mod view;

use nestris_engine::bcd::lines_encode;
use nestris_engine::{colors, display, Game, GameType, StartConfig};
use palette::LevelColors;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use tui_support::{assert_snapshot, scripted_game};
use view::{Hud, Vram};

/// Every test draws with 24-bit colours, so distinct palette indices stay distinct.
fn truecolor() {
    std::env::set_var("COLORTERM", "truecolor");
    assert!(
        palette::truecolor(),
        "24-bit colour must be on for these snapshots"
    );
}

/// A game at `level` with about a dozen pieces locked (all seven kinds in view).
fn game_at(level: u8, seed: u64) -> (Game, Vram) {
    let start = StartConfig::from_seed(seed, level, GameType::A, 0);
    let inputs = scripted_game(start, |g| g.stats.iter().sum::<u16>() >= 14, 40_000);
    let mut g = Game::start(start);
    let mut vram = Vram::new();
    for &b in &inputs {
        vram.before_step(&g);
        g.step(b);
    }
    (g, vram)
}

/// One symbol per terminal colour: `.` the terminal default, `k` black (the backdrop and any
/// black piece colour), `w` white (colour 1 up to level 137), `1`-`3` the level's colours
/// 1-3, `?` anything else.
fn symbol(c: Color, lc: &LevelColors) -> char {
    if c == Color::Reset {
        '.'
    } else if c == palette::black() {
        'k'
    } else if c == palette::white() {
        'w'
    } else if c == lc.c1 {
        '1'
    } else if c == lc.c2 {
        '2'
    } else if c == lc.c3 {
        '3'
    } else {
        '?'
    }
}

/// The screen as text, then its foreground and background colours as symbols (see
/// [`symbol`]), with a header naming the level's palette.
fn snapshot_text(g: &Game, vram: &Vram, hud: &Hud, w: u16, h: u16) -> String {
    let area = Rect::new(0, 0, w, h);
    let mut buf = Buffer::empty(area);
    view::render(area, &mut buf, g, vram, hud);
    let lc = LevelColors::of(g.level);
    let hex = |b: &[u8]| -> String {
        b.iter()
            .map(|x| format!("{x:02X}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = format!(
        "level {}: palette bytes {}, shown {} (1 2 3); level tiles {}; flash {}\n",
        g.level,
        hex(&colors::palette_bytes(g.level)),
        hex(&colors::level_colors(g.level)),
        hex(&display::level_tiles(g.level)),
        if vram.flash { "on" } else { "off" }
    );
    let grid = |f: &dyn Fn(&ratatui::buffer::Cell) -> String| -> String {
        let mut s = String::new();
        for y in 0..h {
            let line: String = (0..w).map(|x| f(&buf[(x, y)])).collect();
            s.push_str(line.trim_end());
            s.push('\n');
        }
        s
    };
    out.push_str("--- text ---\n");
    out.push_str(&grid(&|c| c.symbol().to_string()));
    out.push_str("--- foreground ---\n");
    out.push_str(&grid(&|c| symbol(c.fg, &lc).to_string()));
    out.push_str("--- background ---\n");
    out.push_str(&grid(&|c| symbol(c.bg, &lc).to_string()));
    out
}

fn hud() -> Hud {
    Hud {
        panel_title: "TEST".into(),
        ..Hud::default()
    }
}

#[test]
fn levels_past_the_tables() {
    truecolor();
    for (level, shows) in [
        (29u8, "29"),
        (31, "0A"),
        (138, "C9"),
        (146, "E9"),
        (191, "14"),
        (255, "A8"),
    ] {
        let (g, vram) = game_at(level, 7 + level as u64);
        assert_eq!(g.level, level, "the scripted game left level {level}");
        let text = snapshot_text(&g, &vram, &hud(), 80, 24);
        let level_box = text
            .lines()
            .skip_while(|l| !l.contains("LEVEL"))
            .nth(1)
            .unwrap_or_default()
            .to_string();
        assert!(
            level_box.contains(shows),
            "level {level} must show {shows}: {level_box}"
        );
        assert_snapshot(&format!("level_{level}_80x24"), &text);
    }
}

#[test]
fn black_on_black_and_flat_colours() {
    truecolor();
    // Level 146: colour 1 is black, so the centres of T, O and I are black on the black
    // backdrop; level 191: one flat colour for everything.
    let lc = LevelColors::of(146);
    assert_eq!(lc.c1, palette::black());
    let lc = LevelColors::of(191);
    assert!(lc.c1 == lc.c2 && lc.c2 == lc.c3);
}

#[test]
fn lines_past_999() {
    truecolor();
    for (lines, shows) in [(1000u32, "A00"), (2000, "K00")] {
        let (mut g, vram) = game_at(18, 3);
        g.lines = lines_encode(lines);
        // Statistics past 999 the same way: 1,000 T pieces and 1,600 I pieces.
        g.stats[0] = 0x0A00;
        g.stats[6] = 0x1000;
        let text = snapshot_text(&g, &vram, &hud(), 80, 24);
        assert!(
            text.contains(&format!("LINES-{shows}")),
            "{lines} lines must show {shows}:\n{text}"
        );
        assert!(text.contains("A00") && text.contains("G00"), "{text}");
        assert_snapshot(&format!("lines_{lines}_80x24"), &text);
    }
}

#[test]
fn top_score_box_is_the_table_entry_at_the_start() {
    truecolor();
    let (mut g, vram) = game_at(18, 3);
    // The score passes the top entry while the game runs: the box does not change.
    g.score = 0x02_34_56;
    let text = snapshot_text(&g, &vram, &hud(), 80, 24);
    assert!(text.contains("010000") && text.contains("023456"), "{text}");
    // An earlier game's score above the entry is the new entry.
    let mut h = hud();
    h.top_score = 123_456;
    let text = snapshot_text(&g, &vram, &h, 80, 24);
    assert!(text.contains("123456"), "{text}");
    // B-type starts from 002000.
    let start = StartConfig::from_seed(1, 5, GameType::B, 0);
    let mut g = Game::start(start);
    g.step(0);
    let text = snapshot_text(&g, &Vram::new(), &hud(), 80, 24);
    assert!(text.contains("002000"), "{text}");
}

#[test]
fn tetris_flash() {
    truecolor();
    let (mut g, _) = game_at(18, 3);
    let mut vram = Vram::new();
    // completedLines = 4: the flash is on when the frame counter is a multiple of 4.
    g.completed_lines = 4;
    let mut seen = Vec::new();
    for fc in 0x100u16..0x108 {
        g.frame_counter = fc;
        vram.before_step(&g);
        seen.push(vram.flash);
    }
    assert_eq!(seen, [true, false, false, false, true, false, false, false]);
    g.frame_counter = 0x100;
    vram.before_step(&g);
    let text = snapshot_text(&g, &vram, &hud(), 80, 24);
    assert_snapshot("tetris_flash_80x24", &text);
    g.completed_lines = 3;
    vram.before_step(&g);
    assert!(!vram.flash, "only a Tetris flashes");
}
