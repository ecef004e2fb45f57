//! What the Level 3 routines share across element types: [`Level3`], the pieces in which the
//! f32 and f64 paths differ (uploads, the engine entry, the blocked solve, the write-back), so
//! that each routine has one core generic over its element type; and [`blocking!`], which
//! writes a routine's public `s`/`d` blocking forms over that core.

use std::future::Future;

use crate::drivers::gemm::{self, AMode, Block, Operand, Panel, Plan, Variant};
use crate::drivers::trsm::{self, Scratch, Step};
use crate::error::Result;
use crate::flags::{Side, Transpose, Uplo};
use crate::launch::{Dispatch, Wait};
use crate::layout::{self, MatMut, MatOperand, MatRef, OutAs, Precision, Scalar};
use crate::pool::Buf;
use crate::Context;

/// The element types of the Level 3 routines, and what differs between them.
///
/// Both upload their operands by `layout::matrix_any` (and `matrix_output_any`): operands past
/// one storage binding are processed in blocks (`gemm::{gemm_blocks, tri_blocks,
/// structured_blocks, solve_blocks}`, on elements of [`esize`] bytes), each block one engine
/// call through [`Level3::engine`]. The f32 engine reads alpha and beta from its params; the
/// f64 one from a small f64 buffer ([`gemm::engine_f64`]), and the adapter needs `SHADER_F64`.
pub(crate) trait Level3: Precision + From<f32> {
    /// The BLAS name of a routine in this type: `s` in f32, `d` in f64.
    fn routine(s: &'static str, d: &'static str) -> &'static str;

    /// `Err(Unsupported)` where `ctx` cannot run this type (f64 without `SHADER_F64`).
    fn check_type(ctx: &Context, routine: &'static str) -> Result<()>;

    /// One engine call `C = alpha·A·B + beta·C` (`dims = (m, n, k)`) in `variant`: one panel
    /// of [`Level3::panels`].
    #[allow(clippy::too_many_arguments)]
    fn engine<'a>(
        ctx: &Context,
        routine: &'static str,
        (m, n, k): (usize, usize, usize),
        alpha: Scalar<'a, Self>,
        a: Operand<'a>,
        b: Operand<'a>,
        beta: Scalar<'a, Self>,
        c: Operand<'a>,
        variant: Variant,
    ) -> Result<Plan<'a>> {
        let panel = Panel::of(a, b, k, variant);
        Self::panels(ctx, routine, (m, n), alpha, &[panel], beta, c, variant)
    }

    /// One engine call `C = alpha·Σ_p A_p·B_p + beta·C` over depth panels (`dims = (m, n)`;
    /// [`gemm::engine_panels`]: alpha scales the panels' whole sum once).
    #[allow(clippy::too_many_arguments)]
    fn panels<'a>(
        ctx: &Context,
        routine: &'static str,
        dims: (usize, usize),
        alpha: Scalar<'a, Self>,
        panels: &[Panel<'a>],
        beta: Scalar<'a, Self>,
        c: Operand<'a>,
        variant: Variant,
    ) -> Result<Plan<'a>>;

    /// The buffer the blocked solve reads its alpha (1) from: by default none (alpha in the
    /// params).
    fn trsm_alpha(_: &Context, _: &'static str) -> Result<Option<Buf>> {
        Ok(None)
    }

    /// The steps of the blocked solve `L·X = X` (`trsm::trsm`; the caller forms alpha·B).
    #[allow(clippy::too_many_arguments)]
    fn trsm<'a>(
        ctx: &Context,
        routine: &'static str,
        dims: (usize, usize),
        uplo: Uplo,
        unit: bool,
        sc: Option<&'a Buf>,
        l: Operand<'a>,
        x: Operand<'a>,
        w: &'a Scratch,
    ) -> Result<Vec<Step<'a>>>;

    /// Run `d` and deliver `outs` (`layout::finish_in`, one form for both types).
    fn finish<'f>(
        ctx: &'f Context,
        routine: &'static str,
        d: &'f [Dispatch<'_>],
        outs: &'f mut [OutAs<'_, '_, Self>],
        wait: Wait,
    ) -> impl Future<Output = Result<()>> + Send + 'f {
        layout::finish_in(ctx, routine, d, outs, wait)
    }
}

