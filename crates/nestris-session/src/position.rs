//! Positions to start a game from: a board, the current and next piece, level, lines and
//! score, in a small text file ([`Position::parse`], format in the README, "Starting from a
//! position").
//!
//! ```text
//! # comments start with #
//! level 18
//! lines 12
//! score 34000
//! piece T
//! next I
//! board
//! ..........
//! ...                (20 rows of `.` and `#`, top row first)
//! ```
//!
//! `board` is followed either by 20 lines of 10 `.`/`#` characters, or on the same line by
//! 200 characters of `0`/`1` (row by row from the top, as StackRabbit takes a board).
//!
//! A game started from a position is a departure from a game started at the menu and is
//! labelled as one ([`LABEL`]). Its generator and frame counter come from the session's start
//! configuration, so games from the same position still differ by seed and index, and the
//! same seed gives the same games.

use nestris_engine::{bcd, Game, Orientation, PieceKind, Playfield, Snapshot, StartConfig, Tile};

/// How a game started from a position is named wherever it is shown.
pub const LABEL: &str = "started from a position (departure from the original)";

/// Where games start: a position file (a departure), or an engine snapshot (the header of a
/// reference trace, `nes-trace-1`: the engine's whole state, a point of a real game, so not
/// a departure).
#[derive(Clone, Debug)]
pub enum StartPoint {
    /// A position file.
    Position(Position),
    /// The engine's game at a trace's starting point (every game starts from the same state:
    /// the snapshot holds the generator too).
    Snapshot(Game),
}

/// Why a start point file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum StartPointError {
    /// A position file with a problem.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A trace that could not be read.
    #[error(transparent)]
    Trace(#[from] nestris_trace::TraceError),
    /// A trace whose header is not a state of the game.
    #[error("{0}")]
    Snapshot(String),
}

impl StartPoint {
    /// Reads `bytes` of the file `name`: a gzip-compressed trace (its header's state), or a
    /// position file.
    pub fn parse(name: &str, bytes: &[u8]) -> Result<StartPoint, StartPointError> {
        if bytes.starts_with(&[0x1f, 0x8b]) {
            let trace = nestris_trace::Trace::parse(name, bytes)?;
            let game = trace
                .initial_game()
                .map_err(|e| StartPointError::Snapshot(format!("{name}: {e}")))?;
            return Ok(StartPoint::Snapshot(game));
        }
        let text = std::str::from_utf8(bytes).map_err(|e| PositionError {
            line: bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1,
            message: "not UTF-8 text (a position file, or a gzip-compressed trace)".into(),
        })?;
        Ok(StartPoint::Position(Position::parse(text)?))
    }

    /// Whether games from here depart from the original (a position file does; a snapshot
    /// does not).
    pub fn is_departure(&self) -> bool {
        matches!(self, StartPoint::Position(_))
    }

    /// The game from here; for a position, its generator and frame counter from `start`.
    pub fn game(&self, start: &StartConfig) -> Game {
        match self {
            StartPoint::Position(p) => p.game(start),
            StartPoint::Snapshot(g) => *g,
        }
    }
}

/// A position read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Rows top to bottom, bit x = column x.
    pub rows: [u16; 20],
    /// The current piece (spawns as the game spawns it, at the top).
    pub piece: PieceKind,
    /// The next piece (the preview), if known (games need it; the analysis can do without).
    pub next: Option<PieceKind>,
    /// Level 0..=255.
    pub level: u8,
    /// Lines 0..=9999.
    pub lines: u32,
    /// Score.
    pub score: u64,
    /// The engine's counters at the piece's spawn, when the file has them (`state ...`, what
    /// `bench --save-positions` writes): the game then goes on with this generator and these
    /// timers, exactly as the game it was saved from (but for the colours of the blocks
    /// already down: the file keeps cells, not tiles), instead of the session's.
    pub state: Option<EngineState>,
}

/// The engine's counters that a position's board and pieces leave out, as at a spawn: with
/// them a game started from the position is the saved game itself from that frame on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineState {
    /// `rng_seed` ($17-$18).
    pub rng: u16,
    /// `spawnCount` ($1A).
    pub spawn_count: u8,
    /// `frameCounter` ($B1-$B2).
    pub frame_counter: u16,
    /// `fallTimer` ($65).
    pub fall_timer: u8,
    /// `autorepeatX` ($66).
    pub das: u8,
    /// `autorepeatY` ($6E).
    pub ary: i8,
    /// `holdDownPoints` ($6F).
    pub hold_down_points: u8,
    /// `vramRow` ($69).
    pub vram_row: u8,
    /// `tetriminoX` ($60).
    pub x: u8,
    /// `tetriminoY` ($61).
    pub y: u8,
}

