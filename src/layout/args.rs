//! The argument types of every routine: [`VecRef`], [`VecMut`], [`MatRef`], [`MatMut`] and
//! [`Scalar`], which ndarray arrays and views, resident operands and device scalars convert into
//! (the conversions from resident types are written next to those types, in `resident.rs`), and
//! the resident operands' descriptions [`DeviceVec`] and [`DeviceMat`]. Nothing here moves data.

use std::marker::PhantomData;

use ndarray::{ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::flags::{Transpose, Uplo};
use crate::launch::Dispatch;
use crate::pool::Buf;

/// Element types a resident array can hold, and the BLAS-layer routines take (re-exported as
/// `wgblas::resident::Element`).
pub trait Element: bytemuck::Pod + Default + Copy + Send + Sync + 'static {}
impl Element for f32 {}
impl Element for f64 {}

/// A resident vector, or a range of one, as an operand: `len` contiguous elements of type `T`
/// from element `offset` of `buffer`. Made by `&GpuVector` (into [`VecRef`]/[`VecMut`]) and by
/// [`GpuVector::slice`](crate::GpuVector::slice).
pub struct DeviceVec<'a, T = f32> {
    pub(crate) buffer: &'a Buf,
    pub(crate) offset: usize,
    pub(crate) len: usize,
    pub(crate) ctx_id: u64,
    pub(crate) _t: PhantomData<fn() -> T>,
}

/// A resident matrix, or a block of one, as an operand: element (i, j) at
/// `offset + i·rs + j·cs` of `buffer`, elements of type `T`. Made by `&GpuMatrix` (into
/// [`MatRef`]/[`MatMut`]), by [`GpuMatrix::t`](crate::GpuMatrix::t) (the transpose) and by [`GpuMatrix::slice`](crate::GpuMatrix::slice).
pub struct DeviceMat<'a, T = f32> {
    pub(crate) buffer: &'a Buf,
    pub(crate) offset: usize,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) rs: i32,
    pub(crate) cs: i32,
    /// Elements of the buffer from its start to one past the last element of the operand.
    pub(crate) span: usize,
    pub(crate) ctx_id: u64,
    pub(crate) _t: PhantomData<fn() -> T>,
}

// Copy whatever `T` is (the derives would ask `T: Copy`).
impl<T> Clone for DeviceVec<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for DeviceVec<'_, T> {}
impl<T> Clone for DeviceMat<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for DeviceMat<'_, T> {}

impl<T> std::fmt::Debug for DeviceVec<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceVec")
            .field("elem", &std::any::type_name::<T>())
            .field("offset", &self.offset)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}
impl<T> std::fmt::Debug for DeviceMat<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceMat")
            .field("elem", &std::any::type_name::<T>())
            .field("offset", &self.offset)
            .field("rows", &self.rows)
            .field("cols", &self.cols)
            .field("rs", &self.rs)
            .field("cs", &self.cs)
            .finish_non_exhaustive()
    }
}

impl<'a, T> DeviceVec<'a, T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The same operand with the element type `U` (internal: callers have checked `T = U`).
    pub(crate) fn retype<U>(self) -> DeviceVec<'a, U> {
        DeviceVec {
            buffer: self.buffer,
            offset: self.offset,
            len: self.len,
            ctx_id: self.ctx_id,
            _t: PhantomData,
        }
    }
}

impl<'a, T> DeviceMat<'a, T> {
    /// The transpose (strides swapped, no data moved).
    pub fn t(self) -> Self {
        DeviceMat {
            rows: self.cols,
            cols: self.rows,
            rs: self.cs,
            cs: self.rs,
            ..self
        }
    }

    /// (rows, columns).
    pub fn dim(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The same operand with the element type `U` (internal: callers have checked `T = U`).
    pub(crate) fn retype<U>(self) -> DeviceMat<'a, U> {
        DeviceMat {
            buffer: self.buffer,
            offset: self.offset,
            rows: self.rows,
            cols: self.cols,
            rs: self.rs,
            cs: self.cs,
            span: self.span,
            ctx_id: self.ctx_id,
            _t: PhantomData,
        }
    }

