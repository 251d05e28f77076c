//! The values of a table's positions: value iteration to the fixed point of the Bellman
//! equations of the stochastic game, and the chances to win and to lose under optimal play.

use qasab_core::Player;

use super::EndgameError;
use super::graph::{Graph, Target};

/// Choices whose values are this close are equally good.
pub const TIE: f64 = 1e-9;

/// The solved values, from White's side (+1 White wins, −1 Black wins, 0 a draw or play that
/// never ends).
#[derive(Clone, Debug)]
pub struct Solution {
    /// The value with every safety-limit end counted as Black's win.
    pub lo: Vec<f64>,
    /// The value with every safety-limit end counted as White's win.
    pub hi: Vec<f64>,
    /// The chance that White wins, both sides playing moves of optimal value (each picking,
    /// among those, the one best for his own chance to win).
    pub white_wins: Vec<f64>,
    /// The chance that Black wins, likewise.
    pub black_wins: Vec<f64>,
    /// Sweeps made over the positions, all passes together.
    pub sweeps: u64,
    /// The largest change of a value in the last sweep of each pass: the Bellman residual.
    pub residual: f64,
}

/// Value of a target under the values `v`, with a limit end worth `limit`.
#[inline]
fn target_value(t: u32, v: &[f64], limit: f64) -> f64 {
    match Target::unpack(t) {
        Target::Node(i) => v[i as usize],
        Target::Over(Some(Player::One)) => 1.0,
        Target::Over(Some(Player::Two)) => -1.0,
        Target::Over(None) => 0.0,
        Target::Limit => limit,
    }
}

/// One Bellman step at node `i`: the expected value over its throws of the chooser's best
/// target (White maximises, Black minimises).
pub(super) fn backup(g: &Graph, i: usize, v: &[f64], limit: f64) -> f64 {
    let mut total = 0.0;
    let mut sum = 0.0;
    for (weight, chooser, targets) in g.throws_of(i) {
        let values = targets.iter().map(|&t| target_value(t, v, limit));
        let best = match chooser {
            Some(Player::Two) => values.fold(f64::INFINITY, f64::min),
            _ => values.fold(f64::NEG_INFINITY, f64::max),
        };
        sum += weight * best;
        total += weight;
    }
    sum / total
}

/// The chance of `who` winning at node `i`, given the chances `p` of the targets: each chooser
/// picks, among his targets of optimal value by `v`, the best for his own chance to win.
fn win_backup(g: &Graph, i: usize, v: &[f64], p: &[f64], who: Player) -> f64 {
    let win = |t: u32| match Target::unpack(t) {
        Target::Node(j) => p[j as usize],
        Target::Over(Some(w)) => f64::from(u8::from(w == who)),
        Target::Over(None) | Target::Limit => 0.0,
    };
    let mut total = 0.0;
    let mut sum = 0.0;
    for (weight, chooser, targets) in g.throws_of(i) {
        let chooser = chooser.unwrap_or(Player::One);
        let white = chooser == Player::One;
        let value = |t: u32| target_value(t, v, -1.0);
        let best = targets.iter().map(|&t| value(t)).fold(
            if white {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            },
            |a, b| {
                if white { a.max(b) } else { a.min(b) }
            },
        );
        let optimal = targets.iter().filter(|&&t| (value(t) - best).abs() <= TIE);
        let mine = chooser == who;
        let chance = optimal.map(|&t| win(t)).fold(
            if mine {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            },
            |a, b| if mine { a.max(b) } else { a.min(b) },
        );
        sum += weight * chance;
        total += weight;
    }
    sum / total
}

/// Where the value iteration stands, told after every sweep: a long solve shows how near it
/// is to the tolerance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveStep {
    /// The pass (1-based): the values, the values with limits counted as wins where the
    /// table has limits, then White's and Black's chances to win.
    pub pass: usize,
    /// Passes in all.
    pub passes: usize,
    /// The group of positions being iterated (1-based); `groups + 1` is the closing sweep
    /// over every position.
    pub group: usize,
    /// Groups in all.
    pub groups: usize,
    /// Sweeps of this group so far.
    pub sweeps: u64,
    /// The largest change of a value in the last sweep.
    pub change: f64,
}

