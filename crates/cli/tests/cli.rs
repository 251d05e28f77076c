//! The `qasab` binary, run as a user would: every command, with good and bad input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn qasab(args: &[&str], stdin: &str) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qasab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run qasab");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn ok(args: &[&str]) -> String {
    let o = qasab(args, "");
    assert_eq!(o.code, 0, "qasab {args:?} failed: {}", o.stderr);
    o.stdout
}

fn fails(args: &[&str], message: &str) {
    let o = qasab(args, "");
    assert_eq!(
        o.code, 1,
        "qasab {args:?} should fail; stdout: {}",
        o.stdout
    );
    assert!(o.stderr.starts_with("error: "), "{}", o.stderr);
    assert!(
        o.stderr.contains(message),
        "qasab {args:?}: expected '{message}' in: {}",
        o.stderr
    );
    assert_eq!(o.stderr.lines().count(), 1, "one line: {}", o.stderr);
}

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn rules_lists_every_ruleset_and_option() {
    let out = ok(&["rules"]);
    for word in [
        "tihbat",
        "seeds",
        "chain",
        "origin",
        "singleton",
        "empty",
        "repetition",
        "cycle",
        "first",
        "own-side",
    ] {
        assert!(out.contains(word), "missing {word}");
    }
}

#[test]
fn rules_of_one_ruleset_show_values_and_sources() {
    let out = ok(&["rules", "tihbat(seeds=5, chain=own-side)"]);
    assert!(out.contains("Ruleset: tihbat(seeds=5,chain=own-side)"));
    for id in [
        "T-1",
        "T-2",
        "T-3",
        "T-4",
        "T-5",
        "T-6",
        "T-7",
        "T-8",
        "Mancala World",
    ] {
        assert!(out.contains(id), "missing {id}");
    }
    assert!(out.contains("5 counters in each pit"));
    assert!(out.contains("chain       = own-side   (changed)"));
}

#[test]
fn bad_rulesets_are_explained() {
    fails(
        &["rules", "tihbet"],
        "unknown ruleset 'tihbet'; valid rulesets: tab, tab-hyde, tab-modern, tab-ludii, tab-hyde-ludii, tihbat",
    );
    fails(&["rules", "tihbat(seed=3)"], "valid options: seeds, chain");
    fails(
        &["rules", "tihbat(cycle=half)"],
        "expected equal | own-side",
    );
    fails(&["rules", "tihbat(seeds=5"], "missing ')'");
    fails(&["play", "tihbat(seeds=99)"], "from 1 to 60");
}

#[test]
fn play_accepts_moves_and_commands_and_explains_bad_input() {
    let o = qasab(
        &["play", "tihbat(seeds=3)", "--seed", "5"],
        "help\nhint\nx\nC\nA7\na\nundo\nundo\nquit\n",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let s = &o.stdout;
    assert!(
        s.contains("south: human") && s.contains("north: solver"),
        "{s}"
    );
    assert!(s.contains("hint   every legal move"), "help: {s}");
    assert!(
        s.contains("Hint from solver")
            && s.contains("A3")
            && s.contains("+6  sows 3 from A, last counter in C  best"),
        "hint: {s}"
    );
    assert!(
        s.contains("'x' is not a move: expected a pit letter"),
        "{s}"
    );
    assert!(
        s.contains("C is not legal here: pit C belongs to north"),
        "{s}"
    );
    assert!(
        s.contains("A7 is not legal here: pit A holds 3 counters, not 7"),
        "{s}"
    );
    assert!(s.contains("north plays"), "{s}");
    // The person's own move is printed as the computer's are.
    assert!(
        s.contains("south plays A3: sows 3 from A, last counter in C\nnorth plays"),
        "{s}"
    );
    assert!(
        s.contains("Took back south's move A3 and north's move "),
        "{s}"
    );
    assert!(!s.contains("Last move:"), "{s}");
    assert!(s.contains("Nothing to undo."), "{s}");
    assert!(s.contains("Game stopped."), "{s}");
}

#[test]
fn end_of_input_stops_cleanly_and_keeps_the_record() {
    let path = temp("eof.qrec");
    let o = qasab(
        &[
            "play",
            "tihbat",
            "--north",
            "random",
            "--record",
            path.to_str().unwrap(),
        ],
        "b\n",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout
            .contains("Input ended; the game is left unfinished.")
    );
    let record = std::fs::read_to_string(&path).unwrap();
    assert!(record.contains("1 south B7\n2 north "), "{record}");
    assert!(record.ends_with("end unfinished\n"));
    let replayed = ok(&["replay", path.to_str().unwrap()]);
    assert!(
        replayed.contains("Record valid: 2 actions, game unfinished."),
        "{replayed}"
    );
}

#[test]
fn computer_games_play_to_the_end_and_replay() {
    let path = temp("full.qrec");
    let out = ok(&[
        "play",
        "tihbat",
        "--south",
        "random",
        "--north",
        "solver",
        "--seed",
        "3",
        "--record",
        path.to_str().unwrap(),
    ]);
    assert!(out.contains("Game over: north wins"), "{out}");
    let replayed = ok(&["replay", path.to_str().unwrap()]);
    assert!(
        replayed.contains("Record valid:") && replayed.contains("game complete."),
        "{replayed}"
    );
    assert!(replayed.contains("1. south "), "{replayed}");
    let quiet = ok(&["replay", "--quiet", path.to_str().unwrap()]);
    assert_eq!(quiet.lines().count(), 1);
    // The same seed gives the same game.
    let again = temp("again.qrec");
    ok(&[
        "play",
        "tihbat",
        "--south",
        "random",
        "--north",
        "solver",
        "--seed",
        "3",
        "--record",
        again.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        std::fs::read_to_string(&again).unwrap()
    );
}

#[test]
fn two_people_can_share_the_terminal() {
    let o = qasab(&["play", "tihbat(seeds=1)", "--north", "human"], "a\nc\n");
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("north to move [C1 D1]>"), "{}", o.stdout);
    assert!(o.stdout.contains("Game over: draw"), "{}", o.stdout);
}

#[test]
fn plays_mcts_by_default_where_the_strongest_cannot_play_the_rules() {
    // The exact solver cannot prove the values of this game: the default opponent, and the
    // player behind `hint`, is mcts, and the player is told why.
    let o = qasab(
        &["play", "tihbat(seeds=12,cycle=own-side)", "--seed", "4"],
        "hint\nquit\n",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("  north: mcts"), "{}", o.stdout);
    assert!(o.stdout.contains("Hint from mcts"), "{}", o.stdout);
    for role in ["north", "hint"] {
        let said = format!("; {role} plays mcts instead");
        assert!(
            o.stderr
                .lines()
                .any(|l| l.contains("no exact solution") && l.ends_with(&said)),
            "no '{said}' in: {}",
            o.stderr
        );
    }
}

#[test]
fn play_rejects_bad_seats_and_players() {
    fails(
        &["play", "tihbat", "--south", "oracle"],
        "unknown player 'oracle'; valid players: random, solver, mcts",
    );
    fails(
        &["play", "tihbat", "--north", "random(speed=2)"],
        "no option 'speed'",
    );
    fails(
        &["play", "tihbat", "--hint", "oracle"],
        "unknown player 'oracle'",
    );
}

#[test]
fn replay_rejects_corrupt_and_truncated_records() {
    let good = "qasab-record 1\nruleset tihbat(seeds=1)\nactions\n1 south A1\n2 north C1\nend draw 2 2 repetition\n";
    let cases = [
        (
            "truncated",
            good.replace("end draw 2 2 repetition\n", ""),
            "line 5: the record is truncated",
        ),
        (
            "illegal",
            good.replace("2 north C1", "2 north B1"),
            "line 5: B1 is not legal here: pit B belongs to south",
        ),
        (
            "actor",
            good.replace("2 north", "2 south"),
            "line 5: the action is attributed to 'south' but north acts here",
        ),
        (
            "ruleset",
            good.replace("tihbat(seeds=1)", "tihbat(seeds=x)"),
            "line 2: tihbat option seeds=x",
        ),
        (
            "end",
            good.replace("draw 2 2", "north-wins 1 3"),
            "line 6: the record says",
        ),
        ("junk", "hello\n".to_string(), "line 1: not a qasab record"),
    ];
    for (name, text, message) in cases {
        let path = temp(&format!("{name}.qrec"));
        std::fs::write(&path, text).unwrap();
        fails(&["replay", path.to_str().unwrap()], message);
    }
    fails(
        &["replay", "/nonexistent/record.qrec"],
        "cannot read /nonexistent/record.qrec",
    );
}

#[test]
fn simulate_reports_and_is_independent_of_threads() {
    let out = ok(&[
        "simulate",
        "tihbat(seeds=4)",
        "--games",
        "200",
        "--players",
        "random,solver",
        "--seed",
        "7",
    ]);
    assert!(
        out.contains("wins") && out.contains("95% CI") && out.contains("turns histogram"),
        "{out}"
    );
    let json = |threads: &str| -> serde_json::Value {
        serde_json::from_str(&ok(&[
            "simulate",
            "tihbat",
            "--games",
            "300",
            "--players",
            "random(seed=1),random",
            "--seed",
            "9",
            "--threads",
            threads,
            "--json",
        ]))
        .unwrap()
    };
    let (a, b) = (json("1"), json("2"));
    for key in [
        "ruleset",
        "games",
        "players",
        "wins",
        "draws",
        "truncated",
        "mean_turns",
        "mean_actions",
        "seconds",
    ] {
        assert!(a.get(key).is_some(), "missing {key}");
    }
    assert_eq!(a["games"], 300);
    assert_eq!(a["wins"].as_array().unwrap().len(), 2);
    for key in [
        "wins",
        "draws",
        "truncated",
        "mean_turns",
        "mean_actions",
        "turns",
        "mean_scores",
    ] {
        assert_eq!(a[key], b[key], "{key} differs between 1 and 2 threads");
    }
    let w = a["wins"][0].as_u64().unwrap()
        + a["wins"][1].as_u64().unwrap()
        + a["draws"].as_u64().unwrap();
    assert_eq!(w, 300);
    fails(
        &["simulate", "tihbat", "--players", "random"],
        "--players needs two players",
    );
    fails(
        &["simulate", "tihbat", "--players", "random,bogus"],
        "north player: unknown player 'bogus'",
    );
    fails(
        &["simulate", "tihbat", "--games", "0"],
        "--games must be from 1 to 100000000",
    );
    fails(
        &["simulate", "tihbat", "--games", "100000000000"],
        "--games must be from 1 to 100000000",
    );
}

#[test]
fn solve_reports_values_as_text_and_json() {
    let out = ok(&["solve"]);
    assert!(out.contains("Value -2 for south"), "{out}");
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["solve", "tihbat(seeds=3)", "--json"])).unwrap();
    assert_eq!(v["ruleset"], "tihbat(seeds=3)");
    assert_eq!(v["value"], 6);
    assert_eq!(
        v["moves"],
        serde_json::json!([{"move": "A3", "value": 6}, {"move": "B3", "value": 0}])
    );
    assert!(v["states"].as_u64().unwrap() > 0 && v["seconds"].as_f64().is_some());
    let sweep: serde_json::Value =
        serde_json::from_str(&ok(&["solve", "--sweep", "1..4", "--json"])).unwrap();
    let values: Vec<i64> = sweep
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["value"].as_i64().unwrap())
        .collect();
    assert_eq!(values.len(), 4);
    assert_eq!(values[2], 6);
    let table = ok(&["solve", "tihbat(cycle=own-side)", "--sweep", "2..3"]);
    assert!(
        table.contains("seeds") && table.lines().count() == 4,
        "{table}"
    );
    let at = ok(&["solve", "--position", "2,9,9,8/0,0/north"]);
    assert!(
        at.contains("for north (to move)") && at.contains("C9") && at.contains("D8"),
        "{at}"
    );
    fails(&["solve", "--sweep", "3..1"], "--sweep takes A..B");
    fails(
        &["solve", "--position", "1,2,3/0,0/south"],
        "bad tihbat position",
    );
    fails(
        &["solve", "--position", "1,2,3,4/0,0/south"],
        "holds 10 counters in all, the ruleset 28",
    );
}

