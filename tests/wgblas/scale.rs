//! Operands past one storage binding (issue 15): every routine that processes its operands in
//! parts (windows of one buffer, each within one binding) against hand-computed values.
//!
//! Two kinds of test: the chunk edges at cheap sizes, on a context whose binding limit is
//! lowered to 64 KiB ([`Context::set_max_binding`]: about 16,300 f32 per window), and a few
//! real operands past lavapipe's 128 MiB binding (`past_binding_*`).

use std::sync::OnceLock;

use ndarray::{s, Array1, Array2};
use wgblas::lab::{Driver, Variant};
use wgblas::{blas, Context, Error, GpuScalar, Transpose};

use crate::common::*;
use wgblas::{
    Diag::{NonUnit, Unit},
    Side::{Left, Right},
    Transpose::{No, Yes},
    Uplo::{Lower, Upper},
};

/// A context whose dispatches bind at most 64 KiB of a buffer.
fn small() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    lowered(&CTX, |c| assert_eq!(c.set_max_binding(64 << 10), 64 << 10))
}

/// Elements of one window at the lowered limit: at least this many fit (the window's alignment
/// slack is below 512 bytes), so index 20,000 lies in the second chunk of a unit-stride vector
/// and 40,000 in the third.
const N: usize = 100_003;

#[test]
fn chunked_saxpy_host_strided_and_resident() {
    let ctx = small();
    let x = Array1::from_shape_fn(N, |i| (i % 7) as f32);
    let mut y = Array1::<f32>::ones(N);
    // On a context of its own (nothing else counts there): one dispatch per window at least.
    let own = Context::new().unwrap();
    own.set_max_binding(64 << 10);
    blas::saxpy(&own, 2.0, x.view(), y.view_mut()).unwrap();
    assert!(own.dispatches() >= 7, "{} dispatches", own.dispatches());
    assert!(y
        .iter()
        .enumerate()
        .all(|(i, &v)| v == 2.0 * (i % 7) as f32 + 1.0));
    let mut y = Array1::<f32>::ones(N);
    blas::saxpy(ctx, 2.0, x.view(), y.view_mut()).unwrap();
    assert!(y
        .iter()
        .enumerate()
        .all(|(i, &v)| v == 2.0 * (i % 7) as f32 + 1.0));
    // A step-2 x (gathered) and a reversed y (its memory span, negative stride).
    let x2 = Array1::from_shape_fn(2 * N, |i| (i / 2 % 5) as f32);
    let mut y2 = Array1::<f32>::from_elem(N, 3.0);
    blas::saxpy(ctx, -1.0, x2.slice(s![..;2]), y2.slice_mut(s![..;-1])).unwrap();
    assert!(y2
        .iter()
        .enumerate()
        .all(|(i, &v)| v == 3.0 - ((N - 1 - i) % 5) as f32));
    // Resident: the result stays on the device until read.
    let xg = ctx.upload_vector(&x).unwrap();
    let mut yg = ctx.upload_vector(&Array1::<f32>::ones(N)).unwrap();
    blas::saxpy(ctx, 0.5, &xg, &mut yg).unwrap();
    let back = yg.to_array().unwrap();
    assert!(back
        .iter()
        .enumerate()
        .all(|(i, &v)| v == 0.5 * (i % 7) as f32 + 1.0));
}

#[test]
fn chunked_copy_scal_swap_rot() {
    let ctx = small();
    let x = Array1::from_shape_fn(N, |i| (i % 11) as f32 - 5.0);
    let mut y = Array1::<f32>::from_elem(N, f32::NAN);
    blas::scopy(ctx, x.view(), y.view_mut()).unwrap();
    assert_eq!(y, x);
    blas::sscal(ctx, -2.0, y.view_mut()).unwrap();
    assert!(y.iter().zip(&x).all(|(a, b)| *a == -2.0 * b));
    let mut a = x.clone();
    let mut b = Array1::<f32>::from_elem(N, 7.0);
    blas::sswap(ctx, a.view_mut(), b.view_mut()).unwrap();
    assert!(a.iter().all(|&v| v == 7.0));
    assert_eq!(b, x);
    // Rotation by (c, s) = (0, 1): x ← y, y ← −x.
    let mut p = x.clone();
    let mut q = Array1::<f32>::from_elem(N, 1.0);
    blas::srot(ctx, p.view_mut(), q.view_mut(), 0.0, 1.0).unwrap();
    assert!(p.iter().all(|&v| v == 1.0));
    assert!(q.iter().zip(&x).all(|(a, b)| *a == -b));
}

