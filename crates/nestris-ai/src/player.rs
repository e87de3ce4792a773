//! The AI as a player: one controller byte per frame.
//!
//! # Design
//!
//! When a piece spawns the player knows the board and the piece (it was the preview), but sees
//! the new preview only `reaction` frames later. So it searches every lock of the current
//! piece under real timing ([`Search`]), and for each lock the best follow-up of each of the
//! seven possible next pieces ([`crate::search::quick_placements`]): two plies. The inputs of
//! the first `reaction` frames commit to a state of the search: the one whose reachable locks
//! give the best expected value over the next piece, weighted by the NES picker's exact
//! conditional probabilities. When the preview is seen, it picks the best lock still reachable from that
//! state for the piece that actually came. What the wait costs was measured by playing with
//! the preview seen at once (`--reaction 0`, paired, README "what the reaction time costs"):
//! nothing at level 18 (-1,598 +- 1,542 on 300 games to 130 lines), 18,256 +- 2,998 a game
//! and 8 games in 1000 at levels 19-28, where the piece is half way down by frame 18, and
//! 99,406 +- 10,306 at levels 29-38, where every decision is blind. With
//! [`AiConfig::deep_commit`] the commitment from level 19 weighs each next piece's best
//! locks by the third ply the final choice makes, instead of two plies: 6 locks gained
//! +4,375 +- 1,518 before level 29 over 2000 games (seed 7000's and, held out, seed 1's),
//! saving no game; on row 23's default, +3,113 +- 2,031 on the headline's 1000 games to
//! 230 lines (games lost there 6 -> 9). A few thousand points before level 29 alone, inside
//! the noise of whole games (docs/experiments.md, "After row 23"); 6 by default since row 28, with the
//! fifth ply and the fourth ply's piece by two plies (below).
//!
//! Two plies are not enough, and the third is spent where the decision is made:
//!
//! - **Preview seen in time** (levels 18-28 at 30 Hz: the commitment at frame 18 leaves most
//!   locks open): the final choice values the best [`AiConfig::deep_locks`] locks by their best
//!   [`AiConfig::deep_next`] placements of the known next piece, each followed by the
//!   expectation over the seven pieces after it.
//! - **Fourth ply, preview seen** ([`AiConfig::fourth_ply`], levels 18-28, on stacks of at
//!   most [`AiConfig::fourth_ply_max_height`] rows, before level 19
//!   [`AiConfig::fourth_ply_max_height_before_19`]): the third ply's best 8 pairs (a lock and
//!   a placement of the known next piece) are valued one piece deeper, StackRabbit's
//!   two-piece playouts with every sequence enumerated: for each of the seven pieces after
//!   the next, its best placement, followed by the expectation over the seven after it of
//!   their best placement. Measured on 500 games to 230 lines (`bench --line-cap 230
//!   --double-killscreen --seed 7000`), paired with three plies: 8 pairs +50,970 ± 6,288
//!   (pre-19 +26,114 ± 3,354, Tetris rate 66.2% -> 70.5%) but games below 230 lines 4 -> 9;
//!   only on stacks of at most 10 rows +48,352 ± 6,439 (pre-19 +22,645 ± 3,529; 4 -> 4);
//!   at most 8 rows +34,857 ± 6,565 (8). Before level 19 only: +22,987 ± 6,309. Into the
//!   killscreen, 200 games to 260 lines: +49,243 ± 12,479, games below 260 lines 10 -> 5;
//!   before level 27 only ([`AiConfig::fourth_ply_until`]), the same (+632 ± 5,509). To 130
//!   lines (300 games): 4 pairs +22,205 ± 4,525, 8 +26,627 ± 4,254, all 24 +26,924 ± 4,312
//!   at 1.68 / 2.34 / 5.07 ms a decision (0.95 ms without). Two of the deaths with every
//!   stack height, replayed, waited at level 19 in 12-13-row stacks with the well open
//!   (our reading: two more pieces of lookahead see an I often enough to keep waiting).
//! - **Fifth ply, preview seen** ([`AiConfig::fifth_ply`], under the fourth ply's
//!   conditions): the fourth ply's best pairs are valued one piece deeper still: for each
//!   of the seven pieces after the next, its best placement; for each of the seven after
//!   that, its best placement; then the expectation over the seven after those of their
//!   best placement (343 sequences a pair, every one enumerated). Measured on 300 games to
//!   230 lines (`bench --double-killscreen --line-cap 230 --seed 7000`), paired with four
//!   plies: 2 pairs +20,834 ± 8,485 (pre-19 +10,542 ± 4,604), 4.6 ms a decision (median,
//!   one core, against 2.3 ms); 4 pairs no better than 2 (+1,916 ± 8,766 on 264 of those
//!   games) at 6.9 ms. Held out (the first 411 games of the field's format, seed 1):
//!   -10,190 ± 20,394, pre-29 +1,542 ± 7,496, games below 230 lines 3 -> 7. Measured again
//!   after row 27 on pieces that do not depend on the play (`nes-seeded`, 400 games to 130
//!   lines): +9,521 ± 2,656 before level 19; held out on the headline's 1000 games to 230
//!   lines, +5,241 ± 2,282 before 19 and +6,854 ± 4,292 before 29 (games lost 6 -> 11).
//!   With [`AiConfig::fourth_ply_lookahead`] 2 and [`AiConfig::deep_commit`] 6 it is the
//!   default since row 28 (2 pairs): held out on those games, **+13,585 ± 4,132** before
//!   level 29 (+6,126 ± 2,230 before 19), games lost before 230 lines 6 -> 6; whole
//!   games 2,155,027 ± 9,186, +5,520 ± 12,464 against row 27's (docs/experiments.md, "Row 28").
//! - **Playouts on tall stacks, preview seen** ([`AiConfig::tall_playouts`], 8 pairs by
//!   default since row 21; levels 18-28 where the fourth ply is out because a column stands
//!   taller than its limit): the third ply's best pairs are valued by the greedy playouts
//!   the blind decisions use (below), started from the game after the lock and the next
//!   piece. Four plies see an I among the next pieces about half the time; a tall stack is
//!   lost to the droughts they cannot see. With them the default stacks two rows taller
//!   before level 19 (`[before_19] danger_height = 12`): held out on 1000 games to 230 lines,
//!   pre-19 +20,907 ± 2,281, pre-29 +23,814 ± 4,604, games lost before 230 lines 9 -> 6
//!   (docs/experiments.md, "Row 21").
//! - **Preview seen too late** (from level 29 the piece is nearly down at frame 18; from level
//!   39 under the double killscreen it has locked): the commitment itself is the choice, so it
//!   values the best [`AiConfig::blind_locks`] locks by the expectation over the next piece of
//!   its best [`AiConfig::blind_next`] placements, each followed by the expectation over the
//!   piece after. Measured on 30 games from level 29: +13% score; from level 39 under the
//!   double killscreen: lines survived 17 -> 35.
//!
//! - **Playouts for blind decisions** (from [`AiConfig::rollout_from_level`], level 29 by
//!   default): the blind third ply still misjudges how a stack survives the next pieces, so
//!   the best [`AiConfig::rollout_locks`] locks by the expected two-piece value are valued by
//!   greedy playouts instead (StackRabbit's idea, our own code): for each possible next piece,
//!   [`AiConfig::rollouts`] sequences of [`AiConfig::rollout_depth`] pieces drawn from the
//!   picker's transition probabilities, each piece placed at its best one-piece cost. A
//!   playout is worth the move costs on its way (clears, lock heights) plus its final board's
//!   cost, or [`AiConfig::rollout_death`] if it tops out; every lock plays the same sequences
//!   (common random numbers), seeded by the position, so games stay deterministic. Measured
//!   on 40 games from an empty level-39 board under the double killscreen (seed 7000): lines
//!   survived 54.7 -> 82.6 with 8 locks x 8 sequences x 6 pieces (4 pieces: 60.6; 10 pieces
//!   with 2 sequences: 42.4, too noisy); from level 29, 100 games: +34,050 +- 20,319. In the
//!   field's format, 1000 held-out games: +74,968 +- 9,279 (README, ablation row 7). About
//!   7 ms a decision (19 ms before the playouts shared their sequences' beginnings and the
//!   evaluator skipped work; the same games), against 3 ms for the blind third ply. Since
//!   then 16 sequences a next piece (the default): in the field's format, 500 games from
//!   seed 7000 paired with 8, +40,770 +- 12,524, games below 330 lines 12.8% -> 11.8%, at
//!   about twice the time of a decision from level 29. Under the double killscreen every
//!   decision is blind and 32 sequences a next piece are played
//!   ([`AiConfig::rollouts_double_killscreen`], row 16): paired with 16 from the positions
//!   at 330 lines, +8,736 +- 8,728 on seed 7000's 256 and +10,092 +- 6,780 on seed 1's 381,
//!   at twice the time of those decisions (README, ablation row 16); 64 since row 33,
//!   +16,330 +- 7,856 on row 28's 959 games from 326 lines at about twice the time again
//!   (114 ms median from level 39). Playouts in place of the third
//!   ply once the preview is seen lost a third of the pre-19 score (six greedy pieces do not
//!   keep a Tetris stack), so they are only used blind.
//!   A playout's first two pieces are placed by two plies (each piece's best 4 placements
//!   by their own cost, valued by the expectation over the piece after of its best
//!   placement; [`AiConfig::rollout_lookahead`]), so that the playouts play more as the
//!   player does: under the double killscreen +15,951 ± 7,705 (the first piece, row 25)
//!   and +8,500 ± 7,746 (the second, row 26) over 1000 games from 326 lines; at levels
//!   29-38 the two pieces +20,152 ± 6,800 before level 39 (625 of the headline's games
//!   from 230 lines to 330, games lost there 33 -> 25; row 27, README), at about 70 ms a
//!   decision there instead of 19. Before level 29, on the tall stacks' playouts, it
//!   was measured and not adopted ([`AiConfig::rollout_lookahead_before_29`]).
//!
//! A lock whose clear changes the level makes the next piece fall at the new level's speed;
//! the evaluation's weights change with the phase ([`Weights::at`]).
//!
//! Decision times (one core, the field's format): about 2.2 ms a piece before level 29 with
//! four plies (4.4 ms with the fifth ply, 0.9 ms with three: `cargo bench -p nestris-ai
//! --bench decide`); the third plies cost under 1 ms (preview seen) and about 3 ms (blind)
//! per decision, the playouts 12 ms (level 29) to 15 ms (double killscreen) with 16
//! sequences, measured with `nestris bench` on the proxies of the README's "Decision time".

use std::time::{Duration, Instant};

use nestris_engine::game::two_rows_a_frame;
use nestris_engine::{Game, Orientation, PieceKind};

use crate::board::Board;
use crate::eval::{Evaluator, MoveSummary, Weights, ENDGAME_PHASE, FEATURES};
use crate::input::InputModel;
use crate::search::{
    gravity_key, locks_in, quick_placements_cached, BoardBefore, QuickPaths, ReachSet, Search,
    Timing, GRAVITY_KEYS,
};
use crate::tune::SplitMix64;

/// A lock position: orientation and the piece centre's column and row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Orientation at lock.
    pub orientation: Orientation,
    /// Column of the piece's centre.
    pub x: u8,
    /// Row of the piece's centre.
    pub y: u8,
}

/// What the AI decided for one piece.
#[derive(Clone, Debug)]
pub struct Decision {
    /// Where the piece will lock.
    pub target: Placement,
    /// The evaluation of the chosen line (lower is better).
    pub cost: f64,
    /// Controller bytes from the frame after the decision on (one per frame).
    pub plan: Vec<u8>,
    /// Time the decision took (search and evaluation, both steps of a reaction split).
    pub elapsed: Duration,
    /// Locks the search found for this piece.
    pub placements: usize,
}

