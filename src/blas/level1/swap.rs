use crate::blas::{check_dim, check_len};
use crate::context::Elem;
use crate::drivers::elementwise::{self, Variant};
use crate::error::Result;
use crate::launch::Wait;
use crate::layout::{self, Out, VecMut};
use crate::Context;

/// `x ↔ y`.
///
/// BLAS: `sswap`. `x` and `y` are 1-D views of equal length, any stride. Bit-exact; elements
/// between a strided view's elements are never written. Resident operands
/// ([`GpuVector`](crate::GpuVector)) are accepted for `x` and `y`, mixed with host views or not;
/// resident ones are swapped in place on the device (no read-back).
///
/// # Errors
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`y`) when the lengths differ;
/// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
/// device (`max_buffer_size`; past one storage binding it is processed in parts, issue 15);
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
pub fn sswap<'a>(ctx: &Context, x: impl Into<VecMut<'a>>, y: impl Into<VecMut<'a>>) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(sswap_in(ctx, x, y, Wait::Block))
}

/// The core of [`sswap`] and [`sswap_async`](crate::blas::sswap_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn sswap_in<'a>(
    ctx: &Context,
    x: impl Into<VecMut<'a>>,
    y: impl Into<VecMut<'a>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "sswap";
    let (mut x, mut y) = (x.into(), y.into());
    crate::blas::owners!(ctx, R, x, y);
    check_len(R, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(R, "x", x.len())?;
    if x.is_empty() {
        return Ok(());
    }
    let xd = layout::vector_any(ctx, R, "x", x.view())?;
    let yd = layout::vector_any(ctx, R, "y", y.view())?;
    let parts = elementwise::split(ctx, Variant::Swap, &xd, &yd);
    let d = elementwise::dispatches_split(ctx, Variant::Swap, [0.0; 4], &xd, &yd, &parts);
    layout::finish_in(
        ctx,
        R,
        &d,
        &mut [Out::Vec(&mut x, &xd), Out::Vec(&mut y, &yd)],
        wait,
    )
    .await
}

/// `x ↔ y` in f64.
///
/// BLAS: `dswap`. As [`sswap`] (equal lengths, any stride, bit-exact), in f64
/// (`wgsl/level1/elementwise.wgsl` instantiated with `alias T = f64;`).
///
/// # Errors
/// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
/// f64 shaders; otherwise as [`sswap`]. On error `x` and `y` are unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// let ctx = wgblas::Context::shared()?;
/// # if !ctx.native_f64() { return Ok(()); }
/// let (mut x, mut y) = (array![0.1f64, 2.0], array![3.0f64, 1e-300]);
/// wgblas::blas::dswap(ctx, x.view_mut(), y.view_mut())?;
/// assert_eq!((x, y), (array![3.0, 1e-300], array![0.1, 2.0]));
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn dswap<'a>(
    ctx: &Context,
    x: impl Into<VecMut<'a, f64>>,
    y: impl Into<VecMut<'a, f64>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(dswap_in(ctx, x, y, Wait::Block))
}

/// The core of [`dswap`] and [`dswap_async`](crate::blas::dswap_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn dswap_in<'a>(
    ctx: &Context,
    x: impl Into<VecMut<'a, f64>>,
    y: impl Into<VecMut<'a, f64>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "dswap";
    let (mut x, mut y) = (x.into(), y.into());
    crate::blas::owners!(ctx, R, x, y);
    check_len(R, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(R, "x", x.len())?;
    crate::blas::check_f64(ctx, R)?;
    if x.is_empty() {
        return Ok(());
    }
    let xd = layout::vector(ctx, R, "x", x.view())?;
    let yd = layout::vector(ctx, R, "y", y.view())?;
    let d = elementwise::dispatches_as(ctx, Variant::Swap, [0.0; 4], &xd, &yd, Elem::F64);
    layout::finish_as_in(
        ctx,
        R,
        &d,
        &mut [
            layout::OutAs::Vec(&mut x, &xd),
            layout::OutAs::Vec(&mut y, &yd),
        ],
        wait,
    )
    .await
}
