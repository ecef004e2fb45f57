//! Level 3 speed report on GPU-resident operands: GPU time (timestamp queries, kernels only) of
//! sgemm in every transpose and storage order, of sgemm on the rectangular shape set, of the
//! other Level 3 routines and of sgemm_batched (shape `BxMxNxK`, C order, per product checked), each result checked with its DESIGN.md §2 metric at sizes up to
//! `--check` (against OpenBLAS for the forward factors, by the backward residual for strsm), so
//! every figure is a strict-FP32 result that passes.
//!
//! Every measurement prints one `ROW,<routine>,<shape>,<layout>,resident,TFLOP/s,<value>` line
//! (`../shared/BENCH.md`; flops counted per routine: 2mnk for gemm, n³ for syrk, gemmtr, trmm
//! and trsm, 2n³ for syr2k and symm), the median of `--reps` after 2 warm-ups, with the best
//! run and the factor on a `#` line beside it.
//!
//! f64 (where the adapter has `SHADER_F64`): dgemm NN-C at `--dgemm-n` (section `dgemm`) and
//! dgemm_batched on the `--batched` shapes (section `dbatched`), checked against OpenBLAS
//! dgemm with eps = 2^-52.
//!
//! Run: `cargo run --release --example level3_report -- [--sections sgemm,rect,level3,batched,dgemm,dbatched]
//! [--dgemm-n 4096,8192]
//! [--batched 10000x32x32x32,256x512x512x512]
//! [--n 1024,2048,4096,8192] [--layouts NN-C,NT-C,...] [--rect all|4096x4096x128,...]
//! [--level3-n 4096] [--reps 11] [--check 2048]`

extern crate blas_src;

extern "C" {
    fn openblas_set_num_threads(n: std::os::raw::c_int);
}

use ndarray::{Array2, ShapeBuilder};
use ndarray_rand::rand_distr::Uniform;
use ndarray_rand::RandomExt;
use wgblas::metrics::{self, bounds};
use wgblas::{blas, Context, Diag, GpuMatrix, MatrixLayout, Side, Transpose, Uplo};

const RECT: &str =
    "4096x4096x128,4096x4096x1024,128x4096x4096,8192x64x8192,64x8192x8192,4097x4097x4097,1000x1000x1000,3000x5000x700";
const BATCHED: &str = "10000x32x32x32,256x512x512x512";
const LAYOUTS: &str = "NN-C,NT-C,TN-C,TT-C,NN-F,NT-F,TN-F,TT-F";

#[path = "support/args.rs"]
mod args;
#[path = "support/openblas.rs"]
mod openblas;
#[path = "support/timing.rs"]
mod timing;

