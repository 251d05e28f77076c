//! The compiled part of `qasab.distributed`: arena, simulate and study as jobs of seeded
//! chunks ([`qasab_ai::play::jobs`]), and self-play training split into the games that workers play
//! and the step that learns from them ([`qasab_ai::train`]).
//!
//! Everything is `qasab-ai`'s: the checks and messages of the commands, the seeds of every
//! game, the merge into the commands' JSON, the self-play and the learning. This module
//! converts values and errors, and plays without the GIL.

use std::path::PathBuf;
use std::time::Instant;

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use qasab_ai::eval::net::Network;
use qasab_ai::play::jobs::{
    ArenaJob, ChunkResult, Job, JobError, SimulateJob, StudyJob, StudyRequest,
};
use qasab_ai::search::endgame::{TABLES_ENV, TableSet};
use qasab_ai::train::any::{AnyTrainer, self_play_bytes};
use qasab_ai::train::{CurvePoint, StepReport, TrainError, TrainOptions, samples_from_bytes};
use qasab_core::AnyRuleset;

use crate::{NetworkError, QasabError, RulesetError, parse_ruleset};

pyo3::create_exception!(
    _qasab,
    ArgumentError,
    QasabError,
    "Arguments that the command refuses, with the command's own message, or chunk results \
     that do not fit their job."
);

fn job_error(e: JobError) -> PyErr {
    ArgumentError::new_err(e.to_string())
}

/// A job: what `qasab arena`, `qasab simulate` or `qasab study` plays, checked as the command
/// checks it, in numbered units that chunks play anywhere with the one-machine seeds.
#[pyclass(module = "qasab._qasab", name = "Job", frozen)]
pub(crate) struct PyJob {
    job: Job,
    text: String,
}

impl PyJob {
    fn of(job: Job) -> PyJob {
        let text = job.to_json();
        PyJob { job, text }
    }
}

#[pymethods]
impl PyJob {
    /// The round robin of `qasab arena RULESET --players ... --games N --seed S [--tables
    /// DIR]`. `players`: the words of `--players` (each may hold several specs separated by
    /// commas). `tables`: the directory of endgame tables every player consults (default:
    /// `QASAB_TABLES`, if it holds tables of the ruleset).
    #[staticmethod]
    #[pyo3(signature = (ruleset, players, games=100, seed=0, tables=None))]
    fn arena(
        ruleset: &str,
        players: Vec<String>,
        games: u64,
        seed: u64,
        tables: Option<PathBuf>,
    ) -> PyResult<PyJob> {
        let job = ArenaJob::new(ruleset, &players, games, seed, 0).map_err(job_error)?;
        let job = match tables_dir(ruleset, tables)? {
            Some(dir) => job.with_tables(&dir).map_err(job_error)?,
            None => job,
        };
        Ok(PyJob::of(Job::Arena(job)))
    }

    /// The games of `qasab simulate RULESET --players A,B --games N --seed S [--tables DIR]`
    /// (`tables` as for `arena`).
    #[staticmethod]
    #[pyo3(signature = (ruleset, players="random,random", games=1000, seed=0, tables=None))]
    fn simulate(
        ruleset: &str,
        players: &str,
        games: u64,
        seed: u64,
        tables: Option<PathBuf>,
    ) -> PyResult<PyJob> {
        let job = SimulateJob::new(ruleset, players, games, seed).map_err(job_error)?;
        let job = match tables_dir(ruleset, tables)? {
            Some(dir) => job.with_tables(&dir).map_err(job_error)?,
            None => job,
        };
        Ok(PyJob::of(Job::Simulate(job)))
    }

    /// The study of `qasab study [RULESET] [--vary ...] [--variants FILE] --players A,B
    /// [--skill S,W] --games N [--skill-games M] --seed S`.
    #[staticmethod]
    #[pyo3(signature = (ruleset=None, vary=Vec::new(), variants=None, players="greedy,greedy", skill=None, games=100, skill_games=None, seed=0))]
    #[allow(clippy::too_many_arguments)]
    fn study(
        ruleset: Option<String>,
        vary: Vec<String>,
        variants: Option<std::path::PathBuf>,
        players: &str,
        skill: Option<String>,
        games: u64,
        skill_games: Option<u64>,
        seed: u64,
    ) -> PyResult<PyJob> {
        let request = StudyRequest {
            ruleset,
            vary,
            variants,
            players: players.to_string(),
            skill,
            games,
            skill_games,
            seed,
        };
        StudyJob::new(&request)
            .map(|s| PyJob::of(Job::Study(s)))
            .map_err(job_error)
    }

