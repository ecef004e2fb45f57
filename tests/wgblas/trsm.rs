//! strsm and dtrsm: solve op(A)·X = alpha·B (Left) or X·op(A) = alpha·B (Right), B ← X, A
//! triangular (NaN in the other triangle, and on the diagonal for Diag::Unit). Metric: backward
//! residual factor (`metrics::spec`, DESIGN.md §2: `|op(A)·X − alpha·B| / (EPS·(r+1)·|op(A)|·|X|)`),
//! on well- and ill-conditioned triangles. The description drives validation, fixtures, edges
//! and the resident form; hand-computed values below.

use cblas_sys::{cblas_strsm, CBLAS_LAYOUT};
use ndarray::{array, Array1, Array2, ArrayView2, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::oracle::c;
use crate::common::*;
use crate::describe::elem::{cd, cs, ct, cu};
use crate::describe::level2::{flags, random_mat};
use crate::describe::{self, pick, scalar, Bad, Case, Elem, Id, Ops, Out, Routine, Slots};
use crate::level3_common::*;
use wgblas::{
    Diag::{NonUnit, Unit},
    Side::{Left, Right},
    Transpose::{No, Yes},
    Uplo::{Lower, Upper},
};

/// A triangular operand of order `n`. Well-conditioned: diagonal magnitude in [1, 2] and
/// off-diagonal entries divided by `n` (κ∞ below ~10, unit diagonal included). Ill-conditioned:
/// off-diagonal magnitudes in [1e-3, 1] with a diagonal in [0.1, 1.1] up to order 65 and
/// [1, 2] above (so that X stays finite in f32), and for a unit diagonal off-diagonals in
/// [3e-3, 3] up to order 65: measured κ∞ 1e6–1e9 at orders 31/33, 1e12–1e18 at 65, 1e6–1e10
/// at 129 (`edge_well_and_ill_conditioned_every_flag` checks κ∞ ≥ 1e6).
pub(crate) fn operand(
    rng: &mut StdRng,
    n: usize,
    uplo: Uplo,
    diag: Diag,
    ill: bool,
) -> Array2<f32> {
    if ill {
        let lo = if n <= 65 { 0.1 } else { 1.0 };
        let mut a = tri_storage(rng, n, uplo, diag, lo);
        if diag == Unit && n <= 65 {
            // A unit diagonal with off-diagonals ≤ 1 is too tame below order 100.
            a.indexed_iter_mut()
                .filter(|((i, j), _)| i != j)
                .for_each(|(_, v)| *v *= 3.0);
        }
        a
    } else {
        let mut a = tri_storage(rng, n, uplo, diag, 1.0);
        for ((i, j), v) in a.indexed_iter_mut() {
            if i != j {
                *v /= n as f32;
            }
        }
        a
    }
}

/// OpenBLAS strsm (row-major on C-order copies): the forward reference of
/// `edge_gpu_matches_openblas_on_a_well_conditioned_system`.
#[allow(clippy::too_many_arguments)]
fn strsm_openblas(
    s: Side,
    u: Uplo,
    t: Transpose,
    d: Diag,
    alpha: f32,
    a: ArrayView2<f32>,
    b: ArrayView2<f32>,
) -> Array2<f32> {
    let (a, mut bb) = (c(&a), c(&b));
    let (m, n) = (bb.nrows() as i32, bb.ncols() as i32);
    let (la, lb) = (a.ncols().max(1) as i32, n.max(1));
    let (ap, bp) = (a.as_ptr(), bb.as_mut_ptr());
    unsafe {
        cblas_strsm(
            CBLAS_LAYOUT::CblasRowMajor,
            cs(s),
            cu(u),
            ct(t),
            cd(d),
            m,
            n,
            alpha,
            ap,
            la,
            bp,
            lb,
        )
    };
    bb
}

/// κ∞(T) = ‖T‖∞·‖T⁻¹‖∞ of the triangle a `tri_storage` stands for, in f64.
fn cond_inf(a: &Array2<f32>, uplo: Uplo, diag: Diag) -> f64 {
    let t = tri_clean(a, uplo, diag).mapv(f64::from);
    let n = t.nrows();
    // Lower: solve column by column from the top; upper from the bottom.
    let order: Vec<usize> = match uplo {
        Lower => (0..n).collect(),
        Upper => (0..n).rev().collect(),
    };
    let mut inv = Array2::<f64>::zeros((n, n));
    for c in 0..n {
        for &i in &order {
            let mut s = if i == c { 1.0 } else { 0.0 };
            for j in 0..n {
                if j != i && in_triangle(uplo, i, j) {
                    s -= t[[i, j]] * inv[[j, c]];
                }
            }
            inv[[i, c]] = s / t[[i, i]];
        }
    }
    let norm = |m: &Array2<f64>| {
        m.rows()
            .into_iter()
            .map(|r| r.iter().map(|v| v.abs()).sum::<f64>())
            .fold(0.0, f64::max)
    };
    norm(&t) * norm(&inv)
}

/// The description of trsm: A from [`operand`] (in f32, widened exactly for f64), ill
/// conditioned where the case's `diag_lo` is below 1; B random.
pub struct Trsm;

/// The order of A.
fn order(c: &Case) -> usize {
    if c.side == Left {
        c.m
    } else {
        c.n
    }
}

impl Routine for Trsm {
    const ID: Id = Id("trsm", Out::B);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let a = operand(r, order(c), c.uplo, c.diag, c.diag_lo < 1.0);
        let b = random_mat(r, c.m, c.n);
        let none = Array2::from_shape_vec((0, 0), Vec::new()).unwrap();
        Ops::mats(a.mapv(|v| T::from_f64(v.into())), b, none)
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let (a, alpha) = (s.a.r(), T::from_f64(c.alpha));
        T::trsm(ctx, c.side, c.uplo, c.trans, c.diag, alpha, a, s.b.w())
    }

    /// No quick return that leaves B: alpha = 0 sets it to 0 (checked by the measure).
    fn quick(_: &Case) -> bool {
        false
    }

    /// The backward residual of X against B; for alpha = 0, 0 where X = 0 (else infinite).
    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let f = o.f64();
        let x: Array2<f64> = got.mapv(T::to_f64).into_dimensionality().unwrap();
        if c.alpha == 0.0 {
            return if x.iter().all(|&v| v == 0.0) {
                0.0
            } else {
                f64::INFINITY
            };
        }
        let (s, u, t, d) = (c.side, c.uplo, c.trans, c.diag);
        let alpha = T::from_f64(c.alpha).to_f64();
        let res = metrics::trsm_residual(s, u, t, d, alpha, f.a.view(), x.view(), f.b.view());
        let bound = bounds::trsm(s, u, t, d, f.a.view(), x.view());
        let res = Array1::from_iter(res.unwrap());
        T::backward(res.view(), Array1::from_iter(bound).view())
    }

    fn edges() -> Vec<Case> {
        let mut v = Vec::new();
        let (c, f) = (Layout::C, Layout::F);
        let every = flags(true, true, true);
        // Netlib values, every flag, well and ill conditioned, in C and F order.
        for l in [c, f] {
            for (i, m) in NETLIB_N.into_iter().enumerate() {
                let n = NETLIB_N[(i + 2) % 6];
                for side in SIDES {
                    for &fl in &every {
                        for alpha in ALPHAS {
                            for ill in [false, true] {
                                v.push(case(m as u64, (m, n), side, fl, alpha.into(), ill, [l, l]));
                            }
                        }
                    }
                }
            }
        }
        // Orders across the 32-row diagonal blocks and the 128 tile (κ∞ checked by
        // `edge_ill_conditioned_operands`), and the f64 suite's shapes.
        let orders = [(31, 7), (33, 65), (65, 16), (129, 17)];
        for ((order, rhs), ill) in orders.iter().flat_map(|&o| [(o, false), (o, true)]) {
            for side in SIDES {
                let mn = if side == Left {
                    (order, rhs)
                } else {
                    (rhs, order)
                };
                for &fl in &every {
                    v.push(case(order as u64, mn, side, fl, 0.7, ill, [f, c]));
                }
            }
        }
        for mn in [(1, 1), (9, 5), (70, 3), (5, 100)] {
            for side in SIDES {
                for &fl in &every {
                    v.push(case(141, mn, side, fl, 0.7, false, [c, f]));
                }
            }
        }
        // Mixed and strided layouts.
        let fl = (Upper, Yes, NonUnit);
        for la in LAYOUTS {
            for lb in LAYOUTS {
                for side in SIDES {
                    v.push(case(19, (33, 17), side, fl, 1.0, true, [la, lb]));
                }
            }
        }
        v
    }

    crate::describe::level3::spaces_with!(space_with);

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 3, 2).flags(Lower, No, NonUnit);
        let dm = "DimensionMismatch";
        vec![
            Bad::mats(c, (3, 2), (3, 2), (0, 0), "NotSquare", "a"),
            // Right: the order of A must be the 2 columns of B.
            Bad::mats(c.side(Right), (3, 3), (3, 2), (0, 0), dm, "b"),
        ]
    }
}

