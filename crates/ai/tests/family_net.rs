//! One network for a whole family: the board-free, option-aware encoding `tab-v3`, the
//! readings a run across a family plays, and a network trained across them playing any
//! reading.

use qasab_ai::eval::net::encode::TAB_PER_SQUARE;
use qasab_ai::eval::net::{Encode, Features, Network};
use qasab_ai::games::tab::encode::v3;
use qasab_ai::play::driver::{ChanceSource, seat_seed};
use qasab_ai::players::{Playable, PreparedAgent};
use qasab_ai::train::readings::reading;
use qasab_ai::train::{TrainOptions, Trainer};
use qasab_core::options::Values;
use qasab_core::{GameState, Player, Ruleset, Turn, tab};

mod common;

/// States met in seeded random games of `rules`, every `every`th action.
fn sample_states(rules: &tab::Ruleset, games: u64, every: usize) -> Vec<tab::State> {
    common::sample_states::<tab::State>(rules, games, every)
}

fn v3_of(rules: &tab::Ruleset) -> qasab_ai::eval::net::Encoding {
    <tab::State as Encode>::encoding_named(rules, "tab-v3").unwrap()
}

#[test]
fn tab_v3_has_one_size_for_every_board_and_reading_and_stays_in_range() {
    let sizes: Vec<usize> = [
        "tab(columns=7)",
        "tab",
        "tab(columns=29,reduction=off)",
        "tab-hyde",
        "tab-hyde(columns=29)",
        "tab-modern",
    ]
    .iter()
    .map(|name| {
        let rules: tab::Ruleset = name.parse().unwrap();
        let enc = v3_of(&rules);
        assert_eq!(
            <tab::State as Encode>::board_free_encoding(&rules),
            Some(enc)
        );
        let mut f = Features::default();
        for s in sample_states(&rules, 2, 13) {
            let us = Encode::encode(&s, enc, &mut f);
            assert_eq!(f.size(), enc.inputs);
            let active = f.active();
            assert!(
                active.windows(2).all(|w| w[0].0 < w[1].0),
                "{name}: sorted, each once"
            );
            for &(i, v) in active {
                assert!((i as usize) < enc.inputs, "{name}: {i} of {}", enc.inputs);
                assert!(v.is_finite() && v > 0.0, "{name}: input {i} is {v}");
            }
            if let Turn::Player(p) = s.turn() {
                assert_eq!(us, p);
            }
        }
        enc.inputs
    })
    .collect();
    assert!(sizes.windows(2).all(|w| w[0] == w[1]), "{sizes:?}");
}

#[test]
fn on_nine_columns_tab_v3_lays_each_square_on_its_own_cell_as_tab_v2_does() {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let v2 = <tab::State as Encode>::encoding_named(&rules, "tab-v2").unwrap();
    let (mut a, mut b) = (Features::default(), Features::default());
    let squares = 2 * v3::CELLS * TAB_PER_SQUARE;
    let mut compared = 0;
    for s in sample_states(&rules, 3, 5) {
        Encode::encode(&s, v2, &mut a);
        Encode::encode(&s, v3_of(&rules), &mut b);
        let part = |f: &Features| -> Vec<(u32, f32)> {
            let mut p: Vec<_> = f
                .active()
                .iter()
                .copied()
                .filter(|&(i, _)| (i as usize) < squares)
                .collect();
            p.sort_by_key(|&(i, _)| i);
            p
        };
        assert_eq!(part(&a), part(&b), "{}", s.position_id());
        compared += part(&a).len();
    }
    assert!(compared > 100);
}

/// Per side, the units on the board: each is spread over the cells with shares summing to 1,
/// so "at least one piece" summed over a side's cells counts its units, on any board.
#[test]
fn on_the_smallest_and_largest_boards_every_unit_is_laid_whole_on_the_scale() {
    for name in ["tab(columns=7)", "tab(columns=29)", "tab-hyde(columns=29)"] {
        let rules: tab::Ruleset = name.parse().unwrap();
        let mut f = Features::default();
        let mut seen = 0;
        for s in sample_states(&rules, 1, 17) {
            let us = Encode::encode(&s, v3_of(&rules), &mut f);
            for (side, p) in [(0, us), (1, !us)] {
                let units = s.occupied(p).count_ones() as f32;
                let sum: f32 = f
                    .active()
                    .iter()
                    .filter(|&&(i, _)| {
                        let i = i as usize;
                        i < 2 * v3::CELLS * TAB_PER_SQUARE
                            && i / (v3::CELLS * TAB_PER_SQUARE) == side
                            && i.is_multiple_of(TAB_PER_SQUARE)
                    })
                    .map(|&(_, v)| v)
                    .sum();
                assert!(
                    (sum - units).abs() < 1e-4,
                    "{name}: {sum} for {units} units"
                );
                seen += 1;
            }
        }
        assert!(seen > 10, "{name}");
    }
}

