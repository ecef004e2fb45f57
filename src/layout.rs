//! Layouts: how any ndarray view reaches a kernel.
//!
//! Kernels address operands through an element offset and signed element strides:
//! vector element `i` is `buf[offset + i·inc]`, matrix element `(i, j)` is
//! `buf[offset + i·rs + j·cs]`. So C order (`rs = lda, cs = 1`), F order (`rs = 1, cs = lda`),
//! transposed views (`.t()` swaps `rs` and `cs`) and negative-stride views reach the kernel
//! **with no host-side copy**: a view without gaps is copied straight from its memory span
//! into mapped staging memory, and the offset of logical element 0 inside that span is passed
//! along. This is the OpenBLAS rule "a row-major matrix is a column-major one transposed"
//! applied once, here, for every routine.
//!
//! A view with gaps (a sub-matrix of a wider array, a step of 2 or more, a column of a
//! C-order matrix, a broadcast) is gathered element by element, in its logical C order,
//! straight into the staging memory: only the view's own elements are read, never the memory
//! between them (which safe code may be writing through another view at the same time). Both
//! paths are exact copies, so results do not depend on the path (`transfer.rs`).
//!
//! Results are written back into the caller's view the same way: straight from the mapped
//! read-back memory, only into the view's own elements (a triangle output only into its
//! triangle).
//!
//! Operands larger than one storage binding (issue 15): an operand's buffer may be as large as
//! the device's `max_buffer_size`; a dispatch binds a *window* of it (`Buf::window`: a byte
//! offset aligned to `min_storage_buffer_offset_alignment`, a size within
//! [`Context::max_binding`]), and the kernel gets the element offset inside the window through
//! its params, as for any operand. `VecOperand::part` and `MatOperand::block` make such
//! windowed sub-operands; `vec_chunks` and `mat_blocks` split a vector or matrix so that every
//! part fits, and the drivers run one dispatch (or engine call) per part. Routines that do not
//! process operands in parts take them through `vector` and `matrix`, which keep the binding
//! limit (`check_binding`).
//!
//! Resident operands ([`GpuVector`], [`GpuMatrix`]) are already in a device buffer with known
//! strides, so they reach the kernels as they are. Every routine takes its operands as the
//! argument types of this module ([`VecRef`], [`VecMut`], [`MatRef`], [`MatMut`], [`Scalar`]),
//! which ndarray arrays and views, resident operands and device scalars all convert into.

use std::marker::PhantomData;

use ndarray::{
    ArrayBase, ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2, Data, DataMut, Dimension, Ix1,
    Ix2,
};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::flags::{Transpose, Uplo};
use crate::launch::{Command, Dispatch, Read, SinkFn, Wait};
use crate::pool::Buf;
use crate::resident::{GpuMatrix, GpuScalar, GpuVector};
use crate::transfer::{Dest, Source};

mod batch;
mod typed;
pub(crate) use batch::{batch, batch_output, BatchOperand};
pub use batch::{BatchMut, BatchRef, DeviceBatch};
pub(crate) use typed::{finish_as_in, OutAs};

/// A resident vector, or a range of one, as an operand: `len` contiguous elements of type `T`
/// from element `offset` of `buffer`. Made by `&GpuVector` (into [`VecRef`]/[`VecMut`]) and by
/// [`GpuVector::slice`].
pub struct DeviceVec<'a, T = f32> {
    pub(crate) buffer: &'a wgpu::Buffer,
    pub(crate) offset: usize,
    pub(crate) len: usize,
    pub(crate) ctx_id: u64,
    pub(crate) _t: PhantomData<fn() -> T>,
}

/// A resident matrix, or a block of one, as an operand: element (i, j) at
/// `offset + i·rs + j·cs` of `buffer`, elements of type `T`. Made by `&GpuMatrix` (into
/// [`MatRef`]/[`MatMut`]), by [`GpuMatrix::t`] (the transpose) and by [`GpuMatrix::slice`].
pub struct DeviceMat<'a, T = f32> {
    pub(crate) buffer: &'a wgpu::Buffer,
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
pub trait Accepts<E>: crate::resident::Element {}
impl<T: crate::resident::Element> Accepts<T> for T {}

