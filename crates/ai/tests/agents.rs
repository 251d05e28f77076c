//! Agents and the game driver: pinned random games, the solver's play, simulation determinism.

use std::fs;
use std::path::Path;

use qasab_ai::play::driver::{ChanceSource, play_out, seat_seed};
use qasab_ai::play::simulate::simulate;
use qasab_ai::players::{Playable, PreparedAgent};
use qasab_ai::spec::AgentSpec;
use qasab_ai::{AgentError, Solver};
use qasab_core::record::Record;
use qasab_core::tihbat::{self, State};
use qasab_core::{Action, AnyRuleset, GameState, Player, Ruleset, with_ruleset};

/// Plays a seeded game between two random agents, as `qasab play --south random --north random`.
fn seeded_random_game<R: Ruleset>(rules: &R, seed: u64) -> Vec<String>
where
    R::State: Playable,
{
    let mut agents = Player::ALL.map(|p| {
        PreparedAgent::<R::State>::new("random", rules)
            .unwrap()
            .make(seat_seed(seed, p))
    });
    let mut chance = ChanceSource::new(seed);
    let mut actions = Vec::new();
    play_out(rules.initial_state(), &mut agents, &mut chance, |_, a| {
        actions.push(a.to_string())
    });
    actions
}

/// The golden records were made by seeded random play; the same seed must still give the same
/// actions. If this fails, the generator or the seed derivation changed (see `qasab_ai::rng`).
#[test]
fn seeded_random_play_reproduces_the_golden_records() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/data/replays");
    let mut checked = 0;
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "qrec") {
            continue;
        }
        let record = Record::parse(&fs::read_to_string(&path).unwrap()).unwrap();
        let seed: u64 = record
            .info
            .iter()
            .find(|(k, _)| k == "seed")
            .unwrap()
            .1
            .parse()
            .unwrap();
        let any: AnyRuleset = record.ruleset.parse().unwrap();
        let got = with_ruleset!(&any, r => seeded_random_game(r, seed));
        let want: Vec<String> = record.actions.iter().map(|a| a.text.clone()).collect();
        assert_eq!(got, want, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 3);
}

#[test]
fn solver_self_play_realises_the_value() {
    for text in [
        "tihbat",
        "tihbat(seeds=3)",
        "tihbat(seeds=5,cycle=own-side)",
        "tihbat(seeds=4,empty=end,chain=own-side)",
        "tihbat(seeds=6,repetition=3)",
    ] {
        let rules: tihbat::Ruleset = text.parse().unwrap();
        let solver = Solver::new(rules).unwrap();
        let start = rules.initial_state();
        let value = solver.value(start.position().pits, rules.first).unwrap();
        for seed in 0..4 {
            let mut agents = Player::ALL.map(|p| {
                PreparedAgent::<State>::new("solver", &rules)
                    .unwrap()
                    .make(seed * 2 + p.index() as u64)
            });
            let end = play_out(
                start.clone(),
                &mut agents,
                &mut ChanceSource::new(seed),
                |_, _| {},
            );
            let o = end.turn().outcome().unwrap();
            let margin = o.scores[rules.first] as i32 - o.scores[!rules.first] as i32;
            assert_eq!(margin, value, "{text}, seed {seed}");
        }
    }
}

#[test]
fn solver_never_does_worse_than_its_value() {
    let rules = tihbat::Ruleset::default();
    let solver = Solver::new(rules).unwrap();
    let value = solver.value([7; 4], Player::One).unwrap();
    for seed in 0..200 {
        for solver_seat in Player::ALL {
            let mut agents = Player::ALL.map(|p| {
                let spec = if p == solver_seat { "solver" } else { "random" };
                PreparedAgent::<State>::new(spec, &rules)
                    .unwrap()
                    .make(seat_seed(seed, p))
            });
            let end = play_out(
                rules.initial_state(),
                &mut agents,
                &mut ChanceSource::new(seed),
                |_, _| {},
            );
            let o = end.turn().outcome().unwrap();
            let margin = o.scores[solver_seat] as i32 - o.scores[!solver_seat] as i32;
            let guaranteed = if solver_seat == rules.first {
                value
            } else {
                -value
            };
            assert!(
                margin >= guaranteed,
                "seed {seed}: solver as {solver_seat} got {margin} < {guaranteed}"
            );
        }
    }
}

#[test]
fn simulation_results_do_not_depend_on_threads() {
    let rules = tihbat::Ruleset::with_seeds(5);
    let one = simulate::<State>(
        &rules,
        ["random", "random(seed=9)"],
        None,
        300,
        42,
        1,
        &|| {},
    )
    .unwrap();
    let two = simulate::<State>(
        &rules,
        ["random", "random(seed=9)"],
        None,
        300,
        42,
        2,
        &|| {},
    )
    .unwrap();
    assert_eq!(one, two);
    let other = simulate::<State>(
        &rules,
        ["random", "random(seed=9)"],
        None,
        300,
        43,
        2,
        &|| {},
    )
    .unwrap();
    assert_ne!(one, other, "a different seed gives different games");
}

