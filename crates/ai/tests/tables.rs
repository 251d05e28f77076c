//! The endgame tables in the jobs that play and rate games: every player of a simulation or an
//! arena, and the rating player of an analysis, consult them first
//! (`PreparedAgent::with_tables`), and nothing changes without them.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use qasab_ai::agent::ValueKind;
use qasab_ai::play::analysis::{Thresholds, analyse};
use qasab_ai::play::arena::{ArenaOptions, PlayedGame, arena, arena_with_games};
use qasab_ai::play::driver::{ChanceSource, play_out, seat_seed};
use qasab_ai::play::simulate::simulate;
use qasab_ai::players::{AnyPlayer, PreparedAgent};
use qasab_ai::search::endgame::{self, BuildSpec, TableSet, file as table_file};
use qasab_core::{ActionOf, AnyRuleset, GameState, Player, Ruleset, Turn, tab};

/// Tâb with one piece a side, whose whole game from the start is a table of a few thousand
/// positions: every decision of every game is in it.
const ONE_EACH: &str =
    "tab(columns=7,pieces=1,throw_timing=interleaved,tab_bank=none,reduction=off)";

/// The tables of `ruleset` built from `seeds` into a directory of their own.
fn tables(ruleset: &str, seeds: &[String]) -> (tempfile::TempDir, Arc<TableSet>) {
    let rules: AnyRuleset = ruleset.parse().unwrap();
    let spec = BuildSpec {
        seeds: seeds.to_vec(),
        ..BuildSpec::default()
    };
    let built = endgame::build(&rules, &spec, &mut |_| {}).unwrap();
    let dir = tempfile::tempdir().unwrap();
    table_file::write(&dir.path().join("t.qeg"), &built.header, built.entries).unwrap();
    let set = TableSet::open_dir(dir.path(), &rules).unwrap();
    assert!(!set.is_empty());
    (dir, Arc::new(set))
}

/// The rules of [`ONE_EACH`] and the table of every position of its games.
fn one_each() -> (tab::Ruleset, tempfile::TempDir, Arc<TableSet>) {
    let rules: tab::Ruleset = ONE_EACH.parse().unwrap();
    let (dir, set) = tables(ONE_EACH, &[rules.initial_state().position_id()]);
    (rules, dir, set)
}

/// A seeded game between two players from the start: its actions and the states they were
/// made in.
fn game(
    rules: &tab::Ruleset,
    specs: [&str; 2],
    seed: u64,
) -> Vec<(tab::State, ActionOf<tab::State>)> {
    let mut agents = Player::ALL.map(|p| {
        PreparedAgent::<tab::State>::new(specs[p.index()], rules)
            .unwrap()
            .make(seat_seed(seed, p))
    });
    let mut played = Vec::new();
    play_out(
        rules.initial_state(),
        &mut agents,
        &mut ChanceSource::new(seed),
        |s, a| played.push((*s, a)),
    );
    played
}

/// The first decision with more than one legal move.
fn first_choice(played: &[(tab::State, ActionOf<tab::State>)]) -> tab::State {
    let mut moves = Vec::new();
    played
        .iter()
        .find(|(s, _)| {
            s.legal_moves(&mut moves);
            matches!(s.turn(), Turn::Player(_)) && moves.len() > 1
        })
        .expect("a decision between moves")
        .0
}

