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

use ndarray::{Array1, Array2, Array3, ArrayBase, Data, DataMut, Ix1, Ix2, Ix3};

use crate::error::Result;
use crate::flags::{Diag, Side, Transpose, Uplo};
use crate::layout::{BatchMut, BatchRef, MatMut, MatRef, VecMut, VecRef};
use crate::Context;
use crate::{blas, resident};

mod resident_forms;

/// A new zero matrix for a routine's output, after checking that its size is representable
/// and fits the shared context's device (so that an absurd shape, for example the product of
/// 2^32×1 and 1×2^32 broadcast views, is a typed error before any allocation).
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

/// A new zero batch of matrices for a routine's output, after the checks of [`zeros2_of`].
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

/// A new zero vector for a routine's output, after the checks of [`zeros2_of`].
fn zeros1<A: bytemuck::Zeroable + Copy + Send + Sync>(
    routine: &'static str,
    len: usize,
) -> Result<Array1<A>> {
    crate::layout::check_fits::<A>(Context::shared()?, routine, "y", len)?;
    let data = crate::transfer::zeros_vec(len).ok_or(crate::Error::OutOfHostMemory {
        routine,
        arg: "y",
        bytes: (len as u64).saturating_mul(std::mem::size_of::<A>() as u64),
    })?;
    Ok(Array1::from_vec(data))
}

/// An owned copy of an operand that the routine then updates in place, after the checks of
/// [`zeros2_of`] (a broadcast view may have far more elements than memory).
fn owned<A: Clone, S: Data<Elem = A>, D: ndarray::Dimension>(
    routine: &'static str,
    a: &ArrayBase<S, D>,
) -> Result<ndarray::Array<A, D>> {
    crate::layout::check_fits::<A>(Context::shared()?, routine, "output", a.len())?;
    Ok(a.to_owned())
}

/// Level 1 methods on 1-D `f32` **and** `f64` arrays (x is `self`): the `s` routines on f32
/// arrays, the `d` routines on f64 ones, through one generic impl over [`Float`].
///
/// ```
/// use ndarray::array;
/// use wgblas::prelude::*;
/// # if !wgblas::Context::shared()?.native_f64() { return Ok(()); }
/// let x = array![3.0f64, -4.0];
/// assert_eq!(x.gpu_nrm2()?, 5.0);                      // dnrm2
/// assert_eq!(x.gpu_dot(&array![1.0, 1.0])?, -1.0);     // ddot
/// assert_eq!(x.gpu_iamax()?, 1);                       // idamax
/// assert_eq!(array![3.0f32, -4.0].gpu_asum()?, 7.0);   // sasum
/// # Ok::<(), wgblas::Error>(())
/// ```
pub trait Level1Ext<A: Float> {
    /// A copy of `x` made on the device (a new contiguous array). BLAS `scopy` / `dcopy`; see
    /// [`blas::scopy`] / [`blas::dcopy`].
    ///
    /// # Errors
    /// As [`blas::scopy`] / [`blas::dcopy`].
    fn gpu_copy(&self) -> Result<Array1<A>>;

    /// `y ← x` (x is `self`). BLAS `scopy` / `dcopy`; see [`blas::scopy`] / [`blas::dcopy`].
    ///
    /// # Errors
    /// As [`blas::scopy`] / [`blas::dcopy`]; on error `y` is unchanged.
    fn gpu_copy_inplace<S: DataMut<Elem = A>>(&self, y: &mut ArrayBase<S, Ix1>) -> Result<()>;

    /// `alpha·x` as a new array. BLAS `sscal` / `dscal`; see [`blas::sscal`] / [`blas::dscal`] (in
    /// place: [`Level1MutExt::gpu_scal_inplace`]).
    ///
    /// # Errors
    /// As [`blas::sscal`] / [`blas::dscal`].
    fn gpu_scal(&self, alpha: A) -> Result<Array1<A>>;

    /// `‖x‖₂`, without overflow or underflow. BLAS `snrm2` / `dnrm2`; see [`blas::snrm2`] /
    /// [`blas::dnrm2`].
    ///
    /// # Errors
    /// As [`blas::snrm2`] / [`blas::dnrm2`].
    fn gpu_nrm2(&self) -> Result<A>;

    /// The rotated pair `(c·x + s·y, c·y − s·x)` as new arrays (x is `self`). BLAS `srot` / `drot`;
    /// see [`blas::srot`] / [`blas::drot`] (in place: [`Level1MutExt::gpu_rot_inplace`]).
    ///
    /// # Errors
    /// As [`blas::srot`] / [`blas::drot`].
    fn gpu_rot<S: Data<Elem = A>>(
        &self,
        y: &ArrayBase<S, Ix1>,
        c: A,
        s: A,
    ) -> Result<(Array1<A>, Array1<A>)>;

