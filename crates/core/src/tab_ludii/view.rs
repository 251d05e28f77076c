//! The board model of the Ludii presets ([`Draw`]): a [`TabDrawing`], locked pieces counted as
//! not yet converted.

use crate::game::GameState;
use crate::grid::Square;
use crate::player::Player;
use crate::ruleset::Ruleset as _;
use crate::sticks::Throw;
use crate::view::{Draw, Drawing, TabDrawing, UnitDrawing, rows, throw_drawing};

use super::state::State;

impl Draw for State {
    fn drawing(&self, last: Option<(Throw, String)>) -> Drawing {
        Drawing::Tab(ludii_board(self, last))
    }
}

fn ludii_board(s: &State, last: Option<(Throw, String)>) -> TabDrawing {
    let rules = s.rules();
    let seats = Player::ALL.map(|p| rules.seat_name(p));
    let grid = rules.grid();
    let unit = |sq: Square| {
        let (owner, pieces) = s.unit_at(sq.0)?;
        let pieces = u32::from(pieces);
        Some(UnitDrawing {
            owner: rules.seat_name(owner),
            pieces,
            unconverted: if s.is_locked(sq.0) { pieces } else { 0 },
            entered_enemy_row: 0,
            dissolved: false,
            frozen: false,
            held: false,
        })
    };
    let locked = |p: Player| {
        grid.squares()
            .filter_map(|sq| s.unit_at(sq.0).filter(|u| u.0 == p && s.is_locked(sq.0)))
            .map(|u| u32::from(u.1))
            .sum()
    };
    TabDrawing {
        columns: grid.columns(),
        rows: rows(grid, unit, seats),
        pending: s
            .pending_throw()
            .filter(|_| s.turn().player().is_some())
            .map(|t| throw_drawing(t, None))
            .into_iter()
            .collect(),
        banked: [0, 0],
        on_board: Player::ALL.map(|p| s.pieces(p)),
        unconverted: Player::ALL.map(locked),
        removed: [0, 0],
        last_throw: last.map(|(t, d)| throw_drawing(t, Some(d))),
    }
}
