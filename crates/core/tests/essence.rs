//! The essence of a position (`Essence`): what the tables of solved positions store. The
//! counters of the limits (L-18) are dropped, interchangeable pieces numbered one way, and
//! the counts the rules let grow without end cut to the caps (L-8 banked tâbs, LT-6 Ludii's
//! track counts).

mod common;

use qasab_core::{ByPlayer, Essence, EssenceCaps, GameState, Ruleset, tab, tab_ludii};

fn tab_state(rules: &str, id: &str) -> tab::State {
    let r: tab::Ruleset = rules.parse().unwrap();
    r.state_from_id(id).unwrap()
}

#[test]
fn the_limits_counters_are_dropped_and_the_bank_is_cut_to_its_cap() {
    let s = tab_state(
        "tab(columns=7)",
        "throw:w/-/x,x,x,x,x,x,c2.c12v3e40/x,x,x,x,x,x,e3.c34v27c000/24.3/6.6/0.0/11.7.0.40/0.0.0.0.0.0.0/-",
    );
    let e = s.essence(EssenceCaps::default());
    let fields: Vec<String> = e.position_id().split('/').map(str::to_string).collect();
    assert_eq!(fields[4], "8.3", "banks above the cap stand at the cap");
    assert_eq!(
        fields[7], "0.0.0.0",
        "turns, turns without progress, opening throws, actions"
    );
    assert_eq!(
        fields[5], "0.0",
        "captures do not decide the result under end=elimination"
    );
    assert_eq!(e.material(), ByPlayer::new(1, 1));
    // A larger cap keeps the bank; the essence of an essence is itself.
    let kept = s.essence(EssenceCaps {
        bank: 30,
        ..EssenceCaps::default()
    });
    assert_eq!(kept.position_id().split('/').nth(4), Some("24.3"));
    assert_eq!(e.essence(EssenceCaps::default()), e);
    // The same position with other counters has the same essence; `unlimited` keeps the bank.
    let other = tab_state(
        "tab(columns=7)",
        "throw:w/-/x,x,x,x,x,x,c2.c12v3e40/x,x,x,x,x,x,e3.c34v27c000/24.3/6.6/0.0/1.0.0.0/0.0.0.0.0.0.0/-",
    );
    assert_eq!(
        other.essence(EssenceCaps::default()),
        s.essence(EssenceCaps::default())
    );
    assert_eq!(s.unlimited().position_id().split('/').nth(4), Some("24.3"));
}

#[test]
fn interchangeable_pieces_have_one_essence_whatever_their_numbers() {
    // Under reduction=off a piece keeps no squares, so White's one piece on c2 may be any of
    // them.
    let id = |white: &str| {
        format!("throw:w/-/{white}/x,x,x,x,x,x,e3.c34/0.0/6.6/0.0/11.0.0.0/0.0.0.0.0.0.0/-")
    };
    let a = tab_state("tab(columns=7,reduction=off)", &id("x,x,x,x,x,c2.c12,x"));
    let b = tab_state("tab(columns=7,reduction=off)", &id("x,x,x,x,x,x,c2.c12"));
    assert_ne!(a, b);
    let caps = EssenceCaps::default();
    assert_eq!(a.essence(caps), b.essence(caps));
    assert_eq!(a.essence(caps).position_id(), b.essence(caps).position_id());
}

#[test]
fn ludii_track_counts_are_cut_to_their_cap() {
    let r: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    let s = r
        .state_from_id("7/3,W,3/4,B,2/7/white/main/1,0/6,6/5,0x13/0x21/0x14/0x21")
        .unwrap();
    let cut = s.essence(EssenceCaps::default());
    assert!(
        cut.position_id().ends_with("/4,0x13/0x21/0x14/0x21"),
        "{}",
        cut.position_id()
    );
    let kept = s.essence(EssenceCaps {
        counts: 5,
        ..EssenceCaps::default()
    });
    assert!(kept.position_id().ends_with("/5,0x13/0x21/0x14/0x21"));
    // Ludii's Tab keeps no score that decides (LT-9): the captures are dropped.
    assert!(cut.position_id().contains("/0,0/"), "{}", cut.position_id());
}

#[test]
fn ludii_placements_are_valid_positions_at_a_throw_with_the_pieces_asked() {
    let r: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    let mut n = 0u64;
    let given =
        tab_ludii::State::placements(&r, ByPlayer::new(2, 1), EssenceCaps::default(), &mut |s| {
            assert!(s.validate().is_ok());
            assert_eq!(s.turn(), qasab_core::Turn::Chance);
            assert_eq!(s.material(), ByPlayer::new(2, 1));
            n += 1;
        })
        .unwrap();
    assert_eq!(given, n);
    assert!(n > 10_000, "{n}");
    // Bad counts are refused with the reason.
    let err =
        tab_ludii::State::placements(&r, ByPlayer::new(0, 1), EssenceCaps::default(), &mut |_| {})
            .unwrap_err();
    assert!(err.contains("from 1 to 7 pieces"), "{err}");
    let err =
        tab_ludii::State::placements(&r, ByPlayer::new(8, 1), EssenceCaps::default(), &mut |_| {})
            .unwrap_err();
    assert!(err.contains("from 1 to 7 pieces"), "{err}");
}

