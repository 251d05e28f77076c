//! The evaluation of Tihbat.
//!
//! The result of a Tihbat game is the difference of the counters each side captured, plus the
//! division of the counters left when the game stops (T-7, T-8). The score is computed for
//! South in counters and squashed with `tanh(score / scale)`, `scale = max(2, counters / 8)`
//! (3.5 with 7 counters a pit). North's value is its negation. The terms, South's minus
//! North's:
//!
//! | term | weight | what it counts |
//! |---|---|---|
//! | captured ([`CAPTURED`]) | 1.0 | counters captured so far (T-8) |
//! | own side ([`SIDE_KEPT`], [`SIDE_SHARED`]) | 0.5 or 0.1 | counters in one's own pits: 0.5 when the counters left go to the side they stand on (`cycle=own-side` or `empty=end`), 0.1 when they are shared equally (they are the counters one sows and captures from) |
//! | capture now ([`THREAT_NOW`]) | 0.5 | the largest capture the player to move can make with one move ([`qasab_core::tihbat::sow`]) |
//! | capture next ([`THREAT_NEXT`]) | 0.25 | the largest capture the other player could make if it were his move |
//!
//! Repeated positions are not anticipated: the exact `solver` and the searches handle them.

use qasab_core::tihbat::{CycleSplit, EmptySide, Move, Position, Ruleset, State, sow};
use qasab_core::{GameState, Player, Turn};

use crate::eval::{Evaluate, for_player, squash, terminal_value};

/// Weight of a captured counter.
pub const CAPTURED: f64 = 1.0;
/// Weight of a counter on one's own side when the counters left go to the side they stand on.
pub const SIDE_KEPT: f64 = 0.5;
/// Weight of a counter on one's own side when the counters left are shared equally.
pub const SIDE_SHARED: f64 = 0.1;
/// Weight of the largest capture the player to move can make now.
pub const THREAT_NOW: f64 = 0.5;
/// Weight of the largest capture the other player could make on his move.
pub const THREAT_NEXT: f64 = 0.25;

/// The largest number of counters `p` captures with one move from `pos` (his move or not).
pub fn best_capture(rules: &Ruleset, pos: &Position, p: Player) -> u32 {
    let pos = Position { to_move: p, ..*pos };
    let mut moves = Vec::with_capacity(2);
    pos.moves(rules, &mut moves);
    moves
        .iter()
        .map(|&m| match m {
            Move::Sow { pit, .. } => u32::from(sow(rules, pos.pits, pit).captured),
            Move::Pass => 0,
        })
        .max()
        .unwrap_or(0)
}

/// South's weighted score in counters (see the module docs).
fn score(state: &State) -> f64 {
    let rules = state.ruleset();
    let pos = state.position();
    let side = if rules.cycle == CycleSplit::OwnSide || rules.empty == EmptySide::End {
        SIDE_KEPT
    } else {
        SIDE_SHARED
    };
    let mover = pos.to_move;
    let mut s = 0.0;
    for p in Player::ALL {
        let sign = if p == Player::One { 1.0 } else { -1.0 };
        let threat = if p == mover { THREAT_NOW } else { THREAT_NEXT };
        s += sign
            * (CAPTURED * f64::from(pos.captured[p])
                + side * f64::from(pos.side(p))
                + threat * f64::from(best_capture(rules, &pos, p)));
    }
    s
}

impl Evaluate for State {
    fn evaluate(&self, player: Player) -> f64 {
        if let Turn::Over(o) = self.turn() {
            return terminal_value(&o, player);
        }
        let scale = (f64::from(self.ruleset().total()) / 8.0).max(2.0);
        for_player(squash(score(self), scale), player)
    }
}
