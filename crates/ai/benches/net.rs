//! Criterion benchmarks of the learned evaluation on `tab`: one evaluation (the encoding and
//! the network), the network alone, and the fitted linear evaluation beside them, over a fixed
//! sample of mid-game positions (decisions from seeded random games).
//!
//! Run with `cargo bench -p qasab-ai --bench net`. One iteration evaluates every position of
//! the sample (64 positions); divide by 64 for the time of one evaluation.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use qasab_ai::bench::mid_game_positions;
use qasab_ai::eval::{EvalWeights, Evaluate};
use qasab_ai::net::{Encode, Features, shipped};
use qasab_core::{Player, tab};

/// The ruleset of the sample.
const TAB: &str = "tab";

fn net(c: &mut Criterion) {
    let sample = mid_game_positions(&TAB.parse::<tab::Ruleset>().expect("a preset"), 64);
    let net = shipped("tab").expect("the tab network is shipped");
    let inputs: Vec<Features> = sample
        .iter()
        .map(|s| {
            let mut f = Features::default();
            Encode::encode(s, &mut f);
            f
        })
        .collect();
    let active: usize = inputs.iter().map(|f| f.active().len()).sum();
    eprintln!(
        "sample: {} tab positions, {:.1} active inputs of {} on average; network of {} parameters",
        sample.len(),
        active as f64 / sample.len() as f64,
        net.mlp.inputs(),
        net.mlp.parameters()
    );
    c.bench_function("tab net evaluate (64 positions)", |b| {
        b.iter(|| {
            for s in &sample {
                black_box(s.evaluate_with(Player::One, EvalWeights::Net));
            }
        })
    });
    c.bench_function("tab net encode (64 positions)", |b| {
        let mut f = Features::default();
        b.iter(|| {
            for s in &sample {
                black_box(Encode::encode(s, &mut f));
            }
        })
    });
    c.bench_function("tab net forward (64 positions)", |b| {
        b.iter(|| {
            for f in &inputs {
                black_box(net.mlp.value(f));
            }
        })
    });
    c.bench_function("tab fitted evaluate (64 positions)", |b| {
        b.iter(|| {
            for s in &sample {
                black_box(s.evaluate_with(Player::One, EvalWeights::Fitted));
            }
        })
    });
}

criterion_group!(benches, net);
criterion_main!(benches);
