//! ssyr and dsyr: A ← alpha·x·xᵀ + A on the triangle `uplo`. Metric: forward
//! factor (`metrics::spec`, DESIGN.md §2); the other triangle is left exactly as it was. The
//! description drives validation, fixtures, edges and the resident form; the special values of
//! DESIGN.md §3 are hand-computed below.

use ndarray::{array, Array1, Array2, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level2::*;
use crate::describe::{self, forward, pick, Bad, Case, Ops, Out, Routine, Slots};
use crate::oracle_l2 as l2;

/// The description of syr: A symmetric in its triangle `uplo`, NaN in the other one
/// (neither read nor written).
pub struct Syr;

impl Routine for Syr {
    const ROOT: &'static str = "syr";
    const OUT: Out = Out::A;
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
        let fl = flags(true, false, false);
        let c_f = [Layout::C, Layout::F];
        let vs: Vec<(VLayout, VLayout)> = VLAYOUTS.iter().map(|&l| (l, VLayout::Unit)).collect();
        let alphas: Vec<_> = NETLIB_ALPHA.iter().map(|&a| (a, 0.0)).collect();
        let mut v = grid(&netlib_shapes(false), &fl, &alphas, &c_f, &vs, |n, _| {
            n as u64
        });
        v.extend(grid(
            &[(65, 65)],
            &fl,
            &[(0.7, 0.0)],
            &LAYOUTS,
            &vs,
            |_, _| 2,
        ));
        let wide: Vec<_> = WIDE_N.iter().map(|&n| (n, n)).collect();
        let steps = [(VLayout::Step2, VLayout::Reversed)];
        let scalars = [(1.0, 0.0), (-0.7, 0.0)];
        v.extend(grid(&wide, &fl, &scalars, &LAYOUTS, &steps, |m, _| {
            m as u64 + 9
        }));
        v
    }

    fn space() -> BoxedStrategy<Case> {
        let dims = (any::<u64>(), pick(&SIZES), pick(&UPLOS));
        let rest = (
            -2.0f32..2.0,
            pick(&LAYOUTS),
            pick(&VLAYOUTS),
            Just(VLayout::Unit),
        );
        (dims, rest)
            .prop_map(|((seed, n, u), (alpha, la, lx, ly))| {
                Case::new(seed, n, n)
                    .flags(u, Transpose::No, Diag::NonUnit)
                    .scalars(alpha.into(), 0.0)
                    .layouts(la, lx, ly)
            })
            .boxed()
    }

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 3, 3).flags(Uplo::Lower, Transpose::No, Diag::NonUnit);
        let bad = |a, x, error, arg| Bad {
            case: c,
            a,
            x,
            y: 0,
            error,
            arg,
            b: (0, 0),
            c: (0, 0),
        };
        vec![
            bad((3, 2), 3, "NotSquare", "a"),
            bad((3, 3), 4, "DimensionMismatch", "x"),
        ]
    }
}

describe::described_tests!(Syr, 100);

/// One case of the description on the shared context (used by the kernel-variant tests).
pub fn check(seed: u64, n: usize, uplo: Uplo, alpha: f32, la: Layout, lx: VLayout) {
    check_on(ctx(), seed, n, uplo, alpha, la, lx);
}

/// [`check`] on the context `c`.
#[allow(clippy::too_many_arguments)]
pub fn check_on(c: &Context, seed: u64, n: usize, uplo: Uplo, alpha: f32, la: Layout, lx: VLayout) {
    let case = Case::new(seed, n, n)
        .flags(uplo, Transpose::No, Diag::NonUnit)
        .scalars(alpha.into(), 0.0)
        .layouts(la, lx, VLayout::Unit);
    describe::check_on::<Syr, f32>(c, &case);
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
    assert_eq!(describe::named(&err), ("DimensionMismatch", "ssyr", "x"));
    assert!(a.iter_mut().chain(a3.iter_mut()).all(|v| *v == 7.0));
}

/// The elements of `a` outside triangle `uplo`, in logical order.
fn other_triangle(a: &Array2<f32>, uplo: Uplo) -> Vec<f32> {
    a.indexed_iter()
        .filter(|((i, j), _)| !l2::in_triangle(uplo, *i, *j))
        .map(|(_, v)| *v)
        .collect()
}

