//! Piece randomizers of the classic (pre-NES and non-NES) games.
//!
//! | name      | type              | rule                                               |
//! |-----------|-------------------|----------------------------------------------------|
//! | `sega`    | [`SegaGame`]      | Sega System 16 Tetris (1988): 1000-piece table      |
//! | `bloxeed` | [`BloxeedGame`]   | Bloxeed (1989): Sega's rand, endless stream         |
//! | `uniform` | [`Uniform`]       | independent uniform pieces (SplitMix64)             |
//! | `cycle`   | [`Cycle`]         | fixed order I O T S J Z L                           |
//! | `bag7`    | [`Bag7`]          | 7-bags, Fisher–Yates with SplitMix64                |
//! | `nes-seeded` | [`NesSeeded`]  | the NES picker's rule, its generator drawn per pick |
//! | `file:P`  | [`FileSequence`]  | letters read from a file, repeated                  |
//!
//! `nes` is parsed by [`RandomizerSpec`] but built by the engine crate.
//!
//! Everything here is deterministic: the same seed always gives the same
//! pieces on every platform.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use thiserror::Error;

use crate::piece::Piece;

/// The randomizer names accepted by [`RandomizerSpec::from_str`], as shown
/// in error messages.
pub const RANDOMIZER_CHOICES: &str =
    "nes, nes-seeded, sega, bloxeed, uniform, cycle, bag7, file:PATH";

/// A source of pieces.
pub trait Randomizer {
    /// The next piece of the sequence.
    fn next_piece(&mut self) -> Piece;

    /// The next `n` pieces.
    fn take_pieces(&mut self, n: usize) -> Vec<Piece> {
        (0..n).map(|_| self.next_piece()).collect()
    }
}

/// A randomizer chosen by name, before it is built.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RandomizerSpec {
    /// The NES randomizer; built by the engine, not by this crate.
    Nes,
    /// Sega Tetris (1988), see [`SegaGame`].
    Sega,
    /// Bloxeed (1989), see [`BloxeedGame`].
    Bloxeed,
    /// Independent uniform pieces, see [`Uniform`].
    Uniform,
    /// Fixed order I O T S J Z L, see [`Cycle`].
    Cycle,
    /// 7-bag, see [`Bag7`].
    Bag7,
    /// Pieces listed in a file; the caller reads it, see [`FileSequence`].
    File(PathBuf),
    /// The NES picker's rule on a generator drawn afresh at each pick, see [`NesSeeded`].
    NesSeeded,
}

/// Error from parsing a [`RandomizerSpec`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseRandomizerError {
    /// The name is not one of [`RANDOMIZER_CHOICES`].
    #[error("unknown randomizer `{0}`; valid choices: {RANDOMIZER_CHOICES}")]
    Unknown(String),
    /// `file:` was given without a path.
    #[error("randomizer `file:` needs a path (file:PATH); valid choices: {RANDOMIZER_CHOICES}")]
    EmptyPath,
}

impl FromStr for RandomizerSpec {
    type Err = ParseRandomizerError;

    /// Parses `nes`, `nes-seeded`, `sega`, `bloxeed`, `uniform`, `cycle`, `bag7` (names
    /// are case-insensitive) or `file:PATH` (the path is kept verbatim).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(path) = s.strip_prefix("file:") {
            return if path.is_empty() {
                Err(ParseRandomizerError::EmptyPath)
            } else {
                Ok(RandomizerSpec::File(PathBuf::from(path)))
            };
        }
        match s.to_ascii_lowercase().as_str() {
            "nes" => Ok(RandomizerSpec::Nes),
            "sega" => Ok(RandomizerSpec::Sega),
            "bloxeed" => Ok(RandomizerSpec::Bloxeed),
            "uniform" => Ok(RandomizerSpec::Uniform),
            "cycle" => Ok(RandomizerSpec::Cycle),
            "bag7" => Ok(RandomizerSpec::Bag7),
            "nes-seeded" => Ok(RandomizerSpec::NesSeeded),
            _ => Err(ParseRandomizerError::Unknown(s.to_string())),
        }
    }
}

impl fmt::Display for RandomizerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RandomizerSpec::Nes => f.write_str("nes"),
            RandomizerSpec::Sega => f.write_str("sega"),
            RandomizerSpec::Bloxeed => f.write_str("bloxeed"),
            RandomizerSpec::Uniform => f.write_str("uniform"),
            RandomizerSpec::Cycle => f.write_str("cycle"),
            RandomizerSpec::Bag7 => f.write_str("bag7"),
            RandomizerSpec::File(p) => write!(f, "file:{}", p.display()),
            RandomizerSpec::NesSeeded => f.write_str("nes-seeded"),
        }
    }
}

