//! Several series over a numeric axis.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use crate::canvas::{
    self, AXIS, Area, DrawResult, Entry, GRID, Header, INK, LABEL_PX, MARGIN, MUTED, Mark, PALETTE,
    Point, SHAPES, TICK_PX,
};
use crate::{PlotError, check};

/// The width of the plotting area.
const PLOT_W: i32 = 640;
/// The height of the plotting area.
const PLOT_H: i32 = 380;

/// Series of values over `xs`, each drawn as a line with a mark at every value and named in the
/// legend; `None` leaves a gap (the line breaks there). Series differ by colour and mark.
///
/// `xs` must increase strictly and every series have one entry per x. When every x (or every
/// value) is a whole number, the axis ticks are whole numbers too.
pub fn lines(
    title: &str,
    x_label: &str,
    xs: &[f64],
    y_label: &str,
    series: &[(String, Vec<Option<f64>>)],
) -> Result<String, PlotError> {
    check_lines(xs, series)?;
    let ys = || series.iter().flat_map(|(_, v)| v.iter().flatten().copied());
    let (x_span, x_ticks) = axis(xs.iter().copied());
    let (y_span, y_ticks) = axis(ys());
    let header = Header {
        title,
        legend: series
            .iter()
            .enumerate()
            .map(|(i, (name, _))| {
                let (colour, shape) = style(i);
                Entry {
                    line: true,
                    ..Entry::new(name.clone(), colour, shape)
                }
            })
            .collect(),
    };
    let y_w = canvas::widest(y_ticks.labels.iter().map(String::as_str), TICK_PX) + 40;
    let width = (MARGIN + y_w + PLOT_W + 2 * MARGIN).max(header.min_width());
    let header_h = header.height(width);
    let height = header_h + PLOT_H + 58 + MARGIN / 2;
    canvas::render(title, (width, height), |root| {
        header.draw(root, width)?;
        let (_, body) = root.split_vertically(header_h);
        let mut chart = ChartBuilder::on(&body)
            .margin_left(MARGIN)
            .margin_right(2 * MARGIN)
            .margin_bottom(MARGIN / 2)
            .margin_top(8)
            .y_label_area_size(y_w)
            .x_label_area_size(50)
            .build_cartesian_2d(x_span.0..x_span.1, y_span.0..y_span.1)?;
        chart
            .configure_mesh()
            .x_labels(x_ticks.count)
            .y_labels(y_ticks.count)
            .x_label_formatter(&canvas::tick)
            .y_label_formatter(&canvas::tick)
            .x_desc(x_label)
            .y_desc(y_label)
            .label_style(canvas::font(TICK_PX, INK, HPos::Center, VPos::Center))
            .axis_desc_style(canvas::font(LABEL_PX, INK, HPos::Center, VPos::Center))
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .axis_style(AXIS)
            .draw()?;
        let at = |x: f64, y: f64| chart.backend_coord(&(x, y));
        if y_span.0 < 0.0 && 0.0 < y_span.1 {
            canvas::polyline(root, vec![at(x_span.0, 0.0), at(x_span.1, 0.0)], MUTED, 1)?;
        }
        for (i, (_, values)) in series.iter().enumerate() {
            draw_series(root, &at, runs(xs, values), style(i))?;
        }
        Ok(())
    })
}

/// The colour and mark of series `i`.
fn style(i: usize) -> (RGBColor, Mark) {
    (PALETTE[i % PALETTE.len()], SHAPES[i % SHAPES.len()])
}

/// A series' runs as lines, with a mark at every point; `at` maps (x, y) to pixels.
fn draw_series(
    area: &Area,
    at: &dyn Fn(f64, f64) -> Point,
    runs: Vec<Vec<(f64, f64)>>,
    (colour, shape): (RGBColor, Mark),
) -> DrawResult {
    for run in runs {
        if run.len() > 1 {
            let points = run.iter().map(|&(x, y)| at(x, y)).collect();
            canvas::polyline(area, points, colour, 2)?;
        }
        for &(x, y) in &run {
            canvas::mark(area, at(x, y), shape, colour)?;
        }
    }
    Ok(())
}

/// At least one x and one series; finite, increasing xs; one finite-or-missing value per x in
/// every series, and at least one value in all.
fn check_lines(xs: &[f64], series: &[(String, Vec<Option<f64>>)]) -> Result<(), PlotError> {
    check::non_empty("xs", xs)?;
    check::non_empty("series", series)?;
    for (i, x) in xs.iter().enumerate() {
        check::finite(|| format!("xs[{i}]"), *x)?;
    }
    if xs.windows(2).any(|w| w[0] >= w[1]) {
        return Err(PlotError::NotIncreasing("xs".into()));
    }
    for (name, values) in series {
        check::same_len(&format!("series `{name}`"), values, xs.len())?;
        for (x, v) in xs.iter().zip(values) {
            if let Some(v) = v {
                check::finite(|| format!("series `{name}` at x = {x}"), *v)?;
            }
        }
    }
    if series.iter().all(|(_, v)| v.iter().all(Option::is_none)) {
        return Err(PlotError::Empty("every series".into()));
    }
    Ok(())
}

/// The unbroken stretches of a series, as (x, value) points.
fn runs(xs: &[f64], values: &[Option<f64>]) -> Vec<Vec<(f64, f64)>> {
    let mut runs = vec![Vec::new()];
    for (x, v) in xs.iter().zip(values) {
        match v {
            Some(v) => runs.last_mut().expect("never empty").push((*x, *v)),
            None if runs.last().is_some_and(|r| !r.is_empty()) => runs.push(Vec::new()),
            None => {}
        }
    }
    runs.retain(|r| !r.is_empty());
    runs
}

/// How many ticks to ask for on an axis, and their labels (for sizing).
struct Ticks {
    count: usize,
    labels: Vec<String>,
}

/// The range and ticks of an axis showing `values`: whole numbers get half a unit of room on
/// each side and no more ticks than there are whole numbers, so that every tick is whole.
fn axis(values: impl Iterator<Item = f64> + Clone) -> ((f64, f64), Ticks) {
    let whole = values.clone().all(|v| v.fract() == 0.0);
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let (span, count) = if whole {
        let count = ((hi - lo) as usize + 1).clamp(2, 12);
        ((lo - 0.5, hi + 0.5), count)
    } else {
        (canvas::span([lo, hi], None), 10)
    };
    let labels = [span.0, span.1, lo, hi].iter().map(canvas::tick).collect();
    (span, Ticks { count, labels })
}

#[cfg(test)]
mod tests;
