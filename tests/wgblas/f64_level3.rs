//! dtrmm and dtrsm against OpenBLAS in f64 (units of 2^-52, the s twins' bounds and
//! thresholds), with their alpha = 0 rules hand-computed (helpers from `dgemm`).

use ndarray::{array, Array2};
use wgblas::metrics::{self};
use wgblas::prelude::*;
use wgblas::{blas, Uplo};

use crate::common::*;
use crate::dgemm::*;

/// dtrmm against OpenBLAS dtrmm with the strmm bound `(r+1)·|alpha|·Σ_p |op(A)_ip|·|B_pj|`
/// (the triangle only, a unit diagonal as 1) in units of 2^-52; the unreferenced triangle of A,
/// and its diagonal for `Diag::Unit`, hold NaN; alpha = 0 sets B to 0 reading nothing.
#[test]
fn dtrmm_against_openblas() {
    use cblas_sys::*;
    use wgblas::{Diag, Side};
    for (m, n) in [(1, 1), (9, 5), (33, 17), (20, 130)] {
        for side in [Side::Left, Side::Right] {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                for t in TRANS {
                    for diag in [Diag::NonUnit, Diag::Unit] {
                        let r = if side == Side::Left { m } else { n };
                        let g = rand64(131, (r, r));
                        let lower = uplo == Uplo::Lower;
                        let tri = Array2::from_shape_fn((r, r), |(i, j)| {
                            if i == j && diag == Diag::Unit {
                                1.0
                            } else if (lower && i >= j) || (!lower && i <= j) {
                                g[[i, j]]
                            } else {
                                0.0
                            }
                        });
                        let stored = Array2::from_shape_fn((r, r), |(i, j)| {
                            let unit = i == j && diag == Diag::Unit;
                            if !unit && ((lower && i >= j) || (!lower && i <= j)) {
                                g[[i, j]]
                            } else {
                                f64::NAN
                            }
                        });
                        let b = rand64(132, (m, n));
                        let alpha = 0.7;
                        let sa = Mat64::new(&stored, Layout::F);
                        let mut sb = Mat64::new(&b, Layout::C);
                        blas::dtrmm(ctx(), side, uplo, t, diag, alpha, sa.view(), sb.view_mut())
                            .unwrap();
                        // OpenBLAS on the dense triangle (its NaN-free copy).
                        let mut want = b.clone();
                        unsafe {
                            cblas_dtrmm(
                                CBLAS_LAYOUT::CblasRowMajor,
                                if side == Side::Left {
                                    CBLAS_SIDE::CblasLeft
                                } else {
                                    CBLAS_SIDE::CblasRight
                                },
                                if lower {
                                    CBLAS_UPLO::CblasLower
                                } else {
                                    CBLAS_UPLO::CblasUpper
                                },
                                if t == Transpose::No {
                                    CBLAS_TRANSPOSE::CblasNoTrans
                                } else {
                                    CBLAS_TRANSPOSE::CblasTrans
                                },
                                if diag == Diag::Unit {
                                    CBLAS_DIAG::CblasUnit
                                } else {
                                    CBLAS_DIAG::CblasNonUnit
                                },
                                m as i32,
                                n as i32,
                                alpha,
                                tri.as_ptr(),
                                r as i32,
                                want.as_mut_ptr(),
                                n as i32,
                            )
                        };
                        let op = if t == Transpose::No {
                            tri.clone()
                        } else {
                            tri.t().to_owned()
                        };
                        let prod = if side == Side::Left {
                            op.mapv(f64::abs).dot(&b.mapv(f64::abs))
                        } else {
                            b.mapv(f64::abs).dot(&op.mapv(f64::abs))
                        };
                        let bound = prod * ((r as f64 + 1.0) * alpha);
                        let f = metrics::forward_factor_f64(&sb.view(), &want, &bound).unwrap();
                        assert!(
                            f <= THRESHOLD,
                            "dtrmm {m}x{n} {side:?} {uplo:?} {t:?} {diag:?}: {f}"
                        );
                    }
                }
            }
        }
    }
    let a = Array2::from_elem((2, 2), f64::NAN);
    let mut b = array![[1.0f64, f64::NAN], [3.0, 4.0]];
    blas::dtrmm(
        ctx(),
        Side::Left,
        Uplo::Lower,
        Transpose::No,
        Diag::NonUnit,
        0.0,
        a.view(),
        b.view_mut(),
    )
    .unwrap();
    assert_eq!(b, Array2::zeros((2, 2)));
}

