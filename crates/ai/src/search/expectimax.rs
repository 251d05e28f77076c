//! The `expectimax` player: search over whole turns, with the exact chance of every throw.
//!
//! # The tree
//! * A **decision node** is a state where a player is to move. Its children are the distinct
//!   states at the end of his turn ([`TurnGraph`]: every order and choice of his decisions,
//!   identical states merged). The searching player takes the best child for himself (a max
//!   node), the opponent the worst for him (a min node).
//! * A **chance node** is a state where the sticks are thrown. Its value is the average of its
//!   children weighted by the rules' exact integer weights (S-1, `p_white` included). A turn's
//!   throws are a chain of chance nodes (after a 1, 4 or 6 another throw).
//! * A finished game is worth its exact result ([`crate::eval::terminal_value`]); a leaf is
//!   worth its static evaluation ([`Evaluate`]).
//!
//! # Depth and horizon
//! Depth counts *turns*, a turn being what [`GameState::turns`] counts (one player's whole go,
//! with or without decisions). The root's turn is the first. Turns up to `depth` are searched.
//! Where the search stops after them is the **horizon** ([`Horizon`], `horizon=`):
//! * `throws` (the default): the throws of the next turn are followed and its first decision
//!   node is evaluated statically; a later turn (reached when that one has nothing to decide)
//!   is evaluated as soon as it begins. So depth 1 is "my turn, then every throw sequence of
//!   the opponent's turn, evaluated before he moves".
//! * `turn`: the state is evaluated as the next turn begins, before its throws, as `greedy`
//!   evaluates the ends of its turn (the evaluation weighs the coming throws itself). Depth 1
//!   is then `greedy`'s choice, and depth 2 is "my turn, then every throw sequence of the
//!   opponent's turn and his best reply to each". A search to the `turn` horizon costs about
//!   a tenth of one of the same depth to the `throws` horizon.
//!
//! Decisions later in a turn already counted (a Ludii turn
//! that goes on after a 1, 4 or 6) are searched without counting again. The throws of one
//! turn are followed up to `throws` of them (4 by default); a state with more is evaluated
//! statically (its evaluation counts the throws still to come, see [`crate::eval::hits`]). A
//! turn has five throws or more with probability (6/16)⁴ ≈ 2 % with fair sticks.
//!
//! # Pruning and the transposition table
//! Decision nodes use alpha-beta. Chance nodes use Ballard's Star1: every value lies in
//! `[L, U] = [-1, 1]` (the evaluation's range and the terminal values), so after the children
//! seen so far, with probabilities `pᵢ` and values `vᵢ`, and unexplored probability `r`, the
//! node's value lies in `[Σ pᵢvᵢ + rL, Σ pᵢvᵢ + rU]`; once that interval is outside the
//! window `(α, β)` the node is cut, and each child is searched with the window its own value
//! must fall in for the node to land inside `(α, β)`. This is sound because the bounds hold
//! for every value the search can return; the search is fail-hard (a result outside the
//! window is the window's edge), and child windows are widened by `1e-9` so that rounding
//! never cuts a child whose value matters. Star2's probing is not used: probing a decision
//! node here means enumerating a whole turn, which costs as much as searching it.
//! Chance outcomes are taken in decreasing weight, so that the likeliest throws narrow the
//! interval first.
//!
//! A transposition table stores each node's result, keyed by a 128-bit [fingerprint] of the
//! full state (every field equality compares, histories included) together with the depth
//! left and the position in the turn (the throws already made, whether the turn is new), with
//! whether it is exact or a bound.
//!
//! [`reference_values`] is the same search written plainly, without pruning or table; tests
//! hold the two to the same values.
//!
//! # Limits: a move always finishes
//! * The root's turn is enumerated up to `turn_states` distinct states (4096 by default), the
//!   turns inside the tree up to `inner_states` (1024). A larger root turn is played by the
//!   one-decision rule of `greedy`; a larger turn inside the tree is replaced by the single
//!   line [`greedy_line`] plays.
//! * The whole move visits at most `nodes` states (turn states enumerated, leaves evaluated,
//!   chance outcomes followed). The search deepens one turn at a time (the ends of the root
//!   turn ordered by the previous depth's values); if a depth runs out of states it is
//!   abandoned and the last complete depth decides, and depth 0 (the static value of the
//!   root turn's ends: `greedy`'s choice) is always complete. Everything is counted, not
//!   timed, so a seed gives the same move on every machine.
//!
//! The decisions of the rest of the turn are played from the line found, without searching
//! again, while the states are those planned. Ties between first decisions are broken with
//! the seeded generator.
//!
//! # Levels
//! | level | depth | horizon | nodes | throws | turn states (root, inner) |
//! |---|---|---|---|---|---|
//! | 1 | 1 | throws | 20,000 | 3 | 4096, 256 |
//! | 2 (default) | 1 | throws | 200,000 | 4 | 4096, 1024 |
//! | 3 | 2 | turn | 4,000,000 | 4 | 4096, 1024 |
//! | 4 | 2 | throws | 4,000,000 | 4 | 4096, 1024 |
//! | 5 | 3 | throws | 8,000,000 | 4 | 4096, 1024 |
//!
//! On 12 mid-game `tab` positions a move takes about 5 ms at level 1, 15 ms at level 2 and
//! 0.4 s at level 3 on one core of the reference machine; on three cheaper ones, 0.5 s at
//! level 4 and 9 s at level 5 (see `docs/PERFORMANCE.md`). Levels 4 and 5 often stop at a
//! depth below theirs in busy positions, when the budget runs out. Level 3 beat `greedy` in
//! 56% of 400 games on `tab` (`docs/STRENGTH.md`).
//!
//! Spec: `expectimax`, with `level=1..5`, `depth=1..8`, `nodes=1000..=1000000000`,
//! `horizon=throws|turn` (the last three override the level's) and `seed=N`.

