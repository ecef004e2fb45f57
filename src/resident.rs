//! GPU-resident data: upload once, chain many calls, read back once.
//!
//! [`GpuVector`] and [`GpuMatrix`] hold their elements in a device buffer of one
//! [`Context`]; every routine of [`crate::blas`] takes them wherever it takes an ndarray view
//! (`&x` for an input, `&mut y` for an output), and host views and resident operands may be
//! mixed in one call: host inputs are uploaded for that call, host outputs are read back and
//! written, resident outputs stay on the device. A call whose outputs are all resident does
//! not wait for the device: its commands are held back and submitted, in order, with the next
//! read-back (`to_array`, [`GpuScalar::get`], [`Context::read_back`], any host-output call) or
//! [`Context::flush`]. Two cases submit on their own, so that held memory stays bounded: once
//! 1024 commands (dispatches, copies, clears) are held, they are submitted (a long chain with
//! no read-back goes in a few submissions, with the same results), and an upload larger than
//! one staging chunk (32 MiB) submits each chunk as it is filled, with everything held before
//! it. [`Context::submissions`] counts both.
//!
//! Sub-views: [`GpuVector::slice`] (a range) and [`GpuMatrix::slice`] (a block, or a range of
//! rows or columns) are operands with no copy, and their `_mut` forms outputs that change only
//! their own elements. [`Context::read_back`] reads several resident results in one
//! submission.
//!
//! [`GpuScalar`] is a reduction result kept on the device ([`crate::resident::sdot`],
//! `snrm2`, `sasum`, `isamax`); an f32 one can be the `alpha` or `beta` of `saxpy`, `sscal`,
//! `sgemv` or `sgemm` with no host sync (the value is copied into the kernel's parameters on
//! the device), and [`GpuScalar::div`], [`GpuScalar::neg`] and [`GpuScalar::recip`] combine them on the
//! device.
//!
//! ```
//! use ndarray::Array1;
//! use wgblas::{blas, resident, Context};
//! let ctx = Context::shared()?;
//! let x = ctx.upload_vector(&Array1::from_vec(vec![1.0f32, 2.0, 3.0]))?;
//! let mut y = ctx.upload_vector(&Array1::from_vec(vec![1.0f32, 1.0, 1.0]))?;
//! let d = resident::sdot(ctx, &x, &x)?;            // 14, on the device
//! let alpha = d.div(&resident::sdot(ctx, &x, &y)?)?; // 14 / 6, on the device
//! blas::saxpy(ctx, &alpha, &x, &mut y)?;           // y += alpha·x, alpha never read back
//! let y = y.to_array()?;                           // one submission, one read-back
//! assert!((y[2] - (1.0 + 14.0 / 6.0 * 3.0)).abs() < 1e-5);
//! # Ok::<(), wgblas::Error>(())
//! ```

use std::marker::PhantomData;
use std::ops::{Bound, RangeBounds};

use ndarray::{Array1, Array2, Array3, ArrayBase, Data, Ix1, Ix2, Ix3, ShapeBuilder};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::launch::Dispatch;
use crate::layout::{
    check_fits, BatchMut, BatchRef, DeviceBatch, DeviceMat, DeviceVec, MatMut, VecMut,
};
use crate::pool::Buf;
use crate::transfer::Source;

mod readback;
pub use readback::ReadBack;

/// Element types a resident array can hold.
pub trait Element: bytemuck::Pod + Default + Copy + Send + Sync + 'static {}
impl Element for f32 {}
impl Element for f64 {}

/// Storage order of a [`GpuMatrix`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatrixLayout {
    /// C order: element (i, j) at `i·ld + j`.
    RowMajor,
    /// F order: element (i, j) at `i + j·ld`.
    ColMajor,
}

/// A vector in device memory (contiguous). Created by [`Context::upload_vector`] or
/// [`GpuVector::zeros`]; read back by [`GpuVector::to_array`]; its buffer returns to the
/// context's pool on drop.
#[derive(Debug)]
pub struct GpuVector<'c, T: Element = f32> {
    ctx: &'c Context,
    buf: Buf,
    len: usize,
    _t: PhantomData<T>,
}

