//! Endgame tables: built from small positions, checked against an independent search, the
//! Bellman check, colour symmetry, and refusal of bad files and positions.

use std::sync::Arc;

use qasab_ai::play::driver::{ChanceSource, play_out};
use qasab_ai::players::random::RandomAgent;
use qasab_ai::players::tables::WithTables;
use qasab_ai::search::endgame::{
    self, BuildSpec, EndgameError, TableFile, TableSet, file as table_file, probe_state,
};
use qasab_ai::{Agent, ValueKind};
use qasab_core::{AnyRuleset, GameState, Player, Ruleset, Turn, tab_ludii};

/// White on d2, Black on e3 of `tab-ludii`, both in the middle loop; White to throw.
const LUDII_1V1: &str = "7/3,W,3/4,B,2/7/white/main/1,0/6,6/0x14/0x21/0x14/0x21";
/// The same with the colours swapped (the board turned round): Black on d3, White on c2.
const LUDII_1V1_SWAPPED: &str = "7/2,W,4/3,B,3/7/black/main/2,1/6,6/0x14/0x21/0x14/0x21";

fn build_file(ruleset: &str, seeds: &[&str], dir: &tempfile::TempDir) -> std::path::PathBuf {
    let rules: AnyRuleset = ruleset.parse().unwrap();
    let spec = BuildSpec {
        seeds: seeds.iter().map(|s| s.to_string()).collect(),
        ..BuildSpec::default()
    };
    let built = endgame::build(&rules, &spec, &mut |_| {}).unwrap();
    let path = dir.path().join("t.qeg");
    table_file::write(&path, &built.header, built.entries).unwrap();
    path
}

/// Bounds on White's value from an exhaustive search of `throws` more throws, every decision
/// tried one by one (no merging of a turn's orders), the game cut off with `leaf` for White.
fn bound(s: &tab_ludii::State, throws: u32, leaf: f64) -> f64 {
    match s.turn() {
        Turn::Over(o) if o.reason.is_truncation() => leaf,
        Turn::Over(o) => match o.winner {
            Some(Player::One) => 1.0,
            Some(Player::Two) => -1.0,
            None => 0.0,
        },
        Turn::Chance if throws == 0 => leaf,
        Turn::Chance => {
            let mut outs = Vec::new();
            let total = s.chance_outcomes(&mut outs);
            outs.iter()
                .map(|w| {
                    let mut c = *s;
                    c.apply_chance_unchecked(w.outcome);
                    f64::from(w.weight) * bound(&c, throws - 1, leaf)
                })
                .sum::<f64>()
                / f64::from(total)
        }
        Turn::Player(p) => {
            let mut moves = Vec::new();
            s.legal_moves(&mut moves);
            let values = moves.iter().map(|&m| {
                let mut c = *s;
                c.play_unchecked(m);
                bound(&c, throws, leaf)
            });
            if p == Player::One {
                values.fold(f64::NEG_INFINITY, f64::max)
            } else {
                values.fold(f64::INFINITY, f64::min)
            }
        }
    }
}

/// White's value from the table at a chance state.
fn white_value(table: &TableFile, s: &tab_ludii::State) -> f64 {
    let p = probe_state(table, s).unwrap();
    if p.player == Player::One {
        p.value
    } else {
        -p.value
    }
}

#[test]
fn ludii_values_lie_between_the_bounds_of_an_exhaustive_search() {
    let dir = tempfile::tempdir().unwrap();
    let path = build_file("tab-ludii", &[LUDII_1V1], &dir);
    let table = TableFile::open(&path).unwrap();
    let rules: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    // The seed and every chance state two throws on.
    let mut states = vec![rules.state_from_id(LUDII_1V1).unwrap()];
    for _ in 0..2 {
        let mut next = Vec::new();
        for s in &states {
            let mut outs = Vec::new();
            s.chance_outcomes(&mut outs);
            for w in &outs {
                let mut c = *s;
                c.apply_chance_unchecked(w.outcome);
                let mut moves = Vec::new();
                c.legal_moves(&mut moves);
                for &m in &moves {
                    let mut d = c;
                    d.play_unchecked(m);
                    if d.turn() == Turn::Chance {
                        next.push(d);
                    }
                }
            }
        }
        states.extend(next);
    }
    assert!(states.len() > 20);
    for s in &states {
        let v = white_value(&table, s);
        let (lo, hi) = (bound(s, 5, -1.0), bound(s, 5, 1.0));
        assert!(
            lo - 1e-6 <= v && v <= hi + 1e-6,
            "{}: {lo} <= {v} <= {hi}",
            s.position_id()
        );
        assert!(
            hi - lo < 2.0,
            "the search decides something at {}",
            s.position_id()
        );
    }
}

