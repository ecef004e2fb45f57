use super::{check_side, left_triangle};
use crate::drivers::gemm::{self, AMode, Operand, Variant};
use crate::error::Result;
use crate::flags::{Diag, Side, Transpose, Uplo};
use crate::launch::Wait;
use crate::layout::{self, MatMut, MatOperand, MatRef, Out, Scalar};
use crate::Context;

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
/// `Bᵀ ← alpha·op(A)ᵀ·Bᵀ`, the transposes being stride swaps (`op(A)ᵀ` has the other triangle).
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
#[allow(clippy::too_many_arguments)]
pub fn strmm<'a>(
    ctx: &Context,
    side: Side,
    uplo: Uplo,
    transa: Transpose,
    diag: Diag,
    alpha: impl Into<Scalar<'a>>,
    a: impl Into<MatRef<'a>>,
    b: impl Into<MatMut<'a>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(strmm_in(
        ctx,
        side,
        uplo,
        transa,
        diag,
        alpha,
        a,
        b,
        Wait::Block,
    ))
}

/// The core of [`strmm`] and [`strmm_async`](crate::blas::strmm_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn strmm_in<'a>(
    ctx: &Context,
    side: Side,
    uplo: Uplo,
    transa: Transpose,
    diag: Diag,
    alpha: impl Into<Scalar<'a>>,
    a: impl Into<MatRef<'a>>,
    b: impl Into<MatMut<'a>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "strmm";
    let (alpha, a, mut b) = (alpha.into(), a.into(), b.into());
    crate::blas::owners!(ctx, R, alpha, a, b);
    let (m, n) = b.dim();
    check_side(R, side, a.dim(), (m, n))?;
    if m == 0 || n == 0 {
        return Ok(());
    }
    if alpha.is(0.0) {
        layout::fill_zero(ctx, &mut b);
        return Ok(());
    }
    // The left operand L of the engine and its triangle.
    let (l, l_uplo) = left_triangle(side, uplo, transa, &a);
    let ld = layout::matrix_any(ctx, R, "a", &l)?;
    let bd = layout::matrix_any(ctx, R, "b", b.view())?;
    // The product, laid out like B.
    let out = MatOperand {
        buffer: ctx.zeroed(bd.span as u64 * 4),
        ..bd
    };
    // Past one storage binding: A in square blocks, B in blocks (`gemm::structured_blocks`),
    // on the left-side form (a right-side product is its transpose).
    let (bl, ol) = match side {
        Side::Left => (bd.t().t(), out.t().t()),
        Side::Right => (bd.t(), out.t()),
    };
    let mode = AMode::Triangular(l_uplo, diag == Diag::Unit);
    let blocks = gemm::structured_blocks(ctx, &ld, &bl, &ol, mode);
    if !blocks.is_empty() {
        let plans = gemm::structured_plans(ctx, alpha, 0.0, &blocks);
        let d: Vec<_> = plans.iter().flat_map(|p| p.dispatches()).collect();
        return layout::finish_in(ctx, R, &d, &mut [Out::Mat(&mut b, &out)], wait).await;
    }
    let variant = Variant {
        a_mode: AMode::Triangular(l_uplo, diag == Diag::Unit),
        ..Variant::default()
    };
    let (lo, bo, oo) = (Operand::of(&ld), Operand::of(&bd), Operand::of(&out));
    let plan = match side {
        Side::Left => gemm::engine(ctx, (m, n, m), alpha, lo, bo, 0.0, oo, variant),
        Side::Right => gemm::engine(ctx, (n, m, n), alpha, lo, bo.t(), 0.0, oo.t(), variant),
    };
    layout::finish_in(
        ctx,
        R,
        &plan.dispatches(),
        &mut [Out::Mat(&mut b, &out)],
        wait,
    )
    .await
}

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
#[allow(clippy::too_many_arguments)]
pub fn dtrmm<'a>(
    ctx: &Context,
    side: Side,
    uplo: Uplo,
    transa: Transpose,
    diag: Diag,
    alpha: impl Into<Scalar<'a, f64>>,
    a: impl Into<MatRef<'a, f64>>,
    b: impl Into<MatMut<'a, f64>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(dtrmm_in(
        ctx,
        side,
        uplo,
        transa,
        diag,
        alpha,
        a,
        b,
        Wait::Block,
    ))
}

/// The core of [`dtrmm`] and [`dtrmm_async`](crate::blas::dtrmm_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn dtrmm_in<'a>(
    ctx: &Context,
    side: Side,
    uplo: Uplo,
    transa: Transpose,
    diag: Diag,
    alpha: impl Into<Scalar<'a, f64>>,
    a: impl Into<MatRef<'a, f64>>,
    b: impl Into<MatMut<'a, f64>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "dtrmm";
    let (alpha, a, mut b) = (alpha.into(), a.into(), b.into());
    crate::blas::owners!(ctx, R, alpha, a, b);
    let (m, n) = b.dim();
    check_side(R, side, a.dim(), (m, n))?;
    crate::blas::check_f64(ctx, R)?;
    if m == 0 || n == 0 {
        return Ok(());
    }
    if alpha.is(0.0) {
        layout::fill_zero(ctx, &mut b);
        return Ok(());
    }
    let (l, l_uplo) = left_triangle(side, uplo, transa, &a);
    let ld = layout::matrix(ctx, R, "a", &l)?;
    let bd = layout::matrix(ctx, R, "b", b.view())?;
    // The product, laid out like B (8-byte elements).
    let out = MatOperand {
        buffer: ctx.zeroed(bd.span as u64 * 8),
        ..bd
    };
    let variant = Variant {
        a_mode: AMode::Triangular(l_uplo, diag == Diag::Unit),
        ..Variant::default()
    };
    let (lo, bo, oo) = (Operand::of(&ld), Operand::of(&bd), Operand::of(&out));
    let plan = match side {
        Side::Left => gemm::engine_f64(ctx, R, (m, n, m), alpha, lo, bo, 0.0, oo, variant)?,
        Side::Right => {
            gemm::engine_f64(ctx, R, (n, m, n), alpha, lo, bo.t(), 0.0, oo.t(), variant)?
        }
    };
    layout::finish_as_in(
        ctx,
        R,
        &plan.dispatches(),
        &mut [layout::OutAs::Mat(&mut b, &out)],
        wait,
    )
    .await
}
