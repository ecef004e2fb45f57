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
//! Resident operands ([`GpuVector`](crate::GpuVector), [`GpuMatrix`](crate::GpuMatrix)) are already in a device buffer with known
//! strides, so they reach the kernels as they are. Every routine takes its operands as the
//! argument types of this module ([`VecRef`], [`VecMut`], [`MatRef`], [`MatMut`], [`Scalar`]),
//! which ndarray arrays and views, resident operands and device scalars all convert into.

use ndarray::Dimension;

use crate::context::Context;
use crate::error::{Error, Result};
use crate::pool::Buf;
use crate::transfer::Source;

/// The conversions of host data into an argument type `$t` (an input with `ref`, an output with
/// `mut`): from a reference to an ndarray array of dimension `$ix` and from its view type `$v`,
/// both into `$t::Host`.
macro_rules! from_host {
    (ref $t:ident, $ix:ty, $v:ident) => {
        impl<'a, T, S: ndarray::Data<Elem = T>> From<&'a ndarray::ArrayBase<S, $ix>> for $t<'a, T> {
            fn from(x: &'a ndarray::ArrayBase<S, $ix>) -> Self {
                $t::Host(x.view())
            }
        }
        impl<'a, T> From<ndarray::$v<'a, T>> for $t<'a, T> {
            fn from(x: ndarray::$v<'a, T>) -> Self {
                $t::Host(x)
            }
        }
    };
    (mut $t:ident, $ix:ty, $v:ident) => {
        impl<'a, T, S: ndarray::DataMut<Elem = T>> From<&'a mut ndarray::ArrayBase<S, $ix>>
            for $t<'a, T>
        {
            fn from(x: &'a mut ndarray::ArrayBase<S, $ix>) -> Self {
                $t::Host(x.view_mut())
            }
        }
        impl<'a, T> From<ndarray::$v<'a, T>> for $t<'a, T> {
            fn from(x: ndarray::$v<'a, T>) -> Self {
                $t::Host(x)
            }
        }
    };
}

/// [`Owner`] of argument types with a `Host` and a `Device(d)` variant: the context of `d`.
macro_rules! owner_of_device {
    ($($t:ident),*) => {
        $(impl<T> Owner for $t<'_, T> {
            fn owner(&self) -> Option<u64> {
                match self {
                    $t::Host(_) => None,
                    $t::Device(d) => Some(d.ctx_id),
                }
            }
        })*
    };
}

mod args;
mod batch;
mod operands;
pub(crate) mod stream;
mod typed;
pub(crate) use args::{check_ctx, Owner};
pub use args::{Accepts, DeviceMat, DeviceVec, Element, MatMut, MatRef, Scalar, VecMut, VecRef};
pub(crate) use batch::batch_line;
pub use batch::{BatchMut, BatchRef, DeviceBatch};
pub(crate) use operands::{
    batch, batch_output, fill_zero, finish_in, matrix_any, matrix_output_any, vector_any, Out,
    OutAs,
};
pub(crate) use typed::Precision;

/// A vector operand on the device: element `i` is at `offset + i·inc`.
#[derive(Debug)]
pub(crate) struct VecOperand {
    pub buffer: Buf,
    pub offset: u32,
    pub inc: i32,
    pub len: usize,
    /// Elements of the buffer that hold data (the span), for read-back.
    pub span: usize,
}

