//! `qasab train`: an evaluation network trained by self-play (docs/training.md).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qasab_ai::eval::net::{Encode, NetError};
use qasab_ai::players::{NetworkWork, Playable, with_network};
use qasab_ai::train::{CurvePoint, TrainOptions, Trainer, best_point};
use qasab_core::Registered;

use super::parse_ruleset;
use crate::cli::TrainArgs;

pub fn run(args: &TrainArgs) -> Result<ExitCode> {
    let any = match &args.resume {
        Some(path) => {
            let bytes = read(path)?;
            parse_ruleset(&checkpoint_ruleset(&bytes).with_context(|| path.display().to_string())?)?
        }
        None => parse_ruleset(args.ruleset.as_deref().expect("clap requires it"))?,
    };
    match with_network(&any, Train(args)) {
        Some(done) => done,
        None => bail!(
            "{} has no network: it is solved exactly (qasab solve); networks are trained for the \
             Tâb family",
            any.name()
        ),
    }
}

/// `qasab train` on the game of the ruleset, which has networks.
struct Train<'a>(&'a TrainArgs);

impl NetworkWork for Train<'_> {
    type Output = Result<ExitCode>;

    fn run<S: Encode + Playable + Registered>(self, rules: &S::Ruleset) -> Result<ExitCode> {
        train::<S>(rules.clone(), self.0)
    }
}

/// The files of a run whose network goes to `out`.
struct Files {
    out: PathBuf,
    /// The network at the curve point with the best score so far.
    best: PathBuf,
    checkpoint: PathBuf,
    curve_json: PathBuf,
    curve_svg: PathBuf,
}

impl Files {
    fn new(out: &Path) -> Files {
        let stem = out
            .file_stem()
            .map_or("net".into(), |s| s.to_string_lossy().into_owned());
        let beside = |suffix: &str| out.with_file_name(format!("{stem}{suffix}"));
        Files {
            out: out.to_path_buf(),
            best: beside(".best.safetensors"),
            checkpoint: beside(".checkpoint.safetensors"),
            curve_json: beside(".curve.json"),
            curve_svg: beside(".curve.svg"),
        }
    }
}

fn read(path: &Path) -> Result<Vec<u8>> {
    Ok(qasab_ai::eval::net::file::read_file(path)?)
}

/// The ruleset a checkpoint was started on.
fn checkpoint_ruleset(bytes: &[u8]) -> Result<String> {
    let net = qasab_ai::eval::net::Network::from_bytes(bytes)?;
    net.metadata
        .get("ruleset")
        .cloned()
        .ok_or_else(|| anyhow!("not a checkpoint: it names no ruleset"))
}

fn hidden(text: &str) -> Result<[usize; 2]> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let parse = |s: &str| {
        s.parse::<usize>().map_err(|_| {
            anyhow!("--hidden {text}: expected two unit counts, H1,H2 (such as 128,32)")
        })
    };
    match parts.as_slice() {
        [a, b] => Ok([parse(a)?, parse(b)?]),
        _ => bail!("--hidden {text}: expected two unit counts, H1,H2 (such as 128,32)"),
    }
}

