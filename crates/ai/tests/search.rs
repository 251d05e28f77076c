//! The search players: expectimax against the plain reference search, legal decisions on every
//! preset, determinism for a seed, and literal positions with an obvious best move.

use qasab_ai::agent::{Agent, ValueKind};
use qasab_ai::eval::{EvalWeights, Evaluate};
use qasab_ai::play::bench::random_step;
use qasab_ai::play::driver::{ChanceSource, play_out, seat_seed};
use qasab_ai::players::{Playable, PreparedAgent};
use qasab_ai::rng::{below, pick_weighted, rng_from_seed};
use qasab_ai::search::expectimax::{Expectimax, Horizon, Options, analyse, reference_values};
use qasab_ai::search::greedy::Greedy;
use qasab_core::{
    AnyRuleset, GameState, Player, Ruleset, Turn, tab, tab_ludii, tihbat, with_ruleset,
};

/// Decision states met along seeded random games of `rules`, `per_game` of them a game, after
/// skipping the first `skip` decisions of each game.
fn decision_states<R: Ruleset>(
    rules: &R,
    games: u64,
    skip: usize,
    per_game: usize,
) -> Vec<R::State> {
    let mut out = Vec::new();
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    for g in 0..games {
        let mut rng = rng_from_seed(7000 + g);
        let mut s = rules.initial_state();
        let (mut seen, mut taken) = (0, 0);
        loop {
            if let Turn::Player(_) = s.turn() {
                seen += 1;
                if seen > skip && below(&mut rng, 3) == 0 {
                    out.push(s.clone());
                    taken += 1;
                    if taken == per_game {
                        break;
                    }
                }
            }
            if !random_step(&mut s, &mut rng, &mut moves, &mut outs) {
                break;
            }
        }
    }
    out
}

/// An unbounded search of `depth` turns, following `throws` throws a turn, that follows the
/// throws of the turn after its last.
fn exact_options(depth: u32, throws: u32) -> Options {
    Options {
        depth,
        nodes: u64::MAX,
        throws,
        turn_states: 1 << 16,
        inner_states: 1 << 16,
        horizon: Horizon::Throws,
        eval: EvalWeights::Hand,
    }
}

/// As [`exact_options`], but stopping as the turn after the last begins.
fn turn_options(depth: u32, throws: u32) -> Options {
    Options {
        horizon: Horizon::Turn,
        ..exact_options(depth, throws)
    }
}

/// Expectimax with pruning and the table gives the reference's values: every move's with the
/// full window, and the best value (with a best move) when it only proves the best. Returns
/// whether the moves' values differ (the position has something to choose).
fn compare_with_reference<S: Evaluate>(s: &S, opts: &Options) -> bool {
    let want = reference_values(s, opts);
    let full = analyse(s, opts, true);
    assert_eq!(full.depth, Some(opts.depth));
    assert_eq!(full.moves.len(), want.len());
    for ((m, v), (m2, w)) in full.moves.iter().zip(&want) {
        assert_eq!(m, m2);
        assert!((v - w).abs() < 1e-9, "{}: {m}: {v} vs {w}", s.position_id());
        assert!((-1.0..=1.0).contains(v));
    }
    let best = want.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
    let quick = analyse(s, opts, false);
    let got = quick
        .moves
        .iter()
        .map(|x| x.1)
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(
        (got - best).abs() < 1e-9,
        "{}: {got} vs {best}",
        s.position_id()
    );
    for (m, v) in &quick.moves {
        let exact = want.iter().find(|x| x.0 == *m).unwrap().1;
        assert!(
            *v >= exact - 1e-9 || *v < best - 1e-10,
            "{m}: a bound below the value"
        );
        if (*v - best).abs() < 1e-12 {
            assert!((exact - best).abs() < 1e-9, "{m} is only best by a bound");
        }
    }
    want.iter().any(|x| (x.1 - best).abs() > 1e-9)
}

