//! A grid of values over two keys of a ruleset, coloured on a scale.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use crate::canvas::{
    self, Area, DrawResult, Entry, Header, INK, LABEL_PX, MARGIN, Mark, Point, TICK_PX,
};
use crate::{PlotError, check};

/// Cells without a value.
const MISSING: RGBColor = RGBColor(0xE4, 0xE4, 0xE4);
/// The hatching of cells without a value.
const HATCH: RGBColor = RGBColor(0xA6, 0xA6, 0xA6);
/// What a cell without a value reads.
const NO_VALUE: &str = "–";
/// Labels longer than this are cut with an ellipsis.
const MAX_LABEL_CHARS: usize = 40;
const CELL_H: i32 = 36;
/// The narrowest cell: wide enough for a short value and its margins, so that a grid of 20
/// columns (Tihbat's counters from 1 to 20) is drawn some 1,100 px wide and is shown at its
/// size, its labels readable, on a desktop page.
const MIN_CELL_W: i32 = 44;
/// The width of the colour bar.
const BAR_W: i32 = 16;

/// The texts around the grid that its layout depends on.
struct Keys<'a> {
    x: &'a [String],
    y: &'a [String],
    y_key: &'a str,
    value_label: &'a str,
}

/// Where everything goes, in pixels.
struct Layout {
    /// The grid's top left corner.
    origin: Point,
    cell_w: i32,
    cols: usize,
    rows: usize,
    /// Whether the column labels are turned to read upwards (they do not fit level).
    upright: bool,
    /// The height of the band of column labels under the grid.
    band: i32,
    /// The colour scale's left edge and height.
    scale_x: i32,
    scale_h: i32,
    width: i32,
    height: i32,
}

impl Layout {
    fn new<'t>(
        header: &Header,
        keys: Keys,
        values: impl IntoIterator<Item = &'t String>,
        scale: (f64, f64),
    ) -> Self {
        let ticks = scale_ticks(scale).map(|v| canvas::tick(&v));
        let tick_w = canvas::widest(ticks.iter().map(String::as_str), TICK_PX);
        let Keys {
            x,
            y,
            y_key,
            value_label,
        } = keys;
        let x_w = canvas::widest(x.iter().map(String::as_str), LABEL_PX);
        let value_w = canvas::widest(values.into_iter().map(String::as_str), LABEL_PX);
        let upright = x_w + 12 > 120;
        let cell_w = if upright {
            MIN_CELL_W
        } else {
            MIN_CELL_W.max(x_w + 12)
        }
        .max(value_w + 12);
        let band = if upright { x_w + 12 } else { 26 };
        let y_w = canvas::widest(y.iter().map(String::as_str), LABEL_PX);
        let left = MARGIN + y_w.max(canvas::text_width(y_key, LABEL_PX)) + 10;
        let (cols, rows) = (x.len(), y.len());
        let scale_x = left + cols as i32 * cell_w + 28;
        let scale_h = (rows as i32 * CELL_H).max(140);
        let scale_w = (BAR_W + 8 + tick_w).max(canvas::text_width(value_label, LABEL_PX));
        let width = (scale_x + scale_w + MARGIN).max(header.min_width());
        let top = header.height(width) + 26;
        let grid_bottom = top + rows as i32 * CELL_H + band + 30;
        Layout {
            origin: (left, top),
            cell_w,
            cols,
            rows,
            upright,
            band,
            scale_x,
            scale_h,
            width,
            height: grid_bottom.max(top + scale_h + 12) + MARGIN,
        }
    }

    /// The corners of cell (x, y).
    fn cell(&self, x: usize, y: usize) -> (Point, Point) {
        let (x0, y0) = (
            self.origin.0 + x as i32 * self.cell_w,
            self.origin.1 + y as i32 * CELL_H,
        );
        ((x0, y0), (x0 + self.cell_w, y0 + CELL_H))
    }

    fn grid_bottom(&self) -> i32 {
        self.origin.1 + self.rows as i32 * CELL_H
    }
}

