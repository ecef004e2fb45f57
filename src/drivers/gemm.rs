//! Matrix-matrix Level 3 tile engine (`wgsl/level3/gemm.wgsl`): `C = alpha·A·B + beta·C` with
//! `A`, `B` already in their `op` forms (strides swapped for a transpose, layout.rs).
//!
//! Every Level 3 routine runs on this one engine, through its [`Variant`]: `sgemmtr`, `ssyrk`
//! and `ssyr2k` restrict C to a triangle ([`Variant::tri_c`]), `ssymm` and `strmm` have their
//! structured A packed densely first (entry `pack`, [`AMode`]) and `strmm` skips the zero slabs
//! of its triangle, `ssyr2k` runs as two products, each scaled by alpha
//! ([`Variant::syr2k`]),
//! and `strsm`'s off-diagonal updates are plain engine calls on sub-blocks ([`Operand::at`]).
//!
//! A call becomes a [`Plan`]: the tile shape and buffering chosen from the adapter's limits and
//! the problem's shape ([`Config`]), optional packing of operands that the vec4 staging cannot
//! read (unaligned or strided), the transposed problem `Cᵀ = Bᵀ·Aᵀ` when C is column-major (so
//! that stores run along C's contiguous dimension), and split-k (partial sums of k slices in a
//! scratch buffer, then entry `splitk_reduce`) when C has too few tiles to fill the device.

mod blocks;
mod operand;
mod small;
mod tile;

pub(crate) use blocks::{gemm_blocks, solve_blocks, structured_blocks, tri_blocks, Block};
pub(crate) use operand::Operand;
use operand::{pack, vec_mode, BufRef, Op};
use small::{dispatch_small, small_kernel, K_SPLIT_SMALL};
use tile::config;
pub(crate) use tile::tuning;
pub use tile::{choose, choose_v2, set_tuning, wave_split, Config, Tile, TrsmLeaf, Tuning};

use super::elementwise;
use crate::context::{Context, Elem};
use crate::flags::Uplo;
use crate::launch::Dispatch;
use crate::layout::Scalar;
use crate::pool::Buf;

super::shader!(SHADER, GEMM);

/// Invocations per workgroup of `splitk_reduce`, `pack` and `gemm_small`.
const WG: u64 = super::registry::GEMM.constant("WG") as u64;

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
    /// `K_TRI`: the depth of the dispatch's first slab in the whole product (k in chunks).
    kbase: u32,
    _pad1: u32,
    _pad2: u32,
}

/// Byte offsets of alpha and beta in the params of every dispatch of a [`Plan`], for device
/// scalars.
const ALPHA: usize = std::mem::offset_of!(Params, alpha);
const BETA: usize = std::mem::offset_of!(Params, beta);

/// [`engine`] in f64 (`dgemm`, `dsyrk` and the other f64 Level 2 and 3 routines): the shader
/// instantiated with `alias T = f64;`, alpha and beta read from a small f64 buffer (binding 7,
/// `SCAL`), since the params hold f32. Needs `SHADER_F64` (the caller checks). A host alpha or beta is uploaded with the scalar buffer; a device one
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
    (m, n, k): (usize, usize, usize),
    alpha: impl Into<Scalar<'a, f64>>,
    a: Operand<'a>,
    b: Operand<'a>,
    beta: impl Into<Scalar<'a, f64>>,
    c: Operand<'a>,
    variant: Variant,
) -> crate::error::Result<Plan<'a>> {
    let panel = Panel::of(a, b, k, variant);
    engine_panels_f64(ctx, routine, (m, n), alpha, &[panel], beta, c, variant)
}

/// [`engine_panels`] in f64, as [`engine_f64`] is [`engine`] in f64.
///
/// # Errors
/// [`crate::Error::Gpu`] when the buffer of the scalars cannot be created.
#[allow(clippy::too_many_arguments)]
pub(crate) fn engine_panels_f64<'a>(
    ctx: &Context,
    routine: &'static str,
    dims: (usize, usize),
    alpha: impl Into<Scalar<'a, f64>>,
    panels: &[Panel<'a>],
    beta: impl Into<Scalar<'a, f64>>,
    c: Operand<'a>,
    variant: Variant,
) -> crate::error::Result<Plan<'a>> {
    let (alpha, beta) = (alpha.into(), beta.into());
    let (buf, copies) = elementwise::scalars_f64(ctx, routine, &[alpha, beta])?;
    let mark = elementwise::scalar_mark;
    let (alpha_mark, beta_mark) = (mark(&alpha, false), mark(&beta, true));
    let mut plan = engine_in(
        ctx,
        dims,
        alpha_mark,
        panels,
        beta_mark,
        c,
        variant,
        Some(buf),
    );
    plan.copies = Some(copies);
    Ok(plan)
}

