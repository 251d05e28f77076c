//! `qasab arena`, `qasab simulate` and `qasab study` as jobs of independent, seeded chunks, so
//! that their games can be played anywhere (on the threads of one machine, or on the machines
//! of a cluster, as `qasab.distributed` does) and give the same results.
//!
//! A [`Job`] is built from a command's arguments, checked as the command checks them and
//! refused with the command's own message ([`JobError`]), before any game is played. Its games
//! are numbered *units*:
//!
//! | job | unit | games in a unit |
//! |---|---|---|
//! | arena | a game pair of one pairing ([`crate::play::arena::play_units`]) | 2 |
//! | simulate | a game ([`crate::play::simulate::simulate_range`]) | 1 |
//! | study | a chunk of the study ([`crate::play::study::StudySpec::chunks`]) | up to 16 |
//!
//! [`Job::run`] plays units `first .. first + count`, each with the seeds that the
//! one-machine run gives it, and returns a [`ChunkResult`] (serialisable, to travel between
//! machines or to be kept on disk). [`Job::merge`] takes the results of chunks that cover every
//! unit once, in any order, and returns the JSON text the command prints with `--json`; only
//! the fields that describe the run rather than the games (`seconds` and `threads` of
//! `simulate`) depend on how it was played.

use std::collections::BTreeMap;
use std::error::Error;
use std::path::PathBuf;

use qasab_core::{AnyRuleset, Player, Ruleset, with_ruleset};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::play::arena::{
    ArenaError, ArenaOptions, ArenaReport, GameResult, labels, pairings, play_units,
    units_by_pairing,
};
use crate::play::simulate::{
    GameSummary, MAX_GAMES as MAX_SIMULATED, SimulationReport, simulate_range,
};
use crate::play::study::{
    ChunkGames, StudySpec, Variant, json_with_command, parse_axis, shell_words, solver_values, vary,
};
use crate::players::{Playable, PreparedAgent};
use crate::spec::{AgentSpec, split_specs};

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
fn chain(err: &dyn Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

fn refuse(message: impl Into<String>) -> JobError {
    JobError::Arguments(message.into())
}

fn parse_ruleset(text: &str) -> Result<AnyRuleset, JobError> {
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
}

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
}

/// A study's arguments, as `qasab study` takes them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StudyRequest {
    /// The base ruleset (or `variants`).
    pub ruleset: Option<String>,
    /// The `--vary KEY=V1,V2,...` axes.
    pub vary: Vec<String>,
    /// A file listing the variants, one ruleset string per line.
    pub variants: Option<PathBuf>,
    /// The two players, `A,B`.
    pub players: String,
    /// The skill check's players, `STRONG,WEAK`.
    pub skill: Option<String>,
    /// Games per variant.
    pub games: u64,
    /// Games per variant in the skill check (default: `games`).
    pub skill_games: Option<u64>,
    /// The study seed.
    pub seed: u64,
}

/// One variant of a study job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudyVariant {
    /// The canonical ruleset string.
    pub ruleset: String,
    /// The varied options' values, in the order of the axes.
    pub values: Vec<(String, String)>,
}

/// A study, as `qasab study` asks for it: its variants resolved, with the command line that
/// plays it on one machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StudyJob {
    /// The variants.
    pub variants: Vec<StudyVariant>,
    /// The two players of the main match.
    pub players: [String; 2],
    /// The strong and the weak player of the skill check.
    pub skill: Option<[String; 2]>,
    /// Games per variant.
    pub games: u64,
    /// Games per variant in the skill check.
    pub skill_games: u64,
    /// The study seed.
    pub seed: u64,
    /// The `command` of the study's JSON.
    pub command: String,
}

