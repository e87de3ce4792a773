//! Move search under the game's real timing.
//!
//! # Design
//!
//! Without Down held, gravity does not depend on the player: the frames on which the piece
//! drops follow from `fallTimer`, `autorepeatY` and the level alone (the game's `drop_tetrimino`
//! rules, simulated here exactly, including the first piece's 96-frame hang). So every state
//! reachable on frame `t` has the same row, and a state is just `(x, orientation)` within the
//! layer of frame `t`: at most 40 per layer. The search advances layer by layer, trying on
//! every frame where the input model allows a press each of {none, Left, Right} x {none, A, B}
//! in the game's order (shift, then rotate, then the drop), and records every lock: the frame
//! whose drop fails. Because the transitions are the game's own (each move checks only the new
//! position, rotations have no kicks, a failed drop locks at once), tucks and spins come out of
//! the search without being special-cased, and replaying a lock's inputs through the engine
//! locks the piece exactly there (checked by a property test over random boards, levels and
//! tap speeds).
//!
//! The layered graph is kept (edges with their input bytes) so that the player can ask which
//! locks are still reachable from any state — what reaction time needs: inputs before the
//! next piece is seen commit to a state, and the final choice is made among the locks
//! reachable from it.

use nestris_engine::game::frames_per_drop;
use nestris_engine::{buttons, Orientation};

use crate::board::Board;
use crate::input::InputModel;

/// Gravity state at the search's root: what the game holds after the root frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Level (gravity).
    pub level: u8,
    /// `fallTimer` after the root frame.
    pub fall_timer: u8,
    /// `autorepeatY` after the root frame (negative: the first piece's hang).
    pub ary: i8,
    /// The double killscreen (a departure from the original, see
    /// [`nestris_engine::Game::set_double_killscreen`]): two drops a frame from level 39.
    pub double_killscreen: bool,
}

impl Timing {
    /// Timing of a freshly spawned piece (after the spawn frame) at `level`.
    pub fn spawn(level: u8) -> Timing {
        Timing {
            level,
            fall_timer: 0,
            ary: 0,
            double_killscreen: false,
        }
    }

    /// The same timing with the double killscreen on or off.
    pub fn with_double_killscreen(mut self, on: bool) -> Timing {
        self.double_killscreen = on;
        self
    }

    /// Rows a gravity drop moves the piece: 2 under the double killscreen from its level, 1
    /// otherwise.
    pub fn rows_per_drop(&self) -> u8 {
        if nestris_engine::game::two_rows_a_frame(self.level, self.double_killscreen) {
            2
        } else {
            1
        }
    }

    /// Gravity drops tried on each frame after the root, frame 1 first: 0 or 1, or 2 under
    /// the double killscreen (the second only if the first succeeded). Endless.
    pub fn drops(&self) -> impl Iterator<Item = u8> + Clone {
        let speed = frames_per_drop(self.level);
        let per_drop = self.rows_per_drop();
        let (mut ft, mut ary) = (self.fall_timer, self.ary);
        std::iter::repeat(()).map(move |()| {
            ft = ft.wrapping_add(1);
            if ary < 0 {
                ary += 1;
                0
            } else if ft.wrapping_sub(speed) & 0x80 == 0 {
                ft = 0;
                per_drop
            } else {
                0
            }
        })
    }

    /// [`Timing::drops`] for frames `1..=n` after the root.
    pub fn drop_frames(&self, n: usize) -> Vec<u8> {
        self.drops().take(n).collect()
    }
}

/// Where a piece at `(o, x, y)` ends a frame with `drops` gravity drops: `Ok(row)` if it is
/// still falling, `Err(row)` if a drop failed and it locks at that row.
#[inline(always)]
pub fn fall(board: &Board, o: u8, x: i8, y: i8, drops: u8) -> Result<i8, i8> {
    fall_on(&mut &*board, o, x, y, drops)
}

/// What a quick path asks of the board: whether a piece fits ([`Board::fits`]). A board
/// answers; [`EmptyFootprint`] answers for the empty board and records the cells it was
/// asked about.
trait Probe {
    fn fits(&mut self, o: u8, x: i8, y: i8) -> bool;

    /// The cells asked about so far, where the probe records them ([`EmptyFootprint`]).
    fn tested(&self) -> Option<[u32; 10]> {
        None
    }
}

impl Probe for &Board {
    #[inline(always)]
    fn fits(&mut self, o: u8, x: i8, y: i8) -> bool {
        Board::fits(self, o, x, y)
    }
}

/// The empty board, recording in `cols` (bit r + 2 of column x = row r) every cell of every
/// position asked about that lies inside the field. On a board with none of those cells
/// filled, each question gets the empty board's answer: a position that fits on the empty
/// board fits there too (its cells are among those recorded), and one that does not (a wall,
/// the floor) does not fit anywhere.
#[derive(Clone, Copy, Debug, Default)]
struct EmptyFootprint {
    cols: [u32; 10],
}

impl Probe for EmptyFootprint {
    fn fits(&mut self, o: u8, x: i8, y: i8) -> bool {
        if !Board::new().fits(o, x, y) {
            return false;
        }
        for &(dx, dy) in &nestris_engine::piece::MINOS[o as usize] {
            self.cols[(x + dx) as usize] |= 1 << (y + dy + 2);
        }
        true
    }

    fn tested(&self) -> Option<[u32; 10]> {
        Some(self.cols)
    }
}

/// [`fall`] asking `probe`.
#[inline(always)]
fn fall_on<P: Probe>(probe: &mut P, o: u8, x: i8, y: i8, drops: u8) -> Result<i8, i8> {
    let mut y = y;
    for _ in 0..drops {
        if probe.fits(o, x, y + 1) {
            y += 1;
        } else {
            return Err(y);
        }
    }
    Ok(y)
}

/// A state of the search: position and orientation within a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Column.
    pub x: i8,
    /// Orientation id.
    pub o: u8,
    /// Index of the first parent found in the previous layer.
    pub parent: u16,
    /// Input held on this node's frame to reach it from `parent`.
    pub input: u8,
    /// With spaced presses ([`InputModel::is_spaced`]), the frames still to wait before a
    /// new press may start (0: on the next frame); always 0 with a mask.
    pub cool: u8,
}

/// A lock: the frame whose drop failed, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lock {
    /// Orientation id at lock.
    pub o: u8,
    /// Column.
    pub x: i8,
    /// Row.
    pub y: i8,
    /// Frame of the lock (1 = first frame after the root).
    pub frame: u32,
    /// Parent node in layer `frame - 1`.
    pub parent: u16,
    /// Input held on the lock frame.
    pub input: u8,
    /// Whether the lock position overlaps blocks (the game ends: top-out).
    pub tops_out: bool,
}

/// An edge of the layered graph: `parent` in layer t-1 to `child` in layer t (or to a lock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Edge {
    parent: u16,
    child: u16,
    input: u8,
}

/// The result of a search: layers of nodes, the edges between them, and the locks.
#[derive(Clone, Debug)]
pub struct Search {
    /// `layers[t]`: nodes after frame t (layer 0 is the root).
    pub layers: Vec<Vec<Node>>,
    /// Row of every node in layer t.
    pub rows: Vec<i8>,
    edges: Vec<Vec<Edge>>,
    lock_edges: Vec<Vec<Edge>>,
    /// Distinct lock placements (first, i.e. earliest, occurrence of each).
    pub locks: Vec<Lock>,
}

/// Placements are identified by index into `Search::locks`; reach sets are bitsets of them.
pub type ReachSet = [u64; 4];
/// The most distinct placements tracked in reach sets.
pub const MAX_LOCKS: usize = 256;

