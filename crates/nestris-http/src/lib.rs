//! The analysis of `nestris best` over HTTP/JSON (`nestris serve`): a versioned native API
//! (`/v1/best`, `/v1/rate`, `/v1/health`, `/v1/version`) and StackRabbit's `ping`.
//!
//! # Design
//!
//! A small blocking HTTP/1.1 server on the standard library (no async runtime: a request is
//! a few milliseconds of search, so threads are the simple fit): one thread accepts
//! connections and hands them to a fixed pool of workers through a bounded queue (a full
//! queue answers 503 at once); a worker reads one request (headers up to 16 KiB, a body up
//! to 64 KiB, 5-second socket timeouts), answers it and closes the connection. The analysis
//! of a request runs on its own thread, and the worker waits for it at most the time limit
//! (then 503); at most `max_in_flight` analyses run at once (then 503), so a slow request
//! cannot pile up work. Malformed or impossible input gets 400 with a JSON error naming the
//! field. [`route`] is the whole request-to-answer logic, without the network.

#![warn(missing_docs)]

pub mod params;
pub mod stackrabbit;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nestris_session::analysis;

pub use params::{FieldError, Request};

/// Largest request head (request line and headers).
pub const MAX_HEAD: usize = 16 * 1024;
/// Largest request body.
pub const MAX_BODY: usize = 64 * 1024;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Worker threads (connections served at once).
    pub threads: usize,
    /// Longest an analysis may take before the request gets 503.
    pub time_limit: Duration,
    /// Analyses running at once, at most (including those past their time limit).
    pub max_in_flight: usize,
}

impl Default for Config {
    fn default() -> Self {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            threads,
            time_limit: Duration::from_secs(2),
            max_in_flight: threads * 2,
        }
    }
}

/// An answer: status, content type, body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// HTTP status.
    pub status: u16,
    /// `application/json` or `text/plain`.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
}

impl Response {
    fn json(status: u16, v: &serde_json::Value) -> Response {
        Response {
            status,
            content_type: "application/json",
            body: v.to_string(),
        }
    }

    fn error(status: u16, field: Option<&str>, message: &str) -> Response {
        let mut v = serde_json::json!({ "error": message });
        if let Some(f) = field {
            v["field"] = f.into();
        }
        Response::json(status, &v)
    }

    fn text(status: u16, body: &str) -> Response {
        Response {
            status,
            content_type: "text/plain",
            body: body.to_string(),
        }
    }
}

/// What a route needs computed (the analysis), or its answer at once.
enum Routed {
    Now(Response),
    Compute(Box<dyn FnOnce() -> Response + Send>),
}

fn route_only(method: &str, target: &str, body: &[u8]) -> Routed {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let path = path.trim_end_matches('/');
    match (method, path) {
        ("GET", "/v1/health") => Routed::Now(Response::json(200, &serde_json::json!({"status": "ok"}))),
        ("GET", "/v1/version") => Routed::Now(Response::json(
            200,
            &serde_json::json!({
                "name": "nestris",
                "version": env!("CARGO_PKG_VERSION"),
                "api": 1,
            }),
        )),
        // StackRabbit's health check.
        ("GET", "/ping") => Routed::Now(Response::text(200, "pong")),
        ("GET" | "POST", "/v1/best" | "/v1/rate") => {
            let pairs = match params::pairs(query, body) {
                Ok(p) => p,
                Err(e) => return Routed::Now(Response::error(400, e.field(), &e.message)),
            };
            match Request::from_pairs(&pairs, path == "/v1/rate") {
                Ok(r) => Routed::Compute(Box::new(move || answer(&r))),
                Err(e) => Routed::Now(Response::error(400, e.field(), &e.message)),
            }
        }
        // StackRabbit's routes.
        (
            "GET",
            "/get-move" | "/get-move-cpp" | "/rate-move" | "/rate-move-cpp" | "/engine-movelist-cpp",
        ) => match params::pairs(query, b"") {
            Ok(pairs) => {
                let route = path.trim_start_matches('/').to_string();
                Routed::Compute(Box::new(move || stackrabbit::answer(&route, &pairs)))
            }
            Err(e) => Routed::Now(Response::error(400, e.field(), &e.message)),
        },
        (_, "/v1/health" | "/v1/version" | "/ping") => {
            Routed::Now(Response::error(405, None, &format!("{method} is not allowed here: use GET")))
        }
        (_, "/v1/best" | "/v1/rate") => Routed::Now(Response::error(
            405,
            None,
            &format!("{method} is not allowed here: use GET or POST"),
        )),
        _ => Routed::Now(Response::error(
            404,
            None,
            &format!("no route {path}: the routes are /v1/best, /v1/rate, /v1/health, /v1/version, and StackRabbit's /ping, /get-move, /get-move-cpp, /rate-move, /rate-move-cpp, /engine-movelist-cpp"),
        )),
    }
}