/// The same state under two readings that differ in one option: the inputs differ in exactly
/// the two inputs of that option (the value left, the value taken).
#[test]
fn two_readings_of_one_state_differ_exactly_in_the_options_inputs() {
    for preset in ["tab", "tab-hyde", "tab-modern"] {
        let base: tab::Ruleset = preset.parse().unwrap();
        let start = base.initial_state();
        let mut f = Features::default();
        Encode::encode(&start, v3_of(&base), &mut f);
        let before = f.active().to_vec();
        let mut changed = 0;
        for (key, names) in &v3::layout().0 {
            let def = tab::Ruleset::option_defs()
                .iter()
                .find(|d| d.key == *key)
                .unwrap();
            for value in names.iter() {
                let mut other = base;
                if (def.get)(&base) == *value
                    || (def.set)(&mut other, value).is_err()
                    || other.check().is_err()
                {
                    continue;
                }
                let state = other.initial_state();
                if state.position_id() != start.position_id() {
                    continue;
                }
                Encode::encode(&state, v3_of(&other), &mut f);
                let a: std::collections::BTreeMap<u32, f32> = before.iter().copied().collect();
                let b: std::collections::BTreeMap<u32, f32> = f.active().iter().copied().collect();
                let differ: Vec<u32> = a
                    .keys()
                    .chain(b.keys())
                    .copied()
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .filter(|i| a.get(i) != b.get(i))
                    .collect();
                assert_eq!(differ.len(), 2, "{preset}: {key}={value}: {differ:?}");
                assert!(
                    differ.iter().all(|&i| i as usize >= v3::OPTIONS_AT),
                    "{preset}: {key}={value}: {differ:?}"
                );
                changed += 1;
            }
        }
        assert!(changed >= 10, "{preset}: only {changed} readings compared");
    }
    // The board is an input too: the same position id is another board's state, so compare
    // the inputs that say the board.
    let mut f = Features::default();
    let mut board = |name: &str| {
        let rules: tab::Ruleset = name.parse().unwrap();
        Encode::encode(&rules.initial_state(), v3_of(&rules), &mut f);
        f.active()
            .iter()
            .copied()
            .filter(|&(i, _)| (i as usize) < v3::OPTIONS_AT && (i as usize) >= v3::OPTIONS_AT - 25)
            .collect::<Vec<_>>()
    };
    assert_ne!(board("tab(columns=7)"), board("tab(columns=29)"));
}

#[test]
fn a_run_across_a_family_draws_valid_varied_readings_from_its_seed() {
    let base: tab::Ruleset = "tab".parse().unwrap();
    let drawn: Vec<tab::Ruleset> = (0..400).map(|g| reading(&base, 3, g)).collect();
    assert_eq!(
        drawn,
        (0..400).map(|g| reading(&base, 3, g)).collect::<Vec<_>>()
    );
    assert_ne!(
        drawn,
        (0..400).map(|g| reading(&base, 4, g)).collect::<Vec<_>>()
    );
    let nine = drawn.iter().filter(|r| r.columns == 9).count();
    assert!(
        (120..=230).contains(&nine),
        "{nine} of 400 on the run's board"
    );
    assert!(drawn.iter().any(|r| r.columns == 7));
    assert!(drawn.iter().any(|r| r.columns >= 21));
    for r in &drawn {
        r.check().unwrap();
        assert_eq!(r.limit_result, base.limit_result, "L-18 is not drawn");
        assert_eq!(
            (r.no_progress, r.turn_cap),
            (base.no_progress, base.turn_cap)
        );
        assert_eq!(r.preset, base.preset);
    }
    // Every option with a list of values takes more than one of them.
    for d in tab::Ruleset::option_defs()
        .iter()
        .filter(|d| !d.is_safety_limit())
    {
        if let Values::Choice(_) = d.values {
            let values: std::collections::BTreeSet<String> =
                drawn.iter().map(|r| (d.get)(r)).collect();
            assert!(values.len() > 1, "{} stays {values:?}", d.key);
        }
    }
    // Hyde's readings stay Hyde's: values his preset refuses are never drawn.
    let hyde: tab::Ruleset = "tab-hyde".parse().unwrap();
    for g in 0..100 {
        let r = reading(&hyde, 3, g);
        r.check().unwrap();
        assert_eq!(r.to_string().parse::<tab::Ruleset>().unwrap(), r);
    }
}

fn across(games: u64) -> TrainOptions {
    TrainOptions {
        games,
        seed: 11,
        threads: 2,
        batch: 8,
        hidden: [16, 8],
        curve_every: 0,
        across: true,
        ..TrainOptions::default()
    }
}

