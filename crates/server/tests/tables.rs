//! A server with endgame tables (`qasab serve --tables DIR`): where a table holds the
//! position, its hints are exact results and its computer seats play a best move.

mod common;

use std::path::Path;
use std::sync::Arc;

use axum::http::StatusCode;
use common::Server;
use qasab_ai::search::endgame::{self, BuildSpec, TableSet, file as table_file};
use qasab_core::AnyRuleset;
use qasab_server::Config;
use qasab_server::game::{HintKind, Next, new_game};
use serde_json::{Value, json};

/// Tâb with one piece a side, whose whole game from the start is a table of a few thousand
/// positions: every decision of every game is in it.
const ONE_EACH: &str =
    "tab(columns=7,pieces=1,throw_timing=interleaved,tab_bank=none,reduction=off)";

/// Writes the table of every game of [`ONE_EACH`] into `dir`.
fn build_table(dir: &Path) {
    let rules: AnyRuleset = ONE_EACH.parse().unwrap();
    let start = rules.initial_state().position_id();
    let spec = BuildSpec {
        seeds: vec![start],
        ..BuildSpec::default()
    };
    let built = endgame::build(&rules, &spec, &mut |_| {}).unwrap();
    table_file::write(&dir.join("one-each.qeg"), &built.header, built.entries).unwrap();
}

/// The hint of `agent` (`null`: the game's strongest) for the game's current decision.
async fn hint(s: &Server, id: &str, index: &Value, agent: Value) -> Value {
    let body = json!({"index": index, "agent": agent});
    let (status, h) = s.post(&format!("/api/games/{id}/hint"), None, body).await;
    assert_eq!(status, StatusCode::OK, "{h}");
    h
}

#[tokio::test]
async fn hints_are_exact_results_where_the_servers_tables_hold_the_position() {
    let tables = tempfile::tempdir().unwrap();
    build_table(tables.path());
    let s = Server::with(Config {
        tables: Some(tables.path().to_path_buf()),
        ..Config::default()
    });
    assert_eq!(s.state.table_rulesets(), [ONE_EACH]);
    let plain = Server::new();
    assert!(plain.state.table_rulesets().is_empty());
    for (server, kind) in [(&s, "exact-result"), (&plain, "estimate")] {
        // Two people, so that the game waits at its first decision: a computer seat could win
        // this small game before the person's first turn (the throws are the game's own).
        let (id, _, created) = server
            .create_with(json!({"ruleset": ONE_EACH, "seats": ["human", "human"], "hints": true}))
            .await;
        let state = &created["state"];
        assert_eq!(state["turn"]["kind"], "player", "{state}");
        let index = &state["index"];
        let h = hint(server, &id, index, json!("greedy")).await;
        assert_eq!(h["kind"], kind, "{h}");
        assert_eq!(h["agent"], "greedy");
        let legal = state["legal"].as_array().unwrap();
        assert_eq!(h["moves"].as_array().unwrap().len(), legal.len());
        // The game's strongest player too.
        let h = hint(server, &id, index, Value::Null).await;
        assert_eq!(h["kind"], kind, "{h}");
    }
    // A table of another ruleset is not used.
    let (id, _, created) = s.create("tab", ["human", "greedy"]).await;
    let h = hint(&s, &id, &created["state"]["index"], json!("greedy")).await;
    assert_eq!(h["kind"], "estimate");
}

#[test]
fn a_games_computer_seats_play_a_best_move_of_its_tables() {
    let dir = tempfile::tempdir().unwrap();
    build_table(dir.path());
    let rules: AnyRuleset = ONE_EACH.parse().unwrap();
    let set = Arc::new(TableSet::open_dir(dir.path(), &rules).unwrap());
    let limits = Config::default().limits();
    let seats = ["random".to_string(), "random".to_string()];
    // Games until 30 decisions between moves of different values have been played: a player
    // without the tables would miss the best of them many times.
    let (mut choices, mut fresh) = (0, 0u64);
    for seed in 0..100 {
        if choices >= 30 {
            break;
        }
        let mut game = new_game(ONE_EACH, &seats, seed, &limits).unwrap();
        game.set_tables(Some(set.clone()));
        let mut without = new_game(ONE_EACH, &seats, seed, &limits).unwrap();
        loop {
            match game.next() {
                Next::Over => break,
                Next::Chance => {
                    fresh += 1;
                    let throw = game.throw(fresh).unwrap();
                    game.play(throw).unwrap();
                }
                Next::Computer(_) => {
                    let hint = game.hint_job(Some("greedy"), 1, &limits).unwrap()().unwrap();
                    assert_eq!(hint.kind, HintKind::ExactResult);
                    let chosen = game.computer_job(false).unwrap()()[0];
                    let value = |action: &str| {
                        hint.moves
                            .iter()
                            .find(|m| m.action == action)
                            .unwrap()
                            .value
                    };
                    let best = hint.moves[0].value;
                    if hint.moves.iter().any(|m| m.value < best - 1e-9) {
                        choices += 1;
                        assert!(
                            value(&chosen.to_string()) >= best - 1e-9,
                            "{chosen} against {:?}",
                            hint.moves[0].action
                        );
                    }
                    // The same decision without the tables is the player's own.
                    for a in game.played().into_iter().skip(without.index()) {
                        without.play(a).unwrap();
                    }
                    let own = without.hint_job(Some("greedy"), 1, &limits).unwrap()().unwrap();
                    assert_eq!(own.kind, HintKind::Estimate);
                    game.play(chosen).unwrap();
                }
                Next::Human(_) => unreachable!("two computer seats"),
            }
        }
    }
    assert!(
        choices >= 30,
        "{choices} decisions between moves of different values"
    );
}
