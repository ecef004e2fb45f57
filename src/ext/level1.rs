//! Level 1 extension traits: [`Level1Ext`] (x is `self`) and [`Level1MutExt`] (methods that
//! write `x`).

use ndarray::{Array1, ArrayBase, ArrayView1, ArrayViewMut1, Data, DataMut, Ix1};

use super::{owned, zeros1, Float};
#[cfg(doc)]
use crate::blas;
use crate::error::Result;
use crate::Context;

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
    fn gpu_copy(&self) -> Result<Array1<A>> {
        let mut y = zeros1::<A>(A::name("copy"), self.ext_view().len())?;
        self.gpu_copy_inplace(&mut y)?;
        Ok(y)
    }

    /// `y ← x` (x is `self`). BLAS `scopy` / `dcopy`; see [`blas::scopy`] / [`blas::dcopy`].
    ///
    /// # Errors
    /// As [`blas::scopy`] / [`blas::dcopy`]; on error `y` is unchanged.
    fn gpu_copy_inplace<S: DataMut<Elem = A>>(&self, y: &mut ArrayBase<S, Ix1>) -> Result<()> {
        A::copy(Context::shared()?, self.ext_view(), y.view_mut())
    }

    /// `alpha·x` as a new array. BLAS `sscal` / `dscal`; see [`blas::sscal`] / [`blas::dscal`] (in
    /// place: [`Level1MutExt::gpu_scal_inplace`]).
    ///
    /// # Errors
    /// As [`blas::sscal`] / [`blas::dscal`].
    fn gpu_scal(&self, alpha: A) -> Result<Array1<A>> {
        let mut x = owned(A::name("scal"), "x", &self.ext_view())?;
        x.gpu_scal_inplace(alpha)?;
        Ok(x)
    }

    /// `‖x‖₂`, without overflow or underflow. BLAS `snrm2` / `dnrm2`; see [`blas::snrm2`] /
    /// [`blas::dnrm2`].
    ///
    /// # Errors
    /// As [`blas::snrm2`] / [`blas::dnrm2`].
    fn gpu_nrm2(&self) -> Result<A> {
        A::nrm2(Context::shared()?, self.ext_view())
    }

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
    ) -> Result<(Array1<A>, Array1<A>)> {
        let (mut x, mut y) = (
            owned(A::name("rot"), "x", &self.ext_view())?,
            owned(A::name("rot"), "y", y)?,
        );
        x.gpu_rot_inplace(&mut y, c, s)?;
        Ok((x, y))
    }

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
    ) -> Result<(Array1<A>, Array1<A>)> {
        let (mut x, mut y) = (
            owned(A::name("rotm"), "x", &self.ext_view())?,
            owned(A::name("rotm"), "y", y)?,
        );
        x.gpu_rotm_inplace(&mut y, param)?;
        Ok((x, y))
    }

    /// `xᵀ·y`. BLAS `sdot` / `ddot`; see [`blas::sdot`] / [`blas::ddot`].
    ///
    /// # Errors
    /// As the BLAS routine, or [`Error::NoAdapter`](crate::Error::NoAdapter).
    fn gpu_dot<S: Data<Elem = A>>(&self, y: &ArrayBase<S, Ix1>) -> Result<A> {
        A::dot(Context::shared()?, self.ext_view(), y.view())
    }

    /// `alpha·x + y` as a new array. BLAS `saxpy` / `daxpy`; see [`blas::saxpy`] /
    /// [`blas::daxpy`].
    ///
    /// # Errors
    /// As the BLAS routine.
    fn gpu_axpy<S: Data<Elem = A>>(&self, alpha: A, y: &ArrayBase<S, Ix1>) -> Result<Array1<A>> {
        let mut out = owned(A::AXPY, "y", y)?;
        self.gpu_axpy_inplace(alpha, &mut out)?;
        Ok(out)
    }

    /// `y ← alpha·x + y`. BLAS `saxpy` / `daxpy`; see [`blas::saxpy`] / [`blas::daxpy`].
    ///
    /// # Errors
    /// As the BLAS routine; on error `y` is unchanged.
    fn gpu_axpy_inplace<S: DataMut<Elem = A>>(
        &self,
        alpha: A,
        y: &mut ArrayBase<S, Ix1>,
    ) -> Result<()> {
        A::axpy(Context::shared()?, alpha, self.ext_view(), y.view_mut())
    }

    /// 0-based index of the first element of largest magnitude (the first NaN, if any). BLAS
    /// `isamax` / `idamax`; see [`blas::isamax`] / [`blas::idamax`] (on f64 arrays: native f64
    /// where the adapter has it, an exact integer fallback elsewhere).
    ///
    /// # Errors
    /// As the BLAS routine; in particular [`Error::InvalidArgument`](crate::Error::InvalidArgument)
    /// for an empty vector.
    fn gpu_iamax(&self) -> Result<usize> {
        A::iamax(Context::shared()?, self.ext_view())
    }

    /// `Σ |x_i|`. BLAS `sasum` / `dasum`; see [`blas::sasum`] / [`blas::dasum`] (on f64 arrays:
    /// native f64 where the adapter has it, an exact extended-precision fallback elsewhere).
    ///
    /// # Errors
    /// As the BLAS routine.
    fn gpu_asum(&self) -> Result<A> {
        A::asum(Context::shared()?, self.ext_view())
    }

    /// The receiver as a view, through which every method above reaches its data.
    #[doc(hidden)]
    fn ext_view(&self) -> ArrayView1<'_, A>;
}

