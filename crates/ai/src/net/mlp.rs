//! The network: a small multilayer perceptron with sparse inputs, written for one evaluation
//! at a time on the CPU.
//!
//! `inputs → h1 (ReLU) → h2 (ReLU) → 1 (tanh)`. The inputs are sparse (a few dozen of about a
//! thousand are non-zero, see [`super::encode`]), so the first layer adds one row of weights
//! per non-zero input instead of multiplying a dense vector: about 60 rows of 128 floats on
//! `tab`. Training ([`Mlp::backward`], [`Adam`]) follows the same sparse path.
//!
//! Written by hand rather than with a tensor library because a search calls it one state at a
//! time, where a library's dispatch per operation would outweigh a network this small;
//! `docs/PERFORMANCE.md` ("Learned evaluation") has its timings.

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
    fn zeros(inputs: usize, outputs: usize) -> Linear {
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
/// The first layer is also kept transposed (`in × h1`) so that the
/// row of one input is contiguous; [`Mlp::sync`] rebuilds it after the weights change.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    /// Inputs → first hidden layer.
    pub fc1: Linear,
    /// First → second hidden layer.
    pub fc2: Linear,
    /// Second hidden layer → the value.
    pub out: Linear,
    /// `fc1.weight` transposed: row `i` holds input `i`'s weights into every hidden unit.
    first_by_input: Vec<f32>,
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
        };
        mlp.sync();
        Ok(mlp)
    }

    /// Rebuilds the transposed first layer from `fc1` (after an update).
    pub fn sync(&mut self) {
        let (n, h) = (self.fc1.inputs, self.fc1.outputs);
        self.first_by_input.resize(n * h, 0.0);
        for o in 0..h {
            for i in 0..n {
                self.first_by_input[i * h + o] = self.fc1.weight[o * n + i];
            }
        }
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

    /// The value of `x`, in `(-1, 1)`, with the activations for [`Mlp::backward`].
    pub fn forward(&self, x: &Features, act: &mut Activations) {
        let h1 = self.fc1.outputs;
        act.a1.clear();
        act.a1.extend_from_slice(&self.fc1.bias);
        for &(i, v) in x.active() {
            let row = &self.first_by_input[i as usize * h1..(i as usize + 1) * h1];
            if v == 1.0 {
                for (a, w) in act.a1.iter_mut().zip(row) {
                    *a += w;
                }
            } else {
                for (a, w) in act.a1.iter_mut().zip(row) {
                    *a += v * w;
                }
            }
        }
        for a in &mut act.a1 {
            *a = a.max(0.0);
        }
        let h2 = self.fc2.outputs;
        act.a2.clear();
        act.a2.resize(h2, 0.0);
        for (o, a2) in act.a2.iter_mut().enumerate() {
            let row = &self.fc2.weight[o * h1..(o + 1) * h1];
            *a2 = (self.fc2.bias[o] + dot(row, &act.a1)).max(0.0);
        }
        act.value = (self.out.bias[0] + dot(&self.out.weight, &act.a2)).tanh();
    }

    /// The value of `x`, in `(-1, 1)`.
    pub fn value(&self, x: &Features) -> f32 {
        ACTIVATIONS.with(|act| {
            let mut act = act.borrow_mut();
            self.forward(x, &mut act);
            act.value
        })
    }

    /// Adds to `grad` the gradient of `½ (value − target)²` at `x`, given the forward pass
    /// `act` of `x`; returns the squared error `(value − target)²`.
    pub fn backward(
        &self,
        x: &Features,
        act: &Activations,
        target: f32,
        grad: &mut Gradient,
    ) -> f32 {
        let err = act.value - target;
        // d/dz of tanh(z) is 1 − tanh².
        let d_out = err * (1.0 - act.value * act.value);
        let (h1, h2) = (self.fc1.outputs, self.fc2.outputs);
        grad.out.bias[0] += d_out;
        let mut d2 = [0.0f32; MAX_HIDDEN];
        for (o, d) in d2[..h2].iter_mut().enumerate() {
            grad.out.weight[o] += d_out * act.a2[o];
            *d = if act.a2[o] > 0.0 {
                d_out * self.out.weight[o]
            } else {
                0.0
            };
        }
        let mut d1 = [0.0f32; MAX_HIDDEN];
        for (o, &d) in d2[..h2].iter().enumerate() {
            if d == 0.0 {
                continue;
            }
            grad.fc2.bias[o] += d;
            let row = &self.fc2.weight[o * h1..(o + 1) * h1];
            let g = &mut grad.fc2.weight[o * h1..(o + 1) * h1];
            for k in 0..h1 {
                g[k] += d * act.a1[k];
                d1[k] += d * row[k];
            }
        }
        for (k, d) in d1[..h1].iter_mut().enumerate() {
            if act.a1[k] <= 0.0 {
                *d = 0.0;
            }
            grad.fc1.bias[k] += *d;
        }
        // The first layer's gradient is kept by input (transposed), touched only where the
        // input is non-zero.
        for &(i, v) in x.active() {
            let g = &mut grad.first_by_input[i as usize * h1..(i as usize + 1) * h1];
            for k in 0..h1 {
                g[k] += v * d1[k];
            }
            grad.touched.push(i);
        }
        grad.count += 1;
        err * err
    }
}

