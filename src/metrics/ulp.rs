//! ULP distance: how many representable values lie between two results.

use ndarray::{ArrayBase, Data, Dimension};

use super::shared::check_shape;
use crate::error::Result;

/// `$name` maps a `$f` to an `$i`, monotone in the value: `+x` to its bit pattern without the
/// sign (bit `$sign`), `−x` to the negative of that; `−0.0` and `+0.0` both map to 0.
macro_rules! ordered {
    ($(#[$doc:meta])* $name:ident($f:ty) -> $i:ty, sign bit $sign:literal) => {
        $(#[$doc])*
        fn $name(x: $f) -> $i {
            let bits = x.to_bits();
            let magnitude = <$i>::from(bits & !(1 << $sign));
            if bits >> $sign == 1 {
                -magnitude
            } else {
                magnitude
            }
        }
    };
}

ordered!(
    /// Maps an `f32` to an integer, monotone in the value: `+x` to its bit pattern without the
    /// sign, `−x` to the negative of that. `−0.0` and `+0.0` both map to 0.
    ordered_f32(f32) -> i64, sign bit 31
);
ordered!(
    /// As [`ordered_f32`], for `f64`, in `i128` so that no difference overflows.
    ordered_f64(f64) -> i128, sign bit 63
);

/// Distance between `a` and `b` in units in the last place: how many steps through adjacent
/// representable `f32` values lead from one to the other.
///
/// Computed from the monotone map of bit patterns to integers (negative values map below the
/// positive ones, and `+x` and `−x` symmetrically around 0), so it is exact across binades,
/// subnormals and zero.
///
/// Rules:
/// - `−0.0` and `+0.0` map to the same integer: distance 0.
/// - the smallest positive subnormal and its negative are 2 apart (through zero).
/// - `±∞` are the values one step past `±f32::MAX`:
///   `ulp_distance_f32(f32::INFINITY, f32::MAX) == 1`.
/// - both NaN (any payload): 0. Exactly one NaN: `u64::MAX`.
///
/// Used for `scopy`/`sswap`/`sscal` (threshold 0) and `sasum`/`snrm2` (threshold 50), DESIGN.md §2.
///
/// ```
/// use wgblas::metrics::ulp_distance_f32;
/// assert_eq!(ulp_distance_f32(1.0, 1.0 + f32::EPSILON), 1);
/// assert_eq!(ulp_distance_f32(-0.0, 0.0), 0);
/// assert_eq!(ulp_distance_f32(f32::NAN, 1.0), u64::MAX);
/// ```
pub fn ulp_distance_f32(a: f32, b: f32) -> u64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => 0,
        (false, false) => ordered_f32(a).abs_diff(ordered_f32(b)),
        _ => u64::MAX,
    }
}

/// Distance between `a` and `b` in units in the last place of `f64`; the rules of
/// [`ulp_distance_f32`]. The integers are taken in `i128`: the largest distance,
/// `−∞` to `+∞`, is `0xFFE0_0000_0000_0000` and fits in `u64` (anything larger would saturate to
/// `u64::MAX`).
///
/// Used for `dasum` (threshold 64), DESIGN.md §2.
pub fn ulp_distance_f64(a: f64, b: f64) -> u64 {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => 0,
        (false, false) => {
            u64::try_from(ordered_f64(a).abs_diff(ordered_f64(b))).unwrap_or(u64::MAX)
        }
        _ => u64::MAX,
    }
}