impl Level3 for f32 {
    fn routine(s: &'static str, _: &'static str) -> &'static str {
        s
    }

    fn check_type(_: &Context, _: &'static str) -> Result<()> {
        Ok(())
    }

    fn panels<'a>(
        ctx: &Context,
        _: &'static str,
        dims: (usize, usize),
        alpha: Scalar<'a>,
        panels: &[Panel<'a>],
        beta: Scalar<'a>,
        c: Operand<'a>,
        variant: Variant,
    ) -> Result<Plan<'a>> {
        Ok(gemm::engine_panels(
            ctx, dims, alpha, panels, beta, c, variant,
        ))
    }

    fn trsm<'a>(
        ctx: &Context,
        _: &'static str,
        dims: (usize, usize),
        uplo: Uplo,
        unit: bool,
        _: Option<&'a Buf>,
        l: Operand<'a>,
        x: Operand<'a>,
        w: &'a Scratch,
    ) -> Result<Vec<Step<'a>>> {
        trsm::trsm(ctx, dims, uplo, unit, l, x, w)
    }
}

/// f64: the engine and the solve instantiated with `alias T = f64;`, alpha and beta in f64
/// buffers.
impl Level3 for f64 {
    fn routine(_: &'static str, d: &'static str) -> &'static str {
        d
    }

    fn check_type(ctx: &Context, routine: &'static str) -> Result<()> {
        crate::blas::check_f64(ctx, routine)
    }

    fn panels<'a>(
        ctx: &Context,
        routine: &'static str,
        dims: (usize, usize),
        alpha: Scalar<'a, f64>,
        panels: &[Panel<'a>],
        beta: Scalar<'a, f64>,
        c: Operand<'a>,
        variant: Variant,
    ) -> Result<Plan<'a>> {
        gemm::engine_panels_f64(ctx, routine, dims, alpha, panels, beta, c, variant)
    }

    fn trsm_alpha(ctx: &Context, routine: &'static str) -> Result<Option<Buf>> {
        let host = [1.0f64];
        let source = crate::transfer::Source::slice(&host);
        Ok(Some(ctx.upload_source(routine, &source)?))
    }

    fn trsm<'a>(
        ctx: &Context,
        routine: &'static str,
        dims: (usize, usize),
        uplo: Uplo,
        unit: bool,
        sc: Option<&'a Buf>,
        l: Operand<'a>,
        x: Operand<'a>,
        w: &'a Scratch,
    ) -> Result<Vec<Step<'a>>> {
        let sc = sc.expect("trsm_alpha gives f64 its buffer");
        trsm::trsm_f64(ctx, routine, dims, uplo, unit, sc, l, x, w)
    }
}

/// Bytes per element of `T` (the `e` of the block lists).
pub(crate) fn esize<T>() -> u64 {
    std::mem::size_of::<T>() as u64
}

/// The plans of a product past one storage binding over `blocks` (each with its variant), in
/// the order of the block lists (`gemm::{gemm_blocks, tri_blocks, structured_blocks}`: each C
/// block's depth panels one after the other, the first marked `first`): one engine call per C
/// block over its panels ([`Level3::panels`]), which sums the panels' products unscaled and
/// forms `alpha·sum + beta·C` once, so that alpha scales the whole sum as in one call. The
/// variant of a C block is its first panel's (`tri_c` on a diagonal block), each panel's A read
/// in its own `a_mode`.
pub(crate) fn panel_plans<'a, T: Level3>(
    ctx: &Context,
    routine: &'static str,
    (alpha, beta): (Scalar<'a, T>, Scalar<'a, T>),
    blocks: impl IntoIterator<Item = (&'a Block, Variant)>,
) -> Result<Vec<Plan<'a>>> {
    let mut groups: Vec<(&'a Block, Variant, Vec<Panel<'a>>)> = Vec::new();
    for (blk, v) in blocks {
        let (a, b) = (Operand::of(&blk.a), Operand::of(&blk.b));
        let panel = Panel::of(a, b, blk.a.cols, v);
        match groups.last_mut() {
            Some(g) if !blk.first => g.2.push(panel),
            _ => groups.push((blk, v, vec![panel])),
        }
    }
    let each = |(blk, v, panels): (&'a Block, Variant, Vec<Panel<'a>>)| {
        let (dims, c) = ((blk.c.rows, blk.c.cols), Operand::of(&blk.c));
        T::panels(ctx, routine, dims, alpha, &panels, beta, c, v)
    };
    groups.into_iter().map(each).collect()
}

/// The plans of a general product over `blocks` from `gemm::gemm_blocks` ([`panel_plans`]).
pub(crate) fn block_plans<'a, T: Level3>(
    ctx: &Context,
    routine: &'static str,
    scalars: (Scalar<'a, T>, Scalar<'a, T>),
    blocks: &'a [Block],
) -> Result<Vec<Plan<'a>>> {
    let plain = Variant::default();
    panel_plans(ctx, routine, scalars, blocks.iter().map(|b| (b, plain)))
}

