//! The board of any game as a neutral model, ready to draw: the squares, the units on them
//! (owner, pieces, conversion, the enemy-row marks), the pending throws and the last throw, or
//! the pits. The web page draws it as it is and decides no rule; the terminal and Python read
//! the same model.
//!
//! Everything here is read from each game's own accessors. The rows are listed as the terminal
//! draws them: the second player's home row first, the first player's last, columns from the
//! first player's left.

use serde::Serialize;

use crate::game::{GameState, NoChance};
use crate::grid::{Grid, Square};
use crate::player::Player;
use crate::ruleset::Ruleset;
use crate::sticks::Throw;
use crate::{tab, tab_ludii, tihbat};

/// A game's board as a [`Drawing`]. Implemented by each game's state type.
pub trait Draw: GameState {
    /// The drawing of this state; `last` is the game's last chance outcome with its
    /// description (who threw, and whether he throws again), if any.
    fn drawing(&self, last: Option<(Self::Chance, String)>) -> Drawing;
}

impl Draw for tab::State {
    fn drawing(&self, last: Option<(Throw, String)>) -> Drawing {
        Drawing::Tab(tab_board(self, last))
    }
}

impl Draw for tab_ludii::State {
    fn drawing(&self, last: Option<(Throw, String)>) -> Drawing {
        Drawing::Tab(ludii_board(self, last))
    }
}

impl Draw for tihbat::State {
    fn drawing(&self, _: Option<(NoChance, String)>) -> Drawing {
        Drawing::Tihbat(pits(self))
    }
}

/// The board of a game, ready to draw: `kind` tells which board it is.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Drawing {
    /// A Tâb board (`tab`, `tab-hyde`, `tab-modern`, `tab-ludii`, `tab-hyde-ludii`).
    Tab(TabDrawing),
    /// The four pits of Tihbat.
    Tihbat(TihbatDrawing),
}

/// A 4×N Tâb board and what stands around it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct TabDrawing {
    /// The number of columns.
    #[cfg_attr(feature = "schema", schema(minimum = 3))]
    pub columns: u8,
    /// The four rows as the terminal draws them: the second seat's home row (row 4) first.
    pub rows: Vec<Vec<SquareDrawing>>,
    /// The throws waiting to be played, in value order.
    pub pending: Vec<ThrowDrawing>,
    /// Banked tâbs, in seat order (always 0 under Ludii's rules).
    #[cfg_attr(feature = "schema", schema(min_items = 2, max_items = 2))]
    pub banked: [u32; 2],
    /// Pieces on the board, in seat order.
    #[cfg_attr(feature = "schema", schema(min_items = 2, max_items = 2))]
    pub on_board: [u32; 2],
    /// Pieces not yet converted (or, under Ludii's Hyde rules, locked), in seat order.
    #[cfg_attr(feature = "schema", schema(min_items = 2, max_items = 2))]
    pub unconverted: [u32; 2],
    /// Pieces removed by stack reductions, in seat order.
    #[cfg_attr(feature = "schema", schema(min_items = 2, max_items = 2))]
    pub removed: [u32; 2],
    /// The last throw of the sticks so far, or `null` before the first.
    #[cfg_attr(feature = "schema", schema(required = true))]
    pub last_throw: Option<ThrowDrawing>,
}

/// One square of a Tâb board.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(as = Square))]
pub struct SquareDrawing {
    /// Its name in the game's notation (`A`, `k`, `c3`).
    pub name: String,
    /// Its row, 1 to 4 from the first seat's home row.
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 4))]
    pub row: u8,
    /// Its column, 1 to N from the first seat's left.
    #[cfg_attr(feature = "schema", schema(minimum = 1))]
    pub column: u8,
    /// The seat whose home row it is, or `null` for the middle rows.
    #[cfg_attr(feature = "schema", schema(required = true))]
    pub home: Option<&'static str>,
    /// The unit standing on it, or `null`.
    #[cfg_attr(feature = "schema", schema(required = true))]
    pub unit: Option<UnitDrawing>,
}

/// A unit (a piece or a stack) on a square.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(as = Unit))]
pub struct UnitDrawing {
    /// The seat that owns it.
    pub owner: &'static str,
    /// Its number of pieces.
    #[cfg_attr(feature = "schema", schema(minimum = 1))]
    pub pieces: u32,
    /// How many of them are not yet converted (locked, under Ludii's Hyde rules): such a
    /// piece moves only with a tâb.
    pub unconverted: u32,
    /// How many of them have been in the enemy home row.
    pub entered_enemy_row: u32,
    /// True for a dissolved stack, whose pieces move one by one (`split=dissolve`).
    pub dissolved: bool,
    /// True if the enemy-row rule forbids it to move at all now.
    pub frozen: bool,
    /// True if the enemy-row rule lets it move along the enemy row but not leave it.
    pub held: bool,
}

