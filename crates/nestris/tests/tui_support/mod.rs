//! Shared by the terminal UI tests: a scripted player that produces games with line clears
//! (so the tests do not depend on the AI, which keeps improving), replay files, and text
//! snapshots.

#![allow(dead_code)]

pub use nestris_session::replayfile;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use nestris_engine::{buttons, Game, GameType, StartConfig};
use replayfile::{Meta, Outcome, Replay};

/// The binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_nestris")
}

/// Runs the binary with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .env_remove("COLORTERM")
        .output()
        .expect("run nestris")
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("nestris-tui-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The inputs of one scripted piece: `rot` A taps and `shift` taps (negative: left) on
/// alternate frames, then Down held until the piece locks.
fn script(frame: usize, rot: usize, shift: i32) -> u8 {
    let taps = rot.max(shift.unsigned_abs() as usize);
    if frame < 2 * taps {
        if frame % 2 == 1 {
            return 0;
        }
        let k = frame / 2;
        let mut b = 0;
        if k < rot {
            b |= buttons::A;
        }
        if k < shift.unsigned_abs() as usize {
            b |= if shift < 0 {
                buttons::LEFT
            } else {
                buttons::RIGHT
            };
        }
        return b;
    }
    buttons::DOWN
}

fn evaluate(g: &Game, lines_gained: i32) -> f64 {
    let mut heights = [0i32; 10];
    let mut holes = 0;
    for (x, h) in heights.iter_mut().enumerate() {
        let mut seen = false;
        for y in 0..20 {
            let filled = g.playfield.occupied_at(x, y);
            if filled && !seen {
                seen = true;
                *h = 20 - y as i32;
            } else if !filled && seen {
                holes += 1;
            }
        }
    }
    let agg: i32 = heights.iter().sum();
    let bump: i32 = heights.windows(2).map(|w| (w[0] - w[1]).abs()).sum();
    -0.51 * agg as f64 + 0.76 * lines_gained as f64 - 0.36 * holes as f64 - 0.18 * bump as f64
}

/// Plays the current piece greedily: returns the inputs from now until the next piece is
/// under control (or the game is over).
fn best_piece(g: &Game) -> Vec<u8> {
    let lines_of = |g: &Game| -> i32 {
        if g.game_type == GameType::B {
            25 - g.lines_value() as i32
        } else {
            g.lines_value() as i32
        }
    };
    let mut best: Option<(f64, Vec<u8>)> = None;
    for rot in 0..4 {
        for shift in -5..=5 {
            let mut sim = *g;
            let mut inputs = Vec::new();
            let mut locked = false;
            for f in 0..2000 {
                let b = if locked { 0 } else { script(f, rot, shift) };
                sim.step(b);
                inputs.push(b);
                if sim.game_over() || sim.ended() {
                    break;
                }
                if !sim.piece_active() {
                    locked = true;
                } else if locked {
                    break;
                }
            }
            let score = if sim.game_over() {
                -1e9
            } else if sim.ended() {
                1e9
            } else {
                evaluate(&sim, lines_of(&sim) - lines_of(g))
            };
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, inputs));
            }
        }
    }
    best.map(|b| b.1).unwrap_or_else(|| vec![0])
}

/// A game played by the scripted player until `stop` says so (checked every frame) or the
/// game ends; returns the inputs.
pub fn scripted_game(
    start: StartConfig,
    mut stop: impl FnMut(&Game) -> bool,
    max_frames: usize,
) -> Vec<u8> {
    let mut g = Game::start(start);
    let mut inputs = Vec::new();
    // The game's first frame (initialisation).
    g.step(0);
    inputs.push(0);
    while inputs.len() < max_frames && !g.ended() && !stop(&g) {
        if g.game_over() {
            let b = if inputs.len() % 2 == 0 {
                buttons::START
            } else {
                0
            };
            g.step(b);
            inputs.push(b);
            continue;
        }
        if !g.piece_active() {
            g.step(0);
            inputs.push(0);
            continue;
        }
        let plan = best_piece(&g);
        for b in plan {
            g.step(b);
            inputs.push(b);
            if stop(&g) || g.ended() {
                break;
            }
        }
    }
    inputs
}

/// The game after `inputs`.
pub fn replay_game(start: StartConfig, inputs: &[u8]) -> Game {
    let mut g = Game::start(start);
    for &b in inputs {
        g.step(b);
    }
    g
}

/// Writes a replay of `inputs` from `start` to `path`.
pub fn write_replay(path: &Path, start: StartConfig, inputs: &[u8]) -> Replay {
    let g = replay_game(start, inputs);
    let r = Replay {
        start,
        classic: None,
        departures: Default::default(),
        meta: Meta {
            seed: 42,
            ..Meta::default()
        },
        outcome: Some(Outcome {
            score: g.score,
            lines: g.lines,
            level: g.level,
            ending: g.ending as u8,
        }),
        inputs: inputs.to_vec(),
    };
    std::fs::write(path, r.encode()).expect("write replay");
    r
}

/// `nestris replay --screen N --size WxH FILE`, the screen text.
pub fn screen(file: &Path, frame: u64, size: &str) -> String {
    let out = run(&[
        "replay",
        "--screen",
        &frame.to_string(),
        "--size",
        size,
        file.to_str().expect("utf-8 path"),
    ]);
    assert!(
        out.status.success(),
        "replay --screen failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8 screen");
    // Drop the "--- frame N ---" header.
    text.split_once('\n')
        .map(|x| x.1.to_string())
        .unwrap_or_default()
}

/// Compares `text` with `tests/snapshots/NAME.txt`; `UPDATE_SNAPSHOTS=1` rewrites the file.
pub fn assert_snapshot(name: &str, text: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("snapshot dir");
        std::fs::write(&path, text).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "snapshot {} is missing; run the tests with UPDATE_SNAPSHOTS=1 to create it.\nscreen:\n{text}",
            path.display()
        )
    });
    if expected != text {
        let mut diff = String::new();
        for (i, (a, b)) in expected.lines().zip(text.lines()).enumerate() {
            if a != b {
                diff.push_str(&format!(
                    "row {i:2} expected: {a}\nrow {i:2}   actual: {b}\n"
                ));
            }
        }
        panic!(
            "screen differs from snapshot {} (UPDATE_SNAPSHOTS=1 accepts the new screen):\n{diff}\nactual screen:\n{text}",
            path.display()
        );
    }
}
