//! ssyrk: C ← alpha·op(A)·op(A)ᵀ + beta·C on the triangle `uplo` of C. Metric: forward factor
//! ≤ 1 (DESIGN.md §2) against OpenBLAS; the other triangle checked unchanged, bit for bit.

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
    trans: Transpose,
    alpha: f32,
    beta: f32,
    layouts: [Layout; 2],
) {
    check_on(ctx(), seed, dims, uplo, trans, alpha, beta, layouts);
}

/// [`check`] on the context `cx`.
#[allow(clippy::too_many_arguments)]
pub fn check_on(
    cx: &wgblas::Context,
    seed: u64,
    (n, k): (usize, usize),
    uplo: Uplo,
    trans: Transpose,
    alpha: f32,
    beta: f32,
    layouts: [Layout; 2],
) {
    let mut r = rng(seed);
    let (ra, ca) = shape(trans, n, k);
    let a = rand_mat(&mut r, ra, ca);
    let c = if beta == 0.0 {
        Array2::from_elem((n, n), f32::NAN)
    } else {
        rand_mat(&mut r, n, n)
    };
    let sa = Mat::new(&a, layouts[0]);
    let mut sc = Mat::new(&c, layouts[1]);
    let pad = sc.outside();
    blas::ssyrk(cx, uplo, trans, alpha, sa.view(), beta, sc.view_mut()).unwrap();
    let got = sc.to_owned();
    let c0 = oracle_c(Some(uplo), beta, &c);
    let tri = oracle_l3::ssyrk(uplo, trans, alpha, a.view(), beta, c0.view());
    let reference = merge_triangle(uplo, &tri, &c);
    let bound = bounds::syrk(uplo, trans, alpha, a.view(), beta, c.view());
    let f = metrics::forward_factor(&got, &reference, &bound).unwrap();
    let what =
        format!("ssyrk {uplo:?} {trans:?} n={n} k={k} alpha={alpha} beta={beta} {layouts:?}");
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
    let mut c = Array2::<f32>::from_elem((3, 2), 9.0);
    let err = a
        .gpu_syrk_inplace(Uplo::Lower, 1.0, 0.0, &mut c)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::NotSquare {
                routine: "ssyrk",
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
    let a = Array2::<f32>::ones((3, 4));
    let mut c = Array2::<f32>::from_elem((3, 3), 9.0);
    // op(A) = Aᵀ is 4×3: its 4 rows do not match the order 3 of C.
    let err = blas::ssyrk(
        ctx(),
        Uplo::Upper,
        Transpose::Yes,
        1.0,
        a.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "ssyrk",
                arg: "a",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(c, Array2::from_elem((3, 3), 9.0));
}

#[test]
fn past_one_binding() {
    // C of side² f32 just past one binding: its upper triangle in square blocks (issue 15). (A
    // depth past one binding is slow on lavapipe's tiles: tested at a lowered binding in
    // `scale::chunked_ssyrk_and_sgemmtr_triangle_blocks`.)
    let limit = ctx().limits().max_storage_buffer_binding_size as usize;
    let side = ((limit / 4) as f64).sqrt() as usize + 1;
    let a = Array2::from_shape_fn((side, 1), |(i, _)| (i % 3) as f32);
    let mut c = Array2::<f32>::from_elem((side, side), 5.0);
    a.gpu_syrk_inplace(Uplo::Upper, 2.0, 1.0, &mut c).unwrap();
    assert!(c.indexed_iter().all(|((i, j), &v)| if i <= j {
        v == 2.0 * ((i % 3) * (j % 3)) as f32 + 5.0
    } else {
        v == 5.0
    }));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in dim(), k in dim(), u in 0usize..2, t in 0usize..2,
                alpha in -2.0f32..2.0, beta in -2.0f32..2.0, la in 0usize..4, lc in 0usize..4) {
        check(seed, (n, k), UPLOS[u], TRANS[t], alpha, beta, [LAYOUTS[la], LAYOUTS[lc]]);
    }
}

#[test]
fn edge_netlib_values_every_flag_in_c_and_f_order() {
    for layout in [Layout::C, Layout::F] {
        for (i, n) in NETLIB_N.into_iter().enumerate() {
            let k = NETLIB_N[(i + 3) % 6];
            for uplo in UPLOS {
                for trans in TRANS {
                    for alpha in ALPHAS {
                        for beta in BETAS {
                            check(n as u64, (n, k), uplo, trans, alpha, beta, [layout; 2]);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn edge_tile_edges() {
    for n in [15, 16, 17, 63, 64, 65, 127, 128, 129] {
        for uplo in UPLOS {
            check(
                n as u64,
                (n, 33),
                uplo,
                Transpose::Yes,
                0.7,
                0.9,
                [Layout::C, Layout::F],
            );
        }
    }
}

#[test]
fn edge_mixed_and_strided_layouts() {
    for la in LAYOUTS {
        for lc in LAYOUTS {
            for trans in TRANS {
                check(9, (17, 15), Uplo::Lower, trans, 1.0, 0.9, [la, lc]);
            }
        }
    }
}

#[test]
fn edge_hand_values() {
    // A·Aᵀ = [[5, 11], [11, 25]], AᵀA = [[10, 14], [14, 20]].
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    for layout in [Layout::C, Layout::F] {
        let mut c = Mat::new(&array![[1.0f32, f32::NAN], [1.0, 1.0]], layout);
        blas::ssyrk(
            ctx(),
            Uplo::Lower,
            Transpose::Yes,
            2.0,
            a.view(),
            -1.0,
            c.view_mut(),
        )
        .unwrap();
        let c = c.to_owned();
        assert_eq!((c[[0, 0]], c[[1, 0]], c[[1, 1]]), (19.0, 27.0, 39.0));
        assert!(c[[0, 1]].is_nan());
    }
    assert_eq!(
        a.gpu_syrk(Uplo::Upper).unwrap(),
        array![[5.0, 11.0], [0.0, 25.0]]
    );
    assert_eq!(
        a.t().gpu_syrk(Uplo::Lower).unwrap(),
        array![[10.0, 0.0], [14.0, 20.0]]
    );
}

#[test]
fn edge_k_zero_gives_beta_c_on_the_triangle() {
    let a = Array2::<f32>::zeros((2, 0));
    let mut c = array![[1.0f32, 2.0], [3.0, 4.0]];
    a.gpu_syrk_inplace(Uplo::Lower, 1.0, 0.5, &mut c).unwrap();
    assert_eq!(c, array![[0.5, 2.0], [1.5, 2.0]]);
    let mut c = array![[f32::NAN, 7.0], [f32::NAN, f32::NAN]];
    a.gpu_syrk_inplace(Uplo::Lower, 1.0, 0.0, &mut c).unwrap();
    assert_eq!(c, array![[0.0, 7.0], [0.0, 0.0]]);
}

#[test]
fn edge_beta_zero_never_reads_c_alpha_zero_never_reads_a() {
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let mut c = array![[f32::NAN, f32::INFINITY], [f32::NAN, -f32::INFINITY]];
    a.gpu_syrk_inplace(Uplo::Upper, 1.0, 0.0, &mut c).unwrap();
    assert_eq!((c[[0, 0]], c[[0, 1]], c[[1, 1]]), (5.0, 11.0, 25.0));
    assert!(c[[1, 0]].is_nan());
    let nan = Array2::from_elem((2, 3), f32::NAN);
    let mut c = array![[1.0f32, 2.0], [3.0, 4.0]];
    nan.gpu_syrk_inplace(Uplo::Upper, 0.0, 2.0, &mut c).unwrap();
    assert_eq!(c, array![[2.0, 4.0], [3.0, 8.0]]);
}

/// The resident form: the same fixtures, oracle and metric through `GpuMatrix`es (each operand
/// row- or column-major), the other triangle of C checked bit for bit after the read-back.
#[allow(clippy::too_many_arguments)]
fn check_resident(
    seed: u64,
    (n, k): (usize, usize),
    uplo: Uplo,
    trans: Transpose,
    alpha: f32,
    beta: f32,
    col_major: [bool; 2],
) {
    let mut r = rng(seed);
    let (ra, ca) = shape(trans, n, k);
    let a = rand_mat(&mut r, ra, ca);
    let c = if beta == 0.0 {
        Array2::from_elem((n, n), f32::NAN)
    } else {
        rand_mat(&mut r, n, n)
    };
    let ga = upload(&a, col_major[0]);
    let mut gc = upload(&c, col_major[1]);
    blas::ssyrk(ctx(), uplo, trans, alpha, &ga, beta, &mut gc).unwrap();
    let got = gc.to_array().unwrap();
    let c0 = oracle_c(Some(uplo), beta, &c);
    let tri = oracle_l3::ssyrk(uplo, trans, alpha, a.view(), beta, c0.view());
    let reference = merge_triangle(uplo, &tri, &c);
    let bound = bounds::syrk(uplo, trans, alpha, a.view(), beta, c.view());
    let f = metrics::forward_factor(&got, &reference, &bound).unwrap();
    let what = format!(
        "resident ssyrk {uplo:?} {trans:?} n={n} k={k} alpha={alpha} beta={beta} \
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
                         u in 0usize..2, t in 0usize..2, alpha in -2.0f32..2.0,
                         beta in -2.0f32..2.0, cm in any::<[bool; 2]>()) {
        check_resident(seed, (n, k), UPLOS[u], TRANS[t], alpha, beta, cm);
    }
}

#[test]
fn resident_hand_values_mixed_operands_and_alpha_zero() {
    // A·Aᵀ = [[5, 11], [11, 25]]; upper triangle of C ← A·Aᵀ + C, the NaN below it kept.
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let c = array![[1.0f32, 7.0], [f32::NAN, 1.0]];
    for col_major in [false, true] {
        // Resident Aᵀ passed as `.t()` with trans = No: op(A) = A.
        let gat = upload(&a.t().to_owned(), col_major);
        let mut gc = upload(&c, !col_major);
        blas::ssyrk(
            ctx(),
            Uplo::Upper,
            Transpose::No,
            1.0,
            gat.t(),
            1.0,
            &mut gc,
        )
        .unwrap();
        let got = gc.to_array().unwrap();
        assert_eq!((got[[0, 0]], got[[0, 1]], got[[1, 1]]), (6.0, 18.0, 26.0));
        assert!(got[[1, 0]].is_nan(), "col-major={col_major}: {got}");
        // The same product from a host A into the resident C, through trans = Yes on Aᵀ.
        blas::ssyrk(
            ctx(),
            Uplo::Upper,
            Transpose::Yes,
            1.0,
            a.t(),
            -1.0,
            &mut gc,
        )
        .unwrap();
        let got = gc.to_array().unwrap();
        assert_eq!((got[[0, 0]], got[[0, 1]], got[[1, 1]]), (-1.0, -7.0, -1.0));
        assert!(got[[1, 0]].is_nan());
        // alpha = 0 with a NaN resident A: C ← 0.5·C on the triangle, A never read.
        let nan = upload(&Array2::from_elem((2, 2), f32::NAN), col_major);
        blas::ssyrk(ctx(), Uplo::Upper, Transpose::No, 0.0, &nan, 0.5, &mut gc).unwrap();
        let got = gc.to_array().unwrap();
        assert_eq!((got[[0, 0]], got[[0, 1]], got[[1, 1]]), (-0.5, -3.5, -0.5));
        assert!(got[[1, 0]].is_nan());
    }
}
