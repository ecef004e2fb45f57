//! Bounds of the Level 3 routines.

use ndarray::{Array2, ArrayView2};

use crate::flags::{Diag, Side, Transpose, Uplo};
use crate::metrics::shared::{
    abs2, abs_sym, add_term2, assert_square, mask_triangle, op_view, scaled, tri_op, Real,
};

/// `(k+1)·|alpha|·|op(A)|·|op(B)|` (op(A) m×k, op(B) k×n), the product term of [`gemm`] and
/// [`gemmtr`]; panics (naming `what`) unless the inner dimensions agree and C is m×n.
fn product_term<E: Real>(
    what: &str,
    transa: Transpose,
    transb: Transpose,
    alpha: E,
    a: ArrayView2<'_, E>,
    b: ArrayView2<'_, E>,
    c_dim: (usize, usize),
) -> Array2<f64> {
    let (opa, opb) = (op_view(transa, a), op_view(transb, b));
    let ((m, k), (kb, n)) = (opa.dim(), opb.dim());
    assert_eq!(k, kb, "{what}: op(a) is {m}x{k} but op(b) is {kb}x{n}");
    assert_eq!(c_dim, (m, n), "{what}: c must be {m}x{n}");
    let scale = (k as f64 + 1.0) * alpha.to_f64().abs();
    scaled(scale, (m, n), || abs2(opa).dot(&abs2(opb)))
}

/// `out` restricted to triangle `uplo` (0 elsewhere), plus `|coef·C_ij|` on it: the bound of a
/// routine whose output is a triangle (C read only there, and not at all for `coef = 0`).
fn on_triangle<E: Real>(
    mut out: Array2<f64>,
    uplo: Uplo,
    coef: f64,
    c: ArrayView2<'_, E>,
) -> Array2<f64> {
    mask_triangle(&mut out, uplo);
    add_term2(&mut out, coef, c, Some(uplo));
    out
}

/// `sgemm` (`C ← alpha·op(A)·op(B) + beta·C`, op(A) m×k, op(B) k×n):
/// `bound_ij = (k+1)·|alpha|·Σ_p |op(A)_ip|·|op(B)_pj| + |beta|·|C_ij|`.
///
/// With `alpha = 0` (or `k = 0`) only `|beta|·|C_ij|` remains; with `beta = 0` C is not read.
///
/// # Panics
/// When the shapes of `op(A)`, `op(B)`, `C` are inconsistent.
pub fn gemm<E: Real>(
    transa: Transpose,
    transb: Transpose,
    alpha: E,
    a: ArrayView2<'_, E>,
    b: ArrayView2<'_, E>,
    beta: E,
    c: ArrayView2<'_, E>,
) -> Array2<f64> {
    let mut out = product_term("bounds::gemm", transa, transb, alpha, a, b, c.dim());
    add_term2(&mut out, beta.to_f64(), c, None);
    out
}

/// `dgemm` (f64 operands): the [`gemm`] bound,
/// `bound_ij = (k+1)·|alpha|·Σ_p |op(A)_ip|·|op(B)_pj| + |beta|·|C_ij|`, for
/// [`forward_factor_f64`](crate::metrics::forward_factor_f64) (units of `2^-52`). A term whose
/// scalar is 0 is 0 and its operands are not read.
///
/// # Panics
/// When the shapes of `op(A)`, `op(B)`, `C` are inconsistent.
#[allow(clippy::too_many_arguments)] // the BLAS argument list
pub fn dgemm(
    transa: Transpose,
    transb: Transpose,
    alpha: f64,
    a: ArrayView2<'_, f64>,
    b: ArrayView2<'_, f64>,
    beta: f64,
    c: ArrayView2<'_, f64>,
) -> Array2<f64> {
    // k = 0: no product term whatever alpha is (as the f64 engine computes C ← beta·C).
    let k = match transa {
        Transpose::No => a.ncols(),
        Transpose::Yes => a.nrows(),
    };
    let alpha = if k == 0 { 0.0 } else { alpha };
    let mut out = product_term("bounds::dgemm", transa, transb, alpha, a, b, c.dim());
    add_term2(&mut out, beta, c, None);
    out
}

