//! Special values (DESIGN.md §3), issue 9: every routine that takes alpha/beta (or c/s of srot,
//! or H of srotm) run with each of them NaN, +Inf, −Inf and 0 (and two ordinary values), as an
//! f32 and, where the routine accepts one, as a device `GpuScalar`; and with NaN and Inf in each
//! operand opposite a zero partner.
//!
//! The expected values come from the small models below, which are the §3 rules written out for
//! 2×2 operands of small integers (every product and sum exact, so the comparison is exact): the
//! formula evaluated in IEEE f32 with no zero-skip, except that alpha = 0 does not read A, B or x,
//! beta = 0 does not read C or y, and unreferenced triangles are never read (they hold NaN here).
//! A NaN or Inf alpha or beta is not 0. The sign of a zero is not compared (§3). The instances of
//! the issue's text are tests of their own, with their values written out.

use ndarray::{array, Array1, Array2};
use wgblas::{blas, resident, GpuScalar};

use crate::common::*;
use wgblas::{
    Diag::NonUnit,
    Side::Left,
    Transpose::{No, Yes},
    Uplo::Upper,
};

const NAN: f32 = f32::NAN;
const INF: f32 = f32::INFINITY;

/// The values every alpha, beta, c, s and H entry takes.
const SCALARS: [f32; 6] = [NAN, INF, -INF, 0.0, 1.0, -2.0];

/// A device scalar holding `v` (the resident dot product `v·1`, so it is never on the host).
fn dev(v: f32) -> GpuScalar<'static, f32> {
    let s = resident::sdot(ctx(), &array![v], &array![1.0f32]).unwrap();
    assert_same(&[s.get().unwrap()], &[v], "device scalar");
    s
}

/// [`dev`] of each of [`SCALARS`], in order.
fn devs() -> Vec<GpuScalar<'static, f32>> {
    SCALARS.into_iter().map(dev).collect()
}

/// Operand sets for the matrix routines: the clean one, then NaN and Inf opposite a zero partner
/// in each operand (A's column 0 against x_0 = 0 / B's row 0 = 0, and the other way round).
fn mats() -> Vec<(Array2<f32>, Array2<f32>)> {
    vec![
        (
            array![[1.0, 2.0], [3.0, 4.0]],
            array![[1.0, -1.0], [2.0, 1.0]],
        ),
        (
            array![[NAN, 2.0], [INF, 4.0]],
            array![[0.0, 0.0], [2.0, 1.0]],
        ),
        (
            array![[0.0, 2.0], [0.0, 4.0]],
            array![[NAN, INF], [2.0, 1.0]],
        ),
        (
            array![[-INF, 0.0], [1.0, 0.0]],
            array![[1.0, 2.0], [0.0, 0.0]],
        ),
    ]
}

/// Vector operand pairs (x, y) for the Level 1 routines and the rank updates.
fn vecs() -> Vec<(Array1<f32>, Array1<f32>)> {
    vec![
        (array![1.0, -2.0], array![3.0, 4.0]),
        (array![NAN, 0.0], array![0.0, INF]),
        (array![0.0, -INF], array![NAN, 0.0]),
    ]
}

/// The C / y a call starts from: ordinary, then NaN and Inf (which beta = 0 must not read).
fn outs() -> Vec<Array2<f32>> {
    vec![
        array![[1.0, 2.0], [-1.0, 3.0]],
        array![[NAN, INF], [-INF, NAN]],
    ]
}

/// `alpha·s` with alpha = 0 not reading `s` (§3: A, B, x not read).
fn times_alpha(alpha: f32, s: f32) -> f32 {
    if alpha == 0.0 {
        0.0
    } else {
        alpha * s
    }
}

/// `r + beta·c` with beta = 0 not reading `c` (§3: C, y not read).
fn plus_beta(r: f32, beta: f32, c: f32) -> f32 {
    if beta == 0.0 {
        r
    } else {
        r + beta * c
    }
}

/// `alpha·A·B + beta·C` on the elements `keep(i, j)` (others of C kept), sums in p order.
fn mm(
    alpha: f32,
    a: &Array2<f32>,
    b: &Array2<f32>,
    beta: f32,
    c: &Array2<f32>,
    keep: impl Fn(usize, usize) -> bool,
) -> Array2<f32> {
    let mut out = c.clone();
    for ((i, j), o) in out.indexed_iter_mut() {
        if keep(i, j) {
            let s = (0..a.ncols()).fold(0.0f32, |s, p| s + a[[i, p]] * b[[p, j]]);
            *o = plus_beta(times_alpha(alpha, s), beta, c[[i, j]]);
        }
    }
    out
}

