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
//!   depends on where the cycle closes, and the value of a position can depend on the history
//!   that led to it. The solver computes, for every state, the best result each player can be
//!   sure of with a *positional* strategy (one that depends on the state only): with such a
//!   strategy fixed, the game ends at an exit the opponent can reach, or by a repetition at a
//!   state on a cycle of the remaining graph. Being sure of at least θ is therefore a co-Büchi
//!   condition (keep every cycle away from states whose repetition is worth less than θ), decided
//!   for each θ by the classical attractor iteration for Büchi games. Where South's guarantee
//!   and North's meet, they are the exact value. If they fail to meet anywhere on a level the
//!   solver reports [`SolveError::NotPositional`] rather than guess: with the other options at
//!   their defaults this happens from `seeds=12` (the level with 48 counters) on.
//!
//!   The same computation on a `cycle=equal` level gives the threshold values above at every
//!   state, which the tests check.
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
use std::sync::{Arc, Mutex};
use std::time::Instant;

use qasab_core::tihbat::{CycleSplit, EmptySide, Move, Position, Ruleset, State};
use qasab_core::{AnyRuleset, ByPlayer, GameState, Player, Registered};
use thiserror::Error;

/// A level the solver could not resolve.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolveError {
    /// Under `cycle=own-side`, the players' positional guarantees do not meet on some states
    /// of a level, so their values cannot be proven (they can depend on the history).
    #[error("{ruleset}: {}", self.detail())]
    NotPositional {
        /// The ruleset.
        ruleset: String,
        /// The level.
        total: u32,
        /// States whose value could not be proven.
        unproven: usize,
    },
}

