//! Round robins between players, with paired throws, and their Elo report.
//!
//! # Schedule
//! Players are numbered from 0 in the order given. Every two players `i < j` form a pairing,
//! taken in the order (0,1), (0,2), …, (1,2), …; in a pairing the player listed first is *A*
//! and the other *B*. A pairing plays `games_per_pairing` games, an even number, as game pairs
//! `k = 0, 1, …`: in the first game of a pair A holds the first seat (south, white) and in the
//! second B does.
//!
//! # Paired throws
//! Both games of a pair draw their chance events from one chance source
//! ([`ChanceSource::new`] of the pair's chance seed), each from the start of it, in order: the
//! n-th throw of one game is the n-th draw of the same generator as the n-th throw of the
//! other. The sticks have the same odds at every throw, so it is the same throw: whatever luck
//! the first seat has in one game, it has in the other, where the players have swapped seats.
//! The games drift apart as the players choose differently, so later throws fall to different
//! positions, but they remain the same sequence. (A draw takes one 64-bit word of the generator
//! except after a rejection in [`crate::rng::below`], whose probability is below `w/2⁶⁴` for
//! weights summing to `w`, 2⁻⁶⁰ for four fair sticks, so the two sequences stay aligned.) Luck that favours a seat then cancels within a
//! pair, and the statistics (see [`crate::play::stats`]) treat the pair, not the game, as the
//! independent unit.
//!
//! # Seeds
//! All seeds come from the arena seed `S` by [`derive_seed`]:
//! * The chance seed of game pair `k` of pairing `(i, j)` is
//!   `derive_seed(derive_seed(derive_seed(derive_seed(S, 0), i), j), k)`.
//! * Player `p` has a base seed: its spec's `seed=` if given, else `derive_seed(S, 1 + p)`. In
//!   game pair `k` against player `q` it plays with the seed `derive_seed(derive_seed(base, q),
//!   k)`, in both games of the pair.
//!
//! So a pairing's games depend only on `S`, the two players' positions and specs, and the
//! number of games: adding a player at the end changes no earlier pairing. Game pairs are
//! played in parallel and collected in order, so the results do not depend on the number of
//! threads.
//!
//! # Scores
//! A game scores 1 for a win, ½ for a draw and 0 for a loss. A game stopped by a safety limit
//! (truncated, see [`qasab_core::EndReason::is_truncation`]) is counted apart from draws but
//! scores ½ to each side, as a draw would: the rules did not decide it, and whoever led on
//! captures when the limit struck has not won by the rules.

use std::collections::HashMap;

use qasab_core::{ActionOf, GameState, Outcome, Player, Ruleset};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::play::driver::{ChanceSource, play_out};
use crate::play::stats::{self, FitError, PRIOR_DRAWS, PairingData};
use crate::players::{AgentMaker, Playable, PreparedAgent};
use crate::rng::derive_seed;
use crate::spec::{AgentError, AgentSpec};

/// The most games one arena plays, all pairings together (each game's result is kept).
pub const MAX_GAMES: u64 = 100_000_000;

/// The most worker threads an arena accepts.
pub const MAX_THREADS: usize = 1024;

/// How an arena is run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ArenaOptions {
    /// Games each pairing plays: an even number, at least 2.
    pub games_per_pairing: u64,
    /// The arena seed (see the module docs).
    pub seed: u64,
    /// Worker threads, 0 for one per core. The results do not depend on it.
    pub threads: usize,
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

/// A's result in one game of a pairing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameResult {
    /// A won.
    AWins,
    /// B won.
    BWins,
    /// A draw by the rules.
    Draw,
    /// Stopped by a safety limit, whoever was ahead.
    Truncated,
}

impl GameResult {
    /// The result of a finished game for the player who sat in `a_seat`.
    pub fn of(outcome: &Outcome, a_seat: Player) -> GameResult {
        if outcome.is_truncated() {
            return GameResult::Truncated;
        }
        match outcome.winner {
            None => GameResult::Draw,
            Some(w) if w == a_seat => GameResult::AWins,
            Some(_) => GameResult::BWins,
        }
    }