use std::collections::HashMap;

use qasab_core::{GameState, Player, Turn, Weighted};

use crate::agent::{Agent, Evaluation, ValueKind};
use crate::cancel::{self, Cancel};
use crate::eval::options::{
    EvalSource, SEARCH_WEIGHTS_HELP, SearchSettings, eval_option, weights_option,
};
use crate::eval::{EvalWeights, Evaluate};
use crate::rng::{GameRng, below, rng_from_seed};
use crate::search::hash::{BuildPassHasher, fingerprint};
use crate::search::turn::{
    TurnGraph, best_first, best_moves, follow, greedy_line, one_step_values,
};
use crate::spec::{AgentError, AgentSpec, Cost, Spend, apply_options, either, seed_option};
use qasab_core::options::{Choice, OptionDef, ValueError, Values, choice_option};

/// The lowest value any state can have.
pub const LOW: f64 = -1.0;
/// The highest value any state can have.
pub const HIGH: f64 = 1.0;
/// The margin by which child windows are widened against rounding.
const EPS: f64 = 1e-9;
/// A window wider than every value: a search with it returns exact values.
const FULL: (f64, f64) = (LOW - 1.0, HIGH + 1.0);

/// The settings of a search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Turns searched (at least 1).
    pub depth: u32,
    /// States a move may visit in all.
    pub nodes: u64,
    /// Throws of one turn followed before a state is evaluated statically.
    pub throws: u32,
    /// Distinct states of the root turn's enumeration.
    pub turn_states: usize,
    /// Distinct states of a turn's enumeration inside the tree.
    pub inner_states: usize,
    /// Where the search ends after its last turn.
    pub horizon: Horizon,
    /// The weights of the static evaluation (`eval=`).
    pub eval: EvalWeights,
}

/// Where a search of `depth` turns stops (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Horizon {
    /// The throws of turn `depth + 1` are followed and its first decision is evaluated.
    #[default]
    Throws,
    /// The state is evaluated as turn `depth + 1` begins, before its throws: at depth 1 the
    /// values are `greedy`'s.
    Turn,
}

/// The horizons' names in a spec (`horizon=turn`), in the order the docs list them.
impl Choice for Horizon {
    const CHOICES: &'static [(&'static str, Horizon)] =
        &[("throws", Horizon::Throws), ("turn", Horizon::Turn)];
    const NAMES: &'static [&'static str] = &["throws", "turn"];
}

impl Options {
    /// The default level.
    pub const DEFAULT_LEVEL: u8 = 2;

