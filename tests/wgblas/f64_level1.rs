//! ddot, daxpy, dcopy, dswap, dscal, drot and drotm: the s-routine rules in f64, from the same
//! WGSL (`alias T = f64;`).
//! Metric: forward factor ≤ 1 in units of eps = 2^-52 (DESIGN.md §2 bounds: ddot
//! `n·Σ|x_i·y_i|` against OpenBLAS ddot, daxpy `|alpha·x_i| + |y_i|` against the host value).

use ndarray::{array, s, Array1, ArrayView1};
use rand::Rng;
use wgblas::metrics;
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::describe;

fn rand64(seed: u64, n: usize) -> Array1<f64> {
    let mut r = rng(seed);
    Array1::from_shape_simple_fn(n, || {
        let v: f64 = r.random_range(1e-3..=1.0);
        if r.random_bool(0.5) {
            -v
        } else {
            v
        }
    })
}

/// A buffer whose view with increment `inc` ([`view`]) holds the values of `v`, NaN between.
pub fn strided(v: &Array1<f64>, inc: isize) -> Array1<f64> {
    let n = v.len();
    let step = inc.unsigned_abs();
    let mut buf = Array1::from_elem(n * step, f64::NAN);
    buf.slice_mut(s![..;inc]).assign(v);
    buf
}

pub fn view(buf: &Array1<f64>, inc: isize) -> ArrayView1<'_, f64> {
    buf.slice(s![..;inc])
}

/// ddot's fixtures, strides and lengths (to 300 001) are in the description (`dot::Dot`).
#[test]
fn ddot_edges() {
    let e = Array1::<f64>::zeros(0);
    assert_eq!(blas::ddot(ctx(), e.view(), e.view()).unwrap(), 0.0);
    // Values past the f32 range, and NaN / Inf propagation (no zero-skip: 0·Inf = NaN).
    let x = array![1e300f64, 1e-300];
    let y = array![1e-300f64, 1e300];
    assert_eq!(x.gpu_dot(&y).unwrap(), 2.0);
    assert!(array![0.0f64, 1.0]
        .gpu_dot(&array![f64::INFINITY, 1.0])
        .unwrap()
        .is_nan());
    // The resident form: the same value, kept on the device until read.
    let (a, b) = (rand64(80, 5000), rand64(81, 5000));
    let (ga, gb) = (
        ctx().upload_vector(&a).unwrap(),
        ctx().upload_vector(&b).unwrap(),
    );
    let d = wgblas::resident::ddot(ctx(), &ga, &gb).unwrap();
    assert_eq!(
        d.get().unwrap().to_bits(),
        blas::ddot(ctx(), a.view(), b.view()).unwrap().to_bits()
    );
    let empty = wgblas::resident::ddot(ctx(), e.view(), e.view()).unwrap();
    assert_eq!(empty.get().unwrap(), 0.0);
    let err = blas::ddot(ctx(), x.view(), array![1.0f64].view()).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "ddot", "y"));
}

/// daxpy's fixtures, strides, lengths and length mismatches are in the description
/// (`axpy::Axpy`); these are its hand-computed values and a host x with a resident y.
#[test]
fn daxpy_edges() {
    // alpha = 0: nothing read, y unchanged even with NaN in x.
    let mut y = array![1.0f64, 2.0];
    array![f64::NAN, f64::NAN]
        .gpu_axpy_inplace(0.0, &mut y)
        .unwrap();
    assert_eq!(y, array![1.0, 2.0]);
    // f64 alpha and values past the f32 range.
    let z = array![2.0f64, 1e300]
        .gpu_axpy(0.1, &array![0.0f64, 0.0])
        .unwrap();
    assert_eq!(z, array![0.2, 0.1 * 1e300]);
    // Host x, resident y.
    let x = rand64(5, 1000);
    let y = rand64(6, 1000);
    let mut gy = ctx().upload_vector(&y).unwrap();
    blas::daxpy(ctx(), -0.3, x.view(), &mut gy).unwrap();
    let got = gy.to_array().unwrap();
    let want = &x * -0.3 + &y;
    let bound = x.mapv(|v| (0.3 * v).abs()) + y.mapv(f64::abs);
    let f = metrics::forward_factor_f64(&got, &want, &bound).unwrap();
    let t = crate::describe::threshold::<crate::axpy::Axpy, f64>();
    assert!(f <= t, "resident daxpy: {f}");
}

