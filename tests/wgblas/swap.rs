//! sswap: x ↔ y. Metric: max ULP = 0 against OpenBLAS (DESIGN.md §2).

use ndarray::{array, s, Array1};
use proptest::prelude::*;
use wgblas::metrics::{self, max_ulp_f32};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::oracle_l1::{self as o1, fallback_ctx};

fn threshold() -> f64 {
    metrics::spec("sswap").unwrap().threshold
}

#[test]
fn validation_length_mismatch() {
    let mut x = Array1::<f32>::ones(5);
    let mut y = Array1::<f32>::from_elem(4, 7.0);
    let err = blas::sswap(ctx(), x.view_mut(), y.view_mut()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sswap",
                arg: "y",
                ..
            }
        ),
        "{err}"
    );
    let err = x.gpu_swap(&mut y).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sswap",
                arg: "y",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(x, Array1::ones(5));
    assert_eq!(y, Array1::from_elem(4, 7.0));
}

#[test]
fn past_one_binding() {
    let n = ctx().limits().max_storage_buffer_binding_size as usize / 4 + 1;
    let mut x = Array1::<f32>::zeros(n);
    let mut y = Array1::<f32>::zeros(n);
    (x[0], y[0], x[n - 1]) = (2.0, 3.0, 5.0);
    blas::sswap(ctx(), x.view_mut(), y.view_mut()).unwrap();
    assert_eq!((x[0], y[0], x[n - 1], y[n - 1]), (3.0, 2.0, 0.0, 5.0));
}

fn check(seed: u64, n: usize, lx: VLayout, ly: VLayout) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, n);
    let mut xs = Vector::new(&x, lx);
    let mut ys = Vector::new(&y, ly);
    blas::sswap(ctx(), xs.view_mut(), ys.view_mut()).unwrap();
    let (rx, ry) = o1::sswap(x.view(), y.view());
    let u = max_ulp_f32(&xs.to_owned(), &rx)
        .unwrap()
        .max(max_ulp_f32(&ys.to_owned(), &ry).unwrap()) as f64;
    assert!(u <= threshold(), "sswap n={n} {lx:?}/{ly:?}: {u} ULP");
    assert!(
        xs.outside_is_untouched() && ys.outside_is_untouched(),
        "sswap wrote outside a strided view"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in 0usize..3000, lx in 0usize..4, ly in 0usize..4) {
        check(seed, n, VLAYOUTS[lx], VLAYOUTS[ly]);
    }
}

#[test]
fn edge_netlib_values_every_stride() {
    for n in [0, 1, 2, 3, 5, 9] {
        for lx in VLAYOUTS {
            for ly in VLAYOUTS {
                check(n as u64, n, lx, ly);
            }
        }
    }
}

#[test]
fn edge_hand_values_bit_exact() {
    let mut x = array![
        -0.0f32,
        f32::INFINITY,
        f32::from_bits(1),
        f32::from_bits(0x7fc0_1234)
    ];
    let mut y = array![1.0f32, 2.0, 3.0, 4.0];
    let (x0, y0) = (x.clone(), y.clone());
    x.gpu_swap(&mut y).unwrap();
    let bits = |a: &Array1<f32>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&x), bits(&y0));
    assert_eq!(bits(&y), bits(&x0));
    // Reversed x with stepped y: logical element i of each is exchanged.
    let mut a = array![1.0f32, 2.0, 3.0];
    let mut b = array![10.0f32, 0.0, 20.0, 0.0, 30.0];
    blas::sswap(ctx(), a.slice_mut(s![..;-1]), b.slice_mut(s![..;2])).unwrap();
    assert_eq!(a, array![30.0, 20.0, 10.0]);
    assert_eq!(b, array![3.0, 0.0, 2.0, 0.0, 1.0]);
}

/// The resident form: the same fixtures and oracle, through `GpuVector`s.
fn check_resident(seed: u64, n: usize) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, n);
    let mut gx = ctx().upload_vector(&x).unwrap();
    let mut gy = ctx().upload_vector(&y).unwrap();
    blas::sswap(ctx(), &mut gx, &mut gy).unwrap();
    let (rx, ry) = o1::sswap(x.view(), y.view());
    let u = max_ulp_f32(&gx.to_array().unwrap(), &rx)
        .unwrap()
        .max(max_ulp_f32(&gy.to_array().unwrap(), &ry).unwrap()) as f64;
    assert!(u <= threshold(), "resident sswap n={n}: {u} ULP");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in 0usize..3000) {
        check_resident(seed, n);
    }
}

#[test]
fn resident_mixed_with_host_views() {
    let bits = |a: &Array1<f32>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    let x0 = array![-0.0f32, f32::from_bits(0x7fc0_1234), 3.0];
    // Resident x against a reversed host y.
    let mut gx = ctx().upload_vector(&x0).unwrap();
    let mut y = array![1.0f32, 2.0, 3.0];
    blas::sswap(ctx(), &mut gx, y.slice_mut(s![..;-1])).unwrap();
    assert_eq!(gx.to_array().unwrap(), array![3.0, 2.0, 1.0]);
    assert_eq!(
        bits(&y),
        bits(&array![3.0, f32::from_bits(0x7fc0_1234), -0.0])
    );
    // Stepped host x against a resident y: the padding is not touched.
    let mut buf = array![10.0f32, 9.0, 20.0, 9.0, 30.0];
    let mut gy = ctx().upload_vector(&array![1.0f32, 2.0, 3.0]).unwrap();
    blas::sswap(ctx(), buf.slice_mut(s![..;2]), &mut gy).unwrap();
    assert_eq!(buf, array![1.0, 9.0, 2.0, 9.0, 3.0]);
    assert_eq!(gy.to_array().unwrap(), array![10.0, 20.0, 30.0]);
    // Errors leave both operands unchanged.
    let mut short = ctx().upload_vector(&array![5.0f32, 6.0]).unwrap();
    assert!(matches!(
        blas::sswap(ctx(), &mut gy, &mut short),
        Err(Error::DimensionMismatch {
            routine: "sswap",
            arg: "y",
            ..
        })
    ));
    let mut foreign = fallback_ctx()
        .upload_vector(&array![7.0f32, 8.0, 9.0])
        .unwrap();
    let err = blas::sswap(ctx(), &mut gy, &mut foreign).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidArgument {
                routine: "sswap",
                arg: "y",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(gy.to_array().unwrap(), array![10.0, 20.0, 30.0]);
    assert_eq!(short.to_array().unwrap(), array![5.0, 6.0]);
    assert_eq!(foreign.to_array().unwrap(), array![7.0, 8.0, 9.0]);
}