    /// The settings of `level` (1 to 5, see the module docs), or `None` outside that range.
    pub fn level(level: u8) -> Option<Options> {
        let base = Options {
            depth: 1,
            nodes: 200_000,
            throws: 4,
            turn_states: 4096,
            inner_states: 1024,
            horizon: Horizon::Throws,
            eval: EvalWeights::Hand,
        };
        Some(match level {
            1 => Options {
                nodes: 20_000,
                throws: 3,
                inner_states: 256,
                ..base
            },
            2 => base,
            3 => Options {
                depth: 2,
                nodes: 4_000_000,
                horizon: Horizon::Turn,
                ..base
            },
            4 => Options {
                depth: 2,
                nodes: 4_000_000,
                ..base
            },
            5 => Options {
                depth: 3,
                nodes: 8_000_000,
                ..base
            },
            _ => return None,
        })
    }

    /// What a move with these settings may spend: the states it visits (`nodes=`, or those of
    /// the level), on one thread.
    pub fn cost(&self) -> Cost {
        Cost {
            nodes: Some(Spend::option("nodes", self.nodes)),
            ..Cost::default()
        }
    }

    /// The settings a spec gives (`level=`, `depth=`, `nodes=`, `horizon=`, `eval=`, and
    /// `seed=`, checked here and used by the caller) for game `S`.
    ///
    /// # Errors
    /// [`AgentError::UnknownKey`] for another key, [`AgentError::BadValue`] for a level outside
    /// 1..=5, a depth outside 1..=8, a node budget outside 1000..=1000000000, or an evaluation
    /// the game lacks.
    pub fn from_spec<S: Evaluate>(spec: &AgentSpec) -> Result<Options, AgentError> {
        Self::from_spec_with_source::<S>(spec).map(|(o, _)| o)
    }

    /// As [`Options::from_spec`], with what the spec says of the evaluation beyond the
    /// weights (the `weights=FILE` that the player reads when it is made).
    ///
    /// # Errors
    /// As [`Options::from_spec`].
    pub fn from_spec_with_source<S: Evaluate>(
        spec: &AgentSpec,
    ) -> Result<(Options, EvalSource), AgentError> {
        let mut settings = Settings {
            options: Options::default(),
            fitted: S::FITTED,
            net: S::NET,
            source: EvalSource::default(),
        };
        apply_options(spec, OPTIONS, &mut settings)?;
        Ok((settings.options, settings.source))
    }
}

/// A spec's settings while its options are read: the options, and whether the game has
/// fitted weights and networks (for `eval=`).
pub type Settings = SearchSettings<Options>;

crate::eval::options::with_eval!(Options);

/// The options of `expectimax`, in documented order, each declared once. A level sets every
/// other option, so it is read first.
pub const OPTIONS: &[OptionDef<Settings>] = &[
    seed_option(),
    OptionDef {
        key: "level",
        values: Values::Int {
            lo: 1,
            hi: 5,
            note: "",
        },
        help: "a preset of depth, node budget and horizon (2 by default)",
        rules: "",
        get: |_| String::new(),
        set: |s, v| {
            s.options = v
                .parse::<u8>()
                .ok()
                .and_then(Options::level)
                .ok_or_else(|| ValueError::Expected("a level from 1 to 5".into()))?;
            Ok(())
        },
    },
    OptionDef {
        key: "depth",
        values: Values::Int {
            lo: 1,
            hi: 8,
            note: "",
        },
        help: "the turns searched",
        rules: "",
        get: |s| s.options.depth.to_string(),
        set: |s, v| {
            s.options.depth = count_in(v, 1, 8, "turns")? as u32;
            Ok(())
        },
    },
    OptionDef {
        key: "nodes",
        values: Values::Int {
            lo: 1000,
            hi: 1_000_000_000,
            note: "",
        },
        help: "the states a search may visit",
        rules: "",
        get: |s| s.options.nodes.to_string(),
        set: |s, v| {
            s.options.nodes = count_in(v, 1000, 1_000_000_000, "states")?;
            Ok(())
        },
    },
    choice_option!(
        Horizon,
        options.horizon,
        "horizon",
        "",
        "where the last searched turn ends: after a few throws, or at the turn's end",
        parse: either
    ),
    eval_option(),
    weights_option(SEARCH_WEIGHTS_HELP),
];

