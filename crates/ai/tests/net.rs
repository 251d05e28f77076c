//! Learned evaluation: the encoding, the network file, training's reproducibility, and the
//! players that read a network.

use qasab_ai::eval::EvalWeights;
use qasab_ai::eval::net::encode::tracks_are_point_symmetric;
use qasab_ai::eval::net::{
    Encode, Encoding, Features, Mlp, NetError, Network, shipped, shipped_families,
};
use qasab_ai::play::bench::mid_game_positions;
use qasab_ai::play::driver::{ChanceSource, play_out};
use qasab_ai::players::{Playable, PreparedAgent};
use qasab_ai::search::turn::{TURN_STATES, TurnGraph};
use qasab_ai::train::{
    RateChange, TrainOptions, Trainer, samples_from_bytes, samples_to_bytes, self_play,
    self_play_games,
};
use qasab_core::{GameState, Player, Ruleset, Turn, tab, tab_ludii};

mod common;
use common::sample_states;

/// Why `spec` is refused on `rules`; a spec that is accepted fails the test.
fn refusal<S: Playable>(spec: &str, rules: &S::Ruleset) -> String {
    match PreparedAgent::<S>::new(spec, rules) {
        Ok(_) => panic!("{spec} was accepted"),
        Err(e) => e.to_string(),
    }
}

fn small_options(games: u64, threads: usize) -> TrainOptions {
    TrainOptions {
        games,
        seed: 7,
        threads,
        batch: 16,
        hidden: [16, 8],
        curve_every: 0,
        ..TrainOptions::default()
    }
}

#[test]
fn every_presets_tracks_are_point_symmetric() {
    for name in ["tab", "tab-hyde", "tab-modern"] {
        let rules: tab::Ruleset = name.parse().unwrap();
        let s = tab::State::new(rules);
        let sym = tracks_are_point_symmetric(rules.columns, |p, sq, k| {
            s.track_destinations(p, qasab_core::grid::Square(sq), k)
                .map(|d| d.map(|d| d.0))
        });
        assert!(sym, "{name}");
    }
    for name in ["tab-ludii", "tab-hyde-ludii"] {
        let rules: tab_ludii::Ruleset = name.parse().unwrap();
        let s = rules.initial_state();
        let sym =
            tracks_are_point_symmetric(rules.columns(), |p, sq, k| s.track_destinations(p, sq, k));
        assert!(sym, "{name}");
    }
}

/// The encoding `enc` of a state stays within its declared size, and names each input once.
fn check_encoding<S: Encode + Playable>(rules: &S::Ruleset, enc: Encoding) {
    let mut f = Features::default();
    for s in sample_states::<S>(rules, 3, 7) {
        let us = Encode::encode(&s, enc, &mut f);
        assert_eq!(f.size(), enc.inputs);
        let mut seen = std::collections::HashSet::new();
        for &(i, v) in f.active() {
            assert!((i as usize) < enc.inputs, "{i} of {}", enc.inputs);
            assert!(seen.insert(i), "input {i} set twice");
            assert!(v.is_finite() && v > 0.0);
        }
        if let Turn::Player(p) = s.turn() {
            assert_eq!(us, p);
        }
    }
}

#[test]
fn encodings_stay_in_range_on_every_preset() {
    for name in ["tab", "tab-hyde", "tab-modern", "tab(columns=29)"] {
        let rules: tab::Ruleset = name.parse().unwrap();
        for enc in ["tab-v1", "tab-v2"] {
            let enc = <tab::State as Encode>::encoding_named(&rules, enc).unwrap();
            check_encoding::<tab::State>(&rules, enc);
        }
        assert_eq!(<tab::State as Encode>::encoding(&rules).name, "tab-v2");
        assert_eq!(
            <tab::State as Encode>::encoding_named(&rules, "tab-ludii-v1"),
            None
        );
    }
    for name in ["tab-ludii", "tab-hyde-ludii"] {
        let rules: tab_ludii::Ruleset = name.parse().unwrap();
        for enc in ["tab-ludii-v1", "tab-ludii-v2"] {
            let enc = <tab_ludii::State as Encode>::encoding_named(&rules, enc).unwrap();
            check_encoding::<tab_ludii::State>(&rules, enc);
        }
        assert_eq!(
            <tab_ludii::State as Encode>::encoding(&rules).name,
            "tab-ludii-v2"
        );
        assert_eq!(
            <tab_ludii::State as Encode>::encoding_named(&rules, "tab-v1"),
            None
        );
    }
}

