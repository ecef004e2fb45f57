//! The OpenBLAS oracle for the Level 3 routines beyond sgemm, through CBLAS on C-order copies of
//! the logical operands (row-major calls), like `common::oracle`.
//!
//! Debian's OpenBLAS 0.3.21 has no `sgemmtr`: its oracle is `sgemm` with the result masked to
//! the triangle, the other triangle taken from the input C unchanged.

use cblas_sys::*;
use ndarray::{Array2, ArrayView2};
use wgblas::{Diag, Side, Transpose, Uplo};

fn trans(t: Transpose) -> CBLAS_TRANSPOSE {
    match t {
        Transpose::No => CBLAS_TRANSPOSE::CblasNoTrans,
        Transpose::Yes => CBLAS_TRANSPOSE::CblasTrans,
    }
}
fn uplo(u: Uplo) -> CBLAS_UPLO {
    match u {
        Uplo::Upper => CBLAS_UPLO::CblasUpper,
        Uplo::Lower => CBLAS_UPLO::CblasLower,
    }
}
fn diag(d: Diag) -> CBLAS_DIAG {
    match d {
        Diag::NonUnit => CBLAS_DIAG::CblasNonUnit,
        Diag::Unit => CBLAS_DIAG::CblasUnit,
    }
}
fn side(s: Side) -> CBLAS_SIDE {
    match s {
        Side::Left => CBLAS_SIDE::CblasLeft,
        Side::Right => CBLAS_SIDE::CblasRight,
    }
}
fn c(a: &ArrayView2<f32>) -> Array2<f32> {
    a.as_standard_layout().into_owned()
}
fn ld(a: &Array2<f32>) -> i32 {
    a.ncols().max(1) as i32
}

pub fn ssyrk(
    u: Uplo,
    t: Transpose,
    alpha: f32,
    a: ArrayView2<f32>,
    beta: f32,
    cm: ArrayView2<f32>,
) -> Array2<f32> {
    let (a, mut cc) = (c(&a), c(&cm));
    let n = cc.nrows();
    let k = if t == Transpose::No {
        a.ncols()
    } else {
        a.nrows()
    };
    unsafe {
        cblas_ssyrk(
            CBLAS_LAYOUT::CblasRowMajor,
            uplo(u),
            trans(t),
            n as i32,
            k as i32,
            alpha,
            a.as_ptr(),
            ld(&a),
            beta,
            cc.as_mut_ptr(),
            n.max(1) as i32,
        )
    };
    cc
}

#[allow(clippy::too_many_arguments)]
pub fn ssymm(
    s: Side,
    u: Uplo,
    alpha: f32,
    a: ArrayView2<f32>,
    b: ArrayView2<f32>,
    beta: f32,
    cm: ArrayView2<f32>,
) -> Array2<f32> {
    let (a, b, mut cc) = (c(&a), c(&b), c(&cm));
    let (m, n) = cc.dim();
    unsafe {
        cblas_ssymm(
            CBLAS_LAYOUT::CblasRowMajor,
            side(s),
            uplo(u),
            m as i32,
            n as i32,
            alpha,
            a.as_ptr(),
            ld(&a),
            b.as_ptr(),
            ld(&b),
            beta,
            cc.as_mut_ptr(),
            n.max(1) as i32,
        )
    };
    cc
}

#[allow(clippy::too_many_arguments)]
pub fn strsm(
    s: Side,
    u: Uplo,
    t: Transpose,
    d: Diag,
    alpha: f32,
    a: ArrayView2<f32>,
    b: ArrayView2<f32>,
) -> Array2<f32> {
    let (a, mut bb) = (c(&a), c(&b));
    let (m, n) = bb.dim();
    unsafe {
        cblas_strsm(
            CBLAS_LAYOUT::CblasRowMajor,
            side(s),
            uplo(u),
            trans(t),
            diag(d),
            m as i32,
            n as i32,
            alpha,
            a.as_ptr(),
            ld(&a),
            bb.as_mut_ptr(),
            n.max(1) as i32,
        )
    };
    bb
}
