//! sgemm_batched on the engine's two kernels, a depth past lavapipe's loop limit, and device
//! scalars (helpers from `gemm_batched`).

use ndarray::{Array2, Array3};
use wgblas::blas;
use wgblas::prelude::*;

use crate::common::*;
use crate::gemm_batched::*;

/// Batches of products with m, n ≤ 32 run on the small-product kernel (several products per
/// workgroup, each invocation a 4×4 block read straight from the buffers); the same cases
/// pinned on the tile kernel through the tuning override, at sizes around the 4×4 blocks, the
/// 32 limit (31, 33) and past it (64).
#[test]
fn engine_small_products_on_both_kernels() {
    // (batch, m, n, k): one element, odd sizes, 4×4 blocks, the 32 limit and past it.
    let shapes = [
        [(300, 1, 1, 1), (70, 3, 5, 2), (9, 4, 4, 37)],
        [(33, 8, 8, 8), (5, 32, 32, 32), (7, 31, 33, 17)],
        [(3, 64, 64, 64), (4, 64, 1, 100), (4, 1, 64, 100)],
    ];
    let (no, yes) = (Transpose::No, Transpose::Yes);
    let (c, f, fm) = (BLayout::C, BLayout::F, BLayout::FMat);
    let (st, rev) = (BLayout::Strided, BLayout::Reversed);
    for small in [true, false] {
        pin_kernel(small);
        for &(batch, m, n, k) in shapes.iter().flatten() {
            for layouts in [[c; 3], [fm, f, fm], [st, rev, c]] {
                for ta in TRANS {
                    check((51, batch), (m, n, k), (ta, no), (0.7, 0.9), layouts);
                }
                check((52, batch), (m, n, k), (no, yes), (1.0, 0.0), layouts);
            }
        }
    }
    wgblas::tuning::set_tuning(None);
}

/// Pin the batched products on the small-product kernel (`small`) or the tile kernel.
fn pin_kernel(small: bool) {
    use wgblas::tuning::{set_tuning, Tuning};
    set_tuning(Some(Tuning {
        batch_small: Some(small),
        ..Tuning::default()
    }));
}

/// A k far past lavapipe's 65,535 loop iterations per invocation, on both kernels (k chunks
/// of one dispatch each, at most 4,096 of k for the small kernel, the later ones adding with
/// beta = 1). Hand-computed: A = 1,
/// B = 1/4096 (exact), C = 3 with beta = 0.5, so every element is 1.5 + 70,000 / 4096.
#[test]
fn edge_k_past_lavapipes_loop_limit() {
    let k = 70_000;
    for small in [true, false] {
        pin_kernel(small);
        for (m, n) in [(4, 4), (1, 2)] {
            // 128 products (so that the small kernel packs many per workgroup and stages
            // slabs of only 4 of k), with A and B broadcast (batch stride 0).
            let a = Array2::<f32>::ones((m, k));
            let b = Array2::<f32>::from_elem((k, n), 1.0 / 4096.0);
            // (The tile kernel runs one product per workgroup: 3 of them show the same.)
            let batch = if small { 128 } else { 3 };
            let mut c = Array3::<f32>::from_elem((batch, m, n), 3.0);
            let ab = a.broadcast((batch, m, k)).unwrap();
            let bb = b.broadcast((batch, k, n)).unwrap();
            let no = Transpose::No;
            blas::sgemm_batched(ctx(), no, no, 1.0, ab, bb, 0.5, c.view_mut()).unwrap();
            let want = 1.5 + k as f32 / 4096.0;
            assert!(
                c.iter().all(|&v| v == want),
                "small={small} {m}x{n}: {c:?}, want {want}"
            );
        }
    }
    wgblas::tuning::set_tuning(None);
}

/// alpha and beta held on the device (`GpuScalar`) give what the same host values give, on
/// both kernels, zeros included (alpha = 0 reads neither A nor B, beta = 0 never reads C).
#[test]
fn resident_device_scalars() {
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
    for small in [true, false] {
        pin_kernel(small);
        for (ia, ib) in [(1, 2), (0, 1), (2, 0), (1, 1)] {
            let (alpha, beta) = ([0.0f32, 0.7, 1.0][ia], [0.0f32, 0.7, 1.0][ib]);
            let a = rand_batch(61, (4, 9, 7));
            let b = rand_batch(62, (4, 7, 5));
            let mut c = rand_batch(63, (4, 9, 5));
            if beta == 0.0 {
                c.fill(f32::NAN);
            }
            let (da, db) = (scalar(ia), scalar(ib));
            let (mut dev, mut host) = (c.clone(), c.clone());
            let (no, av, bv) = (Transpose::No, a.view(), b.view());
            blas::sgemm_batched(ctx(), no, no, &da, av, bv, &db, dev.view_mut()).unwrap();
            blas::sgemm_batched(ctx(), no, no, alpha, av, bv, beta, host.view_mut()).unwrap();
            assert!(
                dev.iter()
                    .zip(&host)
                    .all(|(x, y)| x.to_bits() == y.to_bits()),
                "small={small} alpha={alpha} beta={beta}"
            );
            assert!(dev.iter().all(|v| !v.is_nan()));
        }
    }
    wgblas::tuning::set_tuning(None);
}
