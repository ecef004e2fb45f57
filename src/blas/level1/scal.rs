use crate::blas::check_dim;
use crate::drivers::elementwise::{self, Op};
use crate::error::Result;
use crate::layout::{self, Out, Scalar, VecMut};
use crate::Context;

/// `x ← alpha·x`.
///
/// BLAS: `sscal`. `x` is a 1-D view, any stride. Every element is multiplied (one correctly
/// rounded product, so the result is bit-exact against any IEEE implementation), including for
/// `alpha = 0`: as in reference BLAS, `0·NaN` and `0·∞` give NaN, not 0 (DESIGN.md §3;
/// OpenBLAS 0.3.21 writes zeros there). `alpha = 1` returns at once (`x` unchanged, which is
/// what the product would give). `x` may be a resident [`GpuVector`](crate::GpuVector)
/// (scaled in place on the device, no read-back) and `alpha` a
/// [`GpuScalar`](crate::GpuScalar) (read on the device; then no `alpha = 1` shortcut), in any
/// mix with host operands.
///
/// # Errors
/// [`Error::TooLarge`](crate::Error::TooLarge) when `x` does not fit one buffer of the device
/// (`max_buffer_size`; past one storage binding it is processed in parts, issue 15);
/// [`Error::Gpu`](crate::Error::Gpu) on a device failure. On error `x` is unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// let ctx = wgblas::Context::shared()?;
/// let mut x = array![1.0f32, -2.0, f32::INFINITY];
/// wgblas::blas::sscal(ctx, 0.0, x.view_mut())?;
/// assert_eq!(&x.as_slice().unwrap()[..2], &[0.0, -0.0]);
/// assert!(x[2].is_nan());
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn sscal<'a>(
    ctx: &Context,
    alpha: impl Into<Scalar<'a>>,
    x: impl Into<VecMut<'a>>,
) -> Result<()> {
    const R: &str = "sscal";
    let (alpha, mut x) = (alpha.into(), x.into());
    check_dim(R, "x", x.len())?;
    alpha.check(ctx, R, "alpha")?;
    if x.is_empty() {
        return Ok(());
    }
    if alpha.is(1.0) {
        if let VecMut::Host(v) = &x {
            return layout::check_fits::<f32>(ctx, R, "x", v.len());
        }
        return Ok(());
    }
    let xd = layout::vector_any(ctx, R, "x", x.view())?;
    let dummy = elementwise::contiguous(ctx, 0);
    let h = [alpha.value(), 0.0, 0.0, 0.0];
    let parts = elementwise::split(ctx, Op::Scal, &xd, &dummy);
    let d = elementwise::dispatches_split(ctx, Op::Scal, h, &xd, &dummy, &parts);
    let d: Vec<_> = d
        .into_iter()
        .map(|d| alpha.apply(d, elementwise::ALPHA))
        .collect();
    layout::finish(ctx, R, &d, &mut [Out::Vec(&mut x, &xd)])
}
