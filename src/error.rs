//! The one error type of the crate.
//!
//! Every fallible function returns [`Result<T>`](crate::Result). Argument errors name the BLAS
//! routine (`"sgemm"`, `"strsv"`, ...) and the argument (`"a"`, `"x"`, `"lda"`, `"incx"`, ...), so
//! that a message reads like the reference BLAS `XERBLA` report. An error is always returned
//! before anything is written: on `Err`, output arrays are unchanged.

/// Errors returned by wgblas.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No GPU adapter could be found (no Vulkan/Metal/DX12/GL driver, or none matching
    /// `WGPU_BACKEND` / `WGPU_ADAPTER_NAME`).
    #[error("wgblas: no GPU adapter found: {detail}")]
    NoAdapter {
        /// What was tried.
        detail: String,
    },
    /// The adapter was found but refused to create a device.
    #[error("wgblas: adapter `{adapter}` could not create a device: {detail}")]
    RequestDevice {
        /// Adapter name.
        adapter: String,
        /// wgpu's message.
        detail: String,
    },
    /// Two arguments have incompatible dimensions (for example `a.ncols() != x.len()`).
    #[error("{routine}: argument `{arg}` has mismatched dimensions: {detail}")]
    DimensionMismatch {
        /// BLAS routine name.
        routine: &'static str,
        /// Argument name.
        arg: &'static str,
        /// Expected and found shapes.
        detail: String,
    },
    /// A matrix that must be square is not.
    #[error("{routine}: argument `{arg}` must be square, found {rows}x{cols}")]
    NotSquare {
        /// BLAS routine name.
        routine: &'static str,
        /// Argument name.
        arg: &'static str,
        /// Rows found.
        rows: usize,
        /// Columns found.
        cols: usize,
    },
    /// An operand needs more memory than one buffer of this adapter allows (`max_buffer_size`),
    /// or than one storage binding for the routines that do not yet process operands in parts
    /// (the Level 2 and 3 routines other than `sgemv` and `sgemm`), or an index does not fit
    /// the kernels' 32-bit addressing.
    #[error("{routine}: argument `{arg}` needs {bytes} bytes, past the limit of {limit} bytes (one buffer or storage binding of this context, as `Context::max_buffer`/`max_binding` report, or the kernels' 32-bit indexing)")]
    TooLarge {
        /// BLAS routine name.
        routine: &'static str,
        /// Argument name.
        arg: &'static str,
        /// Bytes the operand needs on the device.
        bytes: u64,
        /// The adapter's `max_buffer_size`, its binding limit ([`Context::max_binding`](crate::Context::max_binding)), or the
        /// 32-bit addressing limit.
        limit: u64,
    },
    /// An output the crate allocates on the host for a plain (non-`_inplace`) form does not fit
    /// the host's memory: the allocation failed, nothing was computed.
    #[error("{routine}: argument `{arg}` needs {bytes} bytes of host memory, which could not be allocated")]
    OutOfHostMemory {
        /// BLAS routine name.
        routine: &'static str,
        /// Argument name.
        arg: &'static str,
        /// Bytes asked for.
        bytes: u64,
    },
    /// An argument value is outside its domain (a `srotm` flag, `iamax` of an empty vector, ...).
    #[error("{routine}: argument `{arg}` is invalid: {detail}")]
    InvalidArgument {
        /// BLAS routine name.
        routine: &'static str,
        /// Argument name.
        arg: &'static str,
        /// Why.
        detail: String,
    },
    /// A sub-view ([`GpuMatrix::slice`](crate::GpuMatrix::slice),
    /// [`GpuVector::slice`](crate::GpuVector::slice)) asks for elements outside the array.
    #[error("{routine}: argument `{arg}` is out of range: {detail}")]
    OutOfRange {
        /// The method (`slice`, `slice_mut`).
        routine: &'static str,
        /// Argument name (`range`, `rows`, `cols`).
        arg: &'static str,
        /// The range asked for and the valid one.
        detail: String,
    },
    /// The adapter lacks a wgpu feature the routine needs (`SHADER_F64` for the f64 routines
    /// other than `idamax` and `dasum`, which have an exact fallback).
    #[error("{routine}: this adapter lacks the wgpu feature {feature}")]
    Unsupported {
        /// BLAS routine name.
        routine: &'static str,
        /// The missing feature, as wgpu names it (`SHADER_F64`).
        feature: &'static str,
    },
    /// The device reported an error (shader compilation, out of memory, lost device, ...).
    #[error("{routine}: GPU error: {detail}")]
    Gpu {
        /// BLAS routine name (or `"context"`).
        routine: &'static str,
        /// wgpu's message.
        detail: String,
    },
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
