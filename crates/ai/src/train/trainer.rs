//! A training run: the network and its optimiser, the batches of self-play games and the
//! steps that learn from them, and the learning curve.

use std::sync::{Arc, Mutex};

use qasab_core::{Player, Turn};
use rand_core::Rng;

use crate::agent::Agent;
use crate::eval::net::Network;
use crate::eval::net::encode::{Encode, Encoding};
use crate::eval::net::mlp::{Activations, Mlp};
use crate::eval::terminal_value;
use crate::players::net::NetPlayer;
use crate::players::{AgentMaker, Playable, PreparedAgent};
use crate::rng::{below, derive_seed, rng_from_seed};
use crate::search::turn::GraphPool;
use crate::train::optim::{Adam, Gradient};
use crate::train::options::{CurvePoint, TrainError, TrainOptions, best_point, check};
use crate::train::samples::Sample;
use crate::train::selfplay::{game_rules, self_play_in};

/// The run's pool of `threads` threads.
pub(crate) fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, TrainError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| TrainError::Options(format!("cannot start {threads} threads: {e}")))
}

/// One pool of turn graphs for each of the run's threads, kept from batch to batch so that
/// self-play reuses the room its graphs have grown to.
pub(crate) fn graph_pools<S: Encode>(pool: &rayon::ThreadPool) -> Vec<Mutex<GraphPool<S>>> {
    (0..pool.current_num_threads())
        .map(|_| Mutex::default())
        .collect()
}

/// A training run in progress: the network, its optimiser and its curve. Saved whole as a
/// checkpoint, from which `Trainer::resume` goes on exactly as if never stopped.
pub struct Trainer<S: Encode> {
    /// The ruleset trained on.
    pub rules: S::Ruleset,
    /// The settings.
    pub options: TrainOptions,
    /// The network.
    pub mlp: Mlp,
    /// The encoding of its inputs: its ruleset's newest for a new run, the checkpoint's for a
    /// resumed one.
    pub encoding: Encoding,
    pub(crate) adam: Adam,
    /// Games played.
    pub games_done: u64,
    /// The learning curve so far.
    pub curve: Vec<CurvePoint>,
    /// Squared errors and states since the last curve point.
    pub(crate) loss_sum: f64,
    pub(crate) loss_count: u64,
    /// Seconds of earlier sessions of the run.
    pub(crate) seconds_before: f64,
    /// The run's threads, started once.
    pub(crate) pool: rayon::ThreadPool,
    /// Each thread's turn graphs ([`graph_pools`]).
    pub(crate) graphs: Vec<Mutex<GraphPool<S>>>,
    /// Where the step size changed ([`Trainer::set_rate`]): from which game, to what.
    pub(crate) rate_changes: Vec<RateChange>,
    /// The network the run started from ([`Trainer::from_network`]), as its metadata names
    /// it; `None` for a run from random weights.
    pub start: Option<String>,
}

/// A change of Adam's step size during a run: from game `games` on, `rate` instead of
/// `before`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RateChange {
    /// The games played before the change.
    pub games: u64,
    /// The step size until then.
    pub before: f32,
    /// The step size from there on.
    pub rate: f32,
}

/// What [`Trainer::step`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct StepReport {
    /// Games played in the batch.
    pub games: u64,
    /// States learnt.
    pub states: u64,
    /// Their mean squared TD error before the update.
    pub loss: f64,
    /// A new point of the curve, if one was due.
    pub point: Option<CurvePoint>,
    /// The network a new best point of the curve measured ([`best_point`]), with its score in
    /// the metadata key `curve_score`: what `qasab train` keeps as `STEM.best.safetensors`.
    pub best: Option<Network>,
}