/// `alpha·A·x + beta·y`, as [`mm`] with one column.
pub(crate) fn mv(
    alpha: f32,
    a: &Array2<f32>,
    x: &Array1<f32>,
    beta: f32,
    y: &Array1<f32>,
) -> Array1<f32> {
    let col = |v: &Array1<f32>| v.clone().insert_axis(ndarray::Axis(1));
    col0(&mm(alpha, a, &col(x), beta, &col(y), all))
}

fn all(_: usize, _: usize) -> bool {
    true
}

fn upper(i: usize, j: usize) -> bool {
    i <= j
}

/// The symmetric matrix whose upper triangle `a` holds.
fn sym_upper(a: &Array2<f32>) -> Array2<f32> {
    Array2::from_shape_fn(a.dim(), |(i, j)| a[[i.min(j), i.max(j)]])
}

/// `a` with NaN written below the diagonal: an unreferenced lower triangle.
fn nan_below(a: &Array2<f32>) -> Array2<f32> {
    Array2::from_shape_fn(a.dim(), |(i, j)| if i > j { NAN } else { a[[i, j]] })
}

/// Column 0 of a 2×2 matrix, as a vector.
fn col0(a: &Array2<f32>) -> Array1<f32> {
    a.column(0).to_owned()
}

/// Run `f` once with host scalars, then once with device scalars.
fn host_and_device(mut f: impl FnMut(bool)) {
    f(false);
    f(true);
}

#[test]
fn saxpy_and_sscal_every_alpha() {
    let devs = devs();
    for (x, y0) in vecs() {
        for (alpha, d) in SCALARS.into_iter().zip(&devs) {
            for on_dev in [false, true] {
                let what = format!("alpha {alpha} device {on_dev} x {x} y {y0}");
                let mut y = y0.clone();
                if on_dev {
                    blas::saxpy(ctx(), d, &x, &mut y).unwrap();
                } else {
                    blas::saxpy(ctx(), alpha, &x, &mut y).unwrap();
                }
                // alpha = 0: x is not read, y unchanged.
                let want = Array1::from_shape_fn(2, |i| {
                    if alpha == 0.0 {
                        y0[i]
                    } else {
                        alpha * x[i] + y0[i]
                    }
                });
                assert_same(&y, &want, &format!("saxpy {what}"));
                // sscal has no shortcut (bit-exact routine): alpha·x_i, 0·NaN = NaN.
                let mut z = x.clone();
                if on_dev {
                    blas::sscal(ctx(), d, &mut z).unwrap();
                } else {
                    blas::sscal(ctx(), alpha, &mut z).unwrap();
                }
                let want = x.mapv(|v| alpha * v);
                assert_same(&z, &want, &format!("sscal {what}"));
            }
        }
    }
}

#[test]
fn srot_every_c_and_s() {
    for (x0, y0) in vecs() {
        for c in SCALARS {
            for s in SCALARS {
                let (mut x, mut y) = (x0.clone(), y0.clone());
                blas::srot(ctx(), &mut x, &mut y, c, s).unwrap();
                let wx = Array1::from_shape_fn(2, |i| c * x0[i] + s * y0[i]);
                let wy = Array1::from_shape_fn(2, |i| -s * x0[i] + c * y0[i]);
                let what = format!("srot c {c} s {s} x {x0} y {y0}");
                assert_same(&x, &wx, &what);
                assert_same(&y, &wy, &what);
            }
        }
    }
}

#[test]
fn srotm_every_h_entry_under_every_flag() {
    for (x0, y0) in vecs() {
        for flag in [-2.0f32, -1.0, 0.0, 1.0] {
            for slot in 1..5 {
                for v in SCALARS {
                    let mut param = [flag, 2.0, -1.0, 3.0, 1.0];
                    param[slot] = v;
                    let [_, h11, h21, h12, h22] = param;
                    // The H of each flag; entries the flag does not use are never read.
                    let h = match flag as i32 {
                        -2 => [1.0, 0.0, 0.0, 1.0],
                        -1 => [h11, h12, h21, h22],
                        0 => [1.0, h12, h21, 1.0],
                        _ => [h11, 1.0, -1.0, h22],
                    };
                    let (mut x, mut y) = (x0.clone(), y0.clone());
                    blas::srotm(ctx(), &mut x, &mut y, param).unwrap();
                    let what = format!("srotm {param:?} x {x0} y {y0}");
                    if flag == -2.0 {
                        assert_same(&x, &x0, &what);
                        assert_same(&y, &y0, &what);
                    } else {
                        let wx = Array1::from_shape_fn(2, |i| h[0] * x0[i] + h[1] * y0[i]);
                        let wy = Array1::from_shape_fn(2, |i| h[2] * x0[i] + h[3] * y0[i]);
                        assert_same(&x, &wx, &what);
                        assert_same(&y, &wy, &what);
                    }
                }
            }
        }
    }
}

