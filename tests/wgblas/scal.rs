//! sscal and dscal: x ← alpha·x. Metric: max ULP = 0 against OpenBLAS (`metrics::spec`,
//! DESIGN.md §2). The description drives fixtures, edges and the resident form (host and device
//! alpha); alpha = 0 on NaN/Inf gives NaN as in reference BLAS (DESIGN.md §3), checked by hand.

use ndarray::{array, s, Array1, ArrayViewD};
use proptest::strategy::BoxedStrategy;
use rand::rngs::StdRng;
use wgblas::prelude::*;
use wgblas::{blas, Context};

use crate::common::*;
use crate::describe::level1::*;
use crate::describe::{self, Case, Elem, Id, Ops, Out, Routine, Slots, VecSlot};
use crate::oracle_l1::fallback_ctx;

/// The description of scal.
pub struct Scal;

impl Routine for Scal {
    const ID: Id = Id("scal", Out::X);

    fn inputs<T: Elem>(r: &mut StdRng, c: &Case) -> Ops<T> {
        let x = random_vec(r, c.n);
        Ops::level1(x, Array1::from_vec(Vec::new()))
    }

    /// A resident x of an odd seed gets alpha as a `GpuScalar` computed on the device
    /// (`[alpha]·[1]`, exact); otherwise alpha comes from the host.
    fn call<T: Elem>(ctx: &Context, c: &Case, s: &mut Slots<T>) -> wgblas::Result<()> {
        let alpha = T::from_f64(c.alpha);
        let device = if matches!(s.x, VecSlot::Dev(_)) && c.seed % 2 == 1 {
            Some(T::device(ctx, alpha)?)
        } else {
            None
        };
        let alpha = match &device {
            Some(g) => g.into(),
            None => alpha.host(),
        };
        T::scal_any(ctx, alpha, s.x.w())
    }

    /// No quick return but n = 0: alpha = 0 multiplies (0·NaN = NaN).
    fn quick(c: &Case) -> bool {
        c.n == 0
    }

    fn measure<T: Elem>(c: &Case, o: &Ops<T>, got: ArrayViewD<T>) -> f64 {
        let mut want = o.x.clone();
        T::o_scal(T::from_f64(c.alpha), &mut want);
        T::max_ulp(got, want.into_dyn().view()) as f64
    }

    fn edges() -> Vec<Case> {
        let strides: Vec<_> = VLAYOUTS.iter().map(|&l| (l, VLayout::Unit)).collect();
        let mut v = vgrid(&NETLIB_N, &NETLIB_ALPHA, &strides, |n| n as u64);
        // Lengths past the 256-wide workgroups (from the f64 suite).
        let strides: Vec<_> = [1, 2, -2]
            .iter()
            .map(|&i| (inc(i), VLayout::Unit))
            .collect();
        v.extend(vgrid(
            &[1, 3, 4, 5, 1000, 4099],
            &[0.1, -3.0, 0.0],
            &strides,
            |n| n as u64 + 50,
        ));
        v
    }

    fn space() -> BoxedStrategy<Case> {
        vspace(3000)
    }

    /// scal has no length to mismatch; its one bad input (a device alpha of another context)
    /// is in `resident_device_alpha_hand_values`.
    fn bad() -> Vec<describe::Bad> {
        Vec::new()
    }
}

describe::described_tests!(Scal, 100, 100, no_validation);

#[test]
fn past_one_binding() {
    let (mut x, n) = ends_past_one_binding(3.0, -1.0);
    blas::sscal(ctx(), 2.0, x.view_mut()).unwrap();
    assert_eq!((x[0], x[n - 1]), (6.0, -2.0));
    blas::sscal(ctx(), 1.0, x.view_mut()).unwrap();
    x.gpu_scal_inplace(2.0).unwrap();
    assert_eq!((x[0], x[n - 1]), (12.0, -4.0));
}

