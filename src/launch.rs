//! The one launch path: every routine builds [`Dispatch`]es and hands them to
//! [`Context::execute`], which creates the bind groups and the params uniform, records the
//! dispatches, and submits them together with the read-back copies in one command buffer.
//!
//! Calls whose results stay on the device (resident outputs, no read-back) are not submitted at
//! once: their commands are held back in the context and submitted with the next call that
//! reads something back, with [`Context::flush`], or when [`Context::pending_limit`] commands
//! are held (32 by default, so that the device runs a long chain while the host records the
//! rest). A chain of resident calls therefore costs no host round trip. Host data
//! reaches the device through pooled, persistently mapped staging buffers (`pool.rs`): an
//! upload fills one and holds a copy command like any other, so the queue order stays the
//! program order. Read-back copies into pooled `MAP_READ` buffers and hands each chunk of mapped
//! memory to a sink that writes it straight into the caller's array (`layout.rs`).
//!
//! Errors: every wgpu call that can fail runs inside error scopes (validation and out of
//! memory) or, where no `Result` can be returned at once (a buffer created for a held command),
//! its error is caught by the context's uncaptured-error handler and returned by the next call
//! that can return it. No wgpu error reaches a panic.
//!
//! Binding convention of every shader in `wgsl/`: `@group(0) @binding(0)` is the params uniform,
//! `@binding(1)`, `@binding(2)`, ... are the storage buffers in the order of [`Dispatch::buffers`].

use std::sync::atomic::Ordering;

use crate::context::{Context, Elem, Phase, Shader};
use crate::error::{Error, Result};
use crate::pool::{self, lock, Buf};

mod bindings;
pub(crate) mod command;
mod encode;
mod execute;
mod mapwait;
pub(crate) use command::{Command, Held};
pub(crate) use execute::Submitted;

/// Commands held back for [`Context::time_batch`] before a submission is forced (which then
/// fails the batch): a batch is one submission, so that its timestamps span all of it.
const BATCH_PENDING: usize = 1 << 16;

impl Context {
    /// Commands held back before a submission is forced: [`crate::lab::max_pending`] (32 by
    /// default), or [`BATCH_PENDING`] while [`Context::time_batch`] holds calls.
    pub(crate) fn pending_limit(&self) -> usize {
        let limit = crate::lab::max_pending() as usize;
        if self.batching() {
            BATCH_PENDING.max(limit)
        } else {
            limit
        }
    }
}

/// Bytes of one page of params uniforms ([`Held`]): 256 slots at NVIDIA's 256-byte uniform
/// offset alignment, within every device's `max_uniform_buffer_binding_size`.
const PAGE: u64 = 64 << 10;

