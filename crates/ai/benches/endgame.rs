//! Criterion benchmarks of the endgame tables: building the table of one `tab-ludii` duel
//! (776 positions: expansion, value iteration, chances), and probing it at a throw and at a
//! player's turn; building a table of Lane's accumulated throws from one duel on seven columns
//! (the throws within each turn thrown on in the expansion), and probing it within a turn.
//!
//! Run with `cargo bench -p qasab-ai --bench endgame`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use qasab_ai::search::endgame::{self, BuildSpec, TableFile, file as table_file, probe_state};
use qasab_core::{AnyRuleset, GameState, Ruleset, tab_ludii};

const DUEL: &str = "7/3,W,3/4,B,2/7/white/main/1,0/6,6/0x14/0x21/0x14/0x21";

/// Builds the table of `spec`, writes it in a directory of its own and reads it back; returns
/// the table and the directory, for the caller to remove.
fn written(any: &AnyRuleset, spec: &BuildSpec, name: &str) -> (TableFile, std::path::PathBuf) {
    let built = endgame::build(any, spec, &mut |_| {}).expect("built");
    let dir = std::env::temp_dir().join(format!("qasab-bench-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let path = dir.join(format!("{name}.qeg"));
    table_file::write(&path, &built.header, built.entries).expect("written");
    (TableFile::open(&path).expect("read"), dir)
}

fn tables(c: &mut Criterion) {
    let any: AnyRuleset = "tab-ludii".parse().expect("a preset");
    let spec = BuildSpec {
        seeds: vec![DUEL.to_string()],
        ..BuildSpec::default()
    };
    c.bench_function("tab-ludii duel table build (776 positions)", |b| {
        b.iter(|| endgame::build(black_box(&any), &spec, &mut |_| {}).expect("built"))
    });
    let (table, dir) = written(&any, &spec, "duel");
    let rules: tab_ludii::Ruleset = "tab-ludii".parse().expect("a preset");
    let at_throw = rules.state_from_id(DUEL).expect("an id");
    let mut to_move = at_throw;
    to_move.apply_chance_unchecked(to_move.parse_chance("3").expect("a throw"));
    c.bench_function("tab-ludii probe at a throw", |b| {
        b.iter(|| probe_state(&table, black_box(&at_throw)).expect("in the table"))
    });
    c.bench_function("tab-ludii probe at a player's turn", |b| {
        b.iter(|| probe_state(&table, black_box(&to_move)).expect("in the table"))
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// One converted piece a side on `tab(columns=7)`; White to throw.
const LANE: &str = "throw:w/-/x,x,x,x,x,x,c2.c12v3e40/x,x,x,x,x,x,e3.c34v27c000/0.0/6.6/0.0/11.0.0.0/0.0.0.0.0.0.0/-";

fn accumulated(c: &mut Criterion) {
    let any: AnyRuleset = "tab(columns=7)".parse().expect("a reading");
    let spec = BuildSpec {
        seeds: vec![LANE.to_string()],
        bank_cap: 1,
        pending_cap: 1,
        ..BuildSpec::default()
    };
    let mut group = c.benchmark_group("lane");
    group.sample_size(10);
    group.bench_function(
        "tab(columns=7) duel table build, pending cap 1, bank cap 1",
        |b| b.iter(|| endgame::build(black_box(&any), &spec, &mut |_| {}).expect("built")),
    );
    let (table, dir) = written(&any, &spec, "lane");
    let rules: qasab_core::tab::Ruleset = "tab(columns=7)".parse().expect("a reading");
    let within = rules
        .state_from_id(&LANE.replace("throw:w/-/", "throw:w/1/"))
        .expect("an id");
    group.bench_function("tab(columns=7) probe within a turn (a 1 pending)", |b| {
        b.iter(|| probe_state(&table, black_box(&within)).expect("in the table"))
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, tables, accumulated);
criterion_main!(benches);
