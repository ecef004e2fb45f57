//! Products past one storage binding whose depth runs over several panels (A and B, or A and
//! x, bound a window at a time; issue 15): alpha scales the whole sum once, `alpha·(A·B)`, as
//! in one call, and beta is applied once (DESIGN.md §3: the result does not depend on how the
//! operands are cut). On a context whose dispatches bind at most 4 KiB (1,024 f32, 512 f64),
//! with depth 3,000 (every row of A past one binding) or order 64, against hand-computed values:
//! - `A = e_1`-like operands whose panels' sums differ in kind, so that alpha = Inf gives
//!   Inf·1 = Inf, where scaling each panel apart gave Inf·0 + Inf·1 = NaN;
//! - rows `[4, 0, …, 0, 1]` and `[1, 0, …, 0, −3.5]`, whose dot product is 0.5, so that a huge
//!   alpha (1e38, 1e308) gives alpha/2, where each panel scaled apart overflowed to
//!   Inf − Inf = NaN.
//!
//! An outside probe found this on sgemm, dgemm, dgemm_batched, ssymm and ssymv; the other
//! routines that cut their depth past one binding are here too (sgemv, dgemv, dsymv, ssyrk,
//! sgemmtr, ssyr2k, strmm), with host and device alphas.

use std::sync::OnceLock;

use ndarray::{Array1, Array2, Array3};
use wgblas::layout::Scalar;
use wgblas::{blas, resident, Context, Diag, Side, Transpose::No, Transpose::Yes, Uplo};

use crate::common::lowered;

/// A context whose dispatches bind at most 4 KiB of a buffer.
fn small() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    lowered(&CTX, |c| assert_eq!(c.set_max_binding(4096), 4096))
}

/// Depth of the general products: 12,000 bytes a row of f32 A.
const K: usize = 3000;
/// Order of the symmetric and triangular operands: 16 KiB of f32.
const N: usize = 64;

/// 2×k: rows `[4, 0, …, 0, 1]` and `[1, 0, …, 0, −3.5]` (their dot product 0.5).
fn cancelling<T: From<f32> + Clone>(k: usize) -> Array2<T> {
    let mut a = Array2::from_elem((2, k), T::from(0.0));
    a[[0, 0]] = T::from(4.0);
    a[[0, k - 1]] = T::from(1.0);
    a[[1, 0]] = T::from(1.0);
    a[[1, k - 1]] = T::from(-3.5);
    a
}

/// 1×k: 1 at the start, the rest 0 (only the first panel's sum is not 0).
fn first<T: From<f32> + Clone>(k: usize) -> Array2<T> {
    let mut a = Array2::from_elem((1, k), T::from(0.0));
    a[[0, 0]] = T::from(1.0);
    a
}

/// `alpha` as a host value and as a device scalar of `ctx` (the exact dot product `[v]·[1]`).
fn alphas32(ctx: &'static Context, v: f32) -> Vec<(Scalar<'static, f32>, &'static str)> {
    let dev = resident::sdot(ctx, &ndarray::array![v], &ndarray::array![1.0f32]).unwrap();
    let dev: &'static _ = Box::leak(Box::new(dev));
    vec![(Scalar::Host(v), "host"), (Scalar::from(dev), "device")]
}

/// [`alphas32`] in f64.
fn alphas64(ctx: &'static Context, v: f64) -> Vec<(Scalar<'static, f64>, &'static str)> {
    let dev = resident::ddot(ctx, &ndarray::array![v], &ndarray::array![1.0f64]).unwrap();
    let dev: &'static _ = Box::leak(Box::new(dev));
    vec![(Scalar::Host(v), "host"), (Scalar::from(dev), "device")]
}

