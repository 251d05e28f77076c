//! The search graph: nodes and the links between them, kept in two arenas and addressed by
//! index, with their allocation: a node's links all at once when it is expanded, a link's child
//! the first time the link is followed (shared through the transposition table when it holds
//! the same state).

use std::collections::HashMap;

use qasab_core::{Player, Turn, Weighted};

use super::options::{INNER_TURN_STATES, MctsOptions, TreeShape};
use super::rollout::reward;
use crate::eval::Evaluate;
use crate::rng::{GameRng, below};
use crate::search::hash::{BuildPassHasher, fingerprint};
use crate::search::turn::TurnGraph;

/// The root's turn, enumerated once for all trees (`tree=turns`).
pub(super) struct RootTurn<M> {
    /// One line of decisions to each end of the turn.
    pub(super) lines: Vec<Vec<M>>,
    /// Each end's static value for [`Player::One`].
    pub(super) priors: Vec<f64>,
}

/// The action of a link from a node to its child.
#[derive(Copy, Clone, Debug)]
pub(super) enum Edge<M, C> {
    /// A player's move.
    Move(M),
    /// A chance outcome with its weight.
    Chance(C, u32),
    /// A player's whole turn (`tree=turns`): the decisions `lines[start..start + len]` of the
    /// tree, reaching the `end`-th end of the turn's graph.
    Turn { start: u32, len: u32, end: u32 },
}

/// The most static values a graph keeps ([`Tree::values`]): about 40 MB.
pub(super) const MAX_VALUES: usize = 1 << 20;

/// No node yet: a link not yet followed.
pub(super) const NO_NODE: u32 = u32::MAX;

/// A link from a node to one of its children: the action, the child (allocated the first time
/// the link is followed) and the iterations that went through this link.
#[derive(Copy, Clone, Debug)]
pub(super) struct Link<M, C> {
    pub(super) edge: Edge<M, C>,
    pub(super) child: u32,
    pub(super) visits: u32,
}

/// A node of the search graph: one state (with transpositions) or one path (without).
#[derive(Copy, Clone, Debug)]
pub(super) struct Node {
    /// Iterations that passed through the node, by any path.
    pub(super) visits: u32,
    /// The sum of their rewards for [`Player::One`].
    pub(super) sum: f64,
    /// The index of the first link to a child.
    pub(super) first: u32,
    /// The number of links; 0 until the node is expanded (always 0 at the end of a game).
    pub(super) len: u32,
    /// The last iteration whose path went through the node (1-based), to see a cycle.
    pub(super) stamp: u32,
    /// The implicit minimax value for [`Player::One`] (`minimax` > 0): the static value of a
    /// leaf, backed up by max/min at player nodes and by the weighted mean at chance nodes;
    /// NaN until the node is first evaluated.
    pub(super) implicit: f32,
    /// Who is to move at the node, once visited ([`NodeKind`]).
    pub(super) kind: NodeKind,
}

/// Who is to move at a node, for the implicit minimax backup.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum NodeKind {
    /// Not visited yet, or the game is over there.
    Leaf,
    /// A player chooses: the first (`true`) or the second.
    Player(bool),
    /// A chance outcome is drawn.
    Chance,
}

impl Node {
    pub(super) const NEW: Node = Node {
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
    pub(super) fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.sum * (1.0 / f64::from(self.visits))
        }
    }
}

