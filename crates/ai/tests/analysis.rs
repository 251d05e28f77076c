//! Game analysis: move losses and marks against known values, luck against exact probabilities.

use qasab_ai::agent::{Agent, Evaluation, ValueKind};
use qasab_ai::play::analysis::{AnalysisError, Mark, Thresholds, analyse};
use qasab_ai::play::driver::{ChanceSource, play_out, seat_seed};
use qasab_ai::players::{Playable, PreparedAgent};
use qasab_core::sticks::Throw;
use qasab_core::{Action, GameState, Player, Ruleset, Turn, tab, tihbat};

/// The actions of a game of `R`.
type Actions<R> = Vec<
    Action<
        <<R as Ruleset>::State as GameState>::Move,
        <<R as Ruleset>::State as GameState>::Chance,
    >,
>;

/// Plays a seeded game between two agents and returns its actions.
fn game<R: Ruleset>(rules: &R, specs: [&str; 2], seed: u64) -> Actions<R>
where
    R::State: Playable,
{
    let mut agents = [0, 1].map(|i| {
        PreparedAgent::<R::State>::new(specs[i], rules)
            .unwrap()
            .make(seat_seed(seed, Player::ALL[i]))
    });
    let mut chance = ChanceSource::new(seed);
    let mut actions = Vec::new();
    play_out(rules.initial_state(), &mut agents, &mut chance, |_, a| {
        actions.push(a)
    });
    actions
}

#[test]
fn the_solver_loses_nothing_and_random_moves_lose_their_exact_difference() {
    let rules = tihbat::Ruleset::default();
    let actions = game(&rules, ["solver", "random"], 5);
    let mut judge = PreparedAgent::<tihbat::State>::new("solver", &rules)
        .unwrap()
        .make(1);
    let solver = qasab_ai::Solver::new(rules).unwrap();
    let a = analyse(
        &rules.initial_state(),
        &actions,
        judge.as_mut(),
        &|_, _| 0.0,
        "solver",
        &|| {},
    )
    .unwrap();
    assert_eq!(a.value_kind, ValueKind::ExactMargin);
    assert!(a.throws.is_empty(), "tihbat has no throws");
    let mut state = rules.initial_state();
    let mut judged = 0;
    for (i, action) in actions.iter().enumerate() {
        if let Action::Move(m) = action {
            let r = a.moves.iter().find(|r| r.action == i + 1).unwrap();
            let values = solver.move_values(&state).unwrap();
            let best = values.iter().map(|v| v.1).max().unwrap();
            let played = values.iter().find(|v| v.0 == *m).unwrap().1;
            if values.len() > 1 {
                judged += 1;
                assert_eq!(r.loss, f64::from(best - played), "action {}", i + 1);
                assert_eq!(
                    r.mark,
                    Thresholds::for_kind(ValueKind::ExactMargin).mark(r.loss)
                );
            }
            if r.player == Player::One {
                assert_eq!(r.loss, 0.0, "the solver's own move {m} lost value");
            }
            state.play_unchecked(*m);
        }
    }
    assert!(judged > 0);
    let south = &a.players[0];
    assert_eq!((south.total_loss, south.error_rate), (0.0, 0.0));
    let north = &a.players[1];
    assert_eq!(
        north.decisions,
        a.moves.iter().filter(|r| r.player == Player::Two).count()
    );
}

/// Rates the legal moves of a Tâb position by their rank: the first 0, the second -0.05, the
/// third -0.1, the rest -0.2, so that each rank's loss is known.
struct RankRater;

const RANK_VALUES: [f64; 4] = [0.0, -0.05, -0.1, -0.2];

impl Agent<tab::State> for RankRater {
    fn spec(&self) -> String {
        "rank".into()
    }

    fn choose(&mut self, state: &tab::State) -> tab::Move {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves[0]
    }

    fn evaluate(&mut self, state: &tab::State) -> Option<Evaluation<tab::Move>> {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        Some(Evaluation {
            kind: ValueKind::Estimate,
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, &m)| (m, RANK_VALUES[i.min(3)]))
                .collect(),
        })
    }
}

