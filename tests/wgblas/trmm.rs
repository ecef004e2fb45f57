//! strmm and dtrmm: B ← alpha·op(A)·B (left) or alpha·B·op(A) (right), A triangular. Metric:
//! forward factor (`metrics::spec`, DESIGN.md §2) against OpenBLAS. The description drives
//! validation, fixtures, edges and the resident form; hand-computed values below.

use ndarray::{array, Array2, ArrayViewD, ShapeBuilder};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::bounds;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level2::{
    clean_tri, flags, random_mat, tri_stored, DIAGS, NETLIB_N, TRANS, UPLOS,
};
use crate::describe::level3::*;
use crate::describe::{self, forward, pick, scalar, Bad, Case, Id, Ops, Out, Routine, Slots};
use crate::level3_common::{tri_clean, upload};
use wgblas::{
    Diag::{NonUnit, Unit},
    Side::{Left, Right},
    Transpose::{No, Yes},
    Uplo::{Lower, Upper},
};

/// The description of trmm: A triangular of order m (left) or n (right), NaN outside its
/// triangle and on a unit diagonal (never read), diagonal magnitudes in [1e-3, 1 + 1e-3].
pub struct Trmm;

impl Routine for Trmm {
    const ID: Id = Id("trmm", Out::B);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let a = tri_stored(r, order(c.side, c.m, c.n), c.uplo, c.diag, 1e-3, 1.0);
        let b = random_mat(r, c.m, c.n);
        Ops::mats(a, b, Array2::from_shape_vec((0, 0), Vec::new()).unwrap())
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let alpha = T::from_f64(c.alpha);
        T::trmm(
            ctx,
            c.side,
            c.uplo,
            c.trans,
            c.diag,
            alpha,
            s.a.r(),
            s.b.w(),
        )
    }

    fn quick(_: &Case) -> bool {
        false
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let alpha = T::from_f64(c.alpha);
        let (s, u, t, d) = (c.side, c.uplo, c.trans, c.diag);
        let mut want = o.b.clone();
        T::o_trmm(s, u, t, d, alpha, &clean_tri(u, d, &o.a), &mut want);
        let f = o.f64();
        let bound = bounds::trmm(s, u, t, d, alpha.to_f64(), f.a.view(), f.b.view());
        forward(got, want.into_dyn(), bound.into_dyn())
    }

    fn edges() -> Vec<Case> {
        let mut v = Vec::new();
        let case = |seed, m, n, s, (u, t, d), alpha, [la, lb]: [Layout; 2]| {
            Case::new(seed, m, n)
                .side(s)
                .flags(u, t, d)
                .scalars(alpha, 0.0)
                .mats([la, lb, Layout::C])
        };
        let (c, f) = (Layout::C, Layout::F);
        let every = flags(true, true, true);
        for l in [c, f] {
            for (i, m) in NETLIB_N.into_iter().enumerate() {
                let n = NETLIB_N[(i + 2) % 6];
                for s in SIDES {
                    for &fl in &every {
                        for alpha in ALPHAS {
                            v.push(case(m as u64, m, n, s, fl, alpha, [l; 2]));
                        }
                    }
                }
            }
        }
        // 127/128/129: the triangular k range starts or ends inside / at / past a 128 tile.
        for m in [15, 16, 17, 127, 128, 129] {
            for s in SIDES {
                for &fl in &flags(true, true, false) {
                    v.push(case(m as u64, m, 9, s, fl, 0.7, [c, f]));
                }
            }
        }
        for la in LAYOUTS {
            for lb in LAYOUTS {
                for s in SIDES {
                    let fl = (Lower, Yes, Unit);
                    v.push(case(17, 17, 16, s, fl, 1.0, [la, lb]));
                }
            }
        }
        // The f64 suite's shapes.
        for (m, n) in [(1, 1), (9, 5), (33, 17), (20, 130)] {
            for s in SIDES {
                for &fl in &every {
                    v.push(case(131, m, n, s, fl, 0.7, [f, c]));
                }
            }
        }
        v
    }

    crate::describe::level3::spaces_with!(space_with);

    fn bad() -> Vec<Bad> {
        let c = Case::new(0, 3, 2).flags(Lower, No, NonUnit);
        let right = c.side(Right).flags(Upper, Yes, Unit);
        let bad = |case, a, error, arg| Bad::mats(case, a, (3, 2), (0, 0), error, arg);
        vec![
            bad(c, (3, 2), "NotSquare", "a"),
            bad(right, (3, 3), "DimensionMismatch", "b"),
        ]
    }
}

