use super::*;
use crate::test_support::{count, count_text, hex, texts};

fn series() -> Vec<(String, Vec<Option<f64>>)> {
    vec![
        (
            "plain".into(),
            vec![Some(0.0), Some(2.0), Some(-2.0), Some(4.0)],
        ),
        (
            "capture=off".into(),
            vec![Some(-1.0), None, Some(3.0), Some(1.0)],
        ),
        ("both <on>".into(), vec![None, Some(5.0), None, None]),
    ]
}

#[test]
fn draws_each_series_with_gaps_where_values_are_missing() {
    let xs = [1.0, 2.0, 3.0, 4.0];
    let svg = lines("Solver value", "counters per pit", &xs, "value", &series()).unwrap();
    for name in [
        "plain",
        "capture=off",
        "both <on>",
        "counters per pit",
        "value",
    ] {
        assert_eq!(count_text(&svg, name), 1, "{name}");
    }
    // Polylines: one per unbroken run, plus the legend's line.
    assert_eq!(count(&svg, "polyline", "stroke", &hex(PALETTE[0])), 1 + 1);
    assert_eq!(count(&svg, "polyline", "stroke", &hex(PALETTE[1])), 1 + 1);
    assert_eq!(
        count(&svg, "polyline", "stroke", &hex(PALETTE[2])),
        1,
        "a lone point has no line"
    );
    // Marks: one per value, plus the legend's.
    assert_eq!(count(&svg, "circle", "fill", &hex(PALETTE[0])), 4 + 1);
    assert_eq!(count(&svg, "rect", "fill", &hex(PALETTE[1])), 3 + 1);
    assert_eq!(count(&svg, "polygon", "fill", &hex(PALETTE[2])), 1 + 1);
    // Values of both signs: a line at zero.
    assert_eq!(count(&svg, "polyline", "stroke", &hex(MUTED)), 1);
    // Whole numbers: whole ticks only.
    let ticks: Vec<_> = texts(&svg)
        .into_iter()
        .filter(|t| t.parse::<f64>().is_ok())
        .collect();
    assert!(ticks.iter().all(|t| !t.contains('.')), "{ticks:?}");
    assert!(ticks.iter().any(|t| t == "-2") && ticks.iter().any(|t| t == "4"));
}

#[test]
fn runs_split_at_gaps() {
    let xs = [1.0, 2.0, 3.0, 4.0, 5.0];
    let v = [Some(1.0), None, None, Some(2.0), Some(3.0)];
    assert_eq!(
        runs(&xs, &v),
        vec![vec![(1.0, 1.0)], vec![(4.0, 2.0), (5.0, 3.0)]]
    );
    assert!(runs(&xs, &[None; 5]).is_empty());
}

#[test]
fn a_single_point_and_many_series_draw() {
    let one = lines("t", "x", &[3.0], "y", &[("a".into(), vec![Some(7.5)])]).unwrap();
    assert_eq!(count_text(&one, "a"), 1);
    let many: Vec<_> = (0..16)
        .map(|i| (format!("series {i}"), vec![Some(f64::from(i))]))
        .collect();
    let svg = lines("t", "x", &[1.0], "y", &many).unwrap();
    for (name, _) in &many {
        assert_eq!(count_text(&svg, name), 1);
    }
}

#[test]
fn rejects_bad_input() {
    let s = series();
    let err = lines("t", "x", &[1.0, 2.0], "y", &s).unwrap_err();
    assert_eq!(
        err,
        PlotError::LengthMismatch {
            what: "series `plain`".into(),
            expected: 2,
            got: 4
        }
    );
    let err = lines("t", "x", &[1.0, 3.0, 2.0, 4.0], "y", &s).unwrap_err();
    assert_eq!(err, PlotError::NotIncreasing("xs".into()));
    let err = lines("t", "x", &[1.0, f64::NAN, 2.0, 4.0], "y", &s).unwrap_err();
    assert_eq!(err, PlotError::NotFinite("xs[1]".into()));
    let mut nan = s.clone();
    nan[1].1[2] = Some(f64::NAN);
    let err = lines("t", "x", &[1.0, 2.0, 3.0, 4.0], "y", &nan).unwrap_err();
    assert_eq!(
        err,
        PlotError::NotFinite("series `capture=off` at x = 3".into())
    );
    assert_eq!(
        lines("t", "x", &[], "y", &s).unwrap_err(),
        PlotError::Empty("xs".into())
    );
    assert_eq!(
        lines("t", "x", &[1.0], "y", &[]).unwrap_err(),
        PlotError::Empty("series".into())
    );
    let empty = [("a".to_string(), vec![None])];
    assert_eq!(
        lines("t", "x", &[1.0], "y", &empty).unwrap_err(),
        PlotError::Empty("every series".into())
    );
}
