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
//!
//! [`census`] reads such a file back, checking every line, and counts where the lines went:
//! Tetrises, and burns (singles, doubles and triples) by what the board looked like when
//! the piece that made them spawned (`nestris census FILE`).

use std::fmt::Write as _;
use std::io::{BufRead, Read};
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

/// The longest line a boards file may hold (a recorded line is under 100 bytes).
const MAX_LINE: usize = 1024;

/// What is wrong with a boards file.
#[derive(Debug, thiserror::Error)]
pub enum BoardsError {
    /// The file could not be read.
    #[error("{file}: {source}")]
    Io {
        /// The file, as named to the reader.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// A line is not what a boards file holds there.
    #[error("{file} line {line}: {what}")]
    Line {
        /// The file, as named to the reader.
        file: String,
        /// The line number, from 1.
        line: u64,
        /// What is wrong.
        what: String,
    },
    /// The file ends inside a game (a run still writing, or a file cut short).
    #[error("{file}: game {game} has no end line: the file is cut short")]
    Truncated {
        /// The file, as named to the reader.
        file: String,
        /// The unfinished game.
        game: u64,
    },
}

/// Why a burn was made, from the board the piece that made it spawned on, around the census's
/// well column for the board's level band ([`Census::well`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BurnCause {
    /// A hole under a filled cell in one of the nine columns beside the well: digging.
    StackHoles,
    /// Holes only in the well column: a piece was laid across the well.
    WellCovered,
    /// No hole, but a column beside the well as tall as the census's `tall` rows or more.
    Tall,
    /// No hole, lower than `tall`, and a column next to the well 3 or more rows below its
    /// other neighbour: a second well beside the well.
    SecondWell,
    /// A clean, low stack: none of the above.
    Clean,
}

impl BurnCause {
    /// Every cause, in the census's column order (the order of declaration: `cause as usize`
    /// is its column).
    pub const ALL: [BurnCause; 5] = [
        BurnCause::StackHoles,
        BurnCause::WellCovered,
        BurnCause::Tall,
        BurnCause::SecondWell,
        BurnCause::Clean,
    ];

    /// A short name, for tables.
    pub fn name(self) -> &'static str {
        match self {
            BurnCause::StackHoles => "holes in the stack",
            BurnCause::WellCovered => "well covered",
            BurnCause::Tall => "tall stack",
            BurnCause::SecondWell => "second well",
            BurnCause::Clean => "clean, low",
        }
    }

    /// The cause of a burn made from `rows` (20 rows from the top, bit `x` for column `x`),
    /// a stack counting as tall from `tall` rows, the well in column `well` (0..=9).
    pub fn of(rows: &[u16; 20], tall: u32, well: usize) -> BurnCause {
        let h = board_of(rows).heights();
        let (mut stack_holes, mut well_holes) = (false, false);
        for (x, &hx) in h.iter().enumerate() {
            let top = 20 - hx as usize;
            if rows[top..].iter().any(|&r| r >> x & 1 == 0) {
                if x == well {
                    well_holes = true;
                } else {
                    stack_holes = true;
                }
            }
        }
        // A column beside the well 3 or more rows below its other neighbour (a wall is no
        // neighbour).
        let second_well = [well.wrapping_sub(1), well + 1].into_iter().any(|n| {
            let outer = if n < well { n.wrapping_sub(1) } else { n + 1 };
            n < 10 && outer < 10 && h[outer] >= h[n] + 3
        });
        if stack_holes {
            BurnCause::StackHoles
        } else if well_holes {
            BurnCause::WellCovered
        } else if (0..10).any(|x| x != well && h[x] >= tall) {
            BurnCause::Tall
        } else if second_well {
            BurnCause::SecondWell
        } else {
            BurnCause::Clean
        }
    }
}

/// The AI's board of recorded `rows` (20 rows from the top, bit `x` for column `x`), its two
/// hidden rows empty.
fn board_of(rows: &[u16; 20]) -> nestris_ai::Board {
    let mut board = nestris_ai::Board::new();
    board.rows[2..].copy_from_slice(rows);
    board
}

