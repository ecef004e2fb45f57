//! The lab's `Experimental` Level 2 kernels of issue 12, round 2 (branch kern12), pinned
//! against OpenBLAS with the DESIGN.md §2 metric (`metrics::spec` through the descriptions'
//! `check_on`) and against hand-computed special values (DESIGN.md §3):
//! - ssymv on `symv_lines` (128×128 tiles in registers): one tile, partial tiles, several
//!   tiles with diagonal and off-diagonal ones, each triangle, C, F, strided and reversed
//!   storage (vec4 and element paths), vectors with steps; NaN in the other triangle.
//! - sgemv and strmv on `gemv_coldot4` (4 columns in flight per invocation): op(A) with
//!   contiguous columns (No-trans F, Trans C), column chunks, tall-skinny, every uplo, trans
//!   and diag; Inf and NaN in x outside a row's triangle must not reach that row.
//! - sger, ssyr, ssyr2 on `main_lines` (4 lines per invocation, loads before stores): partial
//!   line blocks, units across the diagonal, C and F order.

use ndarray::{Array1, Array2, ShapeBuilder};
use wgblas::lab::{Driver, Variant};
use wgblas::prelude::*;
use wgblas::{blas, Diag, Transpose, Uplo};

use crate::bandwidth::with_variant;
use crate::common::*;

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;

/// Small integers in −2..=2, varied by `seed` (every finite sum of the tests exact).
fn ints(n: usize, seed: usize) -> Array1<f32> {
    Array1::from_shape_fn(n, |i| ((i * 7 + seed * 3) % 5) as f32 - 2.0)
}

