//! snrm2: ‖x‖₂ by Blue's scaled sums (LAPACK 3.10). Metric: ULP ≤ 50 against OpenBLAS
//! (DESIGN.md §2); huge, tiny, Inf and NaN entries with hand-computed values (DESIGN.md §3).

use ndarray::{array, s, Array1};
use proptest::prelude::*;
use wgblas::blas;
use wgblas::metrics::{self, ulp_distance_f32};
use wgblas::prelude::*;

use crate::common::*;
use crate::oracle_l1 as o1;

fn threshold() -> f64 {
    metrics::spec("snrm2").unwrap().threshold
}

#[test]
fn past_one_binding() {
    let n = ctx().limits().max_storage_buffer_binding_size as usize / 4 + 1;
    let mut x = Array1::<f32>::zeros(n);
    x[0] = 3.0;
    x[n - 1] = 4.0;
    assert_eq!(blas::snrm2(ctx(), x.view()).unwrap(), 5.0);
    assert_eq!(x.gpu_nrm2().unwrap(), 5.0);
}

fn check_values(x: &Array1<f32>, lx: VLayout, what: &str) {
    let xs = Vector::new(x, lx);
    let gpu = blas::snrm2(ctx(), xs.view()).unwrap();
    let reference = o1::snrm2(x.view());
    let u = ulp_distance_f32(gpu, reference) as f64;
    assert!(
        u <= threshold(),
        "snrm2 {what} n={} {lx:?}: gpu {gpu:e}, OpenBLAS {reference:e}, {u} ULP",
        x.len()
    );
}

fn check(seed: u64, n: usize, lx: VLayout, scale: f32) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n) * scale;
    check_values(&x, lx, &format!("scale={scale:e}"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in 0usize..3000, lx in 0usize..4, scale in 0usize..5) {
        // Mid-range data, and data scaled into Blue's big and small ranges (and across them).
        let scale = [1.0, 1e25, 1e-25, 1e15, 1e-17][scale];
        check(seed, n, VLAYOUTS[lx], scale);
    }
}

#[test]
fn edge_netlib_values_every_stride() {
    for n in [0, 1, 2, 3, 5, 9] {
        for lx in VLAYOUTS {
            check(n as u64, n, lx, 1.0);
        }
    }
}

#[test]
fn edge_hand_values() {
    let c = ctx();
    let nrm = |x: Array1<f32>| blas::snrm2(c, x.view()).unwrap();
    let p = |e: i32| 2f32.powi(e);
    assert_eq!(nrm(Array1::zeros(0)), 0.0);
    assert_eq!(nrm(array![0.0, -0.0]), 0.0);
    assert_eq!(nrm(array![3.0, -4.0]), 5.0);
    assert_eq!(nrm(array![-3.5]), 3.5);
    // Huge: the squares overflow f32 (big sum, scaled by 2^-76), the norm does not.
    assert_eq!(nrm(array![3.0 * p(100), -4.0 * p(100)]), 5.0 * p(100));
    assert_eq!(nrm(array![1e38, 0.0]), 1e38);
    assert_eq!(nrm(array![f32::MAX]), f32::MAX);
    // Tiny: the squares underflow (small sum, scaled by 2^75), the norm does not.
    assert_eq!(nrm(array![3.0 * p(-100), -4.0 * p(-100)]), 5.0 * p(-100));
    assert_eq!(nrm(array![f32::MIN_POSITIVE]), f32::MIN_POSITIVE);
    // Big and medium combined: 2^45 is big (> 2^44), 3·2^43 medium → 5·2^43.
    assert_eq!(nrm(array![3.0 * p(43), p(45)]), 5.0 * p(43));
    // Small and medium combined: 3·2^-64 is small (< 2^-63), 2^-62 medium → 5·2^-64.
    assert_eq!(nrm(array![3.0 * p(-64), p(-62)]), 5.0 * p(-64));
    // Across the whole range: the tiny values vanish against the huge one.
    assert_eq!(nrm(array![1e-30, 1e30, 1.0, -1e-30]), 1e30);
    // Near the decimal values: within one rounding.
    for (x, expected) in [
        (array![3e20f32, -4e20], 5e20f32),
        (array![3e-30f32, 4e-30], 5e-30),
    ] {
        let got = nrm(x.clone());
        assert!(ulp_distance_f32(got, expected) <= 1, "{x}: {got:e}");
    }
    // The norm itself overflows: +inf, as in the reference.
    assert_eq!(nrm(array![3e38, 3e38]), f32::INFINITY);
    // Inf in → +Inf out; NaN in → NaN out (NaN wins over Inf).
    assert_eq!(nrm(array![1.0, f32::INFINITY]), f32::INFINITY);
    assert_eq!(nrm(array![f32::NEG_INFINITY]), f32::INFINITY);
    assert_eq!(nrm(array![1e-30, f32::NEG_INFINITY, 1e30]), f32::INFINITY);
    assert!(nrm(array![f32::NAN, 1.0]).is_nan());
    assert!(nrm(array![f32::INFINITY, f32::NAN]).is_nan());
    assert!(nrm(array![1e30, -f32::NAN, 1e-30]).is_nan());
    assert!(nrm(array![f32::NAN]).is_nan());
    // Views.
    let x = array![3.0f32, 12.0, 4.0, 5.0];
    assert_eq!(blas::snrm2(c, x.slice(s![..;2])).unwrap(), 5.0);
    assert_eq!(x.slice(s![..;-2]).gpu_nrm2().unwrap(), 13.0);
}

