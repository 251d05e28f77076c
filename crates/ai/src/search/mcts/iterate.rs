//! The growth of one tree: a search is a run of iterations, each of which selects a leaf by
//! descending from the root, expands it, evaluates it (by the game's result or a rollout) and
//! backs the value up the path it took.

use std::time::Instant;

use qasab_core::{Player, Turn};

use super::options::MctsOptions;
use super::rollout::{leaf_result, reward};
use super::tree::{Edge, NO_NODE, Node, NodeKind, RootTurn, Tree};
use crate::cancel::{self, Cancel};
use crate::eval::Evaluate;
use crate::rng::{GameRng, rng_from_seed};
use crate::search::hash::fingerprint;

/// A tree stops after this many iterations whatever the budget, so that visit counts and result
/// sums fit their 32-bit fields.
const MAX_TREE_ITERATIONS: u64 = i32::MAX as u64;

/// Iterations between two looks at the clock under a time budget.
const CLOCK_EVERY: u64 = 8;

/// Where the descent of an iteration stopped.
enum Stop {
    /// At a finished game, worth this reward for [`Player::One`].
    Over(f64),
    /// At the last node of the path, which the tree does not grow past (not yet visited, or
    /// past the links' limit): it is evaluated by a rollout.
    Leaf,
    /// At a state already on the path (a cycle): the path's last node is evaluated by a
    /// rollout from it, without a static value of its own.
    Repeat,
    /// At the node just expanded with priors (`priors=on`), worth this value one action
    /// deeper for [`Player::One`].
    Expanded(f64),
}

