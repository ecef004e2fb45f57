//! Host-path report (issue 10): transfers and host-form calls (ndarray in, ndarray out, wall
//! time) beside OpenBLAS in the same process, for the GPU runs of `../shared/GPU.md`.
//!
//! Prints one `ROW,...` line per wgblas figure and one `REF,...,openblas,...` line per OpenBLAS
//! figure (`../shared/BENCH.md` format), medians of `--reps` runs after warm-ups, minima on the
//! `#` lines. Every host-form result is checked against OpenBLAS with its DESIGN.md §2 metric:
//! sgemm and sdot on the operands of their test descriptions (`tests/wgblas/describe`, through
//! `benches/support/described.rs`), with the descriptions' checks and thresholds
//! (`metrics::spec`; a failure panics).
//! A diagnostic section (`--probe`) times raw copies into and out of mapped wgpu staging memory
//! on a device of its own, to tell what limits the transfers.
//!
//! Run: `cargo run --release --example host_report -- [--reps 11] [--transfer 67108864]
//! [--gemm 64,512,2048,4096] [--dot 1024,16777216] [--only transfers] [--probe] [--lone 4096]
//! [--copy-threads N] [--no-prefault] [--spin-us N] [--trace] [--copy-part BYTES] [--no-single-small]
//! [--staging-limit BYTES] [--pool-limit BYTES] [--trim-after-transfers]`
//!
//! Lab switches (`wgblas::lab`, process-wide, for comparing variants in separate runs):
//! `--copy-threads N` caps the threads of the large host copies (`lab::set_copy_threads`; 0:
//! the pool's, the default); `--no-prefault` turns off the fault-in of fresh read-back outputs
//! while the device copies (`lab::set_prefault_outputs`, on by default); `--spin-us N` polls
//! N µs before blocking in each read-back's wait (`lab::set_spin_us`); `--copy-part BYTES` sets
//! the smallest part of a host copy split over threads (`lab::set_copy_part`; 0: the default,
//! 256 KiB); `--no-single-small` runs lone products of m, n ≤ 64 and k ≤ 128 on the tile kernel
//! instead of the small-product kernel (`Tuning::single_small` off, on this thread);
//! `--staging-limit BYTES` keeps at most that many bytes of free staging buffers in each
//! direction (`lab::set_staging_limit`; 0: the default, 256 MiB); `--pool-limit BYTES` sets the
//! storage pool's limit (`Context::set_pool_limit`); `--trim-after-transfers` releases the
//! storage pool's free buffers after the transfer section (the limit set to 0, then back).
//! `--trace` prints, after each phase line, the steps
//! inside Submit and Wait (`Context::step_times`, µs per call).
//!
//! `--lone N` times a resident N³ sgemm alone (each call its own submission, waited for),
//! with its GPU time (timestamps), back to back and after the GPU has idled, and the GPU time
//! of the kernel inside host calls: whether a lone call's wait is the kernel or the clocks.

extern crate blas_src;

use std::time::Instant;

use ndarray::{Array1, Array2};
use ndarray_rand::rand_distr::Uniform;
use ndarray_rand::RandomExt;
use wgblas::prelude::*;
use wgblas::Context;

extern "C" {
    fn openblas_get_config() -> *const std::os::raw::c_char;
    fn openblas_get_num_threads() -> std::os::raw::c_int;
}

#[path = "support/args.rs"]
mod args;
#[path = "support/phases.rs"]
mod phases;

#[path = "../benches/support/described.rs"]
mod described;
use described::*;

use describe::{timing, Case};
use described::dot::Dot;
use described::gemm::Gemm;

/// The flags and their defaults; anything else on the command line is an error.
const FLAGS: &[(&str, &str)] = &[
    ("--reps", "11"),
    ("--probe", args::SWITCH),
    ("--transfer", "67108864"),
    ("--only", ""),
    ("--gemm", "64,512,2048,4096"),
    ("--dot", "1024,16777216"),
    ("--split", "2048,4096"),
    ("--lone", ""),
    ("--copy-threads", "0"),
    ("--no-prefault", args::SWITCH),
    ("--spin-us", ""),
    ("--trace", args::SWITCH),
    ("--copy-part", "0"),
    ("--no-single-small", args::SWITCH),
    ("--staging-limit", "0"),
    ("--pool-limit", ""),
    ("--trim-after-transfers", args::SWITCH),
];

