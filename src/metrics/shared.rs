//! Helpers shared by the bounds and the residuals: shape checks, op(), triangles, symmetric
//! matrices, all in `f64`.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Zip};

use crate::error::{Error, Result};
use crate::flags::{Diag, Transpose, Uplo};

/// An element type the bounds and residuals read: any `Copy` value that `f64::from` takes
/// without loss (`f32`, `f64`, the small integers), so that all their arithmetic is in `f64`.
pub trait Real: Copy {
    /// The value in `f64` (`f64::from(self)`).
    fn to_f64(self) -> f64;
}

impl<E: Copy> Real for E
where
    f64: From<E>,
{
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

/// `Ok` when the two shapes are equal, else `DimensionMismatch` naming `routine` and `arg`.
pub(super) fn check_shape(
    routine: &'static str,
    arg: &'static str,
    expected: &[usize],
    found: &[usize],
) -> Result<()> {
    if expected == found {
        Ok(())
    } else {
        Err(Error::DimensionMismatch {
            routine,
            arg,
            detail: format!("expected shape {expected:?} (that of `gpu`), found {found:?}"),
        })
    }
}

/// `|coef · v|`, but 0 when `coef == 0`: BLAS does not read an operand whose scalar is zero
/// (`beta = 0`: C / y never read; `alpha = 0`: A, B never read), so NaN or ∞ there must not leak
/// into a bound.
pub(super) fn term(coef: f64, v: f64) -> f64 {
    if coef == 0.0 {
        0.0
    } else {
        (coef * v).abs()
    }
}

/// `op(A)` as a view: `A` or `Aᵀ`.
pub(super) fn op_view<E: Real>(trans: Transpose, a: ArrayView2<'_, E>) -> ArrayView2<'_, E> {
    match trans {
        Transpose::No => a,
        Transpose::Yes => a.reversed_axes(),
    }
}

/// `|A|` elementwise, in `f64`.
pub(super) fn abs2<E: Real>(a: ArrayView2<'_, E>) -> Array2<f64> {
    a.mapv(|v| v.to_f64().abs())
}

/// `|x|` elementwise, in `f64`.
pub(super) fn abs1<E: Real>(x: ArrayView1<'_, E>) -> Array1<f64> {
    x.mapv(|v| v.to_f64().abs())
}

/// Whether `(i, j)` lies in triangle `uplo`, diagonal included.
pub(super) fn in_triangle(uplo: Uplo, i: usize, j: usize) -> bool {
    match uplo {
        Uplo::Upper => i <= j,
        Uplo::Lower => i >= j,
    }
}

/// Panics unless `a` is square; returns its order.
pub(super) fn assert_square<E: Real>(what: &str, a: &ArrayView2<'_, E>) -> usize {
    assert_eq!(
        a.nrows(),
        a.ncols(),
        "{what}: `a` must be square, found {:?}",
        a.dim()
    );
    a.nrows()
}

/// `op(T)` in `f64`, `T` the triangle `uplo` of the square `a` with the diagonal taken as 1 when
/// `diag` is `Unit`. Only the referenced triangle is read (and not the diagonal for `Unit`);
/// everything else is an exact 0.
pub(super) fn tri_op<E: Real>(
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: ArrayView2<'_, E>,
) -> Array2<f64> {
    let n = assert_square("triangular operand", &a);
    Array2::from_shape_fn((n, n), |(i, j)| {
        let (r, c) = match trans {
            Transpose::No => (i, j),
            Transpose::Yes => (j, i),
        };
        if r == c && diag == Diag::Unit {
            1.0
        } else if in_triangle(uplo, r, c) {
            a[[r, c]].to_f64()
        } else {
            0.0
        }
    })
}

/// The full symmetric matrix whose triangle `uplo` is stored in `a`, as `|A|` in `f64`. Only the
/// triangle `uplo` is read.
pub(super) fn abs_sym<E: Real>(uplo: Uplo, a: ArrayView2<'_, E>) -> Array2<f64> {
    let n = assert_square("symmetric operand", &a);
    Array2::from_shape_fn((n, n), |(i, j)| {
        let v = if in_triangle(uplo, i, j) {
            a[[i, j]]
        } else {
            a[[j, i]]
        };
        v.to_f64().abs()
    })
}

/// `scale · product()`, or zeros of `shape` without evaluating `product` when `scale == 0`.
pub(super) fn scaled(
    scale: f64,
    shape: (usize, usize),
    product: impl FnOnce() -> Array2<f64>,
) -> Array2<f64> {
    if scale == 0.0 {
        Array2::zeros(shape)
    } else {
        product() * scale
    }
}

/// `out_i += |coef · v_i|` (nothing when `coef == 0`: `v` is not read).
pub(super) fn add_term1<E: Real>(out: &mut Array1<f64>, coef: f64, v: ArrayView1<'_, E>) {
    if coef != 0.0 {
        Zip::from(out)
            .and(v)
            .for_each(|o, &vi| *o += term(coef, vi.to_f64()));
    }
}

/// `out_ij += |coef · c_ij|` on triangle `triangle` (everywhere for `None`); `c` is read only
/// there, and not at all when `coef == 0`.
pub(super) fn add_term2<E: Real>(
    out: &mut Array2<f64>,
    coef: f64,
    c: ArrayView2<'_, E>,
    triangle: Option<Uplo>,
) {
    if coef != 0.0 {
        Zip::indexed(out).and(c).for_each(|(i, j), o, &cij| {
            if triangle.is_none_or(|uplo| in_triangle(uplo, i, j)) {
                *o += term(coef, cij.to_f64());
            }
        });
    }
}

/// Sets to 0 every element outside triangle `uplo`.
pub(super) fn mask_triangle(out: &mut Array2<f64>, uplo: Uplo) {
    for ((i, j), v) in out.indexed_iter_mut() {
        if !in_triangle(uplo, i, j) {
            *v = 0.0;
        }
    }
}