/// The newer encoding `v2` of `rules` is the older `v1` followed by threat inputs, which some
/// sampled state sets and the initial state (where nothing can be hit) does not.
fn v2_is_v1_followed_by_the_threats<S: Encode + Playable>(rules: &S::Ruleset, v1: &str, v2: &str) {
    let v1 = S::encoding_named(rules, v1).unwrap();
    let v2 = S::encoding_named(rules, v2).unwrap();
    assert_eq!(
        S::encoding(rules),
        v2,
        "the newest encoding is the one trained on"
    );
    let (mut a, mut b) = (Features::default(), Features::default());
    let mut threats = 0;
    for s in sample_states::<S>(rules, 3, 7) {
        Encode::encode(&s, v1, &mut a);
        Encode::encode(&s, v2, &mut b);
        let old: Vec<(u32, f32)> = b
            .active()
            .iter()
            .copied()
            .filter(|&(i, _)| (i as usize) < v1.inputs)
            .collect();
        assert_eq!(old, a.active(), "{}", s.position_id());
        threats += b.active().len() - a.active().len();
    }
    assert!(threats > 0, "no threat input was ever set");
    let start = rules.initial_state();
    Encode::encode(&start, v1, &mut a);
    Encode::encode(&start, v2, &mut b);
    assert_eq!(a.active(), b.active());
}

#[test]
fn tab_v2_is_tab_v1_followed_by_the_threats() {
    // At the start every piece is unconverted and the rows are apart: nothing is threatened.
    v2_is_v1_followed_by_the_threats::<tab::State>(&"tab".parse().unwrap(), "tab-v1", "tab-v2");
}

#[test]
fn tab_ludii_v2_is_tab_ludii_v1_followed_by_the_threats() {
    // At the start of Tab nothing moves before a 1 (LT-2); in At-Tab every piece is locked and
    // the rows are apart (LH-3).
    for preset in ["tab-ludii", "tab-hyde-ludii"] {
        v2_is_v1_followed_by_the_threats::<tab_ludii::State>(
            &preset.parse().unwrap(),
            "tab-ludii-v1",
            "tab-ludii-v2",
        );
    }
}

#[test]
fn tab_ludii_v2_marks_every_capture_the_rules_give_the_player_in_turn() {
    // At-Tab has one track and no track bookkeeping, so the geometry the threat inputs read
    // holds every landing the rules allow (LH-2, LH-4): each capture the player in turn may
    // make with the throw he is playing sets the input of its square and throw.
    let rules: tab_ludii::Ruleset = "tab-hyde-ludii".parse().unwrap();
    let v1 = <tab_ludii::State as Encode>::encoding_named(&rules, "tab-ludii-v1").unwrap();
    let v2 = <tab_ludii::State as Encode>::encoding(&rules);
    let squares = 4 * usize::from(rules.columns());
    let (mut f, mut moves, mut captures) = (Features::default(), Vec::new(), 0);
    for s in sample_states::<tab_ludii::State>(&rules, 6, 1) {
        let (Turn::Player(us), Some(t)) = (s.turn(), s.pending_throw()) else {
            continue;
        };
        Encode::encode(&s, v2, &mut f);
        s.throw_plays(us, t, &mut moves);
        for step in moves.iter().filter_map(|m| m.step()) {
            let to = step.to.square(rules.columns());
            if !matches!(s.unit_at(to), Some((owner, _)) if owner != us) {
                continue;
            }
            let seen = match us {
                Player::One => usize::from(to),
                Player::Two => squares - 1 - usize::from(to),
            };
            let input = v1.inputs + (squares + seen) * 5 + t.index();
            assert!(
                f.active().iter().any(|&(i, _)| i as usize == input),
                "{}: the capture on {to} with a {} is not marked",
                s.position_id(),
                t.value()
            );
            captures += 1;
        }
    }
    assert!(captures > 20, "only {captures} captures met");
}

/// A network saved and read back gives the same values, bit for bit.
fn round_trip<S: Encode + Playable>(rules: S::Ruleset) {
    let trainer = Trainer::<S>::new(rules.clone(), small_options(16, 1)).unwrap();
    let net = trainer.network();
    let back = Network::from_bytes(&net.to_bytes()).unwrap();
    assert_eq!(back.mlp, net.mlp);
    assert_eq!(back.metadata.get("ruleset"), Some(&rules.to_string()));
    for s in sample_states::<S>(&rules, 2, 11) {
        for p in Player::ALL {
            assert_eq!(back.value(&s, p).to_bits(), net.value(&s, p).to_bits());
            assert_eq!(net.value(&s, p), -net.value(&s, !p));
        }
    }
}

#[test]
fn a_saved_network_reads_back_with_the_same_values() {
    round_trip::<tab::State>("tab".parse().unwrap());
    round_trip::<tab_ludii::State>("tab-ludii".parse().unwrap());
}

