//! The BLAS layer: the routines under their BLAS names, with every BLAS argument, ndarray views
//! in and out, and an explicit [`Context`](crate::Context).
//!
//! Outputs are written in place into the caller's view, as in BLAS. Layouts: any view (C order,
//! F order, transposed, sliced, stepped, negative strides) is accepted; see [`crate::layout`]
//! for how each reaches the kernels. `lda`, `incx` and the other stride arguments of reference
//! BLAS are the view's strides, so ndarray makes them valid by construction.
//!
//! Arguments: vector inputs are `impl Into<VecRef>` (an ndarray view, `&Array1`, or a resident
//! `&GpuVector`), vector outputs `impl Into<VecMut>` (a mutable view, `&mut Array1`, or
//! `&mut GpuVector`), matrices likewise `MatRef`/`MatMut` (views, arrays, `&GpuMatrix`,
//! `gpu_matrix.t()`), and every `alpha` and `beta` `impl Into<Scalar>` (an `f32` or a device
//! `&GpuScalar<f32>`; `f64` or `&GpuScalar<f64>` for the d routines), which the drivers read
//! into their kernels; see [`crate::layout`] and [`crate::resident`]. Host and resident
//! operands may be mixed in one call.
//!
//! Every routine has an async twin, `<routine>_async` (module [`asynch`]), running the same
//! core and awaiting the read-back instead of blocking in it.
//!
//! Every routine checks its arguments first and returns a typed [`Error`] that
//! names the routine and the argument; on any error the output view is unchanged.

pub mod asynch;
mod forms;
pub(crate) mod level1;
mod level2;
mod level3;

pub use level1::asum::{dasum, sasum};
pub use level1::axpy::{daxpy, saxpy};
pub use level1::copy::{dcopy, scopy};
pub use level1::dot::{ddot, sdot};
pub use level1::iamax::{idamax, isamax};
pub use level1::nrm2::{dnrm2, snrm2};
pub use level1::rot::{drot, srot};
pub use level1::rotm::{drotm, srotm};
pub use level1::scal::{dscal, sscal};
pub use level1::swap::{dswap, sswap};
pub use level2::gemv::{dgemv, sgemv};
pub use level2::ger::{dger, sger};
pub use level2::symv::{dsymv, ssymv};
pub use level2::syr::{dsyr, ssyr};
pub use level2::syr2::{dsyr2, ssyr2};
pub use level2::trmv::{dtrmv, strmv};
pub use level2::trsv::{dtrsv, strsv};
pub(crate) use level3::check_inner;
pub use level3::gemm::{dgemm, sgemm};
pub use level3::gemm_batched::{dgemm_batched, sgemm_batched};
pub use level3::gemmtr::{dgemmtr, sgemmtr};
pub use level3::symm::{dsymm, ssymm};
pub use level3::syr2k::{dsyr2k, ssyr2k};
pub use level3::syrk::{dsyrk, ssyrk};
pub use level3::trmm::{dtrmm, strmm};
pub use level3::trsm::{dtrsm, strsm};

pub use asynch::*;

use crate::error::{Error, Result};

/// `Err(DimensionMismatch)` unless `found == expected`.
pub(crate) fn check_len(
    routine: &'static str,
    arg: &'static str,
    found: usize,
    expected: usize,
    what: &str,
) -> Result<()> {
    if found != expected {
        return Err(Error::DimensionMismatch {
            routine,
            arg,
            detail: format!("{what}: expected {expected}, found {found}"),
        });
    }
    Ok(())
}

