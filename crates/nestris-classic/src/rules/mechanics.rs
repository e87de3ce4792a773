//! Shared game mechanics, generic over a rule set's shapes and moves.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::collections::VecDeque;
use std::marker::PhantomData;

use super::{ActivePiece, GameError, LockResult, Move, Placement};
use crate::board::{Board, Cell};
use crate::piece::Piece;
use crate::randomizer::{AnyRandomizer, Randomizer};

/// What distinguishes one rule set's mechanics.
pub(crate) trait Rules {
    const WIDTH: usize;
    const HEIGHT: usize;
    const MOVES: &'static [Move];
    /// Number of rotation states of `piece`.
    fn rotations(piece: Piece) -> u8;
    /// Cell offsets of `piece` in `rotation` relative to the reference
    /// point; `rotation < rotations(piece)`.
    fn offsets(piece: Piece, rotation: u8) -> [Cell; 4];
    /// Where a new piece appears.
    fn spawn(piece: Piece) -> ActivePiece;
}

/// The result of trying one move from a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// The piece moved (or rotated) to a new position.
    Moved(ActivePiece),
    /// Nothing happens.
    Blocked,
    /// The piece locks at this position.
    Lock(ActivePiece),
}

pub(crate) fn cells_of<R: Rules>(p: ActivePiece) -> [Cell; 4] {
    R::offsets(p.piece, p.rotation).map(|(dx, dy)| (p.x + dx, p.y + dy))
}

/// Tries `mv` from `p` on `board`.
pub(crate) fn step<R: Rules>(board: &Board, p: ActivePiece, mv: Move) -> Step {
    if !R::MOVES.contains(&mv) {
        return Step::Blocked;
    }
    let fits = |q: ActivePiece| board.fits(&cells_of::<R>(q));
    let shifted = |dx: i32, dy: i32| ActivePiece {
        x: p.x + dx,
        y: p.y + dy,
        ..p
    };
    let rotated = |delta: u8| {
        let n = R::rotations(p.piece);
        ActivePiece {
            rotation: (p.rotation + delta) % n,
            ..p
        }
    };
    let try_to = |q: ActivePiece| {
        if fits(q) {
            Step::Moved(q)
        } else {
            Step::Blocked
        }
    };
    match mv {
        Move::Left => try_to(shifted(-1, 0)),
        Move::Right => try_to(shifted(1, 0)),
        Move::RotateCw => {
            if R::rotations(p.piece) <= 1 {
                Step::Blocked
            } else {
                try_to(rotated(1))
            }
        }
        Move::RotateCcw => {
            let n = R::rotations(p.piece);
            if n <= 1 {
                Step::Blocked
            } else {
                try_to(rotated(n - 1))
            }
        }
        Move::Down => match try_to(shifted(0, 1)) {
            Step::Blocked => Step::Lock(p),
            moved => moved,
        },
        Move::HardDrop => {
            let mut q = p;
            loop {
                let below = ActivePiece { y: q.y + 1, ..q };
                if !fits(below) {
                    return Step::Lock(q);
                }
                q = below;
            }
        }
    }
}

/// Board, pieces and counters of a game under rules `R`.
pub(crate) struct Core<R> {
    pub board: Board,
    pub current: Option<ActivePiece>,
    pub next: Piece,
    pub randomizer: AnyRandomizer,
    pub lines: u32,
    pub pieces: u32,
    rules: PhantomData<R>,
}

impl<R> Clone for Core<R> {
    fn clone(&self) -> Self {
        Core {
            board: self.board.clone(),
            current: self.current,
            next: self.next,
            randomizer: self.randomizer.clone(),
            lines: self.lines,
            pieces: self.pieces,
            rules: PhantomData,
        }
    }
}

impl<R> std::fmt::Debug for Core<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Core")
            .field("board", &self.board)
            .field("current", &self.current)
            .field("next", &self.next)
            .field("lines", &self.lines)
            .field("pieces", &self.pieces)
            .finish_non_exhaustive()
    }
}

