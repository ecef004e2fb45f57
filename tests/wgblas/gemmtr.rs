//! sgemmtr: C ← alpha·op(A)·op(B) + beta·C on the triangle `uplo` of C only. Metric: forward
//! factor ≤ 1 (DESIGN.md §2) against OpenBLAS sgemm masked to the triangle (0.3.21 has no
//! sgemmtr); the other triangle checked unchanged, bit for bit.

use ndarray::{array, Array2};
use proptest::prelude::*;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::level3_common::*;
use crate::oracle_l3;

const THRESHOLD: f64 = 1.0;

#[allow(clippy::too_many_arguments)]
fn check(
    seed: u64,
    dims: (usize, usize),
    uplo: Uplo,
    ta: Transpose,
    tb: Transpose,
    alpha: f32,
    beta: f32,
    layouts: [Layout; 3],
) {
    check_on(ctx(), seed, dims, uplo, ta, tb, alpha, beta, layouts);
}

/// [`check`] on the context `cx`.
#[allow(clippy::too_many_arguments)]
pub fn check_on(
    cx: &wgblas::Context,
    seed: u64,
    (n, k): (usize, usize),
    uplo: Uplo,
    ta: Transpose,
    tb: Transpose,
    alpha: f32,
    beta: f32,
    layouts: [Layout; 3],
) {
    let mut r = rng(seed);
    let (ra, ca) = shape(ta, n, k);
    let (rb, cb) = shape(tb, k, n);
    let a = rand_mat(&mut r, ra, ca);
    let b = rand_mat(&mut r, rb, cb);
    // beta = 0: C all NaN (never read; the other triangle must stay NaN).
    let c = if beta == 0.0 {
        Array2::from_elem((n, n), f32::NAN)
    } else {
        rand_mat(&mut r, n, n)
    };
    let (sa, sb) = (Mat::new(&a, layouts[0]), Mat::new(&b, layouts[1]));
    let mut sc = Mat::new(&c, layouts[2]);
    let pad = sc.outside();
    blas::sgemmtr(
        cx,
        uplo,
        ta,
        tb,
        alpha,
        sa.view(),
        sb.view(),
        beta,
        sc.view_mut(),
    )
    .unwrap();
    let got = sc.to_owned();
    let c0 = oracle_c(None, beta, &c);
    let tri = oracle_l3::sgemmtr(uplo, ta, tb, alpha, a.view(), b.view(), beta, c0.view());
    let reference = merge_triangle(uplo, &tri, &c);
    let bound = bounds::gemmtr(uplo, ta, tb, alpha, a.view(), b.view(), beta, c.view());
    let f = metrics::forward_factor(&got, &reference, &bound).unwrap();
    let what =
        format!("sgemmtr {uplo:?} n={n} k={k} {ta:?}{tb:?} alpha={alpha} beta={beta} {layouts:?}");
    assert!(f <= THRESHOLD, "{what}: factor {f}");
    assert!(
        other_triangle_unchanged(uplo, &c, &got),
        "{what}: other triangle changed"
    );
    assert!(same_bits(&pad, &sc.outside()), "{what}: wrote outside C");
}

#[test]
fn validation_c_not_square() {
    let a = Array2::<f32>::ones((3, 4));
    let b = Array2::<f32>::ones((4, 2));
    let mut c = Array2::<f32>::from_elem((3, 2), 9.0);
    let err = blas::sgemmtr(
        ctx(),
        Uplo::Lower,
        Transpose::No,
        Transpose::No,
        1.0,
        a.view(),
        b.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::NotSquare {
                routine: "sgemmtr",
                arg: "c",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(c, Array2::from_elem((3, 2), 9.0));
}

#[test]
fn validation_dimension_mismatch() {
    let mut c = Array2::<f32>::from_elem((3, 3), 9.0);
    // rows of op(A) ≠ n
    let (a, b) = (Array2::<f32>::ones((2, 4)), Array2::<f32>::ones((4, 3)));
    let err = blas::sgemmtr(
        ctx(),
        Uplo::Upper,
        Transpose::No,
        Transpose::No,
        1.0,
        a.view(),
        b.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sgemmtr",
                arg: "a",
                ..
            }
        ),
        "{err}"
    );
    // inner dimension: op(B) has 5 rows, op(A) 4 columns
    let (a, b) = (Array2::<f32>::ones((3, 4)), Array2::<f32>::ones((5, 3)));
    let err = blas::sgemmtr(
        ctx(),
        Uplo::Upper,
        Transpose::No,
        Transpose::No,
        1.0,
        a.view(),
        b.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sgemmtr",
                arg: "b",
                ..
            }
        ),
        "{err}"
    );
    // columns of op(B) ≠ n, seen through the transpose flag
    let (a, b) = (Array2::<f32>::ones((4, 3)), Array2::<f32>::ones((4, 2)));
    let err = blas::sgemmtr(
        ctx(),
        Uplo::Upper,
        Transpose::Yes,
        Transpose::No,
        1.0,
        a.view(),
        b.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sgemmtr",
                arg: "b",
                ..
            }
        ),
        "{err}"
    );
    assert!(a.gpu_gemmtr(Uplo::Lower, &b).is_err());
    assert_eq!(c, Array2::from_elem((3, 3), 9.0));
}

