//! StackRabbit-compatible routes, so a client can switch servers by changing the URL:
//! `get-move`, `get-move-cpp`, `rate-move`, `rate-move-cpp`, `engine-movelist-cpp` (and
//! `ping`). What they accept and answer was read from StackRabbit's server
//! (`request_handler.ts`, `request_parser.ts`, `formatPossibility` in `utils.ts`,
//! `generateInputSequence` in `board_helper.ts`, `getPossibilityFromSimState` in
//! `move_search.ts`, `formatting.hpp` and `high_level_search.cpp` of its C++ addon) and checked
//! against a build of it; the values are this project's (README, "Analysis over HTTP").
//!
//! - Parameters: `board` (200 characters of `0`/`1`, or the compressed form
//!   `EMPTY_ROWS,HALF_ROW_LETTERS,FULL_WELL_ROWS`), `currentPiece`, `level` (every level
//!   0-255, unlike StackRabbit's 18 and up), `lines` and `inputFrameTimeline` (`X`, `.` or
//!   `-`) are required, as there; `nextPiece`, `reactionTime` (0 unless given, as there),
//!   `secondBoard` (rate-move: the board after the player's move), the piece already on its
//!   way (`existingXOffset`, `existingYOffset`, `existingRotation`, `existingFramesElapsed`),
//!   `playoutCount` (49) and `playoutLength` (2) for engine-movelist-cpp. Others
//!   (`pruningBreadth`, `lookaheadDepth`, `arrWasReset`) are checked as StackRabbit checks
//!   them where it does, and otherwise ignored.
//! - A lock is StackRabbit's `[rotation, xOffset, yOffset]`: the rotation index in its piece
//!   table (presses of A from the spawn orientation, 3 = one B), and the offsets of its 4x4
//!   box from where the piece spawns (x 3, y -1; -2 for the I), or from where it is when the
//!   `existing...` parameters say.
//! - Input sequences are one character a frame from the position: `.` nothing, `L` `R` `A`
//!   `B`, and a shift with a rotation as StackRabbit's generator and its Lua client read them
//!   (`E` left+A, `F` left+B, `I` right+A, `G` right+B), up to the frame the piece locks; then
//!   one character for each frame until the next piece can move, `^` for the frames of the
//!   line-clear animation and `*` for the others (counted by the engine, where StackRabbit
//!   estimates them).

use nestris_engine::{buttons, Orientation, PieceKind, PlayState};
use nestris_session::analysis::{self, Placement};

use crate::params::{FieldError, Request};
use crate::Response;

/// StackRabbit's rotations of each piece: the cells `(column, row)` of each 4x4 box.
fn rotations(kind: PieceKind) -> &'static [[(i8, i8); 4]] {
    match kind {
        PieceKind::I => &[
            [(0, 2), (1, 2), (2, 2), (3, 2)],
            [(2, 0), (2, 1), (2, 2), (2, 3)],
        ],
        PieceKind::J => &[
            [(1, 1), (2, 1), (3, 1), (3, 2)],
            [(2, 0), (2, 1), (1, 2), (2, 2)],
            [(1, 0), (1, 1), (2, 1), (3, 1)],
            [(2, 0), (3, 0), (2, 1), (2, 2)],
        ],
        PieceKind::L => &[
            [(1, 1), (2, 1), (3, 1), (1, 2)],
            [(1, 0), (2, 0), (2, 1), (2, 2)],
            [(3, 0), (1, 1), (2, 1), (3, 1)],
            [(2, 0), (2, 1), (2, 2), (3, 2)],
        ],
        PieceKind::O => &[[(1, 1), (2, 1), (1, 2), (2, 2)]],
        PieceKind::S => &[
            [(2, 1), (3, 1), (1, 2), (2, 2)],
            [(2, 0), (2, 1), (3, 1), (3, 2)],
        ],
        PieceKind::T => &[
            [(1, 1), (2, 1), (3, 1), (2, 2)],
            [(2, 0), (1, 1), (2, 1), (2, 2)],
            [(2, 0), (1, 1), (2, 1), (3, 1)],
            [(2, 0), (2, 1), (3, 1), (2, 2)],
        ],
        PieceKind::Z => &[
            [(1, 1), (2, 1), (2, 2), (3, 2)],
            [(3, 0), (2, 1), (3, 1), (2, 2)],
        ],
    }
}

