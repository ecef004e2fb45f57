//! ssymm: C ← alpha·A·B + beta·C (Left) or alpha·B·A + beta·C (Right), A symmetric stored in
//! its `uplo` triangle (NaN in the other one). Metric: forward factor ≤ 1 (DESIGN.md §2)
//! against OpenBLAS.

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
    side: Side,
    uplo: Uplo,
    alpha: f32,
    beta: f32,
    layouts: [Layout; 3],
) {
    check_on(ctx(), seed, dims, side, uplo, alpha, beta, layouts);
}

/// [`check`] on the context `cx`.
#[allow(clippy::too_many_arguments)]
pub fn check_on(
    cx: &wgblas::Context,
    seed: u64,
    (m, n): (usize, usize),
    side: Side,
    uplo: Uplo,
    alpha: f32,
    beta: f32,
    layouts: [Layout; 3],
) {
    let mut r = rng(seed);
    let order = if side == Side::Left { m } else { n };
    let a = symmetric_storage(&mut r, order, uplo);
    let b = rand_mat(&mut r, m, n);
    let c = if beta == 0.0 {
        Array2::from_elem((m, n), f32::NAN)
    } else {
        rand_mat(&mut r, m, n)
    };
    let (sa, sb) = (Mat::new(&a, layouts[0]), Mat::new(&b, layouts[1]));
    let mut sc = Mat::new(&c, layouts[2]);
    let pad = sc.outside();
    blas::ssymm(
        cx,
        side,
        uplo,
        alpha,
        sa.view(),
        sb.view(),
        beta,
        sc.view_mut(),
    )
    .unwrap();
    let full = mirror(&a, uplo);
    let c0 = oracle_c(None, beta, &c);
    let reference = oracle_l3::ssymm(side, uplo, alpha, full.view(), b.view(), beta, c0.view());
    let bound = bounds::symm(side, uplo, alpha, a.view(), b.view(), beta, c.view());
    let f = metrics::forward_factor(&sc.to_owned(), &reference, &bound).unwrap();
    let what = format!("ssymm {side:?} {uplo:?} {m}x{n} alpha={alpha} beta={beta} {layouts:?}");
    assert!(f <= THRESHOLD, "{what}: factor {f}");
    assert!(same_bits(&pad, &sc.outside()), "{what}: wrote outside C");
}

