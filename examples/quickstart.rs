//! Quickstart: C = A·B on the GPU for 512×512 matrices, checked against OpenBLAS with the
//! forward-error factor of `wgblas::metrics` (DESIGN.md §2: sgemm must be ≤ 1).
//!
//! Run: `cargo run --release --example quickstart`

extern crate blas_src;

use ndarray::Array2;
use ndarray_rand::rand_distr::Uniform;
use ndarray_rand::RandomExt;
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n = 512;
    let dist = Uniform::new(-1.0f32, 1.0)?;
    let a = Array2::random((n, n), dist);
    let b = Array2::random((n, n), dist);

    let t = std::time::Instant::now();
    let ctx = wgblas::Context::shared()?;
    let ctx_time = t.elapsed();
    let info = ctx.adapter_info();
    println!(
        "adapter: {} ({:?}, {:?})",
        info.name, info.backend, info.device_type
    );

    let t = std::time::Instant::now();
    let c = a.gpu_gemm(&b)?; // C = A·B
    let gpu_time = t.elapsed();
    println!(
        "first call in this process: context {:.1} ms + first gpu_gemm {:.2} ms (pipeline cache: {:?})",
        ctx_time.as_secs_f64() * 1e3,
        gpu_time.as_secs_f64() * 1e3,
        ctx.pipeline_cache_path()
    );
    let t = std::time::Instant::now();
    let c2 = a.gpu_gemm(&b)?;
    println!("second gpu_gemm: {:.2} ms", t.elapsed().as_secs_f64() * 1e3);
    assert_eq!(c, c2);

    // The oracle: OpenBLAS sgemm on the same operands.
    let mut reference = Array2::<f32>::zeros((n, n));
    let t = std::time::Instant::now();
    unsafe {
        cblas_sys::cblas_sgemm(
            cblas_sys::CBLAS_LAYOUT::CblasRowMajor,
            cblas_sys::CBLAS_TRANSPOSE::CblasNoTrans,
            cblas_sys::CBLAS_TRANSPOSE::CblasNoTrans,
            n as i32,
            n as i32,
            n as i32,
            1.0,
            a.as_ptr(),
            n as i32,
            b.as_ptr(),
            n as i32,
            0.0,
            reference.as_mut_ptr(),
            n as i32,
        )
    };
    let cpu_time = t.elapsed();

    let zero = Array2::<f32>::zeros((n, n));
    let bound = bounds::gemm(
        Transpose::No,
        Transpose::No,
        1.0,
        a.view(),
        b.view(),
        0.0,
        zero.view(),
    );
    let factor = metrics::forward_factor(&c, &reference, &bound)?;
    let threshold = metrics::spec("sgemm").map(|s| s.threshold).unwrap_or(1.0);
    println!("sgemm {n}x{n}x{n}: forward-error factor {factor:.3e} (threshold {threshold})");
    println!(
        "wall time incl. upload and read-back: wgblas {:.2} ms, OpenBLAS {:.2} ms",
        gpu_time.as_secs_f64() * 1e3,
        cpu_time.as_secs_f64() * 1e3
    );
    if factor > threshold {
        return Err(format!("forward-error factor {factor} above {threshold}").into());
    }
    Ok(())
}
