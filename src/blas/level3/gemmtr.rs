use super::common::{blocking, blocks, dispatches, Level3};
use super::check_tri_c;
use crate::blas::{check_dim, check_len};
use crate::drivers::gemm::{self, Operand, Variant};
use crate::error::Result;
use crate::flags::{Transpose, Uplo};
use crate::launch::Wait;
use crate::layout::{MatMut, MatRef, OutAs, Scalar};
use crate::Context;

/// The shape checks of [`sgemmtr`] and [`dgemmtr`]: `C` (`c`) n×n, `op(A)` n×k (`a`), `op(B)`
/// k×n (`b`). Returns (n, k).
fn check_shapes(
    routine: &'static str,
    a: (usize, usize),
    b: (usize, usize),
    c: (usize, usize),
) -> Result<(usize, usize)> {
    let (n, k) = check_tri_c(routine, a, c)?;
    let what = "rows of op(B) must equal the columns of op(A)";
    check_len(routine, "b", b.0, k, what)?;
    check_len(
        routine,
        "b",
        b.1,
        n,
        "columns of op(B) must equal the order of C",
    )?;
    check_dim(routine, "a", n.max(k))?;
    Ok((n, k))
}

blocking! {
    gemmtr_in(uplo: Uplo, transa: Transpose, transb: Transpose; alpha: Scalar, a: MatRef, b: MatRef, beta: Scalar, c: MatMut);
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
}

/// The core of [`sgemmtr`], [`dgemmtr`] and their `_async` twins, waiting for the read-back as
/// `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn gemmtr_in<'a, T: Level3>(
    ctx: &Context,
    uplo: Uplo,
    transa: Transpose,
    transb: Transpose,
    alpha: impl Into<Scalar<'a, T>>,
    a: impl Into<MatRef<'a, T>>,
    b: impl Into<MatRef<'a, T>>,
    beta: impl Into<Scalar<'a, T>>,
    c: impl Into<MatMut<'a, T>>,
    wait: Wait,
) -> Result<()> {
    let r = T::routine("sgemmtr", "dgemmtr");
    let (alpha, a, b, beta, mut c) = (alpha.into(), a.into(), b.into(), beta.into(), c.into());
    crate::blas::owners!(ctx, r, alpha, a, b, beta, c);
    let op_a = a.op(transa);
    let op_b = b.op(transb);
    let (n, k) = check_shapes(r, op_a.dim(), op_b.dim(), c.dim())?;
    T::check_type(ctx, r)?;
    if n == 0 || (k == 0 || alpha.is(T::from(0.0))) && beta.is(T::from(1.0)) {
        return Ok(());
    }
    let ad = T::matrix(ctx, r, "a", &op_a)?;
    let bd = T::matrix(ctx, r, "b", &op_b)?;
    let cd = T::matrix(ctx, r, "c", c.view())?;
    let variant = Variant {
        tri_c: Some(uplo),
        ..Variant::default()
    };
    // Past one storage binding (f32): the triangle of C in square blocks, the depth in panels.
    let blocks = blocks::<T, _>(|| gemm::tri_blocks(ctx, &ad, &bd, &cd, uplo));
    let ab = (Operand::of(&ad), Operand::of(&bd));
    let plans = T::tri_plans(ctx, r, (n, n, k), alpha, ab, beta, &cd, variant, &blocks)?;
    let d = dispatches(&plans);
    T::finish(ctx, r, &d, &mut [OutAs::Tri(&mut c, &cd, uplo)], wait).await
}
