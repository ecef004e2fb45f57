//! Matrix-matrix Level 3 tile engine (`wgsl/level3/gemm.wgsl`): `C = alpha·A·B + beta·C` with
//! `A`, `B` already in their `op` forms (strides swapped for a transpose, layout.rs).

use crate::context::Context;
use crate::launch::Dispatch;
use crate::layout::MatOperand;

super::shader!(SHADER, "level3/gemm.wgsl");

/// Rows and columns of C per workgroup (the shader's `BM`, `BN`).
const BM: usize = 128;
const BN: usize = 128;

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    m: u32,
    n: u32,
    k: u32,
    offa: u32,
    rsa: i32,
    csa: i32,
    offb: u32,
    rsb: i32,
    csb: i32,
    offc: u32,
    rsc: i32,
    csc: i32,
    alpha: f32,
    beta: f32,
    tiles_m: u32,
    _pad: u32,
}

/// One dispatch of `C = alpha·A·B + beta·C`, one workgroup per 128×128 tile of C.
pub(crate) fn gemm<'a>(
    ctx: &Context,
    alpha: f32,
    a: &'a MatOperand,
    b: &'a MatOperand,
    beta: f32,
    c: &'a MatOperand,
) -> Dispatch<'a> {
    let tiles_m = c.rows.div_ceil(BM).max(1);
    let tiles_n = c.cols.div_ceil(BN).max(1);
    let params = Params {
        m: c.rows as u32,
        n: c.cols as u32,
        k: a.cols as u32,
        offa: a.offset,
        rsa: a.rs,
        csa: a.cs,
        offb: b.offset,
        rsb: b.rs,
        csb: b.cs,
        offc: c.offset,
        rsc: c.rs,
        csc: c.cs,
        alpha,
        beta,
        tiles_m: tiles_m as u32,
        _pad: 0,
    };
    let groups = ctx.grid((tiles_m * tiles_n) as u64);
    Dispatch::new(
        &SHADER,
        "gemm",
        &params,
        &[&a.buffer, &b.buffer, &c.buffer],
        groups,
    )
}
