//! The per-routine `bound_i` of DESIGN.md §2 (the denominators of [`forward_factor`] and
//! [`backward_residual_factor`], without the [`EPS`]), shaped like the routine's output.
//!
//! Arguments are the routine's inputs as passed to the call, before the routine overwrote
//! anything (`y` of `sgemv`, `C` of `sgemm`, ...) — except [`trsv`] and
//! [`trsm`], which take the computed solution. All arithmetic is in `f64`.
//!
//! Conventions, common to all:
//! - `n`/`k` is the routine's reduction length, `r` the order of `A` for `side` routines (m for
//!   Left, n for Right).
//! - Symmetric and triangular operands are read only in the triangle `uplo` (and a `Diag::Unit`
//!   diagonal not at all: it is 1); the unreferenced part may hold NaN without effect.
//! - For the routines whose output is a triangle (`ssyr`, `ssyr2`, `ssyrk`, `ssyr2k`, `sgemmtr`),
//!   the bound is 0 outside the triangle and `C`/`A` is read only on it: the untouched triangle
//!   must then equal the reference exactly (an equal value gives factor 0, any change `+∞`).
//! - A term whose scalar (`alpha`, `beta`, `c`, `s`, `h_ij`) is 0 is 0, and its operand is not
//!   read: BLAS does not read C when `beta = 0` nor A, B when `alpha = 0`, so NaN or ∞ there
//!   must not leak into the bound.
//!
//! Sources: netlib `sblat2.f`/`sblat3.f` gauges (`SMVCH`, `SMMCH`) scaled by the reduction length
//! plus one (Higham, 2nd ed., §3.1 and §3.5); triangular solves: Higham Theorem 8.5.
//!
//! # Panics
//! Every function panics when its arguments' shapes are inconsistent (the routine itself would
//! have returned an error); these are test and user helpers.
//!
//! [`forward_factor`]: crate::metrics::forward_factor
//! [`backward_residual_factor`]: crate::metrics::backward_residual_factor
//! [`EPS`]: crate::metrics::EPS

mod level1;
mod level2;
mod level3;

pub use level1::{axpy, dot, rot, rotm, rotm_matrix};
pub use level2::{gemv, ger, symv, syr, syr2, trmv, trsv, ROUNDED_ONCE};
pub use level3::{dgemm, gemm, gemmtr, symm, syr2k, syrk, trmm, trsm, trsm_forward};
