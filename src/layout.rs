//! Layouts: how any ndarray view reaches a kernel.
//!
//! Kernels address operands through an element offset and signed element strides:
//! vector element `i` is `buf[offset + i·inc]`, matrix element `(i, j)` is
//! `buf[offset + i·rs + j·cs]`. So C order (`rs = lda, cs = 1`), F order (`rs = 1, cs = lda`),
//! transposed views (`.t()` swaps `rs` and `cs`), sliced sub-matrices (`lda` larger than the
//! row), stepped and negative-stride views all reach the kernel **without a copy**: the memory
//! span the view covers, from its lowest to its highest element, is uploaded as it is, and the
//! offset of logical element 0 inside that span is passed along. This is the OpenBLAS rule "a
//! row-major matrix is a column-major one transposed" applied once, here, for every routine.
//!
//! One exception: a view whose span is more than twice its element count plus 16 (for example a
//! column taken out of a wide matrix, or a step of 3 or more) is packed into a contiguous
//! C-order copy first, so that the upload stays proportional to the data. Both paths are
//! exact copies, so results do not depend on the path.
//!
//! Results are written back element by element into the caller's view, never over the whole
//! span, so elements between a strided view's elements are never written.
//!
//! Resident operands ([`GpuVector`], [`GpuMatrix`]) are already in a device buffer with known
//! strides, so they reach the kernels as they are. Every routine takes its operands as the
//! argument types of this module ([`VecRef`], [`VecMut`], [`MatRef`], [`MatMut`], [`Scalar`]),
//! which ndarray arrays and views, resident operands and device scalars all convert into.

use ndarray::{
    ArrayBase, ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2, Data, DataMut, Dimension, Ix1,
    Ix2,
};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::flags::{Transpose, Uplo};
use crate::launch::{Command, Dispatch};
use crate::pool::Buf;
use crate::resident::{Element, GpuMatrix, GpuScalar, GpuVector};

/// A resident vector as an operand: contiguous, in `buffer`.
#[derive(Debug, Clone, Copy)]
pub struct DeviceVec<'a> {
    pub(crate) buffer: &'a wgpu::Buffer,
    pub(crate) len: usize,
    pub(crate) ctx_id: u64,
}

/// A resident matrix as an operand: element (i, j) at `i·rs + j·cs` of `buffer`. Made by
/// `&GpuMatrix` (into [`MatRef`]/[`MatMut`]) and by [`GpuMatrix::t`] (the transpose).
#[derive(Debug, Clone, Copy)]
pub struct DeviceMat<'a> {
    pub(crate) buffer: &'a wgpu::Buffer,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) rs: i32,
    pub(crate) cs: i32,
    pub(crate) span: usize,
    pub(crate) ctx_id: u64,
}

impl<'a> DeviceMat<'a> {
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
}

