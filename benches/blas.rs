//! Criterion benches: wgblas against OpenBLAS in the same run, in the two forms of the results
//! file (`benches/results/README.md`):
//!
//! - `<routine>/resident (GPU time)`: operands already on the device (`GpuMatrix`,
//!   `GpuVector`), time = the kernels' GPU time by timestamp queries (`Context::set_profiling`);
//! - `<routine>/host (wall)`: ndarray in, ndarray out, time = wall time of the whole call
//!   (upload, kernels, read-back), beside OpenBLAS's wall time on the same arrays.
//!
//! Throughput is in GFLOP/s for sgemm (2n³ flops) and in GB/s for sdot (8n bytes) and the
//! host↔device transfers (`transfer`: upload and read-back, wall time). HTML reports
//! with plots: `target/criterion/report/index.html`.
//!
//! `cargo bench` (sizes small enough for lavapipe by default). On a real GPU set
//! `WGBLAS_BENCH_GEMM=1024,4096` and `WGBLAS_BENCH_DOT=1048576,67108864`.

extern crate blas_src;

use std::time::{Duration, Instant};

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ndarray::Array1;
use wgblas::{resident, Context};

#[path = "support/described.rs"]
mod described;
use described::*;

use describe::timing::Timed;
use describe::{Case, Elem};
use dot::Dot;
use gemm::Gemm;

/// Wall-clock measurement (as criterion's `WallTime`) whose throughput reads `Elements` as flops
/// (GFLOP/s) and `BytesDecimal` as GB/s, the units of the results file.
struct Seconds;

struct Units;

impl Units {
    fn rate(
        amount: f64,
        typical: f64,
        values: &mut [f64],
        units: [&'static str; 4],
    ) -> &'static str {
        let per_second = amount * 1e9 / typical;
        let (scale, unit) = if per_second < 1e3 {
            (1.0, units[0])
        } else if per_second < 1e6 {
            (1e3, units[1])
        } else if per_second < 1e9 {
            (1e6, units[2])
        } else {
            (1e9, units[3])
        };
        for v in values {
            *v = amount * 1e9 / *v / scale;
        }
        unit
    }
}

impl ValueFormatter for Units {
    fn scale_throughputs(
        &self,
        typical: f64,
        throughput: &Throughput,
        values: &mut [f64],
    ) -> &'static str {
        match *throughput {
            Throughput::Elements(flops) => Self::rate(
                flops as f64,
                typical,
                values,
                ["FLOP/s", "KFLOP/s", "MFLOP/s", "GFLOP/s"],
            ),
            Throughput::Bytes(b) | Throughput::BytesDecimal(b) => {
                Self::rate(b as f64, typical, values, ["B/s", "KB/s", "MB/s", "GB/s"])
            }
            Throughput::Bits(b) => {
                Self::rate(b as f64, typical, values, ["b/s", "Kb/s", "Mb/s", "Gb/s"])
            }
        }
    }

    fn scale_values(&self, ns: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if ns < 1e3 {
            (1.0, "ns")
        } else if ns < 1e6 {
            (1e-3, "µs")
        } else if ns < 1e9 {
            (1e-6, "ms")
        } else {
            (1e-9, "s")
        };
        for v in values {
            *v *= factor;
        }
        unit
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

impl Measurement for Seconds {
    type Intermediate = Instant;
    type Value = Duration;

    fn start(&self) -> Instant {
        Instant::now()
    }
    fn end(&self, i: Instant) -> Duration {
        i.elapsed()
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &Units
    }
}

fn sizes(var: &str, default: &[usize]) -> Vec<usize> {
    match std::env::var(var) {
        Err(_) => default.to_vec(),
        Ok(s) => s
            .split(',')
            .map(|t| {
                t.trim().parse().unwrap_or_else(|_| {
                    panic!("{var}: {t:?} is not a size (a comma-separated list)")
                })
            })
            .collect(),
    }
}

fn context() -> &'static Context {
    Context::shared().expect("a GPU adapter (lavapipe on CPU-only machines)")
}

/// Sum of the GPU times of `iters` calls of `f` (each submitted and timed alone with profiling
/// on), or `None` where the adapter has no timestamp queries.
fn gpu_time(ctx: &Context, iters: u64, mut f: impl FnMut()) -> Option<Duration> {
    ctx.set_profiling(true);
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        f();
        total += ctx.last_gpu_time()?;
    }
    ctx.set_profiling(false);
    Some(total)
}

fn has_timestamps(ctx: &Context) -> bool {
    ctx.features()
        .contains(wgblas::wgpu::Features::TIMESTAMP_QUERY)
}

