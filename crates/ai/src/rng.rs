//! The pinned random generator and how seeds are derived.
//!
//! Every random component takes an explicit `u64` seed and draws from
//! [`Xoshiro256PlusPlus`](rand_xoshiro::Xoshiro256PlusPlus) seeded with `seed_from_u64` (which
//! expands the seed with SplitMix64). The generator is named, not `StdRng`, so that a seed means
//! the same game on every build.
//!
//! A game played with `--seed S` draws its chance outcomes from stream 0 of `S` and gives the
//! agent in seat `i` (0-based) the seed of stream `i + 1`, unless the agent's spec sets its own
//! `seed=`. Game `g` of a simulation with seed `S` uses the game seed `derive_seed(S, g)`. A
//! stream seed is `splitmix64(S ^ splitmix64(stream))`, so nearby seeds and streams give
//! unrelated sequences.

use rand_core::{Rng, SeedableRng};

/// The generator used everywhere in Qasab.
pub type GameRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A generator seeded with `seed`.
pub fn rng_from_seed(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// The SplitMix64 output function: a bijective mix of 64 bits.
pub const fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of stream `stream` of `seed` (see the module docs).
pub const fn derive_seed(seed: u64, stream: u64) -> u64 {
    splitmix64(seed ^ splitmix64(stream))
}

/// A uniform integer in `0..n`, by Lemire's multiply-and-reject method.
///
/// Written here rather than taken from a distribution crate so that the mapping from the
/// generator's output to choices is fixed.
///
/// # Panics
/// If `n` is 0.
#[inline]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    assert!(n > 0, "below(0)");
    let n = n as u64;
    let mut m = u128::from(rng.next_u64()) * u128::from(n);
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (m >> 64) as usize
}

/// An index drawn with probability `weights[i] / sum(weights)`.
///
/// # Panics
/// If the weights are empty or sum to 0.
#[inline]
pub fn pick_weighted<R: Rng + ?Sized>(
    rng: &mut R,
    weights: impl Iterator<Item = u32> + Clone,
) -> usize {
    let total: u64 = weights.clone().map(u64::from).sum();
    assert!(total > 0, "no weight to draw from");
    let x = below(rng, total as usize) as u64;
    // The first index whose running total exceeds `x`: the number of running totals at most
    // `x`, counted without branches (the draw is random, so a branch would be mispredicted).
    let (mut index, mut sum) = (0, 0u64);
    for w in weights {
        sum += u64::from(w);
        index += usize::from(sum <= x);
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generator_output_is_pinned() {
        // If this fails, the generator or its seeding changed and every seeded result with it.
        let mut r = rng_from_seed(7);
        let v: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(v, vec![PINNED[0], PINNED[1], PINNED[2]]);
        assert_eq!(derive_seed(7, 1), DERIVED);
    }

    // The reference xoshiro256++ (Blackman and Vigna) seeded by four SplitMix64 outputs of 7,
    // computed by a separate implementation of both algorithms.
    const PINNED: [u64; 3] = [
        1021219803524665661,
        3174977118032272916,
        13236943193235544178,
    ];
    const DERIVED: u64 = 8581286081765471666;

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = rng_from_seed(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[below(&mut r, 7)] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }

    #[test]
    fn weighted_draw_follows_weights() {
        let mut r = rng_from_seed(2);
        let w = [1u32, 4, 6, 4, 1];
        let mut seen = [0u32; 5];
        for _ in 0..16000 {
            seen[pick_weighted(&mut r, w.iter().copied())] += 1;
        }
        for (s, w) in seen.iter().zip(w) {
            let expect = f64::from(w) * 1000.0;
            assert!(
                (f64::from(*s) - expect).abs() < 4.0 * expect.sqrt() + 20.0,
                "{seen:?}"
            );
        }
    }
}
