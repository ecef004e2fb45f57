//! srot: plane rotation (x, y) ← (c·x + s·y, c·y − s·x). Metric: forward factor ≤ 1 against
//! OpenBLAS for both outputs (DESIGN.md §2).

use ndarray::{array, s, Array1};
use proptest::prelude::*;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::oracle_l1 as o1;

fn threshold() -> f64 {
    metrics::spec("srot").unwrap().threshold
}

#[test]
fn validation_length_mismatch() {
    let mut x = Array1::<f32>::ones(5);
    let mut y = Array1::<f32>::from_elem(4, 7.0);
    let err = blas::srot(ctx(), x.view_mut(), y.view_mut(), 0.6, 0.8).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "srot",
                arg: "y",
                ..
            }
        ),
        "{err}"
    );
    let err = x.gpu_rot_inplace(&mut y, 0.6, 0.8).unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "srot",
                arg: "y",
                ..
            }
        ),
        "{err}"
    );
    assert!(x.gpu_rot(&y, 0.6, 0.8).is_err());
    assert_eq!(x, Array1::ones(5));
    assert_eq!(y, Array1::from_elem(4, 7.0));
}

#[test]
fn past_one_binding() {
    let n = ctx().limits().max_storage_buffer_binding_size as usize / 4 + 1;
    let mut x = Array1::<f32>::zeros(n);
    let mut y = Array1::<f32>::zeros(n);
    (x[0], y[0], x[n - 1]) = (2.0, 3.0, 1.0);
    // (c, s) = (0, 1): x ← y, y ← −x, exactly.
    blas::srot(ctx(), x.view_mut(), y.view_mut(), 0.0, 1.0).unwrap();
    assert_eq!((x[0], y[0], x[n - 1], y[n - 1]), (3.0, -2.0, 0.0, -1.0));
}

fn check(seed: u64, n: usize, c: f32, s: f32, lx: VLayout, ly: VLayout) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, n);
    let mut xs = Vector::new(&x, lx);
    let mut ys = Vector::new(&y, ly);
    blas::srot(ctx(), xs.view_mut(), ys.view_mut(), c, s).unwrap();
    let (rx, ry) = o1::srot(x.view(), y.view(), c, s);
    let (bx, by) = bounds::rot(c, s, x.view(), y.view());
    let fx = metrics::forward_factor(&xs.to_owned(), &rx, &bx).unwrap();
    let fy = metrics::forward_factor(&ys.to_owned(), &ry, &by).unwrap();
    assert!(
        fx.max(fy) <= threshold(),
        "srot n={n} c={c} s={s} {lx:?}/{ly:?}: factors x {fx}, y {fy}"
    );
    assert!(
        xs.outside_is_untouched() && ys.outside_is_untouched(),
        "srot wrote outside a strided view"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in 0usize..3000, theta in -3.2f32..3.2, general in any::<bool>(),
                a in -2.0f32..2.0, b in -2.0f32..2.0, lx in 0usize..4, ly in 0usize..4) {
        // A true rotation (c = cos θ, s = sin θ), or any c, s (BLAS does not require c² + s² = 1).
        let (c, s) = if general { (a, b) } else { (theta.cos(), theta.sin()) };
        check(seed, n, c, s, VLAYOUTS[lx], VLAYOUTS[ly]);
    }
}

#[test]
fn edge_netlib_values_every_stride() {
    for n in [0, 1, 2, 3, 5, 9] {
        for (c, s) in [(1.0, 0.0), (0.0, 1.0), (0.6, 0.8), (0.7, -0.7), (-1.0, 0.0)] {
            for lx in VLAYOUTS {
                for ly in VLAYOUTS {
                    check(n as u64, n, c, s, lx, ly);
                }
            }
        }
    }
}

#[test]
fn edge_hand_values() {
    let x = array![1.0f32, 2.0, -3.0];
    let y = array![4.0f32, 8.0, 0.5];
    // c = 1, s = 0: identity, exactly.
    assert_eq!(x.gpu_rot(&y, 1.0, 0.0).unwrap(), (x.clone(), y.clone()));
    // c = 0, s = 1: (y, −x).
    assert_eq!(x.gpu_rot(&y, 0.0, 1.0).unwrap(), (y.clone(), -&x));
    // c = 0.5, s = 0.25: x' = 0.5x + 0.25y, y' = 0.5y − 0.25x (exact in binary).
    let (xr, yr) = x.gpu_rot(&y, 0.5, 0.25).unwrap();
    assert_eq!(xr, array![1.5, 3.0, -1.375]);
    assert_eq!(yr, array![1.75, 3.5, 1.0]);
    // c = 1, s = 0 still computes 1·x + 0·y, as reference BLAS: 0·inf = NaN.
    let (mut a, mut b) = (array![1.0f32], array![f32::INFINITY]);
    a.gpu_rot_inplace(&mut b, 1.0, 0.0).unwrap();
    assert!(a[0].is_nan(), "{a}");
    assert_eq!(b[0], f32::INFINITY);
    // Views: reversed x against stepped y, in place.
    let mut xv = array![1.0f32, 2.0, 3.0];
    let mut yv = array![10.0f32, -1.0, 20.0, -1.0, 30.0];
    blas::srot(
        ctx(),
        xv.slice_mut(s![..;-1]),
        yv.slice_mut(s![..;2]),
        0.0,
        1.0,
    )
    .unwrap();
    assert_eq!(xv, array![30.0, 20.0, 10.0]);
    assert_eq!(yv, array![-3.0, -1.0, -2.0, -1.0, -1.0]);
}

