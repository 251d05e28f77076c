use super::*;
use crate::test_support::{count, count_text, hex, texts};

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn every_cell_shows_its_value_and_missing_cells_a_dash() {
    let x = strings(&["3", "4", "5"]);
    let y = strings(&["plain", "reduction=square-landed"]);
    let cells = vec![
        vec![Some(0.25), Some(0.5), None],
        vec![Some(0.126), None, Some(-1.5)],
    ];
    let range = Some((-2.0, 2.0));
    let svg = heat_map(
        "Seat one wins",
        "seeds",
        &x,
        "rules",
        &y,
        &cells,
        "win rate",
        range,
    )
    .unwrap();
    for value in ["0.25", "0.5", "0.13", "-1.5"] {
        assert_eq!(count_text(&svg, value), 1, "{value}");
    }
    assert_eq!(count_text(&svg, NO_VALUE), 2);
    let texts = texts(&svg);
    for label in x
        .iter()
        .chain(&y)
        .map(String::as_str)
        .chain(["seeds", "rules", "win rate"])
    {
        assert!(texts.iter().any(|t| t == label), "{label} in {texts:?}");
    }
    assert_eq!(count_text(&svg, "no value"), 1);
    // Missing cells are grey (and the legend swatch), and hatched.
    assert_eq!(count(&svg, "rect", "fill", &hex(MISSING)), 3);
    assert!(count(&svg, "polyline", "stroke", &hex(HATCH)) >= 2 * 4);
    // The scale has the caller's range.
    for tick in ["-2", "-1", "0", "1", "2"] {
        assert_eq!(count_text(&svg, tick), 1, "{tick}");
    }
}

#[test]
fn a_full_grid_has_no_missing_legend_and_honours_the_range() {
    let x = strings(&["a"]);
    let y = strings(&["b"]);
    let svg = heat_map(
        "t",
        "x",
        &x,
        "y",
        &y,
        &[vec![Some(0.75)]],
        "v",
        Some((0.0, 1.0)),
    )
    .unwrap();
    assert_eq!(count_text(&svg, "no value"), 0);
    assert_eq!(count_text(&svg, "0.75"), 2, "the cell and a tick of 0..1");
    assert_eq!(count_text(&svg, "1"), 1);
}

#[test]
fn long_column_labels_stand_upright() {
    let x: Vec<String> = (0..12)
        .map(|i| format!("reduction=square-landed-{i}"))
        .collect();
    let y = strings(&["one"]);
    let cells = vec![(0..12).map(|i| Some(f64::from(i))).collect()];
    let svg = heat_map("t", "x", &x, "y", &y, &cells, "v", None).unwrap();
    assert_eq!(
        count(&svg, "text", "text-anchor", "end"),
        12 + 2,
        "the labels, the row's label and the y key"
    );
    assert!(svg.contains("rotate(270"));
}

#[test]
fn rejects_bad_input() {
    let x = strings(&["1", "2"]);
    let y = strings(&["a"]);
    let err = heat_map("t", "x", &x, "y", &y, &[vec![Some(1.0)]], "v", None).unwrap_err();
    assert!(matches!(
        err,
        PlotError::LengthMismatch {
            expected: 2,
            got: 1,
            ..
        }
    ));
    let err = heat_map("t", "x", &x, "y", &y, &[], "v", None).unwrap_err();
    assert!(matches!(
        err,
        PlotError::LengthMismatch {
            expected: 1,
            got: 0,
            ..
        }
    ));
    let err = heat_map("t", "x", &[], "y", &y, &[vec![]], "v", None).unwrap_err();
    assert_eq!(err, PlotError::Empty("the values of x".into()));
    let nan = [vec![Some(1.0), Some(f64::NAN)]];
    let err = heat_map("t", "x", &x, "y", &y, &nan, "v", None).unwrap_err();
    assert_eq!(err, PlotError::NotFinite("cell x=2, y=a".into()));
    let ok = [vec![Some(1.0), None]];
    let err = heat_map("t", "x", &x, "y", &y, &ok, "v", Some((1.0, 1.0))).unwrap_err();
    assert!(matches!(err, PlotError::BadRange { .. }));
}

#[test]
fn text_reads_on_both_ends_of_the_scale() {
    assert_eq!(ink_on(colour(0.0, (0.0, 1.0))), WHITE);
    assert_eq!(ink_on(colour(1.0, (0.0, 1.0))), BLACK);
}

/// Twenty columns of short values (the counters of a Tihbat study) make a chart narrow enough
/// to be shown at its own size on a desktop page, with cells still wider than their values.
#[test]
fn twenty_short_columns_fit_a_desktop_page() {
    let x: Vec<String> = (1..=20).map(|i| i.to_string()).collect();
    let y = strings(&["none", "own-side"]);
    let cells: Vec<Vec<Option<f64>>> = (0..2)
        .map(|r| {
            (0..20)
                .map(|i| Some(f64::from(i * (r + 1)) - 10.0))
                .collect()
        })
        .collect();
    let svg = heat_map(
        "Exact value",
        "seeds",
        &x,
        "chain",
        &y,
        &cells,
        "counters",
        None,
    )
    .unwrap();
    let (width, _) = crate::test_support::size(&svg);
    assert!(width <= 1100.0, "{width} px wide");
    // The cells: every rectangle of a cell's height.
    let widths: Vec<f64> = crate::test_support::with_doc(&svg, |doc| {
        doc.descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("height") == Some("36"))
            .map(|n| n.attribute("width").unwrap().parse().unwrap())
            .collect()
    });
    assert!(!widths.is_empty());
    assert!(
        widths.iter().all(|&w| w >= f64::from(MIN_CELL_W)),
        "{widths:?}"
    );
}
