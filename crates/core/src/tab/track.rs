//! The tracks (L-2, L-12, H-8, M-6), as successor tables built at compile time.
//!
//! For White on a 4×N board (rows 0–3, columns 0–N−1):
//! home row left to right, second row right to left, third row left to right; from the end of
//! the third row (Lane's `s`) the loop goes back to the start of the second row (`K`) or, once,
//! into the enemy home row (`a`), which runs right to left and leaves to the start of the third
//! row (`k`). The one-way track (Hyde) goes from `s` into the enemy row only and ends at its last
//! square. Black's track is the point reflection.

use crate::grid::{MAX_COLUMNS, MAX_SQUARES};
use crate::player::Player;

use super::rules::Track;

/// No square.
pub(crate) const NONE: u8 = 0xFF;

/// Successors of every square for one (columns, track, player): the next square and, at the
/// branch square, the other choice (the enemy row).
pub(crate) type Table = [[u8; 2]; MAX_SQUARES];

const fn at(n: u8, row: u8, col: u8) -> u8 {
    row * n + col
}

const fn white(n: u8, one_way: bool) -> Table {
    let mut t = [[NONE; 2]; MAX_SQUARES];
    let mut row = 0;
    while row < 4 {
        let mut c = 0;
        while c < n {
            let sq = (row * n + c) as usize;
            t[sq] = match row {
                0 => [
                    if c + 1 < n {
                        at(n, 0, c + 1)
                    } else {
                        at(n, 1, n - 1)
                    },
                    NONE,
                ],
                1 => [if c > 0 { at(n, 1, c - 1) } else { at(n, 2, 0) }, NONE],
                2 if c + 1 < n => [at(n, 2, c + 1), NONE],
                2 if one_way => [at(n, 3, n - 1), NONE],
                2 => [at(n, 1, n - 1), at(n, 3, n - 1)],
                _ if c > 0 => [at(n, 3, c - 1), NONE],
                _ if one_way => [NONE, NONE],
                _ => [at(n, 2, 0), NONE],
            };
            c += 1;
        }
        row += 1;
    }
    t
}

const fn mirrored(n: u8, w: &Table) -> Table {
    let len = 4 * n as usize;
    let mut t = [[NONE; 2]; MAX_SQUARES];
    let mut sq = 0;
    while sq < len {
        let m = len - 1 - sq;
        let [a, b] = w[m];
        t[sq] = [
            if a == NONE {
                NONE
            } else {
                (len - 1 - a as usize) as u8
            },
            if b == NONE {
                NONE
            } else {
                (len - 1 - b as usize) as u8
            },
        ];
        sq += 1;
    }
    t
}

const COLUMN_SLOTS: usize = MAX_COLUMNS as usize + 1;

/// `TABLES[columns][one_way][player]`.
static TABLES: [[[Table; 2]; 2]; COLUMN_SLOTS] = {
    let mut all = [[[[[NONE; 2]; MAX_SQUARES]; 2]; 2]; COLUMN_SLOTS];
    let mut n = 3;
    while n <= MAX_COLUMNS {
        let mut k = 0;
        while k < 2 {
            let w = white(n, k == 1);
            all[n as usize][k][0] = w;
            all[n as usize][k][1] = mirrored(n, &w);
            k += 1;
        }
        n += 1;
    }
    all
};

/// Destinations of 1 to 6 steps from every square: the main one and, when the way crosses the
/// branch square, the one through the enemy row. `[sq][steps - 1]`.
pub(crate) type Dests = [[[u8; 2]; 6]; MAX_SQUARES];

