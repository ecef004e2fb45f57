//! The f64 routines through their other forms: every extension-trait method on f64 arrays,
//! device scalars (`GpuScalar<f64>`) as alpha and beta, and operands past one storage
//! binding, against OpenBLAS or hand-computed values (helpers from `f64_level2`).

use ndarray::{array, Array1, Array2};
use wgblas::metrics::{self, bounds};
use wgblas::prelude::*;
use wgblas::{blas, Uplo};

use crate::common::*;
use crate::describe;
use crate::describe::Elem;
use crate::dgemm::rand64;
use crate::f64_level1::view;
use wgblas::{
    Diag::{NonUnit, Unit},
    Side::Left,
    Transpose::{No, Yes},
    Uplo::{Lower, Upper},
};

pub use crate::f64_level2::*;

/// Every `gpu_*` method of the extension traits on f64 arrays (one generic impl over
/// `ext::Float`), and the generic resident short methods on `GpuMatrix<f64>` /
/// `GpuVector<f64>`: small integer data, so every f64 result is exact and compared with the
/// host computation for equality; each `_inplace` form against its plain form.
#[test]
fn extension_traits_on_f64_arrays() {
    let a = array![[2.0f64, -1.0, 3.0], [1.0, 4.0, -2.0], [0.0, 1.0, 5.0]];
    let b = array![[1.0f64, 0.0, -1.0], [2.0, 1.0, 0.0], [-1.0, 3.0, 1.0]];
    let x = array![1.0f64, -2.0, 3.0];
    let y = array![2.0f64, 0.0, -1.0];
    let tri = |m: &Array2<f64>, uplo: Uplo, unit: bool| {
        Array2::from_shape_fn(m.dim(), |(i, j)| {
            if unit && i == j {
                1.0
            } else if in_triangle(uplo, i, j) {
                m[[i, j]]
            } else {
                0.0
            }
        })
    };
    let sym = |m: &Array2<f64>, uplo: Uplo| {
        Array2::from_shape_fn(m.dim(), |(i, j)| {
            if in_triangle(uplo, i, j) {
                m[[i, j]]
            } else {
                m[[j, i]]
            }
        })
    };
    // Level 1.
    assert_eq!(x.gpu_dot(&y).unwrap(), -1.0);
    assert_eq!(x.gpu_axpy(2.0, &y).unwrap(), &x * 2.0 + &y);
    let mut z = y.clone();
    x.gpu_axpy_inplace(2.0, &mut z).unwrap();
    assert_eq!(z, &x * 2.0 + &y);
    assert_eq!(x.gpu_copy().unwrap(), x);
    let mut z = Array1::zeros(3);
    x.gpu_copy_inplace(&mut z).unwrap();
    assert_eq!(z, x);
    assert_eq!(x.gpu_scal(3.0).unwrap(), &x * 3.0);
    z.gpu_scal_inplace(3.0).unwrap();
    assert_eq!(z, &x * 3.0);
    assert_eq!(array![2.0f64, -1.0, 2.0].gpu_nrm2().unwrap(), 3.0);
    assert_eq!(x.gpu_iamax().unwrap(), 2);
    assert_eq!(x.gpu_asum().unwrap(), 6.0);
    let (rx, ry) = x.gpu_rot(&y, 0.0, 1.0).unwrap();
    assert_eq!((rx, ry), (y.clone(), -&x));
    let param = [-1.0, 1.0, 2.0, 3.0, 4.0]; // H = [[1, 3], [2, 4]]
    let (mx, my) = x.gpu_rotm(&y, param).unwrap();
    assert_eq!(mx, &x + &(&y * 3.0));
    assert_eq!(my, &x * 2.0 + &(&y * 4.0));
    let (mut p, mut q) = (x.clone(), y.clone());
    p.gpu_rotm_inplace(&mut q, param).unwrap();
    assert_eq!((p.clone(), q.clone()), (mx.clone(), my.clone()));
    p.gpu_rot_inplace(&mut q, 0.0, 1.0).unwrap();
    assert_eq!((p, q), (my, -&mx));
    let (mut p2, mut q2) = (x.clone(), y.clone());
    p2.gpu_swap(&mut q2).unwrap();
    assert_eq!((p2, q2), (y.clone(), x.clone()));
    // Level 2.
    assert_eq!(a.gpu_gemv(&x).unwrap(), a.dot(&x));
    let mut z = y.clone();
    a.gpu_gemv_inplace(2.0, &x, 1.0, &mut z).unwrap();
    assert_eq!(z, a.dot(&x) * 2.0 + &y);
    let l = tri(&a, Lower, false);
    let lb = l.dot(&x);
    assert_eq!(a.gpu_trsv(Lower, No, NonUnit, &lb).unwrap(), x);
    let mut z = lb.clone();
    a.gpu_trsv_inplace(Lower, No, NonUnit, &mut z).unwrap();
    assert_eq!(z, x);
    assert_eq!(a.gpu_symv(Upper, &x).unwrap(), sym(&a, Upper).dot(&x));
    let mut z = y.clone();
    a.gpu_symv_inplace(Upper, -1.0, &x, 2.0, &mut z).unwrap();
    assert_eq!(z, &y * 2.0 - sym(&a, Upper).dot(&x));
    let u1 = tri(&a, Upper, true);
    assert_eq!(a.gpu_trmv(Upper, Yes, Unit, &x).unwrap(), u1.t().dot(&x));
    let mut z = x.clone();
    a.gpu_trmv_inplace(Upper, Yes, Unit, &mut z).unwrap();
    assert_eq!(z, u1.t().dot(&x));
    let outer =
        |u: &Array1<f64>, v: &Array1<f64>| Array2::from_shape_fn((3, 3), |(i, j)| u[i] * v[j]);
    assert_eq!(x.gpu_ger(1.0, &y, &a).unwrap(), &a + &outer(&x, &y));
    let mut m = a.clone();
    x.gpu_ger_inplace(1.0, &y, &mut m).unwrap();
    assert_eq!(m, &a + &outer(&x, &y));
    let keep_other = |new: Array2<f64>, uplo: Uplo| {
        Array2::from_shape_fn((3, 3), |(i, j)| {
            if in_triangle(uplo, i, j) {
                new[[i, j]]
            } else {
                a[[i, j]]
            }
        })
    };
    let want = keep_other(&a + &outer(&x, &x), Upper);
    assert_eq!(x.gpu_syr(Upper, 1.0, &a).unwrap(), want);
    let mut m = a.clone();
    x.gpu_syr_inplace(Upper, 1.0, &mut m).unwrap();
    assert_eq!(m, want);
    let want = keep_other(&a + &outer(&x, &y) + &outer(&y, &x), Lower);
    assert_eq!(x.gpu_syr2(Lower, 1.0, &y, &a).unwrap(), want);
    let mut m = a.clone();
    x.gpu_syr2_inplace(Lower, 1.0, &y, &mut m).unwrap();
    assert_eq!(m, want);
    // Level 3 (the plain forms write zeros outside the triangle of a triangular output).
    let want = tri(&a.dot(&b), Lower, false);
    assert_eq!(a.gpu_gemmtr(Lower, &b).unwrap(), want);
    let mut m = Array2::zeros((3, 3));
    a.gpu_gemmtr_inplace(Lower, 1.0, &b, 0.0, &mut m).unwrap();
    assert_eq!(m, want);
    let want = tri(&a.dot(&a.t()), Upper, false);
    assert_eq!(a.gpu_syrk(Upper).unwrap(), want);
    let mut m = Array2::zeros((3, 3));
    a.gpu_syrk_inplace(Upper, 1.0, 0.0, &mut m).unwrap();
    assert_eq!(m, want);
    let want = tri(&(a.dot(&b.t()) + b.dot(&a.t())), Lower, false);
    assert_eq!(a.gpu_syr2k(Lower, &b).unwrap(), want);
    let mut m = Array2::zeros((3, 3));
    a.gpu_syr2k_inplace(Lower, 1.0, &b, 0.0, &mut m).unwrap();
    assert_eq!(m, want);
    let want = sym(&a, Upper).dot(&b);
    assert_eq!(a.gpu_symm(Left, Upper, &b).unwrap(), want);
    let mut m = Array2::zeros((3, 3));
    a.gpu_symm_inplace(Left, Upper, 1.0, &b, 0.0, &mut m)
        .unwrap();
    assert_eq!(m, want);
    let want = l.dot(&b);
    let (lo, no, nu) = (Lower, No, NonUnit);
    assert_eq!(a.gpu_trmm(Left, lo, no, nu, &b).unwrap(), want);
    let mut m = b.clone();
    a.gpu_trmm_inplace(Left, lo, no, nu, 1.0, &mut m).unwrap();
    assert_eq!(m, want);
    assert_eq!(a.gpu_trsm(Left, lo, no, nu, &want).unwrap(), b);
    a.gpu_trsm_inplace(Left, lo, no, nu, 1.0, &mut m).unwrap();
    assert_eq!(m, b);
    // Resident short forms on f64.
    let c = ctx();
    let (ga, gb) = (c.upload_matrix(&a).unwrap(), c.upload_matrix(&b).unwrap());
    assert_eq!(ga.gpu_gemm(&gb).unwrap().to_array().unwrap(), a.dot(&b));
    let (gx, gy) = (c.upload_vector(&x).unwrap(), c.upload_vector(&y).unwrap());
    assert_eq!(ga.gpu_gemv(&gx).unwrap().to_array().unwrap(), a.dot(&x));
    assert_eq!(gx.gpu_dot(&gy).unwrap().get().unwrap(), -1.0);
    assert_eq!(
        gx.gpu_axpy(2.0, &gy).unwrap().to_array().unwrap(),
        &x * 2.0 + &y
    );
    assert_eq!(gy.to_array().unwrap(), y);
}

