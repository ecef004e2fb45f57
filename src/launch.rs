//! The one launch path: every routine builds [`Dispatch`]es and hands them to
//! [`Context::execute`], which creates the bind groups and the params uniform, records the
//! dispatches, and submits them together with the read-back copies in one command buffer.
//!
//! Calls whose results stay on the device (resident outputs, no read-back) are not submitted at
//! once: their commands are held back in the context and submitted with the next call that
//! reads something back, with [`Context::flush`], or when [`MAX_PENDING`] commands are held. A
//! chain of resident calls therefore costs one submission and no host round trip. Host data
//! reaches the device through `Queue::write_buffer` into pooled buffers (`pool.rs`); the held
//! commands are submitted before any such write, so the queue order stays the program order.
//!
//! Binding convention of every shader in `wgsl/`: `@group(0) @binding(0)` is the params uniform,
//! `@binding(1)`, `@binding(2)`, ... are the storage buffers in the order of [`Dispatch::buffers`].

use std::sync::atomic::Ordering;
use std::sync::Arc;

use wgpu::util::DeviceExt;

use crate::context::{Context, Elem, Shader};
use crate::error::{Error, Result};
use crate::pool::{self, Buf};

/// Commands held back before a submission is forced.
pub(crate) const MAX_PENDING: usize = 1024;

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
    /// Params fields filled on the device from a buffer (a [`GpuScalar`](crate::GpuScalar) used
    /// as alpha or beta): (byte offset in params, source buffer, byte offset in it), 4 bytes each.
    pub patches: Vec<(u64, &'a wgpu::Buffer, u64)>,
}

/// A recorded command, held until its submission.
pub(crate) enum Command {
    Dispatch {
        pipeline: Arc<wgpu::ComputePipeline>,
        bind_group: wgpu::BindGroup,
        groups: [u32; 3],
    },
    Copy {
        src: wgpu::Buffer,
        src_offset: u64,
        dst: wgpu::Buffer,
        dst_offset: u64,
        size: u64,
    },
    Clear {
        buffer: wgpu::Buffer,
    },
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
            patches: Vec::new(),
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

    /// Fill the 4-byte params field at byte `field` from `src` at byte `src_offset`, on the
    /// device, just before the dispatch runs.
    pub fn patch(mut self, field: usize, src: &'a wgpu::Buffer, src_offset: u64) -> Self {
        self.patches.push((field as u64, src, src_offset));
        self
    }
}

/// Storage buffers are never created smaller than this, so that empty operands still bind.
const MIN_BUFFER: u64 = 16;

impl Context {
    /// A storage buffer holding `data` (from the pool; held commands are submitted first).
    pub(crate) fn upload<T: bytemuck::Pod>(&self, data: &[T]) -> Buf {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        let buf = pool::take(
            &self.pool,
            &self.device,
            (bytes.len() as u64).max(MIN_BUFFER),
            self.limits().max_storage_buffer_binding_size,
        );
        if !bytes.is_empty() {
            // The held commands are submitted and the write staged under the pending lock, so
            // that no other thread's submission (holding commands it took earlier) can land
            // between them and find this buffer already overwritten.
            let mut pending = self.pending.lock().expect("pending commands poisoned");
            self.submit_held(&mut pending);
            if bytes.len().is_multiple_of(4) {
                self.queue.write_buffer(&buf, 0, bytes);
            } else {
                let mut padded = bytes.to_vec();
                padded.resize(bytes.len().div_ceil(4) * 4, 0);
                self.queue.write_buffer(&buf, 0, &padded);
            }
        }
        buf
    }

    /// A zero-filled storage buffer of at least `bytes` bytes (from the pool, cleared on the
    /// device before any later command runs).
    pub(crate) fn zeroed(&self, bytes: u64) -> Buf {
        let buf = pool::take(
            &self.pool,
            &self.device,
            bytes.max(MIN_BUFFER),
            self.limits().max_storage_buffer_binding_size,
        );
        self.hold(vec![Command::Clear {
            buffer: (*buf).clone(),
        }]);
        buf
    }

    /// Hold `commands` back for the next submission.
    pub(crate) fn hold(&self, commands: Vec<Command>) {
        let full = {
            let mut pending = self.pending.lock().expect("pending commands poisoned");
            pending.extend(commands);
            pending.len() >= MAX_PENDING
        };
        if full {
            self.flush_pending();
        }
    }

    /// Submit the held commands, if any.
    ///
    /// The lock on the held commands is kept until they are submitted, here, in `upload` and in
    /// [`Context::execute_then`]: a pooled buffer that held commands read may go back to the
    /// pool before they are submitted, and another thread's `upload` into it (a
    /// `Queue::write_buffer`, which runs before the *next* submission of any thread) must wait
    /// until they are.
    pub(crate) fn flush_pending(&self) {
        let mut pending = self.pending.lock().expect("pending commands poisoned");
        self.submit_held(&mut pending);
    }

