//! ssyrk/dsyrk and ssyr2k/dsyr2k (one description, `SyrK<TWO>`): C ← alpha·op(A)·op(A)ᵀ +
//! beta·C, or alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C, on the triangle `uplo` of C.
//! Metric: forward factor (`metrics::spec`, DESIGN.md §2) against OpenBLAS; the other triangle
//! checked unchanged, bit for bit. Hand-computed values below.

use ndarray::{array, Array2, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::bounds;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level2::{flags, random_mat, NETLIB_N, TRANS, UPLOS};
use crate::describe::level3::*;
use crate::describe::{self, forward, pick, scalar, Bad, Case, Id, Ops, Out, Routine, Slots};
use crate::level3_common::{check_past_one_binding, check_tri_rules, upload};
use wgblas::{
    Transpose::{No, Yes},
    Uplo::{Lower, Upper},
};

/// The description of syrk (`TWO = false`) and syr2k (`TWO = true`): C written on its triangle
/// `uplo` only (the other one kept bit for bit), NaN in C where beta = 0.
pub struct SyrK<const TWO: bool>;

/// ssyrk and dsyrk.
pub type Syrk = SyrK<false>;

impl<const TWO: bool> Routine for SyrK<TWO> {
    const ID: Id = Id(if TWO { "syr2k" } else { "syrk" }, Out::C);
    const TRIANGLE_ONLY: bool = true;

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let (ra, ca) = shape(c.trans, c.n, c.k);
        let a = random_mat(r, ra, ca);
        let b = if TWO {
            random_mat(r, ra, ca)
        } else {
            Array2::from_shape_vec((0, 0), Vec::new()).unwrap()
        };
        let cm = c_input(r, c.n, c.n, c.beta);
        Ops::mats(a, b, cm)
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let (alpha, beta) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        if TWO {
            T::syr2k(ctx, c.uplo, c.trans, alpha, s.a.r(), s.b.r(), beta, s.c.w())
        } else {
            T::syrk(ctx, c.uplo, c.trans, alpha, s.a.r(), beta, s.c.w())
        }
    }

    fn quick(_: &Case) -> bool {
        false
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let (alpha, beta) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        let mut tri = oracle_c(Some(c.uplo), c.beta, &o.c);
        if TWO {
            T::o_syr2k(c.uplo, c.trans, alpha, &o.a, &o.b, beta, &mut tri);
        } else {
            T::o_syrk(c.uplo, c.trans, alpha, &o.a, beta, &mut tri);
        }
        let want = merge_triangle(c.uplo, &tri, &o.c);
        let f = o.f64();
        let (al, be) = (alpha.to_f64(), beta.to_f64());
        let bound = if TWO {
            bounds::syr2k(c.uplo, c.trans, al, f.a.view(), f.b.view(), be, f.c.view())
        } else {
            bounds::syrk(c.uplo, c.trans, al, f.a.view(), be, f.c.view())
        };
        forward(got, want.into_dyn(), bound.into_dyn())
    }

    fn edges() -> Vec<Case> {
        let mut v = Vec::new();
        let case = |seed, n, k, (u, t, _), alpha, beta, ls| {
            Case::mnk(seed, n, n, k)
                .flags(u, t, wgblas::Diag::NonUnit)
                .scalars(alpha, beta)
                .mats(ls)
        };
        let fl = flags(true, true, false);
        for l in [Layout::C, Layout::F] {
            for (i, n) in NETLIB_N.into_iter().enumerate() {
                let k = NETLIB_N[(i + 3) % 6];
                for &f in &fl {
                    for alpha in ALPHAS {
                        for beta in BETAS {
                            v.push(case(n as u64, n, k, f, alpha, beta, [l; 3]));
                        }
                    }
                }
            }
        }
        let (tk, tt, tl) = if TWO {
            (17, No, [Layout::F, Layout::C, Layout::C])
        } else {
            (33, Yes, [Layout::C, Layout::C, Layout::F])
        };
        for n in [15, 16, 17, 63, 64, 65, 127, 128, 129] {
            for u in UPLOS {
                v.push(case(
                    n as u64,
                    n,
                    tk,
                    (u, tt, wgblas::Diag::NonUnit),
                    0.7,
                    0.9,
                    tl,
                ));
            }
        }
        for la in LAYOUTS {
            for lb in if TWO { &LAYOUTS[..] } else { &LAYOUTS[..1] } {
                for lc in LAYOUTS {
                    for t in TRANS {
                        let (seed, n, k, u) = if TWO {
                            (11, 16, 17, Upper)
                        } else {
                            (9, 17, 15, Lower)
                        };
                        if TWO && t == No {
                            continue;
                        }
                        v.push(case(
                            seed,
                            n,
                            k,
                            (u, t, wgblas::Diag::NonUnit),
                            1.0,
                            0.9,
                            [la, *lb, lc],
                        ));
                    }
                }
            }
        }
        // The f64 suite's shapes and scalars; k = 70,000 runs the depth loop past 65,535
        // iterations at a cheap shape.
        let scalars = [(1.0, 0.0), (0.7, 0.9), (0.0, 0.5), (0.0, 0.9), (-1.3, 1.0)];
        for (n, k) in [
            (1, 1),
            (7, 5),
            (9, 4),
            (17, 33),
            (33, 65),
            (65, 3),
            (3, 0),
            (130, 20),
            (2, 70_000),
        ] {
            for &f in &fl {
                for l in [Layout::C, Layout::F, Layout::Strided] {
                    if k == 70_000 && (l != Layout::C || f.1 == Yes) {
                        continue;
                    }
                    for (alpha, beta) in scalars {
                        v.push(case(14, n, k, f, alpha, beta, [l; 3]));
                    }
                }
            }
        }
        v
    }

    crate::describe::level3::spaces_with!(space_with);

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 3, 3).flags(Lower, No, wgblas::Diag::NonUnit);
        let yes = c.flags(Upper, Yes, wgblas::Diag::NonUnit);
        let b = if TWO { (3, 4) } else { (0, 0) };
        let bad = |case, b, cm, error, arg| Bad::mats(case, (3, 4), b, cm, error, arg);
        // op(A) = Aᵀ is 4×3: its 4 rows do not match the order 3 of C. For ssyrk that names
        // `a`; for ssyr2k op(B) = Bᵀ is 4×3 too, so A and B agree on n = 4 and C is the operand
        // that disagrees (`blas::check_shared`'s rule: the odd one of three is named).
        let odd = if TWO { "c" } else { "a" };
        let mut v = vec![
            bad(c, b, (3, 2), "NotSquare", "c"),
            bad(yes, b, (3, 3), "DimensionMismatch", odd),
        ];
        if TWO {
            // op(B) not the shape of op(A): 3×5 against 3×4, then 2×4.
            v.push(bad(c, (3, 5), (3, 3), "DimensionMismatch", "b"));
            v.push(bad(c, (2, 4), (3, 3), "DimensionMismatch", "b"));
        }
        v
    }
}

