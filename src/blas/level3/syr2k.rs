use crate::blas::{check_dim, check_len, check_square};
use crate::drivers::gemm::{self, Operand, Variant};
use crate::error::Result;
use crate::flags::{Transpose, Uplo};
use crate::launch::Wait;
use crate::layout::{self, MatMut, MatRef, Out, Scalar};
use crate::Context;

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
/// (`TRI_C`), as one product of depth 2k: `C ← alpha·[op(A) | op(B)]·[op(B) | op(A)]ᵀ + beta·C`,
/// the two n×2k operands packed on the device first. Each element is one sum of 2k products,
/// rounded once by `alpha` and once by the `beta` update. Where the packed operands would pass
/// one storage binding, two passes instead (`C ← alpha·op(A)·op(B)ᵀ + beta·C`, then
/// `C ← alpha·op(B)·op(A)ᵀ + C`); where an operand does, the two passes with the triangle of
/// C in square blocks and the depth in panels, each within one binding (issue 15).
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
#[allow(clippy::too_many_arguments)]
pub fn ssyr2k<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    alpha: impl Into<Scalar<'a>>,
    a: impl Into<MatRef<'a>>,
    b: impl Into<MatRef<'a>>,
    beta: impl Into<Scalar<'a>>,
    c: impl Into<MatMut<'a>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(ssyr2k_in(
        ctx,
        uplo,
        trans,
        alpha,
        a,
        b,
        beta,
        c,
        Wait::Block,
    ))
}

/// The core of [`ssyr2k`] and [`ssyr2k_async`](crate::blas::ssyr2k_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn ssyr2k_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    alpha: impl Into<Scalar<'a>>,
    a: impl Into<MatRef<'a>>,
    b: impl Into<MatRef<'a>>,
    beta: impl Into<Scalar<'a>>,
    c: impl Into<MatMut<'a>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "ssyr2k";
    let (alpha, a, b, beta, mut c) = (alpha.into(), a.into(), b.into(), beta.into(), c.into());
    crate::blas::owners!(ctx, R, alpha, a, b, beta, c);
    let (op_a, op_b) = (a.op(trans), b.op(trans));
    let (n, k) = check_shapes(R, op_a.dim(), op_b.dim(), c.dim())?;
    if n == 0 || (k == 0 || alpha.is(0.0)) && beta.is(1.0) {
        return Ok(());
    }
    let ad = layout::matrix_any(ctx, R, "a", &op_a)?;
    let bd = layout::matrix_any(ctx, R, "b", &op_b)?;
    let cd = layout::matrix_any(ctx, R, "c", c.view())?;
    if ad.fits(ctx) && bd.fits(ctx) && cd.fits(ctx) {
        let variant = Variant {
            tri_c: Some(uplo),
            syr2k: true,
            ..Variant::default()
        };
        // Left operand op(A), right operand op(B)ᵀ; the kernel's second product reads them
        // back as op(B) and op(A)ᵀ.
        let (ao, bo, co) = (Operand::of(&ad), Operand::of(&bd).t(), Operand::of(&cd));
        let plan = gemm::engine(ctx, (n, n, k), alpha, ao, bo, beta, co, variant);
        return layout::finish_in(
            ctx,
            R,
            &plan.dispatches(),
            &mut [Out::Tri(&mut c, &cd, uplo)],
            wait,
        )
        .await;
    }
    // Past one storage binding: the two passes, each on the triangle of C in square blocks
    // and the depth in panels (`C ← alpha·op(A)·op(B)ᵀ + beta·C`, then `+ alpha·op(B)·op(A)ᵀ`).
    let tri = Variant {
        tri_c: Some(uplo),
        ..Variant::default()
    };
    let (at, bt) = (ad.t(), bd.t());
    let first = gemm::tri_blocks(ctx, &ad, &bt, &cd, uplo);
    let second = gemm::tri_blocks(ctx, &bd, &at, &cd, uplo);
    let (ao, bo) = (Operand::of(&ad), Operand::of(&bd));
    let mut plans = gemm::tri_plans(ctx, (n, n, k), alpha, (ao, bo.t()), beta, &cd, tri, &first);
    plans.extend(gemm::tri_plans(
        ctx,
        (n, n, k),
        alpha,
        (bo, ao.t()),
        1.0,
        &cd,
        tri,
        &second,
    ));
    let d: Vec<_> = plans.iter().flat_map(|p| p.dispatches()).collect();
    layout::finish_in(ctx, R, &d, &mut [Out::Tri(&mut c, &cd, uplo)], wait).await
}

