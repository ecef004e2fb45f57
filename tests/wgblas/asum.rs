//! sasum, dasum: Σ|x_i|. Metric: ULP against OpenBLAS, 50 for sasum and 64 (f64 ULP) for
//! dasum (`metrics::spec`, DESIGN.md §2). The description drives fixtures, edges and the
//! resident form; dasum runs on both f64 paths (native and the forced fallback), sasum on a
//! resident x also kept on the device (`resident::sasum`). Hand-computed values below
//! (DESIGN.md §3).

use ndarray::{array, s, Array1, ArrayViewD};
use proptest::prelude::*;
use rand::rngs::StdRng;
use wgblas::metrics::ulp_distance_f64;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level1::*;
use crate::describe::{self, pick, Case, Elem, Id, Ops, Out, Routine, Slots, VecSlot};
use crate::oracle_l1::{f64_paths, fallback_ctx};

/// The description of asum (alpha = 1: f64 values across the whole exponent range).
pub struct Asum;

impl Routine for Asum {
    const ID: Id = Id("asum", Out::R);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        Ops::level1(values(r, c.n, c.alpha == 1.0), Array1::from_vec(Vec::new()))
    }

    /// The BLAS-layer call, for f64 also on the forced fallback; on a resident x, for f32, also
    /// `resident::sasum` (the sum kept on the device). Each result is measured.
    fn call<T: Elem>(ctx: &Context, _: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        s.r = vec![T::asum(ctx, s.x.r())?];
        s.r.extend(on_fallback(&s.x, |c, x| T::asum(c, x))?);
        if matches!(s.x, VecSlot::Dev(_)) {
            s.r.extend(T::asum_resident(ctx, s.x.r())?);
        }
        Ok(())
    }

    /// No quick return: n = 0 gives 0, measured like any other result.
    fn quick(_: &Case) -> bool {
        false
    }

    fn measure<T: Elem>(_: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let want = T::o_asum(&o.x);
        got.iter().map(|&g| T::ulp(g, want)).max().unwrap() as f64
    }

    /// The netlib lengths (and n = 0), every stride, ordinary and wide values.
    fn edges() -> Vec<Case> {
        let strides: Vec<_> = VLAYOUTS.iter().map(|&l| (l, VLayout::Unit)).collect();
        vgrid(&[0, 1, 2, 3, 5, 9], &[0.0, 1.0], &strides, |n| n as u64)
    }

    fn space() -> BoxedStrategy<Case> {
        (any::<u64>(), 0usize..3000, any::<bool>(), pick(&VLAYOUTS))
            .prop_map(|(seed, n, wide, lx)| vcase(seed, n, f64::from(wide), lx, VLayout::Unit))
            .boxed()
    }

    /// asum has no length to mismatch.
    fn bad() -> Vec<describe::Bad> {
        Vec::new()
    }
}

describe::described_tests!(Asum, 100, 100, no_validation);

#[test]
fn past_one_binding() {
    // One element past the binding limit: processed in two windows (issue 15).
    let (x, n) = ends_past_one_binding(1.0, -2.0);
    assert_eq!(blas::sasum(ctx(), x.view()).unwrap(), 3.0);
    assert_eq!(x.gpu_asum().unwrap(), 3.0);
    let mut d = Array1::<f64>::zeros(n / 2 + 1);
    d[0] = 1.5;
    d[n / 2] = -2.5;
    for (path, c) in f64_paths() {
        assert_eq!(blas::dasum(c, d.view()).unwrap(), 4.0, "{path}");
    }
}

#[test]
fn edge_hand_values_f32() {
    let c = ctx();
    let a = |x: Array1<f32>| blas::sasum(c, x.view()).unwrap();
    assert_eq!(a(array![1.0, -2.0, 3.5]), 6.5);
    assert_eq!(a(Array1::zeros(0)), 0.0);
    assert_eq!(a(array![-3.0]), 3.0);
    assert_eq!(a(array![-0.0, 0.0]), 0.0);
    assert_eq!(a(array![1.0, f32::NEG_INFINITY]), f32::INFINITY);
    assert_eq!(a(array![f32::INFINITY, f32::NEG_INFINITY]), f32::INFINITY);
    assert!(a(array![1.0, f32::NAN, 2.0]).is_nan());
    assert_eq!(a(array![f32::MAX, f32::MAX]), f32::INFINITY);
    let x = array![1.0f32, 100.0, -2.0, 100.0, 4.0];
    assert_eq!(blas::sasum(c, x.slice(s![..;2])).unwrap(), 7.0);
    assert_eq!(x.slice(s![..;-2]).gpu_asum().unwrap(), 7.0);
}

