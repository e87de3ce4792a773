//! Options shared by the commands that start games and AI players.

use anyhow::{bail, Context};
use nestris_ai::{AiConfig, InputModel};
use nestris_engine::{GameType, StartConfig};

/// Which game to start.
#[derive(Debug, Clone, clap::Args)]
pub struct GameOptions {
    /// Start level (0..=19 as the menu allows; up to 255 accepted for experiments) [default:
    /// 18]. NES rules only.
    #[arg(long, value_parser = parse_level, allow_hyphen_values = true)]
    pub level: Option<u16>,
    /// Game type: a (marathon) or b (25 lines over garbage).
    #[arg(long = "type", value_enum, default_value_t = TypeArg::A)]
    pub game_type: TypeArg,
    /// B-type garbage height 0..=5.
    #[arg(long, default_value_t = 0)]
    pub height: u8,
    /// Seed: game i starts from the generator state derived from (seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The double killscreen of competition ROMs: from level 39 the piece falls two rows a
    /// frame. A departure from the original game (the field's AI format uses it).
    #[arg(long)]
    pub double_killscreen: bool,
    /// Start every game from the position in FILE (board, current and next piece, level,
    /// lines, score; see the README): a departure from the original game, labelled as one.
    /// Or from an engine snapshot: a reference trace (.jsonl.gz), whose header state every
    /// game starts from (not a departure). Or a folder of position files `*.txt` (such as
    /// `bench --save-positions` writes): game i starts from the i-th file by name (from the
    /// first again after the last; bench warns then). NES rules, A-type only; it sets the
    /// level (no --level).
    #[arg(long, value_name = "FILE")]
    pub position: Option<std::path::PathBuf>,
    /// What --position holds, read once: one start point, or a folder's, with the CRC-32 of
    /// what was read.
    #[arg(skip)]
    pub position_cache:
        std::sync::OnceLock<Option<(Vec<nestris_session::position::StartPoint>, u32)>>,
}

/// Largest position file (a board is about 300 bytes; a trace may be a few MiB).
pub const MAX_POSITION_FILE: u64 = 256 << 20;

/// Most files a `--position` folder may hold.
pub const MAX_POSITION_FILES: usize = 100_000;

/// The files of a `--position` folder: every regular file named `*.txt` (not `.*`), in name
/// order; refused when there are none or more than [`MAX_POSITION_FILES`].
pub(crate) fn position_folder_files(
    dir: &std::path::Path,
) -> anyhow::Result<Vec<std::path::PathBuf>> {
    let mut files = Vec::new();
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the position folder {}", dir.display()))?;
    for e in entries {
        let e = e.with_context(|| format!("cannot read the position folder {}", dir.display()))?;
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || !name.ends_with(".txt") || !e.path().is_file() {
            continue;
        }
        files.push(e.path());
        if files.len() > MAX_POSITION_FILES {
            bail!(
                "position folder {}: more than {MAX_POSITION_FILES} files",
                dir.display()
            );
        }
    }
    if files.is_empty() {
        bail!(
            "position folder {}: no position files (*.txt) in it",
            dir.display()
        );
    }
    files.sort();
    Ok(files)
}

/// Reads one start point file (a position, or a trace's header state); a position must name
/// its next piece. Its bytes go into `crc`.
fn read_start_point(
    path: &std::path::Path,
    crc: &mut crc32fast::Hasher,
) -> anyhow::Result<nestris_session::position::StartPoint> {
    use nestris_session::position::StartPoint;
    let bytes = nestris_session::readlimit::read(path, MAX_POSITION_FILE)
        .with_context(|| format!("cannot read the position file {}", path.display()))?;
    crc.update(&bytes);
    let p = StartPoint::parse(&path.display().to_string(), &bytes)
        .with_context(|| format!("position file {}", path.display()))?;
    if matches!(&p, StartPoint::Position(p) if p.next.is_none()) {
        bail!(
            "position file {}: the next piece is missing (`next I`): a game needs it",
            path.display()
        );
    }
    Ok(p)
}

/// Reads every position file of a `--position` folder (positions only: a trace's state is
/// one game's start, not a set); each file's name and bytes go into `crc`.
fn read_position_folder(
    dir: &std::path::Path,
    crc: &mut crc32fast::Hasher,
) -> anyhow::Result<Vec<nestris_session::position::StartPoint>> {
    use nestris_session::position::StartPoint;
    let mut points = Vec::new();
    for f in position_folder_files(dir)? {
        crc.update(f.file_name().unwrap_or_default().as_encoded_bytes());
        let p = read_start_point(&f, crc)?;
        if !matches!(p, StartPoint::Position(_)) {
            bail!(
                "position folder {}: {} is a trace; a folder holds position files",
                dir.display(),
                f.display()
            );
        }
        points.push(p);
    }
    Ok(points)
}

