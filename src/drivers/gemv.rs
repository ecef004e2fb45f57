//! Matrix-vector Level 2 driver (`wgsl/level2/gemv.wgsl`): `y = alpha·A·x + beta·y` with `A`
//! already in its `op` form (strides swapped for a transpose, layout.rs), for the whole family:
//! general (`sgemv`), symmetric (`ssymv`) and triangular (`strmv`) operators are the shader's
//! `MODE` override, with `LOWER` / `UNIT` for the triangle and the diagonal ([`Variant`]).

use crate::context::{Context, Elem};
use crate::flags::{Diag, Uplo};
use crate::launch::Dispatch;
use crate::layout::{self, MatOperand, Scalar, VecOperand};
use crate::pool::Buf;

mod one_pass;
mod two_pass;
mod wide64;
pub(crate) use one_pass::{plan as one_pass_plan, symv_one_pass};
pub(crate) use two_pass::symv_two_pass;
pub(crate) use wide64::{product_f64, ScalarsF64};

super::shader!(SHADER, GEMV);

const WG: u64 = super::registry::GEMV.constant("WG") as u64;

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    m: u32,
    n: u32,
    offa: u32,
    rsa: i32,
    csa: i32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    alpha: f32,
    beta: f32,
    _pad: u32,
}

/// Which operator the matrix operand stands for (the shader's `MODE`, `LOWER`, `UNIT`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Variant {
    /// `A` as stored, every element read (`sgemv`).
    General,
    /// The symmetric matrix whose triangle `uplo` is stored; the other triangle is never read
    /// (`ssymv`).
    Symmetric(Uplo),
    /// The triangle `uplo` of `A` (diagonal 1 and never read for `Diag::Unit`); the other triangle
    /// is never read (`strmv`). The output `y` must be a buffer other than `x`'s, with `beta = 0`.
    Triangular(Uplo, Diag),
    /// The triangle `uplo` of `A` without its diagonal (the wide kernels' `STRICT`; the second
    /// pass of [`symv_two_pass`]).
    Strict(Uplo),
}

impl Variant {
    fn constants(self) -> [(&'static str, f64); 3] {
        let (mode, uplo, unit) = match self {
            Variant::General => (0, Uplo::Lower, false),
            Variant::Symmetric(uplo) => (1, uplo, false),
            Variant::Triangular(uplo, diag) => (2, uplo, diag == Diag::Unit),
            Variant::Strict(uplo) => (2, uplo, false),
        };
        [
            ("MODE", mode as f64),
            ("UPLO", super::uplo(Some(uplo))),
            ("UNIT", unit as u32 as f64),
        ]
    }
}

/// Byte offsets of alpha and beta in the params (both kernels' params), for device scalars.
const ALPHA: usize = std::mem::offset_of!(Params, alpha);
const BETA: usize = std::mem::offset_of!(Params, beta);
const _: () = assert!(
    ALPHA == std::mem::offset_of!(WideParams, alpha)
        && BETA == std::mem::offset_of!(WideParams, beta)
);

super::shader!(WIDE, GEMV_WIDE);

/// Params of `wgsl/level2/gemv_wide.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct WideParams {
    m: u32,
    n: u32,
    offa: u32,
    rsa: i32,
    csa: i32,
    offx: u32,
    incx: i32,
    offy: u32,
    incy: i32,
    alpha: f32,
    beta: f32,
    chunks: u32,
    chunk: u32,
    row_blocks: u32,
    /// The first partial-sum slot of this dispatch's chunks (`partial[(cbase + c)·m + i]`).
    cbase: u32,
    /// 1: deliver partial sums even with one chunk (a pass of [`symv_two_pass`]).
    spill: u32,
}

impl WideParams {
    /// The operands' sizes, offsets and strides and alpha, beta (host values or markers), on
    /// one chunk with no spill and no row blocks (each kernel sets its grid's fields).
    fn of(a: &MatOperand, x: &VecOperand, y: &VecOperand, alpha: f32, beta: f32) -> Self {
        WideParams {
            m: a.rows as u32,
            n: a.cols as u32,
            offa: a.offset,
            rsa: a.rs,
            csa: a.cs,
            offx: x.offset,
            incx: x.inc,
            offy: y.offset,
            incy: y.inc,
            alpha,
            beta,
            chunks: 1,
            chunk: 0,
            row_blocks: 0,
            cbase: 0,
            spill: 0,
        }
    }
}