#[test]
fn bad_network_files_are_refused_with_a_reason() {
    assert!(matches!(
        Network::from_bytes(b"not a network"),
        Err(NetError::Format(_))
    ));
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let net = Trainer::<tab::State>::new(rules, small_options(16, 1))
        .unwrap()
        .network();
    let wider: tab::Ruleset = "tab(columns=11)".parse().unwrap();
    let err = net.fits::<tab::State>(&wider).unwrap_err().to_string();
    assert!(err.contains("9 columns") && err.contains("11"), "{err}");
    let hyde: tab::Ruleset = "tab-hyde".parse().unwrap();
    let err = net.fits::<tab::State>(&hyde).unwrap_err().to_string();
    assert!(err.contains("trained for tab"), "{err}");
    // The right board, but another number of inputs (a network made elsewhere): both numbers.
    let enc = <tab::State as Encode>::encoding(&rules);
    let short = Network::new(Mlp::new(enc.inputs - 1, 8, 4, || 0.5), "tab", enc);
    let err = short.fits::<tab::State>(&rules).unwrap_err().to_string();
    assert!(
        err.contains(&format!("{} inputs", enc.inputs - 1))
            && err.contains(&enc.inputs.to_string()),
        "{err}"
    );
}

#[test]
fn only_a_regular_file_of_bounded_size_is_read_as_a_network() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_file = Network::load(dir.path()).unwrap_err().to_string();
    assert!(not_a_file.contains("not a regular file"), "{not_a_file}");
    // A device that never ends is refused before a byte is read.
    #[cfg(unix)]
    {
        let device = Network::load(std::path::Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert!(device.contains("not a regular file"), "{device}");
    }
    let big = dir.path().join("big.safetensors");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(Network::MAX_FILE_BYTES + 1).unwrap();
    let too_large = Network::load(&big).unwrap_err().to_string();
    assert!(too_large.contains("larger than"), "{too_large}");
    let missing = Network::load(&dir.path().join("missing")).unwrap_err();
    assert!(matches!(missing, NetError::Io { .. }), "{missing}");
}

#[test]
fn a_host_refuses_a_network_file_before_reading_it_and_a_local_player_reads_it() {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.safetensors");
    shipped("tab").unwrap().save(&path).unwrap();
    let limits = qasab_ai::Limits::host("the server", 500, 1);
    for file in [path.display().to_string(), "/no/such/file".into()] {
        let spec = format!("net(weights={file})");
        let err = PreparedAgent::<tab::State>::within(&spec, &rules, &limits)
            .err()
            .unwrap();
        assert_eq!(
            err,
            format!(
                "{spec}: weights={file} would read a file of the host; the server plays only \
                 the networks it ships"
            )
        );
    }
    let spec = format!("net(weights={})", path.display());
    let local = PreparedAgent::<tab::State>::new(&spec, &rules).unwrap();
    assert_eq!(local.cost.file, Some(format!("weights={}", path.display())));
    let missing = refusal::<tab::State>("net(weights=/no/such/file)", &rules);
    assert!(missing.contains("/no/such/file"), "{missing}");
    // The shipped network needs no file, and a host plays it.
    assert!(PreparedAgent::<tab::State>::within("net", &rules, &limits).is_ok());
}

#[test]
fn training_from_a_seed_gives_the_same_weights_for_any_threads() {
    let rules: tab::Ruleset = "tab(columns=7,pieces=3)".parse().unwrap();
    let run = |threads| {
        let mut t = Trainer::<tab::State>::new(rules, small_options(96, threads)).unwrap();
        let start = std::time::Instant::now();
        while !t.finished() {
            t.step(start);
        }
        t.mlp
    };
    let one = run(1);
    assert_eq!(one, run(1));
    assert_eq!(one, run(2));
}

