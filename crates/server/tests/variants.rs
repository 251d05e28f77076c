//! The published studies of the variants: the index, a study's results, its charts and report,
//! from the fixture in `tests/data/variants/` (served as `qasab serve --variants DIR` serves a
//! directory) and from the copy of `docs/variants/` compiled into the server.

mod common;

use std::path::PathBuf;

use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use common::{Server, assert_error, request};
use http_body_util::BodyExt;
use qasab_core::AnyRuleset;
use qasab_server::{AppState, Config};
use serde_json::Value;
use tower::ServiceExt;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/variants")
}

/// A server that serves the fixture's studies.
fn fixture_server() -> Server {
    Server::with(Config {
        variants: Some(fixture()),
        ..Config::default()
    })
}

/// A GET answered with its headers and body.
async fn fetch(s: &Server, uri: &str) -> (StatusCode, HeaderMap, String) {
    let res = s
        .app
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8(bytes.to_vec()).unwrap())
}

#[tokio::test]
async fn the_index_and_a_study_are_served() {
    let s = fixture_server();
    let (status, index) = s.get("/api/variants").await;
    assert_eq!(status, StatusCode::OK, "{index}");
    let ids: Vec<&str> = index
        .as_array()
        .unwrap()
        .iter()
        .map(|study| study["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["tab-reduction", "tihbat-seeds"]);
    let tab = &index[0];
    assert_eq!(tab["title"], "Lane's Tâb: when a moving stack is reduced");
    assert!(tab["summary"].as_str().unwrap().contains("greedy"));
    assert_eq!(tab["charts"][0]["file"], "win-rates.svg");
    assert_eq!(tab["charts"][0]["caption"], "Seat win rates, 95% intervals");

    // The results as the file holds them, fields the server does not know included.
    let (status, results) = s.get("/api/variants/tab-reduction").await;
    assert_eq!(status, StatusCode::OK, "{results}");
    assert!(
        results["command"]
            .as_str()
            .unwrap()
            .starts_with("qasab study tab ")
    );
    assert_eq!(results["version"], "0.1.0");
    let variants = results["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 3);
    assert_eq!(variants[1]["ruleset"], "tab(reduction=off)");
    assert_eq!(variants[1]["win_rates"][0]["ci95"][0], 0.41);
    assert!(variants[0]["skill"]["score"]["value"].is_number());

    let (status, tihbat) = s.get("/api/variants/tihbat-seeds").await;
    assert_eq!(status, StatusCode::OK, "{tihbat}");
    assert_eq!(tihbat["games"], 0);
    assert_eq!(tihbat["variants"][1]["solver"]["value"], -2);
    assert!(tihbat["variants"][2]["solver"]["error"].is_string());
}

#[tokio::test]
async fn charts_and_the_report_are_served_with_the_pages_headers() {
    let s = fixture_server();
    for (uri, ctype, start) in [
        (
            "/variants/tab-reduction/win-rates.svg",
            "image/svg+xml",
            "<svg",
        ),
        (
            "/variants/tab-reduction/lengths.svg",
            "image/svg+xml",
            "<svg",
        ),
        ("/variants/tihbat-seeds/solver.svg", "image/svg+xml", "<svg"),
        (
            "/variants/tab-reduction/report.html",
            "text/html",
            "<!doctype html>",
        ),
    ] {
        let (status, headers, body) = fetch(&s, uri).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {body}");
        let got = headers[header::CONTENT_TYPE].to_str().unwrap();
        assert!(got.starts_with(ctype), "{uri}: {got}");
        assert!(body.starts_with(start), "{uri}: {body}");
        let csp = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.starts_with("default-src 'none'"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        // A chart or a report runs no script.
        assert!(!csp.contains("script-src"), "{csp}");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert_eq!(headers[header::REFERRER_POLICY], "no-referrer");
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY");
        // A directory given to the server may change while it serves: revalidated each time.
        assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
    }
    // The page itself opens at /variants.
    let (status, headers, body) = fetch(&s, "/variants").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    assert!(body.contains("id=\"variants\""));
}

#[tokio::test]
async fn unknown_studies_files_and_paths_out_of_the_directory_are_404() {
    let s = fixture_server();
    let (status, body) = s.get("/api/variants/no-such-study").await;
    assert_error(status, &body, StatusCode::NOT_FOUND, "'no-such-study'");
    for uri in [
        "/variants/no-such-study/win-rates.svg",
        "/variants/no-such-study/report.html",
        // Files of a study that are not served, or not there.
        "/variants/tab-reduction/results.csv",
        "/variants/tab-reduction/results.json",
        "/variants/tab-reduction/missing.svg",
        "/variants/tihbat-seeds/lengths.svg",
        // Out of the directory.
        "/variants/x/..%2f..%2fCargo.toml",
        "/variants/tab-reduction/..%2f..%2f..%2fCargo.toml",
        "/variants/tab-reduction/..%2findex.json",
        "/variants/..%2f..%2fsrc/lib.rs",
        "/variants/..%2ftests/index.json",
        "/variants/%2e%2e/Cargo.toml",
        "/variants/tab-reduction/%2e%2e",
        "/variants/tab-reduction/.svg",
        "/variants/tab-reduction/%2fetc%2fpasswd.svg",
        "/variants/tab-reduction/win-rates.svg%00",
        "/variants/tab-reduction/../../../Cargo.toml",
        "/variants/index.json",
        "/api/variants/..%2fvariants%2ftab-reduction",
        "/api/variants/%2e%2e",
    ] {
        let (status, text, ctype) = s.raw(request(Method::GET, uri, None, None)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}: {text}");
        assert_eq!(ctype.as_deref(), Some("application/json"), "{uri}");
        assert!(text.contains("\"error\""), "{uri}: {text}");
        assert!(!text.contains("[package]"), "{uri}: {text}");
    }
    let (status, body) = s.get("/api/variants/x/..%2f..%2fCargo.toml").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
}

#[tokio::test]
async fn a_directory_without_a_valid_index_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let config = |d: &std::path::Path| Config {
        variants: Some(d.to_path_buf()),
        ..Config::default()
    };
    let db = dir.path().join("games.db");
    let err = AppState::open(&db, config(&dir.path().join("none"))).err();
    assert!(format!("{:#}", err.unwrap()).contains("index.json"));

    let studies = dir.path().join("studies");
    std::fs::create_dir(&studies).unwrap();
    std::fs::write(studies.join("index.json"), "[{\"id\": \"../up\"}]").unwrap();
    assert!(AppState::open(&db, config(&studies)).is_err());

    // An empty list is a valid index: no study yet.
    std::fs::write(studies.join("index.json"), "[]\n").unwrap();
    let s = Server::with(config(&studies));
    let (status, body) = s.get("/api/variants").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, Value::Array(Vec::new()));
    let (status, body) = s.get("/api/variants/tab-reduction").await;
    assert_error(status, &body, StatusCode::NOT_FOUND, "'tab-reduction'");
}

/// The studies compiled into the server (`docs/variants/`, whatever it holds) are complete:
/// each study's results and report are there, every chart the index names is served, and each
/// variant's ruleset is one the core reads, so that its Play button starts a game.
#[tokio::test]
async fn the_compiled_studies_are_complete() {
    let s = Server::new();
    let (status, index) = s.get("/api/variants").await;
    assert_eq!(status, StatusCode::OK, "{index}");
    for study in index.as_array().unwrap() {
        let id = study["id"].as_str().unwrap();
        let (status, results) = s.get(&format!("/api/variants/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{id}: {results}");
        assert!(results["command"].is_string(), "{id}");
        let variants = results["variants"].as_array().unwrap();
        assert!(!variants.is_empty(), "{id}");
        for v in variants {
            let ruleset = v["ruleset"].as_str().unwrap();
            assert!(
                ruleset.parse::<AnyRuleset>().is_ok(),
                "{id}: ruleset {ruleset}"
            );
            assert!(v["label"].is_string(), "{id}: {v}");
        }
        for chart in study["charts"].as_array().unwrap() {
            let file = chart["file"].as_str().unwrap();
            let (status, headers, _) = fetch(&s, &format!("/variants/{id}/{file}")).await;
            assert_eq!(status, StatusCode::OK, "{id}/{file}");
            assert_eq!(headers[header::CONTENT_TYPE], "image/svg+xml");
            assert!(
                headers[header::CACHE_CONTROL]
                    .to_str()
                    .unwrap()
                    .contains("max-age"),
                "{id}/{file}"
            );
        }
        let (status, _, _) = fetch(&s, &format!("/variants/{id}/report.html")).await;
        assert_eq!(status, StatusCode::OK, "{id}/report.html");
    }
}

/// The fixture is a valid set of studies by the same test as the compiled ones.
#[test]
fn the_fixtures_rulesets_are_read_by_the_core() {
    let text = std::fs::read_to_string(fixture().join("tab-reduction/results.json")).unwrap();
    let results: Value = serde_json::from_str(&text).unwrap();
    let text = std::fs::read_to_string(fixture().join("tihbat-seeds/results.json")).unwrap();
    let tihbat: Value = serde_json::from_str(&text).unwrap();
    for v in results["variants"]
        .as_array()
        .unwrap()
        .iter()
        .chain(tihbat["variants"].as_array().unwrap())
    {
        let ruleset = v["ruleset"].as_str().unwrap();
        assert!(ruleset.parse::<AnyRuleset>().is_ok(), "{ruleset}");
    }
}
