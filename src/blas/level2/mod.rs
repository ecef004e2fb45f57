//! Level 2: matrix-vector routines.
//!
//! Each routine has one core, generic over the element type ([`Level2`]): the checks, quick
//! returns, uploads and write-back are written once; the kernels are those of the element type.
//! In f32 the matrix-vector driver (`gemv`, `symv`, `trmv`) and the rank-update driver (`ger`,
//! `syr`, `syr2`), each with its own blocks past one storage binding; in f64 the tile engine
//! (`gemm::engine_f64`, f64 scalars in a small buffer), on square blocks of its own
//! ([`blocks64`]).

mod blocks64;
pub(crate) mod gemv;
pub(crate) mod ger;
pub(crate) mod symv;
pub(crate) mod syr;
pub(crate) mod syr2;
pub(crate) mod trmv;
pub(crate) mod trsv;

use std::cell::OnceCell;

use crate::blas::level1::check_elem;
use crate::blas::{check_dim, check_len, check_order};
use crate::drivers::{elementwise, gemm, gemv as mv, rank_update};
use crate::error::Result;
use crate::flags::{Diag, Transpose, Uplo};
use crate::launch::{Dispatch, Wait};
use crate::layout::{self, MatOperand, MatRef, Out, Precision, Scalar, VecMut, VecOperand, VecRef};
use crate::pool::Buf;
use crate::Context;

/// What the dispatches of one Level 2 call borrow while they run, held by its generic core
/// until the write-back: the operand blocks past one storage binding and the scratch of the
/// f32 drivers, the vector parts, matrix blocks and tile-engine plans of f64.
#[derive(Default)]
pub(super) struct Keep<'k> {
    /// Symmetric rank updates past one binding (`rank_update::symmetric_parts`).
    rank: OnceCell<Vec<rank_update::Part>>,
    /// f32 rank updates on `main_pre` (the default): the scratch of the j index's factors.
    factors: OnceCell<rank_update::Factors>,
    /// ger past one binding: the blocks of `A` with their parts of `x` and `y`.
    updates: OnceCell<Vec<(VecOperand, VecOperand, MatOperand)>>,
    /// f32 matrix-vector blocks past one binding.
    blocks: OnceCell<Vec<mv::Block>>,
    /// The scratch of one whole matrix-vector product (f32, or f64 on the wide kernels).
    scratch: OnceCell<Buf>,
    /// f64 on the matrix-vector driver's wide kernels: alpha and beta.
    scal64: OnceCell<mv::ScalarsF64>,
    /// f64 rank updates: alpha (and the largest finite f64) for the `WIDE` kernels.
    wide: OnceCell<rank_update::ScalarsF64>,
    /// ssymv in two passes (the default): the transpose of `A`.
    transposed: OnceCell<MatOperand>,
    /// f64: the parts of x and y on the block grid.
    parts: OnceCell<(Vec<VecOperand>, Vec<VecOperand>)>,
    /// f64: the blocks of A, each with its block row and column.
    tiles: OnceCell<Vec<(usize, usize, MatOperand)>>,
    /// f64: the tile engine's plans, in order.
    plans: OnceCell<Vec<gemm::Plan<'k>>>,
    /// trsv: the scratch of the solve of one binding (or of one diagonal block).
    sol: OnceCell<Buf>,
    /// trsv past one binding: the copy `s` of the solved values.
    solved: OnceCell<VecOperand>,
    /// strsv past one binding: the steps of the block substitution.
    steps: OnceCell<Vec<trsv::Step>>,
}

impl<'k> Keep<'k> {
    /// The dispatches of `plans`, kept here, in order (device f64 scalars are copied into each
    /// plan's scalar buffer first).
    fn plans(&'k self, plans: Vec<gemm::Plan<'k>>) -> Vec<Dispatch<'k>> {
        let plans = self.plans.get_or_init(|| plans);
        plans.iter().flat_map(|p| p.dispatches()).collect()
    }
}

/// The dispatches of a Level 2 call, in order, or the error of a buffer that cannot be made.
pub(super) type Plans<'k> = Result<Vec<Dispatch<'k>>>;

