use ndarray::ArrayViewMut1;

use crate::blas::{check_dim, check_len};
use crate::drivers::elementwise::{self, Op};
use crate::error::Result;
use crate::layout;
use crate::Context;

/// `x ↔ y`.
///
/// BLAS: `sswap`. `x` and `y` are 1-D views of equal length, any stride. Bit-exact; elements
/// between a strided view's elements are never written.
///
/// # Errors
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`y`) when the lengths differ;
/// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one storage binding;
/// [`Error::Gpu`](crate::Error::Gpu) on a device failure. On error `x` and `y` are unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// let ctx = wgblas::Context::shared()?;
/// let (mut x, mut y) = (array![1.0f32, 2.0], array![3.0f32, 4.0]);
/// wgblas::blas::sswap(ctx, x.view_mut(), y.view_mut())?;
/// assert_eq!((x, y), (array![3.0, 4.0], array![1.0, 2.0]));
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn sswap(
    ctx: &Context,
    mut x: ArrayViewMut1<'_, f32>,
    mut y: ArrayViewMut1<'_, f32>,
) -> Result<()> {
    const R: &str = "sswap";
    check_len(R, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(R, "x", x.len())?;
    if x.is_empty() {
        return Ok(());
    }
    let xd = layout::vector(ctx, R, "x", &x.view())?;
    let yd = layout::vector(ctx, R, "y", &y.view())?;
    let d = elementwise::dispatch(ctx, Op::Swap, [0.0; 4], &xd, &yd);
    let out = ctx.execute::<f32>(R, &[d], &[(&xd.buffer, xd.span), (&yd.buffer, yd.span)])?;
    layout::write_vector(&mut x, &out[0], &xd);
    layout::write_vector(&mut y, &out[1], &yd);
    Ok(())
}
