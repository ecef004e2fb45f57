//! sgemm/dgemm and sgemmtr/dgemmtr (one description, `GemmT<TR>`): C ← alpha·op(A)·op(B) +
//! beta·C (on the triangle `uplo` of C for gemmtr). Metric: forward factor (`metrics::spec`,
//! DESIGN.md §2) against OpenBLAS (gemm masked to the triangle for gemmtr: OpenBLAS 0.3.21
//! has no gemmtr). Hand-computed values and the engine's paths below.

use ndarray::{array, Array2, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level2::{random_mat, NETLIB_N, TRANS, UPLOS};
use crate::describe::level3::*;
use crate::describe::{
    self, forward, pick, read_under_beta, scalar, Bad, Case, Id, Ops, Out, Routine, Slots,
};

const SIZES: [usize; 10] = [1, 2, 7, 15, 16, 17, 63, 64, 65, 129];

/// The description of gemm (`TR = false`) and gemmtr (`TR = true`: C square, written on its
/// triangle `uplo` only, the other one kept bit for bit); NaN in C where beta = 0.
pub struct GemmT<const TR: bool>;

/// sgemm and dgemm.
pub type Gemm = GemmT<false>;

impl<const TR: bool> Routine for GemmT<TR> {
    const ID: Id = Id(if TR { "gemmtr" } else { "gemm" }, Out::C);
    const TRIANGLE_ONLY: bool = TR;

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let (ra, ca) = shape(c.trans, c.m, c.k);
        let a = random_mat(r, ra, ca);
        let (rb, cb) = shape(c.transb, c.k, c.n);
        let b = random_mat(r, rb, cb);
        let cm = c_input(r, c.m, c.n, c.beta);
        Ops::mats(a, b, cm)
    }

    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let (alpha, beta) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        let (ta, tb, a, b) = (c.trans, c.transb, s.a.r(), s.b.r());
        if TR {
            T::gemmtr(ctx, c.uplo, ta, tb, alpha, a, b, beta, s.c.w())
        } else {
            T::gemm(ctx, ta, tb, alpha, a, b, beta, s.c.w())
        }
    }

    fn quick(_: &Case) -> bool {
        false
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let (alpha, beta) = (T::from_f64(c.alpha), T::from_f64(c.beta));
        let (ta, tb, al, be) = (c.trans, c.transb, alpha.to_f64(), beta.to_f64());
        let mut want = oracle_c(None, c.beta, &o.c);
        T::o_gemm(ta, tb, alpha, &o.a, &o.b, beta, &mut want);
        let f = o.f64();
        let (a, b) = (f.a.view(), f.b.view());
        let (want, bound) = if TR {
            let bound = bounds::gemmtr(c.uplo, ta, tb, al, a, b, be, f.c.view());
            (merge_triangle(c.uplo, &want, &o.c), bound)
        } else {
            let c0 = read_under_beta(&f.c, c.beta);
            (want, bounds::gemm(ta, tb, al, a, b, be, c0.view()))
        };
        forward(got, want.into_dyn(), bound.into_dyn())
    }

    fn edges() -> Vec<Case> {
        let mut v = Vec::new();
        let case = |seed, (m, n, k), u, ta, tb, alpha, beta, ls| {
            Case::mnk(seed, m, n, k)
                .flags(u, ta, Diag::NonUnit)
                .transb(tb)
                .scalars(alpha, beta)
                .mats(ls)
        };
        let (c, f) = (Layout::C, Layout::F);
        let (no, yes) = (Transpose::No, Transpose::Yes);
        let uplos: &[Uplo] = if TR { &UPLOS } else { &UPLOS[..1] };
        for l in [c, f] {
            for (i, n) in NETLIB_N.into_iter().enumerate() {
                let k = NETLIB_N[(i + 3) % 6];
                // gemm: one shape (9×5×3); gemmtr: the netlib orders.
                let (seed, dims) = if TR {
                    (n as u64, (n, n, k))
                } else {
                    (7, (9, 5, 3))
                };
                if !TR && i > 0 {
                    continue;
                }
                for &u in uplos {
                    for ta in TRANS {
                        for tb in TRANS {
                            for alpha in ALPHAS {
                                for beta in BETAS {
                                    v.push(case(seed, dims, u, ta, tb, alpha, beta, [l; 3]));
                                }
                            }
                        }
                    }
                }
            }
        }
        if TR {
            for n in [15, 16, 17, 127, 128, 129] {
                for u in UPLOS {
                    v.push(case(n as u64, (n, n, 17), u, no, yes, 0.7, 0.9, [f, c, f]));
                }
            }
        }
        let (seed, dims, u, ta, tb) = if TR {
            (5, (17, 17, 16), Uplo::Upper, yes, no)
        } else {
            (3, (17, 15, 16), Uplo::Upper, no, yes)
        };
        for la in LAYOUTS {
            for lb in LAYOUTS {
                for lc in LAYOUTS {
                    v.push(case(seed, dims, u, ta, tb, 1.0, 0.9, [la, lb, lc]));
                }
            }
        }
        // The f64 suite's engine paths.
        if TR {
            for (n, k) in [(1, 1), (9, 4), (33, 17), (130, 20)] {
                for u in UPLOS {
                    for t in TRANS {
                        for l in [c, f, Layout::Strided] {
                            v.push(case(121, (n, n, k), u, t, t, 0.7, 0.9, [l; 3]));
                        }
                    }
                }
            }
        } else {
            // Whole aligned tiles (vec4 staging in f64) and split-k (small C, long k).
            for ta in TRANS {
                for tb in TRANS {
                    v.push(case(11, (128, 128, 64), u, ta, tb, 1.0, 0.5, [c; 3]));
                    v.push(case(12, (128, 128, 64), u, ta, tb, 0.3, 0.0, [f; 3]));
                }
            }
            v.push(case(13, (20, 33, 1000), u, no, no, 0.7, 0.9, [c; 3]));
            v.push(case(14, (65, 9, 517), u, yes, no, 1.0, 0.0, [f; 3]));
        }
        v
    }

    fn space() -> BoxedStrategy<Case> {
        if TR {
            space_with(dim(), true)
        } else {
            space_with(pick(&SIZES), false)
        }
    }

    fn resident_space() -> BoxedStrategy<Case> {
        if TR {
            space_with(resident_dim(), true)
        } else {
            Self::space()
        }
    }

    fn bad() -> Vec<Bad> {
        let u = if TR { Uplo::Upper } else { Uplo::Lower };
        let c = Case::new(0, 3, 3).flags(u, Transpose::No, Diag::NonUnit);
        let yes = c.flags(u, Transpose::Yes, Diag::NonUnit);
        let bad = |case, a, b, cm, error, arg| Bad::mats(case, a, b, cm, error, arg);
        let dm = "DimensionMismatch";
        if TR {
            vec![
                bad(c, (3, 4), (4, 2), (3, 2), "NotSquare", "c"),
                // rows of op(A) ≠ n
                bad(c, (2, 4), (4, 3), (3, 3), dm, "a"),
                // inner dimension: op(B) has 5 rows, op(A) 4 columns
                bad(c, (3, 4), (5, 3), (3, 3), dm, "b"),
                // columns of op(B) ≠ n, seen through the transpose flag
                bad(yes, (4, 3), (4, 2), (3, 3), dm, "b"),
            ]
        } else {
            vec![
                bad(c, (3, 4), (5, 2), (3, 2), dm, "b"),
                bad(c, (3, 4), (4, 2), (2, 2), dm, "c"),
                bad(c, (3, 4), (4, 2), (3, 3), dm, "c"),
                // With a transpose flag the checked shapes are those of op(A), op(B).
                bad(yes, (3, 4), (4, 2), (3, 2), dm, "b"),
            ]
        }
    }

    /// dgemm 1×1×1, alpha = beta = 0, C strided (a failure once).
    fn regressions() -> Vec<Case> {
        if TR {
            Vec::new()
        } else {
            let l = [Layout::C, Layout::C, Layout::Strided];
            vec![Case::mnk(0, 1, 1, 1).scalars(0.0, 0.0).mats(l)]
        }
    }
}

