//! Matrix-matrix Level 3 tile engine (`wgsl/level3/gemm.wgsl`): `C = alpha·A·B + beta·C` with
//! `A`, `B` already in their `op` forms (strides swapped for a transpose, layout.rs).
//!
//! Every Level 3 routine runs on this one engine, through its [`Variant`]: `sgemmtr`, `ssyrk`
//! and `ssyr2k` restrict C to a triangle ([`Variant::tri_c`]), `ssymm` and `strmm` have their
//! structured A packed densely first (entry `pack`, [`AMode`]) and `strmm` skips the zero slabs
//! of its triangle, `ssyr2k` runs as one product of depth 2k on packed operands
//! ([`Variant::syr2k`]),
//! and `strsm`'s off-diagonal updates are plain engine calls on sub-blocks ([`Operand::at`]).
//!
//! A call becomes a [`Plan`]: the tile shape and buffering chosen from the adapter's limits and
//! the problem's shape ([`Config`]), optional packing of operands that the vec4 staging cannot
//! read (unaligned or strided), the transposed problem `Cᵀ = Bᵀ·Aᵀ` when C is column-major (so
//! that stores run along C's contiguous dimension), and split-k (partial sums of k slices in a
//! scratch buffer, then entry `splitk_reduce`) when C has too few tiles to fill the device.

use std::cell::Cell;

use super::elementwise;
use crate::context::{Context, Elem};
use crate::flags::Uplo;
use crate::launch::Dispatch;
use crate::layout::{MatOperand, Scalar};
use crate::pool::Buf;

super::shader!(SHADER, GEMM);

#[repr(C)]
#[derive(Debug, Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    m: u32,
    n: u32,
    k: u32,
    offa: u32,
    rsa: i32,
    csa: i32,
    offb: u32,
    rsb: i32,
    csb: i32,
    offc: u32,
    rsc: i32,
    csc: i32,
    alpha: f32,
    beta: f32,
    tiles_m: u32,
    tiles: u32,
    kslice: u32,
    batch: u32,
    sba: i32,
    sbb: i32,
    sbc: i32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

/// Byte offsets of alpha and beta in the params of every dispatch of a [`Plan`], for device
/// scalars.
const ALPHA: usize = std::mem::offset_of!(Params, alpha);
const BETA: usize = std::mem::offset_of!(Params, beta);

/// The dispatches of `C = alpha·A·B + beta·C` for `sgemm` (operands in their `op` forms).
pub(crate) fn gemm<'a>(
    ctx: &Context,
    alpha: impl Into<Scalar<'a>>,
    a: &'a MatOperand,
    b: &'a MatOperand,
    beta: impl Into<Scalar<'a>>,
    c: &'a MatOperand,
) -> Plan<'a> {
    let dims = (c.rows, c.cols, a.cols);
    let (a, b, c) = (Operand::of(a), Operand::of(b), Operand::of(c));
    engine(ctx, dims, alpha, a, b, beta, c, Variant::default())
}

/// The dispatches of the batched `C_b = alpha·A_b·B_b + beta·C_b`, `b < batch`, for
/// `sgemm_batched` (operands in their `op` forms, with their batch strides; a zero batch
/// stride shares one operand across the batch).
#[allow(clippy::too_many_arguments)]
pub(crate) fn gemm_batched<'a>(
    ctx: &Context,
    (m, n, k): (usize, usize, usize),
    batch: usize,
    alpha: impl Into<Scalar<'a>>,
    a: Operand<'a>,
    b: Operand<'a>,
    beta: impl Into<Scalar<'a>>,
    c: Operand<'a>,
) -> Plan<'a> {
    let variant = Variant {
        batch,
        ..Variant::default()
    };
    engine(ctx, (m, n, k), alpha, a, b, beta, c, variant)
}

/// The dispatches of `dgemm` (`batch` = 1) and `dgemm_batched`: as [`gemm_batched`], in f64
/// (the shader instantiated with `alias T = f64;`; alpha and beta read from a small f64
/// buffer, since the params hold f32). Needs `SHADER_F64` (the caller checks).
///
/// # Errors
/// [`crate::Error::Gpu`] when the buffer of the scalars cannot be created.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gemm_f64<'a>(
    ctx: &Context,
    routine: &'static str,
    (m, n, k): (usize, usize, usize),
    batch: usize,
    alpha: impl Into<Scalar<'a, f64>>,
    a: Operand<'a>,
    b: Operand<'a>,
    beta: impl Into<Scalar<'a, f64>>,
    c: Operand<'a>,
) -> crate::error::Result<Plan<'a>> {
    let variant = Variant {
        batch,
        ..Variant::default()
    };
    engine_f64(ctx, routine, (m, n, k), alpha, a, b, beta, c, variant)
}

/// [`engine`] in f64 (`dsyrk` and the other f64 Level 2 and 3 routines): as [`gemm_f64`],
/// with any [`Variant`]. A host alpha or beta is uploaded with the scalar buffer; a device one
/// ([`GpuScalar<f64>`](crate::GpuScalar)) is copied into it on the device by the plan's first
/// dispatches, and the kernel makes its zero and one tests on that value (marker 3), so that a
/// device alpha or beta behaves as the same value on the host does (DESIGN.md §3).
///
/// # Errors
/// [`crate::Error::Gpu`] when the buffer of the scalars cannot be created.
#[allow(clippy::too_many_arguments)]
pub(crate) fn engine_f64<'a>(
    ctx: &Context,
    routine: &'static str,
    dims: (usize, usize, usize),
    alpha: impl Into<Scalar<'a, f64>>,
    a: Operand<'a>,
    b: Operand<'a>,
    beta: impl Into<Scalar<'a, f64>>,
    c: Operand<'a>,
    variant: Variant,
) -> crate::error::Result<Plan<'a>> {
    let (alpha, beta) = (alpha.into(), beta.into());
    let (buf, copies) = elementwise::scalars_f64(ctx, routine, &[alpha, beta])?;
    let mark = |s: &Scalar<'_, f64>, one: bool| match s.host() {
        None => 3.0,
        Some(0.0) => 0.0,
        Some(v) if one && v == 1.0 => 1.0,
        Some(_) => 2.0,
    };
    let (alpha_mark, beta_mark) = (mark(&alpha, false), mark(&beta, true));
    let mut plan = engine_in(
        ctx,
        dims,
        alpha_mark,
        a,
        b,
        beta_mark,
        c,
        variant,
        Some(buf),
    );
    plan.copies = Some(copies);
    Ok(plan)
}

