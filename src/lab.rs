//! Kernel-variant switches for measurement and tests (a kernel lab): one binary can time and
//! check every variant of the Level 1 and Level 2 kernels side by side, with no rebuild.
//!
//! Every switch defaults to [`Variant::Auto`], the choice the drivers make by themselves
//! (documented on each routine). The switches are process-wide; set them only from a report
//! binary or a test that holds them for its whole run. They change speed, never results beyond
//! the routine's DESIGN.md §2 metric.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

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
    /// flight per invocation, against `gemv_coldot`'s 1; on the H200, 2026-12-01,
    /// `benches/results/2026-12-01-s6/q1`, n = 16384: 1570–2391 against 2389–4157 GB/s). The
    /// rank updates' `main_lines` (4 lines per invocation: 892–1280 against 2044–2408 GB/s) and
    /// their exact sum in f64 (`rank_update_f64sum.wgsl`, 728–1093) lost there too and were
    /// removed in session 8. Round 2's other kernels won: ssymv's `symv_lines` (923–925
    /// against 290–718 GB/s; dsymv's default, and f32's until the two passes beat it) and
    /// dgemv, dsymv, dtrmv on the wide kernels in f64 (the default). Round 1's `symv_strip`
    /// measured slower on the H200 (2026-12-01: ssymv 661 against 708 GB/s) and is gone. On
    /// [`Driver::DeviceScalar`]: see there. Elsewhere the same as `Auto`.
    Experimental = 3,
}

/// Which driver a switch applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Driver {
    /// sdot, sasum, snrm2, isamax and their f64 twins (every single pass zeroes its counter of
    /// finished workgroups by a one-invocation dispatch before it, in the same compute pass,
    /// instead of a clear command on its scratch buffer; `Legacy`, two passes, clears;
    /// `Scalar`: no `vec4` loads). `Legacy` here also selects [`Driver::ReductionF64`]'s.
    Reduction = 0,
    /// saxpy, scopy, sswap, sscal, srot, srotm.
    Elementwise = 1,
    /// sgemv, ssymv and strmv, and (where their operands fit one storage binding) dgemv, dsymv
    /// and dtrmv on the same kernels in f64 (`Legacy`: those three on the tile engine).
    Matvec = 2,
    /// sger, ssyr and ssyr2 (`Auto`: where the unit stride allows vec4 units, `main_rows`,
    /// tiles of 2 or 8 lines of vec4 units with each index's exact factors formed once per
    /// invocation, the default since `benches/results/2026-12-03-s14/q4`, or, with
    /// [`set_rank_rows`], `main_pre`, the default before; `Experimental`: `main_pre` with two
    /// units per invocation; `Legacy`: `main_vec4`, which forms the factors for every element;
    /// `Scalar`: the one-element kernel; all the same bits).
    RankUpdate = 3,
    /// strsv and dtrsv (`Auto` and `Experimental`, the default since
    /// `benches/results/2026-12-02-s8/q1`: `wgsl/level2/trsv_step.wgsl`, one workgroup solving
    /// each block by sub-blocks of [`trsv_sub_block`] rows with a look-ahead onto the next
    /// block while the others update the rows past it, no copy; `Scalar`: the block kernel of
    /// `wgsl/level2/trsv.wgsl`, every workgroup solving the diagonal block with one barrier
    /// per column, then updating its rows; `Legacy`: that kernel with two barriers per column,
    /// as first written).
    Trsv = 4,
    /// How f32 saxpy and sscal take a device alpha (a [`GpuScalar`](crate::GpuScalar)): every
    /// variant but `Legacy` (the default since `benches/results/2026-12-02-s7/q1`), read by
    /// the kernel from the scalar's own buffer, a storage binding, so that a chain of such
    /// calls records in one compute pass with no copy; `Legacy`, copied into the dispatch's
    /// params slot just before it runs (a copy command, which ends the compute pass).
    DeviceScalar = 5,
    /// ddot, dasum, dnrm2 and idamax (f64 data, with or without `SHADER_F64`): `Legacy`, the
    /// first kernels, two passes with one term per invocation and loop iteration (idamax
    /// comparing in f64 where the adapter has it), the scratch cleared; every other variant,
    /// the f32 reductions' loops (`vec4` loads of unit-stride operands, 4 in flight): idamax
    /// on its exact integer keys in the single pass, ddot, dasum and dnrm2's bands split in a
    /// partial dispatch and `final_sum` (an f64 cannot pass through the single pass's `u32`
    /// atomics). The fallback's dasum (no `SHADER_F64`) stays on the two passes.
    ReductionF64 = 6,
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

