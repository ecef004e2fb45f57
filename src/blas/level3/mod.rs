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

/// `Err(DimensionMismatch)` naming `b` unless the rows of `op(B)` (`rows_b`) equal the columns
/// of `op(A)` (`cols_a`): the inner dimensions of a product (gemm, the batched products, and
/// the plain forms, which check them before they allocate their output).
pub(crate) fn check_inner(routine: &'static str, cols_a: usize, rows_b: usize) -> Result<()> {
    let what = "rows of op(B) must equal the columns of op(A)";
    check_len(routine, "b", rows_b, cols_a, what)
}

/// `Err(DimensionMismatch)` naming `arg` (`"a"` or `"b"`) unless its batch length `found` is
/// C's, `batch`.
pub(crate) fn check_batch_len(
    routine: &'static str,
    arg: &'static str,
    found: usize,
    batch: usize,
) -> Result<()> {
    let what = if arg == "a" {
        "batch length of A must equal that of C"
    } else {
        "batch length of B must equal that of C"
    };
    check_len(routine, arg, found, batch, what)
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
/// twins): `Err(NotSquare)` naming `c`, `DimensionMismatch` naming `a` or `b`, `TooLarge`.
pub(crate) fn check_tri_c(
    routine: &'static str,
    op_a: (usize, usize),
    op_b: OpB,
    c: (usize, usize),
) -> Result<(usize, usize)> {
    check_square(routine, "c", c)?;
    let (n, k) = (c.0, op_a.1);
    let what = "rows of op(A) must equal the order of C";
    check_len(routine, "a", op_a.0, n, what)?;
    let (b, expected, what) = match op_b {
        OpB::None => ((n, k), (n, k), ["", ""]),
        OpB::KByN(b) => (
            b,
            (k, n),
            [
                "rows of op(B) must equal the columns of op(A)",
                "columns of op(B) must equal the order of C",
            ],
        ),
        OpB::NByK(b) => (
            b,
            (n, k),
            [
                "rows of op(B) must equal the order of C",
                "columns of op(B) must equal the columns of op(A)",
            ],
        ),
    };
    check_shape(routine, "b", b, expected, what)?;
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