#[test]
fn solve_reads_position_ids_as_moves_and_apply_do() {
    // A full id (the moves played and the history), as `apply` prints it, is read and solved
    // with its history; the values agree with the short id's here.
    let full = ok(&["apply", "tihbat", "A7"]);
    assert_eq!(full.trim(), "2,9,9,8/0,0/north/1/7.7.7.7s");
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["solve", "--position", full.trim(), "--json"])).unwrap();
    assert_eq!(v["side_to_move"], "north");
    assert_eq!(
        v["moves"],
        serde_json::json!([{"move": "C9", "value": 2}, {"move": "D8", "value": -2}])
    );
    // And checked: no move played means the start, with south to move.
    fails(
        &["solve", "--position", "2,9,9,8/0,0/north/0"],
        "with no move played the game is at its start",
    );
    fails(
        &["solve", "--position", "2,9,9,8/0,0/north/1/7.7.8.6s"],
        "does not follow the one before",
    );
}

#[test]
fn bench_prints_the_json_contract() {
    let v: serde_json::Value = serde_json::from_str(&ok(&[
        "bench",
        "tihbat(seeds=3)",
        "--seconds",
        "0.05",
        "--json",
    ]))
    .unwrap();
    let r = &v.as_array().unwrap()[0];
    for key in [
        "ruleset",
        "playouts_per_second",
        "playouts_per_second_all_threads",
        "ns_per_action",
        "mean_actions",
        "solver_seconds",
    ] {
        assert!(r.get(key).is_some(), "missing {key}");
    }
    assert!(r["playouts_per_second"].as_f64().unwrap() > 0.0);
    fails(
        &["bench", "--seconds", "0"],
        "--seconds must be between 0 and 600",
    );
}

