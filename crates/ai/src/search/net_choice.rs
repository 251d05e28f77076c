//! The network's choice of a turn: every distinct end of the turn is enumerated
//! ([`TurnGraph`]) and valued by the network together, and the best for the player in turn is
//! played. The `net` player (`players::net`) and self-play training
//! (`train`) choose by this rule.

use qasab_core::{Player, Turn};

use crate::eval::net::encode::{Encode, Encoding, Features};
use crate::eval::net::mlp::Mlp;
use crate::eval::terminal_value;
use crate::rng::{GameRng, below};
use crate::search::turn::{GraphPool, TURN_STATES, TurnGraph, best_moves};

/// The network's value of `state` for White (exact at the end).
pub(crate) fn value_for_one<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    state: &S,
    f: &mut Features,
) -> f32 {
    if let Turn::Over(o) = state.turn() {
        return terminal_value(&o, Player::One) as f32;
    }
    let us = Encode::encode(state, enc, f);
    let v = mlp.value(f);
    if us == Player::One { v } else { -v }
}

/// The turn of the player to move in `state`, with each end's value for him; `None` when the
/// turn is too large to enumerate. The graph comes from `pool`; give it back when done.
pub(crate) fn turn_values<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    state: &S,
    pool: &mut GraphPool<S>,
) -> Option<(TurnGraph<S>, Vec<f64>)> {
    let g = pool.expand(state, TURN_STATES);
    if !g.is_complete() {
        pool.give(g);
        return None;
    }
    let values = values_for(mlp, enc, g.ends(), g.player());
    Some((g, values))
}

/// The values of `states` for `player`, computed together: each is `value_for_one`'s, turned
/// to `player`'s side.
pub(crate) fn values_for<'a, S: Encode + 'a>(
    mlp: &Mlp,
    enc: Encoding,
    states: impl IntoIterator<Item = &'a S>,
    player: Player,
) -> Vec<f64> {
    let sign = if player == Player::One { 1.0 } else { -1.0 };
    crate::eval::net::batch(
        mlp,
        enc,
        states,
        |o| f64::from(sign * terminal_value(o, Player::One) as f32),
        |us, v| f64::from(sign * if us == Player::One { v } else { -v }),
    )
}

/// The network's one-turn choice : the first decision of a best line
/// and the rest of the line, ties broken by `rng`. Turns too large to enumerate are played
/// one decision at a time, each the best by the value of the state it leads to.
pub(crate) fn choose<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    state: &S,
    rng: &mut GameRng,
    pool: &mut GraphPool<S>,
) -> (S::Move, Vec<(S, S::Move)>) {
    if let Some((g, values)) = turn_values(mlp, enc, state, pool) {
        let best = best_moves(&g.root_values(&values));
        let first = best[below(rng, best.len())];
        let mut line = g.best_line(&values, first);
        pool.give(g);
        line.remove(0);
        return (first, line);
    }
    let values = one_step(mlp, enc, state);
    let best = best_moves(&values);
    (best[below(rng, best.len())], Vec::new())
}

/// Each legal move with the value for the player to move of the state it leads to.
pub(crate) fn one_step<S: Encode>(mlp: &Mlp, enc: Encoding, state: &S) -> Vec<(S::Move, f64)> {
    crate::search::turn::one_step_with(state, |children, p| values_for(mlp, enc, children, p))
}
