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
//!
//! [`ChanceSource::new`]: crate::play::driver::ChanceSource::new
//! [`derive_seed`]: crate::rng::derive_seed

mod games;
mod merge;
mod options;
mod rating;
mod report;
mod schedule;

pub use games::{
    GameResult, GameSink, PlayedGame, play_pair, play_pair_to_end, play_round_robin,
    play_round_robin_with_games, play_units, units_by_pairing,
};
pub use merge::{MergeError, merge, read_report};
pub use options::{ArenaError, ArenaOptions, MAX_GAMES, MAX_THREADS};
pub use rating::RatingReport;
pub use report::{ArenaReport, GamePairs, PairingReport};
pub use schedule::{PairSeeds, labels, pairings, player_base_seed};

use std::sync::Arc;

use crate::players::{Playable, PreparedAgent};
use crate::search::endgame::TableSet;
use crate::spec::AgentSpec;

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
    arena_with_games::<S>(rules, specs, None, options, tick, None)
}

/// [`arena`], every player consulting the endgame tables `tables` first if they are given
/// ([`PreparedAgent::with_tables`]; same seeds, same labels), and handing every game played
/// to `sink` if one is given (as `qasab arena --records` writes each game's record). Without
/// tables the games and the report are those of [`arena`].
///
/// # Errors
/// As [`arena`], and [`ArenaError::Sink`] with the sink's first error.
pub fn arena_with_games<S: Playable>(
    rules: &S::Ruleset,
    specs: &[&str],
    tables: Option<&Arc<TableSet>>,
    options: &ArenaOptions,
    tick: &(dyn Fn() + Sync),
    sink: Option<&GameSink<'_, S>>,
) -> Result<ArenaReport, ArenaError> {
    options.check(specs.len())?;
    let players = specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            PreparedAgent::<S>::new(s, rules)
                .map(|p| p.with_tables(tables))
                .map_err(|source| ArenaError::Player {
                    number: i + 1,
                    spec: s.to_string(),
                    source: Box::new(source),
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let results = play_round_robin_with_games(rules, &players, options, tick, sink)?;
    let specs: Vec<AgentSpec> = players.iter().map(|p| p.spec.clone()).collect();
    let mut report = ArenaReport::new(
        rules.to_string(),
        labels(&specs),
        options.games_per_pairing,
        options.seed,
        &results,
    )?;
    report.tables = tables.map_or_else(Vec::new, |t| t.files().map(String::from).collect());
    Ok(report)
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use qasab_core::{ActionOf, GameState, Player, Ruleset, tab_ludii, tihbat};

    use super::*;

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
        let with = arena_with_games::<tab_ludii::State>(
            &rules,
            &specs,
            None,
            &options,
            &|| {},
            Some(&sink),
        )
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
        let err = arena_with_games::<tab_ludii::State>(
            &rules,
            &specs,
            None,
            &options,
            &|| {},
            Some(&failing),
        )
        .unwrap_err();
        assert!(
            matches!(&err, ArenaError::Sink(m) if m == "disk full"),
            "{err:?}"
        );
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
