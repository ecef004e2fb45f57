//! The wgblas test suite: one binary, one module per routine, each with the seed's test kinds
//! (validation, fixtures against OpenBLAS with the DESIGN.md §2 metric, edge cases).
//! Tests need a GPU adapter (lavapipe on CPU-only machines) and fail loudly without one.

extern crate blas_src;

mod common;

mod axpy;
mod context;
mod dot;
mod gemm;
mod gemv;
mod ger;
mod oracle_l2;
mod symv;
mod syr;
mod syr2;
mod trmv;
mod trsv;

mod gemmtr;
mod level3_common;
mod level3_real_data;
mod oracle_l3;
mod symm;
mod syr2k;
mod syrk;
mod trmm;
mod trsm;

mod oracle_l1;

mod asum;
mod copy;
mod iamax;
mod level1_large;
mod nrm2;
mod rot;
mod rotm;
mod scal;
mod swap;

mod smoke {
    use crate::common::{self, *};
    use ndarray::Array2;
    use wgblas::prelude::*;

    #[test]
    fn smoke_gemm_gemv_trsv_dot_axpy() {
        let _ = ctx();
        let mut r = rng(1);
        let a = rand_mat(&mut r, 70, 33);
        let b = rand_mat(&mut r, 33, 130);
        let c = a.gpu_gemm(&b).unwrap();
        let d = a.dot(&b);
        let err = (&c - &d).iter().fold(0f32, |m, v| m.max(v.abs()));
        assert!(err < 1e-4, "gemm err {err}");
        let x = rand_vec(&mut r, 33);
        let y = a.gpu_gemv(&x).unwrap();
        let zero = ndarray::Array1::zeros(70);
        let reference =
            common::oracle::sgemv(Transpose::No, 1.0, a.view(), x.view(), 0.0, zero.view());
        let err = (&y - &reference).iter().fold(0f32, |m, v| m.max(v.abs()));
        assert!(err < 1e-4, "gemv err {err}");
        let y2 = a.t().gpu_gemv(&rand_vec(&mut r, 70)).unwrap();
        assert_eq!(y2.len(), 33);
        let dd = x.gpu_dot(&x).unwrap();
        assert!((dd - x.dot(&x)).abs() < 1e-4);
        let t = triangle(&mut r, 150, Uplo::Lower, 1.0);
        let bb = rand_vec(&mut r, 150);
        let xs = t
            .gpu_trsv(Uplo::Lower, Transpose::No, Diag::NonUnit, &bb)
            .unwrap();
        let tl = Array2::from_shape_fn((150, 150), |(i, j)| if i >= j { t[[i, j]] } else { 0.0 });
        let res = (&tl.dot(&xs) - &bb)
            .iter()
            .fold(0f32, |m, v| m.max(v.abs()));
        let xmax = xs.iter().fold(0f32, |m, v| m.max(v.abs()));
        let orc = common::oracle::strsv(
            Uplo::Lower,
            Transpose::No,
            Diag::NonUnit,
            t.view(),
            bb.view(),
        );
        let dif = (&orc - &xs).iter().fold(0f32, |m, v| m.max(v.abs()));
        assert!(
            res < 1e-5 * xmax,
            "trsv residual {res} xmax {xmax} diff to openblas {dif}"
        );
        let z = x.gpu_axpy(2.0, &x).unwrap();
        assert_eq!(z, &x * 3.0);
    }
}