    /// A's score: 1 for a win, ½ for a draw or a truncated game, 0 for a loss.
    pub const fn a_score(self) -> f64 {
        match self {
            GameResult::AWins => 1.0,
            GameResult::BWins => 0.0,
            GameResult::Draw | GameResult::Truncated => 0.5,
        }
    }
}

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

/// One finished game of a round robin, as [`arena_with_games`] hands it to its sink.
#[derive(Clone, Copy, Debug)]
pub struct PlayedGame<'a, S: GameState> {
    /// The pairing, by its index in the order of [`pairings`].
    pub pairing: usize,
    /// The game pair in the pairing, from 0.
    pub pair: u64,
    /// The game in the pair: 0 with A in the first seat, 1 with B there.
    pub game: usize,
    /// The labels (as in the report) of the players in the first and the second seat.
    pub seats: [&'a str; 2],
    /// Every action of the game from the start, chance outcomes included: with the ruleset,
    /// its record.
    pub actions: &'a [ActionOf<S>],
    /// A's result.
    pub result: GameResult,
}

/// What receives every game an arena plays ([`arena_with_games`]), from the worker threads, in
/// no set order. An error stops the arena.
pub type GameSink<'a, S> = dyn Fn(PlayedGame<'_, S>) -> Result<(), String> + Sync + 'a;

/// The seeds of one game pair (see the module docs).
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

/// Plays one game pair: A (`makers[0]`) in the first seat, then B (`makers[1]`) in the first
/// seat, both games drawing their throws from the same chance seed. Every action is passed to
/// `on_action` with the game's number in the pair (0 or 1) and the state before it. Returns A's
/// result in each game.
///
/// # Panics
/// If an agent returns an illegal move (a bug in the agent).
pub fn play_pair<S: GameState>(
    rules: &S::Ruleset,
    makers: [&AgentMaker<S>; 2],
    seeds: &PairSeeds,
    on_action: impl FnMut(usize, &S, ActionOf<S>),
) -> [GameResult; 2] {
    let ends = play_pair_to_end(rules, makers, seeds, on_action);
    let mut g = 0;
    ends.map(|end| {
        let a_seat = if g == 0 { Player::One } else { Player::Two };
        g += 1;
        let outcome = end
            .turn()
            .outcome()
            .expect("play_out returns a finished game");
        GameResult::of(&outcome, a_seat)
    })
}

