//! Moves and their notation: `T:FROM-TO`, `T:FROM-TO*N` and `pass`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::grid::{Grid, MAX_COLUMNS, Square};
use crate::sticks::Throw;

/// A square named independently of the board size: its row (0 = White's home row) and
/// column (0 = White's left).
///
/// Cells order as the squares they name (row by row), on every board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// The row, 0 ..= 3.
    pub row: u8,
    /// The column, 0 .. columns.
    pub col: u8,
}

impl Cell {
    /// The cell of a square of a board with `columns` columns.
    #[inline]
    pub const fn of(square: u8, columns: u8) -> Cell {
        Cell {
            row: square / columns,
            col: square % columns,
        }
    }

    /// The square index of the cell on a board with `columns` columns.
    #[inline]
    pub const fn square(self, columns: u8) -> u8 {
        self.row * columns + self.col
    }

    /// The cell's coordinate name (`a1` … `ac4`).
    pub fn coordinate(self) -> String {
        let g = Grid::new(MAX_COLUMNS);
        g.coordinate(g.at(self.row, self.col))
    }

    /// Lane's letter for the cell, on 9 columns (`A` … `I`, `K` … `S`, `k` … `s`, `a` … `i`).
    pub fn lane_letter(self) -> Option<String> {
        (self.col < 9 && self.row < 4).then(|| {
            let g = Grid::new(9);
            g.name(g.at(self.row, self.col))
        })
    }

    /// The cell's name: Lane's letter if `lane`, otherwise its coordinate.
    pub fn name(self, lane: bool) -> String {
        if lane {
            self.lane_letter().unwrap_or_else(|| self.coordinate())
        } else {
            self.coordinate()
        }
    }

    /// The cell named by the same Lane letter in the other case (`M` and `m`), on the other
    /// player's half of the board; `None` off the 9 columns of Lane's letters.
    pub(crate) fn other_case(self) -> Option<Cell> {
        let letter = self.lane_letter()?;
        let swapped: String = letter
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        Cell::parse(&swapped).ok().map(|(cell, _)| cell)
    }

    /// Reads a cell name: one Lane letter (9 columns; the flag says so) or a coordinate.
    fn parse(text: &str) -> Result<(Cell, bool), String> {
        let lane = text.chars().count() == 1;
        let g = Grid::new(if lane { 9 } else { MAX_COLUMNS });
        let s: Square = g.parse(text).map_err(|e| {
            if lane {
                format!("'{text}' is not one of Lane's letters A-I, K-S, k-s, a-i")
            } else {
                e.to_string()
            }
        })?;
        Ok((
            Cell {
                row: g.row(s),
                col: g.col(s),
            },
            lane,
        ))
    }
}

/// A move: a unit moved by the throw just made, or a pass.
///
/// The notation is `T:FROM-TO` (throw, origin, destination: `3:a1-d1`; on 9 columns with
/// Lane's letters, `3:A-D`), `T:FROM-TO*N` when only `N` pieces of a larger unit move (At-Tab's
/// partial king moves and joins), and `pass`. Squares are written as coordinates on every
/// board, and as Lane's letters on 9 columns ([`crate::grid`]). A move names everything it
/// does, so each is listed once even where Ludii lists it twice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// No piece moves (Ludii's forced pass, and Tab's opening passes).
    Pass,
    /// A unit moves.
    Step(Step),
}

/// A unit moving with one throw.
///
/// Steps order by throw, origin, destination and then part (the whole unit first).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Step {
    /// The throw played.
    pub throw: Throw,
    /// The square left.
    pub from: Cell,
    /// The square reached.
    pub to: Cell,
    /// 0 when the whole unit moves; otherwise the number of pieces that move out of a larger
    /// unit.
    pub part: u8,
    /// True if the squares are written with Lane's letters (9 columns).
    pub lane: bool,
}

impl Move {
    /// The step, unless it is a pass.
    pub fn step(self) -> Option<Step> {
        match self {
            Move::Pass => None,
            Move::Step(s) => Some(s),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => f.write_str("pass"),
            Move::Step(s) => {
                write!(
                    f,
                    "{}:{}-{}",
                    s.throw,
                    s.from.name(s.lane),
                    s.to.name(s.lane)
                )?;
                if s.part > 0 {
                    write!(f, "*{}", s.part)?;
                }
                Ok(())
            }
        }
    }
}