/// The lock indices in a reach set, in increasing order.
pub fn locks_in(set: &ReachSet) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &bits)| {
        let mut b = bits;
        std::iter::from_fn(move || {
            (b != 0).then(|| {
                let i = b.trailing_zeros() as usize;
                b &= b - 1;
                w * 64 + i
            })
        })
    })
}

fn press_options(o: u8, allow: bool) -> &'static [u8] {
    const L: u8 = buttons::LEFT;
    const R: u8 = buttons::RIGHT;
    const A: u8 = buttons::A;
    const B: u8 = buttons::B;
    const FULL: [u8; 9] = [0, L, R, A, B, L | A, L | B, R | A, R | B];
    const TWO: [u8; 6] = [0, L, R, A, L | A, R | A];
    const NONE: [u8; 3] = [0, L, R];
    if !allow {
        return &[0];
    }
    match Orientation::ALL[o as usize].kind().orientation_count() {
        1 => &NONE,
        2 => &TWO,
        _ => &FULL,
    }
}

/// Applies one frame's shift and rotation (the game's order), returning the new (x, o).
#[inline(always)]
pub fn apply_input(board: &Board, x: i8, o: u8, y: i8, input: u8) -> (i8, u8) {
    apply_input_on(&mut &*board, x, o, y, input)
}

/// [`apply_input`] asking `probe`.
#[inline(always)]
fn apply_input_on<P: Probe>(probe: &mut P, x: i8, o: u8, y: i8, input: u8) -> (i8, u8) {
    let mut nx = x;
    if input & buttons::RIGHT != 0 {
        if probe.fits(o, x + 1, y) {
            nx = x + 1;
        }
    } else if input & buttons::LEFT != 0 && x > 0 && probe.fits(o, x - 1, y) {
        nx = x - 1;
    }
    let mut no = o;
    if input & (buttons::A | buttons::B) != 0 {
        let orient = Orientation::ALL[o as usize];
        let r = if input & buttons::A != 0 {
            orient.cw()
        } else {
            orient.ccw()
        } as u8;
        if probe.fits(r, nx, y) {
            no = r;
        }
    }
    (nx, no)
}

impl Search {
    /// Searches every lock reachable from `(x, o, y)` after the root frame, on `board`, with
    /// `timing`, pressing only where `input` allows (frame 1 is mask frame 0). `prev_input` is
    /// the controller byte held on the root frame: a button held there cannot be newly pressed
    /// on frame 1.
    pub fn run(
        board: &Board,
        x: i8,
        o: u8,
        y: i8,
        timing: Timing,
        input: &InputModel,
        prev_input: u8,
    ) -> Search {
        let max_frames = 20 * 256 + 200;
        let drops = timing.drop_frames(max_frames);
        // Spaced presses: a press starts a wait of `gap - 1` frames before the next may; the
        // wait is part of the state (a node per position and wait).
        const MAX_GAP: usize = InputModel::MAX_SPACED_GAP;
        let gap = if input.is_spaced() {
            debug_assert!(
                input.press_gap() <= MAX_GAP,
                "InputModel::spaced refuses more"
            );
            input.press_gap().clamp(1, MAX_GAP) as u8
        } else {
            1
        };
        // Node keys within a layer: position, then the wait (`gap` of them).
        let stride = gap as usize;
        let mut index = [u16::MAX; 19 * 16 * MAX_GAP];
        let mut layers: Vec<Vec<Node>> = vec![vec![Node {
            x,
            o,
            parent: 0,
            input: prev_input,
            cool: if prev_input != 0 { gap - 1 } else { 0 },
        }]];
        let mut rows = vec![y];
        let mut edges = vec![Vec::new()];
        let mut lock_edges = vec![Vec::new()];
        let mut locks: Vec<Lock> = Vec::new();
        let mut lock_index = [u16::MAX; 19 * 10 * 22];
        let mut t = 0usize;
        while !layers[t].is_empty() && t < max_frames {
            let frame = t + 1;
            let mask_allows = if input.is_spaced() {
                true
            } else {
                input.can_press(t as u32) && !(t == 0 && prev_input != 0)
            };
            let drop = drops[t];
            let cur_y = rows[t];
            let next_y = cur_y + drop as i8;
            let mut next: Vec<Node> = Vec::with_capacity(layers[t].len() * 2);
            let mut next_edges = Vec::new();
            let mut next_locks = Vec::new();
            // Only the keys of this search's gap are used (one wait with a mask), so only they
            // are cleared: the default search clears what it did before spaced presses.
            index[..19 * 16 * stride].fill(u16::MAX);
            for (pi, n) in layers[t].iter().enumerate() {
                let allow = mask_allows && n.cool == 0;
                for &inp in press_options(n.o, allow) {
                    let (nx, no) = apply_input(board, n.x, n.o, cur_y, inp);
                    if let Err(ly) = fall(board, no, nx, cur_y, drop) {
                        let key = no as usize * 220 + nx as usize * 22 + ly as usize + 2;
                        let li = if lock_index[key] == u16::MAX {
                            if locks.len() >= MAX_LOCKS {
                                continue;
                            }
                            lock_index[key] = locks.len() as u16;
                            locks.push(Lock {
                                o: no,
                                x: nx,
                                y: ly,
                                frame: frame as u32,
                                parent: pi as u16,
                                input: inp,
                                tops_out: !board.fits(no, nx, ly),
                            });
                            locks.len() - 1
                        } else {
                            lock_index[key] as usize
                        };
                        next_locks.push(Edge {
                            parent: pi as u16,
                            child: li as u16,
                            input: inp,
                        });
                        continue;
                    }
                    let cool = if inp != 0 {
                        gap - 1
                    } else {
                        n.cool.saturating_sub(1)
                    };
                    let key = (no as usize * 16 + nx as usize) * stride + cool as usize;
                    let ci = if index[key] == u16::MAX {
                        index[key] = next.len() as u16;
                        next.push(Node {
                            x: nx,
                            o: no,
                            parent: pi as u16,
                            input: inp,
                            cool,
                        });
                        next.len() - 1
                    } else {
                        index[key] as usize
                    };
                    next_edges.push(Edge {
                        parent: pi as u16,
                        child: ci as u16,
                        input: inp,
                    });
                }
            }
            layers.push(next);
            rows.push(next_y);
            edges.push(next_edges);
            lock_edges.push(next_locks);
            t += 1;
        }
        Search {
            layers,
            rows,
            edges,
            lock_edges,
            locks,
        }
    }

    /// Controller bytes for frames 1..=frame of a lock that press every move as early as it
    /// can be pressed while keeping lock `li` in reach (what a player does).
    pub fn plan_eager(&self, li: usize) -> Vec<u8> {
        let reach = self.reach_sets_from(0);
        self.plan_from(0, 0, li, &reach)
            .unwrap_or_else(|| self.plan_to_lock(li))
    }

    /// The controller bytes for frames 1..=frame of lock `li` along the path the search found
    /// first (which tends to wait and move late).
    pub fn plan_to_lock(&self, li: usize) -> Vec<u8> {
        let l = &self.locks[li];
        let mut plan = vec![0u8; l.frame as usize];
        plan[l.frame as usize - 1] = l.input;
        let mut node = l.parent as usize;
        let mut t = l.frame as usize - 1;
        while t > 0 {
            let n = &self.layers[t][node];
            plan[t - 1] = n.input;
            node = n.parent as usize;
            t -= 1;
        }
        plan
    }

