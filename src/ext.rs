//! Extension traits: the BLAS routines as methods on ndarray arrays, on the shared default
//! context ([`Context::shared`]).
//!
//! Names are `gpu_` + the BLAS root without the precision letter. The receiver is the routine's
//! first operand (`x` for `axpy`, `A` for `gemv`, `trsv`, `gemm`). The plain form returns a new
//! array; the `_inplace` form takes the output last, as `&mut`, and writes it like BLAS does.
//! Any layout and stride is accepted (see [`crate::layout`]). Errors are those of the
//! [`crate::blas`] routine named in each method's doc; on error the output is unchanged. A plain
//! form whose new output array cannot be allocated on the host returns
//! [`Error::OutOfHostMemory`](crate::Error::OutOfHostMemory) before any work.

use ndarray::{
    Array1, Array2, Array3, ArrayBase, ArrayView1, ArrayView2, ArrayView3, ArrayViewMut1,
    ArrayViewMut2, ArrayViewMut3, Data, DataMut, Ix1, Ix2, Ix3,
};

use crate::blas;
use crate::error::Result;
use crate::flags::{Diag, Side, Transpose, Uplo};
use crate::Context;

/// A new zero matrix for a routine's output, after checking that its size is representable
/// and fits the shared context's device (so that an absurd shape, for example the product of
/// 2^32×1 and 1×2^32 broadcast views, is a typed error before any allocation).
fn zeros2(routine: &'static str, dim: (usize, usize)) -> Result<Array2<f32>> {
    zeros2_of(routine, dim)
}

/// [`zeros2`] for any element type.
fn zeros2_of<A: bytemuck::Zeroable + Copy + Send + Sync>(
    routine: &'static str,
    (rows, cols): (usize, usize),
) -> Result<Array2<A>> {
    let elems = rows.checked_mul(cols).ok_or(crate::Error::TooLarge {
        routine,
        arg: "c",
        bytes: u64::MAX,
        limit: i32::MAX as u64 * 4,
    })?;
    crate::layout::check_fits::<A>(Context::shared()?, routine, "c", elems)?;
    let data = crate::transfer::zeros_vec(elems).ok_or(crate::Error::OutOfHostMemory {
        routine,
        arg: "c",
        bytes: (elems as u64).saturating_mul(std::mem::size_of::<A>() as u64),
    })?;
    Array2::from_shape_vec((rows, cols), data).map_err(|e| crate::Error::InvalidArgument {
        routine,
        arg: "c",
        detail: e.to_string(),
    })
}

/// A new zero batch of matrices for a routine's output, after the checks of [`zeros2`].
fn zeros3<A: bytemuck::Zeroable + Copy + Send + Sync>(
    routine: &'static str,
    (batch, rows, cols): (usize, usize, usize),
) -> Result<Array3<A>> {
    let elems = batch
        .checked_mul(rows)
        .and_then(|e| e.checked_mul(cols))
        .ok_or(crate::Error::TooLarge {
            routine,
            arg: "c",
            bytes: u64::MAX,
            limit: i32::MAX as u64 * 4,
        })?;
    crate::layout::check_fits::<A>(Context::shared()?, routine, "c", elems)?;
    let data = crate::transfer::zeros_vec(elems).ok_or(crate::Error::OutOfHostMemory {
        routine,
        arg: "c",
        bytes: (elems as u64).saturating_mul(std::mem::size_of::<A>() as u64),
    })?;
    Array3::from_shape_vec((batch, rows, cols), data).map_err(|e| crate::Error::InvalidArgument {
        routine,
        arg: "c",
        detail: e.to_string(),
    })
}

/// A new zero vector for a routine's output, after the checks of [`zeros2`].
fn zeros1(routine: &'static str, len: usize) -> Result<Array1<f32>> {
    crate::layout::check_fits::<f32>(Context::shared()?, routine, "y", len)?;
    let data = crate::transfer::zeros_vec(len).ok_or(crate::Error::OutOfHostMemory {
        routine,
        arg: "y",
        bytes: len as u64 * 4,
    })?;
    Ok(Array1::from_vec(data))
}

