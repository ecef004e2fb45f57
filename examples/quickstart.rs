//! Quickstart: C = A·B on the GPU for n×n matrices (n = 512 by default), checked against
//! OpenBLAS with the forward-error factor of `wgblas::metrics` (DESIGN.md §2: sgemm must be ≤ 1).
//!
//! The first call of a process is timed apart from the rest: it creates the device and compiles
//! the kernel's pipeline. The warm figure is the median of `--reps` calls after it.
//!
//! Run: `cargo run --release --example quickstart -- [--n 512] [--reps 11]`

extern crate blas_src;

use std::time::Instant;

use ndarray::Array2;
use ndarray_rand::rand_distr::Uniform;
use ndarray_rand::RandomExt;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;

#[path = "support/openblas.rs"]
mod openblas;

struct Args {
    n: usize,
    reps: usize,
}

fn parse_args() -> Result<Args, lexopt::Error> {
    use lexopt::prelude::*;
    let mut args = Args { n: 512, reps: 11 };
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("n") => args.n = parser.value()?.parse()?,
            Long("reps") => args.reps = parser.value()?.parse()?,
            Long("help") | Short('h') => {
                println!("usage: quickstart [--n 512] [--reps 11]");
                std::process::exit(0);
            }
            _ => return Err(arg.unexpected()),
        }
    }
    if args.n == 0 || args.reps == 0 {
        return Err("--n and --reps must be at least 1".into());
    }
    Ok(args)
}

fn median_ms(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args { n, reps } = parse_args()?;
    let dist = Uniform::new(-1.0f32, 1.0)?;
    let a = Array2::random((n, n), dist);
    let b = Array2::random((n, n), dist);

    let t = Instant::now();
    let ctx = wgblas::Context::shared()?;
    let context_ms = t.elapsed().as_secs_f64() * 1e3;
    let info = ctx.adapter_info();
    println!(
        "adapter: {} ({:?}, {:?}), created in {context_ms:.0} ms",
        info.name, info.backend, info.device_type
    );
    if info.device_type == wgblas::wgpu::DeviceType::Cpu {
        println!("  a CPU adapter (lavapipe): right for correctness, not for speed");
    }

    let t = Instant::now();
    let c = a.gpu_gemm(&b)?; // C = A·B
    let cold_ms = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "first call in this process: context {context_ms:.1} ms + first gpu_gemm {cold_ms:.2} ms (pipeline cache: {:?})",
        ctx.pipeline_cache_path()
    );
    let warm: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            let again = a.gpu_gemm(&b)?;
            let ms = t.elapsed().as_secs_f64() * 1e3;
            // the same operands give the same bits, call after call
            assert_eq!(again, c, "a warm call gave another result than the first");
            Ok(ms)
        })
        .collect::<Result<_, wgblas::Error>>()?;

    // The oracle: OpenBLAS sgemm on the same operands (the first call is its warm-up).
    let reference = openblas::sgemm(a.view(), b.view());
    let cpu: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            let _ = openblas::sgemm(a.view(), b.view());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();

    let zero = Array2::<f32>::zeros((n, n));
    let bound = bounds::gemm(
        Transpose::No,
        Transpose::No,
        1.0,
        a.view(),
        b.view(),
        0.0,
        zero.view(),
    );
    let factor = metrics::forward_factor(&c, &reference, &bound)?;
    let threshold = metrics::spec("sgemm").map(|s| s.threshold).unwrap_or(1.0);
    println!("sgemm {n}x{n}x{n}: forward-error factor {factor:.3e} (threshold {threshold})");
    println!(
        "wall time of a.gpu_gemm(&b), upload and read-back included: first call {cold_ms:.1} ms \
         (pipeline compiled), then median {:.2} ms of {reps}; OpenBLAS median {:.2} ms",
        median_ms(warm),
        median_ms(cpu)
    );
    if factor > threshold {
        return Err(format!("forward-error factor {factor} above {threshold}").into());
    }
    Ok(())
}