/// The flags and their defaults; anything else on the command line is an error.
const FLAGS: &[(&str, &str)] = &[
    ("--reps", "11"),
    ("--check", "2048"),
    ("--sections", "sgemm,rect,level3,batched,dgemm,dbatched"),
    ("--dgemm-n", "4096,8192"),
    ("--batched", BATCHED),
    ("--layouts", LAYOUTS),
    ("--n", "1024,2048,4096,8192"),
    ("--rect", "all"),
    ("--level3-n", "4096,"),
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

use args::sizes as list;

/// GPU times (s) of one call of `f`: `reps` samples of [`timing::per_call`] (2 warm-up calls,
/// batches of about 1 ms after [`timing::WARM_S`] of them), sorted.
fn time(ctx: &Context, reps: usize, f: impl FnMut()) -> Vec<f64> {
    let mut v = timing::per_call(ctx, reps, 2, f);
    v.sort_by(f64::total_cmp);
    v
}

fn row(routine: &str, shape: &str, layout: &str, flops: f64, t: &[f64], check: &str) {
    let med = flops / t[t.len() / 2] / 1e12;
    let best = flops / t[0] / 1e12;
    println!("ROW,{routine},{shape},{layout},resident,TFLOP/s,{med:.2}");
    let ms = t[t.len() / 2] * 1e3;
    println!(
        "# {routine} {shape} {layout}: median {med:.2}, best {best:.2} TFLOP/s ({ms:.3} ms); {check}"
    );
}

fn order(f_order: bool) -> MatrixLayout {
    if f_order {
        MatrixLayout::ColMajor
    } else {
        MatrixLayout::RowMajor
    }
}

/// `v` as an array in F (column-major) or C order.
fn in_order(v: &Array2<f32>, f_order: bool) -> Array2<f32> {
    if f_order {
        let mut out = Array2::zeros(v.dim().f());
        out.assign(v);
        out
    } else {
        v.to_owned()
    }
}

fn tr(c: u8) -> Transpose {
    if c == b'T' {
        Transpose::Yes
    } else {
        Transpose::No
    }
}

/// The stored shape of an operand whose op form is rows×cols.
fn stored(t: Transpose, rows: usize, cols: usize) -> (usize, usize) {
    match t {
        Transpose::No => (rows, cols),
        Transpose::Yes => (cols, rows),
    }
}

/// sgemm m×n×k in `layout` (e.g. `TN-F`), timed, checked at sizes ≤ `check`.
fn sgemm(
    ctx: &Context,
    (m, n, k): (usize, usize, usize),
    layout: &str,
    reps: usize,
    check: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let dist = Uniform::new(-1.0f32, 1.0)?;
    let lb = layout.as_bytes();
    let (ta, tb, f) = (tr(lb[0]), tr(lb[1]), lb[3] == b'F');
    let a = in_order(&Array2::random(stored(ta, m, k), dist), f);
    let b = in_order(&Array2::random(stored(tb, k, n), dist), f);
    let (ga, gb) = (ctx.upload_matrix(&a)?, ctx.upload_matrix(&b)?);
    let mut gc = GpuMatrix::<f32>::zeros(ctx, (m, n), order(f))?;
    let t = time(ctx, reps, || {
        blas::sgemm(ctx, ta, tb, 1.0, &ga, &gb, 0.0, &mut gc).unwrap()
    });
    let mut metric = String::from("factor not checked at this size");
    if m.max(n).max(k) <= check {
        let got = gc.to_array()?;
        let zero = Array2::<f32>::zeros((m, n));
        let mut reference = zero.clone();
        wgblas_oracle_sgemm(ta, tb, &a, &b, &mut reference);
        let bound = bounds::gemm(ta, tb, 1.0, a.view(), b.view(), 0.0, zero.view());
        let fct = metrics::forward_factor(&got, &reference, &bound)?;
        metric = format!("forward factor {fct:.3} (≤ 1)");
    }
    let flops = 2.0 * m as f64 * n as f64 * k as f64;
    row("sgemm", &format!("{m}x{n}x{k}"), layout, flops, &t, &metric);
    Ok(())
}

/// OpenBLAS sgemm, row-major, `c = op(a)·op(b)`.
fn wgblas_oracle_sgemm(
    ta: Transpose,
    tb: Transpose,
    a: &Array2<f32>,
    b: &Array2<f32>,
    c: &mut Array2<f32>,
) {
    use cblas_sys::*;
    let (a, b) = (a.as_standard_layout(), b.as_standard_layout());
    let (m, n) = c.dim();
    let k = if ta == Transpose::No {
        a.ncols()
    } else {
        a.nrows()
    };
    let t = |t| {
        if t == Transpose::No {
            CBLAS_TRANSPOSE::CblasNoTrans
        } else {
            CBLAS_TRANSPOSE::CblasTrans
        }
    };
    unsafe {
        cblas_sgemm(
            CBLAS_LAYOUT::CblasRowMajor,
            t(ta),
            t(tb),
            m as i32,
            n as i32,
            k as i32,
            1.0,
            a.as_ptr(),
            a.ncols().max(1) as i32,
            b.as_ptr(),
            b.ncols().max(1) as i32,
            0.0,
            c.as_mut_ptr(),
            n.max(1) as i32,
        )
    }
}

/// The other Level 3 routines at n×n×n, C order, resident.
fn level3(
    ctx: &Context,
    n: usize,
    reps: usize,
    check: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let dist = Uniform::new(-1.0f32, 1.0)?;
    let (no, yes, lo, up) = (Transpose::No, Transpose::Yes, Uplo::Lower, Uplo::Upper);
    let (left, right, nonunit) = (Side::Left, Side::Right, Diag::NonUnit);
    let a = Array2::random((n, n), dist);
    let b = Array2::random((n, n), dist);
    let c0 = Array2::random((n, n), dist);
    // A lower triangle with a dominant diagonal (NaN above: never read), for trmm and trsm.
    let t = Array2::from_shape_fn((n, n), |(i, j)| {
        if i == j {
            2.0 + a[[i, j]].abs()
        } else if i > j {
            a[[i, j]] / n as f32
        } else {
            f32::NAN
        }
    });
    let (ga, gb, gt) = (
        ctx.upload_matrix(&a)?,
        ctx.upload_matrix(&b)?,
        ctx.upload_matrix(&t)?,
    );
    let nf = n as f64;
    let cases: [(&str, &str, f64); 8] = [
        ("sgemmtr", "-", nf.powi(3)),
        ("ssyrk", "-", nf.powi(3)),
        ("ssyr2k", "-", 2.0 * nf.powi(3)),
        ("ssymm", "L", 2.0 * nf.powi(3)),
        ("strmm", "L", nf.powi(3)),
        ("strmm", "R", nf.powi(3)),
        ("strsm", "L", nf.powi(3)),
        ("strsm", "R", nf.powi(3)),
    ];
    for (name, side, flops) in cases {
        let mut gc =
            ctx.upload_matrix(if name.starts_with("strmm") || name.starts_with("strsm") {
                &b
            } else {
                &c0
            })?;
        let run = |gc: &mut GpuMatrix<f32>| {
            match (name, side) {
                ("sgemmtr", _) => blas::sgemmtr(ctx, lo, no, no, 1.0, &ga, &gb, 0.5, gc),
                ("ssyrk", _) => blas::ssyrk(ctx, up, no, 1.0, &ga, 0.5, gc),
                ("ssyr2k", _) => blas::ssyr2k(ctx, lo, yes, 1.0, &ga, &gb, 0.5, gc),
                ("ssymm", _) => blas::ssymm(ctx, left, lo, 1.0, &gt, &gb, 0.5, gc),
                ("strmm", "L") => blas::strmm(ctx, left, lo, no, nonunit, 1.0, &gt, gc),
                ("strmm", _) => blas::strmm(ctx, right, lo, yes, nonunit, 1.0, &gt, gc),
                ("strsm", "L") => blas::strsm(ctx, left, lo, no, nonunit, 1.0, &gt, gc),
                _ => blas::strsm(ctx, right, lo, yes, nonunit, 1.0, &gt, gc),
            }
            .unwrap()
        };
        let times = time(ctx, reps, || run(&mut gc));
        let mut metric = String::from("not checked at this size");
        if n <= check {
            let start = if name.starts_with("strmm") || name.starts_with("strsm") {
                &b
            } else {
                &c0
            };
            let mut g = ctx.upload_matrix(start)?;
            run(&mut g);
            let got = g.to_array()?;
            let sd = if side == "R" { right } else { left };
            let trn = if side == "R" { yes } else { no };
            metric = if name == "strsm" {
                let res = metrics::trsm_residual(
                    sd,
                    lo,
                    trn,
                    nonunit,
                    1.0,
                    t.view(),
                    got.view(),
                    b.view(),
                )?;
                let bound = bounds::trsm(sd, lo, trn, nonunit, t.view(), got.view());
                format!(
                    "backward residual factor {:.3} (≤ 5)",
                    metrics::backward_residual_factor(&res, &bound)?
                )
            } else {
                let (reference, bound) = reference(name, sd, &a, &b, &c0, &t);
                format!(
                    "forward factor {:.3} (≤ 1)",
                    metrics::forward_factor(&got, &reference, &bound)?
                )
            };
        }
        let layout = if side == "-" {
            "-".to_string()
        } else {
            format!("{side}-C")
        };
        row(
            name,
            &format!("{n}x{n}x{n}"),
            &layout,
            flops,
            &times,
            &metric,
        );
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let reps: usize = arg("--reps", "11").parse()?;
    let check: usize = arg("--check", "2048").parse()?;
    let sections = arg("--sections", "sgemm,rect,level3,batched,dgemm,dbatched");
    // The checks' OpenBLAS calls use a quarter of the cores: OpenBLAS's threads keep spinning
    // on every core after a call, and GPU work submitted meanwhile ran at a quarter of its
    // speed on the H200 (benches/results/2026-11-30-probe-memory/README.md, sgemm at 2048).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // SAFETY: a plain setter of OpenBLAS's thread count, called before any OpenBLAS work.
    unsafe { openblas_set_num_threads((cores / 4).max(1) as std::os::raw::c_int) };
    let ctx = Context::shared()?;
    ctx.set_profiling(true);
    let info = ctx.adapter_info();
    println!(
        "# adapter: {} ({:?}), driver {} {}",
        info.name, info.backend, info.driver, info.driver_info
    );
    println!("# GPU time of resident calls (timestamp queries around batches of back-to-back calls of about 1 ms, kernels only); median of {reps} after 2 warm-ups");
    if sections.contains("sgemm") {
        let layouts = arg("--layouts", LAYOUTS);
        for n in list(&arg("--n", "1024,2048,4096,8192")) {
            for layout in layouts.split(',') {
                sgemm(ctx, (n, n, n), layout, reps, check)?;
            }
        }
    }
    if sections.contains("rect") {
        let rect = arg("--rect", "all");
        let rect = if rect == "all" {
            RECT.to_string()
        } else {
            rect
        };
        for shape in rect.split(',') {
            let d = list(&shape.replace('x', ","));
            sgemm(ctx, (d[0], d[1], d[2]), "NN-C", reps, check)?;
        }
    }
    if sections.contains("level3") {
        for n in list(&arg("--level3-n", "4096,")) {
            level3(ctx, n, reps, check)?;
        }
    }
    let batched = || -> Result<Vec<Vec<usize>>, Box<dyn std::error::Error>> {
        arg("--batched", BATCHED)
            .split(',')
            .map(|shape| {
                let d = list(&shape.replace('x', ","));
                if d.len() == 4 {
                    Ok(d)
                } else {
                    Err(format!("--batched: {shape} is not BxMxNxK").into())
                }
            })
            .collect()
    };
    let has = |name: &str| sections.split(',').any(|s| s == name);
    if has("batched") {
        for d in batched()? {
            sgemm_batched(ctx, d[0], (d[1], d[2], d[3]), reps, check)?;
        }
    }
    let f64_wanted = has("dgemm") || has("dbatched");
    if f64_wanted && !ctx.native_f64() {
        println!("# dgemm, dgemm_batched: this adapter has no SHADER_F64; no f64 rows");
    } else {
        if has("dgemm") {
            for n in list(&arg("--dgemm-n", "4096,8192")) {
                dgemm(ctx, 1, (n, n, n), reps, check)?;
            }
        }
        if has("dbatched") {
            for d in batched()? {
                dgemm(ctx, d[0], (d[1], d[2], d[3]), reps, check)?;
            }
        }
    }
    Ok(())
}

/// dgemm (`batch` = 1, shape `MxNxK`) or dgemm_batched (`BxMxNxK`) on resident C-order f64
/// operands, NN-C, timed, each product checked against OpenBLAS dgemm (eps = 2^-52) at sizes
/// ≤ `check`.
fn dgemm(
    ctx: &Context,
    batch: usize,
    (m, n, k): (usize, usize, usize),
    reps: usize,
    check: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    use ndarray::{Array3, Axis};
    let dist = Uniform::new(-1.0f64, 1.0)?;
    let no = Transpose::No;
    let flops = 2.0 * batch as f64 * m as f64 * n as f64 * k as f64;
    let a = Array3::random((batch, m, k), dist);
    let b = Array3::random((batch, k, n), dist);
    let (got, t, routine, shape) = if batch == 1 {
        let (a2, b2) = (a.index_axis(Axis(0), 0), b.index_axis(Axis(0), 0));
        let (ga, gb) = (ctx.upload_matrix(&a2)?, ctx.upload_matrix(&b2)?);
        let mut gc = GpuMatrix::<f64>::zeros(ctx, (m, n), MatrixLayout::RowMajor)?;
        let t = time(ctx, reps, || {
            blas::dgemm(ctx, no, no, 1.0, &ga, &gb, 0.0, &mut gc).unwrap()
        });
        let got = gc.to_array()?.insert_axis(Axis(0));
        (got, t, "dgemm", format!("{m}x{n}x{k}"))
    } else {
        let (ga, gb) = (ctx.upload_batch(&a)?, ctx.upload_batch(&b)?);
        let mut gc = wgblas::GpuBatch::<f64>::zeros(ctx, (batch, m, n))?;
        let t = time(ctx, reps, || {
            blas::dgemm_batched(ctx, no, no, 1.0, &ga, &gb, 0.0, &mut gc).unwrap()
        });
        (
            gc.to_array()?,
            t,
            "dgemm_batched",
            format!("{batch}x{m}x{n}x{k}"),
        )
    };
    let mut metric = String::from("factor not checked at this size");
    if m.max(n).max(k) <= check {
        let zero = Array2::<f64>::zeros((m, n));
        let mut worst = 0.0f64;
        for p in 0..batch {
            let (ap, bp) = (a.index_axis(Axis(0), p), b.index_axis(Axis(0), p));
            let reference = openblas::dgemm(ap.view(), bp.view());
            let bound = bounds::dgemm(no, no, 1.0, ap, bp, 0.0, zero.view());
            let g = got.index_axis(Axis(0), p);
            worst = worst.max(metrics::forward_factor_f64(&g, &reference, &bound)?);
        }
        metric = format!("largest forward factor (eps 2^-52) {worst:.3} (≤ 1)");
    }
    row(routine, &shape, "NN-C", flops, &t, &metric);
    Ok(())
}

/// sgemm_batched of `batch` products m×n×k on resident C-order batches (NN-C), timed, each
/// product checked against OpenBLAS at sizes ≤ `check`.
fn sgemm_batched(
    ctx: &Context,
    batch: usize,
    (m, n, k): (usize, usize, usize),
    reps: usize,
    check: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    use ndarray::{Array3, Axis};
    let dist = Uniform::new(-1.0f32, 1.0)?;
    let a = Array3::random((batch, m, k), dist);
    let b = Array3::random((batch, k, n), dist);
    let (ga, gb) = (ctx.upload_batch(&a)?, ctx.upload_batch(&b)?);
    let mut gc = wgblas::GpuBatch::<f32>::zeros(ctx, (batch, m, n))?;
    let no = Transpose::No;
    let t = time(ctx, reps, || {
        blas::sgemm_batched(ctx, no, no, 1.0, &ga, &gb, 0.0, &mut gc).unwrap()
    });
    let mut metric = String::from("factor not checked at this size");
    if m.max(n).max(k) <= check {
        let got = gc.to_array()?;
        let zero = Array2::<f32>::zeros((m, n));
        let mut worst = 0.0f64;
        for p in 0..batch {
            let (ap, bp) = (
                a.index_axis(Axis(0), p).to_owned(),
                b.index_axis(Axis(0), p).to_owned(),
            );
            let mut reference = zero.clone();
            wgblas_oracle_sgemm(no, no, &ap, &bp, &mut reference);
            let bound = bounds::gemm(no, no, 1.0, ap.view(), bp.view(), 0.0, zero.view());
            let g = got.index_axis(Axis(0), p).to_owned();
            worst = worst.max(metrics::forward_factor(&g, &reference, &bound)?);
        }
        metric = format!("largest forward factor over the batch {worst:.3} (≤ 1)");
    }
    let flops = 2.0 * batch as f64 * m as f64 * n as f64 * k as f64;
    let shape = format!("{batch}x{m}x{n}x{k}");
    row("sgemm_batched", &shape, "NN-C", flops, &t, &metric);
    if m.max(n) <= 64 {
        // The same batch on the tile kernel (one 64×64 tile per product), for comparison with
        // the small-product kernel that the row above measures.
        use wgblas::tuning::{set_tuning, Tuning};
        set_tuning(Some(Tuning {
            batch_small: Some(false),
            ..Tuning::default()
        }));
        let t2 = time(ctx, reps, || {
            blas::sgemm_batched(ctx, no, no, 1.0, &ga, &gb, 0.0, &mut gc).unwrap()
        });
        set_tuning(None);
        let med = flops / t2[t2.len() / 2] / 1e12;
        println!(
            "# sgemm_batched {shape} NN-C on the tile kernel instead: median {med:.2} TFLOP/s ({:.3} ms)",
            t2[t2.len() / 2] * 1e3
        );
    }
    Ok(())
}

/// OpenBLAS's result and the §2 bound for the forward-factor routines of the report.
fn reference(
    name: &str,
    side: Side,
    a: &Array2<f32>,
    b: &Array2<f32>,
    c0: &Array2<f32>,
    t: &Array2<f32>,
) -> (Array2<f32>, Array2<f64>) {
    use cblas_sys::*;
    let n = a.nrows() as i32;
    let (row, ntr, tr) = (
        CBLAS_LAYOUT::CblasRowMajor,
        CBLAS_TRANSPOSE::CblasNoTrans,
        CBLAS_TRANSPOSE::CblasTrans,
    );
    let (clo, cup) = (CBLAS_UPLO::CblasLower, CBLAS_UPLO::CblasUpper);
    let (no, yes) = (Transpose::No, Transpose::Yes);
    let mut r = c0.clone();
    // The lower triangle of t with zeros above, for OpenBLAS (which gets no NaN).
    let tl = t.mapv(|v| if v.is_nan() { 0.0 } else { v });
    let right = side == Side::Right;
    unsafe {
        match name {
            "sgemmtr" => cblas_sgemm(
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
            "ssymm" => cblas_ssymm(
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
                    if right {
                        CBLAS_SIDE::CblasRight
                    } else {
                        CBLAS_SIDE::CblasLeft
                    },
                    clo,
                    if right { tr } else { ntr },
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
        "ssymm" => bounds::symm(
            Side::Left,
            Uplo::Lower,
            1.0,
            t.view(),
            b.view(),
            0.5,
            c0.view(),
        ),
        _ => bounds::trmm(
            side,
            Uplo::Lower,
            if right { yes } else { no },
            Diag::NonUnit,
            1.0,
            t.view(),
            b.view(),
        ),
    };
    (r, bound)
}
