//! strmv and dtrmv: x ← op(A)·x, A triangular. Metric: forward factor (`metrics::spec`,
//! DESIGN.md §2). The description drives validation, fixtures, edges and the resident form;
//! the special values of DESIGN.md §3 are hand-computed below.

use ndarray::{array, Array1, Array2, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::bounds;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level2::*;
use crate::describe::{self, forward, pick, Bad, Case, Id, Ops, Out, Routine, Slots};
use crate::oracle_l2 as l2;

/// The description of trmv: NaN outside the triangle, and on the diagonal for `Unit` (never
/// read).
pub struct Trmv;

impl Routine for Trmv {
    const ID: Id = Id("trmv", Out::X);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let a = tri_stored(r, c.n, c.uplo, c.diag, 0.0, 1.0);
        let x = random_vec(r, c.n);
        Ops::vecs(a, x, Array1::from_vec(Vec::new()))
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        T::trmv(ctx, c.uplo, c.trans, c.diag, s.a.r(), s.x.w())
    }

    fn quick(_: &Case) -> bool {
        false
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let mut want = o.x.clone();
        T::o_trmv(
            c.uplo,
            c.trans,
            c.diag,
            &clean_tri(c.uplo, c.diag, &o.a),
            &mut want,
        );
        let f = o.f64();
        let bound = bounds::trmv(c.uplo, c.trans, c.diag, f.a.view(), f.x.view());
        forward(got, want.into_dyn(), bound.into_dyn())
    }

    fn edges() -> Vec<Case> {
        let fl = flags(true, true, true);
        let c_f = [Layout::C, Layout::F];
        let vs: Vec<_> = VLAYOUTS.iter().map(|&l| (l, VLayout::Unit)).collect();
        let one = [(1.0, 0.0)];
        let mut v = grid(&netlib_shapes(false), &fl, &one, &c_f, &vs, |n, _| n as u64);
        let nonunit = flags(true, true, false);
        v.extend(grid(&[(17, 17)], &nonunit, &one, &LAYOUTS, &vs, |_, _| 4));
        let wide: Vec<_> = WIDE_N.iter().map(|&n| (n, n)).collect();
        let steps = [(VLayout::Step2, VLayout::Unit)];
        v.extend(grid(&wide, &fl, &one, &LAYOUTS, &steps, |m, _| {
            m as u64 + 3
        }));
        v
    }

    fn space() -> BoxedStrategy<Case> {
        let flags = (pick(&UPLOS), pick(&TRANS), pick(&DIAGS));
        (
            any::<u64>(),
            pick(&SIZES),
            flags,
            pick(&LAYOUTS),
            pick(&VLAYOUTS),
        )
            .prop_map(|(seed, n, (u, t, d), la, lx)| {
                Case::new(seed, n, n)
                    .flags(u, t, d)
                    .layouts(la, lx, VLayout::Unit)
            })
            .boxed()
    }

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 3, 3);
        let bad = |a, x, error, arg| Bad::vecs(c, a, x, 0, error, arg);
        vec![
            bad((3, 2), 3, "NotSquare", "a"),
            bad((3, 3), 4, "DimensionMismatch", "x"),
        ]
    }

    /// seed = 0, n = 2, upper, no transpose, non-unit, row-major (a resident failure once).
    fn regressions() -> Vec<Case> {
        vec![Case::new(0, 2, 2)]
    }
}

describe::described_tests!(Trmv, 100);

describe::check_on_fn! {
    /// One case of the description on the context `cx` (used by the kernel-variant tests).
    Trmv, (seed: u64, n: usize, uplo: Uplo, trans: Transpose, diag: Diag, la: Layout, lx: VLayout)
        => Case::new(seed, n, n).flags(uplo, trans, diag).layouts(la, lx, VLayout::Unit)
}

#[test]
fn validation_extension_forms() {
    let a = Array2::<f32>::ones((3, 2));
    let x = Array1::<f32>::from_elem(3, 7.0);
    assert!(a
        .gpu_trmv(Uplo::Lower, Transpose::Yes, Diag::Unit, &x)
        .is_err());
    let a = Array2::<f32>::ones((3, 3));
    let mut x = Array1::<f32>::from_elem(4, 7.0);
    let err = a
        .gpu_trmv_inplace(Uplo::Lower, Transpose::No, Diag::NonUnit, &mut x)
        .unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "strmv", "x"));
    assert_eq!(x, Array1::from_elem(4, 7.0));
}

#[test]
fn past_one_binding() {
    // A of side² f32 just past one binding, upper triangle with a unit diagonal (NaN below and
    // on the diagonal, never read), x ← Aᵀ·x in square blocks (issue 15). A_ij = 1 above the
    // diagonal, x = 1: (Aᵀ·x)_i = 1 + i (the unit diagonal and the i entries above it in
    // column i).
    let side = side_past_one_binding();
    let a = Array2::from_shape_fn((side, side), |(i, j)| if i < j { 1.0f32 } else { f32::NAN });
    let mut x = Array1::<f32>::ones(side);
    a.gpu_trmv_inplace(Uplo::Upper, Transpose::Yes, Diag::Unit, &mut x)
        .unwrap();
    assert!(x.iter().enumerate().all(|(i, &v)| v == (1 + i) as f32));
}

