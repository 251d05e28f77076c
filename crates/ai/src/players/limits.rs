//! What a host allows its computer players ([`Limits`]), checked against what a spec costs
//! before it is prepared.

use crate::eval::options::WEIGHTS_KEY;
use crate::spec::{Cost, Spend};

/// The options that name a file of the host (`weights=FILE`): a host whose [`Limits::files`] is
/// off refuses them, and a list of what its clients may set leaves them out.
pub const FILE_OPTIONS: &[&str] = &[WEIGHTS_KEY];

/// The budgets a host (the server) allows a computer player, so that one decision can neither
/// hold a thread for long nor take every core, and the largest game its exact solver may
/// prepare. What a player spends ([`Cost`]) is checked against them by [`Limits::check`]
/// before it is prepared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Who sets the limits, for messages (`the server`).
    pub holder: &'static str,
    /// The most time per move, in milliseconds.
    pub time_ms: u64,
    /// The most search iterations per move.
    pub iterations: u64,
    /// The most threads.
    pub threads: u64,
    /// The most states a move may visit.
    pub nodes: u64,
    /// The most counters per pit for which the exact Tihbat `solver` is prepared.
    pub solver_seeds: u32,
    /// Whether a player may read a file of the host that its spec names (`weights=FILE`, of
    /// `net` and the searches). A server does not let its clients name its files: it would
    /// tell them which files exist, and a spec naming a device could hold a thread.
    pub files: bool,
}

impl Limits {
    /// The most iterations a move under [`Limits::host`]: ten times the strongest `mcts`
    /// level ([`crate::search::mcts::LEVEL_ITERATIONS`]).
    pub const HOST_ITERATIONS: u64 = 1_000_000;

    /// The most states a move may visit under [`Limits::host`]: those of the strongest
    /// `expectimax` level (8,000,000).
    pub const HOST_NODES: u64 = 8_000_000;

    /// The limits of a host that sets how long a move may take and on how many threads: every
    /// level preset of the players fits ([`Limits::HOST_ITERATIONS`],
    /// [`Limits::HOST_NODES`]), and the exact Tihbat `solver` is prepared up to
    /// [`crate::search::solver::HOST_SEEDS`] counters a pit. Players read no file of the host: they
    /// play the shipped networks.
    pub fn host(holder: &'static str, time_ms: u64, threads: u64) -> Limits {
        Limits {
            holder,
            time_ms,
            iterations: Limits::HOST_ITERATIONS,
            threads,
            nodes: Limits::HOST_NODES,
            solver_seeds: crate::search::solver::HOST_SEEDS,
            files: false,
        }
    }

    /// Refuses a player of `spec` whose `cost` is above the limits: what it spends on a move,
    /// then the size of what it prepares, then a file of the host it would read.
    ///
    /// # Errors
    /// A message naming the option and the limit.
    pub fn check(&self, spec: &str, cost: &Cost) -> Result<(), String> {
        for (key, spend, max, unit) in [
            ("time", &cost.time_ms, self.time_ms, "milliseconds"),
            (
                "iterations",
                &cost.iterations,
                self.iterations,
                "iterations",
            ),
            ("threads", &cost.threads, self.threads, "threads"),
            ("nodes", &cost.nodes, self.nodes, "nodes"),
        ] {
            if let Some(Spend { amount, set_by }) = spend
                && *amount > max
            {
                let what = if *set_by == format!("{key}={amount}") {
                    set_by.clone()
                } else {
                    format!("{set_by} ({amount} {unit})")
                };
                return Err(format!(
                    "{spec}: {what} is above {}'s limit of {max} {unit}",
                    self.holder
                ));
            }
        }
        if let Some(seeds) = cost.solver_seeds
            && seeds > self.solver_seeds
        {
            return Err(format!(
                "solver: {} solves tihbat up to seeds={}, not seeds={seeds}",
                self.holder, self.solver_seeds
            ));
        }
        if let Some(set_by) = &cost.file
            && !self.files
        {
            return Err(format!(
                "{spec}: {set_by} would read a file of the host; {} plays only the networks it \
                 ships",
                self.holder
            ));
        }
        Ok(())
    }
}