/// Length below which an element-wise call whose length is not a multiple of 4 runs as one
/// scalar dispatch, and a one-workgroup reduction skips its counter dispatch (0: never).
static ONE_DISPATCH_BELOW: std::sync::atomic::AtomicU32 =
    std::sync::atomic::AtomicU32::new(ONE_DISPATCH_DEFAULT);

/// The default of [`set_one_dispatch_below`]: 16,384 elements (64 KiB of f32), below which a
/// call costs its dispatches, not its bytes. Since the H200 run
/// `benches/results/2026-12-02-s8/q1/cg.log`: resident CG on 1138_bus (n = 1138) from 16 to
/// 10 dispatches an iteration, 71 → 55 ms wall (warm), the same 610 iterations and residual.
pub const ONE_DISPATCH_DEFAULT: u32 = 16_384;

/// Run calls on fewer than `n` elements in one dispatch where they take two (process-wide; 0:
/// never; the default [`ONE_DISPATCH_DEFAULT`]):
/// - the element-wise routines (f32 axpy, copy, swap, scal, rot; f64 copy, swap) on a count that
///   is not a multiple of 4 run the scalar kernel (`main`, one element per invocation) over
///   all elements, instead of the `vec4` kernel over the first `4·⌊len/4⌋` and the scalar one
///   over the rest (each element is computed by the same expression in both kernels);
/// - the single-pass f32 reductions (sdot, sasum, snrm2, isamax) that run one workgroup skip
///   `clear_counter`: one workgroup is the last one without counting (the same sums).
///
/// Short vectors are bound by the dispatch, not by their bytes: CG on 1138_bus
/// (`examples/cg.rs`) runs 16 dispatches per iteration, 4 of them element-wise tails and 2
/// counter clears.
pub fn set_one_dispatch_below(n: u32) {
    ONE_DISPATCH_BELOW.store(n, Ordering::Relaxed);
}

/// The length set by [`set_one_dispatch_below`] (0: never; [`ONE_DISPATCH_DEFAULT`] unless set).
pub fn one_dispatch_below() -> u32 {
    ONE_DISPATCH_BELOW.load(Ordering::Relaxed)
}

/// Commands held back before a submission is forced (0: the default,
/// [`MAX_PENDING_DEFAULT`]).
static MAX_PENDING: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// The default of [`set_max_pending`]: a chain of resident calls is submitted every 32
/// commands (params pages, dispatches, copies), or at the next read-back, so that the device
/// runs the chain while the host records the rest. On the H200
/// (`benches/results/2026-12-03-s13/q1`, `q2`), 1000 chained saxpy calls at n = 1024 cost
/// 6.49 µs a call submitted every 1024 commands (the host recorded all, then the device ran
/// all), 2.47–2.52 every 32 in q2 (2.30–3.53 every 64, 2.65–3.62 every 256, 2.83–3.71 every
/// 16) and 2.47–5.43 over the session's six runs at 32 (host-bound: the host's recording cost
/// moved from run to run); sdot → recip → sscal 7.88 → 3.20–6.68 µs a routine call.
pub const MAX_PENDING_DEFAULT: u32 = 32;