/// One depth panel of an engine call over several ([`engine_panels`]): windows of `op(A)`
/// (m×k, its columns `p0..p1` of the whole product) and `op(B)` (k×n, its rows `p0..p1`),
/// and how this panel's A is read (a block of a symmetric or triangular operand may be
/// read in its own mode, the others as general blocks).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Panel<'a> {
    pub a: Operand<'a>,
    pub b: Operand<'a>,
    pub k: usize,
    pub a_mode: AMode,
}

impl<'a> Panel<'a> {
    /// The one panel of a whole product of depth `k`, A read as `variant` says.
    pub fn of(a: Operand<'a>, b: Operand<'a>, k: usize, variant: Variant) -> Self {
        Panel {
            a,
            b,
            k,
            a_mode: variant.a_mode,
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
    /// Triangular in `uplo`, stored densely with zeros outside the triangle (never packed:
    /// the products with the zero triangle are left out as for [`AMode::Triangular`]); the
    /// inverted diagonal blocks of `strsm` (`drivers/trsm.rs`).
    TriangularDense(Uplo),
}

/// The engine's variant.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Variant {
    /// Restrict C to this triangle (reads and writes).
    pub tri_c: Option<Uplo>,
    /// How A is read.
    pub a_mode: AMode,
    /// Add the second `ssyr2k` product `B'·A'` (`B'(i,p) = B(p,i)`, `A'(p,j) = A(j,p)`) in a
    /// second pass, each product scaled by alpha (`C ← alpha·A·B + beta·C`, then
    /// `C ← alpha·B'·A' + C`).
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

/// One engine call `C = alpha·A·B + beta·C` (C m×n, reduction length k; `dims = (m, n, k)`)
/// in `variant`, planned for `ctx`'s adapter.
#[allow(clippy::too_many_arguments)]
pub(crate) fn engine<'a>(
    ctx: &Context,
    (m, n, k): (usize, usize, usize),
    alpha: impl Into<Scalar<'a>>,
    a: Operand<'a>,
    b: Operand<'a>,
    beta: impl Into<Scalar<'a>>,
    c: Operand<'a>,
    variant: Variant,
) -> Plan<'a> {
    let panel = Panel::of(a, b, k, variant);
    engine_panels(ctx, (m, n), alpha, &[panel], beta, c, variant)
}

/// One engine call `C = alpha·Σ_p A_p·B_p + beta·C` over the depth panels `panels` of a
/// product (C m×n; `dims = (m, n)`; a product past one storage binding, whose A and B are
/// bound a panel at a time): with more than one, the panels' raw sums go into a scratch `z`
/// (dense, as split-k's partial sums: the first panel with beta = 0, the later ones adding,
/// alpha taken as 1, `UNSCALED`), and `splitk_reduce` forms `C = alpha·z + beta·C` once at the
/// end, so that alpha scales the whole sum as in one panel (an outside probe: past one
/// binding, sgemm, ssymm and dgemm scaled each panel apart, and alpha·P1 + alpha·P2
/// overflowed, or gave NaN for an infinite alpha, where alpha·(P1 + P2) is finite).
#[allow(clippy::too_many_arguments)]
pub(crate) fn engine_panels<'a>(
    ctx: &Context,
    dims: (usize, usize),
    alpha: impl Into<Scalar<'a>>,
    panels: &[Panel<'a>],
    beta: impl Into<Scalar<'a>>,
    c: Operand<'a>,
    variant: Variant,
) -> Plan<'a> {
    let (alpha, beta) = (alpha.into(), beta.into());
    let mut plan = engine_in(
        ctx,
        dims,
        alpha.value(),
        panels,
        beta.value(),
        c,
        variant,
        None,
    );
    plan.scalars = (alpha, beta);
    plan
}

