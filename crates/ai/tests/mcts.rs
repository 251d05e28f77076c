//! The `mcts` player: agreement with the exact Tihbat solver where one move is clearly best,
//! legal decisions on every preset, determinism for a seed, the time budget, and spec errors.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use qasab_ai::agent::Agent;
use qasab_ai::play::driver::{ChanceSource, play_out, seat_seed};
use qasab_ai::players::{Playable, PreparedAgent};
use qasab_ai::rng::{below, rng_from_seed};
use qasab_ai::search::mcts::{Budget, MctsOptions, search};
use qasab_ai::{Solver, ValueKind};
use qasab_core::tihbat::{self, State};
use qasab_core::{AnyRuleset, GameState, Player, Ruleset, Turn, with_ruleset};

/// Decision positions of seeded random games from the start of `rules`: every `every`-th
/// decision (about), at most `max` of them, each with at least two legal moves.
fn sample_positions<R: Ruleset>(rules: &R, seed: u64, every: usize, max: usize) -> Vec<R::State> {
    let mut rng = rng_from_seed(seed);
    let mut chance = ChanceSource::new(seed);
    let (mut moves, mut buf) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    while out.len() < max {
        let mut s = rules.initial_state();
        loop {
            match s.turn() {
                Turn::Over(_) => break,
                Turn::Chance => {
                    let c = chance.draw(&s, &mut buf);
                    s.apply_chance_unchecked(c);
                }
                Turn::Player(_) => {
                    s.legal_moves(&mut moves);
                    if moves.len() >= 2 && below(&mut rng, every) == 0 && out.len() < max {
                        out.push(s.clone());
                    }
                    s.play_unchecked(moves[below(&mut rng, moves.len())]);
                }
            }
        }
    }
    out
}

fn iterations(n: u64) -> MctsOptions {
    MctsOptions {
        budget: Budget::Iterations(n),
        ..MctsOptions::default()
    }
}

/// Tihbat positions where one move is clearly best by the exact solver: it wins (or draws) the
/// game with perfect play while every other move does worse in result (draws or loses), and
/// its margin of captures is at least 2 above every other move's.
fn clear_positions(
    rules: tihbat::Ruleset,
    solver: &Solver,
    max: usize,
) -> Vec<(State, tihbat::Move)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for s in sample_positions(&rules, 11, 3, 4000) {
        if out.len() == max {
            break;
        }
        let Ok(values) = solver.move_values(&s) else {
            continue;
        };
        let me = s.position().to_move;
        let now = i32::from(s.position().captured[me]) - i32::from(s.position().captured[!me]);
        // The final margin for the mover decides the result.
        let mut finals: Vec<(tihbat::Move, i32, i32)> = values
            .iter()
            .map(|&(m, v)| (m, v, (now + v).signum()))
            .collect();
        finals.sort_by_key(|&(_, v, _)| -v);
        let (best, best_v, best_result) = finals[0];
        let clear = finals[1..]
            .iter()
            .all(|&(_, v, r)| r < best_result && v + 2 <= best_v);
        if clear && seen.insert(s.position_id()) {
            out.push((s, best));
        }
    }
    out
}

#[test]
fn agrees_with_the_solver_where_one_move_is_clearly_best() {
    let rules = tihbat::Ruleset::default();
    let solver = Solver::new(rules).unwrap();
    let positions = clear_positions(rules, &solver, 40);
    assert!(positions.len() >= 30, "only {} positions", positions.len());
    // Three searches a position, with and without the transposition table: a sampling search
    // may miss once in a few hundred, so the solver's move must win the majority, and every
    // such search must rate its choice above the rest.
    for transpositions in [true, false] {
        let o = MctsOptions {
            transpositions,
            ..iterations(20_000)
        };
        for (i, (s, best)) in positions.iter().enumerate() {
            let mut agree = 0;
            for k in 0..3 {
                let r = search(s, &o, 3 * i as u64 + k).unwrap();
                if r.best() == *best {
                    agree += 1;
                    assert!(r.moves[0].value > r.moves[1].value, "{r:?}");
                }
            }
            assert!(
                agree >= 2,
                "position {}, transpositions {transpositions}: {agree} of 3 (solver: {:?})",
                s.position_id(),
                solver.move_values(s).unwrap()
            );
        }
    }
}

