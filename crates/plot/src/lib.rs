//! Charts and the HTML report of `qasab study`, the variant laboratory.
//!
//! `qasab study` plays many games under each variant of a ruleset and measures them (seat win
//! rates, game lengths, the skill gap between a strong and a weak player, …), each statistic with
//! its 95% interval. This crate turns those numbers into pictures and a page a person can read:
//!
//! * five chart functions, each returning one standalone SVG document as a `String`:
//!   [`seat_win_rates`], [`lengths`], [`intervals`], [`heat_map`] and [`lines`];
//! * [`report_html`], which puts a [`Report`] (the command that produced it, notes, a table and
//!   the charts) into one self-contained HTML page.
//!
//! The crate takes plain data ([`Interval`], [`Quantiles`], slices of labels) and knows nothing of
//! the games, so that it can be tested and reused on its own. Bad input (length mismatches, empty
//! data, NaN, inverted intervals, …) is rejected with a [`PlotError`] that says what is wrong; no
//! function panics on its input.
//!
//! # Layout
//! Variant labels can be long (`reduction=square-landed`), so the per-variant charts are
//! horizontal: one row per variant, its label written level on the left, the values along the
//! horizontal axis. The chart grows one row per variant and stays readable from 1 to some 40
//! variants. Colours are told apart by shape as well (circle, square, triangle, …).
//!
//! # Fonts
//! No font file is read, bundled or needed. The crate uses plotters' SVG backend with neither of
//! its font features (`ttf`, `ab_glyph`): plotters then measures text with its own estimate from
//! the number of characters, and the SVG names the generic `sans-serif` family, which whatever
//! displays the chart (a browser, an image viewer) renders with a font of its own. Label areas are
//! sized from the same kind of estimate, with room to spare. The tests render every chart on a
//! machine that needs no font installed.
//!
//! # Example
//! ```
//! use qasab_plot::{seat_win_rates, Interval};
//!
//! let variants = vec!["tab".to_string(), "tab(reduction=square-landed)".to_string()];
//! let rate = |value| Interval { value, lo: value - 0.03, hi: value + 0.03 };
//! let rates = vec![[rate(0.52), rate(0.48)], [rate(0.61), rate(0.39)]];
//! let svg = seat_win_rates("Wins by seat", &variants, ["first", "second"], &rates).unwrap();
//! assert!(svg.starts_with("<svg"));
//! assert!(svg.contains("square-landed"));
//! ```

mod canvas;
mod categories;
mod check;
mod heat_map;
mod lines;
mod report;
#[cfg(test)]
mod test_support;

pub use categories::{intervals, lengths, seat_win_rates};
pub use heat_map::heat_map;
pub use lines::lines;
pub use report::{Chart, Report, Table, report_html};

/// A statistic with its 95% interval, as `qasab study` estimates it from a sample of games.
///
/// Charts draw `value` as a point and `lo..=hi` as an error bar; `lo` must not exceed `hi`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// The low end of the 95% interval.
    pub lo: f64,
    /// The high end of the 95% interval.
    pub hi: f64,
}

/// A summary of a distribution (game lengths in turns), enough to draw a box plot.
///
/// The fields must be in increasing order `min ≤ p10 ≤ q1 ≤ median ≤ q3 ≤ p90 ≤ max`, with the
/// mean between `min` and `max`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quantiles {
    /// The smallest value.
    pub min: f64,
    /// The 10th percentile.
    pub p10: f64,
    /// The first quartile (25th percentile).
    pub q1: f64,
    /// The median.
    pub median: f64,
    /// The third quartile (75th percentile).
    pub q3: f64,
    /// The 90th percentile.
    pub p90: f64,
    /// The largest value.
    pub max: f64,
    /// The arithmetic mean.
    pub mean: f64,
}

/// Why a chart could not be drawn: the input is inconsistent, or (not expected) drawing failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PlotError {
    /// A list that must have at least one entry has none.
    #[error("nothing to plot: {0} is empty")]
    Empty(String),
    /// Two lists that must match one for one have different lengths.
    #[error("{what} has {got} entries, expected {expected}")]
    LengthMismatch {
        /// Which list.
        what: String,
        /// The length it must have.
        expected: usize,
        /// The length it has.
        got: usize,
    },
    /// A number is NaN or infinite.
    #[error("{0} is not a finite number")]
    NotFinite(String),
    /// An interval whose low end is above its high end.
    #[error("{0}: the interval's low end is above its high end")]
    InvertedInterval(String),
    /// Quantiles out of order.
    #[error(
        "{0}: the quantiles are out of order (need min ≤ p10 ≤ q1 ≤ median ≤ q3 ≤ p90 ≤ max and min ≤ mean ≤ max)"
    )]
    Unordered(String),
    /// A number outside the range its chart allows.
    #[error("{what} is outside {allowed}")]
    OutOfRange {
        /// Which number.
        what: String,
        /// The allowed range.
        allowed: String,
    },
    /// An axis or colour range whose low end is not below its high end.
    #[error("invalid range {lo}..{hi}: the low end must be below the high end")]
    BadRange {
        /// The low end given.
        lo: f64,
        /// The high end given.
        hi: f64,
    },
    /// Positions along an axis that do not increase.
    #[error("{0} must increase strictly")]
    NotIncreasing(String),
    /// The drawing library failed (not expected with valid input).
    #[error("drawing failed: {0}")]
    Drawing(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::with_doc;

    /// Every chart function, on small valid input.
    fn every_chart() -> Vec<String> {
        let v = vec!["a".to_string(), "b".to_string()];
        let iv = Interval {
            value: 0.5,
            lo: 0.4,
            hi: 0.6,
        };
        let q = Quantiles {
            min: 1.0,
            p10: 2.0,
            q1: 3.0,
            median: 4.0,
            q3: 5.0,
            p90: 6.0,
            max: 7.0,
            mean: 4.5,
        };
        let cells = vec![vec![Some(1.0), None], vec![None, Some(2.0)]];
        let series = vec![("s".to_string(), vec![Some(1.0), Some(-1.0)])];
        vec![
            seat_win_rates("t", &v, ["x", "y"], &[[iv; 2]; 2]).unwrap(),
            lengths("t", &v, "turns", &[q; 2]).unwrap(),
            intervals("t", &v, "a", &[iv; 2], Some(0.5), None).unwrap(),
            heat_map("t", "x", &v, "y", &v, &cells, "v", None).unwrap(),
            lines("t", "x", &[1.0, 2.0], "y", &series).unwrap(),
        ]
    }

    /// The charts need no font: plotters is built without its font features (so it measures
    /// text by character count and never opens a font file), and the SVG names only the generic
    /// `sans-serif` family, embeds no font and refers to nothing outside itself.
    #[test]
    fn no_font_is_needed() {
        let lock = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.lock"));
        for font_crate in ["font-kit", "ttf-parser", "ab_glyph", "rusttype", "fontdue"] {
            let entry = format!("name = \"{font_crate}\"");
            assert!(
                !lock.contains(&entry),
                "{font_crate} is built: plotters would load fonts"
            );
        }
        for svg in every_chart() {
            with_doc(&svg, |doc| {
                for text in doc.descendants().filter(|n| n.has_tag_name("text")) {
                    assert_eq!(text.attribute("font-family"), Some("sans-serif"));
                }
                assert!(!doc.descendants().any(|n| n.has_tag_name("image")));
            });
            assert!(!svg.contains("@font-face") && !svg.contains("url(") && !svg.contains("href"));
        }
    }
}
