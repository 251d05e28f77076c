//! The 4×N board of the Tâb family and the names of its squares.
//!
//! Squares are numbered row by row from the bottom left, as Ludii numbers its sites:
//! `index = row × columns + column`. Row 0 is the first player's (White's) home row, row 3 the
//! second player's (Black's); column 0 is on White's left. The second player's view is the
//! point reflection `(r, c) ↦ (3 − r, N − 1 − c)`.
//!
//! **Names.** On 9 columns squares carry Lane's letters (research §3.1):
//!
//! ```text
//! row 3 (Black home)   i h g f e d c b a
//! row 2                k l m n o p q r s
//! row 1                S R Q P O N M L K
//! row 0 (White home)   A B C D E F G H I
//! ```
//!
//! (Lane skips J and j.) On every board, and also on 9 columns, squares can be written as
//! coordinates: the column as a letter (`a` … `z`, then `aa`, `ab`, `ac` for columns 27–29)
//! and the row as a digit 1–4 from White's side: `a1` is White's first home square. Other boards
//! print coordinates; 9 columns prints Lane's letters. Names are case-sensitive.

use std::fmt;

use serde::Serialize;
use thiserror::Error;

/// A square of a 4×N board: its index `row × N + column`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Square(pub u8);

/// The largest number of columns of any Tâb board.
pub const MAX_COLUMNS: u8 = 29;
/// The board sizes Hyde gives for At-Tab (H-1, LH-1), smallest first; the largest is the
/// widest board of any Tâb game.
pub const HYDE_COLUMNS: [u8; 4] = [13, 19, 21, 29];
const _: () = assert!(HYDE_COLUMNS[HYDE_COLUMNS.len() - 1] == MAX_COLUMNS);

/// [`HYDE_COLUMNS`] in words: `13, 19, 21 or 29`.
pub const HYDE_COLUMNS_TEXT: &str = {
    const TEXT: crate::options::ConstText<32> =
        crate::options::ConstText::new().list_u8(&HYDE_COLUMNS, ", ", " or ");
    TEXT.as_str()
};

/// The largest number of squares.
pub const MAX_SQUARES: usize = 4 * MAX_COLUMNS as usize;

/// How Lane's letters differ by case, said when a move that is illegal as typed is legal with
/// its letters in the other case.
pub(crate) const LANE_CASE_NOTE: &str = "capital letters name the squares of White's half of the board (A-I, K-S), small letters Black's (k-s, a-i)";

/// The geometry and the names of a 4×N board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    columns: u8,
}

/// A square name that is not on the board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{text}' is not a square of the 4x{columns} board: {why}")]
pub struct ParseSquareError {
    text: String,
    columns: u8,
    why: String,
}

const LANE: [&str; 4] = ["ABCDEFGHI", "SRQPONMLK", "klmnopqrs", "ihgfedcba"];

impl Grid {
    /// A board with `columns` columns (3 ..= 29).
    ///
    /// # Panics
    /// If `columns` is out of range.
    #[inline]
    pub const fn new(columns: u8) -> Grid {
        assert!(columns >= 3 && columns <= MAX_COLUMNS);
        Grid { columns }
    }

    /// The number of columns.
    #[inline]
    pub const fn columns(self) -> u8 {
        self.columns
    }

    /// The number of squares.
    #[inline]
    pub const fn len(self) -> usize {
        4 * self.columns as usize
    }

    /// Always false: a board has squares.
    pub const fn is_empty(self) -> bool {
        false
    }

    /// The square at `row`, `col`.
    #[inline]
    pub const fn at(self, row: u8, col: u8) -> Square {
        Square(row * self.columns + col)
    }

    /// The row of a square (0 = White's home).
    #[inline]
    pub const fn row(self, s: Square) -> u8 {
        s.0 / self.columns
    }

    /// The column of a square (0 = White's left).
    #[inline]
    pub const fn col(self, s: Square) -> u8 {
        s.0 % self.columns
    }

