//! saxpy: y ← alpha·x + y. Metric: forward factor ≤ 1 (DESIGN.md §2).

use ndarray::{array, Array1};
use proptest::prelude::*;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;

const THRESHOLD: f64 = 1.0;

#[test]
fn validation_length_mismatch() {
    let x = Array1::<f32>::ones(5);
    let mut y = Array1::<f32>::from_elem(4, 7.0);
    let err = blas::saxpy(ctx(), 2.0, x.view(), y.view_mut()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "saxpy",
                arg: "y",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(y, Array1::from_elem(4, 7.0));
    let err = x.gpu_axpy_inplace(2.0, &mut y).unwrap_err();
    assert!(matches!(
        err,
        Error::DimensionMismatch {
            routine: "saxpy",
            arg: "y",
            ..
        }
    ));
    assert!(x.gpu_axpy(1.0, &y).is_err());
    assert_eq!(y, Array1::from_elem(4, 7.0));
}

#[test]
fn past_one_binding() {
    let n = ctx().limits().max_storage_buffer_binding_size as usize / 4 + 1;
    let x = Array1::from_shape_fn(n, |i| (i % 7) as f32);
    let mut y = Array1::<f32>::ones(n);
    blas::saxpy(ctx(), 2.0, x.view(), y.view_mut()).unwrap();
    assert!(y
        .iter()
        .enumerate()
        .all(|(i, &v)| v == 2.0 * (i % 7) as f32 + 1.0));
}

fn check(seed: u64, n: usize, alpha: f32, lx: VLayout, ly: VLayout) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, n);
    let xs = Vector::new(&x, lx);
    let mut ys = Vector::new(&y, ly);
    blas::saxpy(ctx(), alpha, xs.view(), ys.view_mut()).unwrap();
    let reference = oracle::saxpy(alpha, x.view(), y.view());
    let bound = bounds::axpy(alpha, x.view(), y.view());
    let f = metrics::forward_factor(&ys.to_owned(), &reference, &bound).unwrap();
    assert!(
        f <= THRESHOLD,
        "saxpy n={n} alpha={alpha} {lx:?}/{ly:?}: forward factor {f}"
    );
    assert!(
        ys.outside_is_untouched(),
        "saxpy wrote outside the strided view"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in 0usize..3000, alpha in -2.0f32..2.0,
                lx in 0usize..4, ly in 0usize..4) {
        check(seed, n, alpha, VLAYOUTS[lx], VLAYOUTS[ly]);
    }
}

#[test]
fn edge_netlib_values_every_stride() {
    for n in [0, 1, 2, 3, 5, 9] {
        for alpha in [0.0, 1.0, 0.7] {
            for lx in VLAYOUTS {
                for ly in VLAYOUTS {
                    check(n as u64, n, alpha, lx, ly);
                }
            }
        }
    }
}

#[test]
fn edge_hand_values() {
    // 2·[1, -2, 0.5] + [10, 10, 10] = [12, 6, 11]
    let x = array![1.0f32, -2.0, 0.5];
    let mut y = array![10.0f32, 10.0, 10.0];
    x.gpu_axpy_inplace(2.0, &mut y).unwrap();
    assert_eq!(y, array![12.0, 6.0, 11.0]);
    // Reversed x: logical element i of x.slice(s![..;-1]) is x[n-1-i].
    let mut y = array![0.0f32, 0.0, 0.0];
    x.slice(ndarray::s![..;-1])
        .gpu_axpy_inplace(1.0, &mut y)
        .unwrap();
    assert_eq!(y, array![0.5, -2.0, 1.0]);
}

#[test]
fn edge_alpha_zero_is_quick_return() {
    // Reference BLAS returns at once for alpha = 0: y unchanged, even NaN/Inf in x.
    let x = array![f32::NAN, f32::INFINITY];
    let mut y = array![1.0f32, 2.0];
    x.gpu_axpy_inplace(0.0, &mut y).unwrap();
    assert_eq!(y, array![1.0, 2.0]);
}

#[test]
fn edge_n_zero() {
    let x = Array1::<f32>::zeros(0);
    let mut y = Array1::<f32>::zeros(0);
    x.gpu_axpy_inplace(3.0, &mut y).unwrap();
    assert_eq!(x.gpu_axpy(3.0, &y).unwrap().len(), 0);
}

#[test]
fn edge_large_n_past_one_dispatch_dimension() {
    // 65535·256 + 3 elements: the grid needs a second dimension.
    let n = 65535 * 256 + 3;
    let x = Array1::<f32>::from_shape_fn(n, |i| (i % 7) as f32);
    let mut y = Array1::<f32>::ones(n);
    x.gpu_axpy_inplace(2.0, &mut y).unwrap();
    for i in [0, 1, 6, 65535 * 256 - 1, 65535 * 256, n - 1] {
        assert_eq!(y[i], 2.0 * (i % 7) as f32 + 1.0, "element {i}");
    }
}

/// The resident form: the same fixtures and oracle, through `GpuVector`s.
fn check_resident(seed: u64, n: usize, alpha: f32) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, n);
    let gx = ctx().upload_vector(&x).unwrap();
    let mut gy = ctx().upload_vector(&y).unwrap();
    blas::saxpy(ctx(), alpha, &gx, &mut gy).unwrap();
    let reference = oracle::saxpy(alpha, x.view(), y.view());
    let bound = bounds::axpy(alpha, x.view(), y.view());
    let f = metrics::forward_factor(&gy.to_array().unwrap(), &reference, &bound).unwrap();
    assert!(
        f <= THRESHOLD,
        "resident saxpy n={n} alpha={alpha}: forward factor {f}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in 0usize..3000, alpha in -2.0f32..2.0) {
        check_resident(seed, n, alpha);
    }
}

#[test]
fn resident_device_alpha_and_mixed_operands() {
    // alpha = x·x = 1 + 4 + 0.25 = 5.25 from the device; y ← 5.25·x + y with a host x.
    let x = array![1.0f32, -2.0, 0.5];
    let gx = ctx().upload_vector(&x).unwrap();
    let alpha = wgblas::resident::sdot(ctx(), &gx, &gx).unwrap();
    let mut gy = ctx().upload_vector(&array![1.0f32, 1.0, 1.0]).unwrap();
    blas::saxpy(ctx(), &alpha, &x, &mut gy).unwrap();
    assert_eq!(gy.to_array().unwrap(), array![6.25, -9.5, 3.625]);
    // Resident x, host y: the host output is read back and written.
    let mut y = array![0.0f32, 0.0, 0.0];
    blas::saxpy(ctx(), 2.0, &gx, &mut y).unwrap();
    assert_eq!(y, array![2.0, -4.0, 1.0]);
}
