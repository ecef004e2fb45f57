//! Conjugate gradient on a real matrix, on the GPU with wgblas and on the CPU with OpenBLAS,
//! side by side.
//!
//! The matrix is SuiteSparse HB/1138_bus (1138×1138 symmetric positive definite power-network
//! admittance matrix, 2596 stored entries), densified, with symmetric diagonal scaling
//! `Â = D^-1/2·A·D^-1/2` (unit diagonal). The right-hand side is `b = Â·ones`, so the exact
//! solution is all ones. Both runs do the same f32 iteration (Hestenes & Stiefel 1952;
//! Saad, *Iterative Methods for Sparse Linear Systems*, Alg. 6.18) with sgemv, sdot and saxpy:
//! wgblas's `gpu_gemv`/`gpu_dot`/`gpu_axpy` (each call uploads its operands and reads the
//! result back) against OpenBLAS `cblas_sgemv`/`cblas_sdot`/`cblas_saxpy`.
//!
//! Run: `cargo run --release --example cg [path/to/matrix.mtx] [tolerance] [max_iterations]`

extern crate blas_src;

use std::time::Instant;

use ndarray::{Array1, Array2};
use wgblas::prelude::*;

#[path = "support/mtx.rs"]
mod mtx;

struct Outcome {
    x: Array1<f32>,
    iterations: usize,
    seconds: f64,
}

/// CG with pluggable BLAS: `gemv(A, p) = A·p`, `dot(x, y)`, `axpy(alpha, x, y) → alpha·x + y`.
fn cg<E>(
    a: &Array2<f32>,
    b: &Array1<f32>,
    tol: f64,
    max_iter: usize,
    gemv: impl Fn(&Array2<f32>, &Array1<f32>) -> Result<Array1<f32>, E>,
    dot: impl Fn(&Array1<f32>, &Array1<f32>) -> Result<f32, E>,
    axpy: impl Fn(f32, &Array1<f32>, &Array1<f32>) -> Result<Array1<f32>, E>,
) -> Result<Outcome, E> {
    let start = Instant::now();
    let mut x = Array1::<f32>::zeros(b.len());
    let mut r = b.clone();
    let mut p = r.clone();
    let mut rr = dot(&r, &r)?;
    let bnorm = (rr as f64).sqrt();
    let mut iterations = 0;
    while iterations < max_iter && (rr as f64).sqrt() > tol * bnorm {
        let q = gemv(a, &p)?;
        let alpha = rr / dot(&p, &q)?;
        x = axpy(alpha, &p, &x)?;
        r = axpy(-alpha, &q, &r)?;
        let rr_new = dot(&r, &r)?;
        p = axpy(rr_new / rr, &p, &r)?; // p ← r + beta·p
        rr = rr_new;
        iterations += 1;
    }
    Ok(Outcome {
        x,
        iterations,
        seconds: start.elapsed().as_secs_f64(),
    })
}

fn cblas_gemv(a: &Array2<f32>, x: &Array1<f32>) -> Result<Array1<f32>, String> {
    let (m, n) = a.dim();
    let mut y = Array1::<f32>::zeros(m);
    let a = a.as_standard_layout();
    unsafe {
        cblas_sys::cblas_sgemv(
            cblas_sys::CBLAS_LAYOUT::CblasRowMajor,
            cblas_sys::CBLAS_TRANSPOSE::CblasNoTrans,
            m as i32,
            n as i32,
            1.0,
            a.as_ptr(),
            n as i32,
            x.as_ptr(),
            1,
            0.0,
            y.as_mut_ptr(),
            1,
        )
    };
    Ok(y)
}

fn cblas_dot(x: &Array1<f32>, y: &Array1<f32>) -> Result<f32, String> {
    Ok(unsafe { cblas_sys::cblas_sdot(x.len() as i32, x.as_ptr(), 1, y.as_ptr(), 1) })
}

fn cblas_axpy(alpha: f32, x: &Array1<f32>, y: &Array1<f32>) -> Result<Array1<f32>, String> {
    let mut out = y.clone();
    unsafe { cblas_sys::cblas_saxpy(x.len() as i32, alpha, x.as_ptr(), 1, out.as_mut_ptr(), 1) };
    Ok(out)
}

/// `‖b − Â·x‖₂ / ‖b‖₂` and `‖x − ones‖₂ / ‖ones‖₂`, in f64.
fn report(name: &str, a: &Array2<f64>, b: &Array1<f64>, out: &Outcome) {
    let x = out.x.mapv(f64::from);
    let r = b - &a.dot(&x);
    let rel_res = r.dot(&r).sqrt() / b.dot(b).sqrt();
    let e = &x - 1.0;
    let rel_err = e.dot(&e).sqrt() / (x.len() as f64).sqrt();
    println!(
        "{name:<10} iterations {:>5}   relative residual {rel_res:.3e}   relative error {rel_err:.3e}   wall {:.3} s",
        out.iterations, out.seconds
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).cloned().unwrap_or_else(|| {
        let local = "data/1138_bus.mtx";
        if std::path::Path::new(local).exists() {
            local.to_string()
        } else {
            concat!(env!("CARGO_MANIFEST_DIR"), "/data/1138_bus.mtx").to_string()
        }
    });
    let tol: f64 = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(1e-5);
    let max_iter: usize = args.get(3).map(|s| s.parse()).transpose()?.unwrap_or(5000);

    let a64 = mtx::read_dense(&path)?;
    let n = a64.nrows();
    // Symmetric diagonal scaling: Â_ij = A_ij / sqrt(A_ii·A_jj).
    let d: Array1<f64> = a64.diag().mapv(|v| 1.0 / v.abs().sqrt());
    let a_hat = Array2::from_shape_fn((n, n), |(i, j)| a64[[i, j]] * d[i] * d[j]);
    let b64 = a_hat.dot(&Array1::<f64>::ones(n));
    let a = a_hat.mapv(|v| v as f32);
    let b = b64.mapv(|v| v as f32);
    let b64 = b.mapv(f64::from);

    let ctx = wgblas::Context::shared()?;
    let info = ctx.adapter_info();
    println!(
        "matrix: {path} ({n}x{n}, {} nonzeros, densified, diagonally scaled)",
        a64.iter().filter(|v| **v != 0.0).count()
    );
    println!(
        "adapter: {} ({:?}, {:?})",
        info.name, info.backend, info.device_type
    );
    println!("CG in f32, tolerance ‖r‖/‖b‖ ≤ {tol:e}, at most {max_iter} iterations, b = Â·ones");

    let gpu = cg(
        &a,
        &b,
        tol,
        max_iter,
        |a, p| a.gpu_gemv(p),
        |x, y| x.gpu_dot(y),
        |alpha, x, y| x.gpu_axpy(alpha, y),
    )?;
    let cpu = cg(&a, &b, tol, max_iter, cblas_gemv, cblas_dot, cblas_axpy)?;
    report("wgblas", &a_hat, &b64, &gpu);
    report("OpenBLAS", &a_hat, &b64, &cpu);
    Ok(())
}
