//! Bandwidth report (issue 12): Level 1 and Level 2 on resident operands, GPU time by timestamp
//! queries, as `ROW,` lines in the `BENCH.md` format, with a device copy of the same bytes as
//! the `copy-bandwidth` reference (`REF,` lines), result checks (`CHECK,` lines) and, with
//! `--lab`, every kernel variant of the lab switches (`LAB,` lines).
//!
//! GB/s counts the bytes the routine must read and write once (Level 1: its vectors, 8-byte
//! elements for ddot and daxpy, which run where the adapter has `SHADER_F64`; sgemv,
//! ssymv, strmv: the matrix elements it reads, a triangle for ssymv and strmv, plus its vectors;
//! sger, ssyr, ssyr2: the elements of A it reads and writes). Times are medians of `--reps`
//! (default 11) after 3 warm-ups; the minimum is printed beside on `#` lines.
//!
//! The device copy runs on a second wgpu device of the same adapter: `copy_buffer_to_buffer` of
//! half the routine's bytes (read + write = the routine's bytes), timed by timestamps written in
//! the encoder where the adapter has `TIMESTAMP_QUERY_INSIDE_ENCODERS`, else by wall time over 50
//! copies in one submission.
//!
//! `--sets`: `l1` (Level 1), `l2` (Level 2), `lab` (every kernel variant of Level 1), `lab-l2`
//! (and of Level 2; the legacy gemv kernels take up to 1.4 s a call on the skinny shapes),
//! `x-l2` (Level 2's default beside the lab's `Experimental` kernels only, tagged `lines128`
//! for ssymv, `coldot4` for sgemv and strmv where op(A)'s columns are contiguous, `tile` for
//! sger, ssyr and ssyr2; with `f64` also `wide64` for dgemv, dsymv and dtrmv on the
//! matrix-vector driver's kernels), `f64` (dgemv, dsymv, dtrmv, dger, dsyr, dsyr2, dtrsv at
//! the `--sq64` sizes).
//!
//! Run: `cargo run --release --example bandwidth_report -- [--sets l1,l2,lab] [--l1 20,26]
//! [--gemv 4096,8192,16384] [--skinny 23] [--sq 16384] [--trsv 8192] [--trsv-step 4,8,16]
//! [--trsv-prefetch]
//! [--sq64 8192] [--reps 11]
//! [--reduction-groups 0]` (a cap on the single-pass reductions' workgroups,
//! `lab::set_reduction_groups`; 0: the driver's own, 528) `[--checks auto|0|1|2]` (the
//! shader modules' runtime checks, `lab::set_shader_checks`: auto, the crate's choice per
//! shader, the default; 0, wgpu's checked mode; 1, without naga's index clamps; 2, also
//! without its loop bounding) `[--f64-legacy]` (the f64 Level 1 rows again on the first f64
//! reductions, `lab::Driver::ReductionF64` at `Legacy`, as `LAB,legacy64,...` lines)
//! `[--gemv-groups 1024,4096]` (each sgemv row again with the wide kernels aimed at that many
//! workgroups, `lab::set_gemv_shape`, as `LAB,groups1024,...` lines, checked where the default
//! is; none by default) `[--gemv-col-lanes 4,16]` (the rows where op(A)'s columns are
//! contiguous again with `gemv_coldot` on that many column lanes, `lab::set_gemv_shape`, as
//! `LAB,collanes4,...` lines; none by default) `[--symv-one-pass 4,8,16]` (each ssymv row, and
//! with `f64` each dsymv row, again in one pass over the stored triangle with that many tiles
//! per workgroup, `lab::set_symv_one_pass`, as `LAB,onepass8,...` lines, each with `CHECK,`
//! lines at n = 1031 against OpenBLAS; none by default) `[--trmv-groups 2048,4096]` (each
//! `--sq` strmv row and the two-pass ssymv rows again with the wide kernels aimed at that many
//! workgroups, `lab::set_gemv_shape`, as `LAB,groups2048,...` lines: `gemv_coldot` on a
//! triangle leaves the workgroups of the chunks outside it idle; none by default).
//! `[--rank-products 2]` (each sger, ssyr and ssyr2 row again on `main_pre` with the plain
//! formula, its ceiling, tagged `plain`:
//! `lab::set_rank_products`; none by default) `[--rank-rows 2,4,8]` (each of those rows
//! again on `main_rows` with that many lines per invocation, tagged `rows8`, ...:
//! `lab::set_rank_rows`; none by default) `[--rank-tri 1]` (each ssyr and ssyr2 row again with
//! `main_rows` on the triangle's tiles only, tagged `tri`: `lab::set_rank_tri`).
//! `--trsv-step`: besides strsv's default, the look-ahead solve
//! (lab `Experimental` on trsv, `wgsl/level2/trsv_step.wgsl`) with sub-blocks of each listed
//! number of rows (`lab::set_trsv_sub_block`), tagged `step4`, `step8`, `step16`, each with a
//! `CHECK,` line (strsv's backward residual factor against its `metrics::spec` threshold, on
//! a fresh right-hand side). `--trsv-prefetch`: each of those also with the L2 prefetch
//! (`lab::set_trsv_prefetch`), tagged `step8pf`.

extern crate blas_src;

use std::time::Instant;

use ndarray::{Array1, Array2, ArrayViewD};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgblas::lab::{self, Driver, Variant};
use wgblas::metrics::{self, Metric};
use wgblas::{blas, Context, Diag, GpuMatrix, GpuVector, Transpose, Uplo};

#[path = "support/args.rs"]
mod args;
#[path = "support/timing.rs"]
mod timing;

#[path = "../benches/support/described.rs"]
mod described;
use described::*;

use common::VLayout::Unit;
use describe::level1::vcase;
use describe::{Case, Elem, Ops, Routine};

/// The flags and their defaults; anything else on the command line is an error.
const FLAGS: &[(&str, &str)] = &[
    ("--gemv", "4096,8192,16384"),
    ("--skinny", "23,"),
    ("--sq", "16384,"),
    ("--trsv", "8192,"),
    ("--trsv-step", ""),
    ("--trsv-prefetch", args::SWITCH),
    ("--sq64", "8192,"),
    ("--reps", "11"),
    ("--sets", "l1,l2"),
    ("--l1", "20,26"),
    ("--reduction-groups", "0"),
    ("--checks", "auto"),
    ("--f64-legacy", args::SWITCH),
    ("--gemv-groups", ""),
    ("--gemv-col-lanes", ""),
    ("--symv-one-pass", ""),
    ("--trmv-groups", ""),
    ("--rank-products", ""),
    ("--rank-rows", ""),
    ("--rank-tri", ""),
];

/// The value of a flag (its default where absent); the default argument documents the call
/// site and must match `FLAGS`.
fn arg(name: &str, default: &str) -> String {
    debug_assert!(
        FLAGS.contains(&(name, default)),
        "{name}: default differs from FLAGS"
    );
    args::get(FLAGS, name)
}

use args::sizes as list;

struct Stats {
    median: f64,
    min: f64,
}

fn stats(mut v: Vec<f64>) -> Stats {
    v.sort_by(f64::total_cmp);
    Stats {
        median: v[v.len() / 2],
        min: v[0],
    }
}

use timing::{batch_size, WARM_S};

/// GPU seconds of one call of `f`, median and minimum of `reps` samples of
/// [`timing::per_call`] (3 warm-up calls, batches of about 1 ms after [`WARM_S`] of them).
fn time_gpu(ctx: &Context, reps: usize, f: impl FnMut()) -> Stats {
    stats(timing::per_call(ctx, reps, 3, f))
}