/// A Level 2 operation, as the kernels of each element type see it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Kind {
    /// `y ← alpha·A·x + beta·y`, `A` m×n (op(A) already applied).
    Gemv,
    /// `y ← alpha·A·x + beta·y`, `A` symmetric, its triangle `uplo` stored.
    Symv(Uplo),
    /// `y ← A·x` into the zeroed contiguous `y` (alpha = 1, beta = 0), `A` triangular (its
    /// triangle `uplo`, the diagonal read or taken as 1 as `diag` says).
    Trmv(Uplo, Diag),
    /// `x ← A⁻¹·x` in place (`y` is `x`), `A` triangular as for `Trmv`.
    Trsv(Uplo, Diag),
    /// `A ← alpha·x·yᵀ + A`, `A` m×n.
    Ger,
    /// The triangle `uplo` of `A ← alpha·x·xᵀ + A` (`y` is `x`).
    Syr(Uplo),
    /// The triangle `uplo` of `A ← alpha·x·yᵀ + alpha·y·xᵀ + A`.
    Syr2(Uplo),
}

/// One Level 2 call on operands already checked and uploaded: the routine named in errors,
/// the scalars, `A`, `x`, `y`, and what its dispatches borrow.
pub(super) struct Call<'k, T> {
    pub routine: &'static str,
    pub alpha: Scalar<'k, T>,
    pub beta: Scalar<'k, T>,
    pub a: &'k MatOperand,
    pub x: &'k VecOperand,
    pub y: &'k VecOperand,
    pub keep: &'k Keep<'k>,
}

impl<'k, T> Call<'k, T> {
    /// A call of `routine` with these scalars and operands, borrowing `keep`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        routine: &'static str,
        alpha: Scalar<'k, T>,
        beta: Scalar<'k, T>,
        a: &'k MatOperand,
        x: &'k VecOperand,
        y: &'k VecOperand,
        keep: &'k Keep<'k>,
    ) -> Self {
        Call {
            routine,
            alpha,
            beta,
            a,
            x,
            y,
            keep,
        }
    }
}

/// The one core of `sgemv`, `dgemv` (`kind` = [`Kind::Gemv`], `A` read as `op(A)` as `trans`
/// says) and `ssymv`, `dsymv` (`kind` = [`Kind::Symv`], `trans` = `No`), generic over the
/// element type (`routine` names the one called): the checks, the quick return (an empty `A`,
/// or `alpha = 0` with `beta = 1`), the uploads (of any size: past one storage binding the
/// kernels take the operands in blocks), the kernels of the type ([`Level2`]) and the
/// write-back of `y`.
///
/// # Errors
/// As the routines.
#[allow(clippy::too_many_arguments)]
pub(super) async fn product_in<'a, T: Level2>(
    ctx: &Context,
    routine: &'static str,
    kind: Kind,
    trans: Transpose,
    alpha: Scalar<'a, T>,
    a: MatRef<'a, T>,
    x: VecRef<'a, T>,
    beta: Scalar<'a, T>,
    mut y: VecMut<'a, T>,
    wait: Wait,
) -> Result<()> {
    crate::blas::owners!(ctx, routine, alpha, a, x, beta, y);
    let op_a = a.op(trans);
    let (m, n) = op_a.dim();
    if let Kind::Gemv = kind {
        check_len(
            routine,
            "x",
            x.len(),
            n,
            "len(x) must equal the columns of op(A)",
        )?;
        check_len(
            routine,
            "y",
            y.len(),
            m,
            "len(y) must equal the rows of op(A)",
        )?;
        check_dim(routine, "a", m.max(n))?;
    } else {
        check_order(routine, (m, n), x.len(), Some(y.len()))?;
    }
    alpha.check(ctx, routine, "alpha")?;
    beta.check(ctx, routine, "beta")?;
    check_elem::<T>(ctx, routine)?;
    if m == 0 || n == 0 || alpha.is(T::ZERO) && beta.is(T::ONE) {
        return Ok(());
    }
    let ad = layout::matrix_any(ctx, routine, "a", &op_a)?;
    let xd = layout::vector_any(ctx, routine, "x", x.view())?;
    let yd = layout::vector_any(ctx, routine, "y", y.view())?;
    let keep = Keep::default();
    let call = Call::new(routine, alpha, beta, &ad, &xd, &yd, &keep);
    let d = T::dispatches(ctx, kind, call)?;
    layout::finish_in(ctx, routine, &d, &mut [Out::Vec(&mut y, &yd)], wait).await
}

