//! Perft tables: move generation pinned by counting the game tree (data in `data/perft/`).
//!
//! A file holds cases: `id NAME`, `ruleset STRING`, optionally `position ID`, then lines
//! `perft DEPTH NODES [WEIGHTED]` and `games COMPLETE-GAMES`. Counts above a node limit are
//! checked only by the ignored test.

use std::fs;
use std::path::Path;

use qasab_core::perft::{complete_games, perft_weighted};
use qasab_core::{AnyRuleset, RULESET_NAMES, Ruleset, with_ruleset};

/// Nodes above which a count is skipped in the default test run.
const NODE_LIMIT: u64 = 5_000_000;

#[derive(Debug)]
struct Case {
    id: String,
    ruleset: String,
    position: Option<String>,
    perft: Vec<(u32, u64, Option<u128>)>,
    games: Option<u64>,
}

fn read(path: &Path) -> Vec<Case> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut cases: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{}:{}", path.display(), n + 1);
        let (key, rest) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("{}: bad line", at()));
        if key == "id" {
            cases.push(Case {
                id: rest.into(),
                ruleset: String::new(),
                position: None,
                perft: vec![],
                games: None,
            });
            continue;
        }
        let case = cases
            .last_mut()
            .unwrap_or_else(|| panic!("{}: 'id' must come first", at()));
        match key {
            "ruleset" => case.ruleset = rest.into(),
            "position" => case.position = Some(rest.into()),
            "perft" => {
                let v: Vec<&str> = rest.split_whitespace().collect();
                let weighted = v.get(2).map(|w| w.parse().unwrap());
                case.perft
                    .push((v[0].parse().unwrap(), v[1].parse().unwrap(), weighted));
            }
            "games" => case.games = Some(rest.parse().unwrap()),
            _ => panic!("{}: unknown key {key}", at()),
        }
    }
    cases
}

fn check(case: &Case, limit: u64, above: bool) {
    let any: AnyRuleset = case
        .ruleset
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", case.id));
    let in_range = |n: u64| if above { n > limit } else { n <= limit };
    with_ruleset!(&any, r => {
        let start = match &case.position {
            Some(id) => r.state_from_id(id).unwrap_or_else(|e| panic!("{}: {e}", case.id)),
            None => r.initial_state(),
        };
        for &(depth, count, weighted) in &case.perft {
            if in_range(count) {
                let (n, w) = perft_weighted(&start, depth);
                assert_eq!(n, count, "{} perft {depth}", case.id);
                if let Some(expected) = weighted {
                    assert_eq!(w, expected, "{} weighted perft {depth}", case.id);
                }
            }
        }
        if let Some(games) = case.games.filter(|&g| in_range(g)) {
            assert_eq!(complete_games(&start, 10_000), Some(games), "{} games", case.id);
        }
    });
}

fn files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/perft");
    let mut v: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    v.sort();
    v
}

#[test]
fn perft_tables() {
    for file in files() {
        let cases = read(&file);
        assert!(!cases.is_empty(), "{}", file.display());
        for c in &cases {
            check(c, NODE_LIMIT, false);
        }
    }
}

#[test]
#[ignore = "counts above the node limit; run with --ignored"]
fn perft_tables_large() {
    for file in files() {
        for c in &read(&file) {
            check(c, NODE_LIMIT, true);
        }
    }
}

#[test]
fn every_ruleset_has_a_perft_file() {
    for name in RULESET_NAMES {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/perft/{name}.perft"));
        assert!(fs::metadata(&path).is_ok(), "missing {}", path.display());
    }
}
