//! `qasab endgame stalls`: the games a safety limit stops, and whether the rules force them
//! (docs/ENDGAMES.md, "Fortresses").

use std::process::ExitCode;

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use qasab_ai::play::jobs::SimulateJob;
use qasab_ai::play::stalls::{ExactStop, StallReport, StallTables, Verdict, stall_of, stalls};
use qasab_ai::players::Playable;
use qasab_ai::search::endgame::TableSet;
use qasab_core::record::{Record, replay};
use qasab_core::{AnyRuleset, Player, Ruleset, Sanctuary, with_ruleset};

use super::parse_ruleset;
use crate::cli::EndgameStallsArgs;

pub fn run(args: &EndgameStallsArgs) -> Result<ExitCode> {
    let Some(ruleset) = &args.ruleset else {
        return from_records(args);
    };
    // The same checks, players and games as `qasab simulate`.
    let job = SimulateJob::new(ruleset, &args.play.players, args.play.games, args.play.seed)?;
    let any = parse_ruleset(ruleset)?;
    let tables = super::tables::tables_for(args.play.tables.as_deref(), &any)?;
    let exact = exact_tables(args, &any)?;
    let [a, b] = &job.players;
    with_ruleset!(&any, r => classify(r, [a.as_str(), b.as_str()], tables.as_ref(), exact.as_ref(), args))
}

/// The tables of `--exact DIR`, if given.
fn exact_tables(args: &EndgameStallsArgs, rules: &AnyRuleset) -> Result<Option<Arc<TableSet>>> {
    match &args.exact {
        Some(dir) => super::tables::tables_in("--exact", dir, rules),
        None => Ok(None),
    }
}

/// The record files named, a directory standing for its files in name order.
fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot read the directory {}", path.display()))?
                .map(|e| e.map(|e| e.path()))
                .collect::<std::io::Result<_>>()
                .with_context(|| format!("cannot read the directory {}", path.display()))?;
            inside.retain(|p| p.is_file());
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    if files.is_empty() {
        bail!("--records: no record file found");
    }
    Ok(files)
}

/// Classifies the games of records, which must all be of one ruleset.
fn from_records(args: &EndgameStallsArgs) -> Result<ExitCode> {
    let files = record_files(&args.records)?;
    let mut records = Vec::new();
    for file in &files {
        records.push((file, super::read_record(file)?));
    }
    let (_, (_, first)) = &records[0];
    let first = first.clone();
    if let Some((file, (_, other))) = records.iter().find(|(_, (_, any))| *any != first) {
        bail!(
            "{}: a game of {other}, where the first record is of {first}; classify one ruleset at a time",
            file.display()
        );
    }
    let records: Vec<(&PathBuf, Record)> = records.into_iter().map(|(f, (r, _))| (f, r)).collect();
    let tables = match exact_tables(args, &first)? {
        Some(t) => Some(t),
        None => super::tables::tables_for(args.play.tables.as_deref(), &first)?,
    };
    with_ruleset!(&first, r => classify_records(r, &records, tables.as_ref(), args.json))
}

fn classify_records<R: Ruleset>(
    rules: &R,
    records: &[(&PathBuf, Record)],
    tables: Option<&Arc<TableSet>>,
    json: bool,
) -> Result<ExitCode>
where
    R::State: Playable,
{
    let mut found = Vec::new();
    for (g, (file, record)) in records.iter().enumerate() {
        let end = replay::<R::State>(record)
            .map_err(|e| anyhow!("{}: {e}", file.display()))?
            .state;
        if let Some(mut stall) = stall_of(rules, g as u64, &end, tables.map(|t| &**t)) {
            stall.record = Some(file.display().to_string());
            found.push(stall);
        }
    }
    let report = StallReport::new(rules.to_string(), None, records.len() as u64, found);
    if json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print(rules, &report)?;
        super::tables::note_tables_text(tables, "the stopped games' exact values")?;
    }
    Ok(ExitCode::SUCCESS)
}

