//! Thousands of seeded random games of `tab-ludii` and `tab-hyde-ludii` on every board size,
//! with the game model's contract and the presets' invariants checked at every state.

use qasab_core::sticks::Throw;
use qasab_core::tab_ludii::{Move, Preset, Ruleset, State};
use qasab_core::{EndReason, GameState, Player, Ruleset as _, Turn, Weighted};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Checks one state; returns the number of legal moves (0 off a player's turn).
fn check(s: &State, moves: &mut Vec<Move>) -> usize {
    let rules = s.rules();
    let n = u32::from(rules.columns());
    assert_eq!(&s.clone(), s, "a clone equals the original");
    let id = s.position_id();
    assert_eq!(
        rules.state_from_id(&id).as_ref(),
        Ok(s),
        "the position id {id} round-trips"
    );
    // Pieces are conserved: Tab's captures are pieces, At-Tab's score one per capture.
    let pieces = [s.pieces(Player::One), s.pieces(Player::Two)];
    let scores = s.scores().into_array();
    for p in 0..2 {
        let lost = n - pieces[p];
        match rules.game() {
            Preset::Tab => assert_eq!(scores[1 - p], lost, "{id}"),
            Preset::Hyde => assert!(scores[1 - p] <= lost && (lost == 0) == (scores[1 - p] == 0)),
        }
    }
    assert_eq!(
        s.actions(),
        2 * s.decisions() + u32::from(s.pending_throw().is_some())
    );
    s.legal_moves(moves);
    let mut outs = Vec::new();
    let denominator = s.chance_outcomes(&mut outs);
    match s.turn() {
        Turn::Chance => {
            assert!(moves.is_empty());
            assert_eq!(denominator, rules.throw_weights().1);
            assert_eq!(outs.iter().map(|w| w.weight).sum::<u32>(), denominator);
            assert!(outs.iter().all(|w| w.weight > 0));
            assert!(outs.windows(2).all(|w| w[0].outcome < w[1].outcome));
            assert_eq!(s.chance_player(), Some(s.mover()), "the mover throws");
            0
        }
        Turn::Player(p) => {
            assert_eq!(p, s.mover());
            assert_eq!(s.chance_player(), None);
            assert!(outs.is_empty() && denominator == 0);
            assert!(!moves.is_empty(), "a player's turn has a move");
            assert!(
                moves.windows(2).all(|w| w[0] < w[1]),
                "sorted, no duplicates: {moves:?}"
            );
            assert!(
                moves != &[Move::Pass] || moves.len() == 1,
                "a pass is never listed beside a move"
            );
            for &m in moves.iter() {
                let text = m.to_string();
                assert_eq!(text.parse::<Move>(), Ok(m), "notation reads back");
                assert_eq!(s.parse_move(&text), Ok(m), "{text} at {id}");
                assert!(s.is_legal(m));
                let step = m.step();
                if let Some(st) = step {
                    assert_eq!(Some(st.throw), s.pending_throw());
                    let from = st.from.square(rules.columns());
                    let (owner, size) = s.unit_at(from).expect("a unit moves");
                    assert_eq!(owner, p);
                    assert!(st.part < size);
                    if rules.game() == Preset::Tab {
                        assert_eq!(st.part, 0, "Tab stacks move whole");
                        assert!(s.in_main_phase());
                    }
                }
            }
            moves.len()
        }
        Turn::Over(o) => {
            assert!(moves.is_empty() && outs.is_empty() && denominator == 0);
            assert_eq!(s.pending_throw(), None);
            if o.is_truncated() {
                assert_eq!(o.winner, None);
                assert!(
                    u64::from(s.ludii_turn()) >= 2 * u64::from(rules.turn_cap())
                        || s.decisions() >= rules.move_cap()
                );
            } else {
                match rules.game() {
                    Preset::Tab => {
                        assert_eq!(o.reason, EndReason::Elimination);
                        let w = o.winner.expect("a Tab game has a winner");
                        assert!(pieces[w.index()] > 0 && pieces[(!w).index()] == 0);
                    }
                    Preset::Hyde => {
                        let expected = match scores[0].cmp(&scores[1]) {
                            std::cmp::Ordering::Greater => Some(Player::One),
                            std::cmp::Ordering::Less => Some(Player::Two),
                            std::cmp::Ordering::Equal => None,
                        };
                        assert_eq!(o.winner, expected, "the higher score wins");
                    }
                }
            }
            0
        }
    }
}

/// Plays one random game to its end, checking every state; returns the decisions.
fn random_game(rules: Ruleset, rng: &mut Xoshiro256PlusPlus) -> u32 {
    let mut s = rules.initial_state();
    let mut moves = Vec::new();
    let mut outs = Vec::new();
    let mut last_turn = 0;
    loop {
        let k = check(&s, &mut moves);
        assert!(s.turns() >= last_turn, "turns never go back");
        last_turn = s.turns();
        match s.turn() {
            Turn::Over(_) => return s.decisions(),
            Turn::Chance => {
                let total = s.chance_outcomes(&mut outs);
                let x = (rng.next_u64() % u64::from(total)) as u32;
                let pick = Weighted::at(&outs, x).expect("x is below the total weight");
                assert!(s.parse_chance(&pick.to_string()) == Ok(pick));
                s.apply_chance_unchecked(pick);
            }
            Turn::Player(p) => {
                let m = moves[(rng.next_u64() % k as u64) as usize];
                let before = s;
                let throw: Throw = s.pending_throw().unwrap();
                s.play_unchecked(m);
                assert_eq!(s.decisions(), before.decisions() + 1);
                // Who throws next: the same player after a 1, 4 or 6 (in Tab's opening only
                // after a 1), else the other.
                if s.turn() == Turn::Chance {
                    let again = if before.in_main_phase() {
                        throw.throws_again()
                    } else {
                        throw.is_tab()
                    };
                    assert_eq!(s.mover() == p, again, "{}", before.position_id());
                }
            }
        }
        assert!(s.decisions() <= rules.move_cap(), "the game must end");
    }
}

#[test]
fn random_games_keep_every_invariant() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2025);
    let mut games = 0;
    let mut decisions = 0u64;
    for (text, count) in [
        ("tab-ludii", 600),
        ("tab-ludii(columns=9)", 400),
        ("tab-ludii(columns=11)", 200),
        ("tab-ludii(columns=13)", 150),
        ("tab-ludii(columns=15)", 100),
        ("tab-ludii(p_white=3/5)", 200),
        ("tab-ludii(move_cap=40)", 200),
        ("tab-hyde-ludii", 400),
        ("tab-hyde-ludii(columns=19)", 60),
        ("tab-hyde-ludii(columns=21)", 40),
        ("tab-hyde-ludii(columns=29)", 20),
        ("tab-hyde-ludii(turn_cap=30)", 200),
    ] {
        let rules: Ruleset = text.parse().unwrap();
        for _ in 0..count {
            decisions += u64::from(random_game(rules, &mut rng));
            games += 1;
        }
    }
    assert!(games >= 2500, "{games}");
    assert!(decisions > 250_000, "{decisions}");
}
