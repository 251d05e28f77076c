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

mod arena;
mod chunk;
mod simulate;
mod study;

pub use arena::ArenaJob;
pub use chunk::{ChunkResult, JobError, JobTables};
pub use simulate::SimulateJob;
pub use study::{StudyJob, StudyRequest, StudyVariant, read_variants};

use serde::{Deserialize, Serialize};

use chunk::{check_cover, refuse};

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
            Job::Arena(a) => a.units(),
            Job::Simulate(s) => s.games,
            Job::Study(s) => s.units(),
        }
    }

    /// The games of each unit, in order.
    pub fn unit_games(&self) -> Vec<u64> {
        match self {
            Job::Arena(_) => vec![2; self.units() as usize],
            Job::Simulate(_) => vec![1; self.units() as usize],
            Job::Study(s) => s.unit_games(),
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
            Job::Arena(a) => a.run(first, count),
            Job::Simulate(s) => s.run(first, count),
            Job::Study(s) => s.run(first, count),
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
        check_cover(&mut chunks, self.units())?;
        let command = self.command();
        match self {
            Job::Arena(a) => a.merge(chunks, command),
            Job::Simulate(s) => s.merge(chunks, command, seconds, threads),
            Job::Study(s) => s.merge(chunks, command),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::arena::{ArenaOptions, GameResult};
    use crate::play::simulate::SimulationReport;
    use crate::play::study::{json_with_command, solver_values};

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
            None,
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
    fn jobs_play_with_the_endgame_tables_of_their_directory() {
        use crate::search::endgame::{self, BuildSpec, TableSet, file as table_file};
        use qasab_core::tab_ludii;
        use std::sync::Arc;
        let dir = tempfile::tempdir().unwrap();
        let any: qasab_core::AnyRuleset = "tab-ludii".parse().unwrap();
        let spec = BuildSpec {
            pieces: Some([1, 1]),
            ..BuildSpec::default()
        };
        let built = endgame::build(&any, &spec, &mut |_| {}).unwrap();
        table_file::write(
            &dir.path().join("p11.qeg"),
            &built.header,
            built.entries.clone(),
        )
        .unwrap();
        let set = Arc::new(TableSet::open_dir(dir.path(), &any).unwrap());
        let rules = tab_ludii::Ruleset::default();
        // A simulation: the games of `simulate` with the tables, which its report names.
        let sim = SimulateJob::new("tab-ludii", "random,greedy", 6, 2)
            .unwrap()
            .with_tables(dir.path())
            .unwrap();
        let tables = sim.tables.clone().unwrap();
        assert!(std::path::Path::new(&tables.dir).is_absolute());
        assert_eq!(tables.files.len(), 1);
        assert!(tables.files[0].ends_with("p11.qeg"));
        let games = crate::play::simulate::simulate::<tab_ludii::State>(
            &rules,
            ["random", "greedy"],
            Some(&set),
            6,
            2,
            1,
            &|| {},
        )
        .unwrap();
        let report =
            SimulationReport::new(&rules, ["random".into(), "greedy".into()], 2, &games, 0.0);
        let mut want = report.to_json(&rules, 1);
        want["tables"] = serde_json::json!(tables.files);
        let job = Job::Simulate(sim.clone());
        assert_eq!(
            chunked(&job, 4),
            serde_json::to_string_pretty(&want).unwrap()
        );
        // The job travels with its tables; a job written without them reads as before.
        assert_eq!(Job::from_json(&job.to_json()).unwrap(), job);
        let plain = Job::Simulate(SimulateJob::new("tab-ludii", "random,greedy", 6, 2).unwrap());
        assert!(!plain.to_json().contains("tables"));
        // An arena: the games and report of `arena_with_games` with the tables.
        let options = ArenaOptions {
            games_per_pairing: 4,
            seed: 1,
            threads: 1,
        };
        let whole = crate::play::arena::arena_with_games::<tab_ludii::State>(
            &rules,
            &["greedy", "random"],
            Some(&set),
            &options,
            &|| {},
            None,
        )
        .unwrap();
        let arena = ArenaJob::new("tab-ludii", &words(&["greedy", "random"]), 4, 1, 0)
            .unwrap()
            .with_tables(dir.path())
            .unwrap();
        assert_eq!(
            chunked(&Job::Arena(arena), 1),
            serde_json::to_string_pretty(&whole).unwrap()
        );
        // Refused: a directory without tables of the ruleset, or one that is not there.
        let err = SimulateJob::new("tab", "random,greedy", 2, 0)
            .unwrap()
            .with_tables(dir.path())
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("--tables: no endgame table of tab in"),
            "{err}"
        );
        let err = SimulateJob::new("tab", "random,greedy", 2, 0)
            .unwrap()
            .with_tables(&dir.path().join("missing"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("--tables: ") && err.contains("missing"),
            "{err}"
        );
        // A machine whose directory holds other tables than the job was made with refuses to
        // play, so that every game of a job is played with the same tables.
        table_file::write(&dir.path().join("p11b.qeg"), &built.header, built.entries).unwrap();
        let err = job.run(0, 1).unwrap_err().to_string();
        assert!(err.contains("where the job was made with"), "{err}");
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
