//! Tâb as Ludii plays it: the `tab-ludii` and `tab-hyde-ludii` presets.
//!
//! Ludii 1.3.13 ships `Tab.lud` (after Lane 1836) and `At-Tab wa-d-Dukk.lud` (DLP ruleset 760,
//! after Hyde 1694). Researchers compare against Ludii's published results, so these presets
//! reproduce Ludii's rules move for move: the same legal moves at every decision, the same end
//! and the same winner, as checked against recorded Ludii games ([`trace`], which `qasab
//! ludii-replay` runs). The rules, as observed in those games, are specified in the research
//! note `ludii-rules.md`; the ids below (`S-1`, `LT-…`, `LH-…`) are used in the code and by
//! `qasab rules`.
//!
//! # The turn
//! * S-1 Four two-sided sticks; the throw counts the white sides, none counts 6
//!   (weights 4, 6, 4, 1, 1 of 16 for 1, 2, 3, 4, 6 with fair sticks; `p_white` biases them).
//! * Ludii's decision is "throw, then act". Here it is a chance turn (the [`Throw`]) followed by
//!   a player turn whose moves are the moves for that throw, or a single [`Move::Pass`] when
//!   Ludii's only legal move is a pass. After a move or pass made with a 1, 4 or 6 the same
//!   player throws again (in Tab's opening only a 1 does); otherwise the other player throws.
//!
//! # `tab-ludii` (`Tab.lud`; 7, 9, 11, 13 or 15 columns, default 7)
//! * LT-1 One piece on every square of each home row (row 1 White, row 4 Black).
//! * LT-2 Opening: until someone throws a 1 the only move is a pass (4 and 6 give no extra
//!   throw); the first 1 is a pass too, gives another throw and starts the main phase for both.
//! * LT-3 Tracks (White's; Black's are the point reflection): the home track (row 1 left to
//!   right, then row 2 right to left), the middle loop shared by both players (row 2 right to
//!   left, row 3 left to right, round again) and the enemy track (row 3, row 4 back, row 3
//!   again to its right end).
//! * LT-4 A move takes the whole stack `throw` steps along any track holding its square that is
//!   long enough. Landing on own pieces stacks them; stacks never split or shrink. Compulsory.
//! * LT-5 Along the enemy track, from outside the opponent's home row, only while the opponent
//!   has a piece left in its home row. Nothing is frozen in the opponent's home row.
//! * LT-6 Ludii's track-index bookkeeping: for each track and player, a count of pieces at every
//!   index. A move along the home or enemy track starts at the square's first index with a
//!   positive count (none: no move along it). A move of `c` pieces from `f` to `t` subtracts `c`
//!   at that index and adds `c` at `t`'s first index after it (else `t`'s first index); arriving
//!   from off a track adds 1; a capture subtracts 1 at every index of the square. This is what
//!   stops a piece that came back from the enemy row from entering it again, and it decides
//!   legality in about 0.2 % of decisions. Only the counts that can decide a move are kept:
//!   each player's own home and enemy tracks.
//! * LT-7 Landing on enemy pieces removes the whole stack. LT-8 After the opening, a 1, 4 or 6
//!   gives another throw.
//! * LT-9 The game ends after a move that hands the turn to a player with no pieces: the mover
//!   wins (so the capturer of the last piece plays on until a 2 or 3). Ludii keeps no score in
//!   Tab; [`GameState::scores`] counts the enemy pieces each side captured.
//!
//! # `tab-hyde-ludii` (`At-Tab wa-d-Dukk.lud`; 13, 19, 21 or 29 columns, default 13)
//! * LH-1 One piece on every square of each home row. LH-2 One track per player: home row, row 2
//!   back, row 3 forward, the opponent's home row back; a throw past its end cannot be played.
//! * LH-3 Pieces start locked: a locked piece moves only with a 1. Every move unlocks its
//!   destination.
//! * LH-4 Onto an empty square or enemy pieces the whole unit moves, and when
//!   `throw + 1 = size` a move of `throw` of its pieces is legal too; onto an own unit in the
//!   middle rows exactly one piece moves and joins it (a king); onto an own unit elsewhere, no
//!   move.
//! * LH-5 A unit in the opponent's home row moves only once the opponent has no piece there.
//! * LH-6 A capture removes the whole unit and scores 1. LH-7 With nothing to move the player
//!   passes; a 1, 4 or 6 gives another throw after a move or a pass.
//! * LH-8 The game ends after any move when every piece stands in its opposing home row, or the
//!   player who moved has no pieces; the higher score wins, equal scores draw.
//!
//! # Limits
//! LT-10, LH-9: Ludii's safety limits, `turn_cap` turns per player (default 1250) and
//! `move_cap` decisions (default 10000), checked after the rules' own end with Ludii's turn
//! number; a game that reaches one ends as truncated ([`EndReason::TurnCap`](crate::EndReason),
//! no winner).
//!
//! # Differences from Ludii
//! * Ludii's board-size defects are not copied: Black's tracks are computed from the board size.
//!   Ludii's 15-column Tab starts Black's home track one square early (one Black piece can never
//!   move), and its At-Tab file writes Black's track for 13 columns only (on 19, 21 and 29
//!   columns its random games never finish).
//! * Ludii lists a move twice when two tracks lead to the same square (49–62 % of Tab
//!   decisions); a [`Move`] names what it does, so each is listed once. (Ludii's uniformly
//!   random player therefore picks such moves twice as often as Qasab's `random`.)
//!
//! # Parameters
//! | key | values | default |
//! |-----|--------|---------|
//! | `columns` | `tab-ludii`: 7, 9, 11, 13, 15; `tab-hyde-ludii`: 13, 19, 21, 29 | 7; 13 |
//! | `p_white` | a fraction or decimal strictly between 0 and 1 | `1/2` |
//! | `turn_cap` | 1..=1000000 | 1250 |
//! | `move_cap` | 1..=1000000 | 10000 |
//!
//! Every other Tâb option (`pieces`, `opening`, `split`, …) is rejected: these presets are
//! Ludii's rules exactly; `tab` and `tab-hyde` offer the choices.
//!
//! # Notation
//! A move is `T:FROM-TO` (`3:a1-d1`; on 9 columns with Lane's letters, `3:A-D`), `T:FROM-TO*N`
//! when only `N` pieces of a larger unit move, or `pass`. The position id (the board rows, the status, Ludii's counters, the scores and, for
//! Tab, the track counts) is described at [`State::from_id`].
//!
//! # Example
//! ```
//! use qasab_core::{tab_ludii, GameState, Ruleset, Turn};
//! use qasab_core::sticks::Throw;
//!
//! let rules: tab_ludii::Ruleset = "tab-ludii".parse().unwrap();
//! let mut s = rules.initial_state();
//! s.apply_chance_unchecked(Throw::TAB); // White throws a 1 ...
//! assert_eq!(s.parse_move("pass"), Ok(tab_ludii::Move::Pass)); // ... which is played as a pass
//! s.play_unchecked(tab_ludii::Move::Pass);
//! s.apply_chance_unchecked(Throw::from_value(3).unwrap()); // and throws again: a 3
//! let m = s.parse_move("3:a1-d1").unwrap();
//! s.play_unchecked(m);
//! assert_eq!(s.turn(), Turn::Chance); // Black throws next
//! ```
//!
//! [`Throw`]: crate::sticks::Throw
//! [`GameState::scores`]: crate::GameState::scores

mod actions;
mod essence;
mod flow;
mod game;
mod id;
mod movegen;
mod moves;
mod observe;
mod ruleset;
mod state;
mod text;
pub mod trace;
mod tracks;
mod view;

pub use moves::{Cell, Move, ParseMoveError, Step};
pub use ruleset::{
    HYDE_NAME, LUDII_MOVE_CAP, LUDII_TURN_CAP, MAX_MOVE_CAP, MAX_TURN_CAP, NamedTrack, Preset,
    Ruleset, TAB_NAME,
};
pub use state::State;
