//! Products past one storage binding: the engine calls over windows of the operands (C in
//! blocks, the depth in panels), for general, triangular-C and structured-A products.

use super::{engine, AMode, Operand, Plan, Variant};
use crate::context::Context;
use crate::flags::Uplo;
use crate::layout::{runs_with_cuts, MatOperand, Scalar};

/// A block side halved: to a multiple of 64 while larger than 128 (as `layout::square_side`).
fn halve(v: usize) -> usize {
    if v > 128 {
        v / 2 / 64 * 64
    } else {
        v.div_ceil(2)
    }
}

/// One engine call of a product past one storage binding: windows of `op(A)` (rows
/// `i0..i1`, depth `p0..p1`), `op(B)` (`p0..p1`, `j0..j1`) and `C` (`i0..i1`, `j0..j1`), and
/// whether it is the first depth panel of its C block (which applies beta; the later ones add
/// with beta = 1).
pub(crate) struct Block {
    pub a: MatOperand,
    pub b: MatOperand,
    pub c: MatOperand,
    pub first: bool,
}

/// Halve `(rows, cols)` of a block of `o` until its window fits one binding, halving the side
/// whose stride contributes more to the span, to multiples of 64 while they are larger.
fn shrink(ctx: &Context, o: &MatOperand, rows: &mut usize, cols: &mut usize) -> bool {
    if o.block_fits(ctx, 4, *rows, *cols) {
        return false;
    }
    let along_rows = (*rows as u64 - 1) * u64::from(o.rs.unsigned_abs());
    let along_cols = (*cols as u64 - 1) * u64::from(o.cs.unsigned_abs());
    if along_rows >= along_cols && *rows > 1 {
        *rows = halve(*rows);
    } else {
        *cols = halve(*cols);
    }
    true
}

/// The engine calls of `C = alpha·op(A)·op(B) + beta·C` (operands in their `op` forms) whose
/// windows each fit one storage binding: none when every operand fits one binding whole.
/// C is tiled into blocks and the depth into panels, all as large as the binding allows
/// (sides halved from the whole problem until each of A's, B's and C's blocks fits), in
/// order: for each C block its depth panels one after the other.
pub(crate) fn gemm_blocks(
    ctx: &Context,
    a: &MatOperand,
    b: &MatOperand,
    c: &MatOperand,
) -> Vec<Block> {
    if a.fits(ctx) && b.fits(ctx) && c.fits(ctx) {
        return Vec::new();
    }
    let (m, n, k) = (c.rows, c.cols, a.cols);
    let (mut bm, mut bn, mut bk) = (m.max(1), n.max(1), k.max(1));
    while shrink(ctx, a, &mut bm, &mut bk)
        || shrink(ctx, b, &mut bk, &mut bn)
        || shrink(ctx, c, &mut bm, &mut bn)
    {}
    // Operands past one buffer (segments): every block also within one segment of each.
    let cut =
        |n: usize, step: usize, cuts: [Vec<usize>; 2]| runs_with_cuts(n, step, &cuts.concat());
    let rows = cut(m, bm, [a.cuts(4, 0), c.cuts(4, 0)]);
    let cols = cut(n, bn, [b.cuts(4, 1), c.cuts(4, 1)]);
    // k = 0: one call per C block (C = beta·C), with empty A and B blocks.
    let depth = match k {
        0 => vec![(0, 0)],
        _ => cut(k, bk, [a.cuts(4, 1), b.cuts(4, 0)]),
    };
    let mut out = Vec::new();
    for &(i0, i1) in &rows {
        for &(j0, j1) in &cols {
            for &(p0, p1) in &depth {
                out.push(Block {
                    a: a.block(ctx, 4, (i0, i1), (p0, p1)),
                    b: b.block(ctx, 4, (p0, p1), (j0, j1)),
                    c: c.block(ctx, 4, (i0, i1), (j0, j1)),
                    first: p0 == 0,
                });
            }
        }
    }
    out
}

