use crate::blas::{check_dim, check_len, check_square};
use crate::drivers::gemm::{self, Operand, Variant};
use crate::error::Result;
use crate::flags::{Transpose, Uplo};
use crate::launch::Wait;
use crate::layout::{self, MatMut, MatRef, Out, Scalar};
use crate::Context;

/// The shape checks of [`sgemmtr`] and [`dgemmtr`]: `C` (`c`) n×n, `op(A)` n×k (`a`), `op(B)`
/// k×n (`b`). Returns (n, k).
fn check_shapes(
    routine: &'static str,
    a: (usize, usize),
    b: (usize, usize),
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
#[allow(clippy::too_many_arguments)]
pub fn sgemmtr<'a>(
    ctx: &Context,
    uplo: Uplo,
    transa: Transpose,
    transb: Transpose,
    alpha: impl Into<Scalar<'a>>,
    a: impl Into<MatRef<'a>>,
    b: impl Into<MatRef<'a>>,
    beta: impl Into<Scalar<'a>>,
    c: impl Into<MatMut<'a>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(sgemmtr_in(
        ctx,
        uplo,
        transa,
        transb,
        alpha,
        a,
        b,
        beta,
        c,
        Wait::Block,
    ))
}

/// The core of [`sgemmtr`] and [`sgemmtr_async`](crate::blas::sgemmtr_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn sgemmtr_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    transa: Transpose,
    transb: Transpose,
    alpha: impl Into<Scalar<'a>>,
    a: impl Into<MatRef<'a>>,
    b: impl Into<MatRef<'a>>,
    beta: impl Into<Scalar<'a>>,
    c: impl Into<MatMut<'a>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "sgemmtr";
    let (alpha, a, b, beta, mut c) = (alpha.into(), a.into(), b.into(), beta.into(), c.into());
    crate::blas::owners!(ctx, R, alpha, a, b, beta, c);
    let op_a = a.op(transa);
    let op_b = b.op(transb);
    let (n, k) = check_shapes(R, op_a.dim(), op_b.dim(), c.dim())?;
    if n == 0 || (k == 0 || alpha.is(0.0)) && beta.is(1.0) {
        return Ok(());
    }
    let ad = layout::matrix_any(ctx, R, "a", &op_a)?;
    let bd = layout::matrix_any(ctx, R, "b", &op_b)?;
    let cd = layout::matrix_any(ctx, R, "c", c.view())?;
    let variant = Variant {
        tri_c: Some(uplo),
        ..Variant::default()
    };
    // Past one storage binding: the triangle of C in square blocks, the depth in panels.
    let blocks = gemm::tri_blocks(ctx, &ad, &bd, &cd, uplo);
    let plans = gemm::tri_plans(
        ctx,
        (n, n, k),
        alpha,
        (Operand::of(&ad), Operand::of(&bd)),
        beta,
        &cd,
        variant,
        &blocks,
    );
    let d: Vec<_> = plans.iter().flat_map(|p| p.dispatches()).collect();
    layout::finish_in(ctx, R, &d, &mut [Out::Tri(&mut c, &cd, uplo)], wait).await
}

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
#[allow(clippy::too_many_arguments)]
pub fn dgemmtr<'a>(
    ctx: &Context,
    uplo: Uplo,
    transa: Transpose,
    transb: Transpose,
    alpha: impl Into<Scalar<'a, f64>>,
    a: impl Into<MatRef<'a, f64>>,
    b: impl Into<MatRef<'a, f64>>,
    beta: impl Into<Scalar<'a, f64>>,
    c: impl Into<MatMut<'a, f64>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(dgemmtr_in(
        ctx,
        uplo,
        transa,
        transb,
        alpha,
        a,
        b,
        beta,
        c,
        Wait::Block,
    ))
}

/// The core of [`dgemmtr`] and [`dgemmtr_async`](crate::blas::dgemmtr_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn dgemmtr_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    transa: Transpose,
    transb: Transpose,
    alpha: impl Into<Scalar<'a, f64>>,
    a: impl Into<MatRef<'a, f64>>,
    b: impl Into<MatRef<'a, f64>>,
    beta: impl Into<Scalar<'a, f64>>,
    c: impl Into<MatMut<'a, f64>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "dgemmtr";
    let (alpha, a, b, beta, mut c) = (alpha.into(), a.into(), b.into(), beta.into(), c.into());
    crate::blas::owners!(ctx, R, alpha, a, b, beta, c);
    let op_a = a.op(transa);
    let op_b = b.op(transb);
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
        ..Variant::default()
    };
    let (ao, bo, co) = (Operand::of(&ad), Operand::of(&bd), Operand::of(&cd));
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