/// An input vector: an ndarray view (any stride) or a resident [`GpuVector`].
#[derive(Debug, Clone)]
pub enum VecRef<'a, T = f32> {
    /// Host data, uploaded for the call.
    Host(ArrayView1<'a, T>),
    /// Device data, used in place.
    Device(DeviceVec<'a, T>),
}

/// An output (or input-output) vector: an ndarray view, written back after the call, or a
/// resident [`GpuVector`], written on the device.
#[derive(Debug)]
pub enum VecMut<'a, T = f32> {
    /// Host data: uploaded, then read back into the view.
    Host(ArrayViewMut1<'a, T>),
    /// Device data, updated in place.
    Device(DeviceVec<'a, T>),
}

/// An input matrix: an ndarray view (any layout) or a resident [`GpuMatrix`] (or its `.t()`).
#[derive(Debug, Clone)]
pub enum MatRef<'a, T = f32> {
    /// Host data, uploaded for the call.
    Host(ArrayView2<'a, T>),
    /// Device data, used in place.
    Device(DeviceMat<'a, T>),
}

/// An output (or input-output) matrix: an ndarray view or a resident [`GpuMatrix`].
#[derive(Debug)]
pub enum MatMut<'a, T = f32> {
    /// Host data: uploaded, then read back into the view.
    Host(ArrayViewMut2<'a, T>),
    /// Device data, updated in place.
    Device(DeviceMat<'a, T>),
}

/// A scalar argument (`alpha`, `beta`): a host value or a [`GpuScalar`] read on the device
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

impl<'a, T, S: Data<Elem = T>> From<&'a ArrayBase<S, Ix1>> for VecRef<'a, T> {
    fn from(x: &'a ArrayBase<S, Ix1>) -> Self {
        VecRef::Host(x.view())
    }
}
impl<'a, T> From<ArrayView1<'a, T>> for VecRef<'a, T> {
    fn from(x: ArrayView1<'a, T>) -> Self {
        VecRef::Host(x)
    }
}
impl<'a, 'c, T: crate::resident::Element, U: Accepts<T>> From<&'a GpuVector<'c, T>>
    for VecRef<'a, U>
{
    fn from(x: &'a GpuVector<'c, T>) -> Self {
        VecRef::Device(x.device().retype())
    }
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
impl<'a, T, S: DataMut<Elem = T>> From<&'a mut ArrayBase<S, Ix1>> for VecMut<'a, T> {
    fn from(x: &'a mut ArrayBase<S, Ix1>) -> Self {
        VecMut::Host(x.view_mut())
    }
}
impl<'a, T> From<ArrayViewMut1<'a, T>> for VecMut<'a, T> {
    fn from(x: ArrayViewMut1<'a, T>) -> Self {
        VecMut::Host(x)
    }
}
impl<'a, 'c, T: crate::resident::Element, U: Accepts<T>> From<&'a mut GpuVector<'c, T>>
    for VecMut<'a, U>
{
    fn from(x: &'a mut GpuVector<'c, T>) -> Self {
        VecMut::Device(x.device().retype())
    }
}
impl<'a, T, S: Data<Elem = T>> From<&'a ArrayBase<S, Ix2>> for MatRef<'a, T> {
    fn from(a: &'a ArrayBase<S, Ix2>) -> Self {
        MatRef::Host(a.view())
    }
}
impl<'a, T> From<ArrayView2<'a, T>> for MatRef<'a, T> {
    fn from(a: ArrayView2<'a, T>) -> Self {
        MatRef::Host(a)
    }
}
impl<'a, 'c, T: crate::resident::Element, U: Accepts<T>> From<&'a GpuMatrix<'c, T>>
    for MatRef<'a, U>
{
    fn from(a: &'a GpuMatrix<'c, T>) -> Self {
        MatRef::Device(a.device().retype())
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
impl<'a, T, S: DataMut<Elem = T>> From<&'a mut ArrayBase<S, Ix2>> for MatMut<'a, T> {
    fn from(a: &'a mut ArrayBase<S, Ix2>) -> Self {
        MatMut::Host(a.view_mut())
    }
}
impl<'a, T> From<ArrayViewMut2<'a, T>> for MatMut<'a, T> {
    fn from(a: ArrayViewMut2<'a, T>) -> Self {
        MatMut::Host(a)
    }
}
impl<'a, 'c, T: crate::resident::Element, U: Accepts<T>> From<&'a mut GpuMatrix<'c, T>>
    for MatMut<'a, U>
{
    fn from(a: &'a mut GpuMatrix<'c, T>) -> Self {
        MatMut::Device(a.device().retype())
    }
}
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
impl<'a, 'c, T, U: Accepts<T>> From<&'a GpuScalar<'c, T>> for Scalar<'a, U> {
    fn from(s: &'a GpuScalar<'c, T>) -> Self {
        let (buffer, offset) = s.source();
        Scalar::Device(buffer, offset, s.ctx_id())
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

impl<T> Owner for VecRef<'_, T> {
    fn owner(&self) -> Option<u64> {
        match self {
            VecRef::Host(_) => None,
            VecRef::Device(d) => Some(d.ctx_id),
        }
    }
}

impl<T> Owner for VecMut<'_, T> {
    fn owner(&self) -> Option<u64> {
        match self {
            VecMut::Host(_) => None,
            VecMut::Device(d) => Some(d.ctx_id),
        }
    }
}