#[test]
fn ludii_table_verifies_and_has_the_documented_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let path = build_file("tab-ludii", &[LUDII_1V1], &dir);
    let table = TableFile::open(&path).unwrap();
    let report = endgame::verify(&table, "t.qeg").unwrap();
    assert_eq!(report.positions, table.len());
    assert!(report.max_error <= report.tolerance);
    let h = &table.header;
    assert_eq!(h.ruleset, "tab-ludii");
    assert_eq!(h.pieces, [1, 1]);
    assert_eq!(h.wins + h.losses + h.draws + h.mixed, h.positions);
    assert!(!h.limits);
    // A certain win exists (a capture throw at hand) and nothing ends in a draw: every piece
    // keeps running the loop and meets the other.
    assert!(h.wins > 0);
    assert_eq!(h.draws, 0);
    // Chances add up with the value.
    for i in 0..table.len() {
        let (_, e) = table.entry(i);
        assert!((f64::from(e.win) - f64::from(e.loss) - f64::from(e.value)).abs() < 1e-5);
    }
}

#[test]
fn ludii_values_are_symmetric_under_colour_swap() {
    let dir = tempfile::tempdir().unwrap();
    let path = build_file("tab-ludii", &[LUDII_1V1, LUDII_1V1_SWAPPED], &dir);
    let table = TableFile::open(&path).unwrap();
    let rules: AnyRuleset = "tab-ludii".parse().unwrap();
    let a = endgame::probe(&table, &rules, LUDII_1V1).unwrap();
    let b = endgame::probe(&table, &rules, LUDII_1V1_SWAPPED).unwrap();
    assert_eq!((a.player, b.player), (Player::One, Player::Two));
    assert!(
        (a.value - b.value).abs() < 1e-6,
        "{} vs {}",
        a.value,
        b.value
    );
    assert!((a.win.unwrap() - b.win.unwrap()).abs() < 1e-6);
}

#[test]
fn a_players_turn_is_probed_through_the_ends_of_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let path = build_file("tab-ludii", &[LUDII_1V1], &dir);
    let table = TableFile::open(&path).unwrap();
    let rules: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    let mut s = rules.state_from_id(LUDII_1V1).unwrap();
    let throw = s.parse_chance("3").unwrap();
    s.apply_chance_unchecked(throw);
    let p = probe_state(&table, &s).unwrap();
    assert!(!p.chance);
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    assert_eq!(p.moves.len(), moves.len());
    let best = p
        .moves
        .iter()
        .map(|m| m.value)
        .fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(best, p.value);
    // Each decision's value is the table's value of where it leads, for the mover.
    for (m, probed) in moves.iter().zip(&p.moves) {
        let mut c = s;
        c.play_unchecked(*m);
        let expected = match c.turn() {
            Turn::Over(o) => match o.winner {
                Some(Player::One) => 1.0,
                Some(Player::Two) => -1.0,
                None => 0.0,
            },
            _ => white_value(&table, &c),
        };
        assert!((probed.value - expected).abs() < 1e-6);
    }
}

