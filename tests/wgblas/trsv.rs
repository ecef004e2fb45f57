//! strsv and dtrsv: solve op(A)·x = b in place, A triangular. Metric: backward residual factor
//! (`metrics::spec`, DESIGN.md §2), measured on well- and ill-conditioned triangles. The
//! description drives validation, fixtures, edges and the resident form; hand-computed values
//! and chosen conditions below.

use ndarray::{array, Array1, Array2, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level2::*;
use crate::describe::{self, pick, Bad, Case, Id, Ops, Out, Routine, Slots};
use crate::oracle_l2 as l2;
use wgblas::{
    Diag::{NonUnit, Unit},
    Transpose::{No, Yes},
    Uplo::{Lower, Upper},
};

/// Backward residual factor of `x` as the solution of op(T)·x = b (f32).
fn residual_factor(
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: &Array2<f32>,
    x: &Array1<f32>,
    b: &Array1<f32>,
) -> f64 {
    let r = metrics::trsv_residual(uplo, trans, diag, a.view(), x.view(), b.view()).unwrap();
    let bound = bounds::trsv(uplo, trans, diag, a.view(), x.view());
    metrics::backward_residual_factor(&r, &bound).unwrap()
}

/// The description of trsv: a triangle with its diagonal's magnitude in [`diag_lo`,
/// `diag_lo` + 1] and off-diagonal entries of size ≤ 1/n; NaN outside the triangle, and on
/// the diagonal for `Unit` (never read).
pub struct Trsv;

impl Routine for Trsv {
    const ID: Id = Id("trsv", Out::X);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let scale = 1.0 / T::from_f64(c.n.max(1) as f64).to_f64();
        let a = tri_stored(r, c.n, c.uplo, c.diag, c.diag_lo, scale);
        let x = random_vec(r, c.n);
        Ops::vecs(a, x, Array1::from_vec(Vec::new()))
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        T::trsv(ctx, c.uplo, c.trans, c.diag, s.a.r(), s.x.w())
    }

    fn quick(_: &Case) -> bool {
        false
    }

    /// The backward residual of the solution against the right-hand side `o.x`.
    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        assert!(
            got.iter().all(|v| v.to_f64().is_finite()),
            "{c:?}: non-finite solution"
        );
        let f = o.f64();
        let x = Array1::from_iter(got.iter().map(|v| v.to_f64()));
        let (u, t, d) = (c.uplo, c.trans, c.diag);
        let r = metrics::trsv_residual(u, t, d, f.a.view(), x.view(), f.x.view()).unwrap();
        let bound = bounds::trsv(u, t, d, f.a.view(), x.view());
        T::backward(r.view(), bound.view())
    }

    fn edges() -> Vec<Case> {
        let (fl, one) = (flags(true, true, true), [(1.0, 0.0)]);
        let vs: Vec<_> = VLAYOUTS.iter().map(|&l| (l, VLayout::Unit)).collect();
        let c_f = [Layout::C, Layout::F];
        let mut v = grid(&netlib_shapes(false), &fl, &one, &c_f, &vs, |n, _| n as u64);
        // 129 rows: three diagonal blocks of 64, the last one a single row.
        let rev2 = [(VLayout::ReversedStep2, VLayout::Unit)];
        let nonunit = flags(true, true, false);
        v.extend(grid(
            &[(129, 129)],
            &nonunit,
            &one,
            &LAYOUTS,
            &rev2,
            |_, _| 9,
        ));
        // The f64 suite's sizes: 100 and 200 cross several diagonal blocks (32 rows in f64 on
        // lavapipe, 64 where the workgroup memory holds the f64 tile).
        let wide: Vec<_> = [1, 2, 7, 33, 100, 200].iter().map(|&n| (n, n)).collect();
        let rev = [(VLayout::Reversed, VLayout::Unit)];
        v.extend(grid(&wide, &fl, &one, &LAYOUTS, &rev, |n, _| n as u64));
        v
    }

    fn space() -> BoxedStrategy<Case> {
        let flags = (pick(&UPLOS), pick(&TRANS), pick(&DIAGS));
        let rest = (any::<bool>(), pick(&LAYOUTS), pick(&VLAYOUTS));
        (any::<u64>(), pick(&SIZES), flags, rest)
            .prop_map(|(seed, n, (u, t, d), (small_diag, la, lx))| Case {
                // Diagonal magnitudes in [1, 2], or in [0.01, 1.01] (often ill-conditioned).
                diag_lo: if small_diag { 0.01 } else { 1.0 },
                ..Case::new(seed, n, n)
                    .flags(u, t, d)
                    .layouts(la, lx, VLayout::Unit)
            })
            .boxed()
    }

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 3, 3).flags(Lower, No, NonUnit);
        let bad = |a, x, error, arg| Bad::vecs(c, a, x, 0, error, arg);
        vec![
            bad((2, 3), 2, "NotSquare", "a"),
            bad((3, 3), 2, "DimensionMismatch", "x"),
        ]
    }

    /// seed = 0, n = 1, upper, no transpose, non-unit, well conditioned, C order, unit stride
    /// (a failure once).
    fn regressions() -> Vec<Case> {
        vec![Case::new(0, 1, 1)]
    }
}