/// `--rollouts-killscreen`'s default: the AI's, or `--rollouts`' default where the AI
/// leaves it to `rollouts`.
fn default_rollouts_killscreen() -> usize {
    let d = AiConfig::default();
    d.rollouts_killscreen.unwrap_or(d.rollouts)
}

/// Parses `--level`: every bad value (negative, too large, not a number) gets the same error.
pub fn parse_level(s: &str) -> Result<u16, String> {
    match s.trim().parse::<i64>() {
        Ok(n) if (0..=255).contains(&n) => Ok(n as u16),
        _ => Err(format!(
            "--level {s} is out of range (integers 0..=255; the menu offers 0..=19)"
        )),
    }
}

/// Largest `--threads`.
pub const MAX_THREADS: usize = 256;

/// Checks `--threads`: 1..=[`MAX_THREADS`] (thousands of threads take most of a minute just
/// to start).
pub fn check_threads(threads: Option<usize>) -> anyhow::Result<()> {
    match threads {
        Some(t) if t == 0 || t > MAX_THREADS => {
            bail!("--threads {t} is out of range (1..={MAX_THREADS}; leave it out for all cores)")
        }
        _ => Ok(()),
    }
}

/// Largest `bench --games` and `watch --games`: a million games take weeks; `bench` keeps a
/// list of the games to play, so a number like 10^18 would exhaust memory before the first
/// game.
pub const MAX_BENCH_GAMES: u64 = 1_000_000;

/// Checks `--games`: 1..=`max`.
pub fn check_games_at_most(games: u64, max: u64) -> anyhow::Result<()> {
    check_games(games)?;
    if games > max {
        bail!("--games {games} is out of range (1..={max})");
    }
    Ok(())
}

/// Checks `--games` (at least one game).
pub fn check_games(games: u64) -> anyhow::Result<()> {
    if games == 0 {
        bail!("--games must be at least 1");
    }
    Ok(())
}

/// Checks that a file can be created at `path` (its folder exists) before any work is done.
pub fn check_writable(option: &str, path: &std::path::Path) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if !dir.is_dir() {
        bail!(
            "{option} {}: the folder {} does not exist",
            path.display(),
            dir.display()
        );
    }
    if path.is_dir() {
        bail!("{option} {}: is a folder, not a file", path.display());
    }
    Ok(())
}

/// A or B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TypeArg {
    /// A-type.
    A,
    /// B-type.
    B,
}

/// The start level when `--level` is not given.
pub const DEFAULT_LEVEL: u16 = 18;

impl GameOptions {
    /// The start level (`--level`, 18 by default).
    pub fn level(&self) -> u16 {
        self.level.unwrap_or(DEFAULT_LEVEL)
    }

    /// The start point of `--position` (read once; the error names the file, the line and
    /// the problem); for a folder, its first file's.
    pub fn position(&self) -> anyhow::Result<Option<&nestris_session::position::StartPoint>> {
        Ok(self.start_points()?.and_then(|p| p.first()))
    }

    /// The start point of game `index`: `--position`'s, or for a folder the file
    /// `index` modulo their number.
    pub fn start_point(
        &self,
        index: u64,
    ) -> anyhow::Result<Option<&nestris_session::position::StartPoint>> {
        Ok(self
            .start_points()?
            .map(|p| &p[(index % p.len() as u64) as usize]))
    }

    /// Every start point of `--position` (one for a file, a folder's files in name order).
    pub fn start_points(&self) -> anyhow::Result<Option<&[nestris_session::position::StartPoint]>> {
        Ok(self.read_position()?.map(|(p, _)| p.as_slice()))
    }

    /// The CRC-32 of what `--position` holds (a folder's file names and contents, in name
    /// order; a file's contents): what the games depend on.
    pub fn position_crc32(&self) -> anyhow::Result<Option<u32>> {
        Ok(self.read_position()?.map(|(_, crc)| *crc))
    }

    /// `--position`, read once.
    fn read_position(
        &self,
    ) -> anyhow::Result<Option<&(Vec<nestris_session::position::StartPoint>, u32)>> {
        if let Some(p) = self.position_cache.get() {
            return Ok(p.as_ref());
        }
        let mut crc = crc32fast::Hasher::new();
        let parsed = match &self.position {
            None => None,
            Some(path) if path.is_dir() => Some(read_position_folder(path, &mut crc)?),
            Some(path) => Some(vec![read_start_point(path, &mut crc)?]),
        };
        let parsed = parsed.map(|p| (p, crc.finalize()));
        Ok(self.position_cache.get_or_init(|| parsed).as_ref())
    }