/// The random cases of gemm (`m`, `n`, `k` from `dim`) or gemmtr (`n`, `k` from `dim`).
fn space_with(dim: BoxedStrategy<usize>, tr: bool) -> BoxedStrategy<Case> {
    let dims = (any::<u64>(), dim.clone(), dim.clone(), dim, pick(&UPLOS));
    let flags = (pick(&TRANS), pick(&TRANS), scalar(), scalar());
    let ls = (pick(&LAYOUTS), pick(&LAYOUTS), pick(&LAYOUTS));
    (dims, flags, ls)
        .prop_map(
            move |((seed, m, n, k, u), (ta, tb, alpha, beta), (la, lb, lc))| {
                Case::mnk(seed, if tr { n } else { m }, n, k)
                    .flags(u, ta, Diag::NonUnit)
                    .transb(tb)
                    .scalars(alpha.into(), beta.into())
                    .mats([la, lb, lc])
            },
        )
        .boxed()
}

describe::described_tests!(Gemm, 100, 40);

/// One case of the description on the shared context.
pub(crate) fn check(
    seed: u64,
    dims: (usize, usize, usize),
    ta: Transpose,
    tb: Transpose,
    alpha: f32,
    beta: f32,
    layouts: [Layout; 3],
) {
    check_on(ctx(), seed, dims, ta, tb, alpha, beta, layouts);
}

