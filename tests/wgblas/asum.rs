//! sasum, dasum: Σ|x_i|. Metric: ULP ≤ 50 (sasum), f64 ULP ≤ 64 (dasum) against OpenBLAS
//! (DESIGN.md §2). dasum runs on both f64 paths (native and the forced fallback).

use ndarray::{array, s, Array1};
use proptest::prelude::*;
use wgblas::metrics::{self, ulp_distance_f32, ulp_distance_f64};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::oracle_l1::{self as o1, f64_paths, fallback_ctx, rand_vec64, wide64, Vector64};

fn threshold(routine: &str) -> f64 {
    metrics::spec(routine).unwrap().threshold
}

#[test]
fn past_one_binding() {
    // One element past the binding limit: processed in two windows (issue 15).
    let n = ctx().limits().max_storage_buffer_binding_size as usize / 4 + 1;
    let mut x = Array1::<f32>::zeros(n);
    x[0] = 1.0;
    x[n - 1] = -2.0;
    assert_eq!(blas::sasum(ctx(), x.view()).unwrap(), 3.0);
    assert_eq!(x.gpu_asum().unwrap(), 3.0);
    let mut d = Array1::<f64>::zeros(n / 2 + 1);
    d[0] = 1.5;
    d[n / 2] = -2.5;
    for (path, c) in f64_paths() {
        assert_eq!(blas::dasum(c, d.view()).unwrap(), 4.0, "{path}");
    }
}

fn check(seed: u64, n: usize, lx: VLayout) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let xs = Vector::new(&x, lx);
    let gpu = blas::sasum(ctx(), xs.view()).unwrap();
    let reference = o1::sasum(x.view());
    let u = ulp_distance_f32(gpu, reference) as f64;
    assert!(
        u <= threshold("sasum"),
        "sasum n={n} {lx:?}: gpu {gpu}, OpenBLAS {reference}, {u} ULP"
    );
}