/// dsymv with device scalars (`&GpuScalar<f64>`, here results of `resident::ddot`): the same
/// result as the same values on the host, bit for bit, and the rules of DESIGN.md §3 applied
/// by the kernel to the device value (alpha = 0 reads neither A nor x, beta = 0 never reads y,
/// alpha = 0 with beta = 1 leaves y as it was, a NaN alpha is not 0); a device scalar of
/// another context is an error naming the argument.
#[test]
fn dsymv_device_scalars() {
    // Both forms on the same kernel: no lab switch set by another test meanwhile.
    let _lab = crate::bandwidth::lab_defaults();
    let c = ctx();
    // A device scalar holding v: ddot([v], [1]) on the device.
    let kept = |v: f64| f64::device(c, v).unwrap();
    let n = 37;
    let full = rand64(21, (n, n));
    let a = poisoned(&full, Lower, NonUnit);
    let (x, y0) = (vec64(22, n), vec64(23, n));
    for (alpha, beta) in [(0.7, -1.3), (2.0, 1.0), (-0.5, 0.0), (0.0, 0.9)] {
        let mut host = y0.clone();
        blas::dsymv(c, Lower, alpha, a.view(), x.view(), beta, host.view_mut()).unwrap();
        let (da, db) = (kept(alpha), kept(beta));
        let mut dev = y0.clone();
        blas::dsymv(c, Lower, &da, a.view(), x.view(), &db, dev.view_mut()).unwrap();
        assert!(
            dev.iter()
                .zip(&host)
                .all(|(d, h)| d.to_bits() == h.to_bits()),
            "alpha {alpha} beta {beta}: {dev} vs {host}"
        );
    }
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    let nan_a = Array2::from_elem((2, 2), nan);
    // Device alpha = 0: A and x not read; device beta = 0: y not read.
    let mut y = array![1.0f64, 2.0];
    blas::dsymv(
        c,
        Upper,
        &kept(0.0),
        nan_a.view(),
        array![inf, nan].view(),
        &kept(3.0),
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, array![3.0, 6.0]);
    let a2 = array![[1.0f64, 2.0], [nan, 3.0]];
    let mut y = array![nan, inf];
    blas::dsymv(
        c,
        Upper,
        &kept(1.0),
        a2.view(),
        array![1.0, 1.0].view(),
        &kept(0.0),
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, array![3.0, 5.0]);
    // Device alpha = 0 and beta = 1: y bit for bit as it was (-0 and NaN included).
    let mut y = array![-0.0f64, nan];
    blas::dsymv(
        c,
        Upper,
        &kept(0.0),
        nan_a.view(),
        array![1.0, 1.0].view(),
        &kept(1.0),
        y.view_mut(),
    )
    .unwrap();
    assert!(
        y[0] == 0.0 && y[0].is_sign_negative() && y[1].is_nan(),
        "{y}"
    );
    // A NaN device alpha is not 0.
    let mut y = array![1.0f64, 1.0];
    blas::dsymv(
        c,
        Upper,
        &kept(nan),
        a2.view(),
        array![1.0, 1.0].view(),
        0.0,
        y.view_mut(),
    )
    .unwrap();
    assert!(y.iter().all(|v| v.is_nan()), "{y}");
    // A scalar of another context: an error naming it, y unchanged.
    let other = wgblas::Context::new().unwrap();
    let (g1, g2) = (
        other.upload_vector(&array![1.0f64]).unwrap(),
        other.upload_vector(&array![1.0f64]).unwrap(),
    );
    let foreign = wgblas::resident::ddot(&other, &g1, &g2).unwrap();
    let mut y = array![5.0f64, 5.0];
    let err = blas::dsymv(
        c,
        Upper,
        1.0,
        a2.view(),
        array![1.0, 1.0].view(),
        &foreign,
        y.view_mut(),
    )
    .unwrap_err();
    describe::assert_named(&err, ("InvalidArgument", "dsymv", "beta"));
    assert_eq!(y, array![5.0, 5.0]);
}

