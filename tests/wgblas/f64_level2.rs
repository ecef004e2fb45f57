//! dnrm2, dsymv, dtrmv, dtrsv, dger, dsyr, dsyr2 and dsyr2k: the s-routine rules in f64, from
//! the same WGSL (`alias T = f64;`), against OpenBLAS's d routines.
//! Metric: the s-routine's bound ([`metrics::bounds`], generic over the element type) and
//! threshold ([`metrics::spec`] of the s twin, DESIGN.md §2) in units of eps = 2^-52
//! (`forward_factor_f64`, `backward_residual_factor_f64`); dnrm2 in f64 ULP against the snrm2
//! threshold. Every matrix is tried in C, F, strided and reversed layouts, vectors with stride
//! 2 or reversed; unreferenced triangles, unit diagonals and `y` under `beta = 0` hold NaN.

pub use crate::describe::level2::{in_triangle, DIAGS, TRANS, UPLOS};
use cblas_sys::*;
use ndarray::{array, s, Array1, Array2};
use wgblas::metrics;
use wgblas::prelude::*;
use wgblas::{blas, Diag, Error, Uplo};

use crate::common::*;
use crate::describe;
use crate::dgemm::rand64;
use crate::f64_level1::strided;
use wgblas::{
    Diag::{NonUnit, Unit},
    Transpose::{No, Yes},
    Uplo::{Lower, Upper},
};

pub fn threshold(s_twin: &str) -> f64 {
    metrics::spec(s_twin).unwrap().threshold
}

pub fn vec64(seed: u64, n: usize) -> Array1<f64> {
    rand64(seed, (n, 1)).column(0).to_owned()
}

pub fn cuplo(u: Uplo) -> CBLAS_UPLO {
    match u {
        Upper => CBLAS_UPLO::CblasUpper,
        Lower => CBLAS_UPLO::CblasLower,
    }
}

pub fn ctrans(t: Transpose) -> CBLAS_TRANSPOSE {
    match t {
        No => CBLAS_TRANSPOSE::CblasNoTrans,
        Yes => CBLAS_TRANSPOSE::CblasTrans,
    }
}

pub fn cdiag(d: Diag) -> CBLAS_DIAG {
    match d {
        NonUnit => CBLAS_DIAG::CblasNonUnit,
        Unit => CBLAS_DIAG::CblasUnit,
    }
}

/// `a` with NaN outside triangle `uplo` (and on the diagonal for `Diag::Unit`).
pub fn poisoned(a: &Array2<f64>, uplo: Uplo, diag: Diag) -> Array2<f64> {
    Array2::from_shape_fn(a.dim(), |(i, j)| {
        if !in_triangle(uplo, i, j) || i == j && diag == Unit {
            f64::NAN
        } else {
            a[[i, j]]
        }
    })
}

/// `a` with zeros where [`poisoned`] put NaN, C order: what OpenBLAS gets.
pub fn clean(a: &Array2<f64>) -> Array2<f64> {
    a.mapv(|v| if v.is_nan() { 0.0 } else { v })
}

/// A triangular matrix that is well conditioned: diagonal in [1, 2], off-diagonal entries of
/// size at most 1/n.
pub fn triangular(seed: u64, n: usize) -> Array2<f64> {
    let r = rand64(seed, (n, n));
    Array2::from_shape_fn((n, n), |(i, j)| {
        if i == j {
            1.0 + r[[i, j]].abs()
        } else {
            r[[i, j]] / n as f64
        }
    })
}

/// x stored with stride 2 (`Step2`) or reversed, and its view.
pub fn stored(x: &Array1<f64>, inc: isize) -> Array1<f64> {
    strided(x, inc)
}

