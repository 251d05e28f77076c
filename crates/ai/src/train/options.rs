//! The settings of a training run and their checks, why a run could not start or go on, and
//! the learning curve.

use crate::eval::net::NetError;
use crate::eval::net::mlp::MAX_HIDDEN;
use crate::play::arena::MAX_THREADS;

/// The settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Self-play games in all (a resumed run plays up to this many).
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads for self-play and the curve (0: every core). The weights do not depend
    /// on it.
    pub threads: usize,
    /// Games per batch.
    pub batch: u64,
    /// λ of the λ-return.
    pub lambda: f32,
    /// Adam's step size.
    pub rate: f32,
    /// States per minibatch.
    pub minibatch: usize,
    /// Units of the two hidden layers.
    pub hidden: [usize; 2],
    /// Games between two points of the learning curve (0: none).
    pub curve_every: u64,
    /// Game pairs against `greedy` at each point of the curve.
    pub curve_pairs: u64,
    /// Each game plays a reading drawn from the family's boards and rule options
    /// ([`crate::train::readings`]), on the family's board-free encoding; the curve is
    /// measured on the run's ruleset.
    pub across: bool,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            games: 10_000,
            seed: 0,
            threads: 0,
            batch: 32,
            lambda: 0.7,
            rate: 1e-3,
            minibatch: 128,
            hidden: [128, 32],
            curve_every: 1_000,
            curve_pairs: 100,
            across: false,
        }
    }
}

/// Why a run could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A setting is out of range.
    #[error("{0}")]
    Options(String),
    /// The network or checkpoint could not be read or written.
    #[error(transparent)]
    Net(#[from] NetError),
}

/// One point of the learning curve.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CurvePoint {
    /// Self-play games played.
    pub games: u64,
    /// The network's score against `greedy` (wins plus half the draws, over the games).
    pub score: f64,
    /// Games in the match.
    pub match_games: u64,
    /// The mean squared TD error of the states learnt since the last point (before each
    /// batch's update), `None` at the start.
    pub loss: Option<f64>,
    /// Seconds since the run began (only this differs between two runs of one seed).
    pub seconds: f64,
}

/// The index of the curve's best point: the first with the top score. Runs reach their best
/// after a few thousand games and then lose strength (docs/training.md), so `qasab train`
/// keeps the network of this point beside the last one.
pub fn best_point(curve: &[CurvePoint]) -> Option<usize> {
    (0..curve.len()).reduce(|a, b| {
        if curve[b].score > curve[a].score {
            b
        } else {
            a
        }
    })
}

/// Checks the settings of a run.
pub(crate) fn check(o: &TrainOptions) -> Result<(), TrainError> {
    let bad = |m: String| Err(TrainError::Options(m));
    if o.games == 0 {
        return bad("--games must be at least 1".into());
    }
    if o.batch == 0 || o.batch > 100_000 {
        return bad(format!("batch={} is not in 1..=100000", o.batch));
    }
    if !(0.0..=1.0).contains(&o.lambda) {
        return bad(format!("lambda={} is not in 0..=1", o.lambda));
    }
    if !(o.rate > 0.0 && o.rate < 1.0) {
        return bad(format!("rate={} is not between 0 and 1", o.rate));
    }
    if o.minibatch == 0 {
        return bad("minibatch must be at least 1".into());
    }
    if o.hidden.iter().any(|&h| h == 0 || h > MAX_HIDDEN) {
        return bad(format!(
            "hidden layers of 1 to {} units, not {:?}",
            MAX_HIDDEN, o.hidden
        ));
    }
    if o.threads > MAX_THREADS {
        return bad(format!("--threads {} is above {}", o.threads, MAX_THREADS));
    }
    Ok(())
}
