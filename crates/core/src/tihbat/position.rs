//! Pits, moves, positions and the sowing rule (T-1, T-3, T-4, T-5).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::player::{ByPlayer, Player};

use super::ruleset::{Chain, Origin, Ruleset, Singleton};

/// A pit, in sowing (anticlockwise) order: South owns `A` and `B`, North owns `C` and `D` (T-1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pit {
    /// South's left pit (index 0).
    A,
    /// South's right pit (index 1).
    B,
    /// North's left pit as North sees it, opposite `B` (index 2).
    C,
    /// North's right pit as North sees it, opposite `A` (index 3).
    D,
}

impl Pit {
    /// All pits in sowing order.
    pub const ALL: [Pit; 4] = [Pit::A, Pit::B, Pit::C, Pit::D];

    /// Index 0..=3 in sowing order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The pit with index `i mod 4`.
    #[inline]
    pub const fn from_index(i: usize) -> Pit {
        Pit::ALL[i % 4]
    }

    /// The owner of the pit.
    #[inline]
    pub const fn owner(self) -> Player {
        if (self as usize) < 2 {
            Player::One
        } else {
            Player::Two
        }
    }

    /// The two pits of a player, in sowing order.
    #[inline]
    pub const fn of(p: Player) -> [Pit; 2] {
        match p {
            Player::One => [Pit::A, Pit::B],
            Player::Two => [Pit::C, Pit::D],
        }
    }

    /// The letter of the pit.
    pub const fn letter(self) -> char {
        (b'A' + self as u8) as char
    }

    fn from_letter(c: char) -> Option<Pit> {
        match c.to_ascii_uppercase() {
            'A' => Some(Pit::A),
            'B' => Some(Pit::B),
            'C' => Some(Pit::C),
            'D' => Some(Pit::D),
            _ => None,
        }
    }
}

impl fmt::Display for Pit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A Tihbat move.
///
/// The notation is the pit letter followed by the number of counters sown, `A7`, or `pass`.
/// The count makes a move self-describing and lets a record be checked; at a prompt the pit
/// letter alone is enough ([`crate::GameState::parse_move`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// Empty `pit` and sow its `count` counters.
    Sow {
        /// The pit emptied.
        pit: Pit,
        /// How many counters it held.
        count: u8,
    },
    /// No move is possible; the turn passes (T-5, T-6).
    Pass,
}

impl serde::Serialize for Move {
    /// `{"move": "A7", "pit": "A", "count": 7}`, or `{"move": "pass"}`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("move", &self.to_string())?;
        if let Move::Sow { pit, count } = self {
            map.serialize_entry("pit", &pit.to_string())?;
            map.serialize_entry("count", count)?;
        }
        map.end()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Sow { pit, count } => write!(f, "{pit}{count}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Text that is not a Tihbat move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{text}' is not a tihbat move: {why}")]
pub struct ParseMoveError {
    text: String,
    why: &'static str,
}

impl Move {
    /// Reads a pit letter with an optional count (`a`, `A7`) or `pass`; the count is `None` when
    /// only the pit is given.
    pub(crate) fn parse_loose(text: &str) -> Result<(Option<Pit>, Option<u8>), &'static str> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok((None, None));
        }
        let mut chars = t.chars();
        let Some(first) = chars.next() else {
            return Err(
                "it is empty; expected a pit letter A-D, optionally with its count (A7), or 'pass'",
            );
        };
        let Some(pit) = Pit::from_letter(first) else {
            return Err("expected a pit letter A-D, optionally with its count (A7), or 'pass'");
        };
        let rest = chars.as_str();
        if rest.is_empty() {
            return Ok((Some(pit), None));
        }
        match rest.parse::<u8>() {
            Ok(n) if n >= 1 && rest.bytes().all(|b| b.is_ascii_digit()) => Ok((Some(pit), Some(n))),
            _ => Err(
                "the pit letter may be followed only by the number of counters it holds (1-240)",
            ),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |why| ParseMoveError {
            text: s.to_string(),
            why,
        };
        match Move::parse_loose(s).map_err(err)? {
            (None, _) => Ok(Move::Pass),
            (Some(pit), Some(count)) => Ok(Move::Sow { pit, count }),
            (Some(_), None) => Err(err(
                "the full notation includes the count (A7); a pit alone is accepted only at a prompt",
            )),
        }
    }
}

/// The result of sowing one pit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sowing {
    /// The pits afterwards, captures removed.
    pub pits: [u8; 4],
    /// The pit that received the last counter.
    pub last: Pit,
    /// Counters captured by the mover.
    pub captured: u8,
}

#[inline]
fn capturable(n: u8) -> bool {
    matches!(n, 2 | 4 | 6 | 8)
}