impl<S: Encode + Playable> Trainer<S> {
    /// A fresh run: a network initialised from the seed.
    ///
    /// # Errors
    /// [`TrainError::Options`] for settings out of range.
    pub fn new(rules: S::Ruleset, options: TrainOptions) -> Result<Self, TrainError> {
        check(&options)?;
        let enc = if options.across {
            S::board_free_encoding(&rules).ok_or_else(|| {
                TrainError::Options(format!(
                    "--across: {} has no encoding that reads every board and reading (only the \
                     Tâb family's faithful rulesets have one)",
                    S::family(&rules)
                ))
            })?
        } else {
            S::encoding(&rules)
        };
        let mut init = rng_from_seed(derive_seed(options.seed, u64::MAX));
        let mlp = Mlp::new(enc.inputs, options.hidden[0], options.hidden[1], || {
            (init.next_u64() >> 40) as f32 / (1u64 << 24) as f32
        });
        Self::starting(rules, options, mlp, enc, None)
    }

    /// A fresh run that starts from the weights of a trained network (fine-tuning, the cheap
    /// way to a network of one reading: start from the preset's or the family's network and
    /// play that reading only). The network must read `rules`; it keeps its encoding and its
    /// layers' sizes (`options.hidden` is taken from it), and its optimiser starts afresh.
    /// `across` needs a board-free network.
    ///
    /// # Errors
    /// [`TrainError::Net`] if the network does not read `rules`; [`TrainError::Options`] for
    /// settings out of range.
    pub fn from_network(
        rules: S::Ruleset,
        mut options: TrainOptions,
        start: &Network,
    ) -> Result<Self, TrainError> {
        start.fits::<S>(&rules)?;
        if options.across && S::board_free_encoding(&rules) != Some(start.encoding) {
            return Err(TrainError::Options(format!(
                "--across needs a network on the encoding that reads every board and reading; \
                 this one is on {}",
                start.encoding.name
            )));
        }
        options.hidden = [start.mlp.fc1.outputs, start.mlp.fc2.outputs];
        check(&options)?;
        let name = [
            start.metadata.get("ruleset").cloned(),
            start.metadata.get("games").map(|g| format!("{g} games")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
        let name = if name.is_empty() {
            format!("a {} network", start.family)
        } else {
            format!("{} ({name})", start.encoding.name)
        };
        Self::starting(
            rules,
            options,
            start.mlp.clone(),
            start.encoding,
            Some(name),
        )
    }

    /// A run at game 0 with these weights.
    fn starting(
        rules: S::Ruleset,
        options: TrainOptions,
        mlp: Mlp,
        encoding: Encoding,
        start: Option<String>,
    ) -> Result<Self, TrainError> {
        let adam = Adam::new(&mlp, options.rate);
        let pool = thread_pool(options.threads)?;
        Ok(Trainer {
            rules,
            options,
            mlp,
            encoding,
            adam,
            games_done: 0,
            curve: Vec::new(),
            loss_sum: 0.0,
            loss_count: 0,
            seconds_before: 0.0,
            graphs: graph_pools(&pool),
            pool,
            rate_changes: Vec::new(),
            start,
        })
    }

    /// Changes Adam's step size from the next batch on, as a schedule that lowers the rate
    /// late in a run does; the optimiser's moments are kept. The change is recorded in the
    /// checkpoint and in the network's metadata (`rate_schedule`), and a run resumed from a
    /// checkpoint taken after it goes on with the new rate.
    ///
    /// # Errors
    /// [`TrainError::Options`] if `rate` is not between 0 and 1.
    pub fn set_rate(&mut self, rate: f32) -> Result<(), TrainError> {
        check(&TrainOptions {
            rate,
            ..self.options.clone()
        })?;
        if rate != self.options.rate {
            self.rate_changes.push(RateChange {
                games: self.games_done,
                before: self.options.rate,
                rate,
            });
            self.options.rate = rate;
            self.adam.rate = rate;
        }
        Ok(())
    }

    /// The step size's changes so far, in order ([`Trainer::set_rate`]).
    pub fn rate_changes(&self) -> &[RateChange] {
        &self.rate_changes
    }

    /// Whether every game of the run has been played.
    pub fn finished(&self) -> bool {
        self.games_done >= self.options.games
    }

    /// Plays the next batch of games and learns from it; adds a curve point when one is due
    /// (and at the start of a run). `started` is when this session of the run began.
    pub fn step(&mut self, started: std::time::Instant) -> StepReport {
        let (first, n) = self.next_batch();
        let (mlp, enc) = (&self.mlp, self.encoding);
        let rules = &self.rules;
        let (seed, lambda, across) = (self.options.seed, self.options.lambda, self.options.across);
        let graphs = &self.graphs;
        let games: Vec<Vec<Sample>> = self.pool().install(|| {
            use rayon::prelude::*;
            (first..first + n)
                .into_par_iter()
                .map(|g| {
                    let rules = game_rules::<S>(rules, seed, across, g);
                    let worker = rayon::current_thread_index().unwrap_or(0) % graphs.len();
                    // A poisoned pool holds graphs as good as any: a graph is rebuilt whole.
                    let mut pool = graphs[worker].lock().unwrap_or_else(|e| e.into_inner());
                    self_play_in::<S>(mlp, enc, &rules, derive_seed(seed, g), lambda, &mut pool).0
                })
                .collect()
        });
        self.learn(games, started)
            .expect("the batch's games, played here")
    }

    /// The games of the next batch, `(first, count)`: self-play games `first .. first + count`
    /// of the run ([`self_play_games`](crate::train::selfplay::self_play_games) plays them, anywhere, with [`Trainer::network`]'s
    /// weights), which [`Trainer::learn`] then takes. `count` is 0 once the run is finished.
    pub fn next_batch(&self) -> (u64, u64) {
        let first = self.games_done;
        (
            first,
            self.options
                .batch
                .min(self.options.games.saturating_sub(first)),
        )
    }

    /// Learns from the next batch's games ([`Trainer::next_batch`], played by the network as
    /// it stands, in order), as [`Trainer::step`] does after playing them: the same weights
    /// whoever played the games. Adds a curve point when one is due (and at the start of a
    /// run). `started` is when this session of the run began.
    ///
    /// # Errors
    /// [`TrainError::Options`] if `games` are not as many as the batch's, or their inputs are
    /// not the size of the network's (games of another ruleset or encoding).
    pub fn learn(
        &mut self,
        games: Vec<Vec<Sample>>,
        started: std::time::Instant,
    ) -> Result<StepReport, TrainError> {
        let (first, n) = self.next_batch();
        if games.len() as u64 != n {
            return Err(TrainError::Options(format!(
                "the batch of games {first}..{} has {n} games; {} were given",
                first + n,
                games.len()
            )));
        }
        let inputs = self.mlp.inputs();
        if let Some(s) = games.iter().flatten().find(|s| s.features.size() != inputs) {
            return Err(TrainError::Options(format!(
                "the batch's games have {} inputs a state, but the network of {} takes {inputs}: \
                 games of another ruleset?",
                s.features.size(),
                self.rules
            )));
        }
        let (mut point, mut best) = (None, None);
        if self.games_done == 0 && self.curve.is_empty() && self.options.curve_every > 0 {
            point = Some(self.curve_point(started));
            best = self.network_if_best();
        }
        let seed = self.options.seed;
        let mut samples: Vec<Sample> = games.into_iter().flatten().collect();
        // Shuffle (Fisher–Yates) with the batch's own stream.
        let mut rng = rng_from_seed(derive_seed(derive_seed(seed, u64::MAX - 1), first));
        for i in (1..samples.len()).rev() {
            samples.swap(i, below(&mut rng, i + 1));
        }
        let mut grad = Gradient::zeros(&self.mlp);
        let mut act = Activations::default();
        let mut sq = 0.0f64;
        for chunk in samples.chunks(self.options.minibatch) {
            for s in chunk {
                self.mlp.forward(&s.features, &mut act);
                sq += f64::from(self.mlp.backward(&s.features, &act, s.target, &mut grad));
            }
            self.adam.step(&mut self.mlp, &mut grad);
        }
        self.games_done += n;
        let states = samples.len() as u64;
        self.loss_sum += sq;
        self.loss_count += states;
        let every = self.options.curve_every;
        // A point when the games pass a multiple of `every` (batches need not divide it).
        if every > 0 && (self.games_done / every > first / every || self.finished()) {
            point = Some(self.curve_point(started));
            best = self.network_if_best().or(best);
        }
        Ok(StepReport {
            games: n,
            states,
            loss: if states > 0 { sq / states as f64 } else { 0.0 },
            point,
            best,
        })
    }

    /// The network as it stands, with its score, if the curve's last point (which measured
    /// it) is the curve's best: runs peak and then weaken (docs/training.md).
    fn network_if_best(&self) -> Option<Network> {
        let last = self.curve.len().checked_sub(1)?;
        (best_point(&self.curve) == Some(last)).then(|| {
            let mut net = self.network();
            net.metadata.insert(
                "curve_score".into(),
                format!("{:.4}", self.curve[last].score),
            );
            net
        })
    }

    fn pool(&self) -> &rayon::ThreadPool {
        &self.pool
    }

    /// Measures the network against `greedy` and records the point.
    fn curve_point(&mut self, started: std::time::Instant) -> CurvePoint {
        let score = self.score_against("greedy", self.options.curve_pairs, self.options.seed);
        let point = CurvePoint {
            games: self.games_done,
            score,
            match_games: 2 * self.options.curve_pairs,
            loss: (self.loss_count > 0).then(|| self.loss_sum / self.loss_count as f64),
            seconds: self.seconds_before + started.elapsed().as_secs_f64(),
        };
        self.loss_sum = 0.0;
        self.loss_count = 0;
        self.curve.push(point.clone());
        point
    }

    /// The network's score against `opponent` over `pairs` game pairs with paired throws,
    /// from seed `seed` (the same throws at every point of a run).
    pub fn score_against(&self, opponent: &str, pairs: u64, seed: u64) -> f64 {
        let Ok(other) = PreparedAgent::<S>::new(opponent, &self.rules) else {
            return f64::NAN;
        };
        let (mlp, enc) = (Arc::new(self.mlp.clone()), self.encoding);
        let me: AgentMaker<S> = Arc::new(move |seed| {
            Box::new(NetPlayer::<S>::new(mlp.clone(), enc, "net", seed)) as Box<dyn Agent<S>>
        });
        let rules = &self.rules;
        let points: Vec<f64> = self.pool().install(|| {
            use rayon::prelude::*;
            (0..pairs)
                .into_par_iter()
                .map(|k| {
                    let seeds = crate::play::arena::PairSeeds::new(seed, [0, 1], [1, 2], k);
                    let ends = crate::play::arena::play_pair_to_end(
                        rules,
                        [&me, &other.maker],
                        &seeds,
                        |_, _, _| {},
                    );
                    ends.iter()
                        .zip([Player::One, Player::Two])
                        .map(|(end, seat)| match end.turn() {
                            Turn::Over(o) => (terminal_value(&o, seat) + 1.0) / 2.0,
                            _ => 0.5,
                        })
                        .sum::<f64>()
                })
                .collect()
        });
        points.iter().sum::<f64>() / (2 * pairs).max(1) as f64
    }

    /// The trained network, with what it was trained on in its metadata.
    pub fn network(&self) -> Network {
        let mut net = Network::for_rules::<S>(self.mlp.clone(), &self.rules, self.encoding);
        let o = &self.options;
        for (k, v) in [
            ("ruleset", self.rules.to_string()),
            ("games", self.games_done.to_string()),
            ("seed", o.seed.to_string()),
            ("lambda", o.lambda.to_string()),
            ("rate", o.rate.to_string()),
            ("batch", o.batch.to_string()),
            ("minibatch", o.minibatch.to_string()),
            ("method", "td-lambda-expected-chance".to_string()),
        ] {
            net.metadata.insert(k.into(), v);
        }
        if o.across {
            net.metadata.insert(
                crate::eval::net::ACROSS.into(),
                "boards and rule options".into(),
            );
        }
        if let Some(start) = &self.start {
            net.metadata.insert("start".into(), start.clone());
        }
        // The step size from each game on, `GAMES:RATE,…`, where it changed during the run.
        if let Some(first) = self.rate_changes.first() {
            let schedule = std::iter::once(format!("0:{}", first.before))
                .chain(
                    self.rate_changes
                        .iter()
                        .map(|c| format!("{}:{}", c.games, c.rate)),
                )
                .collect::<Vec<_>>()
                .join(",");
            net.metadata.insert("rate_schedule".into(), schedule);
        }
        net
    }
}
