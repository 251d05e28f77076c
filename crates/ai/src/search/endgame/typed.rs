//! Building, probing and verifying a table for the game of a dynamic ruleset.

use std::time::Instant;

use qasab_core::endgame::{EssenceWork, with_essence};
use qasab_core::{
    AnyRuleset, ByPlayer, Essence, EssenceCaps, GameState, Player, Registered, Ruleset, Turn,
};

use super::EndgameError;
use super::file::{Certainty, Entry, Header, INDEX, TableFile};
use super::graph::{self, BuildSettings, Found, Graph, Target, key_of_essence};
use super::partial::Checkpoint;
use super::solve::{self, Solution};
use crate::search::turn::TurnGraph;

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildSpec {
    /// The ids of the positions whose reachable positions the table holds.
    pub seeds: Vec<String>,
    /// Instead of `seeds`: every position with at most these pieces (White's, Black's) on
    /// the board, as the game lists them ([`Essence::placements`]).
    pub pieces: Option<[u8; 2]>,
    /// Banked tâbs beyond this many count as this many.
    pub bank_cap: u16,
    /// Ludii's track counts beyond this size count as this size.
    pub count_cap: i32,
    /// A turn's pending throws of one kind beyond this many, while it throws on, count as
    /// this many (accumulated throws, L-5).
    pub pending_cap: u8,
    /// The value iteration stops when no value moves by more than this in a sweep.
    pub tolerance: f64,
    /// The most sweeps of one pass.
    pub max_sweeps: u64,
    /// The most positions the table may hold.
    pub max_positions: usize,
    /// The most bytes the build may take (the graph, the positions waiting to be expanded and
    /// what solving adds); `usize::MAX` for no bound.
    pub max_bytes: usize,
    /// The most distinct states one turn may hold.
    pub turn_states: usize,
    /// Where the build keeps its progress as it goes, to resume it if it stops.
    pub checkpoint: Option<Checkpoint>,
}

impl Default for BuildSpec {
    fn default() -> Self {
        BuildSpec {
            seeds: Vec::new(),
            pieces: None,
            bank_cap: EssenceCaps::default().bank,
            count_cap: EssenceCaps::default().counts,
            pending_cap: EssenceCaps::default().pending,
            tolerance: 1e-12,
            max_sweeps: 1_000_000,
            max_positions: 20_000_000,
            max_bytes: usize::MAX,
            turn_states: 1 << 16,
            checkpoint: None,
        }
    }
}

/// How far a build has come.
#[derive(Clone, Copy, Debug)]
pub enum Progress {
    /// Positions found and expanded so far.
    Expand {
        /// Positions found.
        found: usize,
        /// Positions expanded.
        expanded: usize,
    },
    /// A sweep of the value iteration made: where it stands.
    Solve(solve::SolveStep),
}

/// A built table, ready to be written.
#[derive(Clone, Debug)]
pub struct Built {
    /// What the table holds and how it was made.
    pub header: Header,
    /// Each position's key and values.
    pub entries: Vec<([u8; 16], Entry)>,
}

/// Builds the table of every position reachable from `spec.seeds` under `rules`.
///
/// # Errors
/// A ruleset without tables, a bad seed, or any [`EndgameError`] of the build.
pub fn build(
    rules: &AnyRuleset,
    spec: &BuildSpec,
    progress: &mut dyn FnMut(Progress),
) -> Result<Built, EndgameError> {
    struct Work<'a> {
        spec: &'a BuildSpec,
        progress: &'a mut dyn FnMut(Progress),
    }
    impl EssenceWork for Work<'_> {
        type Output = Result<Built, EndgameError>;
        fn run<S: Essence + Registered + std::hash::Hash + Eq + Send + Sync>(
            self,
            rules: &S::Ruleset,
        ) -> Self::Output {
            build_typed::<S>(rules, self.spec, self.progress)
        }
    }
    with_essence(rules, Work { spec, progress })
        .unwrap_or_else(|| Err(EndgameError::NoTables(rules.to_string())))
}