/// A dimension that several operands share (`dims`: each operand's name and extent), such as
/// the order of ssymv's A, x and y or the batch length of sgemm_batched's A, B and C:
/// `Err(DimensionMismatch)` naming the operand that disagrees (`what` says the rule). The
/// dimension is the value most operands have where they are more than half; otherwise (two
/// operands, or three that all differ) the last operand's, which callers make the one that
/// defines it (the output, whose shape BLAS passes as m and n, or A). Returns the dimension.
pub(crate) fn check_shared(
    routine: &'static str,
    what: &str,
    dims: &[(&'static str, usize)],
) -> Result<usize> {
    let count = |v: usize| dims.iter().filter(|d| d.1 == v).count();
    let last = dims.last().map_or(0, |d| d.1);
    let expected = dims
        .iter()
        .map(|d| d.1)
        .find(|&v| 2 * count(v) > dims.len())
        .unwrap_or(last);
    if let Some(&(arg, found)) = dims.iter().find(|d| d.1 != expected) {
        check_len(routine, arg, found, expected, what)?;
    }
    Ok(expected)
}

/// `Err(NotSquare)` unless `a` is square.
pub(crate) fn check_square(
    routine: &'static str,
    arg: &'static str,
    shape: (usize, usize),
) -> Result<()> {
    if shape.0 != shape.1 {
        return Err(Error::NotSquare {
            routine,
            arg,
            rows: shape.0,
            cols: shape.1,
        });
    }
    Ok(())
}

/// The order n of the square `A` (shape `dim`) and the vector lengths of the symmetric and
/// triangular Level 2 routines, s and d alike: `Err(NotSquare)` naming `a`, `DimensionMismatch`
/// naming `x` (or `y`, where the routine has one) unless its length is n, `TooLarge` past the
/// kernels' indexing.
pub(crate) fn check_order(
    routine: &'static str,
    dim: (usize, usize),
    x: usize,
    y: Option<usize>,
) -> Result<usize> {
    check_square(routine, "a", dim)?;
    let n = match y {
        Some(y) => check_shared(
            routine,
            "len(x), len(y) and the order of A must be equal",
            &[("x", x), ("y", y), ("a", dim.0)],
        )?,
        None => check_shared(
            routine,
            "len(x) must equal the order of A",
            &[("x", x), ("a", dim.0)],
        )?,
    };
    check_dim(routine, "a", n)?;
    Ok(n)
}

/// `Err(Unsupported)` unless `ctx` runs f64 shaders (the adapter has `SHADER_F64` and the f64
/// fallback is not forced, [`Context::native_f64`](crate::Context::native_f64)).
pub(crate) fn check_f64(ctx: &crate::Context, routine: &'static str) -> Result<()> {
    if !ctx.native_f64() {
        return Err(Error::Unsupported {
            routine,
            feature: "SHADER_F64",
        });
    }
    Ok(())
}

/// `Err(TooLarge)` unless a dimension fits the kernels' 32-bit signed indexing.
pub(crate) fn check_dim(routine: &'static str, arg: &'static str, n: usize) -> Result<()> {
    if n > i32::MAX as usize {
        return Err(Error::TooLarge {
            routine,
            arg,
            bytes: n as u64 * 4,
            limit: i32::MAX as u64 * 4,
        });
    }
    Ok(())
}

/// `Err` (naming the argument) if a resident operand or device scalar of the call belongs to a
/// context other than `ctx`. Every routine checks this first, before any quick return, so that
/// a call with alpha = 0 or n = 0 gives the same error as any other.
pub(crate) fn check_owners(
    ctx: &crate::Context,
    routine: &'static str,
    owners: &[(&'static str, Option<u64>)],
) -> Result<()> {
    for &(arg, owner) in owners {
        if let Some(id) = owner {
            crate::layout::check_ctx(ctx, id, routine, arg)?;
        }
    }
    Ok(())
}

/// [`check_owners`] over the named arguments (each a layout argument type).
macro_rules! owners {
    ($ctx:expr, $routine:expr, $($arg:ident),+ $(,)?) => {{
        use $crate::layout::Owner as _;
        $crate::blas::check_owners($ctx, $routine, &[$((stringify!($arg), $arg.owner())),+])?
    }};
}
pub(crate) use owners;
