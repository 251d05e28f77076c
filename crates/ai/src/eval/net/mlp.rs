//! The network: a small multilayer perceptron with sparse inputs, run on the CPU one state at
//! a time or in batches.
//!
//! `inputs → h1 (ReLU) → h2 (ReLU) → 1 (tanh)`. The inputs are sparse (a few dozen of about a
//! thousand are non-zero, see [`super::encode`]), so the first layer adds one row of weights
//! per non-zero input instead of multiplying a dense vector: about 34 rows of 128 floats on
//! `tab`. About half the first layer's units are silent after ReLU, and the second layer adds
//! the weights out of the live ones only. [`Mlp::values`] runs a batch, sharing the first
//! layer's sums over the non-zero inputs its inputs begin with alike (the ends of one turn
//! share most of them). Training (the gradient and the optimiser, in the crate's `train`
//! layer) follows the same sparse path.
//!
//! **The values never change.** Every path adds the same numbers in the same order as the
//! first one written (one input's row added to the whole layer at a time, one dot product of
//! eight lanes at a time): the order decides the bits of a sum of floats, so the faster paths
//! give the same values bit for bit, and the seeded games and trainings stay as they were.
//! The tests compare every path with that first one.
//!
//! Written by hand rather than with a tensor library because a search calls it on one state
//! or a few hundred at a time, where a library's dispatch per operation would outweigh a
//! network this small; `docs/PERFORMANCE.md` ("Learned evaluation") has its timings.

use super::encode::Features;

/// A layer's weights, stored as PyTorch's `nn.Linear` stores them: `out × in`, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Linear {
    /// Inputs.
    pub inputs: usize,
    /// Outputs.
    pub outputs: usize,
    /// `outputs × inputs`, row-major (row `o` holds the weights into output `o`).
    pub weight: Vec<f32>,
    /// One bias per output.
    pub bias: Vec<f32>,
}

impl Linear {
    pub(crate) fn zeros(inputs: usize, outputs: usize) -> Linear {
        Linear {
            inputs,
            outputs,
            weight: vec![0.0; inputs * outputs],
            bias: vec![0.0; outputs],
        }
    }
}

/// The network's parameters ([module docs](self)).
///
/// The first two layers are also kept transposed (`in × out`) so that the weights out of one
/// input or unit are contiguous; [`Mlp::sync`] rebuilds them after the weights change.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    /// Inputs → first hidden layer.
    pub fc1: Linear,
    /// First → second hidden layer.
    pub fc2: Linear,
    /// Second hidden layer → the value.
    pub out: Linear,
    /// `fc1.weight` transposed: row `i` holds input `i`'s weights into every hidden unit.
    pub(crate) first_by_input: Vec<f32>,
    /// `fc2.weight` transposed: row `j` holds first-layer unit `j`'s weights into every unit
    /// of the second layer.
    second_by_input: Vec<f32>,
    /// Whether every weight of `fc2` is finite: then a silent unit of the first layer (0 after
    /// ReLU) adds exactly nothing to the second layer's sums, and is skipped.
    second_finite: bool,
}

/// What a forward pass leaves for the backward pass.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    /// First hidden layer, after ReLU.
    pub a1: Vec<f32>,
    /// Second hidden layer, after ReLU.
    pub a2: Vec<f32>,
    /// The output, after tanh.
    pub value: f32,
}

impl Mlp {
    /// A network of the given sizes with weights drawn by `uniform` (a source of numbers in
    /// `[0, 1)`), scaled as He's initialisation for ReLU layers; biases 0.
    pub fn new(inputs: usize, h1: usize, h2: usize, mut uniform: impl FnMut() -> f32) -> Mlp {
        let mut init = |l: &mut Linear, fan_in: usize| {
            let bound = (6.0 / fan_in as f32).sqrt();
            for w in &mut l.weight {
                *w = (uniform() * 2.0 - 1.0) * bound;
            }
        };
        let mut fc1 = Linear::zeros(inputs, h1);
        let mut fc2 = Linear::zeros(h1, h2);
        let mut out = Linear::zeros(h2, 1);
        // The inputs are sparse: scale the first layer by the active inputs (about 64), not by
        // every input, or its units start almost silent.
        init(&mut fc1, 64);
        init(&mut fc2, h1);
        init(&mut out, h2);
        for w in &mut out.weight {
            *w *= 0.1;
        }
        Mlp::from_layers(fc1, fc2, out).expect("the sizes agree")
    }

