//! Rank-update Level 2 driver (`wgsl/level2/rank_update.wgsl`): element-wise on a matrix,
//! `A ← A + alpha·x·yᵀ` (`sger`, and `ssyr` with `y = x`) or
//! `A ← A + alpha·x·yᵀ + alpha·y·xᵀ` (`ssyr2`), on all of `A` or on one triangle only.
//!
//! On the default `main_rows`, one invocation per vec4 unit of `A` along its unit stride on 2
//! or 8 lines, each index's exact factors formed once per invocation (on the lab's `main_pre`,
//! one per vec4 unit after a dispatch that forms the j index's factors; where the strides
//! rule out vec4 units, one per element); neighbouring invocations walk `A` along its smaller
//! stride, so C order, F order and transposed views are all coalesced without a copy (the OpenBLAS
//! rule "a row-major matrix is a column-major one transposed" becomes a choice of the fast
//! index). Variants are the shader's `UPLO` and `TWO` overrides. In f64 (`dger`, `dsyr`,
//! `dsyr2`: [`dispatch_f64`]) the shader's `WIDE` runs the one-element and `main_vec4`
//! kernels with the same exact evaluation in double-f64.

use crate::context::Context;
use crate::flags::Uplo;
use crate::launch::Dispatch;
use crate::layout::{self, MatOperand, Scalar, VecOperand};

super::shader!(SHADER, RANK_UPDATE);

const WG: u64 = super::registry::RANK_UPDATE.constant("WG") as u64;
/// `pre_factors`' workgroup (one invocation per j).
const WG_PRE: u64 = super::registry::RANK_UPDATE.constant("WG_PRE") as u64;

/// Which update (the shader's `UPLO` and `TWO`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Variant {
    /// `A ← A + alpha·x·yᵀ` on every element (`sger`).
    General,
    /// `A ← A + alpha·x·yᵀ` on the triangle only (`ssyr`, called with `y = x`).
    Symmetric(Uplo),
    /// `A ← A + alpha·x·yᵀ + alpha·y·xᵀ` on the triangle only (`ssyr2`).
    Symmetric2(Uplo),
}

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
    ifast: u32,
    /// Always 0 (the shader's `opaque`).
    zero: u32,
}

/// Byte offset of alpha in the params, for a device scalar.
const ALPHA: usize = std::mem::offset_of!(Params, alpha);

/// The scratch of `main_pre`'s factors for updates of at most `cols` columns (from
/// [`factor_scratch`]), kept by the caller while the dispatches run.
pub(crate) type Factors = Option<crate::pool::Buf>;

/// The scratch of `main_pre` for a call on `a` (or on blocks of it, at most `a.cols` columns
/// each): `None` where `main_pre` does not run (the default `main_rows`, lab `Scalar` and
/// `Legacy`), where `a`'s strides rule out vec4 units (then the one-element kernel runs, with
/// no factors), or where the factors would pass one storage binding (then `main_vec4`).
pub(crate) fn factor_scratch(ctx: &Context, update: Variant, a: &MatOperand) -> Factors {
    let cols = a.cols;
    // One vec4 per j, or (ssyr2) two pairs per j, n rounded up to even.
    let bytes = match update {
        Variant::Symmetric2(_) => 16 * cols.next_multiple_of(2) as u64,
        _ => 16 * cols as u64,
    };
    let lab = crate::lab::get(crate::lab::Driver::RankUpdate);
    let (unit, other, _) = unit_axis(a);
    let strides = unit == 1 && (other.rem_euclid(4) == 0 || a.rows.min(a.cols) == 1);
    (runs_pre(lab) && strides && bytes <= ctx.max_binding()).then(|| ctx.scratch(bytes))
}

/// Whether the lab selects `main_pre` where vec4 units are allowed (`Experimental`, its two
/// units per invocation, or `Auto` with [`crate::lab::set_rank_rows`] at 1).
fn runs_pre(lab: crate::lab::Variant) -> bool {
    lab == crate::lab::Variant::Experimental
        || (lab == crate::lab::Variant::Auto && crate::lab::rank_rows() == 1)
}

