//! Level 3 speed report on GPU-resident operands: GPU time (timestamp queries, kernels only) of
//! sgemm in every transpose and storage order, of sgemm on the rectangular shape set, of the
//! other Level 3 routines and of sgemm_batched (shape `BxMxNxK`, C order, per product checked),
//! on the operands of their test descriptions (`tests/wgblas/describe`, through
//! `benches/support/described.rs`), each result checked at sizes up to `--check` as the tests
//! check it: the description's measure against OpenBLAS (forward factors; the backward residual
//! for strsm) within its threshold of `metrics::spec` (a failure panics), so every figure is a
//! strict-FP32 result that passes.
//!
//! Every measurement prints one `ROW,<routine>,<shape>,<layout>,resident,TFLOP/s,<value>` line
//! (`../shared/BENCH.md`; flops counted per routine: 2mnk for gemm, n³ for syrk, gemmtr, trmm
//! and trsm, 2n³ for syr2k and symm), the median of `--reps` after 2 warm-ups, with the best
//! run and the factor on a `#` line beside it.
//!
//! f64 (where the adapter has `SHADER_F64`): dgemm NN-C at `--dgemm-n` (section `dgemm`) and
//! dgemm_batched on the `--batched` shapes (section `dbatched`), on the f64 forms of the same
//! descriptions, checked against OpenBLAS dgemm with eps = 2^-52.
//!
//! Section `trsm` (not in the default list): strsm (left and right) and, with `SHADER_F64`,
//! dtrsm (left) at `--level3-n`, once per `--trsm-inverse` setting (`off`: the crate's
//! default (row-parallel block solves of 32 rows), layout `L-C`; `columns`: the per-column block solves of 32 rows
//! (`Tuning::trsm_rows` 0), `L-C-columns`; `rows32`, `rows64`, `rows128`: the row-parallel
//! block solves of `Tuning::trsm_rows` on blocks of that many rows, `L-C-rows32` and so on; on the inverted diagonal blocks of
//! `Tuning::trsm_inverse`, by leaf form `Tuning::trsm_leaf`: `on` or `refined`, the fused leaf
//! with one refinement step, layout `L-C-inv`; `fused`, without refinement, `L-C-inv-fused`;
//! `engine`, the tile-engine product leaf of session 7, `L-C-inv-engine`). The refined leaf on
//! operands staged in workgroup memory that session 10 timed here lost
//! (`benches/results/2026-12-02-s10/README.md`) and is gone.
//!
//! Section `trmm` (not in the default list): strmm (left, lower; right, lower transposed) at
//! `--level3-n`, once per `--tri-order` setting (`heavy`: the rows of tiles with the longest k
//! range first, `Tuning::tri_heavy_first`, the default, layout `L-C-heavy`; `grid`: the grid's
//! order, `L-C-grid`; `noswap`: heavy first without the transposed problem of a column-major
//! C, `Tuning::swap` off, `R-C-noswap`: the right side then stores down C's columns).
//!
//! Run: `cargo run --release --example level3_report -- [--sections sgemm,rect,level3,batched,dgemm,dbatched]
//! [--trsm-inverse off,columns,rows32,rows64,rows128,on,fused,engine] [--tri-order heavy,grid,noswap]
//! [--dgemm-n 4096,8192]
//! [--batched 10000x32x32x32,256x512x512x512]
//! [--n 1024,2048,4096,8192] [--layouts NN-C,NT-C,...] [--rect all|4096x4096x128,...]
//! [--level3-n 4096] [--small-variant direct,tile] [--reps 11] [--check 2048] [--checks 0|1|2]
//! [--fma auto|on|off]`
//!
//! `--small-variant` (sections `batched` and `dbatched`): the batches with m, n ≤ 32 once per
//! kernel, comma-separated: `direct` (entry `gemm_small`, the default, layout `NN-C`) or `tile`
//! (the tile engine, `Tuning::batch_small` off, layout `NN-C-tile`). The staged small-product
//! kernel that session 10 timed here lost (`benches/results/2026-12-02-s10/README.md`) and is
//! gone.
//!
//! `--checks`: the shader modules' runtime checks (`wgblas::lab::set_shader_checks`; auto: the
//! crate's choice per shader, the default; 0: wgpu's checked mode, 1: without naga's index clamps, 2: also without its loop bounding).

