//! `qasab ludii-replay`: replays Ludii's recorded games and compares them decision by decision.
//!
//! The trace is gzip-compressed JSON Lines: a `header`, then per game a `game` line, one
//! `step` line per decision and an `end` line. This command reads and decompresses the file,
//! parses each line into the core's trace types and feeds it to the core's replayer
//! ([`qasab_core::tab_ludii::trace`], which does the comparing), then prints the report.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use flate2::read::MultiGzDecoder;
use qasab_core::tab_ludii::trace::{Line, Replayer};
use serde_json::json;

/// Mismatches listed in the JSON report.
const JSON_MISMATCHES: usize = 20;

/// Replays the trace `file` and prints the report (one JSON object with `json`); fails when
/// any mismatch is found.
pub fn run(file: &Path, json: bool) -> Result<ExitCode> {
    let name = file.display().to_string();
    let mut f = File::open(file).with_context(|| format!("cannot read {name}"))?;
    let mut magic = [0u8; 2];
    let got = f
        .read(&mut magic)
        .with_context(|| format!("cannot read {name}"))?;
    if got < 2 || magic != [0x1f, 0x8b] {
        bail!("{name} is not a gzip file (expected a gzip-compressed JSON Lines trace)");
    }
    let f = File::open(file).with_context(|| format!("cannot read {name}"))?;
    let reader = BufReader::new(MultiGzDecoder::new(BufReader::new(f)));
    let mut replayer = Replayer::new();
    for (i, line) in reader.lines().enumerate() {
        let n = i + 1;
        let at = |e: &dyn std::fmt::Display| anyhow!("{name}: line {n}: {e}");
        let line = line.map_err(|e| at(&format!("cannot read the gzip data: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed: Line =
            serde_json::from_str(&line).map_err(|e| at(&format!("bad trace line: {e}")))?;
        replayer.feed(&parsed).map_err(|e| at(&e))?;
    }
    let r = replayer.finish().map_err(|e| anyhow!("{name}: {e}"))?;
    if json {
        let first: Vec<_> = r
            .mismatches
            .iter()
            .take(JSON_MISMATCHES)
            .map(|m| json!({"game": m.game, "step": m.step, "description": m.description}))
            .collect();
        let v = json!({
            "file": name,
            "ruleset": r.ruleset.to_string(),
            "games": r.games,
            "decisions": r.decisions,
            "mismatches": r.mismatches.len(),
            "first_mismatches": first,
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        let header = format!("{} {}", r.game, r.options.join(" "));
        outln!("{name}: {} as {}", header.trim(), r.ruleset);
        for m in &r.mismatches {
            let game = m.game.map_or("-".to_string(), |g| g.to_string());
            let step = m.step.map_or("-".to_string(), |s| s.to_string());
            outln!("  mismatch: game {game}, step {step}: {}", m.description);
        }
        outln!(
            "{} games, {} decisions, {} mismatches",
            r.games,
            r.decisions,
            r.mismatches.len()
        );
    }
    if r.conforms() {
        Ok(ExitCode::SUCCESS)
    } else {
        bail!(
            "{} mismatches with Ludii in {name} (first: {})",
            r.mismatches.len(),
            r.mismatches[0].description
        )
    }
}
