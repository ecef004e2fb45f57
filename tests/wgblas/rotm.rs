//! srotm and drotm: modified Givens transformation with flags −2, −1, 0, 1. Metric: forward
//! factor against OpenBLAS over both outputs (`metrics::spec`, DESIGN.md §2). The description
//! drives validation, fixtures, edges and the resident form; every flag has hand-computed
//! values below.

use ndarray::{array, Array1, ArrayViewD};
use proptest::prelude::*;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level1::*;
use crate::describe::{self, forward, pick, Bad, Case, Elem, Id, Ops, Out, Routine, Slots};

const FLAGS: [f32; 4] = [-2.0, -1.0, 0.0, 1.0];
const NAN: f32 = f32::NAN;

/// The description of rotm: `param` is the case's.
pub struct Rotm;

fn param<T: Elem>(c: &Case) -> [T; 5] {
    c.param.map(T::from_f64)
}

/// A vector case with `param`.
fn pcase(seed: u64, n: usize, param: [f32; 5], lx: VLayout, ly: VLayout) -> Case {
    Case {
        param: param.map(f64::from),
        ..vcase(seed, n, 0.0, lx, ly)
    }
}

impl Routine for Rotm {
    const ID: Id = Id("rotm", Out::XY);

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        T::rotm(ctx, s.x.w(), s.y.w(), param(c))
    }

    /// Flag −2 (H = I) and n = 0: x and y unchanged, bit for bit.
    fn quick(c: &Case) -> bool {
        c.param[0] == -2.0 || c.n == 0
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let (mut x, mut y) = (o.x.clone(), o.y.clone());
        T::o_rotm(&mut x, &mut y, param(c));
        let want = Ops::level1(x, y).output(Out::XY);
        let (bx, by) = T::rotm_bound(param(c), &o.x, &o.y);
        let bound = ndarray::concatenate![ndarray::Axis(0), bx, by];
        forward(got, want, bound.into_dyn())
    }

    /// The netlib lengths (and n = 0), every flag, every stride pair.
    fn edges() -> Vec<Case> {
        let mut v = Vec::new();
        for n in [0, 1, 2, 3, 5, 9] {
            for flag in FLAGS {
                for (lx, ly) in all_pairs() {
                    v.push(pcase(n as u64, n, [flag, 0.7, -0.3, 1.25, 0.9], lx, ly));
                }
            }
        }
        // From the f64 suite: longer vectors, and NaN in the entries a flag does not read.
        let params = [
            [-1.0, 0.3, -1.7, 2.1, 0.9],
            [0.0, NAN, 0.1, -3.0, NAN],
            [1.0, 0.7, NAN, NAN, -0.2],
            [-2.0, NAN, NAN, NAN, NAN],
        ];
        for n in [257, 1025] {
            for p in params {
                for (lx, ly) in F64_PAIRS {
                    v.push(pcase(n as u64 + 90, n, p, lx, ly));
                }
            }
        }
        v
    }

    fn space() -> BoxedStrategy<Case> {
        let h = prop::array::uniform4(-2.0f32..2.0);
        let dims = (any::<u64>(), 0usize..3000, pick(&VLAYOUTS), pick(&VLAYOUTS));
        (dims, pick(&FLAGS), h)
            .prop_map(|((seed, n, lx, ly), flag, h)| {
                pcase(seed, n, [flag, h[0], h[1], h[2], h[3]], lx, ly)
            })
            .boxed()
    }

    /// x and y of different lengths under every flag; a flag outside {−2, −1, 0, 1}.
    fn bad() -> Vec<Bad> {
        let mut v = Vec::new();
        for flag in FLAGS {
            let mut bad = len_mismatch(&[(5, 4)]);
            bad[0].case = pcase(
                0,
                5,
                [flag, 2.0, 3.0, 4.0, 5.0],
                VLayout::Unit,
                VLayout::Unit,
            );
            v.extend(bad);
        }
        for flag in [2.0, -3.0, 0.5, -1.5, NAN, f32::INFINITY] {
            let c = pcase(
                0,
                2,
                [flag, 2.0, 3.0, 4.0, 5.0],
                VLayout::Unit,
                VLayout::Unit,
            );
            v.push(Bad::vecs(c, (0, 0), 2, 2, "InvalidArgument", "param"));
        }
        v
    }
}

describe::described_tests!(Rotm, 100);

#[test]
fn validation_extension_forms() {
    let mut x = Array1::<f32>::ones(5);
    let mut y = Array1::<f32>::from_elem(4, 7.0);
    for flag in FLAGS {
        assert!(x
            .gpu_rotm_inplace(&mut y, [flag, 2.0, 3.0, 4.0, 5.0])
            .is_err());
    }
    assert_eq!(x, Array1::ones(5));
    assert_eq!(y, Array1::from_elem(4, 7.0));
    let (x, y) = (array![1.0f32, 2.0], array![3.0f32, 4.0]);
    for flag in [2.0, -3.0, 0.5, -1.5, NAN, f32::INFINITY] {
        let param = [flag, 2.0, 3.0, 4.0, 5.0];
        let err = x.gpu_rotm(&y, param).unwrap_err();
        describe::assert_named(&err, ("InvalidArgument", "srotm", "param"));
        // Whatever n is.
        let (mut e, mut f) = (Array1::<f32>::zeros(0), Array1::<f32>::zeros(0));
        assert!(e.gpu_rotm_inplace(&mut f, param).is_err());
    }
}

#[test]
fn past_one_binding() {
    let ((mut x, n), (mut y, _)) = (
        ends_past_one_binding(2.0, 1.0),
        ends_past_one_binding(3.0, 1.0),
    );
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
    describe::assert_named(&err, ("InvalidArgument", "srotm", "param"));
    assert_eq!(gx.to_array().unwrap(), array![30.0, 20.0, 10.0]);
    assert_eq!(gy.to_array().unwrap(), array![2.0, f32::INFINITY]);
}
