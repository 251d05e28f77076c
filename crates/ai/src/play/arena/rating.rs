//! The ladder: every player's Elo rating, fitted to all the pairings' results at once.

use serde::{Deserialize, Serialize};

use crate::play::stats::{self, FitError, PRIOR_DRAWS, PairingData};

/// One player's rating on the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingReport {
    /// The player's label.
    pub player: String,
    /// The rating in Elo points; the players' ratings have mean 0.
    pub elo: f64,
    /// Its 95% interval.
    pub elo_ci95: [f64; 2],
}

/// The ladder of the players labelled `labels`, from the pairings' results `data`: their
/// Bradley–Terry ratings ([`stats::bradley_terry`], with [`PRIOR_DRAWS`] drawn games of prior),
/// best first (ties in the order given).
///
/// # Errors
/// [`FitError`] if the ratings cannot be fitted (not with a full round robin).
pub(super) fn ladder(
    labels: &[String],
    data: &[PairingData],
) -> Result<Vec<RatingReport>, FitError> {
    let fit = stats::bradley_terry(labels.len(), data, PRIOR_DRAWS)?;
    let mut ratings: Vec<RatingReport> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| RatingReport {
            player: l.clone(),
            elo: fit.elo[i],
            elo_ci95: fit.ci95[i],
        })
        .collect();
    ratings.sort_by(|x, y| y.elo.total_cmp(&x.elo));
    Ok(ratings)
}
