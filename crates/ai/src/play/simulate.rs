//! Many games in parallel, and their statistics.
//!
//! Game `g` (0-based) of a simulation with seed `S` is played with the game seed
//! `derive_seed(S, g)`. Each seat's agent gets `derive_seed(base, g)`, where `base` is the
//! spec's `seed=` if given and otherwise `derive_seed(S, 1 + seat)`. Games are independent and
//! collected in order, so the results do not depend on the number of threads.
//!
//! With endgame tables, both players consult them first wherever a table holds the position
//! ([`PreparedAgent::with_tables`]); the seeds are the same.

use std::sync::Arc;
use std::time::Instant;

use qasab_core::{EndReason, GameState, Player, Ruleset, StickStats, Turn};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::play::driver::{ChanceSource, play_out};
use crate::players::{Playable, PreparedAgent};
use crate::rng::derive_seed;
use crate::search::endgame::TableSet;
use crate::spec::AgentError;

/// The result of one simulated game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The winner, `None` for a draw or a truncated game without a winner.
    pub winner: Option<Player>,
    /// Why the game ended.
    pub reason: EndReason,
    /// Final scores in seat order.
    pub scores: [u32; 2],
    /// Turns played.
    pub turns: u32,
    /// Actions applied (moves and chance outcomes).
    pub actions: u32,
    /// Stick statistics, for games with throws.
    pub sticks: Option<StickStats>,
}

/// The most games one simulation plays (each game's summary is kept for the statistics).
pub const MAX_GAMES: u64 = 100_000_000;

