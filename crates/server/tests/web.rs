//! The web page's files and the reads it needs (a past state, the seat of a token, the
//! drawing model), called through the router without a socket.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use qasab_server::{AppState, Config, app};
use serde_json::{Value, json};
use tempfile::TempDir;
use tower::ServiceExt;

struct Server {
    _dir: TempDir,
    app: Router,
}

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    text: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("{e}: {}", self.text))
    }
}

impl Server {
    fn new() -> Server {
        let dir = tempfile::tempdir().unwrap();
        let state = AppState::open(&dir.path().join("games.db"), Config::default()).unwrap();
        Server {
            _dir: dir,
            app: app(state),
        }
    }

    async fn send(&self, req: Request<Body>) -> Answer {
        let res = self.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        Answer {
            status,
            headers,
            text: String::from_utf8(bytes.to_vec()).unwrap(),
        }
    }

    async fn get(&self, uri: &str, token: Option<&str>) -> Answer {
        let mut req = Request::get(uri);
        if let Some(t) = token {
            req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        self.send(req.body(Body::empty()).unwrap()).await
    }

    async fn post(&self, uri: &str, token: Option<&str>, body: Value) -> Answer {
        let mut req = Request::post(uri).header(header::CONTENT_TYPE, "application/json");
        if let Some(t) = token {
            req = req.header(header::AUTHORIZATION, format!("Bearer {t}"));
        }
        self.send(req.body(Body::from(body.to_string())).unwrap())
            .await
    }

    /// Creates a game; returns the creation answer.
    async fn create(&self, ruleset: &str, seats: [&str; 2]) -> Value {
        let a = self
            .post(
                "/api/games",
                None,
                json!({"ruleset": ruleset, "seats": seats}),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        a.json()
    }
}

fn error_of(a: &Answer, status: StatusCode, needle: &str) {
    assert_eq!(a.status, status, "{}", a.text);
    let body = a.json();
    let message = body["error"].as_str().unwrap();
    assert!(message.contains(needle), "'{message}' lacks '{needle}'");
}

#[tokio::test]
async fn the_page_and_its_files_are_served_with_a_strict_policy() {
    let s = Server::new();
    for (path, ctype) in [
        ("/", "text/html"),
        ("/play/0123456789abcdef", "text/html"),
        ("/assets/app.js", "text/javascript"),
        ("/assets/page.js", "text/javascript"),
        ("/assets/api.js", "text/javascript"),
        ("/assets/setup.js", "text/javascript"),
        ("/assets/variants.js", "text/javascript"),
        ("/assets/record.js", "text/javascript"),
        ("/assets/render.js", "text/javascript"),
        ("/assets/live.js", "text/javascript"),
        ("/assets/game.js", "text/javascript"),
        ("/assets/board.js", "text/javascript"),
        ("/assets/style.css", "text/css"),
        ("/assets/icon.svg", "image/svg+xml"),
    ] {
        let a = s.get(path, None).await;
        assert_eq!(a.status, StatusCode::OK, "{path}");
        let got = a.headers[header::CONTENT_TYPE].to_str().unwrap();
        assert!(got.starts_with(ctype), "{path}: {got}");
        let csp = a.headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("script-src 'self'"), "{csp}");
        assert!(!csp.contains("unsafe-inline"), "{csp}");
        assert_eq!(a.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert!(!a.text.is_empty(), "{path}");
    }
    let page = s.get("/", None).await.text;
    assert!(page.contains("/assets/app.js"));
    // No inline script: every script element loads a file.
    for part in page.split("<script").skip(1) {
        let tag = &part[..part.find('>').unwrap()];
        assert!(tag.contains("src="), "inline script: <script{tag}>");
    }
    let a = s.get("/assets/nothing.js", None).await;
    error_of(&a, StatusCode::NOT_FOUND, "no such path");
}

#[tokio::test]
async fn every_module_the_page_imports_is_served() {
    let s = Server::new();
    let mut seen = vec!["app.js".to_string()];
    let mut next = 0;
    while next < seen.len() {
        let path = format!("/assets/{}", seen[next]);
        next += 1;
        let a = s.get(&path, None).await;
        assert_eq!(a.status, StatusCode::OK, "{path}");
        let got = a.headers[header::CONTENT_TYPE].to_str().unwrap();
        assert!(got.starts_with("text/javascript"), "{path}: {got}");
        for part in a.text.split(" from './").skip(1) {
            let name = &part[..part.find('\'').unwrap()];
            if !seen.iter().any(|s| s == name) {
                seen.push(name.to_string());
            }
        }
    }
    assert!(seen.len() > 2, "{seen:?}");
}

#[tokio::test]
async fn tab_views_describe_the_board_for_drawing() {
    let s = Server::new();
    let created = s.create("tab(columns=7)", ["human", "human"]).await;
    let d = &created["state"]["drawing"];
    assert_eq!(d["kind"], "tab");
    assert_eq!(d["columns"], 7);
    let rows = d["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    // As the terminal draws it: Black's home row on top, White's at the bottom.
    assert_eq!(rows[0][0]["row"], 4);
    assert_eq!(rows[0][0]["home"], "black");
    assert_eq!(rows[3][0]["name"], "a1");
    assert_eq!(rows[3][0]["home"], "white");
    assert_eq!(rows[3][0]["column"], 1);
    assert_eq!(rows[1][6]["name"], "g3");
    assert!(rows[1][6]["home"].is_null());
    let unit = &rows[3][0]["unit"];
    assert_eq!(unit["owner"], "white");
    assert_eq!(unit["pieces"], 1);
    assert_eq!(unit["unconverted"], 1);
    assert_eq!(unit["entered_enemy_row"], 0);
    assert_eq!(rows[0][0]["unit"]["owner"], "black");
    assert!(rows[1][0]["unit"].is_null());
    assert_eq!(d["on_board"], json!([7, 7]));
    assert_eq!(d["unconverted"], json!([7, 7]));
    // The opening throws have been thrown: the last one is described.
    let last = &d["last_throw"];
    assert!(last["value"].is_u64(), "{d}");
    assert!(last["description"].as_str().unwrap().contains("throws"));
    // With Lane's 9 columns the squares carry his letters.
    let created = s.create("tab", ["human", "human"]).await;
    let rows = &created["state"]["drawing"]["rows"];
    assert_eq!(rows[3][0]["name"], "A");
    assert_eq!(rows[0][0]["name"], "i");
    // Ludii's Hyde rules: locked pieces count as unconverted.
    let created = s.create("tab-hyde-ludii", ["human", "human"]).await;
    let d = &created["state"]["drawing"];
    assert_eq!(d["columns"], 13);
    assert_eq!(d["rows"][3][0]["unit"]["unconverted"], 1);
}

#[tokio::test]
async fn tihbat_views_describe_the_pits() {
    let s = Server::new();
    let created = s.create("tihbat(seeds=3)", ["human", "human"]).await;
    let d = &created["state"]["drawing"];
    assert_eq!(d["kind"], "tihbat");
    assert_eq!(
        d["rows"][0][0],
        json!({"name": "D", "owner": "north", "counters": 3})
    );
    assert_eq!(
        d["rows"][1][1],
        json!({"name": "B", "owner": "south", "counters": 3})
    );
    assert_eq!(d["captured"], json!([0, 0]));
}

#[tokio::test]
async fn earlier_states_can_be_read_back() {
    let s = Server::new();
    let created = s.create("tihbat(seeds=3)", ["human", "human"]).await;
    let id = created["id"].as_str().unwrap();
    let tokens: Vec<String> = (0..2)
        .map(|i| created["seats"][i]["token"].as_str().unwrap().to_string())
        .collect();
    let mut views = vec![created["state"].clone()];
    for i in 0..4 {
        let view = views.last().unwrap();
        if view["turn"]["kind"] != "player" {
            break;
        }
        let token = if view["turn"]["seat"] == "south" {
            &tokens[0]
        } else {
            &tokens[1]
        };
        let action = view["legal"][0]["action"].as_str().unwrap();
        let a = s
            .post(
                &format!("/api/games/{id}/actions"),
                Some(token),
                json!({"action": action, "index": i}),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        views.push(a.json());
    }
    for (i, view) in views.iter().enumerate() {
        let a = s.get(&format!("/api/games/{id}/states/{i}"), None).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        let past = a.json();
        assert_eq!(past["index"], i);
        assert_eq!(past["position"], view["position"], "state {i}");
        assert_eq!(past["drawing"], view["drawing"], "state {i}");
        assert_eq!(past["actions"].as_array().unwrap().len(), i);
    }
    let end = views.len();
    let a = s.get(&format!("/api/games/{id}/states/{end}"), None).await;
    error_of(&a, StatusCode::NOT_FOUND, "no state");
    // Digits alone: no sign, space or leading zero.
    for bad in ["-1", "x", "+1", "01", "-0", "%201", "1%20"] {
        let a = s.get(&format!("/api/games/{id}/states/{bad}"), None).await;
        error_of(&a, StatusCode::BAD_REQUEST, "bad state index");
    }
    let a = s.get("/api/games/nope/states/0", None).await;
    error_of(&a, StatusCode::NOT_FOUND, "no game");
}

#[tokio::test]
async fn a_tab_game_against_the_computer_replays_its_past_states() {
    let s = Server::new();
    let created = s.create("tab(columns=7)", ["human", "greedy"]).await;
    let id = created["id"].as_str().unwrap();
    let index = created["state"]["index"].as_u64().unwrap();
    for i in [0, index / 2, index] {
        let a = s.get(&format!("/api/games/{id}/states/{i}"), None).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        assert_eq!(a.json()["index"], i);
        assert_eq!(a.json()["drawing"]["kind"], "tab");
    }
}

#[tokio::test]
async fn a_token_tells_its_seat() {
    let s = Server::new();
    let created = s.create("tihbat", ["solver", "human"]).await;
    let id = created["id"].as_str().unwrap();
    let token = created["seats"][1]["token"].as_str().unwrap();
    let a = s.get(&format!("/api/games/{id}/seat"), Some(token)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json(), json!({"seat": "north", "index": 1}));
    let a = s
        .get(&format!("/api/games/{id}/seat"), Some("forged"))
        .await;
    error_of(&a, StatusCode::FORBIDDEN, "not the token of a seat");
    let a = s.get(&format!("/api/games/{id}/seat"), None).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.text);
    let a = s.get("/api/games/nope/seat", Some(token)).await;
    error_of(&a, StatusCode::NOT_FOUND, "no game");
}

#[tokio::test]
async fn the_openapi_document_describes_the_page_reads() {
    let s = Server::new();
    let doc = s.get("/api/openapi.json", None).await.json();
    assert!(doc["paths"]["/api/games/{id}/states/{index}"]["get"].is_object());
    assert!(doc["paths"]["/api/games/{id}/seat"]["get"].is_object());
    let state = &doc["components"]["schemas"]["GameState"];
    assert_eq!(
        state["properties"]["drawing"]["$ref"],
        "#/components/schemas/Drawing"
    );
    assert!(
        state["required"]
            .as_array()
            .unwrap()
            .contains(&json!("drawing"))
    );
    // That every schema reference resolves is checked over the whole document in api.rs.
}