/// A matrix in device memory, row- or column-major with leading dimension `ld`. Created by
/// [`Context::upload_matrix`] or [`GpuMatrix::zeros`]; read back by [`GpuMatrix::to_array`].
#[derive(Debug)]
pub struct GpuMatrix<'c, T: Element = f32> {
    ctx: &'c Context,
    buf: Buf,
    rows: usize,
    cols: usize,
    layout: MatrixLayout,
    _t: PhantomData<T>,
}

impl Context {
    /// Upload a 1-D array (any stride) into a new contiguous [`GpuVector`].
    ///
    /// # Errors
    /// [`Error::TooLarge`] past one buffer of this adapter (`max_buffer_size`); a resident operand
    /// may be larger than one storage binding (routines process it in parts).
    pub fn upload_vector<T: Element, S: Data<Elem = T>>(
        &self,
        x: &ArrayBase<S, Ix1>,
    ) -> Result<GpuVector<'_, T>> {
        check_fits::<T>(self, "upload", "x", x.len())?;
        let x = x.view();
        let src = match x.as_slice() {
            Some(data) => Source::slice(data),
            // Any other stride is gathered in logical order, straight into staging memory.
            // SAFETY: pointer, shape and strides of a live view; the plan only reads.
            None => unsafe {
                Source::of_view_packed(x.as_ptr().cast_mut(), x.shape(), x.strides())
            },
        };
        let buf = self.upload_source("upload", &src)?;
        Ok(GpuVector {
            ctx: self,
            buf,
            len: x.len(),
            _t: PhantomData,
        })
    }

    /// Upload a 2-D array into a new [`GpuMatrix`]: F-order input stays column-major, anything
    /// else becomes row-major (C order), with `ld` the row (column) length.
    ///
    /// # Errors
    /// [`Error::TooLarge`] past one buffer of this adapter (`max_buffer_size`); a resident operand
    /// may be larger than one storage binding (routines process it in parts).
    pub fn upload_matrix<T: Element, S: Data<Elem = T>>(
        &self,
        a: &ArrayBase<S, Ix2>,
    ) -> Result<GpuMatrix<'_, T>> {
        check_fits::<T>(self, "upload", "a", a.len())?;
        let f_order = a.t().is_standard_layout() && !a.is_standard_layout();
        // C order and F order are copied as they are; anything else is gathered in C order
        // (the plan of a standard-layout view is exactly its memory, and a packed plan is C
        // order), straight into staging memory.
        let (v, layout) = if f_order {
            (a.t(), MatrixLayout::ColMajor)
        } else {
            (a.view(), MatrixLayout::RowMajor)
        };
        let src = if v.is_standard_layout() {
            Source::slice(v.to_slice().unwrap_or_default())
        } else {
            // A non-standard view of a C-order request: force the packed (C) order by
            // describing it as a 2-D gather of its rows.
            // SAFETY: pointer, shape and strides of a live view; the plan only reads.
            unsafe { Source::of_view_packed(v.as_ptr().cast_mut(), v.shape(), v.strides()) }
        };
        Ok(GpuMatrix {
            ctx: self,
            buf: self.upload_source("upload", &src)?,
            rows: a.nrows(),
            cols: a.ncols(),
            layout,
            _t: PhantomData,
        })
    }
}

/// `(start, end)` of `range` within `0..len`, or [`Error::OutOfRange`].
fn bounds(
    routine: &'static str,
    arg: &'static str,
    range: impl RangeBounds<usize>,
    len: usize,
) -> Result<(usize, usize)> {
    let lo = match range.start_bound() {
        Bound::Included(&a) => Some(a),
        Bound::Excluded(&a) => a.checked_add(1),
        Bound::Unbounded => Some(0),
    };
    let hi = match range.end_bound() {
        Bound::Included(&b) => b.checked_add(1),
        Bound::Excluded(&b) => Some(b),
        Bound::Unbounded => Some(len),
    };
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo <= hi && hi <= len => Ok((lo, hi)),
        _ => Err(Error::OutOfRange {
            routine,
            arg,
            detail: match (lo, hi) {
                (Some(lo), Some(hi)) => format!("{lo}..{hi} is not a range within 0..{len}"),
                _ => format!("the range does not fit usize (length {len})"),
            },
        }),
    }
}