#[test]
fn sgemm_and_sgemv_scale_the_whole_sum_once() {
    let ctx = small();
    let (e, a) = (first::<f32>(K), cancelling::<f32>(K));
    let (r0, r1) = (a.row(0).to_owned(), a.row(1).to_owned());
    for (alpha, form) in alphas32(ctx, f32::INFINITY) {
        let mut c = Array2::<f32>::from_elem((1, 1), f32::NAN);
        blas::sgemm(ctx, No, Yes, alpha, e.view(), e.view(), 0.0, c.view_mut()).unwrap();
        assert_eq!(c[[0, 0]], f32::INFINITY, "sgemm, alpha Inf {form}");
        let mut y = Array1::<f32>::from_elem(1, f32::NAN);
        let x = Array1::<f32>::ones(K);
        blas::sgemv(ctx, No, alpha, e.view(), x.view(), 0.0, y.view_mut()).unwrap();
        assert_eq!(y[0], f32::INFINITY, "sgemv, alpha Inf {form}");
    }
    for (alpha, form) in alphas32(ctx, 1e38) {
        // C = alpha·A·Aᵀ + beta·C: the off-diagonal 0.5·1e38 = 5e37 (the diagonal 17e38 and
        // 13.25e38 overflow, rightly), beta·C = 0.5·2 added once.
        let mut c = Array2::<f32>::from_elem((2, 2), 2.0);
        blas::sgemm(ctx, No, Yes, alpha, a.view(), a.view(), 0.5, c.view_mut()).unwrap();
        assert_eq!(c[[0, 1]], 5e37, "sgemm {form}");
        assert_eq!(c[[1, 0]], 5e37, "sgemm {form}");
        assert_eq!(c[[0, 0]], f32::INFINITY, "sgemm {form}");
        // y = alpha·[r0]·r1 (the row of A contiguous: column panels) and alpha·[r0]ᵀᵀ in F
        // order (the transposed A, a column of A per row of op(A)).
        let ar = r0.clone().insert_axis(ndarray::Axis(0));
        let mut y = Array1::<f32>::from_elem(1, 3.0);
        blas::sgemv(ctx, No, alpha, ar.view(), r1.view(), 1.0, y.view_mut()).unwrap();
        assert_eq!(y[0], 5e37, "sgemv {form}");
        let at = ar.t().to_owned();
        let mut y = Array1::<f32>::zeros(1);
        blas::sgemv(ctx, Yes, alpha, at.view(), r1.view(), 0.0, y.view_mut()).unwrap();
        assert_eq!(y[0], 5e37, "sgemv trans {form}");
    }
    // beta applied once, with small integers (every sum exact): C = 2·A·Aᵀ + 3·C.
    let ones = Array2::<f32>::ones((2, K));
    let mut c = Array2::<f32>::from_elem((2, 2), 1.0);
    blas::sgemm(
        ctx,
        No,
        Yes,
        2.0,
        ones.view(),
        ones.view(),
        3.0,
        c.view_mut(),
    )
    .unwrap();
    assert!(c.iter().all(|&v| v == 2.0 * K as f32 + 3.0), "{c}");
    let mut y = Array1::<f32>::from_elem(2, 1.0);
    let x = Array1::<f32>::ones(K);
    blas::sgemv(ctx, No, 2.0, ones.view(), x.view(), 3.0, y.view_mut()).unwrap();
    assert!(y.iter().all(|&v| v == 2.0 * K as f32 + 3.0), "{y}");
    // y reversed and with a step of 2 (the final alpha·z + beta·y on a strided y): row i of A
    // is i + 1 everywhere, so y_i = 2·(i + 1)·K + 3·y0_i, y0_i = i; the gaps keep their 9.
    let a3 = Array2::from_shape_fn((3, K), |(i, _)| (i + 1) as f32);
    let mut yr = Array1::<f32>::from_shape_fn(3, |i| (2 - i) as f32);
    let rev = yr.slice_mut(ndarray::s![..;-1]);
    blas::sgemv(ctx, No, 2.0, a3.view(), x.view(), 3.0, rev).unwrap();
    let want = |i: usize| 2.0 * (i + 1) as f32 * K as f32 + 3.0 * i as f32;
    assert_eq!(yr.to_vec(), vec![want(2), want(1), want(0)], "reversed y");
    let mut ys = Array1::<f32>::from_shape_fn(6, |i| if i % 2 == 0 { (i / 2) as f32 } else { 9.0 });
    let step = ys.slice_mut(ndarray::s![..;2]);
    blas::sgemv(ctx, No, 2.0, a3.view(), x.view(), 3.0, step).unwrap();
    let got = ys.to_vec();
    assert_eq!(
        got,
        vec![want(0), 9.0, want(1), 9.0, want(2), 9.0],
        "y with step 2"
    );
}