    /// A job from its JSON text (`to_json`).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<PyJob> {
        Job::from_json(text).map(PyJob::of).map_err(job_error)
    }

    /// The job as JSON text: the canonical arguments.
    fn to_json(&self) -> &str {
        &self.text
    }

    /// `arena`, `simulate` or `study`.
    #[getter]
    fn command(&self) -> &'static str {
        self.job.command()
    }

    /// The number of units: game pairs of an arena, games of a simulation, chunks of a study.
    fn units(&self) -> u64 {
        self.job.units()
    }

    /// The games in each unit, in order.
    fn unit_games(&self) -> Vec<u64> {
        self.job.unit_games()
    }

    /// Plays units `first .. first + count` on this thread without the GIL; returns their
    /// results as JSON text.
    fn run(&self, py: Python<'_>, first: u64, count: u64) -> PyResult<String> {
        let result = py
            .detach(|| self.job.run(first, count))
            .map_err(job_error)?;
        Ok(serde_json::to_string(&result).expect("results serialise"))
    }

    /// The JSON text that the command prints with `--json`, from `(first, results)` of chunks
    /// that cover every unit once, in any order. `seconds` and `threads` fill the fields that
    /// describe the run (`simulate`'s).
    fn merge(
        &self,
        py: Python<'_>,
        chunks: Vec<(u64, String)>,
        seconds: f64,
        threads: usize,
    ) -> PyResult<String> {
        py.detach(|| {
            let parsed = chunks
                .iter()
                .map(|(first, text)| parse_chunk(*first, text))
                .collect::<Result<Vec<_>, _>>()?;
            self.job.merge(parsed, seconds, threads)
        })
        .map_err(job_error)
    }

    /// An empty [`PyResults`] for this job: chunks' results are added as they arrive and
    /// merged at the end, so that the driver keeps them parsed rather than as text.
    fn results(&self) -> PyResults {
        PyResults {
            job: self.job.clone(),
            chunks: Vec::new(),
        }
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let load = py
            .import("qasab._qasab")?
            .getattr("Job")?
            .getattr("from_json")?;
        Ok((load, (self.text.clone(),)))
    }

    fn __eq__(&self, other: &PyJob) -> bool {
        self.job == other.job
    }

    fn __repr__(&self) -> String {
        format!("qasab.Job.from_json({:?})", self.text)
    }
}

/// The directory of endgame tables a job consults: `tables` if given (refused by the job if it
/// holds none of the ruleset), else `QASAB_TABLES` if it names one that holds tables of the
/// ruleset (as the commands read it), else none.
fn tables_dir(ruleset: &str, tables: Option<PathBuf>) -> PyResult<Option<PathBuf>> {
    if tables.is_some() {
        return Ok(tables);
    }
    let Some(dir) = std::env::var_os(TABLES_ENV).map(PathBuf::from) else {
        return Ok(None);
    };
    let rules = parse_ruleset(ruleset)?;
    let set = TableSet::open_dir(&dir, &rules)
        .map_err(|e| ArgumentError::new_err(format!("{TABLES_ENV}: {e}")))?;
    Ok((!set.is_empty()).then_some(dir))
}

fn parse_chunk(first: u64, text: &str) -> Result<(u64, ChunkResult), JobError> {
    serde_json::from_str::<ChunkResult>(text)
        .map(|r| (first, r))
        .map_err(|e| JobError::Chunks(format!("the results of chunk {first}: {e}")))
}

/// The results of a job's chunks, parsed as they arrive (`add`), merged into the command's
/// JSON at the end (`merge`). A simulation's results take a few tens of bytes a game here,
/// against about 190 as JSON text.
#[pyclass(module = "qasab._qasab", name = "Results")]
pub(crate) struct PyResults {
    job: Job,
    chunks: Vec<(u64, ChunkResult)>,
}

#[pymethods]
impl PyResults {
    /// Adds the results of the chunk that starts at unit `first` (the text `Job.run`
    /// returned), without the GIL.
    fn add(&mut self, py: Python<'_>, first: u64, text: &str) -> PyResult<()> {
        let chunk = py.detach(|| parse_chunk(first, text)).map_err(job_error)?;
        self.chunks.push(chunk);
        Ok(())
    }

    /// The units added so far.
    #[getter]
    fn units(&self) -> u64 {
        self.chunks.iter().map(|(_, r)| r.len() as u64).sum()
    }

    /// The JSON text that the command prints with `--json`, once the chunks added cover
    /// every unit once, in any order; the results are then spent. `seconds` and `threads`
    /// fill the fields that describe the run (`simulate`'s).
    fn merge(&mut self, py: Python<'_>, seconds: f64, threads: usize) -> PyResult<String> {
        let chunks = std::mem::take(&mut self.chunks);
        let job = &self.job;
        py.detach(|| job.merge(chunks, seconds, threads))
            .map_err(job_error)
    }

