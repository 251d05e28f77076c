//! `qasab play`: a game in the terminal.

use std::fs;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qasab_ai::agent::Agent;
use qasab_ai::play::driver::{ChanceSource, seat_seed};
use qasab_ai::players::{Playable, PreparedAgent};
use qasab_ai::{Evaluation, ValueKind};
use qasab_core::record::write_record;
use qasab_core::{Action, ActionOf, GameState, Player, Ruleset, Turn, with_ruleset};

use super::parse_ruleset;
use crate::cli::PlayArgs;

/// Who sits in a seat.
enum Seat<S: GameState> {
    Human,
    Computer { agent: Box<dyn Agent<S>> },
}

pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    let any = parse_ruleset(&args.ruleset)?;
    with_ruleset!(&any, r => play(r, args))
}

/// The seat flags given on the command line, by seat name.
fn seat_flags(args: &PlayArgs) -> Vec<(&'static str, &Option<String>)> {
    vec![
        ("south", &args.south),
        ("north", &args.north),
        ("white", &args.white),
        ("black", &args.black),
    ]
}

fn play<R: Ruleset>(rules: &R, args: &PlayArgs) -> Result<ExitCode>
where
    R::State: Playable,
{
    let mut specs = [
        Some("human".to_string()),
        Some(<R::State as Playable>::strongest_agent(rules).to_string()),
    ];
    for (flag, value) in seat_flags(args) {
        let Some(v) = value else { continue };
        let Some(p) = rules.seat_by_name(flag) else {
            bail!(
                "--{flag} is not a seat of {}; its seats are --{} and --{}",
                rules.name(),
                rules.seat_name(Player::One),
                rules.seat_name(Player::Two)
            );
        };
        specs[p.index()] = Some(v.clone());
    }
    let mut seats = Vec::new();
    for p in Player::ALL {
        let spec = specs[p.index()].take().unwrap_or_default();
        seats.push(if spec == "human" {
            Seat::Human
        } else {
            let prepared = PreparedAgent::<R::State>::new(&spec, rules)
                .with_context(|| format!("--{}", rules.seat_name(p)))?;
            Seat::Computer {
                agent: prepared.make(seat_seed(args.seed, p)),
            }
        });
    }
    let hint_spec = args
        .hint
        .clone()
        .unwrap_or_else(|| <R::State as Playable>::strongest_agent(rules).to_string());
    let mut hint: Option<Box<dyn Agent<R::State>>> = None;
    let hint_prepared = || PreparedAgent::<R::State>::new(&hint_spec, rules).context("--hint");
    if args.hint.is_some() {
        hint = Some(hint_prepared()?.make(args.seed));
    }

    let names = |p: Player| match &seats[p.index()] {
        Seat::Human => "human".to_string(),
        Seat::Computer { agent } => agent.spec(),
    };
    let info: Vec<(String, String)> = Player::ALL
        .iter()
        .map(|&p| (rules.seat_name(p).to_string(), names(p)))
        .chain([("seed".to_string(), args.seed.to_string())])
        .collect();

    outln!("{rules}: {}", rules.title());
    for p in Player::ALL {
        outln!("  {}: {}", rules.seat_name(p), names(p));
    }
    if seats.iter().any(|s| matches!(s, Seat::Human)) {
        outln!(
            "At your turn type a move{} (the prompt lists them), or hint, undo, help, quit.",
            example_move(&rules.initial_state()).map_or(String::new(), |m| format!(" (e.g. {m})"))
        );
    }

    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut state = rules.initial_state();
    let mut actions: Vec<ActionOf<R::State>> = Vec::new();
    let mut by_human: Vec<bool> = Vec::new();
    let mut chance = ChanceSource::new(args.seed);
    let mut chance_buf = Vec::new();
    let mut last: Option<String> = None;
    let save = |actions: &[Action<_, _>]| -> Result<()> {
        if let Some(path) = &args.record {
            save_record(path, &write_record::<R::State>(rules, actions, &info))?;
        }
        Ok(())
    };
    save(&actions)?;
    loop {
        let (action, human) = match state.turn() {
            Turn::Over(_) => {
                outln!();
                out!("{}", state.render());
                if let Some(path) = &args.record {
                    outln!("Record written to {}", path.display());
                }
                return Ok(ExitCode::SUCCESS);
            }
            Turn::Chance => (Action::Chance(chance.draw(&state, &mut chance_buf)), false),
            Turn::Player(p) => match &mut seats[p.index()] {
                Seat::Computer { agent } => {
                    let who = format!("{} ({})", rules.seat_name(p), agent.spec());
                    (Action::Move(thinking(&who, || agent.choose(&state))), false)
                }
                Seat::Human => {
                    outln!();
                    if let Some(l) = &last {
                        outln!("Last move: {l}");
                    }
                    out!("{}", state.render());
                    let mut moves = Vec::new();
                    let mut chosen = None;
                    while chosen.is_none() {
                        state.legal_moves(&mut moves);
                        let listed: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                        out!("{} to move [{}]> ", rules.seat_name(p), listed.join(" "));
                        io::stdout().flush()?;
                        let mut line = String::new();
                        if input.read_line(&mut line)? == 0 {
                            outln!("\nInput ended; the game is left unfinished.");
                            return stop(&args.record);
                        }
                        let line = line.trim();
                        match line.to_ascii_lowercase().as_str() {
                            "" => {}
                            "quit" | "exit" => {
                                outln!("Game stopped.");
                                return stop(&args.record);
                            }
                            "help" | "?" => print_help(&state)?,
                            "board" => out!("{}", state.render()),
                            "hint" => {
                                if hint.is_none() {
                                    hint = Some(hint_prepared()?.make(args.seed));
                                }
                                let agent = hint.as_mut().expect("hint agent");
                                let who = agent.spec();
                                let eval = thinking(&who, || agent.evaluate(&state));
                                print_hint(&state, who, eval)?;
                            }
                            "undo" => {
                                let Some(i) = by_human.iter().rposition(|&h| h) else {
                                    outln!("  Nothing to undo.");
                                    continue;
                                };
                                let undone: Vec<String> =
                                    actions[i..].iter().map(|a| a.to_string()).collect();
                                actions.truncate(i);
                                by_human.truncate(i);
                                state = rules.initial_state();
                                for &a in &actions {
                                    // Each was legal when it was played.
                                    state.apply_unchecked(a);
                                }
                                save(&actions)?;
                                outln!("  Took back {}.", undone.join(", "));
                                last = None;
                                out!("{}", state.render());
                                if state.turn() != Turn::Player(p) {
                                    break;
                                }
                            }
                            _ => match state.parse_move(line) {
                                Ok(m) => chosen = Some(m),
                                Err(e) => outln!("  {e}"),
                            },
                        }
                    }
                    match chosen {
                        Some(m) => (Action::Move(m), true),
                        None => continue,
                    }
                }
            },
        };
        let actor = qasab_core::record::actor_name(&state).unwrap_or("?");
        let description = match action {
            Action::Move(m) => format!("{actor} plays {m}: {}", state.describe_move(m)),
            Action::Chance(c) => state.describe_chance(c),
        };
        if !human {
            outln!("{description}");
        }
        last = Some(description);
        // Legal: read by `parse_move`, drawn from the chance outcomes, or chosen by an agent
        // among the legal moves.
        state.apply_unchecked(action);
        actions.push(action);
        by_human.push(human);
        save(&actions)?;
    }
}