/// The one core of `strmv`, `dtrmv` (`solve` false) and `strsv`, `dtrsv` (`solve` true),
/// generic over the element type (`routine` names the one called): the checks, `op(A)` (the
/// strides swapped for `Aᵀ`, whose referenced triangle is the other one), the uploads, the
/// kernels of the type ([`Level2`]) and the write-back of `x`. The product goes to a
/// contiguous scratch vector laid out as a resident `x` is (offset 0, unit stride), so that
/// the write-back copies it into a resident `x` on the device; the solve runs in place.
///
/// # Errors
/// As the routines.
#[allow(clippy::too_many_arguments)]
pub(super) async fn triangular_in<'a, T: Level2>(
    ctx: &Context,
    routine: &'static str,
    solve: bool,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: MatRef<'a, T>,
    mut x: VecMut<'a, T>,
    wait: Wait,
) -> Result<()> {
    crate::blas::owners!(ctx, routine, a, x);
    let n = check_order(routine, a.dim(), x.len(), None)?;
    check_elem::<T>(ctx, routine)?;
    if n == 0 {
        return Ok(());
    }
    let (op_a, uplo) = a.op_triangle(trans, uplo);
    let ad = layout::matrix_any(ctx, routine, "a", &op_a)?;
    let xd = layout::vector_any(ctx, routine, "x", x.view())?;
    let (kind, yd) = match solve {
        true => (Kind::Trsv(uplo, diag), None),
        false => {
            let yd = elementwise::contiguous_as(ctx, n, std::mem::size_of::<T>() as u64);
            (Kind::Trmv(uplo, diag), Some(yd))
        }
    };
    let out = yd.as_ref().unwrap_or(&xd);
    let keep = Keep::default();
    let (one, zero) = (Scalar::Host(T::ONE), Scalar::Host(T::ZERO));
    let call = Call::new(routine, one, zero, &ad, &xd, out, &keep);
    let d = T::dispatches(ctx, kind, call)?;
    layout::finish_in(ctx, routine, &d, &mut [Out::Vec(&mut x, out)], wait).await
}

/// The element types of the Level 2 routines, each with its kernels.
pub(super) trait Level2: Precision {
    /// Whether `syr` and `syr2` write back only the triangle `uplo` of `A` (f64) or all of it
    /// (f32); the kernel leaves the other triangle as it was uploaded in both.
    const TRIANGLE: bool;

    /// The dispatches of `kind` for `call`, in order.
    ///
    /// # Errors
    /// [`crate::Error::Gpu`] when a buffer cannot be created.
    fn dispatches<'k>(ctx: &Context, kind: Kind, call: Call<'k, Self>) -> Plans<'k>;
}

/// f32: the matrix-vector and rank-update drivers; a device alpha or beta is read into their
/// params.
impl Level2 for f32 {
    const TRIANGLE: bool = false;

    fn dispatches<'k>(ctx: &Context, kind: Kind, c: Call<'k, f32>) -> Plans<'k> {
        use rank_update::Variant::{Symmetric, Symmetric2};
        Ok(match kind {
            Kind::Gemv => matvec(ctx, mv::Variant::General, c),
            Kind::Symv(uplo) => matvec(ctx, mv::Variant::Symmetric(uplo), c),
            Kind::Trmv(uplo, diag) => matvec(ctx, mv::Variant::Triangular(uplo, diag), c),
            Kind::Trsv(uplo, diag) => trsv::strsv_dispatches(ctx, uplo, diag, c),
            Kind::Ger => ger::sger_dispatches(ctx, c),
            Kind::Syr(uplo) => symmetric_update(ctx, Symmetric(uplo), c),
            Kind::Syr2(uplo) => symmetric_update(ctx, Symmetric2(uplo), c),
        })
    }
}

/// f64: the matrix-vector driver's wide kernels or the tile engine (products and solves), the
/// rank-update driver in f64 (rank updates).
impl Level2 for f64 {
    const TRIANGLE: bool = true;