/// The well as an I piece finds it when it spawns: open or not, and the Tetris-ready rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WellAtI {
    /// The well column stands below its lower neighbour (a wall counts as no neighbour).
    pub open: bool,
    /// The rows full but for the well column, counted up from the well's bottom (the lowest
    /// cell of the well column open to the top), as far as they go.
    pub ready: u32,
}

impl WellAtI {
    /// The well of `rows` (20 rows from the top, bit `x` for column `x`) in column `well`.
    pub fn of(rows: &[u16; 20], well: usize) -> WellAtI {
        let board = board_of(rows);
        let h = board.heights();
        let lower = [well.wrapping_sub(1), well + 1]
            .into_iter()
            .filter(|&n| n < 10)
            .map(|n| h[n])
            .min()
            .unwrap_or(0);
        WellAtI {
            open: h[well] < lower,
            ready: board.ready_rows(well, h[well]) as u32,
        }
    }
}

/// The level bands of a census, by the level at the piece's spawn (from level 18, the
/// speed changes at 19, 29 and 39).
pub const BANDS: [(&str, u8, u8); 4] = [
    ("levels 0-18", 0, 18),
    ("levels 19-28", 19, 28),
    ("levels 29-38", 29, 38),
    ("levels 39+", 39, 255),
];

/// What one level band's pieces did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BandCounts {
    /// Pieces spawned in the band.
    pub pieces: u64,
    /// Lines cleared by Tetrises.
    pub tetris_lines: u64,
    /// Lines burned (singles, doubles, triples), by [`BurnCause::ALL`] (`cause as usize`).
    pub burned: [u64; 5],
    /// I pieces spawned in the band.
    pub i_pieces: u64,
    /// Of them, those that found no open well ([`WellAtI::open`]).
    pub i_no_well: u64,
    /// Of them, by the Tetris-ready rows they found ([`WellAtI::ready`]): none, 1-3, 4 or
    /// more.
    pub i_ready: [u64; 3],
}

impl BandCounts {
    /// All lines cleared.
    pub fn lines(&self) -> u64 {
        self.tetris_lines + self.burned.iter().sum::<u64>()
    }
}

/// Where the lines of a boards file's games went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Games read (each with its end line).
    pub games: u64,
    /// Boards read.
    pub boards: u64,
    /// Games that topped out.
    pub topped_out: u64,
    /// The rows from which a stack counts as tall.
    pub tall: u32,
    /// The well's column from level 39 on (the rightmost, 9, before).
    pub well_39: usize,
    /// Counts for each of [`BANDS`].
    pub bands: [BandCounts; 4],
}

/// A board a piece spawned on, read back from a boards file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedBoard {
    /// The game's number.
    pub game: u64,
    /// The board's number in its game, from 1.
    pub piece: u32,
    /// The level at the spawn.
    pub level: u8,
    /// The lines at the spawn (in B-type games, the lines left).
    pub lines: u32,
    /// The score at the spawn (uncapped).
    pub score: u64,
    /// The spawned piece's letter.
    pub current: u8,
    /// The next piece's letter.
    pub next: u8,
    /// The playfield without the falling piece: 20 rows from the top, bit `x` for column `x`.
    pub rows: [u16; 20],
}

/// How a recorded game ended: its end line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedEnd {
    /// The game's number.
    pub game: u64,
    /// The lines when it stopped.
    pub lines: u32,
    /// The score when it stopped (uncapped).
    pub score: u64,
    /// Whether it topped out (not cleared or stopped at a limit).
    pub topped_out: bool,
}

/// One parsed line.
enum Line {
    Board(RecordedBoard),
    End(RecordedEnd),
}