/// The line tiles of block `ub` that meet the triangle under `main_rows`'s `TRI` (the shader's
/// `tri_block` count: `tiles` in all, `rows` lines each; `line_ge` where the triangle keeps
/// line ≥ fast position).
fn tri_block(ub: u64, tiles: u64, rows: u32, line_ge: bool) -> u64 {
    let k = 4 * WG / u64::from(rows);
    if line_ge {
        tiles - tiles.min(k * ub)
    } else {
        tiles.min(k * (ub + 1))
    }
}

/// Lines per invocation of `main_rows` for `update`: the lab's ([`crate::lab::set_rank_rows`]),
/// else 8 for ssyr and 2 for sger and ssyr2. On the H200 at n = 16384 (C order, GB/s, 2 / 4 /
/// 8 lines, `main_pre` beside; `benches/results/2026-12-03-s14/q4`, `q5`): sger 3936 / 3760 /
/// 3634 against 2904; ssyr 3049 / 3064 / 3213 against 2461; ssyr2 2254 / 2233 / 1887 against
/// 1686.
fn rows(update: Variant) -> u32 {
    match (crate::lab::rank_rows(), update) {
        (r @ (2 | 4 | 8), _) => r,
        (_, Variant::Symmetric(_)) => 8,
        _ => 2,
    }
}

/// `a`'s unit axis for vec4 units: (its stride, the other axis's stride, its length), along
/// the rows where the row stride is the smaller one in magnitude (the kernels' `IFAST`), else
/// along the columns.
fn unit_axis(a: &MatOperand) -> (i32, i32, usize) {
    if a.rs.unsigned_abs() < a.cs.unsigned_abs() {
        (a.rs, a.cs, a.rows)
    } else {
        (a.cs, a.rs, a.cols)
    }
}

/// Whether `a` can be walked in vec4 units along its unit stride: that axis contiguous with
/// a length that is a multiple of 4, the offset and the other stride multiples of 4 (or `a` a
/// single line).
fn vec4_units(a: &MatOperand) -> bool {
    let (unit, other, len) = unit_axis(a);
    unit == 1
        && len.is_multiple_of(4)
        && a.offset.is_multiple_of(4)
        && (other.rem_euclid(4) == 0 || a.rows.min(a.cols) == 1)
}

/// The params of an update of `a` with `x` and `y`, `alpha` the f32 value (or, in f64, its
/// marker).
fn params(alpha: f32, x: &VecOperand, y: &VecOperand, a: &MatOperand) -> Params {
    Params {
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
        ifast: (a.rs.unsigned_abs() < a.cs.unsigned_abs()) as u32,
        zero: 0,
    }
}

impl Variant {
    /// The shader's `UPLO` (None: every element) and `TWO` for this update.
    fn flags(self) -> (Option<Uplo>, bool) {
        match self {
            Variant::General => (None, false),
            Variant::Symmetric(u) => (Some(u), false),
            Variant::Symmetric2(u) => (Some(u), true),
        }
    }
}