#[test]
fn sgemv_and_ssymv_every_alpha_and_beta() {
    let devs = devs();
    for (a, b) in mats() {
        let x = col0(&b);
        for y0 in outs() {
            let y0 = col0(&y0);
            for (alpha, da) in SCALARS.into_iter().zip(&devs) {
                for (beta, db) in SCALARS.into_iter().zip(&devs) {
                    host_and_device(|on_dev| {
                        let what = format!("alpha {alpha} beta {beta} dev {on_dev} A {a} x {x}");
                        for trans in [No, Yes] {
                            let op = match trans {
                                No => a.clone(),
                                Yes => a.t().to_owned(),
                            };
                            let want = mv(alpha, &op, &x, beta, &y0);
                            let mut y = y0.clone();
                            if on_dev {
                                blas::sgemv(ctx(), trans, da, &a, &x, db, &mut y).unwrap();
                            } else {
                                blas::sgemv(ctx(), trans, alpha, &a, &x, beta, &mut y).unwrap();
                            }
                            assert_same(&y, &want, &format!("sgemv {trans:?} {what}"));
                        }
                        let s = sym_upper(&a);
                        let want = mv(alpha, &s, &x, beta, &y0);
                        let stored = nan_below(&a);
                        let mut y = y0.clone();
                        if on_dev {
                            blas::ssymv(ctx(), Upper, da, &stored, &x, db, &mut y).unwrap();
                        } else {
                            blas::ssymv(ctx(), Upper, alpha, &stored, &x, beta, &mut y).unwrap();
                        }
                        assert_same(&y, &want, &format!("ssymv {what}"));
                    });
                }
            }
        }
    }
}

#[test]
fn rank_updates_every_alpha_no_zero_skip() {
    for (x, y) in vecs() {
        for a0 in outs() {
            for alpha in SCALARS {
                let what = format!("alpha {alpha} x {x} y {y} A {a0}");
                // A + x_i·(alpha·y_j); alpha = 0 returns at once.
                let upd = |i: usize, j: usize, two: bool, v: &Array1<f32>| {
                    let mut r = a0[[i, j]] + x[i] * (alpha * v[j]);
                    if two {
                        r = a0[[i, j]] + x[i] * (alpha * v[j]) + v[i] * (alpha * x[j]);
                    }
                    if alpha == 0.0 {
                        a0[[i, j]]
                    } else {
                        r
                    }
                };
                let mut a = a0.clone();
                blas::sger(ctx(), alpha, &x, &y, &mut a).unwrap();
                let want = Array2::from_shape_fn((2, 2), |(i, j)| upd(i, j, false, &y));
                assert_same(&a, &want, &format!("sger {what}"));

                let mut a = a0.clone();
                blas::ssyr(ctx(), Upper, alpha, &x, &mut a).unwrap();
                let want = Array2::from_shape_fn((2, 2), |(i, j)| {
                    if i > j {
                        a0[[i, j]]
                    } else {
                        upd(i, j, false, &x)
                    }
                });
                assert_same(&a, &want, &format!("ssyr {what}"));

                let mut a = a0.clone();
                blas::ssyr2(ctx(), Upper, alpha, &x, &y, &mut a).unwrap();
                let want = Array2::from_shape_fn((2, 2), |(i, j)| {
                    if i > j {
                        a0[[i, j]]
                    } else {
                        upd(i, j, true, &y)
                    }
                });
                assert_same(&a, &want, &format!("ssyr2 {what}"));
            }
        }
    }
}