fn arg(name: &str, _default: &str) -> String {
    args::get(FLAGS, name)
}

fn flag(name: &str) -> bool {
    !args::get(FLAGS, name).is_empty()
}

use args::sizes as list;

/// Wait until OpenBLAS's threads have stopped spinning after its last call (they spin for
/// about 2^28 cycles, ~0.1 s, on every core), so that they do not take the cores that the
/// GPU driver's own threads need while wgblas is timed next (on the H200 GPU work submitted
/// meanwhile ran at a quarter of its speed: benches/results/2026-11-30-probe-memory/).
fn openblas_idle() {
    std::thread::sleep(std::time::Duration::from_millis(300));
}

/// (median, min) of `reps` timings of `f` in seconds, after `warm` warm-ups.
fn time(reps: usize, warm: usize, mut f: impl FnMut()) -> (f64, f64) {
    for _ in 0..warm {
        f();
    }
    let mut v: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0])
}

fn sgemm_openblas(a: &Array2<f32>, b: &Array2<f32>, c: &mut Array2<f32>) {
    let (m, k) = a.dim();
    let n = b.ncols();
    // SAFETY: C-order arrays of the stated shapes; OpenBLAS reads a and b and writes c.
    unsafe {
        cblas_sys::cblas_sgemm(
            cblas_sys::CBLAS_LAYOUT::CblasRowMajor,
            cblas_sys::CBLAS_TRANSPOSE::CblasNoTrans,
            cblas_sys::CBLAS_TRANSPOSE::CblasNoTrans,
            m as i32,
            n as i32,
            k as i32,
            1.0,
            a.as_ptr(),
            k as i32,
            b.as_ptr(),
            n as i32,
            0.0,
            c.as_mut_ptr(),
            n as i32,
        )
    }
}

fn transfers(ctx: &Context, n: usize, reps: usize) -> Result<(), Box<dyn std::error::Error>> {
    let x = Array1::from_shape_fn(n, |i| (i % 1000) as f32);
    let gb = (n * 4) as f64 / 1e9;
    let (up, up_min) = time(reps, 2, || {
        let v = ctx.upload_vector(&x).expect("upload");
        ctx.synchronize().expect("sync");
        drop(v);
    });
    println!("ROW,upload,n={n},-,host,GB/s,{:.2}", gb / up);
    println!(
        "# upload n={n}: median {:.2} ms, best {:.2} GB/s",
        up * 1e3,
        gb / up_min
    );
    let v = ctx.upload_vector(&x)?;
    let back = v.to_array()?;
    assert_eq!(back, x, "read-back differs from the upload");
    let steps0 = ctx.step_times();
    let (down, down_min) = time(reps, 2, || {
        let y = v.to_array().expect("read-back");
        std::hint::black_box(&y);
    });
    steps(ctx, &steps0, reps + 2, &format!("readback {n}"));
    println!("ROW,readback,n={n},-,host,GB/s,{:.2}", gb / down);
    println!(
        "# readback n={n}: median {:.2} ms, best {:.2} GB/s",
        down * 1e3,
        gb / down_min
    );
    // Read-back into an array that exists already (its pages touched): `scopy` from the
    // resident vector into the host one. Against the fresh array of `to_array`, the
    // difference is the page faults of new memory.
    let mut into = Array1::<f32>::ones(n);
    let (di, di_min) = time(reps, 2, || {
        wgblas::blas::scopy(ctx, &v, into.view_mut()).expect("scopy to host");
    });
    assert_eq!(into, x, "read-back into an array differs from the upload");
    println!(
        "# readback into an existing array (scopy to host), n={n}: median {:.2} ms = {:.2} GB/s, best {:.2} GB/s",
        di * 1e3,
        gb / di,
        gb / di_min
    );
    // A strided view gathered straight into staging memory (every other element of 2n).
    let x2 = Array1::from_shape_fn(2 * n.min(1 << 25), |i| i as f32);
    let xs = x2.slice(ndarray::s![..;2]);
    let gbs = (xs.len() * 4) as f64 / 1e9;
    let (st, _) = time(reps, 1, || {
        let v = ctx.upload_vector(&xs).expect("upload");
        ctx.synchronize().expect("sync");
        drop(v);
    });
    println!(
        "# upload of a step-2 view, n={}: {:.2} GB/s",
        xs.len(),
        gbs / st
    );
    Ok(())
}

