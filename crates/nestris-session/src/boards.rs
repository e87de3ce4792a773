//! Self-play boards: every board a player of a NES game faced at a spawn, one line each, with
//! the game's counts and pieces, and a last line saying how the game ended. A dataset of the
//! AI's own games, to fit evaluations to what followed each board (`bench --record-boards`).
//!
//! The format (CSV, one header line, then each game's lines together, in the order the games
//! finish):
//!
//! ```text
//! game,piece,level,lines,score,current,next,board
//! 0,1,18,0,0,T,J,000000000000000000000000000000000000000000000000000000000000
//! 0,2,18,0,0,J,Z,000000000000000000000000000000000000000000000000000000000007
//! ...
//! 0,end,29,233,1234560,topped_out,,
//! ```
//!
//! - `piece` counts the boards recorded in the game (1 for its first piece, or for the saved
//!   position's piece when a game is continued from one); `level`, `lines` and `score`
//!   (uncapped) are the game's at that spawn;
//! - `current` and `next` are piece letters (`TJZOSLI`);
//! - `board` is the playfield without the falling piece: 20 rows from the top, each as 3 hex
//!   digits, bit `x` for column `x` (0 = leftmost): `0x3ff` is a full row;
//! - the `end` line gives the counts when the game stopped, and why: `topped_out`, `cleared`
//!   (a B-type game's 25 lines) or `stopped` (a limit: the line cap, a piece limit). In
//!   B-type games `lines` is the game's count of lines left.

use std::fmt::Write as _;
use std::time::Duration;

use nestris_engine::piece::Orientation;
use nestris_engine::PlayState;

use crate::bench::GameResult;
use crate::nes::Nes;
use crate::player::{DecisionView, Player};

/// The header line of a boards file.
pub const HEADER: &str = "game,piece,level,lines,score,current,next,board";

/// A player that records each board its inner player faces at a spawn.
#[derive(Debug)]
pub struct BoardRecorder<'a, P> {
    player: &'a mut P,
    index: u64,
    /// The game's spawn counter (`spawn_count`, $1A) at the last board recorded.
    last: Option<u8>,
    recorded: u32,
    out: String,
}

impl<'a, P: Player<Nes>> BoardRecorder<'a, P> {
    /// Records the boards `player` faces in game number `index`.
    pub fn new(player: &'a mut P, index: u64) -> Self {
        BoardRecorder {
            player,
            index,
            last: None,
            recorded: 0,
            out: String::new(),
        }
    }

    /// The game's lines, its `end` line after them (from its result).
    pub fn finish(mut self, result: &GameResult) -> String {
        let _ = writeln!(
            self.out,
            "{},end,{},{},{},{},,",
            self.index,
            result.level,
            result.lines,
            result.score,
            if result.topped_out {
                "topped_out"
            } else if result.cleared {
                "cleared"
            } else {
                "stopped"
            }
        );
        self.out
    }

    fn record(&mut self, game: &Nes, count: u32) {
        let g = &game.game;
        let letter = |id: u8| Orientation::from_id(id).map_or('?', |o| o.kind().letter());
        let _ = write!(
            self.out,
            "{},{},{},{},{},{},{},",
            self.index,
            count,
            g.level,
            g.lines_value(),
            g.score_uncapped,
            letter(g.piece),
            letter(g.next)
        );
        for y in 0..20 {
            let mut row = 0u16;
            for x in 0..10 {
                if g.playfield.occupied_at(x, y) {
                    row |= 1 << x;
                }
            }
            let _ = write!(self.out, "{row:03x}");
        }
        self.out.push('\n');
    }
}

impl<P: Player<Nes>> Player<Nes> for BoardRecorder<'_, P> {
    fn input(&mut self, game: &Nes) -> u8 {
        // A piece under control that the spawn counter has not seen: a new spawn (a game
        // continued from a saved spawn is recorded from that spawn on).
        let g = &game.game;
        if !g.starting()
            && g.play_state == PlayState::PlayerControlsActiveTetrimino
            && self.last != Some(g.spawn_count)
        {
            self.last = Some(g.spawn_count);
            self.recorded += 1;
            self.record(game, self.recorded);
        }
        self.player.input(game)
    }

    fn decisions(&self) -> u64 {
        self.player.decisions()
    }

    fn last_elapsed(&self) -> Option<Duration> {
        self.player.last_elapsed()
    }

    fn last_decision(&self) -> Option<DecisionView> {
        self.player.last_decision()
    }

    fn after(&mut self, tick: &crate::Tick) {
        self.player.after(tick)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{play, Limits};
    use crate::nes::{start_config, NesAi};
    use nestris_engine::{Game, GameType};
    use std::sync::atomic::AtomicBool;

    /// Cells of a recorded board.
    fn cells(board: &str) -> u32 {
        (0..20)
            .map(|r| {
                u16::from_str_radix(&board[3 * r..3 * r + 3], 16)
                    .unwrap()
                    .count_ones()
            })
            .sum()
    }

    #[test]
    fn every_spawn_is_recorded_once_and_each_board_follows_from_the_last() {
        let game = Nes::new(Game::start(start_config(5, 0, 18, GameType::A, 0)), None);
        let mut ai = NesAi(nestris_ai::Ai::new(nestris_ai::AiConfig::default()));
        let mut rec = BoardRecorder::new(&mut ai, 7);
        let limits = Limits {
            lines: 12,
            ..Limits::default()
        };
        let r = play(game, &mut rec, 7, &limits, &AtomicBool::new(false)).unwrap();
        let text = rec.finish(&r);
        let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
        let (end, boards) = lines.split_last().unwrap();
        assert_eq!(boards.len() as u32, r.pieces, "one board a spawn");
        assert_eq!(
            *end,
            [
                "7",
                "end",
                "18",
                &r.lines.to_string(),
                &r.score.to_string(),
                "stopped",
                "",
                ""
            ]
        );
        assert!(r.lines >= 12);
        for (i, b) in boards.iter().enumerate() {
            assert_eq!(b.len(), HEADER.split(',').count());
            assert_eq!(b[0], "7");
            assert_eq!(b[1], (i + 1).to_string());
            assert_eq!(b[7].len(), 60);
            assert!("TJZOSLI".contains(b[5]) && "TJZOSLI".contains(b[6]));
        }
        assert_eq!(cells(boards[0][7]), 0, "the first board is empty");
        // A lock adds the piece's 4 cells and each line it clears takes 10 away; the next
        // piece becomes the current one.
        for w in boards.windows(2) {
            let cleared: u32 = w[1][3].parse::<u32>().unwrap() - w[0][3].parse::<u32>().unwrap();
            assert_eq!(cells(w[1][7]), cells(w[0][7]) + 4 - 10 * cleared);
            assert_eq!(w[1][5], w[0][6]);
        }
    }
}
