//! `qasab endgame stalls`: the games a safety limit stops, from the command line.

mod common;

use common::qasab;

#[test]
fn stalls_lists_the_games_a_limit_stops_with_their_verdicts() {
    let args = [
        "endgame",
        "stalls",
        "tab-modern(columns=7,no_progress=12)",
        "--games",
        "20",
        "--players",
        "greedy,random",
        "--seed",
        "5",
    ];
    let json = qasab(&[&args[..], &["--json"]].concat());
    assert_eq!(json.code, 0, "{}", json.stderr);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let stalls = v["stalls"].as_array().unwrap();
    assert!(!stalls.is_empty());
    assert_eq!(v["stopped"].as_u64(), Some(stalls.len() as u64));
    for s in stalls {
        assert!(
            s["position"]
                .as_str()
                .unwrap()
                .starts_with("over:no-progress")
        );
        let verdict = s["verdict"].as_str().unwrap();
        assert!(
            ["draw", "white-cannot-lose", "black-cannot-lose", "open"].contains(&verdict),
            "{verdict}"
        );
    }
    // The same games as `qasab simulate`.
    let sim = qasab(&[
        "simulate",
        "tab-modern(columns=7,no_progress=12)",
        "--games",
        "20",
        "--players",
        "greedy,random",
        "--seed",
        "5",
        "--json",
    ]);
    let sim: serde_json::Value = serde_json::from_str(&sim.stdout).unwrap();
    assert_eq!(sim["truncated"], v["stopped"]);

    let text = qasab(&args);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains("stopped by a limit"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("draws the rules force"),
        "{}",
        text.stdout
    );

    // A bad ruleset or player is refused with the reason.
    let bad = qasab(&["endgame", "stalls", "tab(columns=8)"]);
    assert_ne!(bad.code, 0);
    assert!(bad.stderr.contains("columns"), "{}", bad.stderr);
}
