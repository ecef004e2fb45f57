use crate::blas::level1::rot::rotate;
use crate::error::{Error, Result};
use crate::layout::VecMut;
use crate::Context;

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
/// [`Error::TooLarge`]; [`Error::Gpu`]. On error `x` and `y` are unchanged.
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
pub fn srotm<'a>(
    ctx: &Context,
    x: impl Into<VecMut<'a>>,
    y: impl Into<VecMut<'a>>,
    param: [f32; 5],
) -> Result<()> {
    const R: &str = "srotm";
    let (x, y) = (x.into(), y.into());
    crate::blas::owners!(ctx, R, x, y);
    let [flag, h11, h21, h12, h22] = param;
    let h = if flag == -2.0 {
        None
    } else if flag == -1.0 {
        Some([h11, h12, h21, h22])
    } else if flag == 0.0 {
        Some([1.0, h12, h21, 1.0])
    } else if flag == 1.0 {
        Some([h11, 1.0, -1.0, h22])
    } else {
        return Err(Error::InvalidArgument {
            routine: R,
            arg: "param",
            detail: format!("param[0] (flag) must be -2, -1, 0 or 1, found {flag}"),
        });
    };
    match h {
        Some(h) => rotate(ctx, R, x, y, h),
        // flag = −2: H = I. The lengths are still checked.
        None => {
            crate::blas::check_len(R, "y", y.len(), x.len(), "len(y) must equal len(x)")?;
            crate::blas::check_dim(R, "x", x.len())
        }
    }
}
