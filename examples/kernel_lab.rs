//! Kernel lab: many tile-engine variants (tile shape, slab depth, double buffering, split-k,
//! packing, the transposed problem for column-major C) tried in one run with no rebuild, each
//! on GPU-resident operands, timed by GPU timestamps after 0.3 s of steady load (median and best
//! of `--reps` batches, `support/timing.rs`), and each
//! result checked against OpenBLAS with the DESIGN.md §2 forward factor (bound
//! `(k+1)·|A|·|B|`, computed by OpenBLAS in f32 on the absolute values).
//!
//! Run: `cargo run --release --example kernel_lab -- --shapes 4096x4096x4096,128x4096x4096
//! --layouts NN-C,TT-F --variants "auto;bm=128,bn=128,bk=16,nbuf=1;split=8" --reps 11`
//!
//! A variant is `auto` (the engine's own choice) or a comma list of `bm`, `bn`, `bk`, `nbuf`
//! (all four together), `split`, `pack` (0/1), `swap` (0/1), `edge` (0: the kernel without edge
//! code where every tile is whole), `v2` (1: the proposed chooser `tuning::choose_v2`), `fill`
//! (1: split-k filling the last wave, `tuning::wave_split`), `vguard` (0: element-wise reads on edge tiles, the old path; 1, the default: guarded vec4 reads on
//! edge tiles and partial slabs, `Tuning::edge_vec4`), `small` (1: a lone product of m, n ≤ 64
//! and k ≤ 128, B read as vec4s, on the small-product kernel, `Tuning::single_small`),
//! `fma` (0/1: the register tile accumulated by `c + a·b` or by `fma()`, `lab::set_gemm_fma`,
//! process-wide, reset after the variant),
//! `checks` (the shader modules'
//! runtime checks, `lab::set_shader_checks`: auto, the crate's choice per shader, the default;
//! 0 checked; 1 without naga's index clamps; 2 also without its loop bounding; process-wide, reset after
//! the variant). Output: one line per run,
//! `LAB,<shape>,<layout>,<variant>,<median TFLOP/s>,<best TFLOP/s>,<factor>`.
//!
//! `--dgemm 4096,8192` runs the same variants on square f64 products (NN, C order), checked
//! against OpenBLAS `dgemm` with the same bound in units of eps = 2^-52:
//! `LAB64,<n>,<variant>,<median TFLOP/s>,<best TFLOP/s>,<factor>`.

extern crate blas_src;

use cblas_sys::*;
use ndarray::{Array2, ShapeBuilder};
use ndarray_rand::rand_distr::Uniform;
use ndarray_rand::RandomExt;
use wgblas::tuning::{self, Tile, Tuning};
use wgblas::{blas, metrics, Context, GpuMatrix, Transpose};

#[path = "support/args.rs"]
mod args;
#[path = "support/openblas.rs"]
mod openblas;
#[path = "support/timing.rs"]
mod timing;

/// The flags and their defaults; anything else on the command line is an error.
const FLAGS: &[(&str, &str)] = &[
    ("--reps", "11"),
    ("--variants", "auto"),
    ("--trsm", ""),
    ("--shapes", ""),
    ("--layouts", "NN-C"),
    ("--dgemm", ""),
];

/// The value of a flag (its default where absent); the default argument documents the call
/// site and must match `FLAGS`.
fn arg(name: &str, default: &str) -> String {
    debug_assert!(
        FLAGS.contains(&(name, default)),
        "{name}: default differs from FLAGS"
    );
    args::get(FLAGS, name)
}

/// Set the tuning override and the shader-check mode of variant `s`.
fn apply_variant(s: &str) {
    let (t, checks, fma) = parse_variant(s);
    tuning::set_tuning(t);
    wgblas::lab::set_shader_checks(checks);
    wgblas::lab::set_gemm_fma(fma);
}

/// Back to the engine's own choices and the crate's shader checks.
fn reset_variant() {
    tuning::set_tuning(None);
    wgblas::lab::set_shader_checks(wgblas::lab::ShaderChecks::Auto);
    wgblas::lab::set_gemm_fma(None);
}

