//! `qasab play`: a game in the terminal.

use std::fs;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qasab_ai::agent::Agent;
use qasab_ai::play::driver::{ChanceSource, seat_seed};
use qasab_ai::players::tables::WithTables;
use qasab_ai::players::{Playable, PreparedAgent};
use qasab_ai::rng::derive_seed;
use qasab_ai::{Evaluation, ValueKind};
use qasab_core::record::write_record;
use qasab_core::{Action, ActionOf, GameState, Player, Ruleset, Turn, with_ruleset};
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Editor, Helper};

use super::parse_ruleset;
use crate::cli::PlayArgs;

/// Who sits in a seat.
enum Seat<S: GameState> {
    Human,
    Computer { agent: Box<dyn Agent<S>> },
}

pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    let any = parse_ruleset(&args.ruleset)?;
    let seed = match args.seed {
        Some(seed) => seed,
        None => getrandom::u64().map_err(|e| {
            anyhow::anyhow!("no randomness from the operating system ({e}); give --seed")
        })?,
    };
    with_ruleset!(&any, r => play(r, args, seed))
}

/// The strongest player that can play `rules` ([`PreparedAgent::strongest`], without limits:
/// the game's strongest, or `mcts` where that cannot play these rules, such as the exact
/// solver of a Tihbat whose values it cannot prove), for `role` (a seat, or the hints). Says
/// on standard error why a stronger player was passed over.
fn strongest<S: Playable>(rules: &S::Ruleset, role: &str) -> Result<PreparedAgent<S>> {
    let (prepared, passed) = PreparedAgent::<S>::strongest(rules, None)
        .map_err(|why| anyhow::anyhow!("{role}: {why}"))?;
    for why in passed {
        eprintln!("qasab play: {why}; {role} plays {} instead", prepared.spec);
    }
    Ok(prepared)
}

/// The stream of the game's seed that seeds the hint player (the throws take stream 0 and the
/// seats 1 and 2, [`seat_seed`]).
const HINT_STREAM: u64 = 3;

/// The words a person may type at the prompt besides moves.
const COMMANDS: [&str; 6] = ["hint", "undo", "help", "board", "quit", "exit"];

/// The seat flags given on the command line, by seat name.
fn seat_flags(args: &PlayArgs) -> Vec<(&'static str, &Option<String>)> {
    vec![
        ("south", &args.south),
        ("north", &args.north),
        ("white", &args.white),
        ("black", &args.black),
    ]
}