    /// The pair `H·(x, y)` of the modified Givens transformation `param` as new arrays (x is
    /// `self`). BLAS `srotm` / `drotm`; see [`blas::srotm`] / [`blas::drotm`] (in place:
    /// [`Level1MutExt::gpu_rotm_inplace`]).
    ///
    /// # Errors
    /// As [`blas::srotm`] / [`blas::drotm`].
    fn gpu_rotm<S: Data<Elem = A>>(
        &self,
        y: &ArrayBase<S, Ix1>,
        param: [A; 5],
    ) -> Result<(Array1<A>, Array1<A>)>;

    /// `xᵀ·y`. BLAS `sdot` / `ddot`; see [`blas::sdot`] / [`blas::ddot`].
    ///
    /// # Errors
    /// As the BLAS routine, or [`Error::NoAdapter`](crate::Error::NoAdapter).
    fn gpu_dot<S: Data<Elem = A>>(&self, y: &ArrayBase<S, Ix1>) -> Result<A>;

    /// `alpha·x + y` as a new array. BLAS `saxpy` / `daxpy`; see [`blas::saxpy`] /
    /// [`blas::daxpy`].
    ///
    /// # Errors
    /// As the BLAS routine.
    fn gpu_axpy<S: Data<Elem = A>>(&self, alpha: A, y: &ArrayBase<S, Ix1>) -> Result<Array1<A>>;

    /// `y ← alpha·x + y`. BLAS `saxpy` / `daxpy`; see [`blas::saxpy`] / [`blas::daxpy`].
    ///
    /// # Errors
    /// As the BLAS routine; on error `y` is unchanged.
    fn gpu_axpy_inplace<S: DataMut<Elem = A>>(
        &self,
        alpha: A,
        y: &mut ArrayBase<S, Ix1>,
    ) -> Result<()>;

    /// 0-based index of the first element of largest magnitude (the first NaN, if any). BLAS
    /// `isamax` / `idamax`; see [`blas::isamax`] / [`blas::idamax`] (on f64 arrays: native f64
    /// where the adapter has it, an exact integer fallback elsewhere).
    ///
    /// # Errors
    /// As the BLAS routine; in particular [`Error::InvalidArgument`](crate::Error::InvalidArgument)
    /// for an empty vector.
    fn gpu_iamax(&self) -> Result<usize>;

    /// `Σ |x_i|`. BLAS `sasum` / `dasum`; see [`blas::sasum`] / [`blas::dasum`] (on f64 arrays:
    /// native f64 where the adapter has it, an exact extended-precision fallback elsewhere).
    ///
    /// # Errors
    /// As the BLAS routine.
    fn gpu_asum(&self) -> Result<A>;
}

impl<A: Float, T: Data<Elem = A>> Level1Ext<A> for ArrayBase<T, Ix1> {
    fn gpu_copy(&self) -> Result<Array1<A>> {
        let mut y = zeros1::<A>(A::name("copy"), self.len())?;
        A::copy(Context::shared()?, self.view(), y.view_mut())?;
        Ok(y)
    }

    fn gpu_copy_inplace<S: DataMut<Elem = A>>(&self, y: &mut ArrayBase<S, Ix1>) -> Result<()> {
        A::copy(Context::shared()?, self.view(), y.view_mut())
    }

    fn gpu_scal(&self, alpha: A) -> Result<Array1<A>> {
        let mut x = owned(A::name("scal"), self)?;
        A::scal(Context::shared()?, alpha, x.view_mut())?;
        Ok(x)
    }

    fn gpu_nrm2(&self) -> Result<A> {
        A::nrm2(Context::shared()?, self.view())
    }

    fn gpu_rot<S: Data<Elem = A>>(
        &self,
        y: &ArrayBase<S, Ix1>,
        c: A,
        s: A,
    ) -> Result<(Array1<A>, Array1<A>)> {
        let (mut x, mut y) = (owned(A::name("rot"), self)?, owned(A::name("rot"), y)?);
        A::rot(Context::shared()?, x.view_mut(), y.view_mut(), c, s)?;
        Ok((x, y))
    }

    fn gpu_rotm<S: Data<Elem = A>>(
        &self,
        y: &ArrayBase<S, Ix1>,
        param: [A; 5],
    ) -> Result<(Array1<A>, Array1<A>)> {
        let (mut x, mut y) = (owned(A::name("rotm"), self)?, owned(A::name("rotm"), y)?);
        A::rotm(Context::shared()?, x.view_mut(), y.view_mut(), param)?;
        Ok((x, y))
    }

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

    fn gpu_iamax(&self) -> Result<usize> {
        A::iamax(Context::shared()?, self.view())
    }

    fn gpu_asum(&self) -> Result<A> {
        A::asum(Context::shared()?, self.view())
    }
}

/// Level 1 methods that write their receiver, on mutable 1-D `f32` and `f64` arrays (`x` is
/// `self`): the `s` routines on f32 arrays, the `d` routines on f64 ones.
pub trait Level1MutExt<A: Float> {
    /// `x ↔ y`. BLAS `sswap` / `dswap`; see [`blas::sswap`] / [`blas::dswap`].
    ///
    /// # Errors
    /// As [`blas::sswap`] / [`blas::dswap`]; on error `x` and `y` are unchanged.
    fn gpu_swap<S: DataMut<Elem = A>>(&mut self, y: &mut ArrayBase<S, Ix1>) -> Result<()>;

