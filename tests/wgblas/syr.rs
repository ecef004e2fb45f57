//! ssyr and dsyr: A ← alpha·x·xᵀ + A on the triangle `uplo`. Metric: forward
//! factor (`metrics::spec`, DESIGN.md §2); the other triangle is left exactly as it was. The
//! description drives validation, fixtures, edges and the resident form; the special values of
//! DESIGN.md §3 are hand-computed below.

use ndarray::{array, Array1, Array2, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::bounds;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level2::*;
use crate::describe::{self, forward, Bad, Case, Id, Ops, Out, Routine, Slots};
use crate::oracle_l2 as l2;

/// The description of syr: A symmetric in its triangle `uplo`, NaN in the other one
/// (neither read nor written).
pub struct Syr;

impl Routine for Syr {
    const ID: Id = Id("syr", Out::A);
    const TRIANGLE_ONLY: bool = true;

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let a = sym_stored(r, c.n, c.uplo);
        let x = random_vec(r, c.n);
        Ops::vecs(a, x, Array1::from_vec(Vec::new()))
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        T::syr(ctx, c.uplo, T::from_f64(c.alpha), s.x.r(), s.a.w())
    }

    /// Quick return: A unchanged.
    fn quick(c: &Case) -> bool {
        c.alpha == 0.0 || c.n == 0
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let alpha = T::from_f64(c.alpha);
        let mut want = o.a.clone();
        T::o_syr(c.uplo, alpha, &o.x, &mut want);
        let f = o.f64();
        let bound = bounds::syr(c.uplo, alpha.to_f64(), f.x.view(), f.a.view());
        forward(got, want.into_dyn(), bound.into_dyn())
    }

    fn edges() -> Vec<Case> {
        rank_update_edges(&VLAYOUTS.map(|l| (l, VLayout::Unit)))
    }

    fn space() -> BoxedStrategy<Case> {
        symmetric_rank_space(Just(VLayout::Unit).boxed())
    }

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 3, 3).flags(Uplo::Lower, Transpose::No, Diag::NonUnit);
        let bad = |a, x, error, arg| Bad::vecs(c, a, x, 0, error, arg);
        vec![
            bad((3, 2), 3, "NotSquare", "a"),
            bad((3, 3), 4, "DimensionMismatch", "x"),
        ]
    }
}

describe::described_tests!(Syr, 100);

describe::check_on_fn! {
    /// One case of the description on the context `cx` (used by the kernel-variant tests).
    Syr, (seed: u64, n: usize, uplo: Uplo, alpha: f32, la: Layout, lx: VLayout)
        => Case::new(seed, n, n).flags(uplo, Transpose::No, Diag::NonUnit).scalars(alpha.into(), 0.0).layouts(la, lx, VLayout::Unit)
}

#[test]
fn validation_extension_forms() {
    let mut a = Array2::<f32>::from_elem((3, 2), 7.0);
    assert!(Array1::<f32>::ones(3)
        .gpu_syr(Uplo::Upper, 1.0, &a)
        .is_err());
    let mut a3 = Array2::<f32>::from_elem((3, 3), 7.0);
    let err = Array1::<f32>::ones(4)
        .gpu_syr_inplace(Uplo::Upper, 1.0, &mut a3)
        .unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "ssyr", "x"));
    assert!(a.iter_mut().chain(a3.iter_mut()).all(|v| *v == 7.0));
}

#[test]
fn past_one_binding() {
    // A of side² f32 just past one binding: its lower triangle in square blocks (issue 15).
    let side = side_past_one_binding();
    let mut a = Array2::<f32>::from_elem((side, side), 3.0);
    let x = Array1::from_shape_fn(side, |i| (i % 3) as f32);
    x.gpu_syr_inplace(Uplo::Lower, 2.0, &mut a).unwrap();
    assert!(a.indexed_iter().all(|((i, j), &v)| if i >= j {
        v == 2.0 * ((i % 3) * (j % 3)) as f32 + 3.0
    } else {
        v == 3.0
    }));
}

#[test]
fn edge_hand_values_only_the_triangle_is_written() {
    // x = [1, 2, 3]: x·xᵀ = [[1, 2, 3], [2, 4, 6], [3, 6, 9]]; the other triangle is NaN and
    // stays NaN.
    let nan = f32::NAN;
    let x = array![1.0f32, 2.0, 3.0];
    let cases = [
        (
            Uplo::Upper,
            array![[1.0f32, 2.0, 3.0], [nan, 4.0, 6.0], [nan, nan, 9.0]],
        ),
        (
            Uplo::Lower,
            array![[1.0f32, nan, nan], [2.0, 4.0, nan], [3.0, 6.0, 9.0]],
        ),
    ];
    for layout in [Layout::C, Layout::F] {
        for (uplo, expected) in &cases {
            let start = l2::zero_triangle(*uplo, 3);
            let mut a = Mat::new(&start, layout);
            blas::ssyr(ctx(), *uplo, 1.0, x.view(), a.view_mut()).unwrap();
            assert!(
                l2::same_bits(&a.to_owned(), expected),
                "{uplo:?} {layout:?}: {}",
                a.to_owned()
            );
        }
    }
    // alpha = −1 on the plain form: 1 − x·xᵀ on the upper triangle, the lower one copied.
    let got = x.gpu_syr(Uplo::Upper, -1.0, &Array2::ones((3, 3))).unwrap();
    assert_eq!(
        got,
        array![[0.0, -1.0, -2.0], [1.0, -3.0, -5.0], [1.0, 1.0, -8.0]]
    );
}

