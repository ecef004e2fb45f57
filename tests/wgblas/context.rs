//! The context: adapter choice, errors, sharing across threads.

use ndarray::{Array1, Array2};
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, wgpu, Context, ContextOptions, Error, GpuVector, Transpose};

use crate::common::*;

#[test]
fn no_matching_adapter_is_a_clear_error() {
    let options = ContextOptions {
        adapter_name: Some("no-such-adapter-0xdead".into()),
        ..Default::default()
    };
    let err = Context::with_options(&options).unwrap_err();
    assert!(matches!(err, Error::NoAdapter { .. }), "{err:?}");
    let msg = err.to_string();
    // It names what was asked for and lists what exists, with each adapter's backend.
    let found = ctx().adapter_info();
    assert!(
        msg.contains("no-such-adapter-0xdead") && msg.contains(&found.name),
        "{msg}"
    );
    assert!(msg.contains(&format!("[{:?}]", found.backend)), "{msg}");
}

#[test]
fn empty_backend_set_is_a_clear_error() {
    let options = ContextOptions {
        backends: Some(wgpu::Backends::empty()),
        ..Default::default()
    };
    let err = Context::with_options(&options).unwrap_err();
    assert!(matches!(err, Error::NoAdapter { .. }), "{err:?}");
    assert!(err.to_string().contains("no backend selected"), "{err}");
}

#[test]
fn adapter_found_by_name_and_features_requested() {
    let shared = ctx();
    let name = shared.adapter_info().name.clone();
    let options = ContextOptions {
        adapter_name: Some(name.to_uppercase()),
        ..Default::default()
    };
    let own = Context::with_options(&options).unwrap();
    assert_eq!(own.adapter_info().name, name);
    // The device gets the adapter's own limits, not wgpu's defaults (16 KiB workgroup memory).
    assert!(own.limits().max_storage_buffer_binding_size >= 128 << 20);
    // Optional features are enabled exactly where the adapter has them.
    let wanted = wgpu::Features::SHADER_F64
        | wgpu::Features::SUBGROUP
        | wgpu::Features::TIMESTAMP_QUERY
        | wgpu::Features::PIPELINE_CACHE;
    assert!(wanted.contains(own.features()));
}

#[test]
fn explicit_context_counts_submissions_and_readbacks() {
    let _lab = crate::bandwidth::lab_defaults();
    let own = Context::new().unwrap();
    let x = Array1::<f32>::ones(1000);
    let d = blas::sdot(&own, x.view(), x.view()).unwrap();
    assert_eq!(d, 1000.0);
    // One submission, one read-back, one dispatch: below `lab::ONE_DISPATCH_DEFAULT` elements
    // the single pass runs one workgroup, which needs no counter (so no dispatch zeroing it).
    assert_eq!(
        (own.submissions(), own.readbacks(), own.dispatches()),
        (1, 1, 1)
    );
    // Past it, many workgroups: the counter is zeroed by a one-invocation dispatch first.
    let x = Array1::<f32>::ones(1 << 20);
    let d = blas::sdot(&own, x.view(), x.view()).unwrap();
    assert_eq!(d, (1 << 20) as f32);
    assert_eq!(
        (own.submissions(), own.readbacks(), own.dispatches()),
        (2, 2, 3)
    );
    // Each call's two host operands were two uploads.
    assert_eq!(own.uploads(), 4);
}

#[test]
fn uploads_count_host_arrays_not_resident_calls() {
    let ctx = Context::new().unwrap();
    assert_eq!(ctx.uploads(), 0);
    let x = Array1::<f32>::from_vec((0..300).map(|i| i as f32).collect());
    let gx = ctx.upload_vector(&x).unwrap();
    let ga = ctx.upload_matrix(&Array2::<f32>::eye(300)).unwrap();
    assert_eq!(ctx.uploads(), 2);
    // Resident work, zeroed outputs and read-backs upload nothing.
    let mut gy = GpuVector::<f32>::zeros(&ctx, 300).unwrap();
    blas::sgemv(&ctx, Transpose::No, 1.0, &ga, &gx, 0.0, &mut gy).unwrap();
    assert_eq!(gy.to_array().unwrap(), x);
    assert_eq!(ctx.uploads(), 2);
    // A host-form gemm uploads its A and B (beta = 0: C is not read).
    let a = Array2::<f32>::ones((4, 5));
    let c = a.dot(&a.t());
    let mut got = Array2::<f32>::zeros((4, 4));
    blas::sgemm(
        &ctx,
        Transpose::No,
        Transpose::Yes,
        1.0,
        &a,
        &a,
        0.0,
        &mut got,
    )
    .unwrap();
    assert_eq!(got, c);
    assert!(ctx.uploads() >= 4, "uploads {}", ctx.uploads());
}

