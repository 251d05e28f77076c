//! Tihbat, a 2×2 mancala (research §6; seed `003`; Mancala World "Tihbat", after Kinast 2006).
//!
//! # Rules in brief (ids from the research document)
//! * T-1 Pits `A B C D` in sowing (anticlockwise) order. South owns `A B`, North owns `C D`:
//!   ```text
//!    D  C     North
//!    A  B     South
//!   ```
//! * T-2 `seeds` counters per pit; `first` moves first.
//! * T-3 A move empties one own pit and sows its counters one by one from that same pit on,
//!   anticlockwise. A single lap; no relay sowing. `origin` says whether later laps sow the
//!   origin again.
//! * T-4 If the last counter lands in an own pit that then holds 2, 4, 6 or 8, they are
//!   captured (`chain=own-side` also takes the preceding own pit).
//! * T-5 A pit with one counter: `singleton` option.
//! * T-6 A player without counters passes (`empty=pass`) or the game ends (`empty=end`).
//! * T-7 When a position (pits and side to move) occurs for the `repetition`-th time the game
//!   ends and the counters left are divided (`cycle`).
//! * T-8 Most captured counters wins; equal is a draw.
//!
//! # Parameters
//! | key | values | default |
//! |-----|--------|---------|
//! | `seeds` | 1..=60 | 7 |
//! | `chain` | `none`, `own-side` | `none` |
//! | `origin` | `sow`, `skip` | `sow` |
//! | `singleton` | `null`, `illegal`, `forward` | `null` |
//! | `empty` | `pass`, `end` | `pass` |
//! | `repetition` | `first`, 2..=50 | `first` |
//! | `cycle` | `equal`, `own-side` | `equal` |
//! | `first` | `south`, `north` | `south` |
//!
//! # Types
//! [`Position`] is the small `Copy` value of the board: pits, captures, side to move. The
//! playable [`State`] adds the ruleset, the ply count and the repetition history: the keys of the
//! positions seen since the last capture (a capture lowers the number of counters on the board,
//! so no earlier position can return). The history is a reused buffer; playing a move never
//! allocates once it has grown to the longest capture-free stretch of the game.

mod actions;
mod observe;
mod position;
mod ruleset;
mod state;
mod text;
mod view;

pub use position::{Move, ParsePositionError, Pit, Position, Sowing, sow};
pub use ruleset::{
    Chain, CycleSplit, EmptySide, MAX_REPETITION, MAX_SEEDS, NAME, Origin, Ruleset, Singleton,
};
pub use state::{SetupError, State};
