//! The schedule of a round robin: its pairings, their game pairs numbered as units across the
//! pairings, the players' labels, and the seeds of every game pair (see "Schedule" and "Seeds"
//! in the docs of `play::arena`).

use std::collections::HashMap;

use qasab_core::GameState;

use super::options::ArenaOptions;
use crate::players::PreparedAgent;
use crate::rng::derive_seed;
use crate::spec::AgentSpec;

/// Every pairing of `players` players, `(i, j)` with `i < j`, in the arena's order.
pub fn pairings(players: usize) -> Vec<(usize, usize)> {
    (0..players)
        .flat_map(|i| (i + 1..players).map(move |j| (i, j)))
        .collect()
}

/// The label of each player: its spec in canonical form (`random(seed=3)`). A spec that occurs
/// more than once is numbered in order of appearance, `random#1`, `random#2`, so that every
/// label names one player.
pub fn labels(specs: &[AgentSpec]) -> Vec<String> {
    let names: Vec<String> = specs.iter().map(ToString::to_string).collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for n in &names {
        *counts.entry(n).or_default() += 1;
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    names
        .iter()
        .map(|n| {
            if counts[n.as_str()] == 1 {
                n.clone()
            } else {
                let k = seen.entry(n).or_default();
                *k += 1;
                format!("{n}#{k}")
            }
        })
        .collect()
}

/// The seeds of one game pair (see "Seeds" in the docs of `play::arena`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PairSeeds {
    /// The chance seed both games draw their throws from.
    pub chance: u64,
    /// A's agent seed, in both games.
    pub a: u64,
    /// B's agent seed, in both games.
    pub b: u64,
}

impl PairSeeds {
    /// The seeds of game pair `k` between players `players = [i, j]` (`i` is A) of the arena
    /// with seed `seed`, whose base seeds are `bases` ([`player_base_seed`]).
    pub fn new(seed: u64, players: [usize; 2], bases: [u64; 2], k: u64) -> PairSeeds {
        let [i, j] = players.map(|p| p as u64);
        PairSeeds {
            chance: derive_seed(derive_seed(derive_seed(derive_seed(seed, 0), i), j), k),
            a: derive_seed(derive_seed(bases[0], j), k),
            b: derive_seed(derive_seed(bases[1], i), k),
        }
    }
}

/// The base seed of player `p` in the arena with seed `seed`: the spec's own `seed=` if it has
/// one, else `derive_seed(seed, 1 + p)`.
pub fn player_base_seed(seed: u64, p: usize, spec_seed: Option<u64>) -> u64 {
    spec_seed.unwrap_or_else(|| derive_seed(seed, 1 + p as u64))
}

/// The units of a round robin with their seeds: unit `t` is game pair `t % (games_per_pairing /
/// 2)` of pairing `t / (games_per_pairing / 2)`, in the order of [`pairings`].
pub(super) struct Schedule {
    pairs: Vec<(usize, usize)>,
    per: u64,
    bases: Vec<u64>,
    seed: u64,
    labels: Vec<String>,
}

/// One unit of a [`Schedule`]: a game pair of one pairing, with its seeds.
pub(super) struct Unit {
    /// The pairing, by its index in the order of [`pairings`].
    pub(super) pairing: usize,
    /// The game pair in the pairing, from 0.
    pub(super) pair: u64,
    /// The players, A first.
    pub(super) players: (usize, usize),
    /// The pair's seeds.
    pub(super) seeds: PairSeeds,
}

impl Schedule {
    pub(super) fn new<S: GameState>(
        players: &[PreparedAgent<S>],
        options: &ArenaOptions,
    ) -> Schedule {
        Schedule {
            pairs: pairings(players.len()),
            per: options.games_per_pairing / 2,
            bases: players
                .iter()
                .enumerate()
                .map(|(p, a)| player_base_seed(options.seed, p, a.seed))
                .collect(),
            seed: options.seed,
            labels: labels(&players.iter().map(|p| p.spec.clone()).collect::<Vec<_>>()),
        }
    }

    /// The number of units.
    pub(super) fn units(&self) -> u64 {
        self.pairs.len() as u64 * self.per
    }

    /// Unit `t`.
    pub(super) fn unit(&self, t: u64) -> Unit {
        let pairing = (t / self.per) as usize;
        let (i, j) = self.pairs[pairing];
        let k = t % self.per;
        Unit {
            pairing,
            pair: k,
            players: (i, j),
            seeds: PairSeeds::new(self.seed, [i, j], [self.bases[i], self.bases[j]], k),
        }
    }

    /// The label of player `p` ([`labels`]).
    pub(super) fn label(&self, p: usize) -> &str {
        &self.labels[p]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::arena::options::pairings_count;

    fn specs(s: &[&str]) -> Vec<AgentSpec> {
        s.iter().map(|x| AgentSpec::parse(x).unwrap()).collect()
    }

    #[test]
    fn repeated_specs_are_numbered() {
        assert_eq!(
            labels(&specs(&["random", "random(seed=3)", "random", "solver"])),
            ["random#1", "random(seed=3)", "random#2", "solver"]
        );
        assert_eq!(
            labels(&specs(&["random(seed=3)", " random( seed=3 )"])),
            ["random(seed=3)#1", "random(seed=3)#2"]
        );
    }

    #[test]
    fn pairings_are_in_order() {
        assert_eq!(pairings(3), [(0, 1), (0, 2), (1, 2)]);
        assert!(pairings(1).is_empty());
        assert_eq!(pairings(7).len() as u64, pairings_count(7));
    }
}
