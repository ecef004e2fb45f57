//! [`GpuScalar`]: a result kept on the device, and its device arithmetic.

use crate::context::Context;
use crate::error::Result;
use crate::launch::Dispatch;
use crate::pool::Buf;

/// A scalar result kept on the device. [`GpuScalar::get`] reads it; an f32 one can be passed
/// as `alpha`/`beta` (`&s`) to `saxpy`, `sscal`, `sgemv`, `sgemm` without reading it.
pub struct GpuScalar<'c, T> {
    pub(super) ctx: &'c Context,
    pub(super) buf: Buf,
    /// Word (4-byte) offset of the value in `buf`.
    pub(super) word: usize,
    /// Words to read from `word`, and how to turn them into `T`.
    pub(super) words: usize,
    pub(super) decode: fn(&[u32]) -> T,
}

impl<T> std::fmt::Debug for GpuScalar<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuScalar")
            .field("word", &self.word)
            .finish_non_exhaustive()
    }
}

pub(crate) fn decode_f32(w: &[u32]) -> f32 {
    f32::from_bits(w[0])
}

impl<'c, T> GpuScalar<'c, T> {
    /// The buffer and byte offset of the value, for patching a kernel's parameters (f32) or
    /// copying it into a kernel's scalar buffer (f64).
    pub(crate) fn source(&self) -> (&wgpu::Buffer, u64) {
        (&self.buf, self.word as u64 * 4)
    }

    pub(crate) fn ctx_id(&self) -> u64 {
        self.ctx.id
    }

    pub(crate) fn new(
        ctx: &'c Context,
        buf: Buf,
        word: usize,
        words: usize,
        decode: fn(&[u32]) -> T,
    ) -> Self {
        GpuScalar {
            ctx,
            buf,
            word,
            words,
            decode,
        }
    }

    /// Read the value (submits held commands first: one submission, one read-back).
    ///
    /// # Errors
    /// [`Error::Gpu`](crate::Error::Gpu) on a device failure.
    pub fn get(&self) -> Result<T> {
        let out = self
            .ctx
            .execute::<u32>("get", &[], &[(&self.buf, self.word + self.words)])?;
        Ok((self.decode)(&out[0][self.word..]))
    }

    /// [`GpuScalar::get`] without blocking the calling thread (see
    /// [`GpuVector::to_array_async`](crate::GpuVector::to_array_async)).
    ///
    /// # Errors
    /// [`Error::Gpu`](crate::Error::Gpu) on a device failure.
    pub async fn get_async(&self) -> Result<T> {
        let out = self
            .ctx
            .execute_async::<u32>("get", &[], &[(&self.buf, self.word + self.words)])
            .await?;
        Ok((self.decode)(&out[0][self.word..]))
    }
}

static SCALAR_SHADER: crate::context::Shader = crate::context::Shader {
    name: "scalar.wgsl",
    source: include_str!("../../wgsl/scalar.wgsl"),
};

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ScalarParams {
    a_word: u32,
    b_word: u32,
    _pad: [u32; 2],
}

/// The dispatch writing into `out` (16 bytes) 1 where the device scalar at byte `offset` of
/// `src` is not ±0 (NaN and Inf included), else 0, in f64 where `wide`, else f32: the factor
/// by which a solve applies a device alpha's zero rule (`blas::strsm`: alpha = 0 gives 0
/// whatever A holds). One invocation; the test is on the bit pattern.
pub(crate) fn nonzero_indicator<'a>(
    src: &'a Buf,
    offset: u64,
    wide: bool,
    out: &'a Buf,
) -> Dispatch<'a> {
    let params = ScalarParams {
        a_word: (offset / 4) as u32,
        b_word: 0,
        _pad: [0; 2],
    };
    let op = if wide { 4.0 } else { 3.0 };
    Dispatch::new(&SCALAR_SHADER, "main", &params, &[src, src, out], [1, 1, 1])
        .constants(&[("OP", op)])
}

impl<'c> GpuScalar<'c, f32> {
    fn op(&self, other: &GpuScalar<'c, f32>, op: u32) -> Result<GpuScalar<'c, f32>> {
        crate::layout::check_ctx(self.ctx, other.ctx.id, "GpuScalar", "other")?;
        // The kernel writes word 0, the only one read: no clear (a clear command between two
        // dispatches of a chain costs as much as a dispatch).
        let out = self.ctx.scratch(16);
        let params = ScalarParams {
            a_word: self.word as u32,
            b_word: other.word as u32,
            _pad: [0; 2],
        };
        let d = Dispatch::new(
            &SCALAR_SHADER,
            "main",
            &params,
            &[&self.buf, &other.buf, &out],
            [1, 1, 1],
        )
        .constants(&[("OP", op as f64)]);
        self.ctx.execute::<u32>("GpuScalar", &[d], &[])?;
        Ok(GpuScalar::new(self.ctx, out, 0, 1, decode_f32))
    }

    /// `self / other`, computed on the device (IEEE division: x/0 is ±Inf or NaN).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) (routine `"GpuScalar"`, argument `"other"`) when `other`
    /// belongs to another context; [`Error::Gpu`](crate::Error::Gpu) on a device failure.
    pub fn div(&self, other: &GpuScalar<'c, f32>) -> Result<GpuScalar<'c, f32>> {
        self.op(other, 0)
    }

    /// `-self`, computed on the device.
    ///
    /// # Errors
    /// [`Error::Gpu`](crate::Error::Gpu) on a device failure.
    pub fn neg(&self) -> Result<GpuScalar<'c, f32>> {
        self.op(self, 1)
    }

    /// `1 / self`, computed on the device.
    ///
    /// # Errors
    /// [`Error::Gpu`](crate::Error::Gpu) on a device failure.
    pub fn recip(&self) -> Result<GpuScalar<'c, f32>> {
        self.op(self, 2)
    }
}