    /// A network from its three layers.
    ///
    /// # Errors
    /// A message if the layers' sizes do not chain or the output is not one value.
    pub fn from_layers(fc1: Linear, fc2: Linear, out: Linear) -> Result<Mlp, String> {
        if fc2.inputs != fc1.outputs || out.inputs != fc2.outputs || out.outputs != 1 {
            return Err(format!(
                "layer sizes do not chain: {}→{}, {}→{}, {}→{} (the last must give 1 value)",
                fc1.inputs, fc1.outputs, fc2.inputs, fc2.outputs, out.inputs, out.outputs
            ));
        }
        for l in [&fc1, &fc2, &out] {
            if l.weight.len() != l.inputs * l.outputs || l.bias.len() != l.outputs {
                return Err(format!(
                    "a {}→{} layer has {} weights and {} biases",
                    l.inputs,
                    l.outputs,
                    l.weight.len(),
                    l.bias.len()
                ));
            }
            if l.weight.iter().chain(&l.bias).any(|w| !w.is_finite()) {
                return Err("a weight is not a finite number".into());
            }
        }
        let mut mlp = Mlp {
            fc1,
            fc2,
            out,
            first_by_input: Vec::new(),
            second_by_input: Vec::new(),
            second_finite: false,
        };
        mlp.sync();
        Ok(mlp)
    }

    /// Rebuilds the transposed layers from `fc1` and `fc2` (after an update).
    pub fn sync(&mut self) {
        let (n, h) = (self.fc1.inputs, self.fc1.outputs);
        self.first_by_input.resize(n * h, 0.0);
        for o in 0..h {
            for i in 0..n {
                self.first_by_input[i * h + o] = self.fc1.weight[o * n + i];
            }
        }
        self.sync_second();
    }

    /// Rebuilds the transposed second layer from `fc2`.
    pub(crate) fn sync_second(&mut self) {
        let (n, h) = (self.fc2.inputs, self.fc2.outputs);
        self.second_by_input.resize(n * h, 0.0);
        for o in 0..h {
            for j in 0..n {
                self.second_by_input[j * h + o] = self.fc2.weight[o * n + j];
            }
        }
        self.second_finite = self.fc2.weight.iter().all(|w| w.is_finite());
    }

    /// The number of inputs.
    pub fn inputs(&self) -> usize {
        self.fc1.inputs
    }

    /// The number of parameters.
    pub fn parameters(&self) -> usize {
        [&self.fc1, &self.fc2, &self.out]
            .iter()
            .map(|l| l.weight.len() + l.bias.len())
            .sum()
    }

    /// The value of `x`, in `(-1, 1)`, with the activations for the backward pass
    /// (`Mlp::backward`, in training).
    pub fn forward(&self, x: &Features, act: &mut Activations) {
        act.a1.resize(self.fc1.outputs, 0.0);
        act.a2.resize(self.fc2.outputs, 0.0);
        self.first_layer(x.active(), &mut act.a1);
        self.second_layer(&act.a1, &mut act.a2);
        act.value = self.output(&act.a2);
    }

    /// The value of `x`, in `(-1, 1)`.
    pub fn value(&self, x: &Features) -> f32 {
        let (h1, h2) = (self.fc1.outputs, self.fc2.outputs);
        if h1 > SMALL || h2 > SMALL {
            return ACTIVATIONS.with(|act| {
                let mut act = act.borrow_mut();
                self.forward(x, &mut act);
                act.value
            });
        }
        let (mut a1, mut a2) = ([0.0f32; SMALL], [0.0f32; SMALL]);
        self.first_layer(x.active(), &mut a1[..h1]);
        self.second_layer(&a1[..h1], &mut a2[..h2]);
        self.output(&a2[..h2])
    }

