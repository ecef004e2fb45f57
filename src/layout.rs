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

use ndarray::{ArrayView1, ArrayView2, ArrayViewMut1, ArrayViewMut2, Dimension};

use crate::context::Context;
use crate::error::{Error, Result};

/// A vector operand on the device: element `i` is at `offset + i·inc`.
#[derive(Debug)]
pub(crate) struct VecOperand {
    pub buffer: wgpu::Buffer,
    pub offset: u32,
    pub inc: i32,
    pub len: usize,
    /// Elements of the buffer that hold data (the span), for read-back.
    pub span: usize,
}

/// A matrix operand on the device: element `(i, j)` is at `offset + i·rs + j·cs`.
#[derive(Debug)]
pub(crate) struct MatOperand {
    pub buffer: wgpu::Buffer,
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
pub(crate) fn vector<T: bytemuck::Pod>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    x: &ArrayView1<'_, T>,
) -> Result<VecOperand> {
    let (data, offset, strides) = gather(x);
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
pub(crate) fn matrix<T: bytemuck::Pod>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: &ArrayView2<'_, T>,
) -> Result<MatOperand> {
    let (data, offset, strides) = gather(a);
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