    /// Controller bytes for frames 1..=t reaching node `ni` of layer `t`.
    pub fn plan_to_node(&self, t: usize, ni: usize) -> Vec<u8> {
        let mut plan = vec![0u8; t];
        let mut node = ni;
        let mut tt = t;
        while tt > 0 {
            let n = &self.layers[tt][node];
            plan[tt - 1] = n.input;
            node = n.parent as usize;
            tt -= 1;
        }
        plan
    }

    /// Reach sets of every node of every layer from `t` on (`result[k]` is layer `t + k`):
    /// which locks can still be reached from each node.
    pub fn reach_sets_from(&self, t: usize) -> Vec<Vec<ReachSet>> {
        let last = self.layers.len() - 1;
        let mut out: Vec<Vec<ReachSet>> = vec![Vec::new(); last + 1 - t.min(last)];
        let mut below: Vec<ReachSet> = vec![[0; 4]; self.layers[last].len()];
        let mut layer = last;
        while layer > t {
            let mut cur: Vec<ReachSet> = vec![[0; 4]; self.layers[layer - 1].len()];
            for e in &self.edges[layer] {
                let child = below[e.child as usize];
                let p = &mut cur[e.parent as usize];
                for k in 0..4 {
                    p[k] |= child[k];
                }
            }
            for e in &self.lock_edges[layer] {
                cur[e.parent as usize][e.child as usize / 64] |= 1u64 << (e.child % 64);
            }
            out[layer - t] = std::mem::replace(&mut below, cur);
            layer -= 1;
        }
        out[0] = below;
        out
    }

    /// Inputs for frames t+1..=lock frame that go from node `ni` of layer `t` to lock `li`,
    /// or `None` if that lock is not reachable from there. `reach` is
    /// [`Search::reach_sets_from`]`(t)`.
    pub fn plan_from(
        &self,
        t: usize,
        ni: usize,
        li: usize,
        reach: &[Vec<ReachSet>],
    ) -> Option<Vec<u8>> {
        let has = |set: &ReachSet| set[li / 64] >> (li % 64) & 1 != 0;
        if !has(&reach[0][ni]) {
            return None;
        }
        let mut plan = Vec::new();
        let mut node = ni;
        let mut layer = t;
        loop {
            if let Some(e) = self.lock_edges[layer + 1]
                .iter()
                .find(|e| e.parent as usize == node && e.child as usize == li)
            {
                plan.push(e.input);
                return Some(plan);
            }
            // Step to a child that can still reach the lock, the one closest to it (columns
            // plus rotations), so moves are made as soon as they keep the lock in reach; on a
            // tie, no press.
            let target = &self.locks[li];
            let dist = |n: &Node| {
                let turns = rotation_distance(n.o, target.o);
                (n.x - target.x).unsigned_abs() as u32 + turns
            };
            let next = &self.layers[layer + 1];
            let e = self.edges[layer + 1]
                .iter()
                .filter(|e| {
                    e.parent as usize == node && has(&reach[layer + 1 - t][e.child as usize])
                })
                .min_by_key(|e| (dist(&next[e.child as usize]), e.input != 0))?;
            plan.push(e.input);
            node = e.child as usize;
            layer += 1;
        }
    }
}

/// Presses needed to turn orientation `a` into `b` (0, 1 or 2).
fn rotation_distance(a: u8, b: u8) -> u32 {
    let oa = Orientation::ALL[a as usize];
    if a == b {
        0
    } else if oa.cw() as u8 == b || oa.ccw() as u8 == b {
        1
    } else {
        2
    }
}

/// The fast search used for the pieces after the current one: for each orientation and column,
/// one canonical path (rotate on the first allowed frames, tap towards the column on every
/// allowed frame, then fall), simulated frame by frame under gravity. Tucks and spins are left
/// out. Returns `(o, x, y)` of each lock reached (tops-out locks excluded).
pub fn quick_placements(
    board: &Board,
    spawn: Orientation,
    timing: Timing,
    input: &InputModel,
    out: &mut Vec<(u8, i8, i8)>,
) {
    quick_placements_with_columns(board, &board.columns(), spawn, timing, input, out);
}

/// [`quick_placements`] with the board's columns ([`Board::columns`]) at hand.
pub fn quick_placements_with_columns(
    board: &Board,
    cols: &[u32; 10],
    spawn: Orientation,
    timing: Timing,
    input: &InputModel,
    out: &mut Vec<(u8, i8, i8)>,
) {
    out.clear();
    for ri in 0..spawn.kind().orientations().len() {
        quick_orientation(board, cols, spawn, timing, input, ri, out);
    }
}

/// [`quick_placements_with_columns`] with the paths walked on the empty board at hand
/// (`paths`, made for `timing` and `input`): a path that tests no filled cell of `board`
/// walks on it as on the empty board, so only its last fall is made here; the others walk
/// as on the empty board up to the frame where they first test a filled cell, and frame by
/// frame on `board` from there, one path at a time. (Under the double killscreen most
/// orientations have a path or two that meet the stack: walking only those, not the whole
/// orientation, took 2.5% off a game's instructions there, and starting them at that frame
/// 8.6% more.) The same placements in the same order. Paths
/// made for another gravity, start or tap speed ([`QuickPaths::serves`]) are not used: every
/// orientation is then walked frame by frame ([`quick_placements_with_columns`]).
pub fn quick_placements_cached(
    board: &Board,
    cols: &[u32; 10],
    spawn: Orientation,
    timing: Timing,
    input: &InputModel,
    paths: &QuickPaths,
    out: &mut Vec<(u8, i8, i8)>,
) {
    if !paths.serves(timing, input) {
        quick_placements_with_columns(board, cols, spawn, timing, input, out);
        return;
    }
    out.clear();
    let kind = spawn.kind();
    for ri in 0..kind.orientations().len() {
        let rot_inputs = rotation_inputs(kind.orientation_count(), ri);
        for (x, &(fp, end, frames)) in paths.ends[kind as usize][ri].iter().enumerate() {
            // A path that tests no filled cell walks as on the empty board. One that does
            // walks as on the empty board up to the frame of its first test of a filled cell,
            // and on this board from the start of that frame (the path to a column is the
            // same alone as on [`quick_orientation`]'s chain, which only shares the walks'
            // beginnings).
            let clear = fp.iter().zip(cols).all(|(f, c)| f & c == 0);
            let end = if clear {
                end
            } else {
                let frames = &paths.frames[frames.0 as usize..][..frames.1 as usize];
                // The last frame before whose start no filled cell was tested (the first
                // frame has tested nothing).
                let k = frames
                    .iter()
                    .position(|f| f.tested.iter().zip(cols).any(|(t, c)| t & c != 0))
                    .unwrap_or(frames.len())
                    - 1;
                let f = frames[k];
                let resume = PathState {
                    x: f.x,
                    o: f.o,
                    y: f.y,
                    rots: f.rots as usize,
                    t: f.t as usize,
                    drops: timing.drops().skip(f.t as usize),
                };
                quick_walk(
                    &mut &*board,
                    input,
                    rot_inputs,
                    x as i8,
                    resume,
                    &mut None,
                    None,
                )
            };
            if let Some(lock) = end.and_then(|e| quick_finish(board, cols, e)) {
                out.push(lock);
            }
        }
    }
}

/// Gravities a spawned piece's fall can differ by: levels 0..=28, 29 on (one row a frame), and
/// the double killscreen's two rows a frame from level 39 ([`gravity_key`]).
pub const GRAVITY_KEYS: usize = 31;

/// The index of a level's gravity in [`GRAVITY_KEYS`]: every level from 29 falls one row a
/// frame ([`nestris_engine::game::frames_per_drop`]), two under the double killscreen from
/// level 39. Pieces spawned at levels of one key fall on the same frames.
pub fn gravity_key(level: u8, double_killscreen: bool) -> usize {
    if nestris_engine::game::two_rows_a_frame(level, double_killscreen) {
        30
    } else {
        level.min(29) as usize
    }
}

