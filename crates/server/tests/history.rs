//! A game's history as the API sends it: views list only their last actions, the rest is read
//! in pages from `GET /api/games/{id}/actions`, and each action says whose it was and gives its
//! structured form.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::*;
use qasab_server::Config;
use qasab_server::game::{VIEW_ACTIONS, new_game};
use serde_json::{Value, json};

/// What these tests ask of the shared harness.
trait History {
    async fn get_ok(&self, uri: &str) -> Value;
    async fn create_people(&self, ruleset: &str) -> (String, [String; 2], Value);
    async fn play(&self, id: &str, tokens: &[String; 2], state: &Value, pick: usize) -> Value;
    async fn all_actions(&self, id: &str, limit: usize) -> Vec<Value>;
}

impl History for Server {
    async fn get_ok(&self, uri: &str) -> Value {
        let (status, body) = self.get(uri).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {body}");
        body
    }

    /// A game between two people; its id, the two tokens and the first state.
    async fn create_people(&self, ruleset: &str) -> (String, [String; 2], Value) {
        let (id, tokens, body) = self.create(ruleset, ["human", "human"]).await;
        (id, tokens.map(Option::unwrap), body["state"].clone())
    }

    /// Plays the legal action at `pick` (modulo their number) for the seat to move.
    async fn play(&self, id: &str, tokens: &[String; 2], state: &Value, pick: usize) -> Value {
        let seat = usize::from(state["turn"]["seat"] != state["seats"][0]["seat"]);
        let legal = state["legal"].as_array().unwrap();
        let action = &legal[pick % legal.len()]["action"];
        let (status, next) = self
            .post(
                &format!("/api/games/{id}/actions"),
                Some(&tokens[seat]),
                json!({"action": action, "index": state["index"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{next}");
        next
    }

    /// Every action of the game, read in pages of `limit`.
    async fn all_actions(&self, id: &str, limit: usize) -> Vec<Value> {
        let mut all = Vec::new();
        loop {
            let page = self
                .get_ok(&format!(
                    "/api/games/{id}/actions?from={}&limit={limit}",
                    all.len()
                ))
                .await;
            assert_eq!(page["from"], all.len());
            let actions = page["actions"].as_array().unwrap();
            assert!(actions.len() <= limit);
            if actions.is_empty() {
                assert_eq!(page["total"], all.len());
                return all;
            }
            all.extend(actions.iter().cloned());
        }
    }
}

/// The actions of a view, checked to be numbered from its `actions_from` to its `index`.
fn listed(view: &Value) -> &Vec<Value> {
    let from = view["actions_from"].as_u64().unwrap() as usize;
    let actions = view["actions"].as_array().unwrap();
    assert_eq!(
        from + actions.len(),
        view["index"].as_u64().unwrap() as usize
    );
    for (i, a) in actions.iter().enumerate() {
        assert_eq!(a["index"], from + i, "{a}");
    }
    actions
}

#[tokio::test]
async fn views_list_the_last_actions_and_the_rest_is_read_in_pages() {
    let s = Server::new();
    let (id, tokens, mut state) = s.create_people("tab").await;
    let mut n = 0;
    while state["index"].as_u64().unwrap() < 260 && state["turn"]["kind"] == "player" {
        state = s.play(&id, &tokens, &state, n * 7).await;
        n += 1;
    }
    let index = state["index"].as_u64().unwrap() as usize;
    assert!(index > VIEW_ACTIONS, "the game ended after {index} actions");

    // The answer to an action lists the actions from the one played on (the player has the
    // ones before).
    let played = state["actions_from"].as_u64().unwrap() as usize;
    assert!(!listed(&state).is_empty() && listed(&state).len() < 100);
    assert_eq!(listed(&state)[0]["index"], played);

    // The game's view and a past state list their last 100.
    for view in [
        s.get_ok(&format!("/api/games/{id}")).await,
        s.get_ok(&format!("/api/games/{id}/states/{}", index - 1))
            .await,
        s.get_ok(&format!("/api/games/{id}/states/150")).await,
    ] {
        assert_eq!(VIEW_ACTIONS, 100);
        assert_eq!(listed(&view).len(), 100);
    }
    let early = s.get_ok(&format!("/api/games/{id}/states/40")).await;
    assert_eq!(early["actions_from"], 0);
    assert_eq!(listed(&early).len(), 40);

    // Every action is read in pages, whatever their size, and the view's are the last ones.
    let all = s.all_actions(&id, 1000).await;
    assert_eq!(all.len(), index);
    assert_eq!(s.all_actions(&id, 37).await, all);
    let view = s.get_ok(&format!("/api/games/{id}")).await;
    assert_eq!(view["actions"].as_array().unwrap()[..], all[index - 100..]);
    // The past state's actions are the game's up to it.
    let past = s.get_ok(&format!("/api/games/{id}/states/150")).await;
    assert_eq!(past["actions"].as_array().unwrap()[..], all[50..150]);

    // Defaults: from 0, up to 1000.
    let page = s.get_ok(&format!("/api/games/{id}/actions")).await;
    assert_eq!(page["from"], 0);
    assert_eq!(page["total"], index);
    assert_eq!(page["actions"].as_array().unwrap(), &all);
    let page = s
        .get_ok(&format!("/api/games/{id}/actions?from=50&limit=20"))
        .await;
    assert_eq!(page["actions"].as_array().unwrap()[..], all[50..70]);
    let page = s
        .get_ok(&format!(
            "/api/games/{id}/actions?limit=1000&from={}",
            index - 3
        ))
        .await;
    assert_eq!(page["actions"].as_array().unwrap()[..], all[index - 3..]);
    // At or past the end: nothing, and the total says why.
    for from in [index, index + 5] {
        let page = s
            .get_ok(&format!("/api/games/{id}/actions?from={from}"))
            .await;
        assert_eq!(page, json!({"from": from, "total": index, "actions": []}));
    }

    // The record still has every action.
    let (status, record, _) = s
        .raw(
            Request::get(format!("/api/games/{id}/record"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    for a in [&all[0], &all[index / 2], &all[index - 1]] {
        assert!(
            record.contains(&format!(" {}\n", a["action"].as_str().unwrap())),
            "{a}"
        );
    }
}

#[tokio::test]
async fn bad_pages_of_actions_are_refused() {
    let s = Server::new();
    let (id, _, _) = s.create_people("tihbat").await;
    for query in [
        "from=-1",
        "from=x",
        "from=1.5",
        "limit=0",
        "limit=1001",
        "limit=abc",
        "limit=-3",
        "from=%2B1",
        "from=01",
        "from=%201",
        "limit=-0",
        "limit=%2B5",
        "page=2",
    ] {
        let (status, body) = s.get(&format!("/api/games/{id}/actions?{query}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert!(body["error"].is_string(), "{body}");
    }
    let (status, body) = s.get("/api/games/0123456789abcdef/actions").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("no game"),
        "{body}"
    );
    let page = s
        .get_ok(&format!("/api/games/{id}/actions?limit=1000&from=0"))
        .await;
    assert_eq!(page, json!({"from": 0, "total": 0, "actions": []}));
}

#[tokio::test]
async fn each_action_says_whose_it_was_and_gives_its_structured_form() {
    let s = Server::new();
    let (id, tokens, mut state) = s.create_people("tab(columns=7)").await;
    let mut played = Vec::new();
    for n in 0..40 {
        if state["turn"]["kind"] != "player" {
            break;
        }
        let legal = state["legal"].as_array().unwrap().clone();
        let chosen = legal[(n * 5) % legal.len()].clone();
        played.push((
            state["index"].clone(),
            state["turn"]["seat"].clone(),
            chosen,
        ));
        state = s.play(&id, &tokens, &state, n * 5).await;
    }
    let all = s.all_actions(&id, 1000).await;
    // A person's decision: the seat that made it, and the detail its legal action had.
    for (index, seat, chosen) in &played {
        let a = &all[index.as_u64().unwrap() as usize];
        assert_eq!(a["action"], chosen["action"]);
        assert_eq!(&a["seat"], seat, "{a}");
        assert_eq!(a["actor"], *seat);
        assert_eq!(a["detail"], chosen["detail"], "{a}");
        assert_eq!(a["detail"]["move"], a["action"]);
    }
    // A throw: the seat whose throw it was, as the turn said before it.
    let mut throws = 0;
    for a in all.iter().filter(|a| a["actor"] == "chance") {
        let before = s
            .get_ok(&format!("/api/games/{id}/states/{}", a["index"]))
            .await;
        assert_eq!(before["turn"]["kind"], "chance");
        assert!(a["seat"].is_string(), "{a}");
        assert_eq!(a["seat"], before["turn"]["seat"], "{a}");
        assert!(a["detail"].is_object() || a["detail"].is_number(), "{a}");
        assert!(!a["detail"].is_null(), "{a}");
        throws += 1;
    }
    assert!(throws > 5);
    // Both seats threw.
    let seats: std::collections::BTreeSet<String> = all
        .iter()
        .filter(|a| a["actor"] == "chance")
        .map(|a| a["seat"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(seats.len(), 2, "{seats:?}");

    // Tihbat: the pit sown.
    let (id, tokens, state) = s.create_people("tihbat").await;
    let first = state["legal"][0].clone();
    let after = s.play(&id, &tokens, &state, 0).await;
    let a = &listed(&after)[0];
    assert_eq!(a["seat"], "south");
    assert_eq!(a["detail"], first["detail"]);
}

#[tokio::test]
async fn a_game_knows_the_shortest_length_its_log_has_had_since_a_takeback() {
    let mut game = new_game(
        "tab",
        &["human".into(), "human".into()],
        7,
        &Config::default().limits(),
    )
    .unwrap();
    let play = |game: &mut qasab_server::game::Game, n: usize| {
        for _ in 0..n {
            let action = game.legal().actions[0].action.clone();
            game.apply(&action).unwrap();
        }
    };
    play(&mut game, 10);
    assert_eq!(game.version(), (10, 0));
    assert_eq!(game.kept_since(0), 10);
    game.truncate(6);
    play(&mut game, 2);
    game.truncate(4);
    play(&mut game, 5);
    assert_eq!(game.version(), (9, 2));
    // Since take-back 0 (before both) the log was as short as 4, since the first as well,
    // and since the second it only grew.
    assert_eq!(game.kept_since(0), 4);
    assert_eq!(game.kept_since(1), 4);
    assert_eq!(game.kept_since(2), 9);
    game.truncate(7);
    play(&mut game, 1);
    assert_eq!(game.kept_since(0), 4);
    assert_eq!(game.kept_since(2), 7);
    assert_eq!(game.kept_since(3), 8);
    // Truncating to the current length or beyond is no take-back.
    game.truncate(8);
    game.truncate(20);
    assert_eq!(game.version(), (8, 3));
    // Long ago: a game remembers only its last take-backs, and says 0 beyond them.
    for _ in 0..100 {
        game.truncate(7);
        play(&mut game, 1);
    }
    assert_eq!(game.kept_since(0), 0);
    assert_eq!(game.kept_since(90), 7);
    assert_eq!(game.kept_since(103), 8);
}

#[tokio::test]
async fn the_document_describes_the_pages_of_actions_and_the_new_fields() {
    let s = Server::new();
    let doc = s.get_ok("/api/openapi.json").await;
    let op = &doc["paths"]["/api/games/{id}/actions"]["get"];
    assert_eq!(op["operationId"], "getActions");
    let params: Vec<&str> = op["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(params, ["id", "from", "limit"]);
    for status in ["200", "400", "404"] {
        assert!(op["responses"][status].is_object(), "{status}");
    }
    let schemas = &doc["components"]["schemas"];
    assert!(schemas["Actions"]["properties"]["total"].is_object());
    assert!(schemas["GameState"]["properties"]["actions_from"].is_object());
    let record = &schemas["ActionRecord"];
    assert!(record["properties"]["seat"].is_object(), "{record}");
    assert!(record["properties"]["detail"].is_object(), "{record}");
    let required = record["required"].as_array().unwrap();
    assert!(required.contains(&json!("seat")) && required.contains(&json!("detail")));
}