/// Submit the held commands of resident calls once `n` are held (process-wide; 0: the
/// default, [`MAX_PENDING_DEFAULT`]; at least 1), for measuring how much of a chain's device
/// time overlaps its host-side recording: the device starts on a submission while the host
/// records the next. Results are the same for every `n` (the queue order is the program
/// order).
pub fn set_max_pending(n: u32) {
    MAX_PENDING.store(n, Ordering::Relaxed);
}

/// The count set by [`set_max_pending`] ([`MAX_PENDING_DEFAULT`] unless set).
pub fn max_pending() -> u32 {
    match MAX_PENDING.load(Ordering::Relaxed) {
        0 => MAX_PENDING_DEFAULT,
        n => n,
    }
}

/// The shape of the wide matrix-vector kernels' grid (`gemv_rowdot`, `gemv_coldot`: sgemv,
/// strmv, and dgemv, dtrmv on them), set by [`set_gemv_shape`]; 0 in a field: the driver's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GemvShape {
    /// The workgroups the kernels aim for (default 1024) before they split the columns into
    /// chunks, each chunk's partial sums then added by a second dispatch (`gemv_finish`):
    /// fewer mean fewer chunks, and one chunk no second dispatch (sgemv at n = 4096 on row-
    /// contiguous A runs 1024 row blocks, so 1 chunk by default, 2 at the target 2048). The
    /// chunks' loops stay below 16,384 trips: more chunks where needed.
    pub groups: u32,
    /// The column lanes of `gemv_coldot` (op(A)'s columns contiguous: No-trans F order, Trans
    /// C order), rounded up to a power of two, at most 256; its other invocations go over row
    /// units (fewer column lanes where op(A) has few). By default about 8 columns per lane, at
    /// most 4 lanes: a tall-skinny m×4 operator runs 1 column lane and 256 row units (each
    /// invocation loads 4 units, one after the other); with 4, 64 row units and one column per
    /// lane (each invocation loads one unit).
    pub col_lanes: u32,
}

