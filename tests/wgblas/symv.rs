//! ssymv: y ← alpha·A·x + beta·y, A symmetric in its triangle `uplo`. Metric: forward factor
//! ≤ 2 (DESIGN.md §2).

use ndarray::{array, Array1, Array2};
use proptest::prelude::*;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::oracle_l2::{self as l2, NETLIB_ALPHA, NETLIB_BETA, NETLIB_N, SIZES, UPLOS, VPAIRS};

const THRESHOLD: f64 = 2.0;

#[allow(clippy::too_many_arguments)]
pub fn check(
    seed: u64,
    n: usize,
    uplo: Uplo,
    alpha: f32,
    beta: f32,
    la: Layout,
    lx: VLayout,
    ly: VLayout,
) {
    check_on(ctx(), seed, n, uplo, alpha, beta, la, lx, ly);
}

/// [`check`] on the context `c`.
#[allow(clippy::too_many_arguments)]
pub fn check_on(
    c: &wgblas::Context,
    seed: u64,
    n: usize,
    uplo: Uplo,
    alpha: f32,
    beta: f32,
    la: Layout,
    lx: VLayout,
    ly: VLayout,
) {
    let mut r = rng(seed);
    // NaN outside the stored triangle: never read.
    let a = l2::sym_stored(&mut r, n, uplo);
    let x = rand_vec(&mut r, n);
    let y = if beta == 0.0 {
        Array1::from_elem(n, f32::NAN)
    } else {
        rand_vec(&mut r, n)
    };
    let sa = Mat::new(&a, la);
    let xs = Vector::new(&x, lx);
    let mut ys = Vector::new(&y, ly);
    blas::ssymv(c, uplo, alpha, sa.view(), xs.view(), beta, ys.view_mut()).unwrap();
    let what = format!("ssymv n={n} {uplo:?} alpha={alpha} beta={beta} {la:?} {lx:?}/{ly:?}");
    assert!(
        ys.outside_is_untouched(),
        "{what}: wrote outside the strided y"
    );
    let y0 = if beta == 0.0 { Array1::zeros(n) } else { y };
    let reference = l2::ssymv(uplo, alpha, a.view(), x.view(), beta, y0.view());
    let bound = bounds::symv(uplo, alpha, a.view(), x.view(), beta, y0.view());
    let f = metrics::forward_factor(&ys.to_owned(), &reference, &bound).unwrap();
    assert!(f <= THRESHOLD, "{what}: forward factor {f}");
}

#[test]
fn validation_not_square() {
    let a = Array2::<f32>::ones((3, 4));
    let x = Array1::<f32>::ones(3);
    let mut y = Array1::<f32>::from_elem(3, 7.0);
    let err = blas::ssymv(
        ctx(),
        Uplo::Upper,
        1.0,
        a.view(),
        x.view(),
        0.0,
        y.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::NotSquare {
                routine: "ssymv",
                arg: "a",
                rows: 3,
                cols: 4
            }
        ),
        "{err}"
    );
    assert!(a.gpu_symv(Uplo::Lower, &x).is_err());
    assert_eq!(y, Array1::from_elem(3, 7.0));
}

#[test]
fn validation_length_mismatch() {
    let a = Array2::<f32>::ones((3, 3));
    let mut y = Array1::<f32>::from_elem(3, 7.0);
    let err = a
        .gpu_symv_inplace(Uplo::Lower, 1.0, &Array1::ones(4), 1.0, &mut y)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "ssymv",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(y, Array1::from_elem(3, 7.0));
    let mut y2 = Array1::<f32>::from_elem(2, 7.0);
    let err = a
        .gpu_symv_inplace(Uplo::Upper, 1.0, &Array1::ones(3), 1.0, &mut y2)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "ssymv",
                arg: "y",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(y2, Array1::from_elem(2, 7.0));
}

