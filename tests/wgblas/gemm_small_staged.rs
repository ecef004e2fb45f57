//! The staged form of the small-product kernel (entry `gemm_small_ws`, `Tuning::small_staged`:
//! each slab of k of every product's A and B copied into workgroup memory, then the 4×4 blocks
//! of C from there), pinned by the tuning override in each test: against OpenBLAS (sgemm and
//! dgemm per product, the forward factor of DESIGN.md §2) on each staging path (A as vec4s
//! along k or along m or element-wise, B as vec4s along n or along k or element-wise), slab
//! depths 4 to 32 (one slab or many, a partial last one), 1 to 256 products per workgroup,
//! broadcasts and strided or reversed batches; and hand-computed special values (DESIGN.md
//! §3), a k past lavapipe's 65,535 loop iterations and a batch past the grid's 65,535
//! workgroups. Helpers from `gemm_batched`.

use ndarray::{Array2, Array3, Axis};
use wgblas::prelude::*;
use wgblas::tuning::{set_tuning, Tuning};

use crate::common::*;
use crate::describe::{self, Elem};
use crate::gemm_batched::*;

/// Pin the batched products with m, n ≤ 32 on the staged form, with slab depth `ks` and at
/// most `np` products per workgroup (None: the driver's choice).
fn pin_staged((ks, np): (Option<u32>, Option<u32>)) {
    set_tuning(Some(Tuning {
        batch_small: Some(true),
        small_staged: Some(true),
        small_ks: ks,
        small_products: np,
        ..Tuning::default()
    }));
}

/// The staged form's settings under test: the driver's own (slab 32, or less for a short k or
/// short workgroup memory; as many products as 256 invocations hold), and slabs of 8 (several
/// slabs, k past each) with three products per workgroup (not a power of two, so the last
/// workgroup is partly past the batch). (Trimmed from four settings for the CI's time; the
/// k-past-the-loop-limit test still runs slabs of 4 and 32.)
const SETTINGS: [(Option<u32>, Option<u32>); 2] = [(None, None), (Some(8), Some(3))];

/// (batch, m, n, k): one element, odd sizes, 4×4 blocks, the 32 limit, k of 1, short and past
/// one slab of 32 and not a multiple of 4.
const SHAPES: [(usize, usize, usize, usize); 7] = [
    (300, 1, 1, 1),
    (70, 3, 5, 2),
    (9, 4, 4, 37),
    (5, 32, 32, 32),
    (7, 31, 31, 33),
    (4, 32, 32, 36),
    (3, 1, 32, 100),
];

/// f32 and f64 against OpenBLAS on every staging path: C-order batches (A along k, B along
/// n: the vec4 paths), F-order matrices (A along m, B along k after the transposes), strided
/// and reversed batches (element-wise), mixed orders; every transpose pair on C-order batches.
fn against_openblas<T: Elem>(shapes: &[(usize, usize, usize, usize)]) {
    let (no, yes) = (Transpose::No, Transpose::Yes);
    let (c, f, fm) = (BLayout::C, BLayout::F, BLayout::FMat);
    let (st, rev) = (BLayout::Strided, BLayout::Reversed);
    for setting in SETTINGS {
        pin_staged(setting);
        for &(batch, m, n, k) in shapes {
            let case = |seed, flags, ab, layouts| {
                let case = bcase(seed, batch, (m, n, k), flags, ab, layouts);
                describe::check::<GemmBatched, T>(&case);
            };
            for flags in trans_pairs() {
                case(71, flags, (0.7, 0.9), [c; 3]);
            }
            for layouts in [[fm, f, fm], [st, rev, c], [f, c, fm], [c, fm, st]] {
                case(72, (no, no), (-0.75, 0.5), layouts);
                case(73, (yes, yes), (1.0, 0.0), layouts);
            }
        }
    }
    set_tuning(None);
}

#[test]
fn staged_sgemm_batched_against_openblas() {
    against_openblas::<f32>(&SHAPES);
}

#[test]
fn staged_dgemm_batched_against_openblas() {
    if !ctx().native_f64() {
        return;
    }
    against_openblas::<f64>(&SHAPES[..6]);
}

/// One A (or B) for the whole batch (batch stride 0), on the staged form: the hand values and
/// OpenBLAS checks of `gemm_batched::edge_broadcast_a_and_b`, and the special values of
/// `gemm_batched::edge_special_values`, under each setting.
#[test]
fn staged_broadcasts_and_special_values() {
    for setting in SETTINGS {
        pin_staged(setting);
        edge_broadcast_a_and_b();
        edge_special_values();
    }
    set_tuning(None);
}