/// `qasab bench --search`: a row for the player as given, then with the search threads of
/// every core where it has them; every figure in --json; the positions and the player's
/// choices fixed by the seed, so the iterations a decision are exactly the budget.
#[test]
fn bench_search_measures_a_players_decisions() {
    let rows = |args: &[&str]| -> Vec<serde_json::Value> {
        let v: serde_json::Value = serde_json::from_str(&ok(args)).unwrap();
        v.as_array().unwrap().clone()
    };
    let v = rows(&[
        "bench",
        "--search",
        "tab",
        "--player",
        "mcts(iterations=300,eval=net)",
        "--positions",
        "3",
        "--json",
    ]);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    assert_eq!(v.len(), if cores > 1 { 2 } else { 1 }, "{v:?}");
    let r = &v[0];
    assert_eq!(r["ruleset"], "tab");
    assert_eq!(r["player"], "mcts(iterations=300,eval=net)");
    assert_eq!(
        (r["threads"].as_u64(), r["decisions"].as_u64()),
        (Some(1), Some(3))
    );
    assert_eq!(r["iterations_per_decision"].as_f64(), Some(300.0));
    for key in [
        "decision_ms_median",
        "decision_ms_mean",
        "decision_ms_max",
        "iterations_per_second",
        "nodes_per_decision",
        "network_evaluations_per_second",
    ] {
        assert!(r[key].as_f64().unwrap() > 0.0, "{key}: {r}");
    }
    if cores > 1 {
        assert_eq!(v[1]["threads"].as_u64(), Some(cores as u64));
        assert_eq!(
            v[1]["player"],
            format!("mcts(iterations=300,eval=net,threads={cores})")
        );
    }
    // The default player is `strongest`; one without threads is measured once and names no
    // iterations; a spec that sets threads is measured with them only.
    let v = rows(&[
        "bench",
        "--search",
        "tihbat(seeds=3)",
        "--positions",
        "2",
        "--json",
    ]);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0]["player"], "solver");
    assert!(v[0]["iterations_per_second"].is_null());
    let v = rows(&[
        "bench",
        "--search",
        "tihbat(seeds=3)",
        "--player",
        "mcts(iterations=100,threads=1)",
        "--positions",
        "2",
        "--json",
    ]);
    assert_eq!(v.len(), 1, "{v:?}");
    let text = ok(&[
        "bench",
        "--search",
        "tab-ludii",
        "--player",
        "greedy",
        "--positions",
        "2",
    ]);
    assert!(
        text.starts_with("tab-ludii\n  greedy (1 thread): 2 decisions, median "),
        "{text}"
    );
    fails(
        &["bench", "--search", "tab", "--player", "wizard"],
        "--player wizard: tab: unknown player 'wizard'",
    );
    fails(
        &["bench", "--search", "--positions", "0"],
        "--positions must be from 1 to 10000",
    );
}

#[test]
fn tab_rules_list_every_option_with_rule_ids() {
    let out = ok(&["rules", "tab"]);
    for id in [
        "S-1", "L-1", "L-2", "L-4", "L-5", "L-7", "L-8", "L-9c", "L-10", "L-11", "L-13", "L-14",
        "L-15", "L-16", "L-17", "L-18",
    ] {
        assert!(out.contains(id), "missing {id}");
    }
    assert!(
        out.contains("reduction       = square-visited")
            || out.contains("reduction   = square-visited")
            || out.contains("square-visited"),
        "{out}"
    );
    let all = ok(&["rules"]);
    for name in [
        "tab  ",
        "tab-hyde",
        "tab-modern",
        "p_white",
        "enemy_row",
        "limit_result",
    ] {
        assert!(all.contains(name), "missing {name}");
    }
    fails(
        &["rules", "tab(columns=8)"],
        "columns=8 is not valid; tab takes an odd number from 7 to 29",
    );
    fails(
        &[
            "rules",
            "tab-hyde(track=one-way,enemy_entry=once-while-occupied)",
        ],
        "needs track=loop",
    );
}

#[test]
fn moves_apply_and_perft_work_from_position_ids() {
    let out = ok(&["moves", "tab"]);
    assert!(out.contains("chance; 5 outcomes, weights of 16"), "{out}");
    let id = qasab(&["apply", "tab", "1", "2"], "");
    assert_eq!(id.code, 0, "{}", id.stderr);
    let id = id.stdout.trim().to_string();
    assert!(id.starts_with("move:w/12/"), "{id}");
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["moves", "tab", "--position", &id, "--json"])).unwrap();
    assert_eq!(v["turn"], "player");
    assert_eq!(v["moves"][0]["move"], "1:I-K");
    let next = ok(&["apply", "tab", "--position", &id, "1:I-K", "2:K-M", "3"]);
    // Black's 3 moves nothing (his pieces are unconverted), so White throws next.
    assert!(next.starts_with("throw:w/"), "{next}");
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["moves", "tab", "--position", next.trim(), "--json"])).unwrap();
    assert_eq!(v["turn"], "chance");
    assert_eq!(
        v["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["weight"].as_u64().unwrap())
            .sum::<u64>(),
        16
    );
    fails(
        &["apply", "tab", "1", "2", "2:I-K"],
        "action 3 '2:I-K': 2:I-K is not legal here",
    );
    fails(
        &["apply", "tab", "5"],
        "action 1 '5': '5' is not a chance outcome",
    );
    fails(
        &["moves", "tab", "--position", "nonsense"],
        "bad tab position id 'nonsense'",
    );
    let p = ok(&["perft", "tab", "--depth", "3"]);
    assert!(p.contains("perft 3 117   weighted 3496"), "{p}");
    let j: serde_json::Value =
        serde_json::from_str(&ok(&["perft", "tihbat", "--depth", "2", "--json"])).unwrap();
    assert_eq!(j["perft"][1]["nodes"], 4);
    fails(
        &["perft", "tab", "--depth", "0"],
        "--depth must be from 1 to 64",
    );
}