    /// Element offsets (from the buffer's start) of each contiguous run of the operand: the
    /// start of each line along its unit-stride axis, and the line length; one run when the
    /// operand is dense.
    pub(crate) fn runs(&self) -> (Vec<usize>, usize) {
        let (rows, cols) = (self.rows, self.cols);
        if rows == 0 || cols == 0 {
            return (Vec::new(), 0);
        }
        let dense = (self.cs == 1 && (rows == 1 || self.rs as usize == cols))
            || (self.rs == 1 && (cols == 1 || self.cs as usize == rows));
        if dense {
            return (vec![self.offset], rows * cols);
        }
        if self.cs == 1 || cols == 1 {
            let starts = (0..rows)
                .map(|i| self.offset + i * self.rs as usize)
                .collect();
            (starts, cols)
        } else {
            let starts = (0..cols)
                .map(|j| self.offset + j * self.cs as usize)
                .collect();
            (starts, rows)
        }
    }
}

/// `Self` (the element type a routine takes) accepts operands holding `E`: only when `E` is
/// `Self`. A resident operand of another element type (a `GpuMatrix<f64>` passed to an f32
/// routine) fails to compile with a message naming both types: "this routine takes `f32`
/// elements, and the operand holds `f64`".
///
/// ```compile_fail
/// let ctx = wgblas::Context::shared()?;
/// let x = ctx.upload_vector(&ndarray::Array1::<f64>::zeros(3))?;
/// let n = wgblas::blas::snrm2(ctx, &x)?; // snrm2 takes f32 only: dnrm2 is its f64 form
/// # Ok::<(), wgblas::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "this routine takes `{Self}` elements, and the operand holds `{E}`",
    label = "holds `{E}`; the routine accepts `{Self}` only",
    note = "each BLAS-layer routine takes one element type: the `s` routines f32, the `d` routines f64 (on adapters with SHADER_F64); call the routine of the operand's type where it exists, or convert the data"
)]
pub trait Accepts<E>: Element {}
impl<T: Element> Accepts<T> for T {}

