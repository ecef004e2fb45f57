//! sscal: x ← alpha·x. Metric: max ULP = 0 against OpenBLAS (DESIGN.md §2); alpha = 0 on NaN/Inf
//! gives NaN as in reference BLAS (DESIGN.md §3), checked by hand.

use ndarray::{array, s, Array1};
use proptest::prelude::*;
use wgblas::metrics::{self, max_ulp_f32};
use wgblas::prelude::*;
use wgblas::{blas, Error, GpuScalar};

use crate::common::*;
use crate::oracle_l1::{self as o1, fallback_ctx};

fn threshold() -> f64 {
    metrics::spec("sscal").unwrap().threshold
}

#[test]
fn past_one_binding() {
    let n = ctx().limits().max_storage_buffer_binding_size as usize / 4 + 1;
    let mut x = Array1::<f32>::zeros(n);
    (x[0], x[n - 1]) = (3.0, -1.0);
    blas::sscal(ctx(), 2.0, x.view_mut()).unwrap();
    assert_eq!((x[0], x[n - 1]), (6.0, -2.0));
    blas::sscal(ctx(), 1.0, x.view_mut()).unwrap();
    x.gpu_scal_inplace(2.0).unwrap();
    assert_eq!((x[0], x[n - 1]), (12.0, -4.0));
}

fn check(seed: u64, n: usize, alpha: f32, lx: VLayout) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let mut xs = Vector::new(&x, lx);
    blas::sscal(ctx(), alpha, xs.view_mut()).unwrap();
    let u = max_ulp_f32(&xs.to_owned(), &o1::sscal(alpha, x.view())).unwrap() as f64;
    assert!(
        u <= threshold(),
        "sscal n={n} alpha={alpha} {lx:?}: {u} ULP"
    );
    assert!(
        xs.outside_is_untouched(),
        "sscal wrote outside the strided view"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in 0usize..3000, alpha in -2.0f32..2.0, lx in 0usize..4) {
        check(seed, n, alpha, VLAYOUTS[lx]);
    }
}

#[test]
fn edge_netlib_values_every_stride() {
    for n in [0, 1, 2, 3, 5, 9] {
        for alpha in [0.0, 1.0, 0.7] {
            for lx in VLAYOUTS {
                check(n as u64, n, alpha, lx);
            }
        }
    }
}

#[test]
fn edge_alpha_zero_propagates_nan() {
    // Reference BLAS multiplies: 0·NaN = NaN, 0·±Inf = NaN, 0·(−2) = −0.
    let mut x = array![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 2.0, -2.0];
    blas::sscal(ctx(), 0.0, x.view_mut()).unwrap();
    assert!(x[0].is_nan() && x[1].is_nan() && x[2].is_nan(), "{x}");
    assert_eq!(
        (x[3].to_bits(), x[4].to_bits()),
        (0.0f32.to_bits(), (-0.0f32).to_bits())
    );
    // Same through a strided view: the padding is not touched.
    let mut buf = array![7.0f32, f32::INFINITY, 7.0, 1.0, 7.0];
    buf.slice_mut(s![1..;2]).gpu_scal_inplace(0.0).unwrap();
    assert!(buf[1].is_nan());
    assert_eq!([buf[0], buf[2], buf[3], buf[4]], [7.0, 7.0, 0.0, 7.0]);
}

#[test]
fn edge_hand_values() {
    let x = array![1.0f32, -2.0, 0.5, f32::INFINITY];
    assert_eq!(
        x.gpu_scal(-2.0).unwrap(),
        array![-2.0, 4.0, -1.0, f32::NEG_INFINITY]
    );
    // alpha = 1 leaves x as it is, NaN included.
    let mut y = array![f32::NAN, 3.0];
    y.gpu_scal_inplace(1.0).unwrap();
    assert!(y[0].is_nan() && y[1] == 3.0);
    // Reversed view: element-wise, so the same values in the same places.
    let mut z = array![1.0f32, 2.0, 3.0];
    blas::sscal(ctx(), 3.0, z.slice_mut(s![..;-1])).unwrap();
    assert_eq!(z, array![3.0, 6.0, 9.0]);
    // Overflow to inf, one correct rounding.
    assert_eq!(array![f32::MAX].gpu_scal(2.0).unwrap()[0], f32::INFINITY);
    assert_eq!(
        array![1.0f32 / 3.0].gpu_scal(3.0).unwrap()[0],
        (1.0f32 / 3.0) * 3.0
    );
    assert_eq!(Array1::<f32>::zeros(0).gpu_scal(2.0).unwrap().len(), 0);
}