#[test]
fn validation_a_not_square() {
    let a = Array2::<f32>::ones((3, 2));
    let b = Array2::<f32>::ones((3, 2));
    let mut c = Array2::<f32>::from_elem((3, 2), 9.0);
    let err = a
        .gpu_symm_inplace(Side::Left, Uplo::Lower, 1.0, &b, 0.0, &mut c)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::NotSquare {
                routine: "ssymm",
                arg: "a",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(c, Array2::from_elem((3, 2), 9.0));
}

#[test]
fn validation_dimension_mismatch() {
    let a = Array2::<f32>::ones((3, 3));
    let b = Array2::<f32>::ones((3, 2));
    let mut c = Array2::<f32>::from_elem((3, 2), 9.0);
    // Right: the order of A must be the 2 columns of B.
    let err = a
        .gpu_symm_inplace(Side::Right, Uplo::Lower, 1.0, &b, 0.0, &mut c)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "ssymm",
                arg: "a",
                ..
            }
        ),
        "{err}"
    );
    assert!(a.gpu_symm(Side::Right, Uplo::Upper, &b).is_err());
    for shape in [(2, 2), (3, 3)] {
        let mut c2 = Array2::<f32>::from_elem(shape, 9.0);
        let err = blas::ssymm(
            ctx(),
            Side::Left,
            Uplo::Upper,
            1.0,
            a.view(),
            b.view(),
            1.0,
            c2.view_mut(),
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                Error::DimensionMismatch {
                    routine: "ssymm",
                    arg: "c",
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(c2, Array2::from_elem(shape, 9.0));
    }
    assert_eq!(c, Array2::from_elem((3, 2), 9.0));
}

#[test]
fn past_one_binding() {
    // A of side² f32 past one binding, only its lower triangle stored (NaN above): square
    // blocks, the mirrored ones read from the stored ones (issue 15). C = A·B with
    // A_ij = (i + j) mod 3 and B = 1 (side×1): C_i = Σ_j (i + j) mod 3, exact.
    let limit = ctx().limits().max_storage_buffer_binding_size as usize;
    let side = ((limit / 4) as f64).sqrt() as usize + 1;
    let a = Array2::from_shape_fn((side, side), |(i, j)| {
        if i >= j {
            ((i + j) % 3) as f32
        } else {
            f32::NAN
        }
    });
    let b = Array2::<f32>::ones((side, 1));
    let mut c = Array2::<f32>::from_elem((side, 1), f32::NAN);
    a.gpu_symm_inplace(Side::Left, Uplo::Lower, 1.0, &b, 0.0, &mut c)
        .unwrap();
    let want = |i: usize| (0..side).map(|j| ((i + j) % 3) as f32).sum::<f32>();
    for i in [0, 1, 2, side / 2, side - 1] {
        assert_eq!(c[[i, 0]], want(i), "C[{i}]");
    }
    assert!(c.iter().all(|v| v.is_finite()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), m in dim(), n in dim(), s in 0usize..2, u in 0usize..2,
                alpha in -2.0f32..2.0, beta in -2.0f32..2.0,
                la in 0usize..4, lb in 0usize..4, lc in 0usize..4) {
        check(seed, (m, n), SIDES[s], UPLOS[u], alpha, beta, [LAYOUTS[la], LAYOUTS[lb], LAYOUTS[lc]]);
    }
}

#[test]
fn edge_netlib_values_every_flag_in_c_and_f_order() {
    for layout in [Layout::C, Layout::F] {
        for (i, m) in NETLIB_N.into_iter().enumerate() {
            let n = NETLIB_N[(i + 2) % 6];
            for side in SIDES {
                for uplo in UPLOS {
                    for alpha in ALPHAS {
                        for beta in BETAS {
                            check(m as u64, (m, n), side, uplo, alpha, beta, [layout; 3]);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn edge_tile_edges() {
    for m in [15, 16, 17, 127, 128, 129] {
        for side in SIDES {
            for uplo in UPLOS {
                check(
                    m as u64,
                    (m, 17),
                    side,
                    uplo,
                    0.7,
                    0.9,
                    [Layout::C, Layout::F, Layout::C],
                );
            }
        }
    }
}

#[test]
fn edge_mixed_and_strided_layouts() {
    for la in LAYOUTS {
        for lb in LAYOUTS {
            for lc in LAYOUTS {
                check(
                    13,
                    (17, 16),
                    Side::Right,
                    Uplo::Lower,
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
    // A = [[1, 2], [2, 3]] stored in either triangle (NaN in the other), B = [[1, 1], [0, 1]].
    // A·B = [[1, 3], [2, 5]], B·A = [[3, 5], [2, 3]].
    let stored = [
        (Uplo::Upper, array![[1.0f32, 2.0], [f32::NAN, 3.0]]),
        (Uplo::Lower, array![[1.0f32, f32::NAN], [2.0, 3.0]]),
    ];
    let b = array![[1.0f32, 1.0], [0.0, 1.0]];
    for (uplo, a) in stored {
        for layout in [Layout::C, Layout::F] {
            let sa = Mat::new(&a, layout);
            let mut c = Mat::new(&array![[1.0f32, 1.0], [1.0, 1.0]], layout);
            blas::ssymm(
                ctx(),
                Side::Left,
                uplo,
                2.0,
                sa.view(),
                b.view(),
                -1.0,
                c.view_mut(),
            )
            .unwrap();
            assert_eq!(c.to_owned(), array![[1.0, 5.0], [3.0, 9.0]]);
        }
        assert_eq!(
            a.gpu_symm(Side::Right, uplo, &b).unwrap(),
            array![[3.0, 5.0], [2.0, 3.0]]
        );
    }
}

#[test]
fn edge_beta_zero_never_reads_c_alpha_zero_never_reads_a_b() {
    let a = array![[1.0f32, f32::NAN], [2.0, 3.0]];
    let id = array![[1.0f32, 0.0], [0.0, 1.0]];
    let mut c = array![[f32::NAN, f32::INFINITY], [f32::NAN, -f32::INFINITY]];
    a.gpu_symm_inplace(Side::Left, Uplo::Lower, 1.0, &id, 0.0, &mut c)
        .unwrap();
    assert_eq!(c, array![[1.0, 2.0], [2.0, 3.0]]);
    let nan = Array2::from_elem((2, 2), f32::NAN);
    let mut c = array![[1.0f32, 2.0], [3.0, 4.0]];
    nan.gpu_symm_inplace(Side::Right, Uplo::Upper, 0.0, &nan, 2.0, &mut c)
        .unwrap();
    assert_eq!(c, array![[2.0, 4.0], [6.0, 8.0]]);
}

#[test]
fn edge_empty() {
    let a = Array2::<f32>::zeros((0, 0));
    let b = Array2::<f32>::zeros((0, 3));
    assert_eq!(
        a.gpu_symm(Side::Left, Uplo::Lower, &b).unwrap().dim(),
        (0, 3)
    );
}

/// The resident form: the same fixtures, oracle and metric through `GpuMatrix`es (each operand
/// row- or column-major; the unreferenced triangle of A is NaN on the device too).
#[allow(clippy::too_many_arguments)]
fn check_resident(
    seed: u64,
    (m, n): (usize, usize),
    side: Side,
    uplo: Uplo,
    alpha: f32,
    beta: f32,
    col_major: [bool; 3],
) {
    let mut r = rng(seed);
    let order = if side == Side::Left { m } else { n };
    let a = symmetric_storage(&mut r, order, uplo);
    let b = rand_mat(&mut r, m, n);
    let c = if beta == 0.0 {
        Array2::from_elem((m, n), f32::NAN)
    } else {
        rand_mat(&mut r, m, n)
    };
    let (ga, gb) = (upload(&a, col_major[0]), upload(&b, col_major[1]));
    let mut gc = upload(&c, col_major[2]);
    blas::ssymm(ctx(), side, uplo, alpha, &ga, &gb, beta, &mut gc).unwrap();
    let full = mirror(&a, uplo);
    let c0 = oracle_c(None, beta, &c);
    let reference = oracle_l3::ssymm(side, uplo, alpha, full.view(), b.view(), beta, c0.view());
    let bound = bounds::symm(side, uplo, alpha, a.view(), b.view(), beta, c.view());
    let f = metrics::forward_factor(&gc.to_array().unwrap(), &reference, &bound).unwrap();
    let what = format!(
        "resident ssymm {side:?} {uplo:?} {m}x{n} alpha={alpha} beta={beta} \
         col-major={col_major:?}"
    );
    assert!(f <= THRESHOLD, "{what}: factor {f}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), m in resident_dim(), n in resident_dim(),
                         s in 0usize..2, u in 0usize..2, alpha in -2.0f32..2.0,
                         beta in -2.0f32..2.0, cm in any::<[bool; 3]>()) {
        check_resident(seed, (m, n), SIDES[s], UPLOS[u], alpha, beta, cm);
    }
}

#[test]
fn resident_hand_values_nan_triangle_and_mixed_operands() {
    // A = [[1, 2], [2, 3]] stored in its upper triangle, NaN below (never read), on the device.
    let a = array![[1.0f32, 2.0], [f32::NAN, 3.0]];
    let b = array![[1.0f32, 1.0], [0.0, 1.0]];
    for col_major in [false, true] {
        let ga = upload(&a, col_major);
        // Left, host B, resident C (beta = 0: its NaNs are never read): A·B = [[1, 3], [2, 5]].
        let mut gc = upload(&Array2::from_elem((2, 2), f32::NAN), !col_major);
        blas::ssymm(ctx(), Side::Left, Uplo::Upper, 1.0, &ga, &b, 0.0, &mut gc).unwrap();
        assert_eq!(gc.to_array().unwrap(), array![[1.0, 3.0], [2.0, 5.0]]);
        // Right, resident B, the resident C as input: C ← 2·B·A − C = [[6, 10], [4, 6]] − C.
        let gb = upload(&b, col_major);
        blas::ssymm(
            ctx(),
            Side::Right,
            Uplo::Upper,
            2.0,
            &ga,
            &gb,
            -1.0,
            &mut gc,
        )
        .unwrap();
        assert_eq!(gc.to_array().unwrap(), array![[5.0, 7.0], [2.0, 1.0]]);
        // Resident A and B, host C.
        let mut hc = Array2::<f32>::zeros((2, 2));
        blas::ssymm(ctx(), Side::Right, Uplo::Upper, 1.0, &ga, &gb, 0.0, &mut hc).unwrap();
        assert_eq!(hc, array![[3.0, 5.0], [2.0, 3.0]]);
    }
}