fn parse_line(text: &str) -> Result<Line, String> {
    let f: Vec<&str> = text.split(',').collect();
    if f.len() != 8 {
        return Err(format!(
            "{} fields where a boards line has 8 ({HEADER})",
            f.len()
        ));
    }
    let num = |i: usize, name: &str| -> Result<u64, String> {
        f[i].parse::<u64>()
            .map_err(|_| format!("{name} {:?} is not a whole number", f[i]))
    };
    let game = num(0, "game")?;
    let level = num(2, "level")?;
    let level = u8::try_from(level).map_err(|_| format!("level {level} is not 0..=255"))?;
    let lines = num(3, "lines")?;
    let lines = u32::try_from(lines).map_err(|_| format!("lines {lines} is too large"))?;
    let score = num(4, "score")?;
    if f[1] == "end" {
        let topped_out = match f[5] {
            "topped_out" => true,
            "cleared" | "stopped" => false,
            other => {
                return Err(format!(
                    "an end line says {other:?}, not topped_out, cleared or stopped"
                ))
            }
        };
        if !f[6].is_empty() || !f[7].is_empty() {
            return Err("an end line has nothing after how the game ended".into());
        }
        return Ok(Line::End(RecordedEnd {
            game,
            lines,
            score,
            topped_out,
        }));
    }
    let piece = num(1, "piece")?;
    let piece = u32::try_from(piece)
        .ok()
        .filter(|&p| p >= 1)
        .ok_or_else(|| format!("piece {piece} is not 1..=4294967295 or end"))?;
    let letter = |i: usize, name: &str| -> Result<u8, String> {
        match f[i].as_bytes() {
            [c] if b"TJZOSLI".contains(c) => Ok(*c),
            _ => Err(format!("{name} piece {:?} is not one of TJZOSLI", f[i])),
        }
    };
    let (current, next) = (letter(5, "current")?, letter(6, "next")?);
    let b = f[7].as_bytes();
    if b.len() != 60 || !b.iter().all(u8::is_ascii_hexdigit) {
        return Err(format!(
            "the board {:?} is not 60 hex digits (20 rows of 3)",
            f[7]
        ));
    }
    let mut rows = [0u16; 20];
    for (y, r) in rows.iter_mut().enumerate() {
        let v = u16::from_str_radix(&f[7][3 * y..3 * y + 3], 16).expect("checked hex digits");
        if v > 0x3ff {
            return Err(format!(
                "row {} of the board is {v:03x}, more than the 10 columns (3ff)",
                y + 1
            ));
        }
        *r = v;
    }
    Ok(Line::Board(RecordedBoard {
        game,
        piece,
        level,
        lines,
        score,
        current,
        next,
        rows,
    }))
}

/// The most boards one game of a boards file may hold (a game of 430 lines has about 1,100).
pub const MAX_GAME_BOARDS: usize = 1 << 20;

