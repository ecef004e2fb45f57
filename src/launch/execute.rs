//! Submission and read-back: [`Context::execute`] and its forms record a call's dispatches,
//! submit them with everything held, copy the results to mappable buffers and hand the mapped
//! memory to the callers' sinks (all at once, or chunk by chunk for a large read); [`MapWait`]
//! lets an `_async` form await the mapping without blocking its thread.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::mapwait::MapWait;
use super::{Command, Dispatch, Held, Read, SinkFn, Wait};
use crate::context::{Context, Phase};
use crate::error::{Error, Result};
use crate::pool::{self, lock, Segmented};
use crate::transfer::SharedBytes;

/// Bytes of read-back handed to a sink at once (one task of the parallel copy): two parts of
/// [`crate::transfer::min_part`] (512 KiB by default).
fn piece() -> u64 {
    2 * crate::transfer::min_part() as u64
}

/// The mapped bytes of read `i` from byte `off` on, as `(read, byte offset, bytes)` pieces of
/// at most [`piece`] bytes.
fn pieces_of(i: usize, off: u64, bytes: &[u8]) -> impl Iterator<Item = (usize, u64, &[u8])> {
    let piece = piece();
    bytes
        .chunks(piece as usize)
        .enumerate()
        .map(move |(p, part)| (i, off + p as u64 * piece, part))
}

