//! sger: A ← alpha·x·yᵀ + A. Metric: forward factor ≤ 2 (DESIGN.md §2).

use ndarray::{array, Array1, Array2};
use proptest::prelude::*;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::oracle_l2::{self as l2, NETLIB_ALPHA, NETLIB_N, SIZES, VPAIRS};

const THRESHOLD: f64 = 2.0;

pub fn check(seed: u64, dims: (usize, usize), alpha: f32, la: Layout, lx: VLayout, ly: VLayout) {
    check_on(ctx(), seed, dims, alpha, la, lx, ly);
}

/// [`check`] on the context `c`.
pub fn check_on(
    c: &wgblas::Context,
    seed: u64,
    (m, n): (usize, usize),
    alpha: f32,
    la: Layout,
    lx: VLayout,
    ly: VLayout,
) {
    let mut r = rng(seed);
    let a = rand_mat(&mut r, m, n);
    let x = rand_vec(&mut r, m);
    let y = rand_vec(&mut r, n);
    let mut sa = Mat::new(&a, la);
    let pad = sa.outside();
    let (xs, ys) = (Vector::new(&x, lx), Vector::new(&y, ly));
    blas::sger(c, alpha, xs.view(), ys.view(), sa.view_mut()).unwrap();
    let what = format!("sger {m}x{n} alpha={alpha} {la:?} {lx:?}/{ly:?}");
    assert!(
        l2::same_bits(&pad, &sa.outside()),
        "{what}: wrote outside the strided A"
    );
    if alpha == 0.0 || m == 0 || n == 0 {
        // Quick return: A unchanged.
        assert!(l2::same_bits(&sa.to_owned(), &a), "{what}: A changed");
        return;
    }
    let reference = l2::sger(alpha, x.view(), y.view(), a.view());
    let bound = bounds::ger(alpha, x.view(), y.view(), a.view());
    let f = metrics::forward_factor(&sa.to_owned(), &reference, &bound).unwrap();
    assert!(f <= THRESHOLD, "{what}: forward factor {f}");
}

#[test]
fn validation_length_mismatch() {
    let mut a = Array2::<f32>::from_elem((3, 4), 7.0);
    let err = blas::sger(
        ctx(),
        1.0,
        Array1::ones(4).view(),
        Array1::ones(4).view(),
        a.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sger",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
    let err = Array1::<f32>::ones(3)
        .gpu_ger_inplace(1.0, &Array1::ones(3), &mut a)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sger",
                arg: "y",
                ..
            }
        ),
        "{err}"
    );
    assert!(Array1::<f32>::ones(2)
        .gpu_ger(1.0, &Array1::ones(4), &a)
        .is_err());
    assert_eq!(a, Array2::from_elem((3, 4), 7.0));
}

#[test]
fn past_one_binding() {
    // A of side² f32 just past one binding: updated in blocks (issue 15).
    let limit = ctx().limits().max_storage_buffer_binding_size as usize;
    let side = ((limit / 4) as f64).sqrt() as usize + 1;
    let mut a = Array2::<f32>::zeros((side, side));
    a[[0, 0]] = 3.0;
    let x = Array1::from_shape_fn(side, |i| (i % 3) as f32);
    let y = Array1::from_shape_fn(side, |j| (j % 5) as f32);
    x.gpu_ger_inplace(2.0, &y, &mut a).unwrap();
    assert!(a.indexed_iter().all(|((i, j), &v)| {
        v == 2.0 * ((i % 3) * (j % 5)) as f32 + if (i, j) == (0, 0) { 3.0 } else { 0.0 }
    }));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), m in 0usize..SIZES.len(), n in 0usize..SIZES.len(),
                alpha in -2.0f32..2.0, la in 0usize..4, lx in 0usize..4, ly in 0usize..4) {
        check(seed, (SIZES[m], SIZES[n]), alpha, LAYOUTS[la], VLAYOUTS[lx], VLAYOUTS[ly]);
    }
}

#[test]
fn edge_netlib_values_in_c_and_f_order() {
    let mut shapes: Vec<(usize, usize)> = NETLIB_N.iter().map(|&n| (n, n)).collect();
    shapes.extend([(0, 3), (3, 0), (2, 9), (9, 5)]);
    for layout in [Layout::C, Layout::F] {
        for &(m, n) in &shapes {
            for alpha in NETLIB_ALPHA {
                for (lx, ly) in VPAIRS {
                    check(m as u64 * 10 + n as u64, (m, n), alpha, layout, lx, ly);
                }
            }
        }
    }
}