#[test]
fn sgemm_every_alpha_and_beta() {
    let devs = devs();
    for (a, b) in mats() {
        for c0 in outs() {
            for (alpha, da) in SCALARS.into_iter().zip(&devs) {
                for (beta, db) in SCALARS.into_iter().zip(&devs) {
                    host_and_device(|on_dev| {
                        let what = format!("alpha {alpha} beta {beta} dev {on_dev} A {a} B {b}");
                        for (ta, op_a) in [(No, a.clone()), (Yes, a.t().to_owned())] {
                            let want = mm(alpha, &op_a, &b, beta, &c0, all);
                            let mut c = c0.clone();
                            if on_dev {
                                blas::sgemm(ctx(), ta, No, da, &a, &b, db, &mut c)
                            } else {
                                blas::sgemm(ctx(), ta, No, alpha, &a, &b, beta, &mut c)
                            }
                            .unwrap();
                            assert_same(&c, &want, &format!("sgemm {ta:?} {what}"));
                        }
                    });
                }
            }
        }
    }
}

#[test]
fn level3_triangle_and_symmetric_every_alpha_and_beta() {
    for (a, b) in mats() {
        for c0 in outs() {
            for alpha in SCALARS {
                for beta in SCALARS {
                    let what = format!("alpha {alpha} beta {beta} A {a} B {b} C {c0}");
                    let mut c = c0.clone();
                    blas::sgemmtr(ctx(), Upper, No, No, alpha, &a, &b, beta, &mut c).unwrap();
                    let want = mm(alpha, &a, &b, beta, &c0, upper);
                    assert_same(&c, &want, &format!("sgemmtr {what}"));

                    let mut c = c0.clone();
                    blas::ssyrk(ctx(), Upper, No, alpha, &a, beta, &mut c).unwrap();
                    let want = mm(alpha, &a, &a.t().to_owned(), beta, &c0, upper);
                    assert_same(&c, &want, &format!("ssyrk {what}"));

                    // ssyr2k: alpha·(A·Bᵀ) + beta·C, then alpha·(B·Aᵀ) added: each term
                    // scaled by alpha, as the formula (and reference SSYR2K) has it, so
                    // alpha = Inf on terms of opposite signs gives Inf − Inf = NaN; alpha = 0
                    // gives beta·C.
                    let mut c = c0.clone();
                    blas::ssyr2k(ctx(), Upper, No, alpha, &a, &b, beta, &mut c).unwrap();
                    let want = Array2::from_shape_fn((2, 2), |(i, j)| {
                        if i > j {
                            return c0[[i, j]];
                        }
                        let s1 = (0..2).fold(0.0f32, |s, p| s + a[[i, p]] * b[[j, p]]);
                        let s2 = (0..2).fold(0.0f32, |s, p| s + b[[i, p]] * a[[j, p]]);
                        let first = plus_beta(times_alpha(alpha, s1), beta, c0[[i, j]]);
                        if alpha == 0.0 {
                            return first;
                        }
                        alpha * s2 + first
                    });
                    assert_same(&c, &want, &format!("ssyr2k {what}"));

                    let mut c = c0.clone();
                    blas::ssymm(ctx(), Left, Upper, alpha, &nan_below(&a), &b, beta, &mut c)
                        .unwrap();
                    let want = mm(alpha, &sym_upper(&a), &b, beta, &c0, all);
                    assert_same(&c, &want, &format!("ssymm {what}"));
                }
            }
        }
    }
}

#[test]
fn strmm_and_strsm_every_alpha() {
    // A upper triangular with a unit-free diagonal of ones (so the solve is exact); its lower
    // triangle holds NaN and is never read.
    for (a, b) in mats() {
        let t = array![[1.0, a[[0, 1]]], [NAN, 1.0]];
        for alpha in SCALARS {
            let what = format!("alpha {alpha} A {t} B {b}");
            // strmm: B = alpha·triu(A)·B, the sum running over the triangle only; alpha = 0
            // gives B = 0 without reading A or B.
            let mut got = b.clone();
            let side = Left;
            blas::strmm(ctx(), side, Upper, No, NonUnit, alpha, &t, &mut got).unwrap();
            let want = Array2::from_shape_fn((2, 2), |(i, j)| {
                let s = (i..2).fold(0.0f32, |s, p| s + t[[i, p]] * b[[p, j]]);
                times_alpha(alpha, s)
            });
            assert_same(&got, &want, &format!("strmm {what}"));
            // strsm: triu(A)·X = alpha·B by back substitution; alpha = 0 gives X = 0.
            let mut got = b.clone();
            blas::strsm(ctx(), side, Upper, No, NonUnit, alpha, &t, &mut got).unwrap();
            let want = Array2::from_shape_fn((2, 2), |(i, j)| {
                if alpha == 0.0 {
                    return 0.0;
                }
                let x1 = alpha * b[[1, j]] / t[[1, 1]];
                if i == 1 {
                    x1
                } else {
                    (alpha * b[[0, j]] - t[[0, 1]] * x1) / t[[0, 0]]
                }
            });
            assert_same(&got, &want, &format!("strsm {what}"));
        }
    }
}

