//! The host *recording* cost of a resident chain (issue 12): 1000 resident `saxpy` calls at
//! n = 1024 timed before the synchronization (record) and after (submission and device), with
//! the heap allocations per call counted by a counting global allocator. Best of `--reps`.
//!
//! ```sh
//! cargo run --release --example record_probe -- --reps 10
//! ```
use ndarray::Array1;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

#[path = "support/args.rs"]
mod args;

/// The flags and their defaults; anything else on the command line is an error.
const FLAGS: &[(&str, &str)] = &[("--reps", "10"), ("--calls", "1000")];

/// The system allocator, counting allocations.
struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let reps: usize = args::get(FLAGS, "--reps").parse()?;
    let calls: usize = args::get(FLAGS, "--calls").parse()?;
    let ctx = wgblas::Context::shared()?;
    let x = ctx.upload_vector(&Array1::<f32>::ones(1024))?;
    let mut y = ctx.upload_vector(&Array1::<f32>::ones(1024))?;
    ctx.synchronize()?;
    let (d0, s0) = (ctx.dispatches(), ctx.submissions());
    let (mut rec, mut sync, mut allocs) = (f64::MAX, f64::MAX, u64::MAX);
    for _ in 0..reps {
        ctx.synchronize()?;
        let a0 = ALLOCS.load(Ordering::Relaxed);
        let t = Instant::now();
        for _ in 0..calls {
            wgblas::blas::saxpy(ctx, 0.5, &x, &mut y)?;
        }
        let r = t.elapsed().as_secs_f64();
        allocs = allocs.min(ALLOCS.load(Ordering::Relaxed) - a0);
        ctx.synchronize()?;
        let all = t.elapsed().as_secs_f64();
        (rec, sync) = (rec.min(r), sync.min(all - r));
    }
    let total = (reps * calls) as f64;
    println!(
        "dispatches/call {:.2}, submissions/call {:.3}, allocations/call {:.1}; record {:.2} us/call, sync {:.2} us/call",
        (ctx.dispatches() - d0) as f64 / total,
        (ctx.submissions() - s0) as f64 / total,
        allocs as f64 / calls as f64,
        rec / calls as f64 * 1e6,
        sync / calls as f64 * 1e6
    );
    Ok(())
}