#[test]
fn damaged_and_mismatched_files_and_bad_positions_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = build_file("tab-ludii", &[LUDII_1V1], &dir);
    let bytes = std::fs::read(&path).unwrap();
    // One byte flipped in the values: the checksum.
    let mut flipped = bytes.clone();
    let at = flipped.len() - 40;
    flipped[at] ^= 1;
    let err = TableFile::from_bytes(flipped).unwrap_err();
    assert!(err.contains("checksum"), "{err}");
    // Cut short.
    let err = TableFile::from_bytes(bytes[..bytes.len() - 100].to_vec()).unwrap_err();
    assert!(err.contains("truncated"), "{err}");
    // Not a table.
    let err = TableFile::from_bytes(b"hello, world, this is not a table at all......!".to_vec())
        .unwrap_err();
    assert!(err.contains("not a Qasab endgame table"), "{err}");
    let table = TableFile::from_bytes(bytes).unwrap();
    // Another ruleset.
    let other: AnyRuleset = "tab-hyde-ludii".parse().unwrap();
    assert!(matches!(
        endgame::probe(&table, &other, LUDII_1V1),
        Err(EndgameError::OtherRuleset { .. })
    ));
    let rules: AnyRuleset = "tab-ludii".parse().unwrap();
    // A bad id.
    assert!(matches!(
        endgame::probe(&table, &rules, "7/7/7"),
        Err(EndgameError::Position(_))
    ));
    // A position outside the table: the start.
    let start = rules.initial_state().position_id();
    assert!(matches!(
        endgame::probe(&table, &rules, &start),
        Err(EndgameError::NotInTable(_))
    ));
    // A state of another reading whose position id is the same: refused, not answered with
    // the values of other rules.
    let nine: tab_ludii::Ruleset = "tab-ludii(columns=9)".parse().unwrap();
    let other_state = nine
        .state_from_id("9/4,W,4/5,B,3/9/white/main/1,0/8,8/0x18/0x27/0x18/0x27")
        .unwrap();
    assert!(matches!(
        probe_state(&table, &other_state),
        Err(EndgameError::OtherRuleset { .. })
    ));
    // Tihbat has no tables.
    let tihbat: AnyRuleset = "tihbat".parse().unwrap();
    let spec = BuildSpec::default();
    assert!(matches!(
        endgame::build(&tihbat, &spec, &mut |_| {}),
        Err(EndgameError::NoTables(_))
    ));
}

/// Plays `games` seeded games from `start` and returns White's mean result (+1, −1, 0).
fn mean_result(
    start: &tab_ludii::State,
    games: u64,
    mut agents: impl FnMut(u64) -> [Box<dyn Agent<tab_ludii::State>>; 2],
) -> f64 {
    let mut sum = 0.0;
    for g in 0..games {
        let mut pair = agents(g);
        let end = play_out(*start, &mut pair, &mut ChanceSource::new(g), |_, _| {});
        sum += match end.turn() {
            Turn::Over(o) => match o.winner {
                Some(Player::One) => 1.0,
                Some(Player::Two) => -1.0,
                None => 0.0,
            },
            _ => unreachable!("played to the end"),
        };
    }
    sum / games as f64
}

#[test]
fn a_player_with_tables_plays_their_best_moves_and_does_not_do_worse_than_their_value() {
    let dir = tempfile::tempdir().unwrap();
    let path = build_file("tab-ludii", &[LUDII_1V1], &dir);
    let any: AnyRuleset = "tab-ludii".parse().unwrap();
    let tables = Arc::new(TableSet::open_dir(dir.path(), &any).unwrap());
    let rules: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    let start = rules.state_from_id(LUDII_1V1).unwrap();
    let with = |seed: u64| -> Box<dyn Agent<tab_ludii::State>> {
        Box::new(WithTables::new(
            Box::new(RandomAgent::new(seed)),
            tables.clone(),
        ))
    };
    // At a player's turn in the table: the exact values, and a best move chosen.
    let mut s = start;
    s.apply_chance_unchecked(s.parse_chance("2").unwrap());
    let mut agent = with(1);
    let eval = agent.evaluate(&s).expect("in the table");
    assert_eq!(eval.kind, ValueKind::ExactResult);
    let best = eval.moves[0].1;
    let chosen = agent.choose(&s);
    let value_of = |m| eval.moves.iter().find(|(x, _)| *x == m).unwrap().1;
    assert_eq!(value_of(chosen), best);
    // Outside the tables the player is itself: the start has no table values.
    assert!(agent.evaluate(&rules.initial_state()).is_none());
    // Seeded games from the table's position: White with the tables scores at least the
    // table's value against a random Black, and about it against Black with the tables.
    let value = white_value(&TableFile::open(&path).unwrap(), &start);
    let games = 600;
    let margin = 3.0 / (games as f64).sqrt();
    let against_random = mean_result(&start, games, |g| {
        [with(2 * g), Box::new(RandomAgent::new(2 * g + 1))]
    });
    assert!(
        against_random >= value - margin,
        "{against_random} < {value}"
    );
    let against_itself = mean_result(&start, games, |g| [with(2 * g), with(2 * g + 1)]);
    assert!(
        (against_itself - value).abs() <= margin,
        "{against_itself} vs {value}"
    );
}