impl<T> Owner for MatRef<'_, T> {
    fn owner(&self) -> Option<u64> {
        match self {
            MatRef::Host(_) => None,
            MatRef::Device(d) => Some(d.ctx_id),
        }
    }
}

impl<T> Owner for MatMut<'_, T> {
    fn owner(&self) -> Option<u64> {
        match self {
            MatMut::Host(_) => None,
            MatMut::Device(d) => Some(d.ctx_id),
        }
    }
}

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

/// A vector operand on the device: element `i` is at `offset + i·inc`.
#[derive(Debug)]
pub(crate) struct VecOperand {
    pub buffer: crate::pool::Buf,
    pub offset: u32,
    pub inc: i32,
    pub len: usize,
    /// Elements of the buffer that hold data (the span), for read-back.
    pub span: usize,
}

/// A matrix operand on the device: element `(i, j)` is at `offset + i·rs + j·cs`.
#[derive(Debug)]
pub(crate) struct MatOperand {
    pub buffer: crate::pool::Buf,
    pub offset: u32,
    pub rs: i32,
    pub cs: i32,
    pub rows: usize,
    pub cols: usize,
    pub span: usize,
}

/// Check that `elems` elements of `T` fit one buffer of this device (`max_buffer_size`) and
/// the 32-bit element offsets of the kernels' parameters. An operand past one storage binding
/// is processed in parts (see [`VecOperand::part`]); routines that are not yet check that with
/// [`check_binding`].
pub(crate) fn check_fits<T>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    elems: usize,
) -> Result<()> {
    let size = std::mem::size_of::<T>() as u64;
    let limit = ctx.limits().max_buffer_size.min(u64::from(u32::MAX) * size);
    let bytes = (elems as u64).saturating_mul(size);
    if elems as u128 * size as u128 > limit as u128 {
        return Err(Error::TooLarge {
            routine,
            arg,
            bytes,
            limit,
        });
    }
    Ok(())
}

/// Check that `bytes` of an operand fit one storage binding ([`Context::max_binding`]), for
/// routines that bind their operands whole.
pub(crate) fn check_binding(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    bytes: u64,
) -> Result<()> {
    let limit = ctx.max_binding().min(i32::MAX as u64 * 4);
    if bytes > limit {
        return Err(Error::TooLarge {
            routine,
            arg,
            bytes,
            limit,
        });
    }
    Ok(())
}

/// The byte alignment of binding windows: the device's `min_storage_buffer_offset_alignment`,
/// at least 16 (so a window keeps the vec4 alignment of the offsets inside it).
fn window_align(ctx: &Context) -> u64 {
    u64::from(ctx.limits().min_storage_buffer_offset_alignment).max(16)
}

/// The window of `buffer` (a whole operand's buffer) that holds its elements `low..=high`
/// (of `elem` bytes each): the window, starting at an aligned byte offset and ending at the
/// next multiple of 16 bytes (or the buffer's end), at least 16 bytes long, and the index of
/// its first element.
fn window_of(ctx: &Context, buffer: &Buf, elem: u64, low: u64, high: u64) -> (Buf, u64) {
    let align = window_align(ctx);
    let end = (((high + 1) * elem).div_ceil(16) * 16).min(buffer.size());
    // At least 16 bytes (the smallest binding of a `vec4` array): a window that ends at the
    // buffer's end starts earlier where it must.
    let start = (low * elem).min(end.saturating_sub(16)) / align * align;
    (buffer.window(start, end - start), start / elem)
}

/// Elements of one chunk: the longest run of `n` logical elements with stride `inc` whose
/// window (span, plus alignment slack) fits one binding of `ctx`.
pub(crate) fn chunk_len(ctx: &Context, elem: u64, inc: i64) -> usize {
    let room = (ctx.max_binding() - window_align(ctx) - 16) / elem;
    let inc = inc.unsigned_abs().max(1);
    ((room - 1) / inc + 1) as usize
}

/// The chunks `lo..hi` of `0..n` for vector operands of `elem` bytes with strides `incs`: one
/// chunk (`0..n`) when every operand's buffer fits one binding, else runs of at most
/// [`chunk_len`] elements.
pub(crate) fn vec_chunks(
    ctx: &Context,
    n: usize,
    elem: u64,
    ops: &[&VecOperand],
) -> Vec<(usize, usize)> {
    if ops.iter().all(|o| o.buffer.size() <= ctx.max_binding()) {
        return vec![(0, n)];
    }
    // Multiples of 64 elements, so that parts of an aligned operand stay aligned for the
    // vec4 kernels.
    let len = ops
        .iter()
        .map(|o| chunk_len(ctx, elem, i64::from(o.inc)))
        .min()
        .unwrap_or(n)
        .max(1);
    let len = if len > 64 { len / 64 * 64 } else { len };
    (0..n.div_ceil(len))
        .map(|c| (c * len, ((c + 1) * len).min(n)))
        .collect()
}

