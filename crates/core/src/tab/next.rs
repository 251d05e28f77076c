//! The decisions of the move phase in compact form, and the list of them kept with the state.
//!
//! Whenever an action leaves a player to decide, the rules must know whether he has any decision
//! (a move phase without one is skipped), and the next call for the legal moves needs the same
//! list. The rules therefore generate the decisions once, in compact form, and keep them in
//! the state ([`Next`]); `legal_moves` decodes them, and a playout plays a picked code without
//! building moves (`GameState::play_picked`). Decisions are applied as codes. The kept list is
//! not part of the position: equality, hashing and position ids ignore it.
//!
//! A decision is one `u64` whose order is the order of [`Move`], so that sorting codes sorts
//! moves:
//!
//! | bits | field |
//! |---|---|
//! | 62–63 | kind: 0 play, 1 bank, 2 decline, 3 end |
//! | 52–54 | the throw ([`Throw::index`]) |
//! | 45–51 | the square moved from |
//! | 38–44 | the square moved to, plus one (0: no destination) |
//! | 9–37 | the pieces that move (0: the whole unit) |
//! | 8 | the stack dissolves |
//! | 0–7 | the survivor of a reduction ([`NO_PIECE`]: none chosen) |

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::grid::MAX_COLUMNS;
use crate::sticks::Throw;

use super::moves::{Move, NO_PIECE, Play, Spot};

const KIND_SHIFT: u32 = 62;
const THROW_SHIFT: u32 = 52;
const FROM_SHIFT: u32 = 45;
const TO_SHIFT: u32 = 38;
const PIECES_SHIFT: u32 = 9;
/// The pieces field: a bit per piece of the widest board.
const PIECES_MASK: u32 = (1 << crate::grid::MAX_COLUMNS) - 1;
const DISSOLVE: u64 = 1 << 8;

/// The code of a bank decision.
pub(crate) const BANK: u64 = 1 << KIND_SHIFT;
/// The code of ending the move phase.
pub(crate) const END: u64 = 3 << KIND_SHIFT;

/// The throw bits of a play's code.
#[inline(always)]
pub(crate) const fn throw_bits(t: Throw) -> u64 {
    (t.index() as u64) << THROW_SHIFT
}

/// The code of a play of the throw with bits `throw` (from [`throw_bits`]) by the unit on
/// `from`, without a survivor.
#[inline(always)]
pub(crate) const fn play(throw: u64, from: u8, to: Option<u8>, pieces: u32, dissolve: bool) -> u64 {
    let to = match to {
        Some(sq) => sq as u64 + 1,
        None => 0,
    };
    throw
        | (from as u64) << FROM_SHIFT
        | to << TO_SHIFT
        | (pieces as u64) << PIECES_SHIFT
        | if dissolve { DISSOLVE } else { 0 }
        | NO_PIECE as u64
}

/// What a play's destination `dest` adds to the code of a play to square 0.
#[inline(always)]
pub(crate) const fn to_bits(dest: u8) -> u64 {
    (dest as u64) << TO_SHIFT
}

/// A play's code with survivor `i` chosen.
#[inline(always)]
pub(crate) const fn with_survivor(code: u64, i: u8) -> u64 {
    (code & !0xFF) | i as u64
}

/// The code of declining throw `t`.
#[inline(always)]
pub(crate) const fn decline(t: Throw) -> u64 {
    2 << KIND_SHIFT | t.index() as u64
}

/// The spots of a board's squares, for [`decode`]: indexed by 7-bit fields, so that no
/// lookup needs a bounds check.
pub(crate) struct Spots {
    /// The spot of each square.
    from: [Spot; 128],
    /// The destination of each `to` field: none for 0, else the spot of square `to - 1`.
    to: [Option<Spot>; 128],
}

/// `SPOTS[columns]`: the spots of a board of `columns` columns.
static SPOTS: [Spots; MAX_COLUMNS as usize + 1] = {
    const NOWHERE: Spot = Spot {
        row: 0,
        col: 0,
        lane: false,
    };
    let mut t = [const {
        Spots {
            from: [NOWHERE; 128],
            to: [None; 128],
        }
    }; MAX_COLUMNS as usize + 1];
    let mut n = 3;
    while n <= MAX_COLUMNS {
        let mut sq = 0;
        while sq < 4 * n {
            let spot = Spot {
                row: sq / n,
                col: sq % n,
                lane: n == 9,
            };
            t[n as usize].from[sq as usize] = spot;
            t[n as usize].to[sq as usize + 1] = Some(spot);
            sq += 1;
        }
        n += 1;
    }
    t
};

/// The spots of the squares of a board of `columns` columns, for [`decode`].
#[inline(always)]
pub(crate) fn spots(columns: u8) -> &'static Spots {
    &SPOTS[usize::from(columns)]
}

/// Throws by index, padded so that a 3-bit field needs no bounds check.
const THROWS: [Throw; 8] = {
    let t = Throw::ALL;
    [t[0], t[1], t[2], t[3], t[4], t[4], t[4], t[4]]
};

/// The move of a code, on a board whose spots are `spots` (from [`spots`]).
#[inline(always)]
pub(crate) fn decode(code: u64, spots: &Spots) -> Move {
    match code >> KIND_SHIFT {
        0 => Move::Play(Play {
            throw: THROWS[(code >> THROW_SHIFT) as usize & 7],
            from: spots.from[(code >> FROM_SHIFT) as usize & 0x7F],
            to: spots.to[(code >> TO_SHIFT) as usize & 0x7F],
            pieces: (code >> PIECES_SHIFT) as u32 & PIECES_MASK,
            dissolve: code & DISSOLVE != 0,
            survivor: code as u8,
        }),
        1 => Move::Bank,
        2 => Move::Decline(THROWS[code as usize & 7]),
        _ => Move::End,
    }
}