/// dgemv, dgemm and dgemm_batched with device scalars: bit-equal to the same values on the
/// host, and the alpha = 0 / beta = 0 rules applied to the device values (NaN in the operands
/// the rules say are not read does not leak).
#[test]
fn dgemv_dgemm_device_scalars() {
    // Both forms on the same kernel: no lab switch set by another test meanwhile.
    let _lab = crate::bandwidth::lab_defaults();
    let c = ctx();
    // A device scalar holding v: ddot([v], [1]) on the device.
    let kept = |v: f64| f64::device(c, v).unwrap();
    let (a, b, c0) = (rand64(31, (9, 7)), rand64(32, (7, 5)), rand64(33, (9, 5)));
    let (x, y0) = (vec64(34, 7), vec64(35, 9));
    let bits = |u: &[f64], v: &[f64]| u.iter().zip(v).all(|(p, q)| p.to_bits() == q.to_bits());
    for (alpha, beta) in [(0.7, -1.3), (1.0, 0.0), (-2.0, 1.0)] {
        let (da, db) = (kept(alpha), kept(beta));
        let (mut yh, mut yd) = (y0.clone(), y0.clone());
        blas::dgemv(c, No, alpha, a.view(), x.view(), beta, yh.view_mut()).unwrap();
        blas::dgemv(c, No, &da, a.view(), x.view(), &db, yd.view_mut()).unwrap();
        assert!(
            bits(yh.as_slice().unwrap(), yd.as_slice().unwrap()),
            "dgemv {alpha} {beta}"
        );
        let (mut ch, mut cd) = (c0.clone(), c0.clone());
        let no = No;
        blas::dgemm(c, no, no, alpha, a.view(), b.view(), beta, ch.view_mut()).unwrap();
        blas::dgemm(c, no, no, &da, a.view(), b.view(), &db, cd.view_mut()).unwrap();
        assert!(
            bits(ch.as_slice().unwrap(), cd.as_slice().unwrap()),
            "dgemm {alpha} {beta}"
        );
        let a3 = a.broadcast((3, 9, 7)).unwrap();
        let b3 = b.broadcast((3, 7, 5)).unwrap();
        let mut c3h = c0.broadcast((3, 9, 5)).unwrap().to_owned();
        let mut c3d = c3h.clone();
        blas::dgemm_batched(c, no, no, alpha, a3, b3, beta, c3h.view_mut()).unwrap();
        blas::dgemm_batched(c, no, no, &da, a3, b3, &db, c3d.view_mut()).unwrap();
        assert!(
            bits(c3h.as_slice().unwrap(), c3d.as_slice().unwrap()),
            "batched {alpha} {beta}"
        );
    }
    // Device alpha = 0: A and B (A and x) not read; device beta = 0: C (y) not read.
    let nan_a = Array2::from_elem((2, 2), f64::NAN);
    let mut cm = array![[1.0f64, 2.0], [3.0, 4.0]];
    let no = No;
    blas::dgemm(
        c,
        no,
        no,
        &kept(0.0),
        nan_a.view(),
        nan_a.view(),
        &kept(2.0),
        cm.view_mut(),
    )
    .unwrap();
    assert_eq!(cm, array![[2.0, 4.0], [6.0, 8.0]]);
    let mut cm = Array2::from_elem((2, 2), f64::NAN);
    let one = Array2::<f64>::eye(2);
    blas::dgemm(
        c,
        no,
        no,
        &kept(1.0),
        one.view(),
        one.view(),
        &kept(0.0),
        cm.view_mut(),
    )
    .unwrap();
    assert_eq!(cm, one);
    let mut y = array![1.0f64, 2.0];
    let inf_x = array![f64::INFINITY, f64::NAN];
    blas::dgemv(
        c,
        no,
        &kept(0.0),
        nan_a.view(),
        inf_x.view(),
        &kept(1.0),
        y.view_mut(),
    )
    .unwrap();
    assert_eq!(y, array![1.0, 2.0]);
    // daxpy and dscal: bit-equal to host alpha; a device alpha = 0 leaves y untouched, x unread.
    for alpha in [0.7, -3.0, 1.0] {
        let (mut yh, mut yd) = (x.clone(), x.clone());
        let z = vec64(36, 7);
        blas::daxpy(c, alpha, z.view(), yh.view_mut()).unwrap();
        blas::daxpy(c, &kept(alpha), z.view(), yd.view_mut()).unwrap();
        assert!(
            bits(yh.as_slice().unwrap(), yd.as_slice().unwrap()),
            "daxpy {alpha}"
        );
        let (mut sh, mut sd) = (z.clone(), z.clone());
        blas::dscal(c, alpha, sh.view_mut()).unwrap();
        blas::dscal(c, &kept(alpha), sd.view_mut()).unwrap();
        assert!(
            bits(sh.as_slice().unwrap(), sd.as_slice().unwrap()),
            "dscal {alpha}"
        );
    }
    let mut y = array![-0.0f64, 2.0];
    blas::daxpy(c, &kept(0.0), inf_x.view(), y.view_mut()).unwrap();
    assert!(y[0] == 0.0 && y[0].is_sign_negative() && y[1] == 2.0, "{y}");
    let mut y = array![1.0f64, 2.0];
    blas::daxpy(c, &kept(f64::NAN), array![1.0, 1.0].view(), y.view_mut()).unwrap();
    assert!(y.iter().all(|v| v.is_nan()), "{y}");
}

