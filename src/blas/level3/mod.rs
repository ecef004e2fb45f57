//! Level 3: matrix-matrix routines.

pub(crate) mod gemm;
pub(crate) mod gemmtr;
pub(crate) mod symm;
pub(crate) mod syr2k;
pub(crate) mod syrk;
pub(crate) mod trmm;
pub(crate) mod trsm;

use crate::error::Result;
use crate::layout::{self, MatRef};
use crate::Context;

/// `Err` unless a resident operand belongs to `ctx` (a host operand always passes), for the
/// quick returns that write an output without reading the operands.
pub(crate) fn check_context(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    m: MatRef<'_>,
) -> Result<()> {
    if let MatRef::Device(_) = m {
        layout::matrix(ctx, routine, arg, m)?;
    }
    Ok(())
}