fn parse_variant(s: &str) -> (Option<Tuning>, wgblas::lab::ShaderChecks, Option<bool>) {
    let mut checks = wgblas::lab::ShaderChecks::Auto;
    let mut fma = None;
    if s == "auto" {
        return (None, checks, fma);
    }
    let mut t = Tuning::default();
    let (mut bm, mut bn, mut bk, mut nbuf) = (None, None, None, None);
    for kv in s.split(',') {
        let (k, v) = kv.split_once('=').expect("variant: key=value");
        let v: usize = v.parse().expect("variant: a number");
        match k {
            "bm" => bm = Some(v as u32),
            "bn" => bn = Some(v as u32),
            "bk" => bk = Some(v as u32),
            "nbuf" => nbuf = Some(v as u32),
            "split" => t.split = Some(v),
            "pack" => t.pack = Some(v != 0),
            "swap" => t.swap = Some(v != 0),
            "edge" => t.edge = Some(v != 0),
            "columns" => t.trsm_columns = Some(v != 0),
            "v2" => t.chooser_v2 = Some(v != 0),
            "fill" => t.wave_fill = Some(v != 0),
            "vguard" => t.edge_vec4 = Some(v != 0),
            "fma" => fma = Some(v != 0),
            "small" => t.single_small = Some(v != 0),
            "checks" => checks = args::shader_checks(&v.to_string()),
            _ => panic!("variant: unknown key {k}"),
        }
    }
    if let (Some(bm), Some(bn), Some(bk), Some(nbuf)) = (bm, bn, bk, nbuf) {
        t.tile = Some(Tile { bm, bn, bk, nbuf });
    }
    (Some(t), checks, fma)
}

/// `values` (the logical matrix, or its transpose when `trans`) stored in C or F order.
fn stored(values: &Array2<f32>, trans: bool, f_order: bool) -> Array2<f32> {
    let logical = if trans {
        values.t().to_owned()
    } else {
        values.clone()
    };
    if f_order {
        let mut out = Array2::zeros(logical.dim().f());
        out.assign(&logical);
        out
    } else {
        logical
    }
}

