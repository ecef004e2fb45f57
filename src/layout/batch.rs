//! Batches of matrices (3-D operands: batch × rows × columns) for the batched routines
//! (`sgemm_batched`).
//!
//! Element `(b, i, j)` of a batch is `buf[offset + b·bs + i·rs + j·cs]` on the device. How a
//! host view gets there:
//! - a view whose batch stride is 0 (`a.broadcast((batch, m, k))` of one matrix) or whose
//!   batch has one matrix: only that matrix is uploaded, as any 2-D view is
//!   ([`super::matrix_any`]: dense spans as they are, gapped views gathered), and the kernel
//!   reads it for every product with batch stride 0 — no copy per product;
//! - a dense view (its elements fill one memory span, in any axis order: C order, F order, a
//!   batch of F-order matrices, negative strides): its span as it is, with its own strides;
//! - any other view (gaps between the matrices, steps of 2, a broadcast inside a matrix): one
//!   gathering copy in its logical C order.
//!
//! Resident batches ([`crate::resident::GpuBatch`]) are used in place.

use ndarray::{ArrayView3, ArrayViewMut3, Ix3};

use super::{BatchOperand, MatOperand};
use crate::context::Context;
use crate::flags::Transpose;

/// A resident batch as an operand: element `(b, i, j)` at `b·bs + i·rs + j·cs` of `buffer`.
#[derive(Debug, Clone, Copy)]
pub struct DeviceBatch<'a> {
    pub(crate) buffer: &'a crate::pool::Buf,
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

impl BatchOperand {
    /// The lowest and the highest element index of entries `b0..b1` (not empty) of this batch
    /// of `rows`×`cols` matrices.
    fn extent(&self, (b0, b1): (usize, usize), (rows, cols): (usize, usize)) -> (u64, u64) {
        let at = |b: usize, i: usize, j: usize| {
            let (bs, rs, cs) = (i64::from(self.bs), i64::from(self.rs), i64::from(self.cs));
            i64::from(self.offset) + b as i64 * bs + i as i64 * rs + j as i64 * cs
        };
        let (mut low, mut high) = (i64::MAX, i64::MIN);
        for b in [b0, b1 - 1] {
            for i in [0, rows.max(1) - 1] {
                for j in [0, cols.max(1) - 1] {
                    (low, high) = (low.min(at(b, i, j)), high.max(at(b, i, j)));
                }
            }
        }
        (low as u64, high as u64)
    }

    /// Whether a window of `len` entries of this batch of `dims` matrices (`elem`-byte
    /// elements) fits one binding of `ctx` (span plus alignment slack, as
    /// [`super::MatOperand::block_fits`]); the same for every run of `len` entries.
    pub(crate) fn part_fits(
        &self,
        ctx: &Context,
        elem: u64,
        len: usize,
        dims: (usize, usize),
    ) -> bool {
        let (low, high) = self.extent((0, len), dims);
        (high - low + 1) * elem + super::window_align(ctx) + 16 <= ctx.max_binding()
    }

    /// Whether entries `b0..b1` (not empty) of this batch of `dims` matrices (`elem`-byte
    /// elements) lie in one segment of its buffer: always, for a plain buffer.
    pub(crate) fn in_one_segment(
        &self,
        elem: u64,
        b: (usize, usize),
        dims: (usize, usize),
    ) -> bool {
        let (low, high) = self.extent(b, dims);
        // Segment k holds bytes k·seg .. (k + 1)·seg (its buffer may be larger: a pool class).
        self.buffer
            .segment_bytes()
            .is_none_or(|seg| low * elem / seg == (high * elem + elem - 1) / seg)
    }

    /// Product `p` of this batch of `rows`×`cols` matrices as a matrix operand (a handle on the
    /// same buffer, processed in blocks as any matrix past one binding).
    pub(crate) fn entry(&self, p: usize, (rows, cols): (usize, usize)) -> MatOperand {
        let offset = i64::from(self.offset) + p as i64 * i64::from(self.bs);
        MatOperand {
            buffer: crate::pool::Buf::shared(&self.buffer),
            offset: offset as u32,
            rs: self.rs,
            cs: self.cs,
            rows,
            cols,
            span: self.span,
        }
    }

    /// Entries `b0..b1` of this batch of `dims` matrices as a batch of their own, bound through
    /// a window of the same buffer (as [`super::MatOperand::block`]).
    pub(crate) fn part(
        &self,
        ctx: &Context,
        elem: u64,
        (b0, b1): (usize, usize),
        dims: (usize, usize),
    ) -> BatchOperand {
        let (low, high) = self.extent((b0, b1), dims);
        let (buffer, first) = super::window_of(ctx, &self.buffer, elem, low, high);
        let start = i64::from(self.offset) + b0 as i64 * i64::from(self.bs);
        BatchOperand {
            buffer,
            offset: (start as u64 - first) as u32,
            bs: self.bs,
            rs: self.rs,
            cs: self.cs,
            span: (high - first + 1) as usize,
        }
    }
}

/// The line (in elements, `launch.rs`) of a dense batch of `shape` and `strides` (axis 0 the
/// batch; elements of `elem` bytes) held past one buffer of `max` bytes in segments of whole
/// lines, such that every product's lines along its own smaller stride lie in one segment
/// (what `MatOperand::cuts` asks of a matrix): the two inner axes by stride together, so that
/// segments are cut only along the outermost axis (whole products, where the batch is
/// outermost: C order, F-order matrices); where that passes one buffer, the innermost axis
/// alone, unless it is the batch's. Axes of length 1 are left out. Where no line fits one
/// buffer, the smallest one tried (which `check_lines` then refuses).
pub(crate) fn batch_line(max: u64, elem: u64, shape: [usize; 3], strides: [isize; 3]) -> usize {
    let mut axes: Vec<(usize, usize, usize)> = (0..3)
        .filter(|&k| shape[k] > 1)
        .map(|k| (strides[k].unsigned_abs(), shape[k], k))
        .collect();
    axes.sort_unstable();
    let tries = match axes[..] {
        [a0, a1, _] if a0.2 != 0 => vec![a0.1.saturating_mul(a1.1), a0.1],
        [a0, a1, _] => vec![a0.1.saturating_mul(a1.1)],
        // Two axes, both of the matrices: a line is its run along the unit-stride one.
        [a0, a1] if a0.2 != 0 && a1.2 != 0 => vec![a0.1],
        // Each matrix a vector (or one element): any cut leaves its elements addressable.
        [a0, _] => vec![a0.1, 1],
        _ => vec![1],
    };
    let last = *tries.last().expect("a line");
    tries
        .into_iter()
        .find(|&l| (l as u64).saturating_mul(elem) <= max)
        .unwrap_or(last)
}
