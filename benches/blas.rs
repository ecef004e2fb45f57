//! Criterion benches: wgblas against OpenBLAS in the same run, in the two forms of the results
//! file (`benches/results/README.md`):
//!
//! - `<routine>/resident (GPU time)`: operands already on the device (`GpuMatrix`,
//!   `GpuVector`), time = the kernels' GPU time by timestamp queries (`Context::set_profiling`);
//! - `<routine>/host (wall)`: ndarray in, ndarray out, time = wall time of the whole call
//!   (upload, kernels, read-back), beside OpenBLAS's wall time on the same arrays.
//!
//! sgemm and sdot run on the operands of their test descriptions (`tests/wgblas/describe`,
//! through `support/described.rs`; one contiguous case per size), each checked once against
//! OpenBLAS with the description's metric and threshold (`metrics::spec`; a failure panics)
//! before it is timed; the OpenBLAS side is the description's oracle (`Elem::o_*`) on a copy of
//! the same operands.
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
use wgblas::Context;

#[path = "support/described.rs"]
mod described;
use described::*;

use describe::timing::Timed;
use describe::{Case, Elem, Ops, Routine};
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

/// The sizes of a bench, the description's case of each size and its throughput.
#[derive(Clone, Copy)]
struct Space<'a> {
    sizes: &'a [usize],
    case: fn(usize) -> Case,
    throughput: fn(usize) -> Throughput,
}

/// The group `<routine>/resident (GPU time)`: for each size n, `call` on the resident operands
/// of description `R`'s `case(n)` (checked once against OpenBLAS), GPU time.
fn resident_group<R: Routine>(
    c: &mut Criterion<Seconds>,
    routine: &str,
    space: Space<'_>,
    mut call: impl FnMut(&Context, &mut Timed<R, f32>),
) {
    let ctx = context();
    let mut group = c.benchmark_group(format!("{routine}/resident (GPU time)"));
    group.sample_size(10);
    if has_timestamps(ctx) {
        for &n in space.sizes {
            let mut t = Timed::<R, f32>::new(ctx, (space.case)(n), true);
            group.throughput((space.throughput)(n));
            group.bench_function(BenchmarkId::new("wgblas", n), |bench| {
                bench.iter_custom(|iters| {
                    gpu_time(ctx, iters, || call(ctx, &mut t)).expect("timestamps")
                })
            });
        }
    } else {
        eprintln!("{routine}/resident: the adapter has no TIMESTAMP_QUERY; no GPU-time bench");
    }
    group.finish();
}

/// The group `<routine>/host (wall)`: for each size n, the call of description `R` on the host
/// operands of its `case(n)` (checked once against OpenBLAS), beside `cpu`, its OpenBLAS
/// oracle, on a copy of them; wall time.
fn host_group<R: Routine, V>(
    c: &mut Criterion<Seconds>,
    routine: &str,
    space: Space<'_>,
    mut cpu: impl FnMut(&Case, &mut Ops<f32>) -> V,
) {
    let ctx = context();
    let mut group = c.benchmark_group(format!("{routine}/host (wall)"));
    group.sample_size(10);
    for &n in space.sizes {
        let mut t = Timed::<R, f32>::new(ctx, (space.case)(n), false);
        let (mut o, case) = (t.oracle_ops(), t.case);
        group.throughput((space.throughput)(n));
        group.bench_function(BenchmarkId::new("wgblas", n), |bench| {
            bench.iter(|| t.call(ctx))
        });
        group.bench_function(BenchmarkId::new("openblas", n), |bench| {
            bench.iter(|| cpu(&case, &mut o))
        });
    }
    group.finish();
}

/// sgemm of n×n matrices: no transposes, alpha = 1, beta = 0, C order (`describe::Case`),
/// seeded by n; 2n³ flops.
fn sgemm(c: &mut Criterion<Seconds>) {
    let sizes = sizes("WGBLAS_BENCH_GEMM", &[128, 256]);
    let space = Space {
        sizes: &sizes,
        case: |n| Case::mnk(n as u64, n, n, n),
        throughput: |n| Throughput::Elements(2 * (n as u64).pow(3)),
    };
    resident_group::<Gemm>(c, "sgemm", space, |ctx, t| t.call(ctx));
    host_group::<Gemm, _>(c, "sgemm", space, |c, o| {
        let (alpha, beta) = (c.alpha as f32, c.beta as f32);
        f32::o_gemm(c.trans, c.transb, alpha, &o.a, &o.b, beta, &mut o.c)
    });
}

/// sdot of length n, unit strides, seeded by n; 8n bytes.
fn sdot(c: &mut Criterion<Seconds>) {
    let sizes = sizes("WGBLAS_BENCH_DOT", &[1 << 16, 1 << 20]);
    let space = Space {
        sizes: &sizes,
        case: |n| Case::new(n as u64, n, n),
        throughput: |n| Throughput::BytesDecimal(8 * n as u64),
    };
    // The description checks the resident form (`resident::sdot`, the result kept on the
    // device) bit for bit against the host form; its timed call runs that form alone.
    resident_group::<Dot>(c, "sdot", space, |ctx, t| t.call(ctx));
    host_group::<Dot, _>(c, "sdot", space, |_, o| f32::o_dot(&o.x, &o.y));
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
