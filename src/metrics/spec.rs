//! The table of DESIGN.md §2: each routine's metric and threshold.

/// The metric a routine's result is judged by (DESIGN.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// The index must equal the reference's (`isamax`, `idamax`); measure 0 when equal.
    ExactIndex,
    /// [`max_ulp_f32`] over the whole output (`scopy`, `sswap`, `sscal`).
    ///
    /// [`max_ulp_f32`]: crate::metrics::max_ulp_f32
    MaxUlp,
    /// [`ulp_distance_f32`] of the scalar result (`sasum`, `snrm2`).
    ///
    /// [`ulp_distance_f32`]: crate::metrics::ulp_distance_f32
    Ulp,
    /// [`ulp_distance_f64`] of the scalar result (`dasum`).
    ///
    /// [`ulp_distance_f64`]: crate::metrics::ulp_distance_f64
    Ulp64,
    /// [`forward_factor`] (or [`forward_factor_scalar`]) with the routine's [`bounds`] function.
    ///
    /// [`forward_factor`]: crate::metrics::forward_factor
    /// [`forward_factor_scalar`]: crate::metrics::forward_factor_scalar
    /// [`bounds`]: crate::metrics::bounds
    Forward,
    /// [`backward_residual_factor`] of [`trsv_residual`] / [`trsm_residual`] with
    /// [`bounds::trsv`] / [`bounds::trsm`].
    ///
    /// [`backward_residual_factor`]: crate::metrics::backward_residual_factor
    /// [`trsv_residual`]: crate::metrics::trsv_residual
    /// [`trsm_residual`]: crate::metrics::trsm_residual
    /// [`bounds::trsv`]: crate::metrics::bounds::trsv
    /// [`bounds::trsm`]: crate::metrics::bounds::trsm
    BackwardResidual,
}

/// A routine's metric and threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    /// How the result is measured.
    pub metric: Metric,
    /// The largest passing measure (a ULP count, or a factor in units of `EPS · bound_i`).
    pub threshold: f64,
}

impl Spec {
    /// Whether a measure passes: `value ≤ threshold` (NaN fails). ULP counts are passed as `f64`
    /// (`u64::MAX` fails every threshold).
    pub fn passes(&self, value: f64) -> bool {
        value <= self.threshold
    }
}

/// The 26 routines of DESIGN.md §2, in the table's order; [`spec`] knows each of them.
pub const ROUTINES: [&str; 26] = [
    "isamax", "idamax", "scopy", "sswap", "sscal", "sasum", "snrm2", "dasum", "saxpy", "sdot",
    "srot", "srotm", "ssymv", "strmv", "sger", "ssyr", "ssyr2", "sgemv", "strsv", "sgemm",
    "sgemmtr", "ssyrk", "ssyr2k", "ssymm", "strmm", "strsm",
];

/// The metric and threshold of a routine (lower-case BLAS name, e.g. `"sgemm"`), from the table of
/// DESIGN.md §2; `None` for a name not in [`ROUTINES`].
///
/// | routines | metric | threshold |
/// |---|---|---|
/// | isamax, idamax | exact index | 0 |
/// | scopy, sswap, sscal | max ULP | 0 |
/// | sasum, snrm2 | ULP | 50 |
/// | dasum | ULP (f64) | 64 |
/// | saxpy, sdot, srot, srotm | forward | 1 |
/// | ssymv, strmv, sger, ssyr, ssyr2 | forward | 2 |
/// | sgemv | forward | 4 |
/// | strsv | backward residual | 3 |
/// | sgemm, sgemmtr, ssyrk, ssyr2k, ssymm, strmm | forward | 1 |
/// | strsm | backward residual | 5 |
///
/// A threshold is never raised to make a test pass (DESIGN.md §2).
pub fn spec(routine: &str) -> Option<Spec> {
    let (metric, threshold) = match routine {
        "isamax" | "idamax" => (Metric::ExactIndex, 0.0),
        "scopy" | "sswap" | "sscal" => (Metric::MaxUlp, 0.0),
        "sasum" | "snrm2" => (Metric::Ulp, 50.0),
        "dasum" => (Metric::Ulp64, 64.0),
        "saxpy" | "sdot" | "srot" | "srotm" => (Metric::Forward, 1.0),
        "ssymv" | "strmv" | "sger" | "ssyr" | "ssyr2" => (Metric::Forward, 2.0),
        "sgemv" => (Metric::Forward, 4.0),
        "strsv" => (Metric::BackwardResidual, 3.0),
        "sgemm" | "sgemmtr" | "ssyrk" | "ssyr2k" | "ssymm" | "strmm" => (Metric::Forward, 1.0),
        "strsm" => (Metric::BackwardResidual, 5.0),
        _ => return None,
    };
    Some(Spec { metric, threshold })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::EPS;

    #[test]
    fn spec_covers_the_table() {
        use Metric::*;
        let table: [(&str, Metric, f64); 26] = [
            ("isamax", ExactIndex, 0.0),
            ("idamax", ExactIndex, 0.0),
            ("scopy", MaxUlp, 0.0),
            ("sswap", MaxUlp, 0.0),
            ("sscal", MaxUlp, 0.0),
            ("sasum", Ulp, 50.0),
            ("snrm2", Ulp, 50.0),
            ("dasum", Ulp64, 64.0),
            ("saxpy", Forward, 1.0),
            ("sdot", Forward, 1.0),
            ("srot", Forward, 1.0),
            ("srotm", Forward, 1.0),
            ("ssymv", Forward, 2.0),
            ("strmv", Forward, 2.0),
            ("sger", Forward, 2.0),
            ("ssyr", Forward, 2.0),
            ("ssyr2", Forward, 2.0),
            ("sgemv", Forward, 4.0),
            ("strsv", BackwardResidual, 3.0),
            ("sgemm", Forward, 1.0),
            ("sgemmtr", Forward, 1.0),
            ("ssyrk", Forward, 1.0),
            ("ssyr2k", Forward, 1.0),
            ("ssymm", Forward, 1.0),
            ("strmm", Forward, 1.0),
            ("strsm", BackwardResidual, 5.0),
        ];
        for (i, (name, metric, threshold)) in table.into_iter().enumerate() {
            assert_eq!(ROUTINES[i], name);
            assert_eq!(spec(name), Some(Spec { metric, threshold }), "{name}");
        }
        let mut sorted = ROUTINES.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 26);
        for unknown in ["SGEMM", "dgemm", "sgemm ", "", "caxpy"] {
            assert_eq!(spec(unknown), None, "{unknown:?}");
        }
        let s = spec("sgemv").unwrap();
        assert!(
            s.passes(4.0)
                && !s.passes(4.000_001)
                && !s.passes(f64::NAN)
                && !s.passes(f64::INFINITY)
        );
        assert!(spec("scopy").unwrap().passes(0.0));
        assert!(!spec("scopy").unwrap().passes(u64::MAX as f64));
        assert_eq!(EPS, 2f64.powi(-23));
    }
}
