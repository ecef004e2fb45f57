//! Device memory probe: how fast a wgpu compute shader reads, writes and copies device memory
//! on this adapter, for buffers of several sizes and usages, against `copy_buffer_to_buffer`.
//! No wgblas code runs: this separates what the driver gives from what the kernels do.
//!
//! Each figure is bytes moved (read + written) over the wall time of `REPS` dispatches in one
//! submission, after a warm-up submission.
//!
//! ```text
//! cargo run --release --example mem_probe [-- MiB...]
//! ```

use std::time::Instant;

const WGSL: &str = r#"
@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;

const WG: u32 = 256u;

fn idx(wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return (wid.x + wid.y * nwg.x) * WG * 4u + lid;
}

@compute @workgroup_size(WG)
fn copy(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let base = idx(wid, nwg, lid);
    let n = arrayLength(&dst);
    var v: array<vec4<f32>, 4>;
    for (var k = 0u; k < 4u; k++) { let i = base + k * WG; if (i < n) { v[k] = src[i]; } }
    for (var k = 0u; k < 4u; k++) { let i = base + k * WG; if (i < n) { dst[i] = v[k]; } }
}

@compute @workgroup_size(WG)
fn fill(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let base = idx(wid, nwg, lid);
    let n = arrayLength(&dst);
    for (var k = 0u; k < 4u; k++) { let i = base + k * WG; if (i < n) { dst[i] = vec4<f32>(f32(i)); } }
}

@compute @workgroup_size(WG)
fn load(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let base = idx(wid, nwg, lid);
    let n = arrayLength(&src);
    var s = vec4<f32>(0.0);
    for (var k = 0u; k < 4u; k++) { let i = base + k * WG; if (i < n) { s += src[i]; } }
    // Never true for the data written here (all ones): keeps the loads alive.
    if (s.x == -1.0) { dst[0] = s; }
}
"#;

const REPS: u32 = 20;

/// Buffer sizes in MiB from the command line (positional), read with `lexopt`: anything that
/// is not a size, or any flag but `--help`, stops the program with a message (exit status 2).
fn parse_sizes() -> Result<Vec<u64>, lexopt::Error> {
    use lexopt::prelude::*;
    let mut sizes = Vec::new();
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => {
                println!("usage: mem_probe [MiB...]   (default: 64 256 1024)");
                std::process::exit(0);
            }
            Value(v) => sizes.push(v.parse()?),
            _ => return Err(arg.unexpected()),
        }
    }
    Ok(sizes)
}

fn main() {
    let sizes = parse_sizes().unwrap_or_else(|e| {
        eprintln!("error: {e}\nusage: mem_probe [MiB...]");
        std::process::exit(2)
    });
    let sizes = if sizes.is_empty() {
        vec![64, 256, 1024]
    } else {
        sizes
    };
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        ..Default::default()
    }))
    .expect("an adapter");
    println!("# adapter: {:?}", adapter.get_info().name);
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("mem probe"),
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .expect("a device");
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("mem probe"),
        source: wgpu::ShaderSource::Wgsl(WGSL.into()),
    });
    let pipeline = |entry: &str| {
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout: None,
            module: &module,
            entry_point: Some(entry),
            compilation_options: Default::default(),
            cache: None,
        })
    };
    // One layout for all three entries: build it from `copy`, which uses both bindings.
    let (p_copy, p_fill, p_read) = (pipeline("copy"), pipeline("fill"), pipeline("load"));
    let max = device.limits().max_storage_buffer_binding_size;
    let usages = [("STORAGE|COPY_SRC|COPY_DST", wgpu::BufferUsages::STORAGE)];
    for &mib in &sizes {
        let bytes = (mib << 20).min(max / 16 * 16);
        for (uname, usage) in usages {
            let make = |label| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: bytes,
                    usage: usage | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                })
            };
            let (src, dst) = (make("src"), make("dst"));
            // Ones in src (a clear then a fill would need another pipeline: write from host).
            queue.write_buffer(&src, 0, &vec![0u8; bytes as usize]);
            let run = |p: &wgpu::ComputePipeline, what: &str, moved: u64| {
                let bind = |p: &wgpu::ComputePipeline| {
                    let layout = p.get_bind_group_layout(0);
                    let mut entries = Vec::new();
                    if what != "fill" {
                        entries.push(wgpu::BindGroupEntry {
                            binding: 0,
                            resource: src.as_entire_binding(),
                        });
                    }
                    entries.push(wgpu::BindGroupEntry {
                        binding: 1,
                        resource: dst.as_entire_binding(),
                    });
                    device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: None,
                        layout: &layout,
                        entries: &entries,
                    })
                };
                let bg = bind(p);
                let groups = (bytes / 16).div_ceil(1024) as u32;
                let (gx, gy) = if groups <= 65535 {
                    (groups, 1)
                } else {
                    let gy = groups.div_ceil(65535);
                    (groups.div_ceil(gy), gy)
                };
                let submit = |reps: u32| {
                    let mut e = device.create_command_encoder(&Default::default());
                    {
                        let mut pass = e.begin_compute_pass(&Default::default());
                        pass.set_pipeline(p);
                        pass.set_bind_group(0, &bg, &[]);
                        for _ in 0..reps {
                            pass.dispatch_workgroups(gx, gy, 1);
                        }
                    }
                    queue.submit(Some(e.finish()));
                    device
                        .poll(wgpu::PollType::wait_indefinitely())
                        .expect("poll");
                };
                submit(2);
                let t = Instant::now();
                submit(REPS);
                let s = t.elapsed().as_secs_f64() / REPS as f64;
                println!(
                    "PROBE,{what},{mib}MiB,{uname},{:.0} GB/s,{:.1} us",
                    moved as f64 / s / 1e9,
                    s * 1e6
                );
            };
            run(&p_copy, "copy-kernel", 2 * bytes);
            run(&p_fill, "fill", bytes);
            run(&p_read, "read", bytes);
            // The driver's own copy.
            let submit = |reps: u32| {
                let mut e = device.create_command_encoder(&Default::default());
                for _ in 0..reps {
                    e.copy_buffer_to_buffer(&src, 0, &dst, 0, bytes);
                }
                queue.submit(Some(e.finish()));
                device
                    .poll(wgpu::PollType::wait_indefinitely())
                    .expect("poll");
            };
            submit(2);
            let t = Instant::now();
            submit(REPS);
            let s = t.elapsed().as_secs_f64() / REPS as f64;
            println!(
                "PROBE,copy_buffer_to_buffer,{mib}MiB,{uname},{:.0} GB/s,{:.1} us",
                2.0 * bytes as f64 / s / 1e9,
                s * 1e6
            );
        }
    }
}
