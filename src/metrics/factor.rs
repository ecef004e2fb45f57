//! Forward and backward-residual factors: an error in units of `EPS · bound_i`.

use ndarray::{ArrayBase, Data, Dimension};

use super::shared::{check_shape, Real};
use super::EPS;
use crate::error::Result;

/// `err / (EPS · bound)` for one element, `err ≥ 0` or NaN: 0 when `err == 0` (whatever the
/// bound); `+∞` when `err` is not finite, or when `bound` is NaN or `≤ 0` (nothing certifies a
/// non-zero error then). A finite error against `bound = +∞` gives 0.
fn element_factor(err: f64, bound: f64) -> f64 {
    element_factor_in(err, bound, EPS)
}

/// [`element_factor`] in units of `eps · bound`.
fn element_factor_in(err: f64, bound: f64, eps: f64) -> f64 {
    if err == 0.0 {
        0.0
    } else if !err.is_finite() || bound.is_nan() || bound <= 0.0 {
        f64::INFINITY
    } else {
        err / (eps * bound)
    }
}

/// The forward-error factor of one value in units of `eps · bound`, by the rules of
/// [`forward_factor_scalar`] (an f32 value is exact in f64, so its rules are those of f64).
fn forward_element(gpu: f64, reference: f64, bound: f64, eps: f64) -> f64 {
    if gpu == reference || (gpu.is_nan() && reference.is_nan()) {
        0.0
    } else if !gpu.is_finite() || !reference.is_finite() {
        f64::INFINITY
    } else {
        element_factor_in((gpu - reference).abs(), bound, eps)
    }
}

/// The largest [`forward_element`] over corresponding elements (0 for empty arrays), after
/// checking the shapes (`DimensionMismatch` naming `routine` and `"reference"` or `"bound"`).
fn forward_max<E: Real, D: Dimension>(
    routine: &'static str,
    (gpu, reference): (
        &ArrayBase<impl Data<Elem = E>, D>,
        &ArrayBase<impl Data<Elem = E>, D>,
    ),
    bound: &ArrayBase<impl Data<Elem = f64>, D>,
    eps: f64,
) -> Result<f64> {
    check_shape(routine, "reference", gpu.shape(), reference.shape())?;
    check_shape(routine, "bound", gpu.shape(), bound.shape())?;
    let element =
        |((&g, &r), &b): ((&E, &E), &f64)| forward_element(g.to_f64(), r.to_f64(), b, eps);
    Ok(gpu
        .iter()
        .zip(reference.iter())
        .zip(bound.iter())
        .map(element)
        .fold(0.0, f64::max))
}

/// Forward-error factor of one value: `|gpu − reference| / (EPS · bound)`, in `f64`.
///
/// Rules, in order:
/// 1. equal values contribute 0, whatever `bound` is: `gpu == reference` (which includes `+0.0`
///    vs `−0.0` and two infinities of the same sign) or both NaN;
/// 2. otherwise a NaN or an infinity in either gives `+∞`;
/// 3. otherwise a non-zero error with `bound` 0, negative or NaN gives `+∞`;
/// 4. otherwise `|gpu − reference| / (EPS · bound)` (which is 0 for `bound = +∞`).
///
/// The factor never is NaN. A factor ≤ 1 means the GPU value is within one `f32` rounding
/// (`EPS` relative) of `bound`. Bounds: [`bounds`]; thresholds: [`spec`] (DESIGN.md §2). Used on
/// its own for `sdot`, whose bound is one number.
///
/// [`bounds`]: crate::metrics::bounds
/// [`spec`]: crate::metrics::spec
pub fn forward_factor_scalar(gpu: f32, reference: f32, bound: f64) -> f64 {
    forward_element(f64::from(gpu), f64::from(reference), bound, EPS)
}

