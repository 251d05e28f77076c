//! The per-variant charts: one row per variant, its label level on the left, the values along
//! the horizontal axis.

use std::ops::Range;

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use crate::canvas::{
    self, AXIS, Area, BOX_FILL, DrawResult, Entry, GRID, Header, INK, LABEL_PX, MARGIN, MUTED,
    Mark, PALETTE, Point, STRIPE, TICK_PX,
};
use crate::{Interval, PlotError, Quantiles, check};

/// Labels longer than this are cut (with an ellipsis) so that the chart keeps a sane width.
const MAX_LABEL_CHARS: usize = 60;
/// The width of the plotting area.
const PLOT_W: i32 = 600;
/// Rows past which the value axis is repeated at the top.
const TALL: usize = 12;

/// The vertical axis of the per-variant charts: row `i` is centred on `i as f64`, row 0 on top,
/// one tick per row.
struct Rows(usize);

impl Ranged for Rows {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        // `limit` is (bottom, top) in pixels.
        let share = (value + 0.5) / self.0 as f64;
        limit.1 + (share * f64::from(limit.0 - limit.1)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            return Vec::new();
        }
        (0..self.0).map(|i| i as f64).collect()
    }

    fn range(&self) -> Range<f64> {
        -0.5..self.0 as f64 - 0.5
    }
}

impl ValueFormatter<f64> for Rows {
    fn format(_: &f64) -> String {
        String::new()
    }
}

/// A per-variant chart before drawing its data.
struct RowChart<'a> {
    header: Header<'a>,
    labels: Vec<String>,
    /// Pixels per variant.
    row_px: i32,
    axis: &'a str,
    span: (f64, f64),
    ticks: fn(&f64) -> String,
}

/// Maps (value, row position) to pixels of the SVG.
type Map<'m> = &'m dyn Fn(f64, f64) -> Point;

impl<'a> RowChart<'a> {
    fn new(title: &'a str, variants: &[String], axis: &'a str, span: (f64, f64)) -> Self {
        RowChart {
            header: Header {
                title,
                legend: Vec::new(),
            },
            labels: canvas::shorten_all(variants, MAX_LABEL_CHARS),
            row_px: 26,
            axis,
            span,
            ticks: canvas::tick,
        }
    }

    /// Lays the chart out, draws the frame, then `data` with a map from (value, row) to pixels.
    fn render(&self, data: impl FnOnce(&Area, Map) -> DrawResult) -> Result<String, PlotError> {
        let n = self.labels.len();
        let label_w = canvas::widest(self.labels.iter().map(String::as_str), LABEL_PX) + 16;
        let width = (MARGIN + label_w + PLOT_W + 2 * MARGIN).max(self.header.min_width());
        let header_h = self.header.height(width);
        let top_axis = if n > TALL { 50 } else { 0 };
        let bottom_axis = 58;
        let height = header_h + top_axis + n as i32 * self.row_px + bottom_axis + MARGIN / 2;
        canvas::render(self.header.title, (width, height), |root| {
            self.header.draw(root, width)?;
            let (_, body) = root.split_vertically(header_h);
            let mut chart = ChartBuilder::on(&body)
                .margin_left(MARGIN)
                .margin_right(2 * MARGIN)
                .margin_bottom(MARGIN / 2)
                .y_label_area_size(label_w)
                .x_label_area_size(bottom_axis - MARGIN / 2)
                .top_x_label_area_size(top_axis)
                .build_cartesian_2d(self.span.0..self.span.1, Rows(n))?;
            chart.draw_series((1..n).step_by(2).map(|i| {
                let (y0, y1) = (i as f64 - 0.5, i as f64 + 0.5);
                Rectangle::new([(self.span.0, y0), (self.span.1, y1)], STRIPE.filled())
            }))?;
            let label = |v: &f64| {
                let i = v.round().max(0.0) as usize;
                self.labels.get(i).cloned().unwrap_or_default()
            };
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(n)
                .y_label_formatter(&label)
                .y_label_style(canvas::font(LABEL_PX, INK, HPos::Right, VPos::Center))
                .x_labels(11)
                .x_label_formatter(&self.ticks)
                .x_label_style(canvas::font(TICK_PX, INK, HPos::Center, VPos::Top))
                .x_desc(self.axis)
                .axis_desc_style(canvas::font(LABEL_PX, INK, HPos::Center, VPos::Top))
                .bold_line_style(GRID)
                .light_line_style(TRANSPARENT)
                .axis_style(AXIS)
                .draw()?;
            let map = |v: f64, row: f64| chart.backend_coord(&(v, row));
            data(root, &map)
        })
    }
}

