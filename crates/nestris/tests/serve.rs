//! `nestris serve` through the built binary: it prints its address, answers on loopback,
//! and bad options are refused.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

#[test]
fn serve_answers_on_loopback() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nestris"))
        .args(["serve", "--port", "0", "--threads", "2"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("start nestris serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the address line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_default()
        .to_string();
    let mut board = "0".repeat(190);
    board.push_str("1111111110");
    let mut answers = Vec::new();
    for target in [
        "/v1/health".to_string(),
        format!("/v1/rate?board={board}&piece=I&next=T&lock=Ih,5,18"),
    ] {
        let mut s = TcpStream::connect(&addr).expect("connect");
        write!(s, "GET {target} HTTP/1.1\r\nHost: x\r\n\r\n").expect("send");
        let mut out = String::new();
        s.read_to_string(&mut out).expect("read");
        answers.push(out);
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(answers[0].starts_with("HTTP/1.1 200"), "{}", answers[0]);
    assert!(answers[0].ends_with(r#"{"status":"ok"}"#), "{}", answers[0]);
    assert!(answers[1].starts_with("HTTP/1.1 200"), "{}", answers[1]);
    assert!(answers[1].contains(r#""rate":{"#), "{}", answers[1]);
    let out = Command::new(env!("CARGO_BIN_EXE_nestris"))
        .args(["serve", "--threads", "0"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--threads 0 is out of range"));
}