#[test]
fn a_table_of_every_one_against_one_position_of_ludii_tab() {
    let dir = tempfile::tempdir().unwrap();
    let rules: AnyRuleset = "tab-ludii".parse().unwrap();
    let spec = BuildSpec {
        pieces: Some([1, 1]),
        ..BuildSpec::default()
    };
    let built = endgame::build(&rules, &spec, &mut |_| {}).unwrap();
    assert_eq!(built.header.domain, "pieces");
    assert_eq!(built.header.pieces, [1, 1]);
    assert!(built.header.seeds.is_empty());
    let path = dir.path().join("p11.qeg");
    table_file::write(&path, &built.header, built.entries).unwrap();
    let table = TableFile::open(&path).unwrap();
    let report = endgame::verify(&table, "p11.qeg").unwrap();
    assert_eq!(report.positions, table.len());
    // Every placement is in the table, and its value lies within the bounds of the exhaustive
    // search (checked on every 97th, to keep the test short).
    let ludii: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    let mut placements = Vec::new();
    let given = <tab_ludii::State as qasab_core::Essence>::placements(
        &ludii,
        qasab_core::ByPlayer::new(1, 1),
        qasab_core::EssenceCaps::default(),
        &mut |s| placements.push(s),
    )
    .unwrap();
    assert_eq!(given as usize, placements.len());
    assert!(placements.len() > 1000);
    for (i, s) in placements.iter().enumerate() {
        let v = white_value(&table, s);
        if i % 97 == 0 {
            let (lo, hi) = (bound(s, 3, -1.0), bound(s, 3, 1.0));
            assert!(lo - 1e-6 <= v && v <= hi + 1e-6, "{}", s.position_id());
        }
    }
    // Hyde's Ludii encoding says why it has no such tables yet (the faithful rulesets list one
    // piece a side: below).
    let r: AnyRuleset = "tab-hyde-ludii".parse().unwrap();
    let err = endgame::build(&r, &spec, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("--from"), "{err}");
}

#[test]
fn a_table_of_every_one_against_one_position_of_lanes_tab_holds_every_table_of_one_against_one() {
    // A faithful reading with one piece a side: every lone piece on every square with every
    // mark it can have, either side to throw, each bank up to the cap.
    let reading = "tab(columns=7,throw_timing=interleaved)";
    let rules: AnyRuleset = reading.parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let spec = BuildSpec {
        pieces: Some([1, 1]),
        bank_cap: 1,
        ..BuildSpec::default()
    };
    let built = endgame::build(&rules, &spec, &mut |_| {}).unwrap();
    assert_eq!(built.header.domain, "pieces");
    let all = dir.path().join("all.qeg");
    table_file::write(&all, &built.header, built.entries).unwrap();
    let all = TableFile::open(&all).unwrap();
    assert_eq!(
        endgame::verify(&all, "all.qeg").unwrap().positions,
        all.len()
    );
    // The table of the positions reachable from one position: each of its positions is in the
    // table of every position, with the same values (a position's value does not depend on
    // the table it is in).
    let from = "throw:w/-/x,x,x,x,x,x,c2.c12v3e40/x,x,x,x,x,x,e3.c34v27c000/1.0/6.6/0.0/11.0.0.0/0.0.0.0.0.0.0/-";
    let spec = BuildSpec {
        seeds: vec![from.to_string()],
        bank_cap: 1,
        ..BuildSpec::default()
    };
    let built = endgame::build(&rules, &spec, &mut |_| {}).unwrap();
    let some = dir.path().join("some.qeg");
    table_file::write(&some, &built.header, built.entries).unwrap();
    let some = TableFile::open(&some).unwrap();
    assert!(some.len() > 1000 && some.len() < all.len());
    for i in 0..some.len() {
        let (key, entry) = some.entry(i);
        let found = all
            .find(&key)
            .expect("every position of one against one is listed");
        assert!(
            (found.value - entry.value).abs() < 1e-5,
            "{found:?} vs {entry:?}"
        );
        assert!((found.win - entry.win).abs() < 1e-5);
        assert!((found.loss - entry.loss).abs() < 1e-5);
    }
    // Two pieces a side are not listed, with the reason.
    let spec = BuildSpec {
        pieces: Some([2, 1]),
        ..BuildSpec::default()
    };
    match endgame::build(&rules, &spec, &mut |_| {}) {
        Err(e) => assert!(
            e.to_string().contains("at most one piece a side") && e.to_string().contains("--from"),
            "{e}"
        ),
        Ok(_) => panic!("two pieces of a side are listed"),
    }
}

