//! Level 1 at large n: past 65535 workgroups × 256 (one dispatch dimension), and the sum order
//! of the reductions (DESIGN.md §2, issue 3: n = 2^24 + 3 on sasum, saxpy, isamax; sasum of
//! 2·10^7 ones). Hand-computed values only.

use ndarray::Array1;
use wgblas::blas;
use wgblas::prelude::*;

use crate::common::*;
use crate::oracle_l1::f64_paths;

const N: usize = (1 << 24) + 3;

#[test]
fn edge_sasum_two_to_the_24_plus_3() {
    // Σ 1 = 2^24 + 3, which f32 rounds (tie to even) to 2^24 + 4: the one rounding of the
    // correctly rounded sum. A sequential f32 sum would stall at 2^24.
    let x = Array1::<f32>::ones(N);
    assert_eq!(blas::sasum(ctx(), x.view()).unwrap(), 16_777_220.0);
    // Σ (i mod 3) = 3·(N − 1)/3 = 2^24 + 2, exactly representable.
    let x = Array1::from_shape_fn(N, |i| -((i % 3) as f32));
    assert_eq!(x.gpu_asum().unwrap(), 16_777_218.0);
}

#[test]
fn edge_sasum_of_2e7_ones_is_exact() {
    let x = Array1::<f32>::ones(20_000_000);
    assert_eq!(x.gpu_asum().unwrap(), 20_000_000.0);
}

#[test]
fn edge_saxpy_two_to_the_24_plus_3() {
    let (x, mut y) = (mod7(N), Array1::<f32>::ones(N));
    x.gpu_axpy_inplace(2.0, &mut y).unwrap();
    for i in [0, 1, 6, 65535 * 256 - 1, 65535 * 256, 1 << 24, N - 2, N - 1] {
        assert_eq!(y[i], 2.0 * (i % 7) as f32 + 1.0, "element {i}");
    }
    assert_eq!(off_axpy_of_mod7(&y, 2.0), None);
}

#[test]
fn edge_isamax_two_to_the_24_plus_3() {
    let mut x = Array1::from_shape_fn(N, |i| ((i * 7919) % 1000) as f32 / 1000.0);
    // Ties of the maximum after 2^24: the first one wins.
    x[(1 << 24) + 1] = -2.0;
    x[N - 1] = 2.0;
    assert_eq!(blas::isamax(ctx(), x.view()).unwrap(), (1 << 24) + 1);
    // A NaN at the very end beats everything.
    x[N - 1] = f32::NAN;
    assert_eq!(x.gpu_iamax().unwrap(), N - 1);
}

#[test]
fn edge_snrm2_past_lapack_big_threshold() {
    // 2^24 entries equal to 2^52: with LAPACK's big threshold (2^52) they would go to the
    // unscaled sum, 2^24·2^104 = 2^128, which overflows f32. Here ‖x‖ = 2^52·2^12 = 2^64 exactly.
    let x = Array1::from_elem(1 << 24, 2f32.powi(52));
    assert_eq!(blas::snrm2(ctx(), x.view()).unwrap(), 2f32.powi(64));
}

#[test]
fn edge_f64_large_both_paths() {
    // 2^22 + 3 f64 elements (32 MiB): grid-stride loops on both paths.
    let n = (1 << 22) + 3;
    let mut x = Array1::from_shape_fn(n, |i| if i % 2 == 0 { 1.0f64 } else { -1e-300 });
    x[n - 2] = -1e300;
    x[n - 1] = 1e300;
    // Σ|x| = 1e300 + 1e300 + (n − 1)/2 ones + tiny terms, rounded: 2e300.
    for (path, c) in f64_paths() {
        assert_eq!(blas::dasum(c, x.view()).unwrap(), 2e300, "{path}");
        assert_eq!(blas::idamax(c, x.view()).unwrap(), n - 2, "{path}");
    }
    x[n - 2] = 0.0;
    x[n - 1] = 0.0;
    // Only ones (at even indices below n − 2) and 1e-300 terms: (n − 1)/2 = 2^21 + 1 ones.
    for (path, c) in f64_paths() {
        assert_eq!(
            blas::dasum(c, x.view()).unwrap(),
            (1u64 << 21) as f64 + 1.0,
            "{path}"
        );
    }
}
