use super::common::{esize, level3, triangular, Level3};
use crate::drivers::gemm::{self, Operand, Variant};
use crate::drivers::trsm::{self, Step};
use crate::error::Result;
use crate::flags::{Diag, Side, Transpose, Uplo};
use crate::layout::{MatMut, MatOperand, MatRef, OutAs, Scalar};
use crate::pool::Buf;
use crate::Context;

level3! {
    /// Solve `op(A)·X = alpha·B` (`Side::Left`) or `X·op(A) = alpha·B` (`Side::Right`) in place:
    /// `B ← X`, `A` triangular, `op(A) = A` or `Aᵀ`.
    ///
    /// BLAS: `strsm`. `B` is m×n, `A` m×m (Left) or n×n (Right). `uplo` says which triangle of `A`
    /// holds the matrix; the other triangle is never read. `diag = Unit` takes the diagonal as ones and
    /// never reads it. `A` and `B` may be in any layout (C order, F order, transposed, sliced,
    /// strided), with no copy, or resident ([`GpuMatrix`](crate::GpuMatrix) or its `.t()`), host and
    /// resident operands mixed freely in one call (a resident `B` is updated on the device). Reference
    /// semantics: `alpha = 0` sets `B` to zero without reading A or B. No test for singularity is made
    /// (as in BLAS): a zero on the diagonal gives Inf or NaN.
    ///
    /// Algorithm: recursive blocked substitution (`drivers/trsm.rs`; Elmroth, Gustavson,
    /// Jonsson and Kågström, SIAM Review 46(1), 2004): the rows split in halves, the first half
    /// solved, the second updated by one tile-engine product (`wgsl/level3/gemm.wgsl`) of depth
    /// r/2, r/4, ..., then solved; 32-row diagonal blocks solved directly for all right-hand sides
    /// at once; all in one submission (with `wgblas::tuning::Tuning::trsm_inverse`, off by
    /// default: 64-row diagonal blocks inverted at once and each leaf a tile-engine product
    /// with its inverse, `drivers/trsm.rs`). Past one storage binding (issue 15), blocked substitution
    /// on a grid of square diagonal blocks of A, each solved so for a panel of B's columns, after
    /// the updates `B_i ← B_i − A_ij·X_j` by the blocks solved before it on the tile engine,
    /// every block of A and B within one binding. Past one buffer of the device
    /// (`ctx.max_buffer()`), A and B are held in segments of whole rows (columns, for F
    /// order), and that grid is also cut at the segment boundaries of each (up to 2^32 elements
    /// an operand and the device's memory). `Side::Right`
    /// runs as `op(A)ᵀ·Xᵀ = alpha·Bᵀ`, the transposes being stride swaps. Blocked substitution
    /// with conventional products is backward stable (Higham, *Accuracy and Stability of
    /// Numerical Algorithms*, 2nd ed., Thm. 8.5 and §13.1): the backward-residual factor of
    /// [`metrics::bounds::trsm`](crate::metrics::bounds::trsm) stays ≤ 5 whatever the condition of
    /// `A`.
    ///
    /// `alpha` is a host value or a device scalar (`&GpuScalar<f32>`), under the same rules (DESIGN.md
    /// §3). Either way `alpha·B` is formed first, as the formula (and reference `STRSM`) says, then
    /// the system is solved, so a device alpha gives the bits of the same host value (an Inf alpha
    /// meets B's zeros and the solve's cancellations by IEEE arithmetic); a device alpha = 0 gives
    /// `B = 0` whatever A holds, as a host one does (the solve's result multiplied by 0 or 1, the
    /// indicator of alpha ≠ ±0, with B not read at 0).
    ///
    /// # Errors
    /// [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`b`: rows (Left) or columns
    /// (Right) of `B` ≠ order of `A`); [`Error::TooLarge`](crate::Error::TooLarge) naming the
    /// operand past 2^32 elements, past the device's memory, or past one buffer where one of
    /// its rows (columns, in F order) alone is past one buffer; [`Error::Gpu`](crate::Error::Gpu).
    /// On error `B` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{Diag, Side, Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// let a = array![[2.0f32, 1.0], [f32::NAN, 4.0]]; // upper triangle; the NaN is never read
    /// let mut b = array![[4.0f32, 8.0], [8.0, 16.0]];
    /// // X·A = B: X = [[2, 1.5], [4, 3]]
    /// wgblas::blas::strsm(ctx, Side::Right, Uplo::Upper, Transpose::No, Diag::NonUnit, 1.0, a.view(), b.view_mut())?;
    /// assert_eq!(b, array![[2.0, 1.5], [4.0, 3.0]]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    strsm: f32;
    /// Solve `op(A)·X = alpha·B` (`Side::Left`) or `X·op(A) = alpha·B` (`Side::Right`) for X,
    /// overwriting B, in f64, `A` triangular.
    ///
    /// BLAS: `dtrsm`. As [`strsm`] (shapes, layouts, only the triangle `uplo` of A read and its
    /// diagonal not at all for `Diag::Unit`, `alpha = 0` setting B to 0 without reading A, no
    /// pivoting: a zero on the diagonal gives Inf/NaN as in reference BLAS), in f64: the diagonal
    /// blocks solved by `wgsl/level3/trsm.wgsl` and the updates on the tile engine, both with
    /// `alias T = f64;` and alpha read as f64. Metric: the backward residual of
    /// [`metrics::bounds::trsm`](crate::metrics::bounds::trsm) with eps = 2^-52.
    ///
    /// `alpha` is a host value or a device scalar (`&GpuScalar<f64>`), under the same rules (DESIGN.md
    /// §3). Either way `alpha·B` is formed first, as the formula (and reference `STRSM`) says, then
    /// the system is solved, so a device alpha gives the bits of the same host value (an Inf alpha
    /// meets B's zeros and the solve's cancellations by IEEE arithmetic); a device alpha = 0 gives
    /// `B = 0` whatever A holds, as a host one does (the solve's result multiplied by 0 or 1, the
    /// indicator of alpha ≠ ±0, with B not read at 0).
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; otherwise as [`strsm`]. On error `B` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{Diag, Side, Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let a = array![[2.0f64, 1.0], [f64::NAN, 4.0]];
    /// let mut b = array![[4.0f64, 6.0], [8.0, 12.0]];
    /// wgblas::blas::dtrsm(ctx, Side::Right, Uplo::Upper, Transpose::No, Diag::NonUnit, 1.0, a.view(), b.view_mut())?;
    /// assert_eq!(b, array![[2.0, 1.0], [4.0, 2.0]]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    dtrsm: f64;
    /// The core of [`strsm`], [`dtrsm`] and their `_async` twins, waiting for the read-back as
    /// `wait` says.
    async fn trsm_in(ctx, r, wait; side: Side, uplo: Uplo, transa: Transpose, diag: Diag; alpha: Scalar, a: MatRef, b: MatMut) {
        // L of the canonical solve L·X = alpha·B, and B, on the device.
        let Some((ld, bd, l_uplo)) = triangular(ctx, r, (side, uplo, transa), &alpha, &a, &mut b)?
        else {
            return Ok(());
        };
        // The right-hand sides X of the canonical solve, solved in place: B, or Bᵀ (Right).
        let xd = match side {
            Side::Left => bd.t().t(),
            Side::Right => bd.t(),
        };
        // alpha·B first, as the formula (and reference STRSM) forms it, then the solve with
        // alpha = 1: the same operations for a host alpha and a device one, so the same bits.
        let sc = T::trsm_alpha(ctx, r)?;
        let (tri, e) = ((l_uplo, diag == Diag::Unit), esize::<T>());
        let (order, nrhs) = (xd.rows, xd.cols);
        let scratch = trsm::scratch_len(order, nrhs) as u64 * e;
        let (w, parts);
        // The blocks of X within one binding each, and a block of L for the never-read
        // operands of the scalings (products of depth 0).
        let (solve, xs, any): (_, Vec<&MatOperand>, _) =
            if ld.fits(ctx) && xd.fits(ctx) && scratch <= ctx.max_binding() {
                w = trsm::scratch(ctx, scratch, order, e);
                let (lo, x) = (Operand::of(&ld), Operand::of(&xd));
                let s = T::trsm(ctx, r, (order, nrhs), tri.0, tri.1, sc.as_ref(), lo, x, &w)?;
                (s, vec![&xd], Operand::of(&ld))
            } else {
                // Past one storage binding: blocked substitution on square diagonal blocks.
                parts = Parts::new(ctx, e, &ld, &xd, l_uplo);
                let s = parts.steps::<T>(ctx, r, tri, sc.as_ref())?;
                (s, parts.x.iter().collect(), Operand::of(&parts.l[0]))
            };
        let (ind, src);
        let mut steps = if alpha.is(T::from(1.0)) {
            Vec::new()
        } else {
            scale(ctx, r, &xs, any, alpha)?
        };
        steps.extend(solve);
        // A device alpha = 0 gives B = 0 whatever A holds, as a host alpha = 0 (the quick
        // return): X ← ind·X after the solve, ind = 1 where alpha is not ±0 (X as solved,
        // exactly), else 0 (X not read).
        if let Scalar::Device(buffer, offset, id) = alpha {
            (ind, src) = (ctx.scratch(16), Buf::shared(buffer));
            let d = crate::resident::nonzero_indicator(&src, offset, e == 8, &ind);
            steps.push(Step::Block(d));
            steps.extend(scale::<T>(ctx, r, &xs, any, Scalar::Device(&ind, 0, id))?);
        }
        let d = trsm::dispatches(&steps);
        T::finish(ctx, r, &d, &mut [OutAs::Mat(&mut b, &bd)], wait).await
    }
}

/// `X ← beta·X` on each block of `xs` (products of depth 0 whose operands, `any`, are never
/// read; beta = 0 gives X = 0 without reading it, as the engine's beta = 0 rule).
fn scale<'a, T: Level3>(
    ctx: &Context,
    routine: &'static str,
    xs: &[&'a MatOperand],
    any: Operand<'a>,
    beta: Scalar<'a, T>,
) -> Result<Vec<Step<'a>>> {
    xs.iter()
        .map(|x| {
            let (dims, zero) = ((x.rows, x.cols, 0), Scalar::Host(T::from(0.0)));
            let v = Variant::default();
            let p = T::engine(ctx, routine, dims, zero, any, any, beta, Operand::of(x), v)?;
            Ok(Step::Update(p))
        })
        .collect()
}

