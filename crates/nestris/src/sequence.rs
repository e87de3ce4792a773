//! `nestris sequence`: the pieces a randomizer deals, one line of letters per game; and the
//! per-game randomizers every command shares (so `sequence --seed S` prints exactly the
//! pieces that `watch`, `play` and `bench` deal with `--seed S`).
//!
//! # Seeds of consecutive games
//!
//! Game 0 uses `--seed` itself. Later games:
//!
//! * `sega`: the seed the machine carries over, [`SegaGame::next_game_seed`] of the previous
//!   game (`--sega-next-game skip|watch`); `bloxeed`: the previous game's main seed after it
//!   drew its piece seed ([`BloxeedGame::next_main_seed`]). Both need seeds of 32 bits.
//! * `uniform`, `bag7`, `nes-seeded`: seed + game index (wrapping).
//! * `cycle`, `file:PATH`: every game deals the same pieces from the start.
//! * `nes` (this command only; the engine's games use their own start configurations): the
//!   generator value and spawn counter of `StartConfig::from_seed(seed + game index, 0,
//!   GameType::A, 0)`, spawn id 0; before each piece the generator steps once per frame of the
//!   gap (`--gaps`, default 10 frames), then the game's picker (`rng::pick`) chooses. Real
//!   games also step the generator during line clears and between games; the gaps stand for
//!   all of that.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use nestris_classic::randomizer::{BloxeedGame, SegaGame};
use nestris_classic::{AnyRandomizer, Randomizer, RandomizerSpec, SegaNextGame};
use nestris_engine::{rng, GameType, Orientation, StartConfig};

use crate::options::{RulesArg, RulesOptions, SegaNextArg};

/// Largest seed of the 32-bit randomizers (sega, bloxeed).
const SEED32_MAX: u64 = u32::MAX as u64;

/// Print the pieces a randomizer deals.
#[derive(Debug, Clone, clap::Args)]
pub struct SequenceArgs {
    /// Randomizer: nes, nes-seeded, sega, bloxeed, uniform, cycle, bag7 or file:PATH.
    #[arg(long, value_name = "NAME", default_value = "nes")]
    pub randomizer: RandomizerSpec,
    /// Seed (decimal, or hex with 0x). sega and bloxeed need 0..=4294967295 (0 is the
    /// machine's erased NVRAM); cycle and file ignore it.
    #[arg(long, default_value = "1", value_parser = parse_seed, allow_hyphen_values = true)]
    pub seed: u64,
    /// Pieces per game (at most 1,000,000,000; the output is streamed).
    #[arg(long, default_value_t = 20)]
    pub count: u64,
    /// Games: one line each, for consecutive games (see --sega-next-game).
    #[arg(long, default_value_t = 1)]
    pub games: u64,
    /// nes only: frame gaps before each piece, whitespace-separated integers, used in turn
    /// and repeated (default: 10 frames before every piece).
    #[arg(long, value_name = "FILE")]
    pub gaps: Option<PathBuf>,
    /// Sega and Bloxeed: the seed of each following game: skip (game-over animation skipped)
    /// or watch (watched: one more rand() call; Sega only).
    #[arg(long, value_enum, default_value_t = SegaNextArg::Skip)]
    pub sega_next_game: SegaNextArg,
}

/// Parses a seed: decimal or `0x` hex, 0..=2^64-1.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => t.parse::<u64>(),
    };
    parsed.map_err(|_| {
        format!(
            "bad seed `{s}`: valid seeds are integers 0..={} (decimal, or hex with 0x); sega and bloxeed take 0..={SEED32_MAX}",
            u64::MAX
        )
    })
}

impl From<SegaNextArg> for SegaNextGame {
    fn from(a: SegaNextArg) -> Self {
        match a {
            SegaNextArg::Skip => SegaNextGame::Skip,
            SegaNextArg::Watch => SegaNextGame::Watch,
        }
    }
}

