//! sger and dger: A ← alpha·x·yᵀ + A. Metric: forward factor (`metrics::spec`, DESIGN.md §2).
//! The description drives validation, fixtures, edges and the resident form; the special
//! values of DESIGN.md §3 are hand-computed below.

use ndarray::{array, Array1, Array2, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::bounds;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level2::*;
use crate::describe::{self, forward, pick, scalar, Bad, Case, Id, Ops, Out, Routine, Slots};
use crate::oracle_l2 as l2;

/// The description of ger.
pub struct Ger;

impl Routine for Ger {
    const ID: Id = Id("ger", Out::A);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let a = random_mat(r, c.m, c.n);
        let x = random_vec(r, c.m);
        let y = random_vec(r, c.n);
        Ops::vecs(a, x, y)
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        T::ger(ctx, T::from_f64(c.alpha), s.x.r(), s.y.r(), s.a.w())
    }

    /// Quick return: A unchanged.
    fn quick(c: &Case) -> bool {
        c.alpha == 0.0 || c.m == 0 || c.n == 0
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let alpha = T::from_f64(c.alpha);
        let mut want = o.a.clone();
        T::o_ger(alpha, &o.x, &o.y, &mut want);
        let f = o.f64();
        let bound = bounds::ger(alpha.to_f64(), f.x.view(), f.y.view(), f.a.view());
        forward(got, want.into_dyn(), bound.into_dyn())
    }

    fn edges() -> Vec<Case> {
        let fl = flags(false, false, false);
        let c_f = [Layout::C, Layout::F];
        let alphas: Vec<_> = NETLIB_ALPHA.iter().map(|&a| (a, 0.0)).collect();
        let seed = |m: usize, n: usize| m as u64 * 10 + n as u64;
        let mut v = grid(&netlib_shapes(true), &fl, &alphas, &c_f, &VPAIRS, seed);
        v.extend(grid(
            &[(17, 65)],
            &fl,
            &[(0.7, 0.0)],
            &LAYOUTS,
            &VPAIRS,
            |_, _| 8,
        ));
        // (2, 70 000): a grid of many workgroups along n at a cheap shape.
        let wide = [(1, 1), (7, 5), (33, 65), (130, 17), (2, 70_000)];
        let steps = [(VLayout::Reversed, VLayout::Step2)];
        v.extend(grid(
            &wide,
            &fl,
            &[(1.0, 0.0), (-0.7, 0.0)],
            &LAYOUTS,
            &steps,
            |_, _| 6,
        ));
        v
    }

    fn space() -> BoxedStrategy<Case> {
        let dims = (any::<u64>(), pick(&SIZES), pick(&SIZES));
        let rest = (scalar(), pick(&LAYOUTS), pick(&VLAYOUTS), pick(&VLAYOUTS));
        (dims, rest)
            .prop_map(|((seed, m, n), (alpha, la, lx, ly))| {
                Case::new(seed, m, n)
                    .scalars(alpha.into(), 0.0)
                    .layouts(la, lx, ly)
            })
            .boxed()
    }

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 3, 4);
        let bad = |x, y, arg| Bad::vecs(c, (3, 4), x, y, "DimensionMismatch", arg);
        vec![bad(4, 4, "x"), bad(3, 3, "y")]
    }
}

describe::described_tests!(Ger, 100);

describe::check_on_fn! {
    /// One case of the description on the context `cx` (used by the kernel-variant tests).
    Ger, (seed: u64, (m, n): (usize, usize), alpha: f32, la: Layout, lx: VLayout, ly: VLayout)
        => Case::new(seed, m, n).scalars(alpha.into(), 0.0).layouts(la, lx, ly)
}

#[test]
fn validation_extension_forms() {
    let mut a = Array2::<f32>::from_elem((3, 4), 7.0);
    let err = Array1::<f32>::ones(3)
        .gpu_ger_inplace(1.0, &Array1::ones(3), &mut a)
        .unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "sger", "y"));
    assert!(Array1::<f32>::ones(2)
        .gpu_ger(1.0, &Array1::ones(4), &a)
        .is_err());
    assert_eq!(a, Array2::from_elem((3, 4), 7.0));
}

#[test]
fn past_one_binding() {
    // A of side² f32 just past one binding: updated in blocks (issue 15).
    let side = side_past_one_binding();
    let mut a = Array2::<f32>::zeros((side, side));
    a[[0, 0]] = 3.0;
    let x = Array1::from_shape_fn(side, |i| (i % 3) as f32);
    let y = Array1::from_shape_fn(side, |j| (j % 5) as f32);
    x.gpu_ger_inplace(2.0, &y, &mut a).unwrap();
    assert!(a.indexed_iter().all(|((i, j), &v)| {
        v == 2.0 * ((i % 3) * (j % 5)) as f32 + if (i, j) == (0, 0) { 3.0 } else { 0.0 }
    }));
}

