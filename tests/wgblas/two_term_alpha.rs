//! An infinite alpha in the two-term updates `alpha·x·yᵀ + alpha·y·xᵀ` (ssyr2, dsyr2) and
//! `alpha·A·Bᵀ + alpha·B·Aᵀ` (ssyr2k, dsyr2k): each term is scaled by alpha, so a zero second
//! term meets the infinite alpha and gives `Inf·0 = NaN`, as reference BLAS has it (DESIGN.md
//! §3: NaN and Inf propagate through every product of the formula; a NaN or Inf alpha is not
//! 0). Until session 14, dsyr2, ssyr2k and dsyr2k summed both terms first and scaled once,
//! `Inf·(Inf + 0) = Inf` (found by an outside probe of the public API). Hand values, host and
//! device alphas, at n = 2 (one tile) and n = 40 (the same values in the top-left corner).

use ndarray::{Array1, Array2};
use wgblas::{blas, Transpose, Uplo};

use crate::common::{ctx, dev32, dev64};

/// Vectors of n elements starting with `head`, then ones.
fn vec_of(n: usize, head: [f32; 2]) -> Array1<f32> {
    let mut v = Array1::from_elem(n, 1.0);
    v[0] = head[0];
    v[1] = head[1];
    v
}

/// ssyr2 and dsyr2, x = [Inf, 1, ...], y = [0, 1, ...], A = 0, alpha = ±Inf: element (0, 1)
/// (upper) or (1, 0) (lower) is x_0·(alpha·y_1) + y_0·(alpha·x_1) = ±Inf + 0·(±Inf) = NaN; the
/// diagonal element (1, 1) is 2·alpha, ±Inf.
#[test]
fn syr2_infinite_alpha_times_zero_term_is_nan() {
    assert!(ctx().native_f64(), "the adapter has no f64 shaders");
    for n in [2, 40] {
        for sign in [1.0, -1.0] {
            for (uplo, at) in [(Uplo::Upper, [0, 1]), (Uplo::Lower, [1, 0])] {
                let (x, y) = (vec_of(n, [f32::INFINITY, 1.0]), vec_of(n, [0.0f32, 1.0]));
                let alpha = sign * f32::INFINITY;
                for device in [false, true] {
                    let mut a = Array2::<f32>::zeros((n, n));
                    if device {
                        blas::ssyr2(ctx(), uplo, &dev32(alpha), &x, &y, &mut a).unwrap();
                    } else {
                        blas::ssyr2(ctx(), uplo, alpha, &x, &y, &mut a).unwrap();
                    }
                    assert!(
                        a[at].is_nan(),
                        "ssyr2 n {n} {uplo:?} alpha {alpha} dev {device}: {}",
                        a[at]
                    );
                    assert_eq!(a[[1, 1]], alpha, "ssyr2 diagonal");
                }
                let (x, y) = (x.mapv(f64::from), y.mapv(f64::from));
                let alpha = f64::from(alpha);
                for device in [false, true] {
                    let mut a = Array2::<f64>::zeros((n, n));
                    if device {
                        blas::dsyr2(ctx(), uplo, &dev64(alpha), &x, &y, &mut a).unwrap();
                    } else {
                        blas::dsyr2(ctx(), uplo, alpha, &x, &y, &mut a).unwrap();
                    }
                    assert!(
                        a[at].is_nan(),
                        "dsyr2 n {n} {uplo:?} alpha {alpha} dev {device}: {}",
                        a[at]
                    );
                    assert_eq!(a[[1, 1]], alpha, "dsyr2 diagonal");
                }
            }
        }
    }
}

/// ssyr2k and dsyr2k, k = 1, A = [Inf, 1, ...]ᵀ, B = [0, 1, ...]ᵀ (n×1; for `Transpose::Yes`
/// stored as 1×n), beta = 0, alpha = ±Inf: C(0, 1) (upper) or C(1, 0) (lower) =
/// alpha·A_0·B_1 + alpha·B_0·A_1 = ±Inf + (±Inf)·0 = NaN (reference SSYR2K gives NaN in both
/// trans forms); C(1, 1) = 2·alpha·1 = ±Inf.
#[test]
fn syr2k_infinite_alpha_times_zero_term_is_nan() {
    assert!(ctx().native_f64(), "the adapter has no f64 shaders");
    for n in [2, 40] {
        let a = vec_of(n, [f32::INFINITY, 1.0]).insert_axis(ndarray::Axis(1));
        let b = vec_of(n, [0.0f32, 1.0]).insert_axis(ndarray::Axis(1));
        for trans in [Transpose::No, Transpose::Yes] {
            let (sa, sb) = match trans {
                Transpose::No => (a.clone(), b.clone()),
                Transpose::Yes => (a.t().to_owned(), b.t().to_owned()),
            };
            for sign in [1.0, -1.0] {
                for (uplo, at) in [(Uplo::Upper, [0, 1]), (Uplo::Lower, [1, 0])] {
                    let alpha = sign * f32::INFINITY;
                    for device in [false, true] {
                        let mut c = Array2::<f32>::zeros((n, n));
                        if device {
                            let d = dev32(alpha);
                            blas::ssyr2k(ctx(), uplo, trans, &d, &sa, &sb, 0.0, &mut c).unwrap();
                        } else {
                            blas::ssyr2k(ctx(), uplo, trans, alpha, &sa, &sb, 0.0, &mut c).unwrap();
                        }
                        let tag =
                            format!("ssyr2k n {n} {trans:?} {uplo:?} alpha {alpha} dev {device}");
                        assert!(c[at].is_nan(), "{tag}: {}", c[at]);
                        assert_eq!(c[[1, 1]], alpha, "{tag}: diagonal");
                        // The rest of the diagonal: 2·alpha·1·1.
                        assert!((2..n).all(|i| c[[i, i]] == alpha), "{tag}: diagonal past 1");
                    }
                    let (da, db) = (sa.mapv(f64::from), sb.mapv(f64::from));
                    let alpha = f64::from(alpha);
                    for device in [false, true] {
                        let mut c = Array2::<f64>::zeros((n, n));
                        if device {
                            let d = dev64(alpha);
                            blas::dsyr2k(ctx(), uplo, trans, &d, &da, &db, 0.0, &mut c).unwrap();
                        } else {
                            blas::dsyr2k(ctx(), uplo, trans, alpha, &da, &db, 0.0, &mut c).unwrap();
                        }
                        let tag =
                            format!("dsyr2k n {n} {trans:?} {uplo:?} alpha {alpha} dev {device}");
                        assert!(c[at].is_nan(), "{tag}: {}", c[at]);
                        assert_eq!(c[[1, 1]], alpha, "{tag}: diagonal");
                    }
                }
            }
        }
    }
}
