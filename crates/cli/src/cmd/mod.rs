//! The subcommands.

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::{Cli, Command};

mod analyse;
mod arena;
mod bench;
mod ludii_replay;
mod play;
mod position;
mod replay;
mod rules;
mod serve;
mod simulate;
mod solve;
mod study;
mod train;

/// Runs one command.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Rules { ruleset } => rules::run(ruleset.as_deref()),
        Command::Play(args) => play::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Arena(args) => arena::run(&args),
        Command::Study(args) => study::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Analyse(args) => analyse::run(&args),
        Command::Replay { file, quiet } => replay::run(&file, quiet),
        Command::Solve(args) => solve::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Moves(args) => position::moves(&args),
        Command::Apply(args) => position::apply(&args),
        Command::Perft(args) => position::perft(&args),
        Command::LudiiReplay { trace, json } => ludii_replay::run(&trace, json),
    }
}

/// Reads a game record file and its ruleset; errors name the file and the line.
pub fn read_record(
    file: &std::path::Path,
) -> Result<(qasab_core::record::Record, qasab_core::AnyRuleset)> {
    use anyhow::{Context, anyhow};
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let at = |e: &dyn std::fmt::Display| anyhow!("{}: {e}", file.display());
    let record = qasab_core::record::Record::parse(&text).map_err(|e| at(&e))?;
    let any = record
        .ruleset
        .parse()
        .map_err(|e| at(&format!("line {}: {e}", record.ruleset_line)))?;
    Ok((record, any))
}

/// Reads a ruleset string, with the error message the core gives.
pub fn parse_ruleset(s: &str) -> Result<qasab_core::AnyRuleset> {
    Ok(s.parse::<qasab_core::AnyRuleset>()?)
}

/// Splits a comma-separated list of specs, keeping commas inside parentheses:
/// `random(seed=1),solver` → `["random(seed=1)", "solver"]`.
pub fn split_specs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::split_specs;

    #[test]
    fn specs_split_at_top_level_commas() {
        assert_eq!(split_specs("random,solver"), vec!["random", "solver"]);
        assert_eq!(
            split_specs("random(seed=1,x=2), solver"),
            vec!["random(seed=1,x=2)", "solver"]
        );
        assert_eq!(split_specs("random"), vec!["random"]);
    }
}
