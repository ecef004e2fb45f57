//! isamax, idamax: 0-based index of the first largest |x_i| (first NaN wins, ties to the lowest
//! index). Metric: exact index (DESIGN.md §2). idamax runs on both f64 paths (native where the
//! adapter has SHADER_F64, and the forced fallback).

use ndarray::{array, s, Array1};
use proptest::prelude::*;
use wgblas::metrics;
use wgblas::prelude::*;
use wgblas::{blas, Error, GpuVector};

use crate::common::*;
use crate::oracle_l1::{self as o1, f64_paths, fallback_ctx, rand_vec64, wide64, Vector64};

/// Exact index: the measure is 0 when the indices are equal, 1 otherwise.
fn measure(gpu: usize, reference: usize) -> f64 {
    if gpu == reference {
        0.0
    } else {
        1.0
    }
}

fn threshold(routine: &str) -> f64 {
    metrics::spec(routine).unwrap().threshold
}

#[test]
fn validation_empty_is_an_error() {
    let x = Array1::<f32>::zeros(0);
    let err = blas::isamax(ctx(), x.view()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidArgument {
                routine: "isamax",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
    assert!(matches!(
        x.gpu_iamax(),
        Err(Error::InvalidArgument {
            routine: "isamax",
            ..
        })
    ));
    let d = Array1::<f64>::zeros(0);
    for (path, c) in f64_paths() {
        let err = blas::idamax(c, d.view()).unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidArgument {
                    routine: "idamax",
                    arg: "x",
                    ..
                }
            ),
            "{path}: {err}"
        );
    }
    assert!(matches!(
        d.gpu_iamax(),
        Err(Error::InvalidArgument {
            routine: "idamax",
            ..
        })
    ));
}

#[test]
fn past_one_binding() {
    let n = ctx().limits().max_storage_buffer_binding_size as usize / 4 + 1;
    let mut x = Array1::<f32>::zeros(n);
    x[n - 1] = -1.0;
    assert_eq!(blas::isamax(ctx(), x.view()).unwrap(), n - 1);
    // A tie in the first window wins.
    x[n - 10] = 1.0;
    assert_eq!(blas::isamax(ctx(), x.view()).unwrap(), n - 10);
    let mut d = Array1::<f64>::zeros(n / 2 + 1);
    d[n / 2] = 2.0;
    for (path, c) in f64_paths() {
        assert_eq!(blas::idamax(c, d.view()).unwrap(), n / 2, "{path}");
    }
}