/// `sgemmtr` (`sgemm` that updates only the triangle `uplo` of the square C): the [`gemm`]
/// bound on the triangle, 0 elsewhere (C not read there).
///
/// # Panics
/// As [`gemm`], and when C is not square.
#[allow(clippy::too_many_arguments)] // the BLAS argument list
pub fn gemmtr<E: Real>(
    uplo: Uplo,
    transa: Transpose,
    transb: Transpose,
    alpha: E,
    a: ArrayView2<'_, E>,
    b: ArrayView2<'_, E>,
    beta: E,
    c: ArrayView2<'_, E>,
) -> Array2<f64> {
    assert_square("bounds::gemmtr (c)", &c);
    let out = product_term("bounds::gemmtr", transa, transb, alpha, a, b, c.dim());
    on_triangle(out, uplo, beta.to_f64(), c)
}

/// `ssyrk` (`C ← alpha·op(A)·op(A)ᵀ + beta·C` on triangle `uplo`; `op(A) = A` (n×k) for
/// `Transpose::No`, `Aᵀ` (A k×n) for `Yes`):
/// `bound_ij = (k+1)·|alpha|·Σ_p |op(A)_ip|·|op(A)_jp| + |beta|·|C_ij|` on the triangle, 0
/// elsewhere (C's other triangle never read).
///
/// # Panics
/// When C is not n×n.
pub fn syrk<E: Real>(
    uplo: Uplo,
    trans: Transpose,
    alpha: E,
    a: ArrayView2<'_, E>,
    beta: E,
    c: ArrayView2<'_, E>,
) -> Array2<f64> {
    let opa = op_view(trans, a);
    let (n, k) = opa.dim();
    assert_eq!(c.dim(), (n, n), "bounds::syrk: c must be {n}x{n}");
    let scale = (k as f64 + 1.0) * alpha.to_f64().abs();
    let out = scaled(scale, (n, n), || {
        let abs_a = abs2(opa);
        abs_a.dot(&abs_a.t())
    });
    on_triangle(out, uplo, beta.to_f64(), c)
}

/// `ssyr2k` (`C ← alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C` on triangle `uplo`,
/// op as in [`syrk`], op(A), op(B) n×k):
/// `bound_ij = (k+3)·|alpha|·Σ_p |op(A)_ip·op(B)_jp| + (k+2)·|alpha|·Σ_p |op(B)_ip·op(A)_jp|
/// + 3·|beta·C_ij|` on the triangle, 0 elsewhere.
///
/// # Panics
/// When op(A) and op(B) differ in shape or C is not n×n.
pub fn syr2k<E: Real>(
    uplo: Uplo,
    trans: Transpose,
    alpha: E,
    a: ArrayView2<'_, E>,
    b: ArrayView2<'_, E>,
    beta: E,
    c: ArrayView2<'_, E>,
) -> Array2<f64> {
    let (opa, opb) = (op_view(trans, a), op_view(trans, b));
    assert_eq!(
        opa.dim(),
        opb.dim(),
        "bounds::syr2k: op(a) and op(b) differ in shape"
    );
    let (n, k) = opa.dim();
    assert_eq!(c.dim(), (n, n), "bounds::syr2k: c must be {n}x{n}");
    let alpha = alpha.to_f64().abs();
    let out = scaled(alpha, (n, n), || {
        let (abs_a, abs_b) = (abs2(opa), abs2(opb));
        abs_a.dot(&abs_b.t()) * (k as f64 + 3.0) + &(abs_b.dot(&abs_a.t()) * (k as f64 + 2.0))
    });
    on_triangle(out, uplo, 3.0 * beta.to_f64(), c)
}

