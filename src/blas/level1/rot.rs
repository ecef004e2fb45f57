use crate::blas::{check_dim, check_len};
use crate::drivers::elementwise::{self, Variant};
use crate::error::Result;
use crate::launch::Wait;
use crate::layout::{self, Out, VecMut};
use crate::transfer::Source;
use crate::Context;

/// Apply the plane rotation `[[c, s], [−s, c]]`: `x_i ← c·x_i + s·y_i`,
/// `y_i ← c·y_i − s·x_i`.
///
/// BLAS: `srot`. `x` and `y` are 1-D views of equal length, any stride. No shortcut for
/// `c = 1, s = 0` (as in reference BLAS, which then still computes `1·x_i + 0·y_i`, so a NaN or
/// ∞ in `y` makes `x_i` NaN). Each result may use a fused multiply-add, so it is within one
/// rounding of the bound `|c·x_i| + |s·y_i|` (forward factor ≤ 1 of
/// [`metrics::bounds::rot`](crate::metrics::bounds::rot)). Resident operands
/// ([`GpuVector`](crate::GpuVector)) are accepted for `x` and `y`, mixed with host views or not;
/// resident ones are updated in place on the device (no read-back).
///
/// # Errors
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`y`) when the lengths differ;
/// [`Error::TooLarge`](crate::Error::TooLarge); [`Error::Gpu`](crate::Error::Gpu). On error `x`
/// and `y` are unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// let ctx = wgblas::Context::shared()?;
/// let (mut x, mut y) = (array![1.0f32, 2.0], array![3.0f32, 4.0]);
/// // c = 0, s = 1: x ← y, y ← −x.
/// wgblas::blas::srot(ctx, x.view_mut(), y.view_mut(), 0.0, 1.0)?;
/// assert_eq!((x, y), (array![3.0, 4.0], array![-1.0, -2.0]));
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn srot<'a>(
    ctx: &Context,
    x: impl Into<VecMut<'a>>,
    y: impl Into<VecMut<'a>>,
    c: f32,
    s: f32,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(srot_in(ctx, x, y, c, s, Wait::Block))
}

/// The core of [`srot`] and [`srot_async`](crate::blas::srot_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn srot_in<'a>(
    ctx: &Context,
    x: impl Into<VecMut<'a>>,
    y: impl Into<VecMut<'a>>,
    c: f32,
    s: f32,
    wait: Wait,
) -> Result<()> {
    rotate_in(ctx, "srot", x.into(), y.into(), [c, s, -s, c], wait).await
}

/// Apply the plane rotation `[[c, s], [−s, c]]` in f64: `x_i ← c·x_i + s·y_i`,
/// `y_i ← c·y_i − s·x_i`.
///
/// BLAS: `drot`. As [`srot`] (equal lengths, any stride, no shortcut for `c = 1, s = 0`, a
/// possible fused multiply-add), in f64 (`wgsl/level1/elementwise.wgsl` entry `rot_sc`,
/// `alias T = f64;`, `c` and `s` read as f64 from a small buffer). Forward bound
/// `|c·x_i| + |s·y_i|` (x) and `|c·y_i| + |s·x_i|` (y) with eps = 2^-52.
///
/// # Errors
/// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
/// f64 shaders; otherwise as [`srot`]. On error `x` and `y` are unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// let ctx = wgblas::Context::shared()?;
/// # if !ctx.native_f64() { return Ok(()); }
/// let (mut x, mut y) = (array![1e300f64, 2.0], array![3.0f64, 1e-300]);
/// // c = 0, s = 1: x ← y, y ← −x.
/// wgblas::blas::drot(ctx, x.view_mut(), y.view_mut(), 0.0, 1.0)?;
/// assert_eq!((x, y), (array![3.0, 1e-300], array![-1e300, -2.0]));
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn drot<'a>(
    ctx: &Context,
    x: impl Into<VecMut<'a, f64>>,
    y: impl Into<VecMut<'a, f64>>,
    c: f64,
    s: f64,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(drot_in(ctx, x, y, c, s, Wait::Block))
}

/// The core of [`drot`] and [`drot_async`](crate::blas::drot_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn drot_in<'a>(
    ctx: &Context,
    x: impl Into<VecMut<'a, f64>>,
    y: impl Into<VecMut<'a, f64>>,
    c: f64,
    s: f64,
    wait: Wait,
) -> Result<()> {
    rotate_f64_in(ctx, "drot", x.into(), y.into(), [c, s, -s, c], wait).await
}

/// [`rotate`] in f64: `H` goes to the device as four f64 in a small buffer; shared by [`drot`]
/// and [`drotm`](crate::blas::drotm).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn rotate_f64_in<'a>(
    ctx: &Context,
    routine: &'static str,
    mut x: VecMut<'a, f64>,
    mut y: VecMut<'a, f64>,
    h: [f64; 4],
    wait: Wait,
) -> Result<()> {
    crate::blas::owners!(ctx, routine, x, y);
    check_len(routine, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(routine, "x", x.len())?;
    crate::blas::check_f64(ctx, routine)?;
    if x.is_empty() {
        return Ok(());
    }
    let xd = layout::vector(ctx, routine, "x", x.view())?;
    let yd = layout::vector(ctx, routine, "y", y.view())?;
    let hb = ctx.upload_source(routine, &Source::slice(&h))?;
    let d = elementwise::rot_f64(ctx, &hb, &xd, &yd);
    layout::finish_as_in(
        ctx,
        routine,
        &[d],
        &mut [
            layout::OutAs::Vec(&mut x, &xd),
            layout::OutAs::Vec(&mut y, &yd),
        ],
        wait,
    )
    .await
}

/// `(x_i, y_i) ← (h11·x_i + h12·y_i, h21·x_i + h22·y_i)` on the element-wise driver, after
/// validation; shared by [`srot`] and [`srotm`](crate::blas::srotm).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn rotate_in<'a>(
    ctx: &Context,
    routine: &'static str,
    mut x: VecMut<'a>,
    mut y: VecMut<'a>,
    h: [f32; 4],
    wait: Wait,
) -> Result<()> {
    crate::blas::owners!(ctx, routine, x, y);
    check_len(routine, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(routine, "x", x.len())?;
    if x.is_empty() {
        return Ok(());
    }
    let xd = layout::vector_any(ctx, routine, "x", x.view())?;
    let yd = layout::vector_any(ctx, routine, "y", y.view())?;
    let parts = elementwise::split(ctx, Variant::Rot, &xd, &yd);
    let d = elementwise::dispatches_split(ctx, Variant::Rot, h, &xd, &yd, &parts);
    layout::finish_in(
        ctx,
        routine,
        &d,
        &mut [Out::Vec(&mut x, &xd), Out::Vec(&mut y, &yd)],
        wait,
    )
    .await
}
