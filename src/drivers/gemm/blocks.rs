//! Products past one storage binding: the engine calls over windows of the operands (C in
//! blocks, the depth in panels), for general, triangular-C and structured-A products.

use super::AMode;
use crate::context::Context;
use crate::flags::Uplo;
use crate::layout::{runs_with_cuts, MatOperand};

/// A block side halved: to a multiple of 64 while larger than 128 (as `layout::square_side`).
fn halve(v: usize) -> usize {
    if v > 128 {
        v / 2 / 64 * 64
    } else {
        v.div_ceil(2)
    }
}

/// One depth panel of a product past one storage binding: windows of `op(A)` (rows
/// `i0..i1`, depth `p0..p1`), `op(B)` (`p0..p1`, `j0..j1`) and `C` (`i0..i1`, `j0..j1`), and
/// whether it is the first depth panel of its C block (the panels of one C block, from the first
/// on, are one engine call: their products summed, then alpha and beta applied once,
/// `gemm::engine_panels`).
pub(crate) struct Block {
    pub a: MatOperand,
    pub b: MatOperand,
    pub c: MatOperand,
    pub first: bool,
}

/// The side `s` of square blocks and the width `w` of column panels for which `fits(s, w)`:
/// the widest `w` (halved from `q`) for the side `s`, the side halved from `s` only while no
/// width fits (both down to 1).
fn side_and_width(mut s: usize, q: usize, fits: impl Fn(usize, usize) -> bool) -> (usize, usize) {
    loop {
        let mut w = q.max(1);
        while w > 1 && !fits(s, w) {
            w = halve(w);
        }
        if fits(s, w) || s == 1 {
            return (s, w);
        }
        s = halve(s);
    }
}