#[test]
fn missing_f64_is_a_typed_error() {
    let own = wgblas::Context::new().unwrap();
    own.set_force_f64_fallback(true);
    let x = array![1.0f64, 2.0];
    let mut y = array![3.0f64, 4.0];
    let unsupported = |routine| Error::Unsupported {
        routine,
        feature: "SHADER_F64",
    };
    assert_eq!(
        blas::ddot(&own, x.view(), y.view()).unwrap_err(),
        unsupported("ddot")
    );
    assert_eq!(
        blas::daxpy(&own, 2.0, x.view(), y.view_mut()).unwrap_err(),
        unsupported("daxpy")
    );
    assert_eq!(y, array![3.0, 4.0]);
}

/// dcopy, dswap and dscal: bit-exact (max ULP 0, DESIGN.md §2) in every stride pair, special
/// values included; dscal against the host's own product (one rounding either way).
#[test]
fn dcopy_dswap_dscal_bit_exact() {
    let bits = |v: ArrayView1<f64>| v.mapv(f64::to_bits);
    for n in [1, 3, 4, 5, 1000, 4099] {
        let mut x = rand64(n as u64 + 50, n);
        x[0] = -0.0;
        if n > 2 {
            x[1] = f64::from_bits(0x7ff8_0000_dead_beef); // a NaN with a payload
            x[2] = 1e-310; // subnormal
        }
        let y = rand64(n as u64 + 60, n);
        for (ix, iy) in [(1, 1), (2, 1), (1, -1), (-2, 2)] {
            let bx = strided(&x, ix);
            let mut by = strided(&y, iy);
            blas::dcopy(ctx(), view(&bx, ix), by.slice_mut(s![..;iy])).unwrap();
            assert_eq!(
                bits(view(&by, iy)),
                bits(x.view()),
                "dcopy n={n} ({ix},{iy})"
            );
            let mut bx = strided(&x, ix);
            let mut by = strided(&y, iy);
            blas::dswap(ctx(), bx.slice_mut(s![..;ix]), by.slice_mut(s![..;iy])).unwrap();
            assert_eq!(bits(view(&bx, ix)), bits(y.view()), "dswap x n={n}");
            assert_eq!(bits(view(&by, iy)), bits(x.view()), "dswap y n={n}");
            for alpha in [0.1, -3.0, 0.0] {
                let mut bx = strided(&x, ix);
                blas::dscal(ctx(), alpha, bx.slice_mut(s![..;ix])).unwrap();
                let want = x.mapv(|v| alpha * v);
                let got = view(&bx, ix);
                assert!(
                    got.iter()
                        .zip(&want)
                        .all(|(g, w)| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan())),
                    "dscal n={n} alpha={alpha}: {got:?} vs {want:?}"
                );
            }
        }
    }
    // alpha = 0 is no zero-skip: 0·NaN = NaN, 0·Inf = NaN.
    let mut x = array![f64::NAN, f64::INFINITY, 2.0];
    blas::dscal(ctx(), 0.0, x.view_mut()).unwrap();
    assert!(x[0].is_nan() && x[1].is_nan() && x[2] == 0.0);
    // Resident operands.
    let x = rand64(70, 257);
    let mut gy = wgblas::GpuVector::<f64>::zeros(ctx(), 257).unwrap();
    blas::dcopy(ctx(), x.view(), &mut gy).unwrap();
    blas::dscal(ctx(), 0.5, &mut gy).unwrap();
    assert_eq!(gy.to_array().unwrap(), x.mapv(|v| 0.5 * v));
    let own = wgblas::Context::new().unwrap();
    own.set_force_f64_fallback(true);
    let mut a = array![1.0f64];
    let mut b = array![2.0f64];
    for err in [
        blas::dcopy(&own, a.view(), b.view_mut()).unwrap_err(),
        blas::dswap(&own, a.view_mut(), b.view_mut()).unwrap_err(),
        blas::dscal(&own, 2.0, a.view_mut()).unwrap_err(),
    ] {
        assert!(
            matches!(
                err,
                Error::Unsupported {
                    feature: "SHADER_F64",
                    ..
                }
            ),
            "{err}"
        );
    }
    assert_eq!((a[0], b[0]), (1.0, 2.0));
}

// drot's and drotm's fixtures, strides, lengths (257, 1025) and parameters with NaN in the
// entries a flag does not read are in the descriptions (`rot::Rot`, `rotm::Rotm`).

