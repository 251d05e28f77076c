//! The `mcts` search on toy games whose values are known by hand: a player who decides twice
//! in a row, chance outcomes of unequal weights, a truncated game, transpositions, cycles, the
//! implicit minimax values, rollouts, the node limit and reuse.

mod toy;

use qasab_ai::agent::Agent;
use qasab_ai::rng::rng_from_seed;
use qasab_ai::search::mcts::{
    Budget, MAX_LINKS, MctsAgent, MctsOptions, RolloutPolicy, SearchResult, SearchTree, TreeShape,
    reward, rollout_reward, search,
};
use qasab_core::{ByPlayer, EndReason, GameState, Outcome, Player, Ruleset};

use toy::{Toy, ToyRules, ToyState};

use Player::{One, Two};

/// One decides twice in a row: `l` then `a` wins outright (+1). `r` leads to a throw that
/// wins 3 times in 4 and otherwise lets Two choose between his win and a draw (+0.5). A
/// search that took the second decision for Two's would value `l` at −1.
static TWICE: [Toy; 7] = [
    Toy::Decide(One, &[('l', 1), ('r', 4)]),
    Toy::Decide(One, &[('a', 2), ('b', 3)]),
    Toy::End(Some(One), false),
    Toy::End(Some(Two), false),
    Toy::Chance(&[(0, 3, 2), (1, 1, 5)]),
    Toy::Decide(Two, &[('x', 3), ('y', 6)]),
    Toy::End(None, false),
];

/// Two chooses between a draw (`q`, 0) and a throw with three outcomes of weights 1, 1 and
/// 6, where the first two win for Two and the last loses (`p`, −0.5 for Two). Drawing the
/// outcomes uniformly would value `p` at +1/3.
static WEIGHTS: [Toy; 5] = [
    Toy::Decide(Two, &[('p', 1), ('q', 2)]),
    Toy::Chance(&[(0, 1, 3), (1, 1, 3), (2, 6, 4)]),
    Toy::End(None, false),
    Toy::End(Some(Two), false),
    Toy::End(Some(One), false),
];

/// `t` ends the game by a safety limit with One ahead (0); `d` draws or wins evenly (+0.5).
static TRUNCATED: [Toy; 4] = [
    Toy::Decide(One, &[('d', 2), ('t', 1)]),
    Toy::End(None, true),
    Toy::Chance(&[(0, 1, 3), (1, 1, 1)]),
    Toy::End(Some(One), false),
];

/// A safety limit whose ruleset gives the game to the side ahead (`limit_result=captures`):
/// stopping there wins, where playing on loses half the time.
static TRUNCATED_WON: [Toy; 4] = [
    Toy::Decide(One, &[('d', 2), ('t', 1)]),
    Toy::End(Some(One), true),
    Toy::Chance(&[(0, 1, 3), (1, 1, 1)]),
    Toy::End(Some(Two), false),
];

fn opts(iterations: u64) -> MctsOptions {
    MctsOptions {
        budget: Budget::Iterations(iterations),
        ..MctsOptions::default()
    }
}

fn stats(tree: &'static [Toy], iterations: u64, seed: u64) -> SearchResult<char> {
    search(&ToyRules(tree).initial_state(), &opts(iterations), seed).unwrap()
}

fn value_of(r: &SearchResult<char>, m: char) -> f64 {
    r.moves.iter().find(|s| s.mv == m).unwrap().value
}

#[test]
fn a_player_deciding_twice_in_a_row_keeps_his_own_point_of_view() {
    for seed in 0..20 {
        let r = stats(&TWICE, 2000, seed);
        assert_eq!(r.best(), 'l', "seed {seed}: {r:?}");
        assert!(value_of(&r, 'l') > 0.9, "seed {seed}: {r:?}");
        assert!((value_of(&r, 'r') - 0.5).abs() < 0.35, "seed {seed}: {r:?}");
    }
}