describe::described_tests!(Trsv, 100);

describe::check_on_fn! {
    /// One case of the description (diagonal magnitudes from `diag_lo`) on the context `cx`.
    Trsv, (seed: u64, n: usize, uplo: Uplo, trans: Transpose, diag: Diag, diag_lo: f32, la: Layout, lx: VLayout)
        => Case { diag_lo: diag_lo.into(), ..Case::new(seed, n, n).flags(uplo, trans, diag).layouts(la, lx, VLayout::Unit) }
}

/// [`check_on`] in f64 (dtrsv), diagonal magnitudes from 1.
#[allow(clippy::too_many_arguments)]
pub fn check_on_f64(
    cx: &Context,
    seed: u64,
    n: usize,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    la: Layout,
    lx: VLayout,
) {
    let case = Case::new(seed, n, n)
        .flags(uplo, trans, diag)
        .layouts(la, lx, VLayout::Unit);
    describe::check_on::<Trsv, f64>(cx, &case);
}

#[test]
fn validation_extension_forms() {
    let a = Array2::<f32>::ones((2, 3));
    let x = Array1::<f32>::from_elem(2, 7.0);
    assert!(a.gpu_trsv(Upper, Yes, Unit, &x).is_err());
    let a = Array2::<f32>::eye(3);
    let mut x = Array1::<f32>::from_elem(2, 7.0);
    let err = a.gpu_trsv_inplace(Lower, No, NonUnit, &mut x).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "strsv", "x"));
    assert_eq!(x, Array1::from_elem(2, 7.0));
}

/// Solve with `a` stored in `la`, `b` in `lx`; assert the factor and return it.
#[allow(clippy::too_many_arguments)]
fn check_matrix(
    a: &Array2<f32>,
    b: &Array1<f32>,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    la: Layout,
    lx: VLayout,
    what: &str,
) -> f64 {
    let sa = Mat::new(a, la);
    let mut xs = Vector::new(b, lx);
    blas::strsv(ctx(), uplo, trans, diag, sa.view(), xs.view_mut()).unwrap();
    let what = format!(
        "strsv n={} {uplo:?} {trans:?} {diag:?} {la:?} {lx:?} {what}",
        a.nrows()
    );
    assert!(
        xs.outside_is_untouched(),
        "{what}: wrote outside the strided x"
    );
    let x = xs.to_owned();
    assert!(
        x.iter().all(|v| v.is_finite()),
        "{what}: non-finite solution"
    );
    let f = residual_factor(uplo, trans, diag, a, &x, b);
    describe::passes("strsv", f, &what);
    f
}

#[test]
fn past_one_binding() {
    // A of side² f32 just past one binding: block substitution (issue 15). Lower, unit
    // diagonal (NaN there and above, never read), A_ij = 1 for i > j and b_i = 1: x_0 = 1 and
    // x_i = 1 − Σ_{j<i} x_j = 0 for i ≥ 1, exactly.
    let side = side_past_one_binding();
    let a = Array2::from_shape_fn((side, side), |(i, j)| if i > j { 1.0f32 } else { f32::NAN });
    let mut x = Array1::<f32>::ones(side);
    a.gpu_trsv_inplace(Lower, No, Unit, &mut x).unwrap();
    assert_eq!(x[0], 1.0);
    assert!(x.iter().skip(1).all(|&v| v == 0.0));
}