#[test]
fn a_prepared_player_with_tables_rates_and_plays_by_them_and_is_itself_without() {
    let (rules, _dir, set) = one_each();
    let at = first_choice(&game(&rules, ["random", "random"], 3));
    let greedy = PreparedAgent::<tab::State>::new("greedy", &rules).unwrap();
    let plain = greedy
        .clone()
        .with_tables(None)
        .make(1)
        .evaluate(&at)
        .unwrap();
    assert_eq!(plain.kind, ValueKind::Estimate);
    let mut agent = greedy.with_tables(Some(&set)).make(1);
    assert_eq!(
        agent.spec(),
        "greedy(seed=1)",
        "the spec is the player's own"
    );
    let exact = agent.evaluate(&at).unwrap();
    assert_eq!(exact.kind, ValueKind::ExactResult);
    let (_, probed) = set.probe_typed(&at).unwrap();
    for (m, v) in &exact.moves {
        let table = probed.iter().find(|(x, _)| x == m).unwrap().1;
        assert!((v - table).abs() < 1e-12, "{m}: {v} against {table}");
    }
    let chosen = agent.choose(&at);
    let value = exact.moves.iter().find(|(m, _)| *m == chosen).unwrap().1;
    assert!(
        value >= exact.moves[0].1 - 1e-9,
        "{chosen} is not a best move"
    );

    // The dynamic player, as the server holds it.
    let any: AnyRuleset = ONE_EACH.parse().unwrap();
    let state = any.state_from_id(&at.position_id()).unwrap();
    let player = AnyPlayer::new("greedy", &any).unwrap();
    let kind = |p: &AnyPlayer| p.evaluate(&state, 1).unwrap().unwrap().kind;
    assert_eq!(kind(&player), ValueKind::Estimate);
    let with = player.with_tables(Some(&set));
    assert_eq!(kind(&with), ValueKind::ExactResult);
    assert_eq!(with.spec().to_string(), "greedy");
}

/// A simulation's results without the fields that name the players or time the run.
fn results(games: &[qasab_ai::play::simulate::GameSummary]) -> Vec<String> {
    games.iter().map(|g| format!("{g:?}")).collect()
}

#[test]
fn every_player_of_a_simulation_or_an_arena_plays_by_the_tables() {
    let (rules, _dir, set) = one_each();
    let run = |specs: [&str; 2], tables: Option<&Arc<TableSet>>| {
        results(&simulate::<tab::State>(&rules, specs, tables, 40, 1, 2, &|| {}).unwrap())
    };
    // Every decision is in the table, so with it any two players play the same games; without
    // it they play their own.
    let with = run(["random", "random"], Some(&set));
    assert_eq!(with, run(["greedy", "random"], Some(&set)));
    assert_eq!(with, run(["greedy", "greedy"], Some(&set)));
    let without = run(["random", "random"], None);
    assert_ne!(without, run(["greedy", "random"], None));
    assert_ne!(with, without);

    // In an arena both games of a pair share their throws with the seats swapped: the same
    // game twice, one win each.
    let options = ArenaOptions {
        games_per_pairing: 8,
        seed: 2,
        threads: 2,
    };
    let specs = ["random", "greedy"];
    // Whether both games of each pair were the same game.
    let twins = |tables: Option<&Arc<TableSet>>| {
        let games = Mutex::new(BTreeMap::new());
        let sink = |g: PlayedGame<'_, tab::State>| {
            games
                .lock()
                .unwrap()
                .insert((g.pair, g.game), g.actions.to_vec());
            Ok(())
        };
        let report =
            arena_with_games::<tab::State>(&rules, &specs, tables, &options, &|| {}, Some(&sink))
                .unwrap();
        let games = games.into_inner().unwrap();
        let same = (0..4)
            .map(|k| games[&(k, 0)] == games[&(k, 1)])
            .collect::<Vec<_>>();
        (report, same)
    };
    let (report, same) = twins(Some(&set));
    assert_eq!(same, [true; 4]);
    let p = &report.pairings[0];
    assert_eq!((p.a_wins, p.b_wins, p.a_score), (4, 4, 0.5));
    assert_eq!(
        report.tables,
        set.files().map(String::from).collect::<Vec<_>>()
    );
    let (plain, same) = twins(None);
    assert!(
        same.contains(&false),
        "random and greedy play their own moves"
    );
    assert!(plain.tables.is_empty());
    assert_eq!(
        plain,
        arena::<tab::State>(&rules, &specs, &options, &|| {}).unwrap()
    );
}

