//! `qasab endgame`: exact endgame tables (docs/ENDGAMES.md).

use std::process::ExitCode;

use anyhow::{Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use qasab_ai::search::endgame::{
    self, BuildSpec, Checkpoint, Header, Progress, TableFile, file as table_file,
};
use qasab_core::Player;

use super::parse_ruleset;
use crate::cli::{EndgameBuildArgs, EndgameCommand};

pub fn run(cmd: EndgameCommand) -> Result<ExitCode> {
    match cmd {
        EndgameCommand::Build(args) => build(&args),
        EndgameCommand::Probe {
            file,
            position,
            json,
        } => {
            let table = TableFile::open(&file)?;
            let rules = parse_ruleset(&table.header.ruleset)?;
            let p = endgame::probe(&table, &rules, &position)?;
            if json {
                let moves: Vec<serde_json::Value> = p
                    .moves
                    .iter()
                    .map(|m| serde_json::json!({"move": m.text, "value": m.value}))
                    .collect();
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({
                        "ruleset": table.header.ruleset,
                        "position": position,
                        "player": side(p.player),
                        "turn": if p.chance { "throw" } else { "move" },
                        "value": p.value,
                        "value_if_limits_win": p.value_hi,
                        "win": p.win,
                        "loss": p.loss,
                        "draw": p.win.zip(p.loss).map(|(w, l)| (1.0 - w - l).max(0.0)),
                        "moves": moves,
                    }))?
                );
            } else {
                let who = side(p.player);
                let value = value_text(p.value, p.value_hi);
                if p.chance {
                    let (w, l) = (p.win.unwrap_or(0.0), p.loss.unwrap_or(0.0));
                    outln!(
                        "{who} to throw: value {value} (+1 a win, -1 a loss, 0 play that never ends)"
                    );
                    outln!(
                        "win {:.4}, loss {:.4}, never ends {:.4}, under optimal play",
                        w,
                        l,
                        (1.0 - w - l).max(0.0)
                    );
                } else {
                    outln!(
                        "{who} to move: value {value} (+1 a win, -1 a loss, 0 play that never ends)"
                    );
                    for m in &p.moves {
                        let mark = if (m.value - p.value).abs() <= endgame::solve::TIE {
                            "  best"
                        } else {
                            ""
                        };
                        outln!("  {:<24} {:+.6}{mark}", m.text, m.value);
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        EndgameCommand::Verify { file, json } => {
            let table = TableFile::open(&file)?;
            let report = endgame::verify(&table, &file.display().to_string())?;
            if json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&serde_json::json!({
                        "file": file.display().to_string(),
                        "ruleset": table.header.ruleset,
                        "positions": report.positions,
                        "max_error": report.max_error,
                        "tolerance": report.tolerance,
                        "checksum": "ok",
                    }))?
                );
            } else {
                outln!(
                    "{}: checksum ok; {} positions rebuilt from the seeds; every value within {:e} of one Bellman step (largest difference {:.2e})",
                    file.display(),
                    report.positions,
                    report.tolerance,
                    report.max_error
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        EndgameCommand::Compare {
            first,
            second,
            json,
        } => {
            let a = TableFile::open(&first)?;
            let b = TableFile::open(&second)?;
            let c = endgame::compare(&a, &b)?;
            if json {
                outln!("{}", serde_json::to_string_pretty(&c)?);
            } else {
                outln!(
                    "positions   {} in both, {} only in {}, {} only in {}",
                    c.common,
                    c.only_first,
                    first.display(),
                    c.only_second,
                    second.display()
                );
                outln!(
                    "values      largest difference {:.2e}, mean {:.2e}; {} differ by more than {:e}",
                    c.largest,
                    c.mean,
                    c.differing,
                    endgame::compare::SAME
                );
                outln!(
                    "certainty   {} change between a certain win, loss, draw and a result the throws decide",
                    c.certainty_changed
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        EndgameCommand::Stalls(args) => super::stalls::run(&args),
        EndgameCommand::Stats { file, json } => {
            let table = TableFile::open(&file)?;
            print_stats(&table.header, json)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn build(args: &EndgameBuildArgs) -> Result<ExitCode> {
    let rules = parse_ruleset(&args.ruleset)?;
    let pieces = args.pieces.as_deref().map(parse_pieces).transpose()?;
    let max_bytes = endgame::memory_bound(args.max_memory);
    let checkpoint = (!args.no_checkpoint).then(|| {
        Checkpoint::beside(
            &args.out,
            std::time::Duration::from_secs(args.checkpoint_every),
            args.resume,
        )
    });
    if let Some(c) = &checkpoint {
        if c.path.exists() && !c.resume {
            bail!(
                "{} holds a stopped build of {}: add --resume to go on with it, or delete it to start afresh",
                c.path.display(),
                args.out.display()
            );
        }
        if c.resume {
            if c.path.exists() {
                eprintln!("resuming the build kept in {}", c.path.display());
            } else {
                eprintln!("no stopped build in {}: starting afresh", c.path.display());
            }
        }
    }
    let spec = BuildSpec {
        seeds: args.from.clone(),
        pieces,
        bank_cap: args.bank_cap,
        count_cap: args.count_cap,
        pending_cap: args.pending_cap,
        max_positions: args.max_positions,
        max_bytes,
        checkpoint: checkpoint.clone(),
        ..BuildSpec::default()
    };
    let memory = if max_bytes == usize::MAX {
        "no bound on memory".to_string()
    } else {
        format!("at most {} MB of memory", max_bytes / 1_000_000)
    };
    eprintln!(
        "building {rules}: at most {} positions and {memory}; about 200 bytes a position, and {} bytes for each one waiting to be expanded",
        args.max_positions,
        endgame::waiting_bytes(&rules).unwrap_or(0)
    );
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("template"));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| anyhow!("--threads: cannot start the worker threads: {e}"))?;
    let built = pool.install(|| {
        endgame::build(&rules, &spec, &mut |p| match p {
            Progress::Expand { found, expanded } => {
                bar.set_message(format!("positions: {expanded} expanded of {found} found"));
                bar.tick();
            }
            Progress::Solve(s) => {
                let group = if s.group > s.groups {
                    "the closing sweep over every position".to_string()
                } else {
                    format!("group {} of {}", s.group, s.groups)
                };
                bar.set_message(format!(
                    "solving: pass {} of {}, {group}, sweep {}, largest change {:.1e} (to {:.0e})",
                    s.pass, s.passes, s.sweeps, s.change, spec.tolerance
                ));
                bar.tick();
            }
        })
    });
    bar.finish_and_clear();
    let built = built?;
    table_file::write(&args.out, &built.header, built.entries)?;
    if let Some(c) = &checkpoint {
        c.remove()?;
    }
    if !args.json {
        outln!("wrote {}", args.out.display());
    }
    print_stats(&built.header, args.json)?;
    Ok(ExitCode::SUCCESS)
}

fn print_stats(h: &Header, json: bool) -> Result<()> {
    if json {
        outln!("{}", serde_json::to_string_pretty(h)?);
        return Ok(());
    }
    outln!("ruleset     {}", h.ruleset);
    outln!(
        "positions   {} at a throw, up to {} white and {} black pieces",
        h.positions,
        h.pieces[0],
        h.pieces[1]
    );
    outln!("for the player to throw:");
    outln!("  wins      {}", h.wins);
    outln!("  losses    {}", h.losses);
    outln!("  draws     {} (play never ends)", h.draws);
    outln!("  mixed     {} (the throws decide)", h.mixed);
    match h.longest_win_throws {
        Some(t) => outln!("longest forced win: {t:.1} throws expected"),
        None => outln!("longest forced win: none (no position is a certain win)"),
    }
    outln!(
        "solved to   {:e} (residual {:.1e}){}",
        h.tolerance,
        h.residual,
        if h.limits {
            "; a turn's throw cap can end play, so values are bounds"
        } else {
            ""
        }
    );
    outln!(
        "caps        bank {}, track counts {}, pending throws {}",
        h.bank_cap,
        h.count_cap,
        if h.pending_cap == u8::MAX {
            "none".to_string()
        } else {
            format!("{} a kind", h.pending_cap)
        }
    );
    outln!("built in    {:.1} s", h.build_seconds);
    Ok(())
}

fn side(p: Player) -> &'static str {
    match p {
        Player::One => "white",
        Player::Two => "black",
    }
}

/// A value, or the interval between the two bounds where a safety limit can be reached.
fn value_text(lo: f64, hi: f64) -> String {
    if (hi - lo).abs() <= 1e-9 {
        format!("{lo:+.6}")
    } else {
        format!("{lo:+.6} to {hi:+.6}")
    }
}

/// `W,B`: the most white and black pieces of a table.
fn parse_pieces(text: &str) -> Result<[u8; 2]> {
    let bad = || {
        anyhow!(
            "--pieces {text}: expected W,B, the most white and black pieces on the board (e.g. 2,2)"
        )
    };
    let (w, b) = text.split_once(',').ok_or_else(bad)?;
    let count = |x: &str| x.trim().parse::<u8>().ok().filter(|&n| n > 0);
    Ok([count(w).ok_or_else(bad)?, count(b).ok_or_else(bad)?])
}
