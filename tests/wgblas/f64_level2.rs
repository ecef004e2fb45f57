//! dnrm2, dsymv, dtrmv, dtrsv, dger, dsyr, dsyr2 and dsyr2k: the s-routine rules in f64, from
//! the same WGSL (`alias T = f64;`), against OpenBLAS's d routines.
//! Metric: the s-routine's bound ([`metrics::bounds`], generic over the element type) and
//! threshold ([`metrics::spec`] of the s twin, DESIGN.md §2) in units of eps = 2^-52
//! (`forward_factor_f64`, `backward_residual_factor_f64`); dnrm2 in f64 ULP against the snrm2
//! threshold. Every matrix is tried in C, F, strided and reversed layouts, vectors with stride
//! 2 or reversed; unreferenced triangles, unit diagonals and `y` under `beta = 0` hold NaN.

use cblas_sys::*;
use ndarray::{array, s, Array1, Array2};
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Diag, Error, Uplo};

use crate::common::*;
use crate::dgemm::rand64;
use crate::f64_level1::{strided, view};

const UPLOS: [Uplo; 2] = [Uplo::Upper, Uplo::Lower];
const TRANS: [Transpose; 2] = [Transpose::No, Transpose::Yes];
const DIAGS: [Diag; 2] = [Diag::NonUnit, Diag::Unit];

fn threshold(s_twin: &str) -> f64 {
    metrics::spec(s_twin).unwrap().threshold
}

fn vec64(seed: u64, n: usize) -> Array1<f64> {
    rand64(seed, (n, 1)).column(0).to_owned()
}

fn cuplo(u: Uplo) -> CBLAS_UPLO {
    match u {
        Uplo::Upper => CBLAS_UPLO::CblasUpper,
        Uplo::Lower => CBLAS_UPLO::CblasLower,
    }
}

fn ctrans(t: Transpose) -> CBLAS_TRANSPOSE {
    match t {
        Transpose::No => CBLAS_TRANSPOSE::CblasNoTrans,
        Transpose::Yes => CBLAS_TRANSPOSE::CblasTrans,
    }
}

fn cdiag(d: Diag) -> CBLAS_DIAG {
    match d {
        Diag::NonUnit => CBLAS_DIAG::CblasNonUnit,
        Diag::Unit => CBLAS_DIAG::CblasUnit,
    }
}

fn in_tri(uplo: Uplo, i: usize, j: usize) -> bool {
    match uplo {
        Uplo::Upper => i <= j,
        Uplo::Lower => i >= j,
    }
}

/// `a` with NaN outside triangle `uplo` (and on the diagonal for `Diag::Unit`).
fn poisoned(a: &Array2<f64>, uplo: Uplo, diag: Diag) -> Array2<f64> {
    Array2::from_shape_fn(a.dim(), |(i, j)| {
        if !in_tri(uplo, i, j) || i == j && diag == Diag::Unit {
            f64::NAN
        } else {
            a[[i, j]]
        }
    })
}

/// `a` with zeros where [`poisoned`] put NaN, C order: what OpenBLAS gets.
fn clean(a: &Array2<f64>) -> Array2<f64> {
    a.mapv(|v| if v.is_nan() { 0.0 } else { v })
}