fn gemm(ctx: &Context, n: usize, reps: usize) -> Result<(), Box<dyn std::error::Error>> {
    // The operands of sgemm's test description (`tests/wgblas/gemm.rs`), and its check: the
    // forward factor against OpenBLAS within the threshold of `metrics::spec` (else a panic).
    let case = Case::mnk(n as u64, n, n, n);
    let ops = timing::inputs::<Gemm, f32>(&case);
    let (a, b) = (&ops.a, &ops.b);
    let c = a.gpu_gemm(b)?;
    let factor = timing::check::<Gemm, f32>(&case, &ops, c.view().into_dyn());
    openblas_idle();
    let reps = if n >= 2048 { reps } else { reps.max(101) };
    let before = ctx.phase_times();
    let steps0 = ctx.step_times();
    let created = (ctx.buffers_created(), ctx.staging_buffers_created());
    let t = Instant::now();
    let (w, w_min) = time(reps, 3, || {
        let c = a.gpu_gemm(b).expect("gpu_gemm");
        std::hint::black_box(&c);
    });
    phases(ctx, &before, t.elapsed(), reps + 3, &format!("sgemm {n}"));
    steps(ctx, &steps0, reps + 3, &format!("sgemm {n}"));
    println!(
        "# sgemm {n}: {} storage and {} staging buffers created in {} calls",
        ctx.buffers_created() - created.0,
        ctx.staging_buffers_created() - created.1,
        reps + 3
    );
    let (o, o_min) = time(reps, 3, || {
        let mut c = Array2::<f32>::zeros((n, n));
        sgemm_openblas(a, b, &mut c);
        std::hint::black_box(&c);
    });
    openblas_idle();
    let shape = format!("{n}x{n}x{n}");
    println!("ROW,sgemm,{shape},NN-C,host,ms,{:.4}", w * 1e3);
    println!("REF,sgemm,{shape},NN-C,host,ms,openblas,{:.4}", o * 1e3);
    if n <= 64 {
        println!("ROW,sgemm,{shape},NN-C,host,us/call,{:.1}", w * 1e6);
        println!(
            "REF,sgemm,{shape},NN-C,host,us/call,openblas,{:.1}",
            o * 1e6
        );
    }
    println!(
        "# sgemm {shape} host: wgblas median {:.4} ms (min {:.4}), OpenBLAS {:.4} ms (min {:.4}), factor {factor:.2e}",
        w * 1e3,
        w_min * 1e3,
        o * 1e3,
        o_min * 1e3
    );
    let _ = ctx;
    Ok(())
}

fn dot(n: usize, reps: usize) -> Result<(), Box<dyn std::error::Error>> {
    // The operands and the check of sdot's test description (`tests/wgblas/dot.rs`).
    let case = Case::new(n as u64, n, n);
    let ops = timing::inputs::<Dot, f32>(&case);
    let (x, y) = (&ops.x, &ops.y);
    let d = x.gpu_dot(y)?;
    let factor = timing::check::<Dot, f32>(&case, &ops, ndarray::arr1(&[d]).view().into_dyn());
    let reps = if n >= 1 << 20 { reps } else { reps.max(1001) };
    let ctx = Context::shared()?;
    let before = ctx.phase_times();
    let steps0 = ctx.step_times();
    let t = Instant::now();
    let (w, w_min) = time(reps, 5, || {
        std::hint::black_box(x.gpu_dot(y).expect("gpu_dot"));
    });
    phases(ctx, &before, t.elapsed(), reps + 5, &format!("sdot {n}"));
    steps(ctx, &steps0, reps + 5, &format!("sdot {n}"));
    let (o, o_min) = time(reps, 5, || {
        // SAFETY: contiguous vectors of length n.
        std::hint::black_box(unsafe {
            cblas_sys::cblas_sdot(n as i32, x.as_ptr(), 1, y.as_ptr(), 1)
        });
    });
    openblas_idle();
    let (metric, scale) = if n <= 1 << 16 {
        ("us/call", 1e6)
    } else {
        ("ms", 1e3)
    };
    println!("ROW,sdot,n={n},-,host,{metric},{:.4}", w * scale);
    println!("REF,sdot,n={n},-,host,{metric},openblas,{:.4}", o * scale);
    println!(
        "# sdot n={n} host: wgblas median {:.4} (min {:.4}) {metric}, OpenBLAS {:.4} (min {:.4}), factor {factor:.2e}",
        w * scale,
        w_min * scale,
        o * scale,
        o_min * scale
    );
    Ok(())
}

