//! sgemv: y ← alpha·op(A)·x + beta·y. Metric: forward factor ≤ 4 (DESIGN.md §2).

use ndarray::{array, Array1, Array2, ShapeBuilder};
use proptest::prelude::*;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::oracle_l2::{self as l2, NETLIB_ALPHA, NETLIB_BETA, NETLIB_N, SIZES, TRANS, VPAIRS};

const THRESHOLD: f64 = 4.0;

/// op(A) is m×n: A is m×n for `No`, n×m for `Yes`.
fn stored_shape(t: Transpose, m: usize, n: usize) -> (usize, usize) {
    match t {
        Transpose::No => (m, n),
        Transpose::Yes => (n, m),
    }
}

#[allow(clippy::too_many_arguments)]
pub fn check(
    seed: u64,
    (m, n): (usize, usize),
    trans: Transpose,
    alpha: f32,
    beta: f32,
    la: Layout,
    lx: VLayout,
    ly: VLayout,
) {
    check_on(ctx(), seed, (m, n), trans, alpha, beta, la, lx, ly);
}

/// [`check`] on the context `c`.
#[allow(clippy::too_many_arguments)]
pub fn check_on(
    c: &wgblas::Context,
    seed: u64,
    (m, n): (usize, usize),
    trans: Transpose,
    alpha: f32,
    beta: f32,
    la: Layout,
    lx: VLayout,
    ly: VLayout,
) {
    let mut r = rng(seed);
    let (ar, ac) = stored_shape(trans, m, n);
    let a = rand_mat(&mut r, ar, ac);
    let x = rand_vec(&mut r, n);
    // beta = 0: y is never read, so it holds NaN.
    let y = if beta == 0.0 {
        Array1::from_elem(m, f32::NAN)
    } else {
        rand_vec(&mut r, m)
    };
    let sa = Mat::new(&a, la);
    let xs = Vector::new(&x, lx);
    let mut ys = Vector::new(&y, ly);
    blas::sgemv(c, trans, alpha, sa.view(), xs.view(), beta, ys.view_mut()).unwrap();
    let what = format!("sgemv {m}x{n} {trans:?} alpha={alpha} beta={beta} {la:?} {lx:?}/{ly:?}");
    assert!(
        ys.outside_is_untouched(),
        "{what}: wrote outside the strided y"
    );
    if m == 0 || n == 0 {
        // Reference quick return: y unchanged (even NaN with beta = 0).
        assert!(l2::same_bits(&ys.to_owned(), &y), "{what}: y changed");
        return;
    }
    let y0 = if beta == 0.0 { Array1::zeros(m) } else { y };
    let reference = oracle::sgemv(trans, alpha, a.view(), x.view(), beta, y0.view());
    let bound = bounds::gemv(trans, alpha, a.view(), x.view(), beta, y0.view());
    let f = metrics::forward_factor(&ys.to_owned(), &reference, &bound).unwrap();
    assert!(f <= THRESHOLD, "{what}: forward factor {f}");
}

