//! ssymv and dsymv: y ← alpha·A·x + beta·y, A symmetric in its triangle `uplo`. Metric: forward
//! factor (`metrics::spec`, DESIGN.md §2). The description drives validation, fixtures, edges
//! and the resident form; the special values of DESIGN.md §3 are hand-computed below.

use ndarray::{array, Array1, Array2, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::bounds;
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
    Transpose::No,
    Uplo::{Lower, Upper},
};

/// The description of symv: A symmetric, stored in its triangle `uplo` (NaN in the other one:
/// never read).
pub struct Symv;

impl Routine for Symv {
    const ID: Id = Id("symv", Out::Y);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let a = sym_stored(r, c.n, c.uplo);
        let x = random_vec(r, c.n);
        let y = nan_or_rand(r, c.n, c.beta == 0.0);
        Ops::vecs(a, x, y)
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let (alpha, beta) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        T::symv(ctx, c.uplo, alpha, s.a.r(), s.x.r(), beta, s.y.w())
    }

    fn quick(_: &Case) -> bool {
        false
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let (alpha, beta) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        let y0 = read_under_beta(&o.y, c.beta);
        let mut want = y0.clone();
        let full = full_sym(c.uplo, &o.a);
        T::o_symv(c.uplo, alpha, &full, &o.x, beta, &mut want);
        let f = Ops { y: y0, ..o.clone() }.f64();
        let (a, x, y) = (f.a.view(), f.x.view(), f.y.view());
        let bound = bounds::symv(c.uplo, alpha.to_f64(), a, x, beta.to_f64(), y);
        forward(got, want.into_dyn(), bound.into_dyn())
    }

    fn edges() -> Vec<Case> {
        let fl = flags(true, false, false);
        let c_f = [Layout::C, Layout::F];
        let mut v = grid(
            &netlib_shapes(false),
            &fl,
            &netlib_scalars(true),
            &c_f,
            &VPAIRS,
            |n, _| n as u64,
        );
        v.extend(grid(
            &[(17, 17)],
            &fl,
            &[(0.7, 0.9)],
            &LAYOUTS,
            &VPAIRS,
            |_, _| 3,
        ));
        let wide: Vec<_> = WIDE_N.iter().map(|&n| (n, n)).collect();
        let steps = [(VLayout::Step2, VLayout::Reversed)];
        v.extend(grid(&wide, &fl, &WIDE_SCALARS, &LAYOUTS, &steps, |m, _| {
            m as u64
        }));
        v
    }

    fn space() -> BoxedStrategy<Case> {
        let dims = (any::<u64>(), pick(&SIZES), pick(&UPLOS));
        let rest = (
            scalar(),
            scalar(),
            pick(&LAYOUTS),
            pick(&VLAYOUTS),
            pick(&VLAYOUTS),
        );
        (dims, rest)
            .prop_map(|((seed, n, u), (alpha, beta, la, lx, ly))| {
                Case::new(seed, n, n)
                    .flags(u, No, NonUnit)
                    .scalars(alpha.into(), beta.into())
                    .layouts(la, lx, ly)
            })
            .boxed()
    }

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 3, 3).scalars(1.0, 1.0);
        let bad = |a, x, y, error, arg| Bad::vecs(c, a, x, y, error, arg);
        vec![
            bad((3, 4), 3, 3, "NotSquare", "a"),
            bad((3, 3), 4, 3, "DimensionMismatch", "x"),
            bad((3, 3), 3, 2, "DimensionMismatch", "y"),
        ]
    }
}

describe::described_tests!(Symv, 100);

describe::check_on_fn! {
    /// One case of the description on the context `cx` (used by the kernel-variant tests).
    Symv, (seed: u64, n: usize, uplo: Uplo, alpha: f32, beta: f32, la: Layout, lx: VLayout, ly: VLayout)
        => Case::new(seed, n, n).flags(uplo, No, NonUnit).scalars(alpha.into(), beta.into()).layouts(la, lx, ly)
}

#[test]
fn validation_extension_forms() {
    let a = Array2::<f32>::ones((3, 4));
    assert!(a.gpu_symv(Lower, &Array1::<f32>::ones(3)).is_err());
    let a = Array2::<f32>::ones((3, 3));
    for (x, y, arg) in [(4, 3, "x"), (3, 2, "y")] {
        let mut y = Array1::<f32>::from_elem(y, 7.0);
        let err = a
            .gpu_symv_inplace(Lower, 1.0, &Array1::ones(x), 1.0, &mut y)
            .unwrap_err();
        describe::assert_named(&err, ("DimensionMismatch", "ssymv", arg));
        assert!(y.iter().all(|&v| v == 7.0));
    }
}

