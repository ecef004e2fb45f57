//! Special values (DESIGN.md §3) on the kernels added for issue 12 on 2026-12-01: sscal with x
//! bound alone (`scal_vec4`, `scal_one`: the default), and the lab's `Experimental` kernels,
//! ssymv on strips of tiles (`symv_strip`)
//! and the rank updates on the `vec4` kernel (the default) and the one-element kernel, at
//! sizes that reach their vec4 units, their tails and several strips. NaN and Inf propagate
//! through every product (no zero-skip), alpha = 0 reads neither A nor x, beta = 0 never reads
//! y, the other triangle (NaN) is never read nor written. The expected values are the §3
//! formula in f32 on small integers (every finite sum exact, so the order does not matter).

use ndarray::{s, Array1, Array2, ShapeBuilder};
use wgblas::lab::{Driver, Variant};
use wgblas::{blas, Uplo};

use crate::bandwidth::with_variant;
use crate::common::*;

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;
const SCALARS: [f32; 5] = [NAN, INF, 0.0, 1.0, -2.0];

/// Small integers in −2..=2, varied by `seed`.
fn ints(n: usize, seed: usize) -> Array1<f32> {
    Array1::from_shape_fn(n, |i| ((i * 7 + seed * 3) % 5) as f32 - 2.0)
}

#[test]
fn sscal_x_alone_every_alpha() {
    with_variant(Driver::Elementwise, Variant::Auto, || {
        // 11 elements: two vec4 units and a tail of 3.
        let mut x = ints(11, 1);
        x[1] = NAN;
        x[4] = INF;
        x[6] = -0.0;
        x[9] = -INF;
        for alpha in SCALARS {
            let want = x.mapv(|v| alpha * v);
            let mut z = x.clone();
            blas::sscal(ctx(), alpha, &mut z).unwrap();
            assert_same(&z, &want, &format!("sscal alpha {alpha}"));
            // Step 2: the elements between are not touched.
            let mut big = Array1::from_elem(22, 5.0f32);
            big.slice_mut(s![..;2]).assign(&x);
            blas::sscal(ctx(), alpha, big.slice_mut(s![..;2])).unwrap();
            assert_same(big.slice(s![..;2]), &want, &format!("sscal step 2 {alpha}"));
            assert!(big.slice(s![1..;2]).iter().all(|&v| v == 5.0));
        }
    });
}

#[test]
fn ssymv_strips_every_alpha_and_beta() {
    // n = 600: 10 block columns of 64, the first strips in two parts, a partial last tile.
    let n = 600;
    let mut xs = vec![ints(n, 2), ints(n, 3), ints(n, 4)];
    xs[1][70] = NAN;
    xs[2][599] = INF;
    let mut y0 = ints(n, 5);
    y0[3] = NAN;
    with_variant(Driver::Matvec, Variant::Experimental, || {
        ssymv_special(&xs, &y0, "strips")
    });
}

/// The `uplo` triangle of the symmetric `sym`, the other triangle NaN, in C and in F order.
pub(crate) fn stored_triangle(sym: &Array2<f32>, uplo: Uplo) -> (Array2<f32>, Array2<f32>) {
    let n = sym.nrows();
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
    (stored, fstored)
}

/// ssymv with each `x` of `xs` and `y0` (length n), both triangles (the other one NaN), C and
/// F order, every alpha and beta of the §3 rules (0, 1, -2, NaN), against the §3 formula in
/// f32 (`special_values::mv`) on A = ((i + j) mod 5) - 2.
pub(crate) fn ssymv_special(xs: &[Array1<f32>], y0: &Array1<f32>, tag: &str) {
    let n = y0.len();
    let sym = Array2::from_shape_fn((n, n), |(i, j)| ((i + j) % 5) as f32 - 2.0);
    for (k, x) in xs.iter().enumerate() {
        for uplo in [Uplo::Lower, Uplo::Upper] {
            let (stored, fstored) = stored_triangle(&sym, uplo);
            for (alpha, beta) in [
                (1.0, 0.0),
                (-2.0, 1.0),
                (0.0, 1.0),
                (0.0, -2.0),
                (NAN, 0.0),
                (1.0, NAN),
                // alpha multiplies the whole sum of a row: Inf·0 = NaN only where that sum is
                // 0 (a kernel that scales parts of a row separately gives NaN elsewhere too).
                (f32::INFINITY, 0.0),
            ] {
                let want = crate::special_values::mv(alpha, &sym, x, beta, y0);
                for a in [&stored, &fstored] {
                    let mut y = y0.clone();
                    blas::ssymv(ctx(), uplo, alpha, a, x, beta, &mut y).unwrap();
                    let what = format!(
                        "ssymv {tag} x{k} {uplo:?} alpha {alpha} beta {beta} F {}",
                        a.t().is_standard_layout()
                    );
                    assert_same(&y, &want, &what);
                }
            }
        }
    }
}

