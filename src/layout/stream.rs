//! Streamed host outputs: the read-back of one block of a host output matrix submitted with the
//! dispatches that compute it, and waited for later ([`submit_block`], [`complete_block`]), so
//! that a routine can submit the next block's upload and dispatches while the device still
//! works on this one, and copy this block out while the device computes the next (the
//! row-block pipeline of a host-form `sgemm`, `blas/level3/gemm.rs`).

use ndarray::{ArrayViewMut2, Dimension};

use super::MatOperand;
use crate::context::Context;
use crate::error::Result;
use crate::launch::{Dispatch, Read, SinkFn, Submitted, Wait};
use crate::transfer::Dest;

/// The plan of an output view, if the device holds it in exactly that plan's order (it was
/// uploaded from this view): then read-back scatters straight into the view.
pub(super) fn dest_for<'a, T: Copy + Send + Sync, D: Dimension>(
    view: &'a mut ndarray::ArrayViewMut<'_, T, D>,
    offset: u32,
    strides: &[isize],
) -> Option<Dest<'a, T>> {
    // SAFETY: pointer, shape and strides come from a live view borrowed mutably for `'a`.
    let (plan, off, st) = unsafe { Dest::of_view(view.as_mut_ptr(), view.shape(), view.strides()) };
    (off == offset as usize && st == strides).then_some(plan)
}

/// The read-back plan of the host output `view` whose device operand is `op`, when the device
/// holds exactly the view's elements in that plan's order (so read-back scatters straight into
/// the view); `None` otherwise.
pub(crate) fn direct<'a, T: Copy + Send + Sync>(
    view: &'a mut ArrayViewMut2<'_, T>,
    op: &MatOperand,
) -> Option<Dest<'a, T>> {
    dest_for(view, op.offset, &[op.rs as isize, op.cs as isize]).filter(|p| p.len() == op.span)
}

/// The sink that scatters read-back bytes (element-aligned pieces at byte offsets of the
/// operand) through `plan` into its view.
pub(crate) fn sink<'p, T: bytemuck::Pod + Send + Sync>(plan: &'p Dest<'_, T>) -> SinkFn<'p> {
    let size = std::mem::size_of::<T>();
    Box::new(move |off: u64, bytes: &[u8]| {
        let vals: &[T] = bytemuck::cast_slice(bytes);
        // SAFETY: the plan comes from an output view borrowed mutably for the whole call;
        // pieces are disjoint.
        unsafe { plan.scatter_serial(off as usize / size, vals) };
    })
}

/// The reads of `op`'s elements into `sink`.
fn reads<'r, T>(op: &'r MatOperand, sink: &'r SinkFn<'_>) -> Vec<Read<'r>> {
    let bytes = (op.span * std::mem::size_of::<T>()) as u64;
    Read::of(&op.buffer.segments(), bytes.min(op.buffer.size()), &**sink)
}

/// Record `dispatches` and submit them, with everything held, and the read-back of `op`
/// (the device operand of a host output block); wait for nothing. `None` where `op` holds no
/// element.
pub(crate) fn submit_block<T>(
    ctx: &Context,
    routine: &'static str,
    dispatches: &[Dispatch<'_>],
    op: &MatOperand,
    sink: &SinkFn<'_>,
    wait: Wait,
) -> Result<Option<Submitted>> {
    ctx.submit_reads(routine, dispatches, Vec::new(), &reads::<T>(op, sink), wait)
}

/// Wait for a block submitted by [`submit_block`] (with the same `op` and `sink`) and write it
/// into its view.
pub(crate) async fn complete_block<T>(
    ctx: &Context,
    routine: &'static str,
    submitted: Submitted,
    op: &MatOperand,
    sink: &SinkFn<'_>,
    wait: Wait,
) -> Result<()> {
    let mut r = reads::<T>(op, sink);
    ctx.complete_reads(routine, submitted, &mut r, wait).await
}