#[test]
fn edge_hand_values_f64_huge_tiny_both_paths() {
    let tiny = f64::from_bits(1);
    let mut many_tiny = Array1::from_elem(1000, 1e-300);
    many_tiny[500] = 1.0;
    let cases: Vec<(Array1<f64>, f64)> = vec![
        (array![1.0, -2.0, 3.5], 6.5),
        (array![-3.0], 3.0),
        (array![1e300, -1e300, 1e-300], 2e300),
        (array![1e308, 1e308], f64::INFINITY),
        (array![f64::MAX, -f64::MAX], f64::INFINITY),
        (array![f64::MAX, 1.0], f64::MAX),
        (array![tiny, tiny, -tiny, tiny], 4.0 * tiny),
        (Array1::from_elem(1000, -tiny), 1000.0 * tiny),
        (array![f64::MIN_POSITIVE, -tiny], f64::MIN_POSITIVE + tiny),
        (array![2f64.powi(1000), 2f64.powi(-1000)], 2f64.powi(1000)),
        (
            array![1.0, 2f64.powi(-52), 2f64.powi(-52)],
            1.0 + 2.0 * f64::EPSILON,
        ),
        // The exact sum of 1000 copies of fl(1e300), correctly rounded (one f64 product).
        (Array1::from_elem(1000, 1e300), 1000.0 * 1e300),
        (many_tiny, 1.0 + 999e-300),
        (array![1.0, f64::NEG_INFINITY], f64::INFINITY),
        (array![-0.0, 0.0], 0.0),
    ];
    for (path, c) in f64_paths() {
        for (x, expected) in &cases {
            let got = blas::dasum(c, x.view()).unwrap();
            // Against the correctly rounded sum, within dasum's ULP threshold (metrics::spec);
            // the exactly representable sums must be exact (1 + 999·1e-300 rounds to 1).
            let u = ulp_distance_f64(got, *expected) as f64;
            describe::passes("dasum", u, &format!("{path}: dasum {x} = {got:e}"));
            if x.len() != 1000 || x[0] != 1e300 {
                assert_eq!(got, *expected, "{path}: dasum {x}");
            }
        }
        assert!(
            blas::dasum(c, array![1.0, f64::NAN, f64::INFINITY].view())
                .unwrap()
                .is_nan(),
            "{path}"
        );
        assert!(
            blas::dasum(c, array![f64::NAN].view()).unwrap().is_nan(),
            "{path}"
        );
        assert_eq!(
            blas::dasum(c, Array1::<f64>::zeros(0).view()).unwrap(),
            0.0,
            "{path}"
        );
        let x = array![1e300f64, 5.0, -2e300, 7.0];
        assert_eq!(blas::dasum(c, x.slice(s![..;2])).unwrap(), 3e300, "{path}");
        assert_eq!(blas::dasum(c, x.slice(s![..;-2])).unwrap(), 12.0, "{path}");
    }
    assert_eq!(array![1.0f64, -2.0].gpu_asum().unwrap(), 3.0);
}

#[test]
fn resident_hand_values_and_device_chain() {
    let c = ctx();
    let kept = |x: Array1<f32>| {
        let g = c.upload_vector(&x).unwrap();
        wgblas::resident::sasum(c, &g).unwrap().get().unwrap()
    };
    assert_eq!(kept(array![1.0, -2.0, 3.5]), 6.5);
    assert_eq!(kept(Array1::zeros(0)), 0.0);
    assert_eq!(
        kept(array![f32::INFINITY, f32::NEG_INFINITY]),
        f32::INFINITY
    );
    assert!(kept(array![1.0, f32::NAN, 2.0]).is_nan());
    assert_eq!(kept(array![f32::MAX, f32::MAX]), f32::INFINITY);
    // The kept sum as sscal's alpha, with no read-back in between: x ← Σ|x|·x.
    let mut g = c.upload_vector(&array![1.0f32, -2.0, 0.5]).unwrap();
    let s = wgblas::resident::sasum(c, &g).unwrap();
    blas::sscal(c, &s, &mut g).unwrap();
    assert_eq!(g.to_array().unwrap(), array![3.5, -7.0, 1.75]);
    // dasum on GpuVector<f64>, huge and tiny, on both paths; another context's vector is an error.
    let tiny = f64::from_bits(1);
    for (path, c) in f64_paths() {
        for (x, expected) in [
            (array![1e300, -1e300, 1e-300], 2e300),
            (array![tiny, tiny, -tiny, tiny], 4.0 * tiny),
            (array![f64::MAX, -f64::MAX], f64::INFINITY),
            (Array1::zeros(0), 0.0),
        ] {
            let g = c.upload_vector(&x).unwrap();
            assert_eq!(blas::dasum(c, &g).unwrap(), expected, "{path}: {x}");
        }
    }
    let g = fallback_ctx().upload_vector(&array![1.0f64, 2.0]).unwrap();
    let err = blas::dasum(ctx(), &g).unwrap_err();
    describe::assert_named(&err, ("InvalidArgument", "dasum", "x"));
}

#[test]
fn resident_concurrent_threads_keep_program_order() {
    // Threads sharing one context: each thread's kept sum must see its own upload and its own
    // held commands, whatever the other threads submit in between (a call that takes the held
    // commands of every thread must submit them before anyone else submits or writes).
    // Exact: sums of small integers.
    let failures = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for t in 0..4usize {
            let failures = &failures;
            s.spawn(move || {
                for i in 0..400usize {
                    let n = 100 + (i * 37 + t * 11) % 2000;
                    let x = Array1::from_shape_fn(n, |k| ((k + i) % 7) as f32 - 3.0);
                    let want: f32 = x.iter().map(|v| v.abs()).sum();
                    let g = ctx().upload_vector(&x).unwrap();
                    let got = if (i + t) % 2 == 0 {
                        wgblas::resident::sasum(ctx(), &g).unwrap().get().unwrap()
                    } else {
                        blas::sasum(ctx(), &g).unwrap()
                    };
                    if got != want {
                        failures.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    assert_eq!(failures.into_inner(), 0, "wrong sums under concurrency");
}
