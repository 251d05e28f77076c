//! Ludii's tracks for every board size, computed at compile time.
//!
//! Squares are site indices (`row × N + column`, row 0 = White's home row), as in Ludii. Every
//! track is written for White (player 1) as ludii-rules.md gives it; Black's track is its
//! point reflection `s ↦ 4N − 1 − s`, computed from the board size (Ludii's own files hard-code
//! some of Black's tracks for one board only; see the module docs).

use super::moves::{Cell, Move, Step};
use crate::sticks::Throw;

/// No square, no index.
pub(crate) const NONE: u8 = u8::MAX;

/// The largest Tab board: 15 columns.
pub(crate) const TAB_MAX_COLUMNS: usize = 15;
const TAB_SQUARES: usize = 4 * TAB_MAX_COLUMNS;
/// Room for the longest home track (rows 0 and 1: 30 squares), rounded up to a power of two
/// so that a masked index needs no bounds check.
pub(crate) const HOME_LEN: usize = 32;
/// Room for the longest enemy track (row 2, row 3, row 2 again: 45 squares), rounded up to a
/// power of two.
pub(crate) const ENEMY_LEN: usize = 64;
/// Each player's track-index counts (Tab) live in one array: the home track's at `HOME_AT`, the
/// enemy track's at `ENEMY_AT`, then a slot that always holds 1 (`ONE_AT`) and one that always
/// holds 0 (`ZERO_AT`), so that every square's test is one indexed load.
pub(crate) const COUNTS: usize = 128;
/// Where the home-track counts start.
pub(crate) const HOME_AT: usize = 0;
/// Where the enemy-track counts start.
pub(crate) const ENEMY_AT: usize = HOME_LEN;
/// A count that is always 1: the middle loop needs no count.
pub(crate) const ONE_AT: usize = ENEMY_AT + ENEMY_LEN;
/// A count that is always 0: no entry into the enemy row from here.
pub(crate) const ZERO_AT: usize = ONE_AT + 1;

/// Squares of the largest board of either game (At-Tab's widest, 29 columns, is the family's).
pub(crate) const MAX_SQUARES: usize = crate::grid::MAX_SQUARES;

/// Tab's five tracks on one board (ludii-rules.md, "Tab.lud").
///
/// Index `[p]` is the player (0 = White, 1 = Black).
pub(crate) struct TabTracks {
    /// Squares per row.
    #[cfg_attr(not(test), allow(dead_code))]
    pub n: u8,
    /// The home track: own home row away from the start, then the second row back, ending at
    /// the left end (for White) of row 1.
    pub home: [[u8; HOME_LEN]; 2],
    /// The index of each square on the player's home track, or `NONE`.
    pub home_index: [[u8; TAB_SQUARES]; 2],
    /// The shared middle loop: row 1 right to left, row 2 left to right, back to row 1.
    pub middle: [u8; HOME_LEN],
    /// The index of each square on the middle loop (rows 1 and 2 only), or `NONE`.
    pub middle_index: [u8; TAB_SQUARES],
    /// The enemy track: row 2, the opponent's home row back, then row 2 again.
    pub enemy: [[u8; ENEMY_LEN]; 2],
    /// The first and second index of each square on the player's enemy track, or `NONE`.
    pub enemy_index: [[[u8; 2]; TAB_SQUARES]; 2],
    /// Each player's home row as a bit mask.
    pub home_row: [u64; 2],
    /// For each player and square, the slot of its count array that must be positive for the
    /// `primary` move (64 entries, so that a square masked with 63 needs no bounds check).
    pub first_slot: [[u8; 64]; 2],
    /// For each player and square, the slot that must be positive for the `entry` move.
    pub entry_slot: [[u8; 64]; 2],
    /// For each player, square and throw (by [`Throw::index`]): the move to the one
    /// destination every track holding the square agrees on.
    pub primary: [[[Option<Move>; 5]; 64]; 2],
    /// For each player, square of the third row (White's view) and throw: the move into the
    /// opponent's home row along the enemy track from the square's first index.
    pub entry: [[[Option<Move>; 5]; 64]; 2],
}