/// A triangular matrix that is well conditioned: diagonal in [1, 2], off-diagonal entries of
/// size at most 1/n.
fn triangular(seed: u64, n: usize) -> Array2<f64> {
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
fn stored(x: &Array1<f64>, inc: isize) -> Array1<f64> {
    strided(x, inc)
}

/// OpenBLAS dsymv on the C-order copy of `a` with its NaN (unreferenced triangle) set to 0.
fn oracle_symv(
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
fn oracle_trmv(
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
fn oracle_ger(alpha: f64, x: &Array1<f64>, y: &Array1<f64>, a: &Array2<f64>) -> Array2<f64> {
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
fn oracle_syr(
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

#[test]
fn dnrm2_against_openblas() {
    let t = threshold("snrm2");
    for n in [1, 2, 3, 5, 9, 255, 257, 4097, 300_001] {
        for scale in [1.0, 1e200, 1e-200, 1e150, 1e-160] {
            for inc in [1, 2, -1] {
                let x = vec64(n as u64, n) * scale;
                let buf = stored(&x, inc);
                let got = blas::dnrm2(ctx(), view(&buf, inc)).unwrap();
                let want = unsafe { cblas_dnrm2(n as i32, x.as_ptr(), 1) };
                let u = metrics::ulp_distance_f64(got, want) as f64;
                assert!(
                    u <= t,
                    "dnrm2 n={n} scale={scale:e} inc={inc}: {got:e} vs {want:e}, {u} ULP"
                );
            }
        }
    }
}

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
        Uplo::Upper,
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
        Uplo::Upper,
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
        Uplo::Upper,
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
        Uplo::Lower,
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
        Uplo::Upper,
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
    blas::dtrmv(
        c,
        Uplo::Upper,
        Transpose::No,
        Diag::Unit,
        a.view(),
        x.view_mut(),
    )
    .unwrap();
    assert_eq!(x, array![7.0, 3.0]);
    let a = array![[1.0f64, inf], [nan, 1.0]];
    let mut x = array![1.0f64, 0.0];
    blas::dtrmv(
        c,
        Uplo::Upper,
        Transpose::No,
        Diag::NonUnit,
        a.view(),
        x.view_mut(),
    )
    .unwrap();
    assert!(x[0].is_nan() && x[1] == 0.0, "{x}");
    // dtrsv: a zero pivot gives Inf/NaN as in reference DTRSV (no test, no error).
    let a = array![[0.0f64, nan], [1.0, 1.0]];
    let mut x = array![1.0f64, 1.0];
    blas::dtrsv(
        c,
        Uplo::Lower,
        Transpose::No,
        Diag::NonUnit,
        a.view(),
        x.view_mut(),
    )
    .unwrap();
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
    blas::dsyr(c, Uplo::Lower, 0.0, array![inf, nan].view(), a.view_mut()).unwrap();
    assert_eq!((a[[0, 0]], a[[1, 0]], a[[1, 1]]), (1.0, 2.0, 3.0));
    blas::dsyr(c, Uplo::Lower, 1.0, array![0.0, inf].view(), a.view_mut()).unwrap();
    assert!(
        a[[0, 0]] == 1.0 && a[[1, 0]].is_nan() && a[[1, 1]].is_infinite(),
        "{a}"
    );
    let mut a = array![[1.0f64, 1.0], [nan, 1.0]];
    blas::dsyr2(
        c,
        Uplo::Upper,
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
    blas::dsyr2k(
        c,
        Uplo::Lower,
        Transpose::No,
        0.0,
        e.view(),
        e.view(),
        2.0,
        cm.view_mut(),
    )
    .unwrap();
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
    let err = blas::dsymv(
        ctx(),
        Uplo::Upper,
        1.0,
        a.view(),
        two.view(),
        0.0,
        y.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "dsymv",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
    let err = blas::dtrsv(
        ctx(),
        Uplo::Upper,
        Transpose::No,
        Diag::Unit,
        Array2::<f64>::ones((2, 3)).view(),
        y.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::NotSquare {
                routine: "dtrsv",
                arg: "a",
                ..
            }
        ),
        "{err}"
    );
    let mut am = Array2::<f64>::from_elem((3, 2), 9.0);
    let err = blas::dger(ctx(), 1.0, two.view(), two.view(), am.view_mut()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "dger",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
    let err = blas::dsyr2k(
        ctx(),
        Uplo::Upper,
        Transpose::No,
        1.0,
        Array2::<f64>::ones((3, 2)).view(),
        Array2::<f64>::ones((3, 1)).view(),
        0.0,
        Array2::<f64>::zeros((3, 3)).view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "dsyr2k",
                arg: "b",
                ..
            }
        ),
        "{err}"
    );
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
        blas::dsymv(
            &own,
            Uplo::Upper,
            1.0,
            a.view(),
            x.view(),
            0.0,
            y.view_mut()
        )
        .unwrap_err(),
        unsupported("dsymv")
    );
    assert_eq!(
        blas::dtrmv(
            &own,
            Uplo::Upper,
            Transpose::No,
            Diag::NonUnit,
            a.view(),
            y.view_mut()
        )
        .unwrap_err(),
        unsupported("dtrmv")
    );
    assert_eq!(
        blas::dtrsv(
            &own,
            Uplo::Upper,
            Transpose::No,
            Diag::NonUnit,
            a.view(),
            y.view_mut()
        )
        .unwrap_err(),
        unsupported("dtrsv")
    );
    let mut a3 = Array2::<f64>::from_elem((3, 3), 9.0);
    assert_eq!(
        blas::dger(&own, 1.0, x.view(), x.view(), a3.view_mut()).unwrap_err(),
        unsupported("dger")
    );
    assert_eq!(
        blas::dsyr(&own, Uplo::Upper, 1.0, x.view(), a3.view_mut()).unwrap_err(),
        unsupported("dsyr")
    );
    assert_eq!(
        blas::dsyr2(&own, Uplo::Upper, 1.0, x.view(), x.view(), a3.view_mut()).unwrap_err(),
        unsupported("dsyr2")
    );
    assert_eq!(
        blas::dsyr2k(
            &own,
            Uplo::Upper,
            Transpose::No,
            1.0,
            a.view(),
            a.view(),
            0.0,
            a3.view_mut()
        )
        .unwrap_err(),
        unsupported("dsyr2k")
    );
    assert_eq!(y, array![9.0, 9.0, 9.0]);
    assert!(a3.iter().all(|&v| v == 9.0));
}

/// Every `gpu_*` method of the extension traits on f64 arrays (one generic impl over
/// `ext::Float`), and the generic resident short methods on `GpuMatrix<f64>` /
/// `GpuVector<f64>`: small integer data, so every f64 result is exact and compared with the
/// host computation for equality; each `_inplace` form against its plain form.
#[test]
fn extension_traits_on_f64_arrays() {
    use wgblas::Side;
    let a = array![[2.0f64, -1.0, 3.0], [1.0, 4.0, -2.0], [0.0, 1.0, 5.0]];
    let b = array![[1.0f64, 0.0, -1.0], [2.0, 1.0, 0.0], [-1.0, 3.0, 1.0]];
    let x = array![1.0f64, -2.0, 3.0];
    let y = array![2.0f64, 0.0, -1.0];
    let tri = |m: &Array2<f64>, uplo: Uplo, unit: bool| {
        Array2::from_shape_fn(m.dim(), |(i, j)| {
            if unit && i == j {
                1.0
            } else if in_tri(uplo, i, j) {
                m[[i, j]]
            } else {
                0.0
            }
        })
    };
    let sym = |m: &Array2<f64>, uplo: Uplo| {
        Array2::from_shape_fn(m.dim(), |(i, j)| {
            if in_tri(uplo, i, j) {
                m[[i, j]]
            } else {
                m[[j, i]]
            }
        })
    };
    // Level 1.
    assert_eq!(x.gpu_dot(&y).unwrap(), -1.0);
    assert_eq!(x.gpu_axpy(2.0, &y).unwrap(), &x * 2.0 + &y);
    let mut z = y.clone();
    x.gpu_axpy_inplace(2.0, &mut z).unwrap();
    assert_eq!(z, &x * 2.0 + &y);
    assert_eq!(x.gpu_copy().unwrap(), x);
    let mut z = Array1::zeros(3);
    x.gpu_copy_inplace(&mut z).unwrap();
    assert_eq!(z, x);
    assert_eq!(x.gpu_scal(3.0).unwrap(), &x * 3.0);
    z.gpu_scal_inplace(3.0).unwrap();
    assert_eq!(z, &x * 3.0);
    assert_eq!(array![2.0f64, -1.0, 2.0].gpu_nrm2().unwrap(), 3.0);
    assert_eq!(x.gpu_iamax().unwrap(), 2);
    assert_eq!(x.gpu_asum().unwrap(), 6.0);
    let (rx, ry) = x.gpu_rot(&y, 0.0, 1.0).unwrap();
    assert_eq!((rx, ry), (y.clone(), -&x));
    let param = [-1.0, 1.0, 2.0, 3.0, 4.0]; // H = [[1, 3], [2, 4]]
    let (mx, my) = x.gpu_rotm(&y, param).unwrap();
    assert_eq!(mx, &x + &(&y * 3.0));
    assert_eq!(my, &x * 2.0 + &(&y * 4.0));
    let (mut p, mut q) = (x.clone(), y.clone());
    p.gpu_rotm_inplace(&mut q, param).unwrap();
    assert_eq!((p.clone(), q.clone()), (mx.clone(), my.clone()));
    p.gpu_rot_inplace(&mut q, 0.0, 1.0).unwrap();
    assert_eq!((p, q), (my, -&mx));
    let (mut p2, mut q2) = (x.clone(), y.clone());
    p2.gpu_swap(&mut q2).unwrap();
    assert_eq!((p2, q2), (y.clone(), x.clone()));
    // Level 2.
    assert_eq!(a.gpu_gemv(&x).unwrap(), a.dot(&x));
    let mut z = y.clone();
    a.gpu_gemv_inplace(2.0, &x, 1.0, &mut z).unwrap();
    assert_eq!(z, a.dot(&x) * 2.0 + &y);
    let l = tri(&a, Uplo::Lower, false);
    let lb = l.dot(&x);
    assert_eq!(
        a.gpu_trsv(Uplo::Lower, Transpose::No, Diag::NonUnit, &lb)
            .unwrap(),
        x
    );
    let mut z = lb.clone();
    a.gpu_trsv_inplace(Uplo::Lower, Transpose::No, Diag::NonUnit, &mut z)
        .unwrap();
    assert_eq!(z, x);
    assert_eq!(
        a.gpu_symv(Uplo::Upper, &x).unwrap(),
        sym(&a, Uplo::Upper).dot(&x)
    );
    let mut z = y.clone();
    a.gpu_symv_inplace(Uplo::Upper, -1.0, &x, 2.0, &mut z)
        .unwrap();
    assert_eq!(z, &y * 2.0 - sym(&a, Uplo::Upper).dot(&x));
    let u1 = tri(&a, Uplo::Upper, true);
    assert_eq!(
        a.gpu_trmv(Uplo::Upper, Transpose::Yes, Diag::Unit, &x)
            .unwrap(),
        u1.t().dot(&x)
    );
    let mut z = x.clone();
    a.gpu_trmv_inplace(Uplo::Upper, Transpose::Yes, Diag::Unit, &mut z)
        .unwrap();
    assert_eq!(z, u1.t().dot(&x));
    let outer =
        |u: &Array1<f64>, v: &Array1<f64>| Array2::from_shape_fn((3, 3), |(i, j)| u[i] * v[j]);
    assert_eq!(x.gpu_ger(1.0, &y, &a).unwrap(), &a + &outer(&x, &y));
    let mut m = a.clone();
    x.gpu_ger_inplace(1.0, &y, &mut m).unwrap();
    assert_eq!(m, &a + &outer(&x, &y));
    let keep_other = |new: Array2<f64>, uplo: Uplo| {
        Array2::from_shape_fn((3, 3), |(i, j)| {
            if in_tri(uplo, i, j) {
                new[[i, j]]
            } else {
                a[[i, j]]
            }
        })
    };
    let want = keep_other(&a + &outer(&x, &x), Uplo::Upper);
    assert_eq!(x.gpu_syr(Uplo::Upper, 1.0, &a).unwrap(), want);
    let mut m = a.clone();
    x.gpu_syr_inplace(Uplo::Upper, 1.0, &mut m).unwrap();
    assert_eq!(m, want);
    let want = keep_other(&a + &outer(&x, &y) + &outer(&y, &x), Uplo::Lower);
    assert_eq!(x.gpu_syr2(Uplo::Lower, 1.0, &y, &a).unwrap(), want);
    let mut m = a.clone();
    x.gpu_syr2_inplace(Uplo::Lower, 1.0, &y, &mut m).unwrap();
    assert_eq!(m, want);
    // Level 3 (the plain forms write zeros outside the triangle of a triangular output).
    let want = tri(&a.dot(&b), Uplo::Lower, false);
    assert_eq!(a.gpu_gemmtr(Uplo::Lower, &b).unwrap(), want);
    let mut m = Array2::zeros((3, 3));
    a.gpu_gemmtr_inplace(Uplo::Lower, 1.0, &b, 0.0, &mut m)
        .unwrap();
    assert_eq!(m, want);
    let want = tri(&a.dot(&a.t()), Uplo::Upper, false);
    assert_eq!(a.gpu_syrk(Uplo::Upper).unwrap(), want);
    let mut m = Array2::zeros((3, 3));
    a.gpu_syrk_inplace(Uplo::Upper, 1.0, 0.0, &mut m).unwrap();
    assert_eq!(m, want);
    let want = tri(&(a.dot(&b.t()) + b.dot(&a.t())), Uplo::Lower, false);
    assert_eq!(a.gpu_syr2k(Uplo::Lower, &b).unwrap(), want);
    let mut m = Array2::zeros((3, 3));
    a.gpu_syr2k_inplace(Uplo::Lower, 1.0, &b, 0.0, &mut m)
        .unwrap();
    assert_eq!(m, want);
    let want = sym(&a, Uplo::Upper).dot(&b);
    assert_eq!(a.gpu_symm(Side::Left, Uplo::Upper, &b).unwrap(), want);
    let mut m = Array2::zeros((3, 3));
    a.gpu_symm_inplace(Side::Left, Uplo::Upper, 1.0, &b, 0.0, &mut m)
        .unwrap();
    assert_eq!(m, want);
    let want = l.dot(&b);
    let (lo, no, nu) = (Uplo::Lower, Transpose::No, Diag::NonUnit);
    assert_eq!(a.gpu_trmm(Side::Left, lo, no, nu, &b).unwrap(), want);
    let mut m = b.clone();
    a.gpu_trmm_inplace(Side::Left, lo, no, nu, 1.0, &mut m)
        .unwrap();
    assert_eq!(m, want);
    assert_eq!(a.gpu_trsm(Side::Left, lo, no, nu, &want).unwrap(), b);
    a.gpu_trsm_inplace(Side::Left, lo, no, nu, 1.0, &mut m)
        .unwrap();
    assert_eq!(m, b);
    // Resident short forms on f64.
    let c = ctx();
    let (ga, gb) = (c.upload_matrix(&a).unwrap(), c.upload_matrix(&b).unwrap());
    assert_eq!(ga.gpu_gemm(&gb).unwrap().to_array().unwrap(), a.dot(&b));
    let (gx, gy) = (c.upload_vector(&x).unwrap(), c.upload_vector(&y).unwrap());
    assert_eq!(ga.gpu_gemv(&gx).unwrap().to_array().unwrap(), a.dot(&x));
    assert_eq!(gx.gpu_dot(&gy).unwrap().get().unwrap(), -1.0);
    assert_eq!(
        gx.gpu_axpy(2.0, &gy).unwrap().to_array().unwrap(),
        &x * 2.0 + &y
    );
    assert_eq!(gy.to_array().unwrap(), y);
}

/// dsymv with device scalars (`&GpuScalar<f64>`, here results of `resident::ddot`): the same
/// result as the same values on the host, bit for bit, and the rules of DESIGN.md §3 applied
/// by the kernel to the device value (alpha = 0 reads neither A nor x, beta = 0 never reads y,
/// alpha = 0 with beta = 1 leaves y as it was, a NaN alpha is not 0); a device scalar of
/// another context is an error naming the argument.
#[test]
fn dsymv_device_scalars() {
    let c = ctx();
    // A device scalar holding v: ddot([v], [1]).
    let kept = |v: f64| {
        let (gv, one) = (
            c.upload_vector(&array![v]).unwrap(),
            c.upload_vector(&array![1.0f64]).unwrap(),
        );
        wgblas::resident::ddot(c, &gv, &one).unwrap()
    };
    let n = 37;
    let full = rand64(21, (n, n));
    let a = poisoned(&full, Uplo::Lower, Diag::NonUnit);
    let (x, y0) = (vec64(22, n), vec64(23, n));
    for (alpha, beta) in [(0.7, -1.3), (2.0, 1.0), (-0.5, 0.0), (0.0, 0.9)] {
        let mut host = y0.clone();
        blas::dsymv(
            c,
            Uplo::Lower,
            alpha,
            a.view(),
            x.view(),
            beta,
            host.view_mut(),
        )
        .unwrap();
        let (da, db) = (kept(alpha), kept(beta));
        let mut dev = y0.clone();
        blas::dsymv(c, Uplo::Lower, &da, a.view(), x.view(), &db, dev.view_mut()).unwrap();
        assert!(
            dev.iter()
                .zip(&host)
                .all(|(d, h)| d.to_bits() == h.to_bits()),
            "alpha {alpha} beta {beta}: {dev} vs {host}"
        );
    }
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    let nan_a = Array2::from_elem((2, 2), nan);
    // Device alpha = 0: A and x not read; device beta = 0: y not read.
    let mut y = array![1.0f64, 2.0];
    blas::dsymv(
        c,
        Uplo::Upper,
        &kept(0.0),
        nan_a.view(),
        array![inf, nan].view(),
        &kept(3.0),
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, array![3.0, 6.0]);
    let a2 = array![[1.0f64, 2.0], [nan, 3.0]];
    let mut y = array![nan, inf];
    blas::dsymv(
        c,
        Uplo::Upper,
        &kept(1.0),
        a2.view(),
        array![1.0, 1.0].view(),
        &kept(0.0),
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, array![3.0, 5.0]);
    // Device alpha = 0 and beta = 1: y bit for bit as it was (-0 and NaN included).
    let mut y = array![-0.0f64, nan];
    blas::dsymv(
        c,
        Uplo::Upper,
        &kept(0.0),
        nan_a.view(),
        array![1.0, 1.0].view(),
        &kept(1.0),
        y.view_mut(),
    )
    .unwrap();
    assert!(
        y[0] == 0.0 && y[0].is_sign_negative() && y[1].is_nan(),
        "{y}"
    );
    // A NaN device alpha is not 0.
    let mut y = array![1.0f64, 1.0];
    blas::dsymv(
        c,
        Uplo::Upper,
        &kept(nan),
        a2.view(),
        array![1.0, 1.0].view(),
        0.0,
        y.view_mut(),
    )
    .unwrap();
    assert!(y.iter().all(|v| v.is_nan()), "{y}");
    // A scalar of another context: an error naming it, y unchanged.
    let other = wgblas::Context::new().unwrap();
    let (g1, g2) = (
        other.upload_vector(&array![1.0f64]).unwrap(),
        other.upload_vector(&array![1.0f64]).unwrap(),
    );
    let foreign = wgblas::resident::ddot(&other, &g1, &g2).unwrap();
    let mut y = array![5.0f64, 5.0];
    let err = blas::dsymv(
        c,
        Uplo::Upper,
        1.0,
        a2.view(),
        array![1.0, 1.0].view(),
        &foreign,
        y.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidArgument {
                routine: "dsymv",
                arg: "beta",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(y, array![5.0, 5.0]);
}

/// dgemv, dgemm and dgemm_batched with device scalars: bit-equal to the same values on the
/// host, and the alpha = 0 / beta = 0 rules applied to the device values (NaN in the operands
/// the rules say are not read does not leak).
#[test]
fn dgemv_dgemm_device_scalars() {
    let c = ctx();
    let kept = |v: f64| {
        let (gv, one) = (
            c.upload_vector(&array![v]).unwrap(),
            c.upload_vector(&array![1.0f64]).unwrap(),
        );
        wgblas::resident::ddot(c, &gv, &one).unwrap()
    };
    let (a, b, c0) = (rand64(31, (9, 7)), rand64(32, (7, 5)), rand64(33, (9, 5)));
    let (x, y0) = (vec64(34, 7), vec64(35, 9));
    let bits = |u: &[f64], v: &[f64]| u.iter().zip(v).all(|(p, q)| p.to_bits() == q.to_bits());
    for (alpha, beta) in [(0.7, -1.3), (1.0, 0.0), (-2.0, 1.0)] {
        let (da, db) = (kept(alpha), kept(beta));
        let (mut yh, mut yd) = (y0.clone(), y0.clone());
        blas::dgemv(
            c,
            Transpose::No,
            alpha,
            a.view(),
            x.view(),
            beta,
            yh.view_mut(),
        )
        .unwrap();
        blas::dgemv(
            c,
            Transpose::No,
            &da,
            a.view(),
            x.view(),
            &db,
            yd.view_mut(),
        )
        .unwrap();
        assert!(
            bits(yh.as_slice().unwrap(), yd.as_slice().unwrap()),
            "dgemv {alpha} {beta}"
        );
        let (mut ch, mut cd) = (c0.clone(), c0.clone());
        let no = Transpose::No;
        blas::dgemm(c, no, no, alpha, a.view(), b.view(), beta, ch.view_mut()).unwrap();
        blas::dgemm(c, no, no, &da, a.view(), b.view(), &db, cd.view_mut()).unwrap();
        assert!(
            bits(ch.as_slice().unwrap(), cd.as_slice().unwrap()),
            "dgemm {alpha} {beta}"
        );
        let a3 = a.broadcast((3, 9, 7)).unwrap();
        let b3 = b.broadcast((3, 7, 5)).unwrap();
        let mut c3h = c0.broadcast((3, 9, 5)).unwrap().to_owned();
        let mut c3d = c3h.clone();
        blas::dgemm_batched(c, no, no, alpha, a3, b3, beta, c3h.view_mut()).unwrap();
        blas::dgemm_batched(c, no, no, &da, a3, b3, &db, c3d.view_mut()).unwrap();
        assert!(
            bits(c3h.as_slice().unwrap(), c3d.as_slice().unwrap()),
            "batched {alpha} {beta}"
        );
    }
    // Device alpha = 0: A and B (A and x) not read; device beta = 0: C (y) not read.
    let nan_a = Array2::from_elem((2, 2), f64::NAN);
    let mut cm = array![[1.0f64, 2.0], [3.0, 4.0]];
    let no = Transpose::No;
    blas::dgemm(
        c,
        no,
        no,
        &kept(0.0),
        nan_a.view(),
        nan_a.view(),
        &kept(2.0),
        cm.view_mut(),
    )
    .unwrap();
    assert_eq!(cm, array![[2.0, 4.0], [6.0, 8.0]]);
    let mut cm = Array2::from_elem((2, 2), f64::NAN);
    let one = Array2::<f64>::eye(2);
    blas::dgemm(
        c,
        no,
        no,
        &kept(1.0),
        one.view(),
        one.view(),
        &kept(0.0),
        cm.view_mut(),
    )
    .unwrap();
    assert_eq!(cm, one);
    let mut y = array![1.0f64, 2.0];
    let inf_x = array![f64::INFINITY, f64::NAN];
    blas::dgemv(
        c,
        no,
        &kept(0.0),
        nan_a.view(),
        inf_x.view(),
        &kept(1.0),
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, array![1.0, 2.0]);
    // daxpy and dscal: bit-equal to host alpha; a device alpha = 0 leaves y untouched, x unread.
    for alpha in [0.7, -3.0, 1.0] {
        let (mut yh, mut yd) = (x.clone(), x.clone());
        let z = vec64(36, 7);
        blas::daxpy(c, alpha, z.view(), yh.view_mut()).unwrap();
        blas::daxpy(c, &kept(alpha), z.view(), yd.view_mut()).unwrap();
        assert!(
            bits(yh.as_slice().unwrap(), yd.as_slice().unwrap()),
            "daxpy {alpha}"
        );
        let (mut sh, mut sd) = (z.clone(), z.clone());
        blas::dscal(c, alpha, sh.view_mut()).unwrap();
        blas::dscal(c, &kept(alpha), sd.view_mut()).unwrap();
        assert!(
            bits(sh.as_slice().unwrap(), sd.as_slice().unwrap()),
            "dscal {alpha}"
        );
    }
    let mut y = array![-0.0f64, 2.0];
    blas::daxpy(c, &kept(0.0), inf_x.view(), y.view_mut()).unwrap();
    assert!(y[0] == 0.0 && y[0].is_sign_negative() && y[1] == 2.0, "{y}");
    let mut y = array![1.0f64, 2.0];
    blas::daxpy(c, &kept(f64::NAN), array![1.0, 1.0].view(), y.view_mut()).unwrap();
    assert!(y.iter().all(|v| v.is_nan()), "{y}");
}

/// Past one storage binding (issue 15), on a private context whose binding is lowered to
/// 4 KiB (512 f64): A and the vectors go in blocks and parts, against OpenBLAS with the same
/// bounds and thresholds; the other triangle untouched.
#[test]
fn past_one_binding_in_blocks() {
    let own = wgblas::Context::new().unwrap();
    assert_eq!(own.set_max_binding(4096), 4096);
    let n = 45;
    let (x, y) = (vec64(41, n), vec64(42, n));
    // dger on a 45×40 A, x reversed.
    let a = rand64(43, (n, 40));
    let mut got = a.clone();
    let xb = stored(&x, -1);
    let y40 = vec64(44, 40);
    blas::dger(&own, 0.7, view(&xb, -1), y40.view(), got.view_mut()).unwrap();
    let want = oracle_ger(0.7, &x, &y40, &a);
    let bound = bounds::ger(0.7, x.view(), y40.view(), a.view());
    let f = metrics::forward_factor_f64(&got, &want, &bound).unwrap();
    assert!(f <= threshold("sger"), "dger in blocks: {f}");
    for uplo in UPLOS {
        let a = poisoned(&rand64(45, (n, n)), uplo, Diag::NonUnit);
        let mask = |m: &Array2<f64>| {
            Array2::from_shape_fn(
                m.dim(),
                |(i, j)| if in_tri(uplo, i, j) { m[[i, j]] } else { 0.0 },
            )
        };
        for two in [false, true] {
            let mut got = a.clone();
            if two {
                blas::dsyr2(&own, uplo, -0.6, x.view(), y.view(), got.view_mut()).unwrap();
            } else {
                blas::dsyr(&own, uplo, -0.6, x.view(), got.view_mut()).unwrap();
            }
            let want = oracle_syr(uplo, -0.6, &x, two.then_some(&y), &a);
            let (bound, t) = if two {
                (
                    bounds::syr2(uplo, -0.6, x.view(), y.view(), a.view()),
                    threshold("ssyr2"),
                )
            } else {
                (
                    bounds::syr(uplo, -0.6, x.view(), a.view()),
                    threshold("ssyr"),
                )
            };
            for ((i, j), v) in got.indexed_iter() {
                assert!(in_tri(uplo, i, j) || v.is_nan(), "wrote outside {uplo:?}");
            }
            let f = metrics::forward_factor_f64(&mask(&got), &mask(&want), &bound).unwrap();
            assert!(f <= t, "two={two} {uplo:?} in blocks: {f}");
        }
    }
    for uplo in UPLOS {
        // dsymv, device beta included (the first product of each row block applies it).
        let full = rand64(46, (n, n));
        let sym = Array2::from_shape_fn((n, n), |(i, j)| full[[i.max(j), i.min(j)]]);
        let a = poisoned(&sym, uplo, Diag::NonUnit);
        let y0 = vec64(47, n);
        let (one, b) = (
            own.upload_vector(&array![1.0f64]).unwrap(),
            own.upload_vector(&array![-0.8f64]).unwrap(),
        );
        let beta = wgblas::resident::ddot(&own, &b, &one).unwrap();
        let mut got = y0.clone();
        blas::dsymv(&own, uplo, 0.9, a.view(), x.view(), &beta, got.view_mut()).unwrap();
        let want = oracle_symv(uplo, 0.9, &a, &x, -0.8, &y0);
        let bound = bounds::symv(uplo, 0.9, a.view(), x.view(), -0.8, y0.view());
        let f = metrics::forward_factor_f64(&got, &want, &bound).unwrap();
        assert!(f <= threshold("ssymv"), "dsymv {uplo:?} in blocks: {f}");
        for trans in TRANS {
            for diag in DIAGS {
                // dtrmv.
                let a = poisoned(&rand64(48, (n, n)), uplo, diag);
                let mut got = x.clone();
                blas::dtrmv(&own, uplo, trans, diag, a.view(), got.view_mut()).unwrap();
                let want = oracle_trmv(uplo, trans, diag, &a, &x);
                let bound = bounds::trmv(uplo, trans, diag, a.view(), x.view());
                let f = metrics::forward_factor_f64(&got, &want, &bound).unwrap();
                assert!(
                    f <= threshold("strmv"),
                    "dtrmv {uplo:?} {trans:?} {diag:?} in blocks: {f}"
                );
                // dtrsv.
                let a = poisoned(&triangular(49, n), uplo, diag);
                let mut got = y.clone();
                blas::dtrsv(&own, uplo, trans, diag, a.view(), got.view_mut()).unwrap();
                let r = metrics::trsv_residual(uplo, trans, diag, a.view(), got.view(), y.view())
                    .unwrap();
                let bound = bounds::trsv(uplo, trans, diag, a.view(), got.view());
                let f = metrics::backward_residual_factor_f64(&r, &bound).unwrap();
                assert!(
                    f <= threshold("strsv"),
                    "dtrsv {uplo:?} {trans:?} {diag:?} in blocks: {f}"
                );
            }
        }
    }
}