/// Error from building a randomizer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RandomizerError {
    /// A 32-bit randomizer was given a seed that does not fit in 32 bits.
    #[error(
        "seed {seed} (0x{seed:X}) does not fit in 32 bits, as the {randomizer} randomizer requires"
    )]
    SeedOutOfRange {
        /// Randomizer name.
        randomizer: &'static str,
        /// The offending seed.
        seed: u64,
    },
    /// A piece file held no piece letters.
    #[error("piece file contains no pieces")]
    EmptyFile,
    /// A piece file held a character that is neither whitespace nor a piece
    /// letter.
    #[error("invalid character {ch:?} in piece file at line {line}, column {column}; expected one of T J Z O S L I or whitespace")]
    InvalidChar {
        /// The character.
        ch: char,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// `nes` was asked of this crate; the engine provides it.
    #[error("the nes randomizer is provided by the engine, not by nestris-classic")]
    NesNotProvided,
    /// `file:PATH` was built without the file's text.
    #[error("randomizer file:{} needs the file's contents", .0.display())]
    MissingFileContents(PathBuf),
}

impl RandomizerSpec {
    /// Builds the randomizer for `seed`.
    ///
    /// `file_contents` must be the text of the file for
    /// [`RandomizerSpec::File`] and is ignored otherwise. `seed` is ignored
    /// by `cycle` and `file`; `sega` and `bloxeed` need it to fit in 32 bits
    /// (the first game after power-on with erased NVRAM is seed 0).
    pub fn build(
        &self,
        seed: u64,
        file_contents: Option<&str>,
    ) -> Result<AnyRandomizer, RandomizerError> {
        Ok(match self {
            RandomizerSpec::Nes => return Err(RandomizerError::NesNotProvided),
            RandomizerSpec::Sega => AnyRandomizer::Sega(SegaGame::new(seed32("sega", seed)?)),
            RandomizerSpec::Bloxeed => {
                AnyRandomizer::Bloxeed(BloxeedGame::new(seed32("bloxeed", seed)?))
            }
            RandomizerSpec::Uniform => AnyRandomizer::Uniform(Uniform::new(seed)),
            RandomizerSpec::Cycle => AnyRandomizer::Cycle(Cycle::new()),
            RandomizerSpec::Bag7 => AnyRandomizer::Bag7(Bag7::new(seed)),
            RandomizerSpec::NesSeeded => AnyRandomizer::NesSeeded(NesSeeded::new(seed)),
            RandomizerSpec::File(path) => match file_contents {
                Some(text) => AnyRandomizer::File(FileSequence::from_text(text)?),
                None => return Err(RandomizerError::MissingFileContents(path.clone())),
            },
        })
    }
}

fn seed32(randomizer: &'static str, seed: u64) -> Result<u32, RandomizerError> {
    u32::try_from(seed).map_err(|_| RandomizerError::SeedOutOfRange { randomizer, seed })
}

/// Any of this crate's randomizers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyRandomizer {
    /// See [`SegaGame`].
    Sega(SegaGame),
    /// See [`BloxeedGame`].
    Bloxeed(BloxeedGame),
    /// See [`Uniform`].
    Uniform(Uniform),
    /// See [`Cycle`].
    Cycle(Cycle),
    /// See [`Bag7`].
    Bag7(Bag7),
    /// See [`FileSequence`].
    File(FileSequence),
    /// See [`NesSeeded`].
    NesSeeded(NesSeeded),
}

impl Randomizer for AnyRandomizer {
    fn next_piece(&mut self) -> Piece {
        match self {
            AnyRandomizer::Sega(r) => r.next_piece(),
            AnyRandomizer::Bloxeed(r) => r.next_piece(),
            AnyRandomizer::Uniform(r) => r.next_piece(),
            AnyRandomizer::Cycle(r) => r.next_piece(),
            AnyRandomizer::Bag7(r) => r.next_piece(),
            AnyRandomizer::File(r) => r.next_piece(),
            AnyRandomizer::NesSeeded(r) => r.next_piece(),
        }
    }
}

// ---------------------------------------------------------------------------
// Sega / Bloxeed
// ---------------------------------------------------------------------------

/// Sega Tetris replaces a zero seed by this before each `rand()`.
pub const SEGA_ZERO_SEED: u32 = 0x2A6D_365A;
/// Bloxeed's default seed (its replacement for a zero seed).
pub const BLOXEED_DEFAULT_SEED: u32 = 0x2A6D_365B;

