//! Level 1 report: every Level 1 routine at one size (default n = 10^6), its DESIGN.md §2 metric
//! against OpenBLAS beside the threshold, and the GPU and OpenBLAS times.
//!
//! Times in ms, median of `--reps` runs after 2 warm-ups: `gpu` = the kernels alone (timestamp
//! queries around the compute pass; `-` where the adapter has no TIMESTAMP_QUERY), `wall` = the
//! whole host-form call (upload, kernels, read-back, write into the ndarray), `openblas` = the
//! CBLAS call on contiguous data. idamax and dasum run on both f64 paths: native (where the adapter
//! has SHADER_F64) and the integer fallback (forced on a second context).
//!
//! Run: `cargo run --release --example level1_report -- [--n 1000000] [--reps 5]`

extern crate blas_src;

use std::time::Instant;

use cblas_sys::*;
use ndarray::Array1;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use wgblas::metrics::{self, bounds, max_ulp_f32, ulp_distance_f32, ulp_distance_f64};
use wgblas::{blas, Context};

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

fn value(r: &mut StdRng) -> f64 {
    let v: f64 = r.random_range(1e-3..=1.0);
    if r.random_bool(0.5) {
        -v
    } else {
        v
    }
}

/// Neumaier's compensated sum: within about one rounding of the exact sum for these data.
fn neumaier(values: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut comp) = (0.0f64, 0.0f64);
    for v in values {
        let t = sum + v;
        comp += if sum.abs() >= v.abs() {
            (sum - t) + v
        } else {
            (v - t) + sum
        };
        sum = t;
    }
    sum + comp
}

struct Row {
    name: String,
    metric: &'static str,
    value: f64,
    threshold: f64,
    gpu: Option<f64>,
    wall: f64,
    openblas: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = arg("--n", "1000000").parse()?;
    let reps: usize = arg("--reps", "5").parse()?;
    let ctx = Context::shared()?;
    ctx.set_profiling(true);
    let fb = Context::new()?;
    fb.set_force_f64_fallback(true);
    fb.set_profiling(true);
    let info = ctx.adapter_info();
    println!(
        "adapter: {} ({:?}), SHADER_F64: {}",
        info.name,
        info.backend,
        ctx.native_f64()
    );
    println!("n = {n}; times in ms, median of {reps} after 2 warm-ups");

    let mut r = StdRng::seed_from_u64(2024);
    let x64: Array1<f64> = Array1::from_shape_simple_fn(n, || value(&mut r));
    let y64: Array1<f64> = Array1::from_shape_simple_fn(n, || value(&mut r));
    let x = x64.mapv(|v| v as f32);
    let y = y64.mapv(|v| v as f32);
    let ni = n as i32;
    let th = |name: &str| metrics::spec(name).unwrap().threshold;
    let mut rows = Vec::new();
    let mut notes = Vec::new();

    // isamax
    let mut got = 0;
    let (gpu, wall) = time_gpu(ctx, reps, || got = blas::isamax(ctx, x.view()).unwrap());
    let mut want = 0;
    let openblas = time_cpu(reps, || {
        want = unsafe { cblas_isamax(ni, x.as_ptr(), 1) } as usize
    });
    rows.push(Row {
        name: "isamax".into(),
        metric: "index differs",
        value: f64::from(u8::from(got != want)),
        threshold: th("isamax"),
        gpu,
        wall,
        openblas,
    });

    // idamax, dasum: both paths
    let mut want = 0;
    let ob_i = time_cpu(reps, || {
        want = unsafe { cblas_idamax(ni, x64.as_ptr(), 1) } as usize
    });
    let mut want_s = 0.0;
    let ob_s = time_cpu(reps, || {
        want_s = unsafe { cblas_dasum(ni, x64.as_ptr(), 1) }
    });
    for (path, c) in [("native", ctx), ("fallback", &fb)] {
        let path = if path == "native" && !c.native_f64() {
            "fallback (no f64)"
        } else {
            path
        };
        let mut got = 0;
        let (gpu, wall) = time_gpu(c, reps, || got = blas::idamax(c, x64.view()).unwrap());
        rows.push(Row {
            name: format!("idamax {path}"),
            metric: "index differs",
            value: f64::from(u8::from(got != want)),
            threshold: th("idamax"),
            gpu,
            wall,
            openblas: ob_i,
        });
        let mut got = 0.0;
        let (gpu, wall) = time_gpu(c, reps, || got = blas::dasum(c, x64.view()).unwrap());
        let exact = neumaier(x64.iter().map(|v| v.abs()));
        notes.push(format!(
            "dasum {path}: wgblas {got:e} is {} f64 ULP from the compensated (Neumaier) sum {exact:e}, OpenBLAS {want_s:e} is {}",
            ulp_distance_f64(got, exact),
            ulp_distance_f64(want_s, exact)
        ));
        rows.push(Row {
            name: format!("dasum {path}"),
            metric: "f64 ULP",
            value: ulp_distance_f64(got, want_s) as f64,
            threshold: th("dasum"),
            gpu,
            wall,
            openblas: ob_s,
        });
    }

