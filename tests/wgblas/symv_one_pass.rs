//! ssymv and dsymv in one pass over the stored triangle (`symv_pass` and `symv_sum` of
//! `wgsl/level2/gemv_wide.wgsl`, lab `set_symv_one_pass`: segments of 64×64 tiles per
//! workgroup), pinned against OpenBLAS with the DESIGN.md §2 metric (`metrics::spec` through
//! the description's `check_on`) and against the §3 formula on special values: each triangle,
//! C, F, strided and reversed storage (vec4 and element paths, lab `Scalar` for element loads
//! everywhere), n = 1, n not a multiple of 64 (partial edge tiles), one and several segments
//! per tile row, vectors with steps, f64, alpha and beta on the device, NaN and Inf in x and
//! in the stored triangle, NaN in the other triangle; two calls bit for bit.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use ndarray::{Array1, Array2};
use wgblas::lab::{self, Driver, Variant};
use wgblas::{blas, Uplo};

use crate::common::*;

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;

/// Run `f` with ssymv on the one-pass kernel, `tiles` tiles per workgroup, and `Matvec` on
/// `variant`, holding the lab switches (`lab_defaults`), back to the defaults after.
fn with_one_pass(tiles: u32, variant: Variant, f: impl FnOnce()) {
    let _guard = lab_defaults();
    lab::set_symv_one_pass(tiles);
    lab::set(Driver::Matvec, variant);
    let r = catch_unwind(AssertUnwindSafe(f));
    lab::set_symv_one_pass(0);
    lab::set(Driver::Matvec, Variant::Auto);
    if let Err(e) = r {
        resume_unwind(e);
    }
}

/// Small integers in −2..=2, varied by `seed` (every finite sum of the tests exact).
fn ints(n: usize, seed: usize) -> Array1<f32> {
    Array1::from_shape_fn(n, |i| ((i * 7 + seed * 3) % 5) as f32 - 2.0)
}

/// Sizes: one element, one partial tile, one whole tile, whole + 1, several tile rows with a
/// partial last one (n = 300: 5 tile rows; with 2 tiles a segment the rows have 1 to 3
/// segments).
const SIZES: [usize; 6] = [1, 5, 64, 65, 130, 300];

#[test]
fn symv_one_pass_against_openblas() {
    for tiles in [1, 2, 8] {
        with_one_pass(tiles, Variant::Auto, || {
            crate::symv::sweep(&SIZES);
        });
    }
    // Element loads on every tile (lab `Scalar`), x with a step.
    with_one_pass(2, Variant::Scalar, || {
        for (k, &n) in SIZES.iter().enumerate() {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                for la in [Layout::C, Layout::F] {
                    crate::symv::check_on(
                        ctx(),
                        k as u64 + 20,
                        n,
                        uplo,
                        0.7,
                        0.9,
                        la,
                        VLayout::Step2,
                        VLayout::Unit,
                    );
                }
            }
        }
    });
}

#[test]
fn symv_one_pass_f64_against_openblas() {
    use crate::describe::Case;
    use wgblas::{Diag, Transpose};
    if !ctx().native_f64() {
        panic!("the adapter has no SHADER_F64: the f64 kernels are not tested");
    }
    for tiles in [1, 3] {
        with_one_pass(tiles, Variant::Auto, || {
            for (k, &n) in SIZES.iter().enumerate() {
                for uplo in [Uplo::Lower, Uplo::Upper] {
                    for la in LAYOUTS {
                        for (alpha, beta) in [(1.0, 0.0), (0.7, 0.9)] {
                            let case = Case::new(k as u64, n, n)
                                .flags(uplo, Transpose::No, Diag::NonUnit)
                                .scalars(alpha, beta)
                                .layouts(la, VLayout::Unit, VLayout::Reversed);
                            crate::describe::check_on::<crate::symv::Symv, f64>(ctx(), &case);
                        }
                    }
                }
            }
        });
    }
}

/// n = 300 (5 tile rows, the last partial; 2 tiles a segment): NaN and Inf in x in a diagonal
/// tile, an off-diagonal one and the partial last one, alpha = 0 (A and x not read), beta = 0
/// (a NaN y not read), NaN alpha and beta, Inf alpha; the other triangle NaN; against the §3
/// formula in f32.
#[test]
fn symv_one_pass_special_values_in_x_and_y() {
    let n = 300;
    let mut xs = vec![ints(n, 2), ints(n, 3), ints(n, 4)];
    xs[1][5] = NAN;
    xs[2][200] = INF;
    xs[2][299] = -INF;
    let mut y0 = ints(n, 5);
    y0[130] = NAN;
    with_one_pass(2, Variant::Auto, || {
        crate::kern_special::ssymv_special(&xs, &y0, "one pass")
    });
}

