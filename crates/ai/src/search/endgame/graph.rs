//! The positions of a table and the moves between them: every chance turn reachable from the
//! seed positions, each with its throws and, after each throw, the ends of the turn the player
//! can choose among.

use std::collections::HashMap;
use std::collections::VecDeque;

use qasab_core::{Essence, EssenceCaps, GameState, Player, Turn};
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::search::hash::{BuildPassHasher, fingerprint};
use crate::search::turn::TurnGraph;

use super::EndgameError;
use super::nodes::Throw;
pub use super::nodes::{Graph, MAX_NODES, SOLVE_BYTES, Target};
use super::partial::{self, Checkpoint};

/// The key of a state already reduced to its essence: the first 16 bytes of the SHA-256 of
/// its position id.
pub fn key_of_essence<S: GameState>(essence: &S) -> [u8; 16] {
    key_of_id(&essence.position_id())
}

/// The key of an essence's position id.
pub(super) fn key_of_id(id: &str) -> [u8; 16] {
    let digest = Sha256::digest(id.as_bytes());
    let mut key = [0u8; 16];
    key.copy_from_slice(&digest[..16]);
    key
}

/// Settings of a build.
#[derive(Clone, Copy, Debug)]
pub struct BuildSettings {
    /// The bounds of the positions' essence.
    pub caps: EssenceCaps,
    /// The most distinct states one turn's enumeration may hold.
    pub turn_states: usize,
    /// The most positions the table may hold.
    pub max_nodes: usize,
    /// The most bytes the build may take ([`Graph::bytes`] and the positions waiting to be
    /// expanded, as ids); `usize::MAX` for no bound.
    pub max_bytes: usize,
}

/// A chance state found by expanding a node, before it is numbered: its essence, the
/// essence's fingerprint, its player to throw and its pieces on the board. Its position id,
/// which the table keeps, is written only if it is new to the table.
pub(super) struct Fresh<S> {
    pub fp: u128,
    pub essence: S,
    pub thrower: Player,
    pub material: (u8, u8),
}

impl<S: Essence> Fresh<S> {
    /// The record of a chance state already reduced to its essence, with its fingerprint.
    pub(super) fn of(e: S, fp: u128) -> Fresh<S> {
        let m = e.material();
        Fresh {
            fp,
            thrower: e.chance_player().unwrap_or(Player::One),
            material: (m.one, m.two),
            essence: e,
        }
    }
}

/// A target found by expanding a node: a chance state (an index into the expansion's
/// [`Fresh`] states, each listed once) or the end of the game.
#[derive(Clone, Copy)]
pub(super) enum Found {
    State(u32),
    End(Target),
}

/// One node's throws, expanded: probability, chooser, targets; the expected number of throws
/// they take; and the chance states they reach, each once.
pub(super) struct Expansion<S> {
    pub throws: Vec<(f64, Option<Player>, Vec<Found>)>,
    pub throw_count: f64,
    pub states: Vec<Fresh<S>>,
}

/// How many positions are expanded together, in parallel, before they are numbered in order.
const BATCH: usize = 256;