/// [`engine_panels`], in f64 where `scal` holds alpha and beta as f64 (then `alpha` and `beta`
/// are the markers of `SCAL` in `wgsl/level3/gemm.wgsl`: 0 for a zero, 1 for beta = 1, 2 for
/// "read the value from `scal`").
#[allow(clippy::too_many_arguments)]
fn engine_in<'a>(
    ctx: &Context,
    (m, n): (usize, usize),
    alpha: f32,
    panels: &[Panel<'a>],
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
    let c = Op::ext(c);
    let [panel] = panels else {
        // Several panels: summed unscaled into z, then C = alpha·z + beta·C (the two sums of
        // ssyr2k go through here as two calls: `variant.syr2k` is for one panel only).
        debug_assert!(!variant.syr2k && !panels.is_empty());
        let batch = variant.batch.max(1);
        plan.scratch
            .push(ctx.scratch((batch * m * n * plan.esize()) as u64));
        let zi = plan.scratch.len() - 1;
        let z = Op {
            bs: (m * n) as i32,
            ..Op::scratch(zi, n as i32, 1)
        };
        for (i, p) in panels.iter().enumerate() {
            let beta = if i == 0 { 0.0 } else { 1.0 };
            panel_product(ctx, &mut plan, (m, n), alpha, p, beta, z, variant, true);
        }
        let k = panels.iter().map(|p| p.k).sum();
        let step = reduce(
            ctx,
            (m, n, k),
            alpha,
            beta,
            c,
            zi,
            variant.tri_c,
            batch,
            false,
        );
        plan.steps.push(step);
        return plan;
    };
    panel_product(
        ctx,
        &mut plan,
        (m, n),
        alpha,
        panel,
        beta,
        c,
        variant,
        false,
    );
    plan
}