/// Letter order of piece numbers 0..7 in Sega Tetris and Bloxeed.
pub const SEGA_PIECE_ORDER: [Piece; 7] = [
    Piece::I,
    Piece::Z,
    Piece::S,
    Piece::O,
    Piece::T,
    Piece::L,
    Piece::J,
];

/// One call of Sega's `rand()` on a seed that is already non-zero.
///
/// Returns `(new_seed, result)`:
///
/// ```text
/// t      = seed * 41                                  (mod 2^32)
/// seed'  = t + (t << 16)                              (mod 2^32)
/// result = ((t & 0xFFFF) + (t >> 16)) | (seed & 0xFFFF0000)
/// ```
///
/// The sum in `result` can reach `0x1FFFE`, so its bit 16 is ORed into the
/// high half taken from the old seed; it is kept exactly as written (it
/// cannot overflow 32 bits). Note that `seed'` = `seed * 41 * 65537`, an odd
/// multiplier, so a non-zero seed never becomes zero.
pub fn sega_rand(seed: u32) -> (u32, u32) {
    let t = seed.wrapping_mul(41);
    let new_seed = t.wrapping_add(t << 16);
    let result = ((t & 0xFFFF) + (t >> 16)) | (seed & 0xFFFF_0000);
    (new_seed, result)
}

/// Sega's `rand()` with its state and zero-seed replacement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SegaRng {
    seed: u32,
    zero_seed: u32,
}

impl SegaRng {
    /// Sega Tetris's generator: a zero seed becomes [`SEGA_ZERO_SEED`].
    pub fn new(seed: u32) -> Self {
        Self::with_zero_seed(seed, SEGA_ZERO_SEED)
    }

    /// A generator replacing a zero seed by `zero_seed`.
    pub fn with_zero_seed(seed: u32, zero_seed: u32) -> Self {
        SegaRng { seed, zero_seed }
    }

    /// The current seed (as stored; may be 0 before the first call).
    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// One `rand()` call: replaces a zero seed, then applies [`sega_rand`].
    pub fn next_u32(&mut self) -> u32 {
        if self.seed == 0 {
            self.seed = self.zero_seed;
        }
        let (seed, result) = sega_rand(self.seed);
        self.seed = seed;
        result
    }
}

/// Length of Sega Tetris's piece table.
pub const SEGA_TABLE_LEN: usize = 1000;

/// Whether the player watched the game-over animation of a Sega game
/// (which costs one more `rand()` call before the next game's seed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SegaNextGame {
    /// The animation was skipped: the seed stands as after the 1000th piece.
    #[default]
    Skip,
    /// The animation was watched: one more `rand()` call.
    Watch,
}

/// The pieces of one Sega Tetris game.
///
/// At the start of a game 1000 pieces are generated, each
/// `(rand() & 0x3F) % 7` mapped through [`SEGA_PIECE_ORDER`]; the game then
/// deals that table over and over. The seed survives to the next game (see
/// [`SegaGame::next_game_seed`]); a power-on with erased NVRAM starts from 0.
#[derive(Clone, PartialEq, Eq)]
pub struct SegaGame {
    table: Vec<Piece>,
    position: usize,
    start_seed: u32,
    seed_after_table: u32,
}

impl fmt::Debug for SegaGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SegaGame")
            .field("start_seed", &self.start_seed)
            .field("position", &self.position)
            .field("seed_after_table", &self.seed_after_table)
            .finish_non_exhaustive()
    }
}

impl SegaGame {
    /// The game started with `seed` (what NVRAM held; 0 when erased).
    pub fn new(seed: u32) -> Self {
        let mut rng = SegaRng::new(seed);
        let table = (0..SEGA_TABLE_LEN)
            .map(|_| SEGA_PIECE_ORDER[((rng.next_u32() & 0x3F) % 7) as usize])
            .collect();
        SegaGame {
            table,
            position: 0,
            start_seed: seed,
            seed_after_table: rng.seed(),
        }
    }

    /// The seed this game started from.
    pub fn start_seed(&self) -> u32 {
        self.start_seed
    }

    /// The 1000-piece table.
    pub fn table(&self) -> &[Piece] {
        &self.table
    }

    /// How many pieces have been dealt so far.
    pub fn position(&self) -> usize {
        self.position
    }

    /// The seed the next game starts from.
    pub fn next_game_seed(&self, mode: SegaNextGame) -> u32 {
        match mode {
            SegaNextGame::Skip => self.seed_after_table,
            SegaNextGame::Watch => {
                let mut rng = SegaRng::new(self.seed_after_table);
                rng.next_u32();
                rng.seed()
            }
        }
    }

