//! Conjugate gradient (Hestenes & Stiefel 1952; Saad, *Iterative Methods for Sparse Linear
//! Systems*, 2nd ed., Alg. 6.18) in f32, in two forms over the same BLAS calls:
//! - [`host_form`]: pluggable `gemv`/`dot`/`axpy` on ndarray arrays (wgblas's extension traits,
//!   each call uploading its operands and reading its result back, or OpenBLAS);
//! - [`resident_form`]: wgblas on `GpuVector`/`GpuMatrix`, with alpha and beta kept on the
//!   device as `GpuScalar`s and the convergence test read back every `check_every` iterations.
//!
//! Both do, per iteration: q = A·p; alpha = rr / (p·q); x ← alpha·p + x; r ← −alpha·q + r;
//! rr' = r·r; p ← (rr'/rr)·p + r. Shared by `examples/cg.rs` and the test suite (`#[path]`).

#![allow(dead_code)]

use std::time::Instant;

use ndarray::{Array1, Array2};
use wgblas::{blas, resident, Context, GpuVector, Transpose};

/// What a run gives: the iterate, the iterations done, and the wall time.
pub struct Outcome {
    pub x: Array1<f32>,
    pub iterations: usize,
    pub seconds: f64,
}

/// CG with pluggable BLAS: `gemv(A, p) = A·p`, `dot(x, y)`, `axpy(alpha, x, y) = alpha·x + y`.
/// Stops when ‖r‖ ≤ tol·‖b‖ (checked every iteration) or after `max_iter` iterations.
#[allow(clippy::type_complexity)]
pub fn host_form<E>(
    a: &Array2<f32>,
    b: &Array1<f32>,
    tol: f64,
    max_iter: usize,
    gemv: impl Fn(&Array2<f32>, &Array1<f32>) -> Result<Array1<f32>, E>,
    dot: impl Fn(&Array1<f32>, &Array1<f32>) -> Result<f32, E>,
    axpy: impl Fn(f32, &Array1<f32>, &Array1<f32>) -> Result<Array1<f32>, E>,
) -> Result<Outcome, E> {
    host_form_div(a, b, tol, max_iter, gemv, dot, axpy, |p, q| Ok(p / q))
}

/// [`host_form`] with the divisions (alpha and beta) pluggable too: `div(p, q) = p / q`.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn host_form_div<E>(
    a: &Array2<f32>,
    b: &Array1<f32>,
    tol: f64,
    max_iter: usize,
    gemv: impl Fn(&Array2<f32>, &Array1<f32>) -> Result<Array1<f32>, E>,
    dot: impl Fn(&Array1<f32>, &Array1<f32>) -> Result<f32, E>,
    axpy: impl Fn(f32, &Array1<f32>, &Array1<f32>) -> Result<Array1<f32>, E>,
    div: impl Fn(f32, f32) -> Result<f32, E>,
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
        let alpha = div(rr, dot(&p, &q)?)?;
        x = axpy(alpha, &p, &x)?;
        r = axpy(-alpha, &q, &r)?;
        let rr_new = dot(&r, &r)?;
        p = axpy(div(rr_new, rr)?, &p, &r)?;
        rr = rr_new;
        iterations += 1;
    }
    Ok(Outcome {
        x,
        iterations,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// CG on resident data: A, b uploaded once; alpha, beta as `GpuScalar`s (never read back);
/// ‖r‖ read back every `check_every` iterations (so up to `check_every − 1` iterations more
/// than the host form may run); x read back once at the end.
pub fn resident_form(
    ctx: &Context,
    a: &Array2<f32>,
    b: &Array1<f32>,
    tol: f64,
    max_iter: usize,
    check_every: usize,
) -> wgblas::Result<Outcome> {
    resident_form_with(ctx, a, b, tol, max_iter, check_every, Update::Reuse, |_| {})
}

/// How the resident loop forms p ← beta·p + r (the same arithmetic either way: t = r exactly,
/// then t ← beta·p + t, one saxpy, so the iterates are the same bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Update {
    /// A fresh zeroed `t` each iteration, then t ← 1·r + t and t ← beta·p + t; p = t (a
    /// device allocation and a clear command, which ends the compute pass, per iteration).
    Fresh,
    /// `t` allocated once: t ← r (scopy), t ← beta·p + t, then p and t swapped (no allocation
    /// and no clear in the loop).
    Reuse,
}

/// [`resident_form`], calling `on_iteration(k)` after iteration k is encoded (for a progress
/// indicator; the call does not wait for the device), with p's update done as `update` says.
#[allow(clippy::too_many_arguments)]
pub fn resident_form_with(
    ctx: &Context,
    a: &Array2<f32>,
    b: &Array1<f32>,
    tol: f64,
    max_iter: usize,
    check_every: usize,
    update: Update,
    mut on_iteration: impl FnMut(usize),
) -> wgblas::Result<Outcome> {
    let start = Instant::now();
    let n = b.len();
    let ga = ctx.upload_matrix(a)?;
    let mut x = GpuVector::<f32>::zeros(ctx, n)?;
    let mut r = ctx.upload_vector(b)?;
    let mut p = ctx.upload_vector(b)?;
    let mut q = GpuVector::<f32>::zeros(ctx, n)?;
    // p's next value, swapped with p each iteration (`Update::Reuse`).
    let mut t = GpuVector::<f32>::zeros(ctx, n)?;
    let mut rr = resident::sdot(ctx, &r, &r)?;
    let bnorm = (rr.get()? as f64).sqrt();
    let mut iterations = 0;
    while iterations < max_iter {
        blas::sgemv(ctx, Transpose::No, 1.0, &ga, &p, 0.0, &mut q)?;
        let alpha = rr.div(&resident::sdot(ctx, &p, &q)?)?;
        blas::saxpy(ctx, &alpha, &p, &mut x)?;
        blas::saxpy(ctx, &alpha.neg()?, &q, &mut r)?;
        let rr_new = resident::sdot(ctx, &r, &r)?;
        let beta = rr_new.div(&rr)?;
        // p ← beta·p + r, as the host form's axpy(beta, p, r): t = r, then t ← beta·p + t.
        match update {
            Update::Fresh => {
                let mut t = GpuVector::<f32>::zeros(ctx, n)?;
                blas::saxpy(ctx, 1.0, &r, &mut t)?;
                blas::saxpy(ctx, &beta, &p, &mut t)?;
                p = t;
            }
            Update::Reuse => {
                blas::scopy(ctx, &r, &mut t)?;
                blas::saxpy(ctx, &beta, &p, &mut t)?;
                std::mem::swap(&mut p, &mut t);
            }
        }
        rr = rr_new;
        iterations += 1;
        on_iteration(iterations);
        if iterations % check_every == 0 && (rr.get()? as f64).sqrt() <= tol * bnorm {
            break;
        }
    }
    let x = x.to_array()?;
    Ok(Outcome {
        x,
        iterations,
        seconds: start.elapsed().as_secs_f64(),
    })
}