/// The dispatches of `C = alpha·A·B + beta·C` over one panel of depth `panel.k` (a whole
/// product, or one panel of several, `part`: its raw sum added into the scratch `c`, with
/// alpha taken as 1 and beta a host 0 or 1, never the device one).
#[allow(clippy::too_many_arguments)]
fn panel_product<'a>(
    ctx: &Context,
    plan: &mut Plan<'a>,
    (m, n): (usize, usize),
    alpha: f32,
    panel: &Panel<'a>,
    beta: f32,
    c: Op<'a>,
    variant: Variant,
    part: bool,
) {
    let k = panel.k;
    let (mut a, b) = (Op::ext(panel.a), Op::ext(panel.b));
    let mut k_tri = 0.0;
    // A structured A is packed densely (column-major, like the vec4 staging along m wants);
    // with alpha = 0 nothing of A is read at all (the kernel reads neither A nor B then).
    let a_mode = if alpha == 0.0 {
        AMode::General
    } else {
        panel.a_mode
    };
    match a_mode {
        AMode::General => {}
        AMode::Symmetric(u) => {
            a = pack(
                ctx,
                plan,
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
            a = pack(ctx, plan, a, (m, k), &consts);
            k_tri = uplo_code(u);
        }
        AMode::TriangularDense(u) => k_tri = uplo_code(u),
    }
    let dims = (m, n, k);
    let batch = variant.batch.max(1);
    product(
        ctx,
        plan,
        dims,
        alpha,
        a,
        b,
        beta,
        c,
        (variant.tri_c, k_tri),
        batch,
        part,
    );
    if variant.syr2k && alpha != 0.0 && k > 0 {
        // The second product B'·A' = op(B)·op(A)ᵀ added in a second pass: two sums of k
        // products, each scaled by alpha, as the formula alpha·A·Bᵀ + alpha·B·Aᵀ has it (one
        // sum of 2k products scaled once lost the NaN of an infinite alpha times a zero second
        // product: Inf·(Inf + 0) = Inf, where the formula gives Inf + Inf·0 = NaN); beta,
        // device or not, applied by the first only.
        let (a2, b2) = (b.t(), a.t());
        let first = plan.steps.len();
        product(
            ctx,
            plan,
            dims,
            alpha,
            a2,
            b2,
            1.0,
            c,
            (variant.tri_c, 0.0),
            1,
            part,
        );
        for s in &mut plan.steps[first..] {
            s.beta = false;
        }
    }
}

/// The `splitk_reduce` step `C = alpha·z + beta·C` (inside the triangle `tri_c` of C where
/// there is one) from the dense scratch `z` (plan scratch `zi`, C order, product b at b·m·n)
/// of a product in several k chunks or depth panels; `unscaled`: alpha taken as 1 and beta a
/// host value (the chunks of one panel of several, added into that panel's scratch).
#[allow(clippy::too_many_arguments)]
fn reduce<'a>(
    ctx: &Context,
    (m, n, k): (usize, usize, usize),
    alpha: f32,
    beta: f32,
    c: Op<'a>,
    zi: usize,
    tri_c: Option<Uplo>,
    batch: usize,
    unscaled: bool,
) -> Step<'a> {
    let params = reduce_params(
        (m, n, k),
        (c.offset, c.rs, c.cs, c.bs),
        (alpha, beta),
        batch,
    );
    let mut constants = tri_c.map_or(Vec::new(), |u| vec![("TRI_C", uplo_code(u))]);
    if unscaled {
        constants.push(("UNSCALED", 1.0));
    }
    Step {
        entry: "splitk_reduce",
        params,
        constants,
        bindings: vec![(3, c.buf), (6, BufRef::Scratch(zi))],
        groups: ctx.grid(((batch.max(1) * m * n) as u64).div_ceil(WG)),
        beta: !unscaled,
    }
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
    (tri_c, k_tri): (Option<Uplo>, f64),
    batch: usize,
    part: bool,
) {
    let splittable = tri_c.is_none() && k_tri == 0.0 && batch == 1;
    let esize = plan.esize();
    let (cfg, force_pack, force_edge) = config(ctx, (m, n, k), batch, splittable, esize);
    let (mut m, mut n, mut a, mut b, mut c, mut tri_c, mut k_tri) = (m, n, a, b, c, tri_c, k_tri);
    // Column-major C: solve Cᵀ = Bᵀ·Aᵀ, so that stores run along C's contiguous dimension
    // (the same products summed in the same order: the same bits). A triangular A becomes a
    // triangular B (K_TRI 1, 2 ↔ 3, 4): strmm with B on the right or in F order runs as fast
    // as on the left in C order.
    if cfg.swap && c.rs.abs() == 1 && c.cs.abs() != 1 {
        (m, n) = (n, m);
        (a, b) = (b.t(), a.t());
        c = c.t();
        tri_c = tri_c.map(flip);
        k_tri = swap_k_tri(k_tri);
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
    // order; with more than one, their raw sums go into a scratch `z` laid out as split-k's
    // partial sums (dense, C order, product b at b·m·n), the first chunk with beta = 0, the
    // later ones adding to it (beta = 1), alpha taken as 1 (`UNSCALED`), and `splitk_reduce`
    // forms C = alpha·z + beta·C at the end: alpha scales the whole sum once, as in one
    // dispatch, whatever k (an outside probe: ssyrk with alpha = 1e38 and a finite
    // alpha·A·Aᵀ gave NaN past k = 16,384, alpha·P1 + alpha·P2 overflowing apart).
    let t = cfg.tile;
    let max = ctx.limits().max_storage_buffer_binding_size as usize / esize;
    let mut split = cfg.split.max(1);
    // The partial sums must fit one binding.
    while split > 1 && split * m * n > max {
        split /= 2;
    }
    let chunk = if small_kernel(batch, (m, n, k), bl, tri_c, k_tri) {
        K_SPLIT_SMALL
    } else {
        let most = tuning()
            .and_then(|t| t.k_chunk)
            .map_or(K_SPLIT, |c| (c / 32).max(1) * 32);
        split * most
    };
    let vguard = tuning().and_then(|t| t.edge_vec4) != Some(false);
    let chunked = k > chunk;
    let (z, c_all, beta_all) = (
        chunked.then(|| {
            plan.scratch
                .push(ctx.scratch((batch.max(1) * m * n * esize) as u64));
            plan.scratch.len() - 1
        }),
        c,
        beta,
    );
    let (c, beta) = match z {
        Some(i) => (
            Op {
                bs: (m * n) as i32,
                ..Op::scratch(i, n as i32, 1)
            },
            0.0,
        ),
        None => (c, beta),
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
            kbase: k0,
            unscaled: chunked || part,
            edge_free: force_edge != Some(true),
            vguard,
            batch,
        };
        dispatch(ctx, plan, g, first && !chunked && !part);
        k0 += kc;
        if k0 >= k {
            break;
        }
    }
    if let Some(i) = z {
        // C = alpha·z + beta·C, inside the triangle of C where there is one (a part of a
        // panel sum: z added into the panels' scratch, unscaled).
        let step = reduce(
            ctx,
            (m, n, k),
            alpha,
            beta_all,
            c_all,
            i,
            tri_c,
            batch,
            part,
        );
        plan.steps.push(step);
    }
}

/// The params of `splitk_reduce` over one slice (a scratch of raw sums): C m×n (`dims` with
/// the depth k, only tested for 0), at `(offset, rs, cs, batch stride)`, alpha, beta, batch.
fn reduce_params(
    (m, n, k): (usize, usize, usize),
    (offc, rsc, csc, sbc): (u32, i32, i32, i32),
    (alpha, beta): (f32, f32),
    batch: usize,
) -> Params {
    Params {
        m: m as u32,
        n: n as u32,
        k: k as u32,
        offc,
        rsc,
        csc,
        sbc,
        alpha,
        beta,
        batch: batch as u32,
        kslice: 1,
        ..Params::default()
    }
}

