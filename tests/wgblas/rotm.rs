//! srotm: modified Givens transformation with flags −2, −1, 0, 1. Metric: forward factor ≤ 1
//! against OpenBLAS for both outputs (DESIGN.md §2).

use ndarray::{array, Array1};
use proptest::prelude::*;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::oracle_l1 as o1;

const FLAGS: [f32; 4] = [-2.0, -1.0, 0.0, 1.0];
const NAN: f32 = f32::NAN;

fn threshold() -> f64 {
    metrics::spec("srotm").unwrap().threshold
}

#[test]
fn validation_length_mismatch() {
    let mut x = Array1::<f32>::ones(5);
    let mut y = Array1::<f32>::from_elem(4, 7.0);
    for flag in FLAGS {
        let param = [flag, 2.0, 3.0, 4.0, 5.0];
        let err = blas::srotm(ctx(), x.view_mut(), y.view_mut(), param).unwrap_err();
        assert!(
            matches!(
                err,
                Error::DimensionMismatch {
                    routine: "srotm",
                    arg: "y",
                    ..
                }
            ),
            "{err}"
        );
        assert!(x.gpu_rotm_inplace(&mut y, param).is_err());
    }
    assert_eq!(x, Array1::ones(5));
    assert_eq!(y, Array1::from_elem(4, 7.0));
}

#[test]
fn validation_invalid_flag() {
    let mut x = array![1.0f32, 2.0];
    let mut y = array![3.0f32, 4.0];
    for flag in [2.0, -3.0, 0.5, -1.5, NAN, f32::INFINITY] {
        let param = [flag, 2.0, 3.0, 4.0, 5.0];
        let err = blas::srotm(ctx(), x.view_mut(), y.view_mut(), param).unwrap_err();
        assert!(
            matches!(
                err,
                Error::InvalidArgument {
                    routine: "srotm",
                    arg: "param",
                    ..
                }
            ),
            "{err}"
        );
        assert!(x.gpu_rotm(&y, param).is_err());
        // Whatever n is.
        let (mut e, mut f) = (Array1::<f32>::zeros(0), Array1::<f32>::zeros(0));
        assert!(e.gpu_rotm_inplace(&mut f, param).is_err());
    }
    assert_eq!((x, y), (array![1.0, 2.0], array![3.0, 4.0]));
}

#[test]
fn past_one_binding() {
    let n = ctx().limits().max_storage_buffer_binding_size as usize / 4 + 1;
    let mut x = Array1::<f32>::zeros(n);
    let mut y = Array1::<f32>::zeros(n);
    (x[0], y[0], x[n - 1], y[n - 1]) = (2.0, 3.0, 1.0, 1.0);
    // H = [[1, 3], [2, 4]]: x ← x + 3y, y ← 2x + 4y.
    blas::srotm(
        ctx(),
        x.view_mut(),
        y.view_mut(),
        [-1.0, 1.0, 2.0, 3.0, 4.0],
    )
    .unwrap();
    assert_eq!((x[0], y[0], x[n - 1], y[n - 1]), (11.0, 16.0, 4.0, 6.0));
}

fn check(seed: u64, n: usize, param: [f32; 5], lx: VLayout, ly: VLayout) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, n);
    let mut xs = Vector::new(&x, lx);
    let mut ys = Vector::new(&y, ly);
    blas::srotm(ctx(), xs.view_mut(), ys.view_mut(), param).unwrap();
    let (rx, ry) = o1::srotm(x.view(), y.view(), param);
    let (bx, by) = bounds::rotm(param, x.view(), y.view());
    let fx = metrics::forward_factor(&xs.to_owned(), &rx, &bx).unwrap();
    let fy = metrics::forward_factor(&ys.to_owned(), &ry, &by).unwrap();
    assert!(
        fx.max(fy) <= threshold(),
        "srotm n={n} {param:?} {lx:?}/{ly:?}: factors x {fx}, y {fy}"
    );
    assert!(
        xs.outside_is_untouched() && ys.outside_is_untouched(),
        "srotm wrote outside a strided view"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in 0usize..3000, flag in 0usize..4, h in prop::array::uniform4(-2.0f32..2.0),
                lx in 0usize..4, ly in 0usize..4) {
        check(seed, n, [FLAGS[flag], h[0], h[1], h[2], h[3]], VLAYOUTS[lx], VLAYOUTS[ly]);
    }
}