/// Sows `pit` under `rules` (T-3, T-5) and applies the capture rule (T-4). The mover is the
/// pit's owner. An empty pit is left unchanged.
#[inline]
pub fn sow(rules: &Ruleset, mut pits: [u8; 4], pit: Pit) -> Sowing {
    let p = pit.index();
    let n = pits[p];
    let last;
    if n == 0 {
        return Sowing {
            pits,
            last: pit,
            captured: 0,
        };
    } else if n == 1 {
        match rules.singleton {
            // T-5: the counter goes back where it was; nothing changes.
            Singleton::Null | Singleton::Illegal => last = p,
            Singleton::Forward => {
                pits[p] = 0;
                last = (p + 1) % 4;
                pits[last] += 1;
            }
        }
    } else {
        pits[p] = 0;
        match rules.origin {
            // T-3: counters go to p, p+1, ... round the board, the origin included every lap.
            Origin::Sow => {
                let (q, r) = (n / 4, (n % 4) as usize);
                for i in 0..4 {
                    pits[(p + i) % 4] += q + u8::from(i < r);
                }
                last = (p + n as usize - 1) % 4;
            }
            // T-3 option: the first counter goes to the origin, later laps skip it.
            Origin::Skip => {
                pits[p] = 1;
                let m = n - 1;
                let (q, r) = (m / 3, (m % 3) as usize);
                for i in 0..3 {
                    pits[(p + 1 + i) % 4] += q + u8::from(i < r);
                }
                last = (p + 1 + (m as usize - 1) % 3) % 4;
            }
        }
    }
    let mover = pit.owner();
    let mut captured = 0;
    let last_pit = Pit::from_index(last);
    if last_pit.owner() == mover && capturable(pits[last]) {
        captured += pits[last];
        pits[last] = 0;
        // T-4 option: the preceding pit in sowing order, if it is the mover's too.
        let prev = (last + 3) % 4;
        if rules.chain == Chain::OwnSide
            && Pit::from_index(prev).owner() == mover
            && capturable(pits[prev])
        {
            captured += pits[prev];
            pits[prev] = 0;
        }
    }
    Sowing {
        pits,
        last: last_pit,
        captured,
    }
}

/// A Tihbat position: counters in the pits, counters captured, and the side to move.
///
/// Small, `Copy` and hashable. Two positions are equal when all three parts are equal; the
/// repetition rule compares only pits and side to move ([`Position::key`]).
///
/// The text form (the position id) is `pits/captures/side`, e.g. `7,7,7,7/0,0/south`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Counters in pits `A B C D`.
    pub pits: [u8; 4],
    /// Counters captured by each player.
    pub captured: ByPlayer<u8>,
    /// The side to move.
    pub to_move: Player,
}

impl Position {
    /// The starting position of `rules`.
    pub fn start(rules: &Ruleset) -> Position {
        Position {
            pits: [rules.seeds; 4],
            captured: ByPlayer::new(0, 0),
            to_move: rules.first,
        }
    }

    /// Counters on the board.
    #[inline]
    pub fn on_board(&self) -> u32 {
        self.pits.iter().map(|&n| u32::from(n)).sum()
    }

    /// Counters in `p`'s two pits.
    #[inline]
    pub fn side(&self, p: Player) -> u32 {
        Pit::of(p)
            .iter()
            .map(|q| u32::from(self.pits[q.index()]))
            .sum()
    }

    /// The repetition key: pits and side to move, packed into a `u64`.
    #[inline]
    pub fn key(&self) -> u64 {
        u64::from(u32::from_le_bytes(self.pits)) | ((self.to_move.index() as u64) << 32)
    }

    /// The pits and side to move of a [`Position::key`].
    #[inline]
    pub fn unpack_key(key: u64) -> ([u8; 4], Player) {
        let side = if key >> 32 & 1 == 0 {
            Player::One
        } else {
            Player::Two
        };
        ((key as u32).to_le_bytes(), side)
    }

    /// Fills `out` with the moves of the side to move, ignoring whether the game is over:
    /// the sowings its pits allow (T-3, T-5), or `Pass` when there are none (T-5, T-6).
    pub fn moves(&self, rules: &Ruleset, out: &mut Vec<Move>) {
        out.clear();
        let [x, y] = Pit::of(self.to_move);
        let (nx, ny) = (self.pits[x.index()], self.pits[y.index()]);
        for (pit, n) in [(x, nx), (y, ny)] {
            let allowed = match n {
                0 => false,
                // T-5 `singleton=illegal`: never with one counter. If the other pit has more it
                // is the only move; if not, the player passes.
                1 => rules.singleton != Singleton::Illegal,
                _ => true,
            };
            if allowed {
                out.push(Move::Sow { pit, count: n });
            }
        }
        if out.is_empty() {
            out.push(Move::Pass);
        }
    }

