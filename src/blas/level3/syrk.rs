use super::common::{dispatches, esize, level3, quick_return, tri_plans};
use super::{check_tri_c, OpB};
use crate::drivers::gemm::{self, Operand, Variant};
use crate::flags::{Transpose, Uplo};
use crate::layout::{self, MatMut, MatRef, OutAs, Scalar};

level3! {
    /// `C ← alpha·op(A)·op(A)ᵀ + beta·C` on the triangle `uplo` of the symmetric `C`:
    /// `op(A) = A` (n×k) for `Transpose::No`, `op(A) = Aᵀ` (A k×n) for `Transpose::Yes`.
    ///
    /// BLAS: `ssyrk`. `C` is n×n; only its triangle `uplo` is read (when `beta ≠ 0`) and written, the
    /// other triangle is not touched. `A` and `C` may be in any layout (C order, F order, transposed,
    /// sliced, strided), with no copy, or resident ([`GpuMatrix`](crate::GpuMatrix) or its `.t()`),
    /// host and resident operands mixed freely in one call (a resident `C` is updated on the device,
    /// its other triangle untouched). Reference semantics: k = 0 or `alpha = 0` gives `C ← beta·C` on
    /// the triangle and does not read A; `beta = 0` never reads `C`. Forward error bound:
    /// [`metrics::bounds::syrk`](crate::metrics::bounds::syrk) (factor ≤ 1).
    ///
    /// Kernel: the `sgemm` tile engine (`wgsl/level3/gemm.wgsl`) with `op(A)` as the left operand
    /// and the same uploaded buffer, strides swapped, as `op(A)ᵀ` on the right; C restricted to the
    /// triangle (`TRI_C`: tiles wholly outside skipped, stores masked on the diagonal tiles).
    ///
    /// `alpha` and `beta` are host values or device scalars (`&GpuScalar<f32>`), under the same rules
    /// (DESIGN.md §3).
    ///
    /// # Errors
    /// [`Error::NotSquare`](crate::Error::NotSquare) (`c`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`a`: rows of `op(A)` ≠ n);
    /// [`Error::TooLarge`](crate::Error::TooLarge); [`Error::Gpu`](crate::Error::Gpu). On error `C`
    /// is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    /// let mut c = array![[1.0f32, 7.0], [1.0, 1.0]];
    /// wgblas::blas::ssyrk(ctx, Uplo::Upper, Transpose::No, 1.0, a.view(), 1.0, c.view_mut())?;
    /// assert_eq!(c, array![[6.0, 18.0], [1.0, 26.0]]); // A·Aᵀ = [[5, 11], [11, 25]]
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    ssyrk: f32;
    /// `C ← alpha·op(A)·op(A)ᵀ + beta·C` on the triangle `uplo` of C, in f64.
    ///
    /// BLAS: `dsyrk`. As [`ssyrk`] (shapes, layouts, the other triangle of C never read nor
    /// written, `alpha = 0` or k = 0 giving `beta·C` on the triangle, `beta = 0` never reading C,
    /// no zero-skip), in f64 on the same tile engine (`alias T = f64;`).
    /// Forward bound: that of [`metrics::bounds::syrk`](crate::metrics::bounds::syrk) with
    /// eps = 2^-52.
    ///
    /// `alpha` and `beta` are host values or device scalars (`&GpuScalar<f64>`), under the same rules
    /// (DESIGN.md §3).
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; otherwise as [`ssyrk`]. On error `C` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::{array, Array2};
    /// use wgblas::{Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let a = array![[1.0f64, 2.0], [3.0, 4.0]];
    /// let mut c = Array2::<f64>::from_elem((2, 2), f64::NAN);
    /// wgblas::blas::dsyrk(ctx, Uplo::Lower, Transpose::No, 1.0, a.view(), 0.0, c.view_mut())?;
    /// assert_eq!((c[[0, 0]], c[[1, 0]], c[[1, 1]]), (5.0, 11.0, 25.0));
    /// assert!(c[[0, 1]].is_nan()); // the upper triangle is not touched
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    dsyrk: f64;
    /// The core of [`ssyrk`], [`dsyrk`] and their `_async` twins, waiting for the read-back as
    /// `wait` says.
    async fn syrk_in(ctx, r, wait; uplo: Uplo, trans: Transpose; alpha: Scalar, a: MatRef, beta: Scalar, c: MatMut) {
        let op_a = a.op(trans);
        let (n, k) = check_tri_c(r, op_a.dim(), OpB::None, c.dim())?;
        if quick_return(ctx, r, n == 0, k, (&alpha, &beta))? {
            return Ok(());
        }
        let ad = layout::matrix_any(ctx, r, "a", &op_a)?;
        let cd = layout::matrix_any(ctx, r, "c", c.view())?;
        let variant = Variant {
            tri_c: Some(uplo),
            ..Variant::default()
        };
        // Past one storage binding: the triangle of C in square blocks, the depth in panels.
        let bd = ad.t();
        let blocks = gemm::tri_blocks(ctx, esize::<T>(), &ad, &bd, &cd, uplo);
        let ao = Operand::of(&ad);
        let ab = (ao, ao.t());
        let plans = tri_plans(ctx, r, (n, n, k), alpha, ab, beta, &cd, variant, &blocks)?;
        let d = dispatches(&plans);
        T::finish(ctx, r, &d, &mut [OutAs::Tri(&mut c, &cd, uplo)], wait).await
    }
}
