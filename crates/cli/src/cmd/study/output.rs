//! The results of a study: the terminal table, JSON, CSV, the charts and the report.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use qasab_ai::play::study::metrics::{Estimate, Metrics};
use qasab_ai::play::study::{SolverValue, StudyReport, VariantReport};
use qasab_plot::{Chart, Interval, Quantiles, Report, Table};

/// The report as pretty JSON, with the command that made it.
pub fn json(report: &StudyReport, command: &str) -> Result<String> {
    Ok(qasab_ai::play::study::json_with_command(report, command))
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A metric's value as the table shows it: a share as a percentage, else 3 significant digits.
fn show(name: &str, x: f64) -> String {
    if Metrics::is_share(name) {
        pct(x)
    } else if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else if x.abs() >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
    }
}

/// A value with its interval, `48.0% (41.2-55.0)`.
fn with_interval(name: &str, e: &Estimate) -> String {
    format!(
        "{} ({} to {})",
        show(name, e.value),
        show(name, e.ci95[0]),
        show(name, e.ci95[1])
    )
}

fn metric(v: &VariantReport, name: &str) -> Option<Estimate> {
    v.metrics
        .entries()
        .into_iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, e)| e)
}

fn solver_text(s: &Option<SolverValue>) -> String {
    match s {
        Some(SolverValue::Value(v)) => format!("{v:+}"),
        Some(SolverValue::Error(_)) => "none".into(),
        None => String::new(),
    }
}

/// The summary table: one row per variant, the main metrics with their intervals.
fn summary(report: &StudyReport) -> Table {
    let has_games = report.games > 0;
    let has_skill = report.skill.is_some();
    let has_solver = report.variants.iter().any(|v| v.solver.is_some());
    let mut headers: Vec<String> = vec!["variant".into()];
    if has_games {
        let seats = report
            .variants
            .first()
            .map(|v| v.seats.clone())
            .unwrap_or_default();
        headers.extend([
            "games".to_string(),
            format!("{} wins", seats[0]),
            format!("{} wins", seats[1]),
            "Balance".into(),
            "Timeouts".into(),
            "ForcedDrawStops".into(),
            "DurationTurns".into(),
            "DecisionMoves".into(),
            "BranchingFactor".into(),
            "LeadChange".into(),
            "Drama".into(),
        ]);
    }
    if has_skill {
        headers.push("strong's score".into());
    }
    if has_solver {
        headers.push("exact value".into());
    }
    let rows = report
        .variants
        .iter()
        .map(|v| {
            let mut row = vec![v.label.clone()];
            if has_games {
                row.push(v.games.to_string());
                for r in v.win_rates.iter().flatten() {
                    row.push(with_interval("AdvantageP1", r));
                }
                for name in [
                    "Balance",
                    "Timeouts",
                    "ForcedDrawStops",
                    "DurationTurns",
                    "DecisionMoves",
                    "BranchingFactor",
                    "LeadChange",
                    "Drama",
                ] {
                    row.push(metric(v, name).map_or(String::new(), |e| show(name, e.value)));
                }
            }
            if has_skill {
                row.push(
                    v.skill
                        .as_ref()
                        .map_or(String::new(), |s| with_interval("AdvantageP1", &s.score)),
                );
            }
            if has_solver {
                row.push(solver_text(&v.solver));
            }
            row
        })
        .collect();
    Table { headers, rows }
}