/// Reads a count of `what` from `lo` to `hi`, refused as "a number of turns from 1 to 8".
fn count_in(v: &str, lo: u64, hi: u64, what: &str) -> Result<u64, ValueError> {
    v.parse::<u64>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| ValueError::Expected(format!("a number of {what} from {lo} to {hi}")))
}

impl Default for Options {
    fn default() -> Self {
        Options::level(Options::DEFAULT_LEVEL).expect("the default level")
    }
}

/// Where a node stands in the turns of the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Ctx {
    /// The turn ([`GameState::turns`]) of the parent node.
    turn: u32,
    /// Which turn of the search that is: 1 for the root's.
    k: u32,
    /// The throws followed so far in that turn.
    run: u32,
}

impl Ctx {
    /// The context of the root's turn.
    fn root<S: GameState>(root: &S) -> Ctx {
        Ctx {
            turn: root.turns(),
            k: 1,
            run: 0,
        }
    }

    /// The node's own place: a new turn when the turn counter moved since the parent.
    fn at<S: GameState>(self, s: &S) -> Ctx {
        if s.turns() == self.turn {
            self
        } else {
            Ctx {
                turn: s.turns(),
                k: self.k + 1,
                run: 0,
            }
        }
    }
}

/// What the search does at a node of turn `k` with `depth` turns to search: turns up to
/// `depth` are searched, turn `depth + 1` has its throws followed and its decisions evaluated,
/// any later turn is evaluated at once.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Role {
    Search,
    ThrowsOnly,
    Leaf,
}

fn role(k: u32, depth: u32, horizon: Horizon) -> Role {
    if k <= depth {
        Role::Search
    } else if k == depth + 1 && horizon == Horizon::Throws {
        Role::ThrowsOnly
    } else {
        Role::Leaf
    }
}

/// What a table entry's value means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The value is at least this.
    Lower,
    /// The value is at most this.
    Upper,
}

/// The node budget ran out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct OutOfNodes;

/// The transposition table's key: the node kind, the turns left and the throws made in the
/// node's turn, with the state.
fn key<S: GameState>(s: &S, kind: u8, left: u32, run: u32) -> u128 {
    fingerprint(&(kind, left, run, s))
}

/// One search: the budget, the table, the player searching, and the flag that stops it
/// early ([`crate::cancel`]).
struct Search<'a> {
    me: Player,
    opts: &'a Options,
    nodes: u64,
    table: HashMap<u128, (f64, Bound), BuildPassHasher>,
    cancel: Option<Cancel>,
}

/// Nodes between two looks at the cancel flag.
const CANCEL_EVERY: u64 = 4096;

