//! `qasab analyse` over several records: every game rated by one player, and each player's
//! totals over them, labelled by the records' `info` lines.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qasab_ai::agent::ValueKind;
use qasab_ai::eval::Evaluate;
use qasab_ai::play::analysis::{PlayerSummary, PlayerTotals, kind_name, score_from_losses};
use qasab_ai::play::arena::{GameResult, MAX_THREADS};
use qasab_ai::play::simulate::timed;
use qasab_ai::players::Playable;
use qasab_ai::search::endgame::TableSet;
use qasab_core::record::{Record, replay};
use qasab_core::{GameState, Player, Ruleset, with_ruleset};
use rayon::prelude::*;
use serde_json::json;

use super::{analyse_game, rating_player};
use crate::cli::AnalyseArgs;

/// The extension of the record files a directory is searched for.
const EXTENSION: &str = "qrec";

pub fn run(args: &AnalyseArgs) -> Result<ExitCode> {
    if args.threads > MAX_THREADS {
        bail!(
            "--threads: from 0 (one per core) to {MAX_THREADS}; got {}",
            args.threads
        );
    }
    let files = record_files(&args.records)?;
    let mut records = Vec::with_capacity(files.len());
    for file in files {
        let (record, any) = super::super::read_record(&file)?;
        records.push((file, record, any));
    }
    let first = records[0].2.to_string();
    for (file, _, any) in &records[1..] {
        if any.to_string() != first {
            bail!(
                "{}: a record of {any}, where the first is of {first}; analyse one ruleset at a time",
                file.display()
            );
        }
    }
    let any = records[0].2.clone();
    let games: Vec<(PathBuf, Record)> = records.into_iter().map(|(f, r, _)| (f, r)).collect();
    let tables = super::super::tables::tables_for(args.tables.as_deref(), &any)?;
    with_ruleset!(&any, r => report(r, &games, tables.as_ref(), args))
}

