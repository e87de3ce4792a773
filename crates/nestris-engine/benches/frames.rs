//! Frames per second of the engine during active play: A-type level 18, a deterministic input
//! stream of mostly idle frames with taps, rotations and soft drops, restarting after each
//! top-out (the figure in the README).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use nestris_engine::{buttons, Game, StartConfig};

/// A repeating stream: per 8-frame slot, one of idle / tap left / tap right / rotate / hold
/// Down for a while, chosen by a fixed xorshift sequence.
fn input_stream() -> Vec<u8> {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut out = Vec::new();
    while out.len() < 1 << 14 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let press = match s % 10 {
            0 | 1 => buttons::LEFT,
            2 | 3 => buttons::RIGHT,
            4 => buttons::A,
            5 => buttons::B,
            6 => {
                out.extend(std::iter::repeat_n(buttons::DOWN, 12));
                continue;
            }
            _ => 0,
        };
        out.push(press);
        out.extend(std::iter::repeat_n(0, 7));
    }
    out
}

fn frames(c: &mut Criterion) {
    let inputs = input_stream();
    let start = Game::start(StartConfig::a_type(18));
    let mut g = c.benchmark_group("engine");
    g.throughput(Throughput::Elements(inputs.len() as u64));
    g.bench_function("level18_active_play", |b| {
        let mut game = start;
        b.iter(|| {
            for &i in &inputs {
                game.step(black_box(i));
                if game.game_over() {
                    game = start;
                }
            }
            black_box(&game);
        })
    });
    g.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
