//! The targets learnt: the λ-returns of a game's chance states (the method is in the `train`
//! module's docs).

use qasab_core::Player;

use crate::eval::net::encode::Features;
use crate::train::samples::Sample;

/// A state before a throw, with what learning needs of it.
pub(crate) struct ChanceState {
    pub(crate) features: Features,
    /// +1 if the features describe White's side, −1 for Black's.
    pub(crate) sign: f32,
    /// The network's value for White.
    pub(crate) value: f32,
    /// The expected one-step target for White.
    pub(crate) expected: f32,
}

/// The λ-returns of a game's chance states, backwards from the last (the method is in the
/// `train` module's docs).
pub(crate) fn lambda_returns(chances: Vec<ChanceState>, lambda: f32) -> Vec<Sample> {
    let mut out = Vec::with_capacity(chances.len());
    let mut next: Option<(f32, f32)> = None; // (G, v) of the next chance state
    for c in chances.into_iter().rev() {
        let g = match next {
            Some((g1, v1)) => c.expected + lambda * (g1 - v1),
            None => c.expected,
        }
        .clamp(-1.0, 1.0);
        next = Some((g, c.value));
        out.push(Sample {
            target: c.sign * g,
            us: if c.sign > 0.0 {
                Player::One
            } else {
                Player::Two
            },
            features: c.features,
        });
    }
    out.reverse();
    out
}
