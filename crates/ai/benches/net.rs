//! Criterion benchmarks of the learned evaluation on `tab` (and one evaluation on `tab-hyde`,
//! `tab-modern` and the Ludii presets): one evaluation (the encoding and
//! the network), the network alone, one at a time and in batches, the ends of whole turns
//! valued one at a time and together (as `greedy` and the `net` player value them), and the
//! fitted linear evaluation beside them, the inputs of the older encoding (`tab-v1`) and of
//! the board-free one (`tab-v3`) with the family network trained across readings,
//! over a fixed sample of mid-game positions (decisions
//! from seeded random games).
//!
//! Run with `cargo bench -p qasab-ai --bench net`. One iteration of a benchmark marked "(64
//! positions)" evaluates every position of the sample: divide by 64 for the time of one
//! evaluation. One iteration of the turn benchmarks values every end of the turns of the
//! sample's positions (their number is printed at the start): divide by that number.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use qasab_ai::eval::net::{Encode, Features, shipped};
use qasab_ai::eval::{EvalWeights, Evaluate};
use qasab_ai::play::bench::mid_game_positions;
use qasab_ai::search::turn::{TURN_STATES, TurnGraph};
use qasab_core::{Player, tab, tab_ludii};

/// The ruleset of the sample.
const TAB: &str = "tab";

fn net(c: &mut Criterion) {
    let sample = mid_game_positions(&TAB.parse::<tab::Ruleset>().expect("a preset"), 64);
    let net = shipped("tab").expect("the tab network is shipped");
    let inputs: Vec<Features> = sample
        .iter()
        .map(|s| {
            let mut f = Features::default();
            Encode::encode(s, net.encoding, &mut f);
            f
        })
        .collect();
    // The distinct ends of each sample position's turn, with the player in turn.
    let turns: Vec<(Player, Vec<tab::State>)> = sample
        .iter()
        .filter_map(|s| {
            let g = TurnGraph::new(s, TURN_STATES);
            g.is_complete()
                .then(|| (g.player(), g.ends().cloned().collect()))
        })
        .collect();
    let ends: usize = turns.iter().map(|(_, e)| e.len()).sum();
    let active: usize = inputs.iter().map(|f| f.active().len()).sum();
    eprintln!(
        "sample: {} tab positions, {:.1} active inputs of {} on average; network of {} \
         parameters; {} of their turns enumerated, {ends} ends in all",
        sample.len(),
        active as f64 / sample.len() as f64,
        net.mlp.inputs(),
        net.mlp.parameters(),
        turns.len(),
    );
    c.bench_function("tab net evaluate (64 positions)", |b| {
        b.iter(|| {
            for s in &sample {
                black_box(s.evaluate_with(Player::One, EvalWeights::NET));
            }
        })
    });
    c.bench_function("tab net encode (64 positions)", |b| {
        let mut f = Features::default();
        b.iter(|| {
            for s in &sample {
                black_box(Encode::encode(s, net.encoding, &mut f));
            }
        })
    });
    // The older encoding, tab-v1 (networks trained before tab-v2 read it), for
    // comparison: what the threat inputs of tab-v2 cost.
    let rules: tab::Ruleset = TAB.parse().expect("a preset");
    let older = <tab::State as Encode>::encoding_named(&rules, "tab-v1").expect("tab-v1");
    c.bench_function("tab net encode tab-v1 (64 positions)", |b| {
        let mut f = Features::default();
        b.iter(|| {
            for s in &sample {
                black_box(Encode::encode(s, older, &mut f));
            }
        })
    });
    // The board-free encoding, tab-v3 (the family network trained across readings reads
    // it): tab-v2's inputs laid on the fixed scale, and the reading.
    let free = <tab::State as Encode>::encoding_named(&rules, "tab-v3").expect("tab-v3");
    c.bench_function("tab net encode tab-v3 (64 positions)", |b| {
        let mut f = Features::default();
        b.iter(|| {
            for s in &sample {
                black_box(Encode::encode(s, free, &mut f));
            }
        })
    });
    // The family network on a reading other than the preset's (the same positions, read as
    // positions of 'tab(enemy_row=free)', where it plays).
    let other: tab::Ruleset = "tab(enemy_row=free)".parse().expect("a reading");
    let family = qasab_ai::eval::net::shipped_across("tab").expect("shipped");
    let recast: Vec<tab::State> = sample
        .iter()
        .filter_map(|s| {
            qasab_core::Ruleset::state_from_id(&other, &qasab_core::GameState::position_id(s)).ok()
        })
        .collect();
    assert_eq!(
        recast.len(),
        sample.len(),
        "every position reads as the other reading's"
    );
    c.bench_function("tab family net evaluate tab-v3 (64 positions)", |b| {
        b.iter(|| {
            for s in &recast {
                black_box(family.value(s, Player::One));
            }
        })
    });
    c.bench_function("tab net forward (64 positions)", |b| {
        b.iter(|| {
            for f in &inputs {
                black_box(net.mlp.value(f));
            }
        })
    });
    c.bench_function("tab net forward batched (64 positions)", |b| {
        let mut out = vec![0.0; inputs.len()];
        b.iter(|| {
            net.mlp.values(black_box(&inputs), &mut out);
            black_box(&out);
        })
    });
    c.bench_function("tab fitted evaluate (64 positions)", |b| {
        b.iter(|| {
            for s in &sample {
                black_box(s.evaluate_with(Player::One, EvalWeights::Fitted));
            }
        })
    });
    c.bench_function("tab net turn ends one at a time", |b| {
        b.iter(|| {
            for (p, ends) in &turns {
                for e in ends {
                    black_box(e.evaluate_with(*p, EvalWeights::NET));
                }
            }
        })
    });
    c.bench_function("tab net turn ends together", |b| {
        b.iter(|| {
            for (p, ends) in &turns {
                black_box(tab::State::evaluate_all(ends, *p, EvalWeights::NET));
            }
        })
    });
}

/// One evaluation on the presets `families` of the ruleset type `R`, 64 mid-game positions
/// each.
fn one_evaluation<R>(c: &mut Criterion, families: &[&str])
where
    R: qasab_core::Ruleset + std::str::FromStr,
    R::Err: std::fmt::Debug,
    R::State: Evaluate,
{
    for family in families {
        let rules: R = family.parse().expect("a preset");
        let sample = mid_game_positions(&rules, 64);
        c.bench_function(&format!("{family} net evaluate (64 positions)"), |b| {
            b.iter(|| {
                for s in &sample {
                    black_box(s.evaluate_with(Player::One, EvalWeights::NET));
                }
            })
        });
    }
}

/// One evaluation on the other boards of the family whose networks read `tab-v2`: more
/// columns, more inputs.
fn other_boards(c: &mut Criterion) {
    one_evaluation::<tab::Ruleset>(c, &["tab-hyde", "tab-modern"]);
}

/// One evaluation on the Ludii presets: both networks read `tab-ludii-v2` (with the threat
/// inputs).
fn ludii_boards(c: &mut Criterion) {
    one_evaluation::<tab_ludii::Ruleset>(c, &["tab-ludii", "tab-hyde-ludii"]);
}

criterion_group!(benches, net, other_boards, ludii_boards);
criterion_main!(benches);
