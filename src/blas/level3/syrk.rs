use crate::blas::{check_dim, check_len, check_square};
use crate::drivers::gemm::{self, Operand, Variant};
use crate::error::Result;
use crate::flags::{Transpose, Uplo};
use crate::launch::Wait;
use crate::layout::{self, MatMut, MatRef, Out, Scalar};
use crate::Context;

/// The shape checks of [`ssyrk`] and [`dsyrk`]: `C` (`c`) n×n, `op(A)` n×k (`a`). Returns
/// (n, k).
fn check_shapes(
    routine: &'static str,
    a: (usize, usize),
    c: (usize, usize),
) -> Result<(usize, usize)> {
    check_square(routine, "c", c)?;
    let (n, k) = (c.0, a.1);
    check_len(
        routine,
        "a",
        a.0,
        n,
        "rows of op(A) must equal the order of C",
    )?;
    check_dim(routine, "a", n.max(k))?;
    Ok((n, k))
}

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
pub fn ssyrk<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    alpha: impl Into<Scalar<'a>>,
    a: impl Into<MatRef<'a>>,
    beta: impl Into<Scalar<'a>>,
    c: impl Into<MatMut<'a>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(ssyrk_in(ctx, uplo, trans, alpha, a, beta, c, Wait::Block))
}

/// The core of [`ssyrk`] and [`ssyrk_async`](crate::blas::ssyrk_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn ssyrk_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    alpha: impl Into<Scalar<'a>>,
    a: impl Into<MatRef<'a>>,
    beta: impl Into<Scalar<'a>>,
    c: impl Into<MatMut<'a>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "ssyrk";
    let (alpha, a, beta, mut c) = (alpha.into(), a.into(), beta.into(), c.into());
    crate::blas::owners!(ctx, R, alpha, a, beta, c);
    let op_a = a.op(trans);
    let (n, k) = check_shapes(R, op_a.dim(), c.dim())?;
    if n == 0 || (k == 0 || alpha.is(0.0)) && beta.is(1.0) {
        return Ok(());
    }
    let ad = layout::matrix_any(ctx, R, "a", &op_a)?;
    let cd = layout::matrix_any(ctx, R, "c", c.view())?;
    let variant = Variant {
        tri_c: Some(uplo),
        ..Variant::default()
    };
    // Past one storage binding: the triangle of C in square blocks, the depth in panels.
    let bd = ad.t();
    let blocks = gemm::tri_blocks(ctx, &ad, &bd, &cd, uplo);
    let ao = Operand::of(&ad);
    let plans = gemm::tri_plans(
        ctx,
        (n, n, k),
        alpha,
        (ao, ao.t()),
        beta,
        &cd,
        variant,
        &blocks,
    );
    let d: Vec<_> = plans.iter().flat_map(|p| p.dispatches()).collect();
    layout::finish_in(ctx, R, &d, &mut [Out::Tri(&mut c, &cd, uplo)], wait).await
}

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
#[allow(clippy::too_many_arguments)]
pub fn dsyrk<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    alpha: impl Into<Scalar<'a, f64>>,
    a: impl Into<MatRef<'a, f64>>,
    beta: impl Into<Scalar<'a, f64>>,
    c: impl Into<MatMut<'a, f64>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(dsyrk_in(ctx, uplo, trans, alpha, a, beta, c, Wait::Block))
}

/// The core of [`dsyrk`] and [`dsyrk_async`](crate::blas::dsyrk_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn dsyrk_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    alpha: impl Into<Scalar<'a, f64>>,
    a: impl Into<MatRef<'a, f64>>,
    beta: impl Into<Scalar<'a, f64>>,
    c: impl Into<MatMut<'a, f64>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "dsyrk";
    let (alpha, a, beta, mut c) = (alpha.into(), a.into(), beta.into(), c.into());
    crate::blas::owners!(ctx, R, alpha, a, beta, c);
    let op_a = a.op(trans);
    let (n, k) = check_shapes(R, op_a.dim(), c.dim())?;
    crate::blas::check_f64(ctx, R)?;
    if n == 0 || (k == 0 || alpha.is(0.0)) && beta.is(1.0) {
        return Ok(());
    }
    let ad = layout::matrix(ctx, R, "a", &op_a)?;
    let cd = layout::matrix(ctx, R, "c", c.view())?;
    let variant = Variant {
        tri_c: Some(uplo),
        ..Variant::default()
    };
    let ao = Operand::of(&ad);
    let plan = gemm::engine_f64(
        ctx,
        R,
        (n, n, k),
        alpha,
        ao,
        ao.t(),
        beta,
        Operand::of(&cd),
        variant,
    )?;
    layout::finish_as_in(
        ctx,
        R,
        &plan.dispatches(),
        &mut [layout::OutAs::Tri(&mut c, &cd, uplo)],
        wait,
    )
    .await
}
