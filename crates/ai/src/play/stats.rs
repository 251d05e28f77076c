//! The statistics of matches between players: score intervals, Elo differences and a
//! Bradley–Terry ladder.
//!
//! # Scores
//! A game scores 1 for a win, ½ for a draw and 0 for a loss. The arena (see [`crate::play::arena`])
//! also counts a truncated game as ½ for each side. The games of a match come in *units*: a
//! unit is a game pair, the two games that share their throws with the seats swapped. The two
//! games of a unit are not independent (a run of good throws helps whoever holds the favoured
//! seat in both), so the unit, not the game, is the independent observation.
//!
//! # The score interval ([`score_interval`])
//! The 95% interval of a match score is a Wilson score interval on an *effective number of
//! games* (Kish's design effect, the survey statistician's way of carrying the Wilson
//! interval over to correlated and non-binary data; Korn and Graubard 1998):
//!
//! * `s` is the mean score, `m` the number of units and `N` the number of games.
//! * `V = sum (y_u - s)^2 / (m (m - 1))` is the variance of `s` estimated from the unit scores
//!   `y_u` (each unit's mean score). It sees draws (a draw is half-way, so it varies less than a
//!   win or a loss) and the pairing (a pair that splits 1–1 varies less than two independent
//!   games).
//! * The design effect `deff = V / (s (1 - s) / N)` compares it with `N` independent win-or-loss
//!   games at the same score. With draws or useful pairing it is below 1.
//! * It is shrunk towards 1 with the weight of [`PRIOR_UNITS`] units,
//!   `deff' = (m deff + 2) / (m + 2)`, so that a match whose units all scored alike (every pair
//!   split, say) does not claim an interval of width zero. At a score of 0 or 1 the variance
//!   says nothing and `deff` is taken as 1.
//! * The interval is Wilson's at `s` with `n = N / deff'` games.
//!
//! Why this rather than a plain normal interval `s ± 1.96 sqrt(V)`: the normal interval has
//! width zero at a clean sweep and covers badly near 0 and 1, where matches between players of
//! different strength live. Why not a bootstrap: it needs no fewer assumptions here, costs
//! random draws, and also collapses at a sweep. Wilson's interval on the effective number of
//! games keeps the good behaviour of Wilson's interval at the edges and the true variance of the
//! paired, three-valued scores in the middle. The tests check its coverage on synthetic
//! matches, with draws and with paired luck.
//!
//! # Elo differences ([`elo_from_score`], [`elo_difference`])
//! A score `s` is an Elo difference of `-400 log10(1/s - 1)`; the interval is the score
//! interval mapped through the same function (it is increasing). A score of exactly 0 or 1 has
//! no finite Elo: it is read as half a game from the sweep, `1/(2N)` or `1 - 1/(2N)`, and the
//! result is marked as a bound ([`EloDifference::clamped`]).
//!
//! # Ratings ([`bradley_terry`])
//! With three or more players each gets one rating, fitted to every pairing at once by the
//! Bradley–Terry (Elo) model: player `i` scores `1 / (1 + 10^((r_j - r_i) / 400))` on average
//! against `j`. The fit maximises the likelihood that counts `i`'s points against `j` as wins
//! and the rest as losses (draws as half of each), plus [`PRIOR_DRAWS`] virtual drawn games per
//! pairing, as BayesElo's default prior does, so that a player who won every game still has a
//! finite rating. The maximum is found by Newton's method with step halving (the
//! log-likelihood is concave). Ratings are anchored at a **mean of 0**.
//!
//! The interval of a rating comes from the sandwich (robust) covariance `L⁺ J L⁺`: `L` is the
//! Fisher information of the fit (a weighted graph Laplacian with weights `n p (1 - p)` per
//! pairing) and `J` the same with each pairing's weight multiplied by its design effect, so
//! that draws and paired throws narrow the ratings' intervals exactly as they narrow the
//! pairings' score intervals. `L⁺`, the pseudo-inverse, is the inverse on ratings whose mean is
//! fixed, which is the anchor. A rating's interval is `r ± 1.96 sd`: how well the rating is
//! known relative to the mean of the players in the arena.

