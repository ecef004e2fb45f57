use super::common::{dispatches, host, level3, structured, structured_blocks, triangular};
use crate::drivers::gemm::AMode;
use crate::flags::{Diag, Side, Transpose, Uplo};
use crate::layout::{MatMut, MatOperand, MatRef, OutAs, Scalar};

level3! {
    /// `B ← alpha·op(A)·B` (`Side::Left`) or `B ← alpha·B·op(A)` (`Side::Right`), `A` triangular,
    /// `op(A) = A` or `Aᵀ`.
    ///
    /// BLAS: `strmm`. `B` is m×n, `A` m×m (Left) or n×n (Right). `uplo` says which triangle of `A`
    /// holds the matrix; the other triangle is never read. `diag = Unit` takes the diagonal as ones and
    /// never reads it. `A` and `B` may be in any layout (C order, F order, transposed, sliced,
    /// strided), with no copy, or resident ([`GpuMatrix`](crate::GpuMatrix) or its `.t()`), host and
    /// resident operands mixed freely in one call (a resident `B` is updated on the device). Reference
    /// semantics: `alpha = 0` sets `B` to zero without reading A or B. Forward error bound:
    /// [`metrics::bounds::trmm`](crate::metrics::bounds::trmm) (factor ≤ 1).
    ///
    /// Kernel: the `sgemm` tile engine (`wgsl/level3/gemm.wgsl`) on a triangular left operand,
    /// first packed densely by the engine's `pack` entry (`A_MODE = 2`: zeros outside the triangle
    /// without reading it, a unit diagonal without reading it), then multiplied with the k slabs
    /// that are zero for a whole tile skipped (`K_TRI`), so about half the products of a full gemm
    /// are done. The product goes to a new device buffer laid out like `B` (B is read
    /// and written, and a gemm cannot run in place), then into `B`. `Side::Right` runs as
    /// `Bᵀ ← alpha·op(A)ᵀ·Bᵀ`, the transposes being stride swaps (`op(A)ᵀ` has the other triangle),
    /// which the engine, where its output is column-major (B in C order on the right, or in F
    /// order on the left), solves transposed back, the triangle then on its right operand, so
    /// that its stores run along the output's contiguous dimension.
    ///
    /// `alpha` is a host value or a device scalar (`&GpuScalar<f32>`), under the same rules (DESIGN.md
    /// §3).
    ///
    /// # Errors
    /// [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`b`: rows (Left) or columns
    /// (Right) of `B` ≠ order of `A`); [`Error::TooLarge`](crate::Error::TooLarge)
    /// past one buffer of the device (past one storage binding: `A` in square blocks, those
    /// outside the triangle skipped, and `B` in blocks, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `B` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{Diag, Side, Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// // Lower triangle with a unit diagonal: [[1, 0], [3, 1]]; the NaNs are never read.
    /// let a = array![[f32::NAN, f32::NAN], [3.0f32, f32::NAN]];
    /// let mut b = array![[1.0f32, 2.0], [3.0, 4.0]];
    /// wgblas::blas::strmm(ctx, Side::Left, Uplo::Lower, Transpose::No, Diag::Unit, 2.0, a.view(), b.view_mut())?;
    /// assert_eq!(b, array![[2.0, 4.0], [12.0, 20.0]]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    strmm: f32;
    /// `B ← alpha·op(A)·B` (`Side::Left`) or `B ← alpha·B·op(A)` (`Side::Right`) in f64, `A`
    /// triangular.
    ///
    /// BLAS: `dtrmm`. As [`strmm`] (shapes, layouts, only the triangle `uplo` of A read and its
    /// diagonal not at all for `Diag::Unit`, `alpha = 0` setting B to 0 without reading A, no
    /// zero-skip), in f64 on the same tile engine (`alias T = f64;`: the triangle packed densely,
    /// zero slabs skipped). Forward bound: that of
    /// [`metrics::bounds::trmm`](crate::metrics::bounds::trmm) with eps = 2^-52.
    ///
    /// `alpha` is a host value or a device scalar (`&GpuScalar<f64>`), under the same rules (DESIGN.md
    /// §3).
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; otherwise as [`strmm`]. On error `B` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{Diag, Side, Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let a = array![[f64::NAN, f64::NAN], [3.0, f64::NAN]]; // unit lower: [[1, 0], [3, 1]]
    /// let mut b = array![[1.0f64, 2.0], [3.0, 4.0]];
    /// wgblas::blas::dtrmm(ctx, Side::Left, Uplo::Lower, Transpose::No, Diag::Unit, 2.0, a.view(), b.view_mut())?;
    /// assert_eq!(b, array![[2.0, 4.0], [12.0, 20.0]]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    dtrmm: f64;
    /// The core of [`strmm`], [`dtrmm`] and their `_async` twins, waiting for the read-back as
    /// `wait` says.
    async fn trmm_in(ctx, r, wait; side: Side, uplo: Uplo, transa: Transpose, diag: Diag; alpha: Scalar, a: MatRef, b: MatMut) {
        let flags = (side, uplo, transa);
        let Some((ld, bd, l_uplo)) = triangular(ctx, r, flags, &alpha, &a, &mut b)? else {
            return Ok(());
        };
        // The product, laid out like B.
        let out = MatOperand {
            buffer: ctx.zeroed(bd.span as u64 * std::mem::size_of::<T>() as u64),
            ..bd
        };
        let (operands, mode) = ((&ld, &bd, &out), AMode::Triangular(l_uplo, diag == Diag::Unit));
        let blocks = structured_blocks::<T>(ctx, side, operands, mode);
        let (zero, dim) = (host(0.0), b.dim());
        let plans = structured(ctx, r, side, dim, alpha, operands, zero, mode, &blocks)?;
        let d = dispatches(&plans);
        T::finish(ctx, r, &d, &mut [OutAs::Mat(&mut b, &out)], wait).await
    }
}
