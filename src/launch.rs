//! The one launch path: every routine builds [`Dispatch`]es and hands them to
//! [`Context::execute`], which creates the bind groups and the params uniform, records the
//! dispatches, and submits them together with the read-back copies in one command buffer.
//!
//! Calls whose results stay on the device (resident outputs, no read-back) are not submitted at
//! once: their commands are held back in the context and submitted with the next call that
//! reads something back, with [`Context::flush`], or when [`MAX_PENDING`] commands are held. A
//! chain of resident calls therefore costs one submission and no host round trip. Host data
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
use std::sync::Arc;

use crate::context::{Context, Elem, Phase, Shader};
use crate::error::{Error, Result};
use crate::pool::{self, lock, Buf};
use crate::transfer::SharedBytes;

pub(crate) mod command;
pub(crate) use command::Command;

/// Commands held back before a submission is forced.
pub(crate) const MAX_PENDING: usize = 1024;

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

/// Completion shared between [`MapWait`] and its polling thread.
#[derive(Default)]
struct MapWaitState {
    done: Option<std::result::Result<(), String>>,
    waker: Option<std::task::Waker>,
}

/// A future that resolves once the map callbacks behind `flags` have all run.
pub(crate) struct MapWait {
    state: Arc<std::sync::Mutex<MapWaitState>>,
}

impl MapWait {
    /// Start a thread that waits for submission `index` and polls until every flag is set,
    /// then wakes the future. The thread drops its device handle before it wakes the future,
    /// so the context's own handle stays the last one (see `DEVICE_LIFECYCLE`).
    ///
    /// Cancellation: when the future has been dropped, the thread still waits for the
    /// submission (the device keeps running it), then exits without waking anyone; if its
    /// device handle is then the last one (the context was dropped meanwhile), it is dropped
    /// under `DEVICE_LIFECYCLE`, as a context's own is.
    fn spawn(
        device: wgpu::Device,
        index: wgpu::SubmissionIndex,
        flags: Vec<Arc<std::sync::Mutex<Option<bool>>>>,
    ) -> std::result::Result<Self, String> {
        let state = Arc::new(std::sync::Mutex::new(MapWaitState::default()));
        let shared = state.clone();
        std::thread::Builder::new()
            .name("wgblas read-back".into())
            .spawn(move || {
                // The future holds the other reference to `shared`: alone means dropped.
                let cancelled = |s: &Arc<std::sync::Mutex<MapWaitState>>| Arc::strong_count(s) == 1;
                // No timeout: waits in 10 ms slices (to exit soon after a cancellation) left
                // `several_read_backs_run_concurrently_on_spawned_tasks` pending forever in a
                // full parallel test run, with no read-back thread left; likely cause: in a
                // timed-out wait wgpu-core 30.0.2 asserts that an empty queue has reached the
                // awaited submission, which another thread's poll can break, so the thread
                // panicked before waking its future.
                let mut r = device
                    .poll(wgpu::PollType::Wait {
                        submission_index: Some(index),
                        timeout: None,
                    })
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                // Another thread's poll may have collected the callbacks and not run them yet.
                while r.is_ok() && !cancelled(&shared) && !flags.iter().all(|f| lock(f).is_some()) {
                    std::thread::yield_now();
                    if let Err(e) = device.poll(wgpu::PollType::Poll) {
                        r = Err(e.to_string());
                    }
                }
                if cancelled(&shared) {
                    let _serial = lock(&crate::context::DEVICE_LIFECYCLE);
                    drop(device);
                    return;
                }
                drop(device);
                let waker = {
                    let mut st = lock(&shared);
                    st.done = Some(r);
                    st.waker.take()
                };
                if let Some(w) = waker {
                    w.wake();
                }
            })
            .map_err(|e| format!("starting the read-back thread: {e}"))?;
        Ok(MapWait { state })
    }
}

impl std::future::Future for MapWait {
    type Output = std::result::Result<(), String>;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let mut st = lock(&self.state);
        match st.done.take() {
            Some(r) => std::task::Poll::Ready(r),
            None => {
                st.waker = Some(cx.waker().clone());
                std::task::Poll::Pending
            }
        }
    }
}

