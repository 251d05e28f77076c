//! The variant laboratory: `--vary` axes, variants, chunks, and a study's report.

use std::collections::BTreeMap;

use qasab_ai::play::study::{
    ChunkKey, Match, SolverValue, StudyError, StudySpec, Variant, parse_axis, solver_values, vary,
};
use qasab_core::AnyRuleset;

fn rules(text: &str) -> AnyRuleset {
    text.parse().unwrap()
}

fn message(e: StudyError) -> String {
    let m = e.to_string();
    assert!(!m.contains('\n'), "one line: {m}");
    m
}

#[test]
fn axes_take_lists_and_integer_ranges() {
    assert_eq!(
        parse_axis("reduction=off, square-landed").unwrap(),
        (
            "reduction".into(),
            vec!["off".into(), "square-landed".into()]
        )
    );
    let (k, v) = parse_axis("seeds=1..4").unwrap();
    assert_eq!(
        (k.as_str(), v),
        (
            "seeds",
            vec!["1", "2", "3", "4"]
                .into_iter()
                .map(String::from)
                .collect()
        )
    );
    assert_eq!(
        parse_axis("columns=7..=9,13").unwrap().1,
        ["7", "8", "9", "13"]
    );
    for (bad, why) in [
        ("reduction", "expected KEY=V1,V2"),
        ("=off", "the key is missing"),
        ("reduction=off,,on", "an empty value"),
        ("seeds=4..1", "empty or too long"),
        ("seeds=a..b", "not a range of integers"),
        ("end=elimination,elimination", "given twice"),
    ] {
        let m = message(parse_axis(bad).unwrap_err());
        assert!(
            m.contains(why) && m.starts_with(&format!("--vary {bad}")),
            "{bad}: {m}"
        );
    }
}

#[test]
fn variants_are_the_product_of_the_axes_on_top_of_the_base() {
    let axes = [
        parse_axis("reduction=off,square-landed").unwrap(),
        parse_axis("columns=7,11").unwrap(),
    ];
    let vs = vary(&rules("tab(columns=13,end=most-captures)"), &axes).unwrap();
    let names: Vec<String> = vs.iter().map(|v| v.rules.to_string()).collect();
    assert_eq!(
        names,
        [
            "tab(columns=7,reduction=off,end=most-captures)",
            "tab(columns=11,reduction=off,end=most-captures)",
            "tab(columns=7,reduction=square-landed,end=most-captures)",
            "tab(columns=11,reduction=square-landed,end=most-captures)",
        ]
    );
    assert_eq!(vs[1].label(), "reduction=off, columns=11");
    let alone = vary(&rules("tab-hyde"), &[]).unwrap();
    assert_eq!(alone.len(), 1);
    assert_eq!(alone[0].label(), "tab-hyde");
}

#[test]
fn bad_axes_name_the_problem_in_one_line() {
    let base = rules("tab");
    let err = |axes: &[&str]| {
        let axes: Vec<_> = axes.iter().map(|a| parse_axis(a).unwrap()).collect();
        message(vary(&base, &axes).unwrap_err())
    };
    let m = err(&["colour=red"]);
    assert!(
        m.contains("has no option 'colour'") && m.contains("valid options"),
        "{m}"
    );
    let m = err(&["reduction=sometimes"]);
    assert!(m.contains("reduction=sometimes is not valid"), "{m}");
    let m = err(&["columns=7,8"]);
    assert!(
        m.starts_with("--vary columns=8:") && m.contains("odd number"),
        "{m}"
    );
    let m = err(&["columns=7,9", "pieces=8"]);
    assert!(
        m.starts_with("--vary columns=7, pieces=8:") && m.contains("more than the 7 squares"),
        "{m}"
    );
    let m = err(&["reduction=off", "reduction=positional-rows"]);
    assert!(m.contains("more than once"), "{m}");
}

fn spec(variants: Vec<Variant>, games: u64, skill: bool) -> StudySpec {
    StudySpec {
        variants,
        players: ["greedy".into(), "random".into()],
        skill: skill.then(|| ["greedy".into(), "random".into()]),
        games,
        skill_games: games,
        seed: 7,
    }
}

fn run(
    spec: &StudySpec,
    order: impl Fn(Vec<ChunkKey>) -> Vec<ChunkKey>,
) -> BTreeMap<ChunkKey, Vec<[qasab_ai::play::study::metrics::GameStats; 2]>> {
    order(spec.chunks())
        .into_iter()
        .map(|k| {
            let g = spec.run_chunk(&k);
            (k, g)
        })
        .collect()
}