#[test]
fn never_returns_an_illegal_decision_on_any_preset() {
    let specs = ["mcts(iterations=60)", "mcts(iterations=25,threads=2,c=0)"];
    for rules in AnyRuleset::presets() {
        with_ruleset!(&rules, r => {
            let mut moves = Vec::new();
            for spec in specs {
                let mut agent = PreparedAgent::new(spec, r).unwrap().make(3);
                for s in sample_positions(r, 5, 4, 12) {
                    let m = agent.choose(&s);
                    assert!(s.is_legal(m), "{r}: {spec} chose {m} at {}", s.position_id());
                    let eval = agent.evaluate(&s).unwrap();
                    assert_eq!(eval.kind, ValueKind::Estimate);
                    s.legal_moves(&mut moves);
                    let mut listed: Vec<_> = eval.moves.iter().map(|&(m, _)| m).collect();
                    listed.sort();
                    assert_eq!(listed, moves, "{r}: every legal move once");
                    assert!(eval.moves.iter().all(|&(_, v)| (-1.0..=1.0).contains(&v)));
                }
            }
        });
    }
}

/// Plays one game of `mcts` against `random` from the start of every preset: the driver
/// checks every decision (debug builds).
#[test]
fn plays_whole_games_on_every_preset() {
    for rules in AnyRuleset::presets() {
        with_ruleset!(&rules, r => whole_game(r));
    }
}

fn whole_game<R: Ruleset>(rules: &R)
where
    R::State: Playable,
{
    let mut agents: [Box<dyn Agent<R::State>>; 2] = [
        PreparedAgent::new("mcts(iterations=8)", rules)
            .unwrap()
            .make(seat_seed(1, Player::One)),
        PreparedAgent::new("random", rules)
            .unwrap()
            .make(seat_seed(1, Player::Two)),
    ];
    let end = play_out(
        rules.initial_state(),
        &mut agents,
        &mut ChanceSource::new(1),
        |s, a| {
            if let (Turn::Player(_), qasab_core::Action::Move(m)) = (s.turn(), a) {
                assert!(s.is_legal(m), "{rules}: {m} at {}", s.position_id());
            }
        },
    );
    assert!(end.turn().outcome().is_some());
}

#[test]
fn the_result_is_determined_by_the_seed() {
    let tihbat_rules = tihbat::Ruleset::default();
    let ludii: qasab_core::tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    for threads in [1, 2, 3] {
        let o = MctsOptions {
            threads,
            ..iterations(3000)
        };
        for s in sample_positions(&tihbat_rules, 2, 3, 5) {
            assert_eq!(search(&s, &o, 9), search(&s, &o, 9), "threads={threads}");
        }
        for s in sample_positions(&ludii, 2, 5, 3) {
            assert_eq!(search(&s, &o, 9), search(&s, &o, 9), "threads={threads}");
        }
    }
    // A different seed searches differently.
    let s = &sample_positions(&ludii, 2, 5, 1)[0];
    let o = iterations(3000);
    assert_ne!(search(s, &o, 1), search(s, &o, 2));
}

#[test]
fn one_and_two_threads_choose_the_same_clear_move() {
    let rules = tihbat::Ruleset::default();
    let solver = Solver::new(rules).unwrap();
    for (s, best) in clear_positions(rules, &solver, 10) {
        for spec in [
            "mcts(iterations=20000,seed=4)",
            "mcts(iterations=20000,threads=2,seed=4)",
        ] {
            let a = PreparedAgent::<State>::new(spec, &rules).unwrap();
            let (m1, m2) = (a.make(0).choose(&s), a.make(0).choose(&s));
            assert_eq!(m1, m2, "{spec}: the same agent seed gives the same move");
            assert_eq!(m1, best, "{spec} at {}", s.position_id());
        }
    }
}