/// A vertical reference line across all rows.
fn reference_line(area: &Area, map: Map, n: usize, at: f64) -> DrawResult {
    let points = vec![map(at, -0.5), map(at, n as f64 - 0.5)];
    canvas::polyline(area, points, MUTED, 2)
}

/// Every interval of `values` checked, under the names `what(i)`.
fn check_intervals<'v>(
    values: impl IntoIterator<Item = &'v Interval>,
    what: impl Fn(usize) -> String,
) -> Result<(), PlotError> {
    for (i, v) in values.into_iter().enumerate() {
        check::interval(&what(i), v)?;
    }
    Ok(())
}

/// Per variant, the win rate of each seat with its 95% interval.
///
/// `rates[i]` belongs to `variants[i]`, `rates[i][s]` to `seats[s]`; every number must lie in
/// 0..=1 (drawn in percent). The seats differ in colour and mark, named in the legend; a line
/// marks 50%, where neither seat has the advantage.
pub fn seat_win_rates(
    title: &str,
    variants: &[String],
    seats: [&str; 2],
    rates: &[[Interval; 2]],
) -> Result<String, PlotError> {
    check::non_empty("variants", variants)?;
    check::same_len("rates", rates, variants.len())?;
    for (i, pair) in rates.iter().enumerate() {
        let what = |s: usize| {
            format!(
                "win rate of seat `{}`, {}",
                seats[s],
                check::variant(variants, i)
            )
        };
        check_intervals(pair, what)?;
        for (s, r) in pair.iter().enumerate() {
            if r.lo < 0.0 || r.hi > 1.0 || r.value < 0.0 || r.value > 1.0 {
                return Err(PlotError::OutOfRange {
                    what: what(s),
                    allowed: "0..=1".into(),
                });
            }
        }
    }
    let mut chart = RowChart::new(title, variants, "win rate", (0.0, 1.0));
    chart.row_px = 32;
    chart.ticks = canvas::percent;
    let marks = [Mark::Circle, Mark::Square];
    chart.header.legend = (0..2)
        .map(|s| Entry::new(seats[s], PALETTE[s], marks[s]))
        .chain([Entry::new("50%", MUTED, Mark::VRule)])
        .collect();
    chart.render(|area, map| {
        reference_line(area, map, variants.len(), 0.5)?;
        for (i, pair) in rates.iter().enumerate() {
            for (s, r) in pair.iter().enumerate() {
                let row = i as f64 + if s == 0 { -0.2 } else { 0.2 };
                canvas::error_bar(area, map(r.lo, row), map(r.hi, row), PALETTE[s])?;
                canvas::mark(area, map(r.value, row), marks[s], PALETTE[s])?;
            }
        }
        Ok(())
    })
}

