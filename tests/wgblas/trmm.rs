//! strmm: B ← alpha·op(A)·B (Left) or alpha·B·op(A) (Right), A triangular (NaN in the other
//! triangle, and on the diagonal for Diag::Unit). Metric: forward factor ≤ 1 (DESIGN.md §2)
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
    trans: Transpose,
    diag: Diag,
    alpha: f32,
    layouts: [Layout; 2],
) {
    check_on(ctx(), seed, dims, side, uplo, trans, diag, alpha, layouts);
}

/// [`check`] on the context `cx`.
#[allow(clippy::too_many_arguments)]
pub fn check_on(
    cx: &wgblas::Context,
    seed: u64,
    (m, n): (usize, usize),
    side: Side,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    alpha: f32,
    layouts: [Layout; 2],
) {
    let mut r = rng(seed);
    let order = if side == Side::Left { m } else { n };
    let a = tri_storage(&mut r, order, uplo, diag, 1e-3);
    let b = rand_mat(&mut r, m, n);
    let sa = Mat::new(&a, layouts[0]);
    let mut sb = Mat::new(&b, layouts[1]);
    let pad = sb.outside();
    blas::strmm(cx, side, uplo, trans, diag, alpha, sa.view(), sb.view_mut()).unwrap();
    let clean = tri_clean(&a, uplo, diag);
    let reference = oracle_l3::strmm(side, uplo, trans, diag, alpha, clean.view(), b.view());
    let bound = bounds::trmm(side, uplo, trans, diag, alpha, a.view(), b.view());
    let f = metrics::forward_factor(&sb.to_owned(), &reference, &bound).unwrap();
    let what =
        format!("strmm {side:?} {uplo:?} {trans:?} {diag:?} {m}x{n} alpha={alpha} {layouts:?}");
    assert!(f <= THRESHOLD, "{what}: factor {f}");
    assert!(same_bits(&pad, &sb.outside()), "{what}: wrote outside B");
}

#[test]
fn validation_a_not_square() {
    let a = Array2::<f32>::ones((3, 2));
    let mut b = Array2::<f32>::from_elem((3, 2), 9.0);
    let err = a
        .gpu_trmm_inplace(
            Side::Left,
            Uplo::Lower,
            Transpose::No,
            Diag::NonUnit,
            1.0,
            &mut b,
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::NotSquare {
                routine: "strmm",
                arg: "a",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(b, Array2::from_elem((3, 2), 9.0));
}

#[test]
fn validation_dimension_mismatch() {
    let a = Array2::<f32>::ones((3, 3));
    let mut b = Array2::<f32>::from_elem((3, 2), 9.0);
    let err = blas::strmm(
        ctx(),
        Side::Right,
        Uplo::Upper,
        Transpose::Yes,
        Diag::Unit,
        1.0,
        a.view(),
        b.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "strmm",
                arg: "b",
                ..
            }
        ),
        "{err}"
    );
    let bt = Array2::<f32>::ones((2, 3));
    assert!(a
        .gpu_trmm(Side::Left, Uplo::Lower, Transpose::No, Diag::NonUnit, &bt)
        .is_err());
    assert_eq!(b, Array2::from_elem((3, 2), 9.0));
}

#[test]
fn past_one_binding() {
    // A of side² f32 past one binding, upper with a unit diagonal (NaN below and on the
    // diagonal, never read): square blocks, those below the diagonal skipped (issue 15).
    // B ← 2·A·B with A_ij = 1 above the diagonal and B = 1: 2·(side − i), exact.
    let limit = ctx().limits().max_storage_buffer_binding_size as usize;
    let side = ((limit / 4) as f64).sqrt() as usize + 1;
    let a = Array2::from_shape_fn((side, side), |(i, j)| if i < j { 1.0f32 } else { f32::NAN });
    let mut b = Array2::<f32>::ones((side, 1));
    a.gpu_trmm_inplace(
        Side::Left,
        Uplo::Upper,
        Transpose::No,
        Diag::Unit,
        2.0,
        &mut b,
    )
    .unwrap();
    assert!(b
        .iter()
        .enumerate()
        .all(|(i, &v)| v == 2.0 * (side - i) as f32));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), m in dim(), n in dim(), s in 0usize..2, u in 0usize..2,
                t in 0usize..2, d in 0usize..2, alpha in -2.0f32..2.0,
                la in 0usize..4, lb in 0usize..4) {
        check(seed, (m, n), SIDES[s], UPLOS[u], TRANS[t], DIAGS[d], alpha, [LAYOUTS[la], LAYOUTS[lb]]);
    }
}

