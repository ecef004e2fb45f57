//! Speed report: wgblas beside OpenBLAS in one run, for the H200 runs of `benches/results/README.md`
//! (cuBLAS figures come from `benches/reference.py` in the same command).
//!
//! For each routine and size: the GPU time of the kernels alone (timestamp queries at the start
//! and end of the compute pass, so no upload or read-back), the wall time of the whole host-form
//! call (upload, kernels, read-back, write into the ndarray), and OpenBLAS's wall time; medians
//! and minima of `--reps` runs after 3 warm-ups. Each result is also checked against OpenBLAS
//! with its DESIGN.md §2 metric, so every figure is a strict-FP32 result that passes.
//!
//! Besides the readable lines, each measurement is printed as a `ROW,` line (and OpenBLAS's as a
//! `REF,` line) for `benches/join.py` (`benches/results/README.md`).
//!
//! Run: `cargo run --release --example gpu_report -- [--gemm 1024,4096] [--vec 1048576] [--reps 11]`

extern crate blas_src;

use std::time::{Duration, Instant};

use ndarray::{Array1, Array2};
use ndarray_rand::rand_distr::Uniform;
use ndarray_rand::RandomExt;
use wgblas::metrics::{self, bounds};
use wgblas::{blas, Context, Transpose};

#[path = "support/openblas.rs"]
mod openblas;

extern "C" {
    fn openblas_get_config() -> *const std::os::raw::c_char;
    fn openblas_get_num_threads() -> std::os::raw::c_int;
}

struct Args {
    gemm: Vec<usize>,
    vec: Vec<usize>,
    reps: usize,
}

/// A comma-separated list of sizes; any entry that is not a number is an error.
fn list(s: &str) -> Result<Vec<usize>, lexopt::Error> {
    s.split(',')
        .map(|t| {
            t.trim()
                .parse()
                .map_err(|_| format!("{t:?} is not a size in the list {s:?}").into())
        })
        .collect()
}

fn parse_args() -> Result<Args, lexopt::Error> {
    use lexopt::prelude::*;
    let mut args = Args {
        gemm: vec![256, 512],
        vec: vec![1048576],
        reps: 11,
    };
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("gemm") => args.gemm = list(&parser.value()?.string()?)?,
            Long("vec") => args.vec = list(&parser.value()?.string()?)?,
            Long("reps") => args.reps = parser.value()?.parse()?,
            Long("help") | Short('h') => {
                println!("usage: gpu_report [--gemm 256,512] [--vec 1048576] [--reps 11]");
                std::process::exit(0);
            }
            _ => return Err(arg.unexpected()),
        }
    }
    if args.reps == 0 {
        return Err("--reps must be at least 1".into());
    }
    Ok(args)
}

struct Stats {
    median: f64,
    min: f64,
}

fn stats(mut v: Vec<f64>) -> Stats {
    v.sort_by(f64::total_cmp);
    Stats {
        median: v[v.len() / 2],
        min: v[0],
    }
}

/// Time `f` `reps` times after 3 warm-ups: (GPU ms, wall ms).
fn time_gpu(ctx: &Context, reps: usize, mut f: impl FnMut()) -> (Stats, Stats) {
    for _ in 0..3 {
        f();
    }
    let (mut gpu, mut wall) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        let t = Instant::now();
        f();
        wall.push(t.elapsed().as_secs_f64() * 1e3);
        gpu.push(ctx.last_gpu_time().unwrap_or(Duration::ZERO).as_secs_f64() * 1e3);
    }
    (stats(gpu), stats(wall))
}