/// The AI's settings.
#[derive(Clone, Debug)]
pub struct AiConfig {
    /// Tap speed.
    pub input: InputModel,
    /// Reaction time in frames.
    pub reaction: u32,
    /// Evaluation weights.
    pub weights: Weights,
    /// How many of the current piece's locks (best first by a one-piece evaluation) are
    /// looked at with the next piece.
    pub beam: usize,
    /// Third ply, once the next piece is known: how many of the current piece's locks (best
    /// first by the two-piece value) are searched deeper. 0 = two plies only.
    pub deep_locks: usize,
    /// Third ply: how many placements of the known next piece (best first) each of those locks
    /// is followed by, before the expectation over the seven pieces after it.
    pub deep_next: usize,
    /// Fourth ply, once the next piece is known: how many of the third ply's best pairs (a
    /// lock of the current piece and a placement of the next) are valued one piece deeper:
    /// for each of the seven pieces after the next, its best placement, followed by the
    /// expectation over the seven pieces after that of their best placement (StackRabbit's
    /// two-piece playouts, every sequence enumerated, with the picker's probabilities).
    /// The choice is then made among those pairs. 0 = three plies.
    pub fourth_ply: usize,
    /// Fifth ply, once the next piece is known: how many of the fourth ply's best pairs are
    /// valued one piece deeper still: the two pieces after the next each placed at its best
    /// (every sequence of the two enumerated), followed by the expectation over the piece
    /// after them of its best placement. Under the fourth ply's conditions only; 0 = four
    /// plies (row 27 and before); 2 by default since row 28 of the README's ablation.
    pub fifth_ply: usize,
    /// The fourth ply's piece after the next placed by two plies instead of greedily: its
    /// best this-many placements by their own cost are each valued by the expectation over
    /// the piece after of that piece's best placement, and the best of them stands for it
    /// (the fourth ply's value becomes an expectimax over both pieces, as the player would
    /// place them; [`AiConfig::rollout_lookahead`] is the same for the playouts). Under the
    /// fourth ply's conditions only; 0 = greedy (row 27 and before); 2 by default since row
    /// 28 of the README's ablation.
    pub fourth_ply_lookahead: usize,
    /// The commitment by third-ply values (from level 19, when the piece will still be
    /// free when the preview is seen): for each possible next piece, its best this-many
    /// locks of the current piece (by their two-piece value) are valued by the third ply
    /// that choice will make ([`AiConfig::deep_next`] placements of that piece, each followed
    /// by the expectation over the piece after), so that the state the first
    /// [`AiConfig::reaction`] frames commit to keeps open the locks the final choice will
    /// want. The other locks keep their two-piece values, shifted by the largest gap
    /// between the two values among the locks valued deeper. 0 = the commitment by
    /// two-piece values alone (row 27 and before); 6 by default since row 28.
    pub deep_commit: usize,
    /// The commitment before the preview is valued as a blind choice (the blind third ply,
    /// or the playouts where they are on) when the piece's search, to its last lock, is
    /// shorter than the reaction time plus this many frames: then little is left to choose
    /// once the preview is seen (from level 29 at 30 Hz a piece falls in about 20 frames,
    /// against about 40 at levels 19-28). Otherwise by two-piece values, or with
    /// [`AiConfig::deep_commit`] by third-ply values. 10 by default.
    pub blind_commit_margin: usize,
    /// The fourth ply is used below this level only (from level 29 the choice once the
    /// preview is seen is among the few locks the blind commitment left open).
    pub fourth_ply_until: u8,
    /// The fourth ply is used only when no column of the board is taller than this (rows).
    pub fourth_ply_max_height: u32,
    /// [`AiConfig::fourth_ply_max_height`] before level 19 (the slow speed band, where a
    /// piece falls a row in three frames or more and the stack can stand taller).
    pub fourth_ply_max_height_before_19: u32,
    /// Playouts on tall stacks once the preview is seen: where the fourth ply is out because
    /// a column stands taller than its height limit ([`AiConfig::fourth_ply_max_height`],
    /// before level 19 [`AiConfig::fourth_ply_max_height_before_19`]; below
    /// [`AiConfig::fourth_ply_until`] only), the third ply's best this-many (lock, next
    /// placement) pairs are valued by greedy playouts from the game after both pieces: for
    /// each piece after the next, [`AiConfig::rollouts`] sequences of
    /// [`AiConfig::rollout_depth`] pieces, the same for every pair. A tall stack is where a
    /// drought longer than the plies see ends games. 0 = off; 8 by default since row 21 of
    /// the README's ablation, with the default weights' taller stack before level 19.
    pub tall_playouts: usize,
    /// Playouts for the blind choices on tall stacks below
    /// [`AiConfig::rollout_from_level`]: when the piece locks before the preview is seen
    /// (at levels 19-28, a stack of about 9 rows or more) and a column stands taller than
    /// this many rows, the locks are valued by the playouts of the blind decisions from level
    /// 29 ([`AiConfig::rollout_locks`] locks) instead of the blind third ply. `None` = off.
    pub blind_playouts_above: Option<u32>,
    /// Third ply when a piece must lock before the next one is seen (the reaction time is
    /// longer than the fall: from level 39 under the double killscreen): how many of the
    /// current piece's locks (best first by the expected two-piece value) are valued by the
    /// expectation over the next piece of its best `blind_next` placements, each followed by
    /// the expectation over the piece after. 0 = two plies only.
    pub blind_locks: usize,
    /// Placements of each possible next piece in that blind third ply.
    pub blind_next: usize,
    /// The blind third ply one piece deeper, below [`AiConfig::fourth_ply_until`]: for each
    /// of its locks and each possible next piece, the best this-many of that piece's
    /// `blind_next` placements (by their third-ply value) are valued by the fourth ply (the
    /// expectation over the two pieces after the next of their best placements, as a
    /// sighted choice values its pairs), and the best of them stands for the pair. 0 = the
    /// blind third ply alone. The default is 1 since row 31 (stop 93, with the base
    /// `danger_height` 10.5: results/dh105-blind4/README.md).
    pub blind_fourth: usize,
    /// Playouts for decisions made before the next piece is seen (see [`AiConfig::blind_locks`]):
    /// how many of the current piece's locks (best first by the expected two-piece value) are
    /// valued by greedy playouts instead of the blind third ply. 0 = off.
    pub rollout_locks: usize,
    /// Playouts per lock and possible next piece. Every lock plays the same piece sequences
    /// (drawn from the NES picker's transition probabilities, seeded by the position).
    /// From level 29 [`AiConfig::rollouts_killscreen`] takes its place if set, and under the
    /// double killscreen [`AiConfig::rollouts_double_killscreen`].
    pub rollouts: usize,
    /// Playouts per lock and possible next piece from level 29 where the piece falls a row a
    /// frame (levels 29-38 in the field's format; every level from 29 without the double
    /// killscreen), in place of [`AiConfig::rollouts`], which then counts below level 29
    /// alone (the tall stacks' playouts). `None` = [`AiConfig::rollouts`] there too.
    /// `Some(32)` by default since row 30: before level 39, +7,133 ± 8,946 on seed 7000's
    /// 398 games alive at 230 lines, +8,388 ± 5,537 on row 28's 994, +14,567 ± 6,922 on
    /// `--blind-fourth 1`'s 630 and +6,192 ± 5,511 in row 29's 1000 whole games (+6,815 ±
    /// 11,497 a whole game); 64 measured -1,409 ± 5,397 against 32 (docs/experiments.md,
    /// "Row 30").
    pub rollouts_killscreen: Option<usize>,
    /// Playouts per lock and possible next piece where the piece falls two rows a frame (the
    /// double killscreen, a departure, from level 39 when the game has it on), in place of
    /// [`AiConfig::rollouts`]: every decision there is blind, and its playouts decide more of
    /// the game than anywhere else (32, twice the count elsewhere, since row 16; 64 since
    /// row 33: on row 28's 959 games alive at 326 lines, paired with 32, +16,330 ± 7,856 a
    /// game, `results/dks-rollouts64/`).
    pub rollouts_double_killscreen: usize,
    /// Pieces placed in each playout after the current one, the next piece first. Each is
    /// placed at its best one-piece cost; a playout is worth the move costs on its way plus
    /// the cost of the board it ends on, or [`AiConfig::rollout_death`] if it tops out.
    /// Under the double killscreen [`AiConfig::rollout_depth_double_killscreen`] takes its
    /// place.
    pub rollout_depth: usize,
    /// Pieces placed in each playout where the piece falls two rows a frame (the double
    /// killscreen, a departure, from level 39 when the game has it on), in place of
    /// [`AiConfig::rollout_depth`].
    pub rollout_depth_double_killscreen: usize,
    /// What a playout that tops out costs (in the evaluation's units).
    pub rollout_death: f64,
    /// Playouts are used for blind decisions from this level on.
    pub rollout_from_level: u8,
    /// The playouts' own piece choices weigh burned lines (`burns`) this many times the
    /// evaluation's weight; a playout is still valued with the evaluation's. 1 = the same
    /// policy as the evaluation's (the default). Above 1 the playouts keep a Tetris-ready
    /// stack where the evaluation would burn it.
    pub rollout_burns: f64,
    /// After the playouts, this many of the best locks by their playouts' value play as many
    /// sequences again (new ones, the same for each of them), and the choice is made among
    /// them on all their sequences: less noise where the choice is close, for a fraction of
    /// the cost of more sequences for every lock. 0 = off (the default).
    pub rollout_refine: usize,
    /// The playouts' second piece (the one after the next) is not drawn but stratified: for
    /// each next piece, the sequences take each of the seven second pieces in turn (as
    /// evenly as their count allows), the rest drawn, and each playout weighs the picker's
    /// chance of its second piece shared among those that have it. The mean is as unbiased
    /// as the drawn one, without the noise of how often each second piece was drawn. Off
    /// by default.
    pub rollout_stratify: bool,
    /// The playouts' first piece (the next piece) is placed as a blind decision ranks its
    /// locks: its best this-many placements by their own cost are valued by the expectation
    /// over the piece after (the picker's probabilities) of that piece's best placement, and
    /// the best of them is played; every later piece is placed greedily. The first piece of
    /// a playout is placed once for all the sequences that start with it, so this costs
    /// about one more ply for each lock and next piece. 0 = greedy; 4 since row 27 of the
    /// README's ablation (with [`AiConfig::rollout_lookahead_pieces`] 2), which is where
    /// this setting acts: levels 29-38. Where the double killscreen's table plays,
    /// [`AiConfig::rollout_lookahead_double_killscreen`] takes its place, and before level
    /// 29 [`AiConfig::rollout_lookahead_before_29`].
    pub rollout_lookahead: usize,
    /// [`AiConfig::rollout_lookahead`] before level 29, where the playouts value the tall
    /// stacks' pairs ([`AiConfig::tall_playouts`]) or the blind choices of
    /// [`AiConfig::blind_playouts_above`]: 0 (greedy), as measured in the README's "Row 27:
    /// the playouts' first two pieces by two plies at levels 29-38, and not before level
    /// 29". (Until it was split off, [`AiConfig::rollout_lookahead`] set both.)
    pub rollout_lookahead_before_29: usize,
    /// [`AiConfig::rollout_lookahead`] where the double killscreen's table plays (a
    /// departure: from level 39, and the last lines of level 38 it readies), or the piece
    /// falls two rows a frame: 4 since row 25 of the README's ablation.
    pub rollout_lookahead_double_killscreen: usize,
    /// How many of a playout's first pieces are placed by two plies when a lookahead
    /// ([`AiConfig::rollout_lookahead`], [`AiConfig::rollout_lookahead_double_killscreen`])
    /// is on: 2 (the default since row 26 of the README's ablation) the next piece and the
    /// one after it, 1 the next piece alone; each one more piece costs about as much again
    /// as the one before, as its placements are shared by fewer sequences. A piece with no
    /// piece after it in the playout is placed greedily (1..=64).
    pub rollout_lookahead_pieces: usize,
    /// The playouts know the line cap in the `[endgame]` table's lines (a departure, as the
    /// cap is; [`AiConfig::line_cap`]): a playout ends at the cap (worth its moves' costs so
    /// far; no board is left to play), and one that tops out with `L` lines left before the
    /// cap costs this many units per Tetris it could still have made (`ceil(L / 4)`), at most
    /// [`AiConfig::rollout_death`]: near the cap a top-out loses only the lines left. `None`
    /// (the default): the playouts play on past the cap, and a top-out costs
    /// [`AiConfig::rollout_death`] however few lines are left. Measured at 600 and 2000 a
    /// Tetris and not adopted (docs/experiments.md, "After row 27: the endgame with today's search"):
    /// more games reach the cap, by burns, with fewer Tetrises.
    pub endgame_death: Option<f64>,
    /// The line count at which the game will be stopped, when the player is told (a
    /// departure: the field's format stops at 430 lines): the weights' `[endgame]` table
    /// plays the last lines before it. `None`: the game goes on until it tops out.
    pub line_cap: Option<u32>,
    /// Soft drop once the piece's last move is made: Down is held from the frame after the
    /// final plan's last press until the lock, so the piece falls the rest of the way one row
    /// every 2 frames (faster than gravity before level 19) and the game pays one point a row
    /// soft-dropped (its `addHoldDownPoints`, with the original's BCD slips). The lock is the
    /// same; only the points and the frames to it change, and with the NES picker, whose
    /// generator steps every frame, so do the pieces dealt after it. Never during the
    /// reaction time's commitment, whose later choice needs the piece high. On by default
    /// since row 29 of the README's ablation (off before).
    pub pushdown: bool,
}

impl Default for AiConfig {
    fn default() -> Self {
        AiConfig {
            input: InputModel::default(),
            reaction: 18,
            weights: Weights::default(),
            beam: 24,
            deep_locks: 6,
            deep_next: 4,
            fourth_ply: 8,
            fifth_ply: 2,
            fourth_ply_lookahead: 2,
            deep_commit: 6,
            blind_commit_margin: 10,
            fourth_ply_until: 29,
            fourth_ply_max_height: 10,
            fourth_ply_max_height_before_19: 10,
            tall_playouts: 8,
            blind_playouts_above: None,
            blind_locks: 3,
            blind_next: 2,
            blind_fourth: 1,
            rollout_locks: 8,
            rollouts: 16,
            rollouts_killscreen: Some(32),
            rollouts_double_killscreen: 64,
            rollout_depth: 6,
            rollout_depth_double_killscreen: 6,
            rollout_death: 100_000.0,
            rollout_from_level: 29,
            rollout_burns: 1.0,
            rollout_refine: 0,
            rollout_stratify: false,
            rollout_lookahead: 4,
            rollout_lookahead_before_29: 0,
            rollout_lookahead_double_killscreen: 4,
            rollout_lookahead_pieces: 2,
            endgame_death: None,
            line_cap: None,
            pushdown: true,
        }
    }
}

impl AiConfig {
    /// Which of the weights' phases ([`Weights::phases`]) the player is in at `level` with
    /// `lines` cleared (the line count, not the game's BCD counter): [`Weights::phase_capped`]
    /// with the line cap it is told ([`AiConfig::line_cap`]).
    pub fn phase(&self, level: u8, lines: u32, double_killscreen: bool, b_type: bool) -> usize {
        self.weights
            .phase_capped(level, lines, double_killscreen, b_type, self.line_cap)
    }

    /// The evaluator the player uses in phase `phase` ([`AiConfig::phase`]): that phase's
    /// weights at this tap speed. The double killscreen's table, from its `from_level` (and
    /// in the last `ready_lines` lines of the level before), and the killscreen table from
    /// `ready_from` ready the stack for two rows a frame: their
    /// reach is measured at that gravity. The killscreen table measures it at level 29's
    /// gravity at least, as it plays the last lines of level 28 with `ready_lines`.
    pub fn phase_evaluator(&self, phase: usize) -> Evaluator {
        self.evaluator_of(self.weights.phases()[phase].clone(), phase)
    }

    /// The evaluator of the playouts' piece choices in phase `phase`: the phase's weights
    /// with `burns` times [`AiConfig::rollout_burns`].
    pub fn rollout_evaluator(&self, phase: usize) -> Evaluator {
        let w = self.weights.phases()[phase].clone();
        let burns = w.get("burns") * self.rollout_burns;
        self.evaluator_of(w.with("burns", burns), phase)
    }

    fn evaluator_of(&self, weights: Weights, phase: usize) -> Evaluator {
        let e = Evaluator::new(weights).with_input(self.input.clone());
        let ready_from = self
            .weights
            .double_killscreen
            .as_ref()
            .and_then(|d| d.ready_from);
        match (phase, ready_from) {
            (3, _) => e.with_double_killscreen_reach(0),
            // The killscreen's end plays at level 29's gravity, as the killscreen table.
            (1 | 6, from) => {
                let e = e.with_min_reach_level(29);
                match from {
                    Some(from) => e.with_double_killscreen_reach(from),
                    None => e,
                }
            }
            _ => e,
        }
    }
}

/// The probability of each next piece (T J Z O S L I) given the current piece, under the NES
/// picker with a uniformly random generator: 1/8 each for the six others from the first roll,
/// plus the reroll (probability 2/8) spread over the seven with the current piece's
/// orientation id mod 7 counted twice.
pub fn next_piece_probabilities(current: PieceKind) -> [f64; 7] {
    let id = current.spawn() as usize;
    let mut p = [0.0; 7];
    for (n, pn) in p.iter_mut().enumerate() {
        if n != current as usize {
            *pn += 1.0 / 8.0;
        }
        let reroll = if n == id % 7 { 2.0 } else { 1.0 } / 8.0;
        *pn += 2.0 / 8.0 * reroll;
    }
    p
}

const TOP_OUT: f64 = 1.0e9;

/// The first level at which the piece falls a row every frame (the killscreen, level 29):
/// the game's gravity table has one entry for each level below it.
const KILLSCREEN_LEVEL: u8 = nestris_engine::game::FRAMES_PER_DROP.len() as u8;

struct Pending {
    search: Search,
    commit_t: usize,
    commit_node: usize,
    reach: Vec<Vec<ReachSet>>,
    v2: Vec<[f64; 7]>,
    after: Vec<After>,
    /// The third plies the commitment computed ([`Ai::commit_values`]), for the final choice.
    thirds: ThirdPlies,
    decide_at: usize,
    started: Duration,
}

