//! The `greedy` player: the best end of its own turn, by the static evaluation.
//!
//! At a decision it enumerates every distinct state at the end of its turn
//! ([`TurnGraph`]: every sequence of its own decisions until the turn passes to chance, to the
//! other player, or the game ends, identical states merged), evaluates each for itself
//! ([`Evaluate`]), and plays the first decision of a sequence that reaches the best one; ties
//! between first decisions are broken with its seeded generator. It then follows that sequence
//! for the rest of the turn, as long as the states it meets are the ones it planned (the rules
//! give no chance event inside a turn's decisions, so they always are).
//!
//! When the turn has more than `turn_states` distinct states (4096 by default,
//! [`crate::search::turn::TURN_STATES`]), it falls back to a cheaper rule and looks one decision ahead:
//! it plays the decision whose resulting state evaluates best (ties broken at random), and
//! tries the whole turn again at its next decision, when fewer throws are left.
//!
//! Spec: `greedy`, with the options `seed=N` and `eval=hand|fitted` (the weights of the
//! evaluation, [`EvalWeights`]; `hand` by default).

use qasab_core::GameState;

use crate::agent::{Agent, Evaluation, ValueKind};
use crate::eval::options::{SEARCH_WEIGHTS_HELP, SearchSettings, eval_option, weights_option};
use crate::eval::{EvalWeights, Evaluate};
use crate::rng::{GameRng, below, rng_from_seed};
use crate::search::turn::{
    TURN_STATES, TurnGraph, best_first, best_moves, follow, one_step_values,
};
use crate::spec::seed_option;
use qasab_core::options::OptionDef;

/// A `greedy` spec's settings while its options are read: the weights of its evaluation, and
/// whether the game has fitted weights and networks (for `eval=`).
pub type Settings = SearchSettings<EvalWeights>;

/// The options of `greedy`, each declared once.
pub const OPTIONS: &[OptionDef<Settings>] = &[
    seed_option(),
    eval_option(),
    weights_option(SEARCH_WEIGHTS_HELP),
];

/// The one-turn lookahead player ([module docs](self)).
pub struct Greedy<S: GameState> {
    seed: u64,
    rng: GameRng,
    turn_states: usize,
    eval: EvalWeights,
    /// The rest of the planned turn: each decision with the state it is to be played in.
    plan: Vec<(S, S::Move)>,
}

impl<S: GameState> Greedy<S> {
    /// A greedy player with its tie-breaking generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Greedy {
            seed,
            rng: rng_from_seed(seed),
            turn_states: TURN_STATES,
            eval: EvalWeights::Hand,
            plan: Vec::new(),
        }
    }

    /// The same player evaluating with other weights.
    pub fn with_eval(mut self, eval: EvalWeights) -> Self {
        self.eval = eval;
        self
    }

    /// The same player with another cap on the distinct states of a turn (at least 2).
    pub fn with_turn_states(mut self, cap: usize) -> Self {
        self.turn_states = cap.max(2);
        self
    }
}

impl<S: Evaluate> Greedy<S> {
    /// The turn graph and its end values, if the turn can be enumerated.
    fn graph(&self, state: &S) -> Option<(TurnGraph<S>, Vec<f64>)> {
        let g = TurnGraph::new(state, self.turn_states);
        if !g.is_complete() {
            return None;
        }
        let p = g.player();
        let values = S::evaluate_all(g.ends(), p, self.eval);
        Some((g, values))
    }
}

impl<S: Evaluate> Agent<S> for Greedy<S> {
    fn spec(&self) -> String {
        match self.eval {
            EvalWeights::Hand => format!("greedy(seed={})", self.seed),
            e => format!("greedy(eval={},seed={})", e.name(), self.seed),
        }
    }

    fn choose(&mut self, state: &S) -> S::Move {
        if let Some(m) = follow(&mut self.plan, state) {
            return m;
        }
        match self.graph(state) {
            Some((g, values)) => {
                let best = best_moves(&g.root_values(&values));
                let first = best[below(&mut self.rng, best.len())];
                let mut line = g.best_line(&values, first);
                line.remove(0);
                self.plan = line;
                first
            }
            None => {
                let best = best_moves(&one_step_values(state, self.eval));
                best[below(&mut self.rng, best.len())]
            }
        }
    }

    fn evaluate(&mut self, state: &S) -> Option<Evaluation<S::Move>> {
        let moves = match self.graph(state) {
            Some((g, values)) => g.root_values(&values),
            None => one_step_values(state, self.eval),
        };
        Some(Evaluation {
            kind: ValueKind::Estimate,
            moves: best_first(moves),
        })
    }
}
