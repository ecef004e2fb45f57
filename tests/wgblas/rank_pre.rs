//! The rank updates' kernels that form each index's exact factors once: `main_rows` (the
//! default, `Auto` on [`Driver::RankUpdate`]: 2 or 8 lines of vec4 units per invocation) and
//! `main_pre` (`pre_factors` then `main_pre` in `wgsl/level2/rank_update.wgsl`, lab
//! `set_rank_rows(1)`, and with two units per invocation, `Experimental`): against OpenBLAS
//! with the routines' DESIGN.md §2 metric at sizes of several workgroups with partial ones, bit
//! for bit against the `vec4` kernel that forms the factors for every element (`Legacy`: all
//! round the exact sum once) and against each other, under device alphas as under host ones,
//! and on a grid past 65,535 workgroups. Their special values (NaN, Inf, every alpha) are in
//! `kern_special.rs`, the exact rounding in `kern12_level2.rs`, blocks past one binding in
//! `scale.rs`.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use ndarray::{s, Array1, Array2, ArrayViewMut2, ShapeBuilder};
use rand::rngs::StdRng;
use rand::SeedableRng;
use wgblas::lab::{self, Driver, Variant};
use wgblas::layout::Scalar;
use wgblas::{blas, Uplo};

use crate::bandwidth::{lab_defaults, rank_cases, with_rank_rows, with_variant};
use crate::common::*;

/// sger at shapes of several workgroups with a partial last one (both ways, every layout: C,
/// F, strided, rows reversed), one line, one vec4 unit per line; ssyr and ssyr2 at n = 4, 64,
/// 260 and 292, both triangles, C, F and rows reversed (a negative line stride): against
/// OpenBLAS (`metrics::spec` through `check_on`).
#[test]
fn rank_pre_against_openblas() {
    let shapes = [(300, 264), (264, 300), (37, 516), (1, 1028), (70, 4)];
    let extra = (-0.7, Layout::Reversed, VLayout::Step2, VLayout::Reversed);
    let layouts = [Layout::C, Layout::F, Layout::Reversed];
    for v in PRE {
        with_variant(Driver::RankUpdate, v, || {
            rank_cases(&shapes, extra, &[4, 64, 260, 292], &layouts)
        });
    }
    // `main_pre` with one unit per invocation (the default is `main_rows`).
    with_rank_rows(1, || {
        rank_cases(&shapes, extra, &[4, 64, 260, 292], &layouts)
    });
}

/// The default kernel (`main_rows`) and `main_pre` with two units per invocation.
const PRE: [Variant; 2] = [Variant::Auto, Variant::Experimental];

/// `f` with the rank updates' switch at `v`, back to `Auto` after (the caller holds the lab).
fn on<R>(v: Variant, f: impl FnOnce() -> R) -> R {
    lab::set(Driver::RankUpdate, v);
    let r = catch_unwind(AssertUnwindSafe(f));
    lab::set(Driver::RankUpdate, Variant::Auto);
    r.unwrap_or_else(|e| resume_unwind(e))
}

/// Whether `a` and `b` hold the same bits.
fn bits_equal(a: &Array2<f32>, b: &Array2<f32>) -> bool {
    a.iter().zip(b).all(|(p, q)| p.to_bits() == q.to_bits())
}

/// The results of `update` on a copy of `a0` in C order, in F order (a transposed view of a
/// C-order array) and with its rows reversed (a negative row stride).
fn each_layout(a0: &Array2<f32>, update: impl Fn(ArrayViewMut2<f32>)) -> Vec<Array2<f32>> {
    let mut c = a0.clone();
    update(c.view_mut());
    let mut t = a0.t().as_standard_layout().into_owned();
    update(t.view_mut().reversed_axes());
    let mut r = a0.slice(s![..;-1, ..]).to_owned();
    update(r.slice_mut(s![..;-1, ..]));
    vec![c, t.t().to_owned(), r.slice(s![..;-1, ..]).to_owned()]
}