/// OpenBLAS dsymv on the C-order copy of `a` with its NaN (unreferenced triangle) set to 0.
pub fn oracle_symv(
    uplo: Uplo,
    alpha: f64,
    a: &Array2<f64>,
    x: &Array1<f64>,
    beta: f64,
    y: &Array1<f64>,
) -> Array1<f64> {
    let (ac, mut out, n) = (clean(a), y.clone(), x.len() as i32);
    let (xp, op) = (x.as_ptr(), out.as_mut_ptr());
    let rm = CBLAS_LAYOUT::CblasRowMajor;
    unsafe {
        cblas_dsymv(
            rm,
            cuplo(uplo),
            n,
            alpha,
            ac.as_ptr(),
            n,
            xp,
            1,
            beta,
            op,
            1,
        )
    };
    out
}

/// OpenBLAS dtrmv, as [`oracle_symv`].
pub fn oracle_trmv(
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: &Array2<f64>,
    x: &Array1<f64>,
) -> Array1<f64> {
    let (ac, mut out, n) = (clean(a), x.clone(), x.len() as i32);
    let (u, t, d) = (cuplo(uplo), ctrans(trans), cdiag(diag));
    let rm = CBLAS_LAYOUT::CblasRowMajor;
    unsafe { cblas_dtrmv(rm, u, t, d, n, ac.as_ptr(), n, out.as_mut_ptr(), 1) };
    out
}

/// OpenBLAS dger on a C-order copy of `a`.
pub fn oracle_ger(alpha: f64, x: &Array1<f64>, y: &Array1<f64>, a: &Array2<f64>) -> Array2<f64> {
    let mut out = a.as_standard_layout().to_owned();
    let (m, n) = (x.len() as i32, y.len() as i32);
    let (xp, yp, op) = (x.as_ptr(), y.as_ptr(), out.as_mut_ptr());
    unsafe {
        cblas_dger(
            CBLAS_LAYOUT::CblasRowMajor,
            m,
            n,
            alpha,
            xp,
            1,
            yp,
            1,
            op,
            n,
        )
    };
    out
}

/// OpenBLAS dsyr (`y = None`) or dsyr2, as [`oracle_symv`].
pub fn oracle_syr(
    uplo: Uplo,
    alpha: f64,
    x: &Array1<f64>,
    y: Option<&Array1<f64>>,
    a: &Array2<f64>,
) -> Array2<f64> {
    let (mut out, n) = (clean(a), x.len() as i32);
    let (u, rm, xp, op) = (
        cuplo(uplo),
        CBLAS_LAYOUT::CblasRowMajor,
        x.as_ptr(),
        out.as_mut_ptr(),
    );
    match y {
        Some(y) => unsafe { cblas_dsyr2(rm, u, n, alpha, xp, 1, y.as_ptr(), 1, op, n) },
        None => unsafe { cblas_dsyr(rm, u, n, alpha, xp, 1, op, n) },
    }
    out
}

