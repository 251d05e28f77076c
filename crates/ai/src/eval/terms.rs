//! The terms the Tâb evaluations share: the weights of progress, stacks and hits, and how
//! near a game is to its safety limits, where every estimate shrinks towards a draw (the
//! limits end a game without a winner of the game itself).

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
