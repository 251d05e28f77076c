//! `qasab endgame stalls`: the games a safety limit stops, and whether the rules force them
//! (docs/ENDGAMES.md, "Fortresses").

use std::process::ExitCode;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qasab_ai::play::jobs::SimulateJob;
use qasab_ai::play::stalls::{StallReport, Verdict, stalls};
use qasab_ai::players::Playable;
use qasab_core::{Player, Ruleset, with_ruleset};

use super::parse_ruleset;
use crate::cli::EndgameStallsArgs;

pub fn run(args: &EndgameStallsArgs) -> Result<ExitCode> {
    // The same checks, players and games as `qasab simulate`.
    let job = SimulateJob::new(&args.ruleset, &args.players, args.games, args.seed)?;
    let any = parse_ruleset(&args.ruleset)?;
    let [a, b] = &job.players;
    with_ruleset!(&any, r => classify(r, [a.as_str(), b.as_str()], args))
}

fn classify<R: Ruleset>(rules: &R, specs: [&str; 2], args: &EndgameStallsArgs) -> Result<ExitCode>
where
    R::State: Playable,
{
    let bar = ProgressBar::with_draw_target(Some(args.games), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} games [{bar:40}] eta {eta}")
            .expect("template")
            .progress_chars("=> "),
    );
    let report = stalls::<R::State>(rules, specs, args.games, args.seed, args.threads, &|| {
        bar.inc(1)
    });
    bar.finish_and_clear();
    let report = report?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print(rules, &report)?;
    }
    Ok(ExitCode::SUCCESS)
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
    outln!(
        "{}: {} games of {} against {}, seed {}: {} stopped by a limit",
        r.ruleset,
        r.games,
        r.players[0],
        r.players[1],
        r.seed,
        r.stopped
    );
    if r.stopped == 0 {
        return Ok(());
    }
    outln!(
        "  draws the rules force (both sides hold a sanctuary): {}",
        r.draws
    );
    outln!(
        "  only {w} holds a sanctuary ({w} cannot lose):   {}",
        r.cannot_lose[0]
    );
    outln!(
        "  only {b} holds a sanctuary ({b} cannot lose):   {}",
        r.cannot_lose[1]
    );
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
        let pieces = s
            .material
            .map_or_else(|| "-".to_string(), |[a, b]| format!("{a}-{b}"));
        let sanct = s.sanctuaries.as_ref().map_or_else(
            || "-".to_string(),
            |[a, b]| {
                let side = |v: &Vec<String>| {
                    if v.is_empty() {
                        "-".to_string()
                    } else {
                        v.join(",")
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
    }
    outln!();
    outln!(
        "`--json` gives each game's final position id; `qasab simulate` with the same arguments plays the same games."
    );
    Ok(())
}
