//! Batch probe: standalone kernels for batches of small products (C order, NN), read from WGSL
//! files at run time so that many kernel bodies can be tried in one run with no rebuild (issue
//! 14's 10,000 × 32³ row). Each file is a whole shader with entry `main` over
//! `@binding(0) P: {m, n, k, batch}` (uniform), `@binding(1) a`, `@binding(2) b` (read-only,
//! A_b m×k and B_b k×n in C order, batch-major, f32 or f64 as the file's first line says) and
//! `@binding(3) c` (C_b m×n, written); its first line says `//! per_wg=4 dt=f32` (products per
//! workgroup). Timed as `tile_probe` (0.3 s of steady load, wall clock over batches of
//! back-to-back dispatches); 256 sampled entries of C are checked against f64 dot products with
//! the §2 forward factor |c − ĉ| / (u·Σ|a||b|).
//!
//! Run: `cargo run --release --example batch_probe -- --batch 10000 --n 32 --reps 11 a.wgsl`.
//! Output: `BPROBE,<file>,<batch>x<n>³,<median TFLOP/s>,<best TFLOP/s>,<max factor>`.

use std::time::{Duration, Instant};

use wgpu::util::DeviceExt;

fn entry(binding: u32, b: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: b.as_entire_binding(),
    }
}

fn main() {
    let (mut batch, mut n, mut reps) = (10000usize, 32usize, 11usize);
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let num =
            |v: Option<String>| -> usize { v.and_then(|v| v.parse().ok()).expect("a number") };
        match a.as_str() {
            "--batch" => batch = num(args.next()),
            "--n" => n = num(args.next()),
            "--reps" => reps = num(args.next()),
            _ => files.push(a),
        }
    }
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&Default::default())).expect("an adapter");
    let f64_ok = adapter.features().contains(wgpu::Features::SHADER_F64);
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: None,
        required_features: if f64_ok {
            wgpu::Features::SHADER_F64
        } else {
            wgpu::Features::empty()
        },
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .expect("a device");
    let mut state = 0x9e3779b97f4a7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 40) % 17) as f64 / 8.0 - 1.0
    };
    let len = batch * n * n;
    let a: Vec<f64> = (0..len).map(|_| next()).collect();
    let b: Vec<f64> = (0..len).map(|_| next()).collect();
    let usage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let make = |v: &[f64], f64s: bool| {
        let bytes: Vec<u8> = if f64s {
            bytemuck::cast_slice(v).to_vec()
        } else {
            let f: Vec<f32> = v.iter().map(|&x| x as f32).collect();
            bytemuck::cast_slice(&f).to_vec()
        };
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: &bytes,
            usage,
        })
    };
    let bufs = [
        (make(&a, false), make(&b, false)),
        (make(&a, true), make(&b, true)),
    ];
    let buf_c = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: (len * 8) as u64,
        usage,
        mapped_at_creation: false,
    });
    let read = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: (len * 8) as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&[n as u32, n as u32, n as u32, batch as u32]),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a WGSL file");
        let head = text.lines().next().unwrap_or("");
        let per_wg: usize = head
            .split_whitespace()
            .find_map(|w| w.strip_prefix("per_wg=").and_then(|v| v.parse().ok()))
            .expect("first line: per_wg=N");
        let dbl = head.contains("dt=f64");
        if dbl && !f64_ok {
            println!("BPROBE,{file},{batch}x{n},no-f64");
            continue;
        }
        let esize = if dbl { 8 } else { 4 };
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(file),
            source: wgpu::ShaderSource::Wgsl(text.as_str().into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(file),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            println!(
                "BPROBE,{file},{batch}x{n},error,{}",
                e.to_string().replace('\n', " ")
            );
            continue;
        }
        let (ba, bb) = &bufs[usize::from(dbl)];
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                entry(0, &params),
                entry(1, ba),
                entry(2, bb),
                entry(3, &buf_c),
            ],
        });
        let mut enc = device.create_command_encoder(&Default::default());
        enc.clear_buffer(&buf_c, 0, None);
        queue.submit([enc.finish()]);
        // `groups=N` on the first line: a fixed grid (kernels that loop over the batch).
        let groups = head
            .split_whitespace()
            .find_map(|w| w.strip_prefix("groups=").and_then(|v| v.parse().ok()))
            .unwrap_or_else(|| batch.div_ceil(per_wg));
        let (gx, gy) = (groups.min(65535), groups.div_ceil(65535));
        let run = |count: usize| {
            let mut enc = device.create_command_encoder(&Default::default());
            for _ in 0..count {
                let mut pass = enc.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &group, &[]);
                pass.dispatch_workgroups(gx as u32, gy as u32, 1);
            }
            let t = Instant::now();
            queue.submit([enc.finish()]);
            device
                .poll(wgpu::PollType::wait_indefinitely())
                .expect("poll");
            t.elapsed()
        };
        let once = run(1).max(Duration::from_micros(5));
        let per = (Duration::from_millis(25).as_secs_f64() / once.as_secs_f64()).ceil() as usize;
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_millis(300) {
            run(per);
        }
        let flops = 2.0 * batch as f64 * (n as f64).powi(3);
        let mut rates: Vec<f64> = (0..reps)
            .map(|_| flops * per as f64 / run(per).as_secs_f64() / 1e12)
            .collect();
        rates.sort_by(f64::total_cmp);
        let mut enc = device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(&buf_c, 0, &read, 0, (len * esize) as u64);
        queue.submit([enc.finish()]);
        read.slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.expect("map"));
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
        let factor = {
            let view = read.slice(..).get_mapped_range().expect("mapped");
            let got = |idx: usize| -> f64 {
                if dbl {
                    bytemuck::cast_slice::<u8, f64>(&view[..len * 8])[idx]
                } else {
                    f64::from(bytemuck::cast_slice::<u8, f32>(&view[..len * 4])[idx])
                }
            };
            let u = if dbl {
                f64::EPSILON / 2.0
            } else {
                f64::from(f32::EPSILON) / 2.0
            };
            let mut worst = 0.0f64;
            for s in 0..256usize {
                let z = (s * 7919 + 3) % batch;
                let i = (s * 31 + 1) % n;
                let j = (s * 17 + 5) % n;
                let (mut sum, mut abs) = (0.0f64, 0.0f64);
                for p in 0..n {
                    let x = a[z * n * n + i * n + p] * b[z * n * n + p * n + j];
                    sum += x;
                    abs += x.abs();
                }
                let f = (got(z * n * n + i * n + j) - sum).abs() / (u * abs.max(1e-30));
                worst = worst.max(if f.is_nan() { f64::INFINITY } else { f });
            }
            worst
        };
        read.unmap();
        println!(
            "BPROBE,{file},{batch}x{n},{:.2},{:.2},{:.2}",
            rates[reps / 2],
            rates[reps - 1],
            factor
        );
    }
}
