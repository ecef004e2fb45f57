//! Lone products (no batch) on the small-product kernel (`gemm_small`, one workgroup of 4×4
//! blocks reading A and B straight from the buffers; `Tuning::single_small`): against OpenBLAS
//! with the §2 metric in every transpose pair and storage order, at the edges of its rule
//! (256 blocks, k ≤ 128, B read as vec4s), and the special values of DESIGN.md §3 on it.

use ndarray::{array, Array2};
use wgblas::blas;
use wgblas::prelude::*;
use wgblas::tuning::{set_tuning, Tuning};

use crate::common::*;
use crate::gemm::check;

/// Pin lone small products on the small-product kernel (`on`) or the tile kernel.
fn pin(on: bool) {
    set_tuning(Some(Tuning {
        single_small: Some(on),
        ..Tuning::default()
    }));
}

#[test]
fn engine_lone_small_products_on_both_kernels() {
    // (m, n, k): one element, odd sizes, 64×64 (256 blocks, the rule's edge), 65×64 (past
    // it: the tile kernel), k at the rule's edge (128) and past it (129), one row, one column.
    let shapes = [
        (1, 1, 1),
        (3, 5, 2),
        (64, 64, 64),
        (65, 64, 9),
        (17, 33, 100),
        (8, 8, 128),
        (8, 4, 129),
        (1, 64, 37),
        (64, 1, 36),
    ];
    let (lc, lf, ls, lr) = (Layout::C, Layout::F, Layout::Strided, Layout::Reversed);
    for on in [true, false] {
        pin(on);
        for (s, &dims) in shapes.iter().enumerate() {
            for (t, (ta, tb)) in trans_pairs().enumerate() {
                let seed = 900 + 10 * s as u64 + t as u64;
                check(seed, dims, ta, tb, 0.7, 0.9, [lc; 3]);
                check(seed, dims, ta, tb, 1.0, 0.0, [lf; 3]);
                if (s + t) % 2 == 0 {
                    check(seed, dims, ta, tb, -1.5, 1.0, [ls, lr, lf]);
                }
            }
        }
    }
    set_tuning(None);
}

/// Hand-computed values on the small kernel: the product, alpha and beta; beta = 0 never
/// reads C (NaN and Inf there vanish); alpha = 0 reads neither A nor B (NaN there does not
/// reach C); a NaN or Inf in A or B reaches every element it multiplies into, zeros of the
/// other operand included (no zero-skip); a NaN alpha or beta is not 0. B has 4 columns in C
/// order in every case, so that it is read as vec4s and the product runs on the small kernel
/// (with 2 columns it would run on the tile kernel).
#[test]
fn edge_special_values_on_the_small_kernel() {
    pin(true);
    let no = Transpose::No;
    let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    let b = array![[5.0f32, 6.0, 0.0, 1.0], [7.0, 8.0, 1.0, 0.0]];
    let ab = array![[19.0f32, 22.0, 2.0, 1.0], [43.0, 50.0, 4.0, 3.0]];
    assert_eq!(a.gpu_gemm(&b).unwrap(), ab);
    let mut c = Array2::<f32>::ones((2, 4));
    a.gpu_gemm_inplace(2.0, &b, -1.0, &mut c).unwrap();
    assert_eq!(c, array![[37.0, 43.0, 3.0, 1.0], [85.0, 99.0, 7.0, 5.0]]);
    // beta = 0: C's NaN and Inf are never read.
    let mut c = array![
        [f32::NAN, f32::INFINITY, f32::NAN, 1.0],
        [f32::NAN, -f32::INFINITY, 2.0, f32::NAN]
    ];
    let eye = Array2::<f32>::eye(4);
    blas::sgemm(ctx(), no, no, 1.0, ab.view(), eye.view(), 0.0, c.view_mut()).unwrap();
    assert_eq!(c, ab);
    // alpha = 0: A and B are never read.
    let nan_a = Array2::from_elem((2, 3), f32::NAN);
    let inf_b = Array2::from_elem((3, 4), f32::INFINITY);
    let mut c = ab.clone();
    nan_a.gpu_gemm_inplace(0.0, &inf_b, 2.0, &mut c).unwrap();
    assert_eq!(c, ab.mapv(|v| 2.0 * v));
    // No zero-skip: NaN in A(0, 1) times B's zero row 1 makes all of row 0 of C NaN; Inf in
    // B(0, 0) times A(1, 0) = 0 makes C(1, 0) NaN (0·Inf); the rest of row 1 is 0.
    let a = array![[1.0f32, f32::NAN], [0.0, 1.0]];
    let b = array![[f32::INFINITY, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]];
    let c = a.gpu_gemm(&b).unwrap();
    assert!(c.row(0).iter().all(|v| v.is_nan()), "{c:?}");
    assert!(c[[1, 0]].is_nan(), "{c:?}");
    assert!((1..4).all(|j| c[[1, j]] == 0.0), "{c:?}");
    // A NaN alpha is not 0: every element NaN; a NaN beta is not 0: C·NaN = NaN.
    let (ones, ones_b) = (Array2::<f32>::ones((2, 2)), Array2::<f32>::ones((2, 4)));
    let mut c = Array2::<f32>::zeros((2, 4));
    ones.gpu_gemm_inplace(f32::NAN, &ones_b, 0.0, &mut c)
        .unwrap();
    assert!(c.iter().all(|v| v.is_nan()), "{c:?}");
    let mut c = Array2::<f32>::zeros((2, 4));
    ones.gpu_gemm_inplace(1.0, &ones_b, f32::NAN, &mut c)
        .unwrap();
    assert!(c.iter().all(|v| v.is_nan()), "{c:?}");
    // The same product in f64 (the kernel's `alias T = f64;` instantiation), where native.
    if ctx().native_f64() {
        let a = array![[1.0f64, 2.0], [3.0, 4.0]];
        let b = array![[5.0f64, 6.0, 0.0, 1.0], [7.0, 8.0, 1.0, 0.0]];
        let want = array![[19.0f64, 22.0, 2.0, 1.0], [43.0, 50.0, 4.0, 3.0]];
        assert_eq!(a.gpu_gemm(&b).unwrap(), want);
    }
    set_tuning(None);
}