describe::check_on_fn! {
    /// [`check`] on the context `cx`.
    Gemm, (seed: u64, (m, n, k): (usize, usize, usize), ta: Transpose, tb: Transpose, alpha: f32, beta: f32, layouts: [Layout; 3])
        => Case::mnk(seed, m, n, k).flags(Uplo::Upper, ta, Diag::NonUnit).transb(tb).scalars(alpha.into(), beta.into()).mats(layouts)
}

#[test]
fn validation_extension_forms() {
    let a = Array2::<f32>::ones((3, 4));
    assert!(a.gpu_gemm(&Array2::<f32>::ones((5, 2))).is_err());
    let b = Array2::<f32>::ones((4, 2));
    for shape in [(2, 2), (3, 3)] {
        let mut c = Array2::<f32>::from_elem(shape, 9.0);
        let err = a.gpu_gemm_inplace(1.0, &b, 1.0, &mut c).unwrap_err();
        describe::assert_named(&err, ("DimensionMismatch", "sgemm", "c"));
        assert_eq!(c, Array2::from_elem(shape, 9.0));
    }
}

#[test]
fn past_one_binding() {
    // sgemm 6000×8×6000 (MxNxK): A of 36·10^6 f32 (144 MB) is past lavapipe's 128 MiB
    // binding, so it goes in blocks (rows of C, panels of the depth), against OpenBLAS (issue
    // 15). Depth panels at cheap sizes: `scale::chunked_sgemm_blocks_and_depth_panels` (a depth
    // past 128 MiB, e.g. 2×2×20,000,000, takes minutes on lavapipe's one-workgroup-per-tile
    // kernels).
    check(
        6000,
        (6000, 8, 6000),
        Transpose::No,
        Transpose::No,
        0.7,
        0.9,
        [Layout::C; 3],
    );
}

#[test]
fn edge_hand_values() {
    // [[1,2],[3,4]]·[[5,6],[7,8]] = [[19,22],[43,50]]
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let b = array![[5.0f32, 6.0], [7.0, 8.0]];
    assert_eq!(a.gpu_gemm(&b).unwrap(), array![[19.0, 22.0], [43.0, 50.0]]);
    // Same in F order and through .t(): (Bᵀ·Aᵀ)ᵀ = A·B.
    let af = a.t().as_standard_layout().into_owned().reversed_axes();
    assert_eq!(af.gpu_gemm(&b).unwrap(), array![[19.0, 22.0], [43.0, 50.0]]);
    assert_eq!(
        b.t().gpu_gemm(&a.t()).unwrap().t(),
        array![[19.0, 22.0], [43.0, 50.0]]
    );
    // alpha = 2, beta = -1, C = ones: 2·AB − 1.
    let mut c = Array2::<f32>::ones((2, 2));
    a.gpu_gemm_inplace(2.0, &b, -1.0, &mut c).unwrap();
    assert_eq!(c, array![[37.0, 43.0], [85.0, 99.0]]);
}

#[test]
fn edge_k_zero_gives_beta_c() {
    let a = Array2::<f32>::zeros((3, 0));
    let b = Array2::<f32>::zeros((0, 2));
    let mut c = array![[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]];
    a.gpu_gemm_inplace(1.0, &b, 0.5, &mut c).unwrap();
    assert_eq!(c, array![[0.5, 1.0], [1.5, 2.0], [2.5, 3.0]]);
    // k = 0 and beta = 0: C = 0, even where C held NaN.
    let mut c = Array2::<f32>::from_elem((3, 2), f32::NAN);
    a.gpu_gemm_inplace(1.0, &b, 0.0, &mut c).unwrap();
    assert_eq!(c, Array2::zeros((3, 2)));
}

