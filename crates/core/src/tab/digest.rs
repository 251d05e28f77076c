//! The position's digest: a Zobrist hash of its pieces and dissolved stacks (Zobrist, 1970),
//! kept up to date move by move, so that hashing a position reads two words where it read
//! every piece and square.
//!
//! Each piece that is on the board or has a history contributes a 128-bit key made from its
//! side, index, square, flags and history; each dissolved stack contributes a key made from
//! its square; the ruleset contributes a key of its own, so that the digest tells the same
//! pieces under two readings apart and the position's hash need not write the ruleset. The
//! keys are combined by xor, so a move updates the digest by removing a changed piece's old
//! key and adding its new one, and the digest of a position is the same however it was
//! reached. Keys are computed rather than read from a table (a table of every
//! piece, square and flag combination would not fit a cache): the packed fields go through a
//! folded 64×64→128-bit multiply (wyhash's mixing step) in two independent lanes, and a
//! history's two words are folded with that key.

use std::hash::{Hash, Hasher};

use super::board::{DISSOLVED, MAXP, OFF, Piece, Position};
use super::rules::Ruleset;

const LANE_A: u64 = 0x243F_6A88_85A3_08D3;
const LANE_B: u64 = 0x1319_8A2E_0370_7344;
const MUL_A: u64 = 0xA409_3822_299F_31D0;
const MUL_B: u64 = 0x082E_FA98_EC4E_6C89;
/// Sets the key of a dissolved stack apart from every piece's.
const STACK: u64 = 1 << 40;

/// The folded multiply: the two halves of the 128-bit product, xored.
#[inline(always)]
const fn fold(x: u64, k: u64) -> u64 {
    let p = (x as u128) * (k as u128);
    (p as u64) ^ ((p >> 64) as u64)
}

/// The key of packed fields `w`, in both lanes.
#[inline(always)]
const fn keys(w: u64) -> [u64; 2] {
    [fold(w ^ LANE_A, MUL_A), fold(w ^ LANE_B, MUL_B)]
}

/// The key of piece `i` of side `side` as it stands; zero for a piece off the board (which
/// has no flags and no history: [`Piece::off`]), so that the digest reads only the pieces in
/// play.
#[inline(always)]
fn piece(side: usize, i: usize, pc: &Piece) -> [u64; 2] {
    if pc.sq == OFF {
        return [0, 0];
    }
    let w = (side as u64) << 24 | (i as u64) << 16 | u64::from(pc.sq) << 8 | u64::from(pc.flags);
    let [mut a, mut b] = keys(w);
    // A history is folded with the fields' key, a word at a time; the high word only where it
    // is used (boards of more than 64 squares), since a move changes a piece's history and
    // this is on the rules' hot path.
    if pc.lo != 0 {
        (a, b) = (fold(pc.lo ^ a, MUL_B), fold(pc.lo ^ b, MUL_A));
    }
    if pc.hi != 0 {
        (a, b) = (fold(pc.hi ^ a, MUL_A), fold(pc.hi ^ b, MUL_B));
    }
    [a, b]
}

/// The key of a dissolved stack on `sq`.
#[inline(always)]
fn stack(sq: usize) -> [u64; 2] {
    keys(STACK | sq as u64)
}

/// Folds the words written into two lanes, for the ruleset's key.
struct Lanes([u64; 2]);

impl Hasher for Lanes {
    fn finish(&self) -> u64 {
        self.0[0]
    }

    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..c.len()].copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(word) ^ (c.len() as u64) << 59);
        }
    }

    fn write_u64(&mut self, i: u64) {
        let [a, b] = keys(i);
        self.0 = [fold(self.0[0] ^ a, MUL_B), fold(self.0[1] ^ b, MUL_A)];
    }
}

/// The key of a ruleset.
fn rules_key(rules: &Ruleset) -> [u64; 2] {
    let mut h = Lanes([LANE_B, LANE_A]);
    rules.hash(&mut h);
    h.0
}

#[inline(always)]
fn xor(d: &mut [u64; 2], k: [u64; 2]) {
    d[0] ^= k[0];
    d[1] ^= k[1];
}

impl Position {
    /// The digest computed afresh from the pieces and the board.
    pub(super) fn full_digest(&self) -> [u64; 2] {
        let n = usize::from(self.rules.piece_count()).min(MAXP);
        let mut d = rules_key(&self.rules);
        for (side, pieces) in self.pieces.iter().enumerate() {
            for (i, pc) in pieces[..n].iter().enumerate() {
                xor(&mut d, piece(side, i, pc));
            }
        }
        for (sq, &cell) in self.board[..self.grid().len()].iter().enumerate() {
            if cell & DISSOLVED != 0 {
                xor(&mut d, stack(sq));
            }
        }
        d
    }