fn check64(seed: u64, n: usize, lx: VLayout, wide: bool) {
    let mut r = rng(seed);
    let x = if wide {
        Array1::from_shape_simple_fn(n, || wide64(&mut r))
    } else {
        rand_vec64(&mut r, n)
    };
    let xs = Vector64::new(&x, lx);
    let reference = o1::dasum(x.view());
    for (path, c) in f64_paths() {
        let gpu = blas::dasum(c, xs.view()).unwrap();
        let u = ulp_distance_f64(gpu, reference) as f64;
        assert!(
            u <= threshold("dasum"),
            "dasum {path} n={n} {lx:?} wide={wide}: gpu {gpu:e}, OpenBLAS {reference:e}, {u} ULP"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in 0usize..3000, lx in 0usize..4) {
        check(seed, n, VLAYOUTS[lx]);
    }

    #[test]
    fn fixtures_f64(seed in any::<u64>(), n in 0usize..3000, lx in 0usize..4, wide in any::<bool>()) {
        check64(seed, n, VLAYOUTS[lx], wide);
    }
}

#[test]
fn edge_netlib_values_every_stride() {
    for n in [0, 1, 2, 3, 5, 9] {
        for lx in VLAYOUTS {
            check(n as u64, n, lx);
            check64(n as u64, n, lx, false);
            check64(n as u64, n, lx, true);
        }
    }
}

#[test]
fn edge_hand_values_f32() {
    let c = ctx();
    let a = |x: Array1<f32>| blas::sasum(c, x.view()).unwrap();
    assert_eq!(a(array![1.0, -2.0, 3.5]), 6.5);
    assert_eq!(a(Array1::zeros(0)), 0.0);
    assert_eq!(a(array![-3.0]), 3.0);
    assert_eq!(a(array![-0.0, 0.0]), 0.0);
    assert_eq!(a(array![1.0, f32::NEG_INFINITY]), f32::INFINITY);
    assert_eq!(a(array![f32::INFINITY, f32::NEG_INFINITY]), f32::INFINITY);
    assert!(a(array![1.0, f32::NAN, 2.0]).is_nan());
    assert_eq!(a(array![f32::MAX, f32::MAX]), f32::INFINITY);
    let x = array![1.0f32, 100.0, -2.0, 100.0, 4.0];
    assert_eq!(blas::sasum(c, x.slice(s![..;2])).unwrap(), 7.0);
    assert_eq!(x.slice(s![..;-2]).gpu_asum().unwrap(), 7.0);
}

#[test]
fn edge_hand_values_f64_huge_tiny_both_paths() {
    let tiny = f64::from_bits(1);
    let mut many_tiny = Array1::from_elem(1000, 1e-300);
    many_tiny[500] = 1.0;
    let cases: Vec<(Array1<f64>, f64)> = vec![
        (array![1.0, -2.0, 3.5], 6.5),
        (array![-3.0], 3.0),
        (array![1e300, -1e300, 1e-300], 2e300),
        (array![1e308, 1e308], f64::INFINITY),
        (array![f64::MAX, -f64::MAX], f64::INFINITY),
        (array![f64::MAX, 1.0], f64::MAX),
        (array![tiny, tiny, -tiny, tiny], 4.0 * tiny),
        (Array1::from_elem(1000, -tiny), 1000.0 * tiny),
        (array![f64::MIN_POSITIVE, -tiny], f64::MIN_POSITIVE + tiny),
        (array![2f64.powi(1000), 2f64.powi(-1000)], 2f64.powi(1000)),
        (
            array![1.0, 2f64.powi(-52), 2f64.powi(-52)],
            1.0 + 2.0 * f64::EPSILON,
        ),
        (Array1::from_elem(1000, 1e300), 1e303),
        (many_tiny, 1.0 + 999e-300),
        (array![1.0, f64::NEG_INFINITY], f64::INFINITY),
        (array![-0.0, 0.0], 0.0),
    ];
    for (path, c) in f64_paths() {
        for (x, expected) in &cases {
            let got = blas::dasum(c, x.view()).unwrap();
            let u = ulp_distance_f64(got, *expected);
            // The exactly representable sums must be exact; 1e303 and 1 + 999e-300 within a
            // few ULP (their decimal operands are rounded).
            assert!(
                u <= 2,
                "{path}: dasum {x} = {got:e}, expected {expected:e} ({u} ULP)"
            );
            if *expected != 1e303 {
                assert_eq!(got, *expected, "{path}: dasum {x}");
            }
        }
        assert!(
            blas::dasum(c, array![1.0, f64::NAN, f64::INFINITY].view())
                .unwrap()
                .is_nan(),
            "{path}"
        );
        assert!(
            blas::dasum(c, array![f64::NAN].view()).unwrap().is_nan(),
            "{path}"
        );
        assert_eq!(
            blas::dasum(c, Array1::<f64>::zeros(0).view()).unwrap(),
            0.0,
            "{path}"
        );
        let x = array![1e300f64, 5.0, -2e300, 7.0];
        assert_eq!(blas::dasum(c, x.slice(s![..;2])).unwrap(), 3e300, "{path}");
        assert_eq!(blas::dasum(c, x.slice(s![..;-2])).unwrap(), 12.0, "{path}");
    }
    assert_eq!(array![1.0f64, -2.0].gpu_asum().unwrap(), 3.0);
}

/// The resident forms: the same fixtures and oracle, through `GpuVector`s: sasum kept on the
/// device (`resident::sasum`, and the host form on the same operand), dasum on a
/// `GpuVector<f64>` on both f64 paths.
fn check_resident(seed: u64, n: usize, wide: bool) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let reference = o1::sasum(x.view());
    let gx = ctx().upload_vector(&x).unwrap();
    let kept = wgblas::resident::sasum(ctx(), &gx).unwrap().get().unwrap();
    let host_form = blas::sasum(ctx(), &gx).unwrap();
    for (form, gpu) in [("resident::sasum", kept), ("blas::sasum", host_form)] {
        let u = ulp_distance_f32(gpu, reference) as f64;
        assert!(
            u <= threshold("sasum"),
            "{form} n={n}: gpu {gpu}, OpenBLAS {reference}, {u} ULP"
        );
    }
    let d = if wide {
        Array1::from_shape_simple_fn(n, || wide64(&mut r))
    } else {
        rand_vec64(&mut r, n)
    };
    let reference = o1::dasum(d.view());
    for (path, c) in f64_paths() {
        let gd = c.upload_vector(&d).unwrap();
        let gpu = blas::dasum(c, &gd).unwrap();
        let u = ulp_distance_f64(gpu, reference) as f64;
        assert!(
            u <= threshold("dasum"),
            "resident dasum {path} n={n} wide={wide}: gpu {gpu:e}, OpenBLAS {reference:e}, {u} ULP"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in 0usize..3000, wide in any::<bool>()) {
        check_resident(seed, n, wide);
    }
}

#[test]
fn resident_hand_values_and_device_chain() {
    let c = ctx();
    let kept = |x: Array1<f32>| {
        let g = c.upload_vector(&x).unwrap();
        wgblas::resident::sasum(c, &g).unwrap().get().unwrap()
    };
    assert_eq!(kept(array![1.0, -2.0, 3.5]), 6.5);
    assert_eq!(kept(Array1::zeros(0)), 0.0);
    assert_eq!(
        kept(array![f32::INFINITY, f32::NEG_INFINITY]),
        f32::INFINITY
    );
    assert!(kept(array![1.0, f32::NAN, 2.0]).is_nan());
    assert_eq!(kept(array![f32::MAX, f32::MAX]), f32::INFINITY);
    // The kept sum as sscal's alpha, with no read-back in between: x ← Σ|x|·x.
    let mut g = c.upload_vector(&array![1.0f32, -2.0, 0.5]).unwrap();
    let s = wgblas::resident::sasum(c, &g).unwrap();
    blas::sscal(c, &s, &mut g).unwrap();
    assert_eq!(g.to_array().unwrap(), array![3.5, -7.0, 1.75]);
    // dasum on GpuVector<f64>, huge and tiny, on both paths; another context's vector is an error.
    let tiny = f64::from_bits(1);
    for (path, c) in f64_paths() {
        for (x, expected) in [
            (array![1e300, -1e300, 1e-300], 2e300),
            (array![tiny, tiny, -tiny, tiny], 4.0 * tiny),
            (array![f64::MAX, -f64::MAX], f64::INFINITY),
            (Array1::zeros(0), 0.0),
        ] {
            let g = c.upload_vector(&x).unwrap();
            assert_eq!(blas::dasum(c, &g).unwrap(), expected, "{path}: {x}");
        }
    }
    let g = fallback_ctx().upload_vector(&array![1.0f64, 2.0]).unwrap();
    let err = blas::dasum(ctx(), &g).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidArgument {
                routine: "dasum",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn resident_concurrent_threads_keep_program_order() {
    // Threads sharing one context: each thread's kept sum must see its own upload and its own
    // held commands, whatever the other threads submit in between (a call that takes the held
    // commands of every thread must submit them before anyone else submits or writes).
    // Exact: sums of small integers.
    let failures = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for t in 0..4usize {
            let failures = &failures;
            s.spawn(move || {
                for i in 0..400usize {
                    let n = 100 + (i * 37 + t * 11) % 2000;
                    let x = Array1::from_shape_fn(n, |k| ((k + i) % 7) as f32 - 3.0);
                    let want: f32 = x.iter().map(|v| v.abs()).sum();
                    let g = ctx().upload_vector(&x).unwrap();
                    let got = if (i + t) % 2 == 0 {
                        wgblas::resident::sasum(ctx(), &g).unwrap().get().unwrap()
                    } else {
                        blas::sasum(ctx(), &g).unwrap()
                    };
                    if got != want {
                        failures.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    assert_eq!(failures.into_inner(), 0, "wrong sums under concurrency");
}