/// `alpha` as a `GpuScalar` computed on the device: `[alpha]·[1]`, exact.
fn device_scalar(alpha: f32) -> GpuScalar<'static, f32> {
    let a = ctx().upload_vector(&array![alpha]).unwrap();
    let one = ctx().upload_vector(&array![1.0f32]).unwrap();
    wgblas::resident::sdot(ctx(), &a, &one).unwrap()
}

/// The resident form: the same fixtures and oracle, through a `GpuVector`, with alpha from the
/// host or from the device.
fn check_resident(seed: u64, n: usize, alpha: f32, device_alpha: bool) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let mut gx = ctx().upload_vector(&x).unwrap();
    if device_alpha {
        blas::sscal(ctx(), &device_scalar(alpha), &mut gx).unwrap();
    } else {
        blas::sscal(ctx(), alpha, &mut gx).unwrap();
    }
    let u = max_ulp_f32(&gx.to_array().unwrap(), &o1::sscal(alpha, x.view())).unwrap() as f64;
    assert!(
        u <= threshold(),
        "resident sscal n={n} alpha={alpha} device alpha {device_alpha}: {u} ULP"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in 0usize..3000, alpha in -2.0f32..2.0,
                         device_alpha in any::<bool>()) {
        check_resident(seed, n, alpha, device_alpha);
    }
}

#[test]
fn resident_device_alpha_hand_values() {
    // alpha = ‖[3, 4]‖ = 5 on the device, applied to a resident x and to a host x.
    let v = ctx().upload_vector(&array![3.0f32, 4.0]).unwrap();
    let five = wgblas::resident::snrm2(ctx(), &v).unwrap();
    let mut gx = ctx().upload_vector(&array![1.0f32, -2.0, 0.5]).unwrap();
    blas::sscal(ctx(), &five, &mut gx).unwrap();
    assert_eq!(gx.to_array().unwrap(), array![5.0, -10.0, 2.5]);
    let mut x = array![1.0f32, 9.0, -0.25];
    blas::sscal(ctx(), &five, x.slice_mut(s![..;2])).unwrap();
    assert_eq!(x, array![5.0, 9.0, -1.25]);
    // A device alpha = 0 still multiplies: 0·NaN = 0·Inf = NaN, 0·(−2) = −0, as on the host.
    let zero = device_scalar(0.0);
    let mut g = ctx()
        .upload_vector(&array![f32::NAN, f32::INFINITY, -2.0])
        .unwrap();
    blas::sscal(ctx(), &zero, &mut g).unwrap();
    let g = g.to_array().unwrap();
    assert!(g[0].is_nan() && g[1].is_nan(), "{g}");
    assert_eq!(g[2].to_bits(), (-0.0f32).to_bits());
    // A device alpha = 1 leaves x as it is.
    let mut g = ctx().upload_vector(&array![f32::NAN, 3.0]).unwrap();
    blas::sscal(ctx(), &device_scalar(1.0), &mut g).unwrap();
    let g = g.to_array().unwrap();
    assert!(g[0].is_nan() && g[1] == 3.0, "{g}");
    // A device alpha of another context is an error; x is unchanged.
    let foreign = {
        let a = fallback_ctx().upload_vector(&array![2.0f32]).unwrap();
        wgblas::resident::sasum(fallback_ctx(), &a).unwrap()
    };
    let mut gx = ctx().upload_vector(&array![1.0f32, 2.0]).unwrap();
    let err = blas::sscal(ctx(), &foreign, &mut gx).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidArgument {
                routine: "sscal",
                arg: "alpha",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(gx.to_array().unwrap(), array![1.0, 2.0]);
}