#[test]
fn chance_outcomes_are_drawn_by_their_weights() {
    for seed in 0..20 {
        let r = stats(&WEIGHTS, 2000, seed);
        assert_eq!(r.best(), 'q', "seed {seed}: {r:?}");
        assert_eq!(value_of(&r, 'q'), 0.0);
    }
    // With the throw as the only line, its value is estimated closely: −0.5 for Two.
    static THROW: [Toy; 4] = [
        Toy::Decide(Two, &[('p', 1)]),
        Toy::Chance(&[(0, 1, 2), (1, 1, 2), (2, 6, 3)]),
        Toy::End(Some(Two), false),
        Toy::End(Some(One), false),
    ];
    for seed in 0..5 {
        let r = stats(&THROW, 4000, seed);
        assert!((value_of(&r, 'p') + 0.5).abs() < 0.1, "seed {seed}: {r:?}");
    }
}

#[test]
fn a_truncated_game_is_worth_the_result_its_ruleset_gives() {
    for seed in 0..20 {
        let r = stats(&TRUNCATED, 2000, seed);
        assert_eq!(r.best(), 'd', "seed {seed}: {r:?}");
        assert_eq!(value_of(&r, 't'), 0.0, "a stop the rules call a draw");
        let r = stats(&TRUNCATED_WON, 2000, seed);
        assert_eq!(r.best(), 't', "seed {seed}: {r:?}");
        assert_eq!(value_of(&r, 't'), 1.0, "a stop the rules give to the mover");
    }
}

#[test]
fn visits_add_up_to_the_iterations_and_the_order_follows_the_rule() {
    for threads in [1, 3] {
        let o = MctsOptions {
            threads,
            ..opts(1001)
        };
        let r = search(&ToyRules(&TWICE).initial_state(), &o, 5).unwrap();
        assert_eq!(r.iterations, 1001);
        assert_eq!(r.moves.iter().map(|m| m.visits).sum::<u64>(), 1001);
        assert!(r.moves.windows(2).all(|w| w[0].visits >= w[1].visits));
    }
    // Fewer iterations than moves: the unvisited move comes last with value 0.
    let r = stats(&TWICE, 1, 3);
    assert_eq!(r.moves.len(), 2);
    assert_eq!((r.moves[1].visits, r.moves[1].value), (0, 0.0));
}

#[test]
fn ties_are_broken_by_the_seed() {
    // Two moves that both win: equal visits are likely, equal values certain.
    static EQUAL: [Toy; 2] = [
        Toy::Decide(One, &[('a', 1), ('b', 1)]),
        Toy::End(Some(One), false),
    ];
    let firsts: std::collections::HashSet<char> =
        (0..40).map(|seed| stats(&EQUAL, 2, seed).best()).collect();
    assert_eq!(firsts.len(), 2, "both moves are chosen for some seed");
}

#[test]
fn no_search_outside_a_players_turn() {
    let end = ToyState {
        rules: ToyRules(&TWICE),
        at: 2,
        actions: 0,
    };
    assert!(search(&end, &opts(10), 1).is_none());
    let chance = ToyState { at: 4, ..end };
    assert!(search(&chance, &opts(10), 1).is_none());
}

/// One plays twice (`a` or `b`, then `c`), a throw, then Two's turn (`z`), which One wins.
static CUT: [Toy; 5] = [
    Toy::Decide(One, &[('a', 1), ('b', 1)]),
    Toy::Decide(One, &[('c', 2)]),
    Toy::Chance(&[(0, 1, 3)]),
    Toy::Decide(Two, &[('z', 4)]),
    Toy::End(Some(One), false),
];

#[test]
fn a_cutoff_ends_rollouts_with_the_evaluation() {
    let run = |cutoff, rollout| {
        // `a` and `b` reach the same state: one node per path keeps their two leaves apart.
        let o = MctsOptions {
            cutoff,
            rollout,
            transpositions: false,
            ..opts(2)
        };
        search(&ToyRules(&CUT).initial_state(), &o, 1).unwrap()
    };
    for &(_, rollout) in <RolloutPolicy as qasab_core::options::Choice>::CHOICES {
        // Evaluated at the leaf: node 1.
        assert_eq!(value_of(&run(Some(0), rollout), 'a'), 0.01);
        // The rest of One's turn is played; the evaluation comes when Two is to decide.
        assert_eq!(value_of(&run(Some(1), rollout), 'b'), 0.03);
        // To the end.
        assert_eq!(value_of(&run(Some(2), rollout), 'a'), 1.0);
        assert_eq!(value_of(&run(None, rollout), 'b'), 1.0);
    }
}