/// Forward-error factor `max_i |gpu_i − reference_i| / (EPS · bound_i)` (DESIGN.md §2), computed in
/// `f64`, element by element with the rules of [`forward_factor_scalar`] (equal values, including
/// both NaN, same-signed infinities and `+0.0` vs `−0.0`, contribute 0; otherwise NaN or `±∞` in
/// either gives `+∞`; a non-zero error with `bound_i = 0` gives `+∞`). Empty arrays give 0. The
/// result is never NaN.
///
/// `bound` comes from [`bounds`] (`bound_i`, without the `EPS`); units: `EPS · bound_i`.
///
/// # Errors
/// [`Error::DimensionMismatch`] (routine `"metrics::forward_factor"`, arg `"reference"` or
/// `"bound"`) when a shape differs from that of `gpu`.
///
/// [`bounds`]: crate::metrics::bounds
/// [`Error::DimensionMismatch`]: crate::Error::DimensionMismatch
pub fn forward_factor<D: Dimension>(
    gpu: &ArrayBase<impl Data<Elem = f32>, D>,
    reference: &ArrayBase<impl Data<Elem = f32>, D>,
    bound: &ArrayBase<impl Data<Elem = f64>, D>,
) -> Result<f64> {
    forward_max("metrics::forward_factor", (gpu, reference), bound, EPS)
}

/// Backward-residual factor `max_i |r_i| / (EPS · bound_i)` (DESIGN.md §2), with
/// `r_i = (op(A)·x_gpu)_i − b_i` computed by the caller in `f64` (for example by
/// [`trsv_residual`] or [`trsm_residual`]) and `bound_i` from [`bounds::trsv`] /
/// [`bounds::trsm`] (Higham Theorem 8.5: `|T·x̂ − b| ≤ γ_n |T||x̂|`).
///
/// Rules: `r_i = 0` (either sign) contributes 0, whatever `bound_i` is (so `r = 0, bound = 0` gives
/// 0); a NaN or infinite residual gives `+∞`; a non-zero residual with `bound_i` 0, negative or
/// NaN gives `+∞`. Empty arrays give 0. The result is never NaN.
///
/// # Errors
/// [`Error::DimensionMismatch`] (routine `"metrics::backward_residual_factor"`, arg `"bound"`) when
/// the shapes differ.
///
/// [`trsv_residual`]: crate::metrics::trsv_residual
/// [`trsm_residual`]: crate::metrics::trsm_residual
/// [`bounds::trsv`]: crate::metrics::bounds::trsv
/// [`bounds::trsm`]: crate::metrics::bounds::trsm
/// [`Error::DimensionMismatch`]: crate::Error::DimensionMismatch
pub fn backward_residual_factor<D: Dimension>(
    residual: &ArrayBase<impl Data<Elem = f64>, D>,
    bound: &ArrayBase<impl Data<Elem = f64>, D>,
) -> Result<f64> {
    check_shape(
        "metrics::backward_residual_factor",
        "bound",
        residual.shape(),
        bound.shape(),
    )?;
    Ok(residual
        .iter()
        .zip(bound.iter())
        .map(|(&r, &b)| element_factor(r.abs(), b))
        .fold(0.0, f64::max))
}

/// [`backward_residual_factor`] for the f64 routines (`dtrsv`, `dtrsm`): `max_i |r_i| /
/// (EPS64 · bound_i)` with [`EPS64`](crate::metrics::EPS64)` = 2^-52`, with the same rules.
///
/// # Errors
/// As [`backward_residual_factor`].
pub fn backward_residual_factor_f64<D: Dimension>(
    residual: &ArrayBase<impl Data<Elem = f64>, D>,
    bound: &ArrayBase<impl Data<Elem = f64>, D>,
) -> Result<f64> {
    // The f32 factor scaled from units of EPS = 2^-23 to units of EPS64 = 2^-52 (exact: a
    // power of two).
    let f32_units = backward_residual_factor(residual, bound)?;
    Ok(f32_units * (super::EPS / crate::metrics::EPS64))
}

