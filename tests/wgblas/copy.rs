//! scopy and dcopy: y ← x. Metric: max ULP = 0 against OpenBLAS (`metrics::spec`, DESIGN.md
//! §2). The description drives validation, fixtures, edges and the resident form; bit-exact
//! special values are hand-written below.

use ndarray::{array, s, Array1, ArrayViewD};
use proptest::strategy::BoxedStrategy;
use rand::rngs::StdRng;
use wgblas::prelude::*;
use wgblas::{blas, Context, Error, GpuVector};

use crate::common::*;
use crate::describe::level1::*;
use crate::describe::{self, same_bits, Bad, Case, Elem, Id, Ops, Out, Routine, Slots, VecSlot};
use crate::oracle_l1::fallback_ctx;

/// The description of copy (not named `Copy`, the std trait).
pub struct VecCopy;

impl Routine for VecCopy {
    const ID: Id = Id("copy", Out::Y);

    /// A random x; y's old values are never read: NaN.
    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let x = random_vec(r, c.n);
        Ops::level1(x, Array1::from_elem(c.n, T::nan()))
    }

    /// The call; a resident source is left as it was.
    fn call<T: Elem>(ctx: &Context, _: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let before = match &s.x {
            VecSlot::Dev(g) => Some(g.to_array()?),
            VecSlot::Host(_) => None,
        };
        T::copy(ctx, s.x.r(), s.y.w())?;
        if let (Some(before), VecSlot::Dev(g)) = (before, &s.x) {
            assert!(
                same_bits(&g.to_array()?, &before),
                "copy changed its source"
            );
        }
        Ok(())
    }

    fn quick(c: &Case) -> bool {
        c.n == 0
    }

    fn measure<T: Elem>(_: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let mut want = o.y.clone();
        T::o_copy(&o.x, &mut want);
        T::max_ulp(got, want.into_dyn().view()) as f64
    }

    fn edges() -> Vec<Case> {
        let mut v = vgrid(&NETLIB_N, &[1.0], &all_pairs(), |n| n as u64);
        // Lengths past the 256-wide workgroups (from the f64 suite).
        let pairs = [
            (inc(1), inc(1)),
            (inc(2), inc(1)),
            (inc(1), inc(-1)),
            (inc(-2), inc(2)),
        ];
        v.extend(vgrid(&[1, 3, 4, 5, 1000, 4099], &[1.0], &pairs, |n| {
            n as u64 + 50
        }));
        v
    }

    fn space() -> BoxedStrategy<Case> {
        vspace(3000)
    }

    fn bad() -> Vec<Bad> {
        len_mismatch(&[(5, 4), (4, 5)])
    }
}

describe::described_tests!(VecCopy, 100);

#[test]
fn validation_extension_forms() {
    let x = Array1::<f32>::ones(5);
    let mut y = Array1::<f32>::from_elem(4, 7.0);
    let err = x.gpu_copy_inplace(&mut y).unwrap_err();
    describe::assert_named(&err, ("DimensionMismatch", "scopy", "y"));
    assert_eq!(y, Array1::from_elem(4, 7.0));
}

#[test]
fn past_one_binding() {
    let (x, n) = ends_past_one_binding(4.0, 5.0);
    let mut y = Array1::<f32>::from_elem(n, 3.0);
    blas::scopy(ctx(), x.view(), y.view_mut()).unwrap();
    assert_eq!(y, x);
}

#[test]
fn edge_hand_values_bit_exact() {
    // -0, infinities, a subnormal and a NaN with a payload are copied bit for bit.
    let x = array![
        -0.0f32,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::from_bits(1),
        f32::from_bits(0x7fc0_1234),
        -1.5
    ];
    let y = x.gpu_copy().unwrap();
    let bits = |a: &Array1<f32>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&y), bits(&x));
    // Reversed source into a stepped destination.
    let mut buf = Array1::from_elem(13, 9.0f32);
    x.slice(s![..;-1])
        .gpu_copy_inplace(&mut buf.slice_mut(s![1..;2]))
        .unwrap();
    let expected: Vec<u32> = x.iter().rev().map(|v| v.to_bits()).collect();
    assert_eq!(
        buf.slice(s![1..;2])
            .iter()
            .map(|v| v.to_bits())
            .collect::<Vec<_>>(),
        expected
    );
    assert!(buf.slice(s![..;2]).iter().all(|&v| v == 9.0));
    assert_eq!(Array1::<f32>::zeros(0).gpu_copy().unwrap().len(), 0);
}