#[test]
fn marks_follow_the_loss_thresholds() {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let actions = game(&rules, ["random", "random"], 11);
    let a = analyse(
        &rules.initial_state(),
        &actions,
        &mut RankRater,
        &|_, _| 0.0,
        "rank",
        &|| {},
    )
    .unwrap();
    let mut state = rules.initial_state();
    let mut seen = [0usize; 4];
    let mut moves = Vec::new();
    for (i, action) in actions.iter().enumerate() {
        match action {
            Action::Move(m) => {
                state.legal_moves(&mut moves);
                let rank = moves.binary_search(m).unwrap();
                let r = a.moves.iter().find(|r| r.action == i + 1).unwrap();
                if moves.len() == 1 {
                    assert_eq!((r.loss, r.mark), (0.0, None));
                } else {
                    let loss = -RANK_VALUES[rank.min(3)];
                    assert!((r.loss - loss).abs() < 1e-12);
                    let want = match rank.min(3) {
                        0 => None,
                        1 => Some(Mark::Doubtful),
                        2 => Some(Mark::Mistake),
                        _ => Some(Mark::Blunder),
                    };
                    assert_eq!(r.mark, want, "action {}", i + 1);
                    seen[rank.min(3)] += 1;
                    assert_eq!(r.best, moves[0]);
                }
                state.play_unchecked(*m);
            }
            Action::Chance(c) => state.apply_chance_unchecked(*c),
        }
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "every rank was played: {seen:?}"
    );
    for (p, s) in Player::ALL.iter().zip(&a.players) {
        let judged: Vec<_> = a
            .moves
            .iter()
            .filter(|r| r.player == *p && r.choices > 1)
            .collect();
        let marked = judged.iter().filter(|r| r.mark.is_some()).count();
        assert_eq!(s.decisions - s.forced, judged.len());
        assert!((s.error_rate - marked as f64 / judged.len() as f64).abs() < 1e-12);
        assert_eq!(s.doubtful + s.mistakes + s.blunders, marked);
    }
}

#[test]
fn luck_is_the_value_after_a_throw_against_its_exact_expectation() {
    // A value that is 1 at a chance turn: the luck of a throw is then whether a throw follows,
    // against the exact chance of it over the five outcomes (weights 1, 4, 6, 4, 1 of 16).
    let again = |s: &tab::State, _: Player| -> f64 {
        match s.turn() {
            Turn::Chance => 1.0,
            _ => 0.0,
        }
    };
    let rules: tab::Ruleset = "tab(opening=normal)".parse().unwrap();
    let actions = game(&rules, ["random", "random"], 3);
    let a = analyse(
        &rules.initial_state(),
        &actions,
        &mut RankRater,
        &again,
        "rank",
        &|| {},
    )
    .unwrap();
    assert!(!a.throws.is_empty());
    let mut state = rules.initial_state();
    let mut checked = 0;
    for (i, action) in actions.iter().enumerate() {
        if let Action::Chance(t) = action {
            let thrower = state.chance_player().unwrap();
            let r = a.throws.iter().find(|r| r.action == i + 1).unwrap();
            assert_eq!(r.player, thrower);
            let follows = |o: Throw| {
                let mut after = state;
                after.apply_chance_unchecked(o);
                f64::from(u8::from(after.turn() == Turn::Chance))
            };
            // C(4, whites) of 16 for fair sticks.
            let expected: f64 = [1.0, 4.0, 6.0, 4.0, 1.0]
                .iter()
                .zip(0u8..)
                .map(|(w, whites)| follows(Throw::from_whites(whites).unwrap()) * w / 16.0)
                .sum();
            assert!(
                (r.luck - (follows(*t) - expected)).abs() < 1e-12,
                "{t}: {}",
                r.luck
            );
            if t.throws_again() {
                // Another throw always follows a 1, 4 or 6 here (the accumulated timing).
                assert!(r.luck >= 0.0);
            }
            checked += 1;
        }
        match action {
            Action::Move(m) => state.play_unchecked(*m),
            Action::Chance(c) => state.apply_chance_unchecked(*c),
        }
    }
    assert!(checked > 10);
    for (p, s) in Player::ALL.iter().zip(&a.players) {
        let total: f64 = a
            .throws
            .iter()
            .filter(|r| r.player == *p)
            .map(|r| r.luck)
            .sum();
        assert!((s.luck - total).abs() < 1e-9);
    }
}

#[test]
fn an_agent_without_values_and_an_illegal_action_are_reported() {
    let rules: tab::Ruleset = "tab".parse().unwrap();
    let actions = game(&rules, ["random", "random"], 2);
    let mut random = PreparedAgent::<tab::State>::new("random", &rules)
        .unwrap()
        .make(0);
    let err = analyse(
        &rules.initial_state(),
        &actions,
        random.as_mut(),
        &|_, _| 0.0,
        "mcts",
        &|| {},
    )
    .unwrap_err();
    assert!(matches!(err, AnalysisError::NoValues { .. }), "{err}");
    assert!(err.to_string().contains("e.g. mcts"), "{err}");

    // The first action must be a throw; a move there is refused with its number.
    let moves: Vec<_> = actions
        .iter()
        .filter(|a| matches!(a, Action::Move(_)))
        .take(1)
        .copied()
        .collect();
    let err = analyse(
        &rules.initial_state(),
        &moves,
        &mut RankRater,
        &|_, _| 0.0,
        "rank",
        &|| {},
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("action 1 ({}) is not legal there", moves[0])
    );
}