    /// `x ← alpha·x`. BLAS `sscal` / `dscal`; see [`blas::sscal`] / [`blas::dscal`].
    ///
    /// # Errors
    /// As [`blas::sscal`] / [`blas::dscal`]; on error `x` is unchanged.
    fn gpu_scal_inplace(&mut self, alpha: A) -> Result<()>;

    /// `(x, y) ← (c·x + s·y, c·y − s·x)`. BLAS `srot` / `drot`; see [`blas::srot`] /
    /// [`blas::drot`].
    ///
    /// # Errors
    /// As [`blas::srot`] / [`blas::drot`]; on error `x` and `y` are unchanged.
    fn gpu_rot_inplace<S: DataMut<Elem = A>>(
        &mut self,
        y: &mut ArrayBase<S, Ix1>,
        c: A,
        s: A,
    ) -> Result<()>;

    /// `(x, y) ← H·(x, y)`, `H` decoded from `param`. BLAS `srotm` / `drotm`; see [`blas::srotm`] /
    /// [`blas::drotm`].
    ///
    /// # Errors
    /// As [`blas::srotm`] / [`blas::drotm`]; on error `x` and `y` are unchanged.
    fn gpu_rotm_inplace<S: DataMut<Elem = A>>(
        &mut self,
        y: &mut ArrayBase<S, Ix1>,
        param: [A; 5],
    ) -> Result<()>;
}

impl<A: Float, T: DataMut<Elem = A>> Level1MutExt<A> for ArrayBase<T, Ix1> {
    fn gpu_swap<S: DataMut<Elem = A>>(&mut self, y: &mut ArrayBase<S, Ix1>) -> Result<()> {
        A::swap(Context::shared()?, self.view_mut(), y.view_mut())
    }

    fn gpu_scal_inplace(&mut self, alpha: A) -> Result<()> {
        A::scal(Context::shared()?, alpha, self.view_mut())
    }

    fn gpu_rot_inplace<S: DataMut<Elem = A>>(
        &mut self,
        y: &mut ArrayBase<S, Ix1>,
        c: A,
        s: A,
    ) -> Result<()> {
        A::rot(Context::shared()?, self.view_mut(), y.view_mut(), c, s)
    }

    fn gpu_rotm_inplace<S: DataMut<Elem = A>>(
        &mut self,
        y: &mut ArrayBase<S, Ix1>,
        param: [A; 5],
    ) -> Result<()> {
        A::rotm(Context::shared()?, self.view_mut(), y.view_mut(), param)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
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
    fn gpu_gemv<S: Data<Elem = A>>(&self, x: &ArrayBase<S, Ix1>) -> Result<Array1<A>>;

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
    ) -> Result<()>;

    /// The solution `x` of `op(A)·x = b`, `A` triangular, as a new array. BLAS `strsv` / `dtrsv`;
    /// see [`blas::strsv`] / [`blas::dtrsv`].
    ///
    /// # Errors
    /// As [`blas::strsv`] / [`blas::dtrsv`].
    fn gpu_trsv<S: Data<Elem = A>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<A>>;

    /// `x ← op(A)⁻¹·x`, `A` triangular. BLAS `strsv` / `dtrsv`; see [`blas::strsv`] /
    /// [`blas::dtrsv`].
    ///
    /// # Errors
    /// As [`blas::strsv`] / [`blas::dtrsv`]; on error `x` is unchanged.
    fn gpu_trsv_inplace<S: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        x: &mut ArrayBase<S, Ix1>,
    ) -> Result<()>;

    /// `A·x` as a new array, `A` symmetric stored in its triangle `uplo` (the other triangle is
    /// never read). BLAS `ssymv` / `dsymv` with `alpha = 1`, `beta = 0`; see [`blas::ssymv`] /
    /// [`blas::dsymv`].
    ///
    /// # Errors
    /// As [`blas::ssymv`] / [`blas::dsymv`].
    fn gpu_symv<S: Data<Elem = A>>(&self, uplo: Uplo, x: &ArrayBase<S, Ix1>) -> Result<Array1<A>>;

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
    ) -> Result<()>;

    /// `op(A)·x` as a new array, `A` triangular. BLAS `strmv` / `dtrmv`; see [`blas::strmv`] /
    /// [`blas::dtrmv`].
    ///
    /// # Errors
    /// As [`blas::strmv`] / [`blas::dtrmv`].
    fn gpu_trmv<S: Data<Elem = A>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        x: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<A>>;

    /// `x ← op(A)·x`, `A` triangular. BLAS `strmv` / `dtrmv`; see [`blas::strmv`] /
    /// [`blas::dtrmv`].
    ///
    /// # Errors
    /// As [`blas::strmv`] / [`blas::dtrmv`]; on error `x` is unchanged.
    fn gpu_trmv_inplace<S: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        x: &mut ArrayBase<S, Ix1>,
    ) -> Result<()>;
}

