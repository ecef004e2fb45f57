use super::{triangular_in, Call, Keep, Plans};
use crate::blas::forms::routine;
use crate::context::Elem;
use crate::drivers::gemm::{self, Operand};
use crate::drivers::gemv::{self, Variant};
use crate::drivers::{elementwise, trsv};
use crate::flags::{Diag, Transpose, Uplo};
use crate::launch::Dispatch;
use crate::layout::{self, MatOperand, VecOperand};
use crate::pool::Buf;
use crate::Context;

routine! {
    /// Solve `op(A)·x = b` in place: `x ← op(A)⁻¹·x`, `A` n×n triangular.
    ///
    /// BLAS: `strsv`. `uplo` says which triangle of `A` holds the matrix; the other triangle is
    /// never read. `diag = Unit` takes the diagonal as ones and never reads it. `A` may be in any
    /// layout; `Transpose::Yes` and row-major storage are the same kernel with the strides swapped
    /// and the triangle flipped (no copy). No test for singularity is made (as in BLAS): a zero on
    /// the diagonal gives Inf or NaN.
    ///
    /// Resident operands are accepted: `A` as a [`GpuMatrix`](crate::GpuMatrix) (either storage
    /// order, or its `.t()`), `x` as a [`GpuVector`](crate::GpuVector); host and resident operands
    /// may be mixed in one call (see [`crate::resident`]).
    ///
    /// # Algorithm
    /// Blocked substitution (as OpenBLAS's `trsv` drivers block by `DTB_ENTRIES`: a small
    /// triangular solve, then a `gemv` update of the rest), not n sequential dispatches. `op(A)` is
    /// cut into diagonal blocks of `NB = 64` rows, taken in solve order (from the top for a lower,
    /// from the bottom for an upper triangle). One dispatch per block, in which every workgroup
    /// 1. **solves the block**: it loads the 64×64 diagonal block into workgroup memory (coalesced
    ///    along A's smaller stride, so C and F order read alike) and solves it by column-oriented
    ///    substitution there (two barriers per row, no global memory access in the loop);
    /// 2. **updates its rows**: it subtracts `Σ_{j in block} A_ij·x_j` from the 64 rows it owns
    ///    among those left to solve, from a tile of A staged in workgroup memory.
    ///
    /// Workgroup 0 writes the block's solution to a scratch vector; `x`'s own elements of the
    /// block are only read during the sweep, and a last dispatch copies the solution into `x`. So
    /// the solve is `⌈n/64⌉ + 1` dispatches in one command buffer and one submission; dispatches
    /// in one compute pass are ordered, so each reads the previous one's `x`. With a resident `A`
    /// and `x` nothing is submitted at all: the dispatches are held back and go with the next
    /// read-back, so a chain of resident solves costs one submission.
    ///
    /// Why 64: the block solve is the serial part (n/64 dispatches in a row, each doing 64
    /// dependent steps with two barriers), while the update carries the O(n²) work in parallel.
    /// A larger block lengthens that serial chain and the workgroup tile (64×65 elements); a
    /// smaller one multiplies the dispatches, each a launch and a global memory round trip.
    ///
    /// Accuracy: substitution, in any blocking, is backward stable (Higham, *Accuracy and Stability
    /// of Numerical Algorithms*, 2nd ed., Thm. 8.5: `(T + ΔT)·x̂ = b`, `|ΔT| ≤ γ_n |T|`), so the
    /// backward-residual factor of [`metrics::bounds::trsv`](crate::metrics::bounds::trsv) stays
    /// ≤ 3 whatever the condition number (the tests measure it on triangles with cond > 1e6). The
    /// forward error, in contrast, grows with the condition number.
    ///
    /// # Errors
    /// [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`x`);
    /// [`Error::TooLarge`](crate::Error::TooLarge) past one buffer of the device (past one storage
    /// binding, block substitution on square blocks of `A`: each block's earlier blocks subtracted
    /// by general matrix-vector products, then the block solved, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `x`
    /// is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{Diag, Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// let a = array![[2.0f32, 0.0], [1.0, 4.0]];
    /// let mut x = array![2.0f32, 9.0];
    /// wgblas::blas::strsv(ctx, Uplo::Lower, Transpose::No, Diag::NonUnit, a.view(), x.view_mut())?;
    /// assert_eq!(x, array![1.0, 2.0]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn strsv / strsv_in: f32;
    /// Solve `op(A)·x = b` in place in f64 (`x` holds `b` on entry, the solution on return), `A`
    /// n×n triangular, `op(A) = A` or `Aᵀ`.
    ///
    /// BLAS: `dtrsv`. As [`strsv`] in shapes, layouts and semantics (only the triangle `uplo` of
    /// `A` read, its diagonal not at all for `Diag::Unit`; n = 0 returns at once; no pivoting or
    /// singularity test: a zero on the diagonal gives Inf or NaN, as in reference `DTRSV`), in
    /// f64, by the same blocked substitution (`wgsl/level2/trsv.wgsl` with `alias T = f64;`). Its
    /// diagonal blocks have 64 rows where the adapter's workgroup memory holds the f64 tile (35
    /// KiB) and 32 rows where it does not (lavapipe's 32 KiB). Metric: the backward residual of
    /// [`metrics::bounds::trsv`](crate::metrics::bounds::trsv) with eps = 2^-52.
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`x`);
    /// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
    /// device (past one storage binding: block substitution on square blocks, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `x` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{Diag, Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let a = array![[2.0f64, f64::NAN], [1.0, 4.0]];
    /// let mut x = array![2.0f64, 9.0];
    /// wgblas::blas::dtrsv(ctx, Uplo::Lower, Transpose::No, Diag::NonUnit, a.view(), x.view_mut())?;
    /// assert_eq!(x, array![1.0, 2.0]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn dtrsv / dtrsv_in: f64;
    (uplo: Uplo, trans: Transpose, diag: Diag, a: MatRef, x: VecMut) -> Result<()>
    = triangular_in(true, uplo, trans, diag, a.into(), x.into());
}