/// An operand of one engine call: element `(i, j)` of product `b` of a batch is
/// `buffer[offset + b·bs + i·rs + j·cs]` (`bs` = 0 outside batched calls).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Operand<'a> {
    pub buffer: &'a Buf,
    pub offset: u32,
    pub rs: i32,
    pub cs: i32,
    pub bs: i32,
}

impl<'a> Operand<'a> {
    /// The whole uploaded matrix.
    pub fn of(m: &'a MatOperand) -> Self {
        Operand {
            buffer: &m.buffer,
            offset: m.offset,
            rs: m.rs,
            cs: m.cs,
            bs: 0,
        }
    }

    /// A vector as a one-column matrix: element `(i, 0)` at `offset + i·inc` (the f64 Level 2
    /// routines, which run on this engine).
    pub fn column(v: &'a crate::layout::VecOperand) -> Self {
        Operand {
            buffer: &v.buffer,
            offset: v.offset,
            rs: v.inc,
            cs: 1,
            bs: 0,
        }
    }

    /// A vector as a one-row matrix: element `(0, j)` at `offset + j·inc`.
    pub fn row(v: &'a crate::layout::VecOperand) -> Self {
        Operand::column(v).t()
    }

    /// The sub-matrix whose element `(0, 0)` is element `(i, j)` of this one (which must exist).
    pub fn at(self, i: usize, j: usize) -> Self {
        let offset = self.offset as i64 + i as i64 * self.rs as i64 + j as i64 * self.cs as i64;
        Operand {
            offset: offset as u32,
            ..self
        }
    }

    /// The transpose: strides swapped, no copy.
    pub fn t(self) -> Self {
        Operand {
            rs: self.cs,
            cs: self.rs,
            ..self
        }
    }
}

/// How the engine reads its left operand A.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) enum AMode {
    /// Every element read.
    #[default]
    General,
    /// Symmetric, only the triangle `uplo` read (`ssymm`).
    Symmetric(Uplo),
    /// Triangular in `uplo`: zero outside, never read there; `unit` for a unit diagonal that is
    /// never read (`strmm`).
    Triangular(Uplo, bool),
}

/// The engine's variant.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Variant {
    /// Restrict C to this triangle (reads and writes).
    pub tri_c: Option<Uplo>,
    /// How A is read.
    pub a_mode: AMode,
    /// Add the second `ssyr2k` product `B'·A'` (`B'(i,p) = B(p,i)`, `A'(p,j) = A(j,p)`) in the
    /// same sums: `[A | B']·[B ; A']`.
    pub syr2k: bool,
    /// Number of products of a batched call (`gemm_batched`; 0 and 1: one product). Only with
    /// a general A and C.
    pub batch: usize,
}

/// The `UPLO` code of a triangle ([`super::uplo`]).
fn uplo_code(u: Uplo) -> f64 {
    super::uplo(Some(u))
}

fn flip(u: Uplo) -> Uplo {
    match u {
        Uplo::Lower => Uplo::Upper,
        Uplo::Upper => Uplo::Lower,
    }
}

/// A workgroup tile: `bm × bn` of C per workgroup (8×8 per invocation, so `bm·bn/64`
/// invocations), `bk` deep slabs, `nbuf` workgroup-memory buffers (2: double-buffered).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tile {
    /// Rows of C per workgroup (64 or 128).
    pub bm: u32,
    /// Columns of C per workgroup (64 or 128).
    pub bn: u32,
    /// Depth of a staged slab (8, 16 or 32).
    pub bk: u32,
    /// Workgroup-memory buffers: 1, or 2 for double buffering.
    pub nbuf: u32,
}

impl Tile {
    /// Workgroup memory the tile needs, in bytes (f32).
    pub fn bytes(&self) -> u64 {
        u64::from(self.nbuf * self.bk * (self.bm + self.bn) * 4)
    }

    /// Invocations per workgroup.
    pub fn invocations(&self) -> u32 {
        self.bm * self.bn / 64
    }

    /// Whether the kernel supports this shape and `ctx`'s adapter can run it.
    pub fn fits(&self, limits: &wgpu::Limits) -> bool {
        let shape_ok = matches!(self.bm, 64 | 128)
            && matches!(self.bn, 64 | 128)
            && matches!(self.bk, 8 | 16 | 32)
            && matches!(self.nbuf, 1 | 2)
            // Each invocation stages between 1 and 8 vec4s of each operand per slab.
            && (1..=8).contains(&(16 * self.bk / self.bn))
            && (1..=8).contains(&(16 * self.bk / self.bm));
        shape_ok
            && self.bytes() <= u64::from(limits.max_compute_workgroup_storage_size)
            && self.invocations() <= limits.max_compute_invocations_per_workgroup
            && self.invocations() <= limits.max_compute_workgroup_size_x
    }
}

/// How one engine call runs: its tile, split-k and packing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// The workgroup tile.
    pub tile: Tile,
    /// Number of k slices (1: no split-k).
    pub split: usize,
    /// Pack operands the vec4 staging cannot read (unaligned or strided) when worth it.
    pub pack: bool,
    /// Solve `Cᵀ = Bᵀ·Aᵀ` when C is column-major.
    pub swap: bool,
}

/// Tuning override (see [`set_tuning`]): fields given replace the engine's own choice.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tuning {
    /// Tile to use where it fits.
    pub tile: Option<Tile>,
    /// Number of k slices.
    pub split: Option<usize>,
    /// Pack every operand that the vec4 staging cannot read (`true`), or none (`false`),
    /// whatever the size.
    pub pack: Option<bool>,
    /// Transposed problem for column-major C on or off.
    pub swap: Option<bool>,
    /// `true`: the bounds-checked kernel everywhere; `false` or unset: the kernel without edge
    /// code (`EDGE = false`) wherever every tile and slab is whole and both operands
    /// vec4-readable (since the unrolled slab products, 1–3% faster on the H200:
    /// `benches/results/2026-12-01-tile/`, run t7).
    pub edge: Option<bool>,
    /// `strsm`'s diagonal blocks solved column-oriented (`true`, the default) or row-oriented.
    pub trsm_columns: Option<bool>,
    /// Batches of products with m, n ≤ 64 on the small-product kernel (`true`, the default)
    /// or on the tile kernel (`false`).
    pub batch_small: Option<bool>,
}

thread_local! {
    static TUNING: Cell<Option<Tuning>> = const { Cell::new(None) };
}

/// Set (or clear, with `None`) an override of the tile engine's choices for the calls made on
/// this thread, for tuning experiments (`examples/kernel_lab.rs`) and for tests that pin each
/// path. Results stay correct under any override: a tile that does not [`Tile::fits`] the
/// adapter is ignored.
pub fn set_tuning(t: Option<Tuning>) {
    TUNING.with(|c| c.set(t));
}