/// A job: what one of the three commands plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "job", rename_all = "lowercase")]
pub enum Job {
    /// `qasab arena`.
    Arena(ArenaJob),
    /// `qasab simulate`.
    Simulate(SimulateJob),
    /// `qasab study`.
    Study(StudyJob),
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
        };
        with_ruleset!(&rules, r => job.check(r).map(|_| ()))?;
        Ok(job)
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
        self.players
            .iter()
            .enumerate()
            .map(|(i, s)| {
                PreparedAgent::<R::State>::check(s, rules).map_err(|e| player_error(i, s, e))
            })
            .collect()
    }

    fn prepare<R: Ruleset>(&self, rules: &R) -> Result<Vec<PreparedAgent<R::State>>, JobError>
    where
        R::State: Playable,
    {
        self.players
            .iter()
            .enumerate()
            .map(|(i, s)| {
                PreparedAgent::<R::State>::new(s, rules).map_err(|e| player_error(i, s, e))
            })
            .collect()
    }

    fn run<R: Ruleset>(&self, rules: &R, first: u64, count: u64) -> Result<ChunkResult, JobError>
    where
        R::State: Playable,
    {
        let players = self.prepare(rules)?;
        play_units(rules, &players, &self.options(), first..first + count)
            .map(ChunkResult::Arena)
            .map_err(arena_error)
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

fn player_error(i: usize, spec: &str, source: crate::spec::AgentError) -> JobError {
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
        };
        with_ruleset!(&rules, r => job.check(r))?;
        Ok(job)
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

    fn run<R: Ruleset>(&self, rules: &R, first: u64, count: u64) -> Result<ChunkResult, JobError>
    where
        R::State: Playable,
    {
        simulate_range::<R::State>(rules, self.specs(), self.seed, first..first + count)
            .map(ChunkResult::Simulate)
            .map_err(|e| refuse(e.to_string()))
    }
}

impl StudyRequest {
    /// The study the arguments describe, checked as `qasab study` checks it.
    ///
    /// # Errors
    /// [`JobError::Arguments`] with the command's message.
    pub fn spec(&self) -> Result<StudySpec, JobError> {
        let variants = match (&self.ruleset, &self.variants) {
            (Some(_), Some(_)) => {
                return Err(refuse("give a ruleset or --variants FILE, not both"));
            }
            (Some(base), None) => {
                let base = parse_ruleset(base)?;
                let axes = self
                    .vary
                    .iter()
                    .map(|a| parse_axis(a))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| refuse(chain(&e)))?;
                vary(&base, &axes).map_err(|e| refuse(chain(&e)))?
            }
            (None, Some(file)) => {
                if !self.vary.is_empty() {
                    return Err(refuse("give --vary or --variants FILE, not both"));
                }
                read_variants(file)?
            }
            (None, None) => return Err(refuse("give a ruleset, or --variants FILE")),
        };
        let pair = |flag: &str, text: &str| -> Result<[String; 2], JobError> {
            let specs = split_specs(text);
            <[String; 2]>::try_from(specs).map_err(|s| {
                refuse(format!(
                    "{flag} needs two players separated by a comma, e.g. mcts,greedy; got {}",
                    s.len()
                ))
            })
        };
        if self.skill.is_none() && self.skill_games.is_some() {
            return Err(refuse("--skill-games needs --skill"));
        }
        Ok(StudySpec {
            variants,
            players: pair("--players", &self.players)?,
            skill: self
                .skill
                .as_deref()
                .map(|s| pair("--skill", s))
                .transpose()?,
            games: self.games,
            skill_games: self.skill_games.unwrap_or(self.games),
            seed: self.seed,
        })
    }

    /// The `qasab study` command line of these arguments, in a fixed order with `--json`,
    /// quoted for a POSIX shell where needed: the `command` of the study's JSON.
    pub fn command_line(&self) -> String {
        let mut words: Vec<String> = vec!["qasab".into(), "study".into()];
        if let Some(r) = &self.ruleset {
            words.push(r.clone());
        }
        for v in &self.vary {
            words.extend(["--vary".into(), v.clone()]);
        }
        if let Some(f) = &self.variants {
            words.extend(["--variants".into(), f.display().to_string()]);
        }
        words.extend(["--players".into(), self.players.clone()]);
        if let Some(s) = &self.skill {
            words.extend(["--skill".into(), s.clone()]);
        }
        words.extend(["--games".into(), self.games.to_string()]);
        if let Some(n) = self.skill_games {
            words.extend(["--skill-games".into(), n.to_string()]);
        }
        words.extend(["--seed".into(), self.seed.to_string(), "--json".into()]);
        shell_words(&words)
    }
}

