//! Resident chains on the device: wall time per routine call (issue 12's chain targets).
//!
//! Prints `ROW,` lines in the format of `benches/results/README.md`:
//! - `chain_saxpy`: 1000 chained resident `saxpy` calls at n = 1024, then one read-back;
//! - `chain_dot_scal`: `resident::sdot` → `GpuScalar::recip` → `sscal`, repeated, then one
//!   read-back; the figure is per routine call (three calls a round).
//!
//! Medians of `--reps` (default 11) after warm-up. `--patch-alpha`: f32 saxpy and sscal take
//! a device alpha by a copy of it into their params before each dispatch (lab
//! `Driver::DeviceScalar` `Legacy`, as before issue 12's storage binding), instead of reading it
//! from its own buffer (the default). `--one-dispatch-below N`: calls on fewer than N elements
//! run one dispatch where they take two (lab `set_one_dispatch_below`: the one-workgroup sdot
//! without its `clear_counter`; 0 keeps both; the default: the crate's, `lab::ONE_DISPATCH_DEFAULT`).
//! `--max-pending N`: the held commands of resident calls are submitted every N (lab
//! `set_max_pending`; the default: `lab::MAX_PENDING_DEFAULT`), so that the device runs one
//! part of a chain while the host records the next.
//!
//! ```sh
//! cargo run --release --example chain_report -- --reps 11
//! cargo run --release --example chain_report -- --reps 11 --patch-alpha
//! cargo run --release --example chain_report -- --reps 11 --one-dispatch-below 0
//! cargo run --release --example chain_report -- --reps 11 --max-pending 64
//! ```
use ndarray::Array1;
use std::time::Instant;
use wgblas::{blas, resident, Context};

#[path = "support/args.rs"]
mod args;
#[path = "support/phases.rs"]
mod phases;

/// The flags and their defaults; anything else on the command line is an error.
const FLAGS: &[(&str, &str)] = &[
    ("--reps", "11"),
    ("--patch-alpha", args::SWITCH),
    ("--one-dispatch-below", "default"),
    ("--max-pending", "default"),
];

