use crate::blas::{check_dim, check_len};
use crate::context::Elem;
use crate::drivers::elementwise::{self, Variant};
use crate::error::Result;
use crate::launch::Wait;
use crate::layout::{self, Out, VecMut, VecRef};
use crate::Context;

/// `y ← x`.
///
/// BLAS: `scopy`. `x` and `y` are 1-D views of equal length, any stride (negative and stepped
/// included; element `i` is the view's logical element `i`). `y` is never read: it is computed
/// into a fresh device buffer and written back element by element, so elements between a
/// strided `y`'s elements are never touched. The copy is bit-exact (NaN payloads, `-0.0`).
/// Resident operands ([`GpuVector`](crate::GpuVector)) are accepted for `x` and `y`, mixed with
/// host views or not; a resident `y` is written in place on the device (no read-back).
///
/// # Errors
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`y`) when the lengths differ;
/// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
/// device (`max_buffer_size`; past one storage binding it is processed in parts, issue 15);
/// [`Error::Gpu`](crate::Error::Gpu) on a device failure. On error `y` is unchanged.
///
/// # Example
/// ```
/// use ndarray::{array, s};
/// let ctx = wgblas::Context::shared()?;
/// let x = array![1.0f32, 2.0, 3.0];
/// let mut y = ndarray::Array1::<f32>::zeros(3);
/// wgblas::blas::scopy(ctx, x.slice(s![..;-1]), y.view_mut())?;
/// assert_eq!(y, array![3.0, 2.0, 1.0]);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn scopy<'a>(ctx: &Context, x: impl Into<VecRef<'a>>, y: impl Into<VecMut<'a>>) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(scopy_in(ctx, x, y, Wait::Block))
}

/// The core of [`scopy`] and [`scopy_async`](crate::blas::scopy_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn scopy_in<'a>(
    ctx: &Context,
    x: impl Into<VecRef<'a>>,
    y: impl Into<VecMut<'a>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "scopy";
    let (x, mut y) = (x.into(), y.into());
    crate::blas::owners!(ctx, R, x, y);
    check_len(R, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(R, "x", x.len())?;
    if x.is_empty() {
        return Ok(());
    }
    let xd = layout::vector_any(ctx, R, "x", &x)?;
    // y is never read: a host y gets a fresh contiguous buffer (read back and written element
    // by element), a resident y (contiguous already) is written in place.
    let yd = match &y {
        VecMut::Host(v) => {
            layout::check_fits::<f32>(ctx, R, "y", v.len())?;
            elementwise::contiguous(ctx, v.len())
        }
        VecMut::Device(_) => layout::vector_any(ctx, R, "y", y.view())?,
    };
    let parts = elementwise::split(ctx, Variant::Copy, &xd, &yd);
    let d = elementwise::dispatches_split(ctx, Variant::Copy, [0.0; 4], &xd, &yd, &parts);
    layout::finish_in(ctx, R, &d, &mut [Out::Vec(&mut y, &yd)], wait).await
}

/// `y ← x` in f64.
///
/// BLAS: `dcopy`. As [`scopy`] (equal lengths, any stride, bit-exact copy, `y` never read), in
/// f64 (`wgsl/level1/elementwise.wgsl` instantiated with `alias T = f64;`).
///
/// # Errors
/// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
/// f64 shaders; otherwise as [`scopy`]. On error `y` is unchanged.
///
/// # Example
/// ```
/// use ndarray::{array, s};
/// let ctx = wgblas::Context::shared()?;
/// # if !ctx.native_f64() { return Ok(()); }
/// let x = array![0.1f64, 1e300, -0.0];
/// let mut y = ndarray::Array1::<f64>::zeros(3);
/// wgblas::blas::dcopy(ctx, x.slice(s![..;-1]), y.view_mut())?;
/// assert_eq!(y.mapv(f64::to_bits), array![-0.0f64, 1e300, 0.1].mapv(f64::to_bits));
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn dcopy<'a>(
    ctx: &Context,
    x: impl Into<VecRef<'a, f64>>,
    y: impl Into<VecMut<'a, f64>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(dcopy_in(ctx, x, y, Wait::Block))
}

/// The core of [`dcopy`] and [`dcopy_async`](crate::blas::dcopy_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn dcopy_in<'a>(
    ctx: &Context,
    x: impl Into<VecRef<'a, f64>>,
    y: impl Into<VecMut<'a, f64>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "dcopy";
    let (x, mut y) = (x.into(), y.into());
    crate::blas::owners!(ctx, R, x, y);
    check_len(R, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(R, "x", x.len())?;
    crate::blas::check_f64(ctx, R)?;
    if x.is_empty() {
        return Ok(());
    }
    let xd = layout::vector(ctx, R, "x", &x)?;
    let yd = match &y {
        VecMut::Host(v) => {
            layout::check_fits::<f64>(ctx, R, "y", v.len())?;
            elementwise::contiguous_as(ctx, v.len(), 8)
        }
        VecMut::Device(_) => layout::vector(ctx, R, "y", y.view())?,
    };
    let d = elementwise::dispatches_as(ctx, Variant::Copy, [0.0; 4], &xd, &yd, Elem::F64);
    layout::finish_as_in(ctx, R, &d, &mut [layout::OutAs::Vec(&mut y, &yd)], wait).await
}
