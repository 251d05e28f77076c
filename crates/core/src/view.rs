//! The board of any game as a neutral model, ready to draw: the squares, the units on them
//! (owner, pieces, conversion, the enemy-row marks), the pending throws and the last throw, or
//! the pits. The web page draws it as it is and decides no rule; the terminal and Python read
//! the same model.
//!
//! Everything here is read from each game's own accessors. The rows are listed as the terminal
//! draws them: the second player's home row first, the first player's last, columns from the
//! first player's left.

use serde::Serialize;

use crate::game::GameState;
use crate::grid::{Grid, Square};
use crate::sticks::Throw;

/// A game's board as a [`Drawing`]. Implemented by each game's state type.
pub trait Draw: GameState {
    /// The drawing of this state; `last` is the game's last chance outcome with its
    /// description (who threw, and whether he throws again), if any.
    fn drawing(&self, last: Option<(Self::Chance, String)>) -> Drawing;
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

/// A throw as drawn: with its description for the last throw, without for a pending one.
pub(crate) fn throw_drawing(t: Throw, description: Option<String>) -> ThrowDrawing {
    ThrowDrawing {
        value: t.value(),
        name: t.name(),
        whites: t.whites(),
        description,
    }
}

/// The rows of a grid as the terminal draws them, each square made by `square`.
pub(crate) fn rows(
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
