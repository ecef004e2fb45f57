use ndarray::Array1;
use std::time::Instant;
fn main() {
    let ctx = wgblas::Context::shared().unwrap();
    let x = ctx.upload_vector(&Array1::<f32>::ones(1024)).unwrap();
    let mut y = ctx.upload_vector(&Array1::<f32>::ones(1024)).unwrap();
    ctx.synchronize().unwrap();
    let (d0, s0) = (ctx.dispatches(), ctx.submissions());
    let mut best = (f64::MAX, f64::MAX);
    for _ in 0..10 {
        ctx.synchronize().unwrap();
        let t = Instant::now();
        for _ in 0..1000 {
            wgblas::blas::saxpy(ctx, 0.5, &x, &mut y).unwrap();
        }
        let rec = t.elapsed().as_secs_f64();
        ctx.synchronize().unwrap();
        let all = t.elapsed().as_secs_f64();
        best = (best.0.min(rec), best.1.min(all - rec));
    }
    println!(
        "dispatches/call {:.2}, submissions/call {:.3}; record {:.2} us/call, sync {:.2} us/call",
        (ctx.dispatches() - d0) as f64 / 10000.0,
        (ctx.submissions() - s0) as f64 / 10000.0,
        best.0 / 1000.0 * 1e6,
        best.1 / 1000.0 * 1e6
    );
}