#[test]
fn tab_games_play_in_the_terminal_and_replay() {
    let path = temp("tab.qrec");
    let o = qasab(
        &[
            "play",
            "tab",
            "--white",
            "random",
            "--black",
            "random",
            "--seed",
            "4",
            "--record",
            path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("white throws") && o.stdout.contains("black plays"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("game over:"), "{}", o.stdout);
    let replayed = ok(&["replay", "--quiet", path.to_str().unwrap()]);
    assert!(replayed.contains("game complete"), "{replayed}");
    // A human White against the default opponent (the strongest player: mcts with the
    // network): hint ranks the legal moves, bad input is explained, undo works.
    let o = qasab(
        &["play", "tab", "--seed", "3"],
        "hint\nK-N\n1:I-K\nundo\nquit\n",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains("black: mcts(iterations=70000,eval=net,"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout
            .contains("Hint from mcts(iterations=70000,eval=net,")
            && o.stdout.contains("best"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("K-N is not legal here"), "{}", o.stdout);
    assert!(
        o.stdout.contains("Took back white's move 1:I-K"),
        "{}",
        o.stdout
    );
    fails(
        &["play", "tab", "--south", "random"],
        "--south is not a seat of tab; its seats are --white and --black",
    );
    fails(
        &["play", "tab", "--black", "solver"],
        "player solver cannot play tab: it is only available for tihbat",
    );
}

#[test]
fn tab_simulation_reports_stick_statistics() {
    // A turn is 1/(1 - 6/16) = 1.6 throws on average, and has a tab with chance 4/14.
    for ruleset in [
        "tab",
        "tab-hyde",
        "tab-modern",
        "tab-ludii",
        "tab-hyde-ludii",
    ] {
        let v: serde_json::Value = serde_json::from_str(&ok(&[
            "simulate", ruleset, "--games", "100", "--seed", "1", "--json",
        ]))
        .unwrap();
        for key in [
            "throws_per_turn",
            "tab_turn_share",
            "captures",
            "conversions",
            "reductions",
            "banked",
            "truncated",
        ] {
            assert!(v.get(key).is_some(), "{ruleset}: missing {key}");
        }
        let tpt = v["throws_per_turn"].as_f64().unwrap();
        assert!(
            (1.4..1.8).contains(&tpt),
            "{ruleset}: about 1.6 throws per turn: {tpt}"
        );
        let share = v["tab_turn_share"].as_f64().unwrap();
        assert!(
            (0.22..0.36).contains(&share),
            "{ruleset}: about 0.29 of turns have a tab: {share}"
        );
        assert!(v["captures"].as_f64().unwrap() > 1.0, "{ruleset}: captures");
    }
    let t: serde_json::Value =
        serde_json::from_str(&ok(&["simulate", "tihbat", "--games", "10", "--json"])).unwrap();
    assert!(t.get("throws_per_turn").is_none(), "tihbat has no sticks");
}

/// The keys of a JSON object, sorted.
fn keys(v: &serde_json::Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

#[test]
fn arena_reports_pairings_and_a_ladder() {
    let out = ok(&[
        "arena",
        "tihbat(seeds=4)",
        "--players",
        "random",
        "solver",
        "random",
        "--games",
        "20",
        "--seed",
        "3",
    ]);
    assert!(
        out.starts_with("tihbat(seeds=4): 3 players, 3 pairings of 20 games (60 games), seed 3"),
        "{out}"
    );
    for word in [
        "Score: win 1, draw 1/2, truncated game 1/2 each",
        "A score",
        "Elo A-B",
        "A wins ",
        "draws ",
        "B wins ",
        "truncated ",
        "game pairs 10: A won both ",
        "the first seat won both ",
        "Ladder",
    ] {
        assert!(out.contains(word), "missing {word}: {out}");
    }
    let pairing_lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("  random") || l.starts_with("  solver"))
        .collect();
    assert_eq!(pairing_lines.len(), 3, "{out}");
    assert!(pairing_lines[0].starts_with("  random#1  solver "), "{out}");
    assert!(
        pairing_lines[1].starts_with("  random#1  random#2"),
        "{out}"
    );
    let ladder = out.split("Ladder").nth(1).unwrap();
    let first = ladder.lines().nth(2).unwrap();
    assert!(first.trim_start().starts_with("1  solver"), "{out}");

    let json = |players: &[&str], threads: &str| -> String {
        let mut args = vec!["arena", "tab-ludii", "--players"];
        args.extend_from_slice(players);
        args.extend_from_slice(&[
            "--games",
            "16",
            "--seed",
            "5",
            "--threads",
            threads,
            "--json",
        ]);
        ok(&args)
    };
    let text = json(&["random", "random(seed=2)", "random"], "1");
    assert_eq!(text, json(&["random", "random(seed=2)", "random"], "2"));
    assert_eq!(text, json(&["random,random(seed=2)", "random"], "2"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        keys(&v),
        [
            "games_per_pairing",
            "pairings",
            "ratings",
            "ruleset",
            "seed"
        ]
    );
    assert_eq!(v["ruleset"], "tab-ludii");
    assert_eq!(v["games_per_pairing"], 16);
    let pairings = v["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 3);
    for p in pairings {
        assert_eq!(
            keys(p),
            [
                "a",
                "a_elo",
                "a_elo_ci95",
                "a_score",
                "a_score_ci95",
                "a_wins",
                "b",
                "b_wins",
                "draws",
                "game_pairs",
                "games",
                "truncated"
            ]
        );
        let n = |k: &str| p[k].as_u64().unwrap();
        assert_eq!(n("a_wins") + n("b_wins") + n("draws") + n("truncated"), 16);
        let g = &p["game_pairs"];
        assert_eq!(
            keys(g),
            [
                "a_both",
                "b_both",
                "first_seat_both",
                "second_seat_both",
                "with_draw"
            ]
        );
        let pair = |k: &str| g[k].as_u64().unwrap();
        let decisive = ["a_both", "b_both", "first_seat_both", "second_seat_both"];
        assert_eq!(
            decisive.map(pair).iter().sum::<u64>() + pair("with_draw"),
            8
        );
        // Two wins of A in every pair A won both, one in every pair a seat won both.
        assert!(
            2 * pair("a_both") + pair("first_seat_both") + pair("second_seat_both") <= n("a_wins")
        );
        let points = n("a_wins") as f64 + (n("draws") + n("truncated")) as f64 / 2.0;
        assert!((p["a_score"].as_f64().unwrap() - points / 16.0).abs() < 1e-12);
        let ci = p["a_score_ci95"].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() <= p["a_score"].as_f64().unwrap());
    }
    assert_eq!(
        (pairings[0]["a"].as_str(), pairings[0]["b"].as_str()),
        (Some("random#1"), Some("random(seed=2)"))
    );
    assert_eq!(pairings[2]["b"], "random#2");
    let ratings = v["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 3);
    let mut sum = 0.0;
    for r in ratings {
        assert_eq!(keys(r), ["elo", "elo_ci95", "player"]);
        sum += r["elo"].as_f64().unwrap();
    }
    assert!(sum.abs() < 1e-6, "ratings have mean 0: {sum}");
}

#[test]
fn arena_explains_bad_input() {
    fn arena<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec!["arena"];
        args.extend_from_slice(extra);
        args
    }
    fails(
        &arena(&["tihbet", "--players", "random", "random"]),
        "unknown ruleset 'tihbet'",
    );
    fails(
        &arena(&["tihbat", "--players", "random"]),
        "--players: an arena needs at least two players; got 1",
    );
    fails(
        &arena(&["tihbat", "--players", "random", "bogus"]),
        "--players: player 2 (bogus): unknown player 'bogus'; valid players: random",
    );
    fails(
        &arena(&["tab", "--players", "solver", "random"]),
        "--players: player 1 (solver): player solver cannot play tab",
    );
    fails(
        &arena(&["tihbat", "--players", "random(seed=x)", "random"]),
        "player 1 (random(seed=x)): player random option seed=x is not valid",
    );
    fails(
        &arena(&["tihbat", "--players", "random", "random", "--games", "0"]),
        "--games: games per pairing must be an even number, at least 2",
    );
    fails(
        &arena(&["tihbat", "--players", "random", "random", "--games", "7"]),
        "both seatings with the same throws); got 7",
    );
    fails(
        &arena(&[
            "tihbat",
            "--players",
            "random",
            "random",
            "--games",
            "100000000000",
        ]),
        "--games: 100000000000 games per pairing make 100000000000 games in all; at most 100000000",
    );
    fails(
        &arena(&[
            "tihbat",
            "--players",
            "random",
            "random",
            "--threads",
            "5000",
        ]),
        "--threads: threads must be from 0 (one per core) to 1024; got 5000",
    );
}

#[test]
fn analyse_rates_every_decision_and_throw_of_a_record() {
    let path = temp("analyse-tab.qrec");
    let path_s = path.to_str().unwrap();
    ok(&[
        "play",
        "tab(columns=7)",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "4",
        "--record",
        path_s,
    ]);
    let text = ok(&["analyse", path_s, "--agent", "mcts(level=1)"]);
    assert!(
        text.starts_with("tab(columns=7), analysed by mcts(level=1,seed=0)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "Marks by loss against the best move: ?! from 0.04, ? from 0.08, ?? from 0.16."
        )
    );
    assert!(
        text.contains(" white throws ") && text.contains(" luck "),
        "{text}"
    );
    assert!(
        text.contains("\nwhite ") && text.contains("\nblack "),
        "{text}"
    );

    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "analyse",
        path_s,
        "--agent",
        "mcts(level=1)",
        "--json",
    ]))
    .unwrap();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "agent",
            "fortresses",
            "moves",
            "players",
            "ruleset",
            "thresholds",
            "throws",
            "value_kind"
        ]
    );
    assert_eq!(json["value_kind"], "estimate");
    let moves = json["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        let loss = m["loss"].as_f64().unwrap();
        assert!(loss >= 0.0);
        if m["choices"] == 1 {
            assert!(m["played_value"].is_null() && m["mark"].is_null());
        } else {
            let d = m["best_value"].as_f64().unwrap() - m["played_value"].as_f64().unwrap();
            assert!((d - loss).abs() < 1e-9);
        }
    }
    let decisions: u64 = ["white", "black"]
        .iter()
        .map(|p| json["players"][p]["decisions"].as_u64().unwrap())
        .sum();
    assert_eq!(decisions as usize, moves.len());
    // The same seed gives the same analysis.
    assert_eq!(
        ok(&["analyse", path_s, "--agent", "mcts(level=1)", "--json"]),
        ok(&["analyse", path_s, "--agent", "mcts(level=1)", "--json"])
    );

    // Tihbat: the solver by default, exact margins, no throws.
    let path = temp("analyse-tihbat.qrec");
    let path_s = path.to_str().unwrap();
    ok(&[
        "play", "tihbat", "--south", "random", "--north", "solver", "--seed", "2", "--record",
        path_s,
    ]);
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["analyse", path_s, "--json"])).unwrap();
    assert_eq!(json["value_kind"], "exact-margin");
    assert!(json["agent"].as_str().unwrap().starts_with("solver"));
    assert_eq!(json["throws"].as_array().unwrap().len(), 0);
    assert_eq!(
        json["players"]["north"]["total_loss"], 0.0,
        "the solver loses nothing"
    );

    fails(
        &["analyse", path_s, "--agent", "random"],
        "does not rate moves",
    );
    fails(
        &["analyse", path_s, "--agent", "bogus"],
        "unknown player 'bogus'",
    );
    fails(
        &["analyse", "/nonexistent/game.qrec"],
        "cannot read /nonexistent/game.qrec",
    );
    let bad = temp("analyse-bad.qrec");
    std::fs::write(&bad, "hello\n").unwrap();
    fails(
        &["analyse", bad.to_str().unwrap()],
        "line 1: not a qasab record",
    );
}

