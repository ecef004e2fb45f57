//! sgemmtr and dgemmtr: C ← alpha·op(A)·op(B) + beta·C on the triangle `uplo` of C, from the
//! description `crate::gemm::GemmT<true>`; hand-computed values below.

use ndarray::{array, Array2};
use wgblas::blas;
use wgblas::prelude::*;

use crate::common::*;
use crate::describe::{self, Case};
use crate::level3_common::{check_past_one_binding, check_tri_rules, upload};

/// sgemmtr and dgemmtr: the description `crate::gemm::GemmT<true>`.
pub type Gemmtr = crate::gemm::GemmT<true>;

describe::described_tests!(Gemmtr, 100, 40);

describe::check_on_fn! {
    /// One case of the description on the context `cx`.
    Gemmtr, (seed: u64, (n, k): (usize, usize), uplo: Uplo, ta: Transpose, tb: Transpose, alpha: f32, beta: f32, layouts: [Layout; 3])
        => Case::mnk(seed, n, n, k).flags(uplo, ta, wgblas::Diag::NonUnit).transb(tb).scalars(alpha.into(), beta.into()).mats(layouts)
}

#[test]
fn validation_extension_forms() {
    let (a, b) = (Array2::<f32>::ones((4, 3)), Array2::<f32>::ones((4, 2)));
    assert!(a.gpu_gemmtr(Uplo::Lower, &b).is_err());
}

#[test]
fn past_one_binding() {
    // C of side² f32 just past one binding: its lower triangle in square blocks (issue 15).
    let call = |p3: &Array2<f32>, p5: &Array2<f32>, c: &mut Array2<f32>| {
        p3.gpu_gemmtr_inplace(Uplo::Lower, 2.0, &p5.t().to_owned(), 1.0, c)
    };
    check_past_one_binding(Uplo::Lower, call, |i, j| (i % 3) * (j % 5));
}

#[test]
fn edge_hand_values() {
    // A·B = [[19, 22], [43, 50]]; only the lower triangle is written.
    check_tri_rules("sgemmtr", &["values"]);
    let (a, b) = (
        array![[1.0f32, 2.0], [3.0, 4.0]],
        array![[5.0f32, 6.0], [7.0, 8.0]],
    );
    let up = a.gpu_gemmtr(Uplo::Upper, &b).unwrap();
    assert_eq!(up, array![[19.0, 22.0], [0.0, 50.0]]);
}

crate::level3_common::tri_rule_tests!("sgemmtr");

#[test]
fn resident_mixed_operands_hand_values_other_triangle_kept() {
    // A·B = [[19, 22], [43, 50]]; C ← 2·A·B − C on the lower triangle; the NaN above it stays.
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let b = array![[5.0f32, 6.0], [7.0, 8.0]];
    let c = array![[1.0f32, f32::NAN], [1.0, 1.0]];
    for col_major in [false, true] {
        // Host A, resident B (passed as the transpose of its uploaded transpose), resident C.
        let gbt = upload(&b.t().to_owned(), col_major);
        let mut gc = upload(&c, col_major);
        blas::sgemmtr(
            ctx(),
            Uplo::Lower,
            Transpose::No,
            Transpose::No,
            2.0,
            &a,
            gbt.t(),
            -1.0,
            &mut gc,
        )
        .unwrap();
        let got = gc.to_array().unwrap();
        assert_eq!((got[[0, 0]], got[[1, 0]], got[[1, 1]]), (37.0, 85.0, 99.0));
        assert!(got[[0, 1]].is_nan(), "col-major={col_major}: {got}");
        // Resident A and B, host C: the host triangle is written, the other one is not.
        let (ga, gb) = (upload(&a, col_major), upload(&b, !col_major));
        let mut hc = array![[f32::INFINITY, -3.0], [f32::NAN, f32::NAN]];
        blas::sgemmtr(
            ctx(),
            Uplo::Upper,
            Transpose::No,
            Transpose::No,
            1.0,
            &ga,
            &gb,
            0.0,
            &mut hc,
        )
        .unwrap();
        assert_eq!((hc[[0, 0]], hc[[0, 1]], hc[[1, 1]]), (19.0, 22.0, 50.0));
        assert!(hc[[1, 0]].is_nan());
    }
}

#[test]
fn validation_gpu_gemmtr_names_b_when_its_columns_do_not_match() {
    // C is n×n with n = rows of A; the method allocates C, so the mismatch is B's.
    let a = ndarray::Array2::<f32>::ones((4, 3));
    let b = ndarray::Array2::<f32>::ones((3, 2));
    let err = a.gpu_gemmtr(wgblas::Uplo::Lower, &b).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "sgemmtr", "b"));
}
