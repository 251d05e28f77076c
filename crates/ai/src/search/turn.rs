//! A player's whole turn: every sequence of his decisions, merged into the distinct states at
//! which the turn passes on.
//!
//! In the Tâb family one turn is several decisions (each pending throw is played on a unit, in
//! any order; a tâb may be banked; the move phase may end), and different orders often reach
//! the same position. [`TurnGraph`] expands the decisions of the player to move breadth first
//! until each line leaves him: the next turn is chance's (a throw), the other player's, or the
//! game is over. Identical states reached by different orders are merged (found by their
//! 128-bit fingerprints, histories included, as the search's transposition table finds them),
//! so each distinct end of the turn appears once, and the
//! decisions form a directed acyclic graph (every decision adds an action to the state, so a
//! state never comes back within a turn).
//!
//! The enumeration stops once it holds more than a cap of distinct states; the graph is then
//! *incomplete* and the players fall back to [`greedy_line`], which plays the turn one
//! decision at a time.

use std::collections::HashMap;

use qasab_core::{GameState, Player, Turn};

use crate::eval::{EvalWeights, Evaluate};
use crate::search::hash::{BuildPassHasher, fingerprint};

/// The default cap on the distinct states of one turn's enumeration.
pub const TURN_STATES: usize = 4096;

/// The states a turn's enumeration makes room for at first.
const GUESS: usize = 256;

/// Values closer than this are equal when choosing among moves.
pub(crate) const TIE: f64 = 1e-12;

/// Every decision sequence of one player's turn, merged by state ([module docs](self)).
#[derive(Clone, Debug)]
pub struct TurnGraph<S: GameState> {
    player: Player,
    /// The states: the root first, parents before children.
    states: Vec<S>,
    /// Every state's decisions, (move, child index), in move order, the states' one after
    /// the other: one list for the graph rather than one allocation a state.
    edges: Vec<(S::Move, u32)>,
    /// Where each state's decisions start in `edges`, and after the last state where they end.
    first: Vec<u32>,
    /// The indices of the states where the turn has passed on, in the order found.
    ends: Vec<u32>,
    /// Each state's position in `ends`, or `u32::MAX`.
    end_of: Vec<u32>,
    /// Each state's index by its fingerprint (kept between expansions for its room).
    index: HashMap<u128, u32, BuildPassHasher>,
    /// The legal moves of the state being expanded (kept for its room).
    moves: Vec<S::Move>,
    complete: bool,
}

impl<S: GameState> TurnGraph<S> {
    /// Expands the turn of the player to move in `root`, keeping at most `cap` distinct states
    /// (root included); beyond that the graph is incomplete ([`TurnGraph::is_complete`]).
    ///
    /// # Panics
    /// If it is not a player's turn in `root`.
    pub fn new(root: &S, cap: usize) -> Self {
        // Room for a typical turn from the start: growing a vector of large states copies
        // them all each time it doubles.
        let room = cap.min(GUESS);
        let mut g = TurnGraph {
            player: Player::One,
            states: Vec::with_capacity(room),
            edges: Vec::new(),
            first: Vec::with_capacity(room + 1),
            ends: Vec::new(),
            end_of: Vec::with_capacity(room),
            index: HashMap::with_capacity_and_hasher(room, BuildPassHasher::default()),
            moves: Vec::new(),
            complete: true,
        };
        g.rebuild(root, cap);
        g
    }

    /// Expands the turn of the player to move in `root` into this graph, as
    /// [`TurnGraph::new`] would, keeping the room its lists have grown to: a caller that
    /// expands many turns copies and allocates less.
    ///
    /// # Panics
    /// If it is not a player's turn in `root`.
    pub fn rebuild(&mut self, root: &S, cap: usize) {
        let g = self;
        g.player = root.turn().player().expect("a player's turn");
        g.states.clear();
        g.edges.clear();
        g.first.clear();
        g.ends.clear();
        g.end_of.clear();
        g.index.clear();
        g.complete = true;
        g.states.push(root.clone());
        g.end_of.push(u32::MAX);
        // Each state's fingerprint leads to it (two different states share one with odds
        // about 2⁻¹²⁸). The states are stored once, in `states`.
        g.index.insert(fingerprint(root), 0);
        let mut moves = std::mem::take(&mut g.moves);
        let mut next = 0;
        while next < g.states.len() {
            let i = next;
            next += 1;
            // States are expanded in order, so each one's decisions follow the last one's.
            g.first.push(g.edges.len() as u32);
            if g.end_of[i] != u32::MAX {
                continue;
            }
            g.states[i].legal_moves(&mut moves);
            for &m in &moves {
                // The child is played where it would be kept, after the last state, and
                // dropped if it is there already: one copy of the state a decision.
                let j = g.states.len();
                g.states.extend_from_within(i..=i);
                g.states[j].play_unchecked(m);
                let child = &g.states[j];
                let h = fingerprint(child);
                let j = if let Some(&found) = g.index.get(&h) {
                    g.states.pop();
                    found
                } else {
                    if j >= cap {
                        // The state being expanded keeps none of its decisions.
                        g.states.pop();
                        g.complete = false;
                        g.edges.truncate(g.first[i] as usize);
                        g.close();
                        g.moves = moves;
                        return;
                    }
                    let end = child.turn() != Turn::Player(g.player);
                    let j = j as u32;
                    g.end_of
                        .push(if end { g.ends.len() as u32 } else { u32::MAX });
                    if end {
                        g.ends.push(j);
                    }
                    g.index.insert(h, j);
                    j
                };
                g.edges.push((m, j));
            }
        }
        g.close();
        g.moves = moves;
    }

