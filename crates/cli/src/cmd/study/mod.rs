//! `qasab study`: the variant laboratory (see docs/study.md).
//!
//! The games are played by `qasab_ai::play::study` in seeded chunks; this command builds the study
//! from its flags, keeps the chunks in `--out DIR` ([`store`]), shows progress, and writes the
//! results: a table, JSON, CSV, charts and a report ([`output`]).

mod output;
mod store;

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use anyhow::{Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qasab_ai::play::arena::MAX_THREADS;
use qasab_ai::play::jobs::StudyRequest;
use qasab_ai::play::study::{ChunkGames, ChunkKey, StudySpec, solver_values};
use rayon::prelude::*;

use crate::cli::StudyArgs;
use store::Store;

pub fn run(args: &StudyArgs) -> Result<ExitCode> {
    if let Some(dir) = &args.redraw {
        let files = output::redraw(dir)?;
        outln!("wrote {} files to {}", files.len(), dir.display());
        return Ok(ExitCode::SUCCESS);
    }
    let spec = build(args)?;
    spec.check()?;
    let store = args
        .out
        .as_deref()
        .map(|dir| Store::open(dir, &spec))
        .transpose()?;
    let mut done = match &store {
        Some(s) => s.load(&spec)?,
        None => BTreeMap::new(),
    };
    let all = spec.chunks();
    let pending: Vec<ChunkKey> = all
        .iter()
        .filter(|k| !done.contains_key(k))
        .cloned()
        .collect();
    play(&spec, args, &pending, store.as_ref(), &mut done)?;
    if done.len() < all.len() {
        eprintln!(
            "study stopped with {} of {} chunks played; run the same command again to continue",
            done.len(),
            all.len()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let report = spec.report(&done, &solver_values(&spec.variants));
    let command = command_line();
    if args.json {
        outln!("{}", output::json(&report, &command)?);
    } else {
        output::print_table(&report)?;
    }
    if let Some(dir) = &args.out {
        let files = output::write_all(dir, &report, &command)?;
        if !args.json {
            outln!();
            outln!("wrote {} files to {}", files.len(), dir.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The study the flags describe.
fn build(args: &StudyArgs) -> Result<StudySpec> {
    Ok(StudyRequest {
        ruleset: args.ruleset.clone(),
        vary: args.vary.clone(),
        variants: args.variants.clone(),
        players: args.players.clone(),
        skill: args.skill.clone(),
        games: args.games,
        skill_games: args.skill_games,
        seed: args.seed,
    }
    .spec()?)
}

/// Plays the pending chunks on the worker threads, storing each as it comes in.
fn play(
    spec: &StudySpec,
    args: &StudyArgs,
    pending: &[ChunkKey],
    store: Option<&Store>,
    done: &mut BTreeMap<ChunkKey, ChunkGames>,
) -> Result<()> {
    if args.threads > MAX_THREADS {
        bail!(
            "--threads must be from 0 (one per core) to {MAX_THREADS}; got {}",
            args.threads
        );
    }
    let budget = args.chunks.unwrap_or(u64::MAX);
    let games: u64 = pending
        .iter()
        .take(usize::try_from(budget).unwrap_or(usize::MAX))
        .map(|k| k.pairs * 2)
        .sum();
    if games == 0 {
        return Ok(());
    }
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} games [{bar:40}] {per_sec} eta {eta}")
            .expect("template")
            .progress_chars("=> "),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| anyhow!("cannot start the worker threads: {e}"))?;
    let taken = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(ChunkKey, ChunkGames)>();
    std::thread::scope(|scope| -> Result<()> {
        scope.spawn(|| {
            pool.install(|| {
                pending.par_iter().for_each_with(tx, |tx, key| {
                    if !stop.load(Ordering::Relaxed)
                        && taken.fetch_add(1, Ordering::Relaxed) < budget
                    {
                        // The receiver only goes away on a storage error, reported below.
                        let _ = tx.send((key.clone(), spec.run_chunk(key)));
                    }
                });
            });
        });
        for (key, games) in rx {
            if let Some(store) = store
                && let Err(e) = store.save(spec, &key, &games)
            {
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
            bar.inc(key.pairs * 2);
            done.insert(key, games);
        }
        Ok(())
    })?;
    bar.finish_and_clear();
    Ok(())
}

/// The command as typed, each argument quoted for a POSIX shell where it needs it.
fn command_line() -> String {
    let words: Vec<String> = std::iter::once("qasab".to_string())
        .chain(std::env::args().skip(1))
        .collect();
    qasab_ai::play::study::shell_words(&words)
}