/// dtrsm by its backward residual (DESIGN.md §2: `max |op(A)·X − alpha·B| / (eps·(r+1)·
/// Σ_k |op(A)_ik|·|X_kj|)`, eps = 2^-52, threshold 5), both sides, triangles, transposes and
/// diagonals, sizes across the 32-row diagonal blocks, NaN in the unreferenced triangle; a
/// hand-computed case; alpha = 0 sets B to 0.
#[test]
fn dtrsm_backward_residual() {
    use wgblas::{Diag, Side};
    for (m, n) in [(1, 1), (9, 5), (70, 3), (5, 100)] {
        for side in [Side::Left, Side::Right] {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                for t in TRANS {
                    for diag in [Diag::NonUnit, Diag::Unit] {
                        let r = if side == Side::Left { m } else { n };
                        let g = rand64(141, (r, r));
                        let lower = uplo == Uplo::Lower;
                        // A well-conditioned triangle: a dominant diagonal.
                        let tri = Array2::from_shape_fn((r, r), |(i, j)| {
                            if i == j {
                                if diag == Diag::Unit {
                                    1.0
                                } else {
                                    2.0 + g[[i, j]].abs()
                                }
                            } else if (lower && i > j) || (!lower && i < j) {
                                g[[i, j]] / r as f64
                            } else {
                                0.0
                            }
                        });
                        let stored = Array2::from_shape_fn((r, r), |(i, j)| {
                            let unit = i == j && diag == Diag::Unit;
                            if !unit && ((lower && i >= j) || (!lower && i <= j)) {
                                tri[[i, j]]
                            } else {
                                f64::NAN
                            }
                        });
                        let b = rand64(142, (m, n));
                        let alpha = 0.7;
                        let sa = Mat64::new(&stored, Layout::C);
                        let mut sx = Mat64::new(&b, Layout::F);
                        blas::dtrsm(ctx(), side, uplo, t, diag, alpha, sa.view(), sx.view_mut())
                            .unwrap();
                        let x = sx.view().to_owned();
                        let op = if t == Transpose::No {
                            tri.clone()
                        } else {
                            tri.t().to_owned()
                        };
                        let (ax, bound) = if side == Side::Left {
                            (op.dot(&x), op.mapv(f64::abs).dot(&x.mapv(f64::abs)))
                        } else {
                            (x.dot(&op), x.mapv(f64::abs).dot(&op.mapv(f64::abs)))
                        };
                        let bound = bound * (r as f64 + 1.0);
                        let mut worst = 0.0f64;
                        for ((i, j), v) in ax.indexed_iter() {
                            let res = (v - alpha * b[[i, j]]).abs();
                            if res != 0.0 {
                                worst = worst.max(res / (metrics::EPS64 * bound[[i, j]]));
                            }
                        }
                        assert!(
                            worst <= 5.0,
                            "dtrsm {m}x{n} {side:?} {uplo:?} {t:?} {diag:?}: residual factor {worst}"
                        );
                    }
                }
            }
        }
    }
    // Hand values: X·[[2, 1], [0, 4]] = [[4, 6], [8, 12]] gives X = [[2, 1], [4, 2]].
    let a = array![[2.0f64, 1.0], [f64::NAN, 4.0]];
    let mut b = array![[4.0f64, 6.0], [8.0, 12.0]];
    blas::dtrsm(
        ctx(),
        Side::Right,
        Uplo::Upper,
        Transpose::No,
        Diag::NonUnit,
        1.0,
        a.view(),
        b.view_mut(),
    )
    .unwrap();
    assert_eq!(b, array![[2.0, 1.0], [4.0, 2.0]]);
    let mut b = array![[f64::NAN, 1.0]];
    blas::dtrsm(
        ctx(),
        Side::Left,
        Uplo::Lower,
        Transpose::No,
        Diag::Unit,
        0.0,
        Array2::from_elem((1, 1), f64::NAN).view(),
        b.view_mut(),
    )
    .unwrap();
    assert_eq!(b, array![[0.0, 0.0]]);
}
