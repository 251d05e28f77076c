//! The Tâb action ids ([`ActionIds`]): a play's slot from the square it leaves and its throw, the
//! bound on variants per slot and the bound on a game's decisions.

use crate::actions::{ActionIds, THROWS};
use crate::sticks::Throw;

use super::moves::Move;
use super::rules::{Ruleset, Split, Timing};
use super::state::State;

/// Tâb (`tab`, `tab-hyde`, `tab-modern`): slot = (square the unit leaves) × 5 + throw index,
/// with the squares numbered row × columns + column from White's side; the variants of a slot
/// are its destinations (a fork on the track, L-2), the pieces that move (a peel, a detached
/// part, a piece of a dissolved stack, L-14, H-10) and the survivor chosen in a reduction
/// (L-15). Specials: bank (L-8), decline 1, 2, 3, 4, 6 (L-7), end.
impl ActionIds for State {
    fn play_slots(rules: &Ruleset) -> u32 {
        4 * u32::from(rules.columns) * THROWS
    }
    fn variants(rules: &Ruleset) -> u32 {
        tab_variants(rules)
    }
    fn specials(_: &Ruleset) -> u32 {
        2 + THROWS
    }
    fn slot(rules: &Ruleset, m: Move) -> Result<u32, u32> {
        match m {
            Move::Play(p) => {
                let sq = u32::from(p.from.row) * u32::from(rules.columns) + u32::from(p.from.col);
                Ok(sq * THROWS + p.throw.index() as u32)
            }
            Move::Bank => Err(0),
            Move::Decline(t) => Err(1 + t.index() as u32),
            Move::End => Err(1 + THROWS),
        }
    }
    /// A bound from the safety limits (L-18): see `tab_max_decisions`.
    fn max_game_length(rules: &Ruleset) -> u64 {
        tab_max_decisions(rules)
    }
    fn max_chance_outcomes(_: &Ruleset) -> u32 {
        THROWS
    }
    fn chance_id(c: Throw) -> u32 {
        c.index() as u32
    }
}

/// The most decisions a game of Lane's, Hyde's or the modern Tâb can take, from the safety
/// limits of L-18: `turn_cap × (2 × throw_cap + 1)` with accumulated throws,
/// `3 × turn_cap × (throw_cap + 1)` with interleaved ones (402,000 for every preset).
///
/// Let `W` be the throws after the opening (the opening's tâb counted, L-4) and `M` the move
/// phases. The opening's other throws are chance turns without a decision. A decision
/// (L-7, L-8) is a play, which takes one pending throw or one banked tâb; a bank or a decline,
/// which takes one pending throw; or the end of a move phase. Each throw is pending once, and
/// each banked tâb was a pending tâb before (banked by a decision or at the end of a move
/// phase) and is played at most once, so the decisions are at most `W + W + M`.
///
/// * Accumulated throws (L-5): a turn has one move phase, so `M ≤ turn_cap` (the game stops
///   when a turn ends with `turn_cap` turns played); every throw of a turn is pending until
///   its move phase, and a turn that has thrown `throw_cap` times and would throw again stops
///   the game, so `W ≤ turn_cap × throw_cap`.
/// * Interleaved throws (L-6): a move phase follows each throw, so `M ≤ W`; a throw other than
///   its turn's first is thrown only while the game has had fewer than `turn_cap × throw_cap`
///   throws, and there are at most `turn_cap` first throws, so
///   `W ≤ turn_cap × throw_cap + turn_cap`.
fn tab_max_decisions(rules: &Ruleset) -> u64 {
    let turns = u64::from(rules.turn_cap);
    let per_turn = u64::from(rules.throw_cap);
    match rules.timing {
        Timing::Accumulate => turns * (2 * per_turn + 1),
        Timing::Interleaved => 3 * turns * (per_turn + 1),
    }
}

/// Variants per slot in Lane's, Hyde's and the modern Tâb, from the pieces per side `n`.
///
/// Without detaching, the moves that leave one square with one throw are: the whole unit to
/// one of at most two destinations (the fork of the track, L-2), reduced on arrival with one
/// of at most `n` survivors to choose (L-15); or one of at most `n` single pieces (a peel, a
/// piece of a dissolved stack, L-14, H-10) to one of two destinations; or the stack dissolving
/// or a piece converting in place: `4n + 2`. Detaching part of a stack (`split=detach`,
/// `detach-remainder-one`) chooses a subset of its pieces, whose count has no small bound;
/// there `8n + 2` is a bound found by testing, and a state beyond it is an error
/// ([`ActionIdError::TooManyVariants`]), never a wrong id.
fn tab_variants(rules: &Ruleset) -> u32 {
    let n = u32::from(if rules.pieces == 0 {
        rules.columns
    } else {
        rules.pieces
    });
    match rules.split {
        Split::Detach | Split::DetachRemainderOne => 8 * n + 2,
        _ => 4 * n + 2,
    }
}