    /// The position after `m` (assumed to be one of [`Position::moves`]) and the counters
    /// captured by it.
    #[inline]
    pub fn after(&self, rules: &Ruleset, m: Move) -> (Position, u8) {
        let mut next = *self;
        let mut captured = 0;
        if let Move::Sow { pit, .. } = m {
            let s = sow(rules, self.pits, pit);
            next.pits = s.pits;
            captured = s.captured;
            next.captured[self.to_move] += captured;
        }
        next.to_move = !self.to_move;
        (next, captured)
    }
}

/// A position id that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad tihbat position '{text}': {why}; expected pits/captures/side, e.g. 7,7,7,7/0,0/south")]
pub struct ParsePositionError {
    text: String,
    why: String,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d] = self.pits;
        let side = match self.to_move {
            Player::One => "south",
            Player::Two => "north",
        };
        write!(
            f,
            "{a},{b},{c},{d}/{},{}/{side}",
            self.captured.one, self.captured.two
        )
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |why: String| ParsePositionError {
            text: s.to_string(),
            why,
        };
        let parts: Vec<&str> = s.trim().split('/').collect();
        let [pits, caps, side] = parts.as_slice() else {
            return Err(err(format!(
                "it has {} '/'-separated parts, not 3",
                parts.len()
            )));
        };
        let numbers = |field: &str, what: &str, n: usize| -> Result<Vec<u8>, ParsePositionError> {
            let v: Vec<&str> = field.split(',').collect();
            if v.len() != n {
                return Err(err(format!(
                    "{what} needs {n} comma-separated numbers, found {}",
                    v.len()
                )));
            }
            v.iter()
                .map(|x| {
                    x.trim()
                        .parse::<u8>()
                        .map_err(|_| err(format!("'{x}' in {what} is not a number 0-255")))
                })
                .collect()
        };
        let p = numbers(pits, "the pits", 4)?;
        let c = numbers(caps, "the captures", 2)?;
        let to_move = match side.trim() {
            "south" => Player::One,
            "north" => Player::Two,
            other => return Err(err(format!("side '{other}' is not south or north"))),
        };
        Ok(Position {
            pits: [p[0], p[1], p[2], p[3]],
            captured: ByPlayer::new(c[0], c[1]),
            to_move,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Ruleset {
        Ruleset::default()
    }

    #[test]
    fn opening_sowing_matches_worked_example() {
        // Research §6.4: South sows A (7) → [2, 9, 9, 8], last in C, no capture.
        let s = sow(&rules(), [7; 4], Pit::A);
        assert_eq!(
            s,
            Sowing {
                pits: [2, 9, 9, 8],
                last: Pit::C,
                captured: 0
            }
        );
    }

    #[test]
    fn five_counters_end_in_the_origin_and_capture_two() {
        // Research §6.4: a pit of 5 sows A,B,C,D,A; A holds 2 and is captured.
        let s = sow(&rules(), [5, 0, 0, 0], Pit::A);
        assert_eq!(
            s,
            Sowing {
                pits: [0, 1, 1, 1],
                last: Pit::A,
                captured: 2
            }
        );
    }

    #[test]
    fn landing_on_the_opponents_side_never_captures() {
        let s = sow(&rules(), [0, 2, 1, 0], Pit::B);
        assert_eq!(
            s,
            Sowing {
                pits: [0, 1, 2, 0],
                last: Pit::C,
                captured: 0
            }
        );
    }

    #[test]
    fn odd_or_large_totals_are_not_captured() {
        assert_eq!(sow(&rules(), [2, 2, 0, 0], Pit::A).captured, 0); // B becomes 3
        assert_eq!(sow(&rules(), [2, 9, 0, 0], Pit::A).captured, 0); // B becomes 10 > 8
        assert_eq!(sow(&rules(), [2, 7, 0, 0], Pit::A).captured, 8);
    }

    #[test]
    fn chain_takes_the_preceding_own_pit() {
        let chain = Ruleset {
            chain: Chain::OwnSide,
            ..rules()
        };
        // A=5 sows A,B,C,D,A: A=2 is captured; the preceding pit D is North's, so no chain
        // (B=4 is capturable but does not precede A).
        assert_eq!(sow(&chain, [5, 3, 0, 0], Pit::A).captured, 2);
        // A=2 sows A,B: B=4 is captured; the preceding pit A holds 1.
        assert_eq!(sow(&chain, [2, 3, 0, 0], Pit::A).captured, 4);
        // North's D=3 sows D,A,B: the last counter is on South's side.
        assert_eq!(sow(&chain, [1, 1, 0, 3], Pit::D).captured, 0);
        // North's C=2 sows C,D: D=2 is captured; C holds 1.
        assert_eq!(sow(&chain, [0, 0, 2, 1], Pit::C).captured, 2);
        // North's C=6 sows C,D,A,B,C,D: D=4 is captured, and the chain takes C=2.
        let s = sow(&chain, [0, 0, 6, 2], Pit::C);
        assert_eq!((s.pits, s.last, s.captured), ([1, 1, 0, 0], Pit::D, 6));
        let s = sow(&rules(), [0, 0, 6, 2], Pit::C);
        assert_eq!((s.pits, s.captured), ([1, 1, 2, 0], 4));
    }

    #[test]
    fn skip_origin_on_later_laps() {
        let skip = Ruleset {
            origin: Origin::Skip,
            ..rules()
        };
        // 7 from A: A gets 1, then B,C,D,B,C,D → B=2,C=2,D=2; last D.
        let s = sow(&skip, [7, 0, 0, 0], Pit::A);
        assert_eq!((s.pits, s.last), ([1, 2, 2, 2], Pit::D));
        // 5 from A: A, B, C, D, B → last B holds 2 → captured.
        let s = sow(&skip, [5, 0, 0, 0], Pit::A);
        assert_eq!((s.pits, s.last, s.captured), ([1, 0, 1, 1], Pit::B, 2));
        // Up to 4 counters it is the same as sowing the origin.
        assert_eq!(
            sow(&skip, [4, 1, 1, 1], Pit::A),
            sow(&rules(), [4, 1, 1, 1], Pit::A)
        );
    }

    #[test]
    fn singletons() {
        let null = sow(&rules(), [1, 3, 0, 0], Pit::A);
        assert_eq!(
            (null.pits, null.last, null.captured),
            ([1, 3, 0, 0], Pit::A, 0)
        );
        let fwd = Ruleset {
            singleton: Singleton::Forward,
            ..rules()
        };
        let s = sow(&fwd, [1, 3, 0, 0], Pit::A);
        assert_eq!((s.pits, s.last, s.captured), ([0, 0, 0, 0], Pit::B, 4));
        let s = sow(&fwd, [0, 1, 0, 0], Pit::B);
        assert_eq!((s.pits, s.last, s.captured), ([0, 0, 1, 0], Pit::C, 0));
    }

    #[test]
    fn move_lists_follow_the_singleton_option() {
        let pos = |pits, side| Position {
            pits,
            captured: ByPlayer::new(0, 0),
            to_move: side,
        };
        let mut out = Vec::new();
        pos([1, 3, 2, 0], Player::One).moves(&rules(), &mut out);
        assert_eq!(
            out,
            vec![
                Move::Sow {
                    pit: Pit::A,
                    count: 1
                },
                Move::Sow {
                    pit: Pit::B,
                    count: 3
                }
            ]
        );
        let illegal = Ruleset {
            singleton: Singleton::Illegal,
            ..rules()
        };
        pos([1, 3, 2, 0], Player::One).moves(&illegal, &mut out);
        assert_eq!(
            out,
            vec![Move::Sow {
                pit: Pit::B,
                count: 3
            }]
        );
        pos([1, 1, 2, 0], Player::One).moves(&illegal, &mut out);
        assert_eq!(out, vec![Move::Pass]);
        pos([1, 0, 2, 0], Player::Two).moves(&illegal, &mut out);
        assert_eq!(
            out,
            vec![Move::Sow {
                pit: Pit::C,
                count: 2
            }]
        );
        pos([4, 0, 0, 0], Player::Two).moves(&rules(), &mut out);
        assert_eq!(out, vec![Move::Pass]);
    }

    #[test]
    fn move_notation_round_trips() {
        for m in [
            Move::Pass,
            Move::Sow {
                pit: Pit::C,
                count: 12,
            },
        ] {
            assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
        }
        assert_eq!(
            "a7".parse::<Move>().unwrap(),
            Move::Sow {
                pit: Pit::A,
                count: 7
            }
        );
        assert!("A".parse::<Move>().is_err());
        assert!("E3".parse::<Move>().is_err());
        assert!("A0".parse::<Move>().is_err());
        assert!("A+3".parse::<Move>().is_err());
    }

    #[test]
    fn position_id_round_trips() {
        let p: Position = "2,9,9,8/0,0/north".parse().unwrap();
        assert_eq!(p.to_string(), "2,9,9,8/0,0/north");
        assert!("2,9,9/0,0/north".parse::<Position>().is_err());
        assert!("2,9,9,8/0,0/east".parse::<Position>().is_err());
        assert!("2,9,9,8/0,0".parse::<Position>().is_err());
    }
}
