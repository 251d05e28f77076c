//! A training run of any game with networks, for the front ends that take the ruleset as a
//! string (Python's `Trainer`): [`AnyTrainer`] wraps the typed [`Trainer`] of the game the
//! ruleset names, reached through the game's network hook
//! ([`crate::players::Playable::with_network`]).

use std::ops::Range;
use std::time::Instant;

use qasab_core::{AnyRuleset, Registered};

use crate::eval::net::{Encode, NetError, Network};
use crate::players::{NetworkWork, Playable, with_network};
use crate::train::options::{CurvePoint, TrainError, TrainOptions};
use crate::train::samples::{Sample, samples_to_bytes};
use crate::train::selfplay::self_play_games;
use crate::train::trainer::{StepReport, Trainer};

/// A training run of the game a dynamic ruleset names.
pub struct AnyTrainer {
    inner: Box<dyn DynTrainer>,
}

/// [`Trainer`] with its game's type erased.
trait DynTrainer: Send + Sync {
    fn ruleset(&self) -> String;
    fn games_done(&self) -> u64;
    fn options(&self) -> &TrainOptions;
    fn finished(&self) -> bool;
    fn set_rate(&mut self, rate: f32) -> Result<(), TrainError>;
    fn next_batch(&self) -> (u64, u64);
    fn network(&self) -> Network;
    fn learn(
        &mut self,
        games: Vec<Vec<Sample>>,
        started: Instant,
    ) -> Result<StepReport, TrainError>;
    fn step(&mut self, started: Instant) -> StepReport;
    fn checkpoint(&self, seconds: f64) -> Vec<u8>;
    fn curve(&self) -> &[CurvePoint];
}

impl<S: Encode + Playable> DynTrainer for Trainer<S> {
    fn ruleset(&self) -> String {
        self.rules.to_string()
    }

    fn games_done(&self) -> u64 {
        self.games_done
    }

    fn options(&self) -> &TrainOptions {
        &self.options
    }

    fn finished(&self) -> bool {
        Trainer::finished(self)
    }

    fn set_rate(&mut self, rate: f32) -> Result<(), TrainError> {
        Trainer::set_rate(self, rate)
    }

    fn next_batch(&self) -> (u64, u64) {
        Trainer::next_batch(self)
    }

    fn network(&self) -> Network {
        Trainer::network(self)
    }

    fn learn(
        &mut self,
        games: Vec<Vec<Sample>>,
        started: Instant,
    ) -> Result<StepReport, TrainError> {
        Trainer::learn(self, games, started)
    }

    fn step(&mut self, started: Instant) -> StepReport {
        Trainer::step(self, started)
    }

    fn checkpoint(&self, seconds: f64) -> Vec<u8> {
        Trainer::checkpoint(self, seconds)
    }

    fn curve(&self) -> &[CurvePoint] {
        &self.curve
    }
}

/// Starts a run ([`Trainer::new`]).
struct Start<'a>(TrainOptions, Option<&'a Network>);

impl NetworkWork for Start<'_> {
    type Output = Result<AnyTrainer, TrainError>;

    fn run<S: Encode + Playable + Registered>(self, rules: &S::Ruleset) -> Self::Output {
        let trainer = match self.1 {
            Some(start) => Trainer::<S>::from_network(rules.clone(), self.0, start)?,
            None => Trainer::<S>::new(rules.clone(), self.0)?,
        };
        Ok(AnyTrainer {
            inner: Box::new(trainer),
        })
    }
}

/// Resumes a run from a checkpoint's bytes ([`Trainer::resume`]).
struct Resume<'a> {
    bytes: &'a [u8],
    games: Option<u64>,
    threads: usize,
}

impl NetworkWork for Resume<'_> {
    type Output = Result<(AnyTrainer, f64), TrainError>;

    fn run<S: Encode + Playable + Registered>(self, rules: &S::Ruleset) -> Self::Output {
        let (trainer, seconds) =
            Trainer::<S>::resume(rules.clone(), self.bytes, self.games, self.threads)?;
        Ok((
            AnyTrainer {
                inner: Box::new(trainer),
            },
            seconds,
        ))
    }
}

/// Self-play games of a run, as sample bytes ([`self_play_games`], [`samples_to_bytes`]).
struct SelfPlay<'a> {
    network: &'a Network,
    seed: u64,
    lambda: f32,
    games: Range<u64>,
}