/// Blocks `((r0, r1), (c0, c1))` of a matrix operand `a` (elements of `elem` bytes) for
/// kernels that also bind a vector along its rows (stride `row_inc`) and one along its columns
/// (`col_inc`), each block's windows within one binding: rows in panels as tall as the binding
/// allows with every column;
/// only where a single row (all its columns) does not fit are the columns split too, into
/// panels of about half a binding. Row panel by row panel, columns in order.
pub(crate) fn mat_blocks(
    ctx: &Context,
    a: &MatOperand,
    elem: u64,
    row_inc: i32,
    col_inc: i32,
) -> Vec<((usize, usize), (usize, usize))> {
    let (m, n) = (a.rows, a.cols);
    if m == 0 || n == 0 {
        return Vec::new();
    }
    let room = chunk_len(ctx, elem, 1) as u64;
    let (rs, cs) = (
        u64::from(a.rs.unsigned_abs()),
        u64::from(a.cs.unsigned_abs()),
    );
    let col_room = chunk_len(ctx, elem, i64::from(col_inc));
    let row_room = chunk_len(ctx, elem, i64::from(row_inc));
    let width = if (n as u64 - 1) * cs < room && n <= col_room {
        n
    } else {
        (((room / 2 - 1) / cs.max(1)) as usize + 1)
            .min(col_room)
            .min(n)
    };
    let left = room - 1 - (width as u64 - 1) * cs;
    let height = ((left / rs.max(1)) as usize + 1)
        .min(row_room)
        .min(m)
        .max(1);
    let mut out = Vec::new();
    for r0 in (0..m).step_by(height) {
        for c0 in (0..n).step_by(width) {
            out.push(((r0, (r0 + height).min(m)), (c0, (c0 + width).min(n))));
        }
    }
    out
}

/// The side of square blocks of the n×n operand `a` on one grid of rows and columns, as large
/// as one binding allows for `a`'s block and for runs of vectors with strides `incs`: halved
/// from n (to multiples of 64 while larger than 128) until it fits.
pub(crate) fn square_side(ctx: &Context, a: &MatOperand, elem: u64, incs: &[i32]) -> usize {
    let room = incs
        .iter()
        .map(|&i| chunk_len(ctx, elem, i64::from(i)))
        .min()
        .unwrap_or(usize::MAX);
    let mut side = a.rows.max(1);
    while side > 1 && (side > room || !a.block_fits(ctx, elem, side, side)) {
        side = if side > 128 {
            side / 2 / 64 * 64
        } else {
            side.div_ceil(2)
        };
    }
    side
}

impl VecOperand {
    /// Logical elements `lo..hi` of this operand (of `elem` bytes each) as an operand of their
    /// own, bound through a window of the same buffer that holds just their span (aligned),
    /// with its element offset relative to the window.
    pub(crate) fn part(&self, ctx: &Context, elem: u64, lo: usize, hi: usize) -> VecOperand {
        if hi <= lo {
            return VecOperand {
                buffer: self.buffer.window(0, self.buffer.size().min(16)),
                offset: 0,
                inc: self.inc,
                len: 0,
                span: 0,
            };
        }
        let at = |i: usize| self.offset as i64 + i as i64 * i64::from(self.inc);
        let (a, b) = (at(lo), at(hi.max(lo + 1) - 1));
        let (low, high) = (a.min(b) as u64, a.max(b) as u64);
        let (buffer, first) = window_of(ctx, &self.buffer, elem, low, high);
        VecOperand {
            buffer,
            offset: (a as u64 - first) as u32,
            inc: self.inc,
            len: hi - lo,
            span: (high - first + 1) as usize,
        }
    }
}

impl MatOperand {
    /// The transpose: the same elements (a handle on the same buffer), strides swapped.
    pub(crate) fn t(&self) -> MatOperand {
        MatOperand {
            buffer: self.buffer.window(0, self.buffer.size()),
            offset: self.offset,
            rs: self.cs,
            cs: self.rs,
            rows: self.cols,
            cols: self.rows,
            span: self.span,
        }
    }

    /// Whether the whole operand fits one binding of `ctx`.
    pub(crate) fn fits(&self, ctx: &Context) -> bool {
        self.buffer.size() <= ctx.max_binding()
    }

    /// Span in elements of a `rows`×`cols` block of this operand.
    pub(crate) fn block_span(&self, rows: usize, cols: usize) -> u64 {
        if rows == 0 || cols == 0 {
            return 0;
        }
        (rows as u64 - 1) * u64::from(self.rs.unsigned_abs())
            + (cols as u64 - 1) * u64::from(self.cs.unsigned_abs())
            + 1
    }