/// One search graph with its scratch buffers; kept by the agent so that its memory is reused
/// from move to move.
pub(super) struct Tree<S: Evaluate> {
    pub(super) nodes: Vec<Node>,
    pub(super) links: Vec<Link<S::Move, S::Chance>>,
    /// With transpositions: the node of each state met, by its fingerprint.
    pub(super) table: HashMap<u128, u32, BuildPassHasher>,
    /// The static values of the leaves valued so far (`cutoff=0`), by their states'
    /// fingerprints: the same state, reached again by another order of the same decisions, is
    /// not valued again (the value is the same; see [`Tree::static_value`]).
    pub(super) values: HashMap<u128, f64, BuildPassHasher>,
    /// The most values [`Tree::values`] keeps before it is cleared (0: none kept).
    pub(super) values_cap: usize,
    /// The last node made by [`Tree::node_for`] with the fingerprint of its state, where the
    /// graph keeps a table of states: the fingerprint is not computed again to value it.
    pub(super) print: (u32, u128),
    /// The decisions of the turn edges ([`Edge::Turn`]), one after another.
    pub(super) lines: Vec<S::Move>,
    /// The nodes and the links of the current iteration's path.
    pub(super) path: Vec<u32>,
    pub(super) walked: Vec<u32>,
    pub(super) moves: Vec<S::Move>,
    pub(super) outs: Vec<Weighted<S::Chance>>,
    /// The children of the node being expanded with priors (`priors=on`), and which of them
    /// are valued now.
    kids: Vec<S>,
    unvalued: Vec<usize>,
    /// The node of the state searched from.
    pub(super) root: u32,
    /// Iterations run since the graph was last cleared: each iteration stamps its path with
    /// its number.
    pub(super) clock: u32,
    /// Iterations run by the last search.
    pub(super) iterations: u64,
}

impl<S: Evaluate> Tree<S> {
    pub(super) fn new() -> Self {
        Tree {
            root: 0,
            clock: 0,
            nodes: Vec::new(),
            links: Vec::new(),
            table: HashMap::default(),
            values: HashMap::default(),
            values_cap: MAX_VALUES,
            print: (NO_NODE, 0),
            lines: Vec::new(),
            path: Vec::new(),
            walked: Vec::new(),
            moves: Vec::new(),
            outs: Vec::new(),
            kids: Vec::new(),
            unvalued: Vec::new(),
            iterations: 0,
        }
    }

    /// The node of `state`, reached for the first time by a link: with transpositions the
    /// node already holding the same state if there is one, else a new node. The table keeps
    /// the first node of each state (for transpositions, and to find a later search's root).
    pub(super) fn node_for(&mut self, state: &S, opts: &MctsOptions) -> u32 {
        let fresh = self.nodes.len() as u32;
        if opts.keys() {
            let print = fingerprint(state);
            let at = *self.table.entry(print).or_insert(fresh);
            if at != fresh && opts.transpositions {
                return at;
            }
            self.print = (fresh, print);
        }
        self.nodes.push(Node::NEW);
        fresh
    }

    /// Gives `node` (whose state is `state`) its links: one per legal move in an order
    /// shuffled by `rng`, or one per chance outcome. Returns false, adding nothing, if that
    /// would pass `max_links`.
    pub(super) fn expand(
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
        if !self.push_links(state, player, rng, max_links, 0) {
            return false;
        }
        let len = self.links.len() - first;
        let n = &mut self.nodes[node];
        n.first = first as u32;
        n.len = len as u32;
        true
    }