/// Reads a `--variants` file: one ruleset string per line (blank lines and `#` lines skipped).
///
/// # Errors
/// [`JobError::Arguments`] naming the file and the line.
pub fn read_variants(file: &std::path::Path) -> Result<Vec<Variant>, JobError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| refuse(format!("cannot read {}: {}", file.display(), chain(&e))))?;
    let mut out: Vec<Variant> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let rules: AnyRuleset = line
            .parse()
            .map_err(|e| refuse(format!("{} line {}: {e}", file.display(), n + 1)))?;
        if out.iter().any(|v| v.rules == rules) {
            return Err(refuse(format!(
                "{} line {}: {rules} is listed twice",
                file.display(),
                n + 1
            )));
        }
        out.push(Variant {
            rules,
            values: Vec::new(),
        });
    }
    if out.is_empty() {
        return Err(refuse(format!("{} lists no ruleset", file.display())));
    }
    Ok(out)
}

impl StudyJob {
    /// The study of `request`, checked as `qasab study` checks it.
    ///
    /// # Errors
    /// [`JobError::Arguments`] with the command's message.
    pub fn new(request: &StudyRequest) -> Result<StudyJob, JobError> {
        let spec = request.spec()?;
        spec.check().map_err(|e| refuse(chain(&e)))?;
        Ok(StudyJob {
            variants: spec
                .variants
                .iter()
                .map(|v| StudyVariant {
                    ruleset: v.rules.to_string(),
                    values: v.values.clone(),
                })
                .collect(),
            players: spec.players,
            skill: spec.skill,
            games: spec.games,
            skill_games: spec.skill_games,
            seed: spec.seed,
            command: request.command_line(),
        })
    }

    /// The study as [`StudySpec`].
    ///
    /// # Errors
    /// [`JobError::Arguments`] if a variant's ruleset string is not one (a job made elsewhere).
    pub fn spec(&self) -> Result<StudySpec, JobError> {
        let variants = self
            .variants
            .iter()
            .map(|v| {
                Ok(Variant {
                    rules: parse_ruleset(&v.ruleset)?,
                    values: v.values.clone(),
                })
            })
            .collect::<Result<Vec<_>, JobError>>()?;
        Ok(StudySpec {
            variants,
            players: self.players.clone(),
            skill: self.skill.clone(),
            games: self.games,
            skill_games: self.skill_games,
            seed: self.seed,
        })
    }
}