fn settings(spec: &BuildSpec) -> BuildSettings {
    BuildSettings {
        caps: EssenceCaps {
            bank: spec.bank_cap,
            counts: spec.count_cap,
            pending: spec.pending_cap,
        },
        turn_states: spec.turn_states,
        max_nodes: spec.max_positions,
        max_bytes: spec.max_bytes,
    }
}

/// The seed positions of a table: every placement of at most `pieces`, or the positions of
/// `ids`.
fn seeds_for<S: Essence>(
    rules: &S::Ruleset,
    pieces: Option<[u8; 2]>,
    caps: EssenceCaps,
    ids: &[String],
) -> Result<Vec<S>, EndgameError> {
    let Some([w, b]) = pieces else {
        return seeds_of(rules, ids);
    };
    let mut seeds = Vec::new();
    for white in 1..=w {
        for black in 1..=b {
            S::placements(rules, ByPlayer::new(white, black), caps, &mut |s| {
                seeds.push(s)
            })
            .map_err(EndgameError::Position)?;
        }
    }
    Ok(seeds)
}

fn seeds_of<S: GameState>(rules: &S::Ruleset, ids: &[String]) -> Result<Vec<S>, EndgameError> {
    ids.iter()
        .map(|id| {
            rules
                .state_from_id(id)
                .map_err(|e| EndgameError::Position(e.to_string()))
        })
        .collect()
}

fn build_typed<S>(
    rules: &S::Ruleset,
    spec: &BuildSpec,
    progress: &mut dyn FnMut(Progress),
) -> Result<Built, EndgameError>
where
    S: Essence + std::hash::Hash + Eq + Send + Sync,
{
    let started = Instant::now();
    let seeds: Vec<S> = seeds_for(rules, spec.pieces, settings(spec).caps, &spec.seeds)?;
    let g = graph::build(
        &seeds,
        settings(spec),
        spec.checkpoint.as_ref(),
        |found, expanded| progress(Progress::Expand { found, expanded }),
    )?;
    let sol = solve::solve(&g, spec.tolerance, spec.max_sweeps, |step| {
        progress(Progress::Solve(step))
    })?;
    let entries: Vec<([u8; 16], Entry)> = (0..g.len())
        .map(|i| (g.keys[i], entry(&g, &sol, i)))
        .collect();
    let mut pieces = [0u8; 2];
    for s in &seeds {
        let m = s.material();
        pieces = [pieces[0].max(m.one), pieces[1].max(m.two)];
    }
    let pieces = spec.pieces.unwrap_or(pieces);
    let (mut wins, mut losses, mut draws, mut mixed) = (0, 0, 0, 0);
    for (_, e) in &entries {
        match e.certainty() {
            Certainty::Win => wins += 1,
            Certainty::Loss => losses += 1,
            Certainty::Draw => draws += 1,
            Certainty::Mixed => mixed += 1,
        }
    }
    let header = Header {
        ruleset: rules.to_string(),
        domain: if spec.pieces.is_some() {
            "pieces"
        } else {
            "from"
        }
        .into(),
        pieces,
        seeds: if spec.pieces.is_some() {
            Vec::new()
        } else {
            spec.seeds.clone()
        },
        bank_cap: spec.bank_cap,
        count_cap: spec.count_cap,
        pending_cap: spec.pending_cap,
        index: INDEX.into(),
        positions: entries.len() as u64,
        tolerance: spec.tolerance,
        residual: sol.residual,
        limits: g.limits,
        build_seconds: g.earlier_seconds + started.elapsed().as_secs_f64(),
        wins,
        losses,
        draws,
        mixed,
        longest_win_throws: longest_win(&g, &sol, spec.max_sweeps),
    };
    Ok(Built { header, entries })
}

