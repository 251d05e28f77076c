//! The integer action encoding: in random playouts of every preset (and of every Tâb option
//! value), every legal move gets a distinct id in range that maps back to itself, and every
//! chance outcome an id in range.

mod common;

use qasab_core::{ActionIdError, ActionIds, AnyRuleset, GameState, Ruleset, Turn, with_ruleset};
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Plays `games` seeded random games, checking the encoding at every step; returns the largest
/// rank seen within one slot.
fn check<R: Ruleset>(rules: &R, games: u64, max_actions: u32) -> u32
where
    R::State: ActionIds,
{
    type S<R> = <R as Ruleset>::State;
    let n = S::<R>::num_distinct_actions(rules);
    let v = S::<R>::variants(rules);
    let chances = S::<R>::max_chance_outcomes(rules);
    let cap = S::<R>::max_game_length(rules);
    let mut widest = 0;
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    for seed in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = rules.initial_state();
        let mut decisions = 0u64;
        while s.actions() < max_actions {
            let ids = s.legal_ids().unwrap_or_else(|e| panic!("{rules}: {e}"));
            assert!(
                ids.windows(2).all(|w| w[0] < w[1]),
                "{rules}: ids not distinct"
            );
            match s.turn() {
                Turn::Player(_) => {
                    decisions += 1;
                    assert!(decisions <= cap, "{rules}: past {cap}");
                    s.legal_moves(&mut moves);
                    assert_eq!(ids.len(), moves.len());
                    let pairs = s.legal_moves_by_id().unwrap();
                    assert_eq!(pairs.iter().map(|p| p.0).collect::<Vec<_>>(), ids);
                    for &(id, m) in &pairs {
                        assert_eq!(s.move_from_id(i64::from(id)).unwrap(), m, "{rules}");
                    }
                    for &m in &moves {
                        let id = s.move_id(m).unwrap();
                        assert!(id < n, "{rules}: {m} has id {id} of {n}");
                        if id < n - S::<R>::specials(rules) {
                            widest = widest.max(id % v);
                        }
                        assert_eq!(s.move_from_id(i64::from(id)).unwrap(), m, "{rules}");
                    }
                }
                Turn::Chance => {
                    s.chance_outcomes(&mut outs);
                    assert_eq!(ids.len(), outs.len());
                    for w in &outs {
                        let id = S::<R>::chance_id(w.outcome);
                        assert!(id < chances);
                        assert_eq!(s.chance_from_id(i64::from(id)).unwrap(), w.outcome);
                    }
                }
                Turn::Over(_) => {
                    assert!(ids.is_empty());
                    break;
                }
            }
            if !common::random_action(&mut s, &mut rng, &mut moves, &mut outs) {
                break;
            }
        }
    }
    widest
}

#[test]
fn every_preset_numbers_its_moves_one_to_one() {
    for any in AnyRuleset::presets() {
        let widest = with_ruleset!(&any, r => check(r, 20, 20_000));
        eprintln!("{any}: widest slot rank {widest}");
    }
    for text in [
        "tab-ludii(columns=7)",
        "tab-ludii(columns=15)",
        "tab-hyde-ludii(columns=29)",
        "tihbat(seeds=5)",
    ] {
        let any: AnyRuleset = text.parse().unwrap();
        with_ruleset!(&any, r => check(r, 10, 20_000));
    }
}

/// Games per Tâb variant: 3, or `QASAB_ACTION_GAMES` for a longer search for wide slots.
fn games_per_variant() -> u64 {
    std::env::var("QASAB_ACTION_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
}

#[test]
fn every_tab_option_value_fits_the_encoding() {
    let mut widest = 0;
    for rules in common::tab_variants() {
        let w = check(&rules, games_per_variant(), 20_000);
        if w > widest {
            eprintln!("{rules}: widest slot rank {w}");
        }
        widest = widest.max(w);
    }
}

fn sizes<R: Ruleset>(r: &R) -> (u32, u32)
where
    R::State: ActionIds,
{
    (
        R::State::num_distinct_actions(r),
        R::State::max_chance_outcomes(r),
    )
}

#[test]
fn the_space_depends_only_on_the_options() {
    let sizes: Vec<(String, u32, u32)> = AnyRuleset::presets()
        .iter()
        .map(|any| {
            with_ruleset!(any, r => (
                any.to_string(),
                sizes(r).0,
                sizes(r).1,
            ))
        })
        .collect();
    let want = [
        ("tab", 36 * 5 * 38 + 7, 5),
        ("tab-hyde", 52 * 5 * 106 + 7, 5),
        ("tab-modern", 40 * 5 * 42 + 7, 5),
        ("tab-ludii", 28 * 5 * 8 + 1, 5),
        ("tab-hyde-ludii", 52 * 5 * 8 + 1, 5),
        ("tihbat", 5, 0),
    ];
    for ((name, n, c), (wname, wn, wc)) in sizes.iter().zip(want) {
        assert!(name.starts_with(wname), "{name}");
        assert_eq!((*n, *c), (wn, wc), "{name}");
    }
}

#[test]
fn bad_ids_are_errors() {
    let rules: qasab_core::tihbat::Ruleset = "tihbat".parse().unwrap();
    let s = rules.initial_state();
    assert!(matches!(
        s.move_from_id(-1),
        Err(ActionIdError::OutOfRange { .. })
    ));
    assert!(matches!(
        s.move_from_id(5),
        Err(ActionIdError::OutOfRange { .. })
    ));
    // South owns A and B (T-1): C is not legal, nor is passing.
    assert!(matches!(
        s.move_from_id(2),
        Err(ActionIdError::NotLegal { .. })
    ));
    assert!(matches!(
        s.move_from_id(4),
        Err(ActionIdError::NotLegal { .. })
    ));
    assert_eq!(s.move_from_id(0).unwrap().to_string(), "A7");
    assert!(matches!(
        s.chance_from_id(0),
        Err(ActionIdError::OutOfRange { .. })
    ));
    let tab: qasab_core::tab::Ruleset = "tab".parse().unwrap();
    let t = tab.initial_state();
    assert_eq!(t.turn(), Turn::Chance);
    assert_eq!(t.legal_ids().unwrap(), vec![0, 1, 2, 3, 4]);
    assert!(matches!(
        t.move_from_id(0),
        Err(ActionIdError::NotLegal { .. })
    ));
}

fn observe_all<R: Ruleset>(rules: &R)
where
    R::State: qasab_core::Observe,
{
    use qasab_core::Observe;
    let shape = R::State::observation_shape(rules);
    let len: usize = shape.iter().product();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut s = rules.initial_state();
    let (mut moves, mut outs, mut obs) = (Vec::new(), Vec::new(), Vec::new());
    loop {
        s.observation(&mut obs);
        assert_eq!(obs.len(), len, "{rules}");
        assert!(obs.iter().all(|x| x.is_finite() && *x >= 0.0), "{rules}");
        if !common::random_action(&mut s, &mut rng, &mut moves, &mut outs) {
            break;
        }
    }
}

#[test]
fn observations_have_their_shape() {
    for any in AnyRuleset::presets() {
        with_ruleset!(&any, r => observe_all(r));
    }
}
