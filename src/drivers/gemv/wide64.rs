//! f64 products on the wide kernels of the matrix-vector driver (the default for dgemv,
//! dsymv and dtrmv within one storage binding; lab `Legacy` on `Matvec` keeps the tile engine):
//! `wgsl/level2/gemv_wide.wgsl` with `alias T = f64;` and `SCAL`, alpha and beta read from a
//! small f64 buffer, in place of the tile engine that the other f64 Level 2 routines use.

use super::{gemv_host, plan, Kernel, Variant, SYM_LINES};
use crate::context::Context;
use crate::drivers::elementwise;
use crate::launch::Dispatch;
use crate::layout::{MatOperand, Scalar, VecOperand};
use crate::pool::Buf;

/// The f64 scalars of a product on the wide kernels (`SCAL`): alpha and beta in a small f64
/// buffer (binding 7), the copies of device values into it, and the markers that the params
/// carry in their place (as `wgsl/level3/gemm.wgsl`'s: 0 for 0, 1 for beta = 1, 2 for a host
/// value, 3 for a device value, whose zero and one tests the kernel makes on it).
pub(crate) struct ScalarsF64 {
    buf: Buf,
    copies: elementwise::ScalarCopies,
    alpha: f32,
    beta: f32,
}

/// [`ScalarsF64`] of `alpha` and `beta`.
///
/// # Errors
/// [`crate::Error::Gpu`] when the buffer cannot be created.
fn scalars_f64(
    ctx: &Context,
    routine: &'static str,
    alpha: Scalar<'_, f64>,
    beta: Scalar<'_, f64>,
) -> crate::error::Result<ScalarsF64> {
    let (buf, copies) = elementwise::scalars_f64(ctx, routine, &[alpha, beta])?;
    let mark = elementwise::scalar_mark;
    Ok(ScalarsF64 {
        buf,
        copies,
        alpha: mark(&alpha, false),
        beta: mark(&beta, true),
    })
}

/// The kernel of an f64 product (the wide kernels instantiated with
/// `alias T = f64;`, in place of the tile engine): [`plan`]'s, with `symv_lines` for a
/// symmetric operator (whose 17 KiB of workgroup memory in f64 fit where `symv_tiles`' 43 KiB
/// may not).
fn plan_f64(mode: Variant, a: &MatOperand) -> Kernel {
    match plan(mode, a) {
        Kernel::SymTiles { cols_fast, vec, .. } => Kernel::SymTiles {
            blocks: (a.rows as u64).div_ceil(SYM_LINES),
            cols_fast,
            vec,
            lines: true,
        },
        k => k,
    }
}

/// Whether an f64 product on `a`, `x`, `y` can run on the wide kernels whole: every operand
/// within one storage binding (past it the tile engine's blocks take it).
fn fits_f64(ctx: &Context, a: &MatOperand, x: &VecOperand, y: &VecOperand) -> bool {
    let limit = ctx.max_binding();
    a.buffer.size() <= limit && x.buffer.size() <= limit && y.buffer.size() <= limit
}

/// The scratch of an f64 [`Kernel`] ([`scratch`] with 8-byte words).
fn scratch_f64(ctx: &Context, kernel: Kernel, a: &MatOperand) -> Buf {
    ctx.scratch(super::scratch_words(kernel, a) * 8)
}

/// An f64 product `y = alpha·A·x + beta·y` (`mode`, A in its op form) on the wide kernels
/// where every operand fits one storage binding (and lab `Matvec` is not `Legacy`), except a
/// general product on `gemv_coldot`, its scratch and scalars kept in `scratch` and `scal`;
/// `None` elsewhere (the caller's tile engine). On the H200 (2026-12-01, n = 8192) the
/// engine's dgemv read 0.18 of copy bandwidth, dsymv 0.05, dtrmv 0.03 (a product with one
/// column of B wastes its tiles); the wide kernels read dgemv (No-trans, C order) at 3977
/// GB/s against 746, dsymv at 709–728 against 200, dtrmv at 3085–3185 against 128
/// (`benches/results/2026-12-01-s6/q1`).
///
/// # Errors
/// [`crate::Error::Gpu`] when the scalar buffer cannot be created.
#[allow(clippy::too_many_arguments)]
pub(crate) fn product_f64<'a>(
    ctx: &Context,
    routine: &'static str,
    mode: Variant,
    alpha: Scalar<'a, f64>,
    a: &'a MatOperand,
    x: &'a VecOperand,
    beta: Scalar<'a, f64>,
    y: &'a VecOperand,
    scratch: &'a std::cell::OnceCell<Buf>,
    scal: &'a std::cell::OnceCell<ScalarsF64>,
) -> crate::error::Result<Option<Vec<Dispatch<'a>>>> {
    if crate::lab::get(crate::lab::Driver::Matvec) == crate::lab::Variant::Legacy
        || !fits_f64(ctx, a, x, y)
    {
        return Ok(None);
    }
    // dsymv in one pass over the stored triangle (lab `set_symv_one_pass`).
    if let (Variant::Symmetric(uplo), Some(p)) = (mode, super::one_pass_plan(a)) {
        let scratch = scratch.get_or_init(|| ctx.scratch(p.words(a) * 8));
        let sc = scalars_f64(ctx, routine, alpha, beta)?;
        let sc = scal.get_or_init(|| sc);
        let mut out = sc.copies.dispatches();
        out.extend(super::one_pass::dispatches(
            ctx,
            uplo,
            p,
            sc.alpha,
            a,
            x,
            sc.beta,
            y,
            scratch,
            Some(&sc.buf),
        ));
        return Ok(Some(out));
    }
    let kernel = plan_f64(mode, a);
    // A general product whose op(A) has contiguous columns (`gemv_coldot`) stays on the tile
    // engine, which read it a little faster there (H200, n = 8192, T on C order: 793 against
    // 730 GB/s, `benches/results/2026-12-01-s6/q1`).
    if mode == Variant::General && matches!(kernel, Kernel::Wide { coldot: true, .. }) {
        return Ok(None);
    }
    let scratch = scratch.get_or_init(|| scratch_f64(ctx, kernel, a));
    let sc = scalars_f64(ctx, routine, alpha, beta)?;
    let sc = scal.get_or_init(|| sc);
    Ok(Some(gemv_f64(ctx, mode, a, x, y, kernel, scratch, sc)))
}

/// The dispatches of `y = alpha·A·x + beta·y` in f64 (`kernel` from [`plan_f64`], its
/// [`scratch_f64`], the scalars from [`scalars_f64`]): the copies of device scalars, then
/// [`gemv`]'s dispatches with `alias T = f64;`, `SCAL` and the scalar buffer. The semantics
/// are those of the f32 product (DESIGN.md §3), in f64.
#[allow(clippy::too_many_arguments)]
fn gemv_f64<'a>(
    ctx: &Context,
    mode: Variant,
    a: &'a MatOperand,
    x: &'a VecOperand,
    y: &'a VecOperand,
    kernel: Kernel,
    scratch: &'a Buf,
    sc: &'a ScalarsF64,
) -> Vec<Dispatch<'a>> {
    debug_assert!(kernel != Kernel::Legacy, "the wide kernels only");
    let mut out = sc.copies.dispatches();
    out.extend(gemv_host(
        ctx,
        mode,
        sc.alpha,
        a,
        x,
        sc.beta,
        y,
        kernel,
        scratch,
        Some(&sc.buf),
        None,
    ));
    out
}
