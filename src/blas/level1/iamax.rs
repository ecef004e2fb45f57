use crate::blas::check_dim;
use crate::blas::forms::routine;
use crate::drivers::reduction::{self, Reduce, Variant};
use crate::error::{Error, Result};
use crate::layout::{self, VecRef};
use crate::{Context, GpuScalar};

fn empty(routine: &'static str) -> Error {
    Error::InvalidArgument {
        routine,
        arg: "x",
        detail: "x is empty: an empty vector has no largest element".into(),
    }
}

routine! {
    /// The index of the first element of largest magnitude: `argmin { i : |x_i| = max_j |x_j| }`.
    ///
    /// BLAS: `isamax`, with a **0-based** index (reference BLAS returns it 1-based). `x` is a 1-D
    /// view, any stride; the index is the logical one of the view (for a reversed view, index 0 is
    /// the last element in memory).
    ///
    /// Rules (DESIGN.md §3): ties go to the lowest index (`-0.0` ties with `0.0`); a NaN counts as
    /// larger than every number, so the **first NaN** wins (the rule the reference adopted for
    /// complex `icamax` in LAPACK 3.10); `±∞` is larger than every finite value. The comparison is
    /// exact on every adapter: magnitudes are compared as the integers of their bit patterns (sign
    /// bit cleared), which order non-negative IEEE floats like their values, subnormals included.
    /// n = 1 returns 0 at once. `x` may be a resident [`GpuVector`](crate::GpuVector) (used in
    /// place, no upload); to keep the index on the device too, see
    /// [`resident::isamax`](crate::resident::isamax).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] (`x`) when `x` is empty: there is no index to return (reference
    /// BLAS returns the out-of-range index 0 there, which is a valid index in 0-based terms, so
    /// wgblas reports it instead); [`Error::TooLarge`] when `x` is longer than 2^31 − 1 elements,
    /// spans more than 2^32 or passes the device's memory (past one storage binding it is processed
    /// in parts, past one buffer held in segments, issue 15); [`Error::Gpu`] on a device failure.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// let x = array![1.0f32, -7.0, 3.0, 7.0];
    /// assert_eq!(wgblas::blas::isamax(ctx, x.view())?, 1); // |-7| = |7|: the first one
    /// assert_eq!(wgblas::blas::isamax(ctx, array![1.0f32, f32::NAN, f32::INFINITY, f32::NAN].view())?, 1);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn isamax / isamax_in: f32;
    /// The index of the first element of largest magnitude of an `f64` vector.
    ///
    /// BLAS: `idamax`, 0-based, with the rules of [`isamax`] (ties to the lowest index, the first
    /// NaN wins, n = 1 returns 0, an empty `x` is an error). Exact on every adapter (DESIGN.md §5):
    /// the f64 data is read as pairs of `u32` words and `|x_i|` compared as the 63-bit integer of
    /// its bit pattern without the sign (high word, then low word), which orders magnitudes
    /// exactly over the whole f64 range, subnormals and infinities included; NaN maps above every
    /// number. It runs in isamax's single pass (`vec4` loads where x has unit stride) on every
    /// adapter; where the adapter has `SHADER_F64` ([`Context::native_f64`]) the shader is
    /// instantiated in f64, elsewhere (or when forced by [`Context::set_force_f64_fallback`]) in
    /// f32. (The lab's `Legacy` on `ReductionF64` compares magnitudes in native f64 instead, NaN
    /// found from the bit patterns, in two passes.)
    ///
    /// `x` may be a resident `GpuVector<f64>` of `ctx` (used in place, no upload).
    ///
    /// # Errors
    /// As [`isamax`].
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// let x = array![1e-300f64, -1e300, 5e-324, 1e300];
    /// assert_eq!(wgblas::blas::idamax(ctx, x.view())?, 1);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn idamax / idamax_in: f64;
    (x: VecRef) -> Result<usize>
    /// The one core of [`isamax`] and [`idamax`] (`routine` names the one called), generic over
    /// the element type ([`Reduce`]: `idamax` compares in f64, or bit patterns where the adapter
    /// has no f64 shaders).
    = async fn iamax_in<T: Reduce>(ctx, routine, wait) {
        crate::blas::owners!(ctx, routine, x);
        check_dim(routine, "x", x.len())?;
        match x.len() {
            0 => return Err(empty(routine)),
            1 => return Ok(0),
            _ => {}
        }
        let xd = layout::vector_any(ctx, routine, "x", &x)?;
        let kind = T::instance(ctx, Variant::Iamax);
        let total = reduction::run_in(ctx, routine, kind, &xd, &xd, wait).await?;
        Ok(total.index())
    }
}

/// The index of the first largest `|x_i|`, kept on the device:
/// [`resident::isamax`](crate::resident::isamax).
pub(crate) fn isamax_device<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<VecRef<'a>>,
) -> Result<GpuScalar<'c, usize>> {
    const R: &str = "isamax";
    let x = x.into();
    crate::blas::owners!(ctx, R, x);
    check_dim(R, "x", x.len())?;
    if x.is_empty() {
        return Err(empty(R));
    }
    // n = 1: nothing runs and the index reads 0.
    let xd = if x.len() == 1 {
        None
    } else {
        Some(layout::vector_any(ctx, R, "x", &x)?)
    };
    let kind = f32::instance(ctx, Variant::Iamax);
    super::kept(ctx, R, kind, xd.as_ref().map(|x| (x, x)), 10, |w| {
        w[0] as usize
    })
}
