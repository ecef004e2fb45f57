//! Delivery of results of any element type (the f64 routines): [`finish_as`] reads the host
//! outputs back in one submission and writes them element by element into the caller's views;
//! resident outputs stay on the device.

use super::batch::{write_batch, BatchMut, BatchOperand};
use super::{write_matrix, write_triangle, write_vector, MatMut, MatOperand, VecMut, VecOperand};
use crate::context::Context;
use crate::error::Result;
use crate::flags::Uplo;
use crate::launch::{Command, Dispatch};

/// An output of a routine of element type `T` and the device operand that holds its result.
pub(crate) enum OutAs<'r, 'a, T> {
    /// A whole vector.
    Vec(&'r mut VecMut<'a, T>, &'r VecOperand),
    /// A whole matrix.
    Mat(&'r mut MatMut<'a, T>, &'r MatOperand),
    /// A whole batch of matrices.
    Batch(&'r mut BatchMut<'a, T>, &'r BatchOperand),
    /// One triangle of a square matrix (the other is not written on the host).
    Tri(&'r mut MatMut<'a, T>, &'r MatOperand, Uplo),
}

impl<T> OutAs<'_, '_, T> {
    /// The device buffer holding the result, its span in elements, and the resident output's
    /// own buffer (`None` for a host output).
    fn parts(&self) -> (&wgpu::Buffer, usize, Option<&wgpu::Buffer>) {
        match self {
            OutAs::Vec(v, op) => (
                &op.buffer,
                op.span,
                match &**v {
                    VecMut::Device(d) => Some(d.buffer),
                    VecMut::Host(_) => None,
                },
            ),
            OutAs::Mat(m, op) | OutAs::Tri(m, op, _) => (
                &op.buffer,
                op.span,
                match &**m {
                    MatMut::Device(d) => Some(d.buffer),
                    MatMut::Host(_) => None,
                },
            ),
            OutAs::Batch(b, op) => (
                &op.buffer,
                op.span,
                match &**b {
                    BatchMut::Device(d) => Some(d.buffer),
                    BatchMut::Host(_) => None,
                },
            ),
        }
    }
}

/// Run `dispatches` and deliver `outs` (see the module doc). With only resident outputs
/// nothing waits: the commands are held back for the next submission.
pub(crate) fn finish_as<T: bytemuck::Pod + Send + Sync>(
    ctx: &Context,
    routine: &'static str,
    dispatches: &[Dispatch<'_>],
    outs: &mut [OutAs<'_, '_, T>],
) -> Result<()> {
    let size = std::mem::size_of::<T>();
    let mut copies = Vec::new();
    let mut reads = Vec::new();
    for o in outs.iter() {
        let (buffer, span, resident) = o.parts();
        match resident {
            Some(dst) if dst != buffer => copies.push(Command::Copy {
                src: buffer.clone(),
                src_offset: 0,
                dst: dst.clone(),
                dst_offset: 0,
                size: (span.max(1) * size) as u64,
            }),
            Some(_) => {}
            None => reads.push((buffer.clone(), span)),
        }
    }
    let targets: Vec<(&wgpu::Buffer, usize)> = reads.iter().map(|(b, n)| (b, *n)).collect();
    let mut data = ctx
        .execute_then::<T>(routine, dispatches, copies, &targets)?
        .into_iter();
    for o in outs.iter_mut() {
        match o {
            OutAs::Vec(VecMut::Host(v), op) => {
                write_vector(v, &data.next().unwrap_or_default(), op);
            }
            OutAs::Mat(MatMut::Host(v), op) => {
                write_matrix(v, &data.next().unwrap_or_default(), op);
            }
            OutAs::Batch(BatchMut::Host(v), op) => {
                write_batch(v, &data.next().unwrap_or_default(), op);
            }
            OutAs::Tri(MatMut::Host(v), op, uplo) => {
                write_triangle(v, &data.next().unwrap_or_default(), op, *uplo);
            }
            _ => {}
        }
    }
    Ok(())
}