/// With `mix` below 1 a leaf is worth its evaluation and its rollout's result, weighted.
#[test]
fn mix_weighs_the_leafs_evaluation_against_its_rollout() {
    let run = |cutoff, mix| {
        let o = MctsOptions {
            cutoff,
            mix,
            transpositions: false,
            ..opts(2)
        };
        search(&ToyRules(&CUT).initial_state(), &o, 1).unwrap()
    };
    let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
    // The leaf after `a` is worth 0.01; its rollout to the end, 1.
    assert!(close(value_of(&run(None, 0.5), 'a'), 0.505));
    assert!(close(value_of(&run(None, 0.25), 'b'), 0.2575));
    assert!(close(value_of(&run(None, 0.0), 'a'), 0.01));
    // Cut off where Two is to decide (0.03).
    assert!(close(value_of(&run(Some(1), 0.5), 'b'), 0.02));
    // 1 is the rollout alone, as without the option.
    assert_eq!(value_of(&run(None, 1.0), 'a'), 1.0);
    // One rollout, as the search plays it: the same mix of the same rollout.
    let leaf = {
        let mut s = ToyRules(&CUT).initial_state();
        s.play_unchecked('a');
        s
    };
    let o = |mix| MctsOptions {
        mix,
        rollout: RolloutPolicy::Random,
        ..opts(1)
    };
    let pure = rollout_reward(&leaf, &o(1.0), &mut rng_from_seed(3));
    let mixed = rollout_reward(&leaf, &o(0.5), &mut rng_from_seed(3));
    assert!(close(mixed, 0.5 * 0.01 + 0.5 * pure));
}

#[test]
fn a_turn_tree_plays_a_whole_turn_and_keeps_to_it() {
    let o = MctsOptions {
        tree: TreeShape::Turns,
        cutoff: Some(0),
        ..opts(50)
    };
    let root = ToyRules(&CUT).initial_state();
    let r = search(&root, &o, 1).unwrap();
    // `a` and `b` reach the same state, so the turn has one end, two decisions away.
    assert_eq!(r.line.len(), 2);
    assert_eq!(r.line[1], 'c');
    assert_eq!(r.moves.len(), 2, "every legal move is listed");
    let mut agent = MctsAgent::<ToyState>::new(o, 3);
    let first = agent.choose(&root);
    let mut s = root;
    s.play_unchecked(first);
    assert_eq!(agent.planned().len(), 1);
    assert_eq!(agent.choose(&s), 'c');
    assert_eq!(agent.planned().len(), 0);
}

