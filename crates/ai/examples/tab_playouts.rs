//! A fixed amount of random Tâb playouts, for instruction counts and quick timings:
//! `tab_playouts [PRESET] [GAMES]` plays GAMES (default 2,000) seeded random games of PRESET
//! (default `tab`) with the loop of the benchmarks and prints the actions played and the time
//! per action. Under `valgrind --tool=callgrind` it gives the instructions per action that
//! `docs/PERFORMANCE.md` reports.

use qasab_ai::play::bench::random_playout;
use qasab_ai::rng::rng_from_seed;
use qasab_core::tab;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("tab", String::as_str);
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let rules: tab::Ruleset = name.parse().expect("a Tâb preset or ruleset");
    let mut rng = rng_from_seed(7);
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    let start = std::time::Instant::now();
    let mut actions = 0u64;
    for _ in 0..games {
        actions += u64::from(random_playout(&rules, &mut rng, &mut moves, &mut outs));
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{name}: {games} games, {actions} actions, {:.1} ns per action",
        secs * 1e9 / actions as f64
    );
}
