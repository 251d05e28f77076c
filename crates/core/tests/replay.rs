//! Golden transcripts: every record in `data/replays/*.qrec` is replayed and rendered step by
//! step (board, turn, legal moves, action), and the transcript is compared line by line with
//! the `.txt` file beside it. The records hold the actions, so the transcripts do not depend on
//! any random generator. `BLESS=1 cargo test` rewrites the transcripts after a deliberate change.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use qasab_core::record::{Record, actor_name, replay};
use qasab_core::{Action, AnyRuleset, GameState, Ruleset, Turn, with_ruleset};

fn transcript<R: Ruleset>(rules: &R, record: &Record) -> String {
    let replayed = replay::<R::State>(record).unwrap_or_else(|e| panic!("replay failed: {e}"));
    let mut out = String::new();
    let _ = writeln!(out, "ruleset: {rules}");
    let mut state = rules.initial_state();
    out.push_str(&state.render());
    let mut moves = Vec::new();
    let mut outcomes = Vec::new();
    for (i, a) in replayed.actions.iter().enumerate() {
        let _ = writeln!(out, "\n# state {i}: {}", state.position_id());
        let _ = writeln!(out, "turn: {}", actor_name(&state).unwrap_or("over"));
        state.legal_moves(&mut moves);
        if !moves.is_empty() {
            let legal: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            let _ = writeln!(out, "legal: {}", legal.join(" "));
        }
        let total = state.chance_outcomes(&mut outcomes);
        if total > 0 {
            let list: Vec<String> = outcomes
                .iter()
                .map(|w| format!("{}:{}", w.outcome, w.weight))
                .collect();
            let _ = writeln!(out, "outcomes (of {total}): {}", list.join(" "));
        }
        let _ = match a {
            Action::Move(m) => writeln!(out, "action: {m}  ({})", state.describe_move(*m)),
            Action::Chance(c) => writeln!(out, "action: {c}  ({})", state.describe_chance(*c)),
        };
        state.try_apply(*a).unwrap();
    }
    let _ = writeln!(out, "\n# final: {}", state.position_id());
    out.push_str(&state.render());
    if let Turn::Over(o) = state.turn() {
        let _ = writeln!(out, "outcome: {o:?}");
    }
    out
}

/// Compares two texts line by line and panics with the first difference.
fn assert_same_lines(path: &Path, expected: &str, got: &str) {
    for (i, (e, g)) in expected.lines().zip(got.lines()).enumerate() {
        assert_eq!(
            e,
            g,
            "{}: line {} differs\nexpected: {e}\n     got: {g}\n(BLESS=1 rewrites the file)",
            path.display(),
            i + 1
        );
    }
    assert_eq!(
        expected.lines().count(),
        got.lines().count(),
        "{}: different line counts (BLESS=1 rewrites)",
        path.display()
    );
}

#[test]
fn golden_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/replays");
    let bless = std::env::var_os("BLESS").is_some();
    let mut seen = Vec::new();
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "qrec") {
            continue;
        }
        let record = Record::parse(&fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let any: AnyRuleset = record.ruleset.parse().unwrap();
        let got = with_ruleset!(&any, r => transcript(r, &record));
        let golden = path.with_extension("txt");
        if bless {
            fs::write(&golden, &got).unwrap();
        } else {
            let expected = fs::read_to_string(&golden)
                .unwrap_or_else(|_| panic!("missing {} (BLESS=1 creates it)", golden.display()));
            assert_same_lines(&golden, &expected, &got);
        }
        seen.push(any.name());
    }
    for name in qasab_core::RULESET_NAMES {
        assert!(seen.contains(name), "no golden record for {name}");
    }
}
