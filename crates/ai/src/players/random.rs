//! The uniform random player.

use qasab_core::GameState;

use crate::agent::Agent;
use crate::rng::{GameRng, below, rng_from_seed};

/// Chooses uniformly among the legal moves.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    seed: u64,
    rng: GameRng,
}

impl RandomAgent {
    /// A random player drawing from a generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            seed,
            rng: rng_from_seed(seed),
        }
    }
}

impl<S: GameState> Agent<S> for RandomAgent {
    fn spec(&self) -> String {
        format!("random(seed={})", self.seed)
    }

    fn choose(&mut self, state: &S) -> S::Move {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves[below(&mut self.rng, moves.len())]
    }
}