impl EngineState {
    /// The keys of a `state` line, in the order they are written.
    pub const KEYS: [&'static str; 10] = [
        "rng",
        "spawn_count",
        "frame_counter",
        "fall_timer",
        "das",
        "ary",
        "hold_down_points",
        "vram_row",
        "x",
        "y",
    ];

    fn values(&self) -> [i64; 10] {
        [
            self.rng as i64,
            self.spawn_count as i64,
            self.frame_counter as i64,
            self.fall_timer as i64,
            self.das as i64,
            self.ary as i64,
            self.hold_down_points as i64,
            self.vram_row as i64,
            self.x as i64,
            self.y as i64,
        ]
    }

    /// The `state` line's values (`rng 4660 spawn_count 17 ...`).
    pub fn to_text(&self) -> String {
        Self::KEYS
            .iter()
            .zip(self.values())
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Reads the words after `state`: every key once, each with a number in its range.
    fn parse(line: usize, words: &[&str]) -> Result<EngineState, PositionError> {
        let mut v: [Option<i64>; 10] = [None; 10];
        let ranges: [(i64, i64); 10] = [
            (0, 0xFFFF),
            (0, 255),
            (0, 0xFFFF),
            (0, 255),
            (0, 255),
            (-128, 127),
            (0, 255),
            (0, 255),
            (0, 255),
            (0, 255),
        ];
        if !words.len().is_multiple_of(2) {
            return Err(err(line, "state: expected pairs of a key and a number"));
        }
        for pair in words.chunks(2) {
            let Some(i) = Self::KEYS.iter().position(|k| *k == pair[0]) else {
                return Err(err(
                    line,
                    format!(
                        "state: unknown key {:?}: expected {}",
                        pair[0],
                        Self::KEYS.join(", ")
                    ),
                ));
            };
            if v[i].is_some() {
                return Err(err(line, format!("state: {} is given twice", pair[0])));
            }
            let (lo, hi) = ranges[i];
            match pair[1].parse::<i64>() {
                Ok(n) if (lo..=hi).contains(&n) => v[i] = Some(n),
                _ => {
                    return Err(err(
                        line,
                        format!(
                            "state: {} {:?} is not a number in {lo}..={hi}",
                            pair[0], pair[1]
                        ),
                    ))
                }
            }
        }
        if let Some(i) = v.iter().position(Option::is_none) {
            return Err(err(line, format!("state: {} is missing", Self::KEYS[i])));
        }
        let n = |i: usize| v[i].expect("checked");
        Ok(EngineState {
            rng: n(0) as u16,
            spawn_count: n(1) as u8,
            frame_counter: n(2) as u16,
            fall_timer: n(3) as u8,
            das: n(4) as u8,
            ary: n(5) as i8,
            hold_down_points: n(6) as u8,
            vram_row: n(7) as u8,
            x: n(8) as u8,
            y: n(9) as u8,
        })
    }
}

/// A position file that cannot be read: the line (1-based; 0 for the file as a whole) and
/// the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct PositionError {
    /// The line.
    pub line: usize,
    /// The problem.
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> PositionError {
    PositionError {
        line,
        message: message.into(),
    }
}

fn piece(line: usize, key: &str, v: &str) -> Result<PieceKind, PositionError> {
    let mut c = v.chars();
    match (c.next(), c.next()) {
        (Some(ch), None) => PieceKind::from_letter(ch.to_ascii_uppercase()),
        _ => None,
    }
    .ok_or_else(|| {
        err(
            line,
            format!("{key} {v:?} is not a piece: use one of T J Z O S L I"),
        )
    })
}

fn number(line: usize, key: &str, v: &str, max: u64) -> Result<u64, PositionError> {
    match v.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(err(
            line,
            format!("{key} {v:?} is not a number in 0..={max}"),
        )),
    }
}