/// The override of this thread, if any.
pub(crate) fn tuning() -> Option<Tuning> {
    TUNING.with(Cell::get)
}

/// Invocations that keep a large GPU busy: wgpu does not report the number of compute units,
/// so this is a fixed target (two 256-invocation workgroups on each of the 132 SMs of an H200;
/// smaller GPUs then simply run more waves).
const TARGET_INVOCATIONS: usize = 264 * 256;

fn tiles(m: usize, n: usize, t: &Tile) -> usize {
    m.div_ceil(t.bm as usize).max(1) * n.div_ceil(t.bn as usize).max(1)
}

/// The engine's choice for an `m×n×k` call on `limits` (before any [`Tuning`] override);
/// `splittable`: split-k allowed (C general, A general). Measured on the H200
/// (benches/results/README.md, runs 10 and 11): 128×128 tiles, BK 16, single-buffered, where
/// they give 264·256 invocations (two workgroups per SM of an H200); below that, split-k, on 128×128 tiles while both sides of C
/// are at least 512 (1000³: 15.4 against 7.9 TFLOP/s on 64×64 tiles), else on a 128×64 (64×128)
/// tile whose long side runs along the longer side of C (128×4096×4096: 20–21 against 10).
pub fn choose(limits: &wgpu::Limits, (m, n, k): (usize, usize, usize), splittable: bool) -> Config {
    let tile = |bm, bn, bk| Tile {
        bm,
        bn,
        bk,
        nbuf: 1,
    };
    let fitting = |c: &[Tile]| c.iter().copied().find(|t| t.fits(limits));
    let big = fitting(&[
        tile(128, 128, 16),
        tile(128, 128, 8),
        tile(64, 64, 16),
        tile(64, 64, 8),
    ])
    .unwrap_or(tile(64, 64, 8));
    let enough = |t: &Tile| tiles(m, n, t) * t.invocations() as usize >= TARGET_INVOCATIONS;
    let mut t = big;
    if !enough(&big) && m.min(n) < 512 {
        let rect = if m >= n {
            tile(128, 64, 16)
        } else {
            tile(64, 128, 16)
        };
        t = fitting(&[rect, tile(64, 64, 16), tile(64, 64, 8)]).unwrap_or(big);
    }
    let mut split = 1;
    if splittable && !enough(&t) && k >= 512 {
        // Slices of at least 256 of k, so that each still streams.
        let groups = tiles(m, n, &t) * t.invocations() as usize;
        split = TARGET_INVOCATIONS
            .div_ceil(groups)
            .min(k / 256)
            .clamp(1, 32);
    }
    Config {
        tile: t,
        split,
        pack: true,
        swap: true,
    }
}

/// The engine's choice for a batch of `m×n×k` products: no split-k (the batch fills the
/// device) and no packing (a pack would copy every product); the smallest tile side (64) along
/// a side of C of at most 64, so that a batch of small products wastes less of each tile.
fn choose_batched(limits: &wgpu::Limits, (m, n, _): (usize, usize, usize)) -> Config {
    let tile = |bm, bn| Tile {
        bm,
        bn,
        bk: 16,
        nbuf: 1,
    };
    let bm = if m <= 64 { 64 } else { 128 };
    let bn = if n <= 64 { 64 } else { 128 };
    let t = [tile(bm, bn), tile(64, 64)]
        .into_iter()
        .chain([Tile {
            bk: 8,
            ..tile(64, 64)
        }])
        .find(|t| t.fits(limits))
        .unwrap_or(Tile {
            bk: 8,
            ..tile(64, 64)
        });
    Config {
        tile: t,
        split: 1,
        pack: false,
        swap: true,
    }
}

/// The choice for this call, and forced packing and edge decisions from a [`Tuning`] override.
fn config(
    ctx: &Context,
    dims: (usize, usize, usize),
    batch: usize,
    splittable: bool,
    esize: usize,
) -> (Config, Option<bool>, Option<bool>) {
    // Tiles are sized in f32 elements: an f64 tile needs twice the workgroup memory.
    let mut scaled = ctx.limits().clone();
    scaled.max_compute_workgroup_storage_size /= (esize / 4).max(1) as u32;
    let limits = &scaled;
    let mut c = if batch > 1 {
        choose_batched(limits, dims)
    } else {
        choose(limits, dims, splittable)
    };
    let tuning = TUNING.with(Cell::get);
    if let Some(t) = tuning {
        if let Some(tile) = t.tile.filter(|t| t.fits(limits)) {
            c.tile = tile;
        }
        if let Some(s) = t.split {
            c.split = s.max(1);
        }
        if let Some(p) = t.pack {
            c.pack = p;
        }
        if let Some(s) = t.swap {
            c.swap = s;
        }
    }
    if !splittable {
        c.split = 1;
    }
    (c, tuning.and_then(|t| t.pack), tuning.and_then(|t| t.edge))
}

/// A buffer of a plan: the caller's, or a scratch buffer the plan owns.
#[derive(Debug, Clone, Copy)]
enum BufRef<'a> {
    Ext(&'a Buf),
    Scratch(usize),
}

#[derive(Debug, Clone, Copy)]
struct Op<'a> {
    buf: BufRef<'a>,
    offset: u32,
    rs: i32,
    cs: i32,
    /// Batch stride (0 outside batched calls; packed operands are never batched).
    bs: i32,
}

impl<'a> Op<'a> {
    fn ext(o: Operand<'a>) -> Self {
        Op {
            buf: BufRef::Ext(o.buffer),
            offset: o.offset,
            rs: o.rs,
            cs: o.cs,
            bs: o.bs,
        }
    }

    fn t(self) -> Self {
        Op {
            rs: self.cs,
            cs: self.rs,
            ..self
        }
    }

    /// The sub-matrix whose element `(0, 0)` is element `(i, j)` of this one.
    fn at(self, i: usize, j: usize) -> Self {
        let offset = self.offset as i64 + i as i64 * self.rs as i64 + j as i64 * self.cs as i64;
        Op {
            offset: offset as u32,
            ..self
        }
    }
}

struct Step<'a> {
    entry: &'static str,
    params: Params,
    constants: Vec<(&'static str, f64)>,
    bindings: Vec<(u32, BufRef<'a>)>,
    groups: [u32; 3],
    /// Whether a device beta is to be read into this dispatch's params (the dispatch that
    /// applies beta; later k chunks add with beta = 1).
    beta: bool,
}

/// The dispatches of one engine call, with the scratch buffers they use.
pub(crate) struct Plan<'a> {
    steps: Vec<Step<'a>>,
    scratch: Vec<Buf>,
    /// The element type the shader is instantiated for.
    elem: Elem,
    /// f64: the scratch buffer holding alpha and beta as f64 (binding 7, `SCAL`).
    scal: Option<usize>,
    /// f32: alpha and beta, read into the params of the dispatches where they are on the device.
    scalars: (Scalar<'a>, Scalar<'a>),
    /// f64: the copies of device alpha and beta into the `scal` buffer, run first.
    copies: Option<elementwise::ScalarCopies>,
}

