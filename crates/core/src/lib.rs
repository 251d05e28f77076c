//! Qasab's rules core: the game model and every ruleset, with no I/O and no randomness.
//!
//! # Example: play Tihbat to the end
//! ```
//! use qasab_core::{tihbat, GameState, Ruleset, Turn};
//!
//! let rules: tihbat::Ruleset = "tihbat(seeds=3)".parse().unwrap();
//! let mut state = rules.initial_state();
//! let mut moves = Vec::new();
//! while let Turn::Player(_) = state.turn() {
//!     state.legal_moves(&mut moves);      // sorted, never empty at a player's turn
//!     state.play_unchecked(moves[0]);     // always the first legal move
//! }
//! let outcome = state.turn().outcome().unwrap();
//! assert_eq!(outcome.scores.one + outcome.scores.two, 12);
//! ```
//!
//! # Layout
//! * [`game`]: the shared model: [`Turn`], [`Outcome`], [`GameState`], [`Action`], chance
//!   outcomes with integer weights.
//! * [`ruleset`]: the [`Ruleset`] trait and the canonical `name(key=value,...)` strings;
//!   [`AnyRuleset`] picks the game from the name.
//! * [`actions`]: integer action ids for learning libraries (OpenSpiel).
//! * [`observe`]: observation tensors for learning libraries.
//! * [`record`]: the versioned text format for game records, and replay.
//! * [`perft`]: game-tree counts that pin the rules in tests.
//! * [`tab_ludii`]: Tâb and at-Tâb wa-d-Dukk exactly as Ludii plays them.
//! * [`tihbat`]: the 2×2 mancala.

pub mod actions;
pub mod any;
pub mod endgame;
pub mod game;
pub mod grid;
pub mod observe;
pub mod options;
pub mod perft;
pub mod player;
pub mod record;
pub mod ruleset;
pub mod sticks;
pub mod view;

// The games' modules (`tab`, `tab_ludii`, `tihbat`), one a line of the registry in `any.rs`.
games!(__game_modules;);

pub use actions::{ActionIdError, ActionIds};
pub use any::{AnyAction, AnyGame, AnyRuleset, AnyState, RULESET_NAMES, Registered};
pub use endgame::{Essence, EssenceCaps, Sanctuary};
pub use game::{
    Action, ActionError, ActionOf, ChanceError, EndReason, GameState, InvalidState, MoveError,
    NoChance, Outcome, ParseActionError, PositionIdError, StickStats, Turn, Weighted,
};
pub use observe::Observe;
pub use player::{ByPlayer, Player};
pub use ruleset::{Beginning, OptionDoc, Ruleset, RulesetError};
