//! The arena job: a round robin whose units are the game pairs of its pairings.

use qasab_core::{Ruleset, with_ruleset};
use serde::{Deserialize, Serialize};

use std::path::Path;
use std::sync::Arc;

use super::chunk::{
    ChunkResult, JobError, JobTables, chain, concat, parse_ruleset, pretty, refuse,
};
use crate::play::arena::{
    ArenaError, ArenaOptions, ArenaReport, GameResult, labels, pairings, play_units,
    units_by_pairing,
};
use crate::players::{Playable, PreparedAgent};
use crate::search::endgame::TableSet;
use crate::spec::{AgentError, AgentSpec, split_specs};

/// A round robin, as `qasab arena RULESET --players ... --games N --seed S` asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaJob {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// The player specs, as given (each word split at its top-level commas).
    pub players: Vec<String>,
    /// Games per pairing.
    pub games: u64,
    /// The arena seed.
    pub seed: u64,
    /// The endgame tables every player consults, if any (`--tables`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables: Option<JobTables>,
}

impl ArenaJob {
    /// The round robin of `players` (words, each split at its top-level commas) on `ruleset`,
    /// checked as `qasab arena` checks it (`threads` only against its limit).
    ///
    /// # Errors
    /// [`JobError::Arguments`] with the command's message.
    pub fn new(
        ruleset: &str,
        players: &[String],
        games: u64,
        seed: u64,
        threads: usize,
    ) -> Result<ArenaJob, JobError> {
        let rules = parse_ruleset(ruleset)?;
        let specs: Vec<String> = players.iter().flat_map(|p| split_specs(p)).collect();
        let options = ArenaOptions {
            games_per_pairing: games,
            seed,
            threads,
        };
        options.check(specs.len()).map_err(arena_error)?;
        let job = ArenaJob {
            ruleset: rules.to_string(),
            players: specs,
            games,
            seed,
            tables: None,
        };
        with_ruleset!(&rules, r => job.check(r).map(|_| ()))?;
        Ok(job)
    }

    /// The same job with every player consulting the endgame tables of its ruleset in `dir`
    /// (as `qasab arena --tables DIR`).
    ///
    /// # Errors
    /// [`JobError::Arguments`] if the directory cannot be read, holds a damaged table, or
    /// holds no table of the ruleset.
    pub fn with_tables(mut self, dir: &Path) -> Result<ArenaJob, JobError> {
        self.tables = Some(JobTables::find(dir, &parse_ruleset(&self.ruleset)?)?);
        Ok(self)
    }

    fn options(&self) -> ArenaOptions {
        ArenaOptions {
            games_per_pairing: self.games,
            seed: self.seed,
            threads: 1,
        }
    }

    /// Reads every player's spec, without preparing it (as `qasab arena` checks them before
    /// the games): the specs in canonical form.
    fn check<R: Ruleset>(&self, rules: &R) -> Result<Vec<AgentSpec>, JobError>
    where
        R::State: Playable,
    {
        self.each_player(|s| PreparedAgent::<R::State>::check(s, rules))
    }

    fn prepare<R: Ruleset>(&self, rules: &R) -> Result<Vec<PreparedAgent<R::State>>, JobError>
    where
        R::State: Playable,
    {
        self.each_player(|s| PreparedAgent::<R::State>::new(s, rules))
    }

    /// `read` of every player's spec, in order; the first spec it refuses is reported with
    /// the player's number, as `qasab arena` reports it.
    fn each_player<T>(
        &self,
        read: impl Fn(&str) -> Result<T, AgentError>,
    ) -> Result<Vec<T>, JobError> {
        self.players
            .iter()
            .enumerate()
            .map(|(i, s)| read(s).map_err(|e| player_error(i, s, e)))
            .collect()
    }

    /// The number of units: the game pairs of every pairing.
    pub(super) fn units(&self) -> u64 {
        pairings(self.players.len()).len() as u64 * (self.games / 2)
    }

    /// Plays units `first .. first + count`.
    pub(super) fn run(&self, first: u64, count: u64) -> Result<ChunkResult, JobError> {
        let rules = parse_ruleset(&self.ruleset)?;
        let tables = self.tables.as_ref().map(|t| t.open(&rules)).transpose()?;
        with_ruleset!(&rules, r => self.run_in(r, tables.as_ref(), first, count))
    }

    fn run_in<R: Ruleset>(
        &self,
        rules: &R,
        tables: Option<&Arc<TableSet>>,
        first: u64,
        count: u64,
    ) -> Result<ChunkResult, JobError>
    where
        R::State: Playable,
    {
        let players: Vec<PreparedAgent<R::State>> = self
            .prepare(rules)?
            .into_iter()
            .map(|p| p.with_tables(tables))
            .collect();
        play_units(rules, &players, &self.options(), first..first + count)
            .map(ChunkResult::Arena)
            .map_err(arena_error)
    }

    /// The arena's JSON (`qasab arena --json`) from the results of chunks that cover it, in
    /// order; a chunk of another kind is refused as one of another command than `command`.
    pub(super) fn merge(
        &self,
        chunks: Vec<(u64, ChunkResult)>,
        command: &str,
    ) -> Result<String, JobError> {
        let units = concat(chunks, command, |r| match r {
            ChunkResult::Arena(v) => Some(v),
            _ => None,
        })?;
        let rules = parse_ruleset(&self.ruleset)?;
        let mut report = with_ruleset!(&rules, r => self.report(r, &units))?;
        if let Some(t) = &self.tables {
            report.tables.clone_from(&t.files);
        }
        Ok(pretty(&report))
    }

    fn report<R: Ruleset>(
        &self,
        rules: &R,
        units: &[[GameResult; 2]],
    ) -> Result<ArenaReport, JobError>
    where
        R::State: Playable,
    {
        let specs = self.check(rules)?;
        ArenaReport::new(
            self.ruleset.clone(),
            labels(&specs),
            self.games,
            self.seed,
            &units_by_pairing(units, self.games),
        )
        .map_err(arena_error)
    }
}

fn player_error(i: usize, spec: &str, source: AgentError) -> JobError {
    arena_error(ArenaError::Player {
        number: i + 1,
        spec: spec.to_string(),
        source: Box::new(source),
    })
}

/// An arena error as `qasab arena` prints it: the flag it is about, then the message.
fn arena_error(err: ArenaError) -> JobError {
    match err.flag() {
        Some(flag) => refuse(format!("{flag}: {err}")),
        None => refuse(chain(&err)),
    }
}