#[test]
fn a_study_reports_the_same_whatever_the_order_of_its_chunks() {
    let variants = vary(
        &rules("tab(columns=7)"),
        &[parse_axis("reduction=off,row-entered").unwrap()],
    )
    .unwrap();
    let s = spec(variants, 20, true);
    s.check().unwrap();
    let chunks = s.chunks();
    // 10 pairs per match: a chunk of 8 and one of 2, for each match of each variant.
    assert_eq!(chunks.len(), 8);
    assert_eq!(
        (chunks[1].first, chunks[1].pairs, chunks[2].game),
        (8, 2, Match::Skill)
    );
    let forward = s.report(&run(&s, |c| c), &[]);
    let backward = s.report(
        &run(&s, |mut c| {
            c.reverse();
            c
        }),
        &[],
    );
    assert_eq!(forward, backward);
    let v = &forward.variants[0];
    assert_eq!(v.games, 20);
    assert_eq!(v.wins[0] + v.wins[1] + v.draws + v.timeouts, 20);
    assert_eq!(v.seats, ["white", "black"]);
    let skill = v.skill.as_ref().unwrap();
    assert_eq!(skill.games, 20);
    // greedy against random: skill shows.
    assert!(skill.score.value > 0.6, "{skill:?}");
    assert!(v.metrics.captures.is_some() && v.metrics.balance.is_some());
    assert!(v.metrics.skill_gap.unwrap().value > 0.1);
}

#[test]
fn a_variant_plays_the_same_games_in_any_study() {
    let one = vary(
        &rules("tab(columns=7)"),
        &[parse_axis("end=elimination,most-captures").unwrap()],
    )
    .unwrap();
    let other = vec![one[1].clone()];
    let a = spec(one, 4, false);
    let b = spec(other, 4, false);
    let ra = a.report(&run(&a, |c| c), &[]);
    let rb = b.report(&run(&b, |c| c), &[]);
    assert_eq!(ra.variants[1], rb.variants[0]);
}

#[test]
fn studies_are_checked_before_they_run() {
    let v = vary(&rules("tab(columns=7)"), &[]).unwrap();
    let m = message(spec(v.clone(), 3, false).check().unwrap_err());
    assert!(m.contains("even number"), "{m}");
    let m = message(spec(v.clone(), 0, false).check().unwrap_err());
    assert!(m.contains("exist for tihbat only"), "{m}");
    let mut bad = spec(v, 2, false);
    bad.players[1] = "mcts(iterations=-1)".into();
    let m = message(bad.check().unwrap_err());
    assert!(
        m.starts_with("second player mcts(iterations=-1) in tab(columns=7):"),
        "{m}"
    );
}

#[test]
fn tihbat_variants_get_the_exact_value_of_the_start() {
    let variants = vary(
        &rules("tihbat"),
        &[
            parse_axis("seeds=1..7").unwrap(),
            parse_axis("origin=sow,skip").unwrap(),
        ],
    )
    .unwrap();
    let values = solver_values(&variants);
    // docs/solver.md: seeds 1 to 7 under the defaults, and 7 under origin=skip.
    let defaults: Vec<_> = values.iter().step_by(2).cloned().collect();
    let expected = [0, 0, 6, 2, -6, 6, -2].map(|v| Some(SolverValue::Value(v)));
    assert_eq!(defaults, expected);
    assert_eq!(values[13], Some(SolverValue::Value(0)));
    let s = spec(variants, 0, false);
    s.check().unwrap();
    assert!(s.chunks().is_empty());
    let r = s.report(&BTreeMap::new(), &values);
    assert_eq!(r.variants[4].solver, Some(SolverValue::Value(6)));
    assert_eq!(r.variants[4].win_rates, None);
    assert_eq!(solver_values(&vary(&rules("tab"), &[]).unwrap()), [None]);
}

#[test]
fn stops_are_split_into_the_draws_the_rules_force_and_the_rest() {
    // Every throw optional and a short no-progress limit: many games stop (M-5, L-18).
    let variants = vary(
        &rules("tab-modern(columns=7,no_progress=12)"),
        &[parse_axis("end=elimination,most-captures").unwrap()],
    )
    .unwrap();
    let s = spec(variants, 40, false);
    let games = run(&s, |c| c);
    let all: Vec<_> = games.values().flatten().flatten().collect();
    let lane: Vec<_> = all.iter().filter(|g| g.forced_draw.is_some()).collect();
    assert!(
        lane.iter().any(|g| g.forced_draw == Some(true)),
        "some stops are draws the rules force"
    );
    assert!(
        lane.iter()
            .all(|g| g.truncated || g.forced_draw == Some(false)),
        "only a stopped game is a forced-draw stop"
    );
    let report = s.report(&games, &[]);
    let [elimination, captures] = &report.variants[..] else {
        panic!("two variants")
    };
    let m = &elimination.metrics;
    let (t, f, o) = (
        m.timeouts.unwrap().value,
        m.forced_draw_stops.unwrap().value,
        m.open_stops.unwrap().value,
    );
    assert!(f > 0.0 && (t - f - o).abs() < 1e-9, "{t} = {f} + {o}");
    // Under end=most-captures a sanctuary decides nothing: the stops are not split.
    assert_eq!(captures.metrics.forced_draw_stops, None);
    assert!(captures.metrics.timeouts.is_some());
}
