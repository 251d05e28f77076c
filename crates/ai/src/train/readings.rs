//! The readings a run across a family plays: each self-play game draws one from the family's
//! option space, seeded by the game's number, so that one network learns every board and rule
//! option of its family (`qasab train RULESET --across`).
//!
//! A game's reading starts from the run's ruleset. Its board is the run's own with chance
//! 1/3, else drawn among the sizes the family takes in proportion to `1 / n²` (a
//! board of `n` columns has `n` pieces a side, and its games cost about `n²` as much: the
//! small boards carry the many games, the wide ones enough to learn their shape). Then each
//! rule option with a list of values takes a value drawn evenly from its list with chance 1/4,
//! and keeps the run's otherwise. The safety limits (L-18) are not drawn: the result of a
//! stopped game stays the run's (`limit_result`), as the rules in force say. A draw the
//! family refuses (a value one preset does not take, or a combination its check refuses) is
//! drawn again, up to [`TRIES`] times, and is the run's ruleset after that.

use qasab_core::Ruleset;
use qasab_core::options::Values;

use crate::rng::{below, derive_seed, rng_from_seed};

/// Draws of one game's reading before it falls back to the run's ruleset.
pub const TRIES: u64 = 64;

/// The reading that self-play game `game` of a run with seed `seed` on `base` plays ([module
/// docs](self)).
pub fn reading<R: Ruleset>(base: &R, seed: u64, game: u64) -> R {
    let defs = R::option_defs();
    let columns = defs.iter().find(|d| d.key == "columns");
    // The board sizes the family takes (those its option and its check accept, up to 64
    // columns), with their weights.
    let boards: Vec<(String, u64)> = columns
        .map(|def| {
            (1..=64u64)
                .filter_map(|n| {
                    let mut r = base.clone();
                    ((def.set)(&mut r, &n.to_string()).is_ok() && r.check().is_ok())
                        .then(|| (n.to_string(), 1_000_000 / (n * n)))
                })
                .collect()
        })
        .unwrap_or_default();
    for attempt in 0..TRIES {
        let mut rng = rng_from_seed(derive_seed(derive_seed(seed ^ 0x5245_4144, game), attempt));
        let mut r = base.clone();
        if let Some(def) = columns
            && !boards.is_empty()
            && below(&mut rng, 3) != 0
        {
            let total: u64 = boards.iter().map(|(_, w)| w).sum();
            let mut x = (rand_core::Rng::next_u64(&mut rng)) % total;
            for (n, w) in &boards {
                if x < *w {
                    let _ = (def.set)(&mut r, n);
                    break;
                }
                x -= w;
            }
        }
        let mut refused = false;
        for d in defs.iter().filter(|d| !d.is_safety_limit()) {
            let Values::Choice(names) = d.values else {
                continue;
            };
            if below(&mut rng, 4) == 0 {
                refused |= (d.set)(&mut r, names[below(&mut rng, names.len())]).is_err();
            }
        }
        if !refused && r.check().is_ok() {
            return r;
        }
    }
    base.clone()
}
