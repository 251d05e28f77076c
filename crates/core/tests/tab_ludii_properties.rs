//! Property tests for the Ludii presets: move notation, ruleset strings, position ids and
//! records round-trip, and arbitrary text never panics a parser.

use proptest::prelude::*;
use qasab_core::record::{Record, replay, write_record};
use qasab_core::sticks::{StickOdds, Throw};
use qasab_core::tab_ludii::{Cell, Move, Preset, Ruleset, State, Step};
use qasab_core::{Action, AnyRuleset, GameState, Ruleset as _, Turn};

fn arb_ruleset() -> impl Strategy<Value = Ruleset> {
    (
        prop_oneof![Just(Preset::Tab), Just(Preset::Hyde)],
        0usize..5,
        1u64..20,
        1u32..=1_000_000,
        1u32..=1_000_000,
    )
        .prop_map(|(preset, size, white, turn_cap, move_cap)| {
            let choices = preset.column_choices();
            Ruleset::new(preset, choices[size % choices.len()])
                .unwrap()
                .with_p_white(StickOdds::new(white, 20).unwrap())
                .with_caps(turn_cap, move_cap)
                .unwrap()
        })
}

fn arb_step() -> impl Strategy<Value = Move> {
    (
        0usize..5,
        0u8..4,
        0u8..29,
        0u8..4,
        0u8..29,
        0u8..30,
        any::<bool>(),
    )
        .prop_map(|(t, fr, fc, tr, tc, part, lane)| {
            // Lane's letters exist only for the first nine columns.
            let lane = lane && fc < 9 && tc < 9;
            Move::Step(Step {
                throw: Throw::ALL[t],
                from: Cell { row: fr, col: fc },
                to: Cell { row: tr, col: tc },
                part,
                lane,
            })
        })
}

/// A random game's actions from a seed, with a small generator so the test stays small.
fn random_game(rules: Ruleset, mut seed: u64, max: usize) -> Vec<Action<Move, Throw>> {
    let mut s: State = rules.initial_state();
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    let mut actions = Vec::new();
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    while actions.len() < max {
        let a = match s.turn() {
            Turn::Over(_) => break,
            Turn::Chance => {
                s.chance_outcomes(&mut outs);
                Action::Chance(outs[next() as usize % outs.len()].outcome)
            }
            Turn::Player(_) => {
                s.legal_moves(&mut moves);
                Action::Move(moves[next() as usize % moves.len()])
            }
        };
        s.try_apply(a).unwrap();
        actions.push(a);
    }
    actions
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ruleset_strings_round_trip(r in arb_ruleset()) {
        let text = r.to_string();
        prop_assert_eq!(text.parse::<Ruleset>(), Ok(r));
        let any: AnyRuleset = text.parse().unwrap();
        prop_assert_eq!(any.to_string(), text);
    }

    #[test]
    fn explicit_options_in_any_order_give_the_canonical_string(r in arb_ruleset(), rotate in 0usize..4) {
        let mut opts: Vec<String> = Ruleset::options()
            .iter()
            .map(|o| format!("{}={}", o.key, r.option_value(o.key).unwrap()))
            .collect();
        opts.rotate_left(rotate);
        let text = format!("{}( {} )", r.name(), opts.join(", "));
        let parsed: Ruleset = text.parse().unwrap();
        prop_assert_eq!(parsed, r);
    }

    #[test]
    fn move_notation_round_trips(m in arb_step()) {
        prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        prop_assert_eq!(Move::Pass.to_string().parse::<Move>(), Ok(Move::Pass));
    }

    #[test]
    fn arbitrary_text_never_panics_the_parsers(s in "\\PC{0,40}") {
        let _ = s.parse::<Move>();
        let _ = s.parse::<Ruleset>();
        for name in ["tab-ludii", "tab-hyde-ludii"] {
            let rules: Ruleset = name.parse().unwrap();
            let _ = rules.state_from_id(&s);
            let mut st = rules.initial_state();
            let _ = st.parse_chance(&s);
            st.apply_chance_unchecked(Throw::TAB);
            let _ = st.parse_move(&s);
        }
    }

    #[test]
    fn notation_like_text_never_panics(t in "[0-9a-z]{0,2}", a in "[a-zA-Z]{0,2}[0-9]{0,2}", b in "[a-zA-Z]{0,2}[0-9]{0,2}", n in "[0-9x]{0,3}") {
        let text = format!("{t}:{a}-{b}*{n}");
        let _ = text.parse::<Move>();
        let mut st = Ruleset::default().initial_state();
        st.apply_chance_unchecked(Throw::TAB);
        let _ = st.parse_move(&text);
        let _ = format!("tab-ludii(columns={t}{n})").parse::<AnyRuleset>();
    }

    #[test]
    fn records_and_position_ids_round_trip(r in arb_ruleset(), seed in any::<u64>(), max in 0usize..600) {
        let actions = random_game(r, seed, max);
        let text = write_record::<State>(&r, &actions, &[("seed".into(), seed.to_string())]);
        let replayed = replay::<State>(&Record::parse(&text).unwrap()).unwrap();
        prop_assert_eq!(&replayed.actions, &actions);
        let id = replayed.state.position_id();
        prop_assert_eq!(r.state_from_id(&id), Ok(replayed.state));
    }

    #[test]
    fn corrupted_ids_are_rejected_or_read_back(seed in any::<u64>(), max in 0usize..300, at in any::<prop::sample::Index>(), byte in 32u8..127) {
        let r = Ruleset::default();
        let actions = random_game(r, seed, max);
        let mut s = r.initial_state();
        for a in &actions {
            s.try_apply(*a).unwrap();
        }
        let mut id = s.position_id().into_bytes();
        let i = at.index(id.len());
        id[i] = byte;
        let id = String::from_utf8(id).unwrap();
        if let Ok(t) = r.state_from_id(&id) {
            prop_assert_eq!(r.state_from_id(&t.position_id()), Ok(t));
        }
    }
}