/// drot and drotm hand values (DESIGN.md §3): f64 coefficients and values past the f32 range;
/// no shortcut for c = 1, s = 0 (1·x + 0·NaN = NaN, as reference BLAS); drotm flag −2 reads
/// nothing (NaN stays, bit for bit); a bad flag, a length mismatch and a missing SHADER_F64 are
/// typed errors leaving x and y unchanged; resident operands.
#[test]
fn drot_drotm_edges() {
    let (mut x, mut y) = (array![1e300f64, 0.1], array![-1e-300f64, 3.0]);
    blas::drot(ctx(), x.view_mut(), y.view_mut(), 0.0, -1.0).unwrap();
    assert_eq!((x, y), (array![1e-300, -3.0], array![1e300, 0.1]));
    let (mut x, mut y) = (array![2.0f64, 5.0], array![f64::NAN, 1.0]);
    blas::drot(ctx(), x.view_mut(), y.view_mut(), 1.0, 0.0).unwrap();
    assert!(x[0].is_nan() && y[0].is_nan());
    assert_eq!((x[1], y[1]), (5.0, 1.0));
    // flag −1 with f64 entries (not f32-representable): x ← 0.1·x + 0.2·y, y ← 0.3·x + 0.7·y
    // at x = y = 1, exact products of the f64 entries, so within rotm's forward factor
    // (metrics::spec, units of 2^-52, bounds |h11 x| + |h12 y| and |h21 x| + |h22 y|) of the
    // host sums.
    let param = [-1.0, 0.1, 0.3, 0.2, 0.7];
    let (x0, y0) = (array![1.0f64], array![1.0f64]);
    let (mut x, mut y) = (x0.clone(), y0.clone());
    blas::drotm(ctx(), x.view_mut(), y.view_mut(), param).unwrap();
    let (bx, by) = <f64 as describe::Elem>::rotm_bound(param, &x0, &y0);
    for (got, want, bound) in [(&x, 0.1 + 0.2, bx), (&y, 0.3 + 0.7, by)] {
        let f = metrics::forward_factor_f64(got, &array![want], &bound).unwrap();
        describe::passes("srotm", f, &format!("drotm flag −1: {got} vs {want}"));
    }
    let nan = f64::from_bits(0x7ff8_0000_dead_beef);
    let (mut x, mut y) = (array![nan, 1.0], array![2.0f64, nan]);
    blas::drotm(
        ctx(),
        x.view_mut(),
        y.view_mut(),
        [-2.0, 9.0, 9.0, 9.0, 9.0],
    )
    .unwrap();
    assert_eq!(x[0].to_bits(), nan.to_bits());
    assert_eq!(y[1].to_bits(), nan.to_bits());
    assert_eq!((x[1], y[0]), (1.0, 2.0));
    let err =
        blas::drotm(ctx(), x.view_mut(), y.view_mut(), [0.5, 1.0, 1.0, 1.0, 1.0]).unwrap_err();
    describe::assert_named(&err, ("InvalidArgument", "drotm", "param"));
    let mut short = array![1.0f64];
    for err in [
        blas::drot(ctx(), x.view_mut(), short.view_mut(), 0.6, 0.8).unwrap_err(),
        blas::drotm(ctx(), x.view_mut(), short.view_mut(), [-2.0; 5]).unwrap_err(),
    ] {
        assert!(
            matches!(err, Error::DimensionMismatch { arg: "y", .. }),
            "{err}"
        );
    }
    assert_eq!((x[1], y[0], short[0]), (1.0, 2.0, 1.0));
    // Resident x and y, updated in place.
    let (a, b) = (rand64(95, 300), rand64(96, 300));
    let mut ga = ctx().upload_vector(&a).unwrap();
    let mut gb = ctx().upload_vector(&b).unwrap();
    blas::drot(ctx(), &mut ga, &mut gb, 0.0, 1.0).unwrap();
    assert_eq!(ga.to_array().unwrap(), b);
    assert_eq!(gb.to_array().unwrap(), -&a);
    // No SHADER_F64 (forced fallback): typed error, nothing written.
    let own = wgblas::Context::new().unwrap();
    own.set_force_f64_fallback(true);
    let (mut x, mut y) = (array![1.0f64, 2.0], array![3.0f64, 4.0]);
    let unsupported = |routine| Error::Unsupported {
        routine,
        feature: "SHADER_F64",
    };
    assert_eq!(
        blas::drot(&own, x.view_mut(), y.view_mut(), 0.0, 1.0).unwrap_err(),
        unsupported("drot")
    );
    assert_eq!(
        blas::drotm(&own, x.view_mut(), y.view_mut(), [-1.0, 1.0, 1.0, 1.0, 1.0]).unwrap_err(),
        unsupported("drotm")
    );
    assert_eq!((x, y), (array![1.0, 2.0], array![3.0, 4.0]));
}
