//! Criterion benchmarks: random playouts of the Ludii presets, `tab-ludii` on 7 columns and
//! `tab-hyde-ludii` on 13 (Ludii's defaults).
//!
//! Run with `cargo bench -p qasab-ai --bench tab_ludii`; criterion reports the time of one
//! playout (from the start to the end of a game).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use qasab_ai::play::bench::random_playout;
use qasab_ai::rng::rng_from_seed;
use qasab_core::tab_ludii;

fn playouts(c: &mut Criterion) {
    for name in ["tab-ludii", "tab-hyde-ludii"] {
        let rules: tab_ludii::Ruleset = name.parse().expect("a preset");
        let mut rng = rng_from_seed(1);
        let (mut moves, mut outs) = (Vec::new(), Vec::new());
        c.bench_function(&format!("{rules} random playout"), |b| {
            b.iter(|| random_playout(black_box(&rules), &mut rng, &mut moves, &mut outs))
        });
    }
}

criterion_group!(benches, playouts);
criterion_main!(benches);
