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

use crate::blas::{check_dim, check_len, check_shared, check_square};
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

/// `Err(DimensionMismatch)` naming `b` unless the rows of `op(B)` (`rows_b`) equal the columns
/// of `op(A)` (`cols_a`): the inner dimensions of a product (gemm, the batched products, and
/// the plain forms, which check them before they allocate their output).
pub(crate) fn check_inner(routine: &'static str, cols_a: usize, rows_b: usize) -> Result<()> {
    let what = "rows of op(B) must equal the columns of op(A)";
    check_len(routine, "b", rows_b, cols_a, what)
}

/// `Err(DimensionMismatch)` naming `arg` unless its shape `found` is `expected`: `what[0]`
/// says why for the rows, `what[1]` for the columns.
pub(crate) fn check_shape(
    routine: &'static str,
    arg: &'static str,
    found: (usize, usize),
    expected: (usize, usize),
    what: [&str; 2],
) -> Result<()> {
    check_len(routine, arg, found.0, expected.0, what[0])?;
    check_len(routine, arg, found.1, expected.1, what[1])
}

/// The second operand of a product on the triangle of C, by the shape it must have.
pub(crate) enum OpB {
    /// None (`ssyrk`).
    None,
    /// `op(B)` k×n (`sgemmtr`).
    KByN((usize, usize)),
    /// `op(B)` n×k, like `op(A)` (`ssyr2k`).
    NByK((usize, usize)),
}

/// The order n of the square `C` (`c`) and the depth k of a product on its triangle, `op(A)`
/// n×k (`a`), `op(B)` (`b`) as `op_b` says (`sgemmtr`, `ssyrk`, `ssyr2k` and their f64
/// twins): `Err(NotSquare)` naming `c`, `DimensionMismatch` naming the operand whose n disagrees
/// with the other two ([`check_shared`]) or `b` for its k, `TooLarge`.
pub(crate) fn check_tri_c(
    routine: &'static str,
    op_a: (usize, usize),
    op_b: OpB,
    c: (usize, usize),
) -> Result<(usize, usize)> {
    check_square(routine, "c", c)?;
    let k = op_a.1;
    let (n, b) = match op_b {
        OpB::None => {
            let what = "rows of op(A) must equal the order of C";
            (
                check_shared(routine, what, &[("a", op_a.0), ("c", c.0)])?,
                None,
            )
        }
        OpB::KByN(b) => {
            let what = "the rows of op(A), the columns of op(B) and the order of C must be equal";
            let n = check_shared(routine, what, &[("a", op_a.0), ("b", b.1), ("c", c.0)])?;
            let what = "rows of op(B) must equal the columns of op(A)";
            (n, Some((b.0, what)))
        }
        OpB::NByK(b) => {
            let what = "the rows of op(A), the rows of op(B) and the order of C must be equal";
            let n = check_shared(routine, what, &[("a", op_a.0), ("b", b.0), ("c", c.0)])?;
            let what = "columns of op(B) must equal the columns of op(A)";
            (n, Some((b.1, what)))
        }
    };
    if let Some((kb, what)) = b {
        check_len(routine, "b", kb, k, what)?;
    }
    check_dim(routine, "a", n.max(k))?;
    Ok((n, k))
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
