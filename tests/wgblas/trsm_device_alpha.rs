//! strsm and dtrsm with alpha held on the device (`&GpuScalar`) give the bits of the same alpha
//! given on the host (DESIGN.md §3), in every side, uplo, trans and diag, whole and past one
//! storage binding: both form alpha·B first, as the formula and reference STRSM do, then solve
//! (an outside probe found the device alpha applied after the solve: alpha = Inf gave
//! [Inf, Inf] where the formula gives [Inf, NaN], and finite alphas differed in the last bit).

use ndarray::{array, Array2};
use std::sync::OnceLock;
use wgblas::{blas, resident, Context, Diag, Side, Transpose, Uplo};

use crate::common::*;

/// A context whose dispatches bind at most 4 KiB of a buffer (a 40×40 f32 solve is blocked).
fn small() -> &'static Context {
    static CTX: OnceLock<Context> = OnceLock::new();
    lowered(&CTX, |c| assert_eq!(c.set_max_binding(4096), 4096))
}

/// The 16 flag combinations.
fn flags() -> Vec<(Side, Uplo, Transpose, Diag)> {
    let mut v = Vec::new();
    for side in [Side::Left, Side::Right] {
        for uplo in [Uplo::Lower, Uplo::Upper] {
            for t in [Transpose::No, Transpose::Yes] {
                for d in [Diag::NonUnit, Diag::Unit] {
                    v.push((side, uplo, t, d));
                }
            }
        }
    }
    v
}

macro_rules! device_alpha_bits {
    ($name:ident, $t:ty, $dot:path, $trsm:path) => {
        #[test]
        fn $name() {
            for (c, n, nrhs) in [(ctx(), 7usize, 5usize), (small(), 40, 3)] {
                let mut r = rng(n as u64);
                // A well-conditioned triangle: off-diagonal values in [-1, 1]/n, the diagonal
                // in [1, 2] with a random sign; NaN never enters (both triangles stored).
                let a = Array2::from_shape_fn((n, n), |(i, j)| {
                    let v = value(&mut r) as $t;
                    if i == j {
                        v.signum() * (1.0 + v.abs())
                    } else {
                        v / n as $t
                    }
                });
                let dev = |v: $t| {
                    let s = $dot(c, &array![v], &array![1.0 as $t]).unwrap();
                    assert!(s.get().unwrap().to_bits() == v.to_bits());
                    s
                };
                for (side, uplo, t, d) in flags() {
                    let (rows, cols) = match side {
                        Side::Left => (n, nrhs),
                        Side::Right => (nrhs, n),
                    };
                    let b0 = Array2::from_shape_fn((rows, cols), |_| value(&mut r) as $t);
                    for alpha in [0.1 as $t, 3.3, -0.7, 1.0] {
                        let mut host = b0.clone();
                        $trsm(c, side, uplo, t, d, alpha, a.view(), host.view_mut()).unwrap();
                        let s = dev(alpha);
                        let mut on_dev = b0.clone();
                        $trsm(c, side, uplo, t, d, &s, a.view(), on_dev.view_mut()).unwrap();
                        let differ = host
                            .iter()
                            .zip(&on_dev)
                            .filter(|(h, g)| h.to_bits() != g.to_bits())
                            .count();
                        assert_eq!(
                            differ, 0,
                            "n {n}, {side:?} {uplo:?} {t:?} {d:?}, alpha {alpha}: {differ} \
                             elements differ between a host and a device alpha"
                        );
                        assert!(host != b0 || alpha == 1.0, "the solve left B as it was");
                    }
                }
                // Hand values (Left, Lower, No, NonUnit): A = [[1, ·], [1, 1]], B = [1, 2]ᵀ.
                // alpha = Inf: alpha·B = [Inf, Inf], x0 = Inf, x1 = Inf − 1·Inf = NaN. alpha =
                // 2^100 in f32 overflows alpha·B the same way. alpha = 0 gives 0 whatever A
                // holds (a zero pivot and NaN).
                let l = array![[1.0 as $t, <$t>::NAN], [1.0, 1.0]];
                let big = if std::mem::size_of::<$t>() == 4 {
                    2f64.powi(100)
                } else {
                    2f64.powi(1000)
                };
                let b2 = array![[1.0 as $t], [2.0]];
                let b_big = array![[2f64.powi(30) as $t], [2f64.powi(30) as $t]];
                let lb = array![[2f64.powi(-10) as $t, <$t>::NAN], [1.0, 1.0]];
                let bad = array![[0.0 as $t, <$t>::NAN], [<$t>::NAN, 0.0]];
                let nan_b = array![[<$t>::NAN], [<$t>::INFINITY]];
                let f = (Side::Left, Uplo::Lower, Transpose::No, Diag::NonUnit);
                let cases = [
                    (<$t>::INFINITY, &l, &b2, [<$t>::INFINITY, <$t>::NAN]),
                    (big as $t, &lb, &b_big, [<$t>::INFINITY, <$t>::NAN]),
                    (0.0, &bad, &nan_b, [0.0, 0.0]),
                ];
                for (alpha, a, b, want) in cases {
                    let s = dev(alpha);
                    for form in ["host", "device"] {
                        let mut x = b.clone();
                        let (av, xv) = (a.view(), x.view_mut());
                        if form == "host" {
                            $trsm(c, f.0, f.1, f.2, f.3, alpha, av, xv)
                        } else {
                            $trsm(c, f.0, f.1, f.2, f.3, &s, av, xv)
                        }
                        .unwrap();
                        let got = [x[[0, 0]], x[[1, 0]]];
                        let same = got
                            .iter()
                            .zip(&want)
                            .all(|(g, w)| g == w || g.is_nan() && w.is_nan());
                        assert!(same, "alpha {alpha} ({form}): {got:?}, want {want:?}");
                    }
                }
            }
        }
    };
}

device_alpha_bits!(
    strsm_device_alpha_gives_host_bits,
    f32,
    resident::sdot,
    blas::strsm
);
device_alpha_bits!(
    dtrsm_device_alpha_gives_host_bits,
    f64,
    resident::ddot,
    blas::dtrsm
);