#[test]
fn batches_played_elsewhere_from_the_broadcast_weights_train_the_same_network() {
    // What qasab.distributed does: the learner sends the network's file, workers play parts of
    // the batch from it and send the games back as bytes, the learner learns from them.
    let rules: tab::Ruleset = "tab(columns=7,pieces=3)".parse().unwrap();
    let start = std::time::Instant::now();
    let mut here = Trainer::<tab::State>::new(rules, small_options(40, 1)).unwrap();
    let mut spread = Trainer::<tab::State>::new(rules, small_options(40, 1)).unwrap();
    while !here.finished() {
        here.step(start);
        let (first, n) = spread.next_batch();
        let weights = Network::from_bytes(&spread.network().to_bytes()).unwrap();
        let o = &spread.options;
        let mut games = Vec::new();
        for part in [first..first + n / 2, first + n / 2..first + n] {
            let played = self_play_games::<tab::State>(
                &weights.mlp,
                weights.encoding,
                &rules,
                o.seed,
                o.lambda,
                false,
                part,
            );
            games.extend(samples_from_bytes(&samples_to_bytes(&played)).unwrap());
        }
        spread.learn(games, start).unwrap();
        assert_eq!(spread.mlp, here.mlp, "after {} games", here.games_done);
    }
    assert_eq!(spread.next_batch(), (40, 0));
    let err = spread
        .learn(vec![Vec::new()], start)
        .unwrap_err()
        .to_string();
    assert!(err.contains("has 0 games; 1 were given"), "{err}");
    assert!(samples_from_bytes(&[1, 0, 0]).is_err());
}

#[test]
fn games_of_another_board_are_refused_by_the_learner() {
    // Bytes from elsewhere (a worker of another run, a user's own) are checked, not trusted.
    let small: tab::Ruleset = "tab(columns=7,pieces=3)".parse().unwrap();
    let other: tab::Ruleset = "tab(columns=9,pieces=3)".parse().unwrap();
    let start = std::time::Instant::now();
    let mut learner = Trainer::<tab::State>::new(small, small_options(8, 1)).unwrap();
    let elsewhere = Trainer::<tab::State>::new(other, small_options(8, 1)).unwrap();
    let (first, n) = learner.next_batch();
    let o = &elsewhere.options;
    let games = self_play_games::<tab::State>(
        &elsewhere.mlp,
        elsewhere.encoding,
        &other,
        o.seed,
        o.lambda,
        false,
        first..first + n,
    );
    let before = learner.mlp.clone();
    let err = learner.learn(games, start).unwrap_err().to_string();
    assert!(err.contains("games of another ruleset?"), "{err}");
    assert!(err.contains("tab(columns=7,pieces=3)"), "{err}");
    assert_eq!(learner.mlp, before, "a refused batch changes nothing");
    assert_eq!(learner.next_batch(), (first, n));
}

#[test]
fn a_resumed_run_ends_with_the_weights_of_an_unbroken_one() {
    let rules: tab::Ruleset = "tab(columns=7,pieces=3)".parse().unwrap();
    let start = std::time::Instant::now();
    let mut whole = Trainer::<tab::State>::new(rules, small_options(64, 1)).unwrap();
    while !whole.finished() {
        whole.step(start);
    }
    let mut first = Trainer::<tab::State>::new(rules, small_options(64, 1)).unwrap();
    first.step(start);
    first.step(start);
    let bytes = first.checkpoint(1.0);
    let (mut rest, seconds) = Trainer::<tab::State>::resume(rules, &bytes, None, 1).unwrap();
    assert_eq!(seconds, 1.0);
    assert_eq!(rest.games_done, 32);
    while !rest.finished() {
        rest.step(start);
    }
    assert_eq!(rest.mlp, whole.mlp);
    // A network is not a checkpoint.
    let err = Trainer::<tab::State>::resume(rules, &whole.network().to_bytes(), None, 1)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("not a checkpoint"), "{err}");
}

#[test]
fn a_run_from_a_network_starts_from_its_weights_and_keeps_its_shape() {
    let rules: tab::Ruleset = "tab(columns=7,pieces=3)".parse().unwrap();
    let start = std::time::Instant::now();
    // A short run gives the network to start from.
    let mut first = Trainer::<tab::State>::new(rules, small_options(32, 1)).unwrap();
    while !first.finished() {
        first.step(start);
    }
    let trained = first.network();
    let reading: tab::Ruleset = "tab(columns=7,pieces=3,enemy_row=free)".parse().unwrap();
    let options = TrainOptions {
        hidden: [64, 64],
        ..small_options(32, 1)
    };
    let fine = Trainer::<tab::State>::from_network(reading, options.clone(), &trained).unwrap();
    assert_eq!(fine.mlp, trained.mlp, "the starting weights");
    assert_eq!(fine.encoding, trained.encoding);
    assert_eq!(fine.options.hidden, [16, 8], "the network's layer sizes");
    assert_eq!(
        fine.network().metadata["start"],
        "tab-v2 (tab(columns=7,pieces=3), 32 games)"
    );
    // It learns from there, the same weights for the same seed, through a checkpoint too.
    let run = |stop: bool| {
        let mut t =
            Trainer::<tab::State>::from_network(reading, options.clone(), &trained).unwrap();
        t.step(start);
        if stop {
            t = Trainer::<tab::State>::resume(reading, &t.checkpoint(1.0), None, 1)
                .unwrap()
                .0;
            assert!(
                t.start.is_some(),
                "the checkpoint names the starting network"
            );
        }
        while !t.finished() {
            t.step(start);
        }
        t.mlp
    };
    let whole = run(false);
    assert_ne!(whole, trained.mlp);
    assert_eq!(run(true), whole);
    // A network of another game or board, or a board-bound one for a run across, is refused.
    let other: tab::Ruleset = "tab".parse().unwrap();
    let err = Trainer::<tab::State>::from_network(other, options.clone(), &trained)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("columns") || err.contains("board"), "{err}");
    let across = TrainOptions {
        across: true,
        ..options
    };
    let err = Trainer::<tab::State>::from_network(reading, across, &trained)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("every board"), "{err}");
}