/// L = [[2, ., .], [1, 3, .], [4, 5, 6]] (NaN in the upper triangle, and on the diagonal for
/// Unit) and x = [1, 1, 1]: L·x = [2, 4, 15]; Lᵀ·x = [7, 8, 6]; unit L·x = [1, 2, 10]; unit
/// Lᵀ·x = [6, 6, 1].
#[allow(clippy::type_complexity)]
fn hand_cases() -> (
    Array1<f32>,
    [(Array2<f32>, Transpose, Diag, Array1<f32>); 4],
) {
    let nan = f32::NAN;
    let l = array![[2.0f32, nan, nan], [1.0, 3.0, nan], [4.0, 5.0, 6.0]];
    let mut lu = l.clone();
    lu.diag_mut().fill(nan);
    let cases = [
        (
            l.clone(),
            Transpose::No,
            Diag::NonUnit,
            array![2.0f32, 4.0, 15.0],
        ),
        (l, Transpose::Yes, Diag::NonUnit, array![7.0f32, 8.0, 6.0]),
        (
            lu.clone(),
            Transpose::No,
            Diag::Unit,
            array![1.0f32, 2.0, 10.0],
        ),
        (lu, Transpose::Yes, Diag::Unit, array![6.0f32, 6.0, 1.0]),
    ];
    (array![1.0f32, 1.0, 1.0], cases)
}

#[test]
fn edge_hand_values_other_triangle_and_unit_diagonal_never_read() {
    let (ones, cases) = hand_cases();
    for layout in [Layout::C, Layout::F] {
        for (a, trans, diag, expected) in &cases {
            let a = &a;
            let sa = Mat::new(a, layout);
            let got = sa
                .view()
                .gpu_trmv(Uplo::Lower, *trans, *diag, &ones)
                .unwrap();
            assert_eq!(got, expected, "lower {trans:?} {diag:?} {layout:?}");
            assert!(l2::same_bits(&sa.to_owned(), *a), "A changed");
            // Uᵀ = L: the upper triangle of aᵀ with the flags flipped gives the same.
            let at = a.t().to_owned();
            let sat = Mat::new(&at, layout);
            let got = sat
                .view()
                .gpu_trmv(Uplo::Upper, trans.flip(), *diag, &ones)
                .unwrap();
            assert_eq!(
                got,
                expected,
                "upper {:?} {diag:?} {layout:?}",
                trans.flip()
            );
        }
    }
}

#[test]
fn edge_n_zero() {
    let a = Array2::<f32>::zeros((0, 0));
    let mut x = Array1::<f32>::zeros(0);
    a.gpu_trmv_inplace(Uplo::Upper, Transpose::No, Diag::Unit, &mut x)
        .unwrap();
    assert_eq!(x.len(), 0);
}

#[test]
fn real_data_1138_bus() {
    // x ← L·x and Lᵀ·x with L the lower triangle of 1138_bus (upper set to NaN).
    let mut cases = Vec::new();
    for trans in TRANS {
        for diag in DIAGS {
            cases.push(Case::new(0, 0, 0).flags(Uplo::Lower, trans, diag));
        }
    }
    real_data::<Trmv>(true, &cases);
}

#[test]
fn resident_hand_values_and_mixed_operands() {
    // As edge_hand_values_other_triangle_and_unit_diagonal_never_read, through a resident L
    // (NaN above, and on the diagonal for Unit) and `GpuMatrix::t`, with resident or host x.
    let (ones, cases) = hand_cases();
    for f_order in [false, true] {
        for (a, trans, diag, expected) in &cases {
            let a = &a;
            let ga = l2::upload_matrix(a, f_order);
            // Resident A and x: the product is copied into x on the device.
            let mut gx = ctx().upload_vector(&ones).unwrap();
            blas::strmv(ctx(), Uplo::Lower, *trans, *diag, &ga, &mut gx).unwrap();
            assert_eq!(
                gx.to_array().unwrap(),
                expected,
                "{trans:?} {diag:?} F={f_order}"
            );
            // `ga.t()` is Lᵀ = U: its upper triangle with the flag flipped gives the same.
            let mut x = ones.clone();
            blas::strmv(ctx(), Uplo::Upper, trans.flip(), *diag, ga.t(), &mut x).unwrap();
            assert_eq!(x, expected, "t() {trans:?} {diag:?} F={f_order} host x");
            // Host A, resident x.
            let mut gx = ctx().upload_vector(&ones).unwrap();
            blas::strmv(ctx(), Uplo::Lower, *trans, *diag, *a, &mut gx).unwrap();
            assert_eq!(
                gx.to_array().unwrap(),
                expected,
                "host A {trans:?} {diag:?}"
            );
            assert!(l2::same_bits(&ga.to_array().unwrap(), *a), "A changed");
        }
    }
}