/// Past one storage binding (issue 15), on a private context whose binding is lowered to
/// 4 KiB (512 f64): A and the vectors go in blocks and parts, against OpenBLAS with the same
/// bounds and thresholds; the other triangle untouched.
#[test]
fn past_one_binding_in_blocks() {
    let own = wgblas::Context::new().unwrap();
    assert_eq!(own.set_max_binding(4096), 4096);
    let n = 45;
    let (x, y) = (vec64(41, n), vec64(42, n));
    // dger on a 45×40 A, x reversed.
    let a = rand64(43, (n, 40));
    let mut got = a.clone();
    let xb = stored(&x, -1);
    let y40 = vec64(44, 40);
    blas::dger(&own, 0.7, view(&xb, -1), y40.view(), got.view_mut()).unwrap();
    let want = oracle_ger(0.7, &x, &y40, &a);
    let bound = bounds::ger(0.7, x.view(), y40.view(), a.view());
    let f = metrics::forward_factor_f64(&got, &want, &bound).unwrap();
    assert!(f <= threshold("sger"), "dger in blocks: {f}");
    for uplo in UPLOS {
        let a = poisoned(&rand64(45, (n, n)), uplo, NonUnit);
        let mask = |m: &Array2<f64>| {
            Array2::from_shape_fn(m.dim(), |(i, j)| {
                if in_triangle(uplo, i, j) {
                    m[[i, j]]
                } else {
                    0.0
                }
            })
        };
        for two in [false, true] {
            let mut got = a.clone();
            if two {
                blas::dsyr2(&own, uplo, -0.6, x.view(), y.view(), got.view_mut()).unwrap();
            } else {
                blas::dsyr(&own, uplo, -0.6, x.view(), got.view_mut()).unwrap();
            }
            let want = oracle_syr(uplo, -0.6, &x, two.then_some(&y), &a);
            let (bound, t) = if two {
                (
                    bounds::syr2(uplo, -0.6, x.view(), y.view(), a.view()),
                    threshold("ssyr2"),
                )
            } else {
                (
                    bounds::syr(uplo, -0.6, x.view(), a.view()),
                    threshold("ssyr"),
                )
            };
            for ((i, j), v) in got.indexed_iter() {
                assert!(
                    in_triangle(uplo, i, j) || v.is_nan(),
                    "wrote outside {uplo:?}"
                );
            }
            let f = metrics::forward_factor_f64(&mask(&got), &mask(&want), &bound).unwrap();
            assert!(f <= t, "two={two} {uplo:?} in blocks: {f}");
        }
    }
    for uplo in UPLOS {
        // dsymv, device beta included (the first product of each row block applies it).
        let full = rand64(46, (n, n));
        let sym = Array2::from_shape_fn((n, n), |(i, j)| full[[i.max(j), i.min(j)]]);
        let a = poisoned(&sym, uplo, NonUnit);
        let y0 = vec64(47, n);
        let (one, b) = (
            own.upload_vector(&array![1.0f64]).unwrap(),
            own.upload_vector(&array![-0.8f64]).unwrap(),
        );
        let beta = wgblas::resident::ddot(&own, &b, &one).unwrap();
        let mut got = y0.clone();
        blas::dsymv(&own, uplo, 0.9, a.view(), x.view(), &beta, got.view_mut()).unwrap();
        let want = oracle_symv(uplo, 0.9, &a, &x, -0.8, &y0);
        let bound = bounds::symv(uplo, 0.9, a.view(), x.view(), -0.8, y0.view());
        let f = metrics::forward_factor_f64(&got, &want, &bound).unwrap();
        assert!(f <= threshold("ssymv"), "dsymv {uplo:?} in blocks: {f}");
        for trans in TRANS {
            for diag in DIAGS {
                // dtrmv.
                let a = poisoned(&rand64(48, (n, n)), uplo, diag);
                let mut got = x.clone();
                blas::dtrmv(&own, uplo, trans, diag, a.view(), got.view_mut()).unwrap();
                let want = oracle_trmv(uplo, trans, diag, &a, &x);
                let bound = bounds::trmv(uplo, trans, diag, a.view(), x.view());
                let f = metrics::forward_factor_f64(&got, &want, &bound).unwrap();
                assert!(
                    f <= threshold("strmv"),
                    "dtrmv {uplo:?} {trans:?} {diag:?} in blocks: {f}"
                );
                // dtrsv.
                let a = poisoned(&triangular(49, n), uplo, diag);
                let mut got = y.clone();
                blas::dtrsv(&own, uplo, trans, diag, a.view(), got.view_mut()).unwrap();
                let r = metrics::trsv_residual(uplo, trans, diag, a.view(), got.view(), y.view())
                    .unwrap();
                let bound = bounds::trsv(uplo, trans, diag, a.view(), got.view());
                let f = metrics::backward_residual_factor_f64(&r, &bound).unwrap();
                assert!(
                    f <= threshold("strsv"),
                    "dtrsv {uplo:?} {trans:?} {diag:?} in blocks: {f}"
                );
            }
        }
    }
}
