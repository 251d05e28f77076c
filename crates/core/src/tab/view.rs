//! The Tâb board model ([`Draw`]): a [`TabDrawing`] from the per-piece views.

use crate::game::GameState;
use crate::grid::Square;
use crate::player::Player;
use crate::ruleset::Ruleset as _;
use crate::sticks::Throw;
use crate::view::{Draw, Drawing, TabDrawing, UnitDrawing, rows, throw_drawing};

use super::state::State;

impl Draw for State {
    fn drawing(&self, last: Option<(Throw, String)>) -> Drawing {
        Drawing::Tab(tab_board(self, last))
    }
}

fn tab_board(s: &State, last: Option<(Throw, String)>) -> TabDrawing {
    let rules = s.ruleset();
    let seats = Player::ALL.map(|p| rules.seat_name(p));
    let grid = s.grid();
    let count = grid.len();
    // The pieces on each square, from the per-piece views.
    let mut unconverted = vec![0u32; count];
    let mut entered = vec![0u32; count];
    for p in Player::ALL {
        let n = u8::try_from(s.piece_squares(p).len()).unwrap_or(u8::MAX);
        for piece in (0..n).filter_map(|i| s.piece(p, i)) {
            let k = usize::from(piece.square.0);
            unconverted[k] += u32::from(!piece.converted);
            entered[k] += u32::from(piece.entered_enemy_row);
        }
    }
    let unit = |sq: Square| {
        let (owner, pieces) = s.unit_at(sq)?;
        let hold = s.enemy_row_hold(sq);
        Some(UnitDrawing {
            owner: rules.seat_name(owner),
            pieces,
            unconverted: unconverted[usize::from(sq.0)],
            entered_enemy_row: entered[usize::from(sq.0)],
            dissolved: s.is_dissolved(sq),
            frozen: hold == Some(true),
            held: hold == Some(false),
        })
    };
    let per = |f: &dyn Fn(Player) -> u32| Player::ALL.map(f);
    TabDrawing {
        columns: grid.columns(),
        rows: rows(grid, unit, seats),
        pending: s
            .pending()
            .into_iter()
            .map(|t| throw_drawing(t, None))
            .collect(),
        banked: s.banked().into_array(),
        on_board: s.pieces_on_board().into_array(),
        unconverted: per(&|p| s.unconverted(p)),
        removed: s.removed().into_array(),
        last_throw: last.map(|(t, d)| throw_drawing(t, Some(d))),
    }
}
