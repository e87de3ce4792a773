//! `nestris best`: the best placements of the current piece from a position, at a tap speed
//! and reaction time, as a table or JSON; with `--rate`, how a placement the player made
//! compares. The analysis is `nestris_session::analysis`'s.

use std::process::ExitCode;

use anyhow::{bail, Context};
use nestris_engine::{Orientation, PieceKind};
use nestris_session::analysis::{self, board_rows, Answer, Placement, Progress, Query, Rating};
use nestris_session::inputs::frames_string;
use nestris_session::position::{parse_orientation, Position};

use crate::options::AiOptions;

/// Options of `nestris best`.
#[derive(Debug, Clone, clap::Args)]
pub struct BestArgs {
    /// The position from a file (see the README, "Starting from a position"); or give
    /// --board and --piece.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "piece", "next", "level", "lines", "score"])]
    pub position: Option<std::path::PathBuf>,
    /// The board: 200 cells row by row from the top, `0`/`1` (as StackRabbit takes it) or
    /// `.`/`#`; spaces, newlines and `/` between cells are ignored.
    #[arg(long, required_unless_present = "position")]
    pub board: Option<String>,
    /// The current piece: T J Z O S L I.
    #[arg(long, required_unless_present = "position")]
    pub piece: Option<char>,
    /// The next piece, if known (otherwise the values are the expectation over the seven).
    #[arg(long)]
    pub next: Option<char>,
    /// Level 0..=255 [default: 18].
    #[arg(long)]
    pub level: Option<u16>,
    /// Lines so far (for the level after a clear) [default: 0].
    #[arg(long)]
    pub lines: Option<u32>,
    /// Score so far [default: 0].
    #[arg(long)]
    pub score: Option<u64>,
    /// Frames already elapsed since the piece spawned (with --at).
    #[arg(long, requires = "at", value_name = "FRAMES")]
    pub elapsed: Option<u32>,
    /// Where the piece is now: ORIENTATION,X,Y (e.g. `Tu,4,6`; orientations Tu Tr Td Tl Jl
    /// Ju Jr Jd Zh Zv O Sh Sv Lr Ld Ll Lu Iv Ih, or ids 0..=18).
    #[arg(long, requires = "elapsed", value_name = "O,X,Y")]
    pub at: Option<String>,
    /// How many placements to show.
    #[arg(long, default_value_t = 5)]
    pub top: usize,
    /// Rate a placement the player made: ORIENTATION,X,Y of its lock; prints its rank and the
    /// value lost against the best.
    #[arg(long, value_name = "O,X,Y")]
    pub rate: Option<String>,
    /// The double killscreen (a departure from the original): two rows a frame from level 39.
    #[arg(long)]
    pub double_killscreen: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub ai: AiOptions,
}

fn piece(what: &str, c: char) -> anyhow::Result<PieceKind> {
    PieceKind::from_letter(c.to_ascii_uppercase())
        .with_context(|| format!("{what} {c:?} is not a piece: use one of T J Z O S L I"))
}

/// `O,X,Y` for `what`.
fn lock(what: &str, s: &str) -> anyhow::Result<(Orientation, u8, u8)> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    let [o, x, y] = parts[..] else {
        bail!("{what} {s:?}: expected ORIENTATION,X,Y such as Tu,4,18");
    };
    let o = parse_orientation(o).with_context(|| {
        format!("{what} {s:?}: unknown orientation {o:?} (Tu Tr Td Tl Jl Ju Jr Jd Zh Zv O Sh Sv Lr Ld Ll Lu Iv Ih, or 0..=18)")
    })?;
    let x: u8 = x
        .parse()
        .ok()
        .filter(|&x| x <= 9)
        .with_context(|| format!("{what} {s:?}: x {x:?} is not a column 0..=9"))?;
    let y: u8 = y
        .parse()
        .ok()
        .filter(|&y| y <= 19)
        .with_context(|| format!("{what} {s:?}: y {y:?} is not a row 0..=19"))?;
    Ok((o, x, y))
}