#[test]
fn a_build_that_would_need_more_memory_than_allowed_stops_with_the_reason() {
    let rules: AnyRuleset = "tab-ludii".parse().unwrap();
    let spec = BuildSpec {
        pieces: Some([1, 1]),
        max_bytes: 200_000,
        ..BuildSpec::default()
    };
    match endgame::build(&rules, &spec, &mut |_| {}) {
        Err(e @ EndgameError::TooMuchMemory { .. }) => {
            assert!(e.to_string().contains("more than 200 kB"), "{e}");
        }
        other => panic!(
            "built within 200 kB: {:?}",
            other.map(|b| b.header.positions)
        ),
    }
    // With room, the same table builds.
    let spec = BuildSpec {
        max_bytes: 100_000_000,
        ..spec
    };
    assert!(endgame::build(&rules, &spec, &mut |_| {}).is_ok());
}

#[test]
fn lanes_accumulated_throws_are_tabled_with_a_cap_on_pending_throws() {
    // Lane's reading throws on after a 1, 4 or 6 (L-5): without a cap on the pending throws a
    // turn could reach its throw cap (L-18). With one, no position of the table reaches a
    // limit, and the values are exact for the game whose pending throws stop at the cap. The
    // table keeps the starts of turns; the throws within a turn are thrown on in the build.
    let rules: AnyRuleset = "tab(columns=7)".parse().unwrap();
    let from = "throw:w/-/x,x,x,x,x,x,c2.c12v3e40/x,x,x,x,x,x,e3.c34v27c000/0.0/6.6/0.0/11.0.0.0/0.0.0.0.0.0.0/-";
    let dir = tempfile::tempdir().unwrap();
    let table = |pending_cap: u8| {
        let spec = BuildSpec {
            seeds: vec![from.to_string()],
            bank_cap: 1,
            pending_cap,
            ..BuildSpec::default()
        };
        let built = endgame::build(&rules, &spec, &mut |_| {}).unwrap();
        assert!(!built.header.limits, "a turn reached its throw cap");
        assert_eq!(built.header.pending_cap, pending_cap);
        let path = dir.path().join(format!("p{pending_cap}.qeg"));
        table_file::write(&path, &built.header, built.entries).unwrap();
        let table = TableFile::open(&path).unwrap();
        assert_eq!(endgame::verify(&table, "t").unwrap().positions, table.len());
        table
    };
    let (p0, p1) = (table(0), table(1));
    assert!(p0.len() > 1000 && p1.len() > 2 * p0.len());
    // A table against itself: every value the same.
    let same = endgame::compare(&p0, &p0).unwrap();
    assert_eq!((same.common, same.differing), (p0.len() as u64, 0));
    assert_eq!(same.largest, 0.0);
    // Every start of a turn of the smaller cap is a position of the larger one; at caps this
    // small, one more pending throw of a kind still changes values.
    let c = endgame::compare(&p0, &p1).unwrap();
    assert_eq!(c.common, p0.len() as u64);
    assert_eq!(c.only_first, 0);
    assert_eq!(c.only_second, (p1.len() - p0.len()) as u64);
    assert!(c.largest > 0.1 && c.differing > 0, "{c:?}");
    // A throw within a turn is no position of the table; its probe throws on as the build
    // does. It must satisfy the one-throw equation: its value is the mean, over the next throw,
    // of the value after it (a throw within the turn again, or the player's best decision).
    let r: qasab_core::tab::Ruleset = "tab(columns=7)".parse().unwrap();
    for pending in ["1", "4", "6", "14", "146"] {
        let id = from.replacen("throw:w/-/", &format!("throw:w/{pending}/"), 1);
        let s = r.state_from_id(&id).unwrap();
        let v = probe_state(&p1, &s).unwrap();
        assert!(v.chance && v.player == Player::One);
        assert!(
            (v.win.unwrap() - v.loss.unwrap() - v.value).abs() < 1e-5,
            "{v:?}"
        );
        let mut outs = Vec::new();
        s.chance_outcomes(&mut outs);
        let mut mean = 0.0;
        for w in &outs {
            let mut child = s;
            child.apply_chance_unchecked(w.outcome);
            let after = match child.turn() {
                Turn::Over(o) => match o.winner {
                    Some(Player::One) => 1.0,
                    Some(Player::Two) => -1.0,
                    None => 0.0,
                },
                _ => {
                    let a = probe_state(&p1, &child).unwrap();
                    assert_eq!(a.player, Player::One, "the turn is still White's");
                    a.value
                }
            };
            mean += f64::from(w.weight) / 16.0 * after;
        }
        assert!((mean - v.value).abs() < 1e-5, "{pending}: {mean} vs {v:?}");
    }
    // Tables of two rulesets are not compared.
    let ludii = TableFile::open(&build_file("tab-ludii", &[LUDII_1V1], &dir)).unwrap();
    assert!(matches!(
        endgame::compare(&p0, &ludii),
        Err(EndgameError::OtherRuleset { .. })
    ));
}

