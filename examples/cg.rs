//! Conjugate gradient on a real matrix, on the GPU with wgblas and on the CPU with OpenBLAS,
//! side by side.
//!
//! The matrix is SuiteSparse HB/1138_bus (1138×1138 symmetric positive definite power-network
//! admittance matrix, 2596 stored entries), densified, with symmetric diagonal scaling
//! `Â = D^-1/2·A·D^-1/2` (unit diagonal). The right-hand side is `b = Â·ones`, so the exact
//! solution is all ones. Three runs do the same f32 iteration (Hestenes & Stiefel 1952;
//! Saad, *Iterative Methods for Sparse Linear Systems*, Alg. 6.18; `support/cg.rs`) with sgemv,
//! sdot and saxpy:
//! - wgblas, host form: `gpu_gemv`/`gpu_dot`/`gpu_axpy` on ndarray arrays (each call uploads
//!   its operands and reads the result back);
//! - wgblas, resident: `GpuMatrix`/`GpuVector` uploaded once, alpha and beta kept on the device
//!   as `GpuScalar`s, the convergence test read back every 10 iterations;
//! - OpenBLAS `cblas_sgemv`/`cblas_sdot`/`cblas_saxpy`.
//!
//! Run: `cargo run --release --example cg [path/to/matrix.mtx] [tolerance] [max_iterations]`

extern crate blas_src;

use ndarray::{Array1, Array2};
use wgblas::prelude::*;

#[path = "support/cg.rs"]
mod cg;
#[path = "support/mtx.rs"]
mod mtx;

use cg::Outcome;

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
        "{name:<17} iterations {:>5}   relative residual {rel_res:.3e}   relative error {rel_err:.3e}   wall {:.3} s",
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

    let gpu = cg::host_form(
        &a,
        &b,
        tol,
        max_iter,
        |a, p| a.gpu_gemv(p),
        |x, y| x.gpu_dot(y),
        |alpha, x, y| x.gpu_axpy(alpha, y),
    )?;
    let resident = cg::resident_form(ctx, &a, &b, tol, max_iter, 10)?;
    let cpu = cg::host_form(&a, &b, tol, max_iter, cblas_gemv, cblas_dot, cblas_axpy)?;
    report("wgblas host form", &a_hat, &b64, &gpu);
    report("wgblas resident", &a_hat, &b64, &resident);
    report("OpenBLAS", &a_hat, &b64, &cpu);
    println!(
        "host form: every call uploads its operands and reads back; resident: A and b uploaded once, \
         alpha and beta stay on the device, ‖r‖ read back every 10 iterations"
    );
    Ok(())
}