    fn __len__(&self) -> usize {
        self.chunks.len()
    }
}

fn train_error(e: TrainError) -> PyErr {
    match e {
        TrainError::Net(e) => NetworkError::new_err(e.to_string()),
        e => QasabError::new_err(e.to_string()),
    }
}

fn no_network(rules: &AnyRuleset) -> PyErr {
    RulesetError::new_err(format!(
        "{} has no network: it is solved exactly (qasab solve); networks are trained for the \
         Tâb family",
        rules.name()
    ))
}

/// A self-play training run (`qasab train`), driven from Python: `next_batch()` names the
/// games of the next batch, workers play them with `network()`'s weights
/// (`self_play_games`), and `learn()` learns from them; `step()` does all three here.
#[pyclass(module = "qasab._qasab", name = "Trainer")]
pub(crate) struct PyTrainer {
    inner: AnyTrainer,
    started: Instant,
    seconds_before: f64,
}

fn curve_dict<'py>(py: Python<'py>, p: &CurvePoint) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("games", p.games)?;
    d.set_item("score", p.score)?;
    d.set_item("match_games", p.match_games)?;
    d.set_item("loss", p.loss)?;
    d.set_item("seconds", p.seconds)?;
    Ok(d)
}

fn step_dict<'py>(py: Python<'py>, r: &StepReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("games", r.games)?;
    d.set_item("states", r.states)?;
    d.set_item("loss", r.loss)?;
    d.set_item(
        "point",
        r.point.as_ref().map(|p| curve_dict(py, p)).transpose()?,
    )?;
    d.set_item(
        "best",
        r.best.as_ref().map(|n| PyBytes::new(py, &n.to_bytes())),
    )?;
    Ok(d)
}