use thiserror::Error;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The weight, in units, of the design effect of 1 that the score interval shrinks towards.
pub const PRIOR_UNITS: f64 = 2.0;

/// Virtual drawn games added to every pairing in the ladder fit (as BayesElo's default prior).
pub const PRIOR_DRAWS: f64 = 2.0;

/// Elo points per natural unit of the logistic model (`400 / ln 10`).
pub const ELO_PER_NATURAL: f64 = 400.0 / std::f64::consts::LN_10;

/// The 95% Wilson score interval of a proportion `p` observed over `n` trials.
///
/// `n` may be fractional (an effective number of trials). With `n <= 0` nothing is known and
/// the interval is `[0, 1]`.
pub fn wilson(p: f64, n: f64) -> [f64; 2] {
    if n <= 0.0 || !n.is_finite() {
        return [0.0, 1.0];
    }
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // At 0 and 1 the bound is exactly the edge; rounding must not move it inside.
    let lo = if p <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if p >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    [lo, hi]
}

/// A match score with its 95% interval (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ScoreInterval {
    /// The mean score per game, in `[0, 1]`.
    pub score: f64,
    /// The 95% interval `[lo, hi]`.
    pub ci95: [f64; 2],
    /// The design effect after shrinking, `deff'`: the variance of the score relative to that
    /// of independent win-or-loss games.
    pub design_effect: f64,
    /// The number of independent win-or-loss games that would measure the score as precisely:
    /// games / `design_effect`.
    pub effective_games: f64,
}

/// The score of a match from the mean scores of its units (each in `[0, 1]`), each unit
/// holding `games_per_unit` games, with the interval described in the module docs.
///
/// With no units the score is ½ and the interval `[0, 1]`.
pub fn score_interval(unit_scores: &[f64], games_per_unit: u32) -> ScoreInterval {
    let m = unit_scores.len() as f64;
    let games = m * f64::from(games_per_unit);
    if unit_scores.is_empty() || games_per_unit == 0 {
        return ScoreInterval {
            score: 0.5,
            ci95: [0.0, 1.0],
            design_effect: 1.0,
            effective_games: 0.0,
        };
    }
    let s = unit_scores.iter().sum::<f64>() / m;
    let binomial = s * (1.0 - s);
    let raw = if unit_scores.len() < 2 || binomial <= 0.0 {
        1.0
    } else {
        let ss: f64 = unit_scores.iter().map(|y| (y - s).powi(2)).sum();
        let var_mean = ss / (m * (m - 1.0));
        var_mean * games / binomial
    };
    let deff = (m * raw + PRIOR_UNITS) / (m + PRIOR_UNITS);
    let effective_games = games / deff;
    ScoreInterval {
        score: s,
        ci95: wilson(s, effective_games),
        design_effect: deff,
        effective_games,
    }
}

/// The Elo difference of a mean score: `-400 log10(1/s - 1)`, infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    // Adding 0 turns the -0 of an even score into 0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// The mean score of a player `elo` points stronger: `1 / (1 + 10^(-elo / 400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloDifference {
    /// The difference, in Elo points.
    pub elo: f64,
    /// The 95% interval `[lo, hi]`.
    pub ci95: [f64; 2],
    /// True if the score was 0 or 1: then `elo` is a bound (at most, or at least), read as half
    /// a game from the sweep.
    pub clamped: bool,
}

/// The Elo difference of a score measured over `games` games, with its interval mapped through
/// [`elo_from_score`]. A score or bound of exactly 0 or 1 is read as half a game from the
/// sweep, `1/(2 games)` or `1 - 1/(2 games)`, so that every figure is finite.
pub fn elo_difference(score: f64, ci95: [f64; 2], games: f64) -> EloDifference {
    let half_game = 0.5 / games.max(1.0);
    let clamp = |s: f64| {
        if s <= 0.0 {
            half_game
        } else if s >= 1.0 {
            1.0 - half_game
        } else {
            s
        }
    };
    EloDifference {
        elo: elo_from_score(clamp(score)),
        ci95: [
            elo_from_score(clamp(ci95[0])),
            elo_from_score(clamp(ci95[1])),
        ],
        clamped: score <= 0.0 || score >= 1.0,
    }
}