impl UnitDrawing {
    /// The unit as the terminal writes it: the owner's letter (`W`, `B`), in lower case while a
    /// piece of it is not yet converted (or locked); the number of pieces of a stack; `'` if a
    /// piece has been in the enemy home row; `~` for a dissolved stack.
    pub fn text(&self) -> String {
        let mut c: String = self
            .owner
            .chars()
            .next()
            .map_or('?', |l| l.to_ascii_uppercase())
            .to_string();
        if self.unconverted > 0 {
            c = c.to_lowercase();
        }
        if self.pieces > 1 {
            c.push_str(&self.pieces.to_string());
        }
        if self.entered_enemy_row > 0 {
            c.push('\'');
        }
        if self.dissolved {
            c.push('~');
        }
        c
    }
}

/// A throw of the four sticks.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(as = Throw))]
pub struct ThrowDrawing {
    /// Its value: 1, 2, 3, 4 or 6.
    #[cfg_attr(feature = "schema", schema(schema_with = throw_value))]
    pub value: u8,
    /// Its name (`tab`, `itneyn`, ...).
    pub name: &'static str,
    /// How many sticks show their white side.
    #[cfg_attr(feature = "schema", schema(maximum = 4))]
    pub whites: u8,
    /// For the last throw, the game's description of it (who threw, and whether he throws
    /// again); left out for a pending throw.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schema(nullable = false))]
    pub description: Option<String>,
}

/// The four Tihbat pits.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct TihbatDrawing {
    /// The pits as the terminal draws them: North's `D C` first, then South's `A B`.
    pub rows: Vec<Vec<PitDrawing>>,
    /// Counters captured, in seat order.
    #[cfg_attr(feature = "schema", schema(min_items = 2, max_items = 2))]
    pub captured: [u32; 2],
}

/// One Tihbat pit.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(as = Pit))]
pub struct PitDrawing {
    /// Its letter.
    #[cfg_attr(feature = "schema", schema(min_length = 1, max_length = 1))]
    pub name: char,
    /// The seat that owns it.
    pub owner: &'static str,
    /// The counters in it.
    pub counters: u32,
}

/// The schema of a throw's value: one of the values a throw of four sticks can have.
#[cfg(feature = "schema")]
fn throw_value() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Integer)
        .enum_values(Some([1, 2, 3, 4, 6]))
        .description(Some("Its value: 1, 2, 3, 4 or 6."))
        .build()
}

fn throw_drawing(t: Throw, description: Option<String>) -> ThrowDrawing {
    ThrowDrawing {
        value: t.value(),
        name: t.name(),
        whites: t.whites(),
        description,
    }
}

/// The rows of a grid as the terminal draws them, each square made by `square`.
fn rows(
    grid: Grid,
    mut square: impl FnMut(Square) -> Option<UnitDrawing>,
    seats: [&'static str; 2],
) -> Vec<Vec<SquareDrawing>> {
    (0..4u8)
        .rev()
        .map(|row| {
            (0..grid.columns())
                .map(|col| {
                    let sq = grid.at(row, col);
                    SquareDrawing {
                        name: grid.name(sq),
                        row: row + 1,
                        column: col + 1,
                        home: match row {
                            0 => Some(seats[0]),
                            3 => Some(seats[1]),
                            _ => None,
                        },
                        unit: square(sq),
                    }
                })
                .collect()
        })
        .collect()
}

fn tab_board(s: &tab::State, last: Option<(Throw, String)>) -> TabDrawing {
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

fn ludii_board(s: &tab_ludii::State, last: Option<(Throw, String)>) -> TabDrawing {
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

fn pits(s: &tihbat::State) -> TihbatDrawing {
    let rules = s.ruleset();
    let pos = s.position();
    let pit = |p: tihbat::Pit| PitDrawing {
        name: p.letter(),
        owner: rules.seat_name(p.owner()),
        counters: u32::from(pos.pits[p.index()]),
    };
    use tihbat::Pit::{A, B, C, D};
    TihbatDrawing {
        rows: vec![vec![pit(D), pit(C)], vec![pit(A), pit(B)]],
        captured: [u32::from(pos.captured.one), u32::from(pos.captured.two)],
    }
}
