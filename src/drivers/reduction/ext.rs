//! The extended-precision total of dasum (`AsumExt`: an integer mantissa and an exponent)
//! rounded once to f64.

/// `m·2^e` rounded to the nearest f64 (ties to even), overflowing to +∞ and rounding into the
/// subnormal range correctly.
pub(super) fn ext_to_f64(m: u64, e: i32) -> f64 {
    if m == 0 {
        return 0.0;
    }
    // Normalise: top bit at 63, the value is m·2^e with 2^(e+63) ≤ value < 2^(e+64).
    let lz = m.leading_zeros();
    let m = m << lz;
    let e = e - lz as i32;
    let p = e + 63; // unbiased exponent of the leading bit
                    // Bits of m to drop: 11 for a normal result, more below 2^-1022.
    let drop = if p >= -1022 {
        11
    } else {
        11 + (-1022 - p) as u32
    };
    if drop > 64 {
        return 0.0; // below half the smallest subnormal
    }
    let (kept, rest, half) = if drop == 64 {
        (0u64, m, 1u64 << 63)
    } else {
        (m >> drop, m & ((1u64 << drop) - 1), 1u64 << (drop - 1))
    };
    let round_up = rest > half || (rest == half && kept & 1 == 1);
    let kept = kept + u64::from(round_up);
    if p >= -1022 {
        // kept in [2^52, 2^53]; 2^53 carries into the exponent.
        let (kept, p) = if kept == 1u64 << 53 {
            (kept >> 1, p + 1)
        } else {
            (kept, p)
        };
        if p > 1023 {
            return f64::INFINITY;
        }
        f64::from_bits((((p + 1023) as u64) << 52) | (kept & ((1u64 << 52) - 1)))
    } else {
        // Subnormal (or rounded up to the smallest normal, whose bits are 1 << 52).
        f64::from_bits(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::ext_to_f64;

    #[test]
    fn ext_to_f64_rounds_once() {
        assert_eq!(ext_to_f64(0, 5), 0.0);
        assert_eq!(ext_to_f64(3, -1), 1.5);
        assert_eq!(ext_to_f64(1, 1023), 2f64.powi(1023));
        assert_eq!(ext_to_f64(2, 1023), f64::INFINITY);
        // 2^53 + 1 → ties to even (2^53); 2^53 + 3 → 2^53 + 4.
        assert_eq!(ext_to_f64((1 << 53) + 1, 0), 2f64.powi(53));
        assert_eq!(ext_to_f64((1 << 53) + 3, 0), 2f64.powi(53) + 4.0);
        // Just above the tie rounds up.
        assert_eq!(
            ext_to_f64((1 << 63) + (1 << 10) + 1, -63),
            1.0 + f64::EPSILON
        );
        // f64::MAX and the first value that rounds to +inf.
        let max_m = (1u64 << 53) - 1;
        assert_eq!(ext_to_f64(max_m, 971), f64::MAX);
        assert_eq!(ext_to_f64((max_m << 1) + 1, 970), f64::INFINITY);
        // Subnormals: exact, and rounded (ties to even) below the smallest.
        let tiny = f64::from_bits(1);
        assert_eq!(ext_to_f64(1, -1074), tiny);
        assert_eq!(ext_to_f64(3, -1074), 3.0 * tiny);
        assert_eq!(ext_to_f64(1, -1075), 0.0); // half of the smallest: tie to even 0
        assert_eq!(ext_to_f64(3, -1075), 2.0 * tiny); // 1.5 → 2
        assert_eq!(ext_to_f64(1, -1200), 0.0);
        // The largest subnormal plus a bit rounds to the smallest normal.
        assert_eq!(ext_to_f64((1 << 53) - 1, -1075), f64::MIN_POSITIVE);
        assert_eq!(ext_to_f64(1, -1022), f64::MIN_POSITIVE);
    }
}