/// The randomizers of consecutive games (see the module docs for their seeds).
#[derive(Debug, Clone)]
pub struct GameRandomizers {
    spec: RandomizerSpec,
    text: Option<String>,
    seed: u64,
    mode: SegaNextGame,
    index: u64,
    /// The next Sega or Bloxeed game's seed.
    chain: u32,
}

impl GameRandomizers {
    /// Checks the spec and seed (reading `file:PATH`); `nes` is refused (the engine deals
    /// it).
    pub fn new(spec: &RandomizerSpec, seed: u64, mode: SegaNextGame) -> anyhow::Result<Self> {
        let text = match spec {
            RandomizerSpec::File(path) => Some(
                crate::readlimit::read_to_string(path, crate::readlimit::max::MEDIUM)
                    .with_context(|| format!("cannot read the piece file {}", path.display()))?,
            ),
            _ => None,
        };
        // Build once to report a bad seed or file now, with the valid choices.
        spec.build(seed, text.as_deref()).map_err(|e| {
            anyhow::anyhow!(
                "{e}; valid seeds for {spec}: 0..={}",
                if matches!(spec, RandomizerSpec::Sega | RandomizerSpec::Bloxeed) {
                    SEED32_MAX
                } else {
                    u64::MAX
                }
            )
        })?;
        Ok(GameRandomizers {
            spec: spec.clone(),
            text,
            seed,
            mode,
            index: 0,
            chain: seed as u32,
        })
    }

    /// The next game's randomizer.
    pub fn next_game(&mut self) -> AnyRandomizer {
        let r = match &self.spec {
            RandomizerSpec::Sega => {
                let game = SegaGame::new(self.chain);
                self.chain = game.next_game_seed(self.mode);
                AnyRandomizer::Sega(game)
            }
            RandomizerSpec::Bloxeed => {
                let game = BloxeedGame::new(self.chain);
                self.chain = game.next_main_seed();
                AnyRandomizer::Bloxeed(game)
            }
            spec => spec
                .build(self.seed.wrapping_add(self.index), self.text.as_deref())
                .expect("checked in GameRandomizers::new"),
        };
        self.index += 1;
        r
    }

    /// Skips `games` games, for a run that starts at a later game; false (nothing skipped)
    /// for more than none with Sega and Bloxeed, whose games chain each seed to the game
    /// before it.
    pub fn skip(&mut self, games: u64) -> bool {
        if matches!(self.spec, RandomizerSpec::Sega | RandomizerSpec::Bloxeed) {
            return games == 0;
        }
        self.index = self.index.wrapping_add(games);
        true
    }

    /// The randomizers of the first `games` games.
    pub fn take(&mut self, games: u64) -> Vec<AnyRandomizer> {
        (0..games).map(|_| self.next_game()).collect()
    }
}

impl RulesOptions {
    /// The randomizer in use: `--randomizer`, or the rule set's own.
    pub fn randomizer_spec(&self) -> RandomizerSpec {
        self.randomizer
            .clone()
            .unwrap_or(self.original_randomizer())
    }

    /// The rule set's own randomizer.
    pub fn original_randomizer(&self) -> RandomizerSpec {
        match self.rules {
            RulesArg::Nes => RandomizerSpec::Nes,
            RulesArg::Relaytris => RandomizerSpec::Cycle,
            RulesArg::Qbasic => RandomizerSpec::Uniform,
        }
    }

    /// Whether the randomizer is not the rule set's own.
    pub fn is_departure(&self) -> bool {
        self.randomizer_spec() != self.original_randomizer()
    }

