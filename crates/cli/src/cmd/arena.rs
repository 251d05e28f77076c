//! `qasab arena`: a round robin between players, with Elo ratings.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qasab_ai::play::arena::{
    ArenaError, ArenaOptions, ArenaReport, GameSink, PlayedGame, arena_with_games,
    merge as merge_reports, pairings, read_report,
};
use qasab_ai::play::jobs::ArenaJob;
use qasab_ai::play::simulate::{Rate, timed};
use qasab_ai::players::Playable;
use qasab_ai::search::endgame::TableSet;
use qasab_core::record::write_record;
use qasab_core::{Player, Ruleset, with_ruleset};

use super::parse_ruleset;
use crate::cli::{ArenaArgs, ArenaMergeArgs};

pub fn run(args: &ArenaArgs) -> Result<ExitCode> {
    // Checks the ruleset, the options and every player, as qasab.distributed does.
    let job = ArenaJob::new(
        &args.ruleset,
        &args.players,
        args.games,
        args.seed,
        args.threads,
    )?;
    let any = parse_ruleset(&args.ruleset)?;
    let tables = super::tables::tables_for(args.tables.as_deref(), &any)?;
    with_ruleset!(&any, r => run_arena(r, &job.players, tables.as_ref(), args))
}

/// `qasab arena-merge`: the reports of several arenas as one.
pub fn merge(args: &ArenaMergeArgs) -> Result<ExitCode> {
    let mut reports = Vec::with_capacity(args.files.len());
    for file in &args.files {
        let name = file.display().to_string();
        let text =
            std::fs::read_to_string(file).map_err(|e| anyhow!("{name}: cannot read: {e}"))?;
        reports.push((name.clone(), read_report(&name, &text)?));
    }
    let report = merge_reports(&reports)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_report(&report, None)?;
        // The line `qasab arena` prints after its report, from the files the reports name.
        if !report.tables.is_empty() {
            outln!(
                "Endgame tables {}: where one holds the position, every player plays by its exact values.",
                report.tables.join(", ")
            );
        }
    }
    if let Some(path) = &args.svg {
        write_ladder(path, &report)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Names the flag an arena error is about, so the message points at what to change.
fn flag_error(err: ArenaError) -> anyhow::Error {
    match err.flag() {
        Some(flag) => anyhow!("{flag}: {err}"),
        None => err.into(),
    }
}

fn run_arena<R: Ruleset>(
    rules: &R,
    specs: &[String],
    tables: Option<&Arc<TableSet>>,
    args: &ArenaArgs,
) -> Result<ExitCode>
where
    R::State: Playable,
{
    let options = ArenaOptions {
        games_per_pairing: args.games,
        seed: args.seed,
        threads: args.threads,
    };
    options.check(specs.len()).map_err(flag_error)?;
    let total = pairings(specs.len()).len() as u64 * args.games;
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} games [{bar:40}] {per_sec} eta {eta}")
            .expect("template")
            .progress_chars("=> "),
    );
    if let Some(dir) = &args.records {
        records_dir(dir)?;
    }
    let options_ref = &options;
    let write = args.records.as_deref().map(|dir| {
        move |game: PlayedGame<'_, R::State>| write_game(rules, dir, options_ref, tables, &game)
    });
    let sink: Option<&GameSink<'_, R::State>> = write.as_ref().map(|w| w as _);
    let refs: Vec<&str> = specs.iter().map(String::as_str).collect();
    let (report, seconds) = timed(|| {
        arena_with_games::<R::State>(rules, &refs, tables, &options, &|| bar.inc(1), sink)
    });
    bar.finish_and_clear();
    let report = report.map_err(flag_error)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        let threads = if args.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            args.threads
        };
        print_report(&report, Some((threads, seconds)))?;
        super::tables::note_tables_text(
            tables,
            "where one holds the position, every player plays by its exact values",
        )?;
    }
    // After the report, so that a chart that cannot be written loses no results.
    if let Some(path) = &args.svg {
        write_ladder(path, &report)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Makes the records directory, or checks that it holds no file, before any game is played:
/// the arena writes a record only where none was.
fn records_dir(dir: &std::path::Path) -> Result<()> {
    let shown = dir.display();
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir)
            .map_err(|e| anyhow!("--records {shown}: cannot read the directory: {e}"))?;
        if entries.next().is_some() {
            bail!("--records {shown}: the directory is not empty; give a new or empty one");
        }
    } else {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow!("--records {shown}: cannot make the directory: {e}"))?;
    }
    Ok(())
}

/// Writes one game's record into the `--records` directory, with an `info tables` line naming
/// the endgame tables the players consulted, if any.
fn write_game<R: Ruleset>(
    rules: &R,
    dir: &std::path::Path,
    options: &ArenaOptions,
    tables: Option<&Arc<TableSet>>,
    game: &PlayedGame<'_, R::State>,
) -> Result<(), String> {
    let width = (options.games_per_pairing / 2).to_string().len();
    let name = format!(
        "pairing-{}-pair-{:0width$}-game-{}.qrec",
        game.pairing + 1,
        game.pair + 1,
        game.game + 1
    );
    let info: Vec<(String, String)> = Player::ALL
        .iter()
        .map(|&p| {
            (
                rules.seat_name(p).to_string(),
                game.seats[p.index()].to_string(),
            )
        })
        .chain([
            ("arena-seed".to_string(), options.seed.to_string()),
            ("pairing".to_string(), (game.pairing + 1).to_string()),
            ("pair".to_string(), (game.pair + 1).to_string()),
            ("game".to_string(), (game.game + 1).to_string()),
        ])
        .chain(tables.map(|t| {
            (
                "tables".to_string(),
                t.files().collect::<Vec<_>>().join(" "),
            )
        }))
        .collect();
    let text = write_record::<R::State>(rules, game.actions, &info);
    let path = dir.join(name);
    qasab_ai::eval::net::file::write_atomically(&path, text.as_bytes())
        .map_err(|e| format!("--records: {e}"))
}

