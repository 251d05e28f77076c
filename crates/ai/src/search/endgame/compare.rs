//! Two tables of one ruleset side by side: how much the values of the positions both hold
//! differ. Built with two caps (banked tâbs, pending throws, Ludii's track counts), they show
//! where a larger cap stops changing the values (docs/ENDGAMES.md).

use serde::Serialize;

use super::EndgameError;
use super::file::TableFile;

/// Values closer than this are the same: the files store 32-bit floats.
pub const SAME: f64 = 1e-6;

/// What two tables say of the positions they share.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// Positions both tables hold.
    pub common: u64,
    /// Positions only the first holds.
    pub only_first: u64,
    /// Positions only the second holds.
    pub only_second: u64,
    /// The largest difference of a shared position's value (for the player to throw).
    pub largest: f64,
    /// The mean absolute difference over the shared positions.
    pub mean: f64,
    /// Shared positions whose values differ by more than [`SAME`].
    pub differing: u64,
    /// Shared positions that one table calls a certain win, loss or never-ending draw and the
    /// other does not.
    pub certainty_changed: u64,
}

/// Compares two tables of the same ruleset.
///
/// # Errors
/// The tables are for different rulesets.
pub fn compare(a: &TableFile, b: &TableFile) -> Result<Comparison, EndgameError> {
    if a.header.ruleset != b.header.ruleset {
        return Err(EndgameError::OtherRuleset {
            table: b.header.ruleset.clone(),
            asked: a.header.ruleset.clone(),
        });
    }
    let mut c = Comparison {
        common: 0,
        only_first: 0,
        only_second: 0,
        largest: 0.0,
        mean: 0.0,
        differing: 0,
        certainty_changed: 0,
    };
    let mut total = 0.0;
    let (mut i, mut j) = (0, 0);
    // Both files keep their entries in increasing key order: one merge walk.
    while i < a.len() && j < b.len() {
        let (ka, ea) = a.entry(i);
        let (kb, eb) = b.entry(j);
        match ka.cmp(&kb) {
            std::cmp::Ordering::Less => {
                c.only_first += 1;
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                c.only_second += 1;
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                let d = (f64::from(ea.value) - f64::from(eb.value)).abs();
                c.common += 1;
                total += d;
                c.largest = c.largest.max(d);
                c.differing += u64::from(d > SAME);
                c.certainty_changed += u64::from(ea.certainty() != eb.certainty());
                i += 1;
                j += 1;
            }
        }
    }
    c.only_first += (a.len() - i) as u64;
    c.only_second += (b.len() - j) as u64;
    if c.common > 0 {
        c.mean = total / c.common as f64;
    }
    Ok(c)
}