    /// Whether a `rows`×`cols` block of this operand (of `elem`-byte elements) fits one
    /// binding window of `ctx` (span plus alignment slack).
    pub(crate) fn block_fits(&self, ctx: &Context, elem: u64, rows: usize, cols: usize) -> bool {
        self.block_span(rows, cols) * elem + window_align(ctx) + 16 <= ctx.max_binding()
    }

    /// Rows `r0..r1` and columns `c0..c1` of this operand as an operand of their own, bound
    /// through a window of the same buffer (see [`VecOperand::part`]).
    pub(crate) fn block(
        &self,
        ctx: &Context,
        elem: u64,
        (r0, r1): (usize, usize),
        (c0, c1): (usize, usize),
    ) -> MatOperand {
        if r1 <= r0 || c1 <= c0 {
            return MatOperand {
                buffer: self.buffer.window(0, self.buffer.size().min(16)),
                offset: 0,
                rs: self.rs,
                cs: self.cs,
                rows: r1.saturating_sub(r0),
                cols: c1.saturating_sub(c0),
                span: 0,
            };
        }
        let at = |i: usize, j: usize| {
            self.offset as i64 + i as i64 * i64::from(self.rs) + j as i64 * i64::from(self.cs)
        };
        let (rl, cl) = (r1.max(r0 + 1) - 1, c1.max(c0 + 1) - 1);
        let corners = [at(r0, c0), at(rl, c0), at(r0, cl), at(rl, cl)];
        let low = *corners.iter().min().expect("four corners") as u64;
        let high = *corners.iter().max().expect("four corners") as u64;
        let (buffer, first) = window_of(ctx, &self.buffer, elem, low, high);
        MatOperand {
            buffer,
            offset: (corners[0] as u64 - first) as u32,
            rs: self.rs,
            cs: self.cs,
            rows: r1 - r0,
            cols: c1 - c0,
            span: (high - first + 1) as usize,
        }
    }
}

/// The device plan of an input view, with the device offset of logical element 0 and the
/// device strides.
fn source<'a, T: Copy + Send + Sync, D: Dimension>(
    view: &ndarray::ArrayView<'a, T, D>,
) -> (Source<'a, T>, usize, Vec<isize>) {
    // SAFETY: pointer, shape and strides come from a live view borrowed for `'a`; the plan
    // only reads (gathers) through it.
    unsafe { Source::of_view(view.as_ptr().cast_mut(), view.shape(), view.strides()) }
}

/// Upload a vector view (any stride, including negative and zero), or take a resident one as
/// it is; the operand must fit one storage binding ([`check_binding`]), for routines that bind
/// their operands whole.
pub(crate) fn vector<'v, T: bytemuck::Pod + Send + Sync + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    x: impl Into<VecRef<'v, T>>,
) -> Result<VecOperand> {
    vector_for(ctx, routine, arg, x.into(), true)
}

/// Upload a vector view (any stride, including negative and zero), or take a resident one as
/// it is, for routines that process operands in parts ([`vec_chunks`]): the operand may be as
/// large as one buffer of the device.
pub(crate) fn vector_any<'v, T: bytemuck::Pod + Send + Sync + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    x: impl Into<VecRef<'v, T>>,
) -> Result<VecOperand> {
    vector_for(ctx, routine, arg, x.into(), false)
}

fn vector_for<'v, T: bytemuck::Pod + Send + Sync + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    x: VecRef<'v, T>,
    whole: bool,
) -> Result<VecOperand> {
    let size = std::mem::size_of::<T>() as u64;
    let x = match x {
        VecRef::Host(x) => x,
        VecRef::Device(d) => {
            check_ctx(ctx, d.ctx_id, routine, arg)?;
            if whole {
                check_binding(ctx, routine, arg, (d.offset + d.len) as u64 * size)?;
            }
            return Ok(VecOperand {
                buffer: Buf::shared(d.buffer),
                offset: d.offset as u32,
                inc: 1,
                len: d.len,
                span: d.offset + d.len,
            });
        }
    };
    let (src, offset, strides) = source(&x);
    check_fits::<T>(ctx, routine, arg, src.len())?;
    if whole {
        check_binding(ctx, routine, arg, src.len() as u64 * size)?;
    }
    Ok(VecOperand {
        buffer: ctx.upload_source(routine, &src)?,
        offset: offset as u32,
        inc: strides[0] as i32,
        len: x.len(),
        span: src.len(),
    })
}

/// Upload a matrix view (C order, F order, transposed, sliced, stepped, negative strides).
pub(crate) fn matrix<'v, T: bytemuck::Pod + Send + Sync + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: impl Into<MatRef<'v, T>>,
) -> Result<MatOperand> {
    matrix_for(ctx, routine, arg, a, true, true)
}

