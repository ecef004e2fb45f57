use crate::blas::check_dim;
use crate::context::Elem;
use crate::drivers::reduction::{self, Kind, Op};
use crate::error::Result;
use crate::layout::{self, VecRef};
use crate::resident::decode_f32;
use crate::{Context, GpuScalar};

/// The Euclidean norm `‖x‖₂ = sqrt(Σ_i x_i²)`, without overflow or underflow.
///
/// BLAS: `snrm2`. `x` is a 1-D view, any stride; n = 0 gives 0.
///
/// Algorithm: Blue's scaled sum of squares (J. L. Blue, "A portable Fortran program to find the
/// Euclidean norm of a vector", ACM TOMS 4(1), 1978), in the form of LAPACK 3.10's `snrm2.f90`
/// (E. Anderson, "Algorithm 978: Safe scaling in the Level 1 BLAS", ACM TOMS 43(1), 2017): each
/// `|x_i|` goes to one of three sums, the big ones (`> 2^44`) scaled by `2^-76`, the small ones
/// (`< 2^-63`) scaled by `2^75`, the others unscaled; the three sums are tree-reduced in one
/// pass and combined at the end as LAPACK does. The scale factors are powers of two, so scaling
/// is exact. The big threshold is LAPACK's `2^52` lowered to `2^44` so that the unscaled sum
/// cannot overflow for any n (< 2^40); with `2^52` it could from n = 2^24 on.
///
/// Special values (DESIGN.md §3), found from bit patterns: any NaN gives NaN; otherwise any `±∞`
/// gives `+∞`. Metric: within 50 ULP of OpenBLAS (DESIGN.md §2).
/// `x` may be a resident [`GpuVector`](crate::GpuVector) (used in place, no upload); to keep
/// the norm on the device too, see [`resident::snrm2`](crate::resident::snrm2).
///
/// # Errors
/// [`Error::TooLarge`](crate::Error::TooLarge) when `x` does not fit one buffer of the device
/// (`max_buffer_size`; past one storage binding it is processed in parts, issue 15);
/// [`Error::Gpu`](crate::Error::Gpu) on a device failure.
///
/// # Example
/// ```
/// use ndarray::array;
/// let ctx = wgblas::Context::shared()?;
/// // The squares 9e40 and 16e40 overflow f32, the norm does not.
/// let n = wgblas::blas::snrm2(ctx, array![3e20f32, -4e20].view())?;
/// assert!((n - 5e20).abs() <= 5e20 * 1e-6);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn snrm2<'a>(ctx: &Context, x: impl Into<VecRef<'a>>) -> Result<f32> {
    const R: &str = "snrm2";
    let x = x.into();
    crate::blas::owners!(ctx, R, x);
    check_dim(R, "x", x.len())?;
    if x.is_empty() {
        return Ok(0.0);
    }
    let xd = layout::vector_any(ctx, R, "x", &x)?;
    let kind = Kind {
        op: Op::Nrm2,
        elem: Elem::F32,
        words: 1,
    };
    Ok(reduction::run(ctx, R, kind, &xd, &xd)?.nrm2())
}

/// `‖x‖₂` kept on the device: [`resident::snrm2`](crate::resident::snrm2).
pub(crate) fn snrm2_device<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<VecRef<'a>>,
) -> Result<GpuScalar<'c, f32>> {
    let kind = Kind {
        op: Op::Nrm2,
        elem: Elem::F32,
        words: 1,
    };
    reduction::run_device_one(ctx, "snrm2", kind, &x.into(), 11, decode_f32)
}
