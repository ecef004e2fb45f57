//! sgemv and dgemv: y ← alpha·op(A)·x + beta·y. Metric: forward factor (`metrics::spec`,
//! DESIGN.md §2). The description drives validation, fixtures, edges and the resident form;
//! the special values of DESIGN.md §3 are hand-computed below.

use ndarray::{array, Array1, Array2, ArrayViewD, ShapeBuilder};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level2::*;
use crate::describe::{
    self, forward, pick, read_under_beta, scalar, Bad, Case, Id, Ops, Out, Routine, Slots,
};
use crate::oracle_l2 as l2;
use wgblas::{
    Diag::NonUnit,
    Transpose::{No, Yes},
    Uplo::Upper,
};

/// op(A) is m×n: A is m×n for `No`, n×m for `Yes`.
fn stored_shape(t: Transpose, m: usize, n: usize) -> (usize, usize) {
    match t {
        No => (m, n),
        Yes => (n, m),
    }
}

/// The description of gemv.
pub struct Gemv;

impl Routine for Gemv {
    const ID: Id = Id("gemv", Out::Y);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let (ar, ac) = stored_shape(c.trans, c.m, c.n);
        let a = random_mat(r, ar, ac);
        let x = random_vec(r, c.n);
        // beta = 0: y is never read, so it holds NaN.
        let y = nan_or_rand(r, c.m, c.beta == 0.0);
        Ops::vecs(a, x, y)
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let (alpha, beta) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        T::gemv(ctx, c.trans, alpha, s.a.r(), s.x.r(), beta, s.y.w())
    }

    /// Reference SGEMV returns at once when op(A) has no rows or no columns: y unchanged, even
    /// NaN under beta = 0.
    fn quick(c: &Case) -> bool {
        c.m == 0 || c.n == 0
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let (alpha, beta) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        let y0 = read_under_beta(&o.y, c.beta);
        let mut want = y0.clone();
        T::o_gemv(c.trans, alpha, &o.a, &o.x, beta, &mut want);
        let f = Ops { y: y0, ..o.clone() }.f64();
        let (a, x, y) = (f.a.view(), f.x.view(), f.y.view());
        let bound = bounds::gemv(c.trans, alpha.to_f64(), a, x, beta.to_f64(), y);
        forward(got, want.into_dyn(), bound.into_dyn())
    }

    fn edges() -> Vec<Case> {
        let fl = flags(false, true, false);
        let (c_f, both) = ([Layout::C, Layout::F], (VLayout::Unit, VLayout::Reversed));
        let seed = |m: usize, n: usize| m as u64 * 10 + n as u64;
        let mut v = grid(
            &netlib_shapes(true),
            &fl,
            &netlib_scalars(true),
            &c_f,
            &VPAIRS,
            seed,
        );
        // Two mid sizes in every layout.
        for (shape, scalars, seed) in [((17, 9), (0.7, 0.9), 5), ((65, 64), (1.0, 0.0), 6)] {
            v.extend(grid(
                &[shape],
                &fl,
                &[scalars],
                &LAYOUTS,
                &VPAIRS,
                |_, _| seed,
            ));
        }
        // 600 columns of op(A): the 256-wide row reduction loops (C order) and the per-row
        // loop (F order).
        for (t, shape) in [(No, (3, 600)), (Yes, (600, 3))] {
            let fl = [(Upper, t, NonUnit)];
            v.extend(grid(&[shape], &fl, &[(0.7, 0.9)], &c_f, &[both], |_, _| 11));
        }
        let wide: Vec<_> = WIDE_N.iter().map(|&n| (n, n)).collect();
        let steps = [(VLayout::Step2, VLayout::Reversed)];
        v.extend(grid(&wide, &fl, &WIDE_SCALARS, &LAYOUTS, &steps, |m, _| {
            m as u64
        }));
        v
    }

    fn space() -> BoxedStrategy<Case> {
        let dims = (any::<u64>(), pick(&SIZES), pick(&SIZES), pick(&TRANS));
        let rest = (
            scalar(),
            scalar(),
            pick(&LAYOUTS),
            pick(&VLAYOUTS),
            pick(&VLAYOUTS),
        );
        (dims, rest)
            .prop_map(|((seed, m, n, t), (alpha, beta, la, lx, ly))| {
                Case::new(seed, m, n)
                    .flags(Upper, t, NonUnit)
                    .scalars(alpha.into(), beta.into())
                    .layouts(la, lx, ly)
            })
            .boxed()
    }

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 3, 4);
        let yes = c.flags(Upper, Yes, NonUnit);
        let bad = |case, x, y, arg| Bad::vecs(case, (3, 4), x, y, "DimensionMismatch", arg);
        // With Transpose::Yes, x must have the rows of A (3), y its columns (4).
        vec![
            bad(c, 3, 3, "x"),
            bad(yes, 4, 4, "x"),
            bad(c, 4, 2, "y"),
            bad(c, 4, 4, "y"),
        ]
    }
}

