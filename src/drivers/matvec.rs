//! Matrix-vector Level 2 driver (`wgsl/level2/gemv.wgsl`): `y = alpha·A·x + beta·y` with `A`
//! already in its `op` form (strides swapped for a transpose, layout.rs), for the whole family:
//! general (`sgemv`), symmetric (`ssymv`) and triangular (`strmv`) operators are the shader's
//! `MODE` override, with `LOWER` / `UNIT` for the triangle and the diagonal ([`Mode`]).

use crate::context::Context;
use crate::flags::{Diag, Uplo};
use crate::launch::Dispatch;
use crate::layout::{MatOperand, VecOperand};

super::shader!(SHADER, "level2/gemv.wgsl");

const WG: u64 = 256;

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    m: u32,
    n: u32,
    offa: u32,
    rsa: i32,
    csa: i32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    alpha: f32,
    beta: f32,
    _pad: u32,
}

/// Which operator the matrix operand stands for (the shader's `MODE`, `LOWER`, `UNIT`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Mode {
    /// `A` as stored, every element read (`sgemv`).
    General,
    /// The symmetric matrix whose triangle `uplo` is stored; the other triangle is never read
    /// (`ssymv`).
    Symmetric(Uplo),
    /// The triangle `uplo` of `A` (diagonal 1 and never read for `Diag::Unit`); the other triangle
    /// is never read (`strmv`). The output `y` must be a buffer other than `x`'s, with `beta = 0`.
    Triangular(Uplo, Diag),
}

impl Mode {
    fn constants(self) -> [(&'static str, f64); 3] {
        let (mode, lower, unit) = match self {
            Mode::General => (0, true, false),
            Mode::Symmetric(uplo) => (1, uplo == Uplo::Lower, false),
            Mode::Triangular(uplo, diag) => (2, uplo == Uplo::Lower, diag == Diag::Unit),
        };
        [
            ("MODE", mode as f64),
            ("LOWER", lower as u32 as f64),
            ("UNIT", unit as u32 as f64),
        ]
    }
}

/// Byte offsets of alpha and beta in the params, for device scalars.
pub(crate) const ALPHA: usize = std::mem::offset_of!(Params, alpha);
pub(crate) const BETA: usize = std::mem::offset_of!(Params, beta);

/// The most columns one dispatch runs over, per invocation of `gemv_rows` (which loops over all
/// of them) and per workgroup of `gemv_dot` (whose WG invocations share them). Mesa's llvmpipe
/// (lavapipe) stops the loops of a shader invocation after 65,535 iterations in all, silently
/// (`LP_MAX_TGSI_LOOP_ITERATIONS`; DESIGN.md §3), so longer rows are split over dispatches.
pub(crate) const ROWS_SPLIT: usize = 16384;
pub(crate) const DOT_SPLIT: usize = 16384 * WG as usize;

/// `y = alpha·A·x + beta·y`. Rows of a column-contiguous `A` go one per invocation (coalesced
/// down the columns); rows of a row-contiguous or strided `A` go one per workgroup (coalesced
/// along the row). Rows longer than [`ROWS_SPLIT`] / [`DOT_SPLIT`] are split into column parts,
/// one dispatch each, in order: the first computes `alpha·A₁·x₁ + beta·y`, each later one adds
/// `alpha·Aₚ·xₚ` (beta = 1; device scalars through [`super::scalars`]). Only [`Mode::General`]
/// is split: a symmetric or triangular A is n×n with n² elements in one storage binding, and
/// lavapipe (the driver with the limit) binds at most 128 MiB, so there n ≤ 5,792.
pub(crate) fn gemv<'a>(
    ctx: &Context,
    mode: Mode,
    alpha: f32,
    a: &'a MatOperand,
    x: &'a VecOperand,
    beta: f32,
    y: &'a VecOperand,
) -> Vec<Dispatch<'a>> {
    let rows_kernel = a.rs.abs() == 1 && a.cs.abs() != 1;
    let split = if rows_kernel { ROWS_SPLIT } else { DOT_SPLIT };
    let n = a.cols;
    if n <= split || alpha == 0.0 || mode != Mode::General {
        return vec![part(ctx, mode, alpha, a, x, beta, y, (0, n), rows_kernel)];
    }
    (0..n)
        .step_by(split)
        .map(|j0| {
            let beta = if j0 == 0 { beta } else { 1.0 };
            let cols = (j0, split.min(n - j0));
            part(ctx, mode, alpha, a, x, beta, y, cols, rows_kernel)
        })
        .collect()
}

/// One dispatch over the `cols.1` columns of A (and elements of x) from column `cols.0` on.
#[allow(clippy::too_many_arguments)]
fn part<'a>(
    ctx: &Context,
    mode: Mode,
    alpha: f32,
    a: &'a MatOperand,
    x: &'a VecOperand,
    beta: f32,
    y: &'a VecOperand,
    (j0, cols): (usize, usize),
    rows_kernel: bool,
) -> Dispatch<'a> {
    let offa = a.offset as i64 + j0 as i64 * a.cs as i64;
    let offx = x.offset as i64 + j0 as i64 * x.inc as i64;
    let params = Params {
        m: a.rows as u32,
        n: cols as u32,
        offa: offa as u32,
        rsa: a.rs,
        csa: a.cs,
        offx: offx as u32,
        incx: x.inc,
        offy: y.offset,
        incy: y.inc,
        alpha,
        beta,
        _pad: 0,
    };
    let buffers: [&wgpu::Buffer; 3] = [&a.buffer, &x.buffer, &y.buffer];
    if rows_kernel {
        let groups = ctx.grid((a.rows as u64).div_ceil(WG));
        Dispatch::new(&SHADER, "gemv_rows", &params, &buffers, groups).constants(&mode.constants())
    } else {
        let groups = ctx.grid(a.rows as u64);
        Dispatch::new(&SHADER, "gemv_dot", &params, &buffers, groups).constants(&mode.constants())
    }
}
