//! [`GpuBatch`]: a batch of matrices in device memory.

use std::marker::PhantomData;

use ndarray::{Array3, ArrayBase, Data, Ix3};

use super::Element;
use crate::context::Context;
use crate::error::{Error, Result};
use crate::layout::{batch_line, check_fits, check_lines, BatchMut, BatchRef, DeviceBatch};
use crate::pool::Buf;
use crate::transfer::Source;

/// A batch of matrices in device memory (batch × rows × columns, C order: matrix `b` is the
/// row-major block at `b·rows·cols`), the resident operand of the batched routines
/// (`blas::sgemm_batched`). Created by [`Context::upload_batch`] or [`GpuBatch::zeros`]; read
/// back by [`GpuBatch::to_array`]; `.t()` transposes every matrix with no copy.
#[derive(Debug)]
pub struct GpuBatch<'c, T: Element = f32> {
    pub(super) ctx: &'c Context,
    pub(super) buf: Buf,
    pub(super) dim: (usize, usize, usize),
    pub(super) _t: PhantomData<T>,
}

impl Context {
    /// Upload a 3-D array (batch × rows × columns, any layout) into a new C-order
    /// [`GpuBatch`]: a C-order array is copied as it is, anything else gathered in C order.
    ///
    /// Past one buffer of the device ([`Context::max_buffer`]) the batch is held in segments
    /// of whole products (of whole rows, where one product is past one buffer).
    ///
    /// # Errors
    /// [`Error::TooLarge`] naming `a` past 2^32 elements, past the device's memory, or where
    /// one row alone is past one buffer.
    pub fn upload_batch<T: Element, S: Data<Elem = T>>(
        &self,
        a: &ArrayBase<S, Ix3>,
    ) -> Result<GpuBatch<'_, T>> {
        check_fits::<T>(self, "upload", "a", a.len())?;
        let line = c_line::<T>(self, a.dim());
        check_lines::<T>(self, "upload", "a", a.len(), line)?;
        let c = a.as_standard_layout();
        let src = Source::slice(c.as_slice().unwrap_or_default()).with_line(line);
        let buf = self.upload_source("upload", &src)?;
        Ok(GpuBatch {
            ctx: self,
            buf,
            dim: a.dim(),
            _t: PhantomData,
        })
    }
}

impl<'c, T: Element> GpuBatch<'c, T> {
    /// A zero batch of `batch` matrices of `rows`×`cols` on `ctx`, held as
    /// [`Context::upload_batch`] holds one.
    ///
    /// # Errors
    /// [`Error::TooLarge`] naming `shape` as [`Context::upload_batch`] names `a`.
    pub fn zeros(ctx: &'c Context, (batch, rows, cols): (usize, usize, usize)) -> Result<Self> {
        let line = c_line::<T>(ctx, (batch, rows, cols));
        let len = batch.saturating_mul(rows).saturating_mul(cols);
        check_lines::<T>(ctx, "zeros", "shape", len, line)?;
        let buf = super::zeroed::<T>(ctx, "shape", &[batch, rows, cols], line)?;
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
            .execute_segmented::<T>("to_array", &[(&self.buf, b * m * n)])?
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

/// The line of a C-order batch of `dims` on `ctx` past one buffer (`layout::batch_line`):
/// one whole product, or one row where a product is past one buffer.
fn c_line<T>(ctx: &Context, (batch, rows, cols): (usize, usize, usize)) -> usize {
    let slab = rows.saturating_mul(cols).min(isize::MAX as usize) as isize;
    let strides = [slab, cols.min(isize::MAX as usize) as isize, 1];
    let e = std::mem::size_of::<T>() as u64;
    batch_line(ctx.max_buffer(), e, [batch, rows, cols], strides)
}