impl<'c, T: Element> GpuVector<'c, T> {
    /// A zero vector of `len` elements on `ctx`.
    ///
    /// # Errors
    /// [`Error::TooLarge`] past one buffer of this adapter (`max_buffer_size`); a resident operand
    /// may be larger than one storage binding (routines process it in parts).
    pub fn zeros(ctx: &'c Context, len: usize) -> Result<Self> {
        check_fits::<T>(ctx, "zeros", "len", len)?;
        let buf = ctx.zeroed_checked("zeros", (len * std::mem::size_of::<T>()) as u64)?;
        Ok(GpuVector {
            ctx,
            buf,
            len,
            _t: PhantomData,
        })
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the vector has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The context the vector lives on.
    pub fn context(&self) -> &'c Context {
        self.ctx
    }

    /// Read the vector back (submits any held commands first: one submission, one read-back).
    ///
    /// # Errors
    /// [`Error::Gpu`] on a device failure.
    pub fn to_array(&self) -> Result<Array1<T>> {
        let out = self
            .ctx
            .execute::<T>("to_array", &[], &[(&self.buf, self.len)])?;
        Ok(Array1::from_vec(out.into_iter().next().unwrap_or_default()))
    }

    /// [`GpuVector::to_array`] without blocking the calling thread: the read-back waits on
    /// wgpu's map callbacks (driven by a helper thread), so an async executor keeps running
    /// other tasks meanwhile. Several read-backs may be awaited at once.
    ///
    /// # Errors
    /// [`Error::Gpu`] on a device failure.
    pub async fn to_array_async(&self) -> Result<Array1<T>> {
        let data = self
            .ctx
            .execute_async::<T>("to_array", &[], &[(&self.buf, self.len)])
            .await?;
        Ok(Array1::from_vec(
            data.into_iter().next().unwrap_or_default(),
        ))
    }

    pub(crate) fn device(&self) -> DeviceVec<'_, T> {
        DeviceVec {
            buffer: &self.buf,
            offset: 0,
            len: self.len,
            ctx_id: self.ctx.id,
            _t: PhantomData,
        }
    }

    /// The elements `range` of the vector as an operand, with no copy: `&x` of a shorter
    /// vector that starts at element `range.start` (ndarray's `x.slice(s![a..b])`). It reads
    /// like `&x` (`blas::sdot(ctx, x.slice(2..5)?, ..)`); for an output use
    /// [`GpuVector::slice_mut`].
    ///
    /// # Errors
    /// [`Error::OutOfRange`] (routine `slice`, argument `range`) when the range is not within
    /// `0..len` or ends before it starts.
    pub fn slice(&self, range: impl RangeBounds<usize>) -> Result<DeviceVec<'_, T>> {
        let (lo, hi) = bounds("slice", "range", range, self.len)?;
        Ok(DeviceVec {
            offset: lo,
            len: hi - lo,
            ..self.device()
        })
    }

    /// The elements `range` of the vector as an output operand, with no copy: a routine that
    /// writes it changes those elements of the vector and no others
    /// (`blas::saxpy(ctx, 2.0, &x, y.slice_mut(4..8)?)`).
    ///
    /// # Errors
    /// As [`GpuVector::slice`].
    pub fn slice_mut(&mut self, range: impl RangeBounds<usize>) -> Result<VecMut<'_, T>> {
        let (lo, hi) = bounds("slice_mut", "range", range, self.len)?;
        Ok(VecMut::Device(DeviceVec {
            offset: lo,
            len: hi - lo,
            ..self.device()
        }))
    }
}

impl<'c, T: Element> GpuMatrix<'c, T> {
    /// A zero `rows`×`cols` matrix on `ctx` in `layout`.
    ///
    /// # Errors
    /// [`Error::TooLarge`] past one buffer of this adapter (`max_buffer_size`); a resident operand
    /// may be larger than one storage binding (routines process it in parts).
    pub fn zeros(
        ctx: &'c Context,
        (rows, cols): (usize, usize),
        layout: MatrixLayout,
    ) -> Result<Self> {
        let elems = rows.checked_mul(cols).ok_or(Error::TooLarge {
            routine: "zeros",
            arg: "shape",
            bytes: u64::MAX,
            limit: ctx.limits().max_storage_buffer_binding_size,
        })?;
        check_fits::<T>(ctx, "zeros", "shape", elems)?;
        let buf = ctx.zeroed_checked("zeros", (elems * std::mem::size_of::<T>()) as u64)?;
        Ok(GpuMatrix {
            ctx,
            buf,
            rows,
            cols,
            layout,
            _t: PhantomData,
        })
    }