    /// The point reflection of a square: the same square seen by the other player.
    #[inline]
    pub const fn mirror(self, s: Square) -> Square {
        Square(self.len() as u8 - 1 - s.0)
    }

    /// All squares in index order.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.len() as u8).map(Square)
    }

    /// The coordinate name of a square (`a1`).
    pub fn coordinate(self, s: Square) -> String {
        let col = self.col(s);
        let file = if col < 26 {
            ((b'a' + col) as char).to_string()
        } else {
            format!("a{}", (b'a' + col - 26) as char)
        };
        format!("{file}{}", self.row(s) + 1)
    }

    /// The name of a square: Lane's letter on 9 columns, its coordinate otherwise.
    pub fn name(self, s: Square) -> String {
        if self.columns == 9 {
            let row = LANE[self.row(s) as usize].as_bytes();
            (row[self.col(s) as usize] as char).to_string()
        } else {
            self.coordinate(s)
        }
    }

    /// Reads a square name: a coordinate (`a1`, `ac4`) on any board, or Lane's letter on 9
    /// columns.
    ///
    /// # Errors
    /// [`ParseSquareError`] if the text names no square of this board.
    pub fn parse(self, text: &str) -> Result<Square, ParseSquareError> {
        let err = |why: String| ParseSquareError {
            text: text.to_string(),
            columns: self.columns,
            why,
        };
        let t = text.trim();
        if self.columns == 9 && t.len() == 1 {
            let c = t.as_bytes()[0];
            for (row, letters) in LANE.iter().enumerate() {
                if let Some(col) = letters.bytes().position(|x| x == c) {
                    return Ok(self.at(row as u8, col as u8));
                }
            }
            return Err(err("Lane's squares are A-I, K-S, k-s and a-i (no J)".into()));
        }
        let digits = t.bytes().rev().take_while(u8::is_ascii_digit).count();
        let (file, rank) = t.split_at(t.len() - digits);
        let col = match file.as_bytes() {
            [c @ b'a'..=b'z'] => c - b'a',
            [b'a', c @ b'a'..=b'c'] => 26 + c - b'a',
            _ => {
                return Err(err(
                    "expected a column letter and a row digit, e.g. a1".into()
                ));
            }
        };
        let row: u8 = rank
            .parse()
            .map_err(|_| err("the row must be 1, 2, 3 or 4".into()))?;
        if !(1..=4).contains(&row) {
            return Err(err("the row must be 1, 2, 3 or 4".into()));
        }
        if col >= self.columns {
            return Err(err(format!("the board has {} columns", self.columns)));
        }
        Ok(self.at(row - 1, col))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_letters_on_nine_columns() {
        let g = Grid::new(9);
        assert_eq!(g.name(g.at(0, 0)), "A");
        assert_eq!(g.name(g.at(0, 8)), "I");
        assert_eq!(g.name(g.at(1, 8)), "K");
        assert_eq!(g.name(g.at(1, 0)), "S");
        assert_eq!(g.name(g.at(2, 0)), "k");
        assert_eq!(g.name(g.at(2, 8)), "s");
        assert_eq!(g.name(g.at(3, 8)), "a");
        assert_eq!(g.name(g.at(3, 0)), "i");
        for s in g.squares() {
            assert_eq!(g.parse(&g.name(s)), Ok(s));
            assert_eq!(g.parse(&g.coordinate(s)), Ok(s));
        }
        assert!(g.parse("J").is_err());
    }

    #[test]
    fn coordinates_on_every_board() {
        for n in [7u8, 10, 13, 29] {
            let g = Grid::new(n);
            for s in g.squares() {
                assert_eq!(g.parse(&g.name(s)), Ok(s), "{n} {}", g.name(s));
                assert_eq!(g.mirror(g.mirror(s)), s);
            }
        }
        let g = Grid::new(29);
        assert_eq!(g.name(g.at(3, 28)), "ac4");
        assert!(Grid::new(7).parse("h1").is_err());
        assert!(Grid::new(7).parse("a5").is_err());
        assert!(Grid::new(7).parse("A").is_err());
    }
}
