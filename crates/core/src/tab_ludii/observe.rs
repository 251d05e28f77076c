//! The observation tensor of the Ludii presets ([`Observe`]).

use crate::game::{GameState, Turn};
use crate::observe::{Observe, fill, side_flags};

use super::ruleset::Ruleset;
use super::state::State;

/// Planes of the Ludii presets' observation.
const LUDII_PLANES: usize = 10;

/// Planes, each 4 × columns: 0, 1 the pieces of White, Black on the square; 2 a locked piece
/// (At-Tab); 3-7 the throw to be played, one-hot over 1, 2, 3, 4, 6; 8, 9 the player to throw
/// or move (White, Black), both 0 at the end.
impl Observe for State {
    fn observation_shape(rules: &Ruleset) -> Vec<usize> {
        vec![LUDII_PLANES, 4, usize::from(rules.columns())]
    }

    fn observation(&self, out: &mut Vec<f32>) {
        let cols = self.rules().columns();
        let n = 4 * usize::from(cols);
        out.clear();
        out.resize(LUDII_PLANES * n, 0.0);
        for sq in 0..4 * cols {
            let i = usize::from(sq);
            if let Some((p, count)) = self.unit_at(sq) {
                out[p.index() * n + i] = f32::from(count);
            }
            if self.is_locked(sq) {
                out[2 * n + i] = 1.0;
            }
        }
        if let Some(t) = self.pending_throw() {
            fill(out, n, 3 + t.index(), 1.0);
        }
        let mover = match self.turn() {
            Turn::Over(_) => None,
            _ => Some(self.mover()),
        };
        let side = side_flags(mover);
        fill(out, n, 8, side[0]);
        fill(out, n, 9, side[1]);
    }
}
