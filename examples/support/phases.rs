//! The host-side phases of calls (`Context::phase_times`) as one line of a report.

use wgblas::Context;

/// The mean wall time per call of each host-side phase since `before`, over `calls` calls that
/// took `total`, and the rest (output allocation, argument checks, ...), in µs with `digits`
/// decimals: ` Upload 0.4, Record 2.8, ..., other 8.6, wall 106.0`.
pub fn line(
    ctx: &Context,
    before: &[(wgblas::Phase, std::time::Duration)],
    total: std::time::Duration,
    calls: usize,
    digits: usize,
) -> String {
    let per = |d: std::time::Duration| d.as_secs_f64() * 1e6 / calls as f64;
    let mut line = String::new();
    let mut sum = 0.0;
    for ((p, t), (_, t0)) in ctx.phase_times().iter().zip(before) {
        let us = per(*t - *t0);
        sum += us;
        line += &format!(" {p:?} {us:.digits$},");
    }
    line + &format!(
        " other {:.digits$}, wall {:.digits$}",
        per(total) - sum,
        per(total)
    )
}