#[test]
fn validation_x_length_mismatch() {
    let a = Array2::<f32>::ones((3, 4));
    let mut y = Array1::<f32>::from_elem(3, 7.0);
    let x = Array1::<f32>::ones(3);
    let err = blas::sgemv(
        ctx(),
        Transpose::No,
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
            Error::DimensionMismatch {
                routine: "sgemv",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
    assert!(a.gpu_gemv(&x).is_err());
    // With Transpose::Yes, x must have the rows of A (3), y its columns (4).
    let mut y4 = Array1::<f32>::from_elem(4, 7.0);
    let x4 = Array1::<f32>::ones(4);
    let err = blas::sgemv(
        ctx(),
        Transpose::Yes,
        1.0,
        a.view(),
        x4.view(),
        0.0,
        y4.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sgemv",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(y, Array1::from_elem(3, 7.0));
    assert_eq!(y4, Array1::from_elem(4, 7.0));
}

#[test]
fn validation_y_length_mismatch() {
    let a = Array2::<f32>::ones((3, 4));
    let x = Array1::<f32>::ones(4);
    for len in [2, 4] {
        let mut y = Array1::<f32>::from_elem(len, 7.0);
        let err = a.gpu_gemv_inplace(1.0, &x, 1.0, &mut y).unwrap_err();
        assert!(
            matches!(
                err,
                Error::DimensionMismatch {
                    routine: "sgemv",
                    arg: "y",
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(y, Array1::from_elem(len, 7.0));
    }
}

/// `y ← 0.7·op(A)·x + 0.9·y` on `a` against OpenBLAS (forward factor ≤ 4).
fn check_matrix(a: ndarray::ArrayView2<f32>, trans: Transpose, seed: u64) {
    let mut r = rng(seed);
    let (m, n) = match trans {
        Transpose::No => a.dim(),
        Transpose::Yes => (a.ncols(), a.nrows()),
    };
    let x = rand_vec(&mut r, n);
    let y = rand_vec(&mut r, m);
    let mut got = y.clone();
    blas::sgemv(ctx(), trans, 0.7, a, x.view(), 0.9, got.view_mut()).unwrap();
    let want = oracle::sgemv(trans, 0.7, a, x.view(), 0.9, y.view());
    let bound = bounds::gemv(trans, 0.7, a, x.view(), 0.9, y.view());
    let f = metrics::forward_factor(&got, &want, &bound).unwrap();
    assert!(
        f <= THRESHOLD,
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
    check_matrix(a.view(), Transpose::No, 1);
    check_matrix(a.view(), Transpose::Yes, 2);
    let col = a.into_shape_with_order((40_000_000, 1)).unwrap();
    check_matrix(col.view(), Transpose::No, 3);
    check_matrix(col.view(), Transpose::Yes, 4);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), m in 0usize..SIZES.len(), n in 0usize..SIZES.len(),
                t in 0usize..2, alpha in -2.0f32..2.0, beta in -2.0f32..2.0,
                la in 0usize..4, lx in 0usize..4, ly in 0usize..4) {
        check(seed, (SIZES[m], SIZES[n]), TRANS[t], alpha, beta, LAYOUTS[la], VLAYOUTS[lx],
              VLAYOUTS[ly]);
    }
}

#[test]
fn edge_netlib_values_in_c_and_f_order() {
    let mut shapes: Vec<(usize, usize)> = NETLIB_N.iter().map(|&n| (n, n)).collect();
    shapes.extend([(0, 3), (3, 0), (2, 9), (9, 5)]);
    for layout in [Layout::C, Layout::F] {
        for &(m, n) in &shapes {
            for t in TRANS {
                for alpha in NETLIB_ALPHA {
                    for beta in NETLIB_BETA {
                        for (lx, ly) in VPAIRS {
                            check(
                                m as u64 * 10 + n as u64,
                                (m, n),
                                t,
                                alpha,
                                beta,
                                layout,
                                lx,
                                ly,
                            );
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
        for t in TRANS {
            for (lx, ly) in VPAIRS {
                check(5, (17, 9), t, 0.7, 0.9, la, lx, ly);
                check(6, (65, 64), t, 1.0, 0.0, la, lx, ly);
            }
        }
    }
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
            Transpose::Yes,
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
            Transpose::No,
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
        let mut y = array![1.0f32, -2.0];
        blas::sgemv(
            ctx(),
            Transpose::No,
            0.0,
            a.view(),
            x.view(),
            0.9,
            y.view_mut(),
        )
        .unwrap();
        assert_eq!(y, array![0.9, -1.8]);
        // alpha = 0 and beta = 0: y = 0 without reading anything.
        let mut y = array![f32::NAN, 3.0];
        blas::sgemv(
            ctx(),
            Transpose::No,
            0.0,
            a.view(),
            x.view(),
            0.0,
            y.view_mut(),
        )
        .unwrap();
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
fn edge_rows_longer_than_one_workgroup() {
    // 600 columns: the 256-wide row reduction loops (C order) and the per-row loop (F order).
    for layout in [Layout::C, Layout::F] {
        for t in TRANS {
            let (m, n) = if t == Transpose::No {
                (3, 600)
            } else {
                (600, 3)
            };
            check(
                11,
                (m, n),
                t,
                0.7,
                0.9,
                layout,
                VLayout::Unit,
                VLayout::Reversed,
            );
        }
    }
}

#[test]
fn real_data_1138_bus() {
    // 1138_bus densified: y = A·x and Aᵀ·x (A is symmetric, so both are the same product
    // through the two kernels), against OpenBLAS.
    let a = l2::bus_1138();
    let mut r = rng(1138);
    let x = rand_vec(&mut r, a.ncols());
    for t in TRANS {
        let mut y = Array1::from_elem(a.nrows(), f32::NAN);
        blas::sgemv(ctx(), t, 1.0, a.view(), x.view(), 0.0, y.view_mut()).unwrap();
        let y0 = Array1::zeros(a.nrows());
        let reference = oracle::sgemv(t, 1.0, a.view(), x.view(), 0.0, y0.view());
        let bound = bounds::gemv(t, 1.0, a.view(), x.view(), 0.0, y0.view());
        let f = metrics::forward_factor(&y, &reference, &bound).unwrap();
        assert!(f <= THRESHOLD, "sgemv 1138_bus {t:?}: forward factor {f}");
    }
}

/// The resident form of `check`: the same random inputs, oracle and metric, through a
/// `GpuMatrix` (row- or column-major storage) and `GpuVector`s.
fn check_resident(
    seed: u64,
    (m, n): (usize, usize),
    trans: Transpose,
    alpha: f32,
    beta: f32,
    f_order: bool,
) {
    let mut r = rng(seed);
    let (ar, ac) = stored_shape(trans, m, n);
    let a = rand_mat(&mut r, ar, ac);
    let x = rand_vec(&mut r, n);
    let y = if beta == 0.0 {
        Array1::from_elem(m, f32::NAN)
    } else {
        rand_vec(&mut r, m)
    };
    let ga = l2::upload_matrix(&a, f_order);
    let gx = ctx().upload_vector(&x).unwrap();
    let mut gy = ctx().upload_vector(&y).unwrap();
    blas::sgemv(ctx(), trans, alpha, &ga, &gx, beta, &mut gy).unwrap();
    let got = gy.to_array().unwrap();
    let what = format!("resident sgemv {m}x{n} {trans:?} alpha={alpha} beta={beta} F={f_order}");
    if m == 0 || n == 0 {
        assert!(l2::same_bits(&got, &y), "{what}: y changed");
        return;
    }
    let y0 = if beta == 0.0 { Array1::zeros(m) } else { y };
    let reference = oracle::sgemv(trans, alpha, a.view(), x.view(), beta, y0.view());
    let bound = bounds::gemv(trans, alpha, a.view(), x.view(), beta, y0.view());
    let f = metrics::forward_factor(&got, &reference, &bound).unwrap();
    assert!(f <= THRESHOLD, "{what}: forward factor {f}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), m in 0usize..SIZES.len(), n in 0usize..SIZES.len(),
                         t in 0usize..2, alpha in -2.0f32..2.0, beta in -2.0f32..2.0,
                         f_order in any::<bool>()) {
        check_resident(seed, (SIZES[m], SIZES[n]), TRANS[t], alpha, beta, f_order);
    }
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
        blas::sgemv(ctx(), Transpose::No, &two, &ga, &x, -1.0, &mut gy).unwrap();
        assert_eq!(gy.to_array().unwrap(), array![11.0, 29.0], "F={f_order}");
        // Device beta = 0 never reads y: NaN and Inf in the resident y do not leak.
        let mut gy = ctx()
            .upload_vector(&array![f32::NAN, f32::INFINITY])
            .unwrap();
        blas::sgemv(ctx(), Transpose::No, 1.0, &ga, &x, &zero, &mut gy).unwrap();
        assert_eq!(gy.to_array().unwrap(), array![6.0, 15.0], "F={f_order}");
        // Aᵀ·[1, 2] = [9, 12, 15] by the flag and by `GpuMatrix::t`, into a host y.
        let gx = ctx().upload_vector(&array![1.0f32, 2.0]).unwrap();
        let mut y = Array1::from_elem(3, f32::NAN);
        blas::sgemv(ctx(), Transpose::Yes, 1.0, &ga, &gx, 0.0, &mut y).unwrap();
        assert_eq!(y, array![9.0, 12.0, 15.0], "flag F={f_order}");
        let mut y = Array1::from_elem(3, f32::NAN);
        blas::sgemv(ctx(), Transpose::No, 1.0, ga.t(), &gx, 0.0, &mut y).unwrap();
        assert_eq!(y, array![9.0, 12.0, 15.0], "GpuMatrix::t F={f_order}");
    }
}