/// A build of the tab-ludii duel's table that keeps its progress in `path` after every batch.
fn checkpointed(path: &std::path::Path, max_positions: usize, resume: bool) -> BuildSpec {
    BuildSpec {
        seeds: vec![LUDII_1V1.to_string()],
        count_cap: 2,
        max_positions,
        checkpoint: Some(endgame::Checkpoint {
            path: path.to_path_buf(),
            every: std::time::Duration::ZERO,
            resume,
        }),
        ..BuildSpec::default()
    }
}

#[test]
fn a_stopped_build_goes_on_from_its_progress_file_to_the_same_table() {
    let rules: AnyRuleset = "tab-ludii".parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let whole = endgame::build(
        &rules,
        &BuildSpec {
            seeds: vec![LUDII_1V1.to_string()],
            count_cap: 2,
            ..BuildSpec::default()
        },
        &mut |_| {},
    )
    .unwrap();
    let n = whole.entries.len();
    assert!(n > 600, "{n}");
    // Stopped twice by its position limit (each time after some batches were kept), then
    // resumed to the end.
    let path = dir.path().join("t.qeg.partial");
    let mut kept = Vec::new();
    for limit in [n / 3, 2 * n / 3] {
        let err =
            endgame::build(&rules, &checkpointed(&path, limit, true), &mut |_| {}).unwrap_err();
        assert!(matches!(err, EndgameError::TooLarge { .. }), "{err}");
        kept.push(std::fs::metadata(&path).unwrap().len());
    }
    assert!(kept[0] < kept[1], "{kept:?}");
    let resumed = endgame::build(&rules, &checkpointed(&path, n, true), &mut |_| {}).unwrap();
    assert_eq!(resumed.entries.len(), n);
    for (a, b) in whole.entries.iter().zip(&resumed.entries) {
        assert_eq!(a.0, b.0, "the positions are numbered alike");
        assert_eq!(a.1, b.1, "and valued alike");
    }
    assert_eq!(
        whole.header.longest_win_throws,
        resumed.header.longest_win_throws
    );
    assert!(resumed.header.build_seconds > 0.0);
}

#[test]
fn a_progress_file_of_another_build_or_a_damaged_one_is_refused_with_the_reason() {
    let rules: AnyRuleset = "tab-ludii".parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.qeg.partial");
    let err = endgame::build(&rules, &checkpointed(&path, 300, true), &mut |_| {}).unwrap_err();
    assert!(matches!(err, EndgameError::TooLarge { .. }), "{err}");
    let good = std::fs::read(&path).unwrap();
    let resume = |spec: &BuildSpec| {
        endgame::build(&rules, spec, &mut |_| {})
            .unwrap_err()
            .to_string()
    };
    // Not resumed: the file is kept, not overwritten.
    let err = resume(&checkpointed(&path, 300, false));
    assert!(err.contains("holds a stopped build"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), good);
    // Another table: other caps, or other seeds.
    let mut other = checkpointed(&path, 10_000, true);
    other.count_cap = 3;
    let err = resume(&other);
    assert!(err.contains("another table"), "{err}");
    let mut other = checkpointed(&path, 10_000, true);
    other.seeds = vec![LUDII_1V1_SWAPPED.to_string()];
    assert!(resume(&other).contains("another table"));
    // Damaged: a byte changed, cut short, bytes added, or not a progress file at all.
    let cases: [(&str, Vec<u8>); 4] = [
        ("checksum", {
            let mut b = good.clone();
            let k = b.len() / 2;
            b[k] ^= 0x40;
            b
        }),
        ("ends", good[..good.len() - 100].to_vec()),
        ("follow", [good.clone(), vec![0]].concat()),
        ("does not start", b"QEG1 not this".to_vec()),
    ];
    for (why, bytes) in cases {
        std::fs::write(&path, bytes).unwrap();
        let err = resume(&checkpointed(&path, 10_000, true));
        assert!(
            err.contains("t.qeg.partial") && err.contains(why),
            "{why}: {err}"
        );
    }
}

