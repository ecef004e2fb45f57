use ndarray::{ArrayView2, ArrayViewMut1};

use crate::blas::{check_dim, check_len, check_square};
use crate::drivers::trsolve;
use crate::error::Result;
use crate::flags::{Diag, Transpose, Uplo};
use crate::layout;
use crate::Context;

/// Solve `op(A)·x = b` in place: `x ← op(A)⁻¹·x`, `A` n×n triangular.
///
/// BLAS: `strsv`. `uplo` says which triangle of `A` holds the matrix; the other triangle is
/// never read. `diag = Unit` takes the diagonal as ones and never reads it. `A` may be in any
/// layout; `Transpose::Yes` and row-major storage are the same kernel with the strides swapped
/// and the triangle flipped (no copy). No test for singularity is made (as in BLAS): a zero on
/// the diagonal gives Inf or NaN.
///
/// Algorithm: blocked substitution, 64-row diagonal-block solves each followed by a parallel
/// update of the remaining rows, all in one submission (see `drivers/trsolve.rs` for the block
/// size). Substitution is backward stable (Higham, *Accuracy and Stability of Numerical
/// Algorithms*, 2nd ed., Thm. 8.5): the backward-residual factor of
/// [`metrics::bounds::trsv`](crate::metrics::bounds::trsv) stays ≤ 3 whatever the condition.
///
/// # Errors
/// [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`x`);
/// [`Error::TooLarge`](crate::Error::TooLarge); [`Error::Gpu`](crate::Error::Gpu). On error `x`
/// is unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// use wgblas::{Diag, Transpose, Uplo};
/// let ctx = wgblas::Context::shared()?;
/// let a = array![[2.0f32, 0.0], [1.0, 4.0]];
/// let mut x = array![2.0f32, 9.0];
/// wgblas::blas::strsv(ctx, Uplo::Lower, Transpose::No, Diag::NonUnit, a.view(), x.view_mut())?;
/// assert_eq!(x, array![1.0, 2.0]);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn strsv(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: ArrayView2<'_, f32>,
    mut x: ArrayViewMut1<'_, f32>,
) -> Result<()> {
    const R: &str = "strsv";
    check_square(R, "a", a.dim())?;
    let n = a.nrows();
    check_len(R, "x", x.len(), n, "len(x) must equal the order of A")?;
    check_dim(R, "a", n)?;
    if n == 0 {
        return Ok(());
    }
    // op(A) = Aᵀ: swap the strides; its referenced triangle is the other one.
    let (op_a, uplo) = match trans {
        Transpose::No => (a.view(), uplo),
        Transpose::Yes => (a.t(), uplo.flip()),
    };
    let ad = layout::matrix(ctx, R, "a", &op_a)?;
    let xd = layout::vector(ctx, R, "x", &x.view())?;
    let d = trsolve::trsv(ctx, uplo, diag == Diag::Unit, &ad, &xd);
    let out = ctx.execute::<f32>(R, &d, &[(&xd.buffer, xd.span)])?;
    layout::write_vector(&mut x, &out[0], &xd);
    Ok(())
}