#[test]
fn edge_well_conditioned_every_flag() {
    // Diagonal magnitudes in [1, 2], off-diagonal ≤ 1/n: diagonally dominant, cond₁ < 10.
    let mut worst: f64 = 0.0;
    for layout in [Layout::C, Layout::F] {
        for n in [63, 64, 65, 129] {
            for uplo in UPLOS {
                for trans in TRANS {
                    for diag in DIAGS {
                        let mut r = rng(n as u64);
                        let a = l2::tri_stored(&mut r, n, uplo, diag, 1.0, 1.0 / n as f32);
                        let cond = l2::cond1_triangular(uplo, diag, a.view());
                        assert!(cond < 10.0, "not well-conditioned: cond₁ = {cond}");
                        let b = rand_vec(&mut r, n);
                        let f = check_matrix(&a, &b, uplo, trans, diag, layout, VLayout::Unit, "");
                        worst = worst.max(f);
                    }
                }
            }
        }
    }
    println!("strsv well-conditioned: worst backward residual factor {worst:.3}");
}

#[test]
fn edge_ill_conditioned_small_diagonal() {
    // Random triangles whose diagonal entries are small (|d| in [1e-3, 1e-1]) against
    // off-diagonal entries of size ≤ 1/√n: cond₁ > 1e6, computed and asserted. Substitution is
    // backward stable whatever the condition (Higham Thm 8.5), so the factor stays ≤ 3.
    let mut worst: f64 = 0.0;
    let mut least_cond = f64::INFINITY;
    for layout in [Layout::C, Layout::F] {
        for n in [17, 65, 129] {
            for uplo in UPLOS {
                for trans in TRANS {
                    let mut r = rng(100 + n as u64);
                    let mut a =
                        l2::tri_stored(&mut r, n, uplo, NonUnit, 0.0, 1.0 / (n as f32).sqrt());
                    for i in 0..n {
                        a[[i, i]] = a[[i, i]].signum() * (1e-3 + 0.099 * a[[i, i]].abs());
                    }
                    let cond = l2::cond1_triangular(uplo, NonUnit, a.view());
                    assert!(
                        cond > 1e6,
                        "n={n} {uplo:?}: cond₁ = {cond:e}, not ill-conditioned"
                    );
                    least_cond = least_cond.min(cond);
                    let b = rand_vec(&mut r, n);
                    let what = format!("cond₁ {cond:.1e}");
                    let f =
                        check_matrix(&a, &b, uplo, trans, NonUnit, layout, VLayout::Step2, &what);
                    worst = worst.max(f);
                }
            }
        }
    }
    println!("strsv ill-conditioned (cond₁ ≥ {least_cond:.1e}): worst backward residual factor {worst:.3}");
}

/// The hand-computed solves: L = [[2, ., .], [1, 4, .], [3, 2, 5]] (NaN above, and on the
/// diagonal for Unit, never read), each (L, trans, diag, b) with op(L)·x = b for x = [1, 2, 3]:
/// L·x = [2, 9, 22]; Lᵀ·x = [13, 14, 15]; unit: L·x = [1, 3, 10]; Lᵀ·x = [12, 8, 3]. And x.
#[allow(clippy::type_complexity)]
fn hand_cases() -> (
    Vec<(Array2<f32>, Transpose, Diag, Array1<f32>)>,
    Array1<f32>,
) {
    let nan = f32::NAN;
    let l = array![[2.0f32, nan, nan], [1.0, 4.0, nan], [3.0, 2.0, 5.0]];
    let mut lu = l.clone();
    lu.diag_mut().fill(nan);
    let cases = vec![
        (l.clone(), No, NonUnit, array![2.0f32, 9.0, 22.0]),
        (l, Yes, NonUnit, array![13.0f32, 14.0, 15.0]),
        (lu.clone(), No, Unit, array![1.0f32, 3.0, 10.0]),
        (lu, Yes, Unit, array![12.0f32, 8.0, 3.0]),
    ];
    (cases, array![1.0f32, 2.0, 3.0])
}