#[test]
fn dgemm_dgemv_and_dgemm_batched_scale_the_whole_sum_once() {
    let ctx = small();
    assert!(
        ctx.native_f64(),
        "the test adapter has f64 shaders (lavapipe does)"
    );
    let (e, a) = (first::<f64>(K), cancelling::<f64>(K));
    for (alpha, form) in alphas64(ctx, f64::INFINITY) {
        let mut c = Array2::<f64>::from_elem((1, 1), f64::NAN);
        blas::dgemm(ctx, No, Yes, alpha, e.view(), e.view(), 0.0, c.view_mut()).unwrap();
        assert_eq!(c[[0, 0]], f64::INFINITY, "dgemm, alpha Inf {form}");
        let mut y = Array1::<f64>::from_elem(1, f64::NAN);
        let x = Array1::<f64>::ones(K);
        blas::dgemv(ctx, No, alpha, e.view(), x.view(), 0.0, y.view_mut()).unwrap();
        assert_eq!(y[0], f64::INFINITY, "dgemv, alpha Inf {form}");
    }
    for (alpha, form) in alphas64(ctx, 1e308) {
        let mut c = Array2::<f64>::from_elem((2, 2), 2.0);
        blas::dgemm(ctx, No, Yes, alpha, a.view(), a.view(), 0.5, c.view_mut()).unwrap();
        assert_eq!(c[[0, 1]], 5e307, "dgemm {form}");
        assert_eq!(c[[0, 0]], f64::INFINITY, "dgemm {form}");
        let ar = a.row(0).to_owned().insert_axis(ndarray::Axis(0));
        let mut y = Array1::<f64>::zeros(1);
        blas::dgemv(ctx, No, alpha, ar.view(), a.row(1), 0.0, y.view_mut()).unwrap();
        assert_eq!(y[0], 5e307, "dgemv {form}");
        // A batch of 2: A_b = the two rows of `a` as 1×K, B_b = the other row as K×1.
        let ab = Array3::from_shape_fn((2, 1, K), |(b, _, p)| a[[b, p]]);
        let bb = Array3::from_shape_fn((2, K, 1), |(b, p, _)| a[[1 - b, p]]);
        let mut cb = Array3::<f64>::zeros((2, 1, 1));
        blas::dgemm_batched(ctx, No, No, alpha, ab.view(), bb.view(), 0.0, cb.view_mut()).unwrap();
        assert!(cb.iter().all(|&v| v == 5e307), "dgemm_batched {form}: {cb}");
    }
    let ones = Array2::<f64>::ones((2, K));
    let mut c = Array2::<f64>::from_elem((2, 2), 1.0);
    blas::dgemm(
        ctx,
        No,
        Yes,
        2.0,
        ones.view(),
        ones.view(),
        3.0,
        c.view_mut(),
    )
    .unwrap();
    assert!(c.iter().all(|&v| v == 2.0 * K as f64 + 3.0), "{c}");
}

/// N×N, lower triangle stored: `S[0][0] = 4`, `S[N−1][0] = 1` (so `S[0][N−1] = 1` by
/// symmetry), the strict upper triangle NaN (never read), the rest 0.
fn sym_lower<T: From<f32> + Clone>() -> Array2<T> {
    let mut s = Array2::from_shape_fn((N, N), |(i, j)| T::from(if j > i { f32::NAN } else { 0.0 }));
    s[[0, 0]] = T::from(4.0);
    s[[N - 1, 0]] = T::from(1.0);
    s
}

/// `[1, 0, …, 0, −3.5]` of length N: row 0 of `S·x` is 4 − 3.5 = 0.5, row N−1 is 1.
fn sym_x<T: From<f32> + Clone>() -> Array1<T> {
    let mut x = Array1::from_elem(N, T::from(0.0));
    x[0] = T::from(1.0);
    x[N - 1] = T::from(-3.5);
    x
}

