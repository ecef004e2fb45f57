//! Level 1 report: every Level 1 routine at one size (default n = 10^6), its DESIGN.md §2 metric
//! against OpenBLAS beside the threshold, and the GPU and OpenBLAS times.
//!
//! Each routine runs on the operands of its test description (`tests/wgblas/describe`, through
//! `benches/support/described.rs`; one contiguous case of length n, as `benches/level12.rs`),
//! called once and measured as the tests measure it (the description's measure against
//! OpenBLAS, the threshold of `metrics::spec`), then its call is timed beside the description's
//! OpenBLAS oracle on a copy of the same operands.
//!
//! Times in ms, median of `--reps` runs after 2 warm-ups: `gpu` = the kernels alone (timestamp
//! queries around the compute pass; `-` where the adapter has no TIMESTAMP_QUERY), `wall` = the
//! whole host-form call (upload, kernels, read-back, write into the ndarray), `openblas` = the
//! CBLAS call on contiguous data. idamax and dasum run on both f64 paths: native (where the adapter
//! has SHADER_F64) and the integer fallback (forced on a second context); their checked call
//! measures both.
//!
//! Run: `cargo run --release --example level1_report -- [--n 1000000] [--reps 5]`

extern crate blas_src;

use std::time::Instant;

use wgblas::Context;

#[path = "support/args.rs"]
mod args;

/// The flags and their defaults; anything else on the command line is an error.
const FLAGS: &[(&str, &str)] = &[("--n", "1000000"), ("--reps", "5")];

