//! Self-play: the network's games against itself, and the states they teach with their
//! targets (the method is in the `train` module's docs).

use qasab_core::{Player, Ruleset, Turn, Weighted};

use crate::eval::net::encode::{Encode, Encoding, Features};
use crate::eval::net::mlp::Mlp;
use crate::eval::terminal_value;
use crate::rng::{below, derive_seed, pick_weighted, rng_from_seed};
use crate::search::net_choice::{choose, one_step, turn_values, value_for_one};
use crate::search::turn::{GraphPool, TurnGraph, best_moves, follow};
use crate::train::samples::Sample;
use crate::train::targets::{ChanceState, lambda_returns};

/// A turn's graph with the value of each end for the player in turn.
type Valued<S> = (TurnGraph<S>, Vec<f64>);

/// `U` of the `train` module's docs: the value for White of the state just after a throw,
/// with the turn's graph and end values when the player in turn now moves (for the choice, if
/// this is the throw drawn).
fn after_throw<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    state: &S,
    f: &mut Features,
    pool: &mut GraphPool<S>,
) -> (f32, Option<Valued<S>>) {
    match state.turn() {
        Turn::Over(o) => (terminal_value(&o, Player::One) as f32, None),
        Turn::Chance => (value_for_one(mlp, enc, state, f), None),
        Turn::Player(p) => {
            let sign = if p == Player::One { 1.0 } else { -1.0 };
            let best = |vals: &mut dyn Iterator<Item = f64>| vals.fold(f64::NEG_INFINITY, f64::max);
            match turn_values(mlp, enc, state, pool) {
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
    self_play_in(mlp, enc, rules, seed, lambda, &mut GraphPool::default())
}

/// [`self_play`] expanding its turns in graphs from `pool`: the same game, with less copying
/// when the pool has served games before.
pub fn self_play_in<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    rules: &S::Ruleset,
    seed: u64,
    lambda: f32,
    pool: &mut GraphPool<S>,
) -> (Vec<Sample>, S) {
    let (samples, _, end) = play(mlp, enc, rules, seed, lambda, false, pool);
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
    play(
        mlp,
        enc,
        rules,
        seed,
        lambda,
        keep,
        &mut GraphPool::default(),
    )
}

/// [`self_play_kept`] with its turn graphs from `pool`.
fn play<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    rules: &S::Ruleset,
    seed: u64,
    lambda: f32,
    keep: bool,
    pool: &mut GraphPool<S>,
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
                    let (u, graph) = after_throw(mlp, enc, &c, &mut f, pool);
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
                    pool.give(g);
                }
                for (g, _) in graphs.into_iter().flatten() {
                    pool.give(g);
                }
            }
            Turn::Player(_) => {
                let m = match follow(&mut plan, &state) {
                    Some(m) => m,
                    None => {
                        let (m, rest) = choose(mlp, enc, &state, &mut rng, pool);
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
            .map_init(GraphPool::default, |pool, g| {
                let (samples, states, _) =
                    play(mlp, enc, rules, derive_seed(seed, g), lambda, true, pool);
                states.into_iter().zip(samples).collect()
            })
            .collect()
    })
}

/// Self-play games `games` of a run with seed `seed` (game `g` from `derive_seed(seed, g)`, as
/// `Trainer::step` plays it) by the network `mlp`, on the calling thread: each game's learnt
/// states with their λ-returns. A worker's part of a batch (`Trainer::next_batch`). With
/// `across`, game `g` plays the reading [`game_rules`] draws for it.
pub fn self_play_games<S: Encode>(
    mlp: &Mlp,
    enc: Encoding,
    rules: &S::Ruleset,
    seed: u64,
    lambda: f32,
    across: bool,
    games: std::ops::Range<u64>,
) -> Vec<Vec<Sample>> {
    let mut pool = GraphPool::default();
    games
        .map(|g| {
            let rules = game_rules::<S>(rules, seed, across, g);
            self_play_in::<S>(mlp, enc, &rules, derive_seed(seed, g), lambda, &mut pool).0
        })
        .collect()
}

/// The ruleset self-play game `g` of a run plays: the run's, or with `across` the reading
/// drawn for it ([`crate::train::readings::reading`]).
pub fn game_rules<S: Encode>(rules: &S::Ruleset, seed: u64, across: bool, g: u64) -> S::Ruleset {
    if across {
        crate::train::readings::reading(rules, seed, g)
    } else {
        rules.clone()
    }
}
