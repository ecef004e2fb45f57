//! isamax, idamax: 0-based index of the first largest |x_i| (first NaN wins, ties to the lowest
//! index). Metric: exact index (`metrics::spec`, DESIGN.md §2). The description drives
//! validation, fixtures, edges and the resident form; idamax runs on both f64 paths (native
//! where the adapter has SHADER_F64, and the forced fallback), isamax on a resident x also kept
//! on the device (`resident::isamax`). Ties, NaN and subnormals are hand-computed below.

use ndarray::{array, s, Array1, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::prelude::*;
use wgblas::{blas, Context, GpuVector};

use crate::common::*;
use crate::describe::level1::*;
use crate::describe::{self, pick, Bad, Case, Elem, Id, Ops, Out, Routine, Slots, VecSlot};
use crate::oracle_l1::{f64_paths, fallback_ctx};

/// The description of iamax (alpha = 1: f64 values across the whole exponent range). The
/// indices are kept as values of the element type (exact below 2^24).
pub struct Iamax;

impl Routine for Iamax {
    const ID: Id = Id("iamax", Out::R);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        Ops::level1(values(r, c.n, c.alpha == 1.0), Array1::from_vec(Vec::new()))
    }

    /// The BLAS-layer call, for f64 also on the forced fallback; on a resident x, for f32, also
    /// `resident::isamax` (the index kept on the device). Each index is measured.
    fn call<T: Elem>(ctx: &Context, _: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let mut ix = vec![T::iamax(ctx, s.x.r())?];
        ix.extend(on_fallback(&s.x, |c, x| T::iamax(c, x))?);
        if matches!(s.x, VecSlot::Dev(_)) {
            ix.extend(T::iamax_resident(ctx, s.x.r())?);
        }
        s.r = ix.into_iter().map(|i| T::from_f64(i as f64)).collect();
        Ok(())
    }

    /// No quick return (n = 0 is an error).
    fn quick(_: &Case) -> bool {
        false
    }

    /// Exact index: 0 when every index equals OpenBLAS's, 1 otherwise.
    fn measure<T: Elem>(_: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let want = T::o_iamax(&o.x) as f64;
        f64::from(got.iter().any(|&g| g.to_f64() != want))
    }

    /// The netlib lengths, every stride, ordinary and wide values.
    fn edges() -> Vec<Case> {
        let strides: Vec<_> = VLAYOUTS.iter().map(|&l| (l, VLayout::Unit)).collect();
        vgrid(&[1, 2, 3, 5, 9], &[0.0, 1.0], &strides, |n| n as u64)
    }

    fn space() -> BoxedStrategy<Case> {
        (any::<u64>(), 1usize..3000, any::<bool>(), pick(&VLAYOUTS))
            .prop_map(|(seed, n, wide, lx)| vcase(seed, n, f64::from(wide), lx, VLayout::Unit))
            .boxed()
    }

    /// An empty x.
    fn bad() -> Vec<Bad> {
        let empty = Case::new(0, 0, 0);
        vec![Bad::vecs(empty, (0, 0), 0, 0, "InvalidArgument", "x")]
    }
}

describe::described_tests!(Iamax, 100);

#[test]
fn validation_extension_forms_and_fallback() {
    let err = Array1::<f32>::zeros(0).gpu_iamax().unwrap_err();
    describe::assert_named(&err, ("InvalidArgument", "isamax", "x"));
    let d = Array1::<f64>::zeros(0);
    let err = d.gpu_iamax().unwrap_err();
    describe::assert_named(&err, ("InvalidArgument", "idamax", "x"));
    for (path, c) in f64_paths() {
        let err = blas::idamax(c, d.view()).unwrap_err();
        let want = ("InvalidArgument", "idamax", "x");
        assert_eq!(describe::named(&err), want, "{path}");
    }
}