/// Reads a boards file (`file` names it in errors) game by game, handing each game's boards
/// and its end line to `each` as the end line is read. Every line is checked: the header,
/// the fields, the boards, each game's pieces numbered from its first in order, each next
/// piece the following board's current one, each game closed by its end line, and line counts
/// that move one way by at most 4 a piece. Memory grows only with the longest game (at most
/// [`MAX_GAME_BOARDS`] boards). Returns the number of boards read.
pub fn read_games<R: BufRead>(
    file: &str,
    mut reader: R,
    mut each: impl FnMut(&[RecordedBoard], &RecordedEnd),
) -> Result<u64, BoardsError> {
    let io = |source| BoardsError::Io {
        file: file.to_string(),
        source,
    };
    // The open game's boards.
    let mut open: Vec<RecordedBoard> = Vec::new();
    let mut finished: Option<u64> = None;
    let mut boards = 0u64;
    let mut buf = Vec::new();
    let mut number = 0u64;
    // The lines cleared by a game's last piece, from `from` to `lines`, checked.
    let cleared = |from: u32, lines: u32| {
        if lines.abs_diff(from) > 4 {
            Err(format!(
                "the line count moves from {from} to {lines}: more than one piece clears"
            ))
        } else {
            Ok(())
        }
    };
    loop {
        buf.clear();
        let n = reader
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(io)?;
        if n == 0 {
            break;
        }
        number += 1;
        let err = |what: String| BoardsError::Line {
            file: file.to_string(),
            line: number,
            what,
        };
        if buf.len() > MAX_LINE {
            return Err(err(format!("longer than {MAX_LINE} bytes")));
        }
        let text = std::str::from_utf8(&buf)
            .map_err(|_| err("not UTF-8 text".into()))?
            .trim_end_matches(['\n', '\r']);
        if number == 1 {
            if text != HEADER {
                return Err(err(format!(
                    "not a boards file (`bench --record-boards`): the first line is not {HEADER}"
                )));
            }
            continue;
        }
        match parse_line(text).map_err(err)? {
            Line::Board(board) => {
                match open.last() {
                    Some(last) if last.game != board.game => {
                        return Err(err(format!(
                            "game {} begins before game {}'s end line",
                            board.game, last.game
                        )))
                    }
                    Some(last) => {
                        if board.piece != last.piece.wrapping_add(1) {
                            return Err(err(format!(
                                "piece {} of game {} follows piece {}",
                                board.piece, board.game, last.piece
                            )));
                        }
                        if board.current != last.next {
                            return Err(err(format!(
                                "the current piece {} is not the last board's next piece {}",
                                board.current as char, last.next as char
                            )));
                        }
                        cleared(last.lines, board.lines).map_err(err)?;
                        if open.len() >= MAX_GAME_BOARDS {
                            return Err(err(format!(
                                "game {} has more than {MAX_GAME_BOARDS} boards",
                                board.game
                            )));
                        }
                    }
                    None => {
                        if finished == Some(board.game) {
                            return Err(err(format!(
                                "game {} goes on after its end line",
                                board.game
                            )));
                        }
                    }
                }
                boards += 1;
                open.push(board);
            }
            Line::End(end) => {
                match open.last() {
                    Some(last) if last.game == end.game => {
                        cleared(last.lines, end.lines).map_err(err)?
                    }
                    Some(last) => {
                        return Err(err(format!(
                            "game {}'s end line comes in game {}",
                            end.game, last.game
                        )))
                    }
                    // A game with no boards: one `--continue` found already over.
                    None if finished == Some(end.game) => {
                        return Err(err(format!("game {} has two end lines", end.game)))
                    }
                    None => {}
                }
                each(&open, &end);
                open.clear();
                finished = Some(end.game);
            }
        }
    }
    if number == 0 {
        return Err(BoardsError::Line {
            file: file.to_string(),
            line: 1,
            what: "the file is empty: no header".into(),
        });
    }
    if let Some(last) = open.last() {
        return Err(BoardsError::Truncated {
            file: file.to_string(),
            game: last.game,
        });
    }
    Ok(boards)
}

/// Reads a boards file (`file` names it in errors) and counts where its lines went, a stack
/// counting as tall from `tall` rows, the well in the rightmost column before level 39 and
/// in column `well_39` (0..=9) from it. Every line is checked, as [`read_games`] checks them.
pub fn census<R: BufRead>(
    file: &str,
    reader: R,
    tall: u32,
    well_39: usize,
) -> Result<Census, BoardsError> {
    let mut out = Census {
        tall,
        well_39: well_39.min(9),
        ..Census::default()
    };
    out.boards = read_games(file, reader, |boards, end| {
        let after = boards.iter().skip(1).map(|b| b.lines).chain([end.lines]);
        for (b, lines) in boards.iter().zip(after) {
            let band = BANDS
                .iter()
                .position(|&(_, lo, hi)| (lo..=hi).contains(&b.level))
                .expect("the bands cover 0..=255");
            let well = out.well(band);
            let c = &mut out.bands[band];
            c.pieces += 1;
            match lines.abs_diff(b.lines) {
                0 => {}
                4 => c.tetris_lines += 4,
                n => c.burned[BurnCause::of(&b.rows, tall, well) as usize] += n as u64,
            }
            if b.current == b'I' {
                let w = WellAtI::of(&b.rows, well);
                c.i_pieces += 1;
                c.i_no_well += u64::from(!w.open);
                c.i_ready[match w.ready {
                    0 => 0,
                    1..=3 => 1,
                    _ => 2,
                }] += 1;
            }
        }
        out.games += 1;
        out.topped_out += end.topped_out as u64;
    })?;
    Ok(out)
}