impl<R: Rules> Core<R> {
    /// Checks that `board` has the rule set's size.
    pub fn check_size(board: &Board) -> Result<(), GameError> {
        if board.width() != R::WIDTH || board.height() != R::HEIGHT {
            return Err(GameError::BoardSize {
                width: R::WIDTH,
                height: R::HEIGHT,
                got_width: board.width(),
                got_height: board.height(),
            });
        }
        Ok(())
    }

    /// An empty board of the rule set's size.
    pub fn empty_board() -> Board {
        Board::empty_unchecked(R::WIDTH as u8, R::HEIGHT)
    }

    /// The board with the falling piece drawn in, as text (`filled`/`empty` cells, one line
    /// per row ending in `\n`).
    pub fn picture(&self, filled: char, empty: char) -> String {
        let mut board = self.board.clone();
        if let Some(cells) = self.current_cells() {
            for (x, y) in cells {
                board.set(x, y, true);
            }
        }
        board.picture(filled, empty)
    }

    /// A game on `board`, which must have been checked by `check_size`.
    pub fn new(board: Board, mut randomizer: AnyRandomizer) -> Self {
        let first = randomizer.next_piece();
        let next = randomizer.next_piece();
        let mut core = Core {
            board,
            current: None,
            next,
            randomizer,
            lines: 0,
            pieces: 0,
            rules: PhantomData,
        };
        core.spawn(first);
        core
    }

    fn spawn(&mut self, piece: Piece) {
        let p = R::spawn(piece);
        self.current = self.board.fits(&cells_of::<R>(p)).then_some(p);
    }

    pub fn current_cells(&self) -> Option<[Cell; 4]> {
        self.current.map(cells_of::<R>)
    }

    pub fn piece_cells(piece: Piece, rotation: u8, x: i32, y: i32) -> Option<[Cell; 4]> {
        (rotation < R::rotations(piece)).then(|| {
            cells_of::<R>(ActivePiece {
                piece,
                rotation,
                x,
                y,
            })
        })
    }

    /// Locks `p`, clears rows and brings in the next piece.
    fn lock(&mut self, p: ActivePiece) -> LockResult {
        let lines = self.board.lock(&cells_of::<R>(p));
        self.lines += lines;
        self.pieces += 1;
        let piece = self.next;
        self.next = self.randomizer.next_piece();
        self.spawn(piece);
        LockResult {
            lines,
            game_over: self.current.is_none(),
        }
    }

    /// Applies a move; `Some(lock)` when it locked the piece.
    pub fn apply_move(&mut self, mv: Move) -> (bool, Option<LockResult>) {
        let Some(p) = self.current else {
            return (false, None);
        };
        match step::<R>(&self.board, p, mv) {
            Step::Moved(q) => {
                self.current = Some(q);
                (true, None)
            }
            Step::Blocked => (false, None),
            Step::Lock(q) => (true, Some(self.lock(q))),
        }
    }

    pub fn drop_and_lock(&mut self) -> Result<LockResult, GameError> {
        let mut p = self.current.ok_or(GameError::GameOver)?;
        loop {
            match step::<R>(&self.board, p, Move::Down) {
                Step::Moved(q) => p = q,
                _ => return Ok(self.lock(p)),
            }
        }
    }

