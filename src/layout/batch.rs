//! Batches of matrices (3-D operands: batch × rows × columns) for the batched routines
//! (`sgemm_batched`).
//!
//! Element `(b, i, j)` of a batch is `buf[offset + b·bs + i·rs + j·cs]` on the device. How a
//! host view gets there:
//! - a view whose batch stride is 0 (`a.broadcast((batch, m, k))` of one matrix) or whose
//!   batch has one matrix: only that matrix is uploaded, as any 2-D view is ([`super::matrix`]:
//!   dense spans as they are, gapped views gathered), and the kernel reads it for every product
//!   with batch stride 0 — no copy per product;
//! - a dense view (its elements fill one memory span, in any axis order: C order, F order, a
//!   batch of F-order matrices, negative strides): its span as it is, with its own strides;
//! - any other view (gaps between the matrices, steps of 2, a broadcast inside a matrix): one
//!   gathering copy in its logical C order.
//!
//! Resident batches ([`crate::resident::GpuBatch`]) are used in place.

use ndarray::{ArrayView3, ArrayViewMut3, Ix3};

use crate::flags::Transpose;

/// A resident batch as an operand: element `(b, i, j)` at `b·bs + i·rs + j·cs` of `buffer`.
#[derive(Debug, Clone, Copy)]
pub struct DeviceBatch<'a> {
    pub(crate) buffer: &'a wgpu::Buffer,
    pub(crate) batch: usize,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) bs: i32,
    pub(crate) rs: i32,
    pub(crate) cs: i32,
    pub(crate) span: usize,
    pub(crate) ctx_id: u64,
}

impl DeviceBatch<'_> {
    /// Every matrix of the batch transposed (strides swapped, no data moved).
    pub fn t(self) -> Self {
        DeviceBatch {
            rows: self.cols,
            cols: self.rows,
            rs: self.cs,
            cs: self.rs,
            ..self
        }
    }
}

/// An input batch of matrices (batch × rows × columns): a 3-D ndarray view (any strides,
/// including a zero batch stride from `broadcast`) or a resident [`crate::resident::GpuBatch`].
#[derive(Debug, Clone)]
pub enum BatchRef<'a, T = f32> {
    /// Host data, uploaded for the call.
    Host(ArrayView3<'a, T>),
    /// Device data, used in place.
    Device(DeviceBatch<'a>),
}

/// An output (or input-output) batch: a mutable 3-D ndarray view, written back after the call,
/// or a resident [`crate::resident::GpuBatch`], written on the device.
#[derive(Debug)]
pub enum BatchMut<'a, T = f32> {
    /// Host data: uploaded (unless the routine never reads it), then read back into the view.
    Host(ArrayViewMut3<'a, T>),
    /// Device data, updated in place.
    Device(DeviceBatch<'a>),
}

from_host!(ref BatchRef, Ix3, ArrayView3);
from_host!(mut BatchMut, Ix3, ArrayViewMut3);

impl<'a, T> From<DeviceBatch<'a>> for BatchRef<'a, T> {
    fn from(a: DeviceBatch<'a>) -> Self {
        BatchRef::Device(a)
    }
}

impl<T> BatchRef<'_, T> {
    /// (batch, rows, columns).
    pub fn dim(&self) -> (usize, usize, usize) {
        match self {
            BatchRef::Host(v) => v.dim(),
            BatchRef::Device(d) => (d.batch, d.rows, d.cols),
        }
    }

    /// `op` of every matrix of the batch for a BLAS `trans` argument (no copy).
    pub fn op(&self, trans: Transpose) -> BatchRef<'_, T> {
        match (self, trans) {
            (BatchRef::Host(v), Transpose::No) => BatchRef::Host(v.view()),
            (BatchRef::Host(v), Transpose::Yes) => {
                BatchRef::Host(v.view().permuted_axes([0, 2, 1]))
            }
            (BatchRef::Device(d), Transpose::No) => BatchRef::Device(*d),
            (BatchRef::Device(d), Transpose::Yes) => BatchRef::Device(d.t()),
        }
    }
}

impl<T> BatchMut<'_, T> {
    /// (batch, rows, columns).
    pub fn dim(&self) -> (usize, usize, usize) {
        match self {
            BatchMut::Host(v) => v.dim(),
            BatchMut::Device(d) => (d.batch, d.rows, d.cols),
        }
    }
}

use super::Owner;
owner_of_device!(BatchRef, BatchMut);
