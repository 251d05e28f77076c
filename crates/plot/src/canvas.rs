//! What every chart shares: the SVG document, text sizes and widths, the palette, marks, the
//! title and legend band at the top, and number formatting.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::PlotError;

/// The whole SVG as a drawing area, in pixels from its top left corner.
pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
/// What a drawing step returns; plotters' errors are boxed and turned into
/// [`PlotError::Drawing`] once, in [`render`].
pub(crate) type DrawResult = Result<(), Box<dyn std::error::Error>>;
/// A point in pixels.
pub(crate) type Point = (i32, i32);

/// The generic family: every SVG viewer has one, so no font ships with the charts.
const FONT: &str = "sans-serif";
/// Chart titles, in pixels.
pub(crate) const TITLE_PX: f64 = 17.0;
/// Category labels, legend texts, axis titles, cell values.
pub(crate) const LABEL_PX: f64 = 13.0;
/// Tick labels.
pub(crate) const TICK_PX: f64 = 12.0;
/// Space around the chart.
pub(crate) const MARGIN: i32 = 16;

/// Text and marks that are not data.
pub(crate) const INK: RGBColor = RGBColor(0x1A, 0x1A, 0x1A);
/// Reference lines and axes.
pub(crate) const MUTED: RGBColor = RGBColor(0x59, 0x59, 0x59);
/// Axis lines (a grey of their own, so that tests can tell them from reference lines).
pub(crate) const AXIS: RGBColor = RGBColor(0x80, 0x80, 0x80);
/// Grid lines.
pub(crate) const GRID: RGBColor = RGBColor(0xD9, 0xD9, 0xD9);
/// Every other row's background.
pub(crate) const STRIPE: RGBColor = RGBColor(0xF3, 0xF3, 0xF3);

/// Series colours: the Okabe–Ito palette, told apart by people with colour-vision deficiencies,
/// without its yellow (too pale on white).
pub(crate) const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x00, 0x00),
];

/// Point shapes, so that series differ by more than colour.
pub(crate) const SHAPES: [Mark; 5] = [
    Mark::Circle,
    Mark::Square,
    Mark::Triangle,
    Mark::Diamond,
    Mark::TriangleDown,
];

/// A symbol drawn at a point of a chart and in its legend.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Mark {
    Circle,
    Square,
    Triangle,
    Diamond,
    TriangleDown,
    /// A hollow circle.
    Ring,
    /// A vertical line (a reference value on a horizontal axis).
    VRule,
    /// A box with a median line (box plots).
    Box,
    /// A horizontal error bar with caps.
    Whisker,
}

/// A text style of `px` pixels in the given colour, anchored at (`h`, `v`).
pub(crate) fn font(px: f64, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    styled(px, FontStyle::Normal, colour, h, v)
}

/// [`font`] in bold.
pub(crate) fn bold(px: f64, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    styled(px, FontStyle::Bold, colour, h, v)
}

fn styled(px: f64, style: FontStyle, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    // The SVG backend writes plotters' size divided by 1.24 as the font size.
    (FONT, px * 1.24, style)
        .into_font()
        .color(&colour)
        .pos(Pos::new(h, v))
}

/// A generous estimate of the width of `text` in pixels: the SVG viewer picks the font, so the
/// real width is not known; this is wider than most sans-serif faces.
pub(crate) fn text_width(text: &str, px: f64) -> i32 {
    (text.chars().count() as f64 * px * 0.62).ceil() as i32
}

/// The widest of `labels`.
pub(crate) fn widest<'a>(labels: impl IntoIterator<Item = &'a str>, px: f64) -> i32 {
    labels
        .into_iter()
        .map(|l| text_width(l, px))
        .max()
        .unwrap_or(0)
}

/// Draws `text` at `at`.
pub(crate) fn text(area: &Area, s: &str, at: Point, style: &TextStyle) -> DrawResult {
    area.draw_text(s, style, at)?;
    Ok(())
}

/// An open polyline.
pub(crate) fn polyline(
    area: &Area,
    points: Vec<Point>,
    colour: RGBColor,
    width: u32,
) -> DrawResult {
    area.draw(&PathElement::new(points, colour.stroke_width(width)))?;
    Ok(())
}

/// A filled rectangle between two corners.
pub(crate) fn fill_rect(area: &Area, a: Point, b: Point, colour: RGBColor) -> DrawResult {
    area.draw(&Rectangle::new([a, b], colour.filled()))?;
    Ok(())
}