/// Where a wide product delivers its sums when it is one pass of several ([`symv_two_pass`]):
/// into the partial-sum slots from `base` on, and, for the last pass, `gemv_finish` over
/// `total` slots.
#[derive(Debug, Clone, Copy)]
struct Spill {
    base: u64,
    total: Option<u64>,
}

/// Workgroups the wide kernels aim for before splitting the columns into chunks (a few per
/// compute unit of a large GPU: the H200 has 132); the lab's [`crate::lab::set_gemv_shape`]
/// replaces it. 1024 since the H200 run `benches/results/2026-12-02-s8/q1/red.log` (2048
/// before): at n = 4096 the row-contiguous sgemv runs its 1024 row blocks in one chunk, with
/// no `gemv_finish` (2757 → 3300 GB/s), and the column-contiguous one in fewer chunks (2395 →
/// 2773 GB/s); the skinny shapes read the same or faster (4×2^23 C order 3524 → 3701).
const TARGET_GROUPS: u64 = 1024;

/// The target for a triangle (strmv, and the two passes of ssymv): twice [`TARGET_GROUPS`], since
/// the chunks wholly outside the triangle hold no work, so that more chunks keep more workgroups
/// busy. On the H200 at n = 16384 (`benches/results/2026-12-02-s10/q1/trmv.log`, targets 1024 /
/// 2048 / 4096): strmv LT 2631 / 2899 / 3233 GB/s, UT 2654 / 3177 / 2894; ssymv L 1658 / 1754 /
/// 1845, U 1711 / 1891 / 1755.
const TARGET_GROUPS_TRIANGLE: u64 = 2 * TARGET_GROUPS;

/// The kernel `gemv` runs and its sizes, chosen from the operator's strides and shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Kernel {
    /// The first kernels: `gemv_rows` (one row per invocation) or `gemv_dot` (one row per
    /// workgroup) of `wgsl/level2/gemv.wgsl`; also every symmetric operator.
    Legacy,
    /// `gemv_rowdot` or `gemv_coldot` of `wgsl/level2/gemv_wide.wgsl`.
    Wide {
        /// `gemv_coldot` (columns contiguous) rather than `gemv_rowdot`.
        coldot: bool,
        /// Invocations per row (rowdot) or row units per workgroup (coldot).
        lanes: u32,
        /// A read as vec4 units.
        vec: bool,
        row_blocks: u64,
        chunks: u64,
        /// Columns per chunk (a multiple of 4).
        chunk: u64,
    },
    /// `symv_tiles` of `wgsl/level2/gemv_wide.wgsl` (ssymv: 64×64 tiles of the stored
    /// triangle, each read once and used for both of its products), then `gemv_finish`.
    SymTiles {
        /// Tiles per side, ⌈n/64⌉: the partial sums per row.
        blocks: u64,
        /// The tile load runs down the columns (`rs = 1`).
        cols_fast: bool,
        /// Whole off-diagonal tiles read as vec4 units.
        vec: bool,
        /// `symv_lines` (the default: 128×128 tiles held in registers, [`SYM_LINES`]) rather
        /// than `symv_tiles` (64×64 tiles in workgroup memory; lab `Scalar`).
        lines: bool,
    },
}

/// The tile side of `symv_lines` (ssymv's kernel, issue 12 round 2; promoted from the lab's
/// `Experimental` after the H200 run `benches/results/2026-12-01-s6/q1`:
/// `symv_tiles` reads 0.175 of copy bandwidth on the H200 at n = 16384, 2026-12-01). Its
/// predecessor there, `symv_strip` (strips of 8 tiles of 64 per workgroup, 661 GB/s against
/// 708 for `symv_tiles`, `benches/results/2026-12-01-s4/p1`), is gone. Both keep each tile in
/// workgroup memory: per element of A about 5.5 workgroup-memory accesses (the tile store,
/// then the row and the column product each read it and x, 2-way bank conflicts), against
/// 16 bytes of global load per invocation before three barriers, which is the likely bound
/// (unmeasured); `symv_lines` keeps its tile in registers, 64 elements (16 vec4 loads in
/// flight) per invocation and about 0.5 workgroup-memory accesses per element.
pub(crate) const SYM_LINES: u64 = super::registry::GEMV_WIDE.constant("LB") as u64;

