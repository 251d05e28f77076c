//! Playout benchmarks: random games per second and nanoseconds per action.

use std::time::{Duration, Instant};

use qasab_core::{GameState, Ruleset, Turn};
use rayon::prelude::*;
use serde::Serialize;

use crate::rng::{GameRng, below, derive_seed, pick_weighted, rng_from_seed};

/// One random playout from the initial state; returns the number of actions.
///
/// The loop reuses its buffers, so it does not allocate per action.
#[inline]
pub fn random_playout<R: Ruleset>(
    rules: &R,
    rng: &mut GameRng,
    moves: &mut Vec<<R::State as GameState>::Move>,
    outs: &mut Vec<qasab_core::Weighted<<R::State as GameState>::Chance>>,
) -> u32 {
    let mut s = rules.initial_state();
    while random_step(&mut s, rng, moves, outs) {}
    s.actions()
}

/// Mid-game decision positions of `rules`, for benchmarks: from each of `n` seeded random
/// games (seeds 1, 2, …), the decision met after 40 to 120 decisions (games that end sooner
/// give none).
pub fn mid_game_positions<R: Ruleset>(rules: &R, n: usize) -> Vec<R::State> {
    let mut out = Vec::new();
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    let mut game = 0;
    while out.len() < n {
        game += 1;
        let mut rng = rng_from_seed(game);
        let mut s = rules.initial_state();
        let stop = 40 + below(&mut rng, 80);
        let mut k = 0;
        loop {
            if let Turn::Player(_) = s.turn() {
                k += 1;
                if k >= stop {
                    out.push(s);
                    break;
                }
            }
            if !random_step(&mut s, &mut rng, &mut moves, &mut outs) {
                break;
            }
        }
    }
    out
}

/// Plays one random action on `s`: a uniformly random legal move, or a chance outcome drawn
/// by its weight; false, doing nothing, if the game is over. `moves` and `outs` are scratch.
#[inline]
pub fn random_step<S: GameState>(
    s: &mut S,
    rng: &mut GameRng,
    moves: &mut Vec<S::Move>,
    outs: &mut Vec<qasab_core::Weighted<S::Chance>>,
) -> bool {
    match s.turn() {
        Turn::Over(_) => return false,
        Turn::Player(_) => s.play_picked(moves, |n| below(rng, n)),
        Turn::Chance => {
            s.apply_picked_chance(outs, |w| pick_weighted(rng, w.iter().map(|w| w.weight)))
        }
    }
    true
}

/// Playout speed of one ruleset.
#[derive(Clone, Debug, Serialize)]
pub struct PlayoutBench {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// Random playouts per second on one thread.
    pub playouts_per_second: f64,
    /// Random playouts per second on all threads.
    pub playouts_per_second_all_threads: f64,
    /// Threads used for the second figure.
    pub threads: usize,
    /// Nanoseconds per action on one thread.
    pub ns_per_action: f64,
    /// Mean actions per playout.
    pub mean_actions: f64,
    /// Playouts measured on one thread.
    pub playouts: u64,
}

fn run_for<R: Ruleset>(rules: &R, seed: u64, min_time: Duration) -> (u64, u64, f64) {
    let mut rng = rng_from_seed(seed);
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    let start = Instant::now();
    let (mut games, mut actions) = (0u64, 0u64);
    loop {
        for _ in 0..64 {
            actions += u64::from(random_playout(rules, &mut rng, &mut moves, &mut outs));
            games += 1;
        }
        let t = start.elapsed();
        if t >= min_time {
            return (games, actions, t.as_secs_f64());
        }
    }
}

/// Measures random playouts for at least `min_time` on one thread, then on all threads.
pub fn bench_playouts<R: Ruleset>(rules: &R, seed: u64, min_time: Duration) -> PlayoutBench {
    let (games, actions, secs) = run_for(rules, seed, min_time);
    let threads = rayon::current_num_threads();
    let start = Instant::now();
    let per_thread: Vec<(u64, u64, f64)> = (0..threads)
        .into_par_iter()
        .map(|i| run_for(rules, derive_seed(seed, i as u64 + 1), min_time))
        .collect();
    let wall = start.elapsed().as_secs_f64();
    let all_games: u64 = per_thread.iter().map(|r| r.0).sum();
    PlayoutBench {
        ruleset: rules.to_string(),
        playouts_per_second: games as f64 / secs,
        playouts_per_second_all_threads: all_games as f64 / wall,
        threads,
        ns_per_action: secs * 1e9 / actions as f64,
        mean_actions: actions as f64 / games as f64,
        playouts: games,
    }
}
