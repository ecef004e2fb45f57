//! Tile probe: standalone sgemm kernels read from WGSL files at run time, so that many kernel
//! bodies can be tried on one machine in one run with no rebuild (the engine's own variants are
//! `kernel_lab`'s). Each file is a whole shader with entry `main` over
//! `@binding(0) P: {m, n, k, pad}` (uniform), `@binding(1) a` and `@binding(2) b` (read-only
//! `array<vec4<f32>>`, A m×k and B k×n in C order) and `@binding(3) c` (`array<vec4<f32>>`,
//! C m×n in C order, written); its first line says `//! bm=128 bn=128` (the tile of C one
//! workgroup owns; grid n/bn × m/bm). The square product runs after 0.3 s of steady load (the
//! driver lowers the SM clock under a partial load), timed by wall clock over batches of
//! back-to-back dispatches, and 512 sampled entries of C are checked against f64 dot products
//! with the §2 forward factor |c − ĉ| / (u·Σ|a||b|).
//!
//! Run: `cargo run --release --example tile_probe -- --n 4096 --reps 11 [--unchecked] a.wgsl
//! b.wgsl` (`--unchecked`: modules without naga's index clamps and loop bounding, as
//! `wgblas::lab::ShaderChecks::Unchecked`).
//! Output: `PROBE,<file>,<n>,<median TFLOP/s>,<best TFLOP/s>,<max factor>`.

use std::time::{Duration, Instant};

use wgpu::util::DeviceExt;

fn main() {
    let mut n = 4096usize;
    let mut reps = 11usize;
    let mut unchecked = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--n" => n = args.next().and_then(|v| v.parse().ok()).expect("--n N"),
            "--reps" => reps = args.next().and_then(|v| v.parse().ok()).expect("--reps N"),
            "--unchecked" => unchecked = true,
            _ => files.push(a),
        }
    }
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&Default::default())).expect("an adapter");
    eprintln!("adapter: {}", adapter.get_info().name);
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: None,
        required_features: wgpu::Features::empty(),
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .expect("a device");

    // Operands: small integers over 8, so that products are exact enough to compare closely.
    let mut state = 0x9e3779b97f4a7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 40) % 17) as f32 / 8.0 - 1.0
    };
    let a: Vec<f32> = (0..n * n).map(|_| next()).collect();
    let b: Vec<f32> = (0..n * n).map(|_| next()).collect();
    let usage =
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let buf_a = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&a),
        usage,
    });
    let buf_b = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&b),
        usage,
    });
    let buf_c = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: (n * n * 4) as u64,
        usage,
        mapped_at_creation: false,
    });
    let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&[n as u32, n as u32, n as u32, 0u32]),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let read = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: (n * n * 4) as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    for file in &files {
        let text = std::fs::read_to_string(file).expect("a WGSL file");
        let head = text.lines().next().unwrap_or("");
        let field = |key: &str| -> usize {
            head.split_whitespace()
                .find_map(|w| w.strip_prefix(key).and_then(|v| v.parse().ok()))
                .unwrap_or_else(|| panic!("{file}: first line lacks {key}"))
        };
        let (bm, bn) = (field("bm="), field("bn="));
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let desc = wgpu::ShaderModuleDescriptor {
            label: Some(file),
            source: wgpu::ShaderSource::Wgsl(text.as_str().into()),
        };
        let module = if unchecked {
            let checks = wgpu::ShaderRuntimeChecks {
                bounds_checks: false,
                force_loop_bounding: false,
                ..wgpu::ShaderRuntimeChecks::checked()
            };
            // SAFETY: the probe kernels (tools/tile_probe_gen.py) index their workgroup and
            // private arrays by constants and in-range tile offsets, and their loops run over
            // k / bk slabs; storage buffers keep the driver's robust buffer access.
            unsafe { device.create_shader_module_trusted(desc, checks) }
        } else {
            device.create_shader_module(desc)
        };
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(file),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &[],
                zero_initialize_workgroup_memory: false,
            },
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            println!(
                "PROBE,{file},{n},error,{}",
                e.to_string().replace('\n', " ")
            );
            continue;
        }
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: buf_a.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: buf_b.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: buf_c.as_entire_binding(),
                },
            ],
        });
        let mut enc = device.create_command_encoder(&Default::default());
        enc.clear_buffer(&buf_c, 0, None);
        queue.submit([enc.finish()]);
        let batch = |count: usize| {
            let mut enc = device.create_command_encoder(&Default::default());
            for _ in 0..count {
                let mut pass = enc.begin_compute_pass(&Default::default());
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &group, &[]);
                pass.dispatch_workgroups((n / bn) as u32, (n / bm) as u32, 1);
            }
            let t = Instant::now();
            queue.submit([enc.finish()]);
            device
                .poll(wgpu::PollType::wait_indefinitely())
                .expect("poll");
            t.elapsed()
        };
        // Warm-up: 0.3 s of steady load, then batches of about 25 ms.
        let once = batch(1).max(Duration::from_micros(10));
        let per = (Duration::from_millis(25).as_secs_f64() / once.as_secs_f64()).ceil() as usize;
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_millis(300) {
            batch(per);
        }
        let mut rates: Vec<f64> = (0..reps)
            .map(|_| 2.0 * (n as f64).powi(3) * per as f64 / batch(per).as_secs_f64() / 1e12)
            .collect();
        rates.sort_by(|x, y| x.partial_cmp(y).unwrap());
        // Check sampled entries of C.
        let mut enc = device.create_command_encoder(&Default::default());
        enc.copy_buffer_to_buffer(&buf_c, 0, &read, 0, (n * n * 4) as u64);
        queue.submit([enc.finish()]);
        read.slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.expect("map"));
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("poll");
        let factor = {
            let view = read.slice(..).get_mapped_range().expect("mapped");
            let c: &[f32] = bytemuck::cast_slice(&view[..]);
            let mut worst = 0.0f64;
            for s in 0..512usize {
                let i = (s * 7919 + 13) % n;
                let j = (s * 104729 + 7) % n;
                let (mut sum, mut abs) = (0.0f64, 0.0f64);
                for p in 0..n {
                    let x = a[i * n + p] as f64 * b[p * n + j] as f64;
                    sum += x;
                    abs += x.abs();
                }
                let f = (c[i * n + j] as f64 - sum).abs()
                    / (f32::EPSILON as f64 / 2.0 * abs.max(1e-30));
                worst = worst.max(if f.is_nan() { f64::INFINITY } else { f });
            }
            worst
        };
        read.unmap();
        println!(
            "PROBE,{file},{n},{:.2},{:.2},{:.1}",
            rates[reps / 2],
            rates[reps - 1],
            factor
        );
    }
}