impl<'a> Plan<'a> {
    /// The dispatches, in order: the copies of device f64 scalars, then the steps, a device f32
    /// alpha read into every product and beta into the one that applies it.
    pub fn dispatches(&self) -> Vec<Dispatch<'_>> {
        let buf = |r: BufRef<'a>| -> &Buf {
            match r {
                BufRef::Ext(b) => b,
                BufRef::Scratch(i) => &self.scratch[i],
            }
        };
        let mut out = self.copies.as_ref().map_or(Vec::new(), |c| c.dispatches());
        out.extend(self.steps.iter().map(|s| {
            let mut bindings: Vec<(u32, &Buf)> =
                s.bindings.iter().map(|&(i, r)| (i, buf(r))).collect();
            let mut constants = s.constants.clone();
            if s.entry != "pack" {
                // Binding 7: the f64 scalars, or any read-only buffer of the dispatch
                // (binding 1, or 6 for splitk_reduce), which the shader then never reads.
                let seven = match self.scal {
                    Some(i) => &self.scratch[i],
                    None => bindings
                        .iter()
                        .find(|(i, _)| *i == 1 || *i == 6)
                        .map(|(_, b)| *b)
                        .unwrap_or(bindings[0].1),
                };
                bindings.push((7, seven));
                if self.scal.is_some() {
                    constants.push(("SCAL", 1.0));
                }
            }
            let d = Dispatch::new(&SHADER, s.entry, &s.params, &[], s.groups)
                .bindings(&bindings)
                .constants(&constants)
                .elem(self.elem);
            let (alpha, beta) = &self.scalars;
            let d = alpha.apply(d, ALPHA);
            if s.beta {
                beta.apply(d, BETA)
            } else {
                d
            }
        }));
        out
    }

    /// Bytes per element.
    fn esize(&self) -> usize {
        match self.elem {
            Elem::F32 => 4,
            Elem::F64 => 8,
        }
    }

    fn size(&self, ctx_buf: BufRef<'a>) -> u64 {
        match ctx_buf {
            BufRef::Ext(b) => b.size(),
            BufRef::Scratch(i) => self.scratch[i].size(),
        }
    }
}

/// vec4 staging mode of the left (`left`) or right operand: 0 along its rows' index, 1 along
/// k, 2 none. For A (m×k) "along m" needs rs = 1; for B (k×n) "along n" needs cs = 1.
fn vec_mode(o: &Op, size: u64, left: bool, esize: usize) -> u32 {
    if !size.is_multiple_of(4 * esize as u64) || !o.offset.is_multiple_of(4) || o.bs % 4 != 0 {
        return 2;
    }
    let (outer, inner) = if left { (o.rs, o.cs) } else { (o.cs, o.rs) };
    // outer: stride along m (A) or n (B); inner: along k.
    if outer == 1 && inner % 4 == 0 {
        0
    } else if inner == 1 && outer % 4 == 0 {
        1
    } else {
        2
    }
}

/// One engine call `C = alpha·A·B + beta·C` (C m×n, reduction length k; `dims = (m, n, k)`)
/// in `variant`, planned for `ctx`'s adapter.
#[allow(clippy::too_many_arguments)]
pub(crate) fn engine<'a>(
    ctx: &Context,
    dims: (usize, usize, usize),
    alpha: impl Into<Scalar<'a>>,
    a: Operand<'a>,
    b: Operand<'a>,
    beta: impl Into<Scalar<'a>>,
    c: Operand<'a>,
    variant: Variant,
) -> Plan<'a> {
    let (alpha, beta) = (alpha.into(), beta.into());
    let mut plan = engine_in(
        ctx,
        dims,
        alpha.value(),
        a,
        b,
        beta.value(),
        c,
        variant,
        None,
    );
    plan.scalars = (alpha, beta);
    plan
}

/// [`engine`], in f64 where `scal` holds alpha and beta as f64 (then `alpha` and `beta` are
/// the markers of `SCAL` in `wgsl/level3/gemm.wgsl`: 0 for a zero, 1 for beta = 1, 2 for "read
/// the value from `scal`").
#[allow(clippy::too_many_arguments)]
fn engine_in<'a>(
    ctx: &Context,
    dims: (usize, usize, usize),
    alpha: f32,
    a: Operand<'a>,
    b: Operand<'a>,
    beta: f32,
    c: Operand<'a>,
    variant: Variant,
    scal: Option<Buf>,
) -> Plan<'a> {
    let mut plan = Plan {
        steps: Vec::new(),
        scratch: Vec::new(),
        elem: Elem::F32,
        scal: None,
        scalars: (Scalar::Host(1.0), Scalar::Host(1.0)),
        copies: None,
    };
    if let Some(buf) = scal {
        plan.elem = Elem::F64;
        plan.scratch.push(buf);
        plan.scal = Some(plan.scratch.len() - 1);
    }
    let (m, _, k) = dims;
    let (mut a, b, c) = (Op::ext(a), Op::ext(b), Op::ext(c));
    let mut k_tri = 0.0;
    // A structured A is packed densely (column-major, like the vec4 staging along m wants);
    // with alpha = 0 nothing of A is read at all (the kernel reads neither A nor B then).
    let a_mode = if alpha == 0.0 {
        AMode::General
    } else {
        variant.a_mode
    };
    match a_mode {
        AMode::General => {}
        AMode::Symmetric(u) => {
            a = pack(
                ctx,
                &mut plan,
                a,
                (m, k),
                &[("A_MODE", 1.0), ("A_UPLO", uplo_code(u))],
            );
        }
        AMode::Triangular(u, unit) => {
            let consts = [
                ("A_MODE", 2.0),
                ("A_UPLO", uplo_code(u)),
                ("A_UNIT", unit as u32 as f64),
            ];
            a = pack(ctx, &mut plan, a, (m, k), &consts);
            k_tri = uplo_code(u);
        }
    }
    let (_, n, _) = dims;
    let pitch = (2 * k).div_ceil(4) * 4;
    let esize = plan.esize() as u64;
    let fits = (n * pitch) as u64 * esize <= ctx.limits().max_storage_buffer_binding_size;
    if variant.syr2k && alpha != 0.0 && k > 0 && fits {
        // One sum of 2k products per element, as the formula has it: C = alpha·L·Mᵀ + beta·C
        // with L = [op(A) | op(B)] and M = [op(B) | op(A)] (n×2k each, packed row-major).
        let op_b = b.t();
        let mut concat = |x: Op<'a>, y: Op<'a>| {
            plan.scratch
                .push(ctx.scratch((n * pitch).max(4) as u64 * esize));
            let idx = plan.scratch.len() - 1;
            pack_into(ctx, &mut plan, x, (n, k), &[], (idx, 0, pitch, k));
            pack_into(ctx, &mut plan, y, (n, k), &[], (idx, k, pitch, pitch - k));
            Op {
                buf: BufRef::Scratch(idx),
                offset: 0,
                rs: pitch as i32,
                cs: 1,
                bs: 0,
            }
        };
        let l = concat(a, op_b);
        let mt = concat(op_b, a).t();
        product(
            ctx,
            &mut plan,
            (n, n, 2 * k),
            alpha,
            l,
            mt,
            beta,
            c,
            variant.tri_c,
            0.0,
            1,
        );
        return plan;
    }
    product(
        ctx,
        &mut plan,
        dims,
        alpha,
        a,
        b,
        beta,
        c,
        variant.tri_c,
        k_tri,
        variant.batch.max(1),
    );
    if variant.syr2k && alpha != 0.0 && k > 0 {
        // Past one binding for the packed operands: the second product B'·A' = op(B)·op(A)ᵀ
        // added in a second pass (two sums of k products, each scaled by alpha; beta, device
        // or not, applied by the first only).
        let (a2, b2) = (b.t(), a.t());
        let first = plan.steps.len();
        product(
            ctx,
            &mut plan,
            dims,
            alpha,
            a2,
            b2,
            1.0,
            c,
            variant.tri_c,
            0.0,
            1,
        );
        for s in &mut plan.steps[first..] {
            s.beta = false;
        }
    }
    plan
}