fn play<R: Ruleset>(rules: &R, args: &PlayArgs, seed: u64) -> Result<ExitCode>
where
    R::State: Playable,
{
    // A seat left to its default (`None`) plays the game's strongest player that can play
    // these rules (`strongest`).
    let mut specs = [Some("human".to_string()), None];
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
    let any: qasab_core::AnyRuleset = rules.to_string().parse()?;
    let tables = super::tables::tables_for(args.tables.as_deref(), &any)?;
    let with_tables = |agent: Box<dyn Agent<R::State>>| -> Box<dyn Agent<R::State>> {
        match &tables {
            Some(t) => Box::new(WithTables::new(agent, t.clone())),
            None => agent,
        }
    };
    let mut seats = Vec::new();
    for p in Player::ALL {
        let seat = rules.seat_name(p);
        let prepared = match specs[p.index()].take() {
            Some(spec) if spec == "human" => {
                seats.push(Seat::Human);
                continue;
            }
            Some(spec) => {
                PreparedAgent::<R::State>::new(&spec, rules).with_context(|| format!("--{seat}"))?
            }
            None => strongest(rules, seat)?,
        };
        seats.push(Seat::Computer {
            agent: with_tables(prepared.make(seat_seed(seed, p))),
        });
    }
    let mut hint: Option<Box<dyn Agent<R::State>>> = None;
    let hint_prepared = || match &args.hint {
        Some(spec) => PreparedAgent::<R::State>::new(spec, rules).context("--hint"),
        None => strongest(rules, "hint"),
    };
    let hint_seed = derive_seed(seed, HINT_STREAM);
    if args.hint.is_some() {
        hint = Some(with_tables(hint_prepared()?.make(hint_seed)));
    }

    let names = |p: Player| match &seats[p.index()] {
        Seat::Human => "human".to_string(),
        Seat::Computer { agent } => agent.spec(),
    };
    let info: Vec<(String, String)> = Player::ALL
        .iter()
        .map(|&p| (rules.seat_name(p).to_string(), names(p)))
        .chain([("seed".to_string(), seed.to_string())])
        .chain(tables.as_ref().map(|t| {
            (
                "tables".to_string(),
                t.files().collect::<Vec<_>>().join(" "),
            )
        }))
        .collect();

    outln!("{rules}: {}", rules.title());
    for p in Player::ALL {
        outln!("  {}: {}", rules.seat_name(p), names(p));
    }
    outln!("  seed: {seed} (replay with --seed {seed})");
    let mut input = Input::new();
    if seats.iter().any(|s| matches!(s, Seat::Human)) {
        outln!(
            "At your turn type a move (the prompt lists them{}), or hint, undo, help, quit.",
            example_move(&rules.initial_state()).map_or(String::new(), |m| format!(", e.g. {m}"))
        );
    }

    let mut state = rules.initial_state();
    let mut actions: Vec<ActionOf<R::State>> = Vec::new();
    // For each action: whether a person played it, and how `undo` names it.
    let mut by_human: Vec<bool> = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    let mut chance = ChanceSource::new(seed);
    let mut chance_buf = Vec::new();
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
                    out!("{}", state.render());
                    let mut moves = Vec::new();
                    let mut chosen = None;
                    while chosen.is_none() {
                        state.legal_moves(&mut moves);
                        let listed: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                        let prompt =
                            format!("{} to move [{}]> ", rules.seat_name(p), listed.join(" "));
                        let line = match input.read(&prompt, &listed)? {
                            Line::Text(line) => line,
                            Line::Ended => {
                                outln!("\nInput ended; the game is left unfinished.");
                                return stop(&args.record);
                            }
                            Line::Interrupted => {
                                outln!("Game stopped.");
                                return stop(&args.record);
                            }
                        };
                        let line = line.trim();
                        match line.to_ascii_lowercase().as_str() {
                            "" => {}
                            "quit" | "exit" => {
                                outln!("Game stopped.");
                                return stop(&args.record);
                            }
                            "help" | "?" => print_help(&state, input.edits())?,
                            "board" => out!("{}", state.render()),
                            "hint" => {
                                if hint.is_none() {
                                    hint = Some(with_tables(hint_prepared()?.make(hint_seed)));
                                }
                                let agent = hint.as_mut().expect("hint agent");
                                let who = agent.spec();
                                let eval = thinking(&who, || agent.evaluate(&state));
                                print_hint(&state, who, eval)?;
                                if let Some(note) = fortress_note(rules, &state) {
                                    outln!("{note}");
                                }
                            }
                            "undo" => {
                                let Some(i) = by_human.iter().rposition(|&h| h) else {
                                    outln!("  Nothing to undo.");
                                    continue;
                                };
                                let undone = labels.split_off(i);
                                actions.truncate(i);
                                by_human.truncate(i);
                                state = rules.initial_state();
                                for &a in &actions {
                                    // Each was legal when it was played.
                                    state.apply_unchecked(a);
                                }
                                save(&actions)?;
                                outln!("  Took back {}.", and_list(&undone));
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
        let (description, label) = match action {
            Action::Move(m) => (
                format!("{actor} plays {m}: {}", state.narrate_move(m)),
                format!("{actor}'s move {m}"),
            ),
            Action::Chance(c) => (
                state.narrate_chance(c),
                match state.chance_player() {
                    Some(p) => format!("{}'s throw {c}", rules.seat_name(p)),
                    None => format!("the chance outcome {c}"),
                },
            ),
        };
        outln!("{description}");
        // Legal: read by `parse_move`, drawn from the chance outcomes, or chosen by an agent
        // among the legal moves.
        state.apply_unchecked(action);
        actions.push(action);
        by_human.push(human);
        labels.push(label);
        save(&actions)?;
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What a person typed at the prompt.
enum Line {
    Text(String),
    /// The end of the input (end of file, or Ctrl-D at the terminal).
    Ended,
    /// Ctrl-C at the terminal.
    Interrupted,
}

/// Where a person's lines come from: a line editor when standard input is a terminal (history,
/// arrows, completion), otherwise standard input read line by line, as scripts and tests pipe
/// it in.
enum Input {
    Editor(Box<Editor<Words, DefaultHistory>>),
    Plain(io::StdinLock<'static>),
}

impl Input {
    fn new() -> Input {
        if io::stdin().is_terminal() && io::stdout().is_terminal() {
            let config = Config::builder()
                .auto_add_history(true)
                .completion_type(CompletionType::List)
                .build();
            // A terminal the editor cannot drive is read as plain input.
            if let Ok(mut editor) = Editor::with_config(config) {
                editor.set_helper(Some(Words::default()));
                return Input::Editor(Box::new(editor));
            }
        }
        Input::Plain(io::stdin().lock())
    }

    /// Whether lines are read with the editor.
    fn edits(&self) -> bool {
        matches!(self, Input::Editor(_))
    }

    /// Shows `prompt` and reads one line; Tab completes the legal moves `moves` and the
    /// commands.
    fn read(&mut self, prompt: &str, moves: &[String]) -> Result<Line> {
        match self {
            Input::Editor(editor) => {
                if let Some(words) = editor.helper_mut() {
                    words.0 = moves
                        .iter()
                        .cloned()
                        .chain(COMMANDS.iter().map(|c| c.to_string()))
                        .collect();
                }
                match editor.readline(prompt) {
                    Ok(line) => Ok(Line::Text(line)),
                    Err(ReadlineError::Eof) => Ok(Line::Ended),
                    Err(ReadlineError::Interrupted) => Ok(Line::Interrupted),
                    Err(e) => Err(anyhow::anyhow!("cannot read the terminal: {e}")),
                }
            }
            Input::Plain(stdin) => {
                out!("{prompt}");
                io::stdout().flush()?;
                let mut line = String::new();
                if stdin.read_line(&mut line)? == 0 {
                    return Ok(Line::Ended);
                }
                Ok(Line::Text(line))
            }
        }
    }
}

/// What Tab completes at the prompt: the legal moves and the commands.
#[derive(Default)]
struct Words(Vec<String>);

impl Completer for Words {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos].rfind(char::is_whitespace).map_or(0, |i| i + 1);
        Ok((start, completions(&self.0, &line[start..pos])))
    }
}

impl Hinter for Words {
    type Hint = String;
}
impl Highlighter for Words {}
impl Validator for Words {}
impl Helper for Words {}

/// The words that `typed` may be the start of: those that begin with it, or whose part after
/// the throw does (`K` completes to `3:K-N`); in either case of letters when none matches in
/// the case typed.
fn completions(words: &[String], typed: &str) -> Vec<String> {
    let starts = |fold: bool| -> Vec<String> {
        let fit = |w: &str| {
            if fold {
                w.to_ascii_lowercase()
                    .starts_with(&typed.to_ascii_lowercase())
            } else {
                w.starts_with(typed)
            }
        };
        words
            .iter()
            .filter(|w| fit(w) || w.split_once(':').is_some_and(|(_, rest)| fit(rest)))
            .cloned()
            .collect()
    };
    let exact = starts(false);
    if exact.is_empty() {
        starts(true)
    } else {
        exact
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

fn print_help<S: GameState>(state: &S, edits: bool) -> Result<()> {
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
    if edits {
        outln!("  Up and Down recall what you typed before; Tab completes a move or a command.");
    }
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
        ValueKind::ExactResult => {
            "exact result from the endgame tables, from -1 (loss) to +1 (win), 0 play that never ends"
        }
    };
    outln!("  Hint from {who} ({meaning}):");
    let best = eval.moves.first().map(|&(_, v)| v);
    for (m, v) in &eval.moves {
        let tag = if Some(*v) == best { "  best" } else { "" };
        let value = match eval.kind {
            ValueKind::ExactMargin | ValueKind::ApproximateMargin => format!("{v:+}"),
            ValueKind::Estimate => format!("{v:+.3}"),
            ValueKind::ExactResult => format!("{v:+.4}"),
        };
        outln!(
            "    {:<8} {value:>7}  {}{tag}",
            m.to_string(),
            state.describe_move(*m)
        );
    }
    Ok(())
}

/// What the sanctuaries of the position decide (docs/ENDGAMES.md, "Fortresses"), if a side
/// holds one.
fn fortress_note<R: Ruleset>(rules: &R, state: &R::State) -> Option<String>
where
    R::State: Playable,
{
    let found = <R::State as Playable>::sanctuaries(state)?;
    let holds = |p: Player| {
        let squares: Vec<&str> = found[p].iter().map(|s| s.square.as_str()).collect();
        (!squares.is_empty()).then(|| format!("{} on {}", rules.seat_name(p), squares.join(", ")))
    };
    let what = "a unit no enemy piece can reach and that never has to move";
    match (holds(Player::One), holds(Player::Two)) {
        (Some(a), Some(b)) => Some(format!(
            "  Both sides hold a sanctuary ({what}: {a}; {b}): neither can win, and the game is a draw under perfect play."
        )),
        (Some(a), None) | (None, Some(a)) => {
            let holder = if found[Player::One].is_empty() {
                Player::Two
            } else {
                Player::One
            };
            Some(format!(
                "  {} holds a sanctuary ({what}: {a}): {} cannot lose, and {} cannot win.",
                capitalized(rules.seat_name(holder)),
                rules.seat_name(holder),
                rules.seat_name(!holder)
            ))
        }
        (None, None) => None,
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_says_what_sanctuaries_decide() {
        let rules: qasab_core::tab::Ruleset = "tab".parse().unwrap();
        // White's stack of two on i, Black's three pieces in the middle rows.
        let one = rules
            .state_from_id("throw:b/-/x,x,i.ce1234vffffffffc,x,x,x,x,x,i.ce1234vfffffff00/x,k.ce1234v7ffffffff,N.ce1234v3ffffffff,x,K.ce1234vffffffff,x,x,x,x/11.0/6.7/0.0/156.0.1.562/247.42.17.0.36.0.0/-")
            .unwrap();
        let note = fortress_note(&rules, &one).unwrap();
        assert!(
            note.contains("White holds a sanctuary") && note.contains("white on i"),
            "{note}"
        );
        assert!(note.contains("black cannot win"), "{note}");
        // Each side's stack on the last square of the enemy row.
        let both = rules
            .state_from_id("throw:w/-/x,x,i.ce1234vffffffffc,x,x,x,x,x,i.ce1234vfffffff00/x,I.ce1234v7ffffffff,x,x,x,x,x,x,I.ce1234vfffffff/22.23/7.7/0.0/156.0.2.508/260.56.16.0.55.0.0/-")
            .unwrap();
        let note = fortress_note(&rules, &both).unwrap();
        assert!(note.contains("draw under perfect play"), "{note}");
        assert_eq!(fortress_note(&rules, &rules.initial_state()), None);
    }

    #[test]
    fn tab_completes_moves_and_commands() {
        let words: Vec<String> = ["3:K-N", "3:L-O", "1:I-K", "hint", "help"]
            .map(String::from)
            .to_vec();
        assert_eq!(completions(&words, "h"), ["hint", "help"]);
        assert_eq!(completions(&words, "3:"), ["3:K-N", "3:L-O"]);
        // The throw may be left out: the square completes to the whole move.
        assert_eq!(completions(&words, "K"), ["3:K-N"]);
        // The other case when nothing matches as typed.
        assert_eq!(completions(&words, "i"), ["1:I-K"]);
        assert!(completions(&words, "x").is_empty());
    }
}