#[test]
fn expectimax_equals_the_reference_on_tihbat() {
    let mut choices = 0;
    for text in [
        "tihbat(seeds=2)",
        "tihbat(seeds=3)",
        "tihbat(seeds=4,cycle=own-side)",
    ] {
        let rules: tihbat::Ruleset = text.parse().unwrap();
        let states = decision_states(&rules, 12, 0, 4);
        assert!(states.len() >= 10, "{text}: {}", states.len());
        for s in &states {
            for depth in 1..=6 {
                choices += usize::from(compare_with_reference(s, &exact_options(depth, 4)));
                choices += usize::from(compare_with_reference(s, &turn_options(depth, 4)));
            }
        }
    }
    assert!(choices > 50, "{choices}");
}

#[test]
fn expectimax_equals_the_reference_on_small_tab_positions() {
    let mut choices = 0;
    // A small board with two pieces a side, late in random games.
    for text in [
        "tab(columns=7,pieces=2)",
        "tab-modern(columns=7,pieces=2,p_white=3/5)",
        "tab-hyde(pieces=3)",
    ] {
        let rules: tab::Ruleset = text.parse().unwrap();
        let states = decision_states(&rules, 8, 12, 2);
        assert!(states.len() >= 8, "{text}: {}", states.len());
        for (i, s) in states.iter().enumerate() {
            choices += usize::from(compare_with_reference(s, &exact_options(1, 3)));
            choices += usize::from(compare_with_reference(s, &exact_options(2, 2)));
            choices += usize::from(compare_with_reference(s, &turn_options(2, 3)));
            if i < 2 {
                compare_with_reference(s, &exact_options(3, 2));
                compare_with_reference(s, &turn_options(3, 2));
            }
        }
    }
    // Ludii's Tab on 7 columns, where a turn goes on after a 1, 4 or 6.
    let rules: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    for s in &decision_states(&rules, 4, 60, 2) {
        choices += usize::from(compare_with_reference(s, &exact_options(1, 3)));
        choices += usize::from(compare_with_reference(s, &exact_options(2, 2)));
        choices += usize::from(compare_with_reference(s, &turn_options(2, 3)));
    }
    assert!(choices > 20, "{choices}");
}

#[test]
fn the_node_budget_falls_back_to_the_last_complete_depth() {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    for s in decision_states(&rules, 3, 20, 1) {
        let tight = Options {
            nodes: 1000,
            ..exact_options(3, 4)
        };
        let a = analyse(&s, &tight, false);
        let depth = a.depth.expect("the turn fits");
        assert!(depth < 3);
        assert!(a.moves.iter().all(|(_, v)| (-1.0..=1.0).contains(v)));
        // Depth 0 is the static value of the turn's ends: greedy's values.
        if depth == 0 {
            let g = Greedy::<tab::State>::new(1).evaluate(&s).unwrap();
            for (m, v) in &a.moves {
                let w = g.moves.iter().find(|x| x.0 == *m).unwrap().1;
                assert!((v - w).abs() < 1e-12);
            }
        }
    }
}

/// Depth 1 that stops as the next turn begins values each move by the static value of the
/// best end of the turn it starts: exactly `greedy`'s values.
#[test]
fn one_turn_to_the_next_turn_is_greedy() {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let mut compared = 0;
    for s in decision_states(&rules, 6, 20, 2) {
        let a = analyse(&s, &turn_options(1, 4), true);
        assert_eq!(a.depth, Some(1));
        let g = Greedy::<tab::State>::new(1).evaluate(&s).unwrap();
        assert_eq!(a.moves.len(), g.moves.len());
        for (m, v) in &a.moves {
            let w = g.moves.iter().find(|x| x.0 == *m).unwrap().1;
            assert!((v - w).abs() < 1e-12, "{m}: {v} vs {w}");
            compared += 1;
        }
    }
    assert!(compared > 20, "{compared}");
}