/// A grid of `cells[y][x]`, the value at `x_key = x_values[x]` and `y_key = y_values[y]`,
/// coloured on a scale named `value_label` (viridis, dark to light) with its value written in
/// the cell; `None` is a cell without a value, hatched and marked "–".
///
/// `range` fixes the colour scale, widened if a value falls outside; without it the scale spans
/// the values.
#[allow(clippy::too_many_arguments)] // the signature the study's report calls
pub fn heat_map(
    title: &str,
    x_key: &str,
    x_values: &[String],
    y_key: &str,
    y_values: &[String],
    cells: &[Vec<Option<f64>>],
    value_label: &str,
    range: Option<(f64, f64)>,
) -> Result<String, PlotError> {
    check_cells(x_key, x_values, y_key, y_values, cells)?;
    check::range(range)?;
    let scale = scale(cells.iter().flatten().flatten().copied(), range);
    let missing = cells.iter().flatten().any(Option::is_none);
    let header = Header {
        title,
        legend: missing
            .then(|| Entry::new("no value", MISSING, Mark::Square))
            .into_iter()
            .collect(),
    };
    let texts: Vec<Vec<String>> = cells
        .iter()
        .map(|row| row.iter().map(|c| cell_text(*c)).collect())
        .collect();
    let x = canvas::shorten_all(x_values, MAX_LABEL_CHARS);
    let y = canvas::shorten_all(y_values, MAX_LABEL_CHARS);
    let keys = Keys {
        x: &x,
        y: &y,
        y_key,
        value_label,
    };
    let layout = Layout::new(&header, keys, texts.iter().flatten(), scale);
    canvas::render(title, (layout.width, layout.height), |area| {
        header.draw(area, layout.width)?;
        for (yi, row) in cells.iter().enumerate() {
            for (xi, value) in row.iter().enumerate() {
                draw_cell(area, layout.cell(xi, yi), *value, scale, &texts[yi][xi])?;
            }
        }
        draw_keys(area, &layout, (x_key, &x), (y_key, &y))?;
        draw_scale(area, &layout, scale, value_label)
    })
}

/// Both labels non-empty, one row per y value, one cell per x value in each row, finite values.
fn check_cells(
    x_key: &str,
    x_values: &[String],
    y_key: &str,
    y_values: &[String],
    cells: &[Vec<Option<f64>>],
) -> Result<(), PlotError> {
    check::non_empty(&format!("the values of {x_key}"), x_values)?;
    check::non_empty(&format!("the values of {y_key}"), y_values)?;
    check::same_len("cells (one row per y value)", cells, y_values.len())?;
    for (yi, row) in cells.iter().enumerate() {
        let at = |xi: usize| format!("cell {x_key}={}, {y_key}={}", x_values[xi], y_values[yi]);
        check::same_len(
            &format!("row {y_key}={} of cells", y_values[yi]),
            row,
            x_values.len(),
        )?;
        for (xi, v) in row.iter().enumerate() {
            if let Some(v) = v {
                check::finite(|| at(xi), *v)?;
            }
        }
    }
    Ok(())
}

/// The colour scale: the caller's range widened to cover the values, or else the values' span;
/// never empty.
fn scale(values: impl Iterator<Item = f64>, range: Option<(f64, f64)>) -> (f64, f64) {
    let (lo, hi) = values.fold(
        range.unwrap_or((f64::INFINITY, f64::NEG_INFINITY)),
        |(lo, hi), v| (lo.min(v), hi.max(v)),
    );
    match (lo, hi) {
        (lo, hi) if lo > hi => (0.0, 1.0),
        (lo, hi) if lo == hi => (lo - 0.5, hi + 0.5),
        span => span,
    }
}

/// Five values evenly over the scale.
fn scale_ticks((lo, hi): (f64, f64)) -> [f64; 5] {
    [0.0, 0.25, 0.5, 0.75, 1.0].map(|t| lo + t * (hi - lo))
}

fn cell_text(value: Option<f64>) -> String {
    value.map_or_else(|| NO_VALUE.to_string(), |v| canvas::number(v, 2))
}

/// The viridis colour map (dark purple to yellow), even in lightness and readable with colour
/// vision deficiencies: eight stops, interpolated.
const VIRIDIS: [(u8, u8, u8); 8] = [
    (68, 1, 84),
    (70, 50, 127),
    (54, 92, 141),
    (39, 127, 143),
    (31, 162, 136),
    (74, 194, 110),
    (160, 219, 57),
    (254, 232, 37),
];