/// sger (300×264), ssyr and ssyr2 (n = 292, both triangles) in C order, F order and rows
/// reversed: `main_pre` gives the `vec4` kernel's bits, and leaves the other triangle's
/// (finite) values as they were.
#[test]
fn rank_pre_bits_equal_vec4() {
    let _lab = lab_defaults();
    let mut rng = StdRng::seed_from_u64(41);
    let (m, n) = (300, 264);
    let (x, y, a0) = (
        rand_vec(&mut rng, m),
        rand_vec(&mut rng, n),
        rand_mat(&mut rng, m, n),
    );
    let ger = |v| {
        on(v, || {
            each_layout(&a0, |a| blas::sger(ctx(), 0.7, &x, &y, a).unwrap())
        })
    };
    let old = ger(Variant::Legacy);
    for (k, (o, t)) in PRE.iter().flat_map(|&v| old.iter().zip(ger(v))).enumerate() {
        assert!(
            bits_equal(o, &t),
            "sger case {k}: main_pre differs from vec4"
        );
    }
    let n = 292;
    let (x, y) = (rand_vec(&mut rng, n), rand_vec(&mut rng, n));
    for uplo in [Uplo::Lower, Uplo::Upper] {
        // Finite values in the other triangle too: none of them may change.
        let s0 = rand_mat(&mut rng, n, n);
        let inside = |i: usize, j: usize| if uplo == Uplo::Lower { i >= j } else { i <= j };
        let syr = |v| {
            on(v, || {
                let one = each_layout(&s0, |a| blas::ssyr(ctx(), uplo, -1.3, &x, a).unwrap());
                let two = each_layout(&s0, |a| blas::ssyr2(ctx(), uplo, 0.7, &x, &y, a).unwrap());
                [one, two]
            })
        };
        let old = syr(Variant::Legacy);
        let pairs = PRE.map(|v| {
            ["ssyr", "ssyr2"]
                .into_iter()
                .zip(old.clone().into_iter().zip(syr(v)))
        });
        for (name, (o, t)) in pairs.into_iter().flatten() {
            for (k, (o, t)) in o.iter().zip(&t).enumerate() {
                assert!(
                    bits_equal(o, t),
                    "{name} {uplo:?} layout {k}: main_pre differs"
                );
                let kept = t
                    .indexed_iter()
                    .all(|((i, j), v)| inside(i, j) || v.to_bits() == s0[(i, j)].to_bits());
                assert!(
                    kept,
                    "{name} {uplo:?} layout {k}: the other triangle changed"
                );
            }
        }
    }
}

/// `main_rows` (`lab::set_rank_rows`: 2, 4 and 8 lines per invocation, one dispatch with no
/// scratch) gives `main_pre`'s bits on sger (300×264 and 264×300: lines not a multiple of the
/// rows, units per line not a multiple of the workgroup; 4×1028: one line block), ssyr and
/// ssyr2 (n = 292 and 1028, both triangles), in C order, F order and rows reversed, with a host
/// alpha and a device one, on all tiles and on the triangle's only (`lab::set_rank_tri`), and
/// leaves the other triangle's (finite) values as they were.
#[test]
fn rank_rows_bits_equal_pre() {
    let _lab = lab_defaults();
    let mut rng = StdRng::seed_from_u64(53);
    let mut cases = Vec::new();
    for (m, n) in [(300, 264), (264, 300), (4, 1028)] {
        cases.push((
            m,
            n,
            rand_vec(&mut rng, m),
            rand_vec(&mut rng, n),
            rand_mat(&mut rng, m, n),
        ));
    }
    let sym: Vec<_> = [292, 1028]
        .into_iter()
        .map(|n| {
            (
                n,
                rand_vec(&mut rng, n),
                rand_vec(&mut rng, n),
                rand_mat(&mut rng, n, n),
            )
        })
        .collect();
    let d = dev32(-1.3);
    let all = |rows: u32, tri: bool| {
        lab::set_rank_rows(rows);
        lab::set_rank_tri(tri);
        let r = catch_unwind(AssertUnwindSafe(|| {
            let mut out = Vec::new();
            for (_, _, x, y, a0) in &cases {
                out.extend(each_layout(a0, |a| {
                    blas::sger(ctx(), 0.7, x, y, a).unwrap()
                }));
            }
            for (_, x, y, s0) in &sym {
                for uplo in [Uplo::Lower, Uplo::Upper] {
                    out.extend(each_layout(s0, |a| {
                        blas::ssyr(ctx(), uplo, Scalar::from(&d), x, a).unwrap()
                    }));
                    out.extend(each_layout(s0, |a| {
                        blas::ssyr2(ctx(), uplo, 0.7, x, y, a).unwrap()
                    }));
                }
            }
            out
        }));
        lab::set_rank_rows(0);
        lab::set_rank_tri(false);
        r.unwrap_or_else(|e| resume_unwind(e))
    };
    let pre = all(1, false);
    assert_eq!(pre.len(), 9 + 2 * 2 * 2 * 3);
    // The default (8 lines for ssyr, 2 for the others) and each line count, on the whole
    // square's tiles and (lab `set_rank_tri`) on the triangle's only (n = 1028: two blocks of
    // 1024 fast positions).
    for (rows, tri) in [
        (0, false),
        (2, false),
        (4, false),
        (8, false),
        (2, true),
        (8, true),
    ] {
        let got = all(rows, tri);
        for (k, (p, g)) in pre.iter().zip(&got).enumerate() {
            let differ = p
                .iter()
                .zip(g)
                .filter(|(a, b)| a.to_bits() != b.to_bits())
                .count();
            assert_eq!(
                differ, 0,
                "rows {rows} (tri {tri}), case {k}: {differ} elements differ from main_pre"
            );
        }
    }
    // The updates changed A (so that equal bits compare two computations), and the symmetric
    // ones only their triangle.
    for (k, (_, _, _, _, a0)) in cases.iter().enumerate() {
        assert!(
            !bits_equal(&pre[3 * k], a0),
            "sger case {k} left A unchanged"
        );
    }
    for (s, (n, _, _, s0)) in sym.iter().enumerate() {
        for (t, uplo) in [Uplo::Lower, Uplo::Upper].into_iter().enumerate() {
            let inside = |i: usize, j: usize| if uplo == Uplo::Lower { i >= j } else { i <= j };
            for r in 0..6 {
                let got = &pre[9 + 12 * s + 6 * t + r];
                assert_eq!(got.dim(), (*n, *n));
                assert!(
                    !bits_equal(got, s0),
                    "symmetric case {s} {uplo:?} {r} unchanged"
                );
                let kept = got
                    .indexed_iter()
                    .all(|((i, j), v)| inside(i, j) || v.to_bits() == s0[(i, j)].to_bits());
                assert!(
                    kept,
                    "symmetric case {s} {uplo:?} {r}: the other triangle changed"
                );
            }
        }
    }
}