/// Node `i`'s values for its player to throw.
fn entry(g: &Graph, sol: &Solution, i: usize) -> Entry {
    let (lo, hi, w, b) = (sol.lo[i], sol.hi[i], sol.white_wins[i], sol.black_wins[i]);
    let (value, value_hi, win, loss) = match g.throwers[i] {
        Player::One => (lo, hi, w, b),
        Player::Two => (-hi, -lo, b, w),
    };
    Entry {
        value: value as f32,
        value_hi: value_hi as f32,
        win: win as f32,
        loss: loss as f32,
    }
}

/// The largest expected number of throws a certain win takes from a position of the table,
/// the winner taking among his moves of certain win the quickest, the loser the slowest;
/// `None` if no position is a certain win or the expectation does not settle.
fn longest_win(g: &Graph, sol: &Solution, max_sweeps: u64) -> Option<f64> {
    let sure = |i: usize, p: Player| match p {
        Player::One => sol.white_wins[i] >= 1.0 - 1e-9,
        Player::Two => sol.black_wins[i] >= 1.0 - 1e-9,
    };
    let winner = |i: usize| [Player::One, Player::Two].into_iter().find(|&p| sure(i, p));
    let won: Vec<usize> = (0..g.len()).filter(|&i| winner(i).is_some()).collect();
    if won.is_empty() {
        return None;
    }
    let mut e = vec![0.0f64; g.len()];
    for _ in 0..max_sweeps.min(100_000) {
        let mut change: f64 = 0.0;
        for &i in &won {
            let w = winner(i).expect("a certain win");
            let mut total = 0.0;
            let mut sum = 0.0;
            for (weight, chooser, targets) in g.throws_of(i) {
                let steps = targets.iter().filter_map(|&t| match Target::unpack(t) {
                    Target::Node(j) if sure(j as usize, w) => Some(e[j as usize]),
                    Target::Over(Some(p)) if p == w => Some(0.0),
                    _ => None,
                });
                let pick = if chooser.unwrap_or(w) == w {
                    steps.fold(f64::INFINITY, f64::min)
                } else {
                    steps.fold(f64::NEG_INFINITY, f64::max)
                };
                sum += weight * pick;
                total += weight;
            }
            let new = g.throw_count[i] + sum / total;
            if !new.is_finite() {
                return None;
            }
            change = change.max((new - e[i]).abs());
            e[i] = new;
        }
        if change <= 1e-9 {
            return won.iter().map(|&i| e[i]).reduce(f64::max);
        }
    }
    None
}

/// A decision's exact value, for the player who makes it.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbedMove {
    /// The move in the game's notation.
    pub text: String,
    /// Its value: +1 a certain win, −1 a certain loss, 0 a draw or play that never ends.
    pub value: f64,
}

/// What a table says of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// The player to throw or to move.
    pub player: Player,
    /// Whether it is a chance turn (the values are the table's own) or a player's turn (the
    /// values come from the ends of the turn).
    pub chance: bool,
    /// The value for `player`.
    pub value: f64,
    /// The value with the safety limits counted as `player`'s wins (equal to `value` where no
    /// limit can be reached).
    pub value_hi: f64,
    /// At a chance turn: `player`'s chance to win under optimal play.
    pub win: Option<f64>,
    /// At a chance turn: `player`'s chance to lose under optimal play.
    pub loss: Option<f64>,
    /// At a player's turn: every legal decision with its value, in move order.
    pub moves: Vec<ProbedMove>,
}

/// The table's answer for the position `id`.
///
/// # Errors
/// A table of another ruleset, a bad id, or a position outside the table
/// ([`EndgameError::NotInTable`]).
pub fn probe(table: &TableFile, rules: &AnyRuleset, id: &str) -> Result<Probe, EndgameError> {
    struct Work<'a> {
        table: &'a TableFile,
        id: &'a str,
    }
    impl EssenceWork for Work<'_> {
        type Output = Result<Probe, EndgameError>;
        fn run<S: Essence + Registered + std::hash::Hash + Eq + Send + Sync>(
            self,
            rules: &S::Ruleset,
        ) -> Self::Output {
            let s = rules
                .state_from_id(self.id)
                .map_err(|e| EndgameError::Position(e.to_string()))?;
            probe_state(self.table, &s)
        }
    }
    check_ruleset(table, &rules.to_string())?;
    with_essence(rules, Work { table, id })
        .unwrap_or_else(|| Err(EndgameError::NoTables(rules.to_string())))
}