/// Third plies already computed in a decision, by lock and next piece: the value of
/// [`Ai::third_ply_pairs`] and its pairs. The commitment by the third ply
/// ([`AiConfig::deep_commit`]) computes them for each next piece's best locks, and the final
/// choice once the preview is seen takes them from here instead of computing them again (the
/// same function of the same game: the same values).
#[derive(Clone, Default)]
struct ThirdPlies(Vec<(usize, PieceKind, ThirdPly)>);

/// A third ply's value and its pairs ([`Ai::third_ply_pairs`]).
type ThirdPly = (f64, Vec<(f64, After)>);

impl ThirdPlies {
    /// The entry of lock `li` and next piece `n`, taken out.
    fn take(&mut self, li: usize, n: PieceKind) -> Option<ThirdPly> {
        let i = self.0.iter().position(|e| e.0 == li && e.1 == n)?;
        Some(self.0.swap_remove(i).2)
    }
}

/// A best placement (its cost and where), or `None` where the piece has none.
type BestPlacement = Option<(f64, (u8, i8, i8))>;

/// What a pair's fourth ply ([`Ai::fourth_ply`]) found that its fifth ([`Ai::fifth_ply`])
/// looks for again, by piece (`None`: not looked for): the best placement of each piece after
/// the next, and after that one, of each piece after it.
#[derive(Clone, Default)]
struct FourthPly {
    first: [Option<BestPlacement>; 7],
    follow: [[Option<BestPlacement>; 7]; 7],
}

/// The game after one placement: what the next plies start from.
#[derive(Clone, Copy, Debug)]
struct After {
    board: Board,
    m: MoveSummary,
    /// Line counter (the game's BCD form) and level after the clear: the next piece falls at
    /// this level's speed.
    lines: u16,
    level: u8,
}

impl After {
    /// The game after placing a piece at `(o, x, y)` as placement number `slot`: the board
    /// with its lines cleared, the summary, and the line counter and level after the clear
    /// (A-type; B-type counts down and never changes the level).
    fn place(&self, o: u8, x: i8, y: i8, slot: usize, b_type: bool) -> After {
        let mut board = self.board;
        let cleared = board.lock(o, x, y);
        let mut m = self.m;
        m.add(slot, cleared, lock_height(o, y), self.level);
        let (mut lines, mut level) = (self.lines, self.level);
        if !b_type {
            for _ in 0..cleared {
                (lines, level) = nestris_engine::game::increment_lines(lines, level);
            }
        }
        After {
            board,
            m,
            lines,
            level,
        }
    }
}

/// The AI player.
pub struct Ai {
    cfg: AiConfig,
    /// One evaluator per phase of the weights ([`Weights::phases`]).
    evals: [Evaluator; 7],
    /// The playouts' piece choices, per phase: `evals` with burns weighed
    /// [`AiConfig::rollout_burns`] times.
    rollout_evals: [Evaluator; 7],
    /// Which of `evals` is in force ([`Weights::phase`]).
    eval_ks: usize,
    piece_id: Option<u8>,
    spawn_fc: u16,
    root_fc: u16,
    plan: Vec<u8>,
    expected: Vec<(i8, u8, i8)>,
    /// The first frame of the plan that holds Down ([`AiConfig::pushdown`]): from it on the
    /// piece falls faster than `expected` says, so only its column and orientation are
    /// checked. `usize::MAX`: none.
    pushdown_from: usize,
    pending: Option<Pending>,
    last: Option<Decision>,
    scratch: Vec<Vec<(u8, i8, i8)>>,
    /// Feature values and costs of the placements [`Ai::best_placement`] compares.
    feature_scratch: Vec<[f64; FEATURES.len()]>,
    /// The quick paths on the empty board at each gravity ([`gravity_key`]) and this tap
    /// speed, made when first needed.
    quick_paths: Box<[std::sync::OnceLock<QuickPaths>; GRAVITY_KEYS]>,
    cost_scratch: Vec<f64>,
    root: Root,
    decisions: u64,
    /// The double killscreen (a departure) as the game has it.
    double_killscreen: bool,
    b_type: bool,
}

/// The state the current plan starts from.
#[derive(Clone, Copy, Debug)]
struct Root {
    board: Board,
    x: i8,
    o: u8,
    y: i8,
    timing: Timing,
}

impl std::fmt::Debug for Ai {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ai")
            .field("cfg", &self.cfg)
            .finish_non_exhaustive()
    }
}

impl Clone for Ai {
    fn clone(&self) -> Self {
        Ai::new(self.cfg.clone())
    }
}

fn lock_height(o: u8, y: i8) -> u32 {
    let max_dy = nestris_engine::piece::MINOS[o as usize]
        .iter()
        .map(|m| m.1)
        .max()
        .unwrap_or(0);
    (19 - (y as i32 + max_dy as i32)).max(0) as u32
}

impl Ai {
    /// A player with these settings.
    pub fn new(cfg: AiConfig) -> Ai {
        Ai {
            evals: std::array::from_fn(|i| cfg.phase_evaluator(i)),
            rollout_evals: std::array::from_fn(|i| cfg.rollout_evaluator(i)),
            eval_ks: 0,
            cfg,
            piece_id: None,
            spawn_fc: 0,
            root_fc: 0,
            plan: Vec::new(),
            expected: Vec::new(),
            pushdown_from: usize::MAX,
            pending: None,
            last: None,
            scratch: Vec::new(),
            feature_scratch: Vec::new(),
            quick_paths: Box::new(std::array::from_fn(|_| std::sync::OnceLock::new())),
            cost_scratch: Vec::new(),
            decisions: 0,
            double_killscreen: false,
            b_type: false,
            root: Root {
                board: Board::new(),
                x: 0,
                o: 0,
                y: 0,
                timing: Timing::spawn(0),
            },
        }
    }

    /// The settings.
    pub fn config(&self) -> &AiConfig {
        &self.cfg
    }

    /// Tells the player the line cap it plays for ([`AiConfig::line_cap`], a departure),
    /// from its next decision on.
    pub fn set_line_cap(&mut self, line_cap: Option<u32>) {
        self.cfg.line_cap = line_cap;
    }

    /// How many decisions have been completed so far (one per piece, plus replans).
    pub fn decision_count(&self) -> u64 {
        self.decisions
    }

    /// The last decision made.
    pub fn last_decision(&self) -> Option<&Decision> {
        self.last.as_ref()
    }

    /// The controller byte to hold during the next frame, given the game after the last one.
    pub fn next_input(&mut self, game: &Game) -> u8 {
        if !game.piece_active() || game.paused() {
            if !game.piece_active() {
                self.plan.clear();
                self.pending = None;
            }
            return 0;
        }
        let id = game.spawn_count;
        let k = game.frame_counter.wrapping_sub(self.root_fc) as usize;
        let deviated = self.piece_id == Some(id)
            && k > 0
            && self.expected.get(k - 1).is_some_and(|&(x, o, y)| {
                if k > self.pushdown_from {
                    (x as u8, o) != (game.x, game.piece)
                } else {
                    (x as u8, o, y as u8) != (game.x, game.piece, game.y)
                }
            });
        if self.piece_id != Some(id) {
            self.piece_id = Some(id);
            self.spawn_fc = game.frame_counter;
            self.decide(game);
        } else if deviated
            || (k >= self.plan.len() && self.pending.is_none() && self.pushdown_from == usize::MAX)
        {
            self.decide(game);
        }
        let k = game.frame_counter.wrapping_sub(self.root_fc) as usize;
        if let Some(p) = &self.pending {
            if k >= p.decide_at {
                self.finish_pending(game);
            }
        }
        if k >= self.plan.len() && self.pending.is_none() && self.pushdown_from != usize::MAX {
            // Down held to the lock, which under the double killscreen comes later than the
            // plan's gravity says: a soft-drop frame drops one row, not two.
            return nestris_engine::buttons::DOWN;
        }
        self.plan.get(k).copied().unwrap_or(0)
    }

    /// The best lock for the current piece with the preview known (for hints): no reaction
    /// delay.
    pub fn hint(&self, game: &Game) -> Option<Placement> {
        if !game.piece_active() {
            return None;
        }
        let mut ai = Ai::new(AiConfig {
            reaction: 0,
            ..self.cfg.clone()
        });
        ai.piece_id = Some(game.spawn_count);
        ai.spawn_fc = game.frame_counter;
        ai.decide(game);
        ai.last.map(|d| d.target)
    }

    fn eval(&self) -> &Evaluator {
        &self.evals[self.eval_ks]
    }

    /// The evaluator of the playouts' piece choices ([`AiConfig::rollout_burns`]).
    fn rollout_eval(&self) -> &Evaluator {
        &self.rollout_evals[self.eval_ks]
    }

    fn timing(game: &Game) -> Timing {
        Timing {
            level: game.level,
            fall_timer: game.fall_timer,
            ary: game.autorepeat_y,
            double_killscreen: game.double_killscreen(),
        }
    }

    /// Plans from the current frame on.
    fn decide(&mut self, game: &Game) {
        let started = Instant::now();
        self.root_fc = game.frame_counter;
        self.plan.clear();
        self.expected.clear();
        self.pushdown_from = usize::MAX;
        self.pending = None;
        let board = Board::from_playfield(&game.playfield);
        let Some(current) = game.active_piece() else {
            return;
        };
        self.root = Root {
            board,
            x: game.x as i8,
            o: game.piece,
            y: game.y as i8,
            timing: Self::timing(game),
        };
        let since_spawn = game.frame_counter.wrapping_sub(self.spawn_fc) as usize;
        let wait = (self.cfg.reaction as usize).saturating_sub(since_spawn);
        let search = Search::run(
            &board,
            game.x as i8,
            game.piece,
            game.y as i8,
            Self::timing(game),
            &self.cfg.input,
            game.held,
        );
        if search.locks.is_empty() {
            return;
        }
        let level = game.level;
        self.double_killscreen = game.double_killscreen();
        self.b_type = game.game_type == nestris_engine::GameType::B;
        self.eval_ks = self.cfg.phase(
            level,
            game.lines_value(),
            self.double_killscreen,
            self.b_type,
        );
        // One-piece costs, to keep the best `beam` locks for the two-piece look.
        let now = After {
            board,
            m: MoveSummary {
                double_killscreen: self.double_killscreen,
                ..MoveSummary::default()
            },
            lines: game.lines,
            level,
        };
        let mut first: Vec<(f64, usize)> = Vec::with_capacity(search.locks.len());
        let mut after: Vec<After> = Vec::with_capacity(search.locks.len());
        for (i, l) in search.locks.iter().enumerate() {
            let a = now.place(l.o, l.x, l.y, 0, self.b_type);
            let c = if l.tops_out {
                TOP_OUT
            } else {
                self.eval().cost(&a.board, &a.m)
            };
            first.push((c, i));
            after.push(a);
        }
        first.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let known_next = if wait == 0 {
            game.next_piece().map(|o| o.kind())
        } else {
            None
        };
        let mut v2 = vec![[TOP_OUT * 2.0; 7]; search.locks.len()];
        for &(c1, i) in first.iter().take(self.cfg.beam.max(1)) {
            if c1 >= TOP_OUT {
                continue;
            }
            for n in PieceKind::ALL {
                if let Some(k) = known_next {
                    if k != n {
                        continue;
                    }
                }
                v2[i][n as usize] = self.best_follow_up(&after[i], n, 1);
            }
        }
        let elapsed = started.elapsed();
        if wait == 0 || search.layers.len() <= wait {
            // Either the preview is already known, or the piece locks before it is seen.
            let (li, cost) = if let Some(n) = known_next {
                self.choose_known(0..search.locks.len(), &v2, &after, n, None)
            } else {
                self.choose_blind(&v2, &after, current.kind())
            };
            self.plan = search.plan_eager(li);
            self.finish(&search, li, cost, started);
            return;
        }
        // Commit to a state at frame `wait`, or to a lock before it.
        let p = next_piece_probabilities(current.kind());
        let reach = search.reach_sets_from(wait);
        // When the piece is nearly down by the time the preview is seen (from level 29; at
        // levels 19-28 on a stack taller than about 6 rows), the commitment is in effect the
        // choice of the lock: value the best `blind_locks` locks with the blind third ply (or
        // the playouts) and commit among them.
        let nearly_down = search.layers.len() < wait + self.cfg.blind_commit_margin;
        let mut thirds = ThirdPlies::default();
        let vc: std::borrow::Cow<[[f64; 7]]> = if nearly_down && self.rollouts_on(level) {
            self.rollout_values(&v2, &after, current.kind()).into()
        } else if nearly_down && self.cfg.blind_locks > 0 {
            self.blind_values(&v2, &after, current.kind()).into()
        } else if !nearly_down && level >= 19 && self.cfg.deep_commit > 0 && self.cfg.deep_next > 0
        {
            self.commit_values(&v2, &after, &mut thirds).into()
        } else {
            (&v2[..]).into()
        };
        let mut best: (f64, Option<usize>, Option<usize>) = (f64::INFINITY, None, None);
        for (li, l) in search.locks.iter().enumerate() {
            if (l.frame as usize) <= wait {
                let v = expected(&vc[li], &p);
                if v < best.0 {
                    best = (v, None, Some(li));
                }
            }
        }
        for (ni, set) in reach[0].iter().enumerate() {
            let mut v = 0.0;
            for n in 0..7 {
                let m = locks_in(set).fold(f64::INFINITY, |m, li| m.min(vc[li][n]));
                v += p[n] * m;
            }
            if v < best.0 {
                best = (v, Some(ni), None);
            }
        }
        match best {
            (cost, None, Some(li)) => {
                self.plan = search.plan_eager(li);
                self.finish(&search, li, cost, started);
            }
            (_, Some(ni), _) => {
                self.plan = search.plan_to_node(wait, ni);
                self.expected = simulate(&self.root, &self.plan);
                self.pending = Some(Pending {
                    search,
                    commit_t: wait,
                    commit_node: ni,
                    reach,
                    v2,
                    after,
                    thirds,
                    decide_at: wait,
                    started: elapsed,
                });
            }
            _ => {
                // Nothing but top-outs: take the first lock.
                self.plan = search.plan_eager(0);
                self.finish(&search, 0, TOP_OUT, started);
            }
        }
    }

    /// The preview is now visible: choose among the locks reachable from the committed state.
    fn finish_pending(&mut self, game: &Game) {
        let Some(p) = self.pending.take() else {
            return;
        };
        let started = Instant::now();
        let n = game.next_piece().map(|o| o.kind() as usize).unwrap_or(0);
        let set = p.reach[0][p.commit_node];
        if set == [0; 4] {
            return;
        }
        let mut thirds = p.thirds;
        let (li, cost) = self.choose_known(
            locks_in(&set),
            &p.v2,
            &p.after,
            PieceKind::ALL[n],
            Some(&mut thirds),
        );
        if let Some(rest) = p.search.plan_from(p.commit_t, p.commit_node, li, &p.reach) {
            self.plan.truncate(p.commit_t);
            self.plan.extend(rest);
        }
        // `finish` measures from `started`; add the first step's time.
        let start_adj = started.checked_sub(p.started).unwrap_or(started);
        self.finish(&p.search, li, cost, start_adj);
    }

