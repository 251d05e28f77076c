//! What the Tâb test suites share: the ruleset variants they run over.

use qasab_core::tab::{self, Preset};
use qasab_core::{GameState, Turn, Weighted};
use rand_core::Rng;

/// Values of the numeric options worth running, as `key=value` texts.
const NUMERIC_VALUES: &[&str] = &[
    "columns=7",
    "columns=13",
    "columns=19",
    "columns=21",
    "columns=29",
    "pieces=4",
    "pieces=1",
    "p_white=9/16",
    "p_white=0.3",
    "no_progress=0",
    "no_progress=5",
    "turn_cap=30",
    "throw_cap=2",
];

/// Combinations that stress stacks, splitting and the enemy row together.
const COMBINATIONS: &[&str] = &[
    "tab(split=dissolve,reduction=row-entered,survivor=oldest)",
    "tab(split=detach,throw_timing=interleaved,throw_use=optional)",
    "tab(land_on_unconverted=true,conversion=in-place,tabs_reserved=false)",
    "tab-modern(split=dissolve-move-one,reduction=square-landed)",
    "tab-hyde(track=loop,reduction=square-visited,split=peel-one)",
    "tab(columns=7,pieces=3,enemy_entry=once-while-occupied,enemy_row=freeze-exit-unless-one-stack)",
    "tab(passing=none-in-home-row,enemy_row=lowest-priority,split=detach)",
    "tab-hyde(passing=no-own-in-home-rows,split=detach-remainder-one,stacking=anywhere)",
    "tab-modern(enemy_entry=once-while-occupied,enemy_row=opponent-home-empty,split=dissolve)",
];

/// Every preset alone, every preset with each option value that it accepts (every value of
/// every choice option, and the numeric values above), and the combinations; no duplicates.
pub fn tab_variants() -> Vec<tab::Ruleset> {
    let choices: Vec<String> = <tab::Ruleset as qasab_core::Ruleset>::choice_values()
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let mut out: Vec<tab::Ruleset> = Vec::new();
    let mut push = |r: tab::Ruleset| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    for preset in Preset::ALL {
        push(preset.ruleset());
        let options = choices
            .iter()
            .map(String::as_str)
            .chain(NUMERIC_VALUES.iter().copied());
        for opt in options {
            if let Ok(r) = format!("{}({opt})", preset.name()).parse::<tab::Ruleset>() {
                push(r);
            }
        }
    }
    for text in COMBINATIONS {
        push(text.parse().expect("a valid combination"));
    }
    out
}

/// Plays one seeded random action: a throw drawn by its weight, or a legal move drawn
/// uniformly. Returns false, doing nothing, once the game is over.
pub fn random_action<S: GameState>(
    s: &mut S,
    rng: &mut impl Rng,
    moves: &mut Vec<S::Move>,
    outs: &mut Vec<Weighted<S::Chance>>,
) -> bool {
    match s.turn() {
        Turn::Over(_) => false,
        Turn::Chance => {
            let total = s.chance_outcomes(outs);
            let x = (rng.next_u64() % u64::from(total)) as u32;
            let pick = Weighted::at(outs, x).expect("x is below the total weight");
            s.apply_chance_unchecked(pick);
            true
        }
        Turn::Player(_) => {
            s.legal_moves(moves);
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            s.play_unchecked(m);
            true
        }
    }
}