/// `ssymm` (A symmetric r×r, stored in triangle `uplo`; B, C m×n):
/// Left, `C ← alpha·A·B + beta·C`, r = m:
/// `bound_ij = (r+1)·|alpha|·Σ_p |A_ip|·|B_pj| + |beta|·|C_ij|`;
/// Right, `C ← alpha·B·A + beta·C`, r = n:
/// `bound_ij = (r+1)·|alpha|·Σ_p |B_ip|·|A_pj| + |beta|·|C_ij|`.
///
/// # Panics
/// When A is not r×r or C not m×n.
pub fn symm<E: Real>(
    side: Side,
    uplo: Uplo,
    alpha: E,
    a: ArrayView2<'_, E>,
    b: ArrayView2<'_, E>,
    beta: E,
    c: ArrayView2<'_, E>,
) -> Array2<f64> {
    let (m, n) = b.dim();
    assert_eq!(c.dim(), (m, n), "bounds::symm: c must be {m}x{n} like b");
    let r = match side {
        Side::Left => m,
        Side::Right => n,
    };
    assert_eq!(a.dim(), (r, r), "bounds::symm: a must be {r}x{r}");
    let scale = (r as f64 + 1.0) * alpha.to_f64().abs();
    let mut out = scaled(scale, (m, n), || {
        let (abs_a, abs_b) = (abs_sym(uplo, a), abs2(b));
        match side {
            Side::Left => abs_a.dot(&abs_b),
            Side::Right => abs_b.dot(&abs_a),
        }
    });
    add_term2(&mut out, beta.to_f64(), c, None);
    out
}

/// `(r+1)·alpha_abs·|op(T)|·|B|` (Left) or `(r+1)·alpha_abs·|B|·|op(T)|` (Right).
fn triangular_matrix<E: Real>(
    side: Side,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    alpha_abs: f64,
    a: ArrayView2<'_, E>,
    b: ArrayView2<'_, E>,
) -> Array2<f64> {
    let (m, n) = b.dim();
    let r = match side {
        Side::Left => m,
        Side::Right => n,
    };
    assert_eq!(a.dim(), (r, r), "bounds::trmm/trsm: a must be {r}x{r}");
    scaled((r as f64 + 1.0) * alpha_abs, (m, n), || {
        let mut t = tri_op(uplo, trans, diag, a);
        t.mapv_inplace(f64::abs);
        match side {
            Side::Left => t.dot(&abs2(b)),
            Side::Right => abs2(b).dot(&t),
        }
    })
}

/// `strmm` (`B ← alpha·op(T)·B` (Left, r = m) or `B ← alpha·B·op(T)` (Right, r = n), B m×n):
/// Left `bound_ij = (r+1)·|alpha|·Σ_p |op(T)_ip|·|B_pj|`, Right
/// `bound_ij = (r+1)·|alpha|·Σ_p |B_ip|·|op(T)_pj|`, with B the input.
///
/// # Panics
/// When `a` is not r×r.
pub fn trmm<E: Real>(
    side: Side,
    uplo: Uplo,
    transa: Transpose,
    diag: Diag,
    alpha: E,
    a: ArrayView2<'_, E>,
    b: ArrayView2<'_, E>,
) -> Array2<f64> {
    let alpha_abs = alpha.to_f64().abs();
    triangular_matrix(side, uplo, transa, diag, alpha_abs, a, b)
}

/// `strsm` (solve `op(T)·X = alpha·B` (Left, r = m) or `X·op(T) = alpha·B` (Right, r = n)),
/// for [`backward_residual_factor`] with [`trsm_residual`]:
/// Left `bound_ij = (r+1)·Σ_k |op(T)_ik|·|X_kj|`,
/// Right `bound_ij = (r+1)·Σ_k |X_ik|·|op(T)_kj|`, with X the computed solution (m×n).
///
/// # Panics
/// When `a` is not r×r.
///
/// [`backward_residual_factor`]: crate::metrics::backward_residual_factor
/// [`trsm_residual`]: crate::metrics::trsm_residual
pub fn trsm<E: Real>(
    side: Side,
    uplo: Uplo,
    transa: Transpose,
    diag: Diag,
    a: ArrayView2<'_, E>,
    x: ArrayView2<'_, E>,
) -> Array2<f64> {
    triangular_matrix(side, uplo, transa, diag, 1.0, a, x)
}