// How the tracks through a square decide its moves (Tab; White's rows). Where two tracks hold a
// square they lead to the same destination, except at the right end of row 3, where the middle
// loop turns back to row 2 and the enemy track goes on into the opponent's home row. So each
// square has one `primary` destination per throw, and the third row may have an `entry` one as
// well (LT-3, LT-4, LT-6):
//
// * row 1 (own home row): the home track only, if the mover's count at the square's index is
//   positive;
// * row 2: the home track and the middle loop agree; the loop needs no count;
// * row 3: the middle loop (the enemy track agrees within the row), and the entry into the
//   enemy row if the mover's count at the square's first enemy index is positive and the
//   opponent still has a piece in its home row (a piece counted only at the second index goes
//   on along row 3, as the loop does);
// * row 4 (enemy home row): the enemy track only, if the count at its index is positive.

/// At-Tab's track for each player on one board (ludii-rules.md, "At-Tab wa-d-Dukk.lud"):
/// home row left to right, row 1 back, row 2 forward, the opponent's home row back.
pub(crate) struct HydeTracks {
    /// The row and column of each square.
    pub cells: [Cell; MAX_SQUARES],
    /// The track of each player.
    pub track: [[u8; MAX_SQUARES]; 2],
    /// The index of each square on each player's track.
    pub index: [[u8; MAX_SQUARES]; 2],
}

/// The square at `row`, `col` of a board with `n` columns.
const fn sq(n: usize, row: usize, col: usize) -> u8 {
    (row * n + col) as u8
}

/// White's square `k` steps along a serpentine of `rows` (each `(row, left_to_right)`).
const fn serpentine(n: usize, rows: &[(usize, bool)], k: usize) -> u8 {
    let (row, forward) = rows[k / n];
    let c = k % n;
    sq(n, row, if forward { c } else { n - 1 - c })
}

/// The cell of every square of a board with `n` columns (the rest are unused).
const fn cells<const LEN: usize>(n: usize) -> [Cell; LEN] {
    let mut out = [Cell { row: 0, col: 0 }; LEN];
    let mut s = 0;
    while s < 4 * n {
        out[s] = Cell::of(s as u8, n as u8);
        s += 1;
    }
    out
}

/// The whole-unit move with throw number `k` from square `from` to `to` (`None` for `NONE`).
const fn step(n: usize, k: usize, from: usize, to: u8) -> Option<Move> {
    if to == NONE {
        return None;
    }
    Some(Move::Step(Step {
        throw: Throw::ALL[k],
        from: Cell::of(from as u8, n as u8),
        to: Cell::of(to, n as u8),
        part: 0,
        lane: n == 9,
    }))
}