    // scopy
    let mut out = Array1::<f32>::zeros(n);
    let (gpu, wall) = time_gpu(ctx, reps, || {
        blas::scopy(ctx, x.view(), out.view_mut()).unwrap()
    });
    let mut want = Array1::<f32>::zeros(n);
    let openblas = time_cpu(reps, || unsafe {
        cblas_scopy(ni, x.as_ptr(), 1, want.as_mut_ptr(), 1)
    });
    rows.push(Row {
        name: "scopy".into(),
        metric: "max ULP",
        value: max_ulp_f32(&out, &want)? as f64,
        threshold: th("scopy"),
        gpu,
        wall,
        openblas,
    });

    // sswap (an even number of calls leaves the data as it was: measure one call separately)
    let (mut a, mut b) = (x.clone(), y.clone());
    blas::sswap(ctx, a.view_mut(), b.view_mut())?;
    let value = max_ulp_f32(&a, &y)?.max(max_ulp_f32(&b, &x)?) as f64;
    let (gpu, wall) = time_gpu(ctx, reps, || {
        blas::sswap(ctx, a.view_mut(), b.view_mut()).unwrap()
    });
    let openblas = time_cpu(reps, || unsafe {
        cblas_sswap(ni, a.as_mut_ptr(), 1, b.as_mut_ptr(), 1)
    });
    rows.push(Row {
        name: "sswap".into(),
        metric: "max ULP",
        value,
        threshold: th("sswap"),
        gpu,
        wall,
        openblas,
    });

    // sscal
    let mut a = x.clone();
    blas::sscal(ctx, 0.7, a.view_mut())?;
    let mut want = x.clone();
    unsafe { cblas_sscal(ni, 0.7, want.as_mut_ptr(), 1) };
    let value = max_ulp_f32(&a, &want)? as f64;
    let (gpu, wall) = time_gpu(ctx, reps, || blas::sscal(ctx, -1.0, a.view_mut()).unwrap());
    let openblas = time_cpu(reps, || unsafe {
        cblas_sscal(ni, -1.0, want.as_mut_ptr(), 1)
    });
    rows.push(Row {
        name: "sscal".into(),
        metric: "max ULP",
        value,
        threshold: th("sscal"),
        gpu,
        wall,
        openblas,
    });

    // sasum, snrm2
    let mut got = 0.0;
    let (gpu, wall) = time_gpu(ctx, reps, || got = blas::sasum(ctx, x.view()).unwrap());
    let mut want = 0.0;
    let openblas = time_cpu(reps, || want = unsafe { cblas_sasum(ni, x.as_ptr(), 1) });
    rows.push(Row {
        name: "sasum".into(),
        metric: "ULP",
        value: ulp_distance_f32(got, want) as f64,
        threshold: th("sasum"),
        gpu,
        wall,
        openblas,
    });
    // Where the distance comes from: both against the sum done in f64 (exact to ~1e-16
    // relative here) and rounded once to f32.
    let exact = x.iter().map(|&v| f64::from(v.abs())).sum::<f64>() as f32;
    notes.push(format!(
        "sasum: wgblas {got:e} is {} ULP from the correctly rounded sum {exact:e}, OpenBLAS {want:e} is {} ULP from it",
        ulp_distance_f32(got, exact),
        ulp_distance_f32(want, exact)
    ));
    let (gpu, wall) = time_gpu(ctx, reps, || got = blas::snrm2(ctx, x.view()).unwrap());
    let openblas = time_cpu(reps, || want = unsafe { cblas_snrm2(ni, x.as_ptr(), 1) });
    rows.push(Row {
        name: "snrm2".into(),
        metric: "ULP",
        value: ulp_distance_f32(got, want) as f64,
        threshold: th("snrm2"),
        gpu,
        wall,
        openblas,
    });

