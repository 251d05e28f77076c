//! Rollouts: from the leaf where the tree stops, play on (at random, greedily, or taking the
//! largest capture) to the end of the game or to a cutoff, and the reward of a finished game.

use qasab_core::{Outcome, Player, Turn, Weighted};

use super::options::{MctsOptions, RolloutPolicy};
use crate::eval::{EvalWeights, Evaluate};
use crate::rng::{GameRng, below, pick_weighted};

/// The value for [`Player::One`] of the leaf `state`, where the tree stops: its rollout's
/// reward ([`rollout`]), or with `mix` below 1, `(1 − mix) · static + mix · reward`, `static`
/// being the leaf's static evaluation (`known` if the caller has it already). A finished game,
/// or `cutoff=0`, is worth what [`rollout`] gives.
pub(super) fn leaf_result<S: Evaluate>(
    state: &mut S,
    opts: &MctsOptions,
    rng: &mut GameRng,
    moves: &mut Vec<S::Move>,
    outs: &mut Vec<Weighted<S::Chance>>,
    known: Option<f64>,
) -> f64 {
    if opts.mix >= 1.0 || opts.cutoff == Some(0) || matches!(state.turn(), Turn::Over(_)) {
        return rollout(state, opts, rng, moves, outs);
    }
    let value = known.unwrap_or_else(|| state.evaluate_with(Player::One, opts.eval));
    let reward = rollout(state, opts, rng, moves, outs);
    (1.0 - opts.mix) * value + opts.mix * reward
}

/// Plays a rollout from `state` and returns its reward for [`Player::One`]: the reward of the
/// finished game, or the static evaluation once `cutoff` turns have begun (see
/// [`MctsOptions::cutoff`]). `moves` and `outs` are scratch buffers, reused so that a rollout
/// does not allocate.
pub(super) fn rollout<S: Evaluate>(
    state: &mut S,
    opts: &MctsOptions,
    rng: &mut GameRng,
    moves: &mut Vec<S::Move>,
    outs: &mut Vec<Weighted<S::Chance>>,
) -> f64 {
    let cutoff = opts.cutoff.unwrap_or(u32::MAX);
    if cutoff == 0 {
        return match state.turn() {
            Turn::Over(o) => reward(&o, opts.margin),
            _ => state.evaluate_with(Player::One, opts.eval),
        };
    }
    let mut turns = 0u32;
    let mut last: Option<Player> = None;
    loop {
        match state.turn() {
            Turn::Over(o) => return reward(&o, opts.margin),
            Turn::Player(p) => {
                if last != Some(p) {
                    if last.is_some() {
                        turns += 1;
                        if turns >= cutoff {
                            return state.evaluate_with(Player::One, opts.eval);
                        }
                    }
                    last = Some(p);
                }
                match opts.rollout {
                    // The playouts' fast path: a game may pick from moves it keeps.
                    RolloutPolicy::Random => state.play_picked(moves, |n| below(rng, n)),
                    RolloutPolicy::Greedy => {
                        state.legal_moves(moves);
                        state.play_unchecked(greedy_move(state, p, moves, opts.eval, rng));
                    }
                    RolloutPolicy::Captures => {
                        state.legal_moves(moves);
                        state.play_unchecked(capturing_move(state, p, moves, rng));
                    }
                }
            }
            Turn::Chance => {
                state.apply_picked_chance(outs, |w| pick_weighted(rng, w.iter().map(|w| w.weight)))
            }
        }
    }
}

/// The move of `moves` whose result the evaluation with `eval` rates best for `p`; among
/// equals, one drawn uniformly.
fn greedy_move<S: Evaluate>(
    state: &S,
    p: Player,
    moves: &[S::Move],
    eval: EvalWeights,
    rng: &mut GameRng,
) -> S::Move {
    if eval.is_net() && moves.len() > 1 {
        // A network values the results together.
        let values = S::evaluate_all(&crate::search::turn::children(state, moves), p, eval);
        return best_of(moves, values.into_iter(), rng);
    }
    best_result(state, moves, rng, |next| next.evaluate_with(p, eval))
}

/// The move of `moves` that raises `p`'s score the most; among equals, one drawn uniformly.
fn capturing_move<S: Evaluate>(
    state: &S,
    p: Player,
    moves: &[S::Move],
    rng: &mut GameRng,
) -> S::Move {
    best_result(state, moves, rng, |next| f64::from(next.scores()[p]))
}

/// The move of `moves` whose resulting state has the highest `rate`; among equals, one drawn
/// uniformly (reservoir sampling). A single move is returned without playing it.
fn best_result<S: Evaluate>(
    state: &S,
    moves: &[S::Move],
    rng: &mut GameRng,
    rate: impl Fn(&S) -> f64,
) -> S::Move {
    if let [only] = moves {
        return *only;
    }
    let values = moves.iter().map(|&m| {
        let mut next = state.clone();
        next.play_unchecked(m);
        rate(&next)
    });
    best_of(moves, values, rng)
}

/// The move of `moves` (not empty) with the highest of `values` (one each, in order); among
/// equals, one drawn uniformly (reservoir sampling).
fn best_of<M: Copy>(moves: &[M], values: impl Iterator<Item = f64>, rng: &mut GameRng) -> M {
    let (mut best, mut best_value, mut ties) = (moves[0], f64::NEG_INFINITY, 0u64);
    for (&m, v) in moves.iter().zip(values) {
        if v > best_value {
            (best, best_value, ties) = (m, v, 1);
        } else if v == best_value {
            ties += 1;
            if below(rng, ties as usize) == 0 {
                best = m;
            }
        }
    }
    best
}

/// The reward of a finished game for [`Player::One`], as the search backs it up: `(1 −
/// margin) · r + margin · d`, where `r` is the result (+1, −1 or 0) and `d` the score
/// difference over the scores' sum (0 when both are 0). With `margin = 0` it is the result. A
/// game stopped by a safety limit is worth the result the ruleset gives it (L-18,
/// `limit_result`: a draw by default), without the margin.
pub fn reward(o: &Outcome, margin: f64) -> f64 {
    let r = f64::from(o.return_for(Player::One));
    if margin == 0.0 || o.is_truncated() {
        return r;
    }
    let (a, b) = (f64::from(o.scores.one), f64::from(o.scores.two));
    let d = if a + b > 0.0 { (a - b) / (a + b) } else { 0.0 };
    (1.0 - margin) * r + margin * d
}
