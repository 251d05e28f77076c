//! Criterion benchmarks of the search players on `tab`: the static evaluation, `greedy`'s time
//! per move, and `expectimax`'s time per move at each level, over a fixed sample of mid-game
//! positions (decisions from seeded random games).
//!
//! Run with `cargo bench -p qasab-ai --bench search`. One iteration plays one move in every
//! position of the sample (12 positions; 3 of them for levels 4 and 5); divide by the sample size for
//! the time per move. The nodes visited per move, for the nodes-per-second figures, are
//! printed before each measurement.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use qasab_ai::agent::Agent;
use qasab_ai::eval::Evaluate;
use qasab_ai::play::bench::mid_game_positions;
use qasab_ai::search::expectimax::{Options, analyse};
use qasab_ai::search::greedy::Greedy;
use qasab_core::{Player, tab};

/// The ruleset of the sample.
const TAB: &str = "tab";

fn search(c: &mut Criterion) {
    let sample = mid_game_positions(&TAB.parse::<tab::Ruleset>().expect("a preset"), 12);
    eprintln!("sample: {} tab positions", sample.len());
    c.bench_function("tab evaluate (12 positions)", |b| {
        b.iter(|| {
            for s in &sample {
                black_box(s.evaluate(Player::One));
            }
        })
    });
    let mut group = c.benchmark_group("tab move (12 positions)");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("greedy", |b| {
        b.iter(|| {
            for (i, s) in sample.iter().enumerate() {
                black_box(Greedy::<tab::State>::new(i as u64).choose(s));
            }
        })
    });
    for level in 1..=3u8 {
        bench_level(&mut group, &sample, level);
    }
    group.finish();
    // The slow levels on three positions only (the first position's turn is too large to
    // enumerate and would be played by the one-decision rule).
    let few = &sample[1..4];
    let mut group = c.benchmark_group("tab move (3 positions)");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(60));
    for level in 4..=5u8 {
        bench_level(&mut group, few, level);
    }
    group.finish();
}

/// Expectimax at `level` over `sample`, after printing the nodes it visits per move.
fn bench_level(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    sample: &[tab::State],
    level: u8,
) {
    let opts = Options::level(level).expect("a level");
    let nodes: u64 = sample.iter().map(|s| analyse(s, &opts, false).nodes).sum();
    eprintln!(
        "expectimax level {level}: {} nodes per move over {} positions",
        nodes / sample.len() as u64,
        sample.len()
    );
    group.bench_function(format!("expectimax level {level}"), |b| {
        b.iter(|| {
            for s in sample {
                black_box(analyse(s, &opts, false));
            }
        })
    });
}

criterion_group!(benches, search);
criterion_main!(benches);