/// The dispatches of `update` on the `a.rows × a.cols` matrix `a` (`x` has `a.rows` elements,
/// `y` `a.cols`): one, or two on `main_pre` (its factors first, into `factors`). `x` and `y`
/// may be the same operand (`ssyr`). A device alpha is read into the params, where the shader
/// tests it: alpha = 0 leaves `A` untouched, as a host alpha = 0 does (the caller's quick
/// return).
pub(crate) fn dispatch<'a>(
    ctx: &Context,
    update: Variant,
    alpha: Scalar<'a>,
    x: &'a VecOperand,
    y: &'a VecOperand,
    a: &'a MatOperand,
    factors: &'a Factors,
) -> Vec<Dispatch<'a>> {
    let params = params(alpha.value(), x, y, a);
    let (uplo, two) = update.flags();
    let c = [("UPLO", super::uplo(uplo)), ("TWO", two as u32 as f64)];
    // `main_rows` (the default), `main_pre` (lab `set_rank_rows(1)`, two units per invocation
    // under lab `Experimental`) or `main_vec4` (lab `Legacy`, or `main_pre` where the caller
    // has no factor scratch): vec4 units along the unit stride, where it is contiguous with a
    // length that is a multiple of 4 and aligned; else the one-element kernel (also lab
    // `Scalar`).
    let len = unit_axis(a).2;
    // On the H200, n = 16384, device copy beside it: `main_vec4` read sger 2397 GB/s against
    // 2072 for the one-element kernel, ssyr 2019 against 1318 and ssyr2 1453 against 1173
    // (2026-12-01, `benches/results/2026-12-01-probe-host/p6-bandwidth-lab-l2.log`); `main_pre`
    // sger 2845 against 2395, ssyr 2399–2410 against 2032–2051 and ssyr2 1705–1718 against
    // 1457–1463 (2026-12-03, `benches/results/2026-12-03-s12/q1/l2x.log`); `main_rows`: see
    // [`rows`].
    let variant = crate::lab::get(crate::lab::Driver::RankUpdate);
    if variant != crate::lab::Variant::Scalar && vec4_units(a) {
        let units = a.rows as u64 * a.cols as u64 / 4;
        if variant == crate::lab::Variant::Auto && !runs_pre(variant) {
            // `main_rows` (the default): tiles of `rows` lines × WG vec4 units, one dispatch.
            let rows = rows(update);
            let tri = uplo.is_some() && crate::lab::rank_tri();
            let ct = [
                c[0],
                c[1],
                ("IFAST", params.ifast as f64),
                ("ROWS", f64::from(rows)),
                ("TRI", tri as u32 as f64),
            ];
            // Lines of `len` elements along the unit stride.
            let lines = if params.ifast != 0 { a.cols } else { a.rows } as u64;
            let (blocks, tiles) = (
                (len as u64 / 4).div_ceil(WG),
                lines.div_ceil(u64::from(rows)),
            );
            let line_ge = (uplo == Some(Uplo::Lower)) != (params.ifast != 0);
            let groups = ctx.grid(if tri {
                (0..blocks)
                    .map(|ub| tri_block(ub, tiles, rows, line_ge))
                    .sum()
            } else {
                blocks * tiles
            });
            let d = Dispatch::new(&SHADER, "main_rows", &params, &[], groups)
                .bindings(&[(2, &x.buffer), (3, &y.buffer), (4, &a.buffer)])
                .constants(&ct);
            return vec![alpha.apply(d, ALPHA)];
        }
        if let Some(f) = factors.as_ref() {
            let pair = variant == crate::lab::Variant::Experimental;
            let ct = [
                c[0],
                c[1],
                ("IFAST", params.ifast as f64),
                ("PAIR", pair as u32 as f64),
                ("PRODUCTS", f64::from(crate::lab::rank_products())),
            ];
            // One invocation per j, or (ssyr2) per two.
            let js = if two { 2 } else { 1 };
            let pre = Dispatch::new(&SHADER, "pre_factors", &params, &[], {
                ctx.grid((a.cols as u64).div_ceil(js).div_ceil(WG_PRE))
            })
            .bindings(&[(2, &x.buffer), (3, &y.buffer), (5, f)])
            .constants(&c);
            let per = if pair { 2 } else { 1 };
            let groups = ctx.grid(units.div_ceil(per).div_ceil(WG));
            let main = Dispatch::new(&SHADER, "main_pre", &params, &[], groups)
                .bindings(&[(2, &x.buffer), (3, &y.buffer), (4, &a.buffer), (6, f)])
                .constants(&ct);
            return vec![alpha.apply(pre, ALPHA), alpha.apply(main, ALPHA)];
        }
        // Binding 7 (the f64 scalars of `WIDE`) takes x, never read in f32.
        let d = plain_kernel(ctx, &params, &c, (x, y, a), &x.buffer, true);
        return vec![alpha.apply(d, ALPHA)];
    }
    let d = plain_kernel(ctx, &params, &c, (x, y, a), &x.buffer, false);
    vec![alpha.apply(d, ALPHA)]
}

