//! The four throwing sticks of the Tâb family (research §2, rule S-1).
//!
//! Each stick has a white (flat) side and a black (round) side. A throw counts the white sides:
//! 1, 2, 3 or 4, and no white side counts 6. A throw of 1 is a *tâb*; a 1, 4 or 6 gives another
//! throw. With fair sticks the five throws have weights 1, 4, 6, 4, 1 of 16 (for 0 … 4 whites).
//! With a stick bias `p_white = a/b` the weight of `w` whites is `C(4,w)·a^w·(b−a)^(4−w)` of `b⁴`,
//! exact integers.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};
use thiserror::Error;

use crate::game::Weighted;

/// One throw of the four sticks, by its value: 1, 2, 3, 4 or 6.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Throw(u8);

impl Throw {
    /// A tâb: one white side, value 1.
    pub const TAB: Throw = Throw(1);
    /// Every throw, by value.
    pub const ALL: [Throw; 5] = [Throw(1), Throw(2), Throw(3), Throw(4), Throw(6)];

    /// The throw worth `value` (1, 2, 3, 4 or 6).
    pub const fn from_value(value: u8) -> Option<Throw> {
        match value {
            1 | 2 | 3 | 4 | 6 => Some(Throw(value)),
            _ => None,
        }
    }

    /// The throw with `whites` white sides up (0 ..= 4).
    pub const fn from_whites(whites: u8) -> Option<Throw> {
        match whites {
            0 => Some(Throw(6)),
            1..=4 => Some(Throw(whites)),
            _ => None,
        }
    }

    /// The number of squares it moves.
    #[inline]
    pub const fn value(self) -> u8 {
        self.0
    }

    /// The number of white sides up.
    #[inline]
    pub const fn whites(self) -> u8 {
        if self.0 == 6 { 0 } else { self.0 }
    }

    /// True for a tâb (value 1).
    #[inline]
    pub const fn is_tab(self) -> bool {
        self.0 == 1
    }

    /// True if the thrower throws again: 1, 4 or 6 (S-1, L-5).
    #[inline]
    pub const fn throws_again(self) -> bool {
        matches!(self.0, 1 | 4 | 6)
    }

    /// Lane's name of the throw.
    pub const fn name(self) -> &'static str {
        match self.0 {
            1 => "tab",
            2 => "itneyn",
            3 => "telateh",
            4 => "arbaa",
            _ => "sitteh",
        }
    }

    /// An index 0..5 in value order, for tables.
    #[inline]
    pub const fn index(self) -> usize {
        // 1, 2, 3, 4 give 0 to 3 and 6 gives 4, without a branch.
        let i = self.0 as usize - 1;
        if i < 4 { i } else { 4 }
    }
}

impl fmt::Display for Throw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl Serialize for Throw {
    /// A throw serialises as its value.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

/// Text that names no throw.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{0}' is not a throw: expected 1, 2, 3, 4 or 6 (or tab, itneyn, telateh, arbaa, sitteh)")]
pub struct ParseThrowError(String);

impl FromStr for Throw {
    type Err = ParseThrowError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let by_value = t.parse::<u8>().ok().and_then(Throw::from_value);
        by_value
            .or_else(|| {
                Throw::ALL
                    .into_iter()
                    .find(|th| th.name().eq_ignore_ascii_case(t))
            })
            .ok_or_else(|| ParseThrowError(s.to_string()))
    }
}

/// The probability that one stick falls white side up, as a reduced fraction `white/of`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StickOdds {
    white: u8,
    of: u8,
}

/// A `p_white` value that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("p_white '{text}' is not valid: {why}")]
pub struct ParseOddsError {
    text: String,
    why: &'static str,
}

