use crate::drivers::gemm::{self, Operand, Variant};
use crate::drivers::rank_update;
use crate::error::Result;
use crate::flags::Uplo;
use crate::launch::Wait;
use crate::layout::{self, MatMut, Out, Scalar, VecRef};
use crate::Context;

/// `A ← alpha·x·yᵀ + alpha·y·xᵀ + A` on the triangle `uplo` of the n×n symmetric `A` (symmetric
/// rank-2 update).
///
/// BLAS: `ssyr2`. Only the triangle `uplo` (diagonal included) is read and written: the kernel
/// never touches the other triangle, so it comes back bit for bit as it was (NaN included). `x` and
/// `y` have length n, any stride; `A` may be in any layout and is updated in place with no copy
/// (see [`sger`](crate::blas::sger)).
///
/// Resident operands are accepted: `A` as a [`GpuMatrix`](crate::GpuMatrix) in either storage
/// order (updated in place on the device), `x` and `y` as [`GpuVector`](crate::GpuVector)s;
/// host and resident operands may be mixed in one call (see [`crate::resident`]).
///
/// Semantics (DESIGN.md §3): n = 0 or `alpha = 0` returns at once, as in the reference `SSYR2`.
/// There is no zero-skip: zeros in `x_j` and `y_j` still multiply `y_i` and `x_i`, so a NaN or Inf
/// there makes `A_ij` NaN (the reference Fortran skips such a column).
///
/// Accuracy: each updated element is the exact `A_ij + alpha·(x_i·y_j + y_i·x_j)` rounded once
/// (evaluated in double-f32 with Dekker's TwoProduct and Knuth's TwoSum, see
/// `wgsl/level2/rank_update.wgsl`): within about half an ulp, where the plain formula rounds up to
/// six times. Non-finite values follow the plain formula, as the reference computes it. Forward
/// error bound [`metrics::bounds::syr2`](crate::metrics::bounds::syr2) (factor ≤ 2, DESIGN.md §2;
/// measured ≤ 0.5 against the exact update). Past one storage binding, the elements of the
/// off-diagonal blocks get the two products in two updates, each rounded once (so twice in
/// all, still within the factor ≤ 2).
///
/// `alpha` is a host value or a device scalar (`&GpuScalar<f32>`), under the same rules (DESIGN.md
/// §3).
///
/// # Errors
/// [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming `x` or `y`;
/// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
/// device (`max_buffer_size`; past one storage binding `A` is updated in square blocks, the
/// off-diagonal ones by the general update, issue 15);
/// [`Error::Gpu`](crate::Error::Gpu). On error `A` is unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// use wgblas::Uplo;
/// let ctx = wgblas::Context::shared()?;
/// let mut a = array![[0.0f32, 0.0], [-7.0, 0.0]];   // -7 is outside the upper triangle
/// let (x, y) = (array![1.0f32, 2.0], array![3.0f32, 1.0]);
/// wgblas::blas::ssyr2(ctx, Uplo::Upper, 1.0, x.view(), y.view(), a.view_mut())?;
/// assert_eq!(a, array![[6.0, 7.0], [-7.0, 4.0]]);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn ssyr2<'a>(
    ctx: &Context,
    uplo: Uplo,
    alpha: impl Into<Scalar<'a>>,
    x: impl Into<VecRef<'a>>,
    y: impl Into<VecRef<'a>>,
    a: impl Into<MatMut<'a>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(ssyr2_in(ctx, uplo, alpha, x, y, a, Wait::Block))
}

/// The core of [`ssyr2`] and [`ssyr2_async`](crate::blas::ssyr2_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn ssyr2_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    alpha: impl Into<Scalar<'a>>,
    x: impl Into<VecRef<'a>>,
    y: impl Into<VecRef<'a>>,
    a: impl Into<MatMut<'a>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "ssyr2";
    let (alpha, x, y, mut a) = (alpha.into(), x.into(), y.into(), a.into());
    crate::blas::owners!(ctx, R, alpha, x, y, a);
    let n = crate::blas::check_order(R, a.dim(), x.len(), Some(y.len()))?;
    if n == 0 || alpha.is(0.0) {
        return Ok(());
    }
    let ad = layout::matrix_any(ctx, R, "a", a.view())?;
    let xd = layout::vector_any(ctx, R, "x", &x)?;
    let yd = layout::vector_any(ctx, R, "y", &y)?;
    // Past one storage binding: A in square blocks (`rank_update::symmetric_parts`).
    let update = rank_update::Variant::Symmetric2(uplo);
    let parts = rank_update::symmetric_parts(ctx, update, &xd, &yd, &ad);
    let d = if parts.is_empty() {
        vec![rank_update::dispatch(ctx, update, alpha, &xd, &yd, &ad)]
    } else {
        rank_update::part_dispatches(ctx, alpha, &parts)
    };
    layout::finish_in(ctx, R, &d, &mut [Out::Mat(&mut a, &ad)], wait).await
}