/// The random cases of syrk and syr2k with dimensions from `dim`.
fn space_with(dim: BoxedStrategy<usize>) -> BoxedStrategy<Case> {
    let dims = (any::<u64>(), dim.clone(), dim, pick(&UPLOS), pick(&TRANS));
    let l = || pick(&LAYOUTS);
    let rest = (scalar(), scalar(), l(), l(), l());
    (dims, rest)
        .prop_map(|((seed, n, k, u, t), (alpha, beta, la, lb, lc))| {
            Case::mnk(seed, n, n, k)
                .flags(u, t, wgblas::Diag::NonUnit)
                .scalars(alpha.into(), beta.into())
                .mats([la, lb, lc])
        })
        .boxed()
}

describe::described_tests!(Syrk, 100, 40);

describe::check_on_fn! {
    /// One case of the description on the context `cx` (`layouts` of A and C).
    Syrk, (seed: u64, (n, k): (usize, usize), uplo: Uplo, trans: Transpose, alpha: f32, beta: f32, [la, lc]: [Layout; 2])
        => Case::mnk(seed, n, n, k).flags(uplo, trans, wgblas::Diag::NonUnit).scalars(alpha.into(), beta.into()).mats([la, Layout::C, lc])
}

#[test]
fn validation_extension_forms() {
    let a = Array2::<f32>::ones((3, 4));
    let mut c = Array2::<f32>::from_elem((3, 2), 9.0);
    let err = a.gpu_syrk_inplace(Lower, 1.0, 0.0, &mut c).unwrap_err();
    describe::assert_named(&err, ("NotSquare", "ssyrk", "c"));
    let err = a
        .gpu_syr2k_inplace(Lower, 1.0, &a, 0.0, &mut c)
        .unwrap_err();
    describe::assert_named(&err, ("NotSquare", "ssyr2k", "c"));
    let mut c = Array2::<f32>::from_elem((3, 3), 9.0);
    for bshape in [(3, 5), (2, 4)] {
        let b = Array2::<f32>::ones(bshape);
        let err = a
            .gpu_syr2k_inplace(Lower, 1.0, &b, 1.0, &mut c)
            .unwrap_err();
        describe::assert_named(&err, ("DimensionMismatch", "ssyr2k", "b"));
    }
    assert_eq!(c, Array2::from_elem((3, 3), 9.0));
}