describe::described_tests!(Trsm, 100, 40);

/// A case: B is `m`×`n`, A and B stored as `layouts`, ill conditioned where `ill`.
pub(crate) fn case(
    seed: u64,
    (m, n): (usize, usize),
    side: Side,
    (u, t, d): (Uplo, Transpose, Diag),
    alpha: f64,
    ill: bool,
    [la, lb]: [Layout; 2],
) -> Case {
    Case {
        diag_lo: if ill { 0.5 } else { 1.0 },
        ..Case::new(seed, m, n)
            .side(side)
            .flags(u, t, d)
            .scalars(alpha, 0.0)
            .mats([la, lb, Layout::C])
    }
}

fn space_with(dim: BoxedStrategy<usize>) -> BoxedStrategy<Case> {
    let flags = (pick(&SIDES), pick(&UPLOS), pick(&TRANS), pick(&DIAGS));
    let rest = (scalar(), any::<bool>(), pick(&LAYOUTS), pick(&LAYOUTS));
    (any::<u64>(), dim.clone(), dim, flags, rest)
        .prop_map(|(seed, m, n, (s, u, t, d), (alpha, ill, la, lb))| {
            case(seed, (m, n), s, (u, t, d), alpha.into(), ill, [la, lb])
        })
        .boxed()
}

