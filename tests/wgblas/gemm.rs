//! sgemm: C ← alpha·op(A)·op(B) + beta·C. Metric: forward factor ≤ 1 (DESIGN.md §2).

use ndarray::{array, Array2};
use proptest::prelude::*;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Error};

use crate::common::*;

const THRESHOLD: f64 = 1.0;
const TRANS: [Transpose; 2] = [Transpose::No, Transpose::Yes];
/// Sizes around the 128×128 tile and the 16-deep k slab, plus small odd ones.
const SIZES: [usize; 10] = [1, 2, 7, 15, 16, 17, 63, 64, 65, 129];

fn shape(t: Transpose, rows: usize, cols: usize) -> (usize, usize) {
    match t {
        Transpose::No => (rows, cols),
        Transpose::Yes => (cols, rows),
    }
}

#[allow(clippy::too_many_arguments)]
fn check(
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

/// [`check`] on the context `cx`.
#[allow(clippy::too_many_arguments)]
pub fn check_on(
    cx: &wgblas::Context,
    seed: u64,
    (m, n, k): (usize, usize, usize),
    ta: Transpose,
    tb: Transpose,
    alpha: f32,
    beta: f32,
    layouts: [Layout; 3],
) {
    let mut r = rng(seed);
    let a = rand_mat(&mut r, shape(ta, m, k).0, shape(ta, m, k).1);
    let b = rand_mat(&mut r, shape(tb, k, n).0, shape(tb, k, n).1);
    let c = if beta == 0.0 {
        Array2::from_elem((m, n), f32::NAN)
    } else {
        rand_mat(&mut r, m, n)
    };
    let (sa, sb) = (Mat::new(&a, layouts[0]), Mat::new(&b, layouts[1]));
    let mut sc = Mat::new(&c, layouts[2]);
    let pad = sc.outside();
    blas::sgemm(cx, ta, tb, alpha, sa.view(), sb.view(), beta, sc.view_mut()).unwrap();
    let c0 = if beta == 0.0 {
        Array2::zeros((m, n))
    } else {
        c.clone()
    };
    let reference = oracle::sgemm(ta, tb, alpha, a.view(), b.view(), beta, c0.view());
    let bound = bounds::gemm(ta, tb, alpha, a.view(), b.view(), beta, c0.view());
    let f = metrics::forward_factor(&sc.to_owned(), &reference, &bound).unwrap();
    assert!(
        f <= THRESHOLD,
        "sgemm {m}x{n}x{k} {ta:?}{tb:?} alpha={alpha} beta={beta} {layouts:?}: factor {f}"
    );
    let after = sc.outside();
    assert!(
        pad.iter()
            .zip(&after)
            .all(|(p, q)| p.to_bits() == q.to_bits()),
        "wrote outside C"
    );
}

#[test]
fn validation_inner_dimension_mismatch() {
    let a = Array2::<f32>::ones((3, 4));
    let b = Array2::<f32>::ones((5, 2));
    let mut c = Array2::<f32>::from_elem((3, 2), 9.0);
    let err = blas::sgemm(
        ctx(),
        Transpose::No,
        Transpose::No,
        1.0,
        a.view(),
        b.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sgemm",
                arg: "b",
                ..
            }
        ),
        "{err}"
    );
    assert!(a.gpu_gemm(&b).is_err());
    assert_eq!(c, Array2::from_elem((3, 2), 9.0));
}