describe::described_tests!(Gemv, 100);

describe::check_on_fn! {
    /// One case of the description on the context `cx` (used by the kernel-variant tests).
    Gemv, (seed: u64, (m, n): (usize, usize), trans: Transpose, alpha: f32, beta: f32, la: Layout, lx: VLayout, ly: VLayout)
        => Case::new(seed, m, n).flags(Upper, trans, NonUnit).scalars(alpha.into(), beta.into()).layouts(la, lx, ly)
}

#[test]
fn validation_extension_forms() {
    let a = Array2::<f32>::ones((3, 4));
    assert!(a.gpu_gemv(&Array1::<f32>::ones(3)).is_err());
    let x = Array1::<f32>::ones(4);
    for len in [2, 4] {
        let mut y = Array1::<f32>::from_elem(len, 7.0);
        let err = a.gpu_gemv_inplace(1.0, &x, 1.0, &mut y).unwrap_err();
        describe::assert_named(&err, ("DimensionMismatch", "sgemv", "y"));
        assert_eq!(y, Array1::from_elem(len, 7.0));
    }
}

/// `y ← 0.7·op(A)·x + 0.9·y` on `a` against OpenBLAS (forward factor ≤ 4).
fn check_matrix(a: ndarray::ArrayView2<f32>, trans: Transpose, seed: u64) {
    let mut r = rng(seed);
    let (m, n) = match trans {
        No => a.dim(),
        Yes => (a.ncols(), a.nrows()),
    };
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, m);
    let mut got = y.clone();
    blas::sgemv(ctx(), trans, 0.7, a, x.view(), 0.9, got.view_mut()).unwrap();
    let want = oracle::sgemv(trans, 0.7, a, x.view(), 0.9, y.view());
    let bound = bounds::gemv(trans, 0.7, a, x.view(), 0.9, y.view());
    let f = metrics::forward_factor(&got, &want, &bound).unwrap();
    assert!(
        f <= describe::threshold::<Gemv, f32>(),
        "{:?} {trans:?}: forward factor {f}",
        a.dim()
    );
}

#[test]
fn past_one_binding() {
    // A of 40,000,000 f32 (160 MB) is past lavapipe's 128 MiB binding: row panels (or column
    // panels, for a row that is past a binding by itself), both transposes (issue 15).
    let mut r = rng(4000);
    let a = Array2::from_shape_simple_fn((5_000_000, 8), || value(&mut r));
    check_matrix(a.view(), No, 1);
    check_matrix(a.view(), Yes, 2);
    let col = a.into_shape_with_order((40_000_000, 1)).unwrap();
    check_matrix(col.view(), No, 3);
    check_matrix(col.view(), Yes, 4);
}

#[test]
fn edge_hand_values() {
    let a = array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    // A·[1, 1, 1] = [6, 15]; the same in F order.
    assert_eq!(
        a.gpu_gemv(&array![1.0f32, 1.0, 1.0]).unwrap(),
        array![6.0, 15.0]
    );
    let af = Array2::from_shape_vec((2, 3).f(), vec![1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0]).unwrap();
    assert_eq!(af, a);
    assert_eq!(
        af.gpu_gemv(&array![1.0f32, 1.0, 1.0]).unwrap(),
        array![6.0, 15.0]
    );
    // Aᵀ·[1, 2] = [9, 12, 15], by the flag and by the view.
    for m in [&a, &af] {
        let mut y = Array1::zeros(3);
        blas::sgemv(
            ctx(),
            Yes,
            1.0,
            m.view(),
            array![1.0f32, 2.0].view(),
            0.0,
            y.view_mut(),
        )
        .unwrap();
        assert_eq!(y, array![9.0, 12.0, 15.0]);
        assert_eq!(
            m.t().gpu_gemv(&array![1.0f32, 2.0]).unwrap(),
            array![9.0, 12.0, 15.0]
        );
    }
    // alpha = 2, beta = -1, y = [1, 1]: 2·[6, 15] − 1 = [11, 29]; y reversed in memory.
    let mut y = array![1.0f32, 10.0];
    let mut yr = y.slice_mut(ndarray::s![..;-1]);
    yr.fill(1.0);
    a.gpu_gemv_inplace(2.0, &array![1.0f32, 1.0, 1.0], -1.0, &mut yr)
        .unwrap();
    assert_eq!(y, array![29.0, 11.0]);
}