#[test]
fn symmetric_products_scale_the_whole_sum_once() {
    let ctx = small();
    let (s, x) = (sym_lower::<f32>(), sym_x::<f32>());
    let b = x.clone().insert_axis(ndarray::Axis(1));
    for (alpha, form) in alphas32(ctx, 1e38) {
        let mut y = Array1::<f32>::from_elem(N, 7.0);
        blas::ssymv(
            ctx,
            Uplo::Lower,
            alpha,
            s.view(),
            x.view(),
            0.0,
            y.view_mut(),
        )
        .unwrap();
        assert_eq!((y[0], y[N - 1]), (5e37, 1e38), "ssymv {form}");
        assert!(
            y.slice(ndarray::s![1..N - 1]).iter().all(|&v| v == 0.0),
            "ssymv {form}"
        );
        let mut c = Array2::<f32>::from_elem((N, 1), 7.0);
        let (l, sb, sc) = (Side::Left, b.view(), c.view_mut());
        blas::ssymm(ctx, l, Uplo::Lower, alpha, s.view(), sb, 0.0, sc).unwrap();
        assert_eq!((c[[0, 0]], c[[N - 1, 0]]), (5e37, 1e38), "ssymm {form}");
        // Right: C (1×N) = alpha·bᵀ·S.
        let bt = b.t().to_owned();
        let mut c = Array2::<f32>::zeros((1, N));
        let (r, sb, sc) = (Side::Right, bt.view(), c.view_mut());
        blas::ssymm(ctx, r, Uplo::Lower, alpha, s.view(), sb, 0.0, sc).unwrap();
        assert_eq!(
            (c[[0, 0]], c[[0, N - 1]]),
            (5e37, 1e38),
            "ssymm right {form}"
        );
    }
    let (s, x) = (sym_lower::<f64>(), sym_x::<f64>());
    for (alpha, form) in alphas64(ctx, 1e308) {
        let mut y = Array1::<f64>::from_elem(N, 7.0);
        blas::dsymv(
            ctx,
            Uplo::Lower,
            alpha,
            s.view(),
            x.view(),
            0.0,
            y.view_mut(),
        )
        .unwrap();
        assert_eq!((y[0], y[N - 1]), (5e307, 1e308), "dsymv {form}");
        let b = x.clone().insert_axis(ndarray::Axis(1));
        let mut c = Array2::<f64>::zeros((N, 1));
        let (l, sb, sc) = (Side::Left, b.view(), c.view_mut());
        blas::dsymm(ctx, l, Uplo::Lower, alpha, s.view(), sb, 0.0, sc).unwrap();
        assert_eq!((c[[0, 0]], c[[N - 1, 0]]), (5e307, 1e308), "dsymm {form}");
    }
}

#[test]
fn triangle_products_scale_the_whole_sum_once() {
    let ctx = small();
    let a = cancelling::<f32>(K);
    let (r0, r1) = (
        a.slice(ndarray::s![0..1, ..]),
        a.slice(ndarray::s![1..2, ..]),
    );
    for (alpha, form) in alphas32(ctx, 1e38) {
        for uplo in [Uplo::Lower, Uplo::Upper] {
            let off = |c: &Array2<f32>| match uplo {
                Uplo::Lower => c[[1, 0]],
                Uplo::Upper => c[[0, 1]],
            };
            let mut c = Array2::<f32>::zeros((2, 2));
            blas::ssyrk(ctx, uplo, No, alpha, a.view(), 0.0, c.view_mut()).unwrap();
            assert_eq!(off(&c), 5e37, "ssyrk {uplo:?} {form}");
            let mut c = Array2::<f32>::zeros((2, 2));
            let at = a.t();
            blas::sgemmtr(ctx, uplo, No, No, alpha, a.view(), at, 0.0, c.view_mut()).unwrap();
            assert_eq!(off(&c), 5e37, "sgemmtr {uplo:?} {form}");
            // alpha·(r0·r1ᵀ + r1·r0ᵀ) = alpha·(0.5 + 0.5).
            let mut c = Array2::<f32>::zeros((1, 1));
            blas::ssyr2k(ctx, uplo, No, alpha, r0, r1, 0.0, c.view_mut()).unwrap();
            assert_eq!(c[[0, 0]], 1e38, "ssyr2k {uplo:?} {form}");
        }
        // strmm B ← alpha·T·B, T lower with T[N−1][0] = 4, T[N−1][N−1] = 1, B = [1, …, −3.5]:
        // row N−1 is 4 − 3.5 = 0.5, row 0 is T[0][0]·1 = 2.
        let mut t = Array2::<f32>::zeros((N, N));
        t[[0, 0]] = 2.0;
        t[[N - 1, 0]] = 4.0;
        t[[N - 1, N - 1]] = 1.0;
        let mut b = sym_x::<f32>().insert_axis(ndarray::Axis(1));
        let (l, lo, nu) = (Side::Left, Uplo::Lower, Diag::NonUnit);
        blas::strmm(ctx, l, lo, No, nu, alpha, t.view(), b.view_mut()).unwrap();
        assert_eq!((b[[0, 0]], b[[N - 1, 0]]), (2e38, 5e37), "strmm {form}");
    }
}