#[test]
fn past_one_binding() {
    // C of side² f32 just past one binding: its lower triangle in square blocks (issue 15).
    let limit = ctx().limits().max_storage_buffer_binding_size as usize;
    let side = ((limit / 4) as f64).sqrt() as usize + 1;
    let a = Array2::from_shape_fn((side, 1), |(i, _)| (i % 3) as f32);
    let b = Array2::from_shape_fn((1, side), |(_, j)| (j % 5) as f32);
    let mut c = Array2::<f32>::from_elem((side, side), 5.0);
    a.gpu_gemmtr_inplace(Uplo::Lower, 2.0, &b, 1.0, &mut c)
        .unwrap();
    assert!(c.indexed_iter().all(|((i, j), &v)| if i >= j {
        v == 2.0 * ((i % 3) * (j % 5)) as f32 + 5.0
    } else {
        v == 5.0
    }));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in dim(), k in dim(), u in 0usize..2, ta in 0usize..2,
                tb in 0usize..2, alpha in -2.0f32..2.0, beta in -2.0f32..2.0,
                la in 0usize..4, lb in 0usize..4, lc in 0usize..4) {
        check(seed, (n, k), UPLOS[u], TRANS[ta], TRANS[tb], alpha, beta,
              [LAYOUTS[la], LAYOUTS[lb], LAYOUTS[lc]]);
    }
}