#[test]
fn a_lower_rate_from_a_resumed_checkpoint_goes_on_as_if_set_in_an_unbroken_run() {
    let rules: tab::Ruleset = "tab(columns=7,pieces=3)".parse().unwrap();
    let start = std::time::Instant::now();
    let mut whole = Trainer::<tab::State>::new(rules, small_options(64, 1)).unwrap();
    whole.step(start);
    whole.set_rate(0.0003).unwrap();
    while !whole.finished() {
        whole.step(start);
    }
    let mut first = Trainer::<tab::State>::new(rules, small_options(64, 1)).unwrap();
    first.step(start);
    let (mut rest, _) =
        Trainer::<tab::State>::resume(rules, &first.checkpoint(1.0), None, 1).unwrap();
    assert_eq!(
        rest.options.rate, first.options.rate,
        "the checkpoint's rate"
    );
    rest.set_rate(0.0003).unwrap();
    // The change is kept across a second stop.
    let (mut rest, _) =
        Trainer::<tab::State>::resume(rules, &rest.checkpoint(2.0), None, 1).unwrap();
    assert_eq!(rest.options.rate, 0.0003);
    while !rest.finished() {
        rest.step(start);
    }
    assert_eq!(rest.mlp, whole.mlp);
    let changes = [RateChange {
        games: first.games_done,
        before: first.options.rate,
        rate: 0.0003,
    }];
    assert_eq!(rest.rate_changes(), changes);
    let net = rest.network();
    assert_eq!(net.metadata["rate"], "0.0003");
    assert_eq!(
        net.metadata["rate_schedule"],
        format!("0:{},{}:0.0003", first.options.rate, first.games_done)
    );
    // The rate did change something: the unchanged run ends elsewhere, and its network
    // names no schedule.
    let mut plain = Trainer::<tab::State>::new(rules, small_options(64, 1)).unwrap();
    while !plain.finished() {
        plain.step(start);
    }
    assert_ne!(plain.mlp, whole.mlp);
    assert!(!plain.network().metadata.contains_key("rate_schedule"));
    // A rate out of range is refused and changes nothing.
    for bad in [0.0, -0.1, 1.0, f32::NAN] {
        let err = plain.set_rate(bad).unwrap_err().to_string();
        assert!(err.contains("is not between 0 and 1"), "{err}");
    }
    assert!(plain.rate_changes().is_empty());
}

#[test]
fn the_curve_gets_a_point_whenever_the_games_pass_a_multiple_of_its_step() {
    let rules: tab::Ruleset = "tab(columns=7,pieces=3)".parse().unwrap();
    let options = TrainOptions {
        games: 60,
        batch: 16,
        curve_every: 20,
        curve_pairs: 1,
        ..small_options(60, 1)
    };
    let mut t = Trainer::<tab::State>::new(rules, options).unwrap();
    let start = std::time::Instant::now();
    while !t.finished() {
        t.step(start);
    }
    let games: Vec<u64> = t.curve.iter().map(|p| p.games).collect();
    // At the start, then after the batches ending at 32 (past 20), 48 (past 40), 60 (the end).
    assert_eq!(games, vec![0, 32, 48, 60]);
    assert!(
        t.curve
            .iter()
            .all(|p| (0.0..=1.0).contains(&p.score) && p.match_games == 2)
    );
    assert!(t.curve[1..].iter().all(|p| p.loss.is_some()));
}

#[test]
fn self_play_targets_are_values_and_the_last_is_exact_in_expectation() {
    let rules: tab::Ruleset = "tab(columns=7,pieces=3)".parse().unwrap();
    let t = Trainer::<tab::State>::new(rules, small_options(16, 1)).unwrap();
    for seed in 0..4 {
        let (samples, end) = self_play::<tab::State>(&t.mlp, t.encoding, &rules, seed, 0.7);
        assert!(matches!(end.turn(), Turn::Over(_)));
        assert!(!samples.is_empty());
        for s in &samples {
            assert!((-1.0..=1.0).contains(&s.target));
        }
    }
}

