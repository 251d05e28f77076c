use super::*;
use crate::test_support::{count, count_text, hex, size, texts, variants};

fn iv(value: f64, half: f64) -> Interval {
    Interval {
        value,
        lo: value - half,
        hi: value + half,
    }
}

fn rates(n: usize) -> Vec<[Interval; 2]> {
    (0..n)
        .map(|i| {
            let v = 0.3 + 0.4 * i as f64 / n as f64;
            [iv(v, 0.05), iv(1.0 - v, 0.04)]
        })
        .collect()
}

fn q(base: f64) -> Quantiles {
    Quantiles {
        min: base,
        p10: base + 5.0,
        q1: base + 10.0,
        median: base + 15.0,
        q3: base + 22.0,
        p90: base + 30.0,
        max: base + 60.0,
        mean: base + 17.5,
    }
}

#[test]
fn seat_win_rates_draws_one_bar_per_variant_and_seat() {
    for n in [1, 3, 40] {
        let v = variants(n);
        let svg =
            seat_win_rates("Wins <by> seat", &v, ["first & one", "second"], &rates(n)).unwrap();
        let texts = texts(&svg);
        for label in &v {
            assert!(texts.contains(label), "label {label} in {texts:?}");
        }
        assert_eq!(count_text(&svg, "first & one"), 1);
        assert_eq!(count_text(&svg, "second"), 1);
        assert_eq!(count_text(&svg, "Wins <by> seat"), 1);
        assert!(texts.iter().any(|t| t == "50%"));
        for (s, colour) in PALETTE[..2].iter().enumerate() {
            // One polyline per error bar; the legend draws none in the seat's colour.
            assert_eq!(
                count(&svg, "polyline", "stroke", &hex(*colour)),
                n,
                "seat {s}"
            );
        }
        // Seat one's points are circles, plus one in the legend.
        assert_eq!(count(&svg, "circle", "fill", &hex(PALETTE[0])), n + 1);
        // The reference line and its legend mark.
        assert_eq!(count(&svg, "polyline", "stroke", &hex(MUTED)), 2);
        let (_, h) = size(&svg);
        assert!(h >= 32.0 * n as f64, "a row per variant");
    }
}

#[test]
fn seat_win_rates_rejects_bad_input() {
    let v = variants(2);
    let r = rates(2);
    let seats = ["a", "b"];
    assert_eq!(
        seat_win_rates("t", &[], seats, &[]),
        Err(PlotError::Empty("variants".into()))
    );
    assert_eq!(
        seat_win_rates("t", &v, seats, &r[..1]),
        Err(PlotError::LengthMismatch {
            what: "rates".into(),
            expected: 2,
            got: 1
        })
    );
    let mut nan = r.clone();
    nan[1][0].value = f64::NAN;
    let err = seat_win_rates("t", &v, seats, &nan).unwrap_err();
    assert!(matches!(&err, PlotError::NotFinite(w) if w.contains("seat `a`") && w.contains(&v[1])));
    let mut inverted = r.clone();
    inverted[0][1] = Interval {
        value: 0.5,
        lo: 0.6,
        hi: 0.4,
    };
    assert!(matches!(
        seat_win_rates("t", &v, seats, &inverted),
        Err(PlotError::InvertedInterval(_))
    ));
    let mut over = r;
    over[0][0].hi = 1.2;
    assert!(matches!(
        seat_win_rates("t", &v, seats, &over),
        Err(PlotError::OutOfRange { .. })
    ));
}

#[test]
fn lengths_draws_a_box_and_a_mean_per_variant() {
    for n in [1, 5, 40] {
        let v = variants(n);
        let qs: Vec<_> = (0..n).map(|i| q(10.0 + i as f64)).collect();
        let svg = lengths("Game lengths", &v, "turns", &qs).unwrap();
        let texts = texts(&svg);
        for label in &v {
            assert!(texts.contains(label));
        }
        assert!(texts.iter().any(|t| t == "game length (turns)"));
        // Boxes, and mean diamonds, plus one of each in the legend.
        assert_eq!(count(&svg, "rect", "fill", &hex(BOX_FILL)), n + 1);
        assert_eq!(count(&svg, "polygon", "fill", &hex(PALETTE[1])), n + 1);
        // Min and max rings.
        assert_eq!(count(&svg, "circle", "stroke", &hex(INK)), 2 * n + 1);
    }
}

#[test]
fn lengths_rejects_unordered_quantiles() {
    let v = variants(2);
    let mut qs = vec![q(1.0), q(2.0)];
    qs[1].q1 = qs[1].q3 + 1.0;
    assert!(matches!(
        lengths("t", &v, "turns", &qs),
        Err(PlotError::Unordered(w)) if w.contains(&v[1])
    ));
    qs[1] = q(2.0);
    qs[0].mean = f64::INFINITY;
    assert!(matches!(
        lengths("t", &v, "turns", &qs),
        Err(PlotError::NotFinite(_))
    ));
    assert!(matches!(
        lengths("t", &v, "turns", &qs[..1]),
        Err(PlotError::LengthMismatch { .. })
    ));
}

#[test]
fn intervals_draws_every_value_and_the_reference() {
    let v = variants(4);
    let values: Vec<_> = (0..4).map(|i| iv(0.5 + 0.1 * i as f64, 0.05)).collect();
    let svg = intervals(
        "Skill gap",
        &v,
        "score",
        &values,
        Some(0.5),
        Some((0.0, 1.0)),
    )
    .unwrap();
    assert_eq!(count(&svg, "polyline", "stroke", &hex(PALETTE[0])), 4);
    assert_eq!(count(&svg, "circle", "fill", &hex(PALETTE[0])), 5);
    assert_eq!(count(&svg, "polyline", "stroke", &hex(MUTED)), 2);
    assert_eq!(count_text(&svg, "reference 0.5"), 1);
    assert_eq!(count_text(&svg, "score"), 1);
    // Without a reference, no reference line.
    let svg = intervals("Other", &v, "plies", &values, None, None).unwrap();
    assert_eq!(count(&svg, "polyline", "stroke", &hex(MUTED)), 0);
}

#[test]
fn intervals_rejects_bad_input() {
    let v = variants(1);
    let ok = [iv(0.5, 0.1)];
    assert!(matches!(
        intervals("t", &v, "a", &ok, None, Some((1.0, 0.0))),
        Err(PlotError::BadRange { .. })
    ));
    assert!(matches!(
        intervals("t", &v, "a", &ok, Some(f64::NAN), None),
        Err(PlotError::NotFinite(w)) if w == "reference"
    ));
    assert!(matches!(
        intervals("t", &v, "a", &[], None, None),
        Err(PlotError::LengthMismatch { .. })
    ));
}

#[test]
fn long_labels_widen_the_chart_up_to_a_limit() {
    let short = intervals("t", &variants(1), "a", &[iv(1.0, 0.1)], None, None).unwrap();
    let long_name = vec!["x".repeat(200)];
    let long = intervals("t", &long_name, "a", &[iv(1.0, 0.1)], None, None).unwrap();
    assert!(size(&long).0 > size(&short).0);
    assert!(size(&long).0 < 1400.0);
    assert!(texts(&long).iter().any(|t| t.ends_with('…')));
}
