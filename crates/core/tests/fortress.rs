//! Sanctuaries (`Essence::sanctuaries`, docs/ENDGAMES.md "Fortresses"): units that no enemy
//! piece can ever reach and that their owner never has to move. Named positions from games
//! that strong players stopped at the no-progress limit, the readings under which the same
//! unit is no sanctuary, and random continuations that check both halves of the claim against
//! the rules themselves.

mod common;

use qasab_core::{Essence, GameState, Player, Ruleset, Turn, tab};
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

fn state(rules: &str, id: &str) -> tab::State {
    let r: tab::Ruleset = rules.parse().unwrap();
    r.state_from_id(id).unwrap()
}

const NONE: [Vec<String>; 2] = [Vec::new(), Vec::new()];

fn sanctuaries(s: &tab::State) -> [Vec<String>; 2] {
    s.sanctuaries()
        .expect("end=elimination")
        .into_array()
        .map(|side| side.into_iter().map(|u| u.square).collect())
}

/// White's stack of two on `i`, in Black's home row, 11 banked tâbs; Black's three pieces go
/// round the middle rows (`qasab endgame stalls tab --players net,net --seed 1`, game 10).
const WHITE_STACK_ON_I: &str = "throw:b/-/x,x,i.ce1234vffffffffc,x,x,x,x,x,i.ce1234vfffffff00/x,k.ce1234v7ffffffff,N.ce1234v3ffffffff,x,K.ce1234vffffffff,x,x,x,x/11.0/6.7/0.0/156.0.1.562/247.42.17.0.36.0.0/-";

/// Each side's stack of two on the last square of the enemy row (game 88).
const BOTH_STACKS: &str = "throw:w/-/x,x,i.ce1234vffffffffc,x,x,x,x,x,i.ce1234vfffffff00/x,I.ce1234v7ffffffff,x,x,x,x,x,x,I.ce1234vfffffff/22.23/7.7/0.0/156.0.2.508/260.56.16.0.55.0.0/-";

/// Black's stack of three on H, one square before the end of White's home row, whose every
/// member has passed I (game 82).
const BLACK_STACK_ON_H: &str = "throw:b/-/x,x,i.ce1234vffffffffc,x,x,x,x,x,i.ce1234vfffffff00/x,K.ce1234v7ffffffff,H.ce1234v3fffffeff,H.ce1234v1fffffeff,H.ce1234vfffffeff,x,x,x,x/12.0/5.7/0.0/177.0.8.637/280.50.18.0.39.0.0/-";

/// `tab-modern`, where every throw may be left unplayed: single pieces in the enemy rows
/// (`qasab endgame stalls tab-modern --games 60 --players net,net --seed 1`, game 2).
const MODERN_SINGLES: &str = "throw:w/-/x,x,x,a4.ce1234,x,x,x,x,x,x/x,x,x,e3.c34,a1.ce1234,i1.ce1234,a2.c234,x,x,x/0.0/6.9/0.0/158.0.2.489/251.45.17.0.0.0.0/-";

#[test]
fn a_stack_on_the_last_square_of_the_enemy_row_is_a_sanctuary() {
    // No Black piece can return to Black's home row (L-2), and every move of the stack leaves
    // the row into one its members have seen, so it would be reduced (L-15) and need not be
    // played (L-7); the tâb that could peel a piece off can be banked (L-8).
    let s = state("tab", WHITE_STACK_ON_I);
    assert_eq!(sanctuaries(&s), [vec!["i".to_string()], Vec::new()]);
    assert_eq!(
        sanctuaries(&state("tab", BOTH_STACKS)),
        [vec!["i".to_string()], vec!["I".to_string()]]
    );
    assert_eq!(
        sanctuaries(&state("tab", BLACK_STACK_ON_H)),
        [vec!["i".to_string()], vec!["H".to_string()]]
    );
}

#[test]
fn under_throw_use_optional_a_single_piece_out_of_reach_is_a_sanctuary() {
    let s = state("tab-modern", MODERN_SINGLES);
    assert_eq!(
        sanctuaries(&s),
        [
            vec!["a4".to_string()],
            vec!["a1".to_string(), "i1".to_string()]
        ]
    );
}