/// An input vector: an ndarray view (any stride) or a resident [`GpuVector`].
#[derive(Debug, Clone)]
pub enum VecRef<'a, T = f32> {
    /// Host data, uploaded for the call.
    Host(ArrayView1<'a, T>),
    /// Device data, used in place.
    Device(DeviceVec<'a>),
}

/// An output (or input-output) vector: an ndarray view, written back after the call, or a
/// resident [`GpuVector`], written on the device.
#[derive(Debug)]
pub enum VecMut<'a, T = f32> {
    /// Host data: uploaded, then read back into the view.
    Host(ArrayViewMut1<'a, T>),
    /// Device data, updated in place.
    Device(DeviceVec<'a>),
}

/// An input matrix: an ndarray view (any layout) or a resident [`GpuMatrix`] (or its `.t()`).
#[derive(Debug, Clone)]
pub enum MatRef<'a, T = f32> {
    /// Host data, uploaded for the call.
    Host(ArrayView2<'a, T>),
    /// Device data, used in place.
    Device(DeviceMat<'a>),
}

/// An output (or input-output) matrix: an ndarray view or a resident [`GpuMatrix`].
#[derive(Debug)]
pub enum MatMut<'a, T = f32> {
    /// Host data: uploaded, then read back into the view.
    Host(ArrayViewMut2<'a, T>),
    /// Device data, updated in place.
    Device(DeviceMat<'a>),
}

/// A scalar argument (`alpha`, `beta`): a host value or an f32 [`GpuScalar`] read on the
/// device. With a device scalar the host-side quick returns on its value (alpha = 0, beta = 1)
/// cannot be taken; the kernels still apply the value-dependent rules of reference BLAS where
/// they test it themselves (gemv, gemm: alpha = 0 reads neither operand, beta = 0 never reads
/// the output).
#[derive(Debug, Clone, Copy)]
pub enum Scalar<'a> {
    /// A value known on the host.
    Host(f32),
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
impl<'a, 'c, T: Element> From<&'a GpuVector<'c, T>> for VecRef<'a, T> {
    fn from(x: &'a GpuVector<'c, T>) -> Self {
        VecRef::Device(x.device())
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
impl<'a, 'c, T: Element> From<&'a mut GpuVector<'c, T>> for VecMut<'a, T> {
    fn from(x: &'a mut GpuVector<'c, T>) -> Self {
        VecMut::Device(x.device())
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
impl<'a, 'c, T: Element> From<&'a GpuMatrix<'c, T>> for MatRef<'a, T> {
    fn from(a: &'a GpuMatrix<'c, T>) -> Self {
        MatRef::Device(a.device())
    }
}
impl<'a, T> From<DeviceMat<'a>> for MatRef<'a, T> {
    fn from(a: DeviceMat<'a>) -> Self {
        MatRef::Device(a)
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
impl<'a, 'c, T: Element> From<&'a mut GpuMatrix<'c, T>> for MatMut<'a, T> {
    fn from(a: &'a mut GpuMatrix<'c, T>) -> Self {
        MatMut::Device(a.device())
    }
}
impl From<f32> for Scalar<'_> {
    fn from(v: f32) -> Self {
        Scalar::Host(v)
    }
}
impl<'a, 'c> From<&'a GpuScalar<'c, f32>> for Scalar<'a> {
    fn from(s: &'a GpuScalar<'c, f32>) -> Self {
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

impl Scalar<'_> {
    /// The value, where it is known on the host.
    pub fn host(&self) -> Option<f32> {
        match self {
            Scalar::Host(v) => Some(*v),
            Scalar::Device(..) => None,
        }
    }

    /// Whether the value is known on the host to be `v` (a device scalar never is).
    pub fn is(&self, v: f32) -> bool {
        self.host() == Some(v)
    }

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

fn check_ctx(ctx: &Context, id: u64, routine: &'static str, arg: &'static str) -> Result<()> {
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

/// How a view's memory is laid out: the span from its lowest to its highest element.
struct Span {
    /// Offset (in elements, may be negative) of the lowest element from logical element 0.
    low: isize,
    /// Elements from the lowest to the highest element, inclusive.
    len: usize,
}

fn span_of(shape: &[usize], strides: &[isize]) -> Span {
    let mut low = 0isize;
    let mut high = 0isize;
    for (&n, &s) in shape.iter().zip(strides) {
        if n == 0 {
            return Span { low: 0, len: 0 };
        }
        let ext = (n as isize - 1) * s;
        if ext < 0 {
            low += ext;
        } else {
            high += ext;
        }
    }
    Span {
        low,
        len: (high - low) as usize + 1,
    }
}

/// Check that `elems` elements of `T` fit one storage binding of this device and the kernels'
/// 32-bit signed addressing.
pub(crate) fn check_fits<T>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    elems: usize,
) -> Result<()> {
    let size = std::mem::size_of::<T>() as u64;
    let bytes = elems as u64 * size;
    let limits = ctx.limits();
    let limit = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size)
        .min(i32::MAX as u64 * size);
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

/// The view's data as one slice plus the offset of logical element 0 and the strides to use,
/// either borrowed (the span) or packed (C order).
fn gather<'a, T: Copy, D: Dimension>(
    view: &ndarray::ArrayView<'a, T, D>,
) -> (std::borrow::Cow<'a, [T]>, usize, Vec<isize>) {
    let shape = view.shape().to_vec();
    let strides = view.strides().to_vec();
    let count: usize = shape.iter().product();
    let span = span_of(&shape, &strides);
    if count > 0 && span.len <= 2 * count + 16 {
        // SAFETY: every element of the view lies inside one allocation, between the lowest and
        // the highest element, so the span is inside that allocation; ndarray views are
        // initialised, and the `Pod` element types the crate uses accept any bit pattern.
        let slice: &'a [T] = unsafe {
            let base = view.as_ptr().offset(span.low);
            std::slice::from_raw_parts(base, span.len)
        };
        (
            std::borrow::Cow::Borrowed(slice),
            (-span.low) as usize,
            strides,
        )
    } else {
        let packed: Vec<T> = view.iter().copied().collect();
        let mut c_strides = vec![0isize; shape.len()];
        let mut acc = 1isize;
        for d in (0..shape.len()).rev() {
            c_strides[d] = acc;
            acc *= shape[d].max(1) as isize;
        }
        (std::borrow::Cow::Owned(packed), 0, c_strides)
    }
}

/// Upload a vector view (any stride, including negative and zero).
pub(crate) fn vector<'v, T: bytemuck::Pod + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    x: impl Into<VecRef<'v, T>>,
) -> Result<VecOperand> {
    let x = match x.into() {
        VecRef::Host(x) => x,
        VecRef::Device(d) => {
            check_ctx(ctx, d.ctx_id, routine, arg)?;
            return Ok(VecOperand {
                buffer: Buf::shared(d.buffer),
                offset: 0,
                inc: 1,
                len: d.len,
                span: d.len,
            });
        }
    };
    let (data, offset, strides) = gather(&x);
    check_fits::<T>(ctx, routine, arg, data.len())?;
    Ok(VecOperand {
        buffer: ctx.upload(&data),
        offset: offset as u32,
        inc: strides[0] as i32,
        len: x.len(),
        span: data.len(),
    })
}

/// Upload a matrix view (C order, F order, transposed, sliced, stepped, negative strides).
pub(crate) fn matrix<'v, T: bytemuck::Pod + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: impl Into<MatRef<'v, T>>,
) -> Result<MatOperand> {
    let a = match a.into() {
        MatRef::Host(a) => a,
        MatRef::Device(d) => {
            check_ctx(ctx, d.ctx_id, routine, arg)?;
            return Ok(MatOperand {
                buffer: Buf::shared(d.buffer),
                offset: 0,
                rs: d.rs,
                cs: d.cs,
                rows: d.rows,
                cols: d.cols,
                span: d.span,
            });
        }
    };
    let (data, offset, strides) = gather(&a);
    check_fits::<T>(ctx, routine, arg, data.len())?;
    Ok(MatOperand {
        buffer: ctx.upload(&data),
        offset: offset as u32,
        rs: strides[0] as i32,
        cs: strides[1] as i32,
        rows: a.nrows(),
        cols: a.ncols(),
        span: data.len(),
    })
}

/// Write the read-back span of `op` into the caller's view, element by element.
pub(crate) fn write_vector<T: Copy>(out: &mut ArrayViewMut1<'_, T>, data: &[T], op: &VecOperand) {
    for (i, v) in out.iter_mut().enumerate() {
        *v = data[(op.offset as isize + i as isize * op.inc as isize) as usize];
    }
}

/// Write the read-back span of `op` into the caller's view, element by element.
pub(crate) fn write_matrix<T: Copy>(out: &mut ArrayViewMut2<'_, T>, data: &[T], op: &MatOperand) {
    let (off, rs, cs) = (op.offset as isize, op.rs as isize, op.cs as isize);
    for ((i, j), v) in out.indexed_iter_mut() {
        *v = data[(off + i as isize * rs + j as isize * cs) as usize];
    }
}

/// Write the triangle `uplo` of the read-back span of `op` into the caller's square view,
/// element by element; the other triangle of the view is not touched at all.
pub(crate) fn write_triangle<T: Copy>(
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

/// Where a routine's result goes: the output argument and the device operand that holds the
/// result (the output's own upload, or a separate buffer laid out like it).
pub(crate) enum Out<'r, 'a> {
    /// A whole vector.
    Vec(&'r mut VecMut<'a, f32>, &'r VecOperand),
    /// A whole matrix.
    Mat(&'r mut MatMut<'a, f32>, &'r MatOperand),
    /// One triangle of a square matrix (the other is not written on the host).
    Tri(&'r mut MatMut<'a, f32>, &'r MatOperand, Uplo),
}

/// Run `dispatches` and deliver the results: host outputs are read back (one submission, one
/// read-back for all of them) and written element by element; resident outputs stay on the
/// device (a result computed in a separate buffer is copied into the output's buffer on the
/// device). With only resident outputs nothing waits: the commands are held back.
pub(crate) fn finish(
    ctx: &Context,
    routine: &'static str,
    dispatches: &[Dispatch<'_>],
    outs: &mut [Out<'_, '_>],
) -> Result<()> {
    let mut reads: Vec<(&wgpu::Buffer, usize)> = Vec::new();
    let mut copies = Vec::new();
    for o in outs.iter() {
        let (device, buffer, span) = match o {
            Out::Vec(VecMut::Device(d), op) => (Some(d.buffer), &op.buffer, op.span),
            Out::Mat(MatMut::Device(d), op) | Out::Tri(MatMut::Device(d), op, _) => {
                (Some(d.buffer), &op.buffer, op.span)
            }
            Out::Vec(_, op) => (None, &op.buffer, op.span),
            Out::Mat(_, op) | Out::Tri(_, op, _) => (None, &op.buffer, op.span),
        };
        match device {
            Some(target) if **buffer != *target => copies.push(Command::Copy {
                src: (**buffer).clone(),
                src_offset: 0,
                dst: target.clone(),
                dst_offset: 0,
                size: (span.max(1) * 4) as u64,
            }),
            Some(_) => {}
            None => reads.push((buffer, span)),
        }
    }
    let data = ctx.execute_then::<f32>(routine, dispatches, copies, &reads)?;
    let mut data = data.into_iter();
    for o in outs.iter_mut() {
        match o {
            Out::Vec(VecMut::Host(v), op) => write_vector(v, &data.next().unwrap_or_default(), op),
            Out::Mat(MatMut::Host(v), op) => write_matrix(v, &data.next().unwrap_or_default(), op),
            Out::Tri(MatMut::Host(v), op, uplo) => {
                write_triangle(v, &data.next().unwrap_or_default(), op, *uplo)
            }
            _ => {}
        }
    }
    Ok(())
}

/// Set every element of `out` to zero (on the device for a resident output).
pub(crate) fn fill_zero(ctx: &Context, out: &mut MatMut<'_, f32>) {
    match out {
        MatMut::Host(v) => v.fill(0.0),
        MatMut::Device(d) => ctx.hold(vec![Command::Clear {
            buffer: d.buffer.clone(),
        }]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{s, Array2};

    #[test]
    fn span_of_negative_and_stepped_views() {
        let a = Array2::<f32>::zeros((4, 6));
        let v = a.slice(s![..;-1, ..;2]);
        let sp = span_of(v.shape(), v.strides());
        // rows reversed: stride -6, 3 rows of extent; columns step 2: 2 steps of 2.
        assert_eq!(sp.low, -18);
        assert_eq!(sp.len, 18 + 4 + 1);
    }

    #[test]
    fn gather_borrows_dense_and_packs_sparse() {
        let a = Array2::<f32>::from_shape_fn((3, 40), |(i, j)| (i * 40 + j) as f32);
        let (data, off, st) = gather(&a.t());
        assert!(matches!(data, std::borrow::Cow::Borrowed(_)));
        assert_eq!((off, st.as_slice()), (0, &[1isize, 40][..]));
        let col = a.column(5);
        let (data, off, st) = gather(&col);
        assert!(matches!(data, std::borrow::Cow::Owned(_)));
        assert_eq!((off, st[0]), (0, 1));
        assert_eq!(data.as_ref(), &[5.0, 45.0, 85.0]);
        let rev = a.slice(s![1, ..;-1]);
        let (data, off, st) = gather(&rev);
        assert_eq!(st[0], -1);
        assert_eq!(data[off], 79.0);
        assert_eq!(data[(off as isize + 39 * st[0]) as usize], 40.0);
    }
}