/// Plays seeded games with `spec` in one seat against `random`, checking that every decision
/// of `spec` is legal, for at most `decisions` of its decisions a game.
fn check_legal<R: Ruleset>(rules: &R, spec: &str, games: u64, decisions: usize) -> usize
where
    R::State: Playable,
{
    let prepared = PreparedAgent::<R::State>::new(spec, rules).unwrap();
    let mut checked = 0;
    let mut outs = Vec::new();
    let mut moves = Vec::new();
    for g in 0..games {
        let seat = if g % 2 == 0 { Player::One } else { Player::Two };
        let mut agent = prepared.make(g);
        let mut rng = rng_from_seed(g);
        let mut s = rules.initial_state();
        let mut mine = 0;
        while mine < decisions {
            match s.turn() {
                Turn::Over(_) => break,
                Turn::Chance => {
                    s.chance_outcomes(&mut outs);
                    let i = pick_weighted(&mut rng, outs.iter().map(|w| w.weight));
                    s.apply_chance_unchecked(outs[i].outcome);
                }
                Turn::Player(p) if p == seat => {
                    let m = agent.choose(&s);
                    assert!(s.is_legal(m), "{spec} chose {m} at {}", s.position_id());
                    s.play_unchecked(m);
                    mine += 1;
                    checked += 1;
                }
                Turn::Player(_) => {
                    s.legal_moves(&mut moves);
                    s.play_unchecked(moves[below(&mut rng, moves.len())]);
                }
            }
        }
    }
    checked
}

#[test]
fn greedy_and_expectimax_play_only_legal_decisions_on_every_preset() {
    for any in AnyRuleset::presets() {
        let tihbat = qasab_ai::search::solver::solvable(&any).is_some();
        let games = if tihbat { 20 } else { 4 };
        let n = with_ruleset!(&any, r => check_legal(r, "greedy", games, 150));
        assert!(n > 50, "{any}: {n}");
        let (games, decisions) = if tihbat { (10, 100) } else { (2, 25) };
        let n = with_ruleset!(&any, r => check_legal(r, "expectimax(level=1)", games, decisions));
        assert!(n >= 20, "{any}: {n}");
    }
    for text in [
        "tab(throw_timing=interleaved,split=dissolve,reduction=row-entered,survivor=oldest)",
        "tab-modern(throw_use=compulsory,tab_bank=after-all-converted,columns=7)",
    ] {
        let rules: tab::Ruleset = text.parse().unwrap();
        check_legal(&rules, "greedy", 2, 100);
        check_legal(&rules, "expectimax(level=1)", 1, 20);
    }
    // The fitted weights of the Tâb family.
    for text in ["tab", "tab-hyde", "tab-modern(split=detach)"] {
        let rules: tab::Ruleset = text.parse().unwrap();
        check_legal(&rules, "greedy(eval=fitted)", 2, 100);
        check_legal(&rules, "expectimax(level=1,eval=fitted)", 1, 20);
    }
}

/// A cheap spec of each player the crate names, so that a player added later is not left out of
/// the legality check.
fn cheap_spec(name: &str) -> &'static str {
    match name {
        "random" => "random",
        "solver" => "solver",
        "mcts" => "mcts(iterations=40)",
        "greedy" => "greedy",
        "expectimax" => "expectimax(level=1)",
        "net" => "net",
        other => panic!("no cheap spec for the player {other}: add one here"),
    }
}

#[test]
fn every_player_plays_only_legal_decisions_on_every_preset() {
    let mut specs: Vec<&str> = qasab_ai::players::AGENT_NAMES
        .iter()
        .map(|n| cheap_spec(n))
        .collect();
    // The rollout variants of mcts.
    specs.extend([
        "mcts(iterations=20,rollout=greedy,cutoff=1)",
        "mcts(iterations=20,rollout=captures,cutoff=none)",
        "mcts(iterations=20,rollout=random,cutoff=none)",
        "mcts(iterations=40,cutoff=0,margin=1)",
        "mcts(iterations=40,cutoff=none,margin=0)",
        "mcts(iterations=40,tree=turns,cutoff=0)",
        "mcts(iterations=30,tree=turns,cutoff=1,threads=2)",
        "mcts(iterations=40,transpositions=on)",
        "mcts(iterations=40,reuse=on)",
        "mcts(iterations=40,transpositions=on,reuse=on)",
        "mcts(iterations=40,minimax=1,cutoff=none)",
        "mcts(iterations=40,minimax=0.5,tree=turns,transpositions=on)",
        // expectimax to the turn horizon.
        "expectimax(depth=2,nodes=3000,horizon=turn)",
    ]);
    for any in AnyRuleset::presets() {
        let tihbat = qasab_ai::search::solver::solvable(&any).is_some();
        for spec in &specs {
            if *spec == "solver" && !tihbat {
                continue;
            }
            // The network player where a network is shipped (tests/net.rs checks the refusals).
            if *spec == "net" && qasab_ai::AnyPlayer::new(spec, &any).is_err() {
                continue;
            }
            // Tihbat games against `random` can end within a dozen decisions.
            let games = if tihbat { 4 } else { 2 };
            let n = with_ruleset!(&any, r => check_legal(r, spec, games, 12));
            assert!(n >= 12, "{any}: {spec} made only {n} decisions");
        }
    }
}

