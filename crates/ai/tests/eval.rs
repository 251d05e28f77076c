//! The static evaluation: its range, exact results at the end, and the hit model against a
//! brute-force enumeration of the enemy's turn through the public game API.

use std::collections::{HashMap, HashSet};

use qasab_ai::eval::{EvalWeights, Evaluate, terminal_value};
use qasab_ai::games::tab::eval as tab_eval;
use qasab_ai::games::tab_ludii::eval as ludii_eval;
use qasab_ai::rng::rng_from_seed;
use qasab_core::grid::Square;
use qasab_core::sticks::Throw;
use qasab_core::{AnyRuleset, GameState, Player, Ruleset, Turn, tab, tab_ludii, with_ruleset};

// ----- the hit model against brute force -----

/// The probability, by brute force, that the unit on `target` is captured in the turn of its
/// enemy that starts at (or is in progress in) `state`: every throw sequence up to `max_throws`
/// throws in the turn is played out through the public API with its exact weight, and every
/// decision sequence of the enemy's move phase is tried. Returns the probability of the
/// sequences that allow a hit with a chain of at most three plays by one unit (the model's
/// definition), of those that allow a hit by any decisions, and of the sequences cut at
/// `max_throws` (unknown).
fn brute_tab(state: &tab::State, target: Square, max_throws: u32) -> (f64, f64, f64) {
    let (owner, _) = state.unit_at(target).expect("a unit on the target");
    let turn = state.turns();
    let mut memo = HashMap::new();
    brute_tab_node(state, target, owner, turn, max_throws, &mut memo)
}

fn hit(state: &tab::State, target: Square, owner: Player) -> bool {
    state.unit_at(target).map(|(p, _)| p) != Some(owner)
}

fn brute_tab_node(
    s: &tab::State,
    target: Square,
    owner: Player,
    turn: u32,
    max_throws: u32,
    memo: &mut HashMap<tab::State, (f64, f64, f64)>,
) -> (f64, f64, f64) {
    if let Some(&r) = memo.get(s) {
        return r;
    }
    let r = match s.turn() {
        Turn::Over(_) => {
            let h = if hit(s, target, owner) { 1.0 } else { 0.0 };
            (h, h, 0.0)
        }
        Turn::Chance if s.turns() != turn => (0.0, 0.0, 0.0),
        Turn::Chance => {
            let thrown: u32 = Throw::ALL.into_iter().map(|t| s.pending_count(t)).sum();
            if thrown >= max_throws {
                (0.0, 0.0, 1.0)
            } else {
                let mut outs = Vec::new();
                let d = f64::from(s.chance_outcomes(&mut outs));
                let (mut lo3, mut lo, mut tail) = (0.0, 0.0, 0.0);
                for w in outs {
                    let mut c = *s;
                    c.apply_chance_unchecked(w.outcome);
                    let (a3, a, b) = brute_tab_node(&c, target, owner, turn, max_throws, memo);
                    let p = f64::from(w.weight) / d;
                    lo3 += p * a3;
                    lo += p * a;
                    tail += p * b;
                }
                (lo3, lo, tail)
            }
        }
        Turn::Player(p) => {
            assert_eq!(p, !owner, "the enemy moves");
            // Any sequence of decisions of this move phase that captures the target.
            let mut seen = HashSet::new();
            let mut stack = vec![*s];
            let mut found = false;
            let mut moves = Vec::new();
            while let Some(x) = stack.pop() {
                if hit(&x, target, owner) {
                    found = true;
                    break;
                }
                if x.turn() != Turn::Player(p) {
                    continue;
                }
                x.legal_moves(&mut moves);
                for &m in &moves {
                    let mut c = x;
                    c.play_unchecked(m);
                    if seen.insert(c) {
                        stack.push(c);
                    }
                }
            }
            let chain = chain_hits(s, target, owner, None, 3);
            assert!(found || !chain);
            (
                if chain { 1.0 } else { 0.0 },
                if found { 1.0 } else { 0.0 },
                0.0,
            )
        }
    };
    memo.insert(*s, r);
    r
}

/// Whether one unit of the player to move can capture the target with at most `left` plays in
/// a row, each starting where the last ended (`from`), through the real legal moves.
fn chain_hits(
    s: &tab::State,
    target: Square,
    owner: Player,
    from: Option<Square>,
    left: u32,
) -> bool {
    if hit(s, target, owner) {
        return true;
    }
    if left == 0 || s.turn().player().is_none() {
        return false;
    }
    let grid = s.grid();
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    moves.into_iter().any(|m| {
        let tab::Move::Play(p) = m else { return false };
        let (Some(f), Some(to)) = (p.from.square(grid), p.to.and_then(|t| t.square(grid))) else {
            return false;
        };
        if from.is_some_and(|x| x != f) {
            return false;
        }
        let mut c = *s;
        c.play_unchecked(m);
        chain_hits(&c, target, owner, Some(to), left - 1)
    })
}

