//! ssyr2k: C ← alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C on the triangle `uplo` of C.
//! Metric: forward factor ≤ 1 (DESIGN.md §2) against OpenBLAS; the other triangle checked
//! unchanged, bit for bit.

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
    layouts: [Layout; 3],
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
    layouts: [Layout; 3],
) {
    let mut r = rng(seed);
    let (ra, ca) = shape(trans, n, k);
    let a = rand_mat(&mut r, ra, ca);
    let b = rand_mat(&mut r, ra, ca);
    let c = if beta == 0.0 {
        Array2::from_elem((n, n), f32::NAN)
    } else {
        rand_mat(&mut r, n, n)
    };
    let (sa, sb) = (Mat::new(&a, layouts[0]), Mat::new(&b, layouts[1]));
    let mut sc = Mat::new(&c, layouts[2]);
    let pad = sc.outside();
    blas::ssyr2k(
        cx,
        uplo,
        trans,
        alpha,
        sa.view(),
        sb.view(),
        beta,
        sc.view_mut(),
    )
    .unwrap();
    let got = sc.to_owned();
    let c0 = oracle_c(Some(uplo), beta, &c);
    let tri = oracle_l3::ssyr2k(uplo, trans, alpha, a.view(), b.view(), beta, c0.view());
    let reference = merge_triangle(uplo, &tri, &c);
    let bound = bounds::syr2k(uplo, trans, alpha, a.view(), b.view(), beta, c.view());
    let f = metrics::forward_factor(&got, &reference, &bound).unwrap();
    let what =
        format!("ssyr2k {uplo:?} {trans:?} n={n} k={k} alpha={alpha} beta={beta} {layouts:?}");
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
        .gpu_syr2k_inplace(Uplo::Lower, 1.0, &a, 0.0, &mut c)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::NotSquare {
                routine: "ssyr2k",
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
    let a = Array2::<f32>::ones((3, 4));
    // op(A) = Aᵀ is 4×3.
    let err = blas::ssyr2k(
        ctx(),
        Uplo::Upper,
        Transpose::Yes,
        1.0,
        a.view(),
        a.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "ssyr2k",
                arg: "a",
                ..
            }
        ),
        "{err}"
    );
    // op(B) not the shape of op(A): 3×5 against 3×4, then 2×4.
    for bshape in [(3, 5), (2, 4)] {
        let b = Array2::<f32>::ones(bshape);
        let err = a
            .gpu_syr2k_inplace(Uplo::Lower, 1.0, &b, 1.0, &mut c)
            .unwrap_err();
        assert!(
            matches!(
                err,
                Error::DimensionMismatch {
                    routine: "ssyr2k",
                    arg: "b",
                    ..
                }
            ),
            "{err}"
        );
    }
    assert_eq!(c, Array2::from_elem((3, 3), 9.0));
}

