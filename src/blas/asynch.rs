//! The async twins of the BLAS layer: `sgemv_async`, `strsm_async`, `isamax_async`, ... one for
//! every routine of [`crate::blas`] (re-exported there), each a future that does what the
//! blocking routine does without blocking the calling thread.
//!
//! One core per routine: the blocking form and its twin both run `<routine>_in` (in Level 3
//! one core for both element types, `gemm_in::<f32>` for `sgemm`), the same
//! validation, uploads, driver and dispatches, and differ only in how they wait for the
//! read-back (`launch::Wait`): the blocking form polls the device on the calling thread; the
//! twin awaits a future woken once wgpu's map callbacks have run, which a helper thread drives
//! (on native wgpu nothing else runs them), so an async executor's worker never blocks. A call
//! whose outputs are all resident reads nothing back: both forms hold its commands for the next
//! submission and return at once (see [`crate::resident`]).
//!
//! Arguments, shapes, layouts, semantics and errors are those of the blocking routine, linked
//! from each twin. On error the outputs are unchanged, as for the blocking forms.
//!
//! # Cancellation
//! Dropping a twin's future before it completes is safe: host outputs are written only after
//! every read-back buffer has been mapped, so a dropped call leaves them unchanged, and the
//! context stays usable. Work already submitted still runs on the device (its results are
//! dropped). Known limit: the helper thread that waits for it keeps a handle on the device
//! until the GPU has finished that submission, then exits (dropping the handle under the same
//! lock as a context's own teardown, should it be the last one).
//!
//! # Example
//! ```
//! # pollster::block_on(async {
//! use ndarray::array;
//! use wgblas::{blas, Transpose};
//! let ctx = wgblas::Context::new_async().await?;
//! let a = array![[1.0f32, 2.0], [3.0, 4.0]];
//! let mut y = array![1.0f32, 1.0];
//! blas::sgemv_async(&ctx, Transpose::No, 1.0, &a, &array![1.0f32, 1.0], 2.0, &mut y).await?;
//! assert_eq!(y, array![5.0, 9.0]);
//! assert_eq!(blas::isamax_async(&ctx, &array![1.0f32, -7.0, 3.0]).await?, 1);
//! # Ok::<(), wgblas::Error>(())
//! # }).unwrap();
//! ```

use crate::error::Result;
use crate::flags::{Diag, Side, Transpose, Uplo};
use crate::launch::Wait;
use crate::layout::{BatchMut, BatchRef, MatMut, MatRef, Scalar, VecMut, VecRef};
use crate::Context;

use super::level1 as l1;
use super::level2 as l2;
use super::level3 as l3;

