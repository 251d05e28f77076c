//! Perft tables: move generation pinned by counting the game tree (data in `data/perft/`).

use std::fs;

use qasab_core::perft::{complete_games, perft, perft_weighted};
use qasab_core::{AnyRuleset, RULESET_NAMES, Ruleset, with_ruleset};

/// Nodes above which a count is skipped in the default test run.
const NODE_LIMIT: u64 = 5_000_000;

#[derive(Debug)]
struct Case {
    id: String,
    ruleset: String,
    /// Depth, count and, if given, the weighted count.
    perft: Vec<(u32, u64, Option<u128>)>,
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
                let v: Vec<&str> = rest.split_whitespace().collect();
                let (d, c, w) = match v.as_slice() {
                    [d, c] => (d, c, None),
                    [d, c, w] => (d, c, Some(w.parse().unwrap())),
                    _ => panic!("{path}:{}: expected perft D N [W]", n + 1),
                };
                cases.last_mut().expect("id first").perft.push((
                    d.parse().unwrap(),
                    c.parse().unwrap(),
                    w,
                ));
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
        for &(depth, count, weighted) in &case.perft {
            if count > NODE_LIMIT {
                continue;
            }
            match weighted {
                None => assert_eq!(perft(&start, depth), count, "{} perft {depth}", case.id),
                Some(w) => assert_eq!(
                    perft_weighted(&start, depth),
                    (count, w),
                    "{} perft {depth}",
                    case.id
                ),
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
fn tab_ludii_perft() {
    for name in ["tab-ludii", "tab-hyde-ludii"] {
        let cases = read(&format!(
            "{}/tests/data/perft/{name}.perft",
            env!("CARGO_MANIFEST_DIR")
        ));
        assert!(cases.len() >= 4, "{name}");
        for c in &cases {
            check(c);
        }
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