    /// (rows, columns).
    pub fn dim(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// Storage order.
    pub fn layout(&self) -> MatrixLayout {
        self.layout
    }

    /// Leading dimension: the row length (row-major) or the column length (column-major).
    pub fn ld(&self) -> usize {
        match self.layout {
            MatrixLayout::RowMajor => self.cols,
            MatrixLayout::ColMajor => self.rows,
        }
    }

    /// The context the matrix lives on.
    pub fn context(&self) -> &'c Context {
        self.ctx
    }

    /// Read the matrix back, in its own storage order (submits held commands first).
    ///
    /// # Errors
    /// [`Error::Gpu`] on a device failure.
    pub fn to_array(&self) -> Result<Array2<T>> {
        let n = self.rows * self.cols;
        let data = self
            .ctx
            .execute::<T>("to_array", &[], &[(&self.buf, n)])?
            .pop()
            .unwrap_or_default();
        self.shape_data(data)
    }

    /// [`GpuMatrix::to_array`] without blocking the calling thread (see
    /// [`GpuVector::to_array_async`]).
    ///
    /// # Errors
    /// [`Error::Gpu`] on a device failure.
    pub async fn to_array_async(&self) -> Result<Array2<T>> {
        let n = self.rows * self.cols;
        let data = self
            .ctx
            .execute_async::<T>("to_array", &[], &[(&self.buf, n)])
            .await?
            .pop()
            .unwrap_or_default();
        self.shape_data(data)
    }

    /// Read-back data, in storage order, as an array of this matrix's shape.
    fn shape_data(&self, data: Vec<T>) -> Result<Array2<T>> {
        let shape = (self.rows, self.cols);
        let a = match self.layout {
            MatrixLayout::RowMajor => Array2::from_shape_vec(shape, data),
            MatrixLayout::ColMajor => Array2::from_shape_vec(shape.f(), data),
        };
        a.map_err(|e| Error::Gpu {
            routine: "to_array",
            detail: e.to_string(),
        })
    }

    /// The transposed matrix as an operand (no data moves): `blas::sgemm(.., a.t(), ..)`.
    pub fn t(&self) -> DeviceMat<'_, T> {
        self.device().t()
    }

    /// The block `rows` × `cols` of the matrix as an operand, with no copy: the same buffer
    /// with an element offset and the matrix's leading dimension (ndarray's
    /// `a.slice(s![r0..r1, c0..c1])`). `a.slice(2..5, ..)` is a range of rows,
    /// `a.slice(.., 1..3)` a range of columns. It reads like `&a`, and `.t()` transposes it;
    /// for an output use [`GpuMatrix::slice_mut`].
    ///
    /// # Errors
    /// [`Error::OutOfRange`] (routine `slice`, argument `rows` or `cols`) when a range is not
    /// within the matrix or ends before it starts.
    pub fn slice(
        &self,
        rows: impl RangeBounds<usize>,
        cols: impl RangeBounds<usize>,
    ) -> Result<DeviceMat<'_, T>> {
        self.block("slice", rows, cols)
    }

    /// The block `rows` × `cols` as an output operand, with no copy: a routine that writes it
    /// changes those elements of the matrix and no others
    /// (`blas::sgemm(.., c.slice_mut(0..2, 2..4)?)`).
    ///
    /// # Errors
    /// As [`GpuMatrix::slice`] (routine `slice_mut`).
    pub fn slice_mut(
        &mut self,
        rows: impl RangeBounds<usize>,
        cols: impl RangeBounds<usize>,
    ) -> Result<MatMut<'_, T>> {
        Ok(MatMut::Device(self.block("slice_mut", rows, cols)?))
    }

    fn block(
        &self,
        routine: &'static str,
        rows: impl RangeBounds<usize>,
        cols: impl RangeBounds<usize>,
    ) -> Result<DeviceMat<'_, T>> {
        let (r0, r1) = bounds(routine, "rows", rows, self.rows)?;
        let (c0, c1) = bounds(routine, "cols", cols, self.cols)?;
        let d = self.device();
        let offset = r0 * d.rs as usize + c0 * d.cs as usize;
        let (m, n) = (r1 - r0, c1 - c0);
        let span = if m == 0 || n == 0 {
            offset
        } else {
            offset + (m - 1) * d.rs as usize + (n - 1) * d.cs as usize + 1
        };
        Ok(DeviceMat {
            offset,
            rows: m,
            cols: n,
            span,
            ..d
        })
    }

    pub(crate) fn device(&self) -> DeviceMat<'_, T> {
        let (rs, cs) = match self.layout {
            MatrixLayout::RowMajor => (self.cols as i32, 1),
            MatrixLayout::ColMajor => (1, self.rows as i32),
        };
        DeviceMat {
            buffer: &self.buf,
            offset: 0,
            rows: self.rows,
            cols: self.cols,
            rs,
            cs,
            span: self.rows * self.cols,
            ctx_id: self.ctx.id,
            _t: PhantomData,
        }
    }
}