/// With `minimax`, each node keeps the expectimax value of the part of the tree explored
/// below it: exact weighted means at chance nodes (not the sampled average), and the best
/// child for the player to move.
#[test]
fn the_implicit_minimax_value_is_the_expectimax_value_of_the_explored_tree() {
    let o = MctsOptions {
        minimax: 1.0,
        cutoff: Some(0),
        ..opts(5000)
    };
    // Two throws (`p`: outcomes of weights 1, 1 and 6, the first two his wins) or loses
    // (`q`).
    static THROW_OR_LOSE: [Toy; 5] = [
        Toy::Decide(Two, &[('p', 1), ('q', 4)]),
        Toy::Chance(&[(0, 1, 3), (1, 1, 3), (2, 6, 4)]),
        Toy::End(None, false),
        Toy::End(Some(Two), false),
        Toy::End(Some(One), false),
    ];
    for seed in 0..10 {
        let root = ToyRules(&THROW_OR_LOSE).initial_state();
        let tree = SearchTree::grow(&root, &o, seed, 5000, MAX_LINKS);
        let r = tree.root();
        let child = |m: char| tree.root_child(m).unwrap();
        // `p` is worth (−1 − 1 + 6) / 8 to One, `q` +1; Two throws.
        assert_eq!(child('p').implicit, Some(0.5), "seed {seed}");
        assert_eq!(child('q').implicit, Some(1.0), "seed {seed}");
        assert_eq!(r.implicit, Some(0.5), "seed {seed}");
        assert_ne!(
            child('p').mean,
            0.5,
            "seed {seed}: the sampled mean differs"
        );
    }
    // In TWICE One wins at once with `l` then `a`: +1 at both of his nodes.
    let tree = SearchTree::grow(&ToyRules(&TWICE).initial_state(), &o, 1, 2000, MAX_LINKS);
    assert_eq!(tree.root().implicit, Some(1.0));
    // Selection with the implicit value still plays the right moves.
    for seed in 0..10 {
        for tree in [&WEIGHTS[..], &TWICE[..], &TRUNCATED[..]] {
            let plain = search(&ToyRules(tree).initial_state(), &opts(2000), seed).unwrap();
            let mm = MctsOptions {
                minimax: 0.5,
                ..opts(2000)
            };
            let r = search(&ToyRules(tree).initial_state(), &mm, seed).unwrap();
            assert_eq!(r.best(), plain.best(), "seed {seed}");
        }
    }
}

#[test]
fn the_margin_weighs_the_score_difference() {
    use qasab_core::EndReason::Elimination;
    let o = Outcome::by_score(ByPlayer { one: 6, two: 2 }, Elimination);
    assert_eq!(reward(&o, 0.0), 1.0);
    assert_eq!(reward(&o, 0.5), 0.5 + 0.5 * 0.5);
    let o = Outcome::by_score(ByPlayer { one: 0, two: 0 }, Elimination);
    assert_eq!(reward(&o, 0.5), 0.0);
    // A stopped game is worth the result the ruleset gives it, without the margin.
    let o = Outcome::by_score(ByPlayer { one: 1, two: 3 }, EndReason::NoProgress);
    assert_eq!(
        reward(&o, 0.5),
        -1.0,
        "stopped, the rules give it to the second player"
    );
    let o = Outcome { winner: None, ..o };
    assert_eq!(reward(&o, 0.5), 0.0, "stopped, a draw by the rules");
}

/// The mean reward of `n` rollouts by `policy` from `state`.
fn mean_rollout(state: &ToyState, policy: RolloutPolicy, n: u32) -> f64 {
    let o = MctsOptions {
        rollout: policy,
        ..opts(1)
    };
    let mut rng = rng_from_seed(1);
    let total: f64 = (0..n).map(|_| rollout_reward(state, &o, &mut rng)).sum();
    total / f64::from(n)
}

#[test]
fn greedy_and_capturing_rollouts_take_the_better_move() {
    // One's `b` leads to node 2 (0.02, his win, which scores him 1), `a` to node 1 (0.01,
    // his loss); the rollout from the root's only child decides by the evaluation or by
    // the score, where uniform moves would win half the time.
    static PICK: [Toy; 4] = [
        Toy::Decide(One, &[('s', 3)]),
        Toy::End(Some(Two), false),
        Toy::End(Some(One), false),
        Toy::Decide(One, &[('a', 1), ('b', 2)]),
    ];
    let mut state = ToyRules(&PICK).initial_state();
    state.play_unchecked('s');
    assert_eq!(mean_rollout(&state, RolloutPolicy::Greedy, 20), 1.0);
    assert_eq!(mean_rollout(&state, RolloutPolicy::Captures, 20), 1.0);
    let uniform = mean_rollout(&state, RolloutPolicy::Random, 400);
    assert!(uniform.abs() < 0.2, "{uniform}");
}

#[test]
fn capturing_rollouts_are_uniform_among_equal_gains() {
    // Neither move scores: `a` ends in Two's win, `b` in a truncated game.
    static EVEN: [Toy; 3] = [
        Toy::Decide(One, &[('a', 1), ('b', 2)]),
        Toy::End(Some(Two), false),
        Toy::End(None, true),
    ];
    let state = ToyRules(&EVEN).initial_state();
    // Half the games are lost (−1), half truncated (0).
    let mean = mean_rollout(&state, RolloutPolicy::Captures, 400);
    assert!((mean + 0.5).abs() < 0.1, "{mean}");
}