    fn finish(&mut self, search: &Search, li: usize, cost: f64, started: Instant) {
        let l = search.locks[li];
        // Expected positions after each planned frame, for deviation checks.
        self.expected = simulate(&self.root, &self.plan);
        if self.cfg.pushdown {
            // After the last press the piece falls straight to its lock: hold Down from the
            // next frame (it starts a soft drop only when newly pressed with Left and Right
            // released, which the frame after a press is).
            let from = self.plan.iter().rposition(|&b| b != 0).map_or(0, |j| j + 1);
            if from < self.plan.len() {
                self.pushdown_from = from;
                for b in &mut self.plan[from..] {
                    *b = nestris_engine::buttons::DOWN;
                }
            }
        }
        self.decisions += 1;
        self.last = Some(Decision {
            target: Placement {
                orientation: Orientation::ALL[l.o as usize],
                x: l.x as u8,
                y: l.y as u8,
            },
            cost,
            plan: self.plan.clone(),
            elapsed: started.elapsed(),
            placements: search.locks.len(),
        });
    }

    /// The values the commitment weighs ([`AiConfig::deep_commit`]): for each possible next
    /// piece, its best `deep_commit` locks by two-piece value take their third-ply value;
    /// the other locks their two-piece value shifted by the largest third-minus-two-piece
    /// gap among those (so a lock not looked at deeper never looks better for it). Each of
    /// those third plies is kept in `thirds`, with its pairs.
    fn commit_values(
        &mut self,
        v2: &[[f64; 7]],
        after: &[After],
        thirds: &mut ThirdPlies,
    ) -> Vec<[f64; 7]> {
        let mut vc = v2.to_vec();
        for n in PieceKind::ALL {
            let ni = n as usize;
            let ranked = ranked_for_next(v2, 0..v2.len(), n);
            let p3 = next_piece_probabilities(n);
            let mut shift = f64::NEG_INFINITY;
            let mut deep: Vec<(usize, f64)> = Vec::with_capacity(self.cfg.deep_commit);
            for &(c2, li) in ranked
                .iter()
                .take_while(|&&(c, _)| c < TOP_OUT)
                .take(self.cfg.deep_commit)
            {
                let third = self.third_ply_pairs(&after[li], n, &p3, self.cfg.deep_next);
                let v3 = third.0;
                thirds.0.push((li, n, third));
                if v3 < TOP_OUT {
                    shift = shift.max(v3 - c2);
                }
                deep.push((li, v3));
            }
            if !shift.is_finite() {
                // Nothing but top-outs among them: the two-piece values stand.
                continue;
            }
            for v in vc.iter_mut() {
                if v[ni] < TOP_OUT {
                    v[ni] += shift;
                }
            }
            for (li, v3) in deep {
                vc[li][ni] = v3;
            }
        }
        vc
    }