impl Search<'_> {
    fn spend(&mut self, n: u64) -> Result<(), OutOfNodes> {
        let before = self.nodes;
        self.nodes += n;
        // A cancelled search stops as if its budget had run out.
        if self.nodes > self.opts.nodes
            || (before / CANCEL_EVERY != self.nodes / CANCEL_EVERY
                && cancel::requested(self.cancel.as_ref()))
        {
            Err(OutOfNodes)
        } else {
            Ok(())
        }
    }

    fn leaf<S: Evaluate>(&mut self, s: &S) -> Result<f64, OutOfNodes> {
        self.spend(1)?;
        Ok(s.evaluate_with(self.me, self.opts.eval))
    }

    fn probe(&self, k: u128, alpha: f64, beta: f64) -> Option<f64> {
        let &(v, bound) = self.table.get(&k)?;
        match bound {
            Bound::Exact => Some(v.clamp(alpha, beta)),
            Bound::Lower if v >= beta => Some(beta),
            Bound::Upper if v <= alpha => Some(alpha),
            _ => None,
        }
    }

    fn store(&mut self, k: u128, v: f64, alpha: f64, beta: f64) {
        if self.table.len() as u64 >= self.opts.nodes {
            return;
        }
        let bound = if v <= alpha {
            Bound::Upper
        } else if v >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(k, (v, bound));
    }

    /// The value of `s` for the searching player, fail-hard within `(alpha, beta)`, in a
    /// search of `depth` turns; `ctx` is the parent's place.
    fn value<S: Evaluate>(
        &mut self,
        s: &S,
        depth: u32,
        ctx: Ctx,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, OutOfNodes> {
        let ctx = ctx.at(s);
        let role = role(ctx.k, depth, self.opts.horizon);
        // The turns left decide a node's value, with the throws already made in its turn.
        let left = (depth + 1).saturating_sub(ctx.k);
        match s.turn() {
            Turn::Over(_) => {
                self.spend(1)?;
                Ok(s.evaluate_with(self.me, self.opts.eval).clamp(alpha, beta))
            }
            Turn::Chance => {
                if role == Role::Leaf || ctx.run >= self.opts.throws {
                    return Ok(self.leaf(s)?.clamp(alpha, beta));
                }
                let k = key(s, 0, left, ctx.run);
                if let Some(v) = self.probe(k, alpha, beta) {
                    return Ok(v);
                }
                let mut outs = Vec::new();
                let d = s.chance_outcomes(&mut outs);
                outs.sort_by_key(|w| std::cmp::Reverse(w.weight));
                self.spend(outs.len() as u64)?;
                let child_ctx = Ctx {
                    run: ctx.run + 1,
                    ..ctx
                };
                let v = self.chance(s, &outs, d, depth, child_ctx, alpha, beta)?;
                self.store(k, v, alpha, beta);
                Ok(v)
            }
            Turn::Player(q) => {
                if role != Role::Search {
                    return Ok(self.leaf(s)?.clamp(alpha, beta));
                }
                let k = key(s, 1, left, ctx.run);
                if let Some(v) = self.probe(k, alpha, beta) {
                    return Ok(v);
                }
                let g = TurnGraph::new(s, self.opts.inner_states);
                self.spend(g.len() as u64)?;
                let fallback;
                let mut ends: Vec<(f64, &S)> = if g.is_complete() {
                    S::evaluate_all(g.ends(), self.me, self.opts.eval)
                        .into_iter()
                        .zip(g.ends())
                        .collect()
                } else {
                    let (line, end) = greedy_line(s, self.opts.eval);
                    self.spend(line.len() as u64)?;
                    fallback = end;
                    vec![(fallback.evaluate_with(self.me, self.opts.eval), &fallback)]
                };
                self.spend(ends.len() as u64)?;
                let maximise = q == self.me;
                // The likeliest best first, for the cut-offs.
                if maximise {
                    ends.sort_by(|a, b| b.0.total_cmp(&a.0));
                } else {
                    ends.sort_by(|a, b| a.0.total_cmp(&b.0));
                }
                let (mut a, mut b) = (alpha, beta);
                for &(static_value, e) in &ends {
                    // An end the search would only evaluate is worth the value just computed.
                    let v = if self.is_leaf(e, depth, ctx) {
                        self.spend(1)?;
                        static_value.clamp(a, b)
                    } else {
                        self.value(e, depth, ctx, a, b)?
                    };
                    if maximise {
                        if v >= b {
                            self.store(k, b, alpha, beta);
                            return Ok(b);
                        }
                        a = a.max(v);
                    } else {
                        if v <= a {
                            self.store(k, a, alpha, beta);
                            return Ok(a);
                        }
                        b = b.min(v);
                    }
                }
                let v = if maximise { a } else { b };
                self.store(k, v, alpha, beta);
                Ok(v)
            }
        }
    }

    /// Whether [`Search::value`] would return `s`'s static evaluation (a finished game
    /// included) without searching, `ctx` being its parent's place.
    fn is_leaf<S: GameState>(&self, s: &S, depth: u32, ctx: Ctx) -> bool {
        let ctx = ctx.at(s);
        let role = role(ctx.k, depth, self.opts.horizon);
        match s.turn() {
            Turn::Over(_) => true,
            Turn::Chance => role == Role::Leaf || ctx.run >= self.opts.throws,
            Turn::Player(_) => role != Role::Search,
        }
    }

    /// A chance node by Star1 (see the module docs).
    #[allow(clippy::too_many_arguments)]
    fn chance<S: Evaluate>(
        &mut self,
        s: &S,
        outs: &[Weighted<S::Chance>],
        denominator: u32,
        depth: u32,
        ctx: Ctx,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, OutOfNodes> {
        let total = f64::from(denominator);
        let mut sum = 0.0;
        let mut rest_w = u64::from(denominator);
        for w in outs {
            let p = f64::from(w.weight) / total;
            rest_w -= u64::from(w.weight);
            let rest = rest_w as f64 / total;
            // The child's value must exceed `lo` for this node to exceed alpha, and stay under
            // `hi` for it to stay under beta.
            let lo = ((alpha - sum - rest * HIGH) / p - EPS).max(FULL.0);
            let hi = ((beta - sum - rest * LOW) / p + EPS).min(FULL.1);
            let mut c = s.clone();
            c.apply_chance_unchecked(w.outcome);
            let v = self.value(&c, depth, ctx, lo, hi)?;
            if v <= lo {
                return Ok(alpha);
            }
            if v >= hi {
                return Ok(beta);
            }
            sum += p * v;
        }
        Ok(sum.clamp(alpha, beta))
    }
}

/// What a search of the root found.
#[derive(Clone, Debug)]
pub struct Analysis<S: GameState> {
    /// Each legal move with its value for the player to move, in move order. With the full
    /// window every value is exact for the depth reached; otherwise only the best moves' are,
    /// and the others are upper bounds.
    pub moves: Vec<(S::Move, f64)>,
    /// The depth (in turns) whose values these are: 0 when the static values of the turn's
    /// ends decided (the budget ran out at depth 1), and `None` when the root turn was too
    /// large to enumerate and the one-decision rule gave the values.
    pub depth: Option<u32>,
    /// States visited.
    pub nodes: u64,
    /// For each move, the decisions of the rest of the turn towards its best end.
    lines: Vec<Vec<(S, S::Move)>>,
}

/// Searches `state` (a player's turn) with `opts`; with `full`, every move's value is exact,
/// else the search only proves which moves are best.
///
/// # Panics
/// If it is not a player's turn in `state`.
pub fn analyse<S: Evaluate>(state: &S, opts: &Options, full: bool) -> Analysis<S> {
    let me = state.turn().player().expect("a player's turn");
    let g = TurnGraph::new(state, opts.turn_states);
    if !g.is_complete() {
        return Analysis {
            moves: one_step_values(state, opts.eval),
            depth: None,
            nodes: g.len() as u64,
            lines: Vec::new(),
        };
    }
    let ends: Vec<&S> = g.ends().collect();
    let mut values = S::evaluate_all(ends.iter().copied(), me, opts.eval);
    let mut depth = 0;
    let mut search = Search {
        me,
        opts,
        nodes: (g.len() + ends.len()) as u64,
        table: HashMap::default(),
        cancel: cancel::current(),
    };
    let ctx = Ctx::root(state);
    'deepen: for d in 1..=opts.depth {
        let mut order: Vec<usize> = (0..ends.len()).collect();
        order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        let mut next = vec![0.0; ends.len()];
        let mut best = FULL.0;
        for i in order {
            let (lo, hi) = if full { FULL } else { (best - EPS, FULL.1) };
            match search.value(ends[i], d, ctx, lo, hi) {
                Ok(v) => {
                    next[i] = v;
                    best = best.max(v);
                }
                Err(OutOfNodes) => break 'deepen,
            }
        }
        values = next;
        depth = d;
    }
    let moves = g.root_values(&values);
    let lines = moves
        .iter()
        .map(|&(m, _)| g.best_line(&values, m))
        .collect();
    Analysis {
        moves,
        depth: Some(depth),
        nodes: search.nodes,
        lines,
    }
}