/// `A ← alpha·x·yᵀ + alpha·y·xᵀ + A` in f64, `A` n×n symmetric, stored and updated in its
/// triangle `uplo`.
///
/// BLAS: `dsyr2`. As [`ssyr2`] in shapes, layouts and semantics (only the triangle `uplo` read
/// and written; n = 0 or `alpha = 0` returns at once; no zero-skip), in f64. It runs on the
/// Level 3 tile engine (`wgsl/level3/gemm.wgsl` with `alias T = f64;`) as `dsyr2k` with k = 1:
/// each element of the triangle is `alpha·(x_i·y_j + y_i·x_j) + a_ij`. Forward bound: that of
/// [`metrics::bounds::syr2`](crate::metrics::bounds::syr2) with eps = 2^-52.
///
/// `alpha` is a host value or a device scalar (`&GpuScalar<f64>`), under the same rules (DESIGN.md
/// §3).
///
/// # Errors
/// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
/// f64 shaders; [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) naming `x` or `y`;
/// [`Error::TooLarge`](crate::Error::TooLarge) when an operand does not fit one buffer of the
/// device (past one storage binding the triangle of A goes in square blocks, issue 15);
/// [`Error::Gpu`](crate::Error::Gpu). On error `A` is unchanged.
///
/// # Example
/// ```
/// use ndarray::array;
/// use wgblas::Uplo;
/// let ctx = wgblas::Context::shared()?;
/// # if !ctx.native_f64() { return Ok(()); }
/// let mut a = array![[1.0f64, 1.0], [f64::NAN, 1.0]];
/// wgblas::blas::dsyr2(ctx, Uplo::Upper, 1.0, array![1.0f64, 2.0].view(), array![3.0f64, 4.0].view(), a.view_mut())?;
/// assert_eq!((a[[0, 0]], a[[0, 1]], a[[1, 1]]), (7.0, 11.0, 17.0));
/// assert!(a[[1, 0]].is_nan());
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn dsyr2<'a>(
    ctx: &Context,
    uplo: Uplo,
    alpha: impl Into<Scalar<'a, f64>>,
    x: impl Into<VecRef<'a, f64>>,
    y: impl Into<VecRef<'a, f64>>,
    a: impl Into<MatMut<'a, f64>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(dsyr2_in(ctx, uplo, alpha, x, y, a, Wait::Block))
}

/// The core of [`dsyr2`] and [`dsyr2_async`](crate::blas::dsyr2_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn dsyr2_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    alpha: impl Into<Scalar<'a, f64>>,
    x: impl Into<VecRef<'a, f64>>,
    y: impl Into<VecRef<'a, f64>>,
    a: impl Into<MatMut<'a, f64>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "dsyr2";
    let (alpha, x, y, mut a) = (alpha.into(), x.into(), y.into(), a.into());
    crate::blas::owners!(ctx, R, alpha, x, y, a);
    let n = crate::blas::check_order(R, a.dim(), x.len(), Some(y.len()))?;
    crate::blas::check_f64(ctx, R)?;
    if n == 0 || alpha.is(0.0) {
        return Ok(());
    }
    let ad = layout::matrix_any(ctx, R, "a", a.view())?;
    let xd = layout::vector_any(ctx, R, "x", &x)?;
    let yd = layout::vector_any(ctx, R, "y", &y)?;
    let diag = Variant {
        tri_c: Some(uplo),
        syr2k: true,
        ..Variant::default()
    };
    if super::blocks64::whole(ctx, &ad, &[&xd, &yd]) {
        // As dsyr2k: left operand x (n×1), right operand yᵀ (1×n); the kernel's second product
        // reads them back as y and xᵀ.
        let (xc, yr) = (Operand::column(&xd), Operand::row(&yd));
        let plan = gemm::engine_f64(
            ctx,
            R,
            (n, n, 1),
            alpha,
            xc,
            yr,
            1.0,
            Operand::of(&ad),
            diag,
        )?;
        let d = plan.dispatches();
        return layout::finish_as_in(
            ctx,
            R,
            &d,
            &mut [layout::OutAs::Tri(&mut a, &ad, uplo)],
            wait,
        )
        .await;
    }
    // Past one storage binding: the triangle of A in square blocks, the diagonal ones as above,
    // the others by two general products (x_I·y_Jᵀ, then y_I·x_Jᵀ: two roundings there, as in
    // ssyr2's blocks).
    let ranges = super::blocks64::ranges(ctx, &ad, &[xd.inc, yd.inc]);
    let xs: Vec<_> = ranges.iter().map(|r| xd.part(ctx, 8, r.0, r.1)).collect();
    let ys: Vec<_> = ranges.iter().map(|r| yd.part(ctx, 8, r.0, r.1)).collect();
    let blocks: Vec<_> = super::blocks64::triangle(ranges.len(), uplo == Uplo::Lower)
        .into_iter()
        .map(|(i, j)| (i, j, ad.block(ctx, 8, ranges[i], ranges[j])))
        .collect();
    let mut plans = Vec::new();
    for (i, j, ab) in &blocks {
        let (i, j) = (*i, *j);
        let (ao, dims) = (Operand::of(ab), (ab.rows, ab.cols, 1));
        if i == j {
            let (xc, yr) = (Operand::column(&xs[i]), Operand::row(&ys[i]));
            plans.push(gemm::engine_f64(
                ctx, R, dims, alpha, xc, yr, 1.0, ao, diag,
            )?);
        } else {
            let general = Variant::default();
            let (xc, yr) = (Operand::column(&xs[i]), Operand::row(&ys[j]));
            plans.push(gemm::engine_f64(
                ctx, R, dims, alpha, xc, yr, 1.0, ao, general,
            )?);
            let (yc, xr) = (Operand::column(&ys[i]), Operand::row(&xs[j]));
            plans.push(gemm::engine_f64(
                ctx, R, dims, alpha, yc, xr, 1.0, ao, general,
            )?);
        }
    }
    let d: Vec<_> = plans.iter().flat_map(|p| p.dispatches()).collect();
    layout::finish_as_in(
        ctx,
        R,
        &d,
        &mut [layout::OutAs::Tri(&mut a, &ad, uplo)],
        wait,
    )
    .await
}
