//! Scale report (issue 15): resident sgemm, saxpy and sdot at sizes past one storage binding
//! beside sizes within one, as `ROW,` lines in the `BENCH.md` format, with the device memory the
//! process holds after each call (`# MEM` lines: wgpu's allocator report, where the backend has
//! one) and a result check per size (`CHECK,` lines).
//!
//! - `sgemm` `NN-C`, n from `--gemm` (default `8192,32768`: 256 MiB and 4 GiB per operand; on
//!   the H200 a 4 GiB operand is past the 2 GiB binding, so C goes in blocks and the depth in
//!   panels, and past the 4094 MiB `max_buffer_size`, so each operand is held in two buffers
//!   of 16,384 rows, segments, and no block crosses from one to the other). TFLOP/s of 2n³
//!   flops.
//! - `saxpy`, `sdot`, n = 2^e for e from `--l1` (default `26,30`: 256 MiB and 4 GiB per
//!   vector, the latter in two segments of 2 GiB). GB/s of 12n (saxpy) and 8n (sdot) bytes.
//!
//! - `strsm` Left, Lower, NoTrans, NonUnit, n from `--trsm` (default none; e.g. `32768`: A of
//!   4 GiB, past one buffer on the H200, in two segments of 16,384 rows, solved in blocks on a
//!   grid cut at them) with `--nrhs` right-hand sides (default 1024; B resident, C order).
//!   TFLOP/s of n²·nrhs flops. A is 1 on the diagonal and ±2^-⌈log2 2n⌉ or 0 below it (row
//!   sums of |A| below 1.5: well conditioned, and repeated solves stay bounded); the `CHECK`
//!   line gives the backward residual factor (`metrics::bounds::trsm`) of two columns of a fresh
//!   solve, computed on the host in f64, against strsm's threshold of `metrics::spec`.
//!
//! Memory: each section's operands are dropped before the next one is made, so the device
//! holds at most one section's operands (three 4 GiB matrices at n = 32768) plus the pool's
//! free buffers; the host holds at most one 4 GiB array at a time besides the read-back C. A
//! `# MEM peak` line ends the report with the largest figure seen.
//!
//! GPU time by timestamp queries around batches of back-to-back calls of about 1 ms
//! ([`Context::time_batch`]): median of `--reps` (default 11; at most 5 for sgemm past 16384)
//! after 2 warm-ups, the best on a `#` line beside. Inputs are small
//! integers (exact products and sums), so the checks compare exactly against values computed on
//! the host.
//!
//! Run: `cargo run --release --example scale_report -- [--gemm 8192,32768] [--l1 26,30]
//! [--trsm 32768] [--nrhs 1024] [--reps 11]`

use ndarray::{Array1, Array2};
use wgblas::{blas, Context, GpuMatrix, MatrixLayout, Transpose};

#[path = "support/args.rs"]
mod args;
#[path = "support/timing.rs"]
mod timing;

/// The flags and their defaults; anything else on the command line is an error.
const FLAGS: &[(&str, &str)] = &[
    ("--gemm", "8192,32768"),
    ("--l1", "26,30"),
    ("--trsm", ""),
    ("--nrhs", "1024"),
    ("--reps", "11"),
];

/// GPU times (s) of one call of `f`: `reps` samples of [`timing::per_call`] (2 warm-up calls,
/// batches of about 1 ms after [`timing::WARM_S`] of them), sorted.
fn time(ctx: &Context, reps: usize, f: impl FnMut()) -> Vec<f64> {
    let mut v = timing::per_call(ctx, reps, 2, f);
    v.sort_by(f64::total_cmp);
    v
}

