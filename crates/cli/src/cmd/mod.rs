//! The subcommands.

use std::process::ExitCode;

use anyhow::Result;

use crate::cli::{Cli, Command};

mod analyse;
mod arena;
mod bench;
mod endgame;
mod ludii_replay;
mod play;
mod position;
mod replay;
mod rules;
mod serve;
mod simulate;
mod solve;
mod stalls;
mod study;
mod tables;
mod train;

/// Runs one command.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Rules { ruleset } => rules::run(ruleset.as_deref()),
        Command::Play(args) => play::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Arena(args) => arena::run(&args),
        Command::ArenaMerge(args) => arena::merge(&args),
        Command::Study(args) => study::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Analyse(args) => analyse::run(&args),
        Command::Replay { file, quiet } => replay::run(&file, quiet),
        Command::Solve(args) => solve::run(&args),
        Command::Endgame(cmd) => endgame::run(cmd),
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
