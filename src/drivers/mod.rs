//! Drivers, one per signature class (BLIS's idea): each owns a shader of `wgsl/`, its params
//! layout and its grid sizing, and turns operands into [`Dispatch`](crate::launch::Dispatch)es
//! for the one launch path. Routine files in [`crate::blas`] only validate and map BLAS
//! arguments onto a driver.

pub(crate) mod elementwise;
pub(crate) mod gemm;
pub(crate) mod gemv;
pub(crate) mod rank_update;
pub(crate) mod reduction;
pub(crate) mod registry;
pub(crate) mod trsm;
pub(crate) mod trsv;

use crate::launch::Dispatch;
use crate::layout::Scalar;

/// Make the parts of a split dispatch (split-k, split columns) read their device scalars: alpha
/// (params byte `alpha_at`) in every part, beta (`beta_at`) only in the first, since the later
/// parts add to what the first wrote with beta = 1. Host scalars are already in the params.
pub(crate) fn scalars<'d>(
    parts: Vec<Dispatch<'d>>,
    alpha: &Scalar<'d>,
    alpha_at: usize,
    beta: &Scalar<'d>,
    beta_at: usize,
) -> Vec<Dispatch<'d>> {
    parts
        .into_iter()
        .enumerate()
        .map(|(i, d)| {
            let d = alpha.apply(d, alpha_at);
            if i == 0 {
                beta.apply(d, beta_at)
            } else {
                d
            }
        })
        .collect()
}

/// The `UPLO` code of a triangle (`None`: the whole matrix) in every shader (the one encoding,
/// [`registry::UPLO_LOWER`] and the others, `UPLO_*` in `common.wgsl`).
pub(crate) fn uplo(u: Option<crate::flags::Uplo>) -> f64 {
    f64::from(match u {
        None => registry::UPLO_NONE,
        Some(crate::flags::Uplo::Lower) => registry::UPLO_LOWER,
        Some(crate::flags::Uplo::Upper) => registry::UPLO_UPPER,
    })
}

/// Declare a `static` [`Shader`](crate::context::Shader) for a kernel of the [`registry`].
macro_rules! shader {
    ($name:ident, $kernel:ident) => {
        pub(crate) static $name: $crate::context::Shader = $crate::context::Shader {
            name: $crate::drivers::registry::$kernel.path,
            source: $crate::drivers::registry::$kernel.source,
        };
    };
}
pub(crate) use shader;