/// [`matrix`] for routines that process operands in blocks ([`MatOperand::block`]): the
/// operand may be as large as one buffer of the device.
pub(crate) fn matrix_any<'v, T: bytemuck::Pod + Send + Sync + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: impl Into<MatRef<'v, T>>,
) -> Result<MatOperand> {
    matrix_for(ctx, routine, arg, a, true, false)
}

/// The device operand of an output matrix that the kernel writes in full without reading it
/// (`beta = 0`): laid out as [`matrix`] would (within one storage binding), but nothing is
/// uploaded.
pub(crate) fn matrix_output<'v, T: bytemuck::Pod + Send + Sync + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: impl Into<MatRef<'v, T>>,
) -> Result<MatOperand> {
    matrix_for(ctx, routine, arg, a, false, true)
}

/// The device operand of an output matrix that the kernel writes in full without reading it
/// (`beta = 0`): laid out as [`matrix_any`] would, but nothing is uploaded.
pub(crate) fn matrix_output_any<'v, T: bytemuck::Pod + Send + Sync + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: impl Into<MatRef<'v, T>>,
) -> Result<MatOperand> {
    matrix_for(ctx, routine, arg, a, false, false)
}

fn matrix_for<'v, T: bytemuck::Pod + Send + Sync + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: impl Into<MatRef<'v, T>>,
    upload: bool,
    whole: bool,
) -> Result<MatOperand> {
    let size = std::mem::size_of::<T>() as u64;
    let a = match a.into() {
        MatRef::Host(a) => a,
        MatRef::Device(d) => {
            check_ctx(ctx, d.ctx_id, routine, arg)?;
            if whole {
                check_binding(ctx, routine, arg, d.span as u64 * size)?;
            }
            return Ok(MatOperand {
                buffer: Buf::shared(d.buffer),
                offset: d.offset as u32,
                rs: d.rs,
                cs: d.cs,
                rows: d.rows,
                cols: d.cols,
                span: d.span,
            });
        }
    };
    let (src, offset, strides) = source(&a);
    check_fits::<T>(ctx, routine, arg, src.len())?;
    if whole {
        check_binding(ctx, routine, arg, src.len() as u64 * size)?;
    }
    let buffer = if upload {
        ctx.upload_source(routine, &src)?
    } else {
        ctx.alloc(routine, (src.len() * std::mem::size_of::<T>()) as u64)?
    };
    Ok(MatOperand {
        buffer,
        offset: offset as u32,
        rs: strides[0] as i32,
        cs: strides[1] as i32,
        rows: a.nrows(),
        cols: a.ncols(),
        span: src.len(),
    })
}

/// Write the read-back span of `op` into the caller's view, element by element.
fn write_vector<T: Copy>(out: &mut ArrayViewMut1<'_, T>, data: &[T], op: &VecOperand) {
    for (i, v) in out.iter_mut().enumerate() {
        *v = data[(op.offset as isize + i as isize * op.inc as isize) as usize];
    }
}

/// Write the read-back span of `op` into the caller's view, element by element.
fn write_matrix<T: Copy>(out: &mut ArrayViewMut2<'_, T>, data: &[T], op: &MatOperand) {
    let (off, rs, cs) = (op.offset as isize, op.rs as isize, op.cs as isize);
    for ((i, j), v) in out.indexed_iter_mut() {
        *v = data[(off + i as isize * rs + j as isize * cs) as usize];
    }
}

/// Write the triangle `uplo` of the read-back span of `op` into the caller's square view,
/// element by element; the other triangle of the view is not touched at all.
fn write_triangle<T: Copy>(
    out: &mut ArrayViewMut2<'_, T>,
    data: &[T],
    op: &MatOperand,
    uplo: Uplo,
) {
    let (off, rs, cs) = (op.offset as isize, op.rs as isize, op.cs as isize);
    for ((i, j), v) in out.indexed_iter_mut() {
        let inside = match uplo {
            Uplo::Lower => i >= j,
            Uplo::Upper => i <= j,
        };
        if inside {
            *v = data[(off + i as isize * rs + j as isize * cs) as usize];
        }
    }
}

/// The plan of an output view, if the device holds it in exactly that plan's order (it was
/// uploaded from this view): then read-back scatters straight into the view.
fn dest_for<'a, D: Dimension>(
    view: &'a mut ndarray::ArrayViewMut<'_, f32, D>,
    offset: u32,
    strides: &[isize],
) -> Option<Dest<'a, f32>> {
    // SAFETY: pointer, shape and strides come from a live view borrowed mutably for `'a`.
    let (plan, off, st) = unsafe { Dest::of_view(view.as_mut_ptr(), view.shape(), view.strides()) };
    (off == offset as usize && st == strides).then_some(plan)
}