// ---- The instances of issue 9, each with its value ------------------------------------------

#[test]
fn issue9_sgemv_nan_alpha_is_not_zero() {
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let x = array![1.0f32, 1.0];
    let mut y = array![1.0f32, 1.0];
    blas::sgemv(ctx(), No, NAN, &a, &x, 1.0, &mut y).unwrap();
    assert_same(&y, &[NAN, NAN], "host alpha");
    let mut y = array![1.0f32, 1.0];
    blas::sgemv(ctx(), No, &dev(NAN), &a, &x, 1.0, &mut y).unwrap();
    assert_same(&y, &[NAN, NAN], "device alpha");
}

#[test]
fn issue9_sgemm_1x1_nan_beta_is_not_zero() {
    let one = array![[1.0f32]];
    let mut c = array![[1.0f32]];
    blas::sgemm(ctx(), No, No, 1.0, &one, &one, NAN, &mut c).unwrap();
    assert_same(&c, &[NAN], "host beta");
    let mut c = array![[1.0f32]];
    let b = dev(NAN);
    blas::sgemm(ctx(), No, No, 1.0, &one, &one, &b, &mut c).unwrap();
    assert_same(&c, &[NAN], "device beta");
}

#[test]
fn issue9_strmm_nan_alpha_gives_nan_not_zero() {
    let a = array![[1.0f32, 2.0], [0.0, 1.0]];
    let mut b = array![[1.0f32, 1.0], [1.0, 1.0]];
    blas::strmm(ctx(), Left, Upper, No, NonUnit, NAN, &a, &mut b).unwrap();
    assert_same(&b, &[NAN; 4], "strmm");
}

#[test]
fn issue9_saxpy_device_zero_alpha_does_not_read_x() {
    let x = array![NAN, INF, 1.0, -2.0];
    let zero = resident::sasum(ctx(), &Array1::<f32>::zeros(4)).unwrap();
    let mut y = array![1.0f32, 2.0, 3.0, -0.0];
    blas::saxpy(ctx(), &zero, &x, &mut y).unwrap();
    assert_same(&y, &[1.0, 2.0, 3.0, -0.0], "device alpha 0");
    let mut y = array![1.0f32, 2.0, 3.0, -0.0];
    blas::saxpy(ctx(), 0.0, &x, &mut y).unwrap();
    assert_same(&y, &[1.0, 2.0, 3.0, -0.0], "host alpha 0");
}

#[test]
fn issue9_sger_does_not_skip_a_zero_partner() {
    let mut a = Array2::<f32>::zeros((2, 2));
    blas::sger(ctx(), 1.0, &array![NAN, 1.0], &array![0.0f32, 1.0], &mut a).unwrap();
    // Column-major [NaN, 0, NaN, 1].
    assert_same(a.t().iter(), &[NAN, 0.0, NAN, 1.0], "sger");
}

#[test]
fn issue9_ssyrk_propagates_nan_through_a_zero_partner() {
    let a = array![[NAN], [0.0f32]];
    let mut c = Array2::<f32>::zeros((2, 2));
    blas::ssyrk(ctx(), Upper, No, 1.0, &a, 0.0, &mut c).unwrap();
    // C(1,2) (1-based) = NaN·0 = NaN; C(1,1) = NaN·NaN; C(2,2) = 0; C(2,1) not referenced.
    assert_same(&c, &[NAN, NAN, 0.0, 0.0], "ssyrk");
}

#[test]
fn issue9_signed_zero_is_not_part_of_the_contract() {
    // sgemm, alpha = 0, beta = 2, C = [-0, 1]: netlib gives [-0, 2]; +0 is as good (§3).
    let a = array![[1.0f32], [1.0]];
    let b = array![[1.0f32]];
    let mut c = array![[-0.0f32], [1.0]];
    blas::sgemm(ctx(), No, No, 0.0, &a, &b, 2.0, &mut c).unwrap();
    assert_eq!(c, array![[0.0], [2.0]]);
}
