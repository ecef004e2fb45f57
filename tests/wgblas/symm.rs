//! ssymm and dsymm: C ← alpha·A·B + beta·C (left) or alpha·B·A + beta·C (right), A symmetric
//! in its triangle `uplo`. Metric: forward factor (`metrics::spec`, DESIGN.md §2) against
//! OpenBLAS. The description drives validation, fixtures, edges and the resident form;
//! hand-computed values below.

use ndarray::{array, Array2, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::bounds;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level2::{full_sym, random_mat, NETLIB_N, UPLOS};
use crate::describe::level3::*;
use crate::describe::{self, forward, pick, scalar, Bad, Case, Id, Ops, Out, Routine, Slots};
use crate::level3_common::upload;
use wgblas::{
    Diag::NonUnit,
    Side::{Left, Right},
    Transpose::No,
    Uplo::{Lower, Upper},
};

/// The description of symm: A symmetric in its triangle `uplo` (NaN in the other one, never
/// read), of order m (left) or n (right); NaN in C where beta = 0.
pub struct Symm;

impl Routine for Symm {
    const ID: Id = Id("symm", Out::C);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let a = symmetric_storage(r, order(c.side, c.m, c.n), c.uplo);
        let b = random_mat(r, c.m, c.n);
        let cm = c_input(r, c.m, c.n, c.beta);
        Ops::mats(a, b, cm)
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let (alpha, beta) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        T::symm(ctx, c.side, c.uplo, alpha, s.a.r(), s.b.r(), beta, s.c.w())
    }

    fn quick(_: &Case) -> bool {
        false
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let (alpha, beta) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        let mut want = oracle_c(None, c.beta, &o.c);
        T::o_symm(
            c.side,
            c.uplo,
            alpha,
            &full_sym(c.uplo, &o.a),
            &o.b,
            beta,
            &mut want,
        );
        let f = o.f64();
        let (al, be) = (alpha.to_f64(), beta.to_f64());
        let bound = bounds::symm(c.side, c.uplo, al, f.a.view(), f.b.view(), be, f.c.view());
        forward(got, want.into_dyn(), bound.into_dyn())
    }

    fn edges() -> Vec<Case> {
        let mut v = Vec::new();
        let case = |seed, m, n, s, u, alpha, beta, ls| {
            Case::new(seed, m, n)
                .side(s)
                .flags(u, No, NonUnit)
                .scalars(alpha, beta)
                .mats(ls)
        };
        let (c, f) = (Layout::C, Layout::F);
        for l in [c, f] {
            for (i, m) in NETLIB_N.into_iter().enumerate() {
                let n = NETLIB_N[(i + 2) % 6];
                for s in SIDES {
                    for u in UPLOS {
                        for alpha in ALPHAS {
                            for beta in BETAS {
                                v.push(case(m as u64, m, n, s, u, alpha, beta, [l; 3]));
                            }
                        }
                    }
                }
            }
        }
        for m in [15, 16, 17, 127, 128, 129] {
            for s in SIDES {
                for u in UPLOS {
                    v.push(case(m as u64, m, 17, s, u, 0.7, 0.9, [c, f, c]));
                }
            }
        }
        for la in LAYOUTS {
            for lb in LAYOUTS {
                for lc in LAYOUTS {
                    v.push(case(13, 17, 16, Right, Lower, 1.0, 0.9, [la, lb, lc]));
                }
            }
        }
        // The f64 suite's shapes.
        for (m, n) in [(1, 1), (9, 5), (33, 17), (20, 130)] {
            for s in SIDES {
                for u in UPLOS {
                    for l in [c, f, Layout::Reversed] {
                        v.push(case(111, m, n, s, u, 0.7, 0.9, [l; 3]));
                    }
                }
            }
        }
        v
    }

    crate::describe::level3::spaces_with!(space_with);

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 3, 2).flags(Lower, No, NonUnit);
        let right = c.side(Right);
        let upper = c.flags(Upper, No, NonUnit);
        let bad = |case, a, cm, error, arg| Bad::mats(case, a, (3, 2), cm, error, arg);
        let dm = "DimensionMismatch";
        vec![
            bad(c, (3, 2), (3, 2), "NotSquare", "a"),
            // Right: the order of A must be the 2 columns of B.
            bad(right, (3, 3), (3, 2), dm, "a"),
            bad(upper, (3, 3), (2, 2), dm, "c"),
            bad(upper, (3, 3), (3, 3), dm, "c"),
        ]
    }
}