fn time_cpu(reps: usize, mut f: impl FnMut()) -> Stats {
    for _ in 0..3 {
        f();
    }
    stats(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args { gemm, vec, reps } = parse_args()?;
    let ctx = Context::shared()?;
    ctx.set_profiling(true);
    let info = ctx.adapter_info();
    let config = unsafe { std::ffi::CStr::from_ptr(openblas_get_config()) }.to_string_lossy();
    println!(
        "adapter: {} ({:?}, {:?}), driver {} {}",
        info.name, info.backend, info.device_type, info.driver, info.driver_info
    );
    println!("openblas: {config}, {} threads", unsafe {
        openblas_get_num_threads()
    });
    println!("times in ms: median (min) of {reps} after 3 warm-ups; gpu = kernels only (timestamps), wall = whole call incl. upload and read-back");
    let dist = Uniform::new(-1.0f32, 1.0)?;

    for n in gemm {
        let a = Array2::random((n, n), dist);
        let b = Array2::random((n, n), dist);
        let mut c = Array2::<f32>::zeros((n, n));
        let (g, w) = time_gpu(ctx, reps, || {
            blas::sgemm(
                ctx,
                Transpose::No,
                Transpose::No,
                1.0,
                a.view(),
                b.view(),
                0.0,
                c.view_mut(),
            )
            .unwrap()
        });
        let mut r = Array2::<f32>::zeros((n, n));
        let o = time_cpu(reps, || {
            openblas::sgemm_into(a.view(), b.view(), r.view_mut())
        });
        let zero = Array2::<f32>::zeros((n, n));
        let f = metrics::forward_factor(
            &c,
            &r,
            &bounds::gemm(
                Transpose::No,
                Transpose::No,
                1.0,
                a.view(),
                b.view(),
                0.0,
                zero.view(),
            ),
        )?;
        let tf = |ms: f64| 2.0 * (n as f64).powi(3) / ms / 1e9;
        println!(
            "sgemm n={n}: wgblas gpu {:.4} ({:.4}) = {:.2} TFLOP/s, wall {:.3} ({:.3}); openblas {:.3} ({:.3}) = {:.2} TFLOP/s; factor {f:.3} (≤ 1)",
            g.median, g.min, tf(g.median), w.median, w.min, o.median, o.min, tf(o.median)
        );
        let shape = format!("{n}x{n}x{n}");
        println!(
            "ROW,sgemm,{shape},NN-C,resident,TFLOP/s,{:.3}",
            tf(g.median)
        );
        println!(
            "REF,sgemm,{shape},NN-C,resident,TFLOP/s,openblas,{:.3}",
            tf(o.median)
        );
        println!("ROW,sgemm,{shape},NN-C,host,ms,{:.4}", w.median);
        println!("REF,sgemm,{shape},NN-C,host,ms,openblas,{:.4}", o.median);
    }

    for n in vec {
        let x = Array1::random(n, dist);
        let y = Array1::random(n, dist);
        let mut d = 0.0;
        let (g, w) = time_gpu(ctx, reps, || {
            d = blas::sdot(ctx, x.view(), y.view()).unwrap()
        });
        let mut dr = 0.0;
        let o = time_cpu(reps, || dr = openblas::sdot(x.view(), y.view()));
        let f = metrics::forward_factor_scalar(d, dr, bounds::dot(x.view(), y.view()));
        let gb = |ms: f64| 8.0 * n as f64 / ms / 1e6;
        println!(
            "sdot n={n}: wgblas gpu {:.4} ({:.4}) = {:.0} GB/s, wall {:.3} ({:.3}); openblas {:.4} ({:.4}) = {:.0} GB/s; factor {f:.3} (≤ 1)",
            g.median, g.min, gb(g.median), w.median, w.min, o.median, o.min, gb(o.median)
        );
        println!("ROW,sdot,n={n},-,resident,GB/s,{:.1}", gb(g.median));
        println!(
            "REF,sdot,n={n},-,resident,GB/s,openblas,{:.1}",
            gb(o.median)
        );
        println!("ROW,sdot,n={n},-,host,ms,{:.4}", w.median);
        println!("REF,sdot,n={n},-,host,ms,openblas,{:.4}", o.median);
    }
    Ok(())
}
