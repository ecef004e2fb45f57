//! f32 saxpy and sscal with a device alpha read by the kernel from the scalar's own buffer
//! (the default; lab `Driver::DeviceScalar` `Experimental` pins it: the `_dev` entries of
//! `wgsl/level1/elementwise.wgsl`, issue 12), against OpenBLAS with the routines' §2 metrics on
//! every kernel path (vec4 body with its scalar tail, strided, `main` with scal's dummy y), and
//! the rules of DESIGN.md §3 for a device alpha: 0 reads neither vector in axpy, NaN is not 0,
//! scal by 1 keeps every bit. The chain test also runs the old path (lab `Legacy`: the alpha
//! copied into the params).

use ndarray::{array, Array1};
use wgblas::lab::{self, Driver, Variant};
use wgblas::metrics::{self, bounds};
use wgblas::{blas, resident};

use crate::bandwidth::with_variant;
use crate::common::*;
use crate::describe;
use crate::oracle_l1 as o1;

/// `f` with the device alpha read from its storage binding and `other` set (restored to
/// `Auto` after).
fn on_storage_alpha(other: (Driver, Variant), f: impl FnOnce()) {
    with_variant(Driver::DeviceScalar, Variant::Experimental, || {
        lab::set(other.0, other.1);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        lab::set(other.0, Variant::Auto);
        if let Err(e) = r {
            std::panic::resume_unwind(e);
        }
    });
}

#[test]
fn storage_alpha_saxpy_and_sscal_against_openblas_on_every_path() {
    let alpha = 0.7f32;
    let a = dev32(alpha);
    // Auto: vec4 body and scalar tail (unit stride), `main` (strided); Scalar: `main` alone;
    // Legacy: sscal on `main` with a dummy y.
    for v in [Variant::Auto, Variant::Scalar, Variant::Legacy] {
        on_storage_alpha((Driver::Elementwise, v), || {
            for (k, &n) in [1usize, 3, 4, 5, 1023, 1025, 4099, 100_003]
                .iter()
                .enumerate()
            {
                for l in [VLayout::Unit, VLayout::Step2, VLayout::Reversed] {
                    let what = format!("{v:?} n={n} {l:?}");
                    let mut r = rng(300 + k as u64);
                    let (x, y) = (rand_vec(&mut r, n), rand_vec(&mut r, n));
                    let xs = Vector::new(&x, l);
                    let mut ys = Vector::new(&y, l);
                    blas::saxpy(ctx(), &a, xs.view(), ys.view_mut()).unwrap();
                    assert!(ys.outside_is_untouched(), "saxpy {what}");
                    let f = metrics::forward_factor(
                        &ys.to_owned(),
                        &oracle::saxpy(alpha, x.view(), y.view()),
                        &bounds::axpy(alpha, x.view(), y.view()),
                    )
                    .unwrap();
                    describe::passes("saxpy", f, &what);
                    // sscal: bit-exact (0 ULP), as with a host alpha.
                    let mut xs2 = Vector::new(&x, l);
                    blas::sscal(ctx(), &a, xs2.view_mut()).unwrap();
                    assert!(xs2.outside_is_untouched(), "sscal {what}");
                    let want = o1::sscal(alpha, x.view());
                    let u = metrics::max_ulp_f32(&xs2.to_owned(), &want).unwrap();
                    assert_eq!(u, 0, "sscal {what}");
                }
            }
        });
    }
}

#[test]
fn storage_alpha_keeps_the_rules_of_a_device_scalar() {
    on_storage_alpha((Driver::Elementwise, Variant::Auto), || {
        // 9 elements: two vec4 units and a scalar tail; NaN and Inf in both parts.
        let x = array![NAN, INF, 1.0, -2.0, 3.0, 4.0, -INF, 0.5, NAN];
        let y0 = array![1.0f32, 2.0, 3.0, -0.0, 5.0, 6.0, 7.0, 8.0, 9.0];
        // axpy, alpha = 0: x is not read, y is as it was.
        let mut y = y0.clone();
        blas::saxpy(ctx(), &dev32(0.0), &x, &mut y).unwrap();
        assert_same(&y, &y0, "saxpy alpha 0");
        // A NaN alpha is not 0: every element NaN.
        let mut y = y0.clone();
        blas::saxpy(ctx(), &dev32(NAN), &Array1::from_elem(9, 1.0f32), &mut y).unwrap();
        assert_same(&y, &[NAN; 9], "saxpy alpha NaN");
        // scal by 0 multiplies: 0·NaN = 0·Inf = NaN.
        let mut g = ctx().upload_vector(&x).unwrap();
        blas::sscal(ctx(), &dev32(0.0), &mut g).unwrap();
        let want = [NAN, NAN, 0.0, 0.0, 0.0, 0.0, NAN, 0.0, NAN];
        assert_same(&g.to_array().unwrap(), &want, "sscal alpha 0");
        // scal by 1 keeps every bit (a NaN payload and −0 included).
        let odd = f32::from_bits(0x7fc0_1234);
        let x1 = array![odd, -0.0f32, 1.5, -2.0, odd, 3.0, -0.0, 4.0, 5.0];
        let mut g = ctx().upload_vector(&x1).unwrap();
        blas::sscal(ctx(), &dev32(1.0), &mut g).unwrap();
        let got: Vec<u32> = g.to_array().unwrap().iter().map(|v| v.to_bits()).collect();
        let want: Vec<u32> = x1.iter().map(|v| v.to_bits()).collect();
        assert_eq!(got, want, "sscal alpha 1");
    });
}

/// With the device alpha read from its binding (the default) and copied into the params (lab
/// `Legacy` on `Driver::DeviceScalar`, the path before issue 12's binding).
#[test]
fn storage_alphas_each_reach_their_own_call_in_a_chain() {
    for v in [Variant::Experimental, Variant::Legacy] {
        on_storage_alpha((Driver::DeviceScalar, v), chain);
    }
}

fn chain() {
    {
        // Calls with the same params and a different device alpha each, one at a nonzero word
        // of its buffer (resident snrm2's total: ‖[3, 4]‖ = 5 at word 11), all held back and
        // submitted together by the read-back.
        let n = 1030;
        let ones = ctx().upload_vector(&Array1::<f32>::ones(n)).unwrap();
        let mut y = ctx().upload_vector(&Array1::<f32>::zeros(n)).unwrap();
        let v = ctx().upload_vector(&array![3.0f32, 4.0]).unwrap();
        let five = resident::snrm2(ctx(), &v).unwrap();
        let mut want = 0.0f32;
        for k in 1..=12 {
            let alpha = dev32(k as f32);
            blas::saxpy(ctx(), &alpha, &ones, &mut y).unwrap();
            blas::saxpy(ctx(), &five, &ones, &mut y).unwrap();
            want += k as f32 + 5.0;
        }
        // sdot → recip → sscal, against OpenBLAS scaling by the device reciprocal's value.
        let inv = dev32(want).recip().unwrap();
        blas::sscal(ctx(), &inv, &mut y).unwrap();
        let got = y.to_array().unwrap();
        let reference = o1::sscal(inv.get().unwrap(), Array1::from_elem(n, want).view());
        let u = metrics::max_ulp_f32(&got, &reference).unwrap();
        assert_eq!(u, 0, "chain: {:?}", &got.as_slice().unwrap()[..4]);
    }
}

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;
