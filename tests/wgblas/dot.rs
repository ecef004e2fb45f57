//! sdot: xᵀ·y. Metric: forward factor ≤ 1 with bound n·Σ|x_i·y_i| (DESIGN.md §2).

use ndarray::{array, s, Array1};
use proptest::prelude::*;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;

const THRESHOLD: f64 = 1.0;

#[test]
fn validation_length_mismatch() {
    let x = Array1::<f32>::ones(5);
    let y = Array1::<f32>::ones(6);
    let err = blas::sdot(ctx(), x.view(), y.view()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sdot",
                arg: "y",
                ..
            }
        ),
        "{err}"
    );
    assert!(x.gpu_dot(&y).is_err());
}

#[test]
fn past_one_binding() {
    let n = ctx().limits().max_storage_buffer_binding_size as usize / 4 + 1;
    // y_i = 1 for i ≡ 0 (mod 4): Σ x_i·y_i = ⌈n/4⌉ with x = 1, every partial sum an integer
    // below 2^24 (exact).
    let x = Array1::<f32>::ones(n);
    let y = Array1::from_shape_fn(n, |i| if i % 4 == 0 { 1.0 } else { 0.0 });
    assert_eq!(x.gpu_dot(&y).unwrap(), n.div_ceil(4) as f32);
}

fn check(seed: u64, n: usize, lx: VLayout, ly: VLayout) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, n);
    let (xs, ys) = (Vector::new(&x, lx), Vector::new(&y, ly));
    let d = blas::sdot(ctx(), xs.view(), ys.view()).unwrap();
    let reference = oracle::sdot(x.view(), y.view());
    let f = metrics::forward_factor_scalar(d, reference, bounds::dot(x.view(), y.view()));
    assert!(
        f <= THRESHOLD,
        "sdot n={n} {lx:?}/{ly:?}: gpu {d} ref {reference} factor {f}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in 0usize..5000, lx in 0usize..4, ly in 0usize..4) {
        check(seed, n, VLAYOUTS[lx], VLAYOUTS[ly]);
    }
}

#[test]
fn edge_netlib_sizes_every_stride() {
    for n in [0, 1, 2, 3, 5, 9, 255, 256, 257] {
        for lx in VLAYOUTS {
            for ly in VLAYOUTS {
                check(n as u64 + 11, n, lx, ly);
            }
        }
    }
}

#[test]
fn edge_hand_values() {
    // [1,2,3]·[4,5,6] = 4 + 10 + 18 = 32
    let x = array![1.0f32, 2.0, 3.0];
    let y = array![4.0f32, 5.0, 6.0];
    assert_eq!(x.gpu_dot(&y).unwrap(), 32.0);
    // Reversed y: [1,2,3]·[6,5,4] = 6 + 10 + 12 = 28
    assert_eq!(x.gpu_dot(&y.slice(s![..;-1])).unwrap(), 28.0);
    // Step 2 over [1,2,3,4,5]: [1,3,5]·[1,3,5] = 35
    let z = array![1.0f32, 2.0, 3.0, 4.0, 5.0];
    assert_eq!(z.slice(s![..;2]).gpu_dot(&z.slice(s![..;2])).unwrap(), 35.0);
}

#[test]
fn edge_n_zero_is_zero() {
    let x = Array1::<f32>::zeros(0);
    assert_eq!(x.gpu_dot(&x).unwrap(), 0.0);
}

#[test]
fn edge_nan_and_inf_propagate() {
    let x = array![1.0f32, f32::NAN, 2.0];
    let y = array![1.0f32, 1.0, 1.0];
    assert!(x.gpu_dot(&y).unwrap().is_nan());
    let x = array![1.0f32, f32::INFINITY, 2.0];
    assert_eq!(x.gpu_dot(&y).unwrap(), f32::INFINITY);
}

#[test]
fn edge_large_n_sums_past_2_pow_24() {
    // Σ 1·1 over 2^24 + 3 terms: a sequential f32 sum stalls at 2^24; the tree does not.
    let n = (1 << 24) + 3;
    let x = Array1::<f32>::ones(n);
    assert_eq!(x.gpu_dot(&x).unwrap(), n as f32);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    /// The resident form: the result stays on the device as a `GpuScalar` until `get`.
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in 0usize..5000) {
        let mut r = rng(seed);
        let x = rand_vec(&mut r, n);
        let y = rand_vec(&mut r, n);
        let (gx, gy) = (ctx().upload_vector(&x).unwrap(), ctx().upload_vector(&y).unwrap());
        let d = wgblas::resident::sdot(ctx(), &gx, &gy).unwrap().get().unwrap();
        let reference = oracle::sdot(x.view(), y.view());
        let f = metrics::forward_factor_scalar(d, reference, bounds::dot(x.view(), y.view()));
        prop_assert!(f <= THRESHOLD, "resident sdot n={n}: gpu {d} ref {reference} factor {f}");
        // The host form on resident operands returns the same value.
        prop_assert_eq!(blas::sdot(ctx(), &gx, &gy).unwrap().to_bits(), d.to_bits());
    }
}