fn classify<R: Ruleset>(
    rules: &R,
    specs: [&str; 2],
    tables: Option<&Arc<TableSet>>,
    exact: Option<&Arc<TableSet>>,
    args: &EndgameStallsArgs,
) -> Result<ExitCode>
where
    R::State: Playable,
{
    let bar = super::simulate::games_bar(args.play.games);
    let report = stalls::<R::State>(
        rules,
        specs,
        StallTables {
            players: tables,
            exact,
        },
        args.play.games,
        args.play.seed,
        args.play.threads,
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    let report = report?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print(rules, &report)?;
        super::tables::note_tables_text(
            tables,
            "both players play by them where they hold the position",
        )?;
        super::tables::note_tables_text(exact.or(tables), "the stopped games' exact values")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What the tables say of a stopped game, in words: the verdict and the chances under
/// optimal play from the next turn's start.
fn exact_text<R: Ruleset>(rules: &R, e: &ExactStop) -> String {
    let [w, b] = Player::ALL.map(|p| rules.seat_name(p));
    match &e.chances {
        Some(c) => format!(
            "{} ({} to throw: {w} wins {:.4}, {b} wins {:.4}, never ends {:.4})",
            e.verdict, e.thrower, c.white, c.black, c.never_ends
        ),
        None => format!("{} ({} to throw, in no table)", e.verdict, e.thrower),
    }
}

fn verdict_text<R: Ruleset>(rules: &R, v: Verdict) -> String {
    match v {
        Verdict::Draw => "draw forced by the rules".into(),
        Verdict::CannotLose(p) => format!("{} cannot lose", rules.seat_name(p)),
        Verdict::Open => "neither side holds a sanctuary".into(),
        Verdict::NotAnalysed => "not analysed".into(),
    }
}

fn print<R: Ruleset>(rules: &R, r: &StallReport) -> Result<()> {
    let [w, b] = Player::ALL.map(|p| rules.seat_name(p));
    match &r.simulation {
        None => outln!(
            "{}: {} recorded games: {} stopped by a limit",
            r.ruleset,
            r.games,
            r.stopped
        ),
        Some(([a, b], seed)) => outln!(
            "{}: {} games of {a} against {b}, seed {seed}: {} stopped by a limit",
            r.ruleset,
            r.games,
            r.stopped
        ),
    }
    if r.stopped == 0 {
        return Ok(());
    }
    outln!(
        "  draws the rules force (both sides hold a sanctuary): {}",
        r.draws
    );
    for (i, side) in [w, b].iter().enumerate() {
        outln!(
            "  only {side} holds a sanctuary ({side} cannot lose):   {} ({} with pieces outside it, free to attack at no risk)",
            r.cannot_lose[i],
            r.cannot_lose_with_free_pieces[i]
        );
    }
    outln!(
        "  neither side holds one:                             {}",
        r.open
    );
    if r.not_analysed > 0 {
        outln!(
            "  not analysed (the ending counts captures, or the game has no sanctuaries): {}",
            r.not_analysed
        );
    }
    if !r.exact.is_empty() {
        outln!("by the endgame tables (under optimal play from the next turn's start):");
        for (verdict, n) in &r.exact {
            outln!("  {verdict:<20} {n}");
        }
    }
    outln!();
    outln!(
        "{:>5} {:>6}  {:<12} {:>7}  {:<24} verdict",
        "game",
        "turns",
        "limit",
        "pieces",
        format!("sanctuaries ({w} | {b})")
    );
    for s in &r.stalls {
        if let Some(file) = &s.record {
            outln!("{file}:");
        }
        let pieces = s
            .material
            .map_or_else(|| "-".to_string(), |[a, b]| format!("{a}-{b}"));
        let sanct = s.sanctuaries.as_ref().map_or_else(
            || "-".to_string(),
            |[a, b]| {
                let side = |v: &Vec<Sanctuary>| {
                    if v.is_empty() {
                        "-".to_string()
                    } else {
                        v.iter()
                            .map(|u| format!("{}:{}", u.square, u.pieces))
                            .collect::<Vec<_>>()
                            .join(",")
                    }
                };
                format!("{} | {}", side(a), side(b))
            },
        );
        outln!(
            "{:>5} {:>6}  {:<12} {:>7}  {:<24} {}",
            s.game,
            s.turns,
            s.reason,
            pieces,
            sanct,
            verdict_text(rules, s.verdict())
        );
        if let Some(e) = &s.exact {
            outln!("{:>14}exact: {}", "", exact_text(rules, e));
        }
    }
    outln!();
    if r.simulation.is_none() {
        outln!("`--json` gives each game's final position id.");
    } else {
        outln!(
            "`--json` gives each game's final position id; `qasab simulate` with the same arguments plays the same games."
        );
    }
    Ok(())
}
