//! Benchmarks: random playouts (games a second, nanoseconds an action) and a player's
//! decisions (time a decision, iterations and network evaluations a second).

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
    let mut game = 0;
    while out.len() < n {
        game += 1;
        let mut at_stop = None;
        to_mid_game(rules, &mut rng_from_seed(game), |s, stop| {
            if stop {
                at_stop = Some(s.clone());
            }
        });
        out.extend(at_stop);
    }
    out
}

/// Plays a random game of `rules` from `rng`, up to its decision number 40 + a number below
/// 80 drawn first, or to its end if it ends sooner; `decision(state, stop)` sees every
/// decision on the way, `stop` true at that last one.
fn to_mid_game<R: Ruleset>(
    rules: &R,
    rng: &mut GameRng,
    mut decision: impl FnMut(&R::State, bool),
) {
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    let mut s = rules.initial_state();
    let stop = 40 + below(rng, 80);
    let mut k = 0;
    loop {
        if let Turn::Player(_) = s.turn() {
            k += 1;
            decision(&s, k >= stop);
            if k >= stop {
                return;
            }
        }
        if !random_step(&mut s, rng, &mut moves, &mut outs) {
            return;
        }
    }
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

/// Decisions of `rules` for search benchmarks: from each of `n` random games seeded from
/// `seed`, the last decision with two legal moves or more met within the first 40 to 120
/// decisions (a drawn number), or before the end of a shorter game (a game with no such
/// decision gives none, and the next game is played). The same `rules`, `n` and `seed` give
/// the same positions on every machine.
pub fn decision_positions<R: Ruleset>(rules: &R, n: usize, seed: u64) -> Vec<R::State> {
    let mut out = Vec::new();
    let mut legal = Vec::new();
    // Enough games for any ruleset with a choice to make; a bound all the same.
    for game in 0..(100 * n as u64 + 100) {
        if out.len() >= n {
            break;
        }
        let mut last = None;
        to_mid_game(
            rules,
            &mut rng_from_seed(derive_seed(seed, game)),
            |s, _| {
                s.legal_moves(&mut legal);
                if legal.len() > 1 {
                    last = Some(s.clone());
                }
            },
        );
        out.extend(last);
    }
    out
}

/// The speed of a player's decisions on one ruleset, over a fixed set of positions
/// (`qasab bench --search`).
#[derive(Clone, Debug, Serialize)]
pub struct SearchBench {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// The player that decided, by its spec as given (`strongest` read as the ruleset's
    /// default).
    pub player: String,
    /// The search threads of each decision (the player's `threads=`; 1 for a player without).
    pub threads: usize,
    /// Decisions timed: one in each position, each by a fresh player.
    pub decisions: usize,
    /// The median time of a decision, in milliseconds.
    pub decision_ms_median: f64,
    /// The mean time of a decision, in milliseconds.
    pub decision_ms_mean: f64,
    /// The longest decision, in milliseconds.
    pub decision_ms_max: f64,
    /// Search iterations a second over all the decisions, for a player that searches by
    /// iterations (`mcts`); `None` for the others.
    pub iterations_per_second: Option<f64>,
    /// Iterations a decision, on the same terms.
    pub iterations_per_decision: Option<f64>,
    /// Nodes the search graphs held at the end of a decision, on the same terms.
    pub nodes_per_decision: Option<f64>,
    /// States valued by a network a second over all the decisions (0 for a player without
    /// one).
    pub network_evaluations_per_second: f64,
}

/// Times one decision of the player of `spec` in each of `positions` of `rules`, each by a
/// fresh player seeded with `derive_seed(seed, i)` for position `i`, one after another: what
/// a person waits for each, and what the search did in that time. The counts of network
/// evaluations are the process's ([`crate::eval::net::evaluations`]): run nothing else that
/// evaluates while measuring.
///
/// # Errors
/// The player's, for a spec it refuses or cannot prepare for `rules`.
pub fn bench_search<R: Ruleset>(
    rules: &R,
    spec: &str,
    positions: &[R::State],
    seed: u64,
) -> Result<SearchBench, crate::spec::AgentError>
where
    R::State: crate::players::Playable,
{
    use crate::eval::net::evaluations;
    let prepared = crate::players::PreparedAgent::<R::State>::new(spec, rules)?;
    let threads = prepared
        .spec
        .get("threads")
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    let mut times = Vec::with_capacity(positions.len());
    let mut searched: Option<(u64, u64)> = Some((0, 0));
    evaluations::count(true);
    for (i, s) in positions.iter().enumerate() {
        let mut agent = prepared.make(derive_seed(seed, i as u64));
        let t = Instant::now();
        std::hint::black_box(agent.choose(s));
        times.push(t.elapsed().as_secs_f64());
        searched = match (searched, agent.last_search()) {
            (Some((it, nodes)), Some(c)) => Some((it + c.iterations, nodes + c.nodes)),
            _ => None,
        };
    }
    let evaluated = evaluations::count(false);
    let n = times.len().max(1) as f64;
    let spent: f64 = times.iter().sum();
    times.sort_by(f64::total_cmp);
    let median = match times.len() {
        0 => 0.0,
        k if k % 2 == 1 => times[k / 2],
        k => (times[k / 2 - 1] + times[k / 2]) / 2.0,
    };
    let per_second = |count: u64| {
        if spent > 0.0 {
            count as f64 / spent
        } else {
            0.0
        }
    };
    Ok(SearchBench {
        ruleset: rules.to_string(),
        player: prepared.spec.to_string(),
        threads,
        decisions: times.len(),
        decision_ms_median: median * 1000.0,
        decision_ms_mean: spent / n * 1000.0,
        decision_ms_max: times.last().copied().unwrap_or(0.0) * 1000.0,
        iterations_per_second: searched.map(|(it, _)| per_second(it)),
        iterations_per_decision: searched.map(|(it, _)| it as f64 / n),
        nodes_per_decision: searched.map(|(_, nodes)| nodes as f64 / n),
        network_evaluations_per_second: per_second(evaluated),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use qasab_core::{tab, tihbat};

    #[test]
    fn decision_positions_are_seeded_choices() {
        let rules = tab::Ruleset::default();
        let a = decision_positions(&rules, 5, 3);
        assert_eq!(a.len(), 5);
        let ids = |v: &[tab::State]| v.iter().map(|s| s.position_id()).collect::<Vec<_>>();
        assert_eq!(ids(&a), ids(&decision_positions(&rules, 5, 3)));
        assert_ne!(ids(&a), ids(&decision_positions(&rules, 5, 4)));
        let mut legal = Vec::new();
        for s in &a {
            assert!(s.turn().player().is_some());
            s.legal_moves(&mut legal);
            assert!(legal.len() > 1);
        }
        // A game shorter than 40 decisions gives its last choice.
        let small = tihbat::Ruleset::with_seeds(2);
        assert_eq!(decision_positions(&small, 4, 0).len(), 4);
    }

    #[test]
    fn a_search_bench_counts_what_the_search_did() {
        let rules = tab::Ruleset::default();
        let positions = decision_positions(&rules, 2, 0);
        let b = bench_search(&rules, "mcts(iterations=250,eval=net)", &positions, 1).unwrap();
        assert_eq!(b.player, "mcts(iterations=250,eval=net)");
        assert_eq!((b.threads, b.decisions), (1, 2));
        assert_eq!(b.iterations_per_decision, Some(250.0));
        assert!(b.nodes_per_decision.unwrap() > 1.0);
        assert!(b.iterations_per_second.unwrap() > 0.0);
        // Other tests may evaluate at the same time: the count is at least this search's.
        assert!(b.network_evaluations_per_second > 0.0);
        assert!(b.decision_ms_max >= b.decision_ms_median && b.decision_ms_median > 0.0);
        let g = bench_search(&rules, "greedy", &positions, 1).unwrap();
        assert_eq!(
            (g.iterations_per_second, g.nodes_per_decision),
            (None, None)
        );
        assert!(bench_search(&rules, "wizard", &positions, 1).is_err());
    }
}
