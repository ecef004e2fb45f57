//! [`GpuMatrix`]: zeros, transpose, blocks, read-back.

use std::marker::PhantomData;
use std::ops::RangeBounds;

use ndarray::{Array2, ShapeBuilder};

use super::{bounds, Element, GpuMatrix, MatrixLayout};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::launch::Wait;
use crate::layout::{DeviceMat, MatMut};

impl<'c, T: Element> GpuMatrix<'c, T> {
    /// A zero `rows`×`cols` matrix on `ctx` in `layout`.
    ///
    /// # Errors
    /// [`Error::TooLarge`] past 2^32 elements; a resident operand may be larger than one storage
    /// binding and than one buffer (see [`Context::upload_vector`](crate::Context::upload_vector)).
    pub fn zeros(
        ctx: &'c Context,
        (rows, cols): (usize, usize),
        layout: MatrixLayout,
    ) -> Result<Self> {
        let buf = super::zeroed::<T>(
            ctx,
            "shape",
            &[rows, cols],
            match layout {
                _ if rows <= 1 || cols <= 1 => 1,
                MatrixLayout::RowMajor => cols,
                MatrixLayout::ColMajor => rows,
            },
        )?;
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
            .execute_segmented::<T>("to_array", &[(&self.buf, n)])?
            .pop()
            .unwrap_or_default();
        self.shape_data(data)
    }

    /// [`GpuMatrix::to_array`] without blocking the calling thread (see
    /// [`GpuVector::to_array_async`](crate::GpuVector::to_array_async)).
    ///
    /// # Errors
    /// [`Error::Gpu`] on a device failure.
    pub async fn to_array_async(&self) -> Result<Array2<T>> {
        let n = self.rows * self.cols;
        let data = self
            .ctx
            .execute_segmented_in::<T>("to_array", &[(&self.buf, n)], Wait::Async)
            .await?
            .pop()
            .unwrap_or_default();
        self.shape_data(data)
    }

    /// Read-back data, in storage order, as an array of this matrix's shape.
    pub(super) fn shape_data(&self, data: Vec<T>) -> Result<Array2<T>> {
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