/// An input vector: an ndarray view (any stride) or a resident [`GpuVector`](crate::GpuVector).
#[derive(Debug, Clone)]
pub enum VecRef<'a, T = f32> {
    /// Host data, uploaded for the call.
    Host(ArrayView1<'a, T>),
    /// Device data, used in place.
    Device(DeviceVec<'a, T>),
}

/// An output (or input-output) vector: an ndarray view, written back after the call, or a
/// resident [`GpuVector`](crate::GpuVector), written on the device.
#[derive(Debug)]
pub enum VecMut<'a, T = f32> {
    /// Host data: uploaded, then read back into the view.
    Host(ArrayViewMut1<'a, T>),
    /// Device data, updated in place.
    Device(DeviceVec<'a, T>),
}

/// An input matrix: an ndarray view (any layout) or a resident [`GpuMatrix`](crate::GpuMatrix) (or its `.t()`).
#[derive(Debug, Clone)]
pub enum MatRef<'a, T = f32> {
    /// Host data, uploaded for the call.
    Host(ArrayView2<'a, T>),
    /// Device data, used in place.
    Device(DeviceMat<'a, T>),
}

/// An output (or input-output) matrix: an ndarray view or a resident [`GpuMatrix`](crate::GpuMatrix).
#[derive(Debug)]
pub enum MatMut<'a, T = f32> {
    /// Host data: uploaded, then read back into the view.
    Host(ArrayViewMut2<'a, T>),
    /// Device data, updated in place.
    Device(DeviceMat<'a, T>),
}

/// A scalar argument (`alpha`, `beta`): a host value or a [`GpuScalar`](crate::GpuScalar) read on the device
/// (f32 for the s routines that take one; f64 for `dsymv`). With a device scalar the host-side
/// quick returns on its value (alpha = 0, beta = 1) cannot be taken; the kernels still apply
/// the value-dependent rules of reference BLAS where they test it themselves (gemv, symv,
/// gemm: alpha = 0 reads neither operand, beta = 0 never reads the output).
#[derive(Debug, Clone, Copy)]
pub enum Scalar<'a, T = f32> {
    /// A value known on the host.
    Host(T),
    /// A value in a device buffer at a byte offset.
    Device(&'a wgpu::Buffer, u64, u64),
}

impl<'a, T, U: Accepts<T>> From<DeviceVec<'a, T>> for VecRef<'a, U> {
    fn from(x: DeviceVec<'a, T>) -> Self {
        VecRef::Device(x.retype())
    }
}
impl<'a, 'b, T> From<&'a VecRef<'b, T>> for VecRef<'a, T> {
    fn from(x: &'a VecRef<'b, T>) -> Self {
        match x {
            VecRef::Host(v) => VecRef::Host(v.view()),
            VecRef::Device(d) => VecRef::Device(*d),
        }
    }
}
impl<'a, T, U: Accepts<T>> From<DeviceMat<'a, T>> for MatRef<'a, U> {
    fn from(a: DeviceMat<'a, T>) -> Self {
        MatRef::Device(a.retype())
    }
}
impl<'a, 'b, T> From<&'a MatRef<'b, T>> for MatRef<'a, T> {
    fn from(a: &'a MatRef<'b, T>) -> Self {
        match a {
            MatRef::Host(v) => MatRef::Host(v.view()),
            MatRef::Device(d) => MatRef::Device(*d),
        }
    }
}
from_host!(ref VecRef, ndarray::Ix1, ArrayView1);
from_host!(mut VecMut, ndarray::Ix1, ArrayViewMut1);
from_host!(ref MatRef, ndarray::Ix2, ArrayView2);
from_host!(mut MatMut, ndarray::Ix2, ArrayViewMut2);

impl From<f32> for Scalar<'_> {
    fn from(v: f32) -> Self {
        Scalar::Host(v)
    }
}
impl From<f64> for Scalar<'_, f64> {
    fn from(v: f64) -> Self {
        Scalar::Host(v)
    }
}

impl<T> VecRef<'_, T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            VecRef::Host(v) => v.len(),
            VecRef::Device(d) => d.len,
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The same operand, reborrowed.
    pub fn view(&self) -> VecRef<'_, T> {
        self.into()
    }
}

impl<T> VecMut<'_, T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            VecMut::Host(v) => v.len(),
            VecMut::Device(d) => d.len,
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The operand as an input (reborrowed).
    pub fn view(&self) -> VecRef<'_, T> {
        match self {
            VecMut::Host(v) => VecRef::Host(v.view()),
            VecMut::Device(d) => VecRef::Device(*d),
        }
    }
}

impl<'a, T> MatRef<'a, T> {
    /// (rows, columns).
    pub fn dim(&self) -> (usize, usize) {
        match self {
            MatRef::Host(v) => v.dim(),
            MatRef::Device(d) => (d.rows, d.cols),
        }
    }

    /// Rows.
    pub fn nrows(&self) -> usize {
        self.dim().0
    }

    /// Columns.
    pub fn ncols(&self) -> usize {
        self.dim().1
    }