#[test]
fn edge_beta_zero_never_reads_c() {
    for layout in [Layout::C, Layout::F] {
        let a = array![[1.0f32, 2.0], [3.0, 4.0]];
        let b = array![[1.0f32, 0.0], [0.0, 1.0]];
        let mut c = Mat::new(
            &array![[f32::NAN, f32::INFINITY], [f32::NAN, -f32::INFINITY]],
            layout,
        );
        let no = Transpose::No;
        blas::sgemm(ctx(), no, no, 1.0, a.view(), b.view(), 0.0, c.view_mut()).unwrap();
        assert_eq!(c.to_owned(), a);
    }
}

#[test]
fn edge_alpha_zero_never_reads_a_or_b() {
    let a = Array2::from_elem((2, 3), f32::NAN);
    let b = Array2::from_elem((3, 2), f32::INFINITY);
    let mut c = array![[1.0f32, 2.0], [3.0, 4.0]];
    a.gpu_gemm_inplace(0.0, &b, 2.0, &mut c).unwrap();
    assert_eq!(c, array![[2.0, 4.0], [6.0, 8.0]]);
}

#[test]
fn edge_empty_outputs() {
    let a = Array2::<f32>::ones((0, 4));
    let b = Array2::<f32>::ones((4, 3));
    assert_eq!(a.gpu_gemm(&b).unwrap().dim(), (0, 3));
}

#[test]
fn resident_transposed_view_and_device_scalars() {
    // C = alpha·Aᵀ·B with A passed as `ga.t()` and alpha = 2 computed on the device (4 / 2).
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let b = array![[5.0f32, 6.0], [7.0, 8.0]];
    let ga = ctx().upload_matrix(&a).unwrap();
    let gb = ctx().upload_matrix(&b).unwrap();
    let two = ctx().upload_vector(&array![2.0f32, 0.0]).unwrap();
    let four = wgblas::resident::sdot(ctx(), &two, &two).unwrap();
    let half = wgblas::resident::snrm2(ctx(), &two).unwrap();
    let alpha = four.div(&half).unwrap();
    let mut gc = wgblas::GpuMatrix::zeros(ctx(), (2, 2), wgblas::MatrixLayout::ColMajor).unwrap();
    let no = Transpose::No;
    blas::sgemm(ctx(), no, no, &alpha, ga.t(), &gb, 0.0, &mut gc).unwrap();
    // Aᵀ·B = [[26, 30], [38, 44]]
    assert_eq!(gc.to_array().unwrap(), array![[52.0, 60.0], [76.0, 88.0]]);
}

#[test]
fn edge_whole_aligned_tiles_in_every_storage_order() {
    // 256×256 C with k = 64 (multiples of the tile and of 4): whole tiles whose rows or columns
    // are contiguous and 16-byte aligned, read as vec4s, in all four combinations of storage
    // order (via the trans flags) — and the same with A shifted by one column (unaligned).
    let (lc, lf) = (Layout::C, Layout::F);
    for layouts in [[lc, lc, lc], [lf, lf, lf], [lc, lf, lc], [lf, lc, lf]] {
        for (ta, tb) in trans_pairs() {
            check(11, (256, 256, 64), ta, tb, 1.0, 0.5, layouts);
        }
    }
    let mut r = rng(12);
    let wide = rand_mat(&mut r, 256, 65);
    let a = wide.slice(ndarray::s![.., 1..]);
    let b = rand_mat(&mut r, 64, 256);
    let mut c = Array2::<f32>::zeros((256, 256));
    let no = Transpose::No;
    blas::sgemm(ctx(), no, no, 1.0, a, b.view(), 0.0, c.view_mut()).unwrap();
    let zero = Array2::<f32>::zeros((256, 256));
    let reference = oracle::sgemm(no, no, 1.0, a, b.view(), 0.0, zero.view());
    let bound = bounds::gemm(no, no, 1.0, a, b.view(), 0.0, zero.view());
    let f = metrics::forward_factor(&c, &reference, &bound).unwrap();
    assert!(
        f <= describe::threshold::<Gemm, f32>(),
        "unaligned A: factor {f}"
    );
}