impl<A: Float, T: Data<Elem = A>> Level2Ext<A> for ArrayBase<T, Ix2> {
    fn gpu_gemv<S: Data<Elem = A>>(&self, x: &ArrayBase<S, Ix1>) -> Result<Array1<A>> {
        let mut y = zeros1::<A>(A::name("gemv"), self.nrows())?;
        A::gemv(
            Context::shared()?,
            Transpose::No,
            A::ONE,
            self.view(),
            x.view(),
            A::ZERO,
            y.view_mut(),
        )?;
        Ok(y)
    }

    fn gpu_gemv_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        alpha: A,
        x: &ArrayBase<S, Ix1>,
        beta: A,
        y: &mut ArrayBase<S2, Ix1>,
    ) -> Result<()> {
        A::gemv(
            Context::shared()?,
            Transpose::No,
            alpha,
            self.view(),
            x.view(),
            beta,
            y.view_mut(),
        )
    }

    fn gpu_trsv<S: Data<Elem = A>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<A>> {
        let mut x = owned(A::name("trsv"), b)?;
        A::trsv(
            Context::shared()?,
            uplo,
            trans,
            diag,
            self.view(),
            x.view_mut(),
        )?;
        Ok(x)
    }

    fn gpu_trsv_inplace<S: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        x: &mut ArrayBase<S, Ix1>,
    ) -> Result<()> {
        A::trsv(
            Context::shared()?,
            uplo,
            trans,
            diag,
            self.view(),
            x.view_mut(),
        )
    }

    fn gpu_symv<S: Data<Elem = A>>(&self, uplo: Uplo, x: &ArrayBase<S, Ix1>) -> Result<Array1<A>> {
        let mut y = zeros1::<A>(A::name("symv"), self.nrows())?;
        A::symv(
            Context::shared()?,
            uplo,
            A::ONE,
            self.view(),
            x.view(),
            A::ZERO,
            y.view_mut(),
        )?;
        Ok(y)
    }

    fn gpu_symv_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        x: &ArrayBase<S, Ix1>,
        beta: A,
        y: &mut ArrayBase<S2, Ix1>,
    ) -> Result<()> {
        A::symv(
            Context::shared()?,
            uplo,
            alpha,
            self.view(),
            x.view(),
            beta,
            y.view_mut(),
        )
    }

    fn gpu_trmv<S: Data<Elem = A>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        x: &ArrayBase<S, Ix1>,
    ) -> Result<Array1<A>> {
        let mut out = owned(A::name("trmv"), x)?;
        A::trmv(
            Context::shared()?,
            uplo,
            trans,
            diag,
            self.view(),
            out.view_mut(),
        )?;
        Ok(out)
    }

    fn gpu_trmv_inplace<S: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        x: &mut ArrayBase<S, Ix1>,
    ) -> Result<()> {
        A::trmv(
            Context::shared()?,
            uplo,
            trans,
            diag,
            self.view(),
            x.view_mut(),
        )
    }
}

/// The element types of the extension traits: `f32` (the `s` routines, `isamax`) and `f64`
/// (the `d` routines, `idamax`). Sealed. Each method is the BLAS-layer routine of that
/// precision (`Float::gemv` is [`blas::sgemv`] on f32, [`blas::dgemv`] on f64), so one generic
/// method of each extension trait serves both element types. The f64 routines need an adapter
/// with `SHADER_F64` ([`Error::Unsupported`](crate::Error::Unsupported) otherwise), except
/// `idamax` and `dasum`, which have exact fallbacks.
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

    /// The BLAS name of the routine `root` in this precision (`"gemv"` → `"sgemv"` or
    /// `"dgemv"`), for errors; `root` itself for a name that is no routine.
    fn name(root: &'static str) -> &'static str;

    routine_table!(float_routines, @decl);
}

