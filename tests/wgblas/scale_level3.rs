//! Level 3 past one storage binding (issue 15) beyond the f32 products of `scale.rs`: `strsm`
//! and `dtrsm` by blocked substitution, and the f64 products (`dgemm`, `dsyrk`, `dgemmtr`,
//! `dsyr2k`, `dsymm`, `dtrmm`) on the blocks of their f32 twins, and the batched products in
//! parts of the batch, against OpenBLAS with each routine's metric (`metrics::spec`), and
//! against hand-computed values.
//!
//! Cheap sizes on a context whose binding limit is lowered to 64 KiB
//! ([`Context::set_max_binding`]): A of 150×150 is three diagonal blocks of 64, 64 and 22 rows,
//! B of 150×120 two or three column panels; one real B past lavapipe's 128 MiB binding
//! (`past_binding_strsm_right_side`).

use std::sync::OnceLock;

use ndarray::{Array1, Array2};
use wgblas::{blas, metrics, Context, Error, GpuScalar};

use crate::common::*;
use crate::describe::{self, Case, Elem, Routine};
use crate::gemm::Gemm;
use crate::gemmtr::Gemmtr;
use crate::symm::Symm;
use crate::syr2k::Syr2k;
use crate::syrk::Syrk;
use crate::trmm::Trmm;
use crate::trsm::Trsm;
use wgblas::Diag::{NonUnit, Unit};
use wgblas::Side::{Left, Right};
use wgblas::Transpose::{No, Yes};
use wgblas::Uplo::{Lower, Upper};

/// The lowered context of this file: dispatches bind at most 64 KiB of a buffer.
fn small() -> &'static Context {
    static LOWERED: OnceLock<Context> = OnceLock::new();
    let limit = 64 << 10;
    lowered(&LOWERED, |c| assert_eq!(c.set_max_binding(limit), limit))
}

/// Whether `ctx` runs f64 shaders; where it does not, the f64 routines must say so
/// (`Unsupported`) rather than compute anything.
fn f64_runs(ctx: &Context) -> bool {
    if ctx.native_f64() {
        return true;
    }
    let mut c = Array2::<f64>::zeros((1, 1));
    let err = blas::dgemm(ctx, No, No, 1.0, &c.clone(), &c.clone(), 0.0, &mut c).unwrap_err();
    assert!(matches!(err, Error::Unsupported { .. }), "{err}");
    false
}

/// One case of an f64 routine on the lowered context (its f32 twin's cases are `scale.rs`'s),
/// host operands, and resident ones where `resident`.
fn f64_case<R: Routine>(case: &Case, resident: bool) {
    describe::check_on::<R, f64>(small(), case);
    if resident {
        describe::check_resident_on::<R, f64>(small(), case);
    }
}

/// B `m`×`n` (A of order m for `Left`, n for `Right`), flags `fl`, alpha, layouts of A and B,
/// and ill conditioned where `ill` (the description's triangles, `trsm::Trsm`).
pub(crate) fn trsm_case(
    seed: u64,
    side: wgblas::Side,
    fl: (wgblas::Uplo, wgblas::Transpose, wgblas::Diag),
    alpha: f64,
    [la, lb]: [Layout; 2],
    ill: bool,
) -> Case {
    let (m, n) = if side == Left { (150, 120) } else { (120, 150) };
    Case {
        diag_lo: if ill { 0.5 } else { 1.0 },
        ..Case::new(seed, m, n)
            .side(side)
            .flags(fl.0, fl.1, fl.2)
            .scalars(alpha, 0.0)
            .mats([la, lb, Layout::C])
    }
}

#[test]
fn chunked_strsm_and_dtrsm_every_flag() {
    chunked_every_flag(5000);
}

/// [`chunked_strsm_and_dtrsm_every_flag`] on inverted diagonal blocks with refined leaves
/// (`Tuning::trsm_inverse`, `TrsmLeaf::Refined`, pinned on this thread): each diagonal block
/// of the grid solved by its leaves.
#[test]
fn chunked_strsm_and_dtrsm_on_refined_inverted_blocks() {
    use wgblas::tuning::{set_tuning, TrsmLeaf, Tuning};
    set_tuning(Some(Tuning {
        trsm_inverse: Some(true),
        trsm_leaf: Some(TrsmLeaf::Refined),
        ..Tuning::default()
    }));
    chunked_every_flag(5100);
    set_tuning(None);
}

