use super::{Call, Keep, Kind, Level2};
use crate::blas::forms::routine;
use crate::blas::level1::check_elem;
use crate::error::Result;
use crate::flags::Uplo;
use crate::launch::Wait;
use crate::layout::{self, MatMut, Out, Owner, Scalar, VecRef};
use crate::Context;

routine! {
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
    /// within about half an ulp, where the plain formula rounds up to three times; the value `v` it rounds carries about 48 of the
    /// product's 72 bits, so the result is within `½·ulp(v) + 2^-44·(|v| + P)` of the exact `v`
    /// (P the magnitude of the products), which exceeds half an ulp only under cancellation
    /// (|v| far below P; tested). Non-finite values
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
    pub fn ssyr / ssyr_in: f32;
    /// `A ← alpha·x·xᵀ + A` in f64, `A` n×n symmetric, stored and updated in its triangle `uplo`.
    ///
    /// BLAS: `dsyr`. As [`ssyr`] in shapes, layouts and semantics (only the triangle `uplo` read
    /// and written, the other may hold NaN and stays as it is; n = 0 or `alpha = 0` returns at
    /// once; no zero-skip), in f64, on the same kernel (`wgsl/level2/rank_update.wgsl` with
    /// `alias T = f64;`): each element of the triangle is the exact `a_ij + alpha·x_i·x_j`
    /// rounded once (double-f64), within about half an ulp (within `½·ulp(v) + 2^-102·(|v| + P)` of the exact `v`, as in f32 with about 104 of
    /// the product's 159 bits). Forward bound:
    /// [`metrics::bounds::syr`](crate::metrics::bounds::syr) with eps = 2^-52 (factor ≤ 2;
    /// measured ≤ 0.5 against the exact update).
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
    pub fn dsyr / dsyr_in: f64;
    (uplo: Uplo, alpha: Scalar, x: VecRef, a: MatMut) -> Result<()>
    = syr_in(uplo, alpha.into(), x.into(), None, a.into());
}

/// The one core of [`ssyr`], [`dsyr`] (`y` = `None`), [`ssyr2`](crate::blas::ssyr2) and
/// [`dsyr2`](crate::blas::dsyr2) (`routine` names the one called), generic over the element
/// type ([`Level2`]: the kernels of each).
#[allow(clippy::too_many_arguments)]
pub(super) async fn syr_in<'a, T: Level2>(
    ctx: &Context,
    routine: &'static str,
    uplo: Uplo,
    alpha: Scalar<'a, T>,
    x: VecRef<'a, T>,
    y: Option<VecRef<'a, T>>,
    mut a: MatMut<'a, T>,
    wait: Wait,
) -> Result<()> {
    let owners = [
        ("alpha", alpha.owner()),
        ("x", x.owner()),
        ("y", y.as_ref().and_then(|y| y.owner())),
        ("a", a.owner()),
    ];
    crate::blas::check_owners(ctx, routine, &owners)?;
    let n = crate::blas::check_order(routine, a.dim(), x.len(), y.as_ref().map(|y| y.len()))?;
    check_elem::<T>(ctx, routine)?;
    if n == 0 || alpha.is(T::ZERO) {
        return Ok(());
    }
    let ad = layout::matrix_any(ctx, routine, "a", a.view())?;
    let xd = layout::vector_any(ctx, routine, "x", &x)?;
    let (yd, kind) = match &y {
        Some(y) => (
            Some(layout::vector_any(ctx, routine, "y", y)?),
            Kind::Syr2(uplo),
        ),
        None => (None, Kind::Syr(uplo)),
    };
    let keep = Keep::default();
    let call = Call::new(
        routine,
        alpha,
        alpha,
        &ad,
        &xd,
        yd.as_ref().unwrap_or(&xd),
        &keep,
    );
    let d = T::dispatches(ctx, kind, call)?;
    let out = if T::TRIANGLE {
        Out::Tri(&mut a, &ad, uplo)
    } else {
        Out::Mat(&mut a, &ad)
    };
    layout::finish_in(ctx, routine, &d, &mut [out], wait).await
}