/// Reads a board given in one string: 200 cells, row by row from the top, each `0` or `.`
/// (empty) or `1` or `#` (filled); whitespace and `/` between them are ignored (so 20 rows
/// of `.`/`#` on separate lines also do).
pub fn parse_board(text: &str) -> Result<[u16; 20], String> {
    let cells: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '/')
        .collect();
    if cells.len() != 200 {
        return Err(format!(
            "{} cells, expected 200 (20 rows of 10: `0`/`1` or `.`/`#`)",
            cells.len()
        ));
    }
    let mut rows = [0u16; 20];
    for (i, c) in cells.iter().enumerate() {
        match c {
            '0' | '.' => {}
            '1' | '#' => rows[i / 10] |= 1 << (i % 10),
            other => {
                return Err(format!(
                    "cell {} (row {}, column {}) is {other:?}, expected 0, 1, . or #",
                    i + 1,
                    i / 10 + 1,
                    i % 10 + 1
                ))
            }
        }
    }
    Ok(rows)
}

/// An orientation by its name (`Tu Tr Td Tl Jl Ju Jr Jd Zh Zv O Sh Sv Lr Ld Ll Lu Iv Ih`) or
/// its id (0..=18).
pub fn parse_orientation(s: &str) -> Option<Orientation> {
    let t = s.trim();
    if let Ok(id) = t.parse::<u8>() {
        return Orientation::from_id(id);
    }
    Orientation::ALL
        .iter()
        .copied()
        .find(|o| format!("{o:?}").eq_ignore_ascii_case(t))
}

impl Position {
    /// A position from its parts; `board` as [`parse_board`] reads it. The error names what
    /// is wrong.
    pub fn from_parts(
        board: &str,
        piece: PieceKind,
        next: Option<PieceKind>,
        level: u8,
        lines: u32,
        score: u64,
    ) -> Result<Position, String> {
        let rows = parse_board(board).map_err(|e| format!("board: {e}"))?;
        if lines > 9999 {
            return Err(format!("lines {lines} is out of range (0..=9999)"));
        }
        let p = Position {
            rows,
            piece,
            next,
            level,
            lines,
            score,
            state: None,
        };
        p.check()?;
        Ok(p)
    }

    /// Checks that the game could be here: no full row, and the current piece can spawn.
    pub fn check(&self) -> Result<(), String> {
        if let Some(r) = self.rows.iter().position(|&r| r == 0x3FF) {
            return Err(format!(
                "board row {} is full (the game clears full rows)",
                r + 1
            ));
        }
        let spawn = self.piece.spawn();
        if !nestris_ai::Board::from_playfield(&self.playfield()).fits(spawn as u8, 5, 0) {
            return Err(format!(
                "the {} piece cannot spawn: the board covers its cells at the top",
                self.piece.letter()
            ));
        }
        Ok(())
    }

    /// Reads a position file's text.
    pub fn parse(text: &str) -> Result<Position, PositionError> {
        let mut rows: Option<[u16; 20]> = None;
        let (mut piece_kind, mut next) = (None, None);
        let (mut level, mut lines, mut score) = (None, None, None);
        let mut state: Option<EngineState> = None;
        let mut it = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let mut board_line = 0;
        while let Some((n, raw)) = it.next() {
            let line = raw.split('#').next().unwrap_or("").trim();
            // `#` starts a comment only at the start of a line or after a space: board rows
            // are read below, before this.
            let line = if raw.trim_start().starts_with('#') {
                ""
            } else {
                line
            };
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let key = words.next().unwrap_or("");
            if key == "state" {
                if state.is_some() {
                    return Err(err(n, "state is given twice"));
                }
                state = Some(EngineState::parse(n, &words.collect::<Vec<_>>())?);
                continue;
            }
            let value = words.next();
            if words.next().is_some() {
                return Err(err(n, format!("{key}: one value expected, found more")));
            }
            let seen = match key {
                "level" => level.is_some(),
                "lines" => lines.is_some(),
                "score" => score.is_some(),
                "piece" => piece_kind.is_some(),
                "next" => next.is_some(),
                "board" => rows.is_some(),
                _ => {
                    return Err(err(
                        n,
                        format!(
                        "unknown key {key:?}: expected level, lines, score, piece, next, board or state"
                    ),
                    ))
                }
            };
            if seen {
                return Err(err(n, format!("{key} is given twice")));
            }
            if key == "board" {
                board_line = n;
                rows = Some(match value {
                    Some(bits) => Self::board_bits(n, bits)?,
                    None => Self::board_rows(n, &mut it)?,
                });
                continue;
            }
            let Some(v) = value else {
                return Err(err(n, format!("{key}: value missing")));
            };
            match key {
                "level" => level = Some(number(n, key, v, 255)? as u8),
                "lines" => lines = Some(number(n, key, v, 9999)? as u32),
                "score" => score = Some(number(n, key, v, 9_999_999)?),
                "piece" => piece_kind = Some(piece(n, key, v)?),
                _ => next = Some(piece(n, key, v)?),
            }
        }
        let last = text.lines().count();
        let rows = rows.ok_or_else(|| err(last, "the board is missing (a `board` line)"))?;
        let piece_kind =
            piece_kind.ok_or_else(|| err(last, "the current piece is missing (`piece T`)"))?;
        let p = Position {
            rows,
            piece: piece_kind,
            next,
            level: level.unwrap_or(18),
            lines: lines.unwrap_or(0),
            score: score.unwrap_or(0),
            state,
        };
        p.check().map_err(|e| err(board_line, e))?;
        Ok(p)
    }