    /// Gives the states not expanded (past the cap) no decisions and ends `first`.
    fn close(&mut self) {
        let end = self.edges.len() as u32;
        self.first.resize(self.states.len() + 1, end);
    }

    /// The decisions of state `i`.
    fn out(&self, i: usize) -> &[(S::Move, u32)] {
        &self.edges[self.first[i] as usize..self.first[i + 1] as usize]
    }

    /// The player whose turn it is.
    pub fn player(&self) -> Player {
        self.player
    }

    /// False if the enumeration hit its cap: the graph then holds only part of the turn.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The number of distinct states held, root and ends included.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Always false: the graph holds at least its root.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The distinct states at which the turn has passed on, in the order found.
    pub fn ends(&self) -> impl ExactSizeIterator<Item = &S> + '_ {
        self.ends.iter().map(|&i| &self.states[i as usize])
    }

    /// The number of distinct end states.
    pub fn end_count(&self) -> usize {
        self.ends.len()
    }

    /// For each end, in [`TurnGraph::ends`] order, one sequence of decisions from the root that
    /// reaches it (the first found breadth first, so a shortest one).
    pub fn end_lines(&self) -> Vec<Vec<S::Move>> {
        let mut pred: Vec<Option<(u32, S::Move)>> = vec![None; self.states.len()];
        for i in 0..self.states.len() {
            for &(m, j) in self.out(i) {
                if j != 0 && pred[j as usize].is_none() {
                    pred[j as usize] = Some((i as u32, m));
                }
            }
        }
        self.ends
            .iter()
            .map(|&e| {
                let mut line = Vec::new();
                let mut j = e;
                while let Some((i, m)) = pred[j as usize] {
                    line.push(m);
                    j = i;
                }
                line.reverse();
                line
            })
            .collect()
    }

    /// For each state, the best value of an end reachable from it and the decision towards it
    /// (the first in move order among equals), given `end_values` in [`TurnGraph::ends`] order
    /// and whether the player maximises.
    fn backward(&self, end_values: &[f64], maximise: bool) -> Vec<(f64, u32)> {
        let mut best = vec![(f64::NAN, u32::MAX); self.states.len()];
        for i in (0..self.states.len()).rev() {
            if self.end_of[i] != u32::MAX {
                best[i] = (end_values[self.end_of[i] as usize], u32::MAX);
                continue;
            }
            for (k, &(_, j)) in self.out(i).iter().enumerate() {
                let v = best[j as usize].0;
                let better = if maximise {
                    v > best[i].0
                } else {
                    v < best[i].0
                };
                if best[i].1 == u32::MAX || better {
                    best[i] = (v, k as u32);
                }
            }
        }
        best
    }

    /// Each legal move at the root with the best value (for the player, who maximises) of an
    /// end reachable through it, in move order; `end_values` are in [`TurnGraph::ends`] order.
    ///
    /// # Panics
    /// If the graph is incomplete or `end_values` is not one value per end.
    pub fn root_values(&self, end_values: &[f64]) -> Vec<(S::Move, f64)> {
        assert!(self.complete && end_values.len() == self.ends.len());
        let best = self.backward(end_values, true);
        self.out(0)
            .iter()
            .map(|&(m, j)| (m, best[j as usize].0))
            .collect()
    }

    /// The decisions from the root that start with the root move `first` and then follow the
    /// best values to an end: each with the state it is played in.
    ///
    /// # Panics
    /// As [`TurnGraph::root_values`], or if `first` is not a legal move at the root.
    pub fn best_line(&self, end_values: &[f64], first: S::Move) -> Vec<(S, S::Move)> {
        assert!(self.complete && end_values.len() == self.ends.len());
        let best = self.backward(end_values, true);
        let &(_, mut j) = self
            .out(0)
            .iter()
            .find(|(m, _)| *m == first)
            .expect("a legal root move");
        let mut line = vec![(self.states[0].clone(), first)];
        while self.end_of[j as usize] == u32::MAX {
            let k = best[j as usize].1 as usize;
            let (m, c) = self.out(j as usize)[k];
            line.push((self.states[j as usize].clone(), m));
            j = c;
        }
        line
    }
}

