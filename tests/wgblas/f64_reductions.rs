//! ddot, dasum, dnrm2 and idamax on every path of the reduction driver (`drivers/reduction.rs`,
//! issue 14): the default (the f32 reductions' loops: `vec4` loads of unit-stride operands,
//! ddot, dasum and dnrm2's bands split in a partial dispatch and `final_sum`, idamax in the
//! single pass on its exact integer keys), the same without `vec4` loads (lab `Scalar` on
//! `Reduction`), and the first two-pass kernels (lab `Legacy` on `ReductionF64`), each against
//! OpenBLAS with the §2 metric of `metrics::spec`, through the descriptions' edge grids
//! (lengths to 300,001, strides 1, ±2, −1, every band of dnrm2) and resident cases; then
//! special values (first NaN, a NaN or a tie seen only in the low word, Inf, 0·Inf) at places
//! in the `vec4` body, the n mod 4 tail and late workgroups, and all-ones vectors of 140,000
//! elements with the workgroups capped at 1 (each invocation's loop then takes 137 trips of
//! `vec4` units; the bound for any n is the driver's unit test), values hand-computed.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use ndarray::Array1;
use wgblas::blas;
use wgblas::lab::{self, Driver, Variant};
use wgblas::metrics::ulp_distance_f64;

use crate::bandwidth::{lab_defaults, with_variant};
use crate::common::*;
use crate::describe;
use crate::{asum::Asum, dot::Dot, iamax::Iamax, nrm2::Nrm2};

/// The three paths: the default, without `vec4` loads, and the first two passes.
const PATHS: [(Driver, Variant); 3] = [
    (Driver::ReductionF64, Variant::Auto),
    (Driver::Reduction, Variant::Scalar),
    (Driver::ReductionF64, Variant::Legacy),
];

#[test]
fn f64_reductions_every_path_against_openblas() {
    for (d, v) in PATHS {
        with_variant(d, v, || {
            describe::edges::<Dot, f64>();
            describe::edges::<Asum, f64>();
            describe::edges::<Nrm2, f64>();
            describe::edges::<Iamax, f64>();
            describe::resident::<Dot, f64>(4);
            describe::resident::<Nrm2, f64>(4);
        });
    }
}

/// `f64` with the bits `hi:lo`.
fn from_words(hi: u32, lo: u32) -> f64 {
    f64::from_bits((u64::from(hi) << 32) | u64::from(lo))
}

/// n copies of `v` but at the positions `at`.
fn filled(n: usize, v: f64, at: &[(usize, f64)]) -> Array1<f64> {
    let mut x = Array1::from_elem(n, v);
    for &(i, e) in at {
        x[i] = e;
    }
    x
}

/// dnrm2 of `x` within its ULP threshold of `want` (the exact norm, rounded once).
fn nrm2_is(x: &StoredVec<f64>, want: f64, what: &str) {
    let got = blas::dnrm2(ctx(), x.view()).unwrap();
    let u = ulp_distance_f64(got, want) as f64;
    let spec = describe::spec::<Nrm2, f64>();
    assert!(spec.passes(u), "dnrm2 {what}: {got:e} vs {want:e}, {u} ULP");
}