#[test]
fn past_one_binding() {
    // A of side² f32 just past one binding, only its upper triangle stored (NaN below): square
    // blocks, each mirrored block read from the stored one (issue 15). y = A·x for
    // A_ij = (i + j) mod 3 (symmetric), x = 1: y_i = Σ_j (i + j) mod 3, exact.
    let side = side_past_one_binding();
    let a = Array2::from_shape_fn((side, side), |(i, j)| {
        if i <= j {
            ((i + j) % 3) as f32
        } else {
            f32::NAN
        }
    });
    let x = Array1::<f32>::ones(side);
    let mut y = Array1::<f32>::from_elem(side, f32::NAN);
    a.gpu_symv_inplace(Upper, 1.0, &x, 0.0, &mut y).unwrap();
    let want = |i: usize| (0..side).map(|j| ((i + j) % 3) as f32).sum::<f32>();
    for i in [0, 1, 2, side / 2, side - 2, side - 1] {
        assert_eq!(y[i], want(i), "y[{i}]");
    }
    assert!(y.iter().all(|v| v.is_finite()));
}

#[test]
fn edge_hand_values_other_triangle_never_read() {
    // A = [[1, 2, 3], [2, 4, 5], [3, 5, 6]], x = [1, 1, 1]: A·x = [6, 11, 14];
    // the unreferenced triangle holds NaN.
    let nan = f32::NAN;
    let lower = array![[1.0f32, nan, nan], [2.0, 4.0, nan], [3.0, 5.0, 6.0]];
    let upper = array![[1.0f32, 2.0, 3.0], [nan, 4.0, 5.0], [nan, nan, 6.0]];
    for layout in [Layout::C, Layout::F] {
        for (uplo, a) in [(Lower, &lower), (Upper, &upper)] {
            let sa = Mat::new(a, layout);
            let before = sa.to_owned();
            let mut y = array![1.0f32, 2.0, 3.0];
            // alpha = 2, beta = -1: 2·[6, 11, 14] − [1, 2, 3] = [11, 20, 25].
            blas::ssymv(
                ctx(),
                uplo,
                2.0,
                sa.view(),
                array![1.0f32, 1.0, 1.0].view(),
                -1.0,
                y.view_mut(),
            )
            .unwrap();
            assert_eq!(y, array![11.0, 20.0, 25.0], "{uplo:?} {layout:?}");
            assert!(l2::same_bits(&sa.to_owned(), &before));
            // x = e_2 picks column 2 = row 2: [3, 5, 6].
            let y = sa.view().gpu_symv(uplo, &array![0.0f32, 0.0, 1.0]).unwrap();
            assert_eq!(y, array![3.0, 5.0, 6.0], "{uplo:?} {layout:?}");
        }
    }
}

#[test]
fn edge_beta_zero_never_reads_y() {
    for layout in [Layout::C, Layout::F] {
        let a = Mat::new(&array![[2.0f32, f32::NAN], [1.0, 3.0]], layout);
        let mut y = array![f32::NAN, f32::INFINITY];
        blas::ssymv(
            ctx(),
            Lower,
            1.0,
            a.view(),
            array![1.0f32, 1.0].view(),
            0.0,
            y.view_mut(),
        )
        .unwrap();
        assert_eq!(y, array![3.0, 4.0]);
    }
}

#[test]
fn edge_alpha_zero_never_reads_a_or_x() {
    for layout in [Layout::C, Layout::F] {
        let a = Mat::new(&Array2::from_elem((2, 2), f32::NAN), layout);
        let x = array![f32::NAN, f32::INFINITY];
        let alpha_zero = |beta: f32, y: &mut Array1<f32>| {
            blas::ssymv(ctx(), Upper, 0.0, a.view(), x.view(), beta, y.view_mut()).unwrap()
        };
        let mut y = array![1.0f32, -2.0];
        alpha_zero(0.9, &mut y);
        assert_eq!(y, array![0.9, -1.8]);
        let mut y = array![f32::NAN, 1.0];
        alpha_zero(0.0, &mut y);
        assert_eq!(y, array![0.0, 0.0]);
        // alpha = 0, beta = 1: quick return, y unchanged.
        let mut y = array![f32::INFINITY, 1.0];
        alpha_zero(1.0, &mut y);
        assert_eq!(y, array![f32::INFINITY, 1.0]);
    }
}