/// The random cases of trmm with `m` and `n` from `dim`.
fn space_with(dim: BoxedStrategy<usize>) -> BoxedStrategy<Case> {
    let dims = (any::<u64>(), dim.clone(), dim, pick(&SIDES));
    let fl = (pick(&UPLOS), pick(&TRANS), pick(&DIAGS));
    let rest = (scalar(), pick(&LAYOUTS), pick(&LAYOUTS));
    (dims, fl, rest)
        .prop_map(|((seed, m, n, s), (u, t, d), (alpha, la, lb))| {
            Case::new(seed, m, n)
                .side(s)
                .flags(u, t, d)
                .scalars(alpha.into(), 0.0)
                .mats([la, lb, Layout::C])
        })
        .boxed()
}

describe::described_tests!(Trmm, 100, 40);

describe::check_on_fn! {
    /// One case of the description on the context `cx` (`layouts` of A and B).
    Trmm, (seed: u64, (m, n): (usize, usize), side: Side, uplo: Uplo, trans: Transpose, diag: Diag, alpha: f32, [la, lb]: [Layout; 2])
        => Case::new(seed, m, n).side(side).flags(uplo, trans, diag).scalars(alpha.into(), 0.0).mats([la, lb, Layout::C])
}

#[test]
fn validation_extension_forms() {
    let mut b = Array2::<f32>::from_elem((3, 2), 9.0);
    let err = Array2::<f32>::ones((3, 2))
        .gpu_trmm_inplace(Left, Lower, No, NonUnit, 1.0, &mut b)
        .unwrap_err();
    describe::assert_named(&err, ("NotSquare", "strmm", "a"));
    let (a, bt) = (Array2::<f32>::ones((3, 3)), Array2::<f32>::ones((2, 3)));
    assert!(a.gpu_trmm(Left, Lower, No, NonUnit, &bt).is_err());
    assert_eq!(b, Array2::from_elem((3, 2), 9.0));
}

#[test]
fn past_one_binding() {
    // A of side² f32 past one binding, upper with a unit diagonal (NaN below and on the
    // diagonal, never read): square blocks, those below the diagonal skipped (issue 15).
    // B ← 2·A·B with A_ij = 1 above the diagonal and B = 1: 2·(side − i), exact.
    let side = side_past_one_binding();
    let a = Array2::from_shape_fn((side, side), |(i, j)| if i < j { 1.0f32 } else { f32::NAN });
    let mut b = Array2::<f32>::ones((side, 1));
    a.gpu_trmm_inplace(Left, Upper, No, Unit, 2.0, &mut b)
        .unwrap();
    assert!(b
        .iter()
        .enumerate()
        .all(|(i, &v)| v == 2.0 * (side - i) as f32));
}

#[test]
fn edge_hand_values() {
    // T = [[2, 1], [0, 3]] (upper); unit: [[1, 1], [0, 1]]. B = [[1, 2], [3, 4]].
    // T·B = [[5, 8], [9, 12]], Tᵀ·B = [[2, 4], [10, 14]], B·T = [[2, 7], [6, 15]].
    let t = array![[2.0f32, 1.0], [f32::NAN, 3.0]];
    let b = array![[1.0f32, 2.0], [3.0, 4.0]];
    let (l, u, no, yes) = (Left, Upper, No, Yes);
    for layout in [Layout::C, Layout::F] {
        let st = Mat::new(&t, layout);
        let mut sb = Mat::new(&b, layout);
        blas::strmm(ctx(), l, u, no, NonUnit, 1.0, st.view(), sb.view_mut()).unwrap();
        assert_eq!(sb.to_owned(), array![[5.0, 8.0], [9.0, 12.0]]);
        let mut sb = Mat::new(&b, layout);
        blas::strmm(ctx(), l, u, yes, NonUnit, 1.0, st.view(), sb.view_mut()).unwrap();
        assert_eq!(sb.to_owned(), array![[2.0, 4.0], [10.0, 14.0]]);
    }
    assert_eq!(
        t.gpu_trmm(Right, u, no, NonUnit, &b).unwrap(),
        array![[2.0, 7.0], [6.0, 15.0]]
    );
    // Unit diagonal: NaN there is never read. [[1, 1], [0, 1]]·B = [[4, 6], [3, 4]].
    let tu = array![[f32::NAN, 1.0], [f32::NAN, f32::NAN]];
    assert_eq!(
        tu.gpu_trmm(l, u, no, Unit, &b).unwrap(),
        array![[4.0, 6.0], [3.0, 4.0]]
    );
}