/// A matrix operand on the device: element `(i, j)` is at `offset + i·rs + j·cs`.
#[derive(Debug)]
pub(crate) struct MatOperand {
    pub buffer: Buf,
    pub offset: u32,
    pub rs: i32,
    pub cs: i32,
    pub rows: usize,
    pub cols: usize,
    pub span: usize,
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

/// The operands that may be held in several buffers (segments, past
/// [`Context::max_buffer`]): `(routine, argument)`. Their routines cut every part at segment
/// boundaries ([`vec_chunks`], [`mat_blocks`], `drivers/gemm/blocks.rs`) and read results
/// back segment by segment (`finish_in`); `upload`, `zeros` and `to_array` are the resident
/// constructors and read-backs. Every other operand past one buffer is [`Error::TooLarge`].
const SEGMENTED: &[(&str, &str)] = &[
    ("upload", "x"),
    ("upload", "a"),
    ("zeros", "len"),
    ("zeros", "shape"),
    ("saxpy", "x"),
    ("saxpy", "y"),
    ("sdot", "x"),
    ("sdot", "y"),
    ("sscal", "x"),
    ("scopy", "x"),
    ("scopy", "y"),
    ("sswap", "x"),
    ("sswap", "y"),
    ("sasum", "x"),
    ("snrm2", "x"),
    ("isamax", "x"),
    ("srot", "x"),
    ("srot", "y"),
    ("srotm", "x"),
    ("srotm", "y"),
    ("sgemv", "a"),
    ("sgemv", "x"),
    ("sgemv", "y"),
    ("sgemm", "a"),
    ("sgemm", "b"),
    ("sgemm", "c"),
    // Level 2 past one buffer: A in panels or square blocks cut at its segment boundaries
    // (`mat_blocks`, `square_ranges`); f64 on the square grid of `blas/level2/blocks64.rs`.
    ("sger", "a"),
    ("sger", "x"),
    ("sger", "y"),
    ("dger", "a"),
    ("dger", "x"),
    ("dger", "y"),
    ("ssyr", "a"),
    ("dsyr", "a"),
    ("ssyr2", "a"),
    ("dsyr2", "a"),
    ("ssymv", "a"),
    ("dsymv", "a"),
    ("strmv", "a"),
    ("dtrmv", "a"),
    ("strsv", "a"),
    ("dtrsv", "a"),
    // Level 3 (f32) past one buffer: blocks of `drivers/gemm/blocks.rs` cut at the segment
    // boundaries of every operand.
    ("ssyrk", "a"),
    ("ssyrk", "c"),
    ("sgemmtr", "a"),
    ("sgemmtr", "b"),
    ("sgemmtr", "c"),
    ("ssyr2k", "a"),
    ("ssyr2k", "b"),
    ("ssyr2k", "c"),
    ("ssymm", "a"),
    ("ssymm", "b"),
    ("ssymm", "c"),
    ("strmm", "a"),
    ("strmm", "b"),
];

/// The routines every operand of which may be held in several buffers: the f64 Level 1
/// routines and dgemv on the parts and blocks of their f32 twins, the f64 Level 3 products
/// on the blocks of theirs (`drivers/gemm/blocks.rs`), with 8-byte elements; `strsm` and
/// `dtrsm` (the grid of `gemm::solve_blocks`).
const SEGMENTED_ALL: &[&str] = &[
    "daxpy", "ddot", "dscal", "dcopy", "dswap", "dasum", "dnrm2", "idamax", "drot", "drotm",
    "dgemv", "dgemm", "dsyrk", "dgemmtr", "dsyr2k", "dsymm", "dtrmm", "strsm", "dtrsm",
];

/// Whether `arg` of `routine` may be held in several buffers (see [`SEGMENTED`],
/// [`SEGMENTED_ALL`], and every batch of the batched products).
fn segments_allowed(routine: &str, arg: &str) -> bool {
    let batched = matches!(routine, "sgemm_batched" | "dgemm_batched");
    batched
        || SEGMENTED_ALL.contains(&routine)
        || SEGMENTED.iter().any(|&(r, a)| r == routine && a == arg)
}

/// Check that `elems` elements of `T` fit one buffer of this device ([`Context::max_buffer`])
/// — or, for the operands that may be segmented ([`SEGMENTED`]), the 32-bit element offsets
/// of the kernels' parameters (16 GiB of f32) — the device's memory
/// ([`Context::max_memory`]) and the host's `usize`. An operand past one
/// storage binding is processed in parts (see [`VecOperand::part`]); routines that are not yet
/// check that with [`check_binding`].
pub(crate) fn check_fits<T>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    elems: usize,
) -> Result<()> {
    let size = std::mem::size_of::<T>() as u64;
    let offsets = u64::from(u32::MAX) * size;
    let limit = if segments_allowed(routine, arg) {
        offsets
    } else {
        ctx.max_buffer().min(offsets)
    };
    // `limit` < u64::MAX, so a saturated byte count is over it too.
    let bytes = (elems as u64).saturating_mul(size);
    within(routine, arg, bytes, limit)?;
    // Past the device's memory: refused before anything is allocated (issue 15).
    within(routine, arg, bytes, ctx.max_memory())
}

/// Check that a host operand of `elems` elements of `T` made of lines of `line` elements can
/// be held: past one buffer ([`Context::max_buffer`]) it is held in segments of whole lines,
/// so one line alone must fit one buffer, else [`Error::TooLarge`] naming `routine` and `arg`.
pub(crate) fn check_lines<T>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    elems: usize,
    line: usize,
) -> Result<()> {
    let size = std::mem::size_of::<T>() as u64;
    if (elems as u64).saturating_mul(size) <= ctx.max_buffer() {
        return Ok(());
    }
    within(
        routine,
        arg,
        (line as u64).saturating_mul(size),
        ctx.max_buffer(),
    )
}