/// Where StackRabbit's box starts: x 3, y -1 (-2 for the I).
fn initial(kind: PieceKind) -> (i8, i8) {
    (3, if kind == PieceKind::I { -2 } else { -1 })
}

/// StackRabbit's rotation index and box corner of a piece at `(o, x, y)` (cells matched
/// against its table).
fn sr_pose(o: Orientation, x: i8, y: i8) -> (usize, i8, i8) {
    let mut cells: Vec<(i8, i8)> = o.minos().iter().map(|&(dx, dy)| (x + dx, y + dy)).collect();
    cells.sort_unstable();
    for (r, shape) in rotations(o.kind()).iter().enumerate() {
        let mut s: Vec<(i8, i8)> = shape.to_vec();
        s.sort_unstable();
        let (bx, by) = (cells[0].0 - s[0].0, cells[0].1 - s[0].1);
        if s.iter()
            .zip(&cells)
            .all(|(a, b)| (a.0 + bx, a.1 + by) == *b)
        {
            return (r, bx, by);
        }
    }
    // Every orientation is in the table (tested); this is not reached.
    (0, x - 2, y - 1)
}

/// The piece at StackRabbit's rotation `r` with its box corner at `(bx, by)`, as an
/// orientation and centre; `None` for a rotation the piece does not have.
fn from_sr_pose(kind: PieceKind, r: usize, bx: i8, by: i8) -> Option<(Orientation, i8, i8)> {
    let shape = rotations(kind).get(r)?;
    let mut cells: Vec<(i8, i8)> = shape.iter().map(|&(cx, cy)| (cx + bx, cy + by)).collect();
    cells.sort_unstable();
    Orientation::ALL
        .iter()
        .copied()
        .filter(|o| o.kind() == kind)
        .find_map(|o| {
            let mut m: Vec<(i8, i8)> = o.minos().to_vec();
            m.sort_unstable();
            let (x, y) = (cells[0].0 - m[0].0, cells[0].1 - m[0].1);
            m.iter()
                .zip(&cells)
                .all(|(a, b)| (a.0 + x, a.1 + y) == *b)
                .then_some((o, x, y))
        })
}

/// StackRabbit's `[rotation, xOffset, yOffset]` of a lock, from the spawn.
pub fn placement(o: Orientation, x: i8, y: i8) -> [i8; 3] {
    placement_from(o, x, y, (0, 0, 0))
}

/// StackRabbit's `[rotation, xOffset, yOffset]` of a lock, from the pose `origin` (rotation
/// index and box offsets from the spawn, as its `existing...` parameters give them).
fn placement_from(o: Orientation, x: i8, y: i8, origin: (usize, i8, i8)) -> [i8; 3] {
    let (r, bx, by) = sr_pose(o, x, y);
    let n = rotations(o.kind()).len();
    let (ix, iy) = initial(o.kind());
    [
        ((r + n - origin.0 % n) % n) as i8,
        bx - ix - origin.1,
        by - iy - origin.2,
    ]
}

/// One frame's buttons in StackRabbit's alphabet.
fn frame_char(b: u8) -> char {
    let (l, r) = (b & buttons::LEFT != 0, b & buttons::RIGHT != 0);
    let (a, bb) = (b & buttons::A != 0, b & buttons::B != 0);
    match (l, r, a, bb) {
        (true, _, true, _) => 'E',
        (true, _, _, true) => 'F',
        (true, _, _, _) => 'L',
        (_, true, true, _) => 'I',
        (_, true, _, true) => 'G',
        (_, true, _, _) => 'R',
        (_, _, true, _) => 'A',
        (_, _, _, true) => 'B',
        _ => '.',
    }
}

/// A board as StackRabbit writes it: 200 characters of `0`/`1`.
fn board_string(rows: &[u16; 20]) -> String {
    rows.iter()
        .flat_map(|&r| (0..10).map(move |x| if r & (1 << x) != 0 { '1' } else { '0' }))
        .collect()
}

const HALF_ROW_LETTERS: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyzABCDEF";

