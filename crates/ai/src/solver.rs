//! The exact Tihbat solver: retrograde analysis over every (board, side to move) state.
//!
//! # Value
//! The value of a position is the mover's future captures minus the opponent's under perfect
//! play, counting the counters each gains when the game ends (the division at a repetition,
//! the counters kept under `empty=end`). Adding the captures made so far gives the final
//! margin, so a player who maximises the value also maximises his chance to win.
//!
//! # Method
//! Captures only remove counters, so the states split into *levels* by the number of counters
//! on the board. Every move either stays in its level (a quiet move) or captures and drops to a
//! lower level, where the history of positions starts afresh. Levels are solved from the
//! bottom up; within a level the quiet moves form a graph with cycles, and a capture is an
//! *exit* whose value is known from the level below.
//!
//! * `cycle=equal`: a repetition is worth 0 to both sides (each takes half of what is left).
//!   The level is solved exactly by retrograde analysis with thresholds: for θ = M, M−1, …, 1
//!   the set of states whose mover can force at least θ and the set whose mover cannot avoid
//!   −θ or worse are grown by backward propagation (Zermelo's attractor, as in the awari
//!   databases of Romein and Bal); states in neither set are worth 0. Each edge is processed
//!   once for the whole ladder of thresholds.
//!
//!   This is the value of the game as actually played, where the first repetition ends it:
//!   against a player who follows a positional optimal strategy of the level graph, any play
//!   either leaves the level through an exit worth at least the value, or closes a cycle that
//!   the optimal player could not prevent, which is only possible when the value is at most 0,
//!   the worth of the repetition. The same argument holds for `repetition=N`.
//! * `cycle=own-side`: a repetition gives each player the counters on his side, so its worth
//!   depends on where the cycle closes. The level is solved by value iteration started from
//!   that worth ("the game stops here"), iterated to a fixed point; the solver reports an error
//!   if no fixed point is reached.
//!
//! Both are checked against an independent exhaustive search that replays every line of play
//! with its explicit history (`tests/solver_vs_search.rs`), for every position with few
//! counters under every option.
//!
//! # History during a game
//! [`Solver::value`] is the value of a position whose history is empty (the start, or just
//! after a capture). In the middle of a capture-free stretch, positions already seen are
//! different: reaching one again ends the game (once it has been seen `repetition − 1` times).
//! [`Solver::move_values`] therefore re-solves the current level with those positions made
//! terminal, which gives the exact value of every move given the game's real history.

use std::collections::HashMap;
use std::time::Instant;

use qasab_core::tihbat::{CycleSplit, EmptySide, Move, Position, Ruleset, State};
use qasab_core::{ByPlayer, GameState, Player};
use thiserror::Error;

/// A level the solver could not resolve.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolveError {
    /// Value iteration for `cycle=own-side` did not reach a fixed point.
    #[error("{ruleset}: value iteration found no fixed point on the level with {total} counters")]
    NoFixedPoint {
        /// The ruleset.
        ruleset: String,
        /// The level.
        total: u32,
    },
}

/// Binomial tables for ranking boards.
struct Binomials {
    c2: Vec<u64>,
    c3: Vec<u64>,
}

impl Binomials {
    fn new(max: usize) -> Self {
        let c2 = (0..=max as u64 + 3)
            .map(|n| n * n.saturating_sub(1) / 2)
            .collect();
        let c3 = (0..=max as u64 + 3)
            .map(|n| n * n.saturating_sub(1) * n.saturating_sub(2) / 6)
            .collect();
        Binomials { c2, c3 }
    }

    /// Number of boards with `t` counters.
    fn boards(&self, t: u32) -> usize {
        self.c3[t as usize + 3] as usize
    }

    /// Rank of a board among those with the same total, in lexicographic order of (A, B, C).
    #[inline]
    fn rank(&self, pits: [u8; 4]) -> usize {
        let [a, b, c, _] = pits.map(usize::from);
        let t = pits.iter().map(|&x| usize::from(x)).sum::<usize>();
        let t1 = t - a;
        let t2 = t1 - b;
        (self.c3[t + 3] - self.c3[t1 + 3] + self.c2[t1 + 2] - self.c2[t2 + 2]) as usize + c
    }
}