thread_local! {
    /// Scratch activations for [`Mlp::value`].
    static ACTIVATIONS: std::cell::RefCell<Activations> = Default::default();
}

/// The widest hidden layer [`Mlp::backward`] takes.
pub const MAX_HIDDEN: usize = 512;

fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight partial sums, so that the compiler keeps them in one vector register.
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

/// Gradients summed over a minibatch ([`Mlp::backward`]).
#[derive(Clone, Debug)]
pub struct Gradient {
    fc1: Linear,
    fc2: Linear,
    out: Linear,
    /// The first layer's weight gradient, by input (`in × h1`).
    first_by_input: Vec<f32>,
    /// Inputs whose rows of `first_by_input` may be non-zero.
    touched: Vec<u32>,
    /// Samples summed.
    count: usize,
}

impl Gradient {
    /// A zero gradient for `net`.
    pub fn zeros(net: &Mlp) -> Gradient {
        Gradient {
            fc1: Linear::zeros(0, net.fc1.outputs),
            fc2: Linear::zeros(net.fc2.inputs, net.fc2.outputs),
            out: Linear::zeros(net.out.inputs, 1),
            first_by_input: vec![0.0; net.fc1.inputs * net.fc1.outputs],
            touched: Vec::new(),
            count: 0,
        }
    }

    fn clear(&mut self) {
        let h1 = self.fc1.outputs;
        for &i in &self.touched {
            self.first_by_input[i as usize * h1..(i as usize + 1) * h1].fill(0.0);
        }
        self.touched.clear();
        for l in [&mut self.fc1, &mut self.fc2, &mut self.out] {
            l.weight.fill(0.0);
            l.bias.fill(0.0);
        }
        self.count = 0;
    }
}

/// Adam (Kingma and Ba 2015) over an [`Mlp`], with the first layer's moments updated only for
/// inputs seen in the minibatch ("lazy" Adam: an input absent from a minibatch keeps its
/// moments and weights, as sparse inputs need).
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// The step size.
    pub rate: f32,
    /// Steps taken.
    pub steps: u64,
    /// First and second moments, in the order of [`Adam::slots`].
    m: Vec<Vec<f32>>,
    v: Vec<Vec<f32>>,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

impl Adam {
    /// A fresh optimiser for `net`.
    pub fn new(net: &Mlp, rate: f32) -> Adam {
        let sizes = [
            net.first_by_input.len(),
            net.fc1.bias.len(),
            net.fc2.weight.len(),
            net.fc2.bias.len(),
            net.out.weight.len(),
            net.out.bias.len(),
        ];
        Adam {
            rate,
            steps: 0,
            m: sizes.iter().map(|&n| vec![0.0; n]).collect(),
            v: sizes.iter().map(|&n| vec![0.0; n]).collect(),
        }
    }

    /// The moments, by slot: first layer (by input), its bias, second layer, its bias, output,
    /// its bias. For saving and restoring a run.
    pub fn moments(&self) -> (&[Vec<f32>], &[Vec<f32>]) {
        (&self.m, &self.v)
    }

    /// An optimiser with saved moments.
    ///
    /// # Errors
    /// A message if the moments do not fit `net`.
    pub fn restore(
        net: &Mlp,
        rate: f32,
        steps: u64,
        m: Vec<Vec<f32>>,
        v: Vec<Vec<f32>>,
    ) -> Result<Adam, String> {
        let fresh = Adam::new(net, rate);
        let fits = |x: &[Vec<f32>]| {
            x.len() == fresh.m.len() && x.iter().zip(&fresh.m).all(|(a, b)| a.len() == b.len())
        };
        if !fits(&m) || !fits(&v) {
            return Err("the optimiser's moments do not fit the network".into());
        }
        Ok(Adam { rate, steps, m, v })
    }

