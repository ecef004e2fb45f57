//! ssymv in two passes of the wide matrix-vector kernels ([`symv_two_pass`]): the stored
//! triangle along its rows, then the strict triangle along its columns, into partial-sum slots
//! that one `gemv_finish` adds.

use super::{gemv_host, plan, scalars, Kernel, Spill, Variant};
use crate::context::Context;
use crate::flags::{Diag, Uplo};
use crate::launch::Dispatch;
use crate::layout::{MatOperand, Scalar, VecOperand};
use crate::pool::Buf;

/// The partial-sum slots per row of a wide [`Kernel`] that delivers into them.
fn slots(kernel: Kernel) -> u64 {
    match kernel {
        Kernel::Wide { chunks, .. } => chunks,
        Kernel::SymTiles { blocks, .. } => blocks,
        Kernel::Legacy => 0,
    }
}

/// `y = alpha·A·x + beta·y` for symmetric `A` of which the triangle `uplo` is stored, in two
/// passes of the wide matrix-vector kernels (ssymv's default within one storage binding,
/// issue 12; H200, n = 16384: 1245–1299 GB/s against `symv_lines`' 365–923,
/// `benches/results/2026-12-01-s6/q2`): the stored triangle
/// with its diagonal (as strmv runs it), then the transpose `at` of the strictly triangular
/// part (the other triangle of `Aᵀ`, diagonal left out), each delivering its row sums into
/// partial-sum slots of its own, then `gemv_finish` adds the slots and applies alpha and beta
/// once (so alpha multiplies the whole sum, as the formula says; alpha = 0 reads neither A nor
/// x, beta = 0 never reads y). Each stored element is read twice, once along each of its lines,
/// by kernels that read a dense matrix at copy bandwidth, against `symv_lines`' once through
/// workgroup-memory reductions. `scratch` holds both passes' slots.
#[allow(clippy::too_many_arguments)]
pub(crate) fn symv_two_pass<'a>(
    ctx: &Context,
    uplo: Uplo,
    alpha: Scalar<'a>,
    a: &'a MatOperand,
    at: &'a MatOperand,
    x: &'a VecOperand,
    beta: Scalar<'a>,
    y: &'a VecOperand,
    scratch: &'a std::cell::OnceCell<Buf>,
) -> Vec<Dispatch<'a>> {
    let (first, second) = (
        Variant::Triangular(uplo, Diag::NonUnit),
        Variant::Strict(uplo.flip()),
    );
    let (k1, k2) = (plan(first, a), plan(second, at));
    let (c1, c2) = (slots(k1), slots(k2));
    let scratch = scratch.get_or_init(|| ctx.scratch((c1 + c2) * a.rows as u64 * 4));
    let (av, bv) = (alpha.value(), beta.value());
    let spill = |base, total| Some(Spill { base, total });
    let mut d = gemv_host(
        ctx,
        first,
        av,
        a,
        x,
        bv,
        y,
        k1,
        scratch,
        None,
        spill(0, None),
    );
    let last = spill(c1, Some(c1 + c2));
    d.extend(gemv_host(
        ctx, second, av, at, x, bv, y, k2, scratch, None, last,
    ));
    scalars(k1, d, &alpha, &beta)
}