/// The values of every legal move of `state` by the plain search: the same tree as
/// [`analyse`] (the same turns, depth, throw limit and turn caps, and no node budget), with
/// every node expanded, no pruning and no table. Exponential: for tests on small positions.
///
/// # Panics
/// If it is not a player's turn in `state`, or the root turn is larger than
/// `opts.turn_states`.
pub fn reference_values<S: Evaluate>(state: &S, opts: &Options) -> Vec<(S::Move, f64)> {
    fn value<S: Evaluate>(s: &S, me: Player, ctx: Ctx, opts: &Options) -> f64 {
        let ctx = ctx.at(s);
        let role = role(ctx.k, opts.depth, opts.horizon);
        match s.turn() {
            Turn::Over(_) => s.evaluate_with(me, opts.eval),
            Turn::Chance => {
                if role == Role::Leaf || ctx.run >= opts.throws {
                    return s.evaluate_with(me, opts.eval);
                }
                let mut outs = Vec::new();
                let d = f64::from(s.chance_outcomes(&mut outs));
                outs.sort_by_key(|w| std::cmp::Reverse(w.weight));
                let child = Ctx {
                    run: ctx.run + 1,
                    ..ctx
                };
                let mut sum = 0.0;
                for w in &outs {
                    let mut c = s.clone();
                    c.apply_chance_unchecked(w.outcome);
                    sum += f64::from(w.weight) / d * value(&c, me, child, opts);
                }
                sum
            }
            Turn::Player(q) => {
                if role != Role::Search {
                    return s.evaluate_with(me, opts.eval);
                }
                let g = TurnGraph::new(s, opts.inner_states);
                let ends: Vec<S> = if g.is_complete() {
                    g.ends().cloned().collect()
                } else {
                    vec![greedy_line(s, opts.eval).1]
                };
                let vals = ends.iter().map(|e| value(e, me, ctx, opts));
                if q == me {
                    vals.fold(f64::NEG_INFINITY, f64::max)
                } else {
                    vals.fold(f64::INFINITY, f64::min)
                }
            }
        }
    }
    let me = state.turn().player().expect("a player's turn");
    let g = TurnGraph::new(state, opts.turn_states);
    assert!(g.is_complete(), "the root turn fits the cap");
    let ctx = Ctx::root(state);
    let values: Vec<f64> = g.ends().map(|e| value(e, me, ctx, opts)).collect();
    g.root_values(&values)
}