#[test]
fn edge_hand_values() {
    // 2·[1, 2]·[1, 0, −1] + ones = [[3, 1, −1], [5, 1, −3]], in C and F order and through .t().
    let (x, y) = (array![1.0f32, 2.0], array![1.0f32, 0.0, -1.0]);
    let expected = array![[3.0f32, 1.0, -1.0], [5.0, 1.0, -3.0]];
    for layout in [Layout::C, Layout::F] {
        let mut a = Mat::new(&Array2::ones((2, 3)), layout);
        blas::sger(ctx(), 2.0, x.view(), y.view(), a.view_mut()).unwrap();
        assert_eq!(a.to_owned(), expected, "{layout:?}");
        // Aᵀ ← 2·y·xᵀ + Aᵀ is the same update seen through the transposed view.
        let mut a = Mat::new(&Array2::ones((2, 3)), layout);
        blas::sger(ctx(), 2.0, y.view(), x.view(), a.view_mut().reversed_axes()).unwrap();
        assert_eq!(a.to_owned(), expected, "{layout:?} transposed");
    }
    assert_eq!(
        x.gpu_ger(1.0, &array![3.0f32], &Array2::zeros((2, 1)))
            .unwrap(),
        array![[3.0], [6.0]]
    );
}

#[test]
fn edge_zero_y_does_not_skip_the_column() {
    // DESIGN.md §3, one NaN rule: no zero-skip (the reference Fortran SGER skips column j when
    // y_j = 0; this crate does not). A(0,0) = 1 + Inf·0 = NaN, A(0,1) = 1 + Inf·1 = Inf.
    for layout in [Layout::C, Layout::F] {
        let mut a = Mat::new(&Array2::ones((2, 2)), layout);
        let (x, y) = (array![f32::INFINITY, 1.0], array![0.0f32, 1.0]);
        blas::sger(ctx(), 1.0, x.view(), y.view(), a.view_mut()).unwrap();
        let want = array![[f32::NAN, f32::INFINITY], [1.0, 2.0]];
        assert_same(&a.to_owned(), &want, &format!("{layout:?}"));
    }
}

#[test]
fn edge_alpha_zero_is_quick_return() {
    let x = array![f32::NAN, f32::INFINITY];
    let mut a = array![[1.0f32, 2.0], [3.0, 4.0]];
    x.gpu_ger_inplace(0.0, &x, &mut a).unwrap();
    assert_eq!(a, array![[1.0, 2.0], [3.0, 4.0]]);
}

#[test]
fn edge_empty_dimensions() {
    let mut a = Array2::<f32>::zeros((0, 3));
    Array1::<f32>::zeros(0)
        .gpu_ger_inplace(1.0, &Array1::ones(3), &mut a)
        .unwrap();
    let a = Array1::<f32>::ones(2)
        .gpu_ger(1.0, &Array1::zeros(0), &Array2::zeros((2, 0)))
        .unwrap();
    assert_eq!(a.dim(), (2, 0));
}

#[test]
fn real_data_1138_bus() {
    // A = 1138_bus densified, A ← 0.7·x·yᵀ + A, in C and F order.
    // (uplo is not an argument of ger: the case is the same for either.)
    real_data::<Ger>(false, &real_data_cases(&[Uplo::Upper], 0.7, VLayout::Unit));
}

#[test]
fn edge_rounded_once_against_exact() {
    // The kernel evaluates A + alpha·x_i·y_j in double-f32 and rounds once (documented in
    // wgsl/level2/rank_update.wgsl), in C and F order.
    check_rounded_once::<f32>("ger");
}

#[test]
fn edge_rounded_once_against_exact_f64() {
    // In f64 the same kernel evaluates A + alpha·x_i·y_j in double-f64 and rounds once
    // (wgsl/level2/rank_update.wgsl, WIDE), on vec4 units and element by element.
    check_rounded_once::<f64>("ger");
}

#[test]
fn edge_cancellation_within_documented_error() {
    // A set to minus the plain product (an outside probe: A = -(1.1·(3.3·1.3)) came back 37.9
    // ulp from the exact sger): the error stays within the documented bound, f32 and f64.
    check_cancellation::<f32>("ger");
    check_cancellation::<f64>("ger");
}

#[test]
fn resident_hand_values_mixed_operands_and_errors() {
    // 2·[1, 2]·[1, 0, −1] + ones = [[3, 1, −1], [5, 1, −3]].
    let (x, y) = (array![1.0f32, 2.0], array![1.0f32, 0.0, -1.0]);
    let expected = array![[3.0f32, 1.0, -1.0], [5.0, 1.0, -3.0]];
    let (gx, gy) = (
        ctx().upload_vector(&x).unwrap(),
        ctx().upload_vector(&y).unwrap(),
    );
    for f_order in [false, true] {
        // Resident A, host x, resident y.
        let mut ga = l2::upload_matrix(&Array2::ones((2, 3)), f_order);
        blas::sger(ctx(), 2.0, &x, &gy, &mut ga).unwrap();
        assert_eq!(ga.to_array().unwrap(), expected, "F={f_order}");
        // Two updates in a row on the device (one read-back): A + 2·(2·x·yᵀ).
        blas::sger(ctx(), 2.0, &gx, &y, &mut ga).unwrap();
        assert_eq!(
            ga.to_array().unwrap(),
            array![[5.0f32, 1.0, -3.0], [9.0, 1.0, -7.0]],
            "F={f_order} chained"
        );
        // A length mismatch is a typed error and leaves the resident A as it was.
        let err = blas::sger(ctx(), 2.0, &gy, &gy, &mut ga).unwrap_err();
        describe::assert_named(&err, ("DimensionMismatch", "sger", "x"));
        assert_eq!(
            ga.to_array().unwrap(),
            array![[5.0f32, 1.0, -3.0], [9.0, 1.0, -7.0]]
        );
    }
    // Resident x and y into a host A.
    let mut a = Array2::<f32>::ones((2, 3));
    blas::sger(ctx(), 2.0, &gx, &gy, &mut a).unwrap();
    assert_eq!(a, expected);
}
