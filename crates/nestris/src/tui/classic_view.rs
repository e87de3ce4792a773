//! The screen of the classic rule sets (relaytris, qbasic): the board as each drew it
//! (relaytris with `~` and `#` as its serial console did), the counters, the next piece and
//! the side panel of `watch` and `play`.

use nestris_classic::{Cell, ClassicGame, Piece};
use nestris_session::classic::Classic;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::view::Hud;

fn board_lines(game: &Classic) -> Vec<Line<'static>> {
    let falling: Vec<Cell> = game.current_cells().map(|c| c.to_vec()).unwrap_or_default();
    let mut out = Vec::new();
    for y in 0..game.height() as i32 {
        let mut spans = Vec::new();
        for x in 0..game.width() as i32 {
            let is_falling = falling.contains(&(x, y));
            let filled = is_falling || game.is_filled(x, y);
            let span = match game {
                // The serial console's characters, one per cell.
                Classic::Relaytris(_) => {
                    Span::raw(if filled { "#" } else { "~" }).style(if is_falling {
                        Style::default().add_modifier(Modifier::BOLD)
                    } else {
                        Style::default()
                    })
                }
                Classic::Qbasic(_) => {
                    if filled {
                        Span::styled(
                            "██",
                            Style::default().fg(if is_falling {
                                Color::Yellow
                            } else {
                                Color::Cyan
                            }),
                        )
                    } else {
                        Span::styled(" .", Style::default().fg(Color::DarkGray))
                    }
                }
            };
            spans.push(span);
        }
        out.push(Line::from(spans));
    }
    out
}

/// The next piece, drawn in its spawn rotation.
fn piece_lines(game: &Classic, piece: Piece) -> Vec<Line<'static>> {
    let Some(cells) = game.piece_cells(piece, 0, 0, 0) else {
        return Vec::new();
    };
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let max_x = cells.iter().map(|c| c.0).max().unwrap_or(0);
    let max_y = cells.iter().map(|c| c.1).max().unwrap_or(0);
    let (on, off) = match game {
        Classic::Relaytris(_) => ("#", "~"),
        Classic::Qbasic(_) => ("██", "  "),
    };
    (min_y..=max_y)
        .map(|y| {
            let s: String = (min_x..=max_x)
                .map(|x| if cells.contains(&(x, y)) { on } else { off })
                .collect();
            Line::from(format!("  {s}"))
        })
        .collect()
}

/// The board on the left, the counters, next piece and the HUD's panel on the right, the
/// HUD's status line at the bottom.
pub fn draw(f: &mut ratatui::Frame, game: &Classic, hud: &Hud) {
    let board = board_lines(game);
    let cell_w: u16 = match game {
        Classic::Relaytris(_) => 1,
        Classic::Qbasic(_) => 2,
    };
    let board_w = game.width() as u16 * cell_w + 2;
    let board_h = game.height() as u16 + 2;
    let mut counters = vec![
        Line::from(format!("score  {}", game.score())),
        Line::from(format!("lines  {}", game.lines_cleared())),
        Line::from(format!("pieces {}", game.pieces_locked())),
        Line::from(""),
        Line::from(format!("next    {}", game.next_piece())),
    ];
    counters.extend(piece_lines(game, game.next_piece()));
    let mut side: Vec<Line<'static>> = Vec::new();
    side.extend(hud.overlay.iter().map(|s| Line::from(s.clone())));
    if !hud.overlay.is_empty() {
        side.push(Line::from(""));
    }
    side.extend(hud.panel.iter().cloned());
    let [area, status] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(f.area());
    f.render_widget(Paragraph::new(hud.status.clone()), status);
    const COUNTERS_W: u16 = 16;
    if area.width < board_w + COUNTERS_W + 20 || area.height < board_h {
        f.render_widget(
            Paragraph::new(format!(
                "terminal too small: need {}x{}",
                board_w + COUNTERS_W + 20,
                board_h + 1
            )),
            area,
        );
        return;
    }
    // The board, the counters and next piece beside it, the panel on the right.
    let [left, middle, right] = Layout::horizontal([
        Constraint::Length(board_w),
        Constraint::Length(COUNTERS_W),
        Constraint::Min(20),
    ])
    .areas(area);
    let [left, _] = Layout::vertical([Constraint::Length(board_h), Constraint::Min(0)]).areas(left);
    let [middle, _] = Layout::vertical([
        Constraint::Length(counters.len() as u16 + 2),
        Constraint::Min(0),
    ])
    .areas(middle);
    f.render_widget(
        Paragraph::new(board).block(Block::default().borders(Borders::ALL).title(game.name())),
        left,
    );
    f.render_widget(
        Paragraph::new(counters).block(Block::default().borders(Borders::ALL)),
        middle,
    );
    f.render_widget(
        Paragraph::new(side).block(
            Block::default()
                .borders(Borders::ALL)
                .title(hud.panel_title.clone()),
        ),
        right,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_classic::randomizer::Cycle;
    use nestris_classic::AnyRandomizer;
    use nestris_session::Rules;

    fn screen(game: &Classic) -> String {
        let backend = ratatui::backend::TestBackend::new(80, 24);
        let mut term = ratatui::Terminal::new(backend).unwrap_or_else(|e| panic!("{e}"));
        let hud = Hud {
            panel_title: "watch".into(),
            panel: vec![Line::from("randomizer: cycle")],
            ..Hud::default()
        };
        term.draw(|f| draw(f, game, &hud))
            .unwrap_or_else(|e| panic!("{e}"));
        let buf = term.backend().buffer().clone();
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
                    + "\n"
            })
            .collect()
    }

    #[test]
    fn screens_show_the_boards() {
        let relay = Classic::new(Rules::Relaytris, AnyRandomizer::Cycle(Cycle::new()))
            .expect("a classic rule set");
        let text = screen(&relay);
        // The I spawns flat in the second row: `~~~####~~~`.
        assert!(text.contains("│~~~~~~~~~~│"), "{text}");
        assert!(text.contains("│~~~####~~~│"), "{text}");
        assert!(text.contains("next    O"), "{text}");
        assert!(text.contains("randomizer: cycle"), "{text}");
        let q = Classic::new(
            Rules::Qbasic,
            AnyRandomizer::Uniform(nestris_classic::randomizer::Uniform::new(0)),
        )
        .expect("a classic rule set");
        let text = screen(&q);
        assert!(text.contains("██"), "{text}");
        assert!(text.contains("qbasic"), "{text}");
        assert_eq!(text.matches(" . . . . . . . . . .").count(), 16, "{text}");
    }
}
