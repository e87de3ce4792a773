//! Throughput and latency of `/v1/best` on loopback: `cargo bench -p nestris-http --bench
//! load` (a server with the default configuration, 8 clients, 400 requests over three
//! positions at 30 Hz with the next piece known). Prints requests per second and the
//! latency percentiles; the README reports a run.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use nestris_http::{Config, Server};

fn get(addr: SocketAddr, target: &str) -> u16 {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.write_all(format!("GET {target} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes())
        .expect("send");
    let mut out = Vec::new();
    s.read_to_end(&mut out).expect("read");
    String::from_utf8_lossy(&out)
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let config = Config::default();
    let threads = config.threads;
    let server = Server::start(listener, config).expect("start");
    let addr = server.addr();
    let mut b = "0".repeat(150);
    b.push_str("00000000001100000011111000111111100111111110011111111");
    b.truncate(200);
    let boards = [
        format!("{}1111111110", "0".repeat(190)),
        format!("{b:0<200}"),
        "0".repeat(200),
    ];
    let targets: Vec<String> = boards
        .iter()
        .zip(["I", "L", "T"])
        .map(|(b, p)| format!("/v1/best?board={b}&piece={p}&next=O&level=18&hz=30"))
        .collect();
    let (clients, per_client) = (8, 50);
    let started = Instant::now();
    let mut latencies: Vec<Duration> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                let targets = &targets;
                s.spawn(move || {
                    (0..per_client)
                        .map(|i| {
                            let t = Instant::now();
                            assert_eq!(get(addr, &targets[(c + i) % targets.len()]), 200);
                            t.elapsed()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("client"))
            .collect()
    });
    let wall = started.elapsed();
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() - 1) as f64 * p) as usize];
    println!(
        "{} requests from {clients} clients, {threads} worker threads: {:.0} requests/s; latency median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        latencies.len(),
        latencies.len() as f64 / wall.as_secs_f64(),
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        latencies.last().map_or(0.0, |d| d.as_secs_f64() * 1e3)
    );
    server.stop();
}