    /// The values of several inputs, into `out` (one per input): each exactly as
    /// [`Mlp::value`] gives it, bit for bit, in less time per input when inputs begin alike,
    /// as the ends of one turn do.
    ///
    /// A unit's first-layer sum adds the rows of the non-zero inputs in order, so two inputs
    /// that begin with the same non-zero inputs have the same partial sums over them. The
    /// inputs are taken in sorted order, where each shares the longest beginning with the one
    /// before (about 22 of 28 non-zero inputs for the ends of a `tab` turn), and each starts
    /// from the sums saved at that point instead of from the bias. Equal inputs are computed
    /// once.
    ///
    /// # Panics
    /// If `out` is not as long as `xs`.
    pub fn values(&self, xs: &[Features], out: &mut [f32]) {
        assert_eq!(xs.len(), out.len(), "one value per input");
        let (h1, h2) = (self.fc1.outputs, self.fc2.outputs);
        if h1 > SMALL || h2 > SMALL {
            for (x, v) in xs.iter().zip(out) {
                *v = self.value(x);
            }
            return;
        }
        let mut order: Vec<usize> = (0..xs.len()).collect();
        sort_inputs(xs, &mut order, 0);
        let input = |t: usize| xs[order[t]].active();
        // The non-zero inputs each shares with the one before it.
        let shared: Vec<usize> = (0..order.len())
            .map(|t| {
                if t == 0 {
                    0
                } else {
                    common(input(t - 1), input(t))
                }
            })
            .collect();
        // Where each input saves its sums for later ones (in increasing depth): an input
        // needs the sums at the depth it shares with the one before, which the first input
        // of the run that went past that depth saves.
        let mut save_at: Vec<usize> = Vec::new();
        let mut saves_of = vec![(0, 0); order.len()];
        let mut wanted: Vec<usize> = Vec::new();
        for t in (0..order.len()).rev() {
            let first = save_at.len();
            while let Some(&d) = wanted.last()
                && d > shared[t]
            {
                save_at.push(d);
                wanted.pop();
            }
            save_at[first..].reverse();
            saves_of[t] = (first, save_at.len());
            if shared[t] > 0 && wanted.last() != Some(&shared[t]) {
                wanted.push(shared[t]);
            }
        }
        // The sums saved along the current input's beginning: their depths, and `h1` sums each.
        let mut depths: Vec<usize> = Vec::new();
        let mut sums: Vec<f32> = Vec::new();
        let (mut a1, mut a2) = ([0.0f32; SMALL], [0.0f32; SMALL]);
        for t in 0..order.len() {
            let (x, start) = (input(t), shared[t]);
            if t > 0 && start == x.len() && start == input(t - 1).len() {
                out[order[t]] = out[order[t - 1]];
                continue;
            }
            while depths.last().is_some_and(|&d| d > start) {
                depths.pop();
            }
            let base = depths.len();
            debug_assert!(start == 0 || depths.last() == Some(&start));
            let (first, last) = saves_of[t];
            depths.extend_from_slice(&save_at[first..last]);
            sums.resize(depths.len() * h1, 0.0);
            let (before, new) = sums.split_at_mut(base * h1);
            let from = if start == 0 {
                &self.fc1.bias[..]
            } else {
                &before[(base - 1) * h1..]
            };
            let saves = Saves {
                at: &save_at[first..last],
                sums: new,
            };
            self.first_layer_from(from, x, start, saves, &mut a1[..h1]);
            self.second_layer(&a1[..h1], &mut a2[..h2]);
            out[order[t]] = self.output(&a2[..h2]);
        }
    }

    /// The first hidden layer after ReLU, into `a1`: each unit's bias plus, in the order of
    /// `x`, the weight of each non-zero input times its value.
    fn first_layer(&self, x: &[(u32, f32)], a1: &mut [f32]) {
        let none = Saves {
            at: &[],
            sums: &mut [],
        };
        self.first_layer_from(&self.fc1.bias, x, 0, none, a1);
    }