/// The record files named: each file as given, each directory's `.qrec` files by name.
fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("cannot read the directory {}", path.display()))?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<Vec<_>>>()
            .with_context(|| format!("cannot read the directory {}", path.display()))?
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == EXTENSION) && p.is_file())
            .collect();
        if found.is_empty() {
            bail!(
                "{}: the directory holds no .{EXTENSION} record",
                path.display()
            );
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// One analysed game: its record file, the players' labels by seat, their points (`None` if
/// the game is unfinished) and their summaries.
struct Game {
    file: PathBuf,
    labels: [String; 2],
    points: Option<[f64; 2]>,
    players: [PlayerSummary; 2],
    kind: ValueKind,
    /// Whether the rating player rated any decision (not all were forced).
    rated: bool,
}

fn report<R: Ruleset>(
    rules: &R,
    games: &[(PathBuf, Record)],
    tables: Option<&Arc<TableSet>>,
    args: &AnalyseArgs,
) -> Result<ExitCode>
where
    R::State: Playable + Evaluate,
{
    let prepared = rating_player(rules, tables, args)?;
    let agent_spec = prepared.make(args.seed).spec();
    let bar = ProgressBar::with_draw_target(Some(games.len() as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} analysing {pos}/{len} games [{bar:40}] eta {eta}")
            .expect("template")
            .progress_chars("=> "),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| anyhow!("--threads: cannot start the worker threads: {e}"))?;
    let one = |(file, record): &(PathBuf, Record)| -> Result<Game> {
        let at = |e: &dyn std::fmt::Display| anyhow!("{}: {e}", file.display());
        let replayed = replay::<R::State>(record).map_err(|e| at(&e))?;
        let mut agent = prepared.make(args.seed);
        let analysis =
            analyse_game(rules, agent.as_mut(), &replayed.actions, &|| {}).map_err(|e| at(&e))?;
        bar.inc(1);
        let labels = Player::ALL.map(|p| {
            let seat = rules.seat_name(p);
            record
                .info
                .iter()
                .find(|(k, _)| k == seat)
                .map_or_else(|| seat.to_string(), |(_, v)| v.clone())
        });
        let points = (replayed.state.turn().outcome())
            .map(|o| Player::ALL.map(|p| GameResult::of(&o, p).a_score()));
        Ok(Game {
            file: file.clone(),
            labels,
            points,
            players: analysis.players,
            kind: analysis.value_kind,
            rated: analysis.moves.iter().any(|r| r.kind.is_some()),
        })
    };
    let (analysed, seconds) =
        timed(|| pool.install(|| games.par_iter().map(one).collect::<Result<Vec<Game>>>()));
    bar.finish_and_clear();
    let analysed = analysed?;
    // One rating player gives one kind of value, except the Tihbat solver, whose margins are
    // exact where it solved the position and approximate elsewhere, and a player with the
    // endgame tables, exact results where they rated the decisions: the player's own kind.
    let rated = || analysed.iter().filter(|g| g.rated).map(|g| g.kind);
    let kind = (rated().find(|&k| k != ValueKind::ExactResult))
        .or_else(|| rated().next())
        .unwrap_or(analysed[0].kind);
    let expected_results = analysed.iter().all(|g| g.kind.is_result());

    // Each player's totals, in the order the players first appear.
    let mut totals: Vec<PlayerTotals> = Vec::new();
    for g in &analysed {
        for p in Player::ALL {
            let i = p.index();
            let at = match totals.iter().position(|t| t.player == g.labels[i]) {
                Some(at) => at,
                None => {
                    totals.push(PlayerTotals::new(&g.labels[i]));
                    totals.len() - 1
                }
            };
            totals[at].add(&g.players[i], g.points.map(|x| x[i]));
        }
    }
    // With two players and values that are expected results, what the losses say.
    let from_losses = match (expected_results, totals.as_slice()) {
        (true, [a, b]) => Some((
            score_from_losses(a.loss_per_game, b.loss_per_game),
            score_from_losses(0.0, b.loss_per_game),
            score_from_losses(0.0, a.loss_per_game),
        )),
        _ => None,
    };
    if args.json {
        print_json(
            rules,
            &agent_spec,
            kind,
            &analysed,
            &totals,
            from_losses,
            tables,
        )?;
    } else {
        let threads = pool.current_num_threads();
        outln!(
            "{rules}: {} games analysed by {agent_spec}, {threads} threads, {seconds:.2} s",
            analysed.len()
        );
        outln!(
            "Losses against the rating player's best move, in its values ({}).",
            if expected_results {
                "expected results, from -1 for a loss to +1 for a win"
            } else {
                "capture margins, in counters"
            }
        );
        print_totals(&totals)?;
        if tables.is_some() {
            let exact: Vec<String> = (totals.iter())
                .map(|t| {
                    let judged = t.sums.decisions - t.sums.forced;
                    format!("{} of {}'s {judged}", t.sums.exact, t.player)
                })
                .collect();
            outln!(
                "Judged decisions rated exactly by the endgame tables: {}.",
                exact.join(", ")
            );
        }
        if let (Some((score, vs_b, vs_a)), [a, b]) = (from_losses, totals.as_slice()) {
            outln!();
            outln!(
                "From the losses: {} would score {:.1}% against {}; a player who lost nothing would score {:.1}% against {} and {:.1}% against {}.",
                a.player,
                100.0 * score,
                b.player,
                100.0 * vs_b,
                b.player,
                100.0 * vs_a,
                a.player
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_totals(totals: &[PlayerTotals]) -> Result<()> {
    let w = totals
        .iter()
        .map(|t| t.player.len())
        .max()
        .unwrap_or(0)
        .max(6);
    outln!();
    outln!(
        "{:<w$}  {:>6}  {:>6}  {:>9}  {:>9}  {:>10}  {:>4}  {:>4}  {:>4}  {:>9}",
        "player",
        "games",
        "score",
        "loss/game",
        "mean loss",
        "error rate",
        "?!",
        "?",
        "??",
        "luck/game"
    );
    for t in totals {
        outln!(
            "{:<w$}  {:>6}  {:>5.1}%  {:>9.4}  {:>9.4}  {:>9.1}%  {:>4}  {:>4}  {:>4}  {:>+9.4}",
            t.player,
            t.games,
            100.0 * t.score,
            t.loss_per_game,
            t.sums.mean_loss,
            100.0 * t.sums.error_rate,
            t.sums.doubtful,
            t.sums.mistakes,
            t.sums.blunders,
            t.luck_per_game
        );
    }
    let unfinished: usize = totals.iter().map(|t| t.games - t.finished).sum();
    if unfinished > 0 {
        outln!("(the scores count finished games only)");
    }
    Ok(())
}

fn print_json<R: Ruleset>(
    rules: &R,
    agent: &str,
    kind: ValueKind,
    games: &[Game],
    totals: &[PlayerTotals],
    from_losses: Option<(f64, f64, f64)>,
    tables: Option<&Arc<TableSet>>,
) -> Result<()> {
    let seat = |p: Player| rules.seat_name(p);
    let games: Vec<_> = games
        .iter()
        .map(|g| {
            let by_seat = |f: &dyn Fn(usize) -> serde_json::Value| {
                Player::ALL
                    .iter()
                    .map(|&p| (seat(p).to_string(), f(p.index())))
                    .collect::<serde_json::Map<_, _>>()
            };
            json!({
                "record": g.file.display().to_string(),
                "seats": by_seat(&|i| json!(g.labels[i])),
                "points": g.points.map(|x| by_seat(&|i| json!(x[i]))),
                "players": by_seat(&|i| json!(g.players[i])),
            })
        })
        .collect();
    let from_losses = match (from_losses, totals) {
        (Some((score, vs_b, vs_a)), [a, b]) => json!({
            "a": a.player,
            "b": b.player,
            "a_score": score,
            "lossless_against_b": vs_b,
            "lossless_against_a": vs_a,
        }),
        _ => serde_json::Value::Null,
    };
    let mut out = json!({
        "ruleset": rules.to_string(),
        "agent": agent,
        "value_kind": kind_name(kind),
        "games": games,
        "players": totals,
        "from_losses": from_losses,
    });
    super::super::tables::note_tables_json(&mut out, tables);
    outln!("{}", serde_json::to_string_pretty(&out)?);
    Ok(())
}
