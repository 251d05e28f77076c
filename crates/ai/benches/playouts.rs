//! Criterion benchmarks: random playouts, the exact solver, and the solver player's move values.
//!
//! Run with `cargo bench -p qasab-ai`; figures are recorded in `docs/PERFORMANCE.md`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use qasab_ai::Solver;
use qasab_ai::bench::random_playout;
use qasab_ai::rng::rng_from_seed;
use qasab_core::Ruleset;
use qasab_core::{tab, tihbat};

fn playouts(c: &mut Criterion) {
    let rules = tihbat::Ruleset::default();
    let mut rng = rng_from_seed(1);
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    c.bench_function("tihbat random playout", |b| {
        b.iter(|| random_playout(black_box(&rules), &mut rng, &mut moves, &mut outs))
    });
    for name in ["tab", "tab-hyde", "tab-modern"] {
        let rules: tab::Ruleset = name.parse().unwrap();
        let (mut moves, mut outs) = (Vec::new(), Vec::new());
        c.bench_function(&format!("{name} random playout"), |b| {
            b.iter(|| random_playout(black_box(&rules), &mut rng, &mut moves, &mut outs))
        });
    }
}

fn solver(c: &mut Criterion) {
    c.bench_function("solve tihbat (seeds=7)", |b| {
        b.iter(|| Solver::new(black_box(tihbat::Ruleset::default())).unwrap())
    });
    let mut group = c.benchmark_group("slow");
    group.sample_size(10);
    group.bench_function("solve tihbat sweep seeds=1..20", |b| {
        b.iter(|| {
            for n in 1..=20 {
                black_box(Solver::new(tihbat::Ruleset::with_seeds(n)).unwrap());
            }
        })
    });
    group.finish();
    let rules = tihbat::Ruleset::default();
    let solver = Solver::new(rules).unwrap();
    let start = rules.initial_state();
    c.bench_function("solver move values at the start (seeds=7)", |b| {
        b.iter(|| solver.move_values(black_box(&start)).unwrap())
    });
}

criterion_group!(benches, playouts, solver);
criterion_main!(benches);
