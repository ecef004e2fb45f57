use super::common::{dispatches, esize, level3, operands, quick_return, tri_plans};
use super::{check_tri_c, OpB};
use crate::drivers::gemm::{self, Operand, Variant};
use crate::flags::{Transpose, Uplo};
use crate::layout::{MatMut, MatRef, OutAs, Scalar};

level3! {
    /// `C ← alpha·op(A)·op(B) + beta·C` on the triangle `uplo` of `C` only, `op(X) = X` or `Xᵀ`.
    ///
    /// BLAS: `sgemmtr` (reference BLAS 3.12 / LAPACK 3.12 `SGEMMTR`; Debian's OpenBLAS 0.3.21 has no
    /// such symbol). `op(A)` is n×k, `op(B)` k×n, `C` n×n. The other triangle of `C` is neither read
    /// nor written (its elements keep their exact bits). Each operand may be in any layout (C order, F
    /// order, mixed, transposed, sliced, strided), with no copy, or resident
    /// ([`GpuMatrix`](crate::GpuMatrix) or its `.t()`), host and resident operands mixed freely in one
    /// call (a resident `C` is updated on the device, its other triangle untouched). Reference
    /// semantics: k = 0 or `alpha = 0` gives `C ← beta·C` on the triangle and reads neither A nor B;
    /// `beta = 0` never reads `C`. Forward error bound:
    /// [`metrics::bounds::gemmtr`](crate::metrics::bounds::gemmtr) (factor ≤ 1).
    ///
    /// Kernel: the `sgemm` tile engine (`wgsl/level3/gemm.wgsl`) restricted to a triangle of C
    /// (`TRI_C`): tiles wholly outside the triangle are skipped, stores on the tiles the diagonal
    /// crosses are masked.
    ///
    /// `alpha` and `beta` are host values or device scalars (`&GpuScalar<f32>`), under the same rules
    /// (DESIGN.md §3).
    ///
    /// # Errors
    /// [`Error::NotSquare`](crate::Error::NotSquare) (`c`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming `a` (rows of `op(A)` ≠
    /// n) or `b` (rows of `op(B)` ≠ columns of `op(A)`, or columns of `op(B)` ≠ n);
    /// [`Error::TooLarge`](crate::Error::TooLarge); [`Error::Gpu`](crate::Error::Gpu). On error `C`
    /// is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    /// let b = array![[5.0f32, 6.0], [7.0, 8.0]];
    /// let mut c = array![[0.0f32, -1.0], [0.0, 0.0]];
    /// wgblas::blas::sgemmtr(ctx, Uplo::Lower, Transpose::No, Transpose::No, 1.0, a.view(), b.view(), 0.0, c.view_mut())?;
    /// assert_eq!(c, array![[19.0, -1.0], [43.0, 50.0]]); // A·B = [[19, 22], [43, 50]]
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    sgemmtr: f32;
    /// `C ← alpha·op(A)·op(B) + beta·C` on the triangle `uplo` of the square `C` only, in f64.
    ///
    /// BLAS: `dgemmtr` (`dgemmt` in some BLAS). As [`sgemmtr`] (shapes, layouts, the other
    /// triangle of C never read nor written, the semantics of DESIGN.md §3), in f64 on the same
    /// tile engine (`alias T = f64;`). Forward bound: that of
    /// [`metrics::bounds::gemmtr`](crate::metrics::bounds::gemmtr) with eps = 2^-52.
    ///
    /// `alpha` and `beta` are host values or device scalars (`&GpuScalar<f64>`), under the same rules
    /// (DESIGN.md §3).
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; otherwise as [`sgemmtr`]. On error `C` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let a = array![[1.0f64, 2.0], [3.0, 4.0]];
    /// let b = array![[5.0f64, 6.0], [7.0, 8.0]];
    /// let mut c = array![[0.0f64, -1.0], [0.0, 0.0]];
    /// wgblas::blas::dgemmtr(ctx, Uplo::Lower, Transpose::No, Transpose::No, 1.0, a.view(), b.view(), 0.0, c.view_mut())?;
    /// assert_eq!(c, array![[19.0, -1.0], [43.0, 50.0]]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    dgemmtr: f64;
    /// The core of [`sgemmtr`], [`dgemmtr`] and their `_async` twins, waiting for the read-back as
    /// `wait` says.
    async fn gemmtr_in(ctx, r, wait; uplo: Uplo, transa: Transpose, transb: Transpose; alpha: Scalar, a: MatRef, b: MatRef, beta: Scalar, c: MatMut) {
        let (op_a, op_b) = (a.op(transa), b.op(transb));
        let (n, k) = check_tri_c(r, op_a.dim(), OpB::KByN(op_b.dim()), c.dim())?;
        if quick_return(ctx, r, n == 0, k, (&alpha, &beta))? {
            return Ok(());
        }
        let [ad, bd, cd] = operands(ctx, r, (&op_a, &op_b, c.view()))?;
        let variant = Variant {
            tri_c: Some(uplo),
            ..Variant::default()
        };
        // Past one storage binding: the triangle of C in square blocks, the depth in panels.
        let blocks = gemm::tri_blocks(ctx, esize::<T>(), &ad, &bd, &cd, uplo);
        let ab = (Operand::of(&ad), Operand::of(&bd));
        let plans = tri_plans(ctx, r, (n, n, k), alpha, ab, beta, &cd, variant, &blocks)?;
        let d = dispatches(&plans);
        T::finish(ctx, r, &d, &mut [OutAs::Tri(&mut c, &cd, uplo)], wait).await
    }
}
