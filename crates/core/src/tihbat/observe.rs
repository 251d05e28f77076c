//! The Tihbat observation tensor ([`Observe`]).

use crate::game::{GameState, Turn};
use crate::observe::{Observe, side_flags};

use super::ruleset::Ruleset;
use super::state::State;

/// Eight numbers: the counters in pits A, B, C, D (T-1); South's and North's captures; the
/// player to move (South, North), both 0 at the end.
impl Observe for State {
    fn observation_shape(_: &Ruleset) -> Vec<usize> {
        vec![8]
    }

    fn observation(&self, out: &mut Vec<f32>) {
        let pos = self.position();
        out.clear();
        out.extend(pos.pits.iter().map(|&c| f32::from(c)));
        out.push(f32::from(pos.captured.one));
        out.push(f32::from(pos.captured.two));
        let mover = match self.turn() {
            Turn::Over(_) => None,
            _ => Some(pos.to_move),
        };
        out.extend(side_flags(mover));
    }
}
