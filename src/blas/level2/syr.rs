use crate::drivers::gemm::{self, Operand, Variant};
use crate::drivers::rank_update;
use crate::error::Result;
use crate::flags::Uplo;
use crate::launch::Wait;
use crate::layout::{self, MatMut, Out, Scalar, VecRef};
use crate::Context;

/// `A ← alpha·x·xᵀ + A` on the triangle `uplo` of the n×n symmetric `A` (symmetric rank-1 update).
///
/// BLAS: `ssyr`. Only the triangle `uplo` (diagonal included) is read and written: the kernel never
/// touches the other triangle, so it comes back bit for bit as it was (NaN included). `x` has
/// length n, any stride; `A` may be in any layout and is updated in place with no copy (see
/// [`sger`](crate::blas::sger)).
///
/// Resident operands are accepted: `A` as a [`GpuMatrix`](crate::GpuMatrix) in either storage
/// order (updated in place on the device), `x` as a [`GpuVector`](crate::GpuVector); host and resident operands may
/// be mixed in one call (see [`crate::resident`]).
///
/// Semantics (DESIGN.md §3): n = 0 or `alpha = 0` returns at once, as in the reference `SSYR`.
/// There is no zero-skip: a zero `x_j` still multiplies `x_i`, so a NaN or Inf in `x` makes every
/// `A_ij` of its row and column in the triangle NaN (the reference Fortran skips such a column).
///
/// Accuracy: each updated element is the exact `A_ij + alpha·x_i·x_j` rounded once (evaluated in
/// double-f32 with Dekker's TwoProduct and Knuth's TwoSum, see `wgsl/level2/rank_update.wgsl`):
/// within about half an ulp, where the plain formula rounds up to three times. Non-finite values
/// follow the plain formula, as the reference computes it. Forward error bound
/// [`metrics::bounds::syr`](crate::metrics::bounds::syr) (factor ≤ 2, DESIGN.md §2; measured ≤ 0.5
/// against the exact update).
///
/// `alpha` is a host value or a device scalar (`&GpuScalar<f32>`), under the same rules (DESIGN.md
/// §3).
///
/// # Errors
/// [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`x`);
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
/// let mut a = array![[1.0f32, -7.0], [1.0, 1.0]];   // -7 is outside the lower triangle
/// wgblas::blas::ssyr(ctx, Uplo::Lower, 1.0, array![1.0f32, 2.0].view(), a.view_mut())?;
/// assert_eq!(a, array![[2.0, -7.0], [3.0, 5.0]]);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn ssyr<'a>(
    ctx: &Context,
    uplo: Uplo,
    alpha: impl Into<Scalar<'a>>,
    x: impl Into<VecRef<'a>>,
    a: impl Into<MatMut<'a>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(ssyr_in(ctx, uplo, alpha, x, a, Wait::Block))
}

/// The core of [`ssyr`] and [`ssyr_async`](crate::blas::ssyr_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn ssyr_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    alpha: impl Into<Scalar<'a>>,
    x: impl Into<VecRef<'a>>,
    a: impl Into<MatMut<'a>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "ssyr";
    let (alpha, x, mut a) = (alpha.into(), x.into(), a.into());
    crate::blas::owners!(ctx, R, alpha, x, a);
    let n = crate::blas::check_order(R, a.dim(), x.len(), None)?;
    if n == 0 || alpha.is(0.0) {
        return Ok(());
    }
    let ad = layout::matrix_any(ctx, R, "a", a.view())?;
    let xd = layout::vector_any(ctx, R, "x", &x)?;
    // Past one storage binding: A in square blocks (`rank_update::symmetric_parts`).
    let update = rank_update::Variant::Symmetric(uplo);
    let parts = rank_update::symmetric_parts(ctx, update, &xd, &xd, &ad);
    let d = if parts.is_empty() {
        vec![rank_update::dispatch(ctx, update, alpha, &xd, &xd, &ad)]
    } else {
        rank_update::part_dispatches(ctx, alpha, &parts)
    };
    layout::finish_in(ctx, R, &d, &mut [Out::Mat(&mut a, &ad)], wait).await
}