/// GPU seconds of `f`, a call that reads its result back (`idamax`, `dasum`: no resident
/// form), so it cannot be batched: timestamps around its own submission, median and minimum
/// of `reps` after [`WARM_S`] of warm-up calls.
fn time_gpu_reading(ctx: &Context, reps: usize, mut f: impl FnMut()) -> Stats {
    let warm = std::time::Instant::now();
    while warm.elapsed().as_secs_f64() < WARM_S {
        f();
    }
    stats(
        (0..reps)
            .map(|_| {
                f();
                ctx.last_gpu_time().map_or(f64::NAN, |d| d.as_secs_f64())
            })
            .collect(),
    )
}

/// `CHECK,{fields},{metric},{value},<={threshold}`: description `R`'s measure of `got` (the
/// result of `case` on operands `ops`) against OpenBLAS, beside its threshold of
/// `metrics::spec` (factors to 3 decimals, ULP counts whole), ` FAIL` appended past it. A kernel
/// variant's check names it in the metric field (`tag`): `ssymv,n=1031,L-C` with `lines128` prints
/// `CHECK,ssymv,n=1031,L-C,lines128-forward,...`.
fn check<R: Routine, T: Elem>(
    fields: &str,
    tag: &str,
    case: &Case,
    ops: &Ops<T>,
    got: ArrayViewD<T>,
) {
    let value = describe::timing::measure::<R, T>(case, ops, got);
    let spec = describe::spec::<R, T>();
    let (metric, shown) = match spec.metric {
        Metric::Forward => ("forward", format!("{value:.3}")),
        Metric::BackwardResidual => ("backward", format!("{value:.3}")),
        _ => ("ulp", format!("{value}")),
    };
    let fail = if spec.passes(value) { "" } else { " FAIL" };
    let metric = if tag.is_empty() {
        metric.to_string()
    } else {
        format!("{tag}-{metric}")
    };
    println!("CHECK,{fields},{metric},{shown},<={}{fail}", spec.threshold);
}

fn rand_vec(r: &mut StdRng, n: usize) -> Array1<f32> {
    Array1::from_shape_simple_fn(n, || {
        let v: f32 = r.random_range(1e-3f32..=1.0);
        if r.random_bool(0.5) {
            -v
        } else {
            v
        }
    })
}

fn rand_mat(r: &mut StdRng, m: usize, n: usize) -> Array2<f32> {
    Array2::from_shape_simple_fn((m, n), || r.random_range(-1.0f32..=1.0))
}

/// The copy reference: a second device on the adapter, or none with `WGBLAS_NO_COPIER` set
/// (then the in-process copy rows read NaN; to test whether a second device changes the
/// figures).
struct Copier {
    dev: Option<CopierDev>,
}

impl Copier {
    fn new() -> Copier {
        Copier {
            dev: std::env::var_os("WGBLAS_NO_COPIER")
                .is_none()
                .then(CopierDev::new),
        }
    }

    fn copy_seconds(&mut self, bytes: u64, reps: usize) -> Stats {
        match &mut self.dev {
            Some(d) => d.copy_seconds(bytes, reps),
            None => Stats {
                median: f64::NAN,
                min: f64::NAN,
            },
        }
    }
}

/// A second device on the adapter, for the copy reference.
struct CopierDev {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
}

impl CopierDev {
    fn new() -> CopierDev {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        }))
        .expect("an adapter for the copy reference");
        let features = adapter.features() & wgpu::Features::TIMESTAMP_QUERY;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("copy reference"),
            required_features: features,
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .expect("a device for the copy reference");
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("copy"),
            source: wgpu::ShaderSource::Wgsl(COPY_WGSL.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("copy"),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        CopierDev {
            device,
            queue,
            pipeline,
        }
    }

    /// Seconds to copy `bytes` bytes device to device by a compute shader (`vec4` loads and
    /// stores, four per invocation, as a plain copy kernel), median and minimum of `reps`
    /// samples after 3 warm-ups and [`WARM_S`] of batches; a sample is a batch of back-to-back copies in one compute pass
    /// (sized as [`time_gpu`]'s), timed by timestamps around the pass.
    fn copy_seconds(&mut self, bytes: u64, reps: usize) -> Stats {
        let bytes = bytes.div_ceil(16) * 16;
        let make = |label, usage| {
            self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage,
                mapped_at_creation: false,
            })
        };
        let st = wgpu::BufferUsages::STORAGE;
        let (src, dst) = (make("src", st), make("dst", st));
        let bind = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: src.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: dst.as_entire_binding(),
                },
            ],
        });
        let groups = (bytes / 16).div_ceil(1024);
        let (gx, gy) = if groups <= 65535 {
            (groups as u32, 1)
        } else {
            let gy = groups.div_ceil(65535);
            (groups.div_ceil(gy) as u32, gy as u32)
        };
        let mut samples = Vec::new();
        let mut inner = 1;
        let mut warm: Option<std::time::Instant> = None;
        let mut rep = 0;
        while samples.len() < reps {
            let set = self.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: None,
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            });
            let resolve = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: 16,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let read = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: 16,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let mut e = self.device.create_command_encoder(&Default::default());
            {
                let mut pass = e.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: None,
                    timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                        query_set: &set,
                        beginning_of_pass_write_index: Some(0),
                        end_of_pass_write_index: Some(1),
                    }),
                });
                pass.set_pipeline(&self.pipeline);
                pass.set_bind_group(0, &bind, &[]);
                for _ in 0..inner {
                    pass.dispatch_workgroups(gx, gy, 1);
                }
            }
            e.resolve_query_set(&set, 0..2, &resolve, 0);
            e.copy_buffer_to_buffer(&resolve, 0, &read, 0, 16);
            self.queue.submit(Some(e.finish()));
            read.slice(..).map_async(wgpu::MapMode::Read, |_| {});
            self.device
                .poll(wgpu::PollType::wait_indefinitely())
                .unwrap();
            let v = read.slice(..).get_mapped_range().unwrap();
            let ts: [u64; 2] = bytemuck::pod_read_unaligned(&v[..16]);
            let t = ts[1].saturating_sub(ts[0]) as f64
                * f64::from(self.queue.get_timestamp_period())
                * 1e-9
                / inner as f64;
            // Three warm-ups, then one call that sizes the batches, then WARM_S of batches (as
            // `time_gpu` does).
            if rep == 3 {
                inner = batch_size(t);
                warm = Some(std::time::Instant::now());
            } else if warm.is_some_and(|w| w.elapsed().as_secs_f64() >= WARM_S) {
                samples.push(t);
            }
            rep += 1;
        }
        stats(samples)
    }
}

const COPY_WGSL: &str = "
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let base = (wid.x + wid.y * nwg.x) * 1024u + lid;
    let n = arrayLength(&dst);
    if (base + 768u < n) {
        let a = src[base];
        let b = src[base + 256u];
        let c = src[base + 512u];
        let d = src[base + 768u];
        dst[base] = a;
        dst[base + 256u] = b;
        dst[base + 512u] = c;
        dst[base + 768u] = d;
        return;
    }
    for (var k = 0u; k < 4u; k = k + 1u) {
        if (base + 256u * k < n) {
            dst[base + 256u * k] = src[base + 256u * k];
        }
    }
}
";

