//! Error metrics: how far a GPU result may lie from a reference (OpenBLAS, or a hand-computed
//! value) and still be right.
//!
//! These are the metrics of DESIGN.md §2, public so that users can check their own results the
//! way the crate's tests do. Four families, and the device's own division:
//!
//! - **exact index** (`isamax`, `idamax`): the indices must be equal.
//! - **ULP distance** ([`ulp_distance_f32`], [`ulp_distance_f64`], [`max_ulp_f32`],
//!   [`max_ulp_f64`]): the number of representable values between two results. Used where there
//!   is no rounding at all (`scopy`, `sswap`, `sscal`: threshold 0) and for reductions whose only
//!   freedom is the summation order (`sasum`, `snrm2`: 50, `dasum`: 64).
//! - **forward factor** ([`forward_factor`], [`forward_factor_scalar`]):
//!   `max_i |gpu_i − ref_i| / (EPS · bound_i)`, with `bound_i` from [`bounds`]. WGSL may fuse
//!   `a*b + c` into one rounding (FMA) and GPU reductions sum in tree order, so a raw ULP distance
//!   is unbounded near cancellation while both results are right; a factor ≤ 1 means "within one
//!   rounding of the bound".
//! - **backward residual factor** ([`backward_residual_factor`], with [`trsv_residual`] /
//!   [`trsm_residual`]): for triangular solves, the computed solution is put back into the
//!   equation: `max_i |(op(T)·x_gpu)_i − b_i| / (EPS · bound_i)`.
//!
//! - **device division** ([`ulp_error_f32`] against [`WGSL_DIV_ULP`]): `GpuScalar::div` and
//!   `GpuScalar::recip`, which no routine of the table covers, within the 2.5 ULP that WGSL
//!   grants an f32 division.
//!
//! [`spec`] gives the metric and threshold of each of the 26 routines; a result passes when its
//! metric is `≤ threshold` ([`Spec::passes`]).
//!
//! # Units
//!
//! Factors are in units of [`EPS`]` = 2^-23` (the spacing of `f32` at 1.0, twice the unit
//! roundoff `u = 2^-24` of Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed.)
//! times the routine's bound. All factor and bound arithmetic is done in `f64`, whose own rounding
//! error (≈ 1e-16 relative) is negligible against `EPS`.
//!
//! # Sources of the bounds
//!
//! The shape of every bound is the "gauge" of the netlib reference test programs (`SMVCH` in
//! `sblat2.f`, `SMMCH` in `sblat3.f`: `Σ |alpha·A_ij·x_j| + |beta·y_i|`), multiplied by the
//! reduction length plus one, which is the first-order forward error bound of an inner product
//! of that length (Higham §3.1, eq. (3.5), and §3.5 for matrix products: `|C − Ĉ| ≤ γ_n |A||B|`,
//! `γ_n = n·u / (1 − n·u)`). The triangular solves use the backward-error result of Higham
//! Theorem 8.5: `(T + ΔT)·x̂ = b` with `|ΔT| ≤ γ_n |T|`, hence `|T·x̂ − b| ≤ γ_n |T||x̂|`.
//! Unlike `SMVCH`, which divides by the gauge only when it is non-zero, a non-zero error against a
//! zero bound gives `+∞` here.
//!
//! # Example
//!
//! ```
//! use ndarray::array;
//! use wgblas::metrics::{bounds, forward_factor, spec};
//!
//! // saxpy, y = alpha·x + y, computed with one rounding (FMA) and compared with a reference
//! // that rounded twice: the results differ by 2^-25 but the factor says "well within one
//! // rounding of the bound |alpha·x_i| + |y_i|".
//! let (alpha, x, y) = (3.0_f32, array![1.0_f32 / 3.0], array![-1.0_f32]);
//! let fused = array![alpha.mul_add(x[0], y[0])];
//! let separate = array![alpha * x[0] + y[0]];
//! let bound = bounds::axpy(alpha, x.view(), y.view());
//! let factor = forward_factor(&fused, &separate, &bound)?;
//! assert!(spec("saxpy").unwrap().passes(factor));
//! # Ok::<(), wgblas::Error>(())
//! ```

pub mod bounds;
mod division;
mod factor;
mod residual;
mod shared;
mod spec;
mod ulp;

pub use division::{ulp_error_f32, WGSL_DIV_ULP};
pub use factor::{
    backward_residual_factor, backward_residual_factor_f64, forward_factor, forward_factor_f64,
    forward_factor_scalar,
};
pub use residual::{trsm_residual, trsv_residual};
pub use shared::Real;
pub use spec::{spec, Metric, Spec, ROUTINES};
pub use ulp::{max_ulp_f32, max_ulp_f64, ulp_distance_f32, ulp_distance_f64};

/// `2^-23` (`f32::EPSILON`, as `f64`): the unit of every factor of this module.
pub const EPS: f64 = f32::EPSILON as f64;

/// `2^-52` (`f64::EPSILON`): the unit of the factors of the f64 routines
/// ([`forward_factor_f64`]).
pub const EPS64: f64 = f64::EPSILON;

/// Whether `e` is a `DimensionMismatch` naming `routine` and `arg` (for the tests of every file).
#[cfg(test)]
fn is_mismatch(e: &crate::Error, routine: &str, arg: &str) -> bool {
    matches!(
        e,
        crate::Error::DimensionMismatch { routine: r, arg: a, .. } if *r == routine && *a == arg
    )
}

/// f32 NaN and +∞, the special values of the tests of every file.
#[cfg(test)]
const NAN: f32 = f32::NAN;
#[cfg(test)]
const INF: f32 = f32::INFINITY;