/// dnrm2 against OpenBLAS (every scale, lengths to 300 001, strides 1, 2, −1) is in the
/// description (`nrm2::Nrm2`).
#[test]
fn dnrm2_hand_values() {
    let c = ctx();
    let nrm = |x: Array1<f64>| blas::dnrm2(c, x.view()).unwrap();
    let p = |e: i32| 2f64.powi(e);
    assert_eq!(nrm(Array1::zeros(0)), 0.0);
    assert_eq!(nrm(array![0.0, -0.0]), 0.0);
    assert_eq!(nrm(array![3.0, -4.0]), 5.0);
    // Big band (> 2^486, squares scaled by 2^-1076): the squares overflow, the norm does not.
    assert_eq!(nrm(array![3.0 * p(600), -4.0 * p(600)]), 5.0 * p(600));
    assert_eq!(nrm(array![f64::MAX]), f64::MAX);
    // Small band (< 2^-511, scaled by 2^1074): the squares underflow, the norm does not.
    assert_eq!(nrm(array![3.0 * p(-600), -4.0 * p(-600)]), 5.0 * p(-600));
    // Big with medium: 2^487 is big, 3·2^485 medium → 5·2^485 (LAPACK's combination, exact).
    assert_eq!(nrm(array![3.0 * p(485), p(487)]), 5.0 * p(485));
    // Small with medium: 3·2^-513 is small, 2^-511 medium → 5·2^-513.
    assert_eq!(nrm(array![3.0 * p(-513), p(-511)]), 5.0 * p(-513));
    // The tiny values vanish against the huge one; past the f32 range in both directions.
    assert_eq!(nrm(array![1e-300, 1e300, 1.0, -1e-300]), 1e300);
    // The norm itself overflows: +inf, as in the reference.
    assert_eq!(nrm(array![1.5e308, 1.5e308]), f64::INFINITY);
    // Inf → +Inf, NaN → NaN (NaN wins over Inf).
    assert_eq!(nrm(array![1.0, f64::NEG_INFINITY]), f64::INFINITY);
    assert!(nrm(array![f64::INFINITY, f64::NAN]).is_nan());
    assert!(nrm(array![1e300, -f64::NAN, 1e-300]).is_nan());
    // Views and the extension method.
    let x = array![3.0f64, 12.0, 4.0, 5.0];
    assert_eq!(blas::dnrm2(c, x.slice(s![..;2])).unwrap(), 5.0);
    assert_eq!(x.slice(s![..;-2]).gpu_nrm2().unwrap(), 13.0);
    // A resident vector, used in place.
    let g = c.upload_vector(&array![3.0f64, 4.0]).unwrap();
    assert_eq!(blas::dnrm2(c, &g).unwrap(), 5.0);
}

#[test]
fn dnrm2_past_one_binding() {
    let n = ctx().limits().max_storage_buffer_binding_size as usize / 8 + 1;
    let mut x = Array1::<f64>::zeros(n);
    let p = 2f64.powi(600);
    x[0] = 3.0 * p;
    x[n - 1] = 4.0 * p;
    assert_eq!(blas::dnrm2(ctx(), x.view()).unwrap(), 5.0 * p);
}

