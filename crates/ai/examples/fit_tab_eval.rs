//! Fits the weights of the Tâb evaluation to the results of self-play games (`eval=fitted`).
//!
//! `fit_tab_eval [--ruleset R] [--player SPEC] [--games N] [--seed S] [--epsilon E] [--every K]`
//! plays N seeded games of R (default `tab`) between two copies of SPEC (default `greedy`),
//! each decision replaced by a uniform random legal move with probability E (default 0.05) so
//! that the positions vary. It keeps about one state in K (default 4) of every game that ends
//! with a winner, with the game's result, and fits a logistic regression of the result on the
//! inputs of the evaluation ([`qasab_ai::games::tab::eval::inputs`]), with no intercept so that the
//! value stays antisymmetric: `P(White wins) = 1 / (1 + exp(-w·x))`.
//!
//! The games whose index is a multiple of 5 are held out. The report gives the log loss on
//! them of the fitted weights and of the hand-chosen ones (at their own scale, and at the best
//! single scale fitted on the other games), then the fitted weights in the form of
//! [`qasab_ai::games::tab::eval::Weights`]: each divided by the material weight, and the squash's
//! scale per piece (`tanh(z / 2)` is the value of a win probability `1 / (1 + exp(-z))`).
//!
//! `docs/players.md` records the command that produced the weights `eval=fitted` uses.

use qasab_ai::PreparedAgent;
use qasab_ai::games::tab::eval::{INPUT_NAMES, INPUTS, Weights, inputs, scale};
use qasab_ai::play::driver::ChanceSource;
use qasab_ai::rng::{below, derive_seed, rng_from_seed};
use qasab_ai::train::fit::{dot, log_loss, logistic, sigmoid};
use qasab_core::tab::{Ruleset, State};
use qasab_core::{GameState, Player, Ruleset as _, Turn};
use rand_core::Rng;
use rayon::prelude::*;

/// One kept state: its game, its inputs and White's result (1 a win, 0 a loss).
struct Sample {
    game: u64,
    x: [f64; INPUTS],
    y: f64,
}

struct Args {
    ruleset: String,
    player: String,
    games: u64,
    seed: u64,
    epsilon: f64,
    every: u64,
}