extern crate blas_src;

extern "C" {
    fn openblas_set_num_threads(n: std::os::raw::c_int);
}

use wgblas::{Context, Diag, Side, Transpose, Uplo};

const RECT: &str =
    "4096x4096x128,4096x4096x1024,128x4096x4096,8192x64x8192,64x8192x8192,4097x4097x4097,1000x1000x1000,3000x5000x700";
const BATCHED: &str = "10000x32x32x32,256x512x512x512";
const LAYOUTS: &str = "NN-C,NT-C,TN-C,TT-C,NN-F,NT-F,TN-F,TT-F";

#[path = "support/args.rs"]
mod args;
#[path = "support/timing.rs"]
mod timing;

#[path = "../benches/support/described.rs"]
mod described;
use described::*;

use common::{BLayout, Layout};
use describe::timing::Timed;
use describe::{Case, Elem, Routine};

/// The flags and their defaults; anything else on the command line is an error.
const FLAGS: &[(&str, &str)] = &[
    ("--reps", "11"),
    ("--checks", "auto"),
    ("--fma", "auto"),
    ("--check", "2048"),
    ("--sections", "sgemm,rect,level3,batched,dgemm,dbatched"),
    ("--dgemm-n", "4096,8192"),
    ("--batched", BATCHED),
    ("--layouts", LAYOUTS),
    ("--n", "1024,2048,4096,8192"),
    ("--rect", "all"),
    ("--level3-n", "4096,"),
    ("--trsm-inverse", "off,on"),
    ("--tri-order", "heavy,grid"),
    ("--small-variant", "direct"),
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

fn tr(c: u8) -> Transpose {
    if c == b'T' {
        Transpose::Yes
    } else {
        Transpose::No
    }
}

/// The GPU times of description `R`'s call on `case` (resident operands: row-major, or
/// column-major where the case is in F order), and, when `checked`, the verdict of a fresh
/// checked call (the description's measure against OpenBLAS within its threshold; a failure
/// panics).
fn timed<R: Routine, T: Elem>(
    ctx: &Context,
    case: Case,
    reps: usize,
    checked: bool,
) -> (Vec<f64>, String) {
    let mut t = Timed::<R, T>::unchecked(case, true);
    let times = time(ctx, reps, || t.call(ctx));
    drop(t);
    let verdict = if checked {
        Timed::<R, T>::new(ctx, case, true).verdict()
    } else {
        String::from("not checked at this size")
    };
    (times, verdict)
}

/// sgemm m×n×k in `layout` (e.g. `TN-F`), timed, checked at sizes ≤ `check`.
fn sgemm(ctx: &Context, (m, n, k): (usize, usize, usize), layout: &str, reps: usize, check: usize) {
    let lb = layout.as_bytes();
    let (ta, tb) = (tr(lb[0]), tr(lb[1]));
    let l = if lb[3] == b'F' { Layout::F } else { Layout::C };
    let case = Case::mnk((m * n + k) as u64, m, n, k)
        .flags(Uplo::Upper, ta, Diag::NonUnit)
        .transb(tb)
        .mats([l; 3]);
    let checked = m.max(n).max(k) <= check;
    let (t, metric) = timed::<gemm::Gemm, f32>(ctx, case, reps, checked);
    let flops = 2.0 * m as f64 * n as f64 * k as f64;
    row("sgemm", &format!("{m}x{n}x{k}"), layout, flops, &t, &metric);
}

/// The other Level 3 routines at n×n×n, C order, resident: alpha = 1, beta = 0.5, the lower
/// triangle (the upper for ssyrk), a non-unit diagonal; `flops` per call: n³ for syrk, gemmtr,
/// trmm and trsm, 2n³ for syr2k and symm.
fn level3(ctx: &Context, n: usize, reps: usize, check: usize) {
    let (no, yes, lo, up) = (Transpose::No, Transpose::Yes, Uplo::Lower, Uplo::Upper);
    let (left, right) = (Side::Left, Side::Right);
    let case = |uplo, trans, side| {
        Case::mnk(n as u64, n, n, n)
            .flags(uplo, trans, Diag::NonUnit)
            .side(side)
            .scalars(1.0, 0.5)
    };
    let n3 = (n as f64).powi(3);
    let shape = format!("{n}x{n}x{n}");
    // One routine: timed (and checked), its ROW printed.
    let one = |name: &str, layout: &str, flops: f64, (times, metric): (Vec<f64>, String)| {
        row(name, &shape, layout, flops, &times, &metric)
    };
    let c = n <= check;
    one(
        "sgemmtr",
        "-",
        n3,
        timed::<gemmtr::Gemmtr, f32>(ctx, case(lo, no, left), reps, c),
    );
    one(
        "ssyrk",
        "-",
        n3,
        timed::<syrk::Syrk, f32>(ctx, case(up, no, left), reps, c),
    );
    let syr2k = timed::<syr2k::Syr2k, f32>(ctx, case(lo, yes, left), reps, c);
    one("ssyr2k", "-", 2.0 * n3, syr2k);
    one(
        "ssymm",
        "L-C",
        2.0 * n3,
        timed::<symm::Symm, f32>(ctx, case(lo, no, left), reps, c),
    );
    one(
        "strmm",
        "L-C",
        n3,
        timed::<trmm::Trmm, f32>(ctx, case(lo, no, left), reps, c),
    );
    one(
        "strmm",
        "R-C",
        n3,
        timed::<trmm::Trmm, f32>(ctx, case(lo, yes, right), reps, c),
    );
    one(
        "strsm",
        "L-C",
        n3,
        timed::<trsm::Trsm, f32>(ctx, case(lo, no, left), reps, c),
    );
    one(
        "strsm",
        "R-C",
        n3,
        timed::<trsm::Trsm, f32>(ctx, case(lo, yes, right), reps, c),
    );
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
    // The lab's shader-check mode of every kernel (auto: the crate's choice per shader, the default).
    let checks = args::shader_checks(&arg("--checks", "auto"));
    wgblas::lab::set_shader_checks(checks);
    println!("# shader modules: {checks:?} (lab)");
    // The tile engine's register tile by fma() (on), by c + a·b (off), or the crate's choice.
    let fma = match arg("--fma", "auto").as_str() {
        "on" => Some(true),
        "off" => Some(false),
        "auto" => None,
        v => return Err(format!("--fma: on, off or auto, not {v}").into()),
    };
    wgblas::lab::set_gemm_fma(fma);
    println!("# gemm fma: {fma:?} (lab)");
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
                sgemm(ctx, (n, n, n), layout, reps, check);
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
            sgemm(ctx, (d[0], d[1], d[2]), "NN-C", reps, check);
        }
    }
    if sections.contains("level3") {
        for n in list(&arg("--level3-n", "4096,")) {
            level3(ctx, n, reps, check);
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
    if has("trsm") {
        use wgblas::tuning::TrsmLeaf;
        for setting in arg("--trsm-inverse", "off,on").split(',') {
            let (leaf, suffix) = match setting {
                "off" => (None, ""),
                "columns" => (None, "-columns"),
                "rows32" => (None, "-rows32"),
                "rows64" => (None, "-rows64"),
                "rows128" => (None, "-rows128"),
                "on" | "refined" => (Some(TrsmLeaf::Refined), "-inv"),
                "fused" => (Some(TrsmLeaf::Fused), "-inv-fused"),
                "engine" => (Some(TrsmLeaf::Engine), "-inv-engine"),
                _ => {
                    let e = format!(
                        "--trsm-inverse: {setting} is not off, columns, rows32, rows64, rows128, on, refined, fused or engine"
                    );
                    return Err(e.into());
                }
            };
            wgblas::tuning::set_tuning(Some(wgblas::tuning::Tuning {
                trsm_inverse: Some(leaf.is_some()),
                trsm_leaf: leaf,
                trsm_rows: match setting {
                    "columns" => Some(0),
                    _ => setting.strip_prefix("rows").and_then(|n| n.parse().ok()),
                },
                ..Default::default()
            }));
            for n in list(&arg("--level3-n", "4096,")) {
                tri_rows::<trsm::Trsm>(ctx, n, ("strsm", Some("dtrsm")), suffix, (reps, check));
            }
            wgblas::tuning::set_tuning(None);
        }
    }
    if has("trmm") {
        for setting in arg("--tri-order", "heavy,grid").split(',') {
            let (heavy, swap) = match setting {
                "heavy" => (true, None),
                "grid" => (false, None),
                "noswap" => (true, Some(false)),
                _ => {
                    let e = format!("--tri-order: {setting} is not heavy, grid or noswap");
                    return Err(e.into());
                }
            };
            wgblas::tuning::set_tuning(Some(wgblas::tuning::Tuning {
                tri_heavy_first: Some(heavy),
                swap,
                ..Default::default()
            }));
            for n in list(&arg("--level3-n", "4096,")) {
                let suffix = format!("-{setting}");
                tri_rows::<trmm::Trmm>(ctx, n, ("strmm", None), &suffix, (reps, check));
            }
            wgblas::tuning::set_tuning(None);
        }
    }
    let variants = small_variants(&arg("--small-variant", "direct"))?;
    if has("batched") {
        for d in batched()? {
            for (i, (tuning, suffix)) in variants.iter().enumerate() {
                // Only batches with m, n ≤ 32 run on the small kernel: the others once.
                if i > 0 && d[1].max(d[2]) > 32 {
                    continue;
                }
                wgblas::tuning::set_tuning(*tuning);
                sgemm_batched(ctx, d[0], (d[1], d[2], d[3]), suffix, reps, check);
                wgblas::tuning::set_tuning(None);
            }
        }
    }
    let f64_wanted = has("dgemm") || has("dbatched");
    if f64_wanted && !ctx.native_f64() {
        println!("# dgemm, dgemm_batched: this adapter has no SHADER_F64; no f64 rows");
    } else {
        if has("dgemm") {
            for n in list(&arg("--dgemm-n", "4096,8192")) {
                dgemm(ctx, 1, (n, n, n), "", reps, check);
            }
        }
        if has("dbatched") {
            for d in batched()? {
                for (i, (tuning, suffix)) in variants.iter().enumerate() {
                    if i > 0 && d[1].max(d[2]) > 32 {
                        continue;
                    }
                    wgblas::tuning::set_tuning(*tuning);
                    dgemm(ctx, d[0], (d[1], d[2], d[3]), suffix, reps, check);
                    wgblas::tuning::set_tuning(None);
                }
            }
        }
    }
    Ok(())
}

/// Routine `R` (strmm or strsm: `names`, with its f64 twin's name where the f64 row is
/// wanted) left, lower, and right, lower transposed, at n×n with n right-hand sides, as in
/// [`level3`], the layout suffixed by `suffix` (that of the tuning the caller set); the f64
/// row (left) with `SHADER_F64`.
fn tri_rows<R: Routine>(
    ctx: &Context,
    n: usize,
    (name, name64): (&str, Option<&str>),
    suffix: &str,
    (reps, check): (usize, usize),
) {
    let (no, yes, lo) = (Transpose::No, Transpose::Yes, Uplo::Lower);
    let case = |trans, side| {
        Case::mnk(n as u64, n, n, n)
            .flags(lo, trans, Diag::NonUnit)
            .side(side)
            .scalars(1.0, 0.5)
    };
    let (n3, shape, c) = ((n as f64).powi(3), format!("{n}x{n}x{n}"), n <= check);
    let (t, m) = timed::<R, f32>(ctx, case(no, Side::Left), reps, c);
    row(name, &shape, &format!("L-C{suffix}"), n3, &t, &m);
    let (t, m) = timed::<R, f32>(ctx, case(yes, Side::Right), reps, c);
    row(name, &shape, &format!("R-C{suffix}"), n3, &t, &m);
    if let Some(name64) = name64.filter(|_| ctx.native_f64()) {
        let (t, m) = timed::<R, f64>(ctx, case(no, Side::Left), reps, c);
        row(name64, &shape, &format!("L-C{suffix}"), n3, &t, &m);
    }
}

/// dgemm (`batch` = 1, shape `MxNxK`) or dgemm_batched (`BxMxNxK`) on resident C-order f64
/// operands, NN-C (its layout field suffixed by `suffix`, the small-kernel form the caller's
/// tuning picks), timed, checked at sizes ≤ `check` (each product against OpenBLAS dgemm,
/// eps = 2^-52).
fn dgemm(
    ctx: &Context,
    batch: usize,
    (m, n, k): (usize, usize, usize),
    suffix: &str,
    reps: usize,
    check: usize,
) {
    let flops = 2.0 * batch as f64 * m as f64 * n as f64 * k as f64;
    let case = Case::mnk((m * n + k) as u64, m, n, k);
    let checked = m.max(n).max(k) <= check;
    let (t, metric) = if batch == 1 {
        timed::<gemm::Gemm, f64>(ctx, case, reps, checked)
    } else {
        let case = case.batched(batch, [BLayout::C; 3]);
        timed::<gemm_batched::GemmBatched, f64>(ctx, case, reps, checked)
    };
    let (routine, shape) = if batch == 1 {
        ("dgemm", format!("{m}x{n}x{k}"))
    } else {
        ("dgemm_batched", format!("{batch}x{m}x{n}x{k}"))
    };
    row(
        routine,
        &shape,
        &format!("NN-C{suffix}"),
        flops,
        &t,
        &metric,
    );
}

/// The forms of `--small-variant`: each its tuning (`None`: the default) and layout suffix.
type Variants = Vec<(Option<wgblas::tuning::Tuning>, String)>;

/// Parse `--small-variant` (`direct`: the small-product kernel, the default; `tile`: the tile
/// engine, `Tuning::batch_small` off).
fn small_variants(flag: &str) -> Result<Variants, Box<dyn std::error::Error>> {
    let mut v = Vec::new();
    for item in flag.split(',') {
        match item {
            "direct" => v.push((None, String::new())),
            "tile" => v.push((
                Some(wgblas::tuning::Tuning {
                    batch_small: Some(false),
                    ..Default::default()
                }),
                String::from("-tile"),
            )),
            _ => return Err(format!("--small-variant: {item} is not direct or tile").into()),
        }
    }
    Ok(v)
}

/// sgemm_batched of `batch` products m×n×k on resident C-order batches (NN-C, the layout field
/// suffixed by `suffix`, the small-kernel form the caller's tuning picks), timed, each product
/// checked against OpenBLAS at sizes ≤ `check`; for the default form (no suffix) and m, n ≤ 64
/// the same batch on the tile kernel beside it.
fn sgemm_batched(
    ctx: &Context,
    batch: usize,
    (m, n, k): (usize, usize, usize),
    suffix: &str,
    reps: usize,
    check: usize,
) {
    let case = Case::mnk((m * n + k) as u64, m, n, k).batched(batch, [BLayout::C; 3]);
    let checked = m.max(n).max(k) <= check;
    let (t, metric) = timed::<gemm_batched::GemmBatched, f32>(ctx, case, reps, checked);
    let flops = 2.0 * batch as f64 * m as f64 * n as f64 * k as f64;
    let shape = format!("{batch}x{m}x{n}x{k}");
    row(
        "sgemm_batched",
        &shape,
        &format!("NN-C{suffix}"),
        flops,
        &t,
        &metric,
    );
    if m.max(n) <= 64 && suffix.is_empty() {
        // The same batch on the tile kernel (one 64×64 tile per product), for comparison with
        // the small-product kernel that the row above measures.
        use wgblas::tuning::{set_tuning, Tuning};
        let mut tile = Timed::<gemm_batched::GemmBatched, f32>::unchecked(case, true);
        set_tuning(Some(Tuning {
            batch_small: Some(false),
            ..Tuning::default()
        }));
        let t2 = time(ctx, reps, || tile.call(ctx));
        set_tuning(None);
        let med = flops / t2[t2.len() / 2] / 1e12;
        println!(
            "# sgemm_batched {shape} NN-C on the tile kernel instead: median {med:.2} TFLOP/s ({:.3} ms)",
            t2[t2.len() / 2] * 1e3
        );
    }
}