#[test]
fn edge_alpha_zero_never_reads_a_or_b() {
    let nan = Array2::from_elem((2, 2), f32::NAN);
    let mut b = array![[f32::NAN, 1.0], [f32::INFINITY, 2.0]];
    nan.gpu_trmm_inplace(Right, Lower, No, NonUnit, 0.0, &mut b)
        .unwrap();
    assert_eq!(b, Array2::zeros((2, 2)));
}

#[test]
fn resident_hand_values_mixed_operands() {
    // Lower triangle with a unit diagonal: [[1, 0], [3, 1]]; the NaNs are never read.
    let a = array![[f32::NAN, f32::NAN], [3.0f32, f32::NAN]];
    let b = array![[1.0f32, 2.0], [3.0, 4.0]];
    for col_major in [false, true] {
        let ga = upload(&a, col_major);
        // Left, resident A and B: 2·A·B = [[2, 4], [12, 20]].
        let mut gb = upload(&b, !col_major);
        blas::strmm(ctx(), Left, Lower, No, Unit, 2.0, &ga, &mut gb).unwrap();
        assert_eq!(gb.to_array().unwrap(), array![[2.0, 4.0], [12.0, 20.0]]);
        // Right, host A as `.t()` of the upper storage, resident B: B·A = [[7, 2], [15, 4]].
        let at = a.t().to_owned();
        let mut gb = upload(&b, col_major);
        blas::strmm(ctx(), Right, Upper, Yes, Unit, 1.0, &at, &mut gb).unwrap();
        assert_eq!(gb.to_array().unwrap(), array![[7.0, 2.0], [15.0, 4.0]]);
        // Resident A, host B.
        let mut hb = b.clone();
        blas::strmm(ctx(), Right, Lower, No, Unit, 1.0, &ga, &mut hb).unwrap();
        assert_eq!(hb, array![[7.0, 2.0], [15.0, 4.0]]);
    }
}

#[test]
fn resident_alpha_zero_zeroes_b_on_the_device_and_checks_the_context() {
    let nan = Array2::from_elem((3, 2), f32::NAN);
    let a = Array2::from_elem((3, 3), f32::NAN);
    for col_major in [false, true] {
        let ga = upload(&a, col_major);
        let mut gb = upload(&nan, col_major);
        blas::strmm(ctx(), Left, Upper, No, NonUnit, 0.0, &ga, &mut gb).unwrap();
        assert_eq!(gb.to_array().unwrap(), Array2::<f32>::zeros((3, 2)));
    }
    // A resident B of another context is refused even where it would only be zeroed, and is
    // left as it was.
    let own = wgblas::Context::new().unwrap();
    let mut gb = own.upload_matrix(&array![[1.0f32, 2.0]]).unwrap();
    let err = blas::strmm(
        ctx(),
        Right,
        Upper,
        No,
        NonUnit,
        0.0,
        &array![[1.0f32, 2.0], [0.0, 1.0]],
        &mut gb,
    )
    .unwrap_err();
    describe::assert_named(&err, ("InvalidArgument", "strmm", "b"));
    assert_eq!(gb.to_array().unwrap(), array![[1.0, 2.0]]);
}