#[test]
fn chunked_reductions_host_and_resident() {
    let ctx = small();
    // Σ (i mod 5) over N = 20,000 periods of 10, plus 0 + 1 + 2: exact in f32.
    let x = Array1::from_shape_fn(N, |i| (i % 5) as f32);
    let ones = Array1::<f32>::ones(N);
    assert_eq!(blas::sdot(ctx, x.view(), ones.view()).unwrap(), 200_003.0);
    assert_eq!(blas::sasum(ctx, x.view()).unwrap(), 200_003.0);
    // ‖(2, 2, …)‖ over 90,000 entries = √360,000 = 600.
    let twos = Array1::<f32>::from_elem(90_000, 2.0);
    assert_eq!(blas::snrm2(ctx, twos.view()).unwrap(), 600.0);
    // A step-2 view (gathered): only the even indices are read.
    let x2 = Array1::from_shape_fn(2 * N, |i| if i % 2 == 0 { 1.0 } else { 1e6 });
    assert_eq!(blas::sasum(ctx, x2.slice(s![..;2])).unwrap(), N as f32);
    // Resident forms keep the total on the device.
    let xg = ctx.upload_vector(&x).unwrap();
    let og = ctx.upload_vector(&ones).unwrap();
    assert_eq!(
        wgblas::resident::sdot(ctx, &xg, &og)
            .unwrap()
            .get()
            .unwrap(),
        200_003.0
    );
    assert_eq!(
        wgblas::resident::sasum(ctx, &xg).unwrap().get().unwrap(),
        200_003.0
    );
}

#[test]
fn chunked_snrm2_special_values_in_later_chunks() {
    let ctx = small();
    // A big entry in chunk 2 (Blue's big sum) and small ones (the small sum) in chunk 3:
    // ‖x‖ = 2^100 · ‖(1, 0, …)‖ with the rest negligible: exactly 2^100 after rounding.
    let mut x = Array1::<f32>::zeros(N);
    x[20_000] = 2f32.powi(100);
    x[40_000] = 2f32.powi(-100);
    assert_eq!(blas::snrm2(ctx, x.view()).unwrap(), 2f32.powi(100));
    x[60_000] = f32::INFINITY;
    assert_eq!(blas::snrm2(ctx, x.view()).unwrap(), f32::INFINITY);
    x[90_000] = f32::NAN;
    assert!(blas::snrm2(ctx, x.view()).unwrap().is_nan());
}

#[test]
fn chunked_isamax_ties_and_nan_across_chunks() {
    let ctx = small();
    let mut x = Array1::from_shape_fn(N, |i| ((i * 7919) % 1000) as f32 / 1000.0);
    // Ties of the maximum in chunks 2, 3 and the last: the lowest index (in chunk 2) wins.
    for i in [20_000, 40_000, N - 1] {
        x[i] = -3.0;
    }
    assert_eq!(blas::isamax(ctx, x.view()).unwrap(), 20_000);
    // Ties over a run of 2,000 indices that straddles the first chunk boundary (about 16,300).
    for i in 15_500..17_500 {
        x[i] = 3.0;
    }
    assert_eq!(blas::isamax(ctx, x.view()).unwrap(), 15_500);
    // A larger value after the boundary only: found in chunk 2.
    x[16_999] = -4.0;
    assert_eq!(blas::isamax(ctx, x.view()).unwrap(), 16_999);
    // The first NaN wins over every number and every later NaN.
    x[30_000] = f32::NAN;
    x[50_000] = f32::NAN;
    x[5] = f32::INFINITY;
    assert_eq!(blas::isamax(ctx, x.view()).unwrap(), 30_000);
    // Resident: the index kept on the device.
    let xg = ctx.upload_vector(&x).unwrap();
    assert_eq!(
        wgblas::resident::isamax(ctx, &xg).unwrap().get().unwrap(),
        30_000
    );
    // A reversed view: logical index i is memory index N − 1 − i; the first NaN in logical
    // order is memory index 50,000.
    assert_eq!(
        blas::isamax(ctx, x.slice(s![..;-1])).unwrap(),
        N - 1 - 50_000
    );
}