#[pymethods]
impl PyTrainer {
    /// A new run on `ruleset` with `qasab train`'s settings (the weights depend on them and
    /// the seed, not on `threads`, which `step()` and the curve's matches use here).
    #[new]
    /// With `start` (a network file), the run starts from that network's weights, encoding and
    /// layer sizes (`qasab train --start`; `hidden` is then the network's).
    #[pyo3(signature = (ruleset, games, seed=0, batch=32, lambda_=0.7, rate=0.001, hidden=(128, 32), curve_every=1000, curve_pairs=100, threads=0, across=false, start=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        ruleset: &str,
        games: u64,
        seed: u64,
        batch: u64,
        lambda_: f32,
        rate: f32,
        hidden: (usize, usize),
        curve_every: u64,
        curve_pairs: u64,
        threads: usize,
        across: bool,
        start: Option<PathBuf>,
    ) -> PyResult<PyTrainer> {
        let rules = parse_ruleset(ruleset)?;
        let options = TrainOptions {
            games,
            seed,
            threads,
            batch,
            lambda: lambda_,
            rate,
            minibatch: TrainOptions::default().minibatch,
            hidden: [hidden.0, hidden.1],
            curve_every,
            curve_pairs,
            across,
        };
        let inner = match start {
            Some(path) => {
                let net = Network::load(&path)
                    .map_err(|e| NetworkError::new_err(format!("start={}: {e}", path.display())))?;
                AnyTrainer::from_network(&rules, options, &net)
            }
            None => AnyTrainer::new(&rules, options),
        }
        .ok_or_else(|| no_network(&rules))?
        .map_err(train_error)?;
        Ok(PyTrainer {
            inner,
            started: Instant::now(),
            seconds_before: 0.0,
        })
    }

    /// The run saved in a checkpoint's bytes (`checkpoint()`, or `qasab train`'s
    /// `STEM.checkpoint.safetensors`), to go on up to `games` games in all (default: the
    /// run's).
    #[staticmethod]
    #[pyo3(signature = (checkpoint, games=None, threads=0))]
    fn resume(checkpoint: &[u8], games: Option<u64>, threads: usize) -> PyResult<PyTrainer> {
        let net =
            Network::from_bytes(checkpoint).map_err(|e| NetworkError::new_err(e.to_string()))?;
        let ruleset = net.metadata.get("ruleset").ok_or_else(|| {
            NetworkError::new_err("not a checkpoint: it names no ruleset".to_string())
        })?;
        let rules = parse_ruleset(ruleset)?;
        let (inner, seconds) = AnyTrainer::resume(&rules, checkpoint, games, threads)
            .ok_or_else(|| no_network(&rules))?
            .map_err(train_error)?;
        Ok(PyTrainer {
            inner,
            started: Instant::now(),
            seconds_before: seconds,
        })
    }

    /// The canonical ruleset string.
    #[getter]
    fn ruleset(&self) -> String {
        self.inner.ruleset()
    }

    /// Self-play games played so far.
    #[getter]
    fn games_done(&self) -> u64 {
        self.inner.games_done()
    }

    /// The run's settings as a dict.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let o = self.inner.options().clone();
        let d = PyDict::new(py);
        d.set_item("games", o.games)?;
        d.set_item("seed", o.seed)?;
        d.set_item("batch", o.batch)?;
        d.set_item("lambda_", o.lambda)?;
        d.set_item("rate", o.rate)?;
        d.set_item("hidden", PyTuple::new(py, o.hidden)?)?;
        d.set_item("curve_every", o.curve_every)?;
        d.set_item("curve_pairs", o.curve_pairs)?;
        d.set_item("across", o.across)?;
        Ok(d)
    }

    /// Whether every game of the run has been played.
    fn finished(&self) -> bool {
        self.inner.finished()
    }

    /// Goes on at Adam step size `rate` from the next batch (a lower rate late in a run, as
    /// `qasab train --resume CHECKPOINT --rate R`); recorded in the checkpoint and in the
    /// network's metadata (`rate_schedule`). Raises `QasabError` for a rate not in (0, 1).
    fn set_rate(&mut self, rate: f32) -> PyResult<()> {
        self.inner.set_rate(rate).map_err(train_error)
    }

    /// The next batch's games, `(first, count)`; `count` is 0 once the run is finished.
    fn next_batch(&self) -> (u64, u64) {
        self.inner.next_batch()
    }

    /// The network as it stands, as the bytes of its file (safetensors, with what it was
    /// trained on): the weights that workers play the next batch with.
    fn network<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes = self.inner.network().to_bytes();
        PyBytes::new(py, &bytes)
    }

    /// Learns from the next batch's games: `games`, the bytes of `self_play_games` for parts
    /// of the batch in order. Returns what the step did (`games`, `states`, `loss`, a `point`
    /// of the learning curve when one was due, and as `best` the bytes of the network that
    /// point measured when it is the curve's best so far, with its score in the metadata key
    /// `curve_score`; otherwise `None`).
    fn learn<'py>(
        &mut self,
        py: Python<'py>,
        games: Vec<PyBackedBytes>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let started = self.started;
        let inner = &mut self.inner;
        let report = py.detach(|| -> Result<StepReport, TrainError> {
            let mut all = Vec::new();
            for part in &games {
                all.extend(samples_from_bytes(part)?);
            }
            inner.learn(all, started)
        });
        step_dict(py, &report.map_err(train_error)?)
    }

    /// Plays the next batch here, on the run's threads, and learns from it.
    fn step<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let started = self.started;
        let inner = &mut self.inner;
        let report = py.detach(|| inner.step(started));
        step_dict(py, &report)
    }

    /// The run as checkpoint bytes (`qasab train`'s checkpoint file, which `qasab train
    /// --resume` and `Trainer.resume` read).
    fn checkpoint<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let seconds = self.seconds_before + self.started.elapsed().as_secs_f64();
        let bytes = self.inner.checkpoint(seconds);
        PyBytes::new(py, &bytes)
    }

    /// The learning curve so far, as `qasab train`'s `STEM.curve.json` holds it.
    fn curve_json(&self) -> String {
        let curve = self.inner.curve().to_vec();
        serde_json::to_string_pretty(&curve).expect("a curve serialises")
    }

    fn __repr__(&self) -> String {
        format!(
            "<qasab.Trainer {} {} games>",
            self.ruleset(),
            self.games_done()
        )
    }
}

/// Self-play games `first .. first + count` of the run with seed `seed` on `ruleset`, played
/// by the network in `network` (the bytes of its file, `Trainer.network()`), on this thread
/// without the GIL: the bytes that `Trainer.learn` takes.
#[pyfunction]
#[pyo3(name = "self_play_games", signature = (ruleset, network, seed, lambda_, first, count))]
pub(crate) fn self_play_games_bytes<'py>(
    py: Python<'py>,
    ruleset: &str,
    network: &[u8],
    seed: u64,
    lambda_: f32,
    first: u64,
    count: u64,
) -> PyResult<Bound<'py, PyBytes>> {
    let rules = parse_ruleset(ruleset)?;
    let net = Network::from_bytes(network).map_err(|e| NetworkError::new_err(e.to_string()))?;
    let end = first
        .checked_add(count)
        .ok_or_else(|| QasabError::new_err(format!("games {first} + {count} overflow")))?;
    let bytes = py
        .detach(|| self_play_bytes(&rules, &net, seed, lambda_, first..end).ok_or(rules.name()))
        .map_err(|name| {
            RulesetError::new_err(format!(
                "{name} has no network: networks are trained for the Tâb family"
            ))
        })?
        .map_err(|e| NetworkError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &bytes))
}
