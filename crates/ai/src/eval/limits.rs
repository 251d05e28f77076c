//! The terms the Tâb evaluations share: the weights of progress, stacks and hits, and how
//! near a game is to its safety limits, where every estimate shrinks towards a draw (the
//! limits end a game without a winner of the game itself).

use qasab_core::GameState;

/// Weight of a piece's progress along its first lap (0 to 1).
pub const PROGRESS: f64 = 0.3;
/// Weight of each piece beyond the first on a square.
pub const STACKED: f64 = 0.05;
/// Weight of the pieces (or points) expected to be lost to the hits of the player whose turn
/// is in progress.
pub const HIT_NOW: f64 = 0.8;
/// Weight of the pieces (or points) expected to be lost to the hits of the player who plays
/// after the owner.
pub const HIT_LATER: f64 = 0.4;
/// Turns before a safety limit from which the value shrinks towards 0.
pub const LIMIT_HORIZON: f64 = 10.0;

/// The factor that shrinks the value towards 0 near a safety limit (L-18).
pub fn tab(state: &qasab_core::tab::State) -> f64 {
    let rules = state.ruleset();
    let mut left = f64::from(rules.turn_cap) - f64::from(state.turns());
    if rules.no_progress > 0 {
        left = left.min(f64::from(rules.no_progress) - f64::from(state.turns_without_progress()));
    }
    (left / LIMIT_HORIZON).clamp(0.0, 1.0)
}

/// The factor that shrinks the value towards 0 near Ludii's limits (LT-10, LH-9).
pub fn tab_ludii(state: &qasab_core::tab_ludii::State) -> f64 {
    let rules = state.rules();
    // Ludii's turn number counts both players' turns; its limit is per player.
    let turns_left = 2.0 * f64::from(rules.turn_cap()) - f64::from(state.ludii_turn());
    let decisions_left = f64::from(rules.move_cap()) - f64::from(state.decisions());
    (turns_left.min(decisions_left / 2.0) / LIMIT_HORIZON).clamp(0.0, 1.0)
}
