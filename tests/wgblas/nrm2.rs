//! snrm2 and dnrm2: ‖x‖₂ by Blue's scaled sums (LAPACK 3.10). Metric: ULP against OpenBLAS
//! (`metrics::spec`, DESIGN.md §2). The description drives fixtures, edges and the resident
//! form; huge, tiny, Inf and NaN entries have hand-computed values below (DESIGN.md §3).

use ndarray::{array, s, Array1, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::blas;
use wgblas::metrics::ulp_distance_f32;
use wgblas::prelude::*;
use wgblas::Context;

use crate::common::*;
use crate::describe::level1::*;
use crate::describe::{self, pick, Case, Elem, Id, Ops, Out, Routine, Slots, VecSlot};

/// The scales of the data, by index (a case's alpha): mid-range, and scaled into Blue's big
/// and small ranges (and across them) of f32 and of f64.
const SCALES_F32: [f64; 5] = [1.0, 1e25, 1e-25, 1e15, 1e-17];
const SCALES_F64: [f64; 5] = [1.0, 1e200, 1e-200, 1e150, 1e-160];

/// The description of nrm2 (alpha is the index of the data's scale).
pub struct Nrm2;

impl Routine for Nrm2 {
    const ID: Id = Id("nrm2", Out::R);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let scales = if T::P == 's' { SCALES_F32 } else { SCALES_F64 };
        let scale = scales[c.alpha as usize];
        let x = Array1::from_shape_simple_fn(c.n, || T::from_f64(T::value(r).to_f64() * scale));
        Ops::level1(x, Array1::from_vec(Vec::new()))
    }

    /// The BLAS-layer call; on a resident x also `resident::snrm2` (the norm kept on
    /// the device), measured the same way.
    fn call<T: Elem>(ctx: &Context, _: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        s.r = vec![T::nrm2(ctx, s.x.r())?];
        if matches!(s.x, VecSlot::Dev(_)) {
            s.r.extend(T::nrm2_resident(ctx, s.x.r())?);
        }
        Ok(())
    }

    /// No quick return: n = 0 gives 0, measured like any other result.
    fn quick(_: &Case) -> bool {
        false
    }

    fn measure<T: Elem>(_: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let want = T::o_nrm2(&o.x);
        got.iter().map(|&g| T::ulp(g, want)).max().unwrap() as f64
    }

    fn edges() -> Vec<Case> {
        let strides: Vec<_> = VLAYOUTS.iter().map(|&l| (l, VLayout::Unit)).collect();
        let mut v = vgrid(&NETLIB_N, &[0.0], &strides, |n| n as u64);
        // Every scale, lengths to 300 001 (from the f64 suite).
        let strides: Vec<_> = [1, 2, -1]
            .iter()
            .map(|&i| (inc(i), VLayout::Unit))
            .collect();
        v.extend(vgrid(
            &[1, 2, 3, 5, 9, 255, 257, 4097, 300_001],
            &[0.0, 1.0, 2.0, 3.0, 4.0],
            &strides,
            |n| n as u64,
        ));
        v
    }

    fn space() -> BoxedStrategy<Case> {
        (any::<u64>(), 0usize..3000, 0usize..5, pick(&VLAYOUTS))
            .prop_map(|(seed, n, scale, lx)| vcase(seed, n, scale as f64, lx, VLayout::Unit))
            .boxed()
    }

    /// From `proptest-regressions/nrm2.txt`: n = 2, unit stride, scale 1e15.
    fn regressions() -> Vec<Case> {
        vec![vcase(
            211813604739758778,
            2,
            3.0,
            VLayout::Unit,
            VLayout::Unit,
        )]
    }

    /// nrm2 has no length to mismatch.
    fn bad() -> Vec<describe::Bad> {
        Vec::new()
    }
}

describe::described_tests!(Nrm2, 100, 100, no_validation);

#[test]
fn past_one_binding() {
    let (x, _) = ends_past_one_binding(3.0, 4.0);
    assert_eq!(blas::snrm2(ctx(), x.view()).unwrap(), 5.0);
    assert_eq!(x.gpu_nrm2().unwrap(), 5.0);
}

