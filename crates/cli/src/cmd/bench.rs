//! `qasab bench`.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Result, bail};
use qasab_ai::Solver;
use qasab_ai::play::bench::{bench_playouts, bench_search, decision_positions};
use qasab_ai::players::{Playable, STRONGEST};
use qasab_ai::search::solver::solvable;
use qasab_ai::spec::AgentSpec;
use qasab_core::{AnyRuleset, Ruleset, with_ruleset};
use serde_json::{Value, json};

use super::parse_ruleset;
use crate::cli::BenchArgs;

pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    if !(args.seconds > 0.0 && args.seconds <= 600.0) {
        bail!("--seconds must be between 0 and 600");
    }
    let rulesets = match &args.ruleset {
        Some(s) => vec![parse_ruleset(s)?],
        None => AnyRuleset::presets(),
    };
    if args.search {
        return search(args, &rulesets);
    }
    let time = Duration::from_secs_f64(args.seconds);
    let mut results = Vec::new();
    for any in &rulesets {
        let b = with_ruleset!(any, r => bench_playouts(r, args.seed, time));
        let mut v = serde_json::to_value(&b)?;
        if let Some(r) = solvable(any) {
            // The best of three solves, to keep noise from other processes out.
            let solves: Vec<Solver> = (0..3).map(|_| Solver::new(*r)).collect::<Result<_, _>>()?;
            let best = solves
                .iter()
                .map(|s| s.seconds())
                .fold(f64::INFINITY, f64::min);
            v["solver_seconds"] = json!(best);
            v["solver_states"] = json!(solves[0].states());
        }
        if !args.json {
            print_line(&v)?;
        }
        results.push(v);
    }
    print_json(args, results)
}

/// With --json, the rows as one array; each row was printed as text as it came otherwise.
fn print_json(args: &BenchArgs, results: Vec<Value>) -> Result<ExitCode> {
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&Value::Array(results))?);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_line(v: &Value) -> Result<()> {
    outln!("{}", v["ruleset"].as_str().unwrap_or("?"));
    outln!(
        "  random playouts: {:.0}/s on one thread, {:.0}/s on {} threads; {:.1} ns per action, {:.1} actions per game",
        v["playouts_per_second"].as_f64().unwrap_or(0.0),
        v["playouts_per_second_all_threads"].as_f64().unwrap_or(0.0),
        v["threads"],
        v["ns_per_action"].as_f64().unwrap_or(0.0),
        v["mean_actions"].as_f64().unwrap_or(0.0),
    );
    if let Some(s) = v.get("solver_seconds").and_then(Value::as_f64) {
        outln!(
            "  solver: {} states in {:.2} ms",
            v["solver_states"],
            s * 1000.0
        );
    }
    Ok(())
}

/// `qasab bench --search`: each ruleset's player, on one search thread and on all.
fn search(args: &BenchArgs, rulesets: &[AnyRuleset]) -> Result<ExitCode> {
    if !(1..=10_000).contains(&args.positions) {
        bail!("--positions must be from 1 to 10000");
    }
    let player = args.player.as_deref().unwrap_or(STRONGEST);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mut results = Vec::new();
    for any in rulesets {
        let rows = with_ruleset!(any, r => measure(r, player, cores, args))
            .map_err(|e| anyhow::anyhow!("--player {player}: {any}: {e}"))?;
        if !args.json {
            print_search(&rows)?;
        }
        results.extend(rows);
    }
    print_json(args, results)
}

/// The rows of one ruleset over the same positions: the player of `player`, then, where its
/// spec (`strongest` read as the ruleset's default) sets no `threads=`, the same with
/// `threads=cores` if it has that option.
fn measure<R: Ruleset>(
    rules: &R,
    player: &str,
    cores: usize,
    args: &BenchArgs,
) -> Result<Vec<Value>, String>
where
    R::State: Playable,
{
    let positions = decision_positions(rules, args.positions, args.seed);
    let first = bench_search(rules, player, &positions, args.seed).map_err(|e| e.to_string())?;
    let mut specs = Vec::new();
    let spec = AgentSpec::parse(&first.player).map_err(|e| e.to_string())?;
    if cores > 1 && spec.get("threads").is_none() {
        let mut all = spec;
        all.options.push(("threads".into(), cores.to_string()));
        specs.push(all.to_string());
    }
    let mut rows = vec![first];
    for spec in specs {
        // A player without threads= refuses it: it is measured once.
        if let Ok(row) = bench_search(rules, &spec, &positions, args.seed) {
            rows.push(row);
        }
    }
    rows.iter()
        .map(|r| serde_json::to_value(r).map_err(|e| e.to_string()))
        .collect()
}

fn print_search(rows: &[Value]) -> Result<()> {
    for (k, v) in rows.iter().enumerate() {
        if k == 0 {
            outln!("{}", v["ruleset"].as_str().unwrap_or("?"));
        }
        let mut line = format!(
            "  {} ({} thread{}): {} decisions, median {:.1} ms (mean {:.1}, longest {:.1})",
            v["player"].as_str().unwrap_or("?"),
            v["threads"],
            if v["threads"] == 1 { "" } else { "s" },
            v["decisions"],
            v["decision_ms_median"].as_f64().unwrap_or(0.0),
            v["decision_ms_mean"].as_f64().unwrap_or(0.0),
            v["decision_ms_max"].as_f64().unwrap_or(0.0),
        );
        if let Some(it) = v["iterations_per_second"].as_f64() {
            let _ = write!(line, "; {it:.0} iterations/s");
        }
        let evals = v["network_evaluations_per_second"].as_f64().unwrap_or(0.0);
        if evals > 0.0 {
            let _ = write!(line, "; {evals:.0} network evaluations/s");
        }
        outln!("{line}");
    }
    Ok(())
}
