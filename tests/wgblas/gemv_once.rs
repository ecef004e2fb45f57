//! `gemv_coldot_once` (lab `set_gemv_one_pass`, issue 12): the f32 matrix-vector products whose
//! op(A) has contiguous columns (sgemv No-trans on F order, Trans on C order; strmv there),
//! over several column chunks in one dispatch, the last workgroup of each row block adding the
//! chunks' sums. Pinned against OpenBLAS with the DESIGN.md §2 metric (shapes with one row block
//! and many chunks, several row blocks, rows not a multiple of 4, reversed and strided vectors),
//! seen to run as one dispatch (no `gemv_finish`) where it applies, and against hand-computed
//! special values (DESIGN.md §3) with host and device scalars; calls one after the other (the
//! row blocks' counters go back to 0 after each dispatch) and a chain of resident calls.

use ndarray::{Array1, Array2, ShapeBuilder};
use wgblas::{blas, lab, Context, Diag, GpuVector, Transpose, Uplo};

use crate::common::*;

/// Run `f` with the one-pass kernel on, holding the lab switches, back to the default after.
fn with_one_pass(f: impl FnOnce()) {
    let _guard = lab_defaults();
    lab::set_gemv_one_pass(true);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    lab::set_gemv_one_pass(false);
    if let Err(e) = r {
        std::panic::resume_unwind(e);
    }
}

/// Shapes (m, n) of op(A) with several chunks: one row block and 156 chunks, 3 row blocks and
/// 93 chunks, 12 and 18, a short-wide 4×20,001, rows not a multiple of 4.
const SHAPES: [(usize, usize); 5] = [
    (64, 20_001),
    (600, 3000),
    (3000, 600),
    (4, 20_001),
    (257, 2055),
];

#[test]
fn gemv_once_against_openblas() {
    with_one_pass(|| {
        for (k, &(m, n)) in SHAPES.iter().enumerate() {
            for (t, la) in [(Transpose::No, Layout::F), (Transpose::Yes, Layout::C)] {
                for (alpha, beta) in [(1.0, 0.0), (0.7, 0.9)] {
                    let (u, seed) = (VLayout::Unit, k as u64);
                    crate::gemv::check_on(ctx(), seed, (m, n), t, alpha, beta, la, u, u);
                }
                let (r, s2) = (VLayout::Reversed, VLayout::Step2);
                crate::gemv::check_on(ctx(), k as u64 + 50, (m, n), t, -1.1, 0.5, la, r, s2);
            }
        }
        for (k, &n) in [600usize, 2001].iter().enumerate() {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                for diag in [Diag::NonUnit, Diag::Unit] {
                    for (t, la) in [(Transpose::No, Layout::F), (Transpose::Yes, Layout::C)] {
                        let v = VLayout::Unit;
                        crate::trmv::check_on(ctx(), k as u64, n, uplo, t, diag, la, v);
                    }
                }
            }
        }
    });
}

/// Dispatches of one sgemv call `y = A·x` on `own` (resident operands: no upload's copy),
/// counted once submitted.
fn dispatches_of(own: &Context, a: &Array2<f32>, trans: Transpose) -> u64 {
    let ga = own.upload_matrix(a).unwrap();
    let n = if trans == Transpose::No {
        a.ncols()
    } else {
        a.nrows()
    };
    let m = if trans == Transpose::No {
        a.nrows()
    } else {
        a.ncols()
    };
    let gx = own.upload_vector(&Array1::<f32>::ones(n)).unwrap();
    let mut gy = GpuVector::<f32>::zeros(own, m).unwrap();
    gy.to_array().unwrap();
    let before = own.dispatches();
    blas::sgemv(own, trans, 1.0, &ga, &gx, 0.0, &mut gy).unwrap();
    // The read-back submits what the call recorded.
    gy.to_array().unwrap();
    own.dispatches() - before
}

#[test]
fn gemv_once_is_one_dispatch() {
    let own = Context::new().unwrap();
    // Trans on C order (op(A)'s columns contiguous), 64×20,001: many chunks.
    let a = Array2::<f32>::ones((20_001, 64));
    let two = dispatches_of(&own, &a, Transpose::Yes);
    let one = {
        let mut d = 0;
        with_one_pass(|| d = dispatches_of(&own, &a, Transpose::Yes));
        d
    };
    assert_eq!(
        (two, one),
        (2, 1),
        "gemv_coldot + gemv_finish, then gemv_coldot_once"
    );
}

/// Small integers in −2..=2, varied by `seed`: every finite sum here exact.
fn ints(n: usize, seed: usize) -> Array1<f32> {
    Array1::from_shape_fn(n, |i| ((i * 7 + seed * 3) % 5) as f32 - 2.0)
}