/// The solve within one storage binding, in the element type `elem`
/// (`wgsl/level2/trsv.wgsl`), or `None` past it.
fn whole<'k, T>(
    ctx: &Context,
    elem: Elem,
    uplo: Uplo,
    diag: Diag,
    c: &Call<'k, T>,
) -> Option<Vec<Dispatch<'k>>> {
    let (ad, xd, keep) = (c.a, c.x, c.keep);
    if !(ad.fits(ctx) && xd.buffer.size() <= ctx.max_binding()) {
        return None;
    }
    let sol = keep
        .sol
        .get_or_init(|| trsv::scratch(ctx, ad.rows, std::mem::size_of::<T>()));
    Some(trsv::trsv(ctx, elem, uplo, diag == Diag::Unit, ad, xd, sol))
}

/// strsv's dispatches: [`whole`], or past one storage binding [`strsv_blocks`].
pub(super) fn strsv_dispatches<'k>(
    ctx: &Context,
    uplo: Uplo,
    diag: Diag,
    c: Call<'k, f32>,
) -> Vec<Dispatch<'k>> {
    let unit = diag == Diag::Unit;
    whole(ctx, Elem::F32, uplo, diag, &c)
        .unwrap_or_else(|| strsv_blocks(ctx, uplo, unit, c.a, c.x, c.keep))
}

/// dtrsv's dispatches: [`whole`], or past one storage binding [`dtrsv_blocks`].
///
/// # Errors
/// [`crate::Error::Gpu`] when a buffer cannot be created.
pub(super) fn dtrsv_dispatches<'k>(
    ctx: &Context,
    uplo: Uplo,
    diag: Diag,
    c: Call<'k, f64>,
) -> Plans<'k> {
    match whole(ctx, Elem::F64, uplo, diag, &c) {
        Some(d) => Ok(d),
        None => dtrsv_blocks(ctx, c.routine, uplo, diag == Diag::Unit, c.a, c.x, c.keep),
    }
}

/// One step of the f32 block substitution.
pub(super) enum Step {
    /// `x_I ← x_I − A_IJ·s_J` (matrix-vector driver: `A_IJ`, `s_J`, `x_I`, kernel, scratch).
    Update(MatOperand, VecOperand, VecOperand, gemv::Kernel, Buf),
    /// Solve the diagonal block in place (`A_II`, `x_I`), then copy `x_I` into `s_I`.
    Solve(MatOperand, VecOperand, VecOperand),
}