/// On the small kernel: alpha and beta held on the device (`GpuScalar`) give the bits the same
/// host values give, zeros included (alpha = 0 reads neither A nor B, beta = 0 never reads
/// C); an infinite alpha or beta is not special-cased (Inf·1 = Inf, Inf·0 = NaN).
#[test]
fn resident_device_scalars_and_infinities_on_the_small_kernel() {
    pin(true);
    let vals = ctx()
        .upload_vector(&ndarray::array![0.0f32, 0.7, 1.0])
        .unwrap();
    let scalar = |i: usize| {
        // x_i = e_i·vals (a dot with a unit vector: exact).
        let mut e = ndarray::Array1::<f32>::zeros(3);
        e[i] = 1.0;
        let ge = ctx().upload_vector(&e).unwrap();
        wgblas::resident::sdot(ctx(), &ge, &vals).unwrap()
    };
    let no = Transpose::No;
    let a = Array2::from_shape_fn((9, 7), |(i, j)| (i as f32 - 2.0 * j as f32) / 8.0);
    let b = Array2::from_shape_fn((7, 8), |(i, j)| (3.0 * i as f32 + j as f32) / 16.0);
    for (ia, ib) in [(1, 2), (0, 1), (2, 0), (1, 1)] {
        let (alpha, beta) = ([0.0f32, 0.7, 1.0][ia], [0.0f32, 0.7, 1.0][ib]);
        let mut c = Array2::from_shape_fn((9, 8), |(i, j)| (i * 8 + j) as f32 / 32.0);
        if beta == 0.0 {
            c.fill(f32::NAN);
        }
        let (da, db) = (scalar(ia), scalar(ib));
        let (mut dev, mut host) = (c.clone(), c.clone());
        let (av, bv) = (a.view(), b.view());
        blas::sgemm(ctx(), no, no, &da, av, bv, &db, dev.view_mut()).unwrap();
        blas::sgemm(ctx(), no, no, alpha, av, bv, beta, host.view_mut()).unwrap();
        assert!(
            dev.iter()
                .zip(&host)
                .all(|(x, y)| x.to_bits() == y.to_bits()),
            "alpha={alpha} beta={beta}"
        );
        assert!(dev.iter().all(|v| !v.is_nan()), "alpha={alpha} beta={beta}");
    }
    // Infinite alpha: Inf·2 = Inf everywhere (A·B = 2 with ones of depth 2), and Inf·0 = NaN
    // where the product is 0 (the last column of B is zero).
    let ones = Array2::<f32>::ones((2, 2));
    let b = array![[1.0f32, 1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 0.0]];
    let mut c = Array2::<f32>::zeros((2, 4));
    ones.gpu_gemm_inplace(f32::INFINITY, &b, 0.0, &mut c)
        .unwrap();
    assert!(
        (0..3).all(|j| c.column(j).iter().all(|&v| v == f32::INFINITY)),
        "{c:?}"
    );
    assert!(c.column(3).iter().all(|v| v.is_nan()), "{c:?}");
    // Infinite beta: Inf·C where C = 1 is Inf, where C = 0 is NaN (not skipped as 0).
    let mut c = array![[1.0f32, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0]];
    let want_inf = c.mapv(|v| v == 1.0);
    ones.gpu_gemm_inplace(1.0, &b, f32::INFINITY, &mut c)
        .unwrap();
    for (v, inf) in c.iter().zip(&want_inf) {
        assert!(
            if *inf {
                *v == f32::INFINITY
            } else {
                v.is_nan()
            },
            "{c:?}"
        );
    }
    set_tuning(None);
}
