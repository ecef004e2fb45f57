//! Level 3: matrix-matrix routines.

pub(crate) mod gemm;
pub(crate) mod gemmtr;
pub(crate) mod symm;
pub(crate) mod syr2k;
pub(crate) mod syrk;
pub(crate) mod trmm;
pub(crate) mod trsm;

use ndarray::ArrayViewMut2;

use crate::flags::Uplo;
use crate::layout::MatOperand;

/// Write the triangle `uplo` of the read-back span of `op` into the caller's square view,
/// element by element; the other triangle of the view is not touched at all.
pub(crate) fn write_triangle(
    out: &mut ArrayViewMut2<'_, f32>,
    data: &[f32],
    op: &MatOperand,
    uplo: Uplo,
) {
    let (off, rs, cs) = (op.offset as isize, op.rs as isize, op.cs as isize);
    for ((i, j), v) in out.indexed_iter_mut() {
        let inside = match uplo {
            Uplo::Lower => i >= j,
            Uplo::Upper => i <= j,
        };
        if inside {
            *v = data[(off + i as isize * rs + j as isize * cs) as usize];
        }
    }
}
