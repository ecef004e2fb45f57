use super::check_two;
use crate::blas::forms::routine;
use crate::drivers::reduction::{self, Reduce, Variant};
use crate::error::Result;
use crate::layout::{self, Owner, Precision, VecOperand, VecRef};
use crate::{Context, GpuScalar};

routine! {
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
    /// [`Error::TooLarge`](crate::Error::TooLarge) when an operand is longer than 2^31 − 1
    /// elements, spans more than 2^32 or passes the device's memory (an operand past one storage
    /// binding is processed in parts, one past one buffer held in segments, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu).
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// let d = wgblas::blas::sdot(ctx, array![1.0f32, 2.0, 3.0].view(), array![4.0f32, 5.0, 6.0].view())?;
    /// assert_eq!(d, 32.0);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn sdot / sdot_in: f32;
    /// `xᵀ·y = Σ_i x_i·y_i` in f64.
    ///
    /// BLAS: `ddot`. As [`sdot`] (equal lengths, any stride, n = 0 gives 0, pairwise summation in
    /// a tree per workgroup then a tree over the partial sums), in f64 (`wgsl/level1/reduction.wgsl`
    /// instantiated with `alias T = f64;`: sdot's `vec4` loops, split in a partial dispatch and a
    /// final one, since an f64 cannot pass through the single pass's `u32` atomics). Forward bound `n·eps·Σ|x_i·y_i|`
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
    pub fn ddot / ddot_in: f64;
    (x: VecRef, y: VecRef) -> Result<T>
    /// The one core of [`sdot`] and [`ddot`] (`routine` names the one called), generic over the
    /// element type ([`Reduce`]: its reduction instance and the reading of its total).
    = async fn dot_in<T: Reduce>(ctx, routine, wait) {
        let Some((xd, yd)) = operands(ctx, routine, x, y)? else {
            return Ok(T::ZERO);
        };
        let kind = T::instance(ctx, Variant::Dot);
        let total = reduction::run_in(ctx, routine, kind, &xd, &yd, wait).await?;
        Ok(T::value(&total, kind))
    }
}

/// `xᵀ·y` kept on the device: [`resident::sdot`](crate::resident::sdot).
pub(crate) fn sdot_device<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<VecRef<'a>>,
    y: impl Into<VecRef<'a>>,
) -> Result<GpuScalar<'c, f32>> {
    dot_device(ctx, "sdot", x.into(), y.into())
}

/// `xᵀ·y` in f64 kept on the device: [`resident::ddot`](crate::resident::ddot).
pub(crate) fn ddot_device<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<VecRef<'a, f64>>,
    y: impl Into<VecRef<'a, f64>>,
) -> Result<GpuScalar<'c, f64>> {
    dot_device(ctx, "ddot", x.into(), y.into())
}

/// The core of `resident::sdot` and `resident::ddot`: [`dot_in`] with its total kept on the
/// device.
fn dot_device<'c, T: Reduce>(
    ctx: &'c Context,
    routine: &'static str,
    x: VecRef<'_, T>,
    y: VecRef<'_, T>,
) -> Result<GpuScalar<'c, T>> {
    let ops = operands(ctx, routine, x, y)?;
    let kind = T::instance(ctx, Variant::Dot);
    let ops = ops.as_ref().map(|(x, y)| (x, y));
    super::kept(ctx, routine, kind, ops, 0, T::decode)
}

/// The checks and uploads of a dot product: `None` for empty vectors.
fn operands<T: Precision>(
    ctx: &Context,
    routine: &'static str,
    x: VecRef<'_, T>,
    y: VecRef<'_, T>,
) -> Result<Option<(VecOperand, VecOperand)>> {
    let owners = [("x", x.owner()), ("y", y.owner())];
    if !check_two::<T>(ctx, routine, &owners, x.len(), y.len())? {
        return Ok(None);
    }
    Ok(Some((
        layout::vector_any(ctx, routine, "x", &x)?,
        layout::vector_any(ctx, routine, "y", &y)?,
    )))
}
