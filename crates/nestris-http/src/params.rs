//! A request's parameters: from the query string (`?board=...&piece=T`) or a JSON object
//! body, with StackRabbit's names accepted too (`currentPiece`, `nextPiece`,
//! `inputFrameTimeline`, `reactionTime`). Every error names the field.

use nestris_ai::{AiConfig, InputModel, Weights};
use nestris_engine::{Orientation, PieceKind};
use nestris_session::analysis::{Progress, Query};
use nestris_session::position::{parse_orientation, Position};

/// A parameter that is missing, malformed or impossible.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct FieldError {
    /// The parameter (`""` for the request as a whole).
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

impl FieldError {
    /// The field, if the error is about one.
    pub fn field(&self) -> Option<&str> {
        (!self.field.is_empty()).then_some(self.field)
    }
}

fn bad(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

/// Percent-decoding (`%20`, `+` as a space); `None` for a bad escape or non-UTF-8 result.
fn decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let h = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                out.push(u8::from_str_radix(h, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The parameters of a request: the query string's, then the JSON object body's (strings,
/// numbers and booleans).
pub fn pairs(query: &str, body: &[u8]) -> Result<Vec<(String, String)>, FieldError> {
    let mut out = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let k = decode(k).ok_or_else(|| bad("", format!("bad escape in the query: {part:?}")))?;
        let v = decode(v).ok_or_else(|| bad("", format!("bad escape in the query: {part:?}")))?;
        out.push((k, v));
    }
    if body.iter().any(|b| !b.is_ascii_whitespace()) {
        let v: serde_json::Value = serde_json::from_slice(body)
            .map_err(|e| bad("", format!("the body is not JSON: {e}")))?;
        let Some(map) = v.as_object() else {
            return Err(bad("", "the body must be a JSON object of parameters"));
        };
        for (k, v) in map {
            let s = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                serde_json::Value::Null => continue,
                _ => {
                    return Err(bad(
                        "",
                        format!("parameter {k:?} must be a string, a number or a boolean"),
                    ))
                }
            };
            out.push((k.clone(), s));
        }
    }
    Ok(out)
}

/// A parsed `/v1/best` or `/v1/rate` request.
#[derive(Clone, Debug)]
pub struct Request {
    /// The question.
    pub query: Query,
    /// The tap speed as given.
    pub hz: String,
    /// Placements to answer.
    pub top: usize,
    /// The lock to rate (`/v1/rate`).
    pub lock: Option<(Orientation, u8, u8)>,
    /// Parameters not used (StackRabbit's others, or typos).
    pub ignored: Vec<String>,
}

fn piece(field: &'static str, v: &str) -> Result<PieceKind, FieldError> {
    let mut c = v.trim().chars();
    match (c.next(), c.next()) {
        (Some(ch), None) => PieceKind::from_letter(ch.to_ascii_uppercase()),
        _ => None,
    }
    .ok_or_else(|| {
        bad(
            field,
            format!("{v:?} is not a piece: use one of T J Z O S L I"),
        )
    })
}

fn number(field: &'static str, v: &str, max: u64) -> Result<u64, FieldError> {
    v.trim()
        .parse::<u64>()
        .ok()
        .filter(|&n| n <= max)
        .ok_or_else(|| bad(field, format!("{v:?} is not a number in 0..={max}")))
}

fn lock(field: &'static str, v: &str) -> Result<(Orientation, u8, u8), FieldError> {
    let parts: Vec<&str> = v.split(',').map(str::trim).collect();
    let [o, x, y] = parts[..] else {
        return Err(bad(
            field,
            format!("{v:?}: expected ORIENTATION,X,Y such as Tu,4,18"),
        ));
    };
    let o = parse_orientation(o)
        .ok_or_else(|| bad(field, format!("unknown orientation {o:?} (Tu Tr Td Tl Jl Ju Jr Jd Zh Zv O Sh Sv Lr Ld Ll Lu Iv Ih, or 0..=18)")))?;
    let x = number(field, x, 9)? as u8;
    let y = number(field, y, 19)? as u8;
    Ok((o, x, y))
}

fn default_weights() -> &'static Weights {
    static W: std::sync::OnceLock<Weights> = std::sync::OnceLock::new();
    W.get_or_init(Weights::default)
}

impl Request {
    /// Reads the parameters (`rate`: a `lock` is required).
    pub fn from_pairs(pairs: &[(String, String)], rate: bool) -> Result<Request, FieldError> {
        let mut board = None;
        let (mut cur, mut next) = (None, None);
        let (mut level, mut lines, mut score) = (18u8, 0u32, 0u64);
        let (mut hz, mut reaction, mut top) = ("30".to_string(), 18u32, 5usize);
        let (mut elapsed, mut at, mut lock_v) = (None, None, None);
        let mut double_killscreen = false;
        let mut line_cap = None;
        let mut weights = None;
        let mut ignored = Vec::new();
        for (k, v) in pairs {
            match k.as_str() {
                "board" => board = Some(v.clone()),
                "piece" | "currentPiece" => cur = Some(piece("piece", v)?),
                "next" | "nextPiece" => {
                    if !v.trim().is_empty() {
                        next = Some(piece("next", v)?);
                    }
                }
                "level" => level = number("level", v, 255)? as u8,
                "lines" => lines = number("lines", v, 9999)? as u32,
                "score" => score = number("score", v, 9_999_999)?,
                "hz" => hz = v.trim().to_string(),
                // StackRabbit's frame mask; `-` stands for `.` there.
                "inputFrameTimeline" => hz = v.trim().replace('-', "."),
                "reaction" | "reactionTime" => reaction = number("reaction", v, 600)? as u32,
                "top" => top = number("top", v, 200)?.max(1) as usize,
                "elapsed" => elapsed = Some(number("elapsed", v, 10_000)? as u32),
                "at" => at = Some(lock("at", v)?),
                "lock" => lock_v = Some(lock("lock", v)?),
                "double_killscreen" => {
                    double_killscreen = match v.trim() {
                        "true" | "1" | "" => true,
                        "false" | "0" => false,
                        _ => {
                            return Err(bad(
                                "double_killscreen",
                                format!("{v:?} is not true or false"),
                            ))
                        }
                    }
                }
                "line_cap" | "lineCap" => {
                    line_cap = Some(number("line_cap", v, 9999)? as u32).filter(|&c| c > 0)
                }
                "ai" => {
                    weights = Some(Weights::preset(v.trim()).map_err(|e| bad("ai", e.to_string()))?)
                }
                _ => ignored.push(k.clone()),
            }
        }
        let board = board.ok_or_else(|| bad("board", "missing (200 cells of 0/1 or ./#)"))?;
        let cur = cur.ok_or_else(|| bad("piece", "missing (T J Z O S L I)"))?;
        let input: InputModel = hz.parse().map_err(|e| bad("hz", format!("{e}")))?;
        let position = Position::from_parts(&board, cur, next, level, lines, score)
            .map_err(|e| bad("board", e))?;
        let progress = match (elapsed, at) {
            (Some(frames), Some((orientation, x, y))) => Some(Progress {
                frames,
                orientation,
                x,
                y,
            }),
            (None, None) => None,
            (Some(_), None) => return Err(bad("at", "missing: `elapsed` needs `at` (O,X,Y)")),
            (None, Some(_)) => {
                return Err(bad("elapsed", "missing: `at` needs `elapsed` (frames)"))
            }
        };
        if rate && lock_v.is_none() {
            return Err(bad(
                "lock",
                "missing: the lock to rate, as O,X,Y (e.g. Tu,4,18)",
            ));
        }
        Ok(Request {
            query: Query {
                position,
                ai: AiConfig {
                    input,
                    reaction,
                    weights: weights.unwrap_or_else(|| default_weights().clone()),
                    line_cap,
                    ..AiConfig::default()
                },
                double_killscreen,
                progress,
            },
            hz,
            top,
            lock: lock_v,
            ignored,
        })
    }
}
