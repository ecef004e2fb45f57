//! Matrix-matrix Level 3 tile engine (`wgsl/level3/gemm.wgsl`): `C = alpha·A·B + beta·C` with
//! `A`, `B` already in their `op` forms (strides swapped for a transpose, layout.rs).
//!
//! Every Level 3 routine runs on this one engine, through its [`Variant`] (WGSL `override`
//! constants): `sgemmtr`, `ssyrk` and `ssyr2k` restrict C to a triangle ([`Variant::tri_c`]),
//! `ssymm` reads A symmetrically and `strmm` reads it as a triangle ([`AMode`]), `ssyr2k`
//! accumulates its second product in the same tiles ([`Variant::syr2k`]), and `strsm`'s
//! off-diagonal updates are plain engine calls on sub-blocks ([`Operand::at`]).

use crate::context::Context;
use crate::flags::Uplo;
use crate::launch::Dispatch;
use crate::layout::MatOperand;

super::shader!(SHADER, "level3/gemm.wgsl");

/// Rows and columns of C per workgroup (the shader's `BM`, `BN`).
const BM: usize = 128;
const BN: usize = 128;

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
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
    vec_ok: u32,
}

/// Byte offsets of alpha and beta in the params, for device scalars.
pub(crate) const ALPHA: usize = std::mem::offset_of!(Params, alpha);
pub(crate) const BETA: usize = std::mem::offset_of!(Params, beta);

/// `C = alpha·A·B + beta·C` for general operands, one workgroup per 128×128 tile of C, split
/// along k where k is long ([`engine_split`]).
pub(crate) fn gemm<'a>(
    ctx: &Context,
    alpha: f32,
    a: &'a MatOperand,
    b: &'a MatOperand,
    beta: f32,
    c: &'a MatOperand,
) -> Vec<Dispatch<'a>> {
    let dims = (c.rows, c.cols, a.cols);
    let (a, b, c) = (Operand::of(a), Operand::of(b), Operand::of(c));
    engine_split(ctx, dims, alpha, a, b, beta, c, Variant::default())
}

/// The most of the reduction length k that one dispatch runs over; a longer k is split over
/// several dispatches ([`engine_split`]). Mesa's llvmpipe (lavapipe) stops the loops of a shader
/// invocation after 65,535 iterations in all (one counter for all its loops, nested ones
/// included, `LP_MAX_TGSI_LOOP_ITERATIONS`), silently; the k loop runs about 18 of them per 16 of
/// k (the 16-step inner loop and the slab loop), so 16,384 of k stays near 18,500 (DESIGN.md §3).
pub(crate) const K_SPLIT: usize = 16384;

/// `C = alpha·A·B + beta·C` as [`engine`], with k split into parts of at most [`K_SPLIT`]
/// (split-k over consecutive dispatches of one submission, which run in order): the first part
/// computes `alpha·A₁·B₁ + beta·C`, each later one adds `alpha·Aₚ·Bₚ` to C (beta = 1). A device
/// alpha is read by every part, a device beta only by the first ([`super::scalars`]). Only for
/// [`AMode::General`]: a symmetric or triangular A is m×m with k = m in one storage binding, and
/// lavapipe (the driver with the limit) binds at most 128 MiB, so there k = m ≤ 5,792.
#[allow(clippy::too_many_arguments)]
pub(crate) fn engine_split<'a>(
    ctx: &Context,
    (m, n, k): (usize, usize, usize),
    alpha: f32,
    a: Operand<'a>,
    b: Operand<'a>,
    beta: f32,
    c: Operand<'a>,
    variant: Variant,
) -> Vec<Dispatch<'a>> {
    if k <= K_SPLIT || alpha == 0.0 || variant.a_mode != AMode::General {
        return vec![engine(ctx, (m, n, k), alpha, a, b, beta, c, variant)];
    }
    (0..k)
        .step_by(K_SPLIT)
        .map(|k0| {
            let kc = K_SPLIT.min(k - k0);
            let beta = if k0 == 0 { beta } else { 1.0 };
            engine(
                ctx,
                (m, n, kc),
                alpha,
                a.at(0, k0),
                b.at(k0, 0),
                beta,
                c,
                variant,
            )
        })
        .collect()
}

/// An operand of one engine call: element `(i, j)` is `buffer[offset + i·rs + j·cs]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Operand<'a> {
    pub buffer: &'a wgpu::Buffer,
    pub offset: u32,
    pub rs: i32,
    pub cs: i32,
}

impl<'a> Operand<'a> {
    /// The whole uploaded matrix.
    pub fn of(m: &'a MatOperand) -> Self {
        Operand {
            buffer: &m.buffer,
            offset: m.offset,
            rs: m.rs,
            cs: m.cs,
        }
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

/// The engine's variant: its `override` constants.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Variant {
    /// Restrict C to this triangle (reads and writes).
    pub tri_c: Option<Uplo>,
    /// How A is read.
    pub a_mode: AMode,
    /// Accumulate the second `ssyr2k` product `B'·A'` (`B'(i,p) = B(p,i)`, `A'(p,j) = A(j,p)`).
    pub syr2k: bool,
}

fn uplo_code(u: Uplo) -> f64 {
    match u {
        Uplo::Lower => 1.0,
        Uplo::Upper => 2.0,
    }
}

impl Variant {
    fn constants(&self) -> Vec<(&'static str, f64)> {
        let mut out = Vec::new();
        if let Some(u) = self.tri_c {
            out.push(("TRI_C", uplo_code(u)));
        }
        match self.a_mode {
            AMode::General => {}
            AMode::Symmetric(u) => {
                out.push(("A_MODE", 1.0));
                out.push(("A_UPLO", uplo_code(u)));
            }
            AMode::Triangular(u, unit) => {
                out.push(("A_MODE", 2.0));
                out.push(("A_UPLO", uplo_code(u)));
                out.push(("A_UNIT", unit as u32 as f64));
            }
        }
        if self.syr2k {
            out.push(("SYR2K", 1.0));
        }
        out
    }
}

/// One dispatch of `C = alpha·A·B + beta·C` (C m×n, reduction length k; `dims = (m, n, k)`) in
/// `variant`, one workgroup per 128×128 tile of C (tiles outside a triangular C return at once).
#[allow(clippy::too_many_arguments)]
pub(crate) fn engine<'a>(
    ctx: &Context,
    (m, n, k): (usize, usize, usize),
    alpha: f32,
    a: Operand<'a>,
    b: Operand<'a>,
    beta: f32,
    c: Operand<'a>,
    variant: Variant,
) -> Dispatch<'a> {
    let tiles_m = m.div_ceil(BM).max(1);
    let tiles_n = n.div_ceil(BN).max(1);
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
        alpha,
        beta,
        tiles_m: tiles_m as u32,
        // The vec4 views of A and B cover their whole buffers only if these are 16-byte multiples.
        vec_ok: u32::from(a.buffer.size().is_multiple_of(16))
            | (u32::from(b.buffer.size().is_multiple_of(16)) << 1),
    };
    let groups = ctx.grid((tiles_m * tiles_n) as u64);
    Dispatch::new(
        &SHADER,
        "gemm",
        &params,
        &[a.buffer, b.buffer, c.buffer, a.buffer, b.buffer],
        groups,
    )
    .constants(&variant.constants())
}
