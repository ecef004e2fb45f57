//! Extension traits: the BLAS routines as methods on ndarray arrays, on the shared default
//! context ([`Context::shared`]).
//!
//! Names are `gpu_` + the BLAS root without the precision letter. The receiver is the routine's
//! first operand (`x` for `axpy`, `A` for `gemv`, `trsv`, `gemm`). The plain form returns a new
//! array; the `_inplace` form takes the output last, as `&mut`, and writes it like BLAS does.
//! Any layout and stride is accepted (see [`crate::layout`]). Errors are those of the
//! [`crate::blas`] routine named in each method's doc; on error the output is unchanged.

use ndarray::{Array1, Array2, ArrayBase, Data, DataMut, Ix1, Ix2};

use crate::blas;
use crate::error::Result;
use crate::flags::{Diag, Transpose, Uplo};
use crate::Context;

/// Level 1 methods on 1-D `f32` arrays.
pub trait Level1Ext {
    /// `xᵀ·y`. BLAS `sdot`; see [`blas::sdot`].
    ///
    /// # Errors
    /// As [`blas::sdot`], or [`Error::NoAdapter`](crate::Error::NoAdapter).
    fn gpu_dot<S: Data<Elem = f32>>(&self, y: &ArrayBase<S, Ix1>) -> Result<f32>;

    /// `alpha·x + y` as a new array (x is `self`). BLAS `saxpy`; see [`blas::saxpy`].
    ///
    /// # Errors
    /// As [`blas::saxpy`].
    fn gpu_axpy<S: Data<Elem = f32>>(
        &self,
        alpha: f32,
        y: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<f32>>;

    /// `y ← alpha·x + y` (x is `self`). BLAS `saxpy`; see [`blas::saxpy`].
    ///
    /// # Errors
    /// As [`blas::saxpy`]; on error `y` is unchanged.
    fn gpu_axpy_inplace<S: DataMut<Elem = f32>>(
        &self,
        alpha: f32,
        y: &mut ArrayBase<S, Ix1>,
    ) -> Result<()>;
}

impl<T: Data<Elem = f32>> Level1Ext for ArrayBase<T, Ix1> {
    fn gpu_dot<S: Data<Elem = f32>>(&self, y: &ArrayBase<S, Ix1>) -> Result<f32> {
        blas::sdot(Context::shared()?, self.view(), y.view())
    }

    fn gpu_axpy<S: Data<Elem = f32>>(
        &self,
        alpha: f32,
        y: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<f32>> {
        let mut out = y.to_owned();
        blas::saxpy(Context::shared()?, alpha, self.view(), out.view_mut())?;
        Ok(out)
    }

    fn gpu_axpy_inplace<S: DataMut<Elem = f32>>(
        &self,
        alpha: f32,
        y: &mut ArrayBase<S, Ix1>,
    ) -> Result<()> {
        blas::saxpy(Context::shared()?, alpha, self.view(), y.view_mut())
    }
}

/// Level 2 methods on 2-D `f32` arrays (the matrix `A` is `self`).
pub trait Level2Ext {
    /// `A·x` as a new array. BLAS `sgemv` with `alpha = 1`, `beta = 0`; see [`blas::sgemv`].
    ///
    /// # Errors
    /// As [`blas::sgemv`].
    fn gpu_gemv<S: Data<Elem = f32>>(&self, x: &ArrayBase<S, Ix1>) -> Result<Array1<f32>>;

    /// `y ← alpha·A·x + beta·y`. BLAS `sgemv`; see [`blas::sgemv`].
    ///
    /// # Errors
    /// As [`blas::sgemv`]; on error `y` is unchanged.
    fn gpu_gemv_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        alpha: f32,
        x: &ArrayBase<S, Ix1>,
        beta: f32,
        y: &mut ArrayBase<S2, Ix1>,
    ) -> Result<()>;

    /// The solution `x` of `op(A)·x = b`, `A` triangular, as a new array. BLAS `strsv`; see
    /// [`blas::strsv`].
    ///
    /// # Errors
    /// As [`blas::strsv`].
    fn gpu_trsv<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<f32>>;

    /// `x ← op(A)⁻¹·x`, `A` triangular. BLAS `strsv`; see [`blas::strsv`].
    ///
    /// # Errors
    /// As [`blas::strsv`]; on error `x` is unchanged.
    fn gpu_trsv_inplace<S: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        x: &mut ArrayBase<S, Ix1>,
    ) -> Result<()>;
}

impl<T: Data<Elem = f32>> Level2Ext for ArrayBase<T, Ix2> {
    fn gpu_gemv<S: Data<Elem = f32>>(&self, x: &ArrayBase<S, Ix1>) -> Result<Array1<f32>> {
        let mut y = Array1::zeros(self.nrows());
        blas::sgemv(
            Context::shared()?,
            Transpose::No,
            1.0,
            self.view(),
            x.view(),
            0.0,
            y.view_mut(),
        )?;
        Ok(y)
    }

    fn gpu_gemv_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        alpha: f32,
        x: &ArrayBase<S, Ix1>,
        beta: f32,
        y: &mut ArrayBase<S2, Ix1>,
    ) -> Result<()> {
        blas::sgemv(
            Context::shared()?,
            Transpose::No,
            alpha,
            self.view(),
            x.view(),
            beta,
            y.view_mut(),
        )
    }

    fn gpu_trsv<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<f32>> {
        let mut x = b.to_owned();
        blas::strsv(
            Context::shared()?,
            uplo,
            trans,
            diag,
            self.view(),
            x.view_mut(),
        )?;
        Ok(x)
    }

    fn gpu_trsv_inplace<S: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        x: &mut ArrayBase<S, Ix1>,
    ) -> Result<()> {
        blas::strsv(
            Context::shared()?,
            uplo,
            trans,
            diag,
            self.view(),
            x.view_mut(),
        )
    }
}

/// Level 3 methods on 2-D `f32` arrays (the matrix `A` is `self`).
pub trait Level3Ext {
    /// `A·B` as a new (C-order) array. BLAS `sgemm` with `alpha = 1`, `beta = 0`; see
    /// [`blas::sgemm`].
    ///
    /// # Errors
    /// As [`blas::sgemm`].
    fn gpu_gemm<S: Data<Elem = f32>>(&self, b: &ArrayBase<S, Ix2>) -> Result<Array2<f32>>;

    /// `C ← alpha·A·B + beta·C`. BLAS `sgemm`; see [`blas::sgemm`].
    ///
    /// # Errors
    /// As [`blas::sgemm`]; on error `c` is unchanged.
    fn gpu_gemm_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        alpha: f32,
        b: &ArrayBase<S, Ix2>,
        beta: f32,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;
}

impl<T: Data<Elem = f32>> Level3Ext for ArrayBase<T, Ix2> {
    fn gpu_gemm<S: Data<Elem = f32>>(&self, b: &ArrayBase<S, Ix2>) -> Result<Array2<f32>> {
        let mut c = Array2::zeros((self.nrows(), b.ncols()));
        let ctx = Context::shared()?;
        blas::sgemm(
            ctx,
            Transpose::No,
            Transpose::No,
            1.0,
            self.view(),
            b.view(),
            0.0,
            c.view_mut(),
        )?;
        Ok(c)
    }

    fn gpu_gemm_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        alpha: f32,
        b: &ArrayBase<S, Ix2>,
        beta: f32,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        blas::sgemm(
            ctx,
            Transpose::No,
            Transpose::No,
            alpha,
            self.view(),
            b.view(),
            beta,
            c.view_mut(),
        )
    }
}