/// The plans of `C = alpha·A·B + beta·C` on the triangle of C that `variant.tri_c` names, whole
/// (one engine call) or over `blocks` from `gemm::tri_blocks`: diagonal blocks in `variant`,
/// the others plain, each C block's panels summed before alpha and beta ([`panel_plans`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn tri_plans<'a, T: Level3>(
    ctx: &Context,
    routine: &'static str,
    dims: (usize, usize, usize),
    alpha: Scalar<'a, T>,
    (a, b): (Operand<'a>, Operand<'a>),
    beta: Scalar<'a, T>,
    c: &'a MatOperand,
    variant: Variant,
    blocks: &'a [(Block, bool)],
) -> Result<Vec<Plan<'a>>> {
    if blocks.is_empty() {
        let c = Operand::of(c);
        return Ok(vec![T::engine(
            ctx, routine, dims, alpha, a, b, beta, c, variant,
        )?]);
    }
    let plain = Variant::default();
    let each = |(blk, diag): &'a (Block, bool)| (blk, if *diag { variant } else { plain });
    panel_plans(ctx, routine, (alpha, beta), blocks.iter().map(each))
}

/// The operands `(A, B, C)` of a structured product (`ssymm`, `strmm`): A r×r, B and C m×n.
pub(crate) type Structured<'o> = (&'o MatOperand, &'o MatOperand, &'o MatOperand);

/// The blocks of the structured product `C = alpha·S·B + beta·C` (`side` Left) or
/// `C = alpha·B·S + beta·C` (Right), `S` read in `mode`, past one storage binding: A in
/// square blocks, C in blocks (`gemm::structured_blocks`), on the left-side form (a right-side
/// product is its transpose). None where the operands fit one binding.
pub(crate) fn structured_blocks<T: Level3>(
    ctx: &Context,
    side: Side,
    (a, b, c): Structured<'_>,
    mode: AMode,
) -> Vec<(Block, AMode)> {
    let (bl, cl) = match side {
        Side::Left => (b.t().t(), c.t().t()),
        Side::Right => (b.t(), c.t()),
    };
    gemm::structured_blocks(ctx, esize::<T>(), a, &bl, &cl, mode)
}

/// The plans of a structured product (see [`structured_blocks`]; `(m, n)` the shape of B and
/// C): over `blocks`, or one engine call with A read in `mode`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn structured<'a, T: Level3>(
    ctx: &Context,
    routine: &'static str,
    side: Side,
    (m, n): (usize, usize),
    alpha: Scalar<'a, T>,
    (a, b, c): Structured<'a>,
    beta: Scalar<'a, T>,
    mode: AMode,
    blocks: &'a [(Block, AMode)],
) -> Result<Vec<Plan<'a>>> {
    if !blocks.is_empty() {
        let each = |(blk, mode): &'a (Block, AMode)| {
            let v = Variant {
                a_mode: *mode,
                ..Variant::default()
            };
            (blk, v)
        };
        return panel_plans(ctx, routine, (alpha, beta), blocks.iter().map(each));
    }
    let variant = Variant {
        a_mode: mode,
        ..Variant::default()
    };
    let (ao, bo, co) = (Operand::of(a), Operand::of(b), Operand::of(c));
    let plan = match side {
        Side::Left => T::engine(ctx, routine, (m, n, m), alpha, ao, bo, beta, co, variant),
        Side::Right => T::engine(
            ctx,
            routine,
            (n, m, n),
            alpha,
            ao,
            bo.t(),
            beta,
            co.t(),
            variant,
        ),
    };
    Ok(vec![plan?])
}

/// The start that `strmm`, `strsm` and their f64 twins share, after the owner checks: the
/// shapes (`super::check_side`), the element type, and the quick returns: an empty `B` is
/// left alone, `alpha = 0` sets it to zero (reading neither A nor B). Otherwise: the device
/// operands (`layout::matrix_any`) of the left triangular operand L of the canonical left-side
/// problem (`super::left_triangle`) and of B, and L's triangle.
pub(crate) fn triangular<T: Level3>(
    ctx: &Context,
    routine: &'static str,
    (side, uplo, transa): (Side, Uplo, Transpose),
    alpha: &Scalar<'_, T>,
    a: &MatRef<'_, T>,
    b: &mut MatMut<'_, T>,
) -> Result<Option<(MatOperand, MatOperand, Uplo)>> {
    let (m, n) = b.dim();
    let r = super::check_side(routine, side, a.dim(), (m, n))?;
    T::check_type(ctx, routine)?;
    if m == 0 || n == 0 {
        return Ok(None);
    }
    if alpha.is(T::from(0.0)) {
        layout::fill_zero(ctx, b);
        return Ok(None);
    }
    let (l, l_uplo) = super::left_triangle(side, uplo, transa, a);
    debug_assert_eq!(l.nrows(), r);
    let ld = layout::matrix_any(ctx, routine, "a", &l)?;
    let bd = layout::matrix_any(ctx, routine, "b", b.view())?;
    Ok(Some((ld, bd, l_uplo)))
}