/// The quick paths of one gravity and tap speed walked on the empty board
/// ([`quick_placements_cached`]): for each piece (from its spawn), orientation (in
/// [`nestris_engine::PieceKind::orientations`] order) and target column, the cells the walk
/// tests and where it ends (`None`: it fails).
#[derive(Clone, Debug)]
pub struct QuickPaths {
    timing: Timing,
    input: InputModel,
    ends: Box<[[[QuickEnd; 10]; 4]; 7]>,
    /// Every path's frames, path after path ([`QuickEnd`] says where each path's are).
    frames: Vec<PathFrame>,
}

/// One quick path on the empty board ([`QuickPaths`]): the cells it tests (column words),
/// where it ends (`None`: it fails), and where its frames are in [`QuickPaths`]' `frames`
/// (the first and how many).
type QuickEnd = ([u32; 10], Option<WalkEnd>, (u32, u16));

/// A frame of a quick path walked on the empty board: the state at its start and the cells
/// tested before it (column words). On a board none of whose filled cells had been tested
/// before the frame, the walk stands in that state then.
#[derive(Clone, Copy, Debug)]
struct PathFrame {
    x: i8,
    o: u8,
    y: i8,
    rots: u8,
    t: u16,
    tested: [u32; 10],
}

impl QuickPaths {
    /// Whether these paths are those of pieces falling with `timing` and tapped at `input`:
    /// the same gravity ([`gravity_key`]: levels of one key fall on the same frames), the
    /// same timer and autorepeat at the start, and the same tap speed.
    #[inline]
    pub fn serves(&self, timing: Timing, input: &InputModel) -> bool {
        let t = self.timing;
        gravity_key(t.level, t.double_killscreen)
            == gravity_key(timing.level, timing.double_killscreen)
            && (t.fall_timer, t.ary) == (timing.fall_timer, timing.ary)
            && self.input == *input
    }

    /// Walks every quick path on the empty board for pieces spawned with `timing`.
    pub fn new(timing: Timing, input: &InputModel) -> QuickPaths {
        let mut ends = Box::new([[[([0u32; 10], None, (0, 0)); 10]; 4]; 7]);
        let mut frames = Vec::new();
        for kind in nestris_engine::PieceKind::ALL {
            let spawn = kind.spawn();
            for (ri, row) in ends[kind as usize]
                .iter_mut()
                .enumerate()
                .take(kind.orientations().len())
            {
                let rot_inputs = rotation_inputs(kind.orientation_count(), ri);
                for (x, end) in row.iter_mut().enumerate() {
                    let mut probe = EmptyFootprint::default();
                    let start = path_start(spawn, timing);
                    let first = frames.len() as u32;
                    let walked = quick_walk(
                        &mut probe,
                        input,
                        rot_inputs,
                        x as i8,
                        start,
                        &mut None,
                        Some(&mut frames),
                    );
                    // At most `FRAMES` frames are traced (and the first always is).
                    let count = (frames.len() as u32 - first) as u16;
                    *end = (probe.cols, walked, (first, count));
                }
            }
        }
        QuickPaths {
            timing,
            input: input.clone(),
            ends,
            frames,
        }
    }
}

/// Presses that turn a piece from its spawn into orientation number `ri` of its
/// `orientations()`: none, one A (cw), two A (180 degrees) or one B (ccw); the order of
/// `orientations()` is checked by a test below.
fn rotation_inputs(orientation_count: usize, ri: usize) -> &'static [u8] {
    match (orientation_count, ri) {
        (_, 0) => &[],
        (2, 1) | (4, 1) => &[buttons::A],
        (4, 2) => &[buttons::A, buttons::A],
        _ => &[buttons::B],
    }
}

/// A quick path's start: the spawn, column 5, row 0, frame 0.
fn path_start(spawn: Orientation, timing: Timing) -> PathState<impl Iterator<Item = u8> + Clone> {
    PathState {
        x: 5,
        o: spawn as u8,
        y: 0,
        rots: 0,
        t: 0,
        drops: timing.drops(),
    }
}

/// The quick placements of orientation number `ri` (of the spawn's piece) into `out`, by
/// column.
fn quick_orientation(
    board: &Board,
    cols: &[u32; 10],
    spawn: Orientation,
    timing: Timing,
    input: &InputModel,
    ri: usize,
    out: &mut Vec<(u8, i8, i8)>,
) {
    let kind = spawn.kind();
    let target_o = kind.orientations()[ri];
    let rot_inputs = rotation_inputs(kind.orientation_count(), ri);
    let x0: i8 = 5;
    let start = path_start(spawn, timing);
    let path = |target_x: i8, s, next: &mut _| {
        quick_walk(&mut &*board, input, rot_inputs, target_x, s, next, None)
            .and_then(|e| quick_finish(board, cols, e))
    };
    let mut found = [None; 10];
    found[x0 as usize] = path(x0, start.clone(), &mut None);
    // The path to a column one step further out is the same as the path to this column
    // until this column is reached: it goes on from there (and fails where this one
    // fails or locks before).
    for chain in [&[6, 7, 8, 9][..], &[4, 3, 2, 1, 0]] {
        let mut from = Some(start.clone());
        for &target_x in chain {
            let Some(s) = from.take() else {
                break;
            };
            found[target_x as usize] = path(target_x, s, &mut from);
        }
    }
    for lock in found.into_iter().flatten() {
        debug_assert_eq!(lock.0, target_o as u8);
        out.push(lock);
    }
}

/// A quick path on its way, at the start of frame `t + 1`.
#[derive(Clone, Debug)]
struct PathState<D> {
    x: i8,
    o: u8,
    y: i8,
    rots: usize,
    t: usize,
    drops: D,
}

/// Where a quick path's walk ends: `(locked, o, x, y)`, in its target column and
/// orientation. `locked`: a gravity drop failed on the way, and the piece locks at row `y`;
/// otherwise it falls on from `y` ([`quick_finish`]).
type WalkEnd = (bool, u8, i8, i8);

