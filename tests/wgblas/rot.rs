//! srot and drot: plane rotation (x, y) ← (c·x + s·y, c·y − s·x). Metric: forward factor
//! against OpenBLAS over both outputs (`metrics::spec`, DESIGN.md §2). The description drives
//! validation, fixtures, edges and the resident form; exact values are hand-computed below.

use ndarray::{array, s, Array1, ArrayViewD};
use proptest::prelude::*;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level1::*;
use crate::describe::{self, forward, pick, Bad, Case, Elem, Id, Ops, Out, Routine, Slots};

/// The description of rot: c is the case's alpha, s its beta.
pub struct Rot;

impl Routine for Rot {
    const ID: Id = Id("rot", Out::XY);

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let (cos, sin) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        T::rot(ctx, s.x.w(), s.y.w(), cos, sin)
    }

    /// n = 0: x and y unchanged.
    fn quick(c: &Case) -> bool {
        c.n == 0
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let (cos, sin) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        let (mut x, mut y) = (o.x.clone(), o.y.clone());
        T::o_rot(&mut x, &mut y, cos, sin);
        let want = Ops::level1(x, y).output(Out::XY);
        let (bx, by) = T::rot_bound(cos, sin, &o.x, &o.y);
        let bound = ndarray::concatenate![ndarray::Axis(0), bx, by];
        forward(got, want, bound.into_dyn())
    }

    /// The netlib lengths (and n = 0), five (c, s), every stride pair.
    fn edges() -> Vec<Case> {
        let mut v = Vec::new();
        for (cos, sin) in [(1.0, 0.0), (0.0, 1.0), (0.6, 0.8), (0.7, -0.7), (-1.0, 0.0)] {
            let grid = vgrid(&[0, 1, 2, 3, 5, 9], &[cos], &all_pairs(), |n| n as u64);
            v.extend(grid.into_iter().map(|c| c.scalars(cos, sin)));
        }
        // From the f64 suite: longer vectors, a rotation with irrational c and s.
        let (cos, sin) = (0.6f64.sqrt(), 0.4f64.sqrt());
        let grid = vgrid(&[257, 1025], &[cos], &F64_PAIRS, |n| n as u64 + 90);
        v.extend(grid.into_iter().map(|c| c.scalars(cos, sin)));
        v
    }

    /// A true rotation (c = cos θ, s = sin θ), or any c, s (BLAS does not require
    /// c² + s² = 1).
    fn space() -> BoxedStrategy<Case> {
        let angle = (any::<bool>(), -3.2f32..3.2, -2.0f32..2.0, -2.0f32..2.0);
        let dims = (any::<u64>(), 0usize..3000, pick(&VLAYOUTS), pick(&VLAYOUTS));
        (dims, angle)
            .prop_map(|((seed, n, lx, ly), (general, theta, a, b))| {
                let (cos, sin) = if general {
                    (a, b)
                } else {
                    (theta.cos(), theta.sin())
                };
                vcase(seed, n, 0.0, lx, ly).scalars(cos.into(), sin.into())
            })
            .boxed()
    }

    fn bad() -> Vec<Bad> {
        len_mismatch(&[(5, 4)])
    }
}

describe::described_tests!(Rot, 100);

#[test]
fn validation_extension_forms() {
    let mut x = Array1::<f32>::ones(5);
    let mut y = Array1::<f32>::from_elem(4, 7.0);
    let err = x.gpu_rot_inplace(&mut y, 0.6, 0.8).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "srot", "y"));
    assert!(x.gpu_rot(&y, 0.6, 0.8).is_err());
    assert_eq!(x, Array1::ones(5));
    assert_eq!(y, Array1::from_elem(4, 7.0));
}

#[test]
fn past_one_binding() {
    let ((mut x, n), (mut y, _)) = (
        ends_past_one_binding(2.0, 1.0),
        ends_past_one_binding(3.0, 0.0),
    );
    // (c, s) = (0, 1): x ← y, y ← −x, exactly.
    blas::srot(ctx(), x.view_mut(), y.view_mut(), 0.0, 1.0).unwrap();
    assert_eq!((x[0], y[0], x[n - 1], y[n - 1]), (3.0, -2.0, 0.0, -1.0));
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
    let err = blas::srot(ctx(), &mut gx, &mut short, 0.6, 0.8).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "srot", "y"));
    assert_eq!(gx.to_array().unwrap(), array![10.0, 20.0, 30.0]);
    assert_eq!(short.to_array().unwrap(), array![5.0]);
}
