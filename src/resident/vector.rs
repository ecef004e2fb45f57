//! [`GpuVector`]: zeros, ranges, read-back.

use std::marker::PhantomData;
use std::ops::RangeBounds;

use ndarray::Array1;

use super::{bounds, Element, GpuVector};
use crate::context::Context;
use crate::error::Result;
use crate::launch::Wait;
use crate::layout::{DeviceVec, VecMut};

impl<'c, T: Element> GpuVector<'c, T> {
    /// A zero vector of `len` elements on `ctx`.
    ///
    /// # Errors
    /// [`Error::TooLarge`](crate::Error::TooLarge) past 2^32 elements; a resident operand may be
    /// larger than one storage binding and than one buffer (see
    /// [`Context::upload_vector`](crate::Context::upload_vector)).
    pub fn zeros(ctx: &'c Context, len: usize) -> Result<Self> {
        let buf = super::zeroed::<T>(ctx, "len", &[len], 1)?;
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
    /// [`Error::Gpu`](crate::Error::Gpu) on a device failure.
    pub fn to_array(&self) -> Result<Array1<T>> {
        let out = self
            .ctx
            .execute_segmented::<T>("to_array", &[(&self.buf, self.len)])?;
        Ok(Array1::from_vec(out.into_iter().next().unwrap_or_default()))
    }

    /// [`GpuVector::to_array`] without blocking the calling thread: the read-back waits on
    /// wgpu's map callbacks (driven by a helper thread), so an async executor keeps running
    /// other tasks meanwhile. Several read-backs may be awaited at once.
    ///
    /// # Errors
    /// [`Error::Gpu`](crate::Error::Gpu) on a device failure.
    pub async fn to_array_async(&self) -> Result<Array1<T>> {
        let data = self
            .ctx
            .execute_segmented_in::<T>("to_array", &[(&self.buf, self.len)], Wait::Async)
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
    /// [`Error::OutOfRange`](crate::Error::OutOfRange) (routine `slice`, argument `range`) when the range is not within
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