impl Job {
    /// The job as JSON text (what travels to the workers).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a job serialises")
    }

    /// A job from its JSON text ([`Job::to_json`]). Its arguments are checked when its
    /// chunks are played.
    ///
    /// # Errors
    /// [`JobError::Arguments`] if the text is not a job.
    pub fn from_json(text: &str) -> Result<Job, JobError> {
        serde_json::from_str(text).map_err(|e| refuse(format!("not a job: {e}")))
    }

    /// The command's name.
    pub fn command(&self) -> &'static str {
        match self {
            Job::Arena(_) => "arena",
            Job::Simulate(_) => "simulate",
            Job::Study(_) => "study",
        }
    }

    /// The number of units (see the module docs).
    pub fn units(&self) -> u64 {
        match self {
            Job::Arena(a) => pairings(a.players.len()).len() as u64 * (a.games / 2),
            Job::Simulate(s) => s.games,
            Job::Study(s) => s.spec().map_or(0, |spec| spec.chunks().len() as u64),
        }
    }

    /// The games of each unit, in order.
    pub fn unit_games(&self) -> Vec<u64> {
        match self {
            Job::Arena(_) => vec![2; self.units() as usize],
            Job::Simulate(_) => vec![1; self.units() as usize],
            Job::Study(s) => s.spec().map_or_else(
                |_| Vec::new(),
                |spec| spec.chunks().iter().map(|k| 2 * k.pairs).collect(),
            ),
        }
    }

    fn check_range(&self, first: u64, count: u64) -> Result<(), JobError> {
        let units = self.units();
        if count == 0 || first.checked_add(count).is_none_or(|end| end > units) {
            return Err(JobError::Chunks(format!(
                "units {first}..{} are not a chunk of this {} job of {units} units",
                first.saturating_add(count),
                self.command()
            )));
        }
        Ok(())
    }

    /// Plays units `first .. first + count`, each with the seeds of the one-machine run, on
    /// the calling thread.
    ///
    /// # Errors
    /// [`JobError::Chunks`] for a range outside the job, [`JobError::Arguments`] if its
    /// arguments are refused (a job made elsewhere).
    pub fn run(&self, first: u64, count: u64) -> Result<ChunkResult, JobError> {
        self.check_range(first, count)?;
        match self {
            Job::Arena(a) => {
                let rules = parse_ruleset(&a.ruleset)?;
                with_ruleset!(&rules, r => a.run(r, first, count))
            }
            Job::Simulate(s) => {
                let rules = parse_ruleset(&s.ruleset)?;
                with_ruleset!(&rules, r => s.run(r, first, count))
            }
            Job::Study(s) => {
                let spec = s.spec()?;
                let keys = spec.chunks();
                keys[first as usize..(first + count) as usize]
                    .iter()
                    .map(|k| spec.try_run_chunk(k).map_err(|e| refuse(chain(&e))))
                    .collect::<Result<_, _>>()
                    .map(ChunkResult::Study)
            }
        }
    }

    /// The JSON text the command prints with `--json`, from the results of chunks (`(first,
    /// result)`) that cover every unit exactly once, in any order. `seconds` and `threads` go
    /// into the fields that describe the run (`simulate`'s).
    ///
    /// # Errors
    /// [`JobError::Chunks`] for chunks that miss or repeat a unit or are of another command.
    pub fn merge(
        &self,
        mut chunks: Vec<(u64, ChunkResult)>,
        seconds: f64,
        threads: usize,
    ) -> Result<String, JobError> {
        chunks.sort_by_key(|(first, _)| *first);
        let mut next = 0u64;
        for (first, r) in &chunks {
            if *first != next {
                return Err(JobError::Chunks(format!(
                    "the chunks do not cover the job: unit {next} is {}",
                    if *first > next { "missing" } else { "repeated" }
                )));
            }
            next += r.len() as u64;
        }
        if next != self.units() {
            return Err(JobError::Chunks(format!(
                "the chunks cover {next} of the job's {} units",
                self.units()
            )));
        }
        let wrong = || {
            JobError::Chunks(format!(
                "a chunk of another command than {}",
                self.command()
            ))
        };
        match self {
            Job::Arena(a) => {
                let mut units = Vec::new();
                for (_, r) in chunks {
                    let ChunkResult::Arena(v) = r else {
                        return Err(wrong());
                    };
                    units.extend(v);
                }
                let rules = parse_ruleset(&a.ruleset)?;
                let report = with_ruleset!(&rules, r => a.report(r, &units))?;
                Ok(pretty(&report))
            }
            Job::Simulate(s) => {
                let mut games = Vec::new();
                for (_, r) in chunks {
                    let ChunkResult::Simulate(v) = r else {
                        return Err(wrong());
                    };
                    games.extend(v);
                }
                let rules = parse_ruleset(&s.ruleset)?;
                let value = with_ruleset!(&rules, r => SimulationReport::new(
                    r,
                    s.players.clone(),
                    s.seed,
                    &games,
                    seconds,
                )
                .to_json(r, threads));
                Ok(pretty(&value))
            }
            Job::Study(s) => {
                let spec = s.spec()?;
                let mut done = BTreeMap::new();
                let mut keys = spec.chunks().into_iter();
                for (_, r) in chunks {
                    let ChunkResult::Study(v) = r else {
                        return Err(wrong());
                    };
                    for games in v {
                        let key = keys.next().expect("counted above");
                        if games.len() as u64 != key.pairs {
                            return Err(JobError::Chunks(format!(
                                "a study chunk holds {} game pairs instead of {}",
                                games.len(),
                                key.pairs
                            )));
                        }
                        done.insert(key, games);
                    }
                }
                let report = spec.report(&done, &solver_values(&spec.variants));
                Ok(json_with_command(&report, &s.command))
            }
        }
    }
}

