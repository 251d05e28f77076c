//! The action ids of the Ludii presets ([`ActionIds`]): a step's slot from the square it leaves
//! and its throw, as for Tâb.

use crate::actions::{ActionIds, THROWS};
use crate::sticks::Throw;

use super::moves::Move;
use super::ruleset::Ruleset;
use super::state::State;

/// Variants per slot in the Ludii presets.
const LUDII_VARIANTS: u32 = 8;

/// The Ludii presets: slot = (square left) × 5 + throw index as for Tâb; the variants are the
/// destinations and the number of pieces that move. Special: pass.
impl ActionIds for State {
    fn play_slots(rules: &Ruleset) -> u32 {
        4 * u32::from(rules.columns()) * THROWS
    }
    fn variants(_: &Ruleset) -> u32 {
        LUDII_VARIANTS
    }
    fn specials(_: &Ruleset) -> u32 {
        1
    }
    fn slot(rules: &Ruleset, m: Move) -> Result<u32, u32> {
        match m {
            Move::Pass => Err(0),
            Move::Step(s) => {
                let sq = u32::from(s.from.square(rules.columns()));
                Ok(sq * THROWS + s.throw.index() as u32)
            }
        }
    }
    /// Ludii's move cap: decisions per game (LT-10, LH-9).
    fn max_game_length(rules: &Ruleset) -> u64 {
        u64::from(rules.move_cap())
    }
    fn max_chance_outcomes(_: &Ruleset) -> u32 {
        THROWS
    }
    fn chance_id(c: Throw) -> u32 {
        c.index() as u32
    }
}
