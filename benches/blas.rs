//! Criterion benches: wgblas against OpenBLAS in the same run.
//!
//! `cargo bench` (sizes small enough for lavapipe by default). On a real GPU set
//! `WGBLAS_BENCH_GEMM=1024,4096` and `WGBLAS_BENCH_DOT=1048576,67108864`. wgblas times are wall
//! times of the host-form call: upload, kernel, read-back.

extern crate blas_src;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ndarray::{Array1, Array2};
use wgblas::{blas, Context, Transpose};

fn sizes(var: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(var)
        .ok()
        .map(|s| s.split(',').filter_map(|t| t.trim().parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

fn sgemm(c: &mut Criterion) {
    let ctx = Context::shared().expect("a GPU adapter (lavapipe on CPU-only machines)");
    let mut group = c.benchmark_group("sgemm");
    group.sample_size(10);
    for n in sizes("WGBLAS_BENCH_GEMM", &[128, 256]) {
        let a = Array2::<f32>::from_shape_fn((n, n), |(i, j)| ((i * 7 + j * 3) % 11) as f32 - 5.0);
        let b = a.t().to_owned();
        let mut out = Array2::<f32>::zeros((n, n));
        group.throughput(Throughput::Elements(2 * (n as u64).pow(3)));
        group.bench_with_input(BenchmarkId::new("wgblas", n), &n, |bench, _| {
            bench.iter(|| {
                blas::sgemm(
                    ctx,
                    Transpose::No,
                    Transpose::No,
                    1.0,
                    a.view(),
                    b.view(),
                    0.0,
                    out.view_mut(),
                )
                .unwrap()
            })
        });
        group.bench_with_input(BenchmarkId::new("openblas", n), &n, |bench, _| {
            bench.iter(|| unsafe {
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
                    out.as_mut_ptr(),
                    n as i32,
                )
            })
        });
    }
    group.finish();
}

fn sdot(c: &mut Criterion) {
    let ctx = Context::shared().expect("a GPU adapter (lavapipe on CPU-only machines)");
    let mut group = c.benchmark_group("sdot");
    group.sample_size(10);
    for n in sizes("WGBLAS_BENCH_DOT", &[1 << 16, 1 << 20]) {
        let x = Array1::<f32>::from_shape_fn(n, |i| (i % 13) as f32 - 6.0);
        let y = Array1::<f32>::from_shape_fn(n, |i| (i % 5) as f32 - 2.0);
        group.throughput(Throughput::Bytes(8 * n as u64));
        group.bench_with_input(BenchmarkId::new("wgblas", n), &n, |bench, _| {
            bench.iter(|| blas::sdot(ctx, x.view(), y.view()).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("openblas", n), &n, |bench, _| {
            bench.iter(|| unsafe { cblas_sys::cblas_sdot(n as i32, x.as_ptr(), 1, y.as_ptr(), 1) })
        });
    }
    group.finish();
}

/// Host↔device transfers (issue 10): `upload_vector` (until the device holds the data) and
/// `to_array`, contiguous and with a step of 2 (gathered straight into staging memory).
/// `WGBLAS_BENCH_TRANSFER=67108864` on a real GPU; lavapipe's figures only show the shape.
fn transfers(c: &mut Criterion) {
    let ctx = Context::shared().expect("a GPU adapter (lavapipe on CPU-only machines)");
    let mut group = c.benchmark_group("transfer");
    group.sample_size(10);
    for n in sizes("WGBLAS_BENCH_TRANSFER", &[1 << 16, 1 << 22]) {
        let x = Array1::<f32>::from_shape_fn(2 * n, |i| i as f32);
        let dense = x.slice(ndarray::s![..n]);
        let step2 = x.slice(ndarray::s![..;2]);
        group.throughput(Throughput::Bytes(4 * n as u64));
        group.bench_with_input(BenchmarkId::new("upload", n), &n, |bench, _| {
            bench.iter(|| {
                let v = ctx.upload_vector(&dense).unwrap();
                ctx.synchronize().unwrap();
                v
            })
        });
        group.bench_with_input(BenchmarkId::new("upload_step2", n), &n, |bench, _| {
            bench.iter(|| {
                let v = ctx.upload_vector(&step2).unwrap();
                ctx.synchronize().unwrap();
                v
            })
        });
        let v = ctx.upload_vector(&dense).unwrap();
        group.bench_with_input(BenchmarkId::new("readback", n), &n, |bench, _| {
            bench.iter(|| v.to_array().unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, sgemm, sdot, transfers);
criterion_main!(benches);
