//! The streamed host-form product (issue 10): sgemm/dgemm with A and C on the host and C in C
//! order cut into row blocks (`Context::set_stream_block`), each block's upload, product and
//! read-back submitted before any is waited for. On a context of its own (the shared one keeps
//! its default), at a block size of 4 KiB so that small products stream: against OpenBLAS with
//! the routine's metric (`metrics::spec` through the description's threshold), the §3 rules
//! (beta = 0 never reads C, NaN propagates, device alpha and beta), and the count of
//! submissions that shows the blocks were submitted one by one.

use ndarray::{s, Array2, ArrayView2, ShapeBuilder};
use wgblas::layout::Scalar;
use wgblas::metrics::{self, bounds};
use wgblas::{blas, Context, Transpose};

use crate::common::{oracle, rand_mat, rng};
use crate::describe;
use crate::gemm::Gemm;

/// A context of its own, streaming products whose C holds at least two blocks of 4 KiB.
fn streaming() -> Context {
    let ctx = Context::new()
        .unwrap_or_else(|e| panic!("wgblas tests need a GPU adapter (lavapipe here): {e}"));
    assert_eq!(ctx.set_stream_block(4096), 4096);
    ctx
}

/// `C ← alpha·op(A)·op(B) + beta·C` in f32 on `ctx`; returns the submissions it made.
fn sgemm<'a>(
    ctx: &Context,
    t: (Transpose, Transpose),
    (alpha, beta): (Scalar<'a, f32>, Scalar<'a, f32>),
    (a, b): (ArrayView2<'_, f32>, ArrayView2<'_, f32>),
    c: &mut Array2<f32>,
) -> u64 {
    let before = ctx.submissions();
    blas::sgemm(ctx, t.0, t.1, alpha, a, b, beta, c.view_mut()).unwrap();
    ctx.submissions() - before
}

/// The forward factor of `c` against OpenBLAS for `C = alpha·op(A)·op(B) + beta·C0`.
#[allow(clippy::too_many_arguments)]
fn factor(
    (ta, tb): (Transpose, Transpose),
    alpha: f32,
    a: ArrayView2<f32>,
    b: ArrayView2<f32>,
    beta: f32,
    c0: ArrayView2<f32>,
    c: &Array2<f32>,
) -> f64 {
    let reference = oracle::sgemm(ta, tb, alpha, a, b, beta, c0);
    let bound = bounds::gemm(ta, tb, alpha, a, b, beta, c0);
    metrics::forward_factor(c, &reference, &bound).unwrap()
}

/// `(m, n, k)` products that stream in 2 to 4 blocks (the last one partial, or one row), in
/// every transpose, alpha and beta (beta = 0 with NaN and Inf in C), each passing its metric and
/// each submitted in more than one submission.
#[test]
fn streamed_products_pass_the_metric_in_every_transpose() {
    let ctx = streaming();
    let threshold = describe::threshold::<Gemm, f32>();
    let mut r = rng(71);
    let shape = |t: Transpose, rows, cols| {
        if t == Transpose::No {
            (rows, cols)
        } else {
            (cols, rows)
        }
    };
    for &(m, n, k) in &[(300, 45, 37), (257, 16, 70), (129, 64, 5), (512, 40, 130)] {
        for t in [Transpose::No, Transpose::Yes]
            .map(|ta| [(ta, Transpose::No), (ta, Transpose::Yes)])
            .concat()
        {
            for (alpha, beta) in [(1.0f32, 0.0f32), (-0.75, 0.5)] {
                let (ra, ca) = shape(t.0, m, k);
                let (rb, cb) = shape(t.1, k, n);
                let (a, b) = (rand_mat(&mut r, ra, ca), rand_mat(&mut r, rb, cb));
                let mut c0 = rand_mat(&mut r, m, n);
                if beta == 0.0 {
                    c0[[m - 1, 0]] = f32::NAN;
                    c0[[0, n - 1]] = f32::INFINITY;
                }
                let mut c = c0.clone();
                let subs = sgemm(
                    &ctx,
                    t,
                    (alpha.into(), beta.into()),
                    (a.view(), b.view()),
                    &mut c,
                );
                let what = format!("{m}x{n}x{k} {t:?} alpha {alpha} beta {beta}");
                assert!(subs >= 2, "{what}: {subs} submission(s), not streamed");
                assert!(
                    c.iter().all(|v| v.is_finite()),
                    "{what}: C leaked into the result"
                );
                let c0 = if beta == 0.0 {
                    Array2::zeros((m, n))
                } else {
                    c0
                };
                let f = factor(t, alpha, a.view(), b.view(), beta, c0.view(), &c);
                assert!(f <= threshold, "{what}: factor {f}");
            }
        }
    }
}

/// A C below two blocks does not stream (one submission), nor does any product with streaming
/// off; the same product streamed and not both pass the metric.
#[test]
fn small_products_do_not_stream_and_streaming_off_is_one_submission() {
    let ctx = streaming();
    let nn = (Transpose::No, Transpose::No);
    let threshold = describe::threshold::<Gemm, f32>();
    let mut r = rng(72);
    // (m, n, k, stream block, submissions): 3.2 KB of C stays whole; 60 KB streams in 3 blocks
    // of 128, 128 and 44 rows, and in 1 with streaming off.
    for (m, n, k, block, want) in [
        (40, 20, 9, 4096, 1),
        (300, 50, 30, 4096, 3),
        (300, 50, 30, 0, 1),
    ] {
        ctx.set_stream_block(block);
        let (a, b) = (rand_mat(&mut r, m, k), rand_mat(&mut r, k, n));
        let zero = Array2::<f32>::zeros((m, n));
        let mut c = zero.clone();
        let subs = sgemm(
            &ctx,
            nn,
            (1.0.into(), 0.0.into()),
            (a.view(), b.view()),
            &mut c,
        );
        assert_eq!(
            subs, want,
            "{m}x{n}x{k}, stream block {block}: {subs} submissions"
        );
        let f = factor(nn, 1.0, a.view(), b.view(), 0.0, zero.view(), &c);
        assert!(
            f <= threshold,
            "{m}x{n}x{k}, stream block {block}: factor {f}"
        );
    }
}