impl SolveError {
    /// The problem, without the ruleset.
    pub fn detail(&self) -> String {
        match self {
            SolveError::NotPositional {
                total, unproven, ..
            } => format!(
                "no exact solution: with {total} counters on the board the solver cannot prove the \
                 value of {unproven} positions (under cycle=own-side a value can depend on the \
                 history of the game, not only on the position)"
            ),
        }
    }
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

/// The ruleset inside `rules` if it names a game this solver solves (Tihbat): how the front
/// ends (`qasab solve`, `qasab bench`, the study's exact values) reach the solver from a
/// dynamic ruleset.
pub fn solvable(rules: &AnyRuleset) -> Option<&Ruleset> {
    State::ruleset_of(rules)
}

/// The most counters per pit for which a host prepares the solver by default
/// (`Limits::host`). The solver's table grows with the fourth power of the counters:
/// `seeds=7` solves in milliseconds, `seeds=20` in a fraction of a second, `seeds=60` would
/// take many seconds and hundreds of megabytes.
pub const HOST_SEEDS: u32 = 20;

/// The solved values of every level of a Tihbat ruleset.
pub struct Solver {
    rules: Ruleset,
    bin: Binomials,
    /// Values by level (counters on the board), indexed by `rank * 2 + side`; empty if unsolved.
    values: Vec<Vec<i16>>,
    states: u64,
    seconds: f64,
    /// The level graphs last built for [`Solver::move_values`], most recent first.
    cache: Mutex<Vec<(u32, Arc<Level>)>>,
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
            cache: Mutex::new(Vec::new()),
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
                solve_own_side(level, &effective).map_err(|unproven| SolveError::NotPositional {
                    ruleset: self.rules.to_string(),
                    total: t,
                    unproven,
                })
            }
        }
    }

    /// The exact value of every legal move of `state`, given its history, in legal-move order.
    ///
    /// # Errors
    /// Under `cycle=own-side` only: [`SolveError::NotPositional`] if the values for this history
    /// cannot be proven.
    ///
    /// # Panics
    /// If the state's ruleset is not the solver's.
    pub fn move_values(&self, state: &State) -> Result<Vec<(Move, i32)>, SolveError> {
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
        let mut seen: HashMap<u64, usize> = HashMap::new();
        for &k in state.history() {
            *seen.entry(k).or_default() += 1;
        }
        let mut out = Vec::with_capacity(legal.len());
        for m in legal {
            let (next, captured) = pos.after(&self.rules, m);
            let v = if captured > 0 {
                i32::from(captured) - self.fresh(next.pits, next.to_move)
            } else if let Some(v) = self.terminal_value(&next) {
                -v
            } else if seen.get(&next.key()).copied().unwrap_or(0) + 1 > need {
                -self.repetition_value(&next)
            } else {
                // Positions seen `repetition − 1` times, counting `next` once more, end the
                // game when they are entered again: solve the level with them made terminal,
                // unless none of them (but `next`, on its first visit) can be reached.
                let level = self.level(t);
                let target = node(self.bin.rank(next.pits), next.to_move);
                let next_count = seen.get(&next.key()).copied().unwrap_or(0) + 1;
                let mut ends = vec![false; level.fixed.len()];
                for (&k, &c) in &seen {
                    if c + usize::from(k == next.key()) >= need {
                        let (pits, side) = Position::unpack_key(k);
                        ends[node(self.bin.rank(pits), side)] = true;
                    }
                }
                if need <= 1 {
                    ends[target] = true;
                }
                if next_count == 1 && !reaches_any(&level, target, &ends) {
                    -self.fresh(next.pits, next.to_move)
                } else {
                    let values = self.solve_level(t, &level, &|y| ends[y])?;
                    -values[target]
                }
            };
            out.push((m, v));
        }
        Ok(out)
    }

    /// The values of the positions after each legal move as if their history were empty: exact
    /// where [`Solver::move_values`] is, and otherwise the best tabulated guess.
    pub fn fresh_move_values(&self, state: &State) -> Vec<(Move, i32)> {
        let mut legal = Vec::new();
        state.legal_moves(&mut legal);
        let pos = state.position();
        legal
            .into_iter()
            .map(|m| {
                let (next, captured) = pos.after(&self.rules, m);
                let v = match self.terminal_value(&next) {
                    Some(v) => i32::from(captured) - v,
                    None => i32::from(captured) - self.fresh(next.pits, next.to_move),
                };
                (m, v)
            })
            .collect()
    }

    /// The legal moves of `state` of the best value, and that value.
    ///
    /// # Errors
    /// As [`Solver::move_values`].
    pub fn best_moves(&self, state: &State) -> Result<(Vec<Move>, i32), SolveError> {
        let values = self.move_values(state)?;
        let best = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
        Ok((
            values
                .into_iter()
                .filter(|&(_, v)| v == best)
                .map(|(m, _)| m)
                .collect(),
            best,
        ))
    }

    /// The quiet-move graph of a level, built once and kept for the next calls (the last
    /// few levels).
    fn level(&self, t: u32) -> Arc<Level> {
        const KEEP: usize = 4;
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = cache.iter().position(|(ct, _)| *ct == t) {
            let entry = cache.remove(i);
            let level = entry.1.clone();
            cache.insert(0, entry);
            return level;
        }
        drop(cache);
        let level = Arc::new(self.build_level(t));
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        cache.insert(0, (t, level.clone()));
        cache.truncate(KEEP);
        level
    }
}

