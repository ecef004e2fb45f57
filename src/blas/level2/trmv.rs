use crate::drivers::gemm::{self, AMode, Operand, Variant};
use crate::drivers::gemv;
use crate::error::Result;
use crate::flags::{Diag, Transpose, Uplo};
use crate::launch::Wait;
use crate::layout::{self, MatRef, Out, VecMut, VecOperand};
use crate::Context;

/// `x ← op(A)·x`, `A` n×n triangular, `op(A) = A` or `Aᵀ`.
///
/// BLAS: `strmv`. `uplo` says which triangle of `A` holds the matrix; the other triangle is
/// never read. `diag = Unit` takes the diagonal as ones and never reads it. `A` may be in any
/// layout; `Transpose::Yes` and row-major storage are the same kernel with the strides swapped
/// and the triangle flipped (the triangle `uplo` of `A` is the triangle `uplo.flip()` of `Aᵀ`;
/// no copy). `x` has length n, any stride. n = 0 returns at once.
///
/// Resident operands are accepted: `A` as a [`GpuMatrix`](crate::GpuMatrix) (either storage
/// order, or its `.t()`), `x` as a [`GpuVector`](crate::GpuVector); host and resident operands
/// may be mixed in one call (see [`crate::resident`]).
///
/// Computed by the matrix-vector driver of [`sgemv`](crate::blas::sgemv) with the triangular
/// operator: row `i` is one `f32` dot product over the triangle only. Every row reads all of
/// the input `x`, so the product goes to a separate device buffer and is written back into `x`
/// afterwards (reference `STRMV` overwrites `x` column by column instead); for a resident `x`
/// that copy is made on the device. Forward error bound
/// [`metrics::bounds::trmv`](crate::metrics::bounds::trmv) (factor ≤ 2, DESIGN.md §2).
///
/// # Errors
/// [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`x`);
/// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
/// device (`max_buffer_size`; past one storage binding `A` goes in square blocks: the diagonal
/// ones on their triangle, the others by the general product, issue 15);
/// [`Error::Gpu`](crate::Error::Gpu). On error `x` is unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// use wgblas::{Diag, Transpose, Uplo};
/// let ctx = wgblas::Context::shared()?;
/// // Upper triangle of [[2, 1], [0, 4]]; the lower triangle is never read.
/// let a = array![[2.0f32, 1.0], [f32::NAN, 4.0]];
/// let mut x = array![1.0f32, 2.0];
/// wgblas::blas::strmv(ctx, Uplo::Upper, Transpose::No, Diag::NonUnit, a.view(), x.view_mut())?;
/// assert_eq!(x, array![4.0, 8.0]);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn strmv<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: impl Into<MatRef<'a>>,
    x: impl Into<VecMut<'a>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(strmv_in(ctx, uplo, trans, diag, a, x, Wait::Block))
}

/// The core of [`strmv`] and [`strmv_async`](crate::blas::strmv_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn strmv_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: impl Into<MatRef<'a>>,
    x: impl Into<VecMut<'a>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "strmv";
    let (a, mut x) = (a.into(), x.into());
    crate::blas::owners!(ctx, R, a, x);
    let n = crate::blas::check_order(R, a.dim(), x.len(), None)?;
    if n == 0 {
        return Ok(());
    }
    // op(A) = Aᵀ: swap the strides; its referenced triangle is the other one.
    let (op_a, uplo) = a.op_triangle(trans, uplo);
    let ad = layout::matrix_any(ctx, R, "a", &op_a)?;
    let xd = layout::vector_any(ctx, R, "x", x.view())?;
    // The product goes to a contiguous scratch vector laid out as a resident `x` is (offset 0,
    // unit stride), so `finish` copies it into a resident `x` on the device.
    let yd = VecOperand {
        buffer: ctx.zeroed((n * std::mem::size_of::<f32>()) as u64),
        offset: 0,
        inc: 1,
        len: n,
        span: n,
    };
    let mode = gemv::Variant::Triangular(uplo, diag);
    // Past one storage binding: A in square blocks (`gemv::structured_blocks`).
    let blocks = gemv::structured_blocks(ctx, mode, &ad, &xd, &yd);
    let kernel = gemv::plan(mode, &ad);
    if blocks.is_empty() {
        let scratch = gemv::scratch(ctx, kernel, &ad);
        let d = gemv::gemv(ctx, mode, 1.0, &ad, &xd, 0.0, &yd, kernel, &scratch);
        return layout::finish_in(ctx, R, &d, &mut [Out::Vec(&mut x, &yd)], wait).await;
    }
    let d = gemv::general_block_dispatches(ctx, 1.0, 0.0, &blocks);
    layout::finish_in(ctx, R, &d, &mut [Out::Vec(&mut x, &yd)], wait).await
}

