//! `mcts`: Monte Carlo tree search with chance nodes, for every game.
//!
//! The player searches through the [`GameState`](qasab_core::GameState) API only, so it plays every ruleset. How it
//! works (a longer account with the reasons is in `docs/mcts.md`):
//!
//! * **Graph.** Nodes and the links between them are kept in two arenas (`Vec`s) and addressed
//!   by index; a node's links are allocated together, contiguously, when it is expanded, and a
//!   link's child node the first time the link is followed. Nodes hold no state: each
//!   iteration clones the root state and replays the actions on the way down.
//! * **Transpositions** (`transpositions=on`; off by default, see `docs/mcts.md`): a table keyed on the state's
//!   128-bit fingerprint ([`crate::search::hash::fingerprint`]) makes one node of every state, however
//!   it is reached, so the search is a graph. A link keeps its own visits (for exploration);
//!   its value is its child's mean over every path. A state met again on the path being
//!   descended (a cycle, possible in games whose state holds no move count) ends the descent
//!   there. With `transpositions=off` every path has its own node.
//! * **Reuse** (`reuse=on`; off by default; with `tree=decisions`): an agent keeps each tree's
//!   graph, and a later search whose state the graph holds goes on from that state's node
//!   with its statistics, adding its budget of iterations; otherwise, or once a graph holds
//!   half its share of [`MAX_LINKS`], the search starts afresh.
//! * **Iteration.** From the root, descend until a node that has not been visited yet (or a
//!   finished game); play a rollout from there; add the result to every node on the path. A
//!   node's children are allocated on its second visit (the root's on its first), so a node
//!   costs memory only once the search comes back to it.
//! * **Player nodes** choose a child by UCB1 (Kocsis and Szepesvári's UCT): a child never
//!   visited is taken first, otherwise the child maximising
//!   `q + c · sqrt(ln N / n)`, where `n` is the child's visits, `N` the node's, `q` the child's
//!   mean result **from the point of view of the player to move at the node**, and `c` the
//!   exploration constant ([`DEFAULT_C`]). Results are stored from [`Player::One`]'s point of
//!   view and negated for [`Player::Two`] at selection, so nothing assumes that players
//!   alternate: a player who makes several decisions in a row (extra throws, several throws to
//!   play) maximises his own result at each of them.
//! * **Chance nodes** are sampled, not fully expanded: on its second visit a chance node gets
//!   one child per outcome, and each descent draws one of them with probability
//!   `weight / denominator`, by the exact integer weights of
//!   [`GameState::chance_outcomes`](qasab_core::GameState::chance_outcomes) ([`pick_weighted`]). A chance node's value is thus the
//!   sampled average of its children's.
//! * **Implicit minimax values** (`minimax=α` > 0; 0.4 on the Tâb family, else 0): every node
//!   also keeps the expectimax value of the tree explored below it, from the static value of
//!   each leaf, backed up by the best child at player nodes and by the weighted mean at chance
//!   nodes (Lanctot, Winands, Pepels and Sturtevant, 2014); selection rates a child by
//!   `(1 − α) · mean + α · implicit value`.
//! * **Rewards**: a finished game is worth `(1 − margin) · r + margin · d` to the first player,
//!   `r` being +1 for a win, −1 for a loss, 0 for a draw and `d` the score difference over the
//!   scores' sum (`margin=0`, the result alone, except on Tihbat); 0 for a game stopped by a
//!   safety limit ([`Outcome::is_truncated`](qasab_core::Outcome::is_truncated)), whatever its scores. A rollout cut off by
//!   `cutoff` is worth the static evaluation ([`Evaluate`]) where it stops.
//! * **Rollouts** follow a [`RolloutPolicy`]: `random` (a uniform legal move), `greedy` (the
//!   move the evaluation prefers) or `captures` (the move that scores most), chance by its weights, with reused buffers, to the end of the
//!   game or for `cutoff` turns.
//! * **Mixing** (`mix=λ` < 1; 1 by default): a leaf is worth `(1 − λ) · its static value + λ ·
//!   its rollout's result`, as AlphaGo mixed its value network with its rollouts (Silver et
//!   al., 2016), so that a search can use an evaluation and rollouts to the end together.
//! * **Tree shape** ([`TreeShape`]): a player's node branches on single decisions, or with
//!   `tree=turns` on the distinct ends of his whole turn, each seeded with one visit worth its
//!   static value.
//! * **Ties** are broken by the seed: the children of a player node are stored in an order
//!   shuffled with the tree's generator, and the first of equals in that order is taken.
//! * **Budget** ([`Budget`]): a number of iterations, or a time in milliseconds, or a level
//!   ([`LEVEL_ITERATIONS`]).
//! * **Threads.** `threads=T` searches `T` independent trees from the same root (root
//!   parallelisation), tree `t` seeded with `derive_seed(seed, t)`; an iteration budget is
//!   split between them (the first `N mod T` trees get one more). Their root statistics are
//!   summed move by move. With an iteration budget the result depends only on the state, the
//!   options, the seed and (with reuse) the agent's earlier searches, never on how the trees
//!   are scheduled.
//! * **Final move.** The move with the most visits (summed over the trees); among equals, the
//!   higher mean value; among equals again, the first in an order drawn from the search's seed.
//!   A decision with a single legal move is played without searching.
//! * **Inspection.** [`SearchTree`] grows one tree and reads its nodes, [`rollout_reward`]
//!   plays one rollout and [`reward`] scores a finished game: what the search computes, open
//!   to tests against values known by hand and to diagnostics.
//!
//! Memory: a node or a link is a few dozen bytes; a search allocates at most [`MAX_LINKS`]
//! links in all (split between its trees), and at most one node per link. Past that, leaves
//! are no longer expanded and the search goes on with rollouts from them.
//!
//! References: Auer, Cesa-Bianchi and Fischer, "Finite-time Analysis of the Multiarmed Bandit
//! Problem" (2002, UCB1); Kocsis and Szepesvári, "Bandit based Monte-Carlo Planning" (2006,
//! UCT); Chaslot, Winands and van den Herik, "Parallel Monte-Carlo Tree Search" (2008, root
//! parallelisation); OpenSpiel's `algorithms/mcts.h` (chance nodes sampled by their
//! probabilities, values per player).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use qasab_core::{Player, Turn, Weighted};
use rand_core::Rng;
use rayon::prelude::*;