/// Print a `ROW` (or a `LAB` line for a non-default variant) of a rate in GB/s, then measure
/// a device copy of the same bytes right after it (so that both see the same state of this
/// shared machine) and print it as the `REF` (a `#` line for a `LAB`).
#[allow(clippy::too_many_arguments)]
fn row(
    copier: &mut Copier,
    reps: usize,
    tag: &str,
    routine: &str,
    shape: &str,
    layout: &str,
    bytes: f64,
    s: &Stats,
) {
    let gbs = bytes / s.median / 1e9;
    if tag != "auto" {
        println!(
            "# {routine} {shape} {layout} {tag}: {:.2} us median ({:.2} min) = {:.0} GB/s ({:.0} at min)",
            s.median * 1e6,
            s.min * 1e6,
            gbs,
            bytes / s.min / 1e9
        );
        println!("LAB,{tag},{routine},{shape},{layout},resident,GB/s,{gbs:.0}");
        return;
    }
    let c = copier.copy_seconds((bytes / 2.0) as u64, reps);
    let cgbs = bytes / c.median / 1e9;
    println!(
        "# {routine} {shape} {layout} {tag}: {:.2} us median ({:.2} min) = {:.0} GB/s ({:.0} at min); copy {:.2} us ({:.2} min) = {:.0} GB/s; ratio {:.3}",
        s.median * 1e6,
        s.min * 1e6,
        gbs,
        bytes / s.min / 1e9,
        c.median * 1e6,
        c.min * 1e6,
        cgbs,
        gbs / cgbs
    );
    println!("ROW,{routine},{shape},{layout},resident,GB/s,{gbs:.0}");
    println!("REF,{routine},{shape},{layout},resident,GB/s,copy-bandwidth,{cgbs:.0}");
}

fn variants(lab_on: bool) -> Vec<(Variant, &'static str)> {
    if lab_on {
        vec![
            (Variant::Auto, "auto"),
            (Variant::Scalar, "scalar"),
            (Variant::Legacy, "legacy"),
        ]
    } else {
        vec![(Variant::Auto, "auto")]
    }
}

/// Which kernel variants the Level 2 rows time: the default only, every lab variant (set
/// `lab-l2`), or the default beside the lab's `Experimental` kernels only (set `x-l2`: the
/// candidates of issue 12 round 2, one H200 command without the slow legacy kernels).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Lab2 {
    Off,
    Full,
    Exp,
}

