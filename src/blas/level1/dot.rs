use crate::blas::{check_dim, check_len};
use crate::context::Elem;
use crate::drivers::reduction::{self, Instance, Variant};
use crate::error::Result;
use crate::launch::Wait;
use crate::layout::{self, VecOperand, VecRef};
use crate::resident::decode_f32;
use crate::{Context, GpuScalar};

/// `xᵀ·y = Σ_i x_i·y_i`.
///
/// BLAS: `sdot`. `x` and `y` are 1-D views of equal length, any stride. n = 0 gives 0.
/// Summation is pairwise (a tree per workgroup, then a tree over workgroups, in one pass: the
/// last workgroup to finish adds the others' sums; `vec4` loads where both vectors are
/// contiguous), so the error
/// stays within the forward bound `n·eps·Σ|x_i·y_i|`
/// ([`metrics::bounds::dot`](crate::metrics::bounds::dot); Higham, *Accuracy and Stability
/// of Numerical Algorithms*, 2nd ed., §3.1).
///
/// # Errors
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`y`) when the lengths differ;
/// [`Error::TooLarge`](crate::Error::TooLarge); [`Error::Gpu`](crate::Error::Gpu).
///
/// # Example
/// ```
/// use ndarray::array;
/// let ctx = wgblas::Context::shared()?;
/// let d = wgblas::blas::sdot(ctx, array![1.0f32, 2.0, 3.0].view(), array![4.0f32, 5.0, 6.0].view())?;
/// assert_eq!(d, 32.0);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn sdot<'a>(ctx: &Context, x: impl Into<VecRef<'a>>, y: impl Into<VecRef<'a>>) -> Result<f32> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(sdot_in(ctx, x, y, Wait::Block))
}

/// The core of [`sdot`] and [`sdot_async`](crate::blas::sdot_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn sdot_in<'a>(
    ctx: &Context,
    x: impl Into<VecRef<'a>>,
    y: impl Into<VecRef<'a>>,
    wait: Wait,
) -> Result<f32> {
    match operands(ctx, x.into(), y.into())? {
        None => Ok(0.0),
        Some((xd, yd)) => Ok(reduction::run_in(ctx, R, INSTANCE, &xd, &yd, wait)
            .await?
            .t_f32()),
    }
}

/// `xᵀ·y` kept on the device: [`resident::sdot`](crate::resident::sdot).
pub(crate) fn sdot_device<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<VecRef<'a>>,
    y: impl Into<VecRef<'a>>,
) -> Result<GpuScalar<'c, f32>> {
    let ops = operands(ctx, x.into(), y.into())?;
    super::kept(
        ctx,
        R,
        INSTANCE,
        ops.as_ref().map(|(x, y)| (x, y)),
        0,
        decode_f32,
    )
}

const R: &str = "sdot";
const INSTANCE: Instance = Instance {
    variant: Variant::Dot,
    elem: Elem::F32,
    words: 1,
};

fn operands(
    ctx: &Context,
    x: VecRef<'_>,
    y: VecRef<'_>,
) -> Result<Option<(VecOperand, VecOperand)>> {
    crate::blas::owners!(ctx, R, x, y);
    check_len(R, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(R, "x", x.len())?;
    if x.is_empty() {
        return Ok(None);
    }
    Ok(Some((
        layout::vector_any(ctx, R, "x", &x)?,
        layout::vector_any(ctx, R, "y", &y)?,
    )))
}

/// `xᵀ·y = Σ_i x_i·y_i` in f64.
///
/// BLAS: `ddot`. As [`sdot`] (equal lengths, any stride, n = 0 gives 0, pairwise summation in
/// a tree per workgroup then a tree over the partial sums), in f64 (`wgsl/level1/reduction.wgsl`
/// instantiated with `alias T = f64;`, its two-pass path). Forward bound `n·eps·Σ|x_i·y_i|`
/// with eps = 2^-52 (Higham, 2nd ed., §3.1).
///
/// # Errors
/// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
/// f64 shaders; otherwise as [`sdot`].
///
/// # Example
/// ```
/// use ndarray::array;
/// let ctx = wgblas::Context::shared()?;
/// # if !ctx.native_f64() { return Ok(()); }
/// let d = wgblas::blas::ddot(ctx, array![0.1f64, 2.0].view(), array![3.0f64, 1e-300].view())?;
/// assert_eq!(d, 0.1 * 3.0 + 2e-300);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn ddot<'a>(
    ctx: &Context,
    x: impl Into<VecRef<'a, f64>>,
    y: impl Into<VecRef<'a, f64>>,
) -> Result<f64> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(ddot_in(ctx, x, y, Wait::Block))
}

/// The core of [`ddot`] and [`ddot_async`](crate::blas::ddot_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn ddot_in<'a>(
    ctx: &Context,
    x: impl Into<VecRef<'a, f64>>,
    y: impl Into<VecRef<'a, f64>>,
    wait: Wait,
) -> Result<f64> {
    match operands_f64(ctx, x.into(), y.into())? {
        None => Ok(0.0),
        Some((xd, yd)) => Ok(reduction::run_in(ctx, R64, INSTANCE64, &xd, &yd, wait)
            .await?
            .t_f64()),
    }
}

/// `xᵀ·y` in f64 kept on the device: [`resident::ddot`](crate::resident::ddot).
pub(crate) fn ddot_device<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<VecRef<'a, f64>>,
    y: impl Into<VecRef<'a, f64>>,
) -> Result<GpuScalar<'c, f64>> {
    let ops = operands_f64(ctx, x.into(), y.into())?;
    super::kept(
        ctx,
        R64,
        INSTANCE64,
        ops.as_ref().map(|(x, y)| (x, y)),
        0,
        decode_f64,
    )
}

const R64: &str = "ddot";
const INSTANCE64: Instance = Instance {
    variant: Variant::Dot,
    elem: Elem::F64,
    words: 2,
};

fn decode_f64(w: &[u32]) -> f64 {
    f64::from_bits(u64::from(w[0]) | (u64::from(w[1]) << 32))
}

fn operands_f64(
    ctx: &Context,
    x: VecRef<'_, f64>,
    y: VecRef<'_, f64>,
) -> Result<Option<(VecOperand, VecOperand)>> {
    crate::blas::owners!(ctx, R64, x, y);
    check_len(R64, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
    check_dim(R64, "x", x.len())?;
    crate::blas::check_f64(ctx, R64)?;
    if x.is_empty() {
        return Ok(None);
    }
    Ok(Some((
        layout::vector(ctx, R64, "x", &x)?,
        layout::vector(ctx, R64, "y", &y)?,
    )))
}
