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
//! [`crate::turn::TURN_STATES`]), it falls back to a cheaper rule and looks one decision ahead:
//! it plays the decision whose resulting state evaluates best (ties broken at random), and
//! tries the whole turn again at its next decision, when fewer throws are left.
//!
//! Spec: `greedy`, with the options `seed=N` and `eval=hand|fitted` (the weights of the
//! evaluation, [`EvalWeights`]; `hand` by default).

use qasab_core::GameState;

use crate::agent::{Agent, Evaluation, ValueKind};
use crate::eval::{EvalWeights, Evaluate};
use crate::rng::{GameRng, below, rng_from_seed};
use crate::turn::{TURN_STATES, TurnGraph};

/// Values closer than this are equal when choosing among moves.
pub(crate) const TIE: f64 = 1e-12;

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

/// Each legal move with the value of the state it leads to, for the player to move: the
/// one-decision rule used when a turn is too large to enumerate.
pub(crate) fn one_step_values<S: Evaluate>(state: &S, eval: EvalWeights) -> Vec<(S::Move, f64)> {
    let player = state.turn().player().expect("a player's turn");
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let mut c = state.clone();
            c.play_unchecked(m);
            (m, c.evaluate_with(player, eval))
        })
        .collect()
}

/// The moves within [`TIE`] of the best value, in the order given.
pub(crate) fn best_moves<M: Copy>(values: &[(M, f64)]) -> Vec<M> {
    let best = values
        .iter()
        .map(|&(_, v)| v)
        .fold(f64::NEG_INFINITY, f64::max);
    values
        .iter()
        .filter(|&&(_, v)| v >= best - TIE)
        .map(|&(m, _)| m)
        .collect()
}

/// Sorts move values best first, keeping the move order among equals.
pub(crate) fn best_first<M>(mut values: Vec<(M, f64)>) -> Vec<(M, f64)> {
    values.sort_by(|a, b| b.1.total_cmp(&a.1));
    values
}

/// Takes the next decision of `plan` if `state` is the state it was planned in.
pub(crate) fn follow<S: GameState>(plan: &mut Vec<(S, S::Move)>, state: &S) -> Option<S::Move> {
    if plan.first().is_some_and(|(s, _)| s == state) {
        return Some(plan.remove(0).1);
    }
    plan.clear();
    None
}

impl<S: Evaluate> Greedy<S> {
    /// The turn graph and its end values, if the turn can be enumerated.
    fn graph(&self, state: &S) -> Option<(TurnGraph<S>, Vec<f64>)> {
        let g = TurnGraph::new(state, self.turn_states);
        if !g.is_complete() {
            return None;
        }
        let p = g.player();
        let values = g.ends().map(|e| e.evaluate_with(p, self.eval)).collect();
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