/// The variants of a Level 2 routine under `lab`: `full` (the lab's variants of the routine
/// but `Experimental`, the default first) with `lab-l2`, and `Experimental` under `tag` with
/// `lab-l2` or `x-l2` where the routine has a kernel of its own there (`tag` not empty).
fn l2_variants(
    lab: Lab2,
    full: &[(Variant, &'static str)],
    tag: &'static str,
) -> Vec<(Variant, &'static str)> {
    let mut v = match lab {
        Lab2::Full => full.to_vec(),
        _ => vec![(Variant::Auto, "auto")],
    };
    if lab != Lab2::Off && !tag.is_empty() {
        v.push((Variant::Experimental, tag));
    }
    v
}

/// ssymv's kernels: [`variants`] (`Auto`: two passes of the wide kernels, the stored triangle
/// then the transposed strict triangle; `Scalar`: `symv_tiles`, 64×64 tiles in workgroup
/// memory) and `Experimental` (`symv_lines`, 128×128 tiles held in registers).
fn symv_variants(lab: Lab2) -> Vec<(Variant, &'static str)> {
    l2_variants(lab, &variants(true), "lines128")
}

/// The rank updates' kernels: `main_pre` (auto), `main_vec4` (`Legacy`, tagged `vec4`: the
/// default before session 12, which forms the j index's factors for every element), `main`
/// (scalar) and `main_pre` with two units per invocation (`Experimental`, tagged `pair`).
fn rank_variants(lab: Lab2) -> Vec<(Variant, &'static str)> {
    let mut v = l2_variants(
        lab,
        &[(Variant::Auto, "auto"), (Variant::Scalar, "scalar")],
        "pair",
    );
    if lab != Lab2::Off {
        v.insert(1, (Variant::Legacy, "vec4"));
    }
    for p in list(&arg("--rank-products", "")) {
        match p {
            2 => v.push((Variant::Auto, "plain")),
            _ => panic!("--rank-products: 2 (plain), not {p}"),
        }
    }
    for r in list(&arg("--rank-rows", "")) {
        match r {
            2 => v.push((Variant::Auto, "rows2")),
            4 => v.push((Variant::Auto, "rows4")),
            8 => v.push((Variant::Auto, "rows8")),
            _ => panic!("--rank-rows: 2, 4 or 8, not {r}"),
        }
    }
    if arg("--rank-tri", "") == "1" {
        v.push((Variant::Auto, "tri"));
    }
    v
}

/// Set the rank updates' switch for a [`rank_variants`] item (tag `plain`: `main_pre` with
/// the plain formula, `lab::set_rank_products`; `rows4`, ...: `main_rows`,
/// `lab::set_rank_rows`).
fn set_rank(v: Variant, tag: &str) {
    lab::set(Driver::RankUpdate, v);
    lab::set_rank_products(if tag == "plain" { 2 } else { 0 });
    // `plain` is a form of `main_pre` (lab rows 1); `rowsN` pins `main_rows` with N lines.
    let rows = match tag.strip_prefix("rows") {
        Some(r) => r.parse().unwrap_or(0),
        None if tag == "plain" => 1,
        None => 0,
    };
    lab::set_rank_rows(rows);
    lab::set_rank_tri(tag == "tri");
}

fn set_all(v: Variant) {
    for d in [Driver::Reduction, Driver::Elementwise, Driver::Matvec] {
        lab::set(d, v);
    }
}

fn level1(
    ctx: &Context,
    copier: &mut Copier,
    logn: usize,
    reps: usize,
    lab_on: bool,
    f64_legacy: bool,
) {
    let n = 1usize << logn;
    let shape = format!("n={n}");
    // The operands of the Level 1 descriptions for a contiguous case of length n: x and y as
    // sdot's description draws them (every Level 1 description draws x first, the same way),
    // and ddot's in f64.
    let case = vcase(logn as u64, n, 0.0, Unit, Unit);
    let ops = describe::timing::inputs::<dot::Dot, f32>(&case);
    let ops64 = describe::timing::inputs::<dot::Dot, f64>(&case);
    let (x, y, x64) = (ops.x.clone(), ops.y.clone(), ops64.x.clone());
    let gx = ctx.upload_vector(&x).unwrap();
    let gy = ctx.upload_vector(&y).unwrap();
    let gx64 = ctx.upload_vector(&x64).unwrap();
    let mut wx = ctx.upload_vector(&x).unwrap();
    let mut wy = ctx.upload_vector(&y).unwrap();
    let f = n as f64 * 4.0;

    // Checks of the default kernels, once per size: sdot and isamax by their descriptions'
    // measures against OpenBLAS; sasum and snrm2 by their ULP metric against the correctly
    // rounded value (DESIGN.md §2: OpenBLAS drifts past the threshold at these lengths), each
    // beside its threshold of metrics::spec.
    set_all(Variant::Auto);
    {
        let r = |v: f32| ndarray::arr1(&[v]).into_dyn();
        let d = blas::sdot(ctx, &gx, &gy).unwrap();
        check::<dot::Dot, f32>(&format!("sdot,{shape}"), "", &case, &ops, r(d).view());
        debug_assert_eq!(describe::timing::inputs::<asum::Asum, f32>(&case).x, x);
        let ulp = |name: &str, got: f32, exact: f64, th: f64| {
            let u = metrics::ulp_distance_f32(got, exact as f32);
            let fail = if u as f64 <= th { "" } else { " FAIL" };
            println!("CHECK,{name},{shape},ulp,{u},<={th}{fail}");
        };
        let s = blas::sasum(ctx, &gx).unwrap();
        let exact = x.iter().map(|v| f64::from(v.abs())).sum::<f64>();
        ulp("sasum", s, exact, describe::threshold::<asum::Asum, f32>());
        let s = blas::snrm2(ctx, &gx).unwrap();
        let exact = x.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>().sqrt();
        ulp("snrm2", s, exact, describe::threshold::<nrm2::Nrm2, f32>());
        // isamax's metric (exact index) against its description's oracle, compared as
        // integers: the description carries an index as an f32, exact only below 2^24.
        let i = blas::isamax(ctx, &gx).unwrap();
        let best = f32::o_iamax(&x);
        debug_assert_eq!(
            describe::spec::<iamax::Iamax, f32>().metric,
            Metric::ExactIndex
        );
        let fail = if i == best { "" } else { " FAIL" };
        println!("CHECK,isamax,{shape},index,{i},{best}{fail}");
    }

    for (v, tag) in variants(lab_on) {
        set_all(v);
        let l1: [(&str, f64); 4] = [
            ("sdot", 2.0),
            ("sasum", 1.0),
            ("snrm2", 1.0),
            ("isamax", 1.0),
        ];
        for (name, k) in l1 {
            let s = time_gpu(ctx, reps, || match name {
                "sdot" => {
                    std::hint::black_box(wgblas::resident::sdot(ctx, &gx, &gy).unwrap());
                }
                "sasum" => {
                    std::hint::black_box(wgblas::resident::sasum(ctx, &gx).unwrap());
                }
                "snrm2" => {
                    std::hint::black_box(wgblas::resident::snrm2(ctx, &gx).unwrap());
                }
                _ => {
                    std::hint::black_box(wgblas::resident::isamax(ctx, &gx).unwrap());
                }
            });
            row(copier, reps, tag, name, &shape, "-", k * f, &s);
        }
        let s = time_gpu(ctx, reps, || blas::saxpy(ctx, 0.5, &gx, &mut wy).unwrap());
        row(copier, reps, tag, "saxpy", &shape, "-", 3.0 * f, &s);
        let s = time_gpu(ctx, reps, || blas::scopy(ctx, &gx, &mut wy).unwrap());
        row(copier, reps, tag, "scopy", &shape, "-", 2.0 * f, &s);
        let s = time_gpu(ctx, reps, || blas::sswap(ctx, &mut wx, &mut wy).unwrap());
        row(copier, reps, tag, "sswap", &shape, "-", 4.0 * f, &s);
        let s = time_gpu(ctx, reps, || blas::sscal(ctx, 0.999, &mut wx).unwrap());
        row(copier, reps, tag, "sscal", &shape, "-", 2.0 * f, &s);
        let s = time_gpu(ctx, reps, || {
            blas::srot(ctx, &mut wx, &mut wy, 0.6, 0.8).unwrap()
        });
        row(copier, reps, tag, "srot", &shape, "-", 4.0 * f, &s);
        let s = time_gpu(ctx, reps, || {
            blas::srotm(ctx, &mut wx, &mut wy, [-1.0, 0.6, -0.8, 0.8, 0.6]).unwrap()
        });
        row(copier, reps, tag, "srotm", &shape, "-", 4.0 * f, &s);
        if v == Variant::Auto {
            let f64_paths: &[(Variant, &str)] = if f64_legacy {
                &[(Variant::Auto, "auto"), (Variant::Legacy, "legacy64")]
            } else {
                &[(Variant::Auto, "auto")]
            };
            for &(fv, ftag) in f64_paths {
                lab::set(Driver::ReductionF64, fv);
                level1_f64(ctx, copier, reps, ftag, &case, &ops64, &gx64);
            }
            lab::set(Driver::ReductionF64, Variant::Auto);
        }
    }
    set_all(Variant::Auto);
}

/// The f64 rows of [`level1`] (idamax, dasum; with `SHADER_F64` ddot, daxpy, dnrm2) on the
/// operands of `case` (`ops64`, x uploaded as `gx64`), tagged `tag`.
fn level1_f64(
    ctx: &Context,
    copier: &mut Copier,
    reps: usize,
    tag: &str,
    case: &Case,
    ops64: &Ops<f64>,
    gx64: &GpuVector<f64>,
) {
    let n = ops64.x.len();
    let shape = format!("n={n}");
    let f = n as f64 * 4.0;
    let s = time_gpu_reading(ctx, reps, || {
        std::hint::black_box(blas::idamax(ctx, gx64).unwrap());
    });
    row(copier, reps, tag, "idamax", &shape, "-", 2.0 * f, &s);
    let s = time_gpu_reading(ctx, reps, || {
        std::hint::black_box(blas::dasum(ctx, gx64).unwrap());
    });
    row(copier, reps, tag, "dasum", &shape, "-", 2.0 * f, &s);
    if ctx.native_f64() {
        // ddot (16n bytes) and daxpy (24n bytes) on f64 data.
        let y64 = ops64.y.clone();
        let gy64 = ctx.upload_vector(&y64).unwrap();
        let mut wy64 = ctx.upload_vector(&y64).unwrap();
        let d = blas::ddot(ctx, gx64, &gy64).unwrap();
        let got = ndarray::arr1(&[d]).into_dyn();
        let check_tag = if tag == "auto" { "" } else { tag };
        check::<dot::Dot, f64>(&format!("ddot,{shape}"), check_tag, case, ops64, got.view());
        let s = time_gpu(ctx, reps, || {
            std::hint::black_box(wgblas::resident::ddot(ctx, gx64, &gy64).unwrap());
        });
        row(copier, reps, tag, "ddot", &shape, "-", 4.0 * f, &s);
        let s = time_gpu(ctx, reps, || {
            blas::daxpy(ctx, 0.5, gx64, &mut wy64).unwrap()
        });
        row(copier, reps, tag, "daxpy", &shape, "-", 6.0 * f, &s);
        // dnrm2 (8n bytes, read back like idamax; a second pass only where elements
        // lie outside LAPACK's medium band, none here).
        let s = time_gpu_reading(ctx, reps, || {
            std::hint::black_box(blas::dnrm2(ctx, gx64).unwrap());
        });
        row(copier, reps, tag, "dnrm2", &shape, "-", 2.0 * f, &s);
    }
}

fn trans_name(t: Transpose) -> &'static str {
    match t {
        Transpose::No => "N",
        Transpose::Yes => "T",
    }
}

/// sgemv on `a` (C order, m×n as stored) and on its F-order transpose view, both transposes.
#[allow(clippy::too_many_arguments)]
/// sgemv's description's measure of `gy` (after a call on `host`, as C order or its F-order
/// transpose, `t`, x, y unread under beta = 0), against OpenBLAS, as a `CHECK` line.
fn gemv_check(
    host: &Array2<f32>,
    f_order: bool,
    t: Transpose,
    x: &Array1<f32>,
    gy: &GpuVector<'_>,
    tag: &str,
) {
    let stored = if f_order { host.t() } else { host.view() };
    let (sm, sn) = stored.dim();
    let m = if t == Transpose::No { sm } else { sn };
    let got = gy.to_array().unwrap().into_dyn();
    let a = stored.as_standard_layout().into_owned();
    let ops = Ops::vecs(a, x.clone(), Array1::from_elem(m, f32::NAN));
    let case = Case::new(7, m, x.len()).flags(Uplo::Upper, t, Diag::NonUnit);
    let layout = format!("{}-{}", trans_name(t), if f_order { "F" } else { "C" });
    check::<gemv::Gemv, f32>(
        &format!("sgemv,{sm}x{sn},{layout}"),
        tag,
        &case,
        &ops,
        got.view(),
    );
}

fn gemv_set(
    ctx: &Context,
    copier: &mut Copier,
    host: &Array2<f32>,
    ga: &GpuMatrix<'_>,
    reps: usize,
    lab: Lab2,
    checked: bool,
) {
    let (rows, cols) = host.dim();
    let mut r = StdRng::seed_from_u64(7);
    for f_order in [false, true] {
        // The operand as the user passes it: C-order `a` (rows × cols) or the F-order view
        // `a.t()` (cols × rows).
        let (sm, sn) = if f_order { (cols, rows) } else { (rows, cols) };
        for t in [Transpose::No, Transpose::Yes] {
            let (m, n) = match t {
                Transpose::No => (sm, sn),
                Transpose::Yes => (sn, sm),
            };
            let x = rand_vec(&mut r, n);
            let gx = ctx.upload_vector(&x).unwrap();
            let mut gy = GpuVector::<f32>::zeros(ctx, m).unwrap();
            let layout = format!("{}-{}", trans_name(t), if f_order { "F" } else { "C" });
            let shape = format!("{sm}x{sn}");
            let bytes = 4.0 * (sm as f64 * sn as f64 + m as f64 + n as f64);
            let call = |gy: &mut GpuVector<'_>| {
                if f_order {
                    blas::sgemv(ctx, t, 1.0, ga.t(), &gx, 0.0, gy).unwrap()
                } else {
                    blas::sgemv(ctx, t, 1.0, ga, &gx, 0.0, gy).unwrap()
                }
            };
            // The legacy gemv kernels take up to 1.4 s a call on these shapes (run 1): not here.
            // `Experimental` (`gemv_coldot4`) where op(A)'s columns are contiguous.
            let coldot = f_order == (t == Transpose::No);
            let full = [(Variant::Auto, "auto"), (Variant::Scalar, "scalar")];
            for (v, tag) in l2_variants(lab, &full, if coldot { "coldot4" } else { "" }) {
                lab::set(Driver::Matvec, v);
                let s = time_gpu(ctx, reps, || call(&mut gy));
                row(copier, reps, tag, "sgemv", &shape, &layout, bytes, &s);
            }
            lab::set(Driver::Matvec, Variant::Auto);
            // The wide kernels aimed at other workgroup counts (`lab::set_gemv_shape`).
            for g in list(&arg("--gemv-groups", "")) {
                lab::set_gemv_shape(lab::GemvShape {
                    groups: g as u32,
                    col_lanes: 0,
                });
                let s = time_gpu(ctx, reps, || call(&mut gy));
                let tag = format!("groups{g}");
                row(copier, reps, &tag, "sgemv", &shape, &layout, bytes, &s);
                if checked {
                    gemv_check(host, f_order, t, &x, &gy, &tag);
                }
            }
            lab::set_gemv_shape(lab::GemvShape::default());
            // `gemv_coldot` on other column lanes (`lab::set_gemv_shape`).
            for k in list(&arg("--gemv-col-lanes", "")) {
                if !coldot {
                    continue;
                }
                lab::set_gemv_shape(lab::GemvShape {
                    groups: 0,
                    col_lanes: k as u32,
                });
                let s = time_gpu(ctx, reps, || call(&mut gy));
                let tag = format!("collanes{k}");
                row(copier, reps, &tag, "sgemv", &shape, &layout, bytes, &s);
                if checked {
                    gemv_check(host, f_order, t, &x, &gy, &tag);
                }
            }
            lab::set_gemv_shape(lab::GemvShape::default());
            if checked {
                call(&mut gy);
                gemv_check(host, f_order, t, &x, &gy, "");
            }
        }
    }
}