/// Which boards of a boards file a value table is fitted on ([`value_samples`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleFilter {
    /// Boards from this level on.
    pub min_level: u8,
    /// Boards up to this level.
    pub max_level: u8,
    /// Boards at most this many lines into their game (later boards' returns are cut short
    /// by the line cap that stopped the game).
    pub max_lines: u32,
    /// The discount a piece of the points to come.
    pub gamma: f64,
    /// The well's column (the table's ready rows are read beside it).
    pub well: usize,
}

/// The boards of a boards file that `filter` keeps, each with the discounted points its game
/// scored from it on ([`nestris_ai::value::returns`]): the samples a value table is fitted
/// to. Every line is checked, as [`read_games`] checks them.
pub fn value_samples<R: BufRead>(
    file: &str,
    reader: R,
    filter: &SampleFilter,
) -> Result<Vec<nestris_ai::value::Sample>, BoardsError> {
    let mut out = Vec::new();
    read_games(file, reader, |boards, end| {
        let scores: Vec<u64> = boards.iter().map(|b| b.score).chain([end.score]).collect();
        let returns = nestris_ai::value::returns(&scores, filter.gamma);
        for (b, target) in boards.iter().zip(returns) {
            if !(filter.min_level..=filter.max_level).contains(&b.level)
                || b.lines > filter.max_lines
            {
                continue;
            }
            let board = board_of(&b.rows);
            let entries =
                nestris_ai::value::entries(&board, &board.columns(), &board.heights(), filter.well);
            out.push(nestris_ai::value::Sample {
                game: b.game,
                entries,
                target,
            });
        }
    })?;
    Ok(out)
}

impl Census {
    /// The well's column in band `band` of [`BANDS`]: the rightmost before level 39,
    /// [`Census::well_39`] from it.
    pub fn well(&self, band: usize) -> usize {
        if band == 3 {
            self.well_39
        } else {
            9
        }
    }