    /// The next game on the same machine.
    pub fn next_game(&self, mode: SegaNextGame) -> SegaGame {
        SegaGame::new(self.next_game_seed(mode))
    }
}

impl Randomizer for SegaGame {
    fn next_piece(&mut self) -> Piece {
        let piece = self.table[self.position % SEGA_TABLE_LEN];
        self.position += 1;
        piece
    }
}

/// The pieces of one Bloxeed game.
///
/// Bloxeed uses Sega's `rand()` with [`BLOXEED_DEFAULT_SEED`] as the
/// replacement for a zero seed (so an erased NVRAM, seed 0, behaves as
/// `0x2A6D365B`). A game takes one `rand()` of the main seed as its piece
/// seed (from `0x2A6D365B` that is `0x2A6D8010`) and then deals
/// `(rand() & 0x7F) % 7` pieces from the piece seed, endlessly, mapped
/// through [`SEGA_PIECE_ORDER`] like Sega Tetris.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BloxeedGame {
    start_seed: u32,
    piece_seed: u32,
    next_main_seed: u32,
    rng: SegaRng,
}

impl BloxeedGame {
    /// The game started from main seed `seed`.
    pub fn new(seed: u32) -> Self {
        let mut main = SegaRng::with_zero_seed(seed, BLOXEED_DEFAULT_SEED);
        let piece_seed = main.next_u32();
        BloxeedGame {
            start_seed: seed,
            piece_seed,
            next_main_seed: main.seed(),
            rng: SegaRng::with_zero_seed(piece_seed, BLOXEED_DEFAULT_SEED),
        }
    }

    /// The main seed this game started from.
    pub fn start_seed(&self) -> u32 {
        self.start_seed
    }

    /// The seed the pieces are drawn from (the result of one `rand()`).
    pub fn piece_seed(&self) -> u32 {
        self.piece_seed
    }

    /// The main seed after this game drew its piece seed.
    pub fn next_main_seed(&self) -> u32 {
        self.next_main_seed
    }
}

impl Randomizer for BloxeedGame {
    fn next_piece(&mut self) -> Piece {
        SEGA_PIECE_ORDER[((self.rng.next_u32() & 0x7F) % 7) as usize]
    }
}

// ---------------------------------------------------------------------------
// SplitMix64-based randomizers
// ---------------------------------------------------------------------------

/// SplitMix64 (Steele, Lea & Flood 2014), the crate's general-purpose PRNG.
///
/// `state += 0x9E3779B97F4A7C15`, then the output is the state mixed by
/// `z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27;
/// z *= 0x94D049BB133111EB; z ^= z >> 31`. The seed is the initial state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose initial state is `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), as `(next_u64() * n) >> 64`
    /// (Lemire's multiply-shift; bias below `n / 2^64`). Returns 0 for
    /// `n == 0`.
    pub fn below(&mut self, n: u32) -> u32 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u32
    }
}

/// Independent, uniformly random pieces: `Piece::ALL[rng.below(7)]` with
/// [`SplitMix64`] seeded by the seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uniform {
    rng: SplitMix64,
}

impl Uniform {
    /// The sequence for `seed`.
    pub fn new(seed: u64) -> Self {
        Uniform {
            rng: SplitMix64::new(seed),
        }
    }
}

impl Randomizer for Uniform {
    fn next_piece(&mut self) -> Piece {
        Piece::ALL[self.rng.below(7) as usize]
    }
}

/// The relay-computer game's fixed order.
pub const CYCLE_ORDER: [Piece; 7] = [
    Piece::I,
    Piece::O,
    Piece::T,
    Piece::S,
    Piece::J,
    Piece::Z,
    Piece::L,
];

/// The fixed order [`CYCLE_ORDER`] (I O T S J Z L), repeating.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cycle {
    position: usize,
}

impl Cycle {
    /// The cycle from its start (I).
    pub fn new() -> Self {
        Cycle { position: 0 }
    }
}

impl Randomizer for Cycle {
    fn next_piece(&mut self) -> Piece {
        let piece = CYCLE_ORDER[self.position];
        self.position = (self.position + 1) % CYCLE_ORDER.len();
        piece
    }
}

/// 7-bag: each group of 7 pieces is a permutation of all seven.
///
/// Each bag starts from [`Piece::ALL`] (T J Z O S L I) and is shuffled by
/// Fisher–Yates: for `i` from 6 down to 1, swap `i` with `rng.below(i + 1)`,
/// using [`SplitMix64`] seeded by the seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bag7 {
    rng: SplitMix64,
    bag: [Piece; 7],
    position: usize,
}

