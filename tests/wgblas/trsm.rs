//! strsm: solve op(A)·X = alpha·B (Left) or X·op(A) = alpha·B (Right), B ← X, A triangular (NaN
//! in the other triangle, and on the diagonal for Diag::Unit). Metric: backward residual factor
//! ≤ 5 (DESIGN.md §2: `|op(A)·X − alpha·B| / (EPS·(r+1)·|op(A)|·|X|)`), on well- and
//! ill-conditioned triangles; OpenBLAS's own factor is reported beside it on failure.

use ndarray::{array, Array2};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::level3_common::*;
use crate::oracle_l3;

const THRESHOLD: f64 = 5.0;

/// A triangular operand of order `n`. Well-conditioned: diagonal magnitude in [1, 2] and
/// off-diagonal entries divided by `n` (κ∞ below ~10, unit diagonal included). Ill-conditioned:
/// off-diagonal magnitudes in [1e-3, 1] with a diagonal in [0.1, 1.1] up to order 65 and
/// [1, 2] above (so that X stays finite in f32), and for a unit diagonal off-diagonals in
/// [3e-3, 3] up to order 65: measured κ∞ 1e6–1e9 at orders 31/33, 1e12–1e18 at 65, 1e6–1e10
/// at 129 (`edge_well_and_ill_conditioned_every_flag` checks κ∞ ≥ 1e6).
fn operand(rng: &mut StdRng, n: usize, uplo: Uplo, diag: Diag, ill: bool) -> Array2<f32> {
    if ill {
        let lo = if n <= 65 { 0.1 } else { 1.0 };
        let mut a = tri_storage(rng, n, uplo, diag, lo);
        if diag == Diag::Unit && n <= 65 {
            // A unit diagonal with off-diagonals ≤ 1 is too tame below order 100.
            a.indexed_iter_mut()
                .filter(|((i, j), _)| i != j)
                .for_each(|(_, v)| *v *= 3.0);
        }
        a
    } else {
        let mut a = tri_storage(rng, n, uplo, diag, 1.0);
        for ((i, j), v) in a.indexed_iter_mut() {
            if i != j {
                *v /= n as f32;
            }
        }
        a
    }
}

/// κ∞(T) = ‖T‖∞·‖T⁻¹‖∞ of the triangle a `tri_storage` stands for, in f64.
fn cond_inf(a: &Array2<f32>, uplo: Uplo, diag: Diag) -> f64 {
    let t = tri_clean(a, uplo, diag).mapv(f64::from);
    let n = t.nrows();
    // Lower: solve column by column from the top; upper from the bottom.
    let order: Vec<usize> = match uplo {
        Uplo::Lower => (0..n).collect(),
        Uplo::Upper => (0..n).rev().collect(),
    };
    let mut inv = Array2::<f64>::zeros((n, n));
    for c in 0..n {
        for &i in &order {
            let mut s = if i == c { 1.0 } else { 0.0 };
            for j in 0..n {
                if j != i && in_triangle(uplo, i, j) {
                    s -= t[[i, j]] * inv[[j, c]];
                }
            }
            inv[[i, c]] = s / t[[i, i]];
        }
    }
    let norm = |m: &Array2<f64>| {
        m.rows()
            .into_iter()
            .map(|r| r.iter().map(|v| v.abs()).sum::<f64>())
            .fold(0.0, f64::max)
    };
    norm(&t) * norm(&inv)
}

/// The backward residual factor of the solution `x` of the call (inputs `a`, `b`).
#[allow(clippy::too_many_arguments)]
fn factor(
    side: Side,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    alpha: f32,
    a: &Array2<f32>,
    x: &Array2<f32>,
    b: &Array2<f32>,
) -> f64 {
    let res = metrics::trsm_residual(side, uplo, trans, diag, alpha, a.view(), x.view(), b.view())
        .unwrap();
    let bound = bounds::trsm(side, uplo, trans, diag, a.view(), x.view());
    metrics::backward_residual_factor(&res, &bound).unwrap()
}