#[test]
fn edge_hand_values_other_triangle_and_unit_diagonal_never_read() {
    let (cases, x) = hand_cases();
    for layout in [Layout::C, Layout::F] {
        for (a, trans, diag, b) in &cases {
            let sa = Mat::new(a, layout);
            let got = sa.view().gpu_trsv(Lower, *trans, *diag, b).unwrap();
            assert_eq!(got, x, "lower {trans:?} {diag:?} {layout:?}");
            assert!(l2::same_bits(&sa.to_owned(), a), "A changed");
            let at = a.t().to_owned();
            let sat = Mat::new(&at, layout);
            let got = sat.view().gpu_trsv(Upper, trans.flip(), *diag, b).unwrap();
            assert_eq!(got, x, "upper {:?} {diag:?} {layout:?}", trans.flip());
        }
    }
}

#[test]
fn edge_n_zero() {
    let a = Array2::<f32>::zeros((0, 0));
    let mut x = Array1::<f32>::zeros(0);
    a.gpu_trsv_inplace(Lower, Yes, NonUnit, &mut x).unwrap();
    assert_eq!(x.len(), 0);
}

/// A fresh context, so that no other test's calls count, with the lab switches held at their
/// defaults for as long as the guard lives (the look-ahead variant dispatches three times at
/// n = 129).
fn counted_context() -> (std::sync::MutexGuard<'static, ()>, Context) {
    (lab_defaults(), Context::new().unwrap())
}

#[test]
fn edge_blocked_solve_is_one_submission() {
    // n = 129: blocks of 64, 64, 1 → three dispatches of the look-ahead solve (the default;
    // no copy), one submission ([`counted_context`]).
    let (_lab, c) = counted_context();
    let mut r = rng(5);
    for uplo in UPLOS {
        let a = l2::tri_stored(&mut r, 129, uplo, NonUnit, 1.0, 1.0 / 129.0);
        let b = rand_vec(&mut r, 129);
        let mut x = b.clone();
        let (s0, d0) = (c.submissions(), c.dispatches());
        blas::strsv(&c, uplo, No, NonUnit, a.view(), x.view_mut()).unwrap();
        assert_eq!(c.submissions() - s0, 1, "{uplo:?}: submissions");
        assert_eq!(c.dispatches() - d0, 3, "{uplo:?}: dispatches");
        let f = residual_factor(uplo, No, NonUnit, &a, &x, &b);
        describe::passes("strsv", f, &format!("{uplo:?}"));
    }
}

#[test]
fn real_data_1138_bus_lower_triangle() {
    // The lower triangle of 1138_bus densified (upper set to NaN: never read), solved for a
    // random right-hand side, by L and by Lᵀ, in C and F order; backward residual ≤ 3.
    let mut a = l2::bus_1138();
    a.indexed_iter_mut()
        .filter(|((i, j), _)| j > i)
        .for_each(|(_, v)| *v = f32::NAN);
    let mut r = rng(1138);
    let b = rand_vec(&mut r, a.nrows());
    let mut worst: f64 = 0.0;
    for layout in [Layout::C, Layout::F] {
        for trans in TRANS {
            let unit = VLayout::Unit;
            let f = check_matrix(&a, &b, Lower, trans, NonUnit, layout, unit, "1138_bus");
            worst = worst.max(f);
        }
    }
    println!("strsv 1138_bus lower: worst backward residual factor {worst:.3}");
}

#[test]
fn resident_hand_values_and_mixed_operands() {
    // As edge_hand_values_other_triangle_and_unit_diagonal_never_read, through a resident L
    // (NaN above, and on the diagonal for Unit) and `GpuMatrix::t`, with resident or host x.
    let (cases, x) = hand_cases();
    for f_order in [false, true] {
        for (a, trans, diag, b) in &cases {
            let ga = l2::upload_matrix(a, f_order);
            let mut gx = ctx().upload_vector(b).unwrap();
            blas::strsv(ctx(), Lower, *trans, *diag, &ga, &mut gx).unwrap();
            assert_eq!(gx.to_array().unwrap(), x, "{trans:?} {diag:?} F={f_order}");
            // `ga.t()` is the upper triangle Lᵀ: the flipped flag solves the same system.
            let mut hx = b.clone();
            blas::strsv(ctx(), Upper, trans.flip(), *diag, ga.t(), &mut hx).unwrap();
            assert_eq!(hx, x, "t() {trans:?} {diag:?} F={f_order} host x");
            // Host A, resident x.
            let mut gx = ctx().upload_vector(b).unwrap();
            blas::strsv(ctx(), Lower, *trans, *diag, a, &mut gx).unwrap();
            assert_eq!(gx.to_array().unwrap(), x, "host A {trans:?} {diag:?}");
            assert!(l2::same_bits(&ga.to_array().unwrap(), a), "A changed");
        }
    }
}