#[test]
fn resident_threads_reusing_pooled_buffers_keep_queue_order() {
    // Each call uploads a host A into a pooled buffer and computes into a pooled scratch, both
    // returned to the pool while the commands that read them are still held back; other threads
    // take those buffers at once. Small integers: every product is exact.
    let handles: Vec<_> = (0..8)
        .map(|t| {
            std::thread::spawn(move || {
                for it in 0..40 {
                    let s = (t * 31 + it) as f32;
                    let a = Array2::from_shape_fn((8, 8), |(i, j)| {
                        if i <= j {
                            ((i + 2 * j) % 5) as f32 + 1.0
                        } else {
                            f32::NAN
                        }
                    });
                    let b = Array2::from_shape_fn((8, 6), |(i, j)| ((i * 7 + j) % 4) as f32 + s);
                    let mut gb = upload(&b, it % 2 == 0);
                    blas::strmm(ctx(), Left, Upper, No, NonUnit, 1.0, &a, &mut gb).unwrap();
                    let expected = tri_clean(&a, Upper, NonUnit).dot(&b);
                    assert_eq!(gb.to_array().unwrap(), expected, "thread {t} call {it}");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

/// Products with the unreferenced triangle are not part of the formula: an Inf of B that only
/// the zero triangle of A would meet stays out of C (DESIGN.md §3), on the engine's edge path
/// (3×3) and on whole tiles (128×128, vec4 staging). Hand-computed: A lower with A_ii = 2 on the
/// diagonal and 1 below it, B = ones with B(n−1, 0) = Inf: X(i, 0) = 2 + i for i < n − 1,
/// X(n−1, 0) = Inf.
#[test]
fn edge_inf_in_b_does_not_meet_the_unreferenced_triangle() {
    for n in [3usize, 128] {
        let a = Array2::from_shape_fn((n, n), |(i, j)| {
            if i == j {
                2.0f32
            } else if i > j {
                1.0
            } else {
                f32::NAN
            }
        });
        let mut b = Array2::<f32>::ones((n, n));
        b[[n - 1, 0]] = f32::INFINITY;
        blas::strmm(ctx(), Left, Lower, No, NonUnit, 1.0, a.view(), b.view_mut()).unwrap();
        for i in 0..n - 1 {
            assert_eq!(b[[i, 0]], 2.0 + i as f32, "n = {n}, row {i}");
        }
        assert_eq!(b[[n - 1, 0]], f32::INFINITY);
    }
}

/// The rows of tiles taken longest k range first (`Tuning::tri_heavy_first`, the shader's
/// `HEAVY_FIRST`) against the grid's order: on 64×64 tiles, products of several rows and columns
/// of tiles (the last ones partial), every side, triangle, transpose and diagonal, each checked
/// against OpenBLAS with the forward factor, then bit-equal between the two orders (each tile
/// forms the same sums in the same order whichever workgroup takes it). (The unit diagonal only
/// changes the pack, not the order: `edges` covers it.)
#[test]
fn heavy_first_tile_order() {
    use wgblas::tuning::{set_tuning, Tile, Tuning};
    let mut r = rng(83);
    for (m, n) in [(200, 150), (129, 257)] {
        for s in SIDES {
            for &(u, t, d) in &flags(true, true, false) {
                let a = tri_stored::<f32>(&mut r, order(s, m, n), u, d, 1e-3, 1.0);
                let b = random_mat::<f32>(&mut r, m, n);
                let mut want = b.clone();
                f32::o_trmm(s, u, t, d, 0.7, &clean_tri(u, d, &a), &mut want);
                let (fa, fb) = (a.mapv(f64::from), b.mapv(f64::from));
                let bound = bounds::trmm(s, u, t, d, 0.7, fa.view(), fb.view());
                let run = |heavy: bool| {
                    set_tuning(Some(Tuning {
                        tile: Some(Tile {
                            bm: 64,
                            bn: 64,
                            bk: 16,
                            nbuf: 1,
                        }),
                        tri_heavy_first: Some(heavy),
                        ..Tuning::default()
                    }));
                    let mut got = b.clone();
                    let res = blas::strmm(ctx(), s, u, t, d, 0.7, a.view(), got.view_mut());
                    set_tuning(None);
                    res.unwrap();
                    got
                };
                let (heavy, grid) = (run(true), run(false));
                let what = format!("{m}x{n} {s:?} {u:?} {t:?} {d:?}");
                let f = forward(heavy.view().into_dyn(), want.into_dyn(), bound.into_dyn());
                assert!(
                    f <= describe::threshold::<Trmm, f32>(),
                    "{what}: factor {f}"
                );
                assert!(
                    heavy
                        .iter()
                        .zip(&grid)
                        .all(|(x, y)| x.to_bits() == y.to_bits()),
                    "{what}: heavy-first and grid order differ"
                );
            }
        }
    }
}

/// k in chunks of one dispatch each (`Tuning::k_chunk`, 16,384 by default: 64 here, so that
/// m, n = 200 and 150 take 4 and 3 chunks), with B in C and in F order (F order, and every
/// right-side product, runs as the transposed problem, the triangle on the engine's B, the
/// shader's K_TRI 3 and 4): each triangle keeps its diagonal where it is in the whole product.
/// Every side, triangle, transpose and diagonal, checked against OpenBLAS with the forward
/// factor; then, hand-computed as in `edge_inf_in_b_does_not_meet_the_unreferenced_triangle`,
/// an Inf of B met only by the zero triangle stays out of C. Before the chunks carried their
/// depth (`kbase`), an upper triangle lost the products of every chunk after the first
/// (factor ≫ 1), and a lower one met the zero triangle (NaN in rows of the later chunks).
#[test]
fn k_chunks_keep_the_triangle() {
    use wgblas::tuning::{set_tuning, Tuning};
    let chunked = || {
        set_tuning(Some(Tuning {
            k_chunk: Some(64),
            ..Tuning::default()
        }))
    };
    let mut r = rng(89);
    for (m, n) in [(200, 150), (150, 200)] {
        for s in SIDES {
            for &(u, t, d) in &flags(true, true, true) {
                for f_order in [false, true] {
                    let a = tri_stored::<f32>(&mut r, order(s, m, n), u, d, 1e-3, 1.0);
                    let b0 = random_mat::<f32>(&mut r, m, n);
                    let mut want = b0.clone();
                    f32::o_trmm(s, u, t, d, 0.7, &clean_tri(u, d, &a), &mut want);
                    let (fa, fb) = (a.mapv(f64::from), b0.mapv(f64::from));
                    let bound = bounds::trmm(s, u, t, d, 0.7, fa.view(), fb.view());
                    let mut got = if f_order {
                        let mut g = Array2::zeros((m, n).f());
                        g.assign(&b0);
                        g
                    } else {
                        b0.clone()
                    };
                    chunked();
                    let res = blas::strmm(ctx(), s, u, t, d, 0.7, a.view(), got.view_mut());
                    set_tuning(None);
                    res.unwrap();
                    let what = format!("{m}x{n} {s:?} {u:?} {t:?} {d:?} F order {f_order}");
                    let f = forward(got.view().into_dyn(), want.into_dyn(), bound.into_dyn());
                    assert!(
                        f <= describe::threshold::<Trmm, f32>(),
                        "{what}: factor {f}"
                    );
                }
            }
        }
    }
    for n in [128usize, 200] {
        let a = Array2::from_shape_fn((n, n), |(i, j)| {
            if i == j {
                2.0f32
            } else if i > j {
                1.0
            } else {
                f32::NAN
            }
        });
        for f_order in [false, true] {
            let mut b = if f_order {
                Array2::<f32>::ones((n, n).f())
            } else {
                Array2::<f32>::ones((n, n))
            };
            b[[n - 1, 0]] = f32::INFINITY;
            chunked();
            let res = blas::strmm(ctx(), Left, Lower, No, NonUnit, 1.0, a.view(), b.view_mut());
            set_tuning(None);
            res.unwrap();
            for i in 0..n - 1 {
                assert_eq!(
                    b[[i, 0]],
                    2.0 + i as f32,
                    "n = {n}, F order {f_order}, row {i}"
                );
            }
            assert_eq!(b[[n - 1, 0]], f32::INFINITY);
        }
    }
}