/// [`chunked_strsm_and_dtrsm_every_flag`] on the row-parallel block solves of 128 rows
/// (`Tuning::trsm_rows`, pinned on this thread; the default, 32, runs in
/// [`chunked_strsm_and_dtrsm_every_flag`]).
#[test]
fn chunked_strsm_and_dtrsm_on_row_parallel_blocks_of_128() {
    use wgblas::tuning::{set_tuning, Tuning};
    set_tuning(Some(Tuning {
        trsm_inverse: Some(false),
        trsm_rows: Some(128),
        ..Tuning::default()
    }));
    chunked_every_flag(5300);
    set_tuning(None);
}

/// Every side, triangle, transpose and diagonal; A in every layout (a transposed view in F
/// order among them), B in C and F order; well and ill conditioned, alpha 0.7 and −1: the
/// backward residual factor of `metrics::spec` (strsm, dtrsm), and the resident form; seeds
/// from `seed0 + 1`.
fn chunked_every_flag(seed0: u64) {
    let mut seed = seed0;
    for side in [Left, Right] {
        for uplo in [Lower, Upper] {
            for trans in [No, Yes] {
                for diag in [NonUnit, Unit] {
                    seed += 1;
                    let la = LAYOUTS[seed as usize % 4];
                    let lb = [Layout::C, Layout::F][seed as usize / 4 % 2];
                    let alpha = [0.7, -1.0][seed as usize % 2];
                    let case = trsm_case(seed, side, (uplo, trans, diag), alpha, [la, lb], false);
                    describe::check_on::<Trsm, f32>(small(), &case);
                    if f64_runs(small()) {
                        describe::check_on::<Trsm, f64>(small(), &case);
                    }
                    if seed.is_multiple_of(3) {
                        describe::check_resident_on::<Trsm, f32>(small(), &case);
                    }
                    let ill = trsm_case(seed, side, (uplo, trans, diag), 1.0, [la, lb], true);
                    describe::check_on::<Trsm, f32>(small(), &ill);
                }
            }
        }
    }
}

/// alpha = ‖(0.3, 0.4)‖ = 0.5 on the device (f32), and 0.5 = (0.5, 0.25)·(0.5, 1) (f64).
pub(crate) fn device_half(ctx: &Context) -> (GpuScalar<'_, f32>, Option<GpuScalar<'_, f64>>) {
    let up = |v: [f32; 2]| ctx.upload_vector(&Array1::from(v.to_vec())).unwrap();
    let s = wgblas::resident::snrm2(ctx, &up([0.3, 0.4])).unwrap();
    let d = f64_runs(ctx).then(|| {
        let up = |v: [f64; 2]| ctx.upload_vector(&Array1::from(v.to_vec())).unwrap();
        wgblas::resident::ddot(ctx, &up([0.5, 0.25]), &up([0.5, 1.0])).unwrap()
    });
    (s, d)
}

/// The backward residual factor of `x` solving `op(a)·x = alpha·b` (or `x·op(a)`), in units of
/// `T`'s eps.
#[allow(clippy::too_many_arguments)]
pub(crate) fn trsm_factor<T: Elem + metrics::Real>(
    (s, u, t, d): (wgblas::Side, wgblas::Uplo, wgblas::Transpose, wgblas::Diag),
    alpha: T,
    a: &Array2<T>,
    x: &Array2<T>,
    b: &Array2<T>,
) -> f64 {
    let res = metrics::trsm_residual(s, u, t, d, alpha, a.view(), x.view(), b.view()).unwrap();
    let bound = metrics::bounds::trsm(s, u, t, d, a.view(), x.view());
    T::backward(
        Array1::from_iter(res).view(),
        Array1::from_iter(bound).view(),
    )
}

