//! Element-wise Level 1 driver (`wgsl/level1/elementwise.wgsl`): one invocation per element,
//! the operation chosen by the shader's `OP` override (axpy, copy, swap, scal, and the plane
//! rotation shared by rot and rotm).

use crate::context::Context;
use crate::launch::Dispatch;
use crate::layout::VecOperand;

super::shader!(SHADER, "level1/elementwise.wgsl");

const WG: u64 = 256;

/// The per-element operation (the shader's `OP` override).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Op {
    /// `y = alpha·x + y` (`alpha = h[0]`).
    Axpy = 0,
    /// `y = x`.
    Copy = 1,
    /// `x ↔ y`.
    Swap = 2,
    /// `x = alpha·x` (`alpha = h[0]`; `y` is a dummy).
    Scal = 3,
    /// `(x, y) = (h11·x + h12·y, h21·x + h22·y)`, `h = [h11, h12, h21, h22]`.
    Rot = 4,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    n: u32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    h: [f32; 4],
    _pad: [u32; 3],
}

/// One dispatch of `op` over the `x.len` elements of `x` and `y`, with coefficients
/// `h = [h11, h12, h21, h22]` (`[alpha, 0, 0, 0]` for axpy and scal).
/// Byte offset of `h[0]` (alpha) in the params, for a device scalar.
pub(crate) const ALPHA: usize = std::mem::offset_of!(Params, h);

pub(crate) fn dispatch<'a>(
    ctx: &Context,
    op: Op,
    h: [f32; 4],
    x: &'a VecOperand,
    y: &'a VecOperand,
) -> Dispatch<'a> {
    let params = Params {
        n: x.len as u32,
        offx: x.offset,
        incx: x.inc,
        offy: y.offset,
        incy: y.inc,
        h,
        _pad: [0; 3],
    };
    let groups = ctx.grid((x.len as u64).div_ceil(WG));
    Dispatch::new(&SHADER, "main", &params, &[&x.buffer, &y.buffer], groups)
        .constants(&[("OP", op as u32 as f64)])
}

/// A device buffer of `n` zeros addressed contiguously (offset 0, stride 1): the output of
/// `copy` (whose `y` is never read), or the dummy `y` of `scal`.
pub(crate) fn contiguous(ctx: &Context, n: usize) -> VecOperand {
    VecOperand {
        buffer: ctx.zeroed(n as u64 * 4),
        offset: 0,
        inc: 1,
        len: n,
        span: n,
    }
}