    // saxpy, sdot
    let mut a = y.clone();
    blas::saxpy(ctx, 0.7, x.view(), a.view_mut())?;
    let mut want = y.clone();
    unsafe { cblas_saxpy(ni, 0.7, x.as_ptr(), 1, want.as_mut_ptr(), 1) };
    let value = metrics::forward_factor(&a, &want, &bounds::axpy(0.7, x.view(), y.view()))?;
    let (gpu, wall) = time_gpu(ctx, reps, || {
        blas::saxpy(ctx, 0.7, x.view(), a.view_mut()).unwrap()
    });
    let openblas = time_cpu(reps, || unsafe {
        cblas_saxpy(ni, 0.7, x.as_ptr(), 1, want.as_mut_ptr(), 1)
    });
    rows.push(Row {
        name: "saxpy".into(),
        metric: "forward factor",
        value,
        threshold: th("saxpy"),
        gpu,
        wall,
        openblas,
    });
    let mut got = 0.0;
    let (gpu, wall) = time_gpu(ctx, reps, || {
        got = blas::sdot(ctx, x.view(), y.view()).unwrap()
    });
    let mut want = 0.0;
    let openblas = time_cpu(reps, || {
        want = unsafe { cblas_sdot(ni, x.as_ptr(), 1, y.as_ptr(), 1) }
    });
    rows.push(Row {
        name: "sdot".into(),
        metric: "forward factor",
        value: metrics::forward_factor_scalar(got, want, bounds::dot(x.view(), y.view())),
        threshold: th("sdot"),
        gpu,
        wall,
        openblas,
    });

    // srot, srotm (flags -1, 0, 1; -2 returns at once)
    let (c, s) = (0.6f32, 0.8f32);
    let (mut a, mut b) = (x.clone(), y.clone());
    blas::srot(ctx, a.view_mut(), b.view_mut(), c, s)?;
    let (mut wa, mut wb) = (x.clone(), y.clone());
    unsafe { cblas_srot(ni, wa.as_mut_ptr(), 1, wb.as_mut_ptr(), 1, c, s) };
    let (bx, by) = bounds::rot(c, s, x.view(), y.view());
    let value = metrics::forward_factor(&a, &wa, &bx)?.max(metrics::forward_factor(&b, &wb, &by)?);
    let (gpu, wall) = time_gpu(ctx, reps, || {
        blas::srot(ctx, a.view_mut(), b.view_mut(), c, s).unwrap()
    });
    let openblas = time_cpu(reps, || unsafe {
        cblas_srot(ni, wa.as_mut_ptr(), 1, wb.as_mut_ptr(), 1, c, s)
    });
    rows.push(Row {
        name: "srot".into(),
        metric: "forward factor",
        value,
        threshold: th("srot"),
        gpu,
        wall,
        openblas,
    });
    for param in [
        [-1.0f32, 0.9, -0.3, 0.4, 1.1],
        [0.0, f32::NAN, -0.3, 0.4, f32::NAN],
        [1.0, 0.9, f32::NAN, f32::NAN, 1.1],
    ] {
        let (mut a, mut b) = (x.clone(), y.clone());
        blas::srotm(ctx, a.view_mut(), b.view_mut(), param)?;
        let (mut wa, mut wb) = (x.clone(), y.clone());
        unsafe { cblas_srotm(ni, wa.as_mut_ptr(), 1, wb.as_mut_ptr(), 1, param.as_ptr()) };
        let (bx, by) = bounds::rotm(param, x.view(), y.view());
        let value =
            metrics::forward_factor(&a, &wa, &bx)?.max(metrics::forward_factor(&b, &wb, &by)?);
        // Time on fresh copies each rep would include the copy; the transformation is applied
        // again and again instead (values stay finite: |H| entries ≤ 1.1, few reps).
        let (gpu, wall) = time_gpu(ctx, reps, || {
            blas::srotm(ctx, a.view_mut(), b.view_mut(), param).unwrap()
        });
        let openblas = time_cpu(reps, || unsafe {
            cblas_srotm(ni, wa.as_mut_ptr(), 1, wb.as_mut_ptr(), 1, param.as_ptr())
        });
        rows.push(Row {
            name: format!("srotm flag {}", param[0]),
            metric: "forward factor",
            value,
            threshold: th("srotm"),
            gpu,
            wall,
            openblas,
        });
    }

    println!(
        "{:<24} {:>15} {:>12} {:>9} {:>6} {:>9} {:>9} {:>9}",
        "routine", "metric", "value", "threshold", "pass", "gpu", "wall", "openblas"
    );
    let mut all = true;
    for row in &rows {
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
    for note in notes {
        println!("{note}");
    }
    println!("{}", if all { "all pass" } else { "SOME FAIL" });
    Ok(())
}