/// Whether a state marked in `ends`, other than `from` itself, can be reached from `from` by
/// quiet moves.
fn reaches_any(level: &Level, from: usize, ends: &[bool]) -> bool {
    let mut seen = vec![false; level.fixed.len()];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(x) = stack.pop() {
        for &e in &level.edges[level.start[x] as usize..level.start[x + 1] as usize] {
            if let Edge::To(y) = e {
                let y = y as usize;
                if y == from {
                    continue;
                }
                if ends[y] {
                    return true;
                }
                if !seen[y] {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
    }
    false
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

/// Solves a level under `cycle=own-side` by computing, for every state, the best result each
/// player can guarantee with a positional strategy (see [`guarantees`]). Where the two
/// guarantees meet, that is the exact value; the level is solved when they meet everywhere.
/// Otherwise returns the number of states where they do not.
fn solve_own_side(level: &Level, effective: &dyn Fn(Edge) -> Edge) -> Result<Vec<i32>, usize> {
    let edges: Vec<Edge> = level.edges.iter().map(|&e| effective(e)).collect();
    let south = guarantees(level, &edges, Player::One);
    let north = guarantees(level, &edges, Player::Two);
    let n = level.fixed.len();
    let mut values = vec![0; n];
    let mut open = 0;
    for x in 0..n {
        if let Some(v) = level.fixed[x] {
            values[x] = v;
        } else if south[x] == -north[x] {
            values[x] = if x % 2 == 0 { south[x] } else { north[x] };
        } else {
            open += 1;
        }
    }
    if open == 0 { Ok(values) } else { Err(open) }
}

#[inline]
fn edges_of<'a>(level: &Level, edges: &'a [Edge], x: usize) -> &'a [Edge] {
    &edges[level.start[x] as usize..level.start[x + 1] as usize]
}

/// For every state, the highest result (in `me`'s perspective: `me`'s future captures minus
/// the opponent's) that `me` can be sure of with a positional strategy, under the rule that the
/// first repetition ends the game.
///
/// With a positional strategy fixed, a game ends at an exit the opponent can reach in the graph
/// of the remaining moves, or by a repetition at a state on a cycle of that graph (the play went
/// round it). So `me` is sure of at least θ exactly when he can keep every reachable exit at θ
/// or more and every cycle away from states whose repetition is worth less than θ: a co-Büchi
/// condition, which positional strategies decide. It is solved for each θ by the classical
/// attractor iteration for Büchi games (the opponent wants to visit the bad states infinitely
/// often, or to take a bad exit).
fn guarantees(level: &Level, edges: &[Edge], me: Player) -> Vec<i32> {
    let n = level.fixed.len();
    let mine = |x: usize| (x % 2 == me.index()) as i32 * 2 - 1; // +1 if `me` moves at x
    // Values in `me`'s perspective.
    let exit_value = |x: usize, v: i32| v * mine(x);
    let rep_value = |x: usize| level.rep[x] * mine(x);
    let mut thetas: Vec<i32> = (0..n)
        .filter(|&x| level.fixed[x].is_none())
        .map(rep_value)
        .collect();
    for x in 0..n {
        for &e in edges_of(level, edges, x) {
            if let Edge::Exit(v) = e {
                thetas.push(exit_value(x, v));
            }
        }
    }
    thetas.sort_unstable();
    thetas.dedup();
    let mut best = vec![i32::MIN; n];
    let game = BuchiGame::new(level, edges);
    for &theta in &thetas {
        let wins = game.solve(
            |x| x % 2 == me.index(),
            |x, v| exit_value(x, v) >= theta,
            |x| rep_value(x) >= theta,
        );
        let mut any = false;
        for x in 0..n {
            if wins[x] && level.fixed[x].is_none() {
                best[x] = theta;
                any = true;
            }
        }
        if !any {
            break;
        }
    }
    best
}

/// The quiet-move graph of a level as a two-player game with two sinks: WIN (an exit good for
/// the protagonist) and LOSE (a bad one).
struct BuchiGame<'a> {
    level: &'a Level,
    edges: &'a [Edge],
    /// Predecessors through quiet moves, as a CSR.
    pred_start: Vec<u32>,
    preds: Vec<u32>,
}

impl<'a> BuchiGame<'a> {
    fn new(level: &'a Level, edges: &'a [Edge]) -> Self {
        // Build the predecessor lists once; each threshold reuses them.
        let n = level.fixed.len();
        let mut pred_start = vec![0u32; n + 1];
        for &e in edges {
            if let Edge::To(y) = e {
                pred_start[y as usize + 1] += 1;
            }
        }
        for y in 0..n {
            pred_start[y + 1] += pred_start[y];
        }
        let mut fill = pred_start.clone();
        let mut preds = vec![0u32; pred_start[n] as usize];
        for x in 0..n {
            for &e in edges_of(level, edges, x) {
                if let Edge::To(y) = e {
                    preds[fill[y as usize] as usize] = x as u32;
                    fill[y as usize] += 1;
                }
            }
        }
        BuchiGame {
            level,
            edges,
            pred_start,
            preds,
        }
    }

    /// The states from which the protagonist (who moves where `mine` holds) wins: every play
    /// either takes an exit for which `good_exit` holds, or is infinite and visits states
    /// failing `good_state` only finitely often. Terminal states are not part of the game.
    fn solve(
        &self,
        mine: impl Fn(usize) -> bool,
        good_exit: impl Fn(usize, i32) -> bool,
        good_state: impl Fn(usize) -> bool,
    ) -> Vec<bool> {
        let n = self.level.fixed.len();
        let mut alive: Vec<bool> = (0..n).map(|x| self.level.fixed[x].is_none()).collect();
        // Per state: how many exits are good / bad for the protagonist.
        let mut good = vec![0u32; n];
        let mut bad = vec![0u32; n];
        for x in (0..n).filter(|&x| alive[x]) {
            for &e in edges_of(self.level, self.edges, x) {
                if let Edge::Exit(v) = e {
                    if good_exit(x, v) {
                        good[x] += 1
                    } else {
                        bad[x] += 1
                    }
                }
            }
        }
        let mut lost = vec![false; n];
        loop {
            // R: where the opponent can force a bad state or a bad exit (LOSE).
            let target: Vec<bool> = (0..n).map(|x| alive[x] && !good_state(x)).collect();
            let r = self.attractor(&alive, &target, &|x| !mine(x), &bad, &good);
            // The protagonist's trap: alive states outside R. He wins from all he can force
            // into it (or into WIN).
            let trap: Vec<bool> = (0..n).map(|x| alive[x] && !r[x]).collect();
            let w = self.attractor(&alive, &trap, &mine, &good, &bad);
            let mut removed = false;
            for x in 0..n {
                if w[x] {
                    alive[x] = false;
                    removed = true;
                }
            }
            if !removed {
                // The opponent wins from every state left: record them, done.
                for x in 0..n {
                    if alive[x] {
                        lost[x] = true;
                    }
                }
                break;
            }
        }
        (0..n)
            .map(|x| self.level.fixed[x].is_none() && !lost[x])
            .collect()
    }

    /// The attractor, within the alive states, of `target` and of the attracting player's sink,
    /// for the player who moves where `owner` holds: the states from which he can force the
    /// play there. `sink_own[x]` counts the exits of `x` into his sink, `sink_other[x]` those
    /// into the other. Quiet moves into removed states are ignored: the alive states form a
    /// subgame in which only the opponent of the protagonist has such moves, and he would not
    /// take them.
    fn attractor(
        &self,
        alive: &[bool],
        target: &[bool],
        owner: &dyn Fn(usize) -> bool,
        sink_own: &[u32],
        sink_other: &[u32],
    ) -> Vec<bool> {
        let n = alive.len();
        let mut attr = vec![false; n];
        let mut count = vec![0u32; n];
        let mut queue = Vec::new();
        for x in (0..n).filter(|&x| alive[x]) {
            // Moves that stay in the arena, plus exits to the attracting player's own sink
            // (which count as reaching the target) and to the other sink (which do not).
            let inside = edges_of(self.level, self.edges, x)
                .iter()
                .filter(|e| matches!(e, Edge::To(y) if alive[*y as usize]))
                .count() as u32;
            count[x] = inside + sink_other[x];
            let reached = target[x]
                || (owner(x) && sink_own[x] > 0)
                || (!owner(x) && count[x] == 0 && sink_own[x] > 0);
            if reached {
                attr[x] = true;
                queue.push(x);
            }
        }
        while let Some(y) = queue.pop() {
            for &p in &self.preds[self.pred_start[y] as usize..self.pred_start[y + 1] as usize] {
                let p = p as usize;
                if !alive[p] || attr[p] {
                    continue;
                }
                if owner(p) {
                    attr[p] = true;
                    queue.push(p);
                } else {
                    count[p] -= 1;
                    if count[p] == 0 {
                        attr[p] = true;
                        queue.push(p);
                    }
                }
            }
        }
        attr
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The threshold analysis for `cycle=equal` is exact by the argument in the module docs;
    /// the positional guarantees used for `cycle=own-side` must meet at the same values.
    #[test]
    fn equal_split_values_are_the_positional_guarantees() {
        for text in [
            "tihbat",
            "tihbat(seeds=5,repetition=3,singleton=forward)",
            "tihbat(seeds=6,empty=end,chain=own-side)",
        ] {
            let rules: Ruleset = text.parse().unwrap();
            let solver = Solver::new(rules).unwrap();
            for t in (0..=rules.total()).step_by(2) {
                let level = solver.build_level(t);
                let values: Vec<i32> = solver.values[t as usize]
                    .iter()
                    .map(|&v| i32::from(v))
                    .collect();
                assert_eq!(
                    solve_own_side(&level, &|e| e),
                    Ok(values),
                    "{text}, level {t}"
                );
            }
        }
    }

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
