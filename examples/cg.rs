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
//! Each solver's line is printed as it finishes; a progress bar (on a terminal) counts the
//! iterations of a running solve.
//!
//! Run: `cargo run --release --example cg -- [path/to/matrix.mtx] [--tol 1e-5] [--max-iter 5000]
//! [--patch-alpha] [--update reuse|fresh|both] [--repeat N] [--one-dispatch-below N]`:
//! - `--patch-alpha`: saxpy takes a device alpha by a copy into its params, lab
//!   `Driver::DeviceScalar` `Legacy`, instead of reading it from the scalar's own buffer;
//! - `--update`: how the resident loop forms p ← beta·p + r: `reuse` (the default: one `t`,
//!   scopy r → t, saxpy, swap), `fresh` (a zeroed `t` per iteration, as before), or `both` in
//!   turn;
//! - `--repeat N`: each resident form N times (1 by default): the first run compiles the
//!   pipelines that the host form did not use, later ones are warm;
//! - `--one-dispatch-below N`: calls on fewer than N elements run one dispatch where they take
//!   two (lab `set_one_dispatch_below`; 0 keeps both; the default `ONE_DISPATCH_DEFAULT`).

extern crate blas_src;

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use ndarray::{Array1, Array2};
use wgblas::prelude::*;

#[path = "support/cg.rs"]
mod cg;
#[path = "support/mtx.rs"]
mod mtx;
#[path = "support/openblas.rs"]
mod openblas;

use cg::Outcome;

struct Args {
    path: String,
    tol: f64,
    max_iter: usize,
    updates: Vec<cg::Update>,
    repeat: usize,
}

fn parse_args() -> Result<Args, lexopt::Error> {
    use lexopt::prelude::*;
    let local = "data/1138_bus.mtx";
    let mut args = Args {
        path: if std::path::Path::new(local).exists() {
            local.to_string()
        } else {
            concat!(env!("CARGO_MANIFEST_DIR"), "/data/1138_bus.mtx").to_string()
        },
        tol: 1e-5,
        max_iter: 5000,
        updates: vec![cg::Update::Reuse],
        repeat: 1,
    };
    let mut path_given = false;
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("tol") => args.tol = parser.value()?.parse()?,
            Long("max-iter") => args.max_iter = parser.value()?.parse()?,
            Long("update") => {
                args.updates = match parser.value()?.string()?.as_str() {
                    "reuse" => vec![cg::Update::Reuse],
                    "fresh" => vec![cg::Update::Fresh],
                    "both" => vec![cg::Update::Fresh, cg::Update::Reuse],
                    other => return Err(format!("--update reuse|fresh|both, not {other}").into()),
                }
            }
            // Calls on fewer elements run one dispatch where they take two (element-wise tails,
            // one-workgroup reduction counters): lab `set_one_dispatch_below`.
            Long("one-dispatch-below") => {
                wgblas::lab::set_one_dispatch_below(parser.value()?.parse()?)
            }
            Long("repeat") => args.repeat = parser.value()?.parse::<usize>()?.max(1),
            // f32 saxpy takes a device alpha by a copy into its params, as before issue 12's
            // storage binding (lab `DeviceScalar` `Legacy`), for comparison.
            Long("patch-alpha") => wgblas::lab::set(
                wgblas::lab::Driver::DeviceScalar,
                wgblas::lab::Variant::Legacy,
            ),
            Long("help") | Short('h') => {
                println!(
                    "usage: cg [MATRIX.mtx] [--tol 1e-5] [--max-iter 5000] [--patch-alpha] \
                     [--update reuse|fresh|both] [--repeat N] [--one-dispatch-below N]"
                );
                std::process::exit(0);
            }
            Value(v) if !path_given => {
                args.path = v.string()?;
                path_given = true;
            }
            _ => return Err(arg.unexpected()),
        }
    }
    if args.tol.is_nan() || args.tol < 0.0 {
        return Err(format!("--tol must be a non-negative number, not {}", args.tol).into());
    }
    Ok(args)
}