/// The case of an n×n×n sgemm (`describe::Case`: no transposes, alpha = 1, beta = 0, C order),
/// seeded by n.
fn gemm_case(n: usize) -> Case {
    Case::mnk(n as u64, n, n, n)
}

/// The case of an sdot of length n (unit strides), seeded by n.
fn dot_case(n: usize) -> Case {
    Case::new(n as u64, n, n)
}

fn sgemm(c: &mut Criterion<Seconds>) {
    let ctx = context();
    let gemm_sizes = sizes("WGBLAS_BENCH_GEMM", &[128, 256]);

    let mut group = c.benchmark_group("sgemm/resident (GPU time)");
    group.sample_size(10);
    if has_timestamps(ctx) {
        for &n in &gemm_sizes {
            let mut t = Timed::<Gemm, f32>::new(ctx, gemm_case(n), true);
            group.throughput(Throughput::Elements(2 * (n as u64).pow(3)));
            group.bench_function(BenchmarkId::new("wgblas", n), |bench| {
                bench.iter_custom(|iters| gpu_time(ctx, iters, || t.call(ctx)).expect("timestamps"))
            });
        }
    } else {
        eprintln!("sgemm/resident: the adapter has no TIMESTAMP_QUERY; no GPU-time bench");
    }
    group.finish();

    let mut group = c.benchmark_group("sgemm/host (wall)");
    group.sample_size(10);
    for &n in &gemm_sizes {
        let mut t = Timed::<Gemm, f32>::new(ctx, gemm_case(n), false);
        let (mut o, case) = (t.oracle_ops(), t.case);
        let (alpha, beta) = (case.alpha as f32, case.beta as f32);
        group.throughput(Throughput::Elements(2 * (n as u64).pow(3)));
        group.bench_function(BenchmarkId::new("wgblas", n), |bench| {
            bench.iter(|| t.call(ctx))
        });
        group.bench_function(BenchmarkId::new("openblas", n), |bench| {
            bench.iter(|| f32::o_gemm(case.trans, case.transb, alpha, &o.a, &o.b, beta, &mut o.c))
        });
    }
    group.finish();
}

fn sdot(c: &mut Criterion<Seconds>) {
    let ctx = context();
    let dot_sizes = sizes("WGBLAS_BENCH_DOT", &[1 << 16, 1 << 20]);

    let mut group = c.benchmark_group("sdot/resident (GPU time)");
    group.sample_size(10);
    if has_timestamps(ctx) {
        for &n in &dot_sizes {
            // The description checks the resident form (`resident::sdot`, the result kept on
            // the device) bit for bit against the host form; the bench times that form alone.
            let t = Timed::<Dot, f32>::new(ctx, dot_case(n), true);
            let s = &t.slots;
            group.throughput(Throughput::BytesDecimal(8 * n as u64));
            group.bench_function(BenchmarkId::new("wgblas", n), |bench| {
                bench.iter_custom(|iters| {
                    gpu_time(ctx, iters, || {
                        resident::sdot(ctx, s.x.r(), s.y.r()).unwrap();
                    })
                    .expect("timestamps")
                })
            });
        }
    } else {
        eprintln!("sdot/resident: the adapter has no TIMESTAMP_QUERY; no GPU-time bench");
    }
    group.finish();

    let mut group = c.benchmark_group("sdot/host (wall)");
    group.sample_size(10);
    for &n in &dot_sizes {
        let mut t = Timed::<Dot, f32>::new(ctx, dot_case(n), false);
        let o = t.oracle_ops();
        group.throughput(Throughput::BytesDecimal(8 * n as u64));
        group.bench_function(BenchmarkId::new("wgblas", n), |bench| {
            bench.iter(|| t.call(ctx))
        });
        group.bench_function(BenchmarkId::new("openblas", n), |bench| {
            bench.iter(|| f32::o_dot(&o.x, &o.y))
        });
    }
    group.finish();
}

/// Host↔device transfers (issue 10): `upload_vector` (until the device holds the data) and
/// `to_array`, contiguous and with a step of 2 (gathered straight into staging memory), wall
/// time. `WGBLAS_BENCH_TRANSFER=67108864` on a real GPU; lavapipe's figures only show the shape.
fn transfers(c: &mut Criterion<Seconds>) {
    let ctx = context();
    let mut group = c.benchmark_group("transfer");
    group.sample_size(10);
    for n in sizes("WGBLAS_BENCH_TRANSFER", &[1 << 16, 1 << 22]) {
        let x = Array1::<f32>::from_shape_fn(2 * n, |i| i as f32);
        let dense = x.slice(ndarray::s![..n]);
        let step2 = x.slice(ndarray::s![..;2]);
        group.throughput(Throughput::BytesDecimal(4 * n as u64));
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

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(Seconds);
    targets = sgemm, sdot, transfers
}
criterion_main!(benches);