#[test]
fn seeded_games_between_mcts_players_repeat() {
    let rules: qasab_core::tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    let game = || {
        let mut agents = Player::ALL.map(|p| {
            PreparedAgent::new("mcts(iterations=50,threads=2)", &rules)
                .unwrap()
                .make(seat_seed(3, p))
        });
        let mut actions = Vec::new();
        play_out(
            rules.initial_state(),
            &mut agents,
            &mut ChanceSource::new(3),
            |_, a| actions.push(a.to_string()),
        );
        actions
    };
    assert_eq!(game(), game());
}

#[test]
fn a_time_budget_ends_the_search() {
    let rules = qasab_core::tab::Ruleset::default();
    for spec in ["mcts(time=30)", "mcts(time=30,threads=2)"] {
        let mut agent = PreparedAgent::new(spec, &rules).unwrap().make(1);
        for s in sample_positions(&rules, 8, 10, 3) {
            let start = Instant::now();
            let m = agent.choose(&s);
            // A sanity bound only: the budget is 30 ms.
            assert!(start.elapsed() < Duration::from_secs(20), "{spec}");
            assert!(s.is_legal(m));
        }
    }
}

#[test]
fn specs_are_checked() {
    let rules = tihbat::Ruleset::default();
    let err = |s: &str| {
        PreparedAgent::<State>::new(s, &rules)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_else(|| panic!("{s} was accepted"))
    };
    let cases = [
        (
            "mcts(depth=3)",
            "player mcts has no option 'depth'; valid options: level, iterations, time, threads, c, rollout, cutoff, margin, tree, eval, weights, transpositions, reuse, priors, minimax, mix, seed",
        ),
        (
            "mcts(level=0)",
            "option level=0 is not valid; expected an integer from 1 to 5",
        ),
        (
            "mcts(level=6)",
            "option level=6 is not valid; expected an integer from 1 to 5",
        ),
        ("mcts(level=x)", "level=x is not valid"),
        (
            "mcts(iterations=0)",
            "iterations=0 is not valid; expected an integer from 1 to 1000000000",
        ),
        ("mcts(iterations=-5)", "iterations=-5 is not valid"),
        ("mcts(iterations=1e3)", "iterations=1e3 is not valid"),
        (
            "mcts(time=0)",
            "time=0 is not valid; expected an integer from 1 to 3600000",
        ),
        (
            "mcts(iterations=100,time=50)",
            "option time=50 is not valid; expected a single budget, but iterations= is given too",
        ),
        (
            "mcts(level=2,iterations=100)",
            "option iterations=100 is not valid; expected a single budget, but level= is given too",
        ),
        (
            "mcts(time=5,level=2)",
            "option time=5 is not valid; expected a single budget, but level= is given too",
        ),
        (
            "mcts(threads=0)",
            "threads=0 is not valid; expected an integer from 1 to 256",
        ),
        ("mcts(threads=1000)", "threads=1000 is not valid"),
        (
            "mcts(c=-1)",
            "c=-1 is not valid; expected a number from 0 to 100",
        ),
        ("mcts(c=nan)", "c=nan is not valid"),
        ("mcts(c=inf)", "c=inf is not valid"),
        (
            "mcts(rollout=best)",
            "rollout=best is not valid; expected one of: random, greedy",
        ),
        (
            "mcts(cutoff=1001)",
            "cutoff=1001 is not valid; expected an integer from 0 to 1000",
        ),
        ("mcts(cutoff=-1)", "cutoff=-1 is not valid"),
        ("mcts(cutoff=x)", "cutoff=x is not valid"),
        (
            "mcts(margin=1.5)",
            "margin=1.5 is not valid; expected a number from 0 to 1",
        ),
        ("mcts(margin=nan)", "margin=nan is not valid"),
        (
            "mcts(mix=1.5)",
            "mix=1.5 is not valid; expected a number from 0 to 1",
        ),
        ("mcts(mix=-0.1)", "mix=-0.1 is not valid"),
        (
            "mcts(mix=0.5,cutoff=0)",
            "option mix=0.5 is not valid; expected 1 with cutoff=0, which plays no rollout to mix \
             with the evaluation: give cutoff=N (N of 1 or more) or cutoff=none too",
        ),
        (
            "mcts(tree=moves)",
            "tree=moves is not valid; expected one of: decisions, turns",
        ),
        (
            "mcts(eval=fitted)",
            "eval=fitted is not valid; expected hand: this game has no fitted weights",
        ),
        (
            "mcts(eval=best)",
            "eval=best is not valid; expected hand (this game has no fitted weights)",
        ),
        (
            "mcts(transpositions=yes)",
            "transpositions=yes is not valid; expected on or off",
        ),
        ("mcts(reuse=1)", "reuse=1 is not valid; expected on or off"),
        (
            "mcts(priors=yes)",
            "priors=yes is not valid; expected on or off",
        ),
        (
            "mcts(priors=on,tree=turns)",
            "option priors=on is not valid; expected off with tree=turns, whose children start \
             with their values already: give tree=decisions too, or leave priors out",
        ),
        (
            "mcts(minimax=1.5)",
            "minimax=1.5 is not valid; expected a number from 0 to 1",
        ),
        ("mcts(seed=x)", "seed=x is not valid"),
        ("mcts(level=3,level=3)", "twice"),
        (
            "mcts(eval=hand)",
            "eval=hand is not valid; expected no eval= with these options, which never \
             evaluate a position",
        ),
    ];
    // A network file is an evaluation too: refused where nothing would read it, before it is
    // read.
    let ludii: qasab_core::tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    let got = PreparedAgent::<qasab_core::tab_ludii::State>::new("mcts(weights=x)", &ludii)
        .err()
        .unwrap()
        .to_string();
    assert!(
        got.contains("weights=x is not valid; expected no eval= with these options"),
        "{got}"
    );
    for (spec, want) in cases {
        let got = err(spec);
        assert!(got.contains(want), "{spec}: {got}");
    }
}