/// The code of move `m` on a board of `columns` columns; `None` if a square is off the board.
pub(crate) fn encode(m: Move, columns: u8) -> Option<u64> {
    let square = |s: Spot| (s.row < 4 && s.col < columns).then(|| s.row * columns + s.col);
    Some(match m {
        Move::Play(p) => {
            let to = match p.to {
                Some(t) => Some(square(t)?),
                None => None,
            };
            with_survivor(
                play(
                    throw_bits(p.throw),
                    square(p.from)?,
                    to,
                    p.pieces,
                    p.dissolve,
                ),
                p.survivor,
            )
        }
        Move::Bank => BANK,
        Move::Decline(t) => decline(t),
        Move::End => END,
    })
}

/// The kind of a code: 0 play, 1 bank, 2 decline, 3 end.
#[inline(always)]
pub(crate) const fn kind(code: u64) -> u64 {
    code >> KIND_SHIFT
}

/// The throw of a play or a decline.
#[inline(always)]
pub(crate) const fn throw(code: u64) -> Throw {
    if kind(code) == 2 {
        THROWS[code as usize & 7]
    } else {
        THROWS[(code >> THROW_SHIFT) as usize & 7]
    }
}

/// The throw of a play.
#[inline(always)]
pub(crate) const fn play_throw(code: u64) -> Throw {
    THROWS[(code >> THROW_SHIFT) as usize & 7]
}

/// The square a play moves from.
#[inline(always)]
pub(crate) const fn from(code: u64) -> u8 {
    (code >> FROM_SHIFT) as u8 & 0x7F
}

/// The square a play moves to, if it moves.
#[inline(always)]
pub(crate) const fn to(code: u64) -> Option<u8> {
    match (code >> TO_SHIFT) as u8 & 0x7F {
        0 => None,
        t => Some(t - 1),
    }
}

/// The pieces that move (0: the whole unit).
#[inline(always)]
pub(crate) const fn pieces(code: u64) -> u32 {
    (code >> PIECES_SHIFT) as u32 & PIECES_MASK
}

/// Whether the play dissolves the stack.
#[inline(always)]
pub(crate) const fn dissolves(code: u64) -> bool {
    code & DISSOLVE != 0
}

/// The survivor chosen for a reduction ([`NO_PIECE`]: none).
#[inline(always)]
pub(crate) const fn survivor(code: u64) -> u8 {
    code as u8
}

/// The most decisions [`Next`] keeps; a longer list is generated again when asked for.
pub(crate) const CAP: usize = 32;

/// The decisions of the player to move, kept with the state by the rules.
///
/// Not part of the position: it compares equal to any other and hashes to nothing.
#[derive(Copy, Clone)]
pub(crate) struct Next {
    /// The number of decisions generated; only the first [`CAP`] are kept.
    pub len: u32,
    /// The list is the current player's decisions (set by the rules when they generate it).
    pub valid: bool,
    /// The decisions' codes, in order.
    pub codes: [u64; CAP],
}

impl Next {
    /// An empty list, not valid.
    pub const EMPTY: Next = Next {
        len: 0,
        valid: false,
        codes: [END; CAP],
    };

    /// The codes of the kept decisions, if they are the current ones and all of them are
    /// kept.
    #[inline]
    pub fn kept(&self) -> Option<&[u64]> {
        (self.valid && self.len as usize <= CAP).then(|| &self.codes[..self.len as usize])
    }
}

impl PartialEq for Next {
    /// The kept list is not part of the position.
    fn eq(&self, _: &Next) -> bool {
        true
    }
}

impl Eq for Next {}

impl Hash for Next {
    /// The kept list is not part of the position.
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

impl fmt::Debug for Next {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kept() {
            Some(codes) => write!(f, "Next({} kept)", codes.len()),
            None => f.write_str("Next(-)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_decode_and_sort_as_moves() {
        let tb = |v| throw_bits(Throw::from_value(v).unwrap());
        let codes = [
            play(tb(1), 2, None, 0, false),
            play(tb(1), 2, Some(3), 0, false),
            play(tb(1), 2, Some(3), 0b10, true),
            with_survivor(play(tb(1), 2, Some(3), 0b110, false), 1),
            play(tb(1), 2, Some(3), 0b110, false),
            play(tb(2), 0, Some(35), 0, false),
            play(tb(6), 35, Some(30), 1 << 28, false),
            BANK,
            decline(Throw::TAB),
            decline(Throw::from_value(6).unwrap()),
            END,
        ];
        let moves: Vec<Move> = codes.iter().map(|&c| decode(c, spots(9))).collect();
        assert!(codes.is_sorted());
        assert!(moves.is_sorted(), "{moves:?}");
        let text: Vec<String> = moves.iter().map(Move::to_string).collect();
        assert_eq!(
            text,
            [
                "1:C",
                "1:C-D",
                "1:C-D^2*",
                "1:C-D^2,3=2",
                "1:C-D^2,3",
                "2:A-a",
                "6:a-f^29",
                "bank",
                "decline:1",
                "decline:6",
                "end"
            ]
        );
    }
}