#[test]
fn a_game_a_limit_stops_is_classified_by_the_exact_values_of_the_next_turn() {
    use qasab_ai::play::stalls::stall_of;
    use qasab_core::{Essence, tab};
    // Lane's rules on seven columns with a short no-progress limit, and the table of every
    // one-against-one position.
    let reading = "tab(columns=7,no_progress=3)";
    let any: AnyRuleset = reading.parse().unwrap();
    let spec = BuildSpec {
        pieces: Some([1, 1]),
        bank_cap: 1,
        pending_cap: 1,
        ..BuildSpec::default()
    };
    let built = endgame::build(&any, &spec, &mut |_| {}).unwrap();
    let dir = tempfile::tempdir().unwrap();
    table_file::write(&dir.path().join("p11.qeg"), &built.header, built.entries).unwrap();
    let set = TableSet::open_dir(dir.path(), &any).unwrap();
    let rules: tab::Ruleset = reading.parse().unwrap();
    let start = rules
        .state_from_id("throw:w/-/x,x,x,x,x,x,c2.c12v3e40/x,x,x,x,x,x,e3.c34v27c000/0.0/6.6/0.0/11.0.0.0/0.0.0.0.0.0.0/-")
        .unwrap();
    assert!(start.beyond_limit().is_none(), "a game no limit stopped");
    // Random games from one against one until one stops at the limit.
    let mut stopped = 0;
    for seed in 0..40u64 {
        let mut agents: [Box<dyn Agent<tab::State>>; 2] = [
            Box::new(RandomAgent::new(2 * seed)),
            Box::new(RandomAgent::new(2 * seed + 1)),
        ];
        let end = play_out(start, &mut agents, &mut ChanceSource::new(seed), |_, _| {});
        let Some(stall) = stall_of(&rules, seed, &end, Some(&set)) else {
            continue;
        };
        stopped += 1;
        let exact = stall.exact.expect("tables were given");
        // The start of the turn the limit cut off: a valid position at a throw, its player
        // the one whose turn is next, in the table of every one-against-one position; its
        // chances are the table's, and the verdict reads them.
        let next = end.beyond_limit().unwrap();
        next.validate().unwrap();
        assert_eq!(next.turn(), Turn::Chance);
        let thrower = next.chance_player().unwrap();
        assert_eq!(exact.thrower, rules.seat_name(thrower));
        let c = exact.chances.expect("in the table");
        let probe = set.probe_typed(&next).unwrap().0;
        let (mine, theirs) = if thrower == Player::One {
            (c.white, c.black)
        } else {
            (c.black, c.white)
        };
        assert!((probe.win.unwrap() - mine).abs() < 1e-9);
        assert!((probe.loss.unwrap() - theirs).abs() < 1e-9);
        assert!((c.white + c.black + c.never_ends - 1.0).abs() < 1e-5);
        let expected = match (c.white > 1e-6, c.black > 1e-6) {
            (false, false) => "proven-draw",
            (true, false) => "white-can-win",
            (false, true) => "black-can-win",
            (true, true) => "either-can-win",
        };
        assert_eq!(exact.verdict, expected);
        // Play goes on from it with the board of the stop.
        assert_eq!(next.material(), end.material());
        assert_eq!(next.sanctuaries(), end.sanctuaries());
        let board = |s: &tab::State| {
            s.position_id()
                .split('/')
                .skip(2)
                .take(2)
                .collect::<Vec<_>>()
                .join("/")
        };
        assert_eq!(board(&next), board(&end));
    }
    assert!(stopped >= 5, "{stopped} games stopped");
}