/// `A + x_i·(alpha·y_j)` (+ `y_i·(alpha·x_j)` where `two`) on the elements `keep(i, j)`, the
/// others kept; alpha = 0 leaves A as it is.
fn update_model(
    alpha: f32,
    a: &Array2<f32>,
    x: &Array1<f32>,
    y: &Array1<f32>,
    two: bool,
    keep: impl Fn(usize, usize) -> bool,
) -> Array2<f32> {
    Array2::from_shape_fn(a.dim(), |(i, j)| {
        if alpha == 0.0 || !keep(i, j) {
            return a[[i, j]];
        }
        let mut r = a[[i, j]] + x[i] * (alpha * y[j]);
        if two {
            r += y[i] * (alpha * x[j]);
        }
        r
    })
}

#[test]
fn rank_updates_every_alpha_no_zero_skip() {
    let kernels = [
        (Variant::Auto, "main_rows"),
        (Variant::Legacy, "vec4"),
        (Variant::Scalar, "one-element"),
        (Variant::Experimental, "main_pre pairs"),
    ];
    for (variant, tag) in kernels {
        with_variant(Driver::RankUpdate, variant, || rank_update_specials(tag));
    }
    // `main_pre`, and `main_rows` with each line count (its default takes 8 for ssyr, 2 else).
    for (rows, tag) in [
        (1, "main_pre"),
        (2, "main_rows 2"),
        (4, "main_rows 4"),
        (8, "main_rows 8"),
    ] {
        crate::bandwidth::with_rank_rows(rows, || rank_update_specials(tag));
    }
}

/// sger (6×8 and 8×6), ssyr and ssyr2 (n = 12, both triangles, the other one NaN) in C and F
/// order with NaN and Inf in x and y against zeros in the other vector, every alpha of
/// `SCALARS`, against the §3 formula in f32 (`update_model`), on the kernel now in force.
pub(crate) fn rank_update_specials(tag: &str) {
    // NaN in x against a zero in y, Inf in y against a zero in x.
    let special = |n: usize, seed: usize, nan: usize, inf: usize| {
        let mut v = ints(n, seed);
        v[nan] = NAN;
        v[inf] = INF;
        v
    };
    for alpha in SCALARS {
        // sger, 6×8 and 8×6 (C: 6 lines of 8, a partial block of lines; F: 6 columns of 8).
        for (m, n) in [(6usize, 8usize), (8, 6)] {
            let x = special(m, 1, 1, 4);
            let y = special(n, 2, 5, 0);
            let a0 = Array2::from_shape_fn((m, n), |(i, j)| ((i * 3 + j) % 5) as f32 - 2.0);
            let want = update_model(alpha, &a0, &x, &y, false, |_, _| true);
            let mut fa = Array2::zeros((m, n).f());
            fa.assign(&a0);
            for mut a in [a0.clone(), fa] {
                blas::sger(ctx(), alpha, &x, &y, &mut a).unwrap();
                assert_same(&a, &want, &format!("sger {tag} {m}x{n} alpha {alpha}"));
            }
        }
        // ssyr and ssyr2, n = 12 (3 line blocks), the other triangle NaN.
        let n = 12;
        let x = special(n, 3, 2, 7);
        let y = special(n, 4, 9, 2);
        for uplo in [Uplo::Lower, Uplo::Upper] {
            let keep = move |i: usize, j: usize| match uplo {
                Uplo::Lower => i >= j,
                Uplo::Upper => i <= j,
            };
            let a0 = Array2::from_shape_fn((n, n), |(i, j)| {
                if keep(i, j) {
                    ((i + 2 * j) % 5) as f32 - 2.0
                } else {
                    NAN
                }
            });
            let mut fa = Array2::zeros((n, n).f());
            fa.assign(&a0);
            let want1 = update_model(alpha, &a0, &x, &x, false, keep);
            let want2 = update_model(alpha, &a0, &x, &y, true, keep);
            for a in [&a0, &fa] {
                let mut a1 = a.clone();
                blas::ssyr(ctx(), uplo, alpha, &x, &mut a1).unwrap();
                assert_same(&a1, &want1, &format!("ssyr {tag} {uplo:?} alpha {alpha}"));
                let mut a2 = a.clone();
                blas::ssyr2(ctx(), uplo, alpha, &x, &y, &mut a2).unwrap();
                assert_same(&a2, &want2, &format!("ssyr2 {tag} {uplo:?} alpha {alpha}"));
            }
        }
    }
}