#[test]
fn past_one_binding() {
    // C of side² f32 just past one binding: two passes over its lower triangle in square
    // blocks (issue 15). C = 2·(a·bᵀ + b·aᵀ) + C with a_i = i mod 3, b_j = j mod 5 (k = 1).
    let limit = ctx().limits().max_storage_buffer_binding_size as usize;
    let side = ((limit / 4) as f64).sqrt() as usize + 1;
    let a = Array2::from_shape_fn((side, 1), |(i, _)| (i % 3) as f32);
    let b = Array2::from_shape_fn((side, 1), |(i, _)| (i % 5) as f32);
    let mut c = Array2::<f32>::from_elem((side, side), 5.0);
    a.gpu_syr2k_inplace(Uplo::Lower, 2.0, &b, 1.0, &mut c)
        .unwrap();
    assert!(c.indexed_iter().all(|((i, j), &v)| if i >= j {
        v == 2.0 * ((i % 3) * (j % 5) + (i % 5) * (j % 3)) as f32 + 5.0
    } else {
        v == 5.0
    }));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in dim(), k in dim(), u in 0usize..2, t in 0usize..2,
                alpha in -2.0f32..2.0, beta in -2.0f32..2.0,
                la in 0usize..4, lb in 0usize..4, lc in 0usize..4) {
        check(seed, (n, k), UPLOS[u], TRANS[t], alpha, beta, [LAYOUTS[la], LAYOUTS[lb], LAYOUTS[lc]]);
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
                            check(n as u64, (n, k), uplo, trans, alpha, beta, [layout; 3]);
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
                (n, 17),
                uplo,
                Transpose::No,
                0.7,
                0.9,
                [Layout::F, Layout::C, Layout::C],
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
                    11,
                    (16, 17),
                    Uplo::Upper,
                    Transpose::Yes,
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
    // A = I, B = [[1, 2], [3, 4]]: A·Bᵀ + B·Aᵀ = Bᵀ + B = [[2, 5], [5, 8]].
    let a = array![[1.0f32, 0.0], [0.0, 1.0]];
    let b = array![[1.0f32, 2.0], [3.0, 4.0]];
    for layout in [Layout::C, Layout::F] {
        let mut c = Mat::new(&array![[1.0f32, 1.0], [f32::NAN, 1.0]], layout);
        blas::ssyr2k(
            ctx(),
            Uplo::Upper,
            Transpose::No,
            2.0,
            a.view(),
            b.view(),
            -1.0,
            c.view_mut(),
        )
        .unwrap();
        let c = c.to_owned();
        assert_eq!((c[[0, 0]], c[[0, 1]], c[[1, 1]]), (3.0, 9.0, 15.0));
        assert!(c[[1, 0]].is_nan());
    }
    assert_eq!(
        a.gpu_syr2k(Uplo::Lower, &b).unwrap(),
        array![[2.0, 0.0], [5.0, 8.0]]
    );
    // trans = Yes: op(A) = Aᵀ; Aᵀ·B + Bᵀ·A with A = I is B + Bᵀ again.
    let mut c = Array2::<f32>::zeros((2, 2));
    blas::ssyr2k(
        ctx(),
        Uplo::Lower,
        Transpose::Yes,
        1.0,
        a.view(),
        b.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap();
    assert_eq!(c, array![[2.0, 0.0], [5.0, 8.0]]);
}

#[test]
fn edge_k_zero_gives_beta_c_on_the_triangle() {
    let a = Array2::<f32>::zeros((2, 0));
    let mut c = array![[1.0f32, 2.0], [3.0, 4.0]];
    a.gpu_syr2k_inplace(Uplo::Upper, 1.0, &a, 0.5, &mut c)
        .unwrap();
    assert_eq!(c, array![[0.5, 1.0], [3.0, 2.0]]);
}

#[test]
fn edge_beta_zero_never_reads_c_alpha_zero_never_reads_a_b() {
    let a = array![[1.0f32, 0.0], [0.0, 1.0]];
    let b = array![[1.0f32, 2.0], [3.0, 4.0]];
    let mut c = array![[f32::NAN, f32::INFINITY], [f32::NAN, -f32::INFINITY]];
    a.gpu_syr2k_inplace(Uplo::Lower, 1.0, &b, 0.0, &mut c)
        .unwrap();
    assert_eq!((c[[0, 0]], c[[1, 0]], c[[1, 1]]), (2.0, 5.0, 8.0));
    assert_eq!(c[[0, 1]], f32::INFINITY);
    let nan = Array2::from_elem((2, 3), f32::NAN);
    let mut c = array![[1.0f32, 2.0], [3.0, 4.0]];
    nan.gpu_syr2k_inplace(Uplo::Lower, 0.0, &nan, 2.0, &mut c)
        .unwrap();
    assert_eq!(c, array![[2.0, 2.0], [6.0, 8.0]]);
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
    col_major: [bool; 3],
) {
    let mut r = rng(seed);
    let (ra, ca) = shape(trans, n, k);
    let a = rand_mat(&mut r, ra, ca);
    let b = rand_mat(&mut r, ra, ca);
    let c = if beta == 0.0 {
        Array2::from_elem((n, n), f32::NAN)
    } else {
        rand_mat(&mut r, n, n)
    };
    let (ga, gb) = (upload(&a, col_major[0]), upload(&b, col_major[1]));
    let mut gc = upload(&c, col_major[2]);
    blas::ssyr2k(ctx(), uplo, trans, alpha, &ga, &gb, beta, &mut gc).unwrap();
    let got = gc.to_array().unwrap();
    let c0 = oracle_c(Some(uplo), beta, &c);
    let tri = oracle_l3::ssyr2k(uplo, trans, alpha, a.view(), b.view(), beta, c0.view());
    let reference = merge_triangle(uplo, &tri, &c);
    let bound = bounds::syr2k(uplo, trans, alpha, a.view(), b.view(), beta, c.view());
    let f = metrics::forward_factor(&got, &reference, &bound).unwrap();
    let what = format!(
        "resident ssyr2k {uplo:?} {trans:?} n={n} k={k} alpha={alpha} beta={beta} \
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
                         beta in -2.0f32..2.0, cm in any::<[bool; 3]>()) {
        check_resident(seed, (n, k), UPLOS[u], TRANS[t], alpha, beta, cm);
    }
}

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
        blas::ssyr2k(
            ctx(),
            Uplo::Lower,
            Transpose::No,
            1.0,
            &a,
            &gb,
            0.0,
            &mut gc,
        )
        .unwrap();
        let got = gc.to_array().unwrap();
        assert_eq!((got[[0, 0]], got[[1, 0]], got[[1, 1]]), (2.0, 5.0, 8.0));
        assert!(got[[0, 1]].is_nan(), "col-major={col_major}: {got}");
        // trans = Yes with resident operands given as `.t()` of their uploaded transposes, and
        // a host C: C ← 0.5·(Bᵀ + B) + C on the upper triangle.
        let (gat, gbt) = (upload(&a, col_major), upload(&b.t().to_owned(), col_major));
        let mut hc = array![[1.0f32, 1.0], [f32::NAN, 1.0]];
        blas::ssyr2k(
            ctx(),
            Uplo::Upper,
            Transpose::Yes,
            0.5,
            gat.t(),
            gbt.t(),
            1.0,
            &mut hc,
        )
        .unwrap();
        assert_eq!((hc[[0, 0]], hc[[0, 1]], hc[[1, 1]]), (2.0, 3.5, 5.0));
        assert!(hc[[1, 0]].is_nan());
    }
}
