//! Temporal-difference learning from self-play (`qasab train`).
//!
//! **Method.** TD(λ) on the network's own games, as TD-Gammon (Tesauro 1995), in the forward
//! view (λ-returns computed once a game is over) and with chance made explicit:
//!
//! * The states learnt are those before a throw (the chance states `s_0, s_1, …`). Their value
//!   for White is `v(s)`, the network's value for the player in turn, negated for Black.
//! * Both players choose as the `net` player does: every distinct end of the turn is
//!   enumerated ([`TurnGraph`]) and the best for the player in turn is played.
//! * The one-step target of `s_t` is exact over the throw: `E_t = Σ_k w_k U(s_t·k) / Σ w`,
//!   over the five throws with their integer weights, where `U` of the state after a throw is
//!   the exact result if the game is over, `v` if another throw follows, and the best end of
//!   the turn for the player in turn if he now moves (the value his choice would give).
//! * The λ-return follows the game actually played: `G_t = E_t + λ (G_{t+1} − v(s_{t+1}))`,
//!   and `G_t = E_t` for the last chance state. With λ = 0 this is expected TD(0); with λ = 1,
//!   the game's result with the expected one-step values as a control variate.
//!
//! **Batches.** Games are played in batches by the network as it stands at the batch's start,
//! on worker threads; the batch's states are then learnt in a shuffled order, in minibatches
//! with [`Adam`]. Every random choice is drawn from a stream derived from the run's seed and
//! the game's or batch's number, so the weights depend on the seed and the settings, not on
//! the threads.
//!
//! **Curve.** Every `curve_every` games the network plays `greedy` on a fixed set of paired
//! throws ([`crate::play::arena::play_pair_to_end`]); the score and the batch losses since the last
//! point make one point of the learning curve.

pub mod any;
pub mod fit;

use std::sync::Arc;

use qasab_core::{Player, Ruleset, Turn, Weighted};
use rand_core::Rng;

use crate::agent::Agent;
use crate::eval::net::encode::{Encode, Encoding, Features};
use crate::eval::net::mlp::{Activations, Adam, Gradient, Mlp};
use crate::eval::net::{NetError, Network};
use crate::eval::terminal_value;
use crate::players::net::NetPlayer;
use crate::players::{AgentMaker, Playable, PreparedAgent};
use crate::rng::{below, derive_seed, pick_weighted, rng_from_seed};
use crate::search::net_choice::{choose, one_step, turn_values, value_for_one};
use crate::search::turn::{TurnGraph, best_moves, follow};

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

/// A state before a throw, with what learning needs of it.
struct ChanceState {
    features: Features,
    /// +1 if the features describe White's side, −1 for Black's.
    sign: f32,
    /// The network's value for White.
    value: f32,
    /// The expected one-step target for White.
    expected: f32,
}

/// A state learnt: its inputs and its target for the side they describe.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The inputs.
    pub features: Features,
    /// The λ-return, for the side the inputs describe.
    pub target: f32,
    /// The side the inputs describe.
    pub us: Player,
}

/// A turn's graph with the value of each end for the player in turn.
type Valued<S> = (TurnGraph<S>, Vec<f64>);

/// `U` of the module docs: the value for White of the state just after a throw, with the
/// turn's graph and end values when the player in turn now moves (for the choice, if this is
/// the throw drawn).
fn after_throw<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    state: &S,
    f: &mut Features,
) -> (f32, Option<Valued<S>>) {
    match state.turn() {
        Turn::Over(o) => (terminal_value(&o, Player::One) as f32, None),
        Turn::Chance => (value_for_one(mlp, enc, state, f), None),
        Turn::Player(p) => {
            let sign = if p == Player::One { 1.0 } else { -1.0 };
            let best = |vals: &mut dyn Iterator<Item = f64>| vals.fold(f64::NEG_INFINITY, f64::max);
            match turn_values(mlp, enc, state) {
                Some((g, values)) => {
                    let b = best(&mut values.iter().copied());
                    (sign * b as f32, Some((g, values)))
                }
                None => {
                    let b = best(&mut one_step(mlp, enc, state).into_iter().map(|(_, v)| v));
                    (sign * b as f32, None)
                }
            }
        }
    }
}

