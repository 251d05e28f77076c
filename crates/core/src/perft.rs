//! Perft: counting the game tree, to pin move generation.
//!
//! `perft(s, d)` counts the distinct action sequences of length `d` from `s`, where a sequence
//! that reaches the end of the game earlier stops there and counts once:
//!
//! * `perft(s, 0) = 1`;
//! * `perft(s, d) = 1` if `s` is over;
//! * otherwise `perft(s, d) = Σ perft(s·a, d − 1)` over the legal actions `a` (moves at a player
//!   turn, outcomes at a chance turn: each outcome is one branch whatever its weight, and a pass
//!   is one move).
//!
//! So `perft(s, d)` grows to the number of complete games as `d` passes the longest game, which
//! [`complete_games`] gives directly for finite game trees. [`perft_weighted`] also multiplies
//! chance weights along each sequence, which pins the probabilities as well as the branching.
//!
//! This is a test tool, not a fast counter.

use crate::game::{GameState, Turn};

/// Counts action sequences of length `depth` (see the module docs).
///
/// ```
/// use qasab_core::{perft::perft, tihbat, Ruleset};
/// let start = tihbat::Ruleset::default().initial_state();
/// assert_eq!(perft(&start, 1), 2);
/// assert_eq!(perft(&start, 2), 4);
/// ```
pub fn perft<S: GameState>(state: &S, depth: u32) -> u64 {
    perft_weighted(state, depth).0
}

/// Counts action sequences of length `depth`, and the sum over them of the product of the
/// chance weights met on the way (1 for a sequence without chance events).
pub fn perft_weighted<S: GameState>(state: &S, depth: u32) -> (u64, u128) {
    if depth == 0 {
        return (1, 1);
    }
    match state.turn() {
        Turn::Over(_) => (1, 1),
        Turn::Player(_) => {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            let mut total = (0, 0);
            for m in moves {
                let mut next = state.clone();
                next.play_unchecked(m);
                let (n, w) = perft_weighted(&next, depth - 1);
                total = (total.0 + n, total.1 + w);
            }
            total
        }
        Turn::Chance => {
            let mut outs = Vec::new();
            state.chance_outcomes(&mut outs);
            let mut total = (0, 0);
            for o in outs {
                let mut next = state.clone();
                next.apply_chance_unchecked(o.outcome);
                let (n, w) = perft_weighted(&next, depth - 1);
                total = (total.0 + n, total.1 + w * u128::from(o.weight));
            }
            total
        }
    }
}

/// The number of complete games from `state`, or `None` if some game is longer than
/// `max_depth` actions.
pub fn complete_games<S: GameState>(state: &S, max_depth: u32) -> Option<u64> {
    fn go<S: GameState>(s: &S, left: u32) -> Option<u64> {
        match s.turn() {
            Turn::Over(_) => Some(1),
            _ if left == 0 => None,
            Turn::Player(_) => {
                let mut moves = Vec::new();
                s.legal_moves(&mut moves);
                let mut total = 0;
                for m in moves {
                    let mut next = s.clone();
                    next.play_unchecked(m);
                    total += go(&next, left - 1)?;
                }
                Some(total)
            }
            Turn::Chance => {
                let mut outs = Vec::new();
                s.chance_outcomes(&mut outs);
                let mut total = 0;
                for o in outs {
                    let mut next = s.clone();
                    next.apply_chance_unchecked(o.outcome);
                    total += go(&next, left - 1)?;
                }
                Some(total)
            }
        }
    }
    go(state, max_depth)
}