/// Plays one game pair as [`play_pair`] does and returns the two finished games.
///
/// # Panics
/// If an agent returns an illegal move (a bug in the agent).
pub fn play_pair_to_end<S: GameState>(
    rules: &S::Ruleset,
    makers: [&AgentMaker<S>; 2],
    seeds: &PairSeeds,
    mut on_action: impl FnMut(usize, &S, ActionOf<S>),
) -> [S; 2] {
    [0, 1].map(|g| {
        let a = (makers[0])(seeds.a);
        let b = (makers[1])(seeds.b);
        let mut agents = if g == 0 { [a, b] } else { [b, a] };
        let mut chance = ChanceSource::new(seeds.chance);
        play_out(rules.initial_state(), &mut agents, &mut chance, |s, act| {
            on_action(g, s, act)
        })
    })
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

fn pairings_count(players: usize) -> u64 {
    let n = players as u64;
    n * n.saturating_sub(1) / 2
}

/// Plays every pairing of a round robin (see the module docs) on `options.threads` threads,
/// calling `tick` after each game. `results[p]` holds pairing `p`'s game pairs in order, in the
/// order of [`pairings`].
///
/// # Errors
/// [`ArenaError`] for bad options, or if the threads cannot be started.
pub fn play_round_robin<S: GameState>(
    rules: &S::Ruleset,
    players: &[PreparedAgent<S>],
    options: &ArenaOptions,
    tick: &(dyn Fn() + Sync),
) -> Result<Vec<Vec<[GameResult; 2]>>, ArenaError> {
    play_round_robin_with_games(rules, players, options, tick, None)
}

/// [`play_round_robin`], handing every game played to `sink` if one is given.
///
/// # Errors
/// As [`play_round_robin`], and [`ArenaError::Sink`] with the sink's first error.
pub fn play_round_robin_with_games<S: GameState>(
    rules: &S::Ruleset,
    players: &[PreparedAgent<S>],
    options: &ArenaOptions,
    tick: &(dyn Fn() + Sync),
    sink: Option<&GameSink<'_, S>>,
) -> Result<Vec<Vec<[GameResult; 2]>>, ArenaError> {
    options.check(players.len())?;
    let schedule = Schedule::new(players, options);
    let run = || {
        (0..schedule.units())
            .into_par_iter()
            .map(|t| {
                let r = match sink {
                    None => schedule.play(rules, players, t),
                    Some(sink) => schedule.play_to_sink(rules, players, t, sink)?,
                };
                tick();
                tick();
                Ok(r)
            })
            .collect::<Result<Vec<_>, ArenaError>>()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| ArenaError::ThreadPool(e.to_string()))?;
    let all = pool.install(run)?;
    Ok(units_by_pairing(&all, options.games_per_pairing))
}

/// Plays the game pairs `range` of a round robin, numbered across its pairings: unit `t` is
/// game pair `t % (games_per_pairing / 2)` of pairing `t / (games_per_pairing / 2)` in the
/// order of [`pairings`]. Each pair is played with the seeds the whole round robin gives it, so
/// the units of [`play_round_robin`], played in chunks anywhere, are the same games. One thread.
///
/// # Errors
/// [`ArenaError`] for bad options.
///
/// # Panics
/// If `range` goes past the last unit.
pub fn play_units<S: GameState>(
    rules: &S::Ruleset,
    players: &[PreparedAgent<S>],
    options: &ArenaOptions,
    range: std::ops::Range<u64>,
) -> Result<Vec<[GameResult; 2]>, ArenaError> {
    options.check(players.len())?;
    let schedule = Schedule::new(players, options);
    assert!(range.end <= schedule.units(), "units past the round robin");
    Ok(range.map(|t| schedule.play(rules, players, t)).collect())
}

/// The units of a round robin ([`play_units`]) with their seeds.
struct Schedule {
    pairs: Vec<(usize, usize)>,
    per: u64,
    bases: Vec<u64>,
    seed: u64,
    labels: Vec<String>,
}

impl Schedule {
    fn new<S: GameState>(players: &[PreparedAgent<S>], options: &ArenaOptions) -> Schedule {
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

    fn units(&self) -> u64 {
        self.pairs.len() as u64 * self.per
    }

    fn play<S: GameState>(
        &self,
        rules: &S::Ruleset,
        players: &[PreparedAgent<S>],
        t: u64,
    ) -> [GameResult; 2] {
        self.play_with(rules, players, t, |_, _, _| {})
    }

    /// Plays unit `t`, passing every action to `on_action` as [`play_pair`] does.
    fn play_with<S: GameState>(
        &self,
        rules: &S::Ruleset,
        players: &[PreparedAgent<S>],
        t: u64,
        on_action: impl FnMut(usize, &S, ActionOf<S>),
    ) -> [GameResult; 2] {
        let (i, j) = self.pairs[(t / self.per) as usize];
        let k = t % self.per;
        let seeds = PairSeeds::new(self.seed, [i, j], [self.bases[i], self.bases[j]], k);
        play_pair(
            rules,
            [&players[i].maker, &players[j].maker],
            &seeds,
            on_action,
        )
    }

    /// Plays unit `t` and hands both its games to `sink`.
    fn play_to_sink<S: GameState>(
        &self,
        rules: &S::Ruleset,
        players: &[PreparedAgent<S>],
        t: u64,
        sink: &GameSink<'_, S>,
    ) -> Result<[GameResult; 2], ArenaError> {
        let mut actions: [Vec<ActionOf<S>>; 2] = [Vec::new(), Vec::new()];
        let results = self.play_with(rules, players, t, |g, _, a| actions[g].push(a));
        let pairing = (t / self.per) as usize;
        let (a, b) = self.pairs[pairing];
        let (a, b) = (self.labels[a].as_str(), self.labels[b].as_str());
        for (game, (actions, result)) in actions.iter().zip(results).enumerate() {
            sink(PlayedGame {
                pairing,
                pair: t % self.per,
                game,
                seats: if game == 0 { [a, b] } else { [b, a] },
                actions,
                result,
            })
            .map_err(ArenaError::Sink)?;
        }
        Ok(results)
    }
}

/// The results of every unit of a round robin ([`play_units`], in order) split by pairing, as
/// [`ArenaReport::new`] takes them.
///
/// # Panics
/// If `games_per_pairing` is below 2.
pub fn units_by_pairing(
    all: &[[GameResult; 2]],
    games_per_pairing: u64,
) -> Vec<Vec<[GameResult; 2]>> {
    all.chunks((games_per_pairing / 2) as usize)
        .map(<[_]>::to_vec)
        .collect()
}

/// Runs an arena: prepares every spec for `rules`, plays the round robin and reports it.
///
/// # Errors
/// [`ArenaError`]: bad options, a spec the ruleset rejects (with its number in the list), or a
/// failure to start the threads.
pub fn arena<S: Playable>(
    rules: &S::Ruleset,
    specs: &[&str],
    options: &ArenaOptions,
    tick: &(dyn Fn() + Sync),
) -> Result<ArenaReport, ArenaError> {
    arena_with_games::<S>(rules, specs, options, tick, None)
}

/// [`arena`], handing every game played to `sink` if one is given (as `qasab arena --records`
/// writes each game's record). The games and the report are those of [`arena`].
///
/// # Errors
/// As [`arena`], and [`ArenaError::Sink`] with the sink's first error.
pub fn arena_with_games<S: Playable>(
    rules: &S::Ruleset,
    specs: &[&str],
    options: &ArenaOptions,
    tick: &(dyn Fn() + Sync),
    sink: Option<&GameSink<'_, S>>,
) -> Result<ArenaReport, ArenaError> {
    options.check(specs.len())?;
    let players = specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            PreparedAgent::<S>::new(s, rules).map_err(|source| ArenaError::Player {
                number: i + 1,
                spec: s.to_string(),
                source: Box::new(source),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let results = play_round_robin_with_games(rules, &players, options, tick, sink)?;
    let specs: Vec<AgentSpec> = players.iter().map(|p| p.spec.clone()).collect();
    ArenaReport::new(
        rules.to_string(),
        labels(&specs),
        options.games_per_pairing,
        options.seed,
        &results,
    )
}

/// One pairing's results, from A's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingReport {
    /// A's label.
    pub a: String,
    /// B's label.
    pub b: String,
    /// Games played.
    pub games: u64,
    /// Games A won.
    pub a_wins: u64,
    /// Games B won.
    pub b_wins: u64,
    /// Games drawn by the rules.
    pub draws: u64,
    /// Games stopped by a safety limit (not counted as draws, but scored ½ each).
    pub truncated: u64,
    /// A's mean score per game: win 1, draw or truncated ½, loss 0.
    pub a_score: f64,
    /// The 95% interval of A's score ([`stats::score_interval`] over the game pairs).
    pub a_score_ci95: [f64; 2],
    /// A's Elo advantage over B, from the score ([`stats::elo_difference`]).
    pub a_elo: f64,
    /// The 95% interval of A's Elo advantage.
    pub a_elo_ci95: [f64; 2],
    /// How the game pairs went, pair by pair.
    pub game_pairs: GamePairs,
}

/// A pairing's game pairs by how they went (see "Paired throws" in the module docs). A pair
/// whose two games the same seat won, once with each player in it, went with the throws and
/// the seat, whoever sat there: the players' choices did not change its result. Only the pairs
/// one player won twice separate the players: A's score is
/// `(a_both + (first_seat_both + second_seat_both) / 2) / pairs` when no game is drawn or
/// truncated.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GamePairs {
    /// Pairs A won both games of.
    pub a_both: u64,
    /// Pairs B won both games of.
    pub b_both: u64,
    /// Pairs the first seat won both games of: A in the first game, B in the second.
    pub first_seat_both: u64,
    /// Pairs the second seat won both games of.
    pub second_seat_both: u64,
    /// Pairs with a drawn or truncated game.
    pub with_draw: u64,
}

impl GamePairs {
    /// Counts the game pairs `results`, each A's results in its two games, A holding the first
    /// seat in the first.
    pub fn of(results: &[[GameResult; 2]]) -> GamePairs {
        use GameResult::{AWins, BWins};
        let mut c = GamePairs::default();
        for pair in results {
            let n = match pair {
                [AWins, AWins] => &mut c.a_both,
                [BWins, BWins] => &mut c.b_both,
                [AWins, BWins] => &mut c.first_seat_both,
                [BWins, AWins] => &mut c.second_seat_both,
                _ => &mut c.with_draw,
            };
            *n += 1;
        }
        c
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.a_both + self.b_both + self.first_seat_both + self.second_seat_both + self.with_draw
    }
}

/// One player's rating on the ladder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingReport {
    /// The player's label.
    pub player: String,
    /// The rating in Elo points; the players' ratings have mean 0.
    pub elo: f64,
    /// Its 95% interval.
    pub elo_ci95: [f64; 2],
}

/// The report of an arena: every pairing and the ladder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArenaReport {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// Games each pairing played.
    pub games_per_pairing: u64,
    /// The arena seed.
    pub seed: u64,
    /// Every pairing, in the arena's order.
    pub pairings: Vec<PairingReport>,
    /// The ladder: every player, best rating first (ties in the order given).
    pub ratings: Vec<RatingReport>,
}