    /// Checks ranges; a clear message for each.
    pub fn validate(&self) -> anyhow::Result<()> {
        if let Some(path) = &self.position {
            if let Some(level) = self.level {
                bail!("--level {level} with --position: the position file sets the level");
            }
            if self.game_type != TypeArg::A || self.height > 0 {
                bail!("--position starts A-type games: leave out --type and --height");
            }
            self.position()?;
            let _ = path;
        }
        if self.level() > 255 {
            bail!(
                "--level {} is out of range (0..=255; the menu offers 0..=19)",
                self.level()
            );
        }
        if self.height > 5 {
            bail!("--height {} is out of range (0..=5)", self.height);
        }
        if self.game_type == TypeArg::B && self.level() > 19 {
            bail!(
                "--level {} is out of range for B-type (0..=19)",
                self.level()
            );
        }
        Ok(())
    }

    /// Checks the options against the rule set: levels, game types and the double
    /// killscreen are the NES engine's.
    pub fn check_rules(&self, rules: &RulesOptions) -> anyhow::Result<()> {
        if rules.rules == RulesArg::Nes {
            return Ok(());
        }
        let name = rules.rules_name();
        if self.double_killscreen {
            bail!("--double-killscreen is for the NES rules (--rules nes), not --rules {name}");
        }
        if let Some(level) = self.level {
            bail!(
                "--level {level} is for the NES rules (--rules nes): --rules {name} has no levels"
            );
        }
        if self.height > 0 || self.game_type != TypeArg::A {
            bail!("--type and --height apply to --rules nes only");
        }
        if self.position.is_some() {
            bail!("--position is for the NES rules (--rules nes), not --rules {name}");
        }
        rules.validate()
    }

    /// The start of game number `index` (deterministic in seed and index).
    pub fn start_config(&self, index: u64) -> StartConfig {
        let game_type = match self.game_type {
            TypeArg::A => GameType::A,
            TypeArg::B => GameType::B,
        };
        nestris_session::nes::start_config(
            self.seed,
            index,
            self.level() as u8,
            game_type,
            self.height,
        )
    }

    /// Game number `index`, ready for its first frame, with the departures these options ask
    /// for (the double killscreen, the start from a position).
    pub fn start_game(&self, index: u64) -> nestris_engine::Game {
        let start = self.start_config(index);
        let mut game = match self.start_point(index).ok().flatten() {
            Some(p) => p.game(&start),
            None => nestris_engine::Game::start(start),
        };
        game.set_double_killscreen(self.double_killscreen);
        game
    }

    /// Game number `index` as the session's NES game, dealing from `randomizer` instead of
    /// the game's picker when given (a departure).
    pub fn nes(
        &self,
        index: u64,
        randomizer: Option<nestris_classic::AnyRandomizer>,
    ) -> nestris_session::nes::Nes {
        let mut nes = nestris_session::nes::Nes::new(self.start_game(index), randomizer);
        nes.from_position = self
            .position()
            .ok()
            .flatten()
            .is_some_and(|p| p.is_departure());
        nes
    }
}

