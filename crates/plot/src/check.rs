//! Input validation shared by the charts: every check returns the [`PlotError`] that names the
//! offending entry.

use crate::{Interval, PlotError, Quantiles};

/// `items` must not be empty.
pub(crate) fn non_empty<T>(what: &str, items: &[T]) -> Result<(), PlotError> {
    if items.is_empty() {
        return Err(PlotError::Empty(what.to_string()));
    }
    Ok(())
}

/// `items` must have `expected` entries.
pub(crate) fn same_len<T>(what: &str, items: &[T], expected: usize) -> Result<(), PlotError> {
    if items.len() != expected {
        return Err(PlotError::LengthMismatch {
            what: what.to_string(),
            expected,
            got: items.len(),
        });
    }
    Ok(())
}

/// `value` must be finite.
pub(crate) fn finite(what: impl FnOnce() -> String, value: f64) -> Result<(), PlotError> {
    if !value.is_finite() {
        return Err(PlotError::NotFinite(what()));
    }
    Ok(())
}

/// All three numbers finite and `lo <= hi`.
pub(crate) fn interval(what: &str, i: &Interval) -> Result<(), PlotError> {
    finite(|| format!("{what}: value"), i.value)?;
    finite(|| format!("{what}: low end"), i.lo)?;
    finite(|| format!("{what}: high end"), i.hi)?;
    if i.lo > i.hi {
        return Err(PlotError::InvertedInterval(what.to_string()));
    }
    Ok(())
}

/// All numbers finite and in order.
pub(crate) fn quantiles(what: &str, q: &Quantiles) -> Result<(), PlotError> {
    let ordered = [q.min, q.p10, q.q1, q.median, q.q3, q.p90, q.max];
    for (name, v) in ["min", "p10", "q1", "median", "q3", "p90", "max", "mean"]
        .iter()
        .zip(ordered.iter().chain([&q.mean]))
    {
        finite(|| format!("{what}: {name}"), *v)?;
    }
    if ordered.windows(2).any(|w| w[0] > w[1]) || q.mean < q.min || q.mean > q.max {
        return Err(PlotError::Unordered(what.to_string()));
    }
    Ok(())
}

/// A caller's range: finite ends, low below high.
pub(crate) fn range(range: Option<(f64, f64)>) -> Result<(), PlotError> {
    match range {
        Some((lo, hi)) if !(lo.is_finite() && hi.is_finite() && lo < hi) => {
            Err(PlotError::BadRange { lo, hi })
        }
        _ => Ok(()),
    }
}

/// The label of variant `i` for error messages.
pub(crate) fn variant(variants: &[String], i: usize) -> String {
    format!("variant `{}`", variants[i])
}