/// Expands every chance turn reachable from `seeds` (each reduced to its essence) into the
/// table's graph, with the threads of the current rayon pool; the numbering of the positions
/// does not depend on the threads. `progress` is told the positions found and expanded so far.
/// With a `checkpoint`, the progress is kept in its file as it goes, and a build resumed from
/// it numbers the positions as one that never stopped.
///
/// # Errors
/// A seed that is not a chance turn, a turn too large to enumerate, more positions than
/// `settings.max_nodes`, or a checkpoint file that cannot be written or is not of this build.
pub fn build<S>(
    seeds: &[S],
    settings: BuildSettings,
    checkpoint: Option<&Checkpoint>,
    mut progress: impl FnMut(usize, usize),
) -> Result<Graph, EndgameError>
where
    S: Essence + Clone + std::hash::Hash + Eq + Send + Sync,
{
    let limit = settings.max_nodes.min(MAX_NODES);
    let mut g = Graph::default();
    let mut index: HashMap<u128, u32, BuildPassHasher> = HashMap::default();
    // The positions waiting to be expanded, as the ids of their essences: a tenth of a state.
    let mut queue: Waiting = Waiting::default();
    // Numbers a chance state if it is new; returns its index.
    let add = |fresh: &Fresh<S>,
               g: &mut Graph,
               queue: &mut Waiting,
               index: &mut HashMap<u128, u32, BuildPassHasher>|
     -> Result<u32, EndgameError> {
        if let Some(&i) = index.get(&fresh.fp) {
            return Ok(i);
        }
        if g.keys.len() >= limit {
            return Err(EndgameError::TooLarge { limit });
        }
        let i = g.keys.len() as u32;
        index.insert(fresh.fp, i);
        let id = fresh.essence.position_id();
        g.keys.push(key_of_id(&id));
        g.throwers.push(fresh.thrower);
        g.material.push(fresh.material);
        queue.push(id);
        Ok(i)
    };
    let Some(rules) = seeds.first().map(|s| s.ruleset().clone()) else {
        return Ok(g);
    };
    let mut firsts = Vec::with_capacity(seeds.len());
    for s in seeds {
        if s.turn() != Turn::Chance {
            return Err(EndgameError::NotChance(s.position_id()));
        }
        let e = s.essence(settings.caps);
        let fp = fingerprint(&e);
        firsts.push(Fresh::of(e, fp));
    }
    let identity = identity(&rules.to_string(), settings, &firsts);
    let mut expanded = 0usize;
    let resumed = match checkpoint {
        Some(c) if c.path.exists() => {
            if !c.resume {
                return Err(EndgameError::Io {
                    path: c.path.display().to_string(),
                    why: "it holds a stopped build; resume it, or delete it to start afresh".into(),
                });
            }
            Some(partial::load(&c.path, &identity)?)
        }
        _ => None,
    };
    if let Some(p) = resumed {
        if p.graph.len() > limit {
            return Err(EndgameError::TooLarge { limit });
        }
        (g, index, expanded) = (p.graph, p.index, p.expanded);
        g.earlier_seconds = p.seconds;
        for id in p.waiting {
            queue.push(id.into());
        }
    } else {
        for fresh in &firsts {
            add(fresh, &mut g, &mut queue, &mut index)?;
        }
    }
    let started = std::time::Instant::now();
    let mut saved = started;
    let mut due = false;
    while !queue.is_empty() {
        let batch = queue.take(BATCH);
        let expansions: Vec<Expansion<S>> = batch
            .par_iter()
            .map(|id| {
                let s = S::from_essence_id(&rules, id)
                    .map_err(|e| EndgameError::Position(format!("a waiting position: {e}")))?;
                expand(&s, settings)
            })
            .collect::<Result<_, _>>()?;
        for mut expansion in expansions {
            let start = g.throws.len() as u32;
            g.throw_count.push(expansion.throw_count);
            // A choice's targets are a set (ends of a turn can share an essence), and throws
            // with the same chooser and the same targets are one entry, their chances added:
            // the values are the same, the graph smaller.
            let mut seen: HashMap<(Option<Player>, Vec<u32>), usize> = HashMap::new();
            let mut numbered: Vec<Option<u32>> = vec![None; expansion.states.len()];
            for (weight, chooser, found) in std::mem::take(&mut expansion.throws) {
                let mut targets = Vec::with_capacity(found.len());
                for f in found {
                    targets.push(match f {
                        Found::State(k) => match numbered[k as usize] {
                            Some(i) => i,
                            None => {
                                let fresh = &expansion.states[k as usize];
                                let i = add(fresh, &mut g, &mut queue, &mut index)?;
                                numbered[k as usize] = Some(i);
                                i
                            }
                        },
                        Found::End(t) => {
                            g.limits |= t == Target::Limit;
                            t.pack()
                        }
                    });
                }
                targets.sort_unstable();
                targets.dedup();
                match seen.entry((chooser, targets)) {
                    std::collections::hash_map::Entry::Occupied(at) => {
                        g.throws[*at.get()].weight += weight;
                    }
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        let t_start = g.targets.len() as u32;
                        g.targets.extend_from_slice(&slot.key().1);
                        g.throws.push(Throw {
                            weight,
                            chooser,
                            start: t_start,
                            end: g.targets.len() as u32,
                        });
                        slot.insert(g.throws.len() - 1);
                    }
                }
            }
            g.node_throws.push((start, g.throws.len() as u32));
            expanded += 1;
        }
        let bytes = g.bytes() + queue.bytes();
        if bytes > settings.max_bytes {
            return Err(EndgameError::TooMuchMemory {
                limit: settings.max_bytes,
                positions: g.keys.len(),
                waiting: queue.len(),
            });
        }
        progress(g.keys.len(), expanded);
        if let Some(c) = checkpoint {
            due |= saved.elapsed() >= c.every;
            // Written when due, and once more when the graph is complete (if any write was
            // due by then), so that a build stopped while solving need not expand again.
            if due && (saved.elapsed() >= c.every || queue.is_empty()) {
                partial::save(
                    &c.path,
                    &identity,
                    &g,
                    &index,
                    queue.ids.iter().map(|id| &**id),
                    expanded,
                    g.earlier_seconds + started.elapsed().as_secs_f64(),
                )?;
                saved = std::time::Instant::now();
            }
        }
    }
    Ok(g)
}