/// One compute dispatch of one pipeline.
#[derive(Clone)]
pub(crate) struct Dispatch<'a> {
    pub shader: &'static Shader,
    pub entry: &'static str,
    pub elem: Elem,
    /// WGSL `override` constants (flag variants).
    pub constants: Vec<(&'static str, f64)>,
    /// The params uniform's bytes (a `#[repr(C)]` `Pod` struct), padded here to 16 bytes.
    pub params: Vec<u8>,
    /// Storage buffers (or windows of them, [`Buf::window`]) with their binding numbers
    /// (`1..`).
    pub buffers: Vec<(u32, &'a Buf)>,
    /// Workgroup counts; see [`Context::grid`].
    pub groups: [u32; 3],
    /// Params fields filled on the device from a buffer (a [`GpuScalar`](crate::GpuScalar) used
    /// as alpha or beta): (byte offset in params, source buffer, byte offset in it), 4 bytes each.
    pub patches: Vec<(u64, &'a wgpu::Buffer, u64)>,
}

/// One read-back: the first `bytes` bytes of `buffer`, handed to `sink` piece by piece as
/// `(byte offset, bytes)` (pieces are disjoint, 16-byte aligned, and may be handed over from
/// several threads at once). When every read of a call is at most [`pool::CHUNK`] bytes, they
/// are handed over only after all are mapped, so a failure leaves the caller's arrays
/// untouched. A larger read is pipelined: chunk by chunk as the device copies them, the host
/// copying one out while the device copies the next; a device lost in its middle leaves the
/// chunks before written.
pub(crate) struct Read<'r> {
    pub buffer: &'r wgpu::Buffer,
    pub bytes: u64,
    pub sink: &'r (dyn Fn(u64, &[u8]) + Sync),
    /// Byte offset added to every piece's offset before it reaches `sink`: the start of this
    /// buffer in its operand, for a segment of a segmented [`Buf`] (0 otherwise).
    pub at: u64,
}

impl<'r> Read<'r> {
    /// The reads of the first `bytes` bytes of an operand held in `pieces` (`(byte start,
    /// buffer, bytes)`: [`Buf::segments`] or [`pool::Segmented::pieces`]), all handed to
    /// `sink` at their offsets in the operand: one per piece.
    pub fn of(
        pieces: &[(u64, &'r wgpu::Buffer, u64)],
        bytes: u64,
        sink: &'r (dyn Fn(u64, &[u8]) + Sync),
    ) -> Vec<Read<'r>> {
        pieces
            .iter()
            .copied()
            .filter(|&(start, _, _)| start < bytes)
            .map(|(start, b, len)| Read {
                buffer: b,
                bytes: len.min(bytes - start),
                sink,
                at: start,
            })
            .collect()
    }
}

/// How a read-back waits for its submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wait {
    /// Poll on the calling thread (spinning first on a GPU), then block in `Device::poll`.
    Block,
    /// Await a future woken once every map callback has run; a helper thread drives
    /// `Device::poll` (on native wgpu nothing else runs the callbacks), so the caller's
    /// thread (an async executor's worker) never blocks.
    Async,
}

/// A boxed read-back sink (see [`Read`]).
pub(crate) type SinkFn<'a> = Box<dyn Fn(u64, &[u8]) + Send + Sync + 'a>;

impl<'a> Dispatch<'a> {
    pub fn new<P: bytemuck::Pod>(
        shader: &'static Shader,
        entry: &'static str,
        params: &P,
        buffers: &[&'a Buf],
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
    pub fn bindings(mut self, buffers: &[(u32, &'a Buf)]) -> Self {
        self.buffers = buffers.to_vec();
        self
    }

    pub fn constants(mut self, constants: &[(&'static str, f64)]) -> Self {
        self.constants = constants.to_vec();
        self
    }

    /// Set the override constant `name` to `value` (replacing a value set before).
    pub fn constant(mut self, name: &'static str, value: f64) -> Self {
        self.constants.retain(|(n, _)| *n != name);
        self.constants.push((name, value));
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

/// The commands that zero every segment of `buf` (one for a plain buffer).
fn clear_all(buf: &Buf) -> Vec<Command> {
    buf.segments()
        .into_iter()
        .map(|(_, b, _)| Command::Clear {
            buffer: b.clone(),
            offset: 0,
            size: None,
        })
        .collect()
}

/// Storage buffers are never created smaller than this, so that empty operands still bind.
const MIN_BUFFER: u64 = 16;

impl Context {
    /// A storage buffer holding the elements of `src`, in its device order: each chunk of at
    /// most [`pool::CHUNK`] bytes is filled straight into mapped staging memory (by several
    /// threads for large chunks) and copied on the device. The copies are held back with the
    /// other commands; a transfer of several chunks submits each chunk as it is filled, so
    /// the device copies one chunk while the host fills the next.
    ///
    /// # Errors
    /// [`Error::Gpu`] when wgpu fails to create or map a buffer (out of memory, device lost).
    pub(crate) fn upload_source<T: bytemuck::Pod + Send + Sync>(
        &self,
        routine: &'static str,
        src: &crate::transfer::Source<'_, T>,
    ) -> Result<Buf> {
        let size = std::mem::size_of::<T>() as u64;
        let elems = src.len() as u64;
        let bytes = elems.checked_mul(size).ok_or(Error::TooLarge {
            routine,
            arg: "upload",
            bytes: u64::MAX,
            limit: self.limits().max_buffer_size,
        })?;
        self.take_device_error(routine)?;
        let mut clock = std::time::Instant::now();
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buf = match self.segmented(routine, bytes, src.line() as u64 * size) {
            Ok(b) => b,
            Err(e) => {
                drop(self.pop_scopes(routine, scope, oom));
                return Err(e);
            }
        };
        let chunk_elems = (pool::CHUNK / size).max(1);
        // Chunks within each segment (one segment: the whole buffer): (first element, end
        // element, the segment's buffer, the segment's first element).
        let mut pieces = Vec::new();
        for (start, segment, len) in buf.segments() {
            let first = start / size;
            let end = ((start + len) / size).min(elems);
            let mut lo = first;
            while lo < end {
                let hi = (lo + chunk_elems).min(end);
                pieces.push((lo, hi, segment, first));
                lo = hi;
            }
        }
        let chunks = pieces.len();
        let mut result = Ok(());
        for &(lo, hi, segment, first) in &pieces {
            let len = (hi - lo) * size;
            let padded = len.div_ceil(4) * 4;
            let staging = self.staging.take_write(&self.device, padded);
            let filled = match staging.get_mapped_range_mut(..padded) {
                Ok(mut view) => {
                    let mut w = view.slice(..);
                    let ptr = w.as_raw_ptr().cast::<u8>().as_ptr();
                    // SAFETY: `ptr` points at `padded` writable bytes of mapped memory that
                    // nothing else accesses while `view` lives; the staging buffer's mapping
                    // is aligned to `MAP_ALIGNMENT` (8), enough for `T` (f32, f64, u32).
                    unsafe { src.fill(lo as usize, hi as usize, ptr.cast::<T>()) };
                    if padded > len {
                        // SAFETY: the tail bytes lie inside the same mapped range.
                        unsafe {
                            std::ptr::write_bytes(ptr.add(len as usize), 0, (padded - len) as usize)
                        };
                    }
                    Ok(())
                }
                Err(e) => Err(Error::Gpu {
                    routine,
                    detail: format!("mapping an upload staging buffer: {e}"),
                }),
            };
            if let Err(e) = filled {
                result = Err(e);
                break;
            }
            staging.unmap();
            let cmd = Command::Upload {
                staging,
                dst: segment.clone(),
                dst_offset: (lo - first) * size,
                size: padded,
            };
            if chunks > 1 {
                let mut pending = lock(&self.pending);
                pending.commands.push(cmd);
                self.submit_held(&mut pending);
            } else {
                self.hold(vec![cmd]);
            }
        }
        let scopes = self.pop_scopes(routine, scope, oom);
        self.counters.lap(Phase::Upload, &mut clock);
        result.and(scopes).and(self.take_device_error(routine))?;
        self.counters.uploads.fetch_add(1, Ordering::Relaxed);
        Ok(buf)
    }

    /// A slot for the params `bytes` of one dispatch in the open page of `held` (opening a new
    /// page when it is full): the page's uniform buffer, the slot's byte offset (aligned to the
    /// device's uniform offset alignment) and its length (the params padded to 16 bytes). The
    /// caller holds the pending lock from here until the dispatch is among the held commands
    /// or submitted, so the page it binds is written in the submission that runs it.
    pub(super) fn reserve_params(&self, held: &mut Held, bytes: &[u8]) -> (wgpu::Buffer, u64, u64) {
        let align = u64::from(self.limits().min_uniform_buffer_offset_alignment).max(16);
        let len = (bytes.len() as u64).max(16).div_ceil(16) * 16;
        let fits = |(u, b): &(wgpu::Buffer, Vec<u8>)| {
            (b.len() as u64).div_ceil(align) * align + len <= u.size()
        };
        if !held.page.as_ref().is_some_and(fits) {
            held.seal();
            let size = PAGE.max(len);
            let uniform = self.staging.take_uniform(&self.device, size);
            held.page = Some((uniform, Vec::with_capacity(size as usize)));
        }
        let (uniform, page) = held.page.as_mut().expect("a page was just opened");
        let slot = (page.len() as u64).div_ceil(align) * align;
        page.resize(slot as usize, 0);
        page.extend_from_slice(bytes);
        page.resize((slot + len) as usize, 0);
        (uniform.clone(), slot, len)
    }

    /// A storage buffer of at least `bytes` bytes from the pool, contents unspecified, with a
    /// failed creation returned as an error (the pool's and the error scopes' unit tests; the
    /// routines' outputs use [`Context::alloc_lines`], segmented past one buffer).
    ///
    /// # Errors
    /// [`Error::Gpu`] when wgpu fails to create the buffer (out of memory).
    #[cfg(test)]
    pub(crate) fn alloc(&self, routine: &'static str, bytes: u64) -> Result<Buf> {
        self.take_device_error(routine)?;
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buf = self.scratch(bytes);
        self.pop_scopes(routine, scope, oom)?;
        Ok(buf)
    }

    /// An operand's storage of `bytes` bytes made of lines of `line` bytes (contents
    /// undefined): one pooled buffer up to [`Context::max_buffer`], past it several buffers of
    /// whole lines each (a segmented [`Buf`], issue 15), of equal size
    /// ([`pool::segment_size`]). A failed creation is reported as for [`Context::scratch`].
    ///
    /// # Errors
    /// [`Error::TooLarge`] when `bytes` passes one buffer and one line alone does too.
    pub(crate) fn segmented(&self, routine: &'static str, bytes: u64, line: u64) -> Result<Buf> {
        let max = self.max_buffer();
        if bytes <= max {
            return Ok(self.scratch(bytes));
        }
        let seg = pool::segment_size(max, line, bytes).ok_or(Error::TooLarge {
            routine,
            arg: "line",
            bytes: line,
            limit: max,
        })?;
        let parts = (0..bytes.div_ceil(seg))
            .map(|k| self.scratch((bytes - k * seg).min(seg)))
            .collect();
        Ok(Buf::segmented(parts, seg, bytes))
    }

    /// [`Context::alloc`] for an operand of lines of `line` bytes: segmented past
    /// [`Context::max_buffer`] ([`Context::segmented`]).
    ///
    /// # Errors
    /// As [`Context::alloc`] and [`Context::segmented`].
    pub(crate) fn alloc_lines(&self, routine: &'static str, bytes: u64, line: u64) -> Result<Buf> {
        self.take_device_error(routine)?;
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buf = self.segmented(routine, bytes, line);
        self.pop_scopes(routine, scope, oom)?;
        buf
    }

    /// A storage buffer of at least `bytes` from the pool, contents undefined (for scratch
    /// that the dispatches write before they read it).
    pub(crate) fn scratch(&self, bytes: u64) -> Buf {
        pool::take(
            &self.pool,
            &self.device,
            bytes.max(MIN_BUFFER),
            self.limits().max_storage_buffer_binding_size,
        )
    }

    /// A zero-filled storage buffer of at least `bytes` bytes (from the pool, cleared on the
    /// device before any later command runs).
    pub(crate) fn zeroed(&self, bytes: u64) -> Buf {
        // A failed creation is caught by the uncaptured-error handler and returned by the
        // next call that can return an error (the Clear below is then invalid too).
        let buf = self.scratch(bytes);
        self.hold(clear_all(&buf));
        buf
    }

    /// [`Context::zeroed`] for a contiguous vector operand (a routine's fresh output, bound
    /// in windows): past [`Context::max_buffer`] in segments ([`Context::segmented`]).
    pub(crate) fn zeroed_vector(&self, bytes: u64) -> Buf {
        let buf = self
            .segmented("zeroed", bytes, 4)
            .unwrap_or_else(|_| self.scratch(bytes));
        self.hold(clear_all(&buf));
        buf
    }

    /// A zero-filled operand of `bytes` bytes in lines of `line` bytes, segmented past
    /// [`Context::max_buffer`] (every segment cleared), with a failed creation returned as an
    /// error at once.
    ///
    /// # Errors
    /// As [`Context::alloc_lines`].
    pub(crate) fn zeroed_lines(&self, routine: &'static str, bytes: u64, line: u64) -> Result<Buf> {
        let buf = self.alloc_lines(routine, bytes, line)?;
        self.hold(clear_all(&buf));
        Ok(buf)
    }

    /// Hold `commands` back for the next submission.
    pub(crate) fn hold(&self, commands: Vec<Command>) {
        let full = {
            let mut pending = lock(&self.pending);
            pending.commands.extend(commands);
            pending.commands.len() >= self.pending_limit()
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
        let mut pending = lock(&self.pending);
        self.submit_held(&mut pending);
    }

    /// Submit the held commands, if any, with the pending lock held by the caller (taking the
    /// commands and submitting them is one step for other threads: nothing they submit or
    /// write can come in between).
    pub(super) fn submit_held(&self, pending: &mut Held) {
        let commands = pending.take();
        if commands.is_empty() {
            return;
        }
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("wgblas held"),
            });
        let staged = self.encode(&mut encoder, commands, None);
        self.queue.submit(Some(encoder.finish()));
        for (b, u) in staged {
            self.staging.recycle_write(b, u);
        }
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

    pub(super) fn pop_scopes(
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

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Context {
        Context::new().expect("the tests need a GPU adapter (lavapipe on CPU-only machines)")
    }

    #[test]
    fn a_buffer_past_max_buffer_size_is_a_typed_error() {
        let ctx = context();
        let too_big = ctx.limits().max_buffer_size + 4;
        let err = ctx.alloc("test", too_big).unwrap_err();
        assert!(
            matches!(err, Error::Gpu { routine, .. } if routine == "test"),
            "{err:?}"
        );
        // The context still works.
        let buf = ctx.alloc("test", 64).unwrap();
        let data = ctx.execute::<u32>("test", &[], &[(&buf, 4)]).unwrap();
        assert_eq!(data[0].len(), 4);
    }

    #[test]
    fn a_failed_read_back_is_a_typed_error_and_the_context_recovers() {
        let ctx = context();
        let src = crate::transfer::Source::slice(&[1.0f32, 2.0, 3.0, 4.0]);
        let buf = ctx.upload_source("test", &src).unwrap();
        buf.destroy();
        let err = ctx.execute::<f32>("test", &[], &[(&buf, 4)]).unwrap_err();
        assert!(
            matches!(err, Error::Gpu { routine, .. } if routine == "test"),
            "{err:?}"
        );
        let buf = ctx.upload_source("test", &src).unwrap();
        let data = ctx.execute::<f32>("test", &[], &[(&buf, 4)]).unwrap();
        assert_eq!(data[0], vec![1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn a_full_params_page_is_sealed_and_the_next_slot_opens_a_new_one() {
        let ctx = context();
        let align = u64::from(ctx.limits().min_uniform_buffer_offset_alignment).max(16);
        let per_page = PAGE / align;
        let mut held = Held::default();
        let mut first = None;
        for k in 0..per_page {
            let (uniform, slot, len) = ctx.reserve_params(&mut held, &[k as u8; 12]);
            assert_eq!((slot, len), (k * align, 16));
            assert!(first.get_or_insert(uniform.clone()) == &uniform);
        }
        assert!(held.commands.is_empty());
        let (uniform, slot, _) = ctx.reserve_params(&mut held, &[7; 20]);
        assert_eq!(slot, 0);
        assert!(first.as_ref() != Some(&uniform));
        // The full page became a params command holding every slot's bytes, in place.
        match &held.commands[..] {
            [Command::Params { bytes, .. }] => {
                assert_eq!(bytes.len() as u64, (per_page - 1) * align + 16);
                assert_eq!(bytes[(align * 3) as usize], 3);
            }
            _ => panic!("one params command expected"),
        }
        // Taking the held commands seals the open page too.
        assert_eq!(held.take().len(), 2);
        assert!(held.page.is_none());
    }

    #[test]
    fn a_failed_map_is_a_typed_error() {
        // A map on a lost device fails: the call returns an error, nothing panics.
        let ctx = context();
        let src = crate::transfer::Source::slice(&[1.0f32; 64]);
        let buf = ctx.upload_source("test", &src).unwrap();
        ctx.device.destroy();
        let err = ctx.execute::<f32>("test", &[], &[(&buf, 64)]).unwrap_err();
        assert!(
            matches!(err, Error::Gpu { routine, .. } if routine == "test"),
            "{err:?}"
        );
        let err = ctx.upload_source("test", &src).map(|_| ()).unwrap_err();
        assert!(matches!(err, Error::Gpu { .. }), "{err:?}");
    }
}