/// NaN and Inf in one row of A reach exactly that row of C, in the block that holds it, with a
/// zero partner in B (no zero-skip, DESIGN.md §3); A read through a stepped view (gathered
/// block by block) and B in F order.
#[test]
fn special_values_reach_their_rows_across_blocks() {
    let ctx = streaming();
    let (m, n, k) = (300, 24, 8);
    let mut big = Array2::<f32>::ones((2 * m, k));
    big[[2 * 200, 3]] = f32::NAN;
    big[[2 * 140, 0]] = f32::INFINITY;
    let a = big.slice(s![..;2, ..]);
    let mut b = Array2::<f32>::ones((k, n).f());
    b.row_mut(3).fill(0.0);
    let mut c = Array2::<f32>::from_elem((m, n), f32::NAN);
    let nn = (Transpose::No, Transpose::No);
    assert!(sgemm(&ctx, nn, (1.0.into(), 0.0.into()), (a, b.view()), &mut c) >= 2);
    for ((i, j), &v) in c.indexed_iter() {
        let ok = match i {
            200 => v.is_nan(),
            140 => v == f32::INFINITY,
            _ => v == (k - 1) as f32,
        };
        assert!(ok, "C[{i}, {j}] = {v}");
    }
}

/// alpha and beta held on the device stream as host ones do: beta = 0 on the device never reads
/// C (NaN there does not leak), and alpha = 0.5, beta = 2 give the hand-computed values.
#[test]
fn device_scalars_stream_as_host_ones() {
    let ctx = streaming();
    let (m, n, k) = (260, 20, 4);
    let a = Array2::<f32>::ones((m, k));
    let b = Array2::<f32>::from_elem((k, n), 2.0);
    let dev = |v: f32| wgblas::resident::sdot(&ctx, &ndarray::array![v], &ndarray::array![1.0]);
    let (half, two, zero) = (dev(0.5).unwrap(), dev(2.0).unwrap(), dev(0.0).unwrap());
    let mut c = Array2::<f32>::from_elem((m, n), f32::NAN);
    let nn = (Transpose::No, Transpose::No);
    for (beta, want) in [(&zero, 4.0), (&two, 12.0)] {
        let subs = sgemm(
            &ctx,
            nn,
            ((&half).into(), beta.into()),
            (a.view(), b.view()),
            &mut c,
        );
        assert!(subs >= 2, "not streamed");
        assert!(c.iter().all(|&v| v == want), "want {want}: {:?}", c.row(0));
    }
}

/// dgemm streams too, against OpenBLAS's dgemm with its f64 metric.
#[test]
fn dgemm_streams_and_passes_its_metric() {
    let ctx = streaming();
    assert!(ctx.native_f64(), "the adapter has no f64 shaders");
    let mut r = rng(73);
    let (m, n, k) = (270, 30, 11);
    let a = rand_mat(&mut r, m, k).mapv(f64::from);
    let b = rand_mat(&mut r, k, n).mapv(f64::from);
    let nn = (Transpose::No, Transpose::No);
    let mut c = Array2::<f64>::zeros((m, n));
    let before = ctx.submissions();
    blas::dgemm(&ctx, nn.0, nn.1, 1.0, a.view(), b.view(), 0.0, c.view_mut()).unwrap();
    assert!(ctx.submissions() - before >= 2, "not streamed");
    let mut want = Array2::<f64>::zeros((m, n));
    <f64 as describe::Elem>::o_gemm(nn.0, nn.1, 1.0, &a, &b, 0.0, &mut want);
    let bound = bounds::gemm(nn.0, nn.1, 1.0, a.view(), b.view(), 0.0, want.view());
    let f = metrics::forward_factor_f64(&c, &want, &bound).unwrap();
    assert!(f <= describe::threshold::<Gemm, f64>(), "dgemm factor {f}");
}

/// Eight threads streaming products on one context at once, their blocks' submissions
/// interleaved: each result passes its metric.
#[test]
fn eight_threads_stream_at_once() {
    let ctx = streaming();
    let nn = (Transpose::No, Transpose::No);
    let threshold = describe::threshold::<Gemm, f32>();
    std::thread::scope(|scope| {
        for t in 0..8u64 {
            let ctx = &ctx;
            scope.spawn(move || {
                let mut r = rng(80 + t);
                let (m, n, k) = (260 + 7 * t as usize, 33, 19);
                let (a, b) = (rand_mat(&mut r, m, k), rand_mat(&mut r, k, n));
                let zero = Array2::<f32>::zeros((m, n));
                let mut c = zero.clone();
                for _ in 0..3 {
                    sgemm(
                        ctx,
                        nn,
                        (1.0.into(), 0.0.into()),
                        (a.view(), b.view()),
                        &mut c,
                    );
                    let f = factor(nn, 1.0, a.view(), b.view(), 0.0, zero.view(), &c);
                    assert!(f <= threshold, "thread {t}: factor {f}");
                }
            });
        }
    });
}
