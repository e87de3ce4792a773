//! Move search against the engine.
//!
//! - Property: every lock the search reports, fed to the engine as controller bytes, locks the
//!   piece exactly there (random boards, levels, tap speeds, first-piece hangs).
//! - Completeness: the set of locks equals the set found by brute force over the engine itself
//!   (every allowed input on every frame, states deduplicated on the engine's own variables).
//! - Perft: reachable-lock counts on named boards, pinned.

use std::collections::{BTreeSet, HashSet};

use nestris_ai::board;
use nestris_ai::{Board, InputModel, Search, Timing};
use nestris_engine::{buttons, Game, Orientation, PieceKind, PlayState, Playfield, Snapshot, Tile};

fn playfield(b: &Board) -> Playfield {
    let mut p = Playfield::new();
    for y in -2i32..20 {
        for x in 0..10i32 {
            if b.filled(x, y) {
                p.set(((y * 10 + x).rem_euclid(256)) as u8, Tile::Solid1);
            }
        }
    }
    p
}

fn game_at(b: &Board, o: Orientation, level: u8, fall_timer: u8, ary: i8) -> Game {
    Game::resume(&Snapshot {
        rng: 0x8988,
        spawn_id: o as u8,
        spawn_count: 0,
        frame_counter: 0,
        game_type: 0,
        start_height: 0,
        level,
        lines: 0,
        score: 0,
        piece: o as u8,
        next: Orientation::Td as u8,
        x: 5,
        y: 0,
        play_state: 1,
        fall_timer,
        das: 0,
        ary,
        hold_down_points: 0,
        vram_row: 32,
        game_over: false,
        paused: false,
        playfield: playfield(b),
    })
    .expect("valid snapshot")
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_board(r: &mut Rng) -> Board {
    let mut b = Board::new();
    let base = r.below(14) as i32;
    for x in 0..10 {
        let h = (base + r.below(7) as i32 - 3).clamp(0, 18);
        for y in (20 - h)..20 {
            if r.below(7) != 0 {
                b.rows[(y + 2) as usize] |= 1 << x;
            }
        }
    }
    // Occasional overhangs.
    for _ in 0..r.below(4) {
        let x = r.below(10) as usize;
        let y = 8 + r.below(10) as usize;
        b.rows[y + 2] |= 1 << x;
    }
    b.clear_lines();
    b
}

#[test]
fn every_lock_replays_exactly_in_the_engine() {
    let mut r = Rng(0x5eed_1234_abcd_0001);
    let models = [
        "X.",
        "X..",
        "X...",
        "X....",
        "X.....",
        "X..X....",
        "X.-spaced",
        "X..-spaced",
    ];
    let mut checked = 0usize;
    for case in 0..1500 {
        let b = random_board(&mut r);
        let o = PieceKind::ALL[r.below(7) as usize].spawn();
        let level = match r.below(4) {
            0 => r.below(19) as u8,
            1 => 18 + r.below(2) as u8,
            2 => 29 + r.below(30) as u8,
            _ => r.below(256) as u8,
        };
        let (fall_timer, ary) = if r.below(10) == 0 {
            (0, -(r.below(97) as i8))
        } else {
            (0, 0)
        };
        let model: InputModel = models[r.below(models.len() as u64) as usize]
            .parse()
            .unwrap();
        // The double killscreen (a departure) on in a third of the cases: it matters from 39.
        let double_killscreen = r.below(3) == 0;
        let timing = Timing {
            level,
            fall_timer,
            ary,
            double_killscreen,
        };
        let s = Search::run(&b, 5, o as u8, 0, timing, &model, 0);
        for li in 0..s.locks.len() {
            let lock = s.locks[li];
            let plan = if li % 2 == 0 {
                s.plan_to_lock(li)
            } else {
                s.plan_eager(li)
            };
            let mut g = game_at(&b, o, level, fall_timer, ary);
            g.set_double_killscreen(double_killscreen);
            for (t, &inp) in plan.iter().enumerate() {
                assert_eq!(
                    g.play_state,
                    PlayState::PlayerControlsActiveTetrimino,
                    "case {case}: locked early at frame {t} for lock {lock:?}\n{b:?}"
                );
                g.step(inp);
            }
            assert_eq!(
                g.play_state,
                PlayState::LockTetrimino,
                "case {case}: lock {lock:?} not reached\n{b:?}"
            );
            assert_eq!(
                (g.piece, g.x as i8, g.y as i8),
                (lock.o, lock.x, lock.y),
                "case {case}: level {level} model {}\n{b:?}",
                model.mask_string()
            );
            checked += 1;
        }
    }
    assert!(checked > 20_000, "only {checked} locks checked");
}

/// All locks reachable by brute force over the engine: every allowed input (taps of Left or
/// Right, A or B, together or alone, on mask frames, or with spaced presses on any frame at
/// least the mask's gap after the last press; nothing held otherwise), states deduplicated
/// on the engine variables that decide the future (and the wait before the next press).
fn brute_force(b: &Board, o: Orientation, level: u8, model: &InputModel) -> BTreeSet<(u8, i8, i8)> {
    let options = [
        0u8,
        buttons::LEFT,
        buttons::RIGHT,
        buttons::A,
        buttons::B,
        buttons::LEFT | buttons::A,
        buttons::LEFT | buttons::B,
        buttons::RIGHT | buttons::A,
        buttons::RIGHT | buttons::B,
    ];
    let gap = model.press_gap();
    let mut layer = vec![(game_at(b, o, level, 0, 0), 0usize)];
    let mut locks = BTreeSet::new();
    let mut t = 0u32;
    while !layer.is_empty() {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for &(g, cool) in &layer {
            let may = if model.is_spaced() {
                cool == 0
            } else {
                model.can_press(t)
            };
            let opts: &[u8] = if may { &options } else { &options[..1] };
            for &inp in opts {
                let mut g2 = g;
                g2.step(inp);
                let cool2 = if inp != 0 {
                    gap - 1
                } else {
                    cool.saturating_sub(1)
                };
                if g2.play_state == PlayState::LockTetrimino {
                    locks.insert((g2.piece, g2.x as i8, g2.y as i8));
                } else if seen.insert((g2.x, g2.piece, g2.y, g2.fall_timer, cool2)) {
                    // Release whatever was pressed: the next frame's newly-pressed test needs
                    // the held byte cleared, which stepping with input 0 does.
                    next.push((g2, cool2));
                }
            }
        }
        // Frames after a press must release; stepping the next layer with 0 on non-mask frames
        // (or while a spaced press's wait lasts) does that, and neither allows two presses in a
        // row.
        layer = next;
        t += 1;
        assert!(t < 3000);
    }
    locks
}

#[test]
fn search_finds_exactly_what_the_engine_allows() {
    let mut r = Rng(0xfeed_beef_0042_0042);
    for case in 0..60 {
        let b = random_board(&mut r);
        let o = PieceKind::ALL[case % 7].spawn();
        let level = [18u8, 19, 29, 8, 39][case % 5];
        for spec in [
            ["X.", "X...", "X....."][case % 3],
            ["X.-spaced", "X..-spaced"][case % 2],
        ] {
            let model: InputModel = spec.parse().unwrap();
            let s = Search::run(&b, 5, o as u8, 0, Timing::spawn(level), &model, 0);
            let mine: BTreeSet<(u8, i8, i8)> = s.locks.iter().map(|l| (l.o, l.x, l.y)).collect();
            let engine = brute_force(&b, o, level, &model);
            assert_eq!(
                mine, engine,
                "case {case} level {level} {spec} {o:?}\n{b:?}"
            );
        }
    }
}

fn perft(b: &Board, level: u8, hz: u32) -> Vec<usize> {
    let model = InputModel::hz(hz).unwrap();
    PieceKind::ALL
        .iter()
        .map(|k| {
            Search::run(b, 5, k.spawn() as u8, 0, Timing::spawn(level), &model, 0)
                .locks
                .len()
        })
        .collect()
}

#[test]
fn perft_empty_board() {
    let b = Board::new();
    // Level 18, 30 Hz: every column for every orientation (T J Z O S L I).
    assert_eq!(perft(&b, 18, 30), vec![34, 34, 17, 9, 17, 34, 17]);
    // Level 29 at 10 Hz: the piece falls a row a frame and a tap comes every 6 frames, so the
    // far column is out of reach (one lock fewer for every piece but O).
    assert_eq!(perft(&b, 29, 10), vec![33, 33, 16, 9, 16, 33, 16]);
}

#[test]
fn perft_named_boards() {
    // A tuck: an overhang on the left of an open well.
    let tuck = board!["##........", "#.........", "#.........", "##.#######",];
    // Slides under the overhangs on both sides, and spins into the notches.
    let spin = board![".......###", "..#.......", "###....###", "####..####",];
    let pinned: [(&Board, u8, u32, [usize; 7]); 4] = [
        (&tuck, 18, 30, PIN[0]),
        (&tuck, 8, 30, PIN[1]),
        (&spin, 18, 30, PIN[2]),
        (&spin, 5, 15, PIN[3]),
    ];
    for (b, level, hz, expected) in pinned {
        let counts = perft(b, level, hz);
        assert_eq!(counts, expected.to_vec(), "level {level} {hz} Hz\n{b:?}");
        // Cross-check each count against brute force over the engine.
        let model = InputModel::hz(hz).unwrap();
        for (k, &n) in PieceKind::ALL.iter().zip(&counts) {
            assert_eq!(
                n,
                brute_force(b, k.spawn(), level, &model).len(),
                "{k:?} level {level} {hz} Hz\n{b:?}"
            );
        }
    }
}

/// At one row a frame a mask lets a piece shift on every other row only; spaced presses
/// (BetaTetris's rule) shift it on whichever row it passes, so tucks under an overhang open
/// on an odd frame become reachable. Counted on the named boards at level 29, each count
/// equal to brute force over the engine.
#[test]
fn perft_spaced_presses_at_level_29() {
    let tuck = board!["##........", "#.........", "#.........", "##.#######",];
    let spin = board![".......###", "..#.......", "###....###", "####..####",];
    let count = |b: &Board, spec: &str| -> Vec<usize> {
        let model: InputModel = spec.parse().unwrap();
        PieceKind::ALL
            .iter()
            .map(|k| {
                let n = Search::run(b, 5, k.spawn() as u8, 0, Timing::spawn(29), &model, 0)
                    .locks
                    .len();
                assert_eq!(
                    n,
                    brute_force(b, k.spawn(), 29, &model).len(),
                    "{k:?} {spec}\n{b:?}"
                );
                n
            })
            .collect()
    };
    for (b, mask, spaced) in [(&tuck, PIN29[0], PIN29[1]), (&spin, PIN29[2], PIN29[3])] {
        assert_eq!(count(b, "X."), mask.to_vec(), "X.\n{b:?}");
        assert_eq!(count(b, "X.-spaced"), spaced.to_vec(), "X.-spaced\n{b:?}");
    }
}

/// [`perft_spaced_presses_at_level_29`]'s counts: the tuck board with a mask and spaced, then
/// the spin board.
const PIN29: [[usize; 7]; 4] = [
    [37, 36, 17, 9, 18, 36, 18],
    [37, 37, 19, 10, 18, 37, 18],
    [34, 34, 18, 9, 17, 35, 17],
    [37, 35, 18, 9, 18, 36, 18],
];

/// Lock counts (T J Z O S L I) on the named boards, each also equal to brute force over the
/// engine (asserted above).
const PIN: [[usize; 7]; 4] = [
    [37, 37, 19, 10, 18, 37, 18],
    [37, 37, 19, 10, 18, 37, 18],
    [37, 35, 18, 9, 18, 36, 18],
    [37, 36, 18, 9, 18, 37, 20],
];