use crate::agent::{Agent, Evaluation, ValueKind};
use crate::cancel::{self, Cancel};
use crate::eval::Evaluate;
use crate::rng::{GameRng, below, derive_seed, pick_weighted, rng_from_seed};
use crate::search::hash::{BuildPassHasher, fingerprint};
use crate::search::turn::{TURN_STATES, TurnGraph};

mod inspect;
mod options;
mod rollout;
pub use inspect::{NodeStats, SearchTree, rollout_reward};
pub use options::*;
use rollout::leaf_result;
pub use rollout::reward;

/// A tree stops after this many iterations whatever the budget, so that visit counts and result
/// sums fit their 32-bit fields.
const MAX_TREE_ITERATIONS: u64 = i32::MAX as u64;

/// Iterations between two looks at the clock under a time budget.
const CLOCK_EVERY: u64 = 8;

/// The seed stream of the final tie-break (tree `t` uses stream `t`).
const TIE_BREAK_STREAM: u64 = u64::MAX;

/// The root's turn, enumerated once for all trees (`tree=turns`).
struct RootTurn<M> {
    /// One line of decisions to each end of the turn.
    lines: Vec<Vec<M>>,
    /// Each end's static value for [`Player::One`].
    priors: Vec<f64>,
}

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

/// The action of a link from a node to its child.
#[derive(Copy, Clone, Debug)]
enum Edge<M, C> {
    /// A player's move.
    Move(M),
    /// A chance outcome with its weight.
    Chance(C, u32),
    /// A player's whole turn (`tree=turns`): the decisions `lines[start..start + len]` of the
    /// tree, reaching the `end`-th end of the turn's graph.
    Turn { start: u32, len: u32, end: u32 },
}

/// No node yet: a link not yet followed.
const NO_NODE: u32 = u32::MAX;

/// A link from a node to one of its children: the action, the child (allocated the first time
/// the link is followed) and the iterations that went through this link.
#[derive(Copy, Clone, Debug)]
struct Link<M, C> {
    edge: Edge<M, C>,
    child: u32,
    visits: u32,
}