/// Pack the m×k operand `a` (read as `consts` say) into a new dense scratch operand: column-major
/// (vec4 staging along m) if `a` runs along m, else row-major; pitches a multiple of 4.
fn pack<'a>(
    ctx: &Context,
    plan: &mut Plan<'a>,
    a: Op<'a>,
    (m, k): (usize, usize),
    consts: &[(&'static str, f64)],
) -> Op<'a> {
    let col_major = a.rs.abs() == 1 || a.cs.abs() != 1;
    let (fast, slow) = if col_major { (m, k) } else { (k, m) };
    let pitch = fast.div_ceil(4) * 4;
    plan.scratch
        .push(ctx.scratch(((pitch * slow).max(4) * plan.esize()) as u64));
    let idx = plan.scratch.len() - 1;
    if col_major {
        // Column-major: the transpose packed row-major (its triangle is the other one).
        let flipped: Vec<(&'static str, f64)> = consts
            .iter()
            .map(|&(c, v)| if c == "A_UPLO" { (c, 3.0 - v) } else { (c, v) })
            .collect();
        pack_into(ctx, plan, a.t(), (k, m), &flipped, (idx, 0, pitch, pitch));
        Op {
            buf: BufRef::Scratch(idx),
            offset: 0,
            rs: 1,
            cs: pitch as i32,
            bs: 0,
        }
    } else {
        pack_into(ctx, plan, a, (m, k), consts, (idx, 0, pitch, pitch));
        Op {
            buf: BufRef::Scratch(idx),
            offset: 0,
            rs: pitch as i32,
            cs: 1,
            bs: 0,
        }
    }
}

/// One `pack` dispatch: the m×k operand `a` into scratch buffer `idx`, row-major with row
/// `pitch`, its columns at `col0..col0 + width` (zero past k), `dst = (idx, col0, pitch,
/// width)`.
fn pack_into<'a>(
    ctx: &Context,
    plan: &mut Plan<'a>,
    a: Op<'a>,
    (m, k): (usize, usize),
    consts: &[(&'static str, f64)],
    (idx, col0, pitch, width): (usize, usize, usize, usize),
) {
    let params = Params {
        m: m as u32,
        n: width as u32,
        k: k as u32,
        offa: a.offset,
        rsa: a.rs,
        csa: a.cs,
        offc: col0 as u32,
        tiles: pitch as u32,
        ..Params::default()
    };
    plan.steps.push(Step {
        entry: "pack",
        params,
        constants: consts.to_vec(),
        bindings: vec![(1, a.buf), (3, BufRef::Scratch(idx))],
        groups: ctx.grid(((m * width) as u64).div_ceil(256)),
        beta: false,
    });
}

/// The dispatches of one product `C = alpha·A·B + beta·C`.
#[allow(clippy::too_many_arguments)]
fn product<'a>(
    ctx: &Context,
    plan: &mut Plan<'a>,
    (m, n, k): (usize, usize, usize),
    alpha: f32,
    a: Op<'a>,
    b: Op<'a>,
    beta: f32,
    c: Op<'a>,
    tri_c: Option<Uplo>,
    k_tri: f64,
    batch: usize,
) {
    let splittable = tri_c.is_none() && k_tri == 0.0 && batch == 1;
    let esize = plan.esize();
    let (cfg, force_pack, force_edge) = config(ctx, (m, n, k), batch, splittable, esize);
    let (mut m, mut n, mut a, mut b, mut c, mut tri_c) = (m, n, a, b, c, tri_c);
    // Column-major C: solve Cᵀ = Bᵀ·Aᵀ, so that stores run along C's contiguous dimension.
    if cfg.swap && k_tri == 0.0 && c.rs.abs() == 1 && c.cs.abs() != 1 {
        (m, n) = (n, m);
        (a, b) = (b.t(), a.t());
        c = c.t();
        tri_c = tri_c.map(flip);
    }
    let work = m as f64 * n as f64 * k as f64;
    let mut al = vec_mode(&a, plan.size(a.buf), true, esize);
    let mut bl = vec_mode(&b, plan.size(b.buf), false, esize);
    // Pack an operand the vec4 staging cannot read when the product reuses it enough (or
    // when a tuning override says so).
    let worth = |other: usize| {
        batch == 1
            && force_pack
                .unwrap_or(cfg.pack && work >= (1u64 << 27) as f64 && other >= 128 && k >= 16)
    };
    if al == 2 && m * k > 0 && alpha != 0.0 && worth(n) {
        a = pack(ctx, plan, a, (m, k), &[]);
        al = vec_mode(&a, plan.size(a.buf), true, esize);
    }
    if bl == 2 && n * k > 0 && alpha != 0.0 && worth(m) {
        b = pack(ctx, plan, b.t(), (n, k), &[]).t();
        bl = vec_mode(&b, plan.size(b.buf), false, esize);
    }
    // k in chunks of one dispatch each (at most K_SPLIT per workgroup and dispatch), run in
    // order: the first with beta, the later ones adding to C (beta = 1).
    let t = cfg.tile;
    let max = ctx.limits().max_storage_buffer_binding_size as usize / esize;
    let mut split = cfg.split.max(1);
    // The partial sums must fit one binding.
    while split > 1 && split * m * n > max {
        split /= 2;
    }
    let chunk = if small_kernel(batch, m, n, tri_c, k_tri) {
        K_SPLIT_SMALL
    } else {
        split * K_SPLIT
    };
    let mut k0 = 0;
    loop {
        let kc = chunk.min(k - k0);
        let first = k0 == 0;
        let (ac, bc) = (a.at(0, k0), b.at(k0, 0));
        let al = if k0 == 0 {
            al
        } else {
            vec_mode(&ac, plan.size(ac.buf), true, esize)
        };
        let bl = if k0 == 0 {
            bl
        } else {
            vec_mode(&bc, plan.size(bc.buf), false, esize)
        };
        let beta_c = if first { beta } else { 1.0 };
        let g = Gemm {
            dims: (m, n, kc),
            alpha,
            beta: beta_c,
            a: ac,
            b: bc,
            c,
            modes: (al, bl),
            tile: t,
            split,
            tri_c,
            k_tri,
            edge_free: force_edge != Some(true),
            batch,
        };
        dispatch(ctx, plan, g, first);
        k0 += kc;
        if k0 >= k {
            break;
        }
    }
}

/// The most of k that one workgroup runs over in one dispatch. Mesa's llvmpipe (lavapipe)
/// stops the loops of an invocation after 65,535 iterations in all (one counter for all its
/// loops, nested ones included), silently. Per k slab the kernel runs at most 1 + BK + 2·32
/// loop iterations (the slab loop, the BK-step product loop, the element-wise staging loops
/// of A and B: BM·BK/NT ≤ 32 each), i.e. at most 97 for 64×64×32 and 33 for 128×128×16, so
/// 16,384 of k is at most 512 slabs, 49,664 iterations, plus 64 for the stores (DESIGN.md §3).
/// Longer k is split over dispatches (and split-k slices never exceed it).
pub(crate) const K_SPLIT: usize = 16384;

/// The most of k that one `gemm_small` dispatch runs over: per slab of `sbk` (4 to 16) of k an
/// invocation runs at most 1 + 16 + 16 loop iterations (the slab loop, the staging loop over
/// at most 4096 elements of 256 invocations, the products), so 4,096 of k is at most 1,024
/// slabs and 21,504 iterations (`K_SPLIT`'s rule for lavapipe, DESIGN.md §3).
const K_SPLIT_SMALL: usize = 4096;

/// Whether a batch of `m×n` products runs on the small-product kernel (`gemm_small`): a
/// batch of general products with m, n ≤ 64, unless a [`Tuning`] override says otherwise.
fn small_kernel(batch: usize, m: usize, n: usize, tri_c: Option<Uplo>, k_tri: f64) -> bool {
    let on = tuning().and_then(|t| t.batch_small).unwrap_or(true);
    on && batch > 1 && m <= 64 && n <= 64 && tri_c.is_none() && k_tri == 0.0
}

/// One `gemm` dispatch (with its split-k reduction).
struct Gemm<'a> {
    dims: (usize, usize, usize),
    alpha: f32,
    beta: f32,
    a: Op<'a>,
    b: Op<'a>,
    c: Op<'a>,
    modes: (u32, u32),
    tile: Tile,
    split: usize,
    tri_c: Option<Uplo>,
    k_tri: f64,
    edge_free: bool,
    batch: usize,
}