/// The search player ([module docs](self)).
pub struct Expectimax<S: GameState> {
    seed: u64,
    rng: GameRng,
    opts: Options,
    /// The spec's options other than the seed, as given.
    shown: String,
    plan: Vec<(S, S::Move)>,
}

impl<S: GameState> Expectimax<S> {
    /// The searcher evaluating with `eval` (the network a file holds, `weights=FILE`).
    pub(crate) fn with_eval(mut self, eval: EvalWeights) -> Self {
        self.opts.eval = eval;
        self
    }

    /// A searcher with `opts`, its tie-breaking generator seeded with `seed`.
    pub fn new(opts: Options, seed: u64) -> Self {
        Expectimax {
            seed,
            rng: rng_from_seed(seed),
            opts,
            shown: String::new(),
            plan: Vec::new(),
        }
    }

    /// The settings in use.
    pub fn options(&self) -> &Options {
        &self.opts
    }
}

impl<S: Evaluate> Expectimax<S> {
    /// The searcher a spec describes (`level=`, `depth=`, `nodes=`, `horizon=`, `eval=`; the seed
    /// is given apart).
    ///
    /// # Errors
    /// As [`Options::from_spec`].
    pub fn from_spec(spec: &AgentSpec, seed: u64) -> Result<Self, AgentError> {
        let mut x = Expectimax::new(Options::from_spec::<S>(spec)?, seed);
        x.shown = spec
            .options
            .iter()
            .filter(|(k, _)| k != "seed")
            .map(|(k, v)| format!("{k}={v},"))
            .collect();
        Ok(x)
    }
}

impl<S: Evaluate> Agent<S> for Expectimax<S> {
    fn spec(&self) -> String {
        format!("expectimax({}seed={})", self.shown, self.seed)
    }

    fn choose(&mut self, state: &S) -> S::Move {
        if let Some(m) = follow(&mut self.plan, state) {
            return m;
        }
        let a = analyse(state, &self.opts, false);
        let best = best_moves(&a.moves);
        let first = best[below(&mut self.rng, best.len())];
        if let Some(i) = a.moves.iter().position(|&(m, _)| m == first)
            && let Some(line) = a.lines.get(i)
        {
            self.plan = line[1..].to_vec();
        }
        first
    }

    fn evaluate(&mut self, state: &S) -> Option<Evaluation<S::Move>> {
        let a = analyse(state, &self.opts, true);
        Some(Evaluation {
            kind: ValueKind::Estimate,
            moves: best_first(a.moves),
        })
    }
}
