//! Exact endgame tables for the Tâb family: every position reachable from a set of positions,
//! solved as a stochastic game with cycles (docs/ENDGAMES.md).
//!
//! # What is solved
//! A table holds *chance turns*: positions where the next action is a throw. From each, every
//! throw (with its exact weight) leads either to another throw or to the player's turn, whose
//! distinct ends ([`TurnGraph`](crate::search::turn::TurnGraph)) are the choices; each end is
//! a chance turn of the table or the end of the game. Throws within a turn (Lane's accumulated
//! throws, [`qasab_core::Essence::within_turn`]) are no positions of the table: the expansion
//! throws on through them, with the exact chance of each way the throwing ends, their pending
//! throws cut at the pending cap. Positions are keyed by their essence
//! ([`qasab_core::Essence`]): what the rules read, without the counters of the safety limits,
//! so the limits (L-18) are not part of the solved game; play that never ends is worth 0. A
//! turn's throw cap is the one limit a turn can reach; where it can, the table keeps two values,
//! counting it as a loss and as a win for White, which bound the rules' value.
//!
//! # How
//! [`graph::build`] expands the positions breadth first from the seeds, in batches over the
//! threads. [`solve::solve`] iterates the Bellman equations (Gauss–Seidel, from 0) group by
//! group of the number of pieces on the board, fewest first, until no value moves by more than
//! the tolerance, then computes each side's chance to win under optimal play. [`mod@file`] writes
//! and reads the table; [`probe`] answers for any position in it, and for every decision of a
//! player's turn whose ends are in it; [`verify`] rebuilds the positions and checks every
//! stored value against one Bellman step from the stored values of its successors.

pub mod compare;
pub mod file;
pub mod graph;
mod nodes;
mod partial;
pub mod solve;
mod typed;

use thiserror::Error;

pub use compare::{Comparison, compare};
pub use file::{Certainty, Entry, Header, TableFile};
pub use partial::Checkpoint;
pub use typed::{
    BuildSpec, Built, Probe, ProbedMove, Progress, TABLES_ENV, TableSet, TypedProbe,
    VERIFY_TOLERANCE, VerifyReport, build, probe, probe_state, probe_typed, verify, waiting_bytes,
};

/// The memory the operating system reports available (`MemAvailable` of `/proc/meminfo`),
/// where it says.
pub fn available_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// The most bytes a build may take ([`BuildSpec::max_bytes`]): `megabytes` if given, else the
/// memory available, else no bound.
pub fn memory_bound(megabytes: Option<u64>) -> usize {
    match megabytes {
        Some(mb) => usize::try_from(mb.saturating_mul(1_000_000)).unwrap_or(usize::MAX),
        None => available_memory().unwrap_or(usize::MAX),
    }
}

/// A number of bytes for a person: GB, MB or kB.
fn bytes_text(bytes: usize) -> String {
    match bytes {
        b if b >= 1_000_000_000 => format!("{:.1} GB", b as f64 / 1e9),
        b if b >= 1_000_000 => format!("{} MB", b / 1_000_000),
        b => format!("{} kB", b / 1_000),
    }
}

/// Why a table could not be built, read or used.
#[derive(Debug, Error)]
pub enum EndgameError {
    /// The ruleset's game has no tables.
    #[error(
        "{0}: endgame tables are for the Tâb family (tihbat has its exact solver: qasab solve)"
    )]
    NoTables(String),
    /// A seed (by its id) is not at a throw.
    #[error("position {0} is not at a throw; a table's positions start at a throw")]
    NotChance(String),
    /// A turn has more distinct states than the enumeration may hold.
    #[error("a turn from {position} has more than {cap} distinct states; raise the cap")]
    TurnTooLarge {
        /// The position whose turn it is.
        position: String,
        /// The cap.
        cap: usize,
    },
    /// The table would hold more positions than allowed.
    #[error(
        "the table would hold more than {limit} positions; raise --max-positions if memory allows"
    )]
    TooLarge {
        /// The most positions allowed.
        limit: usize,
    },
    /// The build would need more memory than allowed.
    #[error(
        "the table would need more than {} of memory ({positions} positions found, {waiting} waiting to be expanded, and the values still to solve); raise --max-memory if the machine has it, or build a smaller table",
        bytes_text(*limit)
    )]
    TooMuchMemory {
        /// The most bytes allowed.
        limit: usize,
        /// Positions found when the limit was passed.
        positions: usize,
        /// Of those, the ones waiting to be expanded.
        waiting: usize,
    },
    /// The value iteration did not reach its tolerance.
    #[error("the values did not settle: after {sweeps} sweeps a value still moved by {residual:e}")]
    NotConverged {
        /// Sweeps made.
        sweeps: u64,
        /// The largest change in the last sweep.
        residual: f64,
    },
    /// A file could not be read or written.
    #[error("{path}: {why}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        why: String,
    },
    /// A file is not a sound table.
    #[error("{path}: {why}")]
    Corrupt {
        /// The file.
        path: String,
        /// What is wrong, in one line.
        why: String,
    },
    /// The table is for another ruleset than the position's.
    #[error("the table is for {table}, not {asked}")]
    OtherRuleset {
        /// The table's ruleset.
        table: String,
        /// The ruleset asked for.
        asked: String,
    },
    /// A position id that cannot be read, or a position with nothing to probe.
    #[error("{0}")]
    Position(String),
    /// The position (or an end of its turn) is not in the table.
    #[error("not in table: {0}")]
    NotInTable(String),
}