/// A progress bar of `max_iter` iterations for one solver, drawn on stderr only when it is a
/// terminal (indicatif hides it otherwise), so logs keep only the result lines.
fn progress(name: &str, max_iter: usize) -> ProgressBar {
    let bar = ProgressBar::new(max_iter as u64).with_prefix(name.to_string());
    bar.set_style(
        ProgressStyle::with_template("{prefix:<17} {bar:30} {pos} iterations, {elapsed}")
            .expect("a valid progress template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
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

/// One resident solve with p's update done as `update`, its line and where its time went.
fn resident_run(
    ctx: &wgblas::Context,
    (a, b): (&Array2<f32>, &Array1<f32>),
    (a_hat, b64): (&Array2<f64>, &Array1<f64>),
    tol: f64,
    max_iter: usize,
    update: cg::Update,
) -> wgblas::Result<()> {
    let name = match update {
        cg::Update::Reuse => "wgblas resident",
        cg::Update::Fresh => "resident fresh t",
    };
    let bar = progress(name, max_iter);
    let (phases0, dispatches0, submissions0) =
        (ctx.phase_times(), ctx.dispatches(), ctx.submissions());
    let (groups0, buffers0) = (ctx.bind_groups_created(), ctx.buffers_created());
    let steps0 = ctx.step_times();
    let resident = cg::resident_form_with(ctx, a, b, tol, max_iter, 10, update, |k| {
        bar.set_position(k as u64)
    })?;
    bar.finish_and_clear();
    report(name, a_hat, b64, &resident);
    // Where the resident run's time went, per iteration (host-side phases of the calls).
    let per = |v: f64| v / resident.iterations.max(1) as f64;
    let mut line = format!(
        "  resident, per iteration: {:.1} dispatches, {:.2} submissions, {:.2} bind groups \
         created, {:.2} buffers created; host us:",
        per((ctx.dispatches() - dispatches0) as f64),
        per((ctx.submissions() - submissions0) as f64),
        per((ctx.bind_groups_created() - groups0) as f64),
        per((ctx.buffers_created() - buffers0) as f64),
    );
    for ((p, t), (_, t0)) in ctx.phase_times().iter().zip(&phases0) {
        line += &format!(" {p:?} {:.1}", per((*t - *t0).as_secs_f64() * 1e6));
    }
    println!("{line}; wall {:.1}", per(resident.seconds * 1e6));
    // The steps inside those phases (`Context::step_times`), those that took any time.
    let mut line = "  resident, steps per iteration, host us:".to_string();
    for ((name, t), (_, t0)) in ctx.step_times().iter().zip(&steps0) {
        let us = per((*t - *t0).as_secs_f64() * 1e6);
        if us >= 0.05 {
            line += &format!(" {name} {us:.1}");
        }
    }
    println!("{line}");
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args {
        path,
        tol,
        max_iter,
        updates,
        repeat,
    } = parse_args()?;
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
    if info.device_type == wgblas::wgpu::DeviceType::Cpu {
        println!("  a CPU adapter (lavapipe): the GPU runs take tens of seconds here");
    }
    println!("CG in f32, tolerance ‖r‖/‖b‖ ≤ {tol:e}, at most {max_iter} iterations, b = Â·ones");

    let bar = progress("wgblas host form", max_iter);
    let gpu = cg::host_form(
        &a,
        &b,
        tol,
        max_iter,
        |a, p| {
            bar.inc(1); // one gemv per iteration
            a.gpu_gemv(p)
        },
        |x, y| x.gpu_dot(y),
        |alpha, x, y| x.gpu_axpy(alpha, y),
    )?;
    bar.finish_and_clear();
    report("wgblas host form", &a_hat, &b64, &gpu);

    for _ in 0..repeat {
        for &update in &updates {
            resident_run(ctx, (&a, &b), (&a_hat, &b64), tol, max_iter, update)?;
        }
    }

    let cpu = cg::host_form(
        &a,
        &b,
        tol,
        max_iter,
        |a, p| Ok::<_, wgblas::Error>(openblas::sgemv(a.view(), p.view())),
        |x, y| Ok(openblas::sdot(x.view(), y.view())),
        |alpha, x, y| Ok(openblas::saxpy(alpha, x.view(), y.view())),
    )?;
    report("OpenBLAS", &a_hat, &b64, &cpu);
    println!(
        "host form: every call uploads its operands and reads back; resident: A and b uploaded once, \
         alpha and beta stay on the device, ‖r‖ read back every 10 iterations"
    );
    Ok(())
}