/// The table of [`Float`]'s routine methods, written once: each line is a method, its
/// arguments after `ctx`, its result, and the f32 and f64 routines it forwards to. `$cb` is
/// called with `$mode` and the table ([`float_routines`] declares the methods in the trait and
/// defines them in each impl).
macro_rules! routine_table {
    ($cb:ident, $($mode:tt)*) => {
        $cb! { $($mode)*
            fn iamax<'a>(x: impl Into<VecRef<'a, Self>>) -> Result<usize>
                = blas::isamax | blas::idamax;
            fn asum<'a>(x: impl Into<VecRef<'a, Self>>) -> Result<Self>
                = blas::sasum | blas::dasum;
            fn nrm2<'a>(x: impl Into<VecRef<'a, Self>>) -> Result<Self>
                = blas::snrm2 | blas::dnrm2;
            fn dot<'a>(x: impl Into<VecRef<'a, Self>>, y: impl Into<VecRef<'a, Self>>)
                -> Result<Self> = blas::sdot | blas::ddot;
            fn dot_kept<'a>(x: impl Into<VecRef<'a, Self>>, y: impl Into<VecRef<'a, Self>>)
                -> Result<crate::GpuScalar<'_, Self>> = resident::sdot | resident::ddot;
            fn axpy<'a>(alpha: Self, x: impl Into<VecRef<'a, Self>>, y: impl Into<VecMut<'a, Self>>)
                -> Result<()> = blas::saxpy | blas::daxpy;
            fn copy<'a>(x: impl Into<VecRef<'a, Self>>, y: impl Into<VecMut<'a, Self>>)
                -> Result<()> = blas::scopy | blas::dcopy;
            fn scal<'a>(alpha: Self, x: impl Into<VecMut<'a, Self>>) -> Result<()>
                = blas::sscal | blas::dscal;
            fn swap<'a>(x: impl Into<VecMut<'a, Self>>, y: impl Into<VecMut<'a, Self>>)
                -> Result<()> = blas::sswap | blas::dswap;
            fn rot<'a>(x: impl Into<VecMut<'a, Self>>, y: impl Into<VecMut<'a, Self>>, c: Self,
                s: Self) -> Result<()> = blas::srot | blas::drot;
            fn rotm<'a>(x: impl Into<VecMut<'a, Self>>, y: impl Into<VecMut<'a, Self>>,
                param: [Self; 5]) -> Result<()> = blas::srotm | blas::drotm;
            fn gemv<'a>(trans: Transpose, alpha: Self, a: impl Into<MatRef<'a, Self>>,
                x: impl Into<VecRef<'a, Self>>, beta: Self, y: impl Into<VecMut<'a, Self>>)
                -> Result<()> = blas::sgemv | blas::dgemv;
            fn symv<'a>(uplo: Uplo, alpha: Self, a: impl Into<MatRef<'a, Self>>,
                x: impl Into<VecRef<'a, Self>>, beta: Self, y: impl Into<VecMut<'a, Self>>)
                -> Result<()> = blas::ssymv | blas::dsymv;
            fn trmv<'a>(uplo: Uplo, trans: Transpose, diag: Diag, a: impl Into<MatRef<'a, Self>>,
                x: impl Into<VecMut<'a, Self>>) -> Result<()> = blas::strmv | blas::dtrmv;
            fn trsv<'a>(uplo: Uplo, trans: Transpose, diag: Diag, a: impl Into<MatRef<'a, Self>>,
                x: impl Into<VecMut<'a, Self>>) -> Result<()> = blas::strsv | blas::dtrsv;
            fn ger<'a>(alpha: Self, x: impl Into<VecRef<'a, Self>>, y: impl Into<VecRef<'a, Self>>,
                a: impl Into<MatMut<'a, Self>>) -> Result<()> = blas::sger | blas::dger;
            fn syr<'a>(uplo: Uplo, alpha: Self, x: impl Into<VecRef<'a, Self>>,
                a: impl Into<MatMut<'a, Self>>) -> Result<()> = blas::ssyr | blas::dsyr;
            fn syr2<'a>(uplo: Uplo, alpha: Self, x: impl Into<VecRef<'a, Self>>,
                y: impl Into<VecRef<'a, Self>>, a: impl Into<MatMut<'a, Self>>) -> Result<()>
                = blas::ssyr2 | blas::dsyr2;
            fn gemm<'a>(transa: Transpose, transb: Transpose, alpha: Self,
                a: impl Into<MatRef<'a, Self>>, b: impl Into<MatRef<'a, Self>>, beta: Self,
                c: impl Into<MatMut<'a, Self>>) -> Result<()> = blas::sgemm | blas::dgemm;
            fn gemm_batched<'a>(transa: Transpose, transb: Transpose, alpha: Self,
                a: impl Into<BatchRef<'a, Self>>, b: impl Into<BatchRef<'a, Self>>, beta: Self,
                c: impl Into<BatchMut<'a, Self>>) -> Result<()>
                = blas::sgemm_batched | blas::dgemm_batched;
            fn gemmtr<'a>(uplo: Uplo, transa: Transpose, transb: Transpose, alpha: Self,
                a: impl Into<MatRef<'a, Self>>, b: impl Into<MatRef<'a, Self>>, beta: Self,
                c: impl Into<MatMut<'a, Self>>) -> Result<()> = blas::sgemmtr | blas::dgemmtr;
            fn syrk<'a>(uplo: Uplo, trans: Transpose, alpha: Self, a: impl Into<MatRef<'a, Self>>,
                beta: Self, c: impl Into<MatMut<'a, Self>>) -> Result<()>
                = blas::ssyrk | blas::dsyrk;
            fn syr2k<'a>(uplo: Uplo, trans: Transpose, alpha: Self,
                a: impl Into<MatRef<'a, Self>>, b: impl Into<MatRef<'a, Self>>, beta: Self,
                c: impl Into<MatMut<'a, Self>>) -> Result<()> = blas::ssyr2k | blas::dsyr2k;
            fn symm<'a>(side: Side, uplo: Uplo, alpha: Self, a: impl Into<MatRef<'a, Self>>,
                b: impl Into<MatRef<'a, Self>>, beta: Self, c: impl Into<MatMut<'a, Self>>)
                -> Result<()> = blas::ssymm | blas::dsymm;
            fn trmm<'a>(side: Side, uplo: Uplo, transa: Transpose, diag: Diag, alpha: Self,
                a: impl Into<MatRef<'a, Self>>, b: impl Into<MatMut<'a, Self>>) -> Result<()>
                = blas::strmm | blas::dtrmm;
            fn trsm<'a>(side: Side, uplo: Uplo, transa: Transpose, diag: Diag, alpha: Self,
                a: impl Into<MatRef<'a, Self>>, b: impl Into<MatMut<'a, Self>>) -> Result<()>
                = blas::strsm | blas::dtrsm;
        }
    };
}
use routine_table;

