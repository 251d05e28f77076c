//! Perft tables: move generation pinned by counting the game tree (data in `data/perft/`).

use std::fs;

use qasab_core::perft::{complete_games, perft};
use qasab_core::{AnyRuleset, RULESET_NAMES, Ruleset, with_ruleset};

/// Nodes above which a count is skipped in the default test run.
const NODE_LIMIT: u64 = 5_000_000;

#[derive(Debug)]
struct Case {
    id: String,
    ruleset: String,
    perft: Vec<(u32, u64)>,
    games: Option<u64>,
}

fn read(path: &str) -> Vec<Case> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("{path}:{}: bad line", n + 1));
        match key {
            "id" => cases.push(Case {
                id: rest.into(),
                ruleset: String::new(),
                perft: vec![],
                games: None,
            }),
            "ruleset" => cases.last_mut().expect("id first").ruleset = rest.into(),
            "perft" => {
                let (d, c) = rest.split_once(' ').expect("perft D N");
                cases
                    .last_mut()
                    .expect("id first")
                    .perft
                    .push((d.parse().unwrap(), c.parse().unwrap()));
            }
            "games" => cases.last_mut().expect("id first").games = Some(rest.parse().unwrap()),
            _ => panic!("{path}:{}: unknown key {key}", n + 1),
        }
    }
    cases
}

fn check(case: &Case) {
    let any: AnyRuleset = case
        .ruleset
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", case.id));
    with_ruleset!(&any, r => {
        let start = r.initial_state();
        for &(depth, count) in &case.perft {
            if count <= NODE_LIMIT {
                assert_eq!(perft(&start, depth), count, "{} perft {depth}", case.id);
            }
        }
        if let Some(games) = case.games.filter(|&g| g <= NODE_LIMIT) {
            assert_eq!(complete_games(&start, 10_000), Some(games), "{} games", case.id);
        }
    });
}

#[test]
fn tihbat_perft() {
    let cases = read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/perft/tihbat.perft"
    ));
    assert!(cases.len() >= 10);
    for c in &cases {
        check(c);
    }
}

#[test]
#[ignore = "counts above the node limit; run with --ignored"]
fn tihbat_perft_large() {
    for c in read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/perft/tihbat.perft"
    )) {
        let any: AnyRuleset = c.ruleset.parse().unwrap();
        with_ruleset!(&any, r => {
            if let Some(games) = c.games.filter(|&g| g > NODE_LIMIT) {
                assert_eq!(complete_games(&r.initial_state(), 10_000), Some(games), "{}", c.id);
            }
        });
    }
}

#[test]
fn every_ruleset_has_a_perft_file() {
    for name in RULESET_NAMES {
        let path = format!(
            "{}/tests/data/perft/{name}.perft",
            env!("CARGO_MANIFEST_DIR")
        );
        assert!(fs::metadata(&path).is_ok(), "missing {path}");
    }
}