    fn board_bits(n: usize, bits: &str) -> Result<[u16; 20], PositionError> {
        let len = bits.chars().count();
        if len != 200 {
            return Err(err(
                n,
                format!("board: {len} characters, expected 200 of 0 and 1 (or 20 rows of . and # on the lines after `board`)"),
            ));
        }
        let mut rows = [0u16; 20];
        for (i, c) in bits.chars().enumerate() {
            match c {
                '0' => {}
                '1' => rows[i / 10] |= 1 << (i % 10),
                other => {
                    return Err(err(
                        n,
                        format!("board: character {} is {other:?}, expected 0 or 1", i + 1),
                    ))
                }
            }
        }
        Ok(rows)
    }

    fn board_rows<'a>(
        n: usize,
        it: &mut impl Iterator<Item = (usize, &'a str)>,
    ) -> Result<[u16; 20], PositionError> {
        let mut rows = [0u16; 20];
        let mut last = n;
        for (r, row) in rows.iter_mut().enumerate() {
            let Some((ln, text)) = it.next() else {
                return Err(err(
                    last,
                    format!("board: {r} rows, expected 20 rows of 10 `.`/`#`"),
                ));
            };
            last = ln;
            let text = text.trim();
            if text.chars().count() != 10 {
                return Err(err(
                    ln,
                    format!(
                        "board row {}: {:?} has {} characters, expected 10 of `.` and `#`",
                        r + 1,
                        text,
                        text.chars().count()
                    ),
                ));
            }
            for (x, c) in text.chars().enumerate() {
                match c {
                    '.' => {}
                    '#' => *row |= 1 << x,
                    other => {
                        return Err(err(
                            ln,
                            format!(
                                "board row {}: column {} is {other:?}, expected `.` or `#`",
                                r + 1,
                                x + 1
                            ),
                        ))
                    }
                }
            }
        }
        Ok(rows)
    }

    /// The board as the engine's playfield.
    pub fn playfield(&self) -> Playfield {
        let mut p = Playfield::new();
        for (y, &row) in self.rows.iter().enumerate() {
            for x in 0..10 {
                if row & (1 << x) != 0 {
                    p.set((y * 10 + x) as u8, Tile::Hollow);
                }
            }
        }
        p
    }

    /// The position of `game` while a piece is under control, as at its spawn: the board,
    /// the current and next piece, level, lines and score. A game started from it goes on as
    /// `game` would have from that piece's spawn, but for the generator (and the piece
    /// starts at the top). `None` in a B-type game or when no piece is under control.
    pub fn from_game(game: &Game) -> Option<Position> {
        if game.game_type != nestris_engine::GameType::A || !game.piece_active() {
            return None;
        }
        Some(Position {
            rows: game.playfield.visible_rows(),
            piece: game.active_piece()?.kind(),
            next: Some(game.next_piece()?.kind()),
            level: game.level,
            lines: game.lines_value(),
            score: game.score_uncapped,
            state: Some(EngineState {
                rng: game.rng,
                spawn_count: game.spawn_count,
                frame_counter: game.frame_counter,
                fall_timer: game.fall_timer,
                das: game.autorepeat_x,
                ary: game.autorepeat_y,
                hold_down_points: game.hold_down_points,
                vram_row: game.vram_row,
                x: game.x,
                y: game.y,
            }),
        })
    }

