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

    /// `A·x` as a new array, `A` symmetric stored in its triangle `uplo` (the other triangle is
    /// never read). BLAS `ssymv` with `alpha = 1`, `beta = 0`; see [`blas::ssymv`].
    ///
    /// # Errors
    /// As [`blas::ssymv`].
    fn gpu_symv<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        x: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<f32>>;

    /// `y ← alpha·A·x + beta·y`, `A` symmetric stored in its triangle `uplo`. BLAS `ssymv`;
    /// see [`blas::ssymv`].
    ///
    /// # Errors
    /// As [`blas::ssymv`]; on error `y` is unchanged.
    fn gpu_symv_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        x: &ArrayBase<S, Ix1>,
        beta: f32,
        y: &mut ArrayBase<S2, Ix1>,
    ) -> Result<()>;

    /// `op(A)·x` as a new array, `A` triangular. BLAS `strmv`; see [`blas::strmv`].
    ///
    /// # Errors
    /// As [`blas::strmv`].
    fn gpu_trmv<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        x: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<f32>>;

    /// `x ← op(A)·x`, `A` triangular. BLAS `strmv`; see [`blas::strmv`].
    ///
    /// # Errors
    /// As [`blas::strmv`]; on error `x` is unchanged.
    fn gpu_trmv_inplace<S: DataMut<Elem = f32>>(
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

    fn gpu_symv<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        x: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<f32>> {
        let mut y = Array1::zeros(self.nrows());
        blas::ssymv(
            Context::shared()?,
            uplo,
            1.0,
            self.view(),
            x.view(),
            0.0,
            y.view_mut(),
        )?;
        Ok(y)
    }

    fn gpu_symv_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        x: &ArrayBase<S, Ix1>,
        beta: f32,
        y: &mut ArrayBase<S2, Ix1>,
    ) -> Result<()> {
        blas::ssymv(
            Context::shared()?,
            uplo,
            alpha,
            self.view(),
            x.view(),
            beta,
            y.view_mut(),
        )
    }

    fn gpu_trmv<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        x: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<f32>> {
        let mut out = x.to_owned();
        blas::strmv(
            Context::shared()?,
            uplo,
            trans,
            diag,
            self.view(),
            out.view_mut(),
        )?;
        Ok(out)
    }

    fn gpu_trmv_inplace<S: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        x: &mut ArrayBase<S, Ix1>,
    ) -> Result<()> {
        blas::strmv(
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

/// Level 2 rank updates as methods on 1-D `f32` arrays: the receiver is `x`, the routine's first
/// operand (BLAS `sger(m, n, alpha, x, incx, y, incy, a, lda)`), and the matrix `A` is the
/// output. The plain form returns the updated matrix as a new array (a copy of `a`, same
/// layout); the `_inplace` form updates `a`, taken last as `&mut`.
///
/// ```
/// use ndarray::{array, Array2};
/// use wgblas::prelude::*;
///
/// let (x, y) = (array![1.0f32, 2.0], array![3.0f32, 4.0, 5.0]);
/// let outer = x.gpu_ger(1.0, &y, &Array2::zeros((2, 3)))?;        // x·yᵀ
/// assert_eq!(outer, array![[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]]);
/// let mut a = Array2::<f32>::zeros((2, 2));
/// x.gpu_syr_inplace(Uplo::Upper, 1.0, &mut a)?;                   // upper triangle of x·xᵀ
/// assert_eq!(a, array![[1.0, 2.0], [0.0, 4.0]]);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub trait Level2VecExt {
    /// `alpha·x·yᵀ + A` as a new array (x is `self`). BLAS `sger`; see [`blas::sger`].
    ///
    /// # Errors
    /// As [`blas::sger`].
    fn gpu_ger<S: Data<Elem = f32>, S2: Data<Elem = f32>>(
        &self,
        alpha: f32,
        y: &ArrayBase<S, Ix1>,
        a: &ArrayBase<S2, Ix2>,
    ) -> Result<Array2<f32>>;

    /// `A ← alpha·x·yᵀ + A` (x is `self`). BLAS `sger`; see [`blas::sger`].
    ///
    /// # Errors
    /// As [`blas::sger`]; on error `a` is unchanged.
    fn gpu_ger_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        alpha: f32,
        y: &ArrayBase<S, Ix1>,
        a: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;

    /// `alpha·x·xᵀ + A` on the triangle `uplo`, as a new array (the other triangle copied from
    /// `a` unchanged; x is `self`). BLAS `ssyr`; see [`blas::ssyr`].
    ///
    /// # Errors
    /// As [`blas::ssyr`].
    fn gpu_syr<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        a: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>>;

    /// `A ← alpha·x·xᵀ + A` on the triangle `uplo` only (x is `self`). BLAS `ssyr`; see
    /// [`blas::ssyr`].
    ///
    /// # Errors
    /// As [`blas::ssyr`]; on error `a` is unchanged.
    fn gpu_syr_inplace<S: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        a: &mut ArrayBase<S, Ix2>,
    ) -> Result<()>;

    /// `alpha·x·yᵀ + alpha·y·xᵀ + A` on the triangle `uplo`, as a new array (the other triangle
    /// copied from `a` unchanged; x is `self`). BLAS `ssyr2`; see [`blas::ssyr2`].
    ///
    /// # Errors
    /// As [`blas::ssyr2`].
    fn gpu_syr2<S: Data<Elem = f32>, S2: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        y: &ArrayBase<S, Ix1>,
        a: &ArrayBase<S2, Ix2>,
    ) -> Result<Array2<f32>>;

    /// `A ← alpha·x·yᵀ + alpha·y·xᵀ + A` on the triangle `uplo` only (x is `self`). BLAS
    /// `ssyr2`; see [`blas::ssyr2`].
    ///
    /// # Errors
    /// As [`blas::ssyr2`]; on error `a` is unchanged.
    fn gpu_syr2_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        y: &ArrayBase<S, Ix1>,
        a: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;
}

