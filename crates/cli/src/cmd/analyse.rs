//! `qasab analyse`: every decision of a recorded game against an agent's best, and the luck of
//! every throw.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qasab_ai::agent::ValueKind;
use qasab_ai::eval::Evaluate;
use qasab_ai::play::analysis::{Analysis, analyse, kind_name};
use qasab_ai::play::stalls::{FortressChange, fortress_changes};
use qasab_ai::players::{Playable, PreparedAgent};
use qasab_ai::search::endgame::TableSet;
use qasab_core::record::{Record, replay};
use qasab_core::{ActionOf, GameState, Player, Ruleset, with_ruleset};
use serde_json::json;

use crate::cli::AnalyseArgs;

mod many;

pub fn run(args: &AnalyseArgs) -> Result<ExitCode> {
    if let [file] = args.records.as_slice()
        && !file.is_dir()
    {
        let (record, any) = super::read_record(file)?;
        let tables = super::tables::tables_for(args.tables.as_deref(), &any)?;
        return with_ruleset!(&any, r => report(r, file, &record, tables.as_ref(), args));
    }
    many::run(args)
}

/// The rating player of `args` (`--agent`, else the game's strongest) for `rules`, with the
/// endgame tables if any.
fn rating_player<R: Ruleset>(
    rules: &R,
    tables: Option<&Arc<TableSet>>,
    args: &AnalyseArgs,
) -> Result<PreparedAgent<R::State>>
where
    R::State: Playable,
{
    let strongest = <R::State as Playable>::strongest_agent(rules);
    let spec = args.agent.as_deref().unwrap_or(strongest);
    let prepared = PreparedAgent::<R::State>::new(spec, rules).context("--agent")?;
    Ok(prepared.with_tables(tables))
}

/// ", exact" after a decision the endgame tables rated.
fn exact_note(kind: Option<ValueKind>) -> &'static str {
    if kind == Some(ValueKind::ExactResult) {
        ", exact"
    } else {
        ""
    }
}

/// The analysis of a game of `S`.
type GameAnalysis<S> = Analysis<<S as GameState>::Move, <S as GameState>::Chance>;

/// The rating player and the luck evaluation of a ruleset, and one game's analysis with them.
fn analyse_game<R: Ruleset>(
    rules: &R,
    agent: &mut dyn qasab_ai::agent::Agent<R::State>,
    actions: &[ActionOf<R::State>],
    tick: &dyn Fn(),
) -> Result<GameAnalysis<R::State>, qasab_ai::play::analysis::AnalysisError>
where
    R::State: Playable + Evaluate,
{
    // Luck in the units of the game's own evaluation, the one its default `mcts` searches with
    // (the fitted weights on the Tâb family).
    let weights = <R::State as Playable>::mcts_defaults().eval;
    analyse(
        &rules.initial_state(),
        actions,
        agent,
        &|s: &R::State, p| s.evaluate_with(p, weights),
        <R::State as Playable>::strongest_agent(rules),
        tick,
    )
}