#[test]
fn edge_hand_values() {
    let c = ctx();
    let nrm = |x: Array1<f32>| blas::snrm2(c, x.view()).unwrap();
    let p = |e: i32| 2f32.powi(e);
    assert_eq!(nrm(Array1::zeros(0)), 0.0);
    assert_eq!(nrm(array![0.0, -0.0]), 0.0);
    assert_eq!(nrm(array![3.0, -4.0]), 5.0);
    assert_eq!(nrm(array![-3.5]), 3.5);
    // Huge: the squares overflow f32 (big sum, scaled by 2^-76), the norm does not.
    assert_eq!(nrm(array![3.0 * p(100), -4.0 * p(100)]), 5.0 * p(100));
    assert_eq!(nrm(array![1e38, 0.0]), 1e38);
    assert_eq!(nrm(array![f32::MAX]), f32::MAX);
    // Tiny: the squares underflow (small sum, scaled by 2^75), the norm does not.
    assert_eq!(nrm(array![3.0 * p(-100), -4.0 * p(-100)]), 5.0 * p(-100));
    assert_eq!(nrm(array![f32::MIN_POSITIVE]), f32::MIN_POSITIVE);
    // Big and medium combined: 2^45 is big (> 2^44), 3·2^43 medium → 5·2^43.
    assert_eq!(nrm(array![3.0 * p(43), p(45)]), 5.0 * p(43));
    // Small and medium combined: 3·2^-64 is small (< 2^-63), 2^-62 medium → 5·2^-64.
    assert_eq!(nrm(array![3.0 * p(-64), p(-62)]), 5.0 * p(-64));
    // Across the whole range: the tiny values vanish against the huge one.
    assert_eq!(nrm(array![1e-30, 1e30, 1.0, -1e-30]), 1e30);
    // Decimal values, huge and tiny: against the correctly rounded norm (computed in f64,
    // where these squares neither overflow nor underflow), within snrm2's ULP threshold
    // (metrics::spec).
    for x in [array![3e20f32, -4e20], array![3e-30f32, 4e-30]] {
        let got = nrm(x.clone());
        let expected = x.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt() as f32;
        let u = ulp_distance_f32(got, expected) as f64;
        describe::passes("snrm2", u, &format!("{x}: {got:e} vs {expected:e}"));
    }
    // The norm itself overflows: +inf, as in the reference.
    assert_eq!(nrm(array![3e38, 3e38]), f32::INFINITY);
    // Inf in → +Inf out; NaN in → NaN out (NaN wins over Inf).
    assert_eq!(nrm(array![1.0, f32::INFINITY]), f32::INFINITY);
    assert_eq!(nrm(array![f32::NEG_INFINITY]), f32::INFINITY);
    assert_eq!(nrm(array![1e-30, f32::NEG_INFINITY, 1e30]), f32::INFINITY);
    assert!(nrm(array![f32::NAN, 1.0]).is_nan());
    assert!(nrm(array![f32::INFINITY, f32::NAN]).is_nan());
    assert!(nrm(array![1e30, -f32::NAN, 1e-30]).is_nan());
    assert!(nrm(array![f32::NAN]).is_nan());
    // Views.
    let x = array![3.0f32, 12.0, 4.0, 5.0];
    assert_eq!(blas::snrm2(c, x.slice(s![..;2])).unwrap(), 5.0);
    assert_eq!(x.slice(s![..;-2]).gpu_nrm2().unwrap(), 13.0);
}

#[test]
fn resident_hand_values() {
    let c = ctx();
    let kept = |x: Array1<f32>| {
        let g = c.upload_vector(&x).unwrap();
        wgblas::resident::snrm2(c, &g).unwrap().get().unwrap()
    };
    let p = |e: i32| 2f32.powi(e);
    assert_eq!(kept(Array1::zeros(0)), 0.0);
    assert_eq!(kept(array![3.0, -4.0]), 5.0);
    // Blue's scaling on the device path: huge, tiny, and big with medium.
    assert_eq!(kept(array![3.0 * p(100), -4.0 * p(100)]), 5.0 * p(100));
    assert_eq!(kept(array![3.0 * p(-100), -4.0 * p(-100)]), 5.0 * p(-100));
    assert_eq!(kept(array![3.0 * p(43), p(45)]), 5.0 * p(43));
    assert_eq!(kept(array![f32::MAX]), f32::MAX);
    // Inf → +Inf, NaN → NaN (NaN wins), the norm itself overflowing → +Inf.
    assert_eq!(kept(array![1e-30, f32::NEG_INFINITY, 1e30]), f32::INFINITY);
    assert!(kept(array![f32::INFINITY, f32::NAN]).is_nan());
    assert_eq!(kept(array![3e38, 3e38]), f32::INFINITY);
    // Two kept norms combined on the device: ‖[6, 8]‖ / ‖[3, 4]‖ = 2, then y ← 2·x + y.
    let a = c.upload_vector(&array![6.0f32, 8.0]).unwrap();
    let b = c.upload_vector(&array![3.0f32, 4.0]).unwrap();
    let two = wgblas::resident::snrm2(c, &a)
        .unwrap()
        .div(&wgblas::resident::snrm2(c, &b).unwrap())
        .unwrap();
    let mut y = array![1.0f32, 1.0];
    blas::saxpy(c, &two, &b, &mut y).unwrap();
    assert_eq!(y, array![7.0, 9.0]);
}
