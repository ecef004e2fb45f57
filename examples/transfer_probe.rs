//! Host↔device transfer paths on Vulkan, measured without wgblas (issue 10): what each way of
//! moving an ndarray's bytes to the device and back costs on this adapter.
//!
//! - `bar`: wgpu's own `MAP_WRITE` staging (the memory type wgpu picks for it: on NVIDIA a
//!   device-local, host-visible one, written by the CPU across the bus) and `MAP_READ` staging;
//! - `sys`: staging in a host-cached, not device-local memory type allocated through the raw
//!   Vulkan device (the CPU copies at host-memory speed, the device's copy engine crosses the bus);
//! - `import`: the caller's own memory imported with `VK_EXT_external_memory_host` (no host copy:
//!   the device reads and writes the array's pages; the cost is the import, which pins them).
//!
//! Every figure is a median of `--reps` after one warm-up; bytes / seconds in GB/s (10^9).
//!
//! ```sh
//! cargo run --release --example transfer_probe -- --mib 64,256 --reps 7
//! ```
use std::time::Instant;

use ash::vk;
use wgpu::hal::api::Vulkan;

#[path = "support/args.rs"]
mod args;

const FLAGS: &[(&str, &str)] = &[("--mib", "64,256"), ("--reps", "7"), ("--threads", "16")];

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn gbs(bytes: usize, s: f64) -> f64 {
    bytes as f64 / s / 1e9
}

/// Copy `src` to `dst` on `threads` threads in contiguous parts.
fn par_copy(dst: *mut u8, src: *const u8, len: usize, threads: usize) {
    let step = len.div_ceil(threads).div_ceil(4096) * 4096;
    let (d, s) = (dst as usize, src as usize);
    std::thread::scope(|sc| {
        for t in 0..threads {
            let lo = (t * step).min(len);
            let hi = ((t + 1) * step).min(len);
            if lo < hi {
                sc.spawn(move || {
                    // SAFETY: disjoint parts of two buffers of `len` bytes each.
                    unsafe {
                        std::ptr::copy_nonoverlapping(
                            (s + lo) as *const u8,
                            (d + lo) as *mut u8,
                            hi - lo,
                        )
                    }
                });
            }
        }
    });
}

/// A page-aligned host allocation of `len` bytes; `touch` writes every page first.
struct HostMem {
    ptr: *mut u8,
    layout: std::alloc::Layout,
}
impl HostMem {
    fn new(len: usize, touch: bool) -> Self {
        let layout = std::alloc::Layout::from_size_align(len, 1 << 21).unwrap();
        // SAFETY: non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        assert!(!ptr.is_null());
        if touch {
            for i in (0..len).step_by(4096) {
                // SAFETY: inside the allocation.
                unsafe { ptr.add(i).write_volatile(1) };
            }
        }
        HostMem { ptr, layout }
    }
}
impl Drop for HostMem {
    fn drop(&mut self) {
        // SAFETY: allocated above with this layout.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) }
    }
}

struct Raw {
    instance: ash::Instance,
    phd: vk::PhysicalDevice,
    device: ash::Device,
    host_ext: Option<ash::ext::external_memory_host::Device>,
    import_align: u64,
}

fn submit_copy(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    src: &wgpu::Buffer,
    dst: &wgpu::Buffer,
    len: u64,
) {
    let mut e = device.create_command_encoder(&Default::default());
    e.copy_buffer_to_buffer(src, 0, dst, 0, len);
    queue.submit(Some(e.finish()));
    device
        .poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: None,
        })
        .unwrap();
}

