//! Residuals of the triangular solves, in `f64`.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Zip};

use super::shared::{tri_op, Real};
use crate::error::{Error, Result};
use crate::flags::{Diag, Side, Transpose, Uplo};

/// Order of the square `a`, or [`Error::NotSquare`].
fn square_order<E: Real>(routine: &'static str, a: &ArrayView2<'_, E>) -> Result<usize> {
    let (rows, cols) = a.dim();
    if rows == cols {
        Ok(rows)
    } else {
        Err(Error::NotSquare {
            routine,
            arg: "a",
            rows,
            cols,
        })
    }
}

/// Residual `op(T)·x − b` of a triangular solve (BLAS `strsv`), all arithmetic in `f64`
/// (products of two `f32` are exact in `f64`; the sums' rounding, ≈ 1e-16 relative, is negligible
/// against [`EPS`]).
///
/// `T` is the triangle `uplo` of `a`; the other triangle is never read (it may hold NaN). With
/// `Diag::Unit` the diagonal is taken as 1 and never read. `x` is the computed solution, `b` the
/// right-hand side (before the solve overwrote it). Feed the result to
/// [`backward_residual_factor`] with [`bounds::trsv`].
///
/// # Errors
/// [`Error::NotSquare`] (arg `"a"`) when `a` is not square; [`Error::DimensionMismatch`]
/// (arg `"x"` or `"b"`) when a length differs from the order of `a`. Routine:
/// `"metrics::trsv_residual"`.
///
/// [`EPS`]: crate::metrics::EPS
/// [`backward_residual_factor`]: crate::metrics::backward_residual_factor
/// [`bounds::trsv`]: crate::metrics::bounds::trsv
pub fn trsv_residual<E: Real>(
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: ArrayView2<'_, E>,
    x: ArrayView1<'_, E>,
    b: ArrayView1<'_, E>,
) -> Result<Array1<f64>> {
    const ROUTINE: &str = "metrics::trsv_residual";
    let n = square_order(ROUTINE, &a)?;
    for (arg, len) in [("x", x.len()), ("b", b.len())] {
        if len != n {
            return Err(Error::DimensionMismatch {
                routine: ROUTINE,
                arg,
                detail: format!("`a` is {n}x{n}, `{arg}` has length {len}"),
            });
        }
    }
    let mut r = tri_op(uplo, trans, diag, a).dot(&x.mapv(Real::to_f64));
    Zip::from(&mut r)
        .and(b)
        .for_each(|ri, &bi| *ri -= bi.to_f64());
    Ok(r)
}