/// The methods of [`routine_table`]: declared in the trait (`@decl`), or defined in the impl
/// for f32 (`@impl s`) or f64 (`@impl d`), each forwarding `ctx` and its arguments, unchanged,
/// to the routine of that precision.
macro_rules! float_routines {
    (@decl $(fn $name:ident<$lt:lifetime>($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty
        = $sm:ident::$s:ident | $dm:ident::$d:ident;)*) => {
        $(
            #[doc = concat!("[`", stringify!($sm), "::", stringify!($s), "`] / [`",
                stringify!($dm), "::", stringify!($d), "`].\n\n# Errors\nAs the routine.")]
            #[allow(clippy::too_many_arguments)]
            fn $name<$lt>(ctx: &Context, $($arg: $ty),*) -> $ret;
        )*
    };
    (@impl $p:ident $(fn $name:ident<$lt:lifetime>($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty
        = $sm:ident::$s:ident | $dm:ident::$d:ident;)*) => {
        $(
            fn $name<$lt>(ctx: &Context, $($arg: $ty),*) -> $ret {
                float_routines!(@pick $p $sm::$s, $dm::$d)(ctx, $($arg),*)
            }
        )*
    };
    (@name $p:ident $root:ident $(fn $name:ident<$lt:lifetime>($($arg:ident: $ty:ty),* $(,)?)
        -> $ret:ty = $sm:ident::$s:ident | $dm:ident::$d:ident;)*) => {
        match $root {
            $(stringify!($name) => concat!(stringify!($p), stringify!($name)),)*
            _ => $root,
        }
    };
    (@pick s $s:path, $d:path) => { $s };
    (@pick d $s:path, $d:path) => { $d };
}
use float_routines;

/// One impl of [`Float`] per element type: the constants, [`Float::name`], and the routine
/// methods of [`routine_table`] forwarding to the routines of precision `$p` (`s` or `d`).
macro_rules! float_impl {
    ($t:ty, $p:ident, $iamax:literal) => {
        impl Float for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            const GEMM: &'static str = concat!(stringify!($p), "gemm");
            const GEMM_BATCHED: &'static str = concat!(stringify!($p), "gemm_batched");
            const AXPY: &'static str = concat!(stringify!($p), "axpy");

            fn name(root: &'static str) -> &'static str {
                match root {
                    "iamax" => $iamax,
                    other => routine_table!(float_routines, @name $p other),
                }
            }

            routine_table!(float_routines, @impl $p);
        }
    };
}

float_impl!(f32, s, "isamax");
float_impl!(f64, d, "idamax");

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

/// Level 3 methods on 2-D `f32` **and** `f64` arrays (the matrix `A` is `self`): the `s`
/// routines on f32 arrays, the `d` routines on f64 ones; the plain products (`gpu_gemm`) are in
/// [`GemmExt`].
pub trait Level3Ext<A: Float> {
    /// The triangle `uplo` of `A·B` as a new (C-order) n×n array, zeros in the other triangle. BLAS
    /// `sgemmtr` / `dgemmtr` with `alpha = 1`, `beta = 0`; see [`blas::sgemmtr`] /
    /// [`blas::dgemmtr`].
    ///
    /// # Errors
    /// As [`blas::sgemmtr`] / [`blas::dgemmtr`].
    fn gpu_gemmtr<S: Data<Elem = A>>(&self, uplo: Uplo, b: &ArrayBase<S, Ix2>)
        -> Result<Array2<A>>;

    /// `C ← alpha·A·B + beta·C` on the triangle `uplo` of `C` only. BLAS `sgemmtr` / `dgemmtr`; see
    /// [`blas::sgemmtr`] / [`blas::dgemmtr`].
    ///
    /// # Errors
    /// As [`blas::sgemmtr`] / [`blas::dgemmtr`]; on error `c` is unchanged.
    fn gpu_gemmtr_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;

    /// The triangle `uplo` of `A·Aᵀ` as a new (C-order) n×n array, zeros in the other triangle
    /// (`a.t().gpu_syrk(..)` gives `AᵀA`). BLAS `ssyrk` / `dsyrk` with `alpha = 1`, `beta = 0`; see
    /// [`blas::ssyrk`] / [`blas::dsyrk`].
    ///
    /// # Errors
    /// As [`blas::ssyrk`] / [`blas::dsyrk`].
    fn gpu_syrk(&self, uplo: Uplo) -> Result<Array2<A>>;