/// Refuses a table made for another ruleset than `rules` (a canonical string).
fn check_ruleset(table: &TableFile, rules: &str) -> Result<(), EndgameError> {
    if table.header.ruleset != rules {
        return Err(EndgameError::OtherRuleset {
            table: table.header.ruleset.clone(),
            asked: rules.to_string(),
        });
    }
    Ok(())
}

/// The table's answer for a state of its ruleset.
///
/// # Errors
/// [`EndgameError::NotInTable`] if the position (or an end of its turn) is not in the table.
pub fn probe_state<S>(table: &TableFile, state: &S) -> Result<Probe, EndgameError>
where
    S: Essence + std::hash::Hash + Eq,
{
    probe_typed(table, state).map(|(probe, _)| probe)
}

/// A probe's answer with the decisions of a player's turn as moves, in move order, with their
/// values (none at a chance turn).
pub type TypedProbe<M> = (Probe, Vec<(M, f64)>);

/// [`probe_state`] with the decisions of a player's turn as moves, in move order, with their
/// values.
///
/// # Errors
/// As [`probe_state`].
pub fn probe_typed<S>(table: &TableFile, state: &S) -> Result<TypedProbe<S::Move>, EndgameError>
where
    S: Essence + std::hash::Hash + Eq,
{
    // A position id does not name its ruleset, so the same id under another reading would
    // find an entry solved for other rules.
    check_ruleset(table, &state.ruleset().to_string())?;
    let caps = table.header.caps();
    let lookup = |s: &S| -> Result<Entry, EndgameError> {
        table
            .find(&key_of_essence(&s.essence(caps)))
            .ok_or_else(|| EndgameError::NotInTable(s.position_id()))
    };
    match state.turn() {
        Turn::Over(o) => Err(EndgameError::Position(format!(
            "the game is over ({})",
            o.reason.name()
        ))),
        Turn::Chance if state.within_turn() => Ok((probe_within_turn(table, state)?, Vec::new())),
        Turn::Chance => {
            let e = lookup(state)?;
            let probe = Probe {
                player: state.chance_player().unwrap_or(Player::One),
                chance: true,
                value: f64::from(e.value),
                value_hi: f64::from(e.value_hi),
                win: Some(f64::from(e.win)),
                loss: Some(f64::from(e.loss)),
                moves: Vec::new(),
            };
            Ok((probe, Vec::new()))
        }
        Turn::Player(p) => {
            // The counters of the limits are dropped first (the tables solve the game without
            // them); the pieces keep their numbers, so the decisions are the state's own.
            let root = state.unlimited();
            let turn = TurnGraph::new(&root, 1 << 16);
            if !turn.is_complete() {
                return Err(EndgameError::TurnTooLarge {
                    position: state.position_id(),
                    cap: 1 << 16,
                });
            }
            let mut lo = Vec::with_capacity(turn.end_count());
            let mut hi = Vec::with_capacity(turn.end_count());
            for end in turn.ends() {
                let (a, b) = match end.turn() {
                    Turn::Over(o) if o.reason.is_truncation() => (-1.0, 1.0),
                    Turn::Over(o) => {
                        let v = match o.winner {
                            None => 0.0,
                            Some(w) if w == p => 1.0,
                            Some(_) => -1.0,
                        };
                        (v, v)
                    }
                    _ => lookup(end)?.bounds_for(end.chance_player().unwrap_or(Player::One), p),
                };
                lo.push(a);
                hi.push(b);
            }
            let typed = turn.root_values(&lo);
            let moves: Vec<ProbedMove> = typed
                .iter()
                .map(|&(m, v)| ProbedMove {
                    text: m.to_string(),
                    value: v,
                })
                .collect();
            let value = moves
                .iter()
                .map(|m| m.value)
                .fold(f64::NEG_INFINITY, f64::max);
            let value_hi = turn
                .root_values(&hi)
                .into_iter()
                .map(|(_, v)| v)
                .fold(f64::NEG_INFINITY, f64::max);
            Ok((
                Probe {
                    player: p,
                    chance: false,
                    value,
                    value_hi,
                    win: None,
                    loss: None,
                    moves,
                },
                typed,
            ))
        }
    }
}