/// The windows of a blocked solve `L·X = alpha·X` past one storage binding, on the grid of
/// `gemm::solve_blocks`: each within one binding.
struct Parts {
    /// The diagonal blocks' row ranges, in solve order.
    ranges: Vec<(usize, usize)>,
    /// X's column panels.
    cols: Vec<(usize, usize)>,
    /// The blocks `L[ranges[i], ranges[j]]`, `j ≤ i` (in solve order, so inside the triangle),
    /// at index `i·(i + 1)/2 + j`.
    l: Vec<MatOperand>,
    /// The blocks `X[ranges[i], cols[c]]` at index `c·p + i` (`p` diagonal blocks).
    x: Vec<MatOperand>,
    /// For each diagonal block, its solved rows of the panel at hand (C order, the width of the
    /// widest panel): the right operand of the updates, since X itself is their output.
    w: Vec<trsm::Scratch>,
}

impl Parts {
    fn new(ctx: &Context, e: u64, ld: &MatOperand, xd: &MatOperand, uplo: Uplo) -> Parts {
        let [ranges, cols] = gemm::solve_blocks(ctx, e, ld, xd, uplo);
        let mut l = Vec::new();
        for (i, &ri) in ranges.iter().enumerate() {
            l.extend(ranges[..=i].iter().map(|&rj| ld.block(ctx, e, ri, rj)));
        }
        let x = cols
            .iter()
            .flat_map(|&c| ranges.iter().map(move |&ri| xd.block(ctx, e, ri, c)))
            .collect();
        let width = cols.iter().map(|c| c.1 - c.0).max().unwrap_or(1);
        let rows = |ri: &(usize, usize)| ((ri.1 - ri.0) * width).max(4) as u64 * e;
        let w = ranges
            .iter()
            .map(|ri| trsm::scratch(ctx, rows(ri), ri.1 - ri.0, e))
            .collect();
        Parts {
            ranges,
            cols,
            l,
            x,
            w,
        }
    }

