//! saxpy and daxpy: y ← alpha·x + y. Metric: forward factor (`metrics::spec`, DESIGN.md §2).
//! The description drives validation, fixtures, edges and the resident form; the special
//! values of DESIGN.md §3 are hand-computed below.

use ndarray::{array, Array1, ArrayViewD};
use proptest::strategy::BoxedStrategy;
use wgblas::metrics::bounds;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level1::*;
use crate::describe::{self, forward, Bad, Case, Elem, Id, Ops, Out, Routine, Slots};

/// The description of axpy.
pub struct Axpy;

impl Routine for Axpy {
    const ID: Id = Id("axpy", Out::Y);

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        T::axpy(ctx, T::from_f64(c.alpha), s.x.r(), s.y.w())
    }

    /// Quick return (reference BLAS): y unchanged, even with NaN or Inf in x.
    fn quick(c: &Case) -> bool {
        c.alpha == 0.0 || c.n == 0
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let alpha = T::from_f64(c.alpha);
        let mut want = o.y.clone();
        T::o_axpy(alpha, &o.x, &mut want);
        // bounds::axpy (|alpha·x_i| + |y_i|) in either element type: the bound of ger with
        // y = [1] and A = y as a column, the same formula.
        let (f, n) = (o.f64(), o.x.len());
        let col = f.y.into_shape_with_order((n, 1)).unwrap();
        let one = Array1::from_elem(1, 1.0);
        let bound = bounds::ger(alpha.to_f64(), f.x.view(), one.view(), col.view());
        forward(got, want.into_dyn(), bound.into_dyn())
    }

    fn edges() -> Vec<Case> {
        // The netlib lengths and alphas in every stride pair.
        let mut v = vgrid(&NETLIB_N, &NETLIB_ALPHA, &all_pairs(), |n| n as u64);
        // Lengths past the 256-wide workgroups and one of 100 000 (from the f64 suite).
        let pairs = [
            (inc(1), inc(1)),
            (inc(2), inc(1)),
            (inc(1), inc(-1)),
            (inc(-2), inc(2)),
        ];
        v.extend(vgrid(
            &[1, 2, 3, 5, 9, 1023, 1024, 1025, 100_000],
            &[1.0, 0.7, -0.1],
            &pairs,
            |n| n as u64 + 3,
        ));
        // alpha = NaN is no quick return: y is NaN wherever it is written.
        v.extend(vgrid(&[1, 3, 9], &[f64::NAN], &pairs, |n| n as u64));
        v
    }

    fn space() -> BoxedStrategy<Case> {
        vspace(3000)
    }

    /// Fixed cases that once failed (from `proptest-regressions/axpy.txt`: n = 1, alpha = 0,
    /// x unit stride, y stride −2).
    fn regressions() -> Vec<Case> {
        vec![vcase(0, 1, 0.0, inc(1), inc(-2))]
    }

    fn bad() -> Vec<Bad> {
        len_mismatch(&[(5, 4), (4, 5), (1000, 1)])
    }
}

describe::described_tests!(Axpy, 100);

#[test]
fn validation_extension_forms() {
    let x = Array1::<f32>::ones(5);
    let mut y = Array1::<f32>::from_elem(4, 7.0);
    let err = x.gpu_axpy_inplace(2.0, &mut y).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "saxpy", "y"));
    assert!(x.gpu_axpy(1.0, &y).is_err());
    assert_eq!(y, Array1::from_elem(4, 7.0));
}

#[test]
fn past_one_binding() {
    let n = len_past_one_binding();
    let (x, mut y) = (mod7(n), Array1::<f32>::ones(n));
    blas::saxpy(ctx(), 2.0, x.view(), y.view_mut()).unwrap();
    assert_eq!(off_axpy_of_mod7(&y, 2.0), None);
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
    let (x, mut y) = (mod7(n), Array1::<f32>::ones(n));
    x.gpu_axpy_inplace(2.0, &mut y).unwrap();
    for i in [0, 1, 6, 65535 * 256 - 1, 65535 * 256, n - 1] {
        assert_eq!(y[i], 2.0 * (i % 7) as f32 + 1.0, "element {i}");
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
