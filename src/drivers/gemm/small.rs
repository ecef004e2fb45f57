//! Batches of small products (m, n ≤ 64) on entry `gemm_small`: several products per
//! workgroup, their k slabs staged in workgroup memory.

use super::{tuning, Gemm, Params, Plan, Step, WG};
use crate::context::Context;
use crate::flags::Uplo;

/// The most of k that one `gemm_small` dispatch runs over: per slab of `sbk` (4 to 16) of k an
/// invocation runs at most 1 + 16 + 16 loop iterations (the slab loop, the staging loop over
/// at most 4096 elements of 256 invocations, the products), so 4,096 of k is at most 1,024
/// slabs and 21,504 iterations (`K_SPLIT`'s rule for lavapipe, DESIGN.md §3).
pub(super) const K_SPLIT_SMALL: usize = 4096;

/// Whether a batch of `m×n` products runs on the small-product kernel (`gemm_small`): a
/// batch of general products with m, n ≤ 64, unless a [`Tuning`] override says otherwise.
pub(super) fn small_kernel(
    batch: usize,
    m: usize,
    n: usize,
    tri_c: Option<Uplo>,
    k_tri: f64,
) -> bool {
    let on = tuning().and_then(|t| t.batch_small).unwrap_or(true);
    on && batch > 1 && m <= 64 && n <= 64 && tri_c.is_none() && k_tri == 0.0
}

/// Emit the batch `g` of products with m, n ≤ 64 on entry `gemm_small`: as many products
/// per 256-invocation workgroup as 4×4 blocks per invocation allow, their k slabs staged in
/// workgroup memory (`SMEM` elements: 16 KiB, or less where the adapter has less).
pub(super) fn dispatch_small<'a>(ctx: &Context, plan: &mut Plan<'a>, g: Gemm<'a>, first: bool) {
    let (m, n, _) = g.dims;
    let (a, b, c) = (g.a, g.b, g.c);
    let smem = (ctx.limits().max_compute_workgroup_storage_size as usize / plan.esize()).min(4096);
    let tp = m.div_ceil(4) * n.div_ceil(4);
    let mut np = (WG as usize / tp.max(1)).clamp(1, g.batch.max(1));
    while np > 1 && smem / (np * (m + n)) < 4 {
        np /= 2;
    }
    let sbk = (smem / (np * (m + n))).clamp(1, 16);
    let params = Params {
        tiles: np as u32,
        kslice: sbk as u32,
        ..g.params()
    };
    plan.steps.push(Step {
        entry: "gemm_small",
        params,
        constants: vec![("SMEM", smem as f64)],
        bindings: vec![(1, a.buf), (2, b.buf), (3, c.buf)],
        groups: ctx.grid(g.batch.div_ceil(np) as u64),
        beta: first,
    });
}