    /// The census as a table: per level band, the pieces, lines, the share of lines in
    /// Tetrises, and each cause's share of the burned lines; then the I pieces and the well
    /// they found.
    pub fn table(&self) -> String {
        let mut s = format!(
            "games {}, boards {}, topped out {}; a stack is tall from {} rows; the well is the rightmost column, column {} (0-9 from the left) from level 39\n",
            self.games, self.boards, self.topped_out, self.tall, self.well_39
        );
        let _ = write!(
            s,
            "{:<13} {:>9} {:>8} {:>8} {:>8}",
            "band", "pieces", "lines", "Tetris", "burned"
        );
        for c in BurnCause::ALL {
            let _ = write!(s, " {:>19}", c.name());
        }
        s.push('\n');
        for (&(name, _, _), b) in BANDS.iter().zip(&self.bands) {
            if b.pieces == 0 {
                continue;
            }
            let lines = b.lines();
            let burned: u64 = b.burned.iter().sum();
            let pct = |n: u64, of: u64| {
                if of == 0 {
                    "-".to_string()
                } else {
                    format!("{:.1}%", 100.0 * n as f64 / of as f64)
                }
            };
            let _ = write!(
                s,
                "{name:<13} {:>9} {:>8} {:>8} {:>8}",
                b.pieces,
                lines,
                pct(b.tetris_lines, lines),
                pct(burned, lines)
            );
            for &n in &b.burned {
                let _ = write!(s, " {:>19}", format!("{n} ({})", pct(n, burned)));
            }
            s.push('\n');
        }
        let _ = writeln!(
            s,
            "\n{:<13} {:>9} {:>8} {:>10} {:>10} {:>10}",
            "the I pieces", "spawned", "no well", "0 ready", "1-3 ready", "4+ ready"
        );
        for (&(name, _, _), b) in BANDS.iter().zip(&self.bands) {
            if b.i_pieces == 0 {
                continue;
            }
            let pct = |n: u64| format!("{:.0}%", 100.0 * n as f64 / b.i_pieces as f64);
            let _ = writeln!(
                s,
                "{name:<13} {:>9} {:>8} {:>10} {:>10} {:>10}",
                b.i_pieces,
                pct(b.i_no_well),
                pct(b.i_ready[0]),
                pct(b.i_ready[1]),
                pct(b.i_ready[2])
            );
        }
        s
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
        // The census reads it back and finds every line the game cleared, once.
        let c = census("rec", format!("{HEADER}\n{text}").as_bytes(), 10, 5).unwrap();
        assert_eq!((c.games, c.boards), (1, r.pieces as u64));
        assert_eq!(c.bands[0].pieces, r.pieces as u64);
        assert_eq!(c.bands[0].lines(), r.lines as u64);
        assert_eq!(c.bands[0].tetris_lines, 4 * r.tetrises as u64);
        assert_eq!(cells(boards[0][7]), 0, "the first board is empty");
        // A lock adds the piece's 4 cells and each line it clears takes 10 away; the next
        // piece becomes the current one.
        for w in boards.windows(2) {
            let cleared: u32 = w[1][3].parse::<u32>().unwrap() - w[0][3].parse::<u32>().unwrap();
            assert_eq!(cells(w[1][7]), cells(w[0][7]) + 4 - 10 * cleared);
            assert_eq!(w[1][5], w[0][6]);
        }
    }

    /// A board from rows drawn bottom row last (`#` filled), padded to 20 rows above.
    fn board(drawn: &[&str]) -> [u16; 20] {
        let mut rows = [0u16; 20];
        for (i, line) in drawn.iter().enumerate() {
            let y = 20 - drawn.len() + i;
            for (x, c) in line.chars().enumerate() {
                if c == '#' {
                    rows[y] |= 1 << x;
                }
            }
        }
        rows
    }