/// Runs one call; returns the GPU's factor.
#[allow(clippy::too_many_arguments)]
fn check(
    seed: u64,
    (m, n): (usize, usize),
    side: Side,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    alpha: f32,
    ill: bool,
    layouts: [Layout; 2],
) -> f64 {
    let mut r = rng(seed);
    let order = if side == Side::Left { m } else { n };
    let a = operand(&mut r, order, uplo, diag, ill);
    let b = rand_mat(&mut r, m, n);
    let sa = Mat::new(&a, layouts[0]);
    let mut sb = Mat::new(&b, layouts[1]);
    let pad = sb.outside();
    blas::strsm(
        ctx(),
        side,
        uplo,
        trans,
        diag,
        alpha,
        sa.view(),
        sb.view_mut(),
    )
    .unwrap();
    let x = sb.to_owned();
    let f = factor(side, uplo, trans, diag, alpha, &a, &x, &b);
    let what = format!(
        "strsm {side:?} {uplo:?} {trans:?} {diag:?} {m}x{n} alpha={alpha} ill={ill} {layouts:?}"
    );
    if f > THRESHOLD {
        let clean = tri_clean(&a, uplo, diag);
        let xo = oracle_l3::strsm(side, uplo, trans, diag, alpha, clean.view(), b.view());
        let fo = factor(side, uplo, trans, diag, alpha, &a, &xo, &b);
        panic!(
            "{what}: backward residual factor {f} (OpenBLAS: {fo}, κ∞ {:.2e})",
            cond_inf(&a, uplo, diag)
        );
    }
    if alpha == 0.0 {
        assert!(
            x.iter().all(|&v| v == 0.0),
            "{what}: alpha = 0 must give X = 0"
        );
    }
    assert!(same_bits(&pad, &sb.outside()), "{what}: wrote outside B");
    f
}

#[test]
fn validation_a_not_square() {
    let a = Array2::<f32>::ones((3, 2));
    let mut b = Array2::<f32>::from_elem((3, 2), 9.0);
    let err = a
        .gpu_trsm_inplace(
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
                routine: "strsm",
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
    let err = blas::strsm(
        ctx(),
        Side::Right,
        Uplo::Lower,
        Transpose::No,
        Diag::NonUnit,
        1.0,
        a.view(),
        b.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "strsm",
                arg: "b",
                ..
            }
        ),
        "{err}"
    );
    let bt = Array2::<f32>::ones((2, 3));
    assert!(a
        .gpu_trsm(Side::Left, Uplo::Upper, Transpose::Yes, Diag::Unit, &bt)
        .is_err());
    assert_eq!(b, Array2::from_elem((3, 2), 9.0));
}