#[test]
fn past_one_binding() {
    let (mut x, n) = ends_past_one_binding(0.0, -1.0);
    assert_eq!(blas::isamax(ctx(), x.view()).unwrap(), n - 1);
    // A tie in the first window wins.
    x[n - 10] = 1.0;
    assert_eq!(blas::isamax(ctx(), x.view()).unwrap(), n - 10);
    let mut d = Array1::<f64>::zeros(n / 2 + 1);
    d[n / 2] = 2.0;
    for (path, c) in f64_paths() {
        assert_eq!(blas::idamax(c, d.view()).unwrap(), n / 2, "{path}");
    }
}

#[test]
fn edge_hand_values_f32() {
    let c = ctx();
    let i = |x: Array1<f32>| blas::isamax(c, x.view()).unwrap();
    // Ties go to the lowest index, whatever the sign; -0 ties with 0.
    assert_eq!(i(array![1.0, -7.0, 3.0, 7.0]), 1);
    assert_eq!(i(array![-0.0, 0.0, -0.0]), 0);
    assert_eq!(i(array![0.0, -0.0]), 0);
    // Infinities beat every finite value; -inf ties with +inf.
    assert_eq!(i(array![f32::MAX, f32::NEG_INFINITY, f32::INFINITY]), 1);
    // The first NaN wins, over infinities and later NaNs.
    assert_eq!(i(array![1.0, f32::NAN, 5.0, f32::NAN]), 1);
    assert_eq!(i(array![f32::INFINITY, 2.0, f32::NAN]), 2);
    assert_eq!(i(array![f32::NAN, f32::INFINITY]), 0);
    assert_eq!(i(array![-f32::NAN, 1.0]), 0);
    // Subnormals compare exactly (bit patterns, no flush to zero).
    assert_eq!(i(array![0.0, f32::from_bits(1), 0.0]), 1);
    assert_eq!(
        i(array![
            f32::from_bits(1),
            f32::from_bits(2),
            f32::from_bits(2)
        ]),
        1
    );
    // Neighbouring floats.
    assert_eq!(i(array![1.0, -1.0 - f32::EPSILON, 1.0 + f32::EPSILON]), 1);
    // n = 1: index 0, even for NaN.
    assert_eq!(i(array![f32::NAN]), 0);
    assert_eq!(i(array![-3.0]), 0);
    // Views: the index is the logical one.
    let x = array![9.0f32, 1.0, 2.0, 9.0, 3.0];
    assert_eq!(blas::isamax(c, x.slice(s![..;-1])).unwrap(), 1);
    assert_eq!(blas::isamax(c, x.slice(s![1..;2])).unwrap(), 1);
    assert_eq!(x.slice(s![..;-2]).gpu_iamax().unwrap(), 2);
}

#[test]
fn edge_hand_values_f64_both_paths() {
    let tiny = f64::from_bits(1);
    let cases: Vec<(Array1<f64>, usize)> = vec![
        (array![1.0, -7.0, 3.0, 7.0], 1),
        (array![-0.0, 0.0], 0),
        (array![1e-300, -1e300, 5e-324, 1e300], 1),
        (array![f64::MAX, f64::NEG_INFINITY, f64::INFINITY], 1),
        (array![1.0, f64::NAN, 5.0, f64::NAN], 1),
        (array![f64::INFINITY, 2.0, f64::NAN], 2),
        (array![f64::NAN, f64::INFINITY], 0),
        // NaN whose payload is only in the low word.
        (
            array![f64::INFINITY, f64::from_bits(0x7ff0_0000_0000_0001)],
            1,
        ),
        (array![0.0, tiny, 0.0], 1),
        (array![tiny, 2.0 * tiny, -2.0 * tiny], 1),
        (array![f64::MIN_POSITIVE, f64::MIN_POSITIVE - tiny], 0),
        // Magnitudes that differ in the low word only.
        (array![1.0, -(1.0 + f64::EPSILON), 1.0 + f64::EPSILON], 1),
        (array![1.0 + 2.0 * f64::EPSILON, 1.0 + f64::EPSILON], 0),
        (array![f64::NAN], 0),
    ];
    for (path, c) in f64_paths() {
        for (x, expected) in &cases {
            assert_eq!(blas::idamax(c, x.view()).unwrap(), *expected, "{path}: {x}");
            let xr = x.slice(s![..;-1]);
            if x.len() > 1 && !x.iter().any(|v| v.is_nan()) {
                // Reversed: the last maximum in memory is the first logical one.
                let want = x.len()
                    - 1
                    - x.iter()
                        .rposition(|v| v.abs() == x[*expected].abs())
                        .unwrap();
                assert_eq!(blas::idamax(c, xr).unwrap(), want, "{path}: reversed {x}");
            }
        }
    }
    assert_eq!(array![2.0f64, -3.0].gpu_iamax().unwrap(), 1);
}

