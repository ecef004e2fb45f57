use super::{check_two, elementwise_in};
use crate::blas::forms::routine;
use crate::drivers::elementwise::{Typed, Variant};
use crate::layout::{self, Out, Owner};

routine! {
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
    /// [`Error::TooLarge`](crate::Error::TooLarge) when an operand is longer than 2^31 − 1
    /// elements, spans more than 2^32 or passes the device's memory (an operand past one storage
    /// binding is processed in parts, one past one buffer held in segments, issue 15);
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
    pub fn saxpy / saxpy_in: f32;
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
    pub fn daxpy / daxpy_in: f64;
    (alpha: Scalar, x: VecRef, y: VecMut) -> Result<()>
    /// The one core of [`saxpy`] and [`daxpy`] (`routine` names the one called), generic over the
    /// element type: the checks, the quick return, the uploads and the write-back are shared; the
    /// kernels are those of the element type ([`Typed`]).
    = async fn axpy_in<T: Typed>(ctx, routine, wait) {
        // A device alpha's context is checked with the other owners.
        let owners = [("alpha", alpha.owner()), ("x", x.owner()), ("y", y.owner())];
        if !check_two::<T>(ctx, routine, &owners, x.len(), y.len())? || alpha.is(T::ZERO) {
            return Ok(());
        }
        let xd = layout::vector_any(ctx, routine, "x", &x)?;
        let yd = layout::vector_any(ctx, routine, "y", y.view())?;
        let outs = &mut [Out::Vec(&mut y, &yd)];
        elementwise_in(
            ctx,
            routine,
            Variant::Axpy,
            &[alpha],
            &xd,
            Some(&yd),
            outs,
            wait,
        )
        .await
    }
}
