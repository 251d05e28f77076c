//! Tâb decisions and their notation.
//!
//! A decision plays one pending throw on one unit, or banks a tâb, declines a throw, or ends
//! the move phase. The notation (documented in `docs/notation.md`):
//!
//! ```text
//! play := THROW ':' FROM [ '-' TO ] [ '^' PIECES ] [ '*' ] [ '=' SURVIVOR ]
//! ```
//!
//! * `3:K-N` — a throw of 3 moves the unit on K (a piece or a whole stack) to N. A conversion
//!   tâb looks the same: `1:I-K`.
//! * `1:C` — the tâb converts the piece on C where it stands (`conversion=in-place`).
//! * `1:K-L^3` — only the named pieces move (piece numbers count along the owner's track, 1 =
//!   the piece that started on A, or on a for Black): peeling one piece off a stack, detaching
//!   part of a king, or moving one piece of a dissolved stack.
//! * `1:K*` — the tâb dissolves the stack on K; `1:K-L^3*` dissolves it and moves piece 3.
//! * `4:q-L=3` — the stack is reduced on arrival and piece 3 survives.
//! * `bank`, `decline:3`, `end`.
//!
//! Squares are Lane's letters on 9 columns and coordinates (`a1`) elsewhere (see
//! [`crate::grid`]). The throw and the squares make a move readable without the position; the
//! position is needed to play it.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};
use thiserror::Error;

use crate::grid::{Grid, MAX_COLUMNS, Square};
use crate::sticks::Throw;

/// A square as (row, column), with the naming it is written in. Independent of the board
/// size, so that a move can be read and printed without the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Spot {
    /// Row 0..=3 from White's side.
    pub row: u8,
    /// Column 0..N from White's left.
    pub col: u8,
    /// Written with Lane's letters (9 columns) rather than as a coordinate.
    pub lane: bool,
}

const LANE: [&[u8; 9]; 4] = [b"ABCDEFGHI", b"SRQPONMLK", b"klmnopqrs", b"ihgfedcba"];

impl Spot {
    /// The spot of a square of `grid`, named as the board names it.
    pub fn of(grid: Grid, s: Square) -> Spot {
        Spot {
            row: grid.row(s),
            col: grid.col(s),
            lane: grid.columns() == 9,
        }
    }

    /// The square of this spot on `grid`, if it is on the board.
    pub fn square(self, grid: Grid) -> Option<Square> {
        (self.row < 4 && self.col < grid.columns()).then(|| grid.at(self.row, self.col))
    }

    /// The square named by the same Lane letter in the other case (`M` and `m`), which lies on
    /// the other player's half of the board; `None` for a coordinate.
    pub(crate) fn other_case(self) -> Option<Spot> {
        if !self.lane || self.row > 3 || self.col > 8 {
            return None;
        }
        let letter = LANE[self.row as usize][self.col as usize];
        let swapped = if letter.is_ascii_uppercase() {
            letter.to_ascii_lowercase()
        } else {
            letter.to_ascii_uppercase()
        };
        Spot::parse(std::str::from_utf8(&[swapped]).ok()?)
    }

    fn parse(text: &str) -> Option<Spot> {
        let b = text.as_bytes();
        if b.len() == 1 {
            for (row, letters) in LANE.iter().enumerate() {
                if let Some(col) = letters.iter().position(|&x| x == b[0]) {
                    return Some(Spot {
                        row: row as u8,
                        col: col as u8,
                        lane: true,
                    });
                }
            }
            return None;
        }
        let digits = b.iter().rev().take_while(|c| c.is_ascii_digit()).count();
        let (file, rank) = text.split_at(text.len() - digits);
        let col = match file.as_bytes() {
            [c @ b'a'..=b'z'] => c - b'a',
            [b'a', c @ b'a'..=b'c'] => 26 + c - b'a',
            _ => return None,
        };
        let row: u8 = rank.parse().ok().filter(|r| (1..=4).contains(r))?;
        Some(Spot {
            row: row - 1,
            col,
            lane: false,
        })
    }
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lane && self.col < 9 {
            write!(f, "{}", LANE[self.row as usize][self.col as usize] as char)
        } else if self.col < 26 {
            write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
        } else {
            write!(f, "a{}{}", (b'a' + self.col - 26) as char, self.row + 1)
        }
    }
}

/// No piece.
pub(crate) const NO_PIECE: u8 = 0xFF;

/// One throw played on one unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Play {
    /// The throw used.
    pub throw: Throw,
    /// Where the unit stands.
    pub from: Spot,
    /// Where it goes; `None` for a conversion in place or a dissolve without a move.
    pub to: Option<Spot>,
    /// The pieces that move, as a mask of piece indices (bit `i` = piece `i + 1`), or 0 for
    /// the whole unit.
    pub pieces: u32,
    /// The stack dissolves (L-14 `dissolve`, `dissolve-move-one`).
    pub dissolve: bool,
    /// The piece index that survives a reduction, if the mover chooses one.
    pub survivor: u8,
}

/// A Tâb decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// Play a throw.
    Play(Play),
    /// Put a pending tâb in the bank (L-8).
    Bank,
    /// Leave a throw unplayed (L-7).
    Decline(Throw),
    /// End the move phase: tâbs that can be banked are banked, other throws are forfeited.
    End,
}

impl Play {
    /// A whole-unit move.
    pub fn new(grid: Grid, throw: Throw, from: Square, to: Square) -> Play {
        Play {
            throw,
            from: Spot::of(grid, from),
            to: Some(Spot::of(grid, to)),
            pieces: 0,
            dissolve: false,
            survivor: NO_PIECE,
        }
    }
}