#[test]
fn edge_ties_and_nan_across_workgroups() {
    // 100 000 elements span many workgroups: the winner must come from the tree correctly.
    let n = 100_000;
    let mut x = Array1::from_shape_fn(n, |i| ((i * 7919) % 1000) as f32 / 1000.0);
    x[99_000] = -2.0;
    x[70_000] = 2.0;
    assert_eq!(blas::isamax(ctx(), x.view()).unwrap(), 70_000);
    x[80_000] = f32::NAN;
    x[30_000] = f32::NAN;
    assert_eq!(blas::isamax(ctx(), x.view()).unwrap(), 30_000);
    let mut d = x.mapv(f64::from);
    d[30_000] = 0.5;
    d[80_000] = 0.5;
    for (path, c) in f64_paths() {
        assert_eq!(blas::idamax(c, d.view()).unwrap(), 70_000, "{path}");
    }
    d[90_000] = f64::NAN;
    d[40_000] = f64::NAN;
    for (path, c) in f64_paths() {
        assert_eq!(blas::idamax(c, d.view()).unwrap(), 40_000, "{path}");
    }
}

#[test]
fn resident_hand_values_nan_ties_and_errors() {
    let c = ctx();
    let both = |x: Array1<f32>| {
        let g = c.upload_vector(&x).unwrap();
        let kept = wgblas::resident::isamax(c, &g).unwrap().get().unwrap();
        assert_eq!(kept, blas::isamax(c, &g).unwrap(), "{x}");
        kept
    };
    assert_eq!(both(array![1.0, -7.0, 3.0, 7.0]), 1);
    assert_eq!(both(array![1.0, f32::NAN, 5.0, f32::NAN]), 1);
    assert_eq!(both(array![f32::INFINITY, 2.0, f32::NAN]), 2);
    assert_eq!(both(array![0.0, f32::from_bits(1), 0.0]), 1);
    assert_eq!(both(array![f32::NAN]), 0);
    // Across workgroups: the kept index is a full usize, not a truncated word.
    let mut big = Array1::from_shape_fn(100_000, |i| ((i * 7919) % 1000) as f32 / 1000.0);
    big[70_000] = -2.0;
    big[99_000] = 2.0;
    assert_eq!(both(big), 70_000);
    // An empty resident vector is an error in both forms.
    let empty = GpuVector::<f32>::zeros(c, 0).unwrap();
    for err in [
        wgblas::resident::isamax(c, &empty).map(|_| ()).unwrap_err(),
        blas::isamax(c, &empty).map(|_| ()).unwrap_err(),
    ] {
        describe::assert_named(&err, ("InvalidArgument", "isamax", "x"));
    }
    // idamax on GpuVector<f64>: magnitudes that differ in the low word only, and a NaN whose
    // payload is only in the low word, on both paths; a vector of another context is an error.
    for (path, c) in f64_paths() {
        let g = c
            .upload_vector(&array![1.0, -(1.0 + f64::EPSILON), 1.0 + f64::EPSILON])
            .unwrap();
        assert_eq!(blas::idamax(c, &g).unwrap(), 1, "{path}");
        let g = c
            .upload_vector(&array![
                f64::INFINITY,
                f64::from_bits(0x7ff0_0000_0000_0001)
            ])
            .unwrap();
        assert_eq!(blas::idamax(c, &g).unwrap(), 1, "{path}");
    }
    let g = fallback_ctx().upload_vector(&array![1.0f64, 2.0]).unwrap();
    let err = blas::idamax(ctx(), &g).unwrap_err();
    describe::assert_named(&err, ("InvalidArgument", "idamax", "x"));
}
