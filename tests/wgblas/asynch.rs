//! The async entry points under a real executor (tokio): values, Send futures, several
//! read-backs in flight at once, and a read-back that returns `Pending` instead of blocking.

use std::future::Future;
use std::sync::Arc;

use ndarray::{array, Array1, Array2, ShapeBuilder};
use wgblas::{blas, resident, Context, Error, GpuMatrix, MatrixLayout};

use crate::common::*;
use wgblas::{
    Diag::{NonUnit, Unit},
    Side::Left,
    Transpose::{No, Yes},
    Uplo::{Lower, Upper},
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_context_and_read_backs_give_the_uploaded_values() {
    let ctx = Context::new_async()
        .await
        .expect("the tests need a GPU adapter");
    let x = array![1.0f32, -2.0, 3.5, 0.25];
    let gx = ctx.upload_vector(&x).unwrap();
    assert_eq!(gx.to_array_async().await.unwrap(), x);
    // An F-order matrix comes back F order, with the same values.
    let a = Array2::from_shape_vec((2, 3).f(), vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let ga = ctx.upload_matrix(&a).unwrap();
    let back = ga.to_array_async().await.unwrap();
    assert_eq!(back, a);
    assert!(back.t().is_standard_layout());
    // 1·1 + (−2)·(−2) + 3.5·3.5 + 0.25·0.25 = 17.3125, exact in f32.
    let d = resident::sdot(&ctx, &gx, &gx).unwrap();
    assert_eq!(d.get_async().await.unwrap(), 17.3125);
    assert_eq!(ctx.readbacks(), 3);
}

#[tokio::test(flavor = "current_thread")]
async fn with_options_async_reports_a_missing_adapter() {
    let options = wgblas::ContextOptions {
        adapter_name: Some("no-such-adapter-0xdead".into()),
        ..Default::default()
    };
    let err = Context::with_options_async(&options).await.unwrap_err();
    assert!(matches!(err, Error::NoAdapter { .. }), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_form_async_twins_match_the_host() {
    let ctx = Context::new_async().await.unwrap();
    let mut r = rng(71);
    let (x, y) = (rand_vec(&mut r, 1000), rand_vec(&mut r, 1000));
    let got = blas::sdot_async(&ctx, x.view(), y.view()).await.unwrap();
    let want = blas::sdot(&ctx, x.view(), y.view()).unwrap();
    assert_eq!(got, want, "async and blocking sdot run the same kernel");
    let (a, b) = (rand_mat(&mut r, 33, 20), rand_mat(&mut r, 17, 20));
    let c0 = rand_mat(&mut r, 33, 17);
    let mut c = c0.clone();
    blas::sgemm_async(&ctx, No, Yes, 0.5, a.view(), b.view(), 2.0, c.view_mut())
        .await
        .unwrap();
    let want = oracle::sgemm(No, Yes, 0.5, a.view(), b.view(), 2.0, c0.view());
    let bound = wgblas::metrics::bounds::gemm(No, Yes, 0.5, a.view(), b.view(), 2.0, c0.view());
    within(
        "sgemm",
        wgblas::metrics::forward_factor(&c, &want, &bound).unwrap(),
    );
    // A shape error is typed, and leaves C unchanged.
    let mut small = Array2::<f32>::from_elem((2, 2), 7.0);
    let e = blas::sgemm_async(
        &ctx,
        No,
        Yes,
        1.0,
        a.view(),
        b.view(),
        0.0,
        small.view_mut(),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(
            e,
            Error::DimensionMismatch {
                routine: "sgemm",
                arg: "c",
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(small, Array2::from_elem((2, 2), 7.0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_read_backs_run_concurrently_on_spawned_tasks() {
    let ctx = Arc::new(Context::new_async().await.unwrap());
    let tasks: Vec<_> = (0..6)
        .map(|t| {
            let ctx = ctx.clone();
            // `tokio::spawn` needs the read-back futures to be `Send`.
            tokio::spawn(async move {
                let n = 64 + 16 * t;
                let a = Array2::from_shape_fn((n, n), |(i, j)| ((i + 2 * j + t) % 7) as f32);
                let x = Array1::from_shape_fn(n, |i| (i % 5) as f32 - 2.0);
                let ga = ctx.upload_matrix(&a).unwrap();
                let gx = ctx.upload_vector(&x).unwrap();
                let mut gy = wgblas::GpuVector::<f32>::zeros(&ctx, n).unwrap();
                blas::sgemv(&ctx, No, 1.0, &ga, &gx, 0.0, &mut gy).unwrap();
                let got = gy.to_array_async().await.unwrap();
                // Small integers: the product is exact in f32.
                assert_eq!(got, a.dot(&x), "task {t}");
                t
            })
        })
        .collect();
    let mut done = Vec::new();
    for task in tasks {
        done.push(task.await.unwrap());
    }
    assert_eq!(done, (0..6).collect::<Vec<_>>());
}

#[tokio::test(flavor = "current_thread")]
async fn a_pending_read_back_does_not_block_the_executor_thread() {
    let ctx = Context::new_async().await.unwrap();
    let n = 256;
    let a = Array2::from_shape_fn((n, n), |(i, j)| ((i * 3 + j) % 5) as f32);
    let ga = ctx.upload_matrix(&a).unwrap();
    let mut gc = GpuMatrix::<f32>::zeros(&ctx, (n, n), MatrixLayout::RowMajor).unwrap();
    blas::sgemm(&ctx, No, No, 1.0, &ga, &ga, 0.0, &mut gc).unwrap();
    let mut read = std::pin::pin!(gc.to_array_async());
    // The first poll submits and returns at once: on lavapipe a 256³ product takes far
    // longer than the submission.
    let first = read
        .as_mut()
        .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
    assert!(
        first.is_pending(),
        "the read-back finished inside its first poll"
    );
    // Meanwhile other work on this one executor thread goes on; then the read-back ends.
    let (c, other) = tokio::join!(read, async {
        tokio::task::yield_now().await;
        42
    });
    assert_eq!(other, 42);
    assert_eq!(c.unwrap(), a.dot(&a));
    // Read-backs in flight together on one thread, each with its own value.
    let gs: Vec<_> = (0..4)
        .map(|k| {
            ctx.upload_vector(&Array1::from_elem(10 + k, k as f32))
                .unwrap()
        })
        .collect();
    let (r0, r1, r2, r3) = tokio::join!(
        gs[0].to_array_async(),
        gs[1].to_array_async(),
        gs[2].to_array_async(),
        gs[3].to_array_async()
    );
    for (k, r) in [r0, r1, r2, r3].into_iter().enumerate() {
        assert_eq!(r.unwrap(), Array1::from_elem(10 + k, k as f32));
    }
}

/// Fails unless the measure passes `routine`'s threshold (DESIGN.md §2, `metrics::spec`).
fn within(routine: &str, factor: f64) {
    let spec = wgblas::metrics::spec(routine).unwrap();
    assert!(
        spec.passes(factor),
        "{routine}_async: factor {factor} past {}",
        spec.threshold
    );
}

/// Every driver class through its async twin, on host operands in mixed layouts, against
/// OpenBLAS with the routine's metric and threshold: element-wise (saxpy, sscal, srot),
/// reductions (snrm2, isamax, sasum), matrix-vector (sgemv), rank update (sger), triangular
/// solve (strsv), the tile engine (ssyrk), the blocked triangular solve (strsm), batched
/// (sgemm_batched).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_twins_of_every_driver_class_match_openblas() {
    use crate::describe::Elem;
    use crate::{oracle_l1, oracle_l2};
    use wgblas::metrics::{self, bounds};
    let ctx = Context::new_async().await.unwrap();
    let mut r = rng(72);
    let n = 300;
    let (x, y) = (rand_vec(&mut r, n), rand_vec(&mut r, n));
    // Element-wise.
    let mut got = y.clone();
    blas::saxpy_async(&ctx, 0.75, &x, &mut got).await.unwrap();
    let want = oracle::saxpy(0.75, x.view(), y.view());
    let b = bounds::axpy(0.75, x.view(), y.view());
    within("saxpy", metrics::forward_factor(&got, &want, &b).unwrap());
    let mut got = x.clone();
    // A step of 2 and a reversed view reach the twin as they reach the blocking form.
    blas::sscal_async(&ctx, -1.5, got.slice_mut(ndarray::s![..;-2]))
        .await
        .unwrap();
    let mut want = x.clone();
    want.slice_mut(ndarray::s![..;-2])
        .assign(&oracle_l1::sscal(-1.5, x.slice(ndarray::s![..;-2])));
    assert_eq!(got, want, "sscal is bit-exact");
    let (mut gx, mut gy) = (x.clone(), y.clone());
    blas::srot_async(&ctx, &mut gx, &mut gy, 0.6, 0.8)
        .await
        .unwrap();
    let (wx, wy) = oracle_l1::srot(x.view(), y.view(), 0.6, 0.8);
    let (bx, by) = bounds::rot(0.6, 0.8, x.view(), y.view());
    within("srot", metrics::forward_factor(&gx, &wx, &bx).unwrap());
    within("srot", metrics::forward_factor(&gy, &wy, &by).unwrap());
    // Reductions.
    let nrm = blas::snrm2_async(&ctx, &x).await.unwrap();
    let exact = (x.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>()).sqrt() as f32;
    within("snrm2", metrics::ulp_distance_f32(nrm, exact) as f64);
    within(
        "snrm2",
        metrics::ulp_distance_f32(nrm, oracle_l1::snrm2(x.view())) as f64,
    );
    assert_eq!(
        blas::isamax_async(&ctx, &x).await.unwrap(),
        oracle_l1::isamax(x.view())
    );
    let asum = blas::sasum_async(&ctx, x.view()).await.unwrap();
    within(
        "sasum",
        metrics::ulp_distance_f32(asum, oracle_l1::sasum(x.view())) as f64,
    );
    // Matrix-vector: an F-order A, transposed.
    let a = rand_mat(&mut r, 70, 50).reversed_axes(); // 50×70, F order
    let (xv, y0) = (rand_vec(&mut r, 50), rand_vec(&mut r, 70));
    let mut got = y0.clone();
    blas::sgemv_async(&ctx, Yes, 0.5, &a, &xv, 2.0, &mut got)
        .await
        .unwrap();
    let want = oracle::sgemv(Yes, 0.5, a.view(), xv.view(), 2.0, y0.view());
    let b = bounds::gemv(Yes, 0.5, a.view(), xv.view(), 2.0, y0.view());
    within("sgemv", metrics::forward_factor(&got, &want, &b).unwrap());
    // Rank-one update.
    let a0 = rand_mat(&mut r, 40, 30);
    let (u, v) = (rand_vec(&mut r, 40), rand_vec(&mut r, 30));
    let mut got = a0.clone();
    blas::sger_async(&ctx, 1.25, &u, &v, &mut got)
        .await
        .unwrap();
    let want = oracle_l2::sger(1.25, u.view(), v.view(), a0.view());
    let b = bounds::ger(1.25, u.view(), v.view(), a0.view());
    within("sger", metrics::forward_factor(&got, &want, &b).unwrap());
    // Triangular solve: NaN outside the triangle must not be read.
    let t = triangle(&mut r, 90, Lower, 2.0);
    let rhs = rand_vec(&mut r, 90);
    let mut sol = rhs.clone();
    blas::strsv_async(&ctx, Lower, Yes, NonUnit, &t, &mut sol)
        .await
        .unwrap();
    let res =
        metrics::trsv_residual(Lower, Yes, NonUnit, t.view(), sol.view(), rhs.view()).unwrap();
    let b = bounds::trsv(Lower, Yes, NonUnit, t.view(), sol.view());
    within(
        "strsv",
        metrics::backward_residual_factor(&res, &b).unwrap(),
    );
    // The tile engine: ssyrk on an F-order C.
    let ak = rand_mat(&mut r, 48, 33);
    let c0 = rand_mat(&mut r, 48, 48).reversed_axes();
    let mut got = c0.clone();
    blas::ssyrk_async(&ctx, Upper, No, 1.0, &ak, 0.5, &mut got)
        .await
        .unwrap();
    let mut want = c0.as_standard_layout().into_owned();
    f32::o_syrk(Upper, No, 1.0, &ak, 0.5, &mut want);
    let b = bounds::syrk(Upper, No, 1.0, ak.view(), 0.5, c0.view());
    within("ssyrk", metrics::forward_factor(&got, &want, &b).unwrap());
    // Blocked triangular solve with many right-hand sides.
    let t = triangle(&mut r, 70, Upper, 2.0);
    let rhs = rand_mat(&mut r, 70, 20);
    let mut sol = rhs.clone();
    blas::strsm_async(&ctx, Left, Upper, No, NonUnit, 2.0, &t, &mut sol)
        .await
        .unwrap();
    let res = metrics::trsm_residual(
        Left,
        Upper,
        No,
        NonUnit,
        2.0,
        t.view(),
        sol.view(),
        rhs.view(),
    )
    .unwrap();
    let b = bounds::trsm(Left, Upper, No, NonUnit, t.view(), sol.view());
    within(
        "strsm",
        metrics::backward_residual_factor(&res, &b).unwrap(),
    );
    // Batched products.
    let (ab, bb) = (
        ndarray::Array3::from_shape_fn((3, 9, 7), |_| value(&mut r)),
        ndarray::Array3::from_shape_fn((3, 7, 5), |_| value(&mut r)),
    );
    let mut cb = ndarray::Array3::<f32>::zeros((3, 9, 5));
    blas::sgemm_batched_async(&ctx, No, No, 1.0, &ab, &bb, 0.0, &mut cb)
        .await
        .unwrap();
    for k in 0..3 {
        let (ak, bk) = (
            ab.index_axis(ndarray::Axis(0), k),
            bb.index_axis(ndarray::Axis(0), k),
        );
        let zero = Array2::<f32>::zeros((9, 5));
        let want = oracle::sgemm(No, No, 1.0, ak, bk, 0.0, zero.view());
        let b = bounds::gemm(No, No, 1.0, ak, bk, 0.0, zero.view());
        let got = cb.index_axis(ndarray::Axis(0), k);
        within("sgemm", metrics::forward_factor(&got, &want, &b).unwrap());
    }
}

/// The f64 twins run the f64 core: dgemm where the adapter has SHADER_F64, else the same
/// typed `Unsupported` error as the blocking form, with `C` unchanged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn f64_twins_match_their_blocking_forms() {
    let ctx = Context::new_async().await.unwrap();
    let a = Array2::from_shape_fn((5, 4), |(i, j)| 0.1 * (i as f64) - 0.3 * j as f64);
    let b = Array2::from_shape_fn((4, 3), |(i, j)| 1e-3 * (i + 7 * j) as f64);
    let c0 = Array2::from_shape_fn((5, 3), |(i, j)| (i * j) as f64);
    let (mut got, mut want) = (c0.clone(), c0.clone());
    let g = blas::dgemm_async(&ctx, No, No, 0.5, &a, &b, 2.0, &mut got).await;
    let w = blas::dgemm(&ctx, No, No, 0.5, &a, &b, 2.0, &mut want);
    match (g, w) {
        (Ok(()), Ok(())) => {
            assert!(ctx.native_f64());
            assert_eq!(got, want, "one core, one kernel: the same bits");
            // Against OpenBLAS dgemm, within dgemm's forward factor (metrics::spec, 2^-52).
            let want = crate::dgemm::oracle_dgemm(No, No, 0.5, a.view(), b.view(), 2.0, c0.view());
            let bound =
                wgblas::metrics::bounds::dgemm(No, No, 0.5, a.view(), b.view(), 2.0, c0.view());
            let f = wgblas::metrics::forward_factor_f64(&got, &want, &bound).unwrap();
            assert!(f <= crate::dgemm::threshold(), "dgemm_async: factor {f}");
        }
        (Err(g), Err(w)) => {
            assert!(!ctx.native_f64());
            assert_eq!(g.to_string(), w.to_string());
            assert!(
                matches!(
                    g,
                    Error::Unsupported {
                        routine: "dgemm",
                        ..
                    }
                ),
                "{g}"
            );
            assert_eq!(got, c0);
        }
        (g, w) => panic!("async {g:?} and blocking {w:?} disagree"),
    }
}

/// Typed errors from the twins, outputs unchanged; a twin whose output is resident reads
/// nothing back and holds its commands, as the blocking form does.
#[tokio::test(flavor = "current_thread")]
async fn async_twins_give_typed_errors_and_hold_resident_calls() {
    let ctx = Context::new_async().await.unwrap();
    let rect = Array2::<f32>::ones((3, 4));
    let mut x = array![1.0f32, 2.0, 3.0];
    let e = blas::strsv_async(&ctx, Upper, No, Unit, &rect, &mut x)
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::NotSquare {
                routine: "strsv",
                arg: "a",
                rows: 3,
                cols: 4
            }
        ),
        "{e}"
    );
    assert_eq!(x, array![1.0f32, 2.0, 3.0]);
    let e = blas::saxpy_async(&ctx, 1.0, &array![1.0f32], &mut x)
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::DimensionMismatch {
                routine: "saxpy",
                arg: "y",
                ..
            }
        ),
        "{e}"
    );
    let e = blas::srotm_async(&ctx, &mut x.clone(), &mut x, [3.0, 0.0, 0.0, 0.0, 0.0])
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidArgument {
                routine: "srotm",
                arg: "param",
                ..
            }
        ),
        "{e}"
    );
    // Resident in, resident out: no read-back, no submission until one is needed.
    let gx = ctx.upload_vector(&x).unwrap();
    let mut gy = ctx.upload_vector(&array![1.0f32, 1.0, 1.0]).unwrap();
    let (reads, subs) = (ctx.readbacks(), ctx.submissions());
    blas::saxpy_async(&ctx, 2.0, &gx, &mut gy).await.unwrap();
    blas::sscal_async(&ctx, 0.5, &mut gy).await.unwrap();
    assert_eq!((ctx.readbacks(), ctx.submissions()), (reads, subs));
    assert_eq!(gy.to_array_async().await.unwrap(), array![1.5f32, 2.5, 3.5]);
    assert_eq!((ctx.readbacks(), ctx.submissions()), (reads + 1, subs + 1));
}

/// Dropping a twin's future while its read-back is pending leaves the output unchanged and
/// the context usable: the next calls, blocking and async, give right values.
#[tokio::test(flavor = "current_thread")]
async fn a_cancelled_twin_leaves_its_output_and_the_context_usable() {
    let ctx = Context::new_async().await.unwrap();
    let n = 256;
    let a = Array2::from_shape_fn((n, n), |(i, j)| ((i * 3 + j) % 5) as f32);
    let mut c = Array2::<f32>::from_elem((n, n), 7.0);
    {
        let fut = blas::sgemm_async(&ctx, No, No, 1.0, &a, &a, 0.0, &mut c);
        fn is_send<T: Send>(_: &T) {}
        is_send(&fut);
        let mut fut = std::pin::pin!(fut);
        let first = fut
            .as_mut()
            .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
        assert!(
            first.is_pending(),
            "a 256³ product on lavapipe outlasts one poll"
        );
        // Dropped here, pending.
    }
    assert_eq!(
        c,
        Array2::from_elem((n, n), 7.0),
        "a cancelled call wrote its output"
    );
    let want = a.dot(&a);
    blas::sgemm_async(&ctx, No, No, 1.0, &a, &a, 0.0, &mut c)
        .await
        .unwrap();
    assert_eq!(c, want, "small integers: exact in f32");
    let mut c2 = Array2::<f32>::zeros((n, n));
    blas::sgemm(&ctx, No, No, 1.0, &a, &a, 0.0, &mut c2).unwrap();
    assert_eq!(c2, want);
    let d = blas::sdot_async(&ctx, &array![1.0f32, 2.0], &array![3.0f32, 4.0])
        .await
        .unwrap();
    assert_eq!(d, 11.0);
}

/// `Context::read_back_async`: several results, one submission, awaited.
#[tokio::test(flavor = "current_thread")]
async fn read_back_async_reads_a_tuple_in_one_submission() {
    let ctx = Context::new_async().await.unwrap();
    let gx = ctx.upload_vector(&array![3.0f32, 4.0]).unwrap();
    let n = resident::snrm2(&ctx, &gx).unwrap();
    let ga = ctx
        .upload_matrix(&array![[1.0f32, 2.0], [3.0, 4.0]])
        .unwrap();
    let subs = ctx.submissions();
    let (x, n, a) = ctx.read_back_async((&gx, &n, &ga)).await.unwrap();
    assert_eq!(ctx.submissions(), subs + 1);
    assert_eq!(
        (x, n, a),
        (array![3.0f32, 4.0], 5.0, array![[1.0f32, 2.0], [3.0, 4.0]])
    );
}

/// A context whose read-back was cancelled can be dropped at once, and a new one made and
/// used: the cancelled read-back's helper thread, which may then hold the last device handle,
/// does not deadlock the teardown.
#[tokio::test(flavor = "current_thread")]
async fn a_context_can_be_dropped_after_a_cancelled_read_back() {
    for round in 0..2 {
        let ctx = Context::new_async().await.unwrap();
        let a = Array2::from_shape_fn((192, 192), |(i, j)| ((i + j + round) % 3) as f32);
        let mut c = Array2::<f32>::zeros((192, 192));
        {
            let mut fut =
                std::pin::pin!(blas::sgemm_async(&ctx, No, No, 1.0, &a, &a, 0.0, &mut c,));
            let first = fut
                .as_mut()
                .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
            assert!(first.is_pending());
        }
        drop(ctx);
        assert_eq!(c, Array2::<f32>::zeros((192, 192)));
    }
    let ctx = Context::new_async().await.unwrap();
    let d = blas::sdot_async(&ctx, &array![2.0f32], &array![3.0f32])
        .await
        .unwrap();
    assert_eq!(d, 6.0);
}
