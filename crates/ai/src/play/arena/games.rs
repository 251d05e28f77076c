//! The playing of game pairs: one pair with its paired throws, the units of a round robin in
//! any range, or the whole round robin on threads, each game's result from A's side.

use qasab_core::{ActionOf, GameState, Outcome, Player, Ruleset};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::options::{ArenaError, ArenaOptions};
use super::schedule::{PairSeeds, Schedule, Unit};
use crate::play::driver::{ChanceSource, play_out};
use crate::players::{AgentMaker, PreparedAgent};

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

/// One finished game of a round robin, as [`play_round_robin_with_games`] hands it to its sink.
#[derive(Clone, Copy, Debug)]
pub struct PlayedGame<'a, S: GameState> {
    /// The pairing, by its index in the order of [`pairings`](super::schedule::pairings).
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

/// What receives every game an arena plays ([`play_round_robin_with_games`]), from the worker
/// threads, in
/// no set order. An error stops the arena.
pub type GameSink<'a, S> = dyn Fn(PlayedGame<'_, S>) -> Result<(), String> + Sync + 'a;

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

/// Plays every pairing of a round robin (see the docs of `play::arena`) on `options.threads`
/// threads, calling `tick` after each game. `results[p]` holds pairing `p`'s game pairs in
/// order, in the order of [`pairings`](super::schedule::pairings).
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
                    None => play_unit(rules, players, &schedule.unit(t), |_, _, _| {}),
                    Some(sink) => play_unit_to_sink(rules, players, &schedule, t, sink)?,
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
/// order of [`pairings`](super::schedule::pairings). Each pair is played with the seeds the
/// whole round robin gives it, so the units of [`play_round_robin`], played in chunks anywhere,
/// are the same games. One thread.
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
    Ok(range
        .map(|t| play_unit(rules, players, &schedule.unit(t), |_, _, _| {}))
        .collect())
}

/// The results of every unit of a round robin ([`play_units`], in order) split by pairing, as
/// `ArenaReport::new` takes them.
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

/// Plays `unit`, passing every action to `on_action` as [`play_pair`] does.
fn play_unit<S: GameState>(
    rules: &S::Ruleset,
    players: &[PreparedAgent<S>],
    unit: &Unit,
    on_action: impl FnMut(usize, &S, ActionOf<S>),
) -> [GameResult; 2] {
    let (i, j) = unit.players;
    play_pair(
        rules,
        [&players[i].maker, &players[j].maker],
        &unit.seeds,
        on_action,
    )
}

/// Plays unit `t` of `schedule` and hands both its games to `sink`.
fn play_unit_to_sink<S: GameState>(
    rules: &S::Ruleset,
    players: &[PreparedAgent<S>],
    schedule: &Schedule,
    t: u64,
    sink: &GameSink<'_, S>,
) -> Result<[GameResult; 2], ArenaError> {
    let unit = schedule.unit(t);
    let mut actions: [Vec<ActionOf<S>>; 2] = [Vec::new(), Vec::new()];
    let results = play_unit(rules, players, &unit, |g, _, a| actions[g].push(a));
    let (a, b) = unit.players;
    let (a, b) = (schedule.label(a), schedule.label(b));
    for (game, (actions, result)) in actions.iter().zip(results).enumerate() {
        sink(PlayedGame {
            pairing: unit.pairing,
            pair: unit.pair,
            game,
            seats: if game == 0 { [a, b] } else { [b, a] },
            actions,
            result,
        })
        .map_err(ArenaError::Sink)?;
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use qasab_core::{Action, ByPlayer, EndReason, tab, tihbat};

    use super::*;
    use crate::agent::Agent;

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
}