/// The random cases of symm with `m` and `n` from `dim`.
fn space_with(dim: BoxedStrategy<usize>) -> BoxedStrategy<Case> {
    let dims = (any::<u64>(), dim.clone(), dim, pick(&SIDES), pick(&UPLOS));
    let l = || pick(&LAYOUTS);
    let rest = (scalar(), scalar(), l(), l(), l());
    (dims, rest)
        .prop_map(|((seed, m, n, s, u), (alpha, beta, la, lb, lc))| {
            Case::new(seed, m, n)
                .side(s)
                .flags(u, No, NonUnit)
                .scalars(alpha.into(), beta.into())
                .mats([la, lb, lc])
        })
        .boxed()
}

describe::described_tests!(Symm, 100, 40);

describe::check_on_fn! {
    /// One case of the description on the context `cx`.
    Symm, (seed: u64, (m, n): (usize, usize), side: Side, uplo: Uplo, alpha: f32, beta: f32, layouts: [Layout; 3])
        => Case::new(seed, m, n).side(side).flags(uplo, No, NonUnit).scalars(alpha.into(), beta.into()).mats(layouts)
}

#[test]
fn validation_extension_forms() {
    let (a, b) = (Array2::<f32>::ones((3, 3)), Array2::<f32>::ones((3, 2)));
    let mut c = Array2::<f32>::from_elem((3, 2), 9.0);
    let err = Array2::<f32>::ones((3, 2))
        .gpu_symm_inplace(Left, Lower, 1.0, &b, 0.0, &mut c)
        .unwrap_err();
    describe::assert_named(&err, ("NotSquare", "ssymm", "a"));
    let err = a
        .gpu_symm_inplace(Right, Lower, 1.0, &b, 0.0, &mut c)
        .unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "ssymm", "a"));
    assert!(a.gpu_symm(Right, Upper, &b).is_err());
    assert_eq!(c, Array2::from_elem((3, 2), 9.0));
}

#[test]
fn past_one_binding() {
    // A of side² f32 past one binding, only its lower triangle stored (NaN above): square
    // blocks, the mirrored ones read from the stored ones (issue 15). C = A·B with
    // A_ij = (i + j) mod 3 and B = 1 (side×1): C_i = Σ_j (i + j) mod 3, exact.
    let side = side_past_one_binding();
    let a = Array2::from_shape_fn((side, side), |(i, j)| {
        if i >= j {
            ((i + j) % 3) as f32
        } else {
            f32::NAN
        }
    });
    let b = Array2::<f32>::ones((side, 1));
    let mut c = Array2::<f32>::from_elem((side, 1), f32::NAN);
    a.gpu_symm_inplace(Left, Lower, 1.0, &b, 0.0, &mut c)
        .unwrap();
    let want = |i: usize| (0..side).map(|j| ((i + j) % 3) as f32).sum::<f32>();
    for i in [0, 1, 2, side / 2, side - 1] {
        assert_eq!(c[[i, 0]], want(i), "C[{i}]");
    }
    assert!(c.iter().all(|v| v.is_finite()));
}