/// `eval=` is refused where nothing would read it (rollouts to the end, no minimax values,
/// no mixing, no greedy rollouts, one decision a child), and taken once any of them does.
#[test]
fn an_eval_that_nothing_reads_is_refused() {
    let rules: qasab_core::tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    let make = |s: &str| PreparedAgent::<qasab_core::tab_ludii::State>::new(s, &rules);
    for spec in ["mcts(eval=net)", "mcts(eval=hand,cutoff=none,minimax=0)"] {
        let err = make(spec).err().unwrap().to_string();
        assert!(err.contains("never evaluate a position"), "{spec}: {err}");
    }
    for spec in [
        "mcts(eval=net,cutoff=0)",
        "mcts(eval=net,cutoff=3)",
        "mcts(eval=net,minimax=0.4)",
        "mcts(eval=net,mix=0.5)",
        "mcts(eval=net,rollout=greedy)",
        "mcts(eval=net,tree=turns)",
        "mcts(eval=net,priors=on)",
        "mcts(cutoff=none)",
    ] {
        assert!(make(spec).is_ok(), "{spec}");
    }
}

#[test]
fn specs_round_trip_through_the_agents_name() {
    let rules: qasab_core::tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    for (spec, shown) in [
        ("mcts", "mcts(level=3,seed=5)"),
        ("mcts(level=1)", "mcts(level=1,seed=5)"),
        (
            "mcts(iterations=777,c=0.5)",
            "mcts(iterations=777,c=0.5,seed=5)",
        ),
        (
            "mcts(time=250,threads=2,rollout=captures)",
            "mcts(time=250,threads=2,seed=5)",
        ),
        (
            "mcts(rollout=random)",
            "mcts(level=3,rollout=random,seed=5)",
        ),
        ("mcts(seed=9,c=1.5)", "mcts(level=3,c=1.5,seed=9)"),
        (
            "mcts(rollout=greedy,cutoff=2,margin=0.25)",
            "mcts(level=3,rollout=greedy,cutoff=2,margin=0.25,seed=5)",
        ),
        ("mcts(cutoff=none,margin=0)", "mcts(level=3,seed=5)"),
        (
            "mcts(transpositions=on)",
            "mcts(level=3,transpositions=on,seed=5)",
        ),
        ("mcts(transpositions=off)", "mcts(level=3,seed=5)"),
        (
            "mcts(reuse=on,transpositions=on)",
            "mcts(level=3,transpositions=on,reuse=on,seed=5)",
        ),
        (
            "mcts(priors=on,transpositions=on)",
            "mcts(level=3,transpositions=on,priors=on,seed=5)",
        ),
        ("mcts(priors=off)", "mcts(level=3,seed=5)"),
        ("mcts(minimax=0.4)", "mcts(level=3,minimax=0.4,seed=5)"),
        ("mcts(minimax=0)", "mcts(level=3,seed=5)"),
        ("mcts(mix=0.5)", "mcts(level=3,mix=0.5,seed=5)"),
        ("mcts(mix=1)", "mcts(level=3,seed=5)"),
    ] {
        let agent = PreparedAgent::<qasab_core::tab_ludii::State>::new(spec, &rules)
            .unwrap()
            .make(5);
        assert_eq!(agent.spec(), shown);
        let again = PreparedAgent::<qasab_core::tab_ludii::State>::new(shown, &rules)
            .unwrap()
            .make(0);
        assert_eq!(
            again.spec(),
            shown,
            "the name parses back to the same player"
        );
    }
}