impl NetworkWork for SelfPlay<'_> {
    type Output = Result<Vec<u8>, NetError>;

    fn run<S: Encode + Playable + Registered>(self, rules: &S::Ruleset) -> Self::Output {
        self.network.fits::<S>(rules)?;
        Ok(samples_to_bytes(&self_play_games::<S>(
            &self.network.mlp,
            self.network.encoding,
            rules,
            self.seed,
            self.lambda,
            // A run across a family's readings says so in its network ([`Trainer::network`]).
            self.network.metadata.contains_key(crate::eval::net::ACROSS),
            self.games,
        )))
    }
}

/// Self-play games `games` of the run with `seed` and `lambda` on `rules`, played by
/// `network`, as the bytes [`AnyTrainer::learn`] reads
/// ([`samples_from_bytes`](crate::train::samples::samples_from_bytes));
/// `None` for a game without networks.
///
/// # Errors
/// [`NetError::Mismatch`] for a network trained on other inputs.
pub fn self_play_bytes(
    rules: &AnyRuleset,
    network: &Network,
    seed: u64,
    lambda: f32,
    games: Range<u64>,
) -> Option<Result<Vec<u8>, NetError>> {
    with_network(
        rules,
        SelfPlay {
            network,
            seed,
            lambda,
            games,
        },
    )
}

impl AnyTrainer {
    /// A new run on `rules` ([`Trainer::new`]); `None` for a game without networks.
    ///
    /// # Errors
    /// As [`Trainer::new`].
    pub fn new(rules: &AnyRuleset, options: TrainOptions) -> Option<Result<Self, TrainError>> {
        with_network(rules, Start(options, None))
    }

    /// A new run on `rules` from the weights of `start` ([`Trainer::from_network`]); `None`
    /// for a game without networks.
    ///
    /// # Errors
    /// As [`Trainer::from_network`].
    pub fn from_network(
        rules: &AnyRuleset,
        options: TrainOptions,
        start: &Network,
    ) -> Option<Result<Self, TrainError>> {
        with_network(rules, Start(options, Some(start)))
    }

    /// The run saved in `bytes`, a checkpoint of `rules`, to go on up to `games` games
    /// ([`Trainer::resume`]): the run and the seconds it had taken; `None` for a game
    /// without networks.
    ///
    /// # Errors
    /// As [`Trainer::resume`].
    pub fn resume(
        rules: &AnyRuleset,
        bytes: &[u8],
        games: Option<u64>,
        threads: usize,
    ) -> Option<Result<(Self, f64), TrainError>> {
        with_network(
            rules,
            Resume {
                bytes,
                games,
                threads,
            },
        )
    }

    /// The canonical ruleset string.
    pub fn ruleset(&self) -> String {
        self.inner.ruleset()
    }

    /// Self-play games played so far.
    pub fn games_done(&self) -> u64 {
        self.inner.games_done()
    }

    /// The run's settings.
    pub fn options(&self) -> &TrainOptions {
        self.inner.options()
    }

    /// Whether every game of the run has been played ([`Trainer::finished`]).
    pub fn finished(&self) -> bool {
        self.inner.finished()
    }

    /// Goes on at Adam step size `rate` from the next batch ([`Trainer::set_rate`]).
    ///
    /// # Errors
    /// As [`Trainer::set_rate`].
    pub fn set_rate(&mut self, rate: f32) -> Result<(), TrainError> {
        self.inner.set_rate(rate)
    }

    /// The next batch's games, `(first, count)` ([`Trainer::next_batch`]).
    pub fn next_batch(&self) -> (u64, u64) {
        self.inner.next_batch()
    }

    /// The network as it stands ([`Trainer::network`]).
    pub fn network(&self) -> Network {
        self.inner.network()
    }

    /// Learns from the next batch's games ([`Trainer::learn`]).
    ///
    /// # Errors
    /// As [`Trainer::learn`].
    pub fn learn(
        &mut self,
        games: Vec<Vec<Sample>>,
        started: Instant,
    ) -> Result<StepReport, TrainError> {
        self.inner.learn(games, started)
    }

    /// Plays the next batch and learns from it ([`Trainer::step`]).
    pub fn step(&mut self, started: Instant) -> StepReport {
        self.inner.step(started)
    }

    /// The run as checkpoint bytes ([`Trainer::checkpoint`]).
    pub fn checkpoint(&self, seconds: f64) -> Vec<u8> {
        self.inner.checkpoint(seconds)
    }

    /// The learning curve so far.
    pub fn curve(&self) -> &[CurvePoint] {
        self.inner.curve()
    }
}
