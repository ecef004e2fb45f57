//! The lab's `Experimental` Level 2 kernels of issue 12, round 2 (branch kern12), pinned
//! against OpenBLAS with the DESIGN.md §2 metric (`metrics::spec` through the descriptions'
//! `check_on`) and against hand-computed special values (DESIGN.md §3):
//! - ssymv in two passes of the wide kernels (the default since the H200 run
//!   `benches/results/2026-12-01-s6/q2`: the stored triangle, then the transposed strict
//!   triangle, one `gemv_finish`) and on `symv_lines` (128×128 tiles in registers; lab
//!   `Experimental`): one tile, partial tiles, several tiles with diagonal and off-diagonal
//!   ones, each triangle, C, F, strided and reversed storage (vec4 and element paths), vectors
//!   with steps; NaN in the other triangle.
//! - sgemv and strmv on `gemv_coldot4` (4 columns in flight per invocation): op(A) with
//!   contiguous columns (No-trans F, Trans C), column chunks, tall-skinny, every uplo, trans
//!   and diag; Inf and NaN in x outside a row's triangle must not reach that row.
//! - sger, ssyr, ssyr2: the exact sum rounded once, bit for bit, on the `vec4` kernel and the
//!   one-element kernel.

use ndarray::{Array1, Array2, ShapeBuilder};
use wgblas::lab::{Driver, Variant};
use wgblas::{blas, Diag, Transpose, Uplo};

use crate::bandwidth::with_variant;
use crate::common::*;

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;

/// Small integers in −2..=2, varied by `seed` (every finite sum of the tests exact).
fn ints(n: usize, seed: usize) -> Array1<f32> {
    Array1::from_shape_fn(n, |i| ((i * 7 + seed * 3) % 5) as f32 - 2.0)
}

/// The ssymv kernels of rounds 2 and 3: the two passes (`Auto`, the default) and `symv_lines`
/// (`Experimental`).
const SYMV_ROUND2: [(Variant, &str); 2] = [
    (Variant::Auto, "two passes"),
    (Variant::Experimental, "lines"),
];

#[test]
fn kern12_ssymv_lines_against_openblas() {
    for (v, _) in SYMV_ROUND2 {
        with_variant(Driver::Matvec, v, || {
            // 128-tiles: one partial, one whole, whole + 1, several with a partial last.
            crate::symv::sweep(&[1, 5, 127, 128, 129, 300, 520]);
        });
    }
}