/// The resident form: the same fixtures and oracle through a `GpuVector`, the norm kept on the
/// device (`resident::snrm2`) and, on the same operand, the host form.
fn check_resident(seed: u64, n: usize, scale: f32) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n) * scale;
    let reference = o1::snrm2(x.view());
    let gx = ctx().upload_vector(&x).unwrap();
    let kept = wgblas::resident::snrm2(ctx(), &gx).unwrap().get().unwrap();
    let host_form = blas::snrm2(ctx(), &gx).unwrap();
    for (form, gpu) in [("resident::snrm2", kept), ("blas::snrm2", host_form)] {
        let u = ulp_distance_f32(gpu, reference) as f64;
        assert!(
            u <= threshold(),
            "{form} scale={scale:e} n={n}: gpu {gpu:e}, OpenBLAS {reference:e}, {u} ULP"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in 0usize..3000, scale in 0usize..5) {
        let scale = [1.0, 1e25, 1e-25, 1e15, 1e-17][scale];
        check_resident(seed, n, scale);
    }
}

#[test]
fn resident_hand_values() {
    let c = ctx();
    let kept = |x: Array1<f32>| {
        let g = c.upload_vector(&x).unwrap();
        wgblas::resident::snrm2(c, &g).unwrap().get().unwrap()
    };
    let p = |e: i32| 2f32.powi(e);
    assert_eq!(kept(Array1::zeros(0)), 0.0);
    assert_eq!(kept(array![3.0, -4.0]), 5.0);
    // Blue's scaling on the device path: huge, tiny, and big with medium.
    assert_eq!(kept(array![3.0 * p(100), -4.0 * p(100)]), 5.0 * p(100));
    assert_eq!(kept(array![3.0 * p(-100), -4.0 * p(-100)]), 5.0 * p(-100));
    assert_eq!(kept(array![3.0 * p(43), p(45)]), 5.0 * p(43));
    assert_eq!(kept(array![f32::MAX]), f32::MAX);
    // Inf → +Inf, NaN → NaN (NaN wins), the norm itself overflowing → +Inf.
    assert_eq!(kept(array![1e-30, f32::NEG_INFINITY, 1e30]), f32::INFINITY);
    assert!(kept(array![f32::INFINITY, f32::NAN]).is_nan());
    assert_eq!(kept(array![3e38, 3e38]), f32::INFINITY);
    // Two kept norms combined on the device: ‖[6, 8]‖ / ‖[3, 4]‖ = 2, then y ← 2·x + y.
    let a = c.upload_vector(&array![6.0f32, 8.0]).unwrap();
    let b = c.upload_vector(&array![3.0f32, 4.0]).unwrap();
    let two = wgblas::resident::snrm2(c, &a)
        .unwrap()
        .div(&wgblas::resident::snrm2(c, &b).unwrap())
        .unwrap();
    let mut y = array![1.0f32, 1.0];
    blas::saxpy(c, &two, &b, &mut y).unwrap();
    assert_eq!(y, array![7.0, 9.0]);
}