#[test]
fn edge_alpha_zero_propagates_nan() {
    // Reference BLAS multiplies: 0·NaN = NaN, 0·±Inf = NaN, 0·(−2) = −0.
    let mut x = array![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 2.0, -2.0];
    blas::sscal(ctx(), 0.0, x.view_mut()).unwrap();
    assert!(x[0].is_nan() && x[1].is_nan() && x[2].is_nan(), "{x}");
    assert_eq!(
        (x[3].to_bits(), x[4].to_bits()),
        (0.0f32.to_bits(), (-0.0f32).to_bits())
    );
    // Same through a strided view: the padding is not touched.
    let mut buf = array![7.0f32, f32::INFINITY, 7.0, 1.0, 7.0];
    buf.slice_mut(s![1..;2]).gpu_scal_inplace(0.0).unwrap();
    assert!(buf[1].is_nan());
    assert_eq!([buf[0], buf[2], buf[3], buf[4]], [7.0, 7.0, 0.0, 7.0]);
}

#[test]
fn edge_hand_values() {
    let x = array![1.0f32, -2.0, 0.5, f32::INFINITY];
    assert_eq!(
        x.gpu_scal(-2.0).unwrap(),
        array![-2.0, 4.0, -1.0, f32::NEG_INFINITY]
    );
    // alpha = 1 leaves x as it is, NaN included.
    let mut y = array![f32::NAN, 3.0];
    y.gpu_scal_inplace(1.0).unwrap();
    assert!(y[0].is_nan() && y[1] == 3.0);
    // Reversed view: element-wise, so the same values in the same places.
    let mut z = array![1.0f32, 2.0, 3.0];
    blas::sscal(ctx(), 3.0, z.slice_mut(s![..;-1])).unwrap();
    assert_eq!(z, array![3.0, 6.0, 9.0]);
    // Overflow to inf, one correct rounding.
    assert_eq!(array![f32::MAX].gpu_scal(2.0).unwrap()[0], f32::INFINITY);
    assert_eq!(
        array![1.0f32 / 3.0].gpu_scal(3.0).unwrap()[0],
        (1.0f32 / 3.0) * 3.0
    );
    assert_eq!(Array1::<f32>::zeros(0).gpu_scal(2.0).unwrap().len(), 0);
}

#[test]
fn resident_device_alpha_hand_values() {
    // alpha = ‖[3, 4]‖ = 5 on the device, applied to a resident x and to a host x.
    let v = ctx().upload_vector(&array![3.0f32, 4.0]).unwrap();
    let five = wgblas::resident::snrm2(ctx(), &v).unwrap();
    let mut gx = ctx().upload_vector(&array![1.0f32, -2.0, 0.5]).unwrap();
    blas::sscal(ctx(), &five, &mut gx).unwrap();
    assert_eq!(gx.to_array().unwrap(), array![5.0, -10.0, 2.5]);
    let mut x = array![1.0f32, 9.0, -0.25];
    blas::sscal(ctx(), &five, x.slice_mut(s![..;2])).unwrap();
    assert_eq!(x, array![5.0, 9.0, -1.25]);
    // A device alpha = 0 still multiplies: 0·NaN = 0·Inf = NaN, 0·(−2) = −0, as on the host.
    let zero = dev32(0.0);
    let mut g = ctx()
        .upload_vector(&array![f32::NAN, f32::INFINITY, -2.0])
        .unwrap();
    blas::sscal(ctx(), &zero, &mut g).unwrap();
    let g = g.to_array().unwrap();
    assert!(g[0].is_nan() && g[1].is_nan(), "{g}");
    assert_eq!(g[2].to_bits(), (-0.0f32).to_bits());
    // A device alpha = 1 leaves x as it is.
    let mut g = ctx().upload_vector(&array![f32::NAN, 3.0]).unwrap();
    blas::sscal(ctx(), &dev32(1.0), &mut g).unwrap();
    let g = g.to_array().unwrap();
    assert!(g[0].is_nan() && g[1] == 3.0, "{g}");
    // A device alpha of another context is an error; x is unchanged.
    let foreign = {
        let a = fallback_ctx().upload_vector(&array![2.0f32]).unwrap();
        wgblas::resident::sasum(fallback_ctx(), &a).unwrap()
    };
    let mut gx = ctx().upload_vector(&array![1.0f32, 2.0]).unwrap();
    let err = blas::sscal(ctx(), &foreign, &mut gx).unwrap_err();
    describe::assert_named(&err, ("InvalidArgument", "sscal", "alpha"));
    assert_eq!(gx.to_array().unwrap(), array![1.0, 2.0]);
}