    fn dispatches<'k>(ctx: &Context, kind: Kind, c: Call<'k, f64>) -> Plans<'k> {
        if let Some(d) = matvec_f64(ctx, kind, &c)? {
            return Ok(d);
        }
        match kind {
            Kind::Gemv => gemv::dgemv_plans(ctx, c),
            Kind::Symv(uplo) => symv::dsymv_plans(ctx, uplo, c),
            Kind::Trmv(uplo, diag) => trmv::dtrmv_plans(ctx, uplo, diag, c),
            Kind::Trsv(uplo, diag) => trsv::dtrsv_dispatches(ctx, uplo, diag, c),
            Kind::Ger => rank_update_f64(ctx, rank_update::Variant::General, c),
            Kind::Syr(uplo) => rank_update_f64(ctx, rank_update::Variant::Symmetric(uplo), c),
            Kind::Syr2(uplo) => rank_update_f64(ctx, rank_update::Variant::Symmetric2(uplo), c),
        }
    }
}

/// An f32 product `y ← alpha·op(A)·x + beta·y` of kind `mode` on the matrix-vector driver: one
/// kernel chosen by [`mv::plan`] on the whole operands, or past one storage binding the blocks
/// of [`mv::general_blocks`] (general) or [`mv::structured_blocks`] (symmetric, triangular).
fn matvec<'k>(ctx: &Context, mode: mv::Variant, c: Call<'k, f32>) -> Vec<Dispatch<'k>> {
    let (a, x, y, keep) = (c.a, c.x, c.y, c.keep);
    let blocks = keep.blocks.get_or_init(|| match mode {
        mv::Variant::General => mv::general_blocks(ctx, a, x, y),
        _ => mv::structured_blocks(ctx, mode, a, x, y),
    });
    if !blocks.is_empty() {
        return mv::general_block_dispatches(ctx, c.alpha, c.beta, blocks);
    }
    // ssymv in two passes by default (H200, 2026-12-01, n = 16384: 1245–1299 GB/s against
    // `symv_lines`' 365–923, `benches/results/2026-12-01-s6/q2`); lab `Experimental` runs
    // `symv_lines`, `Scalar` `symv_tiles`, `Legacy` the first kernel.
    if let mv::Variant::Symmetric(uplo) = mode {
        // One pass over the stored triangle (lab `set_symv_one_pass`; off by default).
        if let Some(p) = mv::one_pass_plan(a) {
            let scalars = (c.alpha, c.beta);
            return mv::symv_one_pass(ctx, uplo, p, scalars, a, x, y, &keep.scratch);
        }
        if crate::lab::get(crate::lab::Driver::Matvec) == crate::lab::Variant::Auto {
            let at = keep.transposed.get_or_init(|| a.t());
            return mv::symv_two_pass(ctx, uplo, c.alpha, a, at, x, c.beta, y, &keep.scratch);
        }
    }
    let kernel = mv::plan(mode, a);
    let scratch = keep.scratch.get_or_init(|| mv::scratch(ctx, kernel, a));
    mv::gemv(ctx, mode, c.alpha, a, x, c.beta, y, kernel, scratch)
}

/// dgemv, dsymv and dtrmv on the matrix-vector driver's wide kernels in f64 where
/// [`mv::product_f64`] takes them; `None`: the tile engine's.
fn matvec_f64<'k>(
    ctx: &Context,
    kind: Kind,
    c: &Call<'k, f64>,
) -> Result<Option<Vec<Dispatch<'k>>>> {
    let mode = match kind {
        Kind::Gemv => mv::Variant::General,
        Kind::Symv(u) => mv::Variant::Symmetric(u),
        Kind::Trmv(u, d) => mv::Variant::Triangular(u, d),
        _ => return Ok(None),
    };
    let (k, r) = (c.keep, c.routine);
    mv::product_f64(
        ctx, r, mode, c.alpha, c.a, c.x, c.beta, c.y, &k.scratch, &k.scal64,
    )
}