/// Run ssyr on `a` stored in `la`, `x` in `lx`; check the untouched parts and the factor.
fn check_matrix(a: &Array2<f32>, x: &Array1<f32>, uplo: Uplo, alpha: f32, la: Layout, lx: VLayout) {
    check_matrix_on(ctx(), a, x, uplo, alpha, la, lx);
}

#[allow(clippy::too_many_arguments)]
fn check_matrix_on(
    c: &wgblas::Context,
    a: &Array2<f32>,
    x: &Array1<f32>,
    uplo: Uplo,
    alpha: f32,
    la: Layout,
    lx: VLayout,
) {
    let n = a.nrows();
    let mut sa = Mat::new(a, la);
    let pad = sa.outside();
    let xs = Vector::new(x, lx);
    blas::ssyr(c, uplo, alpha, xs.view(), sa.view_mut()).unwrap();
    let what = format!("ssyr n={n} {uplo:?} alpha={alpha} {la:?} {lx:?}");
    let got = sa.to_owned();
    assert!(
        l2::same_bits(&pad, &sa.outside()),
        "{what}: wrote outside the strided A"
    );
    assert!(
        l2::same_bits(&other_triangle(&got, uplo), &other_triangle(a, uplo)),
        "{what}: the other triangle changed"
    );
    if alpha == 0.0 || n == 0 {
        assert!(l2::same_bits(&got, a), "{what}: A changed");
        return;
    }
    let reference = l2::ssyr(uplo, alpha, x.view(), a.view());
    let bound = bounds::syr(uplo, alpha, x.view(), a.view());
    let f = metrics::forward_factor(&got, &reference, &bound).unwrap();
    assert!(
        f <= describe::threshold::<Syr>(),
        "{what}: forward factor {f}"
    );
}

#[test]
fn past_one_binding() {
    // A of side² f32 just past one binding: its lower triangle in square blocks (issue 15).
    let limit = ctx().limits().max_storage_buffer_binding_size as usize;
    let side = ((limit / 4) as f64).sqrt() as usize + 1;
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
            let start = Array2::from_shape_fn((3, 3), |(i, j)| {
                if l2::in_triangle(*uplo, i, j) {
                    0.0
                } else {
                    nan
                }
            });
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
    // A = 1138_bus densified (both triangles stored): only the triangle uplo changes.
    let a = l2::bus_1138();
    let mut r = rng(1138);
    let x = rand_vec(&mut r, a.nrows());
    for uplo in UPLOS {
        for layout in [Layout::C, Layout::F] {
            check_matrix(&a, &x, uplo, 0.7, layout, VLayout::Unit);
        }
    }
}

#[test]
fn edge_rounded_once_against_exact() {
    // As sger: A + alpha·x_i·x_j evaluated in double-f32 and rounded once (factor ≤ 0.5 against
    // the exact update, computed in f64).
    let mut worst: f64 = 0.0;
    for (seed, alpha) in [(1u64, 1.5649561f32), (2, -0.7), (3, 1e-3)] {
        let mut r = rng(seed);
        let n = 128;
        let a = rand_mat(&mut r, n, n);
        let x = rand_vec(&mut r, n);
        for uplo in UPLOS {
            let bound = bounds::syr(uplo, alpha, x.view(), a.view());
            for layout in [Layout::C, Layout::F] {
                let mut sa = Mat::new(&a, layout);
                blas::ssyr(ctx(), uplo, alpha, x.view(), sa.view_mut()).unwrap();
                for ((i, j), &g) in sa.to_owned().indexed_iter() {
                    if l2::in_triangle(uplo, i, j) {
                        let exact = f64::from(a[[i, j]])
                            + f64::from(alpha) * f64::from(x[i]) * f64::from(x[j]);
                        let f = (f64::from(g) - exact).abs() / (metrics::EPS * bound[[i, j]]);
                        worst = worst.max(f);
                    }
                }
            }
        }
    }
    println!("ssyr against the exact update: worst factor {worst:.4}");
    assert!(
        worst <= 0.501,
        "ssyr not rounded once: factor {worst} against the exact update"
    );
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
            let start = Array2::from_shape_fn((3, 3), |(i, j)| {
                if l2::in_triangle(*uplo, i, j) {
                    0.0
                } else {
                    nan
                }
            });
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