/// An owned copy of an operand that the routine then updates in place, after the checks of
/// [`zeros2`] (a broadcast view may have far more elements than memory).
fn owned<A: Clone, S: Data<Elem = A>, D: ndarray::Dimension>(
    routine: &'static str,
    a: &ArrayBase<S, D>,
) -> Result<ndarray::Array<A, D>> {
    crate::layout::check_fits::<A>(Context::shared()?, routine, "output", a.len())?;
    Ok(a.to_owned())
}

/// Level 1 methods on 1-D `f32` **and** `f64` arrays (x is `self`): `sdot`/`saxpy` on f32
/// arrays, `ddot`/`daxpy` on f64 ones.
pub trait Level1FloatExt<A: Float> {
    /// `xᵀ·y`. BLAS `sdot` / `ddot`; see [`blas::sdot`], [`blas::ddot`].
    ///
    /// # Errors
    /// As the BLAS routine, or [`Error::NoAdapter`](crate::Error::NoAdapter).
    fn gpu_dot<S: Data<Elem = A>>(&self, y: &ArrayBase<S, Ix1>) -> Result<A>;

    /// `alpha·x + y` as a new array. BLAS `saxpy` / `daxpy`; see [`blas::saxpy`],
    /// [`blas::daxpy`].
    ///
    /// # Errors
    /// As the BLAS routine.
    fn gpu_axpy<S: Data<Elem = A>>(&self, alpha: A, y: &ArrayBase<S, Ix1>) -> Result<Array1<A>>;

    /// `y ← alpha·x + y`. BLAS `saxpy` / `daxpy`; see [`blas::saxpy`], [`blas::daxpy`].
    ///
    /// # Errors
    /// As the BLAS routine; on error `y` is unchanged.
    fn gpu_axpy_inplace<S: DataMut<Elem = A>>(
        &self,
        alpha: A,
        y: &mut ArrayBase<S, Ix1>,
    ) -> Result<()>;
}

impl<A: Float, T: Data<Elem = A>> Level1FloatExt<A> for ArrayBase<T, Ix1> {
    fn gpu_dot<S: Data<Elem = A>>(&self, y: &ArrayBase<S, Ix1>) -> Result<A> {
        A::dot(Context::shared()?, self.view(), y.view())
    }

    fn gpu_axpy<S: Data<Elem = A>>(&self, alpha: A, y: &ArrayBase<S, Ix1>) -> Result<Array1<A>> {
        let mut out = owned(A::AXPY, y)?;
        A::axpy(Context::shared()?, alpha, self.view(), out.view_mut())?;
        Ok(out)
    }

    fn gpu_axpy_inplace<S: DataMut<Elem = A>>(
        &self,
        alpha: A,
        y: &mut ArrayBase<S, Ix1>,
    ) -> Result<()> {
        A::axpy(Context::shared()?, alpha, self.view(), y.view_mut())
    }
}

/// Level 1 methods on 1-D `f32` arrays (`gpu_dot` and `gpu_axpy` are in [`Level1FloatExt`],
/// on f32 and f64 arrays alike).
pub trait Level1Ext {
    /// A copy of `x` made on the device (a new contiguous array). BLAS `scopy`; see
    /// [`blas::scopy`].
    ///
    /// # Errors
    /// As [`blas::scopy`].
    fn gpu_copy(&self) -> Result<Array1<f32>>;

    /// `y ← x` (x is `self`). BLAS `scopy`; see [`blas::scopy`].
    ///
    /// # Errors
    /// As [`blas::scopy`]; on error `y` is unchanged.
    fn gpu_copy_inplace<S: DataMut<Elem = f32>>(&self, y: &mut ArrayBase<S, Ix1>) -> Result<()>;

    /// `alpha·x` as a new array. BLAS `sscal`; see [`blas::sscal`] (in place:
    /// [`Level1MutExt::gpu_scal_inplace`]).
    ///
    /// # Errors
    /// As [`blas::sscal`].
    fn gpu_scal(&self, alpha: f32) -> Result<Array1<f32>>;

    /// `‖x‖₂`, without overflow or underflow. BLAS `snrm2`; see [`blas::snrm2`].
    ///
    /// # Errors
    /// As [`blas::snrm2`].
    fn gpu_nrm2(&self) -> Result<f32>;