/// Where a routine's result goes: the output argument and the device operand that holds the
/// result (the output's own upload, or a separate buffer laid out like it).
pub(crate) enum Out<'r, 'a> {
    /// A whole vector.
    Vec(&'r mut VecMut<'a, f32>, &'r VecOperand),
    /// A whole matrix.
    Mat(&'r mut MatMut<'a, f32>, &'r MatOperand),
    /// One triangle of a square matrix (the other is not written on the host).
    Tri(&'r mut MatMut<'a, f32>, &'r MatOperand, Uplo),
    /// A whole batch of matrices.
    Batch(&'r mut BatchMut<'a, f32>, &'r BatchOperand),
}

/// Run `dispatches` and deliver the results: host outputs are read back (one submission, one
/// read-back for all of them) and written element by element; resident outputs stay on the
/// device (a result computed in a separate buffer is copied into the output's buffer on the
/// device). With only resident outputs nothing waits: the commands are held back. Host
/// outputs wait for the read-back as `wait` says: the one path of every routine's blocking form
/// and its `_async` twin.
pub(crate) async fn finish_in(
    ctx: &Context,
    routine: &'static str,
    dispatches: &[Dispatch<'_>],
    outs: &mut [Out<'_, '_>],
    wait: Wait,
) -> Result<()> {
    let mut copies = Vec::new();
    // Host outputs: a direct plan, or a buffer for an element-wise write after the read.
    enum Sink<'p> {
        Direct(Dest<'p, f32>),
        Staged(Vec<f32>),
    }
    let mut sinks: Vec<(usize, &wgpu::Buffer, usize, Sink<'_>)> = Vec::new();
    for (k, o) in outs.iter_mut().enumerate() {
        match o {
            Out::Vec(VecMut::Device(d), op) => {
                if *op.buffer != *d.buffer {
                    let runs = (vec![d.offset], d.len);
                    copies.extend(resident_copies(
                        &op.buffer, op.offset, d.buffer, d.offset, runs, 4,
                    ));
                }
            }
            Out::Mat(MatMut::Device(d), op) | Out::Tri(MatMut::Device(d), op, _) => {
                if *op.buffer != *d.buffer {
                    let runs = d.runs();
                    copies.extend(resident_copies(
                        &op.buffer, op.offset, d.buffer, d.offset, runs, 4,
                    ));
                }
            }
            Out::Vec(VecMut::Host(v), op) => {
                let sink = match dest_for(v, op.offset, &[op.inc as isize]) {
                    Some(p) if p.len() == op.span => Sink::Direct(p),
                    _ => Sink::Staged(vec![0.0; op.span]),
                };
                sinks.push((k, &op.buffer, op.span, sink));
            }
            Out::Mat(MatMut::Host(v), op) => {
                let sink = match dest_for(v, op.offset, &[op.rs as isize, op.cs as isize]) {
                    Some(p) if p.len() == op.span => Sink::Direct(p),
                    _ => Sink::Staged(vec![0.0; op.span]),
                };
                sinks.push((k, &op.buffer, op.span, sink));
            }
            Out::Tri(MatMut::Host(_), op, _) => {
                sinks.push((k, &op.buffer, op.span, Sink::Staged(vec![0.0; op.span])));
            }
            Out::Batch(BatchMut::Device(d), op) => {
                if *op.buffer != *d.buffer {
                    copies.push(Command::Copy {
                        src: (*op.buffer).clone(),
                        src_offset: 0,
                        dst: d.buffer.clone(),
                        dst_offset: 0,
                        size: (op.span.max(1) * 4) as u64,
                    });
                }
            }
            Out::Batch(BatchMut::Host(v), op) => {
                let strides = [op.bs as isize, op.rs as isize, op.cs as isize];
                // Only a dense view has a direct plan (a 3-D gather plan does not exist).
                let dense = crate::transfer::is_dense(v.shape(), v.strides());
                let sink = match dense.then(|| dest_for(v, op.offset, &strides)).flatten() {
                    Some(p) if p.len() == op.span => Sink::Direct(p),
                    _ => Sink::Staged(vec![0.0; op.span]),
                };
                sinks.push((k, &op.buffer, op.span, sink));
            }
        }
    }
    {
        let targets: Vec<(&wgpu::Buffer, usize)> =
            sinks.iter().map(|(_, b, span, _)| (*b, *span)).collect();
        let fns: Vec<SinkFn<'_>> = sinks
            .iter_mut()
            .map(|(_, _, _, sink)| -> SinkFn<'_> {
                match sink {
                    Sink::Direct(plan) => {
                        let plan = &*plan;
                        Box::new(move |off: u64, bytes: &[u8]| {
                            let vals: &[f32] = bytemuck::cast_slice(bytes);
                            // SAFETY: the plan comes from the output view, borrowed mutably by
                            // `outs` for this whole call; pieces are disjoint.
                            unsafe { plan.scatter_serial(off as usize / 4, vals) };
                        })
                    }
                    Sink::Staged(buf) => {
                        let dst = crate::transfer::SharedBytes::new(bytemuck::cast_slice_mut(
                            buf.as_mut_slice(),
                        ));
                        // SAFETY: pieces are disjoint.
                        Box::new(move |off: u64, bytes: &[u8]| unsafe {
                            dst.write(off as usize, bytes)
                        })
                    }
                }
            })
            .collect();
        let mut reads: Vec<Read<'_>> = targets
            .iter()
            .zip(fns.iter())
            .map(|((buffer, span), f)| Read {
                buffer,
                bytes: ((*span * 4) as u64).min(buffer.size()),
                sink: &**f,
            })
            .collect();
        ctx.execute_reads_in(routine, dispatches, copies, &mut reads, wait)
            .await?;
    }
    let staged: Vec<(usize, Vec<f32>)> = sinks
        .into_iter()
        .filter_map(|(k, _, _, s)| match s {
            Sink::Staged(v) => Some((k, v)),
            Sink::Direct(_) => None,
        })
        .collect();
    for (k, data) in staged {
        match &mut outs[k] {
            Out::Vec(VecMut::Host(v), op) => write_vector(v, &data, op),
            Out::Mat(MatMut::Host(v), op) => write_matrix(v, &data, op),
            Out::Tri(MatMut::Host(v), op, uplo) => write_triangle(v, &data, op, *uplo),
            Out::Batch(BatchMut::Host(v), op) => batch::write_batch(v, &data, op),
            _ => {}
        }
    }
    Ok(())
}

/// The copies that move a result computed in a buffer of its own (laid out as the resident
/// output it is for, from element `src_offset`) into that output, whose element `dst_offset`
/// corresponds to it: one copy per contiguous run of the output (`runs`: element starts in
/// the output's buffer, run length; see `DeviceMat::runs`), so that the elements of the
/// buffer outside a sub-view are never written.
pub(crate) fn resident_copies(
    src: &wgpu::Buffer,
    src_offset: u32,
    dst: &wgpu::Buffer,
    dst_offset: usize,
    (starts, len): (Vec<usize>, usize),
    size: usize,
) -> Vec<Command> {
    if len == 0 {
        return Vec::new();
    }
    starts
        .into_iter()
        .map(|s| Command::Copy {
            src: src.clone(),
            src_offset: ((s - dst_offset + src_offset as usize) * size) as u64,
            dst: dst.clone(),
            dst_offset: (s * size) as u64,
            size: (len * size) as u64,
        })
        .collect()
}

/// Set every element of `out` to zero (on the device for a resident output: only its own
/// elements, run by run, so a sub-view's neighbours are left alone).
pub(crate) fn fill_zero<T: Copy + Default>(ctx: &Context, out: &mut MatMut<'_, T>) {
    match out {
        MatMut::Host(v) => v.fill(T::default()),
        MatMut::Device(d) => {
            let size = std::mem::size_of::<T>() as u64;
            let (starts, len) = d.runs();
            ctx.hold(
                starts
                    .into_iter()
                    .map(|s| Command::Clear {
                        buffer: d.buffer.clone(),
                        offset: s as u64 * size,
                        size: Some(len as u64 * size),
                    })
                    .collect(),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{s, Array2};

    #[test]
    fn sources_borrow_dense_and_pack_sparse() {
        let a = Array2::<f32>::from_shape_fn((3, 40), |(i, j)| (i * 40 + j) as f32);
        let at = a.t();
        let (src, off, st) = source(&at);
        assert_eq!(src.order(), crate::transfer::Order::Dense);
        assert_eq!((off, st.as_slice()), (0, &[1isize, 40][..]));
        let col = a.column(5);
        let (src, off, st) = source(&col);
        assert_ne!(src.order(), crate::transfer::Order::Dense);
        assert_eq!((off, st[0]), (0, 1));
        let mut data = vec![0f32; src.len()];
        unsafe { src.fill(0, src.len(), data.as_mut_ptr()) };
        assert_eq!(data, vec![5.0, 45.0, 85.0]);
        let rev = a.slice(s![1, ..;-1]);
        let (src, off, st) = source(&rev);
        assert_eq!(st[0], -1);
        let mut data = vec![0f32; src.len()];
        unsafe { src.fill(0, src.len(), data.as_mut_ptr()) };
        assert_eq!(data[off], 79.0);
        assert_eq!(data[(off as isize + 39 * st[0]) as usize], 40.0);
        // A step of 2 has gaps: packed, never read as a span.
        let even = a.slice(s![.., ..;2]);
        let (src, _, st) = source(&even);
        assert_eq!((src.len(), st.as_slice()), (60, &[20isize, 1][..]));
    }
}