#[test]
fn a_run_across_the_family_is_reproducible_and_its_network_plays_any_reading() {
    let rules: tab::Ruleset = "tab(columns=7)".parse().unwrap();
    let mut one = Trainer::<tab::State>::new(rules, across(16)).unwrap();
    let mut two = Trainer::<tab::State>::new(rules, across(16)).unwrap();
    let t = std::time::Instant::now();
    while !one.finished() {
        one.step(t);
    }
    while !two.finished() {
        two.step(t);
    }
    assert_eq!(one.mlp, two.mlp, "the same weights from the same seed");
    let net = one.network();
    assert_eq!(net.encoding.name, "tab-v3");
    assert_eq!(
        net.metadata.get("across").map(String::as_str),
        Some("boards and rule options")
    );
    let bytes = net.to_bytes();
    let read = Network::from_bytes(&bytes).unwrap();
    assert_eq!(read, net);
    for name in [
        "tab",
        "tab(columns=13,reduction=off)",
        "tab(columns=29)",
        "tab(tab_bank=none)",
    ] {
        let r: tab::Ruleset = name.parse().unwrap();
        read.fits::<tab::State>(&r).unwrap();
    }
    // Another family's readings are not its.
    assert!(
        read.fits::<tab::State>(&"tab-hyde".parse().unwrap())
            .is_err()
    );
    // A network whose option list is not this version's is refused, saying so.
    let mut other = read.clone();
    other.metadata.insert(
        qasab_ai::eval::net::OPTION_INPUTS.into(),
        "reduction=off".into(),
    );
    let e = other.fits::<tab::State>(&rules).unwrap_err().to_string();
    assert!(e.contains("reads the options reduction=off"), "{e}");
    // Without --across a family without a board-free encoding is refused a run across.
    let ludii: qasab_core::tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    let e = Trainer::<qasab_core::tab_ludii::State>::new(ludii, across(8))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("--across"), "{e}");
}

/// Every reading of each family where `net` is offered: one value of one option changed at a
/// time, and the smallest and largest boards. Seeded games of `net` against itself, each move
/// checked against the rules, for `actions` actions.
fn net_plays_legal_moves_on_every_reading<S: Playable>(
    preset: &str,
    boards: &[&str],
    actions: usize,
) -> usize
where
    S::Ruleset: Ruleset<State = S>,
{
    let base: S::Ruleset = preset.parse().unwrap();
    let mut readings: Vec<S::Ruleset> = boards.iter().map(|b| b.parse().unwrap()).collect();
    for d in S::Ruleset::option_defs() {
        let Values::Choice(names) = d.values else {
            continue;
        };
        for value in names.iter() {
            let mut r = base.clone();
            if (d.set)(&mut r, value).is_ok() && r.check().is_ok() && r != base {
                readings.push(r);
            }
        }
    }
    readings.insert(0, base);
    let mut played = 0;
    for (k, rules) in readings.iter().enumerate() {
        let Ok(net) = PreparedAgent::<S>::new("net", rules) else {
            continue;
        };
        let mut agents = Player::ALL.map(|p| net.make(seat_seed(k as u64, p)));
        let mut chance = ChanceSource::new(k as u64);
        let mut state = rules.initial_state();
        let mut buf = Vec::new();
        for _ in 0..actions {
            match state.turn() {
                Turn::Over(_) => break,
                Turn::Chance => state.apply_chance_unchecked(chance.draw(&state, &mut buf)),
                Turn::Player(p) => {
                    let m = agents[p.index()].choose(&state);
                    assert!(
                        state.is_legal(m),
                        "{rules}: net chose {m} in {}",
                        state.position_id()
                    );
                    state.play_unchecked(m);
                }
            }
        }
        played += 1;
    }
    assert!(played > 0, "{preset}: net played no reading");
    played
}

