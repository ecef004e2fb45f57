//! A real f64 workload: solve `K·x = b` for the 48×48 stiffness matrix `bcsstk01`
//! (SuiteSparse HB/bcsstk01, symmetric positive definite, nonzero entries from 3.3e3 to 2.5e9)
//! by a
//! blocked right-looking Cholesky factorisation `K = L·Lᵀ` whose panel solves are `dtrsm` and
//! whose trailing updates are `dsyrk` on the GPU (the small diagonal blocks are factored on the
//! host, as LAPACK's `dpotrf` hands them to `dpotf2`), then two triangular solves (`dtrsm`).
//!
//! The right-hand side is `b = K·1`, so the exact solution is all ones. The example prints the
//! factor's difference from an unblocked host Cholesky in f64, the relative residual
//! `‖K·x − b‖∞ / (‖K‖∞·‖x‖∞)` and the error `‖x − 1‖∞`. (On lavapipe: 2e-15, 3e-16 and 2e-13;
//! the error of x is the residual times the condition number of K, far beyond what f32's
//! 6e-8 would leave.)
//!
//! Run: `cargo run --release --example cholesky -- [--mtx data/bcsstk01.mtx] [--nb 16]`

use ndarray::{s, Array1, Array2};
use wgblas::{blas, Context, Diag, Side, Transpose, Uplo};

#[path = "support/args.rs"]
mod args;
#[path = "support/mtx.rs"]
mod mtx;

const FLAGS: &[(&str, &str)] = &[("--mtx", "data/bcsstk01.mtx"), ("--nb", "16")];

/// Unblocked Cholesky of the lower triangle of `a` in place (`dpotf2`); the upper triangle is
/// set to 0. `Err` at a non-positive pivot.
fn potf2(mut a: ndarray::ArrayViewMut2<f64>) -> Result<(), String> {
    let n = a.nrows();
    for j in 0..n {
        let d = a[[j, j]] - (0..j).map(|p| a[[j, p]] * a[[j, p]]).sum::<f64>();
        if d <= 0.0 || d.is_nan() {
            return Err(format!("pivot {j} is {d}: not positive definite"));
        }
        let d = d.sqrt();
        a[[j, j]] = d;
        for i in j + 1..n {
            let v = a[[i, j]] - (0..j).map(|p| a[[i, p]] * a[[j, p]]).sum::<f64>();
            a[[i, j]] = v / d;
        }
        for i in 0..j {
            a[[i, j]] = 0.0;
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = args::get(FLAGS, "--mtx");
    let nb: usize = args::get(FLAGS, "--nb").parse()?;
    let k = mtx::read_dense(&path)?;
    let n = k.nrows();
    let ctx = Context::shared()?;
    if !ctx.native_f64() {
        return Err("this adapter has no SHADER_F64: the f64 routines cannot run".into());
    }
    println!("# {path}: {n}x{n}; adapter {}", ctx.adapter_info().name);

    // Blocked right-looking Cholesky, lower: per block column, factor the diagonal block on
    // the host, solve the panel below it (dtrsm), update the trailing matrix (dsyrk).
    let mut l = k.clone();
    for j in (0..n).step_by(nb.max(1)) {
        let jb = nb.min(n - j);
        potf2(l.slice_mut(s![j..j + jb, j..j + jb]))?;
        if j + jb < n {
            let (d, mut panel, mut trail) = l.multi_slice_mut((
                s![j..j + jb, j..j + jb],
                s![j + jb.., j..j + jb],
                s![j + jb.., j + jb..],
            ));
            // A21 ← A21·L11⁻ᵀ
            blas::dtrsm(
                ctx,
                Side::Right,
                Uplo::Lower,
                Transpose::Yes,
                Diag::NonUnit,
                1.0,
                d.view(),
                panel.view_mut(),
            )?;
            // A22 ← A22 − A21·A21ᵀ (lower triangle)
            blas::dsyrk(
                ctx,
                Uplo::Lower,
                Transpose::No,
                -1.0,
                panel.view(),
                1.0,
                trail.view_mut(),
            )?;
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            l[[i, j]] = 0.0;
        }
    }

    // The same factor on the host, unblocked.
    let mut host = k.clone();
    potf2(host.view_mut())?;
    let scale = host.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let diff = (&l - &host).iter().fold(0.0f64, |m, v| m.max(v.abs()));
    println!(
        "factor: max |L_gpu − L_host| / max |L| = {:.2e}",
        diff / scale
    );

    // K·x = b with b = K·1: forward (L·y = b) and backward (Lᵀ·x = y) solves on the GPU.
    let ones = Array1::<f64>::ones(n);
    let b = k.dot(&ones);
    let mut x = b.clone().insert_axis(ndarray::Axis(1));
    for t in [Transpose::No, Transpose::Yes] {
        blas::dtrsm(
            ctx,
            Side::Left,
            Uplo::Lower,
            t,
            Diag::NonUnit,
            1.0,
            l.view(),
            x.view_mut(),
        )?;
    }
    let x = x.column(0).to_owned();
    let r = &k.dot(&x) - &b;
    let norm_inf = |a: &Array2<f64>| {
        a.rows()
            .into_iter()
            .map(|row| row.iter().map(|v| v.abs()).sum::<f64>())
            .fold(0.0, f64::max)
    };
    let rmax = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let xmax = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    println!(
        "solve: ‖K·x − b‖∞ / (‖K‖∞·‖x‖∞) = {:.2e}, ‖x − 1‖∞ = {:.2e}",
        rmax / (norm_inf(&k) * xmax),
        x.iter().fold(0.0f64, |m, v| m.max((v - 1.0).abs()))
    );
    Ok(())
}