fn level2(ctx: &Context, copier: &mut Copier, reps: usize, lab: Lab2) {
    let mut r = StdRng::seed_from_u64(2);
    for n in list(&arg("--gemv", "4096,8192,16384")) {
        let a = rand_mat(&mut r, n, n);
        let ga = ctx.upload_matrix(&a).unwrap();
        gemv_set(ctx, copier, &a, &ga, reps, lab, n <= 4096);
    }
    for logk in list(&arg("--skinny", "23,")) {
        let k = 1usize << logk;
        for (m, n) in [(k, 4), (4, k)] {
            let a = rand_mat(&mut r, m, n);
            let ga = ctx.upload_matrix(&a).unwrap();
            gemv_set(ctx, copier, &a, &ga, reps, lab, true);
        }
    }
    for n in list(&arg("--sq", "16384,")) {
        let a = rand_mat(&mut r, n, n);
        let mut ga = ctx.upload_matrix(&a).unwrap();
        drop(a);
        let x = rand_vec(&mut r, n);
        let y = rand_vec(&mut r, n);
        let gx = ctx.upload_vector(&x).unwrap();
        let gyv = ctx.upload_vector(&y).unwrap();
        let mut gy = GpuVector::<f32>::zeros(ctx, n).unwrap();
        let mut wx = ctx.upload_vector(&x).unwrap();
        let shape = format!("{n}x{n}");
        let nf = n as f64;
        let tri = 4.0 * nf * (nf + 1.0) / 2.0;
        for uplo in [Uplo::Lower, Uplo::Upper] {
            let u = if uplo == Uplo::Lower { "L" } else { "U" };
            // One ssymv row under the lab settings of the moment, tagged `tag`.
            let mut symv_row = |copier: &mut Copier, tag: &str| {
                let s = time_gpu(ctx, reps, || {
                    blas::ssymv(ctx, uplo, 1.0, &ga, &gx, 0.0, &mut gy).unwrap()
                });
                let layout = format!("{u}-C");
                row(
                    copier,
                    reps,
                    tag,
                    "ssymv",
                    &shape,
                    &layout,
                    tri + 12.0 * nf,
                    &s,
                );
            };
            for (v, tag) in symv_variants(lab) {
                lab::set(Driver::Matvec, v);
                symv_row(copier, tag);
            }
            lab::set(Driver::Matvec, Variant::Auto);
            // In one pass over the stored triangle (`lab::set_symv_one_pass`).
            for k in list(&arg("--symv-one-pass", "")) {
                lab::set_symv_one_pass(k as u32);
                symv_row(copier, &format!("onepass{k}"));
            }
            lab::set_symv_one_pass(0);
            // strmv and the two-pass ssymv on other workgroup targets (`lab::set_gemv_shape`).
            for g in list(&arg("--trmv-groups", "")) {
                lab::set_gemv_shape(lab::GemvShape {
                    groups: g as u32,
                    col_lanes: 0,
                });
                let tag = format!("groups{g}");
                symv_row(copier, &tag);
                for t in [Transpose::No, Transpose::Yes] {
                    let s = time_gpu(ctx, reps, || {
                        blas::strmv(ctx, uplo, t, Diag::NonUnit, &ga, &mut wx).unwrap()
                    });
                    let layout = format!("{u}{}-C", trans_name(t));
                    row(
                        copier,
                        reps,
                        &tag,
                        "strmv",
                        &shape,
                        &layout,
                        tri + 8.0 * nf,
                        &s,
                    );
                }
            }
            lab::set_gemv_shape(lab::GemvShape::default());
            for (v, tag) in l2_variants(lab, &variants(true), "coldot4") {
                lab::set(Driver::Matvec, v);
                for t in [Transpose::No, Transpose::Yes] {
                    // `gemv_coldot4` runs where op(A)'s columns are contiguous: Trans on C.
                    if v == Variant::Experimental && t == Transpose::No {
                        continue;
                    }
                    let s = time_gpu(ctx, reps, || {
                        blas::strmv(ctx, uplo, t, Diag::NonUnit, &ga, &mut wx).unwrap()
                    });
                    let layout = format!("{u}{}-C", trans_name(t));
                    row(
                        copier,
                        reps,
                        tag,
                        "strmv",
                        &shape,
                        &layout,
                        tri + 8.0 * nf,
                        &s,
                    );
                }
            }
            lab::set(Driver::Matvec, Variant::Auto);
            for (v, tag) in rank_variants(lab) {
                set_rank(v, tag);
                let s = time_gpu(ctx, reps, || {
                    blas::ssyr(ctx, uplo, 1e-3, &gx, &mut ga).unwrap()
                });
                row(
                    copier,
                    reps,
                    tag,
                    "ssyr",
                    &shape,
                    &format!("{u}-C"),
                    2.0 * tri,
                    &s,
                );
                let s = time_gpu(ctx, reps, || {
                    blas::ssyr2(ctx, uplo, 1e-3, &gx, &gyv, &mut ga).unwrap()
                });
                row(
                    copier,
                    reps,
                    tag,
                    "ssyr2",
                    &shape,
                    &format!("{u}-C"),
                    2.0 * tri,
                    &s,
                );
            }
            set_rank(Variant::Auto, "auto");
        }
        for (v, tag) in rank_variants(lab) {
            set_rank(v, tag);
            let s = time_gpu(ctx, reps, || {
                blas::sger(ctx, 1e-3, &gx, &gyv, &mut ga).unwrap()
            });
            row(copier, reps, tag, "sger", &shape, "C", 8.0 * nf * nf, &s);
        }
        set_rank(Variant::Auto, "auto");
    }
    for n in list(&arg("--trsv", "8192,")) {
        // A well-conditioned triangle: unit-ish diagonal, small off-diagonal entries.
        let mut a = rand_mat(&mut r, n, n).mapv(|v| v / n as f32);
        for i in 0..n {
            a[(i, i)] = 1.0 + a[(i, i)].abs();
        }
        let ga = ctx.upload_matrix(&a).unwrap();
        let b = rand_vec(&mut r, n);
        let mut gb = ctx.upload_vector(&b).unwrap();
        for uplo in [Uplo::Lower, Uplo::Upper] {
            for t in [Transpose::No, Transpose::Yes] {
                let u = if uplo == Uplo::Lower { "L" } else { "U" };
                let layout = format!("{u}{}-C", trans_name(t));
                // `auto`: the look-ahead solve (the default); `Scalar` and `Legacy` (lab-l2): the
                // block kernel at one and two barriers per column of the diagonal block;
                // `--trsv-step`: the look-ahead solve at other sub-block sizes.
                let mut vs = vec![(Variant::Auto, 0, "auto".to_string())];
                if lab == Lab2::Full {
                    vs.push((Variant::Scalar, 0, "blocks".to_string()));
                    vs.push((Variant::Legacy, 0, "twobarriers".to_string()));
                }
                let pf = !args::get(FLAGS, "--trsv-prefetch").is_empty();
                for sb in list(&arg("--trsv-step", "")) {
                    vs.push((Variant::Experimental, sb as u32, format!("step{sb}")));
                    if pf {
                        vs.push((Variant::Experimental, sb as u32, format!("step{sb}pf")));
                    }
                }
                for (v, sb, tag) in vs {
                    lab::set(Driver::Trsv, v);
                    lab::set_trsv_sub_block(sb);
                    lab::set_trsv_prefetch(tag.ends_with("pf"));
                    if v == Variant::Experimental || tag == "auto" {
                        trsv_check(
                            ctx,
                            (&a, &ga),
                            &b,
                            (uplo, t),
                            &format!("n={n},{layout},{tag}"),
                        );
                    }
                    let s = time_gpu(ctx, reps.min(5), || {
                        blas::strsv(ctx, uplo, t, Diag::NonUnit, &ga, &mut gb).unwrap()
                    });
                    println!(
                        "# strsv n={n} {layout} {tag}: {:.3} ms median ({:.3} min)",
                        s.median * 1e3,
                        s.min * 1e3
                    );
                    if tag == "auto" {
                        println!(
                            "ROW,strsv,{n}x{n},{layout},resident,ms,{:.3}",
                            s.median * 1e3
                        );
                    } else {
                        println!(
                            "LAB,{tag},strsv,{n}x{n},{layout},resident,ms,{:.3}",
                            s.median * 1e3
                        );
                    }
                }
                lab::set(Driver::Trsv, Variant::Auto);
                lab::set_trsv_sub_block(0);
                lab::set_trsv_prefetch(false);
            }
        }
    }
}