/// Whether a call is complete before any upload, checked after its shapes: the element type
/// first ([`Level3::check_type`]), then BLAS's quick return: an empty output (`empty`), or
/// `C ← beta·C` with beta = 1 (depth `k` = 0 or alpha = 0, which read neither A nor B).
pub(crate) fn quick_return<T: Level3>(
    ctx: &Context,
    routine: &'static str,
    empty: bool,
    k: usize,
    (alpha, beta): (&Scalar<'_, T>, &Scalar<'_, T>),
) -> Result<bool> {
    T::check_type(ctx, routine)?;
    Ok(empty || (k == 0 || alpha.is(T::from(0.0))) && beta.is(T::from(1.0)))
}

/// The device operands of A, B and C, each uploaded by `layout::matrix_any` (processed in
/// blocks past one storage binding).
pub(crate) fn operands<T: Level3>(
    ctx: &Context,
    routine: &'static str,
    (a, b, c): (&MatRef<'_, T>, &MatRef<'_, T>, MatRef<'_, T>),
) -> Result<[MatOperand; 3]> {
    let ad = layout::matrix_any(ctx, routine, "a", a)?;
    let bd = layout::matrix_any(ctx, routine, "b", b)?;
    Ok([ad, bd, layout::matrix_any(ctx, routine, "c", c)?])
}

/// The dispatches of `plans`, in order.
pub(crate) fn dispatches<'p>(plans: &'p [Plan<'_>]) -> Vec<Dispatch<'p>> {
    plans.iter().flat_map(|p| p.dispatches()).collect()
}

/// `v` as a host scalar of type `T` (the constant alpha or beta of a pass).
pub(crate) fn host<'a, T: Level3>(v: f32) -> Scalar<'a, T> {
    Scalar::Host(T::from(v))
}

/// One Level 3 routine: its public blocking forms `$s` (f32) and `$d` (f64), each with its own
/// doc, and the one core they share, `$core`, generic over the element type `T` (which their
/// `_async` twins in `blas::asynch` await as `$core::<f32>` and `$core::<f64>`).
///
/// The signature is written once: `ctx`, the flags as they are, each operand `arg: Kind` as
/// `impl Into<Kind<'a, T>>` (`Kind<'a, f32>` in `$s`, `Kind<'a, f64>` in `$d`), and in the core
/// `wait` last. The core's body starts with the routine's BLAS name in `$r` (`$s` or `$d`), its
/// operands converted (each a `let mut`, so that outputs can be written) and checked to belong
/// to `ctx` (`blas::owners!`), before any other check or quick return.
macro_rules! level3 {
    (
        $(#[$sdoc:meta])* $s:ident: f32;
        $(#[$ddoc:meta])* $d:ident: f64;
        $(#[$cdoc:meta])*
        async fn $core:ident($ctx:ident, $r:ident, $wait:ident;
            $($flag:ident: $fty:ty),*; $($arg:ident: $kind:ident),*) $body:block
    ) => {
        level3!(@blocking $core ($($flag: $fty),*; $($arg: $kind),*) $(#[$sdoc])* $s: f32);
        level3!(@blocking $core ($($flag: $fty),*; $($arg: $kind),*) $(#[$ddoc])* $d: f64);

        $(#[$cdoc])*
        #[allow(clippy::too_many_arguments)]
        pub(crate) async fn $core<'a, T: crate::blas::level3::common::Level3>(
            $ctx: &crate::Context,
            $($flag: $fty,)*
            $($arg: impl Into<$kind<'a, T>>,)*
            $wait: crate::launch::Wait,
        ) -> crate::error::Result<()> {
            let $r = T::routine(stringify!($s), stringify!($d));
            $(#[allow(unused_mut)] let mut $arg = $arg.into();)*
            crate::blas::owners!($ctx, $r, $($arg),*);
            $body
        }
    };
    (@blocking $core:ident ($($flag:ident: $fty:ty),*; $($arg:ident: $kind:ident),*)
        $(#[$doc:meta])* $name:ident: $t:ty
    ) => {
        $(#[$doc])*
        #[allow(clippy::too_many_arguments)]
        pub fn $name<'a>(
            ctx: &crate::Context,
            $($flag: $fty,)*
            $($arg: impl Into<$kind<'a, $t>>,)*
        ) -> crate::error::Result<()> {
            // One core for this blocking form and its `_async` twin (module `blas::asynch`).
            pollster::block_on($core::<$t>(ctx, $($flag,)* $($arg,)* crate::launch::Wait::Block))
        }
    };
}
pub(crate) use level3;