/// Wrap a raw Vulkan buffer over `memory` as a wgpu buffer (wgpu frees both when dropped).
unsafe fn wrap(
    device: &wgpu::Device,
    raw: &Raw,
    memory: vk::DeviceMemory,
    size: u64,
    external: bool,
) -> wgpu::Buffer {
    let mut ext_info = vk::ExternalMemoryBufferCreateInfo::default()
        .handle_types(vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT);
    let mut info = vk::BufferCreateInfo::default()
        .size(size)
        .usage(vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST)
        .sharing_mode(vk::SharingMode::EXCLUSIVE);
    if external {
        info = info.push_next(&mut ext_info);
    }
    let buffer = unsafe { raw.device.create_buffer(&info, None) }.unwrap();
    unsafe { raw.device.bind_buffer_memory(buffer, memory, 0) }.unwrap();
    let hal = unsafe { wgpu::hal::vulkan::Buffer::from_raw_managed(buffer, memory, 0, size) };
    unsafe {
        device.create_buffer_from_hal::<Vulkan>(
            hal,
            &wgpu::BufferDescriptor {
                label: Some("probe raw"),
                size,
                usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            },
        )
    }
}

/// Import `len` bytes at `ptr` (aligned) as device memory; None if the driver refuses.
unsafe fn import(raw: &Raw, ptr: *mut u8, len: u64) -> Option<vk::DeviceMemory> {
    let ext = raw.host_ext.as_ref()?;
    let mut props = vk::MemoryHostPointerPropertiesEXT::default();
    unsafe {
        (ext.fp().get_memory_host_pointer_properties_ext)(
            ext.device(),
            vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT,
            ptr.cast(),
            &mut props,
        )
    }
    .result()
    .ok()?;
    let mem = unsafe { raw.instance.get_physical_device_memory_properties(raw.phd) };
    let ty = (0..mem.memory_type_count).find(|&i| props.memory_type_bits & (1 << i) != 0)?;
    let mut imp = vk::ImportMemoryHostPointerInfoEXT::default()
        .handle_type(vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT)
        .host_pointer(ptr.cast());
    let info = vk::MemoryAllocateInfo::default()
        .allocation_size(len)
        .memory_type_index(ty)
        .push_next(&mut imp);
    unsafe { raw.device.allocate_memory(&info, None) }.ok()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sizes: Vec<usize> = args::get(FLAGS, "--mib")
        .split(',')
        .map(|s| s.trim().parse::<usize>().unwrap() << 20)
        .collect();
    let reps: usize = args::get(FLAGS, "--reps").parse()?;
    let threads: usize = args::get(FLAGS, "--threads").parse()?;
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle_from_env()
    });
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        ..Default::default()
    }))?;
    println!("adapter: {:?}", adapter.get_info().name);
    let host_name = ash::ext::external_memory_host::NAME;
    // SAFETY: the hal adapter is used only while `adapter` lives.
    let (open, has_host) = unsafe {
        let hal = adapter.as_hal::<Vulkan>().ok_or("not Vulkan")?;
        let has = hal
            .physical_device_capabilities()
            .supports_extension(host_name);
        let cb: Box<wgpu::hal::vulkan::CreateDeviceCallback<'_>> = Box::new(move |args| {
            if has {
                args.extensions.push(host_name);
            }
        });
        let open = hal.open_with_callback(
            adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
            &adapter.limits(),
            &wgpu::MemoryHints::Performance,
            Some(cb),
        )?;
        (open, has)
    };
    // SAFETY: `open` came from this adapter.
    let (device, queue) = unsafe {
        adapter.create_device_from_hal(
            open,
            &wgpu::DeviceDescriptor {
                required_features: adapter.features() & wgpu::Features::TIMESTAMP_QUERY,
                required_limits: adapter.limits(),
                ..Default::default()
            },
        )?
    };
    // SAFETY: the raw handles are used only while `device` lives.
    let raw = unsafe {
        let hal = device.as_hal::<Vulkan>().unwrap();
        let instance = hal.shared_instance().raw_instance().clone();
        let dev = hal.raw_device().clone();
        let phd = hal.raw_physical_device();
        let host_ext =
            has_host.then(|| ash::ext::external_memory_host::Device::new(&instance, &dev));
        let mut hp = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
        let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut hp);
        instance.get_physical_device_properties2(phd, &mut p2);
        let import_align = hp.min_imported_host_pointer_alignment;
        Raw {
            instance,
            phd,
            device: dev,
            host_ext,
            import_align,
        }
    };
    println!(
        "VK_EXT_external_memory_host: {has_host}, minImportedHostPointerAlignment {}",
        raw.import_align
    );
    let mem = unsafe { raw.instance.get_physical_device_memory_properties(raw.phd) };
    for i in 0..mem.memory_type_count as usize {
        let t = mem.memory_types[i];
        println!(
            "memory type {i}: heap {} ({} MiB) {:?}",
            t.heap_index,
            mem.memory_heaps[t.heap_index as usize].size >> 20,
            t.property_flags
        );
    }
    // Host-visible memory that is not device-local: cached first, then write-combined.
    let sys_types: Vec<u32> = [true, false]
        .into_iter()
        .filter_map(|cached| {
            (0..mem.memory_type_count).find(|&i| {
                let f = mem.memory_types[i as usize].property_flags;
                f.contains(
                    vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
                ) && f.contains(vk::MemoryPropertyFlags::HOST_CACHED) == cached
                    && !f.contains(vk::MemoryPropertyFlags::DEVICE_LOCAL)
            })
        })
        .collect();
    println!("system memory types (cached, then not): {sys_types:?}");

    for &len in &sizes {
        let l = len as u64;
        let src = HostMem::new(len, true);
        let sink = HostMem::new(len, true);
        let gpu = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: l,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mib = len >> 20;
        // Host memcpy, host to host.
        let t: Vec<f64> = (0..reps + 1)
            .map(|_| {
                let t = Instant::now();
                par_copy(sink.ptr, src.ptr, len, threads);
                t.elapsed().as_secs_f64()
            })
            .skip(1)
            .collect();
        println!(
            "# {mib} MiB host memcpy ({threads} threads): {:.1} GB/s",
            gbs(len, median(t))
        );

        // bar: wgpu's MAP_WRITE staging.
        let up = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: l,
            usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let (mut tc, mut tg) = (Vec::new(), Vec::new());
        for _ in 0..reps + 1 {
            up.map_async(wgpu::MapMode::Write, .., |_| {});
            device
                .poll(wgpu::PollType::Wait {
                    submission_index: None,
                    timeout: None,
                })
                .unwrap();
            {
                let mut v = up.get_mapped_range_mut(..).unwrap();
                let mut w = v.slice(..);
                let p = w.as_raw_ptr().cast::<u8>().as_ptr();
                let t = Instant::now();
                par_copy(p, src.ptr, len, threads);
                tc.push(t.elapsed().as_secs_f64());
            }
            up.unmap();
            let t = Instant::now();
            submit_copy(&device, &queue, &up, &gpu, l);
            tg.push(t.elapsed().as_secs_f64());
        }
        println!(
            "# {mib} MiB bar upload: memcpy into MAP_WRITE {:.1} GB/s, device copy to storage {:.1} GB/s",
            gbs(len, median(tc[1..].to_vec())),
            gbs(len, median(tg[1..].to_vec()))
        );
        let down = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: l,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let (mut tc, mut tg, mut tf) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..reps + 1 {
            let t = Instant::now();
            submit_copy(&device, &queue, &gpu, &down, l);
            tg.push(t.elapsed().as_secs_f64());
            down.map_async(wgpu::MapMode::Read, .., |_| {});
            device
                .poll(wgpu::PollType::Wait {
                    submission_index: None,
                    timeout: None,
                })
                .unwrap();
            {
                let v = down.get_mapped_range(..).unwrap();
                let t = Instant::now();
                par_copy(sink.ptr, v.as_ptr(), len, threads);
                tc.push(t.elapsed().as_secs_f64());
                let fresh = HostMem::new(len, false);
                let t = Instant::now();
                par_copy(fresh.ptr, v.as_ptr(), len, threads);
                tf.push(t.elapsed().as_secs_f64());
            }
            down.unmap();
        }
        println!(
            "# {mib} MiB bar read-back: device copy to MAP_READ {:.1} GB/s, memcpy out {:.1} GB/s (touched), {:.1} GB/s (fresh)",
            gbs(len, median(tg[1..].to_vec())),
            gbs(len, median(tc[1..].to_vec())),
            gbs(len, median(tf[1..].to_vec()))
        );

        // sys: host-cached system memory through raw Vulkan.
        for &ty in &sys_types {
            let info = vk::MemoryAllocateInfo::default()
                .allocation_size(l)
                .memory_type_index(ty);
            let t = Instant::now();
            let memory = unsafe { raw.device.allocate_memory(&info, None) }?;
            let alloc_s = t.elapsed().as_secs_f64();
            let p = unsafe {
                raw.device
                    .map_memory(memory, 0, l, vk::MemoryMapFlags::empty())
            }?
            .cast::<u8>();
            let buf = unsafe { wrap(&device, &raw, memory, l, false) };
            let (mut tc, mut tg, mut td, mut to, mut tf) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for _ in 0..reps + 1 {
                let t = Instant::now();
                par_copy(p, src.ptr, len, threads);
                tc.push(t.elapsed().as_secs_f64());
                let t = Instant::now();
                submit_copy(&device, &queue, &buf, &gpu, l);
                tg.push(t.elapsed().as_secs_f64());
                let t = Instant::now();
                submit_copy(&device, &queue, &gpu, &buf, l);
                td.push(t.elapsed().as_secs_f64());
                let t = Instant::now();
                par_copy(sink.ptr, p, len, threads);
                to.push(t.elapsed().as_secs_f64());
                let fresh = HostMem::new(len, false);
                let t = Instant::now();
                par_copy(fresh.ptr, p, len, threads);
                tf.push(t.elapsed().as_secs_f64());
            }
            println!(
                "# {mib} MiB sys staging (type {ty}, allocated in {:.2} ms): memcpy in {:.1} GB/s, device copy in {:.1} GB/s, device copy out {:.1} GB/s, memcpy out {:.1} GB/s (touched), {:.1} GB/s (fresh)",
                alloc_s * 1e3,
                gbs(len, median(tc[1..].to_vec())),
                gbs(len, median(tg[1..].to_vec())),
                gbs(len, median(td[1..].to_vec())),
                gbs(len, median(to[1..].to_vec())),
                gbs(len, median(tf[1..].to_vec()))
            );
            drop(buf);
        }

        // import: the caller's memory, pinned per call.
        if raw.host_ext.is_some() {
            for (what, touched) in [("touched", true), ("fresh", false)] {
                let (mut ti, mut tg, mut td, mut tt) =
                    (Vec::new(), Vec::new(), Vec::new(), Vec::new());
                let mut failed = false;
                for _ in 0..reps + 1 {
                    let host = HostMem::new(len, touched);
                    let t0 = Instant::now();
                    let Some(memory) = (unsafe { import(&raw, host.ptr, l) }) else {
                        failed = true;
                        break;
                    };
                    let buf = unsafe { wrap(&device, &raw, memory, l, true) };
                    let t1 = Instant::now();
                    submit_copy(&device, &queue, &buf, &gpu, l);
                    let t2 = Instant::now();
                    submit_copy(&device, &queue, &gpu, &buf, l);
                    let t3 = Instant::now();
                    drop(buf);
                    device
                        .poll(wgpu::PollType::Wait {
                            submission_index: None,
                            timeout: None,
                        })
                        .unwrap();
                    let t4 = Instant::now();
                    ti.push((t1 - t0).as_secs_f64());
                    tg.push((t2 - t1).as_secs_f64());
                    td.push((t3 - t2).as_secs_f64());
                    tt.push((t4 - t0).as_secs_f64());
                }
                if failed {
                    println!("# {mib} MiB import ({what}): refused by the driver");
                    continue;
                }
                println!(
                    "# {mib} MiB import ({what} pages): import {:.2} ms, device copy in {:.1} GB/s, device copy out {:.1} GB/s; import + in + out + free {:.2} ms",
                    median(ti[1..].to_vec()) * 1e3,
                    gbs(len, median(tg[1..].to_vec())),
                    gbs(len, median(td[1..].to_vec())),
                    median(tt[1..].to_vec()) * 1e3
                );
            }
        }
    }
    Ok(())
}
