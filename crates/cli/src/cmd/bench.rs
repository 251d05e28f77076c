//! `qasab bench`.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Result, bail};
use qasab_ai::Solver;
use qasab_ai::play::bench::bench_playouts;
use qasab_ai::search::solver::solvable;
use qasab_core::{AnyRuleset, with_ruleset};
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
