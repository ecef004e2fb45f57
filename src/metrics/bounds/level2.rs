//! Bounds of the Level 2 routines.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

use crate::flags::{Diag, Transpose, Uplo};
use crate::metrics::shared::{
    abs1, abs2, abs_sym, add_term1, assert_square, in_triangle, op_view, term, tri_op, Real,
};

/// `sgemv` (`y ← alpha·op(A)·x + beta·y`):
/// `bound_i = (n+1)·|alpha|·Σ_j |op(A)_ij|·|x_j| + |beta|·|y_i|`, `n = len(x)`.
///
/// # Panics
/// When `op(A)` is not `len(y)`×`len(x)`.
pub fn gemv<E: Real>(
    trans: Transpose,
    alpha: E,
    a: ArrayView2<'_, E>,
    x: ArrayView1<'_, E>,
    beta: E,
    y: ArrayView1<'_, E>,
) -> Array1<f64> {
    let opa = op_view(trans, a);
    assert_eq!(
        opa.dim(),
        (y.len(), x.len()),
        "bounds::gemv: op(a) must be len(y) x len(x)"
    );
    let n = x.len();
    let scale = (n as f64 + 1.0) * alpha.to_f64().abs();
    let mut out = if scale == 0.0 {
        Array1::zeros(y.len())
    } else {
        abs2(opa).dot(&abs1(x)) * scale
    };
    add_term1(&mut out, beta.to_f64(), y);
    out
}

/// `ssymv` (`y ← alpha·A·x + beta·y`, A symmetric, stored in triangle `uplo`):
/// `bound_i = (n+2)·|alpha|·Σ_j |A_ij|·|x_j| + 2·|beta|·|y_i|`, `A_ij` read from the triangle
/// `uplo` (`A_ij = A_ji`).
///
/// # Panics
/// When `a` is not square of order `len(x) = len(y)`.
pub fn symv<E: Real>(
    uplo: Uplo,
    alpha: E,
    a: ArrayView2<'_, E>,
    x: ArrayView1<'_, E>,
    beta: E,
    y: ArrayView1<'_, E>,
) -> Array1<f64> {
    let n = assert_square("bounds::symv", &a);
    assert!(
        x.len() == n && y.len() == n,
        "bounds::symv: x and y must have length {n}"
    );
    let scale = (n as f64 + 2.0) * alpha.to_f64().abs();
    let mut out = if scale == 0.0 {
        Array1::zeros(n)
    } else {
        abs_sym(uplo, a).dot(&abs1(x)) * scale
    };
    add_term1(&mut out, 2.0 * beta.to_f64(), y);
    out
}

/// `(n+1)·|op(T)|·|x|`, the bound of strmv and strsv.
fn triangular_vector<E: Real>(
    what: &str,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: ArrayView2<'_, E>,
    x: ArrayView1<'_, E>,
) -> Array1<f64> {
    let n = assert_square(what, &a);
    assert_eq!(x.len(), n, "{what}: x must have length {n}");
    let mut t = tri_op(uplo, trans, diag, a);
    t.mapv_inplace(f64::abs);
    t.dot(&abs1(x)) * (n as f64 + 1.0)
}

/// `strmv` (`x ← op(T)·x`): `bound_i = (n+1)·Σ_j |op(T)_ij|·|x_j|`, with `x` the input vector
/// and `T` the triangle `uplo` of `a` (diagonal 1 for `Diag::Unit`, not read).
///
/// # Panics
/// When `a` is not square of order `len(x)`.
pub fn trmv<E: Real>(
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: ArrayView2<'_, E>,
    x: ArrayView1<'_, E>,
) -> Array1<f64> {
    triangular_vector("bounds::trmv", uplo, trans, diag, a, x)
}

/// `strsv` (solve `op(T)·x = b`), for [`backward_residual_factor`]:
/// `bound_i = (n+1)·Σ_j |op(T)_ij|·|x_j|`, with `x` the computed solution (Higham Thm 8.5).
///
/// # Panics
/// When `a` is not square of order `len(x)`.
///
/// [`backward_residual_factor`]: crate::metrics::backward_residual_factor
pub fn trsv<E: Real>(
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: ArrayView2<'_, E>,
    x: ArrayView1<'_, E>,
) -> Array1<f64> {
    triangular_vector("bounds::trsv", uplo, trans, diag, a, x)
}

