//! # wgblas: GPU BLAS on ndarray
//!
//! BLAS Level 1, 2 and 3 routines written in WGSL and run through [`wgpu`] on any GPU (Vulkan,
//! Metal, DX12, GL), put on [`ndarray`] arrays, and checked against OpenBLAS with the error
//! metrics of [`metrics`].
//!
//! Two layers, one implementation:
//! - [`blas`]: the routines under their BLAS names (`sgemm`, `strsv`, `sdot`, ...), with every
//!   BLAS argument, ndarray views in and out, and an explicit [`Context`].
//! - [`ext`] (re-exported by [`prelude`]): extension traits on ndarray arrays (`gpu_gemm`,
//!   `gpu_trsv`, `gpu_dot`, ...) using the shared default context.
//!
//! ```
//! use ndarray::Array2;
//! use wgblas::prelude::*;
//!
//! let a = Array2::<f32>::from_shape_fn((64, 32), |(i, j)| (i + j) as f32 / 64.0);
//! let b = Array2::<f32>::from_shape_fn((32, 16), |(i, j)| (i * j) as f32 / 32.0);
//! let c = a.gpu_gemm(&b)?;                        // C = A·B on the GPU
//! let reference = a.dot(&b);
//! assert!(c.iter().zip(&reference).all(|(x, y)| (x - y).abs() <= 1e-4 * y.abs().max(1.0)));
//! # Ok::<(), wgblas::Error>(())
//! ```
//!
//! Doc comments cite the design contract as "DESIGN.md §N": `docs/DESIGN.md` in the repository.
//!
//! Everything fallible returns [`Result`]: bad input gives an [`Error`] naming the routine and
//! the argument, never a panic, and leaves the output unchanged.

#![warn(missing_docs)]

pub mod blas;
mod context;
mod drivers;
mod error;
pub mod ext;
mod flags;
#[doc(hidden)]
pub mod lab;
mod launch;
pub mod layout;
pub mod metrics;
mod pool;
pub mod resident;
mod transfer;

/// The Level 3 tile engine's choices (tile shape, split-k, packing) and a process-wide override
/// of them (per thread) for tuning experiments (`examples/kernel_lab.rs`).
pub mod tuning {
    pub use crate::drivers::gemm::{
        choose, choose_v2, set_tuning, wave_split, Config, Tile, TrsmLeaf, Tuning,
    };
}

pub use context::{Context, ContextOptions, Phase};
pub use error::{Error, Result};
pub use flags::{Diag, Side, Transpose, Uplo};
pub use resident::{GpuBatch, GpuMatrix, GpuScalar, GpuVector, MatrixLayout};
/// The wgpu version the crate is built on (its types appear in [`Context`]'s API).
pub use wgpu;

/// The README's code runs as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// Extension traits and flag enums: `use wgblas::prelude::*;`.
pub mod prelude {
    pub use crate::ext::{
        GemmExt, Level1Ext, Level1MutExt, Level2Ext, Level2VecExt, Level3BatchExt, Level3Ext, ToGpu,
    };
    pub use crate::flags::{Diag, Side, Transpose, Uplo};
}
