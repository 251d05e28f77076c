//! The report of an arena: every pairing's results from A's side, how its game pairs went, and
//! the ladder; serialised as the JSON of `qasab arena --json`.

use serde::{Deserialize, Serialize};

use super::games::GameResult;
use super::options::ArenaError;
use super::rating::{RatingReport, ladder};
use super::schedule::pairings;
use crate::play::stats::{self, PairingData};

/// One pairing's results, from A's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingReport {
    /// A's label.
    pub a: String,
    /// B's label.
    pub b: String,
    /// Games played.
    pub games: u64,
    /// Games A won.
    pub a_wins: u64,
    /// Games B won.
    pub b_wins: u64,
    /// Games drawn by the rules.
    pub draws: u64,
    /// Games stopped by a safety limit (not counted as draws, but scored ½ each).
    pub truncated: u64,
    /// A's mean score per game: win 1, draw or truncated ½, loss 0.
    pub a_score: f64,
    /// The 95% interval of A's score ([`stats::score_interval`] over the game pairs).
    pub a_score_ci95: [f64; 2],
    /// A's Elo advantage over B, from the score ([`stats::elo_difference`]).
    pub a_elo: f64,
    /// The 95% interval of A's Elo advantage.
    pub a_elo_ci95: [f64; 2],
    /// How the game pairs went, pair by pair.
    pub game_pairs: GamePairs,
}

/// A pairing's game pairs by how they went (see "Paired throws" in the docs of
/// `play::arena`). A pair
/// whose two games the same seat won, once with each player in it, went with the throws and
/// the seat, whoever sat there: the players' choices did not change its result. Only the pairs
/// one player won twice separate the players: A's score is
/// `(a_both + (first_seat_both + second_seat_both) / 2) / pairs` when no game is drawn or
/// truncated.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GamePairs {
    /// Pairs A won both games of.
    pub a_both: u64,
    /// Pairs B won both games of.
    pub b_both: u64,
    /// Pairs the first seat won both games of: A in the first game, B in the second.
    pub first_seat_both: u64,
    /// Pairs the second seat won both games of.
    pub second_seat_both: u64,
    /// Pairs with a drawn or truncated game.
    pub with_draw: u64,
}

impl GamePairs {
    /// Counts the game pairs `results`, each A's results in its two games, A holding the first
    /// seat in the first.
    pub fn of(results: &[[GameResult; 2]]) -> GamePairs {
        use GameResult::{AWins, BWins};
        let mut c = GamePairs::default();
        for pair in results {
            let n = match pair {
                [AWins, AWins] => &mut c.a_both,
                [BWins, BWins] => &mut c.b_both,
                [AWins, BWins] => &mut c.first_seat_both,
                [BWins, AWins] => &mut c.second_seat_both,
                _ => &mut c.with_draw,
            };
            *n += 1;
        }
        c
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.a_both + self.b_both + self.first_seat_both + self.second_seat_both + self.with_draw
    }
}

/// The report of an arena: every pairing and the ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArenaReport {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// Games each pairing played.
    pub games_per_pairing: u64,
    /// The arena seed (of a merged report, the first arena's).
    pub seed: u64,
    /// The seeds of the arenas a merged report adds up ([`super::merge()`]), in the order given;
    /// empty, and left out of the JSON, for one arena.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seeds: Vec<u64>,
    /// Every pairing, in the arena's order.
    pub pairings: Vec<PairingReport>,
    /// The ladder: every player, best rating first (ties in the order given).
    pub ratings: Vec<RatingReport>,
    /// The endgame tables every player consulted first, by file; empty, and left out of the
    /// JSON, for players without them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<String>,
}

impl ArenaReport {
    /// The report of the round robin between players labelled `labels`, whose pairing `p` (in
    /// the order of [`pairings`]) played the game pairs `results[p]`.
    ///
    /// # Errors
    /// [`ArenaError::Ratings`] if the ladder cannot be fitted (not with a full round robin).
    ///
    /// # Panics
    /// If `results` does not hold one entry per pairing.
    pub fn new(
        ruleset: String,
        labels: Vec<String>,
        games_per_pairing: u64,
        seed: u64,
        results: &[Vec<[GameResult; 2]>],
    ) -> Result<ArenaReport, ArenaError> {
        let pairs = pairings(labels.len());
        assert_eq!(pairs.len(), results.len(), "one result list per pairing");
        let mut reports = Vec::with_capacity(pairs.len());
        let mut data = Vec::with_capacity(pairs.len());
        for (&(i, j), games) in pairs.iter().zip(results) {
            let count = |r: GameResult| games.iter().flatten().filter(|&&g| g == r).count() as u64;
            let units: Vec<f64> = games
                .iter()
                .map(|[x, y]| (x.a_score() + y.a_score()) / 2.0)
                .collect();
            let n = 2 * games.len() as u64;
            let score = stats::score_interval(&units, 2);
            let elo = stats::elo_difference(score.score, score.ci95, n as f64);
            data.push(PairingData {
                a: i,
                b: j,
                games: n as f64,
                a_points: score.score * n as f64,
                design_effect: score.design_effect,
            });
            reports.push(PairingReport {
                a: labels[i].clone(),
                b: labels[j].clone(),
                games: n,
                a_wins: count(GameResult::AWins),
                b_wins: count(GameResult::BWins),
                draws: count(GameResult::Draw),
                truncated: count(GameResult::Truncated),
                a_score: score.score,
                a_score_ci95: score.ci95,
                a_elo: elo.elo,
                a_elo_ci95: elo.ci95,
                game_pairs: GamePairs::of(games),
            });
        }
        let ratings = ladder(&labels, &data)?;
        Ok(ArenaReport {
            ruleset,
            games_per_pairing,
            seed,
            seeds: Vec::new(),
            pairings: reports,
            ratings,
            tables: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_pairs_are_told_apart_by_who_won_each_game() {
        use GameResult::{AWins, BWins, Draw, Truncated};
        let results = [
            [AWins, AWins],
            [AWins, BWins],
            [AWins, BWins],
            [BWins, AWins],
            [BWins, BWins],
            [AWins, AWins],
            [AWins, AWins],
            [Draw, AWins],
            [BWins, Truncated],
        ];
        let g = GamePairs::of(&results);
        assert_eq!(
            g,
            GamePairs {
                a_both: 3,
                b_both: 1,
                first_seat_both: 2,
                second_seat_both: 1,
                with_draw: 2,
            }
        );
        assert_eq!(g.pairs(), 9);
        let decisive = GamePairs::of(&results[..7]);
        let report = ArenaReport::new(
            "tab-ludii".into(),
            vec!["a".into(), "b".into()],
            14,
            0,
            &[results[..7].to_vec()],
        )
        .unwrap();
        let p = &report.pairings[0];
        assert_eq!(p.game_pairs, decisive);
        let seats = (decisive.first_seat_both + decisive.second_seat_both) as f64;
        let by_pairs = (decisive.a_both as f64 + seats / 2.0) / decisive.pairs() as f64;
        assert!((p.a_score - by_pairs).abs() < 1e-12, "{p:?}");
    }
}