/// One path of [`quick_placements`] from `s`, asking `probe`: rotate with `rot_inputs` on the
/// first allowed frames, tap towards `target_x` on every allowed frame. Where the walk ends
/// ([`WalkEnd`]), or `None` where it fails; `branch` is set to the state at the start of the
/// first frame where the piece stands in `target_x` (where the path to the next column out
/// parts from this one). With `trace`, each frame's state at its start and the cells the
/// probe had been asked about before it ([`Probe::tested`]) are pushed there.
fn quick_walk<D: Iterator<Item = u8> + Clone, P: Probe>(
    probe: &mut P,
    input: &InputModel,
    rot_inputs: &[u8],
    target_x: i8,
    s: PathState<D>,
    branch: &mut Option<PathState<D>>,
    mut trace: Option<&mut Vec<PathFrame>>,
) -> Option<WalkEnd> {
    // Gravity drops of frames 1..=FRAMES after the spawn, then one a frame (as a table of
    // that length would give), drawn as the path goes.
    const FRAMES: usize = 24 * 4 + 200;
    let PathState {
        mut x,
        mut o,
        mut y,
        mut rots,
        mut t,
        mut drops,
    } = s;
    if x == target_x {
        *branch = Some(PathState {
            x,
            o,
            y,
            rots,
            t,
            drops: drops.clone(),
        });
    }
    loop {
        // Frames from `FRAMES` on are not traced: a walk resumed from a traced frame draws
        // its gravity drops from that frame on ([`Timing::drops`] skipped to it), which
        // holds while they are drawn one a frame.
        if let Some(frames) = trace.as_deref_mut().filter(|_| t < FRAMES) {
            frames.push(PathFrame {
                x,
                o,
                y,
                rots: rots as u8,
                t: t as u16,
                tested: probe.tested().unwrap_or_default(),
            });
        }
        let mut inp = 0u8;
        if input.can_press(t as u32) {
            if rots < rot_inputs.len() {
                inp |= rot_inputs[rots];
            }
            if x < target_x {
                inp |= buttons::RIGHT;
            } else if x > target_x {
                inp |= buttons::LEFT;
            }
        }
        if inp != 0 {
            let (nx, no) = apply_input_on(probe, x, o, y, inp);
            if inp & (buttons::LEFT | buttons::RIGHT) != 0 && nx == x {
                return None;
            }
            if inp & (buttons::A | buttons::B) != 0 {
                if no == o {
                    return None;
                }
                rots += 1;
            }
            x = nx;
            o = no;
        }
        let drop = if t < FRAMES {
            drops.next().unwrap_or(1)
        } else {
            1
        };
        match fall_on(probe, o, x, y, drop) {
            Ok(ny) => y = ny,
            Err(ly) => {
                if x != target_x || rots != rot_inputs.len() {
                    return None;
                }
                return Some((true, o, x, ly));
            }
        }
        t += 1;
        if x == target_x && branch.is_none() {
            *branch = Some(PathState {
                x,
                o,
                y,
                rots,
                t,
                drops: drops.clone(),
            });
        }
        if x == target_x && rots == rot_inputs.len() {
            return Some((false, o, x, y));
        }
        if t > 2000 {
            return None;
        }
    }
}

/// The lock a quick path's walk ends in on `board` (whose columns are `cols`): where it
/// locked, or as far as the piece falls from where the walk left it; `None` where the piece
/// does not fit there.
#[inline]
fn quick_finish(
    board: &Board,
    cols: &[u32; 10],
    (locked, o, x, y): WalkEnd,
) -> Option<(u8, i8, i8)> {
    let y_final = if locked {
        y
    } else {
        y + drop_distance(cols, o, x, y)
    };
    board.fits(o, x, y_final).then_some((o, x, y_final))
}

/// How many rows the piece `(o, x, y)`, where it fits, can fall on the board whose columns
/// are `cols`: as many as [`Board::fits`] allows one row at a time. A tetromino's cells in
/// one column are contiguous, so the piece can fall `d` rows when, below each of its cells,
/// `d` cells of its column are empty and inside the field (a cell of the piece itself is
/// empty on the board, so the lowest cell of each column decides); a test compares this with
/// the row-at-a-time fall.
#[inline]
fn drop_distance(cols: &[u32; 10], o: u8, x: i8, y: i8) -> i8 {
    let mut d = u32::MAX;
    for &(dx, dy) in &nestris_engine::piece::MINOS[o as usize] {
        let (c, r) = ((x + dx) as usize, (y + dy) as i32);
        // Row r is bit r + 2 of the column word; the cells below start at bit r + 3.
        let empty_below = (cols[c] >> (r + 3)).trailing_zeros();
        d = d.min(empty_below.min((19 - r) as u32));
    }
    d as i8
}

/// Columns a vertical I piece can reach after spawning on `board` at `level`, tapping at
/// `input` (bit c = column c): rotated on the first press, then tapped towards one wall every
/// allowed frame; a column counts when the rotated piece stands in it on some frame before it
/// locks. The edges of a tall or high-gravity board drop out first.
pub fn i_reach(board: &Board, level: u8, input: &InputModel, double_killscreen: bool) -> u16 {
    i_reach_with_columns(board, &board.columns(), level, input, double_killscreen)
}

/// [`i_reach`] with the board's columns ([`Board::columns`]) at hand, as the evaluator has
/// them: each test of the I piece is one word, a row for the horizontal I and a column for
/// the vertical one (the same answers as [`Board::fits`]; a test compares the two).
pub fn i_reach_with_columns(
    board: &Board,
    cols: &[u32; 10],
    level: u8,
    input: &InputModel,
    double_killscreen: bool,
) -> u16 {
    let timing = Timing::spawn(level).with_double_killscreen(double_killscreen);
    let mut mask = 0u16;
    for dir in I_REACH_DIRS {
        mask |= i_reach_dir(board, cols, timing, input, dir, None, None);
    }
    mask
}

/// The directions [`i_reach`] taps towards: none, left, right.
const I_REACH_DIRS: [u8; 3] = [0, buttons::LEFT, buttons::RIGHT];

/// [`i_reach`]'s paths on one board for one gravity and tap speed, direction by direction:
/// the columns each reaches, every cell it tests (`footprint[row index]`, bit x = column x)
/// and what the board holds there. On a board that holds the same on those cells every test
/// answers the same, so the path, and the columns it reaches, are the same:
/// [`i_reach_cached`] skips it. Made on the empty board, they serve every board whose path
/// meets no block; made on a board before a piece is placed, every placement off the paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IReachPaths {
    timing: Timing,
    dirs: [IReachPath; 3],
    /// Made on the empty board only ([`IReachPaths::empty`]).
    spans: Option<IReachSpans>,
}

/// The empty board's vertical-I paths ([`i_reach`]) read column by column, so that a board's
/// reach is a few word tests instead of a walk. On the empty board every test of cells
/// passes, and a path moves one way only: each column it enters is entered by one sideways
/// test and then fallen through, and all of a column's tests come before the next column's.
/// On another board the walk is the empty board's up to its first test that fails, and
/// ends there: a sideways test that fails stops the piece where it stands (the path ends
/// that frame), a fall that fails locks it. So the columns reached are those entered before
/// the first column whose entry, or whose fall, meets a block (that one included when it is
/// the fall). The spawn frame's tests (the horizontal I's shift, the rotation) are not
/// read so: a board with a block on any of them is walked frame by frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct IReachSpans {
    /// Per column, the cells (column-word bits) the spawn frame tests in any direction.
    spawn: [u32; 10],
    /// Per direction ([`I_REACH_DIRS`]): the columns the vertical I stands in, in order
    /// (the first `len[d]`), each with the cells of the test that enters it (none for the
    /// column it rotates in: a spawn test) and of every fall made in it.
    cols: [[(u8, u32, u32); 10]; 3],
    len: [u8; 3],
}

impl IReachSpans {
    /// The spans of the empty board's walks, from their tests in order.
    fn new(timing: Timing, input: &InputModel) -> IReachSpans {
        let ih = Orientation::Ih as u8;
        let mut spans = IReachSpans {
            spawn: [0; 10],
            cols: [[(0, 0, 0); 10]; 3],
            len: [0; 3],
        };
        let mut log = Vec::new();
        for (d, dir) in I_REACH_DIRS.into_iter().enumerate() {
            log.clear();
            i_reach_dir(
                &Board::new(),
                &[0; 10],
                timing,
                input,
                dir,
                None,
                Some(&mut log),
            );
            let mut standing: Option<i8> = None;
            for &(o, x, y) in &log {
                if o == ih {
                    for c in x - 2..=x + 1 {
                        spans.spawn[c as usize] |= 1 << (y + 2);
                    }
                    continue;
                }
                let cells = 0xFu32 << y;
                let n = spans.len[d] as usize;
                match standing {
                    // The rotation: a spawn test, and the first column stood in.
                    None => {
                        spans.spawn[x as usize] |= cells;
                        spans.cols[d][0] = (x as u8, 0, 0);
                        spans.len[d] = 1;
                    }
                    Some(sx) if sx == x => spans.cols[d][n - 1].2 |= cells,
                    Some(_) => {
                        spans.cols[d][n] = (x as u8, cells, 0);
                        spans.len[d] += 1;
                    }
                }
                standing = Some(x);
            }
        }
        spans
    }