/// The answer to a parsed request (the analysis, then the rating for `/v1/rate`).
pub fn answer(r: &Request) -> Response {
    let a = match analysis::analyse(&r.query) {
        Ok(a) => a,
        Err(e) => return Response::error(400, Some(e.field()), &e.to_string()),
    };
    let rating = match r.lock {
        Some((o, x, y)) => match analysis::rate(&a, o, x as i8, y as i8) {
            Ok(rt) => Some(rt),
            Err(e) => return Response::error(400, Some("lock"), &e.to_string()),
        },
        None => None,
    };
    let mut v = analysis::to_json(&r.query, &r.hz, &a, r.top, rating.as_ref());
    if !r.ignored.is_empty() {
        v["ignored"] = r.ignored.clone().into();
    }
    Response::json(200, &v)
}

/// The answer to a request, computed on the calling thread (no time limit).
pub fn route(method: &str, target: &str, body: &[u8]) -> Response {
    match route_only(method, target, body) {
        Routed::Now(r) => r,
        Routed::Compute(f) => f(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_bits() -> String {
        let mut b = "0".repeat(190);
        b.push_str("1111111110");
        b
    }

    #[test]
    fn routes_answer_and_errors_name_the_field() {
        let ok = route("GET", "/v1/health", b"");
        assert_eq!((ok.status, ok.body.as_str()), (200, r#"{"status":"ok"}"#));
        assert_eq!(route("GET", "/ping", b"").body, "pong");
        let v = route("GET", "/v1/version", b"");
        assert!(v.body.contains("\"api\":1"), "{}", v.body);
        let b = board_bits();
        let best = route(
            "GET",
            &format!("/v1/best?board={b}&piece=I&next=T&level=18&top=2"),
            b"",
        );
        assert_eq!(best.status, 200, "{}", best.body);
        let v: serde_json::Value = serde_json::from_str(&best.body).expect("json");
        assert_eq!(v["placements"].as_array().map(Vec::len), Some(2));
        // The same as a JSON body, with StackRabbit's names.
        let body = format!(
            r#"{{"board":"{b}","currentPiece":"i","nextPiece":"t","level":18,"top":2,"playoutCount":49}}"#
        );
        let post = route("POST", "/v1/best", body.as_bytes());
        let w: serde_json::Value = serde_json::from_str(&post.body).expect("json");
        assert_eq!(w["placements"], v["placements"]);
        assert_eq!(w["ignored"], serde_json::json!(["playoutCount"]));
        for (target, field) in [
            ("/v1/best?board=0101&piece=T".to_string(), "board"),
            (format!("/v1/best?board={b}&piece=Q"), "piece"),
            (format!("/v1/best?board={b}"), "piece"),
            ("/v1/best?piece=T".to_string(), "board"),
            (format!("/v1/best?board={b}&piece=T&level=300"), "level"),
            (format!("/v1/best?board={b}&piece=T&hz=XX"), "hz"),
            (format!("/v1/best?board={b}&piece=T&reaction=x"), "reaction"),
            (format!("/v1/rate?board={b}&piece=T"), "lock"),
            (format!("/v1/rate?board={b}&piece=T&lock=Tu,4,3"), "lock"),
            (
                format!("/v1/best?board={}&piece=T", "1".repeat(200)),
                "board",
            ),
            (format!("/v1/best?board={b}&piece=T&elapsed=3"), "at"),
            (
                format!("/v1/best?board={b}&piece=T&line_cap=10000"),
                "line_cap",
            ),
            (format!("/v1/best?board={b}&piece=T&lineCap=-1"), "line_cap"),
        ] {
            let r = route("GET", &target, b"");
            assert_eq!(r.status, 400, "{target}: {}", r.body);
            let v: serde_json::Value = serde_json::from_str(&r.body).expect("json");
            assert_eq!(v["field"], field, "{target}: {v}");
        }
        assert_eq!(route("GET", "/nope", b"").status, 404);
        assert_eq!(route("DELETE", "/v1/best", b"").status, 405);
        assert_eq!(route("POST", "/v1/best", b"[1]").status, 400);
    }

    #[test]
    fn the_line_cap_brings_in_the_endgame_table() {
        // Level 45 under the double killscreen with 420 lines: the default's `[endgame]`
        // table (the last 30 lines before the cap) values the burn the I makes otherwise.
        let values = |extra: &str| {
            let r = route(
                "GET",
                &format!(
                    "/v1/best?board={}&piece=I&next=T&level=45&lines=420&double_killscreen=1&top=3{extra}",
                    board_bits()
                ),
                b"",
            );
            assert_eq!(r.status, 200, "{extra}: {}", r.body);
            let v: serde_json::Value = serde_json::from_str(&r.body).expect("json");
            v["placements"].clone()
        };
        let none = values("");
        assert_eq!(values("&line_cap=0"), none);
        assert_eq!(values("&lineCap=1000"), none, "the cap is 580 lines away");
        assert_ne!(values("&line_cap=430"), none);
    }

    /// A reader that counts what is read from it.
    struct Counted<R> {
        inner: R,
        read: usize,
    }

    impl<R: Read> Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.read += n;
            Ok(n)
        }
    }

    #[test]
    fn requests_are_read_within_their_limits() {
        let ok =
            read_request(&b"POST /v1/best?x=1 HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcdEXTRA"[..])
                .expect("reads");
        assert_eq!(
            (ok.method.as_str(), ok.target.as_str(), &ok.body[..]),
            ("POST", "/v1/best?x=1", &b"abcd"[..])
        );
        // Bare LF line ends are read too.
        assert!(read_request(&b"GET /ping HTTP/1.0\n\n"[..]).is_ok());
        for (bytes, status) in [
            (&b"GET /ping HTTP/2\r\n\r\n"[..], 505),
            (b"GET /ping\r\n\r\n", 400),
            (b"GET /ping HTTP/1.1\r\nHost: x\r\n", 400),
            (b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", 400),
            (b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
            (
                b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
                400,
            ),
            (b"POST / HTTP/1.1\r\nContent-Length: 65537\r\n\r\n", 413),
            (b"GET /\xff HTTP/1.1\r\n\r\n", 400),
        ] {
            let r = read_request(bytes).expect_err("refused");
            assert_eq!(
                r.status,
                status,
                "{:?}: {}",
                String::from_utf8_lossy(bytes),
                r.body
            );
        }
        // A head that never ends, with or without line breaks: 431 after at most the head's
        // limit and one byte.
        for line in [&b"a"[..], b"X-A: b\r\n"] {
            let mut endless = Counted {
                inner: Cycle(line),
                read: 0,
            };
            let r = read_request(&mut endless).expect_err("refused");
            assert_eq!(r.status, 431, "{}", r.body);
            assert!(
                endless.read <= MAX_HEAD + MAX_BODY + 1,
                "{} bytes read",
                endless.read
            );
        }
    }

    /// `line` repeated without end.
    struct Cycle(&'static [u8]);

    impl Read for Cycle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            for (i, b) in buf.iter_mut().enumerate() {
                *b = self.0[i % self.0.len()];
            }
            Ok(buf.len())
        }
    }
}

trait FieldOf {
    fn field(&self) -> &'static str;
}

impl FieldOf for analysis::AnalysisError {
    fn field(&self) -> &'static str {
        match self {
            analysis::AnalysisError::Progress(_) => "at",
            analysis::AnalysisError::NoLock(_) => "board",
            analysis::AnalysisError::Unreachable { .. } => "lock",
        }
    }
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Serves on `listener` with `config` until [`Server::stop`] (or the process ends).
    pub fn start(listener: TcpListener, config: Config) -> std::io::Result<Server> {
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let threads = config.threads.max(1);
        let (tx, rx): (SyncSender<TcpStream>, Receiver<TcpStream>) =
            mpsc::sync_channel(threads * 4);
        let rx = Arc::new(Mutex::new(rx));
        let in_flight = Arc::new(AtomicUsize::new(0));
        for _ in 0..threads {
            let rx = rx.clone();
            let config = config.clone();
            let in_flight = in_flight.clone();
            std::thread::spawn(move || loop {
                let next = rx.lock().map(|r| r.recv());
                match next {
                    Ok(Ok(stream)) => serve_connection(stream, &config, &in_flight),
                    _ => return,
                }
            });
        }
        let stop2 = stop.clone();
        let accept = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(stream) = stream else { continue };
                if let Err(mpsc::TrySendError::Full(mut s)) = tx.try_send(stream) {
                    let _ = write_response(
                        &mut s,
                        &Response::error(503, None, "the server is busy: try again"),
                    );
                }
            }
        });
        Ok(Server {
            addr,
            stop,
            accept: Some(accept),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting connections (the workers finish what they hold).
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect(self.addr);
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

/// A request as read from a connection: method, target (path and query), body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawRequest {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path and query.
    pub target: String,
    /// The body (`Content-Length` bytes).
    pub body: Vec<u8>,
}

/// Reads one HTTP/1.x request from `reader` (a connection: the server sets its timeouts):
/// the head up to [`MAX_HEAD`] bytes, a body up to [`MAX_BODY`]; no more than their sum plus
/// one byte is ever read, and nothing is allocated beyond it. `Err` is the answer to give
/// instead (400, 413, 431 or 505).
pub fn read_request<R: Read>(reader: R) -> Result<RawRequest, Response> {
    let mut reader = BufReader::new(reader.take((MAX_HEAD + MAX_BODY) as u64 + 1));
    let mut head = Vec::new();
    loop {
        let mut line = Vec::new();
        // One line at most the room left in the head (plus one byte to tell it overflows).
        let room = (MAX_HEAD + 1).saturating_sub(head.len()) as u64;
        let n = (&mut reader)
            .take(room)
            .read_until(b'\n', &mut line)
            .map_err(|_| Response::error(400, None, "the request could not be read"))?;
        if n == 0 {
            return Err(Response::error(
                400,
                None,
                "the request ended before its headers did",
            ));
        }
        head.extend_from_slice(&line);
        if head.len() > MAX_HEAD {
            return Err(Response::error(
                431,
                None,
                "request headers too large (16 KiB at most)",
            ));
        }
        if line == b"\r\n" || line == b"\n" {
            break;
        }
    }
    let head = String::from_utf8(head)
        .map_err(|_| Response::error(400, None, "the request head is not UTF-8"))?;
    let mut lines = head.lines();
    let request_line = lines.next().unwrap_or("");
    let mut parts = request_line.split_whitespace();
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(Response::error(
            400,
            None,
            &format!("malformed request line {request_line:?}: expected METHOD TARGET HTTP/1.x"),
        ));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(Response::error(
            505,
            None,
            "only HTTP/1.0 and HTTP/1.1 are spoken here",
        ));
    }
    let mut length = 0usize;
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().map_err(|_| {
                    Response::error(400, None, &format!("bad Content-Length {:?}", v.trim()))
                })?;
            }
        }
    }
    if length > MAX_BODY {
        return Err(Response::error(
            413,
            None,
            "request body too large (64 KiB at most)",
        ));
    }
    let mut body = vec![0u8; length];
    reader
        .read_exact(&mut body)
        .map_err(|_| Response::error(400, None, "the body is shorter than its Content-Length"))?;
    Ok(RawRequest {
        method: method.to_string(),
        target: target.to_string(),
        body,
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    }
}