/// The dispatch of `main_vec4` (`vec4`: one invocation per vec4 unit) or `main` (one per
/// element) on the operands `(x, y, a)`, binding 7 (`WIDE`'s scalars) on `scal`.
fn plain_kernel<'a>(
    ctx: &Context,
    params: &Params,
    constants: &[(&'static str, f64)],
    (x, y, a): (&'a VecOperand, &'a VecOperand, &'a MatOperand),
    scal: &'a crate::pool::Buf,
    vec4: bool,
) -> Dispatch<'a> {
    let elements = a.rows as u64 * a.cols as u64;
    let d = if vec4 {
        let groups = ctx.grid((elements / 4).div_ceil(WG));
        Dispatch::new(&SHADER, "main_vec4", params, &[], groups).bindings(&[
            (2, &x.buffer),
            (3, &y.buffer),
            (4, &a.buffer),
            (7, scal),
        ])
    } else {
        let groups = ctx.grid(elements.div_ceil(WG));
        Dispatch::new(&SHADER, "main", params, &[], groups).bindings(&[
            (1, &a.buffer),
            (2, &x.buffer),
            (3, &y.buffer),
            (7, scal),
        ])
    };
    d.constants(constants)
}

/// The f64 scalars of a rank update (the shader's `WIDE`): alpha and the largest finite f64 in
/// a small buffer (binding 7), the copy of a device alpha into it (to run first), and the
/// marker that the params carry in alpha's place (`elementwise::scalar_mark`).
pub(crate) struct ScalarsF64 {
    buf: crate::pool::Buf,
    copies: super::elementwise::ScalarCopies,
    alpha: f32,
}

impl ScalarsF64 {
    /// The copy of a device alpha into the buffer (none for a host alpha), to run before the
    /// updates.
    pub(crate) fn copies(&self) -> Vec<Dispatch<'_>> {
        self.copies.dispatches()
    }
}

/// [`ScalarsF64`] of `alpha`.
///
/// # Errors
/// [`crate::Error::Gpu`] when the buffer cannot be created.
pub(crate) fn scalars_f64(
    ctx: &Context,
    routine: &'static str,
    alpha: Scalar<'_, f64>,
) -> crate::error::Result<ScalarsF64> {
    use super::elementwise::{scalar_mark, scalars_f64};
    let (buf, copies) = scalars_f64(ctx, routine, &[alpha, Scalar::Host(f64::MAX)])?;
    Ok(ScalarsF64 {
        buf,
        copies,
        alpha: scalar_mark(&alpha, false),
    })
}

/// The dispatch of `update` in f64 (`dger`, `dsyr`, `dsyr2`: the shader with `alias T = f64;`
/// and `WIDE`), as [`dispatch`]'s one-element and `main_vec4` kernels (vec4 units where A's
/// strides allow them): each element the exact update rounded once, alpha from `sc`. The
/// copies of `sc` must run first.
pub(crate) fn dispatch_f64<'a>(
    ctx: &Context,
    update: Variant,
    sc: &'a ScalarsF64,
    x: &'a VecOperand,
    y: &'a VecOperand,
    a: &'a MatOperand,
) -> Dispatch<'a> {
    let params = params(sc.alpha, x, y, a);
    let (uplo, two) = update.flags();
    let c = [
        ("UPLO", super::uplo(uplo)),
        ("TWO", two as u32 as f64),
        ("WIDE", 1.0),
    ];
    plain_kernel(ctx, &params, &c, (x, y, a), &sc.buf, vec4_units(a))
        .elem(crate::context::Elem::F64)
}