fn scalar_variant(v: crate::lab::Variant) -> bool {
    v == crate::lab::Variant::Scalar
}

/// The kernel for `mode` on `a` (already in its op form).
pub(crate) fn plan(mode: Variant, a: &MatOperand) -> Kernel {
    let variant = crate::lab::get(crate::lab::Driver::Matvec);
    if variant == crate::lab::Variant::Legacy {
        return Kernel::Legacy;
    }
    if matches!(mode, Variant::Symmetric(_)) {
        let cols_fast = a.rs.abs() == 1 && a.cs.abs() != 1;
        let (unit, other) = if cols_fast {
            (a.rs, a.cs)
        } else {
            (a.cs, a.rs)
        };
        // `symv_lines` (H200, 2026-12-01, n = 16384: 923–925 GB/s against `symv_tiles`' 290
        // (L) and 718 (U), `benches/results/2026-12-01-s6/q1`): f64's kernel, f32's with lab
        // `Experimental` (f32's default is [`symv_two_pass`]); lab `Scalar` keeps
        // `symv_tiles` with scalar loads as the reference path.
        let lines = !scalar_variant(variant);
        let side = if lines { SYM_LINES } else { 64 };
        return Kernel::SymTiles {
            blocks: (a.rows as u64).div_ceil(side),
            cols_fast,
            vec: !scalar_variant(variant)
                && unit == 1
                && a.offset.is_multiple_of(4)
                && other.rem_euclid(4) == 0,
            lines,
        };
    }
    let (m, n) = (a.rows as u64, a.cols as u64);
    let scalar = variant == crate::lab::Variant::Scalar;
    let coldot = a.rs.abs() == 1 && a.cs.abs() != 1;
    let (lanes, row_blocks, step, vec) = if coldot {
        let units = m.div_ceil(4);
        // Row units per workgroup: 64 (1 KiB contiguous per column), more when there are few
        // columns, so that each invocation still has about 8 columns to load (a tall-skinny
        // m×4 operator runs 256 row units and one column lane), fewer when m is small.
        // The lab's `set_gemv_shape` sets the column lanes instead (issue 12: the
        // tall-skinny m×4 sgemv on this kernel read 0.67 of copy on the H200 at m = 2^23,
        // against 0.96 for the row-contiguous one, whose invocations load one unit each).
        let col_lanes = match crate::lab::gemv_shape().col_lanes {
            0 => n.div_ceil(8).next_power_of_two().clamp(1, 4),
            k => u64::from(k).next_power_of_two().clamp(1, 256),
        };
        let lanes = units.next_power_of_two().clamp(1, 256 / col_lanes);
        let vec = a.rs == 1 && a.offset.is_multiple_of(4) && a.cs.rem_euclid(4) == 0;
        // A lane steps over 256 / lanes columns.
        (lanes, units.div_ceil(lanes), 256 / lanes, vec)
    } else {
        let units = n.div_ceil(4);
        let lanes = units.div_ceil(8).next_power_of_two().clamp(1, 64);
        let vec = a.cs == 1 && a.offset.is_multiple_of(4) && (a.rs.rem_euclid(4) == 0 || m == 1);
        // A lane steps over 4·lanes columns.
        (lanes, m.div_ceil(256 / lanes), 4 * lanes, vec)
    };
    // At least 8 steps per lane in a chunk; at most 16,384 (loop trip counts, DESIGN.md §3).
    let most = (n / (8 * step)).max(1);
    let least = n.div_ceil(16_384 * step);
    let target = match crate::lab::gemv_shape().groups {
        0 if mode == Variant::General => TARGET_GROUPS,
        0 => TARGET_GROUPS_TRIANGLE,
        g => u64::from(g),
    };
    let chunks = target.div_ceil(row_blocks).clamp(1, most).max(least);
    let chunk = n.div_ceil(chunks).div_ceil(4) * 4;
    Kernel::Wide {
        coldot,
        lanes: lanes as u32,
        vec: vec && !scalar,
        row_blocks,
        chunks: n.div_ceil(chunk),
        chunk,
    }
}