/// What a build is, for its checkpoint: the SHA-256 of the ruleset, the caps, the turn cap
/// and the seeds' essences and fingerprints, in order. The checkpoint finds positions by
/// fingerprint, so a stopped build made by a version that fingerprinted states otherwise is
/// another build, refused rather than resumed wrongly.
fn identity<S: Essence>(rules: &str, settings: BuildSettings, seeds: &[Fresh<S>]) -> [u8; 32] {
    let mut d = Sha256::new();
    let caps = settings.caps;
    d.update(format!(
        "{rules}\nbank {} counts {} pending {} turn states {}\n",
        caps.bank, caps.counts, caps.pending, settings.turn_states
    ));
    for s in seeds {
        d.update(s.essence.position_id().as_bytes());
        d.update(s.fp.to_le_bytes());
        d.update(b"\n");
    }
    d.finalize().into()
}

/// The positions waiting to be expanded, first in first out, as the position ids of their
/// essences ([`Essence::from_essence_id`] reads them back), with the bytes they take.
#[derive(Default)]
struct Waiting {
    ids: VecDeque<Box<str>>,
    bytes: usize,
}

impl Waiting {
    fn push(&mut self, id: String) {
        self.bytes += id.len() + std::mem::size_of::<Box<str>>();
        self.ids.push_back(id.into_boxed_str());
    }

    fn take(&mut self, n: usize) -> Vec<Box<str>> {
        let taken: Vec<Box<str>> = self.ids.drain(..self.ids.len().min(n)).collect();
        self.bytes -= taken
            .iter()
            .map(|id| id.len() + std::mem::size_of::<Box<str>>())
            .sum::<usize>();
        taken
    }

    fn len(&self) -> usize {
        self.ids.len()
    }

    fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    fn bytes(&self) -> usize {
        self.bytes
    }
}