#[test]
fn edge_netlib_values_every_flag_in_c_and_f_order() {
    for layout in [Layout::C, Layout::F] {
        for (i, n) in NETLIB_N.into_iter().enumerate() {
            let k = NETLIB_N[(i + 3) % 6];
            for uplo in UPLOS {
                for ta in TRANS {
                    for tb in TRANS {
                        for alpha in ALPHAS {
                            for beta in BETAS {
                                check(n as u64, (n, k), uplo, ta, tb, alpha, beta, [layout; 3]);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn edge_tile_edges() {
    for n in [15, 16, 17, 127, 128, 129] {
        for uplo in UPLOS {
            check(
                n as u64,
                (n, 17),
                uplo,
                Transpose::No,
                Transpose::Yes,
                0.7,
                0.9,
                [Layout::F, Layout::C, Layout::F],
            );
        }
    }
}

#[test]
fn edge_mixed_and_strided_layouts() {
    for la in LAYOUTS {
        for lb in LAYOUTS {
            for lc in LAYOUTS {
                check(
                    5,
                    (17, 16),
                    Uplo::Upper,
                    Transpose::Yes,
                    Transpose::No,
                    1.0,
                    0.9,
                    [la, lb, lc],
                );
            }
        }
    }
}

#[test]
fn edge_hand_values() {
    // A·B = [[19, 22], [43, 50]]; only the lower triangle is written.
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let b = array![[5.0f32, 6.0], [7.0, 8.0]];
    for layout in [Layout::C, Layout::F] {
        let mut c = Mat::new(&array![[1.0f32, f32::NAN], [1.0, 1.0]], layout);
        blas::sgemmtr(
            ctx(),
            Uplo::Lower,
            Transpose::No,
            Transpose::No,
            2.0,
            a.view(),
            b.view(),
            -1.0,
            c.view_mut(),
        )
        .unwrap();
        let c = c.to_owned();
        assert_eq!((c[[0, 0]], c[[1, 0]], c[[1, 1]]), (37.0, 85.0, 99.0));
        assert!(c[[0, 1]].is_nan());
    }
    let up = a.gpu_gemmtr(Uplo::Upper, &b).unwrap();
    assert_eq!(up, array![[19.0, 22.0], [0.0, 50.0]]);
}

#[test]
fn edge_k_zero_gives_beta_c_on_the_triangle() {
    let a = Array2::<f32>::zeros((2, 0));
    let b = Array2::<f32>::zeros((0, 2));
    let mut c = array![[1.0f32, 2.0], [3.0, 4.0]];
    a.gpu_gemmtr_inplace(Uplo::Upper, 1.0, &b, 0.5, &mut c)
        .unwrap();
    assert_eq!(c, array![[0.5, 1.0], [3.0, 2.0]]);
}

#[test]
fn edge_beta_zero_never_reads_c_alpha_zero_never_reads_a_b() {
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let id = array![[1.0f32, 0.0], [0.0, 1.0]];
    let mut c = array![[f32::NAN, f32::INFINITY], [f32::NAN, -f32::INFINITY]];
    a.gpu_gemmtr_inplace(Uplo::Lower, 1.0, &id, 0.0, &mut c)
        .unwrap();
    assert_eq!((c[[0, 0]], c[[1, 0]], c[[1, 1]]), (1.0, 3.0, 4.0));
    assert_eq!(c[[0, 1]], f32::INFINITY);
    let nan = Array2::from_elem((2, 2), f32::NAN);
    let mut c = array![[1.0f32, 2.0], [3.0, 4.0]];
    nan.gpu_gemmtr_inplace(Uplo::Upper, 0.0, &nan, 2.0, &mut c)
        .unwrap();
    assert_eq!(c, array![[2.0, 4.0], [3.0, 8.0]]);
}

/// The resident form: the same fixtures, oracle and metric through `GpuMatrix`es (each operand
/// row- or column-major), the other triangle of C checked bit for bit after the read-back.
#[allow(clippy::too_many_arguments)]
fn check_resident(
    seed: u64,
    (n, k): (usize, usize),
    uplo: Uplo,
    ta: Transpose,
    tb: Transpose,
    alpha: f32,
    beta: f32,
    col_major: [bool; 3],
) {
    let mut r = rng(seed);
    let (ra, ca) = shape(ta, n, k);
    let (rb, cb) = shape(tb, k, n);
    let a = rand_mat(&mut r, ra, ca);
    let b = rand_mat(&mut r, rb, cb);
    let c = if beta == 0.0 {
        Array2::from_elem((n, n), f32::NAN)
    } else {
        rand_mat(&mut r, n, n)
    };
    let (ga, gb) = (upload(&a, col_major[0]), upload(&b, col_major[1]));
    let mut gc = upload(&c, col_major[2]);
    blas::sgemmtr(ctx(), uplo, ta, tb, alpha, &ga, &gb, beta, &mut gc).unwrap();
    let got = gc.to_array().unwrap();
    let c0 = oracle_c(None, beta, &c);
    let tri = oracle_l3::sgemmtr(uplo, ta, tb, alpha, a.view(), b.view(), beta, c0.view());
    let reference = merge_triangle(uplo, &tri, &c);
    let bound = bounds::gemmtr(uplo, ta, tb, alpha, a.view(), b.view(), beta, c.view());
    let f = metrics::forward_factor(&got, &reference, &bound).unwrap();
    let what = format!(
        "resident sgemmtr {uplo:?} n={n} k={k} {ta:?}{tb:?} alpha={alpha} beta={beta} \
         col-major={col_major:?}"
    );
    assert!(f <= THRESHOLD, "{what}: factor {f}");
    assert!(
        other_triangle_unchanged(uplo, &c, &got),
        "{what}: other triangle changed"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in resident_dim(), k in resident_dim(),
                         u in 0usize..2, ta in 0usize..2, tb in 0usize..2,
                         alpha in -2.0f32..2.0, beta in -2.0f32..2.0, cm in any::<[bool; 3]>()) {
        check_resident(seed, (n, k), UPLOS[u], TRANS[ta], TRANS[tb], alpha, beta, cm);
    }
}

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
    assert!(
        matches!(
            err,
            wgblas::Error::DimensionMismatch {
                routine: "sgemmtr",
                arg: "b",
                ..
            }
        ),
        "{err:?}"
    );
}