    /// Appends the links of `state`'s actions, each with `visits` and no child yet: one per
    /// legal move in an order shuffled by `rng` if a player is to move (`player`), else one per
    /// chance outcome. Returns false, adding nothing, if that would pass `max_links`.
    fn push_links(
        &mut self,
        state: &S,
        player: bool,
        rng: &mut GameRng,
        max_links: usize,
        visits: u32,
    ) -> bool {
        let first = self.links.len();
        let link = |edge| Link {
            edge,
            child: NO_NODE,
            visits,
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
        true
    }

    /// Plays the action of a link's `edge` on `state`.
    pub(super) fn play(&self, edge: Edge<S::Move, S::Chance>, state: &mut S) {
        match edge {
            Edge::Move(m) => state.play_unchecked(m),
            Edge::Chance(c, _) => state.apply_chance_unchecked(c),
            Edge::Turn { start, len, .. } => {
                for &m in &self.lines[start as usize..(start + len) as usize] {
                    state.play_unchecked(m);
                }
            }
        }
    }

    /// Expands `node` (whose state is `state`, `mover` who is to move there, if a player)
    /// with priors (`priors=on`): one link per legal move in an order shuffled by `rng`, or
    /// per chance outcome, each to its child's node (with transpositions the node already
    /// holding the child's state if there is one) with one visit; a child's node not valued
    /// yet is valued now, all together ([`Evaluate::evaluate_all`]), and starts with one visit
    /// worth its value. Returns the node's value one action deeper for [`Player::One`]: the
    /// best child's mean for the player to move, or the outcomes' means weighted; `None`,
    /// adding nothing, if the links would pass `max_links`.
    pub(super) fn expand_valued(
        &mut self,
        node: usize,
        state: &S,
        mover: Option<Player>,
        opts: &MctsOptions,
        rng: &mut GameRng,
        max_links: usize,
    ) -> Option<f64> {
        let first = self.links.len();
        if !self.push_links(state, mover.is_some(), rng, max_links, 1) || self.links.len() == first
        {
            return None;
        }
        self.kids.clear();
        for l in first..self.links.len() {
            let mut kid = state.clone();
            self.play(self.links[l].edge, &mut kid);
            self.kids.push(kid);
        }
        self.unvalued.clear();
        let kids = std::mem::take(&mut self.kids);
        for (k, kid) in kids.iter().enumerate() {
            let child = self.node_for(kid, opts);
            self.links[first + k].child = child;
            if self.nodes[child as usize].visits == 0 {
                self.unvalued.push(k);
            }
        }
        // No node made here ends this iteration's path.
        self.print = (NO_NODE, 0);
        let values = S::evaluate_all(
            self.unvalued
                .iter()
                .map(|&k| &kids[k])
                .filter(|kid| !matches!(kid.turn(), Turn::Over(_))),
            Player::One,
            opts.eval,
        );
        let mut values = values.into_iter();
        for &k in &self.unvalued {
            let value = match kids[k].turn() {
                Turn::Over(o) => reward(&o, opts.margin),
                _ => values.next().expect("a value for each unfinished child"),
            };
            let child = &mut self.nodes[self.links[first + k].child as usize];
            if child.visits == 0 {
                child.visits = 1;
                child.sum = value;
                child.implicit = value as f32;
            }
        }
        self.kids = kids;
        let len = self.links.len() - first;
        let n = &mut self.nodes[node];
        n.first = first as u32;
        n.len = len as u32;
        let links = &self.links[first..first + len];
        let mean = |l: &Link<S::Move, S::Chance>| self.nodes[l.child as usize].mean();
        Some(match mover {
            Some(p) => {
                let sign = if p == Player::One { 1.0 } else { -1.0 };
                sign * links
                    .iter()
                    .map(|l| sign * mean(l))
                    .fold(f64::NEG_INFINITY, f64::max)
            }
            None => {
                let (mut sum, mut weights) = (0.0, 0u64);
                for l in links {
                    if let Edge::Chance(_, w) = l.edge {
                        sum += f64::from(w) * mean(l);
                        weights += u64::from(w);
                    }
                }
                sum / weights as f64
            }
        })
    }

    /// Gives `node` one child per end of a turn, in an order shuffled by `rng`: the decisions
    /// `lines[k]` reach the `k`-th end, whose static value for [`Player::One`] is `priors[k]`;
    /// each child is a new node (not shared through the table) and starts with one visit worth
    /// its prior.
    pub(super) fn add_turn_children(
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

    /// The root's links with their visits and the result sum they stand for: the child's sum
    /// if every visit of the child came through the link (always so without transpositions),
    /// else the link's visits times the child's mean.
    pub(super) fn root_links(
        &self,
    ) -> impl Iterator<Item = (Edge<S::Move, S::Chance>, u64, f64)> + '_ {
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
