//! strmv: x ← op(A)·x, A triangular. Metric: forward factor ≤ 2 (DESIGN.md §2).

use ndarray::{array, Array1, Array2};
use proptest::prelude::*;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;
use crate::oracle_l2::{self as l2, DIAGS, NETLIB_N, SIZES, TRANS, UPLOS};

const THRESHOLD: f64 = 2.0;

#[allow(clippy::too_many_arguments)]
pub fn check(
    seed: u64,
    n: usize,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    la: Layout,
    lx: VLayout,
) {
    check_on(ctx(), seed, n, uplo, trans, diag, la, lx);
}

/// [`check`] on the context `c`.
#[allow(clippy::too_many_arguments)]
pub fn check_on(
    c: &wgblas::Context,
    seed: u64,
    n: usize,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    la: Layout,
    lx: VLayout,
) {
    let mut r = rng(seed);
    // NaN outside the triangle, and on the diagonal for Unit: never read.
    let a = l2::tri_stored(&mut r, n, uplo, diag, 0.0, 1.0);
    let x = rand_vec(&mut r, n);
    let sa = Mat::new(&a, la);
    let mut xs = Vector::new(&x, lx);
    blas::strmv(c, uplo, trans, diag, sa.view(), xs.view_mut()).unwrap();
    let what = format!("strmv n={n} {uplo:?} {trans:?} {diag:?} {la:?} {lx:?}");
    assert!(
        xs.outside_is_untouched(),
        "{what}: wrote outside the strided x"
    );
    let reference = l2::strmv(uplo, trans, diag, a.view(), x.view());
    let bound = bounds::trmv(uplo, trans, diag, a.view(), x.view());
    let f = metrics::forward_factor(&xs.to_owned(), &reference, &bound).unwrap();
    assert!(f <= THRESHOLD, "{what}: forward factor {f}");
}

#[test]
fn validation_not_square() {
    let a = Array2::<f32>::ones((3, 2));
    let mut x = Array1::<f32>::from_elem(3, 7.0);
    let err = blas::strmv(
        ctx(),
        Uplo::Upper,
        Transpose::No,
        Diag::NonUnit,
        a.view(),
        x.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::NotSquare {
                routine: "strmv",
                arg: "a",
                rows: 3,
                cols: 2
            }
        ),
        "{err}"
    );
    assert!(a
        .gpu_trmv(Uplo::Lower, Transpose::Yes, Diag::Unit, &x)
        .is_err());
    assert_eq!(x, Array1::from_elem(3, 7.0));
}

#[test]
fn validation_length_mismatch() {
    let a = Array2::<f32>::ones((3, 3));
    let mut x = Array1::<f32>::from_elem(4, 7.0);
    let err = a
        .gpu_trmv_inplace(Uplo::Lower, Transpose::No, Diag::NonUnit, &mut x)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "strmv",
                arg: "x",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(x, Array1::from_elem(4, 7.0));
}

#[test]
fn past_one_binding() {
    // A of side² f32 just past one binding, upper triangle with a unit diagonal (NaN below and
    // on the diagonal, never read), x ← Aᵀ·x in square blocks (issue 15). A_ij = 1 above the
    // diagonal, x = 1: (Aᵀ·x)_i = 1 + i (the unit diagonal and the i entries above it in
    // column i).
    let limit = ctx().limits().max_storage_buffer_binding_size as usize;
    let side = ((limit / 4) as f64).sqrt() as usize + 1;
    let a = Array2::from_shape_fn((side, side), |(i, j)| if i < j { 1.0f32 } else { f32::NAN });
    let mut x = Array1::<f32>::ones(side);
    a.gpu_trmv_inplace(Uplo::Upper, Transpose::Yes, Diag::Unit, &mut x)
        .unwrap();
    assert!(x.iter().enumerate().all(|(i, &v)| v == (1 + i) as f32));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), n in 0usize..SIZES.len(), u in 0usize..2, t in 0usize..2,
                d in 0usize..2, la in 0usize..4, lx in 0usize..4) {
        check(seed, SIZES[n], UPLOS[u], TRANS[t], DIAGS[d], LAYOUTS[la], VLAYOUTS[lx]);
    }
}