    /// The rule set's name.
    pub fn rules_name(&self) -> &'static str {
        match self.rules {
            RulesArg::Nes => "nes",
            RulesArg::Relaytris => "relaytris",
            RulesArg::Qbasic => "qbasic",
        }
    }

    /// `randomizer: NAME`, with `(departure from the original)` when it is one.
    pub fn randomizer_label(&self) -> String {
        if self.is_departure() {
            format!(
                "randomizer: {} (departure from the original)",
                self.randomizer_spec()
            )
        } else {
            format!("randomizer: {}", self.randomizer_spec())
        }
    }

    /// Checks the combination; `nes` needs the NES engine.
    pub fn validate(&self) -> anyhow::Result<()> {
        if self.rules != RulesArg::Nes && self.randomizer_spec() == RandomizerSpec::Nes {
            bail!(
                "the nes randomizer needs the NES engine (--rules nes); for --rules {} choose one of nes-seeded, sega, bloxeed, uniform, cycle, bag7, file:PATH",
                self.rules_name()
            );
        }
        Ok(())
    }

    /// The randomizers of consecutive games from `seed`, or `None` for the NES picker.
    pub fn game_randomizers(&self, seed: u64) -> anyhow::Result<Option<GameRandomizers>> {
        self.validate()?;
        match self.randomizer_spec() {
            RandomizerSpec::Nes => Ok(None),
            spec => GameRandomizers::new(&spec, seed, self.sega_next_game.into()).map(Some),
        }
    }
}

/// Reads a gaps file: whitespace-separated non-negative integers, at least one.
fn read_gaps(path: &std::path::Path) -> anyhow::Result<Vec<u32>> {
    let text = crate::readlimit::read_to_string(path, crate::readlimit::max::MEDIUM)
        .with_context(|| format!("cannot read the gaps file {}", path.display()))?;
    crate::gaps::parse_gaps(&text, &path.display().to_string()).map_err(anyhow::Error::msg)
}

/// Largest `--count` (pieces per game): the output is streamed, so this bounds the time, not
/// the memory (about a second per ten million pieces).
pub const MAX_COUNT: u64 = 1_000_000_000;
/// Largest `--games`.
pub const MAX_GAMES: u64 = 1_000_000;
/// Largest `--count` x `--games`.
pub const MAX_TOTAL: u64 = 1_000_000_000;

/// The NES picker's pieces for `seed` (see the module docs), one at a time.
pub fn nes_piece_stream(seed: u64, gaps: &[u32]) -> impl Iterator<Item = char> + '_ {
    let start = StartConfig::from_seed(seed, 0, GameType::A, 0);
    let mut value = start.rng;
    let mut spawn_id = 0u8;
    let mut spawn_count = start.spawn_count;
    let gaps: &[u32] = if gaps.is_empty() { &[10] } else { gaps };
    (0..).map(move |i: usize| {
        // rng::advance costs at most one period, whatever the gap.
        value = rng::advance(value, gaps[i % gaps.len()]);
        let p = rng::pick(value, spawn_id, spawn_count);
        value = p.rng;
        spawn_id = p.spawn_id;
        spawn_count = p.spawn_count;
        Orientation::from_id(p.spawn_id)
            .expect("the picker returns a spawn orientation")
            .kind()
            .letter()
    })
}

/// The NES picker's first `count` pieces for `seed` (see the module docs).
#[cfg(test)]
pub fn nes_pieces(seed: u64, count: usize, gaps: &[u32]) -> String {
    nes_piece_stream(seed, gaps).take(count).collect()
}

/// Checks `--count` and `--games` against the limits, naming the option.
fn check_sizes(count: u64, games: u64) -> anyhow::Result<()> {
    if games == 0 {
        bail!("--games must be at least 1");
    }
    if games > MAX_GAMES {
        bail!("--games {games} is too large: at most {MAX_GAMES}");
    }
    if count > MAX_COUNT {
        bail!("--count {count} is too large: at most {MAX_COUNT} pieces per game");
    }
    if count.saturating_mul(games) > MAX_TOTAL {
        bail!("--count {count} x --games {games} is too large: at most {MAX_TOTAL} pieces in all");
    }
    Ok(())
}

