//! Training's part of the network: the gradient of its squared error ([`Mlp::backward`]) and
//! the optimiser ([`Adam`]).
//!
//! Both follow the forward pass's sparse path: the first layer's gradient is kept by input
//! and touched only where an input is non-zero, and Adam updates the weights of those inputs
//! only. The arithmetic is as it always was, in the same order, so that a seeded run gives
//! the same weights bit for bit.

use crate::eval::net::encode::Features;
use crate::eval::net::mlp::{Activations, Linear, MAX_HIDDEN, Mlp};

impl Mlp {
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
        net.sync_second();
        grad.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::net::mlp::tests::{features, tiny};

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
