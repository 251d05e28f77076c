//! Criterion benchmarks: random playouts, Tâb move generation, the exact solver, and the solver
//! player's move values.
//!
//! Run with `cargo bench -p qasab-ai`; figures are recorded in `docs/PERFORMANCE.md`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use qasab_ai::Solver;
use qasab_ai::play::bench::random_playout;
use qasab_ai::rng::{below, pick_weighted, rng_from_seed};
use qasab_core::{GameState, Ruleset, Turn};
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

/// About one decision position in 800 of 3,000 seeded random `tab` games, read back from their
/// position ids so that they carry no kept decisions: `legal_moves` generates every time.
fn tab_sample() -> Vec<tab::State> {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let mut rng = rng_from_seed(1);
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    let mut sample = Vec::new();
    for _ in 0..3000 {
        let mut s = rules.initial_state();
        loop {
            match s.turn() {
                Turn::Over(_) => break,
                Turn::Player(_) => {
                    s.legal_moves(&mut moves);
                    if below(&mut rng, 800) == 0 {
                        sample.push(tab::State::from_id(rules, &s.position_id()).unwrap());
                    }
                    let m = moves[below(&mut rng, moves.len())];
                    s.play_unchecked(m);
                }
                Turn::Chance => {
                    s.chance_outcomes(&mut outs);
                    let c = outs[pick_weighted(&mut rng, outs.iter().map(|w| w.weight))].outcome;
                    s.apply_chance_unchecked(c);
                }
            }
        }
    }
    sample
}

fn generation(c: &mut Criterion) {
    let sample = tab_sample();
    let mut moves = Vec::new();
    c.bench_function(
        &format!("tab generate decisions ({} positions)", sample.len()),
        |b| {
            b.iter(|| {
                for s in &sample {
                    s.legal_moves(&mut moves);
                    black_box(moves.len());
                }
            })
        },
    );
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

criterion_group!(benches, playouts, generation, solver);
criterion_main!(benches);
