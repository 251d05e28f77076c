//! `max_game_length` is a true bound: seeded random games of every preset, played to their
//! end, never take more decisions than it says, and neither do rulesets whose safety limits
//! (L-18) are small enough for games to run into them.

mod common;

use qasab_core::{ActionIds, AnyRuleset, EndReason, GameState, Ruleset, Turn, with_ruleset};
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Plays `games` seeded random games to the end; returns the most decisions of one game and
/// how many games the turn or throw caps stopped (L-18; the opening cap too).
fn longest<R: Ruleset>(rules: &R, games: u64) -> (u64, u64)
where
    R::State: ActionIds,
{
    let bound = bound_of(rules);
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    let (mut most, mut limited) = (0, 0);
    for seed in 0..games {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = rules.initial_state();
        let mut decisions = 0u64;
        loop {
            match s.turn() {
                Turn::Player(_) => decisions += 1,
                Turn::Chance => {}
                Turn::Over(o) => {
                    if o.reason == EndReason::TurnCap {
                        limited += 1;
                    }
                    break;
                }
            }
            assert!(
                decisions <= bound,
                "{rules}, seed {seed}: {decisions} decisions, more than the bound {bound}"
            );
            assert!(common::random_action(
                &mut s, &mut rng, &mut moves, &mut outs
            ));
        }
        most = most.max(decisions);
    }
    (most, limited)
}

fn bound_of<R: Ruleset>(rules: &R) -> u64
where
    R::State: ActionIds,
{
    <R::State as ActionIds>::max_game_length(rules)
}

#[test]
fn every_preset_stays_within_its_max_game_length() {
    for any in AnyRuleset::presets() {
        let (most, _) = with_ruleset!(&any, r => longest(r, 20));
        eprintln!("{any}: at most {most} decisions");
    }
}

#[test]
fn games_that_run_into_small_limits_stay_within_the_bound() {
    // p_white=9/10 gives another throw two times in three, so turns reach throw_cap often.
    for (text, bound) in [
        (
            "tab(turn_cap=40,throw_cap=3,p_white=9/10,no_progress=0)",
            40 * 7,
        ),
        (
            "tab(turn_cap=40,throw_cap=6,p_white=9/10,no_progress=0)",
            40 * 13,
        ),
        (
            "tab(turn_cap=40,throw_cap=3,p_white=9/10,throw_timing=interleaved,no_progress=0)",
            3 * 40 * 4,
        ),
        ("tab-hyde(turn_cap=30,throw_cap=4,p_white=9/10)", 30 * 9),
        (
            "tab-modern(turn_cap=30,throw_cap=2,throw_use=optional)",
            30 * 5,
        ),
        ("tab-ludii(turn_cap=20,move_cap=50)", 50),
        ("tihbat(seeds=1,repetition=2)", 2 * 70 + 1),
    ] {
        let any: AnyRuleset = text.parse().unwrap();
        let stated = with_ruleset!(&any, r => bound_of(r));
        assert_eq!(stated, bound, "{text}");
        let (most, limited) = with_ruleset!(&any, r => longest(r, 200));
        eprintln!(
            "{text}: at most {most} of {bound} decisions, {limited} of 200 games stopped by a cap"
        );
        assert!(most > 0, "{text}: no game took a decision");
    }
}

#[test]
fn the_throw_cap_stops_games_of_heavily_biased_sticks() {
    // p_white=254/255 throws four whites, a 4, 98.4% of the time: a turn reaches 100 throws
    // about one time in five, and must stop the game rather than run on (its pending throws
    // are counted in a byte per value). Tâbs are so rare that nothing else happens before
    // the no-progress limit.
    let any: AnyRuleset = "tab(p_white=254/255,opening=normal)".parse().unwrap();
    let (_, capped) = with_ruleset!(&any, r => longest(r, 10));
    assert_eq!(capped, 10);
}

#[test]
fn every_tab_option_value_stays_within_its_max_game_length() {
    for rules in common::tab_variants() {
        longest(&rules, 3);
    }
}
