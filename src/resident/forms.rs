//! The resident forms of the reductions (`resident::sdot`, `sasum`, `snrm2`, `isamax`, `ddot`):
//! the result stays on the device as a [`GpuScalar`]. They sit above the BLAS layer (each calls
//! its routine's device form) and are re-exported by `resident.rs` as `wgblas::resident::*`;
//! nothing of the resident types names them.

use super::GpuScalar;
use crate::context::Context;
use crate::error::Result;

/// `xᵀ·y` kept on the device. BLAS `sdot`; see [`crate::blas::sdot`] for shapes, layouts and
/// accuracy (the same kernels run).
///
/// # Errors
/// As [`crate::blas::sdot`].
pub fn sdot<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<crate::layout::VecRef<'a>>,
    y: impl Into<crate::layout::VecRef<'a>>,
) -> Result<GpuScalar<'c, f32>> {
    crate::blas::level1::dot::sdot_device(ctx, x, y)
}

/// `xᵀ·y` in f64 kept on the device (read it with [`GpuScalar::get`]). BLAS `ddot`; see
/// [`crate::blas::ddot`].
///
/// # Errors
/// As [`crate::blas::ddot`].
pub fn ddot<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<crate::layout::VecRef<'a, f64>>,
    y: impl Into<crate::layout::VecRef<'a, f64>>,
) -> Result<GpuScalar<'c, f64>> {
    crate::blas::level1::dot::ddot_device(ctx, x, y)
}

/// `Σ|x_i|` kept on the device. BLAS `sasum`; see [`crate::blas::sasum`].
///
/// # Errors
/// As [`crate::blas::sasum`].
pub fn sasum<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<crate::layout::VecRef<'a>>,
) -> Result<GpuScalar<'c, f32>> {
    crate::blas::level1::asum::sasum_device(ctx, x)
}

/// `‖x‖₂` kept on the device. BLAS `snrm2`; see [`crate::blas::snrm2`].
///
/// # Errors
/// As [`crate::blas::snrm2`].
pub fn snrm2<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<crate::layout::VecRef<'a>>,
) -> Result<GpuScalar<'c, f32>> {
    crate::blas::level1::nrm2::snrm2_device(ctx, x)
}

/// 0-based index of the first largest `|x_i|`, kept on the device. BLAS `isamax`; see
/// [`crate::blas::isamax`].
///
/// # Errors
/// As [`crate::blas::isamax`] (an empty vector is an error).
pub fn isamax<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<crate::layout::VecRef<'a>>,
) -> Result<GpuScalar<'c, usize>> {
    crate::blas::level1::iamax::isamax_device(ctx, x)
}
