//! How an arena is run, its limits, and why one cannot be run.

use thiserror::Error;

use crate::play::stats::FitError;
use crate::spec::AgentError;

/// The most games one arena plays, all pairings together (each game's result is kept).
pub const MAX_GAMES: u64 = 100_000_000;

/// The most worker threads an arena accepts.
pub const MAX_THREADS: usize = 1024;

/// How an arena is run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ArenaOptions {
    /// Games each pairing plays: an even number, at least 2.
    pub games_per_pairing: u64,
    /// The arena seed (see "Seeds" in the docs of `play::arena`).
    pub seed: u64,
    /// Worker threads, 0 for one per core. The results do not depend on it.
    pub threads: usize,
}

impl ArenaOptions {
    /// Checks the options for `players` players.
    ///
    /// # Errors
    /// [`ArenaError`] for too few players, zero or odd games, too many games or threads.
    pub fn check(&self, players: usize) -> Result<(), ArenaError> {
        if players < 2 {
            return Err(ArenaError::TooFewPlayers { given: players });
        }
        let g = self.games_per_pairing;
        if g == 0 || g % 2 == 1 {
            return Err(ArenaError::Games { given: g });
        }
        let pairs = pairings_count(players);
        let total = u128::from(pairs) * u128::from(g);
        if total > u128::from(MAX_GAMES) {
            return Err(ArenaError::TooManyGames {
                pairings: pairs,
                games_per_pairing: g,
                total,
            });
        }
        if self.threads > MAX_THREADS {
            return Err(ArenaError::Threads {
                given: self.threads,
            });
        }
        Ok(())
    }
}

/// Why an arena cannot be run.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ArenaError {
    /// Fewer than two players.
    #[error("an arena needs at least two players; got {given}")]
    TooFewPlayers {
        /// Players given.
        given: usize,
    },
    /// The games per pairing are zero or odd.
    #[error(
        "games per pairing must be an even number, at least 2 (each game pair plays both seatings with the same throws); got {given}"
    )]
    Games {
        /// The number given.
        given: u64,
    },
    /// Too many games in all.
    #[error(
        "{games_per_pairing} games per pairing make {total} games in all; at most {MAX_GAMES} are allowed"
    )]
    TooManyGames {
        /// Pairings.
        pairings: u64,
        /// Games per pairing.
        games_per_pairing: u64,
        /// Games in all.
        total: u128,
    },
    /// Too many threads.
    #[error("threads must be from 0 (one per core) to {MAX_THREADS}; got {given}")]
    Threads {
        /// The number given.
        given: usize,
    },
    /// A player's spec is invalid for the ruleset.
    #[error("player {number} ({spec}): {source}")]
    Player {
        /// The player's position in the list, from 1.
        number: usize,
        /// The spec as given.
        spec: String,
        /// Why it was rejected.
        source: Box<AgentError>,
    },
    /// The worker threads could not be started.
    #[error("cannot start the worker threads: {0}")]
    ThreadPool(String),
    /// The ratings could not be fitted.
    #[error("rating fit: {0}")]
    Ratings(#[from] FitError),
    /// The sink given the played games failed (for `qasab arena --records`, a record file
    /// that could not be written).
    #[error("{0}")]
    Sink(String),
}

impl ArenaError {
    /// The command-line flag the error is about (`--players`, `--games`, `--threads`), if it is
    /// about one: `qasab arena` and `qasab.distributed` put it before the message.
    pub fn flag(&self) -> Option<&'static str> {
        match self {
            ArenaError::TooFewPlayers { .. } | ArenaError::Player { .. } => Some("--players"),
            ArenaError::Games { .. } | ArenaError::TooManyGames { .. } => Some("--games"),
            ArenaError::Threads { .. } => Some("--threads"),
            _ => None,
        }
    }
}

/// The number of pairings of `players` players.
pub(super) fn pairings_count(players: usize) -> u64 {
    let n = players as u64;
    n * n.saturating_sub(1) / 2
}