/// ssymv on `symv_lines` at n = 300 (3 tile rows, the last partial): NaN and Inf in x in a
/// diagonal tile and in an off-diagonal one, alpha = 0 (A and x not read), beta = 0 (a NaN y
/// not read), NaN alpha and beta; the other triangle NaN; against the §3 formula in f32.
#[test]
fn kern12_ssymv_lines_special_values() {
    let n = 300;
    let mut xs = vec![ints(n, 2), ints(n, 3), ints(n, 4)];
    xs[1][5] = NAN; // first tile
    xs[2][200] = INF; // second tile row
    xs[2][299] = -INF; // last, partial tile
    let mut y0 = ints(n, 5);
    y0[130] = NAN;
    for (v, tag) in SYMV_ROUND2 {
        with_variant(Driver::Matvec, v, || {
            crate::kern_special::ssymv_special(&xs, &y0, tag)
        });
    }
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

/// One f64 case of the description `R` on the shared context.
fn check64<R: crate::describe::Routine>(case: crate::describe::Case) {
    crate::describe::check_on::<R, f64>(ctx(), &case);
}

/// dgemv, dsymv and dtrmv on the wide kernels in f64 (lab `Experimental` on `Matvec`: the
/// matrix-vector driver with `alias T = f64;` and the scalars from an f64 buffer, in place of
/// the tile engine): every storage order, trans, uplo and diag, partial tiles and units, column
/// chunks, vectors with steps; NaN in the other triangle (the descriptions' operands).
#[test]
fn kern12_f64_products_on_the_wide_kernels_against_openblas() {
    use crate::describe::Case;
    if !ctx().native_f64() {
        panic!("the adapter has no SHADER_F64: the f64 kernels are not tested");
    }
    with_variant(Driver::Matvec, Variant::Experimental, || {
        for (k, &(m, n)) in [(1usize, 1usize), (5, 3), (130, 67), (67, 130), (600, 2000)]
            .iter()
            .enumerate()
        {
            for t in [Transpose::No, Transpose::Yes] {
                for la in LAYOUTS {
                    for (alpha, beta) in [(1.0, 0.0), (0.7, 0.9)] {
                        let case = Case::new(k as u64, m, n)
                            .flags(Uplo::Upper, t, Diag::NonUnit)
                            .scalars(alpha, beta)
                            .layouts(la, VLayout::Unit, VLayout::Unit);
                        check64::<crate::gemv::Gemv>(case);
                    }
                }
                let case = Case::new(k as u64 + 7, m, n)
                    .flags(Uplo::Upper, t, Diag::NonUnit)
                    .scalars(-1.3, 0.5)
                    .layouts(Layout::F, VLayout::Reversed, VLayout::Step2);
                check64::<crate::gemv::Gemv>(case);
            }
        }
        for (k, &n) in [1usize, 5, 127, 129, 300].iter().enumerate() {
            for uplo in [Uplo::Lower, Uplo::Upper] {
                for la in LAYOUTS {
                    for (alpha, beta) in [(1.0, 0.0), (0.7, 0.9)] {
                        let case = Case::new(k as u64, n, n)
                            .flags(uplo, Transpose::No, Diag::NonUnit)
                            .scalars(alpha, beta)
                            .layouts(la, VLayout::Unit, VLayout::Unit);
                        check64::<crate::symv::Symv>(case);
                    }
                    for t in [Transpose::No, Transpose::Yes] {
                        for diag in [Diag::NonUnit, Diag::Unit] {
                            let case = Case::new(k as u64 + 3, n, n).flags(uplo, t, diag).layouts(
                                la,
                                VLayout::Unit,
                                VLayout::Unit,
                            );
                            check64::<crate::trmv::Trmv>(case);
                        }
                    }
                }
            }
        }
    });
}

/// dgemv and dsymv on the wide kernels with alpha and beta as host values and as device
/// scalars (`GpuScalar<f64>` from `resident::ddot`): alpha = 0 reads neither A nor x (NaN
/// there), beta = 0 never reads y (NaN), beta = 1 with alpha = 0 leaves y as it is, NaN alpha
/// and beta are not 0, and a value past f32's range (1e300) is used in f64. 3×3 operands of
/// small integers: every result exact.
#[test]
fn kern12_f64_products_host_and_device_scalars() {
    use wgblas::layout::Scalar;
    if !ctx().native_f64() {
        panic!("the adapter has no SHADER_F64: the f64 kernels are not tested");
    }
    let dev =
        |v: f64| wgblas::resident::ddot(ctx(), &ndarray::array![v], &ndarray::array![1.0]).unwrap();
    with_variant(Driver::Matvec, Variant::Experimental, || {
        let a = ndarray::array![[1.0f64, 2.0, 0.0], [2.0, -1.0, 3.0], [0.0, 3.0, 2.0]];
        let x = ndarray::array![1.0f64, -2.0, 1.0];
        let y0 = ndarray::array![1.0f64, 2.0, -1.0];
        let ax = a.dot(&x);
        let nan = f64::NAN;
        let cases: Vec<(f64, f64, bool, bool)> = vec![
            // (alpha, beta, A and x NaN, y NaN)
            (2.0, 0.5, false, false),
            (1e300, 0.0, false, true),
            (0.0, 1.0, true, false),
            (0.0, -3.0, true, false),
            (0.0, 0.0, true, true),
            (nan, 1.0, false, false),
            (1.0, nan, false, false),
        ];
        for (alpha, beta, nan_ax, nan_y) in cases {
            let (am, xm) = if nan_ax {
                (a.mapv(|_| nan), x.mapv(|_| nan))
            } else {
                (a.clone(), x.clone())
            };
            let y_in = if nan_y { y0.mapv(|_| nan) } else { y0.clone() };
            let want = ndarray::Array1::from_shape_fn(3, |i| {
                if alpha == 0.0 && beta == 1.0 {
                    return y_in[i];
                }
                let p = if alpha == 0.0 { 0.0 } else { alpha * ax[i] };
                let q = if beta == 0.0 { 0.0 } else { beta * y_in[i] };
                p + q
            });
            let kept = [dev(alpha), dev(beta)];
            for form in ["host", "device"] {
                let (sa, sb): (Scalar<'_, f64>, Scalar<'_, f64>) = if form == "host" {
                    (Scalar::Host(alpha), Scalar::Host(beta))
                } else {
                    ((&kept[0]).into(), (&kept[1]).into())
                };
                let mut y = y_in.clone();
                blas::dgemv(
                    ctx(),
                    Transpose::No,
                    sa,
                    am.view(),
                    xm.view(),
                    sb,
                    y.view_mut(),
                )
                .unwrap();
                let mut ys = y_in.clone();
                blas::dsymv(
                    ctx(),
                    Uplo::Lower,
                    sa,
                    am.view(),
                    xm.view(),
                    sb,
                    ys.view_mut(),
                )
                .unwrap();
                for (name, got) in [("dgemv", &y), ("dsymv", &ys)] {
                    let ok = got
                        .iter()
                        .zip(&want)
                        .all(|(g, w)| g == w || g.is_nan() && w.is_nan());
                    assert!(
                        ok,
                        "{name} alpha {alpha} beta {beta} ({form}): got {got:?}, want {want:?}"
                    );
                }
            }
        }
    });
}

/// The rank updates' rule: the exact sum rounded once. With x_i = y_j = 1 + 2^-23, alpha = 1
/// and A_ij = -(1 + 2^-22) the exact result is 2^-46, where the plain formula in f32 gives 0
/// (x·y = 1 + 2^-22 + 2^-46 rounds to 1 + 2^-22 first); a tie (A = 1, x·alpha·y = 3·2^-24)
/// rounds to even, 1 + 2^-22. The `vec4` kernel (the default), the one-element kernel
/// (`Scalar`) and the tile kernel (`Experimental`), bit for bit (checked to fail with the plain
/// formula).
#[test]
fn kern12_rank_updates_exact_sum_rounded_once() {
    let (m, n) = (8usize, 12usize);
    let u = 1.0 + 2f32.powi(-23);
    let cases = [
        (-(1.0 + 2f32.powi(-22)), u, 1.0f32, u, 2f32.powi(-46)),
        (1.0, 3.0, 2f32.powi(-24), 1.0, 1.0 + 2f32.powi(-22)),
    ];
    let kernels = [
        (Driver::RankUpdate, Variant::Auto),
        (Driver::RankUpdate, Variant::Legacy),
        (Driver::RankUpdate, Variant::Scalar),
        (Driver::RankUpdate, Variant::Experimental),
    ];
    for (driver, variant) in kernels {
        with_variant(driver, variant, || {
            for (k, &(a, xv, alpha, yv, want)) in cases.iter().enumerate() {
                let mut am = Array2::from_elem((m, n), a);
                let (x, y) = (Array1::from_elem(m, xv), Array1::from_elem(n, yv));
                blas::sger(ctx(), alpha, &x, &y, &mut am).unwrap();
                assert!(
                    am.iter().all(|v| v.to_bits() == want.to_bits()),
                    "sger {driver:?} {variant:?} case {k}: {am:?}, want {want:e}"
                );
                let mut s = Array2::from_elem((m, m), a);
                blas::ssyr2(ctx(), Uplo::Lower, alpha, &x, &x, &mut s).unwrap();
                let two =
                    (f64::from(a) + 2.0 * f64::from(xv) * f64::from(alpha) * f64::from(xv)) as f32;
                for ((r, c), v) in s.indexed_iter() {
                    let w = if r >= c { two } else { a };
                    assert_eq!(
                        v.to_bits(),
                        w.to_bits(),
                        "ssyr2 {driver:?} {variant:?} case {k} ({r}, {c})"
                    );
                }
            }
        });
    }
}
