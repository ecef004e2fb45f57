//! What the Level 3 descriptions share: the netlib values, the sizes of the tile edges, random
//! operands in either element type, and the oracle's C (the triangle a routine writes, the
//! other one kept).

use ndarray::Array2;
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::{Side, Transpose, Uplo};

use super::level2::{in_triangle, random_mat};
use super::Elem;

pub const SIDES: [Side; 2] = [Side::Left, Side::Right];
/// Netlib test values (sblat3.in): alpha and beta.
pub const ALPHAS: [f64; 3] = [0.0, 1.0, 0.7];
pub const BETAS: [f64; 3] = [0.0, 1.0, 0.9];

/// A random dimension for the fixtures: odd sizes and the tile edges (16-deep k slab, 32-row
/// trsm block, 64-column trsm workgroup, 128×128 C tile), mostly small because lavapipe is slow.
pub fn dim() -> BoxedStrategy<usize> {
    prop_oneof![
        8 => prop::sample::select(vec![0usize, 1, 2, 3, 5, 7, 9, 15, 16, 17]),
        3 => prop::sample::select(vec![31usize, 32, 33, 63, 64, 65]),
        1 => prop::sample::select(vec![127usize, 128, 129]),
    ]
    .boxed()
}

/// A dimension for the resident fixtures: odd sizes and the 16/17 k-slab and 32/33 trsm-block
/// edges, kept small because lavapipe is slow.
pub fn resident_dim() -> BoxedStrategy<usize> {
    prop::sample::select(vec![0usize, 1, 2, 3, 5, 7, 9, 16, 17, 33]).boxed()
}

/// `(rows, cols)` of an operand whose `op` form is `rows × cols`.
pub fn shape(t: Transpose, rows: usize, cols: usize) -> (usize, usize) {
    match t {
        Transpose::No => (rows, cols),
        Transpose::Yes => (cols, rows),
    }
}

/// An `m`×`n` C: NaN when beta = 0 (never read), else random.
pub fn c_input<T: Elem>(r: &mut StdRng, m: usize, n: usize, beta: f64) -> Array2<T> {
    if beta == 0.0 {
        Array2::from_elem((m, n), T::nan())
    } else {
        random_mat(r, m, n)
    }
}

/// `c` with zeros outside the triangle `uplo` (and everywhere when `beta == 0`): the C handed
/// to OpenBLAS, which then never sees a NaN.
pub fn oracle_c<T: Elem>(uplo: Option<Uplo>, beta: f64, c: &Array2<T>) -> Array2<T> {
    Array2::from_shape_fn(c.dim(), |(i, j)| {
        if beta == 0.0 || uplo.is_some_and(|u| !in_triangle(u, i, j)) {
            T::from_f64(0.0)
        } else {
            c[[i, j]]
        }
    })
}

/// `c` with the triangle `uplo` replaced by `tri`'s (the result a triangle routine must give:
/// its other triangle is the input, bit for bit).
pub fn merge_triangle<T: Elem>(uplo: Uplo, tri: &Array2<T>, c: &Array2<T>) -> Array2<T> {
    Array2::from_shape_fn(c.dim(), |(i, j)| {
        if in_triangle(uplo, i, j) {
            tri[[i, j]]
        } else {
            c[[i, j]]
        }
    })
}

/// A symmetric matrix stored in its `uplo` triangle, NaN in the other one (never read).
pub fn symmetric_storage<T: Elem>(r: &mut StdRng, n: usize, uplo: Uplo) -> Array2<T> {
    let mut a = super::level2::tri_stored(r, n, uplo, wgblas::Diag::NonUnit, 0.0, 1.0);
    for i in 0..n {
        a[[i, i]] = T::value(r);
    }
    a
}

/// The order of A for `side`: m on the left, n on the right.
pub fn order(side: Side, m: usize, n: usize) -> usize {
    if side == Side::Left {
        m
    } else {
        n
    }
}

/// The `space` and `resident_space` of a Level 3 description from its random space with
/// dimensions from a strategy (`$space_with`): [`dim`] for the fixtures, [`resident_dim`] for
/// the resident fixtures.
macro_rules! spaces_with {
    ($space_with:path) => {
        fn space() -> proptest::strategy::BoxedStrategy<crate::describe::Case> {
            $space_with(crate::describe::level3::dim())
        }

        fn resident_space() -> proptest::strategy::BoxedStrategy<crate::describe::Case> {
            $space_with(crate::describe::level3::resident_dim())
        }
    };
}
pub(crate) use spaces_with;
