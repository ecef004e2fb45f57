//! Several resident results read back in one submission: [`Context::read_back`].

use ndarray::{Array1, Array2, Array3};

use super::{Element, GpuBatch, GpuMatrix, GpuScalar, GpuVector};
use crate::context::Context;
use crate::error::{Error, Result};
use crate::launch::Wait;
use crate::pool::Buf;

mod sealed {
    pub trait Sealed {}
}

/// What [`Context::read_back`] can read: a `&`[`GpuVector`], `&`[`GpuMatrix`], `&`[`GpuBatch`]
/// or `&`[`GpuScalar`] (of any element type), a tuple of up to eight of them (mixed freely), or
/// a `Vec` of one kind. `Output` is the matching host value: `Array1<T>`, `Array2<T>` (in the
/// matrix's storage order), `Array3<T>`, `T`, a tuple or a `Vec` of those.
///
/// Sealed: implemented for the crate's resident types only.
pub trait ReadBack: sealed::Sealed {
    /// The host value read back.
    type Output;
    /// Each buffer to read: (owning context's id, buffer, 4-byte words from its start).
    #[doc(hidden)]
    fn parts(&self) -> Vec<(u64, &wgpu::Buffer, usize)>;
    /// The value from the words read for [`ReadBack::parts`], in order.
    #[doc(hidden)]
    fn assemble(&self, words: &mut dyn Iterator<Item = Vec<u32>>) -> Result<Self::Output>;
}

/// Words read back as elements of `T` (every element type is a whole number of words): no
/// copy where the alignments agree (f32), one otherwise (f64).
fn elements<T: Element>(words: Vec<u32>) -> Vec<T> {
    match bytemuck::allocation::try_cast_vec(words) {
        Ok(v) => v,
        Err((_, words)) => bytemuck::allocation::pod_collect_to_vec(&words),
    }
}

fn next(words: &mut dyn Iterator<Item = Vec<u32>>) -> Result<Vec<u32>> {
    words.next().ok_or(Error::Gpu {
        routine: "read_back",
        detail: "fewer read-backs than operands".into(),
    })
}

fn words_of<T>(elems: usize) -> usize {
    elems * std::mem::size_of::<T>() / 4
}

/// The reads of the first `words` 4-byte words of `buf` (of context `id`): one per segment
/// of a segmented buffer ([`joined`] puts them back together), else one.
fn reads_of(id: u64, buf: &Buf, words: usize) -> Vec<(u64, &wgpu::Buffer, usize)> {
    let bytes = words as u64 * 4;
    buf.segments()
        .into_iter()
        .filter(|&(start, _, _)| start < bytes || start == 0)
        .map(|(start, b, len)| (id, b, (len.min(bytes - start) / 4) as usize))
        .collect()
}

/// The words of one operand read by [`reads_of`]: the next `count` reads, joined.
fn joined(words: &mut dyn Iterator<Item = Vec<u32>>, count: usize) -> Result<Vec<u32>> {
    let mut all = next(words)?;
    for _ in 1..count {
        all.extend(next(words)?);
    }
    Ok(all)
}

impl<T: Element> sealed::Sealed for &GpuVector<'_, T> {}
impl<T: Element> ReadBack for &GpuVector<'_, T> {
    type Output = Array1<T>;
    fn parts(&self) -> Vec<(u64, &wgpu::Buffer, usize)> {
        reads_of(self.ctx.id, &self.buf, words_of::<T>(self.len))
    }
    fn assemble(&self, words: &mut dyn Iterator<Item = Vec<u32>>) -> Result<Array1<T>> {
        let count = self.parts().len();
        Ok(Array1::from_vec(elements(joined(words, count)?)))
    }
}

impl<T: Element> sealed::Sealed for &GpuMatrix<'_, T> {}
impl<T: Element> ReadBack for &GpuMatrix<'_, T> {
    type Output = Array2<T>;
    fn parts(&self) -> Vec<(u64, &wgpu::Buffer, usize)> {
        reads_of(self.ctx.id, &self.buf, words_of::<T>(self.rows * self.cols))
    }
    fn assemble(&self, words: &mut dyn Iterator<Item = Vec<u32>>) -> Result<Array2<T>> {
        let count = self.parts().len();
        self.shape_data(elements(joined(words, count)?))
    }
}

impl<T: Element> sealed::Sealed for &GpuBatch<'_, T> {}
impl<T: Element> ReadBack for &GpuBatch<'_, T> {
    type Output = Array3<T>;
    fn parts(&self) -> Vec<(u64, &wgpu::Buffer, usize)> {
        let (b, m, n) = self.dim;
        reads_of(self.ctx.id, &self.buf, words_of::<T>(b * m * n))
    }
    fn assemble(&self, words: &mut dyn Iterator<Item = Vec<u32>>) -> Result<Array3<T>> {
        let count = self.parts().len();
        Array3::from_shape_vec(self.dim, elements(joined(words, count)?)).map_err(|e| Error::Gpu {
            routine: "read_back",
            detail: e.to_string(),
        })
    }
}

