//! Kernel-variant switches for measurement and tests (a kernel lab): one binary can time and
//! check every variant of the Level 1 and Level 2 kernels side by side, with no rebuild.
//!
//! Every switch defaults to [`Variant::Auto`], the choice the drivers make by themselves
//! (documented on each routine). The switches are process-wide; set them only from a report
//! binary or a test that holds them for its whole run. They change speed, never results beyond
//! the routine's DESIGN.md §2 metric.

use std::sync::atomic::{AtomicU8, Ordering};

/// The kernel family a driver may be forced onto.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Variant {
    /// The driver's own choice (by element type, strides, alignment and shape).
    Auto = 0,
    /// The first kernels of the crate: two-pass reductions, one element per invocation,
    /// one-row-per-invocation or one-row-per-workgroup gemv; sscal with a dummy y, a cleared
    /// gemv scratch, strsv's substitution at two barriers per column; dgemv, dsymv and dtrmv
    /// on the Level 3 tile engine.
    Legacy = 1,
    /// The new kernels, without `vec4` loads (scalar, strided addressing).
    Scalar = 2,
    /// Kernels written but not chosen by default, because no measurement shows them faster
    /// (yet): ssymv's `symv_lines` (f32; the default ssymv runs two passes of the wide kernels
    /// since `benches/results/2026-12-01-s6/q2`, 1245–1299 GB/s against 365–923), and from
    /// round 2 of kern12 (issue 12) sgemv's and strmv's `gemv_coldot4` (4 columns' loads in
    /// flight per invocation, against `gemv_coldot`'s 1) and the rank updates' `main_lines` (4
    /// lines per invocation, each factor of the exact products formed once, the 4 units loaded
    /// before any store, against `main_vec4`). On the H200 (2026-12-01,
    /// `benches/results/2026-12-01-s6/q1`, n = 16384) both lost: `gemv_coldot4` 1570–2391
    /// against 2389–4157 GB/s, `main_lines` 892–1280 against 2044–2408, and the f64-sum rank
    /// updates ([`Driver::RankUpdateF64Sum`]) 728–1093. Round 2's other kernels won: ssymv's
    /// `symv_lines` (923–925 against 290–718 GB/s; dsymv's default, and f32's until the two
    /// passes beat it) and dgemv, dsymv, dtrmv on the wide kernels in f64 (the default).
    /// Round 1's `symv_strip` and `main_lines` with one load in flight measured slower on the
    /// H200 (2026-12-01: ssymv 661 against 708 GB/s, ssyr 1507 against 2017, sger 1812
    /// against 2393); `symv_strip` is gone. On [`Driver::DeviceScalar`]: see there.
    /// Elsewhere the same as `Auto`.
    Experimental = 3,
}

/// Which driver a switch applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Driver {
    /// sdot, sasum, snrm2, isamax (f32 reductions; every single pass zeroes its counter of
    /// finished workgroups by a one-invocation dispatch before it, in the same compute pass,
    /// instead of a clear command on its scratch buffer; `Legacy`, two passes, clears).
    Reduction = 0,
    /// saxpy, scopy, sswap, sscal, srot, srotm.
    Elementwise = 1,
    /// sgemv, ssymv and strmv, and (where their operands fit one storage binding) dgemv, dsymv
    /// and dtrmv on the same kernels in f64 (`Legacy`: those three on the tile engine).
    Matvec = 2,
    /// sger, ssyr and ssyr2 (`Auto`: the `vec4` kernel where the unit stride allows it;
    /// `Experimental`: there the `vec4` kernel on 4 lines per invocation; `Scalar` and `Legacy`:
    /// the one-element kernel).
    RankUpdate = 3,
    /// strsv and dtrsv (`Legacy`: the diagonal block's substitution with two barriers per
    /// column, as first written; `Experimental`: `wgsl/level2/trsv_step.wgsl`, one workgroup
    /// solving each block by sub-blocks of [`trsv_sub_block`] rows with a look-ahead onto the
    /// next block while the others update the rows past it, no copy; the others: one barrier
    /// per column, the default).
    Trsv = 4,
    /// sger, ssyr and ssyr2 with the exact sum formed in f64 (`Experimental`, where the adapter
    /// has `SHADER_F64` and the `vec4` kernel would run: `rank_update_f64sum.wgsl`, 4 lines per
    /// invocation; it takes precedence over [`Driver::RankUpdate`]); the others: as
    /// [`Driver::RankUpdate`] says.
    RankUpdateF64Sum = 5,
    /// How f32 saxpy and sscal take a device alpha (a [`GpuScalar`](crate::GpuScalar)): every
    /// variant but `Legacy` (the default since `benches/results/2026-12-02-s7/q1`), read by
    /// the kernel from the scalar's own buffer, a storage binding, so that a chain of such
    /// calls records in one compute pass with no copy; `Legacy`, copied into the dispatch's
    /// params slot just before it runs (a copy command, which ends the compute pass).
    DeviceScalar = 6,
}