#[test]
fn edge_netlib_values_in_c_and_f_order() {
    for layout in [Layout::C, Layout::F] {
        for n in NETLIB_N {
            for uplo in UPLOS {
                for trans in TRANS {
                    for diag in DIAGS {
                        for lx in VLAYOUTS {
                            check(n as u64, n, uplo, trans, diag, layout, lx);
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
            for trans in TRANS {
                for lx in VLAYOUTS {
                    check(4, 17, uplo, trans, Diag::NonUnit, la, lx);
                }
            }
        }
    }
}

#[test]
fn edge_hand_values_other_triangle_and_unit_diagonal_never_read() {
    // L = [[2, ., .], [1, 3, .], [4, 5, 6]] (NaN in the upper triangle), x = [1, 1, 1].
    let nan = f32::NAN;
    let l = array![[2.0f32, nan, nan], [1.0, 3.0, nan], [4.0, 5.0, 6.0]];
    let mut lu = l.clone();
    lu.diag_mut().fill(nan);
    let ones = array![1.0f32, 1.0, 1.0];
    let cases = [
        // L·x = [2, 4, 15]; Lᵀ·x = [7, 8, 6]; unit L·x = [1, 2, 10]; unit Lᵀ·x = [6, 6, 1].
        (&l, Transpose::No, Diag::NonUnit, array![2.0f32, 4.0, 15.0]),
        (&l, Transpose::Yes, Diag::NonUnit, array![7.0f32, 8.0, 6.0]),
        (&lu, Transpose::No, Diag::Unit, array![1.0f32, 2.0, 10.0]),
        (&lu, Transpose::Yes, Diag::Unit, array![6.0f32, 6.0, 1.0]),
    ];
    for layout in [Layout::C, Layout::F] {
        for (a, trans, diag, expected) in &cases {
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
    let mut a = l2::bus_1138();
    a.indexed_iter_mut()
        .filter(|((i, j), _)| j > i)
        .for_each(|(_, v)| *v = f32::NAN);
    let mut r = rng(1138);
    let x = rand_vec(&mut r, a.nrows());
    for trans in TRANS {
        for diag in DIAGS {
            let got = a.gpu_trmv(Uplo::Lower, trans, diag, &x).unwrap();
            let reference = l2::strmv(Uplo::Lower, trans, diag, a.view(), x.view());
            let bound = bounds::trmv(Uplo::Lower, trans, diag, a.view(), x.view());
            let f = metrics::forward_factor(&got, &reference, &bound).unwrap();
            assert!(
                f <= THRESHOLD,
                "strmv 1138_bus {trans:?} {diag:?}: forward factor {f}"
            );
        }
    }
}

/// The resident form of `check`: the same random inputs (NaN outside the triangle and on a
/// unit diagonal), oracle and metric, through a `GpuMatrix` (row- or column-major storage) and
/// a `GpuVector`.
fn check_resident(seed: u64, n: usize, uplo: Uplo, trans: Transpose, diag: Diag, f_order: bool) {
    let mut r = rng(seed);
    let a = l2::tri_stored(&mut r, n, uplo, diag, 0.0, 1.0);
    let x = rand_vec(&mut r, n);
    let ga = l2::upload_matrix(&a, f_order);
    let mut gx = ctx().upload_vector(&x).unwrap();
    blas::strmv(ctx(), uplo, trans, diag, &ga, &mut gx).unwrap();
    let what = format!("resident strmv n={n} {uplo:?} {trans:?} {diag:?} F={f_order}");
    let reference = l2::strmv(uplo, trans, diag, a.view(), x.view());
    let bound = bounds::trmv(uplo, trans, diag, a.view(), x.view());
    let f = metrics::forward_factor(&gx.to_array().unwrap(), &reference, &bound).unwrap();
    assert!(f <= THRESHOLD, "{what}: forward factor {f}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), n in 0usize..SIZES.len(), u in 0usize..2,
                         t in 0usize..2, d in 0usize..2, f_order in any::<bool>()) {
        check_resident(seed, SIZES[n], UPLOS[u], TRANS[t], DIAGS[d], f_order);
    }
}

#[test]
fn resident_hand_values_and_mixed_operands() {
    // As edge_hand_values_other_triangle_and_unit_diagonal_never_read, through a resident L
    // (NaN above, and on the diagonal for Unit) and `GpuMatrix::t`, with resident or host x.
    let nan = f32::NAN;
    let l = array![[2.0f32, nan, nan], [1.0, 3.0, nan], [4.0, 5.0, 6.0]];
    let mut lu = l.clone();
    lu.diag_mut().fill(nan);
    let ones = array![1.0f32, 1.0, 1.0];
    let cases = [
        (&l, Transpose::No, Diag::NonUnit, array![2.0f32, 4.0, 15.0]),
        (&l, Transpose::Yes, Diag::NonUnit, array![7.0f32, 8.0, 6.0]),
        (&lu, Transpose::No, Diag::Unit, array![1.0f32, 2.0, 10.0]),
        (&lu, Transpose::Yes, Diag::Unit, array![6.0f32, 6.0, 1.0]),
    ];
    for f_order in [false, true] {
        for (a, trans, diag, expected) in &cases {
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