/// A horizontal error bar from `from` to `to` (same height) with caps `cap` pixels high on
/// each side: one polyline, so that every bar is one element of the SVG.
pub(crate) fn error_bar(area: &Area, from: Point, to: Point, colour: RGBColor) -> DrawResult {
    let (cap, y) = (5, from.1);
    let points = vec![
        (from.0, y - cap),
        (from.0, y + cap),
        (from.0, y),
        (to.0, y),
        (to.0, y - cap),
        (to.0, y + cap),
    ];
    polyline(area, points, colour, 2)
}

/// Draws `mark` centred on `at`.
pub(crate) fn mark(area: &Area, at: Point, mark: Mark, colour: RGBColor) -> DrawResult {
    let (x, y) = at;
    let polygon = |points: Vec<Point>| area.draw(&Polygon::new(points, colour.filled()));
    match mark {
        Mark::Circle => area.draw(&Circle::new(at, 5, colour.filled()))?,
        Mark::Ring => area.draw(&Circle::new(at, 4, colour.stroke_width(2)))?,
        Mark::Square => area.draw(&Rectangle::new(
            [(x - 4, y - 4), (x + 5, y + 5)],
            colour.filled(),
        ))?,
        Mark::Triangle => polygon(vec![(x, y - 6), (x + 6, y + 4), (x - 6, y + 4)])?,
        Mark::TriangleDown => polygon(vec![(x, y + 6), (x + 6, y - 4), (x - 6, y - 4)])?,
        Mark::Diamond => polygon(vec![(x, y - 6), (x + 6, y), (x, y + 6), (x - 6, y)])?,
        Mark::VRule => polyline(area, vec![(x, y - 8), (x, y + 8)], colour, 2)?,
        Mark::Whisker => error_bar(area, (x - 9, y), (x + 9, y), colour)?,
        Mark::Box => {
            fill_rect(area, (x - 9, y - 6), (x + 9, y + 6), BOX_FILL)?;
            area.draw(&Rectangle::new(
                [(x - 9, y - 6), (x + 9, y + 6)],
                colour.stroke_width(1),
            ))?;
            polyline(area, vec![(x, y - 6), (x, y + 6)], colour, 3)?;
        }
    }
    Ok(())
}

/// The inside of a box plot's box.
pub(crate) const BOX_FILL: RGBColor = RGBColor(0xCF, 0xE3, 0xF2);

/// One entry of a legend: a mark, optionally on a short line (line series), and its text.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub label: String,
    pub colour: RGBColor,
    pub mark: Mark,
    pub line: bool,
}

impl Entry {
    /// An entry without a line.
    pub(crate) fn new(label: impl Into<String>, colour: RGBColor, mark: Mark) -> Self {
        Entry {
            label: label.into(),
            colour,
            mark,
            line: false,
        }
    }

    fn width(&self) -> i32 {
        SWATCH + 6 + text_width(&self.label, LABEL_PX) + 20
    }
}

/// The width of a legend entry's symbol.
const SWATCH: i32 = 26;
/// The height of the title line.
const TITLE_H: i32 = 32;
/// The height of one line of legend.
const LEGEND_ROW_H: i32 = 22;

/// The top band of a chart: its title, then its legend wrapped over as many lines as it needs.
pub(crate) struct Header<'a> {
    pub title: &'a str,
    pub legend: Vec<Entry>,
}

impl Header<'_> {
    /// Where each legend entry goes: (x from the left margin, line), for a chart `width` wide.
    fn layout(&self, width: i32) -> Vec<Point> {
        let room = (width - 2 * MARGIN).max(1);
        let (mut x, mut row) = (0, 0);
        let mut at = Vec::with_capacity(self.legend.len());
        for e in &self.legend {
            if x > 0 && x + e.width() > room {
                (x, row) = (0, row + 1);
            }
            at.push((x, row));
            x += e.width();
        }
        at
    }

    /// The height of the band for a chart `width` wide.
    pub(crate) fn height(&self, width: i32) -> i32 {
        let rows = self.layout(width).last().map_or(0, |&(_, row)| row + 1);
        MARGIN / 2 + TITLE_H + rows * LEGEND_ROW_H + 6
    }

    /// The narrowest chart that shows the whole title.
    pub(crate) fn min_width(&self) -> i32 {
        text_width(self.title, TITLE_PX) + 2 * MARGIN
    }

    pub(crate) fn draw(&self, area: &Area, width: i32) -> DrawResult {
        let title = bold(TITLE_PX, INK, HPos::Left, VPos::Center);
        text(area, self.title, (MARGIN, MARGIN / 2 + TITLE_H / 2), &title)?;
        let label = font(LABEL_PX, INK, HPos::Left, VPos::Center);
        for (e, (x, row)) in self.legend.iter().zip(self.layout(width)) {
            let y = MARGIN / 2 + TITLE_H + row * LEGEND_ROW_H + LEGEND_ROW_H / 2;
            let x = MARGIN + x;
            if e.line {
                polyline(area, vec![(x, y), (x + SWATCH, y)], e.colour, 2)?;
            }
            mark(area, (x + SWATCH / 2, y), e.mark, e.colour)?;
            text(area, &e.label, (x + SWATCH + 6, y), &label)?;
        }
        Ok(())
    }
}