impl BestArgs {
    fn position(&self) -> anyhow::Result<Position> {
        if let Some(path) = &self.position {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the position file {}", path.display()))?;
            return Position::parse(&text)
                .with_context(|| format!("position file {}", path.display()));
        }
        let level = self.level.unwrap_or(18);
        if level > 255 {
            bail!("--level {level} is out of range (0..=255)");
        }
        let (Some(board), Some(p)) = (&self.board, self.piece) else {
            bail!("give --position FILE, or --board and --piece");
        };
        let next = self.next.map(|n| piece("--next", n)).transpose()?;
        Position::from_parts(
            board,
            piece("--piece", p)?,
            next,
            level as u8,
            self.lines.unwrap_or(0),
            self.score.unwrap_or(0),
        )
        .map_err(|e| anyhow::anyhow!("--{e}"))
    }

    fn query(&self) -> anyhow::Result<Query> {
        let progress = match (&self.at, self.elapsed) {
            (Some(at), Some(frames)) => {
                let (orientation, x, y) = lock("--at", at)?;
                Some(Progress {
                    frames,
                    orientation,
                    x,
                    y,
                })
            }
            _ => None,
        };
        Ok(Query {
            position: self.position()?,
            ai: self.ai.config()?,
            double_killscreen: self.double_killscreen,
            progress,
        })
    }
}

fn lock_name(p: &Placement) -> String {
    format!("{:?} x{} y{}", p.orientation, p.x, p.y)
}

fn print_table(q: &Query, args: &BestArgs, a: &Answer, rating: Option<(&str, &Rating)>) {
    let p = &q.position;
    println!(
        "piece {} next {} · level {} lines {} score {} · {} Hz · reaction {} · {} locks reachable{}",
        p.piece.letter(),
        p.next.map_or("?".to_string(), |n| n.letter().to_string()),
        p.level,
        p.lines,
        p.score,
        args.ai.hz,
        args.ai.reaction,
        a.placements.len(),
        if q.double_killscreen {
            " · double killscreen from level 39 (departure from the original)"
        } else {
            ""
        }
    );
    println!(
        "value: the AI's evaluation over two plies, lower is better; * = the AI player's choice"
    );
    let top: Vec<&Placement> = a.placements.iter().take(args.top.max(1)).collect();
    println!(
        "{:>4}  {:<11} {:>12}  {:>5} {:>5} {:>5}  inputs (one per frame)",
        "rank", "lock", "value", "clear", "lines", "level"
    );
    for (i, pl) in top.iter().enumerate() {
        println!(
            "{:>4}  {:<11} {:>12.2}  {:>5} {:>5} {:>5}  {}{}",
            i + 1,
            lock_name(pl),
            pl.value,
            pl.cleared,
            pl.lines,
            pl.level,
            frames_string(&pl.inputs),
            if pl.ai_choice { "  *" } else { "" }
        );
    }
    println!();
    let boards: Vec<Vec<String>> = top.iter().map(|pl| board_rows(&pl.board)).collect();
    println!(
        "{}",
        (1..=top.len())
            .map(|i| format!("{:<10}", format!("#{i}")))
            .collect::<Vec<_>>()
            .join("  ")
    );
    for r in 0..20 {
        println!(
            "{}",
            boards
                .iter()
                .map(|b| b[r].clone())
                .collect::<Vec<_>>()
                .join("  ")
        );
    }
    if let Some((lock, r)) = rating {
        println!();
        println!(
            "rated {lock}: rank {} of {}, value {:.2}, best {:.2}, lost {:.2}",
            r.rank, r.of, r.value, r.best, r.lost
        );
    }
}

/// Runs the command.
pub fn run(args: &BestArgs) -> anyhow::Result<ExitCode> {
    let q = args.query()?;
    let answer = analysis::analyse(&q)?;
    let rating = match &args.rate {
        Some(s) => {
            let (o, x, y) = lock("--rate", s)?;
            Some((
                format!("{o:?} x{x} y{y}"),
                analysis::rate(&answer, o, x as i8, y as i8)?,
            ))
        }
        None => None,
    };
    if args.json {
        let v = analysis::to_json(
            &q,
            &args.ai.hz,
            &answer,
            args.top,
            rating.as_ref().map(|(_, r)| r),
        );
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        print_table(
            &q,
            args,
            &answer,
            rating.as_ref().map(|(l, r)| (l.as_str(), r)),
        );
    }
    Ok(ExitCode::SUCCESS)
}
