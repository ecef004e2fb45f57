//! Operand movement: the upload (or gather) of a view's span into a device buffer
//! ([`vector_any`], [`matrix_any`] and their forms), the write-back of results into the
//! caller's views ([`finish_in`]: one submission, one read-back), and the device copies and
//! clears of resident outputs.

use ndarray::{ArrayView2, ArrayViewMut1, ArrayViewMut2, ArrayViewMut3, Axis};

use super::stream::dest_for;
use super::{
    check_binding, check_ctx, check_fits, source, BatchMut, BatchOperand, BatchRef, Element,
    MatMut, MatOperand, MatRef, VecMut, VecOperand, VecRef,
};
use crate::context::Context;
use crate::error::Result;
use crate::flags::Uplo;
use crate::launch::{Command, Dispatch, Read, SinkFn, Wait};
use crate::pool::Buf;
use crate::transfer::Dest;

/// The public forms of an operand's upload function `$inner` (`vector_for`, `matrix_for`,
/// `batch_for`): each `name<Bound>(flags…)` is `fn name<T: Bound>(ctx, routine, arg, $x: $ty)
/// -> Result<$out>`, calling `$inner(ctx, routine, arg, $x.into(), flags…)` (the `_of` forms
/// choose by `Precision`, the others take any `Element`).
macro_rules! operand_forms {
    ($inner:ident($x:ident: $ty:ty) -> $out:ty {
        $($(#[$doc:meta])* $name:ident<$bound:path>($($flag:expr),*);)*
    }) => {
        $($(#[$doc])*
        pub(crate) fn $name<'v, T: $bound + 'v>(
            ctx: &Context,
            routine: &'static str,
            arg: &'static str,
            $x: $ty,
        ) -> Result<$out> {
            $inner(ctx, routine, arg, $x.into(), $($flag),*)
        })*
    };
}

operand_forms! {
    vector_for(x: impl Into<VecRef<'v, T>>) -> VecOperand {
        /// Upload a vector view (any stride, including negative and zero), or take a resident one as
        /// it is, for routines that process operands in parts ([`vec_chunks`]): the operand may be as
        /// large as one buffer of the device.
        vector_any<Element>();
    }
}

fn vector_for<'v, T: Element + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    x: VecRef<'v, T>,
) -> Result<VecOperand> {
    let size = std::mem::size_of::<T>() as u64;
    let x = match x {
        VecRef::Host(x) => x,
        VecRef::Device(d) => {
            check_ctx(ctx, d.ctx_id, routine, arg)?;
            let high = (d.offset + d.len).max(d.offset + 1) - 1;
            let (buffer, shift) =
                super::resident_buffer(ctx, routine, arg, d.buffer, size, (d.offset, high))?;
            return Ok(VecOperand {
                buffer,
                offset: (d.offset - shift) as u32,
                inc: 1,
                len: d.len,
                span: d.offset - shift + d.len,
            });
        }
    };
    let (src, offset, strides) = source(&x);
    check_fits::<T>(ctx, routine, arg, src.len())?;
    Ok(VecOperand {
        buffer: ctx.upload_source(routine, &src)?,
        offset: offset as u32,
        inc: strides[0] as i32,
        len: x.len(),
        span: src.len(),
    })
}

operand_forms! {
    matrix_for(a: impl Into<MatRef<'v, T>>) -> MatOperand {
        /// Upload a matrix view (C order, F order, transposed, sliced, stepped, negative strides)
        /// for routines that process operands in blocks ([`MatOperand::block`]): the operand may
        /// be as large as one buffer of the device.
        matrix_any<Element>(true, false);
        /// The device operand of an output matrix that the kernel writes in full without reading it
        /// (`beta = 0`): laid out as [`matrix_any`] would, but nothing is uploaded.
        matrix_output_any<Element>(false, false);
    }
}

fn matrix_for<'v, T: Element + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: impl Into<MatRef<'v, T>>,
    upload: bool,
    whole: bool,
) -> Result<MatOperand> {
    let size = std::mem::size_of::<T>() as u64;
    let a = match a.into() {
        MatRef::Host(a) => a,
        MatRef::Device(d) => {
            check_ctx(ctx, d.ctx_id, routine, arg)?;
            let high = d.span.max(d.offset + 1) - 1;
            let (buffer, shift) =
                super::resident_buffer(ctx, routine, arg, d.buffer, size, (d.offset, high))?;
            if whole {
                check_binding(ctx, routine, arg, (d.span - shift) as u64 * size)?;
            }
            return Ok(MatOperand {
                buffer,
                offset: (d.offset - shift) as u32,
                rs: d.rs,
                cs: d.cs,
                rows: d.rows,
                cols: d.cols,
                span: d.span - shift,
            });
        }
    };
    let (src, offset, strides) = source(&a);
    check_fits::<T>(ctx, routine, arg, src.len())?;
    super::check_lines::<T>(ctx, routine, arg, src.len(), src.line())?;
    if whole {
        check_binding(ctx, routine, arg, src.len() as u64 * size)?;
    }
    let buffer = if upload {
        ctx.upload_source(routine, &src)?
    } else {
        ctx.alloc_lines(routine, src.len() as u64 * size, src.line() as u64 * size)?
    };
    Ok(MatOperand {
        buffer,
        offset: offset as u32,
        rs: strides[0] as i32,
        cs: strides[1] as i32,
        rows: a.nrows(),
        cols: a.ncols(),
        span: src.len(),
    })
}

/// Write the read-back span of `op` into the caller's view, element by element.
pub(crate) fn write_vector<T: Copy>(out: &mut ArrayViewMut1<'_, T>, data: &[T], op: &VecOperand) {
    for (i, v) in out.iter_mut().enumerate() {
        *v = data[(op.offset as isize + i as isize * op.inc as isize) as usize];
    }
}

/// Write the read-back span of `op` into the caller's view, element by element.
pub(crate) fn write_matrix<T: Copy>(out: &mut ArrayViewMut2<'_, T>, data: &[T], op: &MatOperand) {
    let (off, rs, cs) = (op.offset as isize, op.rs as isize, op.cs as isize);
    for ((i, j), v) in out.indexed_iter_mut() {
        *v = data[(off + i as isize * rs + j as isize * cs) as usize];
    }
}

/// Write the triangle `uplo` of the read-back span of `op` into the caller's square view,
/// element by element; the other triangle of the view is not touched at all.
pub(crate) fn write_triangle<T: Copy>(
    out: &mut ArrayViewMut2<'_, T>,
    data: &[T],
    op: &MatOperand,
    uplo: Uplo,
) {
    let (off, rs, cs) = (op.offset as isize, op.rs as isize, op.cs as isize);
    for ((i, j), v) in out.indexed_iter_mut() {
        let inside = match uplo {
            Uplo::Lower => i >= j,
            Uplo::Upper => i <= j,
        };
        if inside {
            *v = data[(off + i as isize * rs + j as isize * cs) as usize];
        }
    }
}

/// Where a routine's result goes: the output argument of element type `T` and the device
/// operand that holds the result (the output's own upload, or a separate buffer laid out like
/// it).
pub(crate) enum Out<'r, 'a, T = f32> {
    /// A whole vector.
    Vec(&'r mut VecMut<'a, T>, &'r VecOperand),
    /// A whole matrix.
    Mat(&'r mut MatMut<'a, T>, &'r MatOperand),
    /// One triangle of a square matrix (the other is not written on the host).
    Tri(&'r mut MatMut<'a, T>, &'r MatOperand, Uplo),
    /// A whole batch of matrices.
    Batch(&'r mut BatchMut<'a, T>, &'r BatchOperand),
}

/// An output of a routine of element type `T`: [`Out`] under the name the f64 routines of
/// Level 3 use.
pub(crate) type OutAs<'r, 'a, T> = Out<'r, 'a, T>;

/// Run `dispatches` and deliver the results: host outputs are read back (one submission, one
/// read-back for all of them) and written element by element; resident outputs stay on the
/// device (a result computed in a separate buffer is copied into the output's buffer on the
/// device). With only resident outputs nothing waits: the commands are held back. Host
/// outputs wait for the read-back as `wait` says: the one path of every routine's blocking form
/// and its `_async` twin, in every element type.
pub(crate) async fn finish_in<T: bytemuck::Pod + Default + Send + Sync>(
    ctx: &Context,
    routine: &'static str,
    dispatches: &[Dispatch<'_>],
    outs: &mut [Out<'_, '_, T>],
    wait: Wait,
) -> Result<()> {
    let size = std::mem::size_of::<T>();
    let mut copies = Vec::new();
    // Host outputs: a direct plan, or a buffer for an element-wise write after the read.
    enum Sink<'p, T> {
        Direct(Dest<'p, T>),
        Staged(Vec<T>),
    }
    let staged = |span: usize| Sink::Staged(vec![T::default(); span]);
    let mut sinks: Vec<(usize, &Buf, usize, Sink<'_, T>)> = Vec::new();
    for (k, o) in outs.iter_mut().enumerate() {
        match o {
            Out::Vec(VecMut::Device(d), op) => {
                if !d.buffer.holds(&op.buffer) {
                    let runs = (vec![d.offset], d.len);
                    copies.extend(resident_copies(
                        &op.buffer, op.offset, d.buffer, d.offset, runs, size,
                    ));
                }
            }
            Out::Mat(MatMut::Device(d), op) | Out::Tri(MatMut::Device(d), op, _) => {
                if !d.buffer.holds(&op.buffer) {
                    let runs = d.runs();
                    copies.extend(resident_copies(
                        &op.buffer, op.offset, d.buffer, d.offset, runs, size,
                    ));
                }
            }
            Out::Vec(VecMut::Host(v), op) => {
                let sink = match dest_for(v, op.offset, &[op.inc as isize]) {
                    Some(p) if p.len() == op.span => Sink::Direct(p),
                    _ => staged(op.span),
                };
                sinks.push((k, &op.buffer, op.span, sink));
            }
            Out::Mat(MatMut::Host(v), op) => {
                let sink = match dest_for(v, op.offset, &[op.rs as isize, op.cs as isize]) {
                    Some(p) if p.len() == op.span => Sink::Direct(p),
                    _ => staged(op.span),
                };
                sinks.push((k, &op.buffer, op.span, sink));
            }
            Out::Tri(MatMut::Host(_), op, _) => {
                sinks.push((k, &op.buffer, op.span, staged(op.span)));
            }
            Out::Batch(BatchMut::Device(d), op) => {
                if *op.buffer != **d.buffer {
                    copies.push(Command::Copy {
                        src: (*op.buffer).clone(),
                        src_offset: 0,
                        dst: (**d.buffer).clone(),
                        dst_offset: 0,
                        size: (op.span.max(1) * size) as u64,
                    });
                }
            }
            Out::Batch(BatchMut::Host(v), op) => {
                let strides = [op.bs as isize, op.rs as isize, op.cs as isize];
                // Only a dense view has a direct plan (a 3-D gather plan does not exist).
                let dense = crate::transfer::is_dense(v.shape(), v.strides());
                let sink = match dense.then(|| dest_for(v, op.offset, &strides)).flatten() {
                    Some(p) if p.len() == op.span => Sink::Direct(p),
                    _ => staged(op.span),
                };
                sinks.push((k, &op.buffer, op.span, sink));
            }
        }
    }
    {
        let targets: Vec<(&Buf, usize)> = sinks.iter().map(|(_, b, span, _)| (*b, *span)).collect();
        let fns: Vec<SinkFn<'_>> = sinks
            .iter_mut()
            .map(|(_, _, _, sink)| -> SinkFn<'_> {
                match sink {
                    Sink::Direct(plan) => super::stream::sink(&*plan),
                    Sink::Staged(buf) => {
                        let dst = crate::transfer::SharedBytes::new(bytemuck::cast_slice_mut(
                            buf.as_mut_slice(),
                        ));
                        // SAFETY: pieces are disjoint.
                        Box::new(move |off: u64, bytes: &[u8]| unsafe {
                            dst.write(off as usize, bytes)
                        })
                    }
                }
            })
            .collect();
        let mut reads: Vec<Read<'_>> = targets
            .iter()
            .zip(fns.iter())
            .flat_map(|((buffer, span), f)| {
                Read::of(
                    &buffer.segments(),
                    ((*span * size) as u64).min(buffer.size()),
                    &**f,
                )
            })
            .collect();
        ctx.execute_reads_in(routine, dispatches, copies, &mut reads, wait)
            .await?;
    }
    let staged: Vec<(usize, Vec<T>)> = sinks
        .into_iter()
        .filter_map(|(k, _, _, s)| match s {
            Sink::Staged(v) => Some((k, v)),
            Sink::Direct(_) => None,
        })
        .collect();
    for (k, data) in staged {
        match &mut outs[k] {
            Out::Vec(VecMut::Host(v), op) => write_vector(v, &data, op),
            Out::Mat(MatMut::Host(v), op) => write_matrix(v, &data, op),
            Out::Tri(MatMut::Host(v), op, uplo) => write_triangle(v, &data, op, *uplo),
            Out::Batch(BatchMut::Host(v), op) => write_batch(v, &data, op),
            _ => {}
        }
    }
    Ok(())
}

/// The copies that move a result computed in a buffer of its own (laid out as the resident
/// output it is for, from element `src_offset`) into that output, whose element `dst_offset`
/// corresponds to it: one copy per contiguous run of the output (`runs`: element starts in
/// the output's buffer, run length; see `DeviceMat::runs`), so that the elements of the
/// buffer outside a sub-view are never written.
pub(crate) fn resident_copies(
    src: &wgpu::Buffer,
    src_offset: u32,
    dst: &Buf,
    dst_offset: usize,
    (starts, len): (Vec<usize>, usize),
    size: usize,
) -> Vec<Command> {
    if len == 0 {
        return Vec::new();
    }
    // In a segmented output, a run is split where it passes from one segment to the next.
    starts
        .into_iter()
        .flat_map(|s| {
            let from = ((s - dst_offset + src_offset as usize) * size) as u64;
            dst.split((s * size) as u64, (len * size) as u64)
                .into_iter()
                .map(move |(b, at, bytes, rel)| Command::Copy {
                    src: src.clone(),
                    src_offset: from + rel,
                    dst: b.clone(),
                    dst_offset: at,
                    size: bytes,
                })
        })
        .collect()
}

/// Set every element of `out` to zero (on the device for a resident output: only its own
/// elements, run by run, so a sub-view's neighbours are left alone).
pub(crate) fn fill_zero<T: Copy + Default>(ctx: &Context, out: &mut MatMut<'_, T>) {
    match out {
        MatMut::Host(v) => v.fill(T::default()),
        MatMut::Device(d) => {
            let size = std::mem::size_of::<T>() as u64;
            let (starts, len) = d.runs();
            ctx.hold(
                starts
                    .into_iter()
                    .flat_map(|s| d.buffer.split(s as u64 * size, len as u64 * size))
                    .map(|(b, offset, bytes, _)| Command::Clear {
                        buffer: b.clone(),
                        offset,
                        size: Some(bytes),
                    })
                    .collect(),
            )
        }
    }
}

operand_forms! {
    batch_for(a: BatchRef<'v, T>) -> BatchOperand {
        /// Upload an input batch (see the rules of `layout/batch.rs`), as large as one buffer
        /// (past one storage binding the routine binds windows of its products,
        /// [`BatchOperand::part`], or blocks of each, [`BatchOperand::entry`]).
        batch<Element>(true);
        /// The device operand of an output batch that the kernel writes in full without reading it
        /// (`beta = 0`): laid out as [`batch`] would, nothing uploaded.
        batch_output<Element>(false);
    }
}

fn batch_for<'v, T: Element + 'v>(
    ctx: &Context,
    routine: &'static str,
    arg: &'static str,
    a: BatchRef<'v, T>,
    upload: bool,
) -> Result<BatchOperand> {
    let size = std::mem::size_of::<T>() as u64;
    let a = match a {
        BatchRef::Host(a) => a,
        BatchRef::Device(d) => {
            check_ctx(ctx, d.ctx_id, routine, arg)?;
            let high = d.span.max(1) - 1;
            let (buffer, shift) =
                super::resident_buffer(ctx, routine, arg, d.buffer, size, (0, high))?;
            debug_assert_eq!(shift, 0, "a resident batch starts its buffer");
            return Ok(BatchOperand {
                buffer,
                offset: 0,
                bs: if d.batch <= 1 { 0 } else { d.bs },
                rs: d.rs,
                cs: d.cs,
                span: d.span,
            });
        }
    };
    if a.len_of(Axis(0)) <= 1 || a.strides()[0] == 0 {
        // One matrix for the whole batch: uploaded once, read with batch stride 0.
        let one: ArrayView2<'v, T> = a.index_axis_move(Axis(0), 0);
        let m = if upload {
            matrix_any(ctx, routine, arg, MatRef::Host(one))?
        } else {
            matrix_output_any(ctx, routine, arg, MatRef::Host(one))?
        };
        return Ok(BatchOperand {
            buffer: m.buffer,
            offset: m.offset,
            bs: 0,
            rs: m.rs,
            cs: m.cs,
            span: m.span,
        });
    }
    // Past one buffer: segments of whole lines (`batch::batch_line`).
    let line = |strides: [isize; 3]| {
        let dims = [a.dim().0, a.dim().1, a.dim().2];
        super::batch::batch_line(ctx.max_buffer(), size, dims, strides)
    };
    if crate::transfer::is_dense(a.shape(), a.strides()) {
        let (src, offset, strides) = source(&a);
        check_fits::<T>(ctx, routine, arg, src.len())?;
        let (l, span) = (line([strides[0], strides[1], strides[2]]), src.len());
        super::check_lines::<T>(ctx, routine, arg, span, l)?;
        let buffer = if upload {
            ctx.upload_source(routine, &src.with_line(l))?
        } else {
            ctx.alloc_lines(routine, span as u64 * size, l as u64 * size)?
        };
        return Ok(BatchOperand {
            buffer,
            offset: offset as u32,
            bs: strides[0] as i32,
            rs: strides[1] as i32,
            cs: strides[2] as i32,
            span,
        });
    }
    // Gaps: one gathering copy in logical C order.
    check_fits::<T>(ctx, routine, arg, a.len())?;
    let (_, m, n) = a.dim();
    let l = line([(m * n) as isize, n as isize, 1]);
    super::check_lines::<T>(ctx, routine, arg, a.len(), l)?;
    let buffer = if upload {
        let packed = a.as_standard_layout();
        let data = packed.as_slice().unwrap_or_default();
        let src = crate::transfer::Source::slice(data).with_line(l);
        ctx.upload_source(routine, &src)?
    } else {
        ctx.alloc_lines(routine, a.len() as u64 * size, l as u64 * size)?
    };
    Ok(BatchOperand {
        buffer,
        offset: 0,
        bs: (m * n) as i32,
        rs: n as i32,
        cs: 1,
        span: a.len(),
    })
}

/// Write the read-back span of `op` into the caller's view, element by element.
pub(crate) fn write_batch<T: Copy>(out: &mut ArrayViewMut3<'_, T>, data: &[T], op: &BatchOperand) {
    let (off, bs, rs, cs) = (
        op.offset as isize,
        op.bs as isize,
        op.rs as isize,
        op.cs as isize,
    );
    for ((b, i, j), v) in out.indexed_iter_mut() {
        *v = data[(off + b as isize * bs + i as isize * rs + j as isize * cs) as usize];
    }
}