#[test]
fn a_search_past_the_node_limit_goes_on_with_rollouts() {
    let state = ToyRules(&TWICE).initial_state();
    let tree = SearchTree::grow(&state, &opts(500), 1, 500, 3);
    assert_eq!(tree.iterations(), 500);
    assert_eq!(tree.link_count(), 2, "the root's two links only");
    assert_eq!(tree.node_count(), 3, "the root and its two children only");
    assert_eq!(tree.root().visits, 500);
}

/// One plays `a` then `b`, or `b` then `a`: both orders reach the same throw.
static ORDERS: [Toy; 6] = [
    Toy::Decide(One, &[('a', 1), ('b', 2)]),
    Toy::Decide(One, &[('b', 3)]),
    Toy::Decide(One, &[('a', 3)]),
    Toy::Chance(&[(0, 1, 4), (1, 1, 5)]),
    Toy::End(Some(One), false),
    Toy::End(Some(Two), false),
];

#[test]
fn a_state_reached_by_two_orders_is_one_node() {
    let state = ToyRules(&ORDERS).initial_state();
    let mut counts = Vec::new();
    for transpositions in [true, false] {
        let o = MctsOptions {
            transpositions,
            ..opts(100)
        };
        let tree = SearchTree::grow(&state, &o, 1, 100, 1000);
        counts.push(tree.node_count());
        // The throw's node: reached by every iteration but the two that stop at `a` and
        // `b` on their first visits.
        let throws: Vec<u32> = tree
            .nodes()
            .filter(|n| n.links == 2 && n.chance)
            .map(|n| n.visits)
            .collect();
        if transpositions {
            assert_eq!(throws, [98]);
        } else {
            assert_eq!(throws.len(), 2);
            assert_eq!(throws.iter().sum::<u32>(), 98);
        }
    }
    // The root, `a`, `b`, the throw and its two ends; without the table the throw and its
    // ends twice.
    assert_eq!(counts, [6, 9]);
}

/// One may go back to the start (`l`, which repeats the root state), win (`w`) or lose
/// (`x`).
static LOOP: [Toy; 3] = [
    Toy::Decide(One, &[('l', 0), ('w', 1), ('x', 2)]),
    Toy::End(Some(One), false),
    Toy::End(Some(Two), false),
];

#[test]
fn a_state_repeated_on_the_path_ends_the_descent() {
    let state = ToyRules(&LOOP).initial_state();
    let o = MctsOptions {
        transpositions: true,
        ..opts(500)
    };
    for seed in 0..5 {
        let r = search(&state, &o, seed).unwrap();
        assert_eq!(r.best(), 'w', "seed {seed}: {r:?}");
        assert_eq!(r.iterations, 500);
    }
    let tree = SearchTree::grow(&state, &o, 1, 50, 1000);
    assert_eq!(
        tree.node_count(),
        3,
        "`l` leads back to the root's own node"
    );
}