impl serde::Serialize for Move {
    /// `{"move": "3:a1-d1", "throw": 3, "from": "a1", "to": "d1", "pieces": null}`, with
    /// `pieces` the number of pieces of a partial move; or `{"move": "pass"}`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("move", &self.to_string())?;
        if let Move::Step(s) = self {
            map.serialize_entry("throw", &s.throw)?;
            map.serialize_entry("from", &s.from.name(s.lane))?;
            map.serialize_entry("to", &s.to.name(s.lane))?;
            map.serialize_entry("pieces", &(s.part > 0).then_some(s.part))?;
        }
        map.end()
    }
}

/// Text that is not a move in the notation.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "'{text}' is not a move: {why}; expected T:FROM-TO (e.g. 3:a1-d1, or 3:A-D with Lane's letters), T:FROM-TO*N, or pass"
)]
pub struct ParseMoveError {
    text: String,
    why: String,
}

/// A move read without a board: the throw may be missing (the state knows it).
pub(crate) struct LooseStep {
    pub throw: Option<Throw>,
    pub from: Cell,
    pub to: Cell,
    pub part: u8,
    pub lane: bool,
}

/// Reads `pass` (`None`) or `[T:]FROM-TO[*N]`; the error says what is wrong.
pub(crate) fn parse_loose(text: &str) -> Result<Option<LooseStep>, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    if t.is_empty() {
        return Err("it is empty".into());
    }
    let (throw, rest) = match t.split_once(':') {
        Some((v, rest)) => (
            Some(
                v.trim()
                    .parse::<Throw>()
                    .map_err(|_| format!("the throw '{}' is not 1, 2, 3, 4 or 6", v.trim()))?,
            ),
            rest,
        ),
        None => (None, t),
    };
    let (squares, part) = match rest.split_once('*') {
        Some((sq, n)) => {
            let n = n.trim();
            let part = n
                .parse::<u8>()
                .ok()
                .filter(|&k| k >= 1 && n.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| format!("'*{n}' must give a number of pieces from 1 up"))?;
            (sq, part)
        }
        None => (rest, 0),
    };
    let Some((a, b)) = squares.split_once('-') else {
        return Err("the squares must be written FROM-TO".into());
    };
    let (from, lane_a) = Cell::parse(a.trim())?;
    let (to, lane_b) = Cell::parse(b.trim())?;
    if lane_a != lane_b {
        return Err("write both squares as Lane's letters or both as coordinates".into());
    }
    Ok(Some(LooseStep {
        throw,
        from,
        to,
        part,
        lane: lane_a,
    }))
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads the full notation (the throw is required).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |why: String| ParseMoveError {
            text: s.to_string(),
            why,
        };
        match parse_loose(s).map_err(err)? {
            None => Ok(Move::Pass),
            Some(l) => {
                let throw = l.throw.ok_or_else(|| {
                    err("the throw is missing (write it first, as in 3:a1-d1)".into())
                })?;
                Ok(Move::Step(Step {
                    throw,
                    from: l.from,
                    to: l.to,
                    part: l.part,
                    lane: l.lane,
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(throw: u8, from: (u8, u8), to: (u8, u8), part: u8, lane: bool) -> Move {
        Move::Step(Step {
            throw: Throw::from_value(throw).unwrap(),
            from: Cell {
                row: from.0,
                col: from.1,
            },
            to: Cell {
                row: to.0,
                col: to.1,
            },
            part,
            lane,
        })
    }

    #[test]
    fn notation_reads_and_prints() {
        let m = step(3, (0, 0), (0, 3), 0, false);
        assert_eq!(m.to_string(), "3:a1-d1");
        assert_eq!("3:a1-d1".parse::<Move>(), Ok(m));
        let lane = step(3, (0, 0), (0, 3), 0, true);
        assert_eq!(lane.to_string(), "3:A-D");
        assert_eq!("3:A-D".parse::<Move>(), Ok(lane));
        let part = step(2, (2, 27), (2, 28), 2, false);
        assert_eq!(part.to_string(), "2:ab3-ac3*2");
        assert_eq!(part.to_string().parse::<Move>(), Ok(part));
        assert_eq!("pass".parse::<Move>(), Ok(Move::Pass));
        assert_eq!(step(6, (3, 8), (2, 0), 0, true).to_string(), "6:a-k");
    }

    #[test]
    fn bad_notation_is_explained() {
        for (bad, why) in [
            ("", "empty"),
            ("a1-d1", "throw is missing"),
            ("5:a1-d1", "not 1, 2, 3, 4 or 6"),
            ("3:a1", "FROM-TO"),
            ("3:a1-d5", "row must be"),
            ("3:A-d1", "both squares"),
            ("3:J-K", "Lane's letters"),
            ("3:a1-d1*0", "number of pieces"),
            ("3:a1-d1*x", "number of pieces"),
        ] {
            let e = bad.parse::<Move>().unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
