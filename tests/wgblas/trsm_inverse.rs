//! strsm and dtrsm on inverted diagonal blocks (`Tuning::trsm_inverse`: the diagonal blocks of
//! 64 rows inverted by one dispatch, each leaf a product with its inverse), in each leaf form
//! of `Tuning::trsm_leaf` (`TrsmLeaf::Engine`: a tile-engine product; `Fused`: one dispatch;
//! `Refined`: one dispatch with one step of iterative refinement, the default), pinned by the
//! tuning override (thread-local), against strsm's backward-residual threshold of
//! `metrics::spec` (the description `trsm::Trsm`), and the special-value rules of DESIGN.md §3
//! beside the 32-row block solves.

use ndarray::Array2;
use wgblas::tuning::{set_tuning, TrsmLeaf, Tuning};
use wgblas::{blas, Uplo};

use crate::common::*;
use crate::describe::{self, Routine};
use crate::level3_common::*;
use crate::scale_level3::trsm_factor;
use crate::trsm::{block_cases, operand, Trsm};
use wgblas::{
    Diag::{NonUnit, Unit},
    Side::Left,
    Transpose::No,
    Uplo::{Lower, Upper},
};

/// A solve form: the leaf form on inverted blocks (`None`: the 32-row block solves), and
/// whether the block solves are row-parallel (`Tuning::trsm_rows` 32, the default) or per
/// column (0).
type Form = (Option<TrsmLeaf>, bool);

/// The solve forms: the 32-row block solves (one invocation per right-hand side, and
/// row-parallel), and the leaf forms on inverted blocks.
const FORMS: [Form; 5] = [
    (None, false),
    (None, true),
    (Some(TrsmLeaf::Engine), false),
    (Some(TrsmLeaf::Fused), false),
    (Some(TrsmLeaf::Refined), false),
];

/// Pin a solve form on this thread.
fn pin((leaf, rows): Form) {
    set_tuning(Some(Tuning {
        trsm_inverse: Some(leaf.is_some()),
        trsm_leaf: leaf,
        trsm_rows: Some(if rows { 32 } else { 0 }),
        ..Tuning::default()
    }));
}

/// Orders across the 64-row blocks (1 to 4 leaves, with engine updates; 33, 65 and 130 not
/// multiples of 64) and one or more right-hand sides.
const ORDERS: [(usize, usize); 5] = [(33, 1), (64, 5), (65, 16), (130, 70), (200, 33)];

/// The refined leaves (the default leaf form): every edge of the description (the netlib
/// values and the block orders 31, 33, 65, 129, well and ill conditioned, every flag, every
/// layout) in f32 and in f64 — among them dtrsm's order 33, upper, transposed, unit diagonal,
/// whose unrefined leaf read a factor of 21.8 on the H200 (session 7) — and [`ORDERS`], both
/// sides, every flag, well and ill conditioned, in f32 and f64.
#[test]
fn edge_refined_leaves_every_edge_f32_and_f64() {
    pin((Some(TrsmLeaf::Refined), false));
    for c in &Trsm::edges() {
        describe::check::<Trsm, f32>(c);
        describe::check::<Trsm, f64>(c);
    }
    for c in block_cases(7, &ORDERS, [Layout::F, Layout::C]) {
        describe::check::<Trsm, f32>(&c);
        describe::check::<Trsm, f64>(&c);
    }
    set_tuning(None);
}

/// The unrefined leaf forms (the tile-engine product, and the fused dispatch without
/// refinement): every edge of the description in f32 and [`ORDERS`] in f32 and f64, both
/// sides, every flag, well and ill conditioned.
#[test]
fn edge_engine_and_fused_leaves() {
    for form in [TrsmLeaf::Engine, TrsmLeaf::Fused] {
        pin((Some(form), false));
        for c in &Trsm::edges() {
            describe::check::<Trsm, f32>(c);
        }
        for c in block_cases(8, &ORDERS, [Layout::C, Layout::F]) {
            describe::check::<Trsm, f32>(&c);
            describe::check::<Trsm, f64>(&c);
        }
    }
    set_tuning(None);
}

/// Whether row `i` is solved at or after row `r` (lower: from the top; upper: from the bottom).
fn reached(uplo: Uplo, i: usize, r: usize) -> bool {
    if uplo == Lower {
        i >= r
    } else {
        i <= r
    }
}