/// DESIGN.md §3 in f64, hand-computed: quick returns, alpha = 0 and beta = 0 reading nothing,
/// NaN alpha or beta not 0, no zero-skip (0·Inf = NaN).
#[test]
fn special_values_and_quick_returns() {
    let c = ctx();
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    // dsymv: alpha = 0 reads neither A nor x; beta = 0 never reads y; NaN beta is not 0.
    let a = Array2::from_elem((2, 2), nan);
    let mut y = array![1.0f64, 2.0];
    blas::dsymv(
        c,
        Upper,
        0.0,
        a.view(),
        array![inf, 1.0].view(),
        3.0,
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, array![3.0, 6.0]);
    let a = array![[1.0f64, 2.0], [nan, 3.0]];
    let mut y = array![nan, inf];
    blas::dsymv(
        c,
        Upper,
        1.0,
        a.view(),
        array![1.0, 1.0].view(),
        0.0,
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, array![3.0, 5.0]);
    let mut y = array![1.0f64, 1.0];
    blas::dsymv(
        c,
        Upper,
        1.0,
        a.view(),
        array![1.0, 1.0].view(),
        nan,
        y.view_mut(),
    )
    .unwrap();
    assert!(y.iter().all(|v| v.is_nan()));
    // No zero-skip: x_j = 0 against A_ij = Inf gives NaN in every row that product reaches.
    let a = array![[1.0f64, inf], [inf, 1.0]];
    let mut y = array![0.0f64, 0.0];
    blas::dsymv(
        c,
        Lower,
        1.0,
        a.view(),
        array![0.0, 1.0].view(),
        0.0,
        y.view_mut(),
    )
    .unwrap();
    assert!(y[0].is_infinite() && y[1].is_nan(), "{y}");
    // alpha = 0 with beta = 1 and n = 0: quick returns, y bit for bit as it was.
    let mut y = array![-0.0f64, nan];
    blas::dsymv(
        c,
        Upper,
        0.0,
        Array2::from_elem((2, 2), nan).view(),
        array![1.0, 1.0].view(),
        1.0,
        y.view_mut(),
    )
    .unwrap();
    assert!(y[0] == 0.0 && y[0].is_sign_negative() && y[1].is_nan());
    // dtrmv: the unit diagonal and the other triangle are never read; 0·Inf = NaN.
    let a = array![[nan, 2.0], [nan, nan]];
    let mut x = array![1.0f64, 3.0];
    blas::dtrmv(c, Upper, No, Unit, a.view(), x.view_mut()).unwrap();
    assert_eq!(x, array![7.0, 3.0]);
    let a = array![[1.0f64, inf], [nan, 1.0]];
    let mut x = array![1.0f64, 0.0];
    blas::dtrmv(c, Upper, No, NonUnit, a.view(), x.view_mut()).unwrap();
    assert!(x[0].is_nan() && x[1] == 0.0, "{x}");
    // dtrsv: a zero pivot gives Inf/NaN as in reference DTRSV (no test, no error).
    let a = array![[0.0f64, nan], [1.0, 1.0]];
    let mut x = array![1.0f64, 1.0];
    blas::dtrsv(c, Lower, No, NonUnit, a.view(), x.view_mut()).unwrap();
    assert!(x[0].is_infinite() && x[1].is_infinite(), "{x}");
    // dger: alpha = 0 returns at once (A untouched, NaN operands unread); otherwise
    // 0·Inf = NaN; a NaN alpha is not 0.
    let mut a = array![[1.0f64, 2.0]];
    blas::dger(
        c,
        0.0,
        array![nan].view(),
        array![inf, inf].view(),
        a.view_mut(),
    )
    .unwrap();
    assert_eq!(a, array![[1.0, 2.0]]);
    blas::dger(
        c,
        1.0,
        array![0.0].view(),
        array![inf, 1.0].view(),
        a.view_mut(),
    )
    .unwrap();
    assert!(a[[0, 0]].is_nan() && a[[0, 1]] == 2.0, "{a}");
    let mut a = array![[1.0f64, 2.0]];
    blas::dger(
        c,
        nan,
        array![1.0].view(),
        array![1.0, 1.0].view(),
        a.view_mut(),
    )
    .unwrap();
    assert!(a.iter().all(|v| v.is_nan()));
    // dsyr / dsyr2: alpha = 0 returns at once; 0·Inf = NaN on the triangle only.
    let mut a = array![[1.0f64, nan], [2.0, 3.0]];
    blas::dsyr(c, Lower, 0.0, array![inf, nan].view(), a.view_mut()).unwrap();
    assert_eq!((a[[0, 0]], a[[1, 0]], a[[1, 1]]), (1.0, 2.0, 3.0));
    blas::dsyr(c, Lower, 1.0, array![0.0, inf].view(), a.view_mut()).unwrap();
    assert!(
        a[[0, 0]] == 1.0 && a[[1, 0]].is_nan() && a[[1, 1]].is_infinite(),
        "{a}"
    );
    let mut a = array![[1.0f64, 1.0], [nan, 1.0]];
    blas::dsyr2(
        c,
        Upper,
        1.0,
        array![0.0, 1.0].view(),
        array![inf, 1.0].view(),
        a.view_mut(),
    )
    .unwrap();
    // a00 = 0·Inf + Inf·0 + 1 = NaN; a01 = 0·1 + Inf·1 + 1 = Inf; a11 = 1 + 1 + 1.
    assert!(
        a[[0, 0]].is_nan() && a[[0, 1]] == inf && a[[1, 1]] == 3.0,
        "{a}"
    );
    assert!(a[[1, 0]].is_nan());
    // dsyr2k: k = 0 and alpha = 0 read neither A nor B (C = beta·C on the triangle).
    let mut cm = array![[1.0f64, nan], [2.0, 3.0]];
    let e = Array2::from_elem((2, 3), nan);
    blas::dsyr2k(c, Lower, No, 0.0, e.view(), e.view(), 2.0, cm.view_mut()).unwrap();
    assert_eq!((cm[[0, 0]], cm[[1, 0]], cm[[1, 1]]), (2.0, 4.0, 6.0));
    assert!(cm[[0, 1]].is_nan());
}

