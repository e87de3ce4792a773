//! The server on loopback under load: many concurrent requests, every answer the same as the
//! analysis gives on its own, no error; malformed requests get their 4xx and the server goes
//! on. Bounded (a fixed number of requests) and untimed: the timings are in
//! `cargo bench -p nestris-http --bench load`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};

use nestris_http::{route, Config, Server};

/// One request, the whole answer: status and body.
fn request(addr: SocketAddr, raw: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.write_all(raw).expect("send");
    let mut out = Vec::new();
    s.read_to_end(&mut out).expect("read");
    let text = String::from_utf8(out).expect("utf-8");
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |x| x.1).to_string();
    (status, body)
}

fn get(addr: SocketAddr, target: &str) -> (u16, String) {
    request(
        addr,
        format!("GET {target} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes(),
    )
}

fn targets() -> Vec<String> {
    let mut boards = Vec::new();
    let mut b = "0".repeat(190);
    b.push_str("1111111110");
    boards.push((b, "I", "T", 18));
    let mut b = "0".repeat(160);
    b.push_str("0000000000110000001111100011111110011111111001111111111");
    b.truncate(200);
    while b.len() < 200 {
        b.push('0');
    }
    boards.push((b, "L", "", 19));
    boards.push(("0".repeat(200), "S", "Z", 29));
    boards
        .into_iter()
        .map(|(b, p, n, l)| format!("/v1/best?board={b}&piece={p}&next={n}&level={l}&top=3&hz=X.."))
        .collect()
}

#[test]
fn many_concurrent_requests_all_answered_correctly() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let server = Server::start(
        listener,
        Config {
            threads: 4,
            max_in_flight: 64,
            time_limit: std::time::Duration::from_secs(60),
        },
    )
    .expect("start");
    let addr = server.addr();
    let targets = targets();
    // The answers, computed without the server.
    let expected: Vec<String> = targets.iter().map(|t| route("GET", t, b"").body).collect();
    for e in &expected {
        assert!(e.contains("\"placements\""), "{e}");
    }
    std::thread::scope(|s| {
        for c in 0..8 {
            let targets = &targets;
            let expected = &expected;
            s.spawn(move || {
                for i in 0..12 {
                    let k = (c + i) % targets.len();
                    let (status, body) = get(addr, &targets[k]);
                    assert_eq!(status, 200, "{body}");
                    assert_eq!(body, expected[k]);
                    let (status, _) = get(addr, "/v1/health");
                    assert_eq!(status, 200);
                }
            });
        }
        // Malformed requests, meanwhile.
        s.spawn(move || {
            for _ in 0..10 {
                assert_eq!(request(addr, b"garbage\r\n\r\n").0, 400);
                let big = format!(
                    "POST /v1/best HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
                    1 << 20
                );
                assert_eq!(request(addr, big.as_bytes()).0, 413);
                assert_eq!(get(addr, "/v1/best?board=01&piece=T").0, 400);
                assert_eq!(get(addr, "/nowhere").0, 404);
            }
        });
    });
    // Still serving.
    assert_eq!(get(addr, "/ping"), (200, "pong".to_string()));
    server.stop();
}

/// The time limit and the cap on analyses answer 503 (and the server goes on).
#[test]
fn limits_answer_503() {
    for (time_limit, max_in_flight, want) in [
        (std::time::Duration::from_nanos(1), 8, "time limit"),
        (std::time::Duration::from_secs(60), 0, "too many analyses"),
    ] {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let server = Server::start(
            listener,
            Config {
                threads: 1,
                max_in_flight,
                time_limit,
            },
        )
        .expect("start");
        let addr = server.addr();
        let (status, body) = get(addr, &targets()[0]);
        assert_eq!(status, 503, "{body}");
        assert!(body.contains(want), "{body}");
        assert_eq!(get(addr, "/v1/health").0, 200);
        server.stop();
    }
}
