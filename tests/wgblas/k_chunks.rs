//! Products whose k runs over several dispatches (16,384 of k per dispatch on the tile kernel,
//! 4,096 on the small-product kernel; `Tuning::k_chunk` lowers the first to take the path at
//! small sizes): alpha scales the whole sum once, `alpha·(A·B)`, as in one dispatch, whatever
//! k (DESIGN.md §3: the result does not depend on how the loops are cut). Hand-computed, with
//! operands whose chunks' sums differ in kind: `A = e_k` (the last column only), so that
//! alpha = Inf gives Inf·1 = Inf, where scaling each chunk gave Inf·0 + Inf·1 = NaN; and rows
//! `[4, 0, …, 0, 1]`, `[1, 0, …, 0, −3.5]`, whose product is 0.5, so that alpha = 1e38 gives
//! 5e37, where each chunk scaled apart overflowed to Inf − Inf = NaN (an outside probe found
//! both on ssyrk, sgemmtr and sgemm_batched past k = 16,384 and 4,096).

use ndarray::{Array2, Array3, ShapeBuilder};
use wgblas::tuning::{set_tuning, Tuning};
use wgblas::{blas, Side, Transpose::No, Transpose::Yes, Uplo};

use crate::common::*;

/// 1×k: e_k (1 at the end).
fn last(k: usize) -> Array2<f32> {
    let mut a = Array2::zeros((1, k));
    a[[0, k - 1]] = 1.0;
    a
}

/// 2×k: rows [4, 0, …, 0, 1] and [1, 0, …, 0, −3.5] (their dot product 0.5, each square 17
/// and 13.25).
fn cancelling(k: usize) -> Array2<f32> {
    let mut a = Array2::zeros((2, k));
    a[[0, 0]] = 4.0;
    a[[0, k - 1]] = 1.0;
    a[[1, 0]] = 1.0;
    a[[1, k - 1]] = -3.5;
    a
}

/// Run `f` with k cut into dispatches of 64 (and split-k off, so that a plain product is cut
/// too), or with the engine's own choices.
fn with_chunks<R>(small: bool, f: impl FnOnce() -> R) -> R {
    if small {
        set_tuning(Some(Tuning {
            k_chunk: Some(64),
            split: Some(1),
            ..Tuning::default()
        }));
    }
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    set_tuning(None);
    r.unwrap_or_else(|e| std::panic::resume_unwind(e))
}

#[test]
fn alpha_scales_the_whole_sum_of_the_symmetric_products() {
    // (tuned chunks of 64, k = 200) and the real limit (k = 16,385).
    for (small, k) in [(true, 200), (false, 16_385)] {
        with_chunks(small, || {
            let (e, a) = (last(k), cancelling(k));
            for uplo in [Uplo::Upper, Uplo::Lower] {
                let what = format!("k = {k}, {uplo:?}");
                let mut c = Array2::<f32>::zeros((1, 1));
                blas::ssyrk(ctx(), uplo, No, f32::INFINITY, e.view(), 0.0, c.view_mut()).unwrap();
                assert_eq!(c[[0, 0]], f32::INFINITY, "ssyrk {what}");
                let mut c = Array2::<f32>::zeros((2, 2));
                blas::ssyrk(ctx(), uplo, No, 1e38, a.view(), 0.0, c.view_mut()).unwrap();
                let off = if uplo == Uplo::Upper {
                    c[[0, 1]]
                } else {
                    c[[1, 0]]
                };
                assert_eq!(off, 5e37, "ssyrk {what}");
                let mut c = Array2::<f32>::zeros((2, 2));
                let at = a.t();
                blas::sgemmtr(ctx(), uplo, No, No, 1e38, a.view(), at, 0.0, c.view_mut()).unwrap();
                let off = if uplo == Uplo::Upper {
                    c[[0, 1]]
                } else {
                    c[[1, 0]]
                };
                assert_eq!(off, 5e37, "sgemmtr {what}");
                // alpha·A·Bᵀ + alpha·B·Aᵀ with A = e_k and B = 0.5·e_k: Inf·0.5 + Inf·0.5.
                let b = e.mapv(|v| 0.5 * v);
                let mut c = Array2::<f32>::zeros((1, 1));
                blas::ssyr2k(
                    ctx(),
                    uplo,
                    No,
                    f32::INFINITY,
                    e.view(),
                    b.view(),
                    0.0,
                    c.view_mut(),
                )
                .unwrap();
                assert_eq!(c[[0, 0]], f32::INFINITY, "ssyr2k {what}");
            }
        });
    }
}