fn write_pieces(f: &mut fmt::Formatter<'_>, mask: u32) -> fmt::Result {
    let mut first = true;
    for i in 0..32 {
        if mask & (1 << i) != 0 {
            write!(f, "{}{}", if first { "" } else { "," }, i + 1)?;
            first = false;
        }
    }
    Ok(())
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.throw, self.from)?;
        if let Some(to) = self.to {
            write!(f, "-{to}")?;
        }
        if self.pieces != 0 {
            f.write_str("^")?;
            write_pieces(f, self.pieces)?;
        }
        if self.dissolve {
            f.write_str("*")?;
        }
        if self.survivor != NO_PIECE {
            write!(f, "={}", u32::from(self.survivor) + 1)?;
        }
        Ok(())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(p) => p.fmt(f),
            Move::Bank => f.write_str("bank"),
            Move::Decline(t) => write!(f, "decline:{t}"),
            Move::End => f.write_str("end"),
        }
    }
}

/// Text that is not in the Tâb move notation.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{text}' is not a tab move: {why}")]
pub struct ParseMoveError {
    text: String,
    why: String,
}

/// The expected form, for messages.
pub(crate) const FORM: &str = "expected THROW:FROM-TO (e.g. 3:K-N), with ^PIECES, * or =SURVIVOR where needed, or bank, decline:THROW, end";

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |why: &str| ParseMoveError {
            text: s.to_string(),
            why: why.to_string(),
        };
        let t = s.trim();
        match t {
            "bank" => return Ok(Move::Bank),
            "end" => return Ok(Move::End),
            _ => {}
        }
        if let Some(v) = t.strip_prefix("decline:") {
            return v
                .parse()
                .map(Move::Decline)
                .map_err(|_| err("decline takes a throw: decline:3"));
        }
        let (throw, rest) = t.split_once(':').ok_or_else(|| err(FORM))?;
        let throw: Throw = throw
            .parse()
            .map_err(|_| err("the throw must be 1, 2, 3, 4 or 6"))?;
        let (rest, survivor) = match rest.split_once('=') {
            Some((r, s)) => {
                let n: u8 = s
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_COLUMNS).contains(n))
                    .ok_or_else(|| {
                        err(&format!("=SURVIVOR takes a piece number 1-{MAX_COLUMNS}"))
                    })?;
                (r, n - 1)
            }
            None => (rest, NO_PIECE),
        };
        let (rest, dissolve) = match rest.strip_suffix('*') {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let (rest, pieces) = match rest.split_once('^') {
            Some((r, list)) => {
                let mut mask = 0u32;
                for n in list.split(',') {
                    let n: u8 = n
                        .parse()
                        .ok()
                        .filter(|n| (1..=MAX_COLUMNS).contains(n))
                        .ok_or_else(|| {
                            err(&format!(
                                "^PIECES takes piece numbers 1-{MAX_COLUMNS}, comma-separated"
                            ))
                        })?;
                    mask |= 1 << (n - 1);
                }
                (r, mask)
            }
            None => (rest, 0),
        };
        let (from, to) = match rest.split_once('-') {
            Some((a, b)) => (a, Some(b)),
            None => (rest, None),
        };
        let from = Spot::parse(from).ok_or_else(|| err("unknown square: squares are Lane's letters (A-I, K-S, k-s, a-i) or coordinates like a1"))?;
        let to = match to {
            Some(b) => Some(Spot::parse(b).ok_or_else(|| err("unknown destination square"))?),
            None => None,
        };
        if to.is_some_and(|to| to.lane != from.lane) {
            return Err(err(
                "write both squares the same way: Lane's letters or coordinates",
            ));
        }
        Ok(Move::Play(Play {
            throw,
            from,
            to,
            pieces,
            dissolve,
            survivor,
        }))
    }
}

impl Serialize for Move {
    /// `{"move": "3:K-N", "kind": "play", "throw": 3, "from": "K", "to": "N", ...}`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("move", &self.to_string())?;
        match self {
            Move::Play(p) => {
                map.serialize_entry("kind", "play")?;
                map.serialize_entry("throw", &p.throw)?;
                map.serialize_entry("from", &p.from.to_string())?;
                if let Some(to) = p.to {
                    map.serialize_entry("to", &to.to_string())?;
                }
                if p.pieces != 0 {
                    let list: Vec<u32> = (0..32)
                        .filter(|i| p.pieces & (1 << i) != 0)
                        .map(|i| i + 1)
                        .collect();
                    map.serialize_entry("pieces", &list)?;
                }
                if p.dissolve {
                    map.serialize_entry("dissolve", &true)?;
                }
                if p.survivor != NO_PIECE {
                    map.serialize_entry("survivor", &(u32::from(p.survivor) + 1))?;
                }
            }
            Move::Bank => map.serialize_entry("kind", "bank")?,
            Move::Decline(t) => {
                map.serialize_entry("kind", "decline")?;
                map.serialize_entry("throw", t)?;
            }
            Move::End => map.serialize_entry("kind", "end")?,
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in [
            "3:K-N",
            "1:I-K",
            "1:C",
            "1:K-L^3",
            "2:e2-g2^1,2",
            "1:K*",
            "1:K-L^3*",
            "4:q-L=3",
            "6:ab3-ac3",
            "bank",
            "decline:3",
            "end",
        ] {
            let m: Move = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
    }

    #[test]
    fn bad_notation_is_explained() {
        for bad in [
            "",
            "5:K-N",
            "3:J-N",
            "3:K-n4",
            "3:K-N^0",
            "3K-N",
            "decline:5",
            "3:K-N=30",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }
}
