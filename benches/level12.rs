//! Criterion benches of every Level 1 and Level 2 routine: wgblas against OpenBLAS in the same
//! run. wgblas times are wall times of the host-form call (upload, kernels, read-back);
//! `examples/bandwidth_report.rs` gives the GPU-resident bandwidth figures.
//!
//! `cargo bench --bench level12` (sizes small enough for lavapipe by default). On a real GPU set
//! `WGBLAS_BENCH_L1=1048576,67108864` and `WGBLAS_BENCH_L2=4096,16384`.

extern crate blas_src;

use cblas_sys::*;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ndarray::{Array1, Array2};
use wgblas::{blas, Context, Diag, Transpose, Uplo};

fn sizes(var: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(var)
        .ok()
        .map(|s| s.split(',').filter_map(|t| t.trim().parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

fn ctx() -> &'static Context {
    Context::shared().expect("a GPU adapter (lavapipe on CPU-only machines)")
}

fn vec_of(n: usize, k: usize) -> Array1<f32> {
    Array1::from_shape_fn(n, |i| ((i * k) % 13) as f32 / 13.0 - 0.5)
}

/// One benchmark pair: `$gpu` (wgblas) and `$cpu` (OpenBLAS) on the same inputs.
macro_rules! pair {
    ($group:expr, $name:expr, $n:expr, $gpu:expr, $cpu:expr) => {
        $group.bench_with_input(
            BenchmarkId::new(format!("{}/wgblas", $name), $n),
            &$n,
            |b, _| b.iter(|| $gpu),
        );
        $group.bench_with_input(
            BenchmarkId::new(format!("{}/openblas", $name), $n),
            &$n,
            |b, _| b.iter(|| unsafe { $cpu }),
        );
    };
}

fn level1(c: &mut Criterion) {
    let ctx = ctx();
    for n in sizes("WGBLAS_BENCH_L1", &[1 << 16, 1 << 20]) {
        let x = vec_of(n, 7);
        let y = vec_of(n, 5);
        let x64 = x.mapv(f64::from);
        let (mut wx, mut wy) = (x.clone(), y.clone());
        let ni = n as i32;
        let mut g = c.benchmark_group("level1");
        g.sample_size(10);
        g.throughput(Throughput::Bytes(4 * n as u64));
        pair!(
            g,
            "sdot",
            n,
            blas::sdot(ctx, x.view(), y.view()).unwrap(),
            cblas_sdot(ni, x.as_ptr(), 1, y.as_ptr(), 1)
        );
        pair!(
            g,
            "sasum",
            n,
            blas::sasum(ctx, x.view()).unwrap(),
            cblas_sasum(ni, x.as_ptr(), 1)
        );
        pair!(
            g,
            "snrm2",
            n,
            blas::snrm2(ctx, x.view()).unwrap(),
            cblas_snrm2(ni, x.as_ptr(), 1)
        );
        pair!(
            g,
            "isamax",
            n,
            blas::isamax(ctx, x.view()).unwrap(),
            cblas_isamax(ni, x.as_ptr(), 1)
        );
        pair!(
            g,
            "idamax",
            n,
            blas::idamax(ctx, x64.view()).unwrap(),
            cblas_idamax(ni, x64.as_ptr(), 1)
        );
        pair!(
            g,
            "dasum",
            n,
            blas::dasum(ctx, x64.view()).unwrap(),
            cblas_dasum(ni, x64.as_ptr(), 1)
        );
        pair!(
            g,
            "saxpy",
            n,
            blas::saxpy(ctx, 1e-3, x.view(), wy.view_mut()).unwrap(),
            cblas_saxpy(ni, 1e-3, x.as_ptr(), 1, wy.as_mut_ptr(), 1)
        );
        pair!(
            g,
            "scopy",
            n,
            blas::scopy(ctx, x.view(), wy.view_mut()).unwrap(),
            cblas_scopy(ni, x.as_ptr(), 1, wy.as_mut_ptr(), 1)
        );
        pair!(
            g,
            "sswap",
            n,
            blas::sswap(ctx, wx.view_mut(), wy.view_mut()).unwrap(),
            cblas_sswap(ni, wx.as_mut_ptr(), 1, wy.as_mut_ptr(), 1)
        );
        pair!(
            g,
            "sscal",
            n,
            blas::sscal(ctx, 0.999, wx.view_mut()).unwrap(),
            cblas_sscal(ni, 0.999, wx.as_mut_ptr(), 1)
        );
        pair!(
            g,
            "srot",
            n,
            blas::srot(ctx, wx.view_mut(), wy.view_mut(), 0.6, 0.8).unwrap(),
            cblas_srot(ni, wx.as_mut_ptr(), 1, wy.as_mut_ptr(), 1, 0.6, 0.8)
        );
        let p = [-1.0f32, 0.6, -0.8, 0.8, 0.6];
        pair!(
            g,
            "srotm",
            n,
            blas::srotm(ctx, wx.view_mut(), wy.view_mut(), p).unwrap(),
            cblas_srotm(ni, wx.as_mut_ptr(), 1, wy.as_mut_ptr(), 1, p.as_ptr())
        );
        g.finish();
    }
}

fn level2(c: &mut Criterion) {
    use CBLAS_LAYOUT::CblasRowMajor as RM;
    let ctx = ctx();
    for n in sizes("WGBLAS_BENCH_L2", &[256, 1024]) {
        let a = Array2::from_shape_fn((n, n), |(i, j)| {
            if i == j {
                2.0
            } else {
                ((i * 7 + j * 3) % 11) as f32 / (11.0 * n as f32)
            }
        });
        let x = vec_of(n, 7);
        let mut y = vec_of(n, 5);
        let mut w = a.clone();
        let ni = n as i32;
        let mut g = c.benchmark_group("level2");
        g.sample_size(10);
        g.throughput(Throughput::Bytes(4 * (n * n) as u64));
        for (t, ct, name) in [
            (Transpose::No, CBLAS_TRANSPOSE::CblasNoTrans, "sgemv_n"),
            (Transpose::Yes, CBLAS_TRANSPOSE::CblasTrans, "sgemv_t"),
        ] {
            pair!(
                g,
                name,
                n,
                blas::sgemv(ctx, t, 1.0, a.view(), x.view(), 0.0, y.view_mut()).unwrap(),
                cblas_sgemv(
                    RM,
                    ct,
                    ni,
                    ni,
                    1.0,
                    a.as_ptr(),
                    ni,
                    x.as_ptr(),
                    1,
                    0.0,
                    y.as_mut_ptr(),
                    1
                )
            );
        }
        let lo = CBLAS_UPLO::CblasLower;
        pair!(
            g,
            "ssymv",
            n,
            blas::ssymv(ctx, Uplo::Lower, 1.0, a.view(), x.view(), 0.0, y.view_mut()).unwrap(),
            cblas_ssymv(
                RM,
                lo,
                ni,
                1.0,
                a.as_ptr(),
                ni,
                x.as_ptr(),
                1,
                0.0,
                y.as_mut_ptr(),
                1
            )
        );
        let nt = CBLAS_TRANSPOSE::CblasNoTrans;
        let nu = CBLAS_DIAG::CblasNonUnit;
        pair!(
            g,
            "strmv",
            n,
            blas::strmv(
                ctx,
                Uplo::Lower,
                Transpose::No,
                Diag::NonUnit,
                a.view(),
                y.view_mut()
            )
            .unwrap(),
            cblas_strmv(RM, lo, nt, nu, ni, a.as_ptr(), ni, y.as_mut_ptr(), 1)
        );
        pair!(
            g,
            "strsv",
            n,
            blas::strsv(
                ctx,
                Uplo::Lower,
                Transpose::No,
                Diag::NonUnit,
                a.view(),
                y.view_mut()
            )
            .unwrap(),
            cblas_strsv(RM, lo, nt, nu, ni, a.as_ptr(), ni, y.as_mut_ptr(), 1)
        );
        pair!(
            g,
            "sger",
            n,
            blas::sger(ctx, 1e-6, x.view(), y.view(), w.view_mut()).unwrap(),
            cblas_sger(
                RM,
                ni,
                ni,
                1e-6,
                x.as_ptr(),
                1,
                y.as_ptr(),
                1,
                w.as_mut_ptr(),
                ni
            )
        );
        pair!(
            g,
            "ssyr",
            n,
            blas::ssyr(ctx, Uplo::Lower, 1e-6, x.view(), w.view_mut()).unwrap(),
            cblas_ssyr(RM, lo, ni, 1e-6, x.as_ptr(), 1, w.as_mut_ptr(), ni)
        );
        pair!(
            g,
            "ssyr2",
            n,
            blas::ssyr2(ctx, Uplo::Lower, 1e-6, x.view(), y.view(), w.view_mut()).unwrap(),
            cblas_ssyr2(
                RM,
                lo,
                ni,
                1e-6,
                x.as_ptr(),
                1,
                y.as_ptr(),
                1,
                w.as_mut_ptr(),
                ni
            )
        );
        g.finish();
    }
}

criterion_group!(benches, level1, level2);
criterion_main!(benches);
