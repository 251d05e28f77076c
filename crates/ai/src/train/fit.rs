//! Fitting evaluation weights to game results: logistic regression by Newton's method.
//!
//! The fitted Tâb evaluation ([`crate::games::tab::eval::Weights::FITTED`]) comes from
//! [`logistic`] over states of self-play games, each labelled with the game's result for the
//! first seat (the `fit_tab_eval` example). The model has no intercept, so that the value of a
//! position stays antisymmetric: the inputs are differences between the seats, and swapping
//! the seats negates them and the logit.

/// The logistic function `1 / (1 + exp(−z))`.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The dot product of two vectors.
pub fn dot<const D: usize>(a: &[f64; D], b: &[f64; D]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The mean log loss (cross-entropy, in nats) of the probabilities `p(x)` of the labels `y`
/// (each in `[0, 1]`: 1 a win of the first seat, 0 a loss, ½ a draw) over `rows`; `NaN` for no
/// rows. Probabilities are kept within `[1e-12, 1 − 1e-12]`. A coin (`p = ½`) scores `ln 2`.
pub fn log_loss<'a, const D: usize>(
    rows: impl IntoIterator<Item = (&'a [f64; D], f64)>,
    p: impl Fn(&[f64; D]) -> f64,
) -> f64 {
    let (mut sum, mut n) = (0.0, 0.0);
    for (x, y) in rows {
        let q = p(x).clamp(1e-12, 1.0 - 1e-12);
        sum -= y * q.ln() + (1.0 - y) * (1.0 - q).ln();
        n += 1.0;
    }
    sum / n
}

/// Solves `m · v = b` by Gaussian elimination with partial pivoting.
fn solve<const D: usize>(mut m: [[f64; D]; D], mut b: [f64; D]) -> [f64; D] {
    for col in 0..D {
        let pivot = (col..D)
            .max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..D {
            let f = m[row][col] / m[col][col];
            let (above, below) = m.split_at_mut(row);
            for (a, p) in below[0][col..].iter_mut().zip(&above[col][col..]) {
                *a -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut v = [0.0; D];
    for row in (0..D).rev() {
        let rest: f64 = (row + 1..D).map(|k| m[row][k] * v[k]).sum();
        v[row] = (b[row] - rest) / m[row][row];
    }
    v
}

/// The weights `w` of the logistic regression `P(y = 1 | x) = sigmoid(w · x)` (no intercept)
/// that maximise the likelihood of `rows`, each an input vector with its label in `[0, 1]`.
///
/// Newton's method (iteratively reweighted least squares) from `w = 0`, at most 50 steps,
/// stopping when no weight moves by more than 1e-10. A small ridge penalty
/// (`1e-6 · rows · |w|² / 2`) keeps the Hessian invertible, so an input that never varies gets
/// weight 0 and perfectly separated data gives large finite weights rather than none.
pub fn logistic<const D: usize>(rows: &[(&[f64; D], f64)]) -> [f64; D] {
    let ridge = 1e-6 * rows.len().max(1) as f64;
    let mut w = [0.0; D];
    for _ in 0..50 {
        let mut grad = [0.0; D];
        let mut hess = [[0.0; D]; D];
        for &(x, y) in rows {
            let p = sigmoid(dot(&w, x));
            let c = p * (1.0 - p);
            for i in 0..D {
                grad[i] += (p - y) * x[i];
                for j in 0..D {
                    hess[i][j] += c * x[i] * x[j];
                }
            }
        }
        for i in 0..D {
            grad[i] += ridge * w[i];
            hess[i][i] += ridge;
        }
        let step = solve(hess, grad);
        let mut change = 0.0f64;
        for i in 0..D {
            w[i] -= step[i];
            change = change.max(step[i].abs());
        }
        if change < 1e-10 {
            break;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{below, rng_from_seed};

    /// Labels drawn from a known model: the fit recovers its weights, and it scores a lower
    /// log loss than the model with any weight off by 20%.
    #[test]
    fn logistic_regression_recovers_known_weights() {
        let truth = [1.5, -0.7, 0.0];
        let mut rng = rng_from_seed(11);
        let uniform = |rng: &mut crate::rng::GameRng| below(rng, 2001) as f64 / 1000.0 - 1.0;
        let rows: Vec<([f64; 3], f64)> = (0..40_000)
            .map(|_| {
                let x = [uniform(&mut rng), uniform(&mut rng), uniform(&mut rng)];
                let y = f64::from(u8::from(
                    uniform(&mut rng) * 0.5 + 0.5 < sigmoid(dot(&truth, &x)),
                ));
                (x, y)
            })
            .collect();
        let refs: Vec<(&[f64; 3], f64)> = rows.iter().map(|(x, y)| (x, *y)).collect();
        let w = logistic(&refs);
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.08, "{w:?} against {truth:?}");
        }
        let loss = |w: [f64; 3]| log_loss(refs.iter().copied(), |x| sigmoid(dot(&w, x)));
        let best = loss(w);
        for i in 0..3 {
            let mut off = w;
            off[i] = if off[i].abs() > 0.1 {
                off[i] * 1.2
            } else {
                0.2
            };
            assert!(loss(off) > best, "weight {i}");
        }
        assert!(best < std::f64::consts::LN_2);
    }

    /// Exactly solvable data: a single input whose labels are the model's probabilities.
    #[test]
    fn fractional_labels_give_the_exact_logit() {
        let rows = [
            ([1.0], sigmoid(0.8)),
            ([-1.0], sigmoid(-0.8)),
            ([2.0], sigmoid(1.6)),
        ];
        let refs: Vec<(&[f64; 1], f64)> = rows.iter().map(|(x, y)| (x, *y)).collect();
        let [w] = logistic(&refs);
        assert!((w - 0.8).abs() < 1e-4, "{w}");
        let constant = [([0.0, 1.0], 1.0), ([0.0, -1.0], 0.0)];
        let refs: Vec<(&[f64; 2], f64)> = constant.iter().map(|(x, y)| (x, *y)).collect();
        let w = logistic(&refs);
        assert_eq!(w[0], 0.0, "an input that never varies gets weight 0");
        assert!(w[1] > 5.0 && w[1].is_finite(), "separated data: {w:?}");
    }
}
