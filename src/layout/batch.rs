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

use ndarray::{ArrayBase, ArrayView2, ArrayView3, ArrayViewMut3, Axis, Data, DataMut, Ix3};

use super::{check_binding, check_ctx, check_fits, source, MatRef};
use crate::context::Context;
use crate::error::Result;
use crate::flags::Transpose;
use crate::pool::Buf;

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

impl<'a, T, S: Data<Elem = T>> From<&'a ArrayBase<S, Ix3>> for BatchRef<'a, T> {
    fn from(a: &'a ArrayBase<S, Ix3>) -> Self {
        BatchRef::Host(a.view())
    }
}
impl<'a, T> From<ArrayView3<'a, T>> for BatchRef<'a, T> {
    fn from(a: ArrayView3<'a, T>) -> Self {
        BatchRef::Host(a)
    }
}
impl<'a, T> From<DeviceBatch<'a>> for BatchRef<'a, T> {
    fn from(a: DeviceBatch<'a>) -> Self {
        BatchRef::Device(a)
    }
}
impl<'a, T, S: DataMut<Elem = T>> From<&'a mut ArrayBase<S, Ix3>> for BatchMut<'a, T> {
    fn from(a: &'a mut ArrayBase<S, Ix3>) -> Self {
        BatchMut::Host(a.view_mut())
    }
}
impl<'a, T> From<ArrayViewMut3<'a, T>> for BatchMut<'a, T> {
    fn from(a: ArrayViewMut3<'a, T>) -> Self {
        BatchMut::Host(a)
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

/// A batch of matrices on the device: element `(b, i, j)` at `offset + b·bs + i·rs + j·cs`.
#[derive(Debug)]
pub(crate) struct BatchOperand {
    pub buffer: Buf,
    pub offset: u32,
    pub bs: i32,
    pub rs: i32,
    pub cs: i32,
    /// Elements of the buffer that hold data (the span), for read-back.
    pub span: usize,
}

/// Upload an input batch (see the module's rules).
pub(crate) fn batch<'v, T: bytemuck::Pod + Send + Sync + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: BatchRef<'v, T>,
) -> Result<BatchOperand> {
    batch_for(ctx, routine, arg, a, true)
}

/// The device operand of an output batch that the kernel writes in full without reading it
/// (`beta = 0`): laid out as [`batch`] would, nothing uploaded.
pub(crate) fn batch_output<'v, T: bytemuck::Pod + Send + Sync + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: BatchRef<'v, T>,
) -> Result<BatchOperand> {
    batch_for(ctx, routine, arg, a, false)
}

fn batch_for<'v, T: bytemuck::Pod + Send + Sync + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: BatchRef<'v, T>,
    upload: bool,
) -> Result<BatchOperand> {
    let size = std::mem::size_of::<T>() as u64;
    let a = match a {
        BatchRef::Host(a) => a,
        BatchRef::Device(d) => {
            check_ctx(ctx, d.ctx_id, routine, arg)?;
            // Batches are bound whole: within one storage binding.
            check_binding(ctx, routine, arg, d.span as u64 * size)?;
            return Ok(BatchOperand {
                buffer: Buf::shared(d.buffer),
                offset: 0,
                bs: if d.batch <= 1 { 0 } else { d.bs },
                rs: d.rs,
                cs: d.cs,
                span: d.span,
            });
        }
    };
    if a.len_of(Axis(0)) <= 1 || a.strides()[0] == 0 {
        // One matrix for the whole batch: uploaded once, read with batch stride 0.
        let one: ArrayView2<'v, T> = a.index_axis_move(Axis(0), 0);
        let m = if upload {
            super::matrix(ctx, routine, arg, MatRef::Host(one))?
        } else {
            super::matrix_output(ctx, routine, arg, MatRef::Host(one))?
        };
        return Ok(BatchOperand {
            buffer: m.buffer,
            offset: m.offset,
            bs: 0,
            rs: m.rs,
            cs: m.cs,
            span: m.span,
        });
    }
    if crate::transfer::is_dense(a.shape(), a.strides()) {
        let (src, offset, strides) = source(&a);
        check_fits::<T>(ctx, routine, arg, src.len())?;
        check_binding(ctx, routine, arg, src.len() as u64 * size)?;
        let buffer = if upload {
            ctx.upload_source(routine, &src)?
        } else {
            ctx.alloc(routine, (src.len() * std::mem::size_of::<T>()) as u64)?
        };
        return Ok(BatchOperand {
            buffer,
            offset: offset as u32,
            bs: strides[0] as i32,
            rs: strides[1] as i32,
            cs: strides[2] as i32,
            span: src.len(),
        });
    }
    // Gaps: one gathering copy in logical C order.
    check_fits::<T>(ctx, routine, arg, a.len())?;
    check_binding(ctx, routine, arg, a.len() as u64 * size)?;
    let (_, m, n) = a.dim();
    let buffer = if upload {
        let packed = a.as_standard_layout();
        let data = packed.as_slice().unwrap_or_default();
        ctx.upload_source(routine, &crate::transfer::Source::slice(data))?
    } else {
        ctx.alloc(routine, (a.len() * std::mem::size_of::<T>()) as u64)?
    };
    Ok(BatchOperand {
        buffer,
        offset: 0,
        bs: (m * n) as i32,
        rs: n as i32,
        cs: 1,
        span: a.len(),
    })
}

/// Write the read-back span of `op` into the caller's view, element by element.
pub(crate) fn write_batch<T: Copy>(out: &mut ArrayViewMut3<'_, T>, data: &[T], op: &BatchOperand) {
    let (off, bs, rs, cs) = (
        op.offset as isize,
        op.bs as isize,
        op.rs as isize,
        op.cs as isize,
    );
    for ((b, i, j), v) in out.indexed_iter_mut() {
        *v = data[(off + b as isize * bs + i as isize * rs + j as isize * cs) as usize];
    }
}

impl<T> super::Owner for BatchRef<'_, T> {
    fn owner(&self) -> Option<u64> {
        match self {
            BatchRef::Host(_) => None,
            BatchRef::Device(d) => Some(d.ctx_id),
        }
    }
}

impl<T> super::Owner for BatchMut<'_, T> {
    fn owner(&self) -> Option<u64> {
        match self {
            BatchMut::Host(_) => None,
            BatchMut::Device(d) => Some(d.ctx_id),
        }
    }
}