fn check_tab(rules: &str, id: &str, targets: &[&str]) {
    check_tab_with(rules, id, targets, 10);
}

fn check_tab_with(rules: &str, id: &str, targets: &[&str], max_throws: u32) {
    let rules: tab::Ruleset = rules.parse().unwrap();
    let state = rules.state_from_id(id).unwrap();
    let grid = state.grid();
    for name in targets {
        let target = grid.parse(name).unwrap();
        let model = tab_eval::hit_probability(&state, target);
        let (lo3, lo, tail) = brute_tab(&state, target, max_throws);
        assert!(tail < 1e-3, "{tail}");
        assert!(
            lo3 - 1e-12 <= model && model <= lo3 + tail + 1e-12,
            "{rules} {id} target {name}: model {model}, brute force {lo3} (+{tail} unknown)"
        );
        // Hits needing four throws or more are all the model leaves out.
        assert!(model <= lo + tail + 1e-12, "{lo}");
        assert!(model > 0.0, "{name} is within reach");
    }
}

/// White's piece on O and Black's on L, three squares behind it on Black's track: Black hits
/// with a 3, 1+2 or 1+1+1.
const DISTANCE_3: &str = "throw:b/-/O.c12v3e1ff,x,x,x,x,x,x,x,x/L.c234vfffff0000,x,x,x,x,x,x,x,x/0.0/8.8/0.0/30.0.0.100/0.0.0.0.0.0.0/-";

#[test]
fn hit_probability_matches_brute_force_at_three_squares() {
    check_tab("tab", DISTANCE_3, &["O"]);
    // A tâb is one white side in four: biased sticks change every weight.
    check_tab("tab(p_white=9/16)", DISTANCE_3, &["O"]);
    // Four again-throws in ten: long turns, so a longer enumeration.
    check_tab_with("tab(p_white=2/5)", DISTANCE_3, &["O"], 14);
}

#[test]
fn hit_probability_matches_brute_force_with_two_attackers_and_two_targets() {
    // White on O and N; Black on L (3 and 2 behind N... ) and on K (4 behind O).
    let id = "throw:b/-/O.c12v3e1ff,N.c12v3c1fe,x,x,x,x,x,x,x/L.c234vfffff0000,K.c234v7fffe0000,x,x,x,x,x,x,x/0.0/7.7/0.0/30.0.0.100/0.0.0.0.0.0.0/-";
    check_tab("tab", id, &["O", "N"]);
}

#[test]
fn hit_probability_matches_brute_force_into_the_enemy_row() {
    // White's unconverted pieces at home on A and B; Black's converted piece on Q goes
    // Q, R, S, then once into White's home row: A is 3 steps on, B 4.
    let id = "throw:b/-/A,B,x,x,x,x,x,x,x/Q.c234vffffff800,x,x,x,x,x,x,x,x/0.0/8.7/0.0/30.0.0.100/0.0.0.0.0.0.0/-";
    check_tab("tab", id, &["A", "B"]);
}

#[test]
fn hit_probability_matches_brute_force_with_known_throws() {
    // Black has thrown a 1 and throws again.
    let id = "throw:b/1/O.c12v3e1ff,x,x,x,x,x,x,x,x/K.c234vffffe0000,x,x,x,x,x,x,x,x/0.0/8.8/0.0/30.0.0.100/1.0.0.0.0.1.0/-";
    check_tab("tab", id, &["O"]);
    // Black holds a banked tâb (L-8) and is about to throw.
    let id = "throw:b/-/O.c12v3e1ff,x,x,x,x,x,x,x,x/M.c234vfffff8000,x,x,x,x,x,x,x,x/0.1/8.8/0.0/30.0.0.100/0.0.0.0.0.0.0/-";
    check_tab("tab", id, &["O"]);
}