#[test]
fn gemv_once_special_values_host_and_device() {
    with_one_pass(|| {
        let (m, n) = (9usize, 5000usize);
        // op(A) = Aᵀ of a C-order n×m A; the same operator in F order for No-trans.
        let a = Array2::from_shape_fn((n, m), |(j, i)| ((i + 3 * j) % 5) as f32 - 2.0);
        let mut fa = Array2::zeros((m, n).f());
        fa.assign(&a.t());
        let x = ints(n, 1);
        let y0 = ints(m, 2);
        let want = |alpha: f32, beta: f32| {
            Array1::from_shape_fn(m, |i| {
                let s: f32 = (0..n).map(|j| a[[j, i]] * x[j]).sum();
                alpha * s + beta * y0[i]
            })
        };
        let run = |alpha: f32, beta: f32, aa: &Array2<f32>, t: Transpose, y: &mut Array1<f32>| {
            blas::sgemv(ctx(), t, alpha, aa, &x, beta, y).unwrap()
        };
        for (alpha, beta) in [(2.0, -1.0), (1.0, 0.0), (-0.5, 1.0)] {
            for (aa, t) in [(&a, Transpose::Yes), (&fa, Transpose::No)] {
                let mut y = y0.clone();
                run(alpha, beta, aa, t, &mut y);
                assert_same(&y, &want(alpha, beta), &format!("{alpha} {beta} {t:?}"));
                // Device scalars: the same bits.
                let mut yd = y0.clone();
                let (da, db) = (dev32(alpha), dev32(beta));
                blas::sgemv(ctx(), t, &da, aa, &x, &db, &mut yd).unwrap();
                assert_eq!(y, yd, "device scalars {alpha} {beta} {t:?}");
            }
        }
        // alpha = 0 reads neither A nor x (NaN in both): y = beta·y; beta = 0 never reads y
        // (NaN there); a NaN alpha is not 0.
        let mut an = a.clone();
        an[[17, 3]] = f32::NAN;
        let mut xn = x.clone();
        xn[4000] = f32::NAN;
        for alpha in [0.0f32, f32::NAN] {
            for dev in [false, true] {
                let mut y = y0.clone();
                if dev {
                    let (da, db) = (dev32(alpha), dev32(3.0));
                    blas::sgemv(ctx(), Transpose::Yes, &da, &an, &xn, &db, &mut y).unwrap();
                } else {
                    blas::sgemv(ctx(), Transpose::Yes, alpha, &an, &xn, 3.0, &mut y).unwrap();
                }
                if alpha == 0.0 {
                    assert_same(&y, &y0.mapv(|v| 3.0 * v), &format!("alpha 0, device {dev}"));
                } else {
                    assert!(y.iter().all(|v| v.is_nan()), "alpha NaN, device {dev}: {y}");
                }
            }
        }
        let mut y = Array1::from_elem(m, f32::NAN);
        blas::sgemv(ctx(), Transpose::Yes, 1.0, &a, &x, 0.0, &mut y).unwrap();
        assert_same(&y, &want(1.0, 0.0), "beta 0 with NaN y");
        // A NaN in A reaches its row only; Inf·0 is NaN (no zero skip).
        let mut y = y0.clone();
        blas::sgemv(ctx(), Transpose::Yes, 1.0, &an, &x, 0.0, &mut y).unwrap();
        assert!(
            y[3].is_nan() && y.iter().filter(|v| v.is_nan()).count() == 1,
            "{y}"
        );
    });
}

#[test]
fn gemv_once_calls_in_a_row_and_a_resident_chain() {
    with_one_pass(|| {
        let own = Context::new().unwrap();
        // Different shapes one after the other on one context: each starts from counters at 0.
        for (k, &(m, n)) in [(600usize, 3000usize), (64, 20_001), (600, 3000), (4, 9000)]
            .iter()
            .enumerate()
        {
            let a = Array2::from_shape_fn((n, m), |(j, i)| ((i + j + k) % 5) as f32 - 2.0);
            let x = ints(n, k);
            let want = Array1::from_shape_fn(m, |i| (0..n).map(|j| a[[j, i]] * x[j]).sum::<f32>());
            for _ in 0..2 {
                let mut y = Array1::<f32>::zeros(m);
                blas::sgemv(&own, Transpose::Yes, 1.0, &a, &x, 0.0, &mut y).unwrap();
                assert_same(&y, &want, &format!("call {k}, {m}×{n}"));
            }
        }
        // A chain of resident calls in one submission: y ← Aᵀ·x + y, 5 times.
        let (m, n) = (600usize, 3000usize);
        let a = Array2::from_shape_fn((n, m), |(j, i)| ((i + 2 * j) % 3) as f32 - 1.0);
        let x = ints(n, 4);
        let (ga, gx) = (
            own.upload_matrix(&a).unwrap(),
            own.upload_vector(&x).unwrap(),
        );
        let mut gy = GpuVector::<f32>::zeros(&own, m).unwrap();
        for _ in 0..5 {
            blas::sgemv(&own, Transpose::Yes, 1.0, &ga, &gx, 1.0, &mut gy).unwrap();
        }
        let s = Array1::from_shape_fn(m, |i| (0..n).map(|j| a[[j, i]] * x[j]).sum::<f32>());
        assert_same(&gy.to_array().unwrap(), &s.mapv(|v| 5.0 * v), "chain of 5");
    });
}
