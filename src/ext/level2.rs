//! Level 2 extension traits: [`Level2Ext`] (the matrix `A` is `self`) and [`Level2VecExt`]
//! (rank updates, the vector `x` is `self`).

use ndarray::{Array1, Array2, ArrayBase, ArrayView1, ArrayView2, Data, DataMut, Ix1, Ix2};

use super::{owned, zeros1, Float};
#[cfg(doc)]
use crate::blas;
use crate::error::Result;
use crate::flags::{Diag, Transpose, Uplo};
use crate::Context;

/// The plain and `_inplace` forms of a triangular Level 2 routine (`trmv`, `trsv`), written
/// once: the plain form copies its vector argument `$v` and calls the `_inplace` one, which calls
/// [`Float`]'s routine `$root` on the shared context.
macro_rules! triangular_forms {
    ($(#[$plain_doc:meta])* fn $plain:ident($v:ident); $(#[$doc:meta])* fn $inplace:ident = $root:ident;) => {
        $(#[$plain_doc])*
        fn $plain<S: Data<Elem = A>>(
            &self,
            uplo: Uplo,
            trans: Transpose,
            diag: Diag,
            $v: &ArrayBase<S, Ix1>,
        ) -> Result<Array1<A>> {
            let mut out = owned(A::name(stringify!($root)), "x", $v)?;
            self.$inplace(uplo, trans, diag, &mut out)?;
            Ok(out)
        }

        $(#[$doc])*
        fn $inplace<S: DataMut<Elem = A>>(
            &self,
            uplo: Uplo,
            trans: Transpose,
            diag: Diag,
            x: &mut ArrayBase<S, Ix1>,
        ) -> Result<()> {
            let (ctx, a, x) = (Context::shared()?, self.ext_view(), x.view_mut());
            A::$root(ctx, uplo, trans, diag, a, x)
        }
    };
}

/// Level 2 methods on 2-D `f32` **and** `f64` arrays (the matrix `A` is `self`): the `s`
/// routines on f32 arrays, the `d` routines on f64 ones.
///
/// ```
/// use ndarray::array;
/// use wgblas::prelude::*;
/// # if !wgblas::Context::shared()?.native_f64() { return Ok(()); }
/// let a = array![[2.0f64, 0.0], [1.0, 4.0]];
/// let x = a.gpu_trsv(Uplo::Lower, Transpose::No, Diag::NonUnit, &array![2.0, 9.0])?; // dtrsv
/// assert_eq!(x, array![1.0, 2.0]);
/// assert_eq!(a.gpu_gemv(&x)?, array![2.0, 9.0]);                                     // dgemv
/// # Ok::<(), wgblas::Error>(())
/// ```
pub trait Level2Ext<A: Float> {
    /// `A·x` as a new array. BLAS `sgemv` / `dgemv` with `alpha = 1`, `beta = 0`; see
    /// [`blas::sgemv`] / [`blas::dgemv`].
    ///
    /// # Errors
    /// As [`blas::sgemv`] / [`blas::dgemv`].
    fn gpu_gemv<S: Data<Elem = A>>(&self, x: &ArrayBase<S, Ix1>) -> Result<Array1<A>> {
        let mut y = zeros1::<A>(A::name("gemv"), self.ext_view().nrows())?;
        self.gpu_gemv_inplace(A::ONE, x, A::ZERO, &mut y)?;
        Ok(y)
    }

    /// `y ← alpha·A·x + beta·y`. BLAS `sgemv` / `dgemv`; see [`blas::sgemv`] / [`blas::dgemv`].
    ///
    /// # Errors
    /// As [`blas::sgemv`] / [`blas::dgemv`]; on error `y` is unchanged.
    fn gpu_gemv_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        alpha: A,
        x: &ArrayBase<S, Ix1>,
        beta: A,
        y: &mut ArrayBase<S2, Ix1>,
    ) -> Result<()> {
        let (ctx, a, x, y) = (Context::shared()?, self.ext_view(), x.view(), y.view_mut());
        A::gemv(ctx, Transpose::No, alpha, a, x, beta, y)
    }

    triangular_forms! {
        /// The solution `x` of `op(A)·x = b`, `A` triangular, as a new array. BLAS `strsv` /
        /// `dtrsv`; see [`blas::strsv`] / [`blas::dtrsv`].
        ///
        /// # Errors
        /// As [`blas::strsv`] / [`blas::dtrsv`].
        fn gpu_trsv(b);
        /// `x ← op(A)⁻¹·x`, `A` triangular. BLAS `strsv` / `dtrsv`; see [`blas::strsv`] /
        /// [`blas::dtrsv`].
        ///
        /// # Errors
        /// As [`blas::strsv`] / [`blas::dtrsv`]; on error `x` is unchanged.
        fn gpu_trsv_inplace = trsv;
    }

    /// `A·x` as a new array, `A` symmetric stored in its triangle `uplo` (the other triangle is
    /// never read). BLAS `ssymv` / `dsymv` with `alpha = 1`, `beta = 0`; see [`blas::ssymv`] /
    /// [`blas::dsymv`].
    ///
    /// # Errors
    /// As [`blas::ssymv`] / [`blas::dsymv`].
    fn gpu_symv<S: Data<Elem = A>>(&self, uplo: Uplo, x: &ArrayBase<S, Ix1>) -> Result<Array1<A>> {
        let mut y = zeros1::<A>(A::name("symv"), self.ext_view().nrows())?;
        self.gpu_symv_inplace(uplo, A::ONE, x, A::ZERO, &mut y)?;
        Ok(y)
    }

    /// `y ← alpha·A·x + beta·y`, `A` symmetric stored in its triangle `uplo`. BLAS `ssymv` /
    /// `dsymv`; see [`blas::ssymv`] / [`blas::dsymv`].
    ///
    /// # Errors
    /// As [`blas::ssymv`] / [`blas::dsymv`]; on error `y` is unchanged.
    fn gpu_symv_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        x: &ArrayBase<S, Ix1>,
        beta: A,
        y: &mut ArrayBase<S2, Ix1>,
    ) -> Result<()> {
        let (ctx, a, x, y) = (Context::shared()?, self.ext_view(), x.view(), y.view_mut());
        A::symv(ctx, uplo, alpha, a, x, beta, y)
    }

    triangular_forms! {
        /// `op(A)·x` as a new array, `A` triangular. BLAS `strmv` / `dtrmv`; see
        /// [`blas::strmv`] / [`blas::dtrmv`].
        ///
        /// # Errors
        /// As [`blas::strmv`] / [`blas::dtrmv`].
        fn gpu_trmv(x);
        /// `x ← op(A)·x`, `A` triangular. BLAS `strmv` / `dtrmv`; see [`blas::strmv`] /
        /// [`blas::dtrmv`].
        ///
        /// # Errors
        /// As [`blas::strmv`] / [`blas::dtrmv`]; on error `x` is unchanged.
        fn gpu_trmv_inplace = trmv;
    }

    /// The receiver as a view, through which every method above reaches its data.
    #[doc(hidden)]
    fn ext_view(&self) -> ArrayView2<'_, A>;
}

ext_view!(ref Level2Ext for Ix2: ArrayView2);

/// Level 2 rank updates as methods on 1-D `f32` and `f64` arrays (`sger`, `ssyr`, `ssyr2` on
/// f32, `dger`, `dsyr`, `dsyr2` on f64): the receiver is `x`, the routine's first
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
pub trait Level2VecExt<A: Float> {
    /// `alpha·x·yᵀ + A` as a new array (x is `self`). BLAS `sger` / `dger`; see [`blas::sger`] /
    /// [`blas::dger`].
    ///
    /// # Errors
    /// As [`blas::sger`] / [`blas::dger`].
    fn gpu_ger<S: Data<Elem = A>, S2: Data<Elem = A>>(
        &self,
        alpha: A,
        y: &ArrayBase<S, Ix1>,
        a: &ArrayBase<S2, Ix2>,
    ) -> Result<Array2<A>> {
        let mut out = owned(A::name("ger"), "a", a)?;
        self.gpu_ger_inplace(alpha, y, &mut out)?;
        Ok(out)
    }

    /// `A ← alpha·x·yᵀ + A` (x is `self`). BLAS `sger` / `dger`; see [`blas::sger`] /
    /// [`blas::dger`].
    ///
    /// # Errors
    /// As [`blas::sger`] / [`blas::dger`]; on error `a` is unchanged.
    fn gpu_ger_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        alpha: A,
        y: &ArrayBase<S, Ix1>,
        a: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let (ctx, x, y, a) = (Context::shared()?, self.ext_view(), y.view(), a.view_mut());
        A::ger(ctx, alpha, x, y, a)
    }

    /// `alpha·x·xᵀ + A` on the triangle `uplo`, as a new array (the other triangle copied from
    /// `a` unchanged; x is `self`). BLAS `ssyr` / `dsyr`; see [`blas::ssyr`] / [`blas::dsyr`].
    ///
    /// # Errors
    /// As [`blas::ssyr`] / [`blas::dsyr`].
    fn gpu_syr<S: Data<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        a: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<A>> {
        let mut out = owned(A::name("syr"), "a", a)?;
        self.gpu_syr_inplace(uplo, alpha, &mut out)?;
        Ok(out)
    }

    /// `A ← alpha·x·xᵀ + A` on the triangle `uplo` only (x is `self`). BLAS `ssyr` / `dsyr`; see
    /// [`blas::ssyr`] / [`blas::dsyr`].
    ///
    /// # Errors
    /// As [`blas::ssyr`] / [`blas::dsyr`]; on error `a` is unchanged.
    fn gpu_syr_inplace<S: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        a: &mut ArrayBase<S, Ix2>,
    ) -> Result<()> {
        let (ctx, x, a) = (Context::shared()?, self.ext_view(), a.view_mut());
        A::syr(ctx, uplo, alpha, x, a)
    }

    /// `alpha·x·yᵀ + alpha·y·xᵀ + A` on the triangle `uplo`, as a new array (the other triangle
    /// copied from `a` unchanged; x is `self`). BLAS `ssyr2` / `dsyr2`; see [`blas::ssyr2`] /
    /// [`blas::dsyr2`].
    ///
    /// # Errors
    /// As [`blas::ssyr2`] / [`blas::dsyr2`].
    fn gpu_syr2<S: Data<Elem = A>, S2: Data<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        y: &ArrayBase<S, Ix1>,
        a: &ArrayBase<S2, Ix2>,
    ) -> Result<Array2<A>> {
        let mut out = owned(A::name("syr2"), "a", a)?;
        self.gpu_syr2_inplace(uplo, alpha, y, &mut out)?;
        Ok(out)
    }

    /// `A ← alpha·x·yᵀ + alpha·y·xᵀ + A` on the triangle `uplo` only (x is `self`). BLAS
    /// `ssyr2`; see [`blas::ssyr2`] / [`blas::dsyr2`].
    ///
    /// # Errors
    /// As [`blas::ssyr2`] / [`blas::dsyr2`]; on error `a` is unchanged.
    fn gpu_syr2_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        y: &ArrayBase<S, Ix1>,
        a: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let (ctx, x, y, a) = (Context::shared()?, self.ext_view(), y.view(), a.view_mut());
        A::syr2(ctx, uplo, alpha, x, y, a)
    }

    /// The receiver as a view, through which every method above reaches its data.
    #[doc(hidden)]
    fn ext_view(&self) -> ArrayView1<'_, A>;
}

ext_view!(ref Level2VecExt for Ix1: ArrayView1);
