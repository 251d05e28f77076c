//! What tables of solved positions need of a game: how many pieces stand on the board, and a
//! position reduced to what the rules read of it.
//!
//! Two states can differ only in what the rules never read again: the counters that the safety
//! limits (L-18) and the statistics keep, the numbering of interchangeable pieces, the captures
//! when the result does not count them. A table of solved positions stores one entry for all of
//! them, under the id of their [`Essence::essence`].

use std::hash::Hash;

use crate::any::{AnyRuleset, Registered};
use crate::game::{GameState, PositionIdError};
use crate::player::ByPlayer;
use crate::ruleset::Ruleset;

/// A unit that no enemy piece can ever reach and that its owner never has to move
/// ([`Essence::sanctuaries`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Sanctuary {
    /// Its square, named as the board names it.
    pub square: String,
    /// Its pieces.
    pub pieces: u8,
}

/// Bounds a table puts on counts that the rules let grow without end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EssenceCaps {
    /// Banked tâbs beyond this many are dropped (L-8): the table stands a bank of `bank` for
    /// any larger one, and its builder shows where a larger cap stops changing the values.
    pub bank: u16,
    /// Ludii's track counts (LT-6) are cut to `-counts..=counts`. They can drift without
    /// bound as pieces go round (a move may add at one index and take at another), but the
    /// rules read only whether a count is positive, so a count far from zero stands for any
    /// farther one.
    pub counts: i32,
    /// Throws of one kind pending while a turn throws on (accumulated throws, L-5) beyond
    /// this many are dropped. A 1, 4 or 6 throws again without bound, so a turn's pending
    /// throws have no bound either; the table stands `pending` for any larger count, and
    /// its builder shows where a larger cap stops changing the values (docs/ENDGAMES.md).
    pub pending: u8,
}

impl Default for EssenceCaps {
    fn default() -> Self {
        EssenceCaps {
            bank: 8,
            counts: 4,
            pending: 3,
        }
    }
}

/// A game whose positions can be tabled.
pub trait Essence: GameState {
    /// Pieces on the board, by side (a stack counts each of its pieces).
    fn material(&self) -> ByPlayer<u8>;

    /// The state as the rules read it from here on, with the same future under the ruleset
    /// (its safety limits aside): the counters that only the limits and the statistics read set
    /// to zero, interchangeable pieces in one canonical order, the captures dropped where the
    /// result does not count them, and the counts of `caps` cut to their bounds. States with
    /// equal essences are one entry of a table.
    fn essence(&self, caps: EssenceCaps) -> Self;

    /// Whether this chance state is within a turn: the throws it has thrown are pending and it
    /// throws on (Lane's accumulated throws, L-5). A table plays such throws inside the
    /// expansion of the turn's start rather than keeping them as positions of their own.
    fn within_turn(&self) -> bool {
        false
    }

    /// Reads back the [`GameState::position_id`] of an essence: the id as a position id reads,
    /// without the checks that a state the rules can reach passes (an essence drops counters
    /// they read). Tables keep the positions waiting to be expanded as these ids, a tenth of a
    /// state's size.
    ///
    /// # Errors
    /// The id cannot be read.
    fn from_essence_id(rules: &Self::Ruleset, id: &str) -> Result<Self, PositionIdError>;

    /// The state with the counters that only the safety limits and the statistics read set to
    /// zero and nothing else changed: the same decisions, none of which reaches a limit in the
    /// turn. What a table reads at a player's turn.
    fn unlimited(&self) -> Self;

    /// Every position at a throw with exactly `pieces` on the board (White's, Black's), either
    /// side to throw, each a state that passes [`GameState::validate`]: the seeds of a table of
    /// every position with at most these pieces (`qasab endgame build --pieces`). Counts that
    /// `caps` cut (banked tâbs) run up to their caps; positions with one essence may be given
    /// once. Returns how many it gave.
    ///
    /// # Errors
    /// Why the game cannot list them (a ruleset whose positions it does not enumerate yet).
    fn placements(
        rules: &Self::Ruleset,
        pieces: ByPlayer<u8>,
        caps: EssenceCaps,
        out: &mut dyn FnMut(Self),
    ) -> Result<u64, String>;

    /// The position play would go on from had a safety limit (L-18) not stopped the game at
    /// `self`: the start of the next turn, its player to throw, the counters that the limits
    /// read started again. `None` if `self` is not stopped by a limit, or the game does not
    /// say. What a table is asked of a game a limit stopped (`qasab endgame stalls --tables`).
    fn beyond_limit(&self) -> Option<Self> {
        None
    }

    /// Each side's sanctuaries: units that no enemy piece can ever reach and that their owner
    /// never has to move, so that a side holding one can never lose, and a game where both
    /// sides hold one is a draw under perfect play (docs/ENDGAMES.md, "Fortresses"). `None`
    /// where the game or its ending does not decide it.
    fn sanctuaries(&self) -> Option<ByPlayer<Vec<Sanctuary>>> {
        None
    }
}

/// Work over a game whose positions can be tabled, run by [`with_essence`] for the game of a
/// dynamic ruleset.
pub trait EssenceWork {
    /// What the work gives.
    type Output;
    /// Runs the work for the game `S` under `rules`.
    fn run<S: Essence + Registered + Hash + Eq + Send + Sync>(
        self,
        rules: &S::Ruleset,
    ) -> Self::Output;
}

/// Whether a game's positions can be tabled. Every game of the registry implements it; the
/// games with an [`Essence`] run the work, the others keep the default (no tables).
pub trait Tabled: GameState {
    /// Runs `work` for this game, if its positions can be tabled.
    fn with_essence<W: EssenceWork>(rules: &Self::Ruleset, work: W) -> Option<W::Output> {
        let _ = (rules, work);
        None
    }
}

/// The sanctuaries ([`Essence::sanctuaries`]) of the position `id` of the game of `rules`:
/// `Ok(None)` for a game or an ending where they decide nothing.
///
/// # Errors
/// The id is not a valid position of `rules`.
pub fn sanctuaries_of(
    rules: &AnyRuleset,
    id: &str,
) -> Result<Option<ByPlayer<Vec<Sanctuary>>>, PositionIdError> {
    struct Read<'a>(&'a str);
    impl EssenceWork for Read<'_> {
        type Output = Result<Option<ByPlayer<Vec<Sanctuary>>>, PositionIdError>;
        fn run<S: Essence + Registered + Hash + Eq + Send + Sync>(
            self,
            rules: &S::Ruleset,
        ) -> Self::Output {
            Ok(rules.state_from_id(self.0)?.sanctuaries())
        }
    }
    match with_essence(rules, Read(id)) {
        Some(answer) => answer,
        // A game without tables: the id is still checked.
        None => rules.state_from_id(id).map(|_| None),
    }
}

/// Runs `work` for the game of `rules`, if its positions can be tabled.
pub fn with_essence<W: EssenceWork>(rules: &AnyRuleset, work: W) -> Option<W::Output> {
    crate::with_ruleset!(rules, r => typed(r, work))
}

fn typed<R: Ruleset, W: EssenceWork>(rules: &R, work: W) -> Option<W::Output>
where
    R::State: Tabled,
{
    R::State::with_essence(rules, work)
}