/// A node of the search graph: one state (with transpositions) or one path (without).
#[derive(Copy, Clone, Debug)]
struct Node {
    /// Iterations that passed through the node, by any path.
    visits: u32,
    /// The sum of their rewards for [`Player::One`].
    sum: f64,
    /// The index of the first link to a child.
    first: u32,
    /// The number of links; 0 until the node is expanded (always 0 at the end of a game).
    len: u32,
    /// The last iteration whose path went through the node (1-based), to see a cycle.
    stamp: u32,
    /// The implicit minimax value for [`Player::One`] (`minimax` > 0): the static value of a
    /// leaf, backed up by max/min at player nodes and by the weighted mean at chance nodes;
    /// NaN until the node is first evaluated.
    implicit: f32,
    /// Who is to move at the node, once visited ([`NodeKind`]).
    kind: NodeKind,
}

/// Who is to move at a node, for the implicit minimax backup.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum NodeKind {
    /// Not visited yet, or the game is over there.
    Leaf,
    /// A player chooses: the first (`true`) or the second.
    Player(bool),
    /// A chance outcome is drawn.
    Chance,
}

impl Node {
    const NEW: Node = Node {
        visits: 0,
        sum: 0.0,
        first: 0,
        len: 0,
        stamp: 0,
        implicit: f32::NAN,
        kind: NodeKind::Leaf,
    };

    /// The mean result for [`Player::One`] (0 if never visited), as the sum times the inverse
    /// of the visits: with one parent, exactly the value a tree without links computes.
    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.sum * (1.0 / f64::from(self.visits))
        }
    }
}

/// One search graph with its scratch buffers; kept by the agent so that its memory is reused
/// from move to move.
struct Tree<S: Evaluate> {
    nodes: Vec<Node>,
    links: Vec<Link<S::Move, S::Chance>>,
    /// With transpositions: the node of each state met, by its fingerprint.
    table: HashMap<u128, u32, BuildPassHasher>,
    /// The decisions of the turn edges ([`Edge::Turn`]), one after another.
    lines: Vec<S::Move>,
    /// The nodes and the links of the current iteration's path.
    path: Vec<u32>,
    walked: Vec<u32>,
    moves: Vec<S::Move>,
    outs: Vec<Weighted<S::Chance>>,
    /// The node of the state searched from.
    root: u32,
    /// Iterations run since the graph was last cleared: each iteration stamps its path with
    /// its number.
    clock: u32,
    /// Iterations run by the last search.
    iterations: u64,
}

impl<S: Evaluate> Tree<S> {
    fn new() -> Self {
        Tree {
            root: 0,
            clock: 0,
            nodes: Vec::new(),
            links: Vec::new(),
            table: HashMap::default(),
            lines: Vec::new(),
            path: Vec::new(),
            walked: Vec::new(),
            moves: Vec::new(),
            outs: Vec::new(),
            iterations: 0,
        }
    }

    /// Searches from `root` for `iterations` iterations or until `deadline`, whichever comes
    /// first (at least one iteration), with at most `max_links` links; the root's children are
    /// the ends of `root_turn` if given.
    ///
    /// With `reuse`, a graph kept from an earlier search that holds `root`'s state is searched
    /// on from that state's node, its statistics kept; otherwise (or once the graph holds half
    /// of `max_links`) the search starts afresh.
    fn search(
        &mut self,
        root: &S,
        opts: &MctsOptions,
        seed: u64,
        (iterations, deadline, max_links): (u64, Option<Instant>, usize),
        root_turn: Option<&RootTurn<S::Move>>,
        cancel: Option<&Cancel>,
    ) {
        let mut rng = rng_from_seed(seed);
        let limit = iterations.min(MAX_TREE_ITERATIONS);
        let kept = (opts.reuse
            && root_turn.is_none()
            && self.links.len() <= max_links / 2
            && u64::from(self.clock) + limit <= MAX_TREE_ITERATIONS)
            .then(|| self.table.get(&fingerprint(root)).copied())
            .flatten();
        match kept {
            Some(node) => self.root = node,
            None => {
                self.nodes.clear();
                self.links.clear();
                self.lines.clear();
                self.table.clear();
                self.nodes.push(Node::NEW);
                self.root = 0;
                self.clock = 0;
                if opts.keys() {
                    self.table.insert(fingerprint(root), 0);
                }
                if let Some(turn) = root_turn {
                    self.add_turn_children(0, &turn.lines, &turn.priors, &mut rng);
                }
            }
        }
        let mut done = 0;
        while done < limit {
            if done > 0
                && done % CLOCK_EVERY == 0
                && (deadline.is_some_and(|d| Instant::now() >= d) || cancel::requested(cancel))
            {
                break;
            }
            done += 1;
            self.clock += 1;
            self.iterate(root, opts, &mut rng, max_links);
        }
        self.iterations = done;
    }

