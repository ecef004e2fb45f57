//! Delivery of results of any element type (the f64 routines): [`finish_as`] reads the host
//! outputs back in one submission and writes them element by element into the caller's views;
//! resident outputs stay on the device.

use super::operands::{write_batch, write_matrix, write_triangle, write_vector};
use super::{BatchMut, BatchOperand, MatMut, MatOperand, VecMut, VecOperand};
use crate::context::Context;
use crate::error::Result;
use crate::flags::Uplo;
use crate::launch::{Command, Dispatch, Wait};
use crate::pool::Buf;

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
    /// The device buffer holding the result and its span in elements, and for a resident
    /// output the copies that move a result computed in a buffer of its own into it (none
    /// when the result was computed in place).
    fn parts(&self, size: usize) -> (&wgpu::Buffer, usize, Option<Vec<Command>>) {
        let own = |buffer: &wgpu::Buffer, dst: &Buf, f: &dyn Fn() -> Vec<Command>| {
            Some(if dst.holds(buffer) { Vec::new() } else { f() })
        };
        match self {
            OutAs::Vec(v, op) => (
                &op.buffer,
                op.span,
                match &**v {
                    VecMut::Device(d) => own(&op.buffer, d.buffer, &|| {
                        super::resident_copies(
                            &op.buffer,
                            op.offset,
                            d.buffer,
                            d.offset,
                            (vec![d.offset], d.len),
                            size,
                        )
                    }),
                    VecMut::Host(_) => None,
                },
            ),
            OutAs::Mat(m, op) | OutAs::Tri(m, op, _) => (
                &op.buffer,
                op.span,
                match &**m {
                    MatMut::Device(d) => own(&op.buffer, d.buffer, &|| {
                        super::resident_copies(
                            &op.buffer,
                            op.offset,
                            d.buffer,
                            d.offset,
                            d.runs(),
                            size,
                        )
                    }),
                    MatMut::Host(_) => None,
                },
            ),
            OutAs::Batch(b, op) => (
                &op.buffer,
                op.span,
                match &**b {
                    BatchMut::Device(d) => own(&op.buffer, &Buf::shared(d.buffer), &|| {
                        vec![Command::Copy {
                            src: (*op.buffer).clone(),
                            src_offset: 0,
                            dst: d.buffer.clone(),
                            dst_offset: 0,
                            size: (op.span.max(1) * size) as u64,
                        }]
                    }),
                    BatchMut::Host(_) => None,
                },
            ),
        }
    }
}

/// Run `dispatches` and deliver `outs` (see the module doc). With only resident outputs
/// nothing waits: the commands are held back for the next submission; host outputs wait for
/// the read-back as `wait` says.
pub(crate) async fn finish_as_in<T: bytemuck::Pod + Send + Sync>(
    ctx: &Context,
    routine: &'static str,
    dispatches: &[Dispatch<'_>],
    outs: &mut [OutAs<'_, '_, T>],
    wait: Wait,
) -> Result<()> {
    let size = std::mem::size_of::<T>();
    let mut copies = Vec::new();
    let mut reads = Vec::new();
    for o in outs.iter() {
        let (buffer, span, resident) = o.parts(size);
        match resident {
            Some(c) => copies.extend(c),
            None => reads.push((buffer.clone(), span)),
        }
    }
    let targets: Vec<(&wgpu::Buffer, usize)> = reads.iter().map(|(b, n)| (b, *n)).collect();
    let mut data = ctx
        .execute_then_in::<T>(routine, dispatches, copies, &targets, wait)
        .await?
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