#[test]
fn chunked_strsm_device_alpha_transposed_views_and_special_values() {
    // Resident A (F order, passed as its transposed device view: the other triangle) and B
    // past the lowered binding, alpha on the device (0.5): every block's solve scales by it,
    // the updates reading the unscaled rows. Then alpha = 0 on the device with NaN in A and B:
    // B = 0 exactly; a host NaN alpha: every element NaN (as reference BLAS, B ← alpha·B
    // first).
    let ctx = small();
    let (half, half64) = device_half(ctx);
    let case = trsm_case(5100, Left, (Lower, No, NonUnit), 1.0, [Layout::C; 2], false);
    let o = Trsm::inputs::<f32>(&mut rng(5100), &case);
    // The lowered binding does block the solve: more dispatches than the whole one (fresh
    // contexts, so that no other test's calls count).
    let dispatches = |binding: Option<u64>| {
        let own = Context::new().unwrap();
        binding.map(|b| own.set_max_binding(b));
        let mut b = o.b.clone();
        blas::strsm(&own, Left, Lower, No, NonUnit, 1.0, &o.a, &mut b).unwrap();
        own.dispatches()
    };
    assert!(dispatches(Some(64 << 10)) > dispatches(None));
    let a_f = o.a.t().as_standard_layout().into_owned().reversed_axes();
    // ga.t() holds Aᵀ: its upper triangle is A's lower one.
    let (ga, at) = (ctx.upload_matrix(&a_f).unwrap(), o.a.t().to_owned());
    let flags = (Left, Upper, Yes, Unit);
    let mut gb = ctx.upload_matrix(&o.b).unwrap();
    blas::strsm(
        ctx,
        flags.0,
        flags.1,
        flags.2,
        flags.3,
        &half,
        ga.t(),
        &mut gb,
    )
    .unwrap();
    let f = trsm_factor(flags, 0.5f32, &at, &gb.to_array().unwrap(), &o.b);
    describe::passes("strsm", f, "resident, device alpha, transposed A");
    if let Some(half64) = &half64 {
        let (a, b) = (at.mapv(f64::from), o.b.mapv(f64::from));
        let mut gb = ctx.upload_matrix(&b).unwrap();
        let ga = ctx.upload_matrix(&a).unwrap();
        blas::dtrsm(
            ctx, flags.0, flags.1, flags.2, flags.3, half64, &ga, &mut gb,
        )
        .unwrap();
        let f = trsm_factor(flags, 0.5f64, &a, &gb.to_array().unwrap(), &b);
        // In units of f64's eps, under its f32 twin's threshold (as `describe::threshold`).
        describe::passes("strsm", f, "dtrsm, resident, device alpha");
    }
    let nan = Array2::<f32>::from_elem((150, 150), f32::NAN);
    let zero = wgblas::resident::sasum(ctx, &ctx.upload_vector(&Array1::zeros(2)).unwrap());
    let mut gb = ctx
        .upload_matrix(&Array2::<f32>::from_elem((150, 120), f32::NAN))
        .unwrap();
    blas::strsm(ctx, Left, Lower, No, NonUnit, &zero.unwrap(), &nan, &mut gb).unwrap();
    assert!(gb.to_array().unwrap().iter().all(|&v| v == 0.0));
    // A 120×120 corner of the lower-stored A (its span past the binding) on the right.
    let corner = o.a.slice(ndarray::s![..120, ..120]);
    let mut b = o.b.clone();
    blas::strsm(ctx, Right, Lower, No, NonUnit, f32::NAN, corner, &mut b).unwrap();
    assert!(b.iter().all(|v| v.is_nan()));
}

#[test]
fn past_binding_strsm_right_side() {
    // B of m×9 f32 one row past the adapter's storage binding (on lavapipe 3,728,271 rows,
    // 128 MiB + 28 bytes; on the H200 59,652,324 rows, 2 GiB) with a 9×9 A, side Right: the
    // solve in panels of B's rows, each within one binding; the backward residual factor of
    // `metrics::spec` over all of B.
    let m = (ctx().max_binding() / 36 + 1) as usize;
    let case = Case::new(5200, m, 9)
        .side(Right)
        .flags(Upper, No, NonUnit)
        .scalars(0.7, 0.0);
    describe::check_on::<Trsm, f32>(ctx(), &case);
}

#[test]
fn chunked_dgemm_blocks_panels_and_special_values() {
    // C in blocks (150×100), the depth in panels (40×30×600), both transposes, every layout
    // of A, beta = 0 (C NaN, never read) and beta ≠ 0, against OpenBLAS with dgemm's forward
    // factor; resident too. Then by hand: alpha = beta = 0 with NaN everywhere gives C = 0,
    // beta = NaN gives NaN, across blocks.
    if !f64_runs(small()) {
        return;
    }
    let mut seed = 5300;
    for (m, n, k) in [(150, 100, 20), (40, 30, 600)] {
        for (ta, tb) in [(No, No), (Yes, Yes)] {
            for beta in [0.0, 0.9] {
                seed += 1;
                let layouts = [LAYOUTS[seed as usize % 4], Layout::F, Layout::C];
                let case = Case::mnk(seed, m, n, k)
                    .flags(Upper, ta, NonUnit)
                    .transb(tb)
                    .scalars(-0.7, beta)
                    .mats(layouts);
                f64_case::<Gemm>(&case, beta == 0.0);
            }
        }
    }
    let nan = Array2::<f64>::from_elem((150, 150), f64::NAN);
    let mut c = nan.clone();
    blas::dgemm(small(), No, Yes, 0.0, &nan, &nan, 0.0, &mut c).unwrap();
    assert!(c.iter().all(|&v| v == 0.0));
    let mut c = Array2::<f64>::ones((150, 150));
    blas::dgemm(
        small(),
        No,
        No,
        1.0,
        &c.clone(),
        &c.clone(),
        f64::NAN,
        &mut c,
    )
    .unwrap();
    assert!(c.iter().all(|v| v.is_nan()));
}

