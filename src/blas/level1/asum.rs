use super::nrm2::norm_in;
use crate::blas::forms::routine;
use crate::drivers::reduction::Variant;
use crate::error::Result;
use crate::layout::VecRef;
use crate::{Context, GpuScalar};

routine! {
    /// `Σ_i |x_i|`.
    ///
    /// BLAS: `sasum`. `x` is a 1-D view, any stride; n = 0 gives 0. The sum is a tree (each
    /// invocation sums a grid-stride share of at most `⌈n / 262144⌉` terms, then the workgroup and
    /// the workgroups are summed pairwise, in one pass: the last workgroup to finish adds the
    /// others' sums; `vec4` loads for a contiguous `x`), so its error grows like `log2 n` roundings instead of the
    /// `n` of a sequential sum (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
    /// §4.2), and a sum of 2·10^7 ones is exactly 2·10^7 (a sequential f32 sum stalls at 2^24).
    /// A NaN gives NaN, an infinity +∞. Metric: within 50 ULP of OpenBLAS (DESIGN.md §2).
    /// `x` may be a resident [`GpuVector`](crate::GpuVector) (used in place, no upload); to keep
    /// the sum on the device too, see [`resident::sasum`](crate::resident::sasum).
    ///
    /// # Errors
    /// [`Error::TooLarge`](crate::Error::TooLarge) when `x` is longer than 2^31 − 1 elements, spans
    /// more than 2^32 or passes the device's memory (past one storage binding it is processed in
    /// parts, past one buffer held in segments, issue 15); [`Error::Gpu`](crate::Error::Gpu) on a
    /// device failure.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// assert_eq!(wgblas::blas::sasum(ctx, array![1.0f32, -2.0, 3.5].view())?, 6.5);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn sasum / sasum_in: f32;
    /// `Σ_i |x_i|` of an `f64` vector.
    ///
    /// BLAS: `dasum`. As [`sasum`], on every adapter (DESIGN.md §5):
    /// - where the adapter has `SHADER_F64` ([`Context::native_f64`]): a tree sum in native f64;
    /// - elsewhere (or when forced by [`Context::set_force_f64_fallback`]): the f64 data is read as
    ///   `u32` word pairs and summed with integer arithmetic only, in an extended format with an
    ///   `i32` exponent and a 64-bit integer mantissa (value `m·2^e`). Each term is exact in it
    ///   (53-bit significand, subnormals included); each addition aligns the smaller operand on the
    ///   larger exponent after normalising both mantissas to 63 bits, losing less than `2^-62`
    ///   relative; the total is rounded once to the nearest f64 on the host (overflow gives +∞). So
    ///   the result is correct over the whole f64 range, with no overflow or underflow of
    ///   intermediates, within about `(n/262144 + log2 n)·2^-62` relative of the exact sum plus one
    ///   rounding. (Float-float arithmetic alone would not do: its exponent range is that of f32.)
    ///
    /// A NaN gives NaN, an infinity +∞. Metric: within 64 f64 ULP of OpenBLAS (DESIGN.md §2).
    /// `x` may be a resident `GpuVector<f64>` of `ctx` (used in place, no upload).
    ///
    /// # Errors
    /// As [`sasum`].
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// let s = wgblas::blas::dasum(ctx, array![1e300f64, -1e300, 1e-300].view())?;
    /// assert_eq!(s, 2e300);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn dasum / dasum_in: f64;
    (x: VecRef) -> Result<T>
    = norm_in(Variant::Asum, x.into());
}

/// `Σ|x_i|` kept on the device: [`resident::sasum`](crate::resident::sasum).
pub(crate) fn sasum_device<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<VecRef<'a>>,
) -> Result<GpuScalar<'c, f32>> {
    super::kept_one(ctx, "sasum", Variant::Asum, x.into(), 0)
}