/// The states of whole turns (many alike, as different orders of the same plays) are told
/// apart by their fingerprints exactly as by equality: the Tâb position's hash, which skips
/// derived fields, keeps everything that tells positions apart, the pieces' histories
/// included.
#[test]
fn fingerprints_tell_turn_states_apart() {
    use std::collections::HashSet;
    for text in [
        "tab",
        "tab(reduction=square-landed)",
        "tab(reduction=row-entered)",
        "tab-hyde",
        "tab-modern",
    ] {
        let rules: tab::Ruleset = text.parse().unwrap();
        let mut states = HashSet::new();
        let mut prints = HashSet::new();
        for s in decision_states(&rules, 8, 30, 3) {
            let g = qasab_ai::search::turn::TurnGraph::new(&s, 4096);
            for e in g.ends() {
                states.insert(*e);
                prints.insert(qasab_ai::search::hash::fingerprint(e));
            }
        }
        assert!(states.len() > 50, "{text}: {}", states.len());
        assert_eq!(states.len(), prints.len(), "{text}");
    }
}

/// The turn's graph finds its states by their fingerprints (on Tâb, made from the digest the
/// moves keep): it holds the same states and ends, in the same order, as a plain enumeration
/// keyed by whole states and told apart by equality, on every Tâb preset and on readings whose
/// stacks are reduced by their histories.
#[test]
fn turn_graphs_keyed_by_fingerprints_equal_graphs_keyed_by_whole_states() {
    for text in [
        "tab",
        "tab(reduction=square-landed)",
        "tab(reduction=row-entered)",
        "tab(columns=13,tab_bank=none)",
        "tab-hyde",
        "tab-modern",
        "tab-ludii",
        "tab-hyde-ludii",
    ] {
        let any: AnyRuleset = text.parse().unwrap();
        let ends = with_ruleset!(&any, r => whole_state_enumeration_agrees(r));
        assert!(ends > 100, "{text}: only {ends} turn ends compared");
    }
}

/// A graph rebuilt in place from a pool (as self-play and the `net` player expand their turns)
/// is the graph built afresh: the same states, ends, lines and completeness, whatever the
/// graph held before, a graph cut short at its cap included.
#[test]
fn turn_graphs_rebuilt_from_a_pool_equal_fresh_graphs() {
    use qasab_ai::search::turn::{GraphPool, TurnGraph};
    for text in [
        "tab",
        "tab(reduction=square-landed)",
        "tab-hyde",
        "tab-modern",
    ] {
        let rules: tab::Ruleset = text.parse().unwrap();
        let mut pool = GraphPool::default();
        let (mut compared, mut cut) = (0, 0);
        for (k, s) in decision_states(&rules, 8, 30, 5).into_iter().enumerate() {
            // Some graphs are cut short, so that the next rebuild starts from one.
            let cap = if k % 3 == 2 { 6 } else { 4096 };
            let fresh = TurnGraph::new(&s, cap);
            let reused = pool.expand(&s, cap);
            assert_eq!(reused.is_complete(), fresh.is_complete(), "{text}");
            assert_eq!(reused.len(), fresh.len(), "{text}");
            assert!(reused.ends().eq(fresh.ends()), "{text}");
            assert_eq!(reused.end_lines(), fresh.end_lines(), "{text}");
            if fresh.is_complete() {
                let values: Vec<f64> = (0..fresh.end_count()).map(|i| (i % 7) as f64).collect();
                assert_eq!(reused.root_values(&values), fresh.root_values(&values));
            } else {
                cut += 1;
            }
            compared += 1;
            pool.give(reused);
        }
        assert!(
            compared > 20 && cut > 0,
            "{text}: {compared} graphs, {cut} cut short"
        );
    }
}