/// A batch of matrices in device memory (batch × rows × columns, C order: matrix `b` is the
/// row-major block at `b·rows·cols`), the resident operand of the batched routines
/// (`blas::sgemm_batched`). Created by [`Context::upload_batch`] or [`GpuBatch::zeros`]; read
/// back by [`GpuBatch::to_array`]; `.t()` transposes every matrix with no copy.
#[derive(Debug)]
pub struct GpuBatch<'c, T: Element = f32> {
    ctx: &'c Context,
    buf: Buf,
    dim: (usize, usize, usize),
    _t: PhantomData<T>,
}

impl Context {
    /// Upload a 3-D array (batch × rows × columns, any layout) into a new C-order
    /// [`GpuBatch`]: a C-order array is copied as it is, anything else gathered in C order.
    ///
    /// # Errors
    /// [`Error::TooLarge`] past one storage binding of this adapter.
    pub fn upload_batch<T: Element, S: Data<Elem = T>>(
        &self,
        a: &ArrayBase<S, Ix3>,
    ) -> Result<GpuBatch<'_, T>> {
        check_fits::<T>(self, "upload", "a", a.len())?;
        let c = a.as_standard_layout();
        let buf = self.upload_source("upload", &Source::slice(c.as_slice().unwrap_or_default()))?;
        Ok(GpuBatch {
            ctx: self,
            buf,
            dim: a.dim(),
            _t: PhantomData,
        })
    }
}

impl<'c, T: Element> GpuBatch<'c, T> {
    /// A zero batch of `batch` matrices of `rows`×`cols` on `ctx`.
    ///
    /// # Errors
    /// [`Error::TooLarge`] past one storage binding of this adapter.
    pub fn zeros(ctx: &'c Context, (batch, rows, cols): (usize, usize, usize)) -> Result<Self> {
        let elems = batch
            .checked_mul(rows)
            .and_then(|e| e.checked_mul(cols))
            .ok_or(Error::TooLarge {
                routine: "zeros",
                arg: "shape",
                bytes: u64::MAX,
                limit: ctx.limits().max_storage_buffer_binding_size,
            })?;
        check_fits::<T>(ctx, "zeros", "shape", elems)?;
        let buf = ctx.zeroed_checked("zeros", (elems * std::mem::size_of::<T>()) as u64)?;
        Ok(GpuBatch {
            ctx,
            buf,
            dim: (batch, rows, cols),
            _t: PhantomData,
        })
    }

    /// (batch, rows, columns).
    pub fn dim(&self) -> (usize, usize, usize) {
        self.dim
    }

    /// The context the batch lives on.
    pub fn context(&self) -> &'c Context {
        self.ctx
    }

    /// Read the batch back as a C-order array (submits held commands first).
    ///
    /// # Errors
    /// [`Error::Gpu`] on a device failure.
    pub fn to_array(&self) -> Result<Array3<T>> {
        let (b, m, n) = self.dim;
        let data = self
            .ctx
            .execute::<T>("to_array", &[], &[(&self.buf, b * m * n)])?
            .pop()
            .unwrap_or_default();
        Array3::from_shape_vec(self.dim, data).map_err(|e| Error::Gpu {
            routine: "to_array",
            detail: e.to_string(),
        })
    }

    /// Every matrix of the batch transposed, as an operand (no data moves).
    pub fn t(&self) -> DeviceBatch<'_> {
        self.device().t()
    }

    pub(crate) fn device(&self) -> DeviceBatch<'_> {
        let (batch, rows, cols) = self.dim;
        DeviceBatch {
            buffer: &self.buf,
            batch,
            rows,
            cols,
            bs: (rows * cols) as i32,
            rs: cols as i32,
            cs: 1,
            span: batch * rows * cols,
            ctx_id: self.ctx.id,
        }
    }
}

