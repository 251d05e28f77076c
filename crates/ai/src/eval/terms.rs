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

/// One side's terms that every Tâb evaluation counts, before weighting.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct CommonTerms {
    /// Pieces on the board.
    pub material: f64,
    /// The sum over the pieces that may still advance of their progress along the first lap,
    /// each 0 to 1.
    pub progress: f64,
    /// Pieces beyond the first on each square.
    pub stacked: f64,
    /// The expected loss to the enemy's hits in his turn.
    pub exposed: f64,
    /// The weight of `exposed`: [`HIT_NOW`] or [`HIT_LATER`].
    pub exposed_weight: f64,
}

/// Lets a game's side features (a struct with a `common: CommonTerms` field) be read and
/// written as if the common terms were its own fields (`f.material`).
macro_rules! common_terms {
    ($features:ty) => {
        impl std::ops::Deref for $features {
            type Target = $crate::eval::terms::CommonTerms;

            fn deref(&self) -> &Self::Target {
                &self.common
            }
        }

        impl std::ops::DerefMut for $features {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.common
            }
        }
    };
}
pub(crate) use common_terms;