#[test]
fn edge_strided_and_reversed_layouts() {
    for la in LAYOUTS {
        for (lx, ly) in VPAIRS {
            check(8, (17, 65), 0.7, la, lx, ly);
        }
    }
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
    let a = l2::bus_1138();
    let mut r = rng(1138);
    let (x, y) = (rand_vec(&mut r, a.nrows()), rand_vec(&mut r, a.ncols()));
    let reference = l2::sger(0.7, x.view(), y.view(), a.view());
    let bound = bounds::ger(0.7, x.view(), y.view(), a.view());
    for layout in [Layout::C, Layout::F] {
        let mut sa = Mat::new(&a, layout);
        blas::sger(ctx(), 0.7, x.view(), y.view(), sa.view_mut()).unwrap();
        let f = metrics::forward_factor(&sa.to_owned(), &reference, &bound).unwrap();
        assert!(
            f <= THRESHOLD,
            "sger 1138_bus {layout:?}: forward factor {f}"
        );
    }
}

#[test]
fn edge_rounded_once_against_exact() {
    // The kernel evaluates A + alpha·x_i·y_j in double-f32 and rounds once: within half an ulp
    // of the exact value (computed in f64), i.e. a factor ≤ 0.5 against the exact result
    // (documented in wgsl/level2/rank_update.wgsl), in C and F order.
    let mut worst: f64 = 0.0;
    for (seed, alpha) in [(1u64, 1.5649561f32), (2, -0.7), (3, 1e-3)] {
        let mut r = rng(seed);
        let (m, n) = (129, 65);
        let a = rand_mat(&mut r, m, n);
        let (x, y) = (rand_vec(&mut r, m), rand_vec(&mut r, n));
        let bound = bounds::ger(alpha, x.view(), y.view(), a.view());
        for layout in [Layout::C, Layout::F] {
            let mut sa = Mat::new(&a, layout);
            blas::sger(ctx(), alpha, x.view(), y.view(), sa.view_mut()).unwrap();
            for ((i, j), &g) in sa.to_owned().indexed_iter() {
                let exact =
                    f64::from(a[[i, j]]) + f64::from(alpha) * f64::from(x[i]) * f64::from(y[j]);
                let f = (f64::from(g) - exact).abs() / (metrics::EPS * bound[[i, j]]);
                worst = worst.max(f);
            }
        }
    }
    println!("sger against the exact update: worst factor {worst:.4}");
    assert!(
        worst <= 0.501,
        "sger not rounded once: factor {worst} against the exact update"
    );
}

/// The resident form of `check`: the same random inputs, oracle and metric, through a
/// `GpuMatrix` (row- or column-major storage) updated in place and `GpuVector`s.
fn check_resident(seed: u64, (m, n): (usize, usize), alpha: f32, f_order: bool) {
    let mut r = rng(seed);
    let a = rand_mat(&mut r, m, n);
    let x = rand_vec(&mut r, m);
    let y = rand_vec(&mut r, n);
    let mut ga = l2::upload_matrix(&a, f_order);
    let (gx, gy) = (
        ctx().upload_vector(&x).unwrap(),
        ctx().upload_vector(&y).unwrap(),
    );
    blas::sger(ctx(), alpha, &gx, &gy, &mut ga).unwrap();
    let got = ga.to_array().unwrap();
    let what = format!("resident sger {m}x{n} alpha={alpha} F={f_order}");
    if alpha == 0.0 || m == 0 || n == 0 {
        assert!(l2::same_bits(&got, &a), "{what}: A changed");
        return;
    }
    let reference = l2::sger(alpha, x.view(), y.view(), a.view());
    let bound = bounds::ger(alpha, x.view(), y.view(), a.view());
    let f = metrics::forward_factor(&got, &reference, &bound).unwrap();
    assert!(f <= THRESHOLD, "{what}: forward factor {f}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), m in 0usize..SIZES.len(), n in 0usize..SIZES.len(),
                         alpha in -2.0f32..2.0, f_order in any::<bool>()) {
        check_resident(seed, (SIZES[m], SIZES[n]), alpha, f_order);
    }
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
        assert!(
            matches!(
                err,
                Error::DimensionMismatch {
                    routine: "sger",
                    arg: "x",
                    ..
                }
            ),
            "{err}"
        );
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