impl<'a, 'c, T: Element> From<&'a GpuBatch<'c, T>> for BatchRef<'a, T> {
    fn from(a: &'a GpuBatch<'c, T>) -> Self {
        BatchRef::Device(a.device())
    }
}

impl<'a, 'c, T: Element> From<&'a mut GpuBatch<'c, T>> for BatchMut<'a, T> {
    fn from(a: &'a mut GpuBatch<'c, T>) -> Self {
        BatchMut::Device(a.device())
    }
}

/// A scalar result kept on the device. [`GpuScalar::get`] reads it; an f32 one can be passed
/// as `alpha`/`beta` (`&s`) to `saxpy`, `sscal`, `sgemv`, `sgemm` without reading it.
pub struct GpuScalar<'c, T> {
    ctx: &'c Context,
    buf: Buf,
    /// Word (4-byte) offset of the value in `buf`.
    word: usize,
    /// Words to read from `word`, and how to turn them into `T`.
    words: usize,
    decode: fn(&[u32]) -> T,
}

impl<T> std::fmt::Debug for GpuScalar<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuScalar")
            .field("word", &self.word)
            .finish_non_exhaustive()
    }
}

pub(crate) fn decode_f32(w: &[u32]) -> f32 {
    f32::from_bits(w[0])
}

impl<'c, T> GpuScalar<'c, T> {
    /// The buffer and byte offset of the value, for patching a kernel's parameters (f32) or
    /// copying it into a kernel's scalar buffer (f64).
    pub(crate) fn source(&self) -> (&wgpu::Buffer, u64) {
        (&self.buf, self.word as u64 * 4)
    }

    pub(crate) fn ctx_id(&self) -> u64 {
        self.ctx.id
    }

    pub(crate) fn new(
        ctx: &'c Context,
        buf: Buf,
        word: usize,
        words: usize,
        decode: fn(&[u32]) -> T,
    ) -> Self {
        GpuScalar {
            ctx,
            buf,
            word,
            words,
            decode,
        }
    }

    /// Read the value (submits held commands first: one submission, one read-back).
    ///
    /// # Errors
    /// [`Error::Gpu`] on a device failure.
    pub fn get(&self) -> Result<T> {
        let out = self
            .ctx
            .execute::<u32>("get", &[], &[(&self.buf, self.word + self.words)])?;
        Ok((self.decode)(&out[0][self.word..]))
    }

    /// [`GpuScalar::get`] without blocking the calling thread (see
    /// [`GpuVector::to_array_async`]).
    ///
    /// # Errors
    /// [`Error::Gpu`] on a device failure.
    pub async fn get_async(&self) -> Result<T> {
        let out = self
            .ctx
            .execute_async::<u32>("get", &[], &[(&self.buf, self.word + self.words)])
            .await?;
        Ok((self.decode)(&out[0][self.word..]))
    }
}

static SCALAR_SHADER: crate::context::Shader = crate::context::Shader {
    name: "scalar.wgsl",
    source: include_str!("../wgsl/scalar.wgsl"),
};

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ScalarParams {
    a_word: u32,
    b_word: u32,
    _pad: [u32; 2],
}