/// DESIGN.md §3 by hand in `T` on the staged form, at 3 products of 5×6 by k = 9 (two slabs
/// of 4 and a partial one with `ks` = 4): beta = 0 never reads C (NaN there does not leak);
/// alpha = 0 reads neither A nor B (NaN and Inf there) and gives beta·C; a NaN alpha or beta
/// is not 0; a NaN in one element of A reaches only its row of its product (no zero-skip).
fn special_values<T: Elem>() {
    let (batch, m, n, k) = (3, 5, 6, 9);
    let no = Transpose::No;
    let v = |x: f64| T::from_f64(x);
    let run = |alpha: T, a: &Array3<T>, b: &Array3<T>, beta: T, c: &mut Array3<T>| {
        T::gemm_batched(ctx(), no, no, alpha, a.view(), b.view(), beta, c.view_mut()).unwrap();
    };
    // Small integers: every product exact.
    let a = Array3::from_shape_fn((batch, m, k), |(p, i, l)| v(((p + i + 2 * l) % 5) as f64));
    let b = Array3::from_shape_fn((batch, k, n), |(p, l, j)| v(((p * l + j) % 3) as f64 - 1.0));
    let exact = |alpha: f64| {
        let mut w = Array3::from_elem((batch, m, n), v(0.0));
        for p in 0..batch {
            for i in 0..m {
                for j in 0..n {
                    let s: f64 = (0..k)
                        .map(|l| a[[p, i, l]].to_f64() * b[[p, l, j]].to_f64())
                        .sum();
                    w[[p, i, j]] = v(alpha * s);
                }
            }
        }
        w
    };
    for ks in [None, Some(4)] {
        pin_staged((ks, None));
        // beta = 0: C's NaN never read.
        let mut c = Array3::from_elem((batch, m, n), T::nan());
        run(v(2.0), &a, &b, v(0.0), &mut c);
        assert_eq!(c, exact(2.0), "beta = 0, ks {ks:?}");
        // alpha = 0: A and B never read; C = beta·C.
        let an = Array3::from_elem((batch, m, k), T::nan());
        let bn = Array3::from_elem((batch, k, n), v(f64::INFINITY));
        let c0 = Array3::from_shape_fn((batch, m, n), |(p, i, j)| v((p + i + j) as f64));
        let mut c = c0.clone();
        run(v(0.0), &an, &bn, v(0.5), &mut c);
        assert_eq!(c, c0.mapv(|x| v(0.5 * x.to_f64())), "alpha = 0, ks {ks:?}");
        // A NaN alpha is not 0 (every element NaN); a NaN beta is not 0, even with C = 0.
        let mut c = c0.clone();
        run(T::nan(), &a, &b, v(1.0), &mut c);
        assert!(c.iter().all(|x| x.is_nan()), "NaN alpha, ks {ks:?}");
        let mut c = Array3::from_elem((batch, m, n), v(0.0));
        run(v(1.0), &a, &b, T::nan(), &mut c);
        assert!(c.iter().all(|x| x.is_nan()), "NaN beta, ks {ks:?}");
        // One NaN in A (product 1, row 2, the last step of k): its row only, against a zero B.
        let mut an = Array3::from_elem((batch, m, k), v(0.0));
        an[[1, 2, k - 1]] = T::nan();
        let zb = Array3::from_elem((batch, k, n), v(0.0));
        let mut c = Array3::from_elem((batch, m, n), v(1.0));
        run(v(1.0), &an, &zb, v(0.0), &mut c);
        for ((p, i, _), x) in c.indexed_iter() {
            assert_eq!(
                x.is_nan(),
                p == 1 && i == 2,
                "NaN in A, ks {ks:?}: ({p}, {i})"
            );
            if !x.is_nan() {
                assert_eq!(*x, v(0.0));
            }
        }
    }
    set_tuning(None);
}

#[test]
fn staged_special_values_f32_and_f64() {
    special_values::<f32>();
    if ctx().native_f64() {
        special_values::<f64>();
    }
}

/// A k far past lavapipe's 65,535 loop iterations per invocation (dispatches of 4,096 of k,
/// the later ones adding with beta = 1), with slabs of 4 (the most iterations: 1,024 slabs a
/// dispatch) and of 32. Hand-computed: A = 1, B = 1/4096 (exact), C = 3 with beta = 0.5, so
/// every element is 1.5 + 70,000 / 4096. A and B broadcast (batch stride 0), 40 products.
#[test]
fn staged_k_past_lavapipes_loop_limit() {
    let k = 70_000;
    for ks in [4, 32] {
        pin_staged((Some(ks), None));
        for (m, n) in [(4, 4), (1, 2), (32, 32)] {
            let batch = 40;
            let a = Array2::<f32>::ones((m, k));
            let b = Array2::<f32>::from_elem((k, n), 1.0 / 4096.0);
            let mut c = Array3::<f32>::from_elem((batch, m, n), 3.0);
            let ab = a.broadcast((batch, m, k)).unwrap();
            let bb = b.broadcast((batch, k, n)).unwrap();
            let no = Transpose::No;
            wgblas::blas::sgemm_batched(ctx(), no, no, 1.0, ab, bb, 0.5, c.view_mut()).unwrap();
            let want = 1.5 + k as f32 / 4096.0;
            assert!(
                c.iter().all(|&x| x == want),
                "ks {ks} {m}x{n}: {:?}, want {want}",
                c.iter().find(|&&x| x != want)
            );
        }
    }
    set_tuning(None);
}

/// A batch past the 65,535 workgroups of one grid dimension: one product per workgroup (70,000
/// workgroups, folded into x and y of the grid), hand values, every product its own (a product
/// computed from another's operands or written to another's C shows).
#[test]
fn staged_batch_past_the_grid_limit() {
    pin_staged((None, Some(1)));
    let batch = 70_000;
    let (m, n, k) = (2, 3, 2);
    let a = Array3::from_shape_fn((batch, m, k), |(p, i, l)| ((p % 251) + i + 2 * l) as f32);
    let b = Array3::from_shape_fn((batch, k, n), |(p, l, j)| ((p % 13) + l * j + 1) as f32);
    let c = a.gpu_gemm_batched(&b).unwrap();
    set_tuning(None);
    for p in 0..batch {
        let want = a.index_axis(Axis(0), p).dot(&b.index_axis(Axis(0), p));
        assert_eq!(c.index_axis(Axis(0), p), want, "product {p}");
    }
}