/// The results of one pairing, as the ladder fit reads them.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PairingData {
    /// The first player's index.
    pub a: usize,
    /// The second player's index.
    pub b: usize,
    /// Games played.
    pub games: f64,
    /// The first player's points (a win 1, a draw ½).
    pub a_points: f64,
    /// The pairing's design effect ([`ScoreInterval::design_effect`]); 1 for independent
    /// win-or-loss games.
    pub design_effect: f64,
}

/// Ratings fitted by [`bradley_terry`].
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Each player's rating in Elo points; their mean is 0.
    pub elo: Vec<f64>,
    /// Each rating's 95% interval `[lo, hi]`.
    pub ci95: Vec<[f64; 2]>,
    /// Newton iterations the fit took.
    pub iterations: u32,
}

/// Why ratings could not be fitted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FitError {
    /// Fewer than two players.
    #[error("ratings need at least two players")]
    TooFewPlayers,
    /// A pairing names a player out of range, or a player against itself.
    #[error(
        "pairing {index} names players {a} and {b}, which is not a pair of the {players} players"
    )]
    BadPairing {
        /// The pairing's index.
        index: usize,
        /// Its first player.
        a: usize,
        /// Its second player.
        b: usize,
        /// The number of players.
        players: usize,
    },
    /// A pairing's figures are negative, not finite, or give more points than games.
    #[error("pairing {index} has impossible figures")]
    BadFigures {
        /// The pairing's index.
        index: usize,
    },
    /// Some group of players scored nothing against the rest (or never met them), so their
    /// ratings could be pushed apart without end.
    #[error(
        "the ratings have no finite maximum: some players scored nothing against the others, or never met them"
    )]
    Unbounded,
    /// Newton's method did not settle (a numerical failure).
    #[error("the rating fit did not converge")]
    NoConvergence,
}

/// The most Newton iterations of a fit; a concave fit of a few players needs a few dozen.
const MAX_ITERATIONS: u32 = 500;

/// Fits Bradley–Terry ratings to pairings between `players` players, with `prior_draws` virtual
/// drawn games added to each pairing (see the module docs; [`PRIOR_DRAWS`] is the arena's).
///
/// # Errors
/// [`FitError`]: too few players, a bad pairing, or data without a finite maximum (possible
/// only when `prior_draws` is 0 or some player meets nobody).
pub fn bradley_terry(
    players: usize,
    pairings: &[PairingData],
    prior_draws: f64,
) -> Result<Ratings, FitError> {
    if players < 2 {
        return Err(FitError::TooFewPlayers);
    }
    // (a, b, games, a's points, design effect), with the virtual draws.
    let mut data = Vec::with_capacity(pairings.len());
    for (index, p) in pairings.iter().enumerate() {
        if p.a >= players || p.b >= players || p.a == p.b {
            return Err(FitError::BadPairing {
                index,
                a: p.a,
                b: p.b,
                players,
            });
        }
        let sane = |x: f64| x.is_finite() && x >= 0.0;
        if !sane(p.games)
            || !sane(p.a_points)
            || !sane(p.design_effect)
            || !sane(prior_draws)
            || p.a_points > p.games
        {
            return Err(FitError::BadFigures { index });
        }
        let games = p.games + prior_draws;
        if games > 0.0 {
            data.push((
                p.a,
                p.b,
                games,
                p.a_points + prior_draws / 2.0,
                p.design_effect,
            ));
        }
    }
    if !maximum_exists(players, &data) {
        return Err(FitError::Unbounded);
    }
    let log_likelihood = |theta: &[f64]| -> f64 {
        data.iter()
            .map(|&(a, b, n, sa, _)| {
                let d = theta[a] - theta[b];
                sa * log_sigmoid(d) + (n - sa) * log_sigmoid(-d)
            })
            .sum()
    };
    let mut theta = vec![0.0; players];
    let mut value = log_likelihood(&theta);
    let mut iterations = 0;
    loop {
        if iterations == MAX_ITERATIONS {
            return Err(FitError::NoConvergence);
        }
        iterations += 1;
        let mut grad = vec![0.0; players];
        let mut info = vec![vec![0.0; players]; players];
        for &(a, b, n, sa, _) in &data {
            let p = sigmoid(theta[a] - theta[b]);
            grad[a] += sa - n * p;
            grad[b] -= sa - n * p;
            add_edge(&mut info, a, b, n * p * (1.0 - p));
        }
        let inverse = laplacian_pinv(&info).ok_or(FitError::NoConvergence)?;
        let step = mat_vec(&inverse, &grad);
        let size = step.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        if size < 1e-11 {
            break;
        }
        // Step halving: the log-likelihood is concave, so a short enough step increases it.
        let mut t = 1.0;
        loop {
            let trial: Vec<f64> = theta.iter().zip(&step).map(|(x, d)| x + t * d).collect();
            let v = log_likelihood(&trial);
            if v >= value - 1e-12 * value.abs() || t < 1e-9 {
                theta = trial;
                value = v;
                break;
            }
            t /= 2.0;
        }
    }
    let mean = theta.iter().sum::<f64>() / players as f64;
    theta.iter_mut().for_each(|x| *x -= mean);
    let mut info = vec![vec![0.0; players]; players];
    let mut meat = vec![vec![0.0; players]; players];
    for &(a, b, n, _, deff) in &data {
        let p = sigmoid(theta[a] - theta[b]);
        add_edge(&mut info, a, b, n * p * (1.0 - p));
        add_edge(&mut meat, a, b, deff * n * p * (1.0 - p));
    }
    let inverse = laplacian_pinv(&info).ok_or(FitError::NoConvergence)?;
    let cov = mat_mul(&mat_mul(&inverse, &meat), &inverse);
    let elo: Vec<f64> = theta.iter().map(|x| x * ELO_PER_NATURAL).collect();
    let ci95 = elo
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let half = Z95 * cov[i][i].max(0.0).sqrt() * ELO_PER_NATURAL;
            [r - half, r + half]
        })
        .collect();
    Ok(Ratings {
        elo,
        ci95,
        iterations,
    })
}