/// Row-major C = A·B by OpenBLAS.
fn sgemm_ref(a: &Array2<f32>, b: &Array2<f32>) -> Array2<f32> {
    let (m, k) = a.dim();
    let n = b.ncols();
    let (a, b) = (a.as_standard_layout(), b.as_standard_layout());
    let mut c = Array2::zeros((m, n));
    unsafe {
        cblas_sgemm(
            CBLAS_LAYOUT::CblasRowMajor,
            CBLAS_TRANSPOSE::CblasNoTrans,
            CBLAS_TRANSPOSE::CblasNoTrans,
            m as i32,
            n as i32,
            k as i32,
            1.0,
            a.as_ptr(),
            k.max(1) as i32,
            b.as_ptr(),
            n.max(1) as i32,
            0.0,
            c.as_mut_ptr(),
            n.max(1) as i32,
        );
    }
    c
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let reps: usize = arg("--reps", "11").parse()?;
    let ctx = Context::shared()?;
    ctx.set_profiling(true);
    let info = ctx.adapter_info();
    println!(
        "adapter: {} ({:?}), driver {} {}; workgroup memory {} B",
        info.name,
        info.backend,
        info.driver,
        info.driver_info,
        ctx.limits().max_compute_workgroup_storage_size
    );
    let dist = Uniform::new(-1.0f32, 1.0)?;
    let variants: Vec<String> = arg("--variants", "auto")
        .split(';')
        .map(str::to_string)
        .collect();
    // strsm (left, lower, no transpose) on r×r triangles with nrhs right-hand sides: the GPU
    // time per call after the same warm-up as the products (`timing::per_call`), to separate the cost of the diagonal-block solves from that of the updates.
    for spec in arg("--trsm", "").split(',').filter(|s| !s.is_empty()) {
        let (r, nrhs) = spec.split_once('x').expect("--trsm RxN");
        let (r, nrhs): (usize, usize) = (r.parse()?, nrhs.parse()?);
        let a = Array2::random((r, r), dist);
        let t = Array2::from_shape_fn((r, r), |(i, j)| {
            if i == j {
                2.0 + a[[i, j]].abs()
            } else if i > j {
                a[[i, j]] / r as f32
            } else {
                0.0
            }
        });
        let gt = ctx.upload_matrix(&t)?;
        let mut gb = ctx.upload_matrix(&Array2::random((r, nrhs), dist))?;
        for v in &variants {
            apply_variant(v);
            let (l, no, nu) = (wgblas::Uplo::Lower, Transpose::No, wgblas::Diag::NonUnit);
            let mut times = timing::per_call(ctx, reps, 2, || {
                blas::strsm(ctx, wgblas::Side::Left, l, no, nu, 1.0, &gt, &mut gb).unwrap()
            });
            times.sort_by(f64::total_cmp);
            let flops = (r * r * nrhs) as f64;
            println!(
                "TRSM,{spec},{v},{:.1} us,{:.2} TFLOP/s",
                times[reps / 2] * 1e6,
                flops / times[reps / 2] / 1e12
            );
        }
        reset_variant();
    }
    for n in arg("--dgemm", "").split(',').filter(|s| !s.is_empty()) {
        let n: usize = n.parse()?;
        let d64 = Uniform::new(-1.0f64, 1.0)?;
        let a = Array2::random((n, n), d64);
        let b = Array2::random((n, n), d64);
        let reference = openblas::dgemm(a.view(), b.view());
        let bound = openblas::dgemm(a.mapv(f64::abs).view(), b.mapv(f64::abs).view())
            * ((n + 1) as f64 * 2f64.powi(-52));
        let (ga, gb) = (ctx.upload_matrix(&a)?, ctx.upload_matrix(&b)?);
        let mut gc = GpuMatrix::<f64>::zeros(ctx, (n, n), wgblas::MatrixLayout::RowMajor)?;
        let flops = 2.0 * (n as f64).powi(3);
        for v in &variants {
            apply_variant(v);
            // After WARM_S of steady load, as every report (timing.rs says why).
            let mut times = timing::per_call(ctx, reps, 2, || {
                blas::dgemm(
                    ctx,
                    Transpose::No,
                    Transpose::No,
                    1.0,
                    &ga,
                    &gb,
                    0.0,
                    &mut gc,
                )
                .unwrap();
            });
            times.sort_by(f64::total_cmp);
            let got = gc.to_array()?;
            let factor = got
                .iter()
                .zip(&reference)
                .zip(&bound)
                .map(|((g, r), b)| (g - r).abs() / b.max(f64::MIN_POSITIVE))
                .fold(0.0f64, f64::max);
            println!(
                "LAB64,{n},{v},{:.2},{:.2},{factor:.3}",
                flops / times[reps / 2] / 1e12,
                flops / times[0] / 1e12
            );
        }
        reset_variant();
    }
    for shape in arg("--shapes", "").split(',').filter(|s| !s.is_empty()) {
        let d: Vec<usize> = shape.split('x').map(|v| v.parse().unwrap()).collect();
        let (m, n, k) = (d[0], d[1], d[2]);
        let opa = Array2::random((m, k), dist);
        let opb = Array2::random((k, n), dist);
        let reference = sgemm_ref(&opa, &opb);
        let scale = (k as f64 + 1.0) as f32;
        let bound =
            sgemm_ref(&opa.mapv(f32::abs), &opb.mapv(f32::abs)).mapv(|v| v as f64 * scale as f64);
        let flops = 2.0 * m as f64 * n as f64 * k as f64;
        for layout in arg("--layouts", "NN-C").split(',') {
            let lb = layout.as_bytes();
            let (ta, tb, f) = (lb[0] == b'T', lb[1] == b'T', lb[3] == b'F');
            let tr = |t| if t { Transpose::Yes } else { Transpose::No };
            let ga = ctx.upload_matrix(&stored(&opa, ta, f))?;
            let gb = ctx.upload_matrix(&stored(&opb, tb, f))?;
            let cl = if f {
                wgblas::MatrixLayout::ColMajor
            } else {
                wgblas::MatrixLayout::RowMajor
            };
            let mut gc = GpuMatrix::<f32>::zeros(ctx, (m, n), cl)?;
            for v in &variants {
                apply_variant(v);
                // After WARM_S of steady load, as every report (timing.rs says why).
                let mut times = timing::per_call(ctx, reps, 2, || {
                    blas::sgemm(ctx, tr(ta), tr(tb), 1.0, &ga, &gb, 0.0, &mut gc).unwrap();
                });
                times.sort_by(f64::total_cmp);
                let got = gc.to_array()?;
                let factor = metrics::forward_factor(&got, &reference, &bound)?;
                println!(
                    "LAB,{shape},{layout},{v},{:.2},{:.2},{factor:.3}",
                    flops / times[reps / 2] / 1e12,
                    flops / times[0] / 1e12
                );
                println!(
                    "# {shape} {layout} {v}: {:.2} us a call median, {:.2} best",
                    times[reps / 2] * 1e6,
                    times[0] * 1e6
                );
            }
            reset_variant();
        }
    }
    Ok(())
}