fn median(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(|a, b| a.total_cmp(b));
    (v[v.len() / 2], v[0])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let reps: usize = args::get(FLAGS, "--reps").parse()?;
    let patch = args::get(FLAGS, "--patch-alpha") == "1";
    let below = match args::get(FLAGS, "--one-dispatch-below").as_str() {
        "default" => wgblas::lab::one_dispatch_below(),
        v => v.parse()?,
    };
    wgblas::lab::set_one_dispatch_below(below);
    match args::get(FLAGS, "--max-pending").as_str() {
        "default" => {}
        v => wgblas::lab::set_max_pending(v.parse()?),
    }
    println!(
        "# held commands submitted every {} (lab set_max_pending)",
        wgblas::lab::max_pending()
    );
    println!("# one dispatch below {below} elements (lab set_one_dispatch_below; 0: off)");
    if patch {
        wgblas::lab::set(
            wgblas::lab::Driver::DeviceScalar,
            wgblas::lab::Variant::Legacy,
        );
    }
    println!(
        "# device alpha of saxpy/sscal: {}",
        if patch {
            "copied into the params (--patch-alpha)"
        } else {
            "read from a storage binding (default)"
        }
    );
    let ctx = Context::shared()?;
    let n = 1024;
    let calls = 1000;
    let x = ctx.upload_vector(&Array1::from_elem(n, 1.0f32))?;
    let mut y = ctx.upload_vector(&Array1::from_elem(n, 0.0f32))?;

    // chain_saxpy: y += 1e-3 * x, 1000 times, one read-back.
    let mut per_call = Vec::new();
    let (mut before, mut t_all) = (ctx.phase_times(), Instant::now());
    for rep in 0..reps + 2 {
        if rep == 2 {
            // The phases of the timed repetitions only (the first two compile pipelines).
            (before, t_all) = (ctx.phase_times(), Instant::now());
        }
        let t = Instant::now();
        for _ in 0..calls {
            blas::saxpy(ctx, 1e-3f32, &x, &mut y)?;
        }
        let out = y.to_array()?;
        let us = t.elapsed().as_secs_f64() * 1e6 / calls as f64;
        assert!(out[0].is_finite());
        if rep >= 2 {
            per_call.push(us);
        }
    }
    phases(ctx, &before, t_all.elapsed(), reps * calls, "chain_saxpy");
    let (med, min) = median(per_call);
    println!("# chain_saxpy n={n}: {med:.2} us/call median, {min:.2} min, {calls} calls a chain");
    println!("ROW,chain_saxpy,n={n},-,resident,us/call,{med:.2}");

    // chain_dot_scal: s = v·v; r = 1/s; v *= r (three routine calls a round). From v = ones
    // the values alternate between 1 and 1/n, so they stay finite with no read-back.
    let mut v = ctx.upload_vector(&Array1::from_elem(n, 1.0f32))?;
    let rounds = 300;
    let mut per_call = Vec::new();
    let (mut before, mut t_all) = (ctx.phase_times(), Instant::now());
    for rep in 0..reps + 2 {
        if rep == 2 {
            // The phases of the timed repetitions only (the first two compile pipelines).
            (before, t_all) = (ctx.phase_times(), Instant::now());
        }
        let t = Instant::now();
        for _ in 0..rounds {
            let s = resident::sdot(ctx, &v, &v)?;
            let r = s.recip()?;
            blas::sscal(ctx, &r, &mut v)?;
        }
        let out = v.to_array()?;
        let us = t.elapsed().as_secs_f64() * 1e6 / (rounds * 3) as f64;
        assert!(out[0].is_finite());
        if rep >= 2 {
            per_call.push(us);
        }
    }
    phases(
        ctx,
        &before,
        t_all.elapsed(),
        reps * rounds * 3,
        "chain_dot_scal",
    );
    let (med, min) = median(per_call);
    println!("# chain_dot_scal n={n}: {med:.2} us per routine call median, {min:.2} min (sdot, recip, sscal)");
    println!("ROW,chain_dot_scal,n={n},-,resident,us/call,{med:.2}");

    // Its parts, each chained alone (diagnostics, `#` lines only): sdot into a new device
    // scalar, recip of a device scalar, and sscal of a resident n-vector by alpha = −1 from
    // the device (patched into its params on the device) and from the host (−1, not 1: alpha
    // = 1 is a quick return, no dispatch).
    let s = resident::sdot(ctx, &v, &v)?;
    let minus_one = s.div(&s)?.neg()?;
    let w = std::cell::RefCell::new(ctx.upload_vector(&Array1::from_elem(n, 1.0f32))?);
    let parts: [(&str, &dyn Fn() -> wgblas::Result<()>); 4] = [
        ("sdot", &|| resident::sdot(ctx, &v, &v).map(drop)),
        ("recip", &|| s.recip().map(drop)),
        ("sscal_device_alpha", &|| {
            blas::sscal(ctx, &minus_one, &mut *w.borrow_mut())
        }),
        ("sscal_host_alpha", &|| {
            blas::sscal(ctx, -1.0f32, &mut *w.borrow_mut())
        }),
    ];
    for (name, f) in parts {
        let mut per_call = Vec::new();
        let (mut before, mut t_all) = (ctx.phase_times(), Instant::now());
        for rep in 0..reps + 2 {
            if rep == 2 {
                (before, t_all) = (ctx.phase_times(), Instant::now());
            }
            let t = Instant::now();
            for _ in 0..rounds {
                f()?;
            }
            ctx.flush();
            let _ = minus_one.get()?;
            if rep >= 2 {
                per_call.push(t.elapsed().as_secs_f64() * 1e6 / rounds as f64);
            }
        }
        phases(ctx, &before, t_all.elapsed(), reps * rounds, name);
        let (med, min) = median(per_call);
        println!("# chain part {name}: {med:.2} us a call median, {min:.2} min");
    }
    Ok(())
}

/// Print the counts of `ctx` so far and the mean wall time per routine call of each host-side
/// phase since `before`, over `calls` calls that took `total`, and the rest.
fn phases(
    ctx: &Context,
    before: &[(wgblas::Phase, std::time::Duration)],
    total: std::time::Duration,
    calls: usize,
    what: &str,
) {
    println!(
        "# counts of {what} so far: {} submissions, {} read-backs, {} dispatches, {} bind groups, {} buffers created",
        ctx.submissions(),
        ctx.readbacks(),
        ctx.dispatches(),
        ctx.bind_groups_created(),
        ctx.buffers_created()
    );
    let line = phases::line(ctx, before, total, calls, 2);
    println!("# phases of {what}, us per routine call:{line}");
}