    /// With the next piece `next` known: the best of `candidates` (lock indices) and its value.
    /// The two-piece values `v2` rank them; the best `deep_locks` are then valued with a third
    /// ply: each followed by its best `deep_next` placements of `next`, each of those by the
    /// expectation (the picker's conditional probabilities) over the seven pieces after it of
    /// their best quick placement. Third plies in `thirds` are taken from there.
    fn choose_known(
        &mut self,
        candidates: impl Iterator<Item = usize>,
        v2: &[[f64; 7]],
        after: &[After],
        next: PieceKind,
        mut thirds: Option<&mut ThirdPlies>,
    ) -> (usize, f64) {
        let ranked = ranked_for_next(v2, candidates, next);
        let Some(&(c0, l0)) = ranked.first() else {
            return (0, TOP_OUT);
        };
        if self.cfg.deep_locks == 0 || self.cfg.deep_next == 0 || c0 >= TOP_OUT {
            return (l0, c0);
        }
        let p3 = next_piece_probabilities(next);
        let mut best = (f64::INFINITY, l0);
        let max_height = if self.root.timing.level < 19 {
            self.cfg.fourth_ply_max_height_before_19
        } else {
            self.cfg.fourth_ply_max_height
        };
        let below_until = self.root.timing.level < self.cfg.fourth_ply_until;
        let low = self.root_max_height() <= max_height;
        let fourth = if below_until && low {
            self.cfg.fourth_ply
        } else {
            0
        };
        let tall = if below_until && !low && self.playout_shape(self.root.timing.level).0 > 0 {
            self.cfg.tall_playouts
        } else {
            0
        };
        let mut pairs: Vec<(f64, usize, After)> = Vec::new();
        for &(c2, li) in ranked.iter().take(self.cfg.deep_locks) {
            if c2 >= TOP_OUT {
                break;
            }
            let known = thirds.as_deref_mut().and_then(|t| t.take(li, next));
            let (v, seconds) = match known {
                Some(k) => k,
                None => self.third_ply_pairs(&after[li], next, &p3, self.cfg.deep_next),
            };
            if fourth > 0 || tall > 0 {
                pairs.extend(seconds.into_iter().map(|(v, s)| (v, li, s)));
            }
            if v < best.0 {
                best = (v, li);
            }
        }
        if tall > 0 && best.0 < TOP_OUT {
            return self
                .pair_playouts(&mut pairs, tall, next)
                .unwrap_or((best.1, best.0));
        }
        if fourth == 0 || best.0 >= TOP_OUT {
            return (best.1, best.0);
        }
        // The fourth ply: the best pairs by their third-ply value, one piece deeper.
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut best4 = (f64::INFINITY, best.1);
        let mut fours: Vec<(f64, usize, usize)> = Vec::new();
        // What each pair's fourth ply found that its fifth would look for again.
        let mut kept: Vec<FourthPly> = Vec::new();
        for (i, (v3, li, s)) in pairs.iter().enumerate().take(fourth) {
            if *v3 >= TOP_OUT {
                break;
            }
            let mut k = FourthPly::default();
            let v = self.fourth_ply(s, next, &mut k);
            kept.push(k);
            fours.push((v, *li, i));
            if v < best4.0 {
                best4 = (v, *li);
            }
        }
        if self.cfg.fifth_ply == 0 || best4.0 >= TOP_OUT {
            return (best4.1, best4.0);
        }
        // The fifth ply: the best pairs by their fourth-ply value, one piece deeper.
        fours.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2)));
        let mut best5 = (f64::INFINITY, best4.1);
        for &(v4, li, i) in fours.iter().take(self.cfg.fifth_ply) {
            if v4 >= TOP_OUT {
                break;
            }
            let v = self.fifth_ply(&pairs[i].2, next, &kept[i]);
            if v < best5.0 {
                best5 = (v, li);
            }
        }
        (best5.1, best5.0)
    }

    /// [`AiConfig::tall_playouts`]: the best `count` of `pairs` (each a third-ply value, the
    /// lock, and the game after the lock and a placement of `next`) by their third-ply value,
    /// each valued by its two pieces' move costs plus the expectation over the piece after
    /// `next` (the picker's probabilities) of the mean of its greedy playouts; the lock of
    /// the best and that value. Every pair plays the same sequences, seeded by the position.
    /// `None` when no pair is alive.
    fn pair_playouts(
        &mut self,
        pairs: &mut [(f64, usize, After)],
        count: usize,
        next: PieceKind,
    ) -> Option<(usize, f64)> {
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let first = pairs.first()?;
        let mut rng = SplitMix64(position_seed(&self.root.board, next, first.2.lines));
        let set = self.sequence_set(&mut rng);
        let p = next_piece_probabilities(next);
        let (mut walks, mut values) = (Vec::new(), Vec::new());
        let mut best: Option<(usize, f64)> = None;
        for (v3, li, s) in pairs.iter().take(count) {
            if *v3 >= TOP_OUT {
                break;
            }
            let own = self.eval().move_cost(&s.m);
            let means = self.playout_means(s, &set, &mut walks, &mut values);
            let v = own + expected(&means, &p);
            if best.is_none_or(|(_, b)| v < b) {
                best = Some((*li, v));
            }
        }
        best
    }

    /// The fifth ply's value of `s` (the game after the current and the next piece `next`):
    /// the expectation over the piece after `next` of its best placement, then over the piece
    /// after that of its best placement, each followed by the expectation over the piece
    /// after them of its best placement. The best placements `kept` holds (from the fourth
    /// ply of `s`) are taken from there: the same values as [`Ai::deep_value`]`(s, next, 2, 3)`.
    fn fifth_ply(&mut self, s: &After, next: PieceKind, kept: &FourthPly) -> f64 {
        let p = next_piece_probabilities(next);
        let mut v = 0.0;
        for k in PieceKind::ALL {
            let pk = p[k as usize];
            if pk == 0.0 {
                continue;
            }
            let Some((o, x, y)) = self.kept_or_best(kept.first[k as usize], s, k, 2) else {
                v += pk * TOP_OUT;
                continue;
            };
            let t = s.place(o, x, y, 2, self.b_type);
            // `deep_value(&t, k, 3, 2)`, the placements of the piece after `k` as kept.
            let p4 = next_piece_probabilities(k);
            let mut w = 0.0;
            for k4 in PieceKind::ALL {
                let pk4 = p4[k4 as usize];
                if pk4 == 0.0 {
                    continue;
                }
                let kept = kept.follow[k as usize][k4 as usize];
                let Some((o, x, y)) = self.kept_or_best(kept, &t, k4, 3) else {
                    w += pk4 * TOP_OUT;
                    continue;
                };
                let t4 = t.place(o, x, y, 3, self.b_type);
                w += pk4 * self.deep_value(&t4, k4, 4, 1);
            }
            v += pk * w;
        }
        v
    }

    /// Where the fifth ply places `k` after `a` (placement number `slot`): its best placement
    /// as `kept` has it, or looked for when not kept; `None` where it has none or the best
    /// tops out.
    fn kept_or_best(
        &mut self,
        kept: Option<BestPlacement>,
        a: &After,
        k: PieceKind,
        slot: usize,
    ) -> Option<(u8, i8, i8)> {
        let best = match kept {
            Some(best) => best,
            None => self.best_placement(a, k, slot),
        };
        best.filter(|&(c, _)| c < TOP_OUT).map(|(_, p)| p)
    }

    /// The fourth ply's value of `s` (the game after the current and the next piece `next`):
    /// the expectation over the piece after `next` of its best placement, each followed by
    /// the expectation over the piece after that of its best placement. With
    /// [`AiConfig::fourth_ply_lookahead`] the best placements the fifth ply of `s` would look
    /// for again are kept in `kept`.
    fn fourth_ply(&mut self, s: &After, next: PieceKind, kept: &mut FourthPly) -> f64 {
        if self.cfg.fourth_ply_lookahead > 0 {
            return self.fourth_ply_by_two_plies(s, next, kept);
        }
        self.deep_value(s, next, 2, 2)
    }

    /// [`Ai::fourth_ply`] with [`AiConfig::fourth_ply_lookahead`]: the expectation over the
    /// piece after `next` of the best, among its best `fourth_ply_lookahead` placements by
    /// their own cost, of the expectation over the piece after it of its best placement. The
    /// best placement of each piece after `next` and, after it, of each piece after that are
    /// kept in `kept`.
    fn fourth_ply_by_two_plies(&mut self, s: &After, next: PieceKind, kept: &mut FourthPly) -> f64 {
        let p = next_piece_probabilities(next);
        let mut v = 0.0;
        for k in PieceKind::ALL {
            let pk = p[k as usize];
            if pk == 0.0 {
                continue;
            }
            let ranked = self.ranked_placements(s, k, 2, false);
            // The first of the lowest cost: the one `best_placement` finds.
            kept.first[k as usize] = Some(ranked.first().copied());
            let mut best = TOP_OUT;
            for (rank, &(c, (o, x, y))) in ranked
                .iter()
                .take(self.cfg.fourth_ply_lookahead)
                .enumerate()
            {
                if c >= TOP_OUT {
                    break;
                }
                let t = s.place(o, x, y, 2, self.b_type);
                let f = if rank == 0 {
                    // `expected_follow_up(&t, k, 3)`, each best placement kept.
                    let p4 = next_piece_probabilities(k);
                    let mut f = 0.0;
                    for n in PieceKind::ALL {
                        let b = self.best_placement(&t, n, 3);
                        kept.follow[k as usize][n as usize] = Some(b);
                        f += p4[n as usize] * b.map_or(TOP_OUT, |(c, _)| c.min(TOP_OUT));
                    }
                    f
                } else {
                    self.expected_follow_up(&t, k, 3)
                };
                best = best.min(f);
            }
            v += pk * best;
        }
        v
    }

    /// The value of `s` over the `depth` pieces after `prev`, placed from placement number
    /// `slot` on: the expectation over the piece after `prev` (the picker's probabilities) of
    /// its best placement, followed, while `depth` lasts, by the same one piece deeper.
    fn deep_value(&mut self, s: &After, prev: PieceKind, slot: usize, depth: usize) -> f64 {
        let p = next_piece_probabilities(prev);
        let mut v = 0.0;
        for k in PieceKind::ALL {
            let pk = p[k as usize];
            if pk == 0.0 {
                continue;
            }
            if depth <= 1 {
                v += pk * self.best_follow_up(s, k, slot);
                continue;
            }
            let Some((c, (o, x, y))) = self.best_placement(s, k, slot) else {
                v += pk * TOP_OUT;
                continue;
            };
            if c >= TOP_OUT {
                v += pk * TOP_OUT;
                continue;
            }
            let t = s.place(o, x, y, slot, self.b_type);
            v += pk * self.deep_value(&t, k, slot + 1, depth - 1);
        }
        v
    }

    /// With the next piece unknown until after the lock: the lock with the best expectation
    /// over the next piece (the picker's conditional probabilities after `current`), by the
    /// blind third ply for the best `blind_locks` locks (see [`AiConfig::blind_locks`]), or by
    /// the two-piece values when that is off.
    fn choose_blind(
        &mut self,
        v2: &[[f64; 7]],
        after: &[After],
        current: PieceKind,
    ) -> (usize, f64) {
        let p = next_piece_probabilities(current);
        let level = self.root.timing.level;
        let tall_blind = self
            .cfg
            .blind_playouts_above
            .is_some_and(|rows| self.playouts_set(level) && self.root_max_height() > rows);
        let values = if self.rollouts_on(level) || tall_blind {
            self.rollout_values(v2, after, current)
        } else if self.cfg.blind_locks > 0 && self.cfg.blind_next > 0 {
            self.blind_values(v2, after, current)
        } else {
            v2.to_vec()
        };
        best_expected(&values, &p)
    }

    /// Values per lock and next piece for the commitment: the blind third ply (the best
    /// `blind_next` placements of each next piece, each followed by the expectation over the
    /// piece after) for the best `blind_locks` locks by the expected two-piece value; the
    /// other locks are left out (`TOP_OUT`).
    fn blind_values(
        &mut self,
        v2: &[[f64; 7]],
        after: &[After],
        current: PieceKind,
    ) -> Vec<[f64; 7]> {
        let ranked = ranked_by_expectation(v2, current);
        let mut out = vec![[TOP_OUT * 2.0; 7]; v2.len()];
        for &(c2, li) in ranked.iter().take(self.cfg.blind_locks) {
            if c2 >= TOP_OUT {
                break;
            }
            let deeper =
                self.cfg.blind_fourth > 0 && self.root.timing.level < self.cfg.fourth_ply_until;
            for n in PieceKind::ALL {
                let p3 = next_piece_probabilities(n);
                out[li][n as usize] = if deeper {
                    self.blind_fourth_value(&after[li], n, &p3)
                } else {
                    self.third_ply(&after[li], n, &p3, self.cfg.blind_next)
                };
            }
        }
        out
    }

    /// [`AiConfig::blind_fourth`]: the value of `a` (after the current piece) with `next`
    /// coming, by the fourth ply of the best `blind_fourth` of `next`'s `blind_next`
    /// placements by their third-ply value.
    fn blind_fourth_value(&mut self, a: &After, next: PieceKind, p3: &[f64; 7]) -> f64 {
        let (v3, mut seconds) = self.third_ply_pairs(a, next, p3, self.cfg.blind_next);
        if v3 >= TOP_OUT {
            return v3;
        }
        seconds.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut best = TOP_OUT * 2.0;
        for (v, s) in seconds.iter().take(self.cfg.blind_fourth) {
            if *v >= TOP_OUT {
                break;
            }
            let mut k = FourthPly::default();
            best = best.min(self.fourth_ply(s, next, &mut k));
        }
        best
    }

    /// Whether blind decisions at `level` are valued by playouts.
    fn rollouts_on(&self, level: u8) -> bool {
        self.playouts_set(level) && level >= self.cfg.rollout_from_level
    }

    /// Whether the blind decisions' playouts are set up at `level` (locks and sequences to
    /// play), whatever the level they start from.
    fn playouts_set(&self, level: u8) -> bool {
        self.cfg.rollout_locks > 0 && self.playout_shape(level).0 > 0
    }

    /// The root board's tallest column, in rows.
    fn root_max_height(&self) -> u32 {
        self.root.board.heights().into_iter().max().unwrap_or(0)
    }

    /// The playouts' shape at `level`, (sequences per lock and next piece, pieces each):
    /// [`AiConfig::rollouts_double_killscreen`] and
    /// [`AiConfig::rollout_depth_double_killscreen`] where the piece falls two rows a frame,
    /// [`AiConfig::rollouts_killscreen`] (if set) and [`AiConfig::rollout_depth`] at the
    /// other levels from 29, and [`AiConfig::rollouts`] and [`AiConfig::rollout_depth`]
    /// wherever neither applies.
    fn playout_shape(&self, level: u8) -> (usize, usize) {
        if two_rows_a_frame(level, self.double_killscreen) {
            (
                self.cfg.rollouts_double_killscreen,
                self.cfg.rollout_depth_double_killscreen,
            )
        } else if let Some(count) = self
            .cfg
            .rollouts_killscreen
            .filter(|_| level >= KILLSCREEN_LEVEL)
        {
            (count, self.cfg.rollout_depth)
        } else {
            (self.cfg.rollouts, self.cfg.rollout_depth)
        }
    }

    /// Values per lock and next piece from greedy playouts (see [`AiConfig::rollout_locks`])
    /// for the best `rollout_locks` locks by the expected two-piece value; the other locks are
    /// left out (`TOP_OUT`).
    fn rollout_values(
        &mut self,
        v2: &[[f64; 7]],
        after: &[After],
        current: PieceKind,
    ) -> Vec<[f64; 7]> {
        let ranked = ranked_by_expectation(v2, current);
        let mut out = vec![[TOP_OUT * 2.0; 7]; v2.len()];
        let Some(first) = after.first() else {
            return out;
        };
        // Common random numbers: every lock plays the same sequences, drawn from a generator
        // seeded by the position (the same games on any machine).
        let mut rng = SplitMix64(position_seed(&self.root.board, current, first.lines));
        let set = self.sequence_set(&mut rng);
        let (mut walks, mut values) = (Vec::new(), Vec::new());
        let mut played = Vec::new();
        for &(c2, li) in ranked.iter().take(self.cfg.rollout_locks) {
            if c2 >= TOP_OUT {
                break;
            }
            let own = self.eval().move_cost(&after[li].m);
            let means = self.playout_means(&after[li], &set, &mut walks, &mut values);
            out[li] = means.map(|m| own + m);
            played.push(li);
        }
        if self.cfg.rollout_refine > 0 && played.len() > self.cfg.rollout_refine {
            // The best `rollout_refine` by their playouts play new sequences too (common to
            // them); the others are left out of the choice.
            let p = next_piece_probabilities(current);
            let mut best: Vec<(f64, usize)> = played
                .iter()
                .map(|&li| (expected(&out[li], &p), li))
                .collect();
            best.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let set = self.sequence_set(&mut rng);
            for (rank, &(_, li)) in best.iter().enumerate() {
                if rank >= self.cfg.rollout_refine {
                    out[li] = [TOP_OUT * 2.0; 7];
                    continue;
                }
                let own = self.eval().move_cost(&after[li].m);
                let means = self.playout_means(&after[li], &set, &mut walks, &mut values);
                for n in 0..7 {
                    // Both halves weigh the same.
                    out[li][n] = (out[li][n] + own + means[n]) / 2.0;
                }
            }
        }
        out
    }

    /// The mean value of the playouts of `set` from `a` ([`Ai::playouts`]) for each next
    /// piece, each playout weighed by its weight in `set`: `set` holds as many sequences for
    /// each of the seven in turn.
    fn playout_means(
        &mut self,
        a: &After,
        set: &SequenceSet,
        walks: &mut Vec<Walk>,
        values: &mut Vec<f64>,
    ) -> [f64; 7] {
        self.playouts(a, &set.seqs, &set.shared, walks, values);
        let r = set.seqs.len() / 7;
        std::array::from_fn(|n| {
            let span = n * r..(n + 1) * r;
            match &set.weights {
                Some(w) => values[span.clone()]
                    .iter()
                    .zip(&w[span])
                    .map(|(v, w)| v * w)
                    .sum::<f64>(),
                None => values[span].iter().sum::<f64>() / r as f64,
            }
        })
    }

    /// The value of every playout of `seqs` from `a` ([`Ai::playout`]) into `values`, playing
    /// each piece once for the sequences that share it: sequence `s` starts from the state of
    /// sequence `shared[s].0` after their `shared[s].1` common first pieces (a playout is a
    /// function of the state and the pieces, so the values are the same). `walks` is scratch
    /// space: `depth + 1` states per sequence, the state before each piece and the last one.
    fn playouts(
        &mut self,
        a: &After,
        seqs: &[Vec<PieceKind>],
        shared: &[(usize, usize)],
        walks: &mut Vec<Walk>,
        values: &mut Vec<f64>,
    ) {
        let depth = seqs.first().map_or(0, Vec::len);
        let stride = depth + 1;
        walks.clear();
        walks.resize(seqs.len() * stride, Walk::Dead(0.0));
        values.clear();
        for (s, seq) in seqs.iter().enumerate() {
            let (j, k) = shared[s];
            let base = s * stride;
            if k == 0 {
                walks[base] = Walk::Alive(*a, 0.0);
            } else {
                walks.copy_within(j * stride..=j * stride + k, base);
            }
            for d in k..seq.len() {
                walks[base + d + 1] = match walks[base + d] {
                    Walk::Dead(v) => Walk::Dead(v),
                    Walk::Alive(cur, total) => self.playout_piece(cur, total, seq, d),
                };
            }
            values.push(match walks[base + depth] {
                Walk::Dead(v) => v,
                Walk::Alive(cur, total) => total + self.final_cost(cur),
            });
        }
    }

    /// One piece of a playout: `n` placed at its best one-piece cost on `cur`, its move cost
    /// added to `total`; dead (the death cost added) if it cannot spawn or has no lock.
    fn playout_step(&mut self, mut cur: After, total: f64, n: PieceKind) -> Walk {
        if !self.playout_piece_spawns(&mut cur, n) {
            return Walk::Dead(total + self.death_cost(&cur));
        }
        let Some((_, (o, x, y))) = self.best_placement_by(&cur, n, 0, true) else {
            return Walk::Dead(total + self.death_cost(&cur));
        };
        let b = cur.place(o, x, y, 0, self.b_type);
        Walk::Alive(b, total + self.eval().move_cost(&b.m))
    }

    /// Readies `cur` for a playout's next piece `n` (a fresh move summary at its level) and
    /// says whether `n` can spawn on its board.
    fn playout_piece_spawns(&self, cur: &mut After, n: PieceKind) -> bool {
        cur.m = MoveSummary {
            level: cur.level,
            double_killscreen: self.double_killscreen,
            ..MoveSummary::default()
        };
        cur.board.fits(n.spawn() as u8, 5, 0)
    }

    /// How many of a playout's first piece's placements are valued by two plies here:
    /// [`AiConfig::rollout_lookahead_double_killscreen`] where the double killscreen's
    /// table (or its endgame) plays or the piece falls two rows a frame,
    /// [`AiConfig::rollout_lookahead_before_29`] before level 29, and
    /// [`AiConfig::rollout_lookahead`] elsewhere.
    fn lookahead(&self) -> usize {
        if matches!(self.eval_ks, 3 | ENDGAME_PHASE)
            || two_rows_a_frame(self.root.timing.level, self.double_killscreen)
        {
            self.cfg.rollout_lookahead_double_killscreen
        } else if self.root.timing.level < KILLSCREEN_LEVEL {
            self.cfg.rollout_lookahead_before_29
        } else {
            self.cfg.rollout_lookahead
        }
    }

    /// Piece `d` of the playout of `seq`: one of the first
    /// [`AiConfig::rollout_lookahead_pieces`] with [`Ai::lookahead`] when another follows it
    /// (its best `lookahead` placements by the playouts' one-piece cost, each valued by the
    /// expectation over the piece after of its best placement, the best of them played);
    /// otherwise [`Ai::playout_step`]. A playout at the line cap ([`Ai::at_cap`]) places
    /// nothing more and ends, worth its moves so far.
    fn playout_piece(&mut self, mut cur: After, total: f64, seq: &[PieceKind], d: usize) -> Walk {
        if self.at_cap(&cur) {
            return Walk::Dead(total);
        }
        let n = seq[d];
        if d >= self.cfg.rollout_lookahead_pieces || d + 1 >= seq.len() || self.lookahead() == 0 {
            return self.playout_step(cur, total, n);
        }
        if !self.playout_piece_spawns(&mut cur, n) {
            return Walk::Dead(total + self.death_cost(&cur));
        }
        let ranked = self.ranked_placements(&cur, n, 0, true);
        let mut best: Option<(f64, After)> = None;
        for &(_, (o, x, y)) in ranked.iter().take(self.lookahead()) {
            let b = cur.place(o, x, y, 0, self.b_type);
            let v = self.expected_follow_up(&b, n, 1);
            if best.as_ref().is_none_or(|(bv, _)| v < *bv) {
                best = Some((v, b));
            }
        }
        match best {
            None => Walk::Dead(total + self.death_cost(&cur)),
            Some((_, b)) => Walk::Alive(b, total + self.eval().move_cost(&b.m)),
        }
    }

    /// Every quick placement of `n` (placement number `slot`) after `cur` with its cost, by
    /// the playouts' evaluator when `playout` is set, best first (equal costs in the order of
    /// the placements).
    fn ranked_placements(
        &mut self,
        cur: &After,
        n: PieceKind,
        slot: usize,
        playout: bool,
    ) -> Vec<(f64, (u8, i8, i8))> {
        let mut ranked = self.with_placement_costs(cur, n, slot, playout, |out, costs| {
            costs
                .iter()
                .copied()
                .zip(out.iter().copied())
                .collect::<Vec<_>>()
        });
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        ranked
    }

    /// Where the playouts know the line cap the AI is told ([`AiConfig::endgame_death`]: in
    /// the `[endgame]` table's lines), the lines left before it and the price of a top-out
    /// per Tetris they allow; `None` elsewhere.
    fn endgame_lines_left(&self, cur: &After) -> Option<(u32, f64)> {
        let per_tetris = self.cfg.endgame_death?;
        let cap = self.cfg.line_cap?;
        (self.eval_ks == ENDGAME_PHASE).then(|| {
            let lines = nestris_engine::bcd::lines_value(cur.lines);
            (cap.saturating_sub(lines), per_tetris)
        })
    }

    /// Whether a playout has reached the line cap ([`AiConfig::endgame_death`]): the game
    /// stops there, so the playout ends, worth its moves so far.
    fn at_cap(&self, cur: &After) -> bool {
        self.endgame_lines_left(cur)
            .is_some_and(|(left, _)| left == 0)
    }

    /// What a playout that tops out on `cur` costs: [`AiConfig::rollout_death`], or in the
    /// endgame with [`AiConfig::endgame_death`] that many units for each Tetris the lines
    /// left before the cap still allowed (at most [`AiConfig::rollout_death`]).
    fn death_cost(&self, cur: &After) -> f64 {
        self.endgame_lines_left(cur)
            .map_or(self.cfg.rollout_death, |(left, per_tetris)| {
                (per_tetris * f64::from(left.div_ceil(4))).min(self.cfg.rollout_death)
            })
    }

    /// The cost of the board a playout ends on (none at the line cap, where the playouts
    /// know it: [`Ai::at_cap`]).
    fn final_cost(&self, mut cur: After) -> f64 {
        if self.at_cap(&cur) {
            return 0.0;
        }
        cur.m = MoveSummary {
            level: cur.level,
            double_killscreen: self.double_killscreen,
            ..MoveSummary::default()
        };
        self.eval().cost(&cur.board, &cur.m)
    }

    /// [`Ai::sequences`] for each of the seven next pieces in turn, their shared beginnings
    /// ([`shared_prefixes`]) and their weights: what [`Ai::playouts`] plays from every lock.
    fn sequence_set(&self, rng: &mut SplitMix64) -> SequenceSet {
        let (mut seqs, mut weights) = (Vec::new(), Some(Vec::new()));
        for n in PieceKind::ALL {
            let (s, w) = self.sequences(n, rng);
            seqs.extend(s);
            match (w, &mut weights) {
                (Some(w), Some(all)) => all.extend(w),
                _ => weights = None,
            }
        }
        let shared = shared_prefixes(&seqs, self.playout_shape(self.root.timing.level).0);
        SequenceSet {
            seqs,
            shared,
            weights,
        }
    }

    /// [`AiConfig::rollouts`] (under the double killscreen
    /// [`AiConfig::rollouts_double_killscreen`]) piece sequences of [`AiConfig::rollout_depth`]
    /// (there [`AiConfig::rollout_depth_double_killscreen`]) pieces starting with `first`, the
    /// others drawn with the picker's transition probabilities, and each one's weight in the
    /// mean over them. With [`AiConfig::rollout_stratify`] (and at least seven sequences of
    /// two pieces or more), sequence `i`'s second piece is the `i % 7`-th, the rest drawn,
    /// and the weights are the picker's chance of that second piece shared among the
    /// sequences that have it; otherwise every piece after the first is drawn and the
    /// weights are equal (`None`: the plain mean, to the bit as before the option).
    fn sequences(
        &self,
        first: PieceKind,
        rng: &mut SplitMix64,
    ) -> (Vec<Vec<PieceKind>>, Option<Vec<f64>>) {
        let (count, depth) = self.playout_shape(self.root.timing.level);
        let depth = depth.max(1);
        let stratified = self.cfg.rollout_stratify && depth >= 2 && count >= 7;
        let seqs: Vec<Vec<PieceKind>> = (0..count)
            .map(|i| {
                let mut seq = Vec::with_capacity(depth);
                seq.push(first);
                if stratified {
                    seq.push(PieceKind::ALL[i % 7]);
                }
                while seq.len() < depth {
                    let prev = *seq.last().expect("not empty");
                    seq.push(draw_piece(rng, &next_piece_probabilities(prev)));
                }
                seq
            })
            .collect();
        let weights = stratified.then(|| {
            let p = next_piece_probabilities(first);
            (0..count)
                .map(|i| {
                    let k = i % 7;
                    let with_k = count / 7 + usize::from(k < count % 7);
                    p[PieceKind::ALL[k] as usize] / with_k as f64
                })
                .collect()
        });
        (seqs, weights)
    }

    /// One greedy playout of `seq` from `a`: the move costs on the way plus the final board's
    /// cost, or the death cost if a piece cannot spawn or has no lock (what [`Ai::playouts`]
    /// computes for each sequence, one sequence alone).
    #[cfg(test)]
    fn playout(&mut self, a: &After, seq: &[PieceKind]) -> f64 {
        let mut walk = Walk::Alive(*a, 0.0);
        for d in 0..seq.len() {
            walk = match walk {
                Walk::Alive(cur, total) => self.playout_piece(cur, total, seq, d),
                dead => return dead.value_if_dead(),
            };
        }
        match walk {
            Walk::Alive(cur, total) => total + self.final_cost(cur),
            dead => dead.value_if_dead(),
        }
    }

    /// [`Ai::third_ply`], with the value of each of the `width` placements of `next` it
    /// looked at, and the game after each.
    fn third_ply_pairs(
        &mut self,
        a: &After,
        next: PieceKind,
        p3: &[f64; 7],
        width: usize,
    ) -> (f64, Vec<(f64, After)>) {
        let cols = a.board.columns();
        let out = self.quick_placements_after(a, &cols, next);
        let mut seconds: Vec<(f64, After)> = Vec::with_capacity(out.len());
        let mut before = BoardBefore::new(&a.board, &cols);
        for &(o, x, y) in &out {
            let s = a.place(o, x, y, 1, self.b_type);
            seconds.push((self.placed_cost(&mut before, &cols, &s, (o, x, y), 1), s));
        }
        self.scratch.push(out);
        seconds.sort_by(|x, y| x.0.total_cmp(&y.0));
        seconds.truncate(width);
        let mut best = TOP_OUT * 2.0;
        for (c, s) in seconds.iter_mut() {
            let mut v = 0.0;
            for k in PieceKind::ALL {
                let pk = p3[k as usize];
                if pk > 0.0 {
                    v += pk * self.best_follow_up(s, k, 2);
                }
            }
            *c = v;
            if v < best {
                best = v;
            }
        }
        (best, seconds)
    }

    /// The value of `a` (after the current piece) with `next` known: the best over `next`'s
    /// best `width` placements of the expected best follow-up of the piece after.
    fn third_ply(&mut self, a: &After, next: PieceKind, p3: &[f64; 7], width: usize) -> f64 {
        self.third_ply_pairs(a, next, p3, width).0
    }

    /// The expectation over the piece after `prev` (the picker's probabilities) of its best
    /// cost over its quick placements (placement number `slot`) after `a`.
    fn expected_follow_up(&mut self, a: &After, prev: PieceKind, slot: usize) -> f64 {
        let p = next_piece_probabilities(prev);
        let mut v = 0.0;
        for n in PieceKind::ALL {
            v += p[n as usize] * self.best_follow_up(a, n, slot);
        }
        v
    }

    /// The best cost over the quick placements of `next` (placement number `slot`) after `a`.
    fn best_follow_up(&mut self, a: &After, next: PieceKind, slot: usize) -> f64 {
        self.best_placement(a, next, slot)
            .map_or(TOP_OUT, |(c, _)| c.min(TOP_OUT))
    }

    /// The quick placement of `next` (placement number `slot`) after `a` with the lowest
    /// cost (the first of equals), and that cost; `None` when there is none.
    fn best_placement(
        &mut self,
        a: &After,
        next: PieceKind,
        slot: usize,
    ) -> Option<(f64, (u8, i8, i8))> {
        self.best_placement_by(a, next, slot, false)
    }

    /// [`Ai::best_placement`], chosen by the playouts' evaluator ([`Ai::rollout_eval`]) when
    /// `playout` is set (the cost returned is then that evaluator's).
    fn best_placement_by(
        &mut self,
        a: &After,
        next: PieceKind,
        slot: usize,
        playout: bool,
    ) -> Option<(f64, (u8, i8, i8))> {
        self.with_placement_costs(a, next, slot, playout, |out, costs| {
            let mut best: Option<(f64, (u8, i8, i8))> = None;
            for (&c, &p) in costs.iter().zip(out) {
                if best.is_none_or(|(bc, _)| c < bc) {
                    best = Some((c, p));
                }
            }
            best
        })
    }

    /// Calls `f` with the quick placements of `next` (placement number `slot`) after `a` and
    /// the cost of each, by the playouts' evaluator when `playout` is set: the features of
    /// every placement, written into zeroed slots of a buffer, then their costs side by
    /// side, in scratch buffers kept for the next call.
    fn with_placement_costs<R>(
        &mut self,
        a: &After,
        next: PieceKind,
        slot: usize,
        playout: bool,
        f: impl FnOnce(&[(u8, i8, i8)], &[f64]) -> R,
    ) -> R {
        let cols = a.board.columns();
        let out = self.quick_placements_after(a, &cols, next);
        let mut before = BoardBefore::new(&a.board, &cols);
        let mut feats = std::mem::take(&mut self.feature_scratch);
        feats.clear();
        feats.resize(out.len(), [0.0; FEATURES.len()]);
        for (&(o, x, y), f) in out.iter().zip(feats.iter_mut()) {
            let b = a.place(o, x, y, slot, self.b_type);
            let cols = Self::placed_columns(&cols, &b, (o, x, y), slot);
            self.eval()
                .features_into_zeroed(&b.board, &cols, &b.m, Some(&mut before), f);
        }
        let mut costs = std::mem::take(&mut self.cost_scratch);
        if playout {
            self.rollout_eval().weighted_sums(&feats, &mut costs);
        } else {
            self.eval().weighted_sums(&feats, &mut costs);
        }
        let r = f(&out, &costs);
        self.scratch.push(out);
        self.feature_scratch = feats;
        self.cost_scratch = costs;
        r
    }

    /// [`Ai::placed_cost`]'s feature values.
    fn placed_features(
        &self,
        before: &mut BoardBefore,
        cols: &[u32; 10],
        b: &After,
        placement: (u8, i8, i8),
        slot: usize,
    ) -> [f64; FEATURES.len()] {
        let cols = Self::placed_columns(cols, b, placement, slot);
        self.eval()
            .features_after(&b.board, &cols, &b.m, Some(before))
    }

    /// The columns of `b`, the game after placing `(o, x, y)` as placement number `slot` on a
    /// board whose columns are `cols`: made from `cols` when the lock cleared nothing.
    #[inline]
    fn placed_columns(
        cols: &[u32; 10],
        b: &After,
        (o, x, y): (u8, i8, i8),
        slot: usize,
    ) -> [u32; 10] {
        if b.m.clears[slot] == 0 {
            Board::columns_with_piece(cols, o, x, y)
        } else {
            b.board.columns()
        }
    }

    /// The cost of `b`, the game after placing `(o, x, y)` as placement number `slot` on a
    /// board whose columns are `cols`: [`Evaluator::cost`], with `b`'s columns made from
    /// `cols` when the lock cleared nothing.
    fn placed_cost(
        &self,
        before: &mut BoardBefore,
        cols: &[u32; 10],
        b: &After,
        (o, x, y): (u8, i8, i8),
        slot: usize,
    ) -> f64 {
        let f = self.placed_features(before, cols, b, (o, x, y), slot);
        self.eval().weighted_sum(&f)
    }

    /// The quick placements of `next` after `a` (whose board's columns are `cols`), falling
    /// at `a`'s level (a buffer from `scratch`: give it back when done).
    fn quick_placements_after(
        &mut self,
        a: &After,
        cols: &[u32; 10],
        next: PieceKind,
    ) -> Vec<(u8, i8, i8)> {
        let mut out = self.scratch.pop().unwrap_or_default();
        let timing = Timing::spawn(a.level).with_double_killscreen(self.double_killscreen);
        let paths = self.quick_paths[gravity_key(a.level, self.double_killscreen)]
            .get_or_init(|| QuickPaths::new(timing, &self.cfg.input));
        quick_placements_cached(
            &a.board,
            cols,
            next.spawn(),
            timing,
            &self.cfg.input,
            paths,
            &mut out,
        );
        out
    }
}