/// [`gemm_blocks`] for a product restricted to the triangle `uplo` of a square C (`ssyrk`,
/// `sgemmtr`): square blocks on one grid of rows and columns, so that each block lies on the
/// diagonal (the engine's triangle variant, on the block's own diagonal), strictly inside the
/// triangle (a plain product) or strictly outside (skipped). With each: whether it is on the
/// diagonal.
pub(crate) fn tri_blocks(
    ctx: &Context,
    a: &MatOperand,
    b: &MatOperand,
    c: &MatOperand,
    uplo: Uplo,
) -> Vec<(Block, bool)> {
    if a.fits(ctx) && b.fits(ctx) && c.fits(ctx) {
        return Vec::new();
    }
    let (n, k) = (c.rows, a.cols);
    let (mut bm, mut bn, mut bk) = (n.max(1), n.max(1), k.max(1));
    loop {
        let shrunk = shrink(ctx, a, &mut bm, &mut bk)
            || shrink(ctx, b, &mut bk, &mut bn)
            || shrink(ctx, c, &mut bm, &mut bn);
        let side = bm.min(bn);
        (bm, bn) = (side, side);
        if !shrunk {
            break;
        }
    }
    // Operands past one buffer (segments): one grid for C's rows and columns, cut where A
    // (rows), B (columns) or C (either axis) passes from one segment to the next; the depth
    // where A (columns) or B (rows) does.
    let grid = [a.cuts(4, 0), b.cuts(4, 1), c.cuts(4, 0), c.cuts(4, 1)].concat();
    let ranges = runs_with_cuts(n, bm, &grid);
    // k = 0: one call per C block (C = beta·C), with empty A and B blocks.
    let depth = match k {
        0 => vec![(0, 0)],
        _ => runs_with_cuts(k, bk, &[a.cuts(4, 1), b.cuts(4, 0)].concat()),
    };
    let mut out = Vec::new();
    for &(i0, i1) in &ranges {
        for &(j0, j1) in &ranges {
            let inside = match uplo {
                Uplo::Lower => i0 >= j0,
                Uplo::Upper => i0 <= j0,
            };
            if !inside {
                continue;
            }
            for &(p0, p1) in &depth {
                out.push((
                    Block {
                        a: a.block(ctx, 4, (i0, i1), (p0, p1)),
                        b: b.block(ctx, 4, (p0, p1), (j0, j1)),
                        c: c.block(ctx, 4, (i0, i1), (j0, j1)),
                        first: p0 == 0,
                    },
                    i0 == j0,
                ));
            }
        }
    }
    out
}

/// The dispatches of `C = alpha·A·B + beta·C` on the triangle `uplo` of C (`variant` has
/// `tri_c`), whole or over `blocks` from [`tri_blocks`]: diagonal blocks in `variant`, the
/// others plain, beta applied by each block's first depth panel.
#[allow(clippy::too_many_arguments)]
pub(crate) fn tri_plans<'a>(
    ctx: &Context,
    dims: (usize, usize, usize),
    alpha: impl Into<Scalar<'a>>,
    (a, b): (Operand<'a>, Operand<'a>),
    beta: impl Into<Scalar<'a>>,
    c: &'a MatOperand,
    variant: Variant,
    blocks: &'a [(Block, bool)],
) -> Vec<Plan<'a>> {
    let (alpha, beta) = (alpha.into(), beta.into());
    if blocks.is_empty() {
        return vec![engine(
            ctx,
            dims,
            alpha,
            a,
            b,
            beta,
            Operand::of(c),
            variant,
        )];
    }
    blocks
        .iter()
        .map(|(blk, diag)| {
            let dims = (blk.c.rows, blk.c.cols, blk.a.cols);
            let beta = crate::drivers::first_or_one(blk.first, beta);
            let v = if *diag { variant } else { Variant::default() };
            engine(
                ctx,
                dims,
                alpha,
                Operand::of(&blk.a),
                Operand::of(&blk.b),
                beta,
                Operand::of(&blk.c),
                v,
            )
        })
        .collect()
}

