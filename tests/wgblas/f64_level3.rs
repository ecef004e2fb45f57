//! dtrmm and dtrsm in f64: the alpha = 0 rules and hand values. Their fixtures against OpenBLAS
//! are the f64 runs of the descriptions (`trmm::Trmm`, `trsm::Trsm`).

use ndarray::{array, Array2};
use wgblas::blas;

use crate::common::*;
use wgblas::{
    Diag::{NonUnit, Unit},
    Side::{Left, Right},
    Transpose::No,
    Uplo::{Lower, Upper},
};

// dtrmm against OpenBLAS (the f64 suite's shapes, every flag, A in F order and B in C order)
// is the f64 run of the description's edges (`trmm::Trmm`).

/// dtrmm with alpha = 0 sets B to 0, reading neither A nor B (NaN in both).
#[test]
fn dtrmm_alpha_zero_reads_nothing() {
    let a = Array2::from_elem((2, 2), f64::NAN);
    let mut b = array![[1.0f64, f64::NAN], [3.0, 4.0]];
    blas::dtrmm(ctx(), Left, Lower, No, NonUnit, 0.0, a.view(), b.view_mut()).unwrap();
    assert_eq!(b, Array2::zeros((2, 2)));
}

// dtrsm's backward residual (the f64 suite's shapes, every flag) is the f64 run of the
// description's edges (`trsm::Trsm`), with its fixtures and resident form.

/// dtrsm hand values; alpha = 0 sets B to 0, reading neither A nor B.
#[test]
fn dtrsm_hand_values() {
    // Hand values: X·[[2, 1], [0, 4]] = [[4, 6], [8, 12]] gives X = [[2, 1], [4, 2]].
    let a = array![[2.0f64, 1.0], [f64::NAN, 4.0]];
    let mut b = array![[4.0f64, 6.0], [8.0, 12.0]];
    blas::dtrsm(
        ctx(),
        Right,
        Upper,
        No,
        NonUnit,
        1.0,
        a.view(),
        b.view_mut(),
    )
    .unwrap();
    assert_eq!(b, array![[2.0, 1.0], [4.0, 2.0]]);
    let mut b = array![[f64::NAN, 1.0]];
    blas::dtrsm(
        ctx(),
        Left,
        Lower,
        No,
        Unit,
        0.0,
        Array2::from_elem((1, 1), f64::NAN).view(),
        b.view_mut(),
    )
    .unwrap();
    assert_eq!(b, array![[0.0, 0.0]]);
}