/// A playout on its way: the state before the next piece and the move costs so far, or the
/// value of a playout that has ended: topped out, or (with [`AiConfig::endgame_death`])
/// reached the line cap.
#[derive(Clone, Copy, Debug)]
enum Walk {
    Alive(After, f64),
    Dead(f64),
}

#[cfg(test)]
impl Walk {
    fn value_if_dead(self) -> f64 {
        match self {
            Walk::Dead(v) => v,
            Walk::Alive(..) => unreachable!("alive"),
        }
    }
}

/// The piece sequences every lock's playouts play ([`Ai::sequence_set`]).
struct SequenceSet {
    /// [`AiConfig::rollouts`] sequences (or the double killscreen's count) for each of the
    /// seven next pieces in turn.
    seqs: Vec<Vec<PieceKind>>,
    /// [`shared_prefixes`] of `seqs`.
    shared: Vec<(usize, usize)>,
    /// Each sequence's weight in the mean over its next piece's sequences (they sum to 1),
    /// or `None` for the plain mean (every sequence drawn).
    weights: Option<Vec<f64>>,
}

/// For each of `seqs` (groups of `per_group` with the same first piece): an earlier sequence
/// of its group with the longest common beginning, and that length (0: none).
fn shared_prefixes(seqs: &[Vec<PieceKind>], per_group: usize) -> Vec<(usize, usize)> {
    (0..seqs.len())
        .map(|s| {
            let group = s - s % per_group.max(1);
            let mut best = (0, 0);
            for j in group..s {
                let k = seqs[j]
                    .iter()
                    .zip(&seqs[s])
                    .take_while(|(a, b)| a == b)
                    .count();
                if k > best.1 {
                    best = (j, k);
                }
            }
            best
        })
        .collect()
}

