//! Speed report: wgblas beside OpenBLAS in one run, for the GPU runs of `../shared/GPU.md`
//! (cuBLAS figures come from `tools/cublas_ref.py` in the same command).
//!
//! For each routine and size: the GPU time of the kernels alone (timestamp queries at the start
//! and end of the compute pass, so no upload or read-back), the wall time of the whole host-form
//! call (upload, kernels, read-back, write into the ndarray), and OpenBLAS's wall time; medians
//! and minima of `--reps` runs after 3 warm-ups. Each result is also checked against OpenBLAS
//! with its DESIGN.md §2 metric, so every figure is a strict-FP32 result that passes.
//!
//! Run: `cargo run --release --example gpu_report -- [--gemm 1024,4096] [--vec 1048576] [--reps 11]`

extern crate blas_src;

use std::time::{Duration, Instant};

use ndarray::{Array1, Array2};
use ndarray_rand::rand_distr::Uniform;
use ndarray_rand::RandomExt;
use wgblas::metrics::{self, bounds};
use wgblas::{blas, Context, Transpose};

extern "C" {
    fn openblas_get_config() -> *const std::os::raw::c_char;
    fn openblas_get_num_threads() -> std::os::raw::c_int;
}

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
        .unwrap_or_else(|| default.to_string())
}

fn list(s: &str) -> Vec<usize> {
    s.split(',').filter_map(|t| t.trim().parse().ok()).collect()
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
    let reps: usize = arg("--reps", "11").parse()?;
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

    for n in list(&arg("--gemm", "256,512")) {
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
        let o = time_cpu(reps, || unsafe {
            let ni = n as i32;
            cblas_sys::cblas_sgemm(
                cblas_sys::CBLAS_LAYOUT::CblasRowMajor,
                cblas_sys::CBLAS_TRANSPOSE::CblasNoTrans,
                cblas_sys::CBLAS_TRANSPOSE::CblasNoTrans,
                ni,
                ni,
                ni,
                1.0,
                a.as_ptr(),
                ni,
                b.as_ptr(),
                ni,
                0.0,
                r.as_mut_ptr(),
                ni,
            )
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
    }

    for n in list(&arg("--vec", "1048576")) {
        let x = Array1::random(n, dist);
        let y = Array1::random(n, dist);
        let mut d = 0.0;
        let (g, w) = time_gpu(ctx, reps, || {
            d = blas::sdot(ctx, x.view(), y.view()).unwrap()
        });
        let mut dr = 0.0;
        let o = time_cpu(reps, || {
            dr = unsafe { cblas_sys::cblas_sdot(n as i32, x.as_ptr(), 1, y.as_ptr(), 1) }
        });
        let f = metrics::forward_factor_scalar(d, dr, bounds::dot(x.view(), y.view()));
        let gb = |ms: f64| 8.0 * n as f64 / ms / 1e6;
        println!(
            "sdot n={n}: wgblas gpu {:.4} ({:.4}) = {:.0} GB/s, wall {:.3} ({:.3}); openblas {:.4} ({:.4}) = {:.0} GB/s; factor {f:.3} (≤ 1)",
            g.median, g.min, gb(g.median), w.median, w.min, o.median, o.min, gb(o.median)
        );
    }
    Ok(())
}
