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

/// One dispatch of `y = alpha·A·x + beta·y`. Rows of a column-contiguous `A` go one per
/// invocation (coalesced down the columns); rows of a row-contiguous or strided `A` go one
/// per workgroup (coalesced along the row).
/// Byte offsets of alpha and beta in the params, for device scalars.
pub(crate) const ALPHA: usize = std::mem::offset_of!(Params, alpha);
pub(crate) const BETA: usize = std::mem::offset_of!(Params, beta);

pub(crate) fn gemv<'a>(
    ctx: &Context,
    mode: Mode,
    alpha: f32,
    a: &'a MatOperand,
    x: &'a VecOperand,
    beta: f32,
    y: &'a VecOperand,
) -> Dispatch<'a> {
    let params = Params {
        m: a.rows as u32,
        n: a.cols as u32,
        offa: a.offset,
        rsa: a.rs,
        csa: a.cs,
        offx: x.offset,
        incx: x.inc,
        offy: y.offset,
        incy: y.inc,
        alpha,
        beta,
        _pad: 0,
    };
    let buffers: [&wgpu::Buffer; 3] = [&a.buffer, &x.buffer, &y.buffer];
    if a.rs.abs() == 1 && a.cs.abs() != 1 {
        let groups = ctx.grid((a.rows as u64).div_ceil(WG));
        Dispatch::new(&SHADER, "gemv_rows", &params, &buffers, groups).constants(&mode.constants())
    } else {
        let groups = ctx.grid(a.rows as u64);
        Dispatch::new(&SHADER, "gemv_dot", &params, &buffers, groups).constants(&mode.constants())
    }
}