/// Prints the summary table, its columns aligned.
pub fn print_table(report: &StudyReport) -> Result<()> {
    let t = summary(report);
    outln!("{}", describe(report));
    outln!();
    let widths: Vec<usize> = (0..t.headers.len())
        .map(|c| {
            std::iter::once(&t.headers[c])
                .chain(t.rows.iter().map(|r| &r[c]))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in std::iter::once(&t.headers).chain(&t.rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(s, w)| format!("{s:<w$}"))
            .collect();
        outln!("{}", cells.join("  ").trim_end());
    }
    outln!();
    outln!(
        "Win rates and scores with their 95% intervals. Every metric with its interval is in --json and in --out DIR (results.csv, results.json, report.html); docs/study.md defines them."
    );
    Ok(())
}

/// One sentence saying what was played.
fn describe(report: &StudyReport) -> String {
    let mut s = format!(
        "{} variants of {}; seed {}",
        report.variants.len(),
        report.base,
        report.seed
    );
    if report.games > 0 {
        s += &format!(
            "; {} games each between {} and {}, seated both ways with the same throws",
            report.games, report.players[0], report.players[1]
        );
    }
    if let Some(k) = &report.skill {
        s += &format!("; skill check: {} against {}", k.strong, k.weak);
    }
    s
}

/// Writes `text` to `dir/name` and notes the file in `files`.
fn write_file(dir: &Path, name: &str, text: &str, files: &mut Vec<PathBuf>) -> Result<()> {
    let path = dir.join(name);
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    files.push(path);
    Ok(())
}

/// Writes results.json, results.csv, the charts and report.html into `dir`; returns the files.
pub fn write_all(dir: &Path, report: &StudyReport, command: &str) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    write_file(
        dir,
        "results.json",
        &(json(report, command)? + "\n"),
        &mut files,
    )?;
    write_file(dir, "results.csv", &csv(report)?, &mut files)?;
    files.extend(write_pictures(dir, report, command)?);
    Ok(files)
}

/// Draws the charts and report.html of the study in `dir` again from its results.json, which
/// is read, not written: the games and their figures stay as they were.
pub fn redraw(dir: &Path) -> Result<Vec<PathBuf>> {
    #[derive(serde::Deserialize)]
    struct Results {
        command: String,
        #[serde(flatten)]
        report: StudyReport,
    }
    let path = dir.join("results.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let results: Results = serde_json::from_str(&text)
        .with_context(|| format!("{} is not the results of a study", path.display()))?;
    write_pictures(dir, &results.report, &results.command)
}

/// Writes the charts and report.html into `dir`; returns the files.
fn write_pictures(dir: &Path, report: &StudyReport, command: &str) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let charts = charts(report)?;
    for c in &charts {
        write_file(dir, &c.file, &c.svg, &mut files)?;
    }
    let html = qasab_plot::report_html(&Report {
        title: format!("Qasab study: {}", report.base),
        command: command.to_string(),
        notes: vec![
            describe(report),
            "Intervals are 95%. The metrics follow Ludii's names and definitions where Ludii has them; see docs/study.md in the Qasab sources for each definition.".into(),
        ],
        table: summary(report),
        charts,
    });
    write_file(dir, "report.html", &html, &mut files)?;
    Ok(files)
}

/// Every variant in one CSV row: the varied values, the counts, then each metric with its
/// interval, the skill check and the exact value.
fn csv(report: &StudyReport) -> Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = ["ruleset", "label"].map(String::from).to_vec();
    header.extend(report.varied.iter().cloned());
    header.extend(["games", "wins_first", "wins_second", "draws", "timeouts"].map(String::from));
    for (name, _) in Metrics::default().entries() {
        header.extend([name.to_string(), format!("{name}_lo"), format!("{name}_hi")]);
    }
    header.extend(
        [
            "skill_games",
            "skill_score",
            "skill_score_lo",
            "skill_score_hi",
            "solver_value",
            "solver_error",
        ]
        .map(String::from),
    );
    w.write_record(&header)?;
    for v in &report.variants {
        let mut row = vec![v.ruleset.clone(), v.label.clone()];
        row.extend(
            report
                .varied
                .iter()
                .map(|k| v.values.get(k).cloned().unwrap_or_default()),
        );
        row.extend([
            v.games.to_string(),
            v.wins[0].to_string(),
            v.wins[1].to_string(),
            v.draws.to_string(),
            v.timeouts.to_string(),
        ]);
        let triple = |e: Option<&Estimate>| match e {
            Some(e) => [e.value, e.ci95[0], e.ci95[1]].map(|x| x.to_string()),
            None => Default::default(),
        };
        for (_, e) in v.metrics.entries() {
            row.extend(triple(e.as_ref()));
        }
        row.push(
            v.skill
                .as_ref()
                .map_or(String::new(), |s| s.games.to_string()),
        );
        row.extend(triple(v.skill.as_ref().map(|s| &s.score)));
        let (value, error) = match &v.solver {
            Some(SolverValue::Value(x)) => (x.to_string(), String::new()),
            Some(SolverValue::Error(e)) => (String::new(), e.clone()),
            None => (String::new(), String::new()),
        };
        row.extend([value, error]);
        w.write_record(&row)?;
    }
    Ok(String::from_utf8(
        w.into_inner().context("cannot write the CSV")?,
    )?)
}

