use super::{check_two, elementwise_in};
use crate::blas::forms::routine;
use crate::drivers::elementwise::{Typed, Variant};
use crate::error::Result;
use crate::launch::Wait;
use crate::layout::{self, Out, Owner, Scalar, VecMut};
use crate::Context;

routine! {
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
    /// [`Error::TooLarge`](crate::Error::TooLarge) when an operand is longer than 2^31 − 1
    /// elements, spans more than 2^32 or passes the device's memory (an operand past one storage
    /// binding is processed in parts, one past one buffer held in segments, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `x` and `y` are unchanged.
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
    pub fn srot / srot_in: f32;
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
    pub fn drot / drot_in: f64;
    (x: VecMut, y: VecMut, c: T, s: T) -> Result<()>
    = pair_in(Variant::Rot, [c, s, -s, c], x.into(), y.into());
}

/// The one core of the element-wise routines that update two vectors in place (`routine`
/// names the one called), generic over the element type ([`Typed`]: the kernels of each):
/// [`srot`], [`drot`], [`srotm`](crate::blas::srotm), [`drotm`](crate::blas::drotm) (`op` =
/// `Rot`, `(x, y) ← (h11·x + h12·y, h21·x + h22·y)` with `h = [h11, h12, h21, h22]`) and
/// [`sswap`](crate::blas::sswap), [`dswap`](crate::blas::dswap) (`op` = `Swap`, no `h`).
pub(crate) async fn pair_in<'a, T: Typed, const H: usize>(
    ctx: &Context,
    routine: &'static str,
    op: Variant,
    h: [T; H],
    mut x: VecMut<'a, T>,
    mut y: VecMut<'a, T>,
    wait: Wait,
) -> Result<()> {
    let h = h.map(Scalar::Host);
    let owners = [("x", x.owner()), ("y", y.owner())];
    if !check_two::<T>(ctx, routine, &owners, x.len(), y.len())? {
        return Ok(());
    }
    let xd = layout::vector_any(ctx, routine, "x", x.view())?;
    let yd = layout::vector_any(ctx, routine, "y", y.view())?;
    let outs = &mut [Out::Vec(&mut x, &xd), Out::Vec(&mut y, &yd)];
    elementwise_in(ctx, routine, op, &h, &xd, Some(&yd), outs, wait).await
}
