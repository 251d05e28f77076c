//! Endgame tables in the commands that play and rate games, run as a user would: `qasab
//! simulate`, `arena` and `analyse` with `--tables DIR` or the directory in `QASAB_TABLES`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Tâb with one piece a side, whose whole game from the start is a table of a few thousand
/// positions: every decision of every game is in it.
const ONE_EACH: &str =
    "tab(columns=7,pieces=1,throw_timing=interleaved,tab_bank=none,reduction=off)";
/// Its start, White to throw in the opening.
const START: &str = "open:w/-/a1/g4/0.0/0.0/0.0/0.0.0.0/0.0.0.0.0.0.0/-";

/// Runs `qasab` with `args`, with `QASAB_TABLES` set to `tables` or unset; its output, after
/// checking that it succeeded.
fn run(args: &[&str], tables: Option<&Path>) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_qasab"));
    command.args(args).env_remove("QASAB_TABLES");
    if let Some(dir) = tables {
        command.env("QASAB_TABLES", dir);
    }
    let out = command.output().expect("run qasab");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "qasab {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

fn ok(args: &[&str]) -> String {
    run(args, None)
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// A fresh directory under the target directory, named for the test.
fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tables-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A directory holding the table of every game of [`ONE_EACH`], and the table's path.
fn one_each_table(name: &str) -> (PathBuf, String) {
    let d = dir(name);
    let table = d.join("one-each.qeg").to_str().unwrap().to_string();
    let built = ok(&[
        "endgame", "build", ONE_EACH, "--from", START, "--out", &table,
    ]);
    assert!(
        built.contains("up to 1 white and 1 black pieces"),
        "{built}"
    );
    (d, table)
}

/// A simulation's statistics, without what names the players, the tables or the run.
fn statistics(mut report: Value) -> Value {
    for key in ["players", "seconds", "threads", "tables"] {
        report.as_object_mut().unwrap().remove(key);
    }
    report
}

#[test]
fn simulate_and_arena_play_every_decision_a_table_holds_by_its_values() {
    let (tables, table) = one_each_table("simulate-arena");
    let t = tables.to_str().unwrap();
    let simulate = |players: &str, with: &[&str]| {
        let args = [
            &[
                "simulate",
                ONE_EACH,
                "--players",
                players,
                "--games",
                "60",
                "--seed",
                "1",
                "--json",
            ][..],
            with,
        ]
        .concat();
        json(&args)
    };
    // Every decision is in the table, so with it any two players play the same games, and
    // without it their own.
    let with = simulate("random,random", &["--tables", t]);
    assert_eq!(with["tables"], serde_json::json!([table]));
    assert_eq!(
        statistics(with.clone()),
        statistics(simulate("greedy,greedy", &["--tables", t]))
    );
    let without = simulate("random,random", &[]);
    assert!(without.get("tables").is_none(), "{without}");
    assert_ne!(
        statistics(without.clone()),
        statistics(simulate("greedy,greedy", &[]))
    );
    assert_ne!(statistics(with.clone()), statistics(without));
    // The directory in the environment, when no option names one.
    let args = [
        "simulate",
        ONE_EACH,
        "--players",
        "random,random",
        "--games",
        "60",
        "--seed",
        "1",
        "--json",
    ];
    let from_env: Value = serde_json::from_str(&run(&args, Some(&tables))).unwrap();
    assert_eq!(statistics(from_env), statistics(with));
    let text = ok(&[
        "simulate",
        ONE_EACH,
        "--players",
        "random,random",
        "--games",
        "4",
        "--tables",
        t,
    ]);
    assert!(
        text.contains(&format!("Endgame tables {table}: ")),
        "{text}"
    );

    // An arena: both games of a pair share their throws, seats swapped, and with the tables
    // both players make the same decisions: the same game twice.
    let records = tables.join("records");
    let r = records.to_str().unwrap();
    let report = json(&[
        "arena",
        ONE_EACH,
        "--players",
        "random",
        "greedy",
        "--games",
        "8",
        "--seed",
        "2",
        "--tables",
        t,
        "--records",
        r,
        "--json",
    ]);
    assert_eq!(report["tables"], serde_json::json!([table]));
    assert_eq!(report["pairings"][0]["a_score"], 0.5);
    let actions = |pair: u64, game: u64| {
        let name = format!("pairing-1-pair-{pair}-game-{game}.qrec");
        let text = std::fs::read_to_string(records.join(name)).unwrap();
        text.lines()
            .skip_while(|l| *l != "actions")
            .map(String::from)
            .collect::<Vec<_>>()
    };
    for pair in 1..=4 {
        assert_eq!(actions(pair, 1), actions(pair, 2), "pair {pair}");
    }
    let plain = json(&[
        "arena",
        ONE_EACH,
        "--players",
        "random",
        "greedy",
        "--games",
        "8",
        "--seed",
        "2",
        "--json",
    ]);
    assert!(plain.get("tables").is_none(), "{plain}");

    // Rated by the tables, every decision of those games was a best one.
    let rated = json(&["analyse", r, "--agent", "greedy", "--tables", t, "--json"]);
    assert_eq!(rated["value_kind"], "exact-result");
    assert_eq!(rated["tables"], serde_json::json!([table]));
    let mut judged = 0;
    for p in rated["players"].as_array().unwrap() {
        let n = p["decisions"].as_u64().unwrap() - p["forced"].as_u64().unwrap();
        assert_eq!(p["exact"].as_u64().unwrap(), n, "{p}");
        assert!(p["total_loss"].as_f64().unwrap() < 1e-9, "{p}");
        judged += n;
    }
    assert!(judged > 0);
    let text = ok(&["analyse", r, "--agent", "greedy", "--tables", t]);
    assert!(
        text.contains("Judged decisions rated exactly by the endgame tables: "),
        "{text}"
    );
}

/// The actions of a record, in its notation.
fn record_actions(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip_while(|l| *l != "actions")
        .skip(1)
        .take_while(|l| !l.starts_with("end "))
        .map(|l| l.split_whitespace().nth(2).unwrap().to_string())
        .collect()
}

#[test]
fn analyse_gives_the_tables_exact_values_and_marks_exact_errors() {
    let (tables, table) = one_each_table("analyse");
    let t = tables.to_str().unwrap();
    let record = tables.join("game.qrec");
    let rec = record.to_str().unwrap();
    ok(&[
        "play", ONE_EACH, "--white", "random", "--black", "random", "--seed", "3", "--record", rec,
    ]);
    let plain = json(&["analyse", rec, "--agent", "greedy", "--json"]);
    assert_eq!(plain["value_kind"], "estimate");
    assert!(plain.get("tables").is_none(), "{plain}");
    assert_eq!(plain["players"]["white"]["exact"], 0);

    let a = json(&["analyse", rec, "--agent", "greedy", "--tables", t, "--json"]);
    assert_eq!(a["value_kind"], "exact-result");
    assert_eq!(a["tables"], serde_json::json!([table]));
    assert_eq!(a["thresholds"], plain["thresholds"]);
    let actions = record_actions(&record);
    let (mut judged, mut marked) = (0, 0);
    for m in a["moves"].as_array().unwrap() {
        if m["choices"] == 1 {
            assert!(m["value_kind"].is_null(), "{m}");
            continue;
        }
        judged += 1;
        assert_eq!(m["value_kind"], "exact-result", "{m}");
        // The values are the table's, as `qasab endgame probe` gives them there.
        let n = m["action"].as_u64().unwrap() as usize;
        let mut apply = vec!["apply", ONE_EACH];
        apply.extend(actions[..n - 1].iter().map(String::as_str));
        let position = ok(&apply).lines().next().unwrap().to_string();
        let probe = json(&["endgame", "probe", &table, &position, "--json"]);
        let value = |mv: &Value| {
            probe["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["move"] == *mv)
                .unwrap()["value"]
                .as_f64()
                .unwrap()
        };
        let f = |k: &str| m[k].as_f64().unwrap();
        assert!(
            (f("played_value") - value(&m["played"])).abs() < 1e-9,
            "{m}"
        );
        assert!((f("best_value") - value(&m["best"])).abs() < 1e-9, "{m}");
        assert!((f("best_value") - probe["value"].as_f64().unwrap()).abs() < 1e-9);
        let loss = f("loss");
        let mark = if loss >= 0.16 {
            "blunder"
        } else if loss >= 0.08 {
            "mistake"
        } else if loss >= 0.04 {
            "doubtful"
        } else {
            ""
        };
        assert_eq!(m["mark"].as_str().unwrap_or(""), mark, "{m}");
        marked += usize::from(!mark.is_empty());
    }
    assert!(judged > 0 && marked > 0, "{judged} judged, {marked} marked");
    let exact: u64 = ["white", "black"]
        .iter()
        .map(|p| a["players"][p]["exact"].as_u64().unwrap())
        .sum();
    assert_eq!(exact, judged);
    let text = ok(&["analyse", rec, "--agent", "greedy", "--tables", t]);
    assert!(text.contains(", exact)"), "{text}");
    assert!(
        text.contains("Rated exactly by the endgame tables: "),
        "{text}"
    );
    assert!(
        text.contains(&format!("Endgame tables {table}: ")),
        "{text}"
    );
}