/// The table's answer at a throw within a turn (Lane's accumulated throws), which the table
/// does not keep: the turn's throws are thrown on from here as a build throws them, and each
/// way they can end is valued from the table's entries of the turn's ends, with the solver's
/// rules (the chooser's best value; among his best, his best chance to win).
fn probe_within_turn<S>(table: &TableFile, state: &S) -> Result<Probe, EndgameError>
where
    S: Essence + std::hash::Hash + Eq,
{
    let settings = BuildSettings {
        caps: table.header.caps(),
        turn_states: 1 << 16,
        max_nodes: usize::MAX,
        max_bytes: usize::MAX,
    };
    let expansion = graph::expand(state, settings)?;
    // A target from White's side: value (limits as White's losses and as his wins), and each
    // side's chance to win.
    let white = Player::One;
    let (mut lo, mut hi, mut win_w, mut win_b) = (0.0, 0.0, 0.0, 0.0);
    for (weight, chooser, found) in &expansion.throws {
        let mut values = Vec::with_capacity(found.len());
        for f in found {
            values.push(match f {
                Found::State(k) => {
                    let fresh = &expansion.states[*k as usize];
                    let id = fresh.essence.position_id();
                    let entry = table
                        .find(&graph::key_of_id(&id))
                        .ok_or(EndgameError::NotInTable(id))?;
                    let (lo, hi) = entry.bounds_for(fresh.thrower, white);
                    let (w, l) = (f64::from(entry.win), f64::from(entry.loss));
                    if fresh.thrower == white {
                        (lo, hi, w, l)
                    } else {
                        (lo, hi, l, w)
                    }
                }
                Found::End(Target::Over(Some(p))) => {
                    let v = if *p == white { 1.0 } else { -1.0 };
                    (
                        v,
                        v,
                        f64::from(u8::from(*p == white)),
                        f64::from(u8::from(*p != white)),
                    )
                }
                Found::End(Target::Limit) => (-1.0, 1.0, 0.0, 0.0),
                Found::End(_) => (0.0, 0.0, 0.0, 0.0),
            });
        }
        let by_white = chooser.unwrap_or(white) == white;
        let pick = |a: f64, b: f64| if by_white { a.max(b) } else { a.min(b) };
        let start = if by_white {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let best = values.iter().map(|v| v.0).fold(start, pick);
        let best_hi = values.iter().map(|v| v.1).fold(start, pick);
        let optimal = || values.iter().filter(|v| (v.0 - best).abs() <= solve::TIE);
        let (ww, wb) = if by_white {
            (
                optimal().map(|v| v.2).fold(f64::NEG_INFINITY, f64::max),
                optimal().map(|v| v.3).fold(f64::INFINITY, f64::min),
            )
        } else {
            (
                optimal().map(|v| v.2).fold(f64::INFINITY, f64::min),
                optimal().map(|v| v.3).fold(f64::NEG_INFINITY, f64::max),
            )
        };
        lo += weight * best;
        hi += weight * best_hi;
        win_w += weight * ww;
        win_b += weight * wb;
    }
    let player = state.chance_player().unwrap_or(white);
    let (value, value_hi, win, loss) = if player == white {
        (lo, hi, win_w, win_b)
    } else {
        (-hi, -lo, win_b, win_w)
    };
    Ok(Probe {
        player,
        chance: true,
        value,
        value_hi,
        win: Some(win),
        loss: Some(loss),
        moves: Vec::new(),
    })
}

/// What [`verify`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyReport {
    /// Positions checked (all of the table's).
    pub positions: usize,
    /// The largest difference between a stored value and one Bellman step from the stored
    /// values of its successors.
    pub max_error: f64,
    /// The tolerance the check allows: the stored values are 32-bit floats.
    pub tolerance: f64,
}