fn interval(e: &Estimate) -> Interval {
    Interval {
        value: e.value,
        lo: e.ci95[0],
        hi: e.ci95[1],
    }
}

/// The charts of a study: seat win rates, game lengths and the skill check when there are
/// games; heat maps when exactly two options are varied; the exact values for Tihbat.
fn charts(report: &StudyReport) -> Result<Vec<Chart>> {
    let labels: Vec<String> = report.variants.iter().map(|v| v.label.clone()).collect();
    let mut out = Vec::new();
    let mut add =
        |file: &str, caption: String, svg: Result<String, qasab_plot::PlotError>| -> Result<()> {
            out.push(Chart {
                caption,
                file: file.into(),
                svg: svg.with_context(|| format!("cannot draw {file}"))?,
            });
            Ok(())
        };
    let played: Vec<&VariantReport> = report.variants.iter().filter(|v| v.games > 0).collect();
    if !played.is_empty() {
        let seats = played[0].seats.clone();
        let rates: Vec<[Interval; 2]> = played
            .iter()
            .map(|v| {
                let r = v.win_rates.as_ref().expect("a variant with games");
                [interval(&r[0]), interval(&r[1])]
            })
            .collect();
        add(
            "win-rates.svg",
            format!(
                "Win rate of each seat, {} games per variant, 95% intervals",
                report.games
            ),
            qasab_plot::seat_win_rates("Seat win rates", &labels, [&seats[0], &seats[1]], &rates),
        )?;
        let q: Vec<Quantiles> = played
            .iter()
            .map(|v| {
                let l = v.lengths.as_ref().expect("a variant with games");
                Quantiles {
                    min: f64::from(l.min),
                    p10: f64::from(l.p10),
                    q1: f64::from(l.q1),
                    median: f64::from(l.median),
                    q3: f64::from(l.q3),
                    p90: f64::from(l.p90),
                    max: f64::from(l.max),
                    mean: l.mean,
                }
            })
            .collect();
        add(
            "lengths.svg",
            "Game length in turns: box from the first to the third quartile, median line, whiskers at the 10th and 90th percentiles, mean marked".into(),
            qasab_plot::lengths("Game length", &labels, "turns", &q),
        )?;
        if let Some(k) = &report.skill {
            let scores: Vec<Interval> = played
                .iter()
                .map(|v| interval(&v.skill.as_ref().expect("a skill check").score))
                .collect();
            add(
                "skill.svg",
                format!(
                    "Skill check: the score of {} against {}, 95% intervals; 50% means skill does not show",
                    k.strong, k.weak
                ),
                qasab_plot::intervals(
                    "Strong player's score",
                    &labels,
                    "score",
                    &scores,
                    Some(0.5),
                    Some((0.0, 1.0)),
                ),
            )?;
        }
    }
    if let [x, y] = report.varied.as_slice() {
        let xs = axis_values(report, x);
        let ys = axis_values(report, y);
        let cell = |f: &dyn Fn(&VariantReport) -> Option<f64>| -> Vec<Vec<Option<f64>>> {
            ys.iter()
                .map(|yv| {
                    xs.iter()
                        .map(|xv| {
                            report
                                .variants
                                .iter()
                                .find(|v| {
                                    v.values.get(x) == Some(xv) && v.values.get(y) == Some(yv)
                                })
                                .and_then(f)
                        })
                        .collect()
                })
                .collect()
        };
        if !played.is_empty() {
            add(
                "heat-advantage.svg",
                "The first seat's win rate (AdvantageP1) for each pair of values".into(),
                qasab_plot::heat_map(
                    "AdvantageP1",
                    x,
                    &xs,
                    y,
                    &ys,
                    &cell(&|v| metric(v, "AdvantageP1").map(|e| e.value)),
                    "first seat's win rate",
                    Some((0.0, 1.0)),
                ),
            )?;
            add(
                "heat-length.svg",
                "Mean game length in turns (DurationTurns) for each pair of values".into(),
                qasab_plot::heat_map(
                    "DurationTurns",
                    x,
                    &xs,
                    y,
                    &ys,
                    &cell(&|v| metric(v, "DurationTurns").map(|e| e.value)),
                    "turns",
                    None,
                ),
            )?;
            if report.skill.is_some() {
                add(
                    "heat-skill.svg",
                    "The strong player's score for each pair of values".into(),
                    qasab_plot::heat_map(
                        "Skill check",
                        x,
                        &xs,
                        y,
                        &ys,
                        &cell(&|v| v.skill.as_ref().map(|s| s.score.value)),
                        "strong player's score",
                        Some((0.0, 1.0)),
                    ),
                )?;
            }
        }
        if report.variants.iter().any(|v| v.solver.is_some()) {
            add(
                "heat-solver.svg",
                "The exact value of the start for the first player, in counters, for each pair of values".into(),
                qasab_plot::heat_map("Exact value", x, &xs, y, &ys, &cell(&solver_value), "counters", None),
            )?;
        }
    }
    if report.variants.iter().any(|v| v.solver.is_some())
        && report.varied.iter().any(|k| k == "seeds")
    {
        solver_charts(report, &mut add)?;
    }
    Ok(out)
}