#[test]
fn a_lone_piece_forgets_the_histories_only_a_stack_reads() {
    // White's one piece on c2 came there by two different ways (the squares it passed, under
    // reduction=square-visited); with no other White piece it can never be in a stack again,
    // so both are one position. Its visit to the enemy row stays (L-10).
    let id = |visited: &str| {
        format!(
            "throw:w/-/x,x,x,x,x,x,c2.c12v{visited}/x,x,x,x,x,x,e3.c34v27c000/0.0/6.6/0.0/11.0.0.0/0.0.0.0.0.0.0/-"
        )
    };
    let caps = EssenceCaps::default();
    let a = tab_state("tab(columns=7)", &id("3e40"));
    let b = tab_state(
        "tab(columns=7)",
        &id("1fffc0").replace("c2.c12v", "c2.c123v"),
    );
    assert_ne!(a, b);
    assert_eq!(a.essence(caps), b.essence(caps));
    // With two pieces a side, the histories stay: a stack may form and read them.
    let two = |white: &str| {
        format!(
            "throw:w/-/x,x,x,x,x,x,{white}/x,x,x,x,x,x,e3.c34v27c000/0.0/6.5/0.0/11.0.0.0/0.0.0.0.0.0.0/-"
        )
        .replacen("x,x,x,x,x,x,", "x,x,x,x,x,g1.c1v60,", 1)
    };
    let (c, d) = (
        tab_state("tab(columns=7)", &two("c2.c12v3e40")),
        tab_state("tab(columns=7)", &two("c2.c123v1fffc0")),
    );
    assert_ne!(c.essence(caps), d.essence(caps));
}

#[test]
fn accumulated_pending_throws_are_cut_to_their_cap_per_kind() {
    // White throws on with four 1s, two 4s and one 6 pending (L-5).
    let id = "throw:w/1111446/x,x,x,x,x,x,c2.c12v3e40/x,x,x,x,x,x,e3.c34v27c000/0.0/6.6/0.0/11.0.0.0/0.0.0.0.0.0.0/-";
    let s = tab_state("tab(columns=7)", id);
    let cut = s.essence(EssenceCaps {
        pending: 2,
        ..EssenceCaps::default()
    });
    assert_eq!(cut.position_id().split('/').nth(1), Some("11446"));
    let kept = s.essence(EssenceCaps {
        pending: 4,
        ..EssenceCaps::default()
    });
    assert_eq!(kept.position_id().split('/').nth(1), Some("1111446"));
    // Cutting again changes nothing.
    assert_eq!(
        cut.essence(EssenceCaps {
            pending: 2,
            ..EssenceCaps::default()
        }),
        cut
    );
}

/// Plays seeded random games of `rules` and checks, at every throw, that the essence's id
/// reads back to the essence itself.
fn essence_ids_read_back<S>(rules: &S::Ruleset, games: u64)
where
    S: Essence + PartialEq + std::fmt::Debug,
{
    use rand_core::SeedableRng;
    let caps = EssenceCaps {
        bank: 2,
        counts: 1,
        pending: 1,
    };
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    for seed in 0..games {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = rules.initial_state();
        for _ in 0..2_000 {
            match s.turn() {
                qasab_core::Turn::Over(_) => break,
                qasab_core::Turn::Chance => {
                    for e in [s.essence(caps), s.essence(EssenceCaps::default())] {
                        let back = S::from_essence_id(rules, &e.position_id())
                            .unwrap_or_else(|err| panic!("{rules}: {err}"));
                        assert_eq!(back, e, "{rules}: {}", e.position_id());
                    }
                }
                qasab_core::Turn::Player(_) => {}
            }
            if !common::random_action(&mut s, &mut rng, &mut moves, &mut outs) {
                break;
            }
        }
    }
}

#[test]
fn the_id_of_an_essence_reads_back_to_it() {
    // Every value of every option of the faithful family.
    for r in common::tab_variants() {
        essence_ids_read_back::<tab::State>(&r, 2);
    }
    for name in ["tab-ludii", "tab-hyde-ludii"] {
        let r: tab_ludii::Ruleset = name.parse().unwrap();
        essence_ids_read_back::<tab_ludii::State>(&r, 4);
    }
}
