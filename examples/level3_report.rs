//! Level 3 speed report: GPU time (timestamp queries, kernels only) and wall time (whole call,
//! with upload and read-back) of the seven Level 3 routines at n×n×n, each result checked with
//! its DESIGN.md §2 metric (against OpenBLAS for the forward factors, by the backward residual
//! for strsm) at sizes up to `--check`, so every figure is a strict-FP32 result that passes.
//!
//! Run: `cargo run --release --example level3_report -- [--n 1024,4096] [--reps 11] [--check 1024]`

extern crate blas_src;

use std::time::{Duration, Instant};

use cblas_sys::*;
use ndarray::Array2;
use ndarray_rand::rand_distr::Uniform;
use ndarray_rand::RandomExt;
use wgblas::metrics::{self, bounds};
use wgblas::{blas, Context, Diag, Side, Transpose, Uplo};

#[path = "support/args.rs"]
mod args;

/// The flags and their defaults; anything else on the command line is an error.
const FLAGS: &[(&str, &str)] = &[("--n", "256,1024"), ("--reps", "11"), ("--check", "1024")];

fn arg(name: &str, _default: &str) -> String {
    args::get(FLAGS, name)
}

/// Median and minimum.
fn stats(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0])
}

/// Time `f` `reps` times after 2 warm-ups: ((GPU median, min), (wall median, min)) in ms.
fn time(ctx: &Context, reps: usize, mut f: impl FnMut()) -> ((f64, f64), (f64, f64)) {
    for _ in 0..2 {
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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let reps: usize = arg("--reps", "11").parse()?;
    let check: usize = arg("--check", "1024").parse()?;
    let ctx = Context::shared()?;
    ctx.set_profiling(true);
    let info = ctx.adapter_info();
    println!(
        "adapter: {} ({:?}), driver {} {}",
        info.name, info.backend, info.driver, info.driver_info
    );
    println!("ms: median (min) of {reps} after 2 warm-ups; gpu = kernels only, wall = whole call");
    let dist = Uniform::new(-1.0f32, 1.0)?;
    let (no, yes, lo, up) = (Transpose::No, Transpose::Yes, Uplo::Lower, Uplo::Upper);
    let (left, right, nonunit) = (Side::Left, Side::Right, Diag::NonUnit);
    let sizes = arg("--n", "256,1024")
        .split(',')
        .map(|t| {
            t.trim()
                .parse::<usize>()
                .map_err(|e| format!("--n: {t:?}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    for n in sizes {
        let a = Array2::random((n, n), dist);
        let b = Array2::random((n, n), dist);
        let c0 = Array2::random((n, n), dist);
        // A triangle with a dominant diagonal, for strmm and strsm.
        let t = Array2::from_shape_fn((n, n), |(i, j)| {
            if i == j {
                2.0 + a[[i, j]].abs()
            } else if i > j {
                a[[i, j]] / n as f32
            } else {
                f32::NAN
            }
        });
        let nf = n as f64;
        let cases: Vec<(&str, f64)> = vec![
            ("sgemm", 2.0 * nf.powi(3)),
            ("sgemmtr", nf.powi(3)),
            ("ssyrk", nf.powi(3)),
            ("ssyr2k", 2.0 * nf.powi(3)),
            ("ssymm L", 2.0 * nf.powi(3)),
            ("strmm L", nf.powi(3)),
            ("strsm L", nf.powi(3)),
            ("strsm R", nf.powi(3)),
        ];
        for (name, flops) in cases {
            let mut out = c0.clone();
            let run = |out: &mut Array2<f32>| {
                let v = out.view_mut();
                match name {
                    "sgemm" => blas::sgemm(ctx, no, no, 1.0, a.view(), b.view(), 0.5, v),
                    "sgemmtr" => blas::sgemmtr(ctx, lo, no, no, 1.0, a.view(), b.view(), 0.5, v),
                    "ssyrk" => blas::ssyrk(ctx, up, no, 1.0, a.view(), 0.5, v),
                    "ssyr2k" => blas::ssyr2k(ctx, lo, yes, 1.0, a.view(), b.view(), 0.5, v),
                    "ssymm L" => blas::ssymm(ctx, left, lo, 1.0, t.view(), b.view(), 0.5, v),
                    "strmm L" => blas::strmm(ctx, left, lo, no, nonunit, 1.0, t.view(), v),
                    "strsm L" => blas::strsm(ctx, left, lo, no, nonunit, 1.0, t.view(), v),
                    _ => blas::strsm(ctx, right, lo, yes, nonunit, 1.0, t.view(), v),
                }
                .unwrap()
            };
            let (g, w) = time(ctx, reps, || {
                // trmm and trsm overwrite B: start each run from the same B.
                out.assign(&b);
                run(&mut out)
            });
            let mut metric = String::from("not checked at this size");
            if n <= check {
                let mut got = if name.starts_with("strmm") || name.starts_with("strsm") {
                    b.clone()
                } else {
                    c0.clone()
                };
                run(&mut got);
                let f = match name {
                    "strsm L" | "strsm R" => {
                        let side = if name == "strsm L" { left } else { right };
                        let tr = if name == "strsm L" { no } else { yes };
                        let res = metrics::trsm_residual(
                            side,
                            lo,
                            tr,
                            nonunit,
                            1.0,
                            t.view(),
                            got.view(),
                            b.view(),
                        )?;
                        let bound = bounds::trsm(side, lo, tr, nonunit, t.view(), got.view());
                        metrics::backward_residual_factor(&res, &bound)?
                    }
                    _ => {
                        let (reference, bound) = reference(name, &a, &b, &c0, &t);
                        metrics::forward_factor(&got, &reference, &bound)?
                    }
                };
                metric = format!("factor {f:.3}");
            }
            println!(
                "{name:8} n={n}: gpu {:.3} ({:.3}) ms = {:.1} GFLOP/s, wall {:.1} ({:.1}) ms; {metric}",
                g.0, g.1, flops / g.0 / 1e6, w.0, w.1
            );
        }
    }
    Ok(())
}

/// OpenBLAS's result and the §2 bound for the forward-factor routines of the report.
fn reference(
    name: &str,
    a: &Array2<f32>,
    b: &Array2<f32>,
    c0: &Array2<f32>,
    t: &Array2<f32>,
) -> (Array2<f32>, Array2<f64>) {
    let n = a.nrows() as i32;
    let (row, ntr, tr) = (
        CBLAS_LAYOUT::CblasRowMajor,
        CBLAS_TRANSPOSE::CblasNoTrans,
        CBLAS_TRANSPOSE::CblasTrans,
    );
    let (clo, cup) = (CBLAS_UPLO::CblasLower, CBLAS_UPLO::CblasUpper);
    let (no, yes) = (Transpose::No, Transpose::Yes);
    let mut r = c0.clone();
    // The lower triangle of t with zeros above and its mirror, for OpenBLAS (which gets no NaN).
    let tl = t.mapv(|v| if v.is_nan() { 0.0 } else { v });
    unsafe {
        match name {
            "sgemm" | "sgemmtr" => cblas_sgemm(
                row,
                ntr,
                ntr,
                n,
                n,
                n,
                1.0,
                a.as_ptr(),
                n,
                b.as_ptr(),
                n,
                0.5,
                r.as_mut_ptr(),
                n,
            ),
            "ssyrk" => cblas_ssyrk(
                row,
                cup,
                ntr,
                n,
                n,
                1.0,
                a.as_ptr(),
                n,
                0.5,
                r.as_mut_ptr(),
                n,
            ),
            "ssyr2k" => cblas_ssyr2k(
                row,
                clo,
                tr,
                n,
                n,
                1.0,
                a.as_ptr(),
                n,
                b.as_ptr(),
                n,
                0.5,
                r.as_mut_ptr(),
                n,
            ),
            "ssymm L" => cblas_ssymm(
                row,
                CBLAS_SIDE::CblasLeft,
                clo,
                n,
                n,
                1.0,
                tl.as_ptr(),
                n,
                b.as_ptr(),
                n,
                0.5,
                r.as_mut_ptr(),
                n,
            ),
            _ => {
                r.assign(b);
                cblas_strmm(
                    row,
                    CBLAS_SIDE::CblasLeft,
                    clo,
                    ntr,
                    CBLAS_DIAG::CblasNonUnit,
                    n,
                    n,
                    1.0,
                    tl.as_ptr(),
                    n,
                    r.as_mut_ptr(),
                    n,
                )
            }
        }
    }
    let keep = |u: Uplo, r: &mut Array2<f32>| {
        for ((i, j), v) in r.indexed_iter_mut() {
            if (u == Uplo::Lower && i < j) || (u == Uplo::Upper && i > j) {
                *v = c0[[i, j]];
            }
        }
    };
    let bound = match name {
        "sgemm" => bounds::gemm(no, no, 1.0, a.view(), b.view(), 0.5, c0.view()),
        "sgemmtr" => {
            keep(Uplo::Lower, &mut r);
            bounds::gemmtr(Uplo::Lower, no, no, 1.0, a.view(), b.view(), 0.5, c0.view())
        }
        "ssyrk" => {
            keep(Uplo::Upper, &mut r);
            bounds::syrk(Uplo::Upper, no, 1.0, a.view(), 0.5, c0.view())
        }
        "ssyr2k" => {
            keep(Uplo::Lower, &mut r);
            bounds::syr2k(Uplo::Lower, yes, 1.0, a.view(), b.view(), 0.5, c0.view())
        }
        "ssymm L" => bounds::symm(
            Side::Left,
            Uplo::Lower,
            1.0,
            t.view(),
            b.view(),
            0.5,
            c0.view(),
        ),
        _ => bounds::trmm(
            Side::Left,
            Uplo::Lower,
            no,
            Diag::NonUnit,
            1.0,
            t.view(),
            b.view(),
        ),
    };
    (r, bound)
}
