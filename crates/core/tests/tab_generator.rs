//! The move generator against the reference generator: thousands of seeded random games of
//! every Tâb preset over a spread of option values, checking at every position, for both
//! players and every throw, that the two give the same plays in the same order, that their
//! probes agree, and that the decisions of the move phase are the same.

mod common;

use qasab_core::tab::{self, Preset};
use qasab_core::{GameState, Ruleset};
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Plays one seeded random game, checking the generators at every position; returns the
/// number of positions checked.
fn checked_game(rules: tab::Ruleset, rng: &mut Xoshiro256PlusPlus) -> u32 {
    let mut s = rules.initial_state();
    let (mut moves, mut outs) = (Vec::new(), Vec::new());
    let mut checked = 0;
    loop {
        s.generator_check()
            .unwrap_or_else(|e| panic!("{rules}: {e} at {}", s.position_id()));
        checked += 1;
        if !common::random_action(&mut s, rng, &mut moves, &mut outs) {
            return checked;
        }
    }
}

#[test]
fn the_generator_agrees_with_the_reference_over_every_preset_and_many_options() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let vs = common::tab_variants();
    assert!(vs.len() > 100, "{} variants", vs.len());
    let (mut games, mut positions) = (0, 0);
    for rules in &vs {
        for _ in 0..10 {
            positions += checked_game(*rules, &mut rng);
            games += 1;
        }
    }
    assert!(
        games >= 1000 && positions > 100_000,
        "{games} games, {positions} positions"
    );
}

#[test]
fn the_generator_agrees_with_the_reference_over_many_games_of_each_preset() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2025);
    for preset in Preset::ALL {
        for _ in 0..300 {
            checked_game(preset.ruleset(), &mut rng);
        }
    }
}