const fn tab_tracks(n: usize) -> TabTracks {
    let squares = 4 * n;
    let mut t = TabTracks {
        n: n as u8,
        home: [[NONE; HOME_LEN]; 2],
        home_index: [[NONE; TAB_SQUARES]; 2],
        middle: [NONE; HOME_LEN],
        middle_index: [NONE; TAB_SQUARES],
        enemy: [[NONE; ENEMY_LEN]; 2],
        enemy_index: [[[NONE; 2]; TAB_SQUARES]; 2],
        home_row: [((1u64 << n) - 1), ((1u64 << n) - 1) << (3 * n)],
        first_slot: [[ZERO_AT as u8; 64]; 2],
        entry_slot: [[ZERO_AT as u8; 64]; 2],
        primary: [[[None; 5]; 64]; 2],
        entry: [[[None; 5]; 64]; 2],
    };
    // Home track 1: "0,E,N1,W"; middle: "(right end of row 1),W,N1,E", a loop;
    // enemy track 1: "(left end of row 2),E,N1,W,S1,E".
    let home_rows = [(0, true), (1, false)];
    let middle_rows = [(1, false), (2, true)];
    let enemy_rows = [(2, true), (3, false), (2, true)];
    let mut k = 0;
    while k < 2 * n {
        let h = serpentine(n, &home_rows, k);
        t.home[0][k] = h;
        t.home[1][k] = (squares - 1) as u8 - h;
        let m = serpentine(n, &middle_rows, k);
        t.middle[k] = m;
        t.middle_index[m as usize] = k as u8;
        k += 1;
    }
    let mut k = 0;
    while k < 3 * n {
        let e = serpentine(n, &enemy_rows, k);
        t.enemy[0][k] = e;
        t.enemy[1][k] = (squares - 1) as u8 - e;
        k += 1;
    }
    let mut p = 0;
    while p < 2 {
        let mut k = 0;
        while k < 2 * n {
            t.home_index[p][t.home[p][k] as usize] = k as u8;
            k += 1;
        }
        let mut k = 0;
        while k < 3 * n {
            let s = t.enemy[p][k] as usize;
            let slot = if t.enemy_index[p][s][0] == NONE { 0 } else { 1 };
            t.enemy_index[p][s][slot] = k as u8;
            k += 1;
        }
        p += 1;
    }
    let values = [1, 2, 3, 4, 6];
    let mut p = 0;
    while p < 2 {
        let mut s = 0;
        while s < squares {
            // The row as the player sees it (0 = own home row).
            let row = if p == 0 { s / n } else { 3 - s / n };
            let h = t.home_index[p][s];
            let e = t.enemy_index[p][s][0];
            t.first_slot[p][s] = match row {
                0 => (HOME_AT + h as usize) as u8,
                1 | 2 => ONE_AT as u8,
                _ => (ENEMY_AT + e as usize) as u8,
            };
            if row == 2 {
                t.entry_slot[p][s] = (ENEMY_AT + e as usize) as u8;
            }
            let mut k = 0;
            while k < 5 {
                let v = values[k];
                let primary = match row {
                    0 => {
                        if (h as usize) + v < 2 * n {
                            t.home[p][h as usize + v]
                        } else {
                            NONE
                        }
                    }
                    1 | 2 => t.middle[(t.middle_index[s] as usize + v) % (2 * n)],
                    _ => {
                        if (e as usize) + v < 3 * n {
                            t.enemy[p][e as usize + v]
                        } else {
                            NONE
                        }
                    }
                };
                t.primary[p][s][k] = step(n, k, s, primary);
                if row == 2 && (e as usize) + v >= n {
                    t.entry[p][s][k] = step(n, k, s, t.enemy[p][e as usize + v]);
                }
                k += 1;
            }
            s += 1;
        }
        p += 1;
    }
    t
}

const fn hyde_tracks(n: usize) -> HydeTracks {
    let squares = 4 * n;
    let mut t = HydeTracks {
        cells: cells(n),
        track: [[NONE; MAX_SQUARES]; 2],
        index: [[NONE; MAX_SQUARES]; 2],
    };
    // Track1: "0,E,N1,W,N1,E,N1,W".
    let rows = [(0, true), (1, false), (2, true), (3, false)];
    let mut k = 0;
    while k < squares {
        let s = serpentine(n, &rows, k);
        t.track[0][k] = s;
        t.track[1][k] = (squares - 1) as u8 - s;
        t.index[0][s as usize] = k as u8;
        t.index[1][squares - 1 - s as usize] = k as u8;
        k += 1;
    }
    t
}

static TAB: [TabTracks; 5] = [
    tab_tracks(7),
    tab_tracks(9),
    tab_tracks(11),
    tab_tracks(13),
    tab_tracks(15),
];

static HYDE: [HydeTracks; 4] = [
    hyde_tracks(13),
    hyde_tracks(19),
    hyde_tracks(21),
    hyde_tracks(29),
];