    /// Replaces piece `i` of side `side`, keeping the digest.
    #[inline(always)]
    pub(super) fn set_piece(&mut self, side: usize, i: usize, new: Piece) {
        let old = self.pieces[side][i];
        xor(&mut self.digest, piece(side, i, &old));
        xor(&mut self.digest, piece(side, i, &new));
        self.pieces[side][i] = new;
    }

    /// Writes the cell of square `sq`, keeping the digest.
    #[inline(always)]
    pub(super) fn set_cell(&mut self, sq: u8, cell: u32) {
        let old = self.board[usize::from(sq)];
        if (old ^ cell) & DISSOLVED != 0 {
            xor(&mut self.digest, stack(usize::from(sq)));
        }
        self.board[usize::from(sq)] = cell;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tab::rules::Ruleset;

    #[test]
    fn keys_tell_pieces_squares_flags_and_histories_apart() {
        let mut seen = std::collections::HashSet::new();
        for side in 0..2 {
            for i in 0..MAXP {
                for sq in 0..116u8 {
                    for flags in [0, 1, 3, 0x12] {
                        let mut pc = Piece::off();
                        pc.sq = sq;
                        pc.flags = flags;
                        assert!(seen.insert(piece(side, i, &pc)));
                        pc.lo = 1 << (sq % 64);
                        assert!(seen.insert(piece(side, i, &pc)));
                        pc.hi = pc.lo;
                        pc.lo = 0;
                        assert!(seen.insert(piece(side, i, &pc)));
                    }
                }
            }
        }
        for sq in 0..116 {
            assert!(seen.insert(stack(sq)));
        }
        assert_eq!(piece(0, 0, &Piece::off()), [0, 0]);
    }

    #[test]
    fn the_start_digest_is_the_full_digest_and_not_zero() {
        for preset in ["tab", "tab-hyde", "tab-modern", "tab(columns=29)"] {
            let rules: Ruleset = preset.parse().expect("a ruleset");
            let s = Position::new(rules);
            assert_eq!(s.digest, s.full_digest(), "{preset}");
            assert_ne!(s.digest, [0, 0], "{preset}");
        }
    }

    #[test]
    fn the_same_pieces_under_two_readings_have_different_digests() {
        let keys: std::collections::HashSet<[u64; 2]> = [
            "tab",
            "tab(reduction=row-entered)",
            "tab(tab_bank=none)",
            "tab(p_white=0.4)",
        ]
        .into_iter()
        .map(|t| Position::new(t.parse().expect("a ruleset")).digest)
        .collect();
        assert_eq!(keys.len(), 4);
    }
}

#[cfg(test)]
mod games {
    use rand_core::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use crate::game::{GameState, Turn};
    use crate::tab::{Ruleset, State};

    /// The digest the moves keep equals the digest computed afresh at every state of seeded
    /// random games: every preset, and the options that keep histories or dissolve stacks.
    #[test]
    fn kept_digests_equal_full_digests_along_seeded_games() {
        let rulesets = [
            "tab",
            "tab-hyde",
            "tab-modern",
            "tab(reduction=square-visited)",
            "tab(reduction=square-landed)",
            "tab(split=dissolve)",
            "tab(split=dissolve-move-one,columns=7)",
            "tab-hyde(columns=29)",
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(50);
        let (mut moves, mut outs) = (Vec::new(), Vec::new());
        for text in rulesets {
            let rules: Ruleset = text.parse().expect("a ruleset");
            let mut states = 0;
            for game in 0..12 {
                let mut s = State::new(rules);
                let mut n = 0;
                while n < 3000 {
                    assert_eq!(s.digest, s.full_digest(), "{text}, game {game}, action {n}");
                    match s.turn() {
                        Turn::Over(_) => break,
                        Turn::Chance => {
                            let total = s.chance_outcomes(&mut outs);
                            let mut r = (rng.next_u64() % u64::from(total)) as u32;
                            let pick = outs
                                .iter()
                                .find(|o| {
                                    let hit = r < o.weight;
                                    r = r.saturating_sub(o.weight);
                                    hit
                                })
                                .expect("the weights add up to the total");
                            s.apply_chance_unchecked(pick.outcome);
                        }
                        Turn::Player(_) => {
                            s.legal_moves(&mut moves);
                            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                            s.play_unchecked(m);
                        }
                    }
                    n += 1;
                }
                states += n;
            }
            assert!(states > 1000, "{text}: only {states} states");
        }
    }
}