/// The tolerance of [`verify`]: a value stored as a 32-bit float is within 6e-8 of the
/// computed one, and a Bellman step averages such values.
pub const VERIFY_TOLERANCE: f64 = 1e-6;

/// Rebuilds the table's positions from its seeds and checks that they are exactly the stored
/// ones and that every stored value is one Bellman step from the stored values of its
/// successors.
///
/// # Errors
/// [`EndgameError::Corrupt`] naming the first position that fails, or the errors of a build.
pub fn verify(table: &TableFile, path: &str) -> Result<VerifyReport, EndgameError> {
    struct Work<'a> {
        table: &'a TableFile,
        path: &'a str,
    }
    impl EssenceWork for Work<'_> {
        type Output = Result<VerifyReport, EndgameError>;
        fn run<S: Essence + Registered + std::hash::Hash + Eq + Send + Sync>(
            self,
            rules: &S::Ruleset,
        ) -> Self::Output {
            verify_typed::<S>(self.table, rules, self.path)
        }
    }
    let rules: AnyRuleset = table
        .header
        .ruleset
        .parse()
        .map_err(|e| EndgameError::Corrupt {
            path: path.to_string(),
            why: format!("its ruleset: {e}"),
        })?;
    with_essence(&rules, Work { table, path })
        .unwrap_or_else(|| Err(EndgameError::NoTables(rules.to_string())))
}

fn verify_typed<S>(
    table: &TableFile,
    rules: &S::Ruleset,
    path: &str,
) -> Result<VerifyReport, EndgameError>
where
    S: Essence + std::hash::Hash + Eq + Send + Sync,
{
    let corrupt = |why: String| EndgameError::Corrupt {
        path: path.to_string(),
        why,
    };
    let h = &table.header;
    let pieces = (h.domain == "pieces").then_some(h.pieces);
    let spec = BuildSpec {
        bank_cap: h.bank_cap,
        count_cap: h.count_cap,
        pending_cap: h.pending_cap,
        max_positions: h.positions as usize,
        ..BuildSpec::default()
    };
    let seeds: Vec<S> = seeds_for(rules, pieces, settings(&spec).caps, &h.seeds)?;
    let g = graph::build(&seeds, settings(&spec), None, |_, _| {})
        .map_err(|e| corrupt(format!("its positions cannot be rebuilt: {e}")))?;
    if g.len() != table.len() {
        return Err(corrupt(format!(
            "it holds {} positions; its seeds reach {}",
            table.len(),
            g.len()
        )));
    }
    // The stored values, back on White's side, by node.
    let mut lo = vec![0.0; g.len()];
    let mut hi = vec![0.0; g.len()];
    for i in 0..g.len() {
        let e = table
            .find(&g.keys[i])
            .ok_or_else(|| corrupt(format!("a position its seeds reach is missing (node {i})")))?;
        let (a, b) = (f64::from(e.value), f64::from(e.value_hi));
        (lo[i], hi[i]) = match g.throwers[i] {
            Player::One => (a, b),
            Player::Two => (-b, -a),
        };
        for x in [e.value, e.value_hi, e.win, e.loss] {
            if !(-1.0..=1.0).contains(&x) {
                return Err(corrupt(format!("a value out of range at node {i}: {x}")));
            }
        }
    }
    let mut max_error: f64 = 0.0;
    for i in 0..g.len() {
        let err = (solve::backup(&g, i, &lo, -1.0) - lo[i])
            .abs()
            .max((solve::backup(&g, i, &hi, 1.0) - hi[i]).abs());
        max_error = max_error.max(err);
        if err > VERIFY_TOLERANCE {
            return Err(corrupt(format!(
                "the value of node {i} is {:.9}, one Bellman step from its successors gives {:.9}",
                lo[i],
                solve::backup(&g, i, &lo, -1.0)
            )));
        }
    }
    Ok(VerifyReport {
        positions: g.len(),
        max_error,
        tolerance: VERIFY_TOLERANCE,
    })
}

