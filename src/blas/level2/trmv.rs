use super::{triangular_in, Call, Plans};
use crate::blas::forms::routine;
use crate::drivers::gemm::{self, AMode, Operand, Variant};
use crate::flags::{Diag, Transpose, Uplo};
use crate::Context;

routine! {
    /// `x ← op(A)·x`, `A` n×n triangular, `op(A) = A` or `Aᵀ`.
    ///
    /// BLAS: `strmv`. `uplo` says which triangle of `A` holds the matrix; the other triangle is
    /// never read. `diag = Unit` takes the diagonal as ones and never reads it. `A` may be in any
    /// layout; `Transpose::Yes` and row-major storage are the same kernel with the strides swapped
    /// and the triangle flipped (the triangle `uplo` of `A` is the triangle `uplo.flip()` of `Aᵀ`;
    /// no copy). `x` has length n, any stride. n = 0 returns at once.
    ///
    /// Resident operands are accepted: `A` as a [`GpuMatrix`](crate::GpuMatrix) (either storage
    /// order, or its `.t()`), `x` as a [`GpuVector`](crate::GpuVector); host and resident operands
    /// may be mixed in one call (see [`crate::resident`]).
    ///
    /// Computed by the matrix-vector driver of [`sgemv`](crate::blas::sgemv) with the triangular
    /// operator: row `i` is one `f32` dot product over the triangle only. Every row reads all of
    /// the input `x`, so the product goes to a separate device buffer and is written back into `x`
    /// afterwards (reference `STRMV` overwrites `x` column by column instead); for a resident `x`
    /// that copy is made on the device. Forward error bound
    /// [`metrics::bounds::trmv`](crate::metrics::bounds::trmv) (factor ≤ 2, DESIGN.md §2).
    ///
    /// # Errors
    /// [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`x`);
    /// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
    /// device (`max_buffer_size`; past one storage binding `A` goes in square blocks: the diagonal
    /// ones on their triangle, the others by the general product, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `x` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{Diag, Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// // Upper triangle of [[2, 1], [0, 4]]; the lower triangle is never read.
    /// let a = array![[2.0f32, 1.0], [f32::NAN, 4.0]];
    /// let mut x = array![1.0f32, 2.0];
    /// wgblas::blas::strmv(ctx, Uplo::Upper, Transpose::No, Diag::NonUnit, a.view(), x.view_mut())?;
    /// assert_eq!(x, array![4.0, 8.0]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn strmv / strmv_in: f32;
    /// `x ← op(A)·x` in f64, `A` n×n triangular, `op(A) = A` or `Aᵀ`.
    ///
    /// BLAS: `dtrmv`. As [`strmv`] in shapes, layouts and semantics (only the triangle `uplo` of
    /// `A` read, its diagonal not at all for `Diag::Unit`; n = 0 returns at once; NaN and Inf
    /// propagate through every product, no zero-skip), in f64. Within one storage binding it runs
    /// on strmv's kernels in f64 (`wgsl/level2/gemv_wide.wgsl` with `alias T = f64;`), into a
    /// separate buffer that is then written back into `x`; past it on the Level 3 tile engine
    /// (`wgsl/level3/gemm.wgsl` with `alias T = f64;`) as `dtrmm` does: the triangle packed
    /// densely, zero slabs skipped, times the one-column `x`. Forward bound: that of
    /// [`metrics::bounds::trmv`](crate::metrics::bounds::trmv) with eps = 2^-52.
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`x`);
    /// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
    /// device (past one storage binding `A` goes in square blocks, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `x` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{Diag, Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// // Upper triangle of [[2, 1], [0, 4]]; the lower triangle is never read.
    /// let a = array![[2.0f64, 1.0], [f64::NAN, 4.0]];
    /// let mut x = array![1.0f64, 2.0];
    /// wgblas::blas::dtrmv(ctx, Uplo::Upper, Transpose::No, Diag::NonUnit, a.view(), x.view_mut())?;
    /// assert_eq!(x, array![4.0, 8.0]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn dtrmv / dtrmv_in: f64;
    (uplo: Uplo, trans: Transpose, diag: Diag, a: MatRef, x: VecMut) -> Result<()>
    = triangular_in(false, uplo, trans, diag, a.into(), x.into());
}

/// dtrmv on the f64 tile engine: one product on operands within one storage binding; past it
/// (issue 15) `op(A)` in square blocks of its triangle, `y_I = Σ_J op(A)_IJ·x_J`, the diagonal
/// blocks triangular, the first product of each row block writing `y_I` (beta = 0), the others
/// adding to it.
pub(super) fn dtrmv_plans<'k>(
    ctx: &Context,
    uplo: Uplo,
    diag: Diag,
    c: Call<'k, f64>,
) -> Plans<'k> {
    let (ad, xd, yd, keep) = (c.a, c.x, c.y, c.keep);
    let (routine, n) = (c.routine, ad.rows);
    let tri = Variant {
        a_mode: AMode::Triangular(uplo, diag == Diag::Unit),
        ..Variant::default()
    };
    if super::blocks64::whole(ctx, ad, &[xd, yd]) {
        let (ao, xo, yo) = (Operand::of(ad), Operand::column(xd), Operand::column(yd));
        let plan = gemm::engine_f64(ctx, routine, (n, 1, n), 1.0, ao, xo, 0.0, yo, tri)?;
        return Ok(keep.plans(vec![plan]));
    }
    // y is contiguous (inc 1).
    let grid = super::grid(ctx, &c, true, uplo);
    let (xs, ys) = (grid.xs, grid.ys);
    let mut first = vec![true; grid.ranges.len()];
    let mut plans = Vec::new();
    for (i, j, ab) in grid.blocks {
        let (i, j) = (*i, *j);
        let variant = if i == j { tri } else { Variant::default() };
        let beta = if std::mem::take(&mut first[i]) {
            0.0
        } else {
            1.0
        };
        let (ao, xo, yo) = (
            Operand::of(ab),
            Operand::column(&xs[j]),
            Operand::column(&ys[i]),
        );
        let dims = (ab.rows, 1, ab.cols);
        plans.push(gemm::engine_f64(
            ctx, routine, dims, 1.0, ao, xo, beta, yo, variant,
        )?);
    }
    Ok(keep.plans(plans))
}
