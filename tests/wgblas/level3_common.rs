//! Helpers shared by the Level 3 test modules (sizes, flag lists, symmetric and triangular
//! operands, triangle checks).

// The flag lists and triangle test of every description, one definition each.
pub use crate::describe::level2::{in_triangle, DIAGS, NETLIB_N, TRANS, UPLOS};
pub use crate::describe::level3::SIDES;
use ndarray::Array2;
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::{Diag, GpuMatrix, MatrixLayout, Uplo};

use crate::common::{ctx, triangle};

/// Netlib test values (sblat3.in): N, alpha, beta.
pub const ALPHAS: [f32; 3] = [0.0, 1.0, 0.7];

/// A random dimension for the fixtures: odd sizes and the tile edges (16-deep k slab, 32-row
/// trsm block, 64-column trsm workgroup, 128×128 C tile), mostly small because lavapipe is slow.
pub fn dim() -> impl Strategy<Value = usize> {
    prop_oneof![
        8 => prop::sample::select(vec![0usize, 1, 2, 3, 5, 7, 9, 15, 16, 17]),
        3 => prop::sample::select(vec![31usize, 32, 33, 63, 64, 65]),
        1 => prop::sample::select(vec![127usize, 128, 129]),
    ]
}

/// A dimension for the resident fixtures: odd sizes and the 16/17 k-slab and 32/33 trsm-block
/// edges, kept small because lavapipe is slow.
pub fn resident_dim() -> impl Strategy<Value = usize> {
    prop::sample::select(vec![0usize, 1, 2, 3, 5, 7, 9, 16, 17, 33])
}

/// `x` uploaded as a resident matrix of the shared context, stored column-major when
/// `col_major` (a single row or column is stored row-major: both are the same memory).
pub fn upload(x: &Array2<f32>, col_major: bool) -> GpuMatrix<'static> {
    let m = if col_major {
        x.t().as_standard_layout().into_owned().reversed_axes()
    } else {
        x.as_standard_layout().into_owned()
    };
    let g = ctx().upload_matrix(&m).unwrap();
    if x.nrows() > 1 && x.ncols() > 1 {
        assert_eq!(g.layout() == MatrixLayout::ColMajor, col_major);
    }
    g
}

/// A triangular operand: the `uplo` triangle random with a diagonal of magnitude in
/// [`diag_lo`, `diag_lo` + 1], NaN in the other triangle, and NaN on the diagonal for
/// `Diag::Unit` (neither may be read).
pub fn tri_storage(
    rng: &mut StdRng,
    n: usize,
    uplo: Uplo,
    diag: Diag,
    diag_lo: f32,
) -> Array2<f32> {
    let mut a = triangle(rng, n, uplo, diag_lo);
    if diag == Diag::Unit {
        for i in 0..n {
            a[[i, i]] = f32::NAN;
        }
    }
    a
}

/// The triangular matrix a `tri_storage` stands for, with zeros outside and the unit diagonal
/// written out (for OpenBLAS, which gets no NaN).
pub fn tri_clean(a: &Array2<f32>, uplo: Uplo, diag: Diag) -> Array2<f32> {
    crate::oracle_l2::clean_tri(uplo, diag, a.view())
}

/// `c` with the triangle `uplo` replaced by `tri`'s (the result a triangle routine must give:
/// its other triangle is the input, bit for bit).
pub fn merge_triangle(uplo: Uplo, tri: &Array2<f32>, c: &Array2<f32>) -> Array2<f32> {
    Array2::from_shape_fn(c.dim(), |(i, j)| {
        if in_triangle(uplo, i, j) {
            tri[[i, j]]
        } else {
            c[[i, j]]
        }
    })
}

/// Whether the triangle strictly opposite to `uplo` is bitwise equal in `before` and `after`.
pub fn other_triangle_unchanged(uplo: Uplo, before: &Array2<f32>, after: &Array2<f32>) -> bool {
    before
        .indexed_iter()
        .all(|((i, j), v)| in_triangle(uplo, i, j) || v.to_bits() == after[[i, j]].to_bits())
}
