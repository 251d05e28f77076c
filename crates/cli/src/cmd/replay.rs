//! `qasab replay`.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use qasab_core::record::{Record, actor_name, replay};
use qasab_core::{Action, GameState, Ruleset, with_ruleset};

pub fn run(file: &Path, quiet: bool) -> Result<ExitCode> {
    let (record, any) = super::read_record(file)?;
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
            // The record's actions were checked by `replay`.
            state.apply_unchecked(*a);
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
