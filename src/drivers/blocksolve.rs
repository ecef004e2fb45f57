//! Triangular solve with many right-hand sides (Level 3, `strsm`), blocked: for each diagonal
//! block of [`NB`] rows, in solve order, a block solve (`wgsl/level3/trsm.wgsl`) then a
//! tile-engine update of the rows still to solve (`wgsl/level3/gemm.wgsl`, through
//! [`matmul::engine`]), all 2·⌈r/NB⌉ dispatches in one submission.
//!
//! This is the right-looking blocked substitution of LAPACK's `STRSM`-based algorithms
//! (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., §13.1 and Thm. 8.5 for
//! the blocks): `X_b ← L_bb⁻¹·X_b`, then `X_rest ← X_rest − L_rest,b·X_b`. `alpha` is applied
//! once: the first block solve scales its block, the first update scales the rest (`beta =
//! alpha`), every later step uses 1.
//!
//! Block size `NB = 32`: the block solve is the serial part (one invocation per right-hand
//! side walks the block's rows), and a 32×32 triangle plus a 32×64 block of X fit 12 KiB of
//! workgroup memory, inside WebGPU's 16 KiB default; the O(r²·n) work is in the updates, each a
//! rank-32 product on the tile engine.

use super::matmul::{self, Operand, Variant};
use crate::context::Context;
use crate::flags::Uplo;
use crate::launch::Dispatch;

super::shader!(SHADER, "level3/trsm.wgsl");

/// Rows per diagonal block (the shader's `NB`).
pub(crate) const NB: usize = 32;
/// Right-hand sides per block-solve workgroup (the shader's `NC`).
const NC: usize = 64;

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    n: u32,
    k0: u32,
    nb: u32,
    offa: u32,
    rsa: i32,
    csa: i32,
    offx: u32,
    rsx: i32,
    csx: i32,
    scale: f32,
    _pad0: u32,
    _pad1: u32,
}

/// Elements of the scratch buffer `w` that [`trsm`] needs for `r` rows and `n` right-hand sides.
pub(crate) fn scratch_len(r: usize, n: usize) -> usize {
    NB.min(r) * n
}

/// The dispatches solving `L·X = alpha·X` in place in `x` (r×n; `dims = (r, n)`), `L` (r×r)
/// triangular in `uplo` (of that form), `unit` for an implicit unit diagonal. `w` is a scratch
/// buffer of [`scratch_len`] elements. `alpha` must not be 0 (the caller's quick return).
#[allow(clippy::too_many_arguments)]
pub(crate) fn trsm<'a>(
    ctx: &Context,
    (r, n): (usize, usize),
    uplo: Uplo,
    unit: bool,
    alpha: f32,
    l: Operand<'a>,
    x: Operand<'a>,
    w: &'a wgpu::Buffer,
) -> Vec<Dispatch<'a>> {
    let lower = uplo == Uplo::Lower;
    let constants = [("LOWER", lower as u32 as f64), ("UNIT", unit as u32 as f64)];
    let groups = ctx.grid(n.div_ceil(NC) as u64);
    // The solved block, in C order (nb×n), as the updates' right operand.
    let wop = Operand {
        buffer: w,
        offset: 0,
        rs: n as i32,
        cs: 1,
    };
    let mut out = Vec::new();
    for b in 0..r.div_ceil(NB) {
        // Blocks in solve order: from the top for lower, from the bottom for upper.
        let (k0, nb) = if lower {
            (b * NB, NB.min(r - b * NB))
        } else {
            let end = r - b * NB;
            (end.saturating_sub(NB), end - end.saturating_sub(NB))
        };
        let scale = if b == 0 { alpha } else { 1.0 };
        let params = Params {
            n: n as u32,
            k0: k0 as u32,
            nb: nb as u32,
            offa: l.offset,
            rsa: l.rs,
            csa: l.cs,
            offx: x.offset,
            rsx: x.rs,
            csx: x.cs,
            scale,
            _pad0: 0,
            _pad1: 0,
        };
        out.push(
            Dispatch::new(
                &SHADER,
                "block_solve",
                &params,
                &[l.buffer, x.buffer, w],
                groups,
            )
            .constants(&constants),
        );
        // Rows still to solve: below the block (lower) or above it (upper).
        let (first, rest) = if lower {
            (k0 + nb, r - k0 - nb)
        } else {
            (0, k0)
        };
        if rest > 0 {
            out.push(matmul::engine(
                ctx,
                (rest, n, nb),
                -1.0,
                l.at(first, k0),
                wop,
                scale,
                x.at(first, 0),
                Variant::default(),
            ));
        }
    }
    out
}
