//! A search tree open to inspection, and single rollouts: what the search computes, exposed so
//! that it can be checked against values known by hand (the toy games of `tests/mcts_toy.rs`)
//! and looked at when a search misbehaves. Playing never needs them.

use super::options::MctsOptions;
use super::rollout::leaf_result;
use super::tree::{Edge, NO_NODE, Node, Tree};
use crate::eval::Evaluate;
use crate::rng::GameRng;

/// One search tree grown from a state without an agent, with read access to its nodes.
///
/// It grows as each tree of a [`search`](super::run::search) does, from `seed` itself, except
/// that the root's children are single decisions even with `tree=turns`; its statistics are
/// those a search ranks the moves by.
pub struct SearchTree<S: Evaluate> {
    tree: Tree<S>,
}

/// What a node of a [`SearchTree`] holds, values for [`Player::One`](qasab_core::Player::One).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct NodeStats {
    /// Iterations that passed through the node, by any path.
    pub visits: u32,
    /// The mean result of those iterations (0 if never visited).
    pub mean: f64,
    /// The implicit minimax value (`minimax` > 0): the expectimax value of the tree explored
    /// below the node; `None` until the node is first evaluated.
    pub implicit: Option<f32>,
    /// The node's links to its children; 0 until it is expanded.
    pub links: u32,
    /// Whether its links are chance outcomes (false until it is expanded).
    pub chance: bool,
}

impl<S: Evaluate> SearchTree<S> {
    /// Grows a tree from `root` with `options` and `seed` for `iterations` iterations, with at
    /// most `max_links` links (past that, leaves are rolled out without being expanded). The
    /// options' budget and threads are not read.
    pub fn grow(
        root: &S,
        options: &MctsOptions,
        seed: u64,
        iterations: u64,
        max_links: usize,
    ) -> Self {
        let mut tree = Tree::new();
        tree.search(
            root,
            options,
            seed,
            (iterations, None, max_links),
            None,
            None,
        );
        SearchTree { tree }
    }

    /// Iterations run.
    pub fn iterations(&self) -> u64 {
        self.tree.iterations
    }

    /// Nodes allocated, the root's included.
    pub fn node_count(&self) -> usize {
        self.tree.nodes.len()
    }

    /// Links allocated.
    pub fn link_count(&self) -> usize {
        self.tree.links.len()
    }

    /// The root's node.
    pub fn root(&self) -> NodeStats {
        self.stats(self.tree.root)
    }

    /// The node the root's move `m` leads to; `None` if the search never followed it (or `m`
    /// is not a child of the root).
    pub fn root_child(&self, m: S::Move) -> Option<NodeStats> {
        let root = &self.tree.nodes[self.tree.root as usize];
        let (first, len) = (root.first as usize, root.len as usize);
        self.tree.links[first..first + len]
            .iter()
            .find(|l| matches!(l.edge, Edge::Move(x) if x == m))
            .filter(|l| l.child != NO_NODE)
            .map(|l| self.stats(l.child))
    }

    /// Every node, in the order allocated (the root first).
    pub fn nodes(&self) -> impl Iterator<Item = NodeStats> + '_ {
        (0..self.tree.nodes.len() as u32).map(|i| self.stats(i))
    }

    fn stats(&self, i: u32) -> NodeStats {
        let n: &Node = &self.tree.nodes[i as usize];
        NodeStats {
            visits: n.visits,
            mean: n.mean(),
            implicit: (!n.implicit.is_nan()).then_some(n.implicit),
            links: n.len,
            chance: n.len > 0 && matches!(self.tree.links[n.first as usize].edge, Edge::Chance(..)),
        }
    }
}

/// Plays one rollout from `state` as the search does from a leaf, with the options' rollout
/// policy, cutoff, evaluation weights, margin and mix, and returns the leaf's value for
/// [`Player::One`](qasab_core::Player::One): the finished game's
/// [`reward`](super::rollout::reward), or the static evaluation where the cutoff stops it,
/// mixed with `state`'s static evaluation where `mix` is below 1.
pub fn rollout_reward<S: Evaluate>(state: &S, options: &MctsOptions, rng: &mut GameRng) -> f64 {
    leaf_result(
        &mut state.clone(),
        options,
        rng,
        &mut Vec::new(),
        &mut Vec::new(),
        None,
    )
}