#[test]
fn chunked_idamax_and_dasum_f64() {
    let ctx = small();
    let mut x = Array1::from_shape_fn(N, |i| (i % 3) as f64);
    // Σ (i mod 3) = 33,334·3 − ... : 100,003 = 3·33,334 + 1, so Σ = 33,334·3 + 0 = 100,002.
    assert_eq!(blas::dasum(ctx, x.view()).unwrap(), 100_002.0);
    x[12_000] = 1e300;
    x[24_000] = -1e300;
    assert_eq!(blas::idamax(ctx, x.view()).unwrap(), 12_000);
    x[36_000] = f64::NAN;
    assert_eq!(blas::idamax(ctx, x.view()).unwrap(), 36_000);
    ctx.set_force_f64_fallback(true);
    let fallback = blas::idamax(ctx, x.view());
    x[36_000] = 0.0;
    let sum = blas::dasum(ctx, x.view());
    ctx.set_force_f64_fallback(false);
    assert_eq!(fallback.unwrap(), 36_000);
    // 2·10^300 + 100,002 − 0 rounds to 2·10^300.
    assert_eq!(sum.unwrap(), 2e300);
}

#[test]
fn chunked_sgemv_every_layout_and_transpose() {
    // 300×200 (row panels), 3×20,000 (one row is past a window: column panels) and 20,000×3,
    // against OpenBLAS with the forward factor ≤ 4 of DESIGN.md §2 (`gemv::check_on`).
    let mut seed = 1500;
    for (m, n) in [(300, 200), (3, 20_000), (20_000, 3)] {
        for t in [No, Yes] {
            for la in LAYOUTS {
                for (lx, ly) in [
                    (VLayout::Unit, VLayout::Unit),
                    (VLayout::ReversedStep2, VLayout::Step2),
                ] {
                    for beta in [0.0, 0.9] {
                        seed += 1;
                        crate::gemv::check_on(small(), seed, (m, n), t, 0.7, beta, la, lx, ly);
                    }
                }
            }
        }
    }
}

#[test]
fn chunked_sgemv_resident_with_device_scalars() {
    let ctx = small();
    let mut r = rng(1600);
    let a = rand_mat(&mut r, 3, 20_000);
    let x = rand_vec(&mut r, 20_000);
    let y = rand_vec(&mut r, 3);
    let ag = ctx.upload_matrix(&a).unwrap();
    let xg = ctx.upload_vector(&x).unwrap();
    let mut yg = ctx.upload_vector(&y).unwrap();
    let (alpha, beta) = device_alpha_beta(ctx);
    let (av, bv) = (alpha.get().unwrap(), beta.get().unwrap());
    blas::sgemv(ctx, No, &alpha, &ag, &xg, &beta, &mut yg).unwrap();
    let got = yg.to_array().unwrap();
    let want = oracle::sgemv(No, av, a.view(), x.view(), bv, y.view());
    let bound = wgblas::metrics::bounds::gemv(No, av, a.view(), x.view(), bv, y.view());
    let f = wgblas::metrics::forward_factor(&got, &want, &bound).unwrap();
    crate::describe::passes("sgemv", f, "resident, device scalars");
}

/// alpha = ‖(0.6, 0.8)‖ = 1 and beta = Σ|(0.25, −0.25)| = 0.5, computed on the device.
fn device_alpha_beta(ctx: &Context) -> (GpuScalar<'_, f32>, GpuScalar<'_, f32>) {
    let up = |v: [f32; 2]| ctx.upload_vector(&Array1::from(v.to_vec())).unwrap();
    let alpha = wgblas::resident::snrm2(ctx, &up([0.6, 0.8])).unwrap();
    let beta = wgblas::resident::sasum(ctx, &up([0.25, -0.25])).unwrap();
    (alpha, beta)
}

/// Random A (m×k), Bᵀ (n×k) and C (m×n) from `seed`, uploaded to `ctx`: A in F order, Bᵀ and
/// C in C order (B is passed as `gbt.t()`, a transposed device view).
pub struct ResidentGemm<'c> {
    pub a: Array2<f32>,
    pub bt: Array2<f32>,
    pub c: Array2<f32>,
    pub ga: wgblas::GpuMatrix<'c>,
    pub gbt: wgblas::GpuMatrix<'c>,
    pub gc: wgblas::GpuMatrix<'c>,
}

