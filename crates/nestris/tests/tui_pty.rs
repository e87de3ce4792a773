//! `nestris play` in a real pseudo-terminal: the screen appears, Start begins the game, a key
//! press moves the piece, q quits and the process ends. Needs nothing installed (the pty and
//! the terminal emulation are crates).

use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, CommandBuilder, PtySize};

struct Term {
    parser: vt100::Parser,
    rx: mpsc::Receiver<Vec<u8>>,
    writer: Box<dyn Write + Send>,
}

impl Term {
    fn pump(&mut self) {
        while let Ok(chunk) = self.rx.try_recv() {
            self.parser.process(&chunk);
        }
    }

    fn screen(&mut self) -> String {
        self.pump();
        self.parser.screen().contents()
    }

    fn wait_for(&mut self, what: &str, ok: impl Fn(&str) -> bool, timeout: Duration) -> String {
        let end = Instant::now() + timeout;
        loop {
            let s = self.screen();
            if ok(&s) {
                return s;
            }
            if Instant::now() > end {
                panic!("timed out waiting for {what}; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("write to pty");
        self.writer.flush().expect("flush pty");
    }
}

/// Leftmost screen column of any block inside the playfield (between the borders of the box
/// titled LINES), if any.
fn piece_column(screen: &str) -> Option<usize> {
    let rows: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let top = rows
        .iter()
        .position(|r| r.iter().collect::<String>().contains("LINES-"))?;
    let line: String = rows[top].iter().collect();
    let byte = line.find("┌ LINES")?;
    let left = line[..byte].chars().count();
    let mut best: Option<usize> = None;
    for r in rows.iter().skip(top + 1).take(20) {
        for (x, c) in r.iter().enumerate().skip(left + 1).take(20) {
            if matches!(c, '█' | '▓' | '▐' | '▌' | '▪') {
                best = Some(best.map_or(x, |b: usize| b.min(x)));
            }
        }
    }
    best
}

#[test]
fn play_in_a_pty() {
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("open a pty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_nestris"));
    cmd.args(["play", "--level", "0", "--seed", "3"]);
    cmd.env("TERM", "xterm-256color");
    // The terminal emulation here does not answer the keyboard-protocol query.
    cmd.env("NESTRIS_NO_KITTY", "1");
    let mut child = pair.slave.spawn_command(cmd).expect("spawn nestris play");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("pty reader");
    let writer = pair.master.take_writer().expect("pty writer");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let mut t = Term {
        parser: vt100::Parser::new(24, 80, 0),
        rx,
        writer,
    };
    let s = t.wait_for(
        "the start screen",
        |s| s.contains("LINES-000") && s.contains("SCORE") && s.contains("PRESS START"),
        Duration::from_secs(10),
    );
    assert!(
        s.contains("STATISTICS") && s.contains("NEXT") && s.contains("LEVEL"),
        "{s}"
    );
    assert!(s.contains('┌') && s.contains('└'), "playfield border:\n{s}");
    assert!(
        s.contains("no key releases"),
        "the fallback is said on screen:\n{s}"
    );
    // Start (Enter): the first piece appears (and hangs at the top for 96 frames).
    t.send(b"\r");
    let s = t.wait_for(
        "the first piece",
        |s| piece_column(s).is_some() && !s.contains("PRESS START"),
        Duration::from_secs(5),
    );
    let before = piece_column(&s).expect("piece");
    // Left arrow: the piece moves one cell (two characters) left.
    t.send(b"\x1b[D");
    t.wait_for(
        "the piece to move left",
        |s| piece_column(s).is_some_and(|x| x + 2 == before),
        Duration::from_secs(3),
    );
    // q quits and the terminal is restored.
    t.send(b"q");
    let end = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "exit status {status:?}");
            break;
        }
        if Instant::now() > end {
            let _ = child.kill();
            panic!("nestris play did not quit on q; screen:\n{}", t.screen());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts `nestris args` in an 80x24 pseudo-terminal.
fn spawn(args: &[&str]) -> (Term, Box<dyn portable_pty::Child + Send + Sync>) {
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("open a pty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_nestris"));
    cmd.args(args);
    cmd.env("TERM", "xterm-256color");
    cmd.env("NESTRIS_NO_KITTY", "1");
    let child = pair.slave.spawn_command(cmd).expect("spawn nestris");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("pty reader");
    let writer = pair.master.take_writer().expect("pty writer");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    // The master must outlive the child's use of the terminal.
    std::mem::forget(pair.master);
    (
        Term {
            parser: vt100::Parser::new(24, 80, 0),
            rx,
            writer,
        },
        child,
    )
}

fn quits(t: &mut Term, child: &mut Box<dyn portable_pty::Child + Send + Sync>) {
    t.send(b"q");
    let end = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "exit status {status:?}");
            return;
        }
        if Instant::now() > end {
            let _ = child.kill();
            panic!("nestris did not quit on q; screen:\n{}", t.screen());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The classic rule sets run in the same watch loop as the NES game: the same keys (`m`
/// fastest, `.` one frame and pause, `1` real time, `n` next game, `q` quit), and `play`
/// takes the same key map (Enter starts, the arrows move).
#[test]
fn classic_rule_sets_take_the_same_keys() {
    let (mut t, mut child) = spawn(&["watch", "--rules", "relaytris"]);
    t.wait_for(
        "the relaytris board",
        |s| s.contains("~~~~~~~~~~") && s.contains("speed 1x") && s.contains("game 1"),
        Duration::from_secs(10),
    );
    t.send(b"m");
    t.wait_for(
        "speed max",
        |s| s.contains("speed max"),
        Duration::from_secs(5),
    );
    t.send(b".");
    t.wait_for("paused", |s| s.contains("PAUSED"), Duration::from_secs(5));
    t.send(b"1");
    t.wait_for(
        "real time",
        |s| s.contains("speed 1x"),
        Duration::from_secs(5),
    );
    t.send(b"n");
    t.wait_for(
        "the next game",
        |s| s.contains("game 2"),
        Duration::from_secs(5),
    );
    quits(&mut t, &mut child);

    let (mut t, mut child) = spawn(&["play", "--rules", "relaytris"]);
    t.wait_for(
        "the start screen",
        |s| s.contains("RELAYTRIS") && s.contains("PRESS START"),
        Duration::from_secs(10),
    );
    t.send(b"\r");
    let s = t.wait_for(
        "the game",
        |s| !s.contains("PRESS START") && s.contains("~~~####~~~"),
        Duration::from_secs(5),
    );
    assert!(s.contains("randomizer: cycle"), "{s}");
    // Left arrow: the I moves one cell left.
    t.send(b"\x1b[D");
    t.wait_for(
        "the piece to move left",
        |s| s.contains("~~####~~~~"),
        Duration::from_secs(3),
    );
    quits(&mut t, &mut child);
}