/// Per variant, the distribution of game lengths in `unit` (say `turns`) as a box plot: the box
/// spans the quartiles with a line at the median, whiskers reach the 10th and 90th percentiles,
/// rings mark the shortest and longest game and a diamond the mean.
pub fn lengths(
    title: &str,
    variants: &[String],
    unit: &str,
    q: &[Quantiles],
) -> Result<String, PlotError> {
    check::non_empty("variants", variants)?;
    check::same_len("quantiles", q, variants.len())?;
    for (i, q) in q.iter().enumerate() {
        check::quantiles(&format!("lengths of {}", check::variant(variants, i)), q)?;
    }
    let (mut lo, hi) = canvas::span(q.iter().flat_map(|q| [q.min, q.max]), None);
    if q.iter().all(|q| q.min >= 0.0) {
        lo = lo.max(0.0);
    }
    let axis = format!("game length ({unit})");
    let mut chart = RowChart::new(title, variants, &axis, (lo, hi));
    chart.row_px = 30;
    chart.header.legend = vec![
        Entry::new("quartiles and median", PALETTE[0], Mark::Box),
        Entry::new("10th to 90th percentile", INK, Mark::Whisker),
        Entry::new("shortest and longest", INK, Mark::Ring),
        Entry::new("mean", PALETTE[1], Mark::Diamond),
    ];
    chart.render(|area, map| {
        for (i, q) in q.iter().enumerate() {
            box_plot(area, &|v| map(v, i as f64), q)?;
        }
        Ok(())
    })
}

/// One box plot along a row; `at` maps a value to its pixel on the row's centre line.
fn box_plot(area: &Area, at: &dyn Fn(f64) -> Point, q: &Quantiles) -> DrawResult {
    let half = 8;
    canvas::error_bar(area, at(q.p10), at(q.p90), INK)?;
    let ((x0, y), (x1, _)) = (at(q.q1), at(q.q3));
    let (top, bottom) = ((x0, y - half), (x1.max(x0 + 1), y + half));
    canvas::fill_rect(area, top, bottom, BOX_FILL)?;
    area.draw(&Rectangle::new([top, bottom], PALETTE[0].stroke_width(1)))?;
    let median = at(q.median).0;
    canvas::polyline(
        area,
        vec![(median, y - half), (median, y + half)],
        PALETTE[0],
        3,
    )?;
    canvas::mark(area, at(q.min), Mark::Ring, INK)?;
    canvas::mark(area, at(q.max), Mark::Ring, INK)?;
    canvas::mark(area, at(q.mean), Mark::Diamond, PALETTE[1])
}

/// One value per variant with its 95% interval, along an axis named `axis`.
///
/// `reference` draws a line at a value of note (0.5 for the skill gap: the strong player's score
/// against the weak one, where they would be equal). `range` fixes the axis, widened if a value,
/// an interval or the reference falls outside; without it the axis fits the data.
pub fn intervals(
    title: &str,
    variants: &[String],
    axis: &str,
    values: &[Interval],
    reference: Option<f64>,
    range: Option<(f64, f64)>,
) -> Result<String, PlotError> {
    check::non_empty("variants", variants)?;
    check::same_len("values", values, variants.len())?;
    check_intervals(values, |i| check::variant(variants, i))?;
    check::range(range)?;
    if let Some(r) = reference {
        check::finite(|| "reference".into(), r)?;
    }
    let ends = values.iter().flat_map(|v| [v.lo, v.hi, v.value]);
    let span = canvas::span(ends.chain(reference), range);
    let mut chart = RowChart::new(title, variants, axis, span);
    chart.header.legend = vec![Entry::new(
        "estimate and 95% interval",
        PALETTE[0],
        Mark::Circle,
    )];
    if let Some(r) = reference {
        let label = format!("reference {}", canvas::number(r, 3));
        chart
            .header
            .legend
            .push(Entry::new(label, MUTED, Mark::VRule));
    }
    chart.render(|area, map| {
        if let Some(r) = reference {
            reference_line(area, map, variants.len(), r)?;
        }
        for (i, v) in values.iter().enumerate() {
            let row = i as f64;
            canvas::error_bar(area, map(v.lo, row), map(v.hi, row), PALETTE[0])?;
            canvas::mark(area, map(v.value, row), Mark::Circle, PALETTE[0])?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests;