/// One async twin: `name_async` with the routine's own signature, awaiting `core` with
/// `Wait::Async`.
macro_rules! twin {
    ($twin:ident = $core:path, $name:literal, ($($arg:ident : $ty:ty),* $(,)?) -> $ret:ty) => {
        #[doc = concat!("[`", $name, "`](crate::blas::", $name, ") without blocking the calling thread: the same")]
        #[doc = concat!("core (validation, uploads, kernels), awaiting the read-back instead of blocking in it")]
        #[doc = "(see the [module doc](self): waiting, cancellation)."]
        #[doc = ""]
        #[doc = concat!("BLAS: `", $name, "`. Formula, shapes, layouts and semantics: [`", $name, "`](crate::blas::", $name, ").")]
        #[doc = ""]
        #[doc = "# Errors"]
        #[doc = concat!("As [`", $name, "`](crate::blas::", $name, "); on error the outputs are unchanged.")]
        #[allow(clippy::too_many_arguments)]
        pub async fn $twin<'a>(ctx: &Context, $($arg: $ty),*) -> $ret {
            $core(ctx, $($arg),*, Wait::Async).await
        }
    };
}
twin!(sasum_async = l1::asum::sasum_in, "sasum", (x: impl Into<VecRef<'a>>) -> Result<f32>);
twin!(dasum_async = l1::asum::dasum_in, "dasum", (x: impl Into<VecRef<'a, f64>>) -> Result<f64>);
twin!(saxpy_async = l1::axpy::saxpy_in, "saxpy", (alpha: impl Into<Scalar<'a>>, x: impl Into<VecRef<'a>>, y: impl Into<VecMut<'a>>) -> Result<()>);
twin!(daxpy_async = l1::axpy::daxpy_in, "daxpy", (alpha: impl Into<Scalar<'a, f64>>, x: impl Into<VecRef<'a, f64>>, y: impl Into<VecMut<'a, f64>>) -> Result<()>);
twin!(scopy_async = l1::copy::scopy_in, "scopy", (x: impl Into<VecRef<'a>>, y: impl Into<VecMut<'a>>) -> Result<()>);
twin!(dcopy_async = l1::copy::dcopy_in, "dcopy", (x: impl Into<VecRef<'a, f64>>, y: impl Into<VecMut<'a, f64>>) -> Result<()>);
twin!(sdot_async = l1::dot::sdot_in, "sdot", (x: impl Into<VecRef<'a>>, y: impl Into<VecRef<'a>>) -> Result<f32>);
twin!(ddot_async = l1::dot::ddot_in, "ddot", (x: impl Into<VecRef<'a, f64>>, y: impl Into<VecRef<'a, f64>>) -> Result<f64>);
twin!(isamax_async = l1::iamax::isamax_in, "isamax", (x: impl Into<VecRef<'a>>) -> Result<usize>);
twin!(idamax_async = l1::iamax::idamax_in, "idamax", (x: impl Into<VecRef<'a, f64>>) -> Result<usize>);
twin!(snrm2_async = l1::nrm2::snrm2_in, "snrm2", (x: impl Into<VecRef<'a>>) -> Result<f32>);
twin!(dnrm2_async = l1::nrm2::dnrm2_in, "dnrm2", (x: impl Into<VecRef<'a, f64>>) -> Result<f64>);
twin!(srot_async = l1::rot::srot_in, "srot", (x: impl Into<VecMut<'a>>, y: impl Into<VecMut<'a>>, c: f32, s: f32) -> Result<()>);
twin!(drot_async = l1::rot::drot_in, "drot", (x: impl Into<VecMut<'a, f64>>, y: impl Into<VecMut<'a, f64>>, c: f64, s: f64) -> Result<()>);
twin!(srotm_async = l1::rotm::srotm_in, "srotm", (x: impl Into<VecMut<'a>>, y: impl Into<VecMut<'a>>, param: [f32; 5]) -> Result<()>);
twin!(drotm_async = l1::rotm::drotm_in, "drotm", (x: impl Into<VecMut<'a, f64>>, y: impl Into<VecMut<'a, f64>>, param: [f64; 5]) -> Result<()>);
twin!(sscal_async = l1::scal::sscal_in, "sscal", (alpha: impl Into<Scalar<'a>>, x: impl Into<VecMut<'a>>) -> Result<()>);
twin!(dscal_async = l1::scal::dscal_in, "dscal", (alpha: impl Into<Scalar<'a, f64>>, x: impl Into<VecMut<'a, f64>>) -> Result<()>);
twin!(sswap_async = l1::swap::sswap_in, "sswap", (x: impl Into<VecMut<'a>>, y: impl Into<VecMut<'a>>) -> Result<()>);
twin!(dswap_async = l1::swap::dswap_in, "dswap", (x: impl Into<VecMut<'a, f64>>, y: impl Into<VecMut<'a, f64>>) -> Result<()>);
twin!(sgemv_async = l2::gemv::sgemv_in, "sgemv", (trans: Transpose, alpha: impl Into<Scalar<'a>>, a: impl Into<MatRef<'a>>, x: impl Into<VecRef<'a>>, beta: impl Into<Scalar<'a>>, y: impl Into<VecMut<'a>>) -> Result<()>);
twin!(dgemv_async = l2::gemv::dgemv_in, "dgemv", (trans: Transpose, alpha: impl Into<Scalar<'a, f64>>, a: impl Into<MatRef<'a, f64>>, x: impl Into<VecRef<'a, f64>>, beta: impl Into<Scalar<'a, f64>>, y: impl Into<VecMut<'a, f64>>) -> Result<()>);
twin!(sger_async = l2::ger::sger_in, "sger", (alpha: impl Into<Scalar<'a>>, x: impl Into<VecRef<'a>>, y: impl Into<VecRef<'a>>, a: impl Into<MatMut<'a>>) -> Result<()>);
twin!(dger_async = l2::ger::dger_in, "dger", (alpha: impl Into<Scalar<'a, f64>>, x: impl Into<VecRef<'a, f64>>, y: impl Into<VecRef<'a, f64>>, a: impl Into<MatMut<'a, f64>>) -> Result<()>);
twin!(ssymv_async = l2::symv::ssymv_in, "ssymv", (uplo: Uplo, alpha: impl Into<Scalar<'a>>, a: impl Into<MatRef<'a>>, x: impl Into<VecRef<'a>>, beta: impl Into<Scalar<'a>>, y: impl Into<VecMut<'a>>) -> Result<()>);
twin!(dsymv_async = l2::symv::dsymv_in, "dsymv", (uplo: Uplo, alpha: impl Into<Scalar<'a, f64>>, a: impl Into<MatRef<'a, f64>>, x: impl Into<VecRef<'a, f64>>, beta: impl Into<Scalar<'a, f64>>, y: impl Into<VecMut<'a, f64>>) -> Result<()>);
twin!(ssyr_async = l2::syr::ssyr_in, "ssyr", (uplo: Uplo, alpha: impl Into<Scalar<'a>>, x: impl Into<VecRef<'a>>, a: impl Into<MatMut<'a>>) -> Result<()>);
twin!(dsyr_async = l2::syr::dsyr_in, "dsyr", (uplo: Uplo, alpha: impl Into<Scalar<'a, f64>>, x: impl Into<VecRef<'a, f64>>, a: impl Into<MatMut<'a, f64>>) -> Result<()>);
twin!(ssyr2_async = l2::syr2::ssyr2_in, "ssyr2", (uplo: Uplo, alpha: impl Into<Scalar<'a>>, x: impl Into<VecRef<'a>>, y: impl Into<VecRef<'a>>, a: impl Into<MatMut<'a>>) -> Result<()>);
twin!(dsyr2_async = l2::syr2::dsyr2_in, "dsyr2", (uplo: Uplo, alpha: impl Into<Scalar<'a, f64>>, x: impl Into<VecRef<'a, f64>>, y: impl Into<VecRef<'a, f64>>, a: impl Into<MatMut<'a, f64>>) -> Result<()>);
twin!(strmv_async = l2::trmv::strmv_in, "strmv", (uplo: Uplo, trans: Transpose, diag: Diag, a: impl Into<MatRef<'a>>, x: impl Into<VecMut<'a>>) -> Result<()>);
twin!(dtrmv_async = l2::trmv::dtrmv_in, "dtrmv", (uplo: Uplo, trans: Transpose, diag: Diag, a: impl Into<MatRef<'a, f64>>, x: impl Into<VecMut<'a, f64>>) -> Result<()>);
twin!(strsv_async = l2::trsv::strsv_in, "strsv", (uplo: Uplo, trans: Transpose, diag: Diag, a: impl Into<MatRef<'a>>, x: impl Into<VecMut<'a>>) -> Result<()>);
twin!(dtrsv_async = l2::trsv::dtrsv_in, "dtrsv", (uplo: Uplo, trans: Transpose, diag: Diag, a: impl Into<MatRef<'a, f64>>, x: impl Into<VecMut<'a, f64>>) -> Result<()>);
twin!(sgemm_async = l3::gemm::gemm_in::<f32>, "sgemm", (transa: Transpose, transb: Transpose, alpha: impl Into<Scalar<'a>>, a: impl Into<MatRef<'a>>, b: impl Into<MatRef<'a>>, beta: impl Into<Scalar<'a>>, c: impl Into<MatMut<'a>>) -> Result<()>);
twin!(dgemm_async = l3::gemm::gemm_in::<f64>, "dgemm", (transa: Transpose, transb: Transpose, alpha: impl Into<Scalar<'a, f64>>, a: impl Into<MatRef<'a, f64>>, b: impl Into<MatRef<'a, f64>>, beta: impl Into<Scalar<'a, f64>>, c: impl Into<MatMut<'a, f64>>) -> Result<()>);
twin!(sgemm_batched_async = l3::gemm_batched::gemm_batched_in::<f32>, "sgemm_batched", (transa: Transpose, transb: Transpose, alpha: impl Into<Scalar<'a>>, a: impl Into<BatchRef<'a>>, b: impl Into<BatchRef<'a>>, beta: impl Into<Scalar<'a>>, c: impl Into<BatchMut<'a>>) -> Result<()>);
twin!(dgemm_batched_async = l3::gemm_batched::gemm_batched_in::<f64>, "dgemm_batched", (transa: Transpose, transb: Transpose, alpha: impl Into<Scalar<'a, f64>>, a: impl Into<BatchRef<'a, f64>>, b: impl Into<BatchRef<'a, f64>>, beta: impl Into<Scalar<'a, f64>>, c: impl Into<BatchMut<'a, f64>>) -> Result<()>);
twin!(sgemmtr_async = l3::gemmtr::gemmtr_in::<f32>, "sgemmtr", (uplo: Uplo, transa: Transpose, transb: Transpose, alpha: impl Into<Scalar<'a>>, a: impl Into<MatRef<'a>>, b: impl Into<MatRef<'a>>, beta: impl Into<Scalar<'a>>, c: impl Into<MatMut<'a>>) -> Result<()>);
twin!(dgemmtr_async = l3::gemmtr::gemmtr_in::<f64>, "dgemmtr", (uplo: Uplo, transa: Transpose, transb: Transpose, alpha: impl Into<Scalar<'a, f64>>, a: impl Into<MatRef<'a, f64>>, b: impl Into<MatRef<'a, f64>>, beta: impl Into<Scalar<'a, f64>>, c: impl Into<MatMut<'a, f64>>) -> Result<()>);
twin!(ssymm_async = l3::symm::symm_in::<f32>, "ssymm", (side: Side, uplo: Uplo, alpha: impl Into<Scalar<'a>>, a: impl Into<MatRef<'a>>, b: impl Into<MatRef<'a>>, beta: impl Into<Scalar<'a>>, c: impl Into<MatMut<'a>>) -> Result<()>);
twin!(dsymm_async = l3::symm::symm_in::<f64>, "dsymm", (side: Side, uplo: Uplo, alpha: impl Into<Scalar<'a, f64>>, a: impl Into<MatRef<'a, f64>>, b: impl Into<MatRef<'a, f64>>, beta: impl Into<Scalar<'a, f64>>, c: impl Into<MatMut<'a, f64>>) -> Result<()>);
twin!(ssyr2k_async = l3::syr2k::syr2k_in::<f32>, "ssyr2k", (uplo: Uplo, trans: Transpose, alpha: impl Into<Scalar<'a>>, a: impl Into<MatRef<'a>>, b: impl Into<MatRef<'a>>, beta: impl Into<Scalar<'a>>, c: impl Into<MatMut<'a>>) -> Result<()>);
twin!(dsyr2k_async = l3::syr2k::syr2k_in::<f64>, "dsyr2k", (uplo: Uplo, trans: Transpose, alpha: impl Into<Scalar<'a, f64>>, a: impl Into<MatRef<'a, f64>>, b: impl Into<MatRef<'a, f64>>, beta: impl Into<Scalar<'a, f64>>, c: impl Into<MatMut<'a, f64>>) -> Result<()>);
twin!(ssyrk_async = l3::syrk::syrk_in::<f32>, "ssyrk", (uplo: Uplo, trans: Transpose, alpha: impl Into<Scalar<'a>>, a: impl Into<MatRef<'a>>, beta: impl Into<Scalar<'a>>, c: impl Into<MatMut<'a>>) -> Result<()>);
twin!(dsyrk_async = l3::syrk::syrk_in::<f64>, "dsyrk", (uplo: Uplo, trans: Transpose, alpha: impl Into<Scalar<'a, f64>>, a: impl Into<MatRef<'a, f64>>, beta: impl Into<Scalar<'a, f64>>, c: impl Into<MatMut<'a, f64>>) -> Result<()>);
twin!(strmm_async = l3::trmm::trmm_in::<f32>, "strmm", (side: Side, uplo: Uplo, transa: Transpose, diag: Diag, alpha: impl Into<Scalar<'a>>, a: impl Into<MatRef<'a>>, b: impl Into<MatMut<'a>>) -> Result<()>);
twin!(dtrmm_async = l3::trmm::trmm_in::<f64>, "dtrmm", (side: Side, uplo: Uplo, transa: Transpose, diag: Diag, alpha: impl Into<Scalar<'a, f64>>, a: impl Into<MatRef<'a, f64>>, b: impl Into<MatMut<'a, f64>>) -> Result<()>);
twin!(strsm_async = l3::trsm::trsm_in::<f32>, "strsm", (side: Side, uplo: Uplo, transa: Transpose, diag: Diag, alpha: impl Into<Scalar<'a>>, a: impl Into<MatRef<'a>>, b: impl Into<MatMut<'a>>) -> Result<()>);
twin!(dtrsm_async = l3::trsm::trsm_in::<f64>, "dtrsm", (side: Side, uplo: Uplo, transa: Transpose, diag: Diag, alpha: impl Into<Scalar<'a, f64>>, a: impl Into<MatRef<'a, f64>>, b: impl Into<MatMut<'a, f64>>) -> Result<()>);
