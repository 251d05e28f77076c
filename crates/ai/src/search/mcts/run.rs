//! A search from one state: its trees grown from the same root (on threads), their root
//! statistics summed move by move, and the moves ranked by the final-move rule.

use std::time::{Duration, Instant};

use qasab_core::Player;
use rand_core::Rng;
use rayon::prelude::*;

use super::options::{Budget, MAX_LINKS, MctsOptions, TreeShape};
use super::tree::{Edge, RootTurn, Tree};
use crate::cancel;
use crate::eval::Evaluate;
use crate::rng::{derive_seed, rng_from_seed};
use crate::search::turn::{TURN_STATES, TurnGraph};

/// The seed stream of the final tie-break (tree `t` uses stream `t`).
const TIE_BREAK_STREAM: u64 = u64::MAX;

/// What the search found for one legal move at the root.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MoveStats<M> {
    /// The move.
    pub mv: M,
    /// Times the search tried it, over all trees.
    pub visits: u64,
    /// Its mean result for the player to move, in `[-1, 1]` (0 if never visited).
    pub value: f64,
}

/// The result of a search: every legal move, best first by the final-move rule.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The decisions chosen: the best move and, with `tree=turns`, the rest of the turn's
    /// line that the search chose with it.
    pub line: Vec<M>,
    /// Every legal move with its statistics, in the order of the final-move rule (most visits,
    /// then highest value, then the seed's order).
    pub moves: Vec<MoveStats<M>>,
    /// Iterations run, over all trees.
    pub iterations: u64,
    /// Nodes held by the search graphs, over all trees (with reuse, the earlier searches' too).
    pub nodes: u64,
}

impl<M: Copy> SearchResult<M> {
    /// The move chosen: the first of [`moves`](Self::moves).
    pub fn best(&self) -> M {
        self.moves[0].mv
    }
}

/// Searches `state` with `options`, using (and keeping for reuse) `trees`; `None` if it is not
/// a player's turn.
pub(super) fn run_search<S: Evaluate>(
    trees: &mut Vec<Tree<S>>,
    state: &S,
    options: &MctsOptions,
    seed: u64,
) -> Option<SearchResult<S::Move>> {
    let mover = state.turn().player()?;
    let threads = options.threads.max(1);
    while trees.len() < threads {
        trees.push(Tree::new());
    }
    let budget = budget(options);
    let graph = (options.tree == TreeShape::Turns)
        .then(|| TurnGraph::new(state, TURN_STATES))
        .filter(|g| g.is_complete());
    let root_turn = graph.as_ref().map(|g| RootTurn {
        lines: g.end_lines(),
        priors: S::evaluate_all(g.ends(), Player::One, options.eval),
    });
    let trees = &mut trees[..threads];
    grow(trees, state, options, seed, budget, root_turn.as_ref());
    let iterations = trees.iter().map(|t| t.iterations).sum();
    let nodes = trees.iter().map(|t| t.nodes.len() as u64).sum();
    let sign = if mover == Player::One { 1.0 } else { -1.0 };
    let (line, moves) = match (&graph, &root_turn) {
        (Some(graph), Some(turn)) => rank_turn_ends(trees, graph, turn, sign, seed),
        _ => {
            let moves = rank_moves(trees, state, sign, seed);
            (vec![moves[0].mv], moves)
        }
    };
    Some(SearchResult {
        line,
        moves,
        iterations,
        nodes,
    })
}

/// The iterations of the whole search and its deadline: under a time budget, as many
/// iterations as the time allows; under an iteration budget (or a level), no deadline.
fn budget(options: &MctsOptions) -> (u64, Option<Instant>) {
    match options.budget {
        Budget::Time(ms) => (u64::MAX, Some(Instant::now() + Duration::from_millis(ms))),
        budget => (budget.iterations().unwrap_or(u64::MAX), None),
    }
}

/// Grows `trees`, one per thread, from `state`: tree `t` is seeded with `derive_seed(seed, t)`
/// and, under an iteration budget of `total`, runs `total / T` iterations, one more for the
/// first `total mod T` trees; all of them share the links' limit ([`MAX_LINKS`]).
fn grow<S: Evaluate>(
    trees: &mut [Tree<S>],
    state: &S,
    options: &MctsOptions,
    seed: u64,
    (total, deadline): (u64, Option<Instant>),
    root_turn: Option<&RootTurn<S::Move>>,
) {
    let threads = trees.len();
    let share = |t: usize| match deadline {
        Some(_) => u64::MAX,
        None => total / threads as u64 + u64::from((t as u64) < total % threads as u64),
    };
    let max_links = (MAX_LINKS / threads).max(1024);
    // Read here, on the caller's thread, and carried into the search threads.
    let cancel = cancel::current();
    let work = |(t, tree): (usize, &mut Tree<S>)| {
        tree.search(
            state,
            options,
            derive_seed(seed, t as u64),
            (share(t), deadline, max_links),
            root_turn,
            cancel.as_ref(),
        );
    };
    if threads == 1 {
        work((0, &mut trees[0]));
    } else {
        trees.par_iter_mut().enumerate().for_each(work);
    }
}