#[test]
fn edge_zero_x_does_not_skip_the_column() {
    // DESIGN.md §3, one NaN rule: no zero-skip (the reference Fortran SSYR skips column j when
    // x_j = 0). x = [Inf, 0], upper: A(0,0) = 1 + Inf·Inf = Inf, A(0,1) = 1 + Inf·0 = NaN,
    // A(1,1) = 1 + 0·0 = 1, A(1,0) not referenced.
    for layout in [Layout::C, Layout::F] {
        let mut a = Mat::new(&Array2::ones((2, 2)), layout);
        blas::ssyr(
            ctx(),
            Uplo::Upper,
            1.0,
            array![f32::INFINITY, 0.0].view(),
            a.view_mut(),
        )
        .unwrap();
        let want = array![[f32::INFINITY, f32::NAN], [1.0, 1.0]];
        assert_same(&a.to_owned(), &want, &format!("{layout:?}"));
    }
}

#[test]
fn edge_alpha_zero_and_n_zero_are_quick_returns() {
    let mut a = array![[1.0f32, 2.0], [3.0, 4.0]];
    array![f32::NAN, 1.0]
        .gpu_syr_inplace(Uplo::Lower, 0.0, &mut a)
        .unwrap();
    assert_eq!(a, array![[1.0, 2.0], [3.0, 4.0]]);
    let mut e = Array2::<f32>::zeros((0, 0));
    Array1::<f32>::zeros(0)
        .gpu_syr_inplace(Uplo::Upper, 1.0, &mut e)
        .unwrap();
}

#[test]
fn real_data_1138_bus() {
    // A = 1138_bus densified, other triangle NaN: only the triangle uplo changes.
    real_data::<Syr>(true, &real_data_cases(&UPLOS, 0.7, VLayout::Unit));
}

#[test]
fn edge_rounded_once_against_exact() {
    // As sger: A + alpha·x_i·x_j evaluated in double-f32 and rounded once.
    check_rounded_once::<f32>("syr");
}

#[test]
fn edge_rounded_once_against_exact_f64() {
    // In f64 the same kernel evaluates A + alpha·x_i·x_j in double-f64 and rounds once
    // (wgsl/level2/rank_update.wgsl, WIDE), on vec4 units and element by element.
    check_rounded_once::<f64>("syr");
}

#[test]
fn edge_cancellation_within_documented_error() {
    // A set to minus the plain product (an outside probe: A = -(1.1·(3.3·1.3)) came back 37.9
    // ulp from the exact sger): the error stays within the documented bound, f32 and f64.
    check_cancellation::<f32>("syr");
    check_cancellation::<f64>("syr");
}

#[test]
fn resident_hand_values_only_the_triangle_is_written() {
    // As edge_hand_values_only_the_triangle_is_written, on the device: x·xᵀ for x = [1, 2, 3]
    // into a zero triangle, NaN in the other one, which must come back bit for bit.
    let nan = f32::NAN;
    let x = array![1.0f32, 2.0, 3.0];
    let gx = ctx().upload_vector(&x).unwrap();
    let cases = [
        (
            Uplo::Upper,
            array![[1.0f32, 2.0, 3.0], [nan, 4.0, 6.0], [nan, nan, 9.0]],
        ),
        (
            Uplo::Lower,
            array![[1.0f32, nan, nan], [2.0, 4.0, nan], [3.0, 6.0, 9.0]],
        ),
    ];
    for f_order in [false, true] {
        for (uplo, expected) in &cases {
            let start = l2::zero_triangle(*uplo, 3);
            // Resident x, then host x: 2·x·xᵀ in the triangle after the two updates.
            let mut ga = l2::upload_matrix(&start, f_order);
            blas::ssyr(ctx(), *uplo, 1.0, &gx, &mut ga).unwrap();
            let got = ga.to_array().unwrap();
            assert!(l2::same_bits(&got, expected), "{uplo:?} F={f_order}: {got}");
            blas::ssyr(ctx(), *uplo, 1.0, &x, &mut ga).unwrap();
            let twice = expected.mapv(|v| 2.0 * v);
            let got = ga.to_array().unwrap();
            assert!(
                l2::same_bits(&got, &twice),
                "{uplo:?} F={f_order} twice: {got}"
            );
        }
    }
}