impl<S: Evaluate> Tree<S> {
    /// Searches from `root` for `iterations` iterations or until `deadline`, whichever comes
    /// first (at least one iteration), with at most `max_links` links; the root's children are
    /// the ends of `root_turn` if given.
    ///
    /// With `reuse`, a graph kept from an earlier search that holds `root`'s state is searched
    /// on from that state's node, its statistics kept; otherwise (or once the graph holds half
    /// of `max_links`) the search starts afresh.
    pub(super) fn search(
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
            None => self.restart(root, opts, root_turn, &mut rng),
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

    /// Clears the graph down to a new root node for `root`, whose children are the ends of
    /// `root_turn` if given.
    fn restart(
        &mut self,
        root: &S,
        opts: &MctsOptions,
        root_turn: Option<&RootTurn<S::Move>>,
        rng: &mut GameRng,
    ) {
        self.nodes.clear();
        self.links.clear();
        self.lines.clear();
        self.table.clear();
        self.values.clear();
        self.nodes.push(Node::NEW);
        self.root = 0;
        self.clock = 0;
        if opts.keys() {
            self.table.insert(fingerprint(root), 0);
        }
        if let Some(turn) = root_turn {
            self.add_turn_children(0, &turn.lines, &turn.priors, rng);
        }
    }

    /// One iteration, stamped with the clock: select a leaf (expanding the nodes on the way
    /// that are due), evaluate it, back the value up.
    fn iterate(&mut self, root: &S, opts: &MctsOptions, rng: &mut GameRng, max_links: usize) {
        let mut state = root.clone();
        // A node made in this iteration ends its descent: only its fingerprint may be reused.
        self.print = (NO_NODE, 0);
        let stop = self.select_leaf(&mut state, opts, rng, max_links);
        let expanded = matches!(stop, Stop::Expanded(_));
        let (result, leaf_value) = self.evaluate(&mut state, stop, opts, rng);
        self.back_up(result, leaf_value, opts, expanded);
    }

    /// Descends from the root, playing the links' actions on `state` and noting the path's
    /// nodes and links: at a player's node by [`select`](Tree::select), at a chance node by
    /// [`sample`](Tree::sample). A node without links is expanded on the way if it has been
    /// visited before (the root always); the descent stops at a finished game, at a node that
    /// is not expanded, or at a state already on the path.
    fn select_leaf(
        &mut self,
        state: &mut S,
        opts: &MctsOptions,
        rng: &mut GameRng,
        max_links: usize,
    ) -> Stop {
        let stamp = self.clock;
        self.path.clear();
        self.walked.clear();
        let mut node = self.root as usize;
        loop {
            self.path.push(node as u32);
            self.nodes[node].stamp = stamp;
            let mover = match state.turn() {
                Turn::Over(o) => return Stop::Over(reward(&o, opts.margin)),
                Turn::Chance => None,
                Turn::Player(p) => Some(p),
            };
            self.nodes[node].kind = match mover {
                Some(p) => NodeKind::Player(p == Player::One),
                None => NodeKind::Chance,
            };
            if self.nodes[node].len == 0 {
                if opts.priors {
                    // Every node but the root was made valued: expand it at once.
                    return match self.expand_valued(node, state, mover, opts, rng, max_links) {
                        Some(value) => Stop::Expanded(value),
                        None => Stop::Leaf,
                    };
                }
                if !self.expand_due(node, state, mover, opts, rng, max_links) {
                    return Stop::Leaf;
                }
            }
            let link = match mover {
                Some(p) => self.select(node, p, opts.c, opts.minimax),
                None => self.sample(node, rng),
            };
            let child = self.follow(link, state, opts);
            if self.nodes[child as usize].stamp == stamp {
                // The state repeats on this path: evaluate it here rather than loop.
                return Stop::Repeat;
            }
            node = child as usize;
        }
    }

    /// Expands `node` (without links yet, `state` its state, `mover` who is to move there) if
    /// it is due: on its second visit, or at once for the root. Returns whether it now has
    /// links.
    fn expand_due(
        &mut self,
        node: usize,
        state: &S,
        mover: Option<Player>,
        opts: &MctsOptions,
        rng: &mut GameRng,
        max_links: usize,
    ) -> bool {
        (self.nodes[node].visits > 0 || node == self.root as usize)
            && self.expand(node, state, mover.is_some(), opts, rng, max_links)
    }

    /// Follows `link`: plays its action on `state`, adds it to the path and returns its child,
    /// allocated (or found in the table) the first time.
    fn follow(&mut self, link: usize, state: &mut S, opts: &MctsOptions) -> u32 {
        self.play(self.links[link].edge, state);
        self.walked.push(link as u32);
        let mut child = self.links[link].child;
        if child == NO_NODE {
            child = self.node_for(state, opts);
            self.links[link].child = child;
        }
        child
    }

    /// The value for [`Player::One`] of where the descent stopped, with the leaf's static value
    /// where the implicit minimax values need it (`minimax` > 0) and it is not the result
    /// itself.
    fn evaluate(
        &mut self,
        state: &mut S,
        stop: Stop,
        opts: &MctsOptions,
        rng: &mut GameRng,
    ) -> (f64, Option<f64>) {
        if opts.cutoff == Some(0)
            && !opts.transpositions
            && !matches!(stop, Stop::Over(_) | Stop::Expanded(_))
        {
            return (self.static_value(state, opts), None);
        }
        let (moves, outs) = (&mut self.moves, &mut self.outs);
        match stop {
            Stop::Over(result) => (result, None),
            Stop::Leaf => {
                let last = *self.path.last().expect("a path holds the root") as usize;
                let leaf_value = (opts.minimax > 0.0
                    && opts.cutoff != Some(0)
                    && self.nodes[last].implicit.is_nan())
                .then(|| state.evaluate_with(Player::One, opts.eval));
                let result = leaf_result(state, opts, rng, moves, outs, leaf_value);
                (result, leaf_value)
            }
            Stop::Repeat => (leaf_result(state, opts, rng, moves, outs, None), None),
            Stop::Expanded(value) => (value, None),
        }
    }

    /// The value for [`Player::One`] of the leaf `state` under `cutoff=0`, the reward of a
    /// finished game or the static evaluation, as [`leaf_result`] gives it (no rollout, no
    /// random draw): taken from [`Tree::values`] if the state has been valued before in this
    /// graph. Without transpositions the same state is often a leaf of several paths (the
    /// orders of one turn's decisions); a default search of `tab` values nearly half of its
    /// leaves again. (With them, a state is one node, valued once.) The evaluation is a
    /// function of the state, so the search's choices are the same, in less time. The table is
    /// cleared with the graph, and when it holds [`Tree::values_cap`] states.
    fn static_value(&mut self, state: &mut S, opts: &MctsOptions) -> f64 {
        if let Turn::Over(o) = state.turn() {
            return reward(&o, opts.margin);
        }
        let leaf = *self.path.last().expect("a path holds the root");
        let key = match self.print {
            (node, print) if node == leaf => print,
            _ => fingerprint(&*state),
        };
        if let Some(&v) = self.values.get(&key) {
            return v;
        }
        let v = state.evaluate_with(Player::One, opts.eval);
        if self.values.len() >= self.values_cap {
            self.values.clear();
        }
        if self.values_cap > 0 {
            self.values.insert(key, v);
        }
        v
    }

    /// Adds `result` to every node and link of the path, and with `minimax` > 0 backs up the
    /// implicit minimax values from `leaf_value` (or the result where there is none), or if
    /// the path's last node was just `expanded` with priors, from its children's.
    fn back_up(
        &mut self,
        result: f64,
        leaf_value: Option<f64>,
        opts: &MctsOptions,
        expanded: bool,
    ) {
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.sum += result;
        }
        for &i in &self.walked {
            self.links[i as usize].visits += 1;
        }
        if opts.minimax > 0.0 {
            self.back_up_implicit(leaf_value.unwrap_or(result), expanded);
        }
    }

