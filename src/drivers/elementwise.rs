//! Element-wise Level 1 driver (`wgsl/level1/elementwise.wgsl`): one invocation per element.

use crate::context::Context;
use crate::launch::Dispatch;
use crate::layout::VecOperand;

super::shader!(SHADER, "level1/elementwise.wgsl");

const WG: u64 = 256;

/// The per-element operation (the shader's `OP` override).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Op {
    /// `y = alpha·x + y`.
    Axpy = 0,
}

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    n: u32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    alpha: f32,
    _pad: [u32; 2],
}

/// One dispatch of `op` over the `x.len` elements of `x` and `y`.
pub(crate) fn dispatch<'a>(
    ctx: &Context,
    op: Op,
    alpha: f32,
    x: &'a VecOperand,
    y: &'a VecOperand,
) -> Dispatch<'a> {
    let params = Params {
        n: x.len as u32,
        offx: x.offset,
        incx: x.inc,
        offy: y.offset,
        incy: y.inc,
        alpha,
        _pad: [0; 2],
    };
    let groups = ctx.grid((x.len as u64).div_ceil(WG));
    Dispatch::new(&SHADER, "main", &params, &[&x.buffer, &y.buffer], groups)
        .constants(&[("OP", op as u32 as f64)])
}