#[test]
fn edge_netlib_values_every_flag_in_c_and_f_order() {
    for layout in [Layout::C, Layout::F] {
        for (i, m) in NETLIB_N.into_iter().enumerate() {
            let n = NETLIB_N[(i + 2) % 6];
            for side in SIDES {
                for uplo in UPLOS {
                    for trans in TRANS {
                        for diag in DIAGS {
                            for alpha in ALPHAS {
                                check(
                                    m as u64,
                                    (m, n),
                                    side,
                                    uplo,
                                    trans,
                                    diag,
                                    alpha,
                                    [layout; 2],
                                );
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
    // 127/128/129: the triangular k range starts or ends inside / at / past a 128 tile.
    for m in [15, 16, 17, 127, 128, 129] {
        for side in SIDES {
            for uplo in UPLOS {
                for trans in TRANS {
                    check(
                        m as u64,
                        (m, 9),
                        side,
                        uplo,
                        trans,
                        Diag::NonUnit,
                        0.7,
                        [Layout::C, Layout::F],
                    );
                }
            }
        }
    }
}

#[test]
fn edge_mixed_and_strided_layouts() {
    for la in LAYOUTS {
        for lb in LAYOUTS {
            for side in SIDES {
                check(
                    17,
                    (17, 16),
                    side,
                    Uplo::Lower,
                    Transpose::Yes,
                    Diag::Unit,
                    1.0,
                    [la, lb],
                );
            }
        }
    }
}

#[test]
fn edge_hand_values() {
    // T = [[2, 1], [0, 3]] (upper); unit: [[1, 1], [0, 1]]. B = [[1, 2], [3, 4]].
    // T·B = [[5, 8], [9, 12]], Tᵀ·B = [[2, 4], [10, 14]], B·T = [[2, 7], [6, 15]].
    let t = array![[2.0f32, 1.0], [f32::NAN, 3.0]];
    let b = array![[1.0f32, 2.0], [3.0, 4.0]];
    let (l, u, no, yes) = (Side::Left, Uplo::Upper, Transpose::No, Transpose::Yes);
    for layout in [Layout::C, Layout::F] {
        let st = Mat::new(&t, layout);
        let mut sb = Mat::new(&b, layout);
        blas::strmm(
            ctx(),
            l,
            u,
            no,
            Diag::NonUnit,
            1.0,
            st.view(),
            sb.view_mut(),
        )
        .unwrap();
        assert_eq!(sb.to_owned(), array![[5.0, 8.0], [9.0, 12.0]]);
        let mut sb = Mat::new(&b, layout);
        blas::strmm(
            ctx(),
            l,
            u,
            yes,
            Diag::NonUnit,
            1.0,
            st.view(),
            sb.view_mut(),
        )
        .unwrap();
        assert_eq!(sb.to_owned(), array![[2.0, 4.0], [10.0, 14.0]]);
    }
    assert_eq!(
        t.gpu_trmm(Side::Right, u, no, Diag::NonUnit, &b).unwrap(),
        array![[2.0, 7.0], [6.0, 15.0]]
    );
    // Unit diagonal: NaN there is never read. [[1, 1], [0, 1]]·B = [[4, 6], [3, 4]].
    let tu = array![[f32::NAN, 1.0], [f32::NAN, f32::NAN]];
    assert_eq!(
        tu.gpu_trmm(l, u, no, Diag::Unit, &b).unwrap(),
        array![[4.0, 6.0], [3.0, 4.0]]
    );
}

#[test]
fn edge_alpha_zero_never_reads_a_or_b() {
    let nan = Array2::from_elem((2, 2), f32::NAN);
    let mut b = array![[f32::NAN, 1.0], [f32::INFINITY, 2.0]];
    nan.gpu_trmm_inplace(
        Side::Right,
        Uplo::Lower,
        Transpose::No,
        Diag::NonUnit,
        0.0,
        &mut b,
    )
    .unwrap();
    assert_eq!(b, Array2::zeros((2, 2)));
}

/// The resident form: the same fixtures, oracle and metric through `GpuMatrix`es (each operand
/// row- or column-major; NaN outside the triangle and on a unit diagonal on the device too).
#[allow(clippy::too_many_arguments)]
fn check_resident(
    seed: u64,
    (m, n): (usize, usize),
    side: Side,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    alpha: f32,
    col_major: [bool; 2],
) {
    let mut r = rng(seed);
    let order = if side == Side::Left { m } else { n };
    let a = tri_storage(&mut r, order, uplo, diag, 1e-3);
    let b = rand_mat(&mut r, m, n);
    let ga = upload(&a, col_major[0]);
    let mut gb = upload(&b, col_major[1]);
    blas::strmm(ctx(), side, uplo, trans, diag, alpha, &ga, &mut gb).unwrap();
    let clean = tri_clean(&a, uplo, diag);
    let reference = oracle_l3::strmm(side, uplo, trans, diag, alpha, clean.view(), b.view());
    let bound = bounds::trmm(side, uplo, trans, diag, alpha, a.view(), b.view());
    let f = metrics::forward_factor(&gb.to_array().unwrap(), &reference, &bound).unwrap();
    let what = format!(
        "resident strmm {side:?} {uplo:?} {trans:?} {diag:?} {m}x{n} alpha={alpha} \
         col-major={col_major:?}"
    );
    assert!(f <= THRESHOLD, "{what}: factor {f}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), m in resident_dim(), n in resident_dim(),
                         s in 0usize..2, u in 0usize..2, t in 0usize..2, d in 0usize..2,
                         alpha in -2.0f32..2.0, cm in any::<[bool; 2]>()) {
        check_resident(seed, (m, n), SIDES[s], UPLOS[u], TRANS[t], DIAGS[d], alpha, cm);
    }
}

#[test]
fn resident_hand_values_mixed_operands() {
    // Lower triangle with a unit diagonal: [[1, 0], [3, 1]]; the NaNs are never read.
    let a = array![[f32::NAN, f32::NAN], [3.0f32, f32::NAN]];
    let b = array![[1.0f32, 2.0], [3.0, 4.0]];
    for col_major in [false, true] {
        let ga = upload(&a, col_major);
        // Left, resident A and B: 2·A·B = [[2, 4], [12, 20]].
        let mut gb = upload(&b, !col_major);
        blas::strmm(
            ctx(),
            Side::Left,
            Uplo::Lower,
            Transpose::No,
            Diag::Unit,
            2.0,
            &ga,
            &mut gb,
        )
        .unwrap();
        assert_eq!(gb.to_array().unwrap(), array![[2.0, 4.0], [12.0, 20.0]]);
        // Right, host A as `.t()` of the upper storage, resident B: B·A = [[7, 2], [15, 4]].
        let at = a.t().to_owned();
        let mut gb = upload(&b, col_major);
        blas::strmm(
            ctx(),
            Side::Right,
            Uplo::Upper,
            Transpose::Yes,
            Diag::Unit,
            1.0,
            &at,
            &mut gb,
        )
        .unwrap();
        assert_eq!(gb.to_array().unwrap(), array![[7.0, 2.0], [15.0, 4.0]]);
        // Resident A, host B.
        let mut hb = b.clone();
        blas::strmm(
            ctx(),
            Side::Right,
            Uplo::Lower,
            Transpose::No,
            Diag::Unit,
            1.0,
            &ga,
            &mut hb,
        )
        .unwrap();
        assert_eq!(hb, array![[7.0, 2.0], [15.0, 4.0]]);
    }
}

#[test]
fn resident_alpha_zero_zeroes_b_on_the_device_and_checks_the_context() {
    let nan = Array2::from_elem((3, 2), f32::NAN);
    let a = Array2::from_elem((3, 3), f32::NAN);
    for col_major in [false, true] {
        let ga = upload(&a, col_major);
        let mut gb = upload(&nan, col_major);
        blas::strmm(
            ctx(),
            Side::Left,
            Uplo::Upper,
            Transpose::No,
            Diag::NonUnit,
            0.0,
            &ga,
            &mut gb,
        )
        .unwrap();
        assert_eq!(gb.to_array().unwrap(), Array2::<f32>::zeros((3, 2)));
    }
    // A resident B of another context is refused even where it would only be zeroed, and is
    // left as it was.
    let own = wgblas::Context::new().unwrap();
    let mut gb = own.upload_matrix(&array![[1.0f32, 2.0]]).unwrap();
    let err = blas::strmm(
        ctx(),
        Side::Right,
        Uplo::Upper,
        Transpose::No,
        Diag::NonUnit,
        0.0,
        &array![[1.0f32, 2.0], [0.0, 1.0]],
        &mut gb,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidArgument {
                routine: "strmm",
                arg: "b",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(gb.to_array().unwrap(), array![[1.0, 2.0]]);
}

#[test]
fn resident_threads_reusing_pooled_buffers_keep_queue_order() {
    // Each call uploads a host A into a pooled buffer and computes into a pooled scratch, both
    // returned to the pool while the commands that read them are still held back; other threads
    // take those buffers at once. Small integers: every product is exact.
    let handles: Vec<_> = (0..8)
        .map(|t| {
            std::thread::spawn(move || {
                for it in 0..40 {
                    let s = (t * 31 + it) as f32;
                    let a = Array2::from_shape_fn((8, 8), |(i, j)| {
                        if i <= j {
                            ((i + 2 * j) % 5) as f32 + 1.0
                        } else {
                            f32::NAN
                        }
                    });
                    let b = Array2::from_shape_fn((8, 6), |(i, j)| ((i * 7 + j) % 4) as f32 + s);
                    let mut gb = upload(&b, it % 2 == 0);
                    blas::strmm(
                        ctx(),
                        Side::Left,
                        Uplo::Upper,
                        Transpose::No,
                        Diag::NonUnit,
                        1.0,
                        &a,
                        &mut gb,
                    )
                    .unwrap();
                    let expected = tri_clean(&a, Uplo::Upper, Diag::NonUnit).dot(&b);
                    assert_eq!(gb.to_array().unwrap(), expected, "thread {t} call {it}");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

/// Products with the unreferenced triangle are not part of the formula: an Inf of B that only
/// the zero triangle of A would meet stays out of C (DESIGN.md §3), on the engine's edge path
/// (3×3) and on whole tiles (128×128, vec4 staging). Hand-computed: A lower with A_ii = 2 on the
/// diagonal and 1 below it, B = ones with B(n−1, 0) = Inf: X(i, 0) = 2 + i for i < n − 1,
/// X(n−1, 0) = Inf.
#[test]
fn edge_inf_in_b_does_not_meet_the_unreferenced_triangle() {
    for n in [3usize, 128] {
        let a = Array2::from_shape_fn((n, n), |(i, j)| {
            if i == j {
                2.0f32
            } else if i > j {
                1.0
            } else {
                f32::NAN
            }
        });
        let mut b = Array2::<f32>::ones((n, n));
        b[[n - 1, 0]] = f32::INFINITY;
        blas::strmm(
            ctx(),
            Side::Left,
            Uplo::Lower,
            Transpose::No,
            Diag::NonUnit,
            1.0,
            a.view(),
            b.view_mut(),
        )
        .unwrap();
        for i in 0..n - 1 {
            assert_eq!(b[[i, 0]], 2.0 + i as f32, "n = {n}, row {i}");
        }
        assert_eq!(b[[n - 1, 0]], f32::INFINITY);
    }
}