/// Emit the batch `g` of products with m, n ≤ 64 on entry `gemm_small`: as many products
/// per 256-invocation workgroup as 4×4 blocks per invocation allow, their k slabs staged in
/// workgroup memory (`SMEM` elements: 16 KiB, or less where the adapter has less).
fn dispatch_small<'a>(ctx: &Context, plan: &mut Plan<'a>, g: Gemm<'a>, first: bool) {
    let (m, n, k) = g.dims;
    let (a, b, c) = (g.a, g.b, g.c);
    let smem = (ctx.limits().max_compute_workgroup_storage_size as usize / plan.esize()).min(4096);
    let tp = m.div_ceil(4) * n.div_ceil(4);
    let mut np = (256 / tp.max(1)).clamp(1, g.batch.max(1));
    while np > 1 && smem / (np * (m + n)) < 4 {
        np /= 2;
    }
    let sbk = (smem / (np * (m + n))).clamp(1, 16);
    let params = Params {
        m: m as u32,
        n: n as u32,
        k: k as u32,
        offa: a.offset,
        rsa: a.rs,
        csa: a.cs,
        offb: b.offset,
        rsb: b.rs,
        csb: b.cs,
        offc: c.offset,
        rsc: c.rs,
        csc: c.cs,
        alpha: g.alpha,
        beta: g.beta,
        tiles: np as u32,
        kslice: sbk as u32,
        batch: g.batch as u32,
        sba: a.bs,
        sbb: b.bs,
        sbc: c.bs,
        ..Params::default()
    };
    plan.steps.push(Step {
        entry: "gemm_small",
        params,
        constants: vec![("SMEM", smem as f64)],
        bindings: vec![(1, a.buf), (2, b.buf), (3, c.buf)],
        groups: ctx.grid(g.batch.div_ceil(np) as u64),
        beta: first,
    });
}

