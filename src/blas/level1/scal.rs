use super::{check_elem, elementwise_in};
use crate::blas::check_dim;
use crate::blas::forms::routine;
use crate::drivers::elementwise::{Typed, Variant};
use crate::layout::{self, Out, VecMut};

routine! {
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
    /// [`Error::TooLarge`](crate::Error::TooLarge) when `x` is longer than 2^31 − 1 elements, spans
    /// more than 2^32 or passes the device's memory (past one storage binding it is processed in
    /// parts, past one buffer held in segments, issue 15); [`Error::Gpu`](crate::Error::Gpu) on a
    /// device failure. On error `x` is unchanged.
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
    pub fn sscal / sscal_in: f32;
    /// `x ← alpha·x` in f64.
    ///
    /// BLAS: `dscal`. As [`sscal`] (any stride, `alpha = 1` a quick return, NaN and Inf propagate:
    /// `0·NaN = NaN`; one rounding per element, bit-exact against the host), in f64
    /// (`wgsl/level1/elementwise.wgsl` entry `scal_sc`, alpha read as f64 from a small buffer);
    /// `alpha` may be a device scalar (`&GpuScalar<f64>`), copied into that buffer on the device.
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; otherwise as [`sscal`]. On error `x` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let mut x = array![3.0f64, 1e300];
    /// wgblas::blas::dscal(ctx, 0.1, x.view_mut())?;
    /// assert_eq!(x, array![0.1 * 3.0, 0.1 * 1e300]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn dscal / dscal_in: f64;
    (alpha: Scalar, x: VecMut) -> Result<()>
    /// The one core of [`sscal`] and [`dscal`] (`routine` names the one called), generic over the
    /// element type ([`Typed`]: the kernels of each).
    = async fn scal_in<T: Typed>(ctx, routine, wait) {
        crate::blas::owners!(ctx, routine, alpha, x);
        check_dim(routine, "x", x.len())?;
        alpha.check(ctx, routine, "alpha")?;
        check_elem::<T>(ctx, routine)?;
        if x.is_empty() {
            return Ok(());
        }
        if alpha.is(T::ONE) {
            if let VecMut::Host(v) = &x {
                return layout::check_fits::<T>(ctx, routine, "x", v.len());
            }
            return Ok(());
        }
        let xd = layout::vector_any(ctx, routine, "x", x.view())?;
        let outs = &mut [Out::Vec(&mut x, &xd)];
        elementwise_in(ctx, routine, Variant::Scal, &[alpha], &xd, None, outs, wait).await
    }
}
