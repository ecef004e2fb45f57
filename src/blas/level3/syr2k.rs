use super::common::{dispatches, esize, host, level3, operands, quick_return, tri_plans};
use super::{check_tri_c, OpB};
use crate::drivers::gemm::{self, Operand, Variant};
use crate::flags::{Transpose, Uplo};
use crate::layout::{MatMut, MatRef, OutAs, Scalar};

level3! {
    /// `C ← alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C` on the triangle `uplo` of the
    /// symmetric `C`: `op(X) = X` (n×k) for `Transpose::No`, `op(X) = Xᵀ` (X k×n) for
    /// `Transpose::Yes`.
    ///
    /// BLAS: `ssyr2k`. `C` is n×n; only its triangle `uplo` is read (when `beta ≠ 0`) and written, the
    /// other triangle is not touched. Every operand may be in any layout (C order, F order, mixed,
    /// transposed, sliced, strided), with no copy, or resident ([`GpuMatrix`](crate::GpuMatrix) or its
    /// `.t()`), host and resident operands mixed freely in one call (a resident `C` is updated on the
    /// device, its other triangle untouched). Reference semantics: k = 0 or `alpha = 0` gives `C ←
    /// beta·C` on the triangle and reads neither A nor B; `beta = 0` never reads `C`. Forward error
    /// bound: [`metrics::bounds::syr2k`](crate::metrics::bounds::syr2k) (factor ≤ 1).
    ///
    /// Kernel: the `sgemm` tile engine (`wgsl/level3/gemm.wgsl`) on the triangle of C only
    /// (`TRI_C`), in two passes, `C ← alpha·op(A)·op(B)ᵀ + beta·C`, then
    /// `C ← alpha·op(B)·op(A)ᵀ + C`: each product a sum of k products scaled by alpha, as the
    /// formula has it, so that an infinite alpha times a zero product gives NaN (reference
    /// BLAS, DESIGN.md §3). Where an operand passes one storage binding, the two passes with the
    /// triangle of C in square blocks and the depth in panels, each within one binding (issue
    /// 15).
    ///
    /// `alpha` and `beta` are host values or device scalars (`&GpuScalar<f32>`), under the same rules
    /// (DESIGN.md §3).
    ///
    /// # Errors
    /// [`Error::NotSquare`](crate::Error::NotSquare) (`c`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming `a` (rows of `op(A)` ≠
    /// n) or `b` (`op(B)` not the shape of `op(A)`); [`Error::TooLarge`](crate::Error::TooLarge);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `C` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::{array, Array2};
    /// use wgblas::{Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// let a = array![[1.0f32, 0.0], [0.0, 1.0]];
    /// let b = array![[1.0f32, 2.0], [3.0, 4.0]];
    /// let mut c = Array2::<f32>::zeros((2, 2));
    /// wgblas::blas::ssyr2k(ctx, Uplo::Lower, Transpose::No, 1.0, a.view(), b.view(), 0.0, c.view_mut())?;
    /// assert_eq!(c, array![[2.0, 0.0], [5.0, 8.0]]); // Bᵀ + B = [[2, 5], [5, 8]]
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    ssyr2k: f32;
    /// `C ← alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C` in f64 on the triangle `uplo` of the
    /// symmetric `C`.
    ///
    /// BLAS: `dsyr2k`. As [`ssyr2k`] in shapes, layouts and semantics (only the triangle `uplo` of
    /// C read and written; n = 0, or k = 0 or `alpha = 0` with `beta = 1`, returns at once; k = 0 or
    /// `alpha = 0` reads neither A nor B; `beta = 0` never reads C; no zero-skip), in f64 with host
    /// `alpha` and `beta`, on the same tile engine (`alias T = f64;`), in the same two passes,
    /// in blocks where an operand passes one storage binding (as in [`ssyr2k`], issue 15). Forward bound: that of
    /// [`metrics::bounds::syr2k`](crate::metrics::bounds::syr2k) with eps = 2^-52.
    ///
    /// `alpha` and `beta` are host values or device scalars (`&GpuScalar<f64>`), under the same rules
    /// (DESIGN.md §3).
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; otherwise as [`ssyr2k`]. On error `C` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::{array, Array2};
    /// use wgblas::{Transpose, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let a = array![[1.0f64, 0.0], [0.0, 1.0]];
    /// let b = array![[1.0f64, 2.0], [3.0, 4.0]];
    /// let mut c = Array2::<f64>::zeros((2, 2));
    /// wgblas::blas::dsyr2k(ctx, Uplo::Lower, Transpose::No, 1.0, a.view(), b.view(), 0.0, c.view_mut())?;
    /// assert_eq!(c, array![[2.0, 0.0], [5.0, 8.0]]); // Bᵀ + B = [[2, 5], [5, 8]]
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    dsyr2k: f64;
    /// The core of [`ssyr2k`], [`dsyr2k`] and their `_async` twins, waiting for the read-back as
    /// `wait` says.
    async fn syr2k_in(ctx, r, wait; uplo: Uplo, trans: Transpose; alpha: Scalar, a: MatRef, b: MatRef, beta: Scalar, c: MatMut) {
        let op_a = a.op(trans);
        let op_b = b.op(trans);
        let (n, k) = check_tri_c(r, op_a.dim(), OpB::NByK(op_b.dim()), c.dim())?;
        if quick_return(ctx, r, n == 0, k, (&alpha, &beta))? {
            return Ok(());
        }
        let [ad, bd, cd] = operands(ctx, r, (&op_a, &op_b, c.view()))?;
        let (ao, bo) = (Operand::of(&ad), Operand::of(&bd));
        let (at, bt) = (ad.t(), bd.t());
        let one_pass = ad.fits(ctx) && bd.fits(ctx) && cd.fits(ctx);
        // Past one storage binding: the two passes, each on the triangle of C in square
        // blocks and the depth in panels (`C ← alpha·op(A)·op(B)ᵀ + beta·C`, then
        // `+ alpha·op(B)·op(A)ᵀ`).
        let (first, second) = if one_pass {
            (Vec::new(), Vec::new())
        } else {
            let e = esize::<T>();
            let first = gemm::tri_blocks(ctx, e, &ad, &bt, &cd, uplo);
            (first, gemm::tri_blocks(ctx, e, &bd, &at, &cd, uplo))
        };
        let plans = if one_pass {
            let variant = Variant {
                tri_c: Some(uplo),
                syr2k: true,
                ..Variant::default()
            };
            // Left operand op(A), right operand op(B)ᵀ; the kernel's second product reads them
            // back as op(B) and op(A)ᵀ.
            let co = Operand::of(&cd);
            vec![T::engine(ctx, r, (n, n, k), alpha, ao, bo.t(), beta, co, variant)?]
        } else {
            let tri = Variant {
                tri_c: Some(uplo),
                ..Variant::default()
            };
            let dims = (n, n, k);
            let mut plans = tri_plans(ctx, r, dims, alpha, (ao, bo.t()), beta, &cd, tri, &first)?;
            let one = host(1.0);
            plans.extend(tri_plans(ctx, r, dims, alpha, (bo, ao.t()), one, &cd, tri, &second)?);
            plans
        };
        let d = dispatches(&plans);
        T::finish(ctx, r, &d, &mut [OutAs::Tri(&mut c, &cd, uplo)], wait).await
    }
}
