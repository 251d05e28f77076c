//! The dynamic game (`AnyRuleset`, `AnyState`, `AnyAction`, `AnyGame`) against the typed games
//! it wraps: the same actions, texts, ids, records and drawings, on every preset.

use qasab_core::view::Drawing;
use qasab_core::{
    ActionError, AnyAction, AnyGame, AnyRuleset, AnyState, GameState, ParseActionError,
    RULESET_NAMES, Ruleset, Turn, tab, with_ruleset, with_state,
};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A seeded random game played through the dynamic types only: each action is chosen from the
/// legal list, written as text, read back with `parse_action` and applied.
fn random_game(rules: &AnyRuleset, seed: u64, max: usize) -> AnyGame {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut game = AnyGame::new(rules);
    for _ in 0..max {
        let (denominator, legal) = game.state().legal_actions();
        if legal.is_empty() {
            assert!(
                game.state().outcome().is_some(),
                "no action only at the end"
            );
            break;
        }
        if let Some(total) = denominator {
            let sum: u32 = legal.iter().map(|(_, w)| w.expect("a chance weight")).sum();
            assert_eq!(sum, total, "the weights sum to the denominator");
        }
        let (action, _) = legal[(rng.next_u64() % legal.len() as u64) as usize];
        let text = action.to_string();
        let read = game
            .state()
            .parse_action(&text)
            .expect("a legal action reads back");
        assert_eq!(read, action, "{text}");
        let id = game
            .state()
            .action_id(action)
            .expect("a legal action has an id");
        assert_eq!(game.state().action_from_id(i64::from(id)), Ok(action));
        assert!(game.state().legal_ids().unwrap().contains(&id));
        let before = game.state().clone();
        game.apply_unchecked(action).unwrap();
        let mut again = before;
        again.try_apply(action).unwrap();
        assert_eq!(&again, game.state(), "checked and unchecked agree");
    }
    game
}

#[test]
fn the_registry_names_every_preset_once_and_each_parses_to_itself() {
    let presets = AnyRuleset::presets();
    assert_eq!(presets.len(), RULESET_NAMES.len());
    for (r, name) in presets.iter().zip(RULESET_NAMES) {
        assert_eq!(r.name(), *name);
        assert_eq!(r.to_string(), *name);
        assert_eq!(name.parse::<AnyRuleset>().as_ref(), Ok(r));
    }
    let e = "tabb".parse::<AnyRuleset>().unwrap_err().to_string();
    assert!(
        e.contains("valid rulesets: tab, tab-hyde, tab-modern, tab-ludii"),
        "{e}"
    );
}

#[test]
fn dynamic_games_agree_with_the_typed_games_and_their_records() {
    for rules in AnyRuleset::presets() {
        for seed in 0..4 {
            let game = random_game(&rules, seed, 300);
            // The same actions on the typed state reach the same position.
            let id = game.state().position_id();
            with_ruleset!(&rules, r => {
                let typed = r.state_from_id(&id).unwrap();
                assert_eq!(typed.position_id(), id);
            });
            assert_eq!(rules.state_from_id(&id).as_ref(), Ok(game.state()));
            // The record replays to the same game.
            let text = game.record(&[("south".into(), "random".into())]);
            let back = AnyGame::from_record(&text).unwrap();
            assert_eq!(back, game, "{rules}: the record replays");
            // Taking back to half way is replaying half the actions.
            let half = game.actions().len() / 2;
            let mut short = game.clone();
            short.truncate(half);
            let mut replayed = AnyGame::new(&rules);
            for &a in &game.actions()[..half] {
                replayed.try_apply(a).unwrap();
            }
            assert_eq!(short, replayed);
        }
    }
}

#[test]
fn actions_of_another_game_and_actions_after_the_end_are_refused() {
    let tihbat: AnyRuleset = "tihbat".parse().unwrap();
    let mut tab_game = AnyGame::new(&"tab".parse().unwrap());
    let (_, legal) = tihbat.initial_state().legal_actions();
    let e = tab_game.try_apply(legal[0].0).unwrap_err();
    assert!(matches!(e, ActionError::OtherGame { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        format!("{} is an action of tihbat, not of tab", legal[0].0)
    );
    assert!(tab_game.actions().is_empty(), "nothing was applied");
    // A finished game takes no action.
    let over = random_game(&tihbat, 1, 100_000);
    let o = over.state().outcome().expect("a game of tihbat ends");
    assert_eq!(
        over.state().parse_action("A7"),
        Err(ParseActionError::Over(o))
    );
}

#[test]
fn text_with_shorthand_is_read_in_full_and_bad_text_is_explained() {
    let rules: AnyRuleset = "tihbat".parse().unwrap();
    let mut s = rules.initial_state();
    assert_eq!(s.apply_text("a").unwrap().to_string(), "A7");
    let e = s.parse_action("B9").unwrap_err().to_string();
    assert!(e.contains("pit B belongs to south"), "{e}");
    let tab: AnyRuleset = "tab".parse().unwrap();
    let s = tab.initial_state();
    assert_eq!(s.turn(), Turn::Chance);
    let e = s.parse_action("5").unwrap_err().to_string();
    assert!(e.contains("'5' is not a chance outcome"), "{e}");
}

#[test]
fn every_state_has_its_games_drawing_with_the_last_throw() {
    let rules: AnyRuleset = "tab".parse().unwrap();
    let mut s = rules.initial_state();
    let throw = s.apply_text("2").unwrap();
    let description = format!("{throw}");
    match s.drawing(Some((throw, description.clone()))) {
        Drawing::Tab(d) => {
            assert_eq!(d.columns, 9);
            assert_eq!(d.rows.len(), 4);
            let last = d.last_throw.expect("the last throw is drawn");
            assert_eq!((last.value, last.description), (2, Some(description)));
        }
        other => panic!("{other:?}"),
    }
    for rules in AnyRuleset::presets() {
        let d = rules.initial_state().drawing(None);
        let is_tihbat = rules.name() == "tihbat";
        assert_eq!(matches!(d, Drawing::Tihbat(_)), is_tihbat, "{rules}");
    }
}

#[test]
fn with_state_reaches_the_typed_state() {
    let s: AnyState = "tab".parse::<AnyRuleset>().unwrap().initial_state();
    let n = with_state!(&s, t => t.actions());
    assert_eq!(n, 0);
    if let AnyState::Tab(t) = &s {
        let _: &tab::State = t;
    } else {
        panic!("a tab state");
    }
    let a: AnyAction = s.legal_actions().1[0].0;
    assert_eq!(serde_json::to_value(a).unwrap(), serde_json::json!(1));
}
