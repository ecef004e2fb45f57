//! Criterion benches of every Level 1 and Level 2 routine: wgblas against OpenBLAS in the same
//! run. wgblas times are wall times of the host-form call (upload, kernels, read-back);
//! `examples/bandwidth_report.rs` gives the GPU-resident bandwidth figures.
//!
//! Each routine runs on the operands of its test description (`tests/wgblas/describe`, through
//! `support/described.rs`) for one case (contiguous operands), is checked once against
//! OpenBLAS with the description's metric and threshold (`metrics::spec`; a failure panics),
//! then its description's call is timed, beside the description's OpenBLAS oracle on a copy of
//! the same operands.
//!
//! `cargo bench --bench level12` (sizes small enough for lavapipe by default). On a real GPU set
//! `WGBLAS_BENCH_L1=1048576,67108864` and `WGBLAS_BENCH_L2=4096,16384`.

extern crate blas_src;

use criterion::measurement::WallTime;
use criterion::Throughput;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion};
use wgblas::{Context, Diag, Transpose, Uplo};

#[path = "support/described.rs"]
mod described;
use described::*;

use common::VLayout::Unit;
use describe::level1::vcase;
use describe::timing::Timed;
use describe::{Case, Elem, Ops, Routine};

fn sizes(var: &str, default: &[usize]) -> Vec<usize> {
    std::env::var(var)
        .ok()
        .map(|s| s.split(',').filter_map(|t| t.trim().parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

fn ctx() -> &'static Context {
    Context::shared().expect("a GPU adapter (lavapipe on CPU-only machines)")
}

/// One benchmark pair on the operands of description `R`'s `case`, checked once: the
/// description's call (wgblas) and `cpu`, its OpenBLAS oracle, on a copy of the operands.
fn pair<R: Routine, T: Elem, V>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    case: Case,
    mut cpu: impl FnMut(&Case, &mut Ops<T>) -> V,
) {
    let (ctx, n) = (ctx(), case.n);
    let mut t = Timed::<R, T>::new(ctx, case, false);
    let mut o = t.oracle_ops();
    g.bench_with_input(BenchmarkId::new(format!("{name}/wgblas"), n), &n, |b, _| {
        b.iter(|| t.call(ctx))
    });
    g.bench_with_input(
        BenchmarkId::new(format!("{name}/openblas"), n),
        &n,
        |b, _| b.iter(|| cpu(&case, &mut o)),
    );
}

/// A vector case of length n (unit strides), seeded by n, with alpha (and beta).
fn v(n: usize, alpha: f64, beta: f64) -> Case {
    vcase(n as u64, n, alpha, Unit, Unit).scalars(alpha, beta)
}

fn level1(c: &mut Criterion) {
    for n in sizes("WGBLAS_BENCH_L1", &[1 << 16, 1 << 20]) {
        let mut g = c.benchmark_group("level1");
        g.sample_size(10);
        g.throughput(Throughput::Bytes(4 * n as u64));
        // alpha = 0 for the reductions: ordinary values (asum, iamax: not the wide f64 ones;
        // nrm2: scale 1).
        let plain = v(n, 0.0, 0.0);
        pair::<dot::Dot, f32, _>(&mut g, "sdot", plain, |_, o| f32::o_dot(&o.x, &o.y));
        pair::<asum::Asum, f32, _>(&mut g, "sasum", plain, |_, o| f32::o_asum(&o.x));
        pair::<nrm2::Nrm2, f32, _>(&mut g, "snrm2", plain, |_, o| f32::o_nrm2(&o.x));
        pair::<iamax::Iamax, f32, _>(&mut g, "isamax", plain, |_, o| f32::o_iamax(&o.x));
        pair::<iamax::Iamax, f64, _>(&mut g, "idamax", plain, |_, o| f64::o_iamax(&o.x));
        pair::<asum::Asum, f64, _>(&mut g, "dasum", plain, |_, o| f64::o_asum(&o.x));
        pair::<axpy::Axpy, f32, _>(&mut g, "saxpy", v(n, 1e-3, 0.0), |c, o| {
            f32::o_axpy(c.alpha as f32, &o.x, &mut o.y)
        });
        pair::<copy::VecCopy, f32, _>(&mut g, "scopy", plain, |_, o| f32::o_copy(&o.x, &mut o.y));
        pair::<swap::Swap, f32, _>(&mut g, "sswap", plain, |_, o| {
            f32::o_swap(&mut o.x, &mut o.y)
        });
        pair::<scal::Scal, f32, _>(&mut g, "sscal", v(n, 0.999, 0.0), |c, o| {
            f32::o_scal(c.alpha as f32, &mut o.x)
        });
        pair::<rot::Rot, f32, _>(&mut g, "srot", v(n, 0.6, 0.8), |c, o| {
            f32::o_rot(&mut o.x, &mut o.y, c.alpha as f32, c.beta as f32)
        });
        let param = [-1.0, 0.6, -0.8, 0.8, 0.6];
        pair::<rotm::Rotm, f32, _>(&mut g, "srotm", Case { param, ..plain }, |c, o| {
            f32::o_rotm(&mut o.x, &mut o.y, c.param.map(|p| p as f32))
        });
        g.finish();
    }
}

fn level2(c: &mut Criterion) {
    for n in sizes("WGBLAS_BENCH_L2", &[256, 1024]) {
        let mut g = c.benchmark_group("level2");
        g.sample_size(10);
        g.throughput(Throughput::Bytes(4 * (n * n) as u64));
        // An n×n case: the triangle `uplo`, op(A) = A or Aᵀ, a non-unit diagonal, alpha, beta.
        let mat = |uplo, t, alpha| {
            Case::new(n as u64, n, n)
                .flags(uplo, t, Diag::NonUnit)
                .scalars(alpha, 0.0)
        };
        for (t, name) in [(Transpose::No, "sgemv_n"), (Transpose::Yes, "sgemv_t")] {
            pair::<gemv::Gemv, f32, _>(&mut g, name, mat(Uplo::Upper, t, 1.0), |c, o| {
                f32::o_gemv(c.trans, 1.0, &o.a, &o.x, 0.0, &mut o.y)
            });
        }
        let lower = |alpha| mat(Uplo::Lower, Transpose::No, alpha);
        pair::<symv::Symv, f32, _>(&mut g, "ssymv", lower(1.0), |c, o| {
            f32::o_symv(c.uplo, 1.0, &o.a, &o.x, 0.0, &mut o.y)
        });
        pair::<trmv::Trmv, f32, _>(&mut g, "strmv", lower(1.0), |c, o| {
            f32::o_trmv(c.uplo, c.trans, c.diag, &o.a, &mut o.x)
        });
        pair::<trsv::Trsv, f32, _>(&mut g, "strsv", lower(1.0), |c, o| {
            f32::o_trsv(c.uplo, c.trans, c.diag, &o.a, &mut o.x)
        });
        pair::<ger::Ger, f32, _>(&mut g, "sger", lower(1e-6), |c, o| {
            f32::o_ger(c.alpha as f32, &o.x, &o.y, &mut o.a)
        });
        pair::<syr::Syr, f32, _>(&mut g, "ssyr", lower(1e-6), |c, o| {
            f32::o_syr(c.uplo, c.alpha as f32, &o.x, &mut o.a)
        });
        pair::<syr2::Syr2, f32, _>(&mut g, "ssyr2", lower(1e-6), |c, o| {
            f32::o_syr2(c.uplo, c.alpha as f32, &o.x, &o.y, &mut o.a)
        });
        g.finish();
    }
}

criterion_group!(benches, level1, level2);
criterion_main!(benches);