#[test]
fn resident_mixed_operands_bit_exact() {
    let x = array![
        -0.0f32,
        f32::INFINITY,
        f32::from_bits(1),
        f32::from_bits(0x7fc0_1234),
        -1.5
    ];
    let bits = |a: &Array1<f32>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    // Host reversed view into a resident y.
    let mut gy = GpuVector::zeros(ctx(), 5).unwrap();
    blas::scopy(ctx(), x.slice(s![..;-1]), &mut gy).unwrap();
    let rev: Vec<u32> = x.iter().rev().map(|v| v.to_bits()).collect();
    assert_eq!(bits(&gy.to_array().unwrap()), rev);
    // Resident x into a stepped host view: the padding is not touched.
    let gx = ctx().upload_vector(&x).unwrap();
    let mut buf = Array1::from_elem(11, 9.0f32);
    blas::scopy(ctx(), &gx, buf.slice_mut(s![1..;2])).unwrap();
    assert_eq!(bits(&buf.slice(s![1..;2]).to_owned()), bits(&x));
    assert!(buf.slice(s![..;2]).iter().all(|&v| v == 9.0));
    // A length mismatch and an operand of another context are errors; y is unchanged.
    let mut short = ctx().upload_vector(&array![7.0f32, 7.0]).unwrap();
    assert!(matches!(
        blas::scopy(ctx(), &gx, &mut short),
        Err(Error::DimensionMismatch {
            routine: "scopy",
            arg: "y",
            ..
        })
    ));
    assert_eq!(short.to_array().unwrap(), array![7.0, 7.0]);
    let other = fallback_ctx();
    let mut foreign = other.upload_vector(&Array1::from_elem(5, 7.0f32)).unwrap();
    let err = blas::scopy(ctx(), &x, &mut foreign).unwrap_err();
    describe::assert_named(&err, ("InvalidArgument", "scopy", "y"));
    assert_eq!(foreign.to_array().unwrap(), Array1::from_elem(5, 7.0));
}

#[test]
fn resident_chain_of_level1_calls_is_one_submission() {
    // A context of its own, so that the counters see only this chain.
    let c = Context::new().unwrap();
    let gx = c.upload_vector(&array![1.0f32, 2.0, 3.0]).unwrap();
    let mut gy = GpuVector::zeros(&c, 3).unwrap();
    let mut gz = c.upload_vector(&array![10.0f32, 20.0, 30.0]).unwrap();
    let s0 = c.submissions();
    blas::scopy(&c, &gx, &mut gy).unwrap(); // y = [1, 2, 3]
    blas::sswap(&c, &mut gy, &mut gz).unwrap(); // y = [10, 20, 30], z = [1, 2, 3]
    blas::sscal(&c, 0.5, &mut gz).unwrap(); // z = [0.5, 1, 1.5]
    blas::srot(&c, &mut gy, &mut gz, 0.0, 1.0).unwrap(); // y = z, z = −y
    blas::srotm(&c, &mut gy, &mut gz, [0.0, f32::NAN, 0.0, 2.0, f32::NAN]).unwrap(); // y += 2z
    assert_eq!(c.submissions(), s0, "resident-only calls must be held back");
    assert_eq!(gy.to_array().unwrap(), array![-19.5, -39.0, -58.5]);
    assert_eq!(
        c.submissions(),
        s0 + 1,
        "the chain and its read-back: one submission"
    );
    assert_eq!(gz.to_array().unwrap(), array![-10.0, -20.0, -30.0]);
}