/// strsv past one storage binding: block substitution on square blocks. In solve order, block
/// I first subtracts `A_IJ·s_J` for every block J solved before it (a general matrix-vector
/// product, alpha = −1, beta = 1, reading the solved values from the scratch copy `s`, a
/// buffer apart from x), then is solved in place by the one-binding solve, then copied into
/// `s`.
fn strsv_blocks<'k>(
    ctx: &Context,
    uplo: Uplo,
    unit: bool,
    ad: &'k MatOperand,
    xd: &'k VecOperand,
    keep: &'k Keep<'k>,
) -> Vec<Dispatch<'k>> {
    let n = ad.rows;
    let side = layout::square_side(ctx, ad, 4, &[xd.inc, 1]);
    let solved = keep.solved.get_or_init(|| elementwise::contiguous(ctx, n));
    let block_sol = keep.sol.get_or_init(|| trsv::scratch(ctx, side, 4));
    // Cut also at the segment boundaries of A (past one buffer): no range is longer than
    // `side`, the scratch's length.
    let mut ranges = layout::square_ranges(ctx, ad, 4, &[xd.inc, 1]);
    if uplo == Uplo::Upper {
        ranges.reverse();
    }
    let mut steps = Vec::new();
    for (k, &ri) in ranges.iter().enumerate() {
        for &rj in &ranges[..k] {
            let ab = ad.block(ctx, 4, ri, rj);
            let kernel = gemv::plan(Variant::General, &ab);
            let scratch = gemv::scratch(ctx, kernel, &ab);
            steps.push(Step::Update(
                ab,
                solved.part(ctx, 4, rj.0, rj.1),
                xd.part(ctx, 4, ri.0, ri.1),
                kernel,
                scratch,
            ));
        }
        steps.push(Step::Solve(
            ad.block(ctx, 4, ri, ri),
            xd.part(ctx, 4, ri.0, ri.1),
            solved.part(ctx, 4, ri.0, ri.1),
        ));
    }
    let mut d = Vec::new();
    for step in keep.steps.get_or_init(|| steps) {
        match step {
            Step::Update(a, s, xi, kernel, scratch) => d.extend(gemv::gemv(
                ctx,
                Variant::General,
                -1.0,
                a,
                s,
                1.0,
                xi,
                *kernel,
                scratch,
            )),
            Step::Solve(a, xi, si) => {
                d.extend(trsv::trsv(ctx, Elem::F32, uplo, unit, a, xi, block_sol));
                d.extend(elementwise::dispatches(
                    ctx,
                    elementwise::Variant::Copy,
                    [0.0; 4],
                    xi,
                    si,
                ));
            }
        }
    }
    d
}

/// dtrsv past one storage binding (issue 15): block substitution on square blocks, as strsv.
/// In solve order, block I first subtracts `A_IJ·s_J` for every block J solved before it (on
/// the tile engine, alpha = −1, beta = 1, reading the solved values from the copy `s`), then
/// is solved in place by the one-binding solve, then copied into `s`.
fn dtrsv_blocks<'k>(
    ctx: &Context,
    routine: &'static str,
    uplo: Uplo,
    unit: bool,
    ad: &'k MatOperand,
    xd: &'k VecOperand,
    keep: &'k Keep<'k>,
) -> Plans<'k> {
    let n = ad.rows;
    let mut ranges = super::blocks64::ranges(ctx, ad, &[xd.inc, 1]);
    if uplo == Uplo::Upper {
        ranges.reverse();
    }
    let solved = keep
        .solved
        .get_or_init(|| elementwise::contiguous_as(ctx, n, 8));
    let side = ranges.iter().map(|r| r.1 - r.0).max().unwrap_or(1);
    let block_sol = keep.sol.get_or_init(|| trsv::scratch(ctx, side, 8));
    let xs: Vec<_> = ranges.iter().map(|r| xd.part(ctx, 8, r.0, r.1)).collect();
    let ss: Vec<_> = ranges
        .iter()
        .map(|r| solved.part(ctx, 8, r.0, r.1))
        .collect();
    let (xs, ss) = keep.parts.get_or_init(|| (xs, ss));
    // Block (k, j) for j ≤ k, row by row.
    let blocks: Vec<_> = (0..ranges.len())
        .flat_map(|k| (0..=k).map(move |j| (k, j)))
        .map(|(k, j)| (k, j, ad.block(ctx, 8, ranges[k], ranges[j])))
        .collect();
    let blocks = keep.tiles.get_or_init(|| blocks);
    let mut d = Vec::new();
    let (mut rows, mut plans) = (Vec::new(), Vec::new());
    for (k, j, ab) in blocks {
        let (k, j) = (*k, *j);
        if j < k {
            let (ao, so, xo) = (
                Operand::of(ab),
                Operand::column(&ss[j]),
                Operand::column(&xs[k]),
            );
            let dims = (ab.rows, 1, ab.cols);
            let variant = gemm::Variant::default();
            rows.push(k);
            plans.push(gemm::engine_f64(
                ctx, routine, dims, -1.0, ao, so, 1.0, xo, variant,
            )?);
        }
    }
    let plans = keep.plans.get_or_init(|| plans);
    for k in 0..ranges.len() {
        for (_, plan) in rows.iter().zip(plans).filter(|(i, _)| **i == k) {
            d.extend(plan.dispatches());
        }
        let diagonal = blocks.iter().find(|(i, j, _)| (*i, *j) == (k, k));
        let akk = &diagonal.expect("a diagonal block").2;
        d.extend(trsv::trsv(
            ctx,
            Elem::F64,
            uplo,
            unit,
            akk,
            &xs[k],
            block_sol,
        ));
        d.extend(elementwise::dispatches_as(
            ctx,
            elementwise::Variant::Copy,
            [0.0; 4],
            &xs[k],
            &ss[k],
            Elem::F64,
            None,
        ));
    }
    Ok(d)
}