#[test]
fn validation_extension_forms() {
    let a = Array2::<f32>::ones((3, 2));
    let mut b = Array2::<f32>::from_elem((3, 2), 9.0);
    let (l, lo, no, nu) = (Left, Lower, No, NonUnit);
    let err = a.gpu_trsm_inplace(l, lo, no, nu, 1.0, &mut b).unwrap_err();
    describe::assert_named(&err, ("NotSquare", "strsm", "a"));
    let bt = Array2::<f32>::ones((2, 3));
    let a = Array2::<f32>::ones((3, 3));
    assert!(a.gpu_trsm(l, Upper, Yes, Unit, &bt).is_err());
    assert_eq!(b, Array2::from_elem((3, 2), 9.0));
}

#[test]
fn edge_ill_conditioned_operands() {
    // The triangles of the edges' block orders are what the description claims: κ∞ ≥ 1e6 ill
    // conditioned, ≤ 100 well conditioned.
    for order in [31, 33, 65, 129] {
        for uplo in UPLOS {
            for diag in DIAGS {
                for ill in [false, true] {
                    let a = operand(&mut rng(order as u64), order, uplo, diag, ill);
                    let kappa = cond_inf(&a, uplo, diag);
                    if ill {
                        assert!(
                            kappa >= 1e6,
                            "order {order} {diag:?}: κ∞ {kappa:.2e} is not ill-conditioned"
                        );
                    } else {
                        assert!(
                            kappa <= 100.0,
                            "order {order} {diag:?}: κ∞ {kappa:.2e} is not well-conditioned"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn edge_hand_values() {
    // T = [[2, 0], [1, 4]] (lower). T·X = B with B = [[2, 4], [9, 18]]: X = [[1, 2], [2, 4]].
    // Tᵀ·X = B with B = [[4, 8], [8, 16]]: X = [[1, 2], [2, 4]].
    // X·T = B with B = [[4, 4], [8, 8]]: X = [[1.5, 1], [3, 2]].
    let t = array![[2.0f32, f32::NAN], [1.0, 4.0]];
    let (l, lo, no) = (Left, Lower, No);
    for layout in [Layout::C, Layout::F] {
        let st = Mat::new(&t, layout);
        let mut sb = Mat::new(&array![[2.0f32, 4.0], [9.0, 18.0]], layout);
        blas::strsm(ctx(), l, lo, no, NonUnit, 1.0, st.view(), sb.view_mut()).unwrap();
        assert_eq!(sb.to_owned(), array![[1.0, 2.0], [2.0, 4.0]]);
        // alpha = 0.5 halves the right-hand side.
        let mut sb = Mat::new(&array![[8.0f32, 16.0], [16.0, 32.0]], layout);
        blas::strsm(ctx(), l, lo, Yes, NonUnit, 0.5, st.view(), sb.view_mut()).unwrap();
        assert_eq!(sb.to_owned(), array![[1.0, 2.0], [2.0, 4.0]]);
    }
    let b = array![[4.0f32, 4.0], [8.0, 8.0]];
    assert_eq!(
        t.gpu_trsm(Right, lo, no, NonUnit, &b).unwrap(),
        array![[1.5, 1.0], [3.0, 2.0]]
    );
    // Unit diagonal, NaN there never read: [[1, 0], [3, 1]]·X = [[1], [5]] gives X = [[1], [2]].
    let tu = array![[f32::NAN, f32::NAN], [3.0f32, f32::NAN]];
    assert_eq!(
        tu.gpu_trsm(l, lo, no, Unit, &array![[1.0f32], [5.0]])
            .unwrap(),
        array![[1.0], [2.0]]
    );
}

#[test]
fn edge_alpha_zero_never_reads_a_or_b() {
    let nan = Array2::from_elem((2, 2), f32::NAN);
    let mut b = array![[f32::NAN, 1.0], [f32::INFINITY, 2.0]];
    nan.gpu_trsm_inplace(Left, Upper, Yes, Unit, 0.0, &mut b)
        .unwrap();
    assert_eq!(b, Array2::zeros((2, 2)));
}

#[test]
fn edge_gpu_matches_openblas_on_a_well_conditioned_system() {
    // Forward agreement where the condition allows it (κ∞ < 10): wgblas's X and OpenBLAS's,
    // each against the exact solution (solved in f64, rounded once) by the forward image of
    // strsm's backward residual bound (`bounds::trsm_forward`), within strsm's threshold
    // (metrics::spec).
    let mut r = rng(23);
    let a = operand(&mut r, 70, Upper, NonUnit, false);
    let b = rand_mat(&mut r, 70, 40);
    let x = a.gpu_trsm(Left, Upper, Yes, NonUnit, &b).unwrap();
    let clean = tri_clean(&a, Upper, NonUnit);
    let xo = strsm_openblas(Left, Upper, Yes, NonUnit, 1.0, clean.view(), b.view());
    let clean64 = clean.mapv(f64::from);
    let mut exact = Array2::<f32>::zeros(b.dim());
    for (j, col) in b.columns().into_iter().enumerate() {
        let mut x64 = col.mapv(f64::from);
        f64::o_trsv(Upper, Yes, NonUnit, &clean64, &mut x64);
        exact.column_mut(j).assign(&x64.mapv(|v| v as f32));
    }
    for (who, got) in [("wgblas", &x), ("OpenBLAS", &xo)] {
        let bound = bounds::trsm_forward(Left, Upper, Yes, NonUnit, a.view(), got.view());
        let f = metrics::forward_factor(got, &exact, &bound).unwrap();
        describe::passes("strsm", f, &format!("{who}: forward factor"));
    }
}

#[test]
fn resident_hand_values_mixed_operands_and_alpha_zero() {
    // Upper A = [[2, 1], [., 4]]; the NaN below the diagonal is never read.
    let a = array![[2.0f32, 1.0], [f32::NAN, 4.0]];
    let b = array![[4.0f32, 8.0], [8.0, 16.0]];
    for col_major in [false, true] {
        let ga = upload(&a, col_major);
        // X·A = B: X = [[2, 1.5], [4, 3]] (resident A and B).
        let mut gb = upload(&b, !col_major);
        blas::strsm(ctx(), Right, Upper, No, NonUnit, 1.0, &ga, &mut gb).unwrap();
        assert_eq!(gb.to_array().unwrap(), array![[2.0, 1.5], [4.0, 3.0]]);
        // A·X = 0.5·B with a host A: X = [[0.5, 1], [1, 2]] (resident B).
        let mut gb = upload(&b, col_major);
        blas::strsm(ctx(), Left, Upper, No, NonUnit, 0.5, &a, &mut gb).unwrap();
        assert_eq!(gb.to_array().unwrap(), array![[0.5, 1.0], [1.0, 2.0]]);
        // Resident A, host B: Aᵀ·X = B, Aᵀ = [[2, 0], [1, 4]]: X = [[2, 4], [1.5, 3]].
        let mut hb = b.clone();
        blas::strsm(ctx(), Left, Upper, Yes, NonUnit, 1.0, &ga, &mut hb).unwrap();
        assert_eq!(hb, array![[2.0, 4.0], [1.5, 3.0]]);
        // alpha = 0: a NaN resident B becomes zero on the device, A not read.
        let mut gb = upload(&Array2::from_elem((2, 3), f32::NAN), col_major);
        let nan = upload(&Array2::from_elem((2, 2), f32::NAN), col_major);
        blas::strsm(ctx(), Left, Lower, No, Unit, 0.0, &nan, &mut gb).unwrap();
        assert_eq!(gb.to_array().unwrap(), Array2::<f32>::zeros((2, 3)));
    }
}

#[test]
fn resident_trmm_then_trsm_chain_is_one_submission() {
    // B ← A·B, then solve A·X = B: X is the original B, exactly (small integers and halves).
    // A fresh context, so no other test's calls count.
    let own = wgblas::Context::new().unwrap();
    let a = array![[2.0f32, 1.0], [f32::NAN, 4.0]];
    let b = array![[1.0f32, 2.0], [3.0, 4.0]];
    let ga = own.upload_matrix(&a).unwrap();
    let mut gb = own.upload_matrix(&b.t().to_owned()).unwrap();
    // gb holds Bᵀ; work on its transpose through Side::Right: Bᵀ·Aᵀ = (A·B)ᵀ.
    let s0 = own.submissions();
    let flags = (Right, Upper, Yes, NonUnit);
    blas::strmm(&own, flags.0, flags.1, flags.2, flags.3, 1.0, &ga, &mut gb).unwrap();
    blas::strsm(&own, flags.0, flags.1, flags.2, flags.3, 1.0, &ga, &mut gb).unwrap();
    assert_eq!(
        own.submissions(),
        s0,
        "resident-only calls must be held back"
    );
    assert_eq!(gb.to_array().unwrap(), b.t());
    assert_eq!(own.submissions(), s0 + 1, "one submission for the chain");
}

/// Both substitution orders of the diagonal-block solve (column-oriented, the default, and
/// row-oriented, pinned through the tuning override), with the recursive splitting of 100 and
/// 129 rows into 32-row blocks and engine updates, well and ill conditioned, every flag.
#[test]
fn edge_row_and_column_oriented_block_solves() {
    use wgblas::tuning::{set_tuning, Tuning};
    for columns in [false, true] {
        set_tuning(Some(Tuning {
            trsm_columns: Some(columns),
            // The per-column block solve (entry `block_solve`), which the orders apply to.
            trsm_rows: Some(0),
            ..Tuning::default()
        }));
        for c in block_cases(5, &[(100, 9), (129, 70)], [Layout::C, Layout::F]) {
            describe::check::<Trsm, f32>(&c);
        }
    }
    set_tuning(None);
}

/// Cases of `(order, right-hand sides)`, both sides, every flag, well and ill conditioned,
/// alpha 0.9, A and B stored as `layouts`.
pub(crate) fn block_cases(seed: u64, orders: &[(usize, usize)], layouts: [Layout; 2]) -> Vec<Case> {
    let mut v = Vec::new();
    for &(order, rhs) in orders {
        for side in SIDES {
            let mn = if side == Left {
                (order, rhs)
            } else {
                (rhs, order)
            };
            for fl in flags(true, true, true) {
                for ill in [false, true] {
                    v.push(case(seed, mn, side, fl, 0.9, ill, layouts));
                }
            }
        }
    }
    v
}
