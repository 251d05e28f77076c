//! The Tâb family: `tab` (Lane), `tab-hyde` (Hyde) and `tab-modern` (research §2–5, §9).
//!
//! # Turn structure
//! * The opening (L-4, `opening=until-tab`): chance turns, one throw each, alternating, until a
//!   tâb; that tâb is the first throw of the thrower's first turn.
//! * A turn: chance turns (one per throw) until a 2 or 3, then the player's decisions, each
//!   playing one pending throw on one unit (or banking a tâb, declining a throw, ending the
//!   move phase, where allowed). With `throw_timing=interleaved`, each throw is played at once.
//!   A move phase with nothing to decide is skipped.
//! * Every single throw is a chance event with weights 1, 4, 6, 4, 1 of 16 (exact weights for
//!   biased sticks, `p_white`).
//!
//! # State
//! [`State`] is `Copy` (about 2.4 KB): per piece its square, whether it is converted, whether it
//! has been in the enemy home row, the rows it has seen and (when a reduction rule reads them)
//! the squares it has visited; per square the owner's pieces and whether the stack is
//! dissolved; banked tâbs, pending throws, the phase and the counters; and a Zobrist digest of
//! the pieces and stacks that each move keeps up to date, so that hashing a state is cheap
//! (`digest.rs`). Playing a move does not allocate (the rules check for remaining decisions
//! without building a move list).
//!
//! # Parameters
//! See [`Ruleset`] and `qasab rules`; every option of the research's table is a key.

mod actions;
mod board;
mod digest;
mod essence;
mod flow;
mod fortress;
mod game;
pub(crate) mod id;
mod movegen;
mod moves;
mod narrate;
mod next;
mod observe;
#[cfg(any(test, feature = "reference"))]
mod reference;
mod rules;
mod state;
mod text;
mod track;
mod valid;
mod view;

pub use board::Stats;
pub use game::PieceView;
pub use moves::{Move, ParseMoveError, Play, Spot};
pub use rules::{
    Bank, Conversion, DEFAULT_THROW_CAP, End, EnemyEntry, EnemyRow, LimitResult, MAX_THROW_CAP,
    Opening, Passing, Preset, Reduction, Ruleset, Split, Stacking, Survivor, ThrowUse, Timing,
    Track,
};
pub use state::State;