/// A board in StackRabbit's compressed form (`15,CaEa,3`): the empty rows on top, two
/// letters a row (five cells each, the leftmost the high bit), the rows at the bottom full
/// but for the right column.
pub fn compress_board(rows: &[u16; 20]) -> String {
    let well = 0x1ff; // columns 0-8
    let top = rows.iter().take_while(|&&r| r == 0).count();
    let bottom = 20 - rows[top..].iter().rev().take_while(|&&r| r == well).count();
    let bits =
        |r: u16, from: usize| (0..5).fold(0usize, |v, x| v << 1 | (r >> (from + x) & 1) as usize);
    let mut s = format!("{top},");
    for &r in &rows[top..bottom] {
        s.push(HALF_ROW_LETTERS[bits(r, 0)] as char);
        s.push(HALF_ROW_LETTERS[bits(r, 5)] as char);
    }
    s + &format!(",{}", 20 - bottom)
}

/// Reads StackRabbit's compressed board (`15,CaEa,3`) into 200 characters of `0`/`1`.
pub fn decompress_board(s: &str) -> Result<String, String> {
    let parts: Vec<&str> = s.split(',').collect();
    let [empty, halves, wells] = parts[..] else {
        return Err("a compressed board is EMPTY_ROWS,LETTERS,FULL_WELL_ROWS".into());
    };
    let empty: usize = empty
        .trim()
        .parse()
        .map_err(|_| format!("{empty:?} is not a row count"))?;
    let wells: usize = wells
        .trim()
        .parse()
        .map_err(|_| format!("{wells:?} is not a row count"))?;
    if halves.len() % 2 != 0 {
        return Err("the letters come in pairs (half a row each)".into());
    }
    if empty > 20 || wells > 20 || halves.len() > 40 {
        return Err("a compressed board has 20 rows".into());
    }
    let mut out = "0".repeat(10 * empty);
    for c in halves.chars() {
        let v = HALF_ROW_LETTERS
            .iter()
            .position(|&l| l as char == c)
            .ok_or_else(|| format!("{c:?} is not a half-row letter (a-z, A-F)"))?;
        for bit in (0..5).rev() {
            out.push(if v >> bit & 1 == 1 { '1' } else { '0' });
        }
    }
    for _ in 0..wells {
        out.push_str("1111111110");
    }
    if out.len() != 200 {
        return Err(format!(
            "the compressed board makes {} rows, not 20",
            out.len() / 10
        ));
    }
    Ok(out)
}

/// Parameters as name and value.
type Pairs = Vec<(String, String)>;

/// What a StackRabbit request holds beside the question.
#[derive(Debug)]
struct Extra {
    /// `secondBoard`, raw.
    second: Option<String>,
    /// The pose the piece starts from: StackRabbit's rotation index and box offsets.
    origin: (usize, i8, i8),
    /// `playoutCount`, `playoutLength`.
    playouts: (usize, usize),
}

fn int(field: &'static str, v: &str) -> Result<i64, FieldError> {
    v.trim().parse::<i64>().map_err(|_| FieldError {
        field,
        message: format!("{v:?} is not a whole number"),
    })
}

fn range(field: &'static str, v: &str, lo: i64, hi: i64) -> Result<i64, FieldError> {
    let n = int(field, v)?;
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(FieldError {
            field,
            message: format!("{n} is out of range: {lo} to {hi}"),
        })
    }
}

