//! One evaluation of the shipped `tab` network, three ways, over 64 mid-game positions (the
//! sample of the criterion bench `net`): Qasab's hand-written sparse forward pass, the same
//! network in candle one position at a time (as a search asks), and candle on all 64 at once.
//! Prints the time per evaluation (the median of 15 rounds) and the largest difference between
//! the values. Candle's matrix products use as many threads as `RAYON_NUM_THREADS` says (by
//! default one per core); the hand-written pass uses one.
//!
//! `cargo run --release --manifest-path bench/nn-candle/Cargo.toml`

use std::hint::black_box;
use std::time::Instant;

use candle_core::{Device, Tensor};
use qasab_ai::eval::net::{Encode, Features, shipped};
use qasab_ai::play::bench::mid_game_positions;
use qasab_core::tab;

/// The ruleset of the sample.
const TAB: &str = "tab";

/// The median over 15 rounds of the time per evaluation of `f`, which evaluates `n` positions.
fn per_eval(n: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..15)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..20 {
                f();
            }
            t.elapsed().as_secs_f64() / (20 * n) as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[7]
}

fn main() -> candle_core::Result<()> {
    let net = shipped("tab").expect("the tab network is shipped");
    let m = &net.mlp;
    let sample = mid_game_positions(&TAB.parse::<tab::Ruleset>().expect("a preset"), 64);
    let inputs: Vec<Features> = sample
        .iter()
        .map(|s| {
            let mut f = Features::default();
            Encode::encode(s, net.encoding, &mut f);
            f
        })
        .collect();
    let dev = Device::Cpu;
    let layer = |l: &qasab_ai::eval::net::mlp::Linear| -> candle_core::Result<(Tensor, Tensor)> {
        let w = Tensor::from_slice(&l.weight, (l.outputs, l.inputs), &dev)?
            .t()?
            .contiguous()?;
        let b = Tensor::from_slice(&l.bias, (1, l.outputs), &dev)?;
        Ok((w, b))
    };
    let (w1, b1) = layer(&m.fc1)?;
    let (w2, b2) = layer(&m.fc2)?;
    let (w3, b3) = layer(&m.out)?;
    let forward = |x: &Tensor| -> candle_core::Result<Tensor> {
        x.matmul(&w1)?
            .broadcast_add(&b1)?
            .relu()?
            .matmul(&w2)?
            .broadcast_add(&b2)?
            .relu()?
            .matmul(&w3)?
            .broadcast_add(&b3)?
            .tanh()
    };
    // The values of a forward pass, copied out of the tensor as a caller would read them.
    let values = |x: &Tensor| {
        forward(x)
            .and_then(|v| v.to_vec2::<f32>())
            .expect("a forward pass")
    };
    let dense: Vec<Vec<f32>> = inputs.iter().map(Features::dense).collect();
    let rows: Vec<Tensor> = dense
        .iter()
        .map(|d| Tensor::from_slice(d, (1, d.len()), &dev))
        .collect::<candle_core::Result<_>>()?;
    let flat: Vec<f32> = dense.concat();
    let batch = Tensor::from_slice(&flat, (dense.len(), m.inputs()), &dev)?;

    let ours: Vec<f32> = inputs.iter().map(|f| m.value(f)).collect();
    // Candle's values, batched and one at a time, against ours.
    let batched: Vec<f32> = forward(&batch)?.flatten_all()?.to_vec1()?;
    let single: Vec<f32> = rows.iter().map(|r| values(r)[0][0]).collect();
    let diff = ours
        .iter()
        .zip(batched.iter().zip(&single))
        .map(|(a, (b, c))| (a - b).abs().max((a - c).abs()))
        .fold(0.0f32, f32::max);

    let n = inputs.len();
    let hand = per_eval(n, || {
        for f in &inputs {
            black_box(m.value(f));
        }
    });
    let one = per_eval(n, || {
        for r in &rows {
            black_box(values(r));
        }
    });
    let all = per_eval(n, || {
        black_box(values(&batch));
    });
    let built = per_eval(n, || {
        for d in &dense {
            let x = Tensor::from_slice(d, (1, d.len()), &dev).expect("a tensor");
            black_box(values(&x));
        }
    });
    println!(
        "tab network, {} inputs ({:.1} non-zero on average), {} parameters; {n} positions",
        m.inputs(),
        inputs.iter().map(|f| f.active().len()).sum::<usize>() as f64 / n as f64,
        m.parameters()
    );
    println!(
        "candle's matrix products on {} thread(s) (RAYON_NUM_THREADS)",
        candle_core::utils::get_num_threads()
    );
    println!("largest difference between the values (hand-written against candle): {diff:.2e}");
    for (what, t) in [
        ("hand-written, sparse, one position at a time", hand),
        ("candle, dense, one position at a time", one),
        ("candle, dense, the input tensor built too", built),
        ("candle, dense, 64 positions in one batch", all),
    ] {
        println!("{what:<45} {:>9.0} ns", t * 1e9);
    }
    Ok(())
}