#[test]
fn resident_solve_is_held_back_then_one_submission() {
    // n = 129 (three blocks, three dispatches of the look-ahead solve), A and x resident on a
    // fresh context: the solve submits nothing; the read-back submits the held dispatches and
    // its copy, once ([`counted_context`]).
    let (_lab, c) = counted_context();
    let mut r = rng(6);
    for uplo in UPLOS {
        for f_order in [false, true] {
            let a = l2::tri_stored(&mut r, 129, uplo, NonUnit, 1.0, 1.0 / 129.0);
            let stored = if f_order {
                a.t().as_standard_layout().into_owned().reversed_axes()
            } else {
                a.clone()
            };
            let b = rand_vec(&mut r, 129);
            let ga = c.upload_matrix(&stored).unwrap();
            let mut gx = c.upload_vector(&b).unwrap();
            let (s0, d0, r0) = (c.submissions(), c.dispatches(), c.readbacks());
            blas::strsv(&c, uplo, No, NonUnit, &ga, &mut gx).unwrap();
            assert_eq!(
                c.submissions(),
                s0,
                "{uplo:?} F={f_order}: the solve submitted"
            );
            assert_eq!(
                c.readbacks(),
                r0,
                "{uplo:?} F={f_order}: the solve read back"
            );
            assert_eq!(c.dispatches() - d0, 3, "{uplo:?} F={f_order}: dispatches");
            let x = gx.to_array().unwrap();
            assert_eq!(c.submissions() - s0, 1, "{uplo:?} F={f_order}: submissions");
            assert_eq!(c.readbacks() - r0, 1, "{uplo:?} F={f_order}: read-backs");
            let f = residual_factor(uplo, No, NonUnit, &a, &x, &b);
            describe::passes("strsv", f, &format!("{uplo:?} F={f_order}"));
        }
    }
    // A resident operand of another context is a typed error, and x is left as it was.
    let a = Array2::<f32>::eye(2);
    let ga = c.upload_matrix(&a).unwrap();
    let mut gx = ctx().upload_vector(&array![3.0f32, 4.0]).unwrap();
    let err = blas::strsv(ctx(), Lower, No, Unit, &ga, &mut gx).unwrap_err();
    describe::assert_named(&err, ("InvalidArgument", "strsv", "a"));
    assert_eq!(gx.to_array().unwrap(), array![3.0, 4.0]);
}

#[test]
fn resident_mixed_operands_from_several_threads() {
    // Host A with a resident x: A's upload goes back to the buffer pool when the call returns,
    // while the solve is still held back. Other threads uploading into pooled buffers at the
    // same time must not overwrite it before the held solve has run (Context is Send + Sync).
    // Before the launch path kept its lock on the held commands until their submission, this
    // failed on every run (factors ~1e6: another thread's data solved against).
    std::thread::scope(|s| {
        for t in 0..8u64 {
            s.spawn(move || {
                let mut r = rng(1000 + t);
                for i in 0..300 {
                    let a = l2::tri_stored(&mut r, 5, Lower, NonUnit, 1.0, 0.2);
                    let b = rand_vec(&mut r, 5);
                    let mut gx = ctx().upload_vector(&b).unwrap();
                    blas::strsv(ctx(), Lower, No, NonUnit, &a, &mut gx).unwrap();
                    let x = gx.to_array().unwrap();
                    let f = residual_factor(Lower, No, NonUnit, &a, &x, &b);
                    describe::passes("strsv", f, &format!("thread {t} call {i}"));
                }
            });
        }
    });
}
