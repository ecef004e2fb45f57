//! Triangular-solve Level 2 driver, blocked substitution in one submission. The default,
//! [`trsv_step`] (`wgsl/level2/trsv_step.wgsl`): one dispatch per block of rows, in which one
//! workgroup alone solves the block (with a look-ahead onto the next) while the others update
//! the rows past it, and no copy. Lab `Scalar` and `Legacy` on
//! [`Driver::Trsv`](crate::lab::Driver::Trsv): the block kernel (`wgsl/level2/trsv.wgsl`), one
//! dispatch per block of `NB` rows ([`block`]) (each workgroup solves the diagonal block in
//! workgroup memory, then updates its own rows), then one copy of the solution into `x`.
//!
//! The block kernel's block size `NB = 64`: the block solve is the serial part (two barriers per row, in
//! workgroup memory), repeated by every workgroup of a dispatch so that the update needs no
//! second dispatch; 64 rows keep it short while the update, which carries the O(n²) work,
//! gets n/64 workgroups of 256 invocations. Larger blocks lengthen the serial part (and the
//! 64×65 tile of workgroup memory), smaller ones multiply dispatches. Where the 64-row tile
//! does not fit the adapter's workgroup memory (f64 on lavapipe: 35 KiB against 32 KiB),
//! `NB = 32` ([`block`]); the shader is the same source, its `NB` an override.

use crate::context::{Context, Elem};
use crate::flags::Uplo;
use crate::launch::Dispatch;
use crate::layout::{MatOperand, VecOperand};
use crate::pool::Buf;

super::shader!(SHADER, TRSV);
super::shader!(STEP_SHADER, TRSV_STEP);

const WG: u64 = super::registry::TRSV.constant("WG") as u64;

/// Rows per diagonal block (the shader's `NB`) for elements of `esize` bytes: 64 where the
/// workgroup memory of that block (its NB×(NB+1) tile, `vectors` vectors of NB values — 1 in
/// `trsv.wgsl`, 2 in `trsv_step.wgsl` — and WG partial sums) fits the adapter's limit, else
/// 32.
pub(crate) fn block(ctx: &Context, esize: usize, vectors: usize) -> usize {
    let bytes = |nb: usize| (nb * (nb + 1) + vectors * nb + WG as usize) * esize;
    if bytes(64) as u64 <= u64::from(ctx.limits().max_compute_workgroup_storage_size) {
        64
    } else {
        32
    }
}

/// The params of both shaders: `trsv.wgsl` reads the last two words as the first row and the
/// rows of the dispatch's block, `trsv_step.wgsl` as the block's index in solve order and the
/// number of blocks.
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

/// [`Params`] of `a` and `x` (`n` their order), the last two words `k0` and `nb`.
fn params(a: &MatOperand, x: &VecOperand, k0: u32, nb: u32) -> Params {
    Params {
        n: a.rows as u32,
        offa: a.offset,
        rsa: a.rs,
        csa: a.cs,
        offx: x.offset,
        incx: x.inc,
        k0,
        nb,
    }
}

/// The scratch of one solve: the solution, block by block, before `copy_out` moves it into
/// `x` (`n` elements of the element type).
pub(crate) fn scratch(ctx: &Context, n: usize, elem_bytes: usize) -> crate::pool::Buf {
    ctx.scratch((n.max(1) * elem_bytes) as u64)
}