/// A handle on the storage of a resident operand whose elements lie between `low` and `high`
/// (element indices, inclusive) of `buffer`, for `arg` of `routine`, and the element index in
/// that handle of the buffer's element 0 subtracted (the shift of every offset): the buffer
/// itself, or, for a segmented buffer, the one segment that holds them all. An operand across
/// segments is accepted only where [`SEGMENTED`] allows it, else [`Error::TooLarge`].
pub(crate) fn resident_buffer(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    buffer: &Buf,
    elem: u64,
    (low, high): (usize, usize),
) -> Result<(Buf, usize)> {
    let Some(seg) = buffer.segment_bytes() else {
        return Ok((Buf::shared(buffer), 0));
    };
    let (a, b) = (low as u64 * elem, (high as u64 + 1) * elem);
    let segments = buffer.segments();
    let k = ((a / seg) as usize).min(segments.len() - 1);
    let (start, part, len) = segments[k];
    if b <= start + len {
        return Ok((Buf::shared(part), (start / elem) as usize));
    }
    if !segments_allowed(routine, arg) {
        within(routine, arg, buffer.size(), ctx.max_buffer())?;
    }
    Ok((Buf::shared(buffer), 0))
}

/// `Ok` when `bytes` ≤ `limit`, else [`Error::TooLarge`] naming `routine` and `arg`.
fn within(routine: &'static str, arg: &'static str, bytes: u64, limit: u64) -> Result<()> {
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

/// Check that `bytes` of an operand fit one storage binding ([`Context::max_binding`]), for
/// routines that bind their operands whole.
pub(crate) fn check_binding(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    bytes: u64,
) -> Result<()> {
    within(
        routine,
        arg,
        bytes,
        ctx.max_binding().min(i32::MAX as u64 * 4),
    )
}

/// The byte alignment of binding windows: the device's `min_storage_buffer_offset_alignment`,
/// at least 16 (so a window keeps the vec4 alignment of the offsets inside it).
fn window_align(ctx: &Context) -> u64 {
    u64::from(ctx.limits().min_storage_buffer_offset_alignment).max(16)
}

/// The window of `buffer` (a whole operand's buffer) that holds its elements `low..=high`
/// (of `elem` bytes each): the window, starting at an aligned byte offset and ending at the
/// next multiple of 16 bytes (or the buffer's end), at least one `vec4` long, and the index of
/// its first element. In a segmented buffer the elements lie in one segment (the chunkers'
/// contract), and so does the window.
fn window_of(ctx: &Context, buffer: &Buf, elem: u64, low: u64, high: u64) -> (Buf, u64) {
    let align = window_align(ctx);
    let (seg, seg_len) = buffer.segment_at(low * elem);
    debug_assert!(
        (high + 1) * elem <= seg + seg_len,
        "a part across two segments"
    );
    let end = (((high + 1) * elem - seg).div_ceil(16) * 16).min(seg_len);
    // At least one `vec4` of the element type (the smallest binding of a `vec4` array: 16
    // bytes of f32, 32 of f64): a window that ends at the buffer's end starts earlier, one at
    // its start ends later, where it must.
    let least = 4 * elem;
    let start = (low * elem - seg).min(end.saturating_sub(least)) / align * align;
    let end = end.max(start + least).min(seg_len);
    (
        buffer.window(seg + start, end - start),
        (seg + start) / elem,
    )
}

/// The indices `i` in `1..len` where the segment of element `base + i·stride` differs from
/// that of element `base + (i - 1)·stride`, for a buffer of segments of `seg` elements; none
/// for a plain buffer (`seg` `None`).
fn segment_cuts(seg: Option<u64>, base: i64, stride: i64, len: usize) -> Vec<usize> {
    let Some(seg) = seg.filter(|_| stride != 0 && len > 1) else {
        return Vec::new();
    };
    let seg = seg as i64;
    let at = |i: usize| base + i as i64 * stride;
    let (first, last) = (at(0).div_euclid(seg), at(len - 1).div_euclid(seg));
    let mut cuts = Vec::new();
    if stride > 0 {
        // The first index at or past each boundary k·seg.
        for k in first + 1..=last {
            cuts.push(((k * seg - base) as u64).div_ceil(stride as u64) as usize);
        }
    } else {
        // The first index below each boundary k·seg.
        for k in (last + 1..=first).rev() {
            cuts.push(((base - k * seg) / -stride + 1) as usize);
        }
    }
    cuts
}

/// `0..n` in runs of at most `step`, also cut at every index of `cuts`.
pub(crate) fn runs_with_cuts(n: usize, step: usize, cuts: &[usize]) -> Vec<(usize, usize)> {
    let mut bounds: Vec<usize> = (0..n)
        .step_by(step.max(1))
        .chain(cuts.iter().copied())
        .collect();
    bounds.retain(|&b| b < n);
    bounds.sort_unstable();
    bounds.dedup();
    bounds
        .iter()
        .enumerate()
        .map(|(i, &lo)| (lo, bounds.get(i + 1).copied().unwrap_or(n)))
        .collect()
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
    // Cut also where any operand passes from one segment to the next.
    let cuts: Vec<usize> = ops.iter().flat_map(|o| o.cuts(elem, n)).collect();
    runs_with_cuts(n, len, &cuts)
}

/// Blocks `((r0, r1), (c0, c1))` of a matrix operand `a` (elements of `elem` bytes) for
/// kernels that also bind a vector along its rows (`row`) and one along its columns (`col`),
/// each block's windows within one binding, and within one segment of `a` and of each
/// vector: rows in panels as tall as the binding allows with every column;
/// only where a single row (all its columns) does not fit are the columns split too, into
/// panels of about half a binding. Row panel by row panel, columns in order.
pub(crate) fn mat_blocks(
    ctx: &Context,
    a: &MatOperand,
    elem: u64,
    row: &VecOperand,
    col: &VecOperand,
) -> Vec<((usize, usize), (usize, usize))> {
    let (row_inc, col_inc) = (row.inc, col.inc);
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
    // Cut also where `a` or a vector passes from one segment to the next.
    let row_cuts = [a.cuts(elem, 0), row.cuts(elem, m)].concat();
    let col_cuts = [a.cuts(elem, 1), col.cuts(elem, n)].concat();
    let mut out = Vec::new();
    for &r in &runs_with_cuts(m, height, &row_cuts) {
        for &c in &runs_with_cuts(n, width, &col_cuts) {
            out.push((r, c));
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

/// The row (and column) ranges of square blocks of the n×n operand `a` on one grid, each
/// within one binding ([`square_side`]) and within one segment of `a`: runs of at most the
/// side, also cut where `a` passes from one segment of its buffer to the next (along either
/// axis, so the grid stays the same for rows and columns).
pub(crate) fn square_ranges(
    ctx: &Context,
    a: &MatOperand,
    elem: u64,
    incs: &[i32],
) -> Vec<(usize, usize)> {
    let side = square_side(ctx, a, elem, incs);
    let cuts = [a.cuts(elem, 0), a.cuts(elem, 1)].concat();
    runs_with_cuts(a.rows, side, &cuts)
}

impl VecOperand {
    /// The indices in `1..n` where this operand's elements pass from one segment of its
    /// buffer to the next ([`segment_cuts`]; none for a plain buffer).
    pub(crate) fn cuts(&self, elem: u64, n: usize) -> Vec<usize> {
        let seg = self.buffer.segment_bytes().map(|b| b / elem);
        segment_cuts(
            seg,
            i64::from(self.offset),
            i64::from(self.inc),
            n.min(self.len),
        )
    }

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
            buffer: Buf::shared(&self.buffer),
            offset: self.offset,
            rs: self.cs,
            cs: self.rs,
            rows: self.cols,
            cols: self.rows,
            span: self.span,
        }
    }

    /// The row indices (`axis` 0) or column indices (1) where this operand passes from one
    /// segment of its buffer to the next: none for a plain buffer. A segmented matrix holds
    /// whole lines in each segment (`launch.rs`), so only its line axis has cuts, and a
    /// block between two cuts of each axis lies in one segment.
    pub(crate) fn cuts(&self, elem: u64, axis: usize) -> Vec<usize> {
        let seg = self.buffer.segment_bytes().map(|b| b / elem);
        let (stride, len) = if axis == 0 {
            (self.rs, self.rows)
        } else {
            (self.cs, self.cols)
        };
        segment_cuts(seg, i64::from(self.offset), i64::from(stride), len)
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
pub(crate) fn source<'a, T: Copy + Send + Sync, D: Dimension>(
    view: &ndarray::ArrayView<'a, T, D>,
) -> (Source<'a, T>, usize, Vec<isize>) {
    // SAFETY: pointer, shape and strides come from a live view borrowed for `'a`; the plan
    // only reads (gathers) through it.
    unsafe { Source::of_view(view.as_ptr().cast_mut(), view.shape(), view.strides()) }
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
