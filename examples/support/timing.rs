//! GPU time of resident calls, as the report examples take it (`#[path]`-included; not part of
//! the library): batches of back-to-back calls held and submitted together, timed by timestamps
//! at their start and end ([`Context::time_batch`]), divided by the number of calls.
#![allow(dead_code)] // each example uses a subset

use wgblas::Context;

/// Seconds of GPU work a timed batch aims at, as `benches/reference.py` sizes its CUDA batches
/// (an isolated short dispatch runs at the idle clocks of the GPU, as would an isolated CUDA
/// launch).
pub const TARGET_S: f64 = 1e-3;

/// Seconds of back-to-back batches run before the timed ones: the H200's driver lowers the SM
/// clock (to 345 MHz of 1980) whenever the GPU is busy only part of the time, as it is between
/// two measurements (checks on the host, buffer set-up), and raises it again only after some
/// 100 ms of steady load (`benches/results/2026-12-01-probe-host/`, `2026-12-01-warm/`). cuBLAS
/// is timed in such steady loops; this puts wgblas and the copy reference on the same clock.
pub const WARM_S: f64 = 0.3;

/// How many back-to-back calls make a batch of about [`TARGET_S`] seconds, for one call of
/// `one` seconds (1 to 1000).
pub fn batch_size(one: f64) -> usize {
    ((TARGET_S / one.max(1e-9)) as usize).clamp(1, 1000)
}

/// GPU seconds of one call of `f`: `reps` samples (in the order taken) after `warmups` calls,
/// one batch of one call that sizes the batches ([`batch_size`]), and [`WARM_S`] of batches.
/// A sample is one batch's GPU time divided by its number of calls.
pub fn per_call(ctx: &Context, reps: usize, warmups: usize, mut f: impl FnMut()) -> Vec<f64> {
    for _ in 0..warmups {
        f();
    }
    let one = ctx.time_batch(&mut f).expect("timestamps").as_secs_f64();
    let inner = batch_size(one);
    let mut batch = || {
        ctx.time_batch(|| {
            for _ in 0..inner {
                f();
            }
        })
        .expect("timestamps")
        .as_secs_f64()
            / inner as f64
    };
    let warm = std::time::Instant::now();
    while warm.elapsed().as_secs_f64() < WARM_S {
        batch();
    }
    (0..reps).map(|_| batch()).collect()
}
