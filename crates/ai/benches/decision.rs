//! Criterion benchmarks: the time a decision of each preset's default player (`strongest`)
//! takes on one thread, over the positions `qasab bench --search` measures (the first 4 of
//! [`decision_positions`] with seed 0), each decided by a fresh player as a person waits for it.
//!
//! Run with `cargo bench -p qasab-ai --bench decision` (add `-- tab-hyde` for one preset). One
//! benchmark iteration decides all 4 positions: divide by 4 for the time a decision.
//! `qasab bench --search` gives the same with the iterations and network evaluations a
//! second, and on all threads.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use qasab_ai::Playable;
use qasab_ai::play::bench::decision_positions;
use qasab_ai::players::{PreparedAgent, STRONGEST};
use qasab_ai::rng::derive_seed;
use qasab_core::{AnyRuleset, Ruleset, with_ruleset};

/// Positions a benchmark iteration decides.
const POSITIONS: usize = 4;

fn bench_one<R: Ruleset>(c: &mut Criterion, rules: &R)
where
    R::State: Playable,
{
    let positions = decision_positions(rules, POSITIONS, 0);
    let player = PreparedAgent::<R::State>::new(STRONGEST, rules).expect("every preset has one");
    let mut group = c.benchmark_group("decision");
    group.sample_size(10);
    group.bench_function(
        format!("{rules}: {} decides {POSITIONS} positions", player.spec),
        |b| {
            b.iter(|| {
                for (i, s) in positions.iter().enumerate() {
                    let mut agent = player.make(derive_seed(0, i as u64));
                    black_box(agent.choose(black_box(s)));
                }
            })
        },
    );
    group.finish();
}

fn decisions(c: &mut Criterion) {
    for rules in AnyRuleset::presets() {
        with_ruleset!(&rules, r => bench_one(c, r));
    }
}

criterion_group!(benches, decisions);
criterion_main!(benches);