ext_view!(ref Level1Ext for Ix1: ArrayView1);

/// Level 1 methods that write their receiver, on mutable 1-D `f32` and `f64` arrays (`x` is
/// `self`): the `s` routines on f32 arrays, the `d` routines on f64 ones.
pub trait Level1MutExt<A: Float> {
    /// `x ↔ y`. BLAS `sswap` / `dswap`; see [`blas::sswap`] / [`blas::dswap`].
    ///
    /// # Errors
    /// As [`blas::sswap`] / [`blas::dswap`]; on error `x` and `y` are unchanged.
    fn gpu_swap<S: DataMut<Elem = A>>(&mut self, y: &mut ArrayBase<S, Ix1>) -> Result<()> {
        A::swap(Context::shared()?, self.ext_view_mut(), y.view_mut())
    }

    /// `x ← alpha·x`. BLAS `sscal` / `dscal`; see [`blas::sscal`] / [`blas::dscal`].
    ///
    /// # Errors
    /// As [`blas::sscal`] / [`blas::dscal`]; on error `x` is unchanged.
    fn gpu_scal_inplace(&mut self, alpha: A) -> Result<()> {
        A::scal(Context::shared()?, alpha, self.ext_view_mut())
    }

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
    ) -> Result<()> {
        A::rot(Context::shared()?, self.ext_view_mut(), y.view_mut(), c, s)
    }

    /// `(x, y) ← H·(x, y)`, `H` decoded from `param`. BLAS `srotm` / `drotm`; see [`blas::srotm`] /
    /// [`blas::drotm`].
    ///
    /// # Errors
    /// As [`blas::srotm`] / [`blas::drotm`]; on error `x` and `y` are unchanged.
    fn gpu_rotm_inplace<S: DataMut<Elem = A>>(
        &mut self,
        y: &mut ArrayBase<S, Ix1>,
        param: [A; 5],
    ) -> Result<()> {
        A::rotm(Context::shared()?, self.ext_view_mut(), y.view_mut(), param)
    }

    /// The receiver as a view, through which every method above reaches its data.
    #[doc(hidden)]
    fn ext_view_mut(&mut self) -> ArrayViewMut1<'_, A>;
}

ext_view!(mut Level1MutExt for Ix1: ArrayViewMut1);