/// A report as pretty JSON, as the commands print it.
fn pretty<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).expect("a report serialises")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    /// Plays a job in chunks of `size` units, merged in reverse order.
    fn chunked(job: &Job, size: u64) -> String {
        let units = job.units();
        let mut chunks = Vec::new();
        let mut first = 0;
        while first < units {
            let n = size.min(units - first);
            chunks.push((first, job.run(first, n).unwrap()));
            first += n;
        }
        chunks.reverse();
        job.merge(chunks, 0.0, 1).unwrap()
    }

    #[test]
    fn an_arena_in_chunks_is_the_arena() {
        let job = ArenaJob::new(
            "tihbat(seeds=3)",
            &words(&["random,greedy", "random"]),
            6,
            4,
            0,
        )
        .unwrap();
        let rules: qasab_core::tihbat::Ruleset = "tihbat(seeds=3)".parse().unwrap();
        let options = ArenaOptions {
            games_per_pairing: 6,
            seed: 4,
            threads: 2,
        };
        let whole = crate::play::arena::arena::<qasab_core::tihbat::State>(
            &rules,
            &["random", "greedy", "random"],
            &options,
            &|| {},
        )
        .unwrap();
        let job = Job::Arena(job);
        assert_eq!(job.units(), 9);
        let want = serde_json::to_string_pretty(&whole).unwrap();
        for size in [1, 2, 4, 9] {
            assert_eq!(chunked(&job, size), want, "chunks of {size}");
        }
    }

    #[test]
    fn a_simulation_in_chunks_is_the_simulation() {
        let job = Job::Simulate(SimulateJob::new("tab", "random,greedy", 7, 3).unwrap());
        let rules = qasab_core::tab::Ruleset::default();
        let games = crate::play::simulate::simulate::<qasab_core::tab::State>(
            &rules,
            ["random", "greedy"],
            7,
            3,
            2,
            &|| {},
        )
        .unwrap();
        let report =
            SimulationReport::new(&rules, ["random".into(), "greedy".into()], 3, &games, 0.0);
        let want = serde_json::to_string_pretty(&report.to_json(&rules, 1)).unwrap();
        assert_eq!(chunked(&job, 3), want);
        assert_eq!(chunked(&job, 7), want);
    }

    #[test]
    fn a_study_in_chunks_is_the_study() {
        let request = StudyRequest {
            ruleset: Some("tihbat".into()),
            vary: vec!["seeds=2,3".into()],
            players: "random,greedy".into(),
            skill: Some("greedy,random".into()),
            games: 20,
            skill_games: Some(4),
            seed: 2,
            ..StudyRequest::default()
        };
        let spec = request.spec().unwrap();
        let all = spec.chunks();
        let done = all.iter().map(|k| (k.clone(), spec.run_chunk(k))).collect();
        let report = spec.report(&done, &solver_values(&spec.variants));
        let job = Job::Study(StudyJob::new(&request).unwrap());
        assert_eq!(job.units(), all.len() as u64);
        assert_eq!(
            job.unit_games(),
            [16, 4, 4, 16, 4, 4],
            "2 variants: main 8 + 2 pairs, skill 2 pairs"
        );
        let want = json_with_command(&report, &request.command_line());
        assert_eq!(chunked(&job, 1), want);
        assert_eq!(chunked(&job, 4), want);
        assert_eq!(
            request.command_line(),
            "qasab study tihbat --vary seeds=2,3 --players random,greedy --skill greedy,random --games 20 --skill-games 4 --seed 2 --json"
        );
    }

    #[test]
    fn jobs_travel_as_json() {
        let job = Job::Arena(ArenaJob::new("tab", &words(&["random", "greedy"]), 2, 1, 0).unwrap());
        let text = job.to_json();
        assert_eq!(Job::from_json(&text).unwrap(), job);
        let result = job.run(0, 1).unwrap();
        let back: ChunkResult =
            serde_json::from_str(&serde_json::to_string(&result).unwrap()).unwrap();
        assert_eq!(back, result);
        assert!(
            Job::from_json("{}")
                .unwrap_err()
                .to_string()
                .starts_with("not a job")
        );
        let bad = Job::from_json(&text.replace("greedy", "wizard")).unwrap();
        assert!(
            bad.run(0, 1)
                .unwrap_err()
                .to_string()
                .starts_with("--players: player 2 (wizard): unknown player 'wizard'")
        );
    }

    #[test]
    fn bad_chunks_are_refused() {
        let job = Job::Simulate(SimulateJob::new("tihbat", "random,random", 4, 0).unwrap());
        assert!(job.run(3, 2).is_err());
        assert!(job.run(0, 0).is_err());
        assert!(job.run(u64::MAX, 2).is_err());
        let a = job.run(0, 2).unwrap();
        let b = job.run(2, 2).unwrap();
        assert_eq!(
            job.merge(vec![(0, a.clone())], 0.0, 1)
                .unwrap_err()
                .to_string(),
            "the chunks cover 2 of the job's 4 units"
        );
        assert!(
            job.merge(vec![(0, a.clone()), (0, a.clone())], 0.0, 1)
                .is_err()
        );
        assert!(job.merge(vec![(2, b.clone())], 0.0, 1).is_err());
        let arena = ChunkResult::Arena(vec![[GameResult::Draw; 2]; 2]);
        assert!(job.merge(vec![(0, a), (2, arena)], 0.0, 1).is_err());
    }

    #[test]
    fn bad_arguments_get_the_commands_messages() {
        let err = |r: Result<ArenaJob, JobError>| r.unwrap_err().to_string();
        assert!(
            err(ArenaJob::new("tub", &words(&["random", "random"]), 2, 0, 0))
                .starts_with("unknown ruleset 'tub'; valid rulesets: ")
        );
        assert_eq!(
            err(ArenaJob::new("tab", &words(&["random", "random"]), 0, 0, 0)),
            "--games: games per pairing must be an even number, at least 2 (each game pair plays both seatings with the same throws); got 0"
        );
        assert_eq!(
            err(ArenaJob::new("tab", &words(&["random"]), 2, 0, 0)),
            "--players: an arena needs at least two players; got 1"
        );
        let sim = |p: &str, g| SimulateJob::new("tab", p, g, 0).unwrap_err().to_string();
        assert_eq!(
            sim("random,random", 0),
            "--games must be from 1 to 100000000"
        );
        assert_eq!(
            sim("random", 1),
            "--players needs two players separated by a comma, e.g. random,solver; got 1"
        );
        assert!(sim("random,wizard", 1).starts_with("black player: unknown player 'wizard'"));
        let study = |r: StudyRequest| StudyJob::new(&r).unwrap_err().to_string();
        let base = StudyRequest {
            ruleset: Some("tab".into()),
            players: "greedy,greedy".into(),
            games: 2,
            ..StudyRequest::default()
        };
        assert_eq!(
            study(StudyRequest {
                games: 0,
                ..base.clone()
            }),
            "--games 0 gives only the exact solver values, which exist for tihbat only; tab needs games"
        );
        assert!(
            study(StudyRequest {
                vary: vec!["colour=red".into()],
                ..base.clone()
            })
            .starts_with("--vary colour=red: tab has no option 'colour'")
        );
        assert!(
            study(StudyRequest {
                variants: Some("/nonexistent/variants.txt".into()),
                ruleset: None,
                ..base
            })
            .starts_with("cannot read /nonexistent/variants.txt: ")
        );
    }
}