/// NaN and Inf in the stored triangle (off the diagonal, mirrored into two rows, and on it),
/// in a diagonal tile, an off-diagonal tile and the partial last one; x with zeros (Inf·0 is
/// NaN); the other triangle NaN; C and F order; against the §3 formula in f32 on the full
/// symmetric matrix.
#[test]
fn symv_one_pass_special_values_in_a() {
    let n = 300;
    let mut sym = Array2::from_shape_fn((n, n), |(i, j)| ((i + j) % 5) as f32 - 2.0);
    for (i, j, v) in [
        (5, 3, NAN),
        (200, 70, INF),
        (150, 150, -INF),
        (299, 10, NAN),
    ] {
        sym[[i, j]] = v;
        sym[[j, i]] = v;
    }
    let x = ints(n, 1);
    let y0 = ints(n, 4);
    with_one_pass(2, Variant::Auto, || {
        for uplo in [Uplo::Lower, Uplo::Upper] {
            let (stored, fstored) = crate::kern_special::stored_triangle(&sym, uplo);
            for (alpha, beta) in [(1.0, 0.0), (-2.0, 1.0), (0.5, -1.0)] {
                let want = crate::special_values::mv(alpha, &sym, &x, beta, &y0);
                for a in [&stored, &fstored] {
                    let mut y = y0.clone();
                    blas::ssymv(ctx(), uplo, alpha, a, &x, beta, &mut y).unwrap();
                    let what = format!(
                        "ssymv one pass, A specials, {uplo:?} alpha {alpha} beta {beta} F {}",
                        a.t().is_standard_layout()
                    );
                    assert_same(&y, &want, &what);
                }
            }
        }
    });
}

/// alpha and beta as device scalars (f32 `GpuScalar`s from `resident::sdot`, f64 ones from
/// `resident::ddot`) on n = 150 (3 tile rows, one tile a segment), small integers (every sum
/// exact): alpha = 2, beta = −1; alpha = 1 with beta = 0 over a NaN y (not read); alpha = 0
/// over NaN A and x (not read), y = beta·y; NaN alpha is not 0.
#[test]
fn symv_one_pass_device_scalars() {
    let n = 150;
    let sym = Array2::from_shape_fn((n, n), |(i, j)| ((i + j) % 5) as f32 - 2.0);
    let lower = Array2::from_shape_fn((n, n), |(i, j)| if i >= j { sym[[i, j]] } else { NAN });
    let (x, y0) = (ints(n, 2), ints(n, 3));
    let ax: Array1<f32> = sym.dot(&x);
    let dev = |v: f32| {
        let one = ndarray::array![1.0f32];
        wgblas::resident::sdot(ctx(), &ndarray::array![v], &one).unwrap()
    };
    let nan_a = Array2::from_elem((n, n), NAN);
    let nan_x = Array1::from_elem(n, NAN);
    let nan_y = Array1::from_elem(n, NAN);
    // (alpha, beta, A and x NaN, y NaN)
    let cases = [
        (2.0f32, -1.0f32, false, false),
        (1.0, 0.0, false, true),
        (0.0, -2.0, true, false),
        (NAN, 1.0, false, false),
    ];
    with_one_pass(1, Variant::Auto, || {
        for (alpha, beta, nan_ax, nan_yin) in cases {
            let (a, xv) = if nan_ax {
                (&nan_a, &nan_x)
            } else {
                (&lower, &x)
            };
            let y_in = if nan_yin { &nan_y } else { &y0 };
            let want = Array1::from_shape_fn(n, |i| {
                let p = if alpha == 0.0 { 0.0 } else { alpha * ax[i] };
                let q = if beta == 0.0 { 0.0 } else { beta * y_in[i] };
                p + q
            });
            let (da, db) = (dev(alpha), dev(beta));
            let mut y = y_in.clone();
            blas::ssymv(ctx(), Uplo::Lower, &da, a, xv, &db, &mut y).unwrap();
            let what = format!("ssymv one pass, device alpha {alpha} beta {beta}");
            assert_same(&y, &want, &what);
            if !ctx().native_f64() {
                panic!("the adapter has no SHADER_F64: dsymv's device scalars are not tested");
            }
            let d64 = |v: f32| {
                let one = ndarray::array![1.0f64];
                wgblas::resident::ddot(ctx(), &ndarray::array![f64::from(v)], &one).unwrap()
            };
            let (a64, x64) = (a.mapv(f64::from), xv.mapv(f64::from));
            let mut y64 = y_in.mapv(f64::from);
            let (da, db) = (d64(alpha), d64(beta));
            blas::dsymv(ctx(), Uplo::Lower, &da, &a64, &x64, &db, &mut y64).unwrap();
            let got = y64.mapv(|v| v as f32);
            assert_same(&got, &want, &format!("dsymv {what}"));
        }
    });
}

/// Two calls on the same operands give the same bits (a fixed summation order), with one
/// and with several segments per tile row.
#[test]
fn symv_one_pass_deterministic() {
    let n = 300;
    let mut r = rng(11);
    let a = rand_mat(&mut r, n, n);
    let x = rand_vec(&mut r, n);
    for tiles in [1, 4] {
        with_one_pass(tiles, Variant::Auto, || {
            let run = || {
                let mut y = Array1::<f32>::zeros(n);
                blas::ssymv(ctx(), Uplo::Upper, 0.7, &a, &x, 0.0, &mut y).unwrap();
                y
            };
            let (y1, y2) = (run(), run());
            assert!(
                y1.iter().zip(&y2).all(|(p, q)| p.to_bits() == q.to_bits()),
                "ssymv one pass, {tiles} tiles a segment: two calls differ"
            );
        });
    }
}
