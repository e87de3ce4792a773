//! StackRabbit-compatible routes, so a client can switch servers by changing the URL:
//! `get-move`, `get-move-cpp`, `rate-move`, `rate-move-cpp`, `engine-movelist-cpp` (and
//! `ping`). Their parameters and answer formats are transcribed from StackRabbit's server
//! (`src/server/request_parser.ts`, `formatPossibility` in `src/server/utils.ts`,
//! `generateInputSequence` in `board_helper.ts`, `formatting.hpp`); the values are this
//! project's.
//!
//! - Parameters: `board` (200 characters of `0`/`1`, or the compressed form
//!   `EMPTY_ROWS,HALF_ROW_LETTERS,FULL_WELL_ROWS`), `currentPiece`, `nextPiece`, `level` (every
//!   level 0-255, unlike StackRabbit), `lines`, `inputFrameTimeline` (`X`, `.` or `-`),
//!   `reactionTime`, `secondBoard` (rate-move: the board after the player's move). Others
//!   are accepted and ignored.
//! - A lock is StackRabbit's `[rotation, xOffset, yOffset]`: the rotation index in its piece
//!   table (presses of A from the spawn orientation, 3 = one B), and the offsets of its 4x4
//!   box from where the piece spawns (x 3, y -1; -2 for the I).
//! - Input sequences are one character a frame: `.` nothing, `L` `R` `A` `B`, and left or
//!   right with a rotation as StackRabbit's generator writes them (`E` left+A, `F` left+B,
//!   `I` right+A, `G` right+B); they end on the frame the piece locks (StackRabbit appends
//!   `*` and `^` for the entry delay and the line clear).
//! - Values: StackRabbit's are higher-is-better; ours are the AI's costs negated.
//!   `engine-movelist-cpp` has no playouts (this AI does not play them out): each entry has
//!   `firstPlacement`, `secondPlacement` (with a next piece), `playoutScore` and
//!   `shallowEvalScore` (both the two-ply value) and `resultingBoard`.

use nestris_engine::{buttons, Orientation, PieceKind};
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