#[test]
fn eval_net_and_the_net_player_are_refused_where_no_network_is_shipped() {
    let tihbat: qasab_core::tihbat::Ruleset = "tihbat".parse().unwrap();
    let err = refusal::<qasab_core::tihbat::State>("greedy(eval=net)", &tihbat);
    assert!(err.contains("network"), "{err}");
    let err = refusal::<qasab_core::tihbat::State>("net", &tihbat);
    assert!(err.contains("Tab family"), "{err}");
    // The modern game has a network for its preset's board only.
    let wide: tab::Ruleset = "tab-modern(columns=11)".parse().unwrap();
    for spec in ["net", "mcts(eval=net)", "expectimax(eval=net)"] {
        let err = refusal::<tab::State>(spec, &wide);
        assert!(err.contains("network"), "{spec}: {err}");
        assert!(err.contains("every reading of tab"), "{spec}: {err}");
    }
    // Lane's game and Hyde's have one for every reading.
    for wide in ["tab(columns=11)", "tab-hyde(columns=19)"] {
        let wide: tab::Ruleset = wide.parse().unwrap();
        for spec in ["net", "mcts(eval=net)", "expectimax(eval=net)"] {
            PreparedAgent::<tab::State>::new(spec, &wide).unwrap();
        }
    }
}

#[test]
fn a_network_file_plays_in_every_search_as_the_shipped_network_does() {
    // The shipped network written to a file: every player reading it chooses what the player
    // with the shipped network chooses, and its spec names the file and reads back.
    let rules: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.safetensors");
    shipped("tab-ludii").unwrap().save(&path).unwrap();
    let file = format!("weights={}", path.display());
    let states: Vec<tab_ludii::State> = sample_states::<tab_ludii::State>(&rules, 2, 5)
        .into_iter()
        .filter(|s| matches!(s.turn(), Turn::Player(_)))
        .collect();
    assert!(states.len() > 10);
    for (shipped_spec, file_spec) in [
        ("greedy(eval=net)", format!("greedy({file})")),
        (
            "expectimax(eval=net,level=1)",
            format!("expectimax(eval=net,{file},level=1)"),
        ),
        (
            "mcts(eval=net,cutoff=0,iterations=200)",
            format!("mcts({file},cutoff=0,iterations=200)"),
        ),
        ("net", format!("net({file})")),
    ] {
        let mut a = PreparedAgent::<tab_ludii::State>::new(shipped_spec, &rules)
            .unwrap()
            .make(7);
        let prepared = PreparedAgent::<tab_ludii::State>::new(&file_spec, &rules).unwrap();
        assert_eq!(prepared.cost.file.as_deref(), Some(file.as_str()));
        let mut b = prepared.make(7);
        for s in &states {
            assert_eq!(
                a.choose(s),
                b.choose(s),
                "{file_spec} at {}",
                s.position_id()
            );
        }
        let shown = b.spec();
        assert!(shown.contains(&file), "{shown}");
        let again = PreparedAgent::<tab_ludii::State>::new(&shown, &rules).unwrap();
        assert_eq!(again.make(7).spec(), shown);
    }
    // Another network in the file plays otherwise: the file is what the search reads.
    let untrained = dir.path().join("untrained.safetensors");
    Trainer::<tab_ludii::State>::new(rules, small_options(16, 1))
        .unwrap()
        .network()
        .save(&untrained)
        .unwrap();
    let other = format!("weights={}", untrained.display());
    for (shipped_spec, file_spec) in [
        ("greedy(eval=net)", format!("greedy({other})")),
        (
            "mcts(eval=net,cutoff=0,iterations=200)",
            format!("mcts({other},cutoff=0,iterations=200)"),
        ),
    ] {
        let choices = |spec: &str| {
            let mut agent = PreparedAgent::<tab_ludii::State>::new(spec, &rules)
                .unwrap()
                .make(7);
            states.iter().map(|s| agent.choose(s)).collect::<Vec<_>>()
        };
        assert_ne!(choices(shipped_spec), choices(&file_spec), "{file_spec}");
    }
    // The same file read again is the same network, kept once.
    let first =
        qasab_ai::eval::net::load_for::<tab_ludii::State>(&path.display().to_string(), &rules);
    let second =
        qasab_ai::eval::net::load_for::<tab_ludii::State>(&path.display().to_string(), &rules);
    assert_eq!(first, second);
    assert_ne!(first.unwrap(), qasab_ai::eval::net::NetId::SHIPPED);
}