/// Plays one self-play game from `seed` and returns its learnt states with their λ-returns,
/// and the finished game.
pub fn self_play<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    rules: &S::Ruleset,
    seed: u64,
    lambda: f32,
) -> (Vec<Sample>, S) {
    let (samples, _, end) = self_play_kept(mlp, enc, rules, seed, lambda, false);
    (samples, end)
}

/// [`self_play`], also returning the learnt states themselves (in the order of the samples)
/// when `keep` is set: for exporting training data.
pub fn self_play_kept<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    rules: &S::Ruleset,
    seed: u64,
    lambda: f32,
    keep: bool,
) -> (Vec<Sample>, Vec<S>, S) {
    let mut kept = Vec::new();
    let mut rng = rng_from_seed(seed);
    let mut state = rules.initial_state();
    let mut f = Features::default();
    let mut chances: Vec<ChanceState> = Vec::new();
    let mut outs: Vec<Weighted<S::Chance>> = Vec::new();
    let mut plan: Vec<(S, S::Move)> = Vec::new();
    loop {
        match state.turn() {
            Turn::Over(_) => break,
            Turn::Chance => {
                let total = state.chance_outcomes(&mut outs);
                let mut expected = 0.0f64;
                let mut graphs = Vec::with_capacity(outs.len());
                for o in &outs {
                    let mut c = state.clone();
                    c.apply_chance_unchecked(o.outcome);
                    let (u, graph) = after_throw(mlp, enc, &c, &mut f);
                    expected += f64::from(o.weight) * f64::from(u);
                    graphs.push(graph);
                }
                let mut features = Features::default();
                let us = Encode::encode(&state, enc, &mut features);
                if keep {
                    kept.push(state.clone());
                }
                let v = mlp.value(&features);
                let sign = if us == Player::One { 1.0 } else { -1.0 };
                chances.push(ChanceState {
                    features,
                    sign,
                    value: sign * v,
                    expected: (expected / f64::from(total)) as f32,
                });
                let k = pick_weighted(&mut rng, outs.iter().map(|o| o.weight));
                state.apply_chance_unchecked(outs[k].outcome);
                // The drawn throw's turn is already valued: choose from it as `choose` would.
                if let Some((g, values)) = graphs[k].take() {
                    let best = best_moves(&g.root_values(&values));
                    let first = best[below(&mut rng, best.len())];
                    plan = g.best_line(&values, first);
                }
            }
            Turn::Player(_) => {
                let m = match follow(&mut plan, &state) {
                    Some(m) => m,
                    None => {
                        let (m, rest) = choose(mlp, enc, &state, &mut rng);
                        plan = rest;
                        m
                    }
                };
                state.play_unchecked(m);
            }
        }
    }
    (lambda_returns(chances, lambda), kept, state)
}

/// The training data of `games` self-play games of `mlp` from `seed` (game `g` from
/// `derive_seed(seed, g)`, as in a run), on `threads` threads: per game, each learnt state
/// with its sample. For researchers who train their own models on Qasab's games.
pub fn training_data<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    rules: &S::Ruleset,
    games: u64,
    seed: u64,
    lambda: f32,
    threads: usize,
) -> Vec<Vec<(S, Sample)>> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|g| {
                let (samples, states, _) =
                    self_play_kept(mlp, enc, rules, derive_seed(seed, g), lambda, true);
                states.into_iter().zip(samples).collect()
            })
            .collect()
    })
}

/// Self-play games `games` of a run with seed `seed` (game `g` from `derive_seed(seed, g)`, as
/// [`Trainer::step`] plays it) by the network `mlp`, on the calling thread: each game's learnt
/// states with their λ-returns. A worker's part of a batch ([`Trainer::next_batch`]).
pub fn self_play_games<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    rules: &S::Ruleset,
    seed: u64,
    lambda: f32,
    games: std::ops::Range<u64>,
) -> Vec<Vec<Sample>> {
    games
        .map(|g| self_play::<S>(mlp, enc, rules, derive_seed(seed, g), lambda).0)
        .collect()
}