#[test]
fn chunked_f64_triangle_and_structured_blocks() {
    // dsyrk, dgemmtr, dsyr2k (C 150×150 in square blocks, depth 200 in panels) and dsymm,
    // dtrmm (A 150×150 in square blocks), both triangles, transposes, sides and diagonals,
    // beta = 0 (C NaN, never read) and not, against OpenBLAS with each routine's metric;
    // resident cases of each.
    if !f64_runs(small()) {
        return;
    }
    let mut seed = 5400;
    for (uplo, t, side, diag) in [(Lower, No, Left, NonUnit), (Upper, Yes, Right, Unit)] {
        seed += 1;
        let (l, beta) = (LAYOUTS[seed as usize % 4], [0.0, 0.9][seed as usize % 2]);
        let tri = |c: Case| c.flags(uplo, t, NonUnit).scalars(0.7, beta);
        let on = || tri(Case::mnk(seed, 150, 150, 200));
        let resident = seed % 2 == 0;
        f64_case::<Syrk>(&on().mats([l, Layout::C, Layout::F]), resident);
        f64_case::<Gemmtr>(&on().transb(t).mats([l, Layout::F, Layout::C]), !resident);
        f64_case::<Syr2k>(&on().mats([l, Layout::C, Layout::F]), resident);
        let (m, n) = if side == Left { (150, 120) } else { (120, 150) };
        let st = || tri(Case::new(seed, m, n).side(side)).mats([l, Layout::F, Layout::C]);
        f64_case::<Symm>(&st(), !resident);
        f64_case::<Trmm>(&st().flags(uplo, t, diag).scalars(-0.7, 0.0), resident);
    }
}

#[test]
fn chunked_gemm_batched_in_parts() {
    // 40 products of 30×20, depth 25: each batch past the lowered binding (C: 24,000 f32),
    // run in parts of consecutive products; C-order batches, batches of F-order matrices,
    // reversed and gathered ones, beta = 0 (C NaN, never read) and not, f32, f64 and resident,
    // against OpenBLAS per product (`gemm_batched::GemmBatched`).
    use crate::common::BLayout::{FMat, Reversed, Strided, C};
    use crate::gemm_batched::{bcase, GemmBatched};
    use ndarray::ShapeBuilder;
    let cases = [
        ((No, No), [C, FMat, Reversed], (0.7, 0.9)),
        ((Yes, Yes), [Strided, C, FMat], (-1.0, 0.0)),
    ];
    for (seed, (t, layouts, ab)) in (5500..).zip(cases) {
        let case = bcase(seed, 40, (30, 20, 25), t, ab, layouts);
        describe::check_on::<GemmBatched, f32>(small(), &case);
        if f64_runs(small()) {
            describe::check_on::<GemmBatched, f64>(small(), &case);
        }
        describe::check_resident_on::<GemmBatched, f32>(small(), &case);
    }
    // One A shared by the batch (batch stride 0) with C in C order (in parts), then with C
    // interleaved (the whole 3-D array in F order, batch stride 1: one product's span is the
    // whole batch, past the binding, so each product runs in blocks), against OpenBLAS per
    // product.
    let mut r = rng(5510);
    let a = rand_mat(&mut r, 30, 25);
    let b = ndarray::Array3::from_shape_fn((40, 25, 20), |_| value(&mut r));
    let c = ndarray::Array3::from_shape_fn((40, 30, 20), |_| value(&mut r));
    let shared = a.broadcast((40, 30, 25)).unwrap();
    let mut interleaved = ndarray::Array3::<f32>::zeros((40, 30, 20).f());
    interleaved.assign(&c);
    for (mut got, what) in [(c.clone(), "in parts"), (interleaved, "C interleaved")] {
        blas::sgemm_batched(small(), No, No, 0.7, shared, &b, 0.9, &mut got).unwrap();
        for p in 0..40 {
            let at = |x: &ndarray::Array3<f32>| x.index_axis(ndarray::Axis(0), p).to_owned();
            let (bp, cp) = (at(&b), at(&c));
            let want = oracle::sgemm(No, No, 0.7, a.view(), bp.view(), 0.9, cp.view());
            let bound = metrics::bounds::gemm(No, No, 0.7, a.view(), bp.view(), 0.9, cp.view());
            let f = metrics::forward_factor(&at(&got), &want, &bound).unwrap();
            describe::passes("sgemm", f, &format!("sgemm_batched, shared A, {what}"));
        }
    }
}