/// `$name`: the largest `$distance` over corresponding elements of two `$f` arrays, routine
/// `"metrics::$name"` in its error.
macro_rules! max_ulp {
    ($(#[$doc:meta])* $name:ident($f:ty) = $distance:ident) => {
        $(#[$doc])*
        ///
        /// [`Error::DimensionMismatch`]: crate::Error::DimensionMismatch
        pub fn $name<S1, S2, D>(gpu: &ArrayBase<S1, D>, reference: &ArrayBase<S2, D>) -> Result<u64>
        where
            S1: Data<Elem = $f>,
            S2: Data<Elem = $f>,
            D: Dimension,
        {
            max_distance(concat!("metrics::", stringify!($name)), gpu, reference, $distance)
        }
    };
}

max_ulp!(
    /// Largest [`ulp_distance_f32`] over corresponding elements of `gpu` and `reference` (same
    /// index, whatever the memory layouts). Empty arrays give 0.
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] (routine `"metrics::max_ulp_f32"`, arg `"reference"`) when
    /// the shapes differ.
    max_ulp_f32(f32) = ulp_distance_f32
);
max_ulp!(
    /// Largest [`ulp_distance_f64`] over corresponding elements; as [`max_ulp_f32`].
    ///
    /// # Errors
    /// [`Error::DimensionMismatch`] (routine `"metrics::max_ulp_f64"`, arg `"reference"`) when
    /// the shapes differ.
    max_ulp_f64(f64) = ulp_distance_f64
);

/// Largest `distance` over corresponding elements (0 for empty arrays), after checking that the
/// shapes agree (`DimensionMismatch` naming `routine` and `"reference"`).
fn max_distance<S1, S2, D, T>(
    routine: &'static str,
    gpu: &ArrayBase<S1, D>,
    reference: &ArrayBase<S2, D>,
    distance: fn(T, T) -> u64,
) -> Result<u64>
where
    S1: Data<Elem = T>,
    S2: Data<Elem = T>,
    D: Dimension,
    T: Copy,
{
    check_shape(routine, "reference", gpu.shape(), reference.shape())?;
    Ok(gpu
        .iter()
        .zip(reference.iter())
        .map(|(&g, &r)| distance(g, r))
        .max()
        .unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::is_mismatch;
    use crate::metrics::{INF, NAN};
    use ndarray::{array, Array1, Array2, Array3, ShapeBuilder};

    #[test]
    fn ulp_f32_hand_values() {
        // 1.0 = 0x3F80_0000; 1 + 2^-23 = 0x3F80_0001: one step.
        assert_eq!(ulp_distance_f32(1.0, 1.0 + f32::EPSILON), 1);
        // Below 1.0 the spacing halves: 1 − 2^-24 = 0x3F7F_FFFF, one step below 0x3F80_0000.
        assert_eq!(ulp_distance_f32(1.0, 1.0 - f32::EPSILON / 2.0), 1);
        assert_eq!(ulp_distance_f32(1.0 - f32::EPSILON / 2.0, 1.0), 1);
        // ±0 map to the same integer.
        assert_eq!(ulp_distance_f32(-0.0, 0.0), 0);
        assert_eq!(ulp_distance_f32(0.0, -0.0), 0);
        // Smallest subnormal is bit pattern 1 → +1; its negative → −1: 2 apart.
        let tiny = f32::from_bits(1);
        assert_eq!(ulp_distance_f32(tiny, -tiny), 2);
        assert_eq!(ulp_distance_f32(0.0, tiny), 1);
        // NaN rules.
        assert_eq!(ulp_distance_f32(NAN, NAN), 0);
        assert_eq!(ulp_distance_f32(NAN, -NAN), 0);
        assert_eq!(ulp_distance_f32(NAN, 1.0), u64::MAX);
        assert_eq!(ulp_distance_f32(1.0, NAN), u64::MAX);
        // +∞ = 0x7F80_0000, MAX = 0x7F7F_FFFF: 1 apart; same for the negatives.
        assert_eq!(ulp_distance_f32(INF, f32::MAX), 1);
        assert_eq!(ulp_distance_f32(-INF, f32::MIN), 1);
        // [1, 2) holds 2^23 values: 1.0 → 2.0 is 2^23 steps.
        assert_eq!(ulp_distance_f32(1.0, 2.0), 1 << 23);
        // MIN_POSITIVE = 0x0080_0000 = 2^23 steps above 0.
        assert_eq!(ulp_distance_f32(0.0, f32::MIN_POSITIVE), 1 << 23);
        // −1 → −0x3F80_0000, +1 → 0x3F80_0000: 2·0x3F80_0000 = 2_130_706_432.
        assert_eq!(ulp_distance_f32(-1.0, 1.0), 2_130_706_432);
        // −∞ to +∞: 2·0x7F80_0000.
        assert_eq!(ulp_distance_f32(-INF, INF), 2 * 0x7F80_0000);
    }

    #[test]
    fn ulp_f64_hand_values() {
        assert_eq!(ulp_distance_f64(1.0, 1.0 + f64::EPSILON), 1);
        // Below 1.0 the spacing is 2^-53.
        assert_eq!(ulp_distance_f64(1.0, 1.0 - f64::EPSILON / 2.0), 1);
        assert_eq!(ulp_distance_f64(-0.0, 0.0), 0);
        let tiny = f64::from_bits(1);
        assert_eq!(ulp_distance_f64(tiny, -tiny), 2);
        assert_eq!(ulp_distance_f64(f64::NAN, f64::NAN), 0);
        assert_eq!(ulp_distance_f64(f64::NAN, 1.0), u64::MAX);
        assert_eq!(ulp_distance_f64(1.0, f64::NAN), u64::MAX);
        // +∞ = 0x7FF0_0000_0000_0000, MAX = 0x7FEF_FFFF_FFFF_FFFF.
        assert_eq!(ulp_distance_f64(f64::INFINITY, f64::MAX), 1);
        // −MAX to +MAX: 2·0x7FEF_FFFF_FFFF_FFFF = 0xFFDF_FFFF_FFFF_FFFE (no overflow).
        assert_eq!(ulp_distance_f64(f64::MIN, f64::MAX), 0xFFDF_FFFF_FFFF_FFFE);
        // −∞ to +∞: 2·0x7FF0_0000_0000_0000 = 0xFFE0_0000_0000_0000.
        assert_eq!(
            ulp_distance_f64(f64::NEG_INFINITY, f64::INFINITY),
            0xFFE0_0000_0000_0000
        );
        // [1, 2) holds 2^52 values.
        assert_eq!(ulp_distance_f64(1.0, 2.0), 1 << 52);
    }

    #[test]
    fn max_ulp_arrays() {
        // ulp at 2 is 2^-22: 2 + 3·2^-22 is 3 steps from 2; −0 vs 0 is 0; 1 vs 1 is 0.
        let gpu = array![1.0_f32, 2.0, -0.0];
        let reference = array![1.0_f32, 2.0 + 3.0 * 2f32.powi(-22), 0.0];
        assert_eq!(max_ulp_f32(&gpu, &reference).unwrap(), 3);
        // Same through views of different layouts: a transposed F-order copy.
        let g2 = array![[1.0_f32, 2.0], [4.0, 8.0]];
        let mut r2 = Array2::<f32>::zeros((2, 2).f());
        r2.assign(&g2);
        r2[[1, 1]] = 8.0 + 2f32.powi(-20); // ulp at 8 is 2^-20: 1 step
        assert_eq!(max_ulp_f32(&g2.view(), &r2.view()).unwrap(), 1);
        // One NaN → MAX; both NaN → 0.
        assert_eq!(
            max_ulp_f32(&array![NAN, 1.0], &array![1.0_f32, 1.0]).unwrap(),
            u64::MAX
        );
        assert_eq!(max_ulp_f32(&array![NAN], &array![NAN]).unwrap(), 0);
        // Empty → 0.
        assert_eq!(
            max_ulp_f32(&Array1::<f32>::zeros(0), &Array1::<f32>::zeros(0)).unwrap(),
            0
        );
        // Shape mismatch.
        let e = max_ulp_f32(&array![1.0_f32, 2.0], &array![1.0_f32]).unwrap_err();
        assert!(
            is_mismatch(&e, "metrics::max_ulp_f32", "reference"),
            "{e:?}"
        );
        let e =
            max_ulp_f32(&Array3::<f32>::zeros((1, 2, 3)), &Array3::zeros((1, 3, 2))).unwrap_err();
        assert!(is_mismatch(&e, "metrics::max_ulp_f32", "reference"));

        // f64: ulp at 4 is 2^-50; 4 + 5·2^-50 is 5 steps.
        let gpu = array![4.0_f64, -1.0];
        let reference = array![4.0 + 5.0 * 2f64.powi(-50), -1.0];
        assert_eq!(max_ulp_f64(&gpu, &reference).unwrap(), 5);
        assert_eq!(
            max_ulp_f64(&Array1::<f64>::zeros(0), &Array1::<f64>::zeros(0)).unwrap(),
            0
        );
        let e = max_ulp_f64(&array![1.0_f64], &array![1.0_f64, 2.0]).unwrap_err();
        assert!(is_mismatch(&e, "metrics::max_ulp_f64", "reference"));
    }
}
