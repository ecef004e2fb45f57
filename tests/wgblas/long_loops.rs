//! Loops past 65,535 iterations (DESIGN.md §3, issue 9): Mesa's llvmpipe (lavapipe) stops the
//! loops of a shader invocation after 65,535 iterations in all, silently, and each call below
//! returned `Ok` with wrong numbers before the long loops were split. Trip counts of at least
//! 70,000 at shapes cheap on lavapipe, all-ones operands, so every expected value is the trip
//! count itself (exact in f32 below 2^24).
//!
//! Kernel families without a loop that grows with m, n or k are covered by their bound instead
//! (see the unit tests of `drivers`): the reductions' per-invocation loop runs at most
//! n / (1024·256) < 8,192 times for any n < 2^31, the triangular solves' loops run over one
//! diagonal block (the sweep is a sequence of dispatches), the element-wise and rank-update
//! kernels have no loop. strsm below runs its per-workgroup loops over a 70,000-column B.

use ndarray::{Array1, Array2, ShapeBuilder};
use wgblas::{blas, Diag, Side, Transpose, Uplo};

use crate::common::*;

/// sgemv on all-ones operands, A `dim` in F order or not, `y ← op(A)·1 + beta·y0`: every
/// element of y is then `want`.
fn ones_gemv(dim: (usize, usize), f: bool, t: Transpose, (beta, y0): (f32, f32), want: f32) {
    let a = Array2::<f32>::ones(dim.set_f(f));
    let (m, n) = match t {
        Transpose::No => dim,
        Transpose::Yes => (dim.1, dim.0),
    };
    let mut y = Array1::from_elem(m, y0);
    blas::sgemv(ctx(), t, 1.0, &a, &Array1::ones(n), beta, &mut y).unwrap();
    assert_eq!(y, Array1::from_elem(m, want));
}

#[test]
fn sgemv_transposed_c_order_100000x8() {
    // Issue 9: gave 65535 in each entry.
    ones_gemv((100_000, 8), false, Transpose::Yes, (0.0, 0.0), 100_000.0);
}

#[test]
fn sgemv_f_order_8x70000_no_trans() {
    ones_gemv((8, 70_000), true, Transpose::No, (2.0, 1.0), 70_002.0);
}

#[test]
fn sgemv_c_order_1x140000() {
    // Issue 9: gave 131070.
    ones_gemv((1, 140_000), false, Transpose::No, (0.0, 0.0), 140_000.0);
}

#[test]
fn sgemm_2x2x70000() {
    // Issue 9: gave C[0,0] = 58255 and zeros elsewhere. Both storage orders of A, and beta = 1
    // so that the split-k parts after the first add to what it wrote.
    for order in [false, true] {
        let a = Array2::<f32>::ones((2, 70_000).set_f(order));
        let b = Array2::<f32>::ones((70_000, 2).set_f(!order));
        let mut c = Array2::<f32>::ones((2, 2));
        let no = Transpose::No;
        blas::sgemm(ctx(), no, no, 1.0, &a, &b, 1.0, &mut c).unwrap();
        assert_eq!(c, Array2::from_elem((2, 2), 70_001.0), "F order {order}");
    }
}

#[test]
fn ssyrk_ssyr2k_sgemmtr_n2_k70000() {
    let a = Array2::<f32>::ones((2, 70_000));
    let bt = Array2::<f32>::ones((70_000, 2));
    // The lower triangle is not referenced: it keeps its -1.
    let tri = |v: f32| Array2::from_shape_fn((2, 2), |(i, j)| if i > j { -1.0 } else { v });
    let mut c = tri(0.0);
    blas::ssyrk(ctx(), Uplo::Upper, Transpose::No, 1.0, &a, 0.0, &mut c).unwrap();
    assert_eq!(c, tri(70_000.0), "ssyrk");
    let mut c = tri(0.0);
    blas::ssyr2k(ctx(), Uplo::Upper, Transpose::No, 1.0, &a, &a, 0.0, &mut c).unwrap();
    assert_eq!(c, tri(140_000.0), "ssyr2k");
    let mut c = tri(0.0);
    let (up, no) = (Uplo::Upper, Transpose::No);
    blas::sgemmtr(ctx(), up, no, no, 1.0, &a, &bt, 0.0, &mut c).unwrap();
    assert_eq!(c, tri(70_000.0), "sgemmtr");
}

#[test]
fn strsm_left_with_70000_right_hand_sides() {
    // Upper unit-diagonal [[1, 1], [0, 1]]: X = [[0, ...], [1, ...]] for B of ones.
    let a = Array2::from_shape_vec((2, 2), vec![1.0f32, 1.0, f32::NAN, 1.0]).unwrap();
    let mut b = Array2::<f32>::ones((2, 70_000));
    let (up, no) = (Uplo::Upper, Transpose::No);
    blas::strsm(ctx(), Side::Left, up, no, Diag::Unit, 1.0, &a, &mut b).unwrap();
    let want = Array2::from_shape_fn((2, 70_000), |(i, _)| i as f32);
    assert_eq!(b, want);
}

#[test]
fn sger_and_reductions_at_n_140000() {
    let n = 140_000;
    let x = Array1::<f32>::ones(n);
    assert_eq!(blas::sdot(ctx(), &x, &x).unwrap(), n as f32);
    assert_eq!(blas::sasum(ctx(), &x).unwrap(), n as f32);
    let mut a = Array2::<f32>::zeros((1, n));
    blas::sger(ctx(), 2.0, &Array1::ones(1), &x, &mut a).unwrap();
    assert_eq!(a, Array2::from_elem((1, n), 2.0));
}