#[test]
fn edge_beta_zero_never_reads_y() {
    for layout in [Layout::C, Layout::F] {
        let a = Mat::new(&array![[1.0f32, 2.0], [3.0, 4.0]], layout);
        let mut y = array![f32::NAN, f32::INFINITY];
        blas::sgemv(
            ctx(),
            No,
            1.0,
            a.view(),
            array![1.0f32, -1.0].view(),
            0.0,
            y.view_mut(),
        )
        .unwrap();
        assert_eq!(y, array![-1.0, -1.0]);
    }
}

#[test]
fn edge_alpha_zero_never_reads_a_or_x() {
    for layout in [Layout::C, Layout::F] {
        let a = Mat::new(&Array2::from_elem((2, 3), f32::NAN), layout);
        let x = array![f32::NAN, f32::INFINITY, 1.0];
        let alpha_zero = |beta: f32, y: &mut Array1<f32>| {
            blas::sgemv(ctx(), No, 0.0, a.view(), x.view(), beta, y.view_mut()).unwrap()
        };
        let mut y = array![1.0f32, -2.0];
        alpha_zero(0.9, &mut y);
        assert_eq!(y, array![0.9, -1.8]);
        // alpha = 0 and beta = 0: y = 0 without reading anything.
        let mut y = array![f32::NAN, 3.0];
        alpha_zero(0.0, &mut y);
        assert_eq!(y, array![0.0, 0.0]);
    }
}

#[test]
fn edge_empty_dimensions_quick_return() {
    // Reference SGEMV returns at once when A has no rows or no columns: y unchanged, even with
    // beta = 0 (and so even NaN stays).
    let a = Array2::<f32>::zeros((3, 0));
    let mut y = array![1.0f32, f32::NAN, 3.0];
    a.gpu_gemv_inplace(1.0, &Array1::zeros(0), 0.0, &mut y)
        .unwrap();
    assert!(l2::same_bits(&y, &array![1.0f32, f32::NAN, 3.0]));
    assert_eq!(
        Array2::<f32>::zeros((0, 4))
            .gpu_gemv(&Array1::ones(4))
            .unwrap()
            .len(),
        0
    );
    // alpha = 0, beta = 1: quick return too.
    let a = array![[f32::NAN]];
    let mut y = array![f32::INFINITY];
    a.gpu_gemv_inplace(0.0, &array![1.0f32], 1.0, &mut y)
        .unwrap();
    assert_eq!(y, array![f32::INFINITY]);
}

#[test]
fn real_data_1138_bus() {
    // y = A·x and Aᵀ·x, A = 1138_bus densified.
    let cases = TRANS.map(|t| Case::new(0, 0, 0).flags(Upper, t, NonUnit));
    real_data::<Gemv>(false, &cases);
}

#[test]
fn resident_mixed_operands_and_device_scalars() {
    let a = array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let ones = ctx().upload_vector(&array![1.0f32, 1.0]).unwrap();
    // alpha = [1, 1]·[1, 1] = 2 on the device; beta = 0 on the device (‖[0]‖).
    let two = wgblas::resident::sdot(ctx(), &ones, &ones).unwrap();
    let zero =
        wgblas::resident::snrm2(ctx(), &ctx().upload_vector(&array![0.0f32]).unwrap()).unwrap();
    for f_order in [false, true] {
        let ga = l2::upload_matrix(&a, f_order);
        // Resident A and y, host x, device alpha, host beta = −1: 2·[6, 15] − 1 = [11, 29].
        let mut gy = ctx().upload_vector(&array![1.0f32, 1.0]).unwrap();
        let x = array![1.0f32, 1.0, 1.0];
        blas::sgemv(ctx(), No, &two, &ga, &x, -1.0, &mut gy).unwrap();
        assert_eq!(gy.to_array().unwrap(), array![11.0, 29.0], "F={f_order}");
        // Device beta = 0 never reads y: NaN and Inf in the resident y do not leak.
        let mut gy = ctx()
            .upload_vector(&array![f32::NAN, f32::INFINITY])
            .unwrap();
        blas::sgemv(ctx(), No, 1.0, &ga, &x, &zero, &mut gy).unwrap();
        assert_eq!(gy.to_array().unwrap(), array![6.0, 15.0], "F={f_order}");
        // Aᵀ·[1, 2] = [9, 12, 15] by the flag and by `GpuMatrix::t`, into a host y.
        let gx = ctx().upload_vector(&array![1.0f32, 2.0]).unwrap();
        let mut y = Array1::from_elem(3, f32::NAN);
        blas::sgemv(ctx(), Yes, 1.0, &ga, &gx, 0.0, &mut y).unwrap();
        assert_eq!(y, array![9.0, 12.0, 15.0], "flag F={f_order}");
        let mut y = Array1::from_elem(3, f32::NAN);
        blas::sgemv(ctx(), No, 1.0, ga.t(), &gx, 0.0, &mut y).unwrap();
        assert_eq!(y, array![9.0, 12.0, 15.0], "GpuMatrix::t F={f_order}");
    }
}