/// Draws one SVG document of `size` pixels with `draw`, and names it `title` (an SVG `<title>`,
/// which screen readers announce).
pub(crate) fn render(
    title: &str,
    size: (i32, i32),
    draw: impl FnOnce(&Area) -> DrawResult,
) -> Result<String, PlotError> {
    let failed = |e: &dyn std::fmt::Display| PlotError::Drawing(e.to_string());
    let mut svg = String::new();
    {
        let size = (size.0.max(1) as u32, size.1.max(1) as u32);
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| failed(&e))?;
        draw(&root).map_err(|e| failed(&e))?;
        root.present().map_err(|e| failed(&e))?;
    }
    Ok(with_title(svg, title))
}

/// Puts `<title>` first inside the root element.
fn with_title(mut svg: String, title: &str) -> String {
    if let Some(end) = svg.find('>') {
        svg.insert_str(end + 1, &format!("\n<title>{}</title>", escape(title)));
    }
    svg
}

/// Escapes text for XML and HTML, in content and in quoted attributes.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `v` with at most `decimals` decimals, trailing zeros dropped, never `-0`.
pub(crate) fn number(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// A tick label of a plain axis.
pub(crate) fn tick(v: &f64) -> String {
    number(*v, 3)
}

/// A tick label of a 0..1 axis shown in percent.
pub(crate) fn percent(v: &f64) -> String {
    format!("{}%", number(v * 100.0, 1))
}

/// The axis range that shows `values` (and `fixed`, the caller's range, if any): the caller's
/// range widened to cover every value, or else the values' span with 5% to spare on each side.
pub(crate) fn span(values: impl IntoIterator<Item = f64>, fixed: Option<(f64, f64)>) -> (f64, f64) {
    let (lo, hi) = values
        .into_iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    match fixed {
        Some((a, b)) => (a.min(lo), b.max(hi)),
        None if lo > hi => (0.0, 1.0),
        None if lo == hi => (
            lo - (lo.abs() * 0.1).max(0.5),
            hi + (hi.abs() * 0.1).max(0.5),
        ),
        None => {
            let pad = (hi - lo) * 0.05;
            (lo - pad, hi + pad)
        }
    }
}

/// Truncates a category label past `max` characters, with an ellipsis.
pub(crate) fn shorten(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        return label.to_string();
    }
    let mut s: String = label.chars().take(max - 1).collect();
    s.push('…');
    s
}

/// [`shorten`] on every label.
pub(crate) fn shorten_all(labels: &[String], max: usize) -> Vec<String> {
    labels.iter().map(|l| shorten(l, max)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_never_negative_zero() {
        assert_eq!(number(0.5312, 2), "0.53");
        assert_eq!(number(0.5, 2), "0.5");
        assert_eq!(number(-3.0, 2), "-3");
        assert_eq!(number(-0.0001, 2), "0");
        assert_eq!(number(12.0, 0), "12");
        assert_eq!(percent(&0.25), "25%");
    }

    #[test]
    fn spans_cover_the_values_and_the_callers_range() {
        assert_eq!(span([0.2, 0.4], Some((0.0, 1.0))), (0.0, 1.0));
        assert_eq!(span([-0.5, 0.4], Some((0.0, 1.0))), (-0.5, 1.0));
        let (lo, hi) = span([1.0, 3.0], None);
        assert!(lo < 1.0 && hi > 3.0);
        let (lo, hi) = span([2.0], None);
        assert!(lo < 2.0 && hi > 2.0);
    }

    #[test]
    fn long_labels_are_shortened() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("abcd", 3), "ab…");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