#[test]
fn kern12_ssymv_lines_against_openblas() {
    with_variant(Driver::Matvec, Variant::Experimental, || {
        // 128-tiles: one partial, one whole, whole + 1, several with a partial last.
        for (k, &n) in [1usize, 5, 127, 128, 129, 300, 520].iter().enumerate() {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                for la in LAYOUTS {
                    for (alpha, beta) in [(1.0, 0.0), (0.7, 0.9), (-1.3, 1.0)] {
                        crate::symv::check_on(
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
                crate::symv::check_on(
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
    });
}

/// ssymv on `symv_lines` at n = 300 (3 tile rows, the last partial): NaN and Inf in x in a
/// diagonal tile and in an off-diagonal one, alpha = 0 (A and x not read), beta = 0 (a NaN y
/// not read), NaN alpha and beta; the other triangle NaN; against the §3 formula in f32.
#[test]
fn kern12_ssymv_lines_special_values() {
    with_variant(Driver::Matvec, Variant::Experimental, || {
        let n = 300;
        let sym = Array2::from_shape_fn((n, n), |(i, j)| ((i + j) % 5) as f32 - 2.0);
        let mut xs = vec![ints(n, 2)];
        let mut x = ints(n, 3);
        x[5] = NAN; // first tile
        xs.push(x);
        let mut x = ints(n, 4);
        x[200] = INF; // second tile row
        x[299] = -INF; // last, partial tile
        xs.push(x);
        let mut y0 = ints(n, 5);
        y0[130] = NAN;
        for (k, x) in xs.iter().enumerate() {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                let stored = Array2::from_shape_fn((n, n), |(i, j)| {
                    let keep = match uplo {
                        Uplo::Lower => i >= j,
                        Uplo::Upper => i <= j,
                    };
                    if keep {
                        sym[[i, j]]
                    } else {
                        NAN
                    }
                });
                let mut fstored = Array2::zeros((n, n).f());
                fstored.assign(&stored);
                for (alpha, beta) in [
                    (1.0, 0.0),
                    (-2.0, 1.0),
                    (0.0, 1.0),
                    (0.0, -2.0),
                    (NAN, 0.0),
                    (1.0, NAN),
                ] {
                    let want = crate::special_values::mv(alpha, &sym, x, beta, &y0);
                    for a in [&stored, &fstored] {
                        let mut y = y0.clone();
                        blas::ssymv(ctx(), uplo, alpha, a, x, beta, &mut y).unwrap();
                        let what = format!(
                            "ssymv lines x{k} {uplo:?} alpha {alpha} beta {beta} F {}",
                            a.t().is_standard_layout()
                        );
                        assert_same(&y, &want, &what);
                    }
                }
            }
        }
    });
}

#[test]
fn kern12_gemv_coldot4_against_openblas() {
    with_variant(Driver::Matvec, Variant::Experimental, || {
        // op(A) with contiguous columns: No-trans on F order, Trans on C order; shapes with
        // one column lane group and several, column chunks (600 × 3000), tall-skinny and
        // short-wide, rows not a multiple of 4.
        let shapes = [
            (1usize, 1usize),
            (5, 3),
            (17, 129),
            (129, 17),
            (257, 255),
            (600, 3000),
            (3000, 600),
            (20_001, 4),
            (4, 20_001),
        ];
        for (k, &(m, n)) in shapes.iter().enumerate() {
            for (t, la) in [(Transpose::No, Layout::F), (Transpose::Yes, Layout::C)] {
                for (alpha, beta) in [(1.0, 0.0), (0.7, 0.9)] {
                    crate::gemv::check_on(
                        ctx(),
                        k as u64,
                        (m, n),
                        t,
                        alpha,
                        beta,
                        la,
                        VLayout::Unit,
                        VLayout::Unit,
                    );
                }
                crate::gemv::check_on(
                    ctx(),
                    k as u64 + 50,
                    (m, n),
                    t,
                    -1.1,
                    0.5,
                    la,
                    VLayout::Reversed,
                    VLayout::Step2,
                );
            }
        }
    });
}

#[test]
fn kern12_strmv_coldot4_against_openblas() {
    with_variant(Driver::Matvec, Variant::Experimental, || {
        for (k, &n) in [1usize, 3, 4, 5, 17, 64, 130, 600].iter().enumerate() {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                for t in [Transpose::No, Transpose::Yes] {
                    for diag in [Diag::NonUnit, Diag::Unit] {
                        for la in LAYOUTS {
                            crate::trmv::check_on(
                                ctx(),
                                k as u64,
                                n,
                                uplo,
                                t,
                                diag,
                                la,
                                VLayout::Unit,
                            );
                        }
                        crate::trmv::check_on(
                            ctx(),
                            k as u64 + 20,
                            n,
                            uplo,
                            t,
                            diag,
                            Layout::F,
                            VLayout::Step2,
                        );
                    }
                }
            }
        }
    });
}

/// strmv with Inf and NaN in x: x_j reaches only the rows whose triangle holds column j
/// (DESIGN.md §3: the other triangle is never used), on the Experimental kernels and the
/// default ones; the unreferenced triangle and a unit diagonal are NaN. Against the formula
/// in f32 on small integers.
#[test]
fn kern12_strmv_special_x_every_path() {
    for v in [Variant::Auto, Variant::Experimental] {
        with_variant(Driver::Matvec, v, || {
            let n = 13;
            let base = Array2::from_shape_fn((n, n), |(i, j)| ((i + 2 * j) % 5) as f32 - 2.0);
            for uplo in [Uplo::Lower, Uplo::Upper] {
                for t in [Transpose::No, Transpose::Yes] {
                    for diag in [Diag::NonUnit, Diag::Unit] {
                        // The referenced triangle of op(A): of A's `uplo`, transposed.
                        let keep = |i: usize, j: usize| match uplo {
                            Uplo::Lower => i >= j,
                            Uplo::Upper => i <= j,
                        };
                        let a = Array2::from_shape_fn((n, n), |(i, j)| {
                            if !keep(i, j) || (i == j && diag == Diag::Unit) {
                                NAN
                            } else {
                                base[[i, j]]
                            }
                        });
                        let mut fa = Array2::zeros((n, n).f());
                        fa.assign(&a);
                        for (p, special) in [(0usize, INF), (6, NAN), (12, -INF), (5, INF)] {
                            let mut x = ints(n, 1);
                            x[p] = special;
                            let want = Array1::from_shape_fn(n, |i| {
                                let mut s = 0.0f32;
                                for j in 0..n {
                                    let (r, c) = if t == Transpose::No { (i, j) } else { (j, i) };
                                    if !keep(r, c) {
                                        continue;
                                    }
                                    let aij = if r == c && diag == Diag::Unit {
                                        1.0
                                    } else {
                                        a[[r, c]]
                                    };
                                    s += aij * x[j];
                                }
                                s
                            });
                            for m in [&a, &fa] {
                                let mut z = x.clone();
                                blas::strmv(ctx(), uplo, t, diag, m, &mut z).unwrap();
                                let what = format!(
                                    "strmv {v:?} {uplo:?} {t:?} {diag:?} x[{p}] = {special} F {}",
                                    m.t().is_standard_layout()
                                );
                                assert_same(&z, &want, &what);
                            }
                        }
                    }
                }
            }
        });
    }
}

#[test]
fn kern12_rank_updates_lines_against_openblas() {
    with_variant(Driver::RankUpdate, Variant::Experimental, || {
        // Lines not a multiple of 4 (partial line blocks), one line, many.
        let shapes = [
            (4usize, 4usize),
            (12, 7),
            (7, 12),
            (1, 8),
            (8, 1),
            (64, 129),
            (129, 64),
        ];
        for (k, &(m, n)) in shapes.iter().enumerate() {
            for la in LAYOUTS {
                crate::ger::check_on(
                    ctx(),
                    k as u64,
                    (m, n),
                    0.7,
                    la,
                    VLayout::Unit,
                    VLayout::Unit,
                );
            }
            crate::ger::check_on(
                ctx(),
                k as u64 + 30,
                (m, n),
                -1.3,
                Layout::C,
                VLayout::Reversed,
                VLayout::Step2,
            );
        }
        for &n in &[4usize, 8, 12, 20, 68, 132] {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                for la in [Layout::C, Layout::F, Layout::Strided] {
                    crate::syr::check_on(ctx(), n as u64, n, uplo, 0.7, la, VLayout::Unit);
                    crate::syr2::check_on(
                        ctx(),
                        n as u64,
                        n,
                        uplo,
                        0.7,
                        la,
                        VLayout::Unit,
                        VLayout::Unit,
                    );
                }
            }
        }
    });
}