/// How the AI plays.
#[derive(Debug, Clone, clap::Args)]
pub struct AiOptions {
    /// Tap speed: 30, 20, 15, 12 or 10 (Hz), or a frame mask such as X. or X.. (presses
    /// only on the mask's frames from the spawn, StackRabbit's timeline); either with
    /// `-spaced` (30-spaced, X.-spaced): presses at least that far apart on any frame, so a
    /// tuck can be made on any row (BetaTetris's rule).
    #[arg(long, default_value = "30")]
    pub hz: String,
    /// Reaction time in frames: the next piece is seen this many frames after a spawn.
    #[arg(long, default_value_t = 18)]
    pub reaction: u32,
    /// Evaluation preset: `default` (this project's tuned weights) or `meatfighter-2014`
    /// (the seed article's six features and published weights).
    #[arg(long = "ai", default_value = "default")]
    pub preset: String,
    /// Evaluation weights from a TOML file (overrides --ai).
    #[arg(long)]
    pub weights: Option<std::path::PathBuf>,
    /// Third ply once the next piece is seen: how many of the current piece's best locks are
    /// searched deeper (0 = two plies: the current and the next piece only).
    #[arg(long, default_value_t = AiConfig::default().deep_locks)]
    pub deep_locks: usize,
    /// Third ply: placements of the next piece followed, for each of those locks, by the
    /// expectation over the piece after it.
    #[arg(long, default_value_t = AiConfig::default().deep_next)]
    pub deep_next: usize,
    /// Fourth ply once the next piece is seen: how many of the third ply's best (lock, next
    /// placement) pairs are valued one piece deeper, by the expectation over the two pieces
    /// after the next of their best placements (0 = three plies).
    #[arg(long, default_value_t = AiConfig::default().fourth_ply)]
    pub fourth_ply: usize,
    /// Fifth ply under the fourth's conditions: how many of the fourth ply's best pairs are
    /// valued one piece deeper still, over the three pieces after the next (0 = four plies).
    #[arg(long, default_value_t = AiConfig::default().fifth_ply)]
    pub fifth_ply: usize,
    /// The fourth ply's piece after the next placed by two plies instead of greedily: its
    /// best K placements by their own cost, each valued by the expectation over the piece
    /// after of its best placement (0 = greedy).
    #[arg(long, default_value_t = AiConfig::default().fourth_ply_lookahead, value_name = "K")]
    pub fourth_ply_lookahead: usize,
    /// The blind third ply one piece deeper before level 29 (--fourth-ply-until): for each
    /// of its locks and next pieces, the best K of that piece's placements valued by the
    /// fourth ply (0 = the blind third ply alone).
    #[arg(long, default_value_t = AiConfig::default().blind_fourth, value_name = "K")]
    pub blind_fourth: usize,
    /// From level 19, the state the first --reaction frames commit to is chosen by
    /// third-ply values: for each possible next piece, its best N locks of the current piece
    /// are valued as the final choice will value them (0 = by two-piece values alone).
    #[arg(long, default_value_t = AiConfig::default().deep_commit, value_name = "N")]
    pub deep_commit: usize,
    /// The commitment before the preview is valued as a blind choice (the blind third ply,
    /// or the playouts where they are on) when the piece's search is shorter than --reaction
    /// plus this many frames; otherwise by two-piece values (third-ply values with
    /// --deep-commit) over every lock the committed state keeps open (0..=600 frames).
    #[arg(long, default_value_t = AiConfig::default().blind_commit_margin, value_name = "FRAMES")]
    pub blind_commit_margin: usize,
    /// The fourth ply is used below this level only.
    #[arg(long, default_value_t = AiConfig::default().fourth_ply_until)]
    pub fourth_ply_until: u8,
    /// The fourth ply is used only when no column is taller than this many rows (0..=20).
    #[arg(long, default_value_t = AiConfig::default().fourth_ply_max_height)]
    pub fourth_ply_max_height: u32,
    /// `--fourth-ply-max-height` before level 19, where the stack falls a row in three frames
    /// or more (0..=20).
    #[arg(long, default_value_t = AiConfig::default().fourth_ply_max_height_before_19)]
    pub fourth_ply_max_height_before_19: u32,
    /// Playouts on stacks taller than the fourth ply's height limit, before
    /// --fourth-ply-until: how many of the third ply's best (lock, next placement) pairs are
    /// valued by greedy playouts (--rollouts sequences of --rollout-depth pieces for each
    /// piece after the next) instead of the third ply (0 = off).
    #[arg(long, default_value_t = AiConfig::default().tall_playouts, value_name = "N")]
    pub tall_playouts: usize,
    /// Below --rollout-from-level, a piece that locks before the preview is seen (levels
    /// 19-28: a stack of about 9 rows or more) on a stack with a column taller than this
    /// many rows is placed by the playouts of the blind decisions instead of the blind third
    /// ply (0..=20; off unless given).
    #[arg(long, value_name = "ROWS")]
    pub blind_playouts_above: Option<u32>,
    /// Third ply when a piece locks before the next one is seen (level 39 on under the double
    /// killscreen): how many of the current piece's best locks are valued by the expectation
    /// over the next piece and the one after (0 = two plies).
    #[arg(long, default_value_t = AiConfig::default().blind_locks)]
    pub blind_locks: usize,
    /// That blind third ply: placements of each possible next piece followed.
    #[arg(long, default_value_t = AiConfig::default().blind_next)]
    pub blind_next: usize,
    /// Playouts instead of the blind third ply (a piece that locks before the next one is
    /// seen): how many of the current piece's best locks are valued by greedy playouts
    /// (0 = off).
    #[arg(long, default_value_t = AiConfig::default().rollout_locks)]
    pub rollout_locks: usize,
    /// Playouts per lock and possible next piece (the same sequences for every lock), except
    /// under the double killscreen (`--rollouts-double-killscreen`) and from level 29
    /// (`--rollouts-killscreen`): below level 29, the tall stacks' playouts.
    #[arg(long, default_value_t = AiConfig::default().rollouts)]
    pub rollouts: usize,
    /// Playouts per lock and possible next piece from level 29 where the piece falls a row a
    /// frame (levels 29-38 in the field's format; every level from 29 without the double
    /// killscreen), in place of `--rollouts`, which then counts below level 29 alone (the
    /// tall stacks' playouts); 0..=64. 32 since row 30 (16, the count of `--rollouts`,
    /// before it).
    #[arg(long, value_name = "N", default_value_t = default_rollouts_killscreen())]
    pub rollouts_killscreen: usize,
    /// Playouts per lock and possible next piece where the piece falls two rows a frame (the
    /// double killscreen, from level 39 when it is on; a departure), in place of `--rollouts`.
    #[arg(long, default_value_t = AiConfig::default().rollouts_double_killscreen)]
    pub rollouts_double_killscreen: usize,
    /// Pieces placed in each playout, the next piece first (1..=64), except under the double
    /// killscreen (`--rollout-depth-double-killscreen`).
    #[arg(long, default_value_t = AiConfig::default().rollout_depth)]
    pub rollout_depth: usize,
    /// Pieces placed in each playout where the piece falls two rows a frame (the double
    /// killscreen, from level 39 when it is on; a departure), in place of `--rollout-depth`
    /// (1..=64).
    #[arg(long, default_value_t = AiConfig::default().rollout_depth_double_killscreen)]
    pub rollout_depth_double_killscreen: usize,
    /// The level from which blind decisions use playouts.
    #[arg(long, default_value_t = AiConfig::default().rollout_from_level)]
    pub rollout_from_level: u8,
    /// What a playout that tops out costs, in the evaluation's units (a Tetris earns 37.6 to
    /// 200 of them, by phase): the price of risk in the blind decisions (1..=1e9).
    #[arg(long, default_value_t = AiConfig::default().rollout_death)]
    pub rollout_death: f64,
    /// The playouts' own piece choices weigh burned lines this many times the evaluation's
    /// `burns` weight (a playout is still valued with the evaluation's): 1 plays the
    /// evaluation's policy in the playouts (0..=100).
    #[arg(long, default_value_t = AiConfig::default().rollout_burns)]
    pub rollout_burns: f64,
    /// After the playouts, this many of the best locks play as many sequences again, and the
    /// choice is made among them on all their sequences (0 = off; 0..=64).
    #[arg(long, default_value_t = AiConfig::default().rollout_refine)]
    pub rollout_refine: usize,
    /// The playouts' second piece (the one after the next) stratified instead of drawn: for
    /// each next piece the sequences take each of the seven in turn, each playout weighed by
    /// the picker's chance of its second piece (the same expectation, less noise).
    #[arg(long)]
    pub rollout_stratify: bool,
    /// Soft drop once the piece's last move is made (true or false): Down held from the frame
    /// after the last press to the lock, for the game's soft-drop points (a row every 2
    /// frames, one point a row). The same locks; with the NES picker other pieces follow, as
    /// the frames to each lock change.
    #[arg(long, default_value_t = AiConfig::default().pushdown, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub pushdown: bool,
    /// The playouts at levels 29-38 place their first piece (the next piece) as a blind
    /// decision ranks it: its best this-many placements by their own cost are valued by the
    /// expectation over the piece after of its best placement (0 = greedy, as every later
    /// piece; 0..=64; 4 since row 27 of the README's ablation, 0 before). Before level 29
    /// `--rollout-lookahead-before-29` sets it.
    #[arg(long, default_value_t = AiConfig::default().rollout_lookahead)]
    pub rollout_lookahead: usize,
    /// `--rollout-lookahead` before level 29: in the tall stacks' playouts
    /// (`--tall-playouts`) and the blind choices' of `--blind-playouts-above` (0..=64).
    #[arg(long, default_value_t = AiConfig::default().rollout_lookahead_before_29)]
    pub rollout_lookahead_before_29: usize,
    /// `--rollout-lookahead` where the double killscreen's table plays (a departure: from
    /// level 39, and the last lines of level 38 it readies) or the piece falls two rows a
    /// frame (0..=64).
    #[arg(long, default_value_t = AiConfig::default().rollout_lookahead_double_killscreen)]
    pub rollout_lookahead_double_killscreen: usize,
    /// With a lookahead on (`--rollout-lookahead`, `--rollout-lookahead-double-killscreen`),
    /// how many of each playout's first pieces are placed by it, the next piece first
    /// (1..=64; a playout's last piece is always placed greedily; 2 since row 26 of the
    /// README's ablation, 1 is row 25's).
    #[arg(long, default_value_t = AiConfig::default().rollout_lookahead_pieces)]
    pub rollout_lookahead_pieces: usize,
    /// The playouts know the line cap in the `[endgame]` table's lines (a departure, as the
    /// cap is): a playout ends at the cap, and one that tops out with L lines left costs
    /// this many of the evaluation's units per Tetris those lines allowed (ceil(L / 4)), at
    /// most `--rollout-death`, instead of `--rollout-death` however few are left (1..=1e9;
    /// off by default).
    #[arg(long, value_name = "UNITS")]
    pub endgame_death: Option<f64>,
    /// The line cap the AI plays for: its weights' `[endgame]` table plays the last lines
    /// before it (a departure, as the cap is). By default the game's `--line-cap` where the
    /// command has one (`bench`, `tune`), except in a `bench` run that saves its games at the
    /// cap to go on with them later (`--save-positions-at` equal to `--line-cap`: the games
    /// pause there). 0: none, the AI plays as if the game went on.
    #[arg(long, value_name = "LINES")]
    pub ai_line_cap: Option<u32>,
}