/// Tab's tracks on `columns` columns (one of 7, 9, 11, 13, 15).
#[inline]
pub(crate) fn tab(columns: u8) -> &'static TabTracks {
    &TAB[usize::from((columns - 7) / 2)]
}

/// At-Tab's tracks on `columns` columns (one of 13, 19, 21, 29).
#[inline]
pub(crate) fn hyde(columns: u8) -> &'static HydeTracks {
    let i = match columns {
        13 => 0,
        19 => 1,
        21 => 2,
        _ => 3,
    };
    &HYDE[i]
}

/// The squares of `row` as a bit mask.
#[inline]
pub(crate) const fn row_mask(columns: u8, row: u8) -> u128 {
    let n = columns as u32;
    ((1u128 << n) - 1) << (row as u32 * n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ludii's expanded tracks for 7 columns, as its trace headers list them.
    #[test]
    fn tab_tracks_match_ludii_on_seven_columns() {
        let t = tab(7);
        assert_eq!(t.n, 7);
        assert_eq!(
            t.home[0][..14],
            [0, 1, 2, 3, 4, 5, 6, 13, 12, 11, 10, 9, 8, 7]
        );
        assert_eq!(
            t.home[1][..14],
            [27, 26, 25, 24, 23, 22, 21, 14, 15, 16, 17, 18, 19, 20]
        );
        assert_eq!(
            t.middle[..14],
            [13, 12, 11, 10, 9, 8, 7, 14, 15, 16, 17, 18, 19, 20]
        );
        assert_eq!(
            t.enemy[0][..21],
            [
                14, 15, 16, 17, 18, 19, 20, 27, 26, 25, 24, 23, 22, 21, 14, 15, 16, 17, 18, 19, 20
            ]
        );
        assert_eq!(
            t.enemy[1][..21],
            [
                13, 12, 11, 10, 9, 8, 7, 0, 1, 2, 3, 4, 5, 6, 13, 12, 11, 10, 9, 8, 7
            ]
        );
        assert_eq!(t.enemy_index[0][14], [0, 14]);
        assert_eq!(t.enemy_index[0][21], [13, NONE]);
        assert_eq!(t.home_index[1][14], 7);
        assert_eq!(t.middle_index[7], 6);
        assert_eq!(t.middle_index[0], NONE);
    }

    #[test]
    fn black_tracks_are_the_reflection_on_every_board() {
        for n in [7u8, 9, 11, 13, 15] {
            let t = tab(n);
            let last = 4 * n - 1;
            for k in 0..2 * usize::from(n) {
                assert_eq!(t.home[1][k], last - t.home[0][k]);
            }
            // Black's home track starts at the top-right corner and ends at the right end of
            // row 2 (Ludii's 15-column file starts it one square early).
            assert_eq!(t.home[1][0], last);
            assert_eq!(t.home[1][2 * usize::from(n) - 1], 3 * n - 1);
        }
        for n in [13u8, 19, 21, 29] {
            let t = hyde(n);
            let len = 4 * usize::from(n);
            assert_eq!(t.track[1][0], 4 * n - 1);
            assert_eq!(t.track[1][len - 1], n - 1);
            for k in 0..len {
                assert_eq!(t.index[0][t.track[0][k] as usize], k as u8);
                assert_eq!(t.index[1][t.track[1][k] as usize], k as u8);
            }
        }
    }

    #[test]
    fn hyde_track_matches_ludii_on_thirteen_columns() {
        let t = hyde(13);
        let ludii_start = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 25, 24];
        assert_eq!(t.track[0][..15], ludii_start);
        assert_eq!(t.track[0][51], 39);
        assert_eq!(t.track[1][..3], [51, 50, 49]);
        assert_eq!(t.track[1][13..16], [26, 27, 28]);
        assert_eq!(row_mask(13, 3), ((1u128 << 13) - 1) << 39);
    }
}