const fn dests_of(t: &Table, len: usize) -> Dests {
    let mut d = [[[NONE; 2]; 6]; MAX_SQUARES];
    let mut sq = 0;
    while sq < len {
        let mut v = 1;
        while v <= 6 {
            // Walk the main way, noting where the enemy branch leaves it.
            let mut cur = sq as u8;
            let mut alt = NONE;
            let mut i = 0;
            let mut alive = true;
            while i < v {
                let [a, b] = t[cur as usize];
                if b != NONE && alt == NONE {
                    // Follow the branch for the steps that remain.
                    let mut x = b;
                    let mut k = i + 1;
                    while k < v && x != NONE {
                        x = t[x as usize][0];
                        k += 1;
                    }
                    alt = x;
                }
                if a == NONE {
                    alive = false;
                    break;
                }
                cur = a;
                i += 1;
            }
            d[sq][v - 1] = [if alive { cur } else { NONE }, alt];
            v += 1;
        }
        sq += 1;
    }
    d
}

/// `DESTS[columns][one_way][player]`.
static DESTS: [[[Dests; 2]; 2]; COLUMN_SLOTS] = {
    let mut all = [[[[[[NONE; 2]; 6]; MAX_SQUARES]; 2]; 2]; COLUMN_SLOTS];
    let mut n = 3;
    while n <= MAX_COLUMNS {
        let mut k = 0;
        while k < 2 {
            let mut p = 0;
            while p < 2 {
                all[n as usize][k][p] = dests_of(&TABLES[n as usize][k][p], 4 * n as usize);
                p += 1;
            }
            k += 1;
        }
        n += 1;
    }
    all
};

/// The destination table of a player's track.
#[inline]
pub(crate) fn dests(columns: u8, track: Track, p: Player) -> &'static Dests {
    &DESTS[columns as usize][usize::from(track == Track::OneWay)][p.index()]
}

/// The successor table of a player's track.
#[inline]
pub(crate) fn table(columns: u8, track: Track, p: Player) -> &'static Table {
    &TABLES[columns as usize][usize::from(track == Track::OneWay)][p.index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    fn walk(g: Grid, t: &Table, from: &str, choose_alt: bool, steps: usize) -> Vec<String> {
        let mut sq = g.parse(from).unwrap().0;
        let mut out = Vec::new();
        for _ in 0..steps {
            let [a, b] = t[sq as usize];
            sq = if choose_alt && b != NONE { b } else { a };
            if sq == NONE {
                break;
            }
            out.push(g.name(crate::grid::Square(sq)));
        }
        out
    }

    #[test]
    fn lane_track_for_white() {
        let g = Grid::new(9);
        let t = table(9, Track::Loop, Player::One);
        assert_eq!(walk(g, t, "G", false, 4), ["H", "I", "K", "L"]);
        assert_eq!(walk(g, t, "R", false, 3), ["S", "k", "l"]);
        // At s the loop goes back to K, or into the enemy row at a.
        assert_eq!(walk(g, t, "r", false, 2), ["s", "K"]);
        assert_eq!(walk(g, t, "r", true, 3), ["s", "a", "b"]);
        // The enemy row leaves from i to k.
        assert_eq!(walk(g, t, "h", false, 2), ["i", "k"]);
    }

    #[test]
    fn lane_track_for_black_is_the_reflection() {
        let g = Grid::new(9);
        let t = table(9, Track::Loop, Player::Two);
        assert_eq!(
            walk(g, t, "b", false, 8),
            ["c", "d", "e", "f", "g", "h", "i", "k"]
        );
        assert_eq!(walk(g, t, "R", false, 2), ["S", "k"]);
        assert_eq!(walk(g, t, "R", true, 2), ["S", "A"]);
        assert_eq!(walk(g, t, "H", false, 2), ["I", "K"]);
    }

    #[test]
    fn one_way_track_ends_in_the_enemy_row() {
        let g = Grid::new(13);
        let t = table(13, Track::OneWay, Player::One);
        assert_eq!(walk(g, t, "l3", false, 3), ["m3", "m4", "l4"]);
        assert_eq!(walk(g, t, "b4", false, 3), ["a4"]);
        let t = table(13, Track::OneWay, Player::Two);
        assert_eq!(walk(g, t, "b2", false, 3), ["a2", "a1", "b1"]);
        assert_eq!(walk(g, t, "l1", false, 3), ["m1"]);
    }
}