impl<T: Data<Elem = f32>> Level2VecExt for ArrayBase<T, Ix1> {
    fn gpu_ger<S: Data<Elem = f32>, S2: Data<Elem = f32>>(
        &self,
        alpha: f32,
        y: &ArrayBase<S, Ix1>,
        a: &ArrayBase<S2, Ix2>,
    ) -> Result<Array2<f32>> {
        let mut out = a.to_owned();
        blas::sger(
            Context::shared()?,
            alpha,
            self.view(),
            y.view(),
            out.view_mut(),
        )?;
        Ok(out)
    }

    fn gpu_ger_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        alpha: f32,
        y: &ArrayBase<S, Ix1>,
        a: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        blas::sger(
            Context::shared()?,
            alpha,
            self.view(),
            y.view(),
            a.view_mut(),
        )
    }

    fn gpu_syr<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        a: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>> {
        let mut out = a.to_owned();
        blas::ssyr(Context::shared()?, uplo, alpha, self.view(), out.view_mut())?;
        Ok(out)
    }

    fn gpu_syr_inplace<S: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        a: &mut ArrayBase<S, Ix2>,
    ) -> Result<()> {
        blas::ssyr(Context::shared()?, uplo, alpha, self.view(), a.view_mut())
    }

    fn gpu_syr2<S: Data<Elem = f32>, S2: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        y: &ArrayBase<S, Ix1>,
        a: &ArrayBase<S2, Ix2>,
    ) -> Result<Array2<f32>> {
        let mut out = a.to_owned();
        blas::ssyr2(
            Context::shared()?,
            uplo,
            alpha,
            self.view(),
            y.view(),
            out.view_mut(),
        )?;
        Ok(out)
    }

    fn gpu_syr2_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        y: &ArrayBase<S, Ix1>,
        a: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        blas::ssyr2(
            Context::shared()?,
            uplo,
            alpha,
            self.view(),
            y.view(),
            a.view_mut(),
        )
    }
}