#[test]
fn agent_specs_are_checked() {
    let rules = tihbat::Ruleset::default();
    let err = |s: &str| {
        PreparedAgent::<State>::new(s, &rules)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    // The players listed are this ruleset's: Tihbat has the solver and no network.
    assert!(
        err("oracle").contains(
            "unknown player 'oracle'; valid players: random, solver, mcts, greedy, expectimax, \
             strongest"
        ),
        "{}",
        err("oracle")
    );
    assert!(!err("oracle").contains("net"));
    assert!(err("random(depth=3)").contains("no option 'depth'"));
    assert!(err("random(seed=x)").contains("seed=x is not valid"));
    assert!(err("random(").contains("bad player spec"));
    assert!(err("random(seed=1,seed=2)").contains("twice"));
    assert!(PreparedAgent::<State>::new("solver(seed=3)", &rules).is_ok());
    // Only the Tâb family has fitted evaluation weights.
    for spec in ["greedy(eval=fitted)", "expectimax(eval=fitted)"] {
        assert!(
            err(spec).contains(
                "eval=fitted is not valid; expected hand: this game has no fitted weights"
            ),
            "{spec}: {}",
            err(spec)
        );
    }
    assert!(err("greedy(eval=x)").contains("eval=x is not valid"));
    assert!(PreparedAgent::<State>::new("greedy(eval=hand)", &rules).is_ok());
    let tab: qasab_core::tab::Ruleset = "tab".parse().unwrap();
    let tab_spec = |s: &str| {
        PreparedAgent::<qasab_core::tab::State>::new(s, &tab)
            .map(|a| a.make(3).spec())
            .map_err(|e| e.to_string())
    };
    assert_eq!(
        tab_spec("greedy(eval=fitted)").unwrap(),
        "greedy(eval=fitted,seed=3)"
    );
    assert_eq!(tab_spec("greedy(eval=hand)").unwrap(), "greedy(seed=3)");
    assert_eq!(
        tab_spec("expectimax(eval=fitted)").unwrap(),
        "expectimax(eval=fitted,seed=3)"
    );
    // Tâb has a network on every board and no solver; Hyde's game on a board without a
    // network has neither.
    assert!(
        tab_spec("oracle")
            .unwrap_err()
            .ends_with("valid players: random, mcts, greedy, expectimax, net, strongest")
    );
    let wide: qasab_core::tab::Ruleset = "tab(columns=11)".parse().unwrap();
    let wide_err = PreparedAgent::<qasab_core::tab::State>::new("oracle", &wide)
        .err()
        .unwrap()
        .to_string();
    assert!(
        wide_err.ends_with("valid players: random, mcts, greedy, expectimax, net, strongest"),
        "{wide_err}"
    );
    let wide: qasab_core::tab::Ruleset = "tab-modern(columns=11)".parse().unwrap();
    let wide_err = PreparedAgent::<qasab_core::tab::State>::new("oracle", &wide)
        .err()
        .unwrap()
        .to_string();
    assert!(
        wide_err.ends_with("valid players: random, mcts, greedy, expectimax, strongest"),
        "{wide_err}"
    );
    assert!(
        tab_spec("greedy(eval=best)")
            .unwrap_err()
            .contains("expected hand, fitted or net")
    );
    assert_eq!(
        AgentSpec::parse("random( seed = 4 )").unwrap().to_string(),
        "random(seed=4)"
    );
    assert!(matches!(
        AgentSpec::parse(""),
        Err(AgentError::Syntax { .. })
    ));
}

#[test]
fn random_agent_only_plays_legal_moves_and_covers_them() {
    let rules = tihbat::Ruleset::default();
    let mut agent = PreparedAgent::<State>::new("random", &rules)
        .unwrap()
        .make(1);
    let s = rules.initial_state();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..64 {
        let m = agent.choose(&s);
        assert!(s.is_legal(m));
        seen.insert(m);
    }
    assert_eq!(seen.len(), 2);
    let _ = Action::<tihbat::Move, qasab_core::NoChance>::Move(*seen.iter().next().unwrap());
}

mod spec_properties {
    use proptest::prelude::*;
    use qasab_ai::AgentSpec;
    use qasab_ai::players::PreparedAgent;
    use qasab_core::tihbat::{Ruleset, State};

    proptest! {
        #[test]
        fn agent_specs_round_trip(name in "[a-z]{1,8}", seed in any::<u64>()) {
            let text = format!("{name}(seed={seed})");
            let spec = AgentSpec::parse(&text).unwrap();
            prop_assert_eq!(spec.to_string(), text);
            prop_assert_eq!(spec.seed().unwrap(), Some(seed));
        }

        #[test]
        fn arbitrary_specs_never_panic(text in "\\PC{0,30}") {
            let _ = PreparedAgent::<State>::new(&text, &Ruleset::with_seeds(2));
        }
    }
}

/// Every player's options are declared once: the documentation lists them, and a spec with
/// another key is refused with exactly that list.
#[test]
fn each_players_options_are_documented_and_refused_keys_list_them() {
    use qasab_ai::players::{AGENT_NAMES, option_docs};
    let tihbat: qasab_core::AnyRuleset = "tihbat".parse().unwrap();
    for name in AGENT_NAMES {
        let docs = option_docs(name).expect("every player has option docs");
        assert!(docs.iter().any(|d| d.key == "seed"), "{name} takes seed=");
        assert!(
            docs.iter()
                .all(|d| !d.help.is_empty() && !d.values.is_empty())
        );
        let keys: Vec<&str> = docs.iter().map(|d| d.key).collect();
        let e = qasab_ai::AnyPlayer::new(&format!("{name}(colour=red)"), &tihbat)
            .err()
            .expect("an unknown key is refused")
            .to_string();
        assert!(
            e.ends_with(&format!("valid options: {}", keys.join(", "))),
            "{e}"
        );
    }
    assert!(option_docs("alphazero").is_none());
}
