//! The NES engine with another piece randomizer: a DEPARTURE from the original game.
//!
//! The engine stays untouched and bit-exact; this driver-level wrapper edits its public
//! fields between frames. After the initialisation frame (which picks the first piece and the
//! next one) it replaces `piece` (by the new piece's spawn orientation) and `next`, and fixes
//! the piece statistics; after every later pick (the spawn of a piece, which picks a new next
//! piece) it replaces `next`. A pick is seen as `spawn_count` changing: the game's picker
//! always increments it, and only the initialisation and the spawns pick.
//!
//! The game's generator runs on as in the original (its picks are made, then overwritten), so
//! B-type garbage and everything else timed by it is unchanged. Recordings of such games do
//! not replay on the plain engine; every command that uses this wrapper labels the game with
//! the randomizer's label ("randomizer: bag7 (departure from the
//! original)").

use nestris_classic::{AnyRandomizer, Piece, Randomizer};
use nestris_engine::{Game, PieceKind};

/// Replaces the engine's picker by a randomizer (see the module docs).
#[derive(Debug, Clone)]
pub struct Departure {
    randomizer: AnyRandomizer,
    last_spawn_count: u8,
    initialised: bool,
}

/// The engine's piece kind for a classic piece (both use the NES order T J Z O S L I).
pub fn kind(p: Piece) -> PieceKind {
    PieceKind::from_index(p.index())
}

impl Departure {
    /// Wraps `game`, which must not have been stepped yet (its first step initialises it).
    pub fn new(randomizer: AnyRandomizer, game: &Game) -> Departure {
        Departure {
            randomizer,
            last_spawn_count: game.spawn_count,
            initialised: false,
        }
    }

    /// Goes on with `game` (a game resumed at a spawn, its piece and next piece already
    /// dealt, see [`crate::position::Position::game`]) from `randomizer`, which has dealt
    /// the pieces before them and those two: the next pick deals the piece after the next.
    pub fn resumed(randomizer: AnyRandomizer, game: &Game) -> Departure {
        Departure {
            randomizer,
            last_spawn_count: game.spawn_count,
            initialised: true,
        }
    }

    /// How many pieces a departure has dealt by the spawn of a game's `spawn`-th piece
    /// (counted from 1): the first piece and the next one at the initialisation, then one
    /// at each later spawn.
    pub fn dealt_by_spawn(spawn: u64) -> u64 {
        spawn + 1
    }

    fn deal(&mut self) -> u8 {
        kind(self.randomizer.next_piece()).spawn() as u8
    }

    /// Call after every `game.step` (or `step_lagged`): overwrites what the game's picker
    /// chose since the last call.
    pub fn after_step(&mut self, game: &mut Game) {
        if game.spawn_count == self.last_spawn_count {
            return;
        }
        if !self.initialised {
            self.initialised = true;
            // The initialisation picked the first piece (counted in the statistics) and the
            // next one.
            game.piece = self.deal();
            game.stats = [0; 7];
            if let Some(o) = game.active_piece() {
                game.stats[o.kind() as usize] = 1;
            }
        }
        game.next = self.deal();
        self.last_spawn_count = game.spawn_count;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nestris_classic::randomizer::Cycle;
    use nestris_engine::StartConfig;

    /// Drops every piece straight down (Down held) and collects the pieces spawned.
    #[test]
    fn dealt_pieces_follow_the_randomizer() {
        let mut game = Game::start(StartConfig::from_seed(
            3,
            18,
            nestris_engine::GameType::A,
            0,
        ));
        let mut d = Departure::new(AnyRandomizer::Cycle(Cycle::new()), &game);
        let mut seen = String::new();
        let mut last = None;
        for frame in 0..3000u32 {
            let input = if frame % 2 == 0 {
                nestris_engine::buttons::DOWN
            } else {
                0
            };
            game.step(input);
            d.after_step(&mut game);
            if game.piece_active() && last != Some(game.spawn_count) {
                last = Some(game.spawn_count);
                seen.push(game.active_piece().map_or('?', |o| o.kind().letter()));
            }
            if game.game_over() {
                break;
            }
        }
        assert!(seen.len() >= 7, "{seen}");
        assert!("IOTSJZL".repeat(10).starts_with(&seen), "{seen}");
        assert_eq!(game.next_piece().map(|o| o.kind().letter()), {
            let i = seen.len() % 7;
            Some("IOTSJZL".as_bytes()[i] as char)
        });
    }
}