/// The environment variable naming a directory of tables, read by the front ends (the
/// command line and Python) where no directory is given.
pub const TABLES_ENV: &str = "QASAB_TABLES";

/// The tables of one ruleset found in a directory: every `*.qeg` file whose header names the
/// ruleset. A position is looked up in each in turn.
#[derive(Clone, Debug)]
pub struct TableSet {
    rules: AnyRuleset,
    tables: Vec<(String, TableFile)>,
}

impl TableSet {
    /// Opens every table of `rules` in `dir` (files ending in `.qeg`, in name order), each
    /// checked as [`TableFile::open`] checks it.
    ///
    /// # Errors
    /// The directory cannot be read, or one of its tables is damaged.
    pub fn open_dir(dir: &std::path::Path, rules: &AnyRuleset) -> Result<TableSet, EndgameError> {
        let io = |e: std::io::Error| EndgameError::Io {
            path: dir.display().to_string(),
            why: e.to_string(),
        };
        let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
            .map_err(io)?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(io)?;
        paths.retain(|p| p.extension().is_some_and(|x| x == "qeg"));
        paths.sort();
        let want = rules.to_string();
        let mut tables = Vec::new();
        for path in paths {
            let table = TableFile::open(&path)?;
            if table.header.ruleset == want {
                tables.push((path.display().to_string(), table));
            }
        }
        Ok(TableSet {
            rules: rules.clone(),
            tables,
        })
    }

    /// The files opened, in the order they are searched.
    pub fn files(&self) -> impl Iterator<Item = &str> {
        self.tables.iter().map(|(p, _)| p.as_str())
    }

    /// The answer of the first table that holds `state` (of the set's ruleset), with the
    /// decisions of a player's turn as moves.
    ///
    /// # Errors
    /// [`EndgameError::NotInTable`] if no table holds it.
    pub fn probe_typed<S>(&self, state: &S) -> Result<TypedProbe<S::Move>, EndgameError>
    where
        S: Essence + std::hash::Hash + Eq,
    {
        for (_, table) in &self.tables {
            match probe_typed(table, state) {
                Err(EndgameError::NotInTable(_)) => continue,
                answer => return answer,
            }
        }
        Err(EndgameError::NotInTable(state.position_id()))
    }

    /// Whether the set holds no table.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The ruleset of the set's tables.
    pub fn rules(&self) -> &AnyRuleset {
        &self.rules
    }

    /// The answer of the first table that holds the position `id`.
    ///
    /// # Errors
    /// A bad id, or [`EndgameError::NotInTable`] if no table holds it.
    pub fn probe(&self, id: &str) -> Result<Probe, EndgameError> {
        for (_, table) in &self.tables {
            match probe(table, &self.rules, id) {
                Err(EndgameError::NotInTable(_)) => continue,
                answer => return answer,
            }
        }
        Err(EndgameError::NotInTable(id.to_string()))
    }
}

/// About the bytes a position waiting to be expanded takes while a table of the game of
/// `rules` is built (the id of its essence, as the start's), if the game has tables.
pub fn waiting_bytes(rules: &AnyRuleset) -> Option<usize> {
    struct Work;
    impl EssenceWork for Work {
        type Output = usize;
        fn run<S: Essence + Registered + std::hash::Hash + Eq + Send + Sync>(
            self,
            rules: &S::Ruleset,
        ) -> usize {
            let start = rules.initial_state().essence(EssenceCaps::default());
            start.position_id().len() + std::mem::size_of::<Box<str>>()
        }
    }
    with_essence(rules, Work)
}
