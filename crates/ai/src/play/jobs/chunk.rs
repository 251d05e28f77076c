//! What every kind of job shares: its errors, with the messages the commands print, the
//! results of its chunks, and the check that chunks cover a job before they are merged.

use std::error::Error;
use std::path::Path;
use std::sync::Arc;

use qasab_core::AnyRuleset;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::play::arena::GameResult;
use crate::play::simulate::GameSummary;
use crate::play::study::ChunkGames;
use crate::search::endgame::TableSet;

/// Why a job cannot be made, played or merged. The message is the one the command prints after
/// `error: `.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum JobError {
    /// The arguments are refused, as the command refuses them.
    #[error("{0}")]
    Arguments(String),
    /// A chunk's range or results do not fit the job.
    #[error("{0}")]
    Chunks(String),
}

/// An error and its causes as `qasab` prints them (`error: {err:#}` of `anyhow`): each message,
/// joined by `: `.
pub(super) fn chain(err: &dyn Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

pub(super) fn refuse(message: impl Into<String>) -> JobError {
    JobError::Arguments(message.into())
}

pub(super) fn parse_ruleset(text: &str) -> Result<AnyRuleset, JobError> {
    text.parse::<AnyRuleset>().map_err(|e| refuse(chain(&e)))
}

/// What a chunk of a job played: per unit, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChunkResult {
    /// A's result in both games of each game pair.
    Arena(Vec<[GameResult; 2]>),
    /// Each game's summary.
    Simulate(Vec<GameSummary>),
    /// Each study chunk's games.
    Study(Vec<ChunkGames>),
}

impl ChunkResult {
    /// The number of units.
    pub fn len(&self) -> usize {
        match self {
            ChunkResult::Arena(v) => v.len(),
            ChunkResult::Simulate(v) => v.len(),
            ChunkResult::Study(v) => v.len(),
        }
    }

    /// Whether it holds no unit.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The endgame tables a job's players consult (`--tables DIR`): the directory, made absolute
/// so that every machine of a cluster opens the same path, and the table files found there
/// when the job was made. A machine that finds other files there refuses to play, so that
/// every game of the job is played with the same tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobTables {
    /// The directory.
    pub dir: String,
    /// The files of the job's ruleset in it, in the order they are searched.
    pub files: Vec<String>,
}

impl JobTables {
    /// The tables of `rules` in `dir`, checked as `--tables` checks them; refused if there is
    /// none.
    pub(super) fn find(dir: &Path, rules: &AnyRuleset) -> Result<JobTables, JobError> {
        let dir = std::fs::canonicalize(dir)
            .map_err(|e| refuse(format!("--tables: {}: {e}", dir.display())))?;
        let set = open(&dir, rules)?;
        let files: Vec<String> = set.files().map(str::to_string).collect();
        if files.is_empty() {
            return Err(refuse(format!(
                "--tables: no endgame table of {rules} in {}",
                dir.display()
            )));
        }
        Ok(JobTables {
            dir: dir.display().to_string(),
            files,
        })
    }

    /// Opens the tables to play with (each file checked), refused if the directory no longer
    /// holds the files the job was made with.
    pub(super) fn open(&self, rules: &AnyRuleset) -> Result<Arc<TableSet>, JobError> {
        let set = open(Path::new(&self.dir), rules)?;
        let files: Vec<&str> = set.files().collect();
        if files != self.files.iter().map(String::as_str).collect::<Vec<_>>() {
            return Err(refuse(format!(
                "--tables: {} holds {} where the job was made with {}",
                self.dir,
                list(&files),
                list(&self.files.iter().map(String::as_str).collect::<Vec<_>>())
            )));
        }
        Ok(Arc::new(set))
    }

    /// Adds the files to a command's JSON report as `tables`, as the command does.
    pub(super) fn note(&self, report: &mut serde_json::Value) {
        report["tables"] = serde_json::json!(self.files);
    }
}

fn open(dir: &Path, rules: &AnyRuleset) -> Result<TableSet, JobError> {
    TableSet::open_dir(dir, rules).map_err(|e| refuse(format!("--tables: {e}")))
}

fn list(files: &[&str]) -> String {
    if files.is_empty() {
        "no table".into()
    } else {
        files.join(", ")
    }
}

/// A report as pretty JSON, as the commands print it.
pub(super) fn pretty<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("a report serialises")
}

/// Sorts `chunks` (`(first, result)`) by their first unit and checks that they cover the `units`
/// units of a job exactly once.
pub(super) fn check_cover(chunks: &mut [(u64, ChunkResult)], units: u64) -> Result<(), JobError> {
    chunks.sort_by_key(|(first, _)| *first);
    let mut next = 0u64;
    for (first, r) in chunks.iter() {
        if *first != next {
            return Err(JobError::Chunks(format!(
                "the chunks do not cover the job: unit {next} is {}",
                if *first > next { "missing" } else { "repeated" }
            )));
        }
        next += r.len() as u64;
    }
    if next != units {
        return Err(JobError::Chunks(format!(
            "the chunks cover {next} of the job's {units} units"
        )));
    }
    Ok(())
}

/// The error for a chunk of another command than `command`.
pub(super) fn wrong_command(command: &str) -> JobError {
    JobError::Chunks(format!("a chunk of another command than {command}"))
}

/// The units of `chunks`, in order, one after another: `take` takes each chunk's out of its
/// result, or refuses it as a chunk of another command than `command`.
pub(super) fn concat<T>(
    chunks: Vec<(u64, ChunkResult)>,
    command: &str,
    take: impl Fn(ChunkResult) -> Option<Vec<T>>,
) -> Result<Vec<T>, JobError> {
    let mut all = Vec::new();
    for (_, r) in chunks {
        all.extend(take(r).ok_or_else(|| wrong_command(command))?);
    }
    Ok(all)
}