    /// `C ← alpha·A·Aᵀ + beta·C` on the triangle `uplo` of `C`. BLAS `ssyrk` / `dsyrk`; see
    /// [`blas::ssyrk`] / [`blas::dsyrk`].
    ///
    /// # Errors
    /// As [`blas::ssyrk`] / [`blas::dsyrk`]; on error `c` is unchanged.
    fn gpu_syrk_inplace<S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;

    /// The triangle `uplo` of `A·Bᵀ + B·Aᵀ` as a new (C-order) n×n array, zeros in the other
    /// triangle. BLAS `ssyr2k` / `dsyr2k` with `alpha = 1`, `beta = 0`; see [`blas::ssyr2k`] /
    /// [`blas::dsyr2k`].
    ///
    /// # Errors
    /// As [`blas::ssyr2k`] / [`blas::dsyr2k`].
    fn gpu_syr2k<S: Data<Elem = A>>(&self, uplo: Uplo, b: &ArrayBase<S, Ix2>) -> Result<Array2<A>>;

    /// `C ← alpha·A·Bᵀ + alpha·B·Aᵀ + beta·C` on the triangle `uplo` of `C`. BLAS `ssyr2k` /
    /// `dsyr2k`; see [`blas::ssyr2k`] / [`blas::dsyr2k`].
    ///
    /// # Errors
    /// As [`blas::ssyr2k`] / [`blas::dsyr2k`]; on error `c` is unchanged.
    fn gpu_syr2k_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;

    /// `A·B` (`Side::Left`) or `B·A` (`Side::Right`) as a new (C-order) array, `A` (`self`)
    /// symmetric and read from its triangle `uplo` only. BLAS `ssymm` / `dsymm` with `alpha = 1`,
    /// `beta = 0`; see [`blas::ssymm`] / [`blas::dsymm`].
    ///
    /// # Errors
    /// As [`blas::ssymm`] / [`blas::dsymm`].
    fn gpu_symm<S: Data<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<A>>;

    /// `C ← alpha·A·B + beta·C` (Left) or `C ← alpha·B·A + beta·C` (Right), `A` symmetric.
    /// BLAS `ssymm` / `dsymm`; see [`blas::ssymm`] / [`blas::dsymm`].
    ///
    /// # Errors
    /// As [`blas::ssymm`] / [`blas::dsymm`]; on error `c` is unchanged.
    #[allow(clippy::too_many_arguments)]
    fn gpu_symm_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()>;

    /// `op(A)·B` (`Side::Left`) or `B·op(A)` (`Side::Right`) as a new array, `A` (`self`)
    /// triangular. BLAS `strmm` / `dtrmm` with `alpha = 1`; see [`blas::strmm`] / [`blas::dtrmm`].
    ///
    /// # Errors
    /// As [`blas::strmm`] / [`blas::dtrmm`].
    fn gpu_trmm<S: Data<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<A>>;

    /// `B ← alpha·op(A)·B` (Left) or `B ← alpha·B·op(A)` (Right), `A` triangular. BLAS
    /// `strmm`; see [`blas::strmm`] / [`blas::dtrmm`].
    ///
    /// # Errors
    /// As [`blas::strmm`] / [`blas::dtrmm`]; on error `b` is unchanged.
    fn gpu_trmm_inplace<S: DataMut<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        alpha: A,
        b: &mut ArrayBase<S, Ix2>,
    ) -> Result<()>;

    /// The solution `X` of `op(A)·X = B` (`Side::Left`) or `X·op(A) = B` (`Side::Right`) as a new
    /// array, `A` (`self`) triangular. BLAS `strsm` / `dtrsm` with `alpha = 1`; see [`blas::strsm`]
    /// / [`blas::dtrsm`].
    ///
    /// # Errors
    /// As [`blas::strsm`] / [`blas::dtrsm`].
    fn gpu_trsm<S: Data<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<A>>;

    /// `B ← X` solving `op(A)·X = alpha·B` (Left) or `X·op(A) = alpha·B` (Right), `A`
    /// triangular. BLAS `strsm` / `dtrsm`; see [`blas::strsm`] / [`blas::dtrsm`].
    ///
    /// # Errors
    /// As [`blas::strsm`] / [`blas::dtrsm`]; on error `b` is unchanged.
    fn gpu_trsm_inplace<S: DataMut<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        alpha: A,
        b: &mut ArrayBase<S, Ix2>,
    ) -> Result<()>;
}

