//! The move generator against the reference generator: thousands of seeded random games of
//! every Tâb preset over a spread of option values, checking at every position, for both
//! players and every throw, that the two give the same plays in the same order, that their
//! probes agree, and that the decisions of the move phase are the same.

use qasab_core::tab::{self, Preset};
use qasab_core::{GameState, Ruleset, Turn, Weighted};
use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Option values that change what the generator does, as `key=value` texts.
const OPTION_VALUES: &[&str] = &[
    "columns=7",
    "columns=13",
    "columns=29",
    "pieces=4",
    "pieces=1",
    "throw_timing=interleaved",
    "throw_use=compulsory-with-exemptions",
    "throw_use=optional",
    "throw_use=compulsory",
    "tab_bank=after-all-converted",
    "tab_bank=none",
    "conversion=in-place",
    "tabs_reserved=true",
    "tabs_reserved=false",
    "land_on_unconverted=true",
    "passing=no-own-in-home-row",
    "passing=no-own-in-home-rows",
    "passing=none-in-home-row",
    "passing=free",
    "track=loop",
    "track=one-way",
    "enemy_entry=once-while-occupied",
    "enemy_row=freeze",
    "enemy_row=freeze-exit",
    "enemy_row=freeze-exit-unless-one-stack",
    "enemy_row=lowest-priority",
    "enemy_row=opponent-home-empty",
    "enemy_row=free",
    "stacking=anywhere",
    "stacking=middle-rows",
    "split=peel-one",
    "split=dissolve",
    "split=dissolve-move-one",
    "split=detach",
    "split=detach-remainder-one",
    "split=never",
    "reduction=square-visited",
    "reduction=row-entered",
    "reduction=square-landed",
    "reduction=positional-rows",
    "reduction=off",
    "survivor=oldest",
    "end=most-captures",
];

fn variants() -> Vec<tab::Ruleset> {
    let mut out = Vec::new();
    for preset in Preset::ALL {
        out.push(preset.ruleset());
        for opt in OPTION_VALUES {
            if let Ok(r) = format!("{}({opt})", preset.name()).parse::<tab::Ruleset>()
                && !out.contains(&r)
            {
                out.push(r);
            }
        }
    }
    for text in [
        "tab(split=dissolve,reduction=row-entered,survivor=oldest)",
        "tab(split=detach,throw_timing=interleaved,throw_use=optional)",
        "tab(land_on_unconverted=true,conversion=in-place,tabs_reserved=false)",
        "tab-modern(split=dissolve-move-one,reduction=square-landed)",
        "tab-hyde(track=loop,reduction=square-visited,split=peel-one)",
        "tab(columns=7,pieces=3,enemy_entry=once-while-occupied,enemy_row=freeze-exit-unless-one-stack)",
        "tab(passing=none-in-home-row,enemy_row=lowest-priority,split=detach)",
        "tab-hyde(passing=no-own-in-home-rows,split=detach-remainder-one,stacking=anywhere)",
        "tab-modern(enemy_entry=once-while-occupied,enemy_row=opponent-home-empty,split=dissolve)",
    ] {
        out.push(text.parse().unwrap());
    }
    out
}

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
        match s.turn() {
            Turn::Over(_) => return checked,
            Turn::Chance => {
                let total = s.chance_outcomes(&mut outs);
                let x = (rng.next_u64() % u64::from(total)) as u32;
                let pick = Weighted::at(&outs, x).expect("x is below the total weight");
                s.apply_chance_unchecked(pick);
            }
            Turn::Player(_) => {
                s.legal_moves(&mut moves);
                let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                s.play_unchecked(m);
            }
        }
    }
}

#[test]
fn the_generator_agrees_with_the_reference_over_every_preset_and_many_options() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
    let vs = variants();
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
