//! `play::stalls`: the games a limit stops are those of the simulation with the same seed, and
//! each is classified by the sanctuaries of its final position.

use qasab_ai::play::simulate::simulate;
use qasab_ai::play::stalls::{Verdict, stalls};
use qasab_core::{Essence, GameState, Ruleset, tab};

#[test]
fn the_stopped_games_are_the_simulations_and_each_verdict_is_its_sanctuaries() {
    // Every throw optional and a short no-progress limit: random players stop often.
    let rules: tab::Ruleset = "tab-modern(columns=7,no_progress=12)".parse().unwrap();
    let specs = ["greedy", "random"];
    let report = stalls::<tab::State>(&rules, specs, Default::default(), 40, 5, 2, &|| {}).unwrap();
    let summaries = simulate::<tab::State>(&rules, specs, None, 40, 5, 2, &|| {}).unwrap();
    let truncated: Vec<u64> = summaries
        .iter()
        .enumerate()
        .filter(|(_, s)| s.reason.is_truncation())
        .map(|(g, _)| g as u64)
        .collect();
    let stopped: Vec<u64> = report.stalls.iter().map(|s| s.game).collect();
    assert_eq!(stopped, truncated, "the same games stop");
    assert!(report.stopped > 0, "some games stop at the limit");
    assert_eq!(
        report.draws
            + report.cannot_lose[0]
            + report.cannot_lose[1]
            + report.open
            + report.not_analysed,
        report.stopped
    );
    for s in &report.stalls {
        let state = rules.state_from_id(&s.position).unwrap();
        let found = state.sanctuaries().unwrap().into_array();
        assert_eq!(s.sanctuaries.as_ref(), Some(&found));
        assert_eq!(
            s.verdict(),
            Verdict::of(Some(&state.sanctuaries().unwrap()))
        );
        let expected = match (found[0].is_empty(), found[1].is_empty()) {
            (false, false) => "draw",
            (false, true) => "white-cannot-lose",
            (true, false) => "black-cannot-lose",
            (true, true) => "open",
        };
        assert_eq!(s.verdict, expected);
        assert_eq!(s.material, Some(state.material().into_array()));
        let kept = found
            .clone()
            .map(|v| v.iter().map(|u| u.pieces).sum::<u8>());
        let m = state.material().into_array();
        assert_eq!(s.free, Some([m[0] - kept[0], m[1] - kept[1]]));
        assert_eq!(s.turns, state.turns());
    }
}
