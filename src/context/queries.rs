//! The queries and settings of a [`Context`]: adapter, limits, features, counters, pool,
//! profiling.

use std::sync::atomic::Ordering;
use std::sync::OnceLock;

use super::{device_binding, device_buffer, Context, Phase};
use crate::error::{Error, Result};

impl Context {
    /// The adapter's name, backend, vendor and device type.
    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        &self.info
    }

    /// The limits the device was created with (the adapter's own).
    pub fn limits(&self) -> &wgpu::Limits {
        &self.limits
    }

    /// The most bytes of a storage buffer that one dispatch binds: the adapter's
    /// `max_storage_buffer_binding_size` (and `max_buffer_size`), or less after
    /// [`Context::set_max_binding`]. Operands larger than this are processed in parts (windows
    /// of their buffer, each within this size: `layout.rs`); an operand itself may be as large
    /// as `max_buffer_size`.
    pub fn max_binding(&self) -> u64 {
        self.max_binding.load(Ordering::Relaxed)
    }

    /// Lower the bytes one dispatch binds (see [`Context::max_binding`]) to `bytes`, rounded
    /// down to a multiple of 16 and kept between 4 KiB and the adapter's own limit, so that
    /// the chunked paths of large operands can be tested at small sizes; results do not
    /// change beyond each routine's DESIGN.md §2 metric. Returns the limit now in force.
    pub fn set_max_binding(&self, bytes: u64) -> u64 {
        let top = device_binding(&self.limits).min(self.max_buffer());
        let v = (bytes / 16 * 16).clamp(4096, top.max(4096));
        self.max_binding.store(v, Ordering::Relaxed);
        v
    }

    /// The most bytes of one device buffer: the adapter's `max_buffer_size` (rounded down to a
    /// multiple of 256), or less after [`Context::set_max_buffer`]. An operand larger than
    /// this is held in several buffers (*segments*, issue 15) by the routines that process
    /// operands in parts; the others return [`Error::TooLarge`] for it.
    pub fn max_buffer(&self) -> u64 {
        self.max_buffer.load(Ordering::Relaxed)
    }

    /// The most bytes of device memory one operand may take: the device-local memory of the
    /// adapter (its largest Vulkan `DEVICE_LOCAL` heap; `u64::MAX` where the backend does not
    /// say), or less after [`Context::set_max_memory`]. An operand past it is
    /// [`Error::TooLarge`](crate::Error::TooLarge) before anything is allocated or computed
    /// (issue 15).
    pub fn max_memory(&self) -> u64 {
        self.max_memory.load(Ordering::Relaxed)
    }

    /// Lower the device memory one operand may take (see [`Context::max_memory`]) to `bytes`,
    /// at most the device's own, so that the past-memory error can be tested at small sizes.
    /// Returns the value set.
    pub fn set_max_memory(&self, bytes: u64) -> u64 {
        let v = bytes.min(self.device_memory);
        self.max_memory.store(v, Ordering::Relaxed);
        v
    }

    /// Lower the bytes of one device buffer (see [`Context::max_buffer`]) to `bytes`, rounded
    /// down to a multiple of 256 and kept between 64 KiB and the adapter's own limit, so that
    /// the segmented paths of operands past one buffer can be tested at small sizes; the
    /// binding limit ([`Context::max_binding`]) is lowered to at most half of it. Results do
    /// not change beyond each routine's DESIGN.md §2 metric. Returns the limit now in force.
    pub fn set_max_buffer(&self, bytes: u64) -> u64 {
        let v = (bytes / 256 * 256).clamp(64 << 10, device_buffer(&self.limits).max(64 << 10));
        self.max_buffer.store(v, Ordering::Relaxed);
        if self.max_binding() > v / 2 {
            self.set_max_binding(v / 2);
        }
        v
    }

    /// Bytes of C per block when a host-form product (`sgemm`, `dgemm` with A and C on the
    /// host) is streamed: C's rows are cut into blocks of about this many bytes, and each
    /// block's upload of A, product and read-back are submitted before any is waited for, so
    /// that the host's copies overlap the device's work. A product streams when C holds at least
    /// two blocks. 0: never. Default: `WGBLAS_STREAM_MIB` (mebibytes), else 16 MiB.
    pub fn stream_block(&self) -> u64 {
        self.stream_block.load(Ordering::Relaxed)
    }

    /// Set [`Context::stream_block`] to `bytes` (0 turns streaming off), so that the streamed
    /// path can be tested at small sizes; results do not change beyond each routine's
    /// DESIGN.md §2 metric. Returns the value set.
    pub fn set_stream_block(&self, bytes: u64) -> u64 {
        self.stream_block.store(bytes, Ordering::Relaxed);
        bytes
    }

    /// Bytes of device memory allocated by this context's device now (buffers of every kind:
    /// operands, pooled and scratch buffers, staging), from wgpu's allocator report; `None`
    /// where the backend has no report. For measuring the memory a call holds.
    pub fn allocated_bytes(&self) -> Option<u64> {
        self.device
            .generate_allocator_report()
            .map(|r| r.total_allocated_bytes)
    }

    /// The optional features enabled on the device.
    pub fn features(&self) -> wgpu::Features {
        self.features
    }

    /// Whether the f64 routines (`idamax`, `dasum`) run in native f64 (the adapter has
    /// `SHADER_F64` and the fallback is not forced).
    pub fn native_f64(&self) -> bool {
        self.features.contains(wgpu::Features::SHADER_F64)
            && !self.force_f64_fallback.load(Ordering::Relaxed)
    }

    /// Force (or stop forcing) the f64 fallback path on an adapter that has `SHADER_F64`, so both
    /// paths can be tested on one machine. The environment variable `WGBLAS_F64_FALLBACK` sets it
    /// at creation.
    pub fn set_force_f64_fallback(&self, force: bool) {
        self.force_f64_fallback.store(force, Ordering::Relaxed);
    }

    /// Number of command-buffer submissions made on this context so far.
    pub fn submissions(&self) -> u64 {
        self.counters.submissions.load(Ordering::Relaxed)
    }

    /// Number of device-to-host read-backs made on this context so far.
    pub fn readbacks(&self) -> u64 {
        self.counters.readbacks.load(Ordering::Relaxed)
    }

    /// Number of host-to-device uploads made on this context so far: one per host array (or
    /// slice) copied into a device buffer, whether by [`Context::upload_vector`] and its kin or
    /// by a host-form routine for each of its operands, however many staging chunks the copy
    /// takes. A chain of resident calls adds none; buffers cleared on the device
    /// ([`GpuVector::zeros`](crate::GpuVector::zeros)) are not uploads.
    pub fn uploads(&self) -> u64 {
        self.counters.uploads.load(Ordering::Relaxed)
    }

    /// Wall time spent so far in each [`Phase`] of the calls made on this context, summed over
    /// every thread (for profiling host calls: take the difference around a call).
    pub fn phase_times(&self) -> Vec<(Phase, std::time::Duration)> {
        Phase::ALL
            .iter()
            .map(|&p| {
                let ns = self.counters.phase_ns[p as usize].load(Ordering::Relaxed);
                (p, std::time::Duration::from_nanos(ns))
            })
            .collect()
    }

    /// Wall time spent so far in each step inside the Submit and Wait phases of calls that read
    /// back (encode, `finish`, `Queue::submit`, error scopes, `map_async` of the staging
    /// buffers, spin, blocking wait, fault-in of fresh outputs), summed over every thread: for
    /// the host-path report; the names and steps may change.
    #[doc(hidden)]
    pub fn step_times(&self) -> Vec<(&'static str, std::time::Duration)> {
        super::STEPS
            .iter()
            .zip(&self.counters.step_ns)
            .map(|(&n, ns)| {
                (
                    n,
                    std::time::Duration::from_nanos(ns.load(Ordering::Relaxed)),
                )
            })
            .collect()
    }

    /// How long a call that reads results back polls for its submission before it blocks:
    /// [`crate::lab::set_spin_us`], else `WGBLAS_SPIN_US` microseconds (default 1000 on a GPU,
    /// 0 on a CPU adapter such as
    /// lavapipe, whose threads need the cores). On the H200 a 1024-element host `sdot` took
    /// 160 µs blocking at once, 116 µs with 200 µs of polling and 107 µs with 1000.
    pub(crate) fn spin_wait(&self) -> std::time::Duration {
        static SPIN_US: OnceLock<Option<u64>> = OnceLock::new();
        let env = *SPIN_US.get_or_init(|| {
            std::env::var("WGBLAS_SPIN_US")
                .ok()
                .and_then(|v| v.parse().ok())
        });
        let set = crate::lab::spin_us().map(u64::from);
        let us = set
            .or(env)
            .unwrap_or(if self.info.device_type == wgpu::DeviceType::Cpu {
                0
            } else {
                1000
            });
        std::time::Duration::from_micros(us)
    }

    /// Number of compute dispatches recorded on this context so far.
    pub fn dispatches(&self) -> u64 {
        self.counters.dispatches.load(Ordering::Relaxed)
    }

    /// Bind groups created so far. A chain of calls that binds the same buffers with the same
    /// params (no field read from a device scalar) reuses one cached bind group from its third
    /// call on, so this stays flat along such a chain.
    pub fn bind_groups_created(&self) -> u64 {
        self.counters.bind_groups.load(Ordering::Relaxed)
    }

    /// Submit the commands held back by calls whose results stay on the device (see
    /// [`GpuVector`](crate::GpuVector)). Read-backs do this by themselves; call it to start the
    /// device working before the next read-back. Held commands are also submitted on their own
    /// once 1024 are held, and by an upload of more than one 32 MiB staging chunk (see
    /// [`crate::resident`]).
    pub fn flush(&self) {
        self.flush_pending();
    }

    /// `Err` with the last wgpu error that reached no error scope (out of memory while creating
    /// a buffer for a held command, device lost), once.
    pub(crate) fn take_device_error(&self, routine: &'static str) -> Result<()> {
        match crate::pool::lock(&self.device_error).take() {
            Some(detail) => Err(Error::Gpu { routine, detail }),
            None => Ok(()),
        }
    }

    /// Staging buffers (host-visible, for uploads and read-backs) created so far; pooled ones
    /// are reused, so a steady stream of host calls stops creating them.
    pub fn staging_buffers_created(&self) -> u64 {
        self.staging.created()
    }

    /// Bytes of free buffers the pool holds now (at most [`Context::pool_limit`]).
    pub fn pool_bytes(&self) -> u64 {
        crate::pool::stats(&self.pool).0
    }

    /// Storage buffers created so far (a pooled buffer that is reused is not created again).
    pub fn buffers_created(&self) -> u64 {
        crate::pool::stats(&self.pool).1
    }

    /// The most bytes of free buffers the pool keeps (default 2 GiB on a GPU, 256 MiB on a CPU
    /// adapter such as lavapipe, whose buffers are host memory). A returning buffer that does
    /// not fit makes room by dropping free buffers of other sizes, largest first.
    pub fn pool_limit(&self) -> u64 {
        crate::pool::limit(&self.pool)
    }

    /// Change the pool's bound, in bytes; free buffers past it are released.
    pub fn set_pool_limit(&self, bytes: u64) {
        crate::pool::set_limit(&self.pool, bytes);
    }

    /// Measure GPU time with timestamp queries (where the adapter has `TIMESTAMP_QUERY`): each
    /// call then waits for its submission and records the time from the start to the end of its
    /// compute pass, read by [`Context::last_gpu_time`]. Off by default.
    pub fn set_profiling(&self, on: bool) {
        self.profiling.store(on, Ordering::Relaxed);
    }

    /// GPU time (timestamp queries) of all the device work that `f` records, submitted as one
    /// batch: the calls `f` makes are held back, not submitted one by one (even with
    /// [`Context::set_profiling`] on), then go to the device in one submission with timestamps
    /// at the start of its first compute pass and the end of its last. Dividing by the number
    /// of calls gives the time per call of back-to-back calls, the way CUDA libraries are timed
    /// (a batch of launches between two events), with the device kept busy throughout.
    ///
    /// `f` should make resident calls only: a call that reads results back submits what is
    /// held with it. While `f` runs, every call on this context, from any thread, is held.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] (routine `"time_batch"`) where the adapter lacks
    /// `TIMESTAMP_QUERY`, `f` recorded no compute pass, or `f` submitted work of its own (a
    /// read-back); [`Error::Gpu`] as for any call.
    pub fn time_batch(&self, f: impl FnOnce()) -> Result<std::time::Duration> {
        const R: &str = "time_batch";
        if !self.features.contains(wgpu::Features::TIMESTAMP_QUERY) {
            return Err(Error::InvalidArgument {
                routine: R,
                arg: "f",
                detail: format!("{} has no TIMESTAMP_QUERY", self.info.name),
            });
        }
        self.synchronize()?;
        let was = self.profiling.swap(true, Ordering::Relaxed);
        self.batching.store(true, Ordering::Relaxed);
        let (before, submitted) = (self.dispatches(), self.submissions());
        f();
        let recorded = self.dispatches() > before;
        let split = self.submissions() != submitted;
        self.batching.store(false, Ordering::Relaxed);
        self.last_gpu_ns.store(u64::MAX, Ordering::Relaxed);
        let run = self.execute_reads(R, &[], Vec::new(), &mut []);
        self.profiling.store(was, Ordering::Relaxed);
        run?;
        if split {
            return Err(Error::InvalidArgument {
                routine: R,
                arg: "f",
                detail: "f submitted work (a read-back): the batch was not one submission".into(),
            });
        }
        match self.last_gpu_time() {
            Some(t) if recorded => Ok(t),
            _ => Err(Error::InvalidArgument {
                routine: R,
                arg: "f",
                detail: "f recorded no compute pass".into(),
            }),
        }
    }

    /// Whether calls are held back for [`Context::time_batch`].
    pub(crate) fn batching(&self) -> bool {
        self.batching.load(Ordering::Relaxed)
    }

    /// Whether GPU timing is on and supported.
    pub(crate) fn profiling(&self) -> bool {
        self.profiling.load(Ordering::Relaxed)
            && self.features.contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    pub(crate) fn record_gpu_time(&self, ns: u64) {
        self.last_gpu_ns.store(ns, Ordering::Relaxed);
    }

    /// GPU time (timestamp queries, kernels only: no upload or read-back) of the last
    /// submission made with profiling on, or `None` if there was none. With several threads
    /// on one context, it is the last submission of any of them.
    pub fn last_gpu_time(&self) -> Option<std::time::Duration> {
        match self.last_gpu_ns.load(Ordering::Relaxed) {
            u64::MAX => None,
            ns => Some(std::time::Duration::from_nanos(ns)),
        }
    }
}