/// The dispatch `y = alpha·z + beta·y` (entry `splitk_reduce` on an m×1 C, one slice; f32)
/// for `y` and a dense scratch `z` of its length: the end of a matrix-vector product past one
/// storage binding whose blocks added their raw products into `z` (`drivers/gemv.rs`), so that
/// alpha scales the whole sum once. alpha = 0 reads no `z`, beta = 0 no `y`; device scalars
/// are read into its params.
pub(crate) fn scale_dispatch<'a>(
    ctx: &Context,
    alpha: Scalar<'a>,
    z: &'a Buf,
    beta: Scalar<'a>,
    y: &'a crate::layout::VecOperand,
) -> Dispatch<'a> {
    let scalars = (alpha.value(), beta.value());
    let params = reduce_params((y.len, 1, 1), (y.offset, y.inc, 1, 0), scalars, 1);
    let groups = ctx.grid((y.len as u64).div_ceil(WG));
    let d = Dispatch::new(&SHADER, "splitk_reduce", &params, &[], groups).bindings(&[
        (3, &y.buffer),
        (6, z),
        (7, z),
    ]);
    beta.apply(alpha.apply(d, ALPHA), BETA)
}

/// The most of k that one workgroup runs over in one dispatch. Mesa's llvmpipe (lavapipe)
/// stops the loops of an invocation after 65,535 iterations in all (one counter for all its
/// loops, nested ones included), silently. Per k slab the kernel runs at most 1 + BK + 2·32
/// loop iterations (the slab loop, the BK-step product loop, the element-wise staging loops
/// of A and B: BM·BK/NT ≤ 32 each), i.e. at most 97 for 64×64×32 and 33 for 128×128×16, so
/// 16,384 of k is at most 512 slabs, 49,664 iterations, plus 64 for the stores (DESIGN.md §3).
/// Longer k is split over dispatches (and split-k slices never exceed it).
pub(crate) const K_SPLIT: usize = 16384;

/// The shader's `K_TRI` for the transposed problem `Cᵀ = Bᵀ·Aᵀ`: a triangular A (1 lower,
/// 2 upper) is a triangular `B = Aᵀ` (3: zero below its diagonal, 4: above), and back.
fn swap_k_tri(k_tri: f64) -> f64 {
    match k_tri as u32 {
        1 => 3.0,
        2 => 4.0,
        3 => 1.0,
        4 => 2.0,
        _ => k_tri,
    }
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
    /// The depth of `a` and `b`'s first slab in the whole product (k in chunks).
    kbase: usize,
    /// A k chunk of a product in several: raw sums added into the scratch `c` (`UNSCALED`).
    unscaled: bool,
    edge_free: bool,
    /// Guarded vec4 reads on edge tiles and partial slabs (`VGUARD`).
    vguard: bool,
    batch: usize,
}

impl Gemm<'_> {
    /// The params of its shape, operands, scalars and batch (tiles and slices left at 0).
    fn params(&self) -> Params {
        let (m, n, k) = self.dims;
        let (a, b, c) = (self.a, self.b, self.c);
        Params {
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
            alpha: self.alpha,
            beta: self.beta,
            batch: self.batch as u32,
            sba: a.bs,
            sbb: b.bs,
            sbc: c.bs,
            kbase: self.kbase as u32,
            ..Params::default()
        }
    }
}

/// Emit `g`; `first`: its last dispatch applies beta (a device beta is read there only).
fn dispatch<'a>(ctx: &Context, plan: &mut Plan<'a>, g: Gemm<'a>, first: bool) {
    let (m, n, k) = g.dims;
    let (a, b, c, t) = (g.a, g.b, g.c, g.tile);
    if small_kernel(g.batch, g.dims, g.modes.1, g.tri_c, g.k_tri) {
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
    if edge && g.vguard && (al < 2 || bl < 2) {
        constants.push(("VGUARD", 1.0));
    }
    if crate::lab::gemm_fma() == Some(true) {
        constants.push(("FMA", 1.0));
    }
    if g.unscaled {
        constants.push(("UNSCALED", 1.0));
    }
    if let Some(u) = g.tri_c {
        constants.push(("TRI_C", uplo_code(u)));
    }
    if g.k_tri != 0.0 {
        constants.push(("K_TRI", g.k_tri));
        if tuning().and_then(|t| t.tri_heavy_first) != Some(false) {
            constants.push(("HEAVY_FIRST", 1.0));
        }
    }
    let mut params = Params {
        tiles_m: tiles_m as u32,
        tiles: ntiles as u32,
        kslice: kslice as u32,
        ..g.params()
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
            constants: if g.unscaled {
                vec![("UNSCALED", 1.0)]
            } else {
                Vec::new()
            },
            bindings: vec![(3, c.buf), (6, part)],
            groups: ctx.grid(((m * n) as u64).div_ceil(WG)),
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
