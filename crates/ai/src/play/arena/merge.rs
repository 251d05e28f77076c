//! Arenas of the same players on the same ruleset, played with different seeds, reported as
//! one: every pairing's score, interval and Elo difference and the ladder over all their
//! games, as the arena itself computes them (`qasab arena-merge`).
//!
//! A long match is often played in runs (on several machines, or over several sittings), each
//! with its own seed, so its own throws. Their reports cannot simply be averaged: the interval
//! of a score comes from the spread of its game pairs ([`crate::play::stats`]), and a report
//! keeps enough to recover every pair's score. In a pairing's report, the pairs A won twice
//! score 1, those B won twice 0, and those the same seat won twice ½
//! ([`GamePairs`](super::GamePairs)); each remaining pair holds a drawn or truncated game, and
//! scores ¾, ¼ or ½ as its other game was A's, B's, or drawn or truncated too. A's wins outside
//! the first kinds count the ¾ pairs, B's the ¼ pairs, and the rest are ½. The merged report is
//! then [`ArenaReport::new`] over all those pairs: the statistics of one arena that had played
//! them all (to rounding, as the sums run over the pairs in another order).

use std::collections::HashMap;

use thiserror::Error;

use super::games::GameResult;
use super::options::{ArenaError, MAX_GAMES};
use super::report::{ArenaReport, PairingReport};
use super::schedule::pairings;

/// Why reports cannot be merged. Each message starts with the name of the report it is about.
#[derive(Debug, Error)]
pub enum MergeError {
    /// No reports were given.
    #[error("no arena reports to merge")]
    Empty,
    /// A text is not the JSON of an arena report.
    #[error("{name}: not an arena report (the JSON of `qasab arena --json`): {reason}")]
    Json {
        /// The report's name.
        name: String,
        /// What the JSON reader said (in the message, so not also a source).
        reason: serde_json::Error,
    },
    /// A report is of another ruleset than the first.
    #[error("{name}: an arena of {found}, where {first} is of {expected}")]
    Ruleset {
        /// The report's name.
        name: String,
        /// Its ruleset.
        found: String,
        /// The first report's name.
        first: String,
        /// The first report's ruleset.
        expected: String,
    },
    /// A report's players are not the first report's, in the same order.
    #[error(
        "{name}: the players are {found}, where {first} has {expected}; only arenas of the same players in the same order merge"
    )]
    Players {
        /// The report's name.
        name: String,
        /// Its players.
        found: String,
        /// The first report's name.
        first: String,
        /// The first report's players.
        expected: String,
    },
    /// A report's players consulted other endgame tables than the first's.
    #[error(
        "{name}: the players consulted the endgame tables [{found}], where in {first} [{expected}]"
    )]
    Tables {
        /// The report's name.
        name: String,
        /// Its tables.
        found: String,
        /// The first report's name.
        first: String,
        /// The first report's tables.
        expected: String,
    },
    /// Two reports share a seed: they hold the same games.
    #[error("{name}: played with seed {seed}, as {other} was; the two hold the same games")]
    Seed {
        /// The report's name.
        name: String,
        /// The seed.
        seed: u64,
        /// The earlier report with that seed.
        other: String,
    },
    /// A report's pairings are not a round robin, or its counts do not add up.
    #[error("{name}: {why}")]
    Counts {
        /// The report's name.
        name: String,
        /// What does not add up.
        why: String,
    },
    /// The merged ladder could not be fitted.
    #[error("{0}")]
    Arena(#[from] ArenaError),
}

/// Reads an arena report from its JSON (`qasab arena --json`), naming it `name` in errors.
///
/// # Errors
/// [`MergeError::Json`] if the text is not such a report.
pub fn read_report(name: &str, json: &str) -> Result<ArenaReport, MergeError> {
    serde_json::from_str(json).map_err(|reason| MergeError::Json {
        name: name.to_string(),
        reason,
    })
}