/// `qasab train` writes the network, the best one by the curve, its checkpoint and the
/// learning curve; a run stopped and resumed gives the same network, byte for byte, as one run
/// straight through (on another number of threads); the network plays; bad settings fail with
/// one clear line.
#[test]
fn train_writes_resumes_and_plays() {
    let dir = temp("train");
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (whole, part) = (file("whole.safetensors"), file("part.safetensors"));
    let small = [
        "--batch",
        "2",
        "--hidden",
        "8,4",
        "--curve-every",
        "2",
        "--curve-pairs",
        "1",
        "--seed",
        "3",
    ];
    let run = |games: &str, out: &str, threads: &str, resume: Option<&str>| {
        let mut args = vec!["train"];
        match resume {
            Some(checkpoint) => args.extend(["--resume", checkpoint]),
            None => args.push("tab"),
        }
        args.extend(["--games", games, "--out", out, "--threads", threads]);
        if resume.is_none() {
            args.extend(small);
        }
        ok(&args)
    };
    let said = run("4", &whole, "1", None);
    assert!(said.starts_with("4 games of tab: network in "), "{said}");
    for end in ["checkpoint.safetensors", "curve.json", "curve.svg"] {
        assert!(dir.join(format!("whole.{end}")).is_file(), "no whole.{end}");
    }
    let curve: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("whole.curve.json")).unwrap())
            .unwrap();
    let games: Vec<u64> = curve
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["games"].as_u64().unwrap())
        .collect();
    assert_eq!(games, [0, 2, 4]);
    // The best network by the curve: that of its first point with the top score.
    let scores: Vec<f64> = curve
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["score"].as_f64().unwrap())
        .collect();
    let top = (0..scores.len())
        .reduce(|a, b| if scores[b] > scores[a] { b } else { a })
        .unwrap();
    let best = qasab_ai::eval::net::Network::from_bytes(
        &std::fs::read(dir.join("whole.best.safetensors")).unwrap(),
    )
    .unwrap();
    assert_eq!(best.metadata["games"], games[top].to_string());
    assert_eq!(best.metadata["curve_score"], format!("{:.4}", scores[top]));
    assert!(said.contains("whole.best.safetensors (after "), "{said}");

    run("2", &part, "1", None);
    run("4", &part, "2", Some(&file("part.checkpoint.safetensors")));
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&part).unwrap(),
        "resumed on 2 threads, the run gives the network of the unbroken run on 1"
    );

    // A lower rate for the rest of a run, named in the network it gives.
    let x = file("x.safetensors");
    let slow = file("slow.safetensors");
    ok(&[
        "train",
        "--resume",
        &file("part.checkpoint.safetensors"),
        "--games",
        "6",
        "--rate",
        "0.0002",
        "--out",
        &slow,
    ]);
    let net = qasab_ai::eval::net::Network::from_bytes(&std::fs::read(&slow).unwrap()).unwrap();
    assert_eq!(net.metadata["rate"], "0.0002");
    assert_eq!(net.metadata["rate_schedule"], "0:0.001,4:0.0002");
    assert_ne!(
        std::fs::read(&slow).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    fails(
        &[
            "train",
            "--resume",
            &file("slow.checkpoint.safetensors"),
            "--rate",
            "2",
            "--out",
            &x,
        ],
        "rate=2 is not between 0 and 1",
    );

    // A run of one reading from the network of another: its weights, encoding and sizes.
    let tuned = file("tuned.safetensors");
    let said = ok(&[
        "train",
        "tab(enemy_row=free)",
        "--start",
        &whole,
        "--games",
        "2",
        "--batch",
        "2",
        "--curve-every",
        "0",
        "--out",
        &tuned,
    ]);
    assert!(said.starts_with("2 games of tab(enemy_row=free)"), "{said}");
    let net = qasab_ai::eval::net::Network::from_bytes(&std::fs::read(&tuned).unwrap()).unwrap();
    assert_eq!(net.metadata["start"], "tab-v2 (tab, 4 games)");
    assert_eq!(net.mlp.fc1.outputs, 8, "the starting network's sizes");
    fails(
        &[
            "train",
            "tab-modern",
            "--start",
            &whole,
            "--games",
            "2",
            "--out",
            &x,
        ],
        "the network was trained for tab",
    );

    let player = format!("net(weights={whole})");
    let table = ok(&[
        "arena",
        "tab",
        "--players",
        &player,
        "random",
        "--games",
        "2",
        "--seed",
        "1",
    ]);
    assert!(table.contains("net(weights="), "{table}");
    fails(
        &[
            "arena",
            "tab-ludii",
            "--players",
            &player,
            "random",
            "--games",
            "2",
        ],
        "the network was trained for tab (inputs tab-v2), not for tab-ludii",
    );

    fails(
        &["train", "tihbat", "--games", "2", "--out", &x],
        "tihbat has no network",
    );
    fails(
        &["train", "tab", "--games", "2", "--out", &x, "--hidden", "8"],
        "--hidden 8: expected two unit counts",
    );
    fails(
        &["train", "tab", "--out", &x],
        "--games: how many self-play games?",
    );
    fails(
        &["train", "tab", "--games", "0", "--out", &x],
        "--games must be at least 1",
    );
    fails(
        &["train", "--resume", &whole, "--out", &x],
        "not a checkpoint",
    );
    let dir_s = dir.to_str().unwrap();
    fails(
        &["train", "--resume", dir_s, "--out", &x],
        "not a regular file",
    );
    fails(
        &[
            "train",
            "--resume",
            &file("missing.safetensors"),
            "--out",
            &x,
        ],
        "missing.safetensors",
    );
    assert!(
        !dir.join("x.safetensors").exists(),
        "nothing written on failure"
    );
}