/// A boxed read-back sink (see [`Read`]).
pub(crate) type SinkFn<'a> = Box<dyn Fn(u64, &[u8]) + Send + Sync + 'a>;

/// Bytes of read-back handed to a sink at once (one task of the parallel copy).
const PIECE: u64 = 2 << 20;

/// The mapped bytes of read `i` from byte `off` on, as `(read, byte offset, bytes)` pieces of
/// at most [`PIECE`] bytes.
fn pieces_of(i: usize, off: u64, bytes: &[u8]) -> impl Iterator<Item = (usize, u64, &[u8])> {
    bytes
        .chunks(PIECE as usize)
        .enumerate()
        .map(move |(p, piece)| (i, off + p as u64 * PIECE, piece))
}

/// Hand `pieces` to their reads' sinks, on the copy threads.
fn hand_over(reads: &[Read<'_>], pieces: &[(usize, u64, &[u8])]) {
    crate::transfer::par_range(pieces.len(), 1, |lo, hi| {
        for &(i, off, piece) in &pieces[lo..hi] {
            (reads[i].sink)(off, piece);
        }
    });
}

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
        let buf = pool::take(
            &self.pool,
            &self.device,
            bytes.max(MIN_BUFFER),
            self.limits().max_storage_buffer_binding_size,
        );
        let chunk_elems = (pool::CHUNK / size).max(1);
        let chunks = elems.div_ceil(chunk_elems);
        let mut result = Ok(());
        for c in 0..chunks {
            let lo = c * chunk_elems;
            let hi = (lo + chunk_elems).min(elems);
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
                dst: (*buf).clone(),
                dst_offset: lo * size,
                size: padded,
            };
            if chunks > 1 {
                let mut pending = lock(&self.pending);
                pending.push(cmd);
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

    /// The params of `dispatches`, each padded to 16 bytes, at offsets aligned to the device's
    /// uniform offset alignment, written into one mapped staging buffer: the command that
    /// copies them into a pooled uniform buffer, that buffer, and each dispatch's (offset,
    /// length). `None` for no dispatches. No buffer is created in a steady stream of calls.
    #[allow(clippy::type_complexity)]
    fn stage_params(
        &self,
        routine: &'static str,
        dispatches: &[Dispatch<'_>],
    ) -> Result<Option<(Command, wgpu::Buffer, Vec<(u64, u64)>)>> {
        if dispatches.is_empty() {
            return Ok(None);
        }
        let align = u64::from(self.limits().min_uniform_buffer_offset_alignment).max(16);
        let mut slots = Vec::with_capacity(dispatches.len());
        let mut total = 0u64;
        for d in dispatches {
            let len = (d.params.len() as u64).max(16).div_ceil(16) * 16;
            slots.push((total, len));
            total = (total + len).div_ceil(align) * align;
        }
        let staging = self.staging.take_write(&self.device, total);
        {
            let mut view = staging
                .get_mapped_range_mut(..total)
                .map_err(|e| Error::Gpu {
                    routine,
                    detail: format!("mapping a params staging buffer: {e}"),
                })?;
            for (d, &(slot, len)) in dispatches.iter().zip(&slots) {
                let mut dst = view.slice(slot as usize..(slot + len) as usize);
                let mut bytes = d.params.clone();
                bytes.resize(len as usize, 0);
                dst.copy_from_slice(&bytes);
            }
        }
        staging.unmap();
        let uniform = self.staging.take_uniform(&self.device, total);
        let cmd = Command::Params {
            staging,
            uniform: uniform.clone(),
            size: total,
        };
        Ok(Some((cmd, uniform, slots)))
    }

    /// A storage buffer of at least `bytes` bytes from the pool, contents unspecified (for an
    /// output the kernel writes in full).
    ///
    /// # Errors
    /// [`Error::Gpu`] when wgpu fails to create the buffer (out of memory).
    pub(crate) fn alloc(&self, routine: &'static str, bytes: u64) -> Result<Buf> {
        self.take_device_error(routine)?;
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buf = pool::take(
            &self.pool,
            &self.device,
            bytes.max(MIN_BUFFER),
            self.limits().max_storage_buffer_binding_size,
        );
        self.pop_scopes(routine, scope, oom)?;
        Ok(buf)
    }

    /// A zero-filled storage buffer of at least `bytes` bytes (from the pool, cleared on the
    /// device before any later command runs).
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

    pub(crate) fn zeroed(&self, bytes: u64) -> Buf {
        // A failed creation is caught by the uncaptured-error handler and returned by the
        // next call that can return an error (the Clear below is then invalid too).
        let buf = pool::take(
            &self.pool,
            &self.device,
            bytes.max(MIN_BUFFER),
            self.limits().max_storage_buffer_binding_size,
        );
        self.hold(vec![Command::Clear {
            buffer: (*buf).clone(),
            offset: 0,
            size: None,
        }]);
        buf
    }

    /// [`Context::zeroed`], with a failed creation returned as an error at once.
    ///
    /// # Errors
    /// [`Error::Gpu`] when wgpu fails to create the buffer (out of memory).
    pub(crate) fn zeroed_checked(&self, routine: &'static str, bytes: u64) -> Result<Buf> {
        let buf = self.alloc(routine, bytes)?;
        self.hold(vec![Command::Clear {
            buffer: (*buf).clone(),
            offset: 0,
            size: None,
        }]);
        Ok(buf)
    }

    /// Hold `commands` back for the next submission.
    pub(crate) fn hold(&self, commands: Vec<Command>) {
        let full = {
            let mut pending = lock(&self.pending);
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
        let mut pending = lock(&self.pending);
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
        let staged = encode(&mut encoder, commands, None);
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
        // The blocking wait never yields, so this `block_on` only drives a ready future.
        pollster::block_on(self.execute_then_in(routine, dispatches, after, reads, Wait::Block))
    }

    /// [`Context::execute`] whose read-back wait does not block the calling thread: see
    /// [`Wait::Async`].
    pub(crate) async fn execute_async<R: bytemuck::Pod>(
        &self,
        routine: &'static str,
        dispatches: &[Dispatch<'_>],
        reads: &[(&wgpu::Buffer, usize)],
    ) -> Result<Vec<Vec<R>>> {
        self.execute_then_in(routine, dispatches, Vec::new(), reads, Wait::Async)
            .await
    }

    /// The core of [`Context::execute_then`] and [`Context::execute_async`].
    pub(crate) async fn execute_then_in<R: bytemuck::Pod>(
        &self,
        routine: &'static str,
        dispatches: &[Dispatch<'_>],
        after: Vec<Command>,
        reads: &[(&wgpu::Buffer, usize)],
        wait: Wait,
    ) -> Result<Vec<Vec<R>>> {
        let size = std::mem::size_of::<R>();
        // Fresh outputs are written once, straight from mapped memory, into their spare
        // capacity (no zero-fill pass), and take their length only after the read succeeded.
        let mut out: Vec<Vec<R>> = reads
            .iter()
            .map(|&(_, len)| crate::transfer::alloc_vec(len))
            .collect();
        let lens: Vec<(usize, u64)> = reads
            .iter()
            .map(|&(buffer, len)| (len, ((len * size) as u64).min(buffer.size())))
            .collect();
        {
            let dsts: Vec<crate::transfer::SharedBytes<'_>> = out
                .iter_mut()
                .zip(&lens)
                .map(|(v, &(len, _))| crate::transfer::SharedBytes::spare(v, len * size))
                .collect();
            let sinks: Vec<SinkFn<'_>> = dsts
                .iter()
                .map(|d| {
                    // SAFETY: `execute_reads` hands over disjoint pieces.
                    Box::new(move |off: u64, data: &[u8]| unsafe { d.write(off as usize, data) })
                        as SinkFn<'_>
                })
                .collect();
            let mut rs: Vec<Read<'_>> = reads
                .iter()
                .zip(sinks.iter())
                .zip(&lens)
                .map(|((&(buffer, _), sink), &(_, bytes))| Read {
                    buffer,
                    bytes,
                    sink: &**sink,
                })
                .collect();
            self.execute_reads_in(routine, dispatches, after, &mut rs, wait)
                .await?;
        }
        for (v, &(len, bytes)) in out.iter_mut().zip(&lens) {
            if bytes < (len * size) as u64 {
                // A buffer shorter than asked (never for the crate's own reads): zero the rest.
                let b = SharedBytes::spare(v, len * size);
                // SAFETY: only this thread writes `v`.
                unsafe { b.write(bytes as usize, &vec![0u8; len * size - bytes as usize]) };
            }
            // SAFETY: every byte of the first `len` elements was written by the sinks above
            // (the reads covered `bytes` of them, the rest was zeroed), and any bytes are a
            // valid `R` (`Pod`).
            unsafe { v.set_len(len) };
        }
        Ok(out)
    }

    /// Record `dispatches`, then `after`; with no `reads` (and GPU timing off) hold them back,
    /// else submit everything held with them plus the copies of each read into pooled
    /// `MAP_READ` staging buffers, wait, and hand the mapped chunks to the sinks.
    pub(crate) fn execute_reads(
        &self,
        routine: &'static str,
        dispatches: &[Dispatch<'_>],
        after: Vec<Command>,
        reads: &mut [Read<'_>],
    ) -> Result<()> {
        // The blocking wait never yields, so this `block_on` only drives a ready future.
        pollster::block_on(self.execute_reads_in(routine, dispatches, after, reads, Wait::Block))
    }

    /// The core of [`Context::execute_reads`], waiting for the device as `wait` says.
    pub(crate) async fn execute_reads_in(
        &self,
        routine: &'static str,
        dispatches: &[Dispatch<'_>],
        after: Vec<Command>,
        reads: &mut [Read<'_>],
        wait: Wait,
    ) -> Result<()> {
        self.take_device_error(routine)?;
        let mut clock = std::time::Instant::now();
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let mut commands = Vec::with_capacity(dispatches.len() + after.len() + 1);
        let staged = match self.stage_params(routine, dispatches) {
            Ok(p) => p,
            Err(e) => {
                drop(self.pop_scopes(routine, scope, oom));
                return Err(e);
            }
        };
        let uniform = staged.as_ref().map(|(_, u, _)| u.clone());
        let slots = staged
            .as_ref()
            .map(|(_, _, s)| s.clone())
            .unwrap_or_default();
        if let Some((cmd, _, _)) = staged {
            commands.push(cmd);
        }
        for (d, &(slot, len)) in dispatches.iter().zip(&slots) {
            let pipeline = match self.pipeline(routine, d.shader, d.entry, d.elem, &d.constants) {
                Ok(p) => p,
                Err(e) => {
                    drop(self.pop_scopes(routine, scope, oom));
                    return Err(e);
                }
            };
            let uniform = uniform.as_ref().expect("params staged for every dispatch");
            for &(field, src, src_offset) in &d.patches {
                commands.push(Command::Copy {
                    src: src.clone(),
                    src_offset,
                    dst: uniform.clone(),
                    dst_offset: slot + field,
                    size: 4,
                });
            }
            let mut entries = vec![wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: uniform,
                    offset: slot,
                    size: std::num::NonZeroU64::new(len),
                }),
            }];
            for &(binding, b) in &d.buffers {
                entries.push(wgpu::BindGroupEntry {
                    binding,
                    resource: b.binding(),
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
        self.counters.lap(Phase::Record, &mut clock);
        if reads.is_empty() && (!profiling || (self.batching() && !commands.is_empty())) {
            self.hold(commands);
            return self
                .pop_scopes(routine, scope, oom)
                .and(self.take_device_error(routine));
        }
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
        // Read-back staging, chunk by chunk: (read index, byte offset, bytes, buffer).
        let mut chunks: Vec<(usize, u64, u64, wgpu::Buffer)> = Vec::new();
        let pipelined = wait == Wait::Block && reads.iter().any(|r| r.bytes > pool::CHUNK);
        for (i, r) in reads.iter().enumerate() {
            let total = r.bytes.div_ceil(4) * 4;
            let total = total.min(r.buffer.size());
            let mut off = 0;
            while off < total {
                let len = (total - off).min(pool::CHUNK);
                chunks.push((i, off, len, self.staging.take_read(&self.device, len)));
                off += len;
            }
        }
        // The pending lock is held until the submission below: commands taken from another
        // thread's calls reach the queue before anything a later caller submits or writes.
        // A block, so that the pending guard is not held across the read-back's `.await`.
        let (staged, index, submitted, later) = {
            let mut pending = lock(&self.pending);
            let mut all = std::mem::take(&mut *pending);
            // Commands of earlier calls, kept to be submitted again on their own if this call's
            // submission fails (wgpu rejects a failed submission whole): an error of this call
            // must not undo an upload or a held call made before it.
            let earlier = (!all.is_empty()).then(|| all.clone());
            all.extend(commands);
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some(routine),
                });
            let mut staged = encode(&mut encoder, all, timer.as_ref().map(|(set, _, _)| set));
            // Pipelined, each chunk after the first is copied in a submission of its own, so
            // that the host copies one chunk out while the device copies the next.
            let first = if pipelined { 1 } else { chunks.len() };
            for (i, off, len, s) in &chunks[..first] {
                encoder.copy_buffer_to_buffer(reads[*i].buffer, *off, s, 0, *len);
            }
            if let Some((set, resolve, staging)) = &timer {
                encoder.resolve_query_set(set, 0..2, resolve, 0);
                encoder.copy_buffer_to_buffer(resolve, 0, staging, 0, 16);
            }
            let index = self.queue.submit(Some(encoder.finish()));
            self.counters.submissions.fetch_add(1, Ordering::Relaxed);
            let submitted = self
                .pop_scopes(routine, scope, oom)
                .and_then(|()| self.take_device_error(routine));
            if let (Err(_), Some(earlier)) = (&submitted, earlier) {
                // Still under the pending lock, so nothing submitted later overtakes them. Their
                // staging buffers return to the pool through this submission; the failed one's
                // are dropped (a buffer in both lists must not be mapped twice).
                let retry = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
                let mut encoder =
                    self.device
                        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                            label: Some("wgblas held, again"),
                        });
                staged = encode(&mut encoder, earlier, None);
                self.queue.submit(Some(encoder.finish()));
                self.counters.submissions.fetch_add(1, Ordering::Relaxed);
                drop(pollster::block_on(retry.pop()));
            }
            let mut later = Vec::new();
            if submitted.is_ok() {
                for (i, off, len, s) in &chunks[first..] {
                    let mut encoder =
                        self.device
                            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                                label: Some("wgblas read-back chunk"),
                            });
                    encoder.copy_buffer_to_buffer(reads[*i].buffer, *off, s, 0, *len);
                    later.push(self.queue.submit(Some(encoder.finish())));
                    self.counters.submissions.fetch_add(1, Ordering::Relaxed);
                }
            }
            (staged, index, submitted, later)
        };
        for (b, u) in staged {
            self.staging.recycle_write(b, u);
        }
        self.counters.lap(Phase::Submit, &mut clock);
        submitted?;
        let mapped: Vec<Arc<std::sync::Mutex<Option<bool>>>> = chunks
            .iter()
            .map(|(_, _, len, s)| {
                let flag = Arc::new(std::sync::Mutex::new(None));
                let f = flag.clone();
                s.map_async(wgpu::MapMode::Read, ..*len, move |r| {
                    *lock(&f) = Some(r.is_ok());
                });
                flag
            })
            .collect();
        let timer_flag = timer.as_ref().map(|(_, _, t)| {
            let flag = Arc::new(std::sync::Mutex::new(None));
            let f = flag.clone();
            t.map_async(wgpu::MapMode::Read, .., move |r| {
                *lock(&f) = Some(r.is_ok());
            });
            flag
        });
        match wait {
            Wait::Block => {
                // A short call is done within microseconds: poll for it first (a blocking wait's
                // wake-up costs tens of microseconds on a GPU driver), then block.
                let done = |f: &Arc<std::sync::Mutex<Option<bool>>>| lock(f).is_some();
                // Pipelined, the later chunks are waited for one by one as they are copied out.
                let mapped = &mapped[..if pipelined { 1 } else { mapped.len() }];
                let spin = self.spin_wait();
                let spun = std::time::Instant::now();
                let mut finished = false;
                while !spin.is_zero() && spun.elapsed() < spin {
                    // The map callbacks run once the submission that copies into them is done.
                    if self.device.poll(wgpu::PollType::Poll).is_ok()
                        && mapped.iter().all(done)
                        && timer_flag.as_ref().is_none_or(done)
                    {
                        finished = true;
                        break;
                    }
                    std::hint::spin_loop();
                }
                if !finished {
                    self.device
                        .poll(wgpu::PollType::Wait {
                            submission_index: Some(index),
                            timeout: None,
                        })
                        .map_err(|e| Error::Gpu {
                            routine,
                            detail: e.to_string(),
                        })?;
                }
                self.counters.lap(Phase::Wait, &mut clock);
                // Another thread's poll may have collected our map callbacks and not run them yet:
                // wait until every one has run (it happens without any further device work).
                while !mapped.iter().all(done) || !timer_flag.as_ref().is_none_or(done) {
                    std::thread::yield_now();
                    let _ = self.device.poll(wgpu::PollType::Poll);
                }
            }
            Wait::Async => {
                let mut flags = mapped.clone();
                flags.extend(timer_flag.iter().cloned());
                MapWait::spawn(self.device.clone(), index, flags)
                    .map_err(|detail| Error::Gpu { routine, detail })?
                    .await
                    .map_err(|detail| Error::Gpu { routine, detail })?;
                self.counters.lap(Phase::Wait, &mut clock);
            }
        }
        self.counters.lap(Phase::Map, &mut clock);
        let ok = |f: &Arc<std::sync::Mutex<Option<bool>>>| *lock(f) == Some(true);

        let waited = if pipelined { 1 } else { mapped.len() };
        if !mapped[..waited].iter().all(ok) || !timer_flag.as_ref().is_none_or(ok) {
            let cause = self
                .take_device_error(routine)
                .err()
                .map(|e| format!(": {e}"))
                .unwrap_or_default();
            return Err(Error::Gpu {
                routine,
                detail: format!("mapping a read-back buffer failed{cause}"),
            });
        }
        if let Some((_, _, t)) = &timer {
            let view = t.get_mapped_range(..).map_err(|e| Error::Gpu {
                routine,
                detail: e.to_string(),
            })?;
            let stamps: [u64; 2] = bytemuck::pod_read_unaligned(&view[..16]);
            let ticks = stamps[1].saturating_sub(stamps[0]);
            drop(view);
            t.unmap();
            self.record_gpu_time((ticks as f64 * self.queue.get_timestamp_period() as f64) as u64);
        }
        if chunks.is_empty() {
            return Ok(());
        }
        self.counters.readbacks.fetch_add(1, Ordering::Relaxed);
        if pipelined {
            return self.copy_out_pipelined(routine, chunks, &mapped, &later, reads, clock);
        }
        // Every chunk is mapped: check the views first, then write, so that an error leaves
        // the caller's arrays as they were.
        let mut views = Vec::with_capacity(chunks.len());
        for (_, _, len, s) in &chunks {
            views.push(s.get_mapped_range(..*len).map_err(|e| Error::Gpu {
                routine,
                detail: e.to_string(),
            })?);
        }
        // One parallel copy over all chunks.
        let pieces: Vec<_> = chunks
            .iter()
            .zip(&views)
            .flat_map(|((i, off, _, _), view)| pieces_of(*i, *off, view))
            .collect();
        hand_over(reads, &pieces);
        drop(pieces);
        drop(views);
        for (_, _, _, s) in chunks {
            s.unmap();
            self.staging.recycle_read(s);
        }
        self.counters.lap(Phase::Copy, &mut clock);
        Ok(())
    }

    /// The copy-out of a pipelined read-back: chunk by chunk, each as soon as the device has
    /// copied it (chunk `j > 0` in submission `later[j - 1]`), in parallel pieces, while the
    /// device copies the next. A chunk that fails to map (a lost device) stops the call with an
    /// error, after the chunks before it were written.
    fn copy_out_pipelined(
        &self,
        routine: &'static str,
        chunks: Vec<(usize, u64, u64, wgpu::Buffer)>,
        mapped: &[Arc<std::sync::Mutex<Option<bool>>>],
        later: &[wgpu::SubmissionIndex],
        reads: &mut [Read<'_>],
        mut clock: std::time::Instant,
    ) -> Result<()> {
        let gpu = |e: String| Error::Gpu { routine, detail: e };
        let mut result = Ok(());
        for (j, ((i, off, len, s), flag)) in chunks.iter().zip(mapped).enumerate() {
            if j > 0 {
                if let Some(index) = later.get(j - 1) {
                    let waited = self.device.poll(wgpu::PollType::Wait {
                        submission_index: Some(index.clone()),
                        timeout: None,
                    });
                    if let Err(e) = waited {
                        result = Err(gpu(e.to_string()));
                        break;
                    }
                }
                while lock(flag).is_none() {
                    std::thread::yield_now();
                    let _ = self.device.poll(wgpu::PollType::Poll);
                }
                self.counters.lap(Phase::Wait, &mut clock);
            }
            if *lock(flag) != Some(true) {
                result = Err(gpu("mapping a read-back buffer failed".into()));
                break;
            }
            let view = match s.get_mapped_range(..*len) {
                Ok(v) => v,
                Err(e) => {
                    result = Err(gpu(e.to_string()));
                    break;
                }
            };
            let pieces: Vec<_> = pieces_of(*i, *off, &view).collect();
            hand_over(reads, &pieces);
            drop(pieces);
            drop(view);
            self.counters.lap(Phase::Copy, &mut clock);
        }
        for ((_, _, _, s), flag) in chunks.into_iter().zip(mapped) {
            // Back to the pool once its map has resolved (mapped: unmapped first; failed: as
            // it is); one still pending after an error is dropped.
            match *lock(flag) {
                Some(true) => {
                    s.unmap();
                    self.staging.recycle_read(s);
                }
                Some(false) => self.staging.recycle_read(s),
                None => {}
            }
        }
        result
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
) -> Vec<(wgpu::Buffer, Option<wgpu::Buffer>)> {
    let mut staged = Vec::new();
    // Params first: each uniform buffer belongs to one call of this submission (see
    // `Command::Params`), so writing them all before any dispatch changes nothing.
    let mut rest = Vec::with_capacity(commands.len());
    for c in commands {
        match c {
            Command::Params {
                staging,
                uniform,
                size,
            } => {
                encoder.copy_buffer_to_buffer(&staging, 0, &uniform, 0, size);
                staged.push((staging, Some(uniform)));
            }
            c => rest.push(c),
        }
    }
    let commands = rest;
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
            Command::Clear {
                buffer,
                offset,
                size,
            } => encoder.clear_buffer(&buffer, offset, size),
            Command::Params { .. } => {}
            Command::Upload {
                staging,
                dst,
                dst_offset,
                size,
            } => {
                encoder.copy_buffer_to_buffer(&staging, 0, &dst, dst_offset, size);
                staged.push((staging, None));
            }
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
    staged
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
            matches!(
                err,
                Error::Gpu {
                    routine: "test",
                    ..
                }
            ),
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
            matches!(
                err,
                Error::Gpu {
                    routine: "test",
                    ..
                }
            ),
            "{err:?}"
        );
        let buf = ctx.upload_source("test", &src).unwrap();
        let data = ctx.execute::<f32>("test", &[], &[(&buf, 4)]).unwrap();
        assert_eq!(data[0], vec![1.0, 2.0, 3.0, 4.0]);
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
            matches!(
                err,
                Error::Gpu {
                    routine: "test",
                    ..
                }
            ),
            "{err:?}"
        );
        let err = ctx.upload_source("test", &src).map(|_| ()).unwrap_err();
        assert!(matches!(err, Error::Gpu { .. }), "{err:?}");
    }
}