impl Default for StickOdds {
    fn default() -> Self {
        StickOdds { white: 1, of: 2 }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The weights of the five throws with fair sticks, in value order; they sum to 16.
const FAIR_WEIGHTS: [Weighted<Throw>; 5] = [
    Weighted {
        outcome: Throw(1),
        weight: 4,
    },
    Weighted {
        outcome: Throw(2),
        weight: 6,
    },
    Weighted {
        outcome: Throw(3),
        weight: 4,
    },
    Weighted {
        outcome: Throw(4),
        weight: 1,
    },
    Weighted {
        outcome: Throw(6),
        weight: 1,
    },
];

impl StickOdds {
    /// Fair sticks, 1/2.
    pub const FAIR: StickOdds = StickOdds { white: 1, of: 2 };

    /// The odds `white/of`, reduced.
    ///
    /// # Errors
    /// If the probability is not strictly between 0 and 1 (a turn would never end) or the
    /// reduced denominator exceeds 255 (the weights must fit 32 bits).
    pub fn new(white: u64, of: u64) -> Result<StickOdds, &'static str> {
        if of == 0 || white == 0 || white >= of {
            return Err(
                "it must be strictly between 0 and 1: with 0 or 1 every throw gives another throw and a turn never ends",
            );
        }
        let g = gcd(white, of);
        let (w, o) = (white / g, of / g);
        if o > 255 {
            return Err(
                "the reduced fraction may have a denominator of at most 255 (e.g. 9/16 or 0.55)",
            );
        }
        Ok(StickOdds {
            white: w as u8,
            of: o as u8,
        })
    }

    /// The probability as a float.
    pub fn probability(self) -> f64 {
        f64::from(self.white) / f64::from(self.of)
    }

    /// The weights of the five throws, in value order (1, 2, 3, 4, 6), and their sum.
    pub fn weights(self) -> ([Weighted<Throw>; 5], u32) {
        if self == StickOdds::FAIR {
            return (FAIR_WEIGHTS, 16);
        }
        let (a, b) = (
            u32::from(self.white),
            u32::from(self.of) - u32::from(self.white),
        );
        let binom = [1, 4, 6, 4, 1];
        let w = |whites: u32| binom[whites as usize] * a.pow(whites) * b.pow(4 - whites);
        let out = Throw::ALL.map(|t| Weighted {
            outcome: t,
            weight: w(u32::from(t.whites())),
        });
        (out, u32::from(self.of).pow(4))
    }
}

impl fmt::Display for StickOdds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.white, self.of)
    }
}

impl FromStr for StickOdds {
    type Err = ParseOddsError;

    /// A fraction `a/b` or a decimal `0.55`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |why| ParseOddsError {
            text: s.to_string(),
            why,
        };
        let t = s.trim();
        let (num, den) = if let Some((a, b)) = t.split_once('/') {
            (
                a.trim()
                    .parse::<u64>()
                    .map_err(|_| err("expected a fraction a/b or a decimal"))?,
                b.trim()
                    .parse::<u64>()
                    .map_err(|_| err("expected a fraction a/b or a decimal"))?,
            )
        } else if let Some((int, frac)) = t.split_once('.') {
            if frac.is_empty()
                || frac.len() > 6
                || !frac.bytes().all(|c| c.is_ascii_digit())
                || !(int.is_empty() || int == "0")
            {
                return Err(err(
                    "expected a fraction a/b or a decimal between 0 and 1 with at most 6 places",
                ));
            }
            (
                frac.parse::<u64>().map_err(|_| err("bad decimal"))?,
                10u64.pow(frac.len() as u32),
            )
        } else if let Ok(n) = t.parse::<u64>() {
            (n, 1)
        } else {
            return Err(err(
                "expected a fraction a/b or a decimal, e.g. 9/16 or 0.55",
            ));
        };
        StickOdds::new(num, den).map_err(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fair_sticks_weigh_1_4_6_4_1() {
        let (w, total) = StickOdds::FAIR.weights();
        let by_value: Vec<(u8, u32)> = w.iter().map(|x| (x.outcome.value(), x.weight)).collect();
        assert_eq!(by_value, vec![(1, 4), (2, 6), (3, 4), (4, 1), (6, 1)]);
        assert_eq!(total, 16);
    }

    #[test]
    fn biased_sticks_have_exact_weights() {
        let odds: StickOdds = "9/16".parse().unwrap();
        let (w, total) = odds.weights();
        assert_eq!(total, 16u32.pow(4));
        assert_eq!(w.iter().map(|x| x.weight).sum::<u32>(), total);
        // Four whites: 9^4.
        assert_eq!(w[3].weight, 9u32.pow(4));
        assert_eq!("0.55".parse::<StickOdds>().unwrap().to_string(), "11/20");
        assert_eq!("2/4".parse::<StickOdds>().unwrap(), StickOdds::FAIR);
        for bad in [
            "0",
            "1",
            "1/1",
            "0/3",
            "3/2",
            "0.1234567",
            "1/300",
            "x",
            "1.5",
        ] {
            assert!(bad.parse::<StickOdds>().is_err(), "{bad}");
        }
    }

    #[test]
    fn throws_read_and_print() {
        for t in Throw::ALL {
            assert_eq!(t.to_string().parse::<Throw>(), Ok(t));
            assert_eq!(t.name().parse::<Throw>(), Ok(t));
            assert_eq!(Throw::from_whites(t.whites()), Some(t));
        }
        assert!("5".parse::<Throw>().is_err());
        assert_eq!(Throw::ALL.iter().filter(|t| t.throws_again()).count(), 3);
    }
}