/// The report of all the games of `reports`, each given with the name its errors use: the
/// same ruleset, the same players in the same order, the same endgame tables, and no seed
/// twice. The merged report plays `games_per_pairing` as the sum of theirs, `seed` is the first
/// report's and `seeds` lists every report's seeds in order.
///
/// # Errors
/// [`MergeError`] naming the first report that does not fit the first one, or whose counts do
/// not add up.
pub fn merge(reports: &[(String, ArenaReport)]) -> Result<ArenaReport, MergeError> {
    let Some((first, head)) = reports.first() else {
        return Err(MergeError::Empty);
    };
    let labels = labels_of(first, head)?;
    let pairs = |r: &ArenaReport| -> Vec<(String, String)> {
        r.pairings
            .iter()
            .map(|p| (p.a.clone(), p.b.clone()))
            .collect()
    };
    let players = |r: &ArenaReport| {
        r.pairings
            .iter()
            .map(|p| format!("{} against {}", p.a, p.b))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut results = vec![Vec::new(); head.pairings.len()];
    let mut seen: HashMap<u64, &str> = HashMap::new();
    let mut seeds = Vec::new();
    let mut games = 0u64;
    for (name, r) in reports {
        if r.ruleset != head.ruleset {
            return Err(MergeError::Ruleset {
                name: name.clone(),
                found: r.ruleset.clone(),
                first: first.clone(),
                expected: head.ruleset.clone(),
            });
        }
        // Compared as pairs of labels, not as text: a spec has commas of its own.
        if pairs(r) != pairs(head) {
            return Err(MergeError::Players {
                name: name.clone(),
                found: players(r),
                first: first.clone(),
                expected: players(head),
            });
        }
        if r.tables != head.tables {
            return Err(MergeError::Tables {
                name: name.clone(),
                found: r.tables.join(", "),
                first: first.clone(),
                expected: head.tables.join(", "),
            });
        }
        let own = if r.seeds.is_empty() {
            vec![r.seed]
        } else {
            r.seeds.clone()
        };
        for seed in own {
            if let Some(other) = seen.insert(seed, name) {
                return Err(MergeError::Seed {
                    name: name.clone(),
                    seed,
                    other: other.to_string(),
                });
            }
            seeds.push(seed);
        }
        // Checked before any game pair is kept, in u128 so that no count overflows.
        let total = (u128::from(games) + u128::from(r.games_per_pairing)) * results.len() as u128;
        if total > u128::from(MAX_GAMES) {
            return Err(MergeError::Counts {
                name: name.clone(),
                why: format!("the reports hold {total} games in all; at most {MAX_GAMES} merge"),
            });
        }
        for (p, into) in r.pairings.iter().zip(&mut results) {
            if p.games != r.games_per_pairing {
                return Err(MergeError::Counts {
                    name: name.clone(),
                    why: format!(
                        "pairing {} against {}: {} games, where the report says {} a pairing",
                        p.a, p.b, p.games, r.games_per_pairing
                    ),
                });
            }
            into.extend(game_pairs(p).map_err(|why| MergeError::Counts {
                name: name.clone(),
                why: format!("pairing {} against {}: {why}", p.a, p.b),
            })?);
        }
        games += r.games_per_pairing;
    }
    let mut merged = ArenaReport::new(head.ruleset.clone(), labels, games, head.seed, &results)?;
    merged.seeds = seeds;
    merged.tables.clone_from(&head.tables);
    Ok(merged)
}

/// The players of a report in arena order, read from its pairings: (0,1), (0,2), …, (1,2), …
fn labels_of(name: &str, r: &ArenaReport) -> Result<Vec<String>, MergeError> {
    let Some(p0) = r.pairings.first() else {
        return Err(MergeError::Counts {
            name: name.to_string(),
            why: "no pairings".to_string(),
        });
    };
    let mut labels = vec![p0.a.clone()];
    labels.extend(
        r.pairings
            .iter()
            .take_while(|p| p.a == p0.a)
            .map(|p| p.b.clone()),
    );
    let expected: Vec<(&str, &str)> = pairings(labels.len())
        .into_iter()
        .map(|(i, j)| (labels[i].as_str(), labels[j].as_str()))
        .collect();
    let found: Vec<(&str, &str)> = r
        .pairings
        .iter()
        .map(|p| (p.a.as_str(), p.b.as_str()))
        .collect();
    if found != expected {
        return Err(MergeError::Counts {
            name: name.to_string(),
            why: "the pairings are not an arena's round robin of its players".to_string(),
        });
    }
    Ok(labels)
}

/// The game pairs of a pairing's report, as the arena would have collected them (see the
/// module docs), or what does not add up. Within a pair holding a drawn or truncated game,
/// that game is put first, and drawn games before truncated ones: the report does not say,
/// and nothing it reports depends on it.
fn game_pairs(p: &PairingReport) -> Result<Vec<[GameResult; 2]>, String> {
    use GameResult::{AWins, BWins, Draw, Truncated};
    let g = &p.game_pairs;
    // In u128, so that no count read from a file overflows.
    let w = u128::from;
    let pairs =
        w(g.a_both) + w(g.b_both) + w(g.first_seat_both) + w(g.second_seat_both) + w(g.with_draw);
    if w(p.games) != 2 * pairs {
        return Err(format!("{} games, but {pairs} game pairs", p.games));
    }
    if w(p.a_wins) + w(p.b_wins) + w(p.draws) + w(p.truncated) != w(p.games) {
        return Err(format!(
            "{} wins of A, {} of B, {} draws and {} truncated games do not add up to {} games",
            p.a_wins, p.b_wins, p.draws, p.truncated, p.games
        ));
    }
    // Every count is now at most the games, which the caller keeps under `MAX_GAMES`.
    let split = g.first_seat_both + g.second_seat_both;
    let rest = |wins: u64, both: u64, who: &str| {
        wins.checked_sub(2 * both + split)
            .ok_or_else(|| format!("{wins} wins of {who} are fewer than its game pairs hold"))
    };
    let a_one = rest(p.a_wins, g.a_both, "A")?;
    let b_one = rest(p.b_wins, g.b_both, "B")?;
    let two = g
        .with_draw
        .checked_sub(a_one + b_one)
        .ok_or_else(|| "more single wins than pairs with a draw or truncation".to_string())?;
    if a_one + b_one + 2 * two != p.draws + p.truncated {
        return Err(format!(
            "{} pairs with a draw or truncation cannot hold {} draws and {} truncated games",
            g.with_draw, p.draws, p.truncated
        ));
    }
    let mut even = std::iter::repeat_n(Draw, p.draws as usize)
        .chain(std::iter::repeat_n(Truncated, p.truncated as usize));
    let mut next = || even.next().expect("the counts were checked");
    let mut out = Vec::with_capacity(pairs as usize);
    let mut add = |n: u64, pair: &mut dyn FnMut() -> [GameResult; 2]| {
        out.extend((0..n).map(|_| pair()));
    };
    add(g.a_both, &mut || [AWins, AWins]);
    add(g.b_both, &mut || [BWins, BWins]);
    add(g.first_seat_both, &mut || [AWins, BWins]);
    add(g.second_seat_both, &mut || [BWins, AWins]);
    add(a_one, &mut || [next(), AWins]);
    add(b_one, &mut || [next(), BWins]);
    add(two, &mut || [next(), next()]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LABELS: [&str; 3] = ["greedy", "random", "mcts(level=1)"];

    fn report(seed: u64, players: usize, results: &[Vec<[GameResult; 2]>]) -> ArenaReport {
        let labels = LABELS[..players].iter().map(|s| s.to_string()).collect();
        let games = 2 * results[0].len() as u64;
        ArenaReport::new("tab".into(), labels, games, seed, results).expect("a report")
    }

    fn named(r: ArenaReport) -> (String, ArenaReport) {
        (format!("seed {}", r.seed), r)
    }

    fn result() -> impl Strategy<Value = GameResult> {
        prop_oneof![
            Just(GameResult::AWins),
            Just(GameResult::BWins),
            Just(GameResult::Draw),
            Just(GameResult::Truncated),
        ]
    }

    /// Game pairs for each pairing of `players` players, `pairs` pairs each.
    fn runs(players: usize, pairs: usize) -> impl Strategy<Value = Vec<Vec<[GameResult; 2]>>> {
        let n = pairings(players).len();
        prop::collection::vec(prop::collection::vec([result(), result()], pairs), n)
    }

    proptest! {
        /// Two runs merged report what one arena of all their game pairs reports (to rounding).
        #[test]
        fn merging_runs_reports_what_one_arena_of_their_games_does(
            players in 2usize..=3,
            (one, two) in (1usize..6, 1usize..6).prop_flat_map(|(x, y)| (runs(3, x), runs(3, y))),
        ) {
            let n = pairings(players).len();
            let (one, two) = (one[..n].to_vec(), two[..n].to_vec());
            let a = report(1, players, &one);
            let b = report(2, players, &two);
            // Through the JSON, as the command reads them.
            let read = |r: &ArenaReport| {
                read_report("x", &serde_json::to_string(r).expect("JSON")).expect("read back")
            };
            prop_assert_eq!(&read(&a), &a);
            let merged = merge(&[named(read(&a)), named(read(&b))]).expect("merged");
            let all: Vec<Vec<[GameResult; 2]>> =
                one.iter().zip(&two).map(|(x, y)| [x.clone(), y.clone()].concat()).collect();
            let whole = report(1, players, &all);
            prop_assert_eq!(&merged.seeds, &vec![1, 2]);
            prop_assert_eq!(merged.games_per_pairing, whole.games_per_pairing);
            let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * (1.0 + x.abs());
            for (m, w) in merged.pairings.iter().zip(&whole.pairings) {
                prop_assert_eq!(
                    (&m.a, &m.b, m.games, m.a_wins, m.b_wins, m.draws, m.truncated, m.game_pairs),
                    (&w.a, &w.b, w.games, w.a_wins, w.b_wins, w.draws, w.truncated, w.game_pairs)
                );
                let floats = |p: &PairingReport| {
                    [p.a_score, p.a_score_ci95[0], p.a_score_ci95[1], p.a_elo, p.a_elo_ci95[0], p.a_elo_ci95[1]]
                };
                for (x, y) in floats(m).into_iter().zip(floats(w)) {
                    prop_assert!(close(x, y), "{:?} against {:?}", m, w);
                }
            }
            // Ratings by player: two players of tied ratings may come in either order.
            prop_assert_eq!(merged.ratings.len(), whole.ratings.len());
            for m in &merged.ratings {
                let w = whole.ratings.iter().find(|w| w.player == m.player).expect("the player");
                prop_assert!(
                    close(m.elo, w.elo)
                        && close(m.elo_ci95[0], w.elo_ci95[0])
                        && close(m.elo_ci95[1], w.elo_ci95[1]),
                    "{:?} against {:?}",
                    m,
                    w
                );
            }
        }
    }

    #[test]
    fn a_merged_report_merges_again_and_counts_its_seeds() {
        use GameResult::{AWins, BWins, Draw, Truncated};
        let runs = [
            vec![vec![[AWins, Draw], [BWins, BWins], [Truncated, Draw]]],
            vec![vec![[AWins, AWins], [AWins, BWins]]],
            vec![vec![[Draw, BWins]]],
        ];
        let [a, b, c] = [1, 2, 3].map(|s| report(s, 2, &runs[s as usize - 1]));
        let ab = merge(&[named(a.clone()), named(b.clone())]).expect("merged");
        assert_eq!(ab.seeds, [1, 2]);
        assert_eq!(ab.games_per_pairing, 10);
        let abc = merge(&[("ab".into(), ab), named(c.clone())]).expect("merged");
        let flat = merge(&[named(a.clone()), named(b), named(c)]).expect("merged");
        assert_eq!(abc, flat);
        assert_eq!(abc.seeds, [1, 2, 3]);
        let p = &abc.pairings[0];
        assert_eq!(
            (p.games, p.a_wins, p.b_wins, p.draws, p.truncated),
            (12, 4, 4, 3, 1)
        );
        // One report merges to itself, with its seed listed.
        let mut alone = merge(&[named(a.clone())]).expect("merged");
        assert_eq!(alone.seeds, [1]);
        alone.seeds.clear();
        assert_eq!(alone, a);
    }

    #[test]
    fn reports_that_do_not_fit_are_refused_with_the_reason() {
        use GameResult::{AWins, BWins};
        let games = vec![vec![[AWins, BWins], [AWins, AWins]]];
        let a = report(1, 2, &games);
        let message = |rs: &[(String, ArenaReport)]| merge(rs).expect_err("refused").to_string();
        assert_eq!(message(&[]), "no arena reports to merge");
        let again = message(&[("a.json".into(), a.clone()), ("b.json".into(), a.clone())]);
        assert_eq!(
            again,
            "b.json: played with seed 1, as a.json was; the two hold the same games"
        );
        let mut hyde = report(2, 2, &games);
        hyde.ruleset = "tab-hyde".into();
        assert_eq!(
            message(&[("a.json".into(), a.clone()), ("b.json".into(), hyde)]),
            "b.json: an arena of tab-hyde, where a.json is of tab"
        );
        let mut swapped = report(2, 2, &games);
        let p = &mut swapped.pairings[0];
        std::mem::swap(&mut p.a, &mut p.b);
        assert!(
            message(&[("a.json".into(), a.clone()), ("b.json".into(), swapped)])
                .starts_with("b.json: the players are random against greedy, where a.json has greedy against random;")
        );
        let three = report(
            2,
            3,
            &[games[0].clone(), games[0].clone(), games[0].clone()],
        );
        assert!(
            message(&[("a.json".into(), a.clone()), ("b.json".into(), three)])
                .starts_with("b.json: the players are")
        );
        let mut tables = report(2, 2, &games);
        tables.tables = vec!["kk.qeg".into()];
        assert_eq!(
            message(&[("a.json".into(), a.clone()), ("b.json".into(), tables)]),
            "b.json: the players consulted the endgame tables [kk.qeg], where in a.json []"
        );
        let mut wins = report(2, 2, &games);
        wins.pairings[0].a_wins += 1;
        wins.pairings[0].b_wins -= 1;
        assert_eq!(
            message(&[("a.json".into(), a.clone()), ("b.json".into(), wins)]),
            "b.json: pairing greedy against random: 0 wins of B are fewer than its game pairs hold"
        );
        let mut short = report(2, 2, &games);
        short.games_per_pairing = 6;
        assert_eq!(
            message(&[("a.json".into(), a.clone()), ("b.json".into(), short)]),
            "b.json: pairing greedy against random: 4 games, where the report says 6 a pairing"
        );
        // Counts that would overflow, or ask for more games than an arena plays.
        let mut huge = report(2, 2, &games);
        let p = &mut huge.pairings[0];
        p.game_pairs.a_both = u64::MAX;
        p.game_pairs.with_draw = u64::MAX;
        assert_eq!(
            message(&[
                ("a.json".into(), a.clone()),
                ("b.json".into(), huge.clone())
            ]),
            "b.json: pairing greedy against random: 4 games, but 36893488147419103231 game pairs"
        );
        huge.games_per_pairing = u64::MAX;
        huge.pairings[0].games = u64::MAX;
        assert_eq!(
            message(&[("a.json".into(), a.clone()), ("b.json".into(), huge)]),
            "b.json: the reports hold 18446744073709551619 games in all; at most 100000000 merge"
        );
        let err = read_report("c.json", "{\"ruleset\": \"tab\"}").expect_err("refused");
        assert!(
            err.to_string().starts_with(
                "c.json: not an arena report (the JSON of `qasab arena --json`): missing field"
            ),
            "{err}"
        );
    }
}