fn train<S: Encode + Playable>(rules: S::Ruleset, args: &TrainArgs) -> Result<ExitCode> {
    let files = Files::new(&args.out);
    let started = Instant::now();
    let (mut trainer, seconds_before) = match &args.resume {
        Some(path) => {
            let bytes = read(path)?;
            let (mut trainer, seconds) =
                Trainer::<S>::resume(rules, &bytes, args.games, args.threads)
                    .with_context(|| path.display().to_string())?;
            if let Some(rate) = args.rate {
                trainer.set_rate(rate)?;
            }
            (trainer, seconds)
        }
        None => {
            let options = TrainOptions {
                games: args
                    .games
                    .ok_or_else(|| anyhow!("--games: how many self-play games?"))?,
                seed: args.seed,
                threads: args.threads,
                batch: args.batch,
                lambda: args.lambda,
                rate: args.rate.unwrap_or(TrainOptions::default().rate),
                minibatch: TrainOptions::default().minibatch,
                hidden: hidden(&args.hidden)?,
                curve_every: args.curve_every,
                curve_pairs: args.curve_pairs,
                across: args.across,
            };
            let trainer = match &args.start {
                Some(path) => {
                    let start = qasab_ai::eval::net::Network::from_bytes(&read(path)?)
                        .with_context(|| path.display().to_string())?;
                    Trainer::<S>::from_network(rules, options, &start)
                        .with_context(|| format!("--start {}", path.display()))?
                }
                None => Trainer::<S>::new(rules, options)?,
            };
            (trainer, 0.0)
        }
    };
    let bar =
        ProgressBar::with_draw_target(Some(trainer.options.games), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} {pos}/{len} games [{bar:40}] {per_sec} eta {eta} {msg}",
        )
        .expect("template")
        .progress_chars("=> "),
    );
    bar.set_position(trainer.games_done);
    while !trainer.finished() {
        let report = trainer.step(started);
        bar.inc(report.games);
        bar.set_message(format!("loss {:.4}", report.loss));
        if let Some(p) = &report.point {
            if bar.is_hidden() {
                eprintln!("{}", point_line(p));
            } else {
                bar.println(point_line(p));
            }
            write_curve(&files, &trainer.curve)?;
        }
        // A new best point: keep the network it measured.
        if let Some(net) = &report.best {
            write(&files.best, &net.to_bytes())?;
        }
        let seconds = seconds_before + started.elapsed().as_secs_f64();
        write(&files.checkpoint, &trainer.checkpoint(seconds))?;
    }
    bar.finish_and_clear();
    trainer
        .network()
        .save(&files.out)
        .map_err(|e: NetError| anyhow!(e))?;
    write_curve(&files, &trainer.curve)?;
    outln!(
        "{} games of {}: network in {} ({} parameters), the best by the curve in {}, \
         checkpoint in {}, curve in {} and {}",
        trainer.games_done,
        trainer.rules,
        files.out.display(),
        trainer.mlp.parameters(),
        best_line(&trainer.curve, &files.best),
        files.checkpoint.display(),
        files.curve_json.display(),
        files.curve_svg.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Where the best network by the curve is, and its point.
fn best_line(curve: &[CurvePoint], best: &Path) -> String {
    match best_point(curve).map(|i| &curve[i]) {
        Some(p) => format!(
            "{} (after {} games, {:.1}%)",
            best.display(),
            p.games,
            100.0 * p.score
        ),
        None => "none (no curve)".into(),
    }
}

fn point_line(p: &CurvePoint) -> String {
    format!(
        "{:>8} games  score against greedy {:5.1}% of {}  loss {}  {:.0} s",
        p.games,
        100.0 * p.score,
        p.match_games,
        p.loss.map_or("-".into(), |l| format!("{l:.4}")),
        p.seconds
    )
}

fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    Ok(qasab_ai::eval::net::file::write_atomically(path, bytes)?)
}

/// The learning curve as JSON and as an SVG chart.
fn write_curve(files: &Files, curve: &[CurvePoint]) -> Result<()> {
    write(
        &files.curve_json,
        serde_json::to_string_pretty(curve)?.as_bytes(),
    )?;
    if curve.len() < 2 {
        return Ok(());
    }
    let xs: Vec<f64> = curve.iter().map(|p| p.games as f64).collect();
    let svg = qasab_plot::lines(
        "Learning curve: score against greedy, and TD loss",
        "self-play games",
        &xs,
        "score / loss",
        &[
            (
                "score against greedy".into(),
                curve.iter().map(|p| Some(p.score)).collect(),
            ),
            (
                "mean squared TD error".into(),
                curve.iter().map(|p| p.loss).collect(),
            ),
        ],
    )?;
    write(&files.curve_svg, svg.as_bytes())
}