/// StackRabbit's parameters as ours, and what the routes need beside.
fn our_pairs(pairs: &[(String, String)]) -> Result<(Pairs, Extra), FieldError> {
    let mut out = Vec::new();
    let mut extra = Extra {
        second: None,
        origin: (0, 0, 0),
        playouts: (49, 2),
    };
    let mut frames = None;
    for (k, v) in pairs {
        // StackRabbit removes every space from the request.
        let v = v.replace(char::is_whitespace, "");
        match k.as_str() {
            "board" | "secondBoard" => {
                let field = if k == "board" { "board" } else { "secondBoard" };
                let b = if v.contains(',') {
                    decompress_board(&v).map_err(|e| FieldError { field, message: e })?
                } else {
                    v
                };
                if k == "board" {
                    out.push(("board".to_string(), b));
                } else {
                    extra.second = Some(b);
                }
            }
            // StackRabbit's limits: x -5..4, y 0..20, frames 0..999, rotation 0..4.
            "existingXOffset" => extra.origin.1 = range("existingXOffset", &v, -5, 4)? as i8,
            "existingYOffset" => extra.origin.2 = range("existingYOffset", &v, 0, 20)? as i8,
            "existingRotation" => extra.origin.0 = range("existingRotation", &v, 0, 3)? as usize,
            "existingFramesElapsed" => {
                frames = Some(range("existingFramesElapsed", &v, 0, 999)? as u32)
            }
            "playoutCount" => extra.playouts.0 = range("playoutCount", &v, 0, 9604)? as usize,
            "playoutLength" => extra.playouts.1 = range("playoutLength", &v, 0, 20)? as usize,
            "pruningBreadth" => {
                range("pruningBreadth", &v, 0, 1156)?;
            }
            "lookaheadDepth" => {
                range("lookaheadDepth", &v, 0, 1)?;
            }
            "arrWasReset" => {}
            _ => out.push((k.clone(), v)),
        }
    }
    if extra.playouts.0 * extra.playouts.1 > 9604 {
        return Err(FieldError {
            field: "playoutCount",
            message: format!(
                "playout volume (count x length) {} exceeds the limit of 9604 moves",
                extra.playouts.0 * extra.playouts.1
            ),
        });
    }
    // StackRabbit has no default for these.
    for (name, ours) in [
        ("board", "board"),
        ("currentPiece", "currentPiece"),
        ("level", "level"),
        ("lines", "lines"),
        ("inputFrameTimeline", "inputFrameTimeline"),
    ] {
        if !out.iter().any(|(k, _)| k == ours) {
            return Err(FieldError {
                field: name,
                message: "missing (StackRabbit's routes need board, currentPiece, level, lines and inputFrameTimeline)".into(),
            });
        }
    }
    // StackRabbit answers without a reaction unless one is given.
    if !pairs
        .iter()
        .any(|(k, _)| k == "reactionTime" || k == "reaction")
    {
        out.push(("reaction".into(), "0".into()));
    }
    if frames.is_some() || extra.origin != (0, 0, 0) {
        out.push(("elapsed".into(), frames.unwrap_or(0).to_string()));
        // The pose as ours: filled in once the piece is known (see `answer`).
        out.push(("at".into(), "pending".into()));
    }
    Ok((out, extra))
}

/// The frames after the lock until the next piece can move: `^` for the line-clear
/// animation, `*` for the others (the engine's own count).
fn after_lock(q: &analysis::Query, inputs: &[u8]) -> String {
    let Ok((mut g, _)) = analysis::root(q) else {
        return String::new();
    };
    for &b in inputs {
        g.step(b);
    }
    let mut s = String::new();
    for _ in 0..600 {
        if g.play_state == PlayState::PlayerControlsActiveTetrimino || g.game_over() {
            break;
        }
        s.push(if g.play_state == PlayState::LineClearAnimation {
            '^'
        } else {
            '*'
        });
        g.step(0);
    }
    s
}

fn format_possibility(q: &analysis::Query, p: &Placement, origin: (usize, i8, i8)) -> String {
    let [r, x, y] = placement_from(p.orientation, p.x, p.y, origin);
    let mut inputs: String = p.inputs.iter().map(|&b| frame_char(b)).collect();
    inputs.push_str(&after_lock(q, &p.inputs));
    format!(
        "{r},{x},{y}|{}|{}|{}|{}",
        if inputs.is_empty() {
            "none".to_string()
        } else {
            inputs
        },
        board_string(&p.board),
        p.level,
        p.lines
    )
}

/// A 400 naming the field by StackRabbit's name.
fn error(e: &FieldError) -> Response {
    let field = e.field().map(|f| match f {
        "piece" => "currentPiece",
        "next" => "nextPiece",
        "hz" => "inputFrameTimeline",
        "reaction" => "reactionTime",
        "elapsed" | "at" => "existingFramesElapsed",
        f => f,
    });
    Response::error(400, field, &e.message)
}