    /// The columns reached on a board whose columns are `cols`; `None` if a block stands on
    /// a cell the spawn frame tests.
    #[inline]
    fn reach(&self, cols: &[u32; 10]) -> Option<u16> {
        if cols.iter().zip(&self.spawn).any(|(c, s)| c & s != 0) {
            return None;
        }
        let mut mask = 0u16;
        for (path, &len) in self.cols.iter().zip(&self.len) {
            for &(x, enter, fall) in &path[..len as usize] {
                let c = cols[x as usize];
                if c & enter != 0 {
                    break;
                }
                mask |= 1 << x;
                if c & fall != 0 {
                    break;
                }
            }
        }
        Some(mask)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct IReachPath {
    mask: u16,
    footprint: [u16; crate::board::ROWS],
    cells: [u16; crate::board::ROWS],
}

impl IReachPath {
    /// The path tapping towards `dir` on `board` (whose columns are `cols`).
    fn new(board: &Board, cols: &[u32; 10], timing: Timing, input: &InputModel, dir: u8) -> Self {
        let mut footprint = [0u16; crate::board::ROWS];
        let mask = i_reach_dir(board, cols, timing, input, dir, Some(&mut footprint), None);
        let mut cells = footprint;
        for (c, r) in cells.iter_mut().zip(&board.rows) {
            *c &= r;
        }
        IReachPath {
            mask,
            footprint,
            cells,
        }
    }

    /// Whether `board` holds what the path's board held on every cell the path tests.
    #[inline]
    fn holds(&self, board: &Board) -> bool {
        let mut diff = 0u16;
        for i in 0..crate::board::ROWS {
            diff |= (board.rows[i] & self.footprint[i]) ^ self.cells[i];
        }
        diff == 0
    }
}

impl IReachPaths {
    /// The paths on `board` (whose columns are `cols`) at `level` (with the double killscreen
    /// on or off), tapping at `input`.
    pub fn new(
        board: &Board,
        cols: &[u32; 10],
        level: u8,
        input: &InputModel,
        double_killscreen: bool,
    ) -> IReachPaths {
        let timing = Timing::spawn(level).with_double_killscreen(double_killscreen);
        let dirs = I_REACH_DIRS.map(|dir| IReachPath::new(board, cols, timing, input, dir));
        IReachPaths {
            timing,
            dirs,
            spans: None,
        }
    }

    /// The paths on the empty board, and the same read column by column ([`IReachSpans`]):
    /// [`i_reach_cached`] answers from those where it can.
    pub fn empty(level: u8, input: &InputModel, double_killscreen: bool) -> IReachPaths {
        let mut paths = IReachPaths::new(&Board::new(), &[0; 10], level, input, double_killscreen);
        paths.spans = Some(IReachSpans::new(paths.timing, input));
        paths
    }

    /// Whether these paths fall as a piece spawned at `level` falls (with the double
    /// killscreen on or off): the same drops on every frame.
    pub fn same_gravity(&self, level: u8, double_killscreen: bool) -> bool {
        let other = Timing::spawn(level).with_double_killscreen(double_killscreen);
        frames_per_drop(self.timing.level) == frames_per_drop(other.level)
            && self.timing.rows_per_drop() == other.rows_per_drop()
    }
}

/// The board before the placements being evaluated, for [`i_reach_cached`]: the vertical
/// I's path on it in each direction, made when first needed. A placement off a path leaves
/// that path as it was.
#[derive(Clone, Debug)]
pub struct BoardBefore<'a> {
    board: &'a Board,
    cols: &'a [u32; 10],
    /// The gravity of the paths (set with the first one made).
    timing: Option<Timing>,
    paths: [Option<IReachPath>; 3],
}

impl<'a> BoardBefore<'a> {
    /// The board before, and its columns ([`Board::columns`]).
    pub fn new(board: &'a Board, cols: &'a [u32; 10]) -> BoardBefore<'a> {
        BoardBefore {
            board,
            cols,
            timing: None,
            paths: [None; 3],
        }
    }
}

/// [`i_reach_with_columns`] with the empty board's paths of the same gravity and tap speed at
/// hand ([`IReachPaths::empty`], checked with [`IReachPaths::same_gravity`] in debug builds),
/// and maybe the board before: a direction whose path tests only cells that `board` holds as
/// the paths' board did reaches the same columns; the others are simulated.
pub fn i_reach_cached(
    board: &Board,
    cols: &[u32; 10],
    empty: &IReachPaths,
    mut before: Option<&mut BoardBefore>,
    level: u8,
    input: &InputModel,
    double_killscreen: bool,
) -> u16 {
    debug_assert!(empty.same_gravity(level, double_killscreen));
    if let Some(mask) = empty.spans.as_ref().and_then(|s| s.reach(cols)) {
        return mask;
    }
    let timing = Timing::spawn(level).with_double_killscreen(double_killscreen);
    let mut mask = 0u16;
    for (d, dir) in I_REACH_DIRS.into_iter().enumerate() {
        if empty.dirs[d].holds(board) {
            mask |= empty.dirs[d].mask;
            continue;
        }
        if let Some(b) = before.as_deref_mut() {
            // The first path made sets the gravity; paths at another are not used. (The same
            // gravity is the same `Timing` here: both are a spawn's, at one level.)
            if *b.timing.get_or_insert(timing) == timing {
                let (bb, bc) = (b.board, b.cols);
                let p = b.paths[d].get_or_insert_with(|| {
                    // Where the board before holds the empty board's path, that is its path
                    // (and `board` does not hold it): nothing to simulate.
                    if empty.dirs[d].holds(bb) {
                        empty.dirs[d]
                    } else {
                        IReachPath::new(bb, bc, timing, input, dir)
                    }
                });
                if p.holds(board) {
                    mask |= p.mask;
                    continue;
                }
            }
        }
        mask |= i_reach_dir(board, cols, timing, input, dir, None, None);
    }
    mask
}