/// The scratch buffer of a [`Kernel`]: the chunks' partial sums (`chunks·m` elements), or a
/// 16-byte placeholder where there is one chunk. The kernels write every partial sum before
/// `gemv_finish` reads it (each chunk delivers each of its rows, alpha = 0 included; each
/// (slot, row) pair of the symmetric kernels is written by one workgroup), so the buffer is
/// not cleared (lab `Legacy`: cleared, as the first kernels had it): no clear command and
/// barrier before the product. On the H200 (2026-12-01, `benches/results/2026-12-01-s4/p1`)
/// that took sgemv 4096 from 35.5–39.9 µs to 24.3–28.0 µs (0.48–0.54 of copy to 0.69–0.79),
/// 8192 from 0.80–0.90 of copy to 0.93–1.02.
pub(crate) fn scratch(ctx: &Context, kernel: Kernel, a: &MatOperand) -> crate::pool::Buf {
    let words = scratch_words(kernel, a);
    if crate::lab::get(crate::lab::Driver::Matvec) == crate::lab::Variant::Legacy {
        return ctx.zeroed(words * 4);
    }
    ctx.scratch(words * 4)
}

/// The elements of a [`Kernel`]'s scratch on `a`: the chunks' (or the symmetric tiles')
/// partial sums, `chunks·m`, or a 4-element placeholder where there is one chunk.
fn scratch_words(kernel: Kernel, a: &MatOperand) -> u64 {
    match kernel {
        Kernel::Wide { chunks, .. } if chunks > 1 => chunks * a.rows as u64,
        Kernel::SymTiles { blocks, .. } => blocks * a.rows as u64,
        _ => 4,
    }
}

/// `dispatches` reading alpha and beta from device scalars where they are: the legacy split
/// parts take beta in their first part only ([`super::scalars`]); the other kernels take both
/// in every dispatch (the last one, or the only one, applies them).
fn scalars<'d>(
    kernel: Kernel,
    dispatches: Vec<Dispatch<'d>>,
    alpha: &Scalar<'d>,
    beta: &Scalar<'d>,
) -> Vec<Dispatch<'d>> {
    match kernel {
        Kernel::Legacy => super::scalars(dispatches, alpha, ALPHA, beta, BETA),
        _ => dispatches
            .into_iter()
            .map(|d| beta.apply(alpha.apply(d, ALPHA), BETA))
            .collect(),
    }
}

/// The dispatches of `y = alpha·A·x + beta·y` with `kernel` (from [`plan`]) and its `scratch`.
/// [`Kernel::Legacy`]: rows of a column-contiguous `A` go one per invocation (coalesced down the
/// columns); rows of a row-contiguous or strided `A` go one per workgroup. [`Kernel::Wide`]:
/// see `wgsl/level2/gemv_wide.wgsl`; alpha and beta are applied by the last dispatch. alpha and
/// beta may be on the device: they are read into the params of the dispatches that apply them
/// ([`scalars`]), where the shader tests their values (DESIGN.md §3).
#[allow(clippy::too_many_arguments)]
pub(crate) fn gemv<'a>(
    ctx: &Context,
    mode: Variant,
    alpha: impl Into<Scalar<'a>>,
    a: &'a MatOperand,
    x: &'a VecOperand,
    beta: impl Into<Scalar<'a>>,
    y: &'a VecOperand,
    kernel: Kernel,
    scratch: &'a Buf,
) -> Vec<Dispatch<'a>> {
    let (alpha, beta) = (alpha.into(), beta.into());
    let d = gemv_host(
        ctx,
        mode,
        alpha.value(),
        a,
        x,
        beta.value(),
        y,
        kernel,
        scratch,
        None,
        None,
    );
    scalars(kernel, d, &alpha, &beta)
}

