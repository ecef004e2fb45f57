//! GPU-resident data: upload once, chain many calls, read back once.
//!
//! [`GpuVector`] and [`GpuMatrix`] hold their elements in a device buffer of one
//! [`Context`]; every routine of [`crate::blas`] takes them wherever it takes an ndarray view
//! (`&x` for an input, `&mut y` for an output), and host views and resident operands may be
//! mixed in one call: host inputs are uploaded for that call, host outputs are read back and
//! written, resident outputs stay on the device. A call whose outputs are all resident does
//! not wait for the device: its commands are held back and submitted, in order, with the next
//! read-back (`to_array`, [`GpuScalar::get`], [`Context::read_back`], any host-output call) or
//! [`Context::flush`]. Two cases submit on their own: once 32 commands (dispatches, copies,
//! clears) are held, they are submitted, so that the device runs a long chain while the host
//! records the rest (the same results; [`crate::lab::set_max_pending`]), and an upload larger than
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

use ndarray::{ArrayBase, Data, Ix1, Ix2};

use crate::context::Context;
use crate::error::{Error, Result};
use crate::layout::{check_fits, Accepts, MatMut, MatRef, Scalar, VecMut, VecRef};
use crate::pool::Buf;
use crate::transfer::Source;

mod batch;
mod forms;
mod matrix;
mod readback;
mod scalar;
pub(crate) use scalar::nonzero_indicator;
mod vector;
pub use crate::layout::Element;
pub use batch::GpuBatch;
pub use forms::{ddot, isamax, sasum, sdot, snrm2};
pub use readback::ReadBack;
pub(crate) use scalar::decode_f32;
pub use scalar::GpuScalar;

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
    /// [`Error::TooLarge`] past 2^32 elements (the kernels' 32-bit offsets). A resident operand
    /// may be larger than one storage binding (routines process it in parts) and than one
    /// buffer ([`Context::max_buffer`]: it is then held in several, segments, which the
    /// routines listed in the README's size section take; the others return `TooLarge`).
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
    /// [`Error::TooLarge`] past 2^32 elements (the kernels' 32-bit offsets). A resident operand
    /// may be larger than one storage binding (routines process it in parts) and than one
    /// buffer ([`Context::max_buffer`]: it is then held in several, segments, which the
    /// routines listed in the README's size section take; the others return `TooLarge`).
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
        // Past one buffer, the matrix is held in segments of whole lines (rows of `v`): a line
        // past one buffer alone is refused here, naming `a`.
        let line = if v.nrows() > 1 { v.ncols() } else { 1 };
        crate::layout::check_lines::<T>(self, "upload", "a", a.len(), line)?;
        let src = if v.is_standard_layout() {
            Source::slice(v.to_slice().unwrap_or_default()).with_line(line)
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

/// A zeroed buffer for a `zeros` constructor: `dims` (their product) elements of `T` in lines
/// of `line` elements (segments past one buffer hold whole lines), or [`Error::TooLarge`]
/// naming `arg` when the product overflows or does not fit the device.
fn zeroed<T>(ctx: &Context, arg: &'static str, dims: &[usize], line: usize) -> Result<Buf> {
    let elems = dims
        .iter()
        .try_fold(1usize, |e, &d| e.checked_mul(d))
        .ok_or(Error::TooLarge {
            routine: "zeros",
            arg,
            bytes: u64::MAX,
            limit: ctx.limits().max_storage_buffer_binding_size,
        })?;
    check_fits::<T>(ctx, "zeros", arg, elems)?;
    let size = std::mem::size_of::<T>() as u64;
    ctx.zeroed_lines("zeros", elems as u64 * size, line.max(1) as u64 * size)
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

// The conversions of resident operands into the argument types of every routine (written here,
// next to the types, so that layout never names the resident part).
/// `From<&$from>` (`ref`) or `From<&mut $from>` (`mut`) for the argument type `$to`: the
/// resident operand's [`device`](GpuVector::device) description, as `$to::Device`.
macro_rules! from_resident {
    ($($m:ident $from:ident => $to:ident),*) => {
        $(impl<'a, 'c, T: Element, U: Accepts<T>> From<from_resident!(@ref $m 'a $from<'c, T>)>
            for $to<'a, U>
        {
            fn from(x: from_resident!(@ref $m 'a $from<'c, T>)) -> Self {
                $to::Device(x.device().retype())
            }
        })*
    };
    (@ref ref $a:lifetime $t:ty) => { &$a $t };
    (@ref mut $a:lifetime $t:ty) => { &$a mut $t };
}

from_resident!(
    ref GpuVector => VecRef,
    mut GpuVector => VecMut,
    ref GpuMatrix => MatRef,
    mut GpuMatrix => MatMut
);

impl<'a, 'c, T, U: Accepts<T>> From<&'a GpuScalar<'c, T>> for Scalar<'a, U> {
    fn from(s: &'a GpuScalar<'c, T>) -> Self {
        let (buffer, offset) = s.source();
        Scalar::Device(buffer, offset, s.ctx_id())
    }
}