#[test]
fn edge_n_zero() {
    let a = Array2::<f32>::zeros((0, 0));
    assert_eq!(a.gpu_symv(Lower, &Array1::zeros(0)).unwrap().len(), 0);
}

#[test]
fn real_data_1138_bus() {
    // 1138_bus densified (symmetric): y = A·x against OpenBLAS, from each stored triangle, with
    // NaN written over the other triangle so that reading it would show.
    real_data::<Symv>(true, &real_data_cases(&UPLOS, 1.0, VLayout::Unit));
}

#[test]
fn resident_hand_values_device_scalars_and_mixed_operands() {
    // As edge_hand_values_other_triangle_never_read, with A resident (NaN in the other
    // triangle), alpha = 2 from the device, and host/resident x and y mixed.
    let nan = f32::NAN;
    let lower = array![[1.0f32, nan, nan], [2.0, 4.0, nan], [3.0, 5.0, 6.0]];
    let upper = array![[1.0f32, 2.0, 3.0], [nan, 4.0, 5.0], [nan, nan, 6.0]];
    let ones = ctx().upload_vector(&array![1.0f32, 1.0, 1.0]).unwrap();
    let two =
        wgblas::resident::snrm2(ctx(), &ctx().upload_vector(&array![2.0f32]).unwrap()).unwrap();
    let zero =
        wgblas::resident::sasum(ctx(), &ctx().upload_vector(&array![0.0f32]).unwrap()).unwrap();
    for f_order in [false, true] {
        for (uplo, a) in [(Lower, &lower), (Upper, &upper)] {
            let ga = l2::upload_matrix(a, f_order);
            // Resident x and y, device alpha = 2, beta = −1: [11, 20, 25].
            let mut gy = ctx().upload_vector(&array![1.0f32, 2.0, 3.0]).unwrap();
            blas::ssymv(ctx(), uplo, &two, &ga, &ones, -1.0, &mut gy).unwrap();
            assert_eq!(
                gy.to_array().unwrap(),
                array![11.0, 20.0, 25.0],
                "{uplo:?} F={f_order}"
            );
            // Host x = e_2, resident y holding NaN, device beta = 0: column 2 = [3, 5, 6].
            let mut gy = ctx().upload_vector(&Array1::from_elem(3, nan)).unwrap();
            let e2 = array![0.0f32, 0.0, 1.0];
            blas::ssymv(ctx(), uplo, 1.0, &ga, &e2, &zero, &mut gy).unwrap();
            assert_eq!(gy.to_array().unwrap(), array![3.0, 5.0, 6.0]);
            // Resident A and x into a host y.
            let mut y = array![1.0f32, 2.0, 3.0];
            blas::ssymv(ctx(), uplo, 2.0, &ga, &ones, -1.0, &mut y).unwrap();
            assert_eq!(y, array![11.0, 20.0, 25.0], "{uplo:?} F={f_order} host y");
            // A itself is untouched on the device, NaN triangle included.
            assert!(l2::same_bits(&ga.to_array().unwrap(), a));
        }
    }
}

/// [`check_on`] at each order of `sizes` (seeded by its index), both triangles, every matrix
/// layout and three (alpha, beta) pairs on unit-stride vectors, then F order with a step-2 x
/// and a reversed y: the sweep that pins each ssymv kernel variant.
pub fn sweep(sizes: &[usize]) {
    for (k, &n) in sizes.iter().enumerate() {
        for uplo in [Uplo::Lower, Uplo::Upper] {
            for la in LAYOUTS {
                for (alpha, beta) in [(1.0, 0.0), (0.7, 0.9), (-1.3, 1.0)] {
                    check_on(
                        ctx(),
                        k as u64,
                        n,
                        uplo,
                        alpha,
                        beta,
                        la,
                        VLayout::Unit,
                        VLayout::Unit,
                    );
                }
            }
            check_on(
                ctx(),
                9,
                n,
                uplo,
                0.7,
                0.9,
                Layout::F,
                VLayout::Step2,
                VLayout::Reversed,
            );
        }
    }
}