    /// [`Mlp::first_layer`] from the sums `from` over the first `start` inputs of `x`, saving
    /// the sums at the depths `saves` asks for. The units are summed [`BLOCK`] at a time (then
    /// fewer), so that their sums stay in registers across the inputs.
    fn first_layer_from(
        &self,
        from: &[f32],
        x: &[(u32, f32)],
        start: usize,
        mut saves: Saves,
        a1: &mut [f32],
    ) {
        let h1 = self.fc1.outputs;
        let mut k0 = 0;
        while k0 + BLOCK <= h1 {
            self.first_block::<BLOCK>(k0, from, x, start, &mut saves, a1);
            k0 += BLOCK;
        }
        while k0 + NARROW <= h1 {
            self.first_block::<NARROW>(k0, from, x, start, &mut saves, a1);
            k0 += NARROW;
        }
        for k in k0..h1 {
            self.first_block::<1>(k, from, x, start, &mut saves, a1);
        }
    }

    /// Units `k0..k0 + B` of [`Mlp::first_layer_from`].
    #[inline(always)]
    fn first_block<const B: usize>(
        &self,
        k0: usize,
        from: &[f32],
        x: &[(u32, f32)],
        start: usize,
        saves: &mut Saves,
        a1: &mut [f32],
    ) {
        let h1 = self.fc1.outputs;
        let rows = &self.first_by_input;
        let mut acc: [f32; B] = from[k0..k0 + B].try_into().expect("a block");
        let mut done = start;
        for (n, &d) in saves.at.iter().enumerate() {
            add_rows(&mut acc, rows, h1, k0, &x[done..d]);
            saves.sums[n * h1 + k0..n * h1 + k0 + B].copy_from_slice(&acc);
            done = d;
        }
        add_rows(&mut acc, rows, h1, k0, &x[done..]);
        for (a, s) in a1[k0..k0 + B].iter_mut().zip(acc) {
            *a = s.max(0.0);
        }
    }

    /// The second hidden layer after ReLU, into `a2`: each unit's bias plus its [`dot`] with
    /// `a1`. With finite weights, [`BLOCK2`] units at a time add up the weights out of the
    /// live units of `a1` only, lane by lane in [`dot`]'s order: a silent unit's products are
    /// zeros, which change no sum (the lanes start at +0 and so are never −0), so the sums
    /// are [`dot`]'s exactly, for about half the arithmetic.
    fn second_layer(&self, a1: &[f32], a2: &mut [f32]) {
        let (h1, h2) = (self.fc1.outputs, self.fc2.outputs);
        let bias = &self.fc2.bias;
        let mut o0 = 0;
        if self.second_finite && h1 <= SMALL && h2 >= BLOCK2 {
            // Bit `j`: unit `j` of a full chunk of eight is live.
            let mut bytes = [0u8; SMALL / 8];
            for (b, chunk) in bytes.iter_mut().zip(a1.chunks_exact(8)) {
                for (k, &a) in chunk.iter().enumerate() {
                    *b |= u8::from(a != 0.0) << k;
                }
            }
            let live = u128::from_le_bytes(bytes);
            while o0 + BLOCK2 <= h2 {
                let s = self.second_block(o0, a1, live);
                for ((a2, &b), s) in a2[o0..o0 + BLOCK2].iter_mut().zip(&bias[o0..]).zip(s) {
                    *a2 = (b + s).max(0.0);
                }
                o0 += BLOCK2;
            }
        }
        let row = |o: usize| &self.fc2.weight[o * h1..(o + 1) * h1];
        while o0 + 4 <= h2 {
            let d = dots([row(o0), row(o0 + 1), row(o0 + 2), row(o0 + 3)], a1);
            for (r, d) in d.into_iter().enumerate() {
                a2[o0 + r] = (bias[o0 + r] + d).max(0.0);
            }
            o0 += 4;
        }
        for o in o0..h2 {
            a2[o] = (bias[o] + dot(row(o), a1)).max(0.0);
        }
    }