/// The columns the vertical I reaches tapping towards `dir` (0: no tap): see [`i_reach`].
/// With `footprint`, every cell tested is marked there.
#[inline]
fn i_reach_dir(
    board: &Board,
    cols: &[u32; 10],
    timing: Timing,
    input: &InputModel,
    dir: u8,
    mut footprint: Option<&mut [u16; crate::board::ROWS]>,
    mut log: Option<&mut Vec<(u8, i8, i8)>>,
) -> u16 {
    let (iv, ih) = (Orientation::Iv as u8, Orientation::Ih as u8);
    // Iv covers rows y-2..=y+1 of column x (bits y..=y+3 of its column word); Ih covers
    // columns x-2..=x+1 of row y. With `log`, every test of cells (inside the walls and
    // above the floor) is written there in order.
    let mut fits = |o: u8, x: i8, y: i8| -> bool {
        if o == iv {
            if !((0..10).contains(&x) && (0..=18).contains(&y)) {
                return false;
            }
            if let Some(l) = log.as_deref_mut() {
                l.push((o, x, y));
            }
            if let Some(f) = footprint.as_deref_mut() {
                for r in &mut f[y as usize..y as usize + 4] {
                    *r |= 1 << x;
                }
            }
            (cols[x as usize] >> y) & 0xF == 0
        } else {
            if !((2..=8).contains(&x) && (-2..20).contains(&y)) {
                return false;
            }
            if let Some(l) = log.as_deref_mut() {
                l.push((o, x, y));
            }
            if let Some(f) = footprint.as_deref_mut() {
                f[(y + 2) as usize] |= 0xF << (x - 2);
            }
            board.rows[(y + 2) as usize] & (0xF << (x - 2)) == 0
        }
    };
    let mut mask = 0u16;
    let (mut x, mut o, mut y) = (5i8, ih, 0i8);
    let mut drops = timing.drops();
    let mut t = 0u32;
    'frames: loop {
        let mut blocked = false;
        if input.can_press(t) {
            // As apply_input: the shift, then the rotation (A, pressed while horizontal).
            let mut nx = x;
            if dir == buttons::RIGHT {
                if fits(o, x + 1, y) {
                    nx = x + 1;
                }
            } else if dir == buttons::LEFT && x > 0 && fits(o, x - 1, y) {
                nx = x - 1;
            }
            let mut no = o;
            if o == ih && fits(iv, nx, y) {
                no = iv;
            }
            blocked = nx == x && o != ih;
            x = nx;
            o = no;
        }
        let vertical = o == iv;
        if vertical {
            mask |= 1 << x;
        }
        for _ in 0..drops.next().unwrap_or(1) {
            if !fits(o, x, y + 1) {
                break 'frames;
            }
            y += 1;
        }
        if (blocked && vertical) || t > 400 {
            break;
        }
        t += 1;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first implementation, frame by frame with the general collision test: the
    /// reference for the word-at-a-time one.
    fn i_reach_reference(
        board: &Board,
        level: u8,
        input: &InputModel,
        double_killscreen: bool,
    ) -> u16 {
        let timing = Timing::spawn(level).with_double_killscreen(double_killscreen);
        let mut mask = 0u16;
        for dir in [0, buttons::LEFT, buttons::RIGHT] {
            let (mut x, mut o, mut y) = (5i8, Orientation::Ih as u8, 0i8);
            let mut drops = timing.drops();
            let mut t = 0u32;
            loop {
                let mut blocked = false;
                if input.can_press(t) {
                    let inp = dir
                        | if o == Orientation::Ih as u8 {
                            buttons::A
                        } else {
                            0
                        };
                    let (nx, no) = apply_input(board, x, o, y, inp);
                    blocked = nx == x && o != Orientation::Ih as u8;
                    x = nx;
                    o = no;
                }
                let vertical = o == Orientation::Iv as u8;
                if vertical {
                    mask |= 1 << x;
                }
                match fall(board, o, x, y, drops.next().unwrap_or(1)) {
                    Ok(ny) => y = ny,
                    Err(_) => break,
                }
                if (blocked && vertical) || t > 400 {
                    break;
                }
                t += 1;
            }
        }
        mask
    }

    #[test]
    fn i_reach_matches_the_frame_by_frame_reference() {
        let mut seed = 0x0123_4567_89ab_cdefu64;
        let inputs =
            ["X.", "X..", "X...", "X.....", "X.X.."].map(|m| m.parse::<InputModel>().unwrap());
        let mut last = Board::new();
        let (mut read, mut walked) = (0u32, 0u32);
        for n in 0..3000u32 {
            let mut b = Board::new();
            // Random stacks: column heights, some holes, sometimes hidden-row cells.
            for x in 0..10 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let h = (seed >> 33) as usize % (4 + (n as usize % 19));
                for r in (crate::board::ROWS - h.min(crate::board::ROWS))..crate::board::ROWS {
                    if (seed >> (r % 30)) & 7 != 0 {
                        b.rows[r] |= 1 << x;
                    }
                }
            }
            // A board before: the top cell of a column or two taken away (a piece not yet
            // placed), or an unrelated board.
            let mut prev = b;
            for x in [n % 10, (n / 10) % 10] {
                if let Some(r) = prev.rows.iter().position(|r| r >> x & 1 != 0) {
                    prev.rows[r] &= !(1 << x);
                }
            }
            if n % 5 == 0 {
                prev = last;
            }
            last = b;
            for level in [0, 18, 19, 28, 29, 38, 39, 40] {
                for input in &inputs {
                    for dks in [false, true] {
                        let reference = i_reach_reference(&b, level, input, dks);
                        assert_eq!(
                            i_reach(&b, level, input, dks),
                            reference,
                            "board {n} level {level} dks {dks}"
                        );
                        // With the empty board's paths at hand, or those of the board
                        // before: the same columns.
                        let empty = IReachPaths::empty(level, input, dks);
                        // Most boards' reach is read off the spans; those with a block on
                        // a spawn test are walked.
                        match empty.spans.unwrap().reach(&b.columns()) {
                            Some(_) => read += 1,
                            None => walked += 1,
                        }
                        let prev_cols = prev.columns();
                        for mut before in [None, Some(BoardBefore::new(&prev, &prev_cols))] {
                            let cached = i_reach_cached(
                                &b,
                                &b.columns(),
                                &empty,
                                before.as_mut(),
                                level,
                                input,
                                dks,
                            );
                            assert_eq!(
                                cached, reference,
                                "cached: board {n} level {level} dks {dks}"
                            );
                        }
                        // The paths on the board before alone.
                        let before = IReachPaths::new(&prev, &prev_cols, level, input, dks);
                        assert_eq!(
                            i_reach_cached(&b, &b.columns(), &before, None, level, input, dks),
                            reference,
                            "before: board {n} level {level} dks {dks}"
                        );
                    }
                }
            }
        }
        assert!(
            read > walked && walked > 1000,
            "{read} read, {walked} walked"
        );
    }

    /// The first implementation of [`quick_placements`]: every path from the spawn, the
    /// drops from a table, the last fall a row at a time.
    fn quick_placements_reference(
        board: &Board,
        spawn: Orientation,
        timing: Timing,
        input: &InputModel,
    ) -> Vec<(u8, i8, i8)> {
        let mut out = Vec::new();
        let speed_frames = timing.drop_frames(24 * 4 + 200);
        let kind = spawn.kind();
        for (ri, _) in kind.orientations().iter().enumerate() {
            let rot_inputs: &[u8] = match (kind.orientation_count(), ri) {
                (_, 0) => &[],
                (2, 1) | (4, 1) => &[buttons::A],
                (4, 2) => &[buttons::A, buttons::A],
                _ => &[buttons::B],
            };
            for target_x in 0..10i8 {
                let (mut x, mut o, mut y) = (5i8, spawn as u8, 0i8);
                let (mut rots, mut t, mut ok, mut locked) = (0usize, 0usize, true, None);
                loop {
                    let mut inp = 0u8;
                    if input.can_press(t as u32) {
                        if rots < rot_inputs.len() {
                            inp |= rot_inputs[rots];
                        }
                        if x < target_x {
                            inp |= buttons::RIGHT;
                        } else if x > target_x {
                            inp |= buttons::LEFT;
                        }
                    }
                    if inp != 0 {
                        let (nx, no) = apply_input(board, x, o, y, inp);
                        if inp & (buttons::LEFT | buttons::RIGHT) != 0 && nx == x {
                            ok = false;
                            break;
                        }
                        if inp & (buttons::A | buttons::B) != 0 {
                            if no == o {
                                ok = false;
                                break;
                            }
                            rots += 1;
                        }
                        x = nx;
                        o = no;
                    }
                    match fall(board, o, x, y, speed_frames.get(t).copied().unwrap_or(1)) {
                        Ok(ny) => y = ny,
                        Err(ly) => {
                            y = ly;
                            locked = Some(ly);
                            break;
                        }
                    }
                    t += 1;
                    if x == target_x && rots == rot_inputs.len() {
                        break;
                    }
                    if t > 2000 {
                        ok = false;
                        break;
                    }
                }
                if !ok {
                    continue;
                }
                let y_final = match locked {
                    Some(ly) => {
                        if x != target_x || rots != rot_inputs.len() {
                            continue;
                        }
                        ly
                    }
                    None => {
                        let mut yy = y;
                        while board.fits(o, x, yy + 1) {
                            yy += 1;
                        }
                        yy
                    }
                };
                if board.fits(o, x, y_final) {
                    out.push((o, x, y_final));
                }
            }
        }
        out
    }

    /// The quick placements (paths shared between columns, drops drawn as they go, the last
    /// fall read off the columns), and the same with the paths walked on the empty board at
    /// hand ([`quick_placements_cached`]), are the first implementation's, in the same order,
    /// on random boards, for every piece, gravity and tap speed.
    #[test]
    fn quick_placements_match_the_reference() {
        let mut seed = 0x3c6e_f372_fe94_f82bu64;
        let inputs = ["X.", "X..", "X.....", "X.X.."].map(|m| m.parse::<InputModel>().unwrap());
        let levels = [0, 18, 19, 28, 29, 39];
        let paths: Vec<QuickPaths> = levels
            .iter()
            .flat_map(|&level| {
                inputs.iter().flat_map(move |input| {
                    [false, true].map(|dks| {
                        QuickPaths::new(Timing::spawn(level).with_double_killscreen(dks), input)
                    })
                })
            })
            .collect();
        let mut out = Vec::new();
        let mut cached = Vec::new();
        let (mut total, mut walked_empty, mut resumed) = (0, 0, 0);
        for n in 0..600u32 {
            let mut b = Board::new();
            for x in 0..10 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let h = (seed >> 33) as usize % (2 + (n as usize % 21));
                for r in (crate::board::ROWS - h.min(crate::board::ROWS))..crate::board::ROWS {
                    if (seed >> (r % 30)) & 7 != 0 {
                        b.rows[r] |= 1 << x;
                    }
                }
            }
            b.clear_lines();
            let cols = b.columns();
            let mut p = paths.iter();
            for level in levels {
                for input in &inputs {
                    for dks in [false, true] {
                        let timing = Timing::spawn(level).with_double_killscreen(dks);
                        let paths = p.next().unwrap();
                        for k in nestris_engine::PieceKind::ALL {
                            quick_placements(&b, k.spawn(), timing, input, &mut out);
                            let reference =
                                quick_placements_reference(&b, k.spawn(), timing, input);
                            assert_eq!(out, reference, "board {n} level {level} {k:?}\n{b:?}");
                            quick_placements_cached(
                                &b,
                                &cols,
                                k.spawn(),
                                timing,
                                input,
                                paths,
                                &mut cached,
                            );
                            assert_eq!(cached, reference, "cached: board {n} level {level} {k:?}");
                            total += out.len();
                            // Paths the board leaves as on the empty board, and those it
                            // leaves so for a frame or more (resumed after their first).
                            let meets =
                                |t: &[u32; 10]| t.iter().zip(&cols).any(|(f, c)| f & c != 0);
                            for &(fp, _, (first, n)) in paths.ends[k as usize]
                                .iter()
                                .take(k.orientations().len())
                                .flatten()
                            {
                                if !meets(&fp) {
                                    walked_empty += 1;
                                } else if n > 1 && !meets(&paths.frames[first as usize + 1].tested)
                                {
                                    resumed += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(total > 100_000, "{total}");
        // Paths of another gravity, tap speed or start are not used: each board's placements
        // with level 18's paths at 30 Hz are the reference's at other timings.
        let at18 = &paths[levels.iter().position(|&l| l == 18).unwrap() * inputs.len() * 2];
        assert!(at18.serves(Timing::spawn(18), &inputs[0]));
        assert!(at18.serves(Timing::spawn(18), &"X.".parse().unwrap()));
        let late = Timing {
            fall_timer: 1,
            ..Timing::spawn(18)
        };
        // (Level 18 falls as it does with the double killscreen on: its paths serve.)
        assert!(at18.serves(Timing::spawn(18).with_double_killscreen(true), &inputs[0]));
        let b = Board::parse("X.........\nXX.......X\nXXX..XXXXX").unwrap();
        for (timing, input) in [
            (Timing::spawn(19), &inputs[0]),
            (Timing::spawn(29), &inputs[0]),
            (Timing::spawn(18), &inputs[1]),
            (late, &inputs[0]),
        ] {
            assert!(!at18.serves(timing, input), "{timing:?} {input:?}");
            for k in nestris_engine::PieceKind::ALL {
                let cols = b.columns();
                quick_placements_cached(&b, &cols, k.spawn(), timing, input, at18, &mut cached);
                let reference = quick_placements_reference(&b, k.spawn(), timing, input);
                assert_eq!(cached, reference, "{timing:?} {input:?} {k:?}");
            }
        }
        // Every way is tested: some of the paths are read off the empty board's, the others
        // walked on the board, most of those from a later frame than the spawn's.
        let paths = 600 * levels.len() * inputs.len() * 2 * 19 * 10;
        assert!(
            walked_empty > paths / 5 && walked_empty < paths * 19 / 20,
            "{walked_empty} of {paths}"
        );
        let walked = paths - walked_empty;
        assert!(
            resumed > walked / 2 && resumed < walked,
            "{resumed} of {walked}"
        );
    }

    /// The fall read off the columns is the row-at-a-time one, for every orientation and
    /// position that fits on random boards.
    #[test]
    fn drop_distance_matches_falling_row_by_row() {
        let mut seed = 0x0bad_5eed_1234_5678u64;
        for n in 0..400u32 {
            let mut b = Board::new();
            for r in 0..crate::board::ROWS {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if r >= n as usize % 22 {
                    b.rows[r] = (seed >> 40) as u16 & (seed >> 20) as u16 & crate::board::FULL;
                }
            }
            let cols = b.columns();
            for o in 0..19u8 {
                for x in 0..10i8 {
                    for y in -2..20i8 {
                        if !b.fits(o, x, y) {
                            continue;
                        }
                        let mut yy = y;
                        while b.fits(o, x, yy + 1) {
                            yy += 1;
                        }
                        assert_eq!(y + drop_distance(&cols, o, x, y), yy, "o {o} x {x} y {y}");
                    }
                }
            }
        }
    }

    #[test]
    fn i_reach_on_empty_and_tall_boards() {
        let fast = InputModel::hz(30).unwrap();
        assert_eq!(i_reach(&Board::new(), 18, &fast, false), 0x3FF);
        // At level 29 with 10 Hz taps the vertical I cannot get to the far left.
        let slow = InputModel::hz(10).unwrap();
        assert_eq!(i_reach(&Board::new(), 29, &slow, false) & 1, 0);
        // A tall column 1 walls column 0 off.
        let mut b = Board::new();
        for r in 4..22 {
            b.rows[r] |= 1 << 1;
        }
        assert_eq!(i_reach(&b, 18, &fast, false) & 0b11, 0);
    }

    #[test]
    fn orientation_lists_rotate_as_assumed() {
        // quick_placements assumes orientations()[1] = cw(spawn), [2] = cw(cw(spawn)),
        // [3] = ccw(spawn).
        for k in nestris_engine::PieceKind::ALL {
            let os = k.orientations();
            if os.len() >= 2 {
                assert_eq!(os[1], os[0].cw(), "{k:?}");
            }
            if os.len() == 4 {
                assert_eq!(os[2], os[0].cw().cw());
                assert_eq!(os[3], os[0].ccw());
            }
        }
    }
}