#[test]
fn edge_netlib_values_every_flag_and_stride() {
    for n in [0, 1, 2, 3, 5, 9] {
        for flag in FLAGS {
            for lx in VLAYOUTS {
                for ly in VLAYOUTS {
                    check(n as u64, n, [flag, 0.7, -0.3, 1.25, 0.9], lx, ly);
                }
            }
        }
    }
}

#[test]
fn edge_hand_values_every_flag() {
    let x = array![1.0f32, -2.0];
    let y = array![4.0f32, 0.5];
    // flag −2: H = I, x and y not even read (NaN stays NaN, bit for bit).
    let (mut a, mut b) = (array![NAN, 1.0], array![2.0f32, f32::INFINITY]);
    a.gpu_rotm_inplace(&mut b, [-2.0, 9.0, 9.0, 9.0, 9.0])
        .unwrap();
    assert!(a[0].is_nan() && a[1] == 1.0 && b == array![2.0, f32::INFINITY]);
    assert_eq!(
        x.gpu_rotm(&y, [-2.0, 9.0, 9.0, 9.0, 9.0]).unwrap(),
        (x.clone(), y.clone())
    );
    // flag −1: H = [[h11, h12], [h21, h22]] = [[2, 0.5], [−1, 0.25]], param = [−1, h11, h21, h12, h22].
    // x' = 2x + 0.5y = [4, −3.75]; y' = −x + 0.25y = [0, 2.125].
    let (xr, yr) = x.gpu_rotm(&y, [-1.0, 2.0, -1.0, 0.5, 0.25]).unwrap();
    assert_eq!((xr, yr), (array![4.0, -3.75], array![0.0, 2.125]));
    // flag 0: H = [[1, h12], [h21, 1]]; h11, h22 (NaN) not read.
    // h12 = 0.5, h21 = −1: x' = x + 0.5y = [3, −1.75]; y' = −x + y = [3, 2.5].
    let (xr, yr) = x.gpu_rotm(&y, [0.0, NAN, -1.0, 0.5, NAN]).unwrap();
    assert_eq!((xr, yr), (array![3.0, -1.75], array![3.0, 2.5]));
    // flag 1: H = [[h11, 1], [−1, h22]]; h21, h12 (NaN) not read.
    // h11 = 2, h22 = 0.25: x' = 2x + y = [6, −3.5]; y' = −x + 0.25y = [0, 2.125].
    let (xr, yr) = x.gpu_rotm(&y, [1.0, 2.0, NAN, NAN, 0.25]).unwrap();
    assert_eq!((xr, yr), (array![6.0, -3.5], array![0.0, 2.125]));
    // The identity through flag −1 is exact, like srot with c = 1, s = 0.
    let (xr, yr) = x.gpu_rotm(&y, [-1.0, 1.0, 0.0, 0.0, 1.0]).unwrap();
    assert_eq!((xr, yr), (x.clone(), y.clone()));
    // n = 1, reversed and stepped views.
    let mut xv = array![1.0f32, 2.0, 3.0];
    let mut yv = array![10.0f32, -1.0, 20.0, -1.0, 30.0];
    blas::srotm(
        ctx(),
        xv.slice_mut(ndarray::s![..;-1]),
        yv.slice_mut(ndarray::s![..;2]),
        [1.0, 0.0, NAN, NAN, 0.0],
    )
    .unwrap();
    // flag 1, h11 = h22 = 0: x' = y, y' = −x.
    assert_eq!(xv, array![30.0, 20.0, 10.0]);
    assert_eq!(yv, array![-3.0, -1.0, -2.0, -1.0, -1.0]);
    let (mut one_x, mut one_y) = (array![3.0f32], array![-1.0f32]);
    one_x
        .gpu_rotm_inplace(&mut one_y, [0.0, NAN, 2.0, 4.0, NAN])
        .unwrap();
    assert_eq!((one_x[0], one_y[0]), (-1.0, 5.0));
}

