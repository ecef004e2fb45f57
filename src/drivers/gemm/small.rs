//! Batches of small products (m, n ≤ 32) on entry `gemm_small`: several products per
//! workgroup, each invocation a 4×4 block of C read straight from the buffers.

use super::{tuning, Gemm, Params, Plan, Step, WG};
use crate::context::Context;
use crate::flags::Uplo;

/// The most of k that one `gemm_small` dispatch runs over: an invocation runs one loop
/// iteration per step of k (or per four steps, where A is read as vec4s), so 4,096 of k is at
/// most 4,096 iterations (`K_SPLIT`'s rule for lavapipe, DESIGN.md §3).
pub(super) const K_SPLIT_SMALL: usize = 4096;

/// Whether a batch of `m×n` products runs on the small-product kernel (`gemm_small`): a
/// batch of general products with m, n ≤ 32, unless a [`Tuning`] override says otherwise.
/// Past 32 the tile engine is faster (H200, 10,000 products of 64³: 16.95 TFLOP/s against
/// 1.98 for the earlier small kernel; `benches/results/2026-12-01-batch/`).
///
/// A lone product (batch 1) runs on it where it is one workgroup's work (at most 256 blocks
/// of 4×4: m, n ≤ 64, say), k is at most [`SINGLE_SMALL_K`] and B is read as vec4s (`bl` = 0,
/// the staging mode of B), unless [`Tuning::single_small`] says otherwise or the tuning pins
/// a tile or a split.
pub(super) fn small_kernel(
    batch: usize,
    (m, n, k): (usize, usize, usize),
    bl: u32,
    tri_c: Option<Uplo>,
    k_tri: f64,
) -> bool {
    let t = tuning();
    let general = tri_c.is_none() && k_tri == 0.0;
    if batch == 1 {
        // A tuning that pins a tile or a split means the tile kernel, unless it says otherwise.
        let pinned = t.is_some_and(|t| t.tile.is_some() || t.split.is_some());
        let on = t.and_then(|t| t.single_small).unwrap_or(!pinned);
        let blocks = m.div_ceil(4) * n.div_ceil(4);
        return on && general && blocks <= WG as usize && k <= SINGLE_SMALL_K && bl == 0;
    }
    let on = t.and_then(|t| t.batch_small).unwrap_or(true);
    on && m <= 32 && n <= 32 && general
}

/// The most of k for which a lone product runs on `gemm_small` ([`small_kernel`]). On the
/// H200 (`benches/results/2026-12-03-s13/q1/lab.log`, µs a call against the tile kernel's):
/// 64×64×64 10.9 against 14.3, 48×40×100 13.2 against 19.6, 64×64×256 33.0 against 24.6; with B
/// read element-wise (TT-F) 64×64×64 22.9 against 13.2.
pub(super) const SINGLE_SMALL_K: usize = 128;

/// Emit the batch `g` of products with m, n ≤ 32 on entry `gemm_small`: as many products
/// per 256-invocation workgroup as 4×4 blocks per invocation allow; A and B read as vec4s
/// where their staging modes allow (`AL` = 1, `BL` = 0), element-wise otherwise.
pub(super) fn dispatch_small<'a>(ctx: &Context, plan: &mut Plan<'a>, g: Gemm<'a>, first: bool) {
    let (m, n, _) = g.dims;
    let (a, b, c) = (g.a, g.b, g.c);
    let (al, bl) = g.modes;
    let tp = m.div_ceil(4) * n.div_ceil(4);
    let np = (WG as usize / tp.max(1)).clamp(1, g.batch.max(1));
    let params = Params {
        tiles: np as u32,
        ..g.params()
    };
    let mut constants = vec![("AL", f64::from(al)), ("BL", f64::from(bl))];
    if g.unscaled {
        constants.push(("UNSCALED", 1.0));
    }
    plan.steps.push(Step {
        entry: "gemm_small",
        params,
        constants,
        bindings: vec![(1, a.buf), (2, b.buf), (3, c.buf), (4, a.buf), (5, b.buf)],
        groups: ctx.grid(g.batch.div_ceil(np) as u64),
        beta: first,
    });
}