/// Left solve of order 150 (leaves of 64, 64 and 22 rows; blocks of 32 for the block solves)
/// with 3 right-hand sides, in each form: a NaN in B reaches exactly the rows the substitution
/// reaches (those solved after its row, in its column), an Inf in B makes exactly those rows
/// non-finite; a NaN alpha makes every element NaN; an infinite alpha makes every element
/// non-finite and, where B holds a 0 (alpha·0 = NaN), NaN in the rows reached from there; alpha
/// = 0 gives 0 without reading A or B (NaN in both).
#[test]
fn edge_special_values_in_b_and_alpha_every_form() {
    let order = 150;
    for form in FORMS {
        pin(form);
        for uplo in UPLOS {
            let mut r = rng(11);
            let a = operand(&mut r, order, uplo, NonUnit, false);
            let b0 = rand_mat(&mut r, order, 3);
            let solve = |alpha: f32, b: &mut Array2<f32>, a: &Array2<f32>| {
                blas::strsm(ctx(), Left, uplo, No, NonUnit, alpha, a, b).unwrap();
            };
            for special in [f32::NAN, f32::INFINITY] {
                let mut b = b0.clone();
                b[[70, 1]] = special;
                solve(1.0, &mut b, &a);
                for ((i, j), v) in b.indexed_iter() {
                    let hit = j == 1 && reached(uplo, i, 70);
                    let what = format!("{form:?} {uplo:?} B[70, 1] = {special}: X[{i}, {j}] = {v}");
                    if special.is_nan() {
                        assert_eq!(v.is_nan(), hit, "{what}");
                    } else {
                        assert_eq!(!v.is_finite(), hit, "{what}");
                    }
                }
            }
            let mut b = b0.clone();
            solve(f32::NAN, &mut b, &a);
            assert!(b.iter().all(|v| v.is_nan()), "{form:?}: NaN alpha");
            let mut b = b0.clone();
            b[[70, 1]] = 0.0;
            solve(f32::INFINITY, &mut b, &a);
            for ((i, j), v) in b.indexed_iter() {
                let what =
                    format!("{form:?} {uplo:?} alpha = Inf, B[70, 1] = 0: X[{i}, {j}] = {v}");
                assert!(!v.is_finite(), "{what}");
                if j == 1 && reached(uplo, i, 70) {
                    assert!(v.is_nan(), "{what}");
                }
            }
            let mut b = Array2::from_elem((order, 3), f32::NAN);
            solve(0.0, &mut b, &Array2::from_elem((order, order), f32::NAN));
            assert!(b.iter().all(|&v| v == 0.0), "{form:?}: alpha = 0");
        }
    }
    set_tuning(None);
}

/// Left solve of order 150 in each form, every triangle and diagonal: Inf, −Inf and NaN in the
/// triangle of A that is not referenced (and on a unit diagonal) never reach X, whose backward
/// residual factor against the referenced triangle stays within strsm's threshold
/// (`metrics::spec`); an Inf in the referenced triangle at (i, k) makes every element of the
/// rows solved from row i on non-finite and leaves the rows solved before it finite, whether
/// (i, k) lies in a diagonal block or in an off-diagonal one.
#[test]
fn edge_inf_and_nan_in_a_every_form() {
    let order = 150;
    let specials = [f32::INFINITY, f32::NEG_INFINITY, f32::NAN];
    for form in FORMS {
        pin(form);
        for uplo in UPLOS {
            for diag in DIAGS {
                let mut r = rng(12);
                let clean = operand(&mut r, order, uplo, diag, false);
                let b = rand_mat(&mut r, order, 5);
                let mut a = clean.clone();
                for ((i, j), v) in a.indexed_iter_mut() {
                    let unread = !in_triangle(uplo, i, j) || (i == j && diag == Unit);
                    if unread {
                        *v = specials[(i + 2 * j) % 3];
                    }
                }
                let mut x = b.clone();
                blas::strsm(ctx(), Left, uplo, No, diag, 1.0, &a, &mut x).unwrap();
                let f = trsm_factor((Left, uplo, No, diag), 1.0f32, &a, &x, &b);
                let what = format!("{form:?} {uplo:?} {diag:?}: Inf and NaN unreferenced");
                describe::passes("strsm", f, &what);
                // (row, column) of the Inf: in the diagonal block of rows 64..128, and in the
                // off-diagonal block of rows 64..128 and columns 0..64 (mirrored for upper).
                let at: [(usize, usize); 2] = match uplo {
                    Lower => [(100, 80), (100, 10)],
                    Upper => [(40, 60), (40, 130)],
                };
                for (i0, k0) in at {
                    let mut a = a.clone();
                    a[[i0, k0]] = f32::INFINITY;
                    let mut x = b.clone();
                    blas::strsm(ctx(), Left, uplo, No, diag, 1.0, &a, &mut x).unwrap();
                    for ((i, j), v) in x.indexed_iter() {
                        let what = format!(
                            "{form:?} {uplo:?} {diag:?} A[{i0}, {k0}] = Inf: X[{i}, {j}] = {v}"
                        );
                        assert_eq!(!v.is_finite(), reached(uplo, i, i0), "{what}");
                    }
                }
            }
        }
    }
    set_tuning(None);
}