#[test]
fn validation_too_large_for_one_binding() {
    let limit = ctx().limits().max_storage_buffer_binding_size as usize;
    let a = Array2::<f32>::ones((1, 1));
    let mut b = Array2::<f32>::zeros((limit / 4 + 1, 1));
    b[[0, 0]] = 3.0;
    let err = a
        .gpu_trsm_inplace(
            Side::Right,
            Uplo::Upper,
            Transpose::No,
            Diag::NonUnit,
            2.0,
            &mut b,
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooLarge {
                routine: "strsm",
                arg: "b",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(b[[0, 0]], 3.0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), m in dim(), n in dim(), s in 0usize..2, u in 0usize..2,
                t in 0usize..2, d in 0usize..2, alpha in -2.0f32..2.0, ill in any::<bool>(),
                la in 0usize..4, lb in 0usize..4) {
        check(seed, (m, n), SIDES[s], UPLOS[u], TRANS[t], DIAGS[d], alpha, ill, [LAYOUTS[la], LAYOUTS[lb]]);
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
                                for ill in [false, true] {
                                    check(
                                        m as u64,
                                        (m, n),
                                        side,
                                        uplo,
                                        trans,
                                        diag,
                                        alpha,
                                        ill,
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
}

#[test]
fn edge_well_and_ill_conditioned_every_flag() {
    // Orders across the 32-row diagonal blocks and the 128 tile; κ∞ checked to be what the
    // test claims.
    let mut worst = (0.0f64, 0.0f64);
    for (order, rhs) in [(31, 7), (33, 65), (65, 16), (129, 17)] {
        for side in SIDES {
            for uplo in UPLOS {
                for trans in TRANS {
                    for diag in DIAGS {
                        for ill in [false, true] {
                            let (m, n) = if side == Side::Left {
                                (order, rhs)
                            } else {
                                (rhs, order)
                            };
                            let layouts = [Layout::F, Layout::C];
                            let f = check(
                                order as u64,
                                (m, n),
                                side,
                                uplo,
                                trans,
                                diag,
                                0.7,
                                ill,
                                layouts,
                            );
                            let a = operand(&mut rng(order as u64), order, uplo, diag, ill);
                            let kappa = cond_inf(&a, uplo, diag);
                            if ill {
                                assert!(
                                    kappa >= 1e6,
                                    "order {order} {diag:?}: κ∞ {kappa:.2e} is not ill-conditioned"
                                );
                                worst.1 = worst.1.max(f);
                            } else {
                                assert!(kappa <= 100.0, "order {order} {diag:?}: κ∞ {kappa:.2e} is not well-conditioned");
                                worst.0 = worst.0.max(f);
                            }
                        }
                    }
                }
            }
        }
    }
    println!(
        "strsm worst backward residual factor: well-conditioned {:.3}, ill-conditioned {:.3}",
        worst.0, worst.1
    );
}

#[test]
fn edge_mixed_and_strided_layouts() {
    for la in LAYOUTS {
        for lb in LAYOUTS {
            for side in SIDES {
                check(
                    19,
                    (33, 17),
                    side,
                    Uplo::Upper,
                    Transpose::Yes,
                    Diag::NonUnit,
                    1.0,
                    true,
                    [la, lb],
                );
            }
        }
    }
}

#[test]
fn edge_hand_values() {
    // T = [[2, 0], [1, 4]] (lower). T·X = B with B = [[2, 4], [9, 18]]: X = [[1, 2], [2, 4]].
    // Tᵀ·X = B with B = [[4, 8], [8, 16]]: X = [[1, 2], [2, 4]].
    // X·T = B with B = [[4, 4], [8, 8]]: X = [[1.5, 1], [3, 2]].
    let t = array![[2.0f32, f32::NAN], [1.0, 4.0]];
    let (l, lo, no) = (Side::Left, Uplo::Lower, Transpose::No);
    for layout in [Layout::C, Layout::F] {
        let st = Mat::new(&t, layout);
        let mut sb = Mat::new(&array![[2.0f32, 4.0], [9.0, 18.0]], layout);
        blas::strsm(
            ctx(),
            l,
            lo,
            no,
            Diag::NonUnit,
            1.0,
            st.view(),
            sb.view_mut(),
        )
        .unwrap();
        assert_eq!(sb.to_owned(), array![[1.0, 2.0], [2.0, 4.0]]);
        // alpha = 0.5 halves the right-hand side.
        let mut sb = Mat::new(&array![[8.0f32, 16.0], [16.0, 32.0]], layout);
        blas::strsm(
            ctx(),
            l,
            lo,
            Transpose::Yes,
            Diag::NonUnit,
            0.5,
            st.view(),
            sb.view_mut(),
        )
        .unwrap();
        assert_eq!(sb.to_owned(), array![[1.0, 2.0], [2.0, 4.0]]);
    }
    let b = array![[4.0f32, 4.0], [8.0, 8.0]];
    assert_eq!(
        t.gpu_trsm(Side::Right, lo, no, Diag::NonUnit, &b).unwrap(),
        array![[1.5, 1.0], [3.0, 2.0]]
    );
    // Unit diagonal, NaN there never read: [[1, 0], [3, 1]]·X = [[1], [5]] gives X = [[1], [2]].
    let tu = array![[f32::NAN, f32::NAN], [3.0f32, f32::NAN]];
    assert_eq!(
        tu.gpu_trsm(l, lo, no, Diag::Unit, &array![[1.0f32], [5.0]])
            .unwrap(),
        array![[1.0], [2.0]]
    );
}

#[test]
fn edge_alpha_zero_never_reads_a_or_b() {
    let nan = Array2::from_elem((2, 2), f32::NAN);
    let mut b = array![[f32::NAN, 1.0], [f32::INFINITY, 2.0]];
    nan.gpu_trsm_inplace(
        Side::Left,
        Uplo::Upper,
        Transpose::Yes,
        Diag::Unit,
        0.0,
        &mut b,
    )
    .unwrap();
    assert_eq!(b, Array2::zeros((2, 2)));
}

#[test]
fn edge_gpu_matches_openblas_on_a_well_conditioned_system() {
    // Forward agreement where the condition allows it (κ∞ < 10): a few ulps of |X|.
    let mut r = rng(23);
    let a = operand(&mut r, 70, Uplo::Upper, Diag::NonUnit, false);
    let b = rand_mat(&mut r, 70, 40);
    let x = a
        .gpu_trsm(Side::Left, Uplo::Upper, Transpose::Yes, Diag::NonUnit, &b)
        .unwrap();
    let clean = tri_clean(&a, Uplo::Upper, Diag::NonUnit);
    let xo = oracle_l3::strsm(
        Side::Left,
        Uplo::Upper,
        Transpose::Yes,
        Diag::NonUnit,
        1.0,
        clean.view(),
        b.view(),
    );
    let scale = xo.iter().fold(0f32, |m, v| m.max(v.abs()));
    let diff = (&x - &xo).iter().fold(0f32, |m, v| m.max(v.abs()));
    assert!(
        diff <= 64.0 * f32::EPSILON * scale,
        "max |X − X_openblas| = {diff}, max |X| = {scale}"
    );
}

/// The resident form: the same operands and backward-residual metric, through `GpuMatrix`es
/// (each operand row- or column-major; NaN outside the triangle and on a unit diagonal on the
/// device too), the residual computed on the read-back X.
#[allow(clippy::too_many_arguments)]
fn check_resident(
    seed: u64,
    (m, n): (usize, usize),
    side: Side,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    alpha: f32,
    ill: bool,
    col_major: [bool; 2],
) {
    let mut r = rng(seed);
    let order = if side == Side::Left { m } else { n };
    let a = operand(&mut r, order, uplo, diag, ill);
    let b = rand_mat(&mut r, m, n);
    let ga = upload(&a, col_major[0]);
    let mut gb = upload(&b, col_major[1]);
    blas::strsm(ctx(), side, uplo, trans, diag, alpha, &ga, &mut gb).unwrap();
    let x = gb.to_array().unwrap();
    let f = factor(side, uplo, trans, diag, alpha, &a, &x, &b);
    let what = format!(
        "resident strsm {side:?} {uplo:?} {trans:?} {diag:?} {m}x{n} alpha={alpha} ill={ill} \
         col-major={col_major:?}"
    );
    assert!(f <= THRESHOLD, "{what}: backward residual factor {f}");
    if alpha == 0.0 {
        assert!(
            x.iter().all(|&v| v == 0.0),
            "{what}: alpha = 0 must give X = 0"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), m in resident_dim(), n in resident_dim(),
                         s in 0usize..2, u in 0usize..2, t in 0usize..2, d in 0usize..2,
                         alpha in -2.0f32..2.0, ill in any::<bool>(), cm in any::<[bool; 2]>()) {
        check_resident(seed, (m, n), SIDES[s], UPLOS[u], TRANS[t], DIAGS[d], alpha, ill, cm);
    }
}

#[test]
fn resident_hand_values_mixed_operands_and_alpha_zero() {
    // Upper A = [[2, 1], [., 4]]; the NaN below the diagonal is never read.
    let a = array![[2.0f32, 1.0], [f32::NAN, 4.0]];
    let b = array![[4.0f32, 8.0], [8.0, 16.0]];
    for col_major in [false, true] {
        let ga = upload(&a, col_major);
        // X·A = B: X = [[2, 1.5], [4, 3]] (resident A and B).
        let mut gb = upload(&b, !col_major);
        blas::strsm(
            ctx(),
            Side::Right,
            Uplo::Upper,
            Transpose::No,
            Diag::NonUnit,
            1.0,
            &ga,
            &mut gb,
        )
        .unwrap();
        assert_eq!(gb.to_array().unwrap(), array![[2.0, 1.5], [4.0, 3.0]]);
        // A·X = 0.5·B with a host A: X = [[0.5, 1], [1, 2]] (resident B).
        let mut gb = upload(&b, col_major);
        blas::strsm(
            ctx(),
            Side::Left,
            Uplo::Upper,
            Transpose::No,
            Diag::NonUnit,
            0.5,
            &a,
            &mut gb,
        )
        .unwrap();
        assert_eq!(gb.to_array().unwrap(), array![[0.5, 1.0], [1.0, 2.0]]);
        // Resident A, host B: Aᵀ·X = B, Aᵀ = [[2, 0], [1, 4]]: X = [[2, 4], [1.5, 3]].
        let mut hb = b.clone();
        blas::strsm(
            ctx(),
            Side::Left,
            Uplo::Upper,
            Transpose::Yes,
            Diag::NonUnit,
            1.0,
            &ga,
            &mut hb,
        )
        .unwrap();
        assert_eq!(hb, array![[2.0, 4.0], [1.5, 3.0]]);
        // alpha = 0: a NaN resident B becomes zero on the device, A not read.
        let mut gb = upload(&Array2::from_elem((2, 3), f32::NAN), col_major);
        let nan = upload(&Array2::from_elem((2, 2), f32::NAN), col_major);
        blas::strsm(
            ctx(),
            Side::Left,
            Uplo::Lower,
            Transpose::No,
            Diag::Unit,
            0.0,
            &nan,
            &mut gb,
        )
        .unwrap();
        assert_eq!(gb.to_array().unwrap(), Array2::<f32>::zeros((2, 3)));
    }
}

#[test]
fn resident_trmm_then_trsm_chain_is_one_submission() {
    // B ← A·B, then solve A·X = B: X is the original B, exactly (small integers and halves).
    // A fresh context, so no other test's calls count.
    let own = wgblas::Context::new().unwrap();
    let a = array![[2.0f32, 1.0], [f32::NAN, 4.0]];
    let b = array![[1.0f32, 2.0], [3.0, 4.0]];
    let ga = own.upload_matrix(&a).unwrap();
    let mut gb = own.upload_matrix(&b.t().to_owned()).unwrap();
    // gb holds Bᵀ; work on its transpose through Side::Right: Bᵀ·Aᵀ = (A·B)ᵀ.
    let s0 = own.submissions();
    let flags = (Side::Right, Uplo::Upper, Transpose::Yes, Diag::NonUnit);
    blas::strmm(&own, flags.0, flags.1, flags.2, flags.3, 1.0, &ga, &mut gb).unwrap();
    blas::strsm(&own, flags.0, flags.1, flags.2, flags.3, 1.0, &ga, &mut gb).unwrap();
    assert_eq!(
        own.submissions(),
        s0,
        "resident-only calls must be held back"
    );
    assert_eq!(gb.to_array().unwrap(), b.t());
    assert_eq!(own.submissions(), s0 + 1, "one submission for the chain");
}

/// Both substitution orders of the diagonal-block solve (column-oriented, the default, and
/// row-oriented, pinned through the tuning override), with the recursive splitting of 100 and
/// 129 rows into 32-row blocks and engine updates, well and ill conditioned, every flag.
#[test]
fn edge_row_and_column_oriented_block_solves() {
    use wgblas::tuning::{set_tuning, Tuning};
    for columns in [false, true] {
        set_tuning(Some(Tuning {
            trsm_columns: Some(columns),
            ..Tuning::default()
        }));
        for (order, rhs) in [(100, 9), (129, 70)] {
            for side in SIDES {
                for uplo in UPLOS {
                    for trans in TRANS {
                        for diag in DIAGS {
                            for ill in [false, true] {
                                let (m, n) = if side == Side::Left {
                                    (order, rhs)
                                } else {
                                    (rhs, order)
                                };
                                let layouts = [Layout::C, Layout::F];
                                check(5, (m, n), side, uplo, trans, diag, 0.9, ill, layouts);
                            }
                        }
                    }
                }
            }
        }
    }
    set_tuning(None);
}
