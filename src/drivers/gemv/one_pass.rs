//! ssymv and dsymv in one pass over the stored triangle (lab [`crate::lab::set_symv_one_pass`]):
//! `symv_pass` of `wgsl/level2/gemv_wide.wgsl` reads each stored element once, in segments of
//! 64×64 tiles along each tile row, and forms both of its products there (the tile's row sums
//! `A_IJ·x_J`, kept in registers over the segment, and its mirrored column sums `A_IJᵀ·x_I`);
//! `symv_sum` adds each row's partial sums in a fixed order and applies alpha and beta once.
//! The extra traffic is the partial sums, about `n²/64` elements written and read (1/16 of the
//! triangle's bytes at n = 16384, 6%), against the two passes' second reading of the triangle
//! ([`super::symv_two_pass`]). The scheme is MAGMA's blocked symmetric product (Nath, Tomov,
//! Dong, Dongarra, "Optimizing symmetric dense matrix-vector multiplication on GPUs", SC 2011):
//! each workgroup runs a segment of one block row, the transposed products of its tiles into a
//! workspace, a second kernel adds them.

use super::{Variant, WideParams, ALPHA, BETA, WIDE};
use crate::context::{Context, Elem};
use crate::flags::Uplo;
use crate::launch::Dispatch;
use crate::layout::{MatOperand, Scalar, VecOperand};
use crate::pool::Buf;

/// The tile side of `symv_pass` (`TB`).
const TB: u64 = crate::drivers::registry::GEMV_WIDE.constant("TB") as u64;

/// The most tiles one workgroup of `symv_pass` runs (its loop's trip count).
const MAX_SEG: u64 = 64;

/// Invocations per row of `symv_sum` (`FLANES`).
const SUM_LANES: u64 = 4;

/// The grid and reading mode of `symv_pass` on one operand.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct OnePass {
    /// Tiles per side, ⌈n/64⌉.
    tiles: u64,
    /// Tiles per workgroup (a segment of a tile row).
    seg: u64,
    /// Workgroups: Σ over the tile rows b of ⌊b/seg⌋ + 1.
    groups: u64,
    /// The lines are A's columns (`rs = 1`), else its rows.
    cols_fast: bool,
    /// Whole off-diagonal tiles read as vec4 units.
    vec: bool,
}

impl OnePass {
    /// Elements of the scratch: one slot of n partial sums per tile row (the mirrored sums)
    /// and per segment (the row sums).
    pub(crate) fn words(&self, a: &MatOperand) -> u64 {
        (self.tiles + self.tiles.div_ceil(self.seg)) * a.rows as u64
    }
}

/// The one-pass plan of a symmetric `a` (n×n, any strides), or `None` where the lab switch
/// [`crate::lab::set_symv_one_pass`] is off (the default) or `Matvec` is `Legacy`. `Scalar` on
/// `Matvec` keeps element-wise loads everywhere; else whole tiles off the diagonal are read
/// as vec4 units where the lines' stride is 1 and the other stride and the offset are
/// multiples of 4.
pub(crate) fn plan(a: &MatOperand) -> Option<OnePass> {
    let seg = u64::from(crate::lab::symv_one_pass());
    let variant = crate::lab::get(crate::lab::Driver::Matvec);
    if seg == 0 || variant == crate::lab::Variant::Legacy {
        return None;
    }
    let seg = seg.min(MAX_SEG);
    let tiles = (a.rows as u64).div_ceil(TB);
    let cols_fast = a.rs.abs() == 1 && a.cs.abs() != 1;
    let (unit, other) = if cols_fast {
        (a.rs, a.cs)
    } else {
        (a.cs, a.rs)
    };
    Some(OnePass {
        tiles,
        seg,
        groups: (0..tiles).map(|b| b / seg + 1).sum(),
        cols_fast,
        vec: variant != crate::lab::Variant::Scalar
            && unit == 1
            && a.offset.is_multiple_of(4)
            && other.rem_euclid(4) == 0,
    })
}

/// `y = alpha·A·x + beta·y` for symmetric `A` of which the triangle `uplo` is stored, on
/// `symv_pass` and `symv_sum` ([`plan`]'s `p`), alpha and beta from the params or the device
/// (read into the params of both dispatches; the kernels test their values, DESIGN.md §3).
/// `scratch` holds the partial sums ([`OnePass::words`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn symv_one_pass<'a>(
    ctx: &Context,
    uplo: Uplo,
    p: OnePass,
    (alpha, beta): (Scalar<'a>, Scalar<'a>),
    a: &'a MatOperand,
    x: &'a VecOperand,
    y: &'a VecOperand,
    scratch: &'a std::cell::OnceCell<Buf>,
) -> Vec<Dispatch<'a>> {
    let scratch = scratch.get_or_init(|| ctx.scratch(p.words(a) * 4));
    let (av, bv) = (alpha.value(), beta.value());
    dispatches(ctx, uplo, p, av, a, x, bv, y, scratch, None)
        .into_iter()
        .map(|d| beta.apply(alpha.apply(d, ALPHA), BETA))
        .collect()
}

/// The two dispatches of the one-pass product: `symv_pass` over the stored tiles, then
/// `symv_sum` over the rows. `scal`: the f64 scalars (`SCAL`, alpha and beta then markers,
/// [`super::ScalarsF64`]); `None` for f32.
#[allow(clippy::too_many_arguments)]
pub(crate) fn dispatches<'a>(
    ctx: &Context,
    uplo: Uplo,
    p: OnePass,
    alpha: f32,
    a: &'a MatOperand,
    x: &'a VecOperand,
    beta: f32,
    y: &'a VecOperand,
    scratch: &'a Buf,
    scal: Option<&'a Buf>,
) -> Vec<Dispatch<'a>> {
    let params = WideParams {
        chunks: p.tiles as u32,
        chunk: p.seg as u32,
        row_blocks: p.groups as u32,
        ..WideParams::of(a, x, y, alpha, beta)
    };
    let seven: &'a Buf = scal.unwrap_or(&a.buffer);
    let (scal_c, elem) = match scal {
        Some(_) => (("SCAL", 1.0), Elem::F64),
        None => (("SCAL", 0.0), Elem::F32),
    };
    let [_, lower, _] = Variant::Symmetric(uplo).constants();
    let cols_fast = ("COLS_FAST", f64::from(u32::from(p.cols_fast)));
    let xvec = p.vec && x.inc == 1 && x.offset.is_multiple_of(4) && x.len >= 4;
    let (ab, xb): (&'a Buf, &'a Buf) = (&a.buffer, &x.buffer);
    let pass = Dispatch::new(&WIDE, "symv_pass", &params, &[], ctx.grid(p.groups))
        .bindings(&[(1, ab), (2, xb), (4, ab), (5, xb), (6, scratch), (7, seven)])
        .constants(&[
            lower,
            cols_fast,
            ("VEC", f64::from(u32::from(p.vec))),
            ("XVEC", f64::from(u32::from(xvec))),
            scal_c,
        ])
        .elem(elem);
    let rows = (a.rows as u64).div_ceil(256 / SUM_LANES);
    let sum = Dispatch::new(&WIDE, "symv_sum", &params, &[], ctx.grid(rows))
        .bindings(&[(3, &y.buffer), (6, scratch), (7, seven)])
        .constants(&[lower, cols_fast, ("FLANES", SUM_LANES as f64), scal_c])
        .elem(elem);
    vec![pass, sum]
}
