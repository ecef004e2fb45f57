//! The host path's lab switches (issue 10) on lavapipe: the cap on the host copy threads
//! (`lab::set_copy_threads`), the fault-in of fresh read-back outputs while the device copies
//! (`lab::set_prefault_outputs`) and the run-time spin before a blocking wait
//! (`lab::set_spin_us`). Transfers must give back exactly the elements uploaded; host-form
//! sgemm and sdot must pass their DESIGN.md §2 metric against OpenBLAS (`metrics::spec`
//! through the descriptions' thresholds). The switches are process-wide: each test holds the
//! lab lock (`bandwidth::lab_defaults`) and resets them, whatever happens.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use ndarray::{s, Array1, Array2};
use wgblas::lab;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::Transpose;

use crate::common::*;
use crate::describe;
use crate::dot::Dot;
use crate::gemm::Gemm;

/// Run `f` with the host lab switches set by `set`, under the lab lock; reset them after.
fn with_lab(set: impl FnOnce(), f: impl FnOnce()) {
    let _guard = crate::bandwidth::lab_defaults();
    set();
    let r = catch_unwind(AssertUnwindSafe(f));
    lab::set_copy_threads(0);
    lab::set_prefault_outputs(true);
    lab::set_spin_us(None);
    if let Err(e) = r {
        resume_unwind(e);
    }
}

/// A host sgemm `A·B` (m×k by k×n) against OpenBLAS: its forward factor within the threshold.
fn check_sgemm(seed: u64, m: usize, n: usize, k: usize) {
    let mut r = rng(seed);
    let (a, b) = (rand_mat(&mut r, m, k), rand_mat(&mut r, k, n));
    let c = a.gpu_gemm(&b).expect("host sgemm");
    let c0 = Array2::<f32>::zeros((m, n));
    let (t, v) = (Transpose::No, c0.view());
    let reference = oracle::sgemm(t, t, 1.0, a.view(), b.view(), 0.0, v);
    let bound = bounds::gemm(t, t, 1.0, a.view(), b.view(), 0.0, v);
    let factor = metrics::forward_factor(&c, &reference, &bound).unwrap();
    let threshold = describe::threshold::<Gemm, f32>();
    assert!(factor <= threshold, "sgemm {m}x{n}x{k}: {factor}");
}

/// A host sdot of `n` elements against OpenBLAS: its forward factor within the threshold.
fn check_sdot(seed: u64, n: usize) {
    let mut r = rng(seed);
    let (x, y) = (rand_vec(&mut r, n), rand_vec(&mut r, n));
    let d = x.gpu_dot(&y).expect("host sdot");
    let want = oracle::sdot(x.view(), y.view());
    let bound = bounds::dot(x.view(), y.view());
    let factor = metrics::forward_factor_scalar(d, want, bound);
    let threshold = describe::threshold::<Dot, f32>();
    assert!(factor <= threshold, "sdot {n}: {factor}");
}

/// Every copy-thread cap (one thread, two, the pool's) moves a 6 MiB vector, a step-2 view
/// (gathered) and a 5 MiB matrix both ways exactly, and a host sgemm whose operands and output
/// are split over threads (A 2 MiB, C 4 MiB) passes its metric.
#[test]
fn every_copy_thread_cap_moves_exactly_and_sgemm_passes_the_metric() {
    let ctx = ctx();
    let mut r = rng(101);
    let x = rand_vec(&mut r, 3 << 19);
    let wide = rand_vec(&mut r, 5 << 19);
    let m = rand_mat(&mut r, 1280, 1024);
    for threads in [1, 2, 0] {
        with_lab(
            || lab::set_copy_threads(threads),
            || {
                assert_eq!(lab::copy_threads(), threads);
                let v = ctx.upload_vector(&x).unwrap();
                assert_eq!(v.to_array().unwrap(), x, "vector, {threads} threads");
                let step = wide.slice(s![..;2]);
                let v = ctx.upload_vector(&step).unwrap();
                assert_eq!(
                    v.to_array().unwrap(),
                    step,
                    "step-2 view, {threads} threads"
                );
                let g = ctx.upload_matrix(&m).unwrap();
                assert_eq!(g.to_array().unwrap(), m, "matrix, {threads} threads");
                check_sgemm(102, 1024, 1024, 512);
            },
        );
    }
}

/// With fresh outputs faulted in during the device copy, reads into new arrays give back
/// exactly what was uploaded: a 5 MiB vector (one staging chunk), a 36 MiB vector (past one
/// 32 MiB chunk: the pipelined read-back), several results at once (`read_back`), and outputs
/// below the fault-in size.
#[test]
fn prefaulted_outputs_receive_exactly_the_uploaded_elements() {
    let ctx = ctx();
    let mut r = rng(103);
    let small = rand_vec(&mut r, 1000);
    let mid = rand_vec(&mut r, 5 << 18);
    let large = Array1::from_shape_fn(9 << 20, |i| (i % 65_521) as f32 - 7.5);
    let m = rand_mat(&mut r, 1100, 1200);
    // On (the default) and off.
    for on in [true, false] {
        with_lab(
            || lab::set_prefault_outputs(on),
            || {
                assert_eq!(lab::prefault_outputs(), on);
                for (what, x) in [("small", &small), ("5 MiB", &mid), ("36 MiB", &large)] {
                    let v = ctx.upload_vector(x).unwrap();
                    assert_eq!(&v.to_array().unwrap(), x, "{what} vector");
                }
                let (gv, gm) = (
                    ctx.upload_vector(&mid).unwrap(),
                    ctx.upload_matrix(&m).unwrap(),
                );
                let (v, a) = ctx.read_back((&gv, &gm)).unwrap();
                assert_eq!((v, a), (mid.clone(), m.clone()), "read_back of two results");
                check_sgemm(104, 1100, 1200, 64);
            },
        );
    }
}

/// Host calls pass their metric whether the wait polls first (200 µs, on lavapipe where the
/// default is none) or blocks at once; `step_times` records the steps of their submissions.
#[test]
fn host_calls_pass_the_metric_with_and_without_a_spin() {
    let ctx = ctx();
    for spin in [Some(200), Some(0), None] {
        with_lab(
            || lab::set_spin_us(spin),
            || {
                assert_eq!(lab::spin_us(), spin);
                let before = ctx.step_times();
                check_sdot(105, 4099);
                check_sgemm(106, 64, 64, 64);
                let after = ctx.step_times();
                assert_eq!(before.len(), after.len());
                for ((name, t0), (_, t1)) in before.iter().zip(&after) {
                    if ["encode", "finish", "queue.submit"].contains(name) {
                        assert!(t1 > t0, "step {name} not timed ({spin:?})");
                    }
                }
            },
        );
    }
}