static SWITCHES: [AtomicU8; 7] = [
    AtomicU8::new(0),
    AtomicU8::new(0),
    AtomicU8::new(0),
    AtomicU8::new(0),
    AtomicU8::new(0),
    AtomicU8::new(0),
    AtomicU8::new(0),
];

/// Force `driver` onto `variant` (process-wide) until the next call.
pub fn set(driver: Driver, variant: Variant) {
    SWITCHES[driver as usize].store(variant as u8, Ordering::Relaxed);
}

/// The variant `driver` is set to.
pub fn get(driver: Driver) -> Variant {
    match SWITCHES[driver as usize].load(Ordering::Relaxed) {
        1 => Variant::Legacy,
        2 => Variant::Scalar,
        3 => Variant::Experimental,
        _ => Variant::Auto,
    }
}

/// Cap on the workgroups of a single-pass f32 reduction (sdot, sasum, snrm2, isamax); 0: the
/// driver's own (528).
static REDUCTION_GROUPS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Cap the workgroups of the single-pass f32 reductions at `groups` (process-wide; 0: the
/// default, 528; at most 1024), for measuring the finish's share: the last workgroup combines
/// one partial accumulator per workgroup. Results stay within the routines' metrics (the
/// grid-stride loop takes the rest).
pub fn set_reduction_groups(groups: u32) {
    REDUCTION_GROUPS.store(groups, Ordering::Relaxed);
}

/// The cap set by [`set_reduction_groups`] (0: none).
pub fn reduction_groups() -> u32 {
    REDUCTION_GROUPS.load(Ordering::Relaxed)
}

/// Rows one invocation substitutes at a time in `trsv_step.wgsl` (0: the default, 8).
static TRSV_SUB: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Substitute `rows` rows at a time (4, 8 or 16; 0: the default, 8; others are taken as 8)
/// in the look-ahead triangular solve ([`Driver::Trsv`] on [`Variant::Experimental`]),
/// process-wide: one invocation solves them in registers, then every later row of the
/// diagonal block subtracts their products (two barriers per `rows` rows). Results stay
/// within strsv's metric.
pub fn set_trsv_sub_block(rows: u32) {
    TRSV_SUB.store(rows, Ordering::Relaxed);
}

/// The rows set by [`set_trsv_sub_block`], resolved (4, 8 or 16).
pub fn trsv_sub_block() -> u32 {
    match TRSV_SUB.load(Ordering::Relaxed) {
        4 => 4,
        16 => 16,
        _ => 8,
    }
}

/// Whether the look-ahead triangular solve prefetches (0: no, the default).
static TRSV_PREFETCH: AtomicU8 = AtomicU8::new(0);

/// Add to each dispatch of the look-ahead triangular solve ([`Driver::Trsv`] on
/// [`Variant::Experimental`]) a workgroup that reads the tiles the next dispatch's solver
/// loads first (its diagonal block and look-ahead blocks), so that they come from the L2
/// cache then (process-wide; off by default). Results do not change.
pub fn set_trsv_prefetch(on: bool) {
    TRSV_PREFETCH.store(on as u8, Ordering::Relaxed);
}

/// Whether [`set_trsv_prefetch`] is on.
pub fn trsv_prefetch() -> bool {
    TRSV_PREFETCH.load(Ordering::Relaxed) != 0
}

/// Threads of the large host copies (0: all of the copy pool's, the default).
static COPY_THREADS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Split the large host copies (upload fills, read-back copy-outs, page faults of fresh
/// outputs) over at most `threads` threads (process-wide; 0: the default, every thread of the
/// copy pool, which has `WGBLAS_COPY_THREADS` threads or one per core, at most 16; a larger
/// value is capped at the pool's size), so that one report binary can compare thread counts.
/// Results do not change.
pub fn set_copy_threads(threads: u32) {
    COPY_THREADS.store(threads, Ordering::Relaxed);
}

/// The cap set by [`set_copy_threads`] (0: none).
pub fn copy_threads() -> u32 {
    COPY_THREADS.load(Ordering::Relaxed)
}

/// Whether fresh read-back outputs are faulted in while the device copies (1: yes, the default).
static PREFAULT: AtomicU8 = AtomicU8::new(1);

/// Fault in the pages of a fresh read-back output (`GpuVector::to_array`, `Context::read_back`
/// and the other reads into a new array) on the copy threads while the device copies the
/// results into staging memory, instead of in the copy out of staging memory that follows
/// (process-wide; on by default). A fresh array's pages cost a page fault each on first write,
/// which on the H200 host halved the read-back's speed
/// (`benches/results/2026-12-01-s6/final/l12.log`: 12.8 GB/s into a new array, 26.6 into an
/// existing one); faulting them in during the device copy took a 256 MiB read-back from 12.2
/// to 15.4 GB/s (`benches/results/2026-12-02-s7/q1/host.log`). Results do not change.
pub fn set_prefault_outputs(on: bool) {
    PREFAULT.store(on as u8, Ordering::Relaxed);
}

/// Whether [`set_prefault_outputs`] is on.
pub fn prefault_outputs() -> bool {
    PREFAULT.load(Ordering::Relaxed) != 0
}

/// Microseconds a read-back polls before it blocks, set at run time (`u32::MAX`: not set).
static SPIN_US: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(u32::MAX);

/// Poll for `us` microseconds before blocking in each read-back's wait (process-wide; `None`:
/// the default, `WGBLAS_SPIN_US` or 1000 µs on a GPU, 0 on a CPU adapter), so that one report
/// binary can compare waits. Results do not change.
pub fn set_spin_us(us: Option<u32>) {
    SPIN_US.store(
        us.map_or(u32::MAX, |u| u.min(u32::MAX - 1)),
        Ordering::Relaxed,
    );
}

/// The spin set by [`set_spin_us`] (`None`: not set).
pub fn spin_us() -> Option<u32> {
    match SPIN_US.load(Ordering::Relaxed) {
        u32::MAX => None,
        us => Some(us),
    }
}

/// The runtime checks naga compiles into every shader module (see [`set_shader_checks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum ShaderChecks {
    /// The crate's choice per shader (the default): [`ShaderChecks::Unchecked`] for the Level 1
    /// shaders (`wgsl/level1/elementwise.wgsl`, `wgsl/level1/reduction.wgsl`), whose H200
    /// figures it raised (srot 3142 to 4009 GB/s, sasum, snrm2 and isamax by 1–2%:
    /// `benches/results/2026-12-02-s7/q1/l12.log`); [`ShaderChecks::Checked`] for the others,
    /// where the same run found it mixed (sgemm n = 4096 −4%, n = 1024 +1%).
    #[default]
    Auto = 0,
    /// wgpu's default (`ShaderRuntimeChecks::checked`): every check on.
    Checked = 3,
    /// Without naga's index clamps (`bounds_checks: false`): on Vulkan one `UMin` less per
    /// access to a workgroup or private array (`../shared/research/wgpu30-lavapipe-probe.md`
    /// §5). Storage buffers keep the driver's robust buffer access, which wgpu always enables.
    NoIndexClamps = 1,
    /// Also without naga's loop bounding (`force_loop_bounding: false`: a counter per loop);
    /// integer division keeps its guards.
    Unchecked = 2,
}

impl ShaderChecks {
    /// The mode `shader` (its path under `wgsl/`) is built with: `self`, or for
    /// [`ShaderChecks::Auto`] the crate's choice for that shader.
    pub(crate) fn resolve(self, shader: &str) -> ShaderChecks {
        match self {
            ShaderChecks::Auto if shader.starts_with("level1/") => ShaderChecks::Unchecked,
            ShaderChecks::Auto => ShaderChecks::Checked,
            other => other,
        }
    }
}

static SHADER_CHECKS: AtomicU8 = AtomicU8::new(0);

/// Build the shader modules of later pipelines with `checks` (process-wide; the pipeline cache
/// of a [`Context`](crate::Context) keys on it, so one process can time both forms of every
/// kernel, Level 1 to 3). For measurement only: [`ShaderChecks::Auto`] is the default,
/// and results are the same in every mode (the crate's kernels index their arrays in range by
/// construction).
pub fn set_shader_checks(checks: ShaderChecks) {
    SHADER_CHECKS.store(checks as u8, Ordering::Relaxed);
}

/// The mode set by [`set_shader_checks`].
pub fn shader_checks() -> ShaderChecks {
    match SHADER_CHECKS.load(Ordering::Relaxed) {
        1 => ShaderChecks::NoIndexClamps,
        2 => ShaderChecks::Unchecked,
        3 => ShaderChecks::Checked,
        _ => ShaderChecks::Auto,
    }
}