/// `C ← alpha·op(A)·op(B)ᵀ + alpha·op(B)·op(A)ᵀ + beta·C` in f64 on the triangle `uplo` of the
/// symmetric `C`.
///
/// BLAS: `dsyr2k`. As [`ssyr2k`] in shapes, layouts and semantics (only the triangle `uplo` of
/// C read and written; n = 0, or k = 0 or `alpha = 0` with `beta = 1`, returns at once; k = 0 or
/// `alpha = 0` reads neither A nor B; `beta = 0` never reads C; no zero-skip), in f64 with host
/// `alpha` and `beta`, on the same tile engine (`alias T = f64;`): one product of depth 2k
/// over the packed `[op(A) | op(B)]` and `[op(B) | op(A)]`, or two passes where the packed
/// operands would pass one storage binding. Forward bound: that of
/// [`metrics::bounds::syr2k`](crate::metrics::bounds::syr2k) with eps = 2^-52.
///
/// `alpha` and `beta` are host values or device scalars (`&GpuScalar<f64>`), under the same rules
/// (DESIGN.md §3).
///
/// # Errors
/// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
/// f64 shaders; [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one
/// storage binding (the f64 routines do not split operands past one binding yet); otherwise as
/// [`ssyr2k`]. On error `C` is unchanged.
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
#[allow(clippy::too_many_arguments)]
pub fn dsyr2k<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    alpha: impl Into<Scalar<'a, f64>>,
    a: impl Into<MatRef<'a, f64>>,
    b: impl Into<MatRef<'a, f64>>,
    beta: impl Into<Scalar<'a, f64>>,
    c: impl Into<MatMut<'a, f64>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(dsyr2k_in(
        ctx,
        uplo,
        trans,
        alpha,
        a,
        b,
        beta,
        c,
        Wait::Block,
    ))
}

/// The core of [`dsyr2k`] and [`dsyr2k_async`](crate::blas::dsyr2k_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn dsyr2k_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    alpha: impl Into<Scalar<'a, f64>>,
    a: impl Into<MatRef<'a, f64>>,
    b: impl Into<MatRef<'a, f64>>,
    beta: impl Into<Scalar<'a, f64>>,
    c: impl Into<MatMut<'a, f64>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "dsyr2k";
    let (alpha, a, b, beta, mut c) = (alpha.into(), a.into(), b.into(), beta.into(), c.into());
    crate::blas::owners!(ctx, R, alpha, a, b, beta, c);
    let (op_a, op_b) = (a.op(trans), b.op(trans));
    let (n, k) = check_shapes(R, op_a.dim(), op_b.dim(), c.dim())?;
    crate::blas::check_f64(ctx, R)?;
    if n == 0 || (k == 0 || alpha.is(0.0)) && beta.is(1.0) {
        return Ok(());
    }
    let ad = layout::matrix(ctx, R, "a", &op_a)?;
    let bd = layout::matrix(ctx, R, "b", &op_b)?;
    let cd = layout::matrix(ctx, R, "c", c.view())?;
    let variant = Variant {
        tri_c: Some(uplo),
        syr2k: true,
        ..Variant::default()
    };
    // Left operand op(A), right operand op(B)ᵀ; the kernel's second product reads them back as
    // op(B) and op(A)ᵀ.
    let (ao, bo, co) = (Operand::of(&ad), Operand::of(&bd).t(), Operand::of(&cd));
    let plan = gemm::engine_f64(ctx, R, (n, n, k), alpha, ao, bo, beta, co, variant)?;
    layout::finish_as_in(
        ctx,
        R,
        &plan.dispatches(),
        &mut [layout::OutAs::Tri(&mut c, &cd, uplo)],
        wait,
    )
    .await
}

/// The order n of C and the depth k of `ssyr2k` and `dsyr2k`, from the shapes of op(A), op(B)
/// and C: `Err(NotSquare)` naming `c`, `DimensionMismatch` naming `a` or `b`, `TooLarge`.
fn check_shapes(
    routine: &'static str,
    op_a: (usize, usize),
    op_b: (usize, usize),
    c: (usize, usize),
) -> Result<(usize, usize)> {
    check_square(routine, "c", c)?;
    let (n, k) = (c.0, op_a.1);
    let what = "rows of op(A) must equal the order of C";
    check_len(routine, "a", op_a.0, n, what)?;
    let what = "rows of op(B) must equal the order of C";
    check_len(routine, "b", op_b.0, n, what)?;
    let what = "columns of op(B) must equal the columns of op(A)";
    check_len(routine, "b", op_b.1, k, what)?;
    check_dim(routine, "a", n.max(k))?;
    Ok((n, k))
}
