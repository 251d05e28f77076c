//! Property tests for every parser and round trip: ruleset strings, moves, position ids and
//! records, including arbitrary and corrupted input (which must give an error, never a panic).

use proptest::prelude::*;
use qasab_core::record::{Record, replay, write_record};
use qasab_core::tihbat::{
    self, Chain, CycleSplit, EmptySide, Move, Origin, Pit, Position, Singleton,
};
use qasab_core::{Action, AnyRuleset, ByPlayer, GameState, Player, Ruleset};

fn arb_ruleset() -> impl Strategy<Value = tihbat::Ruleset> {
    (
        1u8..=60,
        prop_oneof![Just(Chain::None), Just(Chain::OwnSide)],
        prop_oneof![Just(Origin::Sow), Just(Origin::Skip)],
        prop_oneof![
            Just(Singleton::Null),
            Just(Singleton::Illegal),
            Just(Singleton::Forward)
        ],
        prop_oneof![Just(EmptySide::Pass), Just(EmptySide::End)],
        2u8..=50,
        prop_oneof![Just(CycleSplit::Equal), Just(CycleSplit::OwnSide)],
        prop_oneof![Just(Player::One), Just(Player::Two)],
    )
        .prop_map(
            |(seeds, chain, origin, singleton, empty, repetition, cycle, first)| tihbat::Ruleset {
                seeds,
                chain,
                origin,
                singleton,
                empty,
                repetition,
                cycle,
                first,
            },
        )
}

