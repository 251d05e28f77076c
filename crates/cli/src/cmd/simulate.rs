//! `qasab simulate`.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qasab_ai::play::jobs::SimulateJob;
use qasab_ai::play::simulate::{SimulationReport, simulate, timed};
use qasab_ai::players::Playable;
use qasab_ai::search::endgame::TableSet;
use qasab_core::{Player, Ruleset, with_ruleset};

use super::parse_ruleset;
use crate::cli::SimulateArgs;

pub fn run(args: &SimulateArgs) -> Result<ExitCode> {
    // Checks the ruleset, the players (both, so that a typo fails at once) and the games.
    let job = SimulateJob::new(
        &args.ruleset,
        &args.play.players,
        args.play.games,
        args.play.seed,
    )?;
    let any = parse_ruleset(&args.ruleset)?;
    let tables = super::tables::tables_for(args.play.tables.as_deref(), &any)?;
    let [a, b] = &job.players;
    with_ruleset!(&any, r => sim(r, [a.as_str(), b.as_str()], tables.as_ref(), args))
}

/// The progress bar of `games` simulated games, on stderr.
pub fn games_bar(games: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} games [{bar:40}] {per_sec} eta {eta}")
            .expect("template")
            .progress_chars("=> "),
    );
    bar
}

fn sim<R: Ruleset>(
    rules: &R,
    specs: [&str; 2],
    tables: Option<&Arc<TableSet>>,
    args: &SimulateArgs,
) -> Result<ExitCode>
where
    R::State: Playable,
{
    let bar = games_bar(args.play.games);
    let (summaries, seconds) = timed(|| {
        simulate::<R::State>(
            rules,
            specs,
            tables,
            args.play.games,
            args.play.seed,
            args.play.threads,
            &|| bar.inc(1),
        )
    });
    bar.finish_and_clear();
    let summaries = summaries?;
    let threads = if args.play.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.play.threads
    };
    let report = SimulationReport::new(
        rules,
        specs.map(String::from),
        args.play.seed,
        &summaries,
        seconds,
    );
    if args.json {
        let mut json = report.to_json(rules, threads);
        super::tables::note_tables_json(&mut json, tables);
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        print_report(
            rules,
            &report,
            &summaries.iter().map(|s| s.turns).collect::<Vec<_>>(),
            threads,
        )?;
        super::tables::note_tables_text(
            tables,
            "where one holds the position, both players play by its exact values",
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn print_report<R: Ruleset>(
    rules: &R,
    r: &SimulationReport,
    turns: &[u32],
    threads: usize,
) -> Result<()> {
    outln!(
        "{}: {} games, seed {}, {} threads, {:.2} s",
        r.ruleset,
        r.games,
        r.seed,
        threads,
        r.seconds
    );
    for p in Player::ALL {
        let i = p.index();
        let w = &r.win_rates[i];
        outln!(
            "  {:<6} {:<28} wins {:>6}  {:>6}  (95% CI {} - {})",
            rules.seat_name(p),
            r.players[i],
            r.wins[i],
            pct(w.rate),
            pct(w.ci95[0]),
            pct(w.ci95[1])
        );
    }
    outln!(
        "  draws {} {} (95% CI {} - {}), truncated {}",
        r.draws,
        pct(r.draw_rate.rate),
        pct(r.draw_rate.ci95[0]),
        pct(r.draw_rate.ci95[1]),
        r.truncated
    );
    let t = &r.turns;
    outln!(
        "  length: mean {:.1} turns (sd {:.1}), {:.1} actions; min {}, p10 {}, median {}, p90 {}, max {}",
        r.mean_turns,
        t.sd,
        r.mean_actions,
        t.min,
        t.p10,
        t.median,
        t.p90,
        t.max
    );
    outln!(
        "  mean final score: {} {:.2}, {} {:.2}",
        rules.seat_name(Player::One),
        r.mean_scores[0],
        rules.seat_name(Player::Two),
        r.mean_scores[1]
    );
    let reasons: Vec<String> = r
        .end_reasons
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    outln!("  ended by: {}", reasons.join(", "));
    if let (Some(tpt), Some(share)) = (r.throws_per_turn, r.tab_turn_share) {
        outln!(
            "  sticks: {tpt:.2} throws per turn, {:.1}% of turns with a tab; per game: {:.1} captures, {:.1} conversions, {:.2} reductions, {:.2} tabs banked",
            100.0 * share,
            r.captures.unwrap_or(0.0),
            r.conversions.unwrap_or(0.0),
            r.reductions.unwrap_or(0.0),
            r.banked.unwrap_or(0.0)
        );
    }
    print_histogram(turns, t.min, t.max)
}

/// A ten-bin histogram of game lengths.
fn print_histogram(values: &[u32], min: u32, max: u32) -> Result<()> {
    if values.is_empty() {
        return Ok(());
    }
    let bins = 10u32.min(max - min + 1);
    let width = (max - min + 1).div_ceil(bins);
    let mut counts = vec![0usize; bins as usize];
    for &v in values {
        counts[((v - min) / width) as usize] += 1;
    }
    let top = *counts.iter().max().unwrap_or(&1);
    outln!("  turns histogram:");
    for (i, c) in counts.iter().enumerate() {
        let lo = min + i as u32 * width;
        let bar = "#".repeat((c * 40).div_ceil(top.max(1)));
        outln!("    {:>5}-{:<5} {:>7} {bar}", lo, lo + width - 1, c);
    }
    Ok(())
}
