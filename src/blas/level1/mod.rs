//! Level 1: vector-vector routines.

pub(crate) mod asum;
pub(crate) mod axpy;
pub(crate) mod copy;
pub(crate) mod dot;
pub(crate) mod iamax;
pub(crate) mod nrm2;
pub(crate) mod rot;
pub(crate) mod rotm;
pub(crate) mod scal;
pub(crate) mod swap;

use crate::blas::{check_dim, check_len};
use crate::context::Elem;
use crate::drivers::elementwise::{self, Staged, Typed, Variant};
use crate::drivers::reduction::{self, Instance, Reduce};
use crate::error::Result;
use crate::launch::Wait;
use crate::layout::{self, Out, Precision, Scalar, VecOperand, VecRef};
use crate::{Context, GpuScalar};

/// The element-type check of a generic core: none in f32; in f64
/// [`check_f64`](crate::blas::check_f64) (`Error::Unsupported`, `SHADER_F64`, where the
/// adapter has no f64 shaders), made where the `d` routine has always made it.
///
/// # Errors
/// As [`check_f64`](crate::blas::check_f64) in f64.
pub(crate) fn check_elem<T: Precision>(ctx: &Context, routine: &'static str) -> Result<()> {
    match T::ELEM {
        Elem::F32 => Ok(()),
        Elem::F64 => crate::blas::check_f64(ctx, routine),
    }
}

/// The checks of a routine over two vectors `x` and `y` of lengths `nx` and `ny`: equal
/// lengths, then a length the kernels can index.
///
/// # Errors
/// [`Error::DimensionMismatch`](crate::Error::DimensionMismatch) (`y`),
/// [`Error::TooLarge`](crate::Error::TooLarge) (`x`).
pub(crate) fn check_pair(routine: &'static str, nx: usize, ny: usize) -> Result<()> {
    check_len(routine, "y", ny, nx, "len(y) must equal len(x)")?;
    check_dim(routine, "x", nx)
}

/// The checks of a routine over two vectors `x` and `y` of lengths `nx` and `ny`, in the
/// order of every such routine: each resident argument belongs to `ctx` (`owners`, in the
/// order of the arguments), [`check_pair`], then [`check_elem`]; `Ok(false)` when there is
/// nothing to do (`x` is empty).
///
/// # Errors
/// As [`check_owners`](crate::blas::check_owners), [`check_pair`] and [`check_elem`].
pub(crate) fn check_two<T: Precision>(
    ctx: &Context,
    routine: &'static str,
    owners: &[(&'static str, Option<u64>)],
    nx: usize,
    ny: usize,
) -> Result<bool> {
    crate::blas::check_owners(ctx, routine, owners)?;
    check_pair(routine, nx, ny)?;
    check_elem::<T>(ctx, routine)?;
    Ok(nx > 0)
}

/// Run the element-wise `op` of element type `T` over `x` and `y` (`None` for scal) with the
/// coefficients `h` (see [`Typed::dispatches`]), and deliver `outs`: the shared end of axpy, scal,
/// copy, swap, rot and rotm.
///
/// # Errors
/// As [`Typed::dispatches`] and [`layout::finish_in`].
#[allow(clippy::too_many_arguments)]
pub(crate) async fn elementwise_in<T: Typed>(
    ctx: &Context,
    routine: &'static str,
    op: Variant,
    h: &[Scalar<'_, T>],
    x: &VecOperand,
    y: Option<&VecOperand>,
    outs: &mut [Out<'_, '_, T>],
    wait: Wait,
) -> Result<()> {
    let staged = Staged::default();
    let call = elementwise::Call {
        routine,
        op,
        h,
        x,
        y,
        staged: &staged,
    };
    let d = T::dispatches(ctx, call)?;
    layout::finish_in(ctx, routine, &d, outs, wait).await
}

/// [`reduction::run_device`], its total kept on the device as a [`GpuScalar`] decoded by
/// `decode`: the core of the resident reductions (`resident::sdot`, ...).
pub(crate) fn kept<'c, T>(
    ctx: &'c Context,
    routine: &'static str,
    kind: Instance,
    operands: Option<(&VecOperand, &VecOperand)>,
    word: usize,
    decode: fn(&[u32]) -> T,
) -> Result<GpuScalar<'c, T>> {
    let k = reduction::run_device(ctx, routine, kind, operands, word)?;
    Ok(GpuScalar::new(ctx, k.buffer, k.word, k.words, decode))
}

/// [`kept`] of a one-vector f32 reduction `variant` (`x` as both operands), its result word
/// `word` of the total: checks `x`'s length, uploads a host `x`, and runs nothing for an empty
/// one.
pub(crate) fn kept_one<'c>(
    ctx: &'c Context,
    routine: &'static str,
    variant: reduction::Variant,
    x: VecRef<'_>,
    word: usize,
) -> Result<GpuScalar<'c, f32>> {
    check_dim(routine, "x", x.len())?;
    let xd = if x.is_empty() {
        None
    } else {
        Some(crate::layout::vector_any(ctx, routine, "x", &x)?)
    };
    let (kind, ops) = (f32::instance(ctx, variant), xd.as_ref().map(|x| (x, x)));
    kept(ctx, routine, kind, ops, word, f32::decode)
}