/// The seed of a decision's playout sequences: a hash (FNV-1a) of the board, the current
/// piece and the line counter.
fn position_seed(board: &Board, current: PieceKind, lines: u16) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let words = board.rows.iter().map(|&r| r as u64);
    for w in words.chain([current as u64, lines as u64]) {
        h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A piece drawn with probabilities `p` (T J Z O S L I).
fn draw_piece(rng: &mut SplitMix64, p: &[f64; 7]) -> PieceKind {
    let u = rng.unit();
    let mut acc = 0.0;
    for (i, &pi) in p.iter().enumerate() {
        acc += pi;
        if u < acc {
            return PieceKind::ALL[i];
        }
    }
    PieceKind::I
}

/// Lock indices with their expected two-piece values over the next piece (the picker's
/// probabilities after `current`), best first (ties by index).
/// `candidates` (lock indices) by their two-piece value for the next piece `next`, best
/// first (the first of equals by index).
fn ranked_for_next(
    v2: &[[f64; 7]],
    candidates: impl Iterator<Item = usize>,
    next: PieceKind,
) -> Vec<(f64, usize)> {
    let n = next as usize;
    let mut ranked: Vec<(f64, usize)> = candidates.map(|li| (v2[li][n], li)).collect();
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    ranked
}

fn ranked_by_expectation(v2: &[[f64; 7]], current: PieceKind) -> Vec<(f64, usize)> {
    let p = next_piece_probabilities(current);
    let mut ranked: Vec<(f64, usize)> = (0..v2.len())
        .map(|li| (expected(&v2[li], &p), li))
        .collect();
    ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    ranked
}

fn expected(v: &[f64; 7], p: &[f64; 7]) -> f64 {
    v.iter().zip(p).map(|(a, b)| a * b).sum()
}

/// The lock with the lowest expected value over the next piece (`p`, the picker's
/// probabilities), and that value; the first such lock on ties.
fn best_expected(values: &[[f64; 7]], p: &[f64; 7]) -> (usize, f64) {
    let mut best = (f64::INFINITY, 0);
    for (li, v) in values.iter().enumerate() {
        let e = expected(v, p);
        if e < best.0 {
            best = (e, li);
        }
    }
    (best.1, best.0)
}

/// Positions after each frame of `plan` from the game's current state, by the search's own
/// transition rules (no lock handling: stops at the first failed drop).
fn simulate(root: &Root, plan: &[u8]) -> Vec<(i8, u8, i8)> {
    let board = &root.board;
    let drops = root.timing.drop_frames(plan.len());
    let (mut x, mut o, mut y) = (root.x, root.o, root.y);
    let mut out = Vec::with_capacity(plan.len());
    for (t, &inp) in plan.iter().enumerate() {
        let (nx, no) = crate::search::apply_input(board, x, o, y, inp);
        x = nx;
        o = no;
        y = match crate::search::fall(board, o, x, y, drops[t]) {
            Ok(ny) | Err(ny) => ny,
        };
        out.push((x, o, y));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick placements of `piece` on `now` (the player's root board set to it), the
    /// game after each, and each one's two-piece values, as `decide` makes them.
    fn locks_and_two_plies(
        ai: &mut Ai,
        now: &After,
        piece: PieceKind,
    ) -> (Vec<After>, Vec<[f64; 7]>) {
        ai.root.board = now.board;
        let cols = now.board.columns();
        let locks = ai.quick_placements_after(now, &cols, piece);
        let after: Vec<After> = locks
            .iter()
            .map(|&(o, x, y)| now.place(o, x, y, 0, false))
            .collect();
        let v2 = after
            .iter()
            .map(|a| PieceKind::ALL.map(|n| ai.best_follow_up(a, n, 1)))
            .collect();
        (after, v2)
    }

    /// A player at level 39 under the double killscreen, 330 lines in.
    fn at_level_39(cfg: AiConfig) -> Ai {
        let mut ai = Ai::new(cfg);
        ai.double_killscreen = true;
        ai.eval_ks = ai.cfg.weights.phase(39, 330, true, false);
        ai
    }

    /// The playouts' lookahead by phase: the double killscreen's setting where its table
    /// plays or the piece falls two rows a frame, the before-29 setting below level 29, and
    /// `rollout_lookahead` elsewhere (levels 29-38, or from 39 without the double
    /// killscreen).
    #[test]
    fn rollout_lookahead_is_chosen_by_phase() {
        let mut ai = Ai::new(AiConfig {
            rollout_lookahead: 4,
            rollout_lookahead_before_29: 2,
            rollout_lookahead_double_killscreen: 6,
            ..AiConfig::default()
        });
        let at = |ai: &mut Ai, level: u8, double_killscreen: bool| {
            ai.double_killscreen = double_killscreen;
            ai.root.timing = Timing::spawn(level);
            ai.eval_ks = ai.cfg.weights.phase(level, 0, double_killscreen, false);
            ai.lookahead()
        };
        for (level, dks, want) in [
            (18, false, 2),
            (28, true, 2),
            (29, false, 4),
            (35, true, 4),
            (39, true, 6),
            (39, false, 4),
        ] {
            assert_eq!(at(&mut ai, level, dks), want, "level {level}, dks {dks}");
        }
    }

    /// `rollout_stratify`: each next piece's sequences take the seven second pieces in turn,
    /// and the weights give each second piece the picker's chance after the next piece, so
    /// the mean of anything that depends on the second piece alone is its exact expectation;
    /// drawn sequences (off, or too few to stratify) take the plain mean.
    #[test]
    fn rollout_stratify_weighs_each_second_piece_by_its_chance() {
        for (stratify, count) in [(true, 16), (true, 14), (true, 23), (false, 16), (true, 5)] {
            let ai = at_level_39(AiConfig {
                rollout_stratify: stratify,
                rollouts: count,
                rollouts_double_killscreen: count,
                ..AiConfig::default()
            });
            let set = ai.sequence_set(&mut SplitMix64(7));
            assert_eq!(set.seqs.len(), 7 * count);
            let stratified = stratify && count >= 7;
            assert_eq!(set.weights.is_some(), stratified, "{stratify} {count}");
            for (n, first) in PieceKind::ALL.into_iter().enumerate() {
                let span = n * count..(n + 1) * count;
                let seqs = &set.seqs[span.clone()];
                assert!(seqs.iter().all(|q| q.len() == 6 && q[0] == first));
                if let Some(w) = &set.weights {
                    let weights = &w[span];
                    let total: f64 = weights.iter().sum();
                    assert!((total - 1.0).abs() < 1e-12, "{count}: {total}");
                    let p = next_piece_probabilities(first);
                    for (k, second) in PieceKind::ALL.into_iter().enumerate() {
                        let mass: f64 = seqs
                            .iter()
                            .zip(weights)
                            .filter(|(q, _)| q[1] == second)
                            .map(|(_, w)| w)
                            .sum();
                        assert!((mass - p[second as usize]).abs() < 1e-12, "{count} {k}");
                    }
                    assert!(seqs
                        .iter()
                        .enumerate()
                        .all(|(i, q)| q[1] == PieceKind::ALL[i % 7]));
                }
            }
        }
    }

    /// `rollout_refine` plays the best locks of the playouts again and chooses among them:
    /// under the double killscreen, with 3, exactly the 3 best locks by the first playouts
    /// keep a value, each the mean of its first playouts and new ones.
    #[test]
    fn rollout_refine_chooses_among_the_best_locks_played_again() {
        let values = |refine: usize| {
            let mut ai = at_level_39(AiConfig {
                rollout_refine: refine,
                ..AiConfig::default()
            });
            let now = After {
                board: Board::from_rows_bottom(&["...##.....", "#.####.###", "#####.####"]),
                m: MoveSummary {
                    double_killscreen: true,
                    ..MoveSummary::default()
                },
                lines: 0x0330,
                level: 39,
            };
            let (after, v2) = locks_and_two_plies(&mut ai, &now, PieceKind::T);
            ai.rollout_values(&v2, &after, PieceKind::T)
        };
        let (once, refined) = (values(0), values(3));
        let p = next_piece_probabilities(PieceKind::T);
        let played: Vec<usize> = (0..once.len())
            .filter(|&li| once[li][0] < TOP_OUT)
            .collect();
        assert_eq!(played.len(), 8, "the default's 8 locks are played");
        let mut best: Vec<(f64, usize)> = played
            .iter()
            .map(|&li| (expected(&once[li], &p), li))
            .collect();
        best.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let kept: Vec<usize> = (0..refined.len())
            .filter(|&li| refined[li][0] < TOP_OUT)
            .collect();
        let mut top3: Vec<usize> = best[..3].iter().map(|&(_, li)| li).collect();
        top3.sort_unstable();
        assert_eq!(kept, top3);
        assert!(
            kept.iter().any(|&li| refined[li] != once[li]),
            "new sequences were played"
        );
    }

    /// `blind_playouts_above`: below level 29, a blind choice on a stack with a column
    /// taller than the limit is the playouts' choice; on a lower stack, or with the option
    /// off, the blind third ply's.
    #[test]
    fn blind_playouts_above_values_tall_blind_choices_by_the_playouts() {
        let tall = Board::from_rows_bottom(&[
            "#.........",
            "#.........",
            "##........",
            "##..#.....",
            "###.##.#..",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
            "#########.",
        ]);
        let low =
            Board::from_rows_bottom(&["##..#.....", "###.##.#..", "#########.", "#########."]);
        let choice = |board: Board, above: Option<u32>| {
            let mut ai = Ai::new(AiConfig {
                blind_playouts_above: above,
                ..AiConfig::default()
            });
            ai.root.timing = Timing::spawn(19);
            let now = After {
                board,
                m: MoveSummary::default(),
                lines: 0x0140,
                level: 19,
            };
            let (after, v2) = locks_and_two_plies(&mut ai, &now, PieceKind::L);
            let p = next_piece_probabilities(PieceKind::L);
            let by_playouts = best_expected(&ai.rollout_values(&v2, &after, PieceKind::L), &p);
            let by_third_ply = best_expected(&ai.blind_values(&v2, &after, PieceKind::L), &p);
            (
                ai.choose_blind(&v2, &after, PieceKind::L),
                by_playouts,
                by_third_ply,
            )
        };
        let (chosen, by_playouts, by_third_ply) = choice(tall, Some(10));
        assert_eq!(chosen, by_playouts, "a 12-row column is above 10");
        assert_ne!(
            by_playouts.1, by_third_ply.1,
            "the two valuations differ (the test tells them apart)"
        );
        let (chosen, _, by_third_ply) = choice(tall, None);
        assert_eq!(chosen, by_third_ply, "off");
        let (chosen, _, by_third_ply) = choice(tall, Some(12));
        assert_eq!(chosen, by_third_ply, "no column above 12 rows");
        let (chosen, by_playouts, _) = choice(low, Some(3));
        assert_eq!(chosen, by_playouts, "a 4-row stack is above 3");
        let (chosen, _, by_third_ply) = choice(low, Some(10));
        assert_eq!(chosen, by_third_ply, "a 4-row stack is below 10");
    }

    /// `deep_commit`: for each next piece, its best N locks by two-piece value take their
    /// third-ply value (what the final choice computes), and every other lock its two-piece
    /// value shifted by the largest gap among those N, never below them by the deep value's
    /// own measure; locks the two plies did not value stay as they were.
    #[test]
    fn deep_commit_values_the_best_locks_by_the_third_ply() {
        let mut ai = Ai::new(AiConfig {
            deep_commit: 3,
            ..AiConfig::default()
        });
        ai.eval_ks = ai.cfg.weights.phase(19, 140, false, false);
        let now = After {
            board: Board::from_rows_bottom(&["...##.....", "#.####.##.", "#####.###."]),
            m: MoveSummary::default(),
            lines: 0x0140,
            level: 19,
        };
        let (after, mut v2) = locks_and_two_plies(&mut ai, &now, PieceKind::L);
        // A lock the two plies left out (beyond the beam).
        v2[0] = [TOP_OUT * 2.0; 7];
        let mut thirds = ThirdPlies::default();
        let vc = ai.commit_values(&v2, &after, &mut thirds);
        assert_eq!(
            thirds.0.len(),
            7 * 3,
            "each next piece's best 3 locks are kept"
        );
        for n in PieceKind::ALL {
            // The final choice with the commitment's third plies is the one without them.
            let mut kept = ThirdPlies(thirds.0.iter().filter(|e| e.1 == n).cloned().collect());
            let with = ai.choose_known(1..after.len(), &v2, &after, n, Some(&mut kept));
            let without = ai.choose_known(1..after.len(), &v2, &after, n, None);
            assert_eq!(with, without, "{n:?}");
        }
        for n in PieceKind::ALL {
            let ni = n as usize;
            let mut ranked: Vec<(f64, usize)> = (1..v2.len()).map(|li| (v2[li][ni], li)).collect();
            ranked.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let p3 = next_piece_probabilities(n);
            let deep: Vec<(usize, f64)> = ranked[..3]
                .iter()
                .map(|&(_, li)| (li, ai.third_ply(&after[li], n, &p3, ai.cfg.deep_next)))
                .collect();
            let shift = deep
                .iter()
                .map(|&(li, v3)| v3 - v2[li][ni])
                .fold(f64::NEG_INFINITY, f64::max);
            for &(li, v3) in &deep {
                assert_eq!(vc[li][ni], v3, "{n:?}: lock {li} takes its third-ply value");
                let kept = thirds.take(li, n).expect("kept");
                assert_eq!(kept.0, v3, "{n:?}: lock {li}'s third ply is kept");
                assert!(kept.1.len() <= ai.cfg.deep_next);
                let best = kept.1.iter().map(|p| p.0).fold(TOP_OUT * 2.0, f64::min);
                assert_eq!(best, v3, "{n:?}: lock {li}'s value is its best pair's");
            }
            for &(c2, li) in &ranked[3..] {
                assert_eq!(vc[li][ni], c2 + shift, "{n:?}: lock {li} is shifted");
            }
            assert_eq!(vc[0][ni], TOP_OUT * 2.0, "a lock left out stays out");
        }
        assert!(vc.iter().zip(&v2).skip(1).any(|(a, b)| a != b));
    }

    /// `blind_fourth`: each blind (lock, next piece) pair is valued by the fourth ply of the
    /// best K of the third ply's placements of that piece, below `fourth_ply_until` only.
    #[test]
    fn blind_fourth_values_the_blind_pairs_by_the_fourth_ply() {
        let board = Board::from_rows_bottom(&[
            "#.........",
            "##...#..#.",
            "###.###.#.",
            "####.####.",
            "#########.",
        ]);
        let mut ai = Ai::new(AiConfig::default());
        ai.eval_ks = ai.cfg.weights.phase(20, 160, false, false);
        ai.root.timing = Timing::spawn(20);
        let a = After {
            board,
            m: MoveSummary::default(),
            lines: 0x0160,
            level: 20,
        };
        let next = PieceKind::S;
        let p3 = next_piece_probabilities(next);
        // By hand: the third ply's best `blind_next` placements of the next piece, the best K
        // by their third-ply value each valued by the fourth ply, the best of them.
        let (v3, mut pairs) = ai.third_ply_pairs(&a, next, &p3, ai.cfg.blind_next);
        pairs.sort_by(|x, y| x.0.total_cmp(&y.0));
        for k in [1, 2] {
            ai.cfg.blind_fourth = k;
            let want = pairs
                .iter()
                .take(k)
                .map(|(_, s)| ai.fourth_ply(s, next, &mut FourthPly::default()))
                .fold(TOP_OUT * 2.0, f64::min);
            assert_eq!(ai.blind_fourth_value(&a, next, &p3), want);
            assert!(want != v3, "one ply deeper is another value");
        }
        // Two pairs value the board no worse than one.
        ai.cfg.blind_fourth = 1;
        let one = ai.blind_fourth_value(&a, next, &p3);
        ai.cfg.blind_fourth = 2;
        assert!(ai.blind_fourth_value(&a, next, &p3) <= one);
        // `blind_values` uses it below `fourth_ply_until` only, and the third ply without it.
        let v2 = vec![[0.0; 7]];
        let after = vec![a];
        ai.cfg.blind_fourth = 1;
        let deeper = ai.blind_values(&v2, &after, PieceKind::T);
        assert_eq!(deeper[0][next as usize], one);
        ai.cfg.blind_fourth = 0;
        let third = ai.blind_values(&v2, &after, PieceKind::T);
        assert_eq!(third[0][next as usize], v3);
        ai.cfg.blind_fourth = 1;
        ai.root.timing = Timing::spawn(29);
        assert_eq!(ai.blind_values(&v2, &after, PieceKind::T), third);
    }

    /// `fourth_ply_lookahead`: the fourth ply's piece after the next is placed at the best of
    /// its best K placements by the expectation over the piece after; K = 1 is the greedy
    /// fourth ply, a wider K values the same board no worse, and by hand.
    #[test]
    fn fourth_ply_lookahead_places_the_piece_after_next_by_two_plies() {
        let mut ai = Ai::new(AiConfig::default());
        ai.eval_ks = ai.cfg.weights.phase(18, 60, false, false);
        ai.root.timing = Timing::spawn(18);
        let s = After {
            board: Board::from_rows_bottom(&[
                "#.........",
                "##...#..#.",
                "###.###.#.",
                "####.####.",
                "#########.",
            ]),
            m: MoveSummary::default(),
            lines: 0x0060,
            level: 18,
        };
        let next = PieceKind::T;
        let mut with = |k: usize| {
            ai.cfg.fourth_ply_lookahead = k;
            ai.fourth_ply(&s, next, &mut FourthPly::default())
        };
        let (greedy, one, four, all) = (with(0), with(1), with(4), with(64));
        assert_eq!(one, greedy, "one placement is the greedy choice");
        assert!(four <= one && all <= four, "{all} <= {four} <= {one}");
        assert!(
            all < greedy,
            "placing by two plies finds better on this board"
        );
        // The fifth ply with what the fourth kept is the fifth ply without (every placement
        // looked for again) and the deep value over three pieces.
        for k in [1, 2, 4] {
            ai.cfg.fourth_ply_lookahead = k;
            let mut kept = FourthPly::default();
            ai.fourth_ply(&s, next, &mut kept);
            assert!(
                kept.first.iter().all(Option::is_some),
                "every piece after the next"
            );
            assert!(kept.follow.iter().flatten().any(Option::is_some));
            let fifth = ai.fifth_ply(&s, next, &kept);
            assert_eq!(fifth, ai.fifth_ply(&s, next, &FourthPly::default()));
            assert_eq!(fifth, ai.deep_value(&s, next, 2, 3));
        }
        // By hand for K = 4.
        ai.cfg.fourth_ply_lookahead = 4;
        let p = next_piece_probabilities(next);
        let mut v = 0.0;
        for k in PieceKind::ALL {
            let ranked = ai.ranked_placements(&s, k, 2, false);
            let p2 = next_piece_probabilities(k);
            let best = ranked
                .iter()
                .take(4)
                .map(|&(_, (o, x, y))| {
                    let t = s.place(o, x, y, 2, false);
                    PieceKind::ALL
                        .iter()
                        .map(|&k2| p2[k2 as usize] * ai.best_follow_up(&t, k2, 3))
                        .sum::<f64>()
                })
                .fold(TOP_OUT, f64::min);
            v += p[k as usize] * best;
        }
        assert!((v - four).abs() < 1e-9 * v.abs().max(1.0), "{v} vs {four}");
    }

    /// `tall_playouts`: on a stack taller than the fourth ply's limit, the choice is the lock
    /// of the best of the third ply's best N pairs by their two pieces' move costs plus the
    /// expected mean of their playouts; on a low stack, or with 0, nothing changes.
    #[test]
    fn tall_playouts_value_the_third_plys_best_pairs() {
        let choose = |tall: usize, rows: &[&str]| {
            let mut ai = Ai::new(AiConfig {
                tall_playouts: tall,
                ..AiConfig::default()
            });
            ai.eval_ks = ai.cfg.weights.phase(18, 60, false, false);
            ai.root.timing = Timing::spawn(18);
            let now = After {
                board: Board::from_rows_bottom(rows),
                m: MoveSummary::default(),
                lines: 0x0060,
                level: 18,
            };
            let (after, v2) = locks_and_two_plies(&mut ai, &now, PieceKind::S);
            let chosen = ai.choose_known(0..after.len(), &v2, &after, PieceKind::L, None);
            (ai, after, v2, chosen)
        };
        let full = "#########.";
        let mut tall_rows = vec![full; 9];
        tall_rows.extend(["##.######.", "##.#####..", "#...###...", "#....#...."]);
        let (mut ai, after, v2, chosen) = choose(4, &tall_rows);
        assert!(ai.root_max_height() > 10);
        // The same by hand: the third ply's pairs for the best deep_locks locks, best first.
        let p3 = next_piece_probabilities(PieceKind::L);
        let mut pairs = Vec::new();
        for &(_, li) in ranked_for_next(&v2, 0..after.len(), PieceKind::L)
            .iter()
            .take(ai.cfg.deep_locks)
        {
            let (_, seconds) = ai.third_ply_pairs(&after[li], PieceKind::L, &p3, ai.cfg.deep_next);
            pairs.extend(seconds.into_iter().map(|(v, s)| (v, li, s)));
        }
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut rng = SplitMix64(position_seed(
            &ai.root.board,
            PieceKind::L,
            pairs[0].2.lines,
        ));
        let seqs = ai.sequence_set(&mut rng).seqs;
        let r = seqs.len() / 7;
        let mut best = (usize::MAX, f64::INFINITY);
        for (_, li, s) in pairs.iter().take(4) {
            let mut v = ai.eval().move_cost(&s.m);
            for (k, group) in seqs.chunks(r).enumerate() {
                let mean = group.iter().map(|q| ai.playout(s, q)).sum::<f64>() / r as f64;
                v += p3[k] * mean;
            }
            if v < best.1 {
                best = (*li, v);
            }
        }
        assert_eq!(chosen.0, best.0);
        assert!((chosen.1 - best.1).abs() < 1e-6 * best.1.abs().max(1.0));
        // Off, the third ply's value; on a low stack, the fourth ply's either way.
        let (_, _, _, off) = choose(0, &tall_rows);
        assert_ne!(
            off.1, chosen.1,
            "the playouts' value is not the third ply's"
        );
        let low_rows = ["#########.", "##.######.", "#...###..."];
        assert_eq!(choose(4, &low_rows).3, choose(0, &low_rows).3);
    }

    /// `endgame_death`: in the `[endgame]` table's lines a playout ends at the line cap (a
    /// Tetris to 430 lines is worth its move alone, no board after it), and a top-out costs
    /// the price of the Tetrises the lines left allowed; before those lines, or off, a
    /// playout plays past the cap and a top-out costs `rollout_death`.
    #[test]
    fn endgame_death_ends_the_playouts_at_the_cap() {
        let player = |endgame_death: Option<f64>, lines: u32| {
            let mut ai = at_level_39(AiConfig {
                endgame_death,
                line_cap: Some(430),
                ..AiConfig::default()
            });
            ai.eval_ks = ai
                .cfg
                .weights
                .phase_capped(42, lines, true, false, Some(430));
            ai
        };
        assert_eq!(player(Some(600.0), 426).eval_ks, ENDGAME_PHASE);
        let ready = After {
            board: Board::from_rows_bottom(&[
                "###.......",
                "#####.####",
                "#####.####",
                "#####.####",
                "#####.####",
            ]),
            m: MoveSummary::default(),
            lines: 0x0426,
            level: 42,
        };
        let (mut on, mut off) = (player(Some(600.0), 426), player(None, 426));
        let Walk::Alive(tetris, moves) = on.playout_step(ready, 0.0, PieceKind::I) else {
            panic!("the I has locks");
        };
        assert_eq!(tetris.m.clears[0], 4);
        assert_eq!(nestris_engine::bcd::lines_value(tetris.lines), 430);
        let left_board = off.final_cost(tetris);
        assert_ne!(left_board, 0.0);
        assert_eq!(on.playout(&ready, &[PieceKind::I]), moves);
        assert_eq!(off.playout(&ready, &[PieceKind::I]), moves + left_board);
        let seq = [PieceKind::I, PieceKind::T, PieceKind::O];
        assert_eq!(
            on.playout(&tetris, &seq),
            0.0,
            "at the cap: nothing left to play"
        );
        assert_ne!(off.playout(&tetris, &seq), 0.0);

        let full = After {
            board: Board::from_rows_bottom(&["#########."; 20]),
            m: MoveSummary::default(),
            lines: 0x0420,
            level: 42,
        };
        let death = AiConfig::default().rollout_death;
        // 10 lines left: three Tetrises' worth.
        assert_eq!(player(Some(600.0), 420).playout(&full, &seq), 1800.0);
        assert_eq!(player(Some(1e6), 420).playout(&full, &seq), death);
        assert_eq!(player(None, 420).playout(&full, &seq), death);
        // 330 lines: the double killscreen's own table, not the endgame's.
        let early = After {
            lines: 0x0330,
            ..full
        };
        assert_eq!(player(Some(600.0), 330).playout(&early, &seq), death);
    }

    /// `rollout_burns` changes the playouts' piece choices and nothing else: at 1 the
    /// playout evaluator is the evaluation's; weighed 50 times, a playout under the double
    /// killscreen keeps the middle well open where the evaluation's choice burns a line.
    #[test]
    fn rollout_burns_weigh_the_playouts_choices() {
        let playout_clears = |k: f64| {
            let mut ai = at_level_39(AiConfig {
                rollout_burns: k,
                ..AiConfig::default()
            });
            assert_eq!(
                ai.rollout_evals[ai.eval_ks].weights().get("burns"),
                k * ai.evals[ai.eval_ks].weights().get("burns")
            );
            let a = After {
                board: Board::from_rows_bottom(&["#####.####", "####..####"]),
                m: MoveSummary::default(),
                lines: 0x0330,
                level: 39,
            };
            match ai.playout_step(a, 0.0, PieceKind::J) {
                Walk::Alive(b, _) => b.m.clears[0],
                Walk::Dead(_) => panic!("the J has locks"),
            }
        };
        assert!(playout_clears(1.0) > 0, "the evaluation burns here");
        assert_eq!(playout_clears(50.0), 0, "the playout keeps the well");
    }

    /// Playouts that start from a shared beginning are worth what each played alone is worth,
    /// to the bit, on boards from empty to nearly topped out (where playouts die).
    #[test]
    fn shared_playouts_match_single_ones() {
        for (lookahead, pieces) in [(0, 1), (3, 1), (3, 2)] {
            shared_playouts_match_single_ones_with(lookahead, pieces);
        }
    }

    fn shared_playouts_match_single_ones_with(lookahead: usize, pieces: usize) {
        let mut ai = Ai::new(AiConfig {
            rollout_lookahead: lookahead,
            rollout_lookahead_double_killscreen: lookahead,
            rollout_lookahead_pieces: pieces,
            ..AiConfig::default()
        });
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let (mut walks, mut values) = (Vec::new(), Vec::new());
        let (mut shared_pieces, mut deaths) = (0, 0);
        for n in 0..24u32 {
            let mut board = Board::new();
            for x in 0..10 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let h = (seed >> 33) as usize % (1 + n as usize % 19);
                for r in (crate::board::ROWS - h)..crate::board::ROWS {
                    if (seed >> (r % 30)) & 7 != 0 && x != n as usize % 10 {
                        board.rows[r] |= 1 << x;
                    }
                }
            }
            board.clear_lines();
            let level = [29, 39][n as usize % 2];
            ai.double_killscreen = n % 4 < 2;
            ai.eval_ks = ai.cfg.weights.phase(level, 0, ai.double_killscreen, false);
            let a = After {
                board,
                m: MoveSummary::default(),
                lines: 0x0290,
                level,
            };
            let mut rng = SplitMix64(seed);
            let SequenceSet { seqs, shared, .. } = ai.sequence_set(&mut rng);
            ai.playouts(&a, &seqs, &shared, &mut walks, &mut values);
            assert_eq!(values.len(), seqs.len());
            for (s, seq) in seqs.iter().enumerate() {
                let (j, k) = shared[s];
                assert!(j <= s && seqs[j][..k] == seq[..k]);
                shared_pieces += k;
                let alone = ai.playout(&a, seq);
                assert_eq!(
                    values[s].to_bits(),
                    alone.to_bits(),
                    "board {n} sequence {s}"
                );
                deaths += usize::from(alone >= ai.cfg.rollout_death);
            }
        }
        assert!(shared_pieces > 0 && deaths > 0, "{shared_pieces} {deaths}");
    }

    /// `rollout_lookahead`: a playout's first piece takes, among its best K placements by
    /// their own cost, the one whose expectation over the piece after of its best placement
    /// is lowest (checked by hand on a board where that is not the greedy choice), and the
    /// later pieces play greedily; with K = 1 the playouts are the greedy ones to the bit.
    /// Under the double killscreen's table, K is `rollout_lookahead_double_killscreen`.
    /// With `rollout_lookahead_pieces` 2 the second piece is chosen so too, and a playout of
    /// two pieces is the same as with 1 (its last piece is greedy).
    #[test]
    fn rollout_lookahead_places_the_first_piece_by_two_plies() {
        let ai_with_pieces = |k: usize, pieces: usize| {
            let mut ai = at_level_39(AiConfig {
                rollout_lookahead_double_killscreen: k,
                rollout_lookahead_pieces: pieces,
                ..AiConfig::default()
            });
            ai.root.board = Board::new();
            ai
        };
        let ai_with = |k: usize| ai_with_pieces(k, 1);
        // The lookahead's choice for `n` on `cur` by hand: among the best 4 placements by
        // their own cost, the lowest expectation over the piece after of its best placement.
        let by_two_plies = |ai: &mut Ai, cur: &After, n: PieceKind| {
            let mut cur = *cur;
            cur.m = MoveSummary {
                level: 39,
                double_killscreen: true,
                ..MoveSummary::default()
            };
            let ranked = ai.ranked_placements(&cur, n, 0, true);
            let p = next_piece_probabilities(n);
            let mut best: Option<(f64, (u8, i8, i8))> = None;
            for &(_, pl) in ranked.iter().take(4) {
                let b = cur.place(pl.0, pl.1, pl.2, 0, false);
                let v: f64 = PieceKind::ALL
                    .iter()
                    .map(|&n2| p[n2 as usize] * ai.best_follow_up(&b, n2, 1))
                    .sum();
                if best.is_none_or(|(bv, _)| v < bv) {
                    best = Some((v, pl));
                }
            }
            let (_, pl) = best.expect("a placement");
            (cur.place(pl.0, pl.1, pl.2, 0, false), pl != ranked[0].1)
        };
        let boards = [
            Board::from_rows_bottom(&["...##.....", "#.####.###", "#####.####"]),
            Board::from_rows_bottom(&["#.........", "##.....#..", "###.#.####", "####.#####"]),
            Board::from_rows_bottom(&["......##..", ".##..####.", "#########."]),
        ];
        let (mut differs, mut second_differs) = (0, 0);
        for (bi, board) in boards.iter().enumerate() {
            let a = After {
                board: *board,
                m: MoveSummary {
                    double_killscreen: true,
                    ..MoveSummary::default()
                },
                lines: 0x0330,
                level: 39,
            };
            for n in PieceKind::ALL {
                let seq = [n, PieceKind::I, PieceKind::T];
                // K = 1 is the greedy playout, and so is the lookahead of the other phases
                // where the double killscreen's table plays.
                let (mut greedy, mut one) = (ai_with(0), ai_with(1));
                let mut elsewhere = ai_with(0);
                elsewhere.cfg.rollout_lookahead = 4;
                let greedy_value = greedy.playout(&a, &seq).to_bits();
                assert_eq!(
                    greedy_value,
                    one.playout(&a, &seq).to_bits(),
                    "board {bi} piece {n:?}"
                );
                assert_eq!(greedy_value, elsewhere.playout(&a, &seq).to_bits());
                // K = 4 by hand: the first step's choice (the second's too with two
                // pieces), then greedy.
                for pieces in [1, 2] {
                    let mut ai = ai_with_pieces(4, pieces);
                    let (b, other) = by_two_plies(&mut ai, &a, n);
                    differs += usize::from(other);
                    let mut walk = Walk::Alive(b, ai.eval().move_cost(&b.m));
                    if pieces == 2 {
                        let (b2, other) = by_two_plies(&mut ai, &b, seq[1]);
                        second_differs += usize::from(other);
                        walk =
                            Walk::Alive(b2, ai.eval().move_cost(&b.m) + ai.eval().move_cost(&b2.m));
                    }
                    for &n2 in &seq[pieces..] {
                        walk = match walk {
                            Walk::Alive(c, t) => ai.playout_step(c, t, n2),
                            dead => dead,
                        };
                    }
                    let by_hand = match walk {
                        Walk::Alive(c, t) => t + ai.final_cost(c),
                        Walk::Dead(v) => v,
                    };
                    assert_eq!(
                        ai.playout(&a, &seq).to_bits(),
                        by_hand.to_bits(),
                        "board {bi} piece {n:?}, {pieces} pieces"
                    );
                    // Two pieces of two: the last is greedy, as with one.
                    assert_eq!(
                        ai.playout(&a, &seq[..2]).to_bits(),
                        ai_with(4).playout(&a, &seq[..2]).to_bits()
                    );
                }
            }
        }
        assert!(second_differs > 0, "the second piece was always greedy's");
        assert!(
            differs > 0,
            "the two plies never chose other than the greedy step"
        );
    }

    #[test]
    fn probabilities_sum_to_one() {
        for k in PieceKind::ALL {
            let p = next_piece_probabilities(k);
            let s: f64 = p.iter().sum();
            assert!((s - 1.0).abs() < 1e-12);
        }
        // After an L, I and L are the least likely (the published 13.84% are averages).
        let p = next_piece_probabilities(PieceKind::T);
        assert!(p[PieceKind::T as usize] < p[PieceKind::J as usize]);
    }
}