/// The parts of a host sgemm timed one by one (each waited for): a fresh zeroed output, the
/// uploads of A and B, the resident sgemm, and the read-back of C. Their sum against the
/// host call shows what the host path adds.
fn split(ctx: &Context, n: usize, reps: usize) -> Result<(), Box<dyn std::error::Error>> {
    let dist = Uniform::new(-1.0f32, 1.0)?;
    let a = Array2::random((n, n), dist);
    let b = Array2::random((n, n), dist);
    let (zero, _) = time(reps, 2, || {
        std::hint::black_box(Array2::<f32>::zeros((n, n)));
    });
    let (up, _) = time(reps, 2, || {
        let (ga, gb) = (
            ctx.upload_matrix(&a).unwrap(),
            ctx.upload_matrix(&b).unwrap(),
        );
        ctx.synchronize().unwrap();
        drop((ga, gb));
    });
    let (ga, gb) = (ctx.upload_matrix(&a)?, ctx.upload_matrix(&b)?);
    let mut gc = ctx.upload_matrix(&Array2::<f32>::zeros((n, n)))?;
    let (kernel, _) = time(reps, 2, || {
        resident_sgemm(ctx, &ga, &gb, &mut gc);
        ctx.synchronize().unwrap();
    });
    let (down, _) = time(reps, 2, || {
        std::hint::black_box(gc.to_array().unwrap());
    });
    let (host, _) = time(reps, 2, || {
        std::hint::black_box(a.gpu_gemm(&b).unwrap());
    });
    println!(
        "# split sgemm {n}: zeroed output {:.2} ms + upload A, B {:.2} ms + resident sgemm (wall) \
         {:.2} ms + read-back C {:.2} ms = {:.2} ms; host call {:.2} ms (medians)",
        zero * 1e3,
        up * 1e3,
        kernel * 1e3,
        down * 1e3,
        (zero + up + kernel + down) * 1e3,
        host * 1e3
    );
    Ok(())
}

/// `C ← A·B` on resident operands.
fn resident_sgemm(
    ctx: &Context,
    a: &wgblas::GpuMatrix<'_, f32>,
    b: &wgblas::GpuMatrix<'_, f32>,
    c: &mut wgblas::GpuMatrix<'_, f32>,
) {
    wgblas::blas::sgemm(ctx, Transpose::No, Transpose::No, 1.0, a, b, 0.0, c).expect("sgemm");
}

/// A resident sgemm of order `n` timed alone: wall and GPU time (timestamps) of calls made
/// back to back, each waited for; the same after 50 ms of GPU idleness; and the GPU time of
/// the kernel inside host calls (`a.gpu_gemm(&b)`).
fn lone(ctx: &Context, n: usize, reps: usize) -> Result<(), Box<dyn std::error::Error>> {
    let dist = Uniform::new(-1.0f32, 1.0)?;
    let a = Array2::random((n, n), dist);
    let b = Array2::random((n, n), dist);
    let (ga, gb) = (ctx.upload_matrix(&a)?, ctx.upload_matrix(&b)?);
    let mut gc = ctx.upload_matrix(&Array2::<f32>::zeros((n, n)))?;
    ctx.synchronize()?;
    let med = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2] * 1e3, v[0] * 1e3)
    };
    let mut run = |idle_ms: u64| -> (Vec<f64>, Vec<f64>) {
        let (mut wall, mut gpu) = (Vec::new(), Vec::new());
        for r in 0..reps + 2 {
            if idle_ms > 0 {
                std::thread::sleep(std::time::Duration::from_millis(idle_ms));
            }
            let t = Instant::now();
            resident_sgemm(ctx, &ga, &gb, &mut gc);
            ctx.synchronize().expect("sync");
            if r >= 2 {
                wall.push(t.elapsed().as_secs_f64());
                gpu.push(ctx.last_gpu_time().map_or(f64::NAN, |d| d.as_secs_f64()));
            }
        }
        (wall, gpu)
    };
    ctx.set_profiling(true);
    let (w0, g0) = run(0);
    let (w1, g1) = run(50);
    let mut host_gpu = Vec::new();
    let mut host_wall = Vec::new();
    for r in 0..reps + 2 {
        let t = Instant::now();
        std::hint::black_box(a.gpu_gemm(&b)?);
        if r >= 2 {
            host_wall.push(t.elapsed().as_secs_f64());
            host_gpu.push(ctx.last_gpu_time().map_or(f64::NAN, |d| d.as_secs_f64()));
        }
    }
    ctx.set_profiling(false);
    let batch = ctx.time_batch(|| {
        resident_sgemm(ctx, &ga, &gb, &mut gc);
    })?;
    let f = |(m, lo): (f64, f64)| format!("{m:.2} ms (min {lo:.2})");
    println!(
        "# lone sgemm {n}: back to back wall {}, gpu {}; after 50 ms idle wall {}, gpu {}; \
         host call wall {}, kernel gpu {}; one call in time_batch {:.2} ms",
        f(med(w0)),
        f(med(g0)),
        f(med(w1)),
        f(med(g1)),
        f(med(host_wall)),
        f(med(host_gpu)),
        batch.as_secs_f64() * 1e3
    );
    Ok(())
}