/// `A ← alpha·x·xᵀ + A` in f64, `A` n×n symmetric, stored and updated in its triangle `uplo`.
///
/// BLAS: `dsyr`. As [`ssyr`] in shapes, layouts and semantics (only the triangle `uplo` read
/// and written, the other may hold NaN and stays as it is; n = 0 or `alpha = 0` returns at
/// once; no zero-skip), in f64. It runs on the Level 3 tile engine (`wgsl/level3/gemm.wgsl`
/// with `alias T = f64;`, restricted to the triangle of `A`, as `dsyrk`) as the one-column `x`
/// times the one-row `xᵀ` added to `A`: each element is `alpha·(x_i·x_j) + a_ij`. Forward
/// bound: that of [`metrics::bounds::syr`](crate::metrics::bounds::syr) with eps = 2^-52.
///
/// `alpha` is a host value or a device scalar (`&GpuScalar<f64>`), under the same rules (DESIGN.md
/// §3).
///
/// # Errors
/// [`Error::Unsupported`](crate::Error::Unsupported) (`SHADER_F64`) where the adapter has no
/// f64 shaders; [`Error::NotSquare`](crate::Error::NotSquare) (`a`);
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`x`);
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
/// let mut a = array![[1.0f64, f64::NAN], [1.0, 1.0]];
/// wgblas::blas::dsyr(ctx, Uplo::Lower, 2.0, array![1.0f64, 3.0].view(), a.view_mut())?;
/// assert_eq!((a[[0, 0]], a[[1, 0]], a[[1, 1]]), (3.0, 7.0, 19.0));
/// assert!(a[[0, 1]].is_nan());
/// # Ok::<(), wgblas::Error>(())
/// ```
pub fn dsyr<'a>(
    ctx: &Context,
    uplo: Uplo,
    alpha: impl Into<Scalar<'a, f64>>,
    x: impl Into<VecRef<'a, f64>>,
    a: impl Into<MatMut<'a, f64>>,
) -> Result<()> {
    // One core for this blocking form and its `_async` twin (module `blas::asynch`).
    pollster::block_on(dsyr_in(ctx, uplo, alpha, x, a, Wait::Block))
}

/// The core of [`dsyr`] and [`dsyr_async`](crate::blas::dsyr_async), waiting for
/// the read-back as `wait` says.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn dsyr_in<'a>(
    ctx: &Context,
    uplo: Uplo,
    alpha: impl Into<Scalar<'a, f64>>,
    x: impl Into<VecRef<'a, f64>>,
    a: impl Into<MatMut<'a, f64>>,
    wait: Wait,
) -> Result<()> {
    const R: &str = "dsyr";
    let (alpha, x, mut a) = (alpha.into(), x.into(), a.into());
    crate::blas::owners!(ctx, R, alpha, x, a);
    let n = crate::blas::check_order(R, a.dim(), x.len(), None)?;
    crate::blas::check_f64(ctx, R)?;
    if n == 0 || alpha.is(0.0) {
        return Ok(());
    }
    let ad = layout::matrix_any(ctx, R, "a", a.view())?;
    let xd = layout::vector_any(ctx, R, "x", &x)?;
    let tri = Variant {
        tri_c: Some(uplo),
        ..Variant::default()
    };
    if super::blocks64::whole(ctx, &ad, &[&xd]) {
        let (xc, xr) = (Operand::column(&xd), Operand::row(&xd));
        let plan = gemm::engine_f64(ctx, R, (n, n, 1), alpha, xc, xr, 1.0, Operand::of(&ad), tri)?;
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
    // Past one storage binding: the triangle of A in square blocks, the diagonal ones on their
    // triangle, the others by the general product x_I·x_Jᵀ.
    let ranges = super::blocks64::ranges(ctx, &ad, &[xd.inc]);
    let parts: Vec<_> = ranges.iter().map(|r| xd.part(ctx, 8, r.0, r.1)).collect();
    let blocks: Vec<_> = super::blocks64::triangle(ranges.len(), uplo == Uplo::Lower)
        .into_iter()
        .map(|(i, j)| (i, j, ad.block(ctx, 8, ranges[i], ranges[j])))
        .collect();
    let plans = blocks
        .iter()
        .map(|(i, j, ab)| {
            let variant = if i == j { tri } else { Variant::default() };
            let (xc, xr) = (Operand::column(&parts[*i]), Operand::row(&parts[*j]));
            let dims = (ab.rows, ab.cols, 1);
            gemm::engine_f64(ctx, R, dims, alpha, xc, xr, 1.0, Operand::of(ab), variant)
        })
        .collect::<Result<Vec<_>>>()?;
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
