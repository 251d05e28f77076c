//! `qasab moves`, `qasab apply` and `qasab perft`: working with position ids.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use qasab_core::perft::perft_weighted;
use qasab_core::record::actor_name;
use qasab_core::{GameState, Ruleset, Turn, with_ruleset};
use serde_json::{Value, json};

use super::parse_ruleset;
use crate::cli::{ApplyArgs, MovesArgs, PerftArgs};

/// The state at `--position`, or the start.
fn state_at<R: Ruleset>(rules: &R, position: Option<&str>) -> Result<R::State> {
    match position {
        None => Ok(rules.initial_state()),
        Some(id) => Ok(rules.state_from_id(id)?),
    }
}

pub fn moves(args: &MovesArgs) -> Result<ExitCode> {
    let any = parse_ruleset(&args.ruleset)?;
    with_ruleset!(&any, r => moves_in(r, args))
}

fn moves_in<R: Ruleset>(rules: &R, args: &MovesArgs) -> Result<ExitCode> {
    let state = state_at(rules, args.position.as_deref())?;
    let mut out = serde_json::Map::new();
    out.insert("ruleset".into(), json!(rules.to_string()));
    out.insert("position".into(), json!(state.position_id()));
    match state.turn() {
        Turn::Chance => {
            let mut outcomes = Vec::new();
            let total = state.chance_outcomes(&mut outcomes);
            out.insert("turn".into(), json!("chance"));
            out.insert("denominator".into(), json!(total));
            out.insert(
                "outcomes".into(),
                Value::Array(
                    outcomes
                        .iter()
                        .map(|w| json!({"value": serde_json::to_value(w.outcome).unwrap_or(Value::Null), "notation": w.outcome.to_string(), "weight": w.weight, "description": state.describe_chance(w.outcome)}))
                        .collect(),
                ),
            );
            if !args.json {
                outln!(
                    "{}: chance; {} outcomes, weights of {total}:",
                    rules,
                    outcomes.len()
                );
                for w in &outcomes {
                    outln!(
                        "  {:<6} {:>6}/{total}  {}",
                        w.outcome.to_string(),
                        w.weight,
                        state.describe_chance(w.outcome)
                    );
                }
            }
        }
        Turn::Player(p) => {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            out.insert("turn".into(), json!("player"));
            out.insert("player".into(), json!(rules.seat_name(p)));
            out.insert(
                "moves".into(),
                Value::Array(
                    moves
                        .iter()
                        .map(|m| {
                            let mut v = serde_json::to_value(m).unwrap_or(Value::Null);
                            if let Value::Object(o) = &mut v {
                                o.insert("move".into(), json!(m.to_string()));
                                o.insert("description".into(), json!(state.describe_move(*m)));
                            }
                            v
                        })
                        .collect(),
                ),
            );
            if !args.json {
                outln!(
                    "{}: {} to move; {} legal decisions:",
                    rules,
                    rules.seat_name(p),
                    moves.len()
                );
                for m in &moves {
                    outln!("  {:<14} {}", m.to_string(), state.describe_move(*m));
                }
            }
        }
        Turn::Over(o) => {
            out.insert("turn".into(), json!("over"));
            out.insert("outcome".into(), serde_json::to_value(o)?);
            if !args.json {
                let result = o.winner.map_or("no winner".to_string(), |w| {
                    format!("{} wins", rules.seat_name(w))
                });
                outln!(
                    "{}: the game is over: {result} ({}{})",
                    rules,
                    o.reason.describe(),
                    if o.is_truncated() { ", truncated" } else { "" }
                );
            }
        }
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&Value::Object(out))?);
    }
    Ok(ExitCode::SUCCESS)
}

pub fn apply(args: &ApplyArgs) -> Result<ExitCode> {
    let any = parse_ruleset(&args.ruleset)?;
    with_ruleset!(&any, r => apply_in(r, args))
}

fn apply_in<R: Ruleset>(rules: &R, args: &ApplyArgs) -> Result<ExitCode> {
    let mut state = state_at(rules, args.position.as_deref())?;
    for (i, text) in args.actions.iter().enumerate() {
        let n = i + 1;
        let fail = |e: &dyn std::fmt::Display| anyhow!("action {n} '{text}': {e}");
        match state.turn() {
            Turn::Over(o) => {
                return Err(fail(&format!(
                    "the game is already over ({})",
                    o.reason.describe()
                )));
            }
            Turn::Chance => {
                let c = state.parse_chance(text).map_err(|e| fail(&e))?;
                state.apply_chance_unchecked(c);
            }
            Turn::Player(_) => {
                let m = state.parse_move(text).map_err(|e| fail(&e))?;
                state.play_unchecked(m);
            }
        }
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&state)?);
    } else {
        outln!("{}", state.position_id());
        let next = match state.turn() {
            Turn::Over(o) => format!("the game is over ({})", o.reason.describe()),
            Turn::Chance => "a throw is due".into(),
            Turn::Player(_) => format!("{} to move", actor_name(&state).unwrap_or("?")),
        };
        eprintln!("{next}");
    }
    Ok(ExitCode::SUCCESS)
}

pub fn perft(args: &PerftArgs) -> Result<ExitCode> {
    if args.depth == 0 || args.depth > 64 {
        bail!("--depth must be from 1 to 64");
    }
    let any = parse_ruleset(&args.ruleset)?;
    with_ruleset!(&any, r => perft_in(r, args))
}

fn perft_in<R: Ruleset>(rules: &R, args: &PerftArgs) -> Result<ExitCode> {
    let state = state_at(rules, args.position.as_deref())?;
    let mut rows = Vec::new();
    for d in 1..=args.depth {
        let start = Instant::now();
        let (nodes, weighted) = perft_weighted(&state, d);
        let seconds = start.elapsed().as_secs_f64();
        if !args.json {
            outln!("perft {d} {nodes}   weighted {weighted}   ({seconds:.3} s)");
        }
        rows.push(json!({"depth": d, "nodes": nodes, "weighted": weighted.to_string(), "seconds": seconds}));
    }
    if args.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(
                &json!({"ruleset": rules.to_string(), "position": state.position_id(), "perft": rows})
            )?
        );
    }
    Ok(ExitCode::SUCCESS)
}
