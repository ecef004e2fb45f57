use super::{check_two, elementwise_in};
use crate::blas::forms::routine;
use crate::drivers::elementwise::{self, Typed, Variant};
use crate::layout::{self, Out, Owner, VecMut};

routine! {
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
    /// [`Error::TooLarge`](crate::Error::TooLarge) when an operand is longer than 2^31 − 1
    /// elements, spans more than 2^32 or passes the device's memory (an operand past one storage
    /// binding is processed in parts, one past one buffer held in segments, issue 15);
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
    pub fn scopy / scopy_in: f32;
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
    pub fn dcopy / dcopy_in: f64;
    (x: VecRef, y: VecMut) -> Result<()>
    /// The one core of [`scopy`] and [`dcopy`] (`routine` names the one called), generic over the
    /// element type ([`Typed`]: the kernels of each).
    = async fn copy_in<T: Typed>(ctx, routine, wait) {
        let owners = [("x", x.owner()), ("y", y.owner())];
        if !check_two::<T>(ctx, routine, &owners, x.len(), y.len())? {
            return Ok(());
        }
        let xd = layout::vector_any(ctx, routine, "x", &x)?;
        // y is never read: a host y gets a fresh contiguous buffer (read back and written element
        // by element), a resident y (contiguous already) is written in place.
        let yd = match &y {
            VecMut::Host(v) => {
                layout::check_fits::<T>(ctx, routine, "y", v.len())?;
                elementwise::contiguous_as(ctx, v.len(), std::mem::size_of::<T>() as u64)
            }
            VecMut::Device(_) => layout::vector_any(ctx, routine, "y", y.view())?,
        };
        let outs = &mut [Out::Vec(&mut y, &yd)];
        elementwise_in(ctx, routine, Variant::Copy, &[], &xd, Some(&yd), outs, wait).await
    }
}