impl<T> sealed::Sealed for &GpuScalar<'_, T> {}
impl<T> ReadBack for &GpuScalar<'_, T> {
    type Output = T;
    fn parts(&self) -> Vec<(u64, &wgpu::Buffer, usize)> {
        vec![(self.ctx.id, &self.buf, self.word + self.words)]
    }
    fn assemble(&self, words: &mut dyn Iterator<Item = Vec<u32>>) -> Result<T> {
        Ok((self.decode)(&next(words)?[self.word..]))
    }
}

impl<R: ReadBack> sealed::Sealed for Vec<R> {}
impl<R: ReadBack> ReadBack for Vec<R> {
    type Output = Vec<R::Output>;
    fn parts(&self) -> Vec<(u64, &wgpu::Buffer, usize)> {
        self.iter().flat_map(|r| r.parts()).collect()
    }
    fn assemble(&self, words: &mut dyn Iterator<Item = Vec<u32>>) -> Result<Self::Output> {
        self.iter().map(|r| r.assemble(words)).collect()
    }
}

macro_rules! tuples {
    ($(($($r:ident $i:tt),+))+) => {$(
        impl<$($r: ReadBack),+> sealed::Sealed for ($($r,)+) {}
        impl<$($r: ReadBack),+> ReadBack for ($($r,)+) {
            type Output = ($($r::Output,)+);
            fn parts(&self) -> Vec<(u64, &wgpu::Buffer, usize)> {
                let mut v = Vec::new();
                $(v.extend(self.$i.parts());)+
                v
            }
            fn assemble(&self, words: &mut dyn Iterator<Item = Vec<u32>>) -> Result<Self::Output> {
                Ok(($(self.$i.assemble(words)?,)+))
            }
        }
    )+};
}
tuples! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
}

impl Context {
    /// Read several resident results back at once: one submission (carrying every held
    /// command) and one wait for all of them, where reading each with its own `to_array` or
    /// `get` would cost a submission and a wait each.
    ///
    /// `items` is a `&GpuVector`, `&GpuMatrix`, `&GpuBatch` or `&GpuScalar`, a tuple of up to
    /// eight of them, or a `Vec` of one kind ([`ReadBack`]); the result has the same shape:
    /// `ctx.read_back((&x, &a, &s))` gives `(Array1, Array2, f32)`. Matrices come back in their
    /// own storage order, as from [`GpuMatrix::to_array`].
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] (routine `read_back`, argument `items`) when an item belongs
    /// to another context; [`Error::Gpu`] on a device failure.
    ///
    /// # Example
    /// ```
    /// use ndarray::array;
    /// use wgblas::{blas, resident, Context, GpuVector};
    /// let ctx = Context::shared()?;
    /// let x = ctx.upload_vector(&array![3.0f32, 4.0])?;
    /// let mut y = GpuVector::<f32>::zeros(ctx, 2)?;
    /// blas::saxpy(ctx, 2.0, &x, &mut y)?;                  // y = 2x, held on the device
    /// let n = resident::snrm2(ctx, &x)?;                    // ‖x‖ = 5, on the device
    /// let before = ctx.submissions();
    /// let (y, n) = ctx.read_back((&y, &n))?;
    /// assert_eq!((y, n), (array![6.0, 8.0], 5.0));
    /// assert_eq!(ctx.submissions(), before + 1);
    /// # Ok::<(), wgblas::Error>(())
    /// ```
    pub fn read_back<R: ReadBack>(&self, items: R) -> Result<R::Output> {
        // The blocking wait never yields, so this `block_on` only drives a ready future.
        pollster::block_on(self.read_back_in(items, Wait::Block))
    }

    /// [`Context::read_back`] without blocking the calling thread (see
    /// [`GpuVector::to_array_async`]).
    ///
    /// # Errors
    /// As [`Context::read_back`].
    pub async fn read_back_async<R: ReadBack>(&self, items: R) -> Result<R::Output> {
        self.read_back_in(items, Wait::Async).await
    }

    async fn read_back_in<R: ReadBack>(&self, items: R, wait: Wait) -> Result<R::Output> {
        let parts = items.parts();
        for &(id, _, _) in &parts {
            crate::layout::check_ctx(self, id, "read_back", "items")?;
        }
        let reads: Vec<(&wgpu::Buffer, usize)> = parts.iter().map(|&(_, b, n)| (b, n)).collect();
        let data = self
            .execute_then_in::<u32>("read_back", &[], Vec::new(), &reads, wait)
            .await?;
        items.assemble(&mut data.into_iter())
    }
}