/// The resident form: the same fixtures, oracle and bounds, through `GpuVector`s.
fn check_resident(seed: u64, n: usize, c: f32, s: f32) {
    let mut r = rng(seed);
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, n);
    let mut gx = ctx().upload_vector(&x).unwrap();
    let mut gy = ctx().upload_vector(&y).unwrap();
    blas::srot(ctx(), &mut gx, &mut gy, c, s).unwrap();
    let (rx, ry) = o1::srot(x.view(), y.view(), c, s);
    let (bx, by) = bounds::rot(c, s, x.view(), y.view());
    let fx = metrics::forward_factor(&gx.to_array().unwrap(), &rx, &bx).unwrap();
    let fy = metrics::forward_factor(&gy.to_array().unwrap(), &ry, &by).unwrap();
    assert!(
        fx.max(fy) <= threshold(),
        "resident srot n={n} c={c} s={s}: factors x {fx}, y {fy}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in 0usize..3000, theta in -3.2f32..3.2, general in any::<bool>(),
                         a in -2.0f32..2.0, b in -2.0f32..2.0) {
        let (c, s) = if general { (a, b) } else { (theta.cos(), theta.sin()) };
        check_resident(seed, n, c, s);
    }
}

#[test]
fn resident_hand_values_and_mixed_operands() {
    // c = 0.5, s = 0.25 on resident x and y: x' = 0.5x + 0.25y, y' = 0.5y − 0.25x (exact).
    let mut gx = ctx().upload_vector(&array![1.0f32, 2.0, -3.0]).unwrap();
    let mut gy = ctx().upload_vector(&array![4.0f32, 8.0, 0.5]).unwrap();
    blas::srot(ctx(), &mut gx, &mut gy, 0.5, 0.25).unwrap();
    assert_eq!(gx.to_array().unwrap(), array![1.5, 3.0, -1.375]);
    assert_eq!(gy.to_array().unwrap(), array![1.75, 3.5, 1.0]);
    // Reversed host x against a resident y (c = 0, s = 1: x ← y, y ← −x).
    let mut xv = array![1.0f32, 2.0, 3.0];
    let mut gy = ctx().upload_vector(&array![10.0f32, 20.0, 30.0]).unwrap();
    blas::srot(ctx(), xv.slice_mut(s![..;-1]), &mut gy, 0.0, 1.0).unwrap();
    assert_eq!(xv, array![30.0, 20.0, 10.0]);
    assert_eq!(gy.to_array().unwrap(), array![-3.0, -2.0, -1.0]);
    // Resident x against a stepped host y: the padding is not touched.
    let mut gx = ctx().upload_vector(&array![1.0f32, 2.0, 3.0]).unwrap();
    let mut yv = array![10.0f32, -1.0, 20.0, -1.0, 30.0];
    blas::srot(ctx(), &mut gx, yv.slice_mut(s![..;2]), 0.0, 1.0).unwrap();
    assert_eq!(gx.to_array().unwrap(), array![10.0, 20.0, 30.0]);
    assert_eq!(yv, array![-1.0, -1.0, -2.0, -1.0, -3.0]);
    // c = 1, s = 0 still computes 1·x + 0·y on the device too: 0·inf = NaN.
    let mut ga = ctx().upload_vector(&array![1.0f32]).unwrap();
    let mut gb = ctx().upload_vector(&array![f32::INFINITY]).unwrap();
    blas::srot(ctx(), &mut ga, &mut gb, 1.0, 0.0).unwrap();
    assert!(ga.to_array().unwrap()[0].is_nan());
    assert_eq!(gb.to_array().unwrap()[0], f32::INFINITY);
    // A length mismatch is an error and leaves both unchanged.
    let mut short = ctx().upload_vector(&array![5.0f32]).unwrap();
    assert!(matches!(
        blas::srot(ctx(), &mut gx, &mut short, 0.6, 0.8),
        Err(Error::DimensionMismatch {
            routine: "srot",
            arg: "y",
            ..
        })
    ));
    assert_eq!(gx.to_array().unwrap(), array![10.0, 20.0, 30.0]);
    assert_eq!(short.to_array().unwrap(), array![5.0]);
}
