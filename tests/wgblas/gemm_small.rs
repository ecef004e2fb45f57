//! The small-product kernel (`gemm_small`, m, n ≤ 32) on each of its read paths: A as vec4s
//! along k (C-order A, k a multiple of 4) or element-wise, B as vec4s along n (C-order B, n a
//! multiple of 4) or element-wise, with k steps past the last whole group of four. Helpers
//! from `gemm_batched`.

use ndarray::Array3;
use wgblas::blas;
use wgblas::prelude::*;

use crate::common::*;
use crate::gemm_batched::*;

#[test]
fn edge_small_products_on_each_read_path() {
    for (seed, batch, (m, n, k)) in [
        (61, 6, (32, 32, 32)), // A vec4, B vec4
        (62, 5, (32, 32, 36)), // A vec4, B vec4
        (63, 9, (5, 7, 12)),   // A vec4, B element-wise
        (64, 7, (31, 28, 33)), // A element-wise, B vec4 (33 steps of k)
        (65, 4, (17, 30, 3)),  // both element-wise
        (66, 3, (32, 4, 1)),   // B vec4, one step of k
        (67, 8, (3, 32, 8)),   // A vec4 (two groups of four), B vec4
    ] {
        let a = rand_batch(seed, (batch, m, k));
        let b = rand_batch(seed + 100, (batch, k, n));
        for (alpha, beta) in [(1.0f32, 0.0f32), (-0.75, 0.5)] {
            let c0 = if beta == 0.0 {
                Array3::<f32>::zeros((batch, m, n))
            } else {
                rand_batch(seed + 200, (batch, m, n))
            };
            let mut got = if beta == 0.0 {
                Array3::<f32>::from_elem((batch, m, n), f32::NAN)
            } else {
                c0.clone()
            };
            let (no, av, bv) = (Transpose::No, a.view(), b.view());
            blas::sgemm_batched(ctx(), no, no, alpha, av, bv, beta, got.view_mut()).unwrap();
            let f = max_factor(no, no, alpha, av, bv, beta, c0.view(), got.view());
            assert!(
                f <= threshold(),
                "sgemm_batched {batch}x{m}x{n}x{k} alpha={alpha} beta={beta}: factor {f}"
            );
        }
    }
}
