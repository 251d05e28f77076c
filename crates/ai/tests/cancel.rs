//! A search run under a cancelled flag ([`qasab_ai::cancel`]) stops at once with a legal move,
//! whatever its budget; without a flag, or with one never set, it plays as before.

use std::time::{Duration, Instant};

use qasab_ai::cancel::{self, Cancel};
use qasab_ai::play::driver::ChanceSource;
use qasab_ai::players::AnyPlayer;
use qasab_core::{AnyRuleset, AnyState, Turn};

/// The first decision of a seeded `tab` game.
fn decision() -> (AnyRuleset, AnyState) {
    let rules: AnyRuleset = "tab".parse().unwrap();
    let mut state = rules.initial_state();
    let mut chance = ChanceSource::new(7);
    while state.turn() == Turn::Chance {
        let throw = chance.draw_any(&state).unwrap();
        state.try_apply(throw).unwrap();
    }
    (rules, state)
}

#[test]
fn a_cancelled_search_stops_at_once_with_a_legal_move() {
    let (rules, state) = decision();
    let (_, legal) = state.legal_actions();
    for spec in [
        "mcts(time=20000)",
        "mcts(time=20000,threads=2)",
        "expectimax(level=5)",
    ] {
        let player = AnyPlayer::new(spec, &rules).unwrap();
        let flag = Cancel::new();
        flag.cancel();
        let start = Instant::now();
        let chosen = cancel::within(&flag, || player.choose(&state, 1)).unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{spec} took {:?}",
            start.elapsed()
        );
        assert!(legal.iter().any(|(a, _)| *a == chosen), "{spec}: {chosen}");
    }
}

#[test]
fn a_flag_never_set_changes_nothing() {
    let (rules, state) = decision();
    let player = AnyPlayer::new("mcts(iterations=2000)", &rules).unwrap();
    let plain = player.choose(&state, 3);
    let flagged = cancel::within(&Cancel::new(), || player.choose(&state, 3));
    assert_eq!(plain, flagged);
}
