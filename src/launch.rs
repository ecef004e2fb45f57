//! The one launch path: every routine builds [`Dispatch`]es and hands them to
//! [`Context::execute`], which creates the bind groups and the params uniform, encodes all the
//! dispatches and the read-back copies into one command buffer, submits it once and maps the
//! results.
//!
//! Binding convention of every shader in `wgsl/`: `@group(0) @binding(0)` is the params uniform,
//! `@binding(1)`, `@binding(2)`, ... are the storage buffers in the order of [`Dispatch::buffers`].

use std::sync::atomic::Ordering;

use wgpu::util::DeviceExt;

use crate::context::{Context, Elem, Shader};
use crate::error::{Error, Result};

/// One compute dispatch of one pipeline.
pub(crate) struct Dispatch<'a> {
    pub shader: &'static Shader,
    pub entry: &'static str,
    pub elem: Elem,
    /// WGSL `override` constants (flag variants).
    pub constants: Vec<(&'static str, f64)>,
    /// The params uniform's bytes (a `#[repr(C)]` `Pod` struct), padded here to 16 bytes.
    pub params: Vec<u8>,
    /// Storage buffers with their binding numbers (`1..`).
    pub buffers: Vec<(u32, &'a wgpu::Buffer)>,
    /// Workgroup counts; see [`Context::grid`].
    pub groups: [u32; 3],
}

impl<'a> Dispatch<'a> {
    pub fn new<P: bytemuck::Pod>(
        shader: &'static Shader,
        entry: &'static str,
        params: &P,
        buffers: &[&'a wgpu::Buffer],
        groups: [u32; 3],
    ) -> Self {
        Dispatch {
            shader,
            entry,
            elem: Elem::F32,
            constants: Vec::new(),
            params: bytemuck::bytes_of(params).to_vec(),
            buffers: buffers
                .iter()
                .enumerate()
                .map(|(i, b)| (i as u32 + 1, *b))
                .collect(),
            groups,
        }
    }

    /// Bind `buffers` at explicit binding numbers instead of `1, 2, ...` (for entry points
    /// that use only some of a shader's bindings).
    pub fn bindings(mut self, buffers: &[(u32, &'a wgpu::Buffer)]) -> Self {
        self.buffers = buffers.to_vec();
        self
    }

    pub fn constants(mut self, constants: &[(&'static str, f64)]) -> Self {
        self.constants = constants.to_vec();
        self
    }

    /// Instantiate the shader for `elem` (`alias T = f64;` for [`Elem::F64`]) instead of f32.
    pub fn elem(mut self, elem: Elem) -> Self {
        self.elem = elem;
        self
    }
}

/// Storage buffers are never created smaller than this, so that empty operands still bind.
const MIN_BUFFER: u64 = 16;

impl Context {
    /// A storage buffer holding `data`.
    pub(crate) fn upload<T: bytemuck::Pod>(&self, data: &[T]) -> wgpu::Buffer {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        let usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST;
        if (bytes.len() as u64) < MIN_BUFFER || !bytes.len().is_multiple_of(4) {
            let mut padded = bytes.to_vec();
            padded.resize(bytes.len().max(MIN_BUFFER as usize).div_ceil(4) * 4, 0);
            return self
                .device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("wgblas operand"),
                    contents: &padded,
                    usage,
                });
        }
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("wgblas operand"),
                contents: bytes,
                usage,
            })
    }

    /// A zero-filled storage buffer of `bytes` bytes (at least 16).
    pub(crate) fn zeroed(&self, bytes: u64) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgblas scratch"),
            size: bytes.max(MIN_BUFFER).div_ceil(4) * 4,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Workgroup counts for `groups` workgroups along one logical axis, split over x and y so
    /// that no dimension passes `max_compute_workgroups_per_dimension`. Shaders recover the
    /// linear workgroup index with `linear_group(wid, nwg)` from `wgsl/common.wgsl`.
    pub(crate) fn grid(&self, groups: u64) -> [u32; 3] {
        let max = self.limits().max_compute_workgroups_per_dimension.max(1) as u64;
        let groups = groups.max(1);
        if groups <= max {
            [groups as u32, 1, 1]
        } else {
            let y = groups.div_ceil(max);
            let x = groups.div_ceil(y);
            [x as u32, y as u32, 1]
        }
    }

    /// Encode `dispatches` in order into one compute pass, copy each buffer of `reads` (its
    /// first `len` elements of `R`) to a mappable buffer, submit once, and return the read
    /// values. With no `reads`, the submission is not waited for.
    pub(crate) fn execute<R: bytemuck::Pod>(
        &self,
        routine: &'static str,
        dispatches: &[Dispatch<'_>],
        reads: &[(&wgpu::Buffer, usize)],
    ) -> Result<Vec<Vec<R>>> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some(routine),
            });
        let mut prepared = Vec::with_capacity(dispatches.len());
        for d in dispatches {
            let pipeline = self.pipeline(routine, d.shader, d.entry, d.elem, &d.constants)?;
            let mut params = d.params.clone();
            params.resize(params.len().max(16).div_ceil(16) * 16, 0);
            let uniform = self
                .device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("wgblas params"),
                    contents: &params,
                    usage: wgpu::BufferUsages::UNIFORM,
                });
            let mut entries = vec![wgpu::BindGroupEntry {
                binding: 0,
                resource: uniform.as_entire_binding(),
            }];
            for &(binding, b) in &d.buffers {
                entries.push(wgpu::BindGroupEntry {
                    binding,
                    resource: b.as_entire_binding(),
                });
            }
            let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(d.entry),
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            });
            prepared.push((pipeline, bind_group, d.groups));
        }
        let timer = self.profiling().then(|| {
            let set = self.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("wgblas timer"),
                ty: wgpu::QueryType::Timestamp,
                count: 2,
            });
            let resolve = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("wgblas timer resolve"),
                size: 16,
                usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            });
            let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("wgblas timer read-back"),
                size: 16,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            (set, resolve, staging)
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(routine),
                timestamp_writes: timer.as_ref().map(|(set, _, _)| {
                    wgpu::ComputePassTimestampWrites {
                        query_set: set,
                        beginning_of_pass_write_index: Some(0),
                        end_of_pass_write_index: Some(1),
                    }
                }),
            });
            for (pipeline, bind_group, groups) in &prepared {
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, bind_group, &[]);
                pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
            }
        }
        let mut staging = Vec::with_capacity(reads.len());
        for &(buffer, len) in reads {
            let bytes = ((len * std::mem::size_of::<R>()) as u64).max(4).div_ceil(4) * 4;
            let bytes = bytes.min(buffer.size());
            let s = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("wgblas read-back"),
                size: bytes,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            encoder.copy_buffer_to_buffer(buffer, 0, &s, 0, bytes);
            staging.push((s, len));
        }
        if let Some((set, resolve, staging)) = &timer {
            encoder.resolve_query_set(set, 0..2, resolve, 0);
            encoder.copy_buffer_to_buffer(resolve, 0, staging, 0, 16);
        }
        self.queue.submit(Some(encoder.finish()));
        self.counters.submissions.fetch_add(1, Ordering::Relaxed);
        self.counters
            .dispatches
            .fetch_add(dispatches.len() as u64, Ordering::Relaxed);
        if let Some(e) = pollster::block_on(oom.pop()) {
            drop(pollster::block_on(scope.pop()));
            return Err(Error::Gpu {
                routine,
                detail: e.to_string(),
            });
        }
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(Error::Gpu {
                routine,
                detail: e.to_string(),
            });
        }
        if staging.is_empty() && timer.is_none() {
            return Ok(Vec::new());
        }
        for (s, _) in &staging {
            s.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        }
        if let Some((_, _, t)) = &timer {
            t.slice(..).map_async(wgpu::MapMode::Read, |_| {});
        }
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| Error::Gpu {
                routine,
                detail: e.to_string(),
            })?;
        if let Some((_, _, t)) = &timer {
            let view = t.slice(..).get_mapped_range().map_err(|e| Error::Gpu {
                routine,
                detail: e.to_string(),
            })?;
            let stamps: [u64; 2] = bytemuck::pod_read_unaligned(&view[..16]);
            let ticks = stamps[1].saturating_sub(stamps[0]);
            drop(view);
            t.unmap();
            self.record_gpu_time((ticks as f64 * self.queue.get_timestamp_period() as f64) as u64);
        }
        if staging.is_empty() {
            return Ok(Vec::new());
        }
        self.counters.readbacks.fetch_add(1, Ordering::Relaxed);
        let mut out = Vec::with_capacity(staging.len());
        for (s, len) in staging {
            let view = s.slice(..).get_mapped_range().map_err(|e| Error::Gpu {
                routine,
                detail: e.to_string(),
            })?;
            let mut v: Vec<R> = vec![R::zeroed(); len];
            let n = (len * std::mem::size_of::<R>()).min(view.len());
            bytemuck::cast_slice_mut::<R, u8>(&mut v)[..n].copy_from_slice(&view[..n]);
            drop(view);
            s.unmap();
            out.push(v);
        }
        Ok(out)
    }
}