/// Residual of a triangular solve with several right-hand sides (BLAS `strsm`), in `f64`:
/// `op(T)·X − alpha·B` for `Side::Left` (`T` m×m, `X`, `B` m×n) or `X·op(T) − alpha·B` for
/// `Side::Right` (`T` n×n).
///
/// `T` is the triangle `uplo` of `a` (the other triangle never read; with `Diag::Unit` the diagonal
/// is 1 and never read). `x` is the computed solution, `b` the right-hand side before the solve
/// overwrote it. When `alpha == 0` the term `alpha·B` is 0 and `b` is not read (BLAS sets
/// `X = 0` without reading B). Feed the result to [`backward_residual_factor`] with
/// [`bounds::trsm`].
///
/// # Errors
/// [`Error::NotSquare`] (arg `"a"`) when `a` is not square; [`Error::DimensionMismatch`] (arg
/// `"x"`) when `x`'s rows (Left) or columns (Right) differ from the order of `a`, (arg `"b"`) when
/// `b`'s shape differs from `x`'s. Routine: `"metrics::trsm_residual"`.
///
/// [`backward_residual_factor`]: crate::metrics::backward_residual_factor
/// [`bounds::trsm`]: crate::metrics::bounds::trsm
#[allow(clippy::too_many_arguments)] // the BLAS argument list
pub fn trsm_residual<E: Real>(
    side: Side,
    uplo: Uplo,
    transa: Transpose,
    diag: Diag,
    alpha: E,
    a: ArrayView2<'_, E>,
    x: ArrayView2<'_, E>,
    b: ArrayView2<'_, E>,
) -> Result<Array2<f64>> {
    const ROUTINE: &str = "metrics::trsm_residual";
    let order = square_order(ROUTINE, &a)?;
    let (m, n) = x.dim();
    let (read_over, what) = match side {
        Side::Left => (m, "rows"),
        Side::Right => (n, "columns"),
    };
    if read_over != order {
        return Err(Error::DimensionMismatch {
            routine: ROUTINE,
            arg: "x",
            detail: format!("`a` is {order}x{order}, `x` ({m}x{n}) has {read_over} {what}"),
        });
    }
    if b.dim() != x.dim() {
        return Err(Error::DimensionMismatch {
            routine: ROUTINE,
            arg: "b",
            detail: format!("`x` is {m}x{n}, `b` is {:?}", b.dim()),
        });
    }
    let t = tri_op(uplo, transa, diag, a);
    let x64 = x.mapv(Real::to_f64);
    let mut r = match side {
        Side::Left => t.dot(&x64),
        Side::Right => x64.dot(&t),
    };
    let alpha = alpha.to_f64();
    if alpha != 0.0 {
        Zip::from(&mut r)
            .and(b)
            .for_each(|rij, &bij| *rij -= alpha * bij.to_f64());
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::Diag::NonUnit;
    use crate::flags::Side::Left;
    use crate::flags::Transpose::No;
    use crate::flags::Uplo::Upper;
    use crate::metrics::NAN;
    use crate::metrics::{backward_residual_factor, bounds, is_mismatch, spec};
    use ndarray::array;

    fn array1(v: [f32; 2]) -> Array1<f32> {
        Array1::from(v.to_vec())
    }

    #[test]
    fn trsv_residual_all_uplo_trans() {
        // Stored a = [[2, −3], [5, 7]], x = [1, −2]; the unreferenced triangle is NaN.
        let upper = array![[2.0_f32, -3.0], [NAN, 7.0]];
        let lower = array![[2.0_f32, NAN], [5.0, 7.0]];
        let x = array![1.0_f32, -2.0];
        let nu = Diag::NonUnit;
        // (uplo, trans, a, b, residual)
        for (uplo, trans, a, b, expected) in [
            // Upper, No: T = [[2, −3], [0, 7]], T·x = [2 + 6, −14] = [8, −14];
            // b = [7, −14] → [1, 0].
            (Uplo::Upper, Transpose::No, &upper, [8.0, -14.0], [0.0, 0.0]),
            (Uplo::Upper, Transpose::No, &upper, [7.0, -14.0], [1.0, 0.0]),
            // Upper, Yes: Tᵀ = [[2, 0], [−3, 7]], Tᵀ·x = [2, −3 − 14] = [2, −17];
            // b = [2, −16] → [0, −1].
            (
                Uplo::Upper,
                Transpose::Yes,
                &upper,
                [2.0, -16.0],
                [0.0, -1.0],
            ),
            // Lower, No: T = [[2, 0], [5, 7]], T·x = [2, 5 − 14] = [2, −9].
            (Uplo::Lower, Transpose::No, &lower, [2.0, -9.0], [0.0, 0.0]),
            (Uplo::Lower, Transpose::No, &lower, [0.0, -9.0], [2.0, 0.0]),
            // Lower, Yes: Tᵀ = [[2, 5], [0, 7]], Tᵀ·x = [2 − 10, −14] = [−8, −14];
            // b = [−8, −14.5] → [0, 0.5].
            (
                Uplo::Lower,
                Transpose::Yes,
                &lower,
                [-8.0, -14.5],
                [0.0, 0.5],
            ),
        ] {
            let r = trsv_residual(uplo, trans, nu, a.view(), x.view(), array1(b).view()).unwrap();
            assert_eq!(r, Array1::from(expected.to_vec()), "{uplo:?} {trans:?}");
        }
        // Unit: the diagonal (NaN) is not read: T = [[1, −3], [0, 1]], T·x = [1 + 6, −2] = [7, −2].
        let unit_upper = array![[NAN, -3.0_f32], [NAN, NAN]];
        let r = trsv_residual(
            Uplo::Upper,
            Transpose::No,
            Diag::Unit,
            unit_upper.view(),
            x.view(),
            array![7.0_f32, -1.0].view(),
        )
        .unwrap();
        assert_eq!(r, array![0.0, -1.0]);
        // Unit, Lower, Yes: T = [[1, 0], [5, 1]], Tᵀ = [[1, 5], [0, 1]],
        // Tᵀ·x = [1 − 10, −2] = [−9, −2].
        let unit_lower = array![[NAN, NAN], [5.0_f32, NAN]];
        let r = trsv_residual(
            Uplo::Lower,
            Transpose::Yes,
            Diag::Unit,
            unit_lower.view(),
            x.view(),
            array![-9.0_f32, -2.0].view(),
        )
        .unwrap();
        assert_eq!(r, array![0.0, 0.0]);
    }

    #[test]
    fn trsv_residual_errors() {
        let a = Array2::<f32>::zeros((2, 3));
        let v = Array1::<f32>::zeros(2);
        let e = trsv_residual(Upper, No, NonUnit, a.view(), v.view(), v.view()).unwrap_err();
        assert!(matches!(
            e,
            Error::NotSquare {
                routine: "metrics::trsv_residual",
                arg: "a",
                rows: 2,
                cols: 3
            }
        ));
        let a = Array2::<f32>::eye(2);
        let short = Array1::<f32>::zeros(1);
        let e = trsv_residual(Upper, No, NonUnit, a.view(), short.view(), v.view()).unwrap_err();
        assert!(is_mismatch(&e, "metrics::trsv_residual", "x"));
        let e = trsv_residual(Upper, No, NonUnit, a.view(), v.view(), short.view()).unwrap_err();
        assert!(is_mismatch(&e, "metrics::trsv_residual", "b"));
        // n = 0: empty residual.
        let empty = Array2::<f32>::zeros((0, 0));
        let r = trsv_residual(
            Uplo::Lower,
            Transpose::Yes,
            Diag::Unit,
            empty.view(),
            Array1::zeros(0).view(),
            Array1::zeros(0).view(),
        )
        .unwrap();
        assert_eq!(r.len(), 0);
    }

    #[test]
    fn trsm_residual_hand_values() {
        // Left, Upper, No, NonUnit, alpha = 2: T = [[2, −3], [0, 7]], X = [[1, 0], [−2, 1]],
        // T·X = [[2 + 6, −3], [−14, 7]] = [[8, −3], [−14, 7]]. B = T·X / 2 → residual 0;
        // B_01 = −1 instead of −1.5: −3 − 2·(−1) = −1.
        let a = array![[2.0_f32, -3.0], [NAN, 7.0]];
        let x = array![[1.0_f32, 0.0], [-2.0, 1.0]];
        let b = array![[4.0_f32, -1.5], [-7.0, 3.5]];
        let (l, u, n, nu) = (Side::Left, Uplo::Upper, Transpose::No, Diag::NonUnit);
        let r = trsm_residual(l, u, n, nu, 2.0, a.view(), x.view(), b.view()).unwrap();
        assert_eq!(r, Array2::<f64>::zeros((2, 2)));
        let b = array![[4.0_f32, -1.0], [-7.0, 3.5]];
        let r = trsm_residual(l, u, n, nu, 2.0, a.view(), x.view(), b.view()).unwrap();
        assert_eq!(r, array![[0.0, -1.0], [0.0, 0.0]]);

        // Right, Lower, Yes, Unit, alpha = 1: T = [[1, 0], [5, 1]] (diag NaN not read),
        // op(T) = Tᵀ = [[1, 5], [0, 1]], X = [[1, −2]], X·op(T) = [[1, 5 − 2]] = [[1, 3]];
        // B = [[1, 2.5]] → [[0, 0.5]].
        let a = array![[NAN, NAN], [5.0_f32, NAN]];
        let x = array![[1.0_f32, -2.0]];
        let r = trsm_residual(
            Side::Right,
            Uplo::Lower,
            Transpose::Yes,
            Diag::Unit,
            1.0,
            a.view(),
            x.view(),
            array![[1.0_f32, 2.5]].view(),
        )
        .unwrap();
        assert_eq!(r, array![[0.0, 0.5]]);

        // Left, Lower, Yes, NonUnit: T = [[2, 0], [−1, 4]], Tᵀ = [[2, −1], [0, 4]],
        // X = [[1], [1]]: Tᵀ·X = [[1], [4]]; alpha = 0.5, B = [[2], [8]] → 0.
        let a = array![[2.0_f32, NAN], [-1.0, 4.0]];
        let r = trsm_residual(
            Side::Left,
            Uplo::Lower,
            Transpose::Yes,
            Diag::NonUnit,
            0.5,
            a.view(),
            array![[1.0_f32], [1.0]].view(),
            array![[2.0_f32], [8.0]].view(),
        )
        .unwrap();
        assert_eq!(r, array![[0.0], [0.0]]);

        // alpha = 0: B (NaN) is not read; X = 0 → residual 0.
        let r = trsm_residual(
            Side::Left,
            Uplo::Lower,
            Transpose::No,
            Diag::NonUnit,
            0.0,
            a.view(),
            Array2::<f32>::zeros((2, 3)).view(),
            Array2::from_elem((2, 3), NAN).view(),
        )
        .unwrap();
        assert_eq!(r, Array2::<f64>::zeros((2, 3)));
    }

    #[test]
    fn trsm_residual_errors() {
        const R: &str = "metrics::trsm_residual";
        let (u, n, nu) = (Uplo::Upper, Transpose::No, Diag::NonUnit);
        let rect = Array2::<f32>::zeros((2, 3));
        let a = Array2::<f32>::eye(2);
        let x23 = Array2::<f32>::zeros((2, 3));
        let e =
            trsm_residual(Left, u, n, nu, 1.0, rect.view(), x23.view(), x23.view()).unwrap_err();
        assert!(matches!(
            e,
            Error::NotSquare {
                routine: R,
                arg: "a",
                ..
            }
        ));
        // Right with X 2×3: A must be 3×3.
        let e = trsm_residual(Side::Right, u, n, nu, 1.0, a.view(), x23.view(), x23.view())
            .unwrap_err();
        assert!(is_mismatch(&e, R, "x"));
        // Left fits, B of the wrong shape.
        let b32 = Array2::<f32>::zeros((3, 2));
        let e =
            trsm_residual(Side::Left, u, n, nu, 1.0, a.view(), x23.view(), b32.view()).unwrap_err();
        assert!(is_mismatch(&e, R, "b"));
    }

    #[test]
    fn residual_and_bound_compose() {
        // strsv end to end: Upper No, a = [[2, −3], [NaN, 7]], x = [1, −2] (T·x = [8, −14]),
        // b = [7, −14] → residual [1, 0]; bound = 3·[8, 14] = [24, 42];
        // factor = 1 / (2^-23 · 24) = 2^23 / 24 ≈ 349525.33 — far above 3: a wrong solve fails.
        let a = array![[2.0_f32, -3.0], [NAN, 7.0]];
        let x = array![1.0_f32, -2.0];
        let (u, n, nu) = (Uplo::Upper, Transpose::No, Diag::NonUnit);
        let r = trsv_residual(u, n, nu, a.view(), x.view(), array![7.0_f32, -14.0].view()).unwrap();
        let bound = bounds::trsv(u, n, nu, a.view(), x.view());
        let f = backward_residual_factor(&r, &bound).unwrap();
        assert_eq!(f, 8_388_608.0 / 24.0);
        assert!(!spec("strsv").unwrap().passes(f));
        // Exact solution: factor 0, passes.
        let r = trsv_residual(u, n, nu, a.view(), x.view(), array![8.0_f32, -14.0].view()).unwrap();
        assert_eq!(backward_residual_factor(&r, &bound).unwrap(), 0.0);
        // b_0 one ulp above 8 (8 + 2^-20): residual −2^-20, factor 2^-20 / (2^-23 · 24) = 1/3.
        let b = array![8.0_f32 + 2f32.powi(-20), -14.0];
        let r = trsv_residual(u, n, nu, a.view(), x.view(), b.view()).unwrap();
        assert_eq!(r, array![-(2f64.powi(-20)), 0.0]);
        let f = backward_residual_factor(&r, &bound).unwrap();
        assert!((f - 1.0 / 3.0).abs() < 1e-12, "{f}");
        assert!(spec("strsv").unwrap().passes(f));
    }
}