/// With `priors=on`, expanding a node values every child at once, each starting with one
/// visit worth its static value, and the iteration stops there with the node's value one
/// action deeper: the best child's for the player to move, the weighted mean at a throw.
#[test]
fn priors_value_every_child_at_once_and_back_up_one_action_deeper() {
    let o = MctsOptions {
        priors: true,
        cutoff: Some(0),
        minimax: 1.0,
        ..opts(2)
    };
    let root = ToyRules(&TWICE).initial_state();
    // The toy's static value of an unfinished state is its index over 100: `l` reaches One's
    // second decision (0.01), `r` the throw (0.04).
    let one = SearchTree::grow(&root, &o, 3, 1, MAX_LINKS);
    assert_eq!(one.node_count(), 3, "the root and both children at once");
    let (l, r) = (one.root_child('l').unwrap(), one.root_child('r').unwrap());
    assert_eq!((l.visits, l.mean, l.links), (1, 0.01, 0));
    assert_eq!((r.visits, r.mean, r.links), (1, 0.04, 0));
    assert_eq!(one.root().visits, 1);
    assert_eq!(one.root().mean, 0.04, "One's best child");
    assert_eq!(one.root().implicit, Some(0.04));
    // The second iteration takes the better child, the throw, and values its outcomes: One
    // wins 3 times in 4, else Two decides (0.05).
    let two = SearchTree::grow(&root, &o, 3, 2, MAX_LINKS);
    let r = two.root_child('r').unwrap();
    let deeper = (3.0 * 1.0 + 0.05) / 4.0;
    assert_eq!((r.visits, r.links, r.chance), (2, 2, true));
    assert_eq!(r.mean, (0.04 + deeper) * (1.0 / 2.0));
    assert_eq!(r.implicit, Some(deeper as f32));
    assert_eq!(two.node_count(), 5);
    // Every child is made with its value, so the nodes are the links and the root.
    let tree = SearchTree::grow(&root, &o, 3, 300, MAX_LINKS);
    assert_eq!(tree.node_count(), tree.link_count() + 1);
}

/// The searches with priors find what the plain ones do: the right moves, a draw by the
/// safety limit, a loop back to the start, and with `minimax=1` the expectimax values.
#[test]
fn priors_keep_the_answers_known_by_hand() {
    for transpositions in [false, true] {
        let o = |iterations| MctsOptions {
            priors: true,
            transpositions,
            ..opts(iterations)
        };
        for seed in 0..10 {
            for (tree, best) in [
                (&TWICE[..], 'l'),
                (&WEIGHTS[..], 'q'),
                (&TRUNCATED[..], 'd'),
                (&TRUNCATED_WON[..], 't'),
                (&LOOP[..], 'w'),
            ] {
                let r = search(&ToyRules(tree).initial_state(), &o(500), seed).unwrap();
                assert_eq!(r.best(), best, "seed {seed}: {r:?}");
                assert_eq!(r.iterations, 500);
            }
        }
        let exact = MctsOptions {
            minimax: 1.0,
            cutoff: Some(0),
            ..o(200)
        };
        let tree = SearchTree::grow(&ToyRules(&WEIGHTS).initial_state(), &exact, 1, 200, 1000);
        // `p` is worth (−1 − 1 + 6) / 8 to One, `q` 0: Two draws.
        assert_eq!(tree.root_child('p').unwrap().implicit, Some(0.5));
        assert_eq!(tree.root_child('q').unwrap().implicit, Some(0.0));
        assert_eq!(tree.root().implicit, Some(0.0));
    }
}

#[test]
fn a_players_next_search_goes_on_from_his_last_graph() {
    // After `l`, One decides again: the graph of the first search already holds that state.
    let first = ToyRules(&TWICE).initial_state();
    let mut next = first;
    next.play_unchecked('l');
    for reuse in [true, false] {
        let o = MctsOptions { reuse, ..opts(400) };
        let mut agent = MctsAgent::<ToyState>::new(o, 3);
        let before = agent.search(&first).unwrap();
        assert_eq!(before.best(), 'l');
        let carried = before.moves[0].visits - 1;
        let after = agent.search(&next).unwrap();
        let visits: u64 = after.moves.iter().map(|m| m.visits).sum();
        assert_eq!(after.iterations, 400);
        if reuse {
            assert_eq!(visits, 400 + carried, "the visits below `l` are kept");
        } else {
            assert_eq!(visits, 400);
        }
        assert_eq!(after.best(), 'a');
        // Back at the start, the root's own node is found again.
        let again = agent.search(&first).unwrap();
        let visits: u64 = again.moves.iter().map(|m| m.visits).sum();
        assert_eq!(visits, if reuse { 800 } else { 400 });
        // A state the graph does not hold starts afresh.
        let elsewhere = ToyState { actions: 7, ..next };
        let fresh = agent.search(&elsewhere).unwrap();
        assert_eq!(fresh.moves.iter().map(|m| m.visits).sum::<u64>(), 400);
    }
}