impl AiOptions {
    /// The AI configuration these options describe.
    pub fn config(&self) -> anyhow::Result<AiConfig> {
        let input: InputModel = self.hz.parse()?;
        if let Some(rows) = self.blind_playouts_above.filter(|&r| r > 20) {
            bail!("--blind-playouts-above {rows} is out of range (0..=20 rows)");
        }
        if self.blind_commit_margin > 600 {
            bail!(
                "--blind-commit-margin {} is out of range (0..=600 frames)",
                self.blind_commit_margin
            );
        }
        if self.reaction > 600 {
            bail!(
                "--reaction {} is out of range (0..=600 frames)",
                self.reaction
            );
        }
        for (name, v) in [
            ("--deep-locks", self.deep_locks),
            ("--deep-next", self.deep_next),
            ("--deep-commit", self.deep_commit),
            ("--fourth-ply", self.fourth_ply),
            ("--fifth-ply", self.fifth_ply),
            ("--fourth-ply-lookahead", self.fourth_ply_lookahead),
            ("--blind-fourth", self.blind_fourth),
            ("--tall-playouts", self.tall_playouts),
            ("--blind-locks", self.blind_locks),
            ("--blind-next", self.blind_next),
            ("--rollout-locks", self.rollout_locks),
            ("--rollouts", self.rollouts),
            ("--rollouts-killscreen", self.rollouts_killscreen),
            (
                "--rollouts-double-killscreen",
                self.rollouts_double_killscreen,
            ),
            ("--rollout-depth", self.rollout_depth),
            (
                "--rollout-depth-double-killscreen",
                self.rollout_depth_double_killscreen,
            ),
            ("--rollout-refine", self.rollout_refine),
            ("--rollout-lookahead", self.rollout_lookahead),
            (
                "--rollout-lookahead-before-29",
                self.rollout_lookahead_before_29,
            ),
            (
                "--rollout-lookahead-double-killscreen",
                self.rollout_lookahead_double_killscreen,
            ),
        ] {
            if v > 64 {
                bail!("{name} {v} is out of range (0..=64)");
            }
        }
        for (name, v) in [
            ("--fourth-ply-max-height", self.fourth_ply_max_height),
            (
                "--fourth-ply-max-height-before-19",
                self.fourth_ply_max_height_before_19,
            ),
        ] {
            if v > 20 {
                bail!("{name} {v} is out of range (0..=20 rows)");
            }
        }
        if !(1.0..=1e9).contains(&self.rollout_death) {
            bail!(
                "--rollout-death {} is out of range (1..=1e9, in the evaluation's units)",
                self.rollout_death
            );
        }
        if let Some(d) = self.endgame_death.filter(|d| !(1.0..=1e9).contains(d)) {
            bail!("--endgame-death {d} is out of range (1..=1e9, in the evaluation's units)");
        }
        if !(0.0..=100.0).contains(&self.rollout_burns) {
            bail!(
                "--rollout-burns {} is out of range (0..=100, a multiple of the evaluation's burns weight)",
                self.rollout_burns
            );
        }
        if self.rollout_depth == 0 {
            bail!("--rollout-depth 0 is out of range (1..=64 pieces; --rollout-locks 0 turns playouts off)");
        }
        if !(1..=64).contains(&self.rollout_lookahead_pieces) {
            bail!("--rollout-lookahead-pieces {} is out of range (1..=64 pieces; --rollout-lookahead 0 turns the lookahead off)", self.rollout_lookahead_pieces);
        }
        if self.rollout_depth_double_killscreen == 0 {
            bail!("--rollout-depth-double-killscreen 0 is out of range (1..=64 pieces; --rollout-locks 0 turns playouts off)");
        }
        let mut cfg = AiConfig {
            input,
            reaction: self.reaction,
            deep_locks: self.deep_locks,
            deep_commit: self.deep_commit,
            blind_commit_margin: self.blind_commit_margin,
            deep_next: self.deep_next,
            fourth_ply: self.fourth_ply,
            fifth_ply: self.fifth_ply,
            fourth_ply_lookahead: self.fourth_ply_lookahead,
            blind_fourth: self.blind_fourth,
            fourth_ply_until: self.fourth_ply_until,
            fourth_ply_max_height: self.fourth_ply_max_height,
            fourth_ply_max_height_before_19: self.fourth_ply_max_height_before_19,
            tall_playouts: self.tall_playouts,
            blind_playouts_above: self.blind_playouts_above,
            blind_locks: self.blind_locks,
            blind_next: self.blind_next,
            rollout_locks: self.rollout_locks,
            rollouts: self.rollouts,
            rollouts_killscreen: Some(self.rollouts_killscreen),
            rollouts_double_killscreen: self.rollouts_double_killscreen,
            rollout_depth: self.rollout_depth,
            rollout_depth_double_killscreen: self.rollout_depth_double_killscreen,
            rollout_from_level: self.rollout_from_level,
            rollout_death: self.rollout_death,
            rollout_burns: self.rollout_burns,
            rollout_refine: self.rollout_refine,
            rollout_stratify: self.rollout_stratify,
            rollout_lookahead: self.rollout_lookahead,
            rollout_lookahead_before_29: self.rollout_lookahead_before_29,
            rollout_lookahead_double_killscreen: self.rollout_lookahead_double_killscreen,
            rollout_lookahead_pieces: self.rollout_lookahead_pieces,
            endgame_death: self.endgame_death,
            line_cap: self.ai_line_cap.filter(|&c| c > 0),
            pushdown: self.pushdown,
            ..AiConfig::default()
        };
        if self.ai_line_cap.is_some_and(|c| c > 9999) {
            bail!(
                "--ai-line-cap {} is out of range (0..=9999 lines)",
                self.ai_line_cap.unwrap_or(0)
            );
        }
        if let Some(path) = &self.weights {
            let text = crate::readlimit::read_to_string(path, crate::readlimit::max::SMALL)
                .with_context(|| format!("cannot read weights file {}", path.display()))?;
            cfg.weights = nestris_ai::Weights::from_toml(&text)
                .with_context(|| format!("weights file {}", path.display()))?;
            // Once per run (tune reads the options again for every candidate).
            static WARNED: std::sync::Once = std::sync::Once::new();
            WARNED.call_once(|| {
                for w in cfg.weights.warnings() {
                    eprintln!("warning: weights file {}: {w}", path.display());
                }
            });
        } else {
            cfg.weights = nestris_ai::Weights::preset(&self.preset)?;
        }
        Ok(cfg)
    }