#[test]
fn hit_probability_of_a_single_tab_is_two_sevenths() {
    // One square behind: only a tâb hits, and a turn holds one with probability 4/14.
    let id = "throw:b/-/O.c12v3e1ff,x,x,x,x,x,x,x,x/N.c234vfffffc000,x,x,x,x,x,x,x,x/0.0/8.8/0.0/30.0.0.100/0.0.0.0.0.0.0/-";
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let state = rules.state_from_id(id).unwrap();
    let p = tab_eval::hit_probability(&state, state.grid().parse("O").unwrap());
    assert!((p - 2.0 / 7.0).abs() < 1e-12, "{p}");
    // Out of reach: nothing behind White's piece within three throws of Black's.
    let far = "throw:b/-/S.c12v3ffff,x,x,x,x,x,x,x,x/k.c34vff8040000,x,x,x,x,x,x,x,x/0.0/8.8/0.0/30.0.0.100/0.0.0.0.0.0.0/-";
    let state = rules.state_from_id(far).unwrap();
    let p = tab_eval::hit_probability(&state, state.grid().parse("S").unwrap());
    assert_eq!(p, 0.0);
}

/// The brute force for throws played as they come (interleaved timing, the Ludii presets):
/// for every throw sequence of the enemy's turn (up to `max_throws` throws), whether some
/// sequence of his decisions, made as the throws come, captures what stands on the target
/// (`hit`), using only the turn's first `limit` throws (the one being played included).
/// Returns the probability of those sequences and of the sequences cut short.
fn brute_sequences<S: GameState<Chance = Throw>>(
    state: &S,
    hit: &impl Fn(&S) -> bool,
    max_throws: usize,
    limit: usize,
) -> (f64, f64) {
    let mut outs = Vec::new();
    let d = f64::from(if state.turn() == Turn::Chance {
        state.chance_outcomes(&mut outs)
    } else {
        0
    });
    let turn = state.turns();
    let (mut lo, mut tail) = (0.0, 0.0);
    if state.turn() != Turn::Chance {
        // A decision is due first: the rest of the turn is thrown after it.
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let children: Vec<S> = moves
            .iter()
            .map(|&m| {
                let mut c = state.clone();
                c.play_unchecked(m);
                c
            })
            .collect();
        if children.iter().any(hit) {
            return (1.0, 0.0);
        }
        let live: Vec<&S> = children
            .iter()
            .filter(|c| c.turn() == Turn::Chance && c.turns() == turn)
            .collect();
        if live.is_empty() {
            return (0.0, 0.0);
        }
        let mut outs = Vec::new();
        let d = f64::from(live[0].chance_outcomes(&mut outs));
        for (seq, p) in sequences(&outs, d, max_throws, &mut tail) {
            let seq = &seq[..seq.len().min(limit - 1)];
            if live.iter().any(|c| plays_out(*c, hit, turn, seq)) {
                lo += p;
            }
        }
        return (lo, tail);
    }
    for (seq, p) in sequences(&outs, d, max_throws, &mut tail) {
        if plays_out(state, hit, turn, &seq[..seq.len().min(limit)]) {
            lo += p;
        }
    }
    (lo, tail)
}

/// Every throw sequence of a turn (1, 4 and 6 go on, 2 and 3 end) up to `max_throws`, with
/// its probability; the probability of longer ones is added to `tail`.
fn sequences(
    outs: &[qasab_core::Weighted<Throw>],
    d: f64,
    max_throws: usize,
    tail: &mut f64,
) -> Vec<(Vec<Throw>, f64)> {
    let mut done = Vec::new();
    let mut open = vec![(Vec::new(), 1.0)];
    while let Some((seq, p)) = open.pop() {
        for w in outs {
            let mut s2: Vec<Throw> = seq.clone();
            s2.push(w.outcome);
            let p2 = p * f64::from(w.weight) / d;
            if !w.outcome.throws_again() {
                done.push((s2, p2));
            } else if s2.len() >= max_throws {
                *tail += p2;
            } else {
                open.push((s2, p2));
            }
        }
    }
    done
}

/// Whether some decisions of the enemy, with the throws `seq` coming in order, capture the
/// target before his turn ends.
fn plays_out<S: GameState<Chance = Throw>>(
    s: &S,
    hit: &impl Fn(&S) -> bool,
    turn: u32,
    seq: &[Throw],
) -> bool {
    if hit(s) {
        return true;
    }
    if s.turns() != turn {
        return false;
    }
    match s.turn() {
        Turn::Over(_) => false,
        Turn::Chance => {
            let Some((&t, rest)) = seq.split_first() else {
                return false;
            };
            let mut c = s.clone();
            c.apply_chance_unchecked(t);
            plays_out(&c, hit, turn, rest)
        }
        Turn::Player(_) => {
            let mut moves = Vec::new();
            s.legal_moves(&mut moves);
            moves.into_iter().any(|m| {
                let mut c = s.clone();
                c.play_unchecked(m);
                plays_out(&c, hit, turn, seq)
            })
        }
    }
}