/// `CHECK,strsv,{fields},backward,{factor},<={threshold}`: one solve of `op(A)·x = b` (A
/// resident in `ga`, stored on the host as `a`) under the lab switches set now, on a fresh
/// resident copy of `b`, its backward residual factor (`metrics::trsv_residual` over
/// `bounds::trsv`) against strsv's `metrics::spec` threshold, ` FAIL` appended past it.
fn trsv_check(
    ctx: &Context,
    (a, ga): (&Array2<f32>, &GpuMatrix<'_>),
    b: &Array1<f32>,
    (uplo, t): (Uplo, Transpose),
    fields: &str,
) {
    let mut gx = ctx.upload_vector(b).unwrap();
    blas::strsv(ctx, uplo, t, Diag::NonUnit, ga, &mut gx).unwrap();
    let x = gx.to_array().unwrap();
    let r = metrics::trsv_residual(uplo, t, Diag::NonUnit, a.view(), x.view(), b.view()).unwrap();
    let bound = metrics::bounds::trsv(uplo, t, Diag::NonUnit, a.view(), x.view());
    let f = metrics::backward_residual_factor(&r, &bound).unwrap();
    let spec = metrics::spec("strsv").unwrap();
    let fail = if spec.passes(f) { "" } else { " FAIL" };
    println!(
        "CHECK,strsv,{fields},backward,{f:.3},<={}{fail}",
        spec.threshold
    );
}

/// The f64 Level 2 routines (set `f64`, where the adapter has `SHADER_F64`) on an n×n
/// C-order matrix, `--sq64` sizes: bytes counted as for their f32 twins, with 8-byte elements
/// (dgemv: the matrix and its vectors; dsymv, dtrmv: a triangle; dger, dsyr, dsyr2: the
/// elements of A read and written); dtrsv in ms.
fn level2_f64(ctx: &Context, copier: &mut Copier, reps: usize, lab: Lab2) {
    // `Experimental` (`x-l2`, `lab-l2`): dgemv, dsymv and dtrmv on the matrix-vector driver's
    // wide kernels in f64 instead of the tile engine.
    let mv = l2_variants(lab, &[(Variant::Auto, "auto")], "wide64");
    if !ctx.native_f64() {
        println!("# f64: the adapter has no SHADER_F64");
        return;
    }
    let mut r = StdRng::seed_from_u64(3);
    for n in list(&arg("--sq64", "8192,")) {
        let mut a = rand_mat(&mut r, n, n).mapv(|v| f64::from(v) / n as f64);
        for i in 0..n {
            a[(i, i)] = 1.0 + a[(i, i)].abs();
        }
        let mut ga = ctx.upload_matrix(&a).unwrap();
        drop(a);
        let x = rand_vec(&mut r, n).mapv(f64::from);
        let gx = ctx.upload_vector(&x).unwrap();
        let mut gy = GpuVector::<f64>::zeros(ctx, n).unwrap();
        let mut wx = ctx.upload_vector(&x).unwrap();
        let shape = format!("{n}x{n}");
        let nf = n as f64;
        let tri = 8.0 * nf * (nf + 1.0) / 2.0;
        for t in [Transpose::No, Transpose::Yes] {
            for &(v, tag) in &mv {
                lab::set(Driver::Matvec, v);
                let s = time_gpu(ctx, reps, || {
                    blas::dgemv(ctx, t, 1.0, &ga, &gx, 0.0, &mut gy).unwrap()
                });
                let layout = format!("{}-C", trans_name(t));
                row(
                    copier,
                    reps,
                    tag,
                    "dgemv",
                    &shape,
                    &layout,
                    8.0 * nf * (nf + 2.0),
                    &s,
                );
            }
            lab::set(Driver::Matvec, Variant::Auto);
        }
        for uplo in [Uplo::Lower, Uplo::Upper] {
            let u = if uplo == Uplo::Lower { "L" } else { "U" };
            for &(v, tag) in &mv {
                lab::set(Driver::Matvec, v);
                let s = time_gpu(ctx, reps, || {
                    blas::dsymv(ctx, uplo, 1.0, &ga, &gx, 0.0, &mut gy).unwrap()
                });
                let layout = format!("{u}-C");
                row(
                    copier,
                    reps,
                    tag,
                    "dsymv",
                    &shape,
                    &layout,
                    tri + 24.0 * nf,
                    &s,
                );
                // In one pass over the stored triangle (`lab::set_symv_one_pass`).
                for k in list(&arg("--symv-one-pass", "")) {
                    lab::set_symv_one_pass(k as u32);
                    let s = time_gpu(ctx, reps, || {
                        blas::dsymv(ctx, uplo, 1.0, &ga, &gx, 0.0, &mut gy).unwrap()
                    });
                    let tag = format!("onepass{k}");
                    row(
                        copier,
                        reps,
                        &tag,
                        "dsymv",
                        &shape,
                        &layout,
                        tri + 24.0 * nf,
                        &s,
                    );
                }
                lab::set_symv_one_pass(0);
                let s = time_gpu(ctx, reps, || {
                    blas::dtrmv(ctx, uplo, Transpose::No, Diag::NonUnit, &ga, &mut wx).unwrap()
                });
                let layout = format!("{u}N-C");
                row(
                    copier,
                    reps,
                    tag,
                    "dtrmv",
                    &shape,
                    &layout,
                    tri + 16.0 * nf,
                    &s,
                );
            }
            lab::set(Driver::Matvec, Variant::Auto);
            let s = time_gpu(ctx, reps, || {
                blas::dsyr(ctx, uplo, 1e-9, &gx, &mut ga).unwrap()
            });
            row(
                copier,
                reps,
                "auto",
                "dsyr",
                &shape,
                &format!("{u}-C"),
                2.0 * tri,
                &s,
            );
            let s = time_gpu(ctx, reps, || {
                blas::dsyr2(ctx, uplo, 1e-9, &gx, &wx, &mut ga).unwrap()
            });
            row(
                copier,
                reps,
                "auto",
                "dsyr2",
                &shape,
                &format!("{u}-C"),
                2.0 * tri,
                &s,
            );
            let s = time_gpu(ctx, reps.min(5), || {
                blas::dtrsv(ctx, uplo, Transpose::No, Diag::NonUnit, &ga, &mut wx).unwrap()
            });
            println!(
                "# dtrsv n={n} {u}N-C: {:.3} ms median ({:.3} min)",
                s.median * 1e3,
                s.min * 1e3
            );
            println!("ROW,dtrsv,{n}x{n},{u}N-C,resident,ms,{:.3}", s.median * 1e3);
            // `--trsv-step`: the look-ahead solve (its results pinned by the lavapipe tests).
            let pf = !args::get(FLAGS, "--trsv-prefetch").is_empty();
            let steps = list(&arg("--trsv-step", ""));
            for (sb, tag) in steps.iter().flat_map(|&sb| {
                let plain = (sb, format!("step{sb}"));
                let pref = pf.then(|| (sb, format!("step{sb}pf")));
                std::iter::once(plain).chain(pref)
            }) {
                lab::set(Driver::Trsv, Variant::Experimental);
                lab::set_trsv_sub_block(sb as u32);
                lab::set_trsv_prefetch(tag.ends_with("pf"));
                let s = time_gpu(ctx, reps.min(5), || {
                    blas::dtrsv(ctx, uplo, Transpose::No, Diag::NonUnit, &ga, &mut wx).unwrap()
                });
                println!(
                    "# dtrsv n={n} {u}N-C {tag}: {:.3} ms median ({:.3} min)",
                    s.median * 1e3,
                    s.min * 1e3
                );
                println!(
                    "LAB,{tag},dtrsv,{n}x{n},{u}N-C,resident,ms,{:.3}",
                    s.median * 1e3
                );
            }
            lab::set(Driver::Trsv, Variant::Auto);
            lab::set_trsv_sub_block(0);
            lab::set_trsv_prefetch(false);
        }
        let s = time_gpu(ctx, reps, || {
            blas::dger(ctx, 1e-9, &gx, &wx, &mut ga).unwrap()
        });
        row(
            copier,
            reps,
            "auto",
            "dger",
            &shape,
            "C",
            16.0 * nf * nf,
            &s,
        );
    }
}

/// On this adapter, each `Experimental` kernel of `x-l2` on host operands of n = 1031 (partial
/// tiles and units; the rank updates' `tile` at n = 1028, their kernel needing lines of whole
/// vec4 units), measured by its routine's description against OpenBLAS beside the
/// threshold of `metrics::spec`: `CHECK,` lines tagged with the kernel (`lines128-forward`,
/// ...). The kernels are pinned against OpenBLAS on lavapipe (tests/wgblas/kern12_level2.rs);
/// this catches what another compiler does differently.
fn cross_check(ctx: &Context) {
    let n = 1031;
    let mut r = StdRng::seed_from_u64(11);
    let a = rand_mat(&mut r, n, n);
    let x = rand_vec(&mut r, n);
    let yv = rand_vec(&mut r, n);
    let none = || Array1::<f32>::from_vec(Vec::new());
    /// `f` with `driver` on its `Experimental` kernel, back on `Auto` after.
    fn on_exp<V>(driver: Driver, f: impl FnOnce() -> V) -> V {
        lab::set(driver, Variant::Experimental);
        let v = f();
        lab::set(driver, Variant::Auto);
        v
    }
    let (no, yes, nonunit) = (Transpose::No, Transpose::Yes, Diag::NonUnit);
    let sq = |uplo, t, alpha, beta| {
        Case::new(11, n, n)
            .flags(uplo, t, nonunit)
            .scalars(alpha, beta)
    };
    for uplo in [Uplo::Lower, Uplo::Upper] {
        let u = if uplo == Uplo::Lower { "L" } else { "U" };
        let got = on_exp(Driver::Matvec, || {
            let mut y = yv.clone();
            blas::ssymv(ctx, uplo, 0.7, &a, &x, 0.9, &mut y).unwrap();
            y.into_dyn()
        });
        let ops = Ops::vecs(a.clone(), x.clone(), yv.clone());
        let case = sq(uplo, no, 0.7, 0.9);
        check::<symv::Symv, f32>(
            &format!("ssymv,n={n},{u}-C"),
            "lines128",
            &case,
            &ops,
            got.view(),
        );
        let got = on_exp(Driver::Matvec, || {
            let mut z = x.clone();
            blas::strmv(ctx, uplo, yes, nonunit, &a, &mut z).unwrap();
            z.into_dyn()
        });
        let ops = Ops::vecs(a.clone(), x.clone(), none());
        let case = sq(uplo, yes, 1.0, 0.0);
        check::<trmv::Trmv, f32>(
            &format!("strmv,n={n},{u}T-C"),
            "coldot4",
            &case,
            &ops,
            got.view(),
        );
        if ctx.native_f64() {
            let a64 = a.mapv(f64::from);
            let (x64, y64) = (x.mapv(f64::from), yv.mapv(f64::from));
            let got = on_exp(Driver::Matvec, || {
                let mut y = y64.clone();
                blas::dsymv(ctx, uplo, 0.7, &a64, &x64, 0.9, &mut y).unwrap();
                y.into_dyn()
            });
            let ops = Ops::vecs(a64.clone(), x64.clone(), y64.clone());
            let case = sq(uplo, no, 0.7, 0.9);
            check::<symv::Symv, f64>(
                &format!("dsymv,n={n},{u}-C"),
                "wide64",
                &case,
                &ops,
                got.view(),
            );
            let got = on_exp(Driver::Matvec, || {
                let mut z = x64.clone();
                blas::dtrmv(ctx, uplo, no, nonunit, &a64, &mut z).unwrap();
                z.into_dyn()
            });
            let ops = Ops::vecs(a64.clone(), x64.clone(), Array1::from_vec(Vec::new()));
            let case = sq(uplo, no, 1.0, 0.0);
            check::<trmv::Trmv, f64>(
                &format!("dtrmv,n={n},{u}N-C"),
                "wide64",
                &case,
                &ops,
                got.view(),
            );
        }
    }
    // op(A) with contiguous columns: Aᵀ of C-order A, and the F-order view Aᵀ with No-trans.
    let a64 = a.mapv(f64::from);
    for (t, f_order, layout) in [(yes, false, "T-C"), (no, true, "N-F")] {
        let got = on_exp(Driver::Matvec, || {
            let mut y = yv.clone();
            let m = if f_order { a.t() } else { a.view() };
            blas::sgemv(ctx, t, 0.7, m, &x, 0.9, &mut y).unwrap();
            y.into_dyn()
        });
        let passed = if f_order { a.t() } else { a.view() };
        let ops = Ops::vecs(
            passed.as_standard_layout().into_owned(),
            x.clone(),
            yv.clone(),
        );
        let case = sq(Uplo::Upper, t, 0.7, 0.9);
        check::<gemv::Gemv, f32>(
            &format!("sgemv,n={n},{layout}"),
            "coldot4",
            &case,
            &ops,
            got.view(),
        );
        if ctx.native_f64() {
            let (x64, y64) = (x.mapv(f64::from), yv.mapv(f64::from));
            let got = on_exp(Driver::Matvec, || {
                let mut y = y64.clone();
                let m = if f_order { a64.t() } else { a64.view() };
                blas::dgemv(ctx, t, 0.7, m, &x64, 0.9, &mut y).unwrap();
                y.into_dyn()
            });
            let passed = if f_order { a64.t() } else { a64.view() };
            let ops = Ops::vecs(passed.as_standard_layout().into_owned(), x64, y64);
            let fields = format!("dgemv,n={n},{layout}");
            check::<gemv::Gemv, f64>(&fields, "wide64", &case, &ops, got.view());
        }
    }
    // The rank updates. `main_pre` at n = 1028 (4 workgroups and one vec4 unit on each line).
    let nr = 1028;
    let case = Case::new(11, nr, nr).scalars(0.7, 0.0);
    let o = describe::timing::inputs::<ger::Ger, f32>(&case);
    let got = on_exp(Driver::RankUpdate, || {
        let mut a = o.a.clone();
        blas::sger(ctx, 0.7, &o.x, &o.y, &mut a).unwrap();
        a.into_dyn()
    });
    check::<ger::Ger, f32>(&format!("sger,n={nr},C"), "pair", &case, &o, got.view());
    for uplo in [Uplo::Lower, Uplo::Upper] {
        let u = if uplo == Uplo::Lower { "L" } else { "U" };
        let case = Case::new(11, nr, nr)
            .flags(uplo, no, nonunit)
            .scalars(-1.3, 0.0);
        let o = describe::timing::inputs::<syr::Syr, f32>(&case);
        let got = on_exp(Driver::RankUpdate, || {
            let mut a = o.a.clone();
            blas::ssyr(ctx, uplo, -1.3, &o.x, &mut a).unwrap();
            a.into_dyn()
        });
        let fields = format!("ssyr,n={nr},{u}-C");
        check::<syr::Syr, f32>(&fields, "pair", &case, &o, got.view());
        let o = describe::timing::inputs::<syr2::Syr2, f32>(&case);
        let got = on_exp(Driver::RankUpdate, || {
            let mut a = o.a.clone();
            blas::ssyr2(ctx, uplo, -1.3, &o.x, &o.y, &mut a).unwrap();
            a.into_dyn()
        });
        let fields = format!("ssyr2,n={nr},{u}-C");
        check::<syr2::Syr2, f32>(&fields, "pair", &case, &o, got.view());
    }
}

/// `--symv-one-pass`: on this adapter, ssymv (and dsymv where the adapter has `SHADER_F64`)
/// in one pass with each listed number of tiles per workgroup, on host operands of n = 1031
/// (partial tiles, several segments), measured by the description against OpenBLAS beside
/// the threshold of `metrics::spec`: `CHECK,` lines tagged `onepass8-forward`, ....
fn one_pass_check(ctx: &Context) {
    let ks = list(&arg("--symv-one-pass", ""));
    let n = 1031;
    let mut r = StdRng::seed_from_u64(11);
    let (a, x, yv) = (
        rand_mat(&mut r, n, n),
        rand_vec(&mut r, n),
        rand_vec(&mut r, n),
    );
    let (a64, x64, y64) = (a.mapv(f64::from), x.mapv(f64::from), yv.mapv(f64::from));
    for k in ks {
        let tag = format!("onepass{k}");
        for uplo in [Uplo::Lower, Uplo::Upper] {
            let u = if uplo == Uplo::Lower { "L" } else { "U" };
            let case = Case::new(11, n, n)
                .flags(uplo, Transpose::No, Diag::NonUnit)
                .scalars(0.7, 0.9);
            lab::set_symv_one_pass(k as u32);
            let mut y = yv.clone();
            blas::ssymv(ctx, uplo, 0.7, &a, &x, 0.9, &mut y).unwrap();
            let mut z = y64.clone();
            let f64_ok = ctx.native_f64();
            if f64_ok {
                blas::dsymv(ctx, uplo, 0.7, &a64, &x64, 0.9, &mut z).unwrap();
            }
            lab::set_symv_one_pass(0);
            let fields = format!("ssymv,n={n},{u}-C");
            let ops = Ops::vecs(a.clone(), x.clone(), yv.clone());
            check::<symv::Symv, f32>(&fields, &tag, &case, &ops, y.into_dyn().view());
            if f64_ok {
                let fields = format!("dsymv,n={n},{u}-C");
                let ops = Ops::vecs(a64.clone(), x64.clone(), y64.clone());
                check::<symv::Symv, f64>(&fields, &tag, &case, &ops, z.into_dyn().view());
            }
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let reps: usize = arg("--reps", "11").parse()?;
    let sets = arg("--sets", "l1,l2");
    let lab_on = sets.contains("lab");
    let f64_legacy = arg("--f64-legacy", args::SWITCH) == "1";
    let ctx = Context::shared()?;
    ctx.set_profiling(true);
    // The lab's cap on the single-pass reductions' workgroups (0: the driver's 1024).
    let groups: u32 = arg("--reduction-groups", "0").parse()?;
    if groups > 0 {
        lab::set_reduction_groups(groups);
        println!("# single-pass reductions capped at {groups} workgroups (lab)");
    }
    // The lab's shader-check mode of every kernel (auto: the crate's choice per shader, the default).
    let checks = args::shader_checks(&arg("--checks", "auto"));
    lab::set_shader_checks(checks);
    println!("# shader modules: {checks:?} (lab)");
    let info = ctx.adapter_info();
    println!(
        "# adapter: {} ({:?}, {:?}), driver {} {}; GB/s = bytes read + written once / GPU time per call (timestamps around batches of back-to-back calls of about 1 ms), median of {reps} after 3 warm-ups",
        info.name, info.backend, info.device_type, info.driver, info.driver_info
    );
    let mut copier = Copier::new();
    println!("# copy reference: a vec4 compute-shader copy on a second device of the adapter, measured right after each routine");
    let t0 = Instant::now();
    if sets.contains("l1") {
        for logn in list(&arg("--l1", "20,26")) {
            level1(ctx, &mut copier, logn, reps, lab_on, f64_legacy);
        }
    }
    let lab2 = if sets.contains("lab-l2") {
        Lab2::Full
    } else if sets.contains("x-l2") {
        Lab2::Exp
    } else {
        Lab2::Off
    };
    if lab2 != Lab2::Off {
        cross_check(ctx);
    }
    one_pass_check(ctx);
    if sets.contains("l2") {
        level2(ctx, &mut copier, reps, lab2);
    }
    if sets.contains("f64") {
        level2_f64(ctx, &mut copier, reps, lab2);
    }
    println!("# total {:.1} s", t0.elapsed().as_secs_f64());
    Ok(())
}
