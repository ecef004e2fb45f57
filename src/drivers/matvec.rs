//! Matrix-vector Level 2 driver (`wgsl/level2/gemv.wgsl`): `y = alpha·A·x + beta·y` with `A`
//! already in its `op` form (strides swapped for a transpose, layout.rs).

use crate::context::Context;
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

/// One dispatch of `y = alpha·A·x + beta·y`. Rows of a column-contiguous `A` go one per
/// invocation (coalesced down the columns); rows of a row-contiguous or strided `A` go one
/// per workgroup (coalesced along the row).
pub(crate) fn gemv<'a>(
    ctx: &Context,
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
    let buffers = [&a.buffer, &x.buffer, &y.buffer];
    if a.rs.abs() == 1 && a.cs.abs() != 1 {
        let groups = ctx.grid((a.rows as u64).div_ceil(WG));
        Dispatch::new(&SHADER, "gemv_rows", &params, &buffers, groups)
    } else {
        let groups = ctx.grid(a.rows as u64);
        Dispatch::new(&SHADER, "gemv_dot", &params, &buffers, groups)
    }
}
