//! `qasab moves`, `qasab apply` and `qasab perft`: working with position ids.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, anyhow, bail};
use qasab_core::perft::perft_weighted;
use qasab_core::{AnyRuleset, AnyState, GameState, ParseActionError, Turn, with_state};
use serde_json::{Value, json};

use super::parse_ruleset;
use crate::cli::{ApplyArgs, MovesArgs, PerftArgs};

/// The state at `--position`, or the start.
fn state_at(rules: &AnyRuleset, position: Option<&str>) -> Result<AnyState> {
    match position {
        None => Ok(rules.initial_state()),
        Some(id) => Ok(rules.state_from_id(id)?),
    }
}

pub fn moves(args: &MovesArgs) -> Result<ExitCode> {
    let rules = parse_ruleset(&args.ruleset)?;
    let state = state_at(&rules, args.position.as_deref())?;
    let mut out = serde_json::Map::new();
    out.insert("ruleset".into(), json!(rules.to_string()));
    out.insert("position".into(), json!(state.position_id()));
    let (denominator, legal) = state.legal_actions();
    match state.turn() {
        Turn::Chance => {
            let total = denominator.unwrap_or_default();
            out.insert("turn".into(), json!("chance"));
            out.insert("denominator".into(), json!(total));
            out.insert(
                "outcomes".into(),
                Value::Array(
                    legal
                        .iter()
                        .map(|&(a, weight)| json!({"value": serde_json::to_value(a).unwrap_or(Value::Null), "notation": a.to_string(), "weight": weight, "description": state.describe(a)}))
                        .collect(),
                ),
            );
            if !args.json {
                outln!(
                    "{}: chance; {} outcomes, weights of {total}:",
                    rules,
                    legal.len()
                );
                for &(a, weight) in &legal {
                    outln!(
                        "  {:<6} {:>6}/{total}  {}",
                        a.to_string(),
                        weight.unwrap_or_default(),
                        state.describe(a)
                    );
                }
            }
        }
        Turn::Player(p) => {
            out.insert("turn".into(), json!("player"));
            out.insert("player".into(), json!(rules.seat_name(p)));
            out.insert(
                "moves".into(),
                Value::Array(
                    legal
                        .iter()
                        .map(|&(m, _)| {
                            let mut v = serde_json::to_value(m).unwrap_or(Value::Null);
                            if let Value::Object(o) = &mut v {
                                o.insert("move".into(), json!(m.to_string()));
                                o.insert("description".into(), json!(state.describe(m)));
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
                    legal.len()
                );
                for &(m, _) in &legal {
                    outln!("  {:<14} {}", m.to_string(), state.describe(m));
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
    let rules = parse_ruleset(&args.ruleset)?;
    let mut state = state_at(&rules, args.position.as_deref())?;
    for (i, text) in args.actions.iter().enumerate() {
        let n = i + 1;
        state.apply_text(text).map_err(|e| {
            let why = match e {
                ParseActionError::Over(o) => {
                    format!("the game is already over ({})", o.reason.describe())
                }
                e => e.to_string(),
            };
            anyhow!("action {n} '{text}': {why}")
        })?;
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&state)?);
    } else {
        outln!("{}", state.position_id());
        let next = match state.turn() {
            Turn::Over(o) => format!("the game is over ({})", o.reason.describe()),
            Turn::Chance => "a throw is due".into(),
            Turn::Player(_) => format!("{} to move", state.actor().unwrap_or("?")),
        };
        eprintln!("{next}");
    }
    Ok(ExitCode::SUCCESS)
}

pub fn perft(args: &PerftArgs) -> Result<ExitCode> {
    if args.depth == 0 || args.depth > 64 {
        bail!("--depth must be from 1 to 64");
    }
    let rules = parse_ruleset(&args.ruleset)?;
    let any = state_at(&rules, args.position.as_deref())?;
    with_state!(&any, state => perft_in(&rules, state, args))
}

fn perft_in<S: GameState>(rules: &AnyRuleset, state: &S, args: &PerftArgs) -> Result<ExitCode> {
    let mut rows = Vec::new();
    for d in 1..=args.depth {
        let start = Instant::now();
        let (nodes, weighted) = perft_weighted(state, d);
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
