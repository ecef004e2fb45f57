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
use crate::flags::{Diag, Side, Transpose, Uplo};
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

    /// The triangle `uplo` of `A·B` as a new (C-order) n×n array, zeros in the other triangle.
    /// BLAS `sgemmtr` with `alpha = 1`, `beta = 0`; see [`blas::sgemmtr`].
    ///
    /// # Errors
    /// As [`blas::sgemmtr`].
    fn gpu_gemmtr<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>>;

    /// `C ← alpha·A·B + beta·C` on the triangle `uplo` of `C` only. BLAS `sgemmtr`; see
    /// [`blas::sgemmtr`].
    ///
    /// # Errors
    /// As [`blas::sgemmtr`]; on error `c` is unchanged.
    fn gpu_gemmtr_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        b: &ArrayBase<S, Ix2>,
        beta: f32,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;

    /// The triangle `uplo` of `A·Aᵀ` as a new (C-order) n×n array, zeros in the other
    /// triangle (`a.t().gpu_syrk(..)` gives `AᵀA`). BLAS `ssyrk` with `alpha = 1`, `beta = 0`;
    /// see [`blas::ssyrk`].
    ///
    /// # Errors
    /// As [`blas::ssyrk`].
    fn gpu_syrk(&self, uplo: Uplo) -> Result<Array2<f32>>;

    /// `C ← alpha·A·Aᵀ + beta·C` on the triangle `uplo` of `C`. BLAS `ssyrk`; see
    /// [`blas::ssyrk`].
    ///
    /// # Errors
    /// As [`blas::ssyrk`]; on error `c` is unchanged.
    fn gpu_syrk_inplace<S2: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        beta: f32,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;

    /// The triangle `uplo` of `A·Bᵀ + B·Aᵀ` as a new (C-order) n×n array, zeros in the other
    /// triangle. BLAS `ssyr2k` with `alpha = 1`, `beta = 0`; see [`blas::ssyr2k`].
    ///
    /// # Errors
    /// As [`blas::ssyr2k`].
    fn gpu_syr2k<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>>;

    /// `C ← alpha·A·Bᵀ + alpha·B·Aᵀ + beta·C` on the triangle `uplo` of `C`. BLAS `ssyr2k`;
    /// see [`blas::ssyr2k`].
    ///
    /// # Errors
    /// As [`blas::ssyr2k`]; on error `c` is unchanged.
    fn gpu_syr2k_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        b: &ArrayBase<S, Ix2>,
        beta: f32,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;

    /// `A·B` (`Side::Left`) or `B·A` (`Side::Right`) as a new (C-order) array, `A` (`self`)
    /// symmetric and read from its triangle `uplo` only. BLAS `ssymm` with `alpha = 1`,
    /// `beta = 0`; see [`blas::ssymm`].
    ///
    /// # Errors
    /// As [`blas::ssymm`].
    fn gpu_symm<S: Data<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>>;

    /// `C ← alpha·A·B + beta·C` (Left) or `C ← alpha·B·A + beta·C` (Right), `A` symmetric.
    /// BLAS `ssymm`; see [`blas::ssymm`].
    ///
    /// # Errors
    /// As [`blas::ssymm`]; on error `c` is unchanged.
    #[allow(clippy::too_many_arguments)]
    fn gpu_symm_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        alpha: f32,
        b: &ArrayBase<S, Ix2>,
        beta: f32,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;

    /// `op(A)·B` (`Side::Left`) or `B·op(A)` (`Side::Right`) as a new array, `A` (`self`)
    /// triangular. BLAS `strmm` with `alpha = 1`; see [`blas::strmm`].
    ///
    /// # Errors
    /// As [`blas::strmm`].
    fn gpu_trmm<S: Data<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>>;

    /// `B ← alpha·op(A)·B` (Left) or `B ← alpha·B·op(A)` (Right), `A` triangular. BLAS
    /// `strmm`; see [`blas::strmm`].
    ///
    /// # Errors
    /// As [`blas::strmm`]; on error `b` is unchanged.
    fn gpu_trmm_inplace<S: DataMut<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        alpha: f32,
        b: &mut ArrayBase<S, Ix2>,
    ) -> Result<()>;

    /// The solution `X` of `op(A)·X = B` (`Side::Left`) or `X·op(A) = B` (`Side::Right`) as a
    /// new array, `A` (`self`) triangular. BLAS `strsm` with `alpha = 1`; see [`blas::strsm`].
    ///
    /// # Errors
    /// As [`blas::strsm`].
    fn gpu_trsm<S: Data<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>>;

    /// `B ← X` solving `op(A)·X = alpha·B` (Left) or `X·op(A) = alpha·B` (Right), `A`
    /// triangular. BLAS `strsm`; see [`blas::strsm`].
    ///
    /// # Errors
    /// As [`blas::strsm`]; on error `b` is unchanged.
    fn gpu_trsm_inplace<S: DataMut<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        alpha: f32,
        b: &mut ArrayBase<S, Ix2>,
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

    fn gpu_gemmtr<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>> {
        let mut c = Array2::zeros((self.nrows(), b.ncols()));
        self.gpu_gemmtr_inplace(uplo, 1.0, b, 0.0, &mut c)?;
        Ok(c)
    }

    fn gpu_gemmtr_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        b: &ArrayBase<S, Ix2>,
        beta: f32,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        blas::sgemmtr(
            ctx,
            uplo,
            Transpose::No,
            Transpose::No,
            alpha,
            self.view(),
            b.view(),
            beta,
            c.view_mut(),
        )
    }

    fn gpu_syrk(&self, uplo: Uplo) -> Result<Array2<f32>> {
        let mut c = Array2::zeros((self.nrows(), self.nrows()));
        self.gpu_syrk_inplace(uplo, 1.0, 0.0, &mut c)?;
        Ok(c)
    }

    fn gpu_syrk_inplace<S2: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        beta: f32,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        blas::ssyrk(
            ctx,
            uplo,
            Transpose::No,
            alpha,
            self.view(),
            beta,
            c.view_mut(),
        )
    }

    fn gpu_syr2k<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>> {
        let mut c = Array2::zeros((self.nrows(), self.nrows()));
        self.gpu_syr2k_inplace(uplo, 1.0, b, 0.0, &mut c)?;
        Ok(c)
    }

    fn gpu_syr2k_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        uplo: Uplo,
        alpha: f32,
        b: &ArrayBase<S, Ix2>,
        beta: f32,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        blas::ssyr2k(
            ctx,
            uplo,
            Transpose::No,
            alpha,
            self.view(),
            b.view(),
            beta,
            c.view_mut(),
        )
    }

    fn gpu_symm<S: Data<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>> {
        let mut c = Array2::zeros(b.dim());
        self.gpu_symm_inplace(side, uplo, 1.0, b, 0.0, &mut c)?;
        Ok(c)
    }

    fn gpu_symm_inplace<S: Data<Elem = f32>, S2: DataMut<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        alpha: f32,
        b: &ArrayBase<S, Ix2>,
        beta: f32,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        blas::ssymm(
            ctx,
            side,
            uplo,
            alpha,
            self.view(),
            b.view(),
            beta,
            c.view_mut(),
        )
    }

    fn gpu_trmm<S: Data<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>> {
        let mut out = b.to_owned();
        self.gpu_trmm_inplace(side, uplo, trans, diag, 1.0, &mut out)?;
        Ok(out)
    }

    fn gpu_trmm_inplace<S: DataMut<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        alpha: f32,
        b: &mut ArrayBase<S, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        blas::strmm(
            ctx,
            side,
            uplo,
            trans,
            diag,
            alpha,
            self.view(),
            b.view_mut(),
        )
    }

    fn gpu_trsm<S: Data<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>> {
        let mut x = b.to_owned();
        self.gpu_trsm_inplace(side, uplo, trans, diag, 1.0, &mut x)?;
        Ok(x)
    }

    fn gpu_trsm_inplace<S: DataMut<Elem = f32>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        alpha: f32,
        b: &mut ArrayBase<S, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        blas::strsm(
            ctx,
            side,
            uplo,
            trans,
            diag,
            alpha,
            self.view(),
            b.view_mut(),
        )
    }
}