static GEMV_SHAPE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Run the wide matrix-vector kernels on the grid `shape` (process-wide; the default,
/// `GemvShape::default()`, is the driver's own), for measuring the split's cost at n = 4096
/// and the skinny shapes of issue 12. Results stay within the routines' metrics.
pub fn set_gemv_shape(shape: GemvShape) {
    let packed = u64::from(shape.groups) | (u64::from(shape.col_lanes) << 32);
    GEMV_SHAPE.store(packed, Ordering::Relaxed);
}

/// The shape set by [`set_gemv_shape`].
pub fn gemv_shape() -> GemvShape {
    let packed = GEMV_SHAPE.load(Ordering::Relaxed);
    GemvShape {
        groups: packed as u32,
        col_lanes: (packed >> 32) as u32,
    }
}

/// Tiles per workgroup of ssymv's one-pass kernel (0: off, the default).
static SYMV_ONE_PASS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Run ssymv and dsymv (within one storage binding; not with `Legacy` on [`Driver::Matvec`])
/// in one pass over the stored triangle, `tiles` 64×64 tiles of a tile row per workgroup
/// (process-wide; 0: off, the default, the drivers' own kernels; at most 64, larger values
/// are taken as 64): `symv_pass` of `wgsl/level2/gemv_wide.wgsl` reads each stored element
/// once and forms both its products, into partial sums that `symv_sum` adds in a fixed order
/// (deterministic). Issue 12's target for ssymv at n = 16384 is 0.80 of copy bandwidth; the
/// default two passes read the triangle twice. With [`Variant::Scalar`] on `Matvec` every tile
/// is read element by element. Results stay within ssymv's metric.
pub fn set_symv_one_pass(tiles: u32) {
    SYMV_ONE_PASS.store(tiles, Ordering::Relaxed);
}

/// The tiles per workgroup set by [`set_symv_one_pass`] (0: off).
pub fn symv_one_pass() -> u32 {
    SYMV_ONE_PASS.load(Ordering::Relaxed)
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

/// The tile engine's register tile accumulated by `fma()` (0: the crate's choice, 1: off,
/// 2: on).
static GEMM_FMA: AtomicU8 = AtomicU8::new(0);

/// Accumulate the tile engine's register tile (`wgsl/level3/gemm.wgsl`, the shader's `FMA`)
/// with `fma()`, one rounding a product and sum (`Some(true)`), with `c + a·b`, which the
/// driver may contract or not (`Some(false)`), or as the crate chooses (`None`, the default)
/// (process-wide). Either stays within the §2 bounds, which allow a fused product.
pub fn set_gemm_fma(on: Option<bool>) {
    GEMM_FMA.store(on.map_or(0, |v| 1 + v as u8), Ordering::Relaxed);
}

/// The choice set by [`set_gemm_fma`].
pub fn gemm_fma() -> Option<bool> {
    match GEMM_FMA.load(Ordering::Relaxed) {
        0 => None,
        v => Some(v == 2),
    }
}

/// How the rank updates' `main_pre` forms its products (0: the crate's exact products and
/// sum, the default; 2: the plain formula, a lab ceiling only).
static RANK_PRODUCTS: AtomicU8 = AtomicU8::new(0);

/// How `main_pre` of the rank updates (`wgsl/level2/rank_update.wgsl`, the shader's `PRODUCTS`)
/// forms `A_ij + x_i·(alpha·y_j)` (process-wide): 0, Dekker's TwoProduct on split halves and
/// the exact sum rounded once (the default, the crate's rounding); 2, the plain formula
/// `A_ij + x_i·fl(alpha·y_j)`, to measure the ceiling of the kernel's walk over A (not the
/// crate's rounding: for measurements only). Other values are taken as 0. (1, the error term
/// by `fma()`, lost on the H200 and is gone: sger 1825 against 2893 GB/s.)
pub fn set_rank_products(mode: u8) {
    RANK_PRODUCTS.store(if mode == 2 { mode } else { 0 }, Ordering::Relaxed);
}

/// The mode set by [`set_rank_products`].
pub fn rank_products() -> u8 {
    RANK_PRODUCTS.load(Ordering::Relaxed)
}

/// The rank updates' kernel and lines per invocation (0: the crate's choice).
static RANK_ROWS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Where the rank updates (`sger`, `ssyr`, `ssyr2` and their f64 twins) run on vec4 units
/// ([`Driver::RankUpdate`] at `Auto`), run them on `main_rows` (`wgsl/level2/rank_update.wgsl`)
/// with `rows` lines per invocation, 2, 4 or 8, or with 1 on `main_pre` (the default of sessions
/// 12 and 13: a first dispatch forms the j index's factors into a scratch) (process-wide; 0,
/// the default: `main_rows` with 8 lines for ssyr and 2 for sger and ssyr2; other values are
/// taken as 0). All give the same bits.
pub fn set_rank_rows(rows: u32) {
    let rows = if matches!(rows, 1 | 2 | 4 | 8) {
        rows
    } else {
        0
    };
    RANK_ROWS.store(rows, Ordering::Relaxed);
}

/// The choice set by [`set_rank_rows`] (0: the crate's).
pub fn rank_rows() -> u32 {
    RANK_ROWS.load(Ordering::Relaxed)
}

/// Whether `main_rows` runs on the triangle's tiles only (off by default).
static RANK_TRI: AtomicBool = AtomicBool::new(false);

/// Where a symmetric rank update (`ssyr`, `ssyr2`) runs on `main_rows`, dispatch only the
/// tiles that meet the triangle `uplo` (about half of them), each workgroup finding its tile
/// from its index, instead of the whole square with the tiles outside returning at once
/// (process-wide; off by default). Same bits.
pub fn set_rank_tri(on: bool) {
    RANK_TRI.store(on, Ordering::Relaxed);
}

/// The choice set by [`set_rank_tri`].
pub fn rank_tri() -> bool {
    RANK_TRI.load(Ordering::Relaxed)
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

/// Bytes of the smallest part of a host copy split over threads (0: the default,
/// [`COPY_PART_DEFAULT`]).
static COPY_PART: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// The default of [`set_copy_part`]: 256 KiB. On the H200 host's 16 cores
/// (`benches/results/2026-12-03-s13/q1`, `q2`), a host sgemm at n = 512 (1 MiB a matrix) spent
/// 112–155 µs copying C out and 120–144 µs filling A and B with parts of 1 MiB (one thread
/// each), 69–99 µs and 92–108 µs with parts of 256 KiB; 2048 and the 256 MiB transfers were
/// unchanged.
pub const COPY_PART_DEFAULT: u32 = 256 << 10;

/// Split host copies (upload fills, read-back copy-outs, page faults of fresh outputs) into
/// parts of at least `bytes` bytes, one per copy thread (process-wide; 0: the default,
/// [`COPY_PART_DEFAULT`]; at least 4 KiB), with read-back handed to the copy threads in
/// pieces of twice that: a copy below two parts stays on the calling thread. For measuring
/// the medium sizes (a 512×512 f32 matrix is 1 MiB), where a thread's wake-up competes with
/// its share of the copy. Results do not change.
pub fn set_copy_part(bytes: u32) {
    COPY_PART.store(bytes, Ordering::Relaxed);
}

/// The part set by [`set_copy_part`] ([`COPY_PART_DEFAULT`] unless set).
pub fn copy_part() -> usize {
    match COPY_PART.load(Ordering::Relaxed) {
        0 => COPY_PART_DEFAULT as usize,
        n => n.max(4096) as usize,
    }
}

/// Most bytes of free staging buffers kept in each direction (0: the default, 256 MiB).
static STAGING_LIMIT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Keep at most `bytes` bytes of free staging buffers in each direction (upload, read-back)
/// for later transfers (process-wide; 0: the default, 256 MiB, eight chunks of 32 MiB); the
/// rest are released when the transfer that used them is done. For measuring whether staging
/// memory kept after large transfers slows later calls. Results do not change.
pub fn set_staging_limit(bytes: u64) {
    STAGING_LIMIT.store(bytes, Ordering::Relaxed);
}

/// The limit set by [`set_staging_limit`] (256 MiB unless set).
pub fn staging_limit() -> u64 {
    match STAGING_LIMIT.load(Ordering::Relaxed) {
        0 => 256 << 20,
        n => n,
    }
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

thread_local! {
    static SHADER_CHECKS: std::cell::Cell<u8> = const { std::cell::Cell::new(0) };
}

/// Build the shader modules of the pipelines this thread creates later with `checks` (per
/// thread, so that a test or report timing one mode does not reach calls made on other
/// threads; the pipeline cache of a [`Context`](crate::Context) keys on it, so one process can
/// time both forms of every kernel, Level 1 to 3). For measurement only:
/// [`ShaderChecks::Auto`] is the default. The crate's kernels index their arrays in range by
/// construction, so every mode computes the same formula, though a backend compiler may round
/// differently (contract a product and a sum) in another mode: on lavapipe, dsyr2's tile-engine
/// product read a forward factor of 2.2 against 2 in an unchecked mode (session 8), which is
/// why the mode no longer leaks to other threads.
pub fn set_shader_checks(checks: ShaderChecks) {
    SHADER_CHECKS.with(|c| c.set(checks as u8));
}

/// The mode set by [`set_shader_checks`] on this thread.
pub fn shader_checks() -> ShaderChecks {
    match SHADER_CHECKS.with(std::cell::Cell::get) {
        1 => ShaderChecks::NoIndexClamps,
        2 => ShaderChecks::Unchecked,
        3 => ShaderChecks::Checked,
        _ => ShaderChecks::Auto,
    }
}