/// The engine calls of `C = alpha·S·B + beta·C` for a structured r×r `S` (`a_mode` symmetric,
/// `ssymm`, or triangular, `strmm`; only its triangle read) past one storage binding, `B` and
/// `C` r×q (operands in the left-side form): none when every operand fits one binding whole.
/// `S` goes in square blocks on one grid (side `s`), C in blocks of `s` rows and as many
/// columns as fit. For each C block `(I, J)`, in order over the depth blocks `P` of S's grid:
/// the diagonal block `S_II` in `a_mode` (on its own triangle), a block inside the stored
/// triangle as a plain product, a block outside it as the transpose of its stored mirror
/// (symmetric) or not at all (triangular: zero); the first call of each C block applies beta,
/// the later ones add. With each call: its `AMode`.
pub(crate) fn structured_blocks(
    ctx: &Context,
    a: &MatOperand,
    b: &MatOperand,
    c: &MatOperand,
    a_mode: AMode,
) -> Vec<(Block, AMode)> {
    if a.fits(ctx) && b.fits(ctx) && c.fits(ctx) {
        return Vec::new();
    }
    let (r, q) = (c.rows, c.cols);
    let mut s = crate::layout::square_side(ctx, a, 4, &[]);
    let mut w;
    loop {
        let fits = |w: usize| b.block_fits(ctx, 4, s, w) && c.block_fits(ctx, 4, s, w);
        w = q.max(1);
        while w > 1 && !fits(w) {
            w = halve(w);
        }
        if fits(w) || s == 1 {
            break;
        }
        s = halve(s);
    }
    let uplo = match a_mode {
        AMode::Symmetric(u) | AMode::Triangular(u, _) => u,
        AMode::General => unreachable!("structured modes only"),
    };
    // Operands past one buffer (segments): S's grid is cut where S passes from one segment to
    // the next along either axis (one grid for its rows and columns), or B or C along their
    // rows; C's columns where B or C does.
    let rows = [a.cuts(4, 0), a.cuts(4, 1), b.cuts(4, 0), c.cuts(4, 0)].concat();
    let ranges = runs_with_cuts(r, s, &rows);
    let cols = runs_with_cuts(q, w, &[b.cuts(4, 1), c.cuts(4, 1)].concat());
    let mut out = Vec::new();
    for &ri in &ranges {
        for &rj in &cols {
            let mut first = true;
            for &rp in &ranges {
                let stored = match uplo {
                    Uplo::Lower => ri.0 >= rp.0,
                    Uplo::Upper => ri.0 <= rp.0,
                };
                let (blk, mode) = if ri == rp {
                    (a.block(ctx, 4, ri, rp), a_mode)
                } else if stored {
                    (a.block(ctx, 4, ri, rp), AMode::General)
                } else if matches!(a_mode, AMode::Symmetric(_)) {
                    (a.block(ctx, 4, rp, ri).t(), AMode::General)
                } else {
                    continue;
                };
                out.push((
                    Block {
                        a: blk,
                        b: b.block(ctx, 4, rp, rj),
                        c: c.block(ctx, 4, ri, rj),
                        first,
                    },
                    mode,
                ));
                first = false;
            }
        }
    }
    out
}

/// The engine plans of `blocks` from [`structured_blocks`]: alpha in every call, beta in the
/// first call of each C block (the others add with beta = 1).
pub(crate) fn structured_plans<'a>(
    ctx: &Context,
    alpha: impl Into<Scalar<'a>>,
    beta: impl Into<Scalar<'a>>,
    blocks: &'a [(Block, AMode)],
) -> Vec<Plan<'a>> {
    let (alpha, beta) = (alpha.into(), beta.into());
    blocks
        .iter()
        .map(|(blk, mode)| {
            let dims = (blk.c.rows, blk.c.cols, blk.a.cols);
            let variant = Variant {
                a_mode: *mode,
                ..Variant::default()
            };
            let beta = crate::drivers::first_or_one(blk.first, beta);
            engine(
                ctx,
                dims,
                alpha,
                Operand::of(&blk.a),
                Operand::of(&blk.b),
                beta,
                Operand::of(&blk.c),
                variant,
            )
        })
        .collect()
}