    /// The transpose (strides swapped, no copy).
    pub fn t(&self) -> MatRef<'_, T> {
        match self {
            MatRef::Host(v) => MatRef::Host(v.t()),
            MatRef::Device(d) => MatRef::Device(d.t()),
        }
    }

    /// `op(A)` of a BLAS `trans` argument: the matrix itself or its transpose (no copy).
    pub fn op(&self, trans: Transpose) -> MatRef<'_, T> {
        match trans {
            Transpose::No => self.view(),
            Transpose::Yes => self.t(),
        }
    }

    /// `op(A)` of a triangular or symmetric matrix, with the triangle of `op(A)` that holds it:
    /// transposing flips `uplo`.
    pub fn op_triangle(&self, trans: Transpose, uplo: Uplo) -> (MatRef<'_, T>, Uplo) {
        match trans {
            Transpose::No => (self.view(), uplo),
            Transpose::Yes => (self.t(), uplo.flip()),
        }
    }

    /// The transpose, by value.
    pub fn reversed_axes(self) -> MatRef<'a, T> {
        match self {
            MatRef::Host(v) => MatRef::Host(v.reversed_axes()),
            MatRef::Device(d) => MatRef::Device(d.t()),
        }
    }

    /// The same operand, reborrowed.
    pub fn view(&self) -> MatRef<'_, T> {
        self.into()
    }
}

impl<T> MatMut<'_, T> {
    /// (rows, columns).
    pub fn dim(&self) -> (usize, usize) {
        match self {
            MatMut::Host(v) => v.dim(),
            MatMut::Device(d) => (d.rows, d.cols),
        }
    }

    /// Rows.
    pub fn nrows(&self) -> usize {
        self.dim().0
    }

    /// Columns.
    pub fn ncols(&self) -> usize {
        self.dim().1
    }

    /// The operand as an input (reborrowed).
    pub fn view(&self) -> MatRef<'_, T> {
        match self {
            MatMut::Host(v) => MatRef::Host(v.view()),
            MatMut::Device(d) => MatRef::Device(*d),
        }
    }
}

impl<T: Copy + PartialEq> Scalar<'_, T> {
    /// The value, where it is known on the host.
    pub fn host(&self) -> Option<T> {
        match self {
            Scalar::Host(v) => Some(*v),
            Scalar::Device(..) => None,
        }
    }

    /// Whether the value is known on the host to be `v` (a device scalar never is).
    pub fn is(&self, v: T) -> bool {
        self.host() == Some(v)
    }

    /// `Err` unless a device scalar belongs to `ctx`.
    pub(crate) fn check(
        &self,
        ctx: &Context,
        routine: &'static str,
        arg: &'static str,
    ) -> Result<()> {
        match *self {
            Scalar::Device(_, _, id) => check_ctx(ctx, id, routine, arg),
            Scalar::Host(_) => Ok(()),
        }
    }
}

impl Scalar<'_> {
    /// The host value, or 1 as a placeholder that [`Scalar::apply`] overwrites on the device.
    pub(crate) fn value(&self) -> f32 {
        self.host().unwrap_or(1.0)
    }

    /// Make `d` read this scalar into its params field at byte `field`, if it is on the device.
    pub(crate) fn apply<'d>(&self, d: Dispatch<'d>, field: usize) -> Dispatch<'d>
    where
        Self: 'd,
    {
        match *self {
            Scalar::Host(_) => d,
            Scalar::Device(buffer, offset, _) => d.patch(field, buffer, offset),
        }
    }
}

/// The context a resident operand belongs to (`None` for host data and host scalars), for the
/// owner check every routine makes before any quick return ([`crate::blas::check_owners`]).
pub(crate) trait Owner {
    fn owner(&self) -> Option<u64>;
}

owner_of_device!(VecRef, VecMut, MatRef, MatMut);

impl<T> Owner for Scalar<'_, T> {
    fn owner(&self) -> Option<u64> {
        match *self {
            Scalar::Host(_) => None,
            Scalar::Device(_, _, id) => Some(id),
        }
    }
}

pub(crate) fn check_ctx(
    ctx: &Context,
    id: u64,
    routine: &'static str,
    arg: &'static str,
) -> Result<()> {
    if id != ctx.id {
        return Err(Error::InvalidArgument {
            routine,
            arg,
            detail: "resident operand belongs to another Context".into(),
        });
    }
    Ok(())
}