    /// [`AiOptions::config`] for a game stopped at `game_cap` lines (0: none), which the AI
    /// plays for unless `--ai-line-cap` says otherwise.
    pub fn config_capped(&self, game_cap: u32) -> anyhow::Result<AiConfig> {
        let mut cfg = self.config()?;
        if self.ai_line_cap.is_none() && game_cap > 0 {
            cfg.line_cap = Some(game_cap);
        }
        Ok(cfg)
    }

    /// The fourth ply for reports: `8 pairs on stacks of at most 10 rows, before level 29`,
    /// or `off`.
    pub fn fourth_ply_label(&self) -> String {
        let commit = if self.deep_commit > 0 && self.deep_next > 0 {
            format!(
                "; the commitment from level 19 by the third ply of the best {} locks a next piece",
                self.deep_commit
            )
        } else {
            String::new()
        };
        // The playouts on tall stacks act where the fourth ply does not, so with it off too.
        let tall = if self.tall_playouts > 0 && self.deep_locks > 0 && self.deep_next > 0 {
            format!(
                "; on taller stacks, playouts ({} x {} pieces) for the best {} pairs",
                self.rollouts, self.rollout_depth, self.tall_playouts
            )
        } else {
            String::new()
        };
        if self.fourth_ply == 0 || self.deep_locks == 0 || self.deep_next == 0 {
            return format!("off{tall}{commit}");
        }
        let mut s = format!(
            "{} pairs on stacks of at most {} rows",
            self.fourth_ply, self.fourth_ply_max_height
        );
        if self.fourth_ply_max_height_before_19 != self.fourth_ply_max_height {
            s.push_str(&format!(
                " ({} before level 19)",
                self.fourth_ply_max_height_before_19
            ));
        }
        s.push_str(&format!(", before level {}", self.fourth_ply_until));
        if self.fourth_ply_lookahead > 0 {
            s.push_str(&format!(
                "; its first piece's best {} by two plies",
                self.fourth_ply_lookahead
            ));
        }
        if self.fifth_ply > 0 {
            s.push_str(&format!("; a fifth ply for the best {}", self.fifth_ply));
        }
        if self.blind_fourth > 0 {
            s.push_str(&format!(
                "; the blind choices' best {} a next piece one ply deeper",
                self.blind_fourth
            ));
        }
        s.push_str(&tall);
        s.push_str(&commit);
        s
    }