/// Every tile the engine may choose (shape, slab depth, single or double buffer), pinned
/// through the per-thread tuning override, against OpenBLAS at sizes with whole and partial
/// tiles, in every transpose and storage order (C order output, F order output with and
/// without the transposed problem `Cᵀ = Bᵀ·Aᵀ`), vec4 and element-wise staging, with and
/// without edge code on whole tiles.
#[test]
fn engine_every_tile_in_every_storage_order() {
    use wgblas::tuning::{set_tuning, Tile, Tuning};
    // (bm, bn, bk, nbuf): the 128×128 tiles at every depth and double buffered, the two
    // 128×64 shapes, the 64×64 tiles at every depth.
    let square = |b| [(b, b, 16, 2), (b, b, 16, 1), (b, b, 8, 1), (b, b, 32, 1)];
    let mut tiles = square(128).to_vec();
    tiles.extend([(128, 64, 16, 2), (64, 128, 16, 1)]);
    tiles.extend(square(64).into_iter().filter(|&t| t != (64, 64, 16, 1)));
    for (bm, bn, bk, nbuf) in tiles {
        for swap in [true, false] {
            // With the transposed problem, the kernel without edge code where tiles are whole.
            set_tuning(Some(Tuning {
                tile: Some(Tile { bm, bn, bk, nbuf }),
                swap: Some(swap),
                split: Some(1),
                edge: Some(!swap),
                ..Tuning::default()
            }));
            let (lc, lf, ls, lr) = (Layout::C, Layout::F, Layout::Strided, Layout::Reversed);
            // Every storage order and every transpose pair on each tile, each pair in two of the
            // four orders (rotating with the layout), for the CI's 20 minutes on lavapipe.
            let orders = [[lc, lc, lc], [lf, lf, lf], [lc, lf, lf], [ls, lr, lc]];
            for (o, layouts) in orders.into_iter().enumerate() {
                for (t, (ta, tb)) in trans_pairs().enumerate() {
                    if (t + o) % 2 == 1 {
                        continue;
                    }
                    // Whole tiles and aligned slabs (vec4 staging), then edges everywhere.
                    check(21, (128, 128, 64), ta, tb, 1.0, 0.5, layouts);
                    check(22, (131, 67, 37), ta, tb, 0.7, 0.0, layouts);
                }
            }
        }
    }
    set_tuning(None);
}

/// Split-k (partial sums of k slices, then the reduction that applies alpha and beta), pinned
/// at several slice counts, including slices that do not divide k and a last slice shorter
/// than the others; beta = 0 never reads C; alpha = 0 reads neither A nor B nor the partials.
#[test]
fn engine_split_k() {
    use wgblas::tuning::{set_tuning, Tuning};
    for split in [2, 3, 7] {
        set_tuning(Some(Tuning {
            split: Some(split),
            ..Tuning::default()
        }));
        for layouts in [[Layout::C; 3], [Layout::F; 3]] {
            check(
                31,
                (20, 33, 1000),
                Transpose::No,
                Transpose::No,
                1.0,
                0.0,
                layouts,
            );
            check(
                32,
                (65, 9, 517),
                Transpose::Yes,
                Transpose::No,
                0.7,
                0.9,
                layouts,
            );
            check(
                33,
                (3, 130, 300),
                Transpose::No,
                Transpose::Yes,
                -1.0,
                1.0,
                layouts,
            );
        }
        let a = Array2::from_elem((4, 600), f32::NAN);
        let b = Array2::from_elem((600, 3), f32::INFINITY);
        let mut c = Array2::<f32>::from_elem((4, 3), 2.0);
        a.gpu_gemm_inplace(0.0, &b, 0.5, &mut c).unwrap();
        assert_eq!(c, Array2::from_elem((4, 3), 1.0));
    }
    set_tuning(None);
}

/// Packing of operands the vec4 staging cannot read (strided, reversed, unaligned), forced at
/// small sizes through the tuning override, in every transpose.
#[test]
fn engine_packed_operands() {
    use wgblas::tuning::{set_tuning, Tuning};
    set_tuning(Some(Tuning {
        pack: Some(true),
        ..Tuning::default()
    }));
    for (la, lb) in [
        (Layout::Strided, Layout::Reversed),
        (Layout::Reversed, Layout::Strided),
        (Layout::Strided, Layout::C),
    ] {
        for ta in TRANS {
            for tb in TRANS {
                check(41, (130, 70, 45), ta, tb, 1.0, 0.5, [la, lb, Layout::F]);
            }
        }
    }
    set_tuning(None);
}