impl Bag7 {
    /// The sequence for `seed`.
    pub fn new(seed: u64) -> Self {
        Bag7 {
            rng: SplitMix64::new(seed),
            bag: Piece::ALL,
            position: 7,
        }
    }
}

impl Randomizer for Bag7 {
    fn next_piece(&mut self) -> Piece {
        if self.position == 7 {
            self.bag = Piece::ALL;
            for i in (1..7).rev() {
                let j = self.rng.below(i as u32 + 1) as usize;
                self.bag.swap(i, j);
            }
            self.position = 0;
        }
        let piece = self.bag[self.position];
        self.position += 1;
        piece
    }
}

/// The NES picker's rule (`nestris_engine::rng::pick`: the spawn counter, the first choice
/// from the generator's high byte, the reroll of a 7 or a repeat) fed at each pick by a
/// generator value drawn from [`SplitMix64`] seeded by the seed, instead of the game's
/// generator, which steps once a frame.
///
/// In the original game the pieces depend on the frame each piece spawns on, so two players
/// (or two AIs) given the same seed see the same pieces only until their timings part, within
/// a few pieces. Here the pieces depend on the seed alone, as in the seeded modes of later
/// community ROMs: two AIs compared on the same seeds face the same pieces all game, so a
/// paired comparison measures their choices and not the pieces' luck. The pieces follow the
/// NES picker's rule at every pick, so their chances are the picker's for a generator value
/// taken at random, which the AI's search already assumes. A departure from the original.
///
/// The first pick starts from spawn id 0 and spawn counter 0, as after power-on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NesSeeded {
    rng: SplitMix64,
    spawn_id: u8,
    spawn_count: u8,
}

impl NesSeeded {
    /// The sequence for `seed`.
    pub fn new(seed: u64) -> Self {
        NesSeeded {
            rng: SplitMix64::new(seed),
            spawn_id: 0,
            spawn_count: 0,
        }
    }
}

impl Randomizer for NesSeeded {
    fn next_piece(&mut self) -> Piece {
        // A value of the generator's cycle (any 16-bit value but 0, which it never reaches).
        let value = 1 + self.rng.below(u16::MAX as u32) as u16;
        let p = nestris_engine::rng::pick(value, self.spawn_id, self.spawn_count);
        self.spawn_id = p.spawn_id;
        self.spawn_count = p.spawn_count;
        let kind = nestris_engine::Orientation::from_id(p.spawn_id)
            .expect("the picker returns a spawn orientation")
            .kind();
        Piece::ALL[kind as usize]
    }
}

/// Pieces listed as letters in a text, repeated from the start when
/// exhausted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSequence {
    pieces: Vec<Piece>,
    position: usize,
}

impl FileSequence {
    /// Parses `text`: piece letters `TJZOSLI` (either case); whitespace is
    /// ignored; anything else is an error naming its 1-based line and
    /// column (in characters). A text without pieces is an error.
    pub fn from_text(text: &str) -> Result<Self, RandomizerError> {
        let mut pieces = Vec::new();
        for (line_index, line) in text.lines().enumerate() {
            for (column_index, ch) in line.chars().enumerate() {
                if ch.is_whitespace() {
                    continue;
                }
                match Piece::from_letter(ch) {
                    Some(p) => pieces.push(p),
                    None => {
                        return Err(RandomizerError::InvalidChar {
                            ch,
                            line: line_index + 1,
                            column: column_index + 1,
                        })
                    }
                }
            }
        }
        if pieces.is_empty() {
            return Err(RandomizerError::EmptyFile);
        }
        Ok(FileSequence {
            pieces,
            position: 0,
        })
    }

    /// The pieces of one pass through the file.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }
}