/// Writes `pieces` as one line; `Ok(false)` when the reader went away (a closed pipe).
fn write_line(
    out: &mut impl std::io::Write,
    pieces: impl Iterator<Item = char>,
) -> anyhow::Result<bool> {
    let mut buf = [0u8; 4];
    let result = (|| -> std::io::Result<()> {
        for c in pieces {
            out.write_all(c.encode_utf8(&mut buf).as_bytes())?;
        }
        out.write_all(b"\n")
    })();
    match result {
        Ok(()) => Ok(true),
        // A closed pipe (`| head`) is not an error worth reporting.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(anyhow::Error::new(e).context("cannot write the sequence to stdout")),
    }
}

/// Runs the command.
pub fn run(args: &SequenceArgs) -> anyhow::Result<ExitCode> {
    if args.gaps.is_some() && args.randomizer != RandomizerSpec::Nes {
        bail!(
            "--gaps applies to --randomizer nes only (not {})",
            args.randomizer
        );
    }
    check_sizes(args.count, args.games)?;
    let count = args.count as usize;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    if args.randomizer == RandomizerSpec::Nes {
        let gaps = match &args.gaps {
            Some(p) => read_gaps(p)?,
            None => vec![10],
        };
        for i in 0..args.games {
            let pieces = nes_piece_stream(args.seed.wrapping_add(i), &gaps).take(count);
            if !write_line(&mut out, pieces)? {
                return Ok(ExitCode::SUCCESS);
            }
        }
    } else {
        let mut games =
            GameRandomizers::new(&args.randomizer, args.seed, args.sega_next_game.into())?;
        for _ in 0..args.games {
            let mut r = games.next_game();
            let pieces = (0..count).map(|_| r.next_piece().letter());
            if !write_line(&mut out, pieces)? {
                return Ok(ExitCode::SUCCESS);
            }
        }
    }
    use std::io::Write;
    match out.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("cannot write the sequence to stdout"))
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_parse() {
        assert_eq!(parse_seed("12345"), Ok(12345));
        assert_eq!(parse_seed("0x2A6D365A"), Ok(0x2A6D_365A));
        assert!(parse_seed("-1").unwrap_err().contains("0..="));
        assert!(parse_seed("abc").is_err());
    }

    #[test]
    fn sega_games_chain() {
        let mut g = GameRandomizers::new(&RandomizerSpec::Sega, 0, SegaNextGame::Skip)
            .unwrap_or_else(|e| panic!("{e}"));
        let first: String = g
            .next_game()
            .take_pieces(5)
            .iter()
            .map(|p| p.letter())
            .collect();
        assert_eq!(first, "TITII");
        let second = g.next_game();
        let AnyRandomizer::Sega(s) = second else {
            panic!("not sega")
        };
        assert_eq!(s.start_seed(), 0x2880_F2DA);
    }

    #[test]
    fn sizes_are_bounded() {
        assert!(check_sizes(20, 1).is_ok());
        assert!(check_sizes(MAX_COUNT, 1).is_ok());
        let e = check_sizes(MAX_COUNT + 1, 1).unwrap_err().to_string();
        assert!(e.contains("--count") && e.contains("too large"), "{e}");
        let e = check_sizes(u64::MAX, 1).unwrap_err().to_string();
        assert!(e.contains("--count"), "{e}");
        let e = check_sizes(1000, 0).unwrap_err().to_string();
        assert!(e.contains("--games"), "{e}");
        let e = check_sizes(MAX_COUNT, 2).unwrap_err().to_string();
        assert!(e.contains("in all"), "{e}");
    }

    #[test]
    fn huge_gaps_cost_one_period() {
        // A gap of billions of frames is the same as its remainder modulo the period (after
        // the first step), and quick.
        let big = nes_pieces(1, 20, &[u32::MAX]);
        let small = nes_pieces(1, 20, &[1 + (u32::MAX - 1) % rng::PERIOD]);
        assert_eq!(big, small);
    }

    #[test]
    fn nes_pieces_are_deterministic() {
        let a = nes_pieces(1, 50, &[10]);
        assert_eq!(a.len(), 50);
        assert_eq!(a, nes_pieces(1, 50, &[10]));
        assert_ne!(a, nes_pieces(2, 50, &[10]));
    }
}