    /// The [`dot`] of units `o0..o0 + BLOCK2`'s rows of weights with `a1`, adding only the
    /// `live` units (bit `j` for unit `j`).
    #[inline(always)]
    fn second_block(&self, o0: usize, a1: &[f32], live: u128) -> [f32; BLOCK2] {
        /// The units of lane 0 of [`dot`]: 0, 8, 16, …
        const LANE: u128 = u128::MAX / 0xff;
        let (h1, h2) = (self.fc1.outputs, self.fc2.outputs);
        let cols = &self.second_by_input;
        // As `dot` adds its lanes (`Sum` of `f32`: from −0, in order).
        let mut s = [-0.0f32; BLOCK2];
        for k in 0..8 {
            let mut lane = [0.0f32; BLOCK2];
            let mut units = live & (LANE << k);
            while units != 0 {
                let j = units.trailing_zeros() as usize;
                units &= units - 1;
                let a = a1[j];
                let col: &[f32; BLOCK2] = cols[j * h2 + o0..j * h2 + o0 + BLOCK2]
                    .try_into()
                    .expect("a block");
                for (l, w) in lane.iter_mut().zip(col) {
                    *l += w * a;
                }
            }
            for (s, l) in s.iter_mut().zip(lane) {
                *s += l;
            }
        }
        // The units after the last full chunk, as `dot` adds them.
        let tail = h1 / 8 * 8;
        for (j, &a) in a1.iter().enumerate().skip(tail) {
            for (o, s) in s.iter_mut().enumerate() {
                *s += self.fc2.weight[(o0 + o) * h1 + j] * a;
            }
        }
        s
    }

    /// The output from the second hidden layer.
    fn output(&self, a2: &[f32]) -> f32 {
        (self.out.bias[0] + dot(&self.out.weight, a2)).tanh()
    }
}

thread_local! {
    /// Scratch activations for [`Mlp::value`] on networks wider than [`SMALL`].
    static ACTIVATIONS: std::cell::RefCell<Activations> = Default::default();
}

/// The widest hidden layer the backward pass (`Mlp::backward`, in training) takes.
pub const MAX_HIDDEN: usize = 512;

/// The widest hidden layers [`Mlp::value`] keeps on the stack (wider ones use the heap).
const SMALL: usize = 128;

/// Units of the first layer summed together (sixteen SSE registers).
const BLOCK: usize = 64;

/// Units of the first layer summed together once fewer than [`BLOCK`] are left.
const NARROW: usize = 16;

/// Units of the second layer summed together from the live units of the first.
const BLOCK2: usize = 32;

/// Where [`Mlp::first_layer_from`] saves its sums: after `at[n]` inputs into
/// `sums[n * h1..(n + 1) * h1]`.
struct Saves<'a> {
    at: &'a [usize],
    sums: &'a mut [f32],
}

/// Adds to `acc` the weights from each input of `x` into units `k0..k0 + B`, times the input's
/// value (the weights themselves when it is 1, the common case), in the order of `x`.
#[inline(always)]
fn add_rows<const B: usize>(
    acc: &mut [f32; B],
    rows: &[f32],
    h1: usize,
    k0: usize,
    x: &[(u32, f32)],
) {
    for &(i, v) in x {
        let at = i as usize * h1 + k0;
        let row: &[f32; B] = rows[at..at + B].try_into().expect("a block");
        if v == 1.0 {
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        } else {
            for (a, w) in acc.iter_mut().zip(row) {
                *a += v * w;
            }
        }
    }
}