    /// One step down the mean gradient of the minibatch in `grad`, which it then clears.
    pub fn step(&mut self, net: &mut Mlp, grad: &mut Gradient) {
        if grad.count == 0 {
            return;
        }
        self.steps += 1;
        let t = self.steps as i32;
        let scale = 1.0 / grad.count as f32;
        let c1 = 1.0 - BETA1.powi(t);
        let c2 = 1.0 - BETA2.powi(t);
        let rate = self.rate;
        let update = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            let g = g * scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w -= rate * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
        };
        let h1 = net.fc1.outputs;
        let n = net.fc1.inputs;
        grad.touched.sort_unstable();
        grad.touched.dedup();
        for &i in &grad.touched {
            let i = i as usize;
            for k in 0..h1 {
                let j = i * h1 + k;
                update(
                    &mut net.first_by_input[j],
                    grad.first_by_input[j],
                    &mut self.m[0][j],
                    &mut self.v[0][j],
                );
                net.fc1.weight[k * n + i] = net.first_by_input[j];
            }
        }
        let dense: [(&mut [f32], &[f32]); 5] = [
            (&mut net.fc1.bias, &grad.fc1.bias),
            (&mut net.fc2.weight, &grad.fc2.weight),
            (&mut net.fc2.bias, &grad.fc2.bias),
            (&mut net.out.weight, &grad.out.weight),
            (&mut net.out.bias, &grad.out.bias),
        ];
        for (slot, (w, g)) in dense.into_iter().enumerate() {
            let (m, v) = (&mut self.m[slot + 1], &mut self.v[slot + 1]);
            for j in 0..w.len() {
                update(&mut w[j], g[j], &mut m[j], &mut v[j]);
            }
        }
        grad.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Mlp {
        let mut x = 0.37f32;
        Mlp::new(6, 8, 4, || {
            x = (x * 9301.0 + 0.49297).fract();
            x
        })
    }

    fn features(items: &[(u32, f32)]) -> Features {
        let mut f = Features::new(6);
        for &(i, v) in items {
            f.push(i, v);
        }
        f
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

    #[test]
    fn the_gradient_matches_finite_differences() {
        let net = tiny();
        let x = features(&[(0, 1.0), (3, 1.0), (5, 0.25)]);
        let target = 0.3;
        let loss = |n: &Mlp| {
            let mut a = Activations::default();
            n.forward(&x, &mut a);
            0.5 * (a.value - target).powi(2)
        };
        let mut act = Activations::default();
        net.forward(&x, &mut act);
        let mut g = Gradient::zeros(&net);
        net.backward(&x, &act, target, &mut g);
        // Central differences on one weight of each layer.
        let h = 1e-2;
        let numeric = |edit: &dyn Fn(&mut Mlp, f32)| {
            let (mut up, mut down) = (net.clone(), net.clone());
            edit(&mut up, h);
            edit(&mut down, -h);
            up.sync();
            down.sync();
            (loss(&up) - loss(&down)) / (2.0 * h)
        };
        let close = |a: f32, b: f32| (a - b).abs() < 1e-3 + 1e-2 * b.abs();
        // fc1 is 8 × 6: unit 1, input 3.
        let n = numeric(&|m, d| m.fc1.weight[6 + 3] += d);
        assert!(close(n, g.first_by_input[3 * 8 + 1]), "{n}");
        let n = numeric(&|m, d| m.out.weight[2] += d);
        assert!(close(n, g.out.weight[2]), "{n}");
        // fc2 is 4 × 8: unit 1, input 5.
        let n = numeric(&|m, d| m.fc2.weight[8 + 5] += d);
        assert!(close(n, g.fc2.weight[8 + 5]), "{n}");
        let n = numeric(&|m, d| m.fc1.bias[2] += d);
        assert!(close(n, g.fc1.bias[2]), "{n}");
    }

    #[test]
    fn a_step_moves_the_value_toward_its_target() {
        let mut net = tiny();
        let x = features(&[(2, 1.0), (5, 1.0)]);
        let before = net.value(&x);
        let target = if before > 0.0 { -0.5 } else { 0.5 };
        let mut adam = Adam::new(&net, 0.01);
        let mut g = Gradient::zeros(&net);
        let mut act = Activations::default();
        net.forward(&x, &mut act);
        net.backward(&x, &act, target, &mut g);
        adam.step(&mut net, &mut g);
        let after = net.value(&x);
        assert!((after - target).abs() < (before - target).abs());
        // The transposed copy followed the update.
        let mut check = net.clone();
        check.sync();
        assert_eq!(check, net);
    }
}