/// Emit `g`; `first`: its last dispatch applies beta (a device beta is read there only).
fn dispatch<'a>(ctx: &Context, plan: &mut Plan<'a>, g: Gemm<'a>, first: bool) {
    let (m, n, k) = g.dims;
    let (a, b, c, t) = (g.a, g.b, g.c, g.tile);
    if small_kernel(g.batch, m, n, g.tri_c, g.k_tri) {
        dispatch_small(ctx, plan, g, first);
        return;
    }
    let (al, bl) = g.modes;
    let bk = t.bk as usize;
    let tiles_m = m.div_ceil(t.bm as usize).max(1);
    let tiles_n = n.div_ceil(t.bn as usize).max(1);
    let ntiles = tiles_m * tiles_n;
    let mut split = g.split;
    let mut kslice = k;
    if split > 1 {
        kslice = k.div_ceil(split).div_ceil(bk) * bk;
        split = k.div_ceil(kslice.max(1)).max(1);
    }
    // The kernel without edge code wherever it is valid (whole tiles and slabs, both operands
    // vec4-readable) and not turned off by a `Tuning`.
    let whole = m % t.bm as usize == 0 && n % t.bn as usize == 0 && k % bk == 0;
    let edge = !(g.edge_free && whole && al < 2 && bl < 2);
    let mut constants = vec![
        ("BM", f64::from(t.bm)),
        ("BN", f64::from(t.bn)),
        ("BK", f64::from(t.bk)),
        ("NBUF", f64::from(t.nbuf)),
        ("AL", f64::from(al)),
        ("BL", f64::from(bl)),
        ("EDGE", f64::from(u8::from(edge))),
    ];
    if let Some(u) = g.tri_c {
        constants.push(("TRI_C", uplo_code(u)));
    }
    if g.k_tri != 0.0 {
        constants.push(("K_TRI", g.k_tri));
    }
    let mut params = Params {
        m: m as u32,
        n: n as u32,
        k: k as u32,
        offa: a.offset,
        rsa: a.rs,
        csa: a.cs,
        offb: b.offset,
        rsb: b.rs,
        csb: b.cs,
        offc: c.offset,
        rsc: c.rs,
        csc: c.cs,
        alpha: g.alpha,
        beta: g.beta,
        tiles_m: tiles_m as u32,
        tiles: ntiles as u32,
        kslice: kslice as u32,
        batch: g.batch as u32,
        sba: a.bs,
        sbb: b.bs,
        sbc: c.bs,
        ..Params::default()
    };
    if split > 1 {
        constants.push(("SPLIT", 1.0));
        plan.scratch
            .push(ctx.scratch((split * m * n * plan.esize()) as u64));
        let part = BufRef::Scratch(plan.scratch.len() - 1);
        plan.steps.push(Step {
            entry: "gemm",
            params,
            constants,
            bindings: vec![(1, a.buf), (2, b.buf), (3, part), (4, a.buf), (5, b.buf)],
            groups: ctx.grid((ntiles * split) as u64),
            beta: false,
        });
        params.kslice = split as u32;
        plan.steps.push(Step {
            entry: "splitk_reduce",
            params,
            constants: Vec::new(),
            bindings: vec![(3, c.buf), (6, part)],
            groups: ctx.grid(((m * n) as u64).div_ceil(256)),
            beta: first,
        });
    } else {
        plan.steps.push(Step {
            entry: "gemm",
            params,
            constants,
            bindings: vec![(1, a.buf), (2, b.buf), (3, c.buf), (4, a.buf), (5, b.buf)],
            groups: ctx.grid(ntiles as u64 * g.batch as u64),
            beta: first,
        });
    }
}

/// One engine call of a product past one storage binding: windows of `op(A)` (rows
/// `i0..i1`, depth `p0..p1`), `op(B)` (`p0..p1`, `j0..j1`) and `C` (`i0..i1`, `j0..j1`), and
/// whether it is the first depth panel of its C block (which applies beta; the later ones add
/// with beta = 1).
pub(crate) struct Block {
    pub a: MatOperand,
    pub b: MatOperand,
    pub c: MatOperand,
    pub first: bool,
}

/// Halve `(rows, cols)` of a block of `o` until its window fits one binding, halving the side
/// whose stride contributes more to the span, to multiples of 64 while they are larger.
fn shrink(ctx: &Context, o: &MatOperand, rows: &mut usize, cols: &mut usize) -> bool {
    if o.block_fits(ctx, 4, *rows, *cols) {
        return false;
    }
    let half = |v: usize| {
        if v > 128 {
            v / 2 / 64 * 64
        } else {
            v.div_ceil(2)
        }
    };
    let along_rows = (*rows as u64 - 1) * u64::from(o.rs.unsigned_abs());
    let along_cols = (*cols as u64 - 1) * u64::from(o.cs.unsigned_abs());
    if along_rows >= along_cols && *rows > 1 {
        *rows = half(*rows);
    } else {
        *cols = half(*cols);
    }
    true
}

/// The engine calls of `C = alpha·op(A)·op(B) + beta·C` (operands in their `op` forms) whose
/// windows each fit one storage binding: none when every operand fits one binding whole.
/// C is tiled into blocks and the depth into panels, all as large as the binding allows
/// (sides halved from the whole problem until each of A's, B's and C's blocks fits), in
/// order: for each C block its depth panels one after the other.
pub(crate) fn gemm_blocks(
    ctx: &Context,
    a: &MatOperand,
    b: &MatOperand,
    c: &MatOperand,
) -> Vec<Block> {
    if a.fits(ctx) && b.fits(ctx) && c.fits(ctx) {
        return Vec::new();
    }
    let (m, n, k) = (c.rows, c.cols, a.cols);
    let (mut bm, mut bn, mut bk) = (m.max(1), n.max(1), k.max(1));
    while shrink(ctx, a, &mut bm, &mut bk)
        || shrink(ctx, b, &mut bk, &mut bn)
        || shrink(ctx, c, &mut bm, &mut bn)
    {}
    let mut out = Vec::new();
    for i0 in (0..m).step_by(bm) {
        let i1 = (i0 + bm).min(m);
        for j0 in (0..n).step_by(bn) {
            let j1 = (j0 + bn).min(n);
            // k = 0: one call per C block (C = beta·C), with empty A and B blocks.
            for p0 in (0..k.max(1)).step_by(bk) {
                let p1 = (p0 + bk).min(k).max(p0.min(k));
                out.push(Block {
                    a: a.block(ctx, 4, (i0, i1), (p0, p1)),
                    b: b.block(ctx, 4, (p0, p1), (j0, j1)),
                    c: c.block(ctx, 4, (i0, i1), (j0, j1)),
                    first: p0 == 0,
                });
            }
        }
    }
    out
}

