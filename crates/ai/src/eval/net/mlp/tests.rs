//! Tests of the forward passes: every one gives the first pass's values bit for bit.

use super::*;

/// A small network with fixed weights (shared with the training tests).
pub(crate) fn tiny() -> Mlp {
    let mut x = 0.37f32;
    Mlp::new(6, 8, 4, || {
        x = (x * 9301.0 + 0.49297).fract();
        x
    })
}

/// Inputs of [`tiny`] with the given non-zero values.
pub(crate) fn features(items: &[(u32, f32)]) -> Features {
    let mut f = Features::new(6);
    for &(i, v) in items {
        f.push(i, v);
    }
    f
}

/// A source of numbers in `[0, 1)` for the tests.
fn numbers(seed: u64) -> impl FnMut() -> f32 {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Runs of inputs that often begin alike (as the ends of one turn do), with some values
/// other than 1, in no particular order of inputs.
fn alike_inputs(size: usize, count: usize, seed: u64) -> Vec<Features> {
    let mut r = numbers(seed);
    let mut pick = |n: usize| ((r() * n as f32) as usize).min(n - 1);
    let base: Vec<u32> = (0..size.min(40)).map(|_| pick(size) as u32).collect();
    (0..count)
        .map(|_| {
            let mut f = Features::new(size);
            let mut seen = std::collections::HashSet::new();
            let keep = pick(base.len() + 1);
            let extra = pick(12);
            let mut chosen = base[..keep].to_vec();
            for _ in 0..extra {
                chosen.push(pick(size) as u32);
            }
            for i in chosen {
                if seen.insert(i) {
                    let v = if pick(6) == 0 {
                        0.1 + pick(9) as f32 * 0.1
                    } else {
                        1.0
                    };
                    f.push(i, v);
                }
            }
            f
        })
        .collect()
}

#[test]
fn every_pass_gives_the_first_passs_values_bit_for_bit() {
    for (k, &(n, h1, h2)) in [
        (6, 8, 4),
        (300, 128, 32),
        (50, 37, 13),
        (90, 64, 3),
        (70, 33, 9),
        (20, 200, 40),
        (60, 37, 32),
        (80, 100, 70),
        (40, 16, 8),
    ]
    .iter()
    .enumerate()
    {
        let mut r = numbers(k as u64 + 1);
        let mut net = Mlp::new(n, h1, h2, &mut r);
        // Non-zero biases, as a trained network has.
        for b in net.fc1.bias.iter_mut().chain(&mut net.fc2.bias) {
            *b = r() - 0.5;
        }
        net.out.bias[0] = 0.1;
        let xs = alike_inputs(n, 41, k as u64);
        let want: Vec<u32> = xs
            .iter()
            .map(|x| reference_value(&net, x).to_bits())
            .collect();
        let mut act = Activations::default();
        for (x, &w) in xs.iter().zip(&want) {
            assert_eq!(net.value(x).to_bits(), w, "value, {n}→{h1}→{h2}");
            net.forward(x, &mut act);
            assert_eq!(act.value.to_bits(), w, "forward, {n}→{h1}→{h2}");
        }
        for len in [0, 1, 3, 4, 5, 8, 41] {
            let mut out = vec![f32::NAN; len];
            net.values(&xs[..len], &mut out);
            let got: Vec<u32> = out.iter().map(|v| v.to_bits()).collect();
            assert_eq!(got, want[..len], "values of {len}, {n}→{h1}→{h2}");
        }
    }
}

#[test]
fn inputs_are_sorted_as_their_lists_of_non_zero_inputs() {
    let xs = alike_inputs(50, 200, 3);
    let mut order: Vec<usize> = (0..xs.len()).collect();
    sort_inputs(&xs, &mut order, 0);
    let key = |t: usize| -> Vec<(u32, u32)> {
        xs[t]
            .active()
            .iter()
            .map(|&(i, v)| (i, v.to_bits()))
            .collect()
    };
    assert!(order.windows(2).all(|w| key(w[0]) <= key(w[1])));
    order.sort_unstable();
    assert!(order.iter().copied().eq(0..xs.len()));
}

#[test]
fn the_transposed_first_layer_agrees_with_a_dense_product() {
    let net = tiny();
    let x = features(&[(1, 1.0), (4, 0.5)]);
    let mut act = Activations::default();
    net.forward(&x, &mut act);
    for (o, &a) in act.a1.iter().enumerate() {
        let z = net.fc1.bias[o] + net.fc1.weight[o * 6 + 1] + 0.5 * net.fc1.weight[o * 6 + 4];
        assert!((a - z.max(0.0)).abs() < 1e-6);
    }
}