/// Compares the graphs of seeded decision states of `rules` with a breadth-first enumeration
/// whose map is keyed by whole states; returns the ends compared.
fn whole_state_enumeration_agrees<R: Ruleset>(rules: &R) -> usize {
    use std::collections::HashMap;
    let mut compared = 0;
    for s in decision_states(rules, 12, 20, 6) {
        let g = qasab_ai::search::turn::TurnGraph::new(&s, 4096);
        if !g.is_complete() {
            continue;
        }
        let player = s.turn().player().unwrap();
        let (mut states, mut index) = (vec![s.clone()], HashMap::from([(s.clone(), 0usize)]));
        let (mut ends, mut moves, mut next) = (Vec::new(), Vec::new(), 0);
        while next < states.len() {
            let here = states[next].clone();
            next += 1;
            if here.turn() != Turn::Player(player) {
                ends.push(here);
                continue;
            }
            here.legal_moves(&mut moves);
            for &m in &moves {
                let mut child = here.clone();
                child.play_unchecked(m);
                if !index.contains_key(&child) {
                    index.insert(child.clone(), states.len());
                    states.push(child);
                }
            }
        }
        assert_eq!(g.len(), states.len(), "{rules}: the states of a turn");
        assert!(g.ends().eq(ends.iter()), "{rules}: the ends of a turn");
        compared += ends.len();
    }
    compared
}

