//! Operands past one storage binding in the f64 Level 2 routines (issue 15), as their f32
//! twins split theirs: `A` in square blocks of a side whose windows (and those of the vector
//! parts) fit one binding ([`layout::square_side`] with 8-byte elements), each block one call
//! of the f64 tile engine; dger in the row and column panels of [`layout::mat_blocks`].

use crate::layout::{self, MatOperand, VecOperand};
use crate::Context;

/// Whether every operand's buffer fits one storage binding (then no blocks are needed).
pub(super) fn whole(ctx: &Context, a: &MatOperand, vectors: &[&VecOperand]) -> bool {
    a.fits(ctx) && vectors.iter().all(|v| v.buffer.size() <= ctx.max_binding())
}

/// The square blocks of the n×n `a`: their row (and column) ranges, each within one binding
/// together with the parts of vectors of strides `incs`, and within one segment of `a`.
pub(super) fn ranges(ctx: &Context, a: &MatOperand, incs: &[i32]) -> Vec<(usize, usize)> {
    layout::square_ranges(ctx, a, 8, incs)
}

/// The blocks `(I, J)` (indices into `ranges`) of the triangle `lower` (`J ≤ I`) or upper
/// (`J ≥ I`), the diagonal included, row block by row block.
pub(super) fn triangle(count: usize, lower: bool) -> Vec<(usize, usize)> {
    (0..count)
        .flat_map(|i| {
            let js: Vec<usize> = if lower {
                (0..=i).collect()
            } else {
                (i..count).collect()
            };
            js.into_iter().map(move |j| (i, j))
        })
        .collect()
}
