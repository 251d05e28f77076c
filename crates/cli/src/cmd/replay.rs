//! `qasab replay`.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow};
use qasab_core::record::{Record, actor_name, replay};
use qasab_core::{Action, AnyRuleset, GameState, Ruleset, with_ruleset};

pub fn run(file: &Path, quiet: bool) -> Result<ExitCode> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let at = |e: &dyn std::fmt::Display| anyhow!("{}: {e}", file.display());
    let record = Record::parse(&text).map_err(|e| at(&e))?;
    let any: AnyRuleset = record
        .ruleset
        .parse()
        .map_err(|e| at(&format!("line {}: {e}", record.ruleset_line)))?;
    with_ruleset!(&any, r => show(r, file, &record, quiet))
}

fn show<R: Ruleset>(rules: &R, file: &Path, record: &Record, quiet: bool) -> Result<ExitCode> {
    let replayed = replay::<R::State>(record).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    if !quiet {
        outln!("{rules}");
        for (k, v) in &record.info {
            outln!("  {k}: {v}");
        }
        let mut state = rules.initial_state();
        for (i, a) in replayed.actions.iter().enumerate() {
            let actor = actor_name(&state).unwrap_or("?");
            match a {
                Action::Move(m) => {
                    outln!("{:>4}. {actor} {m}: {}", i + 1, state.describe_move(*m))
                }
                Action::Chance(c) => outln!("{:>4}. chance {c}", i + 1),
            }
            state.try_apply(*a)?;
        }
        out!("{}", state.render());
    }
    let result = match replayed.state.turn().outcome() {
        Some(_) => "complete".to_string(),
        None => "unfinished".to_string(),
    };
    outln!(
        "Record valid: {} actions, game {result}.",
        replayed.actions.len()
    );
    Ok(ExitCode::SUCCESS)
}