/// [`forward_factor`] for the f64 routines (`dgemm`, ...): `max_i |gpu_i − reference_i| /
/// (EPS64 · bound_i)` with [`EPS64`](crate::metrics::EPS64)` = 2^-52`, element by element with
/// the same rules (equal values, both NaN included, contribute 0; otherwise NaN or `±∞` in
/// either gives `+∞`; a non-zero error with `bound_i ≤ 0` gives `+∞`). The error is computed in
/// f64, so it is exact only to an f64 rounding of itself: negligible at factors near 1.
///
/// # Errors
/// As [`forward_factor`].
pub fn forward_factor_f64<D: Dimension>(
    gpu: &ArrayBase<impl Data<Elem = f64>, D>,
    reference: &ArrayBase<impl Data<Elem = f64>, D>,
    bound: &ArrayBase<impl Data<Elem = f64>, D>,
) -> Result<f64> {
    let eps = crate::metrics::EPS64;
    forward_max("metrics::forward_factor_f64", (gpu, reference), bound, eps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{bounds, is_mismatch, spec, ulp_distance_f32};
    use crate::metrics::{INF, NAN};
    use ndarray::{array, Array1, Array2};

    #[test]
    fn forward_factor_hand_values() {
        let one_up = 1.0_f32 + f32::EPSILON;
        // err = 2^-23, EPS·bound = 2^-23·1 → 1.0; bound 2 → 0.5.
        assert_eq!(
            forward_factor(&array![one_up], &array![1.0_f32], &array![1.0]).unwrap(),
            1.0
        );
        assert_eq!(
            forward_factor(&array![one_up], &array![1.0_f32], &array![2.0]).unwrap(),
            0.5
        );
        // Max over elements: element 1 has err = 2^-21 (one ulp at 4), bound 0.5 →
        // 2^-21 / (2^-23 · 2^-1) = 8.
        let gpu = array![one_up, 4.0];
        let reference = array![1.0_f32, 4.0 + 2f32.powi(-21)];
        assert_eq!(
            forward_factor(&gpu, &reference, &array![1.0, 0.5]).unwrap(),
            8.0
        );
        // 2-D, also through views.
        let g = array![[1.0_f32, one_up], [0.0, -2.0]];
        let r = array![[1.0_f32, 1.0], [0.0, -2.0]];
        // 2^-23/(2^-23·4) = 0.25; equal zeros with bound 0 → 0.
        let b = array![[1.0, 4.0], [0.0, 1.0]];
        assert_eq!(forward_factor(&g.view(), &r, &b).unwrap(), 0.25);
        // Empty → 0.
        assert_eq!(
            forward_factor(
                &Array1::<f32>::zeros(0),
                &Array1::<f32>::zeros(0),
                &Array1::<f64>::zeros(0)
            )
            .unwrap(),
            0.0
        );
    }

    #[test]
    fn forward_factor_rules() {
        // Equal values contribute 0, whatever the bound (0, NaN).
        assert_eq!(forward_factor_scalar(NAN, NAN, 1.0), 0.0);
        assert_eq!(forward_factor_scalar(INF, INF, 0.0), 0.0);
        assert_eq!(forward_factor_scalar(-INF, -INF, 1.0), 0.0);
        assert_eq!(forward_factor_scalar(0.0, -0.0, 0.0), 0.0);
        assert_eq!(forward_factor_scalar(3.0, 3.0, f64::NAN), 0.0);
        // One NaN or an infinity → +∞.
        assert_eq!(forward_factor_scalar(NAN, 1.0, 1.0), f64::INFINITY);
        assert_eq!(forward_factor_scalar(1.0, NAN, 1.0), f64::INFINITY);
        assert_eq!(forward_factor_scalar(INF, f32::MAX, 1e300), f64::INFINITY);
        assert_eq!(forward_factor_scalar(-INF, INF, 1.0), f64::INFINITY);
        // Non-zero error with a zero, negative or NaN bound → +∞.
        assert_eq!(forward_factor_scalar(1.0, 2.0, 0.0), f64::INFINITY);
        assert_eq!(forward_factor_scalar(1.0, 2.0, -1.0), f64::INFINITY);
        assert_eq!(forward_factor_scalar(1.0, 2.0, f64::NAN), f64::INFINITY);
        // Finite error against an infinite bound → 0.
        assert_eq!(forward_factor_scalar(1.0, 2.0, f64::INFINITY), 0.0);
        // err = 1 (2 vs 1), bound 2^23 → 1/(2^-23·2^23) = 1.
        assert_eq!(forward_factor_scalar(2.0, 1.0, 8_388_608.0), 1.0);
        // Arrays: the rules element by element; the max is +∞, not NaN.
        let f = forward_factor(
            &array![NAN, 1.0, 0.0],
            &array![NAN, 1.0 + f32::EPSILON, -0.0],
            &array![f64::NAN, 1.0, 0.0],
        )
        .unwrap();
        assert_eq!(f, 1.0);
        let f = forward_factor(
            &array![1.0_f32, NAN],
            &array![1.0_f32, 2.0],
            &array![1.0, 1.0],
        )
        .unwrap();
        assert_eq!(f, f64::INFINITY);
        // Shape mismatch, on either argument.
        let e = forward_factor(&array![1.0_f32], &array![1.0_f32, 2.0], &array![1.0]).unwrap_err();
        assert!(is_mismatch(&e, "metrics::forward_factor", "reference"));
        let e = forward_factor(&array![1.0_f32], &array![1.0_f32], &array![1.0, 2.0]).unwrap_err();
        assert!(is_mismatch(&e, "metrics::forward_factor", "bound"));
    }

    #[test]
    fn forward_factor_accepts_fma() {
        // fl(1/3) = 11184811·2^-25, so 3·fl(1/3) = 1 + 2^-25 exactly. Two roundings: the product
        // rounds to 1.0 and 1.0 − 1 = 0; one rounding (FMA): 2^-25. ULP distance is huge, the
        // factor is 2^-25 / (2^-23 · (2 + 2^-25)) ≈ 0.125 (bound = |3·fl(1/3)| + |−1|).
        let (alpha, x, y) = (3.0_f32, 1.0_f32 / 3.0, -1.0_f32);
        let fused = alpha.mul_add(x, y);
        let separate = alpha * x + y;
        assert_eq!(fused, 2f32.powi(-25));
        assert_eq!(separate, 0.0);
        assert!(ulp_distance_f32(fused, separate) > 1 << 20);
        let bound = bounds::axpy(alpha, array![x].view(), array![y].view());
        let f = forward_factor(&array![fused], &array![separate], &bound).unwrap();
        assert!((f - 0.125).abs() < 1e-8, "{f}");
        assert!(spec("saxpy").unwrap().passes(f));
    }

    #[test]
    fn backward_residual_factor_hand_values() {
        // |3·2^-23| / (2^-23·1) = 3; |−6·2^-23| / (2^-23·3) = 2 → max 3.
        let r = array![3.0 * EPS, -6.0 * EPS];
        assert_eq!(
            backward_residual_factor(&r, &array![1.0, 3.0]).unwrap(),
            3.0
        );
        // r = 0, bound = 0 → 0 (either sign of zero).
        assert_eq!(
            backward_residual_factor(&array![0.0, -0.0], &array![0.0, 0.0]).unwrap(),
            0.0
        );
        // NaN or ∞ residual → +∞; non-zero residual with zero bound → +∞.
        assert_eq!(
            backward_residual_factor(&array![f64::NAN], &array![1.0]).unwrap(),
            f64::INFINITY
        );
        assert_eq!(
            backward_residual_factor(&array![f64::NEG_INFINITY], &array![1.0]).unwrap(),
            f64::INFINITY
        );
        assert_eq!(
            backward_residual_factor(&array![EPS], &array![0.0]).unwrap(),
            f64::INFINITY
        );
        assert_eq!(
            backward_residual_factor(&Array2::<f64>::zeros((0, 3)), &Array2::<f64>::zeros((0, 3)))
                .unwrap(),
            0.0
        );
        let e = backward_residual_factor(&array![1.0], &array![1.0, 2.0]).unwrap_err();
        assert!(is_mismatch(
            &e,
            "metrics::backward_residual_factor",
            "bound"
        ));
    }
}