    /// One iteration, stamped with the clock: descend, expand, roll out, back up.
    fn iterate(&mut self, root: &S, opts: &MctsOptions, rng: &mut GameRng, max_links: usize) {
        let stamp = self.clock;
        let mut state = root.clone();
        self.path.clear();
        self.walked.clear();
        let mut node = self.root as usize;
        let implicit = opts.minimax > 0.0;
        // The static value of the leaf, where it is not the result itself (`minimax` > 0).
        let mut leaf_value = None;
        let result = loop {
            self.path.push(node as u32);
            self.nodes[node].stamp = stamp;
            let mover = match state.turn() {
                Turn::Over(o) => break reward(&o, opts.margin),
                Turn::Chance => None,
                Turn::Player(p) => Some(p),
            };
            self.nodes[node].kind = match mover {
                Some(p) => NodeKind::Player(p == Player::One),
                None => NodeKind::Chance,
            };
            if self.nodes[node].len == 0 {
                let expanded = (self.nodes[node].visits > 0 || node == self.root as usize)
                    && self.expand(node, &state, mover.is_some(), opts, rng, max_links);
                if !expanded {
                    if implicit && opts.cutoff != Some(0) && self.nodes[node].implicit.is_nan() {
                        leaf_value = Some(state.evaluate_with(Player::One, opts.eval));
                    }
                    break leaf_result(
                        &mut state,
                        opts,
                        rng,
                        &mut self.moves,
                        &mut self.outs,
                        leaf_value,
                    );
                }
            }
            let link = match mover {
                Some(p) => self.select(node, p, opts.c, opts.minimax),
                None => self.sample(node, rng),
            };
            match self.links[link].edge {
                Edge::Move(m) => state.play_unchecked(m),
                Edge::Chance(c, _) => state.apply_chance_unchecked(c),
                Edge::Turn { start, len, .. } => {
                    for &m in &self.lines[start as usize..(start + len) as usize] {
                        state.play_unchecked(m);
                    }
                }
            }
            self.walked.push(link as u32);
            let mut child = self.links[link].child;
            if child == NO_NODE {
                child = self.node_for(&state, opts);
                self.links[link].child = child;
            }
            if self.nodes[child as usize].stamp == stamp {
                // The state repeats on this path: evaluate it here rather than loop.
                break leaf_result(&mut state, opts, rng, &mut self.moves, &mut self.outs, None);
            }
            node = child as usize;
        };
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.sum += result;
        }
        for &i in &self.walked {
            self.links[i as usize].visits += 1;
        }
        if implicit {
            self.back_up_implicit(leaf_value.unwrap_or(result));
        }
    }

    /// The implicit minimax backup (Lanctot, Winands, Pepels and Sturtevant, 2014): the path's
    /// last node, if it has no value yet, takes `leaf` (its static value, or the result of a
    /// finished game); then every node above takes the best of its children's values for the
    /// player to move, or at a chance node their mean weighted by the outcomes' weights,
    /// over the children that have a value.
    fn back_up_implicit(&mut self, leaf: f64) {
        let Some((&last, above)) = self.path.split_last() else {
            return;
        };
        let n = &mut self.nodes[last as usize];
        if n.implicit.is_nan() {
            n.implicit = leaf as f32;
        }
        for &i in above.iter().rev() {
            let n = self.nodes[i as usize];
            let links = &self.links[n.first as usize..(n.first + n.len) as usize];
            let valued = links.iter().filter_map(|l| {
                (l.child != NO_NODE)
                    .then(|| (l, self.nodes[l.child as usize].implicit))
                    .filter(|(_, v)| !v.is_nan())
            });
            let value = match n.kind {
                NodeKind::Player(one) => {
                    let sign = if one { 1.0 } else { -1.0 };
                    valued.map(|(_, v)| sign * v).fold(f32::NAN, f32::max) * sign
                }
                NodeKind::Chance => {
                    let (mut sum, mut weights) = (0.0f64, 0u64);
                    for (l, v) in valued {
                        if let Edge::Chance(_, w) = l.edge {
                            sum += f64::from(w) * f64::from(v);
                            weights += u64::from(w);
                        }
                    }
                    if weights == 0 {
                        f32::NAN
                    } else {
                        (sum / weights as f64) as f32
                    }
                }
                NodeKind::Leaf => continue,
            };
            if !value.is_nan() {
                self.nodes[i as usize].implicit = value;
            }
        }
    }

    /// The node of `state`, reached for the first time by a link: with transpositions the
    /// node already holding the same state if there is one, else a new node. The table keeps
    /// the first node of each state (for transpositions, and to find a later search's root).
    fn node_for(&mut self, state: &S, opts: &MctsOptions) -> u32 {
        let fresh = self.nodes.len() as u32;
        if opts.keys() {
            let at = *self.table.entry(fingerprint(state)).or_insert(fresh);
            if at != fresh && opts.transpositions {
                return at;
            }
        }
        self.nodes.push(Node::NEW);
        fresh
    }

    /// Gives `node` (whose state is `state`) its links: one per legal move in an order
    /// shuffled by `rng`, or one per chance outcome. Returns false, adding nothing, if that
    /// would pass `max_links`.
    fn expand(
        &mut self,
        node: usize,
        state: &S,
        player: bool,
        opts: &MctsOptions,
        rng: &mut GameRng,
        max_links: usize,
    ) -> bool {
        let first = self.links.len();
        if player && opts.tree == TreeShape::Turns {
            let graph = TurnGraph::new(state, INNER_TURN_STATES);
            if graph.is_complete() {
                if first + graph.end_count() > max_links {
                    return false;
                }
                let priors = S::evaluate_all(graph.ends(), Player::One, opts.eval);
                self.add_turn_children(node, &graph.end_lines(), &priors, rng);
                return true;
            }
        }
        let link = |edge| Link {
            edge,
            child: NO_NODE,
            visits: 0,
        };
        if player {
            state.legal_moves(&mut self.moves);
            let len = self.moves.len();
            if first + len > max_links {
                return false;
            }
            for i in (1..len).rev() {
                self.moves.swap(i, below(rng, i + 1));
            }
            self.links
                .extend(self.moves.iter().map(|&m| link(Edge::Move(m))));
        } else {
            state.chance_outcomes(&mut self.outs);
            if first + self.outs.len() > max_links {
                return false;
            }
            self.links.extend(
                self.outs
                    .iter()
                    .map(|w| link(Edge::Chance(w.outcome, w.weight))),
            );
        }
        let len = self.links.len() - first;
        let n = &mut self.nodes[node];
        n.first = first as u32;
        n.len = len as u32;
        true
    }

    /// Gives `node` one child per end of a turn, in an order shuffled by `rng`: the decisions
    /// `lines[k]` reach the `k`-th end, whose static value for [`Player::One`] is `priors[k]`;
    /// each child is a new node (not shared through the table) and starts with one visit worth
    /// its prior.
    fn add_turn_children(
        &mut self,
        node: usize,
        lines: &[Vec<S::Move>],
        priors: &[f64],
        rng: &mut GameRng,
    ) {
        let mut order: Vec<usize> = (0..lines.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, below(rng, i + 1));
        }
        let first = self.links.len();
        for k in order {
            let start = self.lines.len() as u32;
            self.lines.extend_from_slice(&lines[k]);
            self.links.push(Link {
                edge: Edge::Turn {
                    start,
                    len: lines[k].len() as u32,
                    end: k as u32,
                },
                child: self.nodes.len() as u32,
                visits: 1,
            });
            self.nodes.push(Node {
                visits: 1,
                sum: priors[k],
                implicit: priors[k] as f32,
                ..Node::NEW
            });
        }
        let n = &mut self.nodes[node];
        n.first = first as u32;
        n.len = lines.len() as u32;
    }

    /// The link UCB1 picks at a node where `p` is to move: a link never followed first, else
    /// the one maximising the child's mean for `p` plus `c · sqrt(ln N / n)`, `n` being the
    /// link's visits and `N` the node's.
    fn select(&self, node: usize, p: Player, c: f64, alpha: f64) -> usize {
        let n = &self.nodes[node];
        let (first, len) = (n.first as usize, n.len as usize);
        let sign = if p == Player::One { 1.0 } else { -1.0 };
        let explore = c * f64::from(n.visits.max(1)).ln().sqrt();
        let mut best = first;
        let mut best_score = f64::NEG_INFINITY;
        for (i, l) in self.links[first..first + len].iter().enumerate() {
            if l.visits == 0 {
                return first + i;
            }
            let child = &self.nodes[l.child as usize];
            let q = if alpha > 0.0 && !child.implicit.is_nan() {
                (1.0 - alpha) * child.mean() + alpha * f64::from(child.implicit)
            } else {
                child.mean()
            };
            let score = sign * q + explore * (1.0 / f64::from(l.visits)).sqrt();
            if score > best_score {
                best = first + i;
                best_score = score;
            }
        }
        best
    }

    /// A link of a chance node, drawn by the outcomes' weights.
    fn sample(&self, node: usize, rng: &mut GameRng) -> usize {
        let n = &self.nodes[node];
        let (first, len) = (n.first as usize, n.len as usize);
        first
            + pick_weighted(
                rng,
                self.links[first..first + len].iter().map(|l| match l.edge {
                    Edge::Chance(_, w) => w,
                    _ => 0,
                }),
            )
    }

    /// The root's links with their visits and the result sum they stand for: the child's sum
    /// if every visit of the child came through the link (always so without transpositions),
    /// else the link's visits times the child's mean.
    fn root_links(&self) -> impl Iterator<Item = (Edge<S::Move, S::Chance>, u64, f64)> + '_ {
        let root = &self.nodes[self.root as usize];
        let (first, len) = (root.first as usize, root.len as usize);
        self.links[first..first + len].iter().map(|l| {
            let sum = match l.child {
                NO_NODE => 0.0,
                c => {
                    let child = &self.nodes[c as usize];
                    if child.visits == l.visits {
                        child.sum
                    } else {
                        f64::from(l.visits) * child.mean()
                    }
                }
            };
            (l.edge, u64::from(l.visits), sum)
        })
    }
}

