use super::rot::pair_in;
use crate::blas::forms::routine;
use crate::drivers::elementwise::Variant;

routine! {
    /// `x ↔ y`.
    ///
    /// BLAS: `sswap`. `x` and `y` are 1-D views of equal length, any stride. Bit-exact; elements
    /// between a strided view's elements are never written. Resident operands
    /// ([`GpuVector`](crate::GpuVector)) are accepted for `x` and `y`, mixed with host views or not;
    /// resident ones are swapped in place on the device (no read-back).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`y`) when the lengths differ;
    /// [`Error::TooLarge`](crate::Error::TooLarge) when an operand is longer than 2^31 − 1
    /// elements, spans more than 2^32 or passes the device's memory (an operand past one storage
    /// binding is processed in parts, one past one buffer held in segments, issue 15);
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
    pub fn sswap / sswap_in: f32;
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
    pub fn dswap / dswap_in: f64;
    (x: VecMut, y: VecMut) -> Result<()>
    = pair_in(Variant::Swap, [], x.into(), y.into());
}