/// The factor against the exact update, with the bound of [`ger`], [`syr`] or [`syr2`], within
/// which a rank update whose elements are documented as rounded once (`blas::sger`, `ssyr`,
/// `ssyr2`: the exact `A_ij + alpha·x_i·y_j` evaluated in double-f32 and rounded once) must lie:
/// one rounding to nearest is within half an ULP, `|fl(v) − v| ≤ ½·ulp(v) ≤ ½·EPS·|v|`, and
/// `|v| ≤ bound_ij`, so the factor is at most ½; the 0.001 above ½ covers the double-word
/// evaluation's error before the last rounding (a double-f32 value carries about 48 bits of
/// the 72-bit product: near 2^-44·bound_ij, 2^-21 in these units; in f64, `dger`, `dsyr`,
/// `dsyr2`, about 104 of 159 bits, in units of 2^-52) and that of the exact update the tests
/// compare with (its error-free terms summed as two f64: below 2^-100·bound_ij). Stricter
/// than `metrics::spec`'s 2 for these routines, which allows any summation order.
pub const ROUNDED_ONCE: f64 = 0.501;

/// `sger` (`A ← alpha·x·yᵀ + A`): `bound_ij = |alpha·x_i·y_j| + |A_ij|`.
///
/// # Panics
/// When `a` is not `len(x)`×`len(y)`.
pub fn ger<E: Real>(
    alpha: E,
    x: ArrayView1<'_, E>,
    y: ArrayView1<'_, E>,
    a: ArrayView2<'_, E>,
) -> Array2<f64> {
    assert_eq!(
        a.dim(),
        (x.len(), y.len()),
        "bounds::ger: a must be len(x) x len(y)"
    );
    let alpha = alpha.to_f64();
    Array2::from_shape_fn(a.dim(), |(i, j)| {
        term(alpha, x[i].to_f64() * y[j].to_f64()) + a[[i, j]].to_f64().abs()
    })
}

/// `ssyr` (`A ← alpha·x·xᵀ + A` on triangle `uplo`): `bound_ij = |alpha·x_i·x_j| + |A_ij|` on
/// the triangle (diagonal included), 0 elsewhere (A not read there).
///
/// # Panics
/// When `a` is not square of order `len(x)`.
pub fn syr<E: Real>(
    uplo: Uplo,
    alpha: E,
    x: ArrayView1<'_, E>,
    a: ArrayView2<'_, E>,
) -> Array2<f64> {
    let n = assert_square("bounds::syr", &a);
    assert_eq!(x.len(), n, "bounds::syr: x must have length {n}");
    let alpha = alpha.to_f64();
    Array2::from_shape_fn((n, n), |(i, j)| {
        if in_triangle(uplo, i, j) {
            term(alpha, x[i].to_f64() * x[j].to_f64()) + a[[i, j]].to_f64().abs()
        } else {
            0.0
        }
    })
}