/// A chance state's throws and, after each, what the player can reach. Throws within a turn
/// ([`Essence::within_turn`]: Lane's accumulated throws) are thrown on here rather than kept
/// as positions: the states the turn's throws pass through form a graph that only grows (the
/// pending throws), save where a throw leaves the essence as it was (a count at its cap), so
/// the chance of each way the throws end is exact: each state's chance flows to its successors
/// in order, a throw that changes nothing only scaling the others.
pub(super) fn expand<S>(s: &S, settings: BuildSettings) -> Result<Expansion<S>, EndgameError>
where
    S: Essence + Clone + std::hash::Hash + Eq,
{
    // The chance states reached, each listed once.
    let mut fresh: Vec<Fresh<S>> = Vec::new();
    let mut listed: HashMap<u128, u32, BuildPassHasher> = HashMap::default();
    let mut found = |end: &S| -> Result<Found, EndgameError> {
        match end.turn() {
            Turn::Over(o) => Ok(Found::End(over_target(&o))),
            Turn::Chance => {
                let e = end.essence(settings.caps);
                let fp = fingerprint(&e);
                let k = *listed.entry(fp).or_insert_with(|| {
                    fresh.push(Fresh::of(e, fp));
                    (fresh.len() - 1) as u32
                });
                Ok(Found::State(k))
            }
            Turn::Player(_) => Err(EndgameError::NotChance(end.position_id())),
        }
    };
    // The states within the turn, from `s`: each with the throws that lead on within the turn
    // (index, weight), the weight of the throws that leave it unchanged, its total weight, and
    // the throws that end the turn's throwing.
    struct Within<S> {
        state: S,
        on: Vec<(usize, u32)>,
        same: u32,
        total: u32,
        ends: Vec<(u32, Option<Player>, Vec<Found>)>,
    }
    let mut states: Vec<Within<S>> = Vec::new();
    let mut index: HashMap<u128, usize, BuildPassHasher> = HashMap::default();
    let root = s.essence(settings.caps);
    index.insert(fingerprint(&root), 0);
    states.push(Within {
        state: root,
        on: Vec::new(),
        same: 0,
        total: 0,
        ends: Vec::new(),
    });
    let mut outs = Vec::new();
    let mut next = 0;
    while next < states.len() {
        let i = next;
        next += 1;
        let state = states[i].state.clone();
        state.chance_outcomes(&mut outs);
        for w in &outs {
            states[i].total += w.weight;
            let mut child = state.clone();
            child.apply_chance_unchecked(w.outcome);
            match child.turn() {
                Turn::Chance if child.within_turn() => {
                    let e = child.essence(settings.caps);
                    let fp = fingerprint(&e);
                    match index.get(&fp) {
                        Some(&j) if j == i => states[i].same += w.weight,
                        Some(&j) => states[i].on.push((j, w.weight)),
                        None => {
                            let j = states.len();
                            index.insert(fp, j);
                            states.push(Within {
                                state: e,
                                on: Vec::new(),
                                same: 0,
                                total: 0,
                                ends: Vec::new(),
                            });
                            states[i].on.push((j, w.weight));
                        }
                    }
                }
                Turn::Player(p) => {
                    let turn = TurnGraph::new(&child, settings.turn_states);
                    if !turn.is_complete() {
                        return Err(EndgameError::TurnTooLarge {
                            position: child.position_id(),
                            cap: settings.turn_states,
                        });
                    }
                    let ends = turn.ends().map(&mut found).collect::<Result<Vec<_>, _>>()?;
                    states[i].ends.push((w.weight, Some(p), ends));
                }
                _ => states[i].ends.push((w.weight, None, vec![found(&child)?])),
            }
        }
    }
    // The chance of reaching each state, in an order where every state comes after those that
    // lead to it (the pending throws only grow).
    let mut into = vec![0usize; states.len()];
    for st in &states {
        for &(j, _) in &st.on {
            into[j] += 1;
        }
    }
    let mut reach = vec![0.0f64; states.len()];
    reach[0] = 1.0;
    let mut ready = vec![0usize];
    let (mut expansion, mut throws, mut done) = (Vec::new(), 0.0, 0);
    while let Some(i) = ready.pop() {
        done += 1;
        let st = &mut states[i];
        let leaving = f64::from(st.total - st.same);
        if leaving == 0.0 {
            return Err(EndgameError::Position(format!(
                "from {} every throw leaves the position as it was",
                st.state.position_id()
            )));
        }
        // Each visit is a throw; a throw that changes nothing is thrown again.
        throws += reach[i] * f64::from(st.total) / leaving;
        for (weight, chooser, ends) in std::mem::take(&mut st.ends) {
            expansion.push((reach[i] * f64::from(weight) / leaving, chooser, ends));
        }
        let share = reach[i] / leaving;
        for &(j, weight) in &states[i].on {
            reach[j] += share * f64::from(weight);
            into[j] -= 1;
            if into[j] == 0 {
                ready.push(j);
            }
        }
    }
    if done != states.len() {
        return Err(EndgameError::Position(format!(
            "the throws of a turn from {} come back to a position they left",
            s.position_id()
        )));
    }
    Ok(Expansion {
        throws: expansion,
        throw_count: throws,
        states: fresh,
    })
}

/// The target of a game over: the rules' result, or a limit.
fn over_target(o: &qasab_core::Outcome) -> Target {
    if o.reason.is_truncation() {
        Target::Limit
    } else {
        Target::Over(o.winner)
    }
}