impl<'c> ResidentGemm<'c> {
    pub fn new(ctx: &'c Context, seed: u64, (m, n, k): (usize, usize, usize)) -> Self {
        let mut r = rng(seed);
        let a = rand_mat(&mut r, m, k);
        let bt = rand_mat(&mut r, n, k);
        let c = rand_mat(&mut r, m, n);
        let af = a.t().as_standard_layout().into_owned().reversed_axes();
        let up = |x: &Array2<f32>| ctx.upload_matrix(x).unwrap();
        let (ga, gbt, gc) = (up(&af), up(&bt), up(&c));
        ResidentGemm {
            a,
            bt,
            c,
            ga,
            gbt,
            gc,
        }
    }
}

#[test]
fn chunked_sgemm_blocks_and_depth_panels() {
    // C in blocks (300×200), the depth in panels (40×30×3,000), a row of A past a window
    // (3×3×20,000), every layout of A, B and C, both transposes, beta = 0 (C never read) and
    // beta ≠ 0 (applied once), against OpenBLAS with the forward factor ≤ 1 (`gemm::check_on`).
    let mut seed = 1700;
    for dims in [(300, 200, 20), (40, 30, 3_000), (3, 3, 20_000)] {
        // The long thin depth is slow on lavapipe's tiles: one layout set there.
        let layouts: &[Layout] = if dims.2 > 10_000 {
            &[Layout::C]
        } else {
            &LAYOUTS
        };
        for (ta, tb) in [(No, No), (Yes, Yes)] {
            for &l in layouts {
                for beta in [0.0, 0.9] {
                    seed += 1;
                    let layouts = [
                        l,
                        LAYOUTS[(seed as usize) % 4],
                        LAYOUTS[(seed as usize / 4) % 4],
                    ];
                    crate::gemm::check_on(small(), seed, dims, ta, tb, -0.7, beta, layouts);
                }
            }
        }
    }
}

