//! The uniform random player.

use qasab_core::GameState;

use std::sync::Arc;

use crate::agent::Agent;
use crate::players::plan::{Plan, SEED_ONLY};
use crate::players::playable::Playable;
use crate::rng::{GameRng, below, rng_from_seed};
use crate::spec::{AgentError, AgentSpec, Cost, apply_options};

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

/// Reads a `random` spec: its `seed=` only.
pub(crate) fn read<S: Playable>(spec: &AgentSpec, _: &S::Ruleset) -> Result<Plan<S>, AgentError> {
    apply_options(spec, SEED_ONLY, &mut ())?;
    Ok(Plan::ready(
        Cost::default(),
        Arc::new(|seed| Box::new(RandomAgent::new(seed)) as Box<dyn Agent<S>>),
    ))
}