#[test]
fn ludii_hit_probability_matches_brute_force() {
    for (rules, id, squares) in [
        // tab-ludii, 7 columns: White on b2, Black on e2, 3 behind on the middle loop.
        (
            "tab-ludii",
            "7/1,W,2,B,2/7/7/black/main/40,60/6,6/0x14/0x21/0x14/0x21",
            vec!["b2"],
        ),
        // White on a2 and b2, Black on d2; Black is playing a 1 it has thrown.
        (
            "tab-ludii(p_white=3/5)",
            "7/W,W,1,B,3/7/7/black/main/40,60/6,5/0x14/0x21/0x14/0x21",
            vec!["a2", "b2"],
        ),
        (
            "tab-ludii(p_white=3/5)",
            "7/W,W,1,B,3/7/7/black:1/main/40,60/6,5/0x14/0x21/0x14/0x21",
            vec!["a2", "b2"],
        ),
        // At-Tab, 13 columns: White on d2, Black two behind on f2.
        (
            "tab-hyde-ludii",
            "13/3,W,1,B,7/13/13/black/40,60/12,12",
            vec!["d2"],
        ),
    ] {
        let r: tab_ludii::Ruleset = rules.parse().unwrap();
        let state = r.state_from_id(id).unwrap();
        let grid = r.grid();
        for name in squares {
            let sq = grid.parse(name).unwrap().0;
            let model = ludii_eval::hit_probability(&state, sq);
            let hit = |s: &tab_ludii::State| s.unit_at(sq).map(|u| u.0) != Some(Player::One);
            // The model's definition: the first three throws.
            let (lo3, tail3) = brute_sequences(&state, &hit, 10, 3);
            assert!(
                lo3 - 1e-12 <= model && model <= lo3 + tail3 + 1e-12,
                "{rules} {id} {name}: model {model}, brute force {lo3} (+{tail3})"
            );
            // Every decision with every throw: the model never counts more.
            let (lo, tail) = brute_sequences(&state, &hit, 10, usize::MAX);
            assert!(tail < 2e-3, "{tail}");
            assert!(model <= lo + tail + 1e-12, "{lo}");
            assert!(model > 0.0);
        }
    }
}

// ----- range and exactness over random positions of every preset -----

/// Plays seeded random games of `rules` and calls `f` on every state met.
fn random_states<R: Ruleset>(rules: &R, games: u64, mut f: impl FnMut(&R::State)) {
    let mut moves = Vec::new();
    let mut outs = Vec::new();
    for g in 0..games {
        let mut rng = rng_from_seed(1000 + g);
        let mut s = rules.initial_state();
        loop {
            f(&s);
            if !qasab_ai::play::bench::random_step(&mut s, &mut rng, &mut moves, &mut outs) {
                break;
            }
        }
    }
}

fn check_range<R: Ruleset>(rules: &R, games: u64) -> usize
where
    R::State: Evaluate,
{
    let mut n = 0;
    let mut ends = 0;
    random_states(rules, games, |s| {
        n += 1;
        for (p, weights) in Player::ALL
            .into_iter()
            .flat_map(|p| EvalWeights::ALL.map(|w| (p, w)))
        {
            let v = s.evaluate_with(p, weights);
            if weights == EvalWeights::Hand {
                assert_eq!(v, s.evaluate(p), "{rules}: evaluate is the hand evaluation");
            } else if !R::State::FITTED && weights == EvalWeights::Fitted {
                // Without fitted weights, `eval=fitted` is the hand evaluation; `eval=net` is
                // the preset's network where one is shipped (tested in tests/net.rs).
                assert_eq!(
                    v,
                    s.evaluate(p),
                    "{rules}: one evaluation without fitted weights"
                );
            }
            assert!(v.is_finite() && (-1.0..=1.0).contains(&v), "{rules}: {v}");
            assert_eq!(v, -s.evaluate_with(!p, weights), "{rules}: antisymmetric");
            match s.turn() {
                Turn::Over(o) => {
                    assert_eq!(v, terminal_value(&o, p));
                    // A stopped game included: the result its ruleset gives (L-18).
                    let want = match o.winner {
                        Some(w) if w == p => 1.0,
                        Some(_) => -1.0,
                        None => 0.0,
                    };
                    assert_eq!(v, want, "{rules}: exact at the end");
                }
                _ => assert!(v.abs() < 1.0, "{rules}: only the end is certain"),
            }
        }
        if s.turn().outcome().is_some() {
            ends += 1;
        }
    });
    assert_eq!(ends as u64, games);
    n
}

