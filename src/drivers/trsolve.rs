//! Triangular-solve Level 2 driver (`wgsl/level2/trsv.wgsl`): blocked substitution, a
//! diagonal-block solve then a parallel update of the remaining rows, per block of
//! [`NB`] rows, all in one submission.
//!
//! Block size `NB = 64`: the block solve is one workgroup that needs two barriers per row, so
//! it is the serial part; 64 rows keep it to one workgroup of 64 invocations (two subgroups on
//! the H200, eight on lavapipe) while the update kernel, which carries the O(n²) work, gets
//! n/64 launches wide enough to fill the device. Larger blocks lengthen the serial part,
//! smaller ones multiply launches.

use crate::context::Context;
use crate::flags::Uplo;
use crate::launch::Dispatch;
use crate::layout::{MatOperand, VecOperand};

super::shader!(SHADER, "level2/trsv.wgsl");

/// Rows per diagonal block (the shader's `NB`).
pub(crate) const NB: usize = 64;
const WG: u64 = 256;

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    n: u32,
    offa: u32,
    rsa: i32,
    csa: i32,
    offx: u32,
    incx: i32,
    k0: u32,
    nb: u32,
}

/// The dispatches solving `A·x = b` in place in `x`, `A` triangular in its `op` form (`uplo`
/// is the triangle of that form), `unit` for an implicit unit diagonal.
pub(crate) fn trsv<'a>(
    ctx: &Context,
    uplo: Uplo,
    unit: bool,
    a: &'a MatOperand,
    x: &'a VecOperand,
) -> Vec<Dispatch<'a>> {
    let n = a.rows;
    let lower = uplo == Uplo::Lower;
    let constants = [("LOWER", lower as u32 as f64), ("UNIT", unit as u32 as f64)];
    let mut out = Vec::new();
    let blocks = n.div_ceil(NB);
    for b in 0..blocks {
        // Blocks in solve order: from the top for lower, from the bottom for upper.
        let k0 = if lower {
            b * NB
        } else {
            n.saturating_sub((b + 1) * NB)
        };
        let nb = if lower {
            NB.min(n - k0)
        } else {
            n - b * NB - k0
        };
        let params = Params {
            n: n as u32,
            offa: a.offset,
            rsa: a.rs,
            csa: a.cs,
            offx: x.offset,
            incx: x.inc,
            k0: k0 as u32,
            nb: nb as u32,
        };
        let buffers: [&wgpu::Buffer; 2] = [&a.buffer, &x.buffer];
        out.push(
            Dispatch::new(&SHADER, "block_solve", &params, &buffers, [1, 1, 1])
                .constants(&constants),
        );
        let rest = if lower { n - k0 - nb } else { k0 };
        if rest > 0 {
            let groups = ctx.grid((rest as u64).div_ceil(WG));
            out.push(
                Dispatch::new(&SHADER, "update", &params, &buffers, groups).constants(&constants),
            );
        }
    }
    out
}