/// On `tab` the rollouts stop at the leaf, the evaluation is the fitted one, `c` is 0.7 and
/// the level 4 unless the spec says otherwise, and the name says so only when it differs.
#[test]
fn a_games_own_defaults_round_trip_too() {
    let rules: qasab_core::tab::Ruleset = "tab".parse().unwrap();
    for (spec, shown) in [
        ("mcts", "mcts(level=4,seed=5)"),
        ("mcts(cutoff=0,eval=fitted,c=0.7)", "mcts(level=4,seed=5)"),
        ("mcts(level=3)", "mcts(level=3,seed=5)"),
        ("mcts(cutoff=none)", "mcts(level=4,cutoff=none,seed=5)"),
        ("mcts(cutoff=3)", "mcts(level=4,cutoff=3,seed=5)"),
        ("mcts(eval=hand)", "mcts(level=4,eval=hand,seed=5)"),
        ("mcts(minimax=0)", "mcts(level=4,minimax=0,seed=5)"),
        ("mcts(minimax=0.4)", "mcts(level=4,seed=5)"),
        (
            "mcts(c=1.4,eval=hand)",
            "mcts(level=4,c=1.4,eval=hand,seed=5)",
        ),
    ] {
        let make = |s: &str| {
            PreparedAgent::<qasab_core::tab::State>::new(s, &rules)
                .unwrap()
                .make(5)
        };
        assert_eq!(make(spec).spec(), shown);
        assert_eq!(make(shown).spec(), shown, "the name parses back");
    }
    // Tihbat weighs the margin by default.
    let rules = tihbat::Ruleset::default();
    for (spec, shown) in [
        ("mcts", "mcts(level=3,seed=5)"),
        ("mcts(margin=0.5)", "mcts(level=3,seed=5)"),
        ("mcts(margin=0)", "mcts(level=3,margin=0,seed=5)"),
    ] {
        let make = |s: &str| PreparedAgent::<State>::new(s, &rules).unwrap().make(5);
        assert_eq!(make(spec).spec(), shown);
        assert_eq!(make(shown).spec(), shown, "the name parses back");
    }
}

#[test]
fn every_ruleset_has_the_mcts_player() {
    for rules in AnyRuleset::presets() {
        with_ruleset!(&rules, r => accepts(r));
    }
}

fn accepts<R: Ruleset>(rules: &R)
where
    R::State: Playable,
{
    for spec in ["mcts", "mcts(level=5,threads=4)", "mcts(time=100,c=0)"] {
        assert!(
            PreparedAgent::<R::State>::new(spec, rules).is_ok(),
            "{rules}: {spec}"
        );
    }
}