/// The largest device allocation [`mem`] has seen, in bytes.
static PEAK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Device memory the process holds now (wgpu's allocator report), in GiB.
fn mem(ctx: &Context, what: &str) {
    match ctx.allocated_bytes() {
        Some(b) => {
            PEAK.fetch_max(b, std::sync::atomic::Ordering::Relaxed);
            println!(
                "# MEM {what}: {:.2} GiB allocated on the device",
                b as f64 / (1u64 << 30) as f64
            )
        }
        None => println!("# MEM {what}: no allocator report on this backend"),
    }
}

/// Bytes as GiB, for the `#` lines.
fn gib(b: u64) -> f64 {
    b as f64 / (1u64 << 30) as f64
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    args::init(FLAGS);
    let ctx = Context::new()?;
    let info = ctx.adapter_info();
    println!(
        "# adapter {} ({:?}); binding {} MiB, max buffer {} MiB (operands past it are held in \
         several buffers), device memory {} (an operand past it is refused)",
        info.name,
        info.backend,
        ctx.max_binding() >> 20,
        ctx.max_buffer() >> 20,
        match ctx.max_memory() {
            u64::MAX => "not reported".to_string(),
            b => format!("{} MiB", b >> 20),
        }
    );
    let reps: usize = args::get(FLAGS, "--reps").parse()?;
    for n in args::sizes(&args::get(FLAGS, "--gemm")) {
        // A(i, p) = (i + p) mod 3 − 1, B(p, j) = (p + 2j) mod 3 − 1: |C| ≤ n, exact in f32.
        let a = Array2::from_shape_fn((n, n), |(i, p)| ((i + p) % 3) as f32 - 1.0);
        let b = Array2::from_shape_fn((n, n), |(p, j)| ((p + 2 * j) % 3) as f32 - 1.0);
        let ag = ctx.upload_matrix(&a)?;
        let bg = ctx.upload_matrix(&b)?;
        drop((a, b));
        let mut cg = GpuMatrix::<f32>::zeros(&ctx, (n, n), MatrixLayout::RowMajor)?;
        let bytes = (n * n * 4) as u64;
        println!(
            "# sgemm {n}: {:.2} GiB per operand, {} buffer(s) each",
            gib(bytes),
            bytes.div_ceil(ctx.max_buffer())
        );
        let r = if n > 16384 { reps.min(5) } else { reps };
        let t = time(&ctx, r, || {
            blas::sgemm(
                &ctx,
                Transpose::No,
                Transpose::No,
                1.0,
                &ag,
                &bg,
                0.0,
                &mut cg,
            )
            .expect("sgemm");
        });
        let flops = 2.0 * (n as f64).powi(3);
        let (med, best) = (flops / t[t.len() / 2] / 1e12, flops / t[0] / 1e12);
        println!("ROW,sgemm,{n}x{n}x{n},NN-C,resident,TFLOP/s,{med:.2}");
        println!("# sgemm {n}: median {med:.2}, best {best:.2} TFLOP/s over {r} calls");
        mem(&ctx, &format!("sgemm n={n} (A, B, C resident)"));
        // Check rows 0 and n − 1 against the host: C(i, j) = Σ_p A(i, p)·B(p, j).
        let c = cg.to_array()?;
        let ok = [0, n - 1].iter().all(|&i| {
            (0..n).step_by((n / 64).max(1)).all(|j| {
                let want: f32 = (0..n)
                    .map(|p| (((i + p) % 3) as f32 - 1.0) * (((p + 2 * j) % 3) as f32 - 1.0))
                    .sum();
                c[(i, j)] == want
            })
        });
        println!(
            "CHECK,sgemm,{n}x{n}x{n},{}",
            if ok { "exact" } else { "WRONG" }
        );
        drop(c);
        drop((ag, bg, cg));
        // Free the pool too, so that the next section's peak is its own.
        let limit = ctx.pool_limit();
        ctx.set_pool_limit(0);
        ctx.set_pool_limit(limit);
    }
    for e in args::sizes(&args::get(FLAGS, "--l1")) {
        let n = 1usize << e;
        let x = ctx.upload_vector(&Array1::from_shape_fn(n, |i| (i % 4) as f32))?;
        let mut y = ctx.upload_vector(&Array1::from_shape_fn(n, |i| (i % 2) as f32))?;
        // y ← x + y: small integers, exact however many calls run.
        let t = time(&ctx, reps, || {
            blas::saxpy(&ctx, 1.0, &x, &mut y).expect("saxpy");
        });
        let gbs = |bytes: f64, t: &[f64]| (bytes / t[t.len() / 2] / 1e9, bytes / t[0] / 1e9);
        let (med, best) = gbs(12.0 * n as f64, &t);
        println!("ROW,saxpy,n={n},-,resident,GB/s,{med:.0}");
        println!("# saxpy n={n}: median {med:.0}, best {best:.0} GB/s");
        mem(&ctx, &format!("saxpy n={n} (x, y resident)"));
        let t = time(&ctx, reps, || {
            wgblas::resident::sdot(&ctx, &x, &y).expect("sdot");
        });
        let (med, best) = gbs(8.0 * n as f64, &t);
        println!("ROW,sdot,n={n},-,resident,GB/s,{med:.0}");
        println!("# sdot n={n}: median {med:.0}, best {best:.0} GB/s");
        mem(&ctx, &format!("sdot n={n}"));
        // Σ (i mod 4)·(i mod 2) = n/4·(1 + 3) = n, a power of two; the partial sums are sums
        // of small integers, exact in f32 for this pattern, so anything else is a wrong result.
        let odd = ctx.upload_vector(&Array1::from_shape_fn(n, |i| (i % 2) as f32))?;
        let d = blas::sdot(&ctx, &x, &odd)?;
        println!(
            "CHECK,sdot,n={n},{} (got {d}, want {n})",
            if d == n as f32 { "exact" } else { "WRONG" }
        );
        drop((x, y, odd));
        let limit = ctx.pool_limit();
        ctx.set_pool_limit(0);
        ctx.set_pool_limit(limit);
    }
    for n in args::sizes(&args::get(FLAGS, "--trsm")) {
        let q: usize = args::get(FLAGS, "--nrhs").parse()?;
        trsm_section(&ctx, n, q, reps)?;
        let limit = ctx.pool_limit();
        ctx.set_pool_limit(0);
        ctx.set_pool_limit(limit);
    }
    println!(
        "# MEM peak: {:.2} GiB allocated on the device at most (of the figures above)",
        gib(PEAK.load(std::sync::atomic::Ordering::Relaxed))
    );
    Ok(())
}

/// The `strsm` section at order `n` with `q` right-hand sides (see the module docs).
fn trsm_section(
    ctx: &Context,
    n: usize,
    q: usize,
    reps: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    use wgblas::{Diag, Side, Uplo};
    let h = 1.0 / (2 * n).next_power_of_two() as f32;
    let l = |i: usize, p: usize| match i.cmp(&p) {
        std::cmp::Ordering::Equal => 1.0,
        std::cmp::Ordering::Greater => (((i + p) % 3) as f32 - 1.0) * h,
        std::cmp::Ordering::Less => 0.0,
    };
    let b = Array2::from_shape_fn((n, q), |(i, j)| ((i + 2 * j) % 3) as f32 - 1.0);
    let ag = ctx.upload_matrix(&Array2::from_shape_fn((n, n), |(i, p)| l(i, p)))?;
    let mut bg = ctx.upload_matrix(&b)?;
    let bytes = (n * n * 4) as u64;
    println!(
        "# strsm {n}: A {:.2} GiB in {} buffer(s), B {n}x{q}",
        gib(bytes),
        bytes.div_ceil(ctx.max_buffer())
    );
    let (side, uplo, no, nonunit) = (Side::Left, Uplo::Lower, Transpose::No, Diag::NonUnit);
    let solve = |bg: &mut GpuMatrix<'_, f32>| {
        blas::strsm(ctx, side, uplo, no, nonunit, 1.0, &ag, bg).expect("strsm");
    };
    let r = if n > 16384 { reps.min(5) } else { reps };
    // Wall time of one call between two `synchronize`s (a call takes tens of ms here, so the
    // waits cost little): the blocked solve's scratch allocations can submit held work, which
    // `Context::time_batch` refuses to time as one batch. Two warm-up calls first.
    let mut t = Vec::with_capacity(r);
    for k in 0..r + 2 {
        ctx.synchronize()?;
        let start = std::time::Instant::now();
        solve(&mut bg);
        ctx.synchronize()?;
        if k >= 2 {
            t.push(start.elapsed().as_secs_f64());
        }
    }
    t.sort_by(f64::total_cmp);
    let flops = (n as f64).powi(2) * q as f64;
    let (med, best) = (flops / t[t.len() / 2] / 1e12, flops / t[0] / 1e12);
    println!("ROW,strsm,{n}x{q},LLNN-C,resident,TFLOP/s,{med:.2}");
    println!(
        "# strsm {n}x{q}: median {med:.2}, best {best:.2} TFLOP/s over {r} calls (wall time between synchronizations)"
    );
    mem(ctx, &format!("strsm n={n} (A, B resident)"));
    // A fresh solve; the backward residual factor of columns 0 and q − 1 in f64.
    let mut bg = ctx.upload_matrix(&b)?;
    solve(&mut bg);
    let x = bg.to_array()?;
    let mut factor = 0.0f64;
    for j in [0, q - 1] {
        for i in 0..n {
            let (mut sum, mut abs) = (0.0f64, 0.0f64);
            for p in 0..=i {
                let v = f64::from(l(i, p)) * f64::from(x[(p, j)]);
                (sum, abs) = (sum + v, abs + v.abs());
            }
            let bound = (n + 1) as f64 * abs * wgblas::metrics::EPS;
            let res = (sum - f64::from(b[(i, j)])).abs();
            if res > 0.0 {
                factor = factor.max(res / bound);
            }
        }
    }
    let limit = wgblas::metrics::spec("strsm").map_or(f64::NAN, |s| s.threshold);
    println!(
        "CHECK,strsm,{n}x{q},{} (backward residual factor {factor:.3}, threshold {limit})",
        if factor <= limit { "ok" } else { "WRONG" }
    );
    Ok(())
}