/// [`gemm_blocks`] for a product restricted to the triangle `uplo` of a square C (`ssyrk`,
/// `sgemmtr`): square blocks on one grid of rows and columns, so that each block lies on the
/// diagonal (the engine's triangle variant, on the block's own diagonal), strictly inside the
/// triangle (a plain product) or strictly outside (skipped). With each: whether it is on the
/// diagonal.
pub(crate) fn tri_blocks(
    ctx: &Context,
    a: &MatOperand,
    b: &MatOperand,
    c: &MatOperand,
    uplo: Uplo,
) -> Vec<(Block, bool)> {
    if a.fits(ctx) && b.fits(ctx) && c.fits(ctx) {
        return Vec::new();
    }
    let (n, k) = (c.rows, a.cols);
    let (mut bm, mut bn, mut bk) = (n.max(1), n.max(1), k.max(1));
    loop {
        let shrunk = shrink(ctx, a, &mut bm, &mut bk)
            || shrink(ctx, b, &mut bk, &mut bn)
            || shrink(ctx, c, &mut bm, &mut bn);
        let side = bm.min(bn);
        (bm, bn) = (side, side);
        if !shrunk {
            break;
        }
    }
    let mut out = Vec::new();
    for i0 in (0..n).step_by(bm) {
        for j0 in (0..n).step_by(bm) {
            let inside = match uplo {
                Uplo::Lower => i0 >= j0,
                Uplo::Upper => i0 <= j0,
            };
            if !inside {
                continue;
            }
            let (i1, j1) = ((i0 + bm).min(n), (j0 + bm).min(n));
            for p0 in (0..k.max(1)).step_by(bk) {
                let p1 = (p0 + bk).min(k).max(p0.min(k));
                out.push((
                    Block {
                        a: a.block(ctx, 4, (i0, i1), (p0, p1)),
                        b: b.block(ctx, 4, (p0, p1), (j0, j1)),
                        c: c.block(ctx, 4, (i0, i1), (j0, j1)),
                        first: p0 == 0,
                    },
                    i0 == j0,
                ));
            }
        }
    }
    out
}

/// The dispatches of `C = alpha·A·B + beta·C` on the triangle `uplo` of C (`variant` has
/// `tri_c`), whole or over `blocks` from [`tri_blocks`]: diagonal blocks in `variant`, the
/// others plain, beta applied by each block's first depth panel.
#[allow(clippy::too_many_arguments)]
pub(crate) fn tri_plans<'a>(
    ctx: &Context,
    dims: (usize, usize, usize),
    alpha: impl Into<Scalar<'a>>,
    (a, b): (Operand<'a>, Operand<'a>),
    beta: impl Into<Scalar<'a>>,
    c: &'a MatOperand,
    variant: Variant,
    blocks: &'a [(Block, bool)],
) -> Vec<Plan<'a>> {
    let (alpha, beta) = (alpha.into(), beta.into());
    if blocks.is_empty() {
        return vec![engine(
            ctx,
            dims,
            alpha,
            a,
            b,
            beta,
            Operand::of(c),
            variant,
        )];
    }
    blocks
        .iter()
        .map(|(blk, diag)| {
            let dims = (blk.c.rows, blk.c.cols, blk.a.cols);
            let beta = super::first_or_one(blk.first, beta);
            let v = if *diag { variant } else { Variant::default() };
            engine(
                ctx,
                dims,
                alpha,
                Operand::of(&blk.a),
                Operand::of(&blk.b),
                beta,
                Operand::of(&blk.c),
                v,
            )
        })
        .collect()
}

/// The engine calls of `C = alpha·S·B + beta·C` for a structured r×r `S` (`a_mode` symmetric,
/// `ssymm`, or triangular, `strmm`; only its triangle read) past one storage binding, `B` and
/// `C` r×q (operands in the left-side form): none when every operand fits one binding whole.
/// `S` goes in square blocks on one grid (side `s`), C in blocks of `s` rows and as many
/// columns as fit. For each C block `(I, J)`, in order over the depth blocks `P` of S's grid:
/// the diagonal block `S_II` in `a_mode` (on its own triangle), a block inside the stored
/// triangle as a plain product, a block outside it as the transpose of its stored mirror
/// (symmetric) or not at all (triangular: zero); the first call of each C block applies beta,
/// the later ones add. With each call: its `AMode`.
pub(crate) fn structured_blocks(
    ctx: &Context,
    a: &MatOperand,
    b: &MatOperand,
    c: &MatOperand,
    a_mode: AMode,
) -> Vec<(Block, AMode)> {
    if a.fits(ctx) && b.fits(ctx) && c.fits(ctx) {
        return Vec::new();
    }
    let (r, q) = (c.rows, c.cols);
    let half = |v: usize| {
        if v > 128 {
            v / 2 / 64 * 64
        } else {
            v.div_ceil(2)
        }
    };
    let mut s = crate::layout::square_side(ctx, a, 4, &[]);
    let mut w;
    loop {
        let fits = |w: usize| b.block_fits(ctx, 4, s, w) && c.block_fits(ctx, 4, s, w);
        w = q.max(1);
        while w > 1 && !fits(w) {
            w = half(w);
        }
        if fits(w) || s == 1 {
            break;
        }
        s = half(s);
    }
    let uplo = match a_mode {
        AMode::Symmetric(u) | AMode::Triangular(u, _) => u,
        AMode::General => unreachable!("structured modes only"),
    };
    let ranges: Vec<(usize, usize)> = (0..r).step_by(s).map(|i| (i, (i + s).min(r))).collect();
    let mut out = Vec::new();
    for &ri in &ranges {
        for j0 in (0..q).step_by(w) {
            let rj = (j0, (j0 + w).min(q));
            let mut first = true;
            for &rp in &ranges {
                let stored = match uplo {
                    Uplo::Lower => ri.0 >= rp.0,
                    Uplo::Upper => ri.0 <= rp.0,
                };
                let (blk, mode) = if ri == rp {
                    (a.block(ctx, 4, ri, rp), a_mode)
                } else if stored {
                    (a.block(ctx, 4, ri, rp), AMode::General)
                } else if matches!(a_mode, AMode::Symmetric(_)) {
                    (a.block(ctx, 4, rp, ri).t(), AMode::General)
                } else {
                    continue;
                };
                out.push((
                    Block {
                        a: blk,
                        b: b.block(ctx, 4, rp, rj),
                        c: c.block(ctx, 4, ri, rj),
                        first,
                    },
                    mode,
                ));
                first = false;
            }
        }
    }
    out
}

/// The engine plans of `blocks` from [`structured_blocks`]: alpha in every call, beta in the
/// first call of each C block (the others add with beta = 1).
pub(crate) fn structured_plans<'a>(
    ctx: &Context,
    alpha: impl Into<Scalar<'a>>,
    beta: impl Into<Scalar<'a>>,
    blocks: &'a [(Block, AMode)],
) -> Vec<Plan<'a>> {
    let (alpha, beta) = (alpha.into(), beta.into());
    blocks
        .iter()
        .map(|(blk, mode)| {
            let dims = (blk.c.rows, blk.c.cols, blk.a.cols);
            let variant = Variant {
                a_mode: *mode,
                ..Variant::default()
            };
            let beta = super::first_or_one(blk.first, beta);
            engine(
                ctx,
                dims,
                alpha,
                Operand::of(&blk.a),
                Operand::of(&blk.b),
                beta,
                Operand::of(&blk.c),
                variant,
            )
        })
        .collect()
}