/// [`gemv`] with host values of alpha and beta (placeholders where they are on the device).
#[allow(clippy::too_many_arguments)]
fn gemv_host<'a>(
    ctx: &Context,
    mode: Variant,
    alpha: f32,
    a: &'a MatOperand,
    x: &'a VecOperand,
    beta: f32,
    y: &'a VecOperand,
    kernel: Kernel,
    scratch: &'a Buf,
    scal: Option<&'a Buf>,
    spill: Option<Spill>,
) -> Vec<Dispatch<'a>> {
    let (coldot, lanes, vec, row_blocks, chunks, chunk) = match kernel {
        Kernel::Legacy => return legacy(ctx, mode, alpha, a, x, beta, y),
        Kernel::SymTiles { blocks, vec, .. } => (false, 1, vec, 0, blocks, 64),
        Kernel::Wide {
            coldot,
            lanes,
            vec,
            row_blocks,
            chunks,
            chunk,
        } => (coldot, lanes, vec, row_blocks, chunks, chunk),
    };
    let params = WideParams {
        chunks: chunks as u32,
        chunk: chunk as u32,
        row_blocks: row_blocks as u32,
        cbase: spill.map_or(0, |s| s.base as u32),
        spill: u32::from(spill.is_some()),
        ..WideParams::of(a, x, y, alpha, beta)
    };
    let [mode_c, lower, unit] = mode.constants();
    let strict = (
        "STRICT",
        f64::from(u32::from(matches!(mode, Variant::Strict(_)))),
    );
    // Binding 7: the f64 scalars (`SCAL`), or A's buffer, never read then.
    let seven: &'a Buf = scal.unwrap_or(&a.buffer);
    let (scal_c, elem) = match scal {
        Some(_) => (("SCAL", 1.0), Elem::F64),
        None => (("SCAL", 0.0), Elem::F32),
    };
    // x as vec4 units too (rowdot): unit stride, aligned offset, whole vec4s of x.
    let xvec = vec && !coldot && x.inc == 1 && x.offset.is_multiple_of(4) && x.len >= 4;
    let constants = [
        mode_c,
        lower,
        unit,
        strict,
        ("LANES", f64::from(lanes)),
        ("VEC", f64::from(u32::from(vec))),
        ("XVEC", f64::from(u32::from(xvec))),
        scal_c,
    ];
    // `gemv_coldot4` (lab `Experimental`): 4 columns' loads in flight per invocation.
    let four = crate::lab::get(crate::lab::Driver::Matvec) == crate::lab::Variant::Experimental;
    let entry = match (coldot, four) {
        (true, true) => "gemv_coldot4",
        (true, false) => "gemv_coldot",
        _ => "gemv_rowdot",
    };
    let a_buf: &'a Buf = &a.buffer;
    let x_buf: &'a Buf = &x.buffer;
    let mut bindings = vec![
        (1, a_buf),
        (2, x_buf),
        (3, &y.buffer),
        (4, a_buf),
        (6, scratch),
        (7, seven),
    ];
    if !coldot {
        bindings.push((5, x_buf));
    }
    let mut d = if let Kernel::SymTiles {
        blocks,
        cols_fast,
        lines,
        ..
    } = kernel
    {
        let entry = if lines { "symv_lines" } else { "symv_tiles" };
        let groups = blocks * (blocks + 1) / 2;
        vec![Dispatch::new(&WIDE, entry, &params, &[], ctx.grid(groups))
            .bindings(&[
                (1, &a.buffer),
                (2, &x.buffer),
                (4, &a.buffer),
                (6, scratch),
                (7, seven),
            ])
            .constants(&[
                mode_c,
                lower,
                ("COLS_FAST", f64::from(u32::from(cols_fast))),
                ("VEC", f64::from(u32::from(vec))),
                scal_c,
            ])
            .elem(elem)]
    } else {
        vec![
            Dispatch::new(&WIDE, entry, &params, &[], ctx.grid(row_blocks * chunks))
                .bindings(&bindings)
                .constants(&constants)
                .elem(elem),
        ]
    };
    let finish = match spill {
        None => (chunks > 1 || matches!(kernel, Kernel::SymTiles { .. })).then_some(chunks),
        Some(s) => s.total,
    };
    if let Some(total) = finish {
        let flanes = total.div_ceil(4).next_power_of_two().clamp(1, 256);
        let params = WideParams {
            chunks: total as u32,
            ..params
        };
        d.push(
            Dispatch::new(
                &WIDE,
                "gemv_finish",
                &params,
                &[],
                ctx.grid((a.rows as u64).div_ceil(256 / flanes)),
            )
            .bindings(&[(3, &y.buffer), (6, scratch), (7, seven)])
            .constants(&[("FLANES", flanes as f64), scal_c])
            .elem(elem),
        );
    }
    d
}