/// Prints `message` with the usage and exits with status 2.
fn fail(message: &str) -> ! {
    eprintln!("fit_tab_eval: {message}");
    eprintln!(
        "usage: fit_tab_eval [--ruleset R] [--player SPEC] [--games N] [--seed S] \
         [--epsilon E] [--every K]"
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut a = Args {
        ruleset: "tab".into(),
        player: "greedy".into(),
        games: 4000,
        seed: 1,
        epsilon: 0.05,
        every: 4,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    for pair in argv.chunks(2) {
        let [key, value] = pair else {
            fail("options come in pairs: --name value")
        };
        fn num<T: std::str::FromStr>(key: &str, value: &str) -> T {
            value
                .parse()
                .unwrap_or_else(|_| fail(&format!("bad value {value:?} for {key}")))
        }
        match key.as_str() {
            "--ruleset" => a.ruleset = value.clone(),
            "--player" => a.player = value.clone(),
            "--games" => a.games = num(key, value),
            "--seed" => a.seed = num(key, value),
            "--epsilon" => a.epsilon = num(key, value),
            "--every" => a.every = num(key, value),
            _ => fail(&format!("unknown option {key}")),
        }
    }
    if a.every == 0 || !(0.0..=1.0).contains(&a.epsilon) {
        fail("--every must be at least 1 and --epsilon from 0 to 1");
    }
    a
}

/// Plays game `g` and returns its kept states (none if no one won).
fn play(rules: &Ruleset, agent: &PreparedAgent<State>, a: &Args, g: u64) -> Vec<Sample> {
    let game_seed = derive_seed(a.seed, g);
    let mut players = [
        agent.make(derive_seed(game_seed, 1)),
        agent.make(derive_seed(game_seed, 2)),
    ];
    let mut chance = ChanceSource::new(game_seed);
    let mut rng = rng_from_seed(derive_seed(game_seed, 3));
    let (mut buf, mut moves) = (Vec::new(), Vec::new());
    let mut kept = Vec::new();
    let mut state = rules.initial_state();
    let outcome = loop {
        let turn = state.turn();
        if let Turn::Over(o) = turn {
            break o;
        }
        if below(&mut rng, a.every as usize) == 0 {
            kept.push(inputs(&state));
        }
        match turn {
            Turn::Chance => {
                let c = chance.draw(&state, &mut buf);
                state.apply_chance_unchecked(c);
            }
            Turn::Player(p) => {
                let explore = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let m = if explore < a.epsilon {
                    state.legal_moves(&mut moves);
                    moves[below(&mut rng, moves.len())]
                } else {
                    players[p.index()].choose(&state)
                };
                state.play_unchecked(m);
            }
            Turn::Over(_) => unreachable!(),
        }
    };
    let y = match outcome.winner {
        _ if outcome.is_truncated() => return Vec::new(),
        Some(Player::One) => 1.0,
        Some(Player::Two) => 0.0,
        None => 0.5,
    };
    kept.into_iter().map(|x| Sample { game: g, x, y }).collect()
}

fn main() {
    let a = parse_args();
    let rules: Ruleset = a.ruleset.parse().unwrap_or_else(|e| fail(&format!("{e}")));
    let agent =
        PreparedAgent::<State>::new(&a.player, &rules).unwrap_or_else(|e| fail(&format!("{e}")));
    let start = std::time::Instant::now();
    let samples: Vec<Sample> = (0..a.games)
        .into_par_iter()
        .flat_map_iter(|g| play(&rules, &agent, &a, g))
        .collect();
    let held = |s: &&Sample| s.game.is_multiple_of(5);
    let train: Vec<&Sample> = samples.iter().filter(|s| !held(s)).collect();
    let test: Vec<&Sample> = samples.iter().filter(held).collect();
    println!(
        "{}: {} games of {} (epsilon {}, seed {}), {} states kept ({} held out), {:.0} s",
        rules,
        a.games,
        a.player,
        a.epsilon,
        a.seed,
        samples.len(),
        test.len(),
        start.elapsed().as_secs_f64()
    );

    let rows: Vec<(&[f64; INPUTS], f64)> = train.iter().map(|s| (&s.x, s.y)).collect();
    let w = logistic(&rows);
    let hand = Weights::HAND;
    let hand_scale = scale(rules.piece_count());
    let hand_scores: Vec<([f64; 1], f64)> =
        train.iter().map(|s| ([hand.score(&s.x)], s.y)).collect();
    let hand_rows: Vec<(&[f64; 1], f64)> = hand_scores.iter().map(|(x, y)| (x, *y)).collect();
    let [k] = logistic(&hand_rows);
    let held_out = || test.iter().map(|s| (&s.x, s.y));
    println!("held-out log loss (a coin: {:.4}):", std::f64::consts::LN_2);
    println!(
        "  fitted weights            {:.4}",
        log_loss(held_out(), |x| sigmoid(dot(&w, x)))
    );
    println!(
        "  hand weights, own scale   {:.4}",
        log_loss(held_out(), |x| {
            (1.0 + (hand.score(x) / hand_scale).tanh()) / 2.0
        })
    );
    println!(
        "  hand weights, best scale  {:.4}",
        log_loss(held_out(), |x| sigmoid(k * hand.score(x)))
    );
    println!(
        "fitted coefficients, and the weights in pieces (times {:.3}, scale / 2):",
        hand_scale / 2.0
    );
    for (name, wi) in INPUT_NAMES.iter().zip(w) {
        println!("  {name:<15} {wi:+.5}  {:+.4}", wi * hand_scale / 2.0);
    }
    let inputs: Vec<String> = w
        .iter()
        .map(|wi| format!("{:.4}", wi * hand_scale / 2.0))
        .collect();
    println!("[{}]", inputs.join(", "));
}
