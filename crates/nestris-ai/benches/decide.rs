//! Time the AI takes for one piece (every `next_input` call from the spawn to the next spawn:
//! the commitment, the choice once the preview is seen, and the engine's frames between),
//! by search depth and phase. The positions are the pieces of a game the default AI plays
//! (seed 1) without the soft drop, taken in turn, so one figure covers many boards; each is
//! timed with a fresh AI of the row's settings. The soft drop (row 29) changes the frames to
//! each lock, and with them the pieces the game's picker deals, so boards made with it would
//! be other boards than those every figure before row 29 was timed on. The figures are in
//! the README ("Decision time").

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use nestris_ai::{Ai, AiConfig};
use nestris_engine::{Game, GameType, StartConfig};

/// Plays `game` with `ai` up to the next spawn (or the end of the game).
fn to_next_spawn(game: &mut Game, ai: &mut Ai) {
    let spawn = game.spawn_count;
    let mut frames = 0;
    while !game.game_over() && (game.spawn_count == spawn || !game.piece_active()) {
        let i = ai.next_input(game);
        game.step(i);
        frames += 1;
        if frames > 2000 {
            break;
        }
    }
}

/// `count` positions at successive spawns of a game from `level` (after `skip` pieces), with
/// the double killscreen on or off, played by `cfg` without the soft drop.
fn positions(cfg: &AiConfig, level: u8, double: bool, skip: usize, count: usize) -> Vec<Game> {
    let mut game = Game::start(StartConfig::from_seed(1, level, GameType::A, 0));
    game.set_double_killscreen(double);
    let mut ai = Ai::new(AiConfig {
        pushdown: false,
        ..cfg.clone()
    });
    while !game.piece_active() {
        let i = ai.next_input(&game);
        game.step(i);
    }
    let mut out = Vec::new();
    for n in 0..skip + count {
        if n >= skip {
            out.push(game);
        }
        to_next_spawn(&mut game, &mut ai);
        if game.game_over() {
            break;
        }
    }
    out
}

fn decide(c: &mut Criterion) {
    let mut g = c.benchmark_group("piece");
    g.sample_size(20);
    let four = AiConfig {
        fifth_ply: 0,
        fourth_ply_lookahead: 0,
        deep_commit: 0,
        ..AiConfig::default()
    };
    let five = AiConfig::default();
    let sixteen = AiConfig {
        rollouts_double_killscreen: 16,
        ..AiConfig::default()
    };
    // Row 29's playouts at levels 29-38 (16 sequences; 32 since row 30).
    let row29 = AiConfig {
        rollouts_killscreen: Some(16),
        ..AiConfig::default()
    };
    for (name, cfg, level, double, skip) in [
        ("level18_four_plies", &four, 18, false, 20),
        ("level18_five_plies", &five, 18, false, 20),
        ("level29_playouts", &five, 29, false, 10),
        ("level29_playouts_16", &row29, 29, false, 10),
        ("level39_double_killscreen", &five, 39, true, 10),
        ("level39_double_killscreen_16", &sixteen, 39, true, 10),
    ] {
        let ps = positions(cfg, level, double, skip, 16);
        let mut k = 0;
        g.bench_function(name, |b| {
            b.iter_batched(
                || {
                    k = (k + 1) % ps.len();
                    (ps[k], Ai::new(cfg.clone()))
                },
                |(mut game, mut ai)| {
                    to_next_spawn(&mut game, &mut ai);
                    game
                },
                BatchSize::SmallInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, decide);
criterion_main!(benches);
