//! `qasab arena-merge`: arenas played with different seeds, reported as one.

mod common;

use std::path::PathBuf;

use common::qasab;

/// Plays `qasab arena tab-ludii --players PLAYERS --games 10 --seed SEED --json` into a file
/// of the directory `dir`, and returns its path.
fn arena(dir: &std::path::Path, players: &str, seed: u64) -> PathBuf {
    let seed = seed.to_string();
    let o = qasab(&[
        "arena",
        "tab-ludii",
        "--players",
        players,
        "--games",
        "10",
        "--seed",
        &seed,
        "--json",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let path = dir.join(format!("{}-{seed}.json", players.replace(',', "-")));
    std::fs::write(&path, o.stdout).unwrap();
    path
}

fn json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn arenas_with_different_seeds_merge_into_one_report() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("arena-merge");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let [one, two, three] = [1, 2, 3].map(|s| arena(&dir, "greedy,random", s));
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();

    let text = qasab(&["arena-merge", &s(&one), &s(&two)]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.starts_with(
            "tab-ludii: 2 players, 1 pairings of 20 games (20 games), seeds 1, 2 merged"
        ),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("game pairs 10: A won both "),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("Ladder"), "{}", text.stdout);

    // The JSON adds the counts up and lists the seeds; a merged report merges again.
    let merged = dir.join("merged.json");
    let o = qasab(&["arena-merge", &s(&one), &s(&two), "--json"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    std::fs::write(&merged, &o.stdout).unwrap();
    let m = json(&merged);
    let (a, b) = (json(&one), json(&two));
    assert_eq!(m["games_per_pairing"], 20);
    assert_eq!(m["seed"], 1);
    assert_eq!(m["seeds"], serde_json::json!([1, 2]));
    for key in ["games", "a_wins", "b_wins", "draws", "truncated"] {
        let sum = a["pairings"][0][key].as_u64().unwrap() + b["pairings"][0][key].as_u64().unwrap();
        assert_eq!(m["pairings"][0][key].as_u64(), Some(sum), "{key}");
    }
    let again = qasab(&["arena-merge", &s(&merged), &s(&three), "--json"]);
    let flat = qasab(&["arena-merge", &s(&one), &s(&two), &s(&three), "--json"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let again: serde_json::Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(again["seeds"], serde_json::json!([1, 2, 3]));
    assert_eq!(again["pairings"][0]["games"], 30);
    assert_eq!(
        again["pairings"][0]["a_score"],
        serde_json::from_str::<serde_json::Value>(&flat.stdout).unwrap()["pairings"][0]["a_score"]
    );

    // The ladder as a chart.
    let svg = dir.join("ladder.svg");
    let o = qasab(&["arena-merge", &s(&one), &s(&two), "--svg", &s(&svg)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));

    // Reports of players that consulted endgame tables name them, as the arena's text does.
    let with_tables = |from: &PathBuf, to: &str| {
        let mut v = json(from);
        v["tables"] = serde_json::json!(["kk.qeg"]);
        let path = dir.join(to);
        std::fs::write(&path, v.to_string()).unwrap();
        path
    };
    let (t1, t2) = (with_tables(&one, "t1.json"), with_tables(&two, "t2.json"));
    let o = qasab(&["arena-merge", &s(&t1), &s(&t2)]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout
            .contains("Endgame tables kk.qeg: where one holds the position"),
        "{}",
        o.stdout
    );

    // What does not merge is refused, naming the file and the reason.
    let refused = |args: &[&str], message: &str| {
        let o = qasab(args);
        assert_eq!(o.code, 1, "{args:?} should fail: {}", o.stdout);
        assert!(
            o.stderr.starts_with("error: ") && o.stderr.contains(message),
            "{args:?}: expected '{message}' in: {}",
            o.stderr
        );
    };
    refused(
        &["arena-merge", &s(&one), &s(&one)],
        &format!(
            "{}: played with seed 1, as {} was; the two hold the same games",
            s(&one),
            s(&one)
        ),
    );
    let others = arena(&dir, "random,greedy", 4);
    refused(
        &["arena-merge", &s(&one), &s(&others)],
        &format!(
            "{}: the players are random against greedy, where {} has greedy against random",
            s(&others),
            s(&one)
        ),
    );
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "greedy won").unwrap();
    refused(
        &["arena-merge", &s(&one), &s(&notes)],
        &format!(
            "{}: not an arena report (the JSON of `qasab arena --json`): ",
            s(&notes)
        ),
    );
    let missing = dir.join("missing.json");
    refused(
        &["arena-merge", &s(&missing)],
        &format!("{}: cannot read: ", s(&missing)),
    );
    let none = qasab(&["arena-merge"]);
    assert_eq!(none.code, 2, "{}", none.stdout);
    assert!(none.stderr.contains("<FILE>..."), "{}", none.stderr);
}