/// One dispatch of a symmetric rank update past one storage binding: windows of `A` and of the
/// vectors, and the update on that block.
pub(crate) struct Part {
    x: VecOperand,
    y: VecOperand,
    a: MatOperand,
    update: Variant,
}

/// The parts of a symmetric rank update (`update` is `Symmetric` or `Symmetric2`) of the n×n
/// `A` past one storage binding: none when every operand fits one binding whole. `A` goes in
/// square blocks on one grid of rows and columns, as large as a binding allows; the diagonal
/// blocks run `update` on their own triangle (with the vectors' parts of their rows); the
/// blocks inside the triangle run the general update `alpha·x_I·x_Jᵀ` (ssyr) or the two
/// general updates `alpha·x_I·y_Jᵀ` and `alpha·y_I·x_Jᵀ` (ssyr2, one rounding each), with the
/// parts of rows I and columns J; the blocks outside the triangle are not touched. `elem` is
/// the element's size in bytes (4 or 8).
pub(crate) fn symmetric_parts(
    ctx: &Context,
    update: Variant,
    elem: u64,
    x: &VecOperand,
    y: &VecOperand,
    a: &MatOperand,
) -> Vec<Part> {
    let limit = ctx.max_binding();
    if a.fits(ctx) && x.buffer.size() <= limit && y.buffer.size() <= limit {
        return Vec::new();
    }
    let (uplo, two) = match update {
        Variant::Symmetric(u) => (u, false),
        Variant::Symmetric2(u) => (u, true),
        Variant::General => unreachable!("symmetric updates only"),
    };
    let n = a.rows;
    debug_assert_eq!(n, a.cols);
    let ranges = layout::square_ranges(ctx, a, elem, &[x.inc, y.inc]);
    let mut out = Vec::new();
    for &(i0, i1) in &ranges {
        for &(j0, j1) in &ranges {
            let inside = match uplo {
                Uplo::Lower => i0 >= j0,
                Uplo::Upper => i0 <= j0,
            };
            if !inside {
                continue;
            }
            let blk = || a.block(ctx, elem, (i0, i1), (j0, j1));
            if i0 == j0 {
                out.push(Part {
                    x: x.part(ctx, elem, i0, i1),
                    y: y.part(ctx, elem, i0, i1),
                    a: blk(),
                    update,
                });
            } else {
                out.push(Part {
                    x: x.part(ctx, elem, i0, i1),
                    y: if two {
                        y.part(ctx, elem, j0, j1)
                    } else {
                        x.part(ctx, elem, j0, j1)
                    },
                    a: blk(),
                    update: Variant::General,
                });
                if two {
                    out.push(Part {
                        x: y.part(ctx, elem, i0, i1),
                        y: x.part(ctx, elem, j0, j1),
                        a: blk(),
                        update: Variant::General,
                    });
                }
            }
        }
    }
    out
}

/// The dispatches of `parts` (from [`symmetric_parts`]), in order (`factors`: as for
/// [`dispatch`], for the call's n columns).
pub(crate) fn part_dispatches<'a>(
    ctx: &Context,
    alpha: Scalar<'a>,
    parts: &'a [Part],
    factors: &'a Factors,
) -> Vec<Dispatch<'a>> {
    parts
        .iter()
        .flat_map(|p| dispatch(ctx, p.update, alpha, &p.x, &p.y, &p.a, factors))
        .collect()
}

/// The dispatches of `parts` in f64 ([`dispatch_f64`] on each, in order; the copies of `sc`
/// first).
pub(crate) fn part_dispatches_f64<'a>(
    ctx: &Context,
    sc: &'a ScalarsF64,
    parts: &'a [Part],
) -> Vec<Dispatch<'a>> {
    let updates = parts
        .iter()
        .map(|p| dispatch_f64(ctx, p.update, sc, &p.x, &p.y, &p.a));
    sc.copies().into_iter().chain(updates).collect()
}