    /// The position as text (the format [`Position::parse`] reads).
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "level {}\nlines {}\nscore {}\npiece {}\nnext {}\nboard\n",
            self.level,
            self.lines,
            self.score,
            self.piece.letter(),
            self.next.map_or('?', |n| n.letter())
        );
        if self.next.is_none() {
            s = s.replace("next ?\n", "");
        }
        if let Some(st) = &self.state {
            s = s.replace("\nboard\n", &format!("\nstate {}\nboard\n", st.to_text()));
        }
        for &row in &self.rows {
            for x in 0..10 {
                s.push(if row & (1 << x) != 0 { '#' } else { '.' });
            }
            s.push('\n');
        }
        s
    }

    /// The game at this position, the current piece just spawned; its generator, spawn count
    /// and frame counter from `start` (a session's start of this game).
    pub fn game(&self, start: &StartConfig) -> Game {
        let spawn = self.piece.spawn();
        // A game needs a next piece; an unknown one is shown as a T.
        let next: Orientation = self.next.unwrap_or(PieceKind::T).spawn();
        let st = self.state.unwrap_or(EngineState {
            rng: start.rng,
            spawn_count: start.spawn_count,
            frame_counter: start.frame_counter,
            fall_timer: 0,
            das: 0,
            ary: 0,
            hold_down_points: 0,
            vram_row: 32,
            x: 5,
            y: 0,
        });
        let snapshot = Snapshot {
            rng: st.rng,
            spawn_id: next as u8,
            spawn_count: st.spawn_count,
            frame_counter: st.frame_counter,
            game_type: 0,
            start_height: 0,
            level: self.level,
            lines: bcd::lines_encode(self.lines),
            score: bcd::to_bcd(self.score.min(999_999)),
            piece: spawn as u8,
            next: next as u8,
            x: st.x,
            y: st.y,
            play_state: 1,
            fall_timer: st.fall_timer,
            das: st.das,
            ary: st.ary,
            hold_down_points: st.hold_down_points,
            vram_row: st.vram_row,
            game_over: false,
            paused: false,
            playfield: self.playfield(),
        };
        let mut game = Game::resume(&snapshot).expect("a position makes a valid snapshot");
        game.score_uncapped = self.score;
        game.stats[self.piece as usize] = 1;
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_engine::buttons;

    #[test]
    fn round_trip_and_game() {
        let mut text = "level 19\nlines 30\nscore 123456\npiece L\nnext I\nboard\n".to_string();
        text.push_str(&"..........\n".repeat(18));
        text.push_str("#########.\n##.######.\n");
        let p = Position::parse(&text).expect("valid");
        assert_eq!(p.to_text(), text);
        let start = StartConfig::from_seed(1, 19, nestris_engine::GameType::A, 0);
        let g = p.game(&start);
        assert_eq!(g.level, 19);
        assert_eq!(g.lines_value(), 30);
        assert_eq!(g.score_value(), 123456);
        assert_eq!(g.active_piece().map(|o| o.kind()), Some(PieceKind::L));
        assert_eq!(g.next_piece().map(|o| o.kind()), Some(PieceKind::I));
        assert_eq!(p.next, Some(PieceKind::I));
        assert!(g.playfield.occupied_at(0, 19));
        assert!(!g.playfield.occupied_at(2, 19));
        // The StackRabbit form of the same board.
        let bits: String = p
            .rows
            .iter()
            .flat_map(|&r| (0..10).map(move |x| if r & (1 << x) != 0 { '1' } else { '0' }))
            .collect();
        let short = format!("piece L\nnext I\nlevel 19\nlines 30\nscore 123456\nboard {bits}\n");
        assert_eq!(Position::parse(&short), Ok(p));
    }

    /// A game started from a position gives that position back while its first piece is
    /// under control; none once the piece has locked and before the next one spawns, and
    /// none in a B-type game.
    #[test]
    fn a_game_gives_its_position_back() {
        let mut text = "level 19\nlines 30\nscore 1234567\npiece L\nnext I\nboard\n".to_string();
        text.push_str(&"..........\n".repeat(18));
        text.push_str("#########.\n##.######.\n");
        let p = Position::parse(&text).expect("valid");
        let start = StartConfig::from_seed(3, 19, nestris_engine::GameType::A, 0);
        let mut g = p.game(&start);
        let mut seen = 0;
        while seen < 5 && !g.game_over() {
            if g.piece_active() {
                let back = Position::from_game(&g).expect("a piece under control");
                assert!(back.state.is_some());
                assert_eq!(
                    Position {
                        state: None,
                        ..back
                    },
                    p
                );
                seen += 1;
            }
            g.step(0);
        }
        assert!(seen > 0, "the piece was under control");
        while g.piece_active() {
            g.step(0);
        }
        assert_eq!(Position::from_game(&g), None, "no piece under control");
        let b = Game::start(StartConfig::from_seed(3, 9, nestris_engine::GameType::B, 2));
        let mut b = b;
        for _ in 0..200 {
            assert_eq!(Position::from_game(&b), None, "B-type");
            b.step(0);
        }
    }

    /// A position saved with its engine state, written and read back, starts the saved game
    /// itself: stepped with the same inputs, both games stay the same on every frame (but
    /// for the tiles' colours of the blocks already down), whatever the session's start.
    #[test]
    fn a_saved_state_continues_the_game_exactly() {
        let mut g = Game::start(StartConfig::from_seed(
            5,
            18,
            nestris_engine::GameType::A,
            0,
        ));
        let input =
            |f: u64| [0u8, buttons::RIGHT, 0, buttons::A, 0, buttons::LEFT][(f % 6) as usize];
        let (mut f, mut spawns) = (0u64, 0);
        // Some pieces in, at a spawn.
        loop {
            let was = g.piece_active();
            g.step(input(f));
            f += 1;
            if !was && g.piece_active() {
                spawns += 1;
                if spawns == 6 {
                    break;
                }
            }
        }
        let saved = Position::from_game(&g).expect("a spawn");
        let text = saved.to_text();
        assert!(text.contains("\nstate rng "), "{text}");
        let read = Position::parse(&text).expect("reads back");
        assert_eq!(read, saved);
        let mut h = read.game(&StartConfig::from_seed(
            99,
            0,
            nestris_engine::GameType::A,
            0,
        ));
        for _ in 0..3000 {
            // The file keeps which cells are filled, not their tiles (colours).
            let (a, b) = (h.snapshot(), g.snapshot());
            assert_eq!(
                a.playfield.visible_rows(),
                b.playfield.visible_rows(),
                "frame {f}"
            );
            assert_eq!(
                Snapshot {
                    playfield: b.playfield,
                    ..a
                },
                b,
                "frame {f}"
            );
            assert_eq!(h.score_uncapped, g.score_uncapped);
            if g.game_over() {
                break;
            }
            g.step(input(f));
            h.step(input(f));
            f += 1;
        }
        for bad in [
            "state rng 1",
            "state rng 70000 spawn_count 0 frame_counter 0 fall_timer 0 das 0 ary 0 hold_down_points 0 vram_row 0 x 5 y 0",
            "state rng 1 spawn_count 0 frame_counter 0 fall_timer 0 das 0 ary 0 hold_down_points 0 vram_row 0 x 5",
            "state rng 1 rng 2",
            "state seed 1",
        ] {
            let t = text.replace(&text.lines().find(|l| l.starts_with("state")).unwrap().to_string(), bad);
            assert!(Position::parse(&t).is_err(), "{bad}");
        }
    }

    /// Damaged files are errors, never panics: every truncation, and random byte changes.
    #[test]
    fn damaged_files_are_errors() {
        let mut text = "level 19\nlines 30\nscore 123456\npiece L\nnext I\nboard\n".to_string();
        text.push_str(&"..........\n".repeat(18));
        text.push_str("#########.\n##.######.\n");
        let bytes = text.as_bytes();
        for n in 0..bytes.len() {
            let _ = StartPoint::parse("cut", &bytes[..n]);
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let alphabet = b"#.01 \nTJZOSLIXlevnxtbord9-\xff";
        for _ in 0..3000 {
            let mut b = bytes.to_vec();
            for _ in 0..3 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let at = (seed % b.len() as u64) as usize;
                b[at] = alphabet[((seed >> 32) % alphabet.len() as u64) as usize];
            }
            if let Ok(StartPoint::Position(p)) = StartPoint::parse("flip", &b) {
                // Whatever parses is a position a game can start from.
                assert!(p.check().is_ok());
                let _ = p.game(&StartConfig::from_seed(
                    1,
                    p.level,
                    nestris_engine::GameType::A,
                    0,
                ));
            }
        }
    }
}