/// True if the likelihood has a finite maximum: every player can be reached from every other
/// along "scored points against" links (Zermelo's and Ford's condition).
fn maximum_exists(players: usize, data: &[(usize, usize, f64, f64, f64)]) -> bool {
    let mut scored = vec![vec![false; players]; players];
    for &(a, b, n, sa, _) in data {
        scored[a][b] |= sa > 0.0;
        scored[b][a] |= n - sa > 0.0;
    }
    let reach = |forward: bool| {
        let mut seen = vec![false; players];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for j in 0..players {
                let link = if forward { scored[i][j] } else { scored[j][i] };
                if link && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen.iter().all(|&s| s)
    };
    reach(true) && reach(false)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `ln(sigmoid(x))`, without overflow for large `|x|`.
fn log_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// Adds an edge of weight `w` between `a` and `b` to a graph Laplacian.
fn add_edge(l: &mut [Vec<f64>], a: usize, b: usize, w: f64) {
    l[a][a] += w;
    l[b][b] += w;
    l[a][b] -= w;
    l[b][a] -= w;
}

/// The pseudo-inverse of the Laplacian of a connected graph: `(L + 11ᵀ/n)⁻¹ - 11ᵀ/n`.
/// `None` if the graph is not connected (the matrix is then singular).
fn laplacian_pinv(l: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = l.len();
    let j = 1.0 / n as f64;
    let shifted: Vec<Vec<f64>> = l
        .iter()
        .map(|row| row.iter().map(|x| x + j).collect())
        .collect();
    let mut inv = invert(shifted)?;
    inv.iter_mut().flatten().for_each(|x| *x -= j);
    Some(inv)
}

/// The inverse of a square matrix by Gauss–Jordan elimination with partial pivoting; `None` if
/// it is singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let scale = a.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &k| a[i][col].abs().total_cmp(&a[k][col].abs()))?;
        if a[pivot][col].abs() <= 1e-13 * scale.max(f64::MIN_POSITIVE) {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        a[col].iter_mut().for_each(|x| *x /= d);
        inv[col].iter_mut().for_each(|x| *x /= d);
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for k in 0..n {
                        a[row][k] -= f * a[col][k];
                        inv[row][k] -= f * inv[col][k];
                    }
                }
            }
        }
    }
    Some(inv)
}