    /// The implicit minimax backup (Lanctot, Winands, Pepels and Sturtevant, 2014): the path's
    /// last node, if it has no value yet, takes `leaf` (its static value, or the result of a
    /// finished game); then every node above takes the best of its children's values for the
    /// player to move, or at a chance node their mean weighted by the outcomes' weights,
    /// over the children that have a value. A last node just `expanded` with priors takes
    /// its value from its children as the nodes above do.
    fn back_up_implicit(&mut self, leaf: f64, expanded: bool) {
        let Some((&last, above)) = self.path.split_last() else {
            return;
        };
        let n = &mut self.nodes[last as usize];
        if n.implicit.is_nan() && !expanded {
            n.implicit = leaf as f32;
        }
        let valued = if expanded { &self.path[..] } else { above };
        for &i in valued.iter().rev() {
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
}

#[cfg(test)]
mod tests {
    use qasab_core::{AnyRuleset, GameState, Ruleset, with_ruleset};

    use super::*;
    use crate::eval::EvalWeights;
    use crate::play::bench::decision_positions;

    /// Grows a tree of 3,000 iterations from `root` with `cutoff=0`, keeping the static values
    /// of its leaves or not, with a table of states (`reuse=on`, whose fingerprints the values
    /// reuse) or not.
    fn grown<S: Evaluate>(root: &S, eval: EvalWeights, keep: bool, reuse: bool) -> Vec<Stats> {
        let opts = MctsOptions {
            cutoff: Some(0),
            minimax: 0.4,
            eval,
            reuse,
            ..MctsOptions::default()
        };
        let mut tree = Tree::new();
        tree.values_cap = if keep {
            super::super::tree::MAX_VALUES
        } else {
            0
        };
        tree.search(root, &opts, 11, (3000, None, 1 << 20), None, None);
        assert_eq!(tree.values.is_empty(), !keep);
        stats(&tree)
    }

    /// The presets of the Tâb family, each with a network.
    const TAB_PRESETS: [&str; 5] = [
        "tab",
        "tab-hyde",
        "tab-modern",
        "tab-ludii",
        "tab-hyde-ludii",
    ];

    /// Four decision positions of seeded random games of `rules`, each with a choice.
    fn positions<R: Ruleset>(rules: &R) -> Vec<R::State> {
        decision_positions(rules, 4, 3)
    }

    /// What a node holds, bit for bit: visits, sum, implicit value.
    type Stats = (u32, u64, u32);

    /// The [`Stats`] of every node of `tree`.
    fn stats<S: Evaluate>(tree: &Tree<S>) -> Vec<Stats> {
        tree.nodes
            .iter()
            .map(|n| (n.visits, n.sum.to_bits(), n.implicit.to_bits()))
            .collect()
    }

    /// Reuse keeps what must be kept and nothing else: an agent's first search, and a search
    /// from a state its graph does not hold, grow the same tree as a fresh search; a search
    /// from a state the graph holds goes on from that state's node with its visits.
    #[test]
    fn reuse_changes_only_what_a_kept_graph_holds() {
        let rules: qasab_core::tab::Ruleset = "tab".parse().unwrap();
        let [a, b, ..] = positions(&rules)[..] else {
            panic!("two positions");
        };
        let opts = |reuse| MctsOptions {
            cutoff: Some(0),
            minimax: 0.4,
            eval: EvalWeights::NET,
            reuse,
            ..MctsOptions::default()
        };
        let budget = (2000, None, 1 << 20);
        let grow = |tree: &mut Tree<_>, root, reuse| {
            tree.search(root, &opts(reuse), 5, budget, None, None);
            stats(tree)
        };
        let fresh = |root| grow(&mut Tree::new(), root, false);
        let mut kept = Tree::new();
        assert_eq!(grow(&mut kept, &a, true), fresh(&a), "a first search");
        assert_eq!(
            grow(&mut kept, &b, true),
            fresh(&b),
            "a state not in the graph"
        );
        // A state the graph holds: the root's child most visited, a decision later.
        let root = &kept.nodes[kept.root as usize];
        let (first, len) = (root.first as usize, root.len as usize);
        let best = kept.links[first..first + len]
            .iter()
            .max_by_key(|l| l.visits)
            .copied()
            .unwrap();
        let (Edge::Move(m), child) = (best.edge, best.child) else {
            panic!("a decision at the root");
        };
        let visits = kept.nodes[child as usize].visits;
        let mut next = b;
        next.play_unchecked(m);
        grow(&mut kept, &next, true);
        assert_eq!(
            kept.root, child,
            "the search goes on from the held state's node"
        );
        assert_eq!(kept.nodes[child as usize].visits, visits + 2000);
    }

    /// With priors every iteration either expands the node it stops at or follows one of its
    /// links, and every node is made valued: an expanded node's visits are its prior's (the
    /// root has none), the iteration's that expanded it, and one for each visit of a link
    /// beyond the link's first. On every Tâb preset, with transpositions and without.
    #[test]
    fn priors_count_each_iteration_once() {
        let mut expanded = 0;
        for text in TAB_PRESETS {
            let any: AnyRuleset = text.parse().unwrap();
            with_ruleset!(&any, r => {
                for s in positions(r).into_iter().take(2) {
                    for transpositions in [false, true] {
                        let opts = MctsOptions {
                            cutoff: Some(0),
                            minimax: 0.4,
                            eval: EvalWeights::NET,
                            priors: true,
                            transpositions,
                            ..MctsOptions::default()
                        };
                        let mut tree = Tree::new();
                        tree.search(&s, &opts, 7, (1500, None, 1 << 20), None, None);
                        assert_eq!(tree.nodes[0].visits, 1500, "{text}");
                        for (i, n) in tree.nodes.iter().enumerate() {
                            assert!(i == 0 || n.visits >= 1, "{text}: every node valued");
                            if n.len == 0 {
                                continue;
                            }
                            expanded += 1;
                            let links = &tree.links[n.first as usize..(n.first + n.len) as usize];
                            assert!(links.iter().all(|l| l.visits >= 1 && l.child != NO_NODE));
                            let beyond: u32 = links.iter().map(|l| l.visits - 1).sum();
                            let own = if i == 0 { 1 } else { 2 };
                            assert_eq!(n.visits, own + beyond, "{text}, node {i}");
                        }
                    }
                }
            });
        }
        // Some positions are decided, and their searches go on to a finished game.
        assert!(expanded > 5000, "{expanded} nodes expanded");
    }

    /// Keeping the leaves' static values changes nothing a search computes: every node of
    /// the tree has the same visits, sums and implicit values, bit for bit, with the shipped
    /// network and with the hand-written evaluation, on every Tâb preset.
    #[test]
    fn kept_static_values_grow_the_same_tree() {
        for text in TAB_PRESETS {
            let any: AnyRuleset = text.parse().unwrap();
            let trees = with_ruleset!(&any, r => {
                let mut trees = 0;
                for s in positions(r) {
                    for eval in [EvalWeights::NET, EvalWeights::Hand] {
                        for reuse in [false, true] {
                            let kept = grown(&s, eval, true, reuse);
                            assert_eq!(kept, grown(&s, eval, false, reuse), "{text}");
                        }
                        trees += 1;
                    }
                }
                trees
            });
            assert_eq!(trees, 8, "{text}");
        }
    }
}
