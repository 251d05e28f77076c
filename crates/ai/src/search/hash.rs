//! Fast hashing of game states for the searches: a hasher for hash maps keyed by whole states,
//! and 128-bit fingerprints for the transposition table.
//!
//! States are hashed through their derived [`Hash`], which feeds every field that equality
//! compares. The standard SipHash is built to resist crafted inputs, which a search does not
//! face, and is several times slower on a 2.4 KB Tâb state; [`StateHasher`] mixes each 64-bit
//! word into two independent lanes with a folded 64×64→128-bit multiply (the mixing step of
//! wyhash and foldhash). One lane serves hash maps; both lanes, finished with SplitMix64, make
//! a 128-bit [`fingerprint`].

use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::rng::splitmix64;

const K1: u64 = 0xA076_1D64_78BD_642F;
const K2: u64 = 0xE703_7ED1_A0B4_28DB;
const K3: u64 = 0x8EBC_6AF0_9C88_C6E3;
const K4: u64 = 0x5899_65CC_7537_4CC3;

/// The folded multiply: the two halves of the 128-bit product, xored.
#[inline(always)]
fn fold(x: u64, k: u64) -> u64 {
    let p = u128::from(x) * u128::from(k);
    (p as u64) ^ ((p >> 64) as u64)
}

/// A fast two-lane hasher for game states (see the module docs). Not for untrusted input.
#[derive(Clone, Copy, Debug)]
pub struct StateHasher {
    a: u64,
    b: u64,
}

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher { a: K3, b: K4 }
    }
}

impl StateHasher {
    #[inline(always)]
    fn word(&mut self, w: u64) {
        self.a = fold(self.a ^ w, K1);
        self.b = fold(self.b ^ w.rotate_left(29) ^ K3, K2);
    }

    /// Both lanes, finished: a 128-bit digest of everything written.
    pub fn finish128(&self) -> u128 {
        (u128::from(splitmix64(self.a)) << 64) | u128::from(splitmix64(self.b ^ K4))
    }
}

impl Hasher for StateHasher {
    #[inline(always)]
    fn finish(&self) -> u64 {
        splitmix64(self.a)
    }

    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            // The length keeps short tails of different lengths apart.
            self.word(u64::from_le_bytes(buf) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline(always)]
    fn write_u8(&mut self, i: u8) {
        self.word(u64::from(i));
    }

    #[inline(always)]
    fn write_u16(&mut self, i: u16) {
        self.word(u64::from(i));
    }

    #[inline(always)]
    fn write_u32(&mut self, i: u32) {
        self.word(u64::from(i));
    }

    #[inline(always)]
    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }

    #[inline(always)]
    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }
}

/// Builds [`StateHasher`]s, for `HashMap<S, V, BuildStateHasher>`.
pub type BuildStateHasher = BuildHasherDefault<StateHasher>;

/// A hasher for keys that are already hashes or fingerprints: it keeps the last `u64` written
/// (the low half of a `u128`), so a map keyed by them does not hash them again.
#[derive(Default, Clone, Copy, Debug)]
pub struct PassHasher(u64);

impl Hasher for PassHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = i;
    }
    fn write_u128(&mut self, i: u128) {
        self.0 = i as u64;
    }
}

/// Builds [`PassHasher`]s.
pub type BuildPassHasher = BuildHasherDefault<PassHasher>;

/// A 128-bit fingerprint of `x`: both lanes of [`StateHasher`] over its [`Hash`]. Two
/// different values share a fingerprint with probability about 2⁻¹²⁸ each, so a table of a
/// few million entries has odds of a false match around 10⁻²⁵.
pub fn fingerprint<T: Hash + ?Sized>(x: &T) -> u128 {
    let mut h = StateHasher::default();
    x.hash(&mut h);
    h.finish128()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_separate_nearby_values() {
        let mut seen = std::collections::HashSet::new();
        for a in 0u32..200 {
            for b in 0u8..50 {
                assert!(seen.insert(fingerprint(&(a, b))));
            }
        }
        assert_ne!(fingerprint(&[0u8; 3][..]), fingerprint(&[0u8; 4][..]));
        assert_eq!(fingerprint(&(1u64, "x")), fingerprint(&(1u64, "x")));
    }
}
