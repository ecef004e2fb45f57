//! ssyr2k and dsyr2k: C ← alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C on the triangle
//! `uplo` of C, from the description `crate::syrk::SyrK<true>`; hand-computed values below.

use ndarray::{array, Array2};
use wgblas::blas;
use wgblas::prelude::*;

use crate::common::*;
use crate::describe::{self, Case};
use crate::level3_common::{check_past_one_binding, check_tri_rules, upload};
use wgblas::{
    Transpose::{No, Yes},
    Uplo::{Lower, Upper},
};

/// ssyr2k and dsyr2k: the description of `crate::syrk::SyrK`.
pub type Syr2k = crate::syrk::SyrK<true>;

describe::described_tests!(Syr2k, 100, 40);

describe::check_on_fn! {
    /// One case of the description on the context `cx`.
    Syr2k, (seed: u64, (n, k): (usize, usize), uplo: Uplo, trans: Transpose, alpha: f32, beta: f32, layouts: [Layout; 3])
        => Case::mnk(seed, n, n, k).flags(uplo, trans, wgblas::Diag::NonUnit).scalars(alpha.into(), beta.into()).mats(layouts)
}

#[test]
fn past_one_binding() {
    // C of side² f32 just past one binding: two passes over its lower triangle in square
    // blocks (issue 15). C = 2·(a·bᵀ + b·aᵀ) + C with a_i = i mod 3, b_j = j mod 5 (k = 1).
    let call = |p3: &Array2<f32>, p5: &Array2<f32>, c: &mut Array2<f32>| {
        p3.gpu_syr2k_inplace(Lower, 2.0, p5, 1.0, c)
    };
    check_past_one_binding(Lower, call, |i, j| (i % 3) * (j % 5) + (i % 5) * (j % 3));
}

#[test]
fn edge_hand_values() {
    // A = I, B = [[1, 2], [3, 4]]: A·Bᵀ + B·Aᵀ = Bᵀ + B = [[2, 5], [5, 8]], also for trans = Yes
    // (op(A) = Aᵀ: Aᵀ·B + Bᵀ·A with A = I is B + Bᵀ again).
    check_tri_rules("ssyr2k", &["values"]);
    let (a, b) = (Array2::<f32>::eye(2), array![[1.0f32, 2.0], [3.0, 4.0]]);
    let lower = a.gpu_syr2k(Lower, &b).unwrap();
    assert_eq!(lower, array![[2.0, 0.0], [5.0, 8.0]]);
}

crate::level3_common::tri_rule_tests!("ssyr2k");

#[test]
fn resident_hand_values_mixed_operands_other_triangle_kept() {
    // A = I: A·Bᵀ + B·Aᵀ = Bᵀ + B = [[2, 5], [5, 8]]; only the lower triangle is written.
    let a = array![[1.0f32, 0.0], [0.0, 1.0]];
    let b = array![[1.0f32, 2.0], [3.0, 4.0]];
    let c = array![[f32::NAN, f32::NAN], [f32::INFINITY, f32::NAN]];
    for col_major in [false, true] {
        // Host A, resident B, resident C (beta = 0: the NaNs and Inf of C are never read).
        let gb = upload(&b, col_major);
        let mut gc = upload(&c, !col_major);
        blas::ssyr2k(ctx(), Lower, No, 1.0, &a, &gb, 0.0, &mut gc).unwrap();
        let got = gc.to_array().unwrap();
        assert_eq!((got[[0, 0]], got[[1, 0]], got[[1, 1]]), (2.0, 5.0, 8.0));
        assert!(got[[0, 1]].is_nan(), "col-major={col_major}: {got}");
        // trans = Yes with resident operands given as `.t()` of their uploaded transposes, and
        // a host C: C ← 0.5·(Bᵀ + B) + C on the upper triangle.
        let (gat, gbt) = (upload(&a, col_major), upload(&b.t().to_owned(), col_major));
        let mut hc = array![[1.0f32, 1.0], [f32::NAN, 1.0]];
        blas::ssyr2k(ctx(), Upper, Yes, 0.5, gat.t(), gbt.t(), 1.0, &mut hc).unwrap();
        assert_eq!((hc[[0, 0]], hc[[0, 1]], hc[[1, 1]]), (2.0, 3.5, 5.0));
        assert!(hc[[1, 0]].is_nan());
    }
}