fn mat_vec(m: &[Vec<f64>], v: &[f64]) -> Vec<f64> {
    m.iter()
        .map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum())
        .collect()
}

fn mat_mul(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = b.first().map_or(0, Vec::len);
    a.iter()
        .map(|row| {
            (0..n)
                .map(|j| row.iter().zip(b).map(|(x, brow)| x * brow[j]).sum())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{GameRng, below, rng_from_seed};

    /// One synthetic game's score for A: a win with probability `win`, a draw with `draw`.
    fn game(rng: &mut GameRng, win: f64, draw: f64) -> f64 {
        let x = below(rng, 1 << 30) as f64 / f64::from(1u32 << 30);
        if x < win {
            1.0
        } else if x < win + draw {
            0.5
        } else {
            0.0
        }
    }

    #[test]
    fn wilson_matches_known_values() {
        let [lo, hi] = wilson(0.5, 100.0);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4);
        let [lo, hi] = wilson(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4);
        assert_eq!(wilson(0.3, 0.0), [0.0, 1.0]);
    }

    #[test]
    fn win_loss_games_give_wilson_with_a_design_effect_near_one() {
        // 30 wins, 70 losses in independent single-game units: the design effect is
        // (m/(m-1)) shrunk towards 1, and the interval is Wilson's on about 100 games.
        let units: Vec<f64> = (0..100).map(|i| if i < 30 { 1.0 } else { 0.0 }).collect();
        let s = score_interval(&units, 1);
        assert!((s.score - 0.3).abs() < 1e-12);
        let raw = 100.0 / 99.0;
        assert!((s.design_effect - (100.0 * raw + 2.0) / 102.0).abs() < 1e-12);
        let w = wilson(0.3, 100.0 / s.design_effect);
        assert_eq!(s.ci95, w);
        assert!(s.ci95[0] < 0.3 && 0.3 < s.ci95[1]);
    }

    #[test]
    fn sweeps_and_alike_units_keep_a_proper_interval() {
        let s = score_interval(&[1.0; 50], 2);
        assert_eq!(s.score, 1.0);
        assert_eq!(s.design_effect, 1.0);
        assert_eq!(s.ci95, wilson(1.0, 100.0));
        assert!(s.ci95[0] > 0.95 && s.ci95[0] < 0.99);
        // Every pair split 1-1: the data show no spread, the shrinkage keeps a width.
        let s = score_interval(&[0.5; 50], 2);
        assert!(s.ci95[0] < 0.5 && s.ci95[1] > 0.5 && s.ci95[1] - s.ci95[0] > 0.01);
        assert_eq!(score_interval(&[], 2).ci95, [0.0, 1.0]);
    }

    #[test]
    fn draws_narrow_the_interval() {
        // Same score 1/2: all decisive against all drawn but for a few.
        let decisive: Vec<f64> = (0..200).map(|i| f64::from(i % 2)).collect();
        let drawish: Vec<f64> = (0..200)
            .map(|i| match i % 10 {
                0 => 1.0,
                1 => 0.0,
                _ => 0.5,
            })
            .collect();
        let a = score_interval(&decisive, 1);
        let b = score_interval(&drawish, 1);
        assert_eq!(a.score, b.score);
        assert!(
            b.ci95[1] - b.ci95[0] < 0.6 * (a.ci95[1] - a.ci95[0]),
            "{a:?} {b:?}"
        );
    }

    /// The fraction of `reps` synthetic matches whose interval contains the true score.
    fn coverage(
        seed: u64,
        reps: u32,
        pairs: usize,
        mut pair: impl FnMut(&mut GameRng) -> f64,
        truth: f64,
    ) -> f64 {
        let mut rng = rng_from_seed(seed);
        let mut hits = 0;
        for _ in 0..reps {
            let units: Vec<f64> = (0..pairs).map(|_| pair(&mut rng)).collect();
            let s = score_interval(&units, 2);
            if s.ci95[0] <= truth && truth <= s.ci95[1] {
                hits += 1;
            }
        }
        f64::from(hits) / f64::from(reps)
    }

    #[test]
    fn score_interval_covers_known_strengths() {
        // Independent games in pairs, with and without draws, from even to lopsided.
        for (i, &(win, draw)) in [(0.5, 0.0), (0.45, 0.3), (0.7, 0.1), (0.85, 0.1), (0.2, 0.5)]
            .iter()
            .enumerate()
        {
            let truth = win + draw / 2.0;
            let c = coverage(
                100 + i as u64,
                400,
                50,
                |r| (game(r, win, draw) + game(r, win, draw)) / 2.0,
                truth,
            );
            assert!(
                (0.90..=0.99).contains(&c),
                "win {win} draw {draw}: coverage {c}"
            );
        }
    }

    #[test]
    fn paired_luck_is_seen_by_the_interval() {
        // Each pair's throws favour one seat; A holds each seat once per pair. A wins 90% from
        // the favoured seat and 30% from the other: the expected score is 0.6, and the pair
        // scores vary much less than independent games would.
        let pair = |r: &mut GameRng| {
            let (first, second) = if below(r, 2) == 0 {
                (0.9, 0.3)
            } else {
                (0.3, 0.9)
            };
            (game(r, first, 0.0) + game(r, second, 0.0)) / 2.0
        };
        let c = coverage(7, 400, 50, pair, 0.6);
        assert!((0.90..=0.99).contains(&c), "coverage {c}");
        let mut rng = rng_from_seed(8);
        let units: Vec<f64> = (0..5000).map(|_| pair(&mut rng)).collect();
        let s = score_interval(&units, 2);
        // Var of a pair mean: (0.9*0.1 + 0.3*0.7)/4 = 0.075; independent games: 0.24/2 = 0.12.
        assert!((s.design_effect - 0.075 / 0.12).abs() < 0.05, "{s:?}");
        assert!(s.ci95[0] < 0.6 && 0.6 < s.ci95[1], "{s:?}");
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_from_score(0.5).to_string(), "0");
        assert!((elo_from_score(10.0 / 11.0) - 400.0).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 400.0 * 3f64.log10()).abs() < 1e-9);
        assert!((elo_from_score(0.25) + elo_from_score(0.75)).abs() < 1e-9);
        for d in [-600.0, -35.0, 0.0, 120.0, 800.0] {
            assert!((elo_from_score(score_from_elo(d)) - d).abs() < 1e-9);
        }
        let e = elo_difference(0.75, [0.7, 0.8], 100.0);
        assert!(!e.clamped);
        assert!((e.ci95[0] - elo_from_score(0.7)).abs() < 1e-9);
        assert!((e.ci95[1] - elo_from_score(0.8)).abs() < 1e-9);
    }

    #[test]
    fn a_sweep_has_a_finite_elo_bound() {
        let e = elo_difference(1.0, wilson(1.0, 100.0), 100.0);
        assert!(e.clamped);
        assert!((e.elo - elo_from_score(1.0 - 0.005)).abs() < 1e-9);
        assert!(e.elo.is_finite() && e.ci95[0].is_finite() && e.ci95[1] == e.elo);
        assert!(e.ci95[0] > 400.0 && e.ci95[0] < e.elo);
        let l = elo_difference(0.0, wilson(0.0, 100.0), 100.0);
        assert!((l.elo + e.elo).abs() < 1e-6 && l.ci95[0] == l.elo && l.ci95[1] < -400.0);
    }

    #[test]
    fn two_players_fit_the_regularised_score() {
        let r = bradley_terry(
            2,
            &[PairingData {
                a: 0,
                b: 1,
                games: 100.0,
                a_points: 70.0,
                design_effect: 1.0,
            }],
            PRIOR_DRAWS,
        )
        .unwrap();
        let diff = elo_from_score(71.0 / 102.0);
        assert!((r.elo[0] - r.elo[1] - diff).abs() < 1e-6, "{r:?}");
        assert!((r.elo[0] + r.elo[1]).abs() < 1e-9);
        // The difference's sd is 1 / sqrt(n p (1-p)) natural units; each rating carries half.
        let p: f64 = 71.0 / 102.0;
        let half = Z95 * ELO_PER_NATURAL / (102.0 * p * (1.0 - p)).sqrt() / 2.0;
        assert!((r.ci95[0][1] - r.elo[0] - half).abs() < 1e-6, "{r:?}");
    }

    #[test]
    fn exact_expected_scores_give_the_ratings_back() {
        let truth = [-250.0, -40.0, 90.0, 200.0];
        let mut data = Vec::new();
        for a in 0..4 {
            for b in a + 1..4 {
                data.push(PairingData {
                    a,
                    b,
                    games: 1000.0,
                    a_points: 1000.0 * score_from_elo(truth[a] - truth[b]),
                    design_effect: 1.0,
                });
            }
        }
        let r = bradley_terry(4, &data, 0.0).unwrap();
        for (got, want) in r.elo.iter().zip(truth) {
            assert!((got - want).abs() < 1e-6, "{r:?}");
        }
        assert!(r.iterations < 50);
    }

    /// Synthetic round robins between players of known ratings, with draws.
    fn synthetic(rng: &mut GameRng, truth: &[f64], games: usize, draw: f64) -> Vec<PairingData> {
        let mut data = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let e = score_from_elo(truth[a] - truth[b]);
                let d = draw.min(2.0 * e.min(1.0 - e));
                let units: Vec<f64> = (0..games / 2)
                    .map(|_| (game(rng, e - d / 2.0, d) + game(rng, e - d / 2.0, d)) / 2.0)
                    .collect();
                let s = score_interval(&units, 2);
                data.push(PairingData {
                    a,
                    b,
                    games: games as f64,
                    a_points: s.score * games as f64,
                    design_effect: s.design_effect,
                });
            }
        }
        data
    }

    #[test]
    fn large_samples_recover_known_ratings() {
        let truth = [-300.0, -100.0, 0.0, 150.0, 250.0];
        let mut rng = rng_from_seed(11);
        let data = synthetic(&mut rng, &truth, 20_000, 0.3);
        let r = bradley_terry(5, &data, PRIOR_DRAWS).unwrap();
        for (i, want) in truth.iter().enumerate() {
            let sd = (r.ci95[i][1] - r.ci95[i][0]) / (2.0 * Z95);
            assert!(sd < 5.0, "{r:?}");
            assert!((r.elo[i] - want).abs() < 5.0 * sd, "player {i}: {r:?}");
        }
    }

    #[test]
    fn rating_intervals_cover_known_ratings() {
        let truth = [-150.0, -20.0, 30.0, 140.0];
        let mut rng = rng_from_seed(12);
        let (mut hits, mut total) = (0, 0);
        for _ in 0..200 {
            let data = synthetic(&mut rng, &truth, 200, 0.3);
            let r = bradley_terry(4, &data, PRIOR_DRAWS).unwrap();
            for (ci, want) in r.ci95.iter().zip(truth) {
                total += 1;
                hits += usize::from(ci[0] <= want && want <= ci[1]);
            }
        }
        let c = hits as f64 / total as f64;
        assert!((0.90..=0.99).contains(&c), "coverage {c}");
    }

    #[test]
    fn a_sweep_needs_the_prior() {
        let sweep = [PairingData {
            a: 0,
            b: 1,
            games: 10.0,
            a_points: 10.0,
            design_effect: 1.0,
        }];
        assert_eq!(bradley_terry(2, &sweep, 0.0), Err(FitError::Unbounded));
        let r = bradley_terry(2, &sweep, PRIOR_DRAWS).unwrap();
        assert!((r.elo[0] - r.elo[1] - elo_from_score(11.0 / 12.0)).abs() < 1e-6);
        assert_eq!(bradley_terry(1, &[], 2.0), Err(FitError::TooFewPlayers));
        assert!(matches!(
            bradley_terry(3, &sweep, 2.0),
            Err(FitError::Unbounded)
        ));
        let bad = PairingData {
            a: 0,
            b: 0,
            ..sweep[0]
        };
        assert!(matches!(
            bradley_terry(2, &[bad], 2.0),
            Err(FitError::BadPairing { .. })
        ));
        let bad = PairingData {
            a_points: 11.0,
            ..sweep[0]
        };
        assert!(matches!(
            bradley_terry(2, &[bad], 2.0),
            Err(FitError::BadFigures { .. })
        ));
    }
}