    /// The playouts for reports: `8 locks x 16 x 6 pieces from level 29`, or `off`.
    pub fn playouts_label(&self) -> String {
        // The count from level 29, where the label's playouts are counted (the tall
        // stacks' playouts below level 29 keep `rollouts`).
        let killscreen = self.rollouts_killscreen;
        if self.rollout_locks == 0 || (killscreen == 0 && self.rollouts_double_killscreen == 0) {
            "off".into()
        } else {
            let mut s = format!(
                "{} locks x {} x {} pieces from level {}",
                self.rollout_locks, killscreen, self.rollout_depth, self.rollout_from_level
            );
            if self.rollout_from_level < 29 && self.rollouts != killscreen {
                s.push_str(&format!(" ({} x below level 29)", self.rollouts));
            }
            if self.rollouts_double_killscreen != killscreen
                || self.rollout_depth_double_killscreen != self.rollout_depth
            {
                s.push_str(&format!(
                    ", {} x {} pieces under the double killscreen",
                    self.rollouts_double_killscreen, self.rollout_depth_double_killscreen
                ));
            }
            if self.rollout_death != AiConfig::default().rollout_death {
                s.push_str(&format!(", a top-out costs {}", self.rollout_death));
            }
            if let Some(d) = self.endgame_death {
                s.push_str(&format!(
                    ", the cap known in the endgame (a top-out {d} a Tetris left)"
                ));
            }
            if self.rollout_stratify {
                s.push_str(", the second piece stratified");
            }
            if self.rollout_refine > 0 {
                s.push_str(&format!(", the best {} played again", self.rollout_refine));
            }
            match (
                self.rollout_lookahead,
                self.rollout_lookahead_double_killscreen,
            ) {
                (0, 0) => {}
                (0, d) => s.push_str(&format!(
                    ", the first piece's best {d} by two plies under the double killscreen"
                )),
                (k, d) if k == d => {
                    s.push_str(&format!(", the first piece's best {k} by two plies"))
                }
                (k, d) => s.push_str(&format!(
                    ", the first piece's best {k} by two plies ({d} under the double killscreen)"
                )),
            }
            match self.rollout_lookahead_before_29 {
                b if b == self.rollout_lookahead => {}
                0 => s.push_str(", greedy before level 29"),
                b => s.push_str(&format!(", {b} before level 29")),
            }
            if self.rollout_lookahead_pieces != 1
                && (
                    self.rollout_lookahead,
                    self.rollout_lookahead_double_killscreen,
                    self.rollout_lookahead_before_29,
                ) != (0, 0, 0)
            {
                s.push_str(&format!(
                    " (the first {} pieces so)",
                    self.rollout_lookahead_pieces
                ));
            }
            if self.rollout_burns != AiConfig::default().rollout_burns {
                s.push_str(&format!(
                    ", burns weighed x{} in their choices",
                    self.rollout_burns
                ));
            }
            s
        }
    }

