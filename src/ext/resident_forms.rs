//! Short forms on resident operands (`GpuMatrix::gpu_gemm`, `GpuVector::gpu_dot`, ...): the
//! extension-trait names of the face, on [`GpuMatrix`] and [`GpuVector`], through [`Float`].

use super::Float;
#[cfg(doc)]
use crate::blas;
use crate::error::{Error, Result};
use crate::resident::{snrm2, Element, GpuMatrix, GpuScalar, GpuVector, MatrixLayout};

/// Short forms of the common routines on resident `f32` and `f64` operands (the `s` routines
/// on f32, the `d` routines on f64, through one generic impl over [`Float`]),
/// each returning a new resident result (the `gpu_*` names of the host-array extension traits
/// in [`crate::ext`]): no output to allocate first, nothing read back, held for the next
/// submission like any resident call.
impl<'c, T: Float + Element> GpuMatrix<'c, T> {
    /// `C = A·B` (A is `self`) as a new row-major m×n matrix. BLAS `sgemm` / `dgemm` with
    /// `alpha = 1`, `beta = 0`, no transposes; see [`blas::sgemm`],
    /// [`blas::dgemm`] (for transposes, scaling or accumulation, call them
    /// directly).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] naming `b` when `A` has not as many columns as `B` has
    /// rows; [`Error::InvalidArgument`] when `b` belongs to another context;
    /// [`Error::Unsupported`] for f64 on an adapter without `SHADER_F64`;
    /// [`Error::TooLarge`]; [`Error::Gpu`].
    pub fn gpu_gemm(&self, b: &GpuMatrix<'_, T>) -> Result<GpuMatrix<'c, T>> {
        let mut c = GpuMatrix::zeros(
            self.context(),
            (self.dim().0, b.dim().1),
            MatrixLayout::RowMajor,
        )?;
        T::gemm(
            self.context(),
            crate::Transpose::No,
            crate::Transpose::No,
            T::ONE,
            self,
            b,
            T::ZERO,
            &mut c,
        )?;
        Ok(c)
    }

    /// `y = A·x` (A is `self`) as a new vector of length m. BLAS `sgemv` / `dgemv` with
    /// `alpha = 1`, `beta = 0`, no transpose; see [`blas::sgemv`],
    /// [`blas::dgemv`].
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] naming `x` when its length is not the number of columns;
    /// [`Error::InvalidArgument`] when `x` belongs to another context;
    /// [`Error::Unsupported`] for f64 on an adapter without `SHADER_F64`; [`Error::TooLarge`];
    /// [`Error::Gpu`].
    pub fn gpu_gemv(&self, x: &GpuVector<'_, T>) -> Result<GpuVector<'c, T>> {
        let mut y = GpuVector::zeros(self.context(), self.dim().0)?;
        T::gemv(
            self.context(),
            crate::Transpose::No,
            T::ONE,
            self,
            x,
            T::ZERO,
            &mut y,
        )?;
        Ok(y)
    }
}

impl<'c, T: Float + Element> GpuVector<'c, T> {
    /// `xᵀ·y = Σ_i x_i·y_i` (x is `self`), kept on the device. BLAS `sdot` / `ddot`; see
    /// [`resident::sdot`](crate::resident::sdot), [`resident::ddot`](crate::resident::ddot)
    /// and [`blas::sdot`] (summation order and error bound).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] naming `y` when the lengths differ;
    /// [`Error::InvalidArgument`] when `y` belongs to another context;
    /// [`Error::Unsupported`] for f64 on an adapter without `SHADER_F64`; [`Error::Gpu`].
    pub fn gpu_dot(&self, y: &GpuVector<'_, T>) -> Result<GpuScalar<'c, T>> {
        T::dot_kept(self.context(), self, y)
    }

    /// `alpha·x + y` (x is `self`) as a new vector; `y` is unchanged. BLAS `saxpy` / `daxpy`
    /// on a copy of `y` (`scopy` / `dcopy`); see [`blas::saxpy`]
    /// (`alpha = 0` returns `y` exactly, NaN in `x` included, as DESIGN.md §3 says).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] naming `y` when the lengths differ;
    /// [`Error::InvalidArgument`] when `y` belongs to another context;
    /// [`Error::Unsupported`] for f64 on an adapter without `SHADER_F64`; [`Error::Gpu`].
    pub fn gpu_axpy(&self, alpha: T, y: &GpuVector<'_, T>) -> Result<GpuVector<'c, T>> {
        if y.len() != self.len() {
            return Err(Error::DimensionMismatch {
                routine: T::AXPY,
                arg: "y",
                detail: format!("x has length {}, y has length {}", self.len(), y.len()),
            });
        }
        // y of another context is saxpy's error, not that of the copy made first.
        crate::layout::check_ctx(self.context(), y.context().id, T::AXPY, "y")?;
        let mut out = GpuVector::zeros(self.context(), self.len())?;
        T::copy(self.context(), y, &mut out)?;
        T::axpy(self.context(), alpha, self, &mut out)?;
        Ok(out)
    }
}

/// Short forms on resident `f32` vectors only: the norm kept on the device (`dnrm2` finishes
/// LAPACK's combination of its sums on the host, [`blas::dnrm2`]).
impl<'c> GpuVector<'c, f32> {
    /// `‖x‖₂` (x is `self`), kept on the device, without overflow or underflow. BLAS
    /// `snrm2`; see [`resident::snrm2`](crate::resident::snrm2).
    ///
    /// # Errors
    /// [`Error::Gpu`].
    pub fn gpu_nrm2(&self) -> Result<GpuScalar<'c, f32>> {
        snrm2(self.context(), self)
    }
}