#[test]
fn net_plays_legal_moves_on_every_reading_of_every_family() {
    let lane = net_plays_legal_moves_on_every_reading::<tab::State>(
        "tab",
        &["tab(columns=7)", "tab(columns=29)"],
        300,
    );
    assert!(lane > 30, "net played {lane} readings of tab");
    // The shipped family networks read, on tab-v3, with this version's option list.
    for family in qasab_ai::eval::net::shipped_across_families() {
        let net = qasab_ai::eval::net::shipped_across(family).unwrap();
        assert_eq!(net.encoding.name, "tab-v3", "{family}");
        let rules: tab::Ruleset = family.parse().unwrap();
        net.fits::<tab::State>(&rules).unwrap();
    }
    // Every reading of Lane's game and of Hyde's has a network.
    for family in ["tab", "tab-hyde"] {
        let base: tab::Ruleset = family.parse().unwrap();
        for g in 0..40 {
            let r = reading(&base, 1, g);
            PreparedAgent::<tab::State>::new("net", &r).unwrap();
        }
    }
    let hyde = net_plays_legal_moves_on_every_reading::<tab::State>(
        "tab-hyde",
        &["tab-hyde(columns=19)", "tab-hyde(columns=29)"],
        200,
    );
    assert!(hyde > 10, "net played {hyde} readings of tab-hyde");
    // The modern game's readings of its preset's board.
    assert!(net_plays_legal_moves_on_every_reading::<tab::State>("tab-modern", &[], 200) > 5);
    net_plays_legal_moves_on_every_reading::<qasab_core::tab_ludii::State>("tab-ludii", &[], 200);
    net_plays_legal_moves_on_every_reading::<qasab_core::tab_ludii::State>(
        "tab-hyde-ludii",
        &[],
        200,
    );
}

/// Self-play scores a game stopped by a safety limit as the ruleset says (L-18,
/// `limit_result`): a draw by default, so that a side ahead loses value by stalling; the
/// material leader under `limit_result=material`.
#[test]
fn self_play_scores_a_stopped_game_as_its_ruleset_says() {
    use qasab_ai::eval::net::Mlp;
    use qasab_ai::train::self_play;
    use qasab_core::EndReason;
    let mut stopped = 0;
    for (name, material) in [
        ("tab(columns=7,no_progress=2)", false),
        ("tab(columns=7,no_progress=2,limit_result=material)", true),
    ] {
        let rules: tab::Ruleset = name.parse().unwrap();
        let enc = v3_of(&rules);
        let mut k = 0u64;
        let mlp = Mlp::new(enc.inputs, 16, 8, || {
            k = k
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (k >> 40) as f32 / (1u64 << 24) as f32
        });
        for seed in 0..12 {
            let (samples, end) = self_play::<tab::State>(&mlp, enc, &rules, seed, 0.7);
            assert!(!samples.is_empty());
            let Turn::Over(o) = end.turn() else {
                panic!("{name}: self-play ends its games")
            };
            if o.reason != EndReason::NoProgress {
                continue;
            }
            stopped += 1;
            let on_board = end.pieces_on_board();
            let leader = match on_board[Player::One].cmp(&on_board[Player::Two]) {
                std::cmp::Ordering::Greater => Some(Player::One),
                std::cmp::Ordering::Less => Some(Player::Two),
                std::cmp::Ordering::Equal => None,
            };
            let expected = if material { leader } else { None };
            assert_eq!(
                o.winner,
                expected,
                "{name}, seed {seed}: {}",
                end.position_id()
            );
        }
    }
    assert!(stopped >= 4, "only {stopped} games stopped at the limit");
}

/// Two rulesets are one reading when only their safety limits differ (L-18).
#[test]
fn a_reading_is_its_board_and_rule_options_not_its_safety_limits() {
    use qasab_ai::eval::net::same_reading;
    let r = |s: &str| s.parse::<tab::Ruleset>().unwrap();
    assert!(same_reading(
        &r("tab(columns=7)"),
        &r("tab(columns=7,no_progress=50)")
    ));
    assert!(same_reading(
        &r("tab"),
        &r("tab(throw_cap=20,turn_cap=900)")
    ));
    assert!(!same_reading(&r("tab(columns=7)"), &r("tab")));
    assert!(!same_reading(&r("tab"), &r("tab(enemy_row=freeze-exit)")));
}

/// A network shipped for one reading plays that reading (whatever its safety limits), and
/// only it: the preset keeps its own network, other readings the family's.
#[test]
fn a_network_shipped_for_one_reading_plays_that_reading_only() {
    use qasab_ai::eval::net::{for_rules, shipped_reading, shipped_reading_names};
    for name in shipped_reading_names() {
        let rules: tab::Ruleset = name.parse().unwrap();
        let own = shipped_reading::<tab::State>(&rules).unwrap();
        own.fits::<tab::State>(&rules).unwrap();
        assert!(
            std::ptr::eq(for_rules::<tab::State>(&rules).unwrap(), own),
            "{name}"
        );
        let limited: tab::Ruleset = format!("{rules}")
            .replacen('(', "(no_progress=77,", 1)
            .parse()
            .unwrap();
        assert!(
            std::ptr::eq(for_rules::<tab::State>(&limited).unwrap(), own),
            "{name} with another safety limit"
        );
        let preset = rules.defaults();
        assert!(
            !std::ptr::eq(for_rules::<tab::State>(&preset).unwrap(), own),
            "{name}: the preset {preset} keeps its network"
        );
        PreparedAgent::<tab::State>::new("net", &rules).unwrap();
    }
}