    /// A short label for reports.
    pub fn label(&self) -> String {
        match &self.weights {
            Some(p) => format!("weights {}", p.display()),
            None => format!("preset {}", self.preset),
        }
    }
}

/// Which rule set and piece randomizer (`--rules`, `--randomizer`, `--sega-next-game`).
#[derive(Debug, Clone, clap::Args)]
pub struct RulesOptions {
    /// Rule set: nes (the bit-exact engine), relaytris (the relay computer's game: 10x16, turn
    /// based, shown with `~` and `#`) or qbasic (the QBasic tutorial game: 10x20, gravity).
    /// --level, --type, --height, --hz and --reaction apply to nes only.
    #[arg(long, value_enum, default_value_t = RulesArg::Nes)]
    pub rules: RulesArg,
    /// Piece randomizer: nes, nes-seeded, sega, bloxeed, uniform, cycle, bag7 or file:PATH. Default: the
    /// rule set's own (nes; cycle for relaytris; uniform for qbasic); any other is a departure
    /// from the original and is labelled as one.
    #[arg(long, value_name = "NAME")]
    pub randomizer: Option<nestris_classic::RandomizerSpec>,
    /// Sega and Bloxeed: the seed of each following game, as the machine carries it over:
    /// skip (the game-over animation skipped) or watch (watched: one more rand() call; Sega
    /// only).
    #[arg(long, value_enum, default_value_t = SegaNextArg::Skip)]
    pub sega_next_game: SegaNextArg,
}

/// A rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RulesArg {
    /// NES Tetris (1989), the bit-exact engine.
    Nes,
    /// The relay computer's Tetris (nestris_classic::Relaytris).
    Relaytris,
    /// The QBasic tutorial Tetris (nestris_classic::Qbasic).
    Qbasic,
}

impl RulesOptions {
    /// The rule set.
    pub fn rules(&self) -> nestris_session::Rules {
        match self.rules {
            RulesArg::Nes => nestris_session::Rules::Nes,
            RulesArg::Relaytris => nestris_session::Rules::Relaytris,
            RulesArg::Qbasic => nestris_session::Rules::Qbasic,
        }
    }
}

/// `--sega-next-game`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SegaNextArg {
    /// Game-over animation skipped.
    #[default]
    Skip,
    /// Game-over animation watched.
    Watch,
}
