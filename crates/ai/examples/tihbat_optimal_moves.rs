//! How often a player picks a move of optimal exact value on Tihbat, over distinct positions
//! reached by seeded random play: the measurement behind the Tihbat row of docs/STRENGTH.md.
//!
//! `cargo run --release -p qasab-ai --example tihbat_optimal_moves -- [SPEC] [POSITIONS] [SEED]`
//! (defaults: `mcts`, 1000, 1).

use std::collections::HashSet;

use qasab_ai::Solver;
use qasab_ai::players::PreparedAgent;
use qasab_ai::rng::{below, rng_from_seed};
use qasab_core::tihbat::{self, State};
use qasab_core::{GameState, Ruleset, Turn};

fn usage() -> ! {
    eprintln!("usage: tihbat_optimal_moves [SPEC] [POSITIONS] [SEED]");
    std::process::exit(2)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let spec = args.next().unwrap_or_else(|| "mcts".into());
    let wanted: usize = args
        .next()
        .map_or(1000, |s| s.parse().unwrap_or_else(|_| usage()));
    let seed: u64 = args
        .next()
        .map_or(1, |s| s.parse().unwrap_or_else(|_| usage()));
    let rules = tihbat::Ruleset::default();
    let solver = Solver::new(rules).expect("the default rules solve");
    let agent = PreparedAgent::<State>::new(&spec, &rules).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });

    // Distinct decision positions with at least two legal moves, from seeded random games.
    let mut rng = rng_from_seed(seed);
    let mut seen = HashSet::new();
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    while positions.len() < wanted {
        let mut s = rules.initial_state();
        while let Turn::Player(_) = s.turn() {
            s.legal_moves(&mut moves);
            if moves.len() >= 2 && below(&mut rng, 3) == 0 && seen.insert(s.clone()) {
                positions.push(s.clone());
                if positions.len() == wanted {
                    break;
                }
            }
            s.play_unchecked(moves[below(&mut rng, moves.len())]);
        }
    }

    let (mut optimal, mut optimal_result, mut forced_choice) = (0usize, 0usize, 0usize);
    for (i, s) in positions.iter().enumerate() {
        let values = solver
            .move_values(s)
            .expect("exact values at default options");
        let best = values.iter().map(|v| v.1).max().expect("a legal move");
        if values.iter().all(|v| v.1 == best) {
            forced_choice += 1;
        }
        let m = agent.make(seed.wrapping_add(i as u64)).choose(s);
        let v = values.iter().find(|v| v.0 == m).expect("a legal move").1;
        optimal += usize::from(v == best);
        // The game's result with perfect play after the move: the sign of the mover's final
        // margin (captures so far plus the exact margin to come).
        let mover = s.turn().player().expect("a decision");
        let scores = s.scores();
        let now = i64::from(scores[mover]) - i64::from(scores[!mover]);
        let result = |v: i32| (now + i64::from(v)).signum();
        optimal_result += usize::from(result(v) == result(best));
    }
    let n = positions.len();
    let pc = |k: usize| 100.0 * k as f64 / n as f64;
    println!(
        "{spec} on {rules}, {n} positions: a move of optimal value (exact capture margin) in {optimal} ({:.1}%), of optimal result (win, draw or loss) in {optimal_result} ({:.1}%); in {forced_choice} every move has the same value",
        pc(optimal),
        pc(optimal_result)
    );
}