#[test]
fn validation_output_shape_mismatch() {
    let a = Array2::<f32>::ones((3, 4));
    let b = Array2::<f32>::ones((4, 2));
    for shape in [(2, 2), (3, 3)] {
        let mut c = Array2::<f32>::from_elem(shape, 9.0);
        let err = a.gpu_gemm_inplace(1.0, &b, 1.0, &mut c).unwrap_err();
        assert!(
            matches!(
                err,
                Error::DimensionMismatch {
                    routine: "sgemm",
                    arg: "c",
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(c, Array2::from_elem(shape, 9.0));
    }
    // With a transpose flag the checked shapes are those of op(A), op(B).
    let mut c = Array2::<f32>::from_elem((3, 2), 9.0);
    let err = blas::sgemm(
        ctx(),
        Transpose::Yes,
        Transpose::No,
        1.0,
        a.view(),
        b.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                routine: "sgemm",
                arg: "b",
                ..
            }
        ),
        "{err}"
    );
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn fixtures(seed in any::<u64>(), m in 0usize..10, n in 0usize..10, k in 0usize..10,
                ta in 0usize..2, tb in 0usize..2, alpha in -2.0f32..2.0, beta in -2.0f32..2.0,
                la in 0usize..4, lb in 0usize..4, lc in 0usize..4) {
        let dims = (SIZES[m], SIZES[n], SIZES[k]);
        check(seed, dims, TRANS[ta], TRANS[tb], alpha, beta, [LAYOUTS[la], LAYOUTS[lb], LAYOUTS[lc]]);
    }
}

#[test]
fn edge_flags_alpha_beta_in_c_and_f_order() {
    for layout in [Layout::C, Layout::F] {
        for ta in TRANS {
            for tb in TRANS {
                for alpha in [0.0, 1.0, 0.7] {
                    for beta in [0.0, 1.0, 0.9] {
                        check(7, (9, 5, 3), ta, tb, alpha, beta, [layout; 3]);
                    }
                }
            }
        }
    }
}

#[test]
fn edge_mixed_and_strided_layouts() {
    for la in LAYOUTS {
        for lb in LAYOUTS {
            for lc in LAYOUTS {
                check(
                    3,
                    (17, 15, 16),
                    Transpose::No,
                    Transpose::Yes,
                    1.0,
                    0.9,
                    [la, lb, lc],
                );
            }
        }
    }
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
        blas::sgemm(
            ctx(),
            Transpose::No,
            Transpose::No,
            1.0,
            a.view(),
            b.view(),
            0.0,
            c.view_mut(),
        )
        .unwrap();
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

/// The resident form: the same fixtures and oracle through `GpuMatrix`es (row- or column-major
/// storage, transposes through the flags and through `GpuMatrix::t`).
fn check_resident(
    seed: u64,
    (m, n, k): (usize, usize, usize),
    ta: Transpose,
    tb: Transpose,
    alpha: f32,
    beta: f32,
    f_order: bool,
) {
    let mut r = rng(seed);
    let a = rand_mat(&mut r, shape(ta, m, k).0, shape(ta, m, k).1);
    let b = rand_mat(&mut r, shape(tb, k, n).0, shape(tb, k, n).1);
    let c = rand_mat(&mut r, m, n);
    let store = |x: &Array2<f32>| {
        if f_order {
            x.t().as_standard_layout().into_owned().reversed_axes()
        } else {
            x.clone()
        }
    };
    let ga = ctx().upload_matrix(&store(&a)).unwrap();
    let gb = ctx().upload_matrix(&store(&b)).unwrap();
    let mut gc = ctx().upload_matrix(&store(&c)).unwrap();
    blas::sgemm(ctx(), ta, tb, alpha, &ga, &gb, beta, &mut gc).unwrap();
    let reference = oracle::sgemm(ta, tb, alpha, a.view(), b.view(), beta, c.view());
    let bound = bounds::gemm(ta, tb, alpha, a.view(), b.view(), beta, c.view());
    let f = metrics::forward_factor(&gc.to_array().unwrap(), &reference, &bound).unwrap();
    assert!(
        f <= THRESHOLD,
        "resident sgemm {m}x{n}x{k} {ta:?}{tb:?} F={f_order}: factor {f}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]
    #[test]
    fn resident_fixtures(seed in any::<u64>(), m in 0usize..10, n in 0usize..10, k in 0usize..10,
                         ta in 0usize..2, tb in 0usize..2, alpha in -2.0f32..2.0, beta in -2.0f32..2.0,
                         f_order in any::<bool>()) {
        check_resident(seed, (SIZES[m], SIZES[n], SIZES[k]), TRANS[ta], TRANS[tb], alpha, beta, f_order);
    }
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
    blas::sgemm(
        ctx(),
        Transpose::No,
        Transpose::No,
        &alpha,
        ga.t(),
        &gb,
        0.0,
        &mut gc,
    )
    .unwrap();
    // Aᵀ·B = [[26, 30], [38, 44]]
    assert_eq!(gc.to_array().unwrap(), array![[52.0, 60.0], [76.0, 88.0]]);
}

#[test]
fn edge_whole_aligned_tiles_in_every_storage_order() {
    // 256×256 C with k = 64 (multiples of the tile and of 4): whole tiles whose rows or columns
    // are contiguous and 16-byte aligned, read as vec4s, in all four combinations of storage
    // order (via the trans flags) — and the same with A shifted by one column (unaligned).
    for layouts in [
        [Layout::C, Layout::C, Layout::C],
        [Layout::F, Layout::F, Layout::F],
        [Layout::C, Layout::F, Layout::C],
        [Layout::F, Layout::C, Layout::F],
    ] {
        for ta in TRANS {
            for tb in TRANS {
                check(11, (256, 256, 64), ta, tb, 1.0, 0.5, layouts);
            }
        }
    }
    let mut r = rng(12);
    let wide = rand_mat(&mut r, 256, 65);
    let a = wide.slice(ndarray::s![.., 1..]);
    let b = rand_mat(&mut r, 64, 256);
    let mut c = Array2::<f32>::zeros((256, 256));
    blas::sgemm(
        ctx(),
        Transpose::No,
        Transpose::No,
        1.0,
        a,
        b.view(),
        0.0,
        c.view_mut(),
    )
    .unwrap();
    let zero = Array2::<f32>::zeros((256, 256));
    let reference = oracle::sgemm(
        Transpose::No,
        Transpose::No,
        1.0,
        a,
        b.view(),
        0.0,
        zero.view(),
    );
    let bound = bounds::gemm(
        Transpose::No,
        Transpose::No,
        1.0,
        a,
        b.view(),
        0.0,
        zero.view(),
    );
    let f = metrics::forward_factor(&c, &reference, &bound).unwrap();
    assert!(f <= THRESHOLD, "unaligned A: factor {f}");
}

/// Every tile the engine may choose (shape, slab depth, single or double buffer), pinned
/// through the per-thread tuning override, against OpenBLAS at sizes with whole and partial
/// tiles, in every transpose and storage order (C order output, F order output with and
/// without the transposed problem `Cᵀ = Bᵀ·Aᵀ`), vec4 and element-wise staging, with and
/// without edge code on whole tiles.
#[test]
fn engine_every_tile_in_every_storage_order() {
    use wgblas::tuning::{set_tuning, Tile, Tuning};
    let tiles = [
        (128, 128, 16, 2),
        (128, 128, 16, 1),
        (128, 128, 8, 1),
        (128, 128, 32, 1),
        (128, 64, 16, 2),
        (64, 128, 16, 1),
        (64, 64, 16, 2),
        (64, 64, 8, 1),
        (64, 64, 32, 1),
    ];
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
            for layouts in [
                [Layout::C, Layout::C, Layout::C],
                [Layout::F, Layout::F, Layout::F],
                [Layout::C, Layout::F, Layout::F],
                [Layout::Strided, Layout::Reversed, Layout::C],
            ] {
                for ta in TRANS {
                    for tb in TRANS {
                        // Whole tiles and aligned slabs (vec4 staging), then edges everywhere.
                        check(21, (128, 128, 64), ta, tb, 1.0, 0.5, layouts);
                        check(22, (131, 67, 37), ta, tb, 0.7, 0.0, layouts);
                    }
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
