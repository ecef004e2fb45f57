use crate::blas::{check_dim, check_len};
use crate::drivers::elementwise::{self, Op};
use crate::error::Result;
use crate::layout::{self, Out, Scalar, VecMut, VecRef};
use crate::Context;

/// `y ← alpha·x + y`.
///
/// BLAS: `saxpy`. `x` and `y` are 1-D views of equal length, any stride (negative and
/// stepped included). Element `i` of a view is its logical element `i`: a reversed view is
/// read in reverse, as ndarray indexes it. The result may be computed with a fused
/// multiply-add (WGSL allows it), so it is within one rounding of the exact value: the
/// forward-error factor of [`metrics::bounds::axpy`](crate::metrics::bounds::axpy) is ≤ 1.
///
/// # Errors
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`y`) when the lengths differ;
/// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
/// device (`max_buffer_size`; past one storage binding it is processed in parts, issue 15);
/// [`Error::Gpu`](crate::Error::Gpu) on a device failure. On error `y` is unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// let ctx = wgblas::Context::shared()?;
/// let x = array![1.0f32, 2.0, 3.0];
/// let mut y = array![1.0f32, 1.0, 1.0];
/// wgblas::blas::saxpy(ctx, 2.0, x.view(), y.view_mut())?;
/// assert_eq!(y, array![3.0, 5.0, 7.0]);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn saxpy<'a>(
    ctx: &Context,
    alpha: impl Into<Scalar<'a>>,
    x: impl Into<VecRef<'a>>,
    y: impl Into<VecMut<'a>>,
) -> Result<()> {
    const R: &str = "saxpy";
    let (alpha, x, mut y) = (alpha.into(), x.into(), y.into());
    check_len(R, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(R, "x", x.len())?;
    alpha.check(ctx, R, "alpha")?;
    if x.is_empty() || alpha.is(0.0) {
        return Ok(());
    }
    let xd = layout::vector_any(ctx, R, "x", &x)?;
    let yd = layout::vector_any(ctx, R, "y", y.view())?;
    let h = [alpha.value(), 0.0, 0.0, 0.0];
    let parts = elementwise::split(ctx, Op::Axpy, &xd, &yd);
    let d = elementwise::dispatches_split(ctx, Op::Axpy, h, &xd, &yd, &parts);
    let d: Vec<_> = d
        .into_iter()
        .map(|d| alpha.apply(d, elementwise::ALPHA))
        .collect();
    layout::finish(ctx, R, &d, &mut [Out::Vec(&mut y, &yd)])
}