    pub fn placements(&self) -> Vec<Placement> {
        let Some(start) = self.current else {
            return Vec::new();
        };
        // Breadth-first search over positions. `nodes[i]` is a position
        // with the index of its parent and the move from it.
        let mut nodes: Vec<(ActivePiece, usize, Move)> = vec![(start, usize::MAX, Move::Down)];
        let mut seen: HashMap<(u8, i32, i32), usize> = HashMap::new();
        seen.insert((start.rotation, start.x, start.y), 0);
        let mut queue = VecDeque::from([0usize]);
        let mut found: HashMap<[Cell; 4], usize> = HashMap::new();
        let mut placements = Vec::new();
        while let Some(i) = queue.pop_front() {
            let p = nodes[i].0;
            for &mv in R::MOVES {
                match step::<R>(&self.board, p, mv) {
                    Step::Blocked => {}
                    Step::Moved(q) => {
                        let key = (q.rotation, q.x, q.y);
                        if let Entry::Vacant(slot) = seen.entry(key) {
                            slot.insert(nodes.len());
                            queue.push_back(nodes.len());
                            nodes.push((q, i, mv));
                        }
                    }
                    Step::Lock(q) => {
                        let mut cells = cells_of::<R>(q);
                        cells.sort_by_key(|&(x, y)| (y, x));
                        if found.contains_key(&cells) {
                            continue;
                        }
                        // Nodes leave the queue in order of distance, so the
                        // first lock found for a cell set is a shortest one.
                        found.insert(cells, placements.len());
                        let mut moves = vec![mv];
                        let mut j = i;
                        while j != 0 {
                            moves.push(nodes[j].2);
                            j = nodes[j].1;
                        }
                        moves.reverse();
                        placements.push(Placement {
                            piece: q.piece,
                            rotation: q.rotation,
                            x: q.x,
                            y: q.y,
                            cells,
                            moves,
                        });
                    }
                }
            }
        }
        placements
    }

    pub fn apply_placement(&mut self, placement: &Placement) -> Result<LockResult, GameError> {
        let mut p = self.current.ok_or(GameError::GameOver)?;
        if p.piece != placement.piece {
            return Err(GameError::PlacementMismatch);
        }
        let (last, path) = placement
            .moves
            .split_last()
            .ok_or(GameError::PlacementMismatch)?;
        for &mv in path {
            match step::<R>(&self.board, p, mv) {
                Step::Moved(q) => p = q,
                _ => return Err(GameError::PlacementMismatch),
            }
        }
        match step::<R>(&self.board, p, *last) {
            Step::Lock(q) => {
                let mut cells = cells_of::<R>(q);
                cells.sort_by_key(|&(x, y)| (y, x));
                if cells != placement.cells {
                    return Err(GameError::PlacementMismatch);
                }
                Ok(self.lock(q))
            }
            _ => Err(GameError::PlacementMismatch),
        }
    }
}

/// Implements [`super::ClassicGame`] for a type with a `core: Core<R>`
/// field.
macro_rules! delegate_classic_game {
    ($ty:ty, $rules:ty, $name:expr) => {
        impl $crate::rules::ClassicGame for $ty {
            fn name(&self) -> &'static str {
                $name
            }
            fn board(&self) -> &$crate::board::Board {
                &self.core.board
            }
            fn allowed_moves(&self) -> &'static [$crate::rules::Move] {
                <$rules as $crate::rules::mechanics::Rules>::MOVES
            }
            fn current(&self) -> Option<$crate::rules::ActivePiece> {
                self.core.current
            }
            fn current_cells(&self) -> Option<[$crate::board::Cell; 4]> {
                self.core.current_cells()
            }
            fn piece_cells(
                &self,
                piece: $crate::piece::Piece,
                rotation: u8,
                x: i32,
                y: i32,
            ) -> Option<[$crate::board::Cell; 4]> {
                $crate::rules::mechanics::Core::<$rules>::piece_cells(piece, rotation, x, y)
            }
            fn next_piece(&self) -> $crate::piece::Piece {
                self.core.next
            }
            fn apply_move(&mut self, mv: $crate::rules::Move) -> bool {
                self.core.apply_move(mv).0
            }
            fn drop_and_lock(
                &mut self,
            ) -> Result<$crate::rules::LockResult, $crate::rules::GameError> {
                self.core.drop_and_lock()
            }
            fn lines_cleared(&self) -> u32 {
                self.core.lines
            }
            fn score(&self) -> u64 {
                u64::from(self.core.lines)
            }
            fn pieces_locked(&self) -> u32 {
                self.core.pieces
            }
            fn placements(&self) -> Vec<$crate::rules::Placement> {
                self.core.placements()
            }
            fn apply_placement(
                &mut self,
                placement: &$crate::rules::Placement,
            ) -> Result<$crate::rules::LockResult, $crate::rules::GameError> {
                self.core.apply_placement(placement)
            }
        }
    };
}
pub(crate) use delegate_classic_game;