    /// The rotated pair `(c·x + s·y, c·y − s·x)` as new arrays (x is `self`). BLAS `srot`; see
    /// [`blas::srot`] (in place: [`Level1MutExt::gpu_rot_inplace`]).
    ///
    /// # Errors
    /// As [`blas::srot`].
    fn gpu_rot<S: Data<Elem = f32>>(
        &self,
        y: &ArrayBase<S, Ix1>,
        c: f32,
        s: f32,
    ) -> Result<(Array1<f32>, Array1<f32>)>;

    /// The pair `H·(x, y)` of the modified Givens transformation `param` as new arrays (x is
    /// `self`). BLAS `srotm`; see [`blas::srotm`] (in place: [`Level1MutExt::gpu_rotm_inplace`]).
    ///
    /// # Errors
    /// As [`blas::srotm`].
    fn gpu_rotm<S: Data<Elem = f32>>(
        &self,
        y: &ArrayBase<S, Ix1>,
        param: [f32; 5],
    ) -> Result<(Array1<f32>, Array1<f32>)>;
}

impl<T: Data<Elem = f32>> Level1Ext for ArrayBase<T, Ix1> {
    fn gpu_copy(&self) -> Result<Array1<f32>> {
        let mut y = zeros1("scopy", self.len())?;
        blas::scopy(Context::shared()?, self.view(), y.view_mut())?;
        Ok(y)
    }

    fn gpu_copy_inplace<S: DataMut<Elem = f32>>(&self, y: &mut ArrayBase<S, Ix1>) -> Result<()> {
        blas::scopy(Context::shared()?, self.view(), y.view_mut())
    }

    fn gpu_scal(&self, alpha: f32) -> Result<Array1<f32>> {
        let mut x = owned("sscal", self)?;
        blas::sscal(Context::shared()?, alpha, x.view_mut())?;
        Ok(x)
    }

    fn gpu_nrm2(&self) -> Result<f32> {
        blas::snrm2(Context::shared()?, self.view())
    }

    fn gpu_rot<S: Data<Elem = f32>>(
        &self,
        y: &ArrayBase<S, Ix1>,
        c: f32,
        s: f32,
    ) -> Result<(Array1<f32>, Array1<f32>)> {
        let (mut x, mut y) = (owned("srot", self)?, owned("srot", y)?);
        blas::srot(Context::shared()?, x.view_mut(), y.view_mut(), c, s)?;
        Ok((x, y))
    }

    fn gpu_rotm<S: Data<Elem = f32>>(
        &self,
        y: &ArrayBase<S, Ix1>,
        param: [f32; 5],
    ) -> Result<(Array1<f32>, Array1<f32>)> {
        let (mut x, mut y) = (owned("srotm", self)?, owned("srotm", y)?);
        blas::srotm(Context::shared()?, x.view_mut(), y.view_mut(), param)?;
        Ok((x, y))
    }
}

/// Level 1 methods that write their receiver, on mutable 1-D `f32` arrays (`x` is `self`).
pub trait Level1MutExt {
    /// `x ↔ y`. BLAS `sswap`; see [`blas::sswap`].
    ///
    /// # Errors
    /// As [`blas::sswap`]; on error `x` and `y` are unchanged.
    fn gpu_swap<S: DataMut<Elem = f32>>(&mut self, y: &mut ArrayBase<S, Ix1>) -> Result<()>;

    /// `x ← alpha·x`. BLAS `sscal`; see [`blas::sscal`].
    ///
    /// # Errors
    /// As [`blas::sscal`]; on error `x` is unchanged.
    fn gpu_scal_inplace(&mut self, alpha: f32) -> Result<()>;

    /// `(x, y) ← (c·x + s·y, c·y − s·x)`. BLAS `srot`; see [`blas::srot`].
    ///
    /// # Errors
    /// As [`blas::srot`]; on error `x` and `y` are unchanged.
    fn gpu_rot_inplace<S: DataMut<Elem = f32>>(
        &mut self,
        y: &mut ArrayBase<S, Ix1>,
        c: f32,
        s: f32,
    ) -> Result<()>;

    /// `(x, y) ← H·(x, y)`, `H` decoded from `param`. BLAS `srotm`; see [`blas::srotm`].
    ///
    /// # Errors
    /// As [`blas::srotm`]; on error `x` and `y` are unchanged.
    fn gpu_rotm_inplace<S: DataMut<Elem = f32>>(
        &mut self,
        y: &mut ArrayBase<S, Ix1>,
        param: [f32; 5],
    ) -> Result<()>;
}