fn solver_value(v: &VariantReport) -> Option<f64> {
    match v.solver {
        Some(SolverValue::Value(x)) => Some(f64::from(x)),
        _ => None,
    }
}

/// The values an option takes in the study, in the order they first appear.
fn axis_values(report: &StudyReport, key: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in &report.variants {
        if let Some(x) = v.values.get(key)
            && !out.contains(x)
        {
            out.push(x.clone());
        }
    }
    out
}

/// The most lines in one chart of exact values.
const MAX_LINES: usize = 12;

/// Adds a chart: its file name, caption and drawing.
type AddChart<'a> =
    dyn FnMut(&str, String, Result<String, qasab_plot::PlotError>) -> Result<()> + 'a;

/// For a Tihbat study that varies `seeds`: the exact value against the counters per pit, one
/// line per combination of the other options, and the same as a heat map.
fn solver_charts(report: &StudyReport, add: &mut AddChart<'_>) -> Result<()> {
    let seeds = axis_values(report, "seeds");
    let others: Vec<&String> = report.varied.iter().filter(|k| *k != "seeds").collect();
    let combo = |v: &VariantReport| {
        let parts: Vec<String> = others
            .iter()
            .map(|k| format!("{k}={}", v.values.get(*k).cloned().unwrap_or_default()))
            .collect();
        if parts.is_empty() {
            report.base.clone()
        } else {
            parts.join(", ")
        }
    };
    let mut combos: Vec<String> = Vec::new();
    for v in &report.variants {
        let c = combo(v);
        if !combos.contains(&c) {
            combos.push(c);
        }
    }
    let grid: Vec<Vec<Option<f64>>> = combos
        .iter()
        .map(|c| {
            seeds
                .iter()
                .map(|s| {
                    report
                        .variants
                        .iter()
                        .find(|v| combo(v) == *c && v.values.get("seeds") == Some(s))
                        .and_then(solver_value)
                })
                .collect()
        })
        .collect();
    let xs: Vec<f64> = seeds.iter().map(|s| s.parse().unwrap_or(0.0)).collect();
    if combos.len() > MAX_LINES {
        // Too many lines to tell apart: the heat map below shows them all.
        return add(
            "solver-heat.svg",
            "The exact value of the start for every combination of options (rows) and counters per pit (columns); a blank cell has no exact value".into(),
            qasab_plot::heat_map("Exact value of the start", "seeds", &seeds, "options", &combos, &grid, "counters", None),
        );
    }
    let series: Vec<(String, Vec<Option<f64>>)> =
        combos.iter().cloned().zip(grid.iter().cloned()).collect();
    add(
        "solver.svg",
        "The exact value of the start for the first player, in counters, against the counters per pit".into(),
        qasab_plot::lines("Exact value of the start", "counters per pit", &xs, "value (counters)", &series),
    )?;
    if others.len() != 1 {
        add(
            "solver-heat.svg",
            "The exact value of the start for every combination of options (rows) and counters per pit (columns); a blank cell has no exact value".into(),
            qasab_plot::heat_map("Exact value of the start", "seeds", &seeds, "options", &combos, &grid, "counters", None),
        )?;
    }
    Ok(())
}