/// A k far past what lavapipe runs in one invocation (65,535 loop iterations in all): k is
/// split over dispatches of at most 16,384 (2×2×1,100,000, split-k off, then the default with
/// split-k). Hand-computed: A = 1, B = 1/4096 (exact), so every element of C is
/// 1,100,000 / 4096.
#[test]
fn engine_k_past_lavapipes_loop_limit() {
    use wgblas::tuning::{set_tuning, Tuning};
    set_tuning(Some(Tuning {
        split: Some(1),
        ..Tuning::default()
    }));
    let k = 1_100_000;
    let a = Array2::<f32>::ones((2, k));
    let b = Array2::<f32>::from_elem((k, 2), 1.0 / 4096.0);
    let c = a.gpu_gemm(&b).unwrap();
    set_tuning(None);
    // Each partial sum is a multiple of 2^-12 below 2^12: every addition is exact.
    assert_eq!(c, Array2::from_elem((2, 2), k as f32 / 4096.0));
    assert_eq!(
        a.gpu_gemm(&b).unwrap(),
        Array2::from_elem((2, 2), k as f32 / 4096.0)
    );
}

/// The first chooser (`Tuning::chooser_v2` `false`, `tuning::choose`; the default is
/// `tuning::choose_v2`) on shapes where its choice differs from `choose_v2` on this adapter
/// (asserted, so that the test runs choices the default does not make):
/// skinny C along m and along n (fewer or no k slices; k = 300 is below `choose`'s 512 for any
/// split); every transpose, C and F order, edges everywhere.
#[test]
fn engine_first_chooser() {
    use wgblas::tuning::{choose, choose_v2, set_tuning, Tuning};
    let shapes = [(300, 64, 300), (700, 20, 1024), (20, 300, 600)];
    for dims in shapes {
        let (old, new) = (
            choose(ctx().limits(), dims, true),
            choose_v2(ctx().limits(), dims, true),
        );
        assert_ne!(old, new, "{dims:?}: choose_v2 chose as choose does");
    }
    set_tuning(Some(Tuning {
        chooser_v2: Some(false),
        ..Tuning::default()
    }));
    for (s, dims) in shapes.into_iter().enumerate() {
        for layouts in [[Layout::C; 3], [Layout::F; 3]] {
            for (ta, tb) in trans_pairs() {
                check(50 + s as u64, dims, ta, tb, 0.7, 0.9, layouts);
            }
        }
    }
    set_tuning(None);
}

/// The tile engine built without naga's index clamps and loop bounding
/// (`lab::set_shader_checks`): the default tile on whole tiles (the kernel without edge code)
/// and with edges, the double-buffered and rectangular tiles, split-k and packed operands,
/// against OpenBLAS with sgemm's metric.
#[test]
fn engine_without_shader_checks() {
    use wgblas::tuning::{set_tuning, Tile, Tuning};
    for checks in crate::bandwidth::UNCHECKED_MODES {
        crate::bandwidth::with_checks(checks, || {
            let tiles = [
                (128, 128, 16, 1),
                (128, 128, 16, 2),
                (128, 64, 16, 1),
                (64, 64, 8, 2),
            ];
            for (bm, bn, bk, nbuf) in tiles {
                set_tuning(Some(Tuning {
                    tile: Some(Tile { bm, bn, bk, nbuf }),
                    split: Some(1),
                    ..Tuning::default()
                }));
                let (lc, lf) = (Layout::C, Layout::F);
                for (ta, tb) in trans_pairs() {
                    check(61, (128, 128, 64), ta, tb, 1.0, 0.5, [lc, lc, lc]);
                    check(62, (131, 67, 37), ta, tb, 0.7, 0.0, [lf, lf, lf]);
                }
            }
            set_tuning(Some(Tuning {
                split: Some(3),
                pack: Some(true),
                ..Tuning::default()
            }));
            let (ls, lr) = (Layout::Strided, Layout::Reversed);
            check(
                63,
                (65, 9, 517),
                Transpose::Yes,
                Transpose::No,
                0.7,
                0.9,
                [ls, lr, Layout::F],
            );
            set_tuning(None);
        });
    }
}

