//! Does the adapter's WGSL `fma()` round once? WGSL leaves it open (its accuracy is that of
//! `a * b + c`). One invocation forms `e = fma(a, b, -fl(a·b))` for an f32 pair and an f64
//! pair whose products are not representable: a fused `fma()` gives the exact error of the
//! rounded product (printed beside, from the host's `mul_add`), an unfused one 0.
//!
//! Run: `cargo run --release --example fma_probe`. On the H200 (2026-12-03) both are exact; on
//! lavapipe (Mesa 22.3.6, LLVM 15) both are 0.
use wgpu::util::DeviceExt;
fn e(b: u32, buf: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding: b,
        resource: buf.as_entire_binding(),
    }
}
fn main() {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&Default::default())).expect("an adapter");
    println!("{:?}", adapter.get_info().name);
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_features: wgpu::Features::SHADER_F64,
        ..Default::default()
    }))
    .expect("device");
    let src = r#"
@group(0) @binding(0) var<storage, read> i: array<f32>;
@group(0) @binding(1) var<storage, read_write> o: array<f32>;
@group(0) @binding(2) var<storage, read> i64_: array<f64>;
@group(0) @binding(3) var<storage, read_write> o64: array<f64>;
@compute @workgroup_size(1)
fn main() {
    let a = i[0]; let b = i[1];
    let p = a * b;
    o[0] = p;
    o[1] = fma(a, b, -p);
    let q = bitcast<f32>(bitcast<u32>(a * b) | bitcast<u32>(i[2]));
    o[2] = fma(a, b, -q);
    let c = i64_[0]; let d = i64_[1];
    let r = c * d;
    o64[0] = fma(c, d, -r);
    o[3] = fma(vec4<f32>(a), vec4<f32>(b), -vec4<f32>(p)).x;
}
"#;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: None,
        source: wgpu::ShaderSource::Wgsl(src.into()),
    });
    let pipe = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: None,
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let a = 1.0f32 + f32::EPSILON * 64.0 + f32::EPSILON;
    let b = 1.0f32 - f32::EPSILON * 32.0 + f32::EPSILON * 2.0;
    let ins: [f32; 4] = [a, b, 0.0, 0.0];
    let c = 1.0f64 + f64::EPSILON * 3.0;
    let d = 1.0f64 + f64::EPSILON * 5.0;
    let i = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&ins),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let i64b = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: bytemuck::cast_slice(&[c, d]),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let o = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 16,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let o64 = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 16,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let rd = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 32,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bg = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &pipe.get_bind_group_layout(0),
        entries: &[e(0, &i), e(1, &o), e(2, &i64b), e(3, &o64)],
    });
    let mut enc = device.create_command_encoder(&Default::default());
    {
        let mut p = enc.begin_compute_pass(&Default::default());
        p.set_pipeline(&pipe);
        p.set_bind_group(0, &bg, &[]);
        p.dispatch_workgroups(1, 1, 1);
    }
    enc.copy_buffer_to_buffer(&o, 0, &rd, 0, 16);
    enc.copy_buffer_to_buffer(&o64, 0, &rd, 16, 16);
    queue.submit([enc.finish()]);
    rd.slice(..).map_async(wgpu::MapMode::Read, |r| r.unwrap());
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let v = rd.slice(..).get_mapped_range().unwrap();
    let f: &[f32] = bytemuck::cast_slice(&v[..16]);
    let g: &[f64] = bytemuck::cast_slice(&v[16..32]);
    let exact = (a as f64) * (b as f64) - f64::from(a * b);
    let exact64 = {
        let p = c * d;
        c.mul_add(d, -p)
    };
    println!(
        "f32: p {} e {:e} (exact {:e}) e_opaque {:e} vec {:e}",
        f[0], f[1], exact, f[2], f[3]
    );
    println!("f64: e {:e} (exact {:e})", g[0], exact64);
}