/// The resident form: the same fixtures, oracle and bounds, through `GpuVector`s.
fn check_resident(seed: u64, n: usize, param: [f32; 5]) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, n);
    let mut gx = ctx().upload_vector(&x).unwrap();
    let mut gy = ctx().upload_vector(&y).unwrap();
    blas::srotm(ctx(), &mut gx, &mut gy, param).unwrap();
    let (rx, ry) = o1::srotm(x.view(), y.view(), param);
    let (bx, by) = bounds::rotm(param, x.view(), y.view());
    let fx = metrics::forward_factor(&gx.to_array().unwrap(), &rx, &bx).unwrap();
    let fy = metrics::forward_factor(&gy.to_array().unwrap(), &ry, &by).unwrap();
    assert!(
        fx.max(fy) <= threshold(),
        "resident srotm n={n} {param:?}: factors x {fx}, y {fy}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in 0usize..3000, flag in 0usize..4,
                         h in prop::array::uniform4(-2.0f32..2.0)) {
        check_resident(seed, n, [FLAGS[flag], h[0], h[1], h[2], h[3]]);
    }
}

#[test]
fn resident_hand_values_every_flag_and_mixed_operands() {
    let (x, y) = (array![1.0f32, -2.0], array![4.0f32, 0.5]);
    let run = |param: [f32; 5]| {
        let mut gx = ctx().upload_vector(&x).unwrap();
        let mut gy = ctx().upload_vector(&y).unwrap();
        blas::srotm(ctx(), &mut gx, &mut gy, param).unwrap();
        (gx.to_array().unwrap(), gy.to_array().unwrap())
    };
    // The hand values of `edge_hand_values_every_flag`, through resident operands.
    assert_eq!(
        run([-1.0, 2.0, -1.0, 0.5, 0.25]),
        (array![4.0, -3.75], array![0.0, 2.125])
    );
    assert_eq!(
        run([0.0, NAN, -1.0, 0.5, NAN]),
        (array![3.0, -1.75], array![3.0, 2.5])
    );
    assert_eq!(
        run([1.0, 2.0, NAN, NAN, 0.25]),
        (array![6.0, -3.5], array![0.0, 2.125])
    );
    // flag −2: H = I, the device data are not touched (a NaN payload stays bit for bit).
    let mut gx = ctx()
        .upload_vector(&array![f32::from_bits(0x7fc0_1234), 1.0])
        .unwrap();
    let mut gy = ctx().upload_vector(&array![2.0f32, f32::INFINITY]).unwrap();
    blas::srotm(ctx(), &mut gx, &mut gy, [-2.0, 9.0, 9.0, 9.0, 9.0]).unwrap();
    let gxa = gx.to_array().unwrap();
    assert_eq!((gxa[0].to_bits(), gxa[1]), (0x7fc0_1234, 1.0));
    assert_eq!(gy.to_array().unwrap(), array![2.0, f32::INFINITY]);
    // Resident x against a reversed host y; flag 1, h11 = h22 = 0: x' = y, y' = −x.
    let mut gx = ctx().upload_vector(&array![1.0f32, 2.0, 3.0]).unwrap();
    let mut yv = array![10.0f32, 20.0, 30.0];
    blas::srotm(
        ctx(),
        &mut gx,
        yv.slice_mut(ndarray::s![..;-1]),
        [1.0, 0.0, NAN, NAN, 0.0],
    )
    .unwrap();
    assert_eq!(gx.to_array().unwrap(), array![30.0, 20.0, 10.0]);
    assert_eq!(yv, array![-3.0, -2.0, -1.0]);
    // An invalid flag is an error and leaves the resident operands unchanged.
    let err = blas::srotm(ctx(), &mut gx, &mut gy, [2.0, 1.0, 1.0, 1.0, 1.0]).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidArgument {
                routine: "srotm",
                arg: "param",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(gx.to_array().unwrap(), array![30.0, 20.0, 10.0]);
    assert_eq!(gy.to_array().unwrap(), array![2.0, f32::INFINITY]);
}