#[test]
fn alpha_scales_the_whole_sum_of_general_and_triangular_products() {
    with_chunks(true, || {
        let k = 200;
        let (e, a) = (last(k), cancelling(k));
        let mut c = Array2::<f32>::from_elem((1, 1), f32::NAN);
        blas::sgemm(
            ctx(),
            No,
            Yes,
            f32::INFINITY,
            e.view(),
            e.view(),
            0.0,
            c.view_mut(),
        )
        .unwrap();
        assert_eq!(c[[0, 0]], f32::INFINITY, "sgemm");
        let mut c = Array2::<f32>::zeros((2, 2));
        blas::sgemm(ctx(), No, Yes, 1e38, a.view(), a.view(), 0.5, c.view_mut()).unwrap();
        assert_eq!(c[[0, 1]], 5e37, "sgemm");
        // beta applied once, after: 1e38·17 overflows, beta·C = 0.5·2 = 1 added.
        let mut c = Array2::<f32>::from_elem((2, 2), 2.0);
        blas::sgemm(ctx(), No, Yes, 1.0, a.view(), a.view(), 0.5, c.view_mut()).unwrap();
        assert_eq!(c, ndarray::array![[18.0, 1.5], [1.5, 14.25]], "sgemm beta");
        // B ← Inf·(I·B) with B = ones: Inf everywhere (each chunk's sum without the diagonal
        // is 0, and was scaled to NaN), on both sides and in both orders of B.
        let n = 200;
        let eye = Array2::<f32>::eye(n);
        for side in [Side::Left, Side::Right] {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                for f_order in [false, true] {
                    let mut b = Array2::<f32>::ones((n, 7));
                    if side == Side::Right {
                        b = Array2::ones((7, n));
                    }
                    if f_order {
                        let mut f = Array2::zeros(b.dim().f());
                        f.assign(&b);
                        b = f;
                    }
                    let what = format!("{side:?} {uplo:?} F order {f_order}");
                    let diag = wgblas::Diag::NonUnit;
                    blas::strmm(
                        ctx(),
                        side,
                        uplo,
                        No,
                        diag,
                        f32::INFINITY,
                        eye.view(),
                        b.view_mut(),
                    )
                    .unwrap();
                    assert!(b.iter().all(|&v| v == f32::INFINITY), "strmm {what}: {b:?}");
                }
            }
        }
        // ssymm: alpha·(S·B) with S = I, B = ones.
        for side in [Side::Left, Side::Right] {
            let b = if side == Side::Left {
                Array2::<f32>::ones((n, 3))
            } else {
                Array2::<f32>::ones((3, n))
            };
            let mut c = Array2::<f32>::zeros(b.raw_dim());
            blas::ssymm(
                ctx(),
                side,
                Uplo::Lower,
                f32::INFINITY,
                eye.view(),
                b.view(),
                0.0,
                c.view_mut(),
            )
            .unwrap();
            assert!(
                c.iter().all(|&v| v == f32::INFINITY),
                "ssymm {side:?}: {c:?}"
            );
        }
    });
}

#[test]
fn alpha_scales_the_whole_sum_of_batched_products() {
    // The small-product kernel cuts k at 4,096; the tile kernel (m, n > 32) at the tuned 64.
    for (small, k, m) in [(false, 4097, 2), (true, 200, 40)] {
        with_chunks(small, || {
            let batch = 3;
            let mut a = Array3::<f32>::zeros((batch, m, k));
            for z in 0..batch {
                a.slice_mut(ndarray::s![z, 0..2, ..]).assign(&cancelling(k));
            }
            let b = a.clone().permuted_axes([0, 2, 1]);
            let mut c = Array3::<f32>::zeros((batch, m, m));
            blas::sgemm_batched(ctx(), No, No, 1e38, a.view(), b.view(), 0.0, c.view_mut())
                .unwrap();
            for z in 0..batch {
                assert_eq!(c[[z, 0, 1]], 5e37, "k = {k}, m = {m}, product {z}");
                assert_eq!(c[[z, 1, 0]], 5e37, "k = {k}, m = {m}, product {z}");
            }
        });
    }
}

#[test]
fn alpha_scales_the_whole_sum_in_f64() {
    if !ctx().native_f64() {
        panic!("the f64 tests need an adapter with SHADER_F64 (lavapipe has it)");
    }
    with_chunks(true, || {
        let k = 200;
        let a = cancelling(k).mapv(f64::from);
        let mut c = Array2::<f64>::zeros((2, 2));
        blas::dgemm(ctx(), No, Yes, 1e308, a.view(), a.view(), 0.0, c.view_mut()).unwrap();
        assert_eq!(c[[0, 1]], 5e307, "dgemm");
        for uplo in [Uplo::Upper, Uplo::Lower] {
            let mut c = Array2::<f64>::zeros((2, 2));
            blas::dsyrk(ctx(), uplo, No, 1e308, a.view(), 0.0, c.view_mut()).unwrap();
            let off = if uplo == Uplo::Upper {
                c[[0, 1]]
            } else {
                c[[1, 0]]
            };
            assert_eq!(off, 5e307, "dsyrk {uplo:?}");
        }
        let e = last(k).mapv(f64::from);
        let d = crate::common::dev64(f64::INFINITY);
        let mut c = Array2::<f64>::zeros((1, 1));
        blas::dsyrk(ctx(), Uplo::Upper, No, &d, e.view(), 0.0, c.view_mut()).unwrap();
        assert_eq!(c[[0, 0]], f64::INFINITY, "dsyrk, device alpha");
    });
}