/// `strsm`'s forward bound: the image of its backward residual bound ([`trsm`]) through
/// `op(T)⁻¹`, for [`forward_factor`] of a computed solution against the exact one:
/// Left `bound_ij = (r+1)·(|op(T)⁻¹|·|op(T)|·|X|)_ij`,
/// Right `bound_ij = (r+1)·(|X|·|op(T)|·|op(T)⁻¹|)_ij`, with X the computed solution (m×n) and
/// `op(T)⁻¹` computed in `f64`.
///
/// Derivation (Higham, 2nd ed., §7.2 and Theorem 8.5): the residual
/// `R = op(T)·X̂ − alpha·B` (Left) gives `X̂ − X = op(T)⁻¹·R`, so `|X̂ − X| ≤ |op(T)⁻¹|·|R|`. A
/// backward residual factor `f` ([`backward_residual_factor`] with [`trsm`]) means
/// `|R| ≤ f·EPS·(r+1)·|op(T)|·|X̂|`, hence `|X̂ − X| ≤ f·EPS·bound`: the forward factor
/// against this bound is at most the backward residual factor, and `strsm`'s threshold of
/// `metrics::spec` holds for it too (Right: `X̂ − X = R·op(T)⁻¹`, the same with the products
/// reversed).
///
/// # Panics
/// When `a` is not r×r.
///
/// [`forward_factor`]: crate::metrics::forward_factor
/// [`backward_residual_factor`]: crate::metrics::backward_residual_factor
pub fn trsm_forward<E: Real>(
    side: Side,
    uplo: Uplo,
    transa: Transpose,
    diag: Diag,
    a: ArrayView2<'_, E>,
    x: ArrayView2<'_, E>,
) -> Array2<f64> {
    let residual_bound = triangular_matrix(side, uplo, transa, diag, 1.0, a, x);
    let t = tri_op(uplo, transa, diag, a);
    // op(T) is lower triangular when exactly one of (uplo = Lower, op = transpose) holds.
    let lower = (uplo == Uplo::Lower) != (transa == Transpose::Yes);
    let inverse = triangular_inverse(&t, lower).mapv(f64::abs);
    match side {
        Side::Left => inverse.dot(&residual_bound),
        Side::Right => residual_bound.dot(&inverse),
    }
}

