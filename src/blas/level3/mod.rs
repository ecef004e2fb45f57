//! Level 3: matrix-matrix routines.

mod common;
pub(crate) mod gemm;
pub(crate) mod gemm_batched;
pub(crate) mod gemmtr;
pub(crate) mod symm;
pub(crate) mod syr2k;
pub(crate) mod syrk;
pub(crate) mod trmm;
pub(crate) mod trsm;

use crate::blas::{check_dim, check_len, check_square};
use crate::error::Result;
use crate::flags::{Side, Transpose, Uplo};
use crate::layout::MatRef;

/// The argument checks of `strmm`/`strsm`: `A` square, of the order of B's rows (`Left`) or
/// columns (`Right`). Returns that order, `r`.
pub(crate) fn check_side(
    routine: &'static str,
    side: Side,
    a: (usize, usize),
    b: (usize, usize),
) -> Result<usize> {
    check_square(routine, "a", a)?;
    let (m, n) = b;
    let (r, what) = match side {
        Side::Left => (m, "rows of B must equal the order of A"),
        Side::Right => (n, "columns of B must equal the order of A"),
    };
    check_len(routine, "b", r, a.0, what)?;
    check_dim(routine, "b", m.max(n))?;
    Ok(r)
}

/// The order n of the square `C` (`c`) and the depth k of a product on its triangle, `op(A)`
/// n×k (`a`): `Err(NotSquare)` naming `c`, `DimensionMismatch` naming `a` (`sgemmtr`, `ssyrk`,
/// `ssyr2k` and their f64 twins, which then check their other operand and the sizes).
pub(crate) fn check_tri_c(
    routine: &'static str,
    op_a: (usize, usize),
    c: (usize, usize),
) -> Result<(usize, usize)> {
    check_square(routine, "c", c)?;
    let what = "rows of op(A) must equal the order of C";
    check_len(routine, "a", op_a.0, c.0, what)?;
    Ok((c.0, op_a.1))
}

/// The left triangular operand L of the canonical left-side problem, and its triangle:
/// `op(A)` for `Left`, `op(A)ᵀ` for `Right` (`B·op(A) = (op(A)ᵀ·Bᵀ)ᵀ`); a transpose swaps the
/// strides and flips the triangle, no data moves.
pub(crate) fn left_triangle<'a, T>(
    side: Side,
    uplo: Uplo,
    transa: Transpose,
    a: &'a MatRef<'_, T>,
) -> (MatRef<'a, T>, Uplo) {
    let (op_a, op_uplo) = a.op_triangle(transa, uplo);
    match side {
        Side::Left => (op_a, op_uplo),
        Side::Right => (op_a.reversed_axes(), op_uplo.flip()),
    }
}