/// The piece sequences of the playouts: every sequence when the count is all of them at that
/// length (as StackRabbit does: 7x1, 49x2, 343x3, 2401x4), otherwise sequences dealt by the
/// NES picker after `last` from fixed seeds (StackRabbit draws them from a fixed list).
fn playout_sequences(count: usize, length: usize, last: PieceKind) -> Vec<Vec<PieceKind>> {
    // StackRabbit's piece order.
    const ORDER: [PieceKind; 7] = [
        PieceKind::I,
        PieceKind::O,
        PieceKind::L,
        PieceKind::J,
        PieceKind::T,
        PieceKind::S,
        PieceKind::Z,
    ];
    let exhaustive = (1..=4).any(|l| length == l && count == 7usize.pow(l as u32));
    (0..count)
        .map(|i| {
            if exhaustive {
                let mut n = i;
                let mut seq = vec![PieceKind::I; length];
                for slot in seq.iter_mut().rev() {
                    *slot = ORDER[n % 7];
                    n /= 7;
                }
                seq
            } else {
                use nestris_engine::rng;
                let mut v = rng::advance(rng::POWER_ON_SEED, (i as u32 * 7919) % rng::PERIOD + 1);
                let (mut id, mut n) = (last.spawn() as u8, 0u8);
                (0..length)
                    .map(|_| {
                        let p = rng::pick(v, id, n);
                        (id, n) = (p.spawn_id, p.spawn_count);
                        v = rng::advance(p.rng, 47);
                        Orientation::from_id(id).map_or(PieceKind::T, Orientation::kind)
                    })
                    .collect()
            }
        })
        .collect()
}

fn lock_json(o: Orientation, x: i8, y: i8) -> String {
    let [r, x, y] = placement(o, x, y);
    format!("[{r},{x},{y}]")
}

/// `engine-movelist-cpp`: the best five moves, each played out, in StackRabbit's format.
fn movelist(req: &Request, a: &analysis::Answer, playouts: (usize, usize)) -> Response {
    let q = &req.query;
    let next = q.position.next;
    let mut seen = Vec::new();
    let mut moves: Vec<(f64, String)> = Vec::new();
    for p in &a.placements {
        if moves.len() >= 5 {
            break;
        }
        if seen.contains(&(p.orientation, p.x, p.y)) {
            continue;
        }
        seen.push((p.orientation, p.x, p.y));
        let mut steps = vec![analysis::Step::Lock(p.orientation, p.x, p.y)];
        if let Some(n) = next {
            steps.push(analysis::Step::Greedy(n));
        }
        let Ok(head) = analysis::line(q, &steps) else {
            continue;
        };
        let origin_steps = steps.len();
        let last = *head.pieces.last().unwrap_or(&q.position.piece);
        let mut lines = Vec::new();
        let mut total = 0.0;
        let (count, length) = playouts;
        if count * length > 0 && !head.topped_out {
            let tails: Vec<Vec<analysis::Step>> = playout_sequences(count, length, last)
                .into_iter()
                .map(|seq| seq.into_iter().map(analysis::Step::Greedy).collect())
                .collect();
            for l in analysis::lines(q, &steps, &tails).unwrap_or_default() {
                total += l.value;
                if !l.topped_out {
                    lines.push(l);
                }
            }
        }
        let (score, shown) = if count * length == 0 {
            (-head.value, Vec::new())
        } else {
            (-total / count as f64, lines)
        };
        if count * length > 0 && shown.is_empty() {
            // As StackRabbit: a move with no playout that survives is left out.
            continue;
        }
        let mut shown = shown;
        shown.sort_by(|a, b| a.value.total_cmp(&b.value));
        let mut e = format!(
            "{{\"firstPlacement\":{}",
            lock_json(p.orientation, p.x, p.y)
        );
        if let (Some(_), Some(&(o, x, y))) = (next, head.locks.get(1)) {
            e += &format!(", \"secondPlacement\":{}", lock_json(o, x, y));
        }
        e += &format!(
            ", \"playoutScore\":{score:.2}, \"shallowEvalScore\":{:.2}, \"resultingBoard\":\"{}\"",
            -p.value,
            compress_board(&head.board)
        );
        if !shown.is_empty() {
            let len = shown.len();
            for (k, i) in [
                0,
                len / 6,
                len / 3,
                len / 2,
                len * 2 / 3,
                len * 5 / 6,
                len - 1,
            ]
            .into_iter()
            .enumerate()
            {
                let l = &shown[i];
                let pieces: String = l.pieces[origin_steps..]
                    .iter()
                    .map(|k| k.letter())
                    .collect();
                let locks: Vec<String> = l.locks[origin_steps..]
                    .iter()
                    .map(|&(o, x, y)| lock_json(o, x, y))
                    .collect();
                e += &format!(
                    ", \"playout{}\":{{ \"pieceSequence\":\"{pieces}\", \"placements\": [{} ], \"resultingBoard\":\"{}\",  \"score\":{:.2} }}",
                    k + 1,
                    locks.join(","),
                    compress_board(&l.board),
                    -l.value
                );
            }
        }
        e += " }";
        // Best first; equal scores keep their order.
        let at = moves
            .iter()
            .position(|(s, _)| score > *s)
            .unwrap_or(moves.len());
        moves.insert(at, (score, e));
    }
    let body: Vec<String> = moves.into_iter().map(|(_, e)| e).collect();
    Response::text(200, &format!("[{}]", body.join(",")))
}