fn report<R: Ruleset>(
    rules: &R,
    file: &Path,
    record: &Record,
    tables: Option<&Arc<TableSet>>,
    args: &AnalyseArgs,
) -> Result<ExitCode>
where
    R::State: Playable + Evaluate,
{
    let replayed = replay::<R::State>(record).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let mut agent = rating_player(rules, tables, args)?.make(args.seed);
    let bar = ProgressBar::with_draw_target(
        Some(replayed.actions.len() as u64),
        ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} analysing {pos}/{len} actions [{bar:40}] eta {eta}",
        )
        .expect("template")
        .progress_chars("=> "),
    );
    let start = rules.initial_state();
    let analysis = analyse_game(rules, agent.as_mut(), &replayed.actions, &|| bar.inc(1));
    bar.finish_and_clear();
    let analysis = analysis.map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let fortresses = fortress_changes(rules, &start, &replayed.actions);
    if args.json {
        print_json(rules, &agent.spec(), &analysis, tables, &fortresses)?;
    } else {
        print_text(rules, &start, &replayed.actions, &agent.spec(), &analysis)?;
        print_fortresses(rules, &fortresses)?;
        if tables.is_some() {
            let [w, b] = &analysis.players;
            outln!(
                "Rated exactly by the endgame tables: {} of {}'s {} judged decisions, {} of {}'s {}.",
                w.exact,
                rules.seat_name(Player::One),
                w.decisions - w.forced,
                b.exact,
                rules.seat_name(Player::Two),
                b.decisions - b.forced
            );
        }
        super::tables::note_tables_text(
            tables,
            "where one holds the position, the moves are rated by their exact results",
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// When a side came to hold a sanctuary, or both did, in words.
fn print_fortresses<R: Ruleset>(rules: &R, changes: &[FortressChange]) -> Result<()> {
    if changes.is_empty() {
        return Ok(());
    }
    outln!();
    outln!(
        "Sanctuaries (units no enemy piece can reach and that never have to move; docs/ENDGAMES.md, \"Fortresses\"):"
    );
    for c in changes {
        let held: Vec<String> = Player::ALL
            .iter()
            .filter(|p| !c.sanctuaries[p.index()].is_empty())
            .map(|&p| {
                format!(
                    "{} on {}",
                    rules.seat_name(p),
                    c.sanctuaries[p.index()].join(", ")
                )
            })
            .collect();
        let when = if c.action == 0 {
            "from the start".to_string()
        } else {
            format!("after action {}", c.action)
        };
        let what = match held.len() {
            0 => "none held any more".to_string(),
            1 => {
                let holder = if c.sanctuaries[0].is_empty() {
                    Player::Two
                } else {
                    Player::One
                };
                format!(
                    "{}: {} cannot lose, {} cannot win",
                    held[0],
                    rules.seat_name(holder),
                    rules.seat_name(!holder)
                )
            }
            _ => format!("{}: a draw under perfect play", held.join("; ")),
        };
        outln!("  {when}: {what}");
    }
    Ok(())
}

fn print_json<R: Ruleset>(
    rules: &R,
    agent: &str,
    a: &GameAnalysis<R::State>,
    tables: Option<&Arc<TableSet>>,
    fortresses: &[FortressChange],
) -> Result<()> {
    let seat = |p: Player| rules.seat_name(p);
    let moves: Vec<_> = a
        .moves
        .iter()
        .map(|r| {
            json!({
                "action": r.action,
                "player": seat(r.player),
                "played": r.played.to_string(),
                "choices": r.choices,
                "best": r.best.to_string(),
                // A forced move is not rated.
                "played_value": (r.choices > 1).then_some(r.played_value),
                "best_value": (r.choices > 1).then_some(r.best_value),
                "loss": r.loss,
                "mark": r.mark,
                "value_kind": r.kind.map(kind_name),
            })
        })
        .collect();
    let throws: Vec<_> = a
        .throws
        .iter()
        .map(|t| {
            json!({
                "action": t.action,
                "player": seat(t.player),
                "outcome": t.outcome.to_string(),
                "luck": t.luck,
            })
        })
        .collect();
    let players: serde_json::Map<String, serde_json::Value> = Player::ALL
        .iter()
        .zip(&a.players)
        .map(|(&p, s)| Ok((seat(p).to_string(), serde_json::to_value(s)?)))
        .collect::<Result<_, serde_json::Error>>()?;
    let mut out = json!({
        "ruleset": rules.to_string(),
        "agent": agent,
        "value_kind": kind_name(a.value_kind),
        "thresholds": a.thresholds,
        "moves": moves,
        "throws": throws,
        "players": players,
        "fortresses": fortresses,
    });
    super::tables::note_tables_json(&mut out, tables);
    outln!("{}", serde_json::to_string_pretty(&out)?);
    Ok(())
}

fn print_text<R: Ruleset>(
    rules: &R,
    start: &R::State,
    actions: &[ActionOf<R::State>],
    agent: &str,
    a: &GameAnalysis<R::State>,
) -> Result<()> {
    let t = &a.thresholds;
    outln!("{rules}, analysed by {agent}");
    outln!(
        "Marks by loss against the best move: ?! from {}, ? from {}, ?? from {}.",
        t.doubtful,
        t.mistake,
        t.blunder
    );
    let mut state = start.clone();
    let (mut m, mut c) = (a.moves.iter().peekable(), a.throws.iter().peekable());
    for (i, action) in actions.iter().enumerate() {
        let n = i + 1;
        match action {
            qasab_core::Action::Move(mv) => {
                if let Some(r) = m.next_if(|r| r.action == n) {
                    let who = rules.seat_name(r.player);
                    let mark = r.mark.map_or("", |k| k.symbol());
                    if r.choices == 1 {
                        outln!("{n:>4}. {who} {mv}{mark}  (forced)");
                    } else if r.loss > 0.0 {
                        outln!(
                            "{n:>4}. {who} {mv}{mark}  {:+.3}, best {} {:+.3} (loss {:.3}{})",
                            r.played_value,
                            r.best,
                            r.best_value,
                            r.loss,
                            exact_note(r.kind)
                        );
                    } else {
                        outln!(
                            "{n:>4}. {who} {mv}  {:+.3} (best{})",
                            r.played_value,
                            exact_note(r.kind)
                        );
                    }
                }
                state.play_unchecked(*mv);
            }
            qasab_core::Action::Chance(ch) => {
                match c.next_if(|t| t.action == n) {
                    Some(t) => outln!(
                        "{n:>4}. {} throws {ch}  luck {:+.3}",
                        rules.seat_name(t.player),
                        t.luck
                    ),
                    None => outln!("{n:>4}. chance {ch}"),
                }
                state.apply_chance_unchecked(*ch);
            }
        }
    }
    outln!();
    outln!(
        "{:<8} {:>9} {:>6} {:>10} {:>9} {:>3} {:>3} {:>3} {:>10} {:>7} {:>9}",
        "player",
        "decisions",
        "forced",
        "mean loss",
        "error rate",
        "?!",
        "?",
        "??",
        "luck",
        "throws",
        "luck/throw"
    );
    for (p, s) in Player::ALL.iter().zip(&a.players) {
        outln!(
            "{:<8} {:>9} {:>6} {:>10.4} {:>9.1}% {:>3} {:>3} {:>3} {:>+10.3} {:>7} {:>+9.4}",
            rules.seat_name(*p),
            s.decisions,
            s.forced,
            s.mean_loss,
            100.0 * s.error_rate,
            s.doubtful,
            s.mistakes,
            s.blunders,
            s.luck,
            s.throws,
            s.mean_luck
        );
    }
    Ok(())
}