/// An f32 symmetric rank update (`update` is `Symmetric` or `Symmetric2`) on the rank-update
/// driver: one dispatch, or past one storage binding `A` in square blocks
/// ([`rank_update::symmetric_parts`]).
fn symmetric_update<'k>(
    ctx: &Context,
    update: rank_update::Variant,
    c: Call<'k, f32>,
) -> Vec<Dispatch<'k>> {
    let (a, x, y) = (c.a, c.x, c.y);
    let parts = c
        .keep
        .rank
        .get_or_init(|| rank_update::symmetric_parts(ctx, update, 4, x, y, a));
    let factors = (c.keep.factors).get_or_init(|| rank_update::factor_scratch(ctx, update, a));
    if parts.is_empty() {
        rank_update::dispatch(ctx, update, c.alpha, x, y, a, factors)
    } else {
        rank_update::part_dispatches(ctx, c.alpha, parts, factors)
    }
}

/// An f64 rank update (dger, dsyr, dsyr2) on the rank-update driver in f64
/// ([`rank_update::dispatch_f64`]: each element rounded once, as in f32): `A` whole, or past
/// one storage binding its blocks (ger: [`ger::updates`]; syr, syr2: the square blocks of
/// [`rank_update::symmetric_parts`]); alpha in the scalar buffer kept in `c.keep`.
fn rank_update_f64<'k>(ctx: &Context, update: rank_update::Variant, c: Call<'k, f64>) -> Plans<'k> {
    let (a, x, y) = (c.a, c.x, c.y);
    let sc = rank_update::scalars_f64(ctx, c.routine, c.alpha)?;
    let sc = c.keep.wide.get_or_init(|| sc);
    if update == rank_update::Variant::General {
        let updates = ger::updates(ctx, &c).into_iter();
        let d = updates.map(|(x, y, a)| rank_update::dispatch_f64(ctx, update, sc, x, y, a));
        return Ok(sc.copies().into_iter().chain(d).collect());
    }
    let parts = c
        .keep
        .rank
        .get_or_init(|| rank_update::symmetric_parts(ctx, update, 8, x, y, a));
    if parts.is_empty() {
        let d = rank_update::dispatch_f64(ctx, update, sc, x, y, a);
        return Ok(sc.copies().into_iter().chain([d]).collect());
    }
    Ok(rank_update::part_dispatches_f64(ctx, sc, parts))
}

/// The square block grid of an f64 Level 2 call past one storage binding ([`blocks64`]).
pub(super) struct Grid<'k> {
    /// The rows (and columns) of each block row, from [`blocks64::ranges`].
    pub ranges: Vec<(usize, usize)>,
    /// The part of `x` on each block row.
    pub xs: &'k [VecOperand],
    /// The part of `y` on each block row (none for syr, whose `y` is `x`).
    pub ys: &'k [VecOperand],
    /// The blocks of the triangle of `A` (lower or upper), with their block row and column.
    pub blocks: &'k [(usize, usize, MatOperand)],
}

/// The [`Grid`] of `c` (its parts and blocks kept in `c.keep`): the block side fits the
/// windows of `A` and of `x` (and of `y` when `with_y`) in one binding; the blocks are those
/// of the triangle `uplo`.
pub(super) fn grid<'k>(ctx: &Context, c: &Call<'k, f64>, with_y: bool, uplo: Uplo) -> Grid<'k> {
    let (a, x, y) = (c.a, c.x, c.y);
    let incs: &[i32] = if with_y { &[x.inc, y.inc] } else { &[x.inc] };
    let ranges = blocks64::ranges(ctx, a, incs);
    let part =
        |v: &VecOperand| -> Vec<_> { ranges.iter().map(|r| v.part(ctx, 8, r.0, r.1)).collect() };
    let (xs, ys) = c
        .keep
        .parts
        .get_or_init(|| (part(x), if with_y { part(y) } else { Vec::new() }));
    let blocks = c.keep.tiles.get_or_init(|| {
        blocks64::triangle(ranges.len(), uplo == Uplo::Lower)
            .into_iter()
            .map(|(i, j)| (i, j, a.block(ctx, 8, ranges[i], ranges[j])))
            .collect()
    });
    Grid {
        ranges,
        xs,
        ys,
        blocks,
    }
}