fn arg(name: &str, _default: &str) -> String {
    args::get(FLAGS, name)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// (gpu ms, wall ms) medians of `reps` calls of `f` after 2 warm-ups.
fn time_gpu(ctx: &Context, reps: usize, mut f: impl FnMut()) -> (Option<f64>, f64) {
    f();
    f();
    let (mut gpu, mut wall) = (Vec::new(), Vec::new());
    for _ in 0..reps {
        let t = Instant::now();
        f();
        wall.push(t.elapsed().as_secs_f64() * 1e3);
        if let Some(d) = ctx.last_gpu_time() {
            gpu.push(d.as_secs_f64() * 1e3);
        }
    }
    let gpu = (gpu.len() == reps).then(|| median(gpu));
    (gpu, median(wall))
}

fn time_cpu(reps: usize, mut f: impl FnMut()) -> f64 {
    f();
    f();
    median(
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    )
}

#[path = "../benches/support/described.rs"]
mod described;
use described::*;

use common::VLayout::Unit;
use describe::level1::vcase;
use describe::timing::{self, Timed};
use describe::{Case, Elem, Ops, Routine};

struct Row {
    name: String,
    metric: &'static str,
    value: f64,
    threshold: f64,
    gpu: Option<f64>,
    wall: f64,
    openblas: f64,
}

/// Description `R`'s `case` on host operands, checked once (a failure panics), then timed on
/// each `(label, context)` of `on` beside `cpu`, its OpenBLAS oracle on a copy of the operands:
/// one row per context, named `name` (with the label where there are several).
fn rows<R: Routine, T: Elem, V>(
    out: &mut Vec<Row>,
    on: &[(&str, &Context)],
    reps: usize,
    name: &str,
    case: Case,
    mut cpu: impl FnMut(&Case, &mut Ops<T>) -> V,
) {
    let mut t = Timed::<R, T>::new(on[0].1, case, false);
    let mut o = t.oracle_ops();
    let openblas = time_cpu(reps, || {
        cpu(&case, &mut o);
    });
    for &(label, c) in on {
        let (gpu, wall) = time_gpu(c, reps, || t.call(c));
        out.push(Row {
            name: if on.len() > 1 {
                format!("{name} {label}")
            } else {
                name.to_string()
            },
            metric: timing::metric_name::<R, T>(),
            value: t.measure.unwrap_or(0.0),
            threshold: describe::threshold::<R, T>(),
            gpu,
            wall,
            openblas,
        });
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = arg("--n", "1000000").parse()?;
    let reps: usize = arg("--reps", "5").parse()?;
    let ctx = Context::shared()?;
    ctx.set_profiling(true);
    // The forced fallback of the f64 reductions: the context the descriptions check it on.
    let fb = oracle_l1::fallback_ctx();
    fb.set_profiling(true);
    let info = ctx.adapter_info();
    println!(
        "adapter: {} ({:?}), SHADER_F64: {}",
        info.name,
        info.backend,
        ctx.native_f64()
    );
    println!("n = {n}; times in ms, median of {reps} after 2 warm-ups");

    // A vector case of length n (unit strides), seeded by n; alpha (and beta). alpha = 0 for
    // the reductions: ordinary values (asum, iamax: not the wide f64 ones; nrm2: scale 1).
    let v = |alpha: f64, beta: f64| vcase(n as u64, n, alpha, Unit, Unit).scalars(alpha, beta);
    let plain = v(0.0, 0.0);
    let native = if ctx.native_f64() {
        "native"
    } else {
        "fallback (no f64)"
    };
    let (one, both) = (&[("", ctx)][..], &[(native, ctx), ("fallback", fb)][..]);
    let mut r = Vec::new();
    rows::<iamax::Iamax, f32, _>(&mut r, one, reps, "isamax", plain, |_, o| {
        f32::o_iamax(&o.x)
    });
    rows::<iamax::Iamax, f64, _>(&mut r, both, reps, "idamax", plain, |_, o| {
        f64::o_iamax(&o.x)
    });
    rows::<asum::Asum, f64, _>(&mut r, both, reps, "dasum", plain, |_, o| f64::o_asum(&o.x));
    rows::<copy::VecCopy, f32, _>(&mut r, one, reps, "scopy", plain, |_, o| {
        f32::o_copy(&o.x, &mut o.y)
    });
    rows::<swap::Swap, f32, _>(&mut r, one, reps, "sswap", plain, |_, o| {
        f32::o_swap(&mut o.x, &mut o.y)
    });
    // Applied again and again while timed: 0.999 keeps the values clear of subnormals.
    rows::<scal::Scal, f32, _>(&mut r, one, reps, "sscal", v(0.999, 0.0), |c, o| {
        f32::o_scal(c.alpha as f32, &mut o.x)
    });
    rows::<asum::Asum, f32, _>(&mut r, one, reps, "sasum", plain, |_, o| f32::o_asum(&o.x));
    rows::<nrm2::Nrm2, f32, _>(&mut r, one, reps, "snrm2", plain, |_, o| f32::o_nrm2(&o.x));
    rows::<axpy::Axpy, f32, _>(&mut r, one, reps, "saxpy", v(0.7, 0.0), |c, o| {
        f32::o_axpy(c.alpha as f32, &o.x, &mut o.y)
    });
    rows::<dot::Dot, f32, _>(&mut r, one, reps, "sdot", plain, |_, o| {
        f32::o_dot(&o.x, &o.y)
    });
    rows::<rot::Rot, f32, _>(&mut r, one, reps, "srot", v(0.6, 0.8), |c, o| {
        f32::o_rot(&mut o.x, &mut o.y, c.alpha as f32, c.beta as f32)
    });
    // srotm, flags -1, 0, 1 (-2 returns at once); the transformation is applied again and
    // again while timed (values stay finite: |H| entries ≤ 1.1, few reps).
    for param in [
        [-1.0, 0.9, -0.3, 0.4, 1.1],
        [0.0, f64::NAN, -0.3, 0.4, f64::NAN],
        [1.0, 0.9, f64::NAN, f64::NAN, 1.1],
    ] {
        let name = format!("srotm flag {}", param[0]);
        rows::<rotm::Rotm, f32, _>(&mut r, one, reps, &name, Case { param, ..plain }, |c, o| {
            f32::o_rotm(&mut o.x, &mut o.y, c.param.map(|p| p as f32))
        });
    }

    println!(
        "{:<24} {:>15} {:>12} {:>9} {:>6} {:>9} {:>9} {:>9}",
        "routine", "metric", "value", "threshold", "pass", "gpu", "wall", "openblas"
    );
    let mut all = true;
    for row in &r {
        let pass = row.value <= row.threshold;
        all &= pass;
        let gpu = row.gpu.map_or("-".to_string(), |g| format!("{g:.3}"));
        println!(
            "{:<24} {:>15} {:>12.6} {:>9} {:>6} {:>9} {:>9.3} {:>9.3}",
            row.name,
            row.metric,
            row.value,
            row.threshold,
            if pass { "yes" } else { "NO" },
            gpu,
            row.wall,
            row.openblas
        );
    }
    println!("{}", if all { "all pass" } else { "SOME FAIL" });
    Ok(())
}