/// StackRabbit's `[rotation, xOffset, yOffset]` of a lock (cells matched against its table).
pub fn placement(o: Orientation, x: i8, y: i8) -> [i8; 3] {
    let mut cells: Vec<(i8, i8)> = o.minos().iter().map(|&(dx, dy)| (x + dx, y + dy)).collect();
    cells.sort_unstable();
    let kind = o.kind();
    let (ix, iy) = initial(kind);
    for (r, shape) in rotations(kind).iter().enumerate() {
        let mut s: Vec<(i8, i8)> = shape.to_vec();
        s.sort_unstable();
        let (bx, by) = (cells[0].0 - s[0].0, cells[0].1 - s[0].1);
        if s.iter()
            .zip(&cells)
            .all(|(a, b)| (a.0 + bx, a.1 + by) == *b)
        {
            return [r as i8, bx - ix, by - iy];
        }
    }
    [0, x - 5, y]
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
    let mut out = "0".repeat(10 * empty.min(20));
    for c in halves.chars() {
        let v = match c {
            'a'..='z' => c as u32 - 'a' as u32,
            'A'..='F' => c as u32 - 'A' as u32 + 26,
            _ => return Err(format!("{c:?} is not a half-row letter (a-z, A-F)")),
        };
        for bit in (0..5).rev() {
            out.push(if v >> bit & 1 == 1 { '1' } else { '0' });
        }
    }
    for _ in 0..wells.min(20) {
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

/// StackRabbit's parameters as ours, and its `secondBoard` (raw).
fn our_pairs(pairs: &[(String, String)]) -> Result<(Pairs, Option<String>), FieldError> {
    let mut out = Vec::new();
    let mut second = None;
    for (k, v) in pairs {
        let v = v.replace(' ', "");
        match k.as_str() {
            "board" | "secondBoard" => {
                let b = if v.contains(',') {
                    decompress_board(&v).map_err(|e| FieldError {
                        field: if k == "board" { "board" } else { "secondBoard" },
                        message: e,
                    })?
                } else {
                    v
                };
                if k == "board" {
                    out.push(("board".to_string(), b));
                } else {
                    second = Some(b);
                }
            }
            _ => out.push((k.clone(), v)),
        }
    }
    // StackRabbit answers without a reaction unless one is given.
    if !pairs
        .iter()
        .any(|(k, _)| k == "reactionTime" || k == "reaction")
    {
        out.push(("reaction".into(), "0".into()));
    }
    Ok((out, second))
}

fn format_possibility(p: &Placement) -> String {
    let [r, x, y] = placement(p.orientation, p.x, p.y);
    let inputs: String = p.inputs.iter().map(|&b| frame_char(b)).collect();
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

fn error(e: &FieldError) -> Response {
    Response::error(400, e.field(), &e.message)
}

/// Answers StackRabbit's `route` (without the slash) with its parameters.
pub fn answer(route: &str, pairs: &[(String, String)]) -> Response {
    let (ours, second) = match our_pairs(pairs) {
        Ok(x) => x,
        Err(e) => return error(&e),
    };
    let req = match Request::from_pairs(&ours, false) {
        Ok(r) => r,
        Err(e) => return error(&e),
    };
    let a = match analysis::analyse(&req.query) {
        Ok(a) => a,
        Err(e) => return Response::error(400, Some("board"), &e.to_string()),
    };
    match route {
        "get-move" | "get-move-cpp" => Response::text(200, &format_possibility(&a.placements[0])),
        "engine-movelist-cpp" => {
            let list: Vec<String> = a
                .placements
                .iter()
                .take(req.top.max(5))
                .map(|p| {
                    let [r, x, y] = placement(p.orientation, p.x, p.y);
                    format!(
                        "{{\"firstPlacement\":[{r},{x},{y}], \"playoutScore\":{:.2}, \"shallowEvalScore\":{:.2}, \"resultingBoard\":\"{}\"}}",
                        -p.value,
                        -p.value,
                        board_string(&p.board)
                    )
                })
                .collect();
            Response::text(200, &format!("[{}]", list.join(",")))
        }
        _ => {
            // rate-move: the player's move is the lock whose board is `secondBoard`.
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
            let Some(player_adj) = find(&a) else {
                return Response::error(
                    400,
                    Some("secondBoard"),
                    "no reachable move leaves this board",
                );
            };
            let best_adj = -a.placements[0].value;
            let has_next = req.query.position.next.is_some();
            // Without the next piece: the expectation over the seven.
            let (player_no, best_no) = if has_next {
                let mut q = req.query.clone();
                q.position.next = None;
                match analysis::analyse(&q) {
                    Ok(b) => (find(&b).unwrap_or(f64::MIN), -b.placements[0].value),
                    Err(e) => return Response::error(400, Some("board"), &e.to_string()),
                }
            } else {
                (player_adj, best_adj)
            };
            let body = if route == "rate-move-cpp" {
                let mut s = format!(
                    "{{\"playerMoveNoAdjustment\":{player_no:.6}, \"bestMoveNoAdjustment\":{best_no:.6}"
                );
                if has_next {
                    s.push_str(&format!(
                        ", \"playerMoveAfterAdjustment\":{player_adj:.6}, \"bestMoveAfterAdjustment\":{best_adj:.6}"
                    ));
                }
                s + "}"
            } else {
                let mut v = serde_json::json!({
                    "playerMoveNoAdjustment": format!("{player_no:.2}"),
                    "bestMoveNoAdjustment": format!("{best_no:.2}"),
                });
                if has_next {
                    v["playerMoveAfterAdjustment"] = format!("{player_adj:.2}").into();
                    v["bestMoveAfterAdjustment"] = format!("{best_adj:.2}").into();
                }
                v.to_string()
            };
            Response::text(200, &body)
        }
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
