//! The `solver` player never does worse than the value the solver computes: from positions
//! reached by seeded random play, the solver plays one side to the end against other players,
//! and the margin it reaches is at least the position's value (exactly the value against
//! itself, since Tihbat has no chance).

use qasab_ai::Solver;
use qasab_ai::players::PreparedAgent;
use qasab_ai::rng::{below, rng_from_seed};
use qasab_core::tihbat::{Ruleset, State};
use qasab_core::{GameState, Player, Ruleset as _, Turn};

/// Decision positions from seeded random games: one taken after a random number of moves of
/// each game.
fn positions(rules: &Ruleset, n: usize, seed: u64) -> Vec<State> {
    let mut rng = rng_from_seed(seed);
    let mut moves = Vec::new();
    let mut out = Vec::new();
    while out.len() < n {
        let mut s = rules.initial_state();
        let stop = below(&mut rng, 40);
        let mut k = 0;
        while let Turn::Player(_) = s.turn() {
            if k == stop {
                out.push(s.clone());
                break;
            }
            s.legal_moves(&mut moves);
            s.play_unchecked(moves[below(&mut rng, moves.len())]);
            k += 1;
        }
    }
    out
}

/// The margin `p` gains from `s` to the end of the game, with `p` played by the solver and the
/// other side by `opponent`.
fn margin_reached(
    s: &State,
    p: Player,
    solver: &PreparedAgent<State>,
    opponent: &PreparedAgent<State>,
    seed: u64,
) -> i64 {
    let margin = |s: &State| {
        let sc = s.scores();
        i64::from(sc[p]) - i64::from(sc[!p])
    };
    let (mut me, mut them) = (solver.make(seed), opponent.make(seed + 1));
    let start = margin(s);
    let mut s = s.clone();
    loop {
        match s.turn() {
            Turn::Player(q) => {
                let m = if q == p {
                    me.choose(&s)
                } else {
                    them.choose(&s)
                };
                s.try_play(m).expect("players choose legal moves");
            }
            Turn::Over(o) => {
                return i64::from(o.scores[p]) - i64::from(o.scores[!p]) - start;
            }
            Turn::Chance => unreachable!("tihbat has no chance"),
        }
    }
}

#[test]
fn the_solver_reaches_at_least_its_value_against_every_opponent() {
    let rules = Ruleset::default();
    let exact = Solver::new(rules).expect("the default rules solve");
    let solver = PreparedAgent::<State>::new("solver", &rules).expect("a player");
    let opponents: Vec<PreparedAgent<State>> =
        ["solver", "random", "greedy", "mcts(iterations=200)"]
            .iter()
            .map(|spec| PreparedAgent::new(spec, &rules).expect("a player"))
            .collect();
    for (i, s) in positions(&rules, 300, 7).iter().enumerate() {
        let p = s.turn().player().expect("a decision");
        let (_, value) = exact
            .best_moves(s)
            .expect("exact values at the default rules");
        for opponent in &opponents {
            let reached = margin_reached(s, p, &solver, opponent, i as u64);
            if opponent.spec.name == "solver" {
                assert_eq!(
                    reached,
                    i64::from(value),
                    "position {} against the solver",
                    s.position_id()
                );
            } else {
                assert!(
                    reached >= i64::from(value),
                    "position {}: {reached} against {}, below the value {value}",
                    s.position_id(),
                    opponent.spec
                );
            }
        }
    }
}