#[test]
fn past_one_binding() {
    // C of side² f32 just past one binding: its upper triangle in square blocks (issue 15). (A
    // depth past one binding is slow on lavapipe's tiles: tested at a lowered binding in
    // `scale::chunked_ssyrk_and_sgemmtr_triangle_blocks`.)
    let call = |p3: &Array2<f32>, _: &Array2<f32>, c: &mut Array2<f32>| {
        p3.gpu_syrk_inplace(Upper, 2.0, 1.0, c)
    };
    check_past_one_binding(Upper, call, |i, j| (i % 3) * (j % 3));
}

#[test]
fn edge_hand_values() {
    // A·Aᵀ = [[5, 11], [11, 25]], AᵀA = [[10, 14], [14, 20]].
    check_tri_rules("ssyrk", &["values"]);
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let upper = a.gpu_syrk(Upper).unwrap();
    assert_eq!(upper, array![[5.0, 11.0], [0.0, 25.0]]);
    let lower = a.t().gpu_syrk(Lower).unwrap();
    assert_eq!(lower, array![[10.0, 0.0], [14.0, 20.0]]);
}

crate::level3_common::tri_rule_tests!("ssyrk");

#[test]
fn resident_hand_values_mixed_operands_and_alpha_zero() {
    // A·Aᵀ = [[5, 11], [11, 25]]; upper triangle of C ← A·Aᵀ + C, the NaN below it kept.
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let c = array![[1.0f32, 7.0], [f32::NAN, 1.0]];
    for col_major in [false, true] {
        // Resident Aᵀ passed as `.t()` with trans = No: op(A) = A.
        let gat = upload(&a.t().to_owned(), col_major);
        let mut gc = upload(&c, !col_major);
        blas::ssyrk(ctx(), Upper, No, 1.0, gat.t(), 1.0, &mut gc).unwrap();
        let got = gc.to_array().unwrap();
        assert_eq!((got[[0, 0]], got[[0, 1]], got[[1, 1]]), (6.0, 18.0, 26.0));
        assert!(got[[1, 0]].is_nan(), "col-major={col_major}: {got}");
        // The same product from a host A into the resident C, through trans = Yes on Aᵀ.
        blas::ssyrk(ctx(), Upper, Yes, 1.0, a.t(), -1.0, &mut gc).unwrap();
        let got = gc.to_array().unwrap();
        assert_eq!((got[[0, 0]], got[[0, 1]], got[[1, 1]]), (-1.0, -7.0, -1.0));
        assert!(got[[1, 0]].is_nan());
        // alpha = 0 with a NaN resident A: C ← 0.5·C on the triangle, A never read.
        let nan = upload(&Array2::from_elem((2, 2), f32::NAN), col_major);
        blas::ssyrk(ctx(), Upper, No, 0.0, &nan, 0.5, &mut gc).unwrap();
        let got = gc.to_array().unwrap();
        assert_eq!((got[[0, 0]], got[[0, 1]], got[[1, 1]]), (-0.5, -3.5, -0.5));
        assert!(got[[1, 0]].is_nan());
    }
}