/// Searches `state` with `options`, using (and keeping for reuse) `trees`; `None` if it is not
/// a player's turn.
fn run_search<S: Evaluate>(
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
    let (total, deadline) = match options.budget {
        Budget::Time(ms) => (u64::MAX, Some(Instant::now() + Duration::from_millis(ms))),
        budget => (budget.iterations().unwrap_or(u64::MAX), None),
    };
    let share = |t: usize| match deadline {
        Some(_) => u64::MAX,
        None => total / threads as u64 + u64::from((t as u64) < total % threads as u64),
    };
    let max_links = (MAX_LINKS / threads).max(1024);
    let graph = (options.tree == TreeShape::Turns)
        .then(|| TurnGraph::new(state, TURN_STATES))
        .filter(|g| g.is_complete());
    let root_turn = graph.as_ref().map(|g| RootTurn {
        lines: g.end_lines(),
        priors: S::evaluate_all(g.ends(), Player::One, options.eval),
    });
    // Read here, on the caller's thread, and carried into the search threads.
    let cancel = cancel::current();
    let work = |(t, tree): (usize, &mut Tree<S>)| {
        tree.search(
            state,
            options,
            derive_seed(seed, t as u64),
            (share(t), deadline, max_links),
            root_turn.as_ref(),
            cancel.as_ref(),
        );
    };
    if threads == 1 {
        work((0, &mut trees[0]));
    } else {
        trees[..threads].par_iter_mut().enumerate().for_each(work);
    }

    let (mut iterations, mut nodes) = (0, 0);
    for tree in &trees[..threads] {
        iterations += tree.iterations;
        nodes += tree.nodes.len() as u64;
    }
    let sign = if mover == Player::One { 1.0 } else { -1.0 };
    if let (Some(graph), Some(turn)) = (&graph, &root_turn) {
        return Some(rank_turn_ends(
            trees, threads, graph, turn, sign, seed, iterations, nodes,
        ));
    }
    let mut legal = Vec::new();
    state.legal_moves(&mut legal);
    let mut visits = vec![0u64; legal.len()];
    let mut sums = vec![0f64; legal.len()];
    for tree in &trees[..threads] {
        for (edge, n, sum) in tree.root_links() {
            if let Edge::Move(m) = edge
                && let Ok(i) = legal.binary_search(&m)
            {
                visits[i] += n;
                sums[i] += sum;
            }
        }
    }
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
    let moves: Vec<MoveStats<S::Move>> = ranked.into_iter().map(|r| r.0).collect();
    Some(SearchResult {
        line: vec![moves[0].mv],
        moves,
        iterations,
        nodes,
    })
}