#[test]
fn past_one_binding() {
    // A of side² f32 just past one binding, only its upper triangle stored (NaN below): square
    // blocks, each mirrored block read from the stored one (issue 15). y = A·x for
    // A_ij = (i + j) mod 3 (symmetric), x = 1: y_i = Σ_j (i + j) mod 3, exact.
    let limit = ctx().limits().max_storage_buffer_binding_size as usize;
    let side = ((limit / 4) as f64).sqrt() as usize + 1;
    let a = Array2::from_shape_fn((side, side), |(i, j)| {
        if i <= j {
            ((i + j) % 3) as f32
        } else {
            f32::NAN
        }
    });
    let x = Array1::<f32>::ones(side);
    let mut y = Array1::<f32>::from_elem(side, f32::NAN);
    a.gpu_symv_inplace(Uplo::Upper, 1.0, &x, 0.0, &mut y)
        .unwrap();
    let want = |i: usize| (0..side).map(|j| ((i + j) % 3) as f32).sum::<f32>();
    for i in [0, 1, 2, side / 2, side - 2, side - 1] {
        assert_eq!(y[i], want(i), "y[{i}]");
    }
    assert!(y.iter().all(|v| v.is_finite()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in 0usize..SIZES.len(), u in 0usize..2,
                alpha in -2.0f32..2.0, beta in -2.0f32..2.0,
                la in 0usize..4, lx in 0usize..4, ly in 0usize..4) {
        check(seed, SIZES[n], UPLOS[u], alpha, beta, LAYOUTS[la], VLAYOUTS[lx], VLAYOUTS[ly]);
    }
}

#[test]
fn edge_netlib_values_in_c_and_f_order() {
    for layout in [Layout::C, Layout::F] {
        for n in NETLIB_N {
            for uplo in UPLOS {
                for alpha in NETLIB_ALPHA {
                    for beta in NETLIB_BETA {
                        for (lx, ly) in VPAIRS {
                            check(n as u64, n, uplo, alpha, beta, layout, lx, ly);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn edge_strided_and_reversed_layouts() {
    for la in LAYOUTS {
        for uplo in UPLOS {
            for (lx, ly) in VPAIRS {
                check(3, 17, uplo, 0.7, 0.9, la, lx, ly);
            }
        }
    }
}

#[test]
fn edge_hand_values_other_triangle_never_read() {
    // A = [[1, 2, 3], [2, 4, 5], [3, 5, 6]], x = [1, 1, 1]: A·x = [6, 11, 14];
    // the unreferenced triangle holds NaN.
    let nan = f32::NAN;
    let lower = array![[1.0f32, nan, nan], [2.0, 4.0, nan], [3.0, 5.0, 6.0]];
    let upper = array![[1.0f32, 2.0, 3.0], [nan, 4.0, 5.0], [nan, nan, 6.0]];
    for layout in [Layout::C, Layout::F] {
        for (uplo, a) in [(Uplo::Lower, &lower), (Uplo::Upper, &upper)] {
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
            Uplo::Lower,
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
        let mut y = array![1.0f32, -2.0];
        blas::ssymv(
            ctx(),
            Uplo::Upper,
            0.0,
            a.view(),
            x.view(),
            0.9,
            y.view_mut(),
        )
        .unwrap();
        assert_eq!(y, array![0.9, -1.8]);
        let mut y = array![f32::NAN, 1.0];
        blas::ssymv(
            ctx(),
            Uplo::Upper,
            0.0,
            a.view(),
            x.view(),
            0.0,
            y.view_mut(),
        )
        .unwrap();
        assert_eq!(y, array![0.0, 0.0]);
        // alpha = 0, beta = 1: quick return, y unchanged.
        let mut y = array![f32::INFINITY, 1.0];
        blas::ssymv(
            ctx(),
            Uplo::Upper,
            0.0,
            a.view(),
            x.view(),
            1.0,
            y.view_mut(),
        )
        .unwrap();
        assert_eq!(y, array![f32::INFINITY, 1.0]);
    }
}

#[test]
fn edge_n_zero() {
    let a = Array2::<f32>::zeros((0, 0));
    assert_eq!(a.gpu_symv(Uplo::Lower, &Array1::zeros(0)).unwrap().len(), 0);
}

#[test]
fn real_data_1138_bus() {
    // 1138_bus densified (symmetric): y = A·x against OpenBLAS, from each stored triangle, with
    // NaN written over the other triangle so that reading it would show.
    let full = l2::bus_1138();
    let n = full.nrows();
    let mut r = rng(1138);
    let x = rand_vec(&mut r, n);
    for uplo in UPLOS {
        let mut a = full.clone();
        a.indexed_iter_mut()
            .filter(|((i, j), _)| !l2::in_triangle(uplo, *i, *j))
            .for_each(|(_, v)| *v = f32::NAN);
        for layout in [Layout::C, Layout::F] {
            let sa = Mat::new(&a, layout);
            let y = sa.view().gpu_symv(uplo, &x).unwrap();
            let y0 = Array1::zeros(n);
            let reference = l2::ssymv(uplo, 1.0, a.view(), x.view(), 0.0, y0.view());
            let bound = bounds::symv(uplo, 1.0, a.view(), x.view(), 0.0, y0.view());
            let f = metrics::forward_factor(&y, &reference, &bound).unwrap();
            assert!(
                f <= THRESHOLD,
                "ssymv 1138_bus {uplo:?} {layout:?}: forward factor {f}"
            );
        }
    }
}

/// The resident form of `check`: the same random inputs (NaN outside the stored triangle),
/// oracle and metric, through a `GpuMatrix` (row- or column-major storage) and `GpuVector`s.
fn check_resident(seed: u64, n: usize, uplo: Uplo, alpha: f32, beta: f32, f_order: bool) {
    let mut r = rng(seed);
    let a = l2::sym_stored(&mut r, n, uplo);
    let x = rand_vec(&mut r, n);
    let y = if beta == 0.0 {
        Array1::from_elem(n, f32::NAN)
    } else {
        rand_vec(&mut r, n)
    };
    let ga = l2::upload_matrix(&a, f_order);
    let gx = ctx().upload_vector(&x).unwrap();
    let mut gy = ctx().upload_vector(&y).unwrap();
    blas::ssymv(ctx(), uplo, alpha, &ga, &gx, beta, &mut gy).unwrap();
    let what = format!("resident ssymv n={n} {uplo:?} alpha={alpha} beta={beta} F={f_order}");
    let y0 = if beta == 0.0 { Array1::zeros(n) } else { y };
    let reference = l2::ssymv(uplo, alpha, a.view(), x.view(), beta, y0.view());
    let bound = bounds::symv(uplo, alpha, a.view(), x.view(), beta, y0.view());
    let f = metrics::forward_factor(&gy.to_array().unwrap(), &reference, &bound).unwrap();
    assert!(f <= THRESHOLD, "{what}: forward factor {f}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in 0usize..SIZES.len(), u in 0usize..2,
                         alpha in -2.0f32..2.0, beta in -2.0f32..2.0, f_order in any::<bool>()) {
        check_resident(seed, SIZES[n], UPLOS[u], alpha, beta, f_order);
    }
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
        for (uplo, a) in [(Uplo::Lower, &lower), (Uplo::Upper, &upper)] {
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