/// The most columns one dispatch runs over, per invocation of `gemv_rows` (which loops over all
/// of them) and per workgroup of `gemv_dot` (whose WG invocations share them). Mesa's llvmpipe
/// (lavapipe) stops the loops of a shader invocation after 65,535 iterations in all, silently
/// (`LP_MAX_TGSI_LOOP_ITERATIONS`; DESIGN.md §3), so longer rows are split over dispatches.
pub(crate) const ROWS_SPLIT: usize = 16384;
pub(crate) const DOT_SPLIT: usize = 16384 * WG as usize;

/// The legacy kernels ([`Kernel::Legacy`]): `y = alpha·A·x + beta·y`. Rows of a column-contiguous `A` go one per invocation (coalesced
/// down the columns); rows of a row-contiguous or strided `A` go one per workgroup (coalesced
/// along the row). Rows longer than [`ROWS_SPLIT`] / [`DOT_SPLIT`] are split into column parts,
/// one dispatch each, in order: the first computes `alpha·A₁·x₁ + beta·y`, each later one adds
/// `alpha·Aₚ·xₚ` (beta = 1; device scalars through [`scalars`]). Only [`Variant::General`]
/// is split: a symmetric or triangular A is n×n with n² elements in one storage binding, and
/// lavapipe (the driver with the limit) binds at most 128 MiB, so there n ≤ 5,792.
pub(crate) fn legacy<'a>(
    ctx: &Context,
    mode: Variant,
    alpha: f32,
    a: &'a MatOperand,
    x: &'a VecOperand,
    beta: f32,
    y: &'a VecOperand,
) -> Vec<Dispatch<'a>> {
    let rows_kernel = a.rs.abs() == 1 && a.cs.abs() != 1;
    let split = if rows_kernel { ROWS_SPLIT } else { DOT_SPLIT };
    let n = a.cols;
    if n <= split || alpha == 0.0 || mode != Variant::General {
        return vec![part(ctx, mode, alpha, a, x, beta, y, (0, n), rows_kernel)];
    }
    (0..n)
        .step_by(split)
        .map(|j0| {
            let beta = if j0 == 0 { beta } else { 1.0 };
            let cols = (j0, split.min(n - j0));
            part(ctx, mode, alpha, a, x, beta, y, cols, rows_kernel)
        })
        .collect()
}

/// One dispatch over the `cols.1` columns of A (and elements of x) from column `cols.0` on.
#[allow(clippy::too_many_arguments)]
fn part<'a>(
    ctx: &Context,
    mode: Variant,
    alpha: f32,
    a: &'a MatOperand,
    x: &'a VecOperand,
    beta: f32,
    y: &'a VecOperand,
    (j0, cols): (usize, usize),
    rows_kernel: bool,
) -> Dispatch<'a> {
    let offa = a.offset as i64 + j0 as i64 * a.cs as i64;
    let offx = x.offset as i64 + j0 as i64 * x.inc as i64;
    let params = Params {
        m: a.rows as u32,
        n: cols as u32,
        offa: offa as u32,
        rsa: a.rs,
        csa: a.cs,
        offx: offx as u32,
        incx: x.inc,
        offy: y.offset,
        incy: y.inc,
        alpha,
        beta,
        _pad: 0,
    };
    let buffers: [&Buf; 3] = [&a.buffer, &x.buffer, &y.buffer];
    if rows_kernel {
        let groups = ctx.grid((a.rows as u64).div_ceil(WG));
        Dispatch::new(&SHADER, "gemv_rows", &params, &buffers, groups).constants(&mode.constants())
    } else {
        let groups = ctx.grid(a.rows as u64);
        Dispatch::new(&SHADER, "gemv_dot", &params, &buffers, groups).constants(&mode.constants())
    }
}

