//! Writes every chart and a report of made-up numbers to a folder, to look at them:
//! `cargo run -p qasab-plot --example sample_report -- OUT_DIR`.

use std::path::PathBuf;

use qasab_plot::{Chart, Interval, PlotError, Quantiles, Report, Table};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "sample-report".into()),
    );
    std::fs::create_dir_all(&out)?;
    let n: usize = std::env::args().nth(2).map_or(Ok(6), |s| s.parse())?;
    let variants: Vec<String> = (0..n)
        .map(|i| match i % 4 {
            0 => format!("tab-hyde-ludii-{i}"),
            1 => format!("reduction=square-landed,seeds={i}"),
            2 => format!("tab(reduction={i})"),
            _ => format!("v{i}"),
        })
        .collect();
    let charts = charts(&variants)?;
    for c in &charts {
        std::fs::write(out.join(&c.file), &c.svg)?;
    }
    let report = Report {
        title: "Variant study: Tâb".into(),
        command: "qasab study 'tab(reduction=square-landed)' --games 2000 --seed 7".into(),
        notes: vec![
            "Win rates are of 2000 games per variant, with Wilson 95% intervals.".into(),
            "Made-up numbers <for> a look at the layout & styling.".into(),
        ],
        table: Table {
            headers: vec![
                "variant".into(),
                "first seat wins".into(),
                "mean length".into(),
            ],
            rows: variants
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    vec![
                        v.clone(),
                        format!("{}%", 40 + i % 20),
                        format!("{}", 80 + i),
                    ]
                })
                .collect(),
        },
        charts,
    };
    std::fs::write(out.join("index.html"), qasab_plot::report_html(&report))?;
    println!("wrote {}", out.join("index.html").display());
    Ok(())
}

fn charts(variants: &[String]) -> Result<Vec<Chart>, PlotError> {
    let n = variants.len();
    let iv = |value: f64, half: f64| Interval {
        value,
        lo: value - half,
        hi: value + half,
    };
    let rates: Vec<_> = (0..n)
        .map(|i| {
            let v = 0.35 + 0.3 * (i as f64 / n as f64);
            [iv(v, 0.03), iv(1.0 - v - 0.02, 0.03)]
        })
        .collect();
    let quantiles: Vec<_> = (0..n)
        .map(|i| {
            let b = 20.0 + 3.0 * i as f64;
            Quantiles {
                min: b,
                p10: b + 8.0,
                q1: b + 15.0,
                median: b + 22.0,
                q3: b + 31.0,
                p90: b + 45.0,
                max: b + 90.0,
                mean: b + 26.0,
            }
        })
        .collect();
    let gaps: Vec<_> = (0..n)
        .map(|i| iv(0.55 + 0.04 * (i % 8) as f64, 0.04))
        .collect();
    let x: Vec<String> = (1..=5).map(|s| s.to_string()).collect();
    let y = vec![
        "plain".to_string(),
        "reduction=square-landed".to_string(),
        "capture".to_string(),
    ];
    let cells: Vec<Vec<Option<f64>>> = (0..3)
        .map(|r| {
            (0..5)
                .map(|c| (r + c != 4).then(|| 0.3 + 0.1 * (r + c) as f64))
                .collect()
        })
        .collect();
    let xs: Vec<f64> = (1..=8).map(f64::from).collect();
    let series: Vec<(String, Vec<Option<f64>>)> = (0..4)
        .map(|s| {
            let values =
                (1..=8).map(|k| (k != 5 || s != 1).then(|| f64::from((k * (s + 1)) % 7 - 3)));
            (format!("capture={},sow={}", s % 2, s / 2), values.collect())
        })
        .collect();
    let chart = |caption: &str, file: &str, svg| Chart {
        caption: caption.into(),
        file: file.into(),
        svg,
    };
    Ok(vec![
        chart(
            "Win rate of each seat per variant, with 95% intervals.",
            "win-rates.svg",
            qasab_plot::seat_win_rates("Wins by seat", variants, ["first", "second"], &rates)?,
        ),
        chart(
            "Game lengths per variant.",
            "lengths.svg",
            qasab_plot::lengths("Game lengths", variants, "turns", &quantiles)?,
        ),
        chart(
            "The strong player's score against the weak one.",
            "skill-gap.svg",
            qasab_plot::intervals(
                "Skill gap",
                variants,
                "score of the strong player",
                &gaps,
                Some(0.5),
                Some((0.0, 1.0)),
            )?,
        ),
        chart(
            "First seat's win rate over two options.",
            "heat-map.svg",
            qasab_plot::heat_map(
                "First seat wins",
                "seeds",
                &x,
                "rules",
                &y,
                &cells,
                "win rate of the first seat",
                Some((0.0, 1.0)),
            )?,
        ),
        chart(
            "Exact value of the start by counters per pit.",
            "solver.svg",
            qasab_plot::lines(
                "Tihbat: value of the start",
                "counters per pit",
                &xs,
                "value for the first player",
                &series,
            )?,
        ),
    ])
}