/// Answers StackRabbit's `route` (without the slash) with its parameters.
pub fn answer(route: &str, pairs: &[(String, String)]) -> Response {
    let (mut ours, extra) = match our_pairs(pairs) {
        Ok(x) => x,
        Err(e) => return error(&e),
    };
    // The pose the piece is in, as ours (`existing...`).
    if let Some(i) = ours.iter().position(|(k, v)| k == "at" && v == "pending") {
        let kind = ours
            .iter()
            .rev()
            .find(|(k, _)| k == "currentPiece")
            .and_then(|(_, v)| {
                let mut c = v.chars();
                match (c.next(), c.next()) {
                    (Some(ch), None) => PieceKind::from_letter(ch.to_ascii_uppercase()),
                    _ => None,
                }
            });
        if let Some(kind) = kind {
            let (r, dx, dy) = extra.origin;
            let (ix, iy) = initial(kind);
            match from_sr_pose(kind, r, ix + dx, iy + dy) {
                Some((o, x, y)) if (0..10).contains(&x) && (0..20).contains(&y) => {
                    ours[i].1 = format!("{o:?},{x},{y}");
                }
                None => {
                    return error(&FieldError {
                        field: "existingRotation",
                        message: format!(
                            "the {} piece has rotations 0 to {}, not {r}",
                            kind.letter(),
                            rotations(kind).len() - 1
                        ),
                    })
                }
                Some(_) => {
                    return error(&FieldError {
                        field: "existingXOffset",
                        message: format!(
                            "the {} piece at rotation {r}, offsets {dx},{dy} is off the board",
                            kind.letter()
                        ),
                    })
                }
            }
        } else {
            // The piece is missing or unknown: the parser says so.
            ours.remove(i);
            ours.retain(|(k, _)| k != "elapsed");
        }
    }
    let req = match Request::from_pairs(&ours, false) {
        Ok(r) => r,
        Err(e) => return error(&e),
    };
    let a = match analysis::analyse(&req.query) {
        Ok(a) => a,
        Err(e) => {
            let field = match e {
                analysis::AnalysisError::Progress(_) => "existingFramesElapsed",
                _ => "board",
            };
            return Response::error(400, Some(field), &e.to_string());
        }
    };
    match route {
        "get-move" | "get-move-cpp" => Response::text(
            200,
            &format_possibility(&req.query, &a.placements[0], extra.origin),
        ),
        "engine-movelist-cpp" => movelist(&req, &a, extra.playouts),
        _ => rate_move(route, &req, &a, extra.second),
    }
}

