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

use crate::blas::check_dim;
use crate::drivers::reduction::{self, Instance};
use crate::error::Result;
use crate::layout::{VecOperand, VecRef};
use crate::{Context, GpuScalar};

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

/// [`kept`] of a one-vector reduction (`x` as both operands): checks `x`'s length, uploads a
/// host `x`, and runs nothing for an empty one.
pub(crate) fn kept_one<'c, T>(
    ctx: &'c Context,
    routine: &'static str,
    kind: Instance,
    x: &VecRef<'_>,
    word: usize,
    decode: fn(&[u32]) -> T,
) -> Result<GpuScalar<'c, T>> {
    check_dim(routine, "x", x.len())?;
    let xd = if x.is_empty() {
        None
    } else {
        Some(crate::layout::vector_any(ctx, routine, "x", x)?)
    };
    kept(
        ctx,
        routine,
        kind,
        xd.as_ref().map(|x| (x, x)),
        word,
        decode,
    )
}
