//! Time per move of one or more players on the same positions: the measurement behind the
//! "equal time" of docs/STRENGTH.md's matches and the time-per-move limit of the default
//! players.
//!
//! The positions are decisions with at least two legal moves, every `EVERY`th one of seeded
//! games between two `greedy` players. Each player is timed on each position in turn, on one
//! thread, so the players meet the same positions under the same load.
//!
//! `cargo run --release -p qasab-ai --example move_time -- RULESET POSITIONS SEED SPEC...`

use std::time::Instant;

use qasab_ai::play::driver::{ChanceSource, seat_seed};
use qasab_ai::players::AnyPlayer;
use qasab_core::{AnyRuleset, AnyState, Player, Turn};

/// Every how many decisions of a game one is kept, so the positions spread over whole games.
const EVERY: usize = 7;

fn usage() -> ! {
    eprintln!("usage: move_time RULESET POSITIONS SEED SPEC...");
    std::process::exit(2)
}

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("error: {e}");
    std::process::exit(2)
}

/// Positions from seeded `greedy` games: every `EVERY`th decision with two legal moves or more.
fn positions(rules: &AnyRuleset, wanted: usize, seed: u64) -> Vec<AnyState> {
    let greedy = AnyPlayer::new("greedy", rules).unwrap_or_else(|e| fail(e));
    let mut out = Vec::new();
    let mut game = 0u64;
    while out.len() < wanted {
        let game_seed = seed.wrapping_add(game);
        let mut s = rules.initial_state();
        let mut agents = Player::ALL.map(|p| greedy.make(seat_seed(game_seed, p)));
        let mut chance = ChanceSource::new(game_seed);
        let mut decisions = 0usize;
        loop {
            let action = match s.turn() {
                Turn::Over(_) => break,
                Turn::Chance => chance.draw_any(&s).expect("a chance turn"),
                Turn::Player(p) => {
                    if s.legal_actions().1.len() >= 2 {
                        decisions += 1;
                        if decisions.is_multiple_of(EVERY) {
                            out.push(s.clone());
                            if out.len() == wanted {
                                break;
                            }
                        }
                    }
                    agents[p.index()].choose(&s).expect("a legal move")
                }
            };
            s.apply_unchecked(action).expect("a legal action");
            if s.actions() > 5_000 {
                break;
            }
        }
        game += 1;
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rules: AnyRuleset = args
        .next()
        .unwrap_or_else(|| usage())
        .parse()
        .unwrap_or_else(|e| fail(e));
    let wanted: usize = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| usage());
    let seed: u64 = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| usage());
    let specs: Vec<String> = args.collect();
    if specs.is_empty() || wanted == 0 {
        usage();
    }
    let players: Vec<AnyPlayer> = specs
        .iter()
        .map(|s| AnyPlayer::new(s, &rules).unwrap_or_else(|e| fail(e)))
        .collect();
    let positions = positions(&rules, wanted, seed);
    let mut times = vec![Vec::with_capacity(positions.len()); players.len()];
    for (i, s) in positions.iter().enumerate() {
        for (p, player) in players.iter().enumerate() {
            let mut agent = player.make(seed.wrapping_add(i as u64));
            let start = Instant::now();
            agent.choose(s).expect("a legal move");
            times[p].push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    println!(
        "{} positions of {rules} (seed {seed}), one thread; milliseconds per move:",
        positions.len()
    );
    println!(
        "{:<50} {:>9} {:>9} {:>9} {:>9}",
        "player", "mean", "median", "p90", "max"
    );
    for (spec, mut t) in specs.iter().zip(times) {
        t.sort_by(f64::total_cmp);
        let mean = t.iter().sum::<f64>() / t.len() as f64;
        let at = |q: f64| t[((t.len() - 1) as f64 * q).round() as usize];
        println!(
            "{spec:<50} {mean:>9.2} {:>9.2} {:>9.2} {:>9.2}",
            at(0.5),
            at(0.9),
            t[t.len() - 1]
        );
    }
}