impl<'c> GpuScalar<'c, f32> {
    fn op(&self, other: &GpuScalar<'c, f32>, op: u32) -> Result<GpuScalar<'c, f32>> {
        crate::layout::check_ctx(self.ctx, other.ctx.id, "GpuScalar", "other")?;
        let out = self.ctx.zeroed(16);
        let params = ScalarParams {
            a_word: self.word as u32,
            b_word: other.word as u32,
            _pad: [0; 2],
        };
        let d = Dispatch::new(
            &SCALAR_SHADER,
            "main",
            &params,
            &[&self.buf, &other.buf, &out],
            [1, 1, 1],
        )
        .constants(&[("OP", op as f64)]);
        self.ctx.execute::<u32>("GpuScalar", &[d], &[])?;
        Ok(GpuScalar::new(self.ctx, out, 0, 1, decode_f32))
    }

    /// `self / other`, computed on the device (IEEE division: x/0 is ±Inf or NaN).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] (routine `"GpuScalar"`, argument `"other"`) when `other`
    /// belongs to another context; [`Error::Gpu`] on a device failure.
    pub fn div(&self, other: &GpuScalar<'c, f32>) -> Result<GpuScalar<'c, f32>> {
        self.op(other, 0)
    }

    /// `-self`, computed on the device.
    ///
    /// # Errors
    /// [`Error::Gpu`] on a device failure.
    pub fn neg(&self) -> Result<GpuScalar<'c, f32>> {
        self.op(self, 1)
    }

    /// `1 / self`, computed on the device.
    ///
    /// # Errors
    /// [`Error::Gpu`] on a device failure.
    pub fn recip(&self) -> Result<GpuScalar<'c, f32>> {
        self.op(self, 2)
    }
}

/// `xᵀ·y` kept on the device. BLAS `sdot`; see [`crate::blas::sdot`] for shapes, layouts and
/// accuracy (the same kernels run).
///
/// # Errors
/// As [`crate::blas::sdot`].
pub fn sdot<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<crate::layout::VecRef<'a>>,
    y: impl Into<crate::layout::VecRef<'a>>,
) -> Result<GpuScalar<'c, f32>> {
    crate::blas::level1::dot::sdot_device(ctx, x, y)
}

/// `xᵀ·y` in f64 kept on the device (read it with [`GpuScalar::get`]). BLAS `ddot`; see
/// [`crate::blas::ddot`].
///
/// # Errors
/// As [`crate::blas::ddot`].
pub fn ddot<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<crate::layout::VecRef<'a, f64>>,
    y: impl Into<crate::layout::VecRef<'a, f64>>,
) -> Result<GpuScalar<'c, f64>> {
    crate::blas::level1::dot::ddot_device(ctx, x, y)
}

/// `Σ|x_i|` kept on the device. BLAS `sasum`; see [`crate::blas::sasum`].
///
/// # Errors
/// As [`crate::blas::sasum`].
pub fn sasum<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<crate::layout::VecRef<'a>>,
) -> Result<GpuScalar<'c, f32>> {
    crate::blas::level1::asum::sasum_device(ctx, x)
}

/// `‖x‖₂` kept on the device. BLAS `snrm2`; see [`crate::blas::snrm2`].
///
/// # Errors
/// As [`crate::blas::snrm2`].
pub fn snrm2<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<crate::layout::VecRef<'a>>,
) -> Result<GpuScalar<'c, f32>> {
    crate::blas::level1::nrm2::snrm2_device(ctx, x)
}

/// 0-based index of the first largest `|x_i|`, kept on the device. BLAS `isamax`; see
/// [`crate::blas::isamax`].
///
/// # Errors
/// As [`crate::blas::isamax`] (an empty vector is an error).
pub fn isamax<'a, 'c>(
    ctx: &'c Context,
    x: impl Into<crate::layout::VecRef<'a>>,
) -> Result<GpuScalar<'c, usize>> {
    crate::blas::level1::iamax::isamax_device(ctx, x)
}