/// First NaN, ties, Inf and the band edges of dnrm2 on every path, in the `vec4` body, in the
/// tail (n mod 4 = 3) and in late workgroups.
#[test]
fn f64_reductions_special_values_every_path() {
    for (d, v) in PATHS {
        with_variant(d, v, || {
            for &n in &[4099usize, 100_003] {
                for l in [VLayout::Unit, VLayout::Step2] {
                    let what = format!("{v:?} on {d:?}, n={n} {l:?}");
                    // A NaN seen only in the low word (high word that of +Inf), then a quiet
                    // NaN in the tail; an Inf and a larger number before both.
                    let nan_lo = from_words(0x7ff0_0000, 1);
                    let inf = f64::INFINITY;
                    let mut x = filled(n, 0.5, &[(n - 1, f64::NAN), (2050, nan_lo), (7, inf)]);
                    x[9] = -3.0;
                    let xs = StoredVec::new(&x, l);
                    assert_eq!(blas::idamax(ctx(), xs.view()).unwrap(), 2050, "{what}");
                    assert!(blas::dasum(ctx(), xs.view()).unwrap().is_nan(), "{what}");
                    assert!(blas::dnrm2(ctx(), xs.view()).unwrap().is_nan(), "{what}");
                    let os = StoredVec::new(&filled(n, 1.0, &[]), l);
                    let dot = blas::ddot(ctx(), xs.view(), os.view()).unwrap();
                    assert!(dot.is_nan(), "{what}");
                    // Inf without NaN: dnrm2 and dasum +Inf, idamax the first Inf; 0·Inf is NaN
                    // (no zero-skip).
                    x[n - 1] = 0.5;
                    x[2050] = -f64::INFINITY;
                    let xs = StoredVec::new(&x, l);
                    assert_eq!(blas::idamax(ctx(), xs.view()).unwrap(), 7, "{what}");
                    assert_eq!(blas::dasum(ctx(), xs.view()).unwrap(), f64::INFINITY);
                    assert_eq!(blas::dnrm2(ctx(), xs.view()).unwrap(), f64::INFINITY);
                    let zs = StoredVec::new(&filled(n, 1.0, &[(7, 0.0), (2050, 0.0)]), l);
                    assert!(blas::ddot(ctx(), xs.view(), zs.view()).unwrap().is_nan());
                    // Ties to the lowest index; magnitudes that differ only in the low word.
                    let e = 1.0 + f64::EPSILON;
                    let t = filled(n, 0.5, &[(n - 2, -e), (3000, e), (5, 1.0)]);
                    let ts = StoredVec::new(&t, l);
                    assert_eq!(blas::idamax(ctx(), ts.view()).unwrap(), 3000, "{what}");
                    // dnrm2's bands: one element just above tbig = 2^486 (its high word that
                    // of 2^486, low word 1), the rest medium; then all below tsml = 2^-511.
                    let big = from_words(0x5e50_0000, 1);
                    let b = filled(n, 0.5, &[(n / 2 + 1, big)]);
                    nrm2_is(&StoredVec::new(&b, l), big, &what);
                    let tiny = 1e-300f64;
                    let s = filled(n, tiny, &[]);
                    nrm2_is(&StoredVec::new(&s, l), (n as f64).sqrt() * tiny, &what);
                    // All zeros, some of them −0: the norm and the sum of magnitudes are +0 (an
                    // outside probe: dnrm2 gave −0, snrm2 and OpenBLAS +0).
                    let z = StoredVec::new(&filled(n, 0.0, &[(5, -0.0), (n - 1, -0.0)]), l);
                    let norm = blas::dnrm2(ctx(), z.view()).unwrap();
                    assert_eq!(norm.to_bits(), 0, "dnrm2 of zeros {norm:?}, {what}");
                    let sum = blas::dasum(ctx(), z.view()).unwrap();
                    assert_eq!(sum.to_bits(), 0, "dasum of zeros {sum:?}, {what}");
                    let sz = z.view().mapv(|v| v as f32);
                    let norm = blas::snrm2(ctx(), sz.view()).unwrap();
                    assert_eq!(norm.to_bits(), 0, "snrm2 of zeros {norm:?}, {what}");
                }
            }
        });
    }
}

/// All-ones vectors of 140,000 elements (the sums exact), the largest element last, with the
/// workgroups capped at 1 (`lab::set_reduction_groups`) so that one workgroup's invocations
/// loop over the whole vector, on every path.
#[test]
fn f64_reductions_long_loops_every_path() {
    let n = 140_000usize;
    let mut x = Array1::<f64>::ones(n);
    x[n - 1] = -2.0;
    let ones = Array1::<f64>::ones(n);
    for cap in [1u32, 0] {
        for (d, v) in PATHS {
            let _guard = lab_defaults();
            lab::set_reduction_groups(cap);
            lab::set(d, v);
            let r = catch_unwind(AssertUnwindSafe(|| {
                let what = format!("{v:?} on {d:?}, cap {cap}");
                let want = (n + 1) as f64;
                assert_eq!(
                    blas::ddot(ctx(), &x, &ones).unwrap(),
                    n as f64 - 3.0,
                    "{what}"
                );
                assert_eq!(blas::dasum(ctx(), &x).unwrap(), want, "{what}");
                assert_eq!(blas::idamax(ctx(), &x).unwrap(), n - 1, "{what}");
                let got = blas::dnrm2(ctx(), &x).unwrap();
                let u = ulp_distance_f64(got, ((n + 3) as f64).sqrt()) as f64;
                assert!(
                    describe::spec::<Nrm2, f64>().passes(u),
                    "dnrm2 {what}: {u} ULP"
                );
            }));
            lab::set(d, Variant::Auto);
            lab::set_reduction_groups(0);
            if let Err(e) = r {
                resume_unwind(e);
            }
        }
    }
}