fn write_response(stream: &mut TcpStream, r: &Response) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\nAccess-Control-Allow-Origin: *\r\n\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(r.body.as_bytes())?;
    stream.flush()
}

fn serve_connection(mut stream: TcpStream, config: &Config, in_flight: &Arc<AtomicUsize>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(5)));
    let response = match read_request(&stream) {
        Err(r) => r,
        Ok(RawRequest {
            method,
            target,
            body,
        }) => match route_only(&method, &target, &body) {
            Routed::Now(r) => r,
            Routed::Compute(f) => analyse_limited(f, config, in_flight),
        },
    };
    let _ = write_response(&mut stream, &response);
}

/// Runs the analysis on its own thread and waits for it at most the time limit.
fn analyse_limited(
    f: Box<dyn FnOnce() -> Response + Send>,
    config: &Config,
    in_flight: &Arc<AtomicUsize>,
) -> Response {
    if in_flight.fetch_add(1, Ordering::SeqCst) >= config.max_in_flight {
        in_flight.fetch_sub(1, Ordering::SeqCst);
        return Response::error(503, None, "too many analyses running: try again");
    }
    let (tx, rx) = mpsc::channel();
    let counter = in_flight.clone();
    std::thread::spawn(move || {
        let r = f();
        counter.fetch_sub(1, Ordering::SeqCst);
        let _ = tx.send(r);
    });
    match rx.recv_timeout(config.time_limit) {
        Ok(r) => r,
        Err(_) => Response::error(
            503,
            None,
            &format!(
                "the analysis took longer than the time limit ({} ms)",
                config.time_limit.as_millis()
            ),
        ),
    }
}
