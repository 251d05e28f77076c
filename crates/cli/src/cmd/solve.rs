//! `qasab solve`: exact values of Tihbat.

use std::process::ExitCode;

use anyhow::{Result, bail};
use qasab_ai::Solver;
use qasab_ai::search::solver::solvable;
use qasab_core::tihbat::{MAX_SEEDS, Ruleset, State};
use qasab_core::{GameState, Ruleset as _};
use serde::Serialize;

use super::parse_ruleset;
use crate::cli::SolveArgs;

/// The JSON report of one solve.
#[derive(Serialize)]
struct Report {
    ruleset: String,
    position: String,
    side_to_move: &'static str,
    value: i32,
    moves: Vec<MoveValue>,
    best: Vec<String>,
    states: u64,
    seconds: f64,
}

#[derive(Serialize)]
struct MoveValue {
    #[serde(rename = "move")]
    mv: String,
    value: i32,
}

pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    let any = parse_ruleset(&args.ruleset)?;
    let Some(&rules) = solvable(&any) else {
        bail!(
            "solve works only for tihbat; {} has too many positions to solve exactly (use simulate or a computer player)",
            any.name()
        );
    };
    if let Some(range) = &args.sweep {
        let (a, b) = parse_range(range)?;
        let reports: Vec<Report> = (a..=b)
            .map(|seeds| solve_start(Ruleset { seeds, ..rules }))
            .collect::<Result<_>>()?;
        if args.json {
            outln!("{}", serde_json::to_string_pretty(&reports)?);
        } else {
            outln!(
                "{:>5} {:>6}  {:<18} {:>9} {:>9}",
                "seeds",
                "value",
                "best first moves",
                "states",
                "seconds"
            );
            for (seeds, r) in (a..=b).zip(&reports) {
                outln!(
                    "{seeds:>5} {:>+6}  {:<18} {:>9} {:>9.4}",
                    r.value,
                    r.best.join(" "),
                    r.states,
                    r.seconds
                );
            }
            outln!(
                "value: future captures of the first player minus the second's, with perfect play ({}).",
                rules_without_seeds(&rules)
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let report = match &args.position {
        None => solve_start(rules)?,
        // The id is read as `moves` and `apply` read it: in full (the moves played and the
        // repetition history, which the values depend on) and checked.
        Some(id) => solve_state(rules, &rules.state_from_id(id)?)?,
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        outln!("{}  position {}", report.ruleset, report.position);
        if report.moves.is_empty() {
            outln!("The game is over at this position.");
        } else {
            outln!(
                "Value {:+} for {} (to move): future captures of the side to move minus the opponent's, with perfect play.",
                report.value,
                report.side_to_move
            );
            for m in &report.moves {
                let tag = if report.best.contains(&m.mv) {
                    "  best"
                } else {
                    ""
                };
                outln!("  {:<6} {:>+4}{tag}", m.mv, m.value);
            }
        }
        outln!(
            "{} states solved in {:.4} s.",
            report.states,
            report.seconds
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn rules_without_seeds(r: &Ruleset) -> String {
    Ruleset {
        seeds: Ruleset::default().seeds,
        ..*r
    }
    .to_string()
}

fn parse_range(s: &str) -> Result<(u8, u8)> {
    let parse = || -> Option<(u8, u8)> {
        let (a, b) = s.split_once("..")?;
        let b = b.strip_prefix('=').unwrap_or(b);
        Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
    };
    match parse() {
        Some((a, b)) if 1 <= a && a <= b && b <= MAX_SEEDS => Ok((a, b)),
        _ => bail!(
            "--sweep takes A..B with 1 <= A <= B <= {MAX_SEEDS} (both included), e.g. 1..20; got '{s}'"
        ),
    }
}

fn solve_start(rules: Ruleset) -> Result<Report> {
    solve_state(rules, &rules.initial_state())
}

fn solve_state(rules: Ruleset, state: &State) -> Result<Report> {
    let solver = Solver::new(rules)?;
    let pos = state.position();
    let moves: Vec<MoveValue> = if state.turn().player().is_some() {
        solver
            .move_values(state)?
            .into_iter()
            .map(|(m, v)| MoveValue {
                mv: m.to_string(),
                value: v,
            })
            .collect()
    } else {
        Vec::new()
    };
    let value = moves.iter().map(|m| m.value).max().unwrap_or(0);
    let best = moves
        .iter()
        .filter(|m| m.value == value)
        .map(|m| m.mv.clone())
        .collect();
    Ok(Report {
        ruleset: rules.to_string(),
        position: pos.to_string(),
        side_to_move: rules.seat_name(pos.to_move),
        value,
        moves,
        best,
        states: solver.states(),
        seconds: solver.seconds(),
    })
}
