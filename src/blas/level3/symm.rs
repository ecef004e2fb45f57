use super::common::{dispatches, level3, operands, quick_return, structured, structured_blocks};
use crate::blas::{check_dim, check_shared, check_square};
use crate::drivers::gemm::AMode;
use crate::error::Result;
use crate::flags::{Side, Uplo};
use crate::layout::{MatMut, MatRef, OutAs, Scalar};

/// The shape checks of [`ssymm`] and [`dsymm`]: `A` (`a`) square, of the order of B's rows
/// (`Left`) or columns (`Right`), `B` and `C` (`c`) m×n; a mismatch names the operand that
/// disagrees with the other two ([`check_shared`]). Returns (m, n).
fn check_shapes(
    routine: &'static str,
    side: Side,
    a: (usize, usize),
    (m, n): (usize, usize),
    c: (usize, usize),
) -> Result<(usize, usize)> {
    check_square(routine, "a", a)?;
    let (m, n) = match side {
        Side::Left => {
            let what = "the order of A, the rows of B and the rows of C must be equal";
            let m = check_shared(routine, what, &[("a", a.0), ("b", m), ("c", c.0)])?;
            let what = "columns of C must equal the columns of B";
            (m, check_shared(routine, what, &[("c", c.1), ("b", n)])?)
        }
        Side::Right => {
            let what = "the order of A, the columns of B and the columns of C must be equal";
            let n = check_shared(routine, what, &[("a", a.0), ("b", n), ("c", c.1)])?;
            let what = "rows of C must equal the rows of B";
            (check_shared(routine, what, &[("c", c.0), ("b", m)])?, n)
        }
    };
    check_dim(routine, "b", m.max(n))?;
    Ok((m, n))
}

level3! {
    /// `C ← alpha·A·B + beta·C` (`Side::Left`) or `C ← alpha·B·A + beta·C` (`Side::Right`), `A`
    /// symmetric, stored in its triangle `uplo`.
    ///
    /// BLAS: `ssymm`. `B` and `C` are m×n; `A` is m×m (Left) or n×n (Right). Only the triangle `uplo`
    /// of `A` is read: the other may hold anything (NaN included). Every operand may be in any layout
    /// (C order, F order, mixed, transposed, sliced, strided), with no copy, or resident
    /// ([`GpuMatrix`](crate::GpuMatrix) or its `.t()`), host and resident operands mixed freely in one
    /// call (a resident `C` is updated on the device). Reference semantics: `alpha = 0` gives `C ←
    /// beta·C` and reads neither A nor B; `beta = 0` never reads `C`. Forward error bound:
    /// [`metrics::bounds::symm`](crate::metrics::bounds::symm) (factor ≤ 1).
    ///
    /// Kernel: the `sgemm` tile engine (`wgsl/level3/gemm.wgsl`) on the symmetric operand, first
    /// packed densely by the engine's `pack` entry (`A_MODE = 1`: element (i, p) outside the stored
    /// triangle read at (p, i), so the other triangle is never read).
    /// `Side::Right` runs as `Cᵀ ← alpha·A·Bᵀ + beta·Cᵀ` (`A = Aᵀ`), the transposes being stride
    /// swaps.
    ///
    /// `alpha` and `beta` are host values or device scalars (`&GpuScalar<f32>`), under the same rules
    /// (DESIGN.md §3).
    ///
    /// # Errors
    /// [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
    /// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming `a` (order of `A` ≠ rows
    /// (Left) or columns (Right) of `B`) or `c` (shape of `C` ≠ shape of `B`);
    /// [`Error::TooLarge`](crate::Error::TooLarge)
    /// past one buffer of the device (past one storage binding: `A` in square blocks, the mirrored
    /// ones read from the stored triangle, and `C` in blocks, issue 15);
    /// [`Error::Gpu`](crate::Error::Gpu). On error `C` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::{array, Array2};
    /// use wgblas::{Side, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// // A = [[1, 2], [2, 3]], stored in its upper triangle (the lower one is never read).
    /// let a = array![[1.0f32, 2.0], [f32::NAN, 3.0]];
    /// let b = array![[1.0f32, 0.0], [0.0, 1.0]];
    /// let mut c = Array2::<f32>::zeros((2, 2));
    /// wgblas::blas::ssymm(ctx, Side::Left, Uplo::Upper, 1.0, a.view(), b.view(), 0.0, c.view_mut())?;
    /// assert_eq!(c, array![[1.0, 2.0], [2.0, 3.0]]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    ssymm: f32;
    /// `C ← alpha·A·B + beta·C` (`Side::Left`) or `C ← alpha·B·A + beta·C` (`Side::Right`) in f64,
    /// `A` symmetric, stored in its triangle `uplo`.
    ///
    /// BLAS: `dsymm`. As [`ssymm`] (shapes, layouts, only the triangle `uplo` of A read, the
    /// semantics of DESIGN.md §3), in f64 on the same tile engine (`alias T = f64;`: A's triangle
    /// packed densely, then the product). Forward bound: that of
    /// [`metrics::bounds::symm`](crate::metrics::bounds::symm) with eps = 2^-52.
    ///
    /// `alpha` and `beta` are host values or device scalars (`&GpuScalar<f64>`), under the same rules
    /// (DESIGN.md §3).
    ///
    /// # Errors
    /// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
    /// f64 shaders; otherwise as [`ssymm`]. On error `C` is unchanged.
    ///
    /// # Example
    /// ```
    /// use ndarray::{array, Array2};
    /// use wgblas::{Side, Uplo};
    /// let ctx = wgblas::Context::shared()?;
    /// # if !ctx.native_f64() { return Ok(()); }
    /// let a = array![[1.0f64, 1.0], [f64::NAN, 2.0]]; // upper triangle: [[1, 1], [1, 2]]
    /// let b = array![[1.0f64, 0.0], [0.0, 1.0]];
    /// let mut c = Array2::<f64>::zeros((2, 2));
    /// wgblas::blas::dsymm(ctx, Side::Left, Uplo::Upper, 1.0, a.view(), b.view(), 0.0, c.view_mut())?;
    /// assert_eq!(c, array![[1.0, 1.0], [1.0, 2.0]]);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    dsymm: f64;
    /// The core of [`ssymm`], [`dsymm`] and their `_async` twins, waiting for the read-back as
    /// `wait` says.
    async fn symm_in(ctx, r, wait; side: Side, uplo: Uplo; alpha: Scalar, a: MatRef, b: MatRef, beta: Scalar, c: MatMut) {
        let (m, n) = check_shapes(r, side, a.dim(), b.dim(), c.dim())?;
        // The depth of the product is the order of A, m (Left) or n (Right).
        let depth = if side == Side::Left { m } else { n };
        if quick_return(ctx, r, m == 0 || n == 0, depth, (&alpha, &beta))? {
            return Ok(());
        }
        let [ad, bd, cd] = operands(ctx, r, (&a, &b, c.view()))?;
        let (operands, mode) = ((&ad, &bd, &cd), AMode::Symmetric(uplo));
        let blocks = structured_blocks::<T>(ctx, side, operands, mode);
        let plans = structured(ctx, r, side, (m, n), alpha, operands, beta, mode, &blocks)?;
        let d = dispatches(&plans);
        T::finish(ctx, r, &d, &mut [OutAs::Mat(&mut c, &cd)], wait).await
    }
}
