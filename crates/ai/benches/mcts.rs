//! Criterion benchmarks: `mcts` iterations per second on one thread, from the first decision of
//! `tab-ludii` (7 columns, Ludii's default), `tab`, and the other presets at their defaults.
//!
//! Run with `cargo bench -p qasab-ai --bench mcts` (add `-- tab-ludii` for one preset). One
//! benchmark iteration is one search of 10,000 iterations (level 3, the default) with the
//! game's own defaults (the faithful Tâb family also without the implicit minimax values, and
//! with random rollouts to the end and no implicit values), with the
//! agent's tree memory reused from search to search as in a game; criterion reports the
//! throughput in search iterations per second.
//! The start is the initial state with the opening throws of game seed 1 applied, up to the
//! first decision.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qasab_ai::Playable;
use qasab_ai::play::driver::ChanceSource;
use qasab_ai::search::mcts::{Budget, MctsAgent, MctsOptions, RolloutPolicy};
use qasab_core::{GameState, Ruleset, Turn, tab, tab_ludii, tihbat};

const ITERATIONS: u64 = 10_000;

/// The first decision of a game with seed 1.
fn first_decision<R: Ruleset>(rules: &R) -> R::State {
    let mut s = rules.initial_state();
    let mut chance = ChanceSource::new(1);
    let mut buf = Vec::new();
    while s.turn() == Turn::Chance {
        let c = chance.draw(&s, &mut buf);
        s.apply_chance_unchecked(c);
    }
    s
}

/// Searches with the game's own `mcts` defaults, and for a game whose rollouts stop early or
/// follow a policy by default, with uniform random rollouts to the end too.
fn bench_one<R: Ruleset>(c: &mut Criterion, rules: &R)
where
    R::State: Playable,
{
    let start = first_decision(rules);
    let defaults = <R::State as Playable>::mcts_defaults();
    let mut variants = vec![("", defaults)];
    if defaults.minimax > 0.0 {
        let plain = MctsOptions {
            minimax: 0.0,
            ..defaults
        };
        variants.push((", minimax=0", plain));
    }
    if defaults.cutoff.is_some() || defaults.rollout != RolloutPolicy::Random {
        let random = MctsOptions {
            cutoff: None,
            rollout: RolloutPolicy::Random,
            minimax: 0.0,
            ..defaults
        };
        variants.push((", random rollouts to the end", random));
    }
    let mut group = c.benchmark_group("mcts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ITERATIONS));
    for (label, options) in variants {
        let options = MctsOptions {
            budget: Budget::Iterations(ITERATIONS),
            ..options
        };
        let mut agent = MctsAgent::<R::State>::new(options, 1);
        group.bench_function(
            format!("{rules} from the start, 10000 iterations{label}"),
            |b| b.iter(|| agent.search(black_box(&start))),
        );
    }
    group.finish();
}

fn searches(c: &mut Criterion) {
    let ludii: tab_ludii::Ruleset = "tab-ludii".parse().expect("a preset");
    bench_one(c, &ludii);
    for name in ["tab", "tab-hyde", "tab-modern"] {
        let rules: tab::Ruleset = name.parse().expect("a preset");
        bench_one(c, &rules);
    }
    let hyde_ludii: tab_ludii::Ruleset = "tab-hyde-ludii".parse().expect("a preset");
    bench_one(c, &hyde_ludii);
    bench_one(c, &tihbat::Ruleset::default());
}

criterion_group!(benches, searches);
criterion_main!(benches);
