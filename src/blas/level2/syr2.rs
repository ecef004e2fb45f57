use super::syr::syr_in;
use crate::blas::forms::routine;
use crate::flags::Uplo;

routine! {
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
    /// six times; the value `v` it rounds carries about 48 of the
    /// product's 72 bits, so the result is within `½·ulp(v) + 2^-44·(|v| + P)` of the exact `v`
    /// (P the magnitude of the products), which exceeds half an ulp only under cancellation
    /// (|v| far below P; tested). Non-finite values follow the plain formula, as the reference computes it. Forward
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
    pub fn ssyr2 / ssyr2_in: f32;
    /// `A ← alpha·x·yᵀ + alpha·y·xᵀ + A` in f64, `A` n×n symmetric, stored and updated in its
    /// triangle `uplo`.
    ///
    /// BLAS: `dsyr2`. As [`ssyr2`] in shapes, layouts and semantics (only the triangle `uplo` read
    /// and written; n = 0 or `alpha = 0` returns at once; no zero-skip), in f64, on the same kernel
    /// (`wgsl/level2/rank_update.wgsl` with `alias T = f64;`): each element of the triangle is
    /// the exact `a_ij + alpha·x_i·y_j + alpha·y_i·x_j` rounded once (double-f64), within about
    /// half an ulp (within `½·ulp(v) + 2^-102·(|v| + P)` of the exact `v`, as in f32 with about
    /// 104 of the product's 159 bits; the plain formula, in one or two passes, rounds up to six
    /// times and could differ from OpenBLAS's by more than the factor 2 allows: 2.15 in one CI
    /// run). Forward
    /// bound: [`metrics::bounds::syr2`](crate::metrics::bounds::syr2) with eps = 2^-52 (factor ≤
    /// 2; measured ≤ 0.5 against the exact update). Past one storage binding, as in f32, the
    /// off-diagonal blocks get the two products in two updates, each rounded once.
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
    pub fn dsyr2 / dsyr2_in: f64;
    (uplo: Uplo, alpha: Scalar, x: VecRef, y: VecRef, a: MatMut) -> Result<()>
    = syr_in(uplo, alpha.into(), x.into(), Some(y.into()), a.into());
}
