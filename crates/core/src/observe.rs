//! Observation tensors: a plain numeric picture of a state for learning libraries, a flat
//! `f32` vector in row-major order of [`Observe::observation_shape`].
//!
//! Board games give planes of `4 × columns` values, one square per value, squares in rows
//! from White's side (row × columns + column, as in [`crate::actions`]); numbers that belong to
//! no square (pending throws, the bank, the side to move) are constant planes. The encoding of
//! each game is tabulated in `docs/python.md`. Every player sees the whole state: there is no
//! hidden information in these games.

use crate::game::GameState;
use crate::player::Player;

/// The observation tensor of one game. Implemented by each game's state type.
pub trait Observe: GameState {
    /// The tensor's shape; depends only on the ruleset.
    fn observation_shape(rules: &Self::Ruleset) -> Vec<usize>;
    /// Clears `out` and fills it with the tensor, flattened in row-major order.
    fn observation(&self, out: &mut Vec<f32>);
}

/// Fills plane `k` of `out` (planes of `n` values) with `v`.
pub(crate) fn fill(out: &mut [f32], n: usize, k: usize, v: f32) {
    out[k * n..(k + 1) * n].fill(v);
}

/// The side to move as two flags (White, Black); both 0 at the end.
pub(crate) fn side_flags(p: Option<Player>) -> [f32; 2] {
    match p {
        Some(Player::One) => [1.0, 0.0],
        Some(Player::Two) => [0.0, 1.0],
        None => [0.0, 0.0],
    }
}
