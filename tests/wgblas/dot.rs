//! sdot and ddot: xᵀ·y. Metric: forward factor (`metrics::spec`) with bound n·Σ|x_i·y_i|
//! (DESIGN.md §2). The description drives validation, fixtures, edges and the resident form;
//! the special values are hand-computed below.

use ndarray::{array, s, Array1, ArrayViewD};
use proptest::strategy::BoxedStrategy;
use wgblas::prelude::*;
use wgblas::Context;

use crate::common::*;
use crate::describe::level1::*;
use crate::describe::{self, forward, Bad, Case, Elem, Id, Ops, Out, Routine, Slots, VecSlot};

/// The description of dot.
pub struct Dot;

impl Routine for Dot {
    const ID: Id = Id("dot", Out::R);

    /// The BLAS-layer call; on resident operands also `resident::sdot`/`ddot` (the result kept
    /// on the device as a `GpuScalar`), which must give the same bits. A timed call
    /// (`describe::timing`) on resident operands runs that resident form alone, its result
    /// kept on the device and not read back: what a resident bench times.
    fn call<T: Elem>(ctx: &Context, _: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        if matches!(s.x, VecSlot::Dev(_)) && describe::timing::timing() {
            T::dot_kept(ctx, s.x.r(), s.y.r())?;
            return Ok(());
        }
        let d = T::dot(ctx, s.x.r(), s.y.r())?;
        if matches!(s.x, VecSlot::Dev(_)) {
            let g = T::dot_resident(ctx, s.x.r(), s.y.r())?;
            assert_eq!(g.bits(), d.bits(), "resident dot {g:?} vs host form {d:?}");
        }
        s.r = vec![d];
        Ok(())
    }

    /// No quick return: n = 0 gives 0, measured like any other result.
    fn quick(_: &Case) -> bool {
        false
    }

    fn measure<T: Elem>(_: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let want = T::o_dot(&o.x, &o.y);
        // bounds::dot (n·Σ|x_i·y_i|) in either element type.
        let f = o.f64();
        let sum: f64 = f.x.iter().zip(&f.y).map(|(a, b)| (a * b).abs()).sum();
        let bound = f.x.len() as f64 * sum;
        forward(got, array![want].into_dyn(), array![bound].into_dyn())
    }

    fn edges() -> Vec<Case> {
        let ns = [0, 1, 2, 3, 5, 9, 255, 256, 257];
        let mut v = vgrid(&ns, &[1.0], &all_pairs(), |n| n as u64 + 11);
        // Long vectors (from the f64 suite): several passes of the tree.
        let pairs = [
            (inc(1), inc(1)),
            (inc(2), inc(1)),
            (inc(1), inc(-1)),
            (inc(-2), inc(2)),
        ];
        v.extend(vgrid(&[100_000, 300_001], &[1.0], &pairs, |n| n as u64));
        v
    }

    fn space() -> BoxedStrategy<Case> {
        vspace(5000)
    }

    fn bad() -> Vec<Bad> {
        len_mismatch(&[(5, 6), (2, 1)])
    }
}

describe::described_tests!(Dot, 100);

#[test]
fn validation_extension_forms() {
    let x = Array1::<f32>::ones(5);
    let err = x.gpu_dot(&Array1::<f32>::ones(6)).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "sdot", "y"));
}

#[test]
fn past_one_binding() {
    let n = len_past_one_binding();
    // y_i = 1 for i ≡ 0 (mod 4): Σ x_i·y_i = ⌈n/4⌉ with x = 1, every partial sum an integer
    // below 2^24 (exact).
    let x = Array1::<f32>::ones(n);
    let y = Array1::from_shape_fn(n, |i| if i % 4 == 0 { 1.0 } else { 0.0 });
    assert_eq!(x.gpu_dot(&y).unwrap(), n.div_ceil(4) as f32);
}

#[test]
fn edge_hand_values() {
    // [1,2,3]·[4,5,6] = 4 + 10 + 18 = 32
    let x = array![1.0f32, 2.0, 3.0];
    let y = array![4.0f32, 5.0, 6.0];
    assert_eq!(x.gpu_dot(&y).unwrap(), 32.0);
    // Reversed y: [1,2,3]·[6,5,4] = 6 + 10 + 12 = 28
    assert_eq!(x.gpu_dot(&y.slice(s![..;-1])).unwrap(), 28.0);
    // Step 2 over [1,2,3,4,5]: [1,3,5]·[1,3,5] = 35
    let z = array![1.0f32, 2.0, 3.0, 4.0, 5.0];
    assert_eq!(z.slice(s![..;2]).gpu_dot(&z.slice(s![..;2])).unwrap(), 35.0);
}

#[test]
fn edge_n_zero_is_zero() {
    let x = Array1::<f32>::zeros(0);
    assert_eq!(x.gpu_dot(&x).unwrap(), 0.0);
}

#[test]
fn edge_nan_and_inf_propagate() {
    let x = array![1.0f32, f32::NAN, 2.0];
    let y = array![1.0f32, 1.0, 1.0];
    assert!(x.gpu_dot(&y).unwrap().is_nan());
    let x = array![1.0f32, f32::INFINITY, 2.0];
    assert_eq!(x.gpu_dot(&y).unwrap(), f32::INFINITY);
}

#[test]
fn edge_large_n_sums_past_2_pow_24() {
    // Σ 1·1 over 2^24 + 3 terms: a sequential f32 sum stalls at 2^24; the tree does not.
    let n = (1 << 24) + 3;
    let x = Array1::<f32>::ones(n);
    assert_eq!(x.gpu_dot(&x).unwrap(), n as f32);
}