#[test]
fn past_one_buffer_is_too_large_before_any_work() {
    // An operand past 2^32 elements (the kernels' 32-bit offsets; past one buffer, operands of
    // sdot, isamax and sgemm are held in several, issue 15): `TooLarge` naming the routine and
    // the argument, before anything is allocated (a broadcast view of one element is gathered
    // only after the check), and the output unchanged.
    let ctx = ctx();
    let max = u64::from(u32::MAX) * 4;
    let n = (max / 4 + 1) as usize;
    let one = Array1::<f32>::ones(1);
    let x = one.broadcast(n).unwrap();
    let err = blas::sdot(ctx, x.view(), x.view()).unwrap_err();
    assert!(
        matches!(err, Error::TooLarge { routine: "sdot", arg: "x", limit, .. } if limit < max),
        "{err}"
    );
    let err = blas::isamax(ctx, x.view()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooLarge {
                routine: "isamax",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
    // sgemm 2×2×n: A (2×n) and B (n×2) past one buffer; C unchanged.
    let e = Array2::<f32>::ones((1, 1));
    let (a, b) = (e.broadcast((2, n)).unwrap(), e.broadcast((n, 2)).unwrap());
    let mut c = Array2::<f32>::from_elem((2, 2), 5.0);
    let err = blas::sgemm(ctx, No, No, 1.0, a, b, 1.0, c.view_mut()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooLarge {
                routine: "sgemm",
                arg: "a",
                ..
            }
        ),
        "{err}"
    );
    assert!(c.iter().all(|&v| v == 5.0));
}

#[test]
fn chunked_sger_blocks() {
    // 300×200 (row panels) and 3×20,000 (column panels), every layout, against the f64
    // reference with the forward factor ≤ 2 (`ger::check_on`).
    let mut seed = 1800;
    for dims in [(300, 200), (3, 20_000)] {
        for la in LAYOUTS {
            for (lx, ly) in [
                (VLayout::Unit, VLayout::Unit),
                (VLayout::Reversed, VLayout::Step2),
            ] {
                seed += 1;
                crate::ger::check_on(small(), seed, dims, -0.7, la, lx, ly);
            }
        }
    }
}

#[test]
fn chunked_ssyrk_and_sgemmtr_triangle_blocks() {
    // C 150×150 (22,500 f32, past the lowered binding): the triangle in square blocks (the
    // diagonal ones in the triangle variant), the depth 200 in panels where A's blocks need it;
    // both triangles, both transposes, beta = 0 and not, against OpenBLAS with the forward
    // factor ≤ 1, the other triangle unchanged (`syrk::check_on`, `gemmtr::check_on`).
    each_triangle_case(1900, |seed, uplo, t, beta, l| {
        let (cx, d) = (small(), (150, 200));
        crate::syrk::check_on(cx, seed, d, uplo, t, 0.7, beta, [l, Layout::C]);
        let layouts = [l, Layout::F, Layout::C];
        crate::gemmtr::check_on(cx, seed, d, uplo, t, No, -0.7, beta, layouts);
    });
}

/// Both triangles, both transposes, beta = 0 and 0.9, each with the next seed after `seed` and
/// a layout of A from [`LAYOUTS`] by that seed.
fn each_triangle_case(mut seed: u64, case: impl Fn(u64, wgblas::Uplo, Transpose, f32, Layout)) {
    for uplo in [wgblas::Uplo::Lower, wgblas::Uplo::Upper] {
        for t in [No, Yes] {
            for beta in [0.0, 0.9] {
                seed += 1;
                case(seed, uplo, t, beta, LAYOUTS[(seed as usize) % 4]);
            }
        }
    }
}

#[test]
fn chunked_ssyr2k_two_passes_in_blocks() {
    // As `chunked_ssyrk_and_sgemmtr_triangle_blocks`, for ssyr2k's two passes (forward factor
    // ≤ 1 with DESIGN.md §2's syr2k bound, `syr2k::check_on`).
    each_triangle_case(2000, |seed, uplo, t, beta, l| {
        let layouts = [l, Layout::C, Layout::F];
        crate::syr2k::check_on(small(), seed, (150, 200), uplo, t, 0.7, beta, layouts);
    });
}

#[test]
fn chunked_sgemm_resident_transposed_views_and_device_scalars() {
    // Resident operands past the lowered binding (A 200×300 F order, B as a transposed device
    // view, C C order), alpha and beta held on the device: C blocks and depth panels on
    // windows of the resident buffers, beta read on the device once per C block.
    let ctx = small();
    let ResidentGemm {
        a,
        bt,
        c,
        ga,
        gbt,
        mut gc,
    } = ResidentGemm::new(ctx, 2100, (200, 90, 300));
    let (alpha, beta) = device_alpha_beta(ctx);
    let (av, bv) = (alpha.get().unwrap(), beta.get().unwrap());
    blas::sgemm(ctx, No, No, &alpha, &ga, gbt.t(), &beta, &mut gc).unwrap();
    let b = bt.t().to_owned();
    let want = oracle::sgemm(No, No, av, a.view(), b.view(), bv, c.view());
    let bound = wgblas::metrics::bounds::gemm(No, No, av, a.view(), b.view(), bv, c.view());
    let f = wgblas::metrics::forward_factor(&gc.to_array().unwrap(), &want, &bound).unwrap();
    crate::describe::passes("sgemm", f, "resident, device scalars");
}

#[test]
fn chunked_ssyr_and_ssyr2_square_blocks() {
    // A 150×150 past the lowered binding: diagonal blocks in the triangle kernel, the others
    // by the general update (ssyr2: two of them), NaN in the other triangle never read nor
    // written, every layout, against the f64 reference with the forward factor ≤ 2
    // (`syr::check_on`, `syr2::check_on`).
    let (cx, rev, step2, unit) = (small(), VLayout::Reversed, VLayout::Step2, VLayout::Unit);
    each_square_case(2200, |seed, uplo, la| {
        crate::syr::check_on(cx, seed, 150, uplo, 0.7, la, rev);
        crate::syr2::check_on(cx, seed, 150, uplo, -0.7, la, step2, unit);
    });
}

#[test]
fn chunked_rank_updates_on_main_pre() {
    // As `chunked_sger_blocks` (300×200) and `chunked_ssyr_and_ssyr2_square_blocks`, the
    // blocks on `main_pre` where their unit stride allows it (lab `Experimental`).
    let (cx, rev, unit) = (small(), VLayout::Reversed, VLayout::Unit);
    crate::bandwidth::with_variant(Driver::RankUpdate, Variant::Experimental, || {
        for (k, la) in LAYOUTS.into_iter().enumerate() {
            crate::ger::check_on(cx, 1900 + k as u64, (300, 200), -0.7, la, unit, unit);
        }
        each_square_case(2300, |seed, uplo, la| {
            crate::syr::check_on(cx, seed, 150, uplo, 0.7, la, rev);
            crate::syr2::check_on(cx, seed, 150, uplo, -0.7, la, unit, rev);
        });
    });
}

/// Both triangles and every layout of A, each with the next seed after `seed`.
fn each_square_case(mut seed: u64, case: impl Fn(u64, wgblas::Uplo, Layout)) {
    for uplo in [wgblas::Uplo::Lower, wgblas::Uplo::Upper] {
        for la in LAYOUTS {
            seed += 1;
            case(seed, uplo, la);
        }
    }
}

#[test]
fn chunked_ssymv_and_strmv_square_blocks() {
    // A 150×150 past the lowered binding, NaN outside its triangle (and on a unit diagonal),
    // every layout, both triangles (and transposes, diagonals for strmv), against OpenBLAS /
    // the f64 reference with the routines' forward factors (`symv::check_on`, `trmv::check_on`).
    let (cx, rev, step2, unit) = (small(), VLayout::Reversed, VLayout::Step2, VLayout::Unit);
    each_square_case(2300, |seed, uplo, la| {
        crate::symv::check_on(cx, seed, 150, uplo, 0.7, 0.9, la, unit, rev);
        crate::symv::check_on(cx, seed, 150, uplo, -0.7, 0.0, la, step2, unit);
        for (t, d) in [(No, NonUnit), (Yes, Unit)] {
            crate::trmv::check_on(cx, seed, 150, uplo, t, d, la, rev);
        }
    });
}

#[test]
fn chunked_strsv_block_substitution() {
    // A 150×150 past the lowered binding: block substitution, both triangles and transposes,
    // unit and non-unit diagonals, every layout, backward residual factor ≤ 3
    // (`trsv::check_on`).
    let mut seed = 2400;
    for uplo in [wgblas::Uplo::Lower, wgblas::Uplo::Upper] {
        for la in LAYOUTS {
            for (t, d) in [(No, wgblas::Diag::NonUnit), (Yes, wgblas::Diag::Unit)] {
                seed += 1;
                crate::trsv::check_on(small(), seed, 150, uplo, t, d, 1.0, la, VLayout::Reversed);
            }
        }
    }
}

#[test]
fn chunked_ssymm_and_strmm_blocks() {
    // A 150×150 (structured, NaN outside its triangle and, for strmm, on a unit diagonal) and
    // B, C 150×120 past the lowered binding, both sides, both triangles, against OpenBLAS /
    // the f64 reference with the forward factor ≤ 1 (`symm::check_on`, `trmm::check_on`).
    let mut seed = 2500;
    for side in [Left, Right] {
        for uplo in [Lower, Upper] {
            seed += 1;
            let l = LAYOUTS[(seed as usize) % 4];
            let dims = if side == Left { (150, 120) } else { (120, 150) };
            for beta in [0.0, 0.9] {
                crate::symm::check_on(
                    small(),
                    seed,
                    dims,
                    side,
                    uplo,
                    0.7,
                    beta,
                    [l, Layout::C, Layout::F],
                );
            }
            for (t, d) in [(No, NonUnit), (Yes, Unit)] {
                crate::trmm::check_on(small(), seed, dims, side, uplo, t, d, -0.7, [l, Layout::F]);
            }
        }
    }
}

#[test]
fn chunked_last_part_of_one_element() {
    // Lengths around one window (16,256 or 16,320 f32 at the lowered binding, by the adapter's
    // offset alignment): a last part of a single element at the buffer's end still binds 16
    // bytes. Σ 1 = n, and y = 2·x + y exactly.
    let ctx = small();
    for n in (16_250..16_330).chain([32_513, 32_641]) {
        let x = Array1::<f32>::ones(n);
        assert_eq!(blas::sasum(ctx, x.view()).unwrap(), n as f32, "n = {n}");
        let mut y = Array1::from_shape_fn(n, |i| i as f32);
        blas::saxpy(ctx, 2.0, x.view(), y.view_mut()).unwrap();
        assert!(
            y.iter().enumerate().all(|(i, &v)| v == i as f32 + 2.0),
            "n = {n}"
        );
    }
}