/// Sorts `order` (indices into `xs`) by the inputs' non-zero inputs from the `depth`-th on,
/// compared as (index, value bits), an input that ends first before the others: a three-way
/// radix quicksort (Bentley and Sedgewick, 1997), which reads the beginning the inputs share
/// about once instead of at every comparison.
fn sort_inputs(xs: &[Features], order: &mut [usize], depth: usize) {
    if order.len() < 2 {
        return;
    }
    let key = |t: usize| xs[t].active().get(depth).map(|&(i, v)| (i, v.to_bits()));
    let pivot = key(order[order.len() / 2]);
    // [less | equal | greater] than the pivot at this depth.
    let (mut less, mut at, mut greater) = (0, 0, order.len());
    while at < greater {
        match key(order[at]).cmp(&pivot) {
            std::cmp::Ordering::Less => {
                order.swap(less, at);
                less += 1;
                at += 1;
            }
            std::cmp::Ordering::Greater => {
                greater -= 1;
                order.swap(at, greater);
            }
            std::cmp::Ordering::Equal => at += 1,
        }
    }
    let (before, rest) = order.split_at_mut(less);
    let (equal, after) = rest.split_at_mut(greater - less);
    sort_inputs(xs, before, depth);
    sort_inputs(xs, after, depth);
    if pivot.is_some() {
        sort_inputs(xs, equal, depth + 1);
    }
}

/// The number of non-zero inputs `a` and `b` begin with alike (index and value).
fn common(a: &[(u32, f32)], b: &[(u32, f32)]) -> usize {
    a.iter()
        .zip(b)
        .take_while(|(a, b)| a.0 == b.0 && a.1.to_bits() == b.1.to_bits())
        .count()
}

/// `a · b`, summed in eight lanes over chunks of eight, then the lanes in order, then the
/// rest: the order of every dense layer, which no faster pass may change.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    dots([a], b)[0]
}

/// The [`dot`] of each row `w[r]` with `x`, side by side, so that no sum waits for the
/// previous addition of another.
#[inline(always)]
fn dots<const R: usize>(w: [&[f32]; R], x: &[f32]) -> [f32; R] {
    let n = x.len();
    let w = w.map(|r| &r[..n]);
    let chunks = n / 8;
    let mut acc = [[0.0f32; 8]; R];
    for j in 0..chunks {
        let xc: &[f32; 8] = x[j * 8..j * 8 + 8].try_into().expect("a chunk");
        for (acc, w) in acc.iter_mut().zip(&w) {
            let wc: &[f32; 8] = w[j * 8..j * 8 + 8].try_into().expect("a chunk");
            for k in 0..8 {
                acc[k] += wc[k] * xc[k];
            }
        }
    }
    // Kept in memory as laid out: otherwise the compiler may vectorise across the rows (to
    // add the lanes of four rows at once) and gather every weight one by one.
    let acc = std::hint::black_box(acc);
    std::array::from_fn(|r| {
        let mut s: f32 = acc[r].iter().sum();
        for k in chunks * 8..n {
            s += w[r][k] * x[k];
        }
        s
    })
}

/// The network's value of `x` as it was first computed (one input's row of weights added to
/// the whole first layer at a time, one dot product at a time), for the tests: every
/// faster pass must give these values bit for bit, or the seeded games would change.
pub fn reference_value(net: &Mlp, x: &Features) -> f32 {
    fn dot(a: &[f32], b: &[f32]) -> f32 {
        let mut acc = [0.0f32; 8];
        let chunks = a.len() / 8 * 8;
        for (ca, cb) in a[..chunks].chunks_exact(8).zip(b[..chunks].chunks_exact(8)) {
            for k in 0..8 {
                acc[k] += ca[k] * cb[k];
            }
        }
        let mut s: f32 = acc.iter().sum();
        for k in chunks..a.len() {
            s += a[k] * b[k];
        }
        s
    }
    let (n, h1) = (net.fc1.inputs, net.fc1.outputs);
    let mut a1 = net.fc1.bias.clone();
    for &(i, v) in x.active() {
        for (o, a) in a1.iter_mut().enumerate() {
            let w = net.fc1.weight[o * n + i as usize];
            if v == 1.0 {
                *a += w;
            } else {
                *a += v * w;
            }
        }
    }
    for a in &mut a1 {
        *a = a.max(0.0);
    }
    let a2: Vec<f32> = (0..net.fc2.outputs)
        .map(|o| (net.fc2.bias[o] + dot(&net.fc2.weight[o * h1..(o + 1) * h1], &a1)).max(0.0))
        .collect();
    (net.out.bias[0] + dot(&net.out.weight, &a2)).tanh()
}

#[cfg(test)]
pub(crate) mod tests;