/// Short forms of the common routines on resident `f32` and `f64` operands (the `s` routines
/// on f32, the `d` routines on f64, through one generic impl over [`Float`](crate::ext::Float)),
/// each returning a new resident result (the `gpu_*` names of the host-array extension traits
/// in [`crate::ext`]): no output to allocate first, nothing read back, held for the next
/// submission like any resident call.
impl<'c, T: crate::ext::Float + Element> GpuMatrix<'c, T> {
    /// `C = A·B` (A is `self`) as a new row-major m×n matrix. BLAS `sgemm` / `dgemm` with
    /// `alpha = 1`, `beta = 0`, no transposes; see [`blas::sgemm`](crate::blas::sgemm),
    /// [`blas::dgemm`](crate::blas::dgemm) (for transposes, scaling or accumulation, call them
    /// directly).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] naming `b` when `A` has not as many columns as `B` has
    /// rows; [`Error::InvalidArgument`] when `b` belongs to another context;
    /// [`Error::Unsupported`] for f64 on an adapter without `SHADER_F64`;
    /// [`Error::TooLarge`]; [`Error::Gpu`].
    pub fn gpu_gemm(&self, b: &GpuMatrix<'_, T>) -> Result<GpuMatrix<'c, T>> {
        let mut c = GpuMatrix::zeros(self.ctx, (self.rows, b.cols), MatrixLayout::RowMajor)?;
        T::gemm(
            self.ctx,
            crate::Transpose::No,
            crate::Transpose::No,
            T::ONE,
            self,
            b,
            T::ZERO,
            &mut c,
        )?;
        Ok(c)
    }

    /// `y = A·x` (A is `self`) as a new vector of length m. BLAS `sgemv` / `dgemv` with
    /// `alpha = 1`, `beta = 0`, no transpose; see [`blas::sgemv`](crate::blas::sgemv),
    /// [`blas::dgemv`](crate::blas::dgemv).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] naming `x` when its length is not the number of columns;
    /// [`Error::InvalidArgument`] when `x` belongs to another context;
    /// [`Error::Unsupported`] for f64 on an adapter without `SHADER_F64`; [`Error::TooLarge`];
    /// [`Error::Gpu`].
    pub fn gpu_gemv(&self, x: &GpuVector<'_, T>) -> Result<GpuVector<'c, T>> {
        let mut y = GpuVector::zeros(self.ctx, self.rows)?;
        T::gemv(
            self.ctx,
            crate::Transpose::No,
            T::ONE,
            self,
            x,
            T::ZERO,
            &mut y,
        )?;
        Ok(y)
    }
}

impl<'c, T: crate::ext::Float + Element> GpuVector<'c, T> {
    /// `xᵀ·y = Σ_i x_i·y_i` (x is `self`), kept on the device. BLAS `sdot` / `ddot`; see
    /// [`resident::sdot`](crate::resident::sdot), [`resident::ddot`](crate::resident::ddot)
    /// and [`blas::sdot`](crate::blas::sdot) (summation order and error bound).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] naming `y` when the lengths differ;
    /// [`Error::InvalidArgument`] when `y` belongs to another context;
    /// [`Error::Unsupported`] for f64 on an adapter without `SHADER_F64`; [`Error::Gpu`].
    pub fn gpu_dot(&self, y: &GpuVector<'_, T>) -> Result<GpuScalar<'c, T>> {
        T::dot_kept(self.ctx, self, y)
    }

    /// `alpha·x + y` (x is `self`) as a new vector; `y` is unchanged. BLAS `saxpy` / `daxpy`
    /// on a copy of `y` (`scopy` / `dcopy`); see [`blas::saxpy`](crate::blas::saxpy)
    /// (`alpha = 0` returns `y` exactly, NaN in `x` included, as DESIGN.md §3 says).
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] naming `y` when the lengths differ;
    /// [`Error::InvalidArgument`] when `y` belongs to another context;
    /// [`Error::Unsupported`] for f64 on an adapter without `SHADER_F64`; [`Error::Gpu`].
    pub fn gpu_axpy(&self, alpha: T, y: &GpuVector<'_, T>) -> Result<GpuVector<'c, T>> {
        if y.len != self.len {
            return Err(Error::DimensionMismatch {
                routine: T::AXPY,
                arg: "y",
                detail: format!("x has length {}, y has length {}", self.len, y.len),
            });
        }
        let mut out = GpuVector::zeros(self.ctx, self.len)?;
        T::copy(self.ctx, y, &mut out)?;
        T::axpy(self.ctx, alpha, self, &mut out)?;
        Ok(out)
    }
}

/// Short forms on resident `f32` vectors only: the norm kept on the device (`dnrm2` finishes
/// LAPACK's combination of its sums on the host, [`blas::dnrm2`](crate::blas::dnrm2)).
impl<'c> GpuVector<'c, f32> {
    /// `‖x‖₂` (x is `self`), kept on the device, without overflow or underflow. BLAS
    /// `snrm2`; see [`resident::snrm2`](crate::resident::snrm2).
    ///
    /// # Errors
    /// [`Error::Gpu`].
    pub fn gpu_nrm2(&self) -> Result<GpuScalar<'c, f32>> {
        snrm2(self.ctx, self)
    }
}
