//! The endings, in text art: after an A-type game of 30,000 points or more a launch (rockets
//! of growing size, the Buran, the cathedral lifting off), after a B-type clear the scene for
//! its level and height with the bonus. Each is an animation of a few seconds, drawn from a
//! tick counter, and can be skipped.

use nestris_engine::{Ending, Game, GameType};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use super::palette;

/// Length of an ending's animation in ticks (60 per second).
pub const TICKS: u32 = 420;

/// Which ending a game earned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndingKind {
    /// A-type, 30,000 points or more: a rocket, size 1 (30k), 2 (50k) or 3 (70k).
    Rocket(u8),
    /// A-type, 100,000 points or more: the Buran on its carrier.
    Buran,
    /// A-type, 120,000 points or more: the cathedral lifts off.
    Cathedral,
    /// B-type cleared: the level's last digit, the height and the bonus in points.
    BType {
        /// `level mod 10`.
        level_digit: u8,
        /// Garbage height 0..=5.
        height: u8,
        /// 1000 x level digit + 1000 x height.
        bonus: u32,
    },
}

impl EndingKind {
    /// The ending `game` earned, if any (A-type below 30,000 points and B-type top-outs have
    /// none; the game waits for Start instead).
    pub fn of(game: &Game) -> Option<EndingKind> {
        match game.ending {
            Ending::BTypeCleared => Some(EndingKind::BType {
                level_digit: game.level % 10,
                height: game.start_height,
                bonus: game.btype_bonus(),
            }),
            Ending::ToppedOut if game.game_type == GameType::A => {
                // original game: the ending is chosen from the (capped) score.
                let s = game.score_value();
                match s {
                    120_000.. => Some(EndingKind::Cathedral),
                    100_000.. => Some(EndingKind::Buran),
                    70_000.. => Some(EndingKind::Rocket(3)),
                    50_000.. => Some(EndingKind::Rocket(2)),
                    30_000.. => Some(EndingKind::Rocket(1)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A title for the scene.
    pub fn title(&self) -> String {
        match self {
            EndingKind::Rocket(1) => "A-TYPE ENDING: SMALL ROCKET (30,000+)".into(),
            EndingKind::Rocket(2) => "A-TYPE ENDING: ROCKET (50,000+)".into(),
            EndingKind::Rocket(_) => "A-TYPE ENDING: BIG ROCKET (70,000+)".into(),
            EndingKind::Buran => "A-TYPE ENDING: BURAN (100,000+)".into(),
            EndingKind::Cathedral => "A-TYPE ENDING: CATHEDRAL (120,000+)".into(),
            EndingKind::BType {
                level_digit,
                height,
                ..
            } => format!("B-TYPE ENDING: LEVEL {level_digit} HEIGHT {height}"),
        }
    }
}

const SMALL_ROCKET: &[&str] = &[
    "  /\\  ", //
    " |  | ", " |CC| ", " |CP| ", "/|__|\\",
];

const ROCKET: &[&str] = &[
    "   /\\   ",
    "  /  \\  ",
    "  |  |  ",
    "  |CC|  ",
    "  |CP|  ",
    "  |  |  ",
    " /|  |\\ ",
    "/_|__|_\\",
];

const BIG_ROCKET: &[&str] = &[
    "     /\\     ",
    "    /  \\    ",
    "    |  |    ",
    "    |CC|    ",
    "    |CP|    ",
    "   /|  |\\   ",
    "  | |  | |  ",
    "  | |  | |  ",
    "  | |  | |  ",
    " /| |  | |\\ ",
    "/_|_|__|_|_\\",
];

const BURAN: &[&str] = &[
    "     /\\         ",
    "    |  |    _   ",
    "    |  |   / \\  ",
    "    |  |  |BU |  ",
    "   /|  |  |RAN|  ",
    "  | |  |  |   |  ",
    "  | |  | /|   |\\ ",
    "  | |  |/_|___|_\\",
    "  | |  |  | | |  ",
    " /|_|__|__|_|_|\\ ",
];

const CATHEDRAL: &[&str] = &[
    "         +          ",
    "    +   (_)    +    ",
    "   (_)  /^\\   (_)   ",
    "   |=| (@@@)  |=|   ",
    " + |^|  |=|   |^| + ",
    "(_)| |  | |   | |(_)",
    "|=||_|__|_|___|_||=|",
    "| | _   _   _   _ | |",
    "|_|| | | | | | | ||_|",
    "/__________________\\",
];

const PAD: &[&str] = &["___|_|_______|_|___"];

/// A character grid the scenes are drawn on.
struct Canvas {
    w: usize,
    h: usize,
    cells: Vec<(char, Style)>,
}

impl Canvas {
    fn new(w: usize, h: usize) -> Canvas {
        Canvas {
            w,
            h,
            cells: vec![(' ', Style::default()); w * h],
        }
    }

    /// Draws `text` with its top-left corner at (x, y); spaces are transparent.
    fn put(&mut self, x: i32, y: i32, text: &str, style: Style) {
        if y < 0 || y >= self.h as i32 {
            return;
        }
        for (i, c) in text.chars().enumerate() {
            let cx = x + i as i32;
            if c == ' ' || cx < 0 || cx >= self.w as i32 {
                continue;
            }
            self.cells[y as usize * self.w + cx as usize] = (c, style);
        }
    }

    /// Draws text art; inside each row (between its first and last visible character) the
    /// spaces are opaque.
    fn art(&mut self, x: i32, y: i32, art: &[&str], style: Style) {
        for (i, row) in art.iter().enumerate() {
            let yy = y + i as i32;
            let chars: Vec<char> = row.chars().collect();
            let first = chars.iter().position(|c| *c != ' ');
            let last = chars.iter().rposition(|c| *c != ' ');
            if let (Some(a), Some(b)) = (first, last) {
                if yy >= 0 && yy < self.h as i32 {
                    for cx in a..=b {
                        let xx = x + cx as i32;
                        if xx >= 0 && xx < self.w as i32 {
                            self.cells[yy as usize * self.w + xx as usize] =
                                (' ', Style::default());
                        }
                    }
                }
            }
            self.put(x, yy, row, style);
        }
    }

    fn lines(&self) -> Vec<Line<'static>> {
        (0..self.h)
            .map(|y| {
                let spans: Vec<Span<'static>> = (0..self.w)
                    .map(|x| {
                        let (c, s) = self.cells[y * self.w + x];
                        Span::styled(c.to_string(), s)
                    })
                    .collect();
                Line::from(spans)
            })
            .collect()
    }
}

/// Draws the ending `kind` at animation tick `tick` into `area` (with the final score).
pub fn draw(kind: EndingKind, tick: u32, score: u64, area: Rect, buf: &mut Buffer) {
    let block = Block::default().borders(Borders::ALL).title(Span::styled(
        format!(" {} ", kind.title()),
        Style::default().add_modifier(Modifier::BOLD),
    ));
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width < 8 || inner.height < 6 {
        return;
    }
    let w = inner.width as usize;
    let h = inner.height as usize;
    let mut c = Canvas::new(w, h);
    let caption_rows = if matches!(kind, EndingKind::BType { .. }) {
        4
    } else {
        2
    };
    let ground = (h as i32 - 1 - caption_rows).max(1);
    let sky = Style::default().fg(palette::nes(0x10));
    // Stars.
    for i in 0..(w * h / 40) {
        let x = (i * 37 + i * i * 7 + 11) % w;
        let y = (i * 13 + i / 3 + 3) % (ground.max(1) as usize);
        let twinkle = (tick / 20 + i as u32).is_multiple_of(3);
        c.put(x as i32, y as i32, if twinkle { "+" } else { "." }, sky);
    }
    let ground_style = Style::default().fg(palette::nes(0x1A));
    c.put(0, ground, &"_".repeat(w), ground_style);
    let white = Style::default().fg(palette::white());
    let red = Style::default().fg(palette::nes(0x16));
    let yellow = Style::default().fg(palette::nes(0x28));
    let grey = Style::default().fg(palette::nes(0x00));
    let mut caption: Vec<String> = Vec::new();
    match kind {
        EndingKind::BType {
            level_digit,
            height,
            bonus,
        } => {
            // A stage in front of the Kremlin wall; one dancer per height step, more lively
            // with a higher level.
            let wall = "|_|¯|_|¯|_|¯|_|¯|_|¯|_|¯|_|¯|_|¯|_|¯|_|¯|_|¯|_|¯|_|¯|_|¯|_|¯|_|¯|";
            c.put(
                0,
                ground - 5,
                &wall.chars().take(w).collect::<String>(),
                red,
            );
            let dome_x = w as i32 / 2 - 3;
            c.art(
                dome_x,
                ground - 10,
                &[" (@) ", " |=| ", "/| |\\", "|| ||"],
                yellow,
            );
            let dancers = height as usize + 1;
            let speed = 16 - level_digit as u32;
            let spacing = (w / (dancers + 1)).max(4);
            for d in 0..dancers {
                let up = (tick / speed + d as u32).is_multiple_of(2);
                let x = (spacing * (d + 1)) as i32 - 1;
                let pose: &[&str] = if up {
                    &["\\o/", " | ", "/ \\"]
                } else {
                    &[" o ", "/|\\", "/ \\"]
                };
                let hop = if up && level_digit >= 5 { 1 } else { 0 };
                c.art(x, ground - 3 - hop, pose, white);
            }
            if level_digit == 9 && height == 5 && tick > 120 {
                // The full troupe: the Buran flies over.
                let x = w as i32 - ((tick - 120) as i32 / 2);
                c.art(x, 1, &["  __/\\__", "=[BURAN]>"], white);
            }
            caption.push(format!(
                "LEVEL {level_digit} x 1000 = {:>6}",
                1000 * level_digit as u32
            ));
            caption.push(format!(
                "HEIGHT {height} x 1000 = {:>6}",
                1000 * height as u32
            ));
            caption.push(format!("BONUS          = {bonus:>6}"));
        }
        _ => {
            let art = match kind {
                EndingKind::Rocket(1) => SMALL_ROCKET,
                EndingKind::Rocket(2) => ROCKET,
                EndingKind::Rocket(_) => BIG_ROCKET,
                EndingKind::Buran => BURAN,
                _ => CATHEDRAL,
            };
            let aw = art.iter().map(|r| r.chars().count()).max().unwrap_or(0) as i32;
            let ah = art.len() as i32;
            let x = (w as i32 - aw) / 2;
            // On the pad for 1.5 s, then ignition, then lift-off with growing speed.
            let t = tick as i32;
            let lift = if t < 120 {
                0
            } else {
                (t - 120) * (t - 120) / 600
            };
            let y = ground - ah - lift;
            // Launch tower.
            let tower_x = x - 3;
            for ty in (ground - ah)..ground {
                c.put(tower_x, ty, "|#", grey);
            }
            c.put(
                x - 1,
                ground,
                &PAD[0].chars().take(aw as usize + 2).collect::<String>(),
                grey,
            );
            let body = if matches!(kind, EndingKind::Cathedral) {
                yellow
            } else {
                white
            };
            c.art(x, y, art, body);
            if t >= 90 {
                let flame = if (t / 4) % 2 == 0 { "VvV" } else { "vVv" };
                let fx = x + aw / 2 - 1;
                c.put(fx, y + ah, flame, yellow);
                c.put(
                    fx,
                    y + ah + 1,
                    if (t / 4) % 2 == 0 { " ' " } else { "' '" },
                    red,
                );
                let smoke = (t - 90).min(60) / 6;
                let puff: String = "o0O".chars().cycle().take(smoke as usize).collect();
                c.put(fx - smoke, ground - 1, &puff, grey);
                c.put(fx + 3, ground - 1, &puff, grey);
            }
            if lift > ground + ah {
                caption.push("... and it is gone.".into());
            }
        }
    }
    caption.push(format!("SCORE {score}"));
    let mut lines = c.lines();
    let n = caption.len().min(h);
    for (i, text) in caption.iter().take(n).enumerate() {
        let row = h - n + i;
        lines[row] = Line::from(Span::styled(
            format!("{text:^w$}"),
            Style::default()
                .fg(Color::Reset)
                .add_modifier(Modifier::BOLD),
        ));
    }
    if tick >= TICKS {
        lines[0] = Line::from(Span::styled(
            format!("{:^w$}", "press any key"),
            Style::default().add_modifier(Modifier::BOLD),
        ));
    }
    Paragraph::new(lines).render(inner, buf);
}