/// Plays `games` games between two agent specs (seat order) on `threads` threads (0 = all
/// cores), calling `tick` after each game. With `tables`, both players consult the endgame
/// tables first ([`PreparedAgent::with_tables`]).
///
/// # Errors
/// [`AgentError`] if a spec is invalid for the ruleset.
pub fn simulate<S: Playable>(
    rules: &S::Ruleset,
    specs: [&str; 2],
    tables: Option<&Arc<TableSet>>,
    games: u64,
    seed: u64,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<GameSummary>, AgentError> {
    let sim = Simulation::<S>::new(rules, specs, tables, seed)?;
    Ok(in_pool(games, threads, tick, |g| sim.play(rules, g)))
}

/// `game(g)` for every game `g` of `0..games`, in order, on `threads` threads (0 = all cores),
/// calling `tick` after each.
fn in_pool<T: Send>(
    games: u64,
    threads: usize,
    tick: &(dyn Fn() + Sync),
    game: impl Fn(u64) -> T + Sync + Send,
) -> Vec<T> {
    let run = || {
        (0..games)
            .into_par_iter()
            .map(|g| {
                let out = game(g);
                tick();
                out
            })
            .collect::<Vec<_>>()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    pool.install(run)
}

/// The games `range` of a simulation, on the calling thread: game `g` is played with the
/// seeds [`simulate`] gives it (see the module docs), so the games of a simulation played in
/// chunks anywhere are the same games; with `tables`, both players consult them.
///
/// # Errors
/// [`AgentError`] if a spec is invalid for the ruleset.
pub fn simulate_range<S: Playable>(
    rules: &S::Ruleset,
    specs: [&str; 2],
    tables: Option<&Arc<TableSet>>,
    seed: u64,
    range: std::ops::Range<u64>,
) -> Result<Vec<GameSummary>, AgentError> {
    let sim = Simulation::<S>::new(rules, specs, tables, seed)?;
    Ok(range.map(|g| sim.play(rules, g)).collect())
}

/// The final states of the games `0..games` of a simulation, in order: the same games as
/// [`simulate`] plays with these arguments (see the module docs), for work that reads how
/// they ended.
///
/// # Errors
/// [`AgentError`] if a spec is invalid for the ruleset.
pub fn simulate_ends<S: Playable>(
    rules: &S::Ruleset,
    specs: [&str; 2],
    tables: Option<&Arc<TableSet>>,
    games: u64,
    seed: u64,
    threads: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<S>, AgentError> {
    let sim = Simulation::<S>::new(rules, specs, tables, seed)?;
    Ok(in_pool(games, threads, tick, |g| sim.end(rules, g)))
}

/// The two prepared players of a simulation and their base seeds.
struct Simulation<S: Playable> {
    agents: [PreparedAgent<S>; 2],
    bases: [u64; 2],
    seed: u64,
}

impl<S: Playable> Simulation<S> {
    fn new(
        rules: &S::Ruleset,
        specs: [&str; 2],
        tables: Option<&Arc<TableSet>>,
        seed: u64,
    ) -> Result<Self, AgentError> {
        let agents = [
            PreparedAgent::<S>::new(specs[0], rules)?.with_tables(tables),
            PreparedAgent::<S>::new(specs[1], rules)?.with_tables(tables),
        ];
        let bases = Player::ALL.map(|p| {
            agents[p.index()]
                .seed
                .unwrap_or(derive_seed(seed, 1 + p.index() as u64))
        });
        Ok(Simulation {
            agents,
            bases,
            seed,
        })
    }

    /// Plays game `g`.
    fn play(&self, rules: &S::Ruleset, g: u64) -> GameSummary {
        summarize(&self.end(rules, g))
    }

    /// Plays game `g` and gives its final state.
    fn end(&self, rules: &S::Ruleset, g: u64) -> S {
        let mut players = [
            self.agents[0].make(derive_seed(self.bases[0], g)),
            self.agents[1].make(derive_seed(self.bases[1], g)),
        ];
        let mut chance = ChanceSource::new(derive_seed(self.seed, g));
        play_out(rules.initial_state(), &mut players, &mut chance, |_, _| {})
    }
}

/// The summary of a finished game.
///
/// # Panics
/// If the game is not over.
pub fn summarize<S: GameState>(end: &S) -> GameSummary {
    let Turn::Over(o) = end.turn() else {
        panic!("summarize: the game is not over")
    };
    GameSummary {
        winner: o.winner,
        reason: o.reason,
        scores: o.scores.into_array(),
        turns: end.turns(),
        actions: end.actions(),
        sticks: end.stick_stats(),
    }
}

/// A proportion with its 95% Wilson score interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Rate {
    /// Successes.
    pub count: u64,
    /// The proportion.
    pub rate: f64,
    /// The 95% interval `[lo, hi]`.
    pub ci95: [f64; 2],
}

impl Rate {
    /// `count` of `n`, with the Wilson interval ([`crate::play::stats::wilson`]).
    pub fn new(count: u64, n: u64) -> Rate {
        if n == 0 {
            return Rate {
                count,
                rate: 0.0,
                ci95: [0.0, 1.0],
            };
        }
        let p = count as f64 / n as f64;
        Rate {
            count,
            rate: p,
            ci95: crate::play::stats::wilson(p, n as f64),
        }
    }
}

/// Summary statistics of a numeric sample.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distribution {
    /// Mean.
    pub mean: f64,
    /// Standard deviation.
    pub sd: f64,
    /// Minimum.
    pub min: u32,
    /// 10th percentile.
    pub p10: u32,
    /// Median.
    pub median: u32,
    /// 90th percentile.
    pub p90: u32,
    /// Maximum.
    pub max: u32,
}

impl Distribution {
    /// Statistics of `values` (nearest-rank percentiles).
    pub fn of(values: &[u32]) -> Distribution {
        if values.is_empty() {
            return Distribution {
                mean: 0.0,
                sd: 0.0,
                min: 0,
                p10: 0,
                median: 0,
                p90: 0,
                max: 0,
            };
        }
        let mut v = values.to_vec();
        v.sort_unstable();
        let n = v.len() as f64;
        let mean = v.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
        let var = v
            .iter()
            .map(|&x| (f64::from(x) - mean).powi(2))
            .sum::<f64>()
            / n;
        Distribution {
            mean,
            sd: var.sqrt(),
            min: v[0],
            p10: nearest_rank(&v, 0.1),
            median: nearest_rank(&v, 0.5),
            p90: nearest_rank(&v, 0.9),
            max: v[v.len() - 1],
        }
    }
}

/// The `q`-quantile of sorted, non-empty `v` by the nearest-rank method.
pub fn nearest_rank(v: &[u32], q: f64) -> u32 {
    let n = v.len() as f64;
    v[(((q * n).ceil() as usize).max(1) - 1).min(v.len() - 1)]
}

/// Aggregate results of a simulation.
#[derive(Clone, Debug, Serialize)]
pub struct SimulationReport {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// Games played.
    pub games: u64,
    /// The player specs, in seat order.
    pub players: [String; 2],
    /// The seed.
    pub seed: u64,
    /// Wins per seat.
    pub wins: [u64; 2],
    /// Drawn games (not truncated).
    pub draws: u64,
    /// Games stopped by a safety limit.
    pub truncated: u64,
    /// Win rate per seat with its 95% interval.
    pub win_rates: [Rate; 2],
    /// Draw rate with its 95% interval.
    pub draw_rate: Rate,
    /// Mean turns per game.
    pub mean_turns: f64,
    /// Mean actions per game.
    pub mean_actions: f64,
    /// Distribution of game length in turns.
    pub turns: Distribution,
    /// Mean final score per seat.
    pub mean_scores: [f64; 2],
    /// How many games ended for each reason.
    pub end_reasons: std::collections::BTreeMap<String, u64>,
    /// Stick throws per turn (games with sticks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throws_per_turn: Option<f64>,
    /// The share of turns with a tâb.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_turn_share: Option<f64>,
    /// Mean pieces captured per game, both sides.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captures: Option<f64>,
    /// Mean conversions per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conversions: Option<f64>,
    /// Mean stack reductions per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reductions: Option<f64>,
    /// Mean tâbs banked per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub banked: Option<f64>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl SimulationReport {
    /// Aggregates game summaries.
    pub fn new<R: Ruleset>(
        rules: &R,
        players: [String; 2],
        seed: u64,
        summaries: &[GameSummary],
        seconds: f64,
    ) -> SimulationReport {
        let n = summaries.len() as u64;
        let wins =
            Player::ALL.map(|p| summaries.iter().filter(|s| s.winner == Some(p)).count() as u64);
        let truncated = summaries
            .iter()
            .filter(|s| s.reason.is_truncation())
            .count() as u64;
        let draws = summaries
            .iter()
            .filter(|s| s.winner.is_none() && !s.reason.is_truncation())
            .count() as u64;
        let turns: Vec<u32> = summaries.iter().map(|s| s.turns).collect();
        let mean = |f: &dyn Fn(&GameSummary) -> f64| {
            if n == 0 {
                0.0
            } else {
                summaries.iter().map(f).sum::<f64>() / n as f64
            }
        };
        let end_reasons = EndReason::ALL
            .iter()
            .map(|r| {
                (
                    r.name().to_string(),
                    summaries.iter().filter(|s| s.reason == *r).count() as u64,
                )
            })
            .filter(|(_, c)| *c > 0)
            .collect();
        let sticks: Option<Vec<StickStats>> = summaries.iter().map(|s| s.sticks).collect();
        let sticks = sticks.filter(|v| !v.is_empty());
        let total = |f: fn(&StickStats) -> u32| {
            sticks
                .as_ref()
                .map(|v| v.iter().map(|s| f64::from(f(s))).sum::<f64>())
        };
        let turns_total = total(|s| s.turns).unwrap_or(0.0);
        let per_game = |x: Option<f64>| x.map(|t| t / n as f64);
        let per_turn = |x: Option<f64>| {
            x.map(|t| {
                if turns_total > 0.0 {
                    t / turns_total
                } else {
                    0.0
                }
            })
        };
        SimulationReport {
            ruleset: rules.to_string(),
            games: n,
            players,
            seed,
            wins,
            draws,
            truncated,
            win_rates: wins.map(|w| Rate::new(w, n)),
            draw_rate: Rate::new(draws, n),
            mean_turns: mean(&|s| f64::from(s.turns)),
            mean_actions: mean(&|s| f64::from(s.actions)),
            turns: Distribution::of(&turns),
            mean_scores: [
                mean(&|s| f64::from(s.scores[0])),
                mean(&|s| f64::from(s.scores[1])),
            ],
            end_reasons,
            throws_per_turn: per_turn(total(|s| s.throws)),
            tab_turn_share: per_turn(total(|s| s.tab_turns)),
            captures: per_game(total(|s| s.captures)),
            conversions: per_game(total(|s| s.conversions)),
            reductions: per_game(total(|s| s.reductions)),
            banked: per_game(total(|s| s.banked)),
            seconds,
        }
    }
}

impl SimulationReport {
    /// The report as `qasab simulate --json` prints it: its fields, the worker `threads` and the
    /// seats' names.
    pub fn to_json<R: Ruleset>(&self, rules: &R, threads: usize) -> serde_json::Value {
        let mut v = serde_json::to_value(self).expect("a report serialises");
        v["threads"] = serde_json::json!(threads);
        v["seats"] = serde_json::json!(Player::ALL.map(|p| rules.seat_name(p)));
        v
    }
}

/// Times a closure.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let v = f();
    (v, t.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        let r = Rate::new(50, 100);
        assert!(
            (r.ci95[0] - 0.4038).abs() < 1e-3 && (r.ci95[1] - 0.5962).abs() < 1e-3,
            "{r:?}"
        );
        let r = Rate::new(0, 10);
        assert_eq!(r.ci95[0], 0.0);
        assert!((r.ci95[1] - 0.2775).abs() < 1e-3, "{r:?}");
    }

    #[test]
    fn distribution_percentiles() {
        let d = Distribution::of(&[5, 1, 4, 2, 3, 6, 7, 8, 9, 10]);
        assert_eq!((d.min, d.p10, d.median, d.p90, d.max), (1, 1, 5, 9, 10));
        assert!((d.mean - 5.5).abs() < 1e-12);
    }
}
