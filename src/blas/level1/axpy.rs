use crate::blas::{check_dim, check_len};
use crate::drivers::elementwise::{self, Variant};
use crate::error::Result;
use crate::launch::Wait;
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
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(saxpy_in(ctx, alpha, x, y, Wait::Block))
}

/// The core of [`saxpy`] and [`saxpy_async`](crate::blas::saxpy_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn saxpy_in<'a>(
    ctx: &Context,
    alpha: impl Into<Scalar<'a>>,
    x: impl Into<VecRef<'a>>,
    y: impl Into<VecMut<'a>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "saxpy";
    let (alpha, x, mut y) = (alpha.into(), x.into(), y.into());
    crate::blas::owners!(ctx, R, alpha, x, y);
    check_len(R, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(R, "x", x.len())?;
    alpha.check(ctx, R, "alpha")?;
    if x.is_empty() || alpha.is(0.0) {
        return Ok(());
    }
    let xd = layout::vector_any(ctx, R, "x", &x)?;
    let yd = layout::vector_any(ctx, R, "y", y.view())?;
    let parts = elementwise::split(ctx, Variant::Axpy, &xd, &yd);
    let d = elementwise::scaled(ctx, Variant::Axpy, alpha, &xd, &yd, &parts);
    layout::finish_in(ctx, R, &d, &mut [Out::Vec(&mut y, &yd)], wait).await
}

/// `y ← alpha·x + y` in f64.
///
/// BLAS: `daxpy`. As [`saxpy`] (equal lengths, any stride, `alpha = 0` leaves `y` untouched
/// and reads nothing, a possible fused multiply-add), in f64 (`wgsl/level1/elementwise.wgsl`
/// entry `axpy_sc`, `alias T = f64;`, alpha read as f64 from a small buffer). `alpha` may be
/// a device scalar (`&GpuScalar<f64>`), copied into that buffer on the device; the kernel
/// then applies the `alpha = 0` rule itself. Forward bound `|alpha·x_i| + |y_i|` with
/// eps = 2^-52.
///
/// # Errors
/// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
/// f64 shaders; otherwise as [`saxpy`]. On error `y` is unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// let ctx = wgblas::Context::shared()?;
/// # if !ctx.native_f64() { return Ok(()); }
/// let mut y = array![0.0f64, 0.0];
/// wgblas::blas::daxpy(ctx, 0.1, array![2.0f64, 1e300].view(), y.view_mut())?;
/// assert_eq!(y, array![0.1 * 2.0, 0.1 * 1e300]);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn daxpy<'a>(
    ctx: &Context,
    alpha: impl Into<Scalar<'a, f64>>,
    x: impl Into<VecRef<'a, f64>>,
    y: impl Into<VecMut<'a, f64>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(daxpy_in(ctx, alpha, x, y, Wait::Block))
}

/// The core of [`daxpy`] and [`daxpy_async`](crate::blas::daxpy_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn daxpy_in<'a>(
    ctx: &Context,
    alpha: impl Into<Scalar<'a, f64>>,
    x: impl Into<VecRef<'a, f64>>,
    y: impl Into<VecMut<'a, f64>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "daxpy";
    let (alpha, x, mut y) = (alpha.into(), x.into(), y.into());
    crate::blas::owners!(ctx, R, alpha, x, y);
    check_len(R, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(R, "x", x.len())?;
    alpha.check(ctx, R, "alpha")?;
    crate::blas::check_f64(ctx, R)?;
    if x.is_empty() || alpha.is(0.0) {
        return Ok(());
    }
    let xd = layout::vector(ctx, R, "x", &x)?;
    let yd = layout::vector(ctx, R, "y", y.view())?;
    // A device alpha is copied into `sc` first; the kernel leaves y as it is for alpha = 0.
    let (sc, copies) = elementwise::scalars_f64(ctx, R, &[alpha])?;
    let mut d = copies.dispatches();
    d.push(elementwise::axpy_f64(ctx, &sc, &xd, &yd));
    layout::finish_as_in(ctx, R, &d, &mut [layout::OutAs::Vec(&mut y, &yd)], wait).await
}