/// The dispatches solving `A·x = b` in place in `x`, `A` triangular in its `op` form (`uplo`
/// is the triangle of that form), `unit` for an implicit unit diagonal; `sol` from
/// [`scratch`]; in f32 or f64 (`elem`).
pub(crate) fn trsv<'a>(
    ctx: &Context,
    elem: Elem,
    uplo: Uplo,
    unit: bool,
    a: &'a MatOperand,
    x: &'a VecOperand,
    sol: &'a Buf,
) -> Vec<Dispatch<'a>> {
    // The look-ahead solve is the default since the H200 run of session 8
    // (`benches/results/2026-12-02-s8/q1/trsv.log`: n = 8192, 3.20 → 1.11 ms; n = 4096,
    // 1.20 → 0.53 ms, every uplo and trans); lab `Scalar` and `Legacy` run the block kernel.
    if !matches!(
        crate::lab::get(crate::lab::Driver::Trsv),
        crate::lab::Variant::Scalar | crate::lab::Variant::Legacy
    ) {
        return trsv_step(ctx, elem, (uplo, unit), a, x);
    }
    let n = a.rows;
    let lower = uplo == Uplo::Lower;
    let nb_rows = block(
        ctx,
        match elem {
            Elem::F32 => 4,
            Elem::F64 => 8,
        },
        1,
    );
    let constants = [
        ("UPLO", super::uplo(Some(uplo))),
        ("UNIT", unit as u32 as f64),
        ("NB", nb_rows as f64),
        (
            "ONE_BARRIER",
            f64::from(u8::from(
                crate::lab::get(crate::lab::Driver::Trsv) != crate::lab::Variant::Legacy,
            )),
        ),
    ];
    let mut out = Vec::new();
    let blocks = n.div_ceil(nb_rows);
    let mut params = params(a, x, 0, 0);
    let buffers: [&Buf; 3] = [&a.buffer, &x.buffer, sol];
    for b in 0..blocks {
        // Blocks in solve order: from the top for lower, from the bottom for upper.
        let k0 = if lower {
            b * nb_rows
        } else {
            n.saturating_sub((b + 1) * nb_rows)
        };
        let nb = if lower {
            nb_rows.min(n - k0)
        } else {
            n - b * nb_rows - k0
        };
        params.k0 = k0 as u32;
        params.nb = nb as u32;
        // One workgroup per NB rows left to solve, and at least one for the block itself.
        let rest = if lower { n - k0 - nb } else { k0 };
        let groups = ctx.grid((rest as u64).div_ceil(nb_rows as u64).max(1));
        out.push(
            Dispatch::new(&SHADER, "solve_update", &params, &buffers, groups)
                .constants(&constants)
                .elem(elem),
        );
    }
    let groups = ctx.grid((n as u64).div_ceil(WG));
    out.push(
        Dispatch::new(&SHADER, "copy_out", &params, &[], groups)
            .bindings(&[(2, &x.buffer), (3, sol)])
            .constants(&constants)
            .elem(elem),
    );
    out
}

/// The dispatches of [`trsv`] with a one-block look-ahead (`wgsl/level2/trsv_step.wgsl`): one
/// per block of `NB` rows ([`block`]), in solve order. Dispatch k has one solver workgroup
/// (block k's substitution by sub-blocks of `SB` rows, [`crate::lab::trsv_sub_block`], then
/// the products of blocks k−1 and k subtracted from block k+1's rows) and one updater
/// workgroup per `NB` rows past block k+1 (block k−1's products subtracted), and with
/// [`crate::lab::trsv_prefetch`] one more that reads the tiles dispatch k+1's solver loads
/// first into the L2 cache. The solution lands in `x` itself: no scratch, no copy.
fn trsv_step<'a>(
    ctx: &Context,
    elem: Elem,
    (uplo, unit): (Uplo, bool),
    a: &'a MatOperand,
    x: &'a VecOperand,
) -> Vec<Dispatch<'a>> {
    let n = a.rows;
    let nb = block(
        ctx,
        match elem {
            Elem::F32 => 4,
            Elem::F64 => 8,
        },
        2,
    );
    let sb = crate::lab::trsv_sub_block().min(nb as u32);
    let constants = [
        ("UPLO", super::uplo(Some(uplo))),
        ("UNIT", unit as u32 as f64),
        ("NB", nb as f64),
        ("SB", f64::from(sb)),
        ("PREFETCH", f64::from(u8::from(crate::lab::trsv_prefetch()))),
    ];
    let blocks = n.div_ceil(nb);
    let mut params = params(a, x, 0, blocks as u32);
    let buffers: [&Buf; 2] = [&a.buffer, &x.buffer];
    (0..blocks)
        .map(|k| {
            params.k0 = k as u32;
            // Rows past block k + 1, for the updaters of block k − 1's products.
            let past = n.saturating_sub((k + 2) * nb);
            let updaters = if k > 0 { past.div_ceil(nb) } else { 0 };
            let prefetcher = usize::from(crate::lab::trsv_prefetch());
            let groups = ctx.grid((1 + prefetcher + updaters) as u64);
            Dispatch::new(&STEP_SHADER, "solve_step", &params, &buffers, groups)
                .constants(&constants)
                .elem(elem)
        })
        .collect()
}