/// Calls `f(rank, board)` for every board with `t` counters, in rank order.
fn for_each_board(t: u8, mut f: impl FnMut(usize, [u8; 4])) {
    let mut rank = 0;
    for a in 0..=t {
        for b in 0..=t - a {
            for c in 0..=t - a - b {
                f(rank, [a, b, c, t - a - b - c]);
                rank += 1;
            }
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Edge {
    /// A quiet move to a state of the same level.
    To(u32),
    /// A move whose value for the mover is known: a capture, or a move into a terminal state.
    Exit(i32),
}

/// The quiet-move graph of one level.
struct Level {
    /// Per state: `Some(v)` if the state is terminal with value `v`.
    fixed: Vec<Option<i32>>,
    /// Per state: the worth of ending the game here by repetition, for the mover.
    rep: Vec<i32>,
    /// CSR offsets into `edges`.
    start: Vec<u32>,
    edges: Vec<Edge>,
}

/// The solved values of every level of a Tihbat ruleset.
pub struct Solver {
    rules: Ruleset,
    bin: Binomials,
    /// Values by level (counters on the board), indexed by `rank * 2 + side`; empty if unsolved.
    values: Vec<Vec<i16>>,
    states: u64,
    seconds: f64,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field("rules", &self.rules.to_string())
            .field("states", &self.states)
            .field("seconds", &self.seconds)
            .finish()
    }
}

#[inline]
fn node(rank: usize, side: Player) -> usize {
    rank * 2 + side.index()
}

impl Solver {
    /// Solves every level a game under `rules` can reach: the start level and the lower ones of
    /// the same parity (captures are even).
    ///
    /// # Errors
    /// [`SolveError`] if a level has no fixed point (`cycle=own-side` only).
    pub fn new(rules: Ruleset) -> Result<Solver, SolveError> {
        Solver::up_to(rules, rules.total())
    }

    /// Solves the levels with at most `max_total` counters on the board and the same parity as
    /// `max_total` (captures are even, so these are all the levels such a position reaches).
    ///
    /// # Errors
    /// As [`Solver::new`].
    pub fn up_to(rules: Ruleset, max_total: u32) -> Result<Solver, SolveError> {
        let started = Instant::now();
        let mut s = Solver {
            rules,
            bin: Binomials::new(max_total as usize),
            values: vec![Vec::new(); max_total as usize + 1],
            states: 0,
            seconds: 0.0,
        };
        for t in (max_total % 2..=max_total).step_by(2) {
            let level = s.build_level(t);
            let values = s.solve_level(t, &level, &|_| false)?;
            s.states += values.len() as u64;
            s.values[t as usize] = values.into_iter().map(|v| v as i16).collect();
        }
        s.seconds = started.elapsed().as_secs_f64();
        Ok(s)
    }

    /// The ruleset solved.
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// Number of states solved.
    pub fn states(&self) -> u64 {
        self.states
    }

    /// Seconds spent solving.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The value for the mover of `pits` with `to_move` to move and no history, or `None` if
    /// its level was not solved.
    pub fn value(&self, pits: [u8; 4], to_move: Player) -> Option<i32> {
        let t = pits.iter().map(|&x| usize::from(x)).sum::<usize>();
        let level = self.values.get(t)?;
        if level.is_empty() {
            return None;
        }
        Some(i32::from(level[node(self.bin.rank(pits), to_move)]))
    }

    fn fresh(&self, pits: [u8; 4], to_move: Player) -> i32 {
        self.value(pits, to_move)
            .expect("a lower level of the same parity is solved")
    }

    /// Whether a state is over by itself, and its value then (T-6).
    fn terminal_value(&self, pos: &Position) -> Option<i32> {
        let t = pos.on_board() as i32;
        if t == 0 {
            Some(0)
        } else if self.rules.empty == EmptySide::End && pos.side(pos.to_move) == 0 {
            Some(-t)
        } else {
            None
        }
    }

    /// The worth for the mover of a repetition at `pos` (T-7).
    fn repetition_value(&self, pos: &Position) -> i32 {
        match self.rules.cycle {
            CycleSplit::Equal => 0,
            CycleSplit::OwnSide => pos.side(pos.to_move) as i32 - pos.side(!pos.to_move) as i32,
        }
    }

    fn build_level(&self, t: u32) -> Level {
        let n = 2 * self.bin.boards(t);
        let mut level = Level {
            fixed: vec![None; n],
            rep: vec![0; n],
            start: Vec::with_capacity(n + 1),
            edges: Vec::with_capacity(2 * n),
        };
        let mut moves = Vec::with_capacity(3);
        let mut entries: Vec<(usize, [u8; 4])> = Vec::with_capacity(n / 2);
        for_each_board(t as u8, |rank, pits| entries.push((rank, pits)));
        level.start.push(0);
        for &(rank, pits) in &entries {
            for side in Player::ALL {
                let x = node(rank, side);
                debug_assert_eq!(x, level.start.len() - 1);
                let pos = Position {
                    pits,
                    captured: ByPlayer::new(0, 0),
                    to_move: side,
                };
                level.rep[x] = self.repetition_value(&pos);
                if let Some(v) = self.terminal_value(&pos) {
                    level.fixed[x] = Some(v);
                } else {
                    pos.moves(&self.rules, &mut moves);
                    for &m in &moves {
                        let (next, captured) = pos.after(&self.rules, m);
                        let edge = if captured > 0 {
                            Edge::Exit(i32::from(captured) - self.fresh(next.pits, next.to_move))
                        } else if let Some(v) = self.terminal_value(&next) {
                            Edge::Exit(-v)
                        } else {
                            Edge::To(node(self.bin.rank(next.pits), next.to_move) as u32)
                        };
                        level.edges.push(edge);
                    }
                }
                level.start.push(level.edges.len() as u32);
            }
        }
        level
    }

    /// Values of a level, where a quiet move into a state for which `ends(y)` holds ends the
    /// game by repetition.
    fn solve_level(
        &self,
        t: u32,
        level: &Level,
        ends: &dyn Fn(usize) -> bool,
    ) -> Result<Vec<i32>, SolveError> {
        let effective = |e: Edge| match e {
            Edge::To(y) if ends(y as usize) => Edge::Exit(-level.rep[y as usize]),
            e => e,
        };
        match self.rules.cycle {
            CycleSplit::Equal => Ok(solve_thresholds(level, &effective)),
            CycleSplit::OwnSide => {
                solve_iteration(level, &effective).ok_or(SolveError::NoFixedPoint {
                    ruleset: self.rules.to_string(),
                    total: t,
                })
            }
        }
    }

    /// The exact value of every legal move of `state`, given its history, in legal-move order.
    ///
    /// # Panics
    /// If the state's ruleset is not the solver's, or its level was not solved.
    pub fn move_values(&self, state: &State) -> Vec<(Move, i32)> {
        assert_eq!(
            state.ruleset(),
            &self.rules,
            "the solver was built for another ruleset"
        );
        let mut legal = Vec::new();
        state.legal_moves(&mut legal);
        let pos = state.position();
        let t = pos.on_board();
        let need = usize::from(self.rules.repetition) - 1;
        let count = |key: u64| state.history().iter().filter(|&&k| k == key).count();
        let mut level_cache: Option<Level> = None;
        let mut out = Vec::with_capacity(legal.len());
        for m in legal {
            let (next, captured) = pos.after(&self.rules, m);
            let v = if captured > 0 {
                i32::from(captured) - self.fresh(next.pits, next.to_move)
            } else if let Some(v) = self.terminal_value(&next) {
                -v
            } else if count(next.key()) + 1 > need {
                -self.repetition_value(&next)
            } else {
                // Positions seen `repetition − 1` times (counting `next` itself once more)
                // end the game when entered again.
                let level = level_cache.get_or_insert_with(|| self.build_level(t));
                let mut seen: HashMap<u64, usize> = HashMap::new();
                for &k in state.history().iter().chain([next.key()].iter()) {
                    *seen.entry(k).or_default() += 1;
                }
                let mut ends = vec![false; level.fixed.len()];
                for (&k, &c) in &seen {
                    if c >= need {
                        let (pits, side) = Position::unpack_key(k);
                        ends[node(self.bin.rank(pits), side)] = true;
                    }
                }
                let values = self
                    .solve_level(t, level, &|y| ends[y])
                    .expect("a solved level has a fixed point");
                -values[node(self.bin.rank(next.pits), next.to_move)]
            };
            out.push((m, v));
        }
        out
    }

    /// The legal moves of `state` of the best value, and that value.
    pub fn best_moves(&self, state: &State) -> (Vec<Move>, i32) {
        let values = self.move_values(state);
        let best = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
        (
            values
                .into_iter()
                .filter(|&(_, v)| v == best)
                .map(|(m, _)| m)
                .collect(),
            best,
        )
    }
}

/// Exact retrograde analysis of a level when every repetition is worth 0 (see the module docs).
fn solve_thresholds(level: &Level, effective: &dyn Fn(Edge) -> Edge) -> Vec<i32> {
    let n = level.fixed.len();
    let mut value = vec![0i32; n];
    let mut done = vec![false; n];
    let mut open = vec![0u32; n];
    // Predecessors of each state through quiet moves, as a CSR.
    let mut pred_count = vec![0u32; n + 1];
    let mut max_abs = 0;
    for x in 0..n {
        if let Some(v) = level.fixed[x] {
            value[x] = v;
            done[x] = true;
            continue;
        }
        for &e in &level.edges[level.start[x] as usize..level.start[x + 1] as usize] {
            open[x] += 1;
            match effective(e) {
                Edge::To(y) => pred_count[y as usize + 1] += 1,
                Edge::Exit(v) => max_abs = max_abs.max(v.unsigned_abs()),
            }
        }
    }
    for y in 0..n {
        pred_count[y + 1] += pred_count[y];
    }
    let mut preds = vec![0u32; pred_count[n] as usize];
    let mut fill = pred_count.clone();
    // Exits bucketed by value, as (value, state).
    let mut exits: Vec<(i32, u32)> = Vec::new();
    for (x, _) in done.iter().enumerate().filter(|(_, d)| !**d) {
        for &e in &level.edges[level.start[x] as usize..level.start[x + 1] as usize] {
            match effective(e) {
                Edge::To(y) => {
                    preds[fill[y as usize] as usize] = x as u32;
                    fill[y as usize] += 1;
                }
                Edge::Exit(v) if v != 0 => exits.push((v, x as u32)),
                Edge::Exit(_) => {}
            }
        }
    }
    exits.sort_unstable_by_key(|&(v, _)| std::cmp::Reverse(v.unsigned_abs()));
    let mut queue: Vec<(u32, bool)> = Vec::new();
    let mut next_exit = 0;
    for theta in (1..=max_abs as i32).rev() {
        while next_exit < exits.len() && exits[next_exit].0.abs() == theta {
            let (v, x) = exits[next_exit];
            next_exit += 1;
            let x = x as usize;
            if done[x] {
                continue;
            }
            if v > 0 {
                done[x] = true;
                value[x] = theta;
                queue.push((x as u32, true));
            } else {
                open[x] -= 1;
                if open[x] == 0 {
                    done[x] = true;
                    value[x] = -theta;
                    queue.push((x as u32, false));
                }
            }
        }
        // Propagate: a won state makes its predecessors' edge bad, a lost one makes it good.
        while let Some((y, won)) = queue.pop() {
            let y = y as usize;
            for &p in &preds[pred_count[y] as usize..pred_count[y + 1] as usize] {
                let p = p as usize;
                if done[p] {
                    continue;
                }
                if won {
                    open[p] -= 1;
                    if open[p] == 0 {
                        done[p] = true;
                        value[p] = -theta;
                        queue.push((p as u32, false));
                    }
                } else {
                    done[p] = true;
                    value[p] = theta;
                    queue.push((p as u32, true));
                }
            }
        }
    }
    value
}

/// Value iteration from "the game stops here" to a fixed point (`cycle=own-side`).
fn solve_iteration(level: &Level, effective: &dyn Fn(Edge) -> Edge) -> Option<Vec<i32>> {
    let n = level.fixed.len();
    let mut cur: Vec<i32> = (0..n)
        .map(|x| level.fixed[x].unwrap_or(level.rep[x]))
        .collect();
    let mut next = cur.clone();
    let edges: Vec<Edge> = level.edges.iter().map(|&e| effective(e)).collect();
    let limit = 64 + 8 * n;
    for _ in 0..limit {
        let mut changed = false;
        for x in 0..n {
            if level.fixed[x].is_some() {
                continue;
            }
            let mut best = i32::MIN;
            for &e in &edges[level.start[x] as usize..level.start[x + 1] as usize] {
                let v = match e {
                    Edge::To(y) => -cur[y as usize],
                    Edge::Exit(v) => v,
                };
                best = best.max(v);
            }
            changed |= best != cur[x];
            next[x] = best;
        }
        std::mem::swap(&mut cur, &mut next);
        if !changed {
            return Some(cur);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_dense_and_ordered() {
        let bin = Binomials::new(12);
        for t in 0..=12u8 {
            let mut expected = 0;
            for_each_board(t, |rank, pits| {
                assert_eq!(rank, expected);
                assert_eq!(bin.rank(pits), rank, "{pits:?}");
                expected += 1;
            });
            assert_eq!(expected, bin.boards(u32::from(t)));
        }
    }
}