/// Turn graphs kept for their room: a caller that expands many turns (self-play expands five
/// a throw) takes a graph from here and gives it back when done with it, so that its states
/// are not copied again each time a fresh graph grows. The pool keeps its graphs' memory until
/// it is dropped: on Tâb up to about 10 MB a graph (a turn of [`TURN_STATES`] states).
#[derive(Debug)]
pub struct GraphPool<S: GameState>(Vec<TurnGraph<S>>);

impl<S: GameState> Default for GraphPool<S> {
    fn default() -> Self {
        GraphPool(Vec::new())
    }
}

impl<S: GameState> GraphPool<S> {
    /// The turn of the player to move in `root`, as [`TurnGraph::new`] expands it, in a graph
    /// from the pool when there is one.
    ///
    /// # Panics
    /// If it is not a player's turn in `root`.
    pub fn expand(&mut self, root: &S, cap: usize) -> TurnGraph<S> {
        match self.0.pop() {
            Some(mut g) => {
                g.rebuild(root, cap);
                g
            }
            None => TurnGraph::new(root, cap),
        }
    }

    /// Keeps `graph` for a later [`GraphPool::expand`].
    pub fn give(&mut self, graph: TurnGraph<S>) {
        self.0.push(graph);
    }
}

/// Plays the turn of the player to move in `state` one decision at a time, each time taking
/// the decision whose resulting state evaluates best for him with `eval` (the first in move
/// order among equals), until the turn passes on. Returns the decisions with the states they
/// are played in, and the state reached. The cheap rule for turns too large to enumerate.
pub fn greedy_line<S: Evaluate>(state: &S, eval: EvalWeights) -> (Vec<(S, S::Move)>, S) {
    let player = state.turn().player().expect("a player's turn");
    let mut s = state.clone();
    let mut line = Vec::new();
    let mut moves = Vec::new();
    while s.turn() == Turn::Player(player) {
        s.legal_moves(&mut moves);
        let mut children = children(&s, &moves);
        let values = S::evaluate_all(&children, player, eval);
        let mut best: Option<usize> = None;
        for (k, &v) in values.iter().enumerate() {
            if best.is_none_or(|b| v > values[b]) {
                best = Some(k);
            }
        }
        let k = best.expect("a legal move at a player's turn");
        line.push((s, moves[k]));
        s = children.swap_remove(k);
    }
    (line, s)
}

/// The state each of `moves` leads to from `state`, in order.
pub(crate) fn children<S: GameState>(state: &S, moves: &[S::Move]) -> Vec<S> {
    moves
        .iter()
        .map(|&m| {
            let mut c = state.clone();
            c.play_unchecked(m);
            c
        })
        .collect()
}

// ----- choosing among valued moves (the turn players share these) -----

/// Each legal move with the value of the state it leads to, for the player to move: the
/// one-decision rule used when a turn is too large to enumerate.
pub(crate) fn one_step_values<S: Evaluate>(state: &S, eval: EvalWeights) -> Vec<(S::Move, f64)> {
    one_step_with(state, |children, player| {
        S::evaluate_all(children, player, eval)
    })
}

/// Each legal move with the value of the state it leads to: `values(states, player to
/// move)` values those states together, one value each, in order.
pub(crate) fn one_step_with<S: GameState>(
    state: &S,
    values: impl FnOnce(&[S], Player) -> Vec<f64>,
) -> Vec<(S::Move, f64)> {
    let player = state.turn().player().expect("a player's turn");
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let values = values(&children(state, &moves), player);
    assert_eq!(values.len(), moves.len(), "one value per move");
    moves.into_iter().zip(values).collect()
}

/// The moves within [`TIE`] of the best value, in the order given.
pub(crate) fn best_moves<M: Copy>(values: &[(M, f64)]) -> Vec<M> {
    let best = values
        .iter()
        .map(|&(_, v)| v)
        .fold(f64::NEG_INFINITY, f64::max);
    values
        .iter()
        .filter(|&&(_, v)| v >= best - TIE)
        .map(|&(m, _)| m)
        .collect()
}

/// Sorts move values best first, keeping the move order among equals.
pub(crate) fn best_first<M>(mut values: Vec<(M, f64)>) -> Vec<(M, f64)> {
    values.sort_by(|a, b| b.1.total_cmp(&a.1));
    values
}

/// Takes the next decision of `plan` if `state` is the state it was planned in.
pub(crate) fn follow<S: GameState>(plan: &mut Vec<(S, S::Move)>, state: &S) -> Option<S::Move> {
    if plan.first().is_some_and(|(s, _)| s == state) {
        return Some(plan.remove(0).1);
    }
    plan.clear();
    None
}