    #[test]
    fn value_samples_are_the_kept_boards_with_their_discounted_points() {
        let empty = "0".repeat(60);
        let ready = format!("{}{}", "0".repeat(48), "3df".repeat(4));
        let text = format!(
            "{HEADER}\n\
             0,1,38,0,0,T,I,{empty}\n\
             0,2,39,1,1600,I,L,{ready}\n\
             0,3,39,5,49600,L,O,{empty}\n\
             0,end,39,5,49600,topped_out,,\n\
             1,end,39,0,0,stopped,,\n"
        );
        let filter = SampleFilter {
            min_level: 39,
            max_level: 255,
            max_lines: 4,
            gamma: 0.5,
            well: 5,
        };
        let s = value_samples("v", text.as_bytes(), &filter).unwrap();
        // Board 1 is below level 39 and board 3 beyond 4 lines; board 2 is worth its Tetris.
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].target, 48000.0);
        let e = &s[0].entries;
        assert_eq!(
            e[nestris_ai::value::WINDOWS + 1],
            e[nestris_ai::value::WINDOWS + 2] - 8 + 4
        );
        // The same checks as the census: a cut file is refused.
        let cut: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
        assert!(matches!(
            value_samples("v", cut.as_bytes(), &filter),
            Err(BoardsError::Truncated { game: 0, .. })
        ));
    }

    #[test]
    fn burn_causes_are_read_from_the_board() {
        use BurnCause::*;
        for (i, c) in BurnCause::ALL.into_iter().enumerate() {
            assert_eq!(c as usize, i, "{c:?}");
        }
        for (drawn, tall, cause) in [
            (&["#########."][..], 10, Clean),
            (&["####.####.", "#########."][..], 10, Clean),
            (&["#####.###.", "#########."][..], 10, Clean),
            (
                &["####.####.", "#########.", "##.######."][..],
                10,
                StackHoles,
            ),
            (&["##########", "#########."][..], 10, WellCovered),
            (
                &["########..", "########..", "########..", "#########."][..],
                10,
                SecondWell,
            ),
            (&["########..", "########..", "#########."][..], 10, Clean),
            (&["#########.", "#########.", "#########."][..], 3, Tall),
            (&["#########.", "#########.", "#########."][..], 4, Clean),
            (
                &["#########.", "#########.", "#.#######."][..],
                3,
                StackHoles,
            ),
        ] {
            assert_eq!(
                BurnCause::of(&board(drawn), tall, 9),
                cause,
                "{drawn:?} tall {tall}"
            );
        }
    }

    #[test]
    fn the_well_an_i_piece_finds() {
        for (drawn, well, open, ready) in [
            (&["#########.", "#########."][..], 9, true, 2),
            (&["#####.####"; 4][..], 5, true, 4),
            (&["#####.####"; 5][..], 5, true, 5),
            (&["#########.", "####.####.", "#########."][..], 9, true, 1),
            // Covered: the ready rows under the cover are not counted.
            (&[".........#", "#########.", "#########."][..], 9, false, 0),
            (&["....######", "##########"][..], 9, false, 0),
            // Above its lower neighbour: no well.
            (&["####.##...", "##########"][..], 5, false, 0),
            // Two rows deep beside the lower neighbour: open, one ready row under it.
            (&["#####.#...", "#####.####"][..], 5, true, 1),
            (&[][..], 0, false, 0),
        ] {
            assert_eq!(
                WellAtI::of(&board(drawn), well),
                WellAtI { open, ready },
                "{drawn:?} well {well}"
            );
        }
    }

    #[test]
    fn a_middle_well_has_a_second_well_on_either_side() {
        use BurnCause::*;
        for (drawn, cause) in [
            (&["#####.####"][..], Clean),
            (
                &["####..####", "####..####", "####..####", "#####.####"][..],
                SecondWell,
            ),
            (
                &["#####..###", "#####..###", "#####..###", "#####.####"][..],
                SecondWell,
            ),
            (&["#####..###", "#####..###", "#####.####"][..], Clean),
            (&["#####.####", "####.#####"][..], StackHoles),
            (&["##########", "#####.####"][..], WellCovered),
        ] {
            assert_eq!(BurnCause::of(&board(drawn), 10, 5), cause, "{drawn:?}");
        }
    }

    #[test]
    fn a_census_reads_the_double_killscreens_well_in_its_column() {
        let b = |piece: u32, level: u8, lines: u32, cur: &str, next: &str, rows: &[&str]| {
            let hex: String = board(rows).iter().map(|r| format!("{r:03x}")).collect();
            format!("0,{piece},{level},{lines},0,{cur},{next},{hex}\n")
        };
        let ready = ["#####.####"; 4];
        let text = format!(
            "{HEADER}\n{}{}{}0,end,39,334,0,stopped,,\n",
            b(1, 38, 329, "I", "I", &["#########."; 4]),
            b(2, 39, 330, "I", "T", &ready),
            b(3, 39, 334, "T", "O", &[]),
        );
        let c = census("f", text.as_bytes(), 10, 5).unwrap();
        // Level 38 reads the well in the rightmost column, level 39 in column 5.
        assert_eq!((c.bands[2].i_pieces, c.bands[2].i_ready), (1, [0, 0, 1]));
        assert_eq!((c.bands[3].i_pieces, c.bands[3].i_ready), (1, [0, 0, 1]));
        assert_eq!((c.bands[3].i_no_well, c.bands[3].tetris_lines), (0, 4));
        // Read with the rightmost column from level 39 too, the middle well is no well.
        let c9 = census("f", text.as_bytes(), 10, 9).unwrap();
        assert_eq!((c9.bands[3].i_no_well, c9.bands[3].i_ready), (1, [1, 0, 0]));
        assert!(c.table().contains("4+ ready"), "{}", c.table());
    }

    #[test]
    fn a_census_checks_every_line() {
        let empty = "0".repeat(60);
        let b = |game: u32, piece: u32, lines: u32, cur: &str, next: &str, board: &str| {
            format!("{game},{piece},18,{lines},0,{cur},{next},{board}\n")
        };
        // Game 0: a single on a clean board, then a Tetris; game 1 ended before it began
        // (a game `--continue` found over).
        let single = format!("{}{}", "0".repeat(57), "1ff");
        let good = format!(
            "{HEADER}\n{}{}{}0,end,18,5,0,topped_out,,\n1,end,18,3,0,stopped,,\n",
            b(0, 1, 0, "T", "J", &empty),
            b(0, 2, 1, "J", "I", &single),
            b(0, 3, 1, "I", "O", &empty),
        );
        let c = census("f", good.as_bytes(), 10, 5).unwrap();
        assert_eq!((c.games, c.boards, c.topped_out), (2, 3, 1));
        assert_eq!(c.bands[0].pieces, 3);
        assert_eq!(c.bands[0].tetris_lines, 4);
        assert_eq!(c.bands[0].burned, [0, 0, 0, 0, 1]);
        assert!(c.table().contains("levels 0-18"), "{}", c.table());
        let lines: Vec<&str> = good.lines().collect();
        let with = |i: usize, line: &str| {
            let mut l = lines.clone();
            l[i] = line;
            l.join("\n") + "\n"
        };
        let bad_board = b(0, 2, 1, "J", "I", &format!("4{}", &single[1..]));
        let cases = [
            (String::new(), "line 1: the file is empty"),
            ("x\n".to_string(), "line 1: not a boards file"),
            (with(2, "0,2,18,1,0,J,I"), "line 3: 7 fields"),
            (
                with(2, &b(0, 2, 1, "J", "I", "xyz")[..]),
                "line 3: the board \"xyz\" is not 60 hex digits",
            ),
            (
                with(2, bad_board.trim_end()),
                "line 3: row 1 of the board is 400",
            ),
            (
                with(2, &b(0, 3, 1, "J", "I", &single)[..]),
                "line 3: piece 3 of game 0 follows piece 1",
            ),
            (
                with(2, &b(0, 2, 1, "S", "I", &single)[..]),
                "line 3: the current piece S is not",
            ),
            (
                with(2, &b(0, 2, 1, "J", "X", &single)[..]),
                "line 3: next piece \"X\" is not one of TJZOSLI",
            ),
            (
                with(2, &b(0, 2, 9, "J", "I", &single)[..]),
                "line 3: the line count moves from 0 to 9",
            ),
            (
                with(2, &b(1, 2, 1, "J", "I", &single)[..]),
                "line 3: game 1 begins before game 0's end line",
            ),
            (
                with(4, "0,end,18,5,0,won,,"),
                "line 5: an end line says \"won\"",
            ),
            (
                with(5, "0,end,18,5,0,stopped,,"),
                "line 6: game 0 has two end lines",
            ),
            (
                with(2, "0,2,300,1,0,J,I,x"),
                "line 3: level 300 is not 0..=255",
            ),
            (
                lines[..3].join("\n"),
                "f: game 0 has no end line: the file is cut short",
            ),
            (
                format!("{HEADER}\n{}", "9".repeat(5000)),
                "line 2: longer than 1024 bytes",
            ),
        ];
        for (text, expect) in cases {
            let e = census("f", text.as_bytes(), 10, 5).unwrap_err().to_string();
            assert!(e.contains(expect), "{expect:?} not in {e:?}");
        }
    }
}
