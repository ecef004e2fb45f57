//! sswap and dswap: x ↔ y. Metric: max ULP = 0 against OpenBLAS over both outputs
//! (`metrics::spec`, DESIGN.md §2). The description drives validation, fixtures, edges and
//! the resident form; bit patterns (NaN payloads, −0, subnormals) are hand-checked below.

use ndarray::{array, s, Array1, ArrayViewD};
use proptest::prelude::*;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level1::*;
use crate::describe::{self, Bad, Case, Elem, Id, Ops, Out, Routine, Slots};
use crate::oracle_l1::fallback_ctx;

/// The description of swap.
pub struct Swap;

impl Routine for Swap {
    const ID: Id = Id("swap", Out::XY);

    fn call<T: Elem>(ctx: &Context, _: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        T::swap(ctx, s.x.w(), s.y.w())
    }

    /// n = 0: x and y unchanged.
    fn quick(c: &Case) -> bool {
        c.n == 0
    }

    fn measure<T: Elem>(_: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let (mut x, mut y) = (o.x.clone(), o.y.clone());
        T::o_swap(&mut x, &mut y);
        let want = Ops::level1(x, y).output(Out::XY);
        T::max_ulp(got, want.view()) as f64
    }

    /// The netlib lengths (and n = 0), every stride pair.
    fn edges() -> Vec<Case> {
        vgrid(&[0, 1, 2, 3, 5, 9], &[0.0], &all_pairs(), |n| n as u64)
    }

    fn space() -> BoxedStrategy<Case> {
        vspace(3000)
    }

    fn bad() -> Vec<Bad> {
        len_mismatch(&[(5, 4)])
    }
}

describe::described_tests!(Swap, 100);

#[test]
fn validation_extension_forms() {
    let mut x = Array1::<f32>::ones(5);
    let mut y = Array1::<f32>::from_elem(4, 7.0);
    let err = x.gpu_swap(&mut y).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "sswap", "y"));
    assert_eq!(x, Array1::ones(5));
    assert_eq!(y, Array1::from_elem(4, 7.0));
}

#[test]
fn past_one_binding() {
    let ((mut x, n), (mut y, _)) = (
        ends_past_one_binding(2.0, 5.0),
        ends_past_one_binding(3.0, 0.0),
    );
    blas::sswap(ctx(), x.view_mut(), y.view_mut()).unwrap();
    assert_eq!((x[0], y[0], x[n - 1], y[n - 1]), (3.0, 2.0, 0.0, 5.0));
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
    let err = blas::sswap(ctx(), &mut gy, &mut short).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "sswap", "y"));
    let mut foreign = fallback_ctx()
        .upload_vector(&array![7.0f32, 8.0, 9.0])
        .unwrap();
    let err = blas::sswap(ctx(), &mut gy, &mut foreign).unwrap_err();
    describe::assert_named(&err, ("InvalidArgument", "sswap", "y"));
    assert_eq!(gy.to_array().unwrap(), array![10.0, 20.0, 30.0]);
    assert_eq!(short.to_array().unwrap(), array![5.0, 6.0]);
    assert_eq!(foreign.to_array().unwrap(), array![7.0, 8.0, 9.0]);
}
