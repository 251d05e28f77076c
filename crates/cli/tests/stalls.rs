//! `qasab endgame stalls`: the games a safety limit stops, from the command line.

mod common;

use common::qasab;

#[test]
fn stalls_lists_the_games_a_limit_stops_with_their_verdicts() {
    // The games: the same for `endgame stalls` and `simulate`.
    let games = [
        "tab-modern(columns=7,no_progress=12)",
        "--games",
        "20",
        "--players",
        "greedy,random",
        "--seed",
        "5",
    ];
    let args = [&["endgame", "stalls"][..], &games].concat();
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
    let sim = qasab(&[&["simulate"][..], &games, &["--json"]].concat());
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

#[test]
fn stalls_reads_the_records_of_an_arena() {
    let dir = std::env::temp_dir().join(format!("qasab-stalls-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let arena = qasab(&[
        "arena",
        "tab-modern(columns=7,no_progress=12)",
        "--players",
        "greedy",
        "random",
        "--games",
        "8",
        "--seed",
        "5",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(arena.code, 0, "{}", arena.stderr);
    let out = qasab(&[
        "endgame",
        "stalls",
        "--records",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["games"], 8);
    assert!(v["simulation"].is_null());
    // Every game a limit stopped, and no other: its record ends in a stop.
    let mut stopped = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        if text.contains("no-progress") {
            stopped += 1;
        }
    }
    assert_eq!(v["stopped"], stopped);
    for s in v["stalls"].as_array().unwrap() {
        let record = s["record"].as_str().unwrap();
        assert!(record.ends_with(".qrec"));
        // `qasab analyse` follows the sanctuaries along the game: its last change is the
        // stop's verdict.
        let a = qasab(&["analyse", record, "--agent", "greedy", "--json"]);
        assert_eq!(a.code, 0, "{}", a.stderr);
        let a: serde_json::Value = serde_json::from_str(&a.stdout).unwrap();
        let changes = a["fortresses"].as_array().unwrap();
        match changes.last() {
            Some(last) => {
                assert_eq!(last["verdict"], s["verdict"], "{record}");
                let squares: Vec<Vec<String>> = s["sanctuaries"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|side| {
                        side.as_array()
                            .unwrap()
                            .iter()
                            .map(|u| u["square"].as_str().unwrap().to_string())
                            .collect()
                    })
                    .collect();
                assert_eq!(last["sanctuaries"], serde_json::json!(squares));
            }
            None => assert_eq!(s["verdict"], "open", "{record}"),
        }
    }

    // Records of two rulesets are refused, naming the file.
    let other = dir.join("zz-other.qrec");
    let tab = qasab(&[
        "arena",
        "tab-ludii",
        "--players",
        "random",
        "greedy",
        "--games",
        "2",
        "--records",
        dir.join("ludii").to_str().unwrap(),
    ]);
    assert_eq!(tab.code, 0, "{}", tab.stderr);
    let first = std::fs::read_dir(dir.join("ludii"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::copy(first, &other).unwrap();
    let mixed = qasab(&["endgame", "stalls", "--records", dir.to_str().unwrap()]);
    assert_ne!(mixed.code, 0);
    assert!(mixed.stderr.contains("zz-other.qrec"), "{}", mixed.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_fortress_of_the_first_stalled_arena_game_is_found_by_stalls_and_by_analyse() {
    // The games where the question was first asked: four of the twenty stop, each with White's
    // stack of two on i, the last square of Black's home row.
    let dir = std::env::temp_dir().join(format!("qasab-stalls-net-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let arena = qasab(&[
        "arena",
        "tab",
        "--players",
        "net",
        "net(seed=5)",
        "--games",
        "20",
        "--seed",
        "1",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(arena.code, 0, "{}", arena.stderr);
    let out = qasab(&[
        "endgame",
        "stalls",
        "--records",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let stalls = v["stalls"].as_array().unwrap();
    assert_eq!(stalls.len(), 4, "{}", out.stdout);
    let first = &stalls[0];
    assert!(
        first["record"]
            .as_str()
            .unwrap()
            .ends_with("pairing-1-pair-02-game-1.qrec")
    );
    assert_eq!(first["verdict"], "white-cannot-lose");
    assert_eq!(
        first["sanctuaries"],
        serde_json::json!([[{"square": "i", "pieces": 2}], []])
    );
    assert_eq!(first["free"], serde_json::json!([0, 3]));
    // Along the game: both sides held a sanctuary for a while, then Black gave its up.
    let a = qasab(&[
        "analyse",
        first["record"].as_str().unwrap(),
        "--agent",
        "greedy",
    ]);
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert!(
        a.stdout
            .contains("white on i; black on I: a draw under perfect play"),
        "{}",
        a.stdout
    );
    assert!(
        a.stdout
            .contains("white on i: white cannot lose, black cannot win"),
        "{}",
        a.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stalls_with_tables_say_what_the_tables_hold_of_each_stop() {
    let dir = std::env::temp_dir().join(format!("qasab-stalls-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ruleset = "tab-modern(columns=7,no_progress=3)";
    let table = dir.join("p11.qeg");
    let built = qasab(&[
        "endgame",
        "build",
        ruleset,
        "--pieces",
        "1,1",
        "--bank-cap",
        "1",
        "--pending-cap",
        "1",
        "--no-checkpoint",
        "--out",
        table.to_str().unwrap(),
    ]);
    assert_eq!(built.code, 0, "{}", built.stderr);
    let args = [
        "endgame",
        "stalls",
        ruleset,
        "--games",
        "4",
        "--players",
        "random,random",
        "--seed",
        "2",
        "--tables",
        dir.to_str().unwrap(),
    ];
    let json = qasab(&[&args[..], &["--json"]].concat());
    assert_eq!(json.code, 0, "{}", json.stderr);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let stalls = v["stalls"].as_array().unwrap();
    assert!(!stalls.is_empty());
    // Random games stop long before one piece a side: the tables do not hold them, and say so.
    for s in stalls {
        assert_eq!(s["exact"]["verdict"], "beyond-tables", "{s}");
        assert!(s["exact"]["chances"].is_null());
        assert!(["white", "black"].contains(&s["exact"]["thrower"].as_str().unwrap()));
    }
    assert_eq!(v["exact"][0][0], "beyond-tables");
    assert_eq!(v["exact"][0][1].as_u64(), Some(stalls.len() as u64));
    let text = qasab(&args);
    assert!(
        text.stdout.contains("by the endgame tables")
            && text.stdout.contains("exact: beyond-tables"),
        "{}",
        text.stdout
    );
    // Without tables, nothing of the kind; with `--exact DIR` the same games as without
    // tables, classified by them.
    let plain = qasab(&[&args[..9], &["--json"]].concat());
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert!(!plain.stdout.contains("\"exact\""), "{}", plain.stdout);
    let judged = qasab(&[&args[..9], &["--exact", dir.to_str().unwrap(), "--json"]].concat());
    assert_eq!(judged.code, 0, "{}", judged.stderr);
    let judged: serde_json::Value = serde_json::from_str(&judged.stdout).unwrap();
    let plain: serde_json::Value = serde_json::from_str(&plain.stdout).unwrap();
    assert_eq!(judged["stopped"], plain["stopped"]);
    for (j, p) in judged["stalls"]
        .as_array()
        .unwrap()
        .iter()
        .zip(plain["stalls"].as_array().unwrap())
    {
        assert_eq!(j["position"], p["position"]);
        assert_eq!(j["exact"]["verdict"], "beyond-tables");
    }
    let missing = qasab(&[&args[..9], &["--exact", "/nonexistent-tables"]].concat());
    assert!(
        missing.code != 0 && missing.stderr.contains("--exact"),
        "{}",
        missing.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
