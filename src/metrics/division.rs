//! The metric of the device's own f32 division (`GpuScalar::div` and `GpuScalar::recip`), which
//! no routine of DESIGN.md §2 covers: the accuracy WGSL grants a division.

/// The error WGSL allows an f32 division `x / y`, in ULP of the exact quotient: 2.5 for `|y|` in
/// `[2^-126, 2^126]` (WGSL, "Floating Point Accuracy", the `x / y` row). `GpuScalar::div` and
/// `GpuScalar::recip` divide in a shader, so their results are judged by [`ulp_error_f32`]
/// against this (a host division, correctly rounded, is within 0.5).
pub const WGSL_DIV_ULP: f64 = 2.5;

/// `|got − exact| / ULP(exact)`: the error of an f32 result in units in the last place of the
/// exact value, as WGSL measures accuracy. `ULP(x)` is WGSL's: the smallest distance between two
/// distinct finite f32 values `a ≤ x ≤ b`, that is the spacing of f32 in the binade of `x`
/// (`2^(e−23)` for `2^e ≤ |x| < 2^(e+1)`, `2^-149` below `2^-126`), and the spacing below `x`
/// where `|x|` is itself a power of two. `exact` is given in `f64` (a quotient of two f32
/// values computed in f64 is within 2^-29 ULP of the real one).
///
/// Equal values (the infinities included) give 0; a NaN on either side, or an infinite or
/// out-of-range `exact` that `got` does not equal, gives `+∞` (fails every threshold).
///
/// ```
/// use wgblas::metrics::{ulp_error_f32, WGSL_DIV_ULP};
/// // 1/3 correctly rounded is within half an ULP; two steps further is 2.x ULP.
/// let third = 1.0_f32 / 3.0;
/// assert!(ulp_error_f32(third, 1.0 / 3.0) <= 0.5);
/// let off = f32::from_bits(third.to_bits() + 2);
/// assert!(ulp_error_f32(off, 1.0 / 3.0) <= WGSL_DIV_ULP);
/// let far = f32::from_bits(third.to_bits() + 3);
/// assert!(ulp_error_f32(far, 1.0 / 3.0) > WGSL_DIV_ULP);
/// ```
pub fn ulp_error_f32(got: f32, exact: f64) -> f64 {
    let g = f64::from(got);
    if g == exact {
        return 0.0;
    }
    if got.is_nan() || !exact.is_finite() || exact.abs() > f64::from(f32::MAX) {
        return f64::INFINITY;
    }
    (g - exact).abs() / ulp_f32(exact)
}

/// WGSL's `ULP(x)` for f32 (see [`ulp_error_f32`]), `x` finite and within the f32 range.
fn ulp_f32(x: f64) -> f64 {
    let a = x.abs();
    if a < 2f64.powi(-126) {
        return 2f64.powi(-149);
    }
    // The binade of a: 2^e ≤ a < 2^(e+1), from the f64 exponent field (a is normal in f64).
    let e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let spacing = 2f64.powi(e - 23);
    if a == 2f64.powi(e) && e > -126 {
        spacing / 2.0
    } else {
        spacing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulp_error_hand_values() {
        // 1/5: the f32 spacing in [1/8, 1/4) is 2^-26; fl(1/5) lies 0.2 ULP above 1/5.
        let fifth = 0.2_f32;
        let e = ulp_error_f32(fifth, 0.2);
        assert!((0.19..0.21).contains(&e), "{e}");
        let up = |k: i32| f32::from_bits((fifth.to_bits() as i32 + k) as u32);
        // Two steps below is 1.8 ULP, two above 2.2, three below 2.8: 2.5 keeps exactly the
        // values within 2 steps of fl(1/5).
        assert!(ulp_error_f32(up(-2), 0.2) <= WGSL_DIV_ULP);
        assert!(ulp_error_f32(up(2), 0.2) <= WGSL_DIV_ULP);
        assert!(ulp_error_f32(up(3), 0.2) > WGSL_DIV_ULP);
        assert!(ulp_error_f32(up(-3), 0.2) > WGSL_DIV_ULP);
        // At a power of two the spacing below counts: 2 − 2^-23 is one ULP(2) = 2^-23 from 2,
        // and 2 + 2^-22 is two.
        assert_eq!(ulp_error_f32(2.0 - 2f32.powi(-23), 2.0), 1.0);
        assert_eq!(ulp_error_f32(2.0 + 2f32.powi(-22), 2.0), 2.0);
        assert_eq!(ulp_error_f32(1.5 + 2f32.powi(-23), 1.5), 1.0);
        // Subnormal range: the spacing is 2^-149.
        let tiny = f32::from_bits(5);
        assert_eq!(ulp_error_f32(tiny, 3.0 * 2f64.powi(-149)), 2.0);
        // Equal values (infinities too) are 0; NaN and a missed infinity are +∞.
        assert_eq!(ulp_error_f32(f32::INFINITY, f64::INFINITY), 0.0);
        assert_eq!(ulp_error_f32(-0.0, 0.0), 0.0);
        assert_eq!(ulp_error_f32(f32::NAN, 1.0), f64::INFINITY);
        assert_eq!(ulp_error_f32(1.0, f64::NAN), f64::INFINITY);
        assert_eq!(ulp_error_f32(f32::MAX, f64::INFINITY), f64::INFINITY);
        assert_eq!(ulp_error_f32(f32::MAX, 1e300), f64::INFINITY);
    }
}
