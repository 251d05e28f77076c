//! The Tihbat action ids ([`ActionIds`]): one slot per pit, and a pass.

use crate::actions::ActionIds;
use crate::game::NoChance;

use super::position::Move;
use super::ruleset::Ruleset;
use super::state::State;

/// Tihbat: slot = the pit sown, A..D = 0..3 (T-3; the count is the pit's content, so there is
/// one variant). Special: pass (T-5).
impl ActionIds for State {
    fn play_slots(_: &Ruleset) -> u32 {
        4
    }
    fn variants(_: &Ruleset) -> u32 {
        1
    }
    fn specials(_: &Ruleset) -> u32 {
        1
    }
    fn slot(_: &Ruleset, m: Move) -> Result<u32, u32> {
        match m {
            Move::Sow { pit, .. } => Ok(pit as u32),
            Move::Pass => Err(0),
        }
    }
    /// The game ends when a position (the pits and the side to move) occurs for the
    /// `repetition`-th time (T-7); the pits hold at most `4 × seeds` counters, so there are at
    /// most `2 × C(4 × seeds + 4, 4)` positions, each met at most `repetition − 1` times
    /// before the last.
    fn max_game_length(rules: &Ruleset) -> u64 {
        let n = 4 * u64::from(rules.seeds) + 4;
        let positions = 2 * (n * (n - 1) * (n - 2) * (n - 3) / 24);
        positions * u64::from(rules.repetition.saturating_sub(1)) + 1
    }
    fn max_chance_outcomes(_: &Ruleset) -> u32 {
        0
    }
    fn chance_id(c: NoChance) -> u32 {
        match c {}
    }
}