/// The colour of `v` on the scale `lo..hi` (`lo < hi`).
fn colour(v: f64, (lo, hi): (f64, f64)) -> RGBColor {
    let t = ((v - lo) / (hi - lo)).clamp(0.0, 1.0) * (VIRIDIS.len() - 1) as f64;
    let i = (t.floor() as usize).min(VIRIDIS.len() - 2);
    let (a, b, f) = (VIRIDIS[i], VIRIDIS[i + 1], t - i as f64);
    let mix = |a: u8, b: u8| (f64::from(a) + f * (f64::from(b) - f64::from(a))).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Black or white, whichever reads better on `c` (by relative luminance).
fn ink_on(c: RGBColor) -> RGBColor {
    let linear = |u: u8| {
        let s = f64::from(u) / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    let l = 0.2126 * linear(c.0) + 0.7152 * linear(c.1) + 0.0722 * linear(c.2);
    if l > 0.179 { BLACK } else { WHITE }
}

fn draw_cell(
    area: &Area,
    (a, b): (Point, Point),
    value: Option<f64>,
    scale: (f64, f64),
    label: &str,
) -> DrawResult {
    let fill = value.map_or(MISSING, |v| colour(v, scale));
    canvas::fill_rect(area, a, b, fill)?;
    if value.is_none() {
        hatch(area, (a, b))?;
    }
    area.draw(&Rectangle::new([a, b], WHITE.stroke_width(2)))?;
    let centre = ((a.0 + b.0) / 2, (a.1 + b.1) / 2);
    let ink = if value.is_some() { ink_on(fill) } else { INK };
    canvas::text(
        area,
        label,
        centre,
        &canvas::font(LABEL_PX, ink, HPos::Center, VPos::Center),
    )
}

/// Diagonal lines across a rectangle, every 8 pixels.
fn hatch(area: &Area, ((x0, y0), (x1, y1)): (Point, Point)) -> DrawResult {
    // The lines x + y = k, cut to the rectangle.
    for k in (x0 + y0 + 8..x1 + y1).step_by(8) {
        let (left, right) = ((k - y1).max(x0), (k - y0).min(x1));
        let points = vec![(left, k - left), (right, k - right)];
        canvas::polyline(area, points, HATCH, 1)?;
    }
    Ok(())
}

/// The row and column labels and the two keys' names: the y key above the row labels, the x
/// key under the column labels.
fn draw_keys(area: &Area, l: &Layout, x: (&str, &[String]), y: (&str, &[String])) -> DrawResult {
    let label = canvas::font(LABEL_PX, INK, HPos::Right, VPos::Center);
    for (i, v) in y.1.iter().enumerate() {
        let ((x0, y0), (_, y1)) = l.cell(0, i);
        canvas::text(area, v, (x0 - 8, (y0 + y1) / 2), &label)?;
    }
    let bottom = l.grid_bottom();
    for (i, v) in x.1.iter().enumerate() {
        let ((x0, _), (x1, _)) = l.cell(i, l.rows - 1);
        let style = if l.upright {
            canvas::font(LABEL_PX, INK, HPos::Right, VPos::Center)
                .transform(FontTransform::Rotate270)
        } else {
            canvas::font(LABEL_PX, INK, HPos::Center, VPos::Top)
        };
        canvas::text(area, v, ((x0 + x1) / 2, bottom + 6), &style)?;
    }
    let key = |h| canvas::bold(LABEL_PX, INK, h, VPos::Bottom);
    let grid_w = l.cols as i32 * l.cell_w;
    let x_key_at = (l.origin.0 + grid_w / 2, bottom + l.band + 24);
    canvas::text(area, x.0, x_key_at, &key(HPos::Center))?;
    canvas::text(
        area,
        y.0,
        (l.origin.0 - 8, l.origin.1 - 6),
        &key(HPos::Right),
    )
}

/// The colour bar with its ticks, and its name above it.
fn draw_scale(area: &Area, l: &Layout, scale: (f64, f64), name: &str) -> DrawResult {
    let (x, top, h) = (l.scale_x, l.origin.1, l.scale_h);
    let steps = 48;
    for s in 0..steps {
        let (a, b) = (top + h * s / steps, top + h * (s + 1) / steps);
        let t = 1.0 - (f64::from(s) + 0.5) / f64::from(steps);
        let v = scale.0 + t * (scale.1 - scale.0);
        canvas::fill_rect(area, (x, a), (x + BAR_W, b), colour(v, scale))?;
    }
    let style = canvas::font(TICK_PX, INK, HPos::Left, VPos::Center);
    for (i, v) in scale_ticks(scale).iter().enumerate() {
        let y = top + h - h * i as i32 / 4;
        canvas::polyline(area, vec![(x + BAR_W, y), (x + BAR_W + 4, y)], INK, 1)?;
        canvas::text(area, &canvas::tick(v), (x + BAR_W + 7, y), &style)?;
    }
    let bold = canvas::bold(LABEL_PX, INK, HPos::Left, VPos::Bottom);
    canvas::text(area, name, (x, top - 6), &bold)
}

#[cfg(test)]
mod tests;