fn check(seed: u64, n: usize, lx: VLayout) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let xs = Vector::new(&x, lx);
    let gpu = blas::isamax(ctx(), xs.view()).unwrap();
    let m = measure(gpu, o1::isamax(x.view()));
    assert!(
        m <= threshold("isamax"),
        "isamax n={n} {lx:?}: gpu {gpu}, OpenBLAS {}",
        o1::isamax(x.view())
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
    let reference = o1::idamax(x.view());
    for (path, c) in f64_paths() {
        let gpu = blas::idamax(c, xs.view()).unwrap();
        let m = measure(gpu, reference);
        assert!(
            m <= threshold("idamax"),
            "idamax {path} n={n} {lx:?} wide={wide}: gpu {gpu}, OpenBLAS {reference}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in 1usize..3000, lx in 0usize..4) {
        check(seed, n, VLAYOUTS[lx]);
    }

    #[test]
    fn fixtures_f64(seed in any::<u64>(), n in 1usize..3000, lx in 0usize..4, wide in any::<bool>()) {
        check64(seed, n, VLAYOUTS[lx], wide);
    }
}

#[test]
fn edge_netlib_values_every_stride() {
    for n in [1, 2, 3, 5, 9] {
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
    let i = |x: Array1<f32>| blas::isamax(c, x.view()).unwrap();
    // Ties go to the lowest index, whatever the sign; -0 ties with 0.
    assert_eq!(i(array![1.0, -7.0, 3.0, 7.0]), 1);
    assert_eq!(i(array![-0.0, 0.0, -0.0]), 0);
    assert_eq!(i(array![0.0, -0.0]), 0);
    // Infinities beat every finite value; -inf ties with +inf.
    assert_eq!(i(array![f32::MAX, f32::NEG_INFINITY, f32::INFINITY]), 1);
    // The first NaN wins, over infinities and later NaNs.
    assert_eq!(i(array![1.0, f32::NAN, 5.0, f32::NAN]), 1);
    assert_eq!(i(array![f32::INFINITY, 2.0, f32::NAN]), 2);
    assert_eq!(i(array![f32::NAN, f32::INFINITY]), 0);
    assert_eq!(i(array![-f32::NAN, 1.0]), 0);
    // Subnormals compare exactly (bit patterns, no flush to zero).
    assert_eq!(i(array![0.0, f32::from_bits(1), 0.0]), 1);
    assert_eq!(
        i(array![
            f32::from_bits(1),
            f32::from_bits(2),
            f32::from_bits(2)
        ]),
        1
    );
    // Neighbouring floats.
    assert_eq!(i(array![1.0, -1.0 - f32::EPSILON, 1.0 + f32::EPSILON]), 1);
    // n = 1: index 0, even for NaN.
    assert_eq!(i(array![f32::NAN]), 0);
    assert_eq!(i(array![-3.0]), 0);
    // Views: the index is the logical one.
    let x = array![9.0f32, 1.0, 2.0, 9.0, 3.0];
    assert_eq!(blas::isamax(c, x.slice(s![..;-1])).unwrap(), 1);
    assert_eq!(blas::isamax(c, x.slice(s![1..;2])).unwrap(), 1);
    assert_eq!(x.slice(s![..;-2]).gpu_iamax().unwrap(), 2);
}

#[test]
fn edge_hand_values_f64_both_paths() {
    let tiny = f64::from_bits(1);
    let cases: Vec<(Array1<f64>, usize)> = vec![
        (array![1.0, -7.0, 3.0, 7.0], 1),
        (array![-0.0, 0.0], 0),
        (array![1e-300, -1e300, 5e-324, 1e300], 1),
        (array![f64::MAX, f64::NEG_INFINITY, f64::INFINITY], 1),
        (array![1.0, f64::NAN, 5.0, f64::NAN], 1),
        (array![f64::INFINITY, 2.0, f64::NAN], 2),
        (array![f64::NAN, f64::INFINITY], 0),
        // NaN whose payload is only in the low word.
        (
            array![f64::INFINITY, f64::from_bits(0x7ff0_0000_0000_0001)],
            1,
        ),
        (array![0.0, tiny, 0.0], 1),
        (array![tiny, 2.0 * tiny, -2.0 * tiny], 1),
        (array![f64::MIN_POSITIVE, f64::MIN_POSITIVE - tiny], 0),
        // Magnitudes that differ in the low word only.
        (array![1.0, -(1.0 + f64::EPSILON), 1.0 + f64::EPSILON], 1),
        (array![1.0 + 2.0 * f64::EPSILON, 1.0 + f64::EPSILON], 0),
        (array![f64::NAN], 0),
    ];
    for (path, c) in f64_paths() {
        for (x, expected) in &cases {
            assert_eq!(blas::idamax(c, x.view()).unwrap(), *expected, "{path}: {x}");
            let xr = x.slice(s![..;-1]);
            if x.len() > 1 && !x.iter().any(|v| v.is_nan()) {
                // Reversed: the last maximum in memory is the first logical one.
                let want = x.len()
                    - 1
                    - x.iter()
                        .rposition(|v| v.abs() == x[*expected].abs())
                        .unwrap();
                assert_eq!(blas::idamax(c, xr).unwrap(), want, "{path}: reversed {x}");
            }
        }
    }
    assert_eq!(array![2.0f64, -3.0].gpu_iamax().unwrap(), 1);
}

#[test]
fn edge_ties_and_nan_across_workgroups() {
    // 100 000 elements span many workgroups: the winner must come from the tree correctly.
    let n = 100_000;
    let mut x = Array1::from_shape_fn(n, |i| ((i * 7919) % 1000) as f32 / 1000.0);
    x[99_000] = -2.0;
    x[70_000] = 2.0;
    assert_eq!(blas::isamax(ctx(), x.view()).unwrap(), 70_000);
    x[80_000] = f32::NAN;
    x[30_000] = f32::NAN;
    assert_eq!(blas::isamax(ctx(), x.view()).unwrap(), 30_000);
    let mut d = x.mapv(f64::from);
    d[30_000] = 0.5;
    d[80_000] = 0.5;
    for (path, c) in f64_paths() {
        assert_eq!(blas::idamax(c, d.view()).unwrap(), 70_000, "{path}");
    }
    d[90_000] = f64::NAN;
    d[40_000] = f64::NAN;
    for (path, c) in f64_paths() {
        assert_eq!(blas::idamax(c, d.view()).unwrap(), 40_000, "{path}");
    }
}

/// The resident forms: the same fixtures and oracle, through `GpuVector`s: isamax kept on the
/// device (`resident::isamax`) and the host form on a resident operand; idamax on a
/// `GpuVector<f64>` on both f64 paths.
fn check_resident(seed: u64, n: usize, wide: bool) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let reference = o1::isamax(x.view());
    let gx = ctx().upload_vector(&x).unwrap();
    let kept = wgblas::resident::isamax(ctx(), &gx).unwrap().get().unwrap();
    let host_form = blas::isamax(ctx(), &gx).unwrap();
    for (form, gpu) in [("resident::isamax", kept), ("blas::isamax", host_form)] {
        assert!(
            measure(gpu, reference) <= threshold("isamax"),
            "{form} n={n}: gpu {gpu}, OpenBLAS {reference}"
        );
    }
    let d = if wide {
        Array1::from_shape_simple_fn(n, || wide64(&mut r))
    } else {
        rand_vec64(&mut r, n)
    };
    let reference = o1::idamax(d.view());
    for (path, c) in f64_paths() {
        let gd = c.upload_vector(&d).unwrap();
        let gpu = blas::idamax(c, &gd).unwrap();
        assert!(
            measure(gpu, reference) <= threshold("idamax"),
            "resident idamax {path} n={n} wide={wide}: gpu {gpu}, OpenBLAS {reference}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in 1usize..3000, wide in any::<bool>()) {
        check_resident(seed, n, wide);
    }
}

#[test]
fn resident_hand_values_nan_ties_and_errors() {
    let c = ctx();
    let both = |x: Array1<f32>| {
        let g = c.upload_vector(&x).unwrap();
        let kept = wgblas::resident::isamax(c, &g).unwrap().get().unwrap();
        assert_eq!(kept, blas::isamax(c, &g).unwrap(), "{x}");
        kept
    };
    assert_eq!(both(array![1.0, -7.0, 3.0, 7.0]), 1);
    assert_eq!(both(array![1.0, f32::NAN, 5.0, f32::NAN]), 1);
    assert_eq!(both(array![f32::INFINITY, 2.0, f32::NAN]), 2);
    assert_eq!(both(array![0.0, f32::from_bits(1), 0.0]), 1);
    assert_eq!(both(array![f32::NAN]), 0);
    // Across workgroups: the kept index is a full usize, not a truncated word.
    let mut big = Array1::from_shape_fn(100_000, |i| ((i * 7919) % 1000) as f32 / 1000.0);
    big[70_000] = -2.0;
    big[99_000] = 2.0;
    assert_eq!(both(big), 70_000);
    // An empty resident vector is an error in both forms.
    let empty = GpuVector::<f32>::zeros(c, 0).unwrap();
    for err in [
        wgblas::resident::isamax(c, &empty).map(|_| ()).unwrap_err(),
        blas::isamax(c, &empty).map(|_| ()).unwrap_err(),
    ] {
        assert!(
            matches!(
                err,
                Error::InvalidArgument {
                    routine: "isamax",
                    arg: "x",
                    ..
                }
            ),
            "{err}"
        );
    }
    // idamax on GpuVector<f64>: magnitudes that differ in the low word only, and a NaN whose
    // payload is only in the low word, on both paths; a vector of another context is an error.
    for (path, c) in f64_paths() {
        let g = c
            .upload_vector(&array![1.0, -(1.0 + f64::EPSILON), 1.0 + f64::EPSILON])
            .unwrap();
        assert_eq!(blas::idamax(c, &g).unwrap(), 1, "{path}");
        let g = c
            .upload_vector(&array![
                f64::INFINITY,
                f64::from_bits(0x7ff0_0000_0000_0001)
            ])
            .unwrap();
        assert_eq!(blas::idamax(c, &g).unwrap(), 1, "{path}");
    }
    let g = fallback_ctx().upload_vector(&array![1.0f64, 2.0]).unwrap();
    let err = blas::idamax(ctx(), &g).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidArgument {
                routine: "idamax",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
}