/// One block of a matrix-vector product past one storage binding: windows of `op(A)`
/// (rows `r0..r1`, columns `c0..c1`), of `x` (`c0..c1`) and of `y` (`r0..r1`, its *part*), its
/// kernel and scratch, and the part's first block (`head`, an index into the block list).
/// Where a part of y has several blocks, its first holds `sum`, a dense scratch of the part's
/// length: every block of the part adds its raw product there (`UNSCALED`: alpha taken as 1,
/// its zero test still on the real alpha), and one last dispatch forms `y = alpha·sum +
/// beta·y`, so that alpha scales the whole sum as in one block (an outside probe: ssymv and
/// sgemv past one binding scaled each block apart, alpha·P1 + alpha·P2 overflowing where
/// alpha·(P1 + P2) is finite).
pub(crate) struct Block {
    a: MatOperand,
    x: VecOperand,
    y: VecOperand,
    mode: Variant,
    kernel: Kernel,
    scratch: Buf,
    head: usize,
    sum: Option<VecOperand>,
}

impl Block {
    fn new(ctx: &Context, a: MatOperand, mode: Variant, x: VecOperand, y: VecOperand) -> Self {
        let kernel = plan(mode, &a);
        let scratch = scratch(ctx, kernel, &a);
        Block {
            a,
            x,
            y,
            mode,
            kernel,
            scratch,
            head: 0,
            sum: None,
        }
    }
}

/// Link `blocks` to their parts of y (`heads[b]`: the index of block b's part's first block),
/// each part of several blocks with its sum scratch.
fn link(ctx: &Context, mut blocks: Vec<Block>, heads: &[usize]) -> Vec<Block> {
    let mut count = vec![0usize; blocks.len()];
    for &h in heads {
        count[h] += 1;
    }
    for (i, b) in blocks.iter_mut().enumerate() {
        b.head = heads[i];
        if count[i] > 1 {
            b.sum = Some(super::elementwise::contiguous_as(ctx, b.y.len, 4));
        }
    }
    blocks
}

/// Blocks of `y = alpha·A·x + beta·y` (`A` in its `op` form) whose windows each fit one
/// storage binding ([`MatOperand::block_fits`]): none when every operand fits one binding
/// whole. Rows go in panels as tall as the binding allows with every column; only where a
/// single row (all its columns) does not fit are the columns split too, into panels of about
/// half a binding, the column panels of a row panel one part of y ([`Block`]).
pub(crate) fn general_blocks(
    ctx: &Context,
    a: &MatOperand,
    x: &VecOperand,
    y: &VecOperand,
) -> Vec<Block> {
    let limit = ctx.max_binding();
    if a.buffer.size() <= limit && x.buffer.size() <= limit && y.buffer.size() <= limit {
        return Vec::new();
    }
    let (mut blocks, mut heads) = (Vec::new(), Vec::new());
    for ((r0, r1), (c0, c1)) in layout::mat_blocks(ctx, a, 4, y, x) {
        let ab = a.block(ctx, 4, (r0, r1), (c0, c1));
        let (xp, yp) = (x.part(ctx, 4, c0, c1), y.part(ctx, 4, r0, r1));
        let head = if c0 == 0 {
            blocks.len()
        } else {
            heads[blocks.len() - 1]
        };
        heads.push(head);
        blocks.push(Block::new(ctx, ab, Variant::General, xp, yp));
    }
    link(ctx, blocks, &heads)
}