/// Halve `(rows, cols)` of a block of `o` (of `e`-byte elements) until its window fits one
/// binding, halving the side whose stride contributes more to the span, to multiples of 64
/// while they are larger.
fn shrink(ctx: &Context, e: u64, o: &MatOperand, rows: &mut usize, cols: &mut usize) -> bool {
    if o.block_fits(ctx, e, *rows, *cols) {
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
/// order: for each C block its depth panels one after the other. Elements of `e` bytes (f32 or
/// f64).
pub(crate) fn gemm_blocks(
    ctx: &Context,
    e: u64,
    a: &MatOperand,
    b: &MatOperand,
    c: &MatOperand,
) -> Vec<Block> {
    if a.fits(ctx) && b.fits(ctx) && c.fits(ctx) {
        return Vec::new();
    }
    let (m, n, k) = (c.rows, c.cols, a.cols);
    let (mut bm, mut bn, mut bk) = (m.max(1), n.max(1), k.max(1));
    while shrink(ctx, e, a, &mut bm, &mut bk)
        || shrink(ctx, e, b, &mut bk, &mut bn)
        || shrink(ctx, e, c, &mut bm, &mut bn)
    {}
    // Operands past one buffer (segments): every block also within one segment of each.
    let cut =
        |n: usize, step: usize, cuts: [Vec<usize>; 2]| runs_with_cuts(n, step, &cuts.concat());
    let rows = cut(m, bm, [a.cuts(e, 0), c.cuts(e, 0)]);
    let cols = cut(n, bn, [b.cuts(e, 1), c.cuts(e, 1)]);
    // k = 0: one call per C block (C = beta·C), with empty A and B blocks.
    let depth = match k {
        0 => vec![(0, 0)],
        _ => cut(k, bk, [a.cuts(e, 1), b.cuts(e, 0)]),
    };
    let mut out = Vec::new();
    for &(i0, i1) in &rows {
        for &(j0, j1) in &cols {
            for &(p0, p1) in &depth {
                out.push(Block {
                    a: a.block(ctx, e, (i0, i1), (p0, p1)),
                    b: b.block(ctx, e, (p0, p1), (j0, j1)),
                    c: c.block(ctx, e, (i0, i1), (j0, j1)),
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
/// diagonal. Elements of `e` bytes.
pub(crate) fn tri_blocks(
    ctx: &Context,
    e: u64,
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
        let shrunk = shrink(ctx, e, a, &mut bm, &mut bk)
            || shrink(ctx, e, b, &mut bk, &mut bn)
            || shrink(ctx, e, c, &mut bm, &mut bn);
        let side = bm.min(bn);
        (bm, bn) = (side, side);
        if !shrunk {
            break;
        }
    }
    // Operands past one buffer (segments): one grid for C's rows and columns, cut where A
    // (rows), B (columns) or C (either axis) passes from one segment to the next; the depth
    // where A (columns) or B (rows) does.
    let grid = [a.cuts(e, 0), b.cuts(e, 1), c.cuts(e, 0), c.cuts(e, 1)].concat();
    let ranges = runs_with_cuts(n, bm, &grid);
    // k = 0: one call per C block (C = beta·C), with empty A and B blocks.
    let depth = match k {
        0 => vec![(0, 0)],
        _ => runs_with_cuts(k, bk, &[a.cuts(e, 1), b.cuts(e, 0)].concat()),
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
                        a: a.block(ctx, e, (i0, i1), (p0, p1)),
                        b: b.block(ctx, e, (p0, p1), (j0, j1)),
                        c: c.block(ctx, e, (i0, i1), (j0, j1)),
                        first: p0 == 0,
                    },
                    i0 == j0,
                ));
            }
        }
    }
    out
}

/// The engine calls of `C = alpha·S·B + beta·C` for a structured r×r `S` (`a_mode` symmetric,
/// `ssymm`, or triangular, `strmm`; only its triangle read) past one storage binding, `B` and
/// `C` r×q (operands in the left-side form): none when every operand fits one binding whole.
/// `S` goes in square blocks on one grid (side `s`), C in blocks of `s` rows and as many
/// columns as fit. For each C block `(I, J)`, in order over the depth blocks `P` of S's grid:
/// the diagonal block `S_II` in `a_mode` (on its own triangle), a block inside the stored
/// triangle as a plain product, a block outside it as the transpose of its stored mirror
/// (symmetric) or not at all (triangular: zero); the first call of each C block is marked
/// `first` (a C block's calls are one engine call over panels). With each call: its `AMode`.
/// Elements of `e` bytes.
pub(crate) fn structured_blocks(
    ctx: &Context,
    e: u64,
    a: &MatOperand,
    b: &MatOperand,
    c: &MatOperand,
    a_mode: AMode,
) -> Vec<(Block, AMode)> {
    if a.fits(ctx) && b.fits(ctx) && c.fits(ctx) {
        return Vec::new();
    }
    let (r, q) = (c.rows, c.cols);
    let (s, w) = side_and_width(crate::layout::square_side(ctx, a, e, &[]), q, |s, w| {
        b.block_fits(ctx, e, s, w) && c.block_fits(ctx, e, s, w)
    });
    let uplo = match a_mode {
        AMode::Symmetric(u) | AMode::Triangular(u, _) | AMode::TriangularDense(u) => u,
        AMode::General => unreachable!("structured modes only"),
    };
    // Operands past one buffer (segments): S's grid is cut where S passes from one segment to
    // the next along either axis (one grid for its rows and columns), or B or C along their
    // rows; C's columns where B or C does.
    let rows = [a.cuts(e, 0), a.cuts(e, 1), b.cuts(e, 0), c.cuts(e, 0)].concat();
    let ranges = runs_with_cuts(r, s, &rows);
    let cols = runs_with_cuts(q, w, &[b.cuts(e, 1), c.cuts(e, 1)].concat());
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
                    (a.block(ctx, e, ri, rp), a_mode)
                } else if stored {
                    (a.block(ctx, e, ri, rp), AMode::General)
                } else if matches!(a_mode, AMode::Symmetric(_)) {
                    (a.block(ctx, e, rp, ri).t(), AMode::General)
                } else {
                    continue;
                };
                out.push((
                    Block {
                        a: blk,
                        b: b.block(ctx, e, rp, rj),
                        c: c.block(ctx, e, ri, rj),
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

/// The grid of a blocked triangular solve `L·X = alpha·B` (`strsm`, `dtrsm`, in the canonical
/// left-side form: `l` r×r triangular in `uplo`, `x` r×q, elements of `e` bytes) past one
/// storage binding: the row ranges of L's square diagonal blocks (one grid for L's rows and
/// columns and X's rows) in solve order (top down for `Lower`, bottom up for `Upper`), and the
/// column panels of X, in that order. Each block of L and of X fits one binding, and so do
/// the r rows of one panel (the scratch that holds a panel's solved blocks, dense) where a
/// single column of X does; the grid is also cut where L or X passes from one segment of its
/// buffer to the next.
pub(crate) fn solve_blocks(
    ctx: &Context,
    e: u64,
    l: &MatOperand,
    x: &MatOperand,
    uplo: Uplo,
) -> [Vec<(usize, usize)>; 2] {
    let (r, q) = (x.rows, x.cols);
    let room = ((ctx.max_binding() / e) as usize / r.max(1)).max(1);
    let side = crate::layout::square_side(ctx, l, e, &[]);
    let (s, w) = side_and_width(side, q.min(room), |s, w| x.block_fits(ctx, e, s, w));
    let rows = [l.cuts(e, 0), l.cuts(e, 1), x.cuts(e, 0)].concat();
    let mut ranges = runs_with_cuts(r, s, &rows);
    if uplo == Uplo::Upper {
        ranges.reverse();
    }
    [ranges, runs_with_cuts(q, w, &x.cuts(e, 1))]
}