#[test]
fn a_network_file_is_refused_with_another_evaluation_a_game_without_networks_or_a_host() {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let err = |spec: &str| refusal::<tab::State>(spec, &rules);
    let e = err("mcts(eval=fitted,weights=x.safetensors)");
    assert!(e.contains("no file with eval=fitted"), "{e}");
    let e = err("greedy(weights=/no/such/file)");
    assert!(e.contains("/no/such/file"), "{e}");
    // A network of another family is refused when the file is read.
    let dir = tempfile::tempdir().unwrap();
    let ludii = dir.path().join("ludii.safetensors");
    shipped("tab-ludii").unwrap().save(&ludii).unwrap();
    let e = err(&format!("expectimax(weights={})", ludii.display()));
    assert!(e.contains("trained for tab-ludii"), "{e}");
    let tihbat: qasab_core::tihbat::Ruleset = "tihbat".parse().unwrap();
    let e = refusal::<qasab_core::tihbat::State>("mcts(weights=x)", &tihbat);
    assert!(e.contains("this game has no network"), "{e}");
    let limits = qasab_ai::Limits::host("the server", 500, 1);
    for spec in ["mcts(weights=x)", "greedy(eval=net,weights=x)"] {
        let e = PreparedAgent::<tab::State>::within(spec, &rules, &limits)
            .err()
            .unwrap();
        assert!(e.contains("weights=x would read a file of the host"), "{e}");
    }
    // A host that lets players read its files reads it.
    let reads = qasab_ai::Limits {
        files: true,
        ..limits
    };
    let spec = format!(
        "mcts(weights={})",
        dir.path().join("tab.safetensors").display()
    );
    shipped("tab")
        .unwrap()
        .save(&dir.path().join("tab.safetensors"))
        .unwrap();
    assert!(PreparedAgent::<tab::State>::within(&spec, &rules, &reads).is_ok());
    let e = err("greedy(weights=)");
    assert!(e.contains("bad value '' for option 'weights'"), "{e}");
}

/// Plays a few games between `spec` and `random`; the driver panics on an illegal move.
fn plays_legally<S: Playable>(rules: &S::Ruleset, spec: &str) {
    for seed in 0..2 {
        let mut agents = [
            PreparedAgent::<S>::new(spec, rules).unwrap().make(seed),
            PreparedAgent::<S>::new("random", rules).unwrap().make(seed),
        ];
        let mut chance = ChanceSource::new(seed);
        let end = play_out(rules.initial_state(), &mut agents, &mut chance, |_, _| {});
        assert!(matches!(end.turn(), Turn::Over(_)));
    }
}

