//! One invariant checker run over thousands of seeded random games of every ruleset and option.

use std::collections::HashMap;

use qasab_core::tihbat::{self, CycleSplit, EmptySide, Move, Pit, Position, Singleton};
use qasab_core::{ByPlayer, EndReason, GameState, Player, Ruleset, Turn};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The contract of `GameState`, checked at one state.
fn check_model<S: GameState>(s: &S) {
    assert_eq!(&s.clone(), s, "a clone equals the original");
    let id = s.position_id();
    assert_eq!(
        s.ruleset().state_from_id(&id).as_ref(),
        Ok(s),
        "the position id {id} round-trips"
    );
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    let mut outs = Vec::new();
    let denominator = s.chance_outcomes(&mut outs);
    match s.turn() {
        Turn::Player(_) => {
            assert!(!moves.is_empty(), "a player's turn has a move");
            assert!(
                moves.windows(2).all(|w| w[0] < w[1]),
                "moves sorted without duplicates"
            );
            assert!(outs.is_empty());
            for &m in &moves {
                assert!(s.is_legal(m));
                assert_eq!(
                    s.parse_move(&m.to_string()),
                    Ok(m),
                    "the notation reads back"
                );
            }
        }
        Turn::Chance => {
            assert!(moves.is_empty());
            assert!(outs.iter().all(|w| w.weight > 0));
            assert_eq!(outs.iter().map(|w| w.weight).sum::<u32>(), denominator);
        }
        Turn::Over(o) => {
            assert!(
                moves.is_empty() && outs.is_empty(),
                "no actions after the end"
            );
            let expected = match o.scores.one.cmp(&o.scores.two) {
                std::cmp::Ordering::Greater => Some(Player::One),
                std::cmp::Ordering::Less => Some(Player::Two),
                std::cmp::Ordering::Equal => None,
            };
            assert_eq!(o.winner, expected, "the higher score wins");
        }
    }
}

/// Tihbat-specific invariants along one random game.
fn random_tihbat_game(rules: tihbat::Ruleset, rng: &mut Xoshiro256PlusPlus) -> u32 {
    let total = rules.total();
    let mut s = rules.initial_state();
    let mut seen: HashMap<([u8; 4], Player), u32> = HashMap::new();
    seen.insert((s.position().pits, s.position().to_move), 1);
    let mut moves = Vec::new();
    let mut steps = 0;
    // The game can last at most (states per level × repetition) per level.
    let bound = 2 * 40_000 * u32::from(rules.repetition) * (total / 2 + 1);
    loop {
        check_model(&s);
        let pos = s.position();
        assert_eq!(
            pos.on_board() + u32::from(pos.captured.one) + u32::from(pos.captured.two),
            total,
            "counters are conserved"
        );
        assert_eq!(
            pos.to_string().parse::<Position>(),
            Ok(pos),
            "the position id round-trips"
        );
        // The whole move space: is_legal agrees with the list.
        s.legal_moves(&mut moves);
        for pit in Pit::ALL {
            for count in 1..=total as u8 {
                let m = Move::Sow { pit, count };
                assert_eq!(s.is_legal(m), moves.contains(&m), "{m} at {pos}");
            }
        }
        assert_eq!(s.is_legal(Move::Pass), moves.contains(&Move::Pass));
        if let Turn::Over(o) = s.turn() {
            assert_eq!(
                o.scores.one + o.scores.two,
                total,
                "every counter is accounted for at the end"
            );
            match o.reason {
                EndReason::BoardEmpty => assert_eq!(pos.on_board(), 0),
                EndReason::Repetition => {
                    assert_eq!(seen[&(pos.pits, pos.to_move)], u32::from(rules.repetition));
                    let split = match rules.cycle {
                        CycleSplit::Equal => ByPlayer::new(pos.on_board() / 2, pos.on_board() / 2),
                        CycleSplit::OwnSide => ByPlayer::from_fn(|p| pos.side(p)),
                    };
                    assert_eq!(
                        o.scores,
                        ByPlayer::new(
                            u32::from(pos.captured.one) + split.one,
                            u32::from(pos.captured.two) + split.two
                        )
                    );
                }
                EndReason::EmptySide => {
                    assert_eq!(rules.empty, EmptySide::End);
                    assert_eq!(pos.side(pos.to_move), 0);
                }
                r => panic!("tihbat cannot end by {r}"),
            }
            return steps;
        }
        assert!(
            seen[&(pos.pits, pos.to_move)] < u32::from(rules.repetition),
            "a repetition must end the game"
        );
        if rules.empty == EmptySide::End {
            assert!(
                pos.side(pos.to_move) > 0,
                "empty=end stops the game at an empty side"
            );
        }
        let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
        if let Move::Sow { pit, count } = m {
            assert_eq!(pos.pits[pit.index()], count);
            assert_eq!(pit.owner(), pos.to_move);
            if count == 1 {
                assert_ne!(
                    rules.singleton,
                    Singleton::Illegal,
                    "singletons are illegal"
                );
            }
        } else {
            let own = Pit::of(pos.to_move).map(|p| pos.pits[p.index()]);
            assert!(
                own.iter().all(|&n| n == 0)
                    || (rules.singleton == Singleton::Illegal && own.iter().all(|&n| n <= 1))
            );
        }
        let before = pos.captured[pos.to_move];
        let actions = s.actions();
        s.play_unchecked(m);
        assert_eq!(s.actions(), actions + 1);
        let after = s.position();
        let gained = after.captured[pos.to_move] - before;
        assert!(
            gained.is_multiple_of(2) && gained <= 16,
            "captures are even: {gained}"
        );
        assert_eq!(
            after.captured[!pos.to_move], pos.captured[!pos.to_move],
            "only the mover captures"
        );
        if gained > 0 {
            seen.clear();
        }
        *seen.entry((after.pits, after.to_move)).or_default() += 1;
        steps += 1;
        assert!(steps < bound, "the game must end");
    }
}

fn variants() -> Vec<tihbat::Ruleset> {
    let mut v = Vec::new();
    for text in [
        "tihbat",
        "tihbat(chain=own-side)",
        "tihbat(origin=skip)",
        "tihbat(singleton=illegal)",
        "tihbat(singleton=forward)",
        "tihbat(empty=end)",
        "tihbat(repetition=3)",
        "tihbat(cycle=own-side)",
        "tihbat(first=north)",
        "tihbat(seeds=1)",
        "tihbat(seeds=2,singleton=forward,chain=own-side)",
        "tihbat(seeds=13,origin=skip,empty=end,repetition=4,cycle=own-side)",
        "tihbat(seeds=40)",
        "tihbat(seeds=60,singleton=illegal)",
    ] {
        v.push(text.parse().unwrap());
    }
    v
}

#[test]
fn random_games_keep_every_invariant() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let mut games = 0;
    let mut steps = 0;
    for rules in variants() {
        let n = if rules.seeds > 20 { 20 } else { 300 };
        for _ in 0..n {
            steps += random_tihbat_game(rules, &mut rng);
            games += 1;
        }
    }
    assert!(games >= 3000, "{games} games");
    assert!(steps > 50_000, "{steps} steps");
}