/// `x ← op(A)·x` in f64, `A` n×n triangular, `op(A) = A` or `Aᵀ`.
///
/// BLAS: `dtrmv`. As [`strmv`] in shapes, layouts and semantics (only the triangle `uplo` of
/// `A` read, its diagonal not at all for `Diag::Unit`; n = 0 returns at once; NaN and Inf
/// propagate through every product, no zero-skip), in f64. It runs on the Level 3 tile engine
/// (`wgsl/level3/gemm.wgsl` with `alias T = f64;`) as `dtrmm` does: the triangle packed
/// densely, zero slabs skipped, times the one-column `x`, into a separate buffer that is then
/// written back into `x`. Forward bound: that of
/// [`metrics::bounds::trmv`](crate::metrics::bounds::trmv) with eps = 2^-52.
///
/// # Errors
/// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
/// f64 shaders; [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`x`);
/// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
/// device (past one storage binding `A` goes in square blocks, issue 15);
/// [`Error::Gpu`](crate::Error::Gpu). On error `x` is unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// use wgblas::{Diag, Transpose, Uplo};
/// let ctx = wgblas::Context::shared()?;
/// # if !ctx.native_f64() { return Ok(()); }
/// // Upper triangle of [[2, 1], [0, 4]]; the lower triangle is never read.
/// let a = array![[2.0f64, 1.0], [f64::NAN, 4.0]];
/// let mut x = array![1.0f64, 2.0];
/// wgblas::blas::dtrmv(ctx, Uplo::Upper, Transpose::No, Diag::NonUnit, a.view(), x.view_mut())?;
/// assert_eq!(x, array![4.0, 8.0]);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn dtrmv<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: impl Into<MatRef<'a, f64>>,
    x: impl Into<VecMut<'a, f64>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(dtrmv_in(ctx, uplo, trans, diag, a, x, Wait::Block))
}

/// The core of [`dtrmv`] and [`dtrmv_async`](crate::blas::dtrmv_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn dtrmv_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    trans: Transpose,
    diag: Diag,
    a: impl Into<MatRef<'a, f64>>,
    x: impl Into<VecMut<'a, f64>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "dtrmv";
    let (a, mut x) = (a.into(), x.into());
    crate::blas::owners!(ctx, R, a, x);
    let n = crate::blas::check_order(R, a.dim(), x.len(), None)?;
    crate::blas::check_f64(ctx, R)?;
    if n == 0 {
        return Ok(());
    }
    let (op_a, uplo) = a.op_triangle(trans, uplo);
    let ad = layout::matrix_any(ctx, R, "a", &op_a)?;
    let xd = layout::vector_any(ctx, R, "x", x.view())?;
    // The product, contiguous as a resident `x` is laid out (8-byte elements).
    let yd = VecOperand {
        buffer: ctx.zeroed((n * std::mem::size_of::<f64>()) as u64),
        offset: 0,
        inc: 1,
        len: n,
        span: n,
    };
    let tri = Variant {
        a_mode: AMode::Triangular(uplo, diag == Diag::Unit),
        ..Variant::default()
    };
    // One binding: one product. Past it (issue 15): op(A) in square blocks of its triangle,
    // y_I = Σ_J op(A)_IJ·x_J, the diagonal blocks triangular, the first product of each row
    // block writing y_I (beta = 0), the others adding to it.
    if super::blocks64::whole(ctx, &ad, &[&xd, &yd]) {
        let (ao, xo, yo) = (Operand::of(&ad), Operand::column(&xd), Operand::column(&yd));
        let plan = gemm::engine_f64(ctx, R, (n, 1, n), 1.0, ao, xo, 0.0, yo, tri)?;
        let d = plan.dispatches();
        return layout::finish_as_in(ctx, R, &d, &mut [layout::OutAs::Vec(&mut x, &yd)], wait)
            .await;
    }
    let ranges = super::blocks64::ranges(ctx, &ad, &[xd.inc, 1]);
    let xs: Vec<_> = ranges.iter().map(|r| xd.part(ctx, 8, r.0, r.1)).collect();
    let ys: Vec<_> = ranges.iter().map(|r| yd.part(ctx, 8, r.0, r.1)).collect();
    let blocks: Vec<_> = super::blocks64::triangle(ranges.len(), uplo == Uplo::Lower)
        .into_iter()
        .map(|(i, j)| (i, j, ad.block(ctx, 8, ranges[i], ranges[j])))
        .collect();
    let mut first = vec![true; ranges.len()];
    let mut plans = Vec::new();
    for (i, j, ab) in &blocks {
        let (i, j) = (*i, *j);
        let variant = if i == j { tri } else { Variant::default() };
        let beta = if std::mem::take(&mut first[i]) {
            0.0
        } else {
            1.0
        };
        let (ao, xo, yo) = (
            Operand::of(ab),
            Operand::column(&xs[j]),
            Operand::column(&ys[i]),
        );
        let dims = (ab.rows, 1, ab.cols);
        plans.push(gemm::engine_f64(
            ctx, R, dims, 1.0, ao, xo, beta, yo, variant,
        )?);
    }
    let d: Vec<_> = plans.iter().flat_map(|p| p.dispatches()).collect();
    layout::finish_as_in(ctx, R, &d, &mut [layout::OutAs::Vec(&mut x, &yd)], wait).await
}