/// Games of samples ([`self_play_games`]) as bytes, to send to the learner: every number
/// little-endian, `f32` bit for bit. Per game its number of samples (`u32`), then per sample
/// its inputs' size and number of non-zero inputs (`u32` each), each non-zero input's index
/// (`u32`) and value (`f32`), the target (`f32`) and the side (`u8`, 0 for the first seat).
pub fn samples_to_bytes(games: &[Vec<Sample>]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    for game in games {
        out.extend_from_slice(&(game.len() as u32).to_le_bytes());
        for s in game {
            let active = s.features.active();
            out.extend_from_slice(&(s.features.size() as u32).to_le_bytes());
            out.extend_from_slice(&(active.len() as u32).to_le_bytes());
            for &(i, v) in active {
                out.extend_from_slice(&i.to_le_bytes());
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&s.target.to_le_bytes());
            out.push(s.us.index() as u8);
        }
    }
    out
}

/// Games of samples back from [`samples_to_bytes`].
///
/// # Errors
/// [`TrainError::Options`] for bytes that are not games of samples.
pub fn samples_from_bytes(bytes: &[u8]) -> Result<Vec<Vec<Sample>>, TrainError> {
    let bad = || TrainError::Options("the self-play games' bytes are cut short or corrupt".into());
    let mut at = 0usize;
    let word = |at: &mut usize| -> Result<[u8; 4], TrainError> {
        let w = bytes.get(*at..*at + 4).ok_or_else(bad)?;
        *at += 4;
        Ok(w.try_into().expect("four bytes"))
    };
    let games = u32::from_le_bytes(word(&mut at)?);
    let mut out = Vec::new();
    for _ in 0..games {
        let n = u32::from_le_bytes(word(&mut at)?);
        let mut game = Vec::new();
        for _ in 0..n {
            let size = u32::from_le_bytes(word(&mut at)?) as usize;
            let active = u32::from_le_bytes(word(&mut at)?);
            let mut features = Features::new(size);
            for _ in 0..active {
                let i = u32::from_le_bytes(word(&mut at)?);
                let v = f32::from_le_bytes(word(&mut at)?);
                if i as usize >= size {
                    return Err(bad());
                }
                features.push(i, v);
            }
            let target = f32::from_le_bytes(word(&mut at)?);
            let us = match bytes.get(at) {
                Some(0) => Player::One,
                Some(1) => Player::Two,
                _ => return Err(bad()),
            };
            at += 1;
            game.push(Sample {
                features,
                target,
                us,
            });
        }
        out.push(game);
    }
    if at != bytes.len() {
        return Err(bad());
    }
    Ok(out)
}

/// The run's pool of `threads` threads.
fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, TrainError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| TrainError::Options(format!("cannot start {threads} threads: {e}")))
}

/// The λ-returns of a game's chance states, backwards from the last ([module docs](self)).
fn lambda_returns(chances: Vec<ChanceState>, lambda: f32) -> Vec<Sample> {
    let mut out = Vec::with_capacity(chances.len());
    let mut next: Option<(f32, f32)> = None; // (G, v) of the next chance state
    for c in chances.into_iter().rev() {
        let g = match next {
            Some((g1, v1)) => c.expected + lambda * (g1 - v1),
            None => c.expected,
        }
        .clamp(-1.0, 1.0);
        next = Some((g, c.value));
        out.push(Sample {
            target: c.sign * g,
            us: if c.sign > 0.0 {
                Player::One
            } else {
                Player::Two
            },
            features: c.features,
        });
    }
    out.reverse();
    out
}