/// The dispatches of `y = alpha·A·x + beta·y` over `blocks` (from [`general_blocks`] or
/// [`structured_blocks`]), in order, with device scalars patched in: a part of y in one block
/// applies alpha and beta there; a part in several adds each block's raw product into its sum
/// (beta 0 for the first, 1 after), and `gemm::scale_dispatch` forms `alpha·sum + beta·y` at
/// the end.
pub(crate) fn general_block_dispatches<'a>(
    ctx: &Context,
    alpha: impl Into<Scalar<'a>>,
    beta: impl Into<Scalar<'a>>,
    blocks: &'a [Block],
) -> Vec<Dispatch<'a>> {
    let (alpha, beta) = (alpha.into(), beta.into());
    let mut out = Vec::new();
    let mut started = vec![false; blocks.len()];
    for b in blocks {
        let Some(sum) = &blocks[b.head].sum else {
            out.extend(gemv(
                ctx, b.mode, alpha, &b.a, &b.x, beta, &b.y, b.kernel, &b.scratch,
            ));
            continue;
        };
        let add = std::mem::replace(&mut started[b.head], true);
        let part_beta = Scalar::Host(if add { 1.0 } else { 0.0 });
        let d = gemv(
            ctx, b.mode, alpha, &b.a, &b.x, part_beta, sum, b.kernel, &b.scratch,
        );
        out.extend(d.into_iter().map(|d| d.constant("UNSCALED", 1.0)));
    }
    for b in blocks {
        if let Some(sum) = &b.sum {
            out.push(super::gemm::scale_dispatch(
                ctx,
                alpha,
                &sum.buffer,
                beta,
                &b.y,
            ));
        }
    }
    out
}

/// Blocks of a symmetric or triangular product `y = alpha·A·x + beta·y` (`mode`; A n×n, only
/// its triangle read) past one storage binding: none when every operand fits one binding whole.
/// A goes in square blocks on one grid of rows and columns. First every diagonal block, in
/// `mode` on its own triangle, on its part of y; then every block strictly inside the triangle
/// by the general product: `y_I += A_IJ·x_J` and, for a symmetric A, also `y_J += A_IJᵀ·x_I`
/// (the block's mirror, never stored); alpha and beta on each part's whole sum ([`Block`]).
pub(crate) fn structured_blocks(
    ctx: &Context,
    mode: Variant,
    a: &MatOperand,
    x: &VecOperand,
    y: &VecOperand,
) -> Vec<Block> {
    let limit = ctx.max_binding();
    if a.buffer.size() <= limit && x.buffer.size() <= limit && y.buffer.size() <= limit {
        return Vec::new();
    }
    let (uplo, symmetric) = match mode {
        Variant::Symmetric(u) => (u, true),
        Variant::Triangular(u, _) => (u, false),
        Variant::General | Variant::Strict(_) => unreachable!("structured modes only"),
    };
    let ranges = layout::square_ranges(ctx, a, 4, &[x.inc, y.inc]);
    let (mut out, mut heads) = (Vec::new(), Vec::new());
    // The diagonal blocks first: block i is the head of part i.
    for (i, &r) in ranges.iter().enumerate() {
        let ab = a.block(ctx, 4, r, r);
        let (xp, yp) = (x.part(ctx, 4, r.0, r.1), y.part(ctx, 4, r.0, r.1));
        out.push(Block::new(ctx, ab, mode, xp, yp));
        heads.push(i);
    }
    for (i, &ri) in ranges.iter().enumerate() {
        for (j, &rj) in ranges.iter().enumerate() {
            let inside = match uplo {
                Uplo::Lower => ri.0 > rj.0,
                Uplo::Upper => ri.0 < rj.0,
            };
            if !inside {
                continue;
            }
            let ab = a.block(ctx, 4, ri, rj);
            let (xp, yp) = (x.part(ctx, 4, rj.0, rj.1), y.part(ctx, 4, ri.0, ri.1));
            out.push(Block::new(ctx, ab, Variant::General, xp, yp));
            heads.push(i);
            if symmetric {
                let at = a.block(ctx, 4, ri, rj).t();
                let (xp, yp) = (x.part(ctx, 4, ri.0, ri.1), y.part(ctx, 4, rj.0, rj.1));
                out.push(Block::new(ctx, at, Variant::General, xp, yp));
                heads.push(j);
            }
        }
    }
    link(ctx, out, &heads)
}