/// The visits and the result sums of the root's links over `trees`, added up in `n` slots: a
/// link counts in the slot `slot` gives its action, if any.
fn root_sums<S: Evaluate>(
    trees: &[Tree<S>],
    n: usize,
    slot: impl Fn(Edge<S::Move, S::Chance>) -> Option<usize>,
) -> (Vec<u64>, Vec<f64>) {
    let mut visits = vec![0u64; n];
    let mut sums = vec![0f64; n];
    for tree in trees {
        for (edge, n, sum) in tree.root_links() {
            if let Some(i) = slot(edge) {
                visits[i] += n;
                sums[i] += sum;
            }
        }
    }
    (visits, sums)
}

/// Every legal move of `state` with its statistics summed over `trees`, in the order of the
/// final-move rule: most visits, then the higher value, then the seed's order. `sign` turns
/// values for [`Player::One`] into values for the player to move.
fn rank_moves<S: Evaluate>(
    trees: &[Tree<S>],
    state: &S,
    sign: f64,
    seed: u64,
) -> Vec<MoveStats<S::Move>> {
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    let (visits, sums) = root_sums(trees, legal.len(), |edge| match edge {
        Edge::Move(m) => legal.binary_search(&m).ok(),
        _ => None,
    });
    let mut tie = rng_from_seed(derive_seed(seed, TIE_BREAK_STREAM));
    let mut ranked: Vec<(MoveStats<S::Move>, f64, u64)> = legal
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let value = if visits[i] == 0 {
                0.0
            } else {
                sign * sums[i] / visits[i] as f64
            };
            let stats = MoveStats {
                mv,
                visits: visits[i],
                value,
            };
            (stats, sign * sums[i], tie.next_u64())
        })
        .collect();
    // Most visits first; equal visits make the sums comparable.
    ranked.sort_by(|a, b| {
        b.0.visits
            .cmp(&a.0.visits)
            .then(b.1.total_cmp(&a.1))
            .then(a.2.cmp(&b.2))
    });
    ranked.into_iter().map(|r| r.0).collect()
}

/// The line and the ranked moves of a search whose root children are the ends of the root's
/// turn: the end with the most visits over all trees (then the higher value, then the seed's
/// order) is chosen and its line of decisions played. Each legal move gets the best value of
/// an end reachable through it and the visits of the ends whose line starts with it; the
/// chosen line's first move comes first, the others follow by value.
fn rank_turn_ends<S: Evaluate>(
    trees: &[Tree<S>],
    graph: &TurnGraph<S>,
    turn: &RootTurn<S::Move>,
    sign: f64,
    seed: u64,
) -> (Vec<S::Move>, Vec<MoveStats<S::Move>>) {
    let n = turn.lines.len();
    let (visits, sums) = root_sums(trees, n, |edge| match edge {
        Edge::Turn { end, .. } => Some(end as usize),
        _ => None,
    });
    let values: Vec<f64> = (0..n)
        .map(|k| sign * sums[k] / visits[k].max(1) as f64)
        .collect();
    let mut tie = rng_from_seed(derive_seed(seed, TIE_BREAK_STREAM));
    let ties: Vec<u64> = (0..n).map(|_| tie.next_u64()).collect();
    let best = (0..n)
        .max_by(|&a, &b| {
            visits[a]
                .cmp(&visits[b])
                .then(values[a].total_cmp(&values[b]))
                .then(ties[b].cmp(&ties[a]))
        })
        .expect("a turn has an end");
    let line = turn.lines[best].clone();
    let mut moves: Vec<MoveStats<S::Move>> = graph
        .root_values(&values)
        .into_iter()
        .map(|(mv, value)| MoveStats {
            mv,
            visits: (0..n)
                .filter(|&k| turn.lines[k].first() == Some(&mv))
                .map(|k| visits[k])
                .sum(),
            value,
        })
        .collect();
    moves.sort_by(|a, b| {
        (b.mv == line[0])
            .cmp(&(a.mv == line[0]))
            .then(b.value.total_cmp(&a.value))
            .then(b.visits.cmp(&a.visits))
    });
    (line, moves)
}

/// Searches `state` once with `options` and `seed`, without an agent; `None` if it is not a
/// player's turn. The same state, options and seed (with an iteration budget) give the same
/// result.
pub fn search<S: Evaluate>(
    state: &S,
    options: &MctsOptions,
    seed: u64,
) -> Option<SearchResult<S::Move>> {
    run_search(&mut Vec::new(), state, options, seed)
}