/// Typed errors before any work: shapes named by argument, and `Unsupported` naming
/// SHADER_F64 where the adapter has no f64 (forced here on a private context); outputs
/// unchanged.
#[test]
fn validation_and_missing_f64() {
    let a = Array2::<f64>::ones((3, 3));
    let mut y = array![9.0f64, 9.0, 9.0];
    let two = array![1.0f64, 1.0];
    let err = blas::dsymv(ctx(), Upper, 1.0, a.view(), two.view(), 0.0, y.view_mut()).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "dsymv", "x"));
    let err = blas::dtrsv(
        ctx(),
        Upper,
        No,
        Unit,
        Array2::<f64>::ones((2, 3)).view(),
        y.view_mut(),
    )
    .unwrap_err();
    describe::assert_named(&err, ("NotSquare", "dtrsv", "a"));
    let mut am = Array2::<f64>::from_elem((3, 2), 9.0);
    let err = blas::dger(ctx(), 1.0, two.view(), two.view(), am.view_mut()).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "dger", "x"));
    let err = blas::dsyr2k(
        ctx(),
        Upper,
        No,
        1.0,
        Array2::<f64>::ones((3, 2)).view(),
        Array2::<f64>::ones((3, 1)).view(),
        0.0,
        Array2::<f64>::zeros((3, 3)).view_mut(),
    )
    .unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "dsyr2k", "b"));
    assert_eq!(y, array![9.0, 9.0, 9.0]);
    assert!(am.iter().all(|&v| v == 9.0));

    let own = wgblas::Context::new().unwrap();
    own.set_force_f64_fallback(true);
    let x = array![1.0f64, 1.0, 1.0];
    let unsupported = |routine| Error::Unsupported {
        routine,
        feature: "SHADER_F64",
    };
    assert_eq!(
        blas::dnrm2(&own, x.view()).unwrap_err(),
        unsupported("dnrm2")
    );
    assert_eq!(
        blas::dsymv(&own, Upper, 1.0, a.view(), x.view(), 0.0, y.view_mut()).unwrap_err(),
        unsupported("dsymv")
    );
    assert_eq!(
        blas::dtrmv(&own, Upper, No, NonUnit, a.view(), y.view_mut()).unwrap_err(),
        unsupported("dtrmv")
    );
    assert_eq!(
        blas::dtrsv(&own, Upper, No, NonUnit, a.view(), y.view_mut()).unwrap_err(),
        unsupported("dtrsv")
    );
    let mut a3 = Array2::<f64>::from_elem((3, 3), 9.0);
    assert_eq!(
        blas::dger(&own, 1.0, x.view(), x.view(), a3.view_mut()).unwrap_err(),
        unsupported("dger")
    );
    assert_eq!(
        blas::dsyr(&own, Upper, 1.0, x.view(), a3.view_mut()).unwrap_err(),
        unsupported("dsyr")
    );
    assert_eq!(
        blas::dsyr2(&own, Upper, 1.0, x.view(), x.view(), a3.view_mut()).unwrap_err(),
        unsupported("dsyr2")
    );
    assert_eq!(
        blas::dsyr2k(&own, Upper, No, 1.0, a.view(), a.view(), 0.0, a3.view_mut()).unwrap_err(),
        unsupported("dsyr2k")
    );
    assert_eq!(y, array![9.0, 9.0, 9.0]);
    assert!(a3.iter().all(|&v| v == 9.0));
}