/// A random game from a seed: the actions, with a simple generator so the test stays small.
fn random_game(
    rules: tihbat::Ruleset,
    mut seed: u64,
    max: usize,
) -> Vec<Action<Move, qasab_core::NoChance>> {
    let mut s = rules.initial_state();
    let mut moves = Vec::new();
    let mut actions = Vec::new();
    while s.turn().player().is_some() && actions.len() < max {
        s.legal_moves(&mut moves);
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = moves[(seed >> 33) as usize % moves.len()];
        s.play_unchecked(m);
        actions.push(Action::Move(m));
    }
    actions
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ruleset_strings_round_trip(r in arb_ruleset()) {
        let text = r.to_string();
        prop_assert_eq!(text.parse::<tihbat::Ruleset>(), Ok(r));
        let any: AnyRuleset = text.parse().unwrap();
        prop_assert_eq!(any.to_string(), text);
    }

    #[test]
    fn explicit_options_in_any_order_give_the_canonical_string(r in arb_ruleset(), rotate in 0usize..8) {
        let mut opts: Vec<String> = tihbat::Ruleset::options()
            .iter()
            .map(|o| format!("{}={}", o.key, r.option_value(o.key).unwrap()))
            .collect();
        opts.rotate_left(rotate);
        let text = format!("tihbat( {} )", opts.join(", "));
        let parsed: tihbat::Ruleset = text.parse().unwrap();
        prop_assert_eq!(parsed, r);
        prop_assert_eq!(parsed.to_string(), r.to_string());
    }

    #[test]
    fn arbitrary_text_never_panics_the_parsers(s in "\\PC{0,40}") {
        let _ = s.parse::<AnyRuleset>();
        let _ = s.parse::<Move>();
        let _ = s.parse::<Position>();
        let _ = tihbat::Ruleset::default().initial_state().parse_move(&s);
        let _ = Record::parse(&s);
    }

    #[test]
    fn ruleset_like_text_never_panics(name in "[a-z]{0,8}", key in "[a-z_]{0,10}", value in "[a-z0-9/.-]{0,6}") {
        let _ = format!("{name}({key}={value})").parse::<AnyRuleset>();
        let _ = format!("tihbat({key}={value})").parse::<AnyRuleset>();
    }

    #[test]
    fn moves_round_trip(pit in 0usize..4, count in 1u8..=240) {
        let m = Move::Sow { pit: Pit::from_index(pit), count };
        prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        prop_assert_eq!(Move::Pass.to_string().parse::<Move>(), Ok(Move::Pass));
    }

    #[test]
    fn position_ids_round_trip(pits in proptest::array::uniform4(0u8..=255), a in 0u8..=255, b in 0u8..=255, north in any::<bool>()) {
        let p = Position { pits, captured: ByPlayer::new(a, b), to_move: if north { Player::Two } else { Player::One } };
        prop_assert_eq!(p.to_string().parse::<Position>(), Ok(p));
    }

    #[test]
    fn records_round_trip(r in arb_ruleset().prop_filter("small", |r| r.seeds <= 12), seed in any::<u64>(), max in 0usize..400) {
        let actions = random_game(r, seed, max);
        let text = write_record::<tihbat::State>(&r, &actions, &[("seed".into(), seed.to_string())]);
        let record = Record::parse(&text).unwrap();
        let replayed = replay::<tihbat::State>(&record).unwrap();
        prop_assert_eq!(&replayed.actions, &actions);
        let mut direct = r.initial_state();
        for a in &actions {
            direct.try_apply(*a).unwrap();
        }
        prop_assert_eq!(replayed.state, direct);
    }

    #[test]
    fn corrupted_records_are_rejected_or_consistent(seed in any::<u64>(), line in any::<prop::sample::Index>(), edit in 0u8..4, byte in any::<u8>()) {
        let r = tihbat::Ruleset::with_seeds(3);
        let actions = random_game(r, seed, 200);
        let text = write_record::<tihbat::State>(&r, &actions, &[]);
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let i = line.index(lines.len());
        match edit {
            0 => { lines.remove(i); }
            1 => { let l = lines[i].clone(); lines.insert(i, l); }
            2 => { lines[i].push(char::from(byte)); }
            _ => { lines.truncate(i); }
        }
        let corrupted = lines.join("\n");
        // Either an error naming a line, or a record whose replay really is legal.
        match Record::parse(&corrupted).and_then(|rec| replay::<tihbat::State>(&rec)) {
            Ok(rep) => {
                let mut s = r.initial_state();
                for a in &rep.actions {
                    prop_assert!(s.try_apply(*a).is_ok());
                }
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

mod tab_notation {
    use proptest::prelude::*;
    use qasab_core::tab::{self, Move, Play, Spot};
    use qasab_core::{GameState, Ruleset};

    fn arb_spot(lane: bool) -> impl Strategy<Value = Spot> {
        let cols = if lane { 9u8 } else { 29 };
        (0u8..4, 0u8..cols).prop_map(move |(row, col)| Spot { row, col, lane })
    }

    fn arb_play() -> impl Strategy<Value = Move> {
        any::<bool>().prop_flat_map(|lane| {
            (
                prop::sample::select(vec![1u8, 2, 3, 4, 6]),
                arb_spot(lane),
                prop::option::of(arb_spot(lane)),
                any::<u32>().prop_map(|m| m & ((1 << 29) - 1)),
                any::<bool>(),
                prop::option::of(0u8..29),
            )
                .prop_map(|(t, from, to, pieces, dissolve, survivor)| {
                    Move::Play(Play {
                        throw: qasab_core::sticks::Throw::from_value(t).unwrap(),
                        from,
                        to,
                        pieces,
                        dissolve,
                        survivor: survivor.unwrap_or(0xFF),
                    })
                })
        })
    }

    proptest! {
        #[test]
        fn tab_moves_round_trip(m in arb_play()) {
            let text = m.to_string();
            prop_assert_eq!(text.parse::<Move>(), Ok(m), "{}", text);
        }

        #[test]
        fn tab_parsers_never_panic(s in "\\PC{0,60}") {
            let _ = s.parse::<Move>();
            let _ = s.parse::<tab::Ruleset>();
            let r = tab::Ruleset::default();
            let _ = r.state_from_id(&s);
            let start = r.initial_state();
            let _ = start.parse_move(&s);
            let _ = start.parse_chance(&s);
        }

        #[test]
        fn tab_id_like_text_never_panics(fields in prop::collection::vec("[a-zA-Z0-9.,:+x-]{0,12}", 10)) {
            let id = fields.join("/");
            for r in ["tab", "tab-hyde", "tab-modern"] {
                let rules: tab::Ruleset = r.parse().unwrap();
                let _ = rules.state_from_id(&id);
            }
        }

        #[test]
        fn tab_ruleset_strings_round_trip(
            preset in prop::sample::select(vec!["tab", "tab-hyde", "tab-modern"]),
            opts in prop::collection::vec(prop::sample::select(vec![
                "reduction=row-entered", "split=dissolve", "throw_timing=interleaved", "p_white=9/16",
                "tab_bank=none", "enemy_row=free", "pieces=5", "survivor=oldest", "turn_cap=500",
                "conversion=in-place", "opening=normal", "throw_use=optional", "stacking=middle-rows",
            ]), 0..5),
        ) {
            let mut keys = std::collections::HashSet::new();
            let opts: Vec<&str> = opts.into_iter().filter(|o| keys.insert(o.split('=').next().unwrap())).collect();
            let text = format!("{preset}({})", opts.join(","));
            if let Ok(r) = text.parse::<tab::Ruleset>() {
                let canonical = r.to_string();
                prop_assert_eq!(canonical.parse::<tab::Ruleset>(), Ok(r));
                let _ = r.initial_state().position_id();
            }
        }
    }
}