/// The result of a search whose root children are the ends of the root's turn: the end with
/// the most visits over all trees (then the higher value, then the seed's order) is chosen and
/// its line of decisions played. Each legal move gets the best value of an end reachable
/// through it and the visits of the ends whose line starts with it; the chosen line's first
/// move comes first, the others follow by value.
#[allow(clippy::too_many_arguments)]
fn rank_turn_ends<S: Evaluate>(
    trees: &[Tree<S>],
    threads: usize,
    graph: &TurnGraph<S>,
    turn: &RootTurn<S::Move>,
    sign: f64,
    seed: u64,
    iterations: u64,
    nodes: u64,
) -> SearchResult<S::Move> {
    let n = turn.lines.len();
    let mut visits = vec![0u64; n];
    let mut sums = vec![0f64; n];
    for tree in &trees[..threads] {
        for (edge, n, sum) in tree.root_links() {
            if let Edge::Turn { end, .. } = edge {
                visits[end as usize] += n;
                sums[end as usize] += sum;
            }
        }
    }
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
    SearchResult {
        moves,
        line,
        iterations,
        nodes,
    }
}

/// The `mcts` player: Monte Carlo tree search with the options of an [`MctsOptions`].
///
/// Each search draws its seed from the agent's generator, so a game is reproducible from the
/// agent's seed (with an iteration budget).
pub struct MctsAgent<S: Evaluate> {
    options: MctsOptions,
    defaults: MctsOptions,
    seed: u64,
    rng: GameRng,
    trees: Vec<Tree<S>>,
    /// The rest of the turn chosen by the last search (`tree=turns`): each decision with the
    /// state it is to be played in.
    plan: Vec<(S, S::Move)>,
}