/// Print the mean wall time per call of each host-side phase (`Context::phase_times`) over
/// `calls` calls that took `total`, and the rest (output allocation, argument checks, ...).
fn phases(
    ctx: &Context,
    before: &[(wgblas::Phase, std::time::Duration)],
    total: std::time::Duration,
    calls: usize,
    what: &str,
) {
    let line = phases::line(ctx, before, total, calls, 1);
    println!("# phases of {what}, us per call:{line}");
}

/// With `--trace`: the mean wall time per call of each step inside Submit and Wait
/// (`Context::step_times`) over `calls` calls since `before`.
fn steps(ctx: &Context, before: &[(&'static str, std::time::Duration)], calls: usize, what: &str) {
    if !flag("--trace") {
        return;
    }
    let mut line = String::new();
    for ((name, t), (_, t0)) in ctx.step_times().iter().zip(before) {
        let us = (*t - *t0).as_secs_f64() * 1e6 / calls as f64;
        line += &format!(" {name} {us:.2},");
    }
    println!(
        "# steps of {what}, us per call:{}",
        line.trim_end_matches(',')
    );
}

/// Raw copy speeds into and out of mapped staging memory on a separate wgpu device: what the
/// memory types wgpu picks for `MAP_WRITE` and `MAP_READ` buffers allow, without wgblas.
fn probe(reps: usize) -> Result<(), Box<dyn std::error::Error>> {
    let bytes: u64 = 32 << 20;
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        ..Default::default()
    }))?;
    let (device, queue) =
        pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))?;
    let host = vec![1u8; bytes as usize];
    let mut sink = vec![0u8; bytes as usize];
    let gb = bytes as f64 / 1e9;
    let (m, _) = time(reps, 2, || {
        sink.copy_from_slice(&host);
        std::hint::black_box(&sink);
    });
    println!("# probe: host memcpy 32 MiB: {:.1} GB/s (1 thread)", gb / m);
    // Write into a mapped MAP_WRITE buffer (what uploads fill).
    let w = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: true,
    });
    {
        let mut view = w.get_mapped_range_mut(..)?;
        let (m, _) = time(reps, 2, || view.copy_from_slice(&host));
        println!(
            "# probe: memcpy into mapped MAP_WRITE memory: {:.1} GB/s (1 thread)",
            gb / m
        );
    }
    w.unmap();
    // DMA from the staging buffer into device memory.
    let dev = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    // Time a device copy of `bytes` from `src` to `dst`, each one submitted and waited for.
    let copy_time = |src: &wgpu::Buffer, dst: &wgpu::Buffer| {
        time(reps, 2, || {
            let mut e = device.create_command_encoder(&Default::default());
            e.copy_buffer_to_buffer(src, 0, dst, 0, bytes);
            queue.submit(Some(e.finish()));
            device
                .poll(wgpu::PollType::wait_indefinitely())
                .expect("poll");
        })
    };
    let (m, _) = copy_time(&w, &dev);
    println!(
        "# probe: device copy MAP_WRITE staging -> device buffer: {:.1} GB/s",
        gb / m
    );
    let r = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let (m, _) = copy_time(&dev, &r);
    println!(
        "# probe: device copy device buffer -> MAP_READ staging: {:.1} GB/s",
        gb / m
    );
    r.map_async(wgpu::MapMode::Read, .., |_| {});
    device.poll(wgpu::PollType::wait_indefinitely())?;
    {
        let view = r.get_mapped_range(..)?;
        let (m, _) = time(reps, 2, || sink.copy_from_slice(&view));
        println!(
            "# probe: memcpy out of mapped MAP_READ memory: {:.1} GB/s (1 thread)",
            gb / m
        );
    }
    r.unmap();
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let reps: usize = arg("--reps", "11").parse()?;
    wgblas::lab::set_copy_threads(arg("--copy-threads", "0").parse()?);
    wgblas::lab::set_prefault_outputs(!flag("--no-prefault"));
    wgblas::lab::set_copy_part(arg("--copy-part", "0").parse()?);
    wgblas::lab::set_staging_limit(arg("--staging-limit", "0").parse()?);
    if flag("--no-single-small") {
        wgblas::tuning::set_tuning(Some(wgblas::tuning::Tuning {
            single_small: Some(false),
            ..Default::default()
        }));
    }
    let spin = arg("--spin-us", "");
    wgblas::lab::set_spin_us(if spin.is_empty() {
        None
    } else {
        Some(spin.parse()?)
    });
    println!(
        "# lab: copy threads {} (0: the pool's), copy part {} B, staging limit {} B, single small {}, prefault outputs {}, spin {}",
        wgblas::lab::copy_threads(),
        wgblas::lab::copy_part(),
        wgblas::lab::staging_limit(),
        !flag("--no-single-small"),
        wgblas::lab::prefault_outputs(),
        wgblas::lab::spin_us().map_or("default".to_string(), |us| format!("{us} us"))
    );
    let t = Instant::now();
    let ctx = Context::shared()?;
    println!(
        "# context created in {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let pool_limit = arg("--pool-limit", "");
    if !pool_limit.is_empty() {
        ctx.set_pool_limit(pool_limit.parse()?);
    }
    println!("# storage pool limit {} B", ctx.pool_limit());
    let info = ctx.adapter_info();
    println!(
        "# adapter: {} ({:?}, {:?}), driver {} {}",
        info.name, info.backend, info.device_type, info.driver, info.driver_info
    );
    // SAFETY: OpenBLAS returns a static C string and an int.
    let (config, threads) = unsafe {
        (
            std::ffi::CStr::from_ptr(openblas_get_config())
                .to_string_lossy()
                .into_owned(),
            openblas_get_num_threads(),
        )
    };
    println!(
        "# OpenBLAS: {config}, {threads} threads; copy threads: {}",
        std::env::var("WGBLAS_COPY_THREADS")
            .unwrap_or_else(|_| "default (cores, at most 16)".into())
    );
    println!("# pipeline cache on disk: {:?}", ctx.pipeline_cache_path());
    if flag("--probe") {
        probe(reps)?;
    }
    let n: usize = arg("--transfer", "67108864").parse()?;
    transfers(ctx, n, reps)?;
    if flag("--trim-after-transfers") {
        let (limit, bytes) = (ctx.pool_limit(), ctx.pool_bytes());
        ctx.set_pool_limit(0);
        ctx.set_pool_limit(limit);
        println!(
            "# storage pool trimmed after the transfers: {bytes} B free before, {} B after",
            ctx.pool_bytes()
        );
    }
    if arg("--only", "") == "transfers" {
        return Ok(());
    }
    for n in list(&arg("--gemm", "64,512,2048,4096")) {
        gemm(ctx, n, reps)?;
    }
    for n in list(&arg("--split", "2048,4096")) {
        split(ctx, n, reps)?;
    }
    for n in list(&arg("--dot", "1024,16777216")) {
        dot(n, reps)?;
    }
    for n in list(&arg("--lone", "")) {
        lone(ctx, n, reps)?;
    }
    println!(
        "# staging buffers created: {}, storage buffers created: {}",
        ctx.staging_buffers_created(),
        ctx.buffers_created()
    );
    Ok(())
}
