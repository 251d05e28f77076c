//! Players for the Tâb family: the common ones. Stronger players come with the search agents.

use qasab_core::tab::State;

use crate::eval::EvalWeights;
use crate::players::playable::Playable;
use crate::search::mcts::{Budget, MctsOptions};

/// The level of `mcts` on the Tâb family when its spec sets no budget.
pub const TAB_LEVEL: u8 = 4;

/// The exploration constant of `mcts` on the Tâb family when its spec sets none.
pub const TAB_C: f64 = 0.7;

/// The weight of the implicit minimax value in `mcts`'s selection on the Tâb family when its
/// spec sets none.
pub const TAB_MINIMAX: f64 = 0.4;

impl Playable for State {
    crate::players::net::network_hooks!();

    crate::players::tables::table_hooks!();

    /// Rollouts stop at once: the leaf's static evaluation is the reward. Random play to the
    /// end of a faithful Tâb game says little about the position (searches of 1,000 iterations
    /// with random rollouts won 7.5% of 40 games against `greedy`; with the evaluation, 70%).
    ///
    /// The evaluation is the fitted one ([`EvalWeights::Fitted`]), whose values are win
    /// chances, with `c` = [`TAB_C`] to match their narrower spread, at level
    /// [`TAB_LEVEL`] (30,000 iterations, about 0.15 s a move). Selection blends each child's
    /// mean with its implicit minimax value (`minimax` = [`TAB_MINIMAX`]), which takes the best
    /// reply where the mean averages in the poor ones tried. `docs/STRENGTH.md` has the
    /// matches that chose them.
    fn mcts_defaults() -> MctsOptions {
        MctsOptions {
            budget: Budget::Level(TAB_LEVEL),
            c: TAB_C,
            cutoff: Some(0),
            eval: EvalWeights::Fitted,
            minimax: TAB_MINIMAX,
            ..MctsOptions::default()
        }
    }
}