#[test]
fn evaluation_is_bounded_antisymmetric_and_exact_at_the_end_on_every_preset() {
    for any in AnyRuleset::presets() {
        let games = if qasab_ai::search::solver::solvable(&any).is_some() {
            200
        } else {
            6
        };
        let n = with_ruleset!(&any, r => check_range(r, games));
        assert!(n > 100, "{any}: {n} states");
    }
    // Options that change what the evaluation reads.
    for text in [
        "tab(p_white=9/16,reduction=row-entered,survivor=oldest)",
        "tab-modern(columns=7,split=detach,throw_timing=interleaved)",
        "tab-hyde(columns=19,limit_result=material,no_progress=5)",
        "tihbat(seeds=4,cycle=own-side,empty=end)",
        "tab-ludii(columns=11)",
    ] {
        let any: AnyRuleset = text.parse().unwrap();
        with_ruleset!(&any, r => check_range(r, 3));
    }
}

/// The inputs of the Tâb score: literal values on a literal position, and the hand weights
/// give the documented sum of the features.
#[test]
fn tab_inputs_and_weights_match_the_features() {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    // White has two pieces to Black's one, none within reach of the other.
    let id = "throw:b/-/S.c12v3ffff,R.c12v3fdfe,x,x,x,x,x,x,x/k.c34vff8040000,x,x,x,x,x,x,x,x/0.0/8.7/0.0/30.0.0.100/0.0.0.0.0.0.0/-";
    let s = rules.state_from_id(id).unwrap();
    let x = tab_eval::inputs(&s);
    assert_eq!(x.len(), tab_eval::INPUT_NAMES.len());
    assert_eq!(x[0], 1.0, "material: two pieces to one");
    assert_eq!(x[1], 1.0 / 3.0, "material ratio: (2 - 1) / (2 + 1)");
    let f = tab_eval::features(&s);
    let (w, b) = (&f.one, &f.two);
    let hand = w.material - b.material - tab_eval::UNCONVERTED * (w.unconverted - b.unconverted)
        + tab_eval::BANKED * (w.banked - b.banked)
        + tab_eval::PROGRESS * (w.progress - b.progress)
        + tab_eval::STACKED * (w.stacked - b.stacked)
        - tab_eval::REDUCTION * (w.reduction_risk - b.reduction_risk)
        - w.exposed_weight * w.exposed
        + b.exposed_weight * b.exposed;
    let got = tab_eval::Weights::HAND.score(&x);
    assert!((got - hand).abs() < 1e-12, "{got} against {hand}");
    // Over random states of every Tâb preset: both weights squash the same inputs.
    let mut n = 0;
    for preset in ["tab", "tab-hyde", "tab-modern"] {
        let rules: tab::Ruleset = preset.parse().unwrap();
        random_states(&rules, 3, |s| {
            if s.turn().outcome().is_some() {
                return;
            }
            let x = tab_eval::inputs(s);
            let scale = tab_eval::scale(rules.piece_count());
            for (weights, w) in [
                (EvalWeights::Hand, tab_eval::Weights::HAND),
                (EvalWeights::Fitted, tab_eval::Weights::FITTED),
            ] {
                let v = s.evaluate_with(Player::One, weights);
                let want = (w.score(&x) / scale).tanh();
                // The safety-limit factor only shrinks the value.
                assert!(
                    v.abs() <= want.abs() + 1e-12 && v * want >= 0.0,
                    "{v} {want}"
                );
                let far = |limit: u16, at: u32| limit == 0 || at + 10 < u32::from(limit);
                if far(rules.turn_cap, s.turns())
                    && far(rules.no_progress, s.turns_without_progress())
                {
                    assert!((v - want).abs() < 1e-12, "{v} {want}");
                    n += 1;
                }
            }
        });
    }
    assert!(n > 100, "{n}");
}

#[test]
fn material_decides_the_sign_in_a_plain_position() {
    // White has two pieces to Black's one, none within reach of the other: White is ahead.
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let id = "throw:b/-/S.c12v3ffff,R.c12v3fdfe,x,x,x,x,x,x,x/k.c34vff8040000,x,x,x,x,x,x,x,x/0.0/8.7/0.0/30.0.0.100/0.0.0.0.0.0.0/-";
    let s = rules.state_from_id(id).unwrap();
    assert!(s.evaluate(Player::One) > 0.2, "{}", s.evaluate(Player::One));
    let f = tab_eval::features(&s);
    assert_eq!(f.one.material, 2.0);
    assert_eq!(f.two.material, 1.0);
}