impl<S: Evaluate> MctsAgent<S> {
    /// A player with `options`, seeded with `seed`.
    pub fn new(options: MctsOptions, seed: u64) -> Self {
        Self::with_defaults(options, MctsOptions::default(), seed)
    }

    /// A player with `options`, seeded with `seed`, whose spec lists the options that differ
    /// from `defaults` (the game's, from which `options` were read).
    pub fn with_defaults(options: MctsOptions, defaults: MctsOptions, seed: u64) -> Self {
        MctsAgent {
            options,
            defaults,
            seed,
            rng: rng_from_seed(seed),
            trees: Vec::new(),
            plan: Vec::new(),
        }
    }

    /// The player's options.
    pub fn options(&self) -> &MctsOptions {
        &self.options
    }

    /// Searches `state` and returns every legal move with its visits and value, best first;
    /// `None` if it is not a player's turn. Every call draws a new seed from the agent's
    /// generator.
    pub fn search(&mut self, state: &S) -> Option<SearchResult<S::Move>> {
        state.turn().player()?;
        let seed = self.rng.next_u64();
        run_search(&mut self.trees, state, &self.options, seed)
    }

    /// The decisions still planned (`tree=turns`): the rest of the turn the last search chose,
    /// which [`choose`](Agent::choose) plays without searching as long as the game follows it.
    pub fn planned(&self) -> impl ExactSizeIterator<Item = S::Move> + '_ {
        self.plan.iter().map(|&(_, m)| m)
    }
}

impl<S: Evaluate> Agent<S> for MctsAgent<S> {
    fn spec(&self) -> String {
        self.options.spec_over(self.seed, &self.defaults)
    }

    /// With `tree=turns` the rest of the turn the search chose is played without searching
    /// again, as long as the game follows it.
    fn choose(&mut self, state: &S) -> S::Move {
        if self.plan.first().is_some_and(|(s, _)| s == state) {
            return self.plan.remove(0).1;
        }
        self.plan.clear();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if let [only] = moves[..] {
            return only;
        }
        let result = self
            .search(state)
            .expect("choose is called at a player's turn");
        let mut s = state.clone();
        s.play_unchecked(result.line[0]);
        for &m in &result.line[1..] {
            self.plan.push((s.clone(), m));
            s.play_unchecked(m);
        }
        result.best()
    }

    fn evaluate(&mut self, state: &S) -> Option<Evaluation<S::Move>> {
        let result = self.search(state)?;
        Some(Evaluation {
            kind: ValueKind::Estimate,
            moves: result.moves.iter().map(|m| (m.mv, m.value)).collect(),
        })
    }
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