    /// Submit the held commands, if any, with the pending lock held by the caller (taking the
    /// commands and submitting them is one step for other threads: nothing they submit or
    /// write can come in between).
    fn submit_held(&self, pending: &mut Vec<Command>) {
        let commands = std::mem::take(pending);
        if commands.is_empty() {
            return;
        }
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("wgblas held"),
            });
        encode(&mut encoder, commands, None);
        self.queue.submit(Some(encoder.finish()));
        self.counters.submissions.fetch_add(1, Ordering::Relaxed);
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

    /// Record `dispatches`, then `after` (copies into resident outputs); if `reads` is empty
    /// (and GPU timing is off) hold them back for a later submission, else submit everything
    /// held with them, copy each buffer of `reads` (its first `len` elements of `R`) to a
    /// mappable buffer, and return the read values.
    pub(crate) fn execute<R: bytemuck::Pod>(
        &self,
        routine: &'static str,
        dispatches: &[Dispatch<'_>],
        reads: &[(&wgpu::Buffer, usize)],
    ) -> Result<Vec<Vec<R>>> {
        self.execute_then(routine, dispatches, Vec::new(), reads)
    }

    /// [`Context::execute`] with commands recorded after the dispatches.
    pub(crate) fn execute_then<R: bytemuck::Pod>(
        &self,
        routine: &'static str,
        dispatches: &[Dispatch<'_>],
        after: Vec<Command>,
        reads: &[(&wgpu::Buffer, usize)],
    ) -> Result<Vec<Vec<R>>> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let mut commands = Vec::with_capacity(dispatches.len() + after.len());
        for d in dispatches {
            let pipeline = self.pipeline(routine, d.shader, d.entry, d.elem, &d.constants)?;
            let mut params = d.params.clone();
            params.resize(params.len().max(16).div_ceil(16) * 16, 0);
            let uniform = self
                .device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("wgblas params"),
                    contents: &params,
                    usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                });
            for &(field, src, src_offset) in &d.patches {
                commands.push(Command::Copy {
                    src: src.clone(),
                    src_offset,
                    dst: uniform.clone(),
                    dst_offset: field,
                    size: 4,
                });
            }
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
            commands.push(Command::Dispatch {
                pipeline,
                bind_group,
                groups: d.groups,
            });
        }
        commands.extend(after);
        self.counters
            .dispatches
            .fetch_add(dispatches.len() as u64, Ordering::Relaxed);
        let profiling = self.profiling();
        if reads.is_empty() && !profiling {
            self.hold(commands);
            return self.pop_scopes(routine, scope, oom).map(|()| Vec::new());
        }
        // The pending lock is held until the submission below: commands taken from another
        // thread's calls reach the queue before anything a later caller submits or writes.
        let mut pending = self.pending.lock().expect("pending commands poisoned");
        let mut all = std::mem::take(&mut *pending);
        all.extend(commands);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some(routine),
            });
        let timer = profiling.then(|| {
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
        encode(&mut encoder, all, timer.as_ref().map(|(set, _, _)| set));
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
        drop(pending);
        self.counters.submissions.fetch_add(1, Ordering::Relaxed);
        self.pop_scopes(routine, scope, oom)?;
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

    fn pop_scopes(
        &self,
        routine: &'static str,
        scope: wgpu::ErrorScopeGuard,
        oom: wgpu::ErrorScopeGuard,
    ) -> Result<()> {
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
        Ok(())
    }
}

/// Encode `commands` in order: consecutive dispatches share one compute pass; copies and
/// clears go between passes. With `timer`, timestamps 0 and 1 mark the start of the first pass
/// and the end of the last.
fn encode(
    encoder: &mut wgpu::CommandEncoder,
    commands: Vec<Command>,
    timer: Option<&wgpu::QuerySet>,
) {
    let passes = {
        let mut count = 0;
        let mut in_pass = false;
        for c in &commands {
            let d = matches!(c, Command::Dispatch { .. });
            if d && !in_pass {
                count += 1;
            }
            in_pass = d;
        }
        count
    };
    let mut pass_index = 0;
    let mut iter = commands.into_iter().peekable();
    while let Some(c) = iter.next() {
        match c {
            Command::Copy {
                src,
                src_offset,
                dst,
                dst_offset,
                size,
            } => {
                encoder.copy_buffer_to_buffer(&src, src_offset, &dst, dst_offset, size);
            }
            Command::Clear { buffer } => encoder.clear_buffer(&buffer, 0, None),
            Command::Dispatch {
                pipeline,
                bind_group,
                groups,
            } => {
                let first = pass_index == 0;
                let last = pass_index + 1 == passes;
                pass_index += 1;
                let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("wgblas"),
                    timestamp_writes: timer.filter(|_| first || last).map(|set| {
                        wgpu::ComputePassTimestampWrites {
                            query_set: set,
                            beginning_of_pass_write_index: first.then_some(0),
                            end_of_pass_write_index: last.then_some(1),
                        }
                    }),
                });
                pass.set_pipeline(&pipeline);
                pass.set_bind_group(0, &bind_group, &[]);
                pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
                while let Some(Command::Dispatch { .. }) = iter.peek() {
                    if let Some(Command::Dispatch {
                        pipeline,
                        bind_group,
                        groups,
                    }) = iter.next()
                    {
                        pass.set_pipeline(&pipeline);
                        pass.set_bind_group(0, &bind_group, &[]);
                        pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
                    }
                }
            }
        }
    }
}
