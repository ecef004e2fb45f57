//! The async entry points under a real executor (tokio): values, Send futures, several
//! read-backs in flight at once, and a read-back that returns `Pending` instead of blocking.

use std::future::Future;
use std::sync::Arc;

use ndarray::{array, Array1, Array2, ShapeBuilder};
use wgblas::{blas, resident, Context, Error, GpuMatrix, MatrixLayout, Transpose};

use crate::common::*;

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
    blas::sgemm_async(
        &ctx,
        Transpose::No,
        Transpose::Yes,
        0.5,
        a.view(),
        b.view(),
        2.0,
        c.view_mut(),
    )
    .await
    .unwrap();
    let want = a.dot(&b.t()) * 0.5 + &c0 * 2.0;
    let err = (&c - &want).mapv(f32::abs).fold(0.0f32, |m, &v| m.max(v));
    assert!(err < 1e-4, "max error {err}");
    // A shape error is typed, and leaves C unchanged.
    let mut small = Array2::<f32>::from_elem((2, 2), 7.0);
    let e = blas::sgemm_async(
        &ctx,
        Transpose::No,
        Transpose::Yes,
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
                blas::sgemv(&ctx, Transpose::No, 1.0, &ga, &gx, 0.0, &mut gy).unwrap();
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
    blas::sgemm(
        &ctx,
        Transpose::No,
        Transpose::No,
        1.0,
        &ga,
        &ga,
        0.0,
        &mut gc,
    )
    .unwrap();
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