#[test]
fn players_with_a_network_play_only_legal_moves_on_every_preset_with_one() {
    let specs = [
        "net",
        "greedy(eval=net)",
        "expectimax(eval=net,level=1)",
        // On the Ludii presets rollouts run to the end: the cutoff makes the search read
        // the network (without one, `eval=` is refused).
        "mcts(eval=net,iterations=200,cutoff=0)",
    ];
    let mut checked = 0;
    for family in shipped_families() {
        let net = shipped(family).unwrap();
        match net.encoding.name {
            "tab-v1" | "tab-v2" => {
                let rules: tab::Ruleset = family.parse().unwrap();
                for spec in specs {
                    plays_legally::<tab::State>(&rules, spec);
                }
            }
            _ => {
                let rules: tab_ludii::Ruleset = family.parse().unwrap();
                for spec in specs {
                    plays_legally::<tab_ludii::State>(&rules, spec);
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 1, "no network is shipped");
}

/// The strongest player of a preset is a valid spec there, and a variant of the preset, whose
/// strength was not measured, keeps `mcts`.
fn check_strongest<S: Playable>(preset: &S::Ruleset, variant: &str) {
    let spec = S::strongest_agent(preset);
    PreparedAgent::<S>::new(spec, preset).unwrap_or_else(|e| panic!("{preset}: {spec}: {e}"));
    let variant: S::Ruleset = variant.parse().unwrap();
    assert_ne!(&variant, preset);
    assert_eq!(S::strongest_agent(&variant), "mcts", "{variant}");
}

#[test]
fn the_strongest_player_is_valid_on_its_preset_and_mcts_on_variants() {
    for family in shipped_families() {
        match shipped(family).unwrap().encoding.name {
            "tab-v1" | "tab-v2" => check_strongest::<tab::State>(
                &family.parse().unwrap(),
                &format!("{family}(p_white=1/3)"),
            ),
            _ => check_strongest::<tab_ludii::State>(
                &family.parse().unwrap(),
                &format!("{family}(p_white=1/3)"),
            ),
        }
    }
}

#[test]
fn shipped_networks_read_and_fit_their_presets() {
    for family in shipped_families() {
        let net = shipped(family).unwrap();
        assert!(net.mlp.parameters() > 0);
        let size = Network::to_bytes(net).len();
        assert!(size < 2 * 1024 * 1024, "{family}: {size} bytes");
    }
}

/// States to value: decisions from seeded random games, and the ends of some of their turns
/// (which begin alike, as a search's batches do, and include finished games).
fn states_to_value<S: Playable>(rules: &S::Ruleset) -> Vec<S> {
    let mut states = sample_states::<S>(rules, 3, 5);
    let decisions: Vec<S> = states
        .iter()
        .filter(|s| matches!(s.turn(), Turn::Player(_)))
        .step_by(7)
        .cloned()
        .collect();
    for s in decisions {
        let g = TurnGraph::new(&s, TURN_STATES);
        states.extend(g.ends().cloned());
    }
    states
}

/// Every way of running `net` on `states` gives the first pass's values, bit for bit: one at
/// a time, in batches (of the turn ends, of everything at once, of a few), and through
/// [`Network`].
fn check_values<S: Encode>(net: &Network, states: &[S]) {
    let inputs: Vec<Features> = states
        .iter()
        .filter(|s| !matches!(s.turn(), Turn::Over(_)))
        .map(|s| {
            let mut f = Features::default();
            Encode::encode(s, net.encoding, &mut f);
            f
        })
        .collect();
    assert!(inputs.len() > 100, "{} inputs", inputs.len());
    let first: Vec<u32> = inputs
        .iter()
        .map(|x| qasab_ai::eval::net::mlp::reference_value(&net.mlp, x).to_bits())
        .collect();
    let one: Vec<u32> = inputs.iter().map(|x| net.mlp.value(x).to_bits()).collect();
    assert_eq!(one, first, "one at a time");
    for size in [inputs.len(), 1, 3, 64] {
        let mut out = vec![f32::NAN; inputs.len()];
        for (xs, out) in inputs.chunks(size).zip(out.chunks_mut(size)) {
            net.mlp.values(xs, out);
        }
        let got: Vec<u32> = out.iter().map(|v| v.to_bits()).collect();
        assert_eq!(got, first, "in batches of {size}");
    }
    for p in Player::ALL {
        let one: Vec<u64> = states.iter().map(|s| net.value(s, p).to_bits()).collect();
        let together: Vec<u64> = net.values(states, p).iter().map(|v| v.to_bits()).collect();
        assert_eq!(together, one, "Network::values for {p:?}");
    }
}

#[test]
fn batched_values_are_the_single_values_bit_for_bit() {
    let net = shipped("tab").unwrap();
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let mut states = mid_game_positions(&rules, 64);
    states.extend(states_to_value::<tab::State>(&rules));
    check_values(net, &states);
    // A network for the Ludii rules, of the shipped size, with biases as a trained one has.
    let rules: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
    let options = TrainOptions {
        hidden: [128, 32],
        ..small_options(1, 1)
    };
    let mut net = Trainer::<tab_ludii::State>::new(rules, options)
        .unwrap()
        .network();
    let mut x = 0.31f32;
    for b in net.mlp.fc1.bias.iter_mut().chain(&mut net.mlp.fc2.bias) {
        x = (x * 9301.0 + 0.49297).fract();
        *b = x - 0.5;
    }
    net.mlp.sync();
    check_values(&net, &states_to_value::<tab_ludii::State>(&rules));
}

#[test]
fn searches_value_many_states_as_they_value_one() {
    fn check<S: Playable>(rules: &S::Ruleset) {
        let states = states_to_value::<S>(rules);
        for eval in EvalWeights::ALL {
            if (eval == EvalWeights::Fitted && !S::FITTED) || (eval.is_net() && !S::NET) {
                continue;
            }
            for p in Player::ALL {
                let one: Vec<u64> = states
                    .iter()
                    .map(|s| s.evaluate_with(p, eval).to_bits())
                    .collect();
                let all: Vec<u64> = S::evaluate_all(&states, p, eval)
                    .iter()
                    .map(|v| v.to_bits())
                    .collect();
                assert_eq!(all, one, "{rules}, eval={}", eval.name());
            }
        }
    }
    check::<tab::State>(&"tab".parse().unwrap());
    check::<tab::State>(&"tab(columns=11)".parse().unwrap());
    check::<tab_ludii::State>(&"tab-ludii".parse().unwrap());
    check::<qasab_core::tihbat::State>(&"tihbat".parse().unwrap());
}