/// Hand `pieces` to their reads' sinks, on the copy threads.
fn hand_over(reads: &[Read<'_>], pieces: &[(usize, u64, &[u8])]) {
    crate::transfer::par_range(pieces.len(), 1, |lo, hi| {
        for &(i, off, piece) in &pieces[lo..hi] {
            (reads[i].sink)(reads[i].at + off, piece);
        }
    });
}

/// A map flag: `None` until the map callback has run, then whether the map succeeded.
type MapFlag = Arc<std::sync::Mutex<Option<bool>>>;

/// A submitted read-back, not yet waited for ([`Context::submit_reads`]).
pub(crate) struct Submitted {
    index: wgpu::SubmissionIndex,
    /// Read-back staging, chunk by chunk: (read index, byte offset, bytes, buffer).
    chunks: Vec<(usize, u64, u64, wgpu::Buffer)>,
    mapped: Vec<MapFlag>,
    /// The submissions of the chunks after the first: not empty when the read-back is
    /// pipelined.
    later: Vec<wgpu::SubmissionIndex>,
    /// The GPU timer (query set, resolve buffer, read-back buffer) and its map flag.
    timer: Option<((wgpu::QuerySet, wgpu::Buffer, wgpu::Buffer), MapFlag)>,
}

impl Context {
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
        let reads: Vec<_> = reads.iter().map(|&(b, n)| (b.pieces(), n)).collect();
        self.execute_pieces_in(routine, dispatches, after, &reads, wait)
            .await
    }

    /// [`Context::execute_then_in`] reading operands that may be segmented (resident
    /// read-backs): the first `len` elements of each `Buf`, segment by segment.
    pub(crate) async fn execute_segmented_in<R: bytemuck::Pod>(
        &self,
        routine: &'static str,
        reads: &[(&pool::Buf, usize)],
        wait: Wait,
    ) -> Result<Vec<Vec<R>>> {
        let reads: Vec<_> = reads.iter().map(|&(b, n)| (b.segments(), n)).collect();
        self.execute_pieces_in(routine, &[], Vec::new(), &reads, wait)
            .await
    }

    /// [`Context::execute_segmented_in`], blocking.
    pub(crate) fn execute_segmented<R: bytemuck::Pod>(
        &self,
        routine: &'static str,
        reads: &[(&pool::Buf, usize)],
    ) -> Result<Vec<Vec<R>>> {
        // The blocking wait never yields, so this `block_on` only drives a ready future.
        pollster::block_on(self.execute_segmented_in(routine, reads, Wait::Block))
    }

    /// The core of the `execute` forms: each read is the buffers holding one operand
    /// (`(byte start, buffer, bytes)`, [`pool::Buf::segments`]) and its length in elements.
    async fn execute_pieces_in<R: bytemuck::Pod>(
        &self,
        routine: &'static str,
        dispatches: &[Dispatch<'_>],
        after: Vec<Command>,
        reads: &[(pool::Pieces<'_>, usize)],
        wait: Wait,
    ) -> Result<Vec<Vec<R>>> {
        let size = std::mem::size_of::<R>();
        // Fresh outputs are written once, straight from mapped memory, into their spare
        // capacity (no zero-fill pass), and take their length only after the read succeeded.
        let mut out: Vec<Vec<R>> = reads
            .iter()
            .map(|(_, len)| crate::transfer::alloc_vec(*len))
            .collect();
        let lens: Vec<(usize, u64)> = reads
            .iter()
            .map(|(pieces, len)| {
                let held = pieces.iter().map(|p| p.2).sum::<u64>();
                (*len, ((len * size) as u64).min(held))
            })
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
                .flat_map(|(((pieces, _), sink), &(_, bytes))| Read::of(pieces, bytes, &**sink))
                .collect();
            if let Some(s) = self.submit_reads(routine, dispatches, after, &rs, wait)? {
                if crate::lab::prefault_outputs() {
                    // While the device copies: the outputs' pages, faulted in on the copy
                    // threads (a fresh allocation is reserved, not mapped).
                    let mut step = std::time::Instant::now();
                    for d in &dsts {
                        // SAFETY: nothing reads or writes the outputs until the read-back
                        // below, whose sinks write them in full.
                        unsafe { d.fault_in() };
                    }
                    self.counters.step("prefault", &mut step);
                }
                self.complete_reads(routine, s, &mut rs, wait).await?;
            }
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

    /// The commands of `dispatches` (run by `pipelines`), then `after`. Each dispatch gets a
    /// cached bind group where its params are promoted (`bindings.rs`; new ones are added to
    /// `fresh`, to be kept once the call succeeded), else a new one over a slot of the open
    /// params page of `held` ([`Context::reserve_params`]); its patches copy into that slot.
    /// `held` is the locked pending list: the commands must join it, or be submitted with it,
    /// before the lock is released.
    fn record(
        &self,
        held: &mut Held,
        dispatches: &[Dispatch<'_>],
        pipelines: &[Arc<wgpu::ComputePipeline>],
        after: Vec<Command>,
        fresh: &mut Vec<super::bindings::Fresh>,
    ) -> Vec<Command> {
        let mut out = Vec::with_capacity(dispatches.len() + after.len());
        for (d, pipeline) in dispatches.iter().zip(pipelines) {
            let (bind_group, uniform, slot) = match self.cached_group(pipeline, d, fresh) {
                Some(cached) => cached,
                None => {
                    let (uniform, slot, len) = self.reserve_params(held, &d.params);
                    let group = self.bind_group(pipeline, d, &uniform, slot, len);
                    (group, uniform, slot)
                }
            };
            for &(field, src, src_offset) in &d.patches {
                out.push(Command::Copy {
                    src: src.clone(),
                    src_offset,
                    dst: uniform.clone(),
                    dst_offset: slot + field,
                    size: 4,
                });
            }
            out.push(Command::Dispatch {
                pipeline: pipeline.clone(),
                bind_group,
                groups: d.groups,
            });
        }
        out.extend(after);
        out
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

    /// The core of [`Context::execute_reads`], waiting for the device as `wait` says:
    /// [`Context::submit_reads`], then [`Context::complete_reads`].
    pub(crate) async fn execute_reads_in(
        &self,
        routine: &'static str,
        dispatches: &[Dispatch<'_>],
        after: Vec<Command>,
        reads: &mut [Read<'_>],
        wait: Wait,
    ) -> Result<()> {
        match self.submit_reads(routine, dispatches, after, reads, wait)? {
            Some(submitted) => self.complete_reads(routine, submitted, reads, wait).await,
            None => Ok(()),
        }
    }

    /// The first half of [`Context::execute_reads_in`]: record `dispatches` and `after`; with
    /// no `reads` (and GPU timing off) hold them back and return `None`; else submit everything
    /// held with them and the copies of each read into staging buffers, and start mapping
    /// those. Nothing is waited for: [`Context::complete_reads`] takes the result, so a caller
    /// may submit more work (the next block of a streamed product) before it waits.
    pub(crate) fn submit_reads(
        &self,
        routine: &'static str,
        dispatches: &[Dispatch<'_>],
        after: Vec<Command>,
        reads: &[Read<'_>],
        wait: Wait,
    ) -> Result<Option<Submitted>> {
        self.take_device_error(routine)?;
        let mut clock = std::time::Instant::now();
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        // Pipelines first, outside the pending lock (a first use compiles one).
        let mut pipelines = Vec::with_capacity(dispatches.len());
        for d in dispatches {
            match self.pipeline(routine, d.shader, d.entry, d.elem, &d.constants) {
                Ok(p) => pipelines.push(p),
                Err(e) => {
                    drop(self.pop_scopes(routine, scope, oom));
                    return Err(e);
                }
            }
        }
        self.counters.step("pipelines", &mut clock.clone());
        self.counters
            .dispatches
            .fetch_add(dispatches.len() as u64, Ordering::Relaxed);
        let profiling = self.profiling();
        let some = !dispatches.is_empty() || !after.is_empty();
        let mut fresh = Vec::new();
        if reads.is_empty() && (!profiling || (self.batching() && some)) {
            {
                let mut pending = lock(&self.pending);
                let mut step = std::time::Instant::now();
                let commands = self.record(&mut pending, dispatches, &pipelines, after, &mut fresh);
                self.counters.step("record", &mut step);
                pending.commands.extend(commands);
                if pending.commands.len() >= self.pending_limit() {
                    self.submit_held(&mut pending);
                }
            }
            self.counters.lap(Phase::Record, &mut clock);
            let mut step = clock;
            self.pop_scopes(routine, scope, oom)
                .and(self.take_device_error(routine))?;
            self.keep_groups(fresh);
            self.counters.step("held scopes", &mut step);
            return Ok(None);
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
            // An open params page holds only slots of held commands: none without them.
            let had_earlier = !pending.commands.is_empty();
            let mut step = std::time::Instant::now();
            let commands = self.record(&mut pending, dispatches, &pipelines, after, &mut fresh);
            self.counters.step("record", &mut step);
            self.counters.lap(Phase::Record, &mut clock);
            let mut step = clock;
            let mut all = pending.take();
            // Commands of earlier calls (with the params page, which holds their slots), kept to
            // be submitted again on their own if this call's submission fails (wgpu rejects a
            // failed submission whole): an error of this call must not undo an upload or a
            // held call made before it.
            let earlier = had_earlier.then(|| all.clone());
            all.extend(commands);
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some(routine),
                });
            let mut staged = self.encode(&mut encoder, all, timer.as_ref().map(|(set, _, _)| set));
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
            self.counters.step("encode", &mut step);
            let commands = encoder.finish();
            self.counters.step("finish", &mut step);
            let index = self.queue.submit(Some(commands));
            self.counters.submissions.fetch_add(1, Ordering::Relaxed);
            self.counters.step("queue.submit", &mut step);
            let submitted = self
                .pop_scopes(routine, scope, oom)
                .and_then(|()| self.take_device_error(routine));
            self.counters.step("error scopes", &mut step);
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
                staged = self.encode(&mut encoder, earlier, None);
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
            self.counters.step("later chunks", &mut step);
            (staged, index, submitted, later)
        };
        let mut step = std::time::Instant::now();
        for (b, u) in staged {
            self.staging.recycle_write(b, u);
        }
        self.counters.step("staging map_async", &mut step);
        self.counters.lap(Phase::Submit, &mut clock);
        submitted?;
        self.keep_groups(fresh);
        let mut step = std::time::Instant::now();
        let mapped: Vec<MapFlag> = chunks
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
        self.counters.step("read-back map_async", &mut step);
        // Pipelined means at least two chunks, the later ones in submissions of their own.
        debug_assert_eq!(pipelined, !later.is_empty());
        Ok(Some(Submitted {
            index,
            chunks,
            mapped,
            later,
            timer: timer.zip(timer_flag),
        }))
    }

    /// The second half of [`Context::execute_reads_in`]: wait as `wait` says for the copies
    /// that [`Context::submit_reads`] submitted (`reads` as they were given to it), then hand
    /// the mapped memory to the reads' sinks.
    pub(crate) async fn complete_reads(
        &self,
        routine: &'static str,
        submitted: Submitted,
        reads: &mut [Read<'_>],
        wait: Wait,
    ) -> Result<()> {
        let Submitted {
            index,
            chunks,
            mapped,
            later,
            timer,
        } = submitted;
        let pipelined = !later.is_empty();
        let (timer, timer_flag) = timer.unzip();
        // The phases from here on: a caller may have done other work since the submission.
        let mut clock = std::time::Instant::now();
        match wait {
            Wait::Block => {
                // A short call is done within microseconds: poll for it first (a blocking wait's
                // wake-up costs tens of microseconds on a GPU driver), then block.
                let done = |f: &MapFlag| lock(f).is_some();
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
                let mut step = std::time::Instant::now();
                self.counters.add_step("spin", step.duration_since(spun));
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
                self.counters.step("block", &mut step);
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
        let ok = |f: &MapFlag| *lock(f) == Some(true);

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
        mapped: &[MapFlag],
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
}