/// `qasab arena --svg` draws the ladder after printing the report; a chart that cannot be
/// written is one clear error.
#[test]
fn arena_draws_its_ladder() {
    let svg = temp("ladder.svg");
    let svg_s = svg.to_str().unwrap();
    let table = ok(&[
        "arena",
        "tihbat",
        "--players",
        "random",
        "greedy",
        "--games",
        "4",
        "--seed",
        "2",
        "--svg",
        svg_s,
    ]);
    assert!(table.contains("Ladder"), "{table}");
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(chart.starts_with("<svg"), "{chart}");
    assert!(
        chart.contains("Elo ratings on tihbat, 4 games a pairing"),
        "{chart}"
    );
    for player in ["random", "greedy"] {
        assert!(chart.contains(player), "{player} is not on the chart");
    }
    fails(
        &[
            "arena",
            "tihbat",
            "--players",
            "random",
            "greedy",
            "--games",
            "2",
            "--svg",
            "/nonexistent/ladder.svg",
        ],
        "--svg: ",
    );
}

/// `qasab arena --records DIR` writes every game's record, named by pairing, pair and game, and
/// the report is the one without it; a directory that is not empty is refused before any game.
#[test]
fn arena_writes_every_games_record() {
    let dir = temp("arena-records");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_s = dir.to_str().unwrap();
    let args = |records: bool| {
        let mut a = vec![
            "arena",
            "tab-ludii",
            "--players",
            "random",
            "greedy",
            "random(seed=2)",
            "--games",
            "4",
            "--seed",
            "7",
            "--json",
        ];
        if records {
            a.extend(["--records", dir_s]);
        }
        a
    };
    let with = ok(&args(true));
    assert_eq!(with, ok(&args(false)), "the records change nothing played");
    let report: serde_json::Value = serde_json::from_str(&with).unwrap();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 12, "{names:?}");
    assert_eq!(names[0], "pairing-1-pair-1-game-1.qrec");
    assert_eq!(names[11], "pairing-3-pair-2-game-2.qrec");
    let mut a_wins = [0u64; 3];
    for name in &names {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let replayed = ok(&["replay", path.to_str().unwrap()]);
        assert!(replayed.contains("game complete"), "{name}: {replayed}");
        let info = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("info {key} ")))
                .unwrap_or_else(|| panic!("{name}: no info {key}"))
                .to_string()
        };
        let pairing: usize = info("pairing").parse().unwrap();
        let game = info("game");
        assert!(name.starts_with(&format!(
            "pairing-{pairing}-pair-{}-game-{game}",
            info("pair")
        )));
        assert_eq!(info("arena-seed"), "7");
        let p = &report["pairings"][pairing - 1];
        let (a, b) = (p["a"].as_str().unwrap(), p["b"].as_str().unwrap());
        let (white, black) = if game == "1" { (a, b) } else { (b, a) };
        assert_eq!(
            (info("white").as_str(), info("black").as_str()),
            (white, black)
        );
        let a_seat = if game == "1" { "white" } else { "black" };
        if text.contains(&format!("\nend {a_seat}-wins ")) {
            a_wins[pairing - 1] += 1;
        }
    }
    for (p, wins) in a_wins.iter().enumerate() {
        assert_eq!(report["pairings"][p]["a_wins"], *wins, "pairing {}", p + 1);
    }
    fails(&args(true), "the directory is not empty");
}

/// `qasab analyse` over a directory of records (or several files) rates every game and sums
/// each player's losses, labelled by the records' `info` lines; the totals are the single
/// games' summaries added up, and they do not depend on the threads.
#[test]
fn analyse_totals_many_records() {
    let dir = temp("analyse-many");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_s = dir.to_str().unwrap();
    ok(&[
        "arena",
        "tab-ludii",
        "--players",
        "random",
        "greedy",
        "--games",
        "4",
        "--seed",
        "3",
        "--records",
        dir_s,
    ]);
    let json = |args: &[&str]| -> serde_json::Value { serde_json::from_str(&ok(args)).unwrap() };
    let all = json(&[
        "analyse",
        dir_s,
        "--agent",
        "net",
        "--json",
        "--threads",
        "2",
    ]);
    assert_eq!(
        all,
        json(&[
            "analyse",
            dir_s,
            "--agent",
            "net",
            "--json",
            "--threads",
            "1"
        ])
    );
    assert_eq!(all["agent"], "net(seed=0)");
    assert_eq!(all["value_kind"], "estimate");
    assert_eq!(all["games"].as_array().unwrap().len(), 4);
    let players = all["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    let mut loss = std::collections::HashMap::<String, f64>::new();
    let mut points = std::collections::HashMap::<String, f64>::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for (game, path) in all["games"].as_array().unwrap().iter().zip(&names) {
        assert_eq!(game["record"], path.to_str().unwrap());
        let one = json(&[
            "analyse",
            path.to_str().unwrap(),
            "--agent",
            "net",
            "--json",
        ]);
        for seat in ["white", "black"] {
            assert_eq!(game["players"][seat], one["players"][seat]);
            let label = game["seats"][seat].as_str().unwrap().to_string();
            *loss.entry(label.clone()).or_default() += f(&one["players"][seat]["total_loss"]);
            *points.entry(label).or_default() += f(&game["points"][seat]);
        }
    }
    for p in players {
        let label = p["player"].as_str().unwrap();
        assert!(["random", "greedy"].contains(&label), "{label}");
        assert_eq!(p["games"], 4);
        assert!((f(&p["total_loss"]) - loss[label]).abs() < 1e-9);
        assert!((f(&p["score"]) - points[label] / 4.0).abs() < 1e-12);
    }
    let (a, b) = (&players[0], &players[1]);
    let from = &all["from_losses"];
    assert_eq!(from["a"], a["player"]);
    let expected = 0.5 + (f(&b["loss_per_game"]) - f(&a["loss_per_game"])) / 2.0;
    assert!((f(&from["a_score"]) - expected.clamp(0.0, 1.0)).abs() < 1e-12);

    let text = ok(&[
        "analyse",
        names[0].to_str().unwrap(),
        names[1].to_str().unwrap(),
        "--agent",
        "net",
    ]);
    assert!(
        text.starts_with("tab-ludii: 2 games analysed by net(seed=0)"),
        "{text}"
    );
    assert!(text.contains("loss/game"), "{text}");
    assert!(text.contains("From the losses: "), "{text}");

    fails(
        &["analyse", dir_s, "--threads", "5000"],
        "--threads: from 0 (one per core) to 1024; got 5000",
    );
    let empty = temp("analyse-empty");
    std::fs::create_dir_all(&empty).unwrap();
    fails(
        &["analyse", empty.to_str().unwrap()],
        "the directory holds no .qrec record",
    );
    let other = temp("analyse-other.qrec");
    std::fs::write(
        &other,
        "qasab-record 1\nruleset tihbat\nactions\nend unfinished\n",
    )
    .unwrap();
    fails(
        &["analyse", dir_s, other.to_str().unwrap()],
        "a record of tihbat, where the first is of tab-ludii; analyse one ruleset at a time",
    );
}

/// The `seed: N (replay with --seed N)` line of a `qasab play` run.
fn printed_seed(stdout: &str) -> u64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("  seed: "))
        .unwrap_or_else(|| panic!("no seed line: {stdout}"));
    let (seed, rest) = line["  seed: ".len()..].split_once(' ').unwrap();
    assert_eq!(rest, format!("(replay with --seed {seed})"));
    seed.parse().unwrap()
}