/// `rate-move` and `rate-move-cpp`: the player's move is the lock whose board is
/// `secondBoard`.
fn rate_move(route: &str, req: &Request, a: &analysis::Answer, second: Option<String>) -> Response {
    let Some(second) = second else {
        return Response::error(
            400,
            Some("secondBoard"),
            "missing: the board after the player's move",
        );
    };
    let find = |a: &analysis::Answer| {
        a.placements
            .iter()
            .find(|p| board_string(&p.board) == second)
            .map(|p| -p.value)
    };
    let player_adj = find(a);
    let best_adj = -a.placements[0].value;
    let has_next = req.query.position.next.is_some();
    // Without the next piece: the expectation over the seven.
    let (player_no, best_no) = if has_next {
        let mut q = req.query.clone();
        q.position.next = None;
        match analysis::analyse(&q) {
            Ok(b) => (find(&b), -b.placements[0].value),
            Err(e) => return Response::error(400, Some("board"), &e.to_string()),
        }
    } else {
        (player_adj, best_adj)
    };
    if route == "rate-move-cpp" {
        let (Some(player_no), Some(player_adj)) = (player_no, player_adj) else {
            return Response::error(
                400,
                Some("secondBoard"),
                "player move not found: no reachable move leaves this board",
            );
        };
        let mut s = format!(
            "{{\"playerMoveNoAdjustment\":{player_no:.6}, \"bestMoveNoAdjustment\":{best_no:.6}"
        );
        if has_next {
            s.push_str(&format!(
                ", \"playerMoveAfterAdjustment\":{player_adj:.6}, \"bestMoveAfterAdjustment\":{best_adj:.6}"
            ));
        }
        Response::text(200, &(s + "}"))
    } else {
        // As StackRabbit: a move it cannot find has an unknown score.
        let f = |v: Option<f64>| v.map_or("Unknown score".to_string(), |v| format!("{v:.2}"));
        // JSON.stringify's order and spacing.
        let mut s = format!(
            "{{\"playerMoveNoAdjustment\":\"{}\",\"bestMoveNoAdjustment\":\"{}\"",
            f(player_no),
            f(Some(best_no))
        );
        if has_next {
            s.push_str(&format!(
                ",\"playerMoveAfterAdjustment\":\"{}\",\"bestMoveAfterAdjustment\":\"{}\"",
                f(player_adj),
                f(Some(best_adj))
            ));
        }
        Response::text(200, &(s + "}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spawn_orientations_are_rotation_0_at_no_offset() {
        for kind in PieceKind::ALL {
            assert_eq!(placement(kind.spawn(), 5, 0), [0, 0, 0], "{kind:?}");
        }
        // One A press from the spawn is rotation 1; one B is 3.
        assert_eq!(placement(Orientation::Td.cw(), 5, 0)[0], 1);
        assert_eq!(placement(Orientation::Td.ccw(), 5, 0)[0], 3);
        // The I upright in the right column, on the floor: its box at columns 7-10, rows 16-19.
        assert_eq!(placement(Orientation::Iv, 9, 18), [1, 4, 18]);
    }

    #[test]
    fn poses_read_back() {
        for o in Orientation::ALL {
            for (x, y) in [(5, 0), (1, 18), (8, 10)] {
                let (r, bx, by) = sr_pose(o, x, y);
                assert_eq!(from_sr_pose(o.kind(), r, bx, by), Some((o, x, y)), "{o:?}");
            }
        }
        assert_eq!(from_sr_pose(PieceKind::O, 1, 3, -1), None);
        // From a pose: the rotation and offsets count from there.
        let (r, bx, by) = sr_pose(Orientation::Tr, 4, 3);
        let (ix, iy) = initial(PieceKind::T);
        assert_eq!(
            placement_from(Orientation::Tr, 4, 3, (r, bx - ix, by - iy)),
            [0, 0, 0]
        );
    }

    #[test]
    fn compressed_boards_read_back() {
        let raw = decompress_board("15,CaEa,3").expect("valid");
        let mut rows = [0u16; 20];
        for (y, row) in raw.as_bytes().chunks(10).enumerate() {
            for (x, &c) in row.iter().enumerate() {
                rows[y] |= u16::from(c == b'1') << x;
            }
        }
        assert_eq!(compress_board(&rows), "15,CaEa,3");
        assert_eq!(compress_board(&[0; 20]), "20,,0");
        assert_eq!(
            decompress_board("20,,0").as_deref(),
            Ok("0".repeat(200).as_str())
        );
        assert_eq!(compress_board(&[0x1ff; 20]), "0,,20");
    }

    #[test]
    fn compressed_boards() {
        let b = decompress_board("15,CaEa,3").expect("valid");
        assert_eq!(b.len(), 200);
        assert!(b.starts_with(&"0".repeat(150)));
        assert_eq!(&b[150..160], "1110000000");
        assert_eq!(&b[160..170], "1111000000");
        assert_eq!(&b[170..], "1111111110".repeat(3));
        assert!(decompress_board("15,Ca,3").is_err());
        assert!(decompress_board("x").is_err());
    }
}
