//! Delivery of results of any element type (the f64 routines): [`finish_as`] reads a host
//! output back in one submission and writes it element by element into the caller's view; a
//! resident output stays on the device.

use ndarray::ArrayViewMut2;

use super::batch::{write_batch, BatchMut, BatchOperand};
use super::{MatMut, MatOperand, VecMut, VecOperand};
use crate::context::Context;
use crate::error::Result;
use crate::launch::{Command, Dispatch};

/// The output of a routine of element type `T` and the device operand that holds its result.
pub(crate) enum OutAs<'r, 'a, T> {
    /// A whole vector.
    Vec(&'r mut VecMut<'a, T>, &'r VecOperand),
    /// A whole matrix.
    Mat(&'r mut MatMut<'a, T>, &'r MatOperand),
    /// A whole batch of matrices.
    Batch(&'r mut BatchMut<'a, T>, &'r BatchOperand),
}

/// Run `dispatches` and deliver `out` (see the module doc). With a resident output nothing
/// waits: the commands are held back for the next submission.
pub(crate) fn finish_as<T: bytemuck::Pod + Send + Sync>(
    ctx: &Context,
    routine: &'static str,
    dispatches: &[Dispatch<'_>],
    out: OutAs<'_, '_, T>,
) -> Result<()> {
    let size = std::mem::size_of::<T>();
    let copy = |src: &wgpu::Buffer, dst: &wgpu::Buffer, span: usize| Command::Copy {
        src: src.clone(),
        src_offset: 0,
        dst: dst.clone(),
        dst_offset: 0,
        size: (span.max(1) * size) as u64,
    };
    match out {
        OutAs::Vec(VecMut::Device(d), op) => {
            let copies = if *op.buffer != *d.buffer {
                vec![copy(&op.buffer, d.buffer, op.span)]
            } else {
                Vec::new()
            };
            ctx.execute_then::<T>(routine, dispatches, copies, &[])?;
        }
        OutAs::Vec(VecMut::Host(v), op) => {
            let data = read(ctx, routine, dispatches, &op.buffer, op.span)?;
            super::write_vector(v, &data, op);
        }
        OutAs::Mat(MatMut::Device(d), op) => {
            let copies = if *op.buffer != *d.buffer {
                vec![copy(&op.buffer, d.buffer, op.span)]
            } else {
                Vec::new()
            };
            ctx.execute_then::<T>(routine, dispatches, copies, &[])?;
        }
        OutAs::Batch(BatchMut::Device(d), op) => {
            let copies = if *op.buffer != *d.buffer {
                vec![copy(&op.buffer, d.buffer, op.span)]
            } else {
                Vec::new()
            };
            ctx.execute_then::<T>(routine, dispatches, copies, &[])?;
        }
        OutAs::Mat(MatMut::Host(v), op) => {
            let data = read(ctx, routine, dispatches, &op.buffer, op.span)?;
            write_matrix(v, &data, op);
        }
        OutAs::Batch(BatchMut::Host(v), op) => {
            let data = read(ctx, routine, dispatches, &op.buffer, op.span)?;
            write_batch(v, &data, op);
        }
    }
    Ok(())
}

fn read<T: bytemuck::Pod>(
    ctx: &Context,
    routine: &'static str,
    dispatches: &[Dispatch<'_>],
    buffer: &wgpu::Buffer,
    span: usize,
) -> Result<Vec<T>> {
    Ok(ctx
        .execute::<T>(routine, dispatches, &[(buffer, span)])?
        .pop()
        .unwrap_or_default())
}

fn write_matrix<T: Copy>(out: &mut ArrayViewMut2<'_, T>, data: &[T], op: &MatOperand) {
    super::write_matrix(out, data, op);
}