#[test]
fn the_same_stack_is_no_sanctuary_where_the_rules_make_it_move() {
    // Without a bank a tâb must be played (L-7), and it peels a piece off the stack.
    let no_bank = WHITE_STACK_ON_I.replace("/11.0/", "/0.0/");
    assert_eq!(sanctuaries(&state("tab(tab_bank=none)", &no_bank)), NONE);
    // No move reduces a stack, so none may be declined.
    let no_histories: String = WHITE_STACK_ON_I
        .split('/')
        .map(|field| {
            field
                .split(',')
                .map(|piece| piece.split_once('v').map_or(piece, |(kept, _)| kept))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("/");
    assert_eq!(
        sanctuaries(&state("tab(reduction=off)", &no_histories)),
        NONE
    );
    // Every usable throw must be played, reductions included.
    assert_eq!(
        sanctuaries(&state("tab(throw_use=compulsory)", WHITE_STACK_ON_I)),
        NONE
    );
    // A Black piece still in Black's home row runs along it to i.
    let black_at_home = WHITE_STACK_ON_I
        .replace(
            "/x,k.ce1234v7ffffffff,",
            "/a.4v800000000,k.ce1234v7ffffffff,",
        )
        .replace("/6.7/", "/5.7/");
    let s = state("tab", &black_at_home);
    assert_eq!(sanctuaries(&s), NONE, "a Black piece on a reaches i");
}

#[test]
fn a_game_won_by_captures_has_no_decisive_sanctuary() {
    let s = state("tab(end=most-captures)", WHITE_STACK_ON_I);
    assert_eq!(s.sanctuaries(), None);
}

/// The pieces of each side by square, as the position id writes them (square, then marks).
fn units(s: &tab::State) -> [Vec<(String, String)>; 2] {
    let id = s.position_id();
    let fields: Vec<&str> = id.split('/').collect();
    [fields[2], fields[3]].map(|side| {
        side.split(',')
            .filter(|p| *p != "x")
            .map(|p| {
                let (sq, marks) = p.split_once('.').unwrap_or((p, ""));
                (sq.to_string(), marks.to_string())
            })
            .collect()
    })
}

/// The pieces standing on `sq` (their marks, sorted).
fn unit_on(s: &tab::State, side: usize, sq: &str) -> Vec<String> {
    let mut v: Vec<String> = units(s)[side]
        .iter()
        .filter(|(q, _)| q == sq)
        .map(|(_, m)| m.clone())
        .collect();
    v.sort();
    v
}

/// The square a move starts from, `None` for banking, declining and ending.
fn from_square(text: &str) -> Option<String> {
    if text == "bank" || text == "end" || text.starts_with("decline") {
        return None;
    }
    let (_, rest) = text.split_once(':')?;
    Some(
        rest.split(['-', '^', '*', '='])
            .next()
            .unwrap_or(rest)
            .to_string(),
    )
}

/// A sanctuary being followed: its side, square, and the unit as it stood when found.
struct Followed {
    side: usize,
    sq: String,
    unit: Vec<String>,
    unchanged: bool,
}

/// Plays one random game on from `s` and checks, at every step, both halves of every
/// sanctuary found on the way: no enemy piece ever stands on its square, and while the unit
/// stands there unchanged its owner has a decision that leaves it. Returns how many of the
/// owners' decisions were checked.
fn check_game(mut s: tab::State, rng: &mut Xoshiro256PlusPlus, actions: usize) -> u64 {
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    let mut followed: Vec<Followed> = Vec::new();
    let mut checked = 0;
    for _ in 0..actions {
        if let Some(found) = s.sanctuaries() {
            for (side, units) in found.into_array().into_iter().enumerate() {
                for sanctuary in units {
                    let sq = sanctuary.square;
                    if !followed.iter().any(|f| f.side == side && f.sq == sq) {
                        let unit = unit_on(&s, side, &sq);
                        assert_eq!(unit.len(), usize::from(sanctuary.pieces));
                        followed.push(Followed {
                            side,
                            sq,
                            unit,
                            unchanged: true,
                        });
                    }
                }
            }
        }
        for f in &mut followed {
            let enemy = units(&s)[1 - f.side].iter().any(|(q, _)| *q == f.sq);
            assert!(
                !enemy,
                "an enemy piece reached the sanctuary {} at {}",
                f.sq,
                s.position_id()
            );
            f.unchanged &= unit_on(&s, f.side, &f.sq) == f.unit;
            if f.unchanged && s.turn() == Turn::Player(Player::ALL[f.side]) {
                s.legal_moves(&mut moves);
                let leaves_it = moves
                    .iter()
                    .any(|m| from_square(&m.to_string()).as_deref() != Some(f.sq.as_str()));
                assert!(
                    leaves_it,
                    "the owner of {} must move it at {}",
                    f.sq,
                    s.position_id()
                );
                checked += 1;
            }
        }
        if !common::random_action(&mut s, rng, &mut moves, &mut outs) {
            break;
        }
    }
    checked
}

#[test]
fn random_continuations_never_reach_a_sanctuary_nor_force_it_to_move() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    for (rules, id) in [
        ("tab", WHITE_STACK_ON_I),
        ("tab", BOTH_STACKS),
        ("tab", BLACK_STACK_ON_H),
        ("tab-modern", MODERN_SINGLES),
    ] {
        let mut checked = 0;
        for _ in 0..60 {
            checked += check_game(state(rules, id), &mut rng, 1500);
        }
        assert!(
            checked > 20,
            "{rules}: the owners' turns were checked ({checked})"
        );
    }
}

#[test]
fn sanctuaries_met_in_random_games_of_every_reading_hold() {
    // Random players rarely build a fortress; the games check whatever they meet, and the
    // readings together meet some.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let mut checked = 0;
    for rules in common::tab_variants() {
        for _ in 0..3 {
            checked += check_game(rules.initial_state(), &mut rng, 3000);
        }
    }
    assert!(checked > 0, "some sanctuary was met and checked");
}