/// dtrsm on the row-parallel block solves, left solve of order 150 with 3 right-hand sides,
/// every triangle and diagonal: a NaN in B reaches exactly the rows the substitution
/// reaches, an Inf in B makes exactly those rows non-finite; a NaN alpha makes every element
/// NaN; an infinite alpha with a 0 in B gives NaN in the rows reached from it and non-finite
/// values everywhere; alpha = 0 gives 0 reading neither A nor B (NaN in both); an Inf in the
/// referenced triangle at (i, k) makes exactly the rows solved from row i on non-finite, and
/// Inf and NaN in the triangle not referenced (and on a unit diagonal) never reach X.
#[test]
fn edge_row_parallel_special_values_f64() {
    let order = 150;
    let form: Form = (None, true);
    pin(form);
    for uplo in UPLOS {
        for diag in DIAGS {
            let mut r = rng(13);
            let a = operand(&mut r, order, uplo, diag, false).mapv(f64::from);
            let b0 = rand_mat(&mut r, order, 3).mapv(f64::from);
            let solve = |alpha: f64, b: &mut Array2<f64>, a: &Array2<f64>| {
                blas::dtrsm(ctx(), Left, uplo, No, diag, alpha, a.view(), b.view_mut()).unwrap();
            };
            let what = |s: &str| format!("{form:?} {uplo:?} {diag:?} {s}");
            for special in [f64::NAN, f64::INFINITY] {
                let mut b = b0.clone();
                b[[70, 1]] = special;
                solve(1.0, &mut b, &a);
                for ((i, j), v) in b.indexed_iter() {
                    let hit = j == 1 && reached(uplo, i, 70);
                    let w = what(&format!("B[70, 1] = {special}: X[{i}, {j}] = {v}"));
                    if special.is_nan() {
                        assert_eq!(v.is_nan(), hit, "{w}");
                    } else {
                        assert_eq!(!v.is_finite(), hit, "{w}");
                    }
                }
            }
            let mut b = b0.clone();
            solve(f64::NAN, &mut b, &a);
            assert!(b.iter().all(|v| v.is_nan()), "{}", what("NaN alpha"));
            let mut b = b0.clone();
            b[[70, 1]] = 0.0;
            solve(f64::INFINITY, &mut b, &a);
            for ((i, j), v) in b.indexed_iter() {
                let w = what(&format!("alpha = Inf, B[70, 1] = 0: X[{i}, {j}] = {v}"));
                assert!(!v.is_finite(), "{w}");
                if j == 1 && reached(uplo, i, 70) {
                    assert!(v.is_nan(), "{w}");
                }
            }
            let mut b = Array2::from_elem((order, 3), f64::NAN);
            solve(0.0, &mut b, &Array2::from_elem((order, order), f64::NAN));
            assert!(b.iter().all(|&v| v == 0.0), "{}", what("alpha = 0"));
            // The unreferenced triangle (and a unit diagonal) full of Inf and NaN.
            let specials = [f64::INFINITY, f64::NEG_INFINITY, f64::NAN];
            let mut a = a.clone();
            for ((i, j), v) in a.indexed_iter_mut() {
                if !in_triangle(uplo, i, j) || (i == j && diag == Unit) {
                    *v = specials[(i + 2 * j) % 3];
                }
            }
            let mut x = b0.clone();
            solve(1.0, &mut x, &a);
            let f = trsm_factor((Left, uplo, No, diag), 1.0f64, &a, &x, &b0);
            describe::passes("strsm", f, &what("Inf and NaN unreferenced"));
            let at: [(usize, usize); 2] = match uplo {
                Lower => [(100, 80), (100, 10)],
                Upper => [(40, 60), (40, 130)],
            };
            for (i0, k0) in at {
                let mut a = a.clone();
                a[[i0, k0]] = f64::INFINITY;
                let mut x = b0.clone();
                solve(1.0, &mut x, &a);
                for ((i, j), v) in x.indexed_iter() {
                    let w = what(&format!("A[{i0}, {k0}] = Inf: X[{i}, {j}] = {v}"));
                    assert_eq!(!v.is_finite(), reached(uplo, i, i0), "{w}");
                }
            }
        }
    }
    set_tuning(None);
}

/// The row-parallel block solve (8 right-hand sides per workgroup) on 524,296 right-hand
/// sides: 65,537 workgroups per dispatch, past the 65,535 of one grid dimension. Upper
/// unit-diagonal [[1, 1], [0, 1]] (NaN on the diagonal and below, never read), B of ones:
/// X = [[0, ...], [1, ...]] exactly, in every column.
#[test]
fn row_parallel_solve_past_65535_workgroups() {
    let a = Array2::from_shape_vec((2, 2), vec![f32::NAN, 1.0, f32::NAN, f32::NAN]).unwrap();
    let (form, per_group): (Form, usize) = ((None, true), 8);
    pin(form);
    let n = per_group * 65_537;
    let mut b = Array2::<f32>::ones((2, n));
    blas::strsm(ctx(), Left, Upper, No, Unit, 1.0, &a, &mut b).unwrap();
    set_tuning(None);
    let want = Array2::from_shape_fn((2, n), |(i, _)| i as f32);
    assert!(b == want, "{form:?}: X differs from [[0, ...], [1, ...]]");
}