/// A training run in progress: the network, its optimiser and its curve. Saved whole as a
/// checkpoint, from which [`Trainer::resume`] goes on exactly as if never stopped.
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
    adam: Adam,
    /// Games played.
    pub games_done: u64,
    /// The learning curve so far.
    pub curve: Vec<CurvePoint>,
    /// Squared errors and states since the last curve point.
    loss_sum: f64,
    loss_count: u64,
    /// Seconds of earlier sessions of the run.
    seconds_before: f64,
    /// The run's threads, started once.
    pool: rayon::ThreadPool,
    /// Where the step size changed ([`Trainer::set_rate`]): from which game, to what.
    rate_changes: Vec<RateChange>,
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
        let enc = S::encoding(&rules);
        let mut init = rng_from_seed(derive_seed(options.seed, u64::MAX));
        let mlp = Mlp::new(enc.inputs, options.hidden[0], options.hidden[1], || {
            (init.next_u64() >> 40) as f32 / (1u64 << 24) as f32
        });
        let adam = Adam::new(&mlp, options.rate);
        let pool = thread_pool(options.threads)?;
        Ok(Trainer {
            rules,
            options,
            mlp,
            encoding: enc,
            adam,
            games_done: 0,
            curve: Vec::new(),
            loss_sum: 0.0,
            loss_count: 0,
            seconds_before: 0.0,
            pool,
            rate_changes: Vec::new(),
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
        let (seed, lambda) = (self.options.seed, self.options.lambda);
        let games: Vec<Vec<Sample>> = self.pool().install(|| {
            use rayon::prelude::*;
            (first..first + n)
                .into_par_iter()
                .map(|g| self_play::<S>(mlp, enc, rules, derive_seed(seed, g), lambda).0)
                .collect()
        });
        self.learn(games, started)
            .expect("the batch's games, played here")
    }

    /// The games of the next batch, `(first, count)`: self-play games `first .. first + count`
    /// of the run ([`self_play_games`] plays them, anywhere, with [`Trainer::network`]'s
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
        let mut net = Network::new(self.mlp.clone(), S::family(&self.rules), self.encoding);
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

/// Checks the settings of a run.
fn check(o: &TrainOptions) -> Result<(), TrainError> {
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
    if o.hidden
        .iter()
        .any(|&h| h == 0 || h > crate::eval::net::mlp::MAX_HIDDEN)
    {
        return bad(format!(
            "hidden layers of 1 to {} units, not {:?}",
            crate::eval::net::mlp::MAX_HIDDEN,
            o.hidden
        ));
    }
    if o.threads > crate::play::arena::MAX_THREADS {
        return bad(format!(
            "--threads {} is above {}",
            o.threads,
            crate::play::arena::MAX_THREADS
        ));
    }
    Ok(())
}

/// The part of a checkpoint that is not a tensor, kept as JSON in its metadata.
#[derive(serde::Serialize, serde::Deserialize)]
struct CheckpointMeta {
    ruleset: String,
    games: u64,
    seed: u64,
    batch: u64,
    lambda: f32,
    rate: f32,
    minibatch: usize,
    hidden: [usize; 2],
    curve_every: u64,
    curve_pairs: u64,
    games_done: u64,
    curve: Vec<CurvePoint>,
    loss_sum: f64,
    loss_count: u64,
    seconds: f64,
    adam_steps: u64,
    /// Absent from the checkpoints of runs whose rate never changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rate_changes: Vec<RateChange>,
}

impl<S: Encode + Playable> Trainer<S> {
    /// The run as a checkpoint file: the network, the optimiser's moments and the run's
    /// settings and curve (safetensors; the settings as JSON under the metadata key
    /// `checkpoint`). `seconds` is the run's time so far.
    pub fn checkpoint(&self, seconds: f64) -> Vec<u8> {
        let o = &self.options;
        let meta = CheckpointMeta {
            ruleset: self.rules.to_string(),
            games: o.games,
            seed: o.seed,
            batch: o.batch,
            lambda: o.lambda,
            rate: o.rate,
            minibatch: o.minibatch,
            hidden: o.hidden,
            curve_every: o.curve_every,
            curve_pairs: o.curve_pairs,
            games_done: self.games_done,
            curve: self.curve.clone(),
            loss_sum: self.loss_sum,
            loss_count: self.loss_count,
            seconds,
            adam_steps: self.adam.steps,
            rate_changes: self.rate_changes.clone(),
        };
        let net = self.network();
        let (m, v) = self.adam.moments();
        let mut tensors: Vec<(String, Vec<usize>, Vec<u8>)> = Vec::new();
        for (name, layer) in [
            ("fc1", &net.mlp.fc1),
            ("fc2", &net.mlp.fc2),
            ("out", &net.mlp.out),
        ] {
            tensors.push((
                format!("{name}.weight"),
                vec![layer.outputs, layer.inputs],
                crate::eval::net::le_bytes(&layer.weight),
            ));
            tensors.push((
                format!("{name}.bias"),
                vec![layer.outputs],
                crate::eval::net::le_bytes(&layer.bias),
            ));
        }
        for (k, (mk, vk)) in m.iter().zip(v).enumerate() {
            tensors.push((
                format!("adam.m.{k}"),
                vec![mk.len()],
                crate::eval::net::le_bytes(mk),
            ));
            tensors.push((
                format!("adam.v.{k}"),
                vec![vk.len()],
                crate::eval::net::le_bytes(vk),
            ));
        }
        let views = tensors.iter().map(|(n, shape, data)| {
            (
                n.clone(),
                safetensors::tensor::TensorView::new(safetensors::Dtype::F32, shape.clone(), data)
                    .expect("sizes agree"),
            )
        });
        let mut info = net.to_metadata();
        info.insert(
            "checkpoint".into(),
            serde_json::to_string(&meta).expect("plain data serialises"),
        );
        crate::eval::net::canonical(
            safetensors::serialize(views, Some(info)).expect("a checkpoint serialises"),
        )
    }

    /// Goes on with the run saved in `bytes` ([`Trainer::checkpoint`]) on `rules`, which must be
    /// the ruleset it was started on, up to `games` games in all and with `threads` threads.
    /// Returns the run and its time so far, in seconds.
    ///
    /// # Errors
    /// [`TrainError`] if the file is not a checkpoint of this ruleset.
    pub fn resume(
        rules: S::Ruleset,
        bytes: &[u8],
        games: Option<u64>,
        threads: usize,
    ) -> Result<(Self, f64), TrainError> {
        let net = Network::from_bytes(bytes)?;
        net.fits::<S>(&rules)?;
        let (_, header) = safetensors::SafeTensors::read_metadata(bytes)
            .map_err(|e| NetError::Format(e.to_string()))?;
        let text = header
            .metadata()
            .as_ref()
            .and_then(|m| m.get("checkpoint"))
            .ok_or_else(|| {
                NetError::Metadata("not a checkpoint (no \"checkpoint\" metadata): a trained network cannot be resumed, its checkpoint can".into())
            })?;
        let meta: CheckpointMeta = serde_json::from_str(text)
            .map_err(|e| NetError::Metadata(format!("the checkpoint's settings: {e}")))?;
        if meta.ruleset != rules.to_string() {
            return Err(TrainError::Options(format!(
                "the checkpoint is of {}, not {rules}",
                meta.ruleset
            )));
        }
        let tensors = safetensors::SafeTensors::deserialize(bytes)
            .map_err(|e| NetError::Format(e.to_string()))?;
        let slot = |name: String| -> Result<Vec<f32>, TrainError> {
            let t = tensors
                .tensor(&name)
                .map_err(|_| NetError::Tensor(format!("no tensor {name} in the checkpoint")))?;
            Ok(crate::eval::net::from_le_bytes(t.data()))
        };
        let m = (0..6)
            .map(|k| slot(format!("adam.m.{k}")))
            .collect::<Result<Vec<_>, _>>()?;
        let v = (0..6)
            .map(|k| slot(format!("adam.v.{k}")))
            .collect::<Result<Vec<_>, _>>()?;
        let adam =
            Adam::restore(&net.mlp, meta.rate, meta.adam_steps, m, v).map_err(NetError::Tensor)?;
        let options = TrainOptions {
            games: games.unwrap_or(meta.games),
            seed: meta.seed,
            threads,
            batch: meta.batch,
            lambda: meta.lambda,
            rate: meta.rate,
            minibatch: meta.minibatch,
            hidden: meta.hidden,
            curve_every: meta.curve_every,
            curve_pairs: meta.curve_pairs,
        };
        check(&options)?;
        let pool = thread_pool(options.threads)?;
        Ok((
            Trainer {
                rules,
                options,
                mlp: net.mlp,
                encoding: net.encoding,
                adam,
                games_done: meta.games_done,
                curve: meta.curve,
                loss_sum: meta.loss_sum,
                loss_count: meta.loss_count,
                seconds_before: meta.seconds,
                pool,
                rate_changes: meta.rate_changes,
            },
            meta.seconds,
        ))
    }
}