#[test]
fn edge_hand_values() {
    // A = [[1, 2], [2, 3]] stored in either triangle (NaN in the other), B = [[1, 1], [0, 1]].
    // A·B = [[1, 3], [2, 5]], B·A = [[3, 5], [2, 3]].
    let stored = [
        (Upper, array![[1.0f32, 2.0], [f32::NAN, 3.0]]),
        (Lower, array![[1.0f32, f32::NAN], [2.0, 3.0]]),
    ];
    let b = array![[1.0f32, 1.0], [0.0, 1.0]];
    for (uplo, a) in stored {
        for layout in [Layout::C, Layout::F] {
            let sa = Mat::new(&a, layout);
            let mut c = Mat::new(&array![[1.0f32, 1.0], [1.0, 1.0]], layout);
            blas::ssymm(
                ctx(),
                Left,
                uplo,
                2.0,
                sa.view(),
                b.view(),
                -1.0,
                c.view_mut(),
            )
            .unwrap();
            assert_eq!(c.to_owned(), array![[1.0, 5.0], [3.0, 9.0]]);
        }
        assert_eq!(
            a.gpu_symm(Right, uplo, &b).unwrap(),
            array![[3.0, 5.0], [2.0, 3.0]]
        );
    }
}

#[test]
fn edge_beta_zero_never_reads_c_alpha_zero_never_reads_a_b() {
    let a = array![[1.0f32, f32::NAN], [2.0, 3.0]];
    let id = array![[1.0f32, 0.0], [0.0, 1.0]];
    let mut c = array![[f32::NAN, f32::INFINITY], [f32::NAN, -f32::INFINITY]];
    a.gpu_symm_inplace(Left, Lower, 1.0, &id, 0.0, &mut c)
        .unwrap();
    assert_eq!(c, array![[1.0, 2.0], [2.0, 3.0]]);
    let nan = Array2::from_elem((2, 2), f32::NAN);
    let mut c = array![[1.0f32, 2.0], [3.0, 4.0]];
    nan.gpu_symm_inplace(Right, Upper, 0.0, &nan, 2.0, &mut c)
        .unwrap();
    assert_eq!(c, array![[2.0, 4.0], [6.0, 8.0]]);
}

#[test]
fn edge_empty() {
    let a = Array2::<f32>::zeros((0, 0));
    let b = Array2::<f32>::zeros((0, 3));
    assert_eq!(a.gpu_symm(Left, Lower, &b).unwrap().dim(), (0, 3));
}

#[test]
fn resident_hand_values_nan_triangle_and_mixed_operands() {
    // A = [[1, 2], [2, 3]] stored in its upper triangle, NaN below (never read), on the device.
    let a = array![[1.0f32, 2.0], [f32::NAN, 3.0]];
    let b = array![[1.0f32, 1.0], [0.0, 1.0]];
    for col_major in [false, true] {
        let ga = upload(&a, col_major);
        // Left, host B, resident C (beta = 0: its NaNs are never read): A·B = [[1, 3], [2, 5]].
        let mut gc = upload(&Array2::from_elem((2, 2), f32::NAN), !col_major);
        blas::ssymm(ctx(), Left, Upper, 1.0, &ga, &b, 0.0, &mut gc).unwrap();
        assert_eq!(gc.to_array().unwrap(), array![[1.0, 3.0], [2.0, 5.0]]);
        // Right, resident B, the resident C as input: C ← 2·B·A − C = [[6, 10], [4, 6]] − C.
        let gb = upload(&b, col_major);
        blas::ssymm(ctx(), Right, Upper, 2.0, &ga, &gb, -1.0, &mut gc).unwrap();
        assert_eq!(gc.to_array().unwrap(), array![[5.0, 7.0], [2.0, 1.0]]);
        // Resident A and B, host C.
        let mut hc = Array2::<f32>::zeros((2, 2));
        blas::ssymm(ctx(), Right, Upper, 1.0, &ga, &gb, 0.0, &mut hc).unwrap();
        assert_eq!(hc, array![[3.0, 5.0], [2.0, 3.0]]);
    }
}