impl<T: DataMut<Elem = f32>> Level1MutExt for ArrayBase<T, Ix1> {
    fn gpu_swap<S: DataMut<Elem = f32>>(&mut self, y: &mut ArrayBase<S, Ix1>) -> Result<()> {
        blas::sswap(Context::shared()?, self.view_mut(), y.view_mut())
    }

    fn gpu_scal_inplace(&mut self, alpha: f32) -> Result<()> {
        blas::sscal(Context::shared()?, alpha, self.view_mut())
    }

    fn gpu_rot_inplace<S: DataMut<Elem = f32>>(
        &mut self,
        y: &mut ArrayBase<S, Ix1>,
        c: f32,
        s: f32,
    ) -> Result<()> {
        blas::srot(Context::shared()?, self.view_mut(), y.view_mut(), c, s)
    }

    fn gpu_rotm_inplace<S: DataMut<Elem = f32>>(
        &mut self,
        y: &mut ArrayBase<S, Ix1>,
        param: [f32; 5],
    ) -> Result<()> {
        blas::srotm(Context::shared()?, self.view_mut(), y.view_mut(), param)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// The element types of the Level 1 routines that exist in both precisions (`iamax`, `asum`):
/// `f32` (`isamax`, `sasum`) and `f64` (`idamax`, `dasum`). Sealed.
pub trait Level1Elem: sealed::Sealed + Copy + 'static {
    /// [`blas::isamax`] or [`blas::idamax`].
    ///
    /// # Errors
    /// As the BLAS routine.
    fn iamax(ctx: &Context, x: ArrayView1<'_, Self>) -> Result<usize>;

    /// [`blas::sasum`] or [`blas::dasum`].
    ///
    /// # Errors
    /// As the BLAS routine.
    fn asum(ctx: &Context, x: ArrayView1<'_, Self>) -> Result<Self>;
}

impl Level1Elem for f32 {
    fn iamax(ctx: &Context, x: ArrayView1<'_, f32>) -> Result<usize> {
        blas::isamax(ctx, x)
    }

    fn asum(ctx: &Context, x: ArrayView1<'_, f32>) -> Result<f32> {
        blas::sasum(ctx, x)
    }
}

impl Level1Elem for f64 {
    fn iamax(ctx: &Context, x: ArrayView1<'_, f64>) -> Result<usize> {
        blas::idamax(ctx, x)
    }

    fn asum(ctx: &Context, x: ArrayView1<'_, f64>) -> Result<f64> {
        blas::dasum(ctx, x)
    }
}

/// Level 1 methods on 1-D `f32` **and** `f64` arrays: on `f64` arrays they run `idamax` and
/// `dasum` (native f64 where the adapter has it, an exact integer fallback elsewhere).
pub trait Level1RealExt {
    /// The element type (`f32` or `f64`).
    type Elem;

    /// 0-based index of the first element of largest magnitude (the first NaN, if any). BLAS
    /// `isamax` / `idamax`; see [`blas::isamax`], [`blas::idamax`].
    ///
    /// # Errors
    /// As the BLAS routine; in particular [`Error::InvalidArgument`](crate::Error::InvalidArgument)
    /// for an empty vector.
    fn gpu_iamax(&self) -> Result<usize>;

    /// `Σ |x_i|`. BLAS `sasum` / `dasum`; see [`blas::sasum`], [`blas::dasum`].
    ///
    /// # Errors
    /// As the BLAS routine.
    fn gpu_asum(&self) -> Result<Self::Elem>;
}

impl<A: Level1Elem, S: Data<Elem = A>> Level1RealExt for ArrayBase<S, Ix1> {
    type Elem = A;

    fn gpu_iamax(&self) -> Result<usize> {
        A::iamax(Context::shared()?, self.view())
    }

    fn gpu_asum(&self) -> Result<A> {
        A::asum(Context::shared()?, self.view())
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
        let mut y = zeros1("sgemv", self.nrows())?;
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
        let mut x = owned("strsv", b)?;
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
        let mut y = zeros1("ssymv", self.nrows())?;
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
        let mut out = owned("strmv", x)?;
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

/// The element types of the routines that exist in both precisions: `f32` (`sgemm`,
/// `sgemm_batched`) and `f64` (`dgemm`, `dgemm_batched`). Sealed. The f64 routines need an
/// adapter with `SHADER_F64` ([`Error::Unsupported`](crate::Error::Unsupported) otherwise).
pub trait Float: sealed::Sealed + bytemuck::Pod + Send + Sync + 'static {
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The BLAS name of the matrix product (`"sgemm"` or `"dgemm"`), for errors.
    const GEMM: &'static str;
    /// The BLAS name of the batched product (`"sgemm_batched"` or `"dgemm_batched"`).
    const GEMM_BATCHED: &'static str;
    /// The BLAS name of axpy (`"saxpy"` or `"daxpy"`).
    const AXPY: &'static str;

    /// [`blas::sdot`] or [`blas::ddot`].
    ///
    /// # Errors
    /// As the BLAS routine.
    fn dot(ctx: &Context, x: ArrayView1<'_, Self>, y: ArrayView1<'_, Self>) -> Result<Self>;

    /// [`blas::saxpy`] or [`blas::daxpy`].
    ///
    /// # Errors
    /// As the BLAS routine.
    fn axpy(
        ctx: &Context,
        alpha: Self,
        x: ArrayView1<'_, Self>,
        y: ArrayViewMut1<'_, Self>,
    ) -> Result<()>;

    /// [`blas::sgemm`] or [`blas::dgemm`].
    ///
    /// # Errors
    /// As the BLAS routine.
    #[allow(clippy::too_many_arguments)]
    fn gemm(
        ctx: &Context,
        transa: Transpose,
        transb: Transpose,
        alpha: Self,
        a: ArrayView2<'_, Self>,
        b: ArrayView2<'_, Self>,
        beta: Self,
        c: ArrayViewMut2<'_, Self>,
    ) -> Result<()>;

    /// [`blas::sgemm_batched`] or [`blas::dgemm_batched`].
    ///
    /// # Errors
    /// As the BLAS routine.
    #[allow(clippy::too_many_arguments)]
    fn gemm_batched(
        ctx: &Context,
        transa: Transpose,
        transb: Transpose,
        alpha: Self,
        a: ArrayView3<'_, Self>,
        b: ArrayView3<'_, Self>,
        beta: Self,
        c: ArrayViewMut3<'_, Self>,
    ) -> Result<()>;
}

impl Float for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    const GEMM: &'static str = "sgemm";
    const GEMM_BATCHED: &'static str = "sgemm_batched";
    const AXPY: &'static str = "saxpy";

    fn dot(ctx: &Context, x: ArrayView1<'_, f32>, y: ArrayView1<'_, f32>) -> Result<f32> {
        blas::sdot(ctx, x, y)
    }

    fn axpy(
        ctx: &Context,
        alpha: f32,
        x: ArrayView1<'_, f32>,
        y: ArrayViewMut1<'_, f32>,
    ) -> Result<()> {
        blas::saxpy(ctx, alpha, x, y)
    }

    fn gemm(
        ctx: &Context,
        transa: Transpose,
        transb: Transpose,
        alpha: f32,
        a: ArrayView2<'_, f32>,
        b: ArrayView2<'_, f32>,
        beta: f32,
        c: ArrayViewMut2<'_, f32>,
    ) -> Result<()> {
        blas::sgemm(ctx, transa, transb, alpha, a, b, beta, c)
    }

    fn gemm_batched(
        ctx: &Context,
        transa: Transpose,
        transb: Transpose,
        alpha: f32,
        a: ArrayView3<'_, f32>,
        b: ArrayView3<'_, f32>,
        beta: f32,
        c: ArrayViewMut3<'_, f32>,
    ) -> Result<()> {
        blas::sgemm_batched(ctx, transa, transb, alpha, a, b, beta, c)
    }
}

impl Float for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    const GEMM: &'static str = "dgemm";
    const GEMM_BATCHED: &'static str = "dgemm_batched";
    const AXPY: &'static str = "daxpy";

    fn dot(ctx: &Context, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> Result<f64> {
        blas::ddot(ctx, x, y)
    }

    fn axpy(
        ctx: &Context,
        alpha: f64,
        x: ArrayView1<'_, f64>,
        y: ArrayViewMut1<'_, f64>,
    ) -> Result<()> {
        blas::daxpy(ctx, alpha, x, y)
    }

    fn gemm(
        ctx: &Context,
        transa: Transpose,
        transb: Transpose,
        alpha: f64,
        a: ArrayView2<'_, f64>,
        b: ArrayView2<'_, f64>,
        beta: f64,
        c: ArrayViewMut2<'_, f64>,
    ) -> Result<()> {
        blas::dgemm(ctx, transa, transb, alpha, a, b, beta, c)
    }

    fn gemm_batched(
        ctx: &Context,
        transa: Transpose,
        transb: Transpose,
        alpha: f64,
        a: ArrayView3<'_, f64>,
        b: ArrayView3<'_, f64>,
        beta: f64,
        c: ArrayViewMut3<'_, f64>,
    ) -> Result<()> {
        blas::dgemm_batched(ctx, transa, transb, alpha, a, b, beta, c)
    }
}

/// Matrix products on 2-D `f32` **and** `f64` arrays (the matrix `A` is `self`): `sgemm` on
/// f32 arrays, `dgemm` on f64 ones.
///
/// ```
/// use ndarray::array;
/// use wgblas::prelude::*;
/// # if !wgblas::Context::shared()?.native_f64() { return Ok(()); }
/// let a = array![[1.0f64, 2.0], [3.0, 4.0]];
/// assert_eq!(a.gpu_gemm(&a)?, array![[7.0, 10.0], [15.0, 22.0]]);
/// # Ok::<(), wgblas::Error>(())
/// ```
pub trait GemmExt<A: Float> {
    /// `A·B` as a new (C-order) array. BLAS `sgemm` / `dgemm` with `alpha = 1`, `beta = 0`;
    /// see [`blas::sgemm`], [`blas::dgemm`].
    ///
    /// # Errors
    /// As the BLAS routine.
    fn gpu_gemm<S: Data<Elem = A>>(&self, b: &ArrayBase<S, Ix2>) -> Result<Array2<A>>;

    /// `C ← alpha·A·B + beta·C`. BLAS `sgemm` / `dgemm`; see [`blas::sgemm`],
    /// [`blas::dgemm`].
    ///
    /// # Errors
    /// As the BLAS routine; on error `c` is unchanged.
    fn gpu_gemm_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;
}

impl<A: Float, T: Data<Elem = A>> GemmExt<A> for ArrayBase<T, Ix2> {
    fn gpu_gemm<S: Data<Elem = A>>(&self, b: &ArrayBase<S, Ix2>) -> Result<Array2<A>> {
        let mut c = zeros2_of(A::GEMM, (self.nrows(), b.ncols()))?;
        self.gpu_gemm_inplace(A::ONE, b, A::ZERO, &mut c)?;
        Ok(c)
    }

    fn gpu_gemm_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        A::gemm(
            Context::shared()?,
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

/// Level 3 methods on 2-D `f32` arrays (the matrix `A` is `self`); the products (`gpu_gemm`)
/// are in [`GemmExt`], on f32 and f64 arrays alike.
pub trait Level3Ext {
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
    fn gpu_gemmtr<S: Data<Elem = f32>>(
        &self,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<f32>> {
        // C is n×n with n = rows of A: B must have n columns (named here, since the caller
        // passes no C that a later check could name).
        if b.ncols() != self.nrows() {
            return Err(crate::Error::DimensionMismatch {
                routine: "sgemmtr",
                arg: "b",
                detail: format!(
                    "columns of B must equal the rows of A (C is n×n): expected {}, found {}",
                    self.nrows(),
                    b.ncols()
                ),
            });
        }
        let mut c = zeros2("sgemmtr", (self.nrows(), b.ncols()))?;
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
        let mut c = zeros2("ssyrk", (self.nrows(), self.nrows()))?;
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
        let mut c = zeros2("ssyr2k", (self.nrows(), self.nrows()))?;
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
        let mut c = zeros2("ssymm", b.dim())?;
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
        let mut out = owned("strmm", b)?;
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
        let mut x = owned("strsm", b)?;
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
        let mut out = owned("sger", a)?;
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
        let mut out = owned("ssyr", a)?;
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
        let mut out = owned("ssyr2", a)?;
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

/// Batched matrix products on 3-D `f32` **and** `f64` arrays (batch × rows × columns; the
/// batch of `A` is `self`): `sgemm_batched` on f32 arrays, `dgemm_batched` on f64 ones.
///
/// ```
/// use ndarray::Array3;
/// use wgblas::prelude::*;
///
/// let a = Array3::<f32>::from_shape_fn((100, 4, 3), |(b, i, j)| (b + i + j) as f32);
/// let b = Array3::<f32>::from_shape_fn((100, 3, 2), |(b, i, j)| (b * i + j) as f32);
/// let c = a.gpu_gemm_batched(&b)?;                // 100 products, one dispatch
/// for p in 0..100 {
///     let want = a.index_axis(ndarray::Axis(0), p).dot(&b.index_axis(ndarray::Axis(0), p));
///     assert_eq!(c.index_axis(ndarray::Axis(0), p), want);
/// }
/// # Ok::<(), wgblas::Error>(())
/// ```
pub trait Level3BatchExt<A: Float> {
    /// `C_b = A_b·B_b` for every matrix `b` of the batch, as a new (C-order) batch × m × n
    /// array. BLAS `sgemm_batched` / `dgemm_batched` with `alpha = 1`, `beta = 0`; see
    /// [`blas::sgemm_batched`] (a broadcast view of one matrix, batch stride 0, is read with
    /// no copy).
    ///
    /// # Errors
    /// As the BLAS routine.
    fn gpu_gemm_batched<S: Data<Elem = A>>(&self, b: &ArrayBase<S, Ix3>) -> Result<Array3<A>>;

    /// `C_b ← alpha·A_b·B_b + beta·C_b` for every `b`. BLAS `sgemm_batched` /
    /// `dgemm_batched`; see [`blas::sgemm_batched`], [`blas::dgemm_batched`].
    ///
    /// # Errors
    /// As the BLAS routine; on error `c` is unchanged.
    fn gpu_gemm_batched_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        alpha: A,
        b: &ArrayBase<S, Ix3>,
        beta: A,
        c: &mut ArrayBase<S2, Ix3>,
    ) -> Result<()>;
}

impl<A: Float, T: Data<Elem = A>> Level3BatchExt<A> for ArrayBase<T, Ix3> {
    fn gpu_gemm_batched<S: Data<Elem = A>>(&self, b: &ArrayBase<S, Ix3>) -> Result<Array3<A>> {
        let (batch, m, _) = self.dim();
        let mut c = zeros3(A::GEMM_BATCHED, (batch, m, b.dim().2))?;
        self.gpu_gemm_batched_inplace(A::ONE, b, A::ZERO, &mut c)?;
        Ok(c)
    }

    fn gpu_gemm_batched_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        alpha: A,
        b: &ArrayBase<S, Ix3>,
        beta: A,
        c: &mut ArrayBase<S2, Ix3>,
    ) -> Result<()> {
        A::gemm_batched(
            Context::shared()?,
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

/// Upload to the shared context's device: `a.to_gpu()` (see [`crate::resident`]).
pub trait ToGpu {
    /// The resident type: [`GpuVector`](crate::GpuVector) for 1-D arrays,
    /// [`GpuMatrix`](crate::GpuMatrix) for 2-D ones, [`GpuBatch`](crate::GpuBatch) for 3-D ones.
    type Resident;

    /// Upload the array (any layout) to the shared context ([`Context::shared`]).
    ///
    /// # Errors
    /// [`Error::NoAdapter`](crate::Error::NoAdapter), or
    /// [`Error::TooLarge`](crate::Error::TooLarge) past one buffer of the device
    /// (`max_buffer_size`).
    fn to_gpu(&self) -> Result<Self::Resident>;
}

impl<T: crate::resident::Element, S: Data<Elem = T>> ToGpu for ArrayBase<S, Ix1> {
    type Resident = crate::GpuVector<'static, T>;
    fn to_gpu(&self) -> Result<Self::Resident> {
        Context::shared()?.upload_vector(self)
    }
}

impl<T: crate::resident::Element, S: Data<Elem = T>> ToGpu for ArrayBase<S, Ix2> {
    type Resident = crate::GpuMatrix<'static, T>;
    fn to_gpu(&self) -> Result<Self::Resident> {
        Context::shared()?.upload_matrix(self)
    }
}

impl<T: crate::resident::Element, S: Data<Elem = T>> ToGpu for ArrayBase<S, Ix3> {
    type Resident = crate::GpuBatch<'static, T>;
    fn to_gpu(&self) -> Result<Self::Resident> {
        Context::shared()?.upload_batch(self)
    }
}