impl<A: Float, T: Data<Elem = A>> Level3Ext<A> for ArrayBase<T, Ix2> {
    fn gpu_gemmtr<S: Data<Elem = A>>(
        &self,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<A>> {
        // C is n×n with n = rows of A: B must have n columns (named here, since the caller
        // passes no C that a later check could name).
        if b.ncols() != self.nrows() {
            return Err(crate::Error::DimensionMismatch {
                routine: A::name("gemmtr"),
                arg: "b",
                detail: format!(
                    "columns of B must equal the rows of A (C is n×n): expected {}, found {}",
                    self.nrows(),
                    b.ncols()
                ),
            });
        }
        let mut c = zeros2_of::<A>(A::name("gemmtr"), (self.nrows(), b.ncols()))?;
        self.gpu_gemmtr_inplace(uplo, A::ONE, b, A::ZERO, &mut c)?;
        Ok(c)
    }

    fn gpu_gemmtr_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        A::gemmtr(
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

    fn gpu_syrk(&self, uplo: Uplo) -> Result<Array2<A>> {
        let mut c = zeros2_of::<A>(A::name("syrk"), (self.nrows(), self.nrows()))?;
        self.gpu_syrk_inplace(uplo, A::ONE, A::ZERO, &mut c)?;
        Ok(c)
    }

    fn gpu_syrk_inplace<S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        A::syrk(
            ctx,
            uplo,
            Transpose::No,
            alpha,
            self.view(),
            beta,
            c.view_mut(),
        )
    }

    fn gpu_syr2k<S: Data<Elem = A>>(&self, uplo: Uplo, b: &ArrayBase<S, Ix2>) -> Result<Array2<A>> {
        let mut c = zeros2_of::<A>(A::name("syr2k"), (self.nrows(), self.nrows()))?;
        self.gpu_syr2k_inplace(uplo, A::ONE, b, A::ZERO, &mut c)?;
        Ok(c)
    }

    fn gpu_syr2k_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        A::syr2k(
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

    fn gpu_symm<S: Data<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<A>> {
        let mut c = zeros2_of::<A>(A::name("symm"), b.dim())?;
        self.gpu_symm_inplace(side, uplo, A::ONE, b, A::ZERO, &mut c)?;
        Ok(c)
    }

    fn gpu_symm_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        alpha: A,
        b: &ArrayBase<S, Ix2>,
        beta: A,
        c: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        A::symm(
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

    fn gpu_trmm<S: Data<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<A>> {
        let mut out = owned(A::name("trmm"), b)?;
        self.gpu_trmm_inplace(side, uplo, trans, diag, A::ONE, &mut out)?;
        Ok(out)
    }

    fn gpu_trmm_inplace<S: DataMut<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        alpha: A,
        b: &mut ArrayBase<S, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        A::trmm(
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

    fn gpu_trsm<S: Data<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        b: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<A>> {
        let mut x = owned(A::name("trsm"), b)?;
        self.gpu_trsm_inplace(side, uplo, trans, diag, A::ONE, &mut x)?;
        Ok(x)
    }

    fn gpu_trsm_inplace<S: DataMut<Elem = A>>(
        &self,
        side: Side,
        uplo: Uplo,
        trans: Transpose,
        diag: Diag,
        alpha: A,
        b: &mut ArrayBase<S, Ix2>,
    ) -> Result<()> {
        let ctx = Context::shared()?;
        A::trsm(
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
    ) -> Result<Array2<A>>;

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
    ) -> Result<()>;

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
    ) -> Result<Array2<A>>;

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
    ) -> Result<()>;

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
    ) -> Result<Array2<A>>;

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
    ) -> Result<()>;
}

impl<A: Float, T: Data<Elem = A>> Level2VecExt<A> for ArrayBase<T, Ix1> {
    fn gpu_ger<S: Data<Elem = A>, S2: Data<Elem = A>>(
        &self,
        alpha: A,
        y: &ArrayBase<S, Ix1>,
        a: &ArrayBase<S2, Ix2>,
    ) -> Result<Array2<A>> {
        let mut out = owned(A::name("ger"), a)?;
        A::ger(
            Context::shared()?,
            alpha,
            self.view(),
            y.view(),
            out.view_mut(),
        )?;
        Ok(out)
    }

    fn gpu_ger_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        alpha: A,
        y: &ArrayBase<S, Ix1>,
        a: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        A::ger(
            Context::shared()?,
            alpha,
            self.view(),
            y.view(),
            a.view_mut(),
        )
    }

    fn gpu_syr<S: Data<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        a: &ArrayBase<S, Ix2>,
    ) -> Result<Array2<A>> {
        let mut out = owned(A::name("syr"), a)?;
        A::syr(Context::shared()?, uplo, alpha, self.view(), out.view_mut())?;
        Ok(out)
    }

    fn gpu_syr_inplace<S: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        a: &mut ArrayBase<S, Ix2>,
    ) -> Result<()> {
        A::syr(Context::shared()?, uplo, alpha, self.view(), a.view_mut())
    }

    fn gpu_syr2<S: Data<Elem = A>, S2: Data<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        y: &ArrayBase<S, Ix1>,
        a: &ArrayBase<S2, Ix2>,
    ) -> Result<Array2<A>> {
        let mut out = owned(A::name("syr2"), a)?;
        A::syr2(
            Context::shared()?,
            uplo,
            alpha,
            self.view(),
            y.view(),
            out.view_mut(),
        )?;
        Ok(out)
    }

    fn gpu_syr2_inplace<S: Data<Elem = A>, S2: DataMut<Elem = A>>(
        &self,
        uplo: Uplo,
        alpha: A,
        y: &ArrayBase<S, Ix1>,
        a: &mut ArrayBase<S2, Ix2>,
    ) -> Result<()> {
        A::syr2(
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