/// `ssyr2` (`A ← alpha·x·yᵀ + alpha·y·xᵀ + A` on triangle `uplo`):
/// `bound_ij = |alpha·x_i·y_j| + |alpha·y_i·x_j| + |A_ij|` on the triangle, 0 elsewhere.
///
/// # Panics
/// When `a` is not square of order `len(x) = len(y)`.
pub fn syr2<E: Real>(
    uplo: Uplo,
    alpha: E,
    x: ArrayView1<'_, E>,
    y: ArrayView1<'_, E>,
    a: ArrayView2<'_, E>,
) -> Array2<f64> {
    let n = assert_square("bounds::syr2", &a);
    assert!(
        x.len() == n && y.len() == n,
        "bounds::syr2: x and y must have length {n}"
    );
    let alpha = alpha.to_f64();
    Array2::from_shape_fn((n, n), |(i, j)| {
        if in_triangle(uplo, i, j) {
            let (xi, xj) = (x[i].to_f64(), x[j].to_f64());
            let (yi, yj) = (y[i].to_f64(), y[j].to_f64());
            term(alpha, xi * yj) + term(alpha, yi * xj) + a[[i, j]].to_f64().abs()
        } else {
            0.0
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::Diag::Unit;
    use crate::flags::Transpose::No;
    use crate::flags::Uplo::Upper;
    use crate::metrics::bounds;
    use crate::metrics::NAN;
    use ndarray::array;

    #[test]
    fn bounds_gemv() {
        // A = [[1, −2], [3, 4]], x = [1, −1], y = [2, 0.5], alpha = 0.5, beta = −2, n = 2.
        let a = array![[1.0_f32, -2.0], [3.0, 4.0]];
        let x = array![1.0_f32, -1.0];
        let y = array![2.0_f32, 0.5];
        // No: Σ_j|A_ij||x_j| = [3, 7]; ·(n+1)|alpha| = 1.5 → [4.5, 10.5];
        // + 2|y| = [4, 1] → [8.5, 11.5].
        let b = bounds::gemv(Transpose::No, 0.5, a.view(), x.view(), -2.0, y.view());
        assert_eq!(b, array![8.5, 11.5]);
        // Yes: Aᵀ = [[1, 3], [−2, 4]]: [4, 6]·1.5 = [6, 9] + [4, 1] → [10, 10].
        let b = bounds::gemv(Transpose::Yes, 0.5, a.view(), x.view(), -2.0, y.view());
        assert_eq!(b, array![10.0, 10.0]);
        // 2×3, beta = 0 with y NaN (not read): (3+1)·1·[1+2+3, 4+5+6] = [24, 60].
        let a23 = array![[1.0_f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
        let ones = array![1.0_f32, 1.0, 1.0];
        let nan_y = array![NAN, NAN];
        let b = bounds::gemv(No, 1.0, a23.view(), ones.view(), 0.0, nan_y.view());
        assert_eq!(b, array![24.0, 60.0]);
        // alpha = 0 with A NaN (not read): |beta||y| = [2, 0.5]·1 = ...
        let nan_a = Array2::from_elem((2, 2), NAN);
        let b = bounds::gemv(Transpose::No, 0.0, nan_a.view(), x.view(), 1.0, y.view());
        assert_eq!(b, array![2.0, 0.5]);
    }

    #[test]
    fn bounds_symv_reads_one_triangle() {
        // Symmetric A = [[1, −2], [−2, 4]], x = [1, −1], alpha = 0.5, beta = −2, y = [2, 0.5]:
        // Σ_j|A_ij||x_j| = [3, 6]; (n+2)|alpha| = 2 → [6, 12]; 2|beta||y| = [8, 2] → [14, 14].
        let upper = array![[1.0_f32, -2.0], [NAN, 4.0]];
        let lower = array![[1.0_f32, NAN], [-2.0, 4.0]];
        let x = array![1.0_f32, -1.0];
        let y = array![2.0_f32, 0.5];
        let bu = bounds::symv(Uplo::Upper, 0.5, upper.view(), x.view(), -2.0, y.view());
        let bl = bounds::symv(Uplo::Lower, 0.5, lower.view(), x.view(), -2.0, y.view());
        assert_eq!(bu, array![14.0, 14.0]);
        assert_eq!(bl, array![14.0, 14.0]);
    }

    #[test]
    fn bounds_trmv_trsv_all_combos() {
        // Stored a = [[2, −3], [5, 7]], x = [1, −2], n + 1 = 3; unreferenced triangle NaN.
        let upper = array![[2.0_f32, -3.0], [NAN, 7.0]];
        let lower = array![[2.0_f32, NAN], [5.0, 7.0]];
        let x = array![1.0_f32, -2.0];
        let nu = Diag::NonUnit;
        // Upper No: [[2, −3], [0, 7]] → |T||x| = [2 + 6, 14] = [8, 14] → [24, 42].
        let b = bounds::trmv(Uplo::Upper, Transpose::No, nu, upper.view(), x.view());
        assert_eq!(b, array![24.0, 42.0]);
        // Upper Yes: [[2, 0], [−3, 7]] → [2, 3 + 14] → [6, 51].
        let b = bounds::trmv(Uplo::Upper, Transpose::Yes, nu, upper.view(), x.view());
        assert_eq!(b, array![6.0, 51.0]);
        // Lower No: [[2, 0], [5, 7]] → [2, 5 + 14] → [6, 57].
        let b = bounds::trmv(Uplo::Lower, Transpose::No, nu, lower.view(), x.view());
        assert_eq!(b, array![6.0, 57.0]);
        // Lower Yes: [[2, 5], [0, 7]] → [2 + 10, 14] → [36, 42].
        let b = bounds::trmv(Uplo::Lower, Transpose::Yes, nu, lower.view(), x.view());
        assert_eq!(b, array![36.0, 42.0]);
        // Unit, diagonal NaN not read: [[1, −3], [0, 1]] → [1 + 6, 2] → [21, 6].
        let unit = array![[NAN, -3.0_f32], [NAN, NAN]];
        let b = bounds::trmv(Upper, No, Unit, unit.view(), x.view());
        assert_eq!(b, array![21.0, 6.0]);
        // trsv has the same formula (x = the solution).
        let b = bounds::trsv(Uplo::Lower, Transpose::Yes, nu, lower.view(), x.view());
        assert_eq!(b, array![36.0, 42.0]);
        let b = bounds::trsv(Upper, No, Unit, unit.view(), x.view());
        assert_eq!(b, array![21.0, 6.0]);
    }

    #[test]
    fn bounds_ger_syr_syr2() {
        // alpha = 0.5, x = [1, −2], y = [4, −6]:
        // |alpha x_i y_j| = 0.5·[[4, 6], [8, 12]] = [[2, 3], [4, 6]].
        let x = array![1.0_f32, -2.0];
        let y = array![4.0_f32, -6.0];
        // ger, A = [[1, −1], [2, −3]]: + |A| → [[3, 4], [6, 9]].
        let a = array![[1.0_f32, -1.0], [2.0, -3.0]];
        assert_eq!(
            bounds::ger(0.5, x.view(), y.view(), a.view()),
            array![[3.0, 4.0], [6.0, 9.0]]
        );
        // ger 2×3, alpha = 0 with x NaN: |A| only.
        let a23 = array![[1.0_f32, -2.0, 3.0], [0.0, 5.0, -6.0]];
        let y3 = array![1.0_f32, 1.0, 1.0];
        assert_eq!(
            bounds::ger(0.0, array![NAN, NAN].view(), y3.view(), a23.view()),
            array![[1.0, 2.0, 3.0], [0.0, 5.0, 6.0]]
        );
        // syr: |alpha x_i x_j| = 0.5·[[1, 2], [2, 4]] = [[0.5, 1], [1, 2]].
        // Upper, A = [[1, −1], [NaN, −3]] → [[1.5, 2], [0, 5]].
        let au = array![[1.0_f32, -1.0], [NAN, -3.0]];
        assert_eq!(
            bounds::syr(Uplo::Upper, 0.5, x.view(), au.view()),
            array![[1.5, 2.0], [0.0, 5.0]]
        );
        // Lower, A = [[1, NaN], [2, −3]] → [[1.5, 0], [3, 5]].
        let al = array![[1.0_f32, NAN], [2.0, -3.0]];
        assert_eq!(
            bounds::syr(Uplo::Lower, 0.5, x.view(), al.view()),
            array![[1.5, 0.0], [3.0, 5.0]]
        );
        // syr2: |alpha y_i x_j| = 0.5·[[4, 8], [6, 12]] = [[2, 4], [3, 6]].
        // Upper: (0,0) 2 + 2 + 1 = 5; (0,1) 3 + 4 + 1 = 8; (1,1) 6 + 6 + 3 = 15.
        assert_eq!(
            bounds::syr2(Uplo::Upper, 0.5, x.view(), y.view(), au.view()),
            array![[5.0, 8.0], [0.0, 15.0]]
        );
        // Lower: (1,0) 4 + 3 + 2 = 9.
        assert_eq!(
            bounds::syr2(Uplo::Lower, 0.5, x.view(), y.view(), al.view()),
            array![[5.0, 0.0], [9.0, 15.0]]
        );
    }
}
