use super::rot::pair_in;
use super::{check_elem, check_pair};
use crate::blas::forms::routine;
use crate::drivers::elementwise::{Typed, Variant};
use crate::error::{Error, Result};
use crate::launch::Wait;
use crate::layout::VecMut;
use crate::Context;

routine! {
    /// Apply the modified Givens transformation `H`: `x_i ← h11·x_i + h12·y_i`,
    /// `y_i ← h21·x_i + h22·y_i`, with `H` decoded from `param = [flag, h11, h21, h12, h22]` as
    /// reference BLAS does:
    ///
    /// | flag | H |
    /// |---|---|
    /// | −2 | identity: returns at once, `x` and `y` are not read (NaN stays NaN) |
    /// | −1 | `[[h11, h12], [h21, h22]]` |
    /// | 0 | `[[1, h12], [h21, 1]]` (`param[1]`, `param[4]` not read) |
    /// | 1 | `[[h11, 1], [−1, h22]]` (`param[2]`, `param[3]` not read) |
    ///
    /// BLAS: `srotm`. `x` and `y` are 1-D views of equal length, any stride. Each result may use a
    /// fused multiply-add, so it is within one rounding of `|h11·x_i| + |h12·y_i|` (x) and
    /// `|h21·x_i| + |h22·y_i|` (y) (forward factor ≤ 1 of
    /// [`metrics::bounds::rotm`](crate::metrics::bounds::rotm)). Resident operands
    /// ([`GpuVector`](crate::GpuVector)) are accepted for `x` and `y`, mixed with host views or not;
    /// resident ones are updated in place on the device (no read-back).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] (`param`) when the flag is not −2, −1, 0 or 1 (reference BLAS
    /// treats any other negative flag as −1 and any other positive one as 1; wgblas reports it,
    /// whatever n is); [`Error::DimensionMismatch`] (`y`) when the lengths differ;
    /// [`Error::TooLarge`] when an operand is longer than 2^31 − 1 elements, spans more than 2^32
    /// or passes the device's memory (an operand past one storage binding is processed in parts,
    /// one past one buffer held in segments, issue 15); [`Error::Gpu`]. On error `x` and `y` are
    /// unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// let (mut x, mut y) = (array![1.0f32, 2.0], array![3.0f32, 4.0]);
    /// // flag 0: H = [[1, h12], [h21, 1]] = [[1, 2], [0.5, 1]].
    /// wgblas::blas::srotm(ctx, x.view_mut(), y.view_mut(), [0.0, f32::NAN, 0.5, 2.0, f32::NAN])?;
    /// assert_eq!((x, y), (array![7.0, 10.0], array![3.5, 5.0]));
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn srotm / srotm_in: f32;
    /// Apply the modified Givens transformation `H` in f64: `x_i ← h11·x_i + h12·y_i`,
    /// `y_i ← h21·x_i + h22·y_i`, with `H` decoded from `param = [flag, h11, h21, h12, h22]` as
    /// [`srotm`] does (flag −2: identity, nothing read; −1: full `H`; 0: unit diagonal; 1:
    /// `[[h11, 1], [−1, h22]]`).
    ///
    /// BLAS: `drotm`. As [`srotm`] (equal lengths, any stride, a possible fused multiply-add), in
    /// f64 (`wgsl/level1/elementwise.wgsl` entry `rot_sc`, `alias T = f64;`, `H` read as f64 from
    /// a small buffer). Forward bound `|h11·x_i| + |h12·y_i|` (x), `|h21·x_i| + |h22·y_i|` (y) with
    /// eps = 2^-52.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] (`param`) when the flag is not −2, −1, 0 or 1;
    /// [`Error::DimensionMismatch`] (`y`) when the lengths differ; [`Error::Unsupported`]
    /// (`SHADER_F64`) where the adapter has no f64 shaders; [`Error::TooLarge`] as for [`srotm`];
    /// [`Error::Gpu`]. On error `x` and `y` are unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let (mut x, mut y) = (array![1.0f64, 2.0], array![3.0f64, 4.0]);
    /// // flag 0: H = [[1, h12], [h21, 1]] = [[1, 2], [0.1, 1]].
    /// wgblas::blas::drotm(ctx, x.view_mut(), y.view_mut(), [0.0, f64::NAN, 0.1, 2.0, f64::NAN])?;
    /// assert_eq!((x, y), (array![7.0, 10.0], array![0.1 + 3.0, 0.1 * 2.0 + 4.0]));
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn drotm / drotm_in: f64;
    (x: VecMut, y: VecMut, param: [T; 5]) -> Result<()>
    = rotm_in(x.into(), y.into(), param);
}

/// The one core of [`srotm`] and [`drotm`] (`routine` names the one called), generic over the
/// element type: `param` decoded on the host, then the rotation of
/// [`pair_in`](super::rot::pair_in).
async fn rotm_in<'a, T>(
    ctx: &Context,
    routine: &'static str,
    x: VecMut<'a, T>,
    y: VecMut<'a, T>,
    param: [T; 5],
    wait: Wait,
) -> Result<()>
where
    T: Typed + From<f32> + std::ops::Neg<Output = T> + std::fmt::Display,
{
    crate::blas::owners!(ctx, routine, x, y);
    match decode(routine, param)? {
        Some(h) => pair_in(ctx, routine, Variant::Rot, h, x, y, wait).await,
        // flag = −2: H = I. The lengths are still checked (before the device feature, as in
        // every routine).
        None => {
            check_pair(routine, x.len(), y.len())?;
            check_elem::<T>(ctx, routine)
        }
    }
}

/// `H = [h11, h12, h21, h22]` from `param = [flag, h11, h21, h12, h22]` (reference BLAS
/// `srotm`/`drotm`), `None` for flag −2 (identity), an error for any other flag.
fn decode<F>(routine: &'static str, param: [F; 5]) -> Result<Option<[F; 4]>>
where
    F: Copy + PartialEq + From<f32> + std::ops::Neg<Output = F> + std::fmt::Display,
{
    let [flag, h11, h21, h12, h22] = param;
    let one = F::from(1.0);
    Ok(if flag == F::from(-2.0) {
        None
    } else if flag == F::from(-1.0) {
        Some([h11, h12, h21, h22])
    } else if flag == F::from(0.0) {
        Some([one, h12, h21, one])
    } else if flag == one {
        Some([h11, one, -one, h22])
    } else {
        return Err(Error::InvalidArgument {
            routine,
            arg: "param",
            detail: format!("param[0] (flag) must be -2, -1, 0 or 1, found {flag}"),
        });
    })
}