/// `update` on a copy of `a` in C order and on one in F order.
fn both_orders(a: &Array2<f32>, update: impl Fn(ArrayViewMut2<f32>)) -> [Array2<f32>; 2] {
    let mut c = a.clone();
    update(c.view_mut());
    let mut f = Array2::zeros(a.dim().f());
    f.assign(a);
    update(f.view_mut());
    [c, f]
}

/// sger (8×12), ssyr and ssyr2 (n = 12, both triangles) in C and F order on `main_pre` (one
/// and two units per invocation)
/// with a device alpha of 2, -0.7, NaN, Inf and 0 (x holding NaN and Inf there: A's bits
/// unchanged): the bits of the same call with a host alpha.
#[test]
fn rank_pre_device_alpha_as_host() {
    let (m, n) = (8, 12);
    let mut rng = StdRng::seed_from_u64(43);
    let (x0, y, xs0) = (
        rand_vec(&mut rng, m),
        rand_vec(&mut rng, n),
        rand_vec(&mut rng, n),
    );
    let (a0, s0) = (rand_mat(&mut rng, m, n), rand_mat(&mut rng, n, n));
    for v in PRE {
        with_variant(Driver::RankUpdate, v, || {
            for alpha in [2.0, -0.7, f32::NAN, f32::INFINITY, 0.0] {
                let (mut x, mut xs) = (x0.clone(), xs0.clone());
                if alpha == 0.0 {
                    (x[1], x[4], xs[2], xs[7]) = (f32::NAN, f32::INFINITY, f32::NAN, f32::INFINITY);
                }
                let d = dev32(alpha);
                let (h, g) = (Scalar::Host(alpha), Scalar::from(&d));
                let check =
                    |name: &str, a: &Array2<f32>, want: [Array2<f32>; 2], got: [Array2<f32>; 2]| {
                        for k in 0..2 {
                            assert!(
                                bits_equal(&got[k], &want[k]),
                                "{name} alpha {alpha} order {k}"
                            );
                            if alpha == 0.0 {
                                assert!(bits_equal(&got[k], a), "{name} alpha 0 changed A");
                            }
                        }
                    };
                let ger = |al| both_orders(&a0, |a| blas::sger(ctx(), al, &x, &y, a).unwrap());
                check("sger", &a0, ger(h), ger(g));
                for uplo in [Uplo::Lower, Uplo::Upper] {
                    let syr =
                        |al| both_orders(&s0, |a| blas::ssyr(ctx(), uplo, al, &xs, a).unwrap());
                    check("ssyr", &s0, syr(h), syr(g));
                    let syr2 = |al| {
                        both_orders(&s0, |a| blas::ssyr2(ctx(), uplo, al, &xs, &y, a).unwrap())
                    };
                    check("ssyr2", &s0, syr2(h), syr2(g));
                }
            }
        });
    }
}

/// sger on a 4 × 4,194,368 F-order A (one vec4 unit per column), on `main_pre` (`pre_factors`
/// on 65,537 workgroups of 64 columns, a grid of two rows of workgroups, one past the columns)
/// and on `main_rows`: every element, the last column's included, is exact.
#[test]
fn rank_pre_grid_past_65535_workgroups() {
    let n = 64 * 65_537;
    let y = Array1::from_shape_fn(n, |j| (j % 1000) as f32);
    let mut a = Array2::<f32>::zeros((4, n).f());
    with_rank_rows(1, || {
        blas::sger(ctx(), 2.0, &Array1::ones(4), &y, &mut a).unwrap();
    });
    let bad = a.indexed_iter().find(|&((_, j), &v)| v != 2.0 * y[j]);
    assert!(bad.is_none(), "main_pre: first wrong element {bad:?}");
    // `main_rows` (the default), 2 lines per invocation, one unit per line: a grid of
    // 2,097,184 workgroups (32 rows of 65,535 and one more).
    let mut a = Array2::<f32>::from_elem((4, n).f(), 1.0);
    with_variant(Driver::RankUpdate, Variant::Auto, || {
        blas::sger(ctx(), 2.0, &Array1::ones(4), &y, &mut a).unwrap();
    });
    let bad = a.indexed_iter().find(|&((_, j), &v)| v != 1.0 + 2.0 * y[j]);
    assert!(bad.is_none(), "main_rows: first wrong element {bad:?}");
}