impl Randomizer for FileSequence {
    fn next_piece(&mut self) -> Piece {
        let piece = self.pieces[self.position];
        self.position = (self.position + 1) % self.pieces.len();
        piece
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::letters;

    fn first(r: &mut impl Randomizer, n: usize) -> String {
        letters(&r.take_pieces(n))
    }

    // Hand derivation for Sega seed 1 (letters by index: I Z S O T L J):
    //
    // call 1: seed = 0x00000001
    //   t      = 1 * 41                          = 0x00000029
    //   seed'  = 0x29 + (0x29 << 16)             = 0x00290029
    //   result = (0x0029 + 0x0000) | 0x00000000  = 0x00000029
    //   0x29 & 0x3F = 41, 41 % 7 = 6 -> J
    // call 2: seed = 0x00290029
    //   t      = 0x00290029 * 41 = 0x0029*41 in each half (41*41 = 1681
    //            = 0x691, no carry between halves) = 0x06910691
    //   seed'  = 0x06910691 + 0x06910000          = 0x0D220691
    //   result = (0x0691 + 0x0691) | 0x00290000   = 0x00290D22
    //   0x22 = 34, 34 % 7 = 6 -> J
    // call 3: seed = 0x0D220691
    //   low half:  0x0691 * 41 = 1681 * 41 = 68921 = 0x10D39 -> 0x0D39, carry 1
    //   high half: 0x0D22 * 41 = 3362 * 41 = 137842 = 0x21A72, + 1 -> 0x1A73
    //   t      = 0x1A730D39
    //   seed'  = 0x1A730D39 + 0x0D390000          = 0x27AC0D39
    //   result = (0x0D39 + 0x1A73) | 0x0D220000   = 0x27AC | 0x0D220000
    //                                              = 0x0D2227AC
    //   0x2C = 44, 44 % 7 = 2 -> S
    #[test]
    fn sega_rand_hand_derivation_seed_1() {
        assert_eq!(sega_rand(1), (0x0029_0029, 0x0000_0029));
        assert_eq!(sega_rand(0x0029_0029), (0x0D22_0691, 0x0029_0D22));
        assert_eq!(sega_rand(0x0D22_0691), (0x27AC_0D39, 0x0D22_27AC));
        assert_eq!(first(&mut SegaGame::new(1), 3), "JJS");
    }

    #[test]
    fn sega_rand_sum_can_carry_into_bit_16() {
        // t = 0xFFFF_FFFF needs seed * 41 = -1 (mod 2^32), i.e.
        // seed = -(41^-1) mod 2^32 = 0x3E7063E7.
        let seed = 0x3E70_63E7u32;
        assert_eq!(seed.wrapping_mul(41), 0xFFFF_FFFF);
        let (_, result) = sega_rand(seed);
        // 0xFFFF + 0xFFFF = 0x1FFFE: bit 16 is set in the result.
        assert_eq!(result & 0x1_FFFF, 0x1_FFFE);
    }

    // Expected sequences below were computed with an independent Python
    // transcription of the rules in the module docs.
    #[test]
    fn sega_first_pieces() {
        assert_eq!(first(&mut SegaGame::new(0), 20), "TITIIJILSJOZZJLSJISL");
        assert_eq!(first(&mut SegaGame::new(1), 20), "JJSLJJIJOSOOILJSZZLO");
        assert_eq!(
            first(&mut SegaGame::new(SEGA_ZERO_SEED), 20),
            "TITIIJILSJOZZJLSJISL"
        );
        assert_eq!(first(&mut SegaGame::new(12345), 20), "LISIIJLSIOZTSOILSTOL");
        assert_eq!(
            first(&mut SegaGame::new(0x2A6D_365B), 20),
            "SJJTJJITJSLOIOTTJIIS"
        );
    }

    #[test]
    fn sega_repeats_every_1000() {
        let mut game = SegaGame::new(12345);
        let a = game.take_pieces(1000);
        let b = game.take_pieces(1000);
        assert_eq!(a, b);
        assert_eq!(a, game.table());
        assert_eq!(game.position(), 2000);
        // The table itself is not trivially periodic.
        assert_ne!(a[..500], a[500..]);
    }

    #[test]
    fn sega_next_game_seed() {
        let game = SegaGame::new(0);
        assert_eq!(game.next_game_seed(SegaNextGame::Skip), 0x2880_F2DA);
        assert_eq!(game.next_game_seed(SegaNextGame::Watch), 0x6190_E4EA);
        assert_eq!(
            SegaGame::new(1).next_game_seed(SegaNextGame::Skip),
            0x89DF_3F41
        );
        assert_eq!(
            SegaGame::new(12345).next_game_seed(SegaNextGame::Watch),
            0xF5A5_2061
        );
        assert_eq!(game.next_game(SegaNextGame::Skip).start_seed(), 0x2880_F2DA);
    }

    // Bloxeed power-on (main seed 0x2A6D365B):
    //   t      = 0x2A6D365B * 41 = 711800411 * 41 = 29183816851
    //          = 6 * 2^32 + 3414013075            = 0xCB7DB493 (mod 2^32)
    //   result = (0xB493 + 0xCB7D) | 0x2A6D0000 = 0x18010 | 0x2A6D0000
    //          = 0x2A6D8010 (bit 16 of the sum lands on 0x2A6D's bit 16,
    //            already set)
    // Pieces from 0x2A6D8010:
    //   t = 0xCB898290, result = (0x8290 + 0xCB89) | 0x2A6D0000
    //     = 0x14E19 | 0x2A6D0000 = 0x2A6D4E19; 0x19 = 25, 25 % 7 = 4 -> T
    //   next seed 0x4E198290: result 0x4E196B25; 0x25 = 37 % 7 = 2 -> S
    //   next seed 0x6B25E910: result 0x6B257CA2; 0x22 = 34 % 7 = 6 -> J
    #[test]
    fn bloxeed_power_on_piece_seed() {
        assert_eq!(sega_rand(BLOXEED_DEFAULT_SEED).1, 0x2A6D_8010);
        let game = BloxeedGame::new(BLOXEED_DEFAULT_SEED);
        assert_eq!(game.piece_seed(), 0x2A6D_8010);
        assert_eq!(BloxeedGame::new(0).piece_seed(), 0x2A6D_8010);
        assert_eq!(game.next_main_seed(), 0x8010_B493);
        assert_eq!(sega_rand(0x2A6D_8010), (0x4E19_8290, 0x2A6D_4E19));
    }

    #[test]
    fn bloxeed_first_pieces() {
        let expect = "TSJZJJTIJLOOLZITTZJT";
        assert_eq!(
            first(&mut BloxeedGame::new(BLOXEED_DEFAULT_SEED), 20),
            expect
        );
        assert_eq!(first(&mut BloxeedGame::new(0), 20), expect);
        assert_eq!(first(&mut BloxeedGame::new(1), 20), "OOITITJLZOILITZOLLJL");
        assert_eq!(
            first(&mut BloxeedGame::new(SEGA_ZERO_SEED), 20),
            "ZZJOITJZJSTIILLZLSJI"
        );
        assert_eq!(
            first(&mut BloxeedGame::new(12345), 20),
            "LZIJIJOLSJZJSOTTOJIT"
        );
    }

    #[test]
    fn splitmix_reference_values() {
        // Reference outputs of SplitMix64 from seed 0 (as in the public
        // reference implementation / Vigna's test vectors).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn uniform_first_pieces() {
        assert_eq!(first(&mut Uniform::new(0), 20), "IOTITZJLJIZLOOSOOLJL");
        assert_eq!(first(&mut Uniform::new(1), 20), "OLIOOLIOJLZSOOOJSLSI");
        assert_eq!(first(&mut Uniform::new(12345), 20), "TJTJOZTOOIJZLIIZLOLZ");
        assert_eq!(
            first(&mut Uniform::new(u64::from(SEGA_ZERO_SEED)), 20),
            "LJJLSSJSLSLOLTILSSII"
        );
    }

    #[test]
    fn uniform_is_roughly_uniform() {
        let mut counts = [0u32; 7];
        let mut r = Uniform::new(7);
        for p in r.take_pieces(70_000) {
            counts[p.index()] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn bag7_first_pieces_and_permutations() {
        assert_eq!(first(&mut Bag7::new(0), 21), "JLSOTZITZLOISJTSJZLIO");
        assert_eq!(first(&mut Bag7::new(1), 21), "TZIJLSOTZSLJOILSJTZIO");
        assert_eq!(first(&mut Bag7::new(12345), 21), "ZOLSIJTJSIOLZTTOZJSIL");
        for seed in [0, 1, 12345, u64::MAX] {
            let mut r = Bag7::new(seed);
            for _ in 0..100 {
                let mut bag = r.take_pieces(7);
                bag.sort();
                assert_eq!(bag, Piece::ALL);
            }
        }
    }

    #[test]
    fn nes_seeded_is_fixed_by_its_seed() {
        assert_eq!(first(&mut NesSeeded::new(0), 21), "OTJSTJOLTLTIOSISILZST");
        assert_eq!(first(&mut NesSeeded::new(1), 21), "ZTOLIJTLZLZIJLIZIZJIL");
        let mut a = NesSeeded::new(12345);
        let mut b = NesSeeded::new(12345);
        assert_eq!(a.take_pieces(1000), b.take_pieces(1000));
    }

    /// The transitions follow the NES picker: for each previous piece, the chances of the
    /// next are those of `nestris_engine::rng::pick` over every generator value (the
    /// first choice and its reroll, with the reroll's extra step, enumerated over the
    /// spawn counter's eight residues), within
    /// sampling error over 280,000 pieces.
    #[test]
    fn nes_seeded_deals_the_pickers_chances() {
        use nestris_engine::rng::pick;
        use nestris_engine::Orientation;
        let piece_of = |id: u8| Orientation::from_id(id).unwrap().kind() as usize;
        let mut r = NesSeeded::new(99);
        let mut counts = [[0u32; 7]; 7];
        let mut prev = r.next_piece().index();
        for _ in 0..280_000 {
            let p = r.next_piece().index();
            counts[prev][p] += 1;
            prev = p;
        }
        for (from, row) in counts.iter().enumerate() {
            let id = nestris_engine::piece::SPAWN_TABLE[from] as u8;
            assert_eq!(piece_of(id), from);
            let mut exact = [0f64; 7];
            // The first choice adds the spawn counter, which matters modulo 8.
            for count in 0..8 {
                for v in 1..=u16::MAX {
                    exact[piece_of(pick(v, id, count).spawn_id)] += 1.0 / (8.0 * u16::MAX as f64);
                }
            }
            let n: u32 = row.iter().sum();
            for to in 0..7 {
                let seen = row[to] as f64 / n as f64;
                assert!(
                    (seen - exact[to]).abs() < 0.012,
                    "from {from} to {to}: {seen} against {}",
                    exact[to]
                );
            }
        }
    }

    #[test]
    fn cycle_order() {
        let mut r = Cycle::new();
        assert_eq!(first(&mut r, 15), "IOTSJZLIOTSJZLI");
    }

    #[test]
    fn file_sequence() {
        let mut r = FileSequence::from_text("T J\n  zo\n\nI\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(first(&mut r, 7), "TJZOITJ");
        assert_eq!(
            FileSequence::from_text("TJ\nZ?O"),
            Err(RandomizerError::InvalidChar {
                ch: '?',
                line: 2,
                column: 2
            })
        );
        assert_eq!(
            FileSequence::from_text(" \n\t\n"),
            Err(RandomizerError::EmptyFile)
        );
        assert_eq!(FileSequence::from_text(""), Err(RandomizerError::EmptyFile));
        let msg = FileSequence::from_text("x").unwrap_err().to_string();
        assert!(msg.contains("line 1, column 1"), "{msg}");
    }

    #[test]
    fn parse_specs() {
        for (s, spec) in [
            ("nes", RandomizerSpec::Nes),
            ("sega", RandomizerSpec::Sega),
            ("Bloxeed", RandomizerSpec::Bloxeed),
            ("uniform", RandomizerSpec::Uniform),
            ("cycle", RandomizerSpec::Cycle),
            ("bag7", RandomizerSpec::Bag7),
            ("NES-seeded", RandomizerSpec::NesSeeded),
            ("file:a/b.txt", RandomizerSpec::File("a/b.txt".into())),
        ] {
            assert_eq!(s.parse::<RandomizerSpec>(), Ok(spec.clone()));
            assert_eq!(spec.to_string().parse::<RandomizerSpec>(), Ok(spec));
        }
        let err = "tgm".parse::<RandomizerSpec>().unwrap_err();
        assert_eq!(err, ParseRandomizerError::Unknown("tgm".into()));
        let msg = err.to_string();
        assert!(
            msg.contains("nes, nes-seeded, sega, bloxeed, uniform, cycle, bag7, file:PATH"),
            "{msg}"
        );
        assert_eq!(
            "file:".parse::<RandomizerSpec>(),
            Err(ParseRandomizerError::EmptyPath)
        );
    }

    #[test]
    fn build_specs() {
        let big = 1u64 << 32;
        let err = RandomizerSpec::Sega.build(big, None).unwrap_err();
        assert_eq!(
            err,
            RandomizerError::SeedOutOfRange {
                randomizer: "sega",
                seed: big
            }
        );
        assert!(err.to_string().contains("4294967296"));
        assert!(RandomizerSpec::Bloxeed.build(big, None).is_err());
        assert!(RandomizerSpec::Bloxeed.build(big - 1, None).is_ok());
        assert_eq!(
            RandomizerSpec::Nes.build(0, None),
            Err(RandomizerError::NesNotProvided)
        );
        let file = RandomizerSpec::File("p.txt".into());
        assert_eq!(
            file.build(0, None),
            Err(RandomizerError::MissingFileContents("p.txt".into()))
        );
        let mut r = file.build(0, Some("OI")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(first(&mut r, 3), "OIO");
        let mut r = RandomizerSpec::Sega
            .build(1, None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(first(&mut r, 3), "JJS");
        let mut r = RandomizerSpec::Cycle
            .build(99, None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(first(&mut r, 3), "IOT");
        let mut r = RandomizerSpec::Bag7
            .build(0, None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(first(&mut r, 7), "JLSOTZI");
        let mut r = RandomizerSpec::Uniform
            .build(0, None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(first(&mut r, 3), "IOT");
    }
}