/// Every end of a turn is reached by replaying its line from the turn's root.
#[test]
fn turn_lines_reach_their_ends() {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let mut checked = 0;
    for s in decision_states(&rules, 10, 20, 6) {
        let g = qasab_ai::search::turn::TurnGraph::new(&s, 4096);
        if !g.is_complete() {
            continue;
        }
        let lines = g.end_lines();
        assert_eq!(lines.len(), g.end_count());
        for (line, end) in lines.iter().zip(g.ends()) {
            let mut t = s;
            for &m in line {
                assert!(t.is_legal(m));
                t.play_unchecked(m);
            }
            assert_eq!(&t, end);
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

/// The actions of a seeded game between two agents.
fn game<R: Ruleset>(rules: &R, specs: [&str; 2], seed: u64) -> Vec<String>
where
    R::State: Playable,
{
    let mut agents = Player::ALL.map(|p| {
        PreparedAgent::<R::State>::new(specs[p.index()], rules)
            .unwrap()
            .make(seat_seed(seed, p))
    });
    let mut actions = Vec::new();
    play_out(
        rules.initial_state(),
        &mut agents,
        &mut ChanceSource::new(seed),
        |_, a| actions.push(a.to_string()),
    );
    actions
}

#[test]
fn a_seed_gives_the_same_game() {
    let rules: tihbat::Ruleset = "tihbat(seeds=5)".parse().unwrap();
    for seed in 0..3 {
        let specs = ["greedy", "expectimax(depth=3)"];
        assert_eq!(game(&rules, specs, seed), game(&rules, specs, seed));
    }
    let rules: tab::Ruleset = "tab(columns=7,pieces=3)".parse().unwrap();
    let specs = ["greedy(seed=4)", "expectimax(level=1,seed=9)"];
    let a = game(&rules, specs, 11);
    assert_eq!(a, game(&rules, specs, 11));
    assert!(a.len() > 20);
    // Each decision on its own, from fresh agents.
    let big: tab::Ruleset = "tab".parse().unwrap();
    for s in decision_states(&big, 2, 30, 2) {
        let one = |seed| Expectimax::<tab::State>::new(Options::level(1).unwrap(), seed).choose(&s);
        assert_eq!(one(3), one(3));
        let g = |seed| Greedy::<tab::State>::new(seed).choose(&s);
        assert_eq!(g(3), g(3));
    }
}

#[test]
fn greedy_and_expectimax_take_the_winning_capture() {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    // Black to play a 3: L-O takes White's last piece; k-n does nothing.
    let win = "move:b/3/O.c12v3e1ff,x,x,x,x,x,x,x,x/L.c234vfffff0000,k.c34v7f8040000,x,x,x,x,x,x,x/0.0/7.8/0.0/30.0.0.100/1.0.0.0.0.0.0/-";
    // The same with a second White piece on S: L-O is a capture, not yet a win.
    let capture = "move:b/3/O.c12v3e1ff,S.c12v3fffe,x,x,x,x,x,x,x/L.c234vfffff0000,k.c34v7f8040000,x,x,x,x,x,x,x/0.0/7.7/0.0/30.0.0.100/1.0.0.0.0.0.0/-";
    for id in [win, capture] {
        let s = rules.state_from_id(id).unwrap();
        let want = s.parse_move("3:L-O").unwrap();
        for seed in 0..4 {
            assert_eq!(Greedy::<tab::State>::new(seed).choose(&s), want, "{id}");
            let mut x = Expectimax::<tab::State>::new(Options::default(), seed);
            assert_eq!(x.choose(&s), want, "{id}");
        }
        let e = Greedy::<tab::State>::new(0).evaluate(&s).unwrap();
        assert_eq!(e.kind, ValueKind::Estimate);
        assert_eq!(e.moves[0].0, want);
        assert!(e.moves[0].1 > e.moves[1].1);
    }
    let s = rules.state_from_id(win).unwrap();
    let e = Expectimax::<tab::State>::new(Options::default(), 0)
        .evaluate(&s)
        .unwrap();
    assert_eq!(e.moves[0].1, 1.0, "taking the last piece wins");
    // Tihbat: South's A2 sows into B, which then holds 2: a capture; B1 does nothing.
    let rules: tihbat::Ruleset = "tihbat".parse().unwrap();
    let s = rules.state_from_id("2,1,5,4/8,8/south").unwrap();
    let want = s.parse_move("A2").unwrap();
    assert_eq!(Greedy::<tihbat::State>::new(0).choose(&s), want);
    assert_eq!(
        Expectimax::<tihbat::State>::new(Options::default(), 0).choose(&s),
        want
    );
}

#[test]
fn expectimax_values_every_legal_move() {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    for s in decision_states(&rules, 2, 40, 1) {
        let mut legal = Vec::new();
        s.legal_moves(&mut legal);
        let e = Expectimax::<tab::State>::new(Options::level(1).unwrap(), 0)
            .evaluate(&s)
            .unwrap();
        assert_eq!(e.kind, ValueKind::Estimate);
        assert_eq!(e.moves.len(), legal.len());
        assert!(e.moves.windows(2).all(|w| w[0].1 >= w[1].1));
        assert!(
            e.moves
                .iter()
                .all(|(m, v)| legal.contains(m) && (-1.0..=1.0).contains(v))
        );
    }
}

#[test]
fn search_specs_are_checked() {
    let rules = tihbat::Ruleset::default();
    let err = |s: &str| {
        PreparedAgent::<tihbat::State>::new(s, &rules)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert!(
        err("expectimax(level=6)").contains("level=6 is not valid; expected a level from 1 to 5")
    );
    assert!(err("expectimax(level=x)").contains("level=x is not valid"));
    assert!(
        err("expectimax(depth=0)")
            .contains("depth=0 is not valid; expected a number of turns from 1 to 8")
    );
    assert!(err("expectimax(nodes=10)").contains("nodes=10 is not valid"));
    assert!(err("expectimax(seed=-1)").contains("seed=-1 is not valid"));
    assert!(err("expectimax(width=2)").contains(
        "player expectimax has no option 'width'; valid options: seed, level, depth, nodes, horizon"
    ));
    assert!(
        err("expectimax(horizon=game)")
            .contains("horizon=game is not valid; expected throws or turn")
    );
    assert!(
        err("greedy(level=2)").contains("player greedy has no option 'level'; valid options: seed")
    );
    for ok in [
        "greedy",
        "greedy(seed=3)",
        "expectimax",
        "expectimax(level=5,depth=2,nodes=5000,seed=1)",
        "expectimax(depth=2,horizon=turn)",
        "expectimax(horizon=throws)",
    ] {
        assert_eq!(err(ok), "", "{ok}");
    }
    let a = PreparedAgent::<tihbat::State>::new("expectimax(level=3)", &rules)
        .unwrap()
        .make(8);
    assert_eq!(a.spec(), "expectimax(level=3,seed=8)");
    let a = PreparedAgent::<tihbat::State>::new("greedy(seed=2)", &rules)
        .unwrap()
        .make(8);
    assert_eq!(a.spec(), "greedy(seed=2)");
}
