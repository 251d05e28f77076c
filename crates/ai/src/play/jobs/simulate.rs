//! The simulate job: games between two players, one game a unit.

use qasab_core::{Player, Ruleset, with_ruleset};
use serde::{Deserialize, Serialize};

use std::path::Path;
use std::sync::Arc;

use super::chunk::{ChunkResult, JobError, JobTables, concat, parse_ruleset, pretty, refuse};
use crate::play::simulate::{MAX_GAMES as MAX_SIMULATED, SimulationReport, simulate_range};
use crate::players::{Playable, PreparedAgent};
use crate::search::endgame::TableSet;
use crate::spec::split_specs;

/// A simulation, as `qasab simulate RULESET --players A,B --games N --seed S` asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimulateJob {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// The two player specs, in seat order.
    pub players: [String; 2],
    /// Games.
    pub games: u64,
    /// The seed.
    pub seed: u64,
    /// The endgame tables both players consult, if any (`--tables`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tables: Option<JobTables>,
}

impl SimulateJob {
    /// The simulation of `players` (`A,B`, in seat order) on `ruleset`, checked as `qasab
    /// simulate` checks it.
    ///
    /// # Errors
    /// [`JobError::Arguments`] with the command's message.
    pub fn new(
        ruleset: &str,
        players: &str,
        games: u64,
        seed: u64,
    ) -> Result<SimulateJob, JobError> {
        let rules = parse_ruleset(ruleset)?;
        let specs = split_specs(players);
        let Ok(players) = <[String; 2]>::try_from(specs) else {
            return Err(refuse(format!(
                "--players needs two players separated by a comma, e.g. random,solver; got {}",
                split_specs(players).len()
            )));
        };
        if !(1..=MAX_SIMULATED).contains(&games) {
            return Err(refuse(format!("--games must be from 1 to {MAX_SIMULATED}")));
        }
        let job = SimulateJob {
            ruleset: rules.to_string(),
            players,
            games,
            seed,
            tables: None,
        };
        with_ruleset!(&rules, r => job.check(r))?;
        Ok(job)
    }

    /// The same job with both players consulting the endgame tables of its ruleset in `dir`
    /// (as `qasab simulate --tables DIR`).
    ///
    /// # Errors
    /// [`JobError::Arguments`] if the directory cannot be read, holds a damaged table, or
    /// holds no table of the ruleset.
    pub fn with_tables(mut self, dir: &Path) -> Result<SimulateJob, JobError> {
        self.tables = Some(JobTables::find(dir, &parse_ruleset(&self.ruleset)?)?);
        Ok(self)
    }

    /// Checks both specs, so that a typo fails at once.
    fn check<R: Ruleset>(&self, rules: &R) -> Result<(), JobError>
    where
        R::State: Playable,
    {
        for (p, s) in Player::ALL.iter().zip(&self.players) {
            PreparedAgent::<R::State>::new(s, rules)
                .map_err(|e| refuse(format!("{} player: {e}", rules.seat_name(*p))))?;
        }
        Ok(())
    }

    fn specs(&self) -> [&str; 2] {
        [self.players[0].as_str(), self.players[1].as_str()]
    }

    /// Plays games `first .. first + count`.
    pub(super) fn run(&self, first: u64, count: u64) -> Result<ChunkResult, JobError> {
        let rules = parse_ruleset(&self.ruleset)?;
        let tables = self.tables.as_ref().map(|t| t.open(&rules)).transpose()?;
        with_ruleset!(&rules, r => self.run_in(r, tables.as_ref(), first, count))
    }

    /// The simulation's JSON (`qasab simulate --json`) from the results of chunks that cover
    /// it, in order, with `seconds` and `threads` as the run's; a chunk of another kind is
    /// refused as one of another command than `command`.
    pub(super) fn merge(
        &self,
        chunks: Vec<(u64, ChunkResult)>,
        command: &str,
        seconds: f64,
        threads: usize,
    ) -> Result<String, JobError> {
        let games = concat(chunks, command, |r| match r {
            ChunkResult::Simulate(v) => Some(v),
            _ => None,
        })?;
        let rules = parse_ruleset(&self.ruleset)?;
        let mut value = with_ruleset!(&rules, r => SimulationReport::new(
            r,
            self.players.clone(),
            self.seed,
            &games,
            seconds,
        )
        .to_json(r, threads));
        if let Some(t) = &self.tables {
            t.note(&mut value);
        }
        Ok(pretty(&value))
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
        simulate_range::<R::State>(rules, self.specs(), tables, self.seed, first..first + count)
            .map(ChunkResult::Simulate)
            .map_err(|e| refuse(e.to_string()))
    }
}