#[test]
fn an_analysis_gives_exact_values_and_exact_errors_where_the_tables_hold_the_position() {
    let rules: tab::Ruleset = ONE_EACH.parse().unwrap();
    // A table of the positions reachable from a throw two thirds of the way through a game:
    // the decisions it holds are the table's, the others the rating player's. A lone piece's
    // essence keeps only its square and marks, so positions met before the seed can be in the
    // table too; the first seeded game where some judged decision is not is taken.
    // The judged decisions (more than one legal move) of a game outside and inside a table.
    let judged = |played: &[(tab::State, ActionOf<tab::State>)], set: &TableSet| {
        let mut moves = Vec::new();
        let (mut outside, mut inside) = (0, 0);
        for (s, a) in played {
            if !matches!(a, qasab_core::Action::Move(_)) {
                continue;
            }
            s.legal_moves(&mut moves);
            if moves.len() > 1 {
                match set.probe_typed(s) {
                    Ok(_) => inside += 1,
                    Err(_) => outside += 1,
                }
            }
        }
        (outside, inside)
    };
    let (played, from, _dir, set) = (3..60)
        .find_map(|seed| {
            let played = game(&rules, ["random", "random"], seed);
            let from = (played.iter().enumerate())
                .filter(|(i, (s, _))| *i >= 2 * played.len() / 3 && s.turn() == Turn::Chance)
                .map(|(i, _)| i)
                .next()?;
            let (dir, set) = tables(ONE_EACH, &[played[from].0.position_id()]);
            let (outside, inside) = judged(&played, &set);
            (outside > 0 && inside > 0).then_some((played, from, dir, set))
        })
        .expect("a game with judged decisions inside and outside the table");
    let actions: Vec<ActionOf<tab::State>> = played.iter().map(|&(_, a)| a).collect();
    let prepared = PreparedAgent::<tab::State>::new("greedy", &rules).unwrap();
    let rate = |tables: Option<&Arc<TableSet>>| {
        let mut agent = prepared.clone().with_tables(tables).make(0);
        analyse(
            &rules.initial_state(),
            &actions,
            agent.as_mut(),
            &|_, _| 0.0,
            "greedy",
            &|| {},
        )
        .unwrap()
    };
    let plain = rate(None);
    let a = rate(Some(&set));
    // The rating player's own kind, and its thresholds, which exact results share.
    assert_eq!(a.value_kind, ValueKind::Estimate);
    assert_eq!(a.thresholds, Thresholds::for_kind(ValueKind::ExactResult));
    let (mut exact, mut estimated) = (0, 0);
    for (r, p) in a.moves.iter().zip(&plain.moves) {
        assert_eq!(
            (r.action, r.played, r.choices),
            (p.action, p.played, p.choices)
        );
        let (state, _) = &played[r.action - 1];
        if r.choices == 1 {
            assert_eq!((r.kind, r.mark), (None, None));
            continue;
        }
        match set.probe_typed(state) {
            Ok((_, values)) => {
                exact += 1;
                assert_eq!(r.kind, Some(ValueKind::ExactResult), "action {}", r.action);
                let value = |m| values.iter().find(|(x, _)| *x == m).unwrap().1;
                assert!((r.played_value - value(r.played)).abs() < 1e-12);
                let best = values.iter().map(|&(_, v)| v).fold(f64::MIN, f64::max);
                assert!((r.best_value - best).abs() < 1e-12);
                assert_eq!(
                    r.mark,
                    Thresholds::for_kind(ValueKind::ExactResult).mark(r.loss)
                );
            }
            Err(_) => {
                estimated += 1;
                assert!(
                    r.action <= from,
                    "action {} is after the table's seed",
                    r.action
                );
                assert_eq!(r.kind, Some(ValueKind::Estimate));
                assert_eq!(
                    (r.played_value, r.loss, r.mark),
                    (p.played_value, p.loss, p.mark)
                );
            }
        }
    }
    assert!(
        exact > 0 && estimated > 0,
        "{exact} exact, {estimated} estimated"
    );
    let counted: usize = a.players.iter().map(|s| s.exact).sum();
    assert_eq!(counted, exact);
    assert!(plain.players.iter().all(|s| s.exact == 0));
    assert_eq!(plain.value_kind, ValueKind::Estimate);
    // A game rated entirely by the tables is of their kind.
    let (_dir, whole) = tables(ONE_EACH, &[rules.initial_state().position_id()]);
    let all = rate(Some(&whole));
    assert_eq!(all.value_kind, ValueKind::ExactResult);
    let judged = all.moves.iter().filter(|r| r.choices > 1).count();
    assert_eq!(all.players.iter().map(|s| s.exact).sum::<usize>(), judged);
}