/// Without `--seed` every game is a new one: the seed is drawn afresh, printed and kept in the
/// record, and `--seed` with it plays the same game again, a person's moves included.
#[test]
fn play_draws_a_fresh_seed_that_replays_the_game() {
    let (first, second) = (temp("fresh-1.qrec"), temp("fresh-2.qrec"));
    let run = |record: &PathBuf, seed: Option<&str>| {
        let mut args = vec![
            "play",
            "tab",
            "--white",
            "random",
            "--black",
            "greedy",
            "--record",
            record.to_str().unwrap(),
        ];
        if let Some(seed) = seed {
            args.extend(["--seed", seed]);
        }
        ok(&args)
    };
    let a = run(&first, None);
    let b = run(&second, None);
    let (seed_a, seed_b) = (printed_seed(&a), printed_seed(&b));
    assert_ne!(seed_a, seed_b, "two runs drew the same seed");
    let rest = |out: &str| out.lines().skip(4).collect::<Vec<_>>().join("\n");
    assert_ne!(
        rest(&a),
        rest(&b),
        "two runs without --seed played the same game"
    );
    let record = std::fs::read_to_string(&first).unwrap();
    assert!(
        record.contains(&format!("\ninfo seed {seed_a}\n")),
        "{record}"
    );
    let again = temp("fresh-again.qrec");
    let played = |out: &str| -> String {
        out.lines()
            .filter(|l| !l.starts_with("Record written to "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        played(&run(&again, Some(&seed_a.to_string()))) == played(&a),
        "--seed {seed_a} plays another game"
    );
    assert_eq!(std::fs::read_to_string(&again).unwrap(), record);
    assert!(ok(&["replay", "--quiet", first.to_str().unwrap()]).contains("game complete"));

    // A person's game: the same seed and the same input give the same output.
    let input = "hint\nboard\nundo\nquit\n";
    let human = |seed: Option<&str>| {
        let mut args = vec!["play", "tab", "--black", "greedy", "--hint", "greedy"];
        if let Some(seed) = seed {
            args.extend(["--seed", seed]);
        }
        let o = qasab(&args, input);
        assert_eq!(o.code, 0, "{}", o.stderr);
        o.stdout
    };
    let fresh = human(None);
    let seed = printed_seed(&fresh).to_string();
    assert_eq!(human(Some(&seed)), fresh);
    // The hint player has a seed of its own, drawn from the game's, and is named with it.
    assert!(fresh.contains("  Hint from greedy(seed="), "{fresh}");
    assert!(!fresh.contains(&format!("greedy(seed={seed})")), "{fresh}");
}

/// The opening throws that decide who begins are labelled, and a throw that its player cannot
/// use is said so.
#[test]
fn play_tells_the_opening_throws_and_the_throws_that_cannot_be_used() {
    let out = ok(&[
        "play", "tab", "--white", "random", "--black", "random", "--seed", "3",
    ]);
    assert!(
        out.contains(
            "\nwhite throws 2 (itneyn) to decide who begins: not a tab (whoever first throws a tab begins, L-4)\nblack throws 2 (itneyn) to decide who begins: not a tab\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "\nwhite throws 2 (itneyn); white cannot use the 2: every white piece still waits for a tab to convert it (L-9c)\n"
        ),
        "{out}"
    );
}

/// A move typed with Lane's letters in the wrong case is answered with the move meant.
#[test]
fn play_names_the_move_meant_in_the_other_case() {
    let o = qasab(
        &["play", "tab", "--seed", "3", "--black", "greedy"],
        "i-k\nquit\n",
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stdout.contains(
            "  i-k is not legal here: there is no white piece on i; did you mean 1:I-K? capital letters name the squares of White's half of the board (A-I, K-S), small letters Black's (k-s, a-i)\n"
        ),
        "{}",
        o.stdout
    );
}

/// `qasab play --help` lists every player of the registry and where they are described.
#[test]
fn play_help_lists_the_players() {
    let help = ok(&["play", "--help"]);
    for seat in ["--south", "--north", "--white", "--black"] {
        let at = help.find(seat).unwrap_or_else(|| panic!("{seat}: {help}"));
        let text = &help[at..];
        let text = &text[..text.find("docs/players.md").expect("docs/players.md")];
        for name in qasab_ai::players::AGENT_NAMES {
            assert!(text.contains(name), "{seat} does not list {name}: {help}");
        }
    }
}

/// `qasab rules` wraps its text to 80 columns when the output is not a terminal, and aligns
/// the options in force.
#[test]
fn rules_fit_in_80_columns() {
    let mut all = vec![None];
    all.extend(qasab_core::RULESET_NAMES.iter().map(|&n| Some(n)));
    for ruleset in all {
        let out = ok(&ruleset.map_or(vec!["rules"], |r| vec!["rules", r]));
        for line in out.lines() {
            assert!(
                line.chars().count() <= 80,
                "{ruleset:?}: a line of {} characters: {line}",
                line.chars().count()
            );
        }
    }
    let tab = ok(&["rules", "tab"]);
    // The board and the track first.
    let (l1, l2, l9) = (
        tab.find("\nL-1 ").unwrap(),
        tab.find("\nL-2 ").unwrap(),
        tab.find("\nL-9c ").unwrap(),
    );
    assert!(l1 < l2 && l2 < l9, "{tab}");
    let in_force = &tab[tab.find("Options in force:").unwrap()..];
    let columns: Vec<usize> = in_force
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| l.find(" = ").unwrap_or_else(|| panic!("{l}")))
        .collect();
    assert!(columns.windows(2).all(|w| w[0] == w[1]), "{in_force}");
    // Then what the player `strongest` stands for on the ruleset.
    let default = ok(&["rules", "tihbat"]);
    assert!(
        default.contains(
            "\nDefault player (the player `strongest`, the default opponent and hint): solver;\n\
             where it cannot play, mcts\n"
        ),
        "{default}"
    );
    assert!(ok(&["rules", "tab(columns=13)"]).ends_with(
        "\nDefault player (the player `strongest`, the default opponent and hint): mcts\n"
    ));
}

/// The sessions of `qasab play` in the README are what the command prints: each block that
/// starts `$ qasab play ...` is run with the words typed at its prompts as the input, and the
/// output is compared with the block, line by line (trailing spaces aside, which the board
/// prints and the README leaves out).
#[test]
fn readme_play_sessions_match_the_command() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let mut sessions = 0;
    let mut rest = readme.as_str();
    while let Some(at) = rest.find("```text\n$ qasab play ") {
        let block = &rest[at + "```text\n".len()..];
        let block = &block[..block.find("```").unwrap()];
        rest = &rest[at + 1..];
        let (command, transcript) = block.split_once('\n').unwrap();
        if transcript.lines().any(|l| l == "...") {
            continue;
        }
        let args = shell_words(&command["$ qasab ".len()..]);
        // What a person typed follows the prompt; piped in, it is not echoed.
        let mut input = String::new();
        let mut expected = String::new();
        for line in transcript.lines() {
            match line.split_once("]> ") {
                Some((prompt, typed)) if prompt.contains(" to move [") => {
                    input.push_str(typed);
                    input.push('\n');
                    expected.push_str(prompt);
                    expected.push_str("]> ");
                }
                _ => {
                    expected.push_str(line);
                    expected.push('\n');
                }
            }
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = qasab(&args, &input);
        assert_eq!(o.code, 0, "{command}: {}", o.stderr);
        let trim = |s: &str| s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
        assert_eq!(
            trim(&o.stdout),
            trim(&expected),
            "{command}: the README's session differs from the output"
        );
        sessions += 1;
    }
    assert!(sessions >= 2, "the README's play sessions were not found");
}

/// The words of a command line, with double quotes.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// `qasab endgame`: a table built, described, probed, verified and compared; a damaged one
/// refused; a game played with a directory of tables.
#[test]
fn endgame_tables_from_the_command_line() {
    const DUEL: &str = "7/3,W,3/4,B,2/7/white/main/1,0/6,6/0x14/0x21/0x14/0x21";
    let dir = temp("endgame-tables");
    std::fs::create_dir_all(&dir).unwrap();
    let table = dir.join("duel.qeg");
    let t = table.to_str().unwrap();
    let built = ok(&["endgame", "build", "tab-ludii", "--from", DUEL, "--out", t]);
    assert!(built.contains("positions   776 at a throw"), "{built}");
    let stats: serde_json::Value =
        serde_json::from_str(&ok(&["endgame", "stats", t, "--json"])).unwrap();
    assert_eq!(stats["positions"], 776);
    assert_eq!(stats["seeds"][0], DUEL);
    let probe: serde_json::Value =
        serde_json::from_str(&ok(&["endgame", "probe", t, DUEL, "--json"])).unwrap();
    assert_eq!(probe["player"], "white");
    assert_eq!(probe["turn"], "throw");
    let value = probe["value"].as_f64().unwrap();
    let (win, loss) = (
        probe["win"].as_f64().unwrap(),
        probe["loss"].as_f64().unwrap(),
    );
    assert!((win - loss - value).abs() < 1e-5);
    // After a throw of 3, the one decision and its value.
    let after = DUEL.replace("/white/", "/white:3/");
    let text = ok(&["endgame", "probe", t, &after]);
    assert!(text.starts_with("white to move: value "), "{text}");
    assert!(text.contains("3:d2-a2") && text.contains("best"), "{text}");
    let verified = ok(&["endgame", "verify", t]);
    assert!(
        verified.contains("checksum ok; 776 positions"),
        "{verified}"
    );
    // Built again with a smaller cap on Ludii's track counts, and compared.
    let small = dir.join("small.qeg");
    let s = small.to_str().unwrap();
    ok(&[
        "endgame",
        "build",
        "tab-ludii",
        "--from",
        DUEL,
        "--count-cap",
        "1",
        "--out",
        s,
    ]);
    let c: serde_json::Value =
        serde_json::from_str(&ok(&["endgame", "compare", t, s, "--json"])).unwrap();
    let common = c["common"].as_u64().unwrap();
    assert!(common > 0 && common <= 776, "{c}");
    assert_eq!(c["only_first"].as_u64().unwrap() + common, 776, "{c}");
    assert!(c["largest"].as_f64().unwrap() >= 0.0);
    // Lane's accumulated throws, their pending throws cut at the cap given.
    const LANE: &str = "throw:w/-/x,x,x,x,x,x,c2.c12v3e40/x,x,x,x,x,x,e3.c34v27c000/0.0/6.6/0.0/11.0.0.0/0.0.0.0.0.0.0/-";
    let lane = dir.join("lane.qeg");
    let l = lane.to_str().unwrap();
    let built = ok(&[
        "endgame",
        "build",
        "tab(columns=7)",
        "--from",
        LANE,
        "--bank-cap",
        "1",
        "--pending-cap",
        "0",
        "--out",
        l,
    ]);
    assert!(built.contains("pending throws 0 a kind"), "{built}");
    let stats: serde_json::Value =
        serde_json::from_str(&ok(&["endgame", "stats", l, "--json"])).unwrap();
    assert_eq!(stats["pending_cap"], 0);
    assert_eq!(stats["limits"], false);
    let text = ok(&["endgame", "compare", t, t]);
    assert!(
        text.contains("776 in both") && text.contains("largest difference 0.00e0"),
        "{text}"
    );
    // Outside the table, a bad id, a damaged file: refused with their reasons.
    let start = "W,W,W,W,W,W,W/7/7/B,B,B,B,B,B,B/white/opening/1,0/0,0/1x7,0x7/0x21/1x7,0x7/0x21";
    let o = qasab(&["endgame", "probe", t, start], "");
    assert_ne!(o.code, 0);
    assert!(o.stderr.contains("not in table"), "{}", o.stderr);
    let o = qasab(&["endgame", "probe", t, "7/7"], "");
    assert!(
        o.code != 0 && o.stderr.contains("position id"),
        "{}",
        o.stderr
    );
    let mut bytes = std::fs::read(&table).unwrap();
    let at = bytes.len() - 40;
    bytes[at] ^= 1;
    let damaged = dir.join("damaged.qeg");
    std::fs::write(&damaged, &bytes).unwrap();
    let o = qasab(&["endgame", "verify", damaged.to_str().unwrap()], "");
    assert!(
        o.code != 0 && o.stderr.contains("checksum mismatch"),
        "{}",
        o.stderr
    );
    std::fs::remove_file(&damaged).unwrap();
    // Tihbat has its own solver.
    let o = qasab(&["endgame", "build", "tihbat", "--from", "x"], "");
    assert!(
        o.code != 0 && o.stderr.contains("qasab solve"),
        "{}",
        o.stderr
    );
    // A game with the tables' directory: the start is in no table, so it plays as without.
    let game = [
        "play",
        "tab-ludii",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "3",
    ];
    let without = ok(&game);
    let with = ok(&[&game[..], &["--tables", dir.to_str().unwrap()]].concat());
    assert_eq!(with, without);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `qasab endgame build --resume`: a build stopped by its limit keeps its progress in
/// OUT.partial, is refused to start over it without --resume, goes on with it to the same
/// table, and removes it once the table is written.
#[test]
fn a_stopped_endgame_build_is_resumed_from_the_command_line() {
    const DUEL: &str = "7/3,W,3/4,B,2/7/white/main/1,0/6,6/0x14/0x21/0x14/0x21";
    let dir = temp("endgame-resume");
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.qeg");
    let table = dir.join("duel.qeg");
    let partial = dir.join("duel.qeg.partial");
    let t = table.to_str().unwrap();
    let build = |out: &str, extra: &[&str]| {
        let args = [
            &[
                "endgame",
                "build",
                "tab-ludii",
                "--from",
                DUEL,
                "--out",
                out,
            ][..],
            extra,
        ]
        .concat();
        qasab(&args, "")
    };
    ok(&[
        "endgame",
        "build",
        "tab-ludii",
        "--from",
        DUEL,
        "--no-checkpoint",
        "--out",
        whole.to_str().unwrap(),
    ]);
    let o = build(t, &["--checkpoint-every", "0", "--max-positions", "400"]);
    assert!(
        o.code != 0 && o.stderr.contains("more than 400 positions"),
        "{}",
        o.stderr
    );
    assert!(partial.exists() && !table.exists());
    let o = build(t, &[]);
    assert!(
        o.code != 0 && o.stderr.contains("duel.qeg.partial holds a stopped build"),
        "{}",
        o.stderr
    );
    let o = build(t, &["--resume"]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(
        o.stderr.contains("resuming the build kept in"),
        "{}",
        o.stderr
    );
    assert!(
        o.stdout.contains("positions   776 at a throw"),
        "{}",
        o.stdout
    );
    assert!(!partial.exists());
    let c = ok(&["endgame", "compare", whole.to_str().unwrap(), t]);
    assert!(
        c.contains("776 in both") && c.contains("largest difference 0.00e0"),
        "{c}"
    );
    // Nothing to resume: a fresh start, said so.
    std::fs::remove_file(&table).unwrap();
    let o = build(t, &["--resume"]);
    assert!(
        o.code == 0 && o.stderr.contains("starting afresh"),
        "{}",
        o.stderr
    );
    let o = qasab(
        &[
            "endgame",
            "build",
            "tab-ludii",
            "--from",
            DUEL,
            "--resume",
            "--no-checkpoint",
        ],
        "",
    );
    assert!(
        o.code != 0 && o.stderr.contains("--no-checkpoint"),
        "{}",
        o.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
