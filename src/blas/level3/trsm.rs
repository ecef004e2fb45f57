use super::common::{level3, triangular};
use crate::drivers::gemm::Operand;
use crate::drivers::trsm;
use crate::flags::{Diag, Side, Transpose, Uplo};
use crate::layout::{self, MatMut, MatRef, OutAs, Scalar};

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
    /// at once; all in one submission. `Side::Right`
    /// runs as `op(A)ᵀ·Xᵀ = alpha·Bᵀ`, the transposes being stride swaps. Blocked substitution
    /// with conventional products is backward stable (Higham, *Accuracy and Stability of
    /// Numerical Algorithms*, 2nd ed., Thm. 8.5 and §13.1): the backward-residual factor of
    /// [`metrics::bounds::trsm`](crate::metrics::bounds::trsm) stays ≤ 5 whatever the condition of
    /// `A`.
    ///
    /// `alpha` is a host value or a device scalar (`&GpuScalar<f32>`), under the same rules (DESIGN.md
    /// §3). A device alpha is applied after the solve (`B ← alpha·X`, `op(A)·X = B`), so that alpha = 0
    /// gives `B = 0` whatever A holds, as on the host.
    ///
    /// # Errors
    /// [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`b`: rows (Left) or columns
    /// (Right) of `B` ≠ order of `A`); [`Error::TooLarge`](crate::Error::TooLarge);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `B` is unchanged.
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
    /// §3). A device alpha is applied after the solve (`B ← alpha·X`, `op(A)·X = B`), so that alpha = 0
    /// gives `B = 0` whatever A holds, as on the host.
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
        let nrhs = match (side, b.dim()) {
            (Side::Left, (_, n)) => n,
            (Side::Right, (m, _)) => m,
        };
        // The triangle L of the canonical solve L·X = alpha·B.
        let flags = (side, uplo, transa);
        let Some((order, l, l_uplo)) = triangular(ctx, r, flags, &alpha, &a, &mut b)? else {
            return Ok(());
        };
        // Bound whole in both types: the solve reads and writes B in place.
        let ld = layout::matrix(ctx, r, "a", &l)?;
        let bd = layout::matrix(ctx, r, "b", b.view())?;
        let scratch = trsm::scratch_len(order, nrhs) as u64 * std::mem::size_of::<T>() as u64;
        layout::check_binding(ctx, r, "b", scratch)?;
        let w = ctx.scratch(scratch);
        let sc = T::trsm_alpha(ctx, r, &alpha)?;
        let x = match side {
            Side::Left => Operand::of(&bd),
            Side::Right => Operand::of(&bd).t(),
        };
        let (dims, unit, lo) = ((order, nrhs), diag == Diag::Unit, Operand::of(&ld));
        let steps = T::trsm(ctx, r, dims, l_uplo, unit, alpha, sc.as_ref(), lo, x, &w)?;
        let d = trsm::dispatches(&steps);
        T::finish(ctx, r, &d, &mut [OutAs::Mat(&mut b, &bd)], wait).await
    }
}