#[test]
fn shared_context_serves_many_threads() {
    let handles: Vec<_> = (0..8)
        .map(|t| {
            std::thread::spawn(move || {
                let mut r = rng(100 + t);
                for _ in 0..5 {
                    let a = rand_mat(&mut r, 33, 17);
                    let b = rand_mat(&mut r, 17, 9);
                    let c = a.gpu_gemm(&b).unwrap();
                    let (no, zero) = (Transpose::No, Array2::<f32>::zeros((33, 9)));
                    let reference =
                        oracle::sgemm(no, no, 1.0, a.view(), b.view(), 0.0, zero.view());
                    let bound = bounds::gemm(no, no, 1.0, a.view(), b.view(), 0.0, zero.view());
                    let f = metrics::forward_factor(&c, &reference, &bound).unwrap();
                    crate::describe::passes("sgemm", f, &format!("thread {t}"));
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

#[test]
fn profiling_records_gpu_time_where_timestamps_exist() {
    let own = Context::new().unwrap();
    assert_eq!(own.last_gpu_time(), None);
    own.set_profiling(true);
    let a = ndarray::Array2::<f32>::ones((64, 64));
    let mut c = ndarray::Array2::<f32>::zeros((64, 64));
    blas::sgemm(
        &own,
        wgblas::Transpose::No,
        wgblas::Transpose::No,
        1.0,
        a.view(),
        a.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap();
    assert!(c.iter().all(|&v| v == 64.0));
    let has_timestamps = own.features().contains(wgpu::Features::TIMESTAMP_QUERY);
    match own.last_gpu_time() {
        Some(t) => assert!(has_timestamps && t > std::time::Duration::ZERO, "{t:?}"),
        None => assert!(
            !has_timestamps,
            "TIMESTAMP_QUERY present but no GPU time recorded"
        ),
    }
}

/// Outside a timed batch, a chain of resident calls is submitted every
/// `lab::max_pending()` held commands (32), so that the device runs it while the host
/// records the rest: 100 chained calls go in several submissions, with the result of one.
#[test]
fn a_long_chain_is_submitted_in_parts_with_the_same_result() {
    let own = Context::new().unwrap();
    let x = own.upload_vector(&Array1::from_elem(1000, 1.0f32)).unwrap();
    let mut y = own.upload_vector(&Array1::from_elem(1000, 2.0f32)).unwrap();
    own.synchronize().unwrap();
    let s0 = own.submissions();
    for _ in 0..100 {
        blas::saxpy(&own, 0.5, &x, &mut y).unwrap();
    }
    let parts = own.submissions() - s0;
    let limit = wgblas::lab::max_pending() as u64;
    assert!(
        parts >= 100 / limit && parts <= 100,
        "{parts} submissions for 100 held calls, limit {limit}"
    );
    // 2 + 100 · 0.5 · 1, exact in f32; the read-back submits the rest.
    assert!(y.to_array().unwrap().iter().all(|&v| v == 52.0));
}

#[test]
fn time_batch_times_held_calls_in_one_submission() {
    let _lab = crate::bandwidth::lab_defaults();
    let own = Context::new().unwrap();
    if !own.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
        no_batch_to_time(&own);
        return;
    }
    let x = own.upload_vector(&Array1::from_elem(1000, 1.0f32)).unwrap();
    let mut y = own.upload_vector(&Array1::from_elem(1000, 2.0f32)).unwrap();
    own.synchronize().unwrap();
    let (s0, d0) = (own.submissions(), own.dispatches());
    let t = own
        .time_batch(|| {
            // More calls than a chain holds outside a batch (lab::max_pending, 32).
            for _ in 0..100 {
                blas::saxpy(&own, 0.5, &x, &mut y).unwrap();
            }
        })
        .unwrap();
    assert!(t > std::time::Duration::ZERO, "{t:?}");
    assert_eq!(own.dispatches() - d0, 100);
    assert_eq!(
        own.submissions() - s0,
        1,
        "the hundred calls went in one submission"
    );
    // 2 + 100 · 0.5 · 1, exact in f32.
    assert!(y.to_array().unwrap().iter().all(|&v| v == 52.0));
    // Profiling stays as it was (off): a later call is held, not submitted. A batch with no
    // dispatch is an error.
    let s1 = own.submissions();
    blas::saxpy(&own, 0.5, &x, &mut y).unwrap();
    assert_eq!(own.submissions(), s1);
    no_batch_to_time(&own);
}

/// `time_batch` of a batch with no dispatch (or on an adapter without timestamps) is the error
/// naming `time_batch`.
#[track_caller]
fn no_batch_to_time(own: &Context) {
    let err = own.time_batch(|| ()).unwrap_err();
    let named = matches!(
        err,
        Error::InvalidArgument {
            routine: "time_batch",
            ..
        }
    );
    assert!(named, "{err:?}");
}

#[test]
fn largest_operand_one_binding_allows_is_accepted() {
    // The complement of the validation_too_large tests: exactly the adapter's storage-binding
    // limit works (pooled buffers are never rounded up past it).
    let n = ctx().limits().max_storage_buffer_binding_size as usize / 4;
    let x = Array1::<f32>::from_elem(n, 0.5);
    let s = blas::sasum(ctx(), &x).unwrap();
    assert_eq!(s, n as f32 * 0.5);
}