impl ArenaReport {
    /// The report of the round robin between players labelled `labels`, whose pairing `p` (in
    /// the order of [`pairings`]) played the game pairs `results[p]`.
    ///
    /// # Errors
    /// [`ArenaError::Ratings`] if the ladder cannot be fitted (not with a full round robin).
    ///
    /// # Panics
    /// If `results` does not hold one entry per pairing.
    pub fn new(
        ruleset: String,
        labels: Vec<String>,
        games_per_pairing: u64,
        seed: u64,
        results: &[Vec<[GameResult; 2]>],
    ) -> Result<ArenaReport, ArenaError> {
        let pairs = pairings(labels.len());
        assert_eq!(pairs.len(), results.len(), "one result list per pairing");
        let mut reports = Vec::with_capacity(pairs.len());
        let mut data = Vec::with_capacity(pairs.len());
        for (&(i, j), games) in pairs.iter().zip(results) {
            let count = |r: GameResult| games.iter().flatten().filter(|&&g| g == r).count() as u64;
            let units: Vec<f64> = games
                .iter()
                .map(|[x, y]| (x.a_score() + y.a_score()) / 2.0)
                .collect();
            let n = 2 * games.len() as u64;
            let score = stats::score_interval(&units, 2);
            let elo = stats::elo_difference(score.score, score.ci95, n as f64);
            data.push(PairingData {
                a: i,
                b: j,
                games: n as f64,
                a_points: score.score * n as f64,
                design_effect: score.design_effect,
            });
            reports.push(PairingReport {
                a: labels[i].clone(),
                b: labels[j].clone(),
                games: n,
                a_wins: count(GameResult::AWins),
                b_wins: count(GameResult::BWins),
                draws: count(GameResult::Draw),
                truncated: count(GameResult::Truncated),
                a_score: score.score,
                a_score_ci95: score.ci95,
                a_elo: elo.elo,
                a_elo_ci95: elo.ci95,
                game_pairs: GamePairs::of(games),
            });
        }
        let fit = stats::bradley_terry(labels.len(), &data, PRIOR_DRAWS)?;
        let mut ratings: Vec<RatingReport> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| RatingReport {
                player: l.clone(),
                elo: fit.elo[i],
                elo_ci95: fit.ci95[i],
            })
            .collect();
        ratings.sort_by(|x, y| y.elo.total_cmp(&x.elo));
        Ok(ArenaReport {
            ruleset,
            games_per_pairing,
            seed,
            pairings: reports,
            ratings,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use qasab_core::{Action, ByPlayer, EndReason, tab, tab_ludii, tihbat};

    use super::*;
    use crate::agent::Agent;

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

    #[test]
    fn truncated_games_are_apart_from_draws_and_score_half() {
        let scores = ByPlayer::new(5, 2);
        let capped = Outcome::by_score(scores, EndReason::NoProgress);
        assert_eq!(capped.winner, Some(Player::One));
        assert_eq!(GameResult::of(&capped, Player::One), GameResult::Truncated);
        assert_eq!(GameResult::Truncated.a_score(), 0.5);
        let won = Outcome::by_score(scores, EndReason::Elimination);
        assert_eq!(GameResult::of(&won, Player::One), GameResult::AWins);
        assert_eq!(GameResult::of(&won, Player::Two), GameResult::BWins);
        let drawn = Outcome::by_score(ByPlayer::new(3, 3), EndReason::Repetition);
        assert_eq!(GameResult::of(&drawn, Player::Two), GameResult::Draw);
    }

    #[test]
    fn both_games_of_a_pair_see_the_same_throws() {
        let rules = tab::Ruleset::default();
        let random = PreparedAgent::<tab::State>::new("random", &rules).unwrap();
        for k in 0..4 {
            let seeds = PairSeeds::new(5, [0, 1], [11, 12], k);
            let mut throws = [Vec::new(), Vec::new()];
            let mut moves = [Vec::new(), Vec::new()];
            play_pair(
                &rules,
                [&random.maker, &random.maker],
                &seeds,
                |g, _, a| match a {
                    Action::Chance(c) => throws[g].push(c),
                    Action::Move(m) => moves[g].push(m),
                },
            );
            let n = throws[0].len().min(throws[1].len());
            assert!(n > 100, "pair {k}: {n} throws");
            assert_eq!(throws[0][..n], throws[1][..n], "pair {k}");
            assert_ne!(moves[0], moves[1], "pair {k}: the players differ");
            if k > 0 {
                let other = PairSeeds::new(5, [0, 1], [11, 12], k - 1);
                assert_ne!(other.chance, seeds.chance);
            }
        }
    }

    /// An agent that plays the first legal move and notes the seat it plays.
    struct Witness {
        name: &'static str,
        log: Arc<Mutex<Vec<(&'static str, Player)>>>,
    }

    impl<S: GameState> Agent<S> for Witness {
        fn spec(&self) -> String {
            self.name.to_string()
        }
        fn choose(&mut self, state: &S) -> S::Move {
            let p = state.turn().player().expect("a player's turn");
            self.log.lock().unwrap().push((self.name, p));
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            moves[0]
        }
    }

    #[test]
    fn a_holds_the_first_seat_in_the_first_game_of_a_pair() {
        let rules = tihbat::Ruleset::default();
        let log = Arc::new(Mutex::new(Vec::new()));
        let maker = |name: &'static str| -> AgentMaker<tihbat::State> {
            let log = log.clone();
            Arc::new(move |_| {
                Box::new(Witness {
                    name,
                    log: log.clone(),
                })
            })
        };
        let (a, b) = (maker("a"), maker("b"));
        let seats = Arc::new(Mutex::new(Vec::new()));
        let s2 = seats.clone();
        let results = play_pair(
            &rules,
            [&a, &b],
            &PairSeeds::new(1, [0, 1], [2, 3], 0),
            |g, _, _| s2.lock().unwrap().push(g),
        );
        let log = log.lock().unwrap();
        let first_game = seats.lock().unwrap().iter().filter(|&&g| g == 0).count();
        for (i, &(name, seat)) in log.iter().enumerate() {
            let game = usize::from(i >= first_game);
            let want = if (name == "a") == (game == 0) {
                Player::One
            } else {
                Player::Two
            };
            assert_eq!(seat, want, "move {i} of {name}");
        }
        // Both play the first legal move, so both games are the same game with the players
        // swapped: whatever the first seat did in one, the other player did in the other.
        let mirror = match results[0] {
            GameResult::AWins => GameResult::BWins,
            GameResult::BWins => GameResult::AWins,
            r => r,
        };
        assert_eq!(results[1], mirror);
    }

    fn run(specs: &[&str], games: u64, seed: u64, threads: usize) -> ArenaReport {
        let rules: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
        let options = ArenaOptions {
            games_per_pairing: games,
            seed,
            threads,
        };
        arena::<tab_ludii::State>(&rules, specs, &options, &|| {}).unwrap()
    }

    #[test]
    fn results_do_not_depend_on_threads_and_follow_the_seed() {
        let players = ["random", "random(seed=4)", "random"];
        let one = run(&players, 12, 3, 1);
        assert_eq!(one, run(&players, 12, 3, 2));
        assert_eq!(one, run(&players, 12, 3, 3));
        assert_ne!(one.pairings, run(&players, 12, 4, 2).pairings);
        assert_eq!(one.pairings.len(), 3);
        assert_eq!(one.ratings.len(), 3);
        for p in &one.pairings {
            assert_eq!(p.games, 12);
            assert_eq!(p.a_wins + p.b_wins + p.draws + p.truncated, 12);
            let points = p.a_wins as f64 + (p.draws + p.truncated) as f64 / 2.0;
            assert!((p.a_score - points / 12.0).abs() < 1e-12);
            assert!(p.a_score_ci95[0] <= p.a_score && p.a_score <= p.a_score_ci95[1]);
            assert_eq!(p.game_pairs.pairs(), 6);
        }
        let mean: f64 = one.ratings.iter().map(|r| r.elo).sum::<f64>() / 3.0;
        assert!(mean.abs() < 1e-9);
        assert!(one.ratings.windows(2).all(|w| w[0].elo >= w[1].elo));
        assert_eq!(one.pairings[0].a, "random#1");
        assert_eq!(one.pairings[2].b, "random#2");
    }

    #[test]
    fn the_sink_gets_every_game_as_played() {
        let rules: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
        let options = ArenaOptions {
            games_per_pairing: 6,
            seed: 5,
            threads: 2,
        };
        let specs = ["random", "greedy", "random"];
        type Seen = (
            usize,
            u64,
            usize,
            [String; 2],
            Vec<ActionOf<tab_ludii::State>>,
            GameResult,
        );
        let seen: Mutex<Vec<Seen>> = Mutex::new(Vec::new());
        let sink = |g: PlayedGame<'_, tab_ludii::State>| {
            let seats = g.seats.map(str::to_string);
            let entry = (
                g.pairing,
                g.pair,
                g.game,
                seats,
                g.actions.to_vec(),
                g.result,
            );
            seen.lock().unwrap().push(entry);
            Ok(())
        };
        let with =
            arena_with_games::<tab_ludii::State>(&rules, &specs, &options, &|| {}, Some(&sink))
                .unwrap();
        assert_eq!(
            with,
            arena::<tab_ludii::State>(&rules, &specs, &options, &|| {}).unwrap()
        );
        let mut seen = seen.into_inner().unwrap();
        seen.sort_by_key(|e| (e.0, e.1, e.2));
        assert_eq!(seen.len(), 18);
        for (n, (pairing, pair, game, seats, actions, result)) in seen.iter().enumerate() {
            assert_eq!((*pairing, *pair, *game), (n / 6, (n % 6 / 2) as u64, n % 2));
            let (a, b) = pairings(3)[*pairing];
            let labels = ["random#1", "greedy", "random#2"];
            let expected = [labels[a], labels[b]];
            let expected = if *game == 0 {
                expected
            } else {
                [expected[1], expected[0]]
            };
            assert_eq!(seats.each_ref().map(String::as_str), expected);
            // The actions replay to the game's end and its result.
            let mut state = rules.initial_state();
            for &act in actions {
                state.try_apply(act).unwrap();
            }
            let a_seat = if *game == 0 { Player::One } else { Player::Two };
            assert_eq!(
                GameResult::of(&state.turn().outcome().unwrap(), a_seat),
                *result
            );
        }
        let results: Vec<GameResult> = seen.iter().map(|e| e.5).collect();
        let first: Vec<[GameResult; 2]> = results.chunks(2).take(3).map(|c| [c[0], c[1]]).collect();
        assert_eq!(with.pairings[0].game_pairs, GamePairs::of(&first));

        let failing = |_: PlayedGame<'_, tab_ludii::State>| Err("disk full".to_string());
        let err =
            arena_with_games::<tab_ludii::State>(&rules, &specs, &options, &|| {}, Some(&failing))
                .unwrap_err();
        assert!(
            matches!(&err, ArenaError::Sink(m) if m == "disk full"),
            "{err:?}"
        );
    }

    #[test]
    fn game_pairs_are_told_apart_by_who_won_each_game() {
        use GameResult::{AWins, BWins, Draw, Truncated};
        let results = [
            [AWins, AWins],
            [AWins, BWins],
            [AWins, BWins],
            [BWins, AWins],
            [BWins, BWins],
            [AWins, AWins],
            [AWins, AWins],
            [Draw, AWins],
            [BWins, Truncated],
        ];
        let g = GamePairs::of(&results);
        assert_eq!(
            g,
            GamePairs {
                a_both: 3,
                b_both: 1,
                first_seat_both: 2,
                second_seat_both: 1,
                with_draw: 2,
            }
        );
        assert_eq!(g.pairs(), 9);
        let decisive = GamePairs::of(&results[..7]);
        let report = ArenaReport::new(
            "tab-ludii".into(),
            vec!["a".into(), "b".into()],
            14,
            0,
            &[results[..7].to_vec()],
        )
        .unwrap();
        let p = &report.pairings[0];
        assert_eq!(p.game_pairs, decisive);
        let seats = (decisive.first_seat_both + decisive.second_seat_both) as f64;
        let by_pairs = (decisive.a_both as f64 + seats / 2.0) / decisive.pairs() as f64;
        assert!((p.a_score - by_pairs).abs() < 1e-12, "{p:?}");
    }

    #[test]
    fn adding_a_player_keeps_the_earlier_pairings() {
        let two = run(&["random", "random(seed=9)"], 8, 1, 2);
        let three = run(&["random", "random(seed=9)", "random(seed=2)"], 8, 1, 2);
        let strip = |p: &PairingReport| (p.a_wins, p.b_wins, p.draws, p.truncated);
        assert_eq!(strip(&two.pairings[0]), strip(&three.pairings[0]));
    }

    #[test]
    fn the_solver_tops_the_ladder() {
        let rules: tihbat::Ruleset = "tihbat(seeds=4)".parse().unwrap();
        let options = ArenaOptions {
            games_per_pairing: 40,
            seed: 1,
            threads: 2,
        };
        let r = arena::<tihbat::State>(&rules, &["random", "solver", "random"], &options, &|| {})
            .unwrap();
        assert_eq!(r.ruleset, "tihbat(seeds=4)");
        assert_eq!(r.ratings[0].player, "solver");
        assert!(r.ratings[0].elo_ci95[0] > r.ratings[1].elo_ci95[1], "{r:?}");
        let vs = &r.pairings[0];
        assert_eq!((vs.a.as_str(), vs.b.as_str()), ("random#1", "solver"));
        assert!(vs.a_score < 0.25 && vs.a_elo < -150.0, "{vs:?}");
    }

    #[test]
    fn bad_arenas_are_refused() {
        let rules = tihbat::Ruleset::default();
        let options = |g| ArenaOptions {
            games_per_pairing: g,
            seed: 0,
            threads: 1,
        };
        let err = |specs: &[&str], g| {
            arena::<tihbat::State>(&rules, specs, &options(g), &|| {})
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(&["random"], 10),
            "an arena needs at least two players; got 1"
        );
        assert!(err(&["random", "solver"], 0).contains("got 0"));
        assert!(err(&["random", "solver"], 7).contains("must be an even number"));
        assert!(
            err(&["random", "bogus"], 10)
                .starts_with("player 2 (bogus): unknown player 'bogus'; valid players: random")
        );
        assert!(err(&["random", "random"], MAX_GAMES + 2).contains("at most 100000000"));
        let many = ArenaOptions {
            threads: MAX_THREADS + 1,
            ..options(2)
        };
        assert!(matches!(
            arena::<tihbat::State>(&rules, &["random", "random"], &many, &|| {}),
            Err(ArenaError::Threads { .. })
        ));
    }
}