    /// The steps, panel by panel of X, each diagonal block in solve order: first its updates
    /// `X_i ← beta·X_i − L_ij·X_j` by the blocks `j` solved before it (tile-engine products),
    /// then its solve by the blocked kernel (`trsm::trsm`), with alpha = 1 (the caller has
    /// formed alpha·B already).
    fn steps<'a, T: Level3>(
        &'a self,
        ctx: &Context,
        routine: &'static str,
        (uplo, unit): (Uplo, bool),
        sc: Option<&'a Buf>,
    ) -> Result<Vec<Step<'a>>> {
        let one = Scalar::Host(T::from(1.0));
        let p = self.ranges.len();
        let mut out = Vec::new();
        for (c, &(c0, c1)) in self.cols.iter().enumerate() {
            let q = c1 - c0;
            for i in 0..p {
                let x = &self.x[c * p + i];
                let l = &self.l[i * (i + 1) / 2..=i * (i + 1) / 2 + i];
                for (j, lij) in l[..i].iter().enumerate() {
                    let w = Operand {
                        buffer: &self.w[j].w,
                        offset: 0,
                        rs: q as i32,
                        cs: 1,
                        bs: 0,
                    };
                    let (dims, minus) = ((x.rows, q, lij.cols), Scalar::Host(T::from(-1.0)));
                    let (lo, xo, v) = (Operand::of(lij), Operand::of(x), Variant::default());
                    let plan = T::engine(ctx, routine, dims, minus, lo, w, one, xo, v)?;
                    out.push(Step::Update(plan));
                }
                let (lo, xo) = (Operand::of(&l[i]), Operand::of(x));
                let dims = (x.rows, q);
                let w = &self.w[i];
                out.extend(T::trsm(ctx, routine, dims, uplo, unit, sc, lo, xo, w)?);
            }
        }
        Ok(out)
    }
}