/// The inverse of the triangular `t` (lower or upper), column by column by substitution, in
/// `f64`.
fn triangular_inverse(t: &Array2<f64>, lower: bool) -> Array2<f64> {
    let n = t.nrows();
    let mut inv = Array2::<f64>::zeros((n, n));
    for j in 0..n {
        let rows: Vec<usize> = if lower {
            (0..n).collect()
        } else {
            (0..n).rev().collect()
        };
        for &i in &rows {
            let known = |k: usize| if lower { k < i } else { k > i };
            let s: f64 = (0..n)
                .filter(|&k| known(k))
                .map(|k| t[[i, k]] * inv[[k, j]])
                .sum();
            let e = if i == j { 1.0 } else { 0.0 };
            inv[[i, j]] = (e - s) / t[[i, i]];
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::Diag::{NonUnit, Unit};
    use crate::flags::Side::{Left, Right};
    use crate::flags::Transpose::{No, Yes};
    use crate::flags::Uplo::{Lower, Upper};
    use crate::metrics::bounds;
    use crate::metrics::NAN;
    use ndarray::array;

    #[test]
    fn bounds_trsm_forward() {
        // Upper T = [[2, 1], [., 4]], T⁻¹ = [[1/2, −1/8], [0, 1/4]], X = [[1, −2], [2, 0]], r = 2:
        // |T||X| = [[4, 4], [8, 0]], times 3 = [[12, 12], [24, 0]];
        // |T⁻¹|·that = [[6 + 3, 6 + 0], [6, 0]].
        let t = array![[2.0_f32, 1.0], [NAN, 4.0]];
        let x = array![[1.0_f32, -2.0], [2.0, 0.0]];
        let b = bounds::trsm_forward(Left, Upper, No, NonUnit, t.view(), x.view());
        assert_eq!(b, array![[9.0, 6.0], [6.0, 0.0]]);
        // op(T) = Tᵀ = [[2, 0], [1, 4]] (lower), Right: (|X||Tᵀ|)·|T⁻ᵀ|·3, |X||Tᵀ| =
        // [[2 + 2, 8], [4, 0]], T⁻ᵀ = [[1/2, 0], [−1/8, 1/4]]: 3·[[2 + 1, 2], [2, 0]].
        let b = bounds::trsm_forward(Right, Upper, Yes, NonUnit, t.view(), x.view());
        assert_eq!(b, array![[9.0, 6.0], [6.0, 0.0]]);
        // Unit diagonal: T = [[1, 1], [., 1]], T⁻¹ = [[1, −1], [0, 1]]; the diagonal is not read.
        let b = bounds::trsm_forward(Left, Upper, No, Unit, t.view(), x.view());
        // |T||X| = [[3, 2], [2, 0]] · 3 = [[9, 6], [6, 0]]; |T⁻¹|·that = [[15, 6], [6, 0]].
        assert_eq!(b, array![[15.0, 6.0], [6.0, 0.0]]);
        // The forward factor of X̂ against the bound is at most its backward residual factor:
        // X̂ = X + δ solves T·X̂ = B + T·δ.
        let lower = array![[3.0_f32, NAN], [-1.0, 0.5]];
        let xh = array![[1.0_f32 + 2f32.powi(-20)], [0.25]];
        let exact = array![[1.0_f32], [0.25]];
        let rhs = array![[3.0_f32], [-1.0 + 0.125]];
        let res = crate::metrics::trsm_residual(
            Left,
            Lower,
            No,
            NonUnit,
            1.0,
            lower.view(),
            xh.view(),
            rhs.view(),
        )
        .unwrap();
        let back = crate::metrics::backward_residual_factor(
            &res,
            &bounds::trsm(Left, Lower, No, NonUnit, lower.view(), xh.view()),
        )
        .unwrap();
        let fwd = crate::metrics::forward_factor(
            &xh,
            &exact,
            &bounds::trsm_forward(Left, Lower, No, NonUnit, lower.view(), xh.view()),
        )
        .unwrap();
        assert!(fwd > 0.0 && fwd <= back, "{fwd} vs {back}");
    }

    #[test]
    fn bounds_gemm_and_gemmtr() {
        // A = [[1, −2], [3, 4]], B = [[−1, 2], [0.5, −3]], C = [[1, −1], [2, −4]], alpha = 0.5,
        // beta = −2, k = 2 → (k+1)|alpha| = 1.5, |beta||C| = [[2, 2], [4, 8]].
        let a = array![[1.0_f32, -2.0], [3.0, 4.0]];
        let b = array![[-1.0_f32, 2.0], [0.5, -3.0]];
        let c = array![[1.0_f32, -1.0], [2.0, -4.0]];
        let (n, t) = (Transpose::No, Transpose::Yes);
        // |A||B| = [[1 + 1, 2 + 6], [3 + 2, 6 + 12]] = [[2, 8], [5, 18]] → ·1.5 + |beta C|
        // = [[5, 14], [11.5, 35]].
        let g = bounds::gemm(n, n, 0.5, a.view(), b.view(), -2.0, c.view());
        assert_eq!(g, array![[5.0, 14.0], [11.5, 35.0]]);
        // |Aᵀ||B|, Aᵀ = [[1, 3], [−2, 4]]:
        // [[1 + 1.5, 2 + 9], [2 + 2, 4 + 12]] = [[2.5, 11], [4, 16]]
        // → [[3.75 + 2, 16.5 + 2], [6 + 4, 24 + 8]].
        let g = bounds::gemm(t, n, 0.5, a.view(), b.view(), -2.0, c.view());
        assert_eq!(g, array![[5.75, 18.5], [10.0, 32.0]]);
        // |A||Bᵀ|, Bᵀ = [[−1, 0.5], [2, −3]]: [[1 + 4, 0.5 + 6], [3 + 8, 1.5 + 12]]
        // = [[5, 6.5], [11, 13.5]] → [[7.5 + 2, 9.75 + 2], [16.5 + 4, 20.25 + 8]].
        let g = bounds::gemm(n, t, 0.5, a.view(), b.view(), -2.0, c.view());
        assert_eq!(g, array![[9.5, 11.75], [20.5, 28.25]]);
        // Both transposed: |Aᵀ||Bᵀ| = [[1 + 6, 0.5 + 9], [2 + 8, 1 + 12]] = [[7, 9.5], [10, 13]]
        // → [[10.5 + 2, 14.25 + 2], [15 + 4, 19.5 + 8]].
        let g = bounds::gemm(t, t, 0.5, a.view(), b.view(), -2.0, c.view());
        assert_eq!(g, array![[12.5, 16.25], [19.0, 27.5]]);
        // Non-square, beta = 0 with C NaN (not read): 1×3 · 3×1, (k+1) = 4, Σ = 6 → 24.
        let a13 = array![[1.0_f32, -2.0, 3.0]];
        let b31 = array![[1.0_f32], [1.0], [-1.0]];
        let g = bounds::gemm(n, n, 1.0, a13.view(), b31.view(), 0.0, array![[NAN]].view());
        assert_eq!(g, array![[24.0]]);
        // alpha = 0 with A, B NaN (not read): |beta||C|.
        let nan2 = Array2::from_elem((2, 2), NAN);
        let g = bounds::gemm(n, n, 0.0, nan2.view(), nan2.view(), 1.0, c.view());
        assert_eq!(g, array![[1.0, 1.0], [2.0, 4.0]]);
        // k = 0: only |beta||C|.
        let g = bounds::gemm(
            n,
            n,
            1.0,
            Array2::zeros((2, 0)).view(),
            Array2::zeros((0, 2)).view(),
            -2.0,
            c.view(),
        );
        assert_eq!(g, array![[2.0, 2.0], [4.0, 8.0]]);
        // gemmtr Upper, C's lower triangle NaN (not read): the gemm bound on the triangle, 0 below.
        let cu = array![[1.0_f32, -1.0], [NAN, -4.0]];
        let g = bounds::gemmtr(Uplo::Upper, n, n, 0.5, a.view(), b.view(), -2.0, cu.view());
        assert_eq!(g, array![[5.0, 14.0], [0.0, 35.0]]);
        let cl = array![[1.0_f32, NAN], [2.0, -4.0]];
        let g = bounds::gemmtr(Uplo::Lower, n, n, 0.5, a.view(), b.view(), -2.0, cl.view());
        assert_eq!(g, array![[5.0, 0.0], [11.5, 35.0]]);
    }

    #[test]
    fn bounds_syrk() {
        // Upper, No: A = [[1, −2], [3, 4]] (n = k = 2), |A||A|ᵀ = [[5, 11], [11, 25]];
        // (k+1)|alpha| = 1.5 → [[7.5, 16.5], ·, 37.5];
        // + |beta C| (beta = −2, C = [[1, −1], [NaN, −4]]) on the triangle
        // → [[9.5, 18.5], [0, 45.5]].
        let a = array![[1.0_f32, -2.0], [3.0, 4.0]];
        let cu = array![[1.0_f32, -1.0], [NAN, -4.0]];
        let s = bounds::syrk(Uplo::Upper, Transpose::No, 0.5, a.view(), -2.0, cu.view());
        assert_eq!(s, array![[9.5, 18.5], [0.0, 45.5]]);
        // Lower, Yes: op(A) = Aᵀ,
        // |Aᵀ||A| = [[1 + 9, 2 + 12], [2 + 12, 4 + 16]] = [[10, 14], [14, 20]]
        // → ·1.5 = [[15, ·], [21, 30]]; C = [[1, NaN], [2, −4]] → [[17, 0], [25, 38]].
        let cl = array![[1.0_f32, NAN], [2.0, -4.0]];
        let s = bounds::syrk(Uplo::Lower, Transpose::Yes, 0.5, a.view(), -2.0, cl.view());
        assert_eq!(s, array![[17.0, 0.0], [25.0, 38.0]]);
        // n = 2, k = 3, No, alpha = 1, beta = 0 (C NaN, not read): A = [[1, 0, 1], [0, 1, 1]],
        // |A||A|ᵀ = [[2, 1], [1, 2]], (k+1) = 4 → Upper [[8, 4], [0, 8]].
        let a23 = array![[1.0_f32, 0.0, 1.0], [0.0, 1.0, 1.0]];
        let nan_c = Array2::from_elem((2, 2), NAN);
        let s = bounds::syrk(Upper, No, 1.0, a23.view(), 0.0, nan_c.view());
        assert_eq!(s, array![[8.0, 4.0], [0.0, 8.0]]);
    }

    #[test]
    fn bounds_syr2k() {
        // Upper, No: A = [[1, −2], [3, 4]], B = [[−1, 2], [0.5, −3]], alpha = 0.5, beta = −2,
        // C = [[1, −1], [NaN, −4]], k = 2: (k+3)|alpha| = 2.5, (k+2)|alpha| = 2, 3|beta C| = 6|C|.
        // |A||B|ᵀ: (0,0) 1 + 4 = 5, (0,1) 0.5 + 6 = 6.5, (1,1) 1.5 + 12 = 13.5.
        // |B||A|ᵀ: (0,0) 1 + 4 = 5, (0,1) 3 + 8 = 11, (1,1) 1.5 + 12 = 13.5.
        // (0,0) 12.5 + 10 + 6 = 28.5; (0,1) 16.25 + 22 + 6 = 44.25; (1,1) 33.75 + 27 + 24 = 84.75.
        let a = array![[1.0_f32, -2.0], [3.0, 4.0]];
        let b = array![[-1.0_f32, 2.0], [0.5, -3.0]];
        let cu = array![[1.0_f32, -1.0], [NAN, -4.0]];
        let s = bounds::syr2k(Upper, No, 0.5, a.view(), b.view(), -2.0, cu.view());
        assert_eq!(s, array![[28.5, 44.25], [0.0, 84.75]]);
        // Lower, Yes, k = 1, n = 2: A = [[1, 2]], B = [[3, −4]],
        // op(A) = [[1], [2]], op(B) = [[3], [−4]].
        // |opA||opB|ᵀ = [[3, 4], [6, 8]], |opB||opA|ᵀ = [[3, 6], [4, 8]]; (k+3) = 4, (k+2) = 3,
        // beta = 0 (C NaN): (0,0) 12 + 9 = 21, (1,0) 24 + 12 = 36, (1,1) 32 + 24 = 56.
        let a = array![[1.0_f32, 2.0]];
        let b = array![[3.0_f32, -4.0]];
        let nan_c = Array2::from_elem((2, 2), NAN);
        let s = bounds::syr2k(Lower, Yes, 1.0, a.view(), b.view(), 0.0, nan_c.view());
        assert_eq!(s, array![[21.0, 0.0], [36.0, 56.0]]);
    }

    #[test]
    fn bounds_symm() {
        // Left, Upper: A = [[1, −2], [NaN, 4]] (symmetric [[1, −2], [−2, 4]]), B = [[1, 0, −1],
        // [2, 1, 0]], C = [[1, 1, 1], [0, 0, −1]], alpha = 0.5, beta = −2, r = m = 2 → 1.5.
        // |A||B| = [[1 + 4, 0 + 2, 1 + 0], [2 + 8, 0 + 4, 2 + 0]] = [[5, 2, 1], [10, 4, 2]]
        // → [[7.5, 3, 1.5], [15, 6, 3]] + 2|C| = [[9.5, 5, 3.5], [15, 6, 5]].
        let a = array![[1.0_f32, -2.0], [NAN, 4.0]];
        let b = array![[1.0_f32, 0.0, -1.0], [2.0, 1.0, 0.0]];
        let c = array![[1.0_f32, 1.0, 1.0], [0.0, 0.0, -1.0]];
        let s = bounds::symm(Left, Upper, 0.5, a.view(), b.view(), -2.0, c.view());
        let expected = array![[9.5, 5.0, 3.5], [15.0, 6.0, 5.0]];
        assert_eq!(s, expected);
        // Right, Lower with Bᵀ, Cᵀ: |Bᵀ||A| = (|A||B|)ᵀ (A symmetric), r = n = 2 again → the
        // transpose of the Left result.
        let al = array![[1.0_f32, NAN], [-2.0, 4.0]];
        let s = bounds::symm(Side::Right, Uplo::Lower, 0.5, al.view(), b.t(), -2.0, c.t());
        assert_eq!(s, expected.t());
    }

    #[test]
    fn bounds_trmm() {
        // Left, Upper, No, NonUnit, alpha = 0.5: T = [[2, −3], [0, 7]] (NaN below not read),
        // B = [[1, 0, −1], [−2, 1, 0]], |T||B| = [[2 + 6, 3, 2], [14, 7, 0]]; (m+1)|alpha| = 1.5.
        let a = array![[2.0_f32, -3.0], [NAN, 7.0]];
        let b = array![[1.0_f32, 0.0, -1.0], [-2.0, 1.0, 0.0]];
        let (l, r) = (Side::Left, Side::Right);
        let t = bounds::trmm(l, Upper, No, NonUnit, 0.5, a.view(), b.view());
        assert_eq!(t, array![[12.0, 4.5, 3.0], [21.0, 10.5, 0.0]]);
        // Right, Lower, Yes, Unit, alpha = 0.5: T = [[1, 0], [5, 1]] (NaN diagonal and upper not
        // read), op(T) = [[1, 5], [0, 1]], B 3×2 = [[1, −2], [0, 1], [−1, 0]]:
        // |B||op(T)| = [[1, 5 + 2], [0, 1], [1, 5]]; (n+1)|alpha| = 1.5.
        let a = array![[NAN, NAN], [5.0_f32, NAN]];
        let b = array![[1.0_f32, -2.0], [0.0, 1.0], [-1.0, 0.0]];
        let t = bounds::trmm(r, Lower, Yes, Unit, 0.5, a.view(), b.view());
        assert_eq!(t, array![[1.5, 10.5], [0.0, 1.5], [1.5, 7.5]]);
        // alpha = 0: zeros, B (NaN) not read.
        let nan_b = Array2::from_elem((3, 2), NAN);
        let t = bounds::trmm(r, Lower, Yes, Unit, 0.0, a.view(), nan_b.view());
        assert_eq!(t, Array2::<f64>::zeros((3, 2)));
    }

    #[test]
    fn bounds_trsm() {
        // Left, Lower, No, NonUnit: T = [[2, 0], [−1, 4]], X = [[1], [−0.5]]:
        // |T||X| = [2, 1 + 2] = [2, 3]; (m+1) = 3 → [[6], [9]].
        let a = array![[2.0_f32, NAN], [-1.0, 4.0]];
        let x = array![[1.0_f32], [-0.5]];
        let t = bounds::trsm(Left, Lower, No, NonUnit, a.view(), x.view());
        assert_eq!(t, array![[6.0], [9.0]]);
        // Right, Upper, Yes, Unit: T = [[1, 3], [0, 1]], op(T) = [[1, 0], [3, 1]], X = [[1, −2]]:
        // |X||op(T)| = [1 + 6, 2]; (n+1) = 3 → [[21, 6]].
        let a = array![[NAN, 3.0_f32], [NAN, NAN]];
        let x = array![[1.0_f32, -2.0]];
        let t = bounds::trsm(Right, Upper, Yes, Unit, a.view(), x.view());
        assert_eq!(t, array![[21.0, 6.0]]);
    }
}