/// The ladder as an SVG chart: the players best first, each rating with its 95% interval,
/// and a line at 0, the players' mean.
fn write_ladder(path: &std::path::Path, report: &ArenaReport) -> Result<()> {
    let players: Vec<String> = report.ratings.iter().map(|r| r.player.clone()).collect();
    let ratings: Vec<qasab_plot::Interval> = report
        .ratings
        .iter()
        .map(|r| qasab_plot::Interval {
            value: r.elo,
            lo: r.elo_ci95[0],
            hi: r.elo_ci95[1],
        })
        .collect();
    let title = format!(
        "Elo ratings on {}, {} games a pairing",
        report.ruleset, report.games_per_pairing
    );
    let svg = qasab_plot::intervals(&title, &players, "Elo", &ratings, Some(0.0), None)
        .map_err(|e| anyhow!("--svg: cannot draw the ladder: {e}"))?;
    qasab_ai::eval::net::file::write_atomically(path, svg.as_bytes())
        .map_err(|e| anyhow!("--svg: {e}"))
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn elo(x: f64) -> String {
    // Adding 0 turns a rounded -0 into +0.
    format!("{:+.0}", x.round() + 0.0)
}

/// A count of `n` games with its share and 95% Wilson interval.
fn rate(what: &str, count: u64, n: u64) -> String {
    let r = Rate::new(count, n);
    format!(
        "{what} {count} ({}, {} - {})",
        pct(r.rate),
        pct(r.ci95[0]),
        pct(r.ci95[1])
    )
}

/// The report as text; `run` is the threads and seconds of an arena just played, none for a
/// merged report.
fn print_report(r: &ArenaReport, run: Option<(usize, f64)>) -> Result<()> {
    let players = r.ratings.len();
    let games: u64 = r.pairings.iter().map(|p| p.games).sum();
    let how = match run {
        Some((threads, seconds)) => format!("seed {}, {threads} threads, {seconds:.2} s", r.seed),
        None => {
            let seeds: Vec<String> = r.seeds.iter().map(u64::to_string).collect();
            format!("seeds {} merged", seeds.join(", "))
        }
    };
    outln!(
        "{}: {} players, {} pairings of {} games ({} games), {how}",
        r.ruleset,
        players,
        r.pairings.len(),
        r.games_per_pairing,
        games,
    );
    outln!(
        "Score: win 1, draw 1/2, truncated game 1/2 each. Both games of a pair share their throws, seats swapped. Intervals are 95%."
    );
    let w = r
        .ratings
        .iter()
        .map(|x| x.player.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    outln!();
    outln!(
        "  {:<w$}  {:<w$}  {:>6}  {:>7}  {:<15}  {:>7}   95% CI",
        "A",
        "B",
        "games",
        "A score",
        "95% CI",
        "Elo A-B"
    );
    let mut sweeps = false;
    for p in &r.pairings {
        let sweep = p.a_score <= 0.0 || p.a_score >= 1.0;
        sweeps |= sweep;
        outln!(
            "  {:<w$}  {:<w$}  {:>6}  {:>7}  {:<15}  {:>7}{} {} - {}",
            p.a,
            p.b,
            p.games,
            pct(p.a_score),
            format!("{} - {}", pct(p.a_score_ci95[0]), pct(p.a_score_ci95[1])),
            elo(p.a_elo),
            if sweep { "*" } else { " " },
            elo(p.a_elo_ci95[0]),
            elo(p.a_elo_ci95[1])
        );
        outln!(
            "      {}; {}; {}; {}",
            rate("A wins", p.a_wins, p.games),
            rate("draws", p.draws, p.games),
            rate("B wins", p.b_wins, p.games),
            rate("truncated", p.truncated, p.games)
        );
        let g = &p.game_pairs;
        outln!(
            "      game pairs {}: A won both {}; B won both {}; the first seat won both {}; the second seat won both {}; with a draw or truncation {}",
            g.pairs(),
            g.a_both,
            g.b_both,
            g.first_seat_both,
            g.second_seat_both,
            g.with_draw
        );
    }
    if sweeps {
        outln!(
            "  * a clean sweep has no finite Elo; it is shown at half a game from the sweep, and the true difference may be larger."
        );
    }
    outln!();
    outln!("Ladder (Bradley-Terry fit to every game; ratings have mean 0):");
    outln!(
        "  {:>4}  {:<w$}  {:>6}  {:<13}  {:>6}  {:>6}",
        "rank",
        "player",
        "Elo",
        "95% CI",
        "games",
        "score"
    );
    for (rank, x) in r.ratings.iter().enumerate() {
        let (mut n, mut points) = (0u64, 0.0);
        for p in &r.pairings {
            if p.a == x.player {
                n += p.games;
                points += p.a_score * p.games as f64;
            } else if p.b == x.player {
                n += p.games;
                points += (1.0 - p.a_score) * p.games as f64;
            }
        }
        outln!(
            "  {:>4}  {:<w$}  {:>6}  {:<13}  {:>6}  {:>6}",
            rank + 1,
            x.player,
            elo(x.elo),
            format!("{} - {}", elo(x.elo_ci95[0]), elo(x.elo_ci95[1])),
            n,
            pct(points / n.max(1) as f64)
        );
    }
    Ok(())
}