/// Gauss–Seidel sweeps of `step` over `order` until no value moves by more than `tol`.
/// Returns the sweeps made and the last sweep's largest change; `swept` is told each sweep's
/// count and largest change.
fn iterate(
    order: &[u32],
    values: &mut [f64],
    tol: f64,
    max_sweeps: u64,
    mut step: impl FnMut(usize, &[f64]) -> f64,
    mut swept: impl FnMut(u64, f64),
) -> Result<(u64, f64), EndgameError> {
    let mut sweeps = 0;
    loop {
        let mut change: f64 = 0.0;
        for &i in order {
            let i = i as usize;
            let new = step(i, values);
            change = change.max((new - values[i]).abs());
            values[i] = new;
        }
        sweeps += 1;
        swept(sweeps, change);
        if change <= tol {
            return Ok((sweeps, change));
        }
        if sweeps >= max_sweeps {
            return Err(EndgameError::NotConverged {
                sweeps,
                residual: change,
            });
        }
    }
}

/// Solves the table: the positions in groups of the same number of pieces, fewest first
/// (pieces never come back, so a group's moves lead only into it or into groups already
/// solved), each iterated to `tol`; then a sweep over all of them to check. `progress` is told
/// where the iteration stands after every sweep.
///
/// # Errors
/// [`EndgameError::NotConverged`] if a pass has not reached `tol` after `max_sweeps` sweeps.
pub fn solve(
    g: &Graph,
    tol: f64,
    max_sweeps: u64,
    mut progress: impl FnMut(SolveStep),
) -> Result<Solution, EndgameError> {
    let n = g.len();
    let mut groups: Vec<(u16, Vec<u32>)> = Vec::new();
    {
        let mut by_total: std::collections::BTreeMap<u16, Vec<u32>> = Default::default();
        for (i, &(w, b)) in g.material.iter().enumerate() {
            by_total
                .entry(u16::from(w) + u16::from(b))
                .or_default()
                .push(i as u32);
        }
        groups.extend(by_total);
    }
    let all: Vec<u32> = (0..n as u32).collect();
    let mut sweeps = 0;
    let mut residual: f64 = 0.0;
    let passes = if g.limits { 4 } else { 3 };
    let mut pass_number = 0;
    let mut pass = |values: &mut Vec<f64>,
                    step: &dyn Fn(usize, &[f64]) -> f64,
                    progress: &mut dyn FnMut(SolveStep)|
     -> Result<(), EndgameError> {
        pass_number += 1;
        let groups_n = groups.len();
        let orders = groups
            .iter()
            .map(|(_, o)| o.as_slice())
            .chain([all.as_slice()]);
        for (k, order) in orders.enumerate() {
            let (s, r) = iterate(
                order,
                values,
                tol,
                max_sweeps,
                |i, v| step(i, v),
                |sweeps, change| {
                    progress(SolveStep {
                        pass: pass_number,
                        passes,
                        group: k + 1,
                        groups: groups_n,
                        sweeps,
                        change,
                    })
                },
            )?;
            sweeps += s;
            if k == groups_n {
                residual = residual.max(r);
            }
        }
        Ok(())
    };
    let mut lo = vec![0.0; n];
    pass(&mut lo, &|i, v| backup(g, i, v, -1.0), &mut progress)?;
    let hi = if g.limits {
        let mut hi = vec![0.0; n];
        pass(&mut hi, &|i, v| backup(g, i, v, 1.0), &mut progress)?;
        hi
    } else {
        lo.clone()
    };
    let mut white_wins = vec![0.0; n];
    pass(
        &mut white_wins,
        &|i, p| win_backup(g, i, &lo, p, Player::One),
        &mut progress,
    )?;
    let mut black_wins = vec![0.0; n];
    pass(
        &mut black_wins,
        &|i, p| win_backup(g, i, &lo, p, Player::Two),
        &mut progress,
    )?;
    Ok(Solution {
        lo,
        hi,
        white_wins,
        black_wins,
        sweeps,
        residual,
    })
}