/// Edge tiles and partial slabs of vec4-readable operands read as guarded vec4s
/// (`Tuning::edge_vec4`, the shader's `VGUARD`), against OpenBLAS: resident operands whose
/// leading dimension is a multiple of 4 but whose sides are not multiples of the tile (nor all
/// of 4), as blocks of larger matrices whose padding is NaN, so that a lane read past m, n or k
/// that reached C would show; C and F order, every transpose, single and double-buffered and
/// rectangular tiles, and split-k (slices ending inside a slab); then bit-equality with the
/// element-wise edge path, which forms the same products in the same order.
#[test]
fn engine_guarded_vec4_edges() {
    use ndarray::ShapeBuilder;
    use wgblas::tuning::{set_tuning, Tile, Tuning};
    // `v` inside a NaN-filled matrix of 4 more rows (F order) or columns (C order), rounded up
    // to a multiple of 4, on the device; the block of `v` is the operand.
    let padded = |v: &Array2<f32>, f_order: bool| {
        let (r, c) = v.dim();
        let big = if f_order {
            (r.div_ceil(4) * 4 + 4, c)
        } else {
            (r, c.div_ceil(4) * 4 + 4)
        };
        let mut full = Array2::from_elem(big.set_f(f_order), f32::NAN);
        full.slice_mut(ndarray::s![..r, ..c]).assign(v);
        ctx().upload_matrix(&full).unwrap()
    };
    let tiles = [
        (128, 128, 16, 1),
        (128, 128, 16, 2),
        (64, 64, 8, 2),
        (128, 64, 16, 1),
    ];
    let mut r = rng(71);
    for (m, n, k) in [(131, 67, 37), (132, 68, 44), (3, 5, 2), (70, 130, 203)] {
        for f_order in [false, true] {
            for (ta, tb) in trans_pairs() {
                let sa = if ta == Transpose::No { (m, k) } else { (k, m) };
                let sb = if tb == Transpose::No { (k, n) } else { (n, k) };
                let (a, b, c0) = (
                    rand_mat(&mut r, sa.0, sa.1),
                    rand_mat(&mut r, sb.0, sb.1),
                    rand_mat(&mut r, m, n),
                );
                let (ga, gb) = (padded(&a, f_order), padded(&b, f_order));
                let reference = oracle::sgemm(ta, tb, 0.7, a.view(), b.view(), 0.5, c0.view());
                let bound = bounds::gemm(ta, tb, 0.7, a.view(), b.view(), 0.5, c0.view());
                let run = |tuning: Tuning| {
                    set_tuning(Some(tuning));
                    let mut gc = ctx().upload_matrix(&c0).unwrap();
                    let (va, vb) = (ga.slice(..sa.0, ..sa.1), gb.slice(..sb.0, ..sb.1));
                    blas::sgemm(ctx(), ta, tb, 0.7, va.unwrap(), vb.unwrap(), 0.5, &mut gc)
                        .unwrap();
                    set_tuning(None);
                    gc.to_array().unwrap()
                };
                let mut variants: Vec<Tuning> = tiles
                    .iter()
                    .map(|&(bm, bn, bk, nbuf)| Tuning {
                        tile: Some(Tile { bm, bn, bk, nbuf }),
                        split: Some(1),
                        ..Tuning::default()
                    })
                    .collect();
                variants.push(Tuning {
                    split: Some(3),
                    ..Tuning::default()
                });
                for t in variants {
                    let guarded = run(Tuning {
                        edge_vec4: Some(true),
                        ..t
                    });
                    let f = metrics::forward_factor(&guarded, &reference, &bound).unwrap();
                    let what = format!("{m}x{n}x{k} {ta:?}{tb:?} F={f_order} {t:?}");
                    assert!(
                        f <= describe::threshold::<Gemm, f32>(),
                        "{what}: factor {f}"
                    );
                    let plain = run(Tuning {
                        edge_vec4: Some(false),
                        ..t
                    });
                    assert!(
                        guarded
                            .iter()
                            .zip(&plain)
                            .all(|(x, y)| x.to_bits() == y.to_bits()),
                        "{what}: guarded vec4 and element-wise edges differ"
                    );
                }
            }
        }
    }
}