fn stop(record: &Option<std::path::PathBuf>) -> Result<ExitCode> {
    if let Some(path) = record {
        outln!("Record written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn example_move<S: GameState>(state: &S) -> Option<String> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves.first().map(|m| m.to_string())
}

fn print_help<S: GameState>(state: &S) -> Result<()> {
    outln!(
        "  Moves: the notation of the game{}.",
        example_move(state).map_or(String::new(), |m| format!(", e.g. {m}"))
    );
    outln!(
        "    Tihbat: the pit letter, optionally with its count (a, A7), or pass when no pit can be sown."
    );
    outln!(
        "    Tab: THROW:FROM-TO such as 3:K-N (the throw may be left out: K-N), plus ^PIECES, * or =SURVIVOR"
    );
    outln!("         where a move needs them, or bank, decline:THROW, end. See docs/notation.md.");
    outln!("  hint   every legal move with its value from the hint player");
    outln!("  undo   take back your last move (and the computer's replies)");
    outln!("  board  show the board again");
    outln!("  quit   stop the game (the record, if any, keeps the moves so far)");
    Ok(())
}

fn print_hint<S: GameState>(
    state: &S,
    who: String,
    eval: Option<Evaluation<S::Move>>,
) -> Result<()> {
    let Some(eval) = eval else {
        // The player has no values to offer: list the legal moves.
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        outln!("  Legal moves ({who} does not rank them):");
        for m in moves {
            outln!("    {:<12} {}", m.to_string(), state.describe_move(m));
        }
        return Ok(());
    };
    let meaning = match eval.kind {
        ValueKind::ExactMargin => {
            "exact value: your future captures minus your opponent's, with perfect play"
        }
        ValueKind::ApproximateMargin => {
            "not proven for this history: your future captures minus your opponent's, as if the position were new"
        }
        ValueKind::Estimate => "estimated result, from -1 (loss) to +1 (win)",
    };
    outln!("  Hint from {who} ({meaning}):");
    let best = eval.moves.first().map(|&(_, v)| v);
    for (m, v) in &eval.moves {
        let tag = if Some(*v) == best { "  best" } else { "" };
        let value = match eval.kind {
            ValueKind::ExactMargin | ValueKind::ApproximateMargin => format!("{v:+}"),
            ValueKind::Estimate => format!("{v:+.3}"),
        };
        outln!(
            "    {:<8} {value:>7}  {}{tag}",
            m.to_string(),
            state.describe_move(*m)
        );
    }
    Ok(())
}

/// How long a computer player may think before a spinner says so.
const QUIET_THINKING: Duration = Duration::from_millis(300);

/// Runs a computer player's `work` on its own thread; if it takes longer than a moment, shows
/// a spinner on stderr saying who is thinking, so that a long search never looks like a hang.
fn thinking<T: Send>(who: &str, work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let (done, result) = mpsc::channel();
        let worker = scope.spawn(move || {
            // The receiver outlives the scope's threads, so the send cannot fail.
            let _ = done.send(work());
        });
        let answer = match result.recv_timeout(QUIET_THINKING) {
            Ok(answer) => Some(answer),
            Err(_) => {
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("template"),
                );
                bar.set_message(format!("{who} is thinking"));
                bar.enable_steady_tick(Duration::from_millis(120));
                let answer = result.recv().ok();
                bar.finish_and_clear();
                answer
            }
        };
        match (answer, worker.join()) {
            (Some(answer), _) => answer,
            (None, Err(panic)) => std::panic::resume_unwind(panic),
            (None, Ok(())) => unreachable!("the worker sends its answer before it ends"),
        }
    })
}

/// Writes the record next to its destination and renames it over it, so that a crash never
/// leaves a half-written file.
fn save_record(path: &Path, text: &str) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    fs::write(&tmp, text).with_context(|| format!("cannot write {}", Path::new(&tmp).display()))?;
    fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
